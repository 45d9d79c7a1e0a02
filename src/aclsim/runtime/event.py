"""Events: markers recorded on a stream, carrying the stream's simulated clock."""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

from aclsim.errors import DeadlockError, EventNotCompleteError, EventSyncTimeoutError, EventTimestampError
from aclsim.runtime._state import RuntimeState

if TYPE_CHECKING:
    from aclsim.runtime.stream import Stream


class Record:
    """One ``record_event``: done once the stream reaches it, stamped with the stream clock."""

    __slots__ = ("stream", "done", "timestamp")

    def __init__(self, stream: Stream) -> None:
        self.stream = stream
        self.done = threading.Event()
        self.timestamp = 0.0

    def complete(self, clock: float) -> None:
        self.timestamp = clock
        self.done.set()


class Event:
    """A synchronization and timing marker.

    ``record`` places it on a stream; it completes when the stream reaches it, and its
    timestamp is the stream's modeled device time at that point.  A ``stream_wait_event``
    waits for the latest record made before the wait was submitted.

    Its verbs: :meth:`record` (on a stream), :meth:`synchronize`, :meth:`query`,
    :meth:`elapsed` (milliseconds to a later event) and :meth:`close`.

    >>> import aclsim
    >>> aclsim.init(chip="tiny"); aclsim.set_device(0)
    >>> a, b = aclsim.create_event(), aclsim.create_event()
    >>> s = aclsim.get_context().default_stream
    >>> a.record(s); b.record(s); b.synchronize(); a.elapsed(b)
    0.0
    >>> for e in (a, b): e.close()
    >>> aclsim.reset_device(0); aclsim.finalize()
    []
    """

    __slots__ = ("handle", "flags", "site", "alive", "last_record", "state", "__weakref__")

    def __init__(self, flags: int, site: str, state: RuntimeState) -> None:
        self.state = state  # the runtime whose handle table holds this event
        self.flags = flags
        self.site = site
        self.alive = True
        self.last_record: Record | None = None
        self.handle = state.handles.register(self)

    def __repr__(self) -> str:
        state = "" if self.alive else " destroyed"
        return f"<Event 0x{self.handle:x}{state}>"

    def record(self, stream: Stream) -> None:
        """Record the event on ``stream`` (``aclrtRecordEvent``)."""
        stream.record(self)

    def query(self) -> bool:
        """True once the latest record was reached (False if never recorded)."""
        return self.is_complete()

    def elapsed(self, end: Event) -> float:
        """Modeled device milliseconds from this event to ``end``, both completed
        (``aclrtEventElapsedTime``)."""
        return (end.timestamp() - self.timestamp()) * 1e3

    def close(self) -> None:
        """Destroy the event (``aclrtDestroyEvent``)."""
        self.alive = False
        self.state.handles.release(self.handle)

    def reset_now(self) -> None:
        self.last_record = None

    @property
    def recorded(self) -> bool:
        return self.last_record is not None

    def is_complete(self) -> bool:
        """True when the latest record has been reached by its stream (False if never recorded)."""
        record = self.last_record
        return record is not None and record.done.is_set()

    def synchronize(self, timeout_s: float | None = None) -> None:
        """Block until the latest record completes (at once if never recorded)."""
        record = self.last_record
        if record is None:
            return
        start = time.monotonic()
        while not record.done.wait(0.02):
            waited = time.monotonic() - start
            if timeout_s is not None and waited >= timeout_s:
                raise EventSyncTimeoutError(
                    f"{self!r} not reached after {timeout_s * 1000:.0f} ms on {record.stream!r}",
                    hint="raise the timeout, or check what the stream is waiting on")
            if waited > 0.1:
                reason = record.stream.stuck_reason()
                if reason is not None:
                    raise DeadlockError(
                        f"deadlock: {self!r} is recorded on {record.stream!r}, which {reason}")

    def timestamp(self) -> float:
        record = self.last_record
        if record is None:
            raise EventTimestampError(f"{self!r} was never recorded",
                                      hint="record_event it on a stream before timing with it")
        if not record.done.is_set():
            raise EventNotCompleteError(f"{self!r} has not completed yet",
                                        hint="synchronize the stream or the event before reading its time")
        return record.timestamp
