"""Sync-ID allocation (seed 002) on generated kernel streams; prints one JSON line.

Streams: multi-buffered vector and cube tiles (``aclsim.compiler.gen.kernel_stream``,
``depth`` buffers in rotation, so up to ``depth`` flags of a pipe pair are live at once),
synced by ``infer_sync`` (not timed), with a ``pipe_barrier ALL`` every ``strong_every``
tiles.  Figures:

- ``scaling``: allocation time per sync point for 10^3 .. 10^6 instructions (pool 8): it
  stays flat, i.e. total time is linear; ``million`` is allocate + verify of the 10^6 stream.
- ``methods``: at 10^5 instructions, for each strong-sync density and pools 8, 4, 16, the
  seed's method against the whole-kernel baseline (AscendNPU-IR InjectSync style, with the
  happens-before guard so that it verifies too): time per sync point, IDs used against the
  lower bound, false dependencies (merges, ordering pairs) and inserted barriers; plus the
  lost signals of the round-robin baseline and of lifetime-only reuse (no guard).
- ``cycles``: cycles of the synced stream in the small pipe executor of
  ``aclsim.compiler.executor`` with fixed latencies from the 910B figures (no HBM sharing,
  so stalls from false dependencies show fully), against the unlimited-ID (logical) run;
  and, where ``aclsim.sim`` is present, the same ratios in the core model (``core_model``).
"""

from __future__ import annotations

import argparse
import json
import platform
import time

from aclsim.arch import get_chip
from aclsim.compiler import (
    AllocStats,
    all_barriers,
    allocate_events,
    check,
    infer_sync,
    lower_bound,
    round_robin,
    whole_kernel,
)
from aclsim.compiler.executor import chip_latency, execute
from aclsim.compiler.gen import kernel_stream

DEPTH = 6  # buffers in rotation: the live flags per pipe pair, so pool 4 runs short
DENSITIES = {"none": 0, "low": 100, "high": 10}  # tiles between strong syncs


def stream(n_instr: int, strong_every: int, seed: int = 0) -> list:
    # about 2.9 instructions per work instruction once synced; a little more, to reach n_instr
    return infer_sync(kernel_stream(max(1, int(n_instr / 2.68)), depth=DEPTH, strong_every=strong_every,
                                    seed=seed))


def timed(fn, repeats: int):  # type: ignore[no-untyped-def]
    best, out = float("inf"), None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def run_method(name: str, logical: list, pool: int, repeats: int) -> dict:
    stats = AllocStats(pool, method=name)

    def go():  # type: ignore[no-untyped-def]
        stats.__init__(pool, method=name)  # type: ignore[misc]
        if name == "seed":
            return allocate_events(logical, pool=pool, stats=stats)
        return whole_kernel(logical, pool, stats)

    seconds, out = timed(go, repeats)
    report = check(out, pool=pool, require_physical=True)
    return {
        "us_per_sync_point": round(seconds / max(stats.sync_points, 1) * 1e6, 3),
        "ids_max": max(stats.ids_used.values(), default=0),
        "merges": stats.merges,
        "ordering_pairs": stats.orderings,
        "barriers_inserted": stats.cuts,
        "verified": report.ok,
    }


def scale_row(n: int) -> tuple[dict, float]:
    logical = stream(n, DENSITIES["low"])
    repeats = 5 if n <= 10_000 else 2 if n <= 100_000 else 1
    stats = AllocStats(8)
    allocate_events(logical, pool=8, stats=stats)
    alloc_s, out = timed(lambda: allocate_events(logical, pool=8, stats=AllocStats(8)), repeats)
    verify_s, report = timed(lambda: check(out, pool=8, require_physical=True), repeats)
    whole = AllocStats(8)
    whole_s, _ = timed(lambda: whole_kernel(logical, 8, whole), 1)
    row = {
        "instructions": len(logical),
        "sync_points": stats.sync_points,
        "segments": stats.segments,
        "allocate_s": round(alloc_s, 4),
        "allocate_us_per_sync_point": round(alloc_s / stats.sync_points * 1e6, 3),
        "verify_s": round(verify_s, 4),
        "verify_us_per_instruction": round(verify_s / len(logical) * 1e6, 3),
        "whole_kernel_us_per_sync_point": round(whole_s / max(whole.sync_points, 1) * 1e6, 3),
        "verified": report.ok,
    }
    return row, alloc_s + verify_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max", type=int, default=1_000_000, help="largest stream (instructions)")
    parser.add_argument("--methods-size", type=int, default=100_000)
    parser.add_argument("--cycles-size", type=int, default=30_000)
    args = parser.parse_args()
    sizes = [n for n in (1_000, 10_000, 100_000, 1_000_000) if n <= args.max]

    scaling = []
    million: dict = {}
    for n in sizes:
        row, total = scale_row(n)
        scaling.append(row)
        if n == 1_000_000:
            million = {"instructions": row["instructions"], "allocate_plus_verify_s": round(total, 3),
                       "target_s": 5.0, "met": total < 5.0}
    per_point = [r["allocate_us_per_sync_point"] for r in scaling]

    methods = []
    for density, every in DENSITIES.items():
        logical = stream(args.methods_size, every, seed=1)
        bound = lower_bound(logical)
        lifetime_only = check(whole_kernel(logical, 8, hb_guard=False), pool=8, max_reports=10**9)
        rr = {pool: check(round_robin(logical, pool), pool=pool, max_reports=10**9) for pool in (8, 4, 16)}
        for pool in (8, 4, 16):
            methods.append({
                "density": density,
                "strong_syncs_per_1000_instructions": round(
                    sum(1 for i in logical if i.is_strong_sync) / len(logical) * 1000, 2),
                "pool": pool,
                "lower_bound_max": max(bound.values(), default=0),
                "seed": run_method("seed", logical, pool, 2),
                "whole_kernel": run_method("whole-kernel", logical, pool, 2),
                "round_robin_lost_signals": sum(1 for x in rr[pool].issues if x.kind == "lost_signal"),
            })
        methods[-3]["lifetime_only_lost_signals_pool8"] = sum(
            1 for x in lifetime_only.issues if x.kind == "lost_signal")
        del logical

    chip = get_chip("910B")
    lat = chip_latency(chip)
    logical = stream(args.cycles_size, DENSITIES["low"], seed=2)

    def cycles(instrs: list) -> int:
        return execute(instrs, lat, flag_latency=chip.flag_latency_cycles, check_memory=False).cycles

    unlimited = cycles(logical)
    cyc: dict = {"instructions": len(logical), "latencies": "910B figures via compiler.executor.chip_latency",
                 "unlimited_ids": unlimited,
                 "all_barriers": cycles(all_barriers(logical))}
    for pool in (8, 4, 16):
        seed_out = allocate_events(logical, pool=pool)
        whole_out = whole_kernel(logical, pool)
        cyc[f"seed_pool{pool}"] = cycles(seed_out)
        cyc[f"whole_kernel_pool{pool}"] = cycles(whole_out)
        cyc[f"round_robin_pool{pool}"] = cycles(round_robin(logical, pool))
    try:  # the core model, where present: one block on one core, its own HBM and flag model
        from aclsim.sim import simulate

        def core(instrs: list) -> float:
            return simulate(chip, [instrs]).total_cycles

        base = core(logical)
        cyc["core_model"] = {
            "unlimited_ids": base,
            **{f"seed_pool{p}_vs_unlimited": round(core(allocate_events(logical, pool=p)) / base, 4)
               for p in (8, 4, 16)},
            **{f"whole_kernel_pool{p}_vs_unlimited": round(core(whole_kernel(logical, p)) / base, 4)
               for p in (8, 4, 16)},
            "all_barriers_vs_unlimited": round(core(all_barriers(logical)) / base, 4),
        }
    except ImportError:
        cyc["core_model"] = "aclsim.sim not available"
    cyc["seed_pool4_vs_unlimited"] = round(cyc["seed_pool4"] / unlimited, 4)
    cyc["whole_kernel_pool4_vs_unlimited"] = round(cyc["whole_kernel_pool4"] / unlimited, 4)
    cyc["all_barriers_vs_unlimited"] = round(cyc["all_barriers"] / unlimited, 4)

    print(json.dumps({
        "benchmark": "sync",
        "machine": f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}",
        "stream": f"kernel_stream depth={DEPTH} (vector + cube tiles), infer_sync, same_pipe=barrier",
        "scaling_pool8": scaling,
        "allocate_us_per_sync_point_max_over_min": round(max(per_point) / min(per_point), 3),
        "million": million,
        "methods": methods,
        "cycles": cyc,
    }))


if __name__ == "__main__":
    main()
