"""The small interface every backend fills in: a byte arena per device."""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np


class DeviceArena(ABC):
    """The bytes of one device, addressed ``base .. base + capacity``.

    Addresses handed to users are ``base + offset``; ``base`` lies above the canonical
    user-space range of every 64-bit OS, so a device address can never equal a host one.
    """

    base: int
    capacity: int

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
