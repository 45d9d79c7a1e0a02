"""Host callbacks on streams (``aclrtSubscribeReport``, ``aclrtLaunchCallback``,
``aclrtProcessReport``): a subscribed thread runs the callbacks its streams post.

A subscriber is remembered as the thread itself, not as its id: the OS hands the id of a
thread that has exited to the next thread it starts, so an id alone cannot tell a live
subscriber from a newcomer.  A blocking callback for a subscriber that has exited is a
deadlock (507046), never a hang.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from aclsim.errors import (
    InvalidParamError,
    RepeatSubscribeError,
    ReportTimeoutError,
    StreamNotSubscribedError,
    ThreadNotSubscribedError,
    UninitializedError,
)
from aclsim.runtime import foreign, lookup
from aclsim.runtime._state import caller_site, check_int
from aclsim.runtime.enums import CallbackBlockType
from aclsim.runtime.lookup import stream_or_default
from aclsim.runtime.stream import CallbackTask, Stream

__all__ = ["launch_callback", "process_report", "subscribe_report", "unsubscribe_report"]


def _live_thread(thread_id: int) -> threading.Thread | None:
    for thread in threading.enumerate():
        if thread.ident == thread_id:
            return thread
    return None


class NativeThread(threading.Thread):
    """A subscriber named by a C caller with a ``pthread_t`` that Python has not seen yet (a
    C thread that has not called AscendCL, or not since it started): any live thread is a
    legal subscriber on the device.  It stands for the thread until that thread's
    :func:`process_report` claims its callbacks.  Python cannot observe a native thread's
    end, so it counts as alive (docs/capi.md)."""

    def __init__(self, ident: int) -> None:
        super().__init__(name=f"native-thread-{ident}", daemon=True)  # never started: a stand-in
        self._ident = ident

    def is_alive(self) -> bool:
        return True

    def __repr__(self) -> str:
        return f"<NativeThread {self.ident}>"


def subscribe_report(thread_id: int, stream: Stream | None = None) -> None:
    """Route the stream's callbacks to the thread ``thread_id`` (``aclrtSubscribeReport``).

    The subscriber is remembered as the thread itself, not as its id, which the OS reuses
    once the thread has exited: a callback for a subscriber that has exited is reported as a
    deadlock (507046), never handed to a new thread that happens to have the same id.
    """
    state = lookup.state()
    s = stream_or_default(stream, for_submit=False)
    thread_id = check_int("thread_id", thread_id, minimum=1)
    thread = _live_thread(thread_id)
    if thread is None and foreign.current() is not None:
        thread = NativeThread(thread_id)  # a C thread id: Python may not know the thread yet
    if thread is None:
        raise InvalidParamError(f"no live thread has id {thread_id}",
                                hint="pass the id from acl.util.start_thread or threading.get_ident()")
    with state.lock:
        if s in state.subscriptions:
            owner = state.subscriptions[s].ident
            raise RepeatSubscribeError(f"{s!r} is already subscribed by thread {owner}")
        state.subscriptions[s] = thread


def unsubscribe_report(thread_id: int, stream: Stream | None = None) -> None:
    state = lookup.state()
    s = stream_or_default(stream, for_submit=False)
    with state.lock:
        owner = state.subscriptions.get(s)
        if owner is None:
            raise StreamNotSubscribedError(f"{s!r} has no subscribed thread")
        if owner.ident != thread_id:
            raise ThreadNotSubscribedError(f"{s!r} is subscribed by thread {owner.ident}, not {thread_id}")
        del state.subscriptions[s]


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
    s = stream_or_default(stream)
    thread = lookup.state().subscriptions.get(s)
    if thread is None:
        raise StreamNotSubscribedError(f"no thread is subscribed to {s!r}",
                                       hint="call subscribe_report(thread_id, stream) first")
    name = getattr(fn, "__name__", "callback")
    s.submit(CallbackTask(f"launch_callback({name})", caller_site(), fn, user_data,
                          block == CallbackBlockType.BLOCK, thread))


def _subscriber_keys(state: Any, me: threading.Thread) -> list[threading.Thread]:
    """``me``, and the :class:`NativeThread` subscribers that stand for it."""
    candidates = (*state.subscriptions.values(), *state.reports)
    natives: list[threading.Thread] = [
        t for t in candidates if isinstance(t, NativeThread) and t.ident == me.ident]
    return [me, *dict.fromkeys(natives)]


def process_report(timeout: float | None = None) -> int:
    """Run the callbacks waiting for this thread; wait up to ``timeout`` seconds (None = for
    ever) for the first.  Returns how many ran; :class:`ReportTimeoutError` if none came."""
    state = lookup.state()
    state.require_init()
    me = threading.current_thread()
    tid = me.ident
    deadline = None if timeout is None else time.monotonic() + max(timeout, 0.0)
    with state.report_cond:
        keys = _subscriber_keys(state, me)
        if not any(k in state.subscriptions.values() or state.reports.get(k) for k in keys):
            raise ThreadNotSubscribedError(f"thread {tid} is not subscribed to any stream",
                                           hint="call subscribe_report(thread_id, stream) first")
        while not any(state.reports.get(k) for k in keys):
            remaining = 0.05 if deadline is None else deadline - time.monotonic()
            if remaining <= 0:
                raise ReportTimeoutError(f"no callback for thread {tid} within {timeout * 1000:.0f} ms"
                                         if timeout is not None else "no callback")
            state.report_cond.wait(min(remaining, 0.05))
            if not state.initialized:
                raise UninitializedError("finalize ran while process_report was waiting")
        batch = [r for k in keys for r in state.reports.pop(k, [])]
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
