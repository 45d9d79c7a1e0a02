"""The high-level ``ReduceSum<T, pattern, isReuseSource>`` with ``Pattern::Reduce::AR`` / ``RA``, and the
``reduce_sum`` that takes both it and the basic ``ReduceSum``.

``reduce_sum(dst, src[, shared_tmp_buffer], src_shape, src_inner_pad, pattern=Pattern.Reduce.AR,
is_reuse_source=False)`` sums a ``[first, last]`` float matrix in UB (rows padded to 32 B:
``pad = last`` rounded up to 8) along its last axis (``AR``: ``dst[r]``, ``first`` results) or its
first axis (``RA``: ``dst[c]``, ``last`` results).  Without ``pattern`` it is the basic
``ReduceSum(dst, src, work, ...)`` (:func:`aclsim.kernel.reduction.reduce_sum`).  The page's scope:
float, a 2-D shape, ``src_inner_pad`` true, Atlas A2/A3 (not the 310P: refused with 207000).

The sums are the library's own (arch 220), issued as its basic vector instructions, so they add in
its order bit for bit and each is recorded with its ranges and cost:

- ``RA``: with ``2^k`` the largest power of two up to ``first``, the rows past ``2^k`` are added
  onto the first ones (after an ``Adds(x, 0)`` copy into the buffer), then the halves are added
  pairwise (``Add`` of the top half onto the bottom) until one row is left, which ``Adds(x, 0)``
  puts in ``dst`` (one row only: that copy alone);
- ``AR``: rows of up to 8: ``BlockReduceSum`` with the row's lanes in each block's mask; up to 64:
  ``WholeReduceSum`` (248 rows a call); longer: each row's first ``P`` elements (``P`` the largest
  power of two below ``last``, at least 64) copied into the buffer (``DataCopy``), the rest of the
  row added onto them (``Add``), then ``PairReduceSum`` halving to 64, and two ``BlockReduceSum``.

``is_reuse_source`` works in ``src`` instead of the buffer (``src`` is overwritten, as documented).
Without a temporary buffer the API takes the UB above the TPipe's buffers (the library's stack
buffer).  Where the arch-220 library's addressing departs from the documented result aclsim keeps
the documented result: rows of up to 8 past the first 2040 (its loop of 255-repeat calls does not
advance its offsets) and ``is_reuse_source`` with rows longer than 64 past the first 248 (it packs
the later passes' rows from ``src[r0 * 64]`` instead of their own rows): aclsim sums each pass's own
rows, so a kernel in those shapes gets the sums here where the device's may differ.  The documented
constraints are checked: ``dst`` large enough, the buffer large enough
(a fault naming the line), ``src``/``dst``/buffer not overlapping.  ``GetReduceSumMaxMinTmpSize`` is
not modelled.
"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from aclsim.errors import KernelFault
from aclsim.isa import Space
from aclsim.kernel import reduction
from aclsim.kernel._core import UnsupportedFault, current, dtype_name, fault_code, float32
from aclsim.kernel.copy import DataCopyParams, data_copy
from aclsim.kernel.elementwise import add, adds
from aclsim.kernel.mask import (
    MASK_PLACEHOLDER,
    MaskMode,
    reset_mask,
    set_mask_count,
    set_mask_norm,
    set_vector_mask,
)
from aclsim.kernel.math_api import framework_buffer
from aclsim.kernel.operands import local_operand
from aclsim.kernel.reduction import block_reduce_sum, pair_reduce_sum, whole_reduce_sum
from aclsim.kernel.repeat import BinaryRepeatParams, UnaryRepeatParams
from aclsim.kernel.sync import PIPE_V, pipe_barrier
from aclsim.kernel.tensor import LocalTensor

_BLK = 8  # floats in 32 B
_REP = 64  # floats in 256 B
_ROWS = 248  # rows a WholeReduceSum / large-row pass takes (the library's figure)
_MAX_REPEAT = 255
_NAME = "reduce_sum"


class _Reduce(enum.Enum):
    """``Pattern::Reduce``: which axes are reduced (``R``) and kept (``A``)."""

    AR = "AR"
    RA = "RA"


class Pattern:
    """``AscendC::Pattern``: ``Pattern.Reduce.AR`` (reduce the last axis), ``Pattern.Reduce.RA`` (the
    first)."""

    Reduce = _Reduce


def reduce_sum(dst: LocalTensor, src: LocalTensor, *args: Any, pattern: _Reduce | None = None,
               is_reuse_source: bool = False, is_set_mask: bool | None = None) -> None:
    """``ReduceSum``: the basic ``ReduceSum(dst, src, work, count)`` (or ``mask, repeat_times,
    src_rep_stride``) without ``pattern``; the high-level ``ReduceSum<T, pattern, isReuseSource>(dst, src[,
    sharedTmpBuffer], srcShape, srcInnerPad)`` with it (module docstring).

    >>> # inside a kernel, a [2, 8] float tile: dst[r] = row sums
    >>> # asc.reduce_sum(dst, src, [2, 8], True, pattern=asc.Pattern.Reduce.AR)
    """
    if pattern is None:
        if not args:
            raise TypeError("reduce_sum(dst, src, work, count) or, high-level, reduce_sum(dst, src[, tmp], "
                            "src_shape, src_inner_pad, pattern=Pattern.Reduce.AR)")
        reduction.reduce_sum(dst, src, args[0], *args[1:], is_set_mask=is_set_mask)
        return
    _high_level(dst, src, args, _Reduce(pattern), bool(is_reuse_source))


def _high_level(dst: LocalTensor, src: LocalTensor, args: tuple[Any, ...], pattern: _Reduce,
                reuse: bool) -> None:
    core = current()
    rest = list(args)
    tmp = rest.pop(0) if rest and isinstance(rest[0], LocalTensor) else None
    if len(rest) != 2:
        raise TypeError(f"{_NAME}(dst, src[, shared_tmp_buffer], src_shape, src_inner_pad, pattern=...)")
    shape, inner_pad = rest
    local_operand(core, dst, _NAME, "dst")
    local_operand(core, src, _NAME, "src")
    if core.chip.arch_version == "2002":
        core.fault(UnsupportedFault, f"{_NAME} with a pattern: not available on {core.chip.name} (the page "
                   "lists Atlas A2/A3 only)", hint="sum with whole_reduce_sum / block_reduce_sum")
    if dst.dtype != float32 or src.dtype != float32:
        raise TypeError(f"{_NAME} with a pattern takes float on Atlas A2/A3, got dst "
                        f"{dtype_name(dst.dtype)}, src {dtype_name(src.dtype)}")
    dims = [int(d) for d in shape]
    if len(dims) != 2 or min(dims) <= 0:
        raise ValueError(f"{_NAME}: src_shape must be two positive sizes (the pattern's two axes), "
                         f"got {dims}")
    if not inner_pad:
        raise ValueError(f"{_NAME}: src_inner_pad must be True on Atlas A2/A3 (the page: only true is "
                         "supported)")
    first, last = dims
    pad = -(-last // _BLK) * _BLK
    if first * pad > src.size:
        raise ValueError(f"{_NAME}: src holds {src.size} floats, the shape needs {first} rows of {pad}")
    out = first if pattern is _Reduce.AR else last
    if dst.size < out:
        raise ValueError(f"{_NAME}: dst holds {dst.size} floats, the {pattern.value} sum needs {out}")
    need = 0 if reuse else _tmp_floats(pattern, first, last, pad)
    buf = _buffer(core, tmp, need, src, dst)
    if pattern is _Reduce.AR:
        _ar(dst, src, src if reuse else buf, first, last, pad)
    else:
        _ra(dst, src, buf, first, last, pad, reuse)
    set_mask_norm()
    reset_mask()


def _tmp_floats(pattern: _Reduce, first: int, last: int, pad: int) -> int:
    """The floats of the temporary buffer the library's steps use (none for rows of up to 64)."""
    if pattern is _Reduce.RA:
        split = 1 << (first.bit_length() - 1)
        if first == split:
            split >>= 1
        return split * pad
    if last <= _REP:
        return 0
    per_row = _per_row(last)  # pass r0 packs its rows from float r0 * 64
    return max(r0 * _REP + min(_ROWS, first - r0) * per_row for r0 in range(0, first, _ROWS))


def _per_row(last: int) -> int:
    split = 1 << (last.bit_length() - 1)
    return max(_BLK, split) >> (1 if split == last else 0)


def _buffer(core: Any, tmp: LocalTensor | None, floats: int, src: LocalTensor,
            dst: LocalTensor) -> LocalTensor:
    if floats == 0:
        return src
    buf = framework_buffer(core) if tmp is None else tmp
    local_operand(core, buf, _NAME, "shared_tmp_buffer")
    nbytes = buf.size * buf.dtype.itemsize
    if nbytes < floats * 4:
        core.fault(KernelFault, f"{_NAME}: the temporary buffer ({nbytes} B) is smaller than the "
                   f"{floats * 4} B this shape needs", code=fault_code(Space.UB),
                   hint="give a larger shared_tmp_buffer, or is_reuse_source=True to work in src")
    out = buf.reinterpret_cast(np.uint8)[0:floats * 4].reinterpret_cast(float32)
    for what, t, n in (("src", src, src.size), ("dst", dst, dst.size)):
        if out.offset < t.offset + n * 4 and t.offset < out.offset + floats * 4:
            core.fault(KernelFault, f"{_NAME}: the temporary buffer overlaps {what} (the page: no overlap)",
                       code=fault_code(Space.UB), hint="give the temporary buffer its own UB range")
    return out


def _counter(n: int) -> None:
    set_mask_count()
    set_vector_mask(n, mode=MaskMode.COUNTER)


def _ra(dst: LocalTensor, src: LocalTensor, buf: LocalTensor, first: int, last: int, pad: int,
        reuse: bool) -> None:
    """``RA``: fold the rows pairwise onto row 0 (module docstring), then copy row 0 into ``dst``."""
    split = 1 << (first.bit_length() - 1)
    remain = first - split
    plain = UnaryRepeatParams()
    both = BinaryRepeatParams()
    if reuse:
        cur = src
        if remain:
            _counter(pad * remain)
            add(src, src, src[split * pad], MASK_PLACEHOLDER, 1, both, is_set_mask=False)
            pipe_barrier(PIPE_V)
    else:
        cur = buf
        if remain:
            _counter(split * pad)
            adds(buf, src, 0.0, MASK_PLACEHOLDER, 1, plain, is_set_mask=False)
            pipe_barrier(PIPE_V)
            _counter(pad * remain)
            add(buf, buf, src[split * pad], MASK_PLACEHOLDER, 1, both, is_set_mask=False)
            pipe_barrier(PIPE_V)
        elif split > 1:
            split >>= 1
            _counter(pad * split)
            add(buf, src, src[split * pad], MASK_PLACEHOLDER, 1, both, is_set_mask=False)
            pipe_barrier(PIPE_V)
        else:  # one row: copied as it is
            _counter(last)
            adds(dst, src, 0.0, MASK_PLACEHOLDER, 1, plain, is_set_mask=False)
            pipe_barrier(PIPE_V)
            return
    while split > 1:
        split >>= 1
        _counter(pad * split)
        add(cur, cur, cur[split * pad], MASK_PLACEHOLDER, 1, both, is_set_mask=False)
        pipe_barrier(PIPE_V)
    _counter(last)
    adds(dst, cur, 0.0, MASK_PLACEHOLDER, 1, plain, is_set_mask=False)
    pipe_barrier(PIPE_V)


def _ar(dst: LocalTensor, src: LocalTensor, buf: LocalTensor, first: int, last: int, pad: int) -> None:
    """``AR``: the row sums, by the row length's path (module docstring)."""
    if last <= _BLK:
        _short_rows(dst, src, first, last)
        return
    if last <= _REP:
        set_mask_norm()
        for r0 in range(0, first, _ROWS):
            rows = min(_ROWS, first - r0)
            whole_reduce_sum(dst[r0], src[r0 * pad], last, rows, 1, 1, pad // _BLK)
    else:
        per_row = _per_row(last)
        reuse = buf is src
        for r0 in range(0, first, _ROWS):  # reuse: each pass in its own rows (see the module docstring)
            _long_rows(dst[r0], src[r0 * pad], src[r0 * pad] if reuse else buf[r0 * _REP],
                       min(_ROWS, first - r0), per_row, last, pad, reuse)
        set_mask_norm()
    pipe_barrier(PIPE_V)
    reset_mask()


def _short_rows(dst: LocalTensor, src: LocalTensor, first: int, last: int) -> None:
    """Rows of up to 8 floats (one 32 B block each): ``BlockReduceSum`` with each block's first ``last``
    lanes, 255 repeats of 8 rows a call (each call on the next 2040 rows: see the module docstring)."""
    set_mask_norm()
    lanes = (1 << last) - 1
    full = sum(lanes << (_BLK * b) for b in range(_BLK))
    calls, rest = divmod(first, _MAX_REPEAT * _BLK)
    for c in range(calls):
        at = c * _MAX_REPEAT * _BLK
        block_reduce_sum(dst[at], src[at * _BLK], _MAX_REPEAT, [full, 0], 1, 1, 8)
        pipe_barrier(PIPE_V)
    reps, blocks = divmod(rest, _BLK)
    done = calls * _MAX_REPEAT * _BLK
    if reps:
        block_reduce_sum(dst[done], src[done * _BLK], reps, [full, 0], 1, 1, 8)
        pipe_barrier(PIPE_V)
    if blocks:
        at = done + reps * _BLK
        part = sum(lanes << (_BLK * b) for b in range(blocks))
        block_reduce_sum(dst[at], src[at * _BLK], 1, [part, 0], 1, 1, 8)
        pipe_barrier(PIPE_V)


def _long_rows(dst: LocalTensor, src: LocalTensor, buf: LocalTensor, rows: int, per_row: int, last: int,
               pad: int, reuse: bool) -> None:
    """Rows longer than 64 floats: each row's first ``per_row`` packed, the rest added on, then halved."""
    split = 1 << (last.bit_length() - 1)
    tail = last - split or pad - per_row
    gap = (pad - per_row) // _BLK
    if not reuse:
        data_copy(buf, src, DataCopyParams(rows, per_row // _BLK, gap, 0))
        pipe_barrier(PIPE_V)
    n_full, remain = divmod(tail, _REP)
    sliced = n_full + (remain > 0) < rows and per_row // _BLK <= _MAX_REPEAT
    if sliced:  # across the rows: one Add a 64-column slice, every row a repeat
        set_mask_norm()
        stride = pad if reuse else per_row
        params = BinaryRepeatParams(1, 1, 1, stride // _BLK, stride // _BLK, pad // _BLK)
        for i in range(n_full + (remain > 0)):
            width = _REP if i < n_full else remain
            at = i * _REP
            add(buf[at], buf[at], src[per_row + at], width, rows, params)
        pipe_barrier(PIPE_V)
    else:  # along the rows: one Add a row
        for r in range(rows):
            at = r * pad if reuse else r * per_row
            _counter(tail)
            add(buf[at], buf[at], src[r * pad + per_row], MASK_PLACEHOLDER, 1, BinaryRepeatParams(),
                is_set_mask=False)
        pipe_barrier(PIPE_V)
    if reuse:
        data_copy(buf, buf, DataCopyParams(rows, per_row // _BLK, gap, 0))
        pipe_barrier(PIPE_V)
    reset_mask()
    k = per_row
    while k > _REP:
        _counter(rows * k)
        pair_reduce_sum(buf, buf, 1, MASK_PLACEHOLDER, 1, 1, 8, is_set_mask=False)
        pipe_barrier(PIPE_V)
        k >>= 1
    _counter(rows * _REP)
    block_reduce_sum(buf, buf, 1, MASK_PLACEHOLDER, 1, 1, 8, is_set_mask=False)
    pipe_barrier(PIPE_V)
    _counter(rows * _BLK)
    block_reduce_sum(dst, buf, 1, MASK_PLACEHOLDER, 1, 1, 8, is_set_mask=False)


__all__ = ["Pattern", "reduce_sum"]
