"""Adapters of the reductions / gather / sort / high-level rows of ``api_cxx.txt``."""

from __future__ import annotations

from typing import Any

import aclsim.kernel as asc

__all__ = ["mrg_sort_counts", "mrg_sort_result"]


def mrg_sort_result() -> int:
    """``GetMrgSortResult``'s four counts (uint16 each) packed low to high into one integer: the C++
    side (aclsim_ascendc_more.h) unpacks them into its four ``uint16_t&`` arguments."""
    return _pack(asc.get_mrg_sort_result())


def _pack(counts: Any) -> int:
    return sum((int(c) & 0xFFFF) << (16 * i) for i, c in enumerate(counts))


def mrg_sort_counts(dst: Any, src: Any, element_count_list: list[int], valid_bit: int, repeat_time: int,
                    is_exhausted_suspension: Any) -> int:
    """The high-level ``MrgSort<T, isExhaustedSuspension>``: ``sortedNum``'s four counts packed as
    :func:`mrg_sort_result` packs them (each at most 4095: 16 bits hold it)."""
    sorted_num = [0, 0, 0, 0]
    asc.mrg_sort(dst, src, element_count_list, sorted_num, valid_bit, repeat_time,
                 is_exhausted_suspension=bool(is_exhausted_suspension))
    return _pack(sorted_num)
