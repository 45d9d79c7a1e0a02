"""float -> float ``cast`` with a rounding mode rounds to an integral float (the documented
Cast table: float -> float takes CAST_RINT/FLOOR/CEIL/ROUND/TRUNC), as the high-level
Floor/Ceil/Round/Trunc rely on; CAST_NONE keeps the values."""

import numpy as np
import pytest

from aclsim.kernel.conversion import RoundMode, cast_values

X = np.array([-2.5, -1.5, -0.5, -0.3, 0.0, 0.3, 0.5, 1.5, 2.5, 3.7, -3.7, 8388609.0, 1e30, np.inf, np.nan],
             np.float32)
REF = {
    RoundMode.CAST_RINT: np.rint,
    RoundMode.CAST_FLOOR: np.floor,
    RoundMode.CAST_CEIL: np.ceil,
    RoundMode.CAST_TRUNC: np.trunc,
    RoundMode.CAST_ROUND: lambda x: np.copysign(np.floor(np.abs(x.astype(np.float64)) + 0.5), x),
}


@pytest.mark.parametrize("mode", list(REF))
def test_float_to_float_rounds_to_integral(mode: RoundMode) -> None:
    got = cast_values(X, np.dtype(np.float32), mode)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, REF[mode](X).astype(np.float32))


def test_round_is_ties_away_and_none_keeps() -> None:
    assert cast_values(X[:9], np.dtype(np.float32), RoundMode.CAST_ROUND).tolist() == [
        -3.0, -2.0, -1.0, -0.0, 0.0, 0.0, 1.0, 2.0, 3.0]
    np.testing.assert_array_equal(cast_values(X, np.dtype(np.float32), RoundMode.CAST_NONE), X)


def test_bfloat16_to_half_rounds_as_directed() -> None:
    """bf16 -> half narrows the exponent range (same width, not a widening): FLOOR/CEIL/TRUNC pick the
    half neighbour the mode asks for (past half's range: 65504 or inf; in its subnormals: the grid)."""
    from aclsim.kernel._core import bfloat16

    x = np.array([1e-6, 1e5, -1e5, 3.0], dtype=bfloat16)
    h = np.dtype(np.float16)
    sub = float(np.float16(2.0**-24))  # half's subnormal step
    lo = np.floor(float(x[0]) / sub) * sub
    want = {
        RoundMode.CAST_FLOOR: [lo, 65504.0, -np.inf, 3.0],
        RoundMode.CAST_CEIL: [lo + sub, np.inf, -65504.0, 3.0],
        RoundMode.CAST_TRUNC: [lo, 65504.0, -65504.0, 3.0],
    }
    for mode, w in want.items():
        np.testing.assert_array_equal(cast_values(x, h, mode).astype(np.float64), np.array(w))
