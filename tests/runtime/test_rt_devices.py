"""Devices (set/reset/get, counts, memory info) and contexts (thread-local, ownership)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import aclsim
from aclsim import errors
from aclsim.runtime.memory import malloc_padded_size


def _in_thread(fn: Callable[[], Any]) -> Any:
    """Run ``fn`` in a new thread; return its result or re-raise its exception."""
    out: dict[str, Any] = {}

    def body() -> None:
        try:
            out["value"] = fn()
        except BaseException as exc:  # noqa: BLE001
            out["error"] = exc

    t = threading.Thread(target=body)
    t.start()
    t.join(10)
    assert not t.is_alive(), "helper thread did not finish"
    if "error" in out:
        raise out["error"]
    return out.get("value")


# --- devices -----------------------------------------------------------------------------

def test_set_device_makes_default_context(rt: None) -> None:
    assert aclsim.get_device() == 0
    ctx = aclsim.get_context()
    assert isinstance(ctx, aclsim.Context) and ctx.is_default and ctx.device.id == 0


def test_set_device_refcount() -> None:
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    ctx = aclsim.get_context()
    aclsim.set_device(0)
    assert aclsim.get_context() is ctx  # the same default context
    assert "2 set_device call(s)" in aclsim.leak_report()[0]
    aclsim.reset_device(0)
    assert aclsim.get_device() == 0 and ctx.alive
    assert "1 set_device call(s)" in aclsim.leak_report()[0]
    aclsim.reset_device(0)
    assert not ctx.alive
    with pytest.raises(errors.ContextNullError):
        aclsim.get_device()
    assert aclsim.leak_report() == []
    aclsim.reset_device(0)  # count already 0: nothing happens
    aclsim.set_device(0)  # a fresh default context
    assert aclsim.get_context() is not ctx


def test_reset_device_waits_for_streams_and_closes_default_streams(rt: None) -> None:
    stream = aclsim.create_stream()
    gate = threading.Event()
    done = []
    aclsim.launch_function(lambda: (gate.wait(5), done.append(1), 0.0)[-1], stream=stream)
    threading.Timer(0.1, gate.set).start()
    aclsim.reset_device(0)
    assert done == [1]
    assert not stream.alive  # explicit streams of the default context go with it
    assert aclsim.leak_report() == []


def test_get_device_without_context() -> None:
    aclsim.init(chip="tiny")
    with pytest.raises(errors.ContextNullError) as info:
        aclsim.get_device()
    assert info.value.code == 107002
    assert "set_device" in str(info.value)


@pytest.mark.parametrize("bad", [1, 2, -1, 64, 10**9])
def test_bad_device_id(bad: int) -> None:
    aclsim.init(chip="tiny")
    for call in (aclsim.set_device, aclsim.reset_device, aclsim.create_context):
        with pytest.raises(errors.InvalidDeviceError) as info:
            call(bad)
        assert info.value.code == 107001
    assert aclsim.leak_report() == []


@pytest.mark.parametrize("bad", ["0", 0.0, None, True, [0]])
def test_non_int_device_id(bad: object) -> None:
    aclsim.init(chip="tiny")
    with pytest.raises(errors.InvalidParamError) as info:
        aclsim.set_device(bad)  # type: ignore[arg-type]
    assert info.value.code == 100000


def test_numpy_int_device_id() -> None:
    aclsim.init(chip="tiny", devices=2)
    aclsim.set_device(np.int64(1))  # type: ignore[arg-type]
    assert aclsim.get_device() == 1
    aclsim.reset_device(np.int32(1))  # type: ignore[arg-type]


def test_get_device_count() -> None:
    aclsim.init(chip="tiny", devices=5)
    assert aclsim.get_device_count() == 5
    aclsim.set_device(4)
    assert aclsim.get_device() == 4


def test_two_devices_and_switching() -> None:
    aclsim.init(chip="tiny", devices=2)
    aclsim.set_device(0)
    b0 = aclsim.malloc(64)
    aclsim.set_device(1)
    assert aclsim.get_device() == 1
    b1 = aclsim.malloc(64)
    assert b0.device == 0 and b1.device == 1
    data = np.arange(64, dtype=np.uint8)
    aclsim.memcpy(b0, 64, data, 64, aclsim.MemcpyKind.HOST_TO_DEVICE)
    aclsim.memcpy(b1, 64, b0, 64, aclsim.MemcpyKind.DEVICE_TO_DEVICE)
    for kind in (aclsim.MemcpyKind.INNER_DEVICE_TO_DEVICE, aclsim.MemcpyKind.INTER_DEVICE_TO_DEVICE):
        with pytest.raises(errors.InvalidParamError):  # not kinds of aclrtMemcpy
            aclsim.memcpy(b1, 64, b0, 64, kind)
    out = np.zeros(64, dtype=np.uint8)
    aclsim.memcpy(out, 64, b1, 64, aclsim.MemcpyKind.DEVICE_TO_HOST)
    assert np.array_equal(out, data)
    aclsim.free(b0)  # memory of another device than the current one
    aclsim.free(b1)


def test_get_run_mode(rt: None) -> None:
    assert aclsim.get_run_mode() == aclsim.RunMode.HOST == 1


def test_get_mem_info_hbm(rt: None) -> None:
    free0, total = aclsim.get_mem_info(aclsim.MemAttr.HBM_MEM)
    assert total == 64 << 20 and free0 == total
    assert aclsim.get_mem_info() == (free0, total)  # default attr is HBM
    assert aclsim.get_mem_info(aclsim.MemAttr.HBM_MEM_NORMAL) == (free0, total)
    buf = aclsim.malloc(1000)
    free1, total1 = aclsim.get_mem_info(aclsim.MemAttr.HBM_MEM)
    # AscendCL's 1056 B (ALIGN_UP(1000, 32) + 32); free = limit - reserved, and the caching
    # pool reserved one 2 MiB page of device memory for its small pool (semantics of issue 4)
    assert buf.padded_size == malloc_padded_size(1000) == 1056
    assert total1 == total and free1 == free0 - (2 << 20)
    small = aclsim.malloc(32)  # from the same page
    assert aclsim.get_mem_info()[0] == free1
    aclsim.free(small)
    aclsim.free(buf)
    assert aclsim.get_mem_info(aclsim.MemAttr.HBM_MEM) == (free1, total)  # cached for reuse
    aclsim.empty_cache()
    assert aclsim.get_mem_info(aclsim.MemAttr.HBM_MEM) == (free0, total)


@pytest.mark.parametrize("attr", [aclsim.MemAttr.DDR_MEM, aclsim.MemAttr.DDR_MEM_HUGE,
                                  aclsim.MemAttr.DDR_MEM_NORMAL, aclsim.MemAttr.DDR_MEM_P2P_HUGE])
def test_get_mem_info_ddr_on_hbm_chip(rt: None, attr: aclsim.MemAttr) -> None:
    assert aclsim.get_mem_info(attr) == (0, 0)


def test_get_mem_info_on_ddr_chip() -> None:
    aclsim.init(chip="310P", memory="32MiB")
    aclsim.set_device(0)
    assert aclsim.get_mem_info(aclsim.MemAttr.HBM_MEM) == (0, 0)
    assert aclsim.get_mem_info(aclsim.MemAttr.DDR_MEM) == (32 << 20, 32 << 20)


def test_get_mem_info_bad_attr(rt: None) -> None:
    with pytest.raises(errors.InvalidParamError):
        aclsim.get_mem_info(99)


def test_get_mem_info_needs_context() -> None:
    aclsim.init(chip="tiny")
    with pytest.raises(errors.ContextNullError):
        aclsim.get_mem_info()


def test_device_context_manager() -> None:
    aclsim.init(chip="tiny")
    with aclsim.device(0) as dev:
        assert isinstance(dev, aclsim.Device) and dev.id == 0
        assert aclsim.get_device() == 0
        buf = aclsim.malloc(64)
        aclsim.free(buf)
    with pytest.raises(errors.ContextNullError):
        aclsim.get_device()
    assert aclsim.leak_report() == []


def test_device_context_manager_restores_previous_context() -> None:
    aclsim.init(chip="tiny", devices=2)
    ctx = aclsim.create_context(0)
    with aclsim.device(1):
        assert aclsim.get_device() == 1
    assert aclsim.get_context() is ctx
    aclsim.set_device(1)
    outer = aclsim.get_context()
    with aclsim.device(1):
        assert aclsim.get_context() is outer
    assert aclsim.get_context() is outer and outer.alive
    aclsim.reset_device(1)
    aclsim.destroy_context(ctx)
    assert aclsim.leak_report() == []


def test_device_context_manager_resets_on_error() -> None:
    aclsim.init(chip="tiny")
    with pytest.raises(RuntimeError), aclsim.device(0):
        raise RuntimeError("boom")
    assert aclsim.leak_report() == []


def test_synchronize_device(rt: None) -> None:
    s1, s2 = aclsim.create_stream(), aclsim.create_stream()
    buf = aclsim.malloc(256)
    data = np.arange(256, dtype=np.uint8)
    out = np.zeros_like(data)
    aclsim.memcpy_async(buf, 256, data, 256, aclsim.MemcpyKind.HOST_TO_DEVICE, s1)
    ev = aclsim.create_event()
    aclsim.record_event(ev, s1)
    aclsim.stream_wait_event(s2, ev)
    aclsim.memcpy_async(out, 256, buf, 256, aclsim.MemcpyKind.DEVICE_TO_HOST, s2)
    aclsim.synchronize_device()
    assert aclsim.query_stream(s1) and aclsim.query_stream(s2)
    assert np.array_equal(out, data)


def test_synchronize_device_timeout_and_error(rt: None) -> None:
    s = aclsim.create_stream()
    gate = threading.Event()
    aclsim.launch_function(lambda: (gate.wait(5), 0.0)[1], stream=s)
    with pytest.raises(errors.StreamSyncTimeoutError) as info:
        aclsim.synchronize_device(timeout=0.05)
    assert info.value.code == 507046
    gate.set()

    def bad() -> float:
        raise ZeroDivisionError("bad kernel")

    aclsim.launch_function(bad, label="bad_kernel", stream=s)
    with pytest.raises(errors.TaskError) as terr:
        aclsim.synchronize_device()
    assert terr.value.code == 507000 and "bad_kernel" in str(terr.value)
    aclsim.synchronize_device()  # reported once


def test_set_device_in_other_thread_is_independent(rt: None) -> None:
    assert _in_thread(lambda: (aclsim.set_device(0), aclsim.get_device())[1]) == 0
    assert "2 set_device call(s)" in aclsim.leak_report()[0]


# --- contexts ----------------------------------------------------------------------------

def test_create_context_binds_to_thread(rt: None) -> None:
    default = aclsim.get_context()
    ctx = aclsim.create_context(0)
    assert aclsim.get_context() is ctx and not ctx.is_default and ctx is not default
    assert ctx.default_stream is not default.default_stream
    aclsim.set_context(default)
    assert aclsim.get_context() is default
    aclsim.destroy_context(ctx)


def test_context_is_thread_local(rt: None) -> None:
    main_ctx = aclsim.get_context()

    def other() -> None:
        with pytest.raises(errors.ContextNullError):
            aclsim.get_context()
        with pytest.raises(errors.ContextNullError):
            aclsim.malloc(64)
        with pytest.raises(errors.ContextNullError):
            aclsim.create_stream()
        aclsim.set_context(main_ctx)
        assert aclsim.get_context() is main_ctx
        mine = aclsim.create_context(0)
        assert aclsim.get_context() is mine
        aclsim.destroy_context(mine)

    _in_thread(other)
    assert aclsim.get_context() is main_ctx  # unaffected by the other thread


def test_stream_of_other_context(rt: None) -> None:
    s_default = aclsim.create_stream()
    buf = aclsim.malloc(64)
    data = np.zeros(64, dtype=np.uint8)
    ctx = aclsim.create_context(0)
    for call in (
        lambda: aclsim.memcpy_async(buf, 64, data, 64, aclsim.MemcpyKind.HOST_TO_DEVICE, s_default),
        lambda: aclsim.memset_async(buf, 64, 0, 64, s_default),
        lambda: aclsim.record_event(aclsim.create_event(), s_default),
        lambda: aclsim.launch_function(lambda: 0.0, stream=s_default),
    ):
        with pytest.raises(errors.StreamContextError) as info:
            call()
        assert info.value.code == 107003
    aclsim.synchronize_stream(s_default)  # synchronizing another context's stream is allowed
    assert aclsim.query_stream(s_default)
    aclsim.destroy_context(ctx)


def test_destroy_default_context_refused(rt: None) -> None:
    default = aclsim.get_context()
    with pytest.raises(errors.InvalidParamError) as info:
        aclsim.destroy_context(default)
    assert info.value.code == 100000
    assert default.alive and aclsim.get_context() is default


def test_destroyed_context_handle(rt: None) -> None:
    ctx = aclsim.create_context(0)
    s = aclsim.create_stream()
    aclsim.destroy_context(ctx)
    assert not s.alive
    with pytest.raises(errors.ContextNullError):
        aclsim.get_context()  # the destroyed context was current
    for call in (lambda: aclsim.set_context(ctx), lambda: aclsim.destroy_context(ctx)):
        with pytest.raises(errors.InvalidHandleError) as info:
            call()
        assert info.value.code == 107017
    with pytest.raises(errors.InvalidParamError):
        aclsim.set_context("not a context")  # type: ignore[arg-type]


def test_destroy_context_waits_for_work(rt: None) -> None:
    ctx = aclsim.create_context(0)
    buf = aclsim.malloc(1 << 16)
    data = np.full(1 << 16, 7, dtype=np.uint8)
    aclsim.memcpy_async(buf, data.nbytes, data, data.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    aclsim.destroy_context(ctx)
    aclsim.set_device(0)
    out = np.zeros_like(data)
    aclsim.memcpy(out, out.nbytes, buf, out.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    assert np.array_equal(out, data)


def test_concurrent_resets_do_not_underflow(rt: None) -> None:
    """Two resets racing on a count of 1 (both wait for the streams): one releases, one is a no-op."""
    ctx = aclsim.get_context()
    gate = threading.Event()
    aclsim.launch_function(lambda: (gate.wait(5), 0.0)[1])  # keeps both resets in their wait phase
    threads = [threading.Thread(target=aclsim.reset_device, args=(0,)) for _ in range(2)]
    for t in threads:
        t.start()
    time.sleep(0.1)
    gate.set()
    for t in threads:
        t.join(5)
        assert not t.is_alive()
    assert not ctx.alive and aclsim.leak_report() == []
    aclsim.set_device(0)
    assert aclsim.leak_report() == ["npu:0 is still set (1 set_device call(s) without reset_device); "
                                    "its default context is alive"]
    new_ctx = aclsim.get_context()
    aclsim.reset_device(0)
    assert not new_ctx.alive
