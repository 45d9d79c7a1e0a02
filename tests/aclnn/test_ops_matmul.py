"""aclnn Matmul, Mm and BatchMatMul (aclsim.aclnn.ops.matmul) against NumPy: dtypes, transposed and
strided views, batch broadcast, 1-D operands, empty and K == 0, cubeMathType, registration."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from aclnn_support import BF16, run_op

import aclsim
from aclsim.aclnn import Tensor, get_op
from aclsim.aclnn.executor import Launch
from aclsim.aclnn.ops.matmul import (
    batch_mat_mul,
    batch_mat_mul_get_workspace_size,
    matmul,
    matmul_get_workspace_size,
    mm,
    mm_get_workspace_size,
)

F16, F32 = np.dtype(np.float16), np.dtype(np.float32)
TOL = {F32: 1e-5, F16: 2e-3, BF16: 1.6e-2}


def _rand(shape: tuple[int, ...], dtype: Any, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype)


def _ref(a: np.ndarray, b: np.ndarray, compute: Any, out: Any) -> np.ndarray:
    """float32 matmul of the inputs as the cube reads them (cast to ``compute``), cast to ``out``."""
    x, y = (np.asarray(v).astype(compute).astype(np.float32) for v in (a, b))
    return np.matmul(x, y).astype(out)


def _check(got: np.ndarray, ref: np.ndarray, dtype: Any) -> None:
    tol = TOL[np.dtype(dtype)]
    assert got.shape == ref.shape
    np.testing.assert_allclose(got.astype(np.float32), ref.astype(np.float32), rtol=tol, atol=tol * 4)


def _call(phase_one: Any, phase_two: Any, a: Any, b: Any, out: Tensor, cmt: int = 0) -> Any:
    return run_op(phase_one, phase_two, a, b, out, cmt)


@pytest.mark.parametrize("dtype", [F32, F16, BF16])
@pytest.mark.parametrize("out_dtype", [F32, F16, BF16])
def test_mm_dtypes(dev: Any, dtype: Any, out_dtype: Any) -> None:
    a, b = _rand((17, 33), dtype, 1), _rand((33, 20), dtype, 2)
    out = Tensor.empty((17, 20), out_dtype)
    _call(mm_get_workspace_size, mm, dev(a), dev(b), out)
    _check(out.numpy(), _ref(a, b, dtype, out_dtype), out_dtype)
    out.free()


@pytest.mark.parametrize("dtype", [F32, F16])
@pytest.mark.parametrize("ta,tb", [(True, False), (False, True), (True, True)])
def test_transposed_views_read_in_place(dev: Any, dtype: Any, ta: bool, tb: bool) -> None:
    a, b = _rand((18, 40), dtype, 3), _rand((40, 9), dtype, 4)
    sa, sb = dev(np.ascontiguousarray(a.T)), dev(np.ascontiguousarray(b.T))
    va = sa.view((18, 40), (1, 18)) if ta else dev(a)
    vb = sb.view((40, 9), (1, 40)) if tb else dev(b)
    out = Tensor.empty((18, 9), dtype)
    ws, ex = mm_get_workspace_size(va, vb, out, 0)
    kernels = [s.kernel.name for s in ex.steps if isinstance(s, Launch)]
    if dtype == F16:  # 16-bit: the cube loads a transposed view natively, no copy
        assert ws == 0 and kernels == ["matmul_cube"]
    else:  # float32 with K on the other side (A as K x M, B as K x N): a transposed copy (documented)
        copies = ta + (not tb)
        assert (ws > 0) == (copies > 0) and len(kernels) == 1 + copies
    w = aclsim.malloc(ws) if ws else None
    mm(w, ws, ex, None)
    aclsim.synchronize_device()
    _check(out.numpy(), _ref(a, b, dtype, dtype), dtype)
    out.free()


def test_strided_views_and_offsets(dev: Any) -> None:
    """Rows further apart than their length are read in place; a view strided in both dims is
    staged through the workspace; an out with padded rows is written in place, a transposed out
    through the workspace and a view_copy."""
    big = _rand((20, 50), F16, 5)
    b = _rand((16, 12), F16, 6)
    storage = dev(big)
    a_view = storage.view((7, 16), (50, 1), offset=50 * 2 + 3)  # rows 50 apart, offset 103
    a = big[2:9, 3:19]
    out_store = Tensor.empty((7, 16), F16)
    out = out_store.view((7, 12), (16, 1))
    ws, ex = mm_get_workspace_size(a_view, dev(b), out, 0)
    assert ws == 0
    run = [s for s in ex.steps if isinstance(s, Launch)]
    assert len(run) == 1
    mm(None, ws, ex, None)
    aclsim.synchronize_device()
    _check(out.numpy(), _ref(a, b, F16, F16), F16)
    # strided in both dims: a contiguous copy in the workspace first
    a2 = storage.view((7, 16), (100, 2))
    out2 = Tensor.empty((16, 7), F32)
    out2_t = out2.view((7, 16), (1, 7))  # a transposed out
    bb = _rand((16, 16), F16, 7)
    ex = run_op(mm_get_workspace_size, mm, a2, dev(bb), out2_t, 0)
    assert [s.kernel.name for s in ex.steps if isinstance(s, Launch)][0].startswith("view_copy")
    _check(out2_t.numpy(), _ref(big[0:14:2, 0:32:2], bb, F16, F32), F32)
    out_store.free()
    out2.free()


@pytest.mark.parametrize(
    "sa,sb",
    [
        ((2, 1, 5, 24), (3, 24, 10)),
        ((4, 5, 24), (24, 10)),
        ((5, 24), (2, 3, 24, 10)),
        ((2, 3, 5, 24), (2, 3, 24, 10)),
        ((1, 2, 1, 2, 3, 24), (2, 1, 2, 1, 24, 4)),
    ],
)
def test_matmul_batch_broadcast(dev: Any, sa: tuple[int, ...], sb: tuple[int, ...]) -> None:
    a, b = _rand(sa, F16, 8), _rand(sb, F16, 9)
    ref = _ref(a, b, F16, F32)
    out = Tensor.empty(ref.shape, F32)
    run_op(matmul_get_workspace_size, matmul, dev(a), dev(b), out, 0)
    _check(out.numpy(), ref, F32)
    out.free()


def test_matmul_permuted_batch_dims(dev: Any) -> None:
    """Batch dims whose strides do not collapse: one launch per leading batch index."""
    a = _rand((3, 2, 5, 16), F32, 10)
    sa = dev(np.ascontiguousarray(a.transpose(1, 0, 2, 3)))
    va = sa.view((3, 2, 5, 16), (5 * 16, 3 * 5 * 16, 16, 1))
    b = _rand((16, 6), F32, 11)
    out = Tensor.empty((3, 2, 5, 6), F32)
    ex = run_op(matmul_get_workspace_size, matmul, va, dev(b), out, 0)
    assert sum(s.kernel.name == "matmul_cube" for s in ex.steps if isinstance(s, Launch)) == 3
    _check(out.numpy(), _ref(a, b, F32, F32), F32)
    out.free()


@pytest.mark.parametrize(
    "sa,sb,so",
    [((33,), (33,), ()), ((33,), (33, 7), (7,)), ((6, 33), (33,), (6,)), ((2, 6, 33), (33,), (2, 6)),
     ((33,), (2, 33, 7), (2, 7))],
)
def test_matmul_1d(dev: Any, sa: tuple[int, ...], sb: tuple[int, ...], so: tuple[int, ...]) -> None:
    a, b = _rand(sa, F32, 12), _rand(sb, F32, 13)
    ref = _ref(a, b, F32, F32)
    assert ref.shape == so
    out = Tensor.empty(so, F32)
    run_op(matmul_get_workspace_size, matmul, dev(a), dev(b), out, 0)
    _check(out.numpy(), ref, F32)
    out.free()


def test_matmul_1d_strided(dev: Any) -> None:
    """A 1-D self with stride 2 is a (1, K) matrix whose columns are 2 apart: read in place as a
    transposed (K, 1) storage (float16), no copy."""
    s = _rand((40,), F16, 14)
    b = _rand((20, 5), F16, 15)
    out = Tensor.empty((5,), F16)
    ws, ex = matmul_get_workspace_size(dev(s).view((20,), (2,)), dev(b), out, 0)
    assert ws == 0
    matmul(None, ws, ex, None)
    aclsim.synchronize_device()
    _check(out.numpy(), _ref(s[::2], b, F16, F16), F16)
    out.free()


@pytest.mark.parametrize("cmt", [0, 1, 2, 3, 4])
def test_cube_math_type_float32(dev: Any, cmt: int) -> None:
    a, b = _rand((9, 40), F32, 16), _rand((40, 11), F32, 17)
    out = Tensor.empty((9, 11), F32)
    ws, ex = mm_get_workspace_size(dev(a), dev(b), out, cmt)
    if cmt == 2:  # USE_FP16: float16 copies of both operands made on the device
        casts = [s for s in ex.steps if isinstance(s, Launch) and s.kernel.name == "matmul_cast"]
        assert len(casts) == 2 and ws > 0
    w = aclsim.malloc(ws) if ws else None
    mm(w, ws, ex, None)
    aclsim.synchronize_device()
    compute = F16 if cmt == 2 else F32  # HF32 (1, 3) is computed in float32 by aclsim (documented)
    _check(out.numpy(), _ref(a, b, compute, F32), F16 if cmt == 2 else F32)
    out.free()


@pytest.mark.parametrize("cmt", [0, 2])
def test_mixed_float16_float32(dev: Any, cmt: int) -> None:
    """f16 @ f32 promotes to f32 (the f16 operand cast on the device); under USE_FP16 the f32 one
    is cast to f16 instead."""
    a, b = _rand((10, 24), F16, 18), _rand((24, 6), F32, 19)
    out = Tensor.empty((10, 6), F32)
    run_op(matmul_get_workspace_size, matmul, dev(a), dev(b), out, cmt)
    _check(out.numpy(), _ref(a, b, F16 if cmt == 2 else F32, F32), F16 if cmt == 2 else F32)
    out.free()


def test_batch_mat_mul(dev: Any) -> None:
    cases = (((3, 8, 20), (3, 20, 5), 20), ((1, 8, 20), (3, 20, 5), 21), ((3, 8, 20), (1, 20, 5), 22))
    for sa, sb, seed in cases:
        a, b = _rand(sa, BF16, seed), _rand(sb, BF16, seed + 1)
        ref = _ref(a, b, BF16, BF16)
        out = Tensor.empty(ref.shape, BF16)
        run_op(batch_mat_mul_get_workspace_size, batch_mat_mul, dev(a), dev(b), out, 1)
        _check(out.numpy(), ref, BF16)
        out.free()


def test_k_zero_fills_out_with_zeros(dev: Any) -> None:
    a = Tensor.empty((4, 0), F16)
    b = Tensor.empty((0, 5), F16)
    out = dev(np.full((4, 5), 7, np.float32))
    ws, ex = mm_get_workspace_size(a, b, out, 0)
    assert ws == 0 and not any(isinstance(s, Launch) for s in ex.steps)
    mm(None, ws, ex, None)
    aclsim.synchronize_device()
    assert (out.numpy() == 0).all()
    # a strided out: zeros through the workspace, the gaps untouched
    store = dev(np.full((4, 8), 7, np.float32))
    run_op(mm_get_workspace_size, mm, a, b, store.view((4, 5), (8, 1)), 0)
    got = store.numpy()
    assert (got[:, :5] == 0).all() and (got[:, 5:] == 7).all()
    a.free()
    b.free()


@pytest.mark.parametrize("sa,sb,so", [((0, 16), (16, 5), (0, 5)), ((4, 16), (16, 0), (4, 0)),
                                      ((0, 3, 16), (16, 5), (0, 3, 5))])
def test_empty_plans_nothing(rt: None, sa: tuple[int, ...], sb: tuple[int, ...], so: tuple[int, ...]) -> None:
    a, b, out = Tensor.empty(sa, F16), Tensor.empty(sb, F16), Tensor.empty(so, F16)
    ws, ex = matmul_get_workspace_size(a, b, out, 0)
    assert ws == 0 and ex.steps == []
    assert matmul(None, ws, ex, None) == []
    for t in (a, b, out):
        t.free()


def test_registered_and_compat(dev: Any) -> None:
    from aclsim.aclnn import compat

    assert get_op("Matmul").get_workspace_size is matmul_get_workspace_size
    assert get_op("Mm").get_workspace_size is mm_get_workspace_size
    assert get_op("BatchMatMul").get_workspace_size is batch_mat_mul_get_workspace_size
    a, b = _rand((5, 16), F16, 30), _rand((16, 3), F16, 31)
    out = Tensor.empty((5, 3), F16)
    ws, ex, status = compat.aclnnMatmulGetWorkspaceSize(dev(a).desc, dev(b).desc, out.desc, 0)
    assert status == 0
    assert compat.aclnnMatmul(None, ws, ex, None) == 0
    aclsim.synchronize_device()
    _check(out.numpy(), _ref(a, b, F16, F16), F16)
    _, _, status = compat.aclnnMmGetWorkspaceSize(dev(a).desc, dev(b).desc, out.desc, 9)
    assert status == 161002
    out.free()


def test_repeatable_executor_rebinds(dev: Any) -> None:
    from aclsim.aclnn import set_executor_repeatable, set_input_tensor_addr

    a, b = _rand((6, 16), F32, 32), _rand((16, 4), F32, 33)
    ta, tb = dev(a), dev(b)
    out = Tensor.empty((6, 4), F32)
    ws, ex = mm_get_workspace_size(ta, tb, out, 0)
    set_executor_repeatable(ex)
    w = aclsim.malloc(ws) if ws else None
    mm(w, ws, ex, None)
    a2 = _rand((6, 16), F32, 34)
    t2 = dev(a2)
    set_input_tensor_addr(ex, 0, ta.desc, t2.desc.device_addr)
    mm(w, ws, ex, None)
    aclsim.synchronize_device()
    _check(out.numpy(), _ref(a2, b, F32, F32), F32)
    out.free()
