"""Scalar helpers, constants and the CTRL register that real kernels call.

- The repeat constants of Ascend C's ``kernel_utils_constants.h`` (``ONE_REPEAT_BYTE_SIZE``,
  ``DEFAULT_REPEAT_STRIDE``...), the same on every chip aclsim models (256 B repeats of 8
  blocks of 32 B), and :func:`get_data_block_size_in_bytes` (``GetDataBlockSizeInBytes``).
- :func:`to_float` (``ToFloat``): a bfloat16 (or half) scalar, such as a ``GetValue``
  result, as a float32, exactly; :func:`to_bfloat16` (``ToBfloat16``) the other way.
- :class:`AscendCUtils`: the static helpers of Ascend C's class of that name that kernels
  call (``SetMask``, ``GetBitSize``, ``GetC0Count``, ``SetOverflow``...).
- :func:`set_ctrl_spr` / :func:`get_ctrl_spr` (``SetCtrlSpr<start, end>`` /
  ``GetCtrlSpr<start, end>``): bits of the block's 64-bit CTRL register.  The Atlas A2/A3
  chips (arch 2201) accept CTRL[48] only, the float overflow mode: 1 is Inf/NaN mode
  (results keep inf and NaN; what the block starts in, the runtime's default
  ``ACL_RT_OVERFLOW_MODE_INFNAN``), 0 the saturation mode (half and bfloat16 results: inf ->
  +-MAX, NaN -> 0), which the instructions then read for the rest of the block
  (:mod:`aclsim.kernel.saturation` says which).  Any bit reads (the other bits as 0); a write
  that would change a bit other than 48 faults (207000), one that writes back what the bits
  hold (the save/restore of the Ascend 950 kernels' CTRL[60]) changes nothing and passes.  The
  inference chips (arch 2002) have no ``SetCtrlSpr``.
"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from aclsim.kernel._core import UnsupportedFault, bfloat16, current, float16, float32
from aclsim.kernel.helpers import DEFAULT_C0_SIZE, ONE_BLK_SIZE
from aclsim.kernel.mask import FULL64, encode, encode_len, reset_mask, set_mask_count, set_mask_norm
from aclsim.kernel.saturation import CTRL_OVERFLOW_BIT, CTRL_OVERFLOW_BIT_2002, CTRL_RESET

#: Bytes one vector repeat reads per operand (8 blocks of 32 B).
ONE_REPEAT_BYTE_SIZE = 256
#: Blocks of 32 B in one repeat.
DEFAULT_BLK_NUM = 8
#: The repeat stride of contiguous repeats, in blocks.
DEFAULT_REPEAT_STRIDE = 8
#: A quarter of it (contiguous repeats of 64 elements of a 16-bit type read by a 32-bit op).
ONE_FOURTH_DEFAULT_REPEAT_STRIDE = 2
#: Half of it.
HALF_DEFAULT_REPEAT_STRIDE = 4
#: The block stride of contiguous blocks.
DEFAULT_BLK_STRIDE = 1
#: float32 elements in one 32 B block.
ONE_BLK_FLOAT_NUM = 8
#: half elements in one 32 B block.
ONE_BLK_HALF_NUM = 16
#: Bits in a byte.
ONE_BYTE_BIT_SIZE = 8
#: The largest ``repeatTime`` of a vector instruction.
MAX_REPEAT_TIMES = 255

#: The CTRL bits ``SetCtrlSpr`` may write, by arch (the SetCtrlSpr page: A2/A3 CTRL[48] only).
_CTRL_BITS = {"2201": (CTRL_OVERFLOW_BIT,)}


def get_data_block_size_in_bytes() -> int:
    """``GetDataBlockSizeInBytes()``: bytes of one data block (32 on every chip aclsim models).

    >>> get_data_block_size_in_bytes()
    32
    """
    return ONE_BLK_SIZE


def to_float(value: Any) -> np.float32:
    """``ToFloat(v)``: a bfloat16 scalar (a ``GetValue`` result) as float32, exactly (the bits
    shifted up, as Ascend C does); half and float32 scalars convert exactly too.

    >>> import ml_dtypes
    >>> float(to_float(ml_dtypes.bfloat16(1.5)))
    1.5
    """
    dt = getattr(value, "dtype", None)
    if dt is None:
        if isinstance(value, (bool, int, float, np.integer, np.floating)):
            raise TypeError(f"to_float takes a bfloat16 (or half) scalar such as a get_value result, got "
                            f"{type(value).__name__} {value!r}; use np.float32(v) for a Python number")
        raise TypeError(f"to_float takes a bfloat16 (or half) scalar, got {type(value).__name__}")
    dt = np.dtype(dt)
    if dt not in (bfloat16, float16, float32):
        raise TypeError(f"to_float takes a bfloat16 or half scalar, got {dt}")
    return np.float32(np.asarray(value, dtype=dt).astype(np.float32))


def to_bfloat16(value: Any) -> Any:
    """``ToBfloat16(f)``: a float scalar (rounded to float32 first, as C++ passes it) as bfloat16,
    rounded to nearest even as Ascend C's bit code does; a NaN becomes 0x7FFF, inf stays inf.

    >>> float(to_bfloat16(1.0 + 2 ** -8)), float(to_bfloat16(3e38))
    (1.0, 3.00405527047391e+38)
    """
    f = np.float32(value)
    if np.isnan(f):
        return np.uint16(0x7FFF).view(bfloat16)
    return bfloat16.type(f)


def _ctrl_range(name: str, start: int, end: int) -> tuple[int, int]:
    start, end = int(start), int(end)
    if not 0 <= start <= end <= 63:
        raise ValueError(f"{name}: the bit range must satisfy 0 <= start_bit <= end_bit <= 63, got "
                         f"[{start}, {end}]")
    return start, end


def _ctrl(core: Any, name: str) -> int:
    bits = _CTRL_BITS.get(core.chip.arch_version)
    if bits is None:
        core.fault(UnsupportedFault, f"{name}: {core.chip.name} (arch {core.chip.arch_version}) has no "
                   "SetCtrlSpr/GetCtrlSpr (Atlas A2/A3 and Ascend 950 only)",
                   hint="the CTRL register is not accessible on this chip")
    return int(core.spr.get("CTRL", CTRL_RESET))


def get_ctrl_spr(start_bit: int, end_bit: int) -> int:
    """``GetCtrlSpr<startBit, endBit>()``: bits ``start_bit..end_bit`` of the block's CTRL
    register (bit 48 reads 1, Inf/NaN mode, unless the kernel changed it)."""
    core = current()
    start, end = _ctrl_range("get_ctrl_spr", start_bit, end_bit)
    reg = _ctrl(core, "get_ctrl_spr")
    return (reg >> start) & ((1 << (end - start + 1)) - 1)


def set_ctrl_spr(start_bit: int, end_bit: int, value: int) -> None:
    """``SetCtrlSpr<startBit, endBit>(value)``: write ``value`` into bits ``start_bit..end_bit`` of
    the block's CTRL register.  On arch 2201 only CTRL[48] exists: 1 Inf/NaN mode, 0 the float
    saturation mode (:mod:`aclsim.kernel.saturation`), from this instruction on."""
    core = current()
    name = "set_ctrl_spr"
    start, end = _ctrl_range(name, start_bit, end_bit)
    width = end - start + 1
    v = int(value)
    if not 0 <= v < (1 << width):
        raise ValueError(f"{name}: value {v} does not fit bits [{start}, {end}] ({width} bits)")
    reg = _ctrl(core, name)
    allowed = _CTRL_BITS[core.chip.arch_version]
    new = (reg & ~(((1 << width) - 1) << start)) | (v << start)
    changed = [b for b in range(start, end + 1) if (new ^ reg) >> b & 1]
    if any(b not in allowed for b in changed):  # writing back what a bit holds changes nothing: allowed
        core.fault(UnsupportedFault, f"{name}: {core.chip.name} (arch {core.chip.arch_version}) has CTRL "
                   f"bit{'s' if len(allowed) > 1 else ''} {', '.join(map(str, allowed))} only; this write "
                   f"changes bit{'s' if len(changed) > 1 else ''} {', '.join(map(str, changed))}",
                   hint="the other CTRL bits exist on the Ascend 950 only")
    core.spr["CTRL"] = new


class SaturationMode(enum.IntEnum):
    """``SaturationMode`` (the SetSaturationFlag page): ``FLOAT`` the float saturation mode of half and
    bfloat16 computation and conversion (CTRL[48]), ``CAST`` the saturation of float -> integer and
    integer -> integer conversions (CTRL[59])."""

    FLOAT = 0
    CAST = 1


def _saturation_bit(name: str, mode: Any) -> int:
    core = current()
    if core.chip.arch_version != "2201":
        core.fault(UnsupportedFault, f"{name}: {core.chip.name} (arch {core.chip.arch_version}) has no "
                   "SetSaturationFlag/GetSaturationFlag (Atlas A2/A3 only)",
                   hint="AscendCUtils.set_overflow sets the overflow mode of the inference chips")
    if SaturationMode(mode) is SaturationMode.CAST:
        core.fault(UnsupportedFault, f"{name}: SaturationMode.CAST (CTRL[59], the overflow of conversions to "
                   "integers) is not modelled: the pages give neither its default on Atlas A2/A3 nor which "
                   "Cast pairs it changes; aclsim's cast saturates float -> integer and keeps the low bits "
                   "of integer narrowing", hint="leave the conversion mode at its default")
    return CTRL_OVERFLOW_BIT


def set_saturation_flag(mode: SaturationMode, enable_sat: bool) -> None:
    """``SetSaturationFlag<mode>(enableSat)``: ``FLOAT``: True turns the float saturation mode on
    (CTRL[48] = 0), False off (CTRL[48] = 1); ``CAST`` faults (not modelled)."""
    bit = _saturation_bit("set_saturation_flag", mode)
    set_ctrl_spr(bit, bit, 0 if enable_sat else 1)


def get_saturation_flag(mode: SaturationMode) -> bool:
    """``GetSaturationFlag<mode>()``: whether the saturation mode ``mode`` is on (``FLOAT``: CTRL[48]
    is 0)."""
    bit = _saturation_bit("get_saturation_flag", mode)
    return get_ctrl_spr(bit, bit) == 0


class AscendCUtils:
    """The static helpers of Ascend C's ``AscendCUtils`` that kernels call (``AscendCUtils::SetMask<T>
    (len)`` -> ``AscendCUtils.set_mask(len, dtype=T)``)."""

    @staticmethod
    def get_bit_size(byte_size: int) -> int:
        """``GetBitSize(byteSize)``: ``byteSize * 8``."""
        return int(byte_size) * ONE_BYTE_BIT_SIZE

    @staticmethod
    def get_c0_size() -> int:
        """``GetC0Size()``: bytes of a C0 row (32)."""
        return DEFAULT_C0_SIZE

    @staticmethod
    def get_c0_count(dtype_size: int) -> int:
        """``GetC0Count(dtypeSize)``: elements of ``dtypeSize`` bytes in a C0 row."""
        size = int(dtype_size)
        if size <= 0:
            raise ValueError(f"get_c0_count: dtype_size must be > 0, got {size}")
        return DEFAULT_C0_SIZE // size

    @staticmethod
    def get_default_block_num() -> int:
        """``GetDefaultBlockNum()``: blocks of a repeat (8)."""
        return DEFAULT_BLK_NUM

    @staticmethod
    def set_mask(*args: Any, dtype: Any = float16, is_set_mask: bool = True) -> None:
        """``SetMask<T, isSetMask>(len)`` (a continuous mask of ``len`` elements of ``dtype``) or
        ``SetMask<T>(maskHigh, maskLow)``: write the block's vector mask register (the mode is
        unchanged); nothing with ``is_set_mask=False``."""
        if not is_set_mask:
            return
        core = current()
        per_rep = core.chip.vector_repeat_bytes // np.dtype(dtype).itemsize
        if len(args) == 1:
            bits = encode_len(int(args[0]), per_rep)
        elif len(args) == 2:
            high, low = (int(a) for a in args)
            if high < 0 or low < 0:
                raise ValueError(f"set_mask: mask words must be >= 0, got {high}, {low}")
            bits = encode([low & FULL64, high & FULL64], 128)
        else:
            raise TypeError("AscendCUtils.set_mask(len, dtype=T) or "
                            "AscendCUtils.set_mask(mask_high, mask_low)")
        core.vmask = (core.vmask[0], bits)

    @staticmethod
    def reset_mask(is_set_mask: bool = True) -> None:
        """``ResetMask<isSetMask>()``: all mask bits set."""
        if is_set_mask:
            reset_mask()

    @staticmethod
    def set_mask_count(dtype: Any = None) -> None:
        """``SetMaskCount<T>()``: counter mode."""
        set_mask_count()

    @staticmethod
    def set_mask_norm(dtype: Any = None) -> None:
        """``SetMaskNorm<T>()``: normal mode."""
        set_mask_norm()

    @staticmethod
    def set_overflow(ctrl_value: int) -> None:
        """``SetOverflow(v)``: the float overflow mode, CTRL[48] on arch 2201, CTRL[53] on arch 2002
        (1 Inf/NaN, else the saturation mode of :mod:`aclsim.kernel.saturation`)."""
        core = current()
        if core.chip.arch_version == "2002":  # no SetCtrlSpr there: SetOverflow writes CTRL[53]
            reg = int(core.spr.get("CTRL", 0)) & ~(1 << CTRL_OVERFLOW_BIT_2002)
            core.spr["CTRL"] = reg | (0 if int(ctrl_value) == 1 else 1 << CTRL_OVERFLOW_BIT_2002)
            return
        set_ctrl_spr(CTRL_OVERFLOW_BIT, CTRL_OVERFLOW_BIT, 1 if int(ctrl_value) == 1 else 0)


__all__ = [
    "DEFAULT_BLK_NUM",
    "DEFAULT_BLK_STRIDE",
    "DEFAULT_REPEAT_STRIDE",
    "HALF_DEFAULT_REPEAT_STRIDE",
    "MAX_REPEAT_TIMES",
    "ONE_BLK_FLOAT_NUM",
    "ONE_BLK_HALF_NUM",
    "ONE_BYTE_BIT_SIZE",
    "ONE_FOURTH_DEFAULT_REPEAT_STRIDE",
    "ONE_REPEAT_BYTE_SIZE",
    "AscendCUtils",
    "SaturationMode",
    "get_ctrl_spr",
    "get_data_block_size_in_bytes",
    "get_saturation_flag",
    "set_ctrl_spr",
    "set_saturation_flag",
    "to_bfloat16",
    "to_float",
]
