"""The baselines and the randomized pipe executor."""

from __future__ import annotations

import random

from aclsim.compiler import (
    AllocStats,
    all_barriers,
    allocate_events,
    check,
    format_program,
    infer_sync,
    interval_lower_bound,
    lower_bound,
    optimal_colouring,
    parse,
    round_robin,
    verify_sync,
    whole_kernel,
)
from aclsim.compiler.executor import ExecResult, chip_latency, execute, random_latency, stress
from aclsim.compiler.gen import kernel_stream, random_stream
from aclsim.isa import Pipe

LOGICAL = """\
MTE2 ld w:UB[0:64]
set_flag MTE2 V L0
MTE2 ld w:UB[64:128]
set_flag MTE2 V L1
wait_flag MTE2 V L0
V add r:UB[0:64]
wait_flag MTE2 V L1
V add r:UB[64:128]
"""
MV = (Pipe.MTE2, Pipe.V)


def text(instrs: list) -> str:
    return format_program(instrs)


def test_all_barriers() -> None:
    stats = AllocStats(8)
    assert text(all_barriers(parse(LOGICAL), stats)) == (
        "MTE2 ld w:UB[0:64]\nMTE2 ld w:UB[64:128]\npipe_barrier ALL\nV add r:UB[0:64]\npipe_barrier ALL\n"
        "V add r:UB[64:128]\n")
    assert stats.cuts == 2


def test_round_robin_waits_right_after_the_set() -> None:
    assert text(round_robin(parse(LOGICAL), 8)) == (
        "MTE2 ld w:UB[0:64]\nset_flag MTE2 V 0\nwait_flag MTE2 V 0\nMTE2 ld w:UB[64:128]\n"
        "set_flag MTE2 V 1\nwait_flag MTE2 V 1\nV add r:UB[0:64]\nV add r:UB[64:128]\n")
    # with one ID the second set may fire before V consumed the first: a lost signal
    report = check(round_robin(parse(LOGICAL), 1))
    assert [x.kind for x in report.issues] == ["lost_signal"]


def test_whole_kernel_prefers_idle_ids_and_widens() -> None:
    stats = AllocStats(8)
    out = whole_kernel(parse(LOGICAL), 8, stats)
    assert text(out) == LOGICAL.replace("L0", "0").replace("L1", "1")
    chain = "set_flag MTE2 V L0\nwait_flag MTE2 V L0\nset_flag V MTE2 L1\nwait_flag V MTE2 L1\n" \
            "set_flag MTE2 V L2\nwait_flag MTE2 V L2\n"
    stats = AllocStats(8)
    out = whole_kernel(parse(chain), 8, stats)
    assert "set_flag MTE2 V 1" in text(out) and stats.ids_used[MV] == 2  # idle first (the seed reuses 0)
    stats = AllocStats(1)
    out = whole_kernel(parse(LOGICAL), 1, stats)
    assert stats.merges == 1 and verify_sync(out).ok
    assert text(out) == text(allocate_events(parse(LOGICAL), pool=1))


def test_whole_kernel_falls_back_to_barriers() -> None:
    unordered = "set_flag MTE2 V L0\nwait_flag MTE2 V L0\nset_flag MTE2 V L1\nwait_flag MTE2 V L1\n"
    stats = AllocStats(1)
    out = whole_kernel(parse(unordered), 1, stats)
    assert text(out) == "set_flag MTE2 V 0\nwait_flag MTE2 V 0\npipe_barrier ALL\n" and stats.cuts == 1
    # lifetime-only reuse (no happens-before guard) loses the signal
    bad = whole_kernel(parse(unordered), 1, hb_guard=False)
    assert [x.kind for x in check(bad).issues] == ["lost_signal"]


def test_lower_bounds() -> None:
    assert lower_bound(parse(LOGICAL)) == {MV: 2} == interval_lower_bound(parse(LOGICAL))
    unordered = "set_flag MTE2 V L0\nwait_flag MTE2 V L0\nset_flag MTE2 V L1\nwait_flag MTE2 V L1\n"
    assert lower_bound(parse(unordered)) == {MV: 2} and interval_lower_bound(parse(unordered)) == {MV: 1}
    stats = AllocStats(0)
    out = optimal_colouring(parse(LOGICAL), stats)
    assert stats.ids_used == {MV: 2} and verify_sync(out, require_physical=True).ok


def test_every_baseline_output_is_checked() -> None:
    for seed in range(100):
        logical = infer_sync(random_stream(random.Random(seed), 30, buffers=3, strong=0.05))
        assert verify_sync(all_barriers(logical), require_physical=True).ok
        for pool in (1, 2, 8):
            assert verify_sync(whole_kernel(logical, pool), pool=pool, require_physical=True).ok
        bound = max(lower_bound(logical).values(), default=0)
        stats = AllocStats(0)
        optimal_colouring(logical, stats)
        assert max(stats.ids_used.values(), default=0) == bound
        assert all(interval_lower_bound(logical)[k] <= v for k, v in lower_bound(logical).items())


def test_executor_runs_a_verified_stream_cleanly_and_catches_races() -> None:
    logical = infer_sync(random_stream(random.Random(3), 40, buffers=3))
    out = allocate_events(logical, pool=2)
    assert stress(out, runs=50).ok
    # drop the first wait: some schedule reorders the dependent accesses
    i = next(i for i, x in enumerate(out) if x.op == "wait_flag")
    broken = out[:i] + out[i + 1:]
    assert not stress(broken, runs=50).ok


def test_executor_rules() -> None:
    lat = {"ld": 100, "add": 10}
    one = parse("MTE2 ld w:UB[0:64]\nset_flag MTE2 V 0\nwait_flag MTE2 V 0\nV add r:UB[0:64]").unroll()
    res = execute(one, lambda ins: lat[ins.op], flag_latency=4)
    assert res.ok and res.cycles == 114 and res.busy[int(Pipe.MTE2)] == 100
    racy = parse("MTE2 ld w:UB[0:64]\nV add r:UB[0:64]").unroll()
    assert execute(racy, lambda ins: lat[ins.op]).violations == [(0, 1)]
    hang = execute(parse("wait_flag MTE2 V 0").unroll(), lambda ins: 1)
    assert hang.hangs == [0] and not hang.ok
    lost = execute(parse("set_flag MTE2 V 0\nset_flag MTE2 V 0").unroll(), lambda ins: 1)
    assert lost.lost_signals == [1]
    # issue order on one pipe: without a barrier a slow first instruction is overtaken
    same = parse("V a w:UB[0:64]\nV b r:UB[0:64]").unroll()
    assert execute(same, lambda ins: 50 if ins.op == "a" else 1).violations == [(0, 1)]
    assert execute(same, lambda ins: 50 if ins.op == "a" else 1, same_pipe="inorder").ok
    barrier = parse("V a w:UB[0:64]\npipe_barrier V\nV b r:UB[0:64]").unroll()
    assert execute(barrier, lambda ins: 50 if ins.op == "a" else 1).ok
    strong = parse("MTE2 a w:UB[0:64]\npipe_barrier ALL\nV b r:UB[0:64]").unroll()
    assert execute(strong, lambda ins: 50 if ins.op == "a" else 1).cycles == 51
    assert isinstance(execute([], random_latency(random.Random(0))), ExecResult)


def test_chip_latencies() -> None:
    from aclsim.arch import get_chip

    chip = get_chip("910B")
    lat = chip_latency(chip)
    instrs = kernel_stream(20)
    assert all(lat(i) >= 1 for i in instrs)
    copy = next(i for i in instrs if i.op == "copy_in")
    assert lat(copy) == int(chip.mte2_copy_cycles + chip.gm_latency_cycles
                            + copy.writes[0].length / chip.mte2_bytes_per_cycle)


def test_whole_kernel_keeps_off_hand_written_windows() -> None:
    # a hand-written pair across strong syncs, a logical pair in between: the baseline used to
    # ignore hand-written flags (a double set of ID 0, then a wait with no set)
    across = parse("set_flag M MTE2 0\npipe_barrier ALL\nset_flag M MTE2 L0\nwait_flag M MTE2 L0\n"
                   "pipe_barrier ALL\nwait_flag M MTE2 0\n").unroll()
    out = whole_kernel(across, 8)
    assert text(out).count("set_flag M MTE2 0") == 1 and verify_sync(out, pool=8).ok
    # a hand-written set after the logical pair must be ordered after its wait, else another ID
    after = parse("set_flag MTE3 MTE2 L0\nwait_flag MTE3 MTE2 L0\nset_flag MTE3 MTE2 0\n"
                  "wait_flag MTE3 MTE2 0\n").unroll()
    out = whole_kernel(after, 2)
    assert "set_flag MTE3 MTE2 1" in text(out) and verify_sync(out, pool=2).ok
    # no ID at all: the last resort, a strong sync at the wait
    out = whole_kernel(after, 1)
    assert text(out) == "pipe_barrier ALL\nset_flag MTE3 MTE2 0\nwait_flag MTE3 MTE2 0\n"
    assert verify_sync(out, pool=1).ok
