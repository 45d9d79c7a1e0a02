"""The kernels behind Softmax and LogSoftmax along one dim (max-subtracted, float32 inside).

The tensor is viewed as ``(outer, r, inner)`` around ``dim``.

- **row** (``dim`` is the last axis, ``inner == 1``): rows split over the vector cores.  Rows
  that fit a UB tile are loaded several at a time (``rows`` per load, each in a 32 B-aligned
  slot) and kept: per row ``reduce_max``, spread over a 32 B block (``spread``) and subtracted
  with the block read for every element (``row_apply``), one ``exp`` over the load, per row
  ``reduce_sum`` spread the same way, then a division by it (Softmax) or ``ln`` of the blocks
  and a subtraction (LogSoftmax), cast, store.  No statistic goes to the scalar pipe, so the
  scalar unit keeps issuing and the next load (double buffered) overlaps this one's work.  A
  row longer than a tile is streamed in tiles three times (max, sum of ``exp(x - max)``, write),
  its statistics combined and spread the same way.
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


def _row_kernel(p: SoftmaxPlan) -> asc.Kernel:
    """UB, laid out by bank (A2: 16 groups of 32 B rows, 64 KiB slices): the statistics first
    (slice 0), then the queues, then two float32 tiles ``wide`` and ``other`` 256 B apart
    modulo 512 B, so each step reads one and writes the other (an in-place step takes two
    beats a repeat).  Every instruction that reads a row of ``wide`` (groups 0-7) writes
    ``other`` or the statistics of groups 8-15 or a raw statistic of groups 0-7 in slice 0,
    and the other way round; the reduce's work area is in groups 8-15."""
    dt, odt, r, tile, log, resident = p.dtype, p.out_dtype, p.r, p.tile, p.log, p.resident
    rows, slot, vec = p.rows, p.slot, p.vec
    assert vec is not None
    nstat = max(rows, 2)  # the streamed path combines chunks in a second slot
    sbytes = _stat_bytes(nstat)
    wbytes = -(-tile * 4 // 512) * 512

    @asc.kernel
    def softmax_rows(x: Any, y: Any) -> None:
        pipe = asc.TPipe()
        stats = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(stats, sbytes + 512 + -(-(tile // 8 + 64) // 512) * 512)  # whole 512 B
        q_in, q_out = asc.TQue(asc.TPosition.VECIN, 1), asc.TQue(asc.TPosition.VECOUT, 1)
        pipe.init_buffer(q_in, 2, -(-tile * dt.itemsize // 512) * 512)
        if log:  # the result is cast out of ``wide``: the output queue in the other half
            pipe.init_buffer(asc.TBuf(asc.TPosition.VECCALC), 256)
        pipe.init_buffer(q_out, 2, -(-tile * odt.itemsize // 512) * 512)
        if log:
            pipe.init_buffer(asc.TBuf(asc.TPosition.VECCALC), 256)
        calc = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(calc, 2 * wbytes + 256 if resident else tile * 4)
        wide = calc.get(F32, tile)
        other = calc.get_with_offset(F32, tile, wbytes + 256) if resident else wide
        area = sbytes // 3
        one = stats.get(F32, area // 4)  # row j's raw statistic at its block's element 0
        bmax = stats.get_with_offset(F32, area // 4, area)
        bsum = stats.get_with_offset(F32, area // 4, 2 * area)
        red = stats.get_with_offset(F32, None, sbytes + 256)
        gx, gy = asc.GlobalTensor(dt), asc.GlobalTensor(odt)
        gx.set_global_buffer(x.cast(dt))
        gy.set_global_buffer(y.cast(odt))
        o0, o1 = split_evenly(p.outer, asc.get_block_num(), asc.get_block_idx())

        def load(off: int, k: int, n: int) -> None:  # GM -> float32 ``wide`` (k rows of n, or a chunk)
            t = q_in.alloc_tensor(dt)
            load_rows(t, gx[off], k, n, 0, slot)
            q_in.enque(t)
            t = q_in.deque(dt)
            move(wide, t, (k - 1) * slot + n)
            q_in.free_tensor(t)

        def store(src: Any, off: int, k: int, n: int) -> None:  # float32 ``src`` -> GM
            o = q_out.alloc_tensor(odt)
            move(o, src, (k - 1) * slot + n)
            q_out.enque(o)
            o = q_out.deque(odt)
            store_rows(gy[off], o, k, n, 0, slot)
            q_out.free_tensor(o)

        def spread_rows(blocks: Any, k: int, kind: str = "sum") -> None:
            """Rows ``0 .. k-1``'s raw statistics (``one``) spread over their blocks: gathered
            into consecutive floats (in the reduce's work area, free between reduces), then one
            ``brcb`` per 8 rows (a ``whole_reduce`` per row costs three times as much)."""
            for j, m in stat_runs(0, k):
                gather(red[j], stat_block(one, j, 0), m, kind)
            asc.brcb(stat_block(blocks, 0, 1), red, -(-k // 8), asc.BrcbRepeatParams(1, 16))

        def finish(j: int, v: Any, n: int) -> None:  # x - max -> softmax / log softmax of row j
            if log:
                row_apply(asc.sub, v, v, stat_block(bsum, j, 1), n, vec)
            else:
                asc.exp(v, v, n)
                row_apply(asc.div, v, v, stat_block(bsum, j, 1), n, vec)

        if resident:
            for a in range(o0, o1, rows):
                k = min(rows, o1 - a)
                load(a * r, k, r)
                for j in range(k):
                    asc.reduce_max(stat_block(one, j, 0), wide[j * slot], red, r)
                spread_rows(bmax, k, "max")
                for j in range(k):
                    row_apply(asc.sub, other[j * slot], wide[j * slot], stat_block(bmax, j, 1), r, vec)
                asc.exp(wide, other, (k - 1) * slot + r)
                for j in range(k):
                    asc.reduce_sum(stat_block(one, j, 0), wide[j * slot], red, r)
                spread_rows(bsum, k)
                for g in range(0, k, 8):  # per 8 rows: ln(sum) (groups 0-7) or 1 / sum (8-15)
                    m = 8 * min(8, k - g)
                    if log:
                        asc.ln(stat_block(one, g, 0), stat_block(bsum, g, 1), m)
                    else:
                        asc.reciprocal(stat_block(bmax, g, 1), stat_block(bsum, g, 1), m)
                for j in range(k):
                    if log:  # x - max - ln(sum): reads other (8-15) and the block (0-7)
                        row_apply(asc.sub, wide[j * slot], other[j * slot], stat_block(one, j, 0), r, vec)
                    else:  # exp(x - max) * (1 / sum)
                        row_apply(asc.mul, other[j * slot], wide[j * slot], stat_block(bmax, j, 1), r, vec)
                store(wide if log else other, a * r, k, r)
            return
        for row in range(o0, o1):  # rows longer than a tile: three sweeps, statistics in blocks
            for c0 in range(0, r, tile):
                n = min(tile, r - c0)
                load(row * r + c0, 1, n)
                asc.reduce_max(one if c0 == 0 else one[8], wide, red, n)
                if c0:
                    asc.max(one, one, one[8], 1)
            spread(stat_block(bmax, 0, 1), one, "max")
            for c0 in range(0, r, tile):
                n = min(tile, r - c0)
                load(row * r + c0, 1, n)
                row_apply(asc.sub, wide, wide, stat_block(bmax, 0, 1), n, vec)
                asc.exp(wide, wide, n)
                asc.reduce_sum(one if c0 == 0 else one[8], wide, red, n)
                if c0:
                    asc.add(one, one, one[8], 1)
            spread(stat_block(bsum, 0, 1), one)
            if log:
                asc.ln(stat_block(bsum, 0, 1), stat_block(bsum, 0, 1), 8)
            for c0 in range(0, r, tile):
                n = min(tile, r - c0)
                load(row * r + c0, 1, n)
                row_apply(asc.sub, wide, wide, stat_block(bmax, 0, 1), n, vec)
                finish(0, wide, n)
                store(wide, row * r + c0, 1, n)

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
