"""Argument conversions of the pyACL face: ints, handles, timeouts.

pyACL passes everything as Python ints: handles (contexts, streams, events) are the
addresses of runtime objects, and the default stream is ``0``.  Here an int handle is
looked up in the runtime's handle table (``aclsim.runtime.lookup.object_of_handle``; every
:class:`~aclsim.runtime.Context`, :class:`~aclsim.runtime.Stream` and
:class:`~aclsim.runtime.Event` registers itself there under its ``.handle``).
"""

from __future__ import annotations

import operator
from typing import TypeVar

import numpy as np

from aclsim.errors import InvalidHandleError, InvalidParamError
from aclsim.runtime.context import Context
from aclsim.runtime.event import Event
from aclsim.runtime.lookup import object_of_handle, require_init
from aclsim.runtime.stream import Stream

_O = TypeVar("_O")


def as_int(name: str, value: object) -> int:
    """``value`` as a Python int (NumPy integers included); anything else is
    ``ACL_ERROR_INVALID_PARAM``, as pyACL's C argument parsing rejects it."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InvalidParamError(f"{name} must be an int, got {type(value).__name__} {value!r}")
    return operator.index(value)


def _lookup(name: str, value: object, cls: type[_O], what: str) -> _O:
    h = as_int(name, value)
    obj = object_of_handle(h)
    if not isinstance(obj, cls) or not getattr(obj, "alive", False):
        raise InvalidHandleError(f"{name} {h:#x} is not a live {what} (destroyed, or never created)",
                                 hint=f"pass a {what} handle returned by acl.rt.create_{what}, "
                                 "before it is destroyed")
    return obj


def stream_of(value: object, name: str = "stream") -> Stream | None:
    """The runtime stream of a stream handle; ``0`` is the default stream (``None``)."""
    require_init()
    if as_int(name, value) == 0:
        return None
    return _lookup(name, value, Stream, "stream")


def created_stream_of(value: object) -> Stream:
    """A stream made by ``create_stream``: the default stream ``0`` is refused."""
    require_init()
    if as_int("stream", value) == 0:
        raise InvalidParamError("stream 0 is the default stream, which cannot be destroyed",
                                hint="destroy only streams from acl.rt.create_stream")
    return _lookup("stream", value, Stream, "stream")


def event_of(value: object, name: str = "event") -> Event:
    require_init()
    if as_int(name, value) == 0:
        raise InvalidParamError(f"{name} is a null event handle",
                                hint="pass a handle from acl.rt.create_event")
    return _lookup(name, value, Event, "event")


def context_of(value: object) -> Context:
    require_init()
    if as_int("context", value) == 0:
        raise InvalidParamError("context is a null context handle",
                                hint="pass a handle from acl.rt.create_context or acl.rt.get_context")
    return _lookup("context", value, Context, "context")


def timeout_s(value: object, name: str = "timeout") -> float | None:
    """pyACL timeouts (int milliseconds, ``-1`` = wait for ever) as the runtime's seconds.

    ``0`` polls once without waiting; values below ``-1`` are ``ACL_ERROR_INVALID_PARAM``.
    """
    ms = as_int(name, value)
    if ms == -1:
        return None
    if ms < -1:
        raise InvalidParamError(f"{name} must be -1 (wait for ever) or >= 0 ms, got {ms}")
    return ms / 1000.0
