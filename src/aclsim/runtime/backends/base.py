"""The small interface every backend fills in: a byte arena per device.

The arena is also the *upstream* of the caching pool (as ``cudaMalloc``/``cuMemMap`` are for
PyTorch's allocator): contiguous ``malloc``/``free``, and ``reserve``/``map``/``unmap`` of
address ranges backed by physical pages of ``granularity`` bytes.  Offsets, not addresses.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np


class DeviceArena(ABC):
    """The bytes of one device, addressed ``base .. base + offset``.

    Addresses handed to users are ``base + offset``; ``base`` lies above the canonical
    user-space range of every 64-bit OS, so a device address can never equal a host one.
    ``capacity`` is the device's physical memory; reserved address ranges may lie beyond it.
    """

    base: int
    capacity: int
    granularity: int

    @abstractmethod
    def view(self, offset: int, nbytes: int) -> np.ndarray:
        """A writable uint8 view of ``nbytes`` at ``offset`` (bounds checked by the caller)."""

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

    def close(self) -> None:  # noqa: B027 - optional for backends with nothing to release
        """Release the arena's memory; views taken earlier must no longer be used."""


class Backend(ABC):
    """Creates arenas; one backend per file (``sim`` here, ``cuda`` later)."""

    name: str

    @abstractmethod
    def create_arena(self, device_id: int, capacity: int) -> DeviceArena:
        """Make the arena of ``device_id`` with ``capacity`` bytes."""
