"""Events: record, query, reset, synchronize, cross-stream waits, modeled elapsed time."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import aclsim
from aclsim import errors

H2D, D2H = aclsim.MemcpyKind.HOST_TO_DEVICE, aclsim.MemcpyKind.DEVICE_TO_HOST
NOT_READY, COMPLETE = aclsim.EventRecordedStatus.NOT_READY, aclsim.EventRecordedStatus.COMPLETE


def _hold(stream: aclsim.Stream | None) -> threading.Event:
    gate = threading.Event()
    aclsim.launch_function(lambda: (gate.wait(5), 0.0)[1], label="gate", stream=stream)
    return gate


def _ms(chip: aclsim.ChipSpec, nbytes: int) -> float:
    return chip.host_copy_seconds(nbytes) * 1e3


def test_enum_values() -> None:
    assert (NOT_READY, COMPLETE) == (0, 1)
    assert (aclsim.EventStatus.COMPLETE, aclsim.EventStatus.NOT_READY) == (0, 1)


def test_create_event_flags(rt: None) -> None:
    for flags in (0, 0x1, 0x8, 0x1 | 0x8 | 0x40):
        ev = aclsim.create_event(flags)
        assert ev.flags == flags
        aclsim.destroy_event(ev)
    for bad in (0x4, 0x80, -1):
        with pytest.raises(errors.InvalidParamError):
            aclsim.create_event(bad)


def test_destroy_event_twice(rt: None) -> None:
    ev = aclsim.create_event()
    aclsim.destroy_event(ev)
    for call in (lambda: aclsim.destroy_event(ev), lambda: aclsim.record_event(ev),
                 lambda: aclsim.query_event_status(ev), lambda: aclsim.synchronize_event(ev)):
        with pytest.raises(errors.InvalidHandleError) as info:
            call()
        assert info.value.code == 107017
    with pytest.raises(errors.InvalidParamError):
        aclsim.destroy_event(object())  # type: ignore[arg-type]


def test_record_and_query_status(rt: None) -> None:
    s = aclsim.create_stream()
    ev = aclsim.create_event()
    assert aclsim.query_event_status(ev) == NOT_READY  # never recorded
    assert aclsim.query_event(ev) == aclsim.EventStatus.COMPLETE  # older API: counts as complete
    gate = _hold(s)
    aclsim.record_event(ev, s)
    assert aclsim.query_event_status(ev) == NOT_READY == 0
    assert aclsim.query_event(ev) == aclsim.EventStatus.NOT_READY == 1
    gate.set()
    aclsim.synchronize_event(ev)
    assert aclsim.query_event_status(ev) == COMPLETE == 1
    assert aclsim.query_event(ev) == aclsim.EventStatus.COMPLETE == 0


def test_reset_event(rt: None) -> None:
    ev = aclsim.create_event()
    aclsim.record_event(ev)
    aclsim.synchronize_stream()
    assert aclsim.query_event_status(ev) == COMPLETE
    aclsim.reset_event(ev)
    aclsim.synchronize_stream()
    assert aclsim.query_event_status(ev) == NOT_READY
    with pytest.raises(errors.EventTimestampError):
        aclsim.event_elapsed_time(ev, ev)
    aclsim.synchronize_event(ev)  # not recorded: returns at once


def test_reset_event_happens_in_stream_order(rt: None) -> None:
    s = aclsim.create_stream()
    ev = aclsim.create_event()
    aclsim.record_event(ev, s)
    aclsim.synchronize_stream(s)
    gate = _hold(s)
    aclsim.reset_event(ev, s)
    assert aclsim.query_event_status(ev) == COMPLETE  # the reset has not been reached yet
    gate.set()
    aclsim.synchronize_stream(s)
    assert aclsim.query_event_status(ev) == NOT_READY


def test_record_after_reset_is_kept(rt: None) -> None:
    s = aclsim.create_stream()
    ev = aclsim.create_event()
    gate = _hold(s)
    aclsim.record_event(ev, s)
    aclsim.reset_event(ev, s)
    aclsim.record_event(ev, s)  # the latest record: the event completes when s reaches it
    gate.set()
    aclsim.synchronize_stream(s)
    assert aclsim.query_event_status(ev) == COMPLETE


def test_synchronize_event(rt: None) -> None:
    s = aclsim.create_stream()
    ev = aclsim.create_event()
    aclsim.synchronize_event(ev)  # never recorded
    gate = _hold(s)
    aclsim.record_event(ev, s)
    t0 = time.monotonic()
    with pytest.raises(errors.EventSyncTimeoutError) as info:
        aclsim.synchronize_event(ev, timeout=0.05)
    assert time.monotonic() - t0 < 2
    assert info.value.code == 507047
    threading.Timer(0.05, gate.set).start()
    aclsim.synchronize_event(ev, timeout=5)
    assert aclsim.query_event_status(ev) == COMPLETE


def test_stream_wait_event_orders_two_streams(rt: None) -> None:
    a, b = aclsim.create_stream(), aclsim.create_stream()
    buf = aclsim.malloc(64)
    aclsim.memset(buf, 64, 0, 64)
    data = np.full(64, 9, dtype=np.uint8)
    ev = aclsim.create_event()
    gate = _hold(a)
    aclsim.record_event(ev, a)
    aclsim.stream_wait_event(b, ev)
    aclsim.memcpy_async(buf, 64, data, 64, H2D, b)
    time.sleep(0.1)
    assert not aclsim.query_stream(b)  # b waits for a, which is held
    peek = np.ones(64, dtype=np.uint8)
    aclsim.memcpy(peek, 64, buf, 64, D2H)  # synchronous read, no stream sync
    assert not peek.any()
    gate.set()
    aclsim.synchronize_stream(b)
    aclsim.memcpy(peek, 64, buf, 64, D2H)
    assert np.array_equal(peek, data)


def test_stream_wait_event_uses_record_at_submit_time(rt: None) -> None:
    a, b = aclsim.create_stream(), aclsim.create_stream()
    ev = aclsim.create_event()
    aclsim.record_event(ev, a)
    aclsim.synchronize_stream(a)
    aclsim.stream_wait_event(b, ev)  # the completed record: no wait
    gate = _hold(a)
    aclsim.record_event(ev, a)  # a later record does not affect the wait already queued
    aclsim.synchronize_stream(b, timeout=2)
    gate.set()


def test_stream_wait_event_never_recorded_is_noop(rt: None) -> None:
    s = aclsim.create_stream()
    aclsim.stream_wait_event(s, aclsim.create_event())
    aclsim.stream_wait_event(None, aclsim.create_event())
    aclsim.synchronize_stream(s, timeout=2)


def test_elapsed_time_equals_modeled_copy_time(rt: None) -> None:
    chip = aclsim.get_chip("tiny")
    s = aclsim.create_stream()
    n = 3 << 20
    buf = aclsim.malloc(n)
    host = np.zeros(n, dtype=np.uint8)
    start, end = aclsim.create_event(), aclsim.create_event()
    aclsim.record_event(start, s)
    aclsim.memcpy_async(buf, n, host, n, H2D, s)
    aclsim.record_event(end, s)
    aclsim.synchronize_stream(s)
    ms = aclsim.event_elapsed_time(start, end)
    assert ms == pytest.approx(_ms(chip, n), rel=1e-12, abs=1e-12)
    assert aclsim.event_elapsed_time(end, start) == pytest.approx(-ms, rel=1e-12)
    assert aclsim.event_elapsed_time(start, start) == 0.0
    # D2H and several copies add up
    aclsim.record_event(start, s)
    aclsim.memcpy_async(host, n, buf, n, D2H, s)
    aclsim.memcpy_async(host, 1000, buf, 1000, D2H, s)
    aclsim.record_event(end, s)
    aclsim.synchronize_event(end)
    assert aclsim.event_elapsed_time(start, end) == pytest.approx(_ms(chip, n) + _ms(chip, 1000),
                                                                  rel=1e-12, abs=1e-12)


def test_elapsed_time_memset_and_d2d(rt: None) -> None:
    chip = aclsim.get_chip("tiny")
    a, b = aclsim.malloc(1 << 20), aclsim.malloc(1 << 20)
    e0, e1, e2 = aclsim.create_event(), aclsim.create_event(), aclsim.create_event()
    aclsim.record_event(e0)
    aclsim.memset_async(a, 1 << 20, 5, 1 << 20)
    aclsim.record_event(e1)
    aclsim.memcpy_async(b, 1 << 20, a, 1 << 20, aclsim.MemcpyKind.DEVICE_TO_DEVICE)
    aclsim.record_event(e2)
    aclsim.synchronize_stream()
    assert aclsim.event_elapsed_time(e0, e1) == pytest.approx(chip.device_fill_seconds(1 << 20) * 1e3,
                                                              rel=1e-12)
    assert aclsim.event_elapsed_time(e1, e2) == pytest.approx(chip.device_copy_seconds(1 << 20) * 1e3,
                                                              rel=1e-12)


@pytest.mark.parametrize("a_bytes, b_bytes", [(4 << 20, 1 << 20), (1 << 20, 4 << 20)])
def test_cross_stream_wait_takes_later_clock(rt: None, a_bytes: int, b_bytes: int) -> None:
    chip = aclsim.get_chip("tiny")
    a, b = aclsim.create_stream(), aclsim.create_stream()  # both start at the same device time
    buf = aclsim.malloc(4 << 20)
    host = np.zeros(4 << 20, dtype=np.uint8)
    a0, a1, b0, b1 = (aclsim.create_event() for _ in range(4))
    aclsim.record_event(a0, a)
    aclsim.record_event(b0, b)
    aclsim.memcpy_async(buf, a_bytes, host, a_bytes, H2D, a)
    aclsim.record_event(a1, a)
    aclsim.memcpy_async(host, b_bytes, buf, b_bytes, D2H, b)
    aclsim.stream_wait_event(b, a1)
    aclsim.record_event(b1, b)
    aclsim.synchronize_device()
    assert aclsim.event_elapsed_time(a0, b0) == 0.0
    expected = max(_ms(chip, a_bytes), _ms(chip, b_bytes))
    assert aclsim.event_elapsed_time(b0, b1) == pytest.approx(expected, rel=1e-12)
    assert aclsim.event_elapsed_time(a0, a1) == pytest.approx(_ms(chip, a_bytes), rel=1e-12)


def test_new_stream_starts_at_device_high_water_mark(rt: None) -> None:
    s = aclsim.create_stream()
    buf = aclsim.malloc(1 << 20)
    e0, e1 = aclsim.create_event(), aclsim.create_event()
    aclsim.record_event(e0, s)
    aclsim.memcpy_async(buf, 1 << 20, np.zeros(1 << 20, np.uint8), 1 << 20, H2D, s)
    aclsim.synchronize_stream(s)
    late = aclsim.create_stream()
    aclsim.record_event(e1, late)
    aclsim.synchronize_stream(late)
    chip = aclsim.get_chip("tiny")
    assert aclsim.event_elapsed_time(e0, e1) == pytest.approx(_ms(chip, 1 << 20), rel=1e-12)


def test_elapsed_time_errors(rt: None) -> None:
    recorded, never = aclsim.create_event(), aclsim.create_event()
    aclsim.record_event(recorded)
    aclsim.synchronize_stream()
    for args in ((never, recorded), (recorded, never), (never, never)):
        with pytest.raises(errors.EventTimestampError) as info:
            aclsim.event_elapsed_time(*args)
        assert info.value.code == 107006
    s = aclsim.create_stream()
    pending = aclsim.create_event()
    gate = _hold(s)
    aclsim.record_event(pending, s)
    with pytest.raises(errors.EventNotCompleteError) as info2:
        aclsim.event_elapsed_time(recorded, pending)
    assert info2.value.code == 507006
    gate.set()
    aclsim.synchronize_stream(s)
    assert aclsim.event_elapsed_time(recorded, pending) >= 0.0
