"""``acl.rt``: devices, contexts, streams, events, memory and callbacks in pyACL's form.

Every function mirrors an ``aclrt*`` call with pyACL's conventions: handles and pointers
are ints, the default stream is ``0``, timeouts are int milliseconds (``-1`` = for ever),
functions with OUT values return ``(value, ret)`` (``get_mem_info``: ``(free, total,
ret)``), the others return ``ret``.  Each is a thin layer over :mod:`aclsim.runtime.api`;
error codes come from the one boundary in :mod:`aclsim.acl._boundary`.  On failure a
handle or pointer OUT value is ``None`` and a numeric one is ``0``.

Examples
--------
>>> import numpy as np
>>> import aclsim.acl as acl
>>> acl.init(), acl.rt.set_device(0)
(0, 0)
>>> x = np.arange(4, dtype=np.int32); y = np.zeros_like(x)
>>> dev, ret = acl.rt.malloc(x.nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
>>> acl.rt.memcpy(dev, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE)
0
>>> acl.rt.memcpy(acl.util.numpy_to_ptr(y), y.nbytes, dev, x.nbytes, acl.rt.MEMCPY_DEVICE_TO_HOST)
0
>>> y.tolist(), acl.rt.free(dev), acl.rt.reset_device(0), acl.finalize()
([0, 1, 2, 3], 0, 0, 0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aclsim.acl import constants as _c
from aclsim.acl._boundary import returns_code, returns_value, returns_values
from aclsim.acl._convert import as_int, context_of, created_stream_of, event_of, stream_of, timeout_s
from aclsim.errors import InvalidParamError
from aclsim.runtime import api as _rt

__all__ = [
    "MEMCPY_DEFAULT", "MEMCPY_DEVICE_TO_DEVICE", "MEMCPY_DEVICE_TO_HOST", "MEMCPY_HOST_TO_BUF_TO_DEVICE",
    "MEMCPY_HOST_TO_DEVICE", "MEMCPY_HOST_TO_HOST", "MEMCPY_INNER_DEVICE_TO_DEVICE",
    "MEMCPY_INTER_DEVICE_TO_DEVICE",
    "create_context", "create_event", "create_event_with_flag", "create_stream", "create_stream_with_config",
    "destroy_context", "destroy_event", "destroy_stream", "destroy_stream_force", "event_elapsed_time",
    "free", "free_host", "get_context", "get_device", "get_device_count", "get_mem_info", "get_run_mode",
    "launch_callback", "malloc", "malloc_host", "memcpy", "memcpy_async", "memset", "memset_async",
    "process_report", "query_event", "query_event_status", "record_event", "reset_device",
    "reset_device_force", "reset_event", "set_context", "set_device", "stream_query", "stream_wait_event",
    "subscribe_report", "synchronize_device", "synchronize_device_with_timeout", "synchronize_event",
    "synchronize_event_with_timeout", "synchronize_stream", "synchronize_stream_with_timeout",
    "unsubscribe_report",
]

# Some pyACL versions expose the copy kinds on acl.rt as well.
MEMCPY_HOST_TO_HOST = _c.ACL_MEMCPY_HOST_TO_HOST
MEMCPY_HOST_TO_DEVICE = _c.ACL_MEMCPY_HOST_TO_DEVICE
MEMCPY_DEVICE_TO_HOST = _c.ACL_MEMCPY_DEVICE_TO_HOST
MEMCPY_DEVICE_TO_DEVICE = _c.ACL_MEMCPY_DEVICE_TO_DEVICE
MEMCPY_DEFAULT = _c.ACL_MEMCPY_DEFAULT
MEMCPY_HOST_TO_BUF_TO_DEVICE = _c.ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE
MEMCPY_INNER_DEVICE_TO_DEVICE = _c.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE
MEMCPY_INTER_DEVICE_TO_DEVICE = _c.ACL_MEMCPY_INTER_DEVICE_TO_DEVICE


# --- devices ---------------------------------------------------------------------------

@returns_code
def set_device(device_id: int) -> None:
    """Open a device for this thread (``aclrtSetDevice``); reference-counted.

    Makes the device's default context current.  Returns ``ret``;
    ``ACL_ERROR_RT_INVALID_DEVICEID`` (107001) for an id out of range.
    """
    _rt.set_device(as_int("device_id", device_id))


@returns_code
def reset_device(device_id: int) -> None:
    """Undo one :func:`set_device` (``aclrtResetDevice``); the last one waits for the
    device's streams and releases its default context.  Returns ``ret``."""
    _rt.reset_device(as_int("device_id", device_id))


@returns_code
def reset_device_force(device_id: int) -> None:
    """Release the device whatever the number of :func:`set_device` calls
    (``aclrtResetDeviceForce``).  Returns ``ret``; a failed wait for the device's streams
    (507046) leaves the device set, as before the call."""
    _rt.reset_device_force(as_int("device_id", device_id))


@returns_value(0)
def get_device() -> int:
    """The device of this thread's current context (``aclrtGetDevice``).

    Returns
    -------
    tuple
        ``(device_id, ret)``; ``ACL_ERROR_RT_CONTEXT_NULL`` (107002) without a current context.
    """
    return _rt.get_device()


@returns_value(0)
def get_device_count() -> int:
    """Number of devices (``aclrtGetDeviceCount``): ``(count, ret)``."""
    return _rt.get_device_count()


@returns_value(0)
def get_run_mode() -> int:
    """``(run_mode, ret)`` (``aclrtGetRunMode``): always ``ACL_HOST`` (1) in aclsim."""
    return int(_rt.get_run_mode())


@returns_code
def synchronize_device() -> None:
    """Wait for every stream of the current device (``aclrtSynchronizeDevice``).

    Returns ``ret``: the code of the first failed task, if any.
    """
    _rt.synchronize_device()


@returns_code
def synchronize_device_with_timeout(timeout: int) -> None:
    """:func:`synchronize_device` with a timeout in ms (-1 = for ever); returns ``ret``,
    ``ACL_ERROR_RT_STREAM_SYNC_TIMEOUT`` (507046) on timeout."""
    _rt.synchronize_device(timeout_s(timeout))


# --- contexts --------------------------------------------------------------------------

@returns_value(None)
def create_context(device_id: int) -> int:
    """Create a context on ``device_id`` and make it current in this thread (``aclrtCreateContext``).

    Returns
    -------
    tuple
        ``(context, ret)``; ``context`` is an int handle (``None`` on failure).
    """
    return _rt.create_context(as_int("device_id", device_id)).handle


@returns_code
def destroy_context(context: int) -> None:
    """Destroy a context made by :func:`create_context` after its streams' work
    (``aclrtDestroyContext``).  Returns ``ret``."""
    _rt.destroy_context(context_of(context))


@returns_code
def set_context(context: int) -> None:
    """Make ``context`` current in the calling thread (``aclrtSetCurrentContext``); returns ``ret``."""
    _rt.set_context(context_of(context))


@returns_value(None)
def get_context() -> int:
    """``(context, ret)``: this thread's current context (``aclrtGetCurrentContext``)."""
    return _rt.get_context().handle


# --- streams ---------------------------------------------------------------------------

@returns_value(None)
def create_stream() -> int:
    """``(stream, ret)``: a new stream in the current context (``aclrtCreateStream``)."""
    return _rt.create_stream().handle


@returns_value(None)
def create_stream_with_config(priority: int, flag: int) -> int:
    """``(stream, ret)``: a new stream with a priority and ``ACL_STREAM_*`` flags
    (``aclrtCreateStreamWithConfig``)."""
    return _rt.create_stream(flags=as_int("flag", flag), priority=as_int("priority", priority)).handle


@returns_code
def destroy_stream(stream: int) -> None:
    """Destroy a stream once its queued tasks are done (``aclrtDestroyStream``); returns ``ret``.

    The default stream ``0`` cannot be destroyed (``ACL_ERROR_INVALID_PARAM``).
    """
    _rt.destroy_stream(created_stream_of(stream))


@returns_code
def destroy_stream_force(stream: int) -> None:
    """Destroy a stream without waiting for it (``aclrtDestroyStreamForce``); returns ``ret``.

    Queued copies still run, but waits on events and blocking callbacks that nobody
    will ever complete are abandoned instead of holding the stream.
    """
    created_stream_of(stream).close(force=True)


@returns_code
def synchronize_stream(stream: int) -> None:
    """Wait for the stream's tasks (``aclrtSynchronizeStream``); ``ret`` is the code of
    the first failed task, if any."""
    _rt.synchronize_stream(stream_of(stream))


@returns_code
def synchronize_stream_with_timeout(stream: int, timeout: int) -> None:
    """:func:`synchronize_stream` with a timeout in ms (-1 = for ever); returns ``ret``,
    ``ACL_ERROR_RT_STREAM_SYNC_TIMEOUT`` (507046) on timeout."""
    _rt.synchronize_stream(stream_of(stream), timeout_s(timeout))


@returns_value(0)
def stream_query(stream: int) -> int:
    """``(status, ret)`` (``aclrtStreamQuery``): ``ACL_STREAM_STATUS_COMPLETE`` (0) when every
    task submitted so far has finished, else ``ACL_STREAM_STATUS_NOT_READY`` (1)."""
    done = _rt.query_stream(stream_of(stream))
    return _c.ACL_STREAM_STATUS_COMPLETE if done else _c.ACL_STREAM_STATUS_NOT_READY


@returns_code
def stream_wait_event(stream: int, event: int) -> None:
    """Make later tasks of ``stream`` wait for ``event``'s latest record
    (``aclrtStreamWaitEvent``); returns ``ret``."""
    s = stream_of(stream)
    _rt.stream_wait_event(s, event_of(event))


# --- memory ----------------------------------------------------------------------------

@returns_value(None)
def malloc(size: int, policy: int) -> int:
    """Device memory on the current device (``aclrtMalloc``).

    Parameters
    ----------
    size
        Bytes, > 0 (0 is ``ACL_ERROR_INVALID_PARAM``).  ``ALIGN_UP(size, 32) + 32`` bytes
        are reserved, the start is 64 B aligned.
    policy
        ``ACL_MEM_MALLOC_HUGE_FIRST`` (0), ``HUGE_ONLY`` (1), ``NORMAL_ONLY`` (2), ...

    Returns
    -------
    tuple
        ``(dev_ptr, ret)``; ``ACL_ERROR_RT_MEMORY_ALLOCATION`` (207001) when the device is full.
    """
    return _rt.malloc(as_int("size", size), as_int("policy", policy)).ptr


@returns_code
def free(dev_ptr: int) -> None:
    """Release memory from :func:`malloc` (``aclrtFree``); returns ``ret``,
    ``ACL_ERROR_RT_MEMORY_FREE`` (207002) for a double free."""
    _rt.free(as_int("dev_ptr", dev_ptr))


@returns_value(None)
def malloc_host(size: int) -> int:
    """``(host_ptr, ret)``: page-aligned pinned host memory (``aclrtMallocHost``)."""
    return _rt.malloc_host(as_int("size", size))


@returns_code
def free_host(host_ptr: int) -> None:
    """Release memory from :func:`malloc_host` (``aclrtFreeHost``); returns ``ret``."""
    _rt.free_host(as_int("host_ptr", host_ptr))


@returns_code
def memcpy(dst: int, dest_max: int, src: int, count: int, kind: int) -> None:
    """Copy ``count`` bytes now (``aclrtMemcpy``); no stream or device synchronization.

    Parameters
    ----------
    dst, src
        Device pointers, or host pointers from ``malloc_host``, ``acl.util.numpy_to_ptr``
        or ``acl.util.bytes_to_ptr``.
    dest_max
        Capacity of ``dst``; ``count > dest_max`` is ``ACL_ERROR_INVALID_PARAM``.
    count
        Bytes to copy.
    kind
        ``ACL_MEMCPY_*`` 0-5, reserved as in AscendCL: the copy runs in the direction of the
        pointers; a kind that says otherwise is logged as a diagnostic (refused with
        ``ACL_ERROR_RT_INVALID_MEMORY_TYPE``, 107016, in strict mode).  Other kinds are
        ``ACL_ERROR_INVALID_PARAM``.  A copy of 0 bytes succeeds without any check.

    Returns
    -------
    int
        ``ret``.
    """
    _rt.memcpy(as_int("dst", dst), as_int("dest_max", dest_max), as_int("src", src),
               as_int("count", count), as_int("kind", kind))


@returns_code
def memcpy_async(dst: int, dest_max: int, src: int, count: int, kind: int, stream: int) -> None:
    """Queue a copy on ``stream`` (``aclrtMemcpyAsync``); arguments as :func:`memcpy`.
    Returns ``ret`` (argument errors only: the copy itself reports at synchronize)."""
    _rt.memcpy_async(as_int("dst", dst), as_int("dest_max", dest_max), as_int("src", src),
                     as_int("count", count), as_int("kind", kind), stream_of(stream))


@returns_code
def memset(dev_ptr: int, max_count: int, value: int, count: int) -> None:
    """Set ``count`` bytes to ``value & 0xFF`` now (``aclrtMemset``); returns ``ret``."""
    _rt.memset(as_int("dev_ptr", dev_ptr), as_int("max_count", max_count), as_int("value", value),
               as_int("count", count))


@returns_code
def memset_async(dev_ptr: int, max_count: int, value: int, count: int, stream: int) -> None:
    """Queue a :func:`memset` on ``stream`` (``aclrtMemsetAsync``); returns ``ret``."""
    _rt.memset_async(as_int("dev_ptr", dev_ptr), as_int("max_count", max_count), as_int("value", value),
                     as_int("count", count), stream_of(stream))


@returns_values(0, 0)
def get_mem_info(attr: int) -> tuple[int, int]:
    """``(free, total, ret)`` bytes of the current device's memory of kind ``attr``
    (``aclrtGetMemInfo``; ``ACL_HBM_MEM`` = 1, ``ACL_DDR_MEM`` = 0, ...).  A kind the
    chip does not have reports ``(0, 0, 0)``."""
    return _rt.get_mem_info(as_int("attr", attr))


# --- events ----------------------------------------------------------------------------

@returns_value(None)
def create_event() -> int:
    """``(event, ret)``: a new event (``aclrtCreateEvent``)."""
    return _rt.create_event().handle


@returns_value(None)
def create_event_with_flag(flag: int) -> int:
    """``(event, ret)``: a new event with ``ACL_EVENT_*`` flags (``aclrtCreateEventWithFlag``)."""
    return _rt.create_event(as_int("flag", flag)).handle


@returns_code
def destroy_event(event: int) -> None:
    """Destroy an event (``aclrtDestroyEvent``); returns ``ret``."""
    _rt.destroy_event(event_of(event))


@returns_code
def record_event(event: int, stream: int) -> None:
    """Record ``event`` on ``stream`` (``aclrtRecordEvent``); returns ``ret``."""
    e = event_of(event)
    _rt.record_event(e, stream_of(stream))


@returns_code
def reset_event(event: int, stream: int) -> None:
    """Return ``event`` to not-recorded once ``stream`` reaches this point
    (``aclrtResetEvent``); returns ``ret``."""
    e = event_of(event)
    _rt.reset_event(e, stream_of(stream))


@returns_value(0)
def query_event(event: int) -> int:
    """``(status, ret)`` with the older ``aclrtEventStatus`` numbering (``aclrtQueryEvent``):
    ``ACL_EVENT_STATUS_COMPLETE`` (0) -- also for an event never recorded -- or
    ``ACL_EVENT_STATUS_NOT_READY`` (1)."""
    return int(_rt.query_event(event_of(event)))


@returns_value(0)
def query_event_status(event: int) -> int:
    """``(status, ret)`` (``aclrtQueryEventStatus``): ``ACL_EVENT_RECORDED_STATUS_COMPLETE`` (1)
    once the latest record was reached, else ``ACL_EVENT_RECORDED_STATUS_NOT_READY`` (0)."""
    return int(_rt.query_event_status(event_of(event)))


@returns_code
def synchronize_event(event: int) -> None:
    """Block until the event's latest record completes (``aclrtSynchronizeEvent``); returns ``ret``."""
    _rt.synchronize_event(event_of(event))


@returns_code
def synchronize_event_with_timeout(event: int, timeout: int) -> None:
    """:func:`synchronize_event` with a timeout in ms (-1 = for ever); returns ``ret``,
    ``ACL_ERROR_RT_EVENT_SYNC_TIMEOUT`` (507047) on timeout."""
    e = event_of(event)
    _rt.synchronize_event(e, timeout_s(timeout))


@returns_value(0.0)
def event_elapsed_time(start: int, end: int) -> float:
    """``(ms, ret)``: modeled device milliseconds between two completed events
    (``aclrtEventElapsedTime``).

    ``ret`` is ``ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID`` (107006) if one was never recorded,
    ``ACL_ERROR_RT_EVENT_NOT_COMPLETE`` (507006) if one has not completed yet.
    """
    return _rt.event_elapsed_time(event_of(start, "start"), event_of(end, "end"))


# --- callbacks -------------------------------------------------------------------------

@returns_code
def launch_callback(fn: Callable[[Any], Any], user_data_list: Any, block_type: int, stream: int) -> None:
    """Queue ``fn(user_data_list)`` on ``stream`` (``aclrtLaunchCallback``).

    It runs in the thread subscribed to the stream (:func:`subscribe_report`), inside
    that thread's :func:`process_report`.  ``block_type`` ``ACL_CALLBACK_BLOCK`` (1) holds
    the stream until ``fn`` returns.  Returns ``ret``; ``ACL_ERROR_RT_STREAM_NO_CB_REG``
    (107015) when no thread is subscribed to the stream.
    """
    if not callable(fn):
        raise InvalidParamError(f"fn must be callable, got {type(fn).__name__}")
    _rt.launch_callback(fn, user_data_list, as_int("block_type", block_type), stream_of(stream))


@returns_code
def subscribe_report(thread_id: int, stream: int) -> None:
    """Route ``stream``'s callbacks to thread ``thread_id`` (``aclrtSubscribeReport``).

    ``thread_id`` is an id from ``acl.util.start_thread`` (or ``threading.get_ident()``).
    Returns ``ret``; ``ACL_ERROR_REPEAT_SUBSCRIBE`` (100033) if the stream already has one.
    """
    s = stream_of(stream)
    _rt.subscribe_report(as_int("thread_id", thread_id), s)


@returns_code
def unsubscribe_report(thread_id: int, stream: int) -> None:
    """Undo :func:`subscribe_report` (``aclrtUnSubscribeReport``); returns ``ret``."""
    s = stream_of(stream)
    _rt.unsubscribe_report(as_int("thread_id", thread_id), s)


@returns_code
def process_report(timeout: int) -> None:
    """Run the callbacks waiting for the calling thread (``aclrtProcessReport``).

    Waits up to ``timeout`` ms (-1 = for ever) for the first.  Returns ``ret``:
    ``ACL_ERROR_RT_REPORT_TIMEOUT`` (507012) when none came, ``ACL_ERROR_RT_THREAD_SUBSCRIBE``
    (107012) when the thread is subscribed to no stream.
    """
    _rt.process_report(timeout_s(timeout))
