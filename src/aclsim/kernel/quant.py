"""``SetDeqScale``: the DEQSCALE register of a block, read by ``cast`` of int32 -> half.

On the device ``Cast`` from int32 to half is a dequantisation: it outputs ``src * scale``
(the page's ``src / 2**17 * scale * 2**17``) with ``scale`` the half value last given to
``SetDeqScale(half scale)``; its ``RoundMode`` has no effect.  aclsim computes the product
exactly and rounds it once to half (nearest even).  Before any ``set_deq_scale`` in a block
aclsim converts with scale 1 (the device would use whatever the register holds).

The other two forms, ``SetDeqScale(float scale, int16_t offset, bool signMode)`` and
``SetDeqScale(vdeq, VdeqInfo)``, feed ``CastDeq`` (int16 -> int8/uint8), which aclsim does
not model: they are refused with ``FeatureNotSupportedError``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from aclsim.errors import FeatureNotSupportedError
from aclsim.kernel._core import Core, current, float16

#: The key of the DEQSCALE register in ``Core.spr``.
DEQSCALE = "deq_scale"


def set_deq_scale(scale: Any, *more: Any) -> None:
    """``SetDeqScale(half scale)``: the scale ``cast`` applies when it converts int32 to half.

    ``scale`` is rounded to half, as the register holds it.
    """
    if more:
        raise FeatureNotSupportedError(
            "set_deq_scale(scale, offset, sign_mode) and set_deq_scale(vdeq, vdeq_info) feed CastDeq, "
            "which aclsim does not model; set_deq_scale(scale) (half) is the form Cast int32 -> half uses")
    current().spr[DEQSCALE] = float16.type(scale)


def deq_values(core: Core, x: np.ndarray) -> np.ndarray:
    """int32 values dequantised to half: ``x * scale`` computed exactly, rounded once."""
    scale = core.spr.get(DEQSCALE, float16.type(1))
    with np.errstate(over="ignore"):  # past the half range: inf, as the other float narrowings
        return (x.astype(np.float64) * np.float64(scale)).astype(float16)
