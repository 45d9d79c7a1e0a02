"""Events: record, query, reset, synchronize, cross-stream waits, modeled elapsed time."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import npusim
from npusim import errors

H2D, D2H = npusim.MemcpyKind.HOST_TO_DEVICE, npusim.MemcpyKind.DEVICE_TO_HOST
NOT_READY, COMPLETE = npusim.EventRecordedStatus.NOT_READY, npusim.EventRecordedStatus.COMPLETE


def _hold(stream: npusim.Stream | None) -> threading.Event:
    gate = threading.Event()
    npusim.launch_function(lambda: (gate.wait(5), 0.0)[1], label="gate", stream=stream)
    return gate


def _ms(chip: npusim.ChipSpec, nbytes: int) -> float:
    return chip.host_copy_seconds(nbytes) * 1e3


def test_enum_values() -> None:
    assert (NOT_READY, COMPLETE) == (0, 1)
    assert (npusim.EventStatus.COMPLETE, npusim.EventStatus.NOT_READY) == (0, 1)


def test_create_event_flags(rt: None) -> None:
    for flags in (0, 0x1, 0x8, 0x1 | 0x8 | 0x40):
        ev = npusim.create_event(flags)
        assert ev.flags == flags
        npusim.destroy_event(ev)
    for bad in (0x4, 0x80, -1):
        with pytest.raises(errors.InvalidParamError):
            npusim.create_event(bad)


def test_destroy_event_twice(rt: None) -> None:
    ev = npusim.create_event()
    npusim.destroy_event(ev)
    for call in (lambda: npusim.destroy_event(ev), lambda: npusim.record_event(ev),
                 lambda: npusim.query_event_status(ev), lambda: npusim.synchronize_event(ev)):
        with pytest.raises(errors.InvalidHandleError) as info:
            call()
        assert info.value.code == 107017
    with pytest.raises(errors.InvalidParamError):
        npusim.destroy_event(object())  # type: ignore[arg-type]


def test_record_and_query_status(rt: None) -> None:
    s = npusim.create_stream()
    ev = npusim.create_event()
    assert npusim.query_event_status(ev) == NOT_READY  # never recorded
    assert npusim.query_event(ev) == npusim.EventStatus.COMPLETE  # older API: counts as complete
    gate = _hold(s)
    npusim.record_event(ev, s)
    assert npusim.query_event_status(ev) == NOT_READY == 0
    assert npusim.query_event(ev) == npusim.EventStatus.NOT_READY == 1
    gate.set()
    npusim.synchronize_event(ev)
    assert npusim.query_event_status(ev) == COMPLETE == 1
    assert npusim.query_event(ev) == npusim.EventStatus.COMPLETE == 0


def test_reset_event(rt: None) -> None:
    ev = npusim.create_event()
    npusim.record_event(ev)
    npusim.synchronize_stream()
    assert npusim.query_event_status(ev) == COMPLETE
    npusim.reset_event(ev)
    npusim.synchronize_stream()
    assert npusim.query_event_status(ev) == NOT_READY
    with pytest.raises(errors.EventTimestampError):
        npusim.event_elapsed_time(ev, ev)
    npusim.synchronize_event(ev)  # not recorded: returns at once


def test_reset_event_happens_in_stream_order(rt: None) -> None:
    s = npusim.create_stream()
    ev = npusim.create_event()
    npusim.record_event(ev, s)
    npusim.synchronize_stream(s)
    gate = _hold(s)
    npusim.reset_event(ev, s)
    assert npusim.query_event_status(ev) == COMPLETE  # the reset has not been reached yet
    gate.set()
    npusim.synchronize_stream(s)
    assert npusim.query_event_status(ev) == NOT_READY


def test_record_after_reset_is_kept(rt: None) -> None:
    s = npusim.create_stream()
    ev = npusim.create_event()
    gate = _hold(s)
    npusim.record_event(ev, s)
    npusim.reset_event(ev, s)
    npusim.record_event(ev, s)  # the latest record: the event completes when s reaches it
    gate.set()
    npusim.synchronize_stream(s)
    assert npusim.query_event_status(ev) == COMPLETE


def test_synchronize_event(rt: None) -> None:
    s = npusim.create_stream()
    ev = npusim.create_event()
    npusim.synchronize_event(ev)  # never recorded
    gate = _hold(s)
    npusim.record_event(ev, s)
    t0 = time.monotonic()
    with pytest.raises(errors.EventSyncTimeoutError) as info:
        npusim.synchronize_event(ev, timeout=0.05)
    assert time.monotonic() - t0 < 2
    assert info.value.code == 507047
    threading.Timer(0.05, gate.set).start()
    npusim.synchronize_event(ev, timeout=5)
    assert npusim.query_event_status(ev) == COMPLETE


def test_stream_wait_event_orders_two_streams(rt: None) -> None:
    a, b = npusim.create_stream(), npusim.create_stream()
    buf = npusim.malloc(64)
    npusim.memset(buf, 64, 0, 64)
    data = np.full(64, 9, dtype=np.uint8)
    ev = npusim.create_event()
    gate = _hold(a)
    npusim.record_event(ev, a)
    npusim.stream_wait_event(b, ev)
    npusim.memcpy_async(buf, 64, data, 64, H2D, b)
    time.sleep(0.1)
    assert not npusim.query_stream(b)  # b waits for a, which is held
    peek = np.ones(64, dtype=np.uint8)
    npusim.memcpy(peek, 64, buf, 64, D2H)  # synchronous read, no stream sync
    assert not peek.any()
    gate.set()
    npusim.synchronize_stream(b)
    npusim.memcpy(peek, 64, buf, 64, D2H)
    assert np.array_equal(peek, data)


def test_stream_wait_event_uses_record_at_submit_time(rt: None) -> None:
    a, b = npusim.create_stream(), npusim.create_stream()
    ev = npusim.create_event()
    npusim.record_event(ev, a)
    npusim.synchronize_stream(a)
    npusim.stream_wait_event(b, ev)  # the completed record: no wait
    gate = _hold(a)
    npusim.record_event(ev, a)  # a later record does not affect the wait already queued
    npusim.synchronize_stream(b, timeout=2)
    gate.set()


def test_stream_wait_event_never_recorded_is_noop(rt: None) -> None:
    s = npusim.create_stream()
    npusim.stream_wait_event(s, npusim.create_event())
    npusim.stream_wait_event(None, npusim.create_event())
    npusim.synchronize_stream(s, timeout=2)


def test_elapsed_time_equals_modeled_copy_time(rt: None) -> None:
    chip = npusim.get_chip("tiny")
    s = npusim.create_stream()
    n = 3 << 20
    buf = npusim.malloc(n)
    host = np.zeros(n, dtype=np.uint8)
    start, end = npusim.create_event(), npusim.create_event()
    npusim.record_event(start, s)
    npusim.memcpy_async(buf, n, host, n, H2D, s)
    npusim.record_event(end, s)
    npusim.synchronize_stream(s)
    ms = npusim.event_elapsed_time(start, end)
    assert ms == pytest.approx(_ms(chip, n), rel=1e-12, abs=1e-12)
    assert npusim.event_elapsed_time(end, start) == pytest.approx(-ms, rel=1e-12)
    assert npusim.event_elapsed_time(start, start) == 0.0
    # D2H and several copies add up
    npusim.record_event(start, s)
    npusim.memcpy_async(host, n, buf, n, D2H, s)
    npusim.memcpy_async(host, 1000, buf, 1000, D2H, s)
    npusim.record_event(end, s)
    npusim.synchronize_event(end)
    assert npusim.event_elapsed_time(start, end) == pytest.approx(_ms(chip, n) + _ms(chip, 1000),
                                                                  rel=1e-12, abs=1e-12)


def test_elapsed_time_memset_and_d2d(rt: None) -> None:
    chip = npusim.get_chip("tiny")
    a, b = npusim.malloc(1 << 20), npusim.malloc(1 << 20)
    e0, e1, e2 = npusim.create_event(), npusim.create_event(), npusim.create_event()
    npusim.record_event(e0)
    npusim.memset_async(a, 1 << 20, 5, 1 << 20)
    npusim.record_event(e1)
    npusim.memcpy_async(b, 1 << 20, a, 1 << 20, npusim.MemcpyKind.DEVICE_TO_DEVICE)
    npusim.record_event(e2)
    npusim.synchronize_stream()
    assert npusim.event_elapsed_time(e0, e1) == pytest.approx(chip.device_fill_seconds(1 << 20) * 1e3,
                                                              rel=1e-12)
    assert npusim.event_elapsed_time(e1, e2) == pytest.approx(chip.device_copy_seconds(1 << 20) * 1e3,
                                                              rel=1e-12)


@pytest.mark.parametrize("a_bytes, b_bytes", [(4 << 20, 1 << 20), (1 << 20, 4 << 20)])
def test_cross_stream_wait_takes_later_clock(rt: None, a_bytes: int, b_bytes: int) -> None:
    chip = npusim.get_chip("tiny")
    a, b = npusim.create_stream(), npusim.create_stream()  # both start at the same device time
    buf = npusim.malloc(4 << 20)
    host = np.zeros(4 << 20, dtype=np.uint8)
    a0, a1, b0, b1 = (npusim.create_event() for _ in range(4))
    npusim.record_event(a0, a)
    npusim.record_event(b0, b)
    npusim.memcpy_async(buf, a_bytes, host, a_bytes, H2D, a)
    npusim.record_event(a1, a)
    npusim.memcpy_async(host, b_bytes, buf, b_bytes, D2H, b)
    npusim.stream_wait_event(b, a1)
    npusim.record_event(b1, b)
    npusim.synchronize_device()
    assert npusim.event_elapsed_time(a0, b0) == 0.0
    expected = max(_ms(chip, a_bytes), _ms(chip, b_bytes))
    assert npusim.event_elapsed_time(b0, b1) == pytest.approx(expected, rel=1e-12)
    assert npusim.event_elapsed_time(a0, a1) == pytest.approx(_ms(chip, a_bytes), rel=1e-12)


def test_new_stream_starts_at_device_high_water_mark(rt: None) -> None:
    s = npusim.create_stream()
    buf = npusim.malloc(1 << 20)
    e0, e1 = npusim.create_event(), npusim.create_event()
    npusim.record_event(e0, s)
    npusim.memcpy_async(buf, 1 << 20, np.zeros(1 << 20, np.uint8), 1 << 20, H2D, s)
    npusim.synchronize_stream(s)
    late = npusim.create_stream()
    npusim.record_event(e1, late)
    npusim.synchronize_stream(late)
    chip = npusim.get_chip("tiny")
    assert npusim.event_elapsed_time(e0, e1) == pytest.approx(_ms(chip, 1 << 20), rel=1e-12)


def test_elapsed_time_errors(rt: None) -> None:
    recorded, never = npusim.create_event(), npusim.create_event()
    npusim.record_event(recorded)
    npusim.synchronize_stream()
    for args in ((never, recorded), (recorded, never), (never, never)):
        with pytest.raises(errors.EventTimestampError) as info:
            npusim.event_elapsed_time(*args)
        assert info.value.code == 107006
    s = npusim.create_stream()
    pending = npusim.create_event()
    gate = _hold(s)
    npusim.record_event(pending, s)
    with pytest.raises(errors.EventNotCompleteError) as info2:
        npusim.event_elapsed_time(recorded, pending)
    assert info2.value.code == 507006
    gate.set()
    npusim.synchronize_stream(s)
    assert npusim.event_elapsed_time(recorded, pending) >= 0.0
