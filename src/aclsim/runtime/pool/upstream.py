"""Where the pool's memory comes from: the :class:`Upstream` interface (the device arena
implements it, ``backends/base.py``), and :class:`AccountingUpstream`, the same bookkeeping
without bytes (tests, the benchmark's checks, and the simulated arena's books), over
:class:`RangeAllocator`."""

from __future__ import annotations

import bisect
import collections
from abc import abstractmethod
from typing import Protocol

from aclsim.runtime.pool.errors import AllocatorFull
from aclsim.runtime.pool.sizes import MIN_BLOCK, align_up


class Upstream(Protocol):
    """Where the pool's memory comes from: the one interface of the device arena
    (:class:`~aclsim.runtime.backends.base.DeviceArena` adds the bytes to it) and of the fakes
    the pool is tested with.  Offsets, not addresses.

    ``malloc``/``free`` give contiguous memory (classic segments); ``reserve`` gives an
    address range without memory, ``map``/``unmap`` back parts of it with physical pages of
    ``granularity`` bytes (what ``cuMemAddressReserve``/``cuMemMap`` and AscendCL's
    ``aclrtReserveMemAddress``/``aclrtMapMem`` do).  Every call that cannot be served raises
    :class:`AllocatorFull`.  ``capacity`` is the physical memory; reserved ranges may lie
    beyond it.  An upstream may also have ``largest_free()``, the largest ``malloc`` that
    could succeed now (the pool's free memory with classic segments counts on it).
    """

    capacity: int
    granularity: int

    @abstractmethod
    def malloc(self, nbytes: int) -> int:
        """Contiguous physical memory; raises ``AllocatorFull`` when there is none."""

    @abstractmethod
    def free(self, offset: int, nbytes: int) -> None:
        """Return memory from :meth:`malloc`."""

    @abstractmethod
    def reserve(self, nbytes: int) -> int:
        """An address range of ``nbytes`` with no memory behind it."""

    @abstractmethod
    def unreserve(self, offset: int, nbytes: int) -> None:
        """Return an address range (all of it unmapped)."""

    @abstractmethod
    def map(self, offset: int, nbytes: int) -> None:
        """Back ``[offset, offset + nbytes)`` of a reserved range with physical pages."""

    @abstractmethod
    def unmap(self, offset: int, nbytes: int) -> None:
        """Give the physical pages of a mapped range back (their contents are lost)."""


class RangeAllocator:
    """Best fit over ``[0, capacity)`` with splitting and coalescing of free neighbours.

    >>> a = RangeAllocator(1024, align=64)
    >>> x, y = a.allocate(64), a.allocate(100)
    >>> (x, y, a.used)
    (0, 64, 192)
    >>> a.release(x); a.release(y); a.largest_free()
    1024
    """

    __slots__ = ("capacity", "align", "used", "_free_sorted", "_free_start", "_free_end", "_sizes")

    def __init__(self, capacity: int, align: int = 64) -> None:
        self.capacity = capacity - capacity % align
        self.align = align
        self.used = 0
        self._free_sorted: list[tuple[int, int]] = [(self.capacity, 0)] if self.capacity else []
        self._free_start: dict[int, int] = {0: self.capacity} if self.capacity else {}
        self._free_end: dict[int, int] = {self.capacity: 0} if self.capacity else {}
        self._sizes: dict[int, int] = {}  # offset -> size of live ranges

    def _take(self, offset: int, size: int) -> None:
        self._free_sorted.pop(bisect.bisect_left(self._free_sorted, (size, offset)))
        del self._free_start[offset]
        del self._free_end[offset + size]

    def _put(self, offset: int, size: int) -> None:
        bisect.insort(self._free_sorted, (size, offset))
        self._free_start[offset] = size
        self._free_end[offset + size] = offset

    def allocate(self, nbytes: int) -> int:
        size = align_up(max(nbytes, 1), self.align)
        i = bisect.bisect_left(self._free_sorted, (size, -1))
        if i == len(self._free_sorted):
            raise AllocatorFull(size)
        block_size, offset = self._free_sorted[i]
        self._take(offset, block_size)
        if block_size > size:
            self._put(offset + size, block_size - size)
        self._sizes[offset] = size
        self.used += size
        return offset

    def release(self, offset: int) -> None:
        size = self._sizes.pop(offset)
        self.used -= size
        start, end = offset, offset + size
        if end in self._free_start:
            nsize = self._free_start[end]
            self._take(end, nsize)
            end += nsize
        if start in self._free_end:
            pstart = self._free_end[start]
            self._take(pstart, start - pstart)
            start = pstart
        self._put(start, end - start)

    def size_of(self, offset: int) -> int:
        return self._sizes[offset]

    def largest_free(self) -> int:
        last = self._free_sorted[-1:]  # one read: get_mem_info asks without the device's lock
        return last[0][0] if last else 0


class AccountingUpstream(Upstream):
    """An upstream that only counts: ``capacity`` physical bytes, no data.

    Classic ``malloc`` places contiguous ranges by best fit in ``[0, capacity)`` (so it can
    fragment); ``reserve`` hands out address ranges above ``capacity`` from a space of
    ``va_bytes``; ``map``/``unmap`` take and return physical pages.  The simulated arena adds
    bytes behind the same bookkeeping; tests and the benchmark use this one as it is.

    >>> up = AccountingUpstream(8 << 20, granularity=1 << 20)
    >>> va = up.reserve(16 << 20); up.map(va, 2 << 20); up.used
    2097152
    """

    def __init__(self, capacity: int, granularity: int = 2 << 20, va_bytes: int = 1 << 42) -> None:
        if capacity <= 0 or granularity <= 0 or granularity % MIN_BLOCK:
            raise ValueError("capacity must be > 0 and granularity a positive multiple of 512")
        self.capacity = capacity
        self.granularity = granularity
        self.used = 0  # physical bytes handed out (malloc + mapped pages)
        self.calls = collections.Counter[str]()
        self._classic = RangeAllocator(capacity, align=MIN_BLOCK)
        self._va_start = align_up(capacity, granularity)
        self._va = RangeAllocator(max(va_bytes - self._va_start, 0), align=granularity)
        self._mapped: set[int] = set()  # page offsets

    def malloc(self, nbytes: int) -> int:
        if self.used + nbytes > self.capacity:
            raise AllocatorFull(nbytes)
        offset = self._classic.allocate(nbytes)
        self.used += self._classic.size_of(offset)
        self.calls["malloc"] += 1
        return offset

    def free(self, offset: int, nbytes: int) -> None:
        self.used -= self._classic.size_of(offset)
        self._classic.release(offset)
        self.calls["free"] += 1

    def reserve(self, nbytes: int) -> int:
        self.calls["reserve"] += 1
        return self._va_start + self._va.allocate(nbytes)

    def unreserve(self, offset: int, nbytes: int) -> None:
        self.calls["unreserve"] += 1
        self._va.release(offset - self._va_start)

    def map(self, offset: int, nbytes: int) -> None:
        if offset % self.granularity or nbytes % self.granularity:
            raise ValueError(f"map of [{offset}, +{nbytes}) is not aligned to {self.granularity} B pages")
        if self.used + nbytes > self.capacity:
            raise AllocatorFull(nbytes)
        pages = range(offset, offset + nbytes, self.granularity)
        if any(p in self._mapped for p in pages):
            raise ValueError(f"map of [{offset}, +{nbytes}) overlaps mapped pages")
        self._mapped.update(pages)
        self.used += nbytes
        self.calls["map"] += 1

    def largest_free(self) -> int:
        """The largest contiguous ``malloc`` that could succeed now."""
        return min(self._classic.largest_free(), self.capacity - self.used)

    def unmap(self, offset: int, nbytes: int) -> None:
        pages = range(offset, offset + nbytes, self.granularity)
        if not all(p in self._mapped for p in pages):
            raise ValueError(f"unmap of [{offset}, +{nbytes}) covers unmapped pages")
        self._mapped.difference_update(pages)
        self.used -= nbytes
        self.calls["unmap"] += 1
