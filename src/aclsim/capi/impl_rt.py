"""The C face of ``acl.h``, ``acl_rt.h`` and ``acl_dvpp.h``: each function forwards to the
pyACL function of the same call (:mod:`aclsim.acl`), so both faces share the runtime
objects, the checks, the codes and the messages.

Handles and device pointers are the pyACL face's ints carried in ``void *``; a NULL stream
is the default stream, as pyACL's ``0``.  OUT parameters are checked for NULL before the
call (so a refused call changes nothing) and written only on success.  Host pointers are
any process address (:mod:`aclsim.runtime.foreign`).
"""

from __future__ import annotations

import threading
from typing import Any

from aclsim import acl
from aclsim.capi.cdata import c_function, ffi, need_out, store, text
from aclsim.errors import ACL_SUCCESS, InvalidParamError

__all__: list[str] = []

#: aclrtGetVersion: the version of the AscendCL interface the headers describe (acl.h)
ACL_VERSION = (1, 0, 0)


# --- acl.h ---------------------------------------------------------------------------------

@c_function
def aclInit(config_path: Any) -> int:
    return acl.init(text(config_path))


@c_function
def aclFinalize() -> int:
    return acl.finalize()


@c_function
def aclrtGetVersion(major: Any, minor: Any, patch: Any) -> int:
    for ptr, name in ((major, "majorVersion"), (minor, "minorVersion"), (patch, "patchVersion")):
        need_out(ptr, name)
    major[0], minor[0], patch[0] = ACL_VERSION
    return ACL_SUCCESS


_messages = threading.local()


@c_function
def aclGetRecentErrMsg() -> Any:
    """The text stays valid until this thread's next call (as the documented lifetime)."""
    message = acl.get_recent_err_msg()
    if message is None:
        _messages.buffer = None
        return ffi().NULL
    _messages.buffer = ffi().new("char[]", message.encode("utf-8", "replace"))
    return _messages.buffer


# --- devices ---------------------------------------------------------------------------------

@c_function
def aclrtSetDevice(device_id: int) -> int:
    return acl.rt.set_device(device_id)


@c_function
def aclrtResetDevice(device_id: int) -> int:
    return acl.rt.reset_device(device_id)


@c_function
def aclrtResetDeviceForce(device_id: int) -> int:
    return acl.rt.reset_device_force(device_id)


@c_function
def aclrtGetDevice(device_id: Any) -> int:
    need_out(device_id, "deviceId")
    return store(device_id, *acl.rt.get_device())


@c_function
def aclrtGetDeviceCount(count: Any) -> int:
    need_out(count, "count")
    return store(count, *acl.rt.get_device_count())


@c_function
def aclrtGetRunMode(run_mode: Any) -> int:
    need_out(run_mode, "runMode")
    return store(run_mode, *acl.rt.get_run_mode())


@c_function
def aclrtSynchronizeDevice() -> int:
    return acl.rt.synchronize_device()


@c_function
def aclrtSynchronizeDeviceWithTimeout(timeout: int) -> int:
    return acl.rt.synchronize_device_with_timeout(timeout)


# --- contexts --------------------------------------------------------------------------------

@c_function
def aclrtCreateContext(context: Any, device_id: int) -> int:
    need_out(context, "context")
    return store(context, *acl.rt.create_context(device_id), pointer=True)


@c_function
def aclrtDestroyContext(context: Any) -> int:
    return acl.rt.destroy_context(context)


@c_function
def aclrtSetCurrentContext(context: Any) -> int:
    return acl.rt.set_context(context)


@c_function
def aclrtGetCurrentContext(context: Any) -> int:
    need_out(context, "context")
    return store(context, *acl.rt.get_context(), pointer=True)


# --- streams ---------------------------------------------------------------------------------

@c_function
def aclrtCreateStream(stream: Any) -> int:
    need_out(stream, "stream")
    return store(stream, *acl.rt.create_stream(), pointer=True)


@c_function
def aclrtCreateStreamWithConfig(stream: Any, priority: int, flag: int) -> int:
    need_out(stream, "stream")
    return store(stream, *acl.rt.create_stream_with_config(priority, flag), pointer=True)


@c_function
def aclrtDestroyStream(stream: Any) -> int:
    return acl.rt.destroy_stream(stream)


@c_function
def aclrtDestroyStreamForce(stream: Any) -> int:
    return acl.rt.destroy_stream_force(stream)


@c_function
def aclrtSynchronizeStream(stream: Any) -> int:
    return acl.rt.synchronize_stream(stream)


@c_function
def aclrtSynchronizeStreamWithTimeout(stream: Any, timeout: int) -> int:
    return acl.rt.synchronize_stream_with_timeout(stream, timeout)


@c_function
def aclrtStreamQuery(stream: Any, status: Any) -> int:
    need_out(status, "status")
    return store(status, *acl.rt.stream_query(stream))


@c_function
def aclrtStreamWaitEvent(stream: Any, event: Any) -> int:
    return acl.rt.stream_wait_event(stream, event)


# --- events ----------------------------------------------------------------------------------

@c_function
def aclrtCreateEvent(event: Any) -> int:
    need_out(event, "event")
    return store(event, *acl.rt.create_event(), pointer=True)


@c_function
def aclrtCreateEventWithFlag(event: Any, flag: int) -> int:
    need_out(event, "event")
    return store(event, *acl.rt.create_event_with_flag(flag), pointer=True)


@c_function
def aclrtDestroyEvent(event: Any) -> int:
    return acl.rt.destroy_event(event)


@c_function
def aclrtRecordEvent(event: Any, stream: Any) -> int:
    return acl.rt.record_event(event, stream)


@c_function
def aclrtResetEvent(event: Any, stream: Any) -> int:
    return acl.rt.reset_event(event, stream)


@c_function
def aclrtQueryEvent(event: Any, status: Any) -> int:
    need_out(status, "status")
    return store(status, *acl.rt.query_event(event))


@c_function
def aclrtQueryEventStatus(event: Any, status: Any) -> int:
    need_out(status, "status")
    return store(status, *acl.rt.query_event_status(event))


@c_function
def aclrtSynchronizeEvent(event: Any) -> int:
    return acl.rt.synchronize_event(event)


@c_function
def aclrtSynchronizeEventWithTimeout(event: Any, timeout: int) -> int:
    return acl.rt.synchronize_event_with_timeout(event, timeout)


@c_function
def aclrtEventElapsedTime(ms: Any, start: Any, end: Any) -> int:
    need_out(ms, "ms")
    return store(ms, *acl.rt.event_elapsed_time(start, end))


# --- memory and copies -------------------------------------------------------------------------

@c_function
def aclrtMalloc(dev_ptr: Any, size: int, policy: int) -> int:
    need_out(dev_ptr, "devPtr")
    return store(dev_ptr, *acl.rt.malloc(size, policy), pointer=True)


@c_function
def aclrtFree(dev_ptr: Any) -> int:
    return acl.rt.free(dev_ptr)


@c_function
def aclrtMallocHost(host_ptr: Any, size: int) -> int:
    need_out(host_ptr, "hostPtr")
    return store(host_ptr, *acl.rt.malloc_host(size), pointer=True)


@c_function
def aclrtFreeHost(host_ptr: Any) -> int:
    return acl.rt.free_host(host_ptr)


@c_function
def aclrtMemset(dev_ptr: Any, max_count: int, value: int, count: int) -> int:
    return acl.rt.memset(dev_ptr, max_count, value, count)


@c_function
def aclrtMemsetAsync(dev_ptr: Any, max_count: int, value: int, count: int, stream: Any) -> int:
    return acl.rt.memset_async(dev_ptr, max_count, value, count, stream)


@c_function
def aclrtMemcpy(dst: Any, dest_max: int, src: Any, count: int, kind: int) -> int:
    return acl.rt.memcpy(dst, dest_max, src, count, kind)


@c_function
def aclrtMemcpyAsync(dst: Any, dest_max: int, src: Any, count: int, kind: int, stream: Any) -> int:
    return acl.rt.memcpy_async(dst, dest_max, src, count, kind, stream)


@c_function
def aclrtGetMemInfo(attr: int, free: Any, total: Any) -> int:
    need_out(free, "free")
    need_out(total, "total")
    free_bytes, total_bytes, ret = acl.rt.get_mem_info(attr)
    if ret == ACL_SUCCESS:
        free[0], total[0] = free_bytes, total_bytes
    return ret


@c_function
def acldvppMalloc(dev_ptr: Any, size: int) -> int:
    need_out(dev_ptr, "devPtr")
    return store(dev_ptr, *acl.media.dvpp_malloc(size), pointer=True)


@c_function
def acldvppFree(dev_ptr: Any) -> int:
    return acl.media.dvpp_free(dev_ptr)


# --- callbacks -------------------------------------------------------------------------------

class _CCallback:
    """A C ``aclrtCallback`` and its ``userData``, called like the pyACL face's callables."""

    __slots__ = ("fn", "user_data")

    def __init__(self, fn: int, user_data: int) -> None:
        self.fn = ffi().cast("void (*)(void *)", fn)
        self.user_data = ffi().cast("void *", user_data)

    def __call__(self, _unused: object) -> None:
        self.fn(self.user_data)

    def __repr__(self) -> str:
        return f"<C callback {self.fn!r}>"


@c_function
def aclrtLaunchCallback(fn: Any, user_data: Any, block_type: int, stream: Any) -> int:
    if not fn:
        raise InvalidParamError("fn is a null function pointer", hint="pass the callback function")
    return acl.rt.launch_callback(_CCallback(fn, user_data), None, block_type, stream)


@c_function
def aclrtSubscribeReport(thread_id: int, stream: Any) -> int:
    return acl.rt.subscribe_report(thread_id, stream)


@c_function
def aclrtUnSubscribeReport(thread_id: int, stream: Any) -> int:
    return acl.rt.unsubscribe_report(thread_id, stream)


@c_function
def aclrtProcessReport(timeout: int) -> int:
    return acl.rt.process_report(timeout)

