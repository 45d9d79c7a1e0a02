"""ReduceSum, Amax and Mean on the aclnn executor against NumPy (float64 references): dtypes, dims,
keepDims, dtype casts, strided inputs and outputs, empty and rank-0 tensors, every error status."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from aclnn_support import BF16, run_op

from aclsim import aclnn
from aclsim.aclnn import DataType as D
from aclsim.aclnn import Tensor, compat, create_int_array, destroy_int_array
from aclsim.aclnn.dtypes import data_type_of
from aclsim.aclnn.ops.reduction import (
    amax,
    amax_get_workspace_size,
    mean,
    mean_get_workspace_size,
    reduce_sum,
    reduce_sum_get_workspace_size,
)
from aclsim.errors import AclnnNullptrError, AclnnParamInvalidError

F32, F16 = np.dtype(np.float32), np.dtype(np.float16)
I32, I16, I8, U8, B = (np.dtype(t) for t in (np.int32, np.int16, np.int8, np.uint8, np.bool_))
TOL = {F32: 1e-5, F16: 2e-3, BF16: 1.6e-2}


def _data(shape: tuple[int, ...], dt: np.dtype, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if dt == B:
        return rng.integers(0, 2, shape).astype(B)
    if dt.kind in "iu":
        lo, hi = (0, 200) if dt == U8 else (-100, 100)
        return rng.integers(lo, hi, shape).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def _close(got: np.ndarray, want: np.ndarray, dt: np.dtype, scale: float = 1.0) -> None:
    assert got.dtype == dt
    if dt.kind in "iub":
        np.testing.assert_array_equal(got, want.astype(dt))
    else:
        tol = TOL[dt] * scale
        np.testing.assert_allclose(got.astype(np.float64), want, rtol=tol, atol=tol)


def _out(shape: tuple[int, ...], dt: np.dtype) -> Tensor:
    return Tensor.from_numpy(np.zeros(shape, dt))


def _axes(dims: list[int], rank: int) -> tuple[int, ...] | None:
    return tuple(d % rank for d in dims) if dims else None


@pytest.mark.parametrize("dt", [F32, F16, BF16, I32, I16, I8, U8])
@pytest.mark.parametrize(("dims", "keep"), [([1], False), ([0, 2], True), ([], False), ([-1], True)])
def test_reduce_sum_and_amax_over_dtypes(dev: Any, dt: np.dtype, dims: list[int], keep: bool) -> None:
    x = _data((3, 37, 5), dt)
    ax = _axes(dims, 3)
    want_sum = x.astype(np.float64).sum(axis=ax, keepdims=keep)
    if dt.kind in "iu":  # integer sums wrap in the output type
        want_sum = x.astype(np.int64).sum(axis=ax, keepdims=keep).astype(dt)
    want_max = x.astype(np.float64).max(axis=ax, keepdims=keep)
    s, m = dev(np.zeros(want_sum.shape, dt)), dev(np.zeros(want_max.shape, dt))
    run_op(reduce_sum_get_workspace_size, reduce_sum, dev(x), dims, keep, data_type_of(dt), s)
    run_op(amax_get_workspace_size, amax, dev(x), create_int_array(dims), keep, m)
    _close(s.numpy(), want_sum, dt, scale=4)
    _close(m.numpy(), want_max, dt)


@pytest.mark.parametrize("dt", [F32, F16, BF16])
@pytest.mark.parametrize(("dims", "keep"), [([0], False), ([1, 2], True), ([], False)])
def test_mean_over_float_dtypes(dev: Any, dt: np.dtype, dims: list[int], keep: bool) -> None:
    x = _data((4, 33, 6), dt, 3)
    want = x.astype(np.float64).mean(axis=_axes(dims, 3), keepdims=keep)
    y = dev(np.zeros(want.shape, dt))
    run_op(mean_get_workspace_size, mean, dev(x), dims, keep, data_type_of(dt), y)
    _close(y.numpy(), want, dt)


def test_reduce_sum_bool_counts_and_bool_out(dev: Any) -> None:
    x = _data((5, 70), B, 2)
    n, any_ = dev(np.zeros((5,), I32)), dev(np.zeros((5,), B))
    run_op(reduce_sum_get_workspace_size, reduce_sum, dev(x), [1], False, D.ACL_INT32, n)
    run_op(reduce_sum_get_workspace_size, reduce_sum, dev(x), [1], False, D.ACL_BOOL, any_)
    np.testing.assert_array_equal(n.numpy(), x.sum(1))
    np.testing.assert_array_equal(any_.numpy(), x.any(1))


def test_reduce_sum_dtype_casts_self_first(dev: Any) -> None:
    """dtype asks for a Cast of self (ops-math: Cast before the kernel): float -> int truncates
    each element, int -> float sums floats; the Cast's copy takes workspace."""
    x = np.array([[0.7, 1.9, -1.5], [2.5, -0.2, 3.99]], np.float32)
    y = dev(np.zeros((2,), I32))
    ex = run_op(reduce_sum_get_workspace_size, reduce_sum, dev(x), [1], False, D.ACL_INT32, y)
    np.testing.assert_array_equal(y.numpy(), np.trunc(x).astype(np.int32).sum(1))
    assert ex.workspace_size > 0
    xi = _data((3, 40), I32, 5)
    z = dev(np.zeros((40,), F32))
    run_op(reduce_sum_get_workspace_size, reduce_sum, dev(xi), [0], False, D.ACL_FLOAT, z)
    _close(z.numpy(), xi.astype(np.float64).sum(0), F32)
    h = _data((3, 40), F16, 6)  # float16 -> float32 is exact: the kernel widens it on the fly
    z2 = dev(np.zeros((3,), F32))
    ex = run_op(reduce_sum_get_workspace_size, reduce_sum, dev(h), [1], False, D.ACL_FLOAT, z2)
    _close(z2.numpy(), h.astype(np.float64).sum(1), F32)
    assert ex.workspace_size == 0


def test_mean_dtype_and_out_casts(dev: Any) -> None:
    x = _data((6, 50), F16, 7)
    y = dev(np.zeros((6,), F32))  # computed in float32, written to float32
    run_op(mean_get_workspace_size, mean, dev(x), [1], False, D.ACL_FLOAT, y)
    _close(y.numpy(), x.astype(np.float64).mean(1), F32)
    xi = np.array([[1, 2, 4], [-7, 0, 0]], np.int32)
    yi = dev(np.zeros((2,), F32))  # int32 mean (float32, truncated) cast to float32 out
    run_op(mean_get_workspace_size, mean, dev(xi), [1], False, D.ACL_INT32, yi)
    np.testing.assert_array_equal(yi.numpy(), [2.0, -2.0])
    yf = dev(np.zeros((2,), F16))  # int self, float32 dtype, float16 out
    run_op(mean_get_workspace_size, mean, dev(xi), [1], False, D.ACL_FLOAT, yf)
    _close(yf.numpy(), xi.mean(1), F16)


def test_strided_input_and_output(dev: Any) -> None:
    x = _data((24, 40), F32, 8)
    t = dev(x)
    xt = t.view((40, 24), (1, 40))  # the transpose: inner stride 40
    y = dev(np.zeros((24,), F32))
    ex = run_op(reduce_sum_get_workspace_size, reduce_sum, xt, [0], False, D.ACL_FLOAT, y)
    _close(y.numpy(), x.astype(np.float64).sum(1), F32)
    assert ex.workspace_size > 0  # the Contiguous copy
    big = dev(np.zeros((24, 3), F32))
    col = big.view((24,), (3,), 1)  # a strided out: column 1 of big
    run_op(amax_get_workspace_size, amax, xt, [0], False, col)
    got = big.numpy()
    _close(got[:, 1], x.astype(np.float64).max(1), F32)
    assert not got[:, 0].any() and not got[:, 2].any()
    m = dev(np.zeros((24, 3), F16))  # strided out of another dtype: Cast, then ViewCopy
    run_op(mean_get_workspace_size, mean, xt, [0], False, D.ACL_FLOAT, m.view((24,), (3,), 2))
    _close(m.numpy()[:, 2], x.astype(np.float64).mean(1), F16)
    rows = dev(x).view((12, 40), (80, 1))  # every other row: inner stride 1, read in place by the Cast
    r = dev(np.zeros((12,), F16))
    run_op(reduce_sum_get_workspace_size, reduce_sum, rows, [1], False, D.ACL_FLOAT16, r)
    _close(r.numpy(), x[::2].astype(np.float64).sum(1), F16, scale=4)


def test_long_rows_split_over_cores(dev: Any) -> None:
    """r large, few outputs: the kernel cuts r over the cores and combines partials from the workspace."""
    x = _data((1, 9000), F32, 9)
    y = dev(np.zeros((1,), F32))
    ex = run_op(reduce_sum_get_workspace_size, reduce_sum, dev(x), [1], False, D.ACL_FLOAT, y)
    _close(y.numpy(), x.astype(np.float64).sum(1), F32, scale=10)
    assert ex.workspace_size > 0


def test_empty_inputs(dev: Any) -> None:
    x = dev(np.zeros((3, 0), F32))
    s = dev(np.full((3,), 7, F32))
    ex = run_op(reduce_sum_get_workspace_size, reduce_sum, x, [1], False, D.ACL_FLOAT, s)
    np.testing.assert_array_equal(s.numpy(), [0, 0, 0])
    assert ex.workspace_size == 0 and ex.launches == []
    m = dev(np.zeros((3, 1), F16))
    run_op(mean_get_workspace_size, mean, x, [1], True, D.ACL_FLOAT16, m)
    assert np.isnan(m.numpy()).all()
    ms = dev(np.zeros((3, 2), F32))  # a strided out takes the fill through the workspace
    run_op(mean_get_workspace_size, mean, x, [1], False, D.ACL_FLOAT, ms.view((3,), (2,)))
    assert np.isnan(ms.numpy()[:, 0]).all() and not ms.numpy()[:, 1].any()
    with pytest.raises(AclnnParamInvalidError, match="size-0"):
        amax_get_workspace_size(x, [1], False, dev(np.zeros((3,), F32)))
    e = dev(np.zeros((0, 4), F32))  # nothing to write
    ws, ex = amax_get_workspace_size(e, [1], False, dev(np.zeros((0,), F32)))
    assert ws == 0 and ex.steps == []


def test_rank_zero(dev: Any) -> None:
    x = dev(np.array(2.5, F32))
    for dims in ([], [0], [-1]):
        y = dev(np.array(0, F32))
        run_op(reduce_sum_get_workspace_size, reduce_sum, x, dims, False, D.ACL_FLOAT, y)
        assert y.numpy() == 2.5
    y = dev(np.array(0, F32))
    run_op(mean_get_workspace_size, mean, x, [], True, D.ACL_FLOAT, y)
    assert y.numpy() == 2.5
    with pytest.raises(AclnnParamInvalidError, match="outside"):
        amax_get_workspace_size(x, [1], False, y)


def test_error_statuses(dev: Any) -> None:
    x, y = dev(np.zeros((4, 6), F32)), dev(np.zeros((4,), F32))
    f = D.ACL_FLOAT
    for args, name in (((None, [1], False, f, y), "self"), ((x, None, False, f, y), "dims"),
                       ((x, [1], False, f, None), "out")):
        with pytest.raises(AclnnNullptrError, match=name):
            reduce_sum_get_workspace_size(*args)
    with pytest.raises(AclnnNullptrError, match="dim"):
        mean_get_workspace_size(x, None, False, f, y)
    bad = [
        ((x, [2], False, f, y), "outside"),
        ((x, [1, -1], False, f, y), "twice"),
        ((x, [1], False, D.ACL_FLOAT16, y), "dtype says"),
        ((x, [1], True, f, y), "expected"),
        ((x, [0], False, f, y), "expected"),
        # documented: an empty sum's zeros are not filled into a complex out
        ((dev(np.zeros((0, 6), np.complex64)), [1], False, D.ACL_COMPLEX64, dev(np.zeros(0, np.complex64))),
         "complex out"),
        ((x, [1], False, 99, y), "not an aclDataType"),
    ]
    for args, match in bad:
        with pytest.raises(AclnnParamInvalidError, match=match):
            reduce_sum_get_workspace_size(*args)
    with pytest.raises(AclnnParamInvalidError, match="self's dtype"):
        amax_get_workspace_size(x, [1], False, dev(np.zeros((4,), F16)))
    with pytest.raises(AclnnParamInvalidError, match="out has dtype ACL_BOOL"):  # not in Mean's list
        mean_get_workspace_size(x, [1], False, f, dev(np.zeros((4,), B)))
    with pytest.raises(AclnnParamInvalidError, match="BOOL"):
        mean_get_workspace_size(dev(np.zeros((4, 6), B)), [1], False, f, y)
    with pytest.raises(AclnnParamInvalidError, match="overlap"):
        reduce_sum_get_workspace_size(x, [1], False, f, y.view((4,), (0,)))
    arr = create_int_array([1])
    destroy_int_array(arr)
    with pytest.raises(AclnnParamInvalidError, match="destroyed"):
        reduce_sum_get_workspace_size(x, arr, False, f, y)


def test_compat_names_and_registry(dev: Any) -> None:
    x = _data((3, 9), F32, 1)
    y = dev(np.zeros((3,), F32))
    ws, ex, ret = compat.aclnnReduceSumGetWorkspaceSize(dev(x).desc, create_int_array([1]), False, 0, y.desc)
    assert ret == 0 and ws == 0
    assert compat.aclnnReduceSum(None, ws, ex, None) == 0
    aclnn_sync()
    _close(y.numpy(), x.astype(np.float64).sum(1), F32)
    ws, ex, ret = compat.aclnnAmaxGetWorkspaceSize(dev(x).desc, create_int_array([5]), False, y.desc)
    assert (ws, ex, ret) == (0, None, 161002)
    assert "outside" in (compat.aclGetRecentErrMsg() or "")
    assert {"ReduceSum", "Amax", "Mean"} <= set(aclnn.op_names())


def aclnn_sync() -> None:
    import aclsim

    aclsim.synchronize_device()
