"""What every vector instruction shares: dtype groups, counts, repeat parameters, masks.

The high-dimensional form ``op(dst, src..., mask, repeat_times, RepeatParams)``: each repeat
reads 8 data blocks of 32 B per operand (256 B, ``vector_repeat_bytes``); ``blk_stride`` is
the distance between the blocks of one repeat and ``rep_stride`` between repeats, both in
32 B blocks; ``mask`` is either a count (the first ``mask`` elements of each repeat, normal
mode) or a list of 64-bit words (``mask[0]`` bit ``i`` selects element ``i``, ``mask[1]``
elements 64..127).  :class:`Strided` turns an operand of that form into a cached index array.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from aclsim.errors import LocalOutOfRangeError
from aclsim.isa import Access, Space
from aclsim.kernel._core import Core, bfloat16, float16, float32, int16, int32
from aclsim.kernel.tensor import LocalTensor

FLOATS = (float16, bfloat16, float32)
ARITH = (*FLOATS, int16, int32)

#: The unsigned integer type of each element size (bit patterns: indices, rounding).
UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64}


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


def check_types(name: str, dt: np.dtype, allowed: Sequence[np.dtype]) -> None:
    """Refuse a dtype the instruction does not take."""
    if dt not in allowed:
        raise TypeError(f"{name} does not support {dt}; supported: {', '.join(str(d) for d in allowed)}")


def check_count(count: Any, name: str) -> int:
    """The element count of the count form."""
    n = int(count)
    if n < 0:
        raise ValueError(f"{name}: count must be >= 0, got {n}")
    return n


def repeats(core: Core, nbytes: int) -> int:
    """The repeats of the count form over ``nbytes`` per operand (at least one)."""
    return max(1, -(-nbytes // core.chip.vector_repeat_bytes))


def mask_key(mask: int | Sequence[int], per_rep: int) -> tuple[int, ...]:
    """``(count,)`` of a continuous mask, ``(-1, word0[, word1])`` of a bit mask (a cache key)."""
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
def selected(key: tuple[int, ...], per_rep: int) -> np.ndarray:
    """Element positions (0..per_rep-1) a mask selects."""
    if key[0] != -1:
        return np.arange(key[0])
    bits = np.zeros(per_rep, dtype=bool)
    for w, word in enumerate(key[1:]):
        for i in range(min(64, per_rep - 64 * w)):
            if word >> i & 1:
                bits[64 * w + i] = True
    return np.flatnonzero(bits)


@functools.lru_cache(maxsize=4096)
def rep_index(itemsize: int, key: tuple[int, ...], repeat: int, blk_stride: int, rep_stride: int
              ) -> np.ndarray:
    """Element indices (repeat, selected) an operand touches, from its start."""
    epb = 32 // itemsize
    per_rep = 8 * epb
    sel = selected(key, per_rep)
    r = np.arange(repeat, dtype=np.int64)[:, None] * (rep_stride * epb)
    pos = (sel // epb) * (blk_stride * epb) + sel % epb
    idx = r + pos[None, :]
    idx.setflags(write=False)
    return idx


class Strided:
    """The mask and repeat count of one instruction in the high-dimensional form."""

    __slots__ = ("key", "repeat", "per_rep")

    def __init__(self, core: Core, name: str, dtype: np.dtype, mask: Any, repeat: Any) -> None:
        self.per_rep = core.chip.vector_repeat_bytes // dtype.itemsize
        self.key = mask_key(mask, self.per_rep)
        self.repeat = int(repeat)
        if not 0 <= self.repeat <= core.chip.max_repeat:
            raise ValueError(f"{name}: repeat_times must be in 0..{core.chip.max_repeat}, got {self.repeat}")

    def operand(self, core: Core, t: LocalTensor, blk: int, rep: int, name: str
                ) -> tuple[np.ndarray, np.ndarray, Access]:
        """(elements from the tensor's start to its buffer end, index array, accessed byte range)."""
        idx = rep_index(t.dtype.itemsize, self.key, self.repeat, int(blk), int(rep))
        span = t.span()
        if idx.size == 0:
            return span, idx, core.access(Space.UB, t.offset, 0)
        lo, hi = int(idx.min()), int(idx.max()) + 1
        if hi > span.size:
            core.fault(LocalOutOfRangeError, f"{name}: the repeats reach element {hi - 1}, past the tensor's "
                       f"buffer ({span.size} elements)")
        isz = t.dtype.itemsize
        return span, idx, core.access(Space.UB, t.offset + lo * isz, (hi - lo) * isz)
