"""The Pythonic runtime API: AscendCL semantics, objects, exceptions carrying ACL codes.

Every function here mirrors an AscendCL call (``docs/runtime.md`` has the table); the
pyACL face :mod:`aclsim.acl` is a thin layer over these functions.
"""

from __future__ import annotations

import contextlib
import enum
import math
import os
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from aclsim.errors import (
    ContextNullError,
    DiagnosticWarning,
    InvalidDeviceError,
    InvalidHandleError,
    InvalidMemoryTypeError,
    InvalidParamError,
    LeakWarning,
    MemcpyKindWarning,
    MemoryFreeError,
    RepeatFinalizeError,
    RepeatInitializeError,
    RepeatSubscribeError,
    ReportTimeoutError,
    StreamContextError,
    StreamNotSubscribedError,
    ThreadNotSubscribedError,
    UninitializedError,
)
from aclsim.runtime._state import STATE, caller_site, load_config
from aclsim.runtime.backends.sim import SimBackend
from aclsim.runtime.context import Context
from aclsim.runtime.device import Device
from aclsim.runtime.event import Event, Record
from aclsim.runtime.hostmem import HostRegion
from aclsim.runtime.memdebug import Diagnostic
from aclsim.runtime.memory import Buffer, device_of_address, is_device_address
from aclsim.runtime.pool import PoolOptions
from aclsim.runtime.stream import (
    CallbackTask,
    CopyTask,
    FillTask,
    FunctionTask,
    RecordTask,
    ResetEventTask,
    Stream,
    WaitTask,
)

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


# --- enums (acl_rt.h) ------------------------------------------------------------------


class MemcpyKind(enum.IntEnum):
    """``aclrtMemcpyKind``."""

    HOST_TO_HOST = 0
    HOST_TO_DEVICE = 1
    DEVICE_TO_HOST = 2
    DEVICE_TO_DEVICE = 3
    DEFAULT = 4
    HOST_TO_BUF_TO_DEVICE = 5
    INNER_DEVICE_TO_DEVICE = 6
    INTER_DEVICE_TO_DEVICE = 7


class MemAttr(enum.IntEnum):
    """``aclrtMemAttr`` (which memory ``get_mem_info`` reports)."""

    DDR_MEM = 0
    HBM_MEM = 1
    DDR_MEM_HUGE = 2
    DDR_MEM_NORMAL = 3
    HBM_MEM_HUGE = 4
    HBM_MEM_NORMAL = 5
    DDR_MEM_P2P_HUGE = 6
    DDR_MEM_P2P_NORMAL = 7
    HBM_MEM_P2P_HUGE = 8
    HBM_MEM_P2P_NORMAL = 9
    HBM_MEM_HUGE1G = 10
    HBM_MEM_P2P_HUGE1G = 11


class RunMode(enum.IntEnum):
    """``aclrtRunMode``: aclsim always runs the host program on the host."""

    DEVICE = 0
    HOST = 1


class EventRecordedStatus(enum.IntEnum):
    """``aclrtEventRecordedStatus``: note NOT_READY is 0 here, unlike ``aclrtEventStatus``."""

    NOT_READY = 0
    COMPLETE = 1


class EventStatus(enum.IntEnum):
    """``aclrtEventStatus`` (the older query API): COMPLETE is 0."""

    COMPLETE = 0
    NOT_READY = 1


class CallbackBlockType(enum.IntEnum):
    NO_BLOCK = 0
    BLOCK = 1


EVENT_FLAGS = 0x1 | 0x2 | 0x8 | 0x10 | 0x20 | 0x40  # ACL_EVENT_SYNC ... ACL_EVENT_IPC
STREAM_FLAGS = 0x1 | 0x2 | 0x4 | 0x8 | 0x10 | 0x20  # ACL_STREAM_FAST_LAUNCH ... DEVICE_USE_ONLY
_DDR_ATTRS = {MemAttr.DDR_MEM, MemAttr.DDR_MEM_HUGE, MemAttr.DDR_MEM_NORMAL, MemAttr.DDR_MEM_P2P_HUGE,
              MemAttr.DDR_MEM_P2P_NORMAL}

Pointer = int | Buffer | np.ndarray | bytes | bytearray


# --- helpers ---------------------------------------------------------------------------

def _check_int(name: str, value: object, *, minimum: int = 0) -> int:
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        raise InvalidParamError(f"{name} must be an int, got {type(value).__name__}")
    if value < minimum:
        raise InvalidParamError(f"{name} must be >= {minimum}, got {value}")
    return int(value)


def _device(device_id: object) -> Device:
    config = STATE.require_init()
    if not isinstance(device_id, (int, np.integer)) or isinstance(device_id, bool):
        raise InvalidParamError(f"device id must be an int, got {type(device_id).__name__}")
    if not 0 <= device_id < config.devices:
        raise InvalidDeviceError(f"device id {device_id} is out of range: {config.devices} device(s), "
                                 f"ids 0..{config.devices - 1}",
                                 hint="set ACLSIM_DEVICES or the init config for more devices")
    return STATE.devices[int(device_id)]


def _current_context() -> Context:
    STATE.require_init()
    ctx = STATE.current_context
    if ctx is None:
        raise ContextNullError("this thread has no current context",
                               hint="call set_device(id) or set_context(ctx) in this thread first")
    return ctx


def _live(obj: Any, cls: type, what: str) -> Any:
    STATE.require_init()
    if not isinstance(obj, cls):
        raise InvalidParamError(f"expected a {what}, got {type(obj).__name__}")
    if not getattr(obj, "alive", False):
        raise InvalidHandleError(f"{obj!r} was destroyed", hint=f"create a new {what}")
    return obj


def _stream(stream: Stream | None, *, for_submit: bool = True) -> Stream:
    """The stream a call works on: ``None`` is the current context's default stream."""
    if stream is None:
        return _current_context().default_stream
    stream = _live(stream, Stream, "stream")
    if for_submit:
        ctx = _current_context()
        if stream.context is not ctx:
            raise StreamContextError(f"{stream!r} belongs to {stream.context!r}, not to this thread's "
                                     f"current {ctx!r}", hint="set_context(stream's context) first")
    return stream


def _as_ptr(ptr: Pointer, what: str) -> int:
    if isinstance(ptr, Buffer):
        return ptr.ptr
    if isinstance(ptr, np.ndarray):
        return STATE.host.register_array(ptr, caller_site())
    if isinstance(ptr, (bytes, bytearray)):
        return STATE.host.register_bytes(ptr, caller_site())
    if isinstance(ptr, (int, np.integer)) and not isinstance(ptr, bool):
        if ptr <= 0:
            raise InvalidParamError(f"{what} is a null pointer" if ptr == 0 else f"{what} {ptr} is negative")
        return int(ptr)
    raise InvalidParamError(f"{what} must be a pointer (int), a Buffer or a numpy array, got "
                            f"{type(ptr).__name__}")


class _Located:
    __slots__ = ("on_device", "device", "view", "keep", "buffer", "region")

    def __init__(self, on_device: bool, device: Device | None, view: np.ndarray, keep: object,
                 buffer: Buffer | None, region: HostRegion | None = None) -> None:
        self.on_device, self.device, self.view, self.keep, self.buffer = on_device, device, view, keep, buffer
        self.region = region


def _locate(ptr: int, nbytes: int, what: str) -> _Located:
    if is_device_address(ptr):
        did = device_of_address(ptr)
        device = STATE.devices[did] if did < len(STATE.devices) else None
        if device is None or device.memory is None:
            raise InvalidMemoryTypeError(f"{what} 0x{ptr:x} is not memory of an open device",
                                         hint="use pointers from malloc on a device you set")
        held, view = device.memory.locate(ptr, nbytes)
        buf = held if isinstance(held, Buffer) else None
        return _Located(True, device, view, held, buf)
    region, hview, owner = STATE.host.locate(ptr, nbytes)
    return _Located(False, None, hview, (region, owner), None, region)


_KIND_SIDES = {  # the kinds aclrtMemcpy[Async] takes -> (src on device, dst on device); None = either
    MemcpyKind.HOST_TO_HOST: (False, False),
    MemcpyKind.HOST_TO_DEVICE: (False, True),
    MemcpyKind.DEVICE_TO_HOST: (True, False),
    MemcpyKind.DEVICE_TO_DEVICE: (True, True),
    MemcpyKind.DEFAULT: None,
    MemcpyKind.HOST_TO_BUF_TO_DEVICE: (False, True),
}
_SIDE_NAMES = {(False, False): "host to host", (False, True): "host to device",
               (True, False): "device to host", (True, True): "device to device"}


def _copy_kind(kind: object) -> MemcpyKind:
    """The kind of ``aclrtMemcpy[Async]``: 0-5.  The open CANN runtime translates exactly these
    (INNER/INTER_DEVICE_TO_DEVICE belong to other copy calls) and refuses the rest (100000)."""
    if isinstance(kind, (int, np.integer)) and not isinstance(kind, bool):
        with contextlib.suppress(ValueError):
            member = MemcpyKind(int(kind))
            if member in _KIND_SIDES:
                return member
    raise InvalidParamError(f"memcpy kind {kind!r} is not one aclrtMemcpy takes",
                            hint="pass ACL_MEMCPY_HOST_TO_HOST (0), HOST_TO_DEVICE (1), DEVICE_TO_HOST (2), "
                            "DEVICE_TO_DEVICE (3), DEFAULT (4) or HOST_TO_BUF_TO_DEVICE (5); the direction "
                            "comes from the pointers")


def _check_kind(kind: MemcpyKind, sides: tuple[bool, bool], sptr: int, dptr: int) -> None:
    """AscendCL's kind is reserved: the pointers decide the direction.  A kind that says
    otherwise is reported as a diagnostic (an error in strict mode, 107016)."""
    expected = _KIND_SIDES[kind]
    if expected is None or expected == sides:
        return
    message = (f"memcpy kind {kind.name} does not match the pointers: src 0x{sptr:x} is "
               f"{_side(sides[0])} memory and dst 0x{dptr:x} is {_side(sides[1])} memory, so the copy "
               f"runs {_SIDE_NAMES[sides]}")
    hint = "pass the kind that matches the pointers, or ACL_MEMCPY_DEFAULT"
    if STATE.require_init().strict:
        raise InvalidMemoryTypeError(f"{message} (refused in strict mode)", hint=hint)
    report_diagnostic("memcpy_kind", f"{message}; {hint}", MemcpyKindWarning)


_warning_registry: dict[Any, Any] = {}


def report_diagnostic(kind: str, message: str, category: type[Warning] = DiagnosticWarning) -> Diagnostic:
    """Record a legal but suspicious use with the caller's line (:func:`aclsim.diagnostics`)
    and tell the user: a warning of ``category`` attributed to that line, or, inside a pyACL
    call (which never raises, whatever the warning filters say), the face's log."""
    site = caller_site()
    diag = Diagnostic(kind, message, site)
    STATE.diagnostics.append(diag)
    sink = getattr(STATE.tls, "diagnostic_sink", None)
    if sink is not None:
        sink(diag)
        return diag
    filename, _, line = site.rpartition(":")
    warnings.warn_explicit(message, category, filename or site, int(line) if line.isdigit() else 0,
                           registry=_warning_registry)
    return diag


def _side(on_device: bool) -> str:
    return "device" if on_device else "host"


def _plan_copy(dst: Pointer, dest_max: int, src: Pointer, count: int, kind: int) -> tuple[
        _Located, _Located, float, str]:
    STATE.require_init()
    dest_max = _check_int("dest_max", dest_max)
    count = _check_int("count", count)
    mkind = _copy_kind(kind)
    if count > dest_max:
        raise InvalidParamError(f"count {count} B is larger than dest_max {dest_max} B",
                                hint="copy at most dest_max bytes, or pass the destination's real size")
    dptr, sptr = _as_ptr(dst, "dst"), _as_ptr(src, "src")
    d, s = _locate(dptr, count, "dst"), _locate(sptr, count, "src")
    _check_kind(mkind, (s.on_device, d.on_device), sptr, dptr)
    dev = d.device or s.device
    chip = (dev or _current_device_or_first()).chip
    if s.on_device and d.on_device:
        seconds, label = chip.device_copy_seconds(count), "D2D"
    elif s.on_device or d.on_device:
        seconds, label = chip.host_copy_seconds(count), "H2D" if d.on_device else "D2H"
    else:
        seconds, label = chip.host_copy_seconds(count), "H2H"
    return d, s, seconds, label


def _nothing_to_copy(max_count: object, count: object, what: str) -> bool:
    """AscendCL's copies and memsets of 0 bytes succeed at once without looking at their
    pointers, kind or stream (the open runtime returns before any check)."""
    STATE.require_init()
    _check_int(what, max_count)
    return _check_int("count", count) == 0


def _current_device_or_first() -> Device:
    ctx = STATE.current_context
    return ctx.device if ctx is not None else STATE.devices[0]


def _buffers(*locs: _Located) -> tuple[Buffer, ...]:
    return tuple(loc.buffer for loc in locs if loc.buffer is not None)


def _regions(*locs: _Located) -> tuple[HostRegion, ...]:
    return tuple(loc.region for loc in locs if loc.region is not None and loc.region.kind == "pinned")


# --- init / finalize ------------------------------------------------------------------

def init(config_path: str | os.PathLike[str] | None = None, *, devices: int | None = None,
         chip: str | None = None, memory: int | str | None = None,
         alloc_conf: str | PoolOptions | None = None, strict: bool | None = None) -> None:
    """Initialize the runtime (``aclInit``).  Once per process until :func:`finalize`.

    Settings, lowest priority first: defaults (1 device of the 910B preset), the
    environment (``ACLSIM_DEVICES``, ``ACLSIM_CHIP``, ``ACLSIM_MEMORY``,
    ``ACLSIM_ALLOC_CONF``, ``ACLSIM_STRICT``), the ``"aclsim"`` object of the JSON file at
    ``config_path``, then the keyword arguments.  ``alloc_conf`` configures the memory pool: a
    ``PYTORCH_NPU_ALLOC_CONF``-style string (``"expandable_segments:False"``) or
    :class:`~aclsim.runtime.pool.PoolOptions` (``docs/memory.md``).  ``strict``
    (``ACLSIM_STRICT``) turns the memory debugger's diagnostics (:func:`diagnostics`) into
    errors: a copy whose kind does not match its pointers is refused (107016).

    >>> import aclsim
    >>> aclsim.init(chip="tiny", devices=2); aclsim.get_device_count()
    2
    >>> aclsim.finalize()
    []
    """
    with STATE.lock:
        if STATE.initialized:
            raise RepeatInitializeError("init was already called", hint="call init once per process")
        config = load_config(config_path, {"devices": devices, "chip": chip, "memory": memory,
                                           "alloc_conf": alloc_conf, "strict": strict})
        backend = SimBackend()
        STATE.devices = [Device(i, config.chip, config.memory_bytes, backend, config.pool)
                         for i in range(config.devices)]
        STATE.config = config
        STATE.diagnostics.clear()
        STATE.initialized = True
        STATE.ever_initialized = True


def is_initialized() -> bool:
    return STATE.initialized


def finalize() -> list[str]:
    """Release everything (``aclFinalize``); warn (:class:`LeakWarning`) about what leaked.

    Returns the leak lines (empty when the program cleaned up after itself).
    """
    with STATE.lock:
        if not STATE.initialized:
            if STATE.ever_initialized:
                raise RepeatFinalizeError("finalize was already called")
            raise UninitializedError("finalize before init", hint="call init() first")
        leaks = leak_report()
        streams = [s for d in STATE.devices for c in d.all_contexts() for s in c.all_streams()]
    for stream in streams:  # outside the lock: a queued task may need it to finish
        stream.close(abandon=True)
    with STATE.lock:
        for device in STATE.devices:
            device.close()
        STATE.devices = []
        STATE.handles.clear()
        STATE.host.clear()
        STATE.subscriptions.clear()
        STATE.reports.clear()
        STATE.initialized = False
        STATE.config = None
        STATE.memory_history = None
    STATE.tls.context = None
    if leaks:
        text = "\n".join(f"  - {line}" for line in leaks)
        warnings.warn(LeakWarning(f"finalize found {len(leaks)} leaked resource(s):\n{text}"), stacklevel=2)
    return leaks


def _stream_name(stream: Stream | None) -> str:
    if stream is None:
        return "no stream"
    return f"{stream!r}"


def leak_report() -> list[str]:
    """What is still alive now, with where each thing was created: devices still set,
    contexts, streams, events, device memory (size, stream and the line of the malloc),
    host memory and host ranges still registered for a device."""
    STATE.require_init()
    lines: list[str] = []
    for device in STATE.devices:
        if device.refcount > 0:
            lines.append(f"npu:{device.id} is still set ({device.refcount} set_device call(s) without "
                         f"reset_device); its default context is alive")
        for ctx in device.contexts:
            lines.append(f"context {ctx!r} created at {ctx.site}")
        for ctx in device.all_contexts():
            for stream in ctx.streams:
                lines.append(f"stream {stream!r} created at {stream.site}")
        if device.memory is not None:
            for buf in device.memory.live_buffers():
                api = "dvpp_malloc" if buf.kind == "dvpp" else "malloc"
                lines.append(f"{api} {buf!r} on {_stream_name(buf.stream)} allocated at {buf.site}")
            for mapping in device.memory.host_mappings():
                lines.append(f"host_register {mapping!r} registered at {mapping.site}")
    for obj in list(STATE.handles.values()):
        if isinstance(obj, Event) and obj.alive:
            lines.append(f"event {obj!r} created at {obj.site}")
    for region in STATE.host.pinned_regions():
        lines.append(f"malloc_host 0x{region.addr:x} {region.nbytes}B allocated at {region.site}")
    return lines


# --- devices ---------------------------------------------------------------------------

def set_device(device_id: int) -> None:
    """Open a device for this thread (``aclrtSetDevice``): reference-counted; makes the
    device's default context (and its default stream) current in the calling thread."""
    with STATE.lock:
        device = _device(device_id)
        device.ensure_memory()
        if device.default_context is None:
            device.default_context = Context(device, is_default=True, site=caller_site())
        device.refcount += 1
        STATE.current_context = device.default_context


def reset_device(device_id: int) -> None:
    """Undo one :func:`set_device` (``aclrtResetDevice``).  At the last one, wait for the
    device's streams and release the default context and stream.

    If that wait fails (a stream that can never drain: :class:`~aclsim.errors.DeadlockError`,
    507046), nothing is released and the device stays set, as before the call.
    """
    _reset(device_id, force=False)


def reset_device_force(device_id: int) -> None:
    """Release the device whatever the number of :func:`set_device` calls
    (``aclrtResetDeviceForce``).  Like :func:`reset_device`, a failed wait changes nothing."""
    _reset(device_id, force=True)


def _reset(device_id: int, *, force: bool) -> None:
    while True:
        with STATE.lock:
            device = _device(device_id)
            if device.refcount == 0:
                return
            context = device.default_context
            if (device.refcount > 1 and not force) or context is None:
                device.refcount = 0 if force else device.refcount - 1
                return
            count = device.refcount
            streams = [s for ctx in device.all_contexts() for s in ctx.all_streams()]
        for stream in streams:  # outside the lock, so that queued tasks can finish; may raise
            stream.wait_idle()
        with STATE.lock:
            # Another thread may have set the device again, or reset it, meanwhile: then look again.
            if device.refcount == count and device.default_context is context:
                device.refcount = 0
                context.close()
                device.default_context = None
                return


def get_device() -> int:
    """The device of this thread's current context (``aclrtGetDevice``)."""
    return _current_context().device.id


def get_device_count() -> int:
    return STATE.require_init().devices


def get_run_mode() -> RunMode:
    """Always :attr:`RunMode.HOST`: the program runs on the host, the device is simulated."""
    STATE.require_init()
    return RunMode.HOST


def synchronize_device(timeout: float | None = None) -> None:
    """Wait for every stream of the current device; raise the first task failure."""
    device = _current_context().device
    streams = [s for ctx in device.all_contexts() for s in ctx.all_streams()]
    deadline = None if timeout is None else time.monotonic() + timeout
    for stream in streams:
        remaining = None if deadline is None else max(deadline - time.monotonic(), 0.0)
        stream.wait_idle(remaining)
    errors = [e for e in (s.take_error() for s in streams) if e is not None]
    if errors:
        raise errors[0]


def get_mem_info(attr: int = MemAttr.HBM_MEM) -> tuple[int, int]:
    """``(free, total)`` bytes of the current device's memory of kind ``attr``.

    ``total`` is the device's memory; ``free`` is what one allocation is sure to get on any
    stream: the pool's limit minus its reserved bytes, rounded down to whole pages (or, with
    classic segments, to the largest contiguous range); memory the pool caches for reuse is
    not free (:func:`empty_cache` gives it back).  ``docs/memory.md`` states the rule.  The
    device memory of a preset is HBM or DDR (``ChipSpec.dram_kind``); asking for the other
    kind gives ``(0, 0)``.
    """
    device = _current_context().device
    try:
        attr = MemAttr(attr)
    except ValueError:
        raise InvalidParamError(f"unknown memory attribute {attr!r}",
                                hint="use ACL_DDR_MEM (0), ACL_HBM_MEM (1), ...") from None
    is_ddr = attr in _DDR_ATTRS
    if is_ddr != (device.chip.dram_kind == "DDR"):
        return 0, 0
    memory = device.ensure_memory()
    return memory.free_bytes(), memory.capacity


@contextlib.contextmanager
def device(device_id: int) -> Iterator[Device]:
    """``with aclsim.device(0):`` sets the device for the block, then resets it and
    restores the thread's previous context."""
    previous = STATE.current_context
    set_device(device_id)
    try:
        yield STATE.devices[device_id]
    finally:
        reset_device(device_id)
        STATE.current_context = previous if previous is not None and previous.alive else None


# --- contexts --------------------------------------------------------------------------

def create_context(device_id: int) -> Context:
    """Create an explicit context and make it current in this thread (``aclrtCreateContext``)."""
    with STATE.lock:
        device = _device(device_id)
        device.ensure_memory()
        ctx = Context(device, is_default=False, site=caller_site())
        device.contexts.append(ctx)
        STATE.current_context = ctx
    return ctx


def destroy_context(ctx: Context) -> None:
    """Destroy an explicit context, after its streams' work (``aclrtDestroyContext``)."""
    ctx = _live(ctx, Context, "context")
    if ctx.is_default:
        raise InvalidParamError(f"{ctx!r} is a device's default context",
                                hint="default contexts go with reset_device")
    for stream in ctx.all_streams():  # outside the lock, so that queued tasks can finish
        stream.wait_idle()
    with STATE.lock:
        if not ctx.alive:
            raise InvalidHandleError(f"{ctx!r} was destroyed by another thread meanwhile")
        ctx.close()
        ctx.device.contexts.remove(ctx)


def set_context(ctx: Context) -> None:
    """Make ``ctx`` current in the calling thread (``aclrtSetCurrentContext``)."""
    live: Context = _live(ctx, Context, "context")
    STATE.current_context = live


def get_context() -> Context:
    return _current_context()


# --- streams ---------------------------------------------------------------------------

def create_stream(*, flags: int = 0, priority: int = 0) -> Stream:
    """A new stream in the current context (``aclrtCreateStream[WithConfig]``)."""
    flags = _check_int("flags", flags)
    if flags & ~STREAM_FLAGS:
        raise InvalidParamError(f"unknown stream flags {flags:#x}")
    priority = _check_int("priority", priority)
    with STATE.lock:
        ctx = _current_context()
        stream = Stream(ctx, is_default=False, site=caller_site(), flags=flags, priority=priority)
        ctx.streams.append(stream)
    return stream


def destroy_stream(stream: Stream) -> None:
    """Destroy a stream once its queued work is done (``aclrtDestroyStream``)."""
    stream = _live(stream, Stream, "stream")
    if stream.is_default:
        raise InvalidParamError(f"{stream!r} is a default stream", hint="default streams cannot be destroyed")
    stream.wait_idle()
    with STATE.lock:
        stream.close()
        if stream in stream.context.streams:
            stream.context.streams.remove(stream)


def synchronize_stream(stream: Stream | None = None, timeout: float | None = None) -> None:
    """Wait for the stream's tasks; raise the first failure among them (with its ACL code).

    ``timeout`` in seconds (None waits for ever): :class:`StreamSyncTimeoutError`.
    """
    _stream(stream, for_submit=False).synchronize(timeout)


def query_stream(stream: Stream | None = None) -> bool:
    """True when all the stream's submitted tasks have finished (``aclrtStreamQuery``)."""
    return _stream(stream, for_submit=False).query()


def stream_wait_event(stream: Stream | None, event: Event) -> None:
    """Make later tasks of ``stream`` wait for the latest record of ``event``."""
    s = _stream(stream)
    event = _live(event, Event, "event")
    record = event.last_record
    if record is None:
        return  # never recorded: nothing to wait for
    s.submit(WaitTask(f"stream_wait_event({event!r})", caller_site(), record))


# --- events ----------------------------------------------------------------------------

def create_event(flags: int = 0) -> Event:
    """``aclrtCreateEvent`` / ``aclrtCreateEventWithFlag``."""
    STATE.require_init()
    flags = _check_int("flags", flags)
    if flags & ~EVENT_FLAGS:
        raise InvalidParamError(f"unknown event flags {flags:#x}",
                                hint="combine ACL_EVENT_SYNC, ACL_EVENT_TIME_LINE, ...")
    return Event(flags, caller_site())


def destroy_event(event: Event) -> None:
    event = _live(event, Event, "event")
    event.alive = False
    STATE.handles.pop(event.handle, None)


def record_event(event: Event, stream: Stream | None = None) -> None:
    """Place ``event`` on ``stream``; it completes when the stream reaches it."""
    event = _live(event, Event, "event")
    s = _stream(stream)
    record = Record(s)
    s.submit(RecordTask(f"record_event({event!r})", caller_site(), record))
    event.last_record = record


def reset_event(event: Event, stream: Stream | None = None) -> None:
    """Return ``event`` to the not-recorded state once ``stream`` reaches this point."""
    event = _live(event, Event, "event")
    s = _stream(stream)
    s.submit(ResetEventTask(f"reset_event({event!r})", caller_site(), event))


def query_event_status(event: Event) -> EventRecordedStatus:
    """COMPLETE (1) once the latest record was reached; NOT_READY (0) before, or if never recorded."""
    event = _live(event, Event, "event")
    return EventRecordedStatus.COMPLETE if event.is_complete() else EventRecordedStatus.NOT_READY


def query_event(event: Event) -> EventStatus:
    """The older ``aclrtQueryEvent``: COMPLETE is 0 here (an event never recorded counts as complete)."""
    event = _live(event, Event, "event")
    done = event.last_record is None or event.is_complete()
    return EventStatus.COMPLETE if done else EventStatus.NOT_READY


def synchronize_event(event: Event, timeout: float | None = None) -> None:
    """Block until the event's latest record completes (``timeout`` in seconds)."""
    _live(event, Event, "event").synchronize(timeout)


def event_elapsed_time(start: Event, end: Event) -> float:
    """Modeled device milliseconds between two completed events (``aclrtEventElapsedTime``)."""
    start, end = _live(start, Event, "event"), _live(end, Event, "event")
    return (end.timestamp() - start.timestamp()) * 1e3


# --- callbacks -------------------------------------------------------------------------

def _live_thread(thread_id: int) -> threading.Thread | None:
    for thread in threading.enumerate():
        if thread.ident == thread_id:
            return thread
    return None


def subscribe_report(thread_id: int, stream: Stream | None = None) -> None:
    """Route the stream's callbacks to the thread ``thread_id`` (``aclrtSubscribeReport``).

    The subscriber is remembered as the thread itself, not as its id, which the OS reuses
    once the thread has exited: a callback for a subscriber that has exited is reported as a
    deadlock (507046), never handed to a new thread that happens to have the same id.
    """
    s = _stream(stream, for_submit=False)
    thread_id = _check_int("thread_id", thread_id, minimum=1)
    thread = _live_thread(thread_id)
    if thread is None:
        raise InvalidParamError(f"no live thread has id {thread_id}",
                                hint="pass the id from acl.util.start_thread or threading.get_ident()")
    with STATE.lock:
        if s in STATE.subscriptions:
            owner = STATE.subscriptions[s].ident
            raise RepeatSubscribeError(f"{s!r} is already subscribed by thread {owner}")
        STATE.subscriptions[s] = thread


def unsubscribe_report(thread_id: int, stream: Stream | None = None) -> None:
    s = _stream(stream, for_submit=False)
    with STATE.lock:
        owner = STATE.subscriptions.get(s)
        if owner is None:
            raise StreamNotSubscribedError(f"{s!r} has no subscribed thread")
        if owner.ident != thread_id:
            raise ThreadNotSubscribedError(f"{s!r} is subscribed by thread {owner.ident}, not {thread_id}")
        del STATE.subscriptions[s]


def launch_callback(fn: Callable[[Any], Any], user_data: Any, block_type: int,
                    stream: Stream | None = None) -> None:
    """Queue ``fn(user_data)`` on the stream, run by its subscribed thread in
    :func:`process_report`.  ``block_type`` 1 holds the stream until ``fn`` returns."""
    if not callable(fn):
        raise InvalidParamError(f"callback must be callable, got {type(fn).__name__}")
    try:
        block = CallbackBlockType(block_type)
    except ValueError:
        raise InvalidParamError(f"block_type must be 0 (no block) or 1 (block), got {block_type!r}") from None
    s = _stream(stream)
    thread = STATE.subscriptions.get(s)
    if thread is None:
        raise StreamNotSubscribedError(f"no thread is subscribed to {s!r}",
                                       hint="call subscribe_report(thread_id, stream) first")
    name = getattr(fn, "__name__", "callback")
    s.submit(CallbackTask(f"launch_callback({name})", caller_site(), fn, user_data,
                          block == CallbackBlockType.BLOCK, thread))


def process_report(timeout: float | None = None) -> int:
    """Run the callbacks waiting for this thread; wait up to ``timeout`` seconds (None = for
    ever) for the first.  Returns how many ran; :class:`ReportTimeoutError` if none came."""
    STATE.require_init()
    me = threading.current_thread()
    tid = me.ident
    deadline = None if timeout is None else time.monotonic() + max(timeout, 0.0)
    with STATE.report_cond:
        if me not in STATE.subscriptions.values() and not STATE.reports.get(me):
            raise ThreadNotSubscribedError(f"thread {tid} is not subscribed to any stream",
                                           hint="call subscribe_report(thread_id, stream) first")
        while not STATE.reports.get(me):
            remaining = 0.05 if deadline is None else deadline - time.monotonic()
            if remaining <= 0:
                raise ReportTimeoutError(f"no callback for thread {tid} within {timeout * 1000:.0f} ms"
                                         if timeout is not None else "no callback")
            STATE.report_cond.wait(min(remaining, 0.05))
            if not STATE.initialized:
                raise UninitializedError("finalize ran while process_report was waiting")
        batch = STATE.reports.pop(me)
        for report in batch:
            report.picked = True
    for report in batch:
        try:
            report.fn(report.user_data)
        except BaseException as exc:  # noqa: BLE001 - reported at the stream's synchronize
            report.error = exc
            if not report.blocking:
                report.stream.add_error(report.task, exc)
        finally:
            report.done.set()
    return len(batch)


# --- memory ----------------------------------------------------------------------------

def _alloc_stream(stream: Stream | None, device: Device) -> Stream:
    if stream is None:
        return _current_context().default_stream
    st: Stream = _live(stream, Stream, "stream")
    if st.device is not device:
        raise StreamContextError(f"{st!r} is on npu:{st.device.id}, not on the current npu:{device.id}",
                                 hint="allocate on a stream of the current device")
    return st


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
    device = _current_context().device
    st = _alloc_stream(stream, device)
    return device.ensure_memory().malloc(size, policy, caller_site(), stream=st)


def free(ptr: int | Buffer) -> None:
    """Release device memory from :func:`malloc` (``aclrtFree``); no implicit sync.

    A double free, or freeing an address that is not the start of a live allocation, raises
    :class:`~aclsim.errors.MemoryFreeError` naming the lines that allocated and freed it.
    """
    _free_device(ptr, "device")


def dvpp_malloc(size: int, *, stream: Stream | None = None) -> Buffer:
    """Device memory for media processing (``acldvppMalloc``); free with :func:`dvpp_free`."""
    device = _current_context().device
    st = _alloc_stream(stream, device)
    return device.ensure_memory().malloc(size, 0, caller_site(), kind="dvpp", stream=st)


def dvpp_free(ptr: int | Buffer) -> None:
    _free_device(ptr, "dvpp")


def _free_device(ptr: int | Buffer, kind: str) -> None:
    STATE.require_init()
    p = _as_ptr(ptr, "ptr")
    if not is_device_address(p):
        raise InvalidMemoryTypeError(f"0x{p:x} is host memory", hint="host memory is released with free_host")
    did = device_of_address(p)
    if did >= len(STATE.devices) or STATE.devices[did].memory is None:
        raise InvalidMemoryTypeError(f"0x{p:x} is not memory of an open device")
    STATE.devices[did].memory.free(p, kind, caller_site())  # type: ignore[union-attr]


def malloc_host(size: int) -> int:
    """Page-aligned host memory the device can copy from and to (``aclrtMallocHost``)."""
    STATE.require_init()
    return STATE.host.malloc_host(size, caller_site())


def free_host(ptr: int) -> None:
    """Release memory from :func:`malloc_host` (``aclrtFreeHost``).  It goes back to the pinned
    pool, and is handed out again only after the copies queued on it are done."""
    STATE.require_init()
    p = _as_ptr(ptr, "ptr")
    region = STATE.host.region_at(p)
    if region is not None:
        for device in STATE.devices:
            if device.memory is None:
                continue
            for mapping in device.memory.host_mappings():
                if region.addr <= mapping.host_ptr < region.addr + region.nbytes:
                    raise MemoryFreeError(f"host 0x{p:x} is still registered for npu:{device.id} as "
                                          f"{mapping!r}",
                                          hint="host_unregister it first")
    STATE.host.free_host(p, caller_site())


def memcpy(dst: Pointer, dest_max: int, src: Pointer, count: int, kind: int) -> None:
    """Copy now, on the calling thread (``aclrtMemcpy``): no stream or device sync.

    The direction is where the pointers are; ``kind`` is checked against them as a
    diagnostic only (:func:`diagnostics`; refused with 107016 in strict mode).  A copy of 0
    bytes does nothing and succeeds.
    """
    if _nothing_to_copy(dest_max, count, "dest_max"):
        return
    d, s, _, _ = _plan_copy(dst, dest_max, src, count, kind)
    np.copyto(d.view, s.view)


def memcpy_async(dst: Pointer, dest_max: int, src: Pointer, count: int, kind: int,
                 stream: Stream | None = None) -> None:
    """Queue a copy on ``stream`` (``aclrtMemcpyAsync``); it advances the stream clock by the
    modeled transfer time (host link for H2D/D2H, device memory for D2D).  A copy of 0 bytes
    queues nothing."""
    if _nothing_to_copy(dest_max, count, "dest_max"):
        return
    d, s, seconds, label = _plan_copy(dst, dest_max, src, count, kind)
    st = _stream(stream)
    st.submit(CopyTask(f"memcpy_async({label} {count} B)", caller_site(), d.view, s.view, seconds,
                       _buffers(d, s), (d.keep, s.keep), _regions(d, s)))


def _plan_fill(ptr: Pointer, max_count: int, value: int, count: int) -> tuple[_Located, int, float]:
    STATE.require_init()
    max_count = _check_int("max_count", max_count)
    count = _check_int("count", count)
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        raise InvalidParamError(f"value must be an int, got {type(value).__name__}")
    if count > max_count:
        raise InvalidParamError(f"count {count} B is larger than max_count {max_count} B")
    p = _as_ptr(ptr, "ptr")
    loc = _locate(p, count, "ptr")
    chip = (loc.device or _current_device_or_first()).chip
    return loc, int(value) & 0xFF, chip.device_fill_seconds(count)


def memset(ptr: Pointer, max_count: int, value: int, count: int) -> None:
    """Set ``count`` bytes to ``value & 0xFF`` now (``aclrtMemset``); 0 bytes do nothing."""
    if _nothing_to_copy(max_count, count, "max_count"):
        return
    loc, byte, _ = _plan_fill(ptr, max_count, value, count)
    loc.view.fill(byte)


def memset_async(ptr: Pointer, max_count: int, value: int, count: int, stream: Stream | None = None) -> None:
    """Queue a memset on ``stream`` (``aclrtMemsetAsync``); 0 bytes queue nothing."""
    if _nothing_to_copy(max_count, count, "max_count"):
        return
    loc, byte, seconds = _plan_fill(ptr, max_count, value, count)
    st = _stream(stream)
    st.submit(FillTask(f"memset_async({count} B)", caller_site(), loc.view, byte, seconds,
                       _buffers(loc), (loc.keep,), _regions(loc)))


def launch_function(fn: Callable[[], float], *, label: str = "function", stream: Stream | None = None,
                    buffers: Sequence[Buffer] = ()) -> None:
    """Queue ``fn()`` on a stream; ``fn`` does device-side work and returns its modeled
    seconds.  Kernel launches are built on this; the demo uses it as its compute step."""
    if not callable(fn):
        raise InvalidParamError(f"fn must be callable, got {type(fn).__name__}")
    st = _stream(stream)
    st.submit(FunctionTask(label, caller_site(), fn, tuple(buffers)))


def device_array(ptr: Pointer, shape: int | tuple[int, ...], dtype: Any) -> np.ndarray:
    """A NumPy view of device memory, for device-side work inside :func:`launch_function`."""
    STATE.require_init()
    dt = np.dtype(dtype)
    shape_t = _dims(shape)
    nbytes = math.prod(shape_t) * dt.itemsize
    p = _as_ptr(ptr, "ptr")
    if not is_device_address(p):
        raise InvalidMemoryTypeError(f"0x{p:x} is host memory, not device memory")
    loc = _locate(p, nbytes, "ptr")
    return loc.view.view(dt).reshape(shape_t)


# --- host pointer utilities (acl.util) -------------------------------------------------

def _dims(shape: object) -> tuple[int, ...]:
    """A shape as non-negative ints (its byte count is computed with Python ints: a NumPy
    int64 product would wrap around for huge shapes and describe a tiny view)."""
    dims = (shape,) if isinstance(shape, (int, np.integer)) else shape
    if not isinstance(dims, Sequence | np.ndarray) or isinstance(dims, (str, bytes)):
        raise InvalidParamError(f"shape must be an int or a tuple of ints, got {type(shape).__name__}")
    return tuple(_check_int("shape dimension", d) for d in dims)


def numpy_to_ptr(arr: np.ndarray) -> int:
    """The address of a C-contiguous array's data, usable as a copy source/destination."""
    STATE.require_init()
    return STATE.host.register_array(arr, caller_site())


def bytes_to_ptr(data: bytes | bytearray) -> int:
    """The address of a bytes object's data (writable by D2H copies, as in pyACL)."""
    STATE.require_init()
    return STATE.host.register_bytes(data, caller_site())


def ptr_to_numpy(ptr: int, shape: int | Sequence[int], dtype: Any) -> np.ndarray:
    """A NumPy array viewing host memory at ``ptr`` (no copy).  Device pointers are refused."""
    STATE.require_init()
    dt = np.dtype(dtype)
    shape_t = _dims(shape)
    nbytes = math.prod(shape_t) * dt.itemsize
    p = _as_ptr(ptr, "ptr")
    if is_device_address(p):
        raise InvalidMemoryTypeError(f"0x{p:x} is device memory, which the host cannot read directly",
                                     hint="memcpy it to host memory first")
    _, view, _owner = STATE.host.locate(p, nbytes)
    return view.view(dt).reshape(shape_t)


def ptr_to_bytes(ptr: int, size: int) -> bytes:
    """A copy of ``size`` bytes of host memory at ``ptr``."""
    STATE.require_init()
    size = _check_int("size", size)
    p = _as_ptr(ptr, "ptr")
    if is_device_address(p):
        raise InvalidMemoryTypeError(f"0x{p:x} is device memory, which the host cannot read directly",
                                     hint="memcpy it to host memory first")
    _, view, _owner = STATE.host.locate(p, size)
    return view.tobytes()
