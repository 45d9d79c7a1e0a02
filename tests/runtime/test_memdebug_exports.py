"""The memory debugger's history and exports: PyTorch-layout snapshots, pickled dumps, and the
PNG of allocated/reserved bytes over time."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

import aclsim
from aclsim import errors
from aclsim.runtime._state import STATE
from aclsim.runtime.memdebug import usage_over_time

MiB = 1 << 20
# keys measured on torch 2.11 (shared/design/reference/allocator-prior-art.md 1.8)
SEGMENT_KEYS = {"active_size", "address", "allocated_size", "blocks", "device", "frames", "is_expandable",
                "requested_size", "segment_pool_id", "segment_type", "stream", "total_size"}
BLOCK_KEYS = {"address", "frames", "requested_size", "size", "state"}
TRACE_KEYS = {"action", "addr", "compile_context", "frames", "size", "stream", "time_us", "user_metadata"}


def test_history_records_pytorch_trace_entries(rt: None) -> None:
    aclsim.record_memory_history(stacks=True)
    buf = aclsim.malloc(3 * MiB)
    aclsim.free(buf)
    events = aclsim.memory_history()
    actions = [e["action"] for e in events]
    assert actions == ["segment_map", "alloc", "free_requested", "free_completed"]
    for e in events:
        assert set(e) >= TRACE_KEYS
    alloc = events[1]
    assert alloc["addr"] == buf.ptr and alloc["size"] == 3 * MiB + 512
    assert alloc["stream"] == buf.stream.handle
    top = alloc["frames"][0]
    assert top["filename"] == __file__ and top["name"] == "test_history_records_pytorch_trace_entries"
    assert events[0]["size"] == 4 * MiB  # two 2 MiB pages mapped
    aclsim.record_memory_history(False)
    assert aclsim.memory_history() == []


def test_history_ring_buffer_and_devices_opened_later() -> None:
    aclsim.init(chip="tiny", devices=2)
    aclsim.set_device(0)
    aclsim.record_memory_history(max_entries=10)  # every device, also those opened later
    for _ in range(20):
        aclsim.free(aclsim.malloc(100))
    assert len(aclsim.memory_history()) == 10
    aclsim.set_device(1)
    aclsim.free(aclsim.malloc(100))
    assert [e["action"] for e in aclsim.memory_history()][:2] == ["segment_map", "alloc"]  # current: 1
    assert aclsim.memory_history(1) == aclsim.memory_history()
    assert len(aclsim.memory_history(0)) == 10
    snap = aclsim.memory_snapshot(1)
    assert snap["device_traces"][0] == [] and len(snap["device_traces"][1]) == 4
    assert {seg["device"] for seg in snap["segments"]} == {1}
    both = aclsim.memory_snapshot()
    assert [len(t) for t in both["device_traces"]] == [10, 4]
    with pytest.raises(errors.InvalidParamError):
        aclsim.record_memory_history(max_entries=0)


def test_oom_is_recorded(rt: None) -> None:
    aclsim.record_memory_history()
    with pytest.raises(errors.OutOfMemoryError):
        aclsim.malloc(100 * MiB)
    oom = aclsim.memory_history()[-1]
    assert oom["action"] == "oom" and oom["device_free"] == 64 * MiB


def test_snapshot_layout(rt: None) -> None:
    aclsim.record_memory_history()
    a = aclsim.malloc(1000)
    b = aclsim.malloc(5 * MiB)
    c = aclsim.malloc(3000)
    aclsim.free(c)
    snap = aclsim.memory_snapshot()
    assert set(snap) >= {"segments", "device_traces"}
    assert len(snap["device_traces"]) == 1 and snap["device_traces"][0]
    segments = snap["segments"]
    assert {s["segment_type"] for s in segments} == {"small", "large"}
    total = 0
    for seg in segments:
        assert set(seg) == SEGMENT_KEYS and seg["is_expandable"] and seg["device"] == 0
        assert sum(blk["size"] for blk in seg["blocks"]) == seg["total_size"]  # blocks tile it
        pos = seg["address"]
        for blk in seg["blocks"]:
            assert set(blk) == BLOCK_KEYS and blk["address"] == pos
            assert blk["state"] in ("active_allocated", "active_awaiting_free", "inactive")
            pos += blk["size"]
        total += seg["total_size"]
    assert total == aclsim.memory_reserved()
    live = {blk["address"]: blk for seg in segments for blk in seg["blocks"]
            if blk["state"] == "active_allocated"}
    assert set(live) == {a.ptr, b.ptr}
    assert live[a.ptr]["requested_size"] == 1000 and live[a.ptr]["size"] == 1536
    frame = live[b.ptr]["frames"][0]
    assert f"{frame['filename']}:{frame['line']}" == b.site
    small = next(s for s in segments if s["segment_type"] == "small")
    assert small["allocated_size"] == 1536 and small["requested_size"] == 1000
    assert small["stream"] == a.stream.handle
    aclsim.free(a)
    aclsim.free(b)


def test_snapshot_of_all_devices_and_dump(rt: None, tmp_path: Path) -> None:
    buf = aclsim.malloc(100)
    path = tmp_path / "snap.pickle"
    aclsim.dump_memory_snapshot(path)
    with open(path, "rb") as f:
        loaded = pickle.load(f)
    assert loaded["segments"] == aclsim.memory_snapshot()["segments"]
    assert loaded["segments"][0]["blocks"][0]["address"] == buf.ptr
    aclsim.free(buf)


def test_snapshot_of_a_classic_pool() -> None:
    aclsim.init(chip="tiny", alloc_conf="expandable_segments:False")
    aclsim.set_device(0)
    buf = aclsim.malloc(3 * MiB)
    (seg,) = aclsim.memory_snapshot(0)["segments"]
    assert not seg["is_expandable"] and seg["total_size"] == 20 * MiB
    assert [blk["state"] for blk in seg["blocks"]] == ["active_allocated", "inactive"]
    aclsim.free(buf)


def test_plot_memory_usage(rt: None, tmp_path: Path) -> None:
    path = tmp_path / "memory.png"
    with pytest.raises(errors.InvalidParamError, match="history"):
        aclsim.plot_memory_usage(path)
    keep = aclsim.malloc(MiB)  # before the history: the plot starts from the right level
    aclsim.record_memory_history()
    bufs = [aclsim.malloc(n * MiB) for n in (1, 2, 3)]
    for b in bufs:
        aclsim.free(b)
    aclsim.empty_cache()
    pool = STATE.devices[0].memory.pool  # type: ignore[union-attr]
    times, allocated, reserved = usage_over_time(pool)
    assert times == sorted(times)
    assert allocated[-1] == aclsim.memory_allocated() == keep.size + 512
    assert reserved[-1] == aclsim.memory_reserved()
    assert max(allocated) == keep.size + 512 + (6 * MiB + 3 * 512)
    assert min(allocated) >= keep.size
    aclsim.plot_memory_usage(path)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000
    aclsim.free(keep)


def test_debugger_needs_the_caching_pool(rt: None) -> None:
    from aclsim.runtime.memory import BestFitAllocator, DeviceMemory

    device = STATE.devices[0]
    assert device.memory is not None
    plain = DeviceMemory(0, device.memory.arena, allocator=BestFitAllocator(1 << 20))
    old, device.memory = device.memory, plain
    try:
        assert aclsim.memory_stats() == {}
        with pytest.raises(errors.InvalidParamError, match="caching pool"):
            aclsim.set_memory_limit("1MiB")
    finally:
        device.memory = old
