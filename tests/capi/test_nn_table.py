"""The aclnn half of the C face without a compiler: the op table and its generated headers,
the prototypes they give, and the Python implementations called directly with cffi values."""

from __future__ import annotations

import ctypes
import inspect
import re
import warnings
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import aclsim.acl as acl
import aclsim.errors as errors
from aclsim import aclnn
from aclsim.capi import aclnn_table, prototypes
from aclsim.errors import AclError, LeakWarning

cffi = pytest.importorskip("cffi", reason="the C face needs cffi (pip install 'aclsim[capi]')")


def test_regenerating_the_headers_changes_nothing() -> None:
    assert aclnn_table.check() == []


def _library_ops() -> list[str]:
    """aclsim's own ops (other tests register ops of their own in the same process: those have no
    C prototype, as a C program needs one at compile time)."""
    return [n for n in aclnn.op_names()
            if (getattr(aclnn.get_op(n).get_workspace_size, "__module__", None) or "").startswith(
                "aclsim.aclnn.ops.")]


def test_every_registered_op_has_its_row_and_every_row_an_op() -> None:
    rows = {r.op: r for r in aclnn_table.load_rows()}
    assert set(rows) == set(_library_ops())
    for op, row in rows.items():
        py = inspect.signature(aclnn.get_op(op).get_workspace_size).parameters
        assert len(row.params) == len(py), f"{op}: C {row.params} vs Python {list(py)}"


def test_the_table_refuses_a_malformed_row() -> None:
    with pytest.raises(ValueError, match="expected 'aclnn_<name>.h"):
        aclnn_table._parse("add.h | Add | const aclTensor *self\n")
    with pytest.raises(ValueError, match="listed twice"):
        aclnn_table._parse("aclnn_a.h | A | int64_t x\naclnn_b.h | A | int64_t y\n")


def test_each_op_gives_two_prototypes_that_fail_with_561000() -> None:
    protos = {p.name: p for p in prototypes.load()}
    for op in _library_ops():
        one, two = protos[f"aclnn{op}GetWorkspaceSize"], protos[f"aclnn{op}"]
        assert one.header == two.header and one.header.startswith("aclnnop/aclnn_")
        assert [p.name for p in one.params[-2:]] == ["workspaceSize", "executor"]
        assert [p.canonical for p in two.params] == ["void *", "uint64_t", "void *", "void *"]
        # 0 would be ACLNN_SUCCESS from a library whose Python did not start
        assert one.failure == two.failure == errors.ACLNN_ERR_INNER
    assert protos["aclCreateTensor"].ret_canonical == "void *"
    assert protos["aclDestroyTensor"].failure == errors.ACLNN_ERR_INNER


def test_the_status_defines_are_aclsims() -> None:
    text = (prototypes.INCLUDE_DIR / "aclnn" / "aclnn_base.h").read_text()
    codes = dict(re.findall(r"#define (ACLNN_\w+) (\d+)", text))
    assert len(codes) >= 10
    for name, value in codes.items():
        assert getattr(errors, name) == int(value), name


# --- the implementations, called as the entry points call them ----------------------------------

@pytest.fixture()
def ffi() -> Iterator[Any]:
    from aclsim.capi import cdata

    f = cffi.FFI()
    cdata.set_ffi(f)
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    yield f
    acl.get_recent_err_msg()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LeakWarning)
        acl.rt.reset_device(0)
        acl.finalize()


def _impls() -> SimpleNamespace:
    """The C functions' implementations by name (the generated ones are not module attributes)."""
    from aclsim.capi import embedded, impl_nn  # noqa: F401  (embedded imports every implementation)
    from aclsim.capi.cdata import IMPLS

    return SimpleNamespace(**IMPLS, HANDLES=impl_nn.HANDLES)


def _code(fn: Any, *args: Any) -> int:
    try:
        return int(fn(*args))
    except AclError as exc:
        return exc.code


def _tensor(ffi: Any, nn: Any, shape: list[int], addr: int, dtype: int = 0) -> Any:
    dims = ffi.new("int64_t[]", shape)
    t = nn.aclCreateTensor(dims, len(shape), dtype, ffi.NULL, 0, 2, dims, len(shape), addr)
    assert isinstance(t, int) and t != 0  # a void * crosses as an int
    return t


def test_meta_objects_round_trip(ffi: Any) -> None:
    nn = _impls()

    buf, _ = acl.rt.malloc(1024, 0)
    t = _tensor(ffi, nn, [2, 3], buf)
    dims, n = ffi.new("int64_t **"), ffi.new("uint64_t *")
    assert nn.aclGetViewStrides(t, dims, n) == 0 and list(dims[0][0:n[0]]) == [3, 1]
    ctypes.CDLL(None).free(ctypes.c_void_p(int(ffi.cast("uintptr_t", dims[0]))))  # malloc'd for the caller
    addr = ffi.new("void **")
    assert nn.aclGetRawTensorAddr(t, addr) == 0 and int(ffi.cast("uintptr_t", addr[0])) == buf
    half = ffi.new("uint16_t *", 0x3E00)  # 1.5 as float16
    s = nn.aclCreateScalar(int(ffi.cast("uintptr_t", half)), 1)
    assert nn.HANDLES.get(s, aclnn.AclScalar, "s").value == np.float16(1.5)
    lst = nn.aclCreateTensorList(ffi.new("void *[]", [ffi.cast("void *", t)]), 1)
    size = ffi.new("uint64_t *")
    assert nn.aclGetTensorListSize(lst, size) == 0 and size[0] == 1
    assert nn.aclDestroyTensorList(lst) == 0
    # the list released its tensor, as in AscendCL: the tensor's handle is gone too
    assert _code(nn.aclGetViewOffset, t, ffi.new("int64_t *")) == errors.ACLNN_ERR_PARAM_INVALID
    assert _code(nn.aclGetViewOffset, s, ffi.new("int64_t *")) == errors.ACLNN_ERR_PARAM_INVALID
    assert nn.aclDestroyScalar(s) == 0 and nn.HANDLES.count(aclnn.AclScalar) == 0
    int4 = 29  # not modelled
    assert _code(nn.aclCreateScalar, int(ffi.cast("uintptr_t", half)), int4) == errors.ACLNN_ERR_PARAM_INVALID
    # counts larger than any rank are refused before anything is read
    assert _code(nn.aclCreateTensor, ffi.NULL, 1 << 40, 0, ffi.NULL, 0, 2, ffi.NULL, 0,
                 0) == errors.ACLNN_ERR_PARAM_INVALID
    acl.rt.free(buf)


def test_both_phases_and_a_repeatable_executor(ffi: Any) -> None:
    nn = _impls()

    x = np.arange(12, dtype=np.float32).reshape(3, 4) - 5
    bufs = [acl.rt.malloc(256, 0)[0] for _ in range(3)]
    assert acl.rt.memcpy(bufs[0], 256, acl.util.numpy_to_ptr(x), x.nbytes, 1) == 0
    a, out = _tensor(ffi, nn, [3, 4], bufs[0]), _tensor(ffi, nn, [3, 4], bufs[1])
    ws, ex = ffi.new("uint64_t *"), ffi.new("void **")
    assert nn.aclnnReluGetWorkspaceSize(a, out, ws, ex) == 0 and ex[0] != ffi.NULL
    executor = int(ffi.cast("uintptr_t", ex[0]))
    assert nn.aclSetAclOpExecutorRepeatable(executor) == 0
    for _ in range(2):
        assert nn.aclnnRelu(0, ws[0], executor, 0) == 0
    assert nn.aclSetOutputTensorAddr(executor, 0, out, bufs[2]) == 0
    assert nn.aclnnRelu(0, ws[0], executor, 0) == 0
    assert acl.rt.synchronize_device() == 0
    for b in bufs[1:]:
        got = np.zeros_like(x)
        assert acl.rt.memcpy(acl.util.numpy_to_ptr(got), got.nbytes, b, got.nbytes, 2) == 0
        np.testing.assert_array_equal(got, np.maximum(x, 0))
    assert nn.aclDestroyAclOpExecutor(executor) == 0
    assert _code(nn.aclnnRelu, 0, 0, executor, 0) == errors.ACLNN_ERR_PARAM_NULLPTR
    assert nn.HANDLES.count(aclnn.Executor) == 0
    for t in (a, out):
        assert nn.aclDestroyTensor(t) == 0
    for b in bufs:
        acl.rt.free(b)


def test_single_op_arrays_are_read_into_the_pyacl_calls(ffi: Any) -> None:
    op = _impls()
    attr = op.aclopCreateAttr()
    assert attr
    name = ffi.new("char[]", b"axes")
    lists = [ffi.new("int64_t[]", [0, 1]), ffi.new("int64_t[]", [2])]
    counts = ffi.new("int[]", [2, 1])
    assert op.aclopSetAttrListListInt(attr, name, 2, counts, ffi.new("int64_t *[]", lists)) == 0
    strings = [ffi.new("char[]", b"a"), ffi.new("char[]", b"bc")]
    assert op.aclopSetAttrListString(attr, name, 2, ffi.new("char *[]", strings)) == 0
    # a NULL array with a count is refused before the pyACL call (ACL_ERROR_INVALID_PARAM)
    assert _code(op.aclopSetAttrListInt, attr, name, 3, ffi.NULL) == errors.ACL_ERROR_INVALID_PARAM
    assert _code(op.aclopSetAttrListString, attr, name, 1, ffi.new("char *[]", [ffi.NULL])) == \
        errors.ACL_ERROR_INVALID_PARAM
    op.aclopDestroyAttr(attr)

    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    desc = acl.create_tensor_desc(0, [2, 3], 2)
    devs = [acl.rt.malloc(64, 0)[0] for _ in range(2)]
    assert acl.rt.memcpy(devs[0], 64, acl.util.numpy_to_ptr(x), x.nbytes, 1) == 0
    bufs = [acl.create_data_buffer(d, 64) for d in devs]
    descs = ffi.new("void *[]", [ffi.cast("void *", desc)] * 2)
    ins = ffi.new("void *[]", [ffi.cast("void *", bufs[0])] * 2)
    outs = ffi.new("void *[]", [ffi.cast("void *", bufs[1])])
    assert op.aclopExecuteV2(ffi.new("char[]", b"Add"), 2, descs, ins, 1, descs, outs, 0, 0) == 0
    assert acl.rt.synchronize_device() == 0
    got = np.zeros_like(x)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(got), got.nbytes, devs[1], got.nbytes, 2) == 0
    np.testing.assert_array_equal(got, x + x)
    for b in bufs:
        acl.destroy_data_buffer(b)
    acl.destroy_tensor_desc(desc)
    for d in devs:
        acl.rt.free(d)


def test_an_executor_freed_by_a_refused_run_leaves_the_table(ffi: Any) -> None:
    nn = _impls()
    buf, _ = acl.rt.malloc(1024, 0)
    dims, strided = ffi.new("int64_t[]", [2, 4]), ffi.new("int64_t[]", [1, 2])
    storage = ffi.new("int64_t[]", [4, 2])
    a = _tensor(ffi, nn, [2, 4], buf)
    b = nn.aclCreateTensor(dims, 2, 0, strided, 0, 2, storage, 2, buf)  # a strided view: needs a workspace
    ws, ex = ffi.new("uint64_t *"), ffi.new("void **")
    assert nn.aclnnMulGetWorkspaceSize(a, b, a, ws, ex) == 0 and ws[0] > 0
    executor = int(ffi.cast("uintptr_t", ex[0]))
    assert _code(nn.aclnnMul, 0, ws[0], executor, 0) == errors.ACLNN_ERR_PARAM_NULLPTR  # frees the executor
    assert nn.HANDLES.count(aclnn.Executor) == 0 and executor not in nn.HANDLES._objects
    assert nn.aclDestroyTensor(a) == 0 and nn.aclDestroyTensor(b) == 0
    acl.rt.free(buf)


def test_arrays_copy_their_values_at_creation(ffi: Any) -> None:
    nn = _impls()
    floats, bools = ffi.new("float[]", [0.5, -2.0, 3.25]), ffi.new("bool[]", [True, False])
    fa, ba = nn.aclCreateFloatArray(floats, 3), nn.aclCreateBoolArray(bools, 2)
    floats[0], bools[0] = 9.0, False  # the arrays hold copies
    assert nn.HANDLES.get(fa, aclnn.AclFloatArray, "fa").values == (0.5, -2.0, 3.25)
    assert nn.HANDLES.get(ba, aclnn.AclBoolArray, "ba").values == (True, False)
    size = ffi.new("uint64_t *")
    assert nn.aclGetFloatArraySize(fa, size) == 0 and size[0] == 3
    assert _code(nn.aclGetIntArraySize, fa, size) == errors.ACLNN_ERR_PARAM_INVALID  # another kind
    empty = nn.aclCreateIntArray(ffi.NULL, 0)  # an empty array: ReduceSum's "all dims"
    assert empty != 0 and nn.aclDestroyIntArray(empty) == 0
    assert _code(nn.aclCreateIntArray, ffi.NULL, 2) == errors.ACLNN_ERR_PARAM_NULLPTR
    assert nn.aclDestroyFloatArray(fa) == 0 and nn.aclDestroyBoolArray(ba) == 0
