"""What every vector instruction shares: dtype groups, counts, repeat parameters, masks.

The high-dimensional form ``op(dst, src..., mask, repeat_times, RepeatParams)``: each repeat
reads 8 data blocks of 32 B per operand (256 B, ``vector_repeat_bytes``); ``blk_stride`` is
the distance between the blocks of one repeat and ``rep_stride`` between repeats, both in
32 B blocks; ``mask`` is either a count (the first ``mask`` elements of each repeat, normal
mode; 0 selects nothing, more than a repeat holds selects all of it) or a list of 64-bit
words (``mask[0]`` bit ``i`` selects element ``i``, ``mask[1]`` elements 64..127), written
to the block's mask register first unless the instruction reads the register
(``is_set_mask=False`` / ``MASK_PLACEHOLDER``); in counter mode the register holds an
element count instead (:mod:`aclsim.kernel.mask`).  :class:`Strided` turns an operand of
that form into a cached index array.
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
from aclsim.kernel.mask import FULL64, MASK_PLACEHOLDER, encode
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
    """``(-1, word0, word1)``: the elements of a repeat a mask argument selects in normal mode
    (a cache key; the register bits past ``per_rep`` dropped)."""
    bits = encode(mask, per_rep) & ((1 << per_rep) - 1)
    return (-1, bits & FULL64, bits >> 64)


@functools.lru_cache(maxsize=1024)
def selected(key: tuple[int, ...], per_rep: int) -> np.ndarray:
    """Element positions (0..per_rep-1) a normal-mode mask selects; in counter mode
    (``key = (-2, n, per_rep)``) the positions 0..n-1 of the whole run, repeat after repeat."""
    if key[0] == -2:
        return np.arange(key[1])
    if key[0] != -1:
        return np.arange(min(key[0], per_rep))
    bits = np.zeros(per_rep, dtype=bool)
    for w, word in enumerate(key[1:]):
        for i in range(min(64, per_rep - 64 * w)):
            if word >> i & 1:
                bits[64 * w + i] = True
    return np.flatnonzero(bits)


@functools.lru_cache(maxsize=4096)
def rep_index(itemsize: int, key: tuple[int, ...], repeat: int, blk_stride: int, rep_stride: int
              ) -> np.ndarray:
    """Element indices an operand touches, from its start: ``(repeat, selected)`` in normal
    mode; in counter mode (``key = (-2, n, per_rep)``) the ``n`` indices of the run, one
    dimension (``per_rep``: elements a repeat holds of the instruction's type)."""
    epb = 32 // itemsize
    per_rep = 8 * epb
    sel = np.arange(key[2]) if key[0] == -2 else selected(key, per_rep)
    r = np.arange(repeat, dtype=np.int64)[:, None] * (rep_stride * epb)
    pos = (sel // epb) * (blk_stride * epb) + sel % epb
    idx = r + pos[None, :]
    if key[0] == -2:
        idx = idx.ravel()[: key[1]]
    idx.setflags(write=False)
    return idx


@functools.lru_cache(maxsize=1024)
def _normal_key(bits: int, per_rep: int) -> tuple[int, ...]:
    """The cache key of the lanes a normal-mode register selects (its bits past ``per_rep`` dropped)."""
    bits &= (1 << per_rep) - 1
    return (-1, bits & FULL64, bits >> 64)


class Strided:
    """The mask and repeat count of one instruction in the high-dimensional form.

    Reads the block's mask register (:mod:`aclsim.kernel.mask`) after writing ``mask`` to
    it, unless ``is_set_mask`` is False or ``mask`` is ``MASK_PLACEHOLDER``.  ``count`` is the
    element count in counter mode (``repeat`` then derived from it), None in normal mode.
    """

    __slots__ = ("key", "repeat", "per_rep", "count")

    def __init__(self, core: Core, name: str, dtype: np.dtype, mask: Any, repeat: Any,
                 is_set_mask: bool | None = None) -> None:
        per_rep = self.per_rep = core.chip.vector_repeat_bytes // dtype.itemsize
        rep = int(repeat)
        if not 0 <= rep <= core.chip.max_repeat:
            raise ValueError(f"{name}: repeat_times must be in 0..{core.chip.max_repeat}, got {rep}")
        counter, bits = core.vmask
        if not (is_set_mask is False or is_set_mask is None and mask is MASK_PLACEHOLDER):
            if mask.__class__ is int and 0 <= mask <= 64:  # the common continuous masks, inlined
                bits = (1 << mask) - 1
            else:
                try:
                    bits = encode(mask, per_rep)
                except ValueError as e:
                    raise ValueError(f"{name}: {e}") from None
            core.vmask = (counter, bits)
        if counter:
            n = bits & FULL64
            limit = core.chip.ub_bytes // dtype.itemsize
            if n > limit:
                raise ValueError(f"{name}: counter mode asks for {n} elements, more than UB holds ({limit} "
                                 f"of {dtype}); set the count with set_vector_mask(n, mode=MaskMode.COUNTER)")
            self.count: int | None = n
            self.repeat = -(-n // per_rep)
            self.key: tuple[int, ...] = (-2, n, per_rep)
        else:
            self.count = None
            self.repeat = rep
            self.key = _normal_key(bits, per_rep)

    @property
    def nop(self) -> bool:
        """No element selected (a zero mask or count): the instruction does nothing."""
        key = self.key
        return key[0] == -2 and key[1] == 0 or key[0] == -1 and not (key[1] or key[2])

    def positions(self) -> np.ndarray:
        """Element positions within the run: ``(repeat, selected)`` of 0..per_rep-1 in normal
        mode, ``r * per_rep + j`` one dimension in counter mode."""
        if self.count is not None:
            return np.arange(self.count)
        sel = selected(self.key, self.per_rep)
        return np.arange(self.repeat, dtype=np.int64)[:, None] * self.per_rep + sel[None, :]

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
