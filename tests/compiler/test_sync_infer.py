"""infer_sync on hand-written streams (exact output), flat and with loops."""

from __future__ import annotations

from oracle import Oracle, dependences

from aclsim.compiler import InferStats, format_program, infer_sync, parse, verify_sync
from aclsim.compiler.gen import random_program, random_stream

VECTOR = """\
MTE2 copy_in r:GM[0:256] w:UB[0:256]
MTE2 copy_in r:GM[256:512] w:UB[256:512]
V add r:UB[0:256] r:UB[256:512] w:UB[512:768]
V muls r:UB[512:768] w:UB[512:768]
MTE3 copy_out r:UB[512:768] w:GM[1024:1280]
MTE2 copy_in r:GM[512:768] w:UB[0:256]
S get_value r:UB[512:544]
"""


def test_flat_stream_gets_exactly_the_needed_syncs() -> None:
    stats = InferStats()
    out = infer_sync(parse(VECTOR), stats=stats)
    assert format_program(out) == """\
MTE2 copy_in r:GM[0:256] w:UB[0:256]
MTE2 copy_in r:GM[256:512] w:UB[256:512]
set_flag MTE2 V L0
wait_flag MTE2 V L0
V add r:UB[0:256] r:UB[256:512] w:UB[512:768]
set_flag V MTE2 L2
pipe_barrier V
V muls r:UB[512:768] w:UB[512:768]
set_flag V MTE3 L1
set_flag V S L3
wait_flag V MTE3 L1
MTE3 copy_out r:UB[512:768] w:GM[1024:1280]
wait_flag V MTE2 L2
MTE2 copy_in r:GM[512:768] w:UB[0:256]
wait_flag V S L3
S get_value r:UB[512:544]
"""
    # one pair for both loads (the set waits for the whole MTE2 pipe); the WAW of the third load
    # on the first is ordered through V (MTE2 -> V -> MTE2), so it needs no pipe_barrier MTE2
    assert (stats.flags, stats.barriers, stats.implied) == (4, 1, 1)
    assert verify_sync(out).ok


def test_in_order_pipes_need_no_barrier() -> None:
    out = format_program(infer_sync(parse(VECTOR), same_pipe="inorder"))
    assert "pipe_barrier" not in out and out.count("set_flag") == 4


def test_existing_syncs_are_kept_and_not_repeated() -> None:
    text = "MTE2 ld w:UB[0:64]\nset_flag MTE2 V 5\nwait_flag MTE2 V 5\nV add r:UB[0:64] w:UB[64:128]\n" \
           "MTE3 st r:UB[64:128]\n"
    assert format_program(infer_sync(parse(text))) == (
        "MTE2 ld w:UB[0:64]\nset_flag MTE2 V 5\nwait_flag MTE2 V 5\nV add r:UB[0:64] w:UB[64:128]\n"
        "set_flag V MTE3 L0\nwait_flag V MTE3 L0\nMTE3 st r:UB[64:128]\n")
    # fresh logical IDs start above the ones in use
    assert "L8" in format_program(infer_sync(parse(text.replace(" 5", " L7"))))


def test_strong_sync_makes_deps_implicit() -> None:
    text = "MTE2 ld w:UB[0:64]\npipe_barrier ALL\nV add r:UB[0:64]\n"
    assert format_program(infer_sync(parse(text))) == text


def test_transitive_reduction_against_the_oracle() -> None:
    # every inserted pair is needed: removing any one breaks a dependence
    import random

    for seed in range(60):
        w = random_stream(random.Random(seed), 14, buffers=3)
        out = infer_sync(w)
        assert not Oracle(out).races()
        syncs = [i for i, x in enumerate(out) if x.op in ("wait_flag", "pipe_barrier")]
        for i in syncs:
            drop = out[i]
            pruned = [x for j, x in enumerate(out) if j != i and not (
                drop.op == "wait_flag" and x.op == "set_flag" and x.event_id == drop.event_id and x.logical)]
            assert Oracle(pruned).races(), f"seed {seed}: sync at {i} is redundant"


DOUBLE_BUFFER = """\
for i in 0..4 {
  MTE2 copy_in r:GM[i*512:i*512+256] w:UB[0:256]
  V add r:UB[0:256] w:UB[1024:1280]
  MTE3 copy_out r:UB[1024:1280] w:GM[i*512+65536:i*512+65792]
  MTE2 copy_in r:GM[i*512+256:i*512+512] w:UB[256:512]
  V add r:UB[256:512] w:UB[1280:1536]
  MTE3 copy_out r:UB[1280:1536] w:GM[i*512+65792:i*512+66048]
}
"""


def test_loop_gets_loop_carried_pairs_held_across_the_back_edge() -> None:
    stats = InferStats()
    out = infer_sync(parse(DOUBLE_BUFFER), stats=stats)
    assert format_program(out) == """\
set_flag V MTE2 L4
set_flag MTE3 V L5
set_flag V MTE2 L6
set_flag MTE3 V L7
for i in 0..4 {
  wait_flag V MTE2 L4
  MTE2 copy_in r:GM[i*512:i*512+256] w:UB[0:256]
  set_flag MTE2 V L0
  wait_flag MTE2 V L0
  wait_flag MTE3 V L5
  V add r:UB[0:256] w:UB[1024:1280]
  set_flag V MTE2 L4
  set_flag V MTE3 L1
  wait_flag V MTE3 L1
  MTE3 copy_out r:UB[1024:1280] w:GM[i*512+65536:i*512+65792]
  set_flag MTE3 V L5
  wait_flag V MTE2 L6
  MTE2 copy_in r:GM[i*512+256:i*512+512] w:UB[256:512]
  set_flag MTE2 V L2
  wait_flag MTE2 V L2
  wait_flag MTE3 V L7
  V add r:UB[256:512] w:UB[1280:1536]
  set_flag V MTE2 L6
  set_flag V MTE3 L3
  wait_flag V MTE3 L3
  MTE3 copy_out r:UB[1280:1536] w:GM[i*512+65792:i*512+66048]
  set_flag MTE3 V L7
}
wait_flag MTE3 V L7
wait_flag V MTE2 L6
wait_flag MTE3 V L5
wait_flag V MTE2 L4
"""
    assert stats.flags == 8 and stats.barriers == 0
    assert verify_sync(out).ok


def test_streaming_ranges_have_no_carried_dependence() -> None:
    # each iteration writes a fresh range: the affine test finds no loop-carried dependence,
    # but the one-deep flag still needs back-pressure so that no signal is lost
    text = "for i in 0..8 {\n  MTE2 ld w:UB[i*64:i*64+64]\n  V add r:UB[i*64:i*64+64]\n}\n"
    out = infer_sync(parse(text))
    assert format_program(out) == """\
set_flag V MTE2 L1
for i in 0..8 {
  MTE2 ld w:UB[i*64:i*64+64]
  wait_flag V MTE2 L1
  set_flag MTE2 V L0
  wait_flag MTE2 V L0
  set_flag V MTE2 L1
  V add r:UB[i*64:i*64+64]
}
wait_flag V MTE2 L1
"""
    assert verify_sync(out).ok
    # the same loop with a fixed buffer: a real WAR carried dependence does the back-pressure
    fixed = infer_sync(parse(text.replace("i*64:i*64+64", "0:64")))
    assert format_program(fixed).count("set_flag") == 3 and verify_sync(fixed).ok


def test_zero_and_one_trip_loops_stay_balanced() -> None:
    for trips in (0, 1, 2):
        text = f"for i in 0..{trips} {{\n  MTE2 ld w:UB[0:64]\n  V add r:UB[0:64]\n}}\nMTE3 st r:UB[0:64]\n"
        out = infer_sync(parse(text))
        assert verify_sync(out).ok, (trips, format_program(out))


def test_nested_loops_and_hoisting() -> None:
    text = """\
MTE2 ld w:UB[0:1024]
for i in 0..2 {
  for j in 0..4 {
    V add r:UB[j*256:j*256+256] w:UB[4096+i*1024+j*256:4096+i*1024+j*256+256]
  }
}
MTE3 st r:UB[4096:6144]
"""
    out = infer_sync(parse(text))
    assert format_program(out) == """\
MTE2 ld w:UB[0:1024]
set_flag MTE2 V L0
wait_flag MTE2 V L0
for i in 0..2 {
  for j in 0..4 {
    V add r:UB[j*256:j*256+256] w:UB[i*1024+j*256+4096:i*1024+j*256+4352]
  }
}
set_flag V MTE3 L1
wait_flag V MTE3 L1
MTE3 st r:UB[4096:6144]
"""


def test_random_programs_with_loops_verify() -> None:
    import random

    for seed in range(150):
        prog = random_program(random.Random(seed), 10, buffers=3)
        out = infer_sync(prog)
        report = verify_sync(out)
        assert report.ok, (seed, format_program(out), str(report))


def test_every_dependence_of_the_oracle_is_ordered() -> None:
    import random

    for seed in range(40):
        w = random_stream(random.Random(seed), 20, buffers=3)
        out = infer_sync(w)
        oracle = Oracle(out)
        assert all(oracle.ordered(a, b) for a, b in dependences(out))


OVERLAPPING_WRITES = """\
V op w:UB[0:128] w:UB[64:192]
MTE3 copy r:UB[0:32] w:GM[0:32]
"""


def test_one_instruction_writing_overlapping_ranges_keeps_both_in_the_shadow() -> None:
    # the second write of the instruction used to replace the whole shadow segment of the
    # first one, so the RAW of the store on UB[0:32] was lost and nothing was inserted
    out = infer_sync(parse(OVERLAPPING_WRITES).unroll())
    assert format_program(out) == """\
V op w:UB[0:128] w:UB[64:192]
set_flag V MTE3 L0
wait_flag V MTE3 L0
MTE3 copy r:UB[0:32] w:GM[0:32]
"""
    assert verify_sync(out).ok and not Oracle(out).races()
    # the tail of a segment that the write only partly covers survives too
    text = "MTE2 ld w:UB[0:256]\nV op w:UB[0:64] w:UB[32:96]\nMTE3 st r:UB[128:160]\n"
    out = infer_sync(parse(text).unroll())
    assert verify_sync(out).ok and not Oracle(out).races()
    assert "set_flag MTE2 MTE3 L" in format_program(out)
