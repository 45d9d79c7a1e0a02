"""Contexts: a device binding plus a default stream; one current context per host thread."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aclsim.runtime._state import STATE

if TYPE_CHECKING:
    from aclsim.runtime.device import Device
    from aclsim.runtime.stream import Stream


class Context:
    """A context on one device.  ``set_device`` makes the device's default context;
    ``create_context`` makes explicit ones.  Each has its own default stream.

    >>> import aclsim
    >>> aclsim.init(chip="tiny")
    >>> ctx = aclsim.create_context(0)
    >>> aclsim.get_context() is ctx, ctx.device.id
    (True, 0)
    >>> aclsim.destroy_context(ctx); aclsim.finalize()
    []
    """

    def __init__(self, device: Device, *, is_default: bool, site: str) -> None:
        from aclsim.runtime.stream import Stream

        self.device = device
        self.is_default = is_default
        self.site = site
        self.alive = True
        self.streams: list[Stream] = []
        self.handle = STATE.new_handle(self)
        self.default_stream: Stream = Stream(self, is_default=True, site=site)

    def __repr__(self) -> str:
        kind = " default" if self.is_default else ""
        state = "" if self.alive else " destroyed"
        return f"<Context 0x{self.handle:x}{kind} npu:{self.device.id}{state}>"

    def all_streams(self) -> list[Stream]:
        return [self.default_stream, *self.streams]

    def close(self) -> None:
        """Drain and stop every stream of the context, then forget it."""
        for stream in self.all_streams():
            stream.wait_idle()
        for stream in self.all_streams():
            stream.close()
        self.streams.clear()
        self.alive = False
        STATE.handles.pop(self.handle, None)
