"""Adapters of the reductions / gather / sort / high-level rows of ``api_cxx.txt``."""

from __future__ import annotations

import aclsim.kernel as asc

__all__ = ["mrg_sort_result"]


def mrg_sort_result() -> int:
    """``GetMrgSortResult``'s four counts (uint16 each) packed low to high into one integer: the C++
    side (aclsim_ascendc_more.h) unpacks them into its four ``uint16_t&`` arguments."""
    counts = asc.get_mrg_sort_result()
    return sum((int(c) & 0xFFFF) << (16 * i) for i, c in enumerate(counts))
