"""acl.op: attributes, execute_v2 over the dispatch table against NumPy, handles, and every
error path with its ACL code."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from acl_op_support import D2H, H2D, Op, attrs, run

import aclsim
import aclsim.acl as acl
import aclsim.aclnn as aclnn
from aclsim.acl.op_table import OP_TABLE, OpSpec, nn
from aclsim.errors import (
    ACL_ERROR_FORMAT_NOT_MATCH,
    ACL_ERROR_INVALID_FILE,
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_OP_ATTR_NOT_MATCH,
    ACL_ERROR_OP_INPUT_NOT_MATCH,
    ACL_ERROR_OP_NOT_FOUND,
    ACL_ERROR_OP_OUTPUT_NOT_MATCH,
    ACL_ERROR_UNINITIALIZE,
    ACL_ERROR_UNSUPPORTED_DATA_TYPE,
)


@pytest.fixture
def op(dev: None) -> Iterator[Op]:
    o = Op()
    yield o
    o.close()


RNG = np.random.default_rng(12)
A = RNG.uniform(0.5, 2.0, (3, 37)).astype(np.float32)  # a row of 148 B: an odd tail
B = RNG.uniform(0.5, 2.0, (3, 37)).astype(np.float32)
N = RNG.uniform(-2.0, 2.0, (3, 37)).astype(np.float32)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def _gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))


CASES: list[tuple[str, list[np.ndarray], Callable[..., np.ndarray], dict[str, Any]]] = [
    ("Add", [A, B], np.add, {}),
    ("Sub", [A, B], np.subtract, {}),
    ("Mul", [A, B], np.multiply, {}),
    ("Div", [A, B], np.divide, {}),
    ("RealDiv", [A, B], np.divide, {}),
    ("Adds", [N], lambda x: x + np.float32(1.5), {"value": 1.5}),
    ("Muls", [N], lambda x: x * np.float32(-0.25), {"value": -0.25}),
    ("Abs", [N], np.abs, {}),
    ("Neg", [N], np.negative, {}),
    ("Exp", [N], np.exp, {}),
    ("Log", [A], np.log, {}),
    ("Sqrt", [A], np.sqrt, {}),
    ("Rsqrt", [A], lambda x: 1 / np.sqrt(x), {}),
    ("Relu", [N], lambda x: np.maximum(x, 0), {}),
    ("Gelu", [N], _gelu, {}),
    ("Sigmoid", [N], _sigmoid, {}),
    ("Swish", [N], lambda x: x * _sigmoid(x), {}),
]


@pytest.mark.parametrize(("op_type", "xs", "ref", "attr_values"), CASES, ids=[c[0] for c in CASES])
def test_every_float_op_type_against_numpy(
    op: Op, op_type: str, xs: list[np.ndarray], ref: Callable[..., np.ndarray], attr_values: dict[str, Any]
) -> None:
    attr = attrs(**attr_values)
    ret, got = run(op, op_type, xs, xs[0].shape, np.float32, attr)
    acl.op.destroy_attr(attr)
    assert ret == 0, acl.get_recent_err_msg()
    np.testing.assert_allclose(got, ref(*xs), rtol=2e-6, atol=1e-6)


def test_the_table_covers_every_out_of_place_aclnn_op() -> None:
    runs = {
        "Add": "Add",
        "Sub": "Sub",
        "Mul": "Mul",
        "Div": "Div",
        "Adds": "Adds",
        "Muls": "Muls",
        "Abs": "Abs",
        "Neg": "Neg",
        "Exp": "Exp",
        "Log": "Log",
        "Sqrt": "Sqrt",
        "Rsqrt": "Rsqrt",
        "Relu": "Relu",
        "Gelu": "Gelu",
        "Sigmoid": "Sigmoid",
        "Silu": "Swish",
        "Cast": "Cast",
        "ReduceSum": "ReduceSum",
        "Amax": "ReduceMax",
        "Mean": "ReduceMean",
        "Softmax": "SoftmaxV2",
        "LogSoftmax": "LogSoftmaxV2",
        "LayerNorm": "LayerNorm",
        "RmsNorm": "RmsNorm",
        "Mm": "MatMulV2",
        "Matmul": "BatchMatMulV2",
        "BatchMatMul": "BatchMatMul",
        "Permute": "Transpose",
        "Slice": "Slice",
    }
    # GE has no Subs op type (Adds with -value does it); LayerNormWithImplMode's modes have no
    # GE attribute (LayerNorm runs the default, high precision)
    no_ge_type = {"Subs", "LayerNormWithImplMode"}
    library = {
        n
        for n in aclnn.op_names()  # the library's ops, not those tests register
        if (getattr(aclnn.get_op(n).get_workspace_size, "__module__", None) or "").startswith("aclsim.aclnn.")
    }
    registered = {n for n in library if not n.startswith("Inplace")} - no_ge_type
    assert registered <= set(runs), f"aclnn ops with no GE op type in OP_TABLE: {registered - set(runs)}"
    assert {runs[n] for n in registered} <= set(OP_TABLE)


def test_add_int32_is_exact_and_broadcasts(op: Op) -> None:
    a = RNG.integers(-1000, 1000, (4, 1, 5), dtype=np.int32)
    b = RNG.integers(-1000, 1000, (3, 1), dtype=np.int32)
    ret, got = run(op, "Add", [a, b], (4, 3, 5), np.int32)
    assert ret == 0
    np.testing.assert_array_equal(got, a + b)


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16])
def test_mul_in_half_types(op: Op, dtype: Any) -> None:
    a, b = A.astype(dtype), B.astype(dtype)
    ret, got = run(op, "Mul", [a, b], a.shape, dtype)
    assert ret == 0
    np.testing.assert_allclose(got.astype(np.float32), (a * b).astype(np.float32), rtol=1e-2)


def test_adds_and_muls_on_int32_truncate_the_value(op: Op) -> None:
    x = np.arange(-6, 6, dtype=np.int32)
    attr = attrs(value=2.9)
    ret, got = run(op, "Adds", [x], x.shape, np.int32, attr)
    assert ret == 0, acl.get_recent_err_msg()
    np.testing.assert_array_equal(got, x + 2)
    ret, got = run(op, "Muls", [x], x.shape, np.int32, attr)
    assert ret == 0
    np.testing.assert_array_equal(got, x * 2)
    acl.op.destroy_attr(attr)


def test_cast_with_dst_type(op: Op) -> None:
    x = np.array([-2.7, -0.5, 0.0, 1.9, 300.2], dtype=np.float32)
    attr = acl.op.create_attr()
    assert acl.op.set_attr_data_type(attr, "dst_type", acl.ACL_INT32) == (attr, 0)
    ret, got = run(op, "Cast", [x], x.shape, np.int32, attr)
    assert ret == 0, acl.get_recent_err_msg()
    np.testing.assert_array_equal(got, np.trunc(x).astype(np.int32))
    assert acl.op.set_attr_int(attr, "dst_type", acl.ACL_FLOAT16) == 0  # an int attribute does as well
    ret, got = run(op, "Cast", [x], x.shape, np.float16, attr)
    assert ret == 0
    np.testing.assert_array_equal(got, x.astype(np.float16))
    acl.op.destroy_attr(attr)


def test_acl_op_cast_and_its_handle(op: Op) -> None:
    x = np.array([1.25, -3.5, 7.0], dtype=np.float32)
    src = op.tensor(x.shape, np.float32, x)
    dst = op.tensor(x.shape, np.float16)
    assert acl.op.cast(src[0], src[1], dst[0], dst[1], 0, 0) == 0
    assert acl.rt.synchronize_stream(0) == 0
    np.testing.assert_array_equal(op.read(*dst, np.float16), x.astype(np.float16))
    handle, ret = acl.op.create_handle_for_cast(src[0], dst[0], 1)
    assert ret == 0
    assert acl.op.execute_with_handle(handle, [src[1]], [dst[1]], 0) == 0
    assert acl.rt.synchronize_stream(0) == 0
    assert acl.op.destroy_handle(handle) is None


def test_empty_and_scalar_tensors(op: Op) -> None:
    e = np.zeros((0, 3), np.float32)
    ret, got = run(op, "Add", [e, e], (0, 3), np.float32)
    assert ret == 0 and got is not None and got.shape == (0, 3)
    s = np.array(2.5, dtype=np.float32)
    ret, got = run(op, "Mul", [s, s], (), np.float32)
    assert ret == 0 and got is not None and float(got) == 6.25


def test_on_a_created_stream_with_an_explicit_context(op: Op) -> None:
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    ret, got = run(op, "Sub", [A, B], A.shape, np.float32, 0, stream)
    assert ret == 0
    np.testing.assert_allclose(got, A - B, rtol=1e-6)
    assert acl.rt.destroy_stream(stream) == 0


# --- handles ------------------------------------------------------------------------------------


def test_execute_with_handle_reuses_the_matched_op_on_new_buffers(op: Op) -> None:
    xd, xb = op.tensor(A.shape, np.float32, A)
    yd, yb = op.tensor(B.shape, np.float32, B)
    od, ob = op.tensor(A.shape, np.float32)
    handle, ret = acl.op.create_handle("Mul", [xd, yd], [od], 0)
    assert ret == 0 and handle
    for d in (xd, yd, od):  # the handle keeps its own copy of the descriptions
        acl.destroy_tensor_desc(d)
    op.descs.clear()
    for k in range(3):
        x2 = A + k
        ptr = acl.get_data_buffer_addr(xb)
        host = np.ascontiguousarray(x2)
        assert acl.rt.memcpy(ptr, host.nbytes, acl.util.numpy_to_ptr(host), host.nbytes, H2D) == 0
        assert acl.op.execute_with_handle(handle, [xb, yb], [ob], 0) == 0
        assert acl.rt.synchronize_stream(0) == 0
        got = np.zeros_like(A)
        assert (
            acl.rt.memcpy(
                acl.util.numpy_to_ptr(got), got.nbytes, acl.get_data_buffer_addr(ob), got.nbytes, D2H
            )
            == 0
        )
        np.testing.assert_allclose(got, x2 * B, rtol=1e-6)
    assert acl.op.execute_with_handle(handle, [xb], [ob], 0) == ACL_ERROR_INVALID_PARAM  # one buffer short
    assert "2 input descriptions but 1 input data buffers" in (acl.get_recent_err_msg() or "")
    assert acl.op.destroy_handle(handle) is None
    assert acl.op.execute_with_handle(handle, [xb, yb], [ob], 0) == ACL_ERROR_INVALID_PARAM
    assert acl.op.destroy_handle(handle) is None  # twice: a message, no exception
    assert "aclopHandle" in (acl.get_recent_err_msg() or "")


def test_create_handle_reports_mismatches_at_once(op: Op) -> None:
    xd, _ = op.tensor((4,), np.float32)
    od, _ = op.tensor((5,), np.float32)
    assert acl.op.create_handle("Add", [xd, xd], [od], 0) == (0, ACL_ERROR_OP_OUTPUT_NOT_MATCH)
    assert acl.op.create_handle("Nope", [xd], [od], 0) == (0, ACL_ERROR_OP_NOT_FOUND)
    acl.get_recent_err_msg()


def test_update_params_checks_without_running(op: Op) -> None:
    xd, _ = op.tensor((4,), np.float32)
    assert acl.op.update_params("Relu", [xd], [xd], 0) == 0
    assert acl.op.update_params("Relu", [xd, xd], [xd], 0) == ACL_ERROR_OP_INPUT_NOT_MATCH
    acl.get_recent_err_msg()


# --- attributes -------------------------------------------------------------------------------


def test_attribute_setters() -> None:
    a = acl.op.create_attr()
    assert a != 0
    assert acl.op.set_attr_int(a, "n", 3) == 0
    assert acl.op.set_attr_float(a, "f", 0.1) == 0
    assert acl.op.set_attr_bool(a, "b", 1) == 0
    assert acl.op.set_attr_string(a, "s", "x") == 0
    assert acl.op.set_attr_list_int(a, "li", [1, 2]) == 0
    assert acl.op.set_attr_list_int(a, "la", np.array([3, 4], dtype=np.int64)) == 0
    assert acl.op.set_attr_list_float(a, "lf", [0.5]) == 0
    assert acl.op.set_attr_list_bool(a, "lb", [1, 0]) == 0
    assert acl.op.set_attr_list_string(a, "ls", ["a"]) == 0
    assert acl.op.set_attr_list_list_int(a, "lli", [[1], [2, 3]]) == 0
    assert acl.op.set_attr_data_type(a, "dt", acl.ACL_FLOAT) == (a, 0)
    assert acl.op.set_attr_list_data_type(a, "ldt", [acl.ACL_FLOAT, acl.ACL_INT8]) == (a, 0)
    assert acl.op.set_attr_int(a, "n", 2.5) == ACL_ERROR_INVALID_PARAM
    assert acl.op.set_attr_float(a, "f", "x") == ACL_ERROR_INVALID_PARAM
    assert acl.op.set_attr_int(a, "", 1) == ACL_ERROR_INVALID_PARAM
    assert acl.op.set_attr_data_type(a, "dt", 999) == (a, ACL_ERROR_INVALID_PARAM)
    assert acl.op.set_attr_list_int(a, "li", "12") == ACL_ERROR_INVALID_PARAM
    assert acl.op.destroy_attr(a) is None
    assert acl.op.set_attr_int(a, "n", 1) == ACL_ERROR_INVALID_PARAM
    assert acl.op.set_attr_data_type(a, "dt", 0) == (a, ACL_ERROR_INVALID_PARAM)
    assert acl.op.destroy_attr(a) is None
    assert "aclopAttr" in (acl.get_recent_err_msg() or "")


def test_set_model_dir(tmp_path: Any) -> None:
    assert acl.op.set_model_dir(str(tmp_path)) == 0
    assert acl.op.get_model_dir() == str(tmp_path)
    assert acl.op.set_model_dir(str(tmp_path / "missing")) == ACL_ERROR_INVALID_FILE
    assert "is not a directory" in (acl.get_recent_err_msg() or "")
    assert acl.op.get_model_dir() == str(tmp_path)  # a failed call changes nothing
    assert acl.op.set_model_dir(5) == ACL_ERROR_INVALID_PARAM
    acl.get_recent_err_msg()


# --- errors -------------------------------------------------------------------------------------


def _descs(op: Op, *specs: tuple[tuple[int, ...], Any]) -> list[tuple[int, int]]:
    return [op.tensor(shape, dtype) for shape, dtype in specs]


def _exec(
    op_type: str, ins: list[tuple[int, int]], outs: list[tuple[int, int]], attr: int = 0
) -> tuple[int, str]:
    ret = acl.op.execute_v2(
        op_type, [d for d, _ in ins], [b for _, b in ins], [d for d, _ in outs], [b for _, b in outs], attr, 0
    )
    return ret, acl.get_recent_err_msg() or ""


def test_unknown_op_type(op: Op) -> None:
    x, y = _descs(op, ((4,), np.float32), ((4,), np.float32))
    ret, msg = _exec("FancyOp", [x], [y])
    assert ret == ACL_ERROR_OP_NOT_FOUND and "'FancyOp'" in msg and "Add" in msg
    assert _exec("add", [x, x], [y])[0] == ACL_ERROR_OP_NOT_FOUND  # op types are case sensitive


def test_counts_shapes_and_dtypes_that_do_not_match(op: Op) -> None:
    f4, f5, i4, b4 = _descs(op, ((4,), np.float32), ((5,), np.float32), ((4,), np.int32), ((4,), np.bool_))
    assert _exec("Add", [f4], [f4])[0] == ACL_ERROR_OP_INPUT_NOT_MATCH  # one input short
    assert _exec("Add", [f4, f4], [f4, f4])[0] == ACL_ERROR_OP_OUTPUT_NOT_MATCH  # two outputs
    ret, msg = _exec("Add", [f4, f5], [f4])
    assert ret == ACL_ERROR_OP_INPUT_NOT_MATCH and "broadcast" in msg
    ret, msg = _exec("Add", [f4, f4], [f5])
    assert ret == ACL_ERROR_OP_OUTPUT_NOT_MATCH and "out has shape" in msg
    ret, msg = _exec("Abs", [f4], [i4])  # Abs keeps the dtype
    assert ret == ACL_ERROR_OP_OUTPUT_NOT_MATCH and "161002" in msg
    assert _exec("Add", [f4, f4], [b4])[0] == ACL_ERROR_OP_OUTPUT_NOT_MATCH  # float into bool


def test_attributes_that_do_not_match(op: Op) -> None:
    f4, i4 = _descs(op, ((4,), np.float32), ((4,), np.int32))
    ret, msg = _exec("Adds", [f4], [f4])
    assert ret == ACL_ERROR_OP_ATTR_NOT_MATCH and "'value' is required" in msg
    ret, msg = _exec("Cast", [f4], [i4])
    assert ret == ACL_ERROR_OP_ATTR_NOT_MATCH and "dst_type" in msg
    a = attrs(dst_type=acl.ACL_FLOAT16)
    ret, msg = _exec("Cast", [f4], [i4], a)
    assert ret == ACL_ERROR_OP_ATTR_NOT_MATCH and "differs from the output" in msg
    acl.op.destroy_attr(a)
    a = attrs(scale=2.0)
    ret, msg = _exec("Exp", [f4], [f4], a)
    assert ret == ACL_ERROR_OP_ATTR_NOT_MATCH and "not modelled" in msg
    acl.op.destroy_attr(a)
    a = acl.op.create_attr()
    acl.op.set_attr_string(a, "value", "two")
    assert _exec("Muls", [f4], [f4], a)[0] == ACL_ERROR_OP_ATTR_NOT_MATCH  # a string where a float goes
    acl.op.destroy_attr(a)


def test_types_formats_and_dynamic_shapes_aclsim_does_not_run(op: Op) -> None:
    f4 = op.tensor((4,), np.float32)
    nz = acl.create_tensor_desc(acl.ACL_FLOAT, [4], acl.ACL_FORMAT_FRACTAL_NZ)
    assert acl.op.execute_v2("Relu", [nz], [f4[1]], [f4[0]], [f4[1]], 0, 0) == ACL_ERROR_FORMAT_NOT_MATCH
    acl.destroy_tensor_desc(nz)
    fp8 = acl.create_tensor_desc(35, [4], acl.ACL_FORMAT_ND)  # ACL_FLOAT8_E5M2
    assert (
        acl.op.execute_v2("Relu", [fp8], [f4[1]], [f4[0]], [f4[1]], 0, 0) == ACL_ERROR_UNSUPPORTED_DATA_TYPE
    )
    acl.destroy_tensor_desc(fp8)
    dyn = acl.create_tensor_desc(acl.ACL_FLOAT, [-1], acl.ACL_FORMAT_ND)
    assert acl.op.execute_v2("Relu", [f4[0]], [f4[1]], [dyn], [f4[1]], 0, 0) == ACL_ERROR_OP_OUTPUT_NOT_MATCH
    assert "dynamic shape" in (acl.get_recent_err_msg() or "")
    acl.destroy_tensor_desc(dyn)
    acl.get_recent_err_msg()


def test_bad_handles_lists_and_buffers(op: Op) -> None:
    ((fd, fb),) = _descs(op, ((4,), np.float32))
    small = acl.create_data_buffer(acl.get_data_buffer_addr(fb), 8)
    odd = acl.create_data_buffer(acl.get_data_buffer_addr(fb) + 4, 16)
    cases = [
        ([fd], [fb, fb], [fd], [fb]),  # two buffers for one description
        ([fb], [fb], [fd], [fb]),  # a buffer where a description goes
        ([fd], [fd], [fd], [fb]),  # a description where a buffer goes
        ([fd], [small], [fd], [fb]),  # a buffer smaller than its description
        ([fd], [odd], [fd], [fb]),  # not 32 B aligned
        (fd, [fb], [fd], [fb]),  # not a list
    ]
    for ins, inb, outs, outb in cases:
        assert acl.op.execute_v2("Relu", ins, inb, outs, outb, 0, 0) == ACL_ERROR_INVALID_PARAM
        assert "[ACL_ERROR_INVALID_PARAM 100000]" in (acl.get_recent_err_msg() or "")
    assert acl.op.execute_v2("Relu", [fd], [fb], [fd], [fb], 12345, 0) == ACL_ERROR_INVALID_PARAM  # attr
    assert acl.op.execute_v2("Relu", [fd], [fb], [fd], [fb], 0, 987654) != 0  # not a stream
    assert acl.op.execute_v2(5, [fd], [fb], [fd], [fb], 0, 0) == ACL_ERROR_INVALID_PARAM
    for b in (small, odd):
        acl.destroy_data_buffer(b)
    acl.get_recent_err_msg()


def test_execute_before_init_is_uninitialize() -> None:
    d = acl.create_tensor_desc(acl.ACL_FLOAT, [4], acl.ACL_FORMAT_ND)
    b = acl.create_data_buffer(0, 16)
    assert acl.op.execute_v2("Relu", [d], [b], [d], [b], 0, 0) == ACL_ERROR_UNINITIALIZE
    acl.destroy_data_buffer(b)
    acl.destroy_tensor_desc(d)
    acl.get_recent_err_msg()


def test_a_failed_execute_changes_nothing(op: Op) -> None:
    f4, f5 = _descs(op, ((4,), np.float32), ((5,), np.float32))
    before = acl.rt.get_mem_info(acl.ACL_HBM_MEM)
    assert _exec("Add", [f4, f5], [f4])[0] != 0
    assert acl.rt.get_mem_info(acl.ACL_HBM_MEM) == before
    assert aclnn.op_names()  # the library is intact
    x = np.arange(4, dtype=np.float32)
    ret, got = run(op, "Neg", [x], (4,), np.float32)
    assert ret == 0
    np.testing.assert_array_equal(got, -x)


def _copy_via_workspace(x: aclnn.AclTensor, out: aclnn.AclTensor) -> tuple[int, aclnn.Executor]:
    """A test op with a workspace: x -> workspace -> out, two device copies."""
    b = aclnn.OpBuilder("AclOpTestCopyVia")
    rx, ro = b.input(x), b.output(out)
    nbytes = x.numel * x.itemsize
    tmp = b.workspace(nbytes)
    b.copy(tmp, rx, nbytes)
    b.copy(ro, tmp, nbytes)
    return b.finish()


aclnn.register_op("AclOpTestCopyVia", _copy_via_workspace)


def test_a_table_entry_is_one_line_and_its_workspace_comes_from_the_pool(
    op: Op, monkeypatch: pytest.MonkeyPatch
) -> None:
    sizes: list[int] = []

    def build(x: list[Any], y: list[Any], a: Any) -> tuple[int, Any]:
        size, executor = nn("AclOpTestCopyVia")(x[0], y[0])
        sizes.append(size)
        return size, executor

    monkeypatch.setitem(OP_TABLE, "CopyVia", OpSpec(1, 1, build))
    x = RNG.standard_normal(300).astype(np.float32)
    stream, _ = acl.rt.create_stream()
    xd, xb = op.tensor(x.shape, np.float32, x)
    od, ob = op.tensor(x.shape, np.float32)
    allocated = aclsim.memory_allocated()
    assert acl.op.execute_v2("CopyVia", [xd], [xb], [od], [ob], 0, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    np.testing.assert_array_equal(op.read(od, ob, np.float32), x)
    assert sizes == [1536, 1536]  # matching, then the run: 1200 B + 32 B pad, rounded up to 512 B
    assert aclsim.memory_allocated() == allocated  # the workspace went back to the pool
    assert acl.rt.destroy_stream(stream) == 0
