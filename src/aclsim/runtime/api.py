"""The Pythonic runtime API: AscendCL's calls by name, as thin wrappers over the objects.

Every function here mirrors an AscendCL call (``docs/runtime.md`` has the table): it finds
the object the call works on (:mod:`aclsim.runtime.lookup`: the device, the thread's current
context, a live stream or event) and calls its verb (:class:`Device`, :class:`Context`,
:class:`Stream`, :class:`Event`).  Copies and memsets are :mod:`aclsim.runtime.copies`,
callbacks :mod:`aclsim.runtime.callbacks`, pointers :mod:`aclsim.runtime.pointers`; all are
re-exported here.  The pyACL face :mod:`aclsim.acl` is a thin layer over these functions.
"""

from __future__ import annotations

import contextlib
import os
import warnings
from collections.abc import Callable, Iterator, Sequence

from aclsim.errors import (
    InvalidMemoryTypeError,
    InvalidParamError,
    LeakWarning,
    MemoryFreeError,
    RepeatFinalizeError,
    RepeatInitializeError,
    UninitializedError,
)
from aclsim.runtime import lookup
from aclsim.runtime._state import caller_site, check_int, load_config, site_location
from aclsim.runtime.backends import Backend, KernelRun
from aclsim.runtime.callbacks import launch_callback, process_report, subscribe_report, unsubscribe_report
from aclsim.runtime.context import Context
from aclsim.runtime.copies import memcpy, memcpy_async, memset, memset_async
from aclsim.runtime.device import Device
from aclsim.runtime.enums import (
    EVENT_FLAGS,
    CallbackBlockType,
    EventRecordedStatus,
    EventStatus,
    MemAttr,
    MemcpyKind,
    RunMode,
)
from aclsim.runtime.event import Event
from aclsim.runtime.lookup import current_context, device_by_id, live, stream_or_default
from aclsim.runtime.memory import Buffer, is_device_address
from aclsim.runtime.pointers import (
    allocation_at,
    as_ptr,
    bytes_to_ptr,
    device_array,
    device_memory_at,
    numpy_to_ptr,
    ptr_to_bytes,
    ptr_to_numpy,
)
from aclsim.runtime.pool import PoolOptions
from aclsim.runtime.stream import Stream, StreamOptions

__all__ = [
    "CallbackBlockType",
    "EventRecordedStatus",
    "EventStatus",
    "MemAttr",
    "MemcpyKind",
    "RunMode",
    "bytes_to_ptr",
    "create_context",
    "create_event",
    "create_stream",
    "destroy_context",
    "destroy_event",
    "destroy_stream",
    "device",
    "device_array",
    "dvpp_free",
    "dvpp_malloc",
    "event_elapsed_time",
    "finalize",
    "free",
    "free_host",
    "get_context",
    "get_device",
    "get_device_count",
    "get_mem_info",
    "get_run_mode",
    "init",
    "is_initialized",
    "launch_callback",
    "launch_function",
    "launch_kernel",
    "leak_report",
    "malloc",
    "malloc_host",
    "memcpy",
    "memcpy_async",
    "memset",
    "memset_async",
    "numpy_to_ptr",
    "process_report",
    "ptr_to_bytes",
    "ptr_to_numpy",
    "query_event",
    "query_event_status",
    "query_stream",
    "record_event",
    "reset_device",
    "reset_device_force",
    "reset_event",
    "set_context",
    "set_device",
    "stream_wait_event",
    "subscribe_report",
    "synchronize_device",
    "synchronize_event",
    "synchronize_stream",
    "unsubscribe_report",
]


# --- init / finalize ------------------------------------------------------------------

def init(config_path: str | os.PathLike[str] | None = None, *, devices: int | None = None,
         chip: str | None = None, memory: int | str | None = None,
         alloc_conf: str | PoolOptions | None = None, strict: bool | None = None,
         backend: str | Backend | None = None, pool: bool | None = None) -> None:
    """Initialize the runtime (``aclInit``).  Once per process until :func:`finalize`.

    Settings, lowest priority first: defaults (1 device of the 910B preset), the
    environment (``ACLSIM_DEVICES``, ``ACLSIM_CHIP``, ``ACLSIM_MEMORY``,
    ``ACLSIM_ALLOC_CONF``, ``ACLSIM_STRICT``, ``ACLSIM_POOL``), the ``"aclsim"`` object of the JSON file at
    ``config_path``, then the keyword arguments.  ``alloc_conf`` configures the memory pool: a
    ``PYTORCH_NPU_ALLOC_CONF``-style string (``"expandable_segments:False"``) or
    :class:`~aclsim.runtime.pool.PoolOptions` (``docs/memory.md``).  ``strict``
    (``ACLSIM_STRICT``) turns the memory debugger's diagnostics (:func:`diagnostics`) into
    errors: a copy whose kind does not match its pointers is refused (107016).  ``backend``
    (``ACLSIM_BACKEND``): ``"sim"`` (default: kernel launches timed by the core model),
    ``"null"`` (launches recorded and checked but not timed, for fast tests) or a
    :class:`~aclsim.runtime.backends.Backend`.  ``pool`` (``ACLSIM_POOL``, default on):
    off, ``malloc``/``free`` map and unmap device memory directly, without the caching pool
    (:class:`~aclsim.runtime.memory.DirectAllocator`; the memory debugger still checks every
    buffer; ``docs/memory.md``).

    >>> import aclsim
    >>> aclsim.init(chip="tiny", devices=2); aclsim.get_device_count()
    2
    >>> aclsim.finalize()
    []
    """
    state = lookup.state()
    with state.lock:
        if state.initialized:
            raise RepeatInitializeError("init was already called", hint="call init once per process")
        config = load_config(config_path, {"devices": devices, "chip": chip, "memory": memory,
                                           "alloc_conf": alloc_conf, "strict": strict,
                                           "backend": backend, "pool": pool})
        state.devices = [Device(i, config.chip, config.memory_bytes, config.backend, config.pool, state=state,
                                caching=config.caching) for i in range(config.devices)]
        state.config = config
        state.diagnostics.clear()
        state.initialized = True
        state.ever_initialized = True


def is_initialized() -> bool:
    return lookup.state().initialized


def finalize() -> list[str]:
    """Release everything (``aclFinalize``); warn (:class:`LeakWarning`) about what leaked.

    Returns the leak lines (empty when the program cleaned up after itself).
    """
    state = lookup.state()
    with state.lock:
        if not state.initialized:
            if state.ever_initialized:
                raise RepeatFinalizeError("finalize was already called")
            raise UninitializedError("finalize before init", hint="call init() first")
        leaks = leak_report()
        streams = [s for d in state.devices for s in d.all_streams()]
    for stream in streams:  # outside the lock: a queued task may need it to finish
        stream.shutdown(abandon=True)
    with state.lock:
        for dev in state.devices:
            dev.close()
        state.devices = []
        state.handles.clear()
        state.host.clear()
        state.subscriptions.clear()
        state.reports.clear()
        state.initialized = False
        state.config = None
        state.memory_history = None
    state.tls.context = None
    if leaks:
        text = "\n".join(f"  - {line}" for line in leaks)
        # attributed to the user's call of finalize (a Python line, or a C caller), not to a face
        filename, lineno = site_location(caller_site())
        warnings.warn_explicit(LeakWarning(f"finalize found {len(leaks)} leaked resource(s):\n{text}"),
                               LeakWarning, filename, lineno)
    return leaks


def leak_report() -> list[str]:
    """What is still alive now, with where each thing was created: devices still set,
    contexts, streams, events, device memory (size, stream and the line of the malloc),
    host memory and host ranges still registered for a device."""
    state = lookup.state()
    state.require_init()
    lines: list[str] = []
    for dev in state.devices:
        if dev.refcount > 0:
            lines.append(f"npu:{dev.id} is still set ({dev.refcount} set_device call(s) without "
                         f"reset_device); its default context is alive")
        for ctx in dev.contexts:
            lines.append(f"context {ctx!r} created at {ctx.site}")
        for ctx in dev.all_contexts():
            for stream in ctx.streams:
                lines.append(f"stream {stream!r} created at {stream.site}")
        if dev.memory is not None:
            for buf in dev.memory.live_buffers():
                api = "dvpp_malloc" if buf.kind == "dvpp" else "malloc"
                owner = "no stream" if buf.stream is None else repr(buf.stream)
                lines.append(f"{api} {buf!r} on {owner} allocated at {buf.site}")
            for mapping in dev.memory.host_mappings():
                lines.append(f"host_register {mapping!r} registered at {mapping.site}")
    for obj in state.handles.values():
        if isinstance(obj, Event) and obj.alive:
            lines.append(f"event {obj!r} created at {obj.site}")
    for region in state.host.pinned_regions():
        lines.append(f"malloc_host 0x{region.addr:x} {region.nbytes}B allocated at {region.site}")
    return lines


# --- devices ---------------------------------------------------------------------------

def set_device(device_id: int) -> None:
    """Open a device for this thread (``aclrtSetDevice``): reference-counted; makes the
    device's default context (and its default stream) current in the calling thread."""
    device_by_id(device_id).set_current()


def reset_device(device_id: int) -> None:
    """Undo one :func:`set_device` (``aclrtResetDevice``).  At the last one, wait for the
    device's streams and release the default context and stream.

    If that wait fails (a stream that can never drain: :class:`~aclsim.errors.DeadlockError`,
    507046), nothing is released and the device stays set, as before the call.
    """
    device_by_id(device_id).reset()


def reset_device_force(device_id: int) -> None:
    """Release the device whatever the number of :func:`set_device` calls
    (``aclrtResetDeviceForce``).  Like :func:`reset_device`, a failed wait changes nothing."""
    device_by_id(device_id).reset(force=True)


def get_device() -> int:
    """The device of this thread's current context (``aclrtGetDevice``)."""
    return current_context().device.id


def get_device_count() -> int:
    return lookup.state().require_init().devices


def get_run_mode() -> RunMode:
    """Always :attr:`RunMode.HOST`: the program runs on the host, the device is simulated.

    Needs no :func:`init`: AscendCL answers it before ``aclInit`` (Ascend's published memory
    samples ask for the run mode while parsing their options, before initialising)."""
    return RunMode.HOST


def synchronize_device(timeout: float | None = None) -> None:
    """Wait for every stream of the current device; raise the first task failure."""
    current_context().device.synchronize(timeout)


def get_mem_info(attr: int = MemAttr.HBM_MEM) -> tuple[int, int]:
    """``(free, total)`` bytes of the current device's memory of kind ``attr``.

    ``total`` is the device's memory; ``free`` is what one allocation is sure to get on any
    stream: the pool's limit minus its reserved bytes, rounded down to whole pages (or, with
    classic segments, to the largest contiguous range); memory the pool caches for reuse is
    not free (:func:`empty_cache` gives it back).  ``docs/memory.md`` states the rule.  The
    device memory of a preset is HBM or DDR (``ChipSpec.dram_kind``); asking for the other
    kind gives ``(0, 0)``.
    """
    dev = current_context().device
    try:
        kind = MemAttr(attr)
    except ValueError:
        raise InvalidParamError(f"unknown memory attribute {attr!r}",
                                hint="use ACL_DDR_MEM (0), ACL_HBM_MEM (1), ...") from None
    return dev.mem_info(kind)


@contextlib.contextmanager
def device(device_id: int) -> Iterator[Device]:
    """``with aclsim.device(0):`` sets the device for the block, then resets it and
    restores the thread's previous context."""
    state = lookup.state()
    previous = state.current_context
    set_device(device_id)
    try:
        yield state.devices[device_id]
    finally:
        reset_device(device_id)
        state.current_context = previous if previous is not None and previous.alive else None


# --- contexts --------------------------------------------------------------------------

def create_context(device_id: int) -> Context:
    """Create an explicit context and make it current in this thread (``aclrtCreateContext``)."""
    return device_by_id(device_id).create_context()


def destroy_context(ctx: Context) -> None:
    """Destroy an explicit context, after its streams' work (``aclrtDestroyContext``)."""
    live(ctx, Context, "context").close()


def set_context(ctx: Context) -> None:
    """Make ``ctx`` current in the calling thread (``aclrtSetCurrentContext``)."""
    lookup.state().current_context = live(ctx, Context, "context")


def get_context() -> Context:
    return current_context()


# --- streams ---------------------------------------------------------------------------

def create_stream(*, flags: int = 0, priority: int = 0) -> Stream:
    """A new stream in the current context (``aclrtCreateStream[WithConfig]``)."""
    options = StreamOptions(flags=flags, priority=priority)
    return current_context().create_stream(options)


def destroy_stream(stream: Stream) -> None:
    """Destroy a stream once its queued work is done (``aclrtDestroyStream``)."""
    live(stream, Stream, "stream").close()


def synchronize_stream(stream: Stream | None = None, timeout: float | None = None) -> None:
    """Wait for the stream's tasks; raise the first failure among them (with its ACL code).

    ``timeout`` in seconds (None waits for ever): :class:`StreamSyncTimeoutError`.
    """
    stream_or_default(stream, for_submit=False).synchronize(timeout)


def query_stream(stream: Stream | None = None) -> bool:
    """True when all the stream's submitted tasks have finished (``aclrtStreamQuery``)."""
    return stream_or_default(stream, for_submit=False).query()


def stream_wait_event(stream: Stream | None, event: Event) -> None:
    """Make later tasks of ``stream`` wait for the latest record of ``event``."""
    s = stream_or_default(stream)
    s.wait(live(event, Event, "event"))


def launch_kernel(run: KernelRun, stream: Stream | None = None, buffers: Sequence[Buffer] = ()) -> None:
    """Queue a kernel launch on ``stream`` (what ``kernel[block_dim, stream](*args)`` does):
    when the stream reaches it, the device's backend runs it (record -> compiler passes ->
    timing -> report -> launch hooks) and the stream's clock advances by its modeled time.
    ``buffers`` are the device memory the kernel was given (a free waits for the launch)."""
    s = stream_or_default(stream)
    backend = s.device.backend
    s.launch(lambda: backend.launch(run, allocation_at), label=f"kernel {run.name}<<<{run.block_dim}>>>",
             buffers=buffers)


def launch_function(fn: Callable[[], float], *, label: str = "function", stream: Stream | None = None,
                    buffers: Sequence[Buffer] = ()) -> None:
    """Queue ``fn()`` on a stream; ``fn`` does device-side work and returns its modeled
    seconds.  Kernel launches are built on this; the demo uses it as its compute step."""
    if not callable(fn):
        raise InvalidParamError(f"fn must be callable, got {type(fn).__name__}")
    stream_or_default(stream).launch(fn, label=label, buffers=buffers)


# --- events ----------------------------------------------------------------------------

def create_event(flags: int = 0) -> Event:
    """``aclrtCreateEvent`` / ``aclrtCreateEventWithFlag``."""
    state = lookup.state()
    state.require_init()
    flags = check_int("flags", flags)
    if flags & ~EVENT_FLAGS:
        raise InvalidParamError(f"unknown event flags {flags:#x}",
                                hint="combine ACL_EVENT_SYNC, ACL_EVENT_TIME_LINE, ...")
    return Event(flags, caller_site(), state)  # positional: a keyword costs a dict per call


def destroy_event(event: Event) -> None:
    live(event, Event, "event").close()


def record_event(event: Event, stream: Stream | None = None) -> None:
    """Place ``event`` on ``stream``; it completes when the stream reaches it."""
    event = live(event, Event, "event")
    stream_or_default(stream).record(event)


def reset_event(event: Event, stream: Stream | None = None) -> None:
    """Return ``event`` to the not-recorded state once ``stream`` reaches this point."""
    event = live(event, Event, "event")
    stream_or_default(stream).reset(event)


def query_event_status(event: Event) -> EventRecordedStatus:
    """COMPLETE (1) once the latest record was reached; NOT_READY (0) before, or if never recorded."""
    done = live(event, Event, "event").query()
    return EventRecordedStatus.COMPLETE if done else EventRecordedStatus.NOT_READY


def query_event(event: Event) -> EventStatus:
    """The older ``aclrtQueryEvent``: COMPLETE is 0 here (an event never recorded counts as complete)."""
    event = live(event, Event, "event")
    done = event.last_record is None or event.query()
    return EventStatus.COMPLETE if done else EventStatus.NOT_READY


def synchronize_event(event: Event, timeout: float | None = None) -> None:
    """Block until the event's latest record completes (``timeout`` in seconds)."""
    live(event, Event, "event").synchronize(timeout)


def event_elapsed_time(start: Event, end: Event) -> float:
    """Modeled device milliseconds between two completed events (``aclrtEventElapsedTime``)."""
    return live(start, Event, "event").elapsed(live(end, Event, "event"))


# --- memory ----------------------------------------------------------------------------

def malloc(size: int, policy: int = 0, *, stream: Stream | None = None) -> Buffer:
    """Device memory on the current device (``aclrtMalloc``): ``ALIGN_UP(size, 32) + 32``
    bytes reserved, 64 B aligned start, contents undefined.

    The memory comes from the caching pool and belongs to ``stream`` (the current context's
    default stream when ``None``, as for pyACL's ``malloc``): when freed it is reused at once
    by that stream, by other streams only after the work queued before the free is done.

    >>> import aclsim
    >>> aclsim.init(chip="tiny"); aclsim.set_device(0)
    >>> buf = aclsim.malloc(1000); aclsim.free(buf)
    >>> again = aclsim.malloc(1000); again.ptr == buf.ptr  # a cache hit
    True
    >>> aclsim.free(again); aclsim.reset_device(0); aclsim.finalize()
    []
    """
    dev = current_context().device
    st = None if stream is None else live(stream, Stream, "stream")
    return dev.allocate(size, policy, stream=st)


def free(ptr: int | Buffer) -> None:
    """Release device memory from :func:`malloc` (``aclrtFree``); no implicit sync.

    A double free, or freeing an address that is not the start of a live allocation, raises
    :class:`~aclsim.errors.MemoryFreeError` naming the lines that allocated and freed it.
    """
    _free_device(ptr, "device")


def dvpp_malloc(size: int, *, stream: Stream | None = None) -> Buffer:
    """Device memory for media processing (``acldvppMalloc``); free with :func:`dvpp_free`."""
    dev = current_context().device
    st = None if stream is None else live(stream, Stream, "stream")
    return dev.allocate(size, 0, stream=st, kind="dvpp")


def dvpp_free(ptr: int | Buffer) -> None:
    _free_device(ptr, "dvpp")


def _free_device(ptr: int | Buffer, kind: str) -> None:
    lookup.require_init()
    p = as_ptr(ptr, "ptr")
    if not is_device_address(p):
        raise InvalidMemoryTypeError(f"0x{p:x} is host memory", hint="host memory is released with free_host")
    _dev, memory = device_memory_at(p, "ptr")
    memory.free(p, kind, caller_site())


def malloc_host(size: int) -> int:
    """Page-aligned host memory the device can copy from and to (``aclrtMallocHost``)."""
    state = lookup.state()
    state.require_init()
    return state.host.malloc_host(size, caller_site())


def free_host(ptr: int) -> None:
    """Release memory from :func:`malloc_host` (``aclrtFreeHost``).  It goes back to the pinned
    pool, and is handed out again only after the copies queued on it are done."""
    state = lookup.state()
    state.require_init()
    p = as_ptr(ptr, "ptr")
    region = state.host.region_at(p)
    if region is not None:
        for dev in state.devices:
            if dev.memory is None:
                continue
            for mapping in dev.memory.host_mappings():
                if region.addr <= mapping.host_ptr < region.addr + region.nbytes:
                    raise MemoryFreeError(f"host 0x{p:x} is still registered for npu:{dev.id} as "
                                          f"{mapping!r}",
                                          hint="host_unregister it first")
    state.host.free_host(p, caller_site())
