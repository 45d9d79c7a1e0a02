"""acl.rt streams."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import aclsim.acl as acl
from aclsim.runtime._state import STATE
from aclsim.runtime.stream import Stream


def test_create_synchronize_destroy_stream(dev: None) -> None:
    stream, ret = acl.rt.create_stream()
    assert ret == 0 and isinstance(stream, int) and stream != 0
    assert isinstance(STATE.handles[stream], Stream)
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.synchronize_stream_with_timeout(stream, 100) == 0
    assert acl.rt.synchronize_stream_with_timeout(stream, -1) == 0
    assert acl.rt.destroy_stream(stream) == 0


def test_default_stream_is_zero(dev: None) -> None:
    assert acl.rt.synchronize_stream(0) == 0
    assert acl.rt.stream_query(0) == (acl.ACL_STREAM_STATUS_COMPLETE, 0)
    ptr, _ = acl.rt.malloc(64, 0)
    assert acl.rt.memset_async(ptr, 64, 1, 64, 0) == 0
    assert acl.rt.synchronize_stream(0) == 0


def test_destroyed_stream_is_107017(dev: None) -> None:
    stream, _ = acl.rt.create_stream()
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.destroy_stream(stream) == acl.ACL_ERROR_RT_INVALID_HANDLE == 107017
    assert acl.rt.synchronize_stream(stream) == 107017
    assert acl.rt.stream_query(stream) == (0, 107017)
    ptr, _ = acl.rt.malloc(64, 0)
    assert acl.rt.memset_async(ptr, 64, 0, 64, stream) == 107017


def test_unknown_or_wrong_kind_stream_handles(dev: None) -> None:
    assert acl.rt.synchronize_stream(0xBAD0) == acl.ACL_ERROR_RT_INVALID_HANDLE
    event, _ = acl.rt.create_event()
    assert acl.rt.synchronize_stream(event) == acl.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.rt.synchronize_stream("0") == acl.ACL_ERROR_INVALID_PARAM  # type: ignore[arg-type]
    assert acl.rt.destroy_stream(0) == acl.ACL_ERROR_INVALID_PARAM  # the default stream
    assert acl.rt.destroy_stream_force(0) == acl.ACL_ERROR_INVALID_PARAM


def test_create_stream_without_context_is_107002() -> None:
    assert acl.init() == 0
    assert acl.rt.create_stream() == (None, acl.ACL_ERROR_RT_CONTEXT_NULL)


def test_create_stream_with_config(dev: None) -> None:
    stream, ret = acl.rt.create_stream_with_config(3, acl.ACL_STREAM_FAST_LAUNCH | acl.ACL_STREAM_FAST_SYNC)
    assert ret == 0
    s = STATE.handles[stream]
    assert isinstance(s, Stream) and (s.priority, s.flags) == (3, 0x3)
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.create_stream_with_config(0, 0x400) == (None, acl.ACL_ERROR_INVALID_PARAM)
    assert acl.rt.create_stream_with_config(-1, 0) == (None, acl.ACL_ERROR_INVALID_PARAM)


def test_stream_query_and_sync_timeout(dev: None, gate: Callable[[int], Any]) -> None:
    stream, _ = acl.rt.create_stream()
    g = gate(stream)
    assert acl.rt.stream_query(stream) == (acl.ACL_STREAM_STATUS_NOT_READY, 0)
    t0 = time.monotonic()
    ret = acl.rt.synchronize_stream_with_timeout(stream, 30)
    assert ret == acl.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT == 507046
    assert time.monotonic() - t0 < 2
    g.open()
    assert acl.rt.synchronize_stream_with_timeout(stream, 5000) == 0
    assert acl.rt.stream_query(stream) == (acl.ACL_STREAM_STATUS_COMPLETE, 0)
    assert acl.rt.synchronize_stream_with_timeout(stream, -2) == acl.ACL_ERROR_INVALID_PARAM


def test_destroy_stream_force_does_not_wait_for_a_stuck_stream(dev: None, gate: Callable[[int], Any]) -> None:
    stream, _ = acl.rt.create_stream()
    gate(stream)  # never opened: the stream is stuck at a blocking callback
    t0 = time.monotonic()
    assert acl.rt.destroy_stream_force(stream) == 0
    assert time.monotonic() - t0 < 3
    assert acl.rt.synchronize_stream(stream) == acl.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.rt.destroy_stream_force(stream) == acl.ACL_ERROR_RT_INVALID_HANDLE
    ctx, _ = acl.rt.get_context()
    assert all(s.handle != stream for s in STATE.handles[ctx].streams)  # type: ignore[attr-defined]


def test_stream_of_another_context_is_107003(dev: None) -> None:
    stream, _ = acl.rt.create_stream()
    other, _ = acl.rt.create_context(0)  # now current
    ptr, _ = acl.rt.malloc(64, 0)
    assert acl.rt.memset_async(ptr, 64, 0, 64, stream) == acl.ACL_ERROR_RT_STREAM_CONTEXT == 107003
    assert acl.rt.synchronize_stream(stream) == 0  # synchronizing needs no current context match
    assert acl.rt.destroy_context(other) == 0


def test_a_failed_task_is_reported_by_synchronize(dev: None) -> None:
    stream, _ = acl.rt.create_stream()
    ptr, _ = acl.rt.malloc(64, 0)
    host = np.zeros(16, dtype=np.float32)
    assert acl.rt.memcpy_async(ptr, 64, acl.util.numpy_to_ptr(host), 64, acl.ACL_MEMCPY_HOST_TO_DEVICE,
                               stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.subscribe_report(__import__("threading").get_ident(), stream) == 0

    def boom(_: object) -> None:
        raise RuntimeError("callback failed")

    assert acl.rt.launch_callback(boom, None, acl.ACL_CALLBACK_NO_BLOCK, stream) == 0
    assert acl.rt.process_report(1000) == 0
    ret = acl.rt.synchronize_stream(stream)
    assert ret == acl.ACL_ERROR_RT_INTERNAL_ERROR
    assert "callback failed" in (acl.get_recent_err_msg() or "")
    assert acl.rt.synchronize_stream(stream) == 0  # the error was reported once


@pytest.mark.parametrize("timeout", [0, 1])
def test_small_timeouts_on_an_idle_stream(dev: None, timeout: int) -> None:
    assert acl.rt.synchronize_stream_with_timeout(0, timeout) == 0
