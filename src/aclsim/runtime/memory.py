"""Device memory (allocator seam, buffers, bounds checks) and registered host memory.

Device side
    ``DeviceMemory`` keeps one device's allocations.  Placement is delegated to an
    :class:`Allocator`, by default the caching pool (:mod:`aclsim.runtime.pool`), which
    applies the AscendCL rules for what ``malloc`` hands out (the size rounded up to 32 B
    plus 32 B, 64 B aligned starts).  Freed buffers are remembered for a while so that a
    double free or a use after free names the lines that allocated and freed the memory.
    Host memory registered for the device (zero-copy) gets device addresses in the top
    part of the device's address space.

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
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from aclsim.errors import (
    AclError,
    HostAllocationError,
    InvalidMemoryTypeError,
    InvalidParamError,
    MemoryFreeError,
    OutOfMemoryError,
    RtParamInvalidError,
    UseAfterFreeError,
)
from aclsim.runtime.backends.base import DeviceArena
from aclsim.runtime.backends.sim import DEVICE_ADDRESS_BASE, DEVICE_ADDRESS_STRIDE, HOST_MAP_OFFSET
from aclsim.runtime.hostmem import HOST_ALIGN, PinnedBlock, PinnedHostPool
from aclsim.runtime.pool import AllocatorFull, CachingPool, InvalidRelease, PoolOptions, RangeAllocator

# AscendCL's rules for aclrtMalloc (acl_rt.h doc comment; ascend-api.md 1.2):
MALLOC_SIZE_ALIGN = 32  # the size is rounded up to 32 B ...
MALLOC_PADDING = 32  # ... and 32 B are added
MALLOC_START_ALIGN = 64  # every start address is 64 B aligned
# numpy_to_ptr keeps the most recent arrays alive for a while, so that the common
# ``memcpy(..., numpy_to_ptr(arr.astype(...)), ...)`` (a temporary that real pyACL reads
# after it was freed, and that happens to work there) works here too.
RECENT_ARRAYS = 64
RECENT_ARRAY_BYTES = 256 << 20
SIZE_MAX = 2**64 - 1  # size_t: the largest size a C caller of AscendCL can pass

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


class Allocator(Protocol):
    """Where device allocations are placed: offsets in the device's arena.

    The seam between the runtime and the memory pool.  ``allocate(nbytes, stream)`` gets the
    size the user asked for and applies AscendCL's rules (``ALIGN_UP(nbytes, 32) + 32``
    bytes, a start aligned to at least ``MALLOC_START_ALIGN``); ``stream`` is the stream the
    memory is for (``None``: no stream).  ``release(offset, stream)`` gives it back; the
    free is ordered after ``stream``'s work as well as the allocation stream's.  Both raise
    :class:`AllocatorFull` / :class:`InvalidRelease`.  The default is
    :class:`~aclsim.runtime.pool.CachingPool`; :class:`BestFitAllocator` caches nothing.
    """

    @property
    def capacity(self) -> int: ...

    def allocate(self, nbytes: int, stream: Any = None) -> int: ...

    def release(self, offset: int, stream: Any = None) -> None: ...

    def reserved_bytes(self) -> int: ...

    def largest_free(self) -> int: ...


class BestFitAllocator:
    """No caching: best fit with splitting and coalescing straight over the arena's bytes.

    >>> a = BestFitAllocator(1024)
    >>> x, y = a.allocate(32), a.allocate(100)
    >>> (x, y, a.reserved_bytes())
    (0, 64, 256)
    >>> a.release(x); a.release(y); a.largest_free()
    1024
    """

    __slots__ = ("capacity", "_ranges")

    def __init__(self, capacity: int, align: int = MALLOC_START_ALIGN) -> None:
        self._ranges = RangeAllocator(capacity, align)
        self.capacity = self._ranges.capacity

    def allocate(self, nbytes: int, stream: Any = None) -> int:
        return self._ranges.allocate(malloc_padded_size(nbytes))

    def release(self, offset: int, stream: Any = None) -> None:
        try:
            self._ranges.release(offset)
        except KeyError:
            raise InvalidRelease(f"offset 0x{offset:x} is not allocated") from None

    def reserved_bytes(self) -> int:
        return self._ranges.used

    def largest_free(self) -> int:
        return self._ranges.largest_free()


class Buffer:
    """One device allocation.  ``int(buf)`` is its device address.

    >>> import aclsim
    >>> aclsim.init(chip="tiny"); aclsim.set_device(0)
    >>> buf = aclsim.malloc(100)
    >>> (buf.size, buf.padded_size, buf.ptr % 64)
    (100, 160, 0)
    >>> aclsim.free(buf); aclsim.reset_device(0); aclsim.finalize()
    []
    """

    __slots__ = ("device", "ptr", "size", "padded_size", "policy", "kind", "site", "alive", "stream",
                 "free_site", "memory", "_offset")

    def __init__(self, device: int, ptr: int, size: int, padded_size: int, policy: int, kind: str,
                 site: str, offset: int, stream: Any = None, memory: DeviceMemory | None = None) -> None:
        self.device = device
        self.ptr = ptr
        self.size = size
        self.padded_size = padded_size
        self.policy = policy
        self.kind = kind
        self.site = site
        self.alive = True
        self.stream = stream
        self.free_site: str | None = None
        self.memory = memory
        self._offset = offset

    def __int__(self) -> int:
        return self.ptr

    def __index__(self) -> int:
        return self.ptr

    def __repr__(self) -> str:
        state = "" if self.alive else " freed"
        return f"<Buffer npu:{self.device} 0x{self.ptr:x} {self.size}B{state}>"

    def describe(self) -> str:
        """Where the buffer came from (and went): for error messages."""
        text = f"{self!r} allocated at {self.site}"
        if self.free_site is not None:
            text += f" and freed at {self.free_site}"
        return text


class HostMapping:
    """Host memory registered for the device (zero-copy): a device address range whose
    bytes are the host's.  Copies and kernels reach the host memory directly; the core model
    charges their accesses to the host link, not to device memory."""

    __slots__ = ("device", "ptr", "nbytes", "host_ptr", "site", "alive", "_view", "_keep")

    def __init__(self, device: int, ptr: int, nbytes: int, host_ptr: int, site: str, view: np.ndarray,
                 keep: object) -> None:
        self.device = device
        self.ptr = ptr
        self.nbytes = nbytes
        self.host_ptr = host_ptr
        self.site = site
        self.alive = True
        self._view = view
        self._keep = keep

    def __repr__(self) -> str:
        return f"<HostMapping npu:{self.device} 0x{self.ptr:x} -> host 0x{self.host_ptr:x} {self.nbytes}B>"


GRAVEYARD = 4096  # freed buffers remembered to name the lines of a use after free / double free


class DeviceMemory:
    """The allocations of one device: the pool over its arena, the live buffers, the freed
    ones (for use-after-free and double-free messages), and the host-mapped ranges."""

    def __init__(self, device_id: int, arena: DeviceArena, allocator: Allocator | None = None,
                 options: PoolOptions | None = None) -> None:
        self.device_id = device_id
        self.arena = arena
        self._lock = threading.Lock()
        chosen: Allocator = allocator if allocator is not None else CachingPool(
            arena, options, sync=self._sync_unlocked, device=device_id)
        self.allocator = chosen
        self.pool: CachingPool | None = chosen if isinstance(chosen, CachingPool) else None
        self._buffers: dict[int, Buffer] = {}
        self._starts: list[int] = []
        self._graveyard: collections.OrderedDict[int, Buffer] = collections.OrderedDict()
        self._maps: dict[int, HostMapping] = {}
        self._map_starts: list[int] = []
        self._map_space = RangeAllocator(DEVICE_ADDRESS_STRIDE - HOST_MAP_OFFSET, HOST_ALIGN)
        self.allocated_bytes = 0  # AscendCL-padded bytes of live buffers
        self.requested_bytes = 0

    @property
    def capacity(self) -> int:
        return self.allocator.capacity

    @property
    def limit(self) -> int:
        return self.pool.limit if self.pool is not None else self.allocator.capacity

    def free_bytes(self) -> int:
        """What ``get_mem_info`` reports as free: what one malloc is sure to get (no lock needed)."""
        return self.pool.available_bytes() if self.pool else self.capacity - self.allocator.reserved_bytes()

    def _sync_unlocked(self, waits: list[tuple[Any, int]]) -> None:
        """The pool waits for streams (OOM ladder, empty_cache) without holding our lock, so
        that stream work that needs device memory can finish meanwhile."""
        self._lock.release()
        try:
            for stream, ticket in waits:
                try:
                    stream.wait_for(ticket)
                except AclError:  # a stream that can never get there keeps its memory
                    pass
        finally:
            self._lock.acquire()

    def malloc(self, size: int, policy: int, site: str, kind: str = "device", stream: Any = None) -> Buffer:
        if not isinstance(size, (int, np.integer)) or isinstance(size, bool):
            raise InvalidParamError(f"size must be an int, got {type(size).__name__}")
        size = int(size)
        if size <= 0:
            raise InvalidParamError(f"size must be > 0, got {size}", hint="AscendCL rejects 0-byte mallocs")
        if malloc_padded_size(size) > SIZE_MAX:  # AscendCL's padding overflows a size_t
            raise InvalidParamError(f"size {size} B plus AscendCL's padding does not fit a size_t",
                                    hint="ask for a size the device can hold")
        check_policy(policy)
        padded = malloc_padded_size(size)
        with self._lock:
            try:
                offset = self.allocator.allocate(size, stream)
            except AllocatorFull:
                raise self._oom(size) from None
            ptr = self.arena.base + offset
            buf = Buffer(self.device_id, ptr, size, padded, int(policy), kind, site, offset, stream, self)
            self._buffers[ptr] = buf
            bisect.insort(self._starts, ptr)
            self.allocated_bytes += padded
            self.requested_bytes += size
        return buf

    def _oom(self, size: int) -> OutOfMemoryError:
        pool = self.pool
        if pool is not None:
            used, reserved = pool.all.b, pool.all.res
            hint = None
            if reserved - used > size:
                hint = (f"{reserved - used} B are reserved but unallocated (held by streams whose work is "
                        "not done, or fragmented); synchronize streams, call empty_cache(), or raise the "
                        "limit with set_memory_limit")
            return OutOfMemoryError(size, used=used, reserved=reserved, limit=pool.limit,
                                    device=self.device_id,
                                    largest_free=pool.largest_allocatable(), hint=hint)
        used = self.allocator.reserved_bytes()
        return OutOfMemoryError(size, used=used, reserved=used, limit=self.allocator.capacity,
                                device=self.device_id, largest_free=self.allocator.largest_free())

    def free(self, ptr: int, kind: str = "device", site: str = "") -> Buffer:
        with self._lock:
            buf = self._buffers.get(ptr)
            if buf is None:
                raise self._bad_free(ptr)
            if buf.kind != kind:
                raise MemoryFreeError(f"{buf!r} was allocated by {_ALLOCATORS[buf.kind]}, not "
                                      f"{_ALLOCATORS[kind]}", hint=f"release it with {_FREERS[buf.kind]}")
            del self._buffers[ptr]
            self._starts.pop(bisect.bisect_left(self._starts, ptr))
            self.allocator.release(buf._offset)
            self.allocated_bytes -= buf.padded_size
            self.requested_bytes -= buf.size
            buf.alive = False
            buf.free_site = site
            grave = self._graveyard
            grave[ptr] = buf
            grave.move_to_end(ptr)
            if len(grave) > GRAVEYARD:
                grave.popitem(last=False)
        return buf

    def _bad_free(self, ptr: int) -> MemoryFreeError:
        dead = self._graveyard.get(ptr)
        if dead is not None:
            return MemoryFreeError(f"double free of 0x{ptr:x}: {dead.describe()}",
                                   hint="free each pointer from malloc exactly once")
        inside = self._find(ptr)
        if inside is not None:
            return MemoryFreeError(f"0x{ptr:x} is {ptr - inside.ptr} B inside {inside.describe()}, "
                                   "not its start",
                                   hint="free the address malloc returned")
        if self._find_map(ptr, 1) is not None:
            return MemoryFreeError(f"0x{ptr:x} is host memory mapped for the device",
                                   hint="release it with host_unregister, then free_host")
        return MemoryFreeError(
            f"0x{ptr:x} is not a live allocation on npu:{self.device_id} (double free, or never allocated "
            "by malloc)", hint="free each pointer from malloc exactly once")

    def record_use(self, buf: Buffer, stream: Any) -> None:
        """``stream`` queued work on ``buf``: a free waits for it before another stream reuses
        the memory (done for every task a stream takes; PyTorch's ``record_stream``)."""
        if stream is buf.stream or self.pool is None:
            return
        with self._lock:
            if buf.alive:
                self.pool.record_stream(buf._offset, stream)

    def _find(self, ptr: int) -> Buffer | None:
        i = bisect.bisect_right(self._starts, ptr) - 1
        if i < 0:
            return None
        buf = self._buffers[self._starts[i]]
        return buf if ptr < buf.ptr + buf.padded_size else None

    def _find_dead(self, ptr: int) -> Buffer | None:
        for buf in reversed(self._graveyard.values()):
            if buf.ptr <= ptr < buf.ptr + buf.padded_size:
                return buf
        return None

    def locate(self, ptr: int, nbytes: int) -> tuple[Buffer | HostMapping, np.ndarray]:
        """The live buffer (or host mapping) holding ``[ptr, ptr + nbytes)`` and a uint8 view of
        those bytes.  Freed or cached memory is poisoned: touching it is a use after free."""
        with self._lock:
            buf = self._find(ptr)
            if buf is None:
                mapping = self._find_map(ptr, nbytes)
                if mapping is not None:
                    off = ptr - mapping.ptr
                    return mapping, mapping._view[off:off + nbytes]
                near = self._find_map(ptr, 1)
                dead = self._find_dead(ptr)
        if buf is None:
            if near is not None:
                raise RtParamInvalidError(
                    f"{nbytes} B at 0x{ptr:x} run {ptr + nbytes - near.ptr - near.nbytes} B past the end of "
                    f"{near!r}", hint="access at most the registered size")
            if dead is not None:
                raise UseAfterFreeError(
                    f"use after free: device address 0x{ptr:x} is {ptr - dead.ptr} B inside "
                    f"{dead.describe()}; its memory is cached by the pool or given to another allocation",
                    hint="keep buffers allocated while copies and kernels use them")
            raise RtParamInvalidError(
                f"device address 0x{ptr:x} is not inside a live allocation of npu:{self.device_id}",
                hint="use pointers returned by malloc, before they are freed")
        offset = ptr - buf.ptr
        if offset + nbytes > buf.size:
            raise RtParamInvalidError(
                f"{nbytes} B at offset {offset} of {buf.describe()} run {offset + nbytes - buf.size} B "
                "past its end", hint="copy at most the allocated size")
        return buf, self.arena.view(buf._offset + offset, nbytes)

    def live_buffers(self) -> list[Buffer]:
        with self._lock:
            return list(self._buffers.values())

    # --- pool management (under the lock) --------------------------------------------------
    def call_pool(self, fn: Callable[[CachingPool], Any]) -> Any:
        """Run ``fn(pool)`` under the memory lock (``None`` without a caching pool)."""
        with self._lock:
            return None if self.pool is None else fn(self.pool)

    def drop_stream(self, stream: Any) -> None:
        if self.pool is not None:
            with self._lock:
                self.pool.drop_stream(stream)

    # --- host memory mapped for the device (zero-copy) ------------------------------------
    def map_host(self, host_ptr: int, nbytes: int, view: np.ndarray, keep: object, site: str) -> HostMapping:
        with self._lock:
            for m in self._maps.values():
                if m.host_ptr < host_ptr + nbytes and host_ptr < m.host_ptr + m.nbytes:
                    raise InvalidParamError(f"host range 0x{host_ptr:x} +{nbytes} B overlaps {m!r}",
                                            hint="register each host range once")
            page_off = host_ptr % HOST_ALIGN
            try:
                off = self._map_space.allocate(page_off + nbytes)
            except AllocatorFull:
                raise OutOfMemoryError(nbytes, used=self._map_space.used, reserved=self._map_space.used,
                                       limit=self._map_space.capacity, device=self.device_id,
                                       hint="unregister host memory you no longer map") from None
            ptr = self.arena.base + HOST_MAP_OFFSET + off + page_off
            mapping = HostMapping(self.device_id, ptr, nbytes, host_ptr, site, view, keep)
            self._maps[ptr] = mapping
            bisect.insort(self._map_starts, ptr)
            return mapping

    def unmap_host(self, host_ptr: int) -> HostMapping | None:
        with self._lock:
            for ptr, m in self._maps.items():
                if m.host_ptr == host_ptr:
                    del self._maps[ptr]
                    self._map_starts.pop(bisect.bisect_left(self._map_starts, ptr))
                    self._map_space.release(ptr - self.arena.base - HOST_MAP_OFFSET - host_ptr % HOST_ALIGN)
                    m.alive = False
                    return m
        return None

    def _find_map(self, ptr: int, nbytes: int) -> HostMapping | None:
        i = bisect.bisect_right(self._map_starts, ptr) - 1
        if i < 0:
            return None
        m = self._maps[self._map_starts[i]]
        return m if ptr + nbytes <= m.ptr + m.nbytes and ptr < m.ptr + m.nbytes else None

    def host_mappings(self) -> list[HostMapping]:
        with self._lock:
            return sorted(self._maps.values(), key=lambda m: m.ptr)

    def is_host_mapped(self, ptr: int, nbytes: int = 1) -> bool:
        with self._lock:
            return self._find_map(ptr, nbytes) is not None

    def close(self) -> None:
        self.arena.close()
        self._maps.clear()
        self._map_starts.clear()


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

    __slots__ = ("addr", "nbytes", "kind", "site", "uses", "block", "free_site", "_strong", "_weak",
                 "__weakref__")

    def __init__(self, addr: int, nbytes: int, kind: str, owner: object, site: str, weak: bool) -> None:
        self.addr = addr
        self.nbytes = nbytes
        self.kind = kind  # "pinned" | "numpy" | "bytes"
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
            try:
                block = self.pinned.malloc(size)
            except (MemoryError, ValueError, OverflowError):  # NumPy: "array is too big" and kin
                raise HostAllocationError(f"malloc_host could not get {size} B of host memory",
                                          hint="ask for less, or free host memory first") from None
            region = HostRegion(block.addr, size, "pinned", block.array[:size], site, weak=False)
            region.block = block
            self._add(region)
            self._freed.pop(block.addr, None)
        return block.addr

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
            if dead is not None:  # the pinned pool caches it: unknown memory, named
                raise InvalidMemoryTypeError(
                    f"use after free: host address 0x{ptr:x} is {ptr - dead.addr} B inside "
                    f"{_describe_host(dead)}", hint="keep host buffers allocated while copies use them")
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
