"""The kernels behind Softmax and LogSoftmax along one dim (max-subtracted, float32 inside).

The tensor is viewed as ``(outer, r, inner)`` around ``dim``.

- **row** (``dim`` is the last axis, ``inner == 1``): one row per step, rows split over the
  vector cores.  A row that fits a UB tile is loaded once and kept: ``reduce_max``, read on
  the scalar pipe, ``adds(-max)``, ``exp``, ``reduce_sum``, then ``muls(1 / sum)`` (Softmax) or
  ``adds(-ln sum)`` on ``x - max`` (LogSoftmax), cast, store.  A longer row is streamed in
  tiles three times (max, sum of ``exp(x - max)``, write).
- **col** (``inner > 1``): tiles of all ``r`` rows x ``cols`` columns; the max and the sum over
  rows are vectors (``max``/``add`` row by row), ``exp`` runs once on the whole tile.  When
  even 8 columns of all ``r`` rows do not fit in UB the plan fails with 561002.
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
    align_elems,
    load_rows,
    move,
    split_evenly,
    store_rows,
    ub_budget,
)
from aclsim.arch import ChipSpec
from aclsim.errors import AclnnParamInvalidError, AclnnTilingError

F32 = np.dtype(np.float32)


@dataclass(frozen=True)
class SoftmaxPlan:
    """``log``: LogSoftmax.  ``mode`` "row": ``tile`` elements per load (``resident``: a row fits
    and is loaded once); "col": ``cols`` columns of all ``r`` rows per load.  No workspace."""

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
        # the input (double buffered), a float32 copy and the output (double buffered)
        per = 2 * dt.itemsize + 4 + 2 * odt.itemsize
        tile = (budget - 1024) // per // 64 * 64
        resident = align_elems(max(r, 1), 2) <= (budget - 1024) // (per + 4) // 64 * 64 if log else \
            align_elems(max(r, 1), 2) <= tile
        if log and resident:  # LogSoftmax keeps exp(x - max) apart from x - max
            tile = (budget - 1024) // (per + 4) // 64 * 64
        units = outer
        p = SoftmaxPlan(log, "row", outer, r, 1, dt, odt, 1, tile, resident, 0)
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


def _with_blocks(p: SoftmaxPlan, units: int, chip: ChipSpec) -> SoftmaxPlan:
    from dataclasses import replace

    return replace(p, block_dim=max(1, min(chip.cores, units)))


@functools.lru_cache(maxsize=128)
def softmax_kernel(p: SoftmaxPlan) -> asc.Kernel:
    """The kernel: ``k[p.block_dim, stream](self_addr, out_addr)``."""
    return _row_kernel(p) if p.mode == "row" else _col_kernel(p)


def _row_kernel(p: SoftmaxPlan) -> asc.Kernel:
    dt, odt, r, tile, log, resident = p.dtype, p.out_dtype, p.r, p.tile, p.log, p.resident

    @asc.kernel
    def softmax_rows(x: Any, y: Any) -> None:
        pipe = asc.TPipe()
        q_in, q_out = asc.TQue(asc.TPosition.VECIN, 1), asc.TQue(asc.TPosition.VECOUT, 1)
        pipe.init_buffer(q_in, 2, tile * dt.itemsize)
        pipe.init_buffer(q_out, 2, tile * odt.itemsize)
        calc = asc.TBuf(asc.TPosition.VECCALC)
        extra = tile * 4 if log and resident else 0
        pipe.init_buffer(calc, tile * 4 + extra + 1024)
        wide = calc.get(F32, tile)
        ebuf = calc.get_with_offset(F32, tile, tile * 4) if extra else wide
        base = tile * 4 + extra
        slot, part = calc.get_with_offset(F32, 8, base), calc.get_with_offset(F32, 8, base + 32)
        red = calc.get_with_offset(F32, None, base + 64)
        v_s = pipe.alloc_event_id(asc.HardEvent.V_S)
        gx, gy = asc.GlobalTensor(dt), asc.GlobalTensor(odt)
        gx.set_global_buffer(x.cast(dt))
        gy.set_global_buffer(y.cast(odt))
        o0, o1 = split_evenly(p.outer, asc.get_block_num(), asc.get_block_idx())

        def scalar(t: Any) -> Any:
            asc.set_flag(asc.HardEvent.V_S, v_s)
            asc.wait_flag(asc.HardEvent.V_S, v_s)
            return t.get_value(0)

        def load(off: int, n: int) -> None:  # GM -> float32 ``wide``
            t = q_in.alloc_tensor(dt)
            load_rows(t, gx[off], 1, n)
            q_in.enque(t)
            t = q_in.deque(dt)
            move(wide, t, n)
            q_in.free_tensor(t)

        def store(off: int, n: int) -> None:  # float32 ``wide`` -> GM
            o = q_out.alloc_tensor(odt)
            move(o, wide, n)
            q_out.enque(o)
            o = q_out.deque(odt)
            store_rows(gy[off], o, 1, n)
            q_out.free_tensor(o)

        def sweep(row: int, neg_max: Any) -> Any:
            """max over the row (``neg_max`` None) or the sum of exp(x - max), tile by tile"""
            fn, comb = (asc.reduce_max, asc.max) if neg_max is None else (asc.reduce_sum, asc.add)
            for c0 in range(0, r, tile):
                n = min(tile, r - c0)
                load(row * r + c0, n)
                if neg_max is not None:
                    asc.adds(wide, wide, neg_max, n)
                    asc.exp(wide, wide, n)
                fn(slot if c0 == 0 else part, wide, red, n)
                if c0:
                    comb(slot, slot, part, 1)
            return scalar(slot)

        def ln_of(total: Any) -> Any:
            asc.duplicate(part, total, 8)
            asc.ln(part, part, 8)
            return scalar(part)

        for row in range(o0, o1):
            if resident:
                load(row * r, r)
                asc.reduce_max(slot, wide, red, r)
                neg_max = -scalar(slot)
                asc.adds(wide, wide, neg_max, r)
                asc.exp(ebuf, wide, r)
                asc.reduce_sum(slot, ebuf, red, r)
                total = scalar(slot)
                if log:
                    asc.adds(wide, wide, -ln_of(total), r)
                else:
                    asc.muls(wide, wide, np.float32(1) / total, r)
                store(row * r, r)
                continue
            neg_max = -sweep(row, None)
            total = sweep(row, neg_max)
            post = -ln_of(total) if log else np.float32(1) / total
            for c0 in range(0, r, tile):
                n = min(tile, r - c0)
                load(row * r + c0, n)
                asc.adds(wide, wide, neg_max, n)
                if log:
                    asc.adds(wide, wide, post, n)
                else:
                    asc.exp(wide, wide, n)
                    asc.muls(wide, wide, post, n)
                store(row * r + c0, n)

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
