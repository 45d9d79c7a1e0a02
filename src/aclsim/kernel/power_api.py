"""The high-level ``Power`` API and its host functions (``GetPowerMaxMinTmpSize``,
``GetPowerTmpBufferFactorSize``).

``power(dst, base, exp[, shared_tmp_buffer][, count])``: ``base`` and ``exp`` both tensors, or one of
them a scalar (Ascend C's three forms); half, float, int32.  As the library does on the 910B:

- float (half: cast to float in the buffer, the result cast back):
  ``exp(y * ln|x|)`` (``abs``, ``ln``, ``mul``, ``exp``), times -1 where ``x`` is negative (its sign
  bit: ``shift_right`` of the bits by 31, ``compare_scalar``) and ``y`` an odd integer (``|y|``
  within 1e-8 of ``rint|y|``; odd from ``rint|y| - 2 floor(rint|y| / 2)``, float -> float ``cast``),
  then 1 where ``y`` is 0, or ``x`` is 1, or ``x`` is -1 and ``y`` infinite, then NaN where ``x`` is
  negative (not -inf) and ``y`` finite and not an integer; the masks combined with ``and``/``or`` on
  their bits (uint16 lanes), the picks with ``select`` (tensor / scalar).  So the result is the
  float32 rounding of each step, not a correctly rounded ``x ** y``: ``2 ** 10`` may be 1023.9999.
- int32: ``x ** |y|`` by square-and-multiply in wrapping int32 arithmetic (``mul`` of the running
  result by itself while the halved exponent (``shift_right``) is non-zero, then by ``x`` up to
  ``|y|``, each round's continuation decided by a float ``reduce_sum`` read on the scalar pipe),
  ``x ** 0 = 1``; a negative ``y`` gives ``trunc(1 / x ** |y|)`` (so 1, -1 or 0; 0 for ``x`` 0).

The count goes in passes that the buffer holds (live values per element: float 4 (tensor, tensor) or
5 (with a scalar), half 7, int32 6 or 7, plus 256 B for the float forms' constants), the layout of the
library's.  A scalar operand is ``duplicate``d into the buffer once.  A buffer too small for one pass
faults at the kernel line (the library's ``CheckTmpBufferSize``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from aclsim.isa import HardEvent
from aclsim.kernel._core import current, float16, float32, int32, uint16, uint32
from aclsim.kernel.comparison import CMPMODE, SELMODE, compare_exact, select
from aclsim.kernel.conversion import RoundMode, cast
from aclsim.kernel.elementwise import abs as v_abs
from aclsim.kernel.elementwise import adds, and_, div, duplicate, exp, ln, mul, muls, or_, shift_right, sub
from aclsim.kernel.math_api import ONE_BLK, REPEAT, Call, parse
from aclsim.kernel.operands import local_operand
from aclsim.kernel.reduction import reduce_sum
from aclsim.kernel.sync import PIPE_V, pipe_barrier, set_flag, wait_flag
from aclsim.kernel.tensor import LocalTensor

F32 = 4
#: Live values per element (the 910B's figures): (tensor, tensor) and (tensor, scalar) forms.
LIVE = {(2, True): 7, (2, False): 7, (4, True): 4, (4, False): 5, ("int", True): 6, ("int", False): 7}
#: The tiling's figures (GetPowerMaxMinTmpSize): half counts its nodes twice over.
TILING_LIVE = {(2, True): 14, (2, False): 14, (4, True): 4, (4, False): 5,
               ("int", True): 6, ("int", False): 7}
INT_THRESHOLD = 1e-8


def power(dst: LocalTensor, base: Any, exponent: Any, *rest: Any, is_reuse_source: bool = False) -> None:
    """``Power(dst, src0, src1[, sharedTmpBuffer][, calCount])``: ``src0 ** src1`` elementwise; one of the two
    may be a scalar (half, float, int32)."""
    name = "power"
    core = current()
    b_t, e_t = isinstance(base, LocalTensor), isinstance(exponent, LocalTensor)
    if not (b_t or e_t):
        raise TypeError("power: base or exponent must be a LocalTensor "
                        "(Power(dst, tensor|scalar, tensor|scalar))")
    tensor = base if b_t else exponent
    local_operand(core, tensor, name, "src0" if b_t else "src1")
    if b_t and e_t:
        local_operand(core, exponent, name, "src1")
        if exponent.dtype != base.dtype:
            raise TypeError(f"power: src0 and src1 must share one dtype, got {base.dtype}, {exponent.dtype}")
    others = (("src1", exponent),) if b_t and e_t else ()
    c = parse(name, (dst, tensor, *rest), (float16, float32, int32), others)
    _Power(c, base, exponent, b_t and e_t).run()


class _Power:
    def __init__(self, c: Call, base: Any, exponent: Any, both: bool) -> None:
        self.c, self.base, self.exponent, self.both = c, base, exponent, both
        dt = c.src.dtype
        self.key: Any = "int" if dt == int32 else dt.itemsize
        live = LIVE[(self.key, both)]
        extra = 0 if dt == int32 else REPEAT
        self.split = max(0, c.tmp.size - extra) // F32 // live // ONE_BLK * ONE_BLK
        if c.tmp.size < extra:
            self.split = 0

    def _operand(self, v: Any, o: int) -> Any:
        return v[o:] if isinstance(v, LocalTensor) else v

    def run(self) -> None:
        c = self.c
        passes = c.passes(self.split)
        if c.src.dtype == int32:
            self._run_int(passes)
            return
        s = self.split
        consts = c.tmp_as(float32, 0, 16)
        off = REPEAT
        half = c.src.dtype == float16
        if half:
            xs, ys, out = (c.tmp_as(float32, off + i * s * F32, s) for i in range(3))
            off += 3 * s * F32
        elif not self.both:  # the scalar operand's floats
            xs = ys = out = c.tmp_as(float32, off, s)
            off += s * F32
        work = _FloatWork(c, off, s)
        duplicate(consts[0:8], 1.0, 8)
        duplicate(consts[8:16], np.float32(np.nan), 8)
        for scalar, slot in ((self.base, "x"), (self.exponent, "y")):
            if not isinstance(scalar, LocalTensor):
                duplicate(xs if slot == "x" else ys, float(scalar), s)
        pipe_barrier(PIPE_V)
        for o, n in passes:
            if half:
                for v, buf in ((self.base, xs), (self.exponent, ys)):
                    if isinstance(v, LocalTensor):
                        cast(buf, v[o:], RoundMode.CAST_NONE, n)
                pipe_barrier(PIPE_V)
                x, y, d = xs, ys, out
            else:
                x = self.base[o:] if isinstance(self.base, LocalTensor) else xs
                y = self.exponent[o:] if isinstance(self.exponent, LocalTensor) else ys
                d = c.dst[o:]
            work.power(d, x, y, n)
            if half:
                cast(c.dst[o:], out, RoundMode.CAST_NONE, n)
                pipe_barrier(PIPE_V)

    def _run_int(self, passes: list[tuple[int, int]]) -> None:
        c, s = self.c, self.split
        off = 0 if self.both else s * F32
        scalar_buf = c.tmp_as(int32, 0, s)  # the scalar operand's ints (forms with a scalar)
        if not self.both:
            value = self.base if not isinstance(self.base, LocalTensor) else self.exponent
            duplicate(scalar_buf, int(value), s)
            pipe_barrier(PIPE_V)
        work = _IntWork(c, off, s)
        for o, n in passes:
            x: LocalTensor = self.base[o:] if isinstance(self.base, LocalTensor) else scalar_buf
            y: LocalTensor = self.exponent[o:] if isinstance(self.exponent, LocalTensor) else scalar_buf
            pipe_barrier(PIPE_V)
            work.power(c.dst[o:], x, y, n)
            pipe_barrier(PIPE_V)


class _FloatWork:
    """The float temporaries (three floats, four bit masks of a pass) and the library's steps."""

    def __init__(self, c: Call, off: int, s: int) -> None:
        self.t1, self.t2, self.t3 = (c.tmp_as(float32, off + i * s * F32, s) for i in range(3))
        m0 = off + 3 * s * F32
        self.m1, self.m2, self.m3, self.fin = (c.tmp[m0 + i * s : m0 + (i + 1) * s] for i in range(4))

    def power(self, d: LocalTensor, x: LocalTensor, y: LocalTensor, n: int) -> None:
        t1, t2, t3, m1, m2, m3, fin = self.t1, self.t2, self.t3, self.m1, self.m2, self.m3, self.fin
        words = -(-n // 16)  # the masks as uint16 lanes
        u = lambda m: m.reinterpret_cast(uint16)  # noqa: E731
        steps: list[tuple[Any, ...]] = [
            (v_abs, d, x, n), (ln, d, d, n), (mul, d, y, d, n), (exp, d, d, n),  # exp(y ln|x|)
            (v_abs, t1, y, n), (cast, t1, t1, RoundMode.CAST_RINT, n), (muls, t2, t1, 0.5, n),  # odd y: -1
            (cast, t2, t2, RoundMode.CAST_FLOOR, n), (muls, t2, t2, 2.0, n), (sub, t1, t1, t2, n),
            (muls, t1, t1, -2.0, n), (adds, t1, t1, 1.0, n), (cast, t1, t1, RoundMode.CAST_RINT, n),
            (shift_right, t2.reinterpret_cast(uint32), x.reinterpret_cast(uint32), 31, n),  # x's sign bit
            (compare_exact, m1, t2.reinterpret_cast(int32), 1, CMPMODE.EQ, n),
            (v_abs, t2, y, n), (cast, t3, t2, RoundMode.CAST_RINT, n), (sub, t3, t2, t3, n),
            (v_abs, t3, t3, n),
            (compare_exact, fin, t3, INT_THRESHOLD, CMPMODE.LT, n),  # y an integer
            (and_, u(m1), u(fin), u(m1), words),
            (select, t2, m1, t1, 1.0, SELMODE.VSEL_TENSOR_SCALAR_MODE, n), (mul, d, t2, d, n),
            (v_abs, t1, y, n), (compare_exact, m1, t1, 0.0, CMPMODE.NE, n),  # the ones
            (compare_exact, m2, x, 1.0, CMPMODE.NE, n), (and_, u(m1), u(m2), u(m1), words),
            (compare_exact, m2, x, -1.0, CMPMODE.NE, n), (compare_exact, m3, t1, np.inf, CMPMODE.NE, n),
            (or_, u(m2), u(m3), u(m2), words), (and_, u(m1), u(m2), u(m1), words),
            (select, d, m1, d, 1.0, SELMODE.VSEL_TENSOR_SCALAR_MODE, n),
            (v_abs, t1, y, n), (compare_exact, m1, t1, np.inf, CMPMODE.EQ, n),  # the NaNs
            (or_, u(m1), u(fin), u(m1), words), (compare_exact, m2, x, 0.0, CMPMODE.GE, n),
            (compare_exact, m3, x, -np.inf, CMPMODE.EQ, n), (or_, u(m2), u(m3), u(m2), words),
            (or_, u(m1), u(m2), u(m1), words),
            (select, d, m1, d, np.float32(np.nan), SELMODE.VSEL_TENSOR_SCALAR_MODE, n),
        ]
        for op, *args in steps:
            op(*args)
            pipe_barrier(PIPE_V)


class _IntWork:
    """The int32 temporaries (five int32 values, two bit masks, a 32 B scalar block) and the steps."""

    def __init__(self, c: Call, off: int, s: int) -> None:
        self.c = c
        ints = [c.tmp_as(int32, off + i * s * F32, s) for i in range(5)]
        self.e, self.abs_e, self.node, self.t1, self.t2 = ints
        m0 = off + 5 * s * F32
        self.neg, self.mask = c.tmp[m0 : m0 + s], c.tmp[m0 + s : m0 + 2 * s]
        self.scalar = c.tmp_as(float32, m0 + 2 * s, 8)

    def _sel(self, d: LocalTensor, m: LocalTensor, a: LocalTensor, b: LocalTensor, n: int) -> None:
        f = float32
        select(d.reinterpret_cast(f), m, a.reinterpret_cast(f), b.reinterpret_cast(f),
               SELMODE.VSEL_TENSOR_TENSOR_MODE, n)

    def _any(self, v: LocalTensor, n: int) -> bool:
        """``reduce_sum`` of ``v`` as floats, read on the scalar pipe: is any of it non-zero?"""
        cast(self.t1.reinterpret_cast(float32), v, RoundMode.CAST_NONE, n)
        pipe_barrier(PIPE_V)
        reduce_sum(self.scalar, self.t1.reinterpret_cast(float32), self.t2.reinterpret_cast(float32), n)
        pipe = self.c.core.pipe
        eid = pipe.fetch_event_id(HardEvent.V_S) if pipe is not None else 0
        set_flag(HardEvent.V_S, eid)
        wait_flag(HardEvent.V_S, eid)
        total = float(self.scalar.get_value(0))
        eid = pipe.fetch_event_id(HardEvent.S_V) if pipe is not None else 0
        set_flag(HardEvent.S_V, eid)
        wait_flag(HardEvent.S_V, eid)
        return total != 0

    def power(self, d: LocalTensor, x: LocalTensor, y: LocalTensor, n: int) -> None:
        e, abs_e, node, t1, t2 = self.e, self.abs_e, self.node, self.t1, self.t2
        neg, mask = self.neg, self.mask
        f1 = t1.reinterpret_cast(float32)
        cast(f1, y, RoundMode.CAST_NONE, n)
        pipe_barrier(PIPE_V)
        compare_exact(neg, f1, 0.0, CMPMODE.LT, n)
        pipe_barrier(PIPE_V)
        muls(t1, y, -1, n)
        pipe_barrier(PIPE_V)
        self._sel(e, neg, t1, y, n)  # e = |y|
        pipe_barrier(PIPE_V)
        muls(abs_e, e, 1, n)
        pipe_barrier(PIPE_V)
        compare_exact(mask, abs_e, 0, CMPMODE.EQ, n)
        duplicate(node, 0, n)
        pipe_barrier(PIPE_V)
        duplicate(t2, 1, n)
        pipe_barrier(PIPE_V)
        self._sel(node, mask, node, t2, n)  # node: the exponent reached (1, or 0 for y = 0)
        self._sel(d, mask, t2, x, n)  # d = 1 for y = 0, else x
        shift_right(e, e, 1, n)
        pipe_barrier(PIPE_V)
        compare_exact(mask, e, 0, CMPMODE.EQ, n)
        pipe_barrier(PIPE_V)
        while self._any(e, n):  # square while the halved exponent is non-zero
            mul(t1, d, d, n)
            muls(t2, node, 2, n)
            pipe_barrier(PIPE_V)
            self._sel(d, mask, d, t1, n)
            self._sel(node, mask, node, t2, n)
            shift_right(e, e, 1, n)
            pipe_barrier(PIPE_V)
            compare_exact(mask, e, 0, CMPMODE.EQ, n)
            pipe_barrier(PIPE_V)
        sub(node, abs_e, node, n)  # the exponent left, multiplied in one x at a time
        pipe_barrier(PIPE_V)
        compare_exact(mask, node, 0, CMPMODE.EQ, n)
        pipe_barrier(PIPE_V)
        while self._any(node, n):
            mul(t1, d, x, n)
            adds(t2, node, -1, n)
            pipe_barrier(PIPE_V)
            self._sel(d, mask, d, t1, n)
            self._sel(node, mask, node, t2, n)
            pipe_barrier(PIPE_V)
            compare_exact(mask, node, 0, CMPMODE.EQ, n)
            pipe_barrier(PIPE_V)
        compare_exact(mask, d, 0, CMPMODE.EQ, n)  # negative exponents: trunc(1 / d), 0 for d = 0
        res, one = abs_e.reinterpret_cast(float32), e.reinterpret_cast(float32)
        cast(res, d, RoundMode.CAST_NONE, n)
        duplicate(one, 1.0, n)
        pipe_barrier(PIPE_V)
        div(res, one, res, n)
        pipe_barrier(PIPE_V)
        cast(t1, res, RoundMode.CAST_TRUNC, n)
        pipe_barrier(PIPE_V)
        self._sel(d, neg, t1, d, n)
        duplicate(t2, 0, n)
        pipe_barrier(PIPE_V)
        self._sel(d, mask, t2, d, n)


def _shape_size(shape: Sequence[int] | int) -> tuple[int, bool]:
    dims = [int(shape)] if isinstance(shape, int) else [int(d) for d in shape]
    n = 1
    for d in dims:
        n *= d
    if not dims or n <= 0:
        raise ValueError(f"GetPowerMaxMinTmpSize: the shape {tuple(dims)} must have a positive size")
    return n, not (len(dims) == 1 and dims[0] == 1)  # [1]: a scalar


def get_power_max_min_tmp_size(src_shape1: Sequence[int] | int, src_shape2: Sequence[int] | int,
                               type_is_int: bool, type_size: int,
                               is_reuse_source: bool = False) -> tuple[int, int]:
    """``GetPowerMaxMinTmpSize(srcShape1, srcShape2, typeIsInt, typeSize, isReuseSource, maxValue, minValue)``
    (the 910B's figures): ``(max_value, min_value)``; a shape ``[1]`` is a scalar operand."""
    if type_size not in (2, 4) or type_is_int and type_size != 4:
        raise ValueError(f"GetPowerMaxMinTmpSize: type_size {type_size}: half (2), float or int32 (4)")
    n1, t1 = _shape_size(src_shape1)
    n2, t2 = _shape_size(src_shape2)
    both = t1 and t2
    key: Any = "int" if type_is_int else type_size
    live = TILING_LIVE[(key, both)]
    n = n1 if t1 else n2
    if type_is_int:
        calc = max(n * type_size, 256)
        return calc * live, 256 * live
    if type_size == 4:
        return max(n * 4, 256) * live + REPEAT, 256 * live + REPEAT
    return max(n * 2, 128) * live + REPEAT, 256 * live // 2 + REPEAT


def get_power_tmp_buffer_factor_size(base_is_tensor: bool, exp_is_tensor: bool, type_is_int: bool,
                                     type_size: int) -> tuple[int, int]:
    """``GetPowerTmpBufferFactorSize(baseIsTensor, expIsTensor, typeIsInt, typeSize, maxLiveNodeCount,
    extraBuffer)``: ``(max_live_node_count, extra_buffer)`` (the 910B's figures)."""
    if type_size not in (2, 4):
        raise ValueError(f"GetPowerTmpBufferFactorSize: type_size {type_size}: half (2), float or int32 (4)")
    key: Any = "int" if type_is_int else type_size
    return TILING_LIVE[(key, base_is_tensor and exp_is_tensor)], (0 if type_is_int else REPEAT)


__all__ = ["get_power_max_min_tmp_size", "get_power_tmp_buffer_factor_size", "power"]
