"""The pool inside the runtime: stream-ordered reuse with real streams (the aliasing bugs
PyTorch, RMM and CUB users hit), statistics and limits through the Pythonic API, configuration,
and the pyACL face on top."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import numpy as np
import pytest

import aclsim
import aclsim.acl as acl
from aclsim import errors
from aclsim.runtime.backends.sim import SimArena
from aclsim.runtime.memory import BestFitAllocator, DeviceMemory
from aclsim.runtime.pool import InvalidRelease

K = aclsim.MemcpyKind
MiB = 1 << 20


@pytest.fixture
def gate() -> Iterator[Callable[[aclsim.Stream], threading.Event]]:
    """``gate(stream)`` holds the stream at a device function until the event is set."""
    events: list[threading.Event] = []

    def hold(stream: aclsim.Stream) -> threading.Event:
        ev = threading.Event()
        events.append(ev)
        aclsim.launch_function(lambda: 0.0 if ev.wait(10) else 0.0, label="gate", stream=stream)
        return ev

    yield hold
    for ev in events:
        ev.set()


def test_free_while_another_stream_reads_is_not_reused(rt: None, gate: Callable) -> None:
    """PyTorch's record_stream case: a side stream still has a copy of the buffer queued when
    the host frees it; the memory must not be handed out again before that copy ran."""
    side = aclsim.create_stream()
    ev = gate(side)
    x = aclsim.malloc(MiB)  # belongs to the default stream
    host = np.zeros(MiB, np.uint8)
    aclsim.memcpy_async(host, MiB, x, MiB, K.DEVICE_TO_HOST, side)
    aclsim.free(x)  # pyACL: no synchronization
    assert aclsim.memory_stats()["pending_frees"] == 1
    y = aclsim.malloc(MiB)
    assert y.ptr != x.ptr  # not even the default stream gets it back yet
    ev.set()
    with pytest.raises(errors.TaskError, match="freed"):  # the queued copy saw the free
        side.synchronize()
    z = aclsim.malloc(2 * MiB)  # a slow-path allocation reaps the completed free
    assert aclsim.memory_stats()["pending_frees"] == 0
    for b in (y, z):
        aclsim.free(b)
    aclsim.destroy_stream(side)


def test_pyacl_loop_stays_on_the_hit_path(rt: None) -> None:
    """malloc on the default stream, copies on another stream, synchronize, free: the next
    malloc of the same size is a cache hit."""
    s = aclsim.create_stream()
    host = np.arange(4096, dtype=np.uint8)
    ptrs = set()
    for _ in range(5):
        buf = aclsim.malloc(4096)
        aclsim.memcpy_async(buf, 4096, host, 4096, K.HOST_TO_DEVICE, s)
        aclsim.synchronize_stream(s)
        aclsim.free(buf)
        ptrs.add(buf.ptr)
    stats = aclsim.memory_stats()
    assert len(ptrs) == 1 and stats["num_hits"] == 4 and stats["pending_frees"] == 0
    aclsim.destroy_stream(s)


def test_same_stream_reuse_is_immediate_and_safe(rt: None, gate: Callable) -> None:
    s = aclsim.create_stream()
    ev = gate(s)
    x = aclsim.malloc(4096, stream=s)
    host = np.zeros(4096, np.uint8)
    aclsim.memcpy_async(host, 4096, x, 4096, K.DEVICE_TO_HOST, s)
    aclsim.free(x)
    y = aclsim.malloc(4096, stream=s)
    assert y.ptr == x.ptr  # stream order: the queued copy runs before anything queued on y
    aclsim.memset_async(y, 4096, 5, 4096, s)
    ev.set()
    with pytest.raises(errors.TaskError):
        s.synchronize()  # the copy of the freed x fails, and does not touch y
    out = np.zeros(4096, np.uint8)
    aclsim.memcpy(out, 4096, y, 4096, K.DEVICE_TO_HOST)
    assert (out == 5).all()
    aclsim.free(y)
    aclsim.destroy_stream(s)


def test_other_stream_waits_for_the_freeing_stream_under_pressure(rt: None, gate: Callable) -> None:
    """Freed on stream a while a's work is queued; stream b needs that very memory (the device
    is nearly full): the pool waits for a's work before handing the pages to b."""
    a, b = aclsim.create_stream(), aclsim.create_stream()
    ev = gate(a)
    x = aclsim.malloc(60 * MiB, stream=a)
    aclsim.memset_async(x, 60 * MiB, 1, 60 * MiB, a)
    aclsim.free(x)
    timer = threading.Timer(0.2, ev.set)
    timer.start()
    y = aclsim.malloc(60 * MiB, stream=b)  # waits (without the runtime's locks) for a
    assert aclsim.query_stream(a)  # a's work was done before y was handed out
    stats = aclsim.memory_stats()
    assert stats["num_sync_all_streams"] >= 1 and stats["num_ooms"] == 0
    timer.join()
    with pytest.raises(errors.TaskError):
        a.synchronize()
    aclsim.free(y)
    for s in (a, b):
        aclsim.destroy_stream(s)


def test_streams_do_not_share_cached_blocks(rt: None) -> None:
    a, b = aclsim.create_stream(), aclsim.create_stream()
    x = aclsim.malloc(4096, stream=a)
    aclsim.free(x)
    y = aclsim.malloc(4096, stream=b)
    assert y.ptr != x.ptr and y.stream is b
    aclsim.free(y)
    with pytest.raises(errors.InvalidHandleError):
        aclsim.destroy_stream(a) or aclsim.malloc(64, stream=a)
    aclsim.destroy_stream(b)


def test_destroying_a_stream_returns_its_cache(rt: None) -> None:
    s = aclsim.create_stream()
    aclsim.free(aclsim.malloc(3 * MiB, stream=s))
    assert aclsim.memory_reserved() > 0
    aclsim.destroy_stream(s)
    assert aclsim.memory_reserved() == 0


def test_malloc_on_a_stream_of_another_device() -> None:
    aclsim.init(chip="tiny", devices=2)
    aclsim.set_device(1)
    other = aclsim.create_stream()
    aclsim.set_device(0)
    with pytest.raises(errors.StreamContextError):
        aclsim.malloc(64, stream=other)


# --- statistics, limits, get_mem_info ------------------------------------------------------------

def test_memory_stats_through_the_api(rt: None) -> None:
    a = aclsim.malloc(1000)
    b = aclsim.malloc(3 * MiB)
    stats = aclsim.memory_stats()
    assert stats["allocation.all.current"] == 2
    assert stats["requested_bytes.all.current"] == 1000 + 3 * MiB
    assert aclsim.memory_allocated() == stats["allocated_bytes.all.current"] == 1536 + 3 * MiB + 512
    assert aclsim.memory_reserved() == 2 * MiB + 4 * MiB
    free, total = aclsim.get_mem_info()
    assert free == total - aclsim.memory_reserved()
    aclsim.free(a)
    aclsim.free(b)
    assert aclsim.max_memory_allocated() == 1536 + 3 * MiB + 512
    aclsim.reset_peak_memory_stats()
    assert aclsim.max_memory_allocated() == 0
    assert aclsim.max_memory_reserved() == aclsim.memory_reserved()
    assert aclsim.empty_cache() == 6 * MiB
    assert aclsim.get_mem_info() == (total, total)
    aclsim.reset_accumulated_memory_stats()
    assert aclsim.memory_stats()["allocation.all.allocated"] == 0
    assert aclsim.memory_stats(0)["allocation.all.current"] == 0  # by device id


def test_set_memory_limit(rt: None) -> None:
    assert aclsim.set_memory_limit("8MiB") == 8 * MiB
    assert aclsim.get_mem_info() == (8 * MiB, 64 * MiB)
    keep = aclsim.malloc(5 * MiB)
    with pytest.raises(errors.OutOfMemoryError) as info:
        aclsim.malloc(5 * MiB)
    err = info.value
    assert err.code == 207001 and err.limit == 8 * MiB and err.reserved == 6 * MiB
    assert err.used == 5 * MiB + 512 and err.size == 5 * MiB
    assert "8388608 B limit" in str(err)
    assert aclsim.memory_stats()["num_ooms"] == 1
    assert aclsim.set_memory_limit(fraction=0.5) == 32 * MiB
    aclsim.free(aclsim.malloc(5 * MiB))
    assert aclsim.set_memory_limit() == 64 * MiB
    for bad in ({"limit": 0}, {"limit": "lots"}, {"fraction": 1.5}, {"limit": 1, "fraction": 0.5}):
        with pytest.raises(errors.InvalidParamError):
            aclsim.set_memory_limit(**bad)  # type: ignore[arg-type]
    aclsim.free(keep)


def test_oom_waits_for_streams_that_hold_freed_memory(rt: None, gate: Callable) -> None:
    s = aclsim.create_stream()
    ev = gate(s)
    x = aclsim.malloc(40 * MiB)
    aclsim.memset_async(x, 40 * MiB, 0, 40 * MiB, s)  # s uses x ...
    aclsim.free(x)  # ... so the free waits for s
    aclsim.set_memory_limit("41MiB")
    timer = threading.Timer(0.2, ev.set)
    timer.start()
    y = aclsim.malloc(30 * MiB)  # the ladder waits for s, then x's pages are remapped
    assert aclsim.query_stream(s) and aclsim.memory_reserved() <= 41 * MiB
    timer.join()
    with pytest.raises(errors.TaskError):
        s.synchronize()
    aclsim.free(y)
    aclsim.destroy_stream(s)


def test_alloc_conf_configures_the_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ACLSIM_ALLOC_CONF", "expandable_segments:False,max_split_size_mb:32")
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    stats = aclsim.memory_stats()
    assert stats["expandable_segments"] is False and stats["max_split_size"] == 32 * MiB
    aclsim.free(aclsim.malloc(100))
    assert aclsim.memory_reserved() == 2 * MiB  # a classic small segment
    aclsim.reset_device(0)
    aclsim.finalize()
    aclsim.init(chip="tiny", alloc_conf=aclsim.PoolOptions(page_size=4 * MiB))
    aclsim.set_device(0)
    assert aclsim.memory_stats()["page_size"] == 4 * MiB
    aclsim.reset_device(0)
    aclsim.finalize()
    with pytest.raises(errors.InvalidParamError, match="alloc conf"):
        aclsim.init(chip="tiny", alloc_conf="expandable:yes")


def test_pyacl_face_over_the_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ACLSIM_CHIP", "tiny")
    assert acl.init() == 0
    assert acl.rt.set_device(0) == 0
    ptr, ret = acl.rt.malloc(1000, 0)
    assert ret == 0 and ptr % 64 == 0
    assert acl.rt.free(ptr) == 0
    again, ret = acl.rt.malloc(1000, 0)
    assert again == ptr  # a cache hit behind aclrtMalloc
    free, total, ret = acl.rt.get_mem_info(1)
    assert ret == 0 and free == total - aclsim.memory_reserved()
    assert acl.rt.free(again) == 0
    assert acl.rt.free(again) == acl.ACL_ERROR_RT_MEMORY_FREE
    assert "double free" in acl.get_recent_err_msg()
    assert acl.rt.reset_device(0) == 0
    assert acl.finalize() == 0


def test_best_fit_allocator_still_plugs_into_the_seam() -> None:
    alloc = BestFitAllocator(1 << 20)
    mem = DeviceMemory(0, SimArena(0, 1 << 20), allocator=alloc)
    assert mem.pool is None
    buf = mem.malloc(100, 0, "here")
    assert buf.padded_size == 160 and alloc.reserved_bytes() == 192
    mem.free(buf.ptr, site="there")
    assert alloc.reserved_bytes() == 0 and mem.free_bytes() == 1 << 20
    with pytest.raises(InvalidRelease):
        alloc.release(0)
    with pytest.raises(errors.OutOfMemoryError):
        mem.malloc(2 << 20, 0, "here")
    mem.close()


def _malloc_in_helper(size: int) -> aclsim.Buffer:
    return aclsim.malloc(size)


def test_snapshot_block_frames_are_the_history_stack(rt: None, gate: Callable) -> None:
    """With stacks recorded, an active block's frames in the snapshot are the Python stack of
    its allocation (docs/memory.md), not just the line of the malloc; without them, that line."""
    aclsim.record_memory_history(stacks=True)
    a = _malloc_in_helper(1000)
    pending = _malloc_in_helper(5000)
    side = aclsim.create_stream()
    ev = gate(side)
    aclsim.memset_async(pending, 5000, 0, 5000, side)  # another stream will use it ...
    aclsim.free(pending)  # ... so its free is pending
    aclsim.record_memory_history(stacks=False)  # later events without stacks
    b = aclsim.malloc(2000)
    blocks = {blk["address"]: blk for seg in aclsim.memory_snapshot()["segments"] for blk in seg["blocks"]}
    alloc = {e["addr"]: e for e in aclsim.memory_history() if e["action"] == "alloc"}
    frames = blocks[a.ptr]["frames"]
    assert frames == alloc[a.ptr]["frames"]
    names = [f["name"] for f in frames[:2]]
    assert names == ["_malloc_in_helper", "test_snapshot_block_frames_are_the_history_stack"]
    assert blocks[pending.ptr]["state"] == "active_awaiting_free"
    assert blocks[pending.ptr]["frames"] == alloc[pending.ptr]["frames"]
    site = blocks[b.ptr]["frames"]  # recorded without a stack: the line of the malloc
    assert len(site) == 1 and f"{site[0]['filename']}:{site[0]['line']}" == b.site
    ev.set()
    with pytest.raises(errors.TaskError, match="freed"):  # the queued memset saw the free
        side.synchronize()
    aclsim.free(a)
    aclsim.free(b)
    aclsim.destroy_stream(side)
