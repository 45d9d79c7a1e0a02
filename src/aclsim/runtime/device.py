"""Devices: a simulated NPU each, with its memory arena and its contexts."""

from __future__ import annotations

from aclsim.arch import ChipSpec
from aclsim.errors import ContextNullError, StreamContextError
from aclsim.runtime._state import RuntimeState, caller_site
from aclsim.runtime.backends.base import Backend
from aclsim.runtime.context import Context, wait_streams
from aclsim.runtime.enums import MemAttr
from aclsim.runtime.memory import Buffer, DeviceMemory, DirectAllocator
from aclsim.runtime.pool import PoolOptions
from aclsim.runtime.stream import Stream, StreamOptions


class Device:
    """One simulated NPU.  Its arena is made on the first ``set_device``/``create_context``.

    Its verbs: :meth:`set_current` (``aclrtSetDevice``) and :meth:`reset`
    (``aclrtResetDevice[Force]``), :meth:`create_context`, :meth:`create_stream` (in the
    calling thread's current context, which must be on this device), :meth:`synchronize`,
    :meth:`mem_info` and :meth:`allocate` (``aclrtMalloc``).

    >>> import aclsim
    >>> aclsim.init(chip="tiny")
    >>> dev = aclsim.runtime.device_by_id(0); ctx = dev.set_current()
    >>> s = dev.create_stream(); buf = dev.allocate(1000, stream=s)
    >>> aclsim.free(buf); s.close(); dev.synchronize(); dev.reset(); aclsim.finalize()
    []
    """

    def __init__(self, device_id: int, chip: ChipSpec, memory_bytes: int, backend: Backend,
                 pool_options: PoolOptions | None = None, *, state: RuntimeState,
                 caching: bool = True) -> None:
        self.id = device_id
        self.caching = caching  # False: no caching pool, malloc/free map and unmap directly
        self.state = state  # the runtime that made this device: its lock, handles, thread-locals
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
            direct = None if self.caching else DirectAllocator(arena)
            self.memory = DeviceMemory(self.id, arena, direct, options=self.pool_options)
            history = self.state.memory_history
            if history is not None and self.memory.pool is not None:
                _, stacks, max_entries = history
                self.memory.pool.record_history(True, stacks=stacks, max_entries=max_entries)
        return self.memory

    def all_contexts(self) -> list[Context]:
        head = [self.default_context] if self.default_context is not None else []
        return head + self.contexts

    def all_streams(self) -> list[Stream]:
        return [s for ctx in self.all_contexts() for s in ctx.all_streams()]

    # --- verbs ------------------------------------------------------------------------------
    def set_current(self) -> Context:
        """Open the device for this thread (``aclrtSetDevice``, reference-counted) and make its
        default context current here; returns that context."""
        state = self.state
        with state.lock:
            self.ensure_memory()
            if self.default_context is None:
                self.default_context = Context(self, is_default=True, site=caller_site())
            self.refcount += 1
            state.current_context = self.default_context
            return self.default_context

    def reset(self, *, force: bool = False) -> None:
        """Undo one :meth:`set_current` (all of them with ``force``); the last one waits for
        the device's streams and releases the default context.  If that wait fails (a stream
        that can never drain, 507046), nothing is released and the count stays as it was."""
        state = self.state
        while True:
            with state.lock:
                if self.refcount == 0:
                    return
                context = self.default_context
                if (self.refcount > 1 and not force) or context is None:
                    self.refcount = 0 if force else self.refcount - 1
                    return
                count = self.refcount
                streams = self.all_streams()
            for stream in streams:  # outside the lock, so that queued tasks can finish; may raise
                stream.wait_idle()
            with state.lock:
                # Another thread may have set the device again, or reset it, meanwhile: look again.
                if self.refcount == count and self.default_context is context:
                    self.refcount = 0
                    context.shutdown()
                    self.default_context = None
                    return

    def create_context(self) -> Context:
        """A new explicit context on this device, made current in the calling thread
        (``aclrtCreateContext``)."""
        state = self.state
        with state.lock:
            self.ensure_memory()
            ctx = Context(self, is_default=False, site=caller_site())
            self.contexts.append(ctx)
            state.current_context = ctx
        return ctx

    def current_context(self) -> Context:
        """The calling thread's current context, which must be on this device."""
        ctx = self.state.current_context
        if ctx is None:
            raise ContextNullError("this thread has no current context",
                                   hint="call set_device(id) or set_context(ctx) in this thread first")
        if ctx.device is not self:
            raise StreamContextError(f"this thread's current {ctx!r} is not on npu:{self.id}",
                                     hint=f"set_device({self.id}) or set a context of npu:{self.id} first")
        return ctx

    def create_stream(self, options: StreamOptions | None = None) -> Stream:
        """A new stream in the calling thread's current context on this device."""
        return self.current_context().create_stream(options)

    def synchronize(self, timeout_s: float | None = None) -> None:
        """Wait for every stream of the device; raise the first task failure."""
        wait_streams(self.all_streams(), timeout_s)

    def mem_info(self, attr: MemAttr = MemAttr.HBM_MEM) -> tuple[int, int]:
        """``(free, total)`` bytes of this device's memory of kind ``attr``; the kind the chip
        does not have (HBM or DDR, ``ChipSpec.dram_kind``) reads ``(0, 0)``."""
        if MemAttr(attr).is_ddr != (self.chip.dram_kind == "DDR"):
            return 0, 0
        memory = self.ensure_memory()
        return memory.free_bytes(), memory.capacity

    def allocate(self, size: int, policy: int = 0, *, stream: Stream | None = None,
                 kind: str = "device") -> Buffer:
        """Device memory from the caching pool (``aclrtMalloc``), belonging to ``stream`` (this
        thread's current context's default stream when None)."""
        st = stream if stream is not None else self.current_context().default_stream
        if st.device is not self:
            raise StreamContextError(f"{st!r} is on npu:{st.device.id}, not on npu:{self.id}",
                                     hint="allocate on a stream of the current device")
        return self.ensure_memory().malloc(size, policy, caller_site(), kind=kind, stream=st)

    def close(self) -> None:
        for ctx in self.all_contexts():
            ctx.shutdown()
        self.contexts.clear()
        self.default_context = None
        self.refcount = 0
        if self.memory is not None:
            self.memory.close()
            self.memory = None
