"""Callbacks: subscribe_report / launch_callback / process_report, and deadlock detection."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import aclsim
from aclsim import errors

BLOCK, NO_BLOCK = aclsim.CallbackBlockType.BLOCK, aclsim.CallbackBlockType.NO_BLOCK


class Reporter:
    """A thread that loops on process_report once it is subscribed (the pyACL pattern)."""

    def __init__(self) -> None:
        self.subscribed = threading.Event()
        self.stop = threading.Event()
        self.ran = 0
        self.errors: list[BaseException] = []
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    @property
    def ident(self) -> int:
        assert self.thread.ident is not None
        return self.thread.ident

    def _loop(self) -> None:
        if not self.subscribed.wait(5):
            return
        while not self.stop.is_set():
            try:
                self.ran += aclsim.process_report(0.02)
            except errors.ReportTimeoutError:
                pass
            except BaseException as exc:  # noqa: BLE001
                self.errors.append(exc)
                return

    def close(self) -> None:
        self.stop.set()
        self.subscribed.set()
        self.thread.join(5)
        assert not self.thread.is_alive()


@pytest.fixture
def reporter(rt: None) -> Iterator[Reporter]:
    r = Reporter()
    yield r
    r.close()


def test_launch_callback_without_subscribe(rt: None) -> None:
    with pytest.raises(errors.StreamNotSubscribedError) as info:
        aclsim.launch_callback(lambda d: None, None, NO_BLOCK)
    assert info.value.code == 107015


def test_launch_callback_bad_args(rt: None) -> None:
    aclsim.subscribe_report(threading.get_ident())
    with pytest.raises(errors.InvalidParamError):
        aclsim.launch_callback("not callable", None, NO_BLOCK)  # type: ignore[arg-type]
    with pytest.raises(errors.InvalidParamError):
        aclsim.launch_callback(lambda d: None, None, 2)
    aclsim.unsubscribe_report(threading.get_ident())


def test_subscribe_twice(rt: None) -> None:
    tid = threading.get_ident()
    s = aclsim.create_stream()
    aclsim.subscribe_report(tid, s)
    with pytest.raises(errors.RepeatSubscribeError) as info:
        aclsim.subscribe_report(tid, s)
    assert info.value.code == 100033
    aclsim.subscribe_report(tid)  # a different stream is fine
    aclsim.unsubscribe_report(tid, s)
    aclsim.unsubscribe_report(tid)


def test_subscribe_bad_thread_id(rt: None) -> None:
    for bad in (0, -5, "x"):
        with pytest.raises(errors.InvalidParamError):
            aclsim.subscribe_report(bad)  # type: ignore[arg-type]
    dead = threading.Thread(target=lambda: None)
    dead.start()
    dead.join()
    with pytest.raises(errors.InvalidParamError, match="no live thread"):
        aclsim.subscribe_report(dead.ident)  # type: ignore[arg-type]


def test_unsubscribe_errors(rt: None) -> None:
    tid = threading.get_ident()
    with pytest.raises(errors.StreamNotSubscribedError) as info:
        aclsim.unsubscribe_report(tid)
    assert info.value.code == 107015
    aclsim.subscribe_report(tid)
    with pytest.raises(errors.ThreadNotSubscribedError) as info2:
        aclsim.unsubscribe_report(tid + 1)
    assert info2.value.code == 107012
    aclsim.unsubscribe_report(tid)
    with pytest.raises(errors.StreamNotSubscribedError):
        aclsim.launch_callback(lambda d: None, None, NO_BLOCK)


def test_worker_thread_runs_callbacks(reporter: Reporter) -> None:
    s = aclsim.create_stream()
    aclsim.subscribe_report(reporter.ident, s)
    reporter.subscribed.set()
    seen: list[tuple[Any, int]] = []
    buf = aclsim.malloc(64)
    data = np.arange(64, dtype=np.uint8)
    out = np.zeros(64, dtype=np.uint8)
    aclsim.memcpy_async(buf, 64, data, 64, aclsim.MemcpyKind.HOST_TO_DEVICE, s)
    aclsim.launch_callback(lambda d: seen.append((d, threading.get_ident())), {"step": 1}, BLOCK, s)
    aclsim.memcpy_async(out, 64, buf, 64, aclsim.MemcpyKind.DEVICE_TO_HOST, s)
    aclsim.launch_callback(lambda d: seen.append((d, threading.get_ident())), "two", NO_BLOCK, s)
    aclsim.synchronize_stream(s, timeout=5)
    deadline = time.monotonic() + 5
    while len(seen) < 2 and time.monotonic() < deadline:
        time.sleep(0.005)
    assert seen == [({"step": 1}, reporter.ident), ("two", reporter.ident)]
    assert np.array_equal(out, data)
    aclsim.unsubscribe_report(reporter.ident, s)
    assert not reporter.errors


def test_blocking_callback_holds_stream(reporter: Reporter) -> None:
    aclsim.subscribe_report(reporter.ident)
    reporter.subscribed.set()
    gate = threading.Event()
    entered = threading.Event()
    order: list[str] = []

    def cb(data: str) -> None:
        entered.set()
        gate.wait(5)
        order.append(data)

    aclsim.launch_callback(cb, "callback", BLOCK)
    aclsim.launch_function(lambda: (order.append("after"), 0.0)[1])
    assert entered.wait(5)
    time.sleep(0.05)
    assert not aclsim.query_stream()
    assert order == []
    gate.set()
    aclsim.synchronize_stream(timeout=5)
    assert order == ["callback", "after"]
    aclsim.unsubscribe_report(reporter.ident)


def test_non_blocking_callback_does_not_hold_stream(reporter: Reporter) -> None:
    aclsim.subscribe_report(reporter.ident)
    reporter.subscribed.set()
    gate = threading.Event()
    aclsim.launch_callback(lambda d: gate.wait(5), None, NO_BLOCK)
    aclsim.synchronize_stream(timeout=2)  # does not wait for the callback
    gate.set()
    aclsim.unsubscribe_report(reporter.ident)


def test_callback_exception_reported_at_synchronize(reporter: Reporter) -> None:
    aclsim.subscribe_report(reporter.ident)
    reporter.subscribed.set()

    def bad(data: object) -> None:
        raise ValueError(f"bad callback {data}")

    aclsim.launch_callback(bad, 1, BLOCK)
    with pytest.raises(errors.TaskError) as info:
        aclsim.synchronize_stream(timeout=5)
    assert "ValueError: bad callback 1" in str(info.value)
    aclsim.launch_callback(bad, 2, NO_BLOCK)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            aclsim.synchronize_stream(timeout=5)
        except errors.TaskError as exc:
            assert "bad callback 2" in str(exc)
            break
        time.sleep(0.01)
    else:
        pytest.fail("the non-blocking callback's error was never reported")
    aclsim.unsubscribe_report(reporter.ident)


def test_process_report_in_calling_thread(rt: None) -> None:
    tid = threading.get_ident()
    aclsim.subscribe_report(tid)
    got = []
    aclsim.launch_callback(got.append, "a", NO_BLOCK)
    aclsim.launch_callback(got.append, "b", NO_BLOCK)
    aclsim.synchronize_stream(timeout=5)
    n = 0
    while n < 2:
        n += aclsim.process_report(1.0)
    assert got == ["a", "b"]
    aclsim.unsubscribe_report(tid)


def test_process_report_timeout(rt: None) -> None:
    aclsim.subscribe_report(threading.get_ident())
    t0 = time.monotonic()
    with pytest.raises(errors.ReportTimeoutError) as info:
        aclsim.process_report(0.05)
    assert time.monotonic() - t0 < 2
    assert info.value.code == 507012
    with pytest.raises(errors.ReportTimeoutError):
        aclsim.process_report(0)
    aclsim.unsubscribe_report(threading.get_ident())


def test_process_report_thread_not_subscribed(rt: None) -> None:
    with pytest.raises(errors.ThreadNotSubscribedError) as info:
        aclsim.process_report(0.01)
    assert info.value.code == 107012


@pytest.mark.timeout(20)
def test_deadlock_detected_instead_of_hang(rt: None) -> None:
    tid = threading.get_ident()
    aclsim.subscribe_report(tid)
    ran = []
    aclsim.launch_callback(ran.append, "x", BLOCK)
    t0 = time.monotonic()
    with pytest.raises(errors.DeadlockError) as info:
        aclsim.synchronize_stream()
    assert time.monotonic() - t0 < 5
    assert info.value.code == 507046
    assert "deadlock" in str(info.value) and "process_report" in str(info.value)
    assert ran == []
    # the way out: process the callback, then the stream drains
    assert aclsim.process_report(1.0) == 1
    aclsim.synchronize_stream(timeout=5)
    assert ran == ["x"]
    aclsim.unsubscribe_report(tid)


@pytest.mark.timeout(20)
def test_deadlock_detected_through_event_wait(rt: None) -> None:
    tid = threading.get_ident()
    a, b = aclsim.create_stream(), aclsim.create_stream()
    aclsim.subscribe_report(tid, a)
    ev = aclsim.create_event()
    aclsim.launch_callback(lambda d: None, None, BLOCK, a)
    aclsim.record_event(ev, a)
    aclsim.stream_wait_event(b, ev)
    with pytest.raises(errors.DeadlockError):
        aclsim.synchronize_stream(b)
    with pytest.raises(errors.DeadlockError):
        aclsim.synchronize_event(ev)
    assert aclsim.process_report(1.0) == 1
    aclsim.synchronize_stream(b, timeout=5)
    aclsim.unsubscribe_report(tid, a)


@pytest.mark.timeout(20)
def test_deadlock_subscribed_thread_exited(rt: None) -> None:
    t = threading.Thread(target=time.sleep, args=(0.1,))
    t.start()
    assert t.ident is not None
    aclsim.subscribe_report(t.ident)
    aclsim.launch_callback(lambda d: None, None, BLOCK)
    t.join()
    with pytest.raises(errors.DeadlockError, match="exited"):
        aclsim.synchronize_stream()


@pytest.mark.timeout(30)
@pytest.mark.parametrize("how", ["reset_device", "destroy_context"])
def test_teardown_waits_for_queued_callback(reporter: Reporter, how: str) -> None:
    """reset_device / destroy_context drain the streams while a callback is still queued: the
    stream's worker must be able to hand the callback over meanwhile (no lock held)."""
    ctx = aclsim.create_context(0) if how == "destroy_context" else None
    s = aclsim.create_stream()
    aclsim.subscribe_report(reporter.ident, s)
    reporter.subscribed.set()
    gate = threading.Event()
    ran: list[object] = []
    aclsim.launch_function(lambda: (gate.wait(5), 0.0)[1], stream=s)
    aclsim.launch_callback(ran.append, "cb", BLOCK, s)
    outcome: list[object] = []

    def teardown() -> None:
        try:
            if ctx is None:
                aclsim.reset_device(0)  # the last reset drains every stream of the device
            else:
                aclsim.destroy_context(ctx)
            outcome.append("ok")
        except BaseException as exc:  # noqa: BLE001
            outcome.append(exc)

    worker = threading.Thread(target=teardown, daemon=True)
    worker.start()
    time.sleep(0.1)
    gate.set()
    worker.join(5)
    assert not worker.is_alive(), f"{how} did not return"
    assert outcome == ["ok"] and ran == ["cb"] and not reporter.errors
    assert not s.alive


@pytest.mark.timeout(30)
def test_finalize_with_queued_callback(reporter: Reporter) -> None:
    aclsim.subscribe_report(reporter.ident)
    reporter.subscribed.set()
    ran: list[object] = []
    gate = threading.Event()
    aclsim.launch_function(lambda: (gate.wait(5), 0.0)[1])
    aclsim.launch_callback(ran.append, "cb", BLOCK)
    threading.Timer(0.1, gate.set).start()
    aclsim.reset_device(0)
    assert aclsim.finalize() == []
    assert ran == ["cb"]


def test_non_blocking_callback_error_names_site_once(rt: None) -> None:
    tid = threading.get_ident()
    aclsim.subscribe_report(tid)

    def bad(data: object) -> None:
        raise ValueError("nope")

    aclsim.launch_callback(bad, None, NO_BLOCK)
    aclsim.synchronize_stream(timeout=5)
    assert aclsim.process_report(1.0) == 1
    with pytest.raises(errors.TaskError) as info:
        aclsim.synchronize_stream(timeout=5)
    assert info.value.task.count("submitted at") == 1, info.value.task
    assert __file__ in info.value.task
