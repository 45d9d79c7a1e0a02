"""The C-name face: pyACL's return convention, statuses instead of exceptions, the recent messages."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import aclsim
from aclsim import aclnn
from aclsim.aclnn import compat as nn


def _dev(a: np.ndarray) -> Any:
    b = aclsim.malloc(a.nbytes)
    aclsim.memcpy(b, a.nbytes, a, a.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    return b


def test_add_flow_with_c_names(rt: None) -> None:
    a, b = np.arange(10, dtype=np.float32), np.full(10, 2, np.float32)
    bufs = [_dev(a), _dev(b), _dev(np.zeros(10, np.float32))]
    ts = [nn.aclCreateTensor([10], nn.ACL_FLOAT, [1], 0, nn.ACL_FORMAT_ND, [10], buf.ptr) for buf in bufs]
    alpha = nn.aclCreateScalar(3.0, nn.ACL_FLOAT)
    ws, ex, ret = nn.aclnnAddGetWorkspaceSize(ts[0], ts[1], alpha, ts[2])
    assert (ws, ret) == (0, nn.ACLNN_SUCCESS) and ex is not None
    stream = aclsim.create_stream()
    assert nn.aclnnAdd(None, ws, ex, stream) == 0
    aclsim.synchronize_stream(stream)
    z = np.empty(10, np.float32)
    aclsim.memcpy(z, 40, bufs[2], 40, aclsim.MemcpyKind.DEVICE_TO_HOST)
    np.testing.assert_array_equal(z, a + 3 * b)
    assert nn.aclGetViewShape(ts[0]) == ([10], 0)
    assert nn.aclGetDataType(ts[0]) == (nn.ACL_FLOAT, 0)
    assert nn.aclGetFormat(ts[0]) == (nn.ACL_FORMAT_ND, 0)
    assert nn.aclGetViewStrides(ts[0]) == ([1], 0) and nn.aclGetViewOffset(ts[0]) == (0, 0)
    assert all(nn.aclDestroyTensor(t) == 0 for t in ts) and nn.aclDestroyScalar(alpha) == 0
    assert nn.aclnnAdd(None, ws, ex, stream) == 161001  # consumed by its run
    assert "freed" in (nn.aclGetRecentErrMsg() or "")


def test_failures_are_statuses_with_messages(rt: None) -> None:
    assert nn.aclGetRecentErrMsg() is None
    assert nn.aclCreateTensor(None, nn.ACL_FLOAT, None, 0, nn.ACL_FORMAT_ND, None, 0) is None
    t = nn.aclCreateTensor([2, 3], nn.ACL_FLOAT, [3, 1], 0, nn.ACL_FORMAT_ND, [2, 3], 0)
    assert nn.aclnnAddGetWorkspaceSize(t, None, None, t) == (0, None, 161001)
    u = nn.aclCreateTensor([2, 3], nn.ACL_UINT16, [3, 1], 0, nn.ACL_FORMAT_ND, [2, 3], 0)
    assert nn.aclnnMulGetWorkspaceSize(t, u, t) == (0, None, 161002)
    assert nn.aclGetViewShape(None) == (None, 161001)
    assert nn.aclSetAclOpExecutorRepeatable(None) == 561103
    assert nn.aclDestroyAclOpExecutor(None) == 561103
    assert nn.aclDestroyTensor(None) == 0
    messages = (nn.aclGetRecentErrMsg() or "").splitlines()
    assert messages[0].startswith("aclDestroyAclOpExecutor: [ACLNN_ERR_INNER_NULLPTR 561103]")
    assert messages[-1].startswith("aclCreateTensor: [ACLNN_ERR_PARAM_NULLPTR 161001] view_dims is None")
    assert any("aclnnMulGetWorkspaceSize" in m and "ACL_UINT16" in m for m in messages)
    assert nn.aclGetRecentErrMsg() is None


def test_every_registered_op_has_both_c_names() -> None:
    for name in aclnn.op_names():
        assert callable(getattr(nn, f"aclnn{name}GetWorkspaceSize")) and callable(getattr(nn, f"aclnn{name}"))


def test_meta_calls(rt: None) -> None:
    arr = nn.aclCreateIntArray([1, 2, 3])
    assert nn.aclGetIntArraySize(arr) == (3, 0) and nn.aclDestroyIntArray(arr) == 0
    assert nn.aclDestroyIntArray(arr) == 161002
    fl, bl = nn.aclCreateFloatArray([1.0]), nn.aclCreateBoolArray([True, False])
    assert nn.aclGetFloatArraySize(fl) == (1, 0) and nn.aclGetBoolArraySize(bl) == (2, 0)
    t = nn.aclCreateTensor([4], nn.ACL_INT32, [1], 0, nn.ACL_FORMAT_ND, [4], 64)
    assert nn.aclSetRawTensorAddr(t, 128) == 0 and nn.aclGetRawTensorAddr(t) == (128, 0)
    assert nn.aclInitTensor(t, [2, 2], nn.ACL_INT32, [2, 1], 0, nn.ACL_FORMAT_ND, [2, 2], 64) == 0
    assert nn.aclGetStorageShape(t) == ([2, 2], 0)
    lst = nn.aclCreateTensorList([t])
    assert nn.aclGetTensorListSize(lst) == (1, 0) and nn.aclDestroyTensorList(lst) == 0
    sl = nn.aclCreateScalarList([nn.aclCreateScalar(1, nn.ACL_INT32)])
    assert nn.aclGetScalarListSize(sl) == (1, 0) and nn.aclDestroyScalarList(sl) == 0
    nn.aclGetRecentErrMsg()


def test_wrong_argument_count_raises_type_error() -> None:
    with pytest.raises(TypeError):
        nn.aclDestroyTensor()


def test_pyacl_stream_handles_are_accepted(rt: None) -> None:
    import aclsim.acl as acl

    a = np.arange(8, dtype=np.float32)
    buf = _dev(a)
    t = nn.aclCreateTensor([8], nn.ACL_FLOAT, [1], 0, nn.ACL_FORMAT_ND, [8], buf.ptr)
    stream, ret = acl.rt.create_stream()
    assert ret == 0 and isinstance(stream, int)
    ws, ex, ret = nn.aclnnNegGetWorkspaceSize(t, t)
    assert nn.aclnnNeg(None, ws, ex, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    ws, ex, ret = nn.aclnnNegGetWorkspaceSize(t, t)
    assert nn.aclnnNeg(None, ws, ex, 0) == 0  # 0: the default stream
    aclsim.synchronize_device()
    z = np.empty(8, np.float32)
    aclsim.memcpy(z, 32, buf, 32, aclsim.MemcpyKind.DEVICE_TO_HOST)
    np.testing.assert_array_equal(z, a)  # negated twice
    ws, ex, ret = nn.aclnnNegGetWorkspaceSize(t, t)
    assert nn.aclnnNeg(None, ws, ex, 12345) == 361001
    assert "not a live stream handle" in (nn.aclGetRecentErrMsg() or "")
    acl.rt.destroy_stream(stream)
