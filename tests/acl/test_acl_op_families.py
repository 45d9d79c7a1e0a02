"""acl.op over the reduction, softmax, normalisation, matmul and layout families: each GE op
type against NumPy through execute_v2 and through a handle, tensor-valued inputs (axes, perm,
offsets, size) in device and host memory, and the error paths with their ACL codes."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from acl_op_support import H2D, Op

import aclsim.acl as acl
from aclsim.errors import (
    ACL_ERROR_OP_ATTR_NOT_MATCH,
    ACL_ERROR_OP_INPUT_NOT_MATCH,
    ACL_ERROR_OP_OUTPUT_NOT_MATCH,
)
from aclsim.runtime import launch_function

RNG = np.random.default_rng(1212)
F32 = np.float32
BF16 = ml_dtypes.bfloat16


@pytest.fixture
def op(dev: None) -> Iterator[Op]:
    o = Op()
    yield o
    o.close()


def make_attr(**values: Any) -> int:
    """An attribute handle: bool -> set_attr_bool, float -> _float, int -> _int, list -> _list_int."""
    a = acl.op.create_attr()
    for name, v in values.items():
        if isinstance(v, bool):
            assert acl.op.set_attr_bool(a, name, int(v)) == 0
        elif isinstance(v, float):
            assert acl.op.set_attr_float(a, name, v) == 0
        elif isinstance(v, list):
            assert acl.op.set_attr_list_int(a, name, v) == 0
        else:
            assert acl.op.set_attr_int(a, name, v) == 0
    return a


Out = tuple[tuple[int, ...], Any]


def call(op: Op, op_type: str, xs: list[np.ndarray | None], outs: list[Out], attr_values: dict[str, Any],
         *, handle: bool = False) -> tuple[int, list[np.ndarray]]:
    """Run ``op_type`` through execute_v2 (or create_handle + execute_with_handle): ``None`` in
    ``xs`` is an absent optional input (an ACL_DT_UNDEFINED description, a (0, 0) buffer)."""
    ins: list[tuple[int, int]] = []
    for x in xs:
        if x is None:
            d = acl.create_tensor_desc(acl.ACL_DT_UNDEFINED, [0], acl.ACL_FORMAT_ND)
            b = acl.create_data_buffer(0, 0)
            op.descs.append(d)
            op.bufs.append(b)
            ins.append((d, b))
        else:
            ins.append(op.tensor(x.shape, x.dtype, x))
    ys = [op.tensor(shape, dtype) for shape, dtype in outs]
    attr = make_attr(**attr_values)
    in_d, in_b = [d for d, _ in ins], [b for _, b in ins]
    out_d, out_b = [d for d, _ in ys], [b for _, b in ys]
    if handle:
        h, ret = acl.op.create_handle(op_type, in_d, out_d, attr)
        if ret == 0:
            ret = acl.op.execute_with_handle(h, in_b, out_b, 0)
            acl.op.destroy_handle(h)
    else:
        ret = acl.op.execute_v2(op_type, in_d, in_b, out_d, out_b, attr, 0)
    acl.op.destroy_attr(attr)
    if ret != 0:
        return ret, []
    assert acl.rt.synchronize_stream(0) == 0
    return ret, [op.read(d, b, dtype) for (d, b), (_, dtype) in zip(ys, outs, strict=True)]


def i32(*v: int) -> np.ndarray:
    return np.array(v, dtype=np.int32)


def i64(*v: int) -> np.ndarray:
    return np.array(v, dtype=np.int64)


X = RNG.uniform(-2.0, 2.0, (3, 5, 37)).astype(F32)  # a 148 B row: an odd tail
XI = RNG.integers(-1000, 1000, (4, 6, 5), dtype=np.int32)


@pytest.mark.parametrize("handle", [False, True], ids=["execute_v2", "handle"])
@pytest.mark.parametrize(
    ("op_type", "x", "axes", "keep", "ref"),
    [
        ("ReduceSum", X, i32(1), False, lambda x: x.sum(axis=1)),
        ("ReduceSum", XI, i64(0, -1), True, lambda x: x.sum(axis=(0, 2), keepdims=True)),
        ("ReduceMax", X, i32(-1), False, lambda x: x.max(axis=-1)),
        ("ReduceMean", X, i64(0, 2), True, lambda x: x.mean(axis=(0, 2), keepdims=True)),
    ],
    ids=["sum", "sum-int32", "max", "mean"],
)
def test_reductions_against_numpy(op: Op, op_type: str, x: np.ndarray, axes: np.ndarray, keep: bool,
                                  ref: Any, handle: bool) -> None:
    want = ref(x)
    ret, (got,) = call(op, op_type, [x, axes], [(want.shape, x.dtype)], {"keep_dims": keep}, handle=handle)
    assert ret == 0, acl.get_recent_err_msg()
    if x.dtype == np.int32:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_empty_axes_is_no_reduction_unless_noop_with_empty_axes_is_false(op: Op) -> None:
    ret, (same,) = call(op, "ReduceSum", [XI, i32()], [(XI.shape, np.int32)], {})
    assert ret == 0, acl.get_recent_err_msg()
    np.testing.assert_array_equal(same, XI)
    ret, (total,) = call(op, "ReduceSum", [XI, i32()], [((), np.int32)], {"noop_with_empty_axes": False})
    assert ret == 0, acl.get_recent_err_msg()
    assert int(total) == int(XI.sum())


def test_axes_in_host_memory_are_read(op: Op) -> None:
    """GE's ReduceSum samples place axes on the host: a host buffer works as a device one."""
    axes = np.array([2], dtype=np.int64)
    host, ret = acl.rt.malloc_host(8)
    assert ret == 0
    acl.util.ptr_to_numpy(host, (1,), np.int64)[:] = axes
    xd, xb = op.tensor(X.shape, X.dtype, X)
    ad = acl.create_tensor_desc(acl.ACL_INT64, [1], acl.ACL_FORMAT_ND)
    ab = acl.create_data_buffer(host, 8)
    yd, yb = op.tensor((3, 5), F32)
    try:
        assert acl.op.execute_v2("ReduceMax", [xd, ad], [xb, ab], [yd], [yb], 0, 0) == 0, \
            acl.get_recent_err_msg()
        assert acl.rt.synchronize_stream(0) == 0
        np.testing.assert_array_equal(op.read(yd, yb, F32), X.max(axis=2))
    finally:
        acl.destroy_data_buffer(ab)
        acl.destroy_tensor_desc(ad)
        assert acl.rt.free_host(host) == 0


def test_host_axes_need_no_device_alignment(op: Op) -> None:
    """Host memory is read back by the adapter: its address need not be 32 B aligned."""
    host = np.array([0, 1, 1], dtype=np.int32)  # axes [1] at element 1 and at element 2
    base = acl.util.numpy_to_ptr(host)
    ptr = base + 4 if (base + 4) % 32 else base + 8  # one of them is not 32 B aligned
    assert ptr % 32
    xd, xb = op.tensor(X.shape, X.dtype, X)
    ad = acl.create_tensor_desc(acl.ACL_INT32, [1], acl.ACL_FORMAT_ND)
    ab = acl.create_data_buffer(ptr, 4)
    yd, yb = op.tensor((3, 37), F32)
    try:
        assert acl.op.execute_v2("ReduceMean", [xd, ad], [xb, ab], [yd], [yb], 0, 0) == 0, \
            acl.get_recent_err_msg()
        assert acl.rt.synchronize_stream(0) == 0
        np.testing.assert_allclose(op.read(yd, yb, F32), X.mean(axis=1), rtol=1e-5, atol=1e-6)
    finally:
        acl.destroy_data_buffer(ab)
        acl.destroy_tensor_desc(ad)


def test_axes_written_by_queued_work_are_the_ones_read(op: Op) -> None:
    """The adapter reads axes after the stream's earlier work: a copy still queued on the stream
    when execute_v2 is called (behind a slow task) is the value used, not the one before it."""
    xd, xb = op.tensor(X.shape, X.dtype, X)
    ad, ab = op.tensor((1,), np.int32, i32(0))
    yd, yb = op.tensor((3, 37), F32)
    new = i32(1)

    def slow() -> float:
        time.sleep(0.3)
        return 0.0

    launch_function(slow, label="slow host task")  # the default stream, as the op's
    assert acl.rt.memcpy_async(acl.get_data_buffer_addr(ab), 4, acl.util.numpy_to_ptr(new), 4, H2D, 0) == 0
    assert acl.op.execute_v2("ReduceSum", [xd, ad], [xb, ab], [yd], [yb], 0, 0) == 0, \
        acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(0) == 0
    np.testing.assert_allclose(op.read(yd, yb, F32), X.sum(axis=1), rtol=1e-5, atol=1e-5)


def test_a_handle_reads_the_tensor_inputs_at_each_execution(op: Op) -> None:
    xd, xb = op.tensor(X.shape, X.dtype, X)
    ad, ab = op.tensor((1,), np.int32, i32(0))
    yd, yb = op.tensor((1, 5, 37), F32)
    attr = make_attr(keep_dims=True)
    h, ret = acl.op.create_handle("ReduceSum", [xd, ad], [yd], attr)
    acl.op.destroy_attr(attr)
    assert ret == 0, acl.get_recent_err_msg()
    assert acl.op.execute_with_handle(h, [xb, ab], [yb], 0) == 0, acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(0) == 0
    np.testing.assert_allclose(op.read(yd, yb, F32), X.sum(axis=0, keepdims=True), rtol=1e-5, atol=1e-5)
    # a different axis in the same buffer now: the output (1, 5, 37) no longer matches -> 100022
    one = i32(1)
    assert acl.rt.memcpy(acl.get_data_buffer_addr(ab), 4, acl.util.numpy_to_ptr(one), 4, H2D) == 0
    assert acl.op.execute_with_handle(h, [xb, ab], [yb], 0) == ACL_ERROR_OP_OUTPUT_NOT_MATCH
    assert "out" in acl.get_recent_err_msg()
    acl.op.destroy_handle(h)


def _softmax(x: np.ndarray, axis: int) -> np.ndarray:
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize("handle", [False, True], ids=["execute_v2", "handle"])
def test_softmax_v2_and_log_softmax_v2(op: Op, handle: bool) -> None:
    ret, (got,) = call(op, "SoftmaxV2", [X], [(X.shape, F32)], {}, handle=handle)
    assert ret == 0, acl.get_recent_err_msg()
    np.testing.assert_allclose(got, _softmax(X, -1), rtol=1e-5, atol=1e-6)
    ret, (got,) = call(op, "LogSoftmaxV2", [X], [(X.shape, F32)], {"axes": [1]}, handle=handle)
    assert ret == 0, acl.get_recent_err_msg()
    np.testing.assert_allclose(got, np.log(_softmax(X, 1)), rtol=1e-5, atol=1e-5)


def _layer_norm(x: np.ndarray, g: np.ndarray, b: np.ndarray, axis: int,
                eps: float) -> tuple[np.ndarray, ...]:
    axes = tuple(range(axis, x.ndim))
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=axes, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=axes, keepdims=True)
    return (x64 - mean) / np.sqrt(var + eps) * g + b, mean, var


@pytest.mark.parametrize("handle", [False, True], ids=["execute_v2", "handle"])
@pytest.mark.parametrize(("dtype", "tol"), [(F32, 2e-5), (np.float16, 4e-3)], ids=["f32", "f16"])
def test_layer_norm_returns_the_variance(op: Op, dtype: Any, tol: float, handle: bool) -> None:
    x = RNG.uniform(-3.0, 3.0, (2, 3, 40)).astype(dtype)
    g = RNG.uniform(0.5, 1.5, (40,)).astype(dtype)
    b = RNG.uniform(-0.5, 0.5, (40,)).astype(dtype)
    eps = 1e-5
    attrs = {"begin_norm_axis": -1, "begin_params_axis": -1, "epsilon": eps}
    stat = ((2, 3, 1), dtype)
    ret, (y, mean, var) = call(op, "LayerNorm", [x, g, b], [(x.shape, dtype), stat, stat], attrs,
                               handle=handle)
    assert ret == 0, acl.get_recent_err_msg()
    wy, wmean, wvar = _layer_norm(x, g.astype(np.float64), b.astype(np.float64), 2, eps)
    np.testing.assert_allclose(y.astype(np.float64), wy, rtol=tol, atol=tol)
    np.testing.assert_allclose(mean.astype(np.float64), wmean, rtol=tol, atol=tol)
    # variance from rstd on the device: 1 / rstd^2 - eps (a few ulps of var + eps, see docs)
    np.testing.assert_allclose(var.astype(np.float64), wvar, rtol=4 * tol, atol=tol)


@pytest.mark.parametrize("handle", [False, True], ids=["execute_v2", "handle"])
def test_rms_norm(op: Op, handle: bool) -> None:
    x = RNG.uniform(-2.0, 2.0, (4, 40)).astype(F32)
    g = RNG.uniform(0.5, 1.5, (40,)).astype(F32)
    ret, (y, rstd) = call(op, "RmsNorm", [x, g], [(x.shape, F32), ((4, 1), F32)], {"epsilon": 1e-6},
                          handle=handle)
    assert ret == 0, acl.get_recent_err_msg()
    want_rstd = 1 / np.sqrt((x.astype(np.float64) ** 2).mean(axis=1, keepdims=True) + 1e-6)
    np.testing.assert_allclose(rstd, want_rstd, rtol=1e-5)
    np.testing.assert_allclose(y, x * want_rstd * g, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("handle", [False, True], ids=["execute_v2", "handle"])
@pytest.mark.parametrize(("op_type", "t1", "t2", "bias"), [
    ("MatMulV2", False, False, False),
    ("MatMulV2", True, True, True),
    ("MatMul", True, False, True),
    ("MatMul", False, True, False),
], ids=["v2", "v2-transposed-bias", "v1-t1-bias", "v1-t2"])
def test_matmul_transposes_and_bias(op: Op, op_type: str, t1: bool, t2: bool, bias: bool,
                                    handle: bool) -> None:
    m, k, n = 5, 24, 7
    a = RNG.uniform(-1, 1, (k, m) if t1 else (m, k)).astype(np.float16)
    b = RNG.uniform(-1, 1, (n, k) if t2 else (k, n)).astype(np.float16)
    c = RNG.uniform(-1, 1, (n,)).astype(np.float16)
    xs: list[np.ndarray | None] = [a, b, c if bias else None]
    ret, (got,) = call(op, op_type, xs, [((m, n), np.float16)], {"transpose_x1": t1, "transpose_x2": t2},
                       handle=handle)
    assert ret == 0, acl.get_recent_err_msg()
    want = (a.T if t1 else a).astype(F32) @ (b.T if t2 else b).astype(F32)
    if bias:  # aclsim adds the bias after rounding to float16 (docs/acl_op.md)
        want = want.astype(np.float16).astype(F32) + c.astype(F32)
    np.testing.assert_allclose(got.astype(F32), want, rtol=2e-3, atol=2e-3)


@pytest.mark.parametrize("handle", [False, True], ids=["execute_v2", "handle"])
def test_batch_matmul_adjoints_broadcast_and_bias(op: Op, handle: bool) -> None:
    a = RNG.uniform(-1, 1, (2, 3, 16, 4)).astype(F32)  # adj_x1: [..., K, M]
    b = RNG.uniform(-1, 1, (3, 16, 6)).astype(F32)  # batch broadcast over the leading 2
    c = RNG.uniform(-1, 1, (6,)).astype(F32)
    want = np.swapaxes(a, -1, -2).astype(np.float64) @ b.astype(np.float64)
    ret, (got,) = call(op, "BatchMatMul", [a, b], [((2, 3, 4, 6), F32)], {"adj_x1": True}, handle=handle)
    assert ret == 0, acl.get_recent_err_msg()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    bt = np.ascontiguousarray(np.swapaxes(b, -1, -2))
    ret, (got,) = call(op, "BatchMatMulV2", [a, bt, c], [((2, 3, 4, 6), F32)],
                       {"adj_x1": True, "adj_x2": True}, handle=handle)
    assert ret == 0, acl.get_recent_err_msg()
    np.testing.assert_allclose(got, want + c, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("handle", [False, True], ids=["execute_v2", "handle"])
@pytest.mark.parametrize("dtype", [np.int32, BF16], ids=["int32", "bf16"])
def test_transpose(op: Op, dtype: Any, handle: bool) -> None:
    x = RNG.integers(-100, 100, (3, 4, 5)).astype(dtype)
    ret, (got,) = call(op, "Transpose", [x, i64(2, 0, 1)], [((5, 3, 4), dtype)], {}, handle=handle)
    assert ret == 0, acl.get_recent_err_msg()
    np.testing.assert_array_equal(got, np.transpose(x, (2, 0, 1)))


@pytest.mark.parametrize("handle", [False, True], ids=["execute_v2", "handle"])
@pytest.mark.parametrize(("offsets", "size", "shape"), [
    ((1, 0, 3), (2, -1, 30), (2, 5, 30)),
    ((0, 2, 37), (3, 1, 0), (3, 1, 0)),
], ids=["to-the-end", "empty"])
def test_slice(op: Op, offsets: tuple[int, ...], size: tuple[int, ...], shape: tuple[int, ...],
               handle: bool) -> None:
    x = RNG.integers(-1000, 1000, (3, 5, 37), dtype=np.int32)
    ret, (got,) = call(op, "Slice", [x, i32(*offsets), i64(*size)], [(shape, np.int32)], {}, handle=handle)
    assert ret == 0, acl.get_recent_err_msg()
    want = x[tuple(slice(o, o + s) for o, s in zip(offsets, shape, strict=True))]
    np.testing.assert_array_equal(got, want)


def test_slice_of_float_with_an_odd_tail(op: Op) -> None:
    ret, (got,) = call(op, "Slice", [X, i32(1, 1, 2), i32(-1, 3, 33)], [((2, 3, 33), F32)], {})
    assert ret == 0, acl.get_recent_err_msg()
    np.testing.assert_array_equal(got, X[1:, 1:4, 2:35])


@pytest.mark.parametrize(("op_type", "xs", "outs", "attrs", "code", "words"), [
    ("ReduceSum", [X, np.array([1.0], F32)], [((3, 37), F32)], {}, ACL_ERROR_OP_INPUT_NOT_MATCH,
     "int32 or int64"),
    ("ReduceSum", [X, i32(1)], [((3, 37), np.int32)], {}, ACL_ERROR_OP_OUTPUT_NOT_MATCH, "data type"),
    ("ReduceSum", [X, i32(3)], [((3, 37), F32)], {}, ACL_ERROR_OP_INPUT_NOT_MATCH, "outside"),
    ("ReduceSum", [X, i32()], [((3, 37), F32)], {}, ACL_ERROR_OP_OUTPUT_NOT_MATCH, "no reduction"),
    ("SoftmaxV2", [X], [(X.shape, F32)], {"axes": [0, 1]}, ACL_ERROR_OP_ATTR_NOT_MATCH, "one axis"),
    ("LayerNorm", [X, X[0, 0], X[0, 0]], [(X.shape, F32), ((3, 5, 1), F32), ((3, 5, 1), F32)],
     {"begin_norm_axis": 2, "begin_params_axis": 1}, ACL_ERROR_OP_ATTR_NOT_MATCH, "begin_params_axis"),
    ("LayerNorm", [X, X[0, 0], X[0, 0]], [(X.shape, F32), ((3, 5, 1), F32), ((3, 5, 1), F32)],
     {"begin_norm_axis": 3}, ACL_ERROR_OP_ATTR_NOT_MATCH, "outside"),
    ("MatMulV2", [X, X], [((3, 5, 5), F32)], {}, ACL_ERROR_OP_INPUT_NOT_MATCH, "rank 3"),
    ("MatMulV2", [X[0], X[0].T.copy(), None, np.zeros(5, np.int8)], [((5, 5), F32)], {},
     ACL_ERROR_OP_INPUT_NOT_MATCH, "offset_w"),
    ("MatMulV2", [X[0], X[0].T.copy()], [((5, 5), F32)], {"offset_x": 3}, ACL_ERROR_OP_ATTR_NOT_MATCH,
     "offset_x"),
    ("MatMulV2", [X[0], X[0]], [((5, 37), F32)], {"transpose_x2": False}, ACL_ERROR_OP_INPUT_NOT_MATCH,
     "mat2"),
    ("Transpose", [X, i32(0, 0, 1)], [(X.shape, F32)], {}, ACL_ERROR_OP_INPUT_NOT_MATCH, "Permute"),
    ("Slice", [X, i32(0, 0, 30), i32(1, 1, 8)], [((1, 1, 8), F32)], {}, ACL_ERROR_OP_INPUT_NOT_MATCH,
     "offset 30 size 8"),
    ("Slice", [X, i32(0, 0), i32(1, 1)], [((1, 1), F32)], {}, ACL_ERROR_OP_INPUT_NOT_MATCH, "rank-3"),
    ("Slice", [X, i32(0, 0, 0), i32(1, 1, 8)], [((1, 8), F32)], {}, ACL_ERROR_OP_OUTPUT_NOT_MATCH,
     "dims of size"),
], ids=["axes-float", "y-dtype", "axis-range", "noop-shape", "softmax-axes", "params-axis", "norm-axis",
        "mm-rank", "offset-w", "offset-x", "mm-k", "perm-repeat", "slice-range", "slice-rank", "slice-y"])
def test_errors_name_the_code(op: Op, op_type: str, xs: list[Any], outs: list[Out], attrs: dict[str, Any],
                              code: int, words: str) -> None:
    ret, _ = call(op, op_type, xs, outs, attrs)
    msg = acl.get_recent_err_msg()
    assert ret == code, msg
    assert words in msg, msg
