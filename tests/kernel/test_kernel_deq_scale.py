"""SetDeqScale and Cast int32 -> half (a dequantisation by the DEQSCALE register)."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim.errors import TaskError


def test_cast_int32_to_half_uses_the_deq_scale(vec) -> None:
    x = np.array([0, 1, -3, 1000, 123456, -7777777, 65504 * 4, 2**31 - 1] * 8, np.int32)

    def body(plain, scaled, strided, a):
        asc.cast(plain, a, asc.RoundMode.CAST_NONE, 64)  # no SetDeqScale in this block yet: scale 1
        asc.set_deq_scale(0.25)
        asc.cast(scaled, a, asc.RoundMode.CAST_FLOOR, 64)  # the round mode has no effect, as documented
        asc.cast(strided, a, asc.RoundMode.CAST_NONE, 32, 1, asc.UnaryRepeatParams(1, 1, 4, 8))

    init = np.zeros(64, np.float16)
    plain, scaled, strided = vec(body, [x], [init, init, init])
    with np.errstate(over="ignore"):
        assert plain.tolist() == x.astype(np.float64).astype(np.float16).tolist()  # inf past 65504
        want = (x.astype(np.float64) * 0.25).astype(np.float16)
    assert scaled.tolist() == want.tolist()
    assert strided[:32].tolist() == want[:32].tolist() and not strided[32:].any()
    assert scaled[6] == np.float16(65504)  # 65504 * 4 * 0.25: exact, no overflow on the way


def test_deq_scale_is_held_as_half_and_castdeq_forms_refused(vec) -> None:
    x = np.full(16, 1000, np.int32)

    def body(z, a):
        asc.set_deq_scale(0.1)  # stored as half 0.1 = 0.0999755859375
        asc.cast(z, a, asc.RoundMode.CAST_NONE, 16)

    (z,) = vec(body, [x], [np.zeros(16, np.float16)])
    assert z[0] == np.float16(1000 * float(np.float16(0.1)))
    with pytest.raises(TaskError, match="feed CastDeq, which aclsim does not model"):
        vec(lambda z, a: asc.set_deq_scale(0.5, 3, True), [x], [np.zeros(16, np.float16)])
