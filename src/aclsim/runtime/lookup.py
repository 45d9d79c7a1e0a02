"""Finding the runtime objects a call works on: a device by id, the thread's current
context, a live object, a stream (``None`` is the current context's default stream).

Every AscendCL-named function (``api``, ``copies``, ``callbacks``, ``memapi``, ``pointers``)
starts here, so that the errors for a bad id, a destroyed object or a missing context are the
same everywhere; the runtime's state itself is asked for here (:func:`state`), once per call.
The runtime's objects do not come here: a device holds the state it was made by, and its
contexts, streams and events reach it through their device.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from aclsim.errors import (
    ContextNullError,
    InvalidDeviceError,
    InvalidHandleError,
    InvalidParamError,
    StreamContextError,
)
from aclsim.runtime._state import STATE, RuntimeState, caller_site
from aclsim.runtime.stream import Stream

if TYPE_CHECKING:
    from aclsim.runtime.context import Context
    from aclsim.runtime.device import Device

__all__ = ["caller_site", "current_context", "current_device_or_first", "device_by_id", "live",
           "object_of_handle", "require_init", "state", "stream_or_default"]

_T = TypeVar("_T")


def state() -> RuntimeState:
    """The runtime's state (lock, devices, handle table, host memory, thread-locals) for the
    AscendCL-named functions; initialized or not, as it is."""
    return STATE


def require_init() -> None:
    """Nothing, once the runtime is initialized (100001 before ``init``)."""
    STATE.require_init()


def object_of_handle(handle: int) -> object | None:
    """The live-or-destroyed context, stream or event registered under a pyACL handle, or None."""
    return STATE.handles.get(handle)


def device_by_id(device_id: object) -> Device:
    """The device ``device_id`` (107001 out of range, 100000 for a non-int).

    >>> import aclsim
    >>> aclsim.init(chip="tiny"); device_by_id(0)
    <Device npu:0 tiny>
    >>> _ = aclsim.finalize()
    """
    config = STATE.require_init()
    if not isinstance(device_id, (int, np.integer)) or isinstance(device_id, bool):
        raise InvalidParamError(f"device id must be an int, got {type(device_id).__name__}")
    if not 0 <= device_id < config.devices:
        raise InvalidDeviceError(f"device id {device_id} is out of range: {config.devices} device(s), "
                                 f"ids 0..{config.devices - 1}",
                                 hint="set ACLSIM_DEVICES or the init config for more devices")
    return STATE.devices[int(device_id)]


def current_context() -> Context:
    """The calling thread's current context (107002 when it has none)."""
    STATE.require_init()
    ctx = STATE.current_context
    if ctx is None:
        raise ContextNullError("this thread has no current context",
                               hint="call set_device(id) or set_context(ctx) in this thread first")
    return ctx


def current_device_or_first() -> Device:
    ctx = STATE.current_context
    return ctx.device if ctx is not None else STATE.devices[0]


def live(obj: Any, cls: type[_T], what: str) -> _T:
    """``obj`` if it is a ``cls`` not yet destroyed (100000 for another kind, 107017 destroyed)."""
    STATE.require_init()
    if not isinstance(obj, cls):
        raise InvalidParamError(f"expected a {what}, got {type(obj).__name__}")
    if not getattr(obj, "alive", False):
        raise InvalidHandleError(f"{obj!r} was destroyed", hint=f"create a new {what}")
    return obj


def stream_or_default(stream: Stream | None, *, for_submit: bool = True) -> Stream:
    """The stream a call works on: ``None`` is the current context's default stream.  Work
    submitted to a stream must come from a thread whose current context is the stream's
    (107003), as AscendCL requires; waiting on and querying any stream is allowed."""
    if stream is None:
        return current_context().default_stream
    stream = live(stream, Stream, "stream")
    if for_submit:
        ctx = current_context()
        if stream.context is not ctx:
            raise StreamContextError(f"{stream!r} belongs to {stream.context!r}, not to this thread's "
                                     f"current {ctx!r}", hint="set_context(stream's context) first")
    return stream
