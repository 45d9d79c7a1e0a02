"""Adapters of the reductions / gather / sort / high-level rows of ``api_cxx.txt``."""

from __future__ import annotations

from typing import Any

import aclsim.kernel as asc

__all__ = ["mrg_sort_counts"]


def mrg_sort_counts(dst: Any, src: Any, element_count_list: list[int], valid_bit: int, repeat_time: int,
                    is_exhausted_suspension: Any) -> int:
    """The high-level ``MrgSort<T, isExhaustedSuspension>``: ``sortedNum``'s four counts packed low to
    high, 16 bits each (each at most 4095), for aclsim_ascendc_more.h to unpack into its array."""
    sorted_num = [0, 0, 0, 0]
    asc.mrg_sort(dst, src, element_count_list, sorted_num, valid_bit, repeat_time,
                 is_exhausted_suspension=bool(is_exhausted_suspension))
    return sum((int(c) & 0xFFFF) << (16 * i) for i, c in enumerate(sorted_num))
