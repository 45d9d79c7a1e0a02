"""Elementwise vector instructions (PIPE_V, UB operands), declared in one table.

Each line of the table at the end of this module is one instruction: its Ascend C name in
snake_case, the NumPy function that computes it and the dtypes it takes, in one of three
forms (``docs/dsl_mapping.md``, "Adding an elementwise instruction"):

- :func:`binary`: ``op(dst, src0, src1, count)`` or ``op(dst, src0, src1, mask,
  repeat_times, BinaryRepeatParams)``; ``fn(a, b, out=...)`` (a NumPy ufunc);
- :func:`unary`: ``op(dst, src, count)`` or ``op(dst, src, mask, repeat_times,
  UnaryRepeatParams)``; ``fn(x, out=...)``;
- :func:`scalar`: ``op(dst, src, scalar, count)`` or ``op(dst, src, scalar, mask,
  repeat_times, UnaryRepeatParams)``; ``fn(x, scalar, out=...)``, the scalar converted to
  the operands' dtype first.

Arithmetic is done in the operands' dtype, as the vector unit does (NumPy computes a
float16 op in float32 and rounds once, which is the correctly rounded fp16 result).
Unselected destination elements of the mask/repeat form keep their value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from aclsim.isa import Pipe
from aclsim.kernel._core import WIDE_REPEATS, current, float16, float32, int16, int32, uint16, uint32
from aclsim.kernel.mask import MASK_PLACEHOLDER, RESET
from aclsim.kernel.operands import count_view, local_operand
from aclsim.kernel.repeat import (
    ARITH,
    FLOATS,
    UINT,
    BinaryRepeatParams,
    Strided,
    UnaryRepeatParams,
    check_count,
    check_types,
    repeats,
)
from aclsim.kernel.saturation import float_saturation, saturate, saturate_into
from aclsim.kernel.tensor import LocalTensor

#: The bitwise instructions' types on the 910B (And, Or, Not) and the shifts'.
B16_INTS = (int16, uint16)
INTS = (int16, uint16, int32, uint32)


class BinaryOp(Protocol):
    def __call__(self, dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any,
                 is_set_mask: bool | None = None) -> None: ...


class UnaryOp(Protocol):
    def __call__(self, dst: LocalTensor, src: LocalTensor, *args: Any,
                 is_set_mask: bool | None = None) -> None: ...


class ScalarOp(Protocol):
    def __call__(self, dst: LocalTensor, src: LocalTensor, scalar: Any, *args: Any,
                 is_set_mask: bool | None = None) -> None: ...


@dataclass(frozen=True)
class Elementwise:
    """One line of the table: the instruction ``op`` named ``name`` computes ``fn`` on ``dtypes``."""

    name: str
    form: str  # "binary", "unary" or "scalar"
    fn: Callable[..., Any]
    dtypes: tuple[np.dtype, ...]
    op: Callable[..., None]


#: Every instruction of the table, by name, in the order declared.
ELEMENTWISE: dict[str, Elementwise] = {}
#: The recorded op name (the Ascend C name) of the instructions whose Python name differs (``and_``).
ISA_NAME: dict[str, str] = {}


def _declare(name: str, form: str, fn: Callable[..., Any], dtypes: Sequence[np.dtype], doc: str,
             op: Callable[..., None]) -> None:
    if name in ELEMENTWISE:
        raise ValueError(f"elementwise instruction {name!r} declared twice")
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    ELEMENTWISE[name] = Elementwise(name, form, fn, tuple(dtypes), op)


# --- the three forms -----------------------------------------------------------------------------


def _binary(name: str, fn: Callable[..., Any], allowed: Sequence[np.dtype], dst: LocalTensor,
            src0: LocalTensor, src1: LocalTensor, args: tuple[Any, ...], is_set_mask: bool | None) -> None:
    core = current()
    local_operand(core, dst, name, "dst")
    local_operand(core, src0, name, "src0")
    local_operand(core, src1, name, "src1")
    dt = dst.dtype
    if src0.dtype != dt or src1.dtype != dt:
        raise TypeError(f"{name}: operands must share one dtype, got {dst.dtype}, {src0.dtype}, {src1.dtype}")
    check_types(name, dt, allowed)
    if len(args) == 1 and is_set_mask is False:  # one repeat from the mask register
        args = (MASK_PLACEHOLDER, 1, BinaryRepeatParams())
    elif len(args) == 1:
        n = check_count(args[0], name)
        d = count_view(core, dst, n, name, "dst")
        fn(count_view(core, src0, n, name, "src0"), count_view(core, src1, n, name, "src1"), out=d)
        saturate_into(core, d)
        nb = n * dt.itemsize
        reads = (src0.access(nb), src1.access(nb))
        core.emit(Pipe.V, ISA_NAME.get(name, name), reads, (dst.access(nb),),
                  WIDE_REPEATS[(repeats(core, nb), dt.itemsize)])
        core.vmask = RESET
        return
    if len(args) != 3:
        raise TypeError(f"{name}(dst, src0, src1, count) or "
                        f"{name}(dst, src0, src1, mask, repeat_times, params)")
    mask, repeat, p = args
    if not isinstance(p, BinaryRepeatParams):
        raise TypeError(f"{name}: the strided form takes BinaryRepeatParams")
    s = Strided(core, name, dt, mask, repeat, is_set_mask)
    ds, di, da = s.operand(core, dst, p.dst_blk_stride, p.dst_rep_stride, name)
    as_, ai, aa = s.operand(core, src0, p.src0_blk_stride, p.src0_rep_stride, name)
    bs, bi, ba = s.operand(core, src1, p.src1_blk_stride, p.src1_rep_stride, name)
    ds[di] = saturate(core, fn(as_[ai], bs[bi]))
    core.emit(Pipe.V, ISA_NAME.get(name, name), (aa, ba), (da,), WIDE_REPEATS[(s.repeat, dt.itemsize)])


def _unary(name: str, fn: Callable[..., Any], allowed: Sequence[np.dtype], dst: LocalTensor, src: LocalTensor,
           args: tuple[Any, ...], is_set_mask: bool | None) -> None:
    core = current()
    local_operand(core, dst, name, "dst")
    local_operand(core, src, name, "src")
    dt = dst.dtype
    if src.dtype != dt:
        raise TypeError(f"{name}: dst and src must share one dtype, got {dst.dtype}, {src.dtype}")
    check_types(name, dt, allowed)
    if len(args) == 1 and is_set_mask is False:  # one repeat from the mask register
        args = (MASK_PLACEHOLDER, 1, UnaryRepeatParams())
    elif len(args) == 1:
        n = check_count(args[0], name)
        d = count_view(core, dst, n, name, "dst")
        fn(count_view(core, src, n, name, "src"), out=d)
        saturate_into(core, d)
        nb = n * dt.itemsize
        core.emit(Pipe.V, ISA_NAME.get(name, name), (src.access(nb),), (dst.access(nb),),
                  WIDE_REPEATS[(repeats(core, nb), dt.itemsize)])
        core.vmask = RESET
        return
    if len(args) != 3:
        raise TypeError(f"{name}(dst, src, count) or {name}(dst, src, mask, repeat_times, UnaryRepeatParams)")
    mask, repeat, p = args
    if not isinstance(p, UnaryRepeatParams):
        raise TypeError(f"{name}: the strided form takes UnaryRepeatParams")
    s = Strided(core, name, dt, mask, repeat, is_set_mask)
    ds, di, da = s.operand(core, dst, p.dst_blk_stride, p.dst_rep_stride, name)
    ss, si, sa = s.operand(core, src, p.src_blk_stride, p.src_rep_stride, name)
    x = ss[si]
    out = np.empty_like(x)
    fn(x, out=out)
    ds[di] = saturate(core, out)
    core.emit(Pipe.V, ISA_NAME.get(name, name), (sa,), (da,), WIDE_REPEATS[(s.repeat, dt.itemsize)])


def _scalar(name: str, fn: Callable[..., Any], allowed: Sequence[np.dtype], dst: LocalTensor,
            src: LocalTensor, value: Any, args: tuple[Any, ...], is_set_mask: bool | None) -> None:
    dt = dst.dtype
    check_types(name, dt, allowed)
    v = dt.type(value)

    def op(x: np.ndarray, out: np.ndarray) -> None:
        fn(x, v, out=out)

    _unary(name, op, allowed, dst, src, args, is_set_mask)


def binary(name: str, fn: Callable[..., Any], dtypes: Sequence[np.dtype], doc: str,
           isa: str = "") -> BinaryOp:
    """Declare ``name(dst, src0, src1, ...)``: ``dst = fn(src0, src1)`` elementwise (recorded as ``isa``,
    the Ascend C name, where the Python name differs: ``and_`` records ``and``)."""
    if isa:
        ISA_NAME[name] = isa

    def op(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any,
           is_set_mask: bool | None = None) -> None:
        _binary(name, fn, dtypes, dst, src0, src1, args, is_set_mask)

    _declare(name, "binary", fn, dtypes, doc, op)
    return op


def unary(name: str, fn: Callable[..., Any], dtypes: Sequence[np.dtype], doc: str, isa: str = "") -> UnaryOp:
    """Declare ``name(dst, src, ...)``: ``dst = fn(src)`` elementwise (recorded as ``isa`` if given)."""
    if isa:
        ISA_NAME[name] = isa

    def op(dst: LocalTensor, src: LocalTensor, *args: Any, is_set_mask: bool | None = None) -> None:
        _unary(name, fn, dtypes, dst, src, args, is_set_mask)

    _declare(name, "unary", fn, dtypes, doc, op)
    return op


def scalar(name: str, fn: Callable[..., Any], dtypes: Sequence[np.dtype], doc: str) -> ScalarOp:
    """Declare ``name(dst, src, scalar, ...)``: ``dst = fn(src, scalar)`` elementwise."""

    def op(dst: LocalTensor, src: LocalTensor, scalar: Any, *args: Any,
           is_set_mask: bool | None = None) -> None:
        _scalar(name, fn, dtypes, dst, src, scalar, args, is_set_mask)

    _declare(name, "scalar", fn, dtypes, doc, op)
    return op


def duplicate(dst: LocalTensor, scalar: Any, *args: Any, is_set_mask: bool | None = None) -> None:
    """``Duplicate(dst, value, count)`` or ``Duplicate(dst, value, mask, repeat_times, dst_blk_stride,
    dst_rep_stride)``: fill with one value (``is_set_mask``: :mod:`aclsim.kernel.mask`)."""
    core = current()
    name = "duplicate"
    local_operand(core, dst, name, "dst")
    dt = dst.dtype
    v = dt.type(scalar)
    if len(args) == 1 and is_set_mask is False:  # one repeat from the mask register
        args = (MASK_PLACEHOLDER, 1, 1, 8)
    elif len(args) == 1:
        n = check_count(args[0], name)
        count_view(core, dst, n, name, "dst")[...] = v
        nb = n * dt.itemsize
        core.emit(Pipe.V, name, (), (dst.access(nb),), WIDE_REPEATS[(repeats(core, nb), dt.itemsize)])
        core.vmask = RESET
        return
    if len(args) != 4:
        raise TypeError("duplicate(dst, value, count) or duplicate(dst, value, mask, repeat_times, "
                        "dst_blk_stride, dst_rep_stride)")
    mask, repeat, blk, rep = args
    s = Strided(core, name, dt, mask, repeat, is_set_mask)
    ds, di, da = s.operand(core, dst, blk, rep, name)
    ds[di] = v
    core.emit(Pipe.V, name, (), (da,), WIDE_REPEATS[(s.repeat, dt.itemsize)])


# --- functions the table uses beyond NumPy's ufuncs ----------------------------------------------


def _relu(x: np.ndarray, out: np.ndarray) -> None:
    np.maximum(x, x.dtype.type(0), out=out)


def _abs(x: np.ndarray, out: np.ndarray) -> None:
    np.abs(x, out=out)
    if x.dtype == float32 and float_saturation(current()):  # the appendix's Abs table: float NaN -> 0 too
        out[np.isnan(out)] = 0


def _via_f32(fn: Callable[[np.ndarray], np.ndarray]) -> Callable[..., None]:
    def run(x: np.ndarray, out: np.ndarray) -> None:
        out[...] = fn(x.astype(np.float32)).astype(out.dtype)

    return run


_rsqrt = _via_f32(lambda x: np.float32(1) / np.sqrt(x))
_reciprocal = _via_f32(lambda x: np.float32(1) / x)


def _shift_count(x: np.ndarray, s: Any) -> int:
    bits = 8 * x.dtype.itemsize
    n = int(s)
    if not 0 <= n <= bits:
        raise ValueError(f"a shift of {x.dtype} takes 0..{bits} bits, got {n}")
    return n


def _shift_left(x: np.ndarray, s: Any, out: np.ndarray) -> None:
    """Logical left shift for unsigned types; for signed ones the documented arithmetic shift: the
    sign bit stays, the bits below it move left (the bit under the sign is lost)."""
    n, bits = _shift_count(x, s), 8 * x.dtype.itemsize
    u = UINT[x.dtype.itemsize]
    xu = x.view(u)
    moved = xu << u(n) if n < bits else np.zeros_like(xu)
    if x.dtype.kind == "u":
        out[...] = moved
        return
    sign = u(1 << (bits - 1))
    out[...] = ((xu & sign) | (moved & u(~sign))).view(x.dtype)


def _shift_right(x: np.ndarray, s: Any, out: np.ndarray, round_en: bool = False) -> None:
    """Logical right shift for unsigned types, arithmetic (sign copied in) for signed ones; a shift by
    the full width gives 0 (unsigned) or the sign (signed).  ``round_en`` (signed types only) adds
    the last bit shifted out (round half up), as ``ShiftRight``'s ``roundEn`` does."""
    n, bits = _shift_count(x, s), 8 * x.dtype.itemsize
    if x.dtype.kind == "u":
        out[...] = x >> x.dtype.type(n) if n < bits else 0
        return
    r = x >> x.dtype.type(n if n < bits else bits - 1)  # (``min`` is the instruction here)
    if round_en and n >= 1:
        r = r + ((x >> x.dtype.type(n - 1)) & x.dtype.type(1))
    out[...] = r


def _shift_op(name: str, fn: Callable[..., None], doc: str) -> ScalarOp:
    """Declare a shift: the scalar form, its bit count checked before it is converted to the dtype; the
    mask/repeat form of ``shift_right`` takes a trailing ``round_en``."""

    def op(dst: LocalTensor, src: LocalTensor, scalar: Any, *args: Any,
           is_set_mask: bool | None = None) -> None:
        bits = 8 * dst.dtype.itemsize
        if not 0 <= int(scalar) <= bits:
            raise ValueError(f"{name}: a shift of {dst.dtype} takes 0..{bits} bits, got {int(scalar)}")
        run = fn
        if name == "shift_right" and len(args) == 4:
            *rest, round_en = args
            args = tuple(rest)
            if round_en:
                def run(x: np.ndarray, v: Any, out: np.ndarray) -> None:
                    _shift_right(x, v, out, True)
        _scalar(name, run, INTS, dst, src, scalar, args, is_set_mask)

    _declare(name, "scalar", fn, INTS, doc, op)
    return op


def _leaky_relu(x: np.ndarray, alpha: Any, out: np.ndarray) -> None:
    out[...] = np.where(x >= 0, x, x * alpha)


# --- the table: one line an instruction ----------------------------------------------------------
# (``max``, ``min`` and ``abs`` shadow the builtins from here on, as in Ascend C's names)

add = binary("add", np.add, ARITH, "``Add``: ``dst = src0 + src1`` (count form or mask/repeat form).")
sub = binary("sub", np.subtract, ARITH, "``Sub``: ``dst = src0 - src1``.")
mul = binary("mul", np.multiply, ARITH, "``Mul``: ``dst = src0 * src1``.")
div = binary("div", np.divide, FLOATS, "``Div``: ``dst = src0 / src1`` (float types).")
max = binary("max", np.maximum, ARITH, "``Max``: elementwise maximum.")  # noqa: A001
min = binary("min", np.minimum, ARITH, "``Min``: elementwise minimum.")  # noqa: A001
adds = scalar("adds", np.add, ARITH, "``Adds``: ``dst = src + scalar`` (the scalar converted to the dtype).")
muls = scalar("muls", np.multiply, ARITH, "``Muls``: ``dst = src * scalar``.")
maxs = scalar("maxs", np.maximum, ARITH, "``Maxs``: ``dst = max(src, scalar)``.")
mins = scalar("mins", np.minimum, ARITH, "``Mins``: ``dst = min(src, scalar)``.")
exp = unary("exp", np.exp, FLOATS, "``Exp``.")
ln = unary("ln", np.log, FLOATS, "``Ln`` (NaN for negative inputs, -inf for 0, as IEEE).")
sqrt = unary("sqrt", np.sqrt, FLOATS, "``Sqrt``.")
abs = unary("abs", _abs, ARITH, "``Abs``.")  # noqa: A001
relu = unary("relu", _relu, (*FLOATS, int32), "``Relu``: ``max(src, 0)``.")
rsqrt = unary("rsqrt", _rsqrt, FLOATS, "``Rsqrt``: ``1 / sqrt(src)`` (float32, rounded once).")
reciprocal = unary("reciprocal", _reciprocal, FLOATS, "``Reciprocal``: ``1 / src`` (float32, rounded once).")
# issue 13: bitwise, shifts, LeakyRelu (``and``/``or``/``not`` are Python keywords: ``and_``/``or_``/``not_``)
and_ = binary("and_", np.bitwise_and, B16_INTS, "``And``: bitwise ``src0 & src1`` (int16, uint16).",
              isa="and")
or_ = binary("or_", np.bitwise_or, B16_INTS, "``Or``: bitwise ``src0 | src1`` (int16, uint16).", isa="or")
not_ = unary("not_", np.invert, B16_INTS, "``Not``: bitwise ``~src`` (int16, uint16).", isa="not")
shift_left = _shift_op("shift_left", _shift_left,
                       "``ShiftLeft(dst, src, bits, count)`` / ``(…, mask, repeat_times, "
                       "UnaryRepeatParams)``: logical (unsigned) or arithmetic (signed: the sign bit stays) "
                       "left shift by 0..bit-width bits.")
shift_right = _shift_op("shift_right", _shift_right,
                        "``ShiftRight(dst, src, bits, count)`` / ``(…, mask, repeat_times, UnaryRepeatParams"
                        "[, round_en])``: logical (unsigned) or arithmetic (signed) right shift by "
                        "0..bit-width bits; ``round_en`` adds the last bit shifted out (signed types).")
leaky_relu = scalar("leaky_relu", _leaky_relu, (float16, float32),
                    "``LeakyRelu(dst, src, alpha, ...)``: ``src`` where ``src >= 0``, else ``src * alpha``.")

__all__ = ["duplicate", *ELEMENTWISE]
