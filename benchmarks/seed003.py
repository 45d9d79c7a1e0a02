"""Seed 003's optimisation table (section 4.3) on the simulated 310P-class card: 1 MB of data,
1000 iterations, four ways of managing the memory; prints one JSON line, then a table.

Each iteration runs seed 003's flow: get device-visible buffers for the 1 MB input ``x`` and
the 1 MB output ``z``, bring ``x`` in, run a two-phase add ``z = x + x``
(:func:`aclsim.testing.sample_add`: phase one, then phase two on the stream), bring ``z`` out,
synchronize, release the buffers.

- ``basic``: ``malloc``/``free`` each iteration without the caching pool (``init(pool=False)``,
  ``ACLSIM_POOL=off``): each ``malloc`` maps its own pages from the device arena and each
  ``free`` unmaps them, as ``aclrtMalloc``/``aclrtFree`` without a pool.
- ``pooled``: ``malloc``/``free`` each iteration through the caching pool.
- ``zero_copy``: ``malloc_host`` + ``host_register`` each iteration (the pinned host pool
  bypassed with ``empty_host_cache()``); the kernel reads ``x`` and writes ``z`` in host
  memory over the host link; no copies (``x`` is written and ``z`` read by the host CPU).
- ``combined``: zero-copy buffers registered once and reused from a free list (the pool of
  mapped buffers), the device pool for anything else.

Columns, and whether measured (host clock, this machine) or modeled (the core model's and the
runtime's device clock, from events):

- ``alloc_us`` (measured): host time to obtain one buffer (``malloc``; ``malloc_host`` +
  ``host_register``; taking a mapped buffer from the free list), mean over all buffers;
  ``release_us`` (measured) the same for giving it back;
- ``copy_us`` (modeled): the H2D and D2H copies of an iteration, between events;
- ``kernel_us`` (modeled): the add's phase two, between events;
- ``total_ms`` (modeled device time of the iteration from its first to its last event, plus the
  measured host time of its allocations and releases, which the seed's synchronous loop has
  on its critical path);
- ``fragmentation``, ``hit_rate``, ``zero_copy_share`` and ``pool_alloc_us``: the memory
  health table of the configuration's run (:class:`aclsim.testing.MemoryMonitor`,
  ``docs/testing.md``; ``basic`` has no pool for the monitor to wrap: its table is
  :func:`aclsim.testing.assess` of the runtime's statistics and the global-memory bytes of its
  kernels, its allocation latency the host time of ``malloc``, which maps the memory);
  ``wall_s`` (measured) the whole run including the simulation.

    python benchmarks/seed003.py [--iterations N] [--chip 310P]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import aclsim
from aclsim.isa import Space
from aclsim.kernel import add_launch_listener, remove_launch_listener
from aclsim.testing import MemoryHealth, MemoryMonitor, assess, sample_add, sample_add_get_workspace_size

NBYTES = 1 << 20  # seed 003: 1 MB of data
ELEMENTS = NBYTES // 4
H2D, D2H = aclsim.MemcpyKind.HOST_TO_DEVICE, aclsim.MemcpyKind.DEVICE_TO_HOST


class Timer:
    __slots__ = ("alloc", "release")

    def __init__(self) -> None:
        self.alloc: list[float] = []
        self.release: list[float] = []

    def take(self, bucket: list[float], fn: Callable[[], Any]) -> Any:
        t0 = time.perf_counter()
        out = fn()
        bucket.append(time.perf_counter() - t0)
        return out


def _events(n: int) -> list[aclsim.Event]:
    return [aclsim.create_event() for _ in range(n)]


def _copy_iteration(stream: aclsim.Stream, timer: Timer, host_x: int, host_z: int,
                    ev: list[aclsim.Event]) -> tuple[float, float, float]:
    dx = timer.take(timer.alloc, lambda: aclsim.malloc(NBYTES, stream=stream))
    dz = timer.take(timer.alloc, lambda: aclsim.malloc(NBYTES, stream=stream))
    aclsim.record_event(ev[0], stream)
    aclsim.memcpy_async(dx, NBYTES, host_x, NBYTES, H2D, stream)
    aclsim.record_event(ev[1], stream)
    size, executor = sample_add_get_workspace_size(dx, dx, dz, ELEMENTS)
    sample_add(None, size, executor, stream)
    aclsim.record_event(ev[2], stream)
    aclsim.memcpy_async(host_z, NBYTES, dz, NBYTES, D2H, stream)
    aclsim.record_event(ev[3], stream)
    aclsim.synchronize_stream(stream)

    timer.take(timer.release, lambda: aclsim.free(dx))
    timer.take(timer.release, lambda: aclsim.free(dz))
    copy = aclsim.event_elapsed_time(ev[0], ev[1]) + aclsim.event_elapsed_time(ev[2], ev[3])
    return copy, aclsim.event_elapsed_time(ev[1], ev[2]), aclsim.event_elapsed_time(ev[0], ev[3])


def _mapped(nbytes: int) -> tuple[int, int]:
    host = aclsim.malloc_host(nbytes)
    return host, aclsim.host_register(host, nbytes)


def _unmapped(pair: tuple[int, int], bypass_pool: bool) -> None:
    aclsim.host_unregister(pair[0])
    aclsim.free_host(pair[0])
    if bypass_pool:
        aclsim.empty_host_cache()


def _zero_copy_iteration(stream: aclsim.Stream, timer: Timer, x: np.ndarray, ev: list[aclsim.Event],
                         free_list: list[tuple[int, int]] | None) -> tuple[np.ndarray, float, float, float]:
    def get() -> tuple[int, int]:
        return free_list.pop() if free_list else _mapped(NBYTES)

    hx = timer.take(timer.alloc, get)
    hz = timer.take(timer.alloc, get)
    aclsim.ptr_to_numpy(hx[0], ELEMENTS, np.float32)[:] = x  # the host CPU writes the input in place
    aclsim.record_event(ev[0], stream)
    size, executor = sample_add_get_workspace_size(hx[1], hx[1], hz[1], ELEMENTS)
    sample_add(None, size, executor, stream)
    aclsim.record_event(ev[3], stream)
    aclsim.synchronize_stream(stream)
    z = aclsim.ptr_to_numpy(hz[0], ELEMENTS, np.float32).copy()
    for pair in (hx, hz):
        if free_list is None:
            timer.take(timer.release, lambda p=pair: _unmapped(p, True))
        else:
            timer.take(timer.release, lambda p=pair: free_list.append(p))
    kernel = aclsim.event_elapsed_time(ev[0], ev[3])
    return z, 0.0, kernel, kernel


class _NoPoolMonitor:
    """The health table of a run without the caching pool (``MemoryMonitor`` wraps the pool):
    the runtime's statistics over the run, and the global-memory bytes of its kernels (device
    memory or host memory mapped for the device)."""

    def __init__(self, timer: Timer) -> None:
        self.gm = self.host = self.device = 0
        self.health: MemoryHealth | None = None
        self.timer = timer

    def _on_launch(self, launch: Any) -> None:
        ranges = [(r.ptr, r.ptr + r.nbytes) for r in aclsim.host_mapped_ranges(self.device)]
        for instrs in launch.streams or ():
            for ins in instrs:
                for acc in (*ins.reads, *ins.writes):
                    if acc.space is Space.HOST or (acc.space is Space.GM and any(
                            lo <= acc.offset < hi for lo, hi in ranges)):
                        self.host += acc.length
                    elif acc.space is Space.GM:
                        self.gm += acc.length

    def __enter__(self) -> _NoPoolMonitor:
        self.device = aclsim.get_device()  # the listener runs on stream workers: no current device there
        aclsim.reset_accumulated_memory_stats()
        aclsim.reset_peak_memory_stats()
        add_launch_listener(self._on_launch)
        return self

    def __exit__(self, *exc: object) -> None:
        aclsim.synchronize_device()
        remove_launch_listener(self._on_launch)
        alloc_ns = [round(t * 1e9) for t in self.timer.alloc]
        self.health = assess(aclsim.memory_stats(), alloc_ns=alloc_ns, zero_copy_bytes=self.host,
                             device_gm_bytes=self.gm)


def run_config(name: str, iterations: int, chip: str) -> dict[str, Any]:
    aclsim.init(chip=chip, pool=name != "basic")
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    rng = np.random.default_rng(0)
    x = rng.standard_normal(ELEMENTS, dtype=np.float32)
    host_x, host_z = aclsim.malloc_host(NBYTES), aclsim.malloc_host(NBYTES)
    aclsim.ptr_to_numpy(host_x, ELEMENTS, np.float32)[:] = x
    ev = _events(4)
    timer = Timer()
    free_list: list[tuple[int, int]] = []
    copy_ms, kernel_ms, device_ms = [], [], []
    t0 = time.perf_counter()
    with (_NoPoolMonitor(timer) if name == "basic" else MemoryMonitor()) as mon:
        for i in range(iterations):
            if name in ("basic", "pooled"):
                c, k, d = _copy_iteration(stream, timer, host_x, host_z, ev)
                z = aclsim.ptr_to_numpy(host_z, ELEMENTS, np.float32) if i in (0, iterations - 1) else None
            else:
                pool = free_list if name == "combined" else None
                z, c, k, d = _zero_copy_iteration(stream, timer, x, ev, pool)
            if z is not None and i in (0, iterations - 1) and not np.array_equal(z, x + x):
                raise AssertionError(f"{name}: iteration {i} computed a wrong z")
            copy_ms.append(c)
            kernel_ms.append(k)
            device_ms.append(d)
    wall = time.perf_counter() - t0
    health = mon.health
    assert health is not None
    for pair in free_list:
        _unmapped(pair, False)
    for ev_ in ev:
        aclsim.destroy_event(ev_)
    aclsim.free_host(host_x)
    aclsim.free_host(host_z)
    aclsim.destroy_stream(stream)
    aclsim.reset_device(0)
    leaks = aclsim.finalize()
    host_ms_per_iter = (sum(timer.alloc) + sum(timer.release)) * 1e3 / iterations
    return {
        "alloc_us": statistics.fmean(timer.alloc) * 1e6,
        "release_us": statistics.fmean(timer.release) * 1e6,
        "copy_us": statistics.fmean(copy_ms) * 1e3,
        "kernel_us": statistics.fmean(kernel_ms) * 1e3,
        "device_ms": statistics.fmean(device_ms),
        "total_ms": statistics.fmean(device_ms) + host_ms_per_iter,
        "fragmentation": health.fragmentation,
        "hit_rate": health.hit_rate,
        "zero_copy_share": health.zero_copy_share,
        "pool_alloc_us": health.allocation_latency_us,
        "grades": health.grades(),
        "wall_s": wall,
        "leaks": len(leaks),
    }


def _fmt(v: Any, pct: bool = False, nd: int = 2) -> str:
    if v is None:
        return "-"
    return f"{v * 100:.1f} %" if pct else f"{v:.{nd}f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--chip", default="310P")
    args = parser.parse_args(argv)
    configs = {name: run_config(name, args.iterations, args.chip)
               for name in ("basic", "pooled", "zero_copy", "combined")}
    print(json.dumps({"benchmark": "seed003", "chip": args.chip, "bytes": NBYTES,
                      "iterations": args.iterations, "python": platform.python_version(),
                      "machine": platform.machine(),
                      "configs": configs}))
    head = ("config", "alloc us (meas.)", "copy us (model)", "kernel us (model)", "total ms", "fragmentation",
            "hit rate", "zero-copy")
    rows = [head] + [(name, _fmt(c["alloc_us"]), _fmt(c["copy_us"]), _fmt(c["kernel_us"]),
                      _fmt(c["total_ms"], nd=4), _fmt(c["fragmentation"], True), _fmt(c["hit_rate"], True),
                      _fmt(c["zero_copy_share"], True)) for name, c in configs.items()]
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    for r in rows:
        cells = zip(r, widths, strict=True)
        print("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(cells)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
