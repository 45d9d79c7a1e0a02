"""Streams: ordering, synchronize, destroy, task failures, query."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import aclsim
from aclsim import errors

K = aclsim.MemcpyKind
H2D, D2H, D2D = K.HOST_TO_DEVICE, K.DEVICE_TO_HOST, K.DEVICE_TO_DEVICE


def _hold(stream: aclsim.Stream | None) -> threading.Event:
    """Queue a task that holds ``stream`` until the returned gate is set (5 s at most)."""
    gate = threading.Event()
    aclsim.launch_function(lambda: (gate.wait(5), 0.0)[1], label="gate", stream=stream)
    return gate


def test_create_stream_options(rt: None) -> None:
    s = aclsim.create_stream(flags=0x1 | 0x2, priority=3)
    assert isinstance(s, aclsim.Stream) and s.flags == 3 and s.priority == 3 and not s.is_default
    assert s.context is aclsim.get_context()
    aclsim.destroy_stream(s)
    for kwargs in ({"flags": 0x40}, {"flags": -1}, {"priority": -1}, {"flags": "1"}):
        with pytest.raises(errors.InvalidParamError):
            aclsim.create_stream(**kwargs)  # type: ignore[arg-type]


def test_async_copies_run_in_order(rt: None) -> None:
    s = aclsim.create_stream()
    n = 4096
    buf = aclsim.malloc(n)
    outs = []
    for i in range(20):
        src = np.full(n, i, dtype=np.uint8)
        out = np.empty(n, dtype=np.uint8)
        aclsim.memcpy_async(buf, n, src, n, H2D, s)
        if i % 2:
            aclsim.memset_async(buf, n, 0, n // 2, s)
        aclsim.memcpy_async(out, n, buf, n, D2H, s)
        outs.append((i, src, out))
    aclsim.synchronize_stream(s)
    for i, _src, out in outs:
        expected = np.full(n, i, dtype=np.uint8)
        if i % 2:
            expected[: n // 2] = 0
        assert np.array_equal(out, expected), i


def test_default_stream_is_none(rt: None) -> None:
    buf = aclsim.malloc(16)
    data = np.arange(16, dtype=np.uint8)
    out = np.zeros(16, dtype=np.uint8)
    aclsim.memcpy_async(buf, 16, data, 16, H2D)
    aclsim.memcpy_async(out, 16, buf, 16, D2H, None)
    aclsim.synchronize_stream()
    assert np.array_equal(out, data)
    assert aclsim.query_stream() and aclsim.query_stream(None)


def test_query_stream(rt: None) -> None:
    s = aclsim.create_stream()
    assert aclsim.query_stream(s)
    gate = _hold(s)
    assert not aclsim.query_stream(s)
    gate.set()
    aclsim.synchronize_stream(s)
    assert aclsim.query_stream(s)


def test_synchronize_timeout(rt: None) -> None:
    s = aclsim.create_stream()
    gate = _hold(s)
    t0 = time.monotonic()
    with pytest.raises(errors.StreamSyncTimeoutError) as info:
        aclsim.synchronize_stream(s, timeout=0.05)
    assert time.monotonic() - t0 < 2
    assert info.value.code == 507046
    assert isinstance(info.value, TimeoutError)
    gate.set()
    aclsim.synchronize_stream(s, timeout=5)
    s.synchronize()


def test_destroy_stream_after_work(rt: None) -> None:
    s = aclsim.create_stream()
    buf = aclsim.malloc(1 << 16)
    data = np.arange(1 << 16, dtype=np.uint32).view(np.uint8)[: 1 << 16].copy()
    gate = _hold(s)
    aclsim.memcpy_async(buf, data.nbytes, data, data.nbytes, H2D, s)
    threading.Timer(0.05, gate.set).start()
    aclsim.destroy_stream(s)  # waits for the queued work
    out = np.zeros_like(data)
    aclsim.memcpy(out, out.nbytes, buf, out.nbytes, D2H)
    assert np.array_equal(out, data)
    assert not s.alive and "destroyed" in repr(s)


def test_destroyed_stream_handle(rt: None) -> None:
    s = aclsim.create_stream()
    aclsim.destroy_stream(s)
    buf = aclsim.malloc(64)
    data = np.zeros(64, dtype=np.uint8)
    ev = aclsim.create_event()
    for call in (
        lambda: aclsim.destroy_stream(s),
        lambda: aclsim.synchronize_stream(s),
        lambda: aclsim.query_stream(s),
        lambda: aclsim.memcpy_async(buf, 64, data, 64, H2D, s),
        lambda: aclsim.memset_async(buf, 64, 1, 64, s),
        lambda: aclsim.record_event(ev, s),
        lambda: aclsim.stream_wait_event(s, ev),
        lambda: aclsim.launch_function(lambda: 0.0, stream=s),
        lambda: aclsim.subscribe_report(threading.get_ident(), s),
    ):
        with pytest.raises(errors.InvalidHandleError) as info:
            call()
        assert info.value.code == 107017


def test_destroy_default_stream_refused(rt: None) -> None:
    default = aclsim.get_context().default_stream
    with pytest.raises(errors.InvalidParamError):
        aclsim.destroy_stream(default)
    assert default.alive
    with pytest.raises(errors.InvalidParamError):
        aclsim.destroy_stream("stream")  # type: ignore[arg-type]


def test_free_before_queued_copy_reports_at_synchronize(rt: None) -> None:
    a, b = aclsim.create_stream(), aclsim.create_stream()
    buf = aclsim.malloc(256)
    other = aclsim.malloc(256)
    data = np.arange(256, dtype=np.uint8)
    gate = _hold(a)
    aclsim.memcpy_async(buf, 256, data, 256, H2D, a)
    aclsim.free(buf)  # no implicit sync: the queued copy will find the buffer gone
    # the other stream works normally meanwhile
    aclsim.memcpy_async(other, 256, data, 256, H2D, b)
    aclsim.synchronize_stream(b)
    gate.set()
    with pytest.raises(errors.TaskError) as info:
        aclsim.synchronize_stream(a)
    err = info.value
    assert err.code == 207002 == errors.ACL_ERROR_RT_MEMORY_FREE
    assert isinstance(err.cause, errors.MemoryFreeError)
    assert "memcpy_async(H2D 256 B)" in err.task and __file__ in err.task
    assert err.more == 0
    aclsim.synchronize_stream(a)  # reported once; the stream goes on
    aclsim.memcpy_async(other, 256, data, 256, H2D, a)
    aclsim.synchronize_stream(a)
    aclsim.synchronize_stream(b)


def test_failing_function_does_not_poison_other_stream(rt: None) -> None:
    a, b = aclsim.create_stream(), aclsim.create_stream()

    def boom() -> float:
        raise RuntimeError("kernel exploded")

    aclsim.launch_function(boom, label="boom", stream=a)
    aclsim.launch_function(boom, label="boom2", stream=a)
    buf = aclsim.malloc(64)
    data = np.full(64, 3, dtype=np.uint8)
    out = np.zeros(64, dtype=np.uint8)
    aclsim.memcpy_async(buf, 64, data, 64, H2D, a)  # tasks after a failure still run
    aclsim.memcpy_async(out, 64, buf, 64, D2H, a)
    aclsim.memcpy_async(buf, 64, data, 64, H2D, b)
    aclsim.synchronize_stream(b)
    with pytest.raises(errors.TaskError) as info:
        aclsim.synchronize_stream(a)
    assert info.value.code == 507000
    assert "RuntimeError: kernel exploded" in str(info.value)
    assert "boom" in info.value.task and info.value.more == 1
    assert isinstance(info.value.cause, RuntimeError)
    assert np.array_equal(out, data)
    aclsim.synchronize_stream(a)


def test_failing_task_with_acl_code(rt: None) -> None:
    def bad() -> float:
        raise errors.RtParamInvalidError("out of range inside the kernel")

    aclsim.launch_function(bad)
    with pytest.raises(errors.TaskError) as info:
        aclsim.synchronize_stream()
    assert info.value.code == 107000


def test_launch_function_and_device_array(rt: None) -> None:
    n = 1024
    x = np.linspace(-1, 1, n, dtype=np.float32)
    bx, by = aclsim.malloc(x.nbytes), aclsim.malloc(x.nbytes)
    aclsim.memcpy(bx, x.nbytes, x, x.nbytes, H2D)
    chip = aclsim.get_chip("tiny")

    def kernel() -> float:
        xs = aclsim.device_array(bx, n, np.float32)
        ys = aclsim.device_array(by, (32, 32), "float32")
        ys[...] = (xs * 2 + 1).reshape(32, 32)
        return chip.memory_bound_seconds(x.nbytes, x.nbytes)

    s = aclsim.create_stream()
    e0, e1 = aclsim.create_event(), aclsim.create_event()
    aclsim.record_event(e0, s)
    aclsim.launch_function(kernel, label="axpb", stream=s, buffers=[bx, by])
    aclsim.record_event(e1, s)
    out = np.empty_like(x)
    aclsim.memcpy_async(out, out.nbytes, by, out.nbytes, D2H, s)
    aclsim.synchronize_stream(s)
    assert np.array_equal(out, x * 2 + 1)
    assert aclsim.event_elapsed_time(e0, e1) == pytest.approx(
        chip.memory_bound_seconds(x.nbytes, x.nbytes) * 1e3, rel=1e-9)


def test_launch_function_buffer_freed(rt: None) -> None:
    buf = aclsim.malloc(64)
    gate = _hold(None)
    aclsim.launch_function(lambda: 0.0, label="uses_buf", buffers=[buf])
    aclsim.free(buf)
    gate.set()
    with pytest.raises(errors.TaskError) as info:
        aclsim.synchronize_stream()
    assert info.value.code == 207002 and "uses_buf" in info.value.task


def test_launch_function_rejects_non_callable(rt: None) -> None:
    with pytest.raises(errors.InvalidParamError):
        aclsim.launch_function(42)  # type: ignore[arg-type]


def test_device_array_refuses_host_and_bounds(rt: None) -> None:
    buf = aclsim.malloc(64)
    host = np.zeros(16, dtype=np.float32)
    with pytest.raises(errors.InvalidMemoryTypeError):
        aclsim.device_array(aclsim.numpy_to_ptr(host), 16, np.float32)
    with pytest.raises(errors.RtParamInvalidError):
        aclsim.device_array(buf, 17, np.float32)
    assert aclsim.device_array(buf, 16, np.float32).shape == (16,)


def test_d2d_async(rt: None) -> None:
    a, b = aclsim.malloc(1000), aclsim.malloc(1000)
    data = np.random.default_rng(1).integers(0, 255, 1000, dtype=np.uint8)
    aclsim.memcpy_async(a, 1000, data, 1000, H2D)
    aclsim.memcpy_async(b, 1000, a, 1000, D2D)
    out = np.zeros_like(data)
    aclsim.memcpy_async(out, 1000, b, 1000, D2H)
    aclsim.synchronize_stream()
    assert np.array_equal(out, data)
