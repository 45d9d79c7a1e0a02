"""The pinned host-memory pool behind ``malloc_host``.

Page-locked host memory is slow to get from the OS (``cudaHostAlloc`` takes 0.8-36 ms per call,
shared/design/reference/allocator-prior-art.md 6.1), so freed buffers are cached.  As in CuPy's
``PinnedMemoryPool`` and PyTorch's ``CachingHostAllocator``: sizes are rounded up to a power of two
(at least one host page), each size class keeps a free list, blocks are never split.  A buffer
freed while queued copies still use it is reused only once those copies are done: the streams
that used it are noted when copies are queued, and the free records their tickets.

The registry (:class:`HostMemory`) knows the host ranges the device may touch: pinned buffers
from ``malloc_host`` and the memory of NumPy arrays and bytes objects handed out by
``numpy_to_ptr``/``bytes_to_ptr``.  Host pointers are real process addresses; every copy checks
that both ends lie inside a known range, so a bad pointer is an error, not a crash.
"""

from __future__ import annotations

import bisect
import collections
import ctypes
import sys
import threading
import weakref
from typing import Any

import numpy as np

from aclsim.errors import (
    HostAllocationError,
    InvalidMemoryTypeError,
    InvalidParamError,
    MemoryFreeError,
    RtParamInvalidError,
)
from aclsim.runtime import foreign

HOST_ALIGN = 4096  # malloc_host returns page-aligned memory
MIN_HOST_BLOCK = HOST_ALIGN
SIZE_MAX = 2**64 - 1  # size_t: the largest size a C caller of AscendCL can pass
GRAVEYARD = 4096  # freed host buffers remembered to name the lines of a use after free / double free
# numpy_to_ptr keeps the most recent arrays alive for a while, so that the common
# ``memcpy(..., numpy_to_ptr(arr.astype(...)), ...)`` (a temporary that real pyACL reads
# after it was freed, and that happens to work there) works here too.
RECENT_ARRAYS = 64
RECENT_ARRAY_BYTES = 256 << 20


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

    def holds(self, block: PinnedBlock | None) -> bool:
        """Whether ``block`` is still this pool's memory (live or cached), not given back to
        the OS (where a C program's own ``malloc`` may reuse its addresses)."""
        if block is None:
            return False
        return self._live.get(block.addr) is block or any(b is block for b in self._free.get(block.size, ()))

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


# --- the registry of host memory the device may touch --------------------------------

class HostRegion:
    """A host range the device may touch.  Owners are held weakly where Python allows."""

    __slots__ = ("addr", "nbytes", "kind", "site", "uses", "block", "free_site", "_strong", "_weak",
                 "__weakref__")

    def __init__(self, addr: int, nbytes: int, kind: str, owner: object, site: str, weak: bool) -> None:
        self.addr = addr
        self.nbytes = nbytes
        self.kind = kind  # "pinned" | "numpy" | "bytes" | "process" (a C caller's memory, unregistered)
        self.site = site
        self.uses: set[Any] | None = None  # streams that queued copies on it (pinned)
        self.block: PinnedBlock | None = None  # pinned: the pool's block
        self.free_site: str | None = None
        self._strong = None if weak else owner
        self._weak = weakref.ref(owner) if weak else None

    def record_use(self, stream: Any) -> None:
        """A stream queued a copy on this range: a later free_host waits for it before reuse."""
        if self.kind == "pinned":
            if self.uses is None:
                self.uses = {stream}
            else:
                self.uses.add(stream)

    def owner(self) -> object | None:
        return self._weak() if self._weak is not None else self._strong

    def __repr__(self) -> str:
        return f"<HostRegion {self.kind} 0x{self.addr:x} {self.nbytes}B>"


def _ctypes_view(addr: int, nbytes: int) -> np.ndarray:
    raw = (ctypes.c_ubyte * nbytes).from_address(addr)
    return np.frombuffer(memoryview(raw).cast("B"), dtype=np.uint8)


class HostMemory:
    """The registry of host ranges usable as copy sources and destinations."""

    def __init__(self) -> None:
        self._regions: dict[int, HostRegion] = {}
        self._starts: list[int] = []
        self._lock = threading.RLock()
        self._recent: collections.deque[tuple[object, int]] = collections.deque()
        self._recent_bytes = 0
        self.pinned = PinnedHostPool()
        self._freed: collections.OrderedDict[int, HostRegion] = collections.OrderedDict()

    def _keep_recent(self, owner: object, nbytes: int) -> None:
        self._recent.append((owner, nbytes))
        self._recent_bytes += nbytes
        while len(self._recent) > RECENT_ARRAYS or (self._recent_bytes > RECENT_ARRAY_BYTES
                                                     and len(self._recent) > 1):
            _, size = self._recent.popleft()
            self._recent_bytes -= size

    # registration
    def _add(self, region: HostRegion) -> bool:
        """Register ``region``; a region starting at the same address is replaced, except a
        ``malloc_host`` one: wrapping memory in a view never changes who owns it."""
        old = self._regions.get(region.addr)
        if old is not None:
            if old.kind == "pinned" and region.kind != "pinned":
                return False
            self._remove(old)
        self._regions[region.addr] = region
        bisect.insort(self._starts, region.addr)
        return True

    def _remove(self, region: HostRegion) -> None:
        if self._regions.get(region.addr) is region:
            del self._regions[region.addr]
            self._starts.pop(bisect.bisect_left(self._starts, region.addr))

    def _prune_bytes(self) -> None:
        # bytes cannot be weakly referenced: drop those only this registry still holds.
        for region in [r for r in self._regions.values() if r.kind == "bytes"]:
            if sys.getrefcount(region._strong) <= 2:  # the region slot and the call itself
                self._remove(region)

    def register_array(self, arr: np.ndarray, site: str = "") -> int:
        if not isinstance(arr, np.ndarray):
            raise TypeError(f"numpy_to_ptr needs a numpy.ndarray, got {type(arr).__name__}")
        if not arr.flags.c_contiguous:
            raise InvalidParamError("the array is not C-contiguous, so its bytes are not one range",
                                    hint="pass np.ascontiguousarray(arr) and keep that array alive")
        owner: object = arr
        while isinstance(owner, np.ndarray) and owner.base is not None:
            owner = owner.base
        addr = arr.ctypes.data
        with self._lock:
            self._keep_recent(arr, arr.nbytes)
            known = self._lookup(addr, arr.nbytes)
            if known is not None and known.kind in ("pinned", "bytes"):
                return addr  # a view of memory that has its owner already (malloc_host, bytes_to_ptr)
            if isinstance(owner, np.ndarray) and owner.flags.c_contiguous:
                region = known
                if region is None or region.owner() is not owner:
                    base_addr = owner.ctypes.data
                    region = HostRegion(base_addr, owner.nbytes, "numpy", owner, site, weak=True)
                    ref_region = region
                    weakref.finalize(owner, self._drop_dead, ref_region.addr, weakref.ref(ref_region))
                    self._add(region)
            else:  # the memory belongs to something else (bytes, mmap, another library)
                region = HostRegion(addr, arr.nbytes, "numpy", arr, site, weak=True)
                weakref.finalize(arr, self._drop_dead, addr, weakref.ref(region))
                self._add(region)
        return addr

    def _drop_dead(self, addr: int, region_ref: weakref.ref[HostRegion]) -> None:
        region = region_ref()
        if region is not None:
            with self._lock:
                self._remove(region)

    def register_bytes(self, data: bytes | bytearray | memoryview, site: str = "") -> int:
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"bytes_to_ptr needs bytes, got {type(data).__name__}")
        if len(data) == 0:
            raise InvalidParamError("bytes_to_ptr of an empty buffer has no address")
        addr = np.frombuffer(data, dtype=np.uint8).ctypes.data
        with self._lock:
            self._prune_bytes()
            self._add(HostRegion(addr, memoryview(data).nbytes, "bytes", data, site, weak=False))
        return addr

    def malloc_host(self, size: int, site: str = "") -> int:
        if not isinstance(size, (int, np.integer)) or isinstance(size, bool) or size <= 0:
            raise InvalidParamError(f"malloc_host size must be an int > 0, got {size!r}")
        size = int(size)
        if size > SIZE_MAX:
            raise InvalidParamError(f"malloc_host size {size} does not fit a size_t (at most {SIZE_MAX})")
        with self._lock:
            block = self._malloc_pinned(size)
            region = HostRegion(block.addr, size, "pinned", block.array[:size], site, weak=False)
            region.block = block
            self._add(region)
            self._freed.pop(block.addr, None)
        return block.addr

    def _malloc_pinned(self, size: int) -> PinnedBlock:
        """A pinned block; when the host refuses, the cached blocks are given back and the
        request tried once more before it fails (207001)."""
        for attempt in range(2):
            try:
                return self.pinned.malloc(size)
            except (MemoryError, ValueError, OverflowError):  # NumPy: "array is too big" and kin
                if attempt or not self.pinned.empty_cache():
                    break
        raise HostAllocationError(f"malloc_host could not get {size} B of host memory",
                                  hint="ask for less, or free host memory first")

    def free_host(self, ptr: int, site: str = "") -> HostRegion:
        with self._lock:
            region = self._regions.get(ptr)
            if region is None or region.kind != "pinned":
                dead = self._freed.get(ptr)
                if region is None and dead is not None:
                    raise MemoryFreeError(f"double free_host of host 0x{ptr:x}: {_describe_host(dead)}",
                                          hint="free_host each pointer from malloc_host exactly once")
                what = ("is not from malloc_host" if region is not None
                        else "is not a live malloc_host pointer")
                raise MemoryFreeError(f"host pointer 0x{ptr:x} {what} (double free_host?)",
                                      hint="free_host only what malloc_host returned, once")
            self._remove(region)
            assert region.block is not None
            self.pinned.free(region.block, region.uses)
            region.free_site = site
            self._freed[ptr] = region
            if len(self._freed) > GRAVEYARD:
                self._freed.popitem(last=False)
            return region

    def region_at(self, ptr: int) -> HostRegion | None:
        """The live registered region starting exactly at ``ptr``."""
        with self._lock:
            return self._regions.get(ptr)

    # lookup
    def _lookup(self, addr: int, nbytes: int) -> HostRegion | None:
        i = bisect.bisect_right(self._starts, addr) - 1
        for j in range(i, max(i - 8, -1), -1):
            region = self._regions[self._starts[j]]
            inside = region.addr <= addr and addr + nbytes <= region.addr + region.nbytes
            if inside and region.owner() is not None:
                return region
        return None

    def locate(self, ptr: int, nbytes: int) -> tuple[HostRegion, np.ndarray, object]:
        """Region, writable uint8 view, and an object to keep alive while the view is used."""
        with self._lock:
            region = self._lookup(ptr, nbytes)
            if region is None:
                self._prune_bytes()
                near = self._lookup(ptr, 1)
        if region is None:
            if near is not None:
                raise RtParamInvalidError(
                    f"{nbytes} B at host 0x{ptr:x} run past the end of {near!r}",
                    hint="copy at most the size of the host buffer")
            dead = self._freed_at(ptr)
            raw = foreign.raw_host_memory()
            if dead is not None and (not raw or self.pinned.holds(dead.block)):
                # the pinned pool caches it: unknown memory, named
                raise InvalidMemoryTypeError(
                    f"use after free: host address 0x{ptr:x} is {ptr - dead.addr} B inside "
                    f"{_describe_host(dead)}", hint="keep host buffers allocated while copies use them")
            if raw:  # a C caller: any process address is host memory, used in place
                process = HostRegion(ptr, nbytes, "process", None, "", weak=False)
                return process, _ctypes_view(ptr, nbytes), None
            raise InvalidMemoryTypeError(
                f"host address 0x{ptr:x} is not memory aclsim knows",
                hint="get host pointers from malloc_host, numpy_to_ptr or bytes_to_ptr, and keep the "
                "array or bytes alive while the device uses them")
        owner = region.owner()
        if region.kind == "numpy" and isinstance(owner, np.ndarray) and owner.flags.writeable:
            flat = owner.reshape(-1).view(np.uint8)
            start = ptr - region.addr
            return region, flat[start:start + nbytes], owner
        return region, _ctypes_view(ptr, nbytes), owner

    def _freed_at(self, ptr: int) -> HostRegion | None:
        with self._lock:
            for region in reversed(self._freed.values()):
                if region.addr <= ptr < region.addr + region.nbytes:
                    return region
        return None

    def region_of(self, ptr: int) -> HostRegion | None:
        with self._lock:
            return self._lookup(ptr, 1)

    def pinned_regions(self) -> list[HostRegion]:
        with self._lock:
            return [r for r in self._regions.values() if r.kind == "pinned"]

    def clear(self) -> None:
        with self._lock:
            self._regions.clear()
            self._starts.clear()
            self._recent.clear()
            self._recent_bytes = 0
            self._freed.clear()
            self.pinned = PinnedHostPool()


def _describe_host(region: HostRegion) -> str:
    text = f"{region.nbytes} B from malloc_host at {region.site}"
    if region.free_site is not None:
        text += f", freed by free_host at {region.free_site}"
    return text
