"""Seed 003's optimisation table (section 4.3) on the simulated 310P-class card: 1 MB of data,
1000 iterations, four ways of managing the memory; prints one JSON line, then a table.

Each iteration runs seed 003's flow: get device-visible buffers for the 1 MB input ``x`` and
the 1 MB output ``z``, bring ``x`` in, run a two-phase add ``z = x + x``
(:func:`aclsim.testing.sample_add`: phase one, then phase two on the stream), bring ``z`` out,
synchronize, release the buffers.

- ``basic``: ``malloc``/``free`` each iteration with the caching pool bypassed.  The runtime has
  no public way to allocate without its caching pool (``DeviceMemory`` takes another
  ``Allocator``, but ``init`` does not expose it), so every ``free`` is followed by
  ``empty_cache()``: each ``malloc`` maps its pages from the device arena and each free gives
  them back, as ``aclrtMalloc``/``aclrtFree`` without a pool would.
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
  ``docs/testing.md``); ``wall_s`` (measured) the whole run including the simulation.

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
from aclsim.testing import MemoryMonitor, sample_add, sample_add_get_workspace_size

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


def _copy_iteration(stream: aclsim.Stream, timer: Timer, host_x: int, host_z: int, ev: list[aclsim.Event],
                    bypass_pool: bool) -> tuple[float, float, float]:
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

    def release(buf: aclsim.Buffer) -> None:
        aclsim.free(buf)
        if bypass_pool:
            aclsim.empty_cache()

    timer.take(timer.release, lambda: release(dx))
    timer.take(timer.release, lambda: release(dz))
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


def run_config(name: str, iterations: int, chip: str) -> dict[str, Any]:
    aclsim.init(chip=chip)
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
    with MemoryMonitor() as mon:
        for i in range(iterations):
            if name in ("basic", "pooled"):
                c, k, d = _copy_iteration(stream, timer, host_x, host_z, ev, bypass_pool=name == "basic")
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
