"""The kernels behind LayerNorm and RmsNorm over the trailing ``R`` elements of each row.

The input is viewed as ``rows x R`` (``R`` = the product of the normalised dims), rows split over
the vector cores, computed in float32.  Rows that fit a UB tile are loaded several at a time
(``per_load``, each in a 32 B-aligned slot; weight and bias once per core); a longer row is
streamed in tiles: LayerNorm sweeps it three times (sum -> mean, sum of squared deviations ->
rstd, write), RmsNorm twice (sum of squares -> rstd, write).

- LayerNorm: ``mean = sum(x) / R``, ``rstd = 1 / sqrt(sum((x - mean)^2) / R + eps)``,
  ``out = (x - mean) * rstd * weight + bias`` (weight/bias optional: ones/zeros); ``mean`` and
  ``rstd`` (optional outputs, one per row) in the input dtype.
- RmsNorm: ``rstd = 1 / sqrt(sum(x^2) / R + epsilon)``, ``y = x * rstd * gamma``; ``rstd`` in
  float32.

Per-row statistics never reach the scalar pipe: each row's sum is spread over a 32 B block
(``spread``), turned into mean / rstd there (``muls``/``adds``/``rsqrt`` over the blocks of a
load at once) and applied with the block read for every element (``row_apply``); the blocks of
up to 64 rows are gathered into the mean/rstd outputs by one ``whole_reduce``.  So the scalar
unit keeps issuing, and the next load (double buffered) overlaps this one's work.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import aclsim.kernel as asc
from aclsim.aclnn.kernels.reduce_tiling import (
    FLOAT_IN,
    GROUP,
    TURN,
    VecShape,
    align_elems,
    gather,
    load_rows,
    move,
    row_apply,
    split_evenly,
    spread,
    stat_block,
    stat_runs,
    store_rows,
    ub_budget,
)
from aclsim.arch import ChipSpec
from aclsim.errors import AclnnParamInvalidError

F32 = np.dtype(np.float32)


@dataclass(frozen=True)
class NormPlan:
    """``rms``: RmsNorm (else LayerNorm).  ``weight``/``bias``: their dtypes, None when absent;
    ``stats``: the dtype of mean/rstd; ``with_mean``/``with_rstd``: those outputs are written.
    ``tile`` float32 elements per load; ``resident``: a row fits and is loaded once, ``per_load``
    rows at a time, each in a ``slot``-element UB slot."""

    rms: bool
    rows: int
    r: int
    dtype: np.dtype
    weight: np.dtype | None
    bias: np.dtype | None
    stats: np.dtype
    eps: float
    with_mean: bool
    with_rstd: bool
    block_dim: int
    tile: int
    resident: bool
    workspace_bytes: int = 0
    per_load: int = 0
    slot: int = 0
    vec: VecShape | None = None


def _float(d: Any, what: str) -> np.dtype:
    dt = np.dtype(d)
    if dt not in FLOAT_IN:
        raise AclnnParamInvalidError(f"{what} dtype {dt}: the norm kernels take float16, bfloat16, float32")
    return dt


#: UB bytes of the per-row statistics and the bank layout: the raw statistic's turn, a 32 B
#: block per row of a group in 512 B turns (mean, rstd; ``stat_block``), the gathered float32
#: values and the double-buffered statistics output tile (a turn each), the half-turn pads and
#: 512 B rounding of the buffers, plus slack.
_STAT_BYTES = TURN + 2 * GROUP // 8 * TURN + 3 * TURN + 8 * TURN + 1024


def _tiles(chip: ChipSpec, r: int, dt: np.dtype, isz_in: int) -> tuple[int, bool, int, int]:
    """``(tile, resident, rows per load, slot)``.  Per element of a load: x in (double buffered),
    its float32 copy, the output (double buffered), the reduce work area (2 float32 per 256 B
    repeat); per row length: float32 squares, weight and bias (a slot each when resident, a tile
    each when streamed)."""
    per = 2 * isz_in + 4 + 2 * dt.itemsize
    room = ub_budget(chip) - _STAT_BYTES
    slot = align_elems(max(r, 1), 2)

    def fit(fixed: int, per_elem: int) -> int:
        return max(0, room - fixed) * 32 // (32 * per_elem + 2 * 4) // 64 * 64

    tile = fit(3 * slot * 4, per)
    if slot <= tile:
        return tile, True, max(1, min(tile // slot, GROUP)), slot
    return fit(0, per + 3 * 4), False, 0, 0


def _plan(rms: bool, shape: Sequence[int], r_dims: int, dtype: Any, weight: Any, bias: Any, stats: Any,
          eps: float, with_mean: bool, with_rstd: bool, chip: ChipSpec) -> NormPlan:
    shape = tuple(int(s) for s in shape)
    if not 1 <= r_dims <= len(shape):
        raise AclnnParamInvalidError(f"{r_dims} normalised dims for a rank-{len(shape)} input",
                                     hint="normalise 1..rank trailing dims")
    dt = _float(dtype, "input")
    w = _float(weight, "weight") if weight is not None else None
    b = _float(bias, "bias") if bias is not None else None
    r = math.prod(shape[len(shape) - r_dims:])
    rows = math.prod(shape[:len(shape) - r_dims])
    isz_in = max(d.itemsize for d in (dt, w, b) if d is not None)  # the input queue also loads w, b
    tile, resident, per_load, slot = _tiles(chip, r, dt, isz_in)
    return NormPlan(rms, rows, r, dt, w, b, np.dtype(stats), float(eps), with_mean, with_rstd,
                    max(1, min(chip.cores, rows)), tile, resident, 0, per_load, slot, VecShape.of(chip))


def plan_layer_norm(shape: Sequence[int], normalized_dims: int, dtype: Any, chip: ChipSpec, *,
                    weight_dtype: Any = None, bias_dtype: Any = None, eps: float = 1e-5,
                    with_mean: bool = True, with_rstd: bool = True) -> NormPlan:
    """Plan LayerNorm of a contiguous ``shape`` input over its last ``normalized_dims`` dims.

    >>> from aclsim.arch import get_chip
    >>> p = plan_layer_norm((8192, 4096), 1, "float16", get_chip("910B"), weight_dtype="float32")
    >>> p.block_dim, p.resident, p.stats
    (48, True, dtype('float16'))
    """
    return _plan(False, shape, normalized_dims, dtype, weight_dtype, bias_dtype, dtype, eps, with_mean,
                 with_rstd, chip)


def plan_rms_norm(shape: Sequence[int], gamma_dims: int, dtype: Any, gamma_dtype: Any, chip: ChipSpec, *,
                  epsilon: float = 1e-6, with_rstd: bool = True) -> NormPlan:
    """Plan RmsNorm of a contiguous ``shape`` input over its last ``gamma_dims`` dims (rstd float32)."""
    return _plan(True, shape, gamma_dims, dtype, gamma_dtype, None, F32, epsilon, False, with_rstd, chip)


def _up(n: int) -> int:
    return -(-n // TURN) * TURN


class _Rows:
    """One core's buffers and steps (built inside the running kernel).  Row ``p`` of the current
    group of up to ``GROUP`` rows keeps its mean and rstd in ``stat_block(.., p, ..)`` of
    ``bmean``/``brstd``.

    UB is laid out by bank (A2: 16 groups of 32 B rows, 64 KiB slices): the statistics and the
    weight and bias first (slice 0 for a 4096-element row), then the queues, then the float32
    tile ``wide`` (groups 0-7 of each 512 B turn) and the row-long ``sq`` 256 B further (groups
    8-15).  The resident steps ping-pong between the two (an in-place step takes two beats a
    repeat); every other operand of a step (a statistic's block, the weight, the bias, the
    reduce's work area) sits in the half of the groups the step's tile source leaves free, or
    is the raw statistic the reduce writes in its source's half of slice 0."""

    def __init__(self, p: NormPlan, x: Any, w: Any, b: Any, y: Any) -> None:
        self.p, self.x, self.w, self.b = p, x, w, b
        assert p.vec is not None
        self.vec = p.vec
        dt, tile = p.dtype, p.tile
        self.slot = p.slot if p.resident else tile
        vlen = self.slot
        self.inv_r = np.float32(1.0 / p.r) if p.r else np.float32("nan")
        isz_in = max(d.itemsize for d in (dt, p.weight, p.bias) if d is not None)
        # halves of the bank groups: wide 0, sq 1.  LayerNorm: sum(x) from wide, x - mean -> sq,
        # sq^2 -> wide, sum from wide, sq * rstd -> wide, then weight, bias ping-pong on;
        # RmsNorm: x^2 -> sq, sum from sq, wide * rstd -> sq, sq * gamma -> wide.
        src = 1 if p.rms else 0  # the half the reduces read
        cur = 1 if p.rms else 0  # where the rstd step leaves the row
        self.rstd_half = cur  # the rstd block sits in the half of the step's written tile
        halves = []  # the weight's and the bias's: away from the tile their step reads
        for present in (p.weight is not None, p.bias is not None):
            halves.append(1 - cur if present else 0)
            cur = 1 - cur if present else cur
        pipe = asc.TPipe()
        stats = asc.TBuf(asc.TPosition.VECCALC)
        area = GROUP // 8 * TURN
        o_red = TURN + 2 * area + TURN + (1 - src) * TURN // 2
        pipe.init_buffer(stats, _up(o_red + tile // 8 + 64))
        self.one = stats.get_with_offset(F32, 16, src * TURN // 2)
        self.bmean = stats.get_with_offset(F32, area // 4, TURN)
        self.brstd = stats.get_with_offset(F32, area // 4, TURN + area)
        self.gath = stats.get_with_offset(F32, GROUP, TURN + 2 * area)
        self.red = stats.get_with_offset(F32, None, o_red)
        params = asc.TBuf(asc.TPosition.VECCALC)
        o_w = halves[0] * TURN // 2
        o_b = _up(o_w + vlen * 4) + halves[1] * TURN // 2
        pipe.init_buffer(params, _up(o_b + vlen * 4))
        self.wv = params.get_with_offset(F32, vlen, o_w)
        self.bv = params.get_with_offset(F32, vlen, o_b)
        self.q_in, self.q_out = asc.TQue(asc.TPosition.VECIN, 1), asc.TQue(asc.TPosition.VECOUT, 1)
        self.q_stat = asc.TQue(asc.TPosition.VECOUT, 1)
        pipe.init_buffer(self.q_in, 2, _up(tile * isz_in))
        pipe.init_buffer(self.q_out, 2, _up(tile * dt.itemsize))
        pipe.init_buffer(self.q_stat, 2, _up(GROUP * 4))
        calc = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(calc, _up(tile * 4) + TURN // 2 + vlen * 4)
        self.wide = calc.get(F32, tile)
        self.sq = calc.get_with_offset(F32, vlen, _up(tile * 4) + TURN // 2)
        self.gy = asc.GlobalTensor(dt)
        self.gy.set_global_buffer(y.cast(dt))

    def load(self, dst: Any, addr: Any, ldt: np.dtype, off: int, k: int, n: int) -> None:
        """``k`` rows of ``n`` elements (``slot`` apart in UB) from GM to float32 ``dst``."""
        g = asc.GlobalTensor(ldt)
        g.set_global_buffer(addr.cast(ldt))
        t = self.q_in.alloc_tensor(ldt)
        load_rows(t, g[off], k, n, 0, self.slot)
        self.q_in.enque(t)
        t = self.q_in.deque(ldt)
        move(dst, t, (k - 1) * self.slot + n)
        self.q_in.free_tensor(t)

    def params(self, c0: int, n: int) -> None:
        if self.p.weight is not None:
            self.load(self.wv, self.w, self.p.weight, c0, 1, n)
        if self.p.bias is not None:
            self.load(self.bv, self.b, self.p.bias, c0, 1, n)

    def total(self, v: Any, n: int, square: bool, first: bool) -> None:
        """Sum of ``v[:n]`` (of its squares when ``square``) into ``one[0]`` (``first``) or added to it."""
        src = v
        if square:
            asc.mul(self.sq, v, v, n)
            src = self.sq
        if first:
            asc.reduce_sum(self.one, src, self.red, n)
        else:
            asc.reduce_sum(self.one[8], src, self.red, n)
            asc.add(self.one, self.one, self.one[8], 1)

    def finish_stats(self, blocks: Any, p0: int, k: int, rstd: bool) -> None:
        """Blocks ``p0 .. p0+k-1`` hold sums: make them means (``rstd`` False) or rstd values."""
        half = self.rstd_half if rstd else 1
        for j, m in stat_runs(p0, k):
            b = stat_block(blocks, j, half)
            asc.muls(b, b, self.inv_r, 8 * m)
            if rstd:
                asc.adds(b, b, self.p.eps, 8 * m)
                asc.rsqrt(b, b, 8 * m)

    def scale(self, v: Any, n: int, pos: int) -> None:
        """``v[:n]`` (already shifted by the mean) times rstd, weight, plus bias, in place (the
        streamed path)."""
        p = self.p
        row_apply(asc.mul, v, v, stat_block(self.brstd, pos, self.rstd_half), n, self.vec)
        if p.weight is not None:
            asc.mul(v, v, self.wv, n)
        if p.bias is not None:
            asc.add(v, v, self.bv, n)

    def scale_rows(self, v: Any, n: int, pos: int) -> None:
        """Row ``v`` of ``wide``: LayerNorm's ``sq`` (x - mean) or RmsNorm's ``v`` (x) times
        rstd, weight, plus bias into ``v``, each step from one tile into the other."""
        p, sq = self.p, self.sq
        tiles = (v, sq)
        cur = 0 if p.rms else 1  # the rstd step reads this tile
        row_apply(asc.mul, tiles[1 - cur], tiles[cur], stat_block(self.brstd, pos, self.rstd_half), n,
                  self.vec)
        cur = 1 - cur
        for param, op, vec in ((p.weight, asc.mul, self.wv), (p.bias, asc.add, self.bv)):
            if param is not None:
                op(tiles[1 - cur], tiles[cur], vec, n)
                cur = 1 - cur
        if cur == 1:  # an odd number of steps ended in sq
            asc.data_copy(v, sq, n)

    def store(self, off: int, k: int, n: int) -> None:
        p = self.p
        o = self.q_out.alloc_tensor(p.dtype)
        move(o, self.wide, (k - 1) * self.slot + n)
        self.q_out.enque(o)
        o = self.q_out.deque(p.dtype)
        store_rows(self.gy[off], o, k, n, 0, self.slot)
        self.q_out.free_tensor(o)

    def flush(self, blocks: Any, addr: Any, first: int, k: int) -> None:
        """Rows ``first .. first+k-1``'s statistic, gathered out of their blocks, to GM."""
        st = self.p.stats
        half = 1 if blocks is self.bmean else self.rstd_half
        for j, m in stat_runs(0, k):
            gather(self.gath[j], stat_block(blocks, j, half), m)
        o = self.q_stat.alloc_tensor(st)
        move(o, self.gath, k)
        self.q_stat.enque(o)
        o = self.q_stat.deque(st)
        g = asc.GlobalTensor(st)
        g.set_global_buffer(addr.cast(st))
        store_rows(g[first], o, 1, k)
        self.q_stat.free_tensor(o)

    def resident_rows(self, a: int, k: int, pos: int) -> None:
        """Rows ``a .. a+k-1`` (one load), statistics in blocks ``pos ..``."""
        p, r, slot, sq = self.p, self.p.r, self.slot, self.sq
        self.load(self.wide, self.x, p.dtype, a * r, k, r)
        if not p.rms:
            for j in range(k):
                self.total(self.wide[j * slot], r, False, True)
                spread(stat_block(self.bmean, pos + j, 1), self.one)
            self.finish_stats(self.bmean, pos, k, False)
        for j in range(k):
            v = self.wide[j * slot]
            if p.rms:  # x^2 -> sq, summed there
                asc.mul(sq, v, v, r)
                asc.reduce_sum(self.one, sq, self.red, r)
            else:  # x - mean -> sq; its square -> v, summed there
                row_apply(asc.sub, sq, v, stat_block(self.bmean, pos + j, 1), r, self.vec)
                asc.mul(v, sq, sq, r)
                asc.reduce_sum(self.one, v, self.red, r)
            spread(stat_block(self.brstd, pos + j, self.rstd_half), self.one)
            if not p.rms:  # sq must hold row j's x - mean at its scale: one row at a time
                self.finish_stats(self.brstd, pos + j, 1, True)
                self.scale_rows(v, r, pos + j)
        if p.rms:
            self.finish_stats(self.brstd, pos, k, True)
            for j in range(k):
                self.scale_rows(self.wide[j * slot], r, pos + j)
        self.store(a * r, k, r)

    def streamed_row(self, row: int, pos: int) -> None:
        """One row longer than a tile: LayerNorm sweeps it three times, RmsNorm twice."""
        p, r, tile, wide = self.p, self.p.r, self.p.tile, self.wide
        chunks = [(c0, min(tile, r - c0)) for c0 in range(0, r, tile)]
        if not p.rms:
            for c0, n in chunks:
                self.load(wide, self.x, p.dtype, row * r + c0, 1, n)
                self.total(wide, n, False, c0 == 0)
            spread(stat_block(self.bmean, pos, 1), self.one)
            self.finish_stats(self.bmean, pos, 1, False)
        for c0, n in chunks:
            self.load(wide, self.x, p.dtype, row * r + c0, 1, n)
            if not p.rms:
                row_apply(asc.sub, wide, wide, stat_block(self.bmean, pos, 1), n, self.vec)
            self.total(wide, n, True, c0 == 0)
        spread(stat_block(self.brstd, pos, self.rstd_half), self.one)
        self.finish_stats(self.brstd, pos, 1, True)
        for c0, n in chunks:
            self.load(wide, self.x, p.dtype, row * r + c0, 1, n)
            self.params(c0, n)
            if not p.rms:
                row_apply(asc.sub, wide, wide, stat_block(self.bmean, pos, 1), n, self.vec)
            self.scale(wide, n, pos)
            self.store(row * r + c0, 1, n)


def _norm_rows(p: NormPlan, x: Any, w: Any, b: Any, y: Any, mean_out: Any, rstd_out: Any) -> None:
    c = _Rows(p, x, w, b, y)
    r0, r1 = split_evenly(p.rows, asc.get_block_num(), asc.get_block_idx())
    if p.resident:
        c.params(0, p.r)
    step = p.per_load if p.resident else 1
    first = r0  # the first row of the group whose statistics are not yet stored
    for a in range(r0, r1, step):
        k = min(step, r1 - a)
        if a + k - first > GROUP:
            _flush(c, p, mean_out, rstd_out, first, a - first)
            first = a
        if p.resident:
            c.resident_rows(a, k, a - first)
        else:
            c.streamed_row(a, a - first)
    if r1 > first:
        _flush(c, p, mean_out, rstd_out, first, r1 - first)


def _flush(c: _Rows, p: NormPlan, mean_out: Any, rstd_out: Any, first: int, k: int) -> None:
    if p.with_mean:
        c.flush(c.bmean, mean_out, first, k)
    if p.with_rstd:
        c.flush(c.brstd, rstd_out, first, k)


@functools.lru_cache(maxsize=128)
def norm_kernel(p: NormPlan) -> asc.Kernel:
    """LayerNorm: ``k[p.block_dim, stream](x, weight, bias, out, mean, rstd)``; RmsNorm:
    ``k[p.block_dim, stream](x, gamma, y, rstd)``; absent optional operands are passed as 0."""
    if p.rms:
        def rms_norm(x: Any, gamma: Any, y: Any, rstd: Any) -> None:
            _norm_rows(p, x, gamma, None, y, None, rstd)

        return asc.kernel(rms_norm)

    def layer_norm(x: Any, weight: Any, bias: Any, out: Any, mean: Any, rstd: Any) -> None:
        _norm_rows(p, x, weight, bias, out, mean, rstd)

    return asc.kernel(layer_norm)


def launch_norm(plan: NormPlan, stream: Any, *addrs: Any) -> Any:
    """Enqueue the kernel with the operands in :func:`norm_kernel`'s order (None/0 for absent
    ones); nothing for an empty input.  Returns the launch or None."""
    if plan.rows * plan.r == 0:
        return None
    args = [int(getattr(a, "ptr", a)) if a is not None else 0 for a in addrs]
    return norm_kernel(plan)[plan.block_dim, stream](*args)
