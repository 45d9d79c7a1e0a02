"""The happens-before engine: exact reports on hand-written streams, and agreement with a
brute-force reachability oracle on random ones."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import Oracle

from aclsim.compiler import check, check_flags, find_races, flag_uses, parse
from aclsim.compiler.gen import kernel_stream
from aclsim.compiler.infer import infer_sync
from aclsim.isa import Access, Instr, Pipe, Space


def races(text: str, **kw: object) -> list[tuple[str, int, int, str]]:
    return [(r.kind, r.first.line, r.second.line, str(r.overlap))
            for r in check(parse(text).unroll(), **kw).races]  # type: ignore[arg-type]


def issues(text: str, **kw: object) -> list[tuple[str, int, int]]:
    return [(x.kind, x.instr.line, x.other.line if x.other is not None else 0)
            for x in check(parse(text).unroll(), **kw).issues]  # type: ignore[arg-type]


def test_raw_war_waw_are_found_and_named() -> None:
    text = """\
MTE2 ld w:UB[0:64]
V add r:UB[32:96] w:UB[128:192]
MTE3 st r:UB[128:160]
MTE2 ld w:UB[64:128]
MTE2 ld w:UB[160:192]
"""
    assert races(text) == [
        ("RAW", 1, 2, "UB[32:64]"),
        ("RAW", 2, 3, "UB[128:160]"),
        ("WAR", 2, 4, "UB[64:96]"),
        ("WAW", 2, 5, "UB[160:192]"),
    ]


def test_flags_order_and_transitivity() -> None:
    text = """\
MTE2 ld w:UB[0:64]
set_flag MTE2 V L0
wait_flag MTE2 V L0
V add r:UB[0:64] w:UB[64:128]
set_flag V MTE3 L1
wait_flag V MTE3 L1
MTE3 st r:UB[64:128] r:UB[0:64]
"""
    assert races(text) == [] and issues(text) == []
    # the load reaches the store through MTE2 -> V -> MTE3


def test_set_fires_after_the_whole_pipe_not_just_the_producer() -> None:
    # the set is issued before the second load, so the second load is not covered
    text = """\
MTE2 ld w:UB[0:64]
set_flag MTE2 V L0
MTE2 ld w:UB[64:128]
wait_flag MTE2 V L0
V add r:UB[0:128]
"""
    assert races(text) == [("RAW", 3, 5, "UB[64:128]")]


def test_same_pipe_needs_a_barrier_unless_in_order() -> None:
    text = "V add w:UB[0:64]\nV mul r:UB[0:64]\nS get r:UB[0:32]\nS set w:UB[0:32]\n"
    assert races(text) == [("RAW", 1, 2, "UB[0:64]"), ("RAW", 1, 3, "UB[0:32]"), ("WAW", 1, 4, "UB[0:32]"),
                           ("WAR", 2, 4, "UB[0:32]")]
    assert races(text, same_pipe="inorder") == [("RAW", 1, 3, "UB[0:32]"), ("WAW", 1, 4, "UB[0:32]"),
                                                ("WAR", 2, 4, "UB[0:32]")]
    assert races("V add w:UB[0:64]\npipe_barrier V\nV mul r:UB[0:64]") == []
    # PIPE_S is always in order
    assert races("S a w:UB[0:64]\nS b r:UB[0:64]") == []


def test_scalar_reads_and_scalar_waits_hold_the_issue() -> None:
    # GetValue after a vector op: V -> S flag; the scalar wait and the scalar read complete
    # before anything after them is issued, so the later load is ordered after both
    text = """\
V add w:UB[0:64]
set_flag V S 0
wait_flag V S 0
S get_value r:UB[0:32]
MTE2 ld w:UB[0:64]
"""
    assert races(text) == [] and issues(text) == []
    # a scalar write (SetValue) may still be in flight: the vector read needs a flag
    assert races("S set_value w:UB[0:32]\nV add r:UB[0:32]") == [("RAW", 1, 2, "UB[0:32]")]


def test_an_instruction_never_races_with_itself() -> None:
    # overlapping writes (and reads) of one instruction are one access, not a WAW with itself
    assert races("V op w:UB[0:128] w:UB[64:192]") == []
    assert races("V op r:UB[0:64] r:UB[32:96] w:UB[0:128] w:UB[64:192] w:UB[0:192]") == []
    assert races("V op w:UB[0:128] w:UB[64:192]\nMTE3 st r:UB[0:32]") == [("RAW", 1, 2, "UB[0:32]")]
    # against the others it still counts as every range it writes
    assert races("MTE2 ld w:UB[64:128]\nV op w:UB[0:128] w:UB[64:192]") == [("WAW", 1, 2, "UB[64:128]")]


def test_strong_syncs_order_everything() -> None:
    assert races("MTE2 ld w:UB[0:64]\npipe_barrier ALL\nV add r:UB[0:64]") == []
    assert races("MTE2 ld w:UB[0:64]\nsync_all\nV add r:UB[0:64]") == []
    assert races("MTE2 ld w:UB[0:64]\npipe_barrier MTE2\nV add r:UB[0:64]") == [("RAW", 1, 3, "UB[0:64]")]


def test_flag_misuse() -> None:
    assert issues("wait_flag MTE2 V 0") == [("wait_without_set", 1, 0)]
    assert issues("set_flag MTE2 V 0\nset_flag MTE2 V 0\nwait_flag MTE2 V 0") == [("double_set", 2, 1)]
    assert issues("set_flag MTE2 V 0") == [("unmatched_set", 1, 0)]
    # reuse of an ID: the second set can fire before V consumed the first signal
    text = """\
set_flag MTE2 V 0
wait_flag MTE2 V 0
set_flag MTE2 V 0
wait_flag MTE2 V 0
"""
    assert issues(text) == [("lost_signal", 3, 2)]
    ordered = """\
set_flag MTE2 V 0
wait_flag MTE2 V 0
set_flag V MTE2 1
wait_flag V MTE2 1
set_flag MTE2 V 0
wait_flag MTE2 V 0
"""
    assert issues(ordered) == []
    assert issues("set_flag MTE2 V 9\nwait_flag MTE2 V 9", pool=8) == [("id_out_of_range", 1, 0),
                                                                     ("id_out_of_range", 2, 0)]
    assert issues("set_flag MTE2 V L9\nwait_flag MTE2 V L9", require_physical=True) == [
        ("logical_id", 1, 0), ("logical_id", 2, 0)]
    # logical and physical IDs are different flags
    assert issues("set_flag MTE2 V L0\nwait_flag MTE2 V 0") == [("unmatched_set", 1, 0),
                                                                ("wait_without_set", 2, 0)]


def test_reports_read_well() -> None:
    report = check(parse("MTE2 ld w:UB[0:64]\nV add r:UB[0:64]\nwait_flag V S 3", file="k.sync").unroll())
    text = str(report)
    assert "1 race(s), 1 sync issue(s)" in text
    assert "k.sync:1 'MTE2 ld w:UB[0:64]'" in text and "k.sync:2 'V add r:UB[0:64]'" in text
    assert "add set_flag MTE2 V / wait_flag MTE2 V between them" in text
    assert "k.sync:3 'wait_flag V S 3' waits for a flag no earlier set_flag raises" in text
    assert not report.ok and check([]).ok and "OK" in str(check([]))


def test_api_helpers() -> None:
    instrs = parse("MTE2 ld w:UB[0:64]\nV add r:UB[0:64]\nset_flag V S 0").unroll()
    assert [r.kind for r in find_races(instrs)] == ["RAW"]
    assert [x.kind for x in check_flags(instrs)] == ["unmatched_set"]
    uses = flag_uses(parse("set_flag MTE2 V L0\nV x w:UB[0:1]\nwait_flag MTE2 V L0").unroll())
    assert [(u.set_index, u.wait_index, u.known, u.number) for u in uses] == [(0, 2, 0, 1)]
    with pytest.raises(ValueError, match="same_pipe"):
        check([], same_pipe="sometimes")


def test_flag_repr_names_the_scalar_pipe() -> None:
    from aclsim.isa import set_flag

    assert repr(set_flag(Pipe.MTE2, Pipe.S, 0)) == "<Instr MTE2 set_flag MTE2->S 0>"


def test_max_reports_caps_the_list_not_the_count() -> None:
    instrs = [Instr(Pipe.MTE2, "ld", writes=(Access(Space.UB, 0, 64),))] + [
        Instr(Pipe.V, "add", reads=(Access(Space.UB, 0, 64),)) for _ in range(10)]
    report = check(instrs, max_reports=3)
    assert len(report.races) == 3 and report.race_count == 10


# --- agreement with the oracle -------------------------------------------------------------------

PIPES = [Pipe.S, Pipe.V, Pipe.MTE2, Pipe.MTE3]


@st.composite
def streams(draw: st.DrawFn, max_size: int = 18) -> list[Instr]:
    out: list[Instr] = []
    for _ in range(draw(st.integers(0, max_size))):
        kind = draw(st.sampled_from(["work"] * 4 + ["set", "wait", "bar", "all"]))
        if kind == "work":
            def acc() -> Access:
                return Access(Space.UB, draw(st.sampled_from([0, 32, 64])), draw(st.sampled_from([32, 64])))
            # up to two reads and two writes, which may overlap within the instruction
            reads = tuple(acc() for _ in range(draw(st.integers(0, 2))))
            writes = tuple(acc() for _ in range(draw(st.integers(0, 2))))
            out.append(Instr(draw(st.sampled_from(PIPES)), "op", reads=reads, writes=writes))
        elif kind in ("set", "wait"):
            src, dst = draw(st.sampled_from(PIPES)), draw(st.sampled_from(PIPES))
            out.append(Instr(src if kind == "set" else dst, "set_flag" if kind == "set" else "wait_flag",
                             src=src, dst=dst, event_id=draw(st.integers(0, 1))))
        elif kind == "bar":
            out.append(Instr(draw(st.sampled_from([*PIPES, Pipe.ALL])), "pipe_barrier"))
        else:
            out.append(Instr(Pipe.ALL, "sync_all"))
    return out


@settings(max_examples=1500, deadline=None)
@given(streams(), st.sampled_from(["barrier", "inorder"]))
def test_engine_agrees_with_the_oracle(instrs: list[Instr], mode: str) -> None:
    report = check(instrs, same_pipe=mode, max_reports=10_000)
    oracle = Oracle(instrs, mode)
    truth = set(oracle.races())
    found = {(r.first_index, r.second_index) for r in report.races}
    assert found <= truth  # every report is a real race
    assert bool(found) == bool(truth)  # and a racy stream is always reported
    kinds = {(x.kind, x.index) for x in report.issues}
    assert {i for k, i in kinds if k == "lost_signal"} == set(oracle.lost_signals())
    assert {i for k, i in kinds if k == "wait_without_set"} == set(oracle.unmatched_waits)
    assert {i for k, i in kinds if k == "unmatched_set"} <= set(oracle.unmatched_sets)


def test_engine_is_fast() -> None:
    instrs = infer_sync(kernel_stream(20_000, depth=2, strong_every=40))
    t0 = time.perf_counter()
    assert check(instrs).ok
    per = (time.perf_counter() - t0) / len(instrs)
    assert per < 20e-6, f"{per * 1e6:.2f} us per instruction"
