"""The runtime option that bypasses the caching pool (``init(pool=False)``, ``ACLSIM_POOL=off``,
``{"aclsim": {"pool": false}}``): malloc maps and free unmaps device memory directly, the memory
debugger still checks every buffer, the statistics say what happened."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np
import pytest

import aclsim
from aclsim.errors import (
    AclError,
    InvalidParamError,
    LeakWarning,
    MemoryFreeError,
    OutOfMemoryError,
    UseAfterFreeError,
)
from aclsim.runtime import CachingPool, device_by_id
from aclsim.runtime.memory import DirectAllocator

MIB = 1 << 20


def test_malloc_maps_and_free_unmaps_directly() -> None:
    aclsim.init(chip="tiny", pool=False)
    aclsim.set_device(0)
    memory = device_by_id(0).memory
    assert memory is not None and memory.pool is None and isinstance(memory.allocator, DirectAllocator)
    page = 2 * MIB  # the simulated arena's page
    a = aclsim.malloc(MIB)
    assert aclsim.memory_reserved() == page and aclsim.memory_allocated() == MIB + 32
    aclsim.free(a)
    assert aclsim.memory_reserved() == 0  # nothing cached: the pages went back at once
    b, c = aclsim.malloc(1000), aclsim.malloc(1000)  # each allocation maps its own page
    assert aclsim.memory_reserved() == 2 * page
    free_now, total = aclsim.get_mem_info()
    assert total - free_now == 2 * page
    aclsim.free(b)
    aclsim.free(c)
    s = aclsim.memory_stats()
    assert (s["num_hits"], s["num_misses"], s["num_device_alloc"], s["num_device_free"]) == (0, 3, 3, 3)
    assert s["reserved_bytes.all.peak"] == 2 * page and s["allocation.all.allocated"] == 3
    assert aclsim.empty_cache() == 0  # nothing to give back
    aclsim.reset_peak_memory_stats()
    aclsim.reset_accumulated_memory_stats()
    s = aclsim.memory_stats()
    assert s["reserved_bytes.all.peak"] == 0 and s["allocation.all.allocated"] == 0
    aclsim.reset_device(0)
    assert aclsim.finalize() == []


def test_the_default_is_the_caching_pool() -> None:
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    memory = device_by_id(0).memory
    assert memory is not None and isinstance(memory.pool, CachingPool)
    aclsim.reset_device(0)
    aclsim.finalize()


def test_environment_and_config_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ACLSIM_POOL", "off")
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    assert device_by_id(0).memory.pool is None  # type: ignore[union-attr]
    aclsim.reset_device(0)
    aclsim.finalize()
    aclsim.init(chip="tiny", pool=True)  # the keyword wins over the environment
    aclsim.set_device(0)
    assert device_by_id(0).memory.pool is not None  # type: ignore[union-attr]
    aclsim.reset_device(0)
    aclsim.finalize()
    monkeypatch.delenv("ACLSIM_POOL")
    cfg = tmp_path / "acl.json"
    cfg.write_text(json.dumps({"aclsim": {"pool": False}}))
    aclsim.init(str(cfg), chip="tiny")
    aclsim.set_device(0)
    assert device_by_id(0).memory.pool is None  # type: ignore[union-attr]
    aclsim.reset_device(0)
    aclsim.finalize()
    monkeypatch.setenv("ACLSIM_POOL", "sometimes")
    with pytest.raises(InvalidParamError, match="sometimes"):
        aclsim.init(chip="tiny")
    assert not aclsim.is_initialized()


def test_the_memory_debugger_still_checks() -> None:
    aclsim.init(chip="tiny", pool=False)
    aclsim.set_device(0)
    a = aclsim.malloc(256)
    aclsim.free(a)
    with pytest.raises(MemoryFreeError, match="double free"):
        aclsim.free(a)
    host = np.zeros(4, np.float32)
    with pytest.raises(UseAfterFreeError, match="unmapped"):
        aclsim.memcpy(a, 16, host, 16, aclsim.MemcpyKind.HOST_TO_DEVICE)
    with pytest.raises(OutOfMemoryError) as info:  # the tiny chip has 64 MiB
        aclsim.malloc(128 * MIB)
    assert info.value.code == 207001 and aclsim.memory_reserved() == 0
    leak = aclsim.malloc(100)
    aclsim.reset_device(0)
    with pytest.warns(LeakWarning):
        leaks = aclsim.finalize()
    assert len(leaks) == 1 and f"0x{leak.ptr:x}" in leaks[0]


def test_free_does_not_wait_for_queued_work() -> None:
    """``aclrtFree`` unmaps at once (``aclrtFreeWithDevSync`` is the call that waits): a task
    queued before the free that touches the memory fails when it runs, naming the lines."""
    aclsim.init(chip="tiny", pool=False)
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    buf = aclsim.malloc(64)
    go = threading.Event()
    stream.launch(lambda: (go.wait(5), 0.0)[1], label="hold")
    host = np.zeros(16, np.uint8)
    aclsim.memcpy_async(host, 16, buf, 16, aclsim.MemcpyKind.DEVICE_TO_HOST, stream)
    aclsim.free(buf)
    assert aclsim.memory_reserved() == 0
    go.set()
    with pytest.raises(AclError, match="freed"):
        aclsim.synchronize_stream(stream)
    aclsim.destroy_stream(stream)
    aclsim.reset_device(0)
    aclsim.finalize()
