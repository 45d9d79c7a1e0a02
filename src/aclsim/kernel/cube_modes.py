"""Cube modes: ``SetHF32Mode``/``SetHF32TransMode`` and the ``unitFlag`` of ``Mmad``/``Fixpipe``.

HF32: with ``set_hf32_mode(HF32Mode.ENABLE)`` the float32 operands of ``mmad`` are rounded to
HF32 before the multiply (the products are then summed in float32 as before): the sign and the
8 exponent bits of float32 and the top 11 mantissa bits on arch 2201 (10 on arch 3510, as the
HF32 page notes; the 11 of arch 2201 is the Atlas A2 HF32 format, 1 + 8 + 11 bits: the page's
figure, not its text, gives it).  ``HF32TransMode.NEAREST_EVEN`` rounds to nearest, ties to
even; ``NEAREST_ZERO`` rounds to nearest, ties toward zero (aclsim's reading of "以向零靠近的方式
四舍五入").  Infinities and NaNs stay as they are; a carry past the largest finite value gives
infinity.  Not available on the 310P (arch 2002): ``UnsupportedFault``.

unitFlag: ``MmadParams.unit_flag`` / ``FixpipeParamsV220.unit_flag`` take 0 (off), 2 or 3
(anything else: ``ValueError``).  aclsim checks the value and keeps the hardware's handshake
out of its model: the per-512 B L0C unit flags that let a fixpipe read a block as soon as the
mmad finished it are not simulated, so the M -> FIX and FIX -> M order of a kernel must still
come from its flags or queues (the CO1 queue emits them), and the core model times the two
instructions as with ``unit_flag=0``.
"""

from __future__ import annotations

import enum

import numpy as np

from aclsim.isa import NO_COST, Pipe
from aclsim.kernel._core import Core, UnsupportedFault, current


class HF32Mode(enum.IntEnum):
    """``HF32Mode``: ``DISABLE`` (plain float32 mmad) or ``ENABLE`` (operands rounded to HF32)."""

    DISABLE = 0
    ENABLE = 1


class HF32TransMode(enum.IntEnum):
    """``HF32TransMode``: how float32 is rounded to HF32 (``asc_enable_hf32_trans``: 0 even, 1 zero)."""

    NEAREST_EVEN = 0
    NEAREST_ZERO = 1


#: arch -> mantissa bits of HF32
HF32_MANTISSA = {"2201": 11, "3510": 10}


def to_hf32(x: np.ndarray, mantissa: int, trans: int) -> np.ndarray:
    """``x`` (float32) rounded to ``mantissa`` mantissa bits (see the module docstring), as float32."""
    x = np.ascontiguousarray(x, np.float32)
    bits = x.view(np.uint32)
    drop = 23 - mantissa
    half = np.uint32(1 << (drop - 1))
    keep = np.uint32(~((1 << drop) - 1) & 0xFFFFFFFF)
    if trans == HF32TransMode.NEAREST_EVEN:
        bias = half - np.uint32(1) + ((bits >> np.uint32(drop)) & np.uint32(1))
    else:
        bias = half - np.uint32(1)  # ties go down in magnitude: toward zero
    rounded = ((bits + bias) & keep).view(np.float32)
    return np.where(np.isfinite(x), rounded, x)


def _mode(core: Core, name: str) -> int:
    bits = HF32_MANTISSA.get(core.chip.arch_version)
    if bits is None:
        core.fault(UnsupportedFault, f"{name}: no HF32 on {core.chip.name} (arch {core.chip.arch_version})",
                   hint="HF32 exists on arch 2201 (Atlas A2) and 3510")
    return bits


def set_hf32_mode(mode: HF32Mode | bool) -> None:
    """``SetHF32Mode(mode)``: round the float32 operands of later ``mmad`` to HF32 (PIPE_S)."""
    core = current()
    name = "set_hf32_mode"
    bits = _mode(core, name)
    trans = core.hf32[2] if core.hf32 is not None else HF32TransMode.NEAREST_EVEN
    core.hf32 = (HF32Mode(int(mode)) is HF32Mode.ENABLE, bits, trans)
    core.emit(Pipe.S, name, (), (), NO_COST)


def set_hf32_trans_mode(mode: HF32TransMode) -> None:
    """``SetHF32TransMode(mode)``: how ``set_hf32_mode`` rounds (PIPE_S; kept while HF32 is off)."""
    core = current()
    name = "set_hf32_trans_mode"
    bits = _mode(core, name)
    core.hf32 = (core.hf32 is not None and core.hf32[0], bits, HF32TransMode(int(mode)))
    core.emit(Pipe.S, name, (), (), NO_COST)


def check_unit_flag(core: Core, value: int, op: str) -> None:
    """``unit_flag`` must be 0, 2 or 3."""
    if value not in (0, 2, 3):
        raise ValueError(f"{op}: unit_flag is 0 (off), 2 or 3, got {value}")
