"""``cast``: element conversions on the vector unit (PIPE_V, UB operands), reference section 2.6.

Float -> integer rounds as the ``RoundMode`` says and saturates (NaN -> 0); float narrowing
rounds to nearest even (CAST_NONE/CAST_RINT) or as directed (FLOOR, CEIL, TRUNC, ROUND =
ties away from zero, ODD = round to odd); float -> float with RINT/FLOOR/CEIL/ROUND/TRUNC rounds
to an integral float (what the high-level Floor/Ceil/Round/Trunc issue); integer narrowing keeps
the low bits; int32 -> half
is a dequantisation by the DEQSCALE register (``set_deq_scale``, :mod:`aclsim.kernel.quant`).
``cast_values`` is the same on NumPy arrays.
"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from aclsim.errors import FeatureNotSupportedError
from aclsim.isa import Pipe, Space
from aclsim.kernel._core import (
    REPEATS,
    Core,
    UnsupportedFault,
    bfloat16,
    current,
    dtype_name,
    elem_bytes,
    float16,
    int8,
    int32,
    is_int4,
    pack_int4,
    unpack_int4,
)
from aclsim.kernel.mask import RESET
from aclsim.kernel.operands import count_view, local_bytes, local_operand
from aclsim.kernel.quant import deq_values
from aclsim.kernel.repeat import UINT, Strided, UnaryRepeatParams, check_count, repeats
from aclsim.kernel.saturation import saturate
from aclsim.kernel.tensor import LocalTensor


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


def _toward(y: np.ndarray, x64: np.ndarray) -> np.ndarray:
    """The float of ``y``'s type next to ``y`` in the direction of the exact value ``x64``."""
    ut = UINT[y.dtype.itemsize]
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


def _to_integral(x: np.ndarray, mode: RoundMode) -> np.ndarray:
    """float -> float under a rounding mode: the integral float the mode picks (the documented
    float -> float ``Cast`` with CAST_RINT/FLOOR/CEIL/ROUND/TRUNC; ROUND = ties away from zero)."""
    if mode is RoundMode.CAST_RINT:
        return np.rint(x)
    if mode is RoundMode.CAST_FLOOR:
        return np.floor(x)
    if mode is RoundMode.CAST_CEIL:
        return np.ceil(x)
    if mode is RoundMode.CAST_TRUNC:
        return np.trunc(x)
    if mode is RoundMode.CAST_ROUND:
        x64 = x.astype(np.float64)  # (|x| + 0.5 exact: no double rounding near 2**23)
        return np.copysign(np.floor(np.abs(x64) + 0.5), x64).astype(x.dtype)
    raise ValueError(f"{mode.name} is not a float -> float rounding (RINT, FLOOR, CEIL, ROUND, TRUNC)")


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
    if src_float and x.dtype == dt and dt == np.float32 and mode is not RoundMode.CAST_NONE:
        return _to_integral(x, mode)
    y = x.astype(dt)  # round to nearest even
    if mode in (RoundMode.CAST_NONE, RoundMode.CAST_RINT) or (
        src_float and dt.itemsize > x.dtype.itemsize  # a true widening is exact (bf16 -> half is not)
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
        ut = UINT[dt.itemsize]
        pick = (y.view(ut) & ut(1)) == 0
    return np.where(inexact & pick, other, y).astype(dt)


def cast(dst: LocalTensor, src: LocalTensor, round_mode: RoundMode, *args: Any) -> None:
    """``Cast(dst, src, roundMode, count)`` or ``Cast(dst, src, roundMode, mask, repeatTimes,
    UnaryRepeatParams)``: convert elements.

    Float -> integer rounds as ``round_mode`` says and saturates (NaN -> 0); float
    narrowing rounds to nearest even (CAST_NONE/CAST_RINT) or as directed (FLOOR, CEIL,
    TRUNC, ROUND = ties away from zero, ODD = round to odd); float -> float with a mode other
    than CAST_NONE rounds to an integral float; integer narrowing keeps the low bits.  A half or
    bfloat16 result saturates (inf -> +-MAX, NaN -> 0) in the float saturation mode (CTRL[48] = 0,
    :mod:`aclsim.kernel.saturation`).  In the
    mask/repeat form a repeat handles 256 B of the wider type (64
    elements for float <-> half), and each operand's blocks are 32 B of its own type (so a
    contiguous half destination of a float source takes ``dst_rep_stride`` 4).
    """
    core = current()
    name = "cast"
    local_operand(core, dst, name, "dst")
    local_operand(core, src, name, "src")
    if is_int4(dst.dtype) or is_int4(src.dtype):
        _cast_int4(core, dst, src, RoundMode(round_mode), args)
        return
    deq = src.dtype == int32 and dst.dtype == float16  # a dequantisation: kernel/quant.py
    if len(args) == 1:
        n = check_count(args[0], name)
        d = count_view(core, dst, n, name, "dst")
        x = count_view(core, src, n, name, "src")
        d[...] = saturate(core, deq_values(core, x) if deq else cast_values(x, dst.dtype, round_mode))
        nb = n * max(dst.dtype.itemsize, src.dtype.itemsize)
        core.emit(
            Pipe.V,
            name,
            (src.access(n * src.dtype.itemsize),),
            (dst.access(n * dst.dtype.itemsize),),
            REPEATS[repeats(core, nb)],
        )
        core.vmask = RESET  # the count form runs in counter mode, then resets the mask (kernel/mask.py)
        return
    if len(args) != 3:
        raise TypeError("cast(dst, src, round_mode, count) or cast(dst, src, round_mode, mask, repeat_times, "
                        "UnaryRepeatParams)")
    mask, repeat, p = args
    if not isinstance(p, UnaryRepeatParams):
        raise TypeError(f"{name}: the strided form takes UnaryRepeatParams")
    wide = dst.dtype if dst.dtype.itemsize >= src.dtype.itemsize else src.dtype
    st = Strided(core, name, wide, mask, repeat)
    ds, di, da = st.operand(core, dst, p.dst_blk_stride, p.dst_rep_stride, name)
    ss, si, sa = st.operand(core, src, p.src_blk_stride, p.src_rep_stride, name)
    values = deq_values(core, ss[si]) if deq else cast_values(ss[si], dst.dtype, round_mode)
    ds[di] = saturate(core, values)
    core.emit(Pipe.V, name, (sa,), (da,), REPEATS[st.repeat])


def _cast_int4(core: Core, dst: LocalTensor, src: LocalTensor, mode: RoundMode,
               args: tuple[Any, ...]) -> None:
    """``cast`` to or from ``int4b_t``: on the A2 (arch 2201) half -> int4b_t (rounded as ``mode``
    says, CAST_NONE as CAST_RINT, saturated to -8..7, NaN -> 0) and int4b_t -> half (exact); the
    count must be even, as the Cast page says.  aclsim models the count form only."""
    name = "cast"
    to4, from4 = src.dtype == float16 and is_int4(dst.dtype), is_int4(src.dtype) and dst.dtype == float16
    if not (to4 or from4):
        core.fault(UnsupportedFault, f"{name}: {dtype_name(src.dtype)} -> {dtype_name(dst.dtype)} is not a "
                   "documented int4b_t conversion on this chip", hint="the A2 casts half -> int4b_t and "
                   "int4b_t -> half (go through half for other types)")
    if len(args) == 3:
        _cast_int4_strided(core, dst, src, mode, *args)
        return
    if len(args) != 1:
        raise TypeError("cast(dst, src, round_mode, count) or cast(dst, src, round_mode, mask, repeat_times, "
                        "UnaryRepeatParams)")
    n = check_count(args[0], name)
    if n % 2:
        raise ValueError(f"{name}: an int4b_t cast needs an even count (two elements per byte), got {n}")
    if from4:  # exact, whatever the mode (the page lists CAST_NONE)
        raw = local_bytes(core, src, n // 2, name, "src")
        count_view(core, dst, n, name, "dst")[...] = unpack_int4(raw, n).astype(np.float16)
    else:
        x = count_view(core, src, n, name, "src")
        pack_int4(local_bytes(core, dst, n // 2, name, "dst"), np.clip(cast_values(x, int8, mode), -8, 7))
    core.emit(Pipe.V, name, (src.access(elem_bytes(src.dtype, n)),), (dst.access(elem_bytes(dst.dtype, n)),),
              REPEATS[repeats(core, n * 2)])
    core.vmask = RESET


def _cast_int4_strided(core: Core, dst: LocalTensor, src: LocalTensor, mode: RoundMode, mask: Any,
                       repeat: Any, p: Any) -> None:
    """The mask/repeat form of an int4b_t cast: a repeat is 128 elements (256 B of half); the half
    operand's blocks are 16 elements, the int4b_t operand's 64 (32 B each); the selected elements
    must come in pairs (the Cast page: an even continuous mask, equal bits 2i and 2i+1)."""
    name = "cast"
    if not isinstance(p, UnaryRepeatParams):
        raise TypeError(f"{name}: the strided form takes UnaryRepeatParams")
    st = Strided(core, name, float16, mask, repeat)
    pos = st.positions().ravel()
    paired = pos.size % 2 == 0 and np.array_equal(pos[1::2], pos[0::2] + 1) and not (pos[0::2] % 2).any()
    if not paired:
        raise ValueError(f"{name}: an int4b_t cast selects elements in pairs (an even continuous mask or "
                         "count, equal bits 2i and 2i+1 in a bit mask), as the Cast page requires")
    four, half_t = (dst, src) if is_int4(dst.dtype) else (src, dst)
    p4, ph = (p.dst_blk_stride, p.dst_rep_stride), (p.src_blk_stride, p.src_rep_stride)
    if four is src:
        p4, ph = ph, p4
    r, j = pos // st.per_rep, pos % st.per_rep
    nib = r * int(p4[1]) * 64 + (j // 64) * int(p4[0]) * 64 + j % 64  # int4b_t elements
    hx = r * int(ph[1]) * 16 + (j // 16) * int(ph[0]) * 16 + j % 16  # half elements
    span4 = (int(nib.max()) // 2 + 1) if nib.size else 0
    spanh = (int(hx.max()) + 1) * 2 if hx.size else 0
    raw4 = local_bytes(core, four, span4, name, "dst" if four is dst else "src")
    rawh = local_bytes(core, half_t, spanh, name, "dst" if half_t is dst else "src").view(np.float16)
    if four is dst:
        nibs = unpack_int4(raw4, 2 * span4)
        nibs[nib] = np.clip(cast_values(rawh[hx], int8, mode), -8, 7)
        pack_int4(raw4, nibs)
    else:
        rawh[hx] = unpack_int4(raw4, 2 * span4)[nib].astype(np.float16)
    lo4, loh = (int(nib.min()) // 2, int(hx.min()) * 2) if pos.size else (0, 0)
    a4 = core.access(Space.UB, four.offset + lo4, span4 - lo4)
    ah = core.access(Space.UB, half_t.offset + loh, spanh - loh)
    reads, writes = ((ah,), (a4,)) if four is dst else ((a4,), (ah,))
    core.emit(Pipe.V, name, reads, writes, REPEATS[st.repeat])
