"""The cube matmul kernel (aclsim.aclnn.kernels.matmul) against NumPy, and its plan."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import aclsim
from aclsim.aclnn.kernels.matmul import MatLayout, matmul_kernel, plan_matmul
from aclsim.arch import get_chip
from aclsim.errors import AclnnParamInvalidError, AclnnTilingError

BF16 = np.dtype(ml_dtypes.bfloat16)
TINY = get_chip("tiny")
# a chip with small local memories: several base blocks, several L1 chunks of K, one cube core
SMALL = TINY.with_changes(name="tiny-small", cube_cores=1, l1_bytes=16 * 1024, l0a_bytes=4096,
                          l0b_bytes=4096, l0c_bytes=8192)
TOL = {np.dtype(np.float32): (1e-5, 1e-5), np.dtype(np.float16): (2e-3, 2e-3), BF16: (1.6e-2, 1.6e-2)}


def _storage(x: np.ndarray, trans: bool, pad: int) -> tuple[np.ndarray, int]:
    """``x`` (batch, rows, cols) stored row-major, transposed or not, rows ``pad`` elements longer."""
    s = np.swapaxes(x, 1, 2) if trans else x
    out = np.zeros((s.shape[0], s.shape[1], s.shape[2] + pad), x.dtype)
    out[:, :, : s.shape[2]] = s
    return out, s.shape[2] + pad


def _run(m: int, k: int, n: int, dtype: object = np.float16, out_dtype: object = np.float32, *,
         at: bool = False, bt: bool = False, pad_a: int = 0, pad_b: int = 0, ba: int = 1, bb: int = 1,
         cmt: int = 0, chip: object = TINY, ldc_pad: int = 0) -> tuple[np.ndarray, np.ndarray, object]:
    dtype, out_dtype = np.dtype(dtype), np.dtype(out_dtype)
    batch = max(ba, bb)
    rng = np.random.default_rng(m * 10007 + k * 101 + n)
    a = rng.uniform(-1, 1, (ba, m, k)).astype(dtype)
    b = rng.uniform(-1, 1, (bb, k, n)).astype(dtype)
    sa, lda = _storage(a, at, pad_a)
    sb, ldb = _storage(b, bt, pad_b)
    la = MatLayout(at, lda, sa[0].size if ba > 1 else 0)
    lb = MatLayout(bt, ldb, sb[0].size if bb > 1 else 0)
    ldc = n + ldc_pad
    plan = plan_matmul(m, k, n, batch, dtype, out_dtype, la, lb, cmt, chip, c_ld=ldc)  # type: ignore[arg-type]
    ins = {"a": (a, sa), "b": (b, sb)}
    for p in plan.prep:  # what the operator does into its workspace: here on the host
        x = ins[p.operand][0].astype(p.dtype)
        ins[p.operand] = (x, np.ascontiguousarray(np.swapaxes(x, 1, 2) if p.layout.trans else x))
    c = np.full((batch, m, ldc), 7, out_dtype)
    bufs = [aclsim.malloc(max(arr.nbytes, 32)) for arr in (ins["a"][1], ins["b"][1], c)]
    for buf, arr in zip(bufs, (ins["a"][1], ins["b"][1], c), strict=True):
        if arr.nbytes:
            aclsim.memcpy(buf, arr.nbytes, arr, arr.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    launch = matmul_kernel(plan, fill_nan=True, chip=chip)[plan.block_dim, None](*bufs)
    aclsim.synchronize_device()
    aclsim.memcpy(c, c.nbytes, bufs[2], c.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    for buf in bufs:
        aclsim.free(buf)
    assert (c[:, :, n:] == 7).all(), "the kernel wrote past the output rows"
    ref = np.matmul(ins["a"][0].astype(np.float32), ins["b"][0].astype(np.float32))
    return c[:, :, :n], np.broadcast_to(ref, (batch, m, n)), (plan, launch)


def _check(got: np.ndarray, ref: np.ndarray, k: int) -> None:
    rtol, atol = TOL[got.dtype]
    want = ref.astype(got.dtype).astype(np.float32)  # the exact sum, rounded once to the output
    np.testing.assert_allclose(got.astype(np.float32), want, rtol=rtol, atol=atol * max(1.0, k**0.5))


@pytest.mark.parametrize("m, k, n", [(1, 1, 1), (15, 17, 33), (17, 33, 15), (33, 15, 17), (16, 64, 48)])
@pytest.mark.parametrize("dtype, out_dtype", [(np.float16, np.float32), (np.float16, np.float16),
                                              (BF16, BF16)])
def test_sizes_and_dtypes(rt: None, m: int, k: int, n: int, dtype: object, out_dtype: object) -> None:
    got, ref, _ = _run(m, k, n, dtype, out_dtype)
    _check(got, ref, k)


@pytest.mark.parametrize("at, bt", [(True, False), (False, True), (True, True)])
@pytest.mark.parametrize("dtype", [np.float16, BF16])
def test_transposed_and_strided(rt: None, at: bool, bt: bool, dtype: object) -> None:
    got, ref, _ = _run(19, 40, 23, dtype, np.float32, at=at, bt=bt, pad_a=5, pad_b=3, ldc_pad=9)
    _check(got, ref, 40)


def test_float32_keep_dtype_native_and_prepared_layouts(rt: None) -> None:
    # A as stored (M x K) and B as stored N x K are the cube's float32 layouts: no workspace
    got, ref, (plan, _) = _run(21, 37, 18, np.float32, np.float32, bt=True, pad_a=3, pad_b=2)
    assert plan.prep == () and plan.workspace_size == 0
    _check(got, ref, 37)
    # B as stored K x N (and A as K x M) need a transposed float32 copy in the workspace
    got, ref, (plan, _) = _run(21, 37, 18, np.float32, np.float32, at=True)
    assert [(p.operand, p.kind) for p in plan.prep] == [("a", "transpose"), ("b", "transpose")]
    a_bytes, b_bytes = 21 * 37 * 4, 37 * 18 * 4  # each rounded to 32 B, then to 512 B
    assert [p.offset for p in plan.prep] == [0, -(-a_bytes // 512) * 512]
    assert plan.workspace_size == -(-a_bytes // 512) * 512 + -(-b_bytes // 512) * 512
    _check(got, ref, 37)


def test_cube_math_types(rt: None) -> None:
    # USE_FP16 on float32: the cube multiplies float16 copies; the result is that product
    got, ref, (plan, _) = _run(17, 33, 20, np.float32, np.float32, cmt=2)
    assert plan.in_dtype == np.float16 and {p.kind for p in plan.prep} == {"cast"}
    _check(got, ref, 33)
    # HF32 is asked for (1 and 3 on float32): recorded, computed in float32 (SetHF32Mode not modelled)
    for cmt in (1, 3):
        plan = plan_matmul(8, 8, 8, 1, np.float32, np.float32, MatLayout(), MatLayout(True), cmt, TINY)
        assert plan.hf32 and plan.in_dtype == np.float32
    with pytest.raises(AclnnParamInvalidError) as e:
        plan_matmul(8, 8, 8, 1, BF16, BF16, MatLayout(), MatLayout(), 2, TINY)
    assert e.value.code == 161002 and "USE_FP16" in str(e.value)
    with pytest.raises(AclnnParamInvalidError, match="USE_HF32"):
        plan_matmul(8, 8, 8, 1, np.float16, np.float16, MatLayout(), MatLayout(), 3, TINY)
    with pytest.raises(AclnnParamInvalidError, match="int8"):
        plan_matmul(8, 8, 8, 1, np.int8, np.float32, MatLayout(), MatLayout(), 0, TINY)


@pytest.mark.parametrize("ba, bb", [(3, 3), (1, 3), (3, 1)])
def test_batch_broadcast(rt: None, ba: int, bb: int) -> None:
    got, ref, (plan, _) = _run(9, 20, 17, np.float16, np.float16, bt=True, ba=ba, bb=bb)
    _check(got, ref, 20)


def test_small_chip_tiles_l1_chunks_and_resident_a(rt: None) -> None:
    # on SMALL the output needs several base blocks and K several L1 chunks on one core
    got, ref, (plan, launch) = _run(40, 200, 72, np.float16, np.float32, at=True, chip=SMALL)
    assert plan.block_dim == 1 and plan.tiles_m * plan.tiles_n > 1 and plan.k_l1 < 200
    _check(got, ref, 200)
    # K in one L1 chunk: A's chunk stays in L1 for the N tiles of its rows (loaded once per M tile)
    got, ref, (plan, launch) = _run(40, 24, 72, np.float16, np.float32, chip=SMALL)
    assert plan.a_resident and plan.tiles_n > 1
    _check(got, ref, 24)
    copies = [i for i in launch.streams[0] if i.op == "data_copy"]
    assert len(copies) == plan.tiles_m + plan.tiles_m * plan.tiles_n  # A once per row of tiles, B per tile


def test_plan_fits_the_chip_and_spreads_over_cube_cores() -> None:
    chip = get_chip("910B")
    for m, k, n, batch in [(4096, 4096, 4096, 1), (100, 3000, 70, 1), (64, 64, 64, 40), (1, 5000, 1, 1)]:
        p = plan_matmul(m, k, n, batch, np.float16, np.float16, MatLayout(), MatLayout(), 0, chip)
        assert 1 <= p.block_dim <= chip.cube_cores
        assert p.l0c_buffers * p.base_m * p.base_n * 4 <= chip.l0c_bytes
        assert p.l0_buffers * p.base_m * p.base_k * 2 <= chip.l0a_bytes
        assert p.l0_buffers * p.base_k * p.base_n * 2 <= chip.l0b_bytes
        assert p.l1_buffers * (p.base_m + p.base_n) * p.k_l1 * 2 <= chip.l1_bytes
        covered = set()
        for blk in range(p.block_dim):
            rb, rm, rn = p.core_range(blk)
            assert len(rb) and len(rm) and len(rn), "a block without work"
            covered |= {(x, y, z) for x in rb for y in rm for z in rn}
        assert len(covered) == batch * p.tiles_m * p.tiles_n
    big = plan_matmul(4096, 4096, 4096, 1, np.float16, np.float16, MatLayout(), MatLayout(), 0, chip)
    assert big.block_dim == chip.cube_cores


def test_empty_and_k_zero() -> None:
    p = plan_matmul(0, 5, 7, 1, np.float16, np.float16, MatLayout(), MatLayout(), 0, TINY)
    assert p.block_dim == 0 and not p.zero_fill
    p = plan_matmul(3, 0, 7, 1, np.float16, np.float16, MatLayout(), MatLayout(), 0, TINY)
    assert p.block_dim == 0 and p.zero_fill
    with pytest.raises(AclnnTilingError):
        matmul_kernel(p)
    with pytest.raises(AclnnParamInvalidError, match="leading dimension"):
        plan_matmul(3, 8, 7, 1, np.float16, np.float16, MatLayout(ld=4), MatLayout(), 0, TINY)
