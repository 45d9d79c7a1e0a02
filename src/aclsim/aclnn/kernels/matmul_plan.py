"""The tiling of the cube matmul (``plan_matmul``): base blocks, L1 chunks, buffers, the core grid.

The plan follows Ascend C's ``Matmul`` tiling (``TCubeTiling``): the output is cut into
``base_m x base_n`` base blocks, each accumulated over K in L0C (float32) in ``base_k``
steps; A and B come into L1 in ``k_l1``-deep chunks (``stepKa = stepKb = k_l1 / base_k``),
double buffered in L1 (A1/B1) and in L0A/L0B (A2/B2, ping-pong); the base blocks of the
(batch, M, N) output space are split over the cube cores as a 3-D grid (``singleCoreM x
singleCoreN`` rectangles, batches as the outermost loop).  Every size comes from the chip's
L1/L0A/L0B/L0C capacities; among the base blocks that fit, the plan takes the one whose
modeled time is shortest, from the same figures the core model times with (cube fractals
per cycle, MTE1/MTE2/FIX bytes per cycle, GM latency, the HBM shared by the active cores).
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from aclsim.arch import ChipSpec
from aclsim.errors import AclnnParamInvalidError, AclnnTilingError
from aclsim.kernel import bfloat16, float16, float32

FRACTAL = 512  # bytes of one L0A/L0B fractal (16 rows x 32 B)


class CubeMathType(enum.IntEnum):
    """``cubeMathType`` of aclnnMatmul / aclnnMm / aclnnBatchMatMul (int8_t)."""

    KEEP_DTYPE = 0
    ALLOW_FP32_DOWN_PRECISION = 1
    USE_FP16 = 2
    USE_HF32 = 3
    USE_FP32_ADD = 4


@dataclass(frozen=True)
class MatLayout:
    """Where element ``(r, c)`` of a logical ``rows x cols`` operand of batch ``b`` lies in global
    memory, in elements from the operand's address: ``b * batch_stride + r * ld + c``, or, for a
    transposed operand (``trans``: the storage is ``cols x rows``, as a (K, M) storage read as
    A^T), ``b * batch_stride + c * ld + r``.  ``ld`` 0 means contiguous rows; ``batch_stride`` 0
    broadcasts one matrix to every batch."""

    trans: bool = False
    ld: int = 0
    batch_stride: int = 0

    def resolved(self, rows: int, cols: int) -> MatLayout:
        """The same layout with ``ld`` filled in (the storage row length when it was 0)."""
        inner = rows if self.trans else cols
        ld = self.ld or inner
        if ld < inner:
            raise AclnnParamInvalidError(f"leading dimension {ld} is less than the storage row of {inner} "
                                         "elements", hint="pass strides that describe a real matrix")
        return MatLayout(self.trans, ld, self.batch_stride)


@dataclass(frozen=True)
class Prep:
    """A conversion the operator must make before the launch (into its workspace at ``offset``):
    ``operand`` ("a" or "b") becomes a contiguous ``dtype`` matrix laid out as ``layout``.
    ``cast``: a dtype conversion (USE_FP16 on float32); ``transpose``: a float32 operand the
    cube needs the other way round (``LoadDataWithTranspose`` for 32-bit fractals is not
    modelled by the kernel language)."""

    operand: str
    kind: str
    dtype: np.dtype
    layout: MatLayout
    offset: int
    nbytes: int


@dataclass(frozen=True)
class MatmulPlan:
    """The tiling of one matmul / batched matmul launch; see :func:`plan_matmul`."""

    m: int
    k: int
    n: int
    batch: int
    in_dtype: np.dtype  # the dtype of A and B in global memory as the kernel reads them
    out_dtype: np.dtype
    a: MatLayout
    b: MatLayout
    c_ld: int
    c_batch_stride: int
    cube_math_type: CubeMathType
    hf32: bool  # HF32 asked for: the cube computes in float32 here (SetHF32Mode is not modelled)
    base_m: int
    base_n: int
    base_k: int
    k_l1: int
    l1_buffers: int
    l0_buffers: int
    l0c_buffers: int
    grid: tuple[int, int, int]  # cores along batch, M tiles, N tiles
    block_dim: int  # 0: nothing to launch (see zero_fill)
    zero_fill: bool  # K == 0: the output is all zeros, written by a memset, not by the cube
    max_repeat: int  # the chip's repeat limit of one load_data
    prep: tuple[Prep, ...] = ()
    workspace_size: int = 0
    estimate: dict[str, float] = field(default_factory=dict, compare=False)

    @property
    def tiles_m(self) -> int:
        return -(-self.m // self.base_m)

    @property
    def tiles_n(self) -> int:
        return -(-self.n // self.base_n)

    @property
    def a_resident(self) -> bool:
        """A's L1 chunk holds all of K: it stays in L1 for every base block of its rows (L1 reuse)."""
        return self.k <= self.k_l1 and -(-self.tiles_n // self.grid[2]) > 1

    def core_range(self, block: int) -> tuple[range, range, range]:
        """The batches, M tiles and N tiles block ``block`` computes."""
        return _ranges(self.batch, self.tiles_m, self.tiles_n, self.grid, block)


def _share(total: int, parts: int, i: int) -> range:
    per = -(-total // parts)
    return range(min(i * per, total), min((i + 1) * per, total))


def _grid(batch: int, tm: int, tn: int, cores: int) -> tuple[tuple[int, int, int], int]:
    """The (batch, M, N) core grid with the fewest base blocks on the busiest core (then the fewest
    cores), and that count.  Every cell of the grid has work (no empty block)."""
    best: tuple[int, int, tuple[int, int, int]] | None = None
    for gb in range(1, min(batch, cores) + 1):
        for gm in range(1, min(tm, cores // gb) + 1):
            gn = min(tn, cores // (gb * gm))
            sb, sm, sn = -(-batch // gb), -(-tm // gm), -(-tn // gn)  # per core
            used = (-(-batch // sb), -(-tm // sm), -(-tn // sn))
            key = (sb * sm * sn, math.prod(used), used)
            if best is None or key[:2] < best[:2]:
                best = key
    assert best is not None
    return best[2], best[0]


def _compute_dtype(dtype: np.dtype, cmt: CubeMathType) -> tuple[np.dtype, bool]:
    """The dtype the cube multiplies in for ``cubeMathType`` (A2 rules), and whether HF32 was asked."""
    if cmt is CubeMathType.USE_FP16:
        if dtype == bfloat16:
            raise AclnnParamInvalidError("cubeMathType USE_FP16 (2) is not supported for bfloat16 inputs",
                                         hint="use KEEP_DTYPE (0) or ALLOW_FP32_DOWN_PRECISION (1)")
        return float16, False
    if cmt is CubeMathType.USE_HF32 and dtype != float32:
        raise AclnnParamInvalidError(f"cubeMathType USE_HF32 (3) applies to float32 inputs only, got {dtype}",
                                     hint="use KEEP_DTYPE (0) for float16 / bfloat16")
    hf32 = dtype == float32 and cmt in (CubeMathType.ALLOW_FP32_DOWN_PRECISION, CubeMathType.USE_HF32)
    return dtype, hf32


def _estimate(chip: ChipSpec, m: int, k: int, n: int, isz: int, osz: int, bm: int, bn: int, bk: int,
              kl1: int, c_bufs: int, active: int) -> dict[str, float]:
    """Cycles of one base block on each pipe, from the figures the core model times with."""
    mt, nt = min(bm, m), min(bn, n)
    steps, chunks = -(-k // bk), -(-k // kl1)
    frac = chip.cube_fractal
    cube = steps * chip.cube_issue_cycles + (-(-mt // frac) * -(-nt // frac) * -(-k // frac)
                                             * chip.cube_cycles_per_fractal)
    hbm_share = chip.dram_bandwidth / chip.clock_hz / max(active, 1)
    mte2 = (2 * chunks * chip.gm_latency_cycles
            + (mt + nt) * k * isz / min(chip.mte2_bytes_per_cycle, hbm_share))
    a_calls = -(-mt // frac)  # one load_data per fractal row of A
    mte1 = steps * (chip.local_copy_latency_cycles * (a_calls + -(-bk // frac))) + k * (
        mt * isz / chip.mte1_l0a_bytes_per_cycle + nt * isz / chip.mte1_l0b_bytes_per_cycle)
    fix = chip.gm_latency_cycles + mt * nt * osz / min(chip.fixpipe_bytes_per_cycle, hbm_share)
    body = max(cube, mte2, mte1, fix if c_bufs > 1 else 0.0)
    return {"cube": cube, "mte2": mte2, "mte1": mte1, "fix": fix,
            "tile": body + (fix if c_bufs == 1 else 0.0)}


def _candidates(chip: ChipSpec, m: int, k: int, n: int, isz: int) -> list[tuple[int, int, int, int, int]]:
    """Every (base_m, base_n, base_k, k_l1, l0c_buffers) that fits the chip: base sizes multiples of
    16 (the fractal), L0A/L0B double buffered, L1 double buffered, L0C single or ping-pong."""
    frac = chip.cube_fractal
    mp, np_, kp = (-(-x // frac) * frac for x in (m, n, k))
    out = []
    for c_bufs in (1, 2):
        for bm in range(frac, min(mp, 256) + 1, frac):
            for bn in range(frac, min(np_, 256) + 1, frac):
                if c_bufs * bm * bn * 4 > chip.l0c_bytes:
                    continue
                bk = min(kp, chip.l0a_bytes // (2 * bm * isz), chip.l0b_bytes // (2 * bn * isz))
                bk = bk // frac * frac
                bk = min(bk, chip.max_repeat * (32 // isz))  # one fractal row of A in one load_data
                if bk <= 0:
                    continue
                kl1 = chip.l1_bytes // (2 * (bm + bn) * isz) // bk * bk
                kl1 = min(kl1, -(-kp // bk) * bk)
                if kl1 <= 0:
                    continue
                out.append((bm, bn, bk, kl1, c_bufs))
    return out


def plan_matmul(m: int, k: int, n: int, batch: int, dtype: Any, out_dtype: Any, a_layout: MatLayout,
                b_layout: MatLayout, cube_math_type: int, chip: ChipSpec, *, c_ld: int = 0,
                c_batch_stride: int | None = None) -> MatmulPlan:
    """Plan ``C[b] (m x n, out_dtype) = A[b] (m x k) @ B[b] (k x n)`` for ``batch`` batches on ``chip``.

    ``a_layout`` / ``b_layout`` say where the operands' elements are (transposed, leading
    dimension, batch stride; 0 broadcasts); ``c_ld`` is the output's row length (0: ``n``),
    ``c_batch_stride`` its batch stride (default ``m * c_ld``).  Raises
    :class:`~aclsim.errors.AclnnParamInvalidError` (161002) for a dtype or ``cubeMathType``
    the cube cannot take, :class:`~aclsim.errors.AclnnTilingError` (561002) when nothing fits.

    >>> from aclsim.arch import get_chip
    >>> p = plan_matmul(64, 64, 64, 1, "float16", "float16", MatLayout(), MatLayout(), 0, get_chip("tiny"))
    >>> p.base_m, p.base_n, p.block_dim
    (32, 64, 2)
    """
    dtype, out_dtype, cmt = np.dtype(dtype), np.dtype(out_dtype), CubeMathType(int(cube_math_type))
    if dtype not in (float16, bfloat16, float32) or out_dtype not in (float16, bfloat16, float32):
        raise AclnnParamInvalidError(f"the cube matmul takes float16, bfloat16 or float32, got {dtype} -> "
                                     f"{out_dtype}", hint="cast the inputs first")
    if min(m, k, n) < 0 or batch < 1:
        raise AclnnParamInvalidError(f"bad matmul sizes m={m} k={k} n={n} batch={batch}")
    compute, hf32 = _compute_dtype(dtype, cmt)
    a, b = a_layout.resolved(m, k), b_layout.resolved(k, n)
    prep, ws = _preps(m, k, n, batch, dtype, compute, a, b)
    for p in prep:
        if p.operand == "a":
            a = p.layout
        else:
            b = p.layout
    c_ld = c_ld or n
    c_bs = m * c_ld if c_batch_stride is None else c_batch_stride
    common = dict(m=m, k=k, n=n, batch=batch, in_dtype=compute, out_dtype=out_dtype, a=a, b=b, c_ld=c_ld,
                  c_batch_stride=c_bs, cube_math_type=cmt, hf32=hf32, prep=prep, workspace_size=ws,
                  max_repeat=chip.max_repeat)
    if m == 0 or n == 0 or k == 0:
        return MatmulPlan(**common, base_m=16, base_n=16, base_k=16, k_l1=16, l1_buffers=2,
                          l0_buffers=2, l0c_buffers=1, grid=(1, 1, 1), block_dim=0, zero_fill=k == 0 < m * n)
    return _tile(chip, common)


def _tile(chip: ChipSpec, common: dict[str, Any]) -> MatmulPlan:
    m, k, n, batch = common["m"], common["k"], common["n"], common["batch"]
    isz, osz = common["in_dtype"].itemsize, common["out_dtype"].itemsize
    best: tuple[float, int, Any] | None = None
    for bm, bn, bk, kl1, c_bufs in _candidates(chip, m, k, n, isz):
        tm, tn = -(-m // bm), -(-n // bn)
        g, per = _grid(batch, tm, tn, chip.cube_cores)
        est = _estimate(chip, m, k, n, isz, osz, bm, bn, bk, kl1, c_bufs, math.prod(g))
        total = per * est["tile"]
        key = (total, -(bm * bn), (bm, bn, bk, kl1, c_bufs, g, est))
        if best is None or key[:2] < best[:2]:
            best = key
    if best is None:
        raise AclnnTilingError(f"no base block of the cube fits {chip.name}'s L0A/L0B/L0C/L1 for "
                               f"{common['in_dtype']}", hint="use a chip preset with larger local memories")
    total, _, (bm, bn, bk, kl1, c_bufs, g, est) = best
    block_dim = math.prod(g)
    return MatmulPlan(**common, base_m=bm, base_n=bn, base_k=bk, k_l1=kl1, l1_buffers=2, l0_buffers=2,
                      l0c_buffers=c_bufs, grid=g, block_dim=block_dim, zero_fill=False,
                      estimate={**est, "total": total})


def _ranges(batch: int, tm: int, tn: int, g: tuple[int, int, int], i: int) -> tuple[range, range, range]:
    gb, gm, gn = g
    bi, rest = divmod(i, gm * gn)
    mi, ni = divmod(rest, gn)
    return _share(batch, gb, bi), _share(tm, gm, mi), _share(tn, gn, ni)


def _preps(m: int, k: int, n: int, batch: int, dtype: np.dtype, compute: np.dtype, a: MatLayout,
           b: MatLayout) -> tuple[tuple[Prep, ...], int]:
    """The operand copies the kernel needs in the workspace (32 B pad then 512 B rounding each)."""
    out: list[Prep] = []
    offset = 0
    for name, layout, rows, cols, flip in (("a", a, m, k, a.trans), ("b", b, k, n, not b.trans)):
        cast = compute != dtype
        transpose = compute == float32 and flip
        if not (cast or transpose):
            continue
        nb = batch if layout.batch_stride else 1
        trans = layout.trans != transpose if not cast else layout.trans
        new = MatLayout(trans, 0, rows * cols if nb > 1 else 0).resolved(rows, cols)
        nbytes = nb * rows * cols * compute.itemsize
        out.append(Prep(name, "cast" if cast else "transpose", compute, new, offset, nbytes))
        offset += -(-(-(-nbytes // 32) * 32) // 512) * 512
    return tuple(out), offset
