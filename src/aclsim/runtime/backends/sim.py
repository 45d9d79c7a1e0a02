"""The simulated NPU backend: device memory is anonymous memory maps on the host.

Physical memory is a budget of ``capacity`` bytes.  Contiguous ``malloc`` ranges come from
one map of ``capacity`` bytes; every ``reserve`` gets a map of its own, placed in the
device's address space above it, and ``map``/``unmap`` take and return physical pages of
that budget (``unmap`` hands the host pages back with ``madvise(MADV_DONTNEED)``, so their
contents are lost, as on a device).  Maps are made with ``MAP_NORESERVE`` where the OS has it,
so a 64 GiB device costs nothing until its pages are touched, and every address stays
stable for the life of the device.
"""

from __future__ import annotations

import bisect
import mmap
import sys

import numpy as np

from aclsim.arch import ChipSpec
from aclsim.isa import Instr
from aclsim.runtime.backends.base import Backend, DeviceArena
from aclsim.runtime.pool import AccountingUpstream
from aclsim.sim import SimReport, simulate

#: Device ``d``'s addresses start at ``DEVICE_ADDRESS_BASE + d * DEVICE_ADDRESS_STRIDE``:
#: 2**48 is above the 47-bit user space of Linux, macOS and Windows on x86-64 and arm64.
DEVICE_ADDRESS_BASE = 1 << 48
DEVICE_ADDRESS_STRIDE = 1 << 42
#: The top 1/16 of each device's address space maps registered host memory (zero-copy).
HOST_MAP_OFFSET = DEVICE_ADDRESS_STRIDE - DEVICE_ADDRESS_STRIDE // 16
#: Physical page of device memory (``aclrtMallocPhysical`` granularity on the NPU: 2 MiB,
#: shared/design/reference/ascend-api.md 5.1 item 3; CUDA's minimum granularity is the same).
PAGE_BYTES = 2 << 20
#: The most device memory a simulated device can have (the rest of its address space holds
#: the reserved ranges of expandable segments and the host-mapped window).
MAX_DEVICE_MEMORY = HOST_MAP_OFFSET // 2

# Python exposes MAP_NORESERVE only from 3.13 on; its Linux value is 0x4000.
_MAP_NORESERVE = getattr(mmap, "MAP_NORESERVE", 0x4000 if sys.platform.startswith("linux") else 0)
_MADV_DONTNEED = getattr(mmap, "MADV_DONTNEED", None)


def device_base(device_id: int) -> int:
    return DEVICE_ADDRESS_BASE + device_id * DEVICE_ADDRESS_STRIDE


def _anonymous_map(nbytes: int, device_id: int) -> mmap.mmap:
    flags = getattr(mmap, "MAP_PRIVATE", 0) | getattr(mmap, "MAP_ANONYMOUS", 0)
    try:
        if flags:
            return mmap.mmap(-1, nbytes, flags=flags | _MAP_NORESERVE)
        return mmap.mmap(-1, nbytes)  # Windows: a pagefile-backed map
    except OSError as exc:
        raise MemoryError(
            f"cannot map {nbytes} B of host memory for the arena of npu:{device_id} ({exc}); "
            "set a smaller device memory (ACLSIM_MEMORY or the init config)") from exc


class SimArena(DeviceArena):
    __slots__ = ("base", "capacity", "granularity", "device_id", "_book", "_map", "_bytes", "_res_starts",
                 "_res")

    def __init__(self, device_id: int, capacity: int, granularity: int = PAGE_BYTES) -> None:
        if capacity <= 0 or capacity > MAX_DEVICE_MEMORY:
            raise ValueError(f"arena capacity must be in 1..{MAX_DEVICE_MEMORY}, got {capacity}")
        self.base = device_base(device_id)
        self.capacity = capacity
        self.granularity = granularity
        self.device_id = device_id
        self._book = AccountingUpstream(capacity, granularity, va_bytes=HOST_MAP_OFFSET)
        self._map: mmap.mmap | None = _anonymous_map(capacity, device_id)
        self._bytes = np.frombuffer(self._map, dtype=np.uint8)
        self._res_starts: list[int] = []
        self._res: dict[int, tuple[mmap.mmap, np.ndarray]] = {}

    @property
    def used(self) -> int:
        """Physical bytes handed out (contiguous ranges and mapped pages)."""
        return self._book.used

    def view(self, offset: int, nbytes: int) -> np.ndarray:
        if offset < self.capacity:
            return self._bytes[offset:offset + nbytes]
        i = bisect.bisect_right(self._res_starts, offset) - 1
        start = self._res_starts[i]
        arr = self._res[start][1]
        return arr[offset - start:offset - start + nbytes]

    def malloc(self, nbytes: int) -> int:
        return self._book.malloc(nbytes)

    def free(self, offset: int, nbytes: int) -> None:
        self._book.free(offset, nbytes)
        if self._map is not None:
            self._discard(self._map, offset, nbytes)

    def reserve(self, nbytes: int) -> int:
        offset = self._book.reserve(nbytes)
        host = _anonymous_map(nbytes, self.device_id)
        bisect.insort(self._res_starts, offset)
        self._res[offset] = (host, np.frombuffer(host, dtype=np.uint8))
        return offset

    def unreserve(self, offset: int, nbytes: int) -> None:
        self._book.unreserve(offset, nbytes)
        self._res_starts.pop(bisect.bisect_left(self._res_starts, offset))
        del self._res[offset]  # the map goes once no view of it is left

    def largest_free(self) -> int:
        """The largest contiguous ``malloc`` that could succeed now."""
        return self._book.largest_free()

    def map(self, offset: int, nbytes: int) -> None:
        self._book.map(offset, nbytes)

    def unmap(self, offset: int, nbytes: int) -> None:
        self._book.unmap(offset, nbytes)
        i = bisect.bisect_right(self._res_starts, offset) - 1
        start = self._res_starts[i]
        self._discard(self._res[start][0], offset - start, nbytes)

    @staticmethod
    def _discard(host: mmap.mmap, offset: int, nbytes: int) -> None:
        if _MADV_DONTNEED is None or offset % mmap.PAGESIZE or nbytes % mmap.PAGESIZE:
            return
        try:
            host.madvise(_MADV_DONTNEED, offset, nbytes)
        except (OSError, ValueError):  # pragma: no cover - best effort
            pass

    def close(self) -> None:
        # Views into the maps may still exist (a user kept an array); dropping our
        # references lets the maps go when the last view does.
        self._bytes = np.empty(0, dtype=np.uint8)
        self._map = None
        self._res.clear()
        self._res_starts.clear()

    def __repr__(self) -> str:
        return f"<SimArena 0x{self.base:x} {self.capacity}B>"


class SimBackend(Backend):
    """The simulated NPU: device memory in a host byte arena, launches timed by the core model."""

    name = "sim"

    def create_arena(self, device_id: int, capacity: int) -> DeviceArena:
        return SimArena(device_id, capacity)

    def time(self, chip: ChipSpec, streams: list[list[Instr]]) -> SimReport | None:
        return simulate(chip, streams)
