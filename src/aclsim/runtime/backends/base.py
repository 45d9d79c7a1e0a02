"""The small interface every backend fills in: a byte arena per device.

The arena is also the *upstream* of the caching pool (as ``cudaMalloc``/``cuMemMap`` are for
PyTorch's allocator): contiguous ``malloc``/``free``, and ``reserve``/``map``/``unmap`` of
address ranges backed by physical pages of ``granularity`` bytes.  Offsets, not addresses.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from aclsim.runtime.pool import Upstream


class DeviceArena(Upstream):
    """The bytes of one device, addressed ``base .. base + offset``: the pool's
    :class:`~aclsim.runtime.pool.Upstream` (``malloc``/``free``, ``reserve``/``unreserve``,
    ``map``/``unmap``), plus the bytes themselves (:meth:`view`).

    Addresses handed to users are ``base + offset``; ``base`` lies above the canonical
    user-space range of every 64-bit OS, so a device address can never equal a host one.
    ``capacity`` is the device's physical memory; reserved address ranges may lie beyond it.
    """

    base: int

    @abstractmethod
    def view(self, offset: int, nbytes: int) -> np.ndarray:
        """A writable uint8 view of ``nbytes`` at ``offset`` (bounds checked by the caller)."""

    def close(self) -> None:  # noqa: B027 - optional for backends with nothing to release
        """Release the arena's memory; views taken earlier must no longer be used."""


class Backend(ABC):
    """Creates arenas; one backend per file (``sim`` here, ``cuda`` later)."""

    name: str

    @abstractmethod
    def create_arena(self, device_id: int, capacity: int) -> DeviceArena:
        """Make the arena of ``device_id`` with ``capacity`` bytes."""
