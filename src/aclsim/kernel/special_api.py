"""The high-level ``Erf`` and its host functions (``GetErfMaxMinTmpSize``, ``GetErfTmpBufferFactorSize``).

``erf(dst, src[, shared_tmp_buffer][, count])`` as the library computes it on the 910B, in float (half
cast in and out): x clipped to [-3.92, 3.92], then the rational approximation ``P(x) / Q(x)`` with the
library's coefficients (``P`` odd of degree 11, ``Q`` of degree 10 in ``x^2``; ``mul``, ``muls``,
``adds``, ``div``); the half result is rounded to half with CAST_ROUND (ties away from zero), as the
910B's library does.  Three floats an element (half: four).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from aclsim.kernel._core import float16, float32
from aclsim.kernel.conversion import RoundMode, cast
from aclsim.kernel.elementwise import adds, div, maxs, mins, mul, muls
from aclsim.kernel.math_api import F32, HALF_FLOAT, ONE_BLK, REPEAT, parse
from aclsim.kernel.sync import PIPE_V, pipe_barrier
from aclsim.kernel.tensor import LocalTensor

ERF_CLIP = 3.92
#: P(x) = (((((P5 x^2 + P4) x^2 + P3) x^2 + P2) x^2 + P1) x^2 + P0) x
ERF_P = (0.29639384698e5, 0.50637915060e4, 0.13938061484e4, 0.10162808918e3, 0.75517016694e1, 0.053443748819)
#: Q(x) = ((((x^2 + Q4) x^2 + Q3) x^2 + Q2) x^2 + Q1) x^2 + Q0
ERF_Q = (0.26267224157e5, 0.13243365831e5, 0.30231248150e4, 0.39856963806e3, 0.31212858877e2)


def _erf_steps(d: LocalTensor, x: LocalTensor, t1: LocalTensor, t2: LocalTensor, t3: LocalTensor,
               n: int) -> list[tuple[Any, ...]]:
    """``d = erf(x)`` (``d`` holds the clipped x first, then ``Q``'s partial sums)."""
    steps: list[tuple[Any, ...]] = [(mins, t1, x, ERF_CLIP, n), (maxs, d, t1, -ERF_CLIP, n)]
    steps += [(mul, t1, d, d, n), (muls, t2, t1, ERF_P[5], n), (adds, t3, t2, ERF_P[4], n)]
    for p in ERF_P[3::-1]:  # P3 .. P0
        steps += [(mul, t2, t1, t3, n), (adds, t3, t2, p, n)]
    steps += [(mul, t2, d, t3, n), (adds, t3, t1, ERF_Q[4], n)]
    for q in ERF_Q[3::-1]:  # Q3 .. Q0
        steps += [(mul, d, t1, t3, n), (adds, t3, d, q, n)]
    return steps + [(div, d, t2, t3, n)]


def erf(*args: Any, is_reuse_source: bool = False) -> None:
    """``Erf<T, isReuseSource>(dst, src[, sharedTmpBuffer][, calCount])``: the library's error function
    (half, float)."""
    c = parse("erf", args, HALF_FLOAT)
    half = c.src.dtype == float16
    split = c.tmp.size // F32 // (4 if half else 3) // ONE_BLK * ONE_BLK
    for o, n in c.passes(split):
        t1, t2, t3 = (c.tmp_as(float32, i * split * F32, n) for i in range(3))
        if half:
            x = c.tmp_as(float32, 3 * split * F32, n)
            cast(x, c.src[o:], RoundMode.CAST_NONE, n)
            pipe_barrier(PIPE_V)
            steps = _erf_steps(x, x, t1, t2, t3, n)
            steps[-1] = (div, t1, t2, t3, n)
            steps.append((cast, c.dst[o:], t1, RoundMode.CAST_ROUND, n))
        else:
            steps = _erf_steps(c.dst[o:], c.src[o:], t1, t2, t3, n)
        for op, *a in steps:
            op(*a)
            pipe_barrier(PIPE_V)


def _check(src_shape: Sequence[int] | int, type_size: int, what: str) -> int:
    dims = [int(src_shape)] if isinstance(src_shape, int) else [int(d) for d in src_shape]
    n = 1
    for d in dims:
        n *= d
    if not dims or n <= 0:
        raise ValueError(f"{what}: the shape {tuple(dims)} must have a positive size")
    if type_size not in (2, 4):
        raise ValueError(f"{what}: type_size {type_size}: half (2) or float (4)")
    return n


def get_erf_max_min_tmp_size(src_shape: Sequence[int] | int, type_size: int,
                             is_reuse_source: bool = False) -> tuple[int, int]:
    """``GetErfMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)``: float 3, half 8 live
    values (of the type's size) per element."""
    n = _check(src_shape, type_size, "GetErfMaxMinTmpSize")
    k = 3 if type_size == 4 else 8
    return k * max(n * type_size, REPEAT), k * REPEAT


def get_erf_tmp_buffer_factor_size(type_size: int) -> tuple[int, int]:
    """``GetErfTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuffer)``: ``(3, 0)`` float, ``(8, 0)``
    half."""
    _check(1, type_size, "GetErfTmpBufferFactorSize")
    return (3 if type_size == 4 else 8), 0


__all__ = ["erf", "get_erf_max_min_tmp_size", "get_erf_tmp_buffer_factor_size"]
