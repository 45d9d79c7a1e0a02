"""A failed call leaves every piece of runtime state as it was."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import aclsim
from aclsim import errors
from aclsim.runtime._state import STATE

K = aclsim.MemcpyKind


def _snapshot() -> dict[str, Any]:
    device = STATE.devices[0]
    memory = device.memory
    assert memory is not None
    ctx = STATE.current_context
    return {
        "mem_info": aclsim.get_mem_info(),
        "leaks": aclsim.leak_report(),
        "live": sorted((b.ptr, b.size, b.padded_size, b.kind) for b in memory.live_buffers()),
        "alive": [b.alive for b in _World.bufs],
        "refcount": device.refcount,
        "context": ctx,
        "streams": [s.alive for s in _World.streams],
        "events": [(e.alive, e.last_record) for e in _World.events],
        "subscriptions": dict(STATE.subscriptions),
        "contents": [_read(b) for b in _World.bufs if b.alive],
    }


def _read(buf: aclsim.Buffer) -> bytes:
    out = np.empty(buf.size, np.uint8)
    aclsim.memcpy(out, buf.size, buf, buf.size, K.DEVICE_TO_HOST)
    return out.tobytes()


class _World:
    bufs: list[aclsim.Buffer] = []
    streams: list[aclsim.Stream] = []
    events: list[aclsim.Event] = []


@pytest.fixture
def world(rt: None) -> _World:
    rng = np.random.default_rng(5)
    _World.bufs = [aclsim.malloc(s) for s in (100, 5000, 1 << 20)]
    for b in _World.bufs:
        aclsim.memcpy(b, b.size, rng.integers(0, 255, b.size, dtype=np.uint8), b.size, K.HOST_TO_DEVICE)
    freed = aclsim.malloc(64)
    aclsim.free(freed)
    _World.bufs.append(freed)
    s = aclsim.create_stream()
    dead = aclsim.create_stream()
    aclsim.destroy_stream(dead)
    _World.streams = [s, dead]
    e = aclsim.create_event()
    aclsim.record_event(e, s)
    aclsim.synchronize_stream(s)
    dead_event = aclsim.create_event()
    aclsim.destroy_event(dead_event)
    _World.events = [e, dead_event, aclsim.create_event()]  # recorded, destroyed, never recorded
    aclsim.subscribe_report(threading.get_ident(), s)
    aclsim.malloc_host(4096)
    return _World()


def _host() -> np.ndarray:
    return np.zeros(1 << 20, np.uint8)


FAILING_CALLS: list[tuple[str, type[errors.AclError], Callable[[_World], object]]] = [
    ("oom", errors.OutOfMemoryError, lambda w: aclsim.malloc(63 << 20)),
    ("malloc size 0", errors.InvalidParamError, lambda w: aclsim.malloc(0)),
    ("malloc bad policy", errors.InvalidParamError, lambda w: aclsim.malloc(64, 42)),
    ("dvpp oom", errors.OutOfMemoryError, lambda w: aclsim.dvpp_malloc(63 << 20)),
    ("double free", errors.MemoryFreeError, lambda w: aclsim.free(w.bufs[3])),
    ("interior free", errors.MemoryFreeError, lambda w: aclsim.free(w.bufs[1].ptr + 64)),
    ("free host", errors.InvalidMemoryTypeError, lambda w: aclsim.free(aclsim.numpy_to_ptr(_host()))),
    ("dvpp_free of malloc", errors.MemoryFreeError, lambda w: aclsim.dvpp_free(w.bufs[0])),
    ("free_host unknown", errors.MemoryFreeError, lambda w: aclsim.free_host(0x5000)),
    ("memcpy dest_max", errors.InvalidParamError,
     lambda w: aclsim.memcpy(w.bufs[0], 10, _host(), 100, K.HOST_TO_DEVICE)),
    ("memcpy inner kind", errors.InvalidParamError,
     lambda w: aclsim.memcpy(w.bufs[0], 100, _host(), 100, K.INNER_DEVICE_TO_DEVICE)),
    ("memcpy out of range", errors.RtParamInvalidError,
     lambda w: aclsim.memcpy(w.bufs[0], 1000, _host(), 101, K.HOST_TO_DEVICE)),
    ("memcpy unknown host", errors.InvalidMemoryTypeError,
     lambda w: aclsim.memcpy(w.bufs[0], 100, 0x7000, 100, K.HOST_TO_DEVICE)),
    ("memcpy_async out of range", errors.RtParamInvalidError,
     lambda w: aclsim.memcpy_async(w.bufs[1], 6000, _host(), 5001, K.HOST_TO_DEVICE, w.streams[0])),
    ("memcpy_async dead stream", errors.InvalidHandleError,
     lambda w: aclsim.memcpy_async(w.bufs[0], 100, _host(), 100, K.HOST_TO_DEVICE, w.streams[1])),
    ("memcpy into freed", errors.RtParamInvalidError,
     lambda w: aclsim.memcpy(w.bufs[3], 64, _host(), 64, K.HOST_TO_DEVICE)),
    ("memset out of range", errors.RtParamInvalidError, lambda w: aclsim.memset(w.bufs[0], 200, 1, 200)),
    ("memset_async count", errors.InvalidParamError, lambda w: aclsim.memset_async(w.bufs[0], 1, 1, 2)),
    ("destroy dead stream", errors.InvalidHandleError, lambda w: aclsim.destroy_stream(w.streams[1])),
    ("destroy default stream", errors.InvalidParamError,
     lambda w: aclsim.destroy_stream(aclsim.get_context().default_stream)),
    ("destroy dead event", errors.InvalidHandleError, lambda w: aclsim.destroy_event(w.events[1])),
    ("destroy default context", errors.InvalidParamError,
     lambda w: aclsim.destroy_context(aclsim.get_context())),
    ("record dead event", errors.InvalidHandleError, lambda w: aclsim.record_event(w.events[1])),
    ("create_stream bad flags", errors.InvalidParamError, lambda w: aclsim.create_stream(flags=0x80)),
    ("create_event bad flags", errors.InvalidParamError, lambda w: aclsim.create_event(0x4)),
    ("set_device bad id", errors.InvalidDeviceError, lambda w: aclsim.set_device(3)),
    ("subscribe twice", errors.RepeatSubscribeError,
     lambda w: aclsim.subscribe_report(threading.get_ident(), w.streams[0])),
    ("unsubscribe wrong thread", errors.ThreadNotSubscribedError,
     lambda w: aclsim.unsubscribe_report(1, w.streams[0])),
    ("launch_callback unsubscribed", errors.StreamNotSubscribedError,
     lambda w: aclsim.launch_callback(print, None, 0)),
    ("elapsed unrecorded", errors.EventTimestampError,
     lambda w: aclsim.event_elapsed_time(w.events[0], w.events[2])),
    ("repeat init", errors.RepeatInitializeError, lambda w: aclsim.init(chip="tiny")),
    ("get_mem_info bad attr", errors.InvalidParamError, lambda w: aclsim.get_mem_info(77)),
]


@pytest.mark.parametrize("name, exc_type, call", FAILING_CALLS, ids=[c[0] for c in FAILING_CALLS])
def test_failed_call_leaves_state_intact(world: _World, name: str, exc_type: type[errors.AclError],
                                         call: Callable[[_World], object]) -> None:
    before = _snapshot()
    with pytest.raises(exc_type):
        call(world)
    after = _snapshot()
    assert after == before
    aclsim.synchronize_stream(world.streams[0])  # nothing failed on the stream either
    aclsim.unsubscribe_report(threading.get_ident(), world.streams[0])


def test_failed_calls_in_a_row_then_everything_still_works(world: _World) -> None:
    before = _snapshot()
    for _name, exc_type, call in FAILING_CALLS:
        with pytest.raises(exc_type):
            call(world)
    # a working program afterwards
    data = np.arange(100, dtype=np.uint8)
    out = np.zeros_like(data)
    aclsim.memcpy_async(world.bufs[0], 100, data, 100, K.HOST_TO_DEVICE, world.streams[0])
    aclsim.memcpy_async(out, 100, world.bufs[0], 100, K.DEVICE_TO_HOST, world.streams[0])
    aclsim.synchronize_stream(world.streams[0])
    assert np.array_equal(out, data)
    assert aclsim.get_mem_info() == before["mem_info"]
