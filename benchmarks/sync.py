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

``--fuzz N`` runs another mode instead: N random flat streams (``gen.random_stream`` with
instructions whose own ranges overlap and hand-written physical pairs, often across strong
syncs) and N/10 random loop programs with hand-written pairs, each through ``infer_sync`` and
``allocate_events`` at pools 1, 2 and a drawn one, checked by the verifier, the brute-force
oracle of ``tests/compiler/oracle.py`` and the randomized executor; one JSON line: streams
and allocations checked, failures (with the first seeds), seconds, and what was exercised.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

from aclsim.arch import get_chip
from aclsim.compiler import (
    AllocStats,
    all_barriers,
    allocate_events,
    check,
    infer_sync,
    lower_bound,
    round_robin,
    verify_sync,
    whole_kernel,
)
from aclsim.compiler.executor import chip_latency, execute, stress
from aclsim.compiler.gen import kernel_stream, random_program, random_stream
from aclsim.isa import EXEC_PIPES, Op, Pipe

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


def _allocation_failure(logical: list, pool: int, mode: str, seed: int, oracle_cls: type,
                        fig: dict) -> str:
    """Allocate at ``pool`` and check; the failure in words, or "" (and count the spills)."""
    stats = AllocStats(pool)
    try:
        out = allocate_events(logical, pool=pool, stats=stats)
    except Exception as exc:  # a refusal of a legal program is a failure too
        return f"allocate_events raised {exc!r}"
    fig["merges"] += stats.merges
    fig["ordering_pairs"] += stats.orderings
    fig["strong_syncs_inserted"] += stats.cuts
    if not isinstance(out, list):
        out = out.unroll()
    hand = [x for x in logical if x.op in (Op.SET_FLAG, Op.WAIT_FLAG) and not x.logical]
    kept = iter(out)
    if not all(any(y is x for y in kept) for x in hand):
        return "a hand-written flag was dropped"
    report = check(out, same_pipe=mode, pool=pool, require_physical=True)
    if not report.ok:
        return "verifier: " + report.lines()[0]
    oracle = oracle_cls(out, mode)
    if oracle.races() or oracle.lost_signals() or oracle.unmatched_waits or oracle.unmatched_sets:
        return "oracle: a race, lost signal, wait without set or unmatched set"
    if not stress(out, runs=2, seed=seed, same_pipe=mode).ok:
        return "executor: a lost signal, hang or broken memory order"
    return ""


def fuzz(n: int, seed0: int) -> dict:
    """The ``--fuzz`` mode (see the module docstring)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "compiler"))
    from oracle import Oracle  # the brute-force reference of the tests

    fig = {"merges": 0, "ordering_pairs": 0, "strong_syncs_inserted": 0}
    done = {"streams": 0, "programs": 0, "allocations": 0, "hand_written_pairs": 0,
            "pairs_straddling_strong_syncs": 0, "self_overlapping_instructions": 0}
    failures: list[dict] = []
    vector = [Pipe.S, Pipe.V, Pipe.MTE2, Pipe.MTE3]
    t0 = time.perf_counter()
    for seed in range(seed0, seed0 + n + n // 10):
        rng = random.Random(seed)
        drawn = rng.choice((1, 2, 3, 8))
        mode = rng.choice(("barrier", "inorder"))
        is_program = seed >= seed0 + n
        if is_program:
            prog = random_program(rng, rng.randint(2, 12), buffers=3, strong=rng.choice((0.0, 0.1)),
                                  hand=rng.randint(0, 3), hand_ids=drawn)
            logical = infer_sync(prog)
            flat = logical.unroll()
            mode = "barrier"
        else:
            work = random_stream(rng, rng.randint(1, 30), pipes=rng.choice((EXEC_PIPES, vector)),
                                 buffers=rng.choice((2, 3, 4)), strong=rng.choice((0.0, 0.05, 0.15)),
                                 self_overlap=0.3, hand=rng.randint(0, 4), hand_ids=drawn)
            done["self_overlapping_instructions"] += sum(
                1 for x in work if any(a.overlaps(b) for a in x.writes for b in x.writes if a is not b)
                or any(a.overlaps(b) for a in x.reads for b in x.reads if a is not b))
            logical = infer_sync(work, same_pipe=mode)
            flat = logical
        top = _count_hand(flat, done)
        done["programs" if is_program else "streams"] += 1
        for pool in sorted(p for p in {1, 2, drawn} if p > top):  # hand-written IDs lie in the pool
            done["allocations"] += 1
            if is_program:
                why = _program_failure(logical, pool, seed, Oracle, fig)
            else:
                why = _allocation_failure(logical, pool, mode, seed, Oracle, fig)
            if why:
                failures.append({"seed": seed, "pool": pool, "program": is_program, "why": why})
    return {
        "benchmark": "sync-fuzz",
        "machine": f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}",
        **done, **fig,
        "failures": len(failures),
        "first_failures": failures[:5],
        "seconds": round(time.perf_counter() - t0, 1),
    }


def _program_failure(logical: object, pool: int, seed: int, oracle_cls: type, fig: dict) -> str:
    stats = AllocStats(pool)
    try:
        out = allocate_events(logical, pool=pool, stats=stats)  # type: ignore[call-overload]
    except Exception as exc:
        return f"allocate_events raised {exc!r}"
    fig["merges"] += stats.merges
    fig["strong_syncs_inserted"] += stats.cuts
    report = verify_sync(out, pool=pool, require_physical=True)
    if not report.ok:
        return "verifier: " + report.lines()[0]
    flat = out.unroll()
    oracle = oracle_cls(flat)
    if oracle.races() or oracle.lost_signals() or oracle.unmatched_waits or oracle.unmatched_sets:
        return "oracle: a race, lost signal, wait without set or unmatched set"
    if not stress(flat, runs=2, seed=seed).ok:
        return "executor: a lost signal, hang or broken memory order"
    return ""


def _count_hand(flat: list, done: dict) -> int:
    """Count the hand-written pairs of the input, and those straddling a strong sync; return
    the largest hand-written ID (-1: none)."""
    open_at: dict = {}
    strong = 0
    top = -1
    for x in flat:
        if x.is_strong_sync:
            strong += 1
        elif x.op == Op.SET_FLAG and not x.logical:
            open_at[x.flag] = strong
            top = max(top, x.event_id)
        elif x.op == Op.WAIT_FLAG and not x.logical and x.flag in open_at:
            done["hand_written_pairs"] += 1
            done["pairs_straddling_strong_syncs"] += open_at.pop(x.flag) != strong
    return top


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max", type=int, default=1_000_000, help="largest stream (instructions)")
    parser.add_argument("--methods-size", type=int, default=100_000)
    parser.add_argument("--cycles-size", type=int, default=30_000)
    parser.add_argument("--fuzz", type=int, default=0, metavar="N",
                        help="instead: N random streams (and N/10 loop programs) through every check")
    parser.add_argument("--seed", type=int, default=0, help="first seed of --fuzz")
    args = parser.parse_args()
    if args.fuzz:
        print(json.dumps(fuzz(args.fuzz, args.seed)))
        return
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
