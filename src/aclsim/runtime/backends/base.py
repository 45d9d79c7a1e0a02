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
