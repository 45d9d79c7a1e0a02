"""pyACL's single-operator API on aclsim: built-in ops by GE type name, run by the aclnn library.

A float32 batch is scaled with "Muls" (attribute ``value``) through a handle made once and
executed on every batch (``acl.op.create_handle`` / ``execute_with_handle``), then converted
to float16 with "Cast" (attribute ``dst_type``) by ``acl.op.execute_v2``; an unknown op
type returns ACL_ERROR_OP_NOT_FOUND with a message saying which types aclsim runs.
"""

import numpy as np

import aclsim.acl as acl

H2D, D2H = acl.ACL_MEMCPY_HOST_TO_DEVICE, acl.ACL_MEMCPY_DEVICE_TO_HOST
SHAPE = [4, 100]


def check_ret(message, ret):
    if ret != acl.ACL_SUCCESS:
        raise RuntimeError(f"{message} failed ret={ret}: {acl.get_recent_err_msg()}")


def device_tensor(data_type):
    desc = acl.create_tensor_desc(data_type, SHAPE, acl.ACL_FORMAT_ND)
    size = acl.get_tensor_desc_size(desc)
    ptr, ret = acl.rt.malloc(size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    check_ret("acl.rt.malloc", ret)
    return desc, ptr, acl.create_data_buffer(ptr, size), size


check_ret("acl.init", acl.init())
check_ret("acl.rt.set_device", acl.rt.set_device(0))
stream, ret = acl.rt.create_stream()
check_ret("acl.rt.create_stream", ret)

x_desc, x_ptr, x_buf, x_size = device_tensor(acl.ACL_FLOAT)
y_desc, y_ptr, y_buf, _ = device_tensor(acl.ACL_FLOAT)
h_desc, h_ptr, h_buf, h_size = device_tensor(acl.ACL_FLOAT16)

# "Muls" with value = 0.5, matched once
muls_attr = acl.op.create_attr()
check_ret("acl.op.set_attr_float", acl.op.set_attr_float(muls_attr, "value", 0.5))
handle, ret = acl.op.create_handle("Muls", [x_desc], [y_desc], muls_attr)
check_ret("acl.op.create_handle", ret)

cast_attr = acl.op.create_attr()
_, ret = acl.op.set_attr_data_type(cast_attr, "dst_type", acl.ACL_FLOAT16)
check_ret("acl.op.set_attr_data_type", ret)

rng = np.random.default_rng(0)
ok = True
for batch in range(3):
    x = rng.standard_normal(SHAPE).astype(np.float32)
    check_ret("acl.rt.memcpy", acl.rt.memcpy(x_ptr, x_size, acl.util.numpy_to_ptr(x), x_size, H2D))
    check_ret("acl.op.execute_with_handle", acl.op.execute_with_handle(handle, [x_buf], [y_buf], stream))
    ret = acl.op.execute_v2("Cast", [y_desc], [y_buf], [h_desc], [h_buf], cast_attr, stream)
    check_ret("acl.op.execute_v2", ret)
    check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(stream))
    out = np.zeros(SHAPE, np.float16)
    check_ret("acl.rt.memcpy", acl.rt.memcpy(acl.util.numpy_to_ptr(out), h_size, h_ptr, h_size, D2H))
    good = np.array_equal(out, (x * np.float32(0.5)).astype(np.float16))
    ok &= good
    print(f"batch {batch}: Muls(0.5) then Cast to float16 {'matches' if good else 'DIFFERS FROM'} NumPy")

ret = acl.op.execute_v2("Softplus", [x_desc], [x_buf], [y_desc], [y_buf], 0, stream)
print(f"an op type aclsim does not run: ret={ret} ({'ACL_ERROR_OP_NOT_FOUND' if ret == 100024 else '?'})")
print("  " + acl.get_recent_err_msg().splitlines()[0][:110] + "...")
ok &= ret == acl.ACL_ERROR_OP_NOT_FOUND

acl.op.destroy_handle(handle)
acl.op.destroy_attr(muls_attr)
acl.op.destroy_attr(cast_attr)
for desc, ptr, buf in ((x_desc, x_ptr, x_buf), (y_desc, y_ptr, y_buf), (h_desc, h_ptr, h_buf)):
    check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(buf))
    check_ret("acl.rt.free", acl.rt.free(ptr))
    acl.destroy_tensor_desc(desc)
check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(stream))
check_ret("acl.rt.reset_device", acl.rt.reset_device(0))
check_ret("acl.finalize", acl.finalize())
print("PASS" if ok else "FAIL")
