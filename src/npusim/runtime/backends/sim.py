"""The simulated NPU backend: device memory is an anonymous memory map on the host.

The map is made with ``MAP_NORESERVE`` where the OS has it, so a 64 GiB device costs
nothing until its pages are touched, and every address stays stable for the life of
the device.
"""

from __future__ import annotations

import mmap
import sys

import numpy as np

from npusim.runtime.backends.base import Backend, DeviceArena

#: Device ``d``'s addresses start at ``DEVICE_ADDRESS_BASE + d * DEVICE_ADDRESS_STRIDE``:
#: 2**48 is above the 47-bit user space of Linux, macOS and Windows on x86-64 and arm64.
DEVICE_ADDRESS_BASE = 1 << 48
DEVICE_ADDRESS_STRIDE = 1 << 42

# Python exposes MAP_NORESERVE only from 3.13 on; its Linux value is 0x4000.
_MAP_NORESERVE = getattr(mmap, "MAP_NORESERVE", 0x4000 if sys.platform.startswith("linux") else 0)


def device_base(device_id: int) -> int:
    return DEVICE_ADDRESS_BASE + device_id * DEVICE_ADDRESS_STRIDE


class SimArena(DeviceArena):
    __slots__ = ("base", "capacity", "_map", "_bytes")

    def __init__(self, device_id: int, capacity: int) -> None:
        if capacity <= 0 or capacity > DEVICE_ADDRESS_STRIDE:
            raise ValueError(f"arena capacity must be in 1..{DEVICE_ADDRESS_STRIDE}, got {capacity}")
        self.base = device_base(device_id)
        self.capacity = capacity
        flags = getattr(mmap, "MAP_PRIVATE", 0) | getattr(mmap, "MAP_ANONYMOUS", 0)
        try:
            if flags:
                self._map: mmap.mmap | None = mmap.mmap(-1, capacity, flags=flags | _MAP_NORESERVE)
            else:  # Windows: a pagefile-backed map
                self._map = mmap.mmap(-1, capacity)
        except OSError as exc:
            raise MemoryError(
                f"cannot map {capacity} B of host memory for the arena of npu:{device_id} ({exc}); "
                "set a smaller device memory (NPUSIM_MEMORY or the init config)") from exc
        self._bytes = np.frombuffer(self._map, dtype=np.uint8)

    def view(self, offset: int, nbytes: int) -> np.ndarray:
        return self._bytes[offset:offset + nbytes]

    def close(self) -> None:
        # Views into the map may still exist (a user kept an array); dropping our
        # references lets the map go when the last view does.
        self._bytes = np.empty(0, dtype=np.uint8)
        self._map = None

    def __repr__(self) -> str:
        return f"<SimArena 0x{self.base:x} {self.capacity}B>"


class SimBackend(Backend):
    name = "sim"

    def create_arena(self, device_id: int, capacity: int) -> DeviceArena:
        return SimArena(device_id, capacity)
