"""Contexts: a device binding plus a default stream; one current context per host thread."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from aclsim.errors import InvalidHandleError, InvalidParamError
from aclsim.runtime._state import caller_site
from aclsim.runtime.stream import Stream, StreamOptions

if TYPE_CHECKING:
    from aclsim.runtime.device import Device


class Context:
    """A context on one device.  ``set_device`` makes the device's default context;
    ``create_context`` makes explicit ones.  Each has its own default stream.

    Its verbs: :meth:`create_stream`, :meth:`synchronize` and :meth:`close`
    (``aclrtDestroyContext``, explicit contexts only).

    >>> import aclsim
    >>> aclsim.init(chip="tiny")
    >>> ctx = aclsim.create_context(0)
    >>> aclsim.get_context() is ctx, ctx.device.id
    (True, 0)
    >>> s = ctx.create_stream(); ctx.synchronize(); ctx.close(); aclsim.finalize()
    []
    """

    def __init__(self, device: Device, *, is_default: bool, site: str) -> None:
        self.device = device
        self.is_default = is_default
        self.site = site
        self.alive = True
        self.streams: list[Stream] = []
        self.handle = device.state.handles.register(self)
        self.default_stream: Stream = Stream(self, is_default=True, site=site)

    def __repr__(self) -> str:
        kind = " default" if self.is_default else ""
        state = "" if self.alive else " destroyed"
        return f"<Context 0x{self.handle:x}{kind} npu:{self.device.id}{state}>"

    def all_streams(self) -> list[Stream]:
        return [self.default_stream, *self.streams]

    def create_stream(self, options: StreamOptions | None = None) -> Stream:
        """A new stream in this context (``aclrtCreateStream[WithConfig]``)."""
        opts = options or StreamOptions()
        with self.device.state.lock:
            stream = Stream(self, is_default=False, site=caller_site(), flags=opts.flags,
                            priority=opts.priority)
            self.streams.append(stream)
        return stream

    def synchronize(self, timeout_s: float | None = None) -> None:
        """Wait for every stream of the context; raise the first task failure."""
        wait_streams(self.all_streams(), timeout_s)

    def close(self) -> None:
        """Destroy this explicit context after its streams' work (``aclrtDestroyContext``);
        a device's default context goes with ``reset_device``."""
        if self.is_default:
            raise InvalidParamError(f"{self!r} is a device's default context",
                                    hint="default contexts go with reset_device")
        for stream in self.all_streams():  # outside the lock, so that queued tasks can finish
            stream.wait_idle()
        with self.device.state.lock:
            if not self.alive:
                raise InvalidHandleError(f"{self!r} was destroyed by another thread meanwhile")
            self.shutdown()
            self.device.contexts.remove(self)

    def shutdown(self) -> None:
        """Drain and stop every stream of the context, then forget it (teardown)."""
        for stream in self.all_streams():
            stream.wait_idle()
        for stream in self.all_streams():
            stream.shutdown()
        self.streams.clear()
        self.alive = False
        self.device.state.handles.release(self.handle)


def wait_streams(streams: list[Stream], timeout_s: float | None = None) -> None:
    """Wait for every stream (one ``timeout_s`` for all), then raise the first task failure."""
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    for stream in streams:
        remaining = None if deadline is None else max(deadline - time.monotonic(), 0.0)
        stream.wait_idle(remaining)
    errors = [e for e in (s.take_error() for s in streams) if e is not None]
    if errors:
        raise errors[0]
