"""allocate_events (the seed's method) on hand-written streams: exact output, shortage
handling, segments, loops, determinism."""

from __future__ import annotations

import random

import pytest

from aclsim.compiler import (
    AllocStats,
    SyncError,
    allocate_events,
    format_program,
    infer_sync,
    lower_bound,
    parse,
    verify_sync,
)
from aclsim.compiler.alloc import allocate_flat
from aclsim.compiler.gen import kernel_stream, random_program, random_stream
from aclsim.isa import Pipe

MV = (Pipe.MTE2, Pipe.V)


def alloc(text: str, pool: int) -> tuple[str, AllocStats]:
    stats = AllocStats(pool)
    out = allocate_events(parse(text), pool=pool, stats=stats)
    assert verify_sync(out, pool=pool, require_physical=True).ok
    return format_program(out), stats


TWO_LIVE = """\
MTE2 ld w:UB[0:64]
set_flag MTE2 V L0
MTE2 ld w:UB[64:128]
set_flag MTE2 V L1
wait_flag MTE2 V L0
V add r:UB[0:64]
wait_flag MTE2 V L1
V add r:UB[64:128]
"""


def test_overlapping_points_get_distinct_ids() -> None:
    text, stats = alloc(TWO_LIVE, 8)
    assert text == TWO_LIVE.replace("L0", "0").replace("L1", "1")
    assert stats.ids_used == {MV: 2} and stats.sync_points == 2 and stats.false_dependencies == 0


def test_shortage_merges_with_the_live_point() -> None:
    text, stats = alloc(TWO_LIVE, 1)
    assert text == """\
MTE2 ld w:UB[0:64]
MTE2 ld w:UB[64:128]
set_flag MTE2 V 0
wait_flag MTE2 V 0
V add r:UB[0:64]
V add r:UB[64:128]
"""
    assert (stats.merges, stats.orderings, stats.cuts) == (1, 0, 0) and stats.ids_used == {MV: 1}


def test_an_id_is_reused_only_when_the_earlier_wait_is_ordered_before_the_new_set() -> None:
    ordered = "set_flag MTE2 V L0\nwait_flag MTE2 V L0\nset_flag V MTE2 L1\nwait_flag V MTE2 L1\n" \
              "set_flag MTE2 V L2\nwait_flag MTE2 V L2\n"
    text, stats = alloc(ordered, 8)
    assert text.count("set_flag MTE2 V 0") == 2 and stats.ids_used[MV] == 1
    unordered = "set_flag MTE2 V L0\nwait_flag MTE2 V L0\nset_flag MTE2 V L1\nwait_flag MTE2 V L1\n"
    text, stats = alloc(unordered, 8)
    assert text == "set_flag MTE2 V 0\nwait_flag MTE2 V 0\nset_flag MTE2 V 1\nwait_flag MTE2 V 1\n"
    assert lower_bound(parse(unordered)) == {MV: 2}


def test_shortage_without_live_point_adds_an_ordering_pair() -> None:
    unordered = "set_flag MTE2 V L0\nwait_flag MTE2 V L0\nset_flag MTE2 V L1\nwait_flag MTE2 V L1\n"
    text, stats = alloc(unordered, 1)
    assert text == """\
set_flag MTE2 V 0
wait_flag MTE2 V 0
set_flag V MTE2 0
wait_flag V MTE2 0
set_flag MTE2 V 0
wait_flag MTE2 V 0
"""
    assert (stats.merges, stats.orderings, stats.cuts) == (0, 1, 0)


def test_last_resort_is_a_strong_sync_cut() -> None:
    crossed = """\
set_flag MTE2 V L1
set_flag V MTE2 L0
wait_flag MTE2 V L1
wait_flag V MTE2 L0
set_flag MTE2 V L2
wait_flag MTE2 V L2
"""
    text, stats = alloc(crossed, 1)
    assert text == """\
set_flag MTE2 V 0
set_flag V MTE2 0
wait_flag MTE2 V 0
wait_flag V MTE2 0
pipe_barrier ALL
set_flag MTE2 V 0
wait_flag MTE2 V 0
"""
    assert (stats.merges, stats.orderings, stats.cuts, stats.segments) == (0, 0, 1, 2)


def test_cut_removes_the_pairs_it_straddles() -> None:
    # with merging and ordering disabled, the cut drops the live pair (the barrier orders it)
    instrs = parse(TWO_LIVE).unroll()
    stats = AllocStats(1)
    out = allocate_flat(instrs, 1, stats, merge=False, order=False)
    assert format_program(out) == """\
MTE2 ld w:UB[0:64]
MTE2 ld w:UB[64:128]
pipe_barrier ALL
set_flag MTE2 V 0
V add r:UB[0:64]
wait_flag MTE2 V 0
V add r:UB[64:128]
"""
    assert stats.cuts == 1 and verify_sync(out).ok


def test_segments_free_everything_and_drop_pairs_a_strong_sync_orders() -> None:
    text, stats = alloc("""\
set_flag MTE2 V L0
pipe_barrier ALL
wait_flag MTE2 V L0
set_flag MTE2 V 3
wait_flag MTE2 V 3
set_flag MTE2 V L1
wait_flag MTE2 V L1
""", 4)
    assert text == ("pipe_barrier ALL\nset_flag MTE2 V 3\nwait_flag MTE2 V 3\n"
                    "set_flag MTE2 V 0\nwait_flag MTE2 V 0\n")
    assert stats.redundant == 1 and stats.segments == 2


def test_hand_written_ids_are_occupied_over_their_live_range() -> None:
    text, stats = alloc("set_flag MTE2 V 0\nset_flag MTE2 V L5\nwait_flag MTE2 V 0\nwait_flag MTE2 V L5\n", 8)
    assert "set_flag MTE2 V 1" in text and stats.ids_used[MV] == 2
    # pool 1: the hand-written pair holds the only ID over the whole window of L5, which a cut
    # cannot free: L5 becomes a strong sync at its wait (it used to be refused)
    text, stats = alloc("set_flag MTE2 V 0\nset_flag MTE2 V L5\nwait_flag MTE2 V 0\nwait_flag MTE2 V L5\n", 1)
    assert text == "set_flag MTE2 V 0\nwait_flag MTE2 V 0\npipe_barrier ALL\n"
    assert stats.cuts == 1 and stats.ids_used == {}


def runs_clean(out: list, pool: int) -> None:
    """Verified, and no lost signal, hang or broken dependence in the oracle and the executor."""
    from oracle import Oracle

    from aclsim.compiler.executor import stress

    report = verify_sync(out, pool=pool, require_physical=True)
    assert report.ok, str(report)
    oracle = Oracle(out)
    assert not oracle.lost_signals() and not oracle.unmatched_waits and not oracle.races()
    assert stress(out, runs=30, seed=pool).ok


ACROSS_STRONG = """set_flag M MTE2 0
pipe_barrier ALL
M mmad r:L0A[0:64] w:L0C[0:64]
set_flag M MTE2 L0
wait_flag M MTE2 L0
MTE2 ld r:L0C[0:64] w:UB[0:64]
pipe_barrier ALL
wait_flag M MTE2 0
"""


def test_hand_written_pair_across_strong_syncs_holds_its_id_in_between() -> None:
    # the strong syncs consume no signal: ID 0 stays set through the middle segment, so the
    # inferred pair there must not take it (it did: a double set, then a wait with no set)
    text, stats = alloc(ACROSS_STRONG, 8)
    assert text == ACROSS_STRONG.replace("MTE2 L0", "MTE2 1")
    runs_clean(parse(text).unroll(), 8)
    # pool 1: no ID at all in the middle segment (a cut frees none): a strong sync at the wait
    text, stats = alloc(ACROSS_STRONG, 1)
    assert text == """\
set_flag M MTE2 0
pipe_barrier ALL
M mmad r:L0A[0:64] w:L0C[0:64]
pipe_barrier ALL
MTE2 ld r:L0C[0:64] w:UB[0:64]
pipe_barrier ALL
wait_flag M MTE2 0
"""
    assert stats.cuts == 1
    runs_clean(parse(text).unroll(), 1)


HAND_THEN_LOGICAL = """\
MTE3 st w:GM[0:64]
set_flag MTE3 MTE2 0
wait_flag MTE3 MTE2 0
MTE2 ld r:GM[0:64] w:UB[0:64]
MTE3 st w:GM[128:192]
set_flag MTE3 MTE2 L0
wait_flag MTE3 MTE2 L0
MTE2 ld r:GM[128:192] w:UB[64:128]
"""


def test_pool_of_one_reuses_a_hand_written_id_after_its_wait() -> None:
    # the ID is free after the hand-written wait; the new set is not ordered after that wait,
    # so an ordering pair in the other direction comes first (it used to be refused)
    text, stats = alloc(HAND_THEN_LOGICAL, 1)
    assert text == """\
MTE3 st w:GM[0:64]
set_flag MTE3 MTE2 0
wait_flag MTE3 MTE2 0
MTE2 ld r:GM[0:64] w:UB[0:64]
MTE3 st w:GM[128:192]
set_flag MTE2 MTE3 0
wait_flag MTE2 MTE3 0
set_flag MTE3 MTE2 0
wait_flag MTE3 MTE2 0
MTE2 ld r:GM[128:192] w:UB[64:128]
"""
    assert (stats.merges, stats.orderings, stats.cuts) == (0, 1, 0)
    runs_clean(parse(text).unroll(), 1)
    # a pass-placed wait before a hand-written set of the same ID: the hand-written set is
    # ordered after it the same way
    swapped = HAND_THEN_LOGICAL.replace("MTE2 0", "MTE2 X").replace("MTE2 L0", "MTE2 0").replace("MTE2 X",
                                                                                                 "MTE2 L0")
    text, stats = alloc(swapped, 1)
    assert text.count("set_flag MTE2 MTE3 0\nwait_flag MTE2 MTE3 0\nset_flag MTE3 MTE2 0\n") == 1
    assert stats.orderings == 1
    runs_clean(parse(text).unroll(), 1)
    # with the other direction's only ID held by hand too, the last resort: a strong sync
    held = "set_flag MTE2 MTE3 0\n" + HAND_THEN_LOGICAL + "wait_flag MTE2 MTE3 0\n"
    text, stats = alloc(held, 1)
    assert "MTE3 st w:GM[128:192]\npipe_barrier ALL\nset_flag MTE3 MTE2 0\n" in text
    assert (stats.orderings, stats.cuts) == (0, 1)
    runs_clean(parse(text).unroll(), 1)


def test_bad_logical_pairs_name_the_line() -> None:
    with pytest.raises(SyncError, match="line 1: wait_flag MTE2 V L0 has no earlier set_flag"):
        allocate_events(parse("wait_flag MTE2 V L0"))
    with pytest.raises(SyncError, match="line 1: set_flag MTE2 V L0 is never waited"):
        allocate_events(parse("set_flag MTE2 V L0"))
    with pytest.raises(SyncError, match="line 2: logical flag MTE2 V L0 set twice"):
        allocate_events(parse("set_flag MTE2 V L0\nset_flag MTE2 V L0\nwait_flag MTE2 V L0"))
    with pytest.raises(ValueError, match="pool must be > 0"):
        allocate_events([], pool=0)


def test_chip_gives_the_pool() -> None:
    stats = AllocStats(0)
    allocate_events(parse(TWO_LIVE), "310P", stats=stats)
    assert stats.pool == 8


def test_equals_the_lower_bound_and_never_exceeds_the_pool() -> None:
    for seed in range(200):
        rng = random.Random(seed)
        logical = infer_sync(random_stream(rng, 30, buffers=4, strong=0.03))
        bound = lower_bound(logical)
        for pool in (2, 4, 8):
            stats = AllocStats(pool)
            out = allocate_events(logical, pool=pool, stats=stats)
            assert verify_sync(out, pool=pool, require_physical=True).ok
            assert all(n <= pool for n in stats.ids_used.values())
            if max(bound.values(), default=0) <= pool:
                assert stats.ids_used == {k: v for k, v in bound.items() if v}
                assert stats.false_dependencies == 0 and stats.cuts == 0


def test_deterministic() -> None:
    logical = infer_sync(kernel_stream(3000, depth=6, strong_every=30))
    a = allocate_events(logical, pool=4)
    b = allocate_events(list(logical), pool=4)
    assert format_program(a) == format_program(b)


LOOP = """\
set_flag V MTE2 L4
for i in 0..4 {
  wait_flag V MTE2 L4
  MTE2 copy_in r:GM[i*256:i*256+256] w:UB[0:256]
  set_flag MTE2 V L0
  wait_flag MTE2 V L0
  V add r:UB[0:256] w:UB[1024:1280]
  set_flag V MTE2 L4
}
wait_flag V MTE2 L4
"""


def test_loop_carried_pair_holds_its_id_across_the_back_edge() -> None:
    text, stats = alloc(LOOP, 8)
    assert text == LOOP.replace("L4", "0").replace("L0", "0")
    assert stats.ids_used == {MV: 1, (Pipe.V, Pipe.MTE2): 1}


def test_loop_programs_verify_at_every_pool() -> None:
    for seed in range(80):
        logical = infer_sync(random_program(random.Random(seed), 12, buffers=3, strong=0.05))
        for pool in (1, 2, 8):
            stats = AllocStats(pool)
            out = allocate_events(logical, pool=pool, stats=stats)
            report = verify_sync(out, pool=pool, require_physical=True)
            assert report.ok, (seed, pool, format_program(out), str(report))
            assert all(n <= pool for n in stats.ids_used.values())


def test_structured_and_flat_methods_agree_on_loop_free_streams() -> None:
    from aclsim.compiler.program import Program
    from aclsim.compiler.structured_alloc import allocate_structured

    for seed in range(60):
        logical = infer_sync(random_stream(random.Random(seed), 25, buffers=4))
        flat = AllocStats(8)
        allocate_events(logical, pool=8, stats=flat)
        structured = AllocStats(8)
        out = allocate_structured(Program(list(logical)), 8, structured)
        assert verify_sync(out, pool=8, require_physical=True).ok
        if not flat.false_dependencies and not flat.cuts:
            assert structured.ids_used == flat.ids_used


def test_unsound_loop_input_is_refused_with_a_hint() -> None:
    text = "for i in 0..3 {\n  set_flag MTE2 V L0\n  wait_flag MTE2 V L0\n}\n"
    with pytest.raises(SyncError, match="run infer_sync"):
        allocate_events(parse(text))
    fixed = infer_sync(parse(text))
    assert verify_sync(allocate_events(fixed), require_physical=True).ok


def test_loop_programs_reuse_a_hand_written_id_after_its_wait() -> None:
    # the structured variant used to reserve a hand-written ID for the whole program, so at
    # pool 1 the logical pair became a strong sync; its set is ordered after the hand-written
    # wait (through L1), so it shares ID 0
    text = """\
MTE3 st w:GM[0:64]
set_flag MTE3 MTE2 0
wait_flag MTE3 MTE2 0
MTE2 ld r:GM[0:64] w:UB[0:64]
set_flag MTE2 MTE3 L1
wait_flag MTE2 MTE3 L1
MTE3 st w:GM[128:192]
set_flag MTE3 MTE2 L0
wait_flag MTE3 MTE2 L0
for i in 0..2 {
  MTE2 ld r:GM[128:192] w:UB[i*64+64:i*64+128]
}
"""
    out, stats = alloc(text, 1)
    assert out == text.replace(" L1", " 0").replace(" L0", " 0")
    assert stats.cuts == 0 and stats.ids_used == {(Pipe.MTE3, Pipe.MTE2): 1, (Pipe.MTE2, Pipe.MTE3): 1}
    # and a hand-written pair whose execution overlaps the logical one still keeps its ID apart
    loop = "for i in 0..2 {\n  V x w:UB[i*64:i*64+64]\n}\n"
    crossed = "set_flag MTE2 V 0\nset_flag MTE2 V L5\nwait_flag MTE2 V 0\nwait_flag MTE2 V L5\n"
    out, stats = alloc(crossed + loop, 2)
    assert "set_flag MTE2 V 1" in out and stats.cuts == 0


def test_loop_programs_with_hand_written_pairs_verify() -> None:
    for seed in range(60):
        rng = random.Random(seed)
        pool = rng.choice((1, 2))
        logical = infer_sync(random_program(rng, 10, buffers=3, strong=0.1, hand=3, hand_ids=pool))
        for size in range(pool, 3):
            out = allocate_events(logical, pool=size)
            report = verify_sync(out, pool=size, require_physical=True)
            assert report.ok, (seed, size, format_program(out), str(report))
