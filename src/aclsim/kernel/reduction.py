"""Reductions on the vector unit (PIPE_V, UB operands): ``reduce_*``, ``whole_reduce_*``,
``repeat_reduce_sum``, ``block_reduce_*`` and ``pair_reduce_sum``.

``reduce_sum`` accumulates as NumPy's pairwise sum does (float32 accumulators for float16 and
bfloat16), so it matches the hardware to dtype precision, not bit for bit.  The per-repeat
sums (``whole_reduce_sum``, ``repeat_reduce_sum``, ``block_reduce_sum``, ``pair_reduce_sum``)
add as the documentation describes, a binary tree in the operands' dtype (lanes the mask
leaves out count as 0), a half sum that overflows saturating at +-65504; they are exact.
An index stored in a ``dst`` slot is its integer bit pattern (read it with
``reinterpret_cast(uint16/uint32)``).

Result alignment in UB, as each instruction's page says (the source stays 32 B aligned):
``reduce_sum``, ``whole_reduce_sum``, ``repeat_reduce_sum`` sizeof(T); ``reduce_max/min``,
``whole_reduce_max/min`` 2 * sizeof(T) (a value/index pair); ``block_reduce_*`` 8 *
sizeof(T) (16 B half, 32 B float); ``pair_reduce_sum`` 32 B.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any

import numpy as np

from aclsim.errors import LocalOutOfRangeError
from aclsim.isa import Access, Pipe, Space
from aclsim.kernel._core import REPEATS, Core, current, float16, float32
from aclsim.kernel.accval import set_acc_val
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
    name: str, dst: LocalTensor, src: LocalTensor, work: LocalTensor | None, args: tuple[Any, ...],
    dst_align: int, is_set_mask: bool | None = None,
) -> tuple[Core, np.ndarray, Access, int]:
    core = current()
    local_operand(core, dst, name, "dst", align=dst_align)
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
    s = Strided(core, name, src.dtype, mask, repeat, is_set_mask)
    span, idx, acc = s.operand(core, src, 1, rep, name)
    return core, span[idx.ravel()], acc, s.repeat


def _emit_reduce(
    core: Core, name: str, dst: LocalTensor, work: LocalTensor | None, read: Access, reps: int, nvals: int
) -> None:
    writes = [dst.access(nvals * dst.dtype.itemsize)]
    if work is not None:
        writes.append(work.access(min(work.size, 2 * reps) * work.dtype.itemsize))
    core.emit(Pipe.V, name, (read,), tuple(writes), REPEATS[reps])


def reduce_sum(dst: LocalTensor, src: LocalTensor, work: LocalTensor, *args: Any,
               is_set_mask: bool | None = None) -> None:
    """``ReduceSum(dst, src, tmp, count)`` (or ``mask, repeat_times, src_rep_stride``): ``dst[0]`` = sum."""
    core, x, acc, reps = _reduce_core("reduce_sum", dst, src, work, args, src.dtype.itemsize, is_set_mask)
    dst.view[0] = np.add.reduce(x, dtype=x.dtype) if x.size else 0
    set_acc_val(core, dst, counted=len(args) == 1)  # the count form loads ACC_VAL (GetAccVal)
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
    core, x, acc, reps = _reduce_core(name, dst, src, work, args, 2 * src.dtype.itemsize)
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


def tree_sum(x: np.ndarray) -> np.ndarray:
    """The binary-tree sum along the last axis (a power of two long) in ``x``'s dtype: pairs,
    then pairs of pairs, as the reduce instructions add; a half sum of finite operands that
    overflows saturates at +-65504, as their documentation says."""
    half = x.dtype == float16
    while x.shape[-1] > 1:
        a, b = x[..., 0::2], x[..., 1::2]
        y = a + b
        if half:
            over = np.isinf(y)
            if over.any():
                over &= np.isfinite(a) & np.isfinite(b)
                y[over] = np.copysign(np.float16(_HALF_MAX), y[over])
        x = y
    return x[..., 0]


_HALF_MAX = 65504.0
#: Each per-repeat reduction's source and result dtypes (the 910B pages list half and float).
HALF_FLOAT = (float16, float32)


def _source(
    name: str, dst: LocalTensor, src: LocalTensor, mask: Any, repeat: Any, src_blk_stride: int,
    src_rep_stride: int, dst_align: int, allowed: tuple[np.dtype, ...], is_set_mask: bool | None,
) -> tuple[Core, Strided, np.ndarray, np.ndarray, Access]:
    """The checked operands of a per-repeat reduction: (core, strides, span, index, read range)."""
    core = current()
    local_operand(core, dst, name, "dst", align=dst_align)
    local_operand(core, src, name, "src")
    if dst.dtype != src.dtype:
        raise TypeError(f"{name}: dst and src must share one dtype, got {dst.dtype}, {src.dtype}")
    check_types(name, src.dtype, allowed)
    s = Strided(core, name, src.dtype, mask, repeat, is_set_mask)
    span, idx, acc = s.operand(core, src, src_blk_stride, src_rep_stride, name)
    return core, s, span, idx, acc


def _dense(s: Strided, span: np.ndarray, idx: np.ndarray, fill: Any) -> np.ndarray:
    """``(repeat, per_rep)`` lanes of the run: the selected elements in place, ``fill`` in the lanes
    the mask (or, in counter mode, the count) leaves out."""
    if s.count is None and idx.shape[-1] == s.per_rep:  # every lane selected (the common case)
        return span[idx]
    rows = np.full((s.repeat, s.per_rep), fill, span.dtype)
    if s.count is not None:
        rows.reshape(-1)[: s.count] = span[idx]
    else:
        rows[:, selected(s.key, s.per_rep)] = span[idx]
    return rows


def _valid(s: Strided) -> np.ndarray:
    """Which lanes of the ``(repeat, per_rep)`` run are selected."""
    valid = np.zeros((s.repeat, s.per_rep), bool)
    if s.count is not None:
        valid.reshape(-1)[: s.count] = True
    else:
        valid[:, selected(s.key, s.per_rep)] = True
    return valid


def _write(core: Core, name: str, dst: LocalTensor, positions: np.ndarray, values: np.ndarray,
           bounds: tuple[int, int] | None = None) -> Access:
    """Store ``values`` at the element ``positions`` of ``dst`` (inside its buffer; ``bounds`` their
    lowest and one past their highest, when known); the range written."""
    span = dst.span()
    if positions.size == 0:
        return core.access(Space.UB, dst.offset, 0)
    lo, hi = bounds if bounds is not None else (int(positions.min()), int(positions.max()) + 1)
    if hi > span.size:
        core.fault(LocalOutOfRangeError, f"{name}: results reach element {hi - 1}, past dst's buffer "
                   f"({span.size} elements)")
    span[positions] = values
    isz = dst.dtype.itemsize
    return core.access(Space.UB, dst.offset + lo * isz, (hi - lo) * isz)


def _repeat_sum(name: str, dst: LocalTensor, src: LocalTensor, mask: Any, repeat: Any, dst_rep_stride: int,
                src_blk_stride: int, src_rep_stride: int, is_set_mask: bool | None) -> None:
    core, s, span, idx, acc = _source(name, dst, src, mask, repeat, src_blk_stride, src_rep_stride,
                                      src.dtype.itemsize, FLOATS, is_set_mask)
    if s.nop:
        core.emit(Pipe.V, name, (), (), REPEATS[s.repeat])
        return
    rows = _dense(s, span, idx, 0)
    stride = int(dst_rep_stride)
    ends = (min(0, (s.repeat - 1) * stride), max(0, (s.repeat - 1) * stride) + 1)
    wa = _write(core, name, dst, np.arange(s.repeat) * stride, tree_sum(rows), ends)
    core.emit(Pipe.V, name, (acc,), (wa,), REPEATS[s.repeat])


def whole_reduce_sum(
    dst: LocalTensor,
    src: LocalTensor,
    mask: Any,
    repeat_times: int,
    dst_rep_stride: int,
    src_blk_stride: int,
    src_rep_stride: int,
    *,
    is_set_mask: bool | None = None,
) -> None:
    """``WholeReduceSum``: the sum of each repeat's selected elements to ``dst[r * dst_rep_stride]``
    (``dst`` needs only sizeof(T) alignment)."""
    _repeat_sum("whole_reduce_sum", dst, src, mask, repeat_times, dst_rep_stride, src_blk_stride,
                src_rep_stride, is_set_mask)


def repeat_reduce_sum(
    dst: LocalTensor,
    src: LocalTensor,
    repeat_times: int,
    mask: Any,
    dst_blk_stride: int,
    src_blk_stride: int,
    dst_rep_stride: int,
    src_rep_stride: int,
    *,
    is_set_mask: bool | None = None,
) -> None:
    """``RepeatReduceSum(dst, src, repeatTime, mask, dstBlkStride, srcBlkStride, dstRepStride,
    srcRepStride)``: :func:`whole_reduce_sum` with a continuous mask only (``dst_blk_stride`` is
    unused, as documented)."""
    if not isinstance(mask, (int, np.integer)):
        raise TypeError("repeat_reduce_sum: mask is a count (the continuous mode); use whole_reduce_sum "
                        "for a bit mask")
    _repeat_sum("repeat_reduce_sum", dst, src, mask, repeat_times, dst_rep_stride, src_blk_stride,
                src_rep_stride, is_set_mask)


def _whole_ext(
    name: str,
    fn: Callable[..., Any],
    arg: Callable[..., Any],
    fill: float,
    dst: LocalTensor,
    src: LocalTensor,
    mask: Any,
    repeat: int,
    dst_rep_stride: int,
    src_blk_stride: int,
    src_rep_stride: int,
    order: ReduceOrder,
    is_set_mask: bool | None,
) -> None:
    order = ReduceOrder(order)
    core, s, span, idx, acc = _source(name, dst, src, mask, repeat, src_blk_stride, src_rep_stride,
                                      2 * src.dtype.itemsize, FLOATS, is_set_mask)
    if s.nop:
        core.emit(Pipe.V, name, (), (), REPEATS[s.repeat])
        return
    rows = _dense(s, span, idx, fill)
    values = fn(rows, axis=1)
    ibits = arg(rows, axis=1).astype(UINT[dst.dtype.itemsize]).view(dst.dtype)
    pair = order in (ReduceOrder.ORDER_VALUE_INDEX, ReduceOrder.ORDER_INDEX_VALUE)
    base = np.arange(s.repeat) * int(dst_rep_stride) * (2 if pair else 1)
    if order is ReduceOrder.ORDER_VALUE_INDEX:
        positions, out = np.stack([base, base + 1], 1), np.stack([values, ibits], 1)
    elif order is ReduceOrder.ORDER_INDEX_VALUE:
        positions, out = np.stack([base, base + 1], 1), np.stack([ibits, values], 1)
    else:
        positions, out = base, values if order is ReduceOrder.ORDER_ONLY_VALUE else ibits
    wa = _write(core, name, dst, positions.ravel(), out.ravel())
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
    *,
    is_set_mask: bool | None = None,
) -> None:
    """``WholeReduceMax``: per repeat the maximum and its position in the repeat, stored as ``order`` says
    (a (value, index) pair per repeat, ``dst_rep_stride`` counted in pairs; index as integer bits;
    ``dst`` needs 2 * sizeof(T) alignment)."""
    _whole_ext("whole_reduce_max", np.max, np.argmax, -np.inf, dst, src, mask, repeat_times, dst_rep_stride,
               src_blk_stride, src_rep_stride, order, is_set_mask)


def whole_reduce_min(
    dst: LocalTensor,
    src: LocalTensor,
    mask: Any,
    repeat_times: int,
    dst_rep_stride: int,
    src_blk_stride: int,
    src_rep_stride: int,
    order: ReduceOrder = ReduceOrder.ORDER_VALUE_INDEX,
    *,
    is_set_mask: bool | None = None,
) -> None:
    """``WholeReduceMin``: as :func:`whole_reduce_max` with the minimum."""
    _whole_ext("whole_reduce_min", np.min, np.argmin, np.inf, dst, src, mask, repeat_times, dst_rep_stride,
               src_blk_stride, src_rep_stride, order, is_set_mask)


def _block_reduce(name: str, kind: str, dst: LocalTensor, src: LocalTensor, repeat: Any, mask: Any,
                  dst_rep_stride: int, src_blk_stride: int, src_rep_stride: int,
                  is_set_mask: bool | None) -> None:
    isz = src.dtype.itemsize
    core, s, span, idx, acc = _source(name, dst, src, mask, repeat, src_blk_stride, src_rep_stride, 8 * isz,
                                      HALF_FLOAT, is_set_mask)
    fill = {"sum": 0, "max": -np.inf, "min": np.inf}[kind]
    rows, valid = _dense(s, span, idx, fill), _valid(s)
    blocks = rows.reshape(s.repeat, 8, 32 // isz)
    if kind == "sum":
        values = tree_sum(blocks)
    else:
        values = blocks.max(2) if kind == "max" else blocks.min(2)
    has = valid.reshape(s.repeat, 8, 32 // isz).any(2)  # blocks with no selected lane are not written
    positions = np.arange(s.repeat)[:, None] * (8 * int(dst_rep_stride)) + np.arange(8)[None, :]
    wa = _write(core, name, dst, positions[has], values[has])
    core.emit(Pipe.V, name, (acc,) if has.any() else (), (wa,) if has.any() else (), REPEATS[s.repeat])


def block_reduce_sum(dst: LocalTensor, src: LocalTensor, repeat_times: int, mask: Any, dst_rep_stride: int,
                     src_blk_stride: int, src_rep_stride: int, *, is_set_mask: bool | None = None) -> None:
    """``BlockReduceSum(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride)``: the sum of
    each 32 B block's selected elements, 8 results per repeat at ``dst[r * 8 * dst_rep_stride + b]``
    (``dst_rep_stride`` in units of 8 elements; ``dst`` 16 B aligned for half, 32 B for float)."""
    _block_reduce("block_reduce_sum", "sum", dst, src, repeat_times, mask, dst_rep_stride, src_blk_stride,
                  src_rep_stride, is_set_mask)


def block_reduce_max(dst: LocalTensor, src: LocalTensor, repeat_times: int, mask: Any, dst_rep_stride: int,
                     src_blk_stride: int, src_rep_stride: int, *, is_set_mask: bool | None = None) -> None:
    """``BlockReduceMax``: as :func:`block_reduce_sum` with each block's maximum."""
    _block_reduce("block_reduce_max", "max", dst, src, repeat_times, mask, dst_rep_stride, src_blk_stride,
                  src_rep_stride, is_set_mask)


def block_reduce_min(dst: LocalTensor, src: LocalTensor, repeat_times: int, mask: Any, dst_rep_stride: int,
                     src_blk_stride: int, src_rep_stride: int, *, is_set_mask: bool | None = None) -> None:
    """``BlockReduceMin``: as :func:`block_reduce_sum` with each block's minimum."""
    _block_reduce("block_reduce_min", "min", dst, src, repeat_times, mask, dst_rep_stride, src_blk_stride,
                  src_rep_stride, is_set_mask)


def pair_reduce_sum(dst: LocalTensor, src: LocalTensor, repeat_times: int, mask: Any, dst_rep_stride: int,
                    src_blk_stride: int, src_rep_stride: int, *, is_set_mask: bool | None = None) -> None:
    """``PairReduceSum(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride)``: the sums of
    adjacent (even, odd) elements, half a repeat of results per repeat at ``dst[r * PAR/2 *
    dst_rep_stride + j]`` (``dst_rep_stride`` in units of 128 B; ``dst`` 32 B aligned)."""
    name = "pair_reduce_sum"
    core, s, span, idx, acc = _source(name, dst, src, mask, repeat_times, src_blk_stride, src_rep_stride, 32,
                                      HALF_FLOAT, is_set_mask)
    rows, valid = _dense(s, span, idx, 0), _valid(s)
    half = s.per_rep // 2
    values = tree_sum(rows.reshape(s.repeat, half, 2))
    has = valid.reshape(s.repeat, half, 2).any(2)  # pairs with no selected lane are not written
    positions = np.arange(s.repeat)[:, None] * (half * int(dst_rep_stride)) + np.arange(half)[None, :]
    wa = _write(core, name, dst, positions[has], values[has])
    core.emit(Pipe.V, name, (acc,) if has.any() else (), (wa,) if has.any() else (), REPEATS[s.repeat])
