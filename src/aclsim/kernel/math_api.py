"""The high-level elementwise math APIs: ``Floor``, ``Ceil``, ``Trunc``, ``Round``, ``Frac``, ``Log``,
``Log2``, ``Log10``, ``Sigmoid``, ``Tanh``, ``Sign``, ``Xor``, and their host functions
(``GetXxxMaxMinTmpSize``, ``GetXxxTmpBufferFactorSize``).

Each kernel-side function takes ``(dst, src[, shared_tmp_buffer][, count])`` (no count: the
whole source, ``src.get_size()``) and the template switch ``is_reuse_source`` (reserved, as
documented).  It works as the library does on the 910B (arch 220; the 310P preset runs the same
sequence): the count split into passes of ``split`` elements that the temporary buffer holds
(``split`` from the buffer's size; a buffer too small for one pass faults, as the library's
``CheckTmpBufferSize`` asserts), and per pass the library's basic vector instructions in
counter mode (here their count form), each recorded, a ``pipe_barrier(PIPE_V)`` between
dependent steps, so the core model times them and the race sanitizer sees every read and
write, the temporary buffer's included:

- ``floor``/``ceil``/``trunc``/``round``: float: one ``cast`` float -> float with CAST_FLOOR,
  CAST_CEIL, CAST_TRUNC, CAST_RINT (``Round`` is round-half-to-even, as the library's CAST_RINT);
  half: ``cast`` to float in the buffer, the same ``cast`` in place, ``cast`` back;
- ``frac``: ``x - trunc(x)`` (``cast`` CAST_TRUNC, ``sub``; half in float through the buffer);
- ``xor`` (int16, uint16): ``and``, ``or`` into the buffer, ``not``, ``and``;
- ``log``: ``ln``; ``log10``: ``ln`` then ``muls`` by 1/ln 10 in the operands' type; ``log2``:
  float ``ln`` then ``muls`` by 1/ln 2, half through a float buffer (cast, ln, muls, cast);
- ``sigmoid``: in the operands' type, ``muls`` by -1, ``exp``, ``adds`` 1, ``duplicate`` 1 into
  the buffer, ``div`` (so ``1 / (1 + exp(-x))``, each step rounded);
- ``tanh``: in float (half cast in and out), x clipped to [-8.8, 8.8] (``mins``, ``maxs``), then
  ``(exp(2x) - 1) / (exp(2x) + 1)`` (``muls``, ``exp``, ``adds`` -1 and +1, ``div``);
- ``sign``: ``duplicate`` 0, ``compare`` LT and GT against it into two bit masks, two ``select``
  of 1 / -1 and an ``add``: -1, 0 or 1, and 0 for NaN and -0.  (The library's compares run whole
  256 B repeats in normal mode, reading up to the next repeat boundary; aclsim compares the count
  exactly (``compare_exact``) and records those reads, so that a last pass short of a repeat at
  the end of a buffer raises no fault.)

The host functions return ``(max_value, min_value)`` and ``(max_live_node_count, extra_buf)``
with the library's figures.  Without a ``shared_tmp_buffer`` the API takes the UB above the
TPipe's buffers (the library's stack buffer).  The documented constraints are checked: dtypes
(half and float), the buffer not overlapping ``src``/``dst`` (a fault with the line).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from aclsim.errors import KernelFault
from aclsim.isa import Space
from aclsim.kernel._core import Core, current, fault_code, float16, float32, uint8
from aclsim.kernel.comparison import CMPMODE, SELMODE, compare_exact, select
from aclsim.kernel.conversion import RoundMode, cast
from aclsim.kernel.elementwise import (
    B16_INTS,
    add,
    adds,
    and_,
    div,
    duplicate,
    exp,
    ln,
    maxs,
    mins,
    muls,
    not_,
    or_,
    sub,
)
from aclsim.kernel.operands import local_operand
from aclsim.kernel.placed import local_tensor
from aclsim.kernel.sync import PIPE_V, pipe_barrier
from aclsim.kernel.tensor import LocalTensor, TPosition

ONE_BLK = 32  # ONE_BLK_SIZE: a pass is a multiple of 32 elements where the library rounds it
REPEAT = 256  # ONE_REPEAT_BYTE_SIZE
F32 = 4
HALF_FLOAT = (float16, float32)


# --- the shared frame: operands, the temporary buffer, the passes ---------------------------------


class Call:
    """One high-level call: checked operands, the temporary buffer, the element count."""

    __slots__ = ("core", "name", "dst", "src", "count", "_tmp")

    def __init__(self, core: Core, name: str, dst: LocalTensor, src: LocalTensor, tmp: LocalTensor | None,
                 count: int) -> None:
        self.core, self.name, self.dst, self.src, self.count, self._tmp = core, name, dst, src, count, tmp

    @property
    def tmp(self) -> LocalTensor:
        """The temporary buffer as bytes: the one given, else the framework's (taken when first used)."""
        if self._tmp is None:
            self._tmp = framework_buffer(self.core)
        return self._tmp

    def passes(self, split: int) -> list[tuple[int, int]]:
        """``(offset, n)`` of each pass of at most ``split`` elements."""
        if split <= 0:
            self.core.fault(
                KernelFault,
                f"{self.name}: the temporary buffer ({self.tmp.size} B) is too small for one pass",
                hint=f"give it at least the min_value of get_{self.name}_max_min_tmp_size",
                code=fault_code(Space.UB),
            )
        return [(o, min(split, self.count - o)) for o in range(0, self.count, split)]

    def tmp_as(self, dtype: Any, start_byte: int, n: int) -> LocalTensor:
        """``n`` elements of ``dtype`` of the buffer from byte ``start_byte``."""
        return self.tmp[start_byte : start_byte + n * np.dtype(dtype).itemsize].reinterpret_cast(dtype)


def framework_buffer(core: Core) -> LocalTensor:
    """The UB above the TPipe's buffers, as bytes (the library's stack buffer)."""
    pipe = core.pipe
    start = pipe.used[Space.UB] if pipe is not None else 0
    start = -(-start // ONE_BLK) * ONE_BLK
    return local_tensor(uint8, TPosition.VECCALC, start, max(0, core.chip.ub_usable_bytes - start))


def _overlap(a: LocalTensor, a_bytes: int, b: LocalTensor, b_bytes: int) -> bool:
    return a.offset < b.offset + b_bytes and b.offset < a.offset + a_bytes


def parse(name: str, args: tuple[Any, ...], dtypes: Sequence[np.dtype],
          others: Sequence[tuple[str, LocalTensor]] = ()) -> Call:
    """``(dst, src[, shared_tmp_buffer][, count])`` checked: operands in UB, one dtype of ``dtypes``,
    the count (default: all of ``src``), the buffer (default: the framework's) clear of ``src``/``dst``
    and of the ``others`` (a second source: ``(name, tensor)``)."""
    core = current()
    if len(args) < 2 or len(args) > 4:
        raise TypeError(f"{name}(dst, src[, shared_tmp_buffer][, count])")
    dst, src, *rest = args
    local_operand(core, dst, name, "dst")
    local_operand(core, src, name, "src")
    if dst.dtype != src.dtype or dst.dtype not in dtypes:
        allowed = ", ".join(str(d) for d in dtypes)
        raise TypeError(f"{name}: dst and src must share one dtype of {allowed}, "
                        f"got {dst.dtype}, {src.dtype}")
    tmp = rest.pop(0) if rest and isinstance(rest[0], LocalTensor) else None
    if len(rest) > 1 or rest and isinstance(rest[0], LocalTensor):
        raise TypeError(f"{name}(dst, src[, shared_tmp_buffer][, count])")
    count = int(rest[0]) if rest else src.size
    if count < 0:
        raise ValueError(f"{name}: count must be >= 0, got {count}")
    if tmp is not None:
        local_operand(core, tmp, name, "shared_tmp_buffer")
        tmp = tmp.reinterpret_cast(uint8)
        nb = count * src.dtype.itemsize
        for what, t in (("src", src), ("dst", dst), *others):
            if _overlap(tmp, tmp.size, t, nb):
                core.fault(
                    KernelFault,
                    f"{name}: shared_tmp_buffer UB[{tmp.offset}:{tmp.offset + tmp.size}] overlaps {what} "
                    f"UB[{t.offset}:{t.offset + nb}]",
                    hint="the documentation forbids it: give the temporary buffer its own UB",
                    code=fault_code(Space.UB),
                )
    return Call(core, name, dst, src, tmp, count)


def _float_split(c: Call, live: int = 1) -> int:
    """Elements per pass of a float buffer shared by ``live`` float temporaries (a multiple of 32)."""
    return c.tmp.size // F32 // live // ONE_BLK * ONE_BLK


# --- Floor, Ceil, Trunc, Round ------------------------------------------------------------------


def _rounding(name: str, mode: RoundMode, args: tuple[Any, ...], float_passes: bool) -> None:
    """Half: per pass ``cast`` to float in the buffer, ``cast`` with ``mode`` in place, ``cast`` back.
    Float: one ``cast`` float -> float with ``mode`` (``float_passes``: one per pass of the buffer's
    floats, as the library's Ceil and Trunc split a float source too)."""
    c = parse(name, args, HALF_FLOAT)
    if c.src.dtype == float32 and not float_passes:
        cast(c.dst, c.src, mode, c.count)
        return
    for o, n in c.passes(_float_split(c)):
        if c.src.dtype == float32:
            cast(c.dst[o:], c.src[o:], mode, n)
            pipe_barrier(PIPE_V)
            continue
        work = c.tmp_as(float32, 0, n)
        cast(work, c.src[o:], RoundMode.CAST_NONE, n)
        pipe_barrier(PIPE_V)
        cast(work, work, mode, n)
        pipe_barrier(PIPE_V)
        cast(c.dst[o:], work, RoundMode.CAST_NONE, n)
        pipe_barrier(PIPE_V)


def floor(*args: Any, is_reuse_source: bool = False) -> None:
    """``Floor(dst, src[, sharedTmpBuffer][, calCount])``: round toward -inf (half, float)."""
    _rounding("floor", RoundMode.CAST_FLOOR, args, False)


def ceil(*args: Any, is_reuse_source: bool = False) -> None:
    """``Ceil(dst, src[, sharedTmpBuffer][, calCount])``: round toward +inf (half, float)."""
    _rounding("ceil", RoundMode.CAST_CEIL, args, True)


def trunc(*args: Any, is_reuse_source: bool = False) -> None:
    """``Trunc(dst, src[, sharedTmpBuffer][, calCount])``: round toward 0 (half, float)."""
    _rounding("trunc", RoundMode.CAST_TRUNC, args, True)


def round(*args: Any, is_reuse_source: bool = False) -> None:  # noqa: A001
    """``Round(dst, src[, sharedTmpBuffer][, calCount])``: round to the nearest integer, ties to even
    (the library's CAST_RINT) (half, float)."""
    _rounding("round", RoundMode.CAST_RINT, args, False)


def frac(*args: Any, is_reuse_source: bool = False) -> None:
    """``Frac(dst, src[, sharedTmpBuffer][, calCount])``: ``x - trunc(x)`` (float: ``cast`` CAST_TRUNC and
    ``sub`` over the count; half: both in float through the buffer, two floats an element)."""
    c = parse("frac", args, HALF_FLOAT)
    if c.src.dtype == float32:
        cast(c.dst, c.src, RoundMode.CAST_TRUNC, c.count)
        pipe_barrier(PIPE_V)
        sub(c.dst, c.src, c.dst, c.count)
        pipe_barrier(PIPE_V)
        return
    split = _float_split(c, 2)
    for o, n in c.passes(split):
        x, t = c.tmp_as(float32, 0, n), c.tmp_as(float32, split * F32, n)
        cast(x, c.src[o:], RoundMode.CAST_NONE, n)
        pipe_barrier(PIPE_V)
        cast(t, x, RoundMode.CAST_TRUNC, n)
        pipe_barrier(PIPE_V)
        sub(t, x, t, n)
        pipe_barrier(PIPE_V)
        cast(c.dst[o:], t, RoundMode.CAST_NONE, n)
        pipe_barrier(PIPE_V)


def xor(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *rest: Any,
        is_reuse_source: bool = False) -> None:
    """``Xor(dst, src0, src1[, sharedTmpBuffer][, calCount])``: bitwise ``(a | b) & ~(a & b)`` (int16,
    uint16): ``and``, ``or`` into the buffer, ``not``, ``and``; the buffer's ``size / sizeof(T)``
    elements (a multiple of 32) per pass."""
    c = parse("xor", (dst, src0, *rest), B16_INTS, (("src1", src1),))
    local_operand(c.core, src1, "xor", "src1")
    if src1.dtype != src0.dtype:
        raise TypeError(f"xor: src0 and src1 must share one dtype, got {src0.dtype}, {src1.dtype}")
    dt = src0.dtype
    for o, n in c.passes(c.tmp.size // dt.itemsize // ONE_BLK * ONE_BLK):
        d, t = c.dst[o:], c.tmp_as(dt, 0, n)
        and_(d, src0[o:], src1[o:], n)
        or_(t, src0[o:], src1[o:], n)
        pipe_barrier(PIPE_V)
        not_(d, d, n)
        pipe_barrier(PIPE_V)
        and_(d, t, d, n)
        pipe_barrier(PIPE_V)


def _clamp(name: str, fn: Any, args: tuple[Any, ...]) -> None:
    """``(dst, src[, sharedTmpBuffer], scalar, calCount)``: one ``maxs``/``mins`` over the count."""
    if len(args) not in (4, 5):
        raise TypeError(f"{name}(dst, src[, shared_tmp_buffer], scalar, count)")
    *head, scalar, count = args
    c = parse(name, (*head, count), HALF_FLOAT)
    fn(c.dst, c.src, scalar, c.count)
    pipe_barrier(PIPE_V)


def clamp_max(*args: Any, is_reuse_source: bool = False) -> None:
    """``ClampMax(dst, src[, sharedTmpBuffer], scalar, calCount)``: ``min(src, scalar)`` (one ``mins``;
    half, float; the buffer is not used)."""
    _clamp("clamp_max", mins, args)


def clamp_min(*args: Any, is_reuse_source: bool = False) -> None:
    """``ClampMin(dst, src[, sharedTmpBuffer], scalar, calCount)``: ``max(src, scalar)`` (one ``maxs``)."""
    _clamp("clamp_min", maxs, args)


def get_clamp_max_min_tmp_size(src_shape: Sequence[int] | int, type_size: int,
                               is_reuse_source: bool = False) -> tuple[int, int]:
    """``GetClampMaxMinTmpSize``: ``(max(n, 64), 64)`` bytes for float, ``(max(n, 128), 128)`` for half
    (the library's figures; ClampMax/ClampMin use none of it)."""
    n = _size(src_shape, type_size, "GetClampMaxMinTmpSize")
    least = 64 if type_size == 4 else 128
    return max(n, least), least


# --- Log, Log2, Log10 -----------------------------------------------------------------------------

LN2_RECIPROCAL = 1.4426950408889634
LN10_RECIPROCAL = 0.43429448190325176


def log(*args: Any, is_reuse_source: bool = False) -> None:
    """``Log(dst, src[, calCount])``: the natural logarithm (one ``ln``; half, float)."""
    c = parse("log", args, HALF_FLOAT)
    ln(c.dst, c.src, c.count)


def log10(*args: Any, is_reuse_source: bool = False) -> None:
    """``Log10(dst, src[, calCount])``: ``ln`` then ``muls`` by 1/ln 10, in the operands' type."""
    c = parse("log10", args, HALF_FLOAT)
    ln(c.dst, c.src, c.count)
    pipe_barrier(PIPE_V)
    muls(c.dst, c.dst, LN10_RECIPROCAL, c.count)


def log2(*args: Any, is_reuse_source: bool = False) -> None:
    """``Log2(dst, src[, sharedTmpBuffer][, calCount])``: ``ln`` then ``muls`` by 1/ln 2; half goes
    through float in the buffer (``cast``, ``ln``, ``muls``, ``cast``)."""
    c = parse("log2", args, HALF_FLOAT)
    if c.src.dtype == float32:
        ln(c.dst, c.src, c.count)
        pipe_barrier(PIPE_V)
        muls(c.dst, c.dst, LN2_RECIPROCAL, c.count)
        return
    for o, n in c.passes(_float_split(c)):
        work = c.tmp_as(float32, 0, n)
        cast(work, c.src[o:], RoundMode.CAST_NONE, n)
        pipe_barrier(PIPE_V)
        ln(work, work, n)
        pipe_barrier(PIPE_V)
        muls(work, work, LN2_RECIPROCAL, n)
        pipe_barrier(PIPE_V)
        cast(c.dst[o:], work, RoundMode.CAST_NONE, n)
        pipe_barrier(PIPE_V)


# --- Sigmoid, Tanh, Sign ------------------------------------------------------------------------


def sigmoid(*args: Any, is_reuse_source: bool = False) -> None:
    """``Sigmoid(dst, src[, sharedTmpBuffer][, calCount])``: ``1 / (1 + exp(-x))`` in the operands'
    type (half, float), the buffer holding the ones of the division (``size / sizeof(T)`` per pass)."""
    c = parse("sigmoid", args, HALF_FLOAT)
    dt = c.src.dtype
    for o, n in c.passes(c.tmp.size // dt.itemsize):
        d, ones = c.dst[o:], c.tmp_as(dt, 0, n)
        pipe_barrier(PIPE_V)
        muls(d, c.src[o:], -1.0, n)
        pipe_barrier(PIPE_V)
        exp(d, d, n)
        pipe_barrier(PIPE_V)
        adds(d, d, 1.0, n)
        duplicate(ones, 1.0, n)
        pipe_barrier(PIPE_V)
        div(d, ones, d, n)
        pipe_barrier(PIPE_V)


def _silu_like(name: str, dst: LocalTensor, src: LocalTensor, data_size: Any, factor: Any) -> None:
    """``dst = src / (1 + exp(factor * src))`` in the operands' type, one instruction each over the count."""
    c = parse(name, (dst, src, data_size), HALF_FLOAT)
    muls(c.dst, c.src, factor, c.count)
    pipe_barrier(PIPE_V)
    exp(c.dst, c.dst, c.count)
    pipe_barrier(PIPE_V)
    adds(c.dst, c.dst, 1.0, c.count)
    pipe_barrier(PIPE_V)
    div(c.dst, c.src, c.dst, c.count)
    pipe_barrier(PIPE_V)


def silu(dst: LocalTensor, src: LocalTensor, data_size: int, *, is_reuse_source: bool = False) -> None:
    """``Silu(dst, src, dataSize)``: ``x / (1 + exp(-x))`` in the operands' type (``muls`` -1, ``exp``,
    ``adds`` 1, ``div``; half, float; no buffer)."""
    _silu_like("silu", dst, src, data_size, -1.0)


def swish(dst: LocalTensor, src: LocalTensor, data_size: int, scalar_value: Any, *,
          is_reuse_source: bool = False) -> None:
    """``Swish(dst, src, dataSize, scalarValue)``: ``x / (1 + exp(-beta x))`` in the operands' type, ``beta``
    the scalar (negated in float, then converted to the type, as the library)."""
    dt = dst.dtype if isinstance(dst, LocalTensor) else np.dtype(np.float32)
    _silu_like("swish", dst, src, data_size, -float(dt.type(scalar_value)))  # beta in T, negated


TANH_CLIP = 8.8


def tanh(*args: Any, is_reuse_source: bool = False) -> None:
    """``Tanh(dst, src[, sharedTmpBuffer][, calCount])``: ``(exp(2x) - 1) / (exp(2x) + 1)`` of x clipped
    to [-8.8, 8.8], in float (half cast in and out); the buffer holds one float temporary per pass
    (float) or two (half)."""
    c = parse("tanh", args, HALF_FLOAT)
    half = c.src.dtype == float16
    stack = _float_split(c, 2 if half else 1)
    for o, n in c.passes(stack):
        clip = c.tmp_as(float32, (stack * F32 if half else 0), n)
        x = c.src[o:]
        out = c.dst[o:]
        if half:
            x = out = c.tmp_as(float32, 0, n)
            cast(x, c.src[o:], RoundMode.CAST_NONE, n)
            pipe_barrier(PIPE_V)
        mins(clip, x, TANH_CLIP, n)
        pipe_barrier(PIPE_V)
        maxs(clip, clip, -TANH_CLIP, n)
        pipe_barrier(PIPE_V)
        muls(clip, clip, 2.0, n)
        pipe_barrier(PIPE_V)
        exp(clip, clip, n)
        pipe_barrier(PIPE_V)
        adds(out, clip, -1.0, n)
        pipe_barrier(PIPE_V)
        adds(clip, clip, 1.0, n)
        pipe_barrier(PIPE_V)
        div(out, out, clip, n)
        pipe_barrier(PIPE_V)
        if half:
            cast(c.dst[o:], out, RoundMode.CAST_NONE, n)
            pipe_barrier(PIPE_V)


def sign(*args: Any, is_reuse_source: bool = False) -> None:
    """``Sign(dst, src[, sharedTmpBuffer][, calCount])``: -1, 0 or 1 (0 for NaN and -0; half, float).
    The buffer: two bit masks of a pass (32 B aligned) and two temporaries of the operands' type."""
    c = parse("sign", args, HALF_FLOAT)
    dt = c.src.dtype
    split = c.tmp.size // dt.itemsize // 3 // ONE_BLK * ONE_BLK
    mask_len = -(-(split // 8) // ONE_BLK) * ONE_BLK
    lt = c.tmp[0:mask_len]
    gt = c.tmp[mask_len : 2 * mask_len]
    t3 = c.tmp_as(dt, 2 * mask_len, split)
    t4 = c.tmp_as(dt, 2 * mask_len + split * dt.itemsize, split)
    for o, n in c.passes(split):
        d, s = c.dst[o:], c.src[o:]
        duplicate(d, 0.0, n)
        pipe_barrier(PIPE_V)
        compare_exact(lt, s, d, CMPMODE.LT, n)  # counter mode: the count exactly (see above)
        compare_exact(gt, s, d, CMPMODE.GT, n)
        duplicate(t3, 1.0, n)
        pipe_barrier(PIPE_V)
        select(t4, lt, d, 1.0, SELMODE.VSEL_TENSOR_SCALAR_MODE, n)  # x < 0: 0, else 1
        pipe_barrier(PIPE_V)
        duplicate(t3, -1.0, n)
        pipe_barrier(PIPE_V)
        select(d, gt, d, -1.0, SELMODE.VSEL_TENSOR_SCALAR_MODE, n)  # x > 0: 0, else -1
        pipe_barrier(PIPE_V)
        add(d, t4, d, n)
        pipe_barrier(PIPE_V)


# --- host: GetXxxMaxMinTmpSize, GetXxxTmpBufferFactorSize ----------------------------------------


def _size(src_shape: Sequence[int] | int, type_size: int, what: str, sizes: Sequence[int] = (2, 4)) -> int:
    dims = [int(src_shape)] if isinstance(src_shape, int) else [int(d) for d in src_shape]
    n = 1
    for d in dims:
        n *= d
    if not dims or n <= 0:
        raise ValueError(f"{what}: the shape {tuple(dims)} must have a positive size")
    if type_size not in sizes:
        raise ValueError(f"{what}: type_size {type_size}: it takes {' or '.join(map(str, sizes))}")
    return n


@dataclass(frozen=True)
class TmpFigures:
    """The library's temporary-buffer figures of one API: live float (or ``T``) nodes per element by
    type size, and whether the maximum is ``max(n * typeSize, 256)`` times the nodes (else with
    ``factor`` 0 both are 0)."""

    half: int
    single: int

    def live(self, type_size: int) -> int:
        return self.half if type_size == 2 else self.single

    def max_min(self, n: int, type_size: int) -> tuple[int, int]:
        k = self.live(type_size)
        return k * max(n * type_size, REPEAT), k * REPEAT


#: Per API: live nodes (half, float), from the library's tiling functions (arch 220).
FIGURES: dict[str, TmpFigures] = {
    "floor": TmpFigures(2, 0),
    "ceil": TmpFigures(2, 1),
    "trunc": TmpFigures(2, 1),
    "round": TmpFigures(1, 1),
    "log": TmpFigures(0, 0),
    "log10": TmpFigures(0, 0),
    "tanh": TmpFigures(4, 1),
    "sign": TmpFigures(3, 3),
    "frac": TmpFigures(4, 0),
    "xor": TmpFigures(1, 1),
}


def _max_min(name: str) -> Callable[..., tuple[int, int]]:
    fig = FIGURES[name]
    api = "".join(p.capitalize() for p in name.split("_"))

    def get(src_shape: Sequence[int] | int, type_size: int, is_reuse_source: bool = False) -> tuple[int, int]:
        return fig.max_min(_size(src_shape, type_size, f"Get{api}MaxMinTmpSize"), type_size)

    get.__name__ = get.__qualname__ = f"get_{name}_max_min_tmp_size"
    get.__doc__ = (f"``Get{api}MaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)``: "
                   f"``(max_value, min_value)`` bytes of temporary buffer for ``{name}``.")
    return get


def _factor(name: str) -> Callable[[int], tuple[int, int]]:
    fig = FIGURES[name]
    api = "".join(p.capitalize() for p in name.split("_"))

    def get(type_size: int) -> tuple[int, int]:
        _size(1, type_size, f"Get{api}TmpBufferFactorSize")
        return fig.live(type_size), 0

    get.__name__ = get.__qualname__ = f"get_{name}_tmp_buffer_factor_size"
    get.__doc__ = (f"``Get{api}TmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)``: "
                   f"``(max_live_node_count, extra_buf)`` for ``{name}``: a buffer of ``b`` bytes holds "
                   "``(b - extra_buf) / max_live_node_count / typeSize`` elements per pass.")
    return get


get_floor_max_min_tmp_size = _max_min("floor")
get_floor_tmp_buffer_factor_size = _factor("floor")
get_ceil_max_min_tmp_size = _max_min("ceil")
get_ceil_tmp_buffer_factor_size = _factor("ceil")
get_trunc_max_min_tmp_size = _max_min("trunc")
get_trunc_tmp_buffer_factor_size = _factor("trunc")
get_round_max_min_tmp_size = _max_min("round")
get_round_tmp_buffer_factor_size = _factor("round")
get_log_max_min_tmp_size = _max_min("log")
get_log_tmp_buffer_factor_size = _factor("log")
get_log10_max_min_tmp_size = _max_min("log10")
get_log10_tmp_buffer_factor_size = _factor("log10")
get_tanh_max_min_tmp_size = _max_min("tanh")
get_tanh_tmp_buffer_factor_size = _factor("tanh")
get_sign_max_min_tmp_size = _max_min("sign")
get_sign_tmp_buffer_factor_size = _factor("sign")
get_frac_max_min_tmp_size = _max_min("frac")
get_frac_tmp_buffer_factor_size = _factor("frac")
get_xor_max_min_tmp_size = _max_min("xor")
get_xor_tmp_buffer_factor_size = _factor("xor")


def get_log2_max_min_tmp_size(
    src_shape: Sequence[int] | int, type_size: int, is_reuse_source: bool = False
) -> tuple[int, int]:
    """``GetLog2MaxMinTmpSize``: half ``(max(n * 4, 256), 256)``, float ``(0, 0)``."""
    n = _size(src_shape, type_size, "GetLog2MaxMinTmpSize")
    return (max(n * F32, REPEAT), REPEAT) if type_size == 2 else (0, 0)


def get_log2_tmp_buffer_factor_size(type_size: int) -> tuple[int, int]:
    """``GetLog2TmpBufferFactorSize``: ``(2, 0)`` for half (a float per element), ``(0, 0)`` for float."""
    _size(1, type_size, "GetLog2TmpBufferFactorSize")
    return (2 if type_size == 2 else 0), 0


def get_sigmoid_max_min_tmp_size(
    src_shape: Sequence[int] | int, type_size: int, is_reuse_source: bool = False
) -> tuple[int, int]:
    """``GetSigmoidMaxMinTmpSize``: ``(max(n * typeSize, 256), 256)``."""
    n = _size(src_shape, type_size, "GetSigmoidMaxMinTmpSize")
    return max(n * type_size, REPEAT), REPEAT
