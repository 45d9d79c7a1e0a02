"""The caching device-memory pool: size classes, best fit, split and coalesce, stream-ordered
reuse, expandable segments, an out-of-memory ladder, statistics and allocation history.

The pool serves every device allocation of the runtime.  It asks an *upstream* (the device
arena, as ``cudaMalloc``/``cuMemMap`` are for PyTorch's allocator) for large pieces of memory
and hands out blocks from them.  Nothing here knows about the runtime: streams are any object
with ``ticket()``/``reached(t)``/``wait_for(t)`` (or ``None``, a stream whose work is always
done), and the upstream is injected, so the pool is tested with a fake one.

The modules, as CuPy's ``memory.pyx`` separates ``_Chunk``, ``_Arena`` and the pool's policy
and keeps its hooks apart:

``sizes``
    PyTorch's block and segment sizes, AscendCL's padding, the size class of a request.
``upstream``
    the :class:`Upstream` interface (the device arena implements it) and
    :class:`AccountingUpstream`, its bookkeeping without bytes, over :class:`RangeAllocator`.
``blocks``
    :class:`Segment`, :class:`Block` and the free index (best fit per owner and pool, coalescing).
``source``, ``expandable``, ``classic``
    where blocks come from, behind one interface: reserved address ranges with pages mapped
    on demand (default), or PyTorch's classic segments.
``stats``
    the counters and the ``memory_stats()`` dictionary.
``history``
    the allocation history, an observer of the pool's events.
``caching``
    the policy, :class:`CachingPool`: the hit path, stream-ordered frees, growth and the
    out-of-memory ladder.
``options``, ``errors``
    :class:`PoolOptions`; :class:`AllocatorFull` and :class:`InvalidRelease`.

See ``docs/memory.md`` for the design, every option, the statistics and the figures.
"""

from aclsim.runtime.pool.blocks import ALLOC, CACHED, FREE, PENDING, Block, Segment
from aclsim.runtime.pool.caching import CachingPool, StreamLike
from aclsim.runtime.pool.classic import ClassicSource
from aclsim.runtime.pool.errors import AllocatorFull, InvalidRelease
from aclsim.runtime.pool.expandable import ExpandableSource
from aclsim.runtime.pool.history import History, PoolObserver
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
from aclsim.runtime.pool.source import SegmentSource
from aclsim.runtime.pool.stats import PoolStats
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
    "ClassicSource",
    "ExpandableSource",
    "History",
    "InvalidRelease",
    "PoolObserver",
    "PoolOptions",
    "PoolStats",
    "RangeAllocator",
    "Segment",
    "SegmentSource",
    "StreamLike",
    "Upstream",
    "align_up",
]
