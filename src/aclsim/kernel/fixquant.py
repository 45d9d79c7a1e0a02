"""The fixpipe's on-the-fly conversion of L0C results (``quantPre``, ``QuantMode_t``), used by ``fixpipe``,
``data_copy(gm, l0c, DataCopyCO12DstParams)`` and the Matmul object's ``SetQuantScalar`` / ``SetQuantVector``.

Modelled on arch 220 (Atlas A2/A3): ``NoQuant`` (float -> float, int32 -> int32), ``F322F16`` /
``F322BF16`` (float -> half / bfloat16, round to nearest even), and the dequantisations ``DEQF16``
(int32 -> half by one scale, the ``deqScalar`` parameter) and ``VDEQF16`` (int32 -> half by a scale per
column: a uint64 tensor, one element a column of the moved block; ``Fixpipe``'s ``cbufWorkspace`` in L1).
A scale is the float in the low 32 bits of its uint64 with the low 13 mantissa bits cleared, as the
Fixpipe page says the unit reads it (1 sign, 8 exponent, 10 mantissa bits: "将量化参数的23bits尾数位的
低13bits数据位清零再参与量化计算"); the product ``int32 * scale`` is computed exactly and rounded once
to half (nearest even; past the half range: inf, the non-saturating mode), the same rule as
``set_deq_scale``'s int32 -> half ``cast``.  ReLU, when asked, applies to the L0C value before the
conversion.  The int8 modes (``QF322B8_PRE``, ``VQF322B8_PRE``, ``REQ8``, ``VREQ8``: their offset and
rounding are not documented precisely enough to compute exactly) are refused with 207000.
"""

from __future__ import annotations

import enum

import numpy as np

from aclsim.kernel._core import UnsupportedFault, bfloat16, current, dtype_name, float16, float32, int32


class QuantMode(enum.IntEnum):
    """``QuantMode_t``: the fixpipe's on-the-fly conversion (``quantPre``), as the arch-220 pages list it."""

    NoQuant = 0
    F322F16 = 1
    F322BF16 = 2
    DEQF16 = 3
    VDEQF16 = 4
    QF322B8_PRE = 5
    VQF322B8_PRE = 6
    REQ8 = 7
    VREQ8 = 8


_VECTOR = (QuantMode.VDEQF16, QuantMode.VQF322B8_PRE, QuantMode.VREQ8)
_MODELLED = (QuantMode.NoQuant, QuantMode.F322F16, QuantMode.F322BF16, QuantMode.DEQF16, QuantMode.VDEQF16)


def is_vector(quant: QuantMode) -> bool:
    """Whether ``quant`` takes a scale per column (a tensor) rather than one."""
    return quant in _VECTOR


def check(name: str, quant: QuantMode, src_dt: np.dtype, dst_dt: np.dtype) -> None:
    """Refuse a mode aclsim does not model (207000) and a wrong pair of types (TypeError)."""
    if quant not in _MODELLED:
        current().fault(UnsupportedFault, f"{name}: quant_pre {quant.name} (to int8/uint8) is not modelled: "
                        "its offset and rounding are not documented precisely enough to compute exactly",
                        hint="move the float or int32 result out and quantise it on the vector unit")
    src_want = {QuantMode.NoQuant: src_dt, QuantMode.DEQF16: int32, QuantMode.VDEQF16: int32}.get(quant,
                                                                                                 float32)
    if src_dt != src_want:
        raise TypeError(f"{name}: {quant.name} converts {dtype_name(src_want)} results, "
                        f"got {dtype_name(src_dt)}")
    want = {QuantMode.NoQuant: src_dt, QuantMode.F322F16: float16, QuantMode.F322BF16: bfloat16}.get(quant,
                                                                                                   float16)
    if dst_dt != want:
        hint = {float16: "F322F16 (float) or DEQF16 / VDEQF16 (int32)", bfloat16: "F322BF16"}.get(dst_dt, "?")
        raise TypeError(f"{name}: {dtype_name(src_dt)} -> {dtype_name(dst_dt)} needs quant_pre {hint}; "
                        f"with {quant.name} the destination is {dtype_name(want)}")


def scales(words: np.ndarray) -> np.ndarray:
    """The float scales of uint64 quant words: the low 32 bits, the low 13 mantissa bits cleared."""
    low = (np.asarray(words, np.uint64) & np.uint64(0xFFFFE000)).astype(np.uint32)
    return low.view(np.float32)


def convert(x: np.ndarray, quant: QuantMode, dst_dt: np.dtype, deq_scalar: int,
            col_scales: np.ndarray | None) -> np.ndarray:
    """``x`` (rows x columns of L0C values) converted as ``quant`` says (see the module docstring)."""
    if quant is QuantMode.DEQF16 or quant is QuantMode.VDEQF16:
        s = scales(np.array([deq_scalar], np.uint64))[0] if col_scales is None else col_scales
        with np.errstate(over="ignore"):
            return (x.astype(np.float64) * np.asarray(s, np.float64)).astype(float16)
    return x.astype(dst_dt)


__all__ = ["QuantMode"]
