"""Seed 003's memory health table ("性能优化关键指标"): allocation latency, fragmentation, pool
hit rate and zero-copy share of a run, graded excellent / warning / danger against the seed's
thresholds.  ``docs/testing.md`` defines each measure.

:func:`assess` computes the table from what a run left: the pool's statistics
(:func:`aclsim.memory_stats`, accumulated and peak values reset at the start of the run), the
allocator times of the run and the global-memory traffic of its kernel launches.
:class:`MemoryMonitor` gathers those around a block of code.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import aclsim
from aclsim.errors import InvalidParamError
from aclsim.isa import Space
from aclsim.kernel import add_launch_listener, remove_launch_listener
from aclsim.runtime import device_by_id

__all__ = ["THRESHOLDS", "MemoryHealth", "MemoryMonitor", "assess", "grade"]

#: measure -> (excellent bound, danger bound, higher is better), seed 003 section 6.2:
#: latency < 10 us / 10-50 / > 50; fragmentation < 10 % / 10-30 / > 30;
#: hit rate > 90 % / 70-90 / < 70; zero-copy share > 80 % / 50-80 / < 50.
THRESHOLDS: dict[str, tuple[float, float, bool]] = {
    "allocation_latency_us": (10.0, 50.0, False),
    "fragmentation": (0.10, 0.30, False),
    "hit_rate": (0.90, 0.70, True),
    "zero_copy_share": (0.80, 0.50, True),
}
_LABELS = {"allocation_latency_us": "allocation latency", "fragmentation": "fragmentation",
           "hit_rate": "pool hit rate", "zero_copy_share": "zero-copy share"}


def grade(measure: str, value: float | None) -> str:
    """``"excellent"``, ``"warning"`` or ``"danger"`` for ``value`` of ``measure`` (a key of
    :data:`THRESHOLDS`); ``"n/a"`` when the run had nothing to measure (``None``).  The
    bounds belong to the warning band, as the seed writes them (10-50 us is a warning).

    >>> grade("allocation_latency_us", 9.9), grade("hit_rate", 0.9), grade("fragmentation", 0.31)
    ('excellent', 'warning', 'danger')
    """
    try:
        good, bad, higher = THRESHOLDS[measure]
    except KeyError:
        raise ValueError(f"unknown measure {measure!r}; known: {', '.join(THRESHOLDS)}") from None
    if value is None:
        return "n/a"
    if higher:
        return "excellent" if value > good else "warning" if value >= bad else "danger"
    return "excellent" if value < good else "warning" if value <= bad else "danger"


@dataclass(frozen=True)
class MemoryHealth:
    """The table's measures (``None``: nothing to measure in the run) and what they come from."""

    allocation_latency_us: float | None
    fragmentation: float | None
    hit_rate: float | None
    zero_copy_share: float | None
    allocations: int
    hits: int
    misses: int
    p99_latency_us: float | None
    peak_reserved_bytes: int
    peak_requested_bytes: int
    zero_copy_bytes: int
    device_gm_bytes: int

    def grades(self) -> dict[str, str]:
        return {m: grade(m, getattr(self, m)) for m in THRESHOLDS}

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "grades": self.grades()}

    def rows(self) -> list[tuple[str, str, str, str]]:
        """(measure, value, grade, thresholds) for each line of the table."""
        out = []
        for m, (good, bad, higher) in THRESHOLDS.items():
            value = getattr(self, m)
            if m == "allocation_latency_us":
                text = "-" if value is None else f"{value:.2f} us"
                bands = f"< {good:g} us / {good:g}-{bad:g} / > {bad:g}"
            else:
                text = "-" if value is None else f"{value * 100:.1f} %"
                op1, op2 = (">", "<") if higher else ("<", ">")
                lo, hi = sorted((good, bad))
                bands = f"{op1} {good * 100:g} % / {lo * 100:g}-{hi * 100:g} / {op2} {bad * 100:g}"
            out.append((_LABELS[m], text, grade(m, value), bands))
        return out

    def render(self) -> str:
        """The table as text: measure, value, grade, thresholds (excellent / warning / danger)."""
        head = ("measure", "value", "grade", "excellent / warning / danger")
        rows = [head, *self.rows()]
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
        lines.insert(1, "  ".join("-" * w for w in widths))
        return "\n".join(lines)


def assess(stats: dict[str, Any], *, alloc_ns: Sequence[int] = (), zero_copy_bytes: int = 0,
           device_gm_bytes: int = 0) -> MemoryHealth:
    """The health table of a run.

    ``stats``: :func:`aclsim.memory_stats` at the end of the run, its accumulated and peak
    statistics reset at the start.  ``alloc_ns``: the allocator time of each device allocation
    of the run.  ``zero_copy_bytes`` / ``device_gm_bytes``: the global-memory bytes the run's
    kernels read and wrote in host memory mapped for the device / in device memory.

    >>> s = {"num_hits": 9, "num_misses": 1, "requested_bytes.all.peak": 900,
    ...      "reserved_bytes.all.peak": 1000}
    >>> h = assess(s, alloc_ns=[2000, 4000], zero_copy_bytes=0, device_gm_bytes=10)
    >>> h.allocation_latency_us, round(h.fragmentation, 3), h.hit_rate, h.zero_copy_share
    (3.0, 0.1, 0.9, 0.0)
    """
    hits, misses = int(stats["num_hits"]), int(stats["num_misses"])
    allocations = hits + misses
    peak_reserved = int(stats["reserved_bytes.all.peak"])
    peak_requested = int(stats["requested_bytes.all.peak"])
    latency = statistics.fmean(alloc_ns) / 1e3 if alloc_ns else None
    p99 = None
    if alloc_ns:
        ordered = sorted(alloc_ns)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] / 1e3
    gm_total = zero_copy_bytes + device_gm_bytes
    return MemoryHealth(
        allocation_latency_us=latency,
        fragmentation=1.0 - peak_requested / peak_reserved if peak_reserved else None,
        hit_rate=hits / allocations if allocations else None,
        zero_copy_share=zero_copy_bytes / gm_total if gm_total else None,
        allocations=allocations, hits=hits, misses=misses, p99_latency_us=p99,
        peak_reserved_bytes=peak_reserved, peak_requested_bytes=peak_requested,
        zero_copy_bytes=zero_copy_bytes, device_gm_bytes=device_gm_bytes)


class _TimedAllocator:
    """The device's allocator seam (``Allocator``) around its pool, timing each ``allocate``."""

    def __init__(self, inner: Any, times: list[int]) -> None:
        self.inner = inner
        self.times = times

    @property
    def capacity(self) -> int:
        return int(self.inner.capacity)

    def allocate(self, nbytes: int, stream: Any = None) -> int:
        t0 = time.perf_counter_ns()
        try:
            return int(self.inner.allocate(nbytes, stream))
        finally:
            self.times.append(time.perf_counter_ns() - t0)

    def release(self, offset: int, stream: Any = None) -> None:
        self.inner.release(offset, stream)

    def reserved_bytes(self) -> int:
        return int(self.inner.reserved_bytes())

    def largest_free(self) -> int:
        return int(self.inner.largest_free())


class MemoryMonitor:
    """Measure the memory health of the code run inside ``with MemoryMonitor():`` on a device
    (the current one by default) of an initialised runtime.

    On entry it restarts the pool's accumulated and peak statistics, times every allocation
    the pool makes (through the device's allocator seam) and counts the global-memory bytes of
    every kernel launch that finishes; on exit it waits for the device's streams and computes
    :attr:`health` (:func:`assess`).

    >>> import aclsim
    >>> from aclsim.testing import MemoryMonitor
    >>> aclsim.init(chip="tiny"); aclsim.set_device(0)
    >>> with MemoryMonitor() as mon:
    ...     for _ in range(10):
    ...         aclsim.free(aclsim.malloc(1 << 16))
    >>> mon.health.allocations, mon.health.hit_rate
    (10, 0.9)
    >>> aclsim.reset_device(0); aclsim.finalize()
    []
    """

    def __init__(self, device: int | None = None) -> None:
        self.device = device
        self.alloc_ns: list[int] = []
        self.zero_copy_bytes = 0
        self.device_gm_bytes = 0
        self.launches = 0
        self.health: MemoryHealth | None = None
        self._lock = threading.Lock()
        self._memory: Any = None
        self._proxy: _TimedAllocator | None = None

    def __enter__(self) -> MemoryMonitor:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        dev = device_by_id(aclsim.get_device() if self.device is None else self.device)
        memory = dev.memory
        if memory is None or memory.pool is None:
            raise InvalidParamError(f"npu:{dev.id} has no caching pool to monitor",
                                    hint="set_device first; the monitor reads the pool's statistics")
        self.device = dev.id
        aclsim.reset_accumulated_memory_stats(dev.id)
        aclsim.reset_peak_memory_stats(dev.id)
        self._memory = memory
        self._proxy = _TimedAllocator(memory.allocator, self.alloc_ns)
        memory.allocator = self._proxy
        add_launch_listener(self._on_launch)

    def stop(self) -> MemoryHealth:
        """Stop measuring and compute :attr:`health` (also what ``with`` does on exit)."""
        memory, self._memory = self._memory, None
        if memory is None:
            raise InvalidParamError("the monitor was not started", hint="use it as a context manager")
        alive = aclsim.is_initialized() and device_by_id(int(self.device or 0)).memory is memory
        try:
            if alive:  # the launches still queued finish (and are counted) before the listener goes
                device_by_id(int(self.device or 0)).synchronize()
        finally:
            remove_launch_listener(self._on_launch)
            if self._proxy is not None and memory.allocator is self._proxy:
                memory.allocator = self._proxy.inner
        if not alive:
            raise InvalidParamError("the monitored device was reset or the runtime finalized inside the "
                                    "monitor", hint="keep the device set until the monitored block ends")
        stats = aclsim.memory_stats(self.device)
        with self._lock:
            self.health = assess(stats, alloc_ns=self.alloc_ns, zero_copy_bytes=self.zero_copy_bytes,
                                 device_gm_bytes=self.device_gm_bytes)
        return self.health

    def _on_launch(self, launch: Any) -> None:
        streams = getattr(launch, "streams", None)
        if not streams:
            return
        # zero-copy: where the bytes are, by address (host memory mapped for the device), whatever
        # space the kernel language tagged the access with
        ranges = [(r.ptr, r.ptr + r.nbytes) for r in aclsim.host_mapped_ranges(self.device)]
        host = gm = 0
        for instrs in streams:
            for ins in instrs:
                for acc in (*ins.reads, *ins.writes):
                    if acc.space is Space.HOST or (acc.space is Space.GM and any(
                            lo <= acc.offset < hi for lo, hi in ranges)):
                        host += acc.length
                    elif acc.space is Space.GM:
                        gm += acc.length
        with self._lock:
            self.zero_copy_bytes += host
            self.device_gm_bytes += gm
            self.launches += 1
