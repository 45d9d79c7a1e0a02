"""The aclnn documentation's Add sample, line by line, in aclsim's Python API.

aclnnAdd computes out = self + alpha * other. The flow: init the runtime, set the device,
create a stream; create the device tensors (malloc, copy the host data in, aclCreateTensor);
create the alpha scalar; phase one (aclnnAddGetWorkspaceSize); allocate the workspace if
one is needed; phase two (aclnnAdd) on the stream; synchronize; copy the result back;
release everything in order.
"""

import numpy as np

import aclsim
from aclsim import aclnn

DEVICE_ID = 0


def create_acl_tensor(host_data, shape, data_type):
    """The sample's CreateAclTensor: device memory, a host-to-device copy, a contiguous descriptor."""
    host = np.asarray(host_data, dtype=aclnn.numpy_dtype(data_type)).reshape(shape)
    size = host.nbytes
    device_addr = aclsim.malloc(size)
    aclsim.memcpy(device_addr, size, host, size, aclsim.MemcpyKind.HOST_TO_DEVICE)
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = shape[i + 1] * strides[i + 1]
    tensor = aclnn.create_tensor(shape, data_type, strides, 0, aclnn.Format.ACL_FORMAT_ND, shape, device_addr)
    return device_addr, tensor


# 1. (fixed) init the device and the stream
aclsim.init()
aclsim.set_device(DEVICE_ID)
stream = aclsim.create_stream()

# 2. construct the inputs and the output
self_shape, other_shape, out_shape = [4, 2], [4, 2], [4, 2]
self_host = [0, 1, 2, 3, 4, 5, 6, 7]
other_host = [1, 1, 1, 2, 2, 2, 3, 3]
out_host = [0] * 8
alpha_value = 1.2
self_addr, self_t = create_acl_tensor(self_host, self_shape, aclnn.DataType.ACL_FLOAT)
other_addr, other_t = create_acl_tensor(other_host, other_shape, aclnn.DataType.ACL_FLOAT)
out_addr, out_t = create_acl_tensor(out_host, out_shape, aclnn.DataType.ACL_FLOAT)
alpha = aclnn.create_scalar(alpha_value, aclnn.DataType.ACL_FLOAT)

# 3. phase one: validate, plan, size the workspace
workspace_size, executor = aclnn.add_get_workspace_size(self_t, other_t, alpha, out_t)
print(f"aclnnAddGetWorkspaceSize: workspace {workspace_size} B, {executor}")
workspace_addr = aclsim.malloc(workspace_size) if workspace_size > 0 else None

# 4. phase two: enqueue on the stream, then wait for it
aclnn.add(workspace_addr, workspace_size, executor, stream)
aclsim.synchronize_stream(stream)

# 5. copy the result back and check it
result = np.zeros(8, np.float32)
aclsim.memcpy(result, result.nbytes, out_addr, result.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
for i, v in enumerate(result):
    print(f"result[{i}] is: {v:f}")
expected = np.float32(self_host) + np.float32(alpha_value) * np.float32(other_host)
ok = np.allclose(result, expected, rtol=1e-6)

# 6. release: descriptors, device memory, workspace, stream, device
aclnn.destroy_tensor(self_t)
aclnn.destroy_tensor(other_t)
aclnn.destroy_scalar(alpha)
aclnn.destroy_tensor(out_t)
for addr in (self_addr, other_addr, out_addr):
    aclsim.free(addr)
if workspace_addr is not None:
    aclsim.free(workspace_addr)
aclsim.destroy_stream(stream)
aclsim.reset_device(DEVICE_ID)
leaks = aclsim.finalize()
print("PASS" if ok and not leaks else "FAIL")
