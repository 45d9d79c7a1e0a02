"""The whole pipeline on random streams (hypothesis, with shrinking): infer, allocate at small
and real pools, verify, and run under randomized pipe latencies (the SyncTester idea), in the
compiler's executor and in the core model (``aclsim.sim``)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle import Oracle

from aclsim.compiler import (
    AllocStats,
    Loop,
    Program,
    allocate_events,
    check,
    infer_sync,
    lower_bound,
    verify_sync,
)
from aclsim.compiler.coretest import stress_in_core_model
from aclsim.compiler.executor import stress
from aclsim.compiler.gen import insert_flag_pairs
from aclsim.compiler.program import AffineAccess, affine_access
from aclsim.compiler.text import format_program
from aclsim.isa import Access, Instr, Pipe, Space

# ACLSIM_SYNC_EXAMPLES raises the count (the benchmark job runs 10,000 there too)
EXAMPLES = int(os.environ.get("ACLSIM_SYNC_EXAMPLES", "10000"))

PIPES = [Pipe.S, Pipe.V, Pipe.M, Pipe.MTE1, Pipe.MTE2, Pipe.MTE3, Pipe.FIX]
SPACES = [Space.UB, Space.L1, Space.GM]


@st.composite
def accesses(draw: st.DrawFn) -> Access:
    lo = draw(st.sampled_from([0, 32, 64, 96]))
    return Access(draw(st.sampled_from(SPACES)), lo, draw(st.sampled_from([32, 64])))


def decode(code: int, pipes: list[Pipe], line: int) -> Instr:
    """One instruction from one integer (one hypothesis draw each keeps 10,000 examples fast;
    shrinking still shortens the stream and simplifies each instruction)."""
    if code % 23 == 0:
        return Instr(Pipe.ALL, "sync_all" if code & 1 else "pipe_barrier", line=line)
    pipe = pipes[(code >> 1) % len(pipes)]
    nreads = (code >> 4) % 3
    nwrites = max((code >> 6) & 1, 0 if nreads else 1)
    accs = []
    bits = code >> 7
    for _ in range(nreads + nwrites):
        accs.append(Access(SPACES[(bits & 3) % 3], ((bits >> 2) & 3) * 32, 32 << ((bits >> 4) & 1)))
        bits >>= 5
    return Instr(pipe, "op", reads=tuple(accs[:nreads]), writes=tuple(accs[nreads:]), line=line)


work_streams = st.builds(
    lambda codes, wide: [decode(c, PIPES if wide else PIPES[:2] + PIPES[4:6], i + 1)
                         for i, c in enumerate(codes)],
    st.lists(st.integers(0, 2**22 - 1), min_size=1, max_size=40), st.booleans())


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(work_streams, st.sampled_from([1, 2, 3, 4, 8]), st.sampled_from(["barrier", "inorder"]),
       st.integers(0, 2**16))
def test_random_streams_verify_and_run(work: list[Instr], pool: int, mode: str, seed: int) -> None:
    logical = infer_sync(work, same_pipe=mode)
    assert check(logical, same_pipe=mode).ok
    stats = AllocStats(pool)
    out = allocate_events(logical, pool=pool, stats=stats)
    report = check(out, same_pipe=mode, pool=pool, require_physical=True)
    assert report.ok, str(report)
    assert all(n <= pool for n in stats.ids_used.values())
    bound = lower_bound(logical)
    if max(bound.values(), default=0) <= pool:
        assert stats.ids_used == {k: v for k, v in bound.items() if v}
    assert stress(out, runs=2, seed=seed, same_pipe=mode).ok
    # and in the core model itself, under randomized latencies
    assert stress_in_core_model(out, "910B", trials=1, seed=seed) == []


@st.composite
def programs(draw: st.DrawFn, depth: int = 0, loops: tuple[str, ...] = ()) -> list:
    items: list = []
    for _ in range(draw(st.integers(1, 4))):
        if depth < 2 and draw(st.integers(0, 3)) == 0:
            var = "ij"[depth]
            items.append(Loop(var, 0, draw(st.integers(0, 4)), draw(programs(depth + 1, (*loops, var)))))
            continue

        def acc() -> Access:
            a = draw(accesses())
            if loops and draw(st.booleans()):
                from aclsim.compiler import Affine

                var, stride = draw(st.sampled_from(loops)), draw(st.sampled_from([32, 64, 128]))
                start = Affine(a.offset, ((var, stride),))
                made = affine_access(a.space, start, start + Affine(a.length))
                assert isinstance(made, AffineAccess)
                return made
            return a

        reads = tuple(acc() for _ in range(draw(st.integers(0, 1))))
        writes = tuple(acc() for _ in range(draw(st.integers(0 if reads else 1, 1))))
        items.append(Instr(draw(st.sampled_from(PIPES[:2] + PIPES[4:6])), "op", reads=reads, writes=writes))
        if draw(st.integers(0, 15)) == 0:
            items.append(Instr(Pipe.ALL, "pipe_barrier"))
    return items


@settings(max_examples=max(EXAMPLES // 25, 50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(), st.sampled_from([1, 2, 8]), st.integers(0, 2**16))
def test_random_loop_programs_verify_and_run(items: list, pool: int, seed: int) -> None:
    prog = Program(items)
    logical = infer_sync(prog)
    assert verify_sync(logical).ok, format_program(logical)
    stats = AllocStats(pool)
    out = allocate_events(logical, pool=pool, stats=stats)
    report = verify_sync(out, pool=pool, require_physical=True)
    assert report.ok, format_program(out) + str(report)
    assert all(n <= pool for n in stats.ids_used.values())
    assert stress(out.unroll(), runs=2, seed=seed).ok


# --- instructions whose own ranges overlap, hand-written pairs across strong syncs ----------------

def decode_wide(code: int, pipes: list[Pipe], line: int) -> Instr:
    """Like :func:`decode`, with strong syncs three times as often and, when bit 22 is set, one
    more write overlapping the instruction's first range (by a quarter, a half, or all of it)."""
    if code % 7 == 0:
        return Instr(Pipe.ALL, "sync_all" if code & 1 else "pipe_barrier", line=line)
    ins = decode(code & (2**22 - 1), pipes, line)
    if code >> 22 & 1 and not ins.is_sync:
        base = (ins.writes or ins.reads)[0]
        shift = (16, 32, 0, -16)[code >> 23 & 3]
        extra = Access(base.space, max(0, base.offset + shift), 64)
        ins = Instr(ins.pipe, "op", reads=ins.reads, writes=(*ins.writes, extra), line=line)
    return ins


@st.composite
def hand_written_streams(draw: st.DrawFn) -> tuple[list[Instr], int]:
    """A work stream (vector pipes, or all) with hand-written physical pairs (IDs below the
    pool) at random places, often straddling strong syncs; only pairs that keep the flags
    legal are kept (``gen.insert_flag_pairs``)."""
    pool = draw(st.sampled_from([1, 1, 2, 2, 8]))
    pipes = PIPES if draw(st.booleans()) else PIPES[:2] + PIPES[4:6]
    codes = draw(st.lists(st.integers(0, 2**25 - 1), min_size=1, max_size=24))
    work = [decode_wide(c, pipes, i + 1) for i, c in enumerate(codes)]
    pairs = draw(st.lists(st.tuples(st.sampled_from(pipes), st.sampled_from(pipes), st.integers(0, pool - 1),
                                    st.integers(0, len(work)), st.integers(0, len(work))), max_size=5))
    stream = insert_flag_pairs(work, [(p, q, k, a, b) for p, q, k, a, b in pairs if p is not q])
    return [x for x in stream if isinstance(x, Instr)], pool


@settings(max_examples=max(EXAMPLES // 25, 100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand_written_streams(), st.sampled_from(["barrier", "inorder"]), st.integers(0, 2**16))
def test_hand_written_pairs_and_overlapping_ranges(case: tuple[list[Instr], int], mode: str,
                                                   seed: int) -> None:
    stream, pool = case
    hand = [x for x in stream if x.op in ("set_flag", "wait_flag")]
    logical = infer_sync(stream, same_pipe=mode)
    assert check(logical, same_pipe=mode).ok
    for size in sorted({1, 2, pool}):
        if any(x.event_id >= size for x in hand):  # type: ignore[operator]
            continue
        stats = AllocStats(size)
        out = allocate_events(logical, pool=size, stats=stats)
        report = check(out, same_pipe=mode, pool=size, require_physical=True)
        assert report.ok, format_program(out) + str(report)
        # the hand-written flags are all kept, in their order
        kept = iter(out)
        assert all(any(y is x for y in kept) for x in hand)
        # the brute-force oracle: every dependence ordered, no lost signal, no wait without set
        oracle = Oracle(out, mode)
        assert not oracle.races() and not oracle.lost_signals() and not oracle.unmatched_waits
        assert not oracle.unmatched_sets
        # and the randomized executor: no lost signal, hang or broken memory order
        assert stress(out, runs=2, seed=seed, same_pipe=mode).ok
