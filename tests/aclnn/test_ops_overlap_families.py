"""Reductions, softmax, normalisation and matmul whose output partly overlaps an input compute
from the old values (the input is staged through the workspace at phase one, as the device's
graph holds it); a true inplace Softmax / LayerNorm / RmsNorm is read in place."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from aclnn_support import run_op

from aclsim import aclnn
from aclsim.aclnn import DataType as D
from aclsim.aclnn.ops.matmul import (
    batch_mat_mul,
    batch_mat_mul_get_workspace_size,
    matmul,
    matmul_get_workspace_size,
    mm,
    mm_get_workspace_size,
)
from aclsim.aclnn.ops.normalization import (
    layer_norm,
    layer_norm_get_workspace_size,
    rms_norm,
    rms_norm_get_workspace_size,
)
from aclsim.aclnn.ops.reduction import (
    amax,
    amax_get_workspace_size,
    log_softmax,
    log_softmax_get_workspace_size,
    mean,
    mean_get_workspace_size,
    reduce_sum,
    reduce_sum_get_workspace_size,
    softmax,
    softmax_get_workspace_size,
)
from aclsim.errors import AclnnParamInvalidError, AclnnTilingError

R, C = 48, 96  # rows spread over every core of the tiny chip


def _storage(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-2, 2, n).astype(np.float32)


def _softmax_ref(x: np.ndarray, log: bool) -> np.ndarray:
    x = x.astype(np.float64)
    z = x - x.max(axis=-1, keepdims=True)
    e = np.exp(z)
    s = e.sum(axis=-1, keepdims=True)
    return z - np.log(s) if log else e / s


def _rms_ref(x: np.ndarray, g: np.ndarray, eps: float) -> tuple[np.ndarray, np.ndarray]:
    x = x.astype(np.float64)
    rstd = 1 / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps)
    return x * rstd * g, rstd


def _ln_ref(x: np.ndarray, eps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = x.astype(np.float64)
    mu = x.mean(axis=-1, keepdims=True)
    rstd = 1 / np.sqrt(((x - mu) ** 2).mean(axis=-1, keepdims=True) + eps)
    return (x - mu) * rstd, mu, rstd


REDUCTIONS = {
    "sum": (lambda x, o: reduce_sum_get_workspace_size(x, [1], False, D.ACL_FLOAT, o), reduce_sum,
            lambda a: a.astype(np.float64).sum(axis=1)),
    "amax": (lambda x, o: amax_get_workspace_size(x, [1], False, o), amax, lambda a: a.max(axis=1)),
    "mean": (lambda x, o: mean_get_workspace_size(x, [1], False, D.ACL_FLOAT, o), mean,
             lambda a: a.astype(np.float64).mean(axis=1)),
}


@pytest.mark.parametrize("kind", sorted(REDUCTIONS))
def test_reduction_into_the_last_row_of_self(dev: Any, kind: str) -> None:
    a = _storage(R * C, 1)
    t = dev(a)
    off = (R - 1) * C  # out is the first R elements of self's last row (read by the last core)
    phase_one, phase_two, ref = REDUCTIONS[kind]
    ex = run_op(lambda x, o: phase_one(x, o), phase_two, t.view((R, C), (C, 1), 0), t.view((R,), (1,), off))
    want = ref(a.reshape(R, C))
    got = t.numpy()
    np.testing.assert_allclose(got[off:off + R], want, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(got[:off], a[:off])
    assert ex.workspace_size > 0 and [k.name for k in ex.launches][0] == "view_copy"


@pytest.mark.parametrize("log", [False, True])
@pytest.mark.parametrize("shift", [1, -1])
def test_softmax_into_rows_shifted_from_self(dev: Any, log: bool, shift: int) -> None:
    a = _storage((R + 1) * C, 2)
    t = dev(a)
    src, dst = (0, C) if shift == 1 else (C, 0)
    p1, p2 = (log_softmax_get_workspace_size, log_softmax) if log else (softmax_get_workspace_size, softmax)
    ex = run_op(p1, p2, t.view((R, C), (C, 1), src), -1, t.view((R, C), (C, 1), dst))
    got = t.numpy()
    want = _softmax_ref(a[src:src + R * C].reshape(R, C), log)
    np.testing.assert_allclose(got[dst:dst + R * C].reshape(R, C), want, rtol=2e-5, atol=2e-5)
    assert ex.workspace_size > 0


def test_softmax_along_a_column_dim_into_a_shifted_out(dev: Any) -> None:
    a = _storage((R + 1) * C, 3)
    t = dev(a)
    ex = run_op(softmax_get_workspace_size, softmax, t.view((R, C), (C, 1), C), 0, t.view((R, C), (C, 1), 0))
    x = a[C:].reshape(R, C).astype(np.float64)
    e = np.exp(x - x.max(axis=0))
    np.testing.assert_allclose(t.numpy()[: R * C].reshape(R, C), e / e.sum(axis=0), rtol=2e-5, atol=2e-5)
    assert ex.workspace_size > 0


@pytest.mark.parametrize("log", [False, True])
@pytest.mark.parametrize("dim", [-1, 0])
def test_true_inplace_softmax_reads_in_place(dev: Any, log: bool, dim: int) -> None:
    a = _storage(R * C, 4).reshape(R, C)
    t = dev(a)
    p1, p2 = (log_softmax_get_workspace_size, log_softmax) if log else (softmax_get_workspace_size, softmax)
    ex = run_op(p1, p2, t, dim, t)
    want = _softmax_ref(a.T if dim == 0 else a, log)
    np.testing.assert_allclose(t.numpy(), want.T if dim == 0 else want, rtol=2e-5, atol=2e-5)
    assert ex.workspace_size == 0


@pytest.mark.parametrize("shift", [1, -1])
def test_rms_norm_y_shifted_from_x(dev: Any, shift: int) -> None:
    a = _storage((R + 1) * C, 5)
    g = _storage(C, 6)
    t = dev(a)
    src, dst = (C, 0) if shift == -1 else (0, C)  # -1: y one row above x
    rstd = aclnn.Tensor.empty((R, 1), np.float32)
    try:
        ex = run_op(rms_norm_get_workspace_size, rms_norm, t.view((R, C), (C, 1), src), dev(g), 1e-6,
                    t.view((R, C), (C, 1), dst), rstd)
        y, r = _rms_ref(a[src:src + R * C].reshape(R, C), g, 1e-6)
        np.testing.assert_allclose(t.numpy()[dst:dst + R * C].reshape(R, C), y, rtol=2e-5, atol=2e-5)
        np.testing.assert_allclose(rstd.numpy(), r, rtol=2e-5)
    finally:
        rstd.free()
    assert ex.workspace_size > 0


def test_rms_norm_rstd_inside_x_and_gamma_inside_y(dev: Any) -> None:
    a = _storage(R * C, 7)
    t = dev(a)
    g = _storage(C, 8)
    gy = dev(np.concatenate([g, _storage(R * C - C, 9)]))  # gamma is y's first row
    x = t.view((R, C), (C, 1), 0)
    ex = run_op(rms_norm_get_workspace_size, rms_norm, x, gy.view((C,), (1,), 0), 1e-6,
                gy.view((R, C), (C, 1), 0), t.view((R, 1), (1, 1), (R - 1) * C))
    y, r = _rms_ref(a.reshape(R, C), g, 1e-6)
    np.testing.assert_allclose(gy.numpy(), y.reshape(-1), rtol=2e-5, atol=2e-5)
    np.testing.assert_allclose(t.numpy()[(R - 1) * C:(R - 1) * C + R], r.reshape(-1), rtol=2e-5)
    assert ex.workspace_size > 0


def test_true_inplace_rms_norm_and_layer_norm_read_in_place(dev: Any) -> None:
    a = _storage(R * C, 10).reshape(R, C)
    g = np.ones(C, np.float32)
    t, gt = dev(a), dev(g)
    rstd = dev(np.zeros((R, 1), np.float32))
    ex = run_op(rms_norm_get_workspace_size, rms_norm, t, gt, 1e-6, t, rstd)
    np.testing.assert_allclose(t.numpy(), _rms_ref(a, g, 1e-6)[0], rtol=2e-5, atol=2e-5)
    assert ex.workspace_size == 0
    u = dev(a)
    ex = run_op(layer_norm_get_workspace_size, layer_norm, u, [C], None, None, 1e-5, u, None, None)
    np.testing.assert_allclose(u.numpy(), _ln_ref(a, 1e-5)[0], rtol=2e-5, atol=2e-5)
    assert ex.workspace_size == 0


def test_layer_norm_out_one_row_above_and_mean_inside_input(dev: Any) -> None:
    a = _storage((R + 1) * C, 11)
    t = dev(a)
    x = t.view((R, C), (C, 1), C)
    out = t.view((R, C), (C, 1), 0)
    m = dev(np.zeros(R, np.float32))
    rs = dev(np.zeros(R, np.float32))
    ex = run_op(layer_norm_get_workspace_size, layer_norm, x, [C], None, None, 1e-5, out,
                m.view((R, 1), (1, 1), 0), rs.view((R, 1), (1, 1), 0))
    y, mu, r = _ln_ref(a[C:].reshape(R, C), 1e-5)
    np.testing.assert_allclose(t.numpy()[: R * C].reshape(R, C), y, rtol=2e-5, atol=2e-5)
    np.testing.assert_allclose(m.numpy(), mu.reshape(-1), rtol=2e-5, atol=2e-5)
    np.testing.assert_allclose(rs.numpy(), r.reshape(-1), rtol=2e-5)
    assert ex.workspace_size > 0
    # the statistics written over the input's last row
    b = _storage(R * C, 12)
    v = dev(b.reshape(R, C))
    w = aclnn.Tensor.empty((R, C), np.float32)
    try:
        run_op(layer_norm_get_workspace_size, layer_norm, v, [C], None, None, 1e-5, w,
               v.view((R, 1), (1, 1), (R - 1) * C), None)
        y, mu, _ = _ln_ref(b.reshape(R, C), 1e-5)
        np.testing.assert_allclose(w.numpy(), y, rtol=2e-5, atol=2e-5)
        last = v.numpy().reshape(-1)[(R - 1) * C:(R - 1) * C + R]
        np.testing.assert_allclose(last, mu.reshape(-1), rtol=2e-5, atol=2e-5)
    finally:
        w.free()


M, K, N = 40, 48, 64


@pytest.mark.parametrize("op", ["matmul", "mm"])
@pytest.mark.parametrize("which", ["self", "mat2"])
def test_matmul_out_overlapping_an_operand(dev: Any, op: str, which: str) -> None:
    p1, p2 = (matmul_get_workspace_size, matmul) if op == "matmul" else (mm_get_workspace_size, mm)
    rows, cols = (M, K) if which == "self" else (K, N)
    a = _storage(rows * cols + M * N, 13)  # the operand, then out starting one row into it
    other = _storage(K * N if which == "self" else M * K, 14)
    t = dev(a)
    o = dev(other)
    opnd = t.view((rows, cols), (cols, 1), 0)
    out = t.view((M, N), (N, 1), cols)
    args = (opnd, o.view((K, N), (N, 1), 0)) if which == "self" else (o.view((M, K), (K, 1), 0), opnd)
    ex = run_op(p1, p2, *args, out, 0)
    x = a[: rows * cols].reshape(rows, cols).astype(np.float64)
    y = other.reshape((K, N) if which == "self" else (M, K)).astype(np.float64)
    want = x @ y if which == "self" else y @ x
    np.testing.assert_allclose(t.numpy()[cols:cols + M * N].reshape(M, N), want, rtol=1e-4, atol=1e-4)
    assert ex.workspace_size > 0


def test_batch_mat_mul_out_overlapping_self(dev: Any) -> None:
    B = 3
    a = _storage(B * M * K + B * M * N, 15)
    w = _storage(B * K * N, 16)
    t, wt = dev(a), dev(w)
    ex = run_op(batch_mat_mul_get_workspace_size, batch_mat_mul, t.view((B, M, K), (M * K, K, 1), 0),
                wt.view((B, K, N), (K * N, N, 1), 0), t.view((B, M, N), (M * N, N, 1), K), 0)
    want = a[: B * M * K].reshape(B, M, K).astype(np.float64) @ w.reshape(B, K, N)
    np.testing.assert_allclose(t.numpy()[K:K + B * M * N].reshape(B, M, N), want, rtol=1e-4, atol=1e-4)
    assert ex.workspace_size > 0


def test_disjoint_views_of_one_buffer_are_not_staged(dev: Any) -> None:
    a = _storage(2 * R * C, 17)
    t = dev(a)
    ex = run_op(softmax_get_workspace_size, softmax, t.view((R, C), (C, 1), 0), -1,
                t.view((R, C), (C, 1), R * C))
    np.testing.assert_allclose(t.numpy()[R * C:].reshape(R, C), _softmax_ref(a[: R * C].reshape(R, C), False),
                               rtol=2e-5, atol=2e-5)
    assert ex.workspace_size == 0


def test_true_inplace_over_rows_longer_than_a_tile(dev: Any) -> None:
    """Rows streamed in tiles (the last sweep loads each tile before storing it): still in place."""
    rows, n = 3, 20000  # > the tiny chip's tile of every row kernel
    a = _storage(rows * n, 18).reshape(rows, n)
    t = dev(a)
    ex = run_op(softmax_get_workspace_size, softmax, t, -1, t)
    np.testing.assert_allclose(t.numpy(), _softmax_ref(a, False), rtol=2e-5, atol=1e-9)
    assert ex.workspace_size == 0
    g = _storage(n, 19)
    u, rs = dev(a), dev(np.zeros((rows, 1), np.float32))
    ex = run_op(rms_norm_get_workspace_size, rms_norm, u, dev(g), 1e-6, u, rs)
    np.testing.assert_allclose(u.numpy(), _rms_ref(a, g, 1e-6)[0], rtol=2e-5, atol=2e-5)
    assert ex.workspace_size == 0
    v = dev(a)
    ex = run_op(layer_norm_get_workspace_size, layer_norm, v, [n], None, None, 1e-5, v, None, None)
    np.testing.assert_allclose(v.numpy(), _ln_ref(a, 1e-5)[0], rtol=2e-5, atol=2e-5)
    assert ex.workspace_size == 0


def test_outputs_overlapping_each_other_are_refused(dev: Any) -> None:
    """The device leaves the shared bytes undefined: RmsNorm 561002, LayerNorm 161002, at phase one."""
    a = _storage(R * C, 20).reshape(R, C)
    x, g = dev(a), dev(np.ones(C, np.float32))
    y = dev(np.zeros((R, C), np.float32))
    with pytest.raises(AclnnTilingError, match="yOut and rstdOut overlap"):
        rms_norm_get_workspace_size(x, g, 1e-6, y, y.view((R, 1), (1, 1), R))
    st = dev(np.zeros(2 * R, np.float32))
    with pytest.raises(AclnnParamInvalidError, match="meanOutOptional and rstdOutOptional overlap"):
        layer_norm_get_workspace_size(x, [C], None, None, 1e-5, y, st.view((R, 1), (1, 1), 0),
                                      st.view((R, 1), (1, 1), 1))
    with pytest.raises(AclnnParamInvalidError, match="out and rstdOutOptional overlap"):
        layer_norm_get_workspace_size(x, [C], None, None, 1e-5, y, None, y.view((R, 1), (C, 1), 0))
    # apart: accepted
    ws, _ = layer_norm_get_workspace_size(x, [C], None, None, 1e-5, y, st.view((R, 1), (1, 1), 0),
                                          st.view((R, 1), (1, 1), R))
    assert ws == 0


def test_reduction_in_passes_reads_self_before_out_is_written(dev: Any) -> None:
    """A full reduction runs as partials (self -> workspace) then a combine (workspace -> out):
    every read of self precedes the launch that writes out, so self is not copied."""
    n = 40000
    a = _storage(n, 21)
    t = dev(a)
    out = t.view((1,), (1,), n // 2)
    ex = run_op(reduce_sum_get_workspace_size, reduce_sum, t, [0], True, D.ACL_FLOAT, out)
    got = t.numpy()
    np.testing.assert_allclose(got[n // 2], a.astype(np.float64).sum(), rtol=1e-5)
    assert [k.name for k in ex.launches].count("view_copy") == 0
