"""The runtime objects' own verbs (Device, Context, Stream, Event), which the AscendCL-named
functions wrap, and the pieces behind them (StreamOptions, device_by_id, the handle table,
pointer location)."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import aclsim
from aclsim import errors
from aclsim.runtime import device_by_id
from aclsim.runtime._state import STATE, HandleTable
from aclsim.runtime.pointers import allocation_at, locate

K = aclsim.MemcpyKind


def test_device_verbs() -> None:
    aclsim.init(chip="tiny", devices=2)
    dev = device_by_id(1)
    ctx = dev.set_current()
    assert aclsim.get_context() is ctx and aclsim.get_device() == 1 and dev.refcount == 1
    assert dev.set_current() is ctx and dev.refcount == 2
    stream = dev.create_stream(aclsim.StreamOptions(flags=0x1, priority=2))
    assert (stream.context, stream.flags, stream.priority) == (ctx, 1, 2)
    buf = dev.allocate(1000, stream=stream)
    assert buf.device == 1 and buf.stream is stream
    assert dev.mem_info(aclsim.MemAttr.HBM_MEM)[1] == dev.memory_bytes
    assert dev.mem_info(aclsim.MemAttr.DDR_MEM) == (0, 0)
    other = device_by_id(0)
    with pytest.raises(errors.StreamContextError):
        other.create_stream()  # this thread's current context is on npu:1
    with pytest.raises(errors.StreamContextError):
        other.allocate(64, stream=stream)
    explicit = dev.create_context()
    assert aclsim.get_context() is explicit and explicit in dev.contexts
    explicit.close()
    aclsim.set_context(ctx)
    aclsim.free(buf)
    stream.close()
    dev.synchronize()
    dev.reset()
    assert dev.refcount == 1
    dev.reset(force=True)
    assert dev.refcount == 0 and dev.default_context is None
    with pytest.raises(errors.InvalidDeviceError):
        device_by_id(2)
    with pytest.raises(errors.InvalidParamError):
        device_by_id("0")


def test_context_verbs(rt: None) -> None:
    ctx = aclsim.create_context(0)
    s = ctx.create_stream()
    host = np.arange(64, dtype=np.uint8)
    buf = aclsim.malloc(64)
    aclsim.memcpy_async(buf, 64, host, 64, K.HOST_TO_DEVICE, s)
    ctx.synchronize()
    aclsim.free(buf)
    aclsim.memcpy_async(np.zeros(4, np.uint8), 4, host, 4, K.HOST_TO_HOST, s)
    ctx.synchronize(timeout_s=5)
    default = aclsim.runtime.device_by_id(0).default_context
    assert default is not None
    with pytest.raises(errors.InvalidParamError, match="default context"):
        default.close()
    ctx.close()
    assert not ctx.alive and not s.alive
    with pytest.raises(errors.InvalidHandleError):
        aclsim.destroy_context(ctx)


def test_stream_and_event_verbs(rt: None) -> None:
    s = aclsim.create_stream()
    a, b = aclsim.create_event(), aclsim.create_event()
    ran: list[int] = []
    s.record(a)
    s.launch(lambda: ran.append(1) or 2e-6, label="work")  # type: ignore[func-returns-value]
    b.record(s)
    b.synchronize()
    assert ran == [1] and a.query() and b.query()
    assert a.elapsed(b) == pytest.approx(2e-3)
    s2 = aclsim.create_stream()
    s2.wait(b)
    s2.reset(b)
    s2.synchronize()
    assert not b.query()  # reset: no longer recorded
    with pytest.raises(errors.InvalidParamError):
        s.launch(42)  # type: ignore[arg-type]
    with pytest.raises(errors.InvalidParamError, match="default stream"):
        aclsim.get_context().default_stream.close()
    for e in (a, b):
        e.close()
    assert not a.alive and STATE.handles.get(a.handle) is None
    s.close()
    s2.close()
    assert not s.alive


def test_stream_close_force_abandons_a_wait_that_never_ends(rt: None) -> None:
    s = aclsim.create_stream()
    aclsim.subscribe_report(threading.get_ident(), s)
    aclsim.launch_callback(lambda _d: None, None, 1, s)  # nobody will process it
    s.close(force=True)
    assert not s.alive and s not in aclsim.get_context().streams


def test_stream_options_are_validated() -> None:
    assert aclsim.StreamOptions().flags == 0
    with pytest.raises(errors.InvalidParamError):
        aclsim.StreamOptions(flags=0x80)
    with pytest.raises(errors.InvalidParamError):
        aclsim.StreamOptions(priority=-1)
    with pytest.raises(errors.InvalidParamError):
        aclsim.StreamOptions(flags="1")  # type: ignore[arg-type]


def test_handle_table() -> None:
    table = HandleTable()
    a, b = table.register("a"), table.register("b")
    assert a != b and table[a] == "a" and len(table) == 2 and sorted(table.values()) == ["a", "b"]
    table.release(a)
    table.release(a)  # releasing twice is harmless
    assert table.get(a) is None and table.items() == [(b, "b")]
    table.clear()
    assert len(table) == 0


def test_pointer_location_is_public(rt: None) -> None:
    buf = aclsim.malloc(100)  # 160 B padded
    host = np.arange(16, dtype=np.uint8)
    loc = locate(buf.ptr + 10, 20, "ptr")
    assert loc.on_device and loc.buffer is buf and loc.view.nbytes == 20
    hloc = locate(aclsim.numpy_to_ptr(host), 16, "ptr")
    assert not hloc.on_device and hloc.region is not None
    found = allocation_at(buf.ptr + 150)  # inside the padding: a kernel may reach it
    assert found is not None and found.buffer is buf and found.view.nbytes == buf.padded_size
    assert (found.base, found.size, found.host) == (buf.ptr, 100, False)
    assert allocation_at(buf.ptr + buf.padded_size + 4096) is None
    assert allocation_at(aclsim.numpy_to_ptr(host)) is None  # host memory: not for kernels
    aclsim.free(buf)
    with pytest.raises(errors.UseAfterFreeError):
        allocation_at(buf.ptr)
