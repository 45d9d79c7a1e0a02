"""The scalar bit helpers (GetBitCount, CountLeadingZero, CountBitsCntSameAsSignBit, GetSFFValue)
against a bit-by-bit reference on random and edge 64-bit values."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc


def _bits(v: int) -> list[int]:
    u = v & (1 << 64) - 1
    return [u >> i & 1 for i in range(64)]  # LSB first


VALUES = [0, 1, -1, -2, 0x0100000000000020, 0x7FFFFFFFFFFFFFFF, 1 << 63, 0xFFFF,
          *np.random.default_rng(7).integers(-(1 << 63), (1 << 63) - 1, 200, dtype=np.int64).tolist()]


@pytest.mark.parametrize("v", VALUES)
def test_against_bit_reference(v: int) -> None:
    b = _bits(v)
    assert asc.get_bit_count(v, 1) == sum(b)
    assert asc.get_bit_count(v, 0) == 64 - sum(b)
    top = b[::-1]
    assert asc.count_leading_zero(v) == next((i for i, x in enumerate(top) if x), 64)
    same = next((i for i, x in enumerate(top[1:]) if x != top[0]), None)
    assert asc.count_bits_cnt_same_as_sign_bit(v) == (-1 if same is None else same)
    for c in (0, 1):
        assert asc.get_sff_value(v, c) == next((i for i, x in enumerate(b) if x == c), -1)


def test_count_value_is_a_bit() -> None:
    with pytest.raises(ValueError, match="countValue is 0 or 1"):
        asc.get_bit_count(5, 2)
    with pytest.raises(ValueError, match="countValue is 0 or 1"):
        asc.get_sff_value(5, -1)
