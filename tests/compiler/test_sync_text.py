"""The text format: parser, printer, round trip, errors naming the line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aclsim.compiler import Affine, AffineAccess, Loop, Program, SyncFormatError, format_program, parse
from aclsim.isa import Access, Instr, Pipe, Space

FULL = """\
MTE2 copy_in r:GM[0:256] w:UB[0:256] bytes=256
set_flag MTE2 V L0
wait_flag MTE2 V L0
V add r:UB[0:256] r:UB[256:512] w:UB[512:768] repeats=1 mode=fast
set_flag V MTE3 3
wait_flag V MTE3 3
pipe_barrier V
pipe_barrier ALL
sync_all
for i in 0..4 {
  MTE2 copy_in r:GM[i*256:i*256+256] w:UB[0:256]
  for j in 2..3 {
    V add r:UB[i*512+j*64:i*512+j*64+64] w:UB[-i*32+4096:4224]
  }
}
"""


def test_round_trip_of_every_construct() -> None:
    prog = parse(FULL)
    assert format_program(prog) == FULL
    assert format_program(parse(format_program(prog))) == FULL


def test_parsed_objects() -> None:
    prog = parse(FULL, file="k.sync")
    load, sflag, wflag, add, pset = prog.items[:5]
    assert isinstance(load, Instr) and load.pipe is Pipe.MTE2 and load.op == "copy_in"
    assert load.reads == (Access(Space.GM, 0, 256),) and load.writes == (Access(Space.UB, 0, 256),)
    assert load.cost == {"bytes": 256} and load.line == 1 and load.file == "k.sync"
    assert isinstance(add, Instr) and add.cost == {"repeats": 1, "mode": "fast"}
    # logical and physical IDs are told apart
    assert isinstance(sflag, Instr) and sflag.logical and sflag.event_id == 0 and sflag.pipe is Pipe.MTE2
    assert isinstance(wflag, Instr) and wflag.logical and wflag.pipe is Pipe.V
    assert isinstance(pset, Instr) and not pset.logical and pset.event_id == 3
    bar_v, bar_all, sync = prog.items[6:9]
    assert isinstance(bar_v, Instr) and not bar_v.is_strong_sync and bar_v.pipe is Pipe.V
    assert isinstance(bar_all, Instr) and bar_all.is_strong_sync
    assert isinstance(sync, Instr) and sync.is_strong_sync and sync.op == "sync_all"
    loop = prog.items[9]
    assert isinstance(loop, Loop) and (loop.var, loop.start, loop.stop, loop.trips) == ("i", 0, 4, 4)
    inner = loop.body[1]
    assert isinstance(inner, Loop) and inner.trips == 1
    acc = loop.body[0].reads[0]  # type: ignore[union-attr]
    assert isinstance(acc, AffineAccess) and acc.start == Affine(0, (("i", 256),))
    assert str(acc) == "GM[i*256:i*256+256]"


def test_unroll_evaluates_affine_ranges() -> None:
    prog = parse("for i in 0..3 {\n  for j in 0..2 {\n    V add r:UB[i*64+j*16:i*64+j*16+16]\n  }\n}")
    ranges = [str(ins.reads[0]) for ins in prog.unroll()]
    assert ranges == ["UB[0:16]", "UB[16:32]", "UB[64:80]", "UB[80:96]", "UB[128:144]", "UB[144:160]"]
    instrs, origin = prog.unroll_with_origin()
    assert origin[3][1] == (("i", 1), ("j", 1)) and origin[3][0] is prog.items[0].body[0].body[0]  # type: ignore


def test_other_spellings_are_accepted() -> None:
    prog = parse("set_flag MTE2_V L4   # HardEvent name\nwait_flag PIPE_MTE2 vector L4\n"
                 "VECTOR add r:ub[0:32],ub[32:64] w:UB[(1+1)*32 : 3*32]")
    s, w, add = prog.items
    assert isinstance(s, Instr) and (s.src, s.dst, s.event_id, s.logical) == (Pipe.MTE2, Pipe.V, 4, True)
    assert isinstance(w, Instr) and w.pipe is Pipe.V
    assert isinstance(add, Instr) and [str(a) for a in add.reads] == ["UB[0:32]", "UB[32:64]"]
    assert str(add.writes[0]) == "UB[64:96]"


@pytest.mark.parametrize(("text", "line", "words"), [
    ("V add r:UB[0:32]\nQ add", 2, "unknown pipe 'Q'"),
    ("set_flag MTE2 V", 1, "set_flag takes SRC DST ID"),
    ("set_flag MTE2 V X3", 1, "bad event ID 'X3'"),
    ("wait_flag MTE2 ALL 1", 1, "pipe ALL is only valid"),
    ("V add r:XB[0:32]", 1, "unknown memory 'XB'"),
    ("V add r:UB[0:32", 1, "unbalanced '['"),
    ("V add r:UB[64:32]", 1, "ends before it starts"),
    ("for i in 0..4 {\n  V add r:UB[j*32:j*32+32]\n}", 2, "'j' is not the variable of an enclosing loop"),
    ("for i in 0..4 {\n  V add r:UB[i*i:64]\n}", 2, "not affine"),
    ("for i in 0..4 {\n  V add r:UB[0:32]", 1, "never closed"),
    ("V add r:UB[0:32]\n}", 2, "'}' without an open 'for' loop"),
    ("for i in 0..4 {\n  for i in 0..2 {\n  }\n}", 2, "already used"),
    ("for i in 0..N {\n}", 1, "expected 'for NAME in START..STOP {'"),
    ("pipe_barrier", 1, "pipe_barrier takes one pipe"),
    ("V add foo", 1, "unexpected 'foo'"),
    ("V set_flag", 1, "bad operation name"),
    ("sync_all 3", 1, "sync_all takes no arguments"),
])
def test_errors_name_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(SyncFormatError, match=rf"k\.sync:{line}: ") as info:
        parse(text, file="k.sync")
    assert words in str(info.value)
    assert info.value.line == line


PIPES = [p for p in Pipe if p is not Pipe.ALL]
SPACES = list(Space)


@st.composite
def programs(draw: st.DrawFn, depth: int = 0, names: tuple[str, ...] = ()) -> list:
    items: list = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["work", "set", "wait", "bar", "all", "loop"] if depth < 2 else
                                    ["work", "set", "wait", "bar", "all"]))
        if kind == "work":
            def rng(_: int) -> Access:
                lo = draw(st.integers(0, 4096))
                if names and draw(st.booleans()):
                    e = Affine(lo, ((draw(st.sampled_from(names)), draw(st.integers(-64, 64)) or 1),))
                    return AffineAccess(draw(st.sampled_from(SPACES)), lo, 32, e, e + Affine(32))
                return Access(draw(st.sampled_from(SPACES)), lo, draw(st.integers(0, 512)))
            op = draw(st.sampled_from(["add", "copy_in", "mmad"]))
            items.append(Instr(draw(st.sampled_from(PIPES)), op,
                               reads=tuple(rng(i) for i in range(draw(st.integers(0, 2)))),
                               writes=tuple(rng(i) for i in range(draw(st.integers(0, 2)))),
                               cost=draw(st.dictionaries(st.sampled_from(["bytes", "repeats"]),
                                                         st.integers(0, 99), max_size=2))))
        elif kind in ("set", "wait"):
            src, dst = draw(st.sampled_from(PIPES)), draw(st.sampled_from(PIPES))
            op = "set_flag" if kind == "set" else "wait_flag"
            items.append(Instr(src if kind == "set" else dst, op, src=src, dst=dst,
                               event_id=draw(st.integers(0, 20)), logical=draw(st.booleans())))
        elif kind == "bar":
            items.append(Instr(draw(st.sampled_from(list(Pipe))), "pipe_barrier"))
        elif kind == "all":
            items.append(Instr(Pipe.ALL, "sync_all"))
        else:
            var = "ijk"[depth]
            start = draw(st.integers(0, 3))
            items.append(Loop(var, start, start + draw(st.integers(0, 4)),
                              draw(programs(depth + 1, (*names, var)))))
    return items


@settings(max_examples=300, deadline=None)
@given(programs())
def test_print_parse_print_is_a_fixed_point(items: list) -> None:
    text = format_program(Program(items))
    again = parse(text)
    assert format_program(again) == text
    def fields(prog: Program) -> list[tuple]:
        return [(i.pipe, i.op, i.reads, i.writes, i.src, i.dst, i.event_id, i.logical, i.cost)
                for i in prog.unroll()]

    assert fields(again) == fields(Program(items))


def test_a_cost_figure_that_is_not_a_number_names_its_line() -> None:
    with pytest.raises(SyncFormatError, match=r"<text>:2: cost figure repeats='fast' is not a number"):
        parse("MTE2 ld w:UB[0:64]\nV add r:UB[0:64] repeats=fast")
