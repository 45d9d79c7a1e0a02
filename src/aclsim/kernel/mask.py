"""The vector mask register of a block and its two modes: ``SetMaskNorm``/``SetMaskCount``,
``SetVectorMask``, ``ResetMask``, ``MASK_PLACEHOLDER`` and the ``isSetMask`` switch.

Each block (core) holds one 128-bit mask register and a mode bit (``Core.vmask``).  A
vector instruction of the mask/repeat form runs from the register: with ``isSetMask`` true
(the default) it first writes its own ``mask`` argument into the register, as Ascend C's
``AscendCUtils::SetMask`` does (a count ``n`` becomes the low ``n`` bits; a list
``[low, high]`` is stored as is); with ``is_set_mask=False`` (or ``mask`` given as
:data:`MASK_PLACEHOLDER`) it uses what :func:`set_vector_mask` left there.

- Normal mode (the default): register bit ``i`` selects element ``i`` of every repeat
  (16-bit types use all 128 bits, 32-bit types the low 64, 64-bit types the low 32);
  ``repeat_times`` repeats run.
- Counter mode (after :func:`set_mask_count`): the register's low 64 bits are the number
  of elements ``n`` to process; the instruction's ``repeat_times`` is ignored and
  ``ceil(n / per_repeat)`` repeats run, the last one partly (each repeat still placed by
  the block and repeat strides).

The count form ``op(dst, src..., count)`` (the "first n elements" API) switches to counter
mode, sets ``count``, runs, then restores normal mode and an all-ones mask, as the device
library does: it leaves the register reset.  With ``is_set_mask=False`` it runs one
repeat from the register instead (its ``count`` argument unused).
"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from aclsim.kernel._core import current

FULL64 = (1 << 64) - 1
FULL128 = (1 << 128) - 1
#: The register after ``ResetMask`` (and at block start): normal mode, all bits set.
RESET = (False, FULL128)


class MaskMode(enum.IntEnum):
    """``MaskMode``: the template argument of ``SetVectorMask<T, mode>``."""

    NORMAL = 0
    COUNTER = 1


class _Placeholder(int):
    """``MASK_PLACEHOLDER``: a mask argument that says "use the register" (its value is 0, as in
    Ascend C)."""

    def __repr__(self) -> str:
        return "MASK_PLACEHOLDER"


#: Pass as the ``mask`` of an instruction whose mask comes from :func:`set_vector_mask`
#: (``isSetMask = false`` in Ascend C); aclsim then reads the register even without
#: ``is_set_mask=False``.
MASK_PLACEHOLDER = _Placeholder(0)


def encode_len(length: int, per_rep: int) -> int:
    """The register bits ``SetMask<T>(len)`` writes for a continuous mask of ``length``
    (``per_rep`` elements of ``T`` per repeat): the low ``length`` bits; 64 -> the low word;
    ``per_rep`` or 128 and more -> all 128 bits."""
    if length < 0:
        raise ValueError(f"a continuous mask must be >= 0, got {length}")
    if length == 64:
        return FULL64
    if length == per_rep or length >= 128:
        return FULL128
    return (1 << length) - 1


def encode(mask: Any, per_rep: int) -> int:
    """The 128 register bits an instruction's ``mask`` argument writes (``isSetMask`` true)."""
    if isinstance(mask, (int, np.integer)):
        return encode_len(int(mask), per_rep)
    words = [int(w) & FULL64 for w in mask]
    if not words or len(words) > 2:
        raise ValueError("a bit mask is a list of one or two 64-bit words")
    if per_rep <= 64 and len(words) == 2 and words[1]:
        raise ValueError(f"mask[1] must be 0 for {per_rep}-element repeats (32-bit types)")
    return words[0] | (words[1] << 64 if len(words) == 2 else 0)


def set_mask_count() -> None:
    """``SetMaskCount()``: counter mode; the register's low 64 bits count the elements to process."""
    core = current()
    core.vmask = (True, core.vmask[1])


def set_mask_norm() -> None:
    """``SetMaskNorm()``: normal mode (the default); the register masks each repeat."""
    core = current()
    core.vmask = (False, core.vmask[1])


def reset_mask() -> None:
    """``ResetMask()``: all 128 register bits set (the mode is unchanged)."""
    core = current()
    core.vmask = (core.vmask[0], FULL128)


def set_vector_mask(*args: Any, dtype: Any = None, mode: MaskMode = MaskMode.NORMAL) -> None:
    """``SetVectorMask<T, mode>(len)`` or ``SetVectorMask<T, mode>(maskHigh, maskLow)``.

    ``(mask_high, mask_low)`` stores the two words as they are (counter mode: ``mask_low`` is
    the element count, ``mask_high`` 0).  ``(len,)`` with ``mode=MaskMode.COUNTER`` stores
    ``len`` in the low word (the count); with ``MaskMode.NORMAL`` (the default, as in Ascend
    C) it stores a continuous mask of ``len`` elements of ``dtype`` (the low ``len`` bits;
    ``dtype`` matters only for a 64-bit type's full 32-element mask).  The register's mode
    is set by :func:`set_mask_count` / :func:`set_mask_norm`, not here.

    >>> # in a kernel:  set_mask_count(); set_vector_mask(130, mode=MaskMode.COUNTER)
    >>> # add(z, x, y, MASK_PLACEHOLDER, 1, BinaryRepeatParams(), is_set_mask=False)
    """
    core = current()
    if len(args) == 2:
        high, low = (int(a) for a in args)
        if high < 0 or low < 0:
            raise ValueError(f"set_vector_mask: mask words must be >= 0, got {high}, {low}")
        bits = (high & FULL64) << 64 | (low & FULL64)
    elif len(args) == 1:
        length = int(args[0])
        if MaskMode(mode) is MaskMode.COUNTER:
            if length < 0:
                raise ValueError(f"set_vector_mask: the element count must be >= 0, got {length}")
            bits = length & FULL64
        else:
            itemsize = 2 if dtype is None else np.dtype(dtype).itemsize
            bits = encode_len(length, core.chip.vector_repeat_bytes // itemsize)
    else:
        raise TypeError("set_vector_mask(len) or set_vector_mask(mask_high, mask_low)")
    core.vmask = (core.vmask[0], bits)


def vector_mask_state() -> tuple[bool, int, int]:
    """The block's mask state ``(counter_mode, mask_high, mask_low)``: aclsim's own reader (no
    Ascend C counterpart), for tests and debugging."""
    counter, bits = current().vmask
    return counter, bits >> 64, bits & FULL64
