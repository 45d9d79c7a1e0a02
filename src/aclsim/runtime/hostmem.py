"""The pinned host-memory pool behind ``malloc_host``.

Page-locked host memory is slow to get from the OS (``cudaHostAlloc`` takes 0.8-36 ms per call,
shared/design/reference/allocator-prior-art.md 6.1), so freed buffers are cached.  As in CuPy's
``PinnedMemoryPool`` and PyTorch's ``CachingHostAllocator``: sizes are rounded up to a power of two
(at least one host page), each size class keeps a free list, blocks are never split.  A buffer
freed while queued copies still use it is reused only once those copies are done: the streams
that used it are noted when copies are queued, and the free records their tickets.
"""

from __future__ import annotations

import collections
from typing import Any

import numpy as np

HOST_ALIGN = 4096  # malloc_host returns page-aligned memory
MIN_HOST_BLOCK = HOST_ALIGN


class PinnedBlock:
    """One cached host buffer of a size class."""

    __slots__ = ("addr", "size", "array", "requested", "waits")

    def __init__(self, addr: int, size: int, array: np.ndarray) -> None:
        self.addr = addr
        self.size = size
        self.array = array  # uint8, ``size`` bytes, page aligned
        self.requested = 0
        self.waits: list[tuple[Any, int]] = []

    def ready(self) -> bool:
        return all(s.reached(t) for s, t in self.waits)

    def __repr__(self) -> str:
        return f"<PinnedBlock 0x{self.addr:x} {self.size}B>"


def size_class(nbytes: int) -> int:
    """The block size ``malloc_host(nbytes)`` gets: a power of two, at least a page.

    >>> size_class(1), size_class(4096), size_class(10_000)
    (4096, 4096, 16384)
    """
    return max(MIN_HOST_BLOCK, 1 << (max(nbytes, 1) - 1).bit_length())


class PinnedHostPool:
    """Size classes of page-aligned host buffers with event-guarded reuse."""

    def __init__(self) -> None:
        self._free: dict[int, collections.deque[PinnedBlock]] = {}
        self._live: dict[int, PinnedBlock] = {}
        self.reserved = 0
        self.reserved_peak = 0
        self.allocated = 0
        self.allocated_peak = 0
        self.requested = 0
        self.hits = 0
        self.misses = 0
        self.num_host_alloc = 0
        self.num_host_free = 0
        self.waited_reuse = 0  # times a free buffer of the right class was skipped (copies pending)

    def malloc(self, nbytes: int) -> PinnedBlock:
        size = size_class(nbytes)
        block = None
        free = self._free.get(size)
        if free:
            for _ in range(len(free)):
                cand = free.popleft()
                if cand.ready():
                    block = cand
                    break
                free.append(cand)
                self.waited_reuse += 1
        if block is None:
            raw = np.empty(size + HOST_ALIGN, dtype=np.uint8)  # MemoryError goes to the caller
            start = (-raw.ctypes.data) % HOST_ALIGN
            arr = raw[start:start + size]
            block = PinnedBlock(arr.ctypes.data, size, arr)
            self.reserved += size
            self.reserved_peak = max(self.reserved_peak, self.reserved)
            self.misses += 1
            self.num_host_alloc += 1
        else:
            self.hits += 1
        block.waits = []
        block.requested = nbytes
        self._live[block.addr] = block
        self.allocated += size
        self.allocated_peak = max(self.allocated_peak, self.allocated)
        self.requested += nbytes
        return block

    def free(self, block: PinnedBlock, uses: set[Any] | None = None) -> None:
        """Cache ``block``; ``uses`` are streams that queued copies on it."""
        del self._live[block.addr]
        self.allocated -= block.size
        self.requested -= block.requested
        waits = []
        for s in uses or ():
            t = s.ticket()
            if not s.reached(t):
                waits.append((s, t))
        block.waits = waits
        self._free.setdefault(block.size, collections.deque()).append(block)

    def empty_cache(self) -> int:
        """Drop cached buffers whose copies are done; returns the bytes dropped."""
        dropped = 0
        for size, free in self._free.items():
            keep: collections.deque[PinnedBlock] = collections.deque()
            for b in free:
                if b.ready():
                    dropped += size
                    self.num_host_free += 1
                else:
                    keep.append(b)
            self._free[size] = keep
        self.reserved -= dropped
        return dropped

    def stats(self) -> dict[str, Any]:
        allocs = self.hits + self.misses
        return {
            "allocated_bytes.current": self.allocated,
            "allocated_bytes.peak": self.allocated_peak,
            "requested_bytes.current": self.requested,
            "reserved_bytes.current": self.reserved,
            "reserved_bytes.peak": self.reserved_peak,
            "allocation.current": len(self._live),
            "cached_blocks": sum(len(f) for f in self._free.values()),
            "num_host_alloc": self.num_host_alloc,
            "num_host_free": self.num_host_free,
            "num_hits": self.hits,
            "num_misses": self.misses,
            "hit_rate": self.hits / allocs if allocs else 1.0,
            "num_reuse_waits": self.waited_reuse,
        }
