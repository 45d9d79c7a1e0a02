"""More vector instructions real kernels call (PIPE_V, UB operands): ``Axpy``, ``CreateVecIndex``,
``ArithProgression`` (``Arange``), ``Compares``, and ``ReduceRepeat`` / ``ReduceDataBlock`` /
``ReducePairElem`` with their ``ReduceType``.

- ``axpy``: ``dst = scalar * src + dst``, in half, float, or half source into a float
  destination (64 lanes a repeat, the source's repeat stride then counted in half blocks).
  The product and sum are computed in float64 and rounded once to the destination type (a
  fused multiply-add; the pages do not say whether the device rounds the product first).
  [ATT] fits no Axpy row: it is timed by the default vector rule (22 cycles + 1 a repeat).
- ``create_vec_index`` and ``arith_progression`` compute what the device library does, bit for
  bit: the first 32 B block (or the bit-mask form's first repeat) from scalars, then each block
  and each repeat as the one before plus a step, added in the tensor's type (so a half index
  past 2048 rounds as on the device).  Each is recorded as one vector instruction over what it
  writes, its repeats the one-repeat ``Adds`` the library issues (timed with the default vector
  rule, one issue head: no fitted row for them in [ATT]); the scalar seed and the library's
  internal S->V flag are not recorded separately.  (``create_vec_index`` with a continuous mask
  under one block, 16 half or 8 float lanes: the library's tail ``Adds`` then reads before
  ``dst``; aclsim writes the scalar-made lanes only.)  They leave the mask register as the
  library's last ``Adds``/``SetVectorMask`` does; ``arith_progression`` writes up to the next
  32 B boundary past ``count`` when ``count`` exceeds one block, as the library does.
- ``compares`` is ``CompareScalar`` under its newer name with the documented Atlas A2/A3 and
  inference-chip behaviour: the count form compares whole 256 B repeats only (the elements of a
  partial last repeat are not compared: their bits keep their value); the mask argument is
  reserved there (every lane of each repeat is compared; the mask register is not touched);
  half and float in every mode, int32 with ``EQ`` only (arch 2201).  Timed by [ATT]'s fitted
  CompareScalar rows (the ``compares`` row of the A2 presets).
- ``reduce_repeat`` / ``reduce_data_block`` are ``WholeReduceSum/Max/Min`` and
  ``BlockReduceSum/Max/Min`` under the newer names with a ``reduce_type``; ``reduce_repeat``'s
  ``ORDER_ONLY_INDEX`` stores each index as a uint32 (4 B slots, ``dst_rep_stride`` in 4 B), as
  its page shows.
"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from aclsim.errors import ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, KernelFault, LocalOutOfRangeError
from aclsim.isa import Access, Pipe, Space
from aclsim.kernel._core import REPEATS, WIDE_REPEATS, Core, current, float16, float32, int16, int32, uint32
from aclsim.kernel.comparison import CMPMODE
from aclsim.kernel.mask import FULL64, MASK_PLACEHOLDER, RESET, encode, encode_len
from aclsim.kernel.operands import count_view, local_bytes, local_operand
from aclsim.kernel.reduction import (
    ReduceOrder,
    block_reduce_max,
    block_reduce_min,
    block_reduce_sum,
    pair_reduce_sum,
    whole_reduce_max,
    whole_reduce_min,
    whole_reduce_sum,
)
from aclsim.kernel.repeat import (
    Strided,
    UnaryRepeatParams,
    check_count,
    check_types,
    rep_index,
    repeats,
    selected,
)
from aclsim.kernel.saturation import half_intermediate, saturate
from aclsim.kernel.tensor import LocalTensor

#: ``CreateVecIndex`` / ``ArithProgression`` types on Atlas A2/A3 and the inference chips.
INDEX_TYPES = (int16, float16, int32, float32)


class ReduceType(enum.IntEnum):
    """``ReduceType``: the reduction of ``ReduceRepeat`` / ``ReduceDataBlock`` (and high-level APIs)."""

    NONE = -1
    SUM = 0
    MAX = 1
    MIN = 2


# --- Axpy ------------------------------------------------------------------------------------------


def _fma(core: Core, dst: np.ndarray, src: np.ndarray, s: float) -> np.ndarray:
    product = src.astype(np.float64) * s
    if dst.dtype == float16:  # the saturation mode clamps the half product, then the result
        product = half_intermediate(core, product)
    return saturate(core, (dst.astype(np.float64) + product).astype(dst.dtype))


def axpy(dst: LocalTensor, src: LocalTensor, scalar: Any, *args: Any,
         is_set_mask: bool | None = None) -> None:
    """``Axpy(dst, src, scalar, count)`` or ``Axpy(dst, src, scalar, mask, repeat_times,
    UnaryRepeatParams)``: ``dst = scalar * src + dst`` (half, float, or half ``src`` into float
    ``dst``; the scalar in ``src``'s type)."""
    core = current()
    name = "axpy"
    local_operand(core, dst, name, "dst")
    local_operand(core, src, name, "src")
    pair = (src.dtype, dst.dtype)
    if pair not in ((float16, float16), (float32, float32), (float16, float32)):
        raise TypeError(f"axpy takes half -> half, float -> float or half -> float, got {src.dtype} -> "
                        f"{dst.dtype}")
    s = float(src.dtype.type(scalar))
    mixed = src.dtype != dst.dtype
    if len(args) == 1 and is_set_mask is False:  # one repeat from the mask register
        args = (MASK_PLACEHOLDER, 1, UnaryRepeatParams())
    elif len(args) == 1:
        n = check_count(args[0], name)
        d = count_view(core, dst, n, name, "dst")
        x = count_view(core, src, n, name, "src")
        if mixed:
            _no_overlap(core, name, dst, n * 4, src, n * 2)
        d[...] = _fma(core, d, x, s)
        nb = n * dst.dtype.itemsize
        core.emit(Pipe.V, name, (src.access(n * src.dtype.itemsize), dst.access(nb)), (dst.access(nb),),
                  WIDE_REPEATS[(repeats(core, nb), dst.dtype.itemsize)])
        core.vmask = RESET
        return
    if len(args) != 3 or not isinstance(args[2], UnaryRepeatParams):
        raise TypeError("axpy(dst, src, scalar, count) or axpy(dst, src, scalar, mask, repeat_times, "
                        "UnaryRepeatParams)")
    mask, repeat, p = args
    st = Strided(core, name, dst.dtype, mask, repeat, is_set_mask)  # float dst: 64 lanes a repeat
    ds, di, da = st.operand(core, dst, p.dst_blk_stride, p.dst_rep_stride, name)
    ss, si, sa = st.operand(core, src, p.src_blk_stride, p.src_rep_stride, name)
    if mixed and da.length and sa.length:
        _no_overlap(core, name, dst, 0, src, 0, da, sa)
    ds[di] = _fma(core, ds[di], ss[si], s)
    core.emit(Pipe.V, name, (sa, da), (da,), WIDE_REPEATS[(st.repeat, dst.dtype.itemsize)])


def _no_overlap(core: Core, name: str, dst: LocalTensor, dn: int, src: LocalTensor, sn: int,
                da: Access | None = None, sa: Access | None = None) -> None:
    d0, d1 = (dst.offset, dst.offset + dn) if da is None else (da.offset, da.offset + da.length)
    s0, s1 = (src.offset, src.offset + sn) if sa is None else (sa.offset, sa.offset + sa.length)
    if d0 < s1 and s0 < d1:
        core.fault(KernelFault, f"{name}: half src UB[{s0}:{s1}] overlaps float dst UB[{d0}:{d1}]; a half -> "
                   "float axpy takes no overlapping operands", code=ACL_ERROR_RT_VECTOR_CORE_EXCEPTION,
                   hint="give dst and src separate buffers")


# --- CreateVecIndex, ArithProgression ----------------------------------------------------------------


def _typed(values: np.ndarray, dt: np.dtype) -> np.ndarray:
    """Exact values (int64 or float64) in ``dt``: integers wrap to the type's bits, floats round
    once (through float32, as the library's scalar code computes)."""
    if dt.kind == "f":
        return values.astype(np.float32).astype(dt)
    return values.astype(np.int64).astype(dt)


def _c_value(dt: np.dtype, v: Any) -> Any:
    """``v`` as a ``T`` argument of the C++ API: integers wrap to the type's bits, floats round."""
    if dt.kind in "iu":
        return np.array(int(v)).astype(np.int64).astype(dt)[()]
    return dt.type(v)


def _step(x: np.ndarray, step: Any) -> np.ndarray:
    """One ``Adds``: ``x + step`` in ``x``'s type (integer wrap, float rounding; a half result
    saturates in the float saturation mode, as every ``Adds`` does)."""
    with np.errstate(over="ignore"):
        return saturate(current(), x + x.dtype.type(step))


def _index_check(name: str, dst: LocalTensor) -> tuple[Core, np.dtype, int, int]:
    core = current()
    local_operand(core, dst, name, "dst")
    dt = dst.dtype
    check_types(name, dt, INDEX_TYPES)
    epb = 32 // dt.itemsize
    return core, dt, epb, core.chip.vector_repeat_bytes // dt.itemsize


def _chain(first: np.ndarray, n: int, block: int, per_rep: int, blk_step: Any, rep_step: Any) -> np.ndarray:
    """Positions ``0..n-1`` of a run built as the library builds it: ``first`` (the scalar-written
    start, ``block`` elements or a whole repeat), then each block the one before plus ``blk_step``
    within a repeat, then each repeat the one before plus ``rep_step``."""
    rep = np.zeros(per_rep, first.dtype)
    rep[: first.size] = first
    for b in range(max(1, first.size // block), per_rep // block):
        rep[b * block:(b + 1) * block] = _step(rep[(b - 1) * block: b * block], blk_step)
    reps = [rep]
    for _ in range(1, -(-n // per_rep)):
        reps.append(_step(reps[-1], rep_step))
    return np.concatenate(reps)[:n]


def _put(core: Core, name: str, dst: LocalTensor, idx: np.ndarray, values: np.ndarray) -> Access:
    span = dst.span()
    if idx.size == 0:
        return core.access(Space.UB, dst.offset, 0)
    lo, hi = int(idx.min()), int(idx.max()) + 1
    if hi > span.size:
        core.fault(LocalOutOfRangeError, f"{name}: the results reach element {hi - 1}, past dst's buffer "
                   f"({span.size} elements)")
    span[idx] = values
    isz = dst.dtype.itemsize
    return core.access(Space.UB, dst.offset + lo * isz, (hi - lo) * isz)


def create_vec_index(dst: LocalTensor, first_value: Any, *args: Any) -> None:
    """``CreateVecIndex(dst, firstValue, count)`` or ``CreateVecIndex(dst, firstValue, mask,
    repeat_times, dst_blk_stride, dst_rep_stride)``: ``dst[i] = firstValue + i`` over the run
    (int16, half, int32, float; in the mask form element ``j`` of repeat ``r`` is
    ``firstValue + r * PAR + j``, placed by the strides; lanes the mask leaves out keep their
    value)."""
    name = "create_vec_index"
    core, dt, epb, per_rep = _index_check(name, dst)
    if dt.kind == "f":  # the library adds in float, then rounds to T
        seed = _typed(np.arange(per_rep, dtype=np.float64) + np.float32(dt.type(first_value)), dt)
    else:
        info = np.iinfo(dt)
        if not info.min <= int(first_value) <= info.max:
            raise ValueError(f"{name}: first_value {int(first_value)} is outside {dt}'s range, as the page "
                             "forbids")
        seed = _typed(np.arange(per_rep, dtype=np.int64) + int(first_value), dt)
    if len(args) == 1:
        n = check_count(args[0], name)
        if n == 0:
            return
        values = _chain(seed[: min(n, epb)], n, epb, per_rep, epb, per_rep)
        count_view(core, dst, n, name, "dst")[...] = values
        adds = 0
        if n > epb:  # blocks, then repeats, each an Adds of the count form (which resets the mask)
            adds = per_rep // epb - 1 if n >= per_rep else n // epb - 1 + (n % epb > 0)
            adds += n // per_rep - 1 + (n % per_rep > 0) if n > per_rep else 0
            core.vmask = RESET
        core.emit(Pipe.V, name, (), (dst.access(n * dt.itemsize),), WIDE_REPEATS[(1 + adds, dt.itemsize)])
        return
    if len(args) != 4:
        raise TypeError("create_vec_index(dst, first_value, count) or create_vec_index(dst, first_value, "
                        "mask, repeat_times, dst_blk_stride, dst_rep_stride)")
    mask, repeat, blk, rep = args
    rep_n = int(repeat)
    if not 0 <= rep_n <= core.chip.max_repeat:
        raise ValueError(f"{name}: repeat_times must be in 0..{core.chip.max_repeat}, got {rep_n}")
    if isinstance(mask, (int, np.integer)) and not 0 <= int(mask) <= per_rep:
        raise ValueError(f"{name}: a continuous mask of {dt} takes 0..{per_rep} lanes, got {int(mask)} (the "
                         "library would build blocks past the repeat)")
    try:
        reg = encode(mask, per_rep)
    except ValueError as e:
        raise ValueError(f"{name}: {e}") from None
    bits = reg & ((1 << per_rep) - 1)
    if rep_n == 0 or bits == 0:
        return
    sel = np.flatnonzero([(bits >> i) & 1 for i in range(per_rep)])
    last = reg if rep_n > 1 else None  # the register the library's last Adds leaves
    if isinstance(mask, (int, np.integer)):  # a block from scalars, then blocks by Adds
        m = len(sel)
        run = _chain(seed[: min(m, epb)], per_rep * rep_n, epb, per_rep, epb, per_rep)
        adds = max(0, m // epb - 1) + (m % epb > 0 and m > epb) + rep_n - 1
        if last is None and m > epb:
            last = encode_len(m % epb or epb, per_rep)
    else:  # the first repeat's selected lanes from scalars, then repeats by Adds
        run = _chain(seed, per_rep * rep_n, per_rep, per_rep, 0, per_rep)
        adds = rep_n - 1
    values = run.reshape(rep_n, per_rep)[:, sel]
    idx = rep_index(dt.itemsize, (-1, bits & FULL64, bits >> 64), rep_n, int(blk), int(rep))
    wa = _put(core, name, dst, idx, values)
    core.emit(Pipe.V, name, (), (wa,), WIDE_REPEATS[(1 + adds, dt.itemsize)])
    if last is not None:
        core.vmask = (core.vmask[0], last)


def arith_progression(dst: LocalTensor, first_value: Any, diff_value: Any, count: int) -> None:
    """``ArithProgression(dst, firstValue, diffValue, count)`` (``Arange``): ``dst[i] = firstValue + i *
    diffValue`` for ``i < count`` (int16, half, int32, float), built as the library builds it."""
    name = "arith_progression"
    core, dt, epb, per_rep = _index_check(name, dst)
    n = int(count)
    if n <= 0:
        raise ValueError(f"{name}: count must be > 0, got {n}")
    if dt.kind == "f":
        f, d = np.float32(dt.type(first_value)), np.float32(dt.type(diff_value))
        seed = (f + d * np.arange(epb, dtype=np.float32)).astype(dt)
        blk_step, rep_step = dt.type(d * np.float32(epb)), dt.type(d * np.float32(per_rep))
    else:
        f_i, d_i = int(_c_value(dt, first_value)), int(_c_value(dt, diff_value))
        seed = _typed(f_i + d_i * np.arange(epb, dtype=np.int64), dt)
        blk_step, rep_step = _typed(np.array([d_i * epb]), dt)[0], _typed(np.array([d_i * per_rep]), dt)[0]
    if n <= epb:
        count_view(core, dst, n, name, "dst")[...] = seed[:n]
        core.emit(Pipe.V, name, (), (dst.access(n * dt.itemsize),), WIDE_REPEATS[(1, dt.itemsize)])
        return
    written = -(-n // epb) * epb if n <= per_rep else n // per_rep * per_rep + -(-(n % per_rep) // epb) * epb
    values = _chain(seed, written, epb, per_rep, blk_step, rep_step)
    count_view(core, dst, written, name, "dst")[...] = values
    if n <= per_rep:
        adds = written // epb - 1
        core.vmask = (core.vmask[0], (1 << epb) - 1)
    else:
        adds = per_rep // epb - 1 + n // per_rep - 1 + (n % per_rep > 0)
        tail = written - n // per_rep * per_rep
        core.vmask = (core.vmask[0], encode_len(tail, per_rep) if tail else RESET[1])
    core.emit(Pipe.V, name, (), (dst.access(written * dt.itemsize),), WIDE_REPEATS[(1 + adds, dt.itemsize)])


arange = arith_progression


# --- Compares --------------------------------------------------------------------------------------

_CMP = {CMPMODE.LT: np.less, CMPMODE.GT: np.greater, CMPMODE.EQ: np.equal, CMPMODE.LE: np.less_equal,
        CMPMODE.GE: np.greater_equal, CMPMODE.NE: np.not_equal}
#: Compares' types per arch: (every mode, EQ only).
_COMPARES_TYPES = {"2201": ((float16, float32), (int32,)), "2002": ((float16, float32), ())}


def compares(dst: LocalTensor, src: LocalTensor, scalar: Any, cmp_mode: CMPMODE, *args: Any,
             is_set_mask: bool | None = None) -> None:
    """``Compares(dst, src0, scalar, cmpMode, count)`` or ``Compares(dst, src0, scalar, cmpMode, mask,
    repeat_times, UnaryRepeatParams)``: bit ``i`` of ``dst`` (uint8, LSB first) is ``src0[i] op scalar``.
    The count form compares whole 256 B repeats only; the mask is reserved (every lane compared)."""
    core = current()
    name = "compares"
    local_operand(core, dst, name, "dst")
    local_operand(core, src, name, "src")
    mode = CMPMODE(cmp_mode)
    every, eq_only = _COMPARES_TYPES.get(core.chip.arch_version, _COMPARES_TYPES["2201"])
    dt = src.dtype
    if dt not in every and not (dt in eq_only and mode is CMPMODE.EQ):
        extra = f"; {', '.join(map(str, eq_only))} with EQ only" if eq_only else ""
        raise TypeError(f"compares does not support {dt} with {mode.name} on {core.chip.name}; it takes "
                        f"{', '.join(map(str, every))} in every mode{extra}")
    op = _CMP[mode]
    v = _c_value(dt, scalar)
    per_rep = core.chip.vector_repeat_bytes // dt.itemsize
    if len(args) == 1:
        n = check_count(args[0], name)
        rep_n = n // per_rep  # the count must fill whole repeats; a partial last one is not compared
        whole = rep_n * per_rep
        if whole:
            bits = op(count_view(core, src, whole, name, "src"), v)
            local_bytes(core, dst, whole // 8, name, "dst")[...] = np.packbits(bits, bitorder="little")
        core.emit(Pipe.V, name, (src.access(whole * dt.itemsize),), (dst.access(whole // 8),),
                  WIDE_REPEATS[(max(1, rep_n), dt.itemsize)])
        return
    if len(args) != 3 or not isinstance(args[2], UnaryRepeatParams):
        raise TypeError("compares(dst, src, scalar, cmp_mode, count) or compares(dst, src, scalar, cmp_mode, "
                        "mask, repeat_times, UnaryRepeatParams)")
    _mask, repeat, p = args
    rep_n = int(repeat)
    if not 0 <= rep_n <= core.chip.max_repeat:
        raise ValueError(f"{name}: repeat_times must be in 0..{core.chip.max_repeat}, got {rep_n}")
    key = (-1, FULL64, FULL64 if per_rep > 64 else 0)
    idx = rep_index(dt.itemsize, key, rep_n, int(p.src_blk_stride), int(p.src_rep_stride))
    span = src.span()
    if idx.size and int(idx.max()) >= span.size:
        core.fault(LocalOutOfRangeError, f"{name}: the repeats reach element {int(idx.max())}, past the "
                   f"tensor's buffer ({span.size} elements)")
    nbytes = rep_n * per_rep // 8
    if rep_n:
        packed = np.packbits(op(span[idx], v).ravel(), bitorder="little")
        local_bytes(core, dst, nbytes, name, "dst")[...] = packed
        lo, hi = int(idx.min()), int(idx.max()) + 1
        sa = core.access(Space.UB, src.offset + lo * dt.itemsize, (hi - lo) * dt.itemsize)
    else:
        sa = core.access(Space.UB, src.offset, 0)
    core.emit(Pipe.V, name, (sa,), (dst.access(nbytes),), WIDE_REPEATS[(max(1, rep_n), dt.itemsize)])


# --- ReduceRepeat, ReduceDataBlock ----------------------------------------------------------------


def reduce_repeat(dst: LocalTensor, src: LocalTensor, mask: Any, repeat_times: int, dst_rep_stride: int,
                  src_blk_stride: int, src_rep_stride: int,
                  order: ReduceOrder = ReduceOrder.ORDER_VALUE_INDEX, *, reduce_type: ReduceType,
                  is_set_mask: bool | None = None) -> None:
    """``ReduceRepeat<reduceType>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride,
    order)``: per repeat the sum (``WholeReduceSum``), or the maximum / minimum and its index stored as
    ``order`` says (``WholeReduceMax/Min``; ``ORDER_ONLY_INDEX``: a uint32 index per repeat)."""
    kind = ReduceType(reduce_type)
    args = (dst, src, mask, repeat_times, dst_rep_stride, src_blk_stride, src_rep_stride)
    if kind is ReduceType.SUM:
        whole_reduce_sum(*args, is_set_mask=is_set_mask)
    elif kind is ReduceType.NONE:
        raise ValueError("reduce_repeat: reduce_type must be SUM, MAX or MIN")
    elif ReduceOrder(order) is not ReduceOrder.ORDER_ONLY_INDEX or dst.dtype.itemsize == 4:
        (whole_reduce_max if kind is ReduceType.MAX else whole_reduce_min)(*args, order,
                                                                           is_set_mask=is_set_mask)
    else:
        _only_index(kind, *args, is_set_mask)


def _only_index(kind: ReduceType, dst: LocalTensor, src: LocalTensor, mask: Any, repeat: Any,
                dst_rep_stride: int, src_blk_stride: int, src_rep_stride: int,
                is_set_mask: bool | None) -> None:
    """A 16-bit ``ReduceRepeat`` max/min returning only its indices: one uint32 slot (4 B aligned) each."""
    name = "reduce_repeat"
    core = current()
    local_operand(core, dst, name, "dst", align=4)
    local_operand(core, src, name, "src")
    if dst.dtype != src.dtype:
        raise TypeError(f"{name}: dst and src must share one dtype, got {dst.dtype}, {src.dtype}")
    check_types(name, src.dtype, (float16,))
    st = Strided(core, name, src.dtype, mask, repeat, is_set_mask)
    if st.nop:
        core.emit(Pipe.V, name, (), (), REPEATS[st.repeat])
        return
    span, idx, acc = st.operand(core, src, src_blk_stride, src_rep_stride, name)
    fill = -np.inf if kind is ReduceType.MAX else np.inf
    rows = np.full((st.repeat, st.per_rep), fill, span.dtype)
    if st.count is not None:
        rows.reshape(-1)[: st.count] = span[idx]
    else:
        rows[:, selected(st.key, st.per_rep)] = span[idx]
    where = (np.argmax if kind is ReduceType.MAX else np.argmin)(rows, axis=1).astype(np.uint32)
    out = dst.reinterpret_cast(uint32)
    positions = np.arange(st.repeat) * int(dst_rep_stride)
    wa = _put(core, name, out, positions, where)
    core.emit(Pipe.V, "whole_reduce_max" if kind is ReduceType.MAX else "whole_reduce_min", (acc,), (wa,),
              REPEATS[st.repeat])


def reduce_data_block(dst: LocalTensor, src: LocalTensor, mask: Any, repeat_times: int, dst_rep_stride: int,
                      src_blk_stride: int, src_rep_stride: int, *, reduce_type: ReduceType,
                      is_set_mask: bool | None = None) -> None:
    """``ReduceDataBlock<reduceType>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
    srcRepStride)``: ``BlockReduceSum/Max/Min`` (8 results a repeat, one per 32 B block; blocks with no
    selected lane keep their ``dst`` value on Atlas A2/A3)."""
    kind = ReduceType(reduce_type)
    fn = {ReduceType.SUM: block_reduce_sum, ReduceType.MAX: block_reduce_max,
          ReduceType.MIN: block_reduce_min}.get(kind)
    if fn is None:
        raise ValueError("reduce_data_block: reduce_type must be SUM, MAX or MIN")
    fn(dst, src, repeat_times, mask, dst_rep_stride, src_blk_stride, src_rep_stride, is_set_mask=is_set_mask)


def reduce_pair_elem(dst: LocalTensor, src: LocalTensor, mask: Any, repeat_times: int, dst_rep_stride: int,
                     src_blk_stride: int, src_rep_stride: int, *, reduce_type: ReduceType = ReduceType.SUM,
                     is_set_mask: bool | None = None) -> None:
    """``ReducePairElem<reduceType>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride)``:
    ``PairReduceSum`` under its newer name (``SUM`` only, as documented)."""
    if ReduceType(reduce_type) is not ReduceType.SUM:
        raise ValueError("reduce_pair_elem: reduce_type must be SUM (the only one documented)")
    pair_reduce_sum(dst, src, repeat_times, mask, dst_rep_stride, src_blk_stride, src_rep_stride,
                    is_set_mask=is_set_mask)


__all__ = [
    "ReduceType",
    "arange",
    "arith_progression",
    "axpy",
    "compares",
    "create_vec_index",
    "reduce_data_block",
    "reduce_pair_elem",
    "reduce_repeat",
]
