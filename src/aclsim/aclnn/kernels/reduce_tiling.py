"""Shared by the reduction, softmax and normalisation kernels: views of a tensor as
``(outer, r, inner)``, the accumulation dtype of an input, UB budgets and the in-kernel
moves every row-wise kernel makes (rows into 32 B-aligned UB slots, casts to and from the
accumulator, one value per row into an output tile).  Every hardware figure comes from the
:class:`~aclsim.arch.ChipSpec` passed in.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import aclsim.kernel as asc
from aclsim.arch import ChipSpec
from aclsim.errors import AclnnParamInvalidError

BLOCK = 32  # bytes of one UB data block (every UB operand starts on one)
#: Elements a masked ``duplicate`` can reach in one 64-bit mask word (the group an output
#: tile is addressed in, so every dtype's group start stays 32 B aligned).
GROUP = 64

FLOAT_IN = (asc.float16, asc.bfloat16, asc.float32)
INT_IN = (asc.int8, asc.uint8, asc.int16, asc.int32)
BOOL = np.dtype(np.bool_)


def kernel_dtype(dt: Any, what: str) -> np.dtype:
    """``dt`` as a dtype the vector kernels move (bool travels as its uint8 bytes)."""
    d = np.dtype(dt)
    if d in FLOAT_IN or d in INT_IN or d == BOOL:
        return d
    raise AclnnParamInvalidError(
        f"{what} dtype {d} has no vector kernel (the AI Core vector unit computes float16, bfloat16, "
        "float32 and int16/int32; int8/uint8/bool are widened)",
        hint="cast to float32 or int32 first (float64, complex and int64 are not on the vector unit)",
    )


def storage(dt: np.dtype) -> np.dtype:
    """The dtype a kernel's tensors use for ``dt`` (bool as uint8)."""
    return asc.uint8 if dt == BOOL else dt


def acc_dtype(dt: np.dtype) -> np.dtype:
    """float32 for floats (as the real kernels accumulate float16/bfloat16), int32 for integers."""
    return asc.float32 if dt in FLOAT_IN else asc.int32


def align_elems(n: int, itemsize: int) -> int:
    """``n`` elements rounded up to whole 32 B blocks."""
    per = BLOCK // itemsize
    return -(-n // per) * per


def ub_budget(chip: ChipSpec) -> int:
    """UB bytes a kernel plans with: the usable UB less one 1 KiB page for slots and scratch."""
    return chip.ub_usable_bytes - 1024


def normalize_dims(dims: Sequence[int] | None, rank: int) -> tuple[int, ...]:
    """Reduced axes, non-negative and sorted; ``None`` or empty: every axis (ReduceSum's rule)."""
    if not dims:
        return tuple(range(rank))
    out = []
    for d in dims:
        d = int(d)
        if not -max(rank, 1) <= d < max(rank, 1):
            raise AclnnParamInvalidError(f"dim {d} is out of range for rank {rank}",
                                         hint=f"pass dims in [-{max(rank, 1)}, {max(rank, 1) - 1}]")
        out.append(d % max(rank, 1))
    if len(set(out)) != len(out):
        raise AclnnParamInvalidError(f"dims {list(dims)} repeat an axis", hint="name each axis once")
    return tuple(sorted(d for d in out if d < rank))


def reduce_views(shape: Sequence[int], dims: Sequence[int]) -> list[tuple[int, int, int]]:
    """The ``(outer, r, inner)`` views of successive passes that reduce ``dims`` of ``shape``.

    Adjacent axes merge; each run of reduced axes is one pass, innermost run first (each
    pass's output is the next one's input), so non-adjacent axes cost one pass per run.
    A tensor with nothing to reduce is one pass with ``r == 1`` (a copy with the cast).
    """
    shape = [int(s) for s in shape]
    red = set(dims)
    runs: list[tuple[int, int]] = []  # [start, stop) of reduced runs
    for a in range(len(shape)):
        if a in red:
            if runs and runs[-1][1] == a:
                runs[-1] = (runs[-1][0], a + 1)
            else:
                runs.append((a, a + 1))
    if not runs:
        n = math.prod(shape)
        return [(n, 1, 1)]
    views = []
    cur = list(shape)
    for start, stop in reversed(runs):
        outer = math.prod(cur[:start])
        r = math.prod(cur[start:stop])
        inner = math.prod(cur[stop:])
        views.append((outer, r, inner))
        cur = cur[:start] + [1] * (stop - start) + cur[stop:]
    return views


def split_evenly(n: int, parts: int, i: int) -> tuple[int, int]:
    """``[start, stop)`` of part ``i`` of ``n`` items cut into ``parts`` near-equal ranges."""
    q, rem = divmod(n, parts)
    start = i * q + min(i, rem)
    return start, start + q + (1 if i < rem else 0)


# --- in-kernel helpers (call them from a running kernel) ---------------------------------------


def load_rows(dst: Any, src: Any, rows: int, length: int, gap: int = 0, slot: int = 0) -> None:
    """``rows`` GM rows of ``length`` elements (``gap`` elements between them) into UB slots of
    ``slot`` elements each (default and at least ``align_elems(length)``; ``data_copy_pad``:
    exact for any length)."""
    isz = src.dtype.itemsize
    ub_gap = max(0, slot - align_elems(length, isz)) * isz // BLOCK
    asc.data_copy_pad(dst, src, asc.DataCopyExtParams(rows, length * isz, gap * isz, ub_gap, 0),
                      asc.DataCopyPadExtParams(False, 0, 0, 0))


def store_rows(dst: Any, src: Any, rows: int, length: int, gap: int = 0, slot: int = 0) -> None:
    """``rows`` UB slots of ``slot`` elements (default ``align_elems(length)``) back to GM rows of
    ``length`` elements, ``gap`` elements apart."""
    isz = dst.dtype.itemsize
    ub_gap = max(0, slot - align_elems(length, isz)) * isz // BLOCK
    asc.data_copy_pad(dst, src, asc.DataCopyExtParams(rows, length * isz, ub_gap, gap * isz, 0))


def convert(dst: Any, src: Any, count: int) -> None:
    """``cast`` between dtypes (round to nearest even; integer narrowing keeps the low bits)."""
    floats = dst.dtype in FLOAT_IN or src.dtype in FLOAT_IN
    mode = asc.RoundMode.CAST_RINT if floats else asc.RoundMode.CAST_NONE
    asc.cast(dst, src, mode, count)


def put_value(tile: Any, index: int, value: Any) -> None:
    """Element ``index`` of the UB ``tile`` := ``value`` on the vector pipe (a ``duplicate`` whose
    bit mask selects one element of the 64-element group holding it)."""
    g = index // GROUP * GROUP
    asc.duplicate(tile[g], value, [1 << (index - g)], 1, 1, 8)


def move(dst: Any, src: Any, n: int) -> None:
    """``n`` elements from ``src`` to ``dst`` on the vector pipe: a cast, or a copy of whole blocks."""
    if dst.dtype != src.dtype:
        convert(dst, src, align_elems(n, min(dst.dtype.itemsize, src.dtype.itemsize)))
    else:
        asc.data_copy(dst, src, align_elems(n, dst.dtype.itemsize))


# --- per-row statistics without the scalar pipe --------------------------------------------------
#
# A row's statistic (its sum or max) is taken with ``reduce_sum``/``reduce_max`` into element 0 of a
# 32 B slot, then spread over the slot's whole block with a ``whole_reduce`` of that one element
# repeated 8 times from the same source (``src_rep_stride`` 0).  A per-row scalar step then runs on
# the block (``muls``/``adds``/``rsqrt`` of 8 elements) and is applied to the row by a binary
# instruction that reads the block for every block of every repeat (``src1`` strides 0): no value
# goes to the scalar pipe, so the scalar unit never waits for the vector pipe and keeps issuing
# the next tiles' loads.  Results of several rows are gathered out of their blocks into a
# contiguous tile by one ``whole_reduce`` of ``mask`` 1, one repeat per row (``src_rep_stride`` 1).

def spread(bc: Any, one: Any, kind: str = "sum") -> None:
    """``bc[0:8]`` := ``one[0]`` (float32 blocks, on the vector pipe)."""
    if kind == "max":
        asc.whole_reduce_max(bc, one, 1, 8, 1, 1, 0, asc.ReduceOrder.ORDER_ONLY_VALUE)
    else:
        asc.whole_reduce_sum(bc, one, 1, 8, 1, 1, 0)


def gather(dst: Any, blocks: Any, k: int, kind: str = "sum") -> None:
    """``dst[j]`` := ``blocks[8 j]`` for ``j < k`` (the first element of ``k`` 32 B float32 blocks)."""
    if k == 0:
        return
    if kind == "max":
        asc.whole_reduce_max(dst, blocks, 1, k, 1, 1, 1, asc.ReduceOrder.ORDER_ONLY_VALUE)
    else:
        asc.whole_reduce_sum(dst, blocks, 1, k, 1, 1, 1)


_BCAST = asc.BinaryRepeatParams(1, 1, 0, 8, 8, 0)

#: Bytes of one turn of the A2 UB bank groups (16 groups of 32 B rows); half a turn is 8 groups.
TURN = 512


def stat_block(area: Any, j: int, half: int) -> Any:
    """Row ``j``'s 32 B float32 block in a statistics area laid out by bank: 8 rows to a 512 B
    turn of the bank groups, all in one half of the groups (``half`` 0: groups 0-7 of the turn,
    1: groups 8-15), so an instruction streaming a tile through the other half never meets a
    row's statistic in its groups.  The area takes ``TURN * ceil(rows / 8)`` bytes."""
    return area[TURN // 4 * (j // 8) + TURN // 8 * half + 8 * (j % 8)]


def stat_runs(first: int, k: int) -> list[tuple[int, int]]:
    """Rows ``first .. first+k-1`` as ``(row, count)`` runs whose blocks are contiguous (within
    one turn of :func:`stat_block`)."""
    runs = []
    j = first
    while j < first + k:
        m = min(8 - j % 8, first + k - j)
        runs.append((j, m))
        j += m
    return runs


@dataclass(frozen=True)
class VecShape:
    """What a kernel's repeat-form loops need of the chip: bytes per repeat, most repeats per
    instruction."""

    repeat_bytes: int
    max_repeat: int

    @classmethod
    def of(cls, chip: ChipSpec) -> VecShape:
        return cls(chip.vector_repeat_bytes, chip.max_repeat)


def row_apply(op: Any, dst: Any, src: Any, bc: Any, n: int, vec: VecShape) -> None:
    """``dst[i] = op(src[i], bc[i % 8])`` for ``i < n``: whole repeats with ``bc``'s block read for
    every block (``src1`` block and repeat strides 0), then a masked tail repeat; never touches
    ``dst`` past ``n``."""
    per = vec.repeat_bytes // dst.dtype.itemsize
    full, tail = divmod(n, per)
    c = 0
    while full:
        rep = min(full, vec.max_repeat)
        op(dst[c], src[c], bc, per, rep, _BCAST)
        c += rep * per
        full -= rep
    if tail:
        op(dst[c], src[c], bc, tail, 1, _BCAST)
