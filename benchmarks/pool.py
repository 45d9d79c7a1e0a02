"""Benchmark of the caching device-memory pool; prints one JSON line.

Replays the ``random`` and ``batch`` traces of ``shared/bench/alloc_traces.py`` and the two LLM
decode traces defined here (:func:`decode_trace`) against the pool over the simulated device
arena (a 64 GiB device, the 910B preset's memory) and reports, per trace: waste (peak
reserved / peak requested), largest free block / free bytes at the peak, upstream (device)
allocations and frees, retries, hit rate, mean and p99 time per operation, and whether the
replay survives a cap on reserved bytes of 1.10x and 1.03x the peak requested.
Then the hit path: a cached allocate + release pair, next to a bare dict insert + pop measured
in the same run, with the allocation history off and on.  ``reference_pytorch_like`` replays
the traces with the pool in PyTorch's native configuration (classic segments, no reuse before
growth) as a check that the simulation reproduces PyTorch's measured waste.

    python benchmarks/pool.py
"""

from __future__ import annotations

import gc
import json
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aclsim.runtime.backends.sim import SimArena
from aclsim.runtime.pool import AllocatorFull, CachingPool, PoolOptions

BENCH_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "bench"
DEVICE_BYTES = 64 << 30  # the 910B preset's HBM
HIT_PAIRS = 100_000


Trace = tuple[list[tuple[str, int, int]], int]


def decode_trace(*, per_layer_cache: bool = False, layers: int = 24, hidden: int = 2048, heads: int = 16,
                 ffn: int = 5632, vocab: int = 32000, batch: int = 8, prompt: int = 256,
                 steps: int = 256) -> Trace:
    """The allocations of an LLM decode loop (fp16, a 1B-class model by default) whose KV cache
    grows by one token every step: a tensor one token longer is allocated, the old one copied
    into it and freed.  The cache is one tensor for all layers (``per_layer_cache=False``), or
    a key and a value tensor per layer grown one after the other (Hugging Face's
    ``DynamicCache``, ``torch.cat`` per layer).  Every step also allocates and frees the hidden
    state, per layer the q/k/v projections, the attention scores (fp32) and the MLP's two
    intermediates, and the logits (fp32).  The weights are left out (allocated once, they
    would only dilute the ratio).  Events as in ``alloc_traces.py``; returns the events and
    the peak of live requested bytes."""
    events: list[tuple[str, int, int]] = []
    live = peak = 0

    def alloc(nbytes: int) -> tuple[int, int]:
        nonlocal live, peak
        key = len(events)
        events.append(("a", key, nbytes))
        live += nbytes
        peak = max(peak, live)
        return key, nbytes

    def free(block: tuple[int, int]) -> None:
        nonlocal live
        events.append(("f", *block))
        live -= block[1]

    token = batch * hidden * 2  # one token of keys (or values) of one layer
    caches = [alloc(prompt * token) for _ in range(2 * layers)] if per_layer_cache else \
        [alloc(prompt * token * 2 * layers)]
    for t in range(prompt + 1, prompt + steps + 1):
        state = alloc(batch * hidden * 2)
        for layer in range(layers):
            qkv = alloc(batch * 3 * hidden * 2)
            if per_layer_cache:
                for i in (2 * layer, 2 * layer + 1):
                    grown = alloc(t * token)
                    free(caches[i])
                    caches[i] = grown
            free(alloc(batch * heads * t * 4))
            free(qkv)
            free(alloc(batch * ffn * 2 * 2))
        if not per_layer_cache:
            grown = alloc(t * token * 2 * layers)
            free(caches[0])
            caches[0] = grown
        free(alloc(batch * vocab * 4))
        free(state)
    for block in caches:
        free(block)
    return events, peak


def _traces() -> dict[str, Callable[[], Trace]]:
    if not (BENCH_DIR / "alloc_traces.py").is_file():
        sys.exit(f"benchmarks/pool.py needs {BENCH_DIR / 'alloc_traces.py'} (the shared allocation traces); "
                 "check out the shared folder next to the repository")
    sys.path.insert(0, str(BENCH_DIR))
    import alloc_traces  # type: ignore[import-not-found]

    traces: dict[str, Callable[[], Trace]] = dict(alloc_traces.TRACES)
    traces["decode"] = decode_trace
    traces["decode_per_layer"] = lambda: decode_trace(per_layer_cache=True)
    return traces


def _pool(options: PoolOptions, limit: int | None = None) -> CachingPool:
    pool = CachingPool(SimArena(0, DEVICE_BYTES), options)
    if limit is not None:
        pool.set_limit(limit)
    return pool


def replay(events: list[tuple[str, int, int]], options: PoolOptions, *, limit: int | None = None,
           timed: bool = False, stop_at: int | None = None) -> tuple[CachingPool, dict[str, Any]]:
    """Replay ``events`` (up to index ``stop_at``); per-op times when ``timed``."""
    pool = _pool(options, limit)
    addr: dict[int, int] = {}
    times: list[int] = []
    ok: bool | str = True
    allocate, release, clock = pool.allocate, pool.release, time.perf_counter_ns
    gc.disable()
    try:
        for i, (op, key, nbytes) in enumerate(events):
            if stop_at is not None and i > stop_at:
                break
            if timed:
                t0 = clock()
            if op == "a":
                addr[key] = allocate(nbytes)
            else:
                release(addr.pop(key))
            if timed:
                times.append(clock() - t0)
    except AllocatorFull as exc:
        ok = f"out of memory at event {i}: {exc.stats}"
    finally:
        gc.enable()
    return pool, {"ok": ok, "times": times}


def _peak_index(events: list[tuple[str, int, int]]) -> int:
    cur = peak = best = 0
    for i, (op, _, nbytes) in enumerate(events):
        cur += nbytes if op == "a" else -nbytes
        if cur > peak:
            peak, best = cur, i
    return best


def trace_figures(events: list[tuple[str, int, int]], peak: int, options: PoolOptions) -> dict[str, Any]:
    pool, run = replay(events, options, timed=True)
    stats = pool.memory_stats()
    times = sorted(run["times"])
    at_peak, _ = replay(events, options, stop_at=_peak_index(events))
    peak_stats = at_peak.memory_stats()
    free_at_peak = peak_stats["free_bytes"]
    out: dict[str, Any] = {
        "events": len(events),
        "peak_requested": peak,
        "peak_allocated": stats["allocated_bytes.all.peak"],
        "peak_reserved": stats["reserved_bytes.all.peak"],
        "waste": round(stats["reserved_bytes.all.peak"] / peak, 4),
        "largest_free_ratio_at_peak": round(peak_stats["largest_free_bytes"] / free_at_peak, 4)
        if free_at_peak else 1.0,
        "free_bytes_at_peak": free_at_peak,
        "upstream_allocs": stats["num_device_alloc"],
        "upstream_frees": stats["num_device_free"],
        "retries": stats["num_alloc_retries"],
        "hit_rate": round(stats["hit_rate"], 4),
        "mean_us_per_op": round(sum(times) / len(times) / 1e3, 3),
        "p99_us_per_op": round(times[int(len(times) * 0.99)] / 1e3, 3),
    }
    for cap in (1.10, 1.03):
        capped, run = replay(events, options, limit=int(peak * cap))
        cs = capped.memory_stats()
        out[f"cap_{cap:.2f}"] = {"survives": run["ok"] is True, "retries": cs["num_alloc_retries"],
                                 "peak_reserved": cs["reserved_bytes.all.peak"]}
        if run["ok"] is not True:
            out[f"cap_{cap:.2f}"]["error"] = run["ok"]
    return out


def _per_pair_us(fn: Callable[[], None], n: int, repeats: int = 5) -> float:
    """Median over ``repeats`` loops of ``n`` calls, in microseconds per call."""
    for _ in range(1000):
        fn()
    samples = []
    gc.disable()
    try:
        for _ in range(repeats):
            t0 = time.perf_counter_ns()
            for _ in range(n):
                fn()
            samples.append((time.perf_counter_ns() - t0) / n / 1e3)
    finally:
        gc.enable()
    return sorted(samples)[repeats // 2]


def hit_path() -> dict[str, Any]:
    """Cached allocate + release of one size on one stream, as loops of inline calls."""
    out: dict[str, Any] = {}
    for label, nbytes in (("4KiB", 4096), ("1MiB", 1 << 20)):
        pool = _pool(PoolOptions())
        pool.release(pool.allocate(nbytes))
        allocate, release = pool.allocate, pool.release

        def pair(allocate: Any = allocate, release: Any = release, nbytes: int = nbytes) -> None:
            release(allocate(nbytes))

        out[f"pool_pair_us_{label}"] = round(_per_pair_us(pair, HIT_PAIRS), 3)
        pool.record_history(max_entries=100_000)
        out[f"pool_pair_us_{label}_history"] = round(_per_pair_us(pair, HIT_PAIRS), 3)
        pool.record_history(stacks=True, max_entries=100_000)
        out[f"pool_pair_us_{label}_history_stacks"] = round(_per_pair_us(pair, HIT_PAIRS // 10), 3)
    d: dict[int, int] = {}

    def dict_pair(d: dict[int, int] = d) -> None:
        d[12345] = 1
        d.pop(12345)

    out["dict_insert_pop_us"] = round(_per_pair_us(dict_pair, HIT_PAIRS), 3)
    out["noop_call_us"] = round(_per_pair_us(lambda: None, HIT_PAIRS), 3)
    out["pool_pair_over_dict"] = round(out["pool_pair_us_4KiB"] / out["dict_insert_pop_us"], 2)
    out["history_on_over_off"] = round(out["pool_pair_us_4KiB_history"] / out["pool_pair_us_4KiB"], 2)
    # the whole runtime path: aclsim.malloc + aclsim.free (validation, Buffer, registry, line)
    import aclsim

    aclsim.init(chip="910B")
    aclsim.set_device(0)
    aclsim.free(aclsim.malloc(4096))
    out["runtime_malloc_free_us"] = round(_per_pair_us(lambda: aclsim.free(aclsim.malloc(4096)), 10_000), 3)
    aclsim.reset_device(0)
    aclsim.finalize()
    return out


def main() -> None:
    traces = _traces()
    result: dict[str, Any] = {"benchmark": "pool", "python": platform.python_version(),
                              "machine": platform.machine(), "device_bytes": DEVICE_BYTES,
                              "options": "default (expandable segments, reuse before grow, 2 MiB pages)"}
    for name in ("random", "batch", "decode", "decode_per_layer"):
        events, peak = traces[name]()
        result[name] = trace_figures(events, peak, PoolOptions())
    ref: dict[str, Any] = {}
    classic = PoolOptions(expandable_segments=False, reuse_before_grow=False)
    for name in ("random", "batch", "decode", "decode_per_layer"):
        events, peak = traces[name]()
        pool, _ = replay(events, classic)
        s = pool.memory_stats()
        ref[name] = {"waste": round(s["reserved_bytes.all.peak"] / peak, 4),
                     "upstream_allocs": s["num_device_alloc"], "hit_rate": round(s["hit_rate"], 4)}
    result["reference_pytorch_like"] = ref
    result["hit_path"] = hit_path()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
