"""The high-level ``Sin``, ``Cos``, ``Tan``, ``Asinh`` and ``Atan`` and their host functions
(``GetSinMaxMinTmpSize``, ``GetSinTmpBufferFactorSize`` and the same for the others; ``tan``,
``asinh``, ``atan``: their docstrings).

``sin(dst, src[, shared_tmp_buffer][, count], is_reuse_source=False)`` and ``cos`` as the library
computes them on the 910B, in float (half cast in and out), with its basic vector instructions in
passes the buffer holds (float: 3 live floats per element, 2 with ``is_reuse_source`` (the source
is then overwritten with the reduced argument); half: 4):

- the argument reduction ``k = round(x / pi)`` (``sin``: CAST_ROUND, ties away from zero) or
  ``k = rint(x / pi + 1/2)`` (``cos``), then ``x0 = x - k pi`` with pi split in four (``sin``) or
  five (``cos``, which also adds pi/2 in two parts) float constants (``muls``, ``sub``, ``adds``);
- the sign ``(-1)^k`` as ``4 floor(k / 2) - 2k + 1`` (``muls``, float -> float ``cast`` FLOOR,
  ``add``, ``adds``);
- ``x0 * P(x0^2)`` with the library's degree-4 polynomial in ``x0^2`` (``mul``, ``muls``, ``adds``),
  times the sign; ``cos`` then clamps to [-1, 1] (``mins``, ``maxs``).

So the results are the library's float32 values (within a few ulp of the true sine for moderate
arguments, drifting for large ones as the reduction loses bits), not NumPy's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from aclsim.kernel._core import float16, float32, int8, int32
from aclsim.kernel.conversion import RoundMode, cast
from aclsim.kernel.elementwise import abs as v_abs
from aclsim.kernel.elementwise import add, adds, div, ln, maxs, mins, mul, muls, sqrt, sub
from aclsim.kernel.elementwise import min as min_
from aclsim.kernel.math_api import F32, HALF_FLOAT, ONE_BLK, REPEAT, parse
from aclsim.kernel.sync import PIPE_V, pipe_barrier
from aclsim.kernel.tensor import LocalTensor

INV_PI = 0.3183098733425140380859375
#: pi in four (sin) float parts
SIN_PI = (3.140625, 0.0009670257568359375, 6.2771141529083251953125e-7,
          1.21644916362129151821136474609375e-10)
#: cos: pi in five parts, pi/2 added in two (after the second part and at the end)
COS_PI = (*SIN_PI, -1.0290623200529979163359041220560e-13)
COS_HALF_PI = (1.57079637050628662109375, -0.00000004371139000189375)
#: the polynomial P(x^2) = (((x^2 R0 + R1) x^2 + R2) x^2 + R3) x^2 + 1
POLY = (2.604926501e-6, -0.0001980894471, 0.008333049340, -0.1666665792)


def _trig(name: str, args: tuple[Any, ...], reuse: bool) -> None:
    c = parse(name, args, HALF_FLOAT)
    half = c.src.dtype == float16
    live = 4 if half else (2 if reuse else 3)
    split = c.tmp.size // F32 // live // ONE_BLK * ONE_BLK
    for o, n in c.passes(split):
        f = [c.tmp_as(float32, i * split * F32, n) for i in range(live)]
        if half:
            conv, k, kpi, x0 = f
            cast(conv, c.src[o:], RoundMode.CAST_NONE, n)
            pipe_barrier(PIPE_V)
            _compute(name, conv, conv, k, kpi, x0, n)
            cast(c.dst[o:], conv, RoundMode.CAST_NONE, n)
            pipe_barrier(PIPE_V)
        else:
            k, kpi = f[0], f[1]
            x0 = c.src[o:] if reuse else f[2]
            _compute(name, c.dst[o:], c.src[o:], k, kpi, x0, n)


def _compute(name: str, d: LocalTensor, x: LocalTensor, k: LocalTensor, kpi: LocalTensor, x0: LocalTensor,
             n: int) -> None:
    steps: list[tuple[Any, ...]] = [(muls, k, x, INV_PI, n)]
    if name == "sin":
        steps.append((cast, k, k, RoundMode.CAST_ROUND, n))
        parts: list[tuple[str, float]] = [("k", p) for p in SIN_PI]
    else:
        steps += [(adds, k, k, 0.5, n), (cast, k, k, RoundMode.CAST_RINT, n)]
        parts = [("k", COS_PI[0]), ("k", COS_PI[1]), ("add", COS_HALF_PI[0]), ("k", COS_PI[2]),
                 ("k", COS_PI[3]), ("k", COS_PI[4]), ("add", COS_HALF_PI[1])]
    first = True
    for kind, value in parts:  # x0 = x - k pi (+ pi/2 for cos)
        if kind == "add":
            steps.append((adds, x0, x0, value, n))
            continue
        steps += [(muls, kpi, k, value, n), (sub, x0, x if first else x0, kpi, n)]
        first = False
    steps += [
        (mul, kpi, x0, x0, n), (muls, d, k, 0.5, n), (cast, d, d, RoundMode.CAST_FLOOR, n),  # the sign
        (muls, d, d, 4.0, n), (muls, k, k, -2.0, n), (add, d, d, k, n), (adds, d, d, 1.0, n),
        (muls, k, kpi, POLY[0], n), (adds, k, k, POLY[1], n),  # x0 P(x0^2)
        (mul, k, k, kpi, n), (adds, k, k, POLY[2], n), (mul, k, k, kpi, n), (adds, k, k, POLY[3], n),
        (mul, k, k, kpi, n), (adds, k, k, 1.0, n), (mul, k, k, x0, n), (mul, d, k, d, n),
    ]
    if name == "cos":
        steps += [(mins, d, d, 1.0, n), (maxs, d, d, -1.0, n)]
    for op, *a in steps:
        op(*a)
        pipe_barrier(PIPE_V)


def sin(*args: Any, is_reuse_source: bool = False) -> None:
    """``Sin<T, isReuseSource>(dst, src[, sharedTmpBuffer][, calCount])``: the library's sine (half, float;
    ``is_reuse_source``: float only, ``src`` overwritten)."""
    _trig("sin", args, is_reuse_source)


def cos(*args: Any, is_reuse_source: bool = False) -> None:
    """``Cos<T, isReuseSource>(dst, src[, sharedTmpBuffer][, calCount])``: the library's cosine (half,
    float; ``is_reuse_source``: float only, ``src`` overwritten)."""
    _trig("cos", args, is_reuse_source)


ASINH_SIGN = {4: (4611686018427387904.0, 2.168404344971009e-19)}  # 2**62, 2**-62


def asinh(*args: Any, is_reuse_source: bool = False) -> None:
    """``Asinh(dst, src[, sharedTmpBuffer][, calCount])``: ``sign(x) ln(|x| + sqrt(x^2 + 1))`` as the library
    computes it (half in float): ``abs``, ``mul``, ``adds``, ``sqrt``, ``add``, ``ln``, then the sign as
    ``x 2^62 / (|x 2^62| + 2^-62)`` (``muls``, ``abs``, ``adds``, ``div``) and a ``mul``; three floats an
    element.  Like the library, float inputs beyond about 7e19 give NaN (``x 2^62`` overflows)."""
    c = parse("asinh", args, HALF_FLOAT)
    half = c.src.dtype == float16
    split = c.tmp.size // F32 // 3 // ONE_BLK * ONE_BLK
    big, tiny = ASINH_SIGN[4]
    for o, n in c.passes(split):
        pitch = split if n == split else -(-n // ONE_BLK) * ONE_BLK  # the library lays the tail out by it
        t1, t3, t2 = (c.tmp_as(float32, i * pitch * F32, n) for i in range(3))
        x = c.src[o:]
        if half:
            cast(t1, x, RoundMode.CAST_NONE, n)
            pipe_barrier(PIPE_V)
            x = t1
        steps: list[tuple[Any, ...]] = [
            (v_abs, t1, x, n), (mul, t2, t1, t1, n), (adds, t2, t2, 1.0, n), (sqrt, t2, t2, n),
            (add, t2, t2, t1, n), (ln, t2, t2, n),
        ]
        if half:
            steps.append((cast, t1, c.src[o:], RoundMode.CAST_NONE, n))
        sign_src = t1 if half else c.src[o:]
        steps += [(muls, t1, sign_src, big, n), (v_abs, t3, t1, n), (adds, t3, t3, tiny, n),
                  (div, t1, t1, t3, n)]
        steps.append((mul, t2, t2, t1, n) if half else (mul, c.dst[o:], t2, t1, n))
        if half:
            steps.append((cast, c.dst[o:], t2, RoundMode.CAST_NONE, n))
        for op, *a in steps:
            op(*a)
            pipe_barrier(PIPE_V)


#: atan's series coefficients 1 / (2k + 1) with alternating signs, and its constants
ATAN_SERIES = (1, -0.3333333333333333, 0.2, -0.14285714285714285, 0.1111111111111111, -0.09090909090909091,
               0.07692307692307693)
PI_4, PI_8 = 0.78539816339744830961566084581988, 0.39269908169872415480783042290994
TAN_PI_8 = 0.4142135623730950
ATAN_CLIP = 10000.0


def _taylor(d: LocalTensor, x: LocalTensor, sq: LocalTensor, level: int, n: int) -> list[tuple[Any, ...]]:
    """``atan(x) ~ x (1 - x^2/3 + x^4/5 ...)`` to ``level`` terms, Horner in ``x^2``."""
    steps: list[tuple[Any, ...]] = [(mul, sq, x, x, n), (mul, d, x, x, n),
                                    (muls, d, d, ATAN_SERIES[level], n)]
    for i in range(level - 1, 0, -1):
        steps += [(adds, d, d, ATAN_SERIES[i], n), (mul, d, d, sq, n)]
    return steps + [(adds, d, d, ATAN_SERIES[0], n), (mul, d, d, x, n)]


def _transform(d: LocalTensor, x: LocalTensor, t: LocalTensor, n: int) -> list[tuple[Any, ...]]:
    """``|(x - tan(pi/8)) / (1 + x tan(pi/8))|``."""
    return [(muls, d, x, TAN_PI_8, n), (adds, d, d, 1.0, n), (adds, t, x, -TAN_PI_8, n), (div, d, t, d, n),
            (v_abs, d, d, n)]


def atan(*args: Any, is_reuse_source: bool = False) -> None:
    """``Atan(dst, src[, sharedTmpBuffer][, calCount])``: the library's arctangent in float (half cast in and
    out): x clipped to [-1e4, 1e4]; the least of three series evaluations on |x| (direct, shifted by
    pi/8 and pi/4 through ``(x - tan(pi/8)) / (1 + x tan(pi/8))`` and ``|(x - 1) / (x + 1)|``), times
    the sign ``x 2^62 / (|x 2^62| + 2^-62)``; five floats an element (half six)."""
    c = parse("atan", args, HALF_FLOAT)
    half = c.src.dtype == float16
    split = c.tmp.size // F32 // (6 if half else 5) // ONE_BLK * ONE_BLK
    big, tiny = ASINH_SIGN[4]
    for o, n in c.passes(split):
        t, clip, ab, t2, sq = (c.tmp_as(float32, i * split * F32, n) for i in range(5))
        x, d = c.src[o:], c.dst[o:]
        if half:
            x = d = c.tmp_as(float32, 5 * split * F32, n)
            cast(x, c.src[o:], RoundMode.CAST_NONE, n)
            pipe_barrier(PIPE_V)
        steps: list[tuple[Any, ...]] = [(mins, clip, x, ATAN_CLIP, n), (maxs, clip, clip, -ATAN_CLIP, n),
                                        (v_abs, ab, clip, n)]
        steps += _taylor(d, ab, sq, 4, n)
        steps += _transform(t, ab, t2, n) + _taylor(t2, t, sq, 4, n)
        steps += [(adds, t2, t2, PI_8, n), (min_, d, d, t2, n)]
        steps += [(adds, t2, ab, 1.0, n), (adds, t, ab, -1.0, n), (div, t, t, t2, n), (v_abs, t, t, n)]
        steps += _taylor(t2, t, sq, 4, n) + [(adds, t2, t2, PI_4, n), (min_, d, d, t2, n)]
        steps += _transform(t2, t, sq, n) + _taylor(t, t2, sq, 6, n)
        steps += [(adds, t, t, PI_8, n), (adds, t, t, PI_4, n), (min_, d, d, t, n)]
        steps += [(muls, t, clip, big, n), (v_abs, t2, t, n), (adds, t2, t2, tiny, n), (div, t, t, t2, n),
                  (mul, d, d, t, n)]
        if half:
            steps.append((cast, c.dst[o:], d, RoundMode.CAST_NONE, n))
        for op, *a in steps:
            op(*a)
            pipe_barrier(PIPE_V)


#: tan: pi in five parts (the last differs from cos's), pi/2 in two, the rational approximation's R0..R3
TAN_PI = (*SIN_PI, -1.0291767438275201129727065563201904296875e-13)
TAN_R = (0.0698520831551998762793, -6.8711573651634203789, 61.20362572811089435388,
         -24.8048928861126769186219)


def _tan_steps(d: LocalTensor, x: LocalTensor, k: LocalTensor, lo: LocalTensor, hi: LocalTensor,
               n: int) -> list[tuple[Any, ...]]:
    """``d = tan(x)`` (``x`` overwritten by the reduced argument; ``lo``/``hi``: ``x0 + pi/2``,
    ``x0 - pi/2``): ``x0 P(x0^2) / ((x0^2 + R3)(x0 + pi/2)(x0 - pi/2))``."""
    steps: list[tuple[Any, ...]] = [(muls, k, x, INV_PI, n), (cast, k, k, RoundMode.CAST_RINT, n)]
    for i, p in enumerate(TAN_PI):
        steps += [(muls, d, k, p, n), (sub, x, x, d, n)]
        if i >= 2:
            steps += [(sub, lo, lo, d, n), (sub, hi, hi, d, n)]
        if i == 1:
            steps += [(adds, lo, x, COS_HALF_PI[0], n), (adds, hi, x, -COS_HALF_PI[0], n)]
        if i == 2:
            steps += [(adds, lo, lo, COS_HALF_PI[1], n), (adds, hi, hi, -COS_HALF_PI[1], n)]
    return steps + [
        (mul, k, x, x, n), (muls, d, k, TAN_R[0], n), (adds, d, d, TAN_R[1], n), (mul, d, d, k, n),
        (adds, d, d, TAN_R[2], n), (mul, d, d, x, n), (adds, k, k, TAN_R[3], n), (mul, k, k, lo, n),
        (mul, k, k, hi, n), (div, d, d, k, n),
    ]


def tan(*args: Any, is_reuse_source: bool = False) -> None:
    """``Tan(dst, src[, sharedTmpBuffer][, calCount])``: the library's tangent in float (half cast in and
    out): ``k = rint(x / pi)``, ``x0 = x - k pi`` (pi in five parts; ``x0 +- pi/2`` kept alongside),
    ``x0 P(x0^2) / ((x0^2 + R3)(x0 + pi/2)(x0 - pi/2))``; four floats an element (half five)."""
    c = parse("tan", args, HALF_FLOAT)
    half = c.src.dtype == float16
    split = c.tmp.size // F32 // (5 if half else 4) // ONE_BLK * ONE_BLK
    for o, n in c.passes(split):
        pitch = split if n == split else -(-n // ONE_BLK) * ONE_BLK  # the library lays the tail out by it
        f = [c.tmp_as(float32, i * pitch * F32, n) for i in range(5 if half else 4)]
        if half:
            conv, x, k, lo, hi = f
            steps: list[tuple[Any, ...]] = [(cast, x, c.src[o:], RoundMode.CAST_NONE, n)]
            steps += _tan_steps(conv, x, k, lo, hi, n)
            steps.append((cast, c.dst[o:], conv, RoundMode.CAST_NONE, n))
        else:
            k, lo, hi, x = f
            steps = [(adds, x, c.src[o:], 0.0, n)] + _tan_steps(c.dst[o:], x, k, lo, hi, n)
        for op, *a in steps:
            op(*a)
            pipe_barrier(PIPE_V)


def get_tan_max_min_tmp_size(src_shape: Sequence[int] | int, type_size: int,
                             is_reuse_source: bool = False) -> tuple[int, int]:
    """``GetTanMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)``: float 4, half 10
    live values (of the type's size) per element."""
    n = _elements(src_shape, "GetTanMaxMinTmpSize")
    k = get_tan_tmp_buffer_factor_size(type_size)[0]
    return k * max(n * type_size, REPEAT), k * REPEAT


def get_tan_tmp_buffer_factor_size(type_size: int) -> tuple[int, int]:
    """``GetTanTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)``: ``(4, 0)`` float, ``(10, 0)``
    half."""
    return (10 if _live(type_size, False, "GetTanTmpBufferFactorSize") == 8 else 4), 0


#: asin's series coefficients (x + x^3/6 + 3x^5/40 ...) and the branch boundary 1/sqrt(2)
ASIN_COEF = (1.0, 0.16666666666666666666666666666667, 0.075, 0.04464285714285714285714285714286,
             0.03038194444444444444444444444444, 0.02237215909090909090909090909091,
             0.01735276442307692307692307692308, 0.01396484375)
HALF_PI = 1.5707963267948966192313216916398
ASIN_BOUNDARY = 0.70710678118654752440084436210485
HALF_SIGN = (32768.0, 3.0517578125e-05)  # 2**15, 2**-15: the sign's scale in half


def _asin_series(d: LocalTensor, x: LocalTensor, sq: LocalTensor, n: int,
                 squared: bool) -> list[tuple[Any, ...]]:
    """``d = x P(x^2)`` (``squared``: ``x`` holds x^2 and becomes sqrt of it)."""
    if squared:
        steps: list[tuple[Any, ...]] = [(muls, d, x, 1.0, n), (muls, d, d, ASIN_COEF[7], n)]
        sq = x
    else:
        steps = [(mul, d, x, x, n), (mul, sq, x, x, n), (muls, d, d, ASIN_COEF[7], n)]
    for c in ASIN_COEF[6:0:-1]:
        steps += [(adds, d, d, c, n), (mul, d, d, sq, n)]
    steps.append((adds, d, d, ASIN_COEF[0], n))
    return steps + ([(sqrt, x, x, n), (mul, d, d, x, n)] if squared else [(mul, d, d, x, n)])


def _sign(d: LocalTensor, x: LocalTensor, t: LocalTensor, n: int,
          scale: tuple[float, float]) -> list[tuple[Any, ...]]:
    """``d = x s / (|x s| + 1/s)``: the library's sign (``s`` 2^62 for float, 2^15 for half)."""
    return [(muls, d, x, scale[0], n), (v_abs, t, d, n), (adds, t, t, scale[1], n), (div, d, d, t, n)]


def _asin_float(d: LocalTensor, x: LocalTensor, t0: LocalTensor, t2: LocalTensor,
                n: int) -> list[tuple[Any, ...]]:
    """The float path: the series on |x| below 1/sqrt(2), pi/2 - series(sqrt(1 - x^2)) above."""
    i32 = t0.reinterpret_cast(int32)
    steps: list[tuple[Any, ...]] = [(mul, t2, x, x, n), (muls, t2, t2, -1.0, n), (adds, t2, t2, 1.0, n),
                                    (sqrt, d, t2, n)]
    steps += _asin_series(t2, d, t0, n, False) + [(muls, t2, t2, -1.0, n), (adds, t2, t2, HALF_PI, n)]
    steps += [(mul, t0, x, x, n)] + _asin_series(d, t0, t0, n, True)
    steps += [(mins, t0, t0, ASIN_BOUNDARY, n), (adds, t0, t0, -ASIN_BOUNDARY, n),  # 1 below the boundary
              (cast, i32, t0, RoundMode.CAST_FLOOR, n), (cast, t0, i32, RoundMode.CAST_NONE, n),
              (muls, t0, t0, -1.0, n), (mul, d, d, t0, n), (muls, t0, t0, -1.0, n), (adds, t0, t0, 1.0, n),
              (mul, t2, t2, t0, n), (add, d, d, t2, n)]
    return steps + _sign(t2, x, t0, n, ASINH_SIGN[4]) + [(mul, d, d, t2, n)]


def _asin_half(d: LocalTensor, x: LocalTensor, f1: LocalTensor, f2: LocalTensor, h1: LocalTensor,
               h2: LocalTensor, n: int) -> list[tuple[Any, ...]]:
    """The half path: the upper branch in float, the series in half, combined and signed in float (the
    float result left in ``f1``; ``d`` gets it in half)."""
    i8 = h1.reinterpret_cast(int8)
    steps: list[tuple[Any, ...]] = [(cast, f2, x, RoundMode.CAST_NONE, n), (mul, f2, f2, f2, n),
                                    (muls, f2, f2, -1.0, n), (adds, f2, f2, 1.0, n)]
    steps += _asin_series(f1, f2, f2, n, True) + [(muls, f1, f1, -1.0, n), (adds, f1, f1, HALF_PI, n)]
    steps += [(v_abs, h2, x, n)] + _asin_series(d, h2, h1, n, False)
    steps += [(mins, h2, h2, ASIN_BOUNDARY, n), (adds, h2, h2, -ASIN_BOUNDARY, n),
              (cast, i8, h2, RoundMode.CAST_FLOOR, n), (cast, h2, i8, RoundMode.CAST_NONE, n),
              (muls, h2, h2, -1.0, n), (mul, d, d, h2, n), (muls, h2, h2, -1.0, n), (adds, h2, h2, 1.0, n),
              (cast, f2, h2, RoundMode.CAST_NONE, n), (mul, f1, f1, f2, n),
              (cast, f2, d, RoundMode.CAST_NONE, n),
              (add, f1, f2, f1, n)]
    steps += _sign(h1, x, h2, n, HALF_SIGN) + [(cast, f2, h1, RoundMode.CAST_NONE, n), (mul, f1, f1, f2, n)]
    return steps


def _arc(name: str, args: tuple[Any, ...]) -> None:
    c = parse(name, args, HALF_FLOAT)
    half = c.src.dtype == float16
    split = c.tmp.size // c.src.dtype.itemsize // (6 if half else 4) // ONE_BLK * ONE_BLK
    for o, n in c.passes(split):
        d, x = c.dst[o:], c.src[o:]
        if half:
            f1, f2 = c.tmp_as(float32, 0, n), c.tmp_as(float32, split * F32, n)
            h1, h2 = c.tmp_as(float16, 8 * split, n), c.tmp_as(float16, 10 * split, n)
            steps = _asin_half(d, x, f1, f2, h1, h2, n)
            if name == "acos":
                steps += [(adds, f1, f1, -HALF_PI, n), (muls, f1, f1, -1.0, n)]
            steps.append((cast, d, f1, RoundMode.CAST_NONE, n))
        else:
            steps = _asin_float(d, x, c.tmp_as(float32, 0, n), c.tmp_as(float32, split * F32, n), n)
            if name == "acos":
                steps += [(adds, d, d, -HALF_PI, n), (muls, d, d, -1.0, n)]
        for op, *a in steps:
            op(*a)
            pipe_barrier(PIPE_V)


def asin(*args: Any, is_reuse_source: bool = False) -> None:
    """``Asin(dst, src[, sharedTmpBuffer][, calCount])``: the library's arcsine: the 7-term series on |x|
    below 1/sqrt(2), ``pi/2 - series(sqrt(1 - x^2))`` above (both computed, combined by a 0/1 choice
    from a FLOOR cast), times the sign; half: the upper branch and the combination in float, the
    series in half (its ``int8`` choice cast as the library)."""
    _arc("asin", args)


def acos(*args: Any, is_reuse_source: bool = False) -> None:
    """``Acos(dst, src[, sharedTmpBuffer][, calCount])``: ``pi/2 - asin(x)`` as the library (half: from
    asin's float result)."""
    _arc("acos", args)


def get_asin_max_min_tmp_size(src_shape: Sequence[int] | int, type_size: int,
                              is_reuse_source: bool = False) -> tuple[int, int]:
    """``GetAsinMaxMinTmpSize``: the library's figures, float 2 and half 6 live values per element (the
    float kernel splits by 4 floats an element: a buffer of the minimum makes passes of 32)."""
    n = _elements(src_shape, "GetAsinMaxMinTmpSize")
    k = get_asin_tmp_buffer_factor_size(type_size)[0]
    return k * max(n * type_size, REPEAT), k * REPEAT


def get_asin_tmp_buffer_factor_size(type_size: int) -> tuple[int, int]:
    """``GetAsinTmpBufferFactorSize``: ``(2, 0)`` float, ``(6, 0)`` half."""
    return (6 if _live(type_size, False, "GetAsinTmpBufferFactorSize") == 8 else 2), 0


get_acos_max_min_tmp_size = get_asin_max_min_tmp_size
get_acos_tmp_buffer_factor_size = get_asin_tmp_buffer_factor_size


def _live(type_size: int, is_reuse_source: bool, what: str) -> int:
    if type_size not in (2, 4):
        raise ValueError(f"{what}: type_size {type_size}: half (2) or float (4)")
    if type_size == 2 and is_reuse_source:
        raise ValueError(f"{what}: is_reuse_source is not supported for half")
    return 8 if type_size == 2 else (2 if is_reuse_source else 3)


def _elements(shape: Sequence[int] | int, what: str) -> int:
    dims = [int(shape)] if isinstance(shape, int) else [int(d) for d in shape]
    n = 1
    for d in dims:
        n *= d
    if not dims or n <= 0:
        raise ValueError(f"{what}: the shape {tuple(dims)} must have a positive size")
    return n


def _max_min(shape: Sequence[int] | int, type_size: int, is_reuse_source: bool, what: str) -> tuple[int, int]:
    n = _elements(shape, what)
    k = _live(type_size, is_reuse_source, what)
    return k * max(n * type_size, REPEAT), k * REPEAT


def get_sin_max_min_tmp_size(src_shape: Sequence[int] | int, type_size: int,
                             is_reuse_source: bool = False) -> tuple[int, int]:
    """``GetSinMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)``: ``(max, min)``."""
    return _max_min(src_shape, type_size, is_reuse_source, "GetSinMaxMinTmpSize")


def get_cos_max_min_tmp_size(src_shape: Sequence[int] | int, type_size: int,
                             is_reuse_source: bool = False) -> tuple[int, int]:
    """``GetCosMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)``: ``(max, min)``."""
    return _max_min(src_shape, type_size, is_reuse_source, "GetCosMaxMinTmpSize")


def get_sin_tmp_buffer_factor_size(type_size: int) -> tuple[int, int]:
    """``GetSinTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)``: ``(3 or 8, 0)``."""
    return _live(type_size, False, "GetSinTmpBufferFactorSize"), 0


def get_asinh_max_min_tmp_size(src_shape: Sequence[int] | int, type_size: int,
                               is_reuse_source: bool = False) -> tuple[int, int]:
    """``GetAsinhMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)``: three live values
    (of the type's size) per element: ``(3 max(n sizeof(T), 256), 768)``."""
    n = _elements(src_shape, "GetAsinhMaxMinTmpSize")
    _live(type_size, False, "GetAsinhMaxMinTmpSize")
    return 3 * max(n * type_size, REPEAT), 3 * REPEAT


def get_asinh_tmp_buffer_factor_size(type_size: int) -> tuple[int, int]:
    """``GetAsinhTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)``: ``(3, 0)``."""
    _live(type_size, False, "GetAsinhTmpBufferFactorSize")
    return 3, 0


def get_atan_max_min_tmp_size(src_shape: Sequence[int] | int, type_size: int,
                              is_reuse_source: bool = False) -> tuple[int, int]:
    """``GetAtanMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)``: float 5, half 12
    live values (of the type's size) per element."""
    n = _elements(src_shape, "GetAtanMaxMinTmpSize")
    k = get_atan_tmp_buffer_factor_size(type_size)[0]
    return k * max(n * type_size, REPEAT), k * REPEAT


def get_atan_tmp_buffer_factor_size(type_size: int) -> tuple[int, int]:
    """``GetAtanTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)``: ``(5, 0)`` float, ``(12, 0)``
    half."""
    return (12 if _live(type_size, False, "GetAtanTmpBufferFactorSize") == 8 else 5), 0


def get_cos_tmp_buffer_factor_size(type_size: int) -> tuple[int, int]:
    """``GetCosTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)``: ``(3 or 8, 0)``."""
    return _live(type_size, False, "GetCosTmpBufferFactorSize"), 0


__all__ = [
    "acos",
    "asin",
    "get_acos_max_min_tmp_size",
    "get_acos_tmp_buffer_factor_size",
    "get_asin_max_min_tmp_size",
    "get_asin_tmp_buffer_factor_size",
    "asinh",
    "atan",
    "cos",
    "get_asinh_max_min_tmp_size",
    "get_asinh_tmp_buffer_factor_size",
    "get_atan_max_min_tmp_size",
    "get_atan_tmp_buffer_factor_size",
    "get_cos_max_min_tmp_size",
    "get_cos_tmp_buffer_factor_size",
    "get_sin_max_min_tmp_size",
    "get_sin_tmp_buffer_factor_size",
    "get_tan_max_min_tmp_size",
    "get_tan_tmp_buffer_factor_size",
    "sin",
    "tan",
]
