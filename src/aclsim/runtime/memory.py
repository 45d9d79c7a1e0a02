"""Device memory: the allocator seam, buffers, bounds checks, host ranges mapped for the device.

Device side
    ``DeviceMemory`` keeps one device's allocations.  Placement is delegated to an
    :class:`Allocator`, by default the caching pool (:mod:`aclsim.runtime.pool`), which
    applies the AscendCL rules for what ``malloc`` hands out (the size rounded up to 32 B
    plus 32 B, 64 B aligned starts).  Freed buffers are remembered for a while so that a
    double free or a use after free names the lines that allocated and freed the memory.
    Host memory registered for the device (zero-copy) gets device addresses in the top
    part of the device's address space.

The host side (registered host memory, the pinned pool) is :mod:`aclsim.runtime.hostmem`.
"""

from __future__ import annotations

import bisect
import collections
import threading
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from aclsim.errors import (
    AclError,
    InvalidParamError,
    MemoryFreeError,
    OutOfMemoryError,
    RtParamInvalidError,
    UseAfterFreeError,
)
from aclsim.runtime.backends.base import DeviceArena
from aclsim.runtime.backends.sim import DEVICE_ADDRESS_BASE, DEVICE_ADDRESS_STRIDE, HOST_MAP_OFFSET
from aclsim.runtime.hostmem import HOST_ALIGN, SIZE_MAX
from aclsim.runtime.pool import (
    ASCEND_PADDING,
    ASCEND_SIZE_ALIGN,
    AllocatorFull,
    CachingPool,
    InvalidRelease,
    PoolOptions,
    RangeAllocator,
    align_up,
)

# AscendCL's rules for aclrtMalloc (acl_rt.h doc comment; ascend-api.md 1.2; the pool applies them):
MALLOC_SIZE_ALIGN = ASCEND_SIZE_ALIGN  # the size is rounded up to 32 B ...
MALLOC_PADDING = ASCEND_PADDING  # ... and 32 B are added
MALLOC_START_ALIGN = 64  # every start address is 64 B aligned

# aclrtMemMallocPolicy (acl_rt.h L177-L189): the base values and the OR-able flags.
MALLOC_POLICIES = frozenset(range(8))
MALLOC_POLICY_FLAGS = 0x0100 | 0x1000 | 0x100000


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


class DirectAllocator:
    """No pool (``init(pool=False)``, ``ACLSIM_POOL=off``): every allocation maps its own memory
    from the device arena (the AscendCL-padded size rounded up to the arena's page) and every
    release unmaps it at once, as ``aclrtMalloc``/``aclrtFree`` without a caching allocator.
    Nothing is cached, so every allocation is a miss.  ``memory_stats`` gives the counters of
    the pool's statistics that apply (``docs/memory.md``).

    >>> from aclsim.runtime.pool import AccountingUpstream
    >>> a = DirectAllocator(AccountingUpstream(1 << 30, 1 << 21))
    >>> x = a.allocate(1000); a.reserved_bytes(); a.release(x); a.reserved_bytes()
    2097152
    0
    """

    _FAMILIES = ("allocation", "segment", "allocated_bytes", "requested_bytes", "reserved_bytes")

    def __init__(self, upstream: Any) -> None:
        self.upstream = upstream
        self.capacity = int(upstream.capacity)
        self._live: dict[int, tuple[int, int, int]] = {}  # offset -> (mapped, padded, requested)
        self._now = dict.fromkeys(self._FAMILIES, 0)
        self._peak = dict.fromkeys(self._FAMILIES, 0)
        self._total = {f: [0, 0] for f in self._FAMILIES}  # allocated, freed

    def _count(self, sign: int, amounts: tuple[int, int, int]) -> None:
        mapped, padded, requested = amounts
        for fam, n in zip(self._FAMILIES, (1, 1, padded, requested, mapped), strict=True):
            self._now[fam] += sign * n
            self._total[fam][0 if sign > 0 else 1] += n
            self._peak[fam] = max(self._peak[fam], self._now[fam])

    def allocate(self, nbytes: int, stream: Any = None) -> int:
        padded = malloc_padded_size(nbytes)
        page = int(self.upstream.granularity)
        mapped = -(-padded // page) * page
        offset = int(self.upstream.malloc(mapped))  # AllocatorFull when the device is full
        self._live[offset] = (mapped, padded, int(nbytes))
        self._count(1, self._live[offset])
        return offset

    def release(self, offset: int, stream: Any = None) -> None:
        amounts = self._live.pop(offset, None)
        if amounts is None:
            raise InvalidRelease(f"offset 0x{offset:x} is not allocated")
        self.upstream.free(offset, amounts[0])
        self._count(-1, amounts)

    def reserved_bytes(self) -> int:
        return self._now["reserved_bytes"]

    def largest_free(self) -> int:
        largest = getattr(self.upstream, "largest_free", None)
        return int(largest()) if largest is not None else self.capacity - self.reserved_bytes()

    def memory_stats(self) -> dict[str, Any]:
        """``<family>.all.<current|peak|allocated|freed>`` for allocation, segment (one per
        allocation), allocated_bytes (padded), requested_bytes and reserved_bytes (mapped);
        ``num_hits`` 0, ``num_misses`` and ``num_device_alloc`` the allocations,
        ``num_device_free`` the releases, ``hit_rate``."""
        out: dict[str, Any] = {}
        for fam in self._FAMILIES:
            out.update({f"{fam}.all.current": self._now[fam], f"{fam}.all.peak": self._peak[fam],
                        f"{fam}.all.allocated": self._total[fam][0], f"{fam}.all.freed": self._total[fam][1]})
        allocs = self._total["allocation"][0]
        out.update({"num_hits": 0, "num_misses": allocs, "num_device_alloc": allocs,
                    "num_device_free": self._total["allocation"][1], "hit_rate": 0.0 if allocs else 1.0,
                    "capacity_bytes": self.capacity, "pool": False})
        return out

    def reset_peak_stats(self) -> None:
        self._peak = dict(self._now)

    def reset_accumulated_stats(self) -> None:
        self._total = {f: [0, 0] for f in self._FAMILIES}


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
                raise _use_after_free(ptr, dead)
            raise RtParamInvalidError(
                f"device address 0x{ptr:x} is not inside a live allocation of npu:{self.device_id}",
                hint="use pointers returned by malloc, before they are freed")
        offset = ptr - buf.ptr
        if offset + nbytes > buf.size:
            raise RtParamInvalidError(
                f"{nbytes} B at offset {offset} of {buf.describe()} run {offset + nbytes - buf.size} B "
                "past its end", hint="copy at most the allocated size")
        return buf, self.arena.view(buf._offset + offset, nbytes)

    def holder(self, ptr: int) -> Buffer | HostMapping | None:
        """The live buffer whose *padded* bytes (``padded_size``: what a kernel may reach) hold
        ``ptr``, or the host mapping holding it, or None; freed memory raises
        :class:`~aclsim.errors.UseAfterFreeError` naming its lines."""
        with self._lock:
            held: Buffer | HostMapping | None = self._find(ptr) or self._find_map(ptr, 1)
            dead = self._find_dead(ptr) if held is None else None
        if dead is not None:
            raise _use_after_free(ptr, dead)
        return held

    def reachable_bytes(self, buf: Buffer) -> int:
        """Bytes of ``buf`` a kernel may touch: AscendCL's ``padded_size``, within the block the
        pool really gave it (a pool configured with ``ascend_padding:False`` pads less)."""
        pool = self.pool
        if pool is not None and not pool.options.ascend_padding:
            return min(buf.padded_size, pool.round_size(buf.size))
        return buf.padded_size

    def padded_view(self, buf: Buffer) -> np.ndarray:
        """A uint8 view of the bytes of ``buf`` a kernel may touch (:meth:`reachable_bytes`)."""
        return self.arena.view(buf._offset, self.reachable_bytes(buf))

    def live_buffers(self) -> list[Buffer]:
        with self._lock:
            return list(self._buffers.values())

    # --- pool management (under the lock) --------------------------------------------------
    def call_pool(self, fn: Callable[[CachingPool], Any]) -> Any:
        """Run ``fn(pool)`` under the memory lock (``None`` without a caching pool)."""
        with self._lock:
            return None if self.pool is None else fn(self.pool)

    def call_stats(self, fn: Callable[[Any], Any]) -> Any:
        """Run ``fn`` on what keeps the statistics (the caching pool, or a
        :class:`DirectAllocator`) under the memory lock; ``None`` if nothing does."""
        holder: Any = self.pool if self.pool is not None else self.allocator
        with self._lock:
            return fn(holder) if hasattr(holder, "memory_stats") else None

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


def _use_after_free(ptr: int, dead: Buffer) -> UseAfterFreeError:
    return UseAfterFreeError(
        f"use after free: device address 0x{ptr:x} is {ptr - dead.ptr} B inside {dead.describe()}; its "
        "memory is cached by the pool, unmapped (no pool) or given to another allocation",
        hint="keep buffers allocated while copies and kernels use them")


_ALLOCATORS = {"device": "malloc", "dvpp": "dvpp_malloc"}
_FREERS = {"device": "free", "dvpp": "dvpp_free"}


def check_policy(policy: int) -> None:
    if not isinstance(policy, (int, np.integer)) or isinstance(policy, bool) or policy < 0:
        raise InvalidParamError(f"malloc policy must be a non-negative aclrtMemMallocPolicy, got {policy!r}")
    base = policy & ~MALLOC_POLICY_FLAGS
    if base not in MALLOC_POLICIES:
        raise InvalidParamError(f"unknown malloc policy {policy:#x}",
                                hint="use ACL_MEM_MALLOC_HUGE_FIRST (0), HUGE_ONLY (1), NORMAL_ONLY (2), ...")
