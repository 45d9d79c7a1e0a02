"""The float saturation mode of the Atlas A2/A3 vector unit (CTRL[48], ``SetCtrlSpr<48, 48>``).

The documentation (asc-devkit ``docs/zh/api/SIMD-API/基础API/特殊寄存器访问/SetCtrlSpr(ISASI).md``,
tables 4 and 5, and ``docs/zh/api/附录/Memory矢量计算接口边界值汇总.md``) says, for the Atlas
A2/A3 chips (arch 2201): CTRL[48] = 1 is the Inf/NaN (non-saturating) mode, results keep inf
and NaN; CTRL[48] = 0 is the saturation mode of float computation and float precision
conversion: an inf result becomes +-MAX of the destination type and a NaN result 0.  It acts
on half and bfloat16 results only (float results keep inf/NaN "even in saturation mode";
integer results follow CTRL[53], which ``SetCtrlSpr`` cannot write on these chips).  The mode
is a bit of the block's CTRL register: it holds from the write for the rest of the block (or
until written again) and every affected instruction reads it when it executes.

The inference chips (arch 2002) have no ``SetCtrlSpr``; ``AscendCUtils::SetOverflow`` sets their
CTRL[53] (1 saturation, 0 Inf/NaN, per Ascend C's implementation).  The public pages describe the
mode's effect for Atlas A2/A3 only: aclsim applies the same rule on arch 2002 (an assumption).

aclsim applies it (:func:`saturate`) in the instructions the appendix lists with a saturated
column and that live in this package's elementwise, ``axpy`` and ``cast`` code: ``Add``, ``Sub``,
``Mul``, ``Div``, ``Max``, ``Min``, ``Adds``, ``Muls``, ``Maxs``, ``Mins``, ``Exp``, ``Ln``,
``Sqrt``, ``Abs``, ``Relu``, ``Rsqrt``, ``Reciprocal``, ``LeakyRelu``, ``Axpy`` (its half product
saturates too, as the appendix's intermediate column shows), ``Cast`` to half/bfloat16
(``CastDequant``'s int32 -> half included) and the ``Adds`` steps of ``ArithProgression`` /
``CreateVecIndex``.  The instructions outside those modules that write
half/bfloat16 (the reductions, the dequantisations of ``kernel/quant.py``, the high-level
APIs) keep inf/NaN: see ``docs/dsl_mapping.md`` ("Saturation mode") for the list.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from aclsim.kernel._core import bfloat16, float16

#: The CTRL bit of the float overflow mode on arch 2201 (1: Inf/NaN, 0: saturation).
CTRL_OVERFLOW_BIT = 48
#: CTRL at block start on arch 2201: Inf/NaN mode (the appendix: half results default to the
#: Inf/NaN mode's; the runtime's default overflow mode, ``ACL_RT_OVERFLOW_MODE_INFNAN``).
CTRL_RESET = 1 << CTRL_OVERFLOW_BIT
#: The CTRL bit of the overflow mode on arch 2002 (``AscendCUtils::SetOverflow``: 1 saturation, 0 Inf/NaN).
CTRL_OVERFLOW_BIT_2002 = 53
#: The destination types the float saturation mode acts on (the SetCtrlSpr page, A2/A3 tables).
SATURATED = (float16, bfloat16)


def float_saturation(core: Any) -> bool:
    """Whether ``core`` computes in the float saturation mode: arch 2201 with CTRL[48] = 0, or arch
    2002 with CTRL[53] = 1 (set by ``AscendCUtils::SetOverflow(0)`` there)."""
    arch = core.chip.arch_version
    if arch == "2201":
        return not int(core.spr.get("CTRL", CTRL_RESET)) >> CTRL_OVERFLOW_BIT & 1
    if arch == "2002":
        return bool(int(core.spr.get("CTRL", 0)) >> CTRL_OVERFLOW_BIT_2002 & 1)
    return False


def saturate_values(values: np.ndarray) -> np.ndarray:
    """``values`` (half or bfloat16) with inf -> +-MAX of the type and NaN -> 0 (a new array)."""
    dt = values.dtype
    big = ml_dtypes.finfo(dt).max
    out = np.where(np.isnan(values), dt.type(0), values).astype(dt)
    out[np.isposinf(out)] = big
    out[np.isneginf(out)] = -big
    return out


def saturate(core: Any, values: np.ndarray) -> np.ndarray:
    """``values`` as the instruction writes them: saturated when ``core`` is in the float
    saturation mode and they are half/bfloat16, else unchanged (the same array)."""
    if values.dtype not in SATURATED or not float_saturation(core):
        return values
    return saturate_values(values)


def saturate_into(core: Any, out: np.ndarray) -> None:
    """Saturate ``out`` (a destination view the instruction just wrote) in place."""
    if out.dtype in SATURATED and float_saturation(core):
        out[...] = saturate_values(out)


def half_intermediate(core: Any, values: np.ndarray) -> np.ndarray:
    """An exact (float64) intermediate of a compound instruction with a half result, as the
    saturation mode leaves it: where it would round to inf in half it becomes +-65504, where it is
    NaN 0 (the appendix's "intermediate (saturation mode)" columns of Axpy and the MulAdd family)."""
    if not float_saturation(core):
        return values
    h = values.astype(float16)
    big = float(np.finfo(float16).max)
    return np.where(np.isnan(values), 0.0, np.where(np.isinf(h), np.copysign(big, values), values))


__all__ = [
    "CTRL_OVERFLOW_BIT",
    "CTRL_OVERFLOW_BIT_2002",
    "CTRL_RESET",
    "float_saturation",
    "half_intermediate",
    "saturate",
    "saturate_into",
    "saturate_values",
]
