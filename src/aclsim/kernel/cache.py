"""The L2 cache modes a kernel gives its global tensors (``GlobalTensor.set_l2_cache_hint``)."""

from __future__ import annotations

import enum


class CacheMode(enum.IntEnum):
    """``AscendC::CacheMode``: whether a GlobalTensor's copies go through the L2 cache."""

    CACHE_MODE_DISABLE = 0
    CACHE_MODE_NORMAL = 1
    CACHE_MODE_PERSISTENT = 4


class CacheRwMode(enum.IntEnum):
    """``AscendC::CacheRwMode``: the template argument of ``SetL2CacheHint`` (reserved)."""

    READ = 1
    WRITE = 2
    RW = 3
