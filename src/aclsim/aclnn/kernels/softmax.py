"""The kernels behind Softmax and LogSoftmax along one dim (max-subtracted, float32 inside).

The tensor is viewed as ``(outer, r, inner)`` around ``dim``.

- **row** (``dim`` is the last axis, ``inner == 1``): rows split over the vector cores.  Rows
  that fit a UB tile are loaded several at a time (``rows`` per load, each in a 32 B-aligned
  slot) and kept: per row ``reduce_max``; the maxima gathered and spread over a 32 B block per
  row (one ``brcb`` per 8 rows) and subtracted with the block read for every element
  (``row_apply``) into a second float32 tile, one ``exp`` over the load back into the first,
  per row ``reduce_sum`` spread the same way, then a multiplication by ``1 / sum`` (Softmax) or
  ``ln`` of the blocks and a subtraction (LogSoftmax), cast, store; UB is laid out by bank so
  none of these reads and writes one bank (``_row_kernel``).  No statistic goes to the scalar
  pipe, so the scalar unit keeps issuing and the next load (double buffered) overlaps this
  one's work.  A row longer than a tile is streamed in tiles three times (max, sum of
  ``exp(x - max)``, write), its statistics combined and spread with ``whole_reduce``.
- **col** (``inner > 1``): tiles of all ``r`` rows x ``cols`` columns; the max and the sum over
  rows are vectors (``max``/``add`` row by row), ``exp`` runs once on the whole tile.  When
  even 8 columns of all ``r`` rows do not fit in UB the plan fails with 561002.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

import aclsim.kernel as asc
from aclsim.aclnn.kernels.reduce_tiling import (
    FLOAT_IN,
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
from aclsim.errors import AclnnParamInvalidError, AclnnTilingError

F32 = np.dtype(np.float32)
#: Most rows one load of the row kernel carries (their statistics take a 32 B block each).
MAX_ROWS = 64


@dataclass(frozen=True)
class SoftmaxPlan:
    """``log``: LogSoftmax.  ``mode`` "row": ``tile`` elements per load (``resident``: a row fits
    and is loaded once, ``rows`` rows per load, each in a ``slot``-element UB slot); "col": ``cols``
    columns of all ``r`` rows per load.  No workspace."""

    log: bool
    mode: str
    outer: int
    r: int
    inner: int
    dtype: np.dtype
    out_dtype: np.dtype
    block_dim: int
    tile: int
    resident: bool
    cols: int
    workspace_bytes: int = 0
    rows: int = 0  # "row", resident: whole rows per load (each in a slot of ``slot`` elements)
    slot: int = 0
    vec: VecShape | None = None


def plan_softmax(shape: Sequence[int], dim: int, dtype: Any, chip: ChipSpec, *, log: bool = False,
                 out_dtype: Any = None) -> SoftmaxPlan:
    """Plan Softmax (``log=False``) or LogSoftmax of a contiguous ``shape`` tensor along ``dim``.

    >>> from aclsim.arch import get_chip
    >>> p = plan_softmax((8192, 4096), -1, "float16", get_chip("910B"))
    >>> p.mode, p.block_dim, p.resident
    ('row', 48, True)
    """
    shape = tuple(int(s) for s in shape)
    dt = np.dtype(dtype)
    odt = np.dtype(out_dtype) if out_dtype is not None else dt
    for d, what in ((dt, "self"), (odt, "out")):
        if d not in FLOAT_IN:
            raise AclnnParamInvalidError(f"{'Log' if log else ''}Softmax {what} dtype {d}: the kernel takes "
                                         "float16, bfloat16 and float32", hint="cast to float32 first")
    rank = len(shape)
    if not -max(rank, 1) <= dim < max(rank, 1):
        raise AclnnParamInvalidError(f"dim {dim} is out of range for rank {rank}")
    d = dim % max(rank, 1)
    outer = math.prod(shape[:d])
    r = shape[d] if rank else 1
    inner = math.prod(shape[d + 1:])
    budget = ub_budget(chip)
    if inner == 1 and r:
        tile, resident, rows, slot = _row_tile(chip, r, dt, odt, log)
        units = outer
        p = SoftmaxPlan(log, "row", outer, r, 1, dt, odt, 1, tile, resident, 0, rows=rows, slot=slot)
    else:
        per_col = r * (2 * dt.itemsize + 4 + 2 * odt.itemsize) + 8 + 16  # + the float32 vectors, padding
        cols = budget // max(per_col, 1) // 16 * 16
        if cols < 16 and r:
            raise AclnnTilingError(
                f"{'Log' if log else ''}Softmax along a dim of {r} elements with {inner} after it: "
                f"16 columns of all {r} rows need {16 * per_col} B of UB, {budget} B available "
                f"on {chip.name}",
                hint="move the dim last (Permute) or split the tensor")
        cols = max(16, min(cols, align_elems(inner, 2)))
        units = outer * -(-inner // cols)
        p = SoftmaxPlan(log, "col", outer, r, inner, dt, odt, 1, 0, True, min(cols, inner))
    return _with_blocks(p, units, chip)


def _row_tile(chip: ChipSpec, r: int, dt: np.dtype, odt: np.dtype, log: bool) -> tuple[int, bool, int, int]:
    """``(tile, resident, rows per load, slot)`` of the row kernel.

    Per element: the input and the output double buffered, two float32 tiles the resident rows
    ping-pong between (one for the streamed path) and the reduce instructions' work area (2
    float32 values per 256 B repeat); fixed: the per-row statistics (:func:`_stat_bytes`) and
    the 512 B pads of the bank layout.
    """
    fixed = _stat_bytes(MAX_ROWS) + 4608
    slot = align_elems(r, min(dt.itemsize, odt.itemsize))

    def fit(per: int) -> int:  # elements (whole 256 B float32 repeats) that fit with the work area
        return (ub_budget(chip) - fixed) * 32 // (32 * per + 2 * 4) // 64 * 64

    per = 2 * dt.itemsize + 4 + 2 * odt.itemsize
    tile = fit(per + 4)
    if slot <= tile:
        return tile, True, max(1, min(tile // slot, MAX_ROWS)), slot
    return fit(per), False, 0, 0


def _stat_bytes(rows: int) -> int:
    """UB of the per-row statistics: three areas (each row's raw statistic, its max spread over
    a block, its sum spread over a block) of one 512 B row of bank groups per 8 rows."""
    return 3 * 512 * -(-rows // 8)


def _with_blocks(p: SoftmaxPlan, units: int, chip: ChipSpec) -> SoftmaxPlan:
    return replace(p, block_dim=max(1, min(chip.cores, units)), vec=VecShape.of(chip))


@functools.lru_cache(maxsize=128)
def softmax_kernel(p: SoftmaxPlan) -> asc.Kernel:
    """The kernel: ``k[p.block_dim, stream](self_addr, out_addr)``."""
    return _row_kernel(p) if p.mode == "row" else _col_kernel(p)


class _SoftmaxRows:
    """One core's buffers and steps of the row kernel (built inside the running kernel).

    UB, laid out by bank (A2: 16 groups of 32 B rows, 64 KiB slices): the statistics first
    (slice 0), then the queues, then two float32 tiles ``wide`` and ``other`` 256 B apart
    modulo 512 B, so each step reads one and writes the other (an in-place step takes two
    beats a repeat).  Every instruction that reads a row of ``wide`` (groups 0-7) writes
    ``other`` or the statistics of groups 8-15 or a raw statistic of groups 0-7 in slice 0,
    and the other way round; the reduce's work area is in groups 8-15."""

    def __init__(self, p: SoftmaxPlan, x: Any, y: Any) -> None:
        self.p = p
        assert p.vec is not None
        self.vec = p.vec
        dt, odt, tile, log = p.dtype, p.out_dtype, p.tile, p.log
        sbytes = _stat_bytes(max(p.rows, 2))  # the streamed path combines chunks in a second slot
        wbytes = -(-tile * 4 // 512) * 512
        pipe = asc.TPipe()
        stats = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(stats, sbytes + 512 + -(-(tile // 8 + 64) // 512) * 512)  # whole 512 B
        self.q_in, self.q_out = asc.TQue(asc.TPosition.VECIN, 1), asc.TQue(asc.TPosition.VECOUT, 1)
        pipe.init_buffer(self.q_in, 2, -(-tile * dt.itemsize // 512) * 512)
        if log:  # the result is cast out of ``wide``: the output queue in the other half
            pipe.init_buffer(asc.TBuf(asc.TPosition.VECCALC), 256)
        pipe.init_buffer(self.q_out, 2, -(-tile * odt.itemsize // 512) * 512)
        if log:
            pipe.init_buffer(asc.TBuf(asc.TPosition.VECCALC), 256)
        calc = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(calc, 2 * wbytes + 256 if p.resident else tile * 4)
        self.wide = calc.get(F32, tile)
        self.other = calc.get_with_offset(F32, tile, wbytes + 256) if p.resident else self.wide
        area = sbytes // 3
        self.one = stats.get(F32, area // 4)  # row j's raw statistic at its block's element 0
        self.bmax = stats.get_with_offset(F32, area // 4, area)
        self.bsum = stats.get_with_offset(F32, area // 4, 2 * area)
        self.red = stats.get_with_offset(F32, None, sbytes + 256)
        self.gx, self.gy = asc.GlobalTensor(dt), asc.GlobalTensor(odt)
        self.gx.set_global_buffer(x.cast(dt))
        self.gy.set_global_buffer(y.cast(odt))

    def load(self, off: int, k: int, n: int) -> None:
        """GM -> float32 ``wide`` (k rows of n, or a chunk)."""
        dt, slot = self.p.dtype, self.p.slot
        t = self.q_in.alloc_tensor(dt)
        load_rows(t, self.gx[off], k, n, 0, slot)
        self.q_in.enque(t)
        t = self.q_in.deque(dt)
        move(self.wide, t, (k - 1) * slot + n)
        self.q_in.free_tensor(t)

    def store(self, src: Any, off: int, k: int, n: int) -> None:
        """float32 ``src`` -> GM."""
        odt, slot = self.p.out_dtype, self.p.slot
        o = self.q_out.alloc_tensor(odt)
        move(o, src, (k - 1) * slot + n)
        self.q_out.enque(o)
        o = self.q_out.deque(odt)
        store_rows(self.gy[off], o, k, n, 0, slot)
        self.q_out.free_tensor(o)

    def spread_rows(self, blocks: Any, k: int, kind: str = "sum") -> None:
        """Rows ``0 .. k-1``'s raw statistics (``one``) spread over their blocks: gathered into
        consecutive floats (in the reduce's work area, free between reduces), then one ``brcb``
        per 8 rows (a ``whole_reduce`` per row costs three times as much)."""
        for j, m in stat_runs(0, k):
            gather(self.red[j], stat_block(self.one, j, 0), m, kind)
        asc.brcb(stat_block(blocks, 0, 1), self.red, -(-k // 8), asc.BrcbRepeatParams(1, 16))

    def resident(self, a: int, k: int) -> None:
        """Rows ``a .. a+k-1``, one load, ping-ponging between ``wide`` and ``other``."""
        p, wide, other, one, red = self.p, self.wide, self.other, self.one, self.red
        r, slot, vec = p.r, p.slot, self.vec
        self.load(a * r, k, r)
        for j in range(k):
            asc.reduce_max(stat_block(one, j, 0), wide[j * slot], red, r)
        self.spread_rows(self.bmax, k, "max")
        for j in range(k):
            row_apply(asc.sub, other[j * slot], wide[j * slot], stat_block(self.bmax, j, 1), r, vec)
        asc.exp(wide, other, (k - 1) * slot + r)
        for j in range(k):
            asc.reduce_sum(stat_block(one, j, 0), wide[j * slot], red, r)
        self.spread_rows(self.bsum, k)
        for g in range(0, k, 8):  # per 8 rows: ln(sum) (groups 0-7) or 1 / sum (8-15)
            m = 8 * min(8, k - g)
            if p.log:
                asc.ln(stat_block(one, g, 0), stat_block(self.bsum, g, 1), m)
            else:
                asc.reciprocal(stat_block(self.bmax, g, 1), stat_block(self.bsum, g, 1), m)
        for j in range(k):
            if p.log:  # x - max - ln(sum): reads other (8-15) and the block (0-7)
                row_apply(asc.sub, wide[j * slot], other[j * slot], stat_block(one, j, 0), r, vec)
            else:  # exp(x - max) * (1 / sum)
                row_apply(asc.mul, other[j * slot], wide[j * slot], stat_block(self.bmax, j, 1), r, vec)
        self.store(wide if p.log else other, a * r, k, r)

    def streamed(self, row: int) -> None:
        """A row longer than a tile: three sweeps (max, sum of exp(x - max), write), in place."""
        p, wide, one, red, vec = self.p, self.wide, self.one, self.red, self.vec
        r, tile = p.r, p.tile
        bmax, bsum = stat_block(self.bmax, 0, 1), stat_block(self.bsum, 0, 1)
        for c0 in range(0, r, tile):
            n = min(tile, r - c0)
            self.load(row * r + c0, 1, n)
            asc.reduce_max(one if c0 == 0 else one[8], wide, red, n)
            if c0:
                asc.max(one, one, one[8], 1)
        spread(bmax, one, "max")
        for c0 in range(0, r, tile):
            n = min(tile, r - c0)
            self.load(row * r + c0, 1, n)
            row_apply(asc.sub, wide, wide, bmax, n, vec)
            asc.exp(wide, wide, n)
            asc.reduce_sum(one if c0 == 0 else one[8], wide, red, n)
            if c0:
                asc.add(one, one, one[8], 1)
        spread(bsum, one)
        if p.log:
            asc.ln(bsum, bsum, 8)
        for c0 in range(0, r, tile):
            n = min(tile, r - c0)
            self.load(row * r + c0, 1, n)
            row_apply(asc.sub, wide, wide, bmax, n, vec)
            if p.log:
                row_apply(asc.sub, wide, wide, bsum, n, vec)
            else:
                asc.exp(wide, wide, n)
                row_apply(asc.div, wide, wide, bsum, n, vec)
            self.store(wide, row * r + c0, 1, n)


def _row_kernel(p: SoftmaxPlan) -> asc.Kernel:
    @asc.kernel
    def softmax_rows(x: Any, y: Any) -> None:
        c = _SoftmaxRows(p, x, y)
        o0, o1 = split_evenly(p.outer, asc.get_block_num(), asc.get_block_idx())
        if p.resident:
            for a in range(o0, o1, p.rows):
                c.resident(a, min(p.rows, o1 - a))
        else:
            for row in range(o0, o1):
                c.streamed(row)

    return softmax_rows


def _col_kernel(p: SoftmaxPlan) -> asc.Kernel:
    dt, odt, r, inner, cols, log = p.dtype, p.out_dtype, p.r, p.inner, p.cols, p.log
    cp = align_elems(cols, 2)  # slots hold whole 32 B blocks of every dtype involved
    chunks = -(-inner // cols)

    @asc.kernel
    def softmax_cols(x: Any, y: Any) -> None:
        pipe = asc.TPipe()
        q_in, q_out = asc.TQue(asc.TPosition.VECIN, 1), asc.TQue(asc.TPosition.VECOUT, 1)
        pipe.init_buffer(q_in, 2, r * cp * dt.itemsize)
        pipe.init_buffer(q_out, 2, r * cp * odt.itemsize)
        calc = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(calc, (r + 2) * cp * 4)
        wide = calc.get(F32, r * cp)
        vmax = calc.get_with_offset(F32, cp, r * cp * 4)
        vsum = calc.get_with_offset(F32, cp, (r + 1) * cp * 4)
        gx, gy = asc.GlobalTensor(dt), asc.GlobalTensor(odt)
        gx.set_global_buffer(x.cast(dt))
        gy.set_global_buffer(y.cast(odt))
        u0, u1 = split_evenly(p.outer * chunks, asc.get_block_num(), asc.get_block_idx())
        for u in range(u0, u1):
            o, cc = divmod(u, chunks)
            i0 = cc * cols
            cw = min(cols, inner - i0)
            off = o * r * inner + i0
            t = q_in.alloc_tensor(dt)
            load_rows(t, gx[off], r, cw, inner - cw, cp)
            q_in.enque(t)
            t = q_in.deque(dt)
            move(wide, t, r * cp)
            q_in.free_tensor(t)
            asc.data_copy(vmax, wide, cp)
            for j in range(1, r):
                asc.max(vmax, vmax, wide[j * cp], cp)
            for j in range(r):
                asc.sub(wide[j * cp], wide[j * cp], vmax, cp)
            if log:  # x - max - ln(sum exp(x - max)); exp into the output tile's float32 twin
                asc.exp(vmax, wide, cp)
                asc.data_copy(vsum, vmax, cp)
                for j in range(1, r):
                    asc.exp(vmax, wide[j * cp], cp)
                    asc.add(vsum, vsum, vmax, cp)
                asc.ln(vsum, vsum, cp)
                for j in range(r):
                    asc.sub(wide[j * cp], wide[j * cp], vsum, cp)
            else:
                asc.exp(wide, wide, r * cp)
                asc.data_copy(vsum, wide, cp)
                for j in range(1, r):
                    asc.add(vsum, vsum, wide[j * cp], cp)
                for j in range(r):
                    asc.div(wide[j * cp], wide[j * cp], vsum, cp)
            ot = q_out.alloc_tensor(odt)
            move(ot, wide, r * cp)
            q_out.enque(ot)
            ot = q_out.deque(odt)
            store_rows(gy[off], ot, r, cw, inner - cw, cp)
            q_out.free_tensor(ot)

    return softmax_cols


def launch_softmax(plan: SoftmaxPlan, stream: Any, self_addr: Any, out_addr: Any) -> Any:
    """Enqueue the kernel on ``stream`` (nothing for an empty tensor); returns the launch or None."""
    if plan.outer * plan.r * plan.inner == 0:
        return None
    return softmax_kernel(plan)[plan.block_dim, stream](int(getattr(self_addr, "ptr", self_addr)),
                                                        int(getattr(out_addr, "ptr", out_addr)))
