"""aclsim.testing: seed 003's memory health table (grades, assess, the monitor)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import aclsim
from aclsim.errors import InvalidParamError
from aclsim.testing import MemoryMonitor, assess, grade, sample_add, sample_add_get_workspace_size


@pytest.fixture
def dev() -> Any:
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    yield
    aclsim.reset_device_force(0)


@pytest.mark.parametrize("measure, value, expected", [
    ("allocation_latency_us", 9.99, "excellent"), ("allocation_latency_us", 10.0, "warning"),
    ("allocation_latency_us", 50.0, "warning"), ("allocation_latency_us", 50.01, "danger"),
    ("fragmentation", 0.099, "excellent"), ("fragmentation", 0.30, "warning"),
    ("fragmentation", 0.31, "danger"),
    ("hit_rate", 0.91, "excellent"), ("hit_rate", 0.90, "warning"), ("hit_rate", 0.70, "warning"),
    ("hit_rate", 0.69, "danger"),
    ("zero_copy_share", 0.81, "excellent"), ("zero_copy_share", 0.5, "warning"),
    ("zero_copy_share", 0.49, "danger"),
    ("hit_rate", None, "n/a"),
])
def test_grades_follow_the_seed_thresholds(measure: str, value: Any, expected: str) -> None:
    assert grade(measure, value) == expected


def test_grade_unknown_measure() -> None:
    with pytest.raises(ValueError, match="unknown measure"):
        grade("speed", 1.0)


def test_assess_from_statistics() -> None:
    stats = {"num_hits": 7, "num_misses": 3, "requested_bytes.all.peak": 3 << 20,
             "reserved_bytes.all.peak": 4 << 20}
    h = assess(stats, alloc_ns=[1000] * 99 + [90_000], zero_copy_bytes=600, device_gm_bytes=400)
    assert h.allocation_latency_us == pytest.approx(1.89)
    assert h.p99_latency_us == pytest.approx(90.0)
    assert h.fragmentation == pytest.approx(0.25) and h.hit_rate == pytest.approx(0.7)
    assert h.zero_copy_share == pytest.approx(0.6)
    assert h.grades() == {"allocation_latency_us": "excellent", "fragmentation": "warning",
                          "hit_rate": "warning", "zero_copy_share": "warning"}
    text = h.render()
    for word in ("allocation latency", "1.89 us", "25.0 %", "70.0 %", "60.0 %", "> 90 % / 70-90 / < 70"):
        assert word in text, word
    empty = assess({"num_hits": 0, "num_misses": 0, "requested_bytes.all.peak": 0,
                    "reserved_bytes.all.peak": 0})
    assert set(empty.grades().values()) == {"n/a"}


def test_monitor_measures_a_run(dev: Any) -> None:
    aclsim.free(aclsim.malloc(100))  # before the monitor: not counted
    with MemoryMonitor() as mon:
        bufs = [aclsim.malloc(1 << 20) for _ in range(3)]
        for b in bufs:
            aclsim.free(b)
        for _ in range(7):
            aclsim.free(aclsim.malloc(1 << 20))
    h = mon.health
    assert h is not None and h.allocations == 10 and len(mon.alloc_ns) == 10
    # the 7 repeated allocations hit the cache; the first of the 3 needs pages from the device
    assert h.hits >= 7 and h.misses >= 1 and h.hits + h.misses == 10
    assert h.hit_rate == pytest.approx(h.hits / 10)
    assert h.allocation_latency_us is not None and h.allocation_latency_us > 0
    assert h.peak_requested_bytes == 3 << 20
    assert h.fragmentation == pytest.approx(1 - (3 << 20) / h.peak_reserved_bytes)
    assert h.zero_copy_share is None  # no kernel touched global memory
    # the device's allocator is the pool again
    mem = aclsim.runtime.device_by_id(0).memory
    assert mem.allocator is mem.pool


def _zero_copy_run(n: int) -> Any:
    host = [aclsim.malloc_host(4 * n) for _ in range(3)]
    for p, v in zip(host[:2], (1.0, 2.0), strict=True):
        aclsim.ptr_to_numpy(p, n, np.float32)[:] = v
    mapped = [aclsim.host_register(p, 4 * n) for p in host]
    dz = aclsim.malloc(4 * n)
    with MemoryMonitor() as mon:
        size, ex = sample_add_get_workspace_size(mapped[0], mapped[1], mapped[2], n)
        sample_add(None, size, ex, None)
        size, ex = sample_add_get_workspace_size(mapped[0], mapped[1], dz, n)
        sample_add(None, size, ex, None)
    assert np.all(aclsim.ptr_to_numpy(host[2], n, np.float32) == 3.0)
    aclsim.free(dz)
    for p in host:
        aclsim.host_unregister(p)
        aclsim.free_host(p)
    return mon


def test_monitor_zero_copy_share(dev: Any) -> None:
    n = 8  # 32 B: one block
    mon = _zero_copy_run(n)
    h = mon.health
    assert h is not None and mon.launches == 2
    # first launch: x, y, z through host memory; second: x, y host, z device
    assert h.zero_copy_bytes == 5 * 4 * n and h.device_gm_bytes == 4 * n
    assert h.zero_copy_share == pytest.approx(5 / 6)


def test_monitor_zero_copy_share_over_several_blocks(dev: Any) -> None:
    n = 1024  # 4 blocks on the tiny chip
    h = _zero_copy_run(n).health
    assert h is not None
    assert h.zero_copy_bytes == 5 * 4 * n and h.device_gm_bytes == 4 * n


def test_kernel_tags_every_blocks_zero_copy_access_as_host(dev: Any) -> None:
    """Every block records its accesses to host-mapped memory as HOST (the allocation cache is the
    launch's, the host ranges each block's: only the first block used to)."""
    import aclsim.kernel as asc
    from aclsim.isa import Space

    n = 1024
    host = [aclsim.malloc_host(4 * n) for _ in range(3)]
    mapped = [aclsim.host_register(p, 4 * n) for p in host]
    with asc.capture_launches() as launches:
        size, ex = sample_add_get_workspace_size(*mapped, n)
        sample_add(None, size, ex, None)
        aclsim.synchronize_device()
    spaces = {acc.space for instrs in launches[0].streams for ins in instrs
              for acc in (*ins.reads, *ins.writes) if acc.space in (Space.GM, Space.HOST)}
    for p in host:
        aclsim.host_unregister(p)
        aclsim.free_host(p)
    assert spaces == {Space.HOST}


def test_monitor_refuses_a_runtime_finalized_inside() -> None:
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    mon = MemoryMonitor()
    mon.start()
    aclsim.reset_device(0)
    aclsim.finalize()
    with pytest.raises(InvalidParamError, match="reset or the runtime finalized"):
        mon.stop()
    with pytest.raises(InvalidParamError, match="not started"):
        mon.stop()


def test_monitor_needs_a_device() -> None:
    aclsim.init(chip="tiny")
    with pytest.raises(aclsim.AclError):
        MemoryMonitor().start()
