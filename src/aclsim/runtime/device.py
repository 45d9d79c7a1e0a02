"""Devices: a simulated NPU each, with its memory arena and its contexts."""

from __future__ import annotations

from aclsim.arch import ChipSpec
from aclsim.runtime._state import STATE
from aclsim.runtime.backends.base import Backend
from aclsim.runtime.context import Context
from aclsim.runtime.memory import DeviceMemory
from aclsim.runtime.pool import PoolOptions


class Device:
    """One simulated NPU.  Its arena is made on the first ``set_device``/``create_context``.

    >>> import aclsim
    >>> aclsim.init(chip="tiny"); aclsim.set_device(0)
    >>> aclsim.get_device()
    0
    >>> aclsim.reset_device(0); aclsim.finalize()
    []
    """

    def __init__(self, device_id: int, chip: ChipSpec, memory_bytes: int, backend: Backend,
                 pool_options: PoolOptions | None = None) -> None:
        self.id = device_id
        self.pool_options = pool_options or PoolOptions()
        self.chip = chip
        self.memory_bytes = memory_bytes
        self.backend = backend
        self.memory: DeviceMemory | None = None
        self.refcount = 0  # set_device calls not yet matched by reset_device
        self.default_context: Context | None = None
        self.contexts: list[Context] = []  # explicit contexts
        self.clock_hwm = 0.0  # the latest modeled time any stream of this device reached

    def __repr__(self) -> str:
        return f"<Device npu:{self.id} {self.chip.name}>"

    def ensure_memory(self) -> DeviceMemory:
        if self.memory is None:
            arena = self.backend.create_arena(self.id, self.memory_bytes)
            self.memory = DeviceMemory(self.id, arena, options=self.pool_options)
            history = STATE.memory_history
            if history is not None and self.memory.pool is not None:
                _, stacks, max_entries = history
                self.memory.pool.record_history(True, stacks=stacks, max_entries=max_entries)
        return self.memory

    def all_contexts(self) -> list[Context]:
        head = [self.default_context] if self.default_context is not None else []
        return head + self.contexts

    def close(self) -> None:
        for ctx in self.all_contexts():
            ctx.close()
        self.contexts.clear()
        self.default_context = None
        self.refcount = 0
        if self.memory is not None:
            self.memory.close()
            self.memory = None
