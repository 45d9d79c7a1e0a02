"""Reductions on the vector unit (PIPE_V, UB operands): ``reduce_*`` and ``whole_reduce_*``.

Sums accumulate as NumPy's pairwise sum does (float32 accumulators for float16 and bfloat16),
so they match the hardware to dtype precision, not bit for bit.  An index stored in a
``dst`` slot is its integer bit pattern (read it with ``reinterpret_cast(uint16/uint32)``).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any

import numpy as np

from aclsim.errors import LocalOutOfRangeError
from aclsim.isa import Access, Pipe, Space
from aclsim.kernel._core import REPEATS, Core, current
from aclsim.kernel.operands import count_view, local_operand
from aclsim.kernel.repeat import ARITH, FLOATS, UINT, Strided, check_count, check_types, repeats, selected
from aclsim.kernel.tensor import LocalTensor


class ReduceOrder(enum.IntEnum):
    ORDER_VALUE_INDEX = 0
    ORDER_INDEX_VALUE = 1
    ORDER_ONLY_VALUE = 2
    ORDER_ONLY_INDEX = 3


def _index_bits(index: int, dt: np.dtype) -> Any:
    """An element index stored in a ``dt`` slot as its integer bit pattern (Ascend's convention)."""
    return np.array([index], dtype=UINT[dt.itemsize]).view(dt)[0]


def _reduce_core(
    name: str, dst: LocalTensor, src: LocalTensor, work: LocalTensor | None, args: tuple[Any, ...]
) -> tuple[Core, np.ndarray, Access, int]:
    core = current()
    local_operand(core, dst, name, "dst")
    local_operand(core, src, name, "src")
    if work is not None:
        local_operand(core, work, name, "work")
    if dst.dtype != src.dtype:
        raise TypeError(f"{name}: dst and src must share one dtype")
    check_types(name, src.dtype, ARITH)
    if len(args) == 1:
        n = check_count(args[0], name)
        nb = n * src.dtype.itemsize
        return core, count_view(core, src, n, name, "src"), src.access(nb), repeats(core, nb)
    if len(args) != 3:
        raise TypeError(
            f"{name}(dst, src, work, count[, ...]) or {name}(dst, src, work, mask, repeat_times, "
            "src_rep_stride)"
        )
    mask, repeat, rep = args
    s = Strided(core, name, src.dtype, mask, repeat)
    span, idx, acc = s.operand(core, src, 1, rep, name)
    return core, span[idx.ravel()], acc, s.repeat


def _emit_reduce(
    core: Core, name: str, dst: LocalTensor, work: LocalTensor | None, read: Access, reps: int, nvals: int
) -> None:
    writes = [dst.access(nvals * dst.dtype.itemsize)]
    if work is not None:
        writes.append(work.access(min(work.size, 2 * reps) * work.dtype.itemsize))
    core.emit(Pipe.V, name, (read,), tuple(writes), REPEATS[reps])


def reduce_sum(dst: LocalTensor, src: LocalTensor, work: LocalTensor, *args: Any) -> None:
    """``ReduceSum(dst, src, tmp, count)`` (or ``mask, repeat_times, src_rep_stride``): ``dst[0]`` = sum."""
    core, x, acc, reps = _reduce_core("reduce_sum", dst, src, work, args)
    dst.view[0] = np.add.reduce(x, dtype=x.dtype) if x.size else 0
    _emit_reduce(core, "reduce_sum", dst, work, acc, reps, 1)


def _reduce_ext(
    name: str,
    fn: Callable[..., Any],
    arg: Callable[..., Any],
    dst: LocalTensor,
    src: LocalTensor,
    work: LocalTensor,
    args: tuple[Any, ...],
) -> None:
    cal_index = False
    if len(args) in (2, 4):
        cal_index, args = bool(args[-1]), args[:-1]
    core, x, acc, reps = _reduce_core(name, dst, src, work, args)
    if x.size == 0:
        raise ValueError(f"{name} of zero elements")
    dst.view[0] = fn(x)
    if cal_index:
        dst.view[1] = _index_bits(int(arg(x)), dst.dtype)
    _emit_reduce(core, name, dst, work, acc, reps, 2 if cal_index else 1)


def reduce_max(dst: LocalTensor, src: LocalTensor, work: LocalTensor, *args: Any) -> None:
    """``ReduceMax(dst, src, tmp, count[, calIndex])``: ``dst[0]`` = max; with ``cal_index`` ``dst[1]``
    holds the index's bits (read them with ``reinterpret_cast(uint16/uint32)``)."""
    _reduce_ext("reduce_max", np.max, np.argmax, dst, src, work, args)


def reduce_min(dst: LocalTensor, src: LocalTensor, work: LocalTensor, *args: Any) -> None:
    """``ReduceMin``: as :func:`reduce_max` with the minimum."""
    _reduce_ext("reduce_min", np.min, np.argmin, dst, src, work, args)


def _whole(
    name: str,
    dst: LocalTensor,
    src: LocalTensor,
    mask: Any,
    repeat: Any,
    dst_rep_stride: int,
    src_blk_stride: int,
    src_rep_stride: int,
) -> tuple[Core, Strided, np.ndarray, Access]:
    core = current()
    local_operand(core, dst, name, "dst")
    local_operand(core, src, name, "src")
    if dst.dtype != src.dtype:
        raise TypeError(f"{name}: dst and src must share one dtype")
    check_types(name, src.dtype, FLOATS)
    s = Strided(core, name, src.dtype, mask, repeat)
    span, idx, acc = s.operand(core, src, src_blk_stride, src_rep_stride, name)
    return core, s, span[idx], acc


def _dst_slots(core: Core, dst: LocalTensor, positions: np.ndarray, name: str) -> tuple[np.ndarray, Access]:
    span = dst.span()
    hi = int(positions.max()) + 1 if positions.size else 0
    if hi > span.size:
        core.fault(LocalOutOfRangeError, f"{name}: results reach element {hi - 1}, past dst's buffer")
    return span, core.access(Space.UB, dst.offset, hi * dst.dtype.itemsize)


def whole_reduce_sum(
    dst: LocalTensor,
    src: LocalTensor,
    mask: Any,
    repeat_times: int,
    dst_rep_stride: int,
    src_blk_stride: int,
    src_rep_stride: int,
) -> None:
    """``WholeReduceSum``: the sum of each repeat's selected elements to ``dst[r * dst_rep_stride]``."""
    core, s, x, acc = _whole(
        "whole_reduce_sum", dst, src, mask, repeat_times, dst_rep_stride, src_blk_stride, src_rep_stride
    )
    pos = np.arange(s.repeat) * int(dst_rep_stride)
    span, wa = _dst_slots(core, dst, pos, "whole_reduce_sum")
    span[pos] = np.add.reduce(x, axis=1, dtype=x.dtype) if x.size else 0
    core.emit(Pipe.V, "whole_reduce_sum", (acc,), (wa,), REPEATS[s.repeat])


def _whole_ext(
    name: str,
    fn: Callable[..., Any],
    arg: Callable[..., Any],
    dst: LocalTensor,
    src: LocalTensor,
    mask: Any,
    repeat: int,
    dst_rep_stride: int,
    src_blk_stride: int,
    src_rep_stride: int,
    order: ReduceOrder,
) -> None:
    core, s, x, acc = _whole(name, dst, src, mask, repeat, dst_rep_stride, src_blk_stride, src_rep_stride)
    order = ReduceOrder(order)
    sel = selected(s.key, s.per_rep)
    values = fn(x, axis=1) if x.size else np.zeros(0, x.dtype)
    index = sel[arg(x, axis=1)] if x.size else np.zeros(0, np.int64)
    ibits = index.astype(UINT[dst.dtype.itemsize]).view(dst.dtype)
    pair = order in (ReduceOrder.ORDER_VALUE_INDEX, ReduceOrder.ORDER_INDEX_VALUE)
    base = np.arange(s.repeat) * int(dst_rep_stride) * (2 if pair else 1)
    span, wa = _dst_slots(core, dst, base + (1 if pair else 0), name)
    if order is ReduceOrder.ORDER_VALUE_INDEX:
        span[base], span[base + 1] = values, ibits
    elif order is ReduceOrder.ORDER_INDEX_VALUE:
        span[base], span[base + 1] = ibits, values
    elif order is ReduceOrder.ORDER_ONLY_VALUE:
        span[base] = values
    else:
        span[base] = ibits
    core.emit(Pipe.V, name, (acc,), (wa,), REPEATS[s.repeat])


def whole_reduce_max(
    dst: LocalTensor,
    src: LocalTensor,
    mask: Any,
    repeat_times: int,
    dst_rep_stride: int,
    src_blk_stride: int,
    src_rep_stride: int,
    order: ReduceOrder = ReduceOrder.ORDER_VALUE_INDEX,
) -> None:
    """``WholeReduceMax``: per repeat the maximum and its position in the repeat, stored as ``order`` says
    (a (value, index) pair per repeat, ``dst_rep_stride`` counted in pairs; index as integer bits)."""
    _whole_ext(
        "whole_reduce_max",
        np.max,
        np.argmax,
        dst,
        src,
        mask,
        repeat_times,
        dst_rep_stride,
        src_blk_stride,
        src_rep_stride,
        order,
    )


def whole_reduce_min(
    dst: LocalTensor,
    src: LocalTensor,
    mask: Any,
    repeat_times: int,
    dst_rep_stride: int,
    src_blk_stride: int,
    src_rep_stride: int,
    order: ReduceOrder = ReduceOrder.ORDER_VALUE_INDEX,
) -> None:
    """``WholeReduceMin``: as :func:`whole_reduce_max` with the minimum."""
    _whole_ext(
        "whole_reduce_min",
        np.min,
        np.argmin,
        dst,
        src,
        mask,
        repeat_times,
        dst_rep_stride,
        src_blk_stride,
        src_rep_stride,
        order,
    )
