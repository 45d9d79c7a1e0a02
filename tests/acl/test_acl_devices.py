"""acl.rt devices and contexts."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

import aclsim.acl as acl
from aclsim.runtime._state import STATE


def test_set_get_reset_device() -> None:
    assert acl.init() == 0
    assert acl.rt.get_device() == (0, acl.ACL_ERROR_RT_CONTEXT_NULL)
    assert acl.rt.set_device(1) == 0
    assert acl.rt.get_device() == (1, 0)
    assert acl.rt.reset_device(1) == 0
    assert acl.rt.get_device() == (0, acl.ACL_ERROR_RT_CONTEXT_NULL)


@pytest.mark.parametrize("bad", [2, 5, -1, 2**31])
def test_bad_device_is_107001(bad: int) -> None:
    assert acl.init() == 0
    assert acl.rt.set_device(bad) == acl.ACL_ERROR_RT_INVALID_DEVICEID == 107001
    assert acl.rt.reset_device(bad) == 107001
    assert acl.rt.reset_device_force(bad) == 107001
    assert acl.rt.create_context(bad) == (None, 107001)


def test_device_count_and_run_mode(dev: None) -> None:
    assert acl.rt.get_device_count() == (2, 0)
    assert acl.rt.get_run_mode() == (acl.ACL_HOST, 0)


def test_set_device_is_reference_counted_and_reset_force_releases(dev: None) -> None:
    assert acl.rt.set_device(0) == 0
    assert acl.rt.set_device(0) == 0
    assert STATE.devices[0].refcount == 3
    assert acl.rt.reset_device(0) == 0
    assert STATE.devices[0].refcount == 2
    assert acl.rt.reset_device_force(0) == 0
    assert STATE.devices[0].refcount == 0
    assert STATE.devices[0].default_context is None
    assert acl.rt.reset_device_force(0) == 0  # nothing left to reset
    assert acl.rt.reset_device(0) == 0


def test_synchronize_device(dev: None) -> None:
    stream, _ = acl.rt.create_stream()
    ptr, _ = acl.rt.malloc(1024, 0)
    assert acl.rt.memset_async(ptr, 1024, 7, 1024, stream) == 0
    assert acl.rt.synchronize_device() == 0
    assert acl.rt.synchronize_device_with_timeout(-1) == 0
    assert acl.rt.synchronize_device_with_timeout(100) == 0
    assert acl.rt.synchronize_device_with_timeout(-5) == acl.ACL_ERROR_INVALID_PARAM


def test_synchronize_device_without_context_is_107002() -> None:
    assert acl.init() == 0
    assert acl.rt.synchronize_device() == acl.ACL_ERROR_RT_CONTEXT_NULL


def test_synchronize_device_with_timeout_times_out(dev: None, gate: Callable[[int], Any]) -> None:
    stream, _ = acl.rt.create_stream()
    g = gate(stream)
    assert acl.rt.synchronize_device_with_timeout(30) == acl.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT
    g.open()
    assert acl.rt.synchronize_device_with_timeout(5000) == 0


def test_create_set_get_destroy_context() -> None:
    assert acl.init() == 0
    ctx0, ret = acl.rt.create_context(0)
    assert ret == 0 and isinstance(ctx0, int) and ctx0 != 0
    assert acl.rt.get_context() == (ctx0, 0)
    ctx1, ret = acl.rt.create_context(1)
    assert ret == 0 and ctx1 != ctx0
    assert acl.rt.get_context() == (ctx1, 0)
    assert acl.rt.get_device() == (1, 0)
    assert acl.rt.set_context(ctx0) == 0
    assert acl.rt.get_context() == (ctx0, 0)
    assert acl.rt.get_device() == (0, 0)
    assert acl.rt.destroy_context(ctx1) == 0
    assert acl.rt.destroy_context(ctx0) == 0
    assert acl.rt.get_context() == (None, acl.ACL_ERROR_RT_CONTEXT_NULL)


def test_context_errors(dev: None) -> None:
    default_ctx, ret = acl.rt.get_context()
    assert ret == 0 and isinstance(default_ctx, int)
    assert acl.rt.destroy_context(default_ctx) == acl.ACL_ERROR_INVALID_PARAM  # goes with reset_device
    assert acl.rt.set_context(0) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.rt.destroy_context(0) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.rt.set_context(0x1234) == acl.ACL_ERROR_RT_INVALID_HANDLE
    stream, _ = acl.rt.create_stream()
    assert acl.rt.set_context(stream) == acl.ACL_ERROR_RT_INVALID_HANDLE  # a handle of another kind
    ctx, _ = acl.rt.create_context(0)
    assert acl.rt.destroy_context(ctx) == 0
    assert acl.rt.destroy_context(ctx) == acl.ACL_ERROR_RT_INVALID_HANDLE == 107017
    assert acl.rt.set_context(ctx) == 107017


def test_context_is_per_thread(dev: None) -> None:
    ctx, _ = acl.rt.get_context()
    seen: list[tuple[object, int]] = []

    def worker() -> None:
        seen.append(acl.rt.get_context())
        seen.append((acl.rt.set_context(ctx), 0))
        seen.append(acl.rt.get_context())

    t = threading.Thread(target=worker)
    t.start()
    t.join(5)
    assert seen == [(None, acl.ACL_ERROR_RT_CONTEXT_NULL), (0, 0), (ctx, 0)]


def test_handles_die_with_finalize(dev: None, finalize_quietly: Callable[[], None]) -> None:
    stream, _ = acl.rt.create_stream()
    ctx, _ = acl.rt.get_context()
    finalize_quietly()
    assert acl.init() == 0
    assert acl.rt.set_context(ctx) == acl.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.rt.synchronize_stream(stream) == acl.ACL_ERROR_RT_INVALID_HANDLE
