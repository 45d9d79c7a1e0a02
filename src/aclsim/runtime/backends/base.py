"""The small interface every backend fills in: a byte arena per device, and the timing of a
kernel launch (the launch pipeline itself is shared: ``pipeline.py``).

The arena is also the *upstream* of the caching pool (as ``cudaMalloc``/``cuMemMap`` are for
PyTorch's allocator): contiguous ``malloc``/``free``, and ``reserve``/``map``/``unmap`` of
address ranges backed by physical pages of ``granularity`` bytes.  Offsets, not addresses.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from aclsim.arch import ChipSpec
from aclsim.isa import Instr
from aclsim.runtime.backends.pipeline import FindMemory, KernelRun, run_launch


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
    """A device's backend: it makes the device's byte arena and runs kernel launches.  One
    backend per file: ``sim`` (the default: a host byte arena and the core model), ``null``
    (the same arena, launches recorded and checked but not timed, for fast tests)."""

    name: str
    times: bool = True  # whether :meth:`time` runs a timing model (else flags are checked statically)

    @abstractmethod
    def create_arena(self, device_id: int, capacity: int) -> DeviceArena:
        """Make the arena of ``device_id`` with ``capacity`` bytes."""

    @abstractmethod
    def time(self, chip: ChipSpec, streams: list[list[Instr]]) -> Any:
        """The timing report of one launch's per-block instruction streams (None: not timed)."""

    def launch(self, run: KernelRun, find_memory: FindMemory) -> float:
        """Run a kernel launch: record -> compiler passes -> :meth:`time` -> report -> launch
        hooks (``backends/pipeline.py``); returns the modeled seconds for the stream's clock."""
        return run_launch(self, run, find_memory)
