"""acl.rt events."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

import aclsim.acl as acl
from aclsim.runtime._state import STATE
from aclsim.runtime.event import Event

NOT_READY, COMPLETE = acl.ACL_EVENT_RECORDED_STATUS_NOT_READY, acl.ACL_EVENT_RECORDED_STATUS_COMPLETE


def test_create_record_synchronize_destroy(dev: None) -> None:
    event, ret = acl.rt.create_event()
    assert ret == 0 and isinstance(event, int) and isinstance(STATE.handles[event], Event)
    assert acl.rt.record_event(event, 0) == 0
    assert acl.rt.synchronize_event(event) == 0
    assert acl.rt.query_event_status(event) == (COMPLETE, 0)
    assert acl.rt.query_event(event) == (acl.ACL_EVENT_STATUS_COMPLETE, 0)
    assert acl.rt.destroy_event(event) == 0


def test_create_event_with_flag(dev: None) -> None:
    event, ret = acl.rt.create_event_with_flag(acl.ACL_EVENT_TIME_LINE | acl.ACL_EVENT_SYNC)
    assert ret == 0
    assert STATE.handles[event].flags == 0x9  # type: ignore[attr-defined]
    assert acl.rt.destroy_event(event) == 0
    assert acl.rt.create_event_with_flag(0x4) == (None, acl.ACL_ERROR_INVALID_PARAM)


def test_event_errors(dev: None) -> None:
    event, _ = acl.rt.create_event()
    assert acl.rt.destroy_event(event) == 0
    assert acl.rt.destroy_event(event) == acl.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.rt.record_event(event, 0) == acl.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.rt.query_event_status(event) == (0, acl.ACL_ERROR_RT_INVALID_HANDLE)
    assert acl.rt.synchronize_event(event) == acl.ACL_ERROR_RT_INVALID_HANDLE
    for fn in (acl.rt.destroy_event, acl.rt.synchronize_event):
        assert fn(0) == acl.ACL_ERROR_INVALID_PARAM  # event handle 0 is null, not a default
    assert acl.rt.query_event(0) == (0, acl.ACL_ERROR_INVALID_PARAM)
    stream, _ = acl.rt.create_stream()
    assert acl.rt.destroy_event(stream) == acl.ACL_ERROR_RT_INVALID_HANDLE  # a stream handle
    live, _ = acl.rt.create_event()
    assert acl.rt.record_event(live, 0xDEAD) == acl.ACL_ERROR_RT_INVALID_HANDLE


def test_create_event_needs_init() -> None:
    assert acl.rt.create_event() == (None, acl.ACL_ERROR_UNINITIALIZE)


def test_never_recorded_event(dev: None) -> None:
    event, _ = acl.rt.create_event()
    assert acl.rt.query_event_status(event) == (NOT_READY, 0)
    assert acl.rt.query_event(event) == (acl.ACL_EVENT_STATUS_COMPLETE, 0)  # older API: complete
    assert acl.rt.synchronize_event(event) == 0
    other, _ = acl.rt.create_event()
    assert acl.rt.record_event(other, 0) == 0
    assert acl.rt.synchronize_event(other) == 0
    assert acl.rt.event_elapsed_time(event, other) == (0.0, acl.ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID)
    assert acl.rt.event_elapsed_time(other, event) == (0.0, 107006)


def test_query_event_status_before_and_after_sync(dev: None, gate: Callable[[int], Any]) -> None:
    stream, _ = acl.rt.create_stream()
    event, _ = acl.rt.create_event()
    g = gate(stream)
    assert acl.rt.record_event(event, stream) == 0
    assert acl.rt.query_event_status(event) == (NOT_READY, 0)
    assert acl.rt.query_event(event) == (acl.ACL_EVENT_STATUS_NOT_READY, 0)
    t0 = time.monotonic()
    assert acl.rt.synchronize_event_with_timeout(event, 30) == acl.ACL_ERROR_RT_EVENT_SYNC_TIMEOUT == 507047
    assert time.monotonic() - t0 < 2
    start, _ = acl.rt.create_event()
    assert acl.rt.record_event(start, 0) == 0
    assert acl.rt.synchronize_event(start) == 0
    assert acl.rt.event_elapsed_time(start, event) == (0.0, acl.ACL_ERROR_RT_EVENT_NOT_COMPLETE)
    g.open()
    assert acl.rt.synchronize_event_with_timeout(event, 5000) == 0
    assert acl.rt.query_event_status(event) == (COMPLETE, 0)
    assert acl.rt.query_event(event) == (acl.ACL_EVENT_STATUS_COMPLETE, 0)
    assert acl.rt.synchronize_event_with_timeout(event, -1) == 0
    assert acl.rt.synchronize_event_with_timeout(event, -7) == acl.ACL_ERROR_INVALID_PARAM


def test_reset_event(dev: None) -> None:
    event, _ = acl.rt.create_event()
    assert acl.rt.record_event(event, 0) == 0
    assert acl.rt.synchronize_event(event) == 0
    assert acl.rt.query_event_status(event) == (COMPLETE, 0)
    assert acl.rt.reset_event(event, 0) == 0
    assert acl.rt.synchronize_stream(0) == 0
    assert acl.rt.query_event_status(event) == (NOT_READY, 0)
    assert acl.rt.reset_event(event, 0x77) == acl.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.rt.reset_event(0, 0) == acl.ACL_ERROR_INVALID_PARAM


def test_event_elapsed_time_of_a_copy(dev: None) -> None:
    stream, _ = acl.rt.create_stream()
    start, _ = acl.rt.create_event()
    end, _ = acl.rt.create_event()
    x = np.ones(1 << 20, dtype=np.uint8)
    d, _ = acl.rt.malloc(x.nbytes, 0)
    assert acl.rt.record_event(start, stream) == 0
    assert acl.rt.memcpy_async(d, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE,
                               stream) == 0
    assert acl.rt.record_event(end, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    ms, ret = acl.rt.event_elapsed_time(start, end)
    assert ret == 0 and isinstance(ms, float) and ms > 0
    back, ret = acl.rt.event_elapsed_time(end, start)
    assert ret == 0 and back == -ms


def test_stream_wait_event(dev: None, gate: Callable[[int], Any]) -> None:
    producer, _ = acl.rt.create_stream()
    consumer, _ = acl.rt.create_stream()
    event, _ = acl.rt.create_event()
    g = gate(producer)
    d, _ = acl.rt.malloc(64, 0)
    assert acl.rt.record_event(event, producer) == 0
    assert acl.rt.stream_wait_event(consumer, event) == 0
    assert acl.rt.memset_async(d, 64, 5, 64, consumer) == 0
    time.sleep(0.02)
    assert acl.rt.stream_query(consumer) == (acl.ACL_STREAM_STATUS_NOT_READY, 0)
    g.open()
    assert acl.rt.synchronize_stream(consumer) == 0
    out = bytes(64)
    assert acl.rt.memcpy(acl.util.bytes_to_ptr(out), 64, d, 64, acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert out == bytes([5]) * 64
    assert acl.rt.stream_wait_event(consumer, 0) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.rt.stream_wait_event(0xABC, event) == acl.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.rt.stream_wait_event(0, event) == 0  # the default stream may wait too
