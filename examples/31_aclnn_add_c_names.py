"""The same aclnnAdd program with AscendCL's C names: pyACL for the runtime (``aclsim.acl``)
and ``aclsim.aclnn.compat`` for aclnn, both with pyACL's return convention (values first,
the status last), so code ported from the C++ sample keeps its names and its checks."""

import numpy as np

import aclsim.acl as acl
from aclsim.aclnn.compat import (
    ACL_FLOAT,
    ACL_FORMAT_ND,
    aclCreateScalar,
    aclCreateTensor,
    aclDestroyScalar,
    aclDestroyTensor,
    aclGetRecentErrMsg,
    aclnnAdd,
    aclnnAddGetWorkspaceSize,
)

ACL_SUCCESS = 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
DEVICE_ID = 0


def check_ret(message, ret):
    if ret != ACL_SUCCESS:
        raise RuntimeError(f"{message} failed ret={ret}: {acl.get_recent_err_msg() or aclGetRecentErrMsg()}")


def create_acl_tensor(host_data, shape, data_type):
    host = np.asarray(host_data, dtype=np.float32)
    size = host.nbytes
    device_addr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
    check_ret("aclrtMalloc", ret)
    ret = acl.rt.memcpy(device_addr, size, acl.util.numpy_to_ptr(host), size, ACL_MEMCPY_HOST_TO_DEVICE)
    check_ret("aclrtMemcpy", ret)
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = shape[i + 1] * strides[i + 1]
    tensor = aclCreateTensor(shape, data_type, strides, 0, ACL_FORMAT_ND, shape, device_addr)
    if tensor is None:
        raise RuntimeError(f"aclCreateTensor failed: {aclGetRecentErrMsg()}")
    return device_addr, tensor


check_ret("aclInit", acl.init())
check_ret("aclrtSetDevice", acl.rt.set_device(DEVICE_ID))
stream, ret = acl.rt.create_stream()
check_ret("aclrtCreateStream", ret)

self_host = [0, 1, 2, 3, 4, 5, 6, 7]
other_host = [1, 1, 1, 2, 2, 2, 3, 3]
self_addr, self_t = create_acl_tensor(self_host, [4, 2], ACL_FLOAT)
other_addr, other_t = create_acl_tensor(other_host, [4, 2], ACL_FLOAT)
out_addr, out_t = create_acl_tensor([0] * 8, [4, 2], ACL_FLOAT)
alpha = aclCreateScalar(1.2, ACL_FLOAT)

workspace_size, executor, ret = aclnnAddGetWorkspaceSize(self_t, other_t, alpha, out_t)
check_ret("aclnnAddGetWorkspaceSize", ret)
workspace_addr = None
if workspace_size > 0:
    workspace_addr, ret = acl.rt.malloc(workspace_size, ACL_MEM_MALLOC_HUGE_FIRST)
    check_ret("allocate workspace", ret)
check_ret("aclnnAdd", aclnnAdd(workspace_addr, workspace_size, executor, stream))
check_ret("aclrtSynchronizeStream", acl.rt.synchronize_stream(stream))

result = np.zeros(8, np.float32)
check_ret("copy result", acl.rt.memcpy(acl.util.numpy_to_ptr(result), result.nbytes, out_addr, result.nbytes,
                                       ACL_MEMCPY_DEVICE_TO_HOST))
for i, v in enumerate(result):
    print(f"result[{i}] is: {v:f}")
expected = np.float32(self_host) + np.float32(1.2) * np.float32(other_host)
ok = bool(np.allclose(result, expected, rtol=1e-6))

for handle in (self_t, other_t, out_t):
    check_ret("aclDestroyTensor", aclDestroyTensor(handle))
check_ret("aclDestroyScalar", aclDestroyScalar(alpha))
for addr in (self_addr, other_addr, out_addr, workspace_addr):
    if addr is not None:
        check_ret("aclrtFree", acl.rt.free(addr))
check_ret("aclrtDestroyStream", acl.rt.destroy_stream(stream))
check_ret("aclrtResetDevice", acl.rt.reset_device(DEVICE_ID))
check_ret("aclFinalize", acl.finalize())
print("PASS" if ok else "FAIL")
