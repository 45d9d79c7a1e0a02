"""Streams: in-order asynchronous task queues, each run by its own worker thread.

Every task advances the stream's simulated device clock by its modeled duration;
a wait on an event takes the later of the two clocks.  A failing task does not stop
the stream: its error is kept and raised by the stream's next synchronize.
"""

from __future__ import annotations

import abc
import collections
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from aclsim.errors import (
    DeadlockError,
    InvalidHandleError,
    InvalidParamError,
    MemoryFreeError,
    StreamSyncTimeoutError,
    TaskError,
)
from aclsim.runtime._state import caller_site, check_int
from aclsim.runtime.enums import STREAM_FLAGS
from aclsim.runtime.event import Event, Record

if TYPE_CHECKING:
    from aclsim.runtime.context import Context
    from aclsim.runtime.memory import Buffer

_POLL_S = 0.02  # how often a blocked wait re-checks for deadlock and timeout
_DEADLOCK_GRACE_S = 0.1  # how long a wait must have lasted before deadlock checks start


class Task(abc.ABC):
    """One unit of stream work.  ``run`` executes it and advances ``stream.clock``."""

    __slots__ = ("label", "site")

    def __init__(self, label: str, site: str) -> None:
        self.label = label
        self.site = site

    @abc.abstractmethod
    def run(self, stream: Stream) -> None:
        """Execute the task on the stream's worker thread."""

    def stuck_reason(self, seen: set[int]) -> str | None:
        """Why this task can never finish, or None if it can (or we cannot tell)."""
        return None

    def describe(self) -> str:
        return f"{self.label} (submitted at {self.site})"


def _check_alive(buffers: tuple[Buffer, ...], label: str) -> None:
    for buf in buffers:
        if not buf.alive:
            freed = f" at {buf.free_site}" if buf.free_site else ""
            raise MemoryFreeError(f"{buf!r} (allocated at {buf.site}) was freed{freed} before the queued "
                                  f"{label} ran",
                                  hint="synchronize the stream before freeing memory its tasks use")


class CopyTask(Task):
    __slots__ = ("dst", "src", "seconds", "buffers", "keepalive", "host_regions")

    def __init__(self, label: str, site: str, dst: np.ndarray, src: np.ndarray, seconds: float,
                 buffers: tuple[Buffer, ...], keepalive: tuple[object, ...],
                 host_regions: tuple[Any, ...] = ()) -> None:
        super().__init__(label, site)
        self.dst, self.src, self.seconds = dst, src, seconds
        self.buffers, self.keepalive = buffers, keepalive
        self.host_regions = host_regions

    def run(self, stream: Stream) -> None:
        _check_alive(self.buffers, self.label)
        np.copyto(self.dst, self.src)
        stream.clock += self.seconds


class FillTask(Task):
    __slots__ = ("dst", "value", "seconds", "buffers", "keepalive", "host_regions")

    def __init__(self, label: str, site: str, dst: np.ndarray, value: int, seconds: float,
                 buffers: tuple[Buffer, ...], keepalive: tuple[object, ...],
                 host_regions: tuple[Any, ...] = ()) -> None:
        super().__init__(label, site)
        self.dst, self.value, self.seconds = dst, value, seconds
        self.buffers, self.keepalive = buffers, keepalive
        self.host_regions = host_regions

    def run(self, stream: Stream) -> None:
        _check_alive(self.buffers, self.label)
        self.dst.fill(self.value)
        stream.clock += self.seconds


class FunctionTask(Task):
    """Runs ``fn()`` on the stream; ``fn`` returns the modeled device seconds it took."""

    __slots__ = ("fn", "buffers")

    def __init__(self, label: str, site: str, fn: Callable[[], float], buffers: tuple[Buffer, ...]) -> None:
        super().__init__(label, site)
        self.fn, self.buffers = fn, buffers

    def run(self, stream: Stream) -> None:
        _check_alive(self.buffers, self.label)
        stream.clock += float(self.fn())


class RecordTask(Task):
    __slots__ = ("record",)

    def __init__(self, label: str, site: str, record: Record) -> None:
        super().__init__(label, site)
        self.record = record

    def run(self, stream: Stream) -> None:
        self.record.complete(stream.clock)


class ResetEventTask(Task):
    """Resets the event to "not recorded", unless it was recorded again after this reset was queued."""

    __slots__ = ("event", "record")

    def __init__(self, label: str, site: str, event: Any) -> None:
        super().__init__(label, site)
        self.event = event
        self.record = event.last_record

    def run(self, stream: Stream) -> None:
        if self.event.last_record is self.record:
            self.event.reset_now()


class WaitTask(Task):
    __slots__ = ("record",)

    def __init__(self, label: str, site: str, record: Record) -> None:
        super().__init__(label, site)
        self.record = record

    def run(self, stream: Stream) -> None:
        while not self.record.done.wait(0.5):
            if stream.closing and stream.abandon:
                raise DeadlockError(f"{self.label} abandoned: the stream was torn down while waiting")
        stream.clock = max(stream.clock, self.record.timestamp)

    def stuck_reason(self, seen: set[int]) -> str | None:
        if self.record.done.is_set():
            return None
        producer = self.record.stream
        reason = producer.stuck_reason(seen)
        return None if reason is None else f"{self.describe()} waits on {producer!r}, which {reason}"


class Report:
    """A callback posted by a stream to the thread subscribed to it."""

    __slots__ = ("fn", "user_data", "stream", "blocking", "done", "error", "picked", "task")

    def __init__(self, fn: Callable[[Any], Any], user_data: Any, stream: Stream, blocking: bool,
                 task: Task) -> None:
        self.fn, self.user_data, self.stream, self.blocking = fn, user_data, stream, blocking
        self.done = threading.Event()
        self.error: BaseException | None = None
        self.picked = False
        self.task = task


class CallbackTask(Task):
    """A ``launch_callback``: posts a :class:`Report` to the subscribed thread.

    The subscriber is held as its :class:`threading.Thread` object, never by its id: the OS
    hands a dead thread's id to the next thread it starts, so an id cannot tell a live
    subscriber from a new thread that happens to have the same number.
    """

    __slots__ = ("fn", "user_data", "blocking", "thread", "report")

    def __init__(self, label: str, site: str, fn: Callable[[Any], Any], user_data: Any, blocking: bool,
                 thread: threading.Thread) -> None:
        super().__init__(label, site)
        self.fn, self.user_data, self.blocking, self.thread = fn, user_data, blocking, thread
        self.report: Report | None = None

    def run(self, stream: Stream) -> None:
        report = Report(self.fn, self.user_data, stream, self.blocking, self)
        self.report = report
        state = stream.device.state
        with state.report_cond:
            state.reports.setdefault(self.thread, []).append(report)
            state.report_cond.notify_all()
        if not self.blocking:
            return
        while not report.done.wait(0.5):
            if stream.closing and stream.abandon:
                raise DeadlockError(f"{self.label} abandoned: nobody processed the callback")
            if not report.picked and not self.thread.is_alive():
                raise DeadlockError(f"{self.label} can never run: its subscribed thread "
                                    f"{self.thread.ident} has exited without calling process_report")
        if report.error is not None:
            raise report.error

    def stuck_reason(self, seen: set[int]) -> str | None:
        report = self.report
        if not self.blocking or report is None or report.picked:
            return None
        if not self.thread.is_alive():
            return (f"is blocked on {self.describe()}, whose subscribed thread {self.thread.ident} has "
                    "exited without calling process_report")
        if threading.current_thread() is self.thread:  # stuck_reason runs in the waiting thread
            return (f"is blocked on {self.describe()}, which only this thread ({self.thread.ident}) can "
                    "process, and this thread is waiting for the stream")
        return None


@dataclass(frozen=True, kw_only=True)
class StreamOptions:
    """How to create a stream (``aclrtCreateStreamWithConfig``): ``ACL_STREAM_*`` ``flags``
    and a ``priority``, both validated here.

    >>> StreamOptions(flags=0x1).flags
    1
    """

    flags: int = 0
    priority: int = 0

    def __post_init__(self) -> None:
        flags = check_int("flags", self.flags)
        if flags & ~STREAM_FLAGS:
            raise InvalidParamError(f"unknown stream flags {flags:#x}")
        check_int("priority", self.priority)


class Stream:
    """An in-order asynchronous task queue on one device.

    Create streams with :func:`aclsim.create_stream`; ``None`` stands for the default
    stream of the current context wherever a stream is accepted.

    Its verbs: :meth:`record` and :meth:`wait` (events), :meth:`launch` (device work),
    :meth:`synchronize`, :meth:`query` and :meth:`close` (``aclrtDestroyStream``).

    >>> import aclsim
    >>> aclsim.init(chip="tiny"); aclsim.set_device(0)
    >>> s = aclsim.create_stream(); e = aclsim.create_event()
    >>> s.launch(lambda: 1e-6, label="work"); s.record(e); s.synchronize(); e.query()
    True
    >>> e.close(); s.close(); aclsim.reset_device(0); aclsim.finalize()
    []
    """

    def __init__(self, context: Context, *, is_default: bool, site: str, flags: int = 0,
                 priority: int = 0) -> None:
        self.context = context
        self.device = context.device
        self.is_default = is_default
        self.site = site
        self.flags = flags
        self.priority = priority
        self.clock = context.device.clock_hwm  # seconds of modeled device time
        self.alive = True
        self.closing = False
        self.abandon = False
        self._tasks: collections.deque[Task] = collections.deque()
        self._cond = threading.Condition(threading.Lock())
        self._submitted = 0
        self._completed = 0
        self._errors: list[tuple[Task, BaseException]] = []
        self._worker: threading.Thread | None = None
        self.handle = self.device.state.handles.register(self)

    def __repr__(self) -> str:
        kind = " default" if self.is_default else ""
        state = "" if self.alive else " destroyed"
        return f"<Stream 0x{self.handle:x}{kind} npu:{self.device.id}{state}>"

    # --- submission and execution ---------------------------------------------------
    def submit(self, task: Task) -> None:
        with self._cond:
            if not self.alive or self.closing:
                raise InvalidHandleError(f"{self!r} is destroyed", hint="create a new stream")
            self._tasks.append(task)
            self._submitted += 1
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name=f"aclsim-stream-{self.handle:x}",
                                                daemon=True)
                self._worker.start()
            self._cond.notify()
        # the memory this task touches: a free waits for this stream before another reuses it
        for buf in getattr(task, "buffers", ()):
            if buf.stream is not self and buf.memory is not None:
                buf.memory.record_use(buf, self)
        for region in getattr(task, "host_regions", ()):
            region.record_use(self)

    # --- verbs ----------------------------------------------------------------------------
    def record(self, event: Event) -> None:
        """Place ``event`` here (``aclrtRecordEvent``): it completes when the stream reaches it."""
        record = Record(self)
        self.submit(RecordTask(f"record_event({event!r})", caller_site(), record))
        event.last_record = record

    def reset(self, event: Event) -> None:
        """Return ``event`` to "not recorded" when the stream reaches this point (``aclrtResetEvent``)."""
        self.submit(ResetEventTask(f"reset_event({event!r})", caller_site(), event))

    def wait(self, event: Event) -> None:
        """Make later tasks wait for ``event``'s latest record (``aclrtStreamWaitEvent``); an
        event never recorded is nothing to wait for."""
        record = event.last_record
        if record is not None:
            self.submit(WaitTask(f"stream_wait_event({event!r})", caller_site(), record))

    def launch(self, fn: Callable[[], float], *, label: str = "function",
               buffers: Sequence[Buffer] = ()) -> None:
        """Queue ``fn()``, device-side work that returns its modeled seconds; ``buffers`` are
        the device memory it uses (a free waits for it)."""
        if not callable(fn):
            raise InvalidParamError(f"fn must be callable, got {type(fn).__name__}")
        self.submit(FunctionTask(label, caller_site(), fn, tuple(buffers)))

    def close(self, *, force: bool = False) -> None:
        """Destroy the stream once its queued work is done (``aclrtDestroyStream``); with
        ``force`` (``aclrtDestroyStreamForce``) without waiting: queued copies still run, but
        waits on events and blocking callbacks nobody will complete are abandoned."""
        if self.is_default:
            raise InvalidParamError(f"{self!r} is a default stream",
                                    hint="default streams cannot be destroyed")
        if force:
            self.shutdown(abandon=True)
        else:
            self.wait_idle()
        with self.device.state.lock:
            if not force:
                self.shutdown()
            if self in self.context.streams:
                self.context.streams.remove(self)

    # --- stream order, as the memory pool sees it ------------------------------------
    def ticket(self) -> int:
        """A position in the queue: the number of tasks submitted so far."""
        return self._submitted

    def reached(self, ticket: int) -> bool:
        """True once the first ``ticket`` tasks have finished."""
        return self._completed >= ticket

    def wait_for(self, ticket: int) -> None:
        """Block until :meth:`reached` (deadlocks are reported, as by :meth:`wait_idle`)."""
        self.wait_idle(target=ticket)

    def _work(self) -> None:
        device = self.device
        while True:
            with self._cond:
                while not self._tasks and not self.closing:
                    self._cond.wait()
                if not self._tasks:
                    return
                task = self._tasks[0]
            try:
                task.run(self)
            except BaseException as exc:  # noqa: BLE001 - any failure is reported at synchronize
                with self._cond:
                    self._errors.append((task, exc))
            if self.clock > device.clock_hwm:
                device.clock_hwm = self.clock
            with self._cond:
                self._tasks.popleft()
                self._completed += 1
                self._cond.notify_all()

    def add_error(self, task: Task, exc: BaseException) -> None:
        with self._cond:
            self._errors.append((task, exc))

    @property
    def pending(self) -> int:
        """Tasks submitted and not yet finished."""
        return self._submitted - self._completed

    def query(self) -> bool:
        """True when every submitted task has finished."""
        return self._completed >= self._submitted

    # --- waiting --------------------------------------------------------------------
    def stuck_reason(self, seen: set[int] | None = None) -> str | None:
        """Why this stream can never drain, or None."""
        seen = set() if seen is None else seen
        if id(self) in seen:
            return None
        seen.add(id(self))
        tasks = list(self._tasks)
        if not tasks:
            return None
        return tasks[0].stuck_reason(seen)

    def wait_idle(self, timeout_s: float | None = None, *, target: int | None = None) -> None:
        """Block until the tasks submitted so far (the first ``target``) have finished (no error
        reporting)."""
        target = self._submitted if target is None else target
        start = time.monotonic()
        deadline = None if timeout_s is None else start + timeout_s
        while True:
            with self._cond:
                if self._completed >= target:
                    return
                wait = _POLL_S
                if deadline is not None:
                    wait = min(wait, max(deadline - time.monotonic(), 0.0))
                self._cond.wait(wait)
                if self._completed >= target:
                    return
            now = time.monotonic()
            if timeout_s is not None and deadline is not None and now >= deadline:
                raise StreamSyncTimeoutError(
                    f"{self!r} still has {target - self._completed} task(s) running after "
                    f"{timeout_s * 1000:.0f} ms", hint="raise the timeout, or look for a task that waits "
                    "on an event or callback that never comes")
            if now - start > _DEADLOCK_GRACE_S:
                reason = self.stuck_reason()
                if reason is not None:
                    raise DeadlockError(f"deadlock: {self!r} {reason}",
                                        hint="call process_report from the subscribed thread, or use "
                                        "a non-blocking callback")

    def take_error(self) -> TaskError | None:
        with self._cond:
            errors, self._errors = self._errors, []
        if not errors:
            return None
        task, exc = errors[0]
        return TaskError(task.describe(), exc, more=len(errors) - 1)

    def synchronize(self, timeout_s: float | None = None) -> None:
        """Wait for every task submitted so far; raise the first failure among them.

        ``timeout_s`` (seconds, None = forever) raises :class:`StreamSyncTimeoutError`.
        """
        self.wait_idle(timeout_s)
        error = self.take_error()
        if error is not None:
            raise error

    # --- teardown ----------------------------------------------------------------------
    def shutdown(self, *, abandon: bool = False) -> None:
        """Stop the worker after the queued tasks, without waiting for them to be done first
        (``abandon`` stops waits that never end): teardown by the context, the device and
        finalize; users call :meth:`close`."""
        with self._cond:
            self.closing = True
            self.abandon = abandon
            self._cond.notify_all()
        worker = self._worker
        if worker is not None and worker is not threading.current_thread():
            worker.join(timeout=None if not abandon else 2.0)
        self.alive = False
        state = self.device.state
        state.handles.release(self.handle)
        with state.lock:
            state.subscriptions.pop(self, None)
        memory = self.device.memory
        if memory is not None:
            memory.drop_stream(self)  # its cached memory goes back; live blocks stay
