"""Runtime overheads on this machine; prints one JSON line.

- ``memcpy_async_task_us``: per-task cost of a small ``memcpy_async`` from submit to
  completion, over a long queue (throughput) and one at a time (latency, submit + sync).
- ``events_per_s``: ``record_event`` tasks completed per second.
- copy throughput H2D/D2H (``memcpy`` and ``memcpy_async``) next to a plain NumPy copy of
  the same bytes measured in the same run: the physical limit of a host-memory copy here.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
import warnings

import numpy as np

import aclsim
from aclsim.runtime.api import MemcpyKind

H2D, D2H = MemcpyKind.HOST_TO_DEVICE, MemcpyKind.DEVICE_TO_HOST


def best_of(fn, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tasks", type=int, default=5000)
    parser.add_argument("--copy-mib", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    aclsim.init(chip="910B")
    aclsim.set_device(0)
    stream = aclsim.create_stream()

    small = np.ones(64, dtype=np.uint8)
    dev_small = aclsim.malloc(64)
    aclsim.memcpy_async(dev_small, 64, small, 64, H2D, stream)
    aclsim.synchronize_stream(stream)

    def queue_tasks() -> None:
        for _ in range(args.tasks):
            aclsim.memcpy_async(dev_small, 64, small, 64, H2D, stream)
        aclsim.synchronize_stream(stream)

    throughput_s = best_of(queue_tasks, 3) / args.tasks

    def one_at_a_time() -> None:
        for _ in range(200):
            aclsim.memcpy_async(dev_small, 64, small, 64, H2D, stream)
            aclsim.synchronize_stream(stream)

    latency_s = best_of(one_at_a_time, 3) / 200

    event = aclsim.create_event()

    def record_many() -> None:
        for _ in range(args.tasks):
            aclsim.record_event(event, stream)
        aclsim.synchronize_stream(stream)

    events_per_s = args.tasks / best_of(record_many, 3)

    nbytes = args.copy_mib << 20
    host_src = np.random.default_rng(0).integers(0, 255, nbytes, dtype=np.uint8)
    host_dst = np.empty_like(host_src)
    dev = aclsim.malloc(nbytes)
    numpy_s = best_of(lambda: np.copyto(host_dst, host_src), args.repeats)
    h2d_s = best_of(lambda: aclsim.memcpy(dev, nbytes, host_src, nbytes, H2D), args.repeats)
    d2h_s = best_of(lambda: aclsim.memcpy(host_dst, nbytes, dev, nbytes, D2H), args.repeats)

    def async_round_trip() -> None:
        aclsim.memcpy_async(dev, nbytes, host_src, nbytes, H2D, stream)
        aclsim.memcpy_async(host_dst, nbytes, dev, nbytes, D2H, stream)
        aclsim.synchronize_stream(stream)

    async_pair_s = best_of(async_round_trip, args.repeats)
    assert np.array_equal(host_dst, host_src), "round trip corrupted data"

    aclsim.destroy_event(event)
    aclsim.free(dev)
    aclsim.free(dev_small)
    aclsim.destroy_stream(stream)
    aclsim.reset_device(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", aclsim.LeakWarning)
        aclsim.finalize()

    gbs = lambda s: nbytes / s / 1e9  # noqa: E731
    print(json.dumps({
        "benchmark": "runtime",
        "machine": f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}",
        "memcpy_async_task_us_throughput": round(throughput_s * 1e6, 2),
        "memcpy_async_task_us_latency": round(latency_s * 1e6, 2),
        "events_per_s": round(events_per_s),
        "copy_bytes": nbytes,
        "numpy_copy_GBps": round(gbs(numpy_s), 2),
        "memcpy_h2d_GBps": round(gbs(h2d_s), 2),
        "memcpy_d2h_GBps": round(gbs(d2h_s), 2),
        "memcpy_async_h2d_d2h_pair_GBps": round(gbs(async_pair_s / 2), 2),
        "h2d_vs_numpy": round(numpy_s / h2d_s, 3),
        "d2h_vs_numpy": round(numpy_s / d2h_s, 3),
        "async_pair_vs_numpy": round(numpy_s / (async_pair_s / 2), 3),
    }))


if __name__ == "__main__":
    main()
