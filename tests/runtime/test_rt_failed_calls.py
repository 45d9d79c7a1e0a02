"""A failed call leaves every piece of runtime state as it was."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import npusim
from npusim import errors
from npusim.runtime._state import STATE

K = npusim.MemcpyKind


def _snapshot() -> dict[str, Any]:
    device = STATE.devices[0]
    memory = device.memory
    assert memory is not None
    ctx = STATE.current_context
    return {
        "mem_info": npusim.get_mem_info(),
        "leaks": npusim.leak_report(),
        "live": sorted((b.ptr, b.size, b.padded_size, b.kind) for b in memory.live_buffers()),
        "alive": [b.alive for b in _World.bufs],
        "refcount": device.refcount,
        "context": ctx,
        "streams": [s.alive for s in _World.streams],
        "events": [(e.alive, e.last_record) for e in _World.events],
        "subscriptions": dict(STATE.subscriptions),
        "contents": [_read(b) for b in _World.bufs if b.alive],
    }


def _read(buf: npusim.Buffer) -> bytes:
    out = np.empty(buf.size, np.uint8)
    npusim.memcpy(out, buf.size, buf, buf.size, K.DEVICE_TO_HOST)
    return out.tobytes()


class _World:
    bufs: list[npusim.Buffer] = []
    streams: list[npusim.Stream] = []
    events: list[npusim.Event] = []


@pytest.fixture
def world(rt: None) -> _World:
    rng = np.random.default_rng(5)
    _World.bufs = [npusim.malloc(s) for s in (100, 5000, 1 << 20)]
    for b in _World.bufs:
        npusim.memcpy(b, b.size, rng.integers(0, 255, b.size, dtype=np.uint8), b.size, K.HOST_TO_DEVICE)
    freed = npusim.malloc(64)
    npusim.free(freed)
    _World.bufs.append(freed)
    s = npusim.create_stream()
    dead = npusim.create_stream()
    npusim.destroy_stream(dead)
    _World.streams = [s, dead]
    e = npusim.create_event()
    npusim.record_event(e, s)
    npusim.synchronize_stream(s)
    dead_event = npusim.create_event()
    npusim.destroy_event(dead_event)
    _World.events = [e, dead_event, npusim.create_event()]  # recorded, destroyed, never recorded
    npusim.subscribe_report(threading.get_ident(), s)
    npusim.malloc_host(4096)
    return _World()


def _host() -> np.ndarray:
    return np.zeros(1 << 20, np.uint8)


FAILING_CALLS: list[tuple[str, type[errors.AclError], Callable[[_World], object]]] = [
    ("oom", errors.OutOfMemoryError, lambda w: npusim.malloc(63 << 20)),
    ("malloc size 0", errors.InvalidParamError, lambda w: npusim.malloc(0)),
    ("malloc bad policy", errors.InvalidParamError, lambda w: npusim.malloc(64, 42)),
    ("dvpp oom", errors.OutOfMemoryError, lambda w: npusim.dvpp_malloc(63 << 20)),
    ("double free", errors.MemoryFreeError, lambda w: npusim.free(w.bufs[3])),
    ("interior free", errors.MemoryFreeError, lambda w: npusim.free(w.bufs[1].ptr + 64)),
    ("free host", errors.InvalidMemoryTypeError, lambda w: npusim.free(npusim.numpy_to_ptr(_host()))),
    ("dvpp_free of malloc", errors.MemoryFreeError, lambda w: npusim.dvpp_free(w.bufs[0])),
    ("free_host unknown", errors.MemoryFreeError, lambda w: npusim.free_host(0x5000)),
    ("memcpy dest_max", errors.InvalidParamError,
     lambda w: npusim.memcpy(w.bufs[0], 10, _host(), 100, K.HOST_TO_DEVICE)),
    ("memcpy wrong kind", errors.InvalidMemoryTypeError,
     lambda w: npusim.memcpy(w.bufs[0], 100, _host(), 100, K.DEVICE_TO_HOST)),
    ("memcpy out of range", errors.RtParamInvalidError,
     lambda w: npusim.memcpy(w.bufs[0], 1000, _host(), 101, K.HOST_TO_DEVICE)),
    ("memcpy unknown host", errors.InvalidMemoryTypeError,
     lambda w: npusim.memcpy(w.bufs[0], 100, 0x7000, 100, K.HOST_TO_DEVICE)),
    ("memcpy_async out of range", errors.RtParamInvalidError,
     lambda w: npusim.memcpy_async(w.bufs[1], 6000, _host(), 5001, K.HOST_TO_DEVICE, w.streams[0])),
    ("memcpy_async dead stream", errors.InvalidHandleError,
     lambda w: npusim.memcpy_async(w.bufs[0], 100, _host(), 100, K.HOST_TO_DEVICE, w.streams[1])),
    ("memcpy into freed", errors.RtParamInvalidError,
     lambda w: npusim.memcpy(w.bufs[3], 64, _host(), 64, K.HOST_TO_DEVICE)),
    ("memset out of range", errors.RtParamInvalidError, lambda w: npusim.memset(w.bufs[0], 200, 1, 200)),
    ("memset_async count", errors.InvalidParamError, lambda w: npusim.memset_async(w.bufs[0], 1, 1, 2)),
    ("destroy dead stream", errors.InvalidHandleError, lambda w: npusim.destroy_stream(w.streams[1])),
    ("destroy default stream", errors.InvalidParamError,
     lambda w: npusim.destroy_stream(npusim.get_context().default_stream)),
    ("destroy dead event", errors.InvalidHandleError, lambda w: npusim.destroy_event(w.events[1])),
    ("destroy default context", errors.InvalidParamError,
     lambda w: npusim.destroy_context(npusim.get_context())),
    ("record dead event", errors.InvalidHandleError, lambda w: npusim.record_event(w.events[1])),
    ("create_stream bad flags", errors.InvalidParamError, lambda w: npusim.create_stream(flags=0x80)),
    ("create_event bad flags", errors.InvalidParamError, lambda w: npusim.create_event(0x4)),
    ("set_device bad id", errors.InvalidDeviceError, lambda w: npusim.set_device(3)),
    ("subscribe twice", errors.RepeatSubscribeError,
     lambda w: npusim.subscribe_report(threading.get_ident(), w.streams[0])),
    ("unsubscribe wrong thread", errors.ThreadNotSubscribedError,
     lambda w: npusim.unsubscribe_report(1, w.streams[0])),
    ("launch_callback unsubscribed", errors.StreamNotSubscribedError,
     lambda w: npusim.launch_callback(print, None, 0)),
    ("elapsed unrecorded", errors.EventTimestampError,
     lambda w: npusim.event_elapsed_time(w.events[0], w.events[2])),
    ("repeat init", errors.RepeatInitializeError, lambda w: npusim.init(chip="tiny")),
    ("get_mem_info bad attr", errors.InvalidParamError, lambda w: npusim.get_mem_info(77)),
]


@pytest.mark.parametrize("name, exc_type, call", FAILING_CALLS, ids=[c[0] for c in FAILING_CALLS])
def test_failed_call_leaves_state_intact(world: _World, name: str, exc_type: type[errors.AclError],
                                         call: Callable[[_World], object]) -> None:
    before = _snapshot()
    with pytest.raises(exc_type):
        call(world)
    after = _snapshot()
    assert after == before
    npusim.synchronize_stream(world.streams[0])  # nothing failed on the stream either
    npusim.unsubscribe_report(threading.get_ident(), world.streams[0])


def test_failed_calls_in_a_row_then_everything_still_works(world: _World) -> None:
    before = _snapshot()
    for _name, exc_type, call in FAILING_CALLS:
        with pytest.raises(exc_type):
            call(world)
    # a working program afterwards
    data = np.arange(100, dtype=np.uint8)
    out = np.zeros_like(data)
    npusim.memcpy_async(world.bufs[0], 100, data, 100, K.HOST_TO_DEVICE, world.streams[0])
    npusim.memcpy_async(out, 100, world.bufs[0], 100, K.DEVICE_TO_HOST, world.streams[0])
    npusim.synchronize_stream(world.streams[0])
    assert np.array_equal(out, data)
    assert npusim.get_mem_info() == before["mem_info"]
