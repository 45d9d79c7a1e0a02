"""Vector instructions on UB tensors (PIPE_V), reference section 2.6.

Every instruction has the "first n elements" form ``op(dst, src..., count)`` and most have
the high-dimensional form ``op(dst, src..., mask, repeat_times, RepeatParams)``: each
repeat reads 8 data blocks of 32 B per operand (256 B); ``blk_stride`` is the distance
between the blocks of one repeat and ``rep_stride`` between repeats, both in 32 B blocks;
``mask`` is either a count (the first ``mask`` elements of each repeat, normal mode) or a
list of 64-bit words (``mask[0]`` bit ``i`` selects element ``i``, ``mask[1]`` elements
64..127).  Unselected destination elements are left as they were.

Arithmetic is done in the operands' dtype, as the vector unit does (NumPy computes a
float16 op in float32 and rounds once, which is the correctly rounded fp16 result).
Reductions accumulate as NumPy's pairwise sum does (float32 for float16 and bfloat16).
Each instruction is one NumPy call (plus a cached index array for the strided form).
"""

from __future__ import annotations

import builtins
import enum
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from aclsim.errors import FeatureNotSupportedError, LocalOutOfRangeError
from aclsim.isa import Access, Pipe, Space
from aclsim.kernel._core import REPEATS, Core, bfloat16, current, float16, float32, int16, int32
from aclsim.kernel.operands import count_view, local_bytes, local_operand
from aclsim.kernel.tensor import LocalTensor

_bmax, _bmin = builtins.max, builtins.min

FLOATS = (float16, bfloat16, float32)
ARITH = (*FLOATS, int16, int32)


class RoundMode(enum.IntEnum):
    """``RoundMode`` for ``cast``."""

    CAST_NONE = 0
    CAST_RINT = 1
    CAST_FLOOR = 2
    CAST_CEIL = 3
    CAST_ROUND = 4
    CAST_TRUNC = 5
    CAST_ODD = 6
    CAST_HYBRID = 7


class CMPMODE(enum.IntEnum):
    LT = 0
    GT = 1
    EQ = 2
    LE = 3
    GE = 4
    NE = 5


class SELMODE(enum.IntEnum):
    VSEL_CMPMASK_SPR = 0
    VSEL_TENSOR_SCALAR_MODE = 1
    VSEL_TENSOR_TENSOR_MODE = 2


class ReduceOrder(enum.IntEnum):
    ORDER_VALUE_INDEX = 0
    ORDER_INDEX_VALUE = 1
    ORDER_ONLY_VALUE = 2
    ORDER_ONLY_INDEX = 3


@dataclass(frozen=True)
class BinaryRepeatParams:
    """Strides of a two-source instruction: block strides in blocks, repeat strides in blocks."""

    dst_blk_stride: int = 1
    src0_blk_stride: int = 1
    src1_blk_stride: int = 1
    dst_rep_stride: int = 8
    src0_rep_stride: int = 8
    src1_rep_stride: int = 8


@dataclass(frozen=True)
class UnaryRepeatParams:
    """Strides of a one-source instruction (also the scalar forms ``adds``, ``muls``...)."""

    dst_blk_stride: int = 1
    src_blk_stride: int = 1
    dst_rep_stride: int = 8
    src_rep_stride: int = 8


# --- operand checks ----------------------------------------------------------------------------


def _types(name: str, dt: np.dtype, allowed: Sequence[np.dtype]) -> None:
    if dt not in allowed:
        raise TypeError(f"{name} does not support {dt}; supported: {', '.join(str(d) for d in allowed)}")


def _count(count: Any, name: str) -> int:
    n = int(count)
    if n < 0:
        raise ValueError(f"{name}: count must be >= 0, got {n}")
    return n


def _repeats(core: Core, nbytes: int) -> int:
    return _bmax(1, -(-nbytes // core.chip.vector_repeat_bytes))


# --- the strided (mask / repeat) form ----------------------------------------------------------


def _mask_key(mask: int | Sequence[int], per_rep: int) -> tuple[int, ...]:
    if isinstance(mask, (int, np.integer)):
        m = int(mask)
        if not 0 < m <= per_rep:
            raise ValueError(f"continuous mask must be in 1..{per_rep}, got {m}")
        return (m,)
    words = tuple(int(w) & 0xFFFFFFFFFFFFFFFF for w in mask)
    if not words or len(words) > 2:
        raise ValueError("a bit mask is a list of one or two 64-bit words")
    if per_rep <= 64 and len(words) == 2 and words[1]:
        raise ValueError(f"mask[1] must be 0 for {per_rep}-element repeats (32-bit types)")
    return (-1, *words)


@functools.lru_cache(maxsize=1024)
def _selected(key: tuple[int, ...], per_rep: int) -> np.ndarray:
    """Element positions (0..per_rep-1) a mask selects."""
    if key[0] != -1:
        return np.arange(key[0])
    bits = np.zeros(per_rep, dtype=bool)
    for w, word in enumerate(key[1:]):
        for i in range(_bmin(64, per_rep - 64 * w)):
            if word >> i & 1:
                bits[64 * w + i] = True
    return np.flatnonzero(bits)


@functools.lru_cache(maxsize=4096)
def _rep_index(
    itemsize: int, key: tuple[int, ...], repeat: int, blk_stride: int, rep_stride: int
) -> np.ndarray:
    """Element indices (repeat, selected) an operand touches, from its start."""
    epb = 32 // itemsize
    per_rep = 8 * epb
    sel = _selected(key, per_rep)
    r = np.arange(repeat, dtype=np.int64)[:, None] * (rep_stride * epb)
    pos = (sel // epb) * (blk_stride * epb) + sel % epb
    idx = r + pos[None, :]
    idx.setflags(write=False)
    return idx


class _Strided:
    __slots__ = ("key", "repeat", "per_rep")

    def __init__(self, core: Core, name: str, dtype: np.dtype, mask: Any, repeat: Any) -> None:
        self.per_rep = core.chip.vector_repeat_bytes // dtype.itemsize
        self.key = _mask_key(mask, self.per_rep)
        self.repeat = int(repeat)
        if not 0 <= self.repeat <= core.chip.max_repeat:
            raise ValueError(f"{name}: repeat_times must be in 0..{core.chip.max_repeat}, got {self.repeat}")

    def operand(
        self, core: Core, t: LocalTensor, blk: int, rep: int, name: str
    ) -> tuple[np.ndarray, np.ndarray, Access]:
        """(elements from the tensor's start to its buffer end, index array, accessed byte range)."""
        idx = _rep_index(t.dtype.itemsize, self.key, self.repeat, int(blk), int(rep))
        span = t.span()
        if idx.size == 0:
            return span, idx, core.access(Space.UB, t.offset, 0)
        lo, hi = int(idx.min()), int(idx.max()) + 1
        if hi > span.size:
            core.fault(
                LocalOutOfRangeError,
                f"{name}: the repeats reach element {hi - 1}, past the tensor's "
                f"buffer ({span.size} elements)",
            )
        isz = t.dtype.itemsize
        return span, idx, core.access(Space.UB, t.offset + lo * isz, (hi - lo) * isz)


# --- generic instruction bodies ----------------------------------------------------------------


def _binary(
    name: str,
    fn: Callable[..., Any],
    allowed: Sequence[np.dtype],
    dst: LocalTensor,
    src0: LocalTensor,
    src1: LocalTensor,
    args: tuple[Any, ...],
) -> None:
    core = current()
    local_operand(core, dst, name, "dst")
    local_operand(core, src0, name, "src0")
    local_operand(core, src1, name, "src1")
    dt = dst.dtype
    if src0.dtype != dt or src1.dtype != dt:
        raise TypeError(f"{name}: operands must share one dtype, got {dst.dtype}, {src0.dtype}, {src1.dtype}")
    _types(name, dt, allowed)
    if len(args) == 1:
        n = _count(args[0], name)
        d = count_view(core, dst, n, name, "dst")
        fn(count_view(core, src0, n, name, "src0"), count_view(core, src1, n, name, "src1"), out=d)
        nb = n * dt.itemsize
        core.emit(
            Pipe.V,
            name,
            (src0.access(nb), src1.access(nb)),
            (dst.access(nb),),
            REPEATS[_repeats(core, nb)],
        )
        return
    if len(args) != 3:
        raise TypeError(
            f"{name}(dst, src0, src1, count) or {name}(dst, src0, src1, mask, repeat_times, params)"
        )
    mask, repeat, p = args
    if not isinstance(p, BinaryRepeatParams):
        raise TypeError(f"{name}: the strided form takes BinaryRepeatParams")
    s = _Strided(core, name, dt, mask, repeat)
    ds, di, da = s.operand(core, dst, p.dst_blk_stride, p.dst_rep_stride, name)
    as_, ai, aa = s.operand(core, src0, p.src0_blk_stride, p.src0_rep_stride, name)
    bs, bi, ba = s.operand(core, src1, p.src1_blk_stride, p.src1_rep_stride, name)
    ds[di] = fn(as_[ai], bs[bi])
    core.emit(Pipe.V, name, (aa, ba), (da,), REPEATS[s.repeat])


def _unary(
    name: str,
    fn: Callable[..., Any],
    allowed: Sequence[np.dtype],
    dst: LocalTensor,
    src: LocalTensor,
    args: tuple[Any, ...],
) -> None:
    core = current()
    local_operand(core, dst, name, "dst")
    local_operand(core, src, name, "src")
    dt = dst.dtype
    if src.dtype != dt:
        raise TypeError(f"{name}: dst and src must share one dtype, got {dst.dtype}, {src.dtype}")
    _types(name, dt, allowed)
    if len(args) == 1:
        n = _count(args[0], name)
        fn(count_view(core, src, n, name, "src"), out=count_view(core, dst, n, name, "dst"))
        nb = n * dt.itemsize
        core.emit(Pipe.V, name, (src.access(nb),), (dst.access(nb),), REPEATS[_repeats(core, nb)])
        return
    if len(args) != 3:
        raise TypeError(f"{name}(dst, src, count) or {name}(dst, src, mask, repeat_times, UnaryRepeatParams)")
    mask, repeat, p = args
    if not isinstance(p, UnaryRepeatParams):
        raise TypeError(f"{name}: the strided form takes UnaryRepeatParams")
    s = _Strided(core, name, dt, mask, repeat)
    ds, di, da = s.operand(core, dst, p.dst_blk_stride, p.dst_rep_stride, name)
    ss, si, sa = s.operand(core, src, p.src_blk_stride, p.src_rep_stride, name)
    x = ss[si]
    out = np.empty_like(x)
    fn(x, out=out)
    ds[di] = out
    core.emit(Pipe.V, name, (sa,), (da,), REPEATS[s.repeat])


def _scalar(
    name: str,
    fn: Callable[..., Any],
    allowed: Sequence[np.dtype],
    dst: LocalTensor,
    src: LocalTensor,
    value: Any,
    args: tuple[Any, ...],
) -> None:
    dt = dst.dtype
    _types(name, dt, allowed)
    v = dt.type(value)

    def op(x: np.ndarray, out: np.ndarray) -> None:
        fn(x, v, out=out)

    _unary(name, op, allowed, dst, src, args)


# --- elementwise -----------------------------------------------------------------------------------


def add(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any) -> None:
    """``Add``: ``dst = src0 + src1`` (count form or mask/repeat form)."""
    _binary("add", np.add, ARITH, dst, src0, src1, args)


def sub(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any) -> None:
    """``Sub``: ``dst = src0 - src1``."""
    _binary("sub", np.subtract, ARITH, dst, src0, src1, args)


def mul(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any) -> None:
    """``Mul``: ``dst = src0 * src1``."""
    _binary("mul", np.multiply, ARITH, dst, src0, src1, args)


def div(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any) -> None:
    """``Div``: ``dst = src0 / src1`` (float types)."""
    _binary("div", np.divide, FLOATS, dst, src0, src1, args)


def max(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any) -> None:  # noqa: A001
    """``Max``: elementwise maximum."""
    _binary("max", np.maximum, ARITH, dst, src0, src1, args)


def min(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any) -> None:  # noqa: A001
    """``Min``: elementwise minimum."""
    _binary("min", np.minimum, ARITH, dst, src0, src1, args)


def adds(dst: LocalTensor, src: LocalTensor, scalar: Any, *args: Any) -> None:
    """``Adds``: ``dst = src + scalar`` (the scalar converted to the dtype first)."""
    _scalar("adds", np.add, ARITH, dst, src, scalar, args)


def muls(dst: LocalTensor, src: LocalTensor, scalar: Any, *args: Any) -> None:
    """``Muls``: ``dst = src * scalar``."""
    _scalar("muls", np.multiply, ARITH, dst, src, scalar, args)


def maxs(dst: LocalTensor, src: LocalTensor, scalar: Any, *args: Any) -> None:
    """``Maxs``: ``dst = max(src, scalar)``."""
    _scalar("maxs", np.maximum, ARITH, dst, src, scalar, args)


def mins(dst: LocalTensor, src: LocalTensor, scalar: Any, *args: Any) -> None:
    """``Mins``: ``dst = min(src, scalar)``."""
    _scalar("mins", np.minimum, ARITH, dst, src, scalar, args)


def _relu(x: np.ndarray, out: np.ndarray) -> None:
    np.maximum(x, x.dtype.type(0), out=out)


def _via_f32(fn: Callable[[np.ndarray], np.ndarray]) -> Callable[..., None]:
    def run(x: np.ndarray, out: np.ndarray) -> None:
        out[...] = fn(x.astype(np.float32)).astype(out.dtype)

    return run


_rsqrt = _via_f32(lambda x: np.float32(1) / np.sqrt(x))
_reciprocal = _via_f32(lambda x: np.float32(1) / x)


def exp(dst: LocalTensor, src: LocalTensor, *args: Any) -> None:
    """``Exp``."""
    _unary("exp", np.exp, FLOATS, dst, src, args)


def ln(dst: LocalTensor, src: LocalTensor, *args: Any) -> None:
    """``Ln`` (NaN for negative inputs, -inf for 0, as IEEE)."""
    _unary("ln", np.log, FLOATS, dst, src, args)


def sqrt(dst: LocalTensor, src: LocalTensor, *args: Any) -> None:
    """``Sqrt``."""
    _unary("sqrt", np.sqrt, FLOATS, dst, src, args)


def abs(dst: LocalTensor, src: LocalTensor, *args: Any) -> None:  # noqa: A001
    """``Abs``."""
    _unary("abs", np.abs, ARITH, dst, src, args)


def relu(dst: LocalTensor, src: LocalTensor, *args: Any) -> None:
    """``Relu``: ``max(src, 0)``."""
    _unary("relu", _relu, (*FLOATS, int32), dst, src, args)


def rsqrt(dst: LocalTensor, src: LocalTensor, *args: Any) -> None:
    """``Rsqrt``: ``1 / sqrt(src)`` (computed in float32, rounded once)."""
    _unary("rsqrt", _rsqrt, FLOATS, dst, src, args)


def reciprocal(dst: LocalTensor, src: LocalTensor, *args: Any) -> None:
    """``Reciprocal``: ``1 / src`` (computed in float32, rounded once)."""
    _unary("reciprocal", _reciprocal, FLOATS, dst, src, args)


def duplicate(dst: LocalTensor, scalar: Any, *args: Any) -> None:
    """``Duplicate(dst, value, count)`` or ``Duplicate(dst, value, mask, repeat_times, dst_blk_stride,
    dst_rep_stride)``: fill with one value."""
    core = current()
    name = "duplicate"
    local_operand(core, dst, name, "dst")
    dt = dst.dtype
    v = dt.type(scalar)
    if len(args) == 1:
        n = _count(args[0], name)
        count_view(core, dst, n, name, "dst")[...] = v
        nb = n * dt.itemsize
        core.emit(Pipe.V, name, (), (dst.access(nb),), REPEATS[_repeats(core, nb)])
        return
    if len(args) != 4:
        raise TypeError(
            "duplicate(dst, value, count) or duplicate(dst, value, mask, repeat_times, "
            "dst_blk_stride, dst_rep_stride)"
        )
    mask, repeat, blk, rep = args
    s = _Strided(core, name, dt, mask, repeat)
    ds, di, da = s.operand(core, dst, blk, rep, name)
    ds[di] = v
    core.emit(Pipe.V, name, (), (da,), REPEATS[s.repeat])


# --- cast ----------------------------------------------------------------------------------------

_UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def _toward(y: np.ndarray, x64: np.ndarray) -> np.ndarray:
    """The float of ``y``'s type next to ``y`` in the direction of the exact value ``x64``."""
    ut = _UINT[y.dtype.itemsize]
    bits = y.view(ut).copy()
    ay, ax = np.abs(y.astype(np.float64)), np.abs(x64)
    up = ay < ax  # move away from zero
    down = ay > ax
    sign = np.signbit(x64)
    zero = (y == 0) & up
    one = ut(1)
    bits = np.where(up & ~zero, bits + one, bits)
    bits = np.where(down, bits - one, bits)
    high = ut(1 << (8 * y.dtype.itemsize - 1))
    bits = np.where(zero, np.where(sign, high | one, one), bits)
    return bits.astype(ut).view(y.dtype)


def cast_values(x: np.ndarray, dt: np.dtype, mode: RoundMode) -> np.ndarray:
    """``x`` converted to ``dt`` under ``mode`` (the semantics of ``cast``, on NumPy arrays)."""
    mode = RoundMode(mode)
    if mode is RoundMode.CAST_HYBRID:
        raise FeatureNotSupportedError("CAST_HYBRID is not modelled")
    src_float = x.dtype.kind == "f" or x.dtype == bfloat16
    if dt.kind in "iu":
        if not src_float:
            return x.astype(dt)  # integer narrowing keeps the low bits (two's complement)
        x64 = x.astype(np.float64)
        if mode in (RoundMode.CAST_NONE, RoundMode.CAST_RINT):
            r = np.rint(x64)
        elif mode is RoundMode.CAST_FLOOR:
            r = np.floor(x64)
        elif mode is RoundMode.CAST_CEIL:
            r = np.ceil(x64)
        elif mode is RoundMode.CAST_TRUNC:
            r = np.trunc(x64)
        elif mode is RoundMode.CAST_ROUND:
            r = np.sign(x64) * np.floor(np.abs(x64) + 0.5)
        else:
            raise ValueError(f"{mode.name} applies to float -> float casts")
        info = np.iinfo(dt)
        r = np.nan_to_num(r, nan=0.0, posinf=info.max, neginf=info.min)
        return np.clip(r, info.min, info.max).astype(dt)
    y = x.astype(dt)  # round to nearest even
    if mode in (RoundMode.CAST_NONE, RoundMode.CAST_RINT) or (
        src_float and dt.itemsize >= x.dtype.itemsize and dt != bfloat16
    ):
        return y
    x64 = x.astype(np.float64)
    y64 = y.astype(np.float64)
    inexact = (y64 != x64) & ~np.isnan(x64)
    if not inexact.any():
        return y
    other = _toward(y, x64)
    if mode is RoundMode.CAST_FLOOR:
        pick = y64 > x64
    elif mode is RoundMode.CAST_CEIL:
        pick = y64 < x64
    elif mode is RoundMode.CAST_TRUNC:
        pick = np.abs(y64) > np.abs(x64)
    elif mode is RoundMode.CAST_ROUND:  # ties away from zero: differs from RNE only at ties toward zero
        o64 = other.astype(np.float64)
        pick = (np.abs(o64 - x64) == np.abs(y64 - x64)) & (np.abs(o64) > np.abs(y64))
    else:  # CAST_ODD: the neighbour whose last mantissa bit is 1
        ut = _UINT[dt.itemsize]
        pick = (y.view(ut) & ut(1)) == 0
    return np.where(inexact & pick, other, y).astype(dt)


def cast(dst: LocalTensor, src: LocalTensor, round_mode: RoundMode, *args: Any) -> None:
    """``Cast(dst, src, roundMode, count)`` or ``Cast(dst, src, roundMode, mask, repeatTimes,
    UnaryRepeatParams)``: convert elements.

    Float -> integer rounds as ``round_mode`` says and saturates (NaN -> 0); float
    narrowing rounds to nearest even (CAST_NONE/CAST_RINT) or as directed (FLOOR, CEIL,
    TRUNC, ROUND = ties away from zero, ODD = round to odd); integer narrowing keeps the
    low bits.  In the mask/repeat form a repeat handles 256 B of the wider type (64
    elements for float <-> half), and each operand's blocks are 32 B of its own type (so a
    contiguous half destination of a float source takes ``dst_rep_stride`` 4).
    """
    core = current()
    name = "cast"
    local_operand(core, dst, name, "dst")
    local_operand(core, src, name, "src")
    if len(args) == 1:
        n = _count(args[0], name)
        d = count_view(core, dst, n, name, "dst")
        d[...] = cast_values(count_view(core, src, n, name, "src"), dst.dtype, round_mode)
        nb = n * _bmax(dst.dtype.itemsize, src.dtype.itemsize)
        core.emit(
            Pipe.V,
            name,
            (src.access(n * src.dtype.itemsize),),
            (dst.access(n * dst.dtype.itemsize),),
            REPEATS[_repeats(core, nb)],
        )
        return
    if len(args) != 3:
        raise TypeError("cast(dst, src, round_mode, count) or cast(dst, src, round_mode, mask, repeat_times, "
                        "UnaryRepeatParams)")
    mask, repeat, p = args
    if not isinstance(p, UnaryRepeatParams):
        raise TypeError(f"{name}: the strided form takes UnaryRepeatParams")
    wide = dst.dtype if dst.dtype.itemsize >= src.dtype.itemsize else src.dtype
    st = _Strided(core, name, wide, mask, repeat)
    ds, di, da = st.operand(core, dst, p.dst_blk_stride, p.dst_rep_stride, name)
    ss, si, sa = st.operand(core, src, p.src_blk_stride, p.src_rep_stride, name)
    ds[di] = cast_values(ss[si], dst.dtype, round_mode)
    core.emit(Pipe.V, name, (sa,), (da,), REPEATS[st.repeat])


# --- compare / select ------------------------------------------------------------------------------

_CMP = {
    CMPMODE.LT: np.less,
    CMPMODE.GT: np.greater,
    CMPMODE.EQ: np.equal,
    CMPMODE.LE: np.less_equal,
    CMPMODE.GE: np.greater_equal,
    CMPMODE.NE: np.not_equal,
}


def _write_bits(core: Core, dst: LocalTensor, bits: np.ndarray, name: str) -> Access:
    packed = np.packbits(bits, bitorder="little")
    local_bytes(core, dst, packed.size, name, "dst")[...] = packed
    return dst.access(packed.size)


def _mask_bytes(core: Core, t: LocalTensor, nbits: int, name: str, what: str) -> np.ndarray:
    """The bytes of a bit-mask tensor holding ``nbits`` bits (a view into UB)."""
    return local_bytes(core, t, -(-nbits // 8), name, what)


def _repeat_bits(st: _Strided, continuous: bool = True) -> np.ndarray:
    """Bit positions of the selected elements, repeat by repeat: repeat ``r`` owns bits
    ``r * PAR ..`` (``continuous``), or every repeat reuses bits ``0 .. PAR-1``."""
    sel = _selected(st.key, st.per_rep)
    if not continuous:
        return np.broadcast_to(sel, (st.repeat, sel.size))
    return np.arange(st.repeat, dtype=np.int64)[:, None] * st.per_rep + sel[None, :]


def _compare_strided(core: Core, name: str, st: _Strided, dst: LocalTensor, src: LocalTensor, blk: int,
                     rep: int, result: Callable[[np.ndarray], np.ndarray]) -> tuple[Access, Access]:
    """The mask/repeat form of compare: each repeat writes its PAR result bits one after another
    (bit ``r * PAR + j`` for element ``j`` of repeat ``r``); bits of masked-off elements keep
    their value."""
    ss, si, sa = st.operand(core, src, blk, rep, name)
    nbits = st.repeat * st.per_rep
    raw = _mask_bytes(core, dst, nbits, name, "dst")
    bits = np.unpackbits(raw, bitorder="little").astype(bool)
    bits[_repeat_bits(st)] = result(ss[si])
    raw[...] = np.packbits(bits, bitorder="little")
    return sa, dst.access(raw.size)


def compare(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, cmp_mode: CMPMODE, *args: Any) -> None:
    """``Compare(dst, src0, src1, cmpMode, count)`` or ``Compare(dst, src0, src1, cmpMode, mask,
    repeatTimes, BinaryRepeatParams)``: bit ``i`` of ``dst`` (LSB first) is ``src0[i] op src1[i]``.

    In the mask/repeat form repeat ``r`` writes its 256 B / sizeof(T) bits at bit
    ``r * PAR`` (the results are packed one after another; the dst strides are not used).
    """
    core = current()
    name = "compare"
    for t, w in ((dst, "dst"), (src0, "src0"), (src1, "src1")):
        local_operand(core, t, name, w)
    if src0.dtype != src1.dtype:
        raise TypeError(f"compare: sources must share one dtype, got {src0.dtype}, {src1.dtype}")
    op = _CMP[CMPMODE(cmp_mode)]
    if len(args) == 1:
        n = _count(args[0], name)
        bits = op(count_view(core, src0, n, name, "src0"), count_view(core, src1, n, name, "src1"))
        wa = _write_bits(core, dst, bits, name)
        nb = n * src0.dtype.itemsize
        core.emit(Pipe.V, name, (src0.access(nb), src1.access(nb)), (wa,), REPEATS[_repeats(core, nb)])
        return
    if len(args) != 3 or not isinstance(args[2], BinaryRepeatParams):
        raise TypeError("compare(dst, src0, src1, cmp_mode, count) or "
                        "compare(dst, src0, src1, cmp_mode, mask, repeat_times, BinaryRepeatParams)")
    mask, repeat, p = args
    st = _Strided(core, name, src0.dtype, mask, repeat)
    bs, bi, ba = st.operand(core, src1, p.src1_blk_stride, p.src1_rep_stride, name)
    aa, wa = _compare_strided(core, name, st, dst, src0, p.src0_blk_stride, p.src0_rep_stride,
                              lambda a: op(a, bs[bi]))
    core.emit(Pipe.V, name, (aa, ba), (wa,), REPEATS[st.repeat])


def compare_scalar(dst: LocalTensor, src: LocalTensor, scalar: Any, cmp_mode: CMPMODE, *args: Any) -> None:
    """``CompareScalar(dst, src, scalar, cmpMode, count)`` or ``CompareScalar(dst, src, scalar,
    cmpMode, mask, repeatTimes, UnaryRepeatParams)``: bit ``i`` is ``src[i] op scalar``."""
    core = current()
    name = "compare_scalar"
    local_operand(core, dst, name, "dst")
    local_operand(core, src, name, "src")
    op = _CMP[CMPMODE(cmp_mode)]
    v = src.dtype.type(scalar)
    if len(args) == 1:
        n = _count(args[0], name)
        bits = op(count_view(core, src, n, name, "src"), v)
        wa = _write_bits(core, dst, bits, name)
        nb = n * src.dtype.itemsize
        core.emit(Pipe.V, name, (src.access(nb),), (wa,), REPEATS[_repeats(core, nb)])
        return
    if len(args) != 3 or not isinstance(args[2], UnaryRepeatParams):
        raise TypeError("compare_scalar(dst, src, scalar, cmp_mode, count) or "
                        "compare_scalar(dst, src, scalar, cmp_mode, mask, repeat_times, UnaryRepeatParams)")
    mask, repeat, p = args
    st = _Strided(core, name, src.dtype, mask, repeat)
    sa, wa = _compare_strided(core, name, st, dst, src, p.src_blk_stride, p.src_rep_stride,
                              lambda a: op(a, v))
    core.emit(Pipe.V, name, (sa,), (wa,), REPEATS[st.repeat])


def select(
    dst: LocalTensor,
    sel_mask: LocalTensor,
    src0: LocalTensor,
    src1: LocalTensor | Any,
    sel_mode: SELMODE,
    *args: Any,
) -> None:
    """``Select(dst, selMask, src0, src1, selMode, count)`` or ``Select(dst, selMask, src0, src1,
    selMode, mask, repeatTimes, BinaryRepeatParams)``: ``src0[i]`` where the mask bit is 1, else
    ``src1[i]`` (a tensor) or the scalar ``src1`` (VSEL_TENSOR_SCALAR_MODE).

    Which bit: VSEL_CMPMASK_SPR (mode 0) uses the first 256 B / sizeof(T) bits of ``sel_mask``
    for every repeat (element ``i`` of the count form reads bit ``i % PAR``); modes 1 and 2
    use the mask's bits one after another (repeat ``r`` reads bits ``r * PAR ..``).  In the
    mask/repeat form, elements the mask leaves out keep their ``dst`` value.
    """
    core = current()
    name = "select"
    mode = SELMODE(sel_mode)
    local_operand(core, dst, name, "dst")
    local_operand(core, sel_mask, name, "sel_mask")
    local_operand(core, src0, name, "src0")
    tensor_mode = mode is not SELMODE.VSEL_TENSOR_SCALAR_MODE
    if tensor_mode:
        local_operand(core, src1, name, "src1")
        if src1.dtype != dst.dtype:
            raise TypeError(f"{name}: src1 must have dst's dtype {dst.dtype}, got {src1.dtype}")
    if src0.dtype != dst.dtype:
        raise TypeError(f"{name}: src0 must have dst's dtype {dst.dtype}, got {src0.dtype}")
    par = core.chip.vector_repeat_bytes // dst.dtype.itemsize
    if len(args) == 1:
        n = _count(args[0], name)
        nbits = _bmin(n, par) if mode is SELMODE.VSEL_CMPMASK_SPR else n
        raw = _mask_bytes(core, sel_mask, nbits, name, "sel_mask")
        bits = np.unpackbits(raw, bitorder="little", count=nbits).astype(bool)
        if mode is SELMODE.VSEL_CMPMASK_SPR and n > par:
            bits = np.resize(bits, n)  # the same PAR bits for every repeat
        a = count_view(core, src0, n, name, "src0")
        nb = n * dst.dtype.itemsize
        reads = [core.access(Space.UB, sel_mask.offset, raw.size), src0.access(nb)]
        if tensor_mode:
            b: Any = count_view(core, src1, n, name, "src1")
            reads.append(src1.access(nb))
        else:
            b = dst.dtype.type(src1)
        np.copyto(count_view(core, dst, n, name, "dst"), np.where(bits, a, b))
        core.emit(Pipe.V, name, tuple(reads), (dst.access(nb),), REPEATS[_repeats(core, nb)])
        return
    if len(args) != 3 or not isinstance(args[2], BinaryRepeatParams):
        raise TypeError("select(dst, sel_mask, src0, src1, sel_mode, count) or "
                        "select(dst, sel_mask, src0, src1, sel_mode, mask, repeat_times, BinaryRepeatParams)")
    mask, repeat, p = args
    st = _Strided(core, name, dst.dtype, mask, repeat)
    ds, di, da = st.operand(core, dst, p.dst_blk_stride, p.dst_rep_stride, name)
    as_, ai, aa = st.operand(core, src0, p.src0_blk_stride, p.src0_rep_stride, name)
    positions = _repeat_bits(st, continuous=mode is not SELMODE.VSEL_CMPMASK_SPR)
    nbits = int(positions.max()) + 1 if positions.size else 0
    raw = _mask_bytes(core, sel_mask, nbits, name, "sel_mask")
    bits = np.unpackbits(raw, bitorder="little").astype(bool)[positions]
    reads = [core.access(Space.UB, sel_mask.offset, raw.size), aa]
    if tensor_mode:
        bs, bi, ba = st.operand(core, src1, p.src1_blk_stride, p.src1_rep_stride, name)
        b = bs[bi]
        reads.append(ba)
    else:
        b = dst.dtype.type(src1)
    ds[di] = np.where(bits, as_[ai], b)
    core.emit(Pipe.V, name, tuple(reads), (da,), REPEATS[st.repeat])


# --- reductions ------------------------------------------------------------------------------------


def _index_bits(index: int, dt: np.dtype) -> Any:
    """An element index stored in a ``dt`` slot as its integer bit pattern (Ascend's convention)."""
    return np.array([index], dtype=_UINT[dt.itemsize]).view(dt)[0]


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
    _types(name, src.dtype, ARITH)
    if len(args) == 1:
        n = _count(args[0], name)
        nb = n * src.dtype.itemsize
        return core, count_view(core, src, n, name, "src"), src.access(nb), _repeats(core, nb)
    if len(args) != 3:
        raise TypeError(
            f"{name}(dst, src, work, count[, ...]) or {name}(dst, src, work, mask, repeat_times, "
            "src_rep_stride)"
        )
    mask, repeat, rep = args
    s = _Strided(core, name, src.dtype, mask, repeat)
    span, idx, acc = s.operand(core, src, 1, rep, name)
    return core, span[idx.ravel()], acc, s.repeat


def _emit_reduce(
    core: Core, name: str, dst: LocalTensor, work: LocalTensor | None, read: Access, repeats: int, nvals: int
) -> None:
    writes = [dst.access(nvals * dst.dtype.itemsize)]
    if work is not None:
        writes.append(work.access(_bmin(work.size, 2 * repeats) * work.dtype.itemsize))
    core.emit(Pipe.V, name, (read,), tuple(writes), REPEATS[repeats])


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
) -> tuple[Core, _Strided, np.ndarray, Access]:
    core = current()
    local_operand(core, dst, name, "dst")
    local_operand(core, src, name, "src")
    if dst.dtype != src.dtype:
        raise TypeError(f"{name}: dst and src must share one dtype")
    _types(name, src.dtype, FLOATS)
    s = _Strided(core, name, src.dtype, mask, repeat)
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
    sel = _selected(s.key, s.per_rep)
    values = fn(x, axis=1) if x.size else np.zeros(0, x.dtype)
    index = sel[arg(x, axis=1)] if x.size else np.zeros(0, np.int64)
    ibits = index.astype(_UINT[dst.dtype.itemsize]).view(dst.dtype)
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


__all__ = [
    "ARITH",
    "FLOATS",
    "CMPMODE",
    "SELMODE",
    "BinaryRepeatParams",
    "ReduceOrder",
    "RoundMode",
    "UnaryRepeatParams",
    "abs",
    "add",
    "adds",
    "cast",
    "cast_values",
    "compare",
    "compare_scalar",
    "div",
    "duplicate",
    "exp",
    "ln",
    "max",
    "maxs",
    "min",
    "mins",
    "mul",
    "muls",
    "reciprocal",
    "reduce_max",
    "reduce_min",
    "reduce_sum",
    "relu",
    "rsqrt",
    "select",
    "sqrt",
    "sub",
    "whole_reduce_max",
    "whole_reduce_min",
    "whole_reduce_sum",
]
