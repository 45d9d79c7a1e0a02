"""The kernels behind ReduceSum, Amax and Mean: a reduction over ``(outer, r, inner)`` views.

:func:`plan_reduce` turns a shape, the reduced axes, the dtypes and the reduction into a
:class:`ReducePlan`: one :class:`ReducePass` per run of adjacent reduced axes (innermost run
first, intermediates in the workspace in the accumulation dtype), and, when a pass has fewer
output rows than the chip has vector cores, its ``r`` axis cut into ``splits`` ranges that
different cores reduce into per-core partials in the workspace, combined by a second pass.

Two kernel shapes:

- **row** (``inner == 1``: each result is the reduction of ``r`` contiguous elements): whole
  rows, several per tile, in 32 B-aligned UB slots (``data_copy_pad``), cast to the
  accumulator, one ``reduce_sum``/``reduce_max`` per row; rows longer than a tile are
  reduced chunk by chunk into a running per-row value.  A float accumulator's results are
  gathered into the output tile on the vector pipe (one ``whole_reduce`` per tile), so the
  next tile's load overlaps this one's reductions; an integer one (``whole_reduce`` takes
  floats only) is read on the scalar pipe, which holds the next load's issue until then;
- **col** (``inner > 1``): tiles of ``rows x cols`` elements, cast, folded in halves with
  vector ``add``/``max`` (log2(rows) instructions), accumulated into a ``cols``-element vector.

Accumulation is float32 for float16/bfloat16/float32 and int32 for int8/uint8/int16/int32/bool:
integer sums wrap as in their own type (the final cast keeps the low bits), so they are exact in
the output type.  Mean accumulates in float32 and multiplies by ``1 / count`` (NaN for an
empty reduction).  float64, int64 and complex have no vector kernel here.
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
    BOOL,
    FLOAT_IN,
    acc_dtype,
    align_elems,
    convert,
    gather,
    kernel_dtype,
    load_rows,
    move,
    normalize_dims,
    put_value,
    reduce_views,
    split_evenly,
    storage,
    store_rows,
    ub_budget,
)
from aclsim.arch import ChipSpec
from aclsim.errors import AclnnParamInvalidError

KINDS = ("sum", "max", "mean")
#: A core's share of ``r`` below which cutting ``r`` over more cores does not pay.
MIN_SPLIT = 2048
#: Results a row kernel gathers in one output tile.
OUT_ROWS = 128

Role = Any  # "self", "out" or a workspace byte offset (int)


@dataclass(frozen=True)
class ReducePass:
    """One launch: reduce ``(outer, r, inner)`` from ``src`` into ``dst``.

    ``splits > 1``: ``r`` is cut into that many ranges and the pass writes ``splits`` partial
    results per output (``splits x outer x inner`` in ``dst_dtype``, the accumulation dtype).
    ``mode`` "row": ``tile`` UB elements per input load, ``rows`` rows per load (0: rows
    longer than a tile, reduced ``tile`` elements at a time); "col": ``cols`` columns and
    ``rows`` rows per load.  ``scale`` multiplies each result (Mean); ``clamp`` turns a sum into
    0/1 (a bool output).
    """

    kind: str  # "sum" or "max"
    mode: str
    outer: int
    r: int
    inner: int
    splits: int
    src_dtype: np.dtype
    dst_dtype: np.dtype
    acc: np.dtype
    scale: float | None
    clamp: bool
    block_dim: int
    tile: int
    rows: int
    cols: int
    src: Role
    dst: Role

    @property
    def units(self) -> int:
        items = self.outer if self.mode == "row" else self.outer * -(-self.inner // self.cols)
        return items * self.splits


@dataclass(frozen=True)
class ReducePlan:
    """Everything phase 2 needs: the passes in launch order and the workspace bytes they use."""

    kind: str
    shape: tuple[int, ...]
    dims: tuple[int, ...]
    out_elements: int
    passes: tuple[ReducePass, ...]
    workspace_bytes: int

    @property
    def block_dim(self) -> int:
        """The largest block dimension of the passes."""
        return max((p.block_dim for p in self.passes), default=0)


def _row_tile(chip: ChipSpec, r: int, src: np.dtype, acc: np.dtype, dst: np.dtype) -> tuple[int, int]:
    """``(tile elements, rows per tile)`` of a row pass (rows 0: a row takes several tiles)."""
    isz, asz = src.itemsize, acc.itemsize
    fixed = 2 * OUT_ROWS * dst.itemsize + 2 * OUT_ROWS * 32 + 64
    per_elem = 2 * isz + (asz if src != acc else 0)
    room = (ub_budget(chip) - fixed) // per_elem
    room = room - room // 17  # the reduce instructions' work area (2 values per repeat)
    room = room // 128 * 128  # whole 256 B float32 repeats, and a 32 B-aligned work area
    slot = align_elems(max(r, 1), isz)
    if slot <= room:
        return room, max(1, min(room // slot, OUT_ROWS, 4095))
    return room, 0


def _col_tile(chip: ChipSpec, r: int, inner: int, src: np.dtype, acc: np.dtype, dst: np.dtype
              ) -> tuple[int, int]:
    """``(cols, rows per load)`` of a column pass."""
    isz, asz = src.itemsize, acc.itemsize
    per_elem = 2 * isz + (asz if src != acc else 0)
    budget = ub_budget(chip)
    cols = align_elems(max(inner, 1), isz)
    # the acc vector and the double-buffered output tile take cols * (asz + 2 * dst) bytes
    max_cols = max(align_elems(1, isz), (budget // 4) // (asz + 2 * dst.itemsize) // 64 * 64)
    cols = min(cols, max_cols)
    # enough column chunks for every vector core, each at least 256 B of the input
    cols = min(cols, max(align_elems(-(-inner // chip.cores), isz), 256 // isz))
    room = (budget - cols * (asz + 2 * dst.itemsize)) // (per_elem * cols)
    return min(cols, inner) if inner else 1, max(1, min(room, max(r, 1), 4095))


def _make_pass(kind: str, view: tuple[int, int, int], src: np.dtype, dst: np.dtype, acc: np.dtype,
               scale: float | None, clamp: bool, chip: ChipSpec, src_role: Role, dst_role: Role,
               splits: int = 1) -> ReducePass:
    outer, r, inner = view
    if inner == 1 and r > 1:
        tile, rows = _row_tile(chip, r, src, acc, dst)
        rows = rows if splits == 1 else 0  # a split row is a range of a row: the chunked path
        p = ReducePass(kind, "row", outer, r, 1, splits, src, dst, acc, scale, clamp, 1, tile, rows, 1,
                       src_role, dst_role)
    else:
        if r <= 1 or outer * inner == 0:  # a copy with the cast, or an empty reduction: one flat view
            outer, inner = 1, outer * inner
        cols, rows = _col_tile(chip, r, inner, src, acc, dst)
        p = ReducePass(kind, "col", outer, r, inner, splits, src, dst, acc, scale, clamp, 1, 0, rows,
                       max(cols, 1), src_role, dst_role)
    return replace(p, block_dim=max(1, min(chip.cores, p.units)))


def _passes_of(kind: str, view: tuple[int, int, int], src: np.dtype, dst: np.dtype, acc: np.dtype,
               scale: float | None, clamp: bool, chip: ChipSpec, src_role: Role, dst_role: Role,
               ws_top: int) -> tuple[list[ReducePass], int]:
    """The launches of one view: one pass, or a split pass and its combining pass."""
    outer, r, inner = view
    single = _make_pass(kind, view, src, dst, acc, scale, clamp, chip, src_role, dst_role)
    items = single.units
    splits = min(chip.cores // max(items, 1), r // MIN_SPLIT) if items and r else 1
    if splits < 2:
        return [single], ws_top
    n = outer * inner
    part = _make_pass(kind, view, src, acc, acc, None, False, chip, src_role, ws_top, splits)
    combine = _make_pass(kind, (1, splits, n), acc, dst, acc, scale, clamp, chip, ws_top, dst_role)
    return [part, combine], ws_top + align_elems(splits * n, acc.itemsize) * acc.itemsize


def plan_reduce(shape: Sequence[int], dims: Sequence[int] | None, kind: str, in_dtype: Any, out_dtype: Any,
                chip: ChipSpec) -> ReducePlan:
    """Plan a reduction of ``dims`` of a contiguous ``shape`` tensor (empty ``dims``: every axis).

    ``kind`` is "sum" (ReduceSum), "max" (Amax) or "mean" (Mean).  The output holds the
    kept dims in order (``keepDims`` does not change its bytes).

    >>> from aclsim.arch import get_chip
    >>> p = plan_reduce((8, 4096), [1], "sum", "float16", "float16", get_chip("910B"))
    >>> [(q.mode, q.outer, q.r, q.inner) for q in p.passes], p.workspace_bytes
    ([('row', 8, 4096, 1), ('col', 1, 2, 8)], 64)
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    shape = tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):
        raise AclnnParamInvalidError(f"shape {shape} has a negative dim")
    src, dst = kernel_dtype(in_dtype, "self"), kernel_dtype(out_dtype, "out")
    rdims = normalize_dims(dims, len(shape))
    count = math.prod(shape[d] for d in rdims)
    if kind == "max" and count == 0:
        raise AclnnParamInvalidError("Amax over a size-0 dim has no value", hint="reduce non-empty dims")
    acc = np.dtype(np.float32) if kind == "mean" else acc_dtype(src)
    if kind == "mean" and dst not in FLOAT_IN:
        raise AclnnParamInvalidError(f"Mean into {dst}: the kernel writes float16, bfloat16 or float32",
                                     hint="ask for a float dtype")
    scale = (1.0 / count if count else float("nan")) if kind == "mean" else None
    clamp = dst == BOOL and kind == "sum"
    base = "max" if kind == "max" else "sum"
    out_elements = math.prod(s for a, s in enumerate(shape) if a not in rdims)
    views = reduce_views(shape, rdims)
    passes: list[ReducePass] = []
    top = ws = 0  # the workspace's next free byte, and its size
    src_role: Role = "self"
    cur = storage(src)
    for i, view in enumerate(views):
        last = i == len(views) - 1
        if last:
            dst_role: Role = "out"
            split_at = top
        else:  # an intermediate in the accumulation dtype, the next pass's input
            dst_role = top
            split_at = top + align_elems(view[0] * view[2], acc.itemsize) * acc.itemsize
        new, end = _passes_of(base, view, cur, storage(dst) if last else acc, acc, scale if last else None,
                              clamp and last, chip, src_role, dst_role, split_at)
        passes.extend(new)
        ws = max(ws, end, split_at)
        src_role, cur, top = dst_role, acc, split_at
    if out_elements == 0:
        passes = []
    return ReducePlan(kind, shape, rdims, out_elements, tuple(passes), ws if passes else 0)


# --- the kernels --------------------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def reduce_kernel(p: ReducePass) -> asc.Kernel:
    """The kernel of one pass, launched as ``k[p.block_dim, stream](src_addr, dst_addr)``."""
    return _row_kernel(p) if p.mode == "row" else _col_kernel(p)


def _finish(p: ReducePass, slots: Any, oslots: Any, k: int, out_tile: Any, v_s: int) -> None:
    """Results ``0..k-1`` (slot ``j`` at element ``8 j`` of ``slots``) scaled, cast and put at
    ``out_tile[j]``.  A float accumulator is gathered on the vector pipe (one ``whole_reduce`` of
    one element per slot); an integer one, which ``whole_reduce`` does not take, is read on the
    scalar pipe and put back with masked ``duplicate``."""
    if p.acc in FLOAT_IN:
        got = oslots.reinterpret_cast(p.acc)
        gather(got, slots, k, p.kind)
        n = align_elems(k, p.acc.itemsize)
        if p.scale is not None:
            asc.muls(got, got, p.scale, n)
        if p.clamp:
            asc.mins(got, got, 1, n)
        move(out_tile, got, k)
        return
    n = 8 * k
    if p.clamp:
        asc.mins(slots, slots, 1, n)
    src = slots
    if p.dst_dtype != p.acc:
        convert(oslots, slots, n)
        src = oslots
    asc.set_flag(asc.HardEvent.V_S, v_s)
    asc.wait_flag(asc.HardEvent.V_S, v_s)
    for j in range(k):
        put_value(out_tile, j, src.get_value(8 * j))


def _row_kernel(p: ReducePass) -> asc.Kernel:
    sdt, ddt, acc = p.src_dtype, p.dst_dtype, p.acc
    cast_in = sdt != acc
    op = asc.reduce_max if p.kind == "max" else asc.reduce_sum
    comb = asc.max if p.kind == "max" else asc.add
    tile, rows, r, splits, units, n_out = p.tile, p.rows, p.r, p.splits, p.units, p.outer

    @asc.kernel
    def reduce_rows(x: Any, y: Any) -> None:
        pipe = asc.TPipe()
        q_in, q_out = asc.TQue(asc.TPosition.VECIN, 1), asc.TQue(asc.TPosition.VECOUT, 1)
        pipe.init_buffer(q_in, 2, tile * sdt.itemsize)
        pipe.init_buffer(q_out, 2, OUT_ROWS * ddt.itemsize)
        calc, slot_buf = asc.TBuf(asc.TPosition.VECCALC), asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(calc, tile * acc.itemsize // 16 + 64 + (tile * acc.itemsize if cast_in else 0))
        pipe.init_buffer(slot_buf, 2 * OUT_ROWS * 32 + 32)
        work = calc.get(acc)
        red_work, wide = work, (work[tile // 16 + 16] if cast_in else None)
        slots = slot_buf.get(acc)
        oslots = slot_buf.get_with_offset(ddt, None, OUT_ROWS * 32)
        tmp = slot_buf.get_with_offset(acc, None, 2 * OUT_ROWS * 32)
        v_s = pipe.alloc_event_id(asc.HardEvent.V_S)
        gx, gy = asc.GlobalTensor(sdt), asc.GlobalTensor(ddt)
        gx.set_global_buffer(x.cast(sdt))
        gy.set_global_buffer(y.cast(ddt))
        u0, u1 = split_evenly(units, asc.get_block_num(), asc.get_block_idx())

        def load(goff: int, nrows: int, length: int) -> tuple[Any, Any]:
            t = q_in.alloc_tensor(sdt)
            load_rows(t, gx[goff], nrows, length)
            q_in.enque(t)
            t = q_in.deque(sdt)
            slot = align_elems(length, sdt.itemsize)
            if not cast_in:
                return t, t
            convert(wide, t, nrows * slot)
            return t, wide

        def flush(k: int, dst0: int) -> None:
            o = q_out.alloc_tensor(ddt)
            _finish(p, slots, oslots, k, o, v_s)
            q_out.enque(o)
            o = q_out.deque(ddt)
            store_rows(gy[dst0], o, 1, k)
            q_out.free_tensor(o)

        if rows:  # whole rows per tile (splits == 1: units are rows, contiguous in and out)
            slot = align_elems(r, sdt.itemsize)
            for a in range(u0, u1, rows):
                k = min(rows, u1 - a)
                t, v = load(a * r, k, r)
                for j in range(k):
                    op(slots[8 * j], v[j * slot], red_work, r)
                q_in.free_tensor(t)
                flush(k, a)
            return
        k, dst0 = 0, -1
        for u in range(u0, u1):
            s, o = divmod(u, n_out)
            dst = s * n_out + o
            if k and (k == OUT_ROWS or dst != dst0 + k):
                flush(k, dst0)
                k = 0
            if not k:
                dst0 = dst
            ra, rb = split_evenly(r, splits, s)
            for c0 in range(ra, rb, tile):
                n = min(tile, rb - c0)
                t, v = load(o * r + c0, 1, n)
                if c0 == ra:
                    op(slots[8 * k], v, red_work, n)
                else:
                    op(tmp, v, red_work, n)
                    comb(slots[8 * k], slots[8 * k], tmp, 1)
                q_in.free_tensor(t)
            k += 1
        if k:
            flush(k, dst0)

    return reduce_rows


def _col_kernel(p: ReducePass) -> asc.Kernel:
    sdt, ddt, acc = p.src_dtype, p.dst_dtype, p.acc
    cast_in = sdt != acc
    comb = asc.max if p.kind == "max" else asc.add
    r, inner, cols, rl, splits, units = p.r, p.inner, p.cols, p.rows, p.splits, p.units
    cp = align_elems(cols, sdt.itemsize)
    chunks = -(-inner // cols)
    items = p.outer * chunks

    @asc.kernel
    def reduce_cols(x: Any, y: Any) -> None:
        pipe = asc.TPipe()
        q_in, q_out = asc.TQue(asc.TPosition.VECIN, 1), asc.TQue(asc.TPosition.VECOUT, 1)
        pipe.init_buffer(q_in, 2, rl * cp * sdt.itemsize)
        pipe.init_buffer(q_out, 2, cp * ddt.itemsize)
        calc = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(calc, cp * acc.itemsize + (rl * cp * acc.itemsize if cast_in else 0))
        accv = calc.get(acc, cp)
        wide = calc.get_with_offset(acc, rl * cp, cp * acc.itemsize) if cast_in else None
        gx, gy = asc.GlobalTensor(sdt), asc.GlobalTensor(ddt)
        gx.set_global_buffer(x.cast(sdt))
        gy.set_global_buffer(y.cast(ddt))
        u0, u1 = split_evenly(units, asc.get_block_num(), asc.get_block_idx())
        for u in range(u0, u1):
            s, item = divmod(u, items)
            o, cc = divmod(item, chunks)
            i0 = cc * cols
            cw = min(cols, inner - i0)
            ra, rb = split_evenly(r, splits, s)
            for l0 in range(ra, rb, rl):
                n = min(rl, rb - l0)
                t = q_in.alloc_tensor(sdt)
                load_rows(t, gx[(o * r + l0) * inner + i0], n, cw, inner - cw, cp)
                q_in.enque(t)
                t = q_in.deque(sdt)
                v = t
                if wide is not None:
                    convert(wide, t, n * cp)
                    v = wide
                m = n
                while m > 1:  # fold the rows in halves: log2(n) instructions
                    h = m // 2
                    comb(v, v, v[(m - h) * cp], h * cp)
                    m -= h
                if l0 == ra:
                    asc.data_copy(accv, v, cp)
                else:
                    comb(accv, accv, v, cp)
                q_in.free_tensor(t)
            if rb == ra:
                asc.duplicate(accv, 0, cp)
            if p.scale is not None:
                asc.muls(accv, accv, p.scale, cp)
            if p.clamp:
                asc.mins(accv, accv, 1, cp)
            ot = q_out.alloc_tensor(ddt)
            if ddt != acc:
                convert(ot, accv, cp)
            else:
                asc.data_copy(ot, accv, cp)
            q_out.enque(ot)
            ot = q_out.deque(ddt)
            store_rows(gy[s * p.outer * inner + o * inner + i0], ot, 1, cw)
            q_out.free_tensor(ot)

    return reduce_cols


def _addr(a: Any) -> int:
    return int(getattr(a, "ptr", a))


def launch_reduce(plan: ReducePlan, stream: Any, self_addr: Any, out_addr: Any,
                  workspace_addr: Any = None) -> list[Any]:
    """Enqueue the plan's passes on ``stream``: ``self_addr`` the input, ``out_addr`` the
    output, ``workspace_addr`` at least ``plan.workspace_bytes`` bytes (when > 0).  Returns
    the launches."""
    if plan.workspace_bytes and workspace_addr is None:
        raise ValueError(f"this reduction needs a workspace of {plan.workspace_bytes} bytes")
    roles = {"self": self_addr, "out": out_addr}
    launches = []
    for p in plan.passes:
        def where(role: Role) -> int:
            return _addr(roles[role]) if isinstance(role, str) else _addr(workspace_addr) + int(role)

        launches.append(reduce_kernel(p)[p.block_dim, stream](where(p.src), where(p.dst)))
    return launches
