"""The scalar bit helpers of Ascend C (``kernel_operator_scalar_intf.h``), on 64-bit values.

- :func:`get_bit_count` (``GetBitCount<countValue>``, older ``ScalarGetCountOfValue``): how many
  bits of ``value`` are ``count_value`` (0 or 1);
- :func:`count_leading_zero` (``CountLeadingZero``, older ``ScalarCountLeadingZero``): the zeros
  above the highest 1 (64 for 0);
- :func:`count_bits_cnt_same_as_sign_bit` (``CountBitsCntSameAsSignBit``): the bits below the
  sign bit equal to it, from the top (-1 for 0 and -1, as documented);
- :func:`get_sff_value` (``GetSFFValue<countValue>``, older ``ScalarGetSFFValue``): the position
  of the first bit equal to ``count_value`` from the least significant one, -1 if there is none.

They run on the scalar unit of every chip aclsim models (A2/A3 and the inference series' AI
Core); like the kernel's other scalar arithmetic they are plain Python and record no instruction.
A ``uint64_t`` argument is taken modulo 2**64 (a negative Python int as its two's-complement bits),
an ``int64_t`` one as a signed 64-bit value.
"""

from __future__ import annotations

from typing import Any

__all__ = ["count_bits_cnt_same_as_sign_bit", "count_leading_zero", "get_bit_count", "get_sff_value"]

_MASK64 = (1 << 64) - 1


def _u64(value: Any) -> int:
    return int(value) & _MASK64


def _bit(count_value: Any, name: str) -> int:
    b = int(count_value)
    if b not in (0, 1):
        raise ValueError(f"{name}: countValue is 0 or 1, got {b}")
    return b


def get_bit_count(value: Any, count_value: Any = 1) -> int:
    """``GetBitCount<countValue>(valueIn)``: the number of bits of the 64-bit ``value`` equal to
    ``count_value``.

    >>> get_bit_count(0xFFFF, 1), get_bit_count(0xFFFF, 0)
    (16, 48)
    """
    ones = bin(_u64(value)).count("1")
    return ones if _bit(count_value, "GetBitCount") else 64 - ones


def count_leading_zero(value: Any) -> int:
    """``CountLeadingZero(valueIn)``: leading zeros of the 64-bit ``value`` (64 for 0).

    >>> count_leading_zero(0x0100000000000020), count_leading_zero(0), count_leading_zero(-1)
    (7, 64, 0)
    """
    return 64 - _u64(value).bit_length()


def count_bits_cnt_same_as_sign_bit(value: Any) -> int:
    """``CountBitsCntSameAsSignBit(valueIn)``: how many bits from bit 62 down equal the sign bit
    (bit 63) before the first that differs; -1 when every bit does (0 and -1).

    >>> count_bits_cnt_same_as_sign_bit(0x0100000000000020), count_bits_cnt_same_as_sign_bit(0)
    (6, -1)
    >>> count_bits_cnt_same_as_sign_bit(0x7FFFFFFFFFFFFFFF), count_bits_cnt_same_as_sign_bit(-2)
    (0, 62)
    """
    u = _u64(value)
    if u in (0, _MASK64):
        return -1
    if u >> 63:
        u = ~u & _MASK64
    return 63 - u.bit_length()


def get_sff_value(value: Any, count_value: Any = 1) -> int:
    """``GetSFFValue<countValue>(valueIn)``: the position of the first bit equal to ``count_value``
    from the least significant bit, or -1.

    >>> get_sff_value(0b101000, 1), get_sff_value(0b0111, 0), get_sff_value(0, 1), get_sff_value(-1, 0)
    (3, 3, -1, -1)
    """
    u = _u64(value)
    if not _bit(count_value, "GetSFFValue"):
        u = ~u & _MASK64
    return (u & -u).bit_length() - 1
