"""The allocation history, an observer of the pool (as CuPy's ``MemoryHook`` s observe its pool).

The pool and its segment sources hand every event to their :class:`PoolObserver` (``alloc``,
``free_requested``, ``free_completed``, ``segment_alloc``/``segment_free``/``segment_map``/
``segment_unmap``, ``oom``) and nothing else; an observer never touches the pool.  An event
is a plain tuple (:data:`Event`), made with :func:`event`, or inline on the pool's hit path
(the observer's ``append`` may be a ring buffer's own, so that recording costs no Python call).
:class:`History` keeps the last events in a ring buffer; the memory debugger
(:mod:`aclsim.runtime.memdebug`) turns them into PyTorch trace entries and plots.
"""

from __future__ import annotations

import collections
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol

#: ``(action, offset, size, stream, time_ns, frames, extra)``: ``offset``/``size`` of the block
#: or the segment, ``stream`` the block's owner or the stream whose request made the segment,
#: ``frames`` the Python frames outside aclsim (innermost first) when the observer wants
#: ``stacks``, ``extra`` (``oom``) ``{"device_free": bytes}``.
Event = tuple[str, int, int, Any, int, "list[tuple[str, int, str]] | None", "dict[str, int] | None"]

PACKAGE_DIR = str(Path(__file__).resolve().parents[2])  # src/aclsim: frames in it are not the user's

now = time.perf_counter_ns  # the clock of events


class PoolObserver(Protocol):
    """What the pool tells of its events (while it holds the device's memory lock)."""

    #: whether events carry the Python frames of the code that caused them (costly)
    stacks: bool

    def append(self, event: Event) -> None:
        """One event, in the order they happen."""


def event(action: str, addr: int, size: int, stream: Any, stacks: bool,
          extra: dict[str, int] | None = None) -> Event:
    """An event happening now; with the caller's frames when ``stacks``."""
    return (action, addr, size, stream, now(), user_frames() if stacks else None, extra)


class History(collections.deque[Event]):
    """The last ``max_entries`` events, oldest first (a ring buffer: its ``append`` is the
    deque's own); ``stacks``: with the Python frames of each event (outside aclsim, innermost
    first).

    >>> h = History(2)
    >>> for action in ("alloc", "free_requested", "free_completed"):
    ...     h.append(event(action, 0, 512, None, h.stacks))
    >>> [e[0] for e in h]
    ['free_requested', 'free_completed']
    """

    __slots__ = ("stacks",)

    def __init__(self, max_entries: int, stacks: bool = False, events: Iterable[Event] = ()) -> None:
        if max_entries <= 0:
            raise ValueError(f"max_entries must be > 0, got {max_entries}")
        super().__init__(events, maxlen=max_entries)
        self.stacks = stacks


def user_frames(limit: int = 16) -> list[tuple[str, int, str]]:
    """``(filename, line, function)`` of the calling frames outside aclsim, innermost first,
    from the caller's caller on (the caller records an event: it is aclsim's)."""
    out: list[tuple[str, int, str]] = []
    frame = sys._getframe(2)
    while frame is not None and len(out) < limit:
        code = frame.f_code
        if not code.co_filename.startswith(PACKAGE_DIR):
            out.append((code.co_filename, frame.f_lineno, code.co_name))
        frame = frame.f_back  # type: ignore[assignment]
    return out
