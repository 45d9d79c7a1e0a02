"""Device memory (allocator seam, buffers, bounds checks) and registered host memory.

Device side
    ``DeviceMemory`` keeps one device's allocations.  Placement is delegated to an
    :class:`Allocator` (the seam where the caching pool plugs in); the AscendCL rules for
    what ``malloc`` hands out are applied here: the size is rounded up to 32 B and 32 B
    are added, and every start is 64 B aligned.

Host side
    Host pointers are real process addresses.  ``HostMemory`` knows the host ranges the
    device may touch: pinned buffers from ``malloc_host`` and the memory of NumPy arrays
    and bytes objects handed out by ``numpy_to_ptr``/``bytes_to_ptr``.  Every copy checks
    that both ends lie inside a known range, so a bad pointer is an error, not a crash.
"""

from __future__ import annotations

import bisect
import collections
import ctypes
import sys
import threading
import weakref
from typing import Protocol

import numpy as np

from npusim.errors import (
    HostAllocationError,
    InvalidMemoryTypeError,
    InvalidParamError,
    MemoryFreeError,
    OutOfMemoryError,
    RtParamInvalidError,
)
from npusim.runtime.backends.base import DeviceArena
from npusim.runtime.backends.sim import DEVICE_ADDRESS_BASE, DEVICE_ADDRESS_STRIDE

# AscendCL's rules for aclrtMalloc (acl_rt.h doc comment; ascend-api.md 1.2):
MALLOC_SIZE_ALIGN = 32  # the size is rounded up to 32 B ...
MALLOC_PADDING = 32  # ... and 32 B are added
MALLOC_START_ALIGN = 64  # every start address is 64 B aligned
HOST_ALIGN = 4096  # malloc_host returns page-aligned memory
# numpy_to_ptr keeps the most recent arrays alive for a while, so that the common
# ``memcpy(..., numpy_to_ptr(arr.astype(...)), ...)`` (a temporary that real pyACL reads
# after it was freed, and that happens to work there) works here too.
RECENT_ARRAYS = 64
RECENT_ARRAY_BYTES = 256 << 20

# aclrtMemMallocPolicy (acl_rt.h L177-L189): the base values and the OR-able flags.
MALLOC_POLICIES = frozenset(range(8))
MALLOC_POLICY_FLAGS = 0x0100 | 0x1000 | 0x100000


def align_up(value: int, align: int) -> int:
    return (value + align - 1) // align * align


def malloc_padded_size(size: int) -> int:
    """Bytes AscendCL reserves for ``malloc(size)``: ``ALIGN_UP(size, 32) + 32``.

    >>> malloc_padded_size(1), malloc_padded_size(32), malloc_padded_size(33)
    (64, 64, 96)
    """
    return align_up(size, MALLOC_SIZE_ALIGN) + MALLOC_PADDING


def is_device_address(ptr: int) -> bool:
    return ptr >= DEVICE_ADDRESS_BASE


def device_of_address(ptr: int) -> int:
    return (ptr - DEVICE_ADDRESS_BASE) // DEVICE_ADDRESS_STRIDE


class AllocatorFull(Exception):
    """Raised by an :class:`Allocator` that has no room; the caller turns it into OOM."""


class Allocator(Protocol):
    """Where device allocations are placed: offsets inside ``0 .. capacity``.

    ``allocate`` must return offsets aligned to ``MALLOC_START_ALIGN``.  The runtime
    never looks inside; the caching pool of a later issue implements the same protocol.
    """

    capacity: int

    def allocate(self, nbytes: int) -> int: ...

    def release(self, offset: int) -> None: ...

    def reserved_bytes(self) -> int: ...

    def largest_free(self) -> int: ...


class BestFitAllocator:
    """A simple best-fit allocator with splitting and coalescing of free neighbours.

    >>> a = BestFitAllocator(1024)
    >>> x, y = a.allocate(64), a.allocate(100)
    >>> (x, y, a.reserved_bytes())
    (0, 64, 192)
    >>> a.release(x); a.release(y); a.largest_free()
    1024
    """

    __slots__ = ("capacity", "align", "_free_sorted", "_free_start", "_free_end", "_used", "_reserved")

    def __init__(self, capacity: int, align: int = MALLOC_START_ALIGN) -> None:
        self.capacity = capacity - capacity % align
        self.align = align
        self._free_sorted: list[tuple[int, int]] = [(self.capacity, 0)]  # (size, offset)
        self._free_start: dict[int, int] = {0: self.capacity}  # offset -> size
        self._free_end: dict[int, int] = {self.capacity: 0}  # end -> offset
        self._used: dict[int, int] = {}  # offset -> size
        self._reserved = 0

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
        self._used[offset] = size
        self._reserved += size
        return offset

    def release(self, offset: int) -> None:
        size = self._used.pop(offset)
        self._reserved -= size
        start, end = offset, offset + size
        if end in self._free_start:  # merge with the free block after
            nsize = self._free_start[end]
            self._take(end, nsize)
            end += nsize
        if start in self._free_end:  # merge with the free block before
            pstart = self._free_end[start]
            self._take(pstart, start - pstart)
            start = pstart
        self._put(start, end - start)

    def reserved_bytes(self) -> int:
        return self._reserved

    def largest_free(self) -> int:
        return self._free_sorted[-1][0] if self._free_sorted else 0


class Buffer:
    """One device allocation.  ``int(buf)`` is its device address.

    >>> import npusim
    >>> npusim.init(chip="tiny"); npusim.set_device(0)
    >>> buf = npusim.malloc(100)
    >>> (buf.size, buf.padded_size, buf.ptr % 64)
    (100, 160, 0)
    >>> npusim.free(buf); npusim.reset_device(0); npusim.finalize()
    """

    __slots__ = ("device", "ptr", "size", "padded_size", "policy", "kind", "site", "alive", "_offset")

    def __init__(self, device: int, ptr: int, size: int, padded_size: int, policy: int, kind: str,
                 site: str, offset: int) -> None:
        self.device = device
        self.ptr = ptr
        self.size = size
        self.padded_size = padded_size
        self.policy = policy
        self.kind = kind
        self.site = site
        self.alive = True
        self._offset = offset

    def __int__(self) -> int:
        return self.ptr

    def __index__(self) -> int:
        return self.ptr

    def __repr__(self) -> str:
        state = "" if self.alive else " freed"
        return f"<Buffer npu:{self.device} 0x{self.ptr:x} {self.size}B{state}>"


class DeviceMemory:
    """The allocations of one device, over its arena."""

    def __init__(self, device_id: int, arena: DeviceArena, allocator: Allocator | None = None) -> None:
        self.device_id = device_id
        self.arena = arena
        self.allocator: Allocator = allocator or BestFitAllocator(arena.capacity)
        self._buffers: dict[int, Buffer] = {}
        self._starts: list[int] = []
        self._lock = threading.Lock()
        self.allocated_bytes = 0  # padded bytes of live buffers
        self.requested_bytes = 0

    @property
    def capacity(self) -> int:
        return self.allocator.capacity

    def free_bytes(self) -> int:
        return self.allocator.capacity - self.allocator.reserved_bytes()

    def malloc(self, size: int, policy: int, site: str, kind: str = "device") -> Buffer:
        if not isinstance(size, (int, np.integer)) or isinstance(size, bool):
            raise InvalidParamError(f"size must be an int, got {type(size).__name__}")
        size = int(size)
        if size <= 0:
            raise InvalidParamError(f"size must be > 0, got {size}", hint="AscendCL rejects 0-byte mallocs")
        check_policy(policy)
        padded = malloc_padded_size(size)
        with self._lock:
            try:
                offset = self.allocator.allocate(padded)
            except AllocatorFull:
                raise OutOfMemoryError(size, used=self.allocator.reserved_bytes(),
                                       limit=self.allocator.capacity, device=self.device_id,
                                       largest_free=self.allocator.largest_free()) from None
            ptr = self.arena.base + offset
            buf = Buffer(self.device_id, ptr, size, padded, int(policy), kind, site, offset)
            self._buffers[ptr] = buf
            bisect.insort(self._starts, ptr)
            self.allocated_bytes += padded
            self.requested_bytes += size
        return buf

    def free(self, ptr: int, kind: str = "device") -> Buffer:
        with self._lock:
            buf = self._buffers.get(ptr)
            if buf is None:
                inside = self._find(ptr)
                if inside is not None:
                    raise MemoryFreeError(
                        f"0x{ptr:x} is {ptr - inside.ptr} B inside {inside!r}, not its start",
                        hint="free the address malloc returned")
                raise MemoryFreeError(
                    f"0x{ptr:x} is not a live allocation on npu:{self.device_id} (double free, or "
                    "never allocated)", hint="free each pointer from malloc exactly once")
            if buf.kind != kind:
                raise MemoryFreeError(f"{buf!r} was allocated by {_ALLOCATORS[buf.kind]}, not "
                                      f"{_ALLOCATORS[kind]}", hint=f"release it with {_FREERS[buf.kind]}")
            del self._buffers[ptr]
            self._starts.pop(bisect.bisect_left(self._starts, ptr))
            self.allocator.release(buf._offset)
            self.allocated_bytes -= buf.padded_size
            self.requested_bytes -= buf.size
            buf.alive = False
        return buf

    def _find(self, ptr: int) -> Buffer | None:
        i = bisect.bisect_right(self._starts, ptr) - 1
        if i < 0:
            return None
        buf = self._buffers[self._starts[i]]
        return buf if ptr < buf.ptr + buf.padded_size else None

    def locate(self, ptr: int, nbytes: int) -> tuple[Buffer, np.ndarray]:
        """The live buffer holding ``[ptr, ptr + nbytes)`` and a uint8 view of those bytes."""
        with self._lock:
            buf = self._find(ptr)
        if buf is None:
            raise RtParamInvalidError(
                f"device address 0x{ptr:x} is not inside a live allocation of npu:{self.device_id}",
                hint="use pointers returned by malloc, before they are freed")
        offset = ptr - buf.ptr
        if offset + nbytes > buf.size:
            raise RtParamInvalidError(
                f"{nbytes} B at offset {offset} of {buf!r} runs {offset + nbytes - buf.size} B past its end",
                hint="copy at most the allocated size")
        return buf, self.arena.view(buf._offset + offset, nbytes)

    def live_buffers(self) -> list[Buffer]:
        with self._lock:
            return list(self._buffers.values())


_ALLOCATORS = {"device": "malloc", "dvpp": "dvpp_malloc"}
_FREERS = {"device": "free", "dvpp": "dvpp_free"}


def check_policy(policy: int) -> None:
    if not isinstance(policy, (int, np.integer)) or isinstance(policy, bool) or policy < 0:
        raise InvalidParamError(f"malloc policy must be a non-negative aclrtMemMallocPolicy, got {policy!r}")
    base = policy & ~MALLOC_POLICY_FLAGS
    if base not in MALLOC_POLICIES:
        raise InvalidParamError(f"unknown malloc policy {policy:#x}",
                                hint="use ACL_MEM_MALLOC_HUGE_FIRST (0), HUGE_ONLY (1), NORMAL_ONLY (2), ...")


# --- host memory -----------------------------------------------------------------------

class HostRegion:
    """A host range the device may touch.  Owners are held weakly where Python allows."""

    __slots__ = ("addr", "nbytes", "kind", "site", "_strong", "_weak", "__weakref__")

    def __init__(self, addr: int, nbytes: int, kind: str, owner: object, site: str, weak: bool) -> None:
        self.addr = addr
        self.nbytes = nbytes
        self.kind = kind  # "pinned" | "numpy" | "bytes"
        self.site = site
        self._strong = None if weak else owner
        self._weak = weakref.ref(owner) if weak else None

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

    def _keep_recent(self, owner: object, nbytes: int) -> None:
        self._recent.append((owner, nbytes))
        self._recent_bytes += nbytes
        while len(self._recent) > RECENT_ARRAYS or (self._recent_bytes > RECENT_ARRAY_BYTES
                                                     and len(self._recent) > 1):
            _, size = self._recent.popleft()
            self._recent_bytes -= size

    # registration
    def _add(self, region: HostRegion) -> None:
        old = self._regions.get(region.addr)
        if old is not None:
            self._remove(old)
        self._regions[region.addr] = region
        bisect.insort(self._starts, region.addr)

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
            if isinstance(owner, np.ndarray) and owner.flags.c_contiguous:
                region = self._lookup(addr, arr.nbytes)
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
        try:
            raw = np.empty(size + HOST_ALIGN, dtype=np.uint8)
        except MemoryError:
            raise HostAllocationError(f"malloc_host could not get {size} B of host memory",
                                      hint="ask for less, or free host memory first") from None
        start = (-raw.ctypes.data) % HOST_ALIGN
        block = raw[start:start + size]
        addr = block.ctypes.data
        with self._lock:
            self._add(HostRegion(addr, size, "pinned", block, site, weak=False))
        return addr

    def free_host(self, ptr: int) -> None:
        with self._lock:
            region = self._regions.get(ptr)
            if region is None or region.kind != "pinned":
                what = ("is not from malloc_host" if region is not None
                        else "is not a live malloc_host pointer")
                raise MemoryFreeError(f"host pointer 0x{ptr:x} {what} (double free_host?)",
                                      hint="free_host only what malloc_host returned, once")
            self._remove(region)

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
            raise InvalidMemoryTypeError(
                f"host address 0x{ptr:x} is not memory npusim knows",
                hint="get host pointers from malloc_host, numpy_to_ptr or bytes_to_ptr, and keep the "
                "array or bytes alive while the device uses them")
        owner = region.owner()
        if region.kind == "numpy" and isinstance(owner, np.ndarray) and owner.flags.writeable:
            flat = owner.reshape(-1).view(np.uint8)
            start = ptr - region.addr
            return region, flat[start:start + nbytes], owner
        return region, _ctypes_view(ptr, nbytes), owner

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
