"""The caching device-memory pool (``docs/memory.md``): every name of the package's modules
that the runtime, the tests and the benchmarks use, re-exported here."""

from aclsim.runtime.pool.caching import (
    ALLOC,
    CACHED,
    FREE,
    PENDING,
    Block,
    CachingPool,
    Segment,
    StreamLike,
)
from aclsim.runtime.pool.errors import AllocatorFull, InvalidRelease
from aclsim.runtime.pool.options import PoolOptions
from aclsim.runtime.pool.sizes import (
    ASCEND_PADDING,
    ASCEND_SIZE_ALIGN,
    LARGE,
    LARGE_BUFFER,
    MIN_BLOCK,
    MIN_LARGE_ALLOC,
    ROUND_LARGE,
    SMALL,
    SMALL_BUFFER,
    SMALL_SIZE,
    align_up,
)
from aclsim.runtime.pool.upstream import AccountingUpstream, RangeAllocator, Upstream

__all__ = [
    "ALLOC",
    "ASCEND_PADDING",
    "ASCEND_SIZE_ALIGN",
    "CACHED",
    "FREE",
    "LARGE",
    "LARGE_BUFFER",
    "MIN_BLOCK",
    "MIN_LARGE_ALLOC",
    "PENDING",
    "ROUND_LARGE",
    "SMALL",
    "SMALL_BUFFER",
    "SMALL_SIZE",
    "AccountingUpstream",
    "AllocatorFull",
    "Block",
    "CachingPool",
    "InvalidRelease",
    "PoolOptions",
    "RangeAllocator",
    "Segment",
    "StreamLike",
    "Upstream",
    "align_up",
]
