"""The shared instruction model."""

from __future__ import annotations

import pickle
from dataclasses import replace

import pytest

from aclsim.isa import (
    EXEC_PIPES,
    NO_COST,
    Access,
    Cost,
    HardEvent,
    Instr,
    Op,
    Pipe,
    Space,
    pipe_barrier,
    set_flag,
    wait_flag,
)


def test_hard_event_order_and_pipes_match_ascend_c() -> None:
    assert HardEvent.MTE2_MTE1 == 0 and HardEvent.MTE2_V == 4 and HardEvent.V_MTE3 == 7
    assert HardEvent.S_V == 21 and HardEvent.FIX_FIX == 34
    assert (HardEvent.MTE2_V.src, HardEvent.MTE2_V.dst) == (Pipe.MTE2, Pipe.V)
    assert HardEvent.between(Pipe.V, Pipe.MTE3) is HardEvent.V_MTE3
    with pytest.raises(ValueError):
        HardEvent.between(Pipe.MTE3, Pipe.M)


def test_pipe_names_and_parsing() -> None:
    assert [p.track_name for p in EXEC_PIPES] == ["SCALAR", "VECTOR", "CUBE", "MTE1", "MTE2", "MTE3", "FIXP"]
    assert Pipe.parse("PIPE_MTE2") is Pipe.MTE2 and Pipe.parse("vector") is Pipe.V
    assert Pipe.parse("fixp") is Pipe.FIX and Pipe.parse("ALL") is Pipe.ALL
    with pytest.raises(ValueError, match="unknown pipe"):
        Pipe.parse("PIPE_Q")


def test_access_overlap() -> None:
    a = Access(Space.UB, 0, 256)
    assert a.overlaps(Access(Space.UB, 255, 1)) and not a.overlaps(Access(Space.UB, 256, 32))
    assert not a.overlaps(Access(Space.L1, 0, 256)) and not a.overlaps(Access(Space.UB, 0, 0))
    assert str(a) == "UB[0:256]" and a.end == 256


def test_sync_constructors() -> None:
    s, w = set_flag(Pipe.MTE2, Pipe.V, 3, line=7), wait_flag(Pipe.MTE2, Pipe.V, 3)
    assert s.pipe is Pipe.MTE2 and w.pipe is Pipe.V and s.flag == w.flag == (Pipe.MTE2, Pipe.V, 3)
    assert s.is_sync and not s.is_strong_sync and s.where == "line 7"
    assert pipe_barrier(Pipe.ALL).is_strong_sync and not pipe_barrier(Pipe.V).is_strong_sync
    assert Instr(Pipe.ALL, Op.SYNC_ALL.value).is_strong_sync
    work = Instr(Pipe.V, "add", reads=(Access(Space.UB, 0, 64),), writes=(Access(Space.UB, 64, 64),))
    assert work.flag is None and not work.is_sync
    assert "V add r:UB[0:64] w:UB[64:128]" in repr(work)


def test_cost_is_typed_and_reads_as_the_mapping_given() -> None:
    c = Cost(repeats=2, bytes=512, mode="fast")
    assert (c.bytes, c.repeats, c.cycles, c.m) == (512, 2, None, None)
    assert list(c.items()) == [("repeats", 2), ("bytes", 512), ("mode", "fast")]  # the order given
    assert c == {"bytes": 512, "repeats": 2, "mode": "fast"} and c["bytes"] == 512 and "mode" in c
    same = Cost(bytes=512, mode="fast", repeats=2)
    assert c == same and hash(c) == hash(same)
    assert c != Cost(bytes=512) and c != {"bytes": 512} and len(c) == 3 and repr(Cost(ops=3)) == "Cost(ops=3)"
    with pytest.raises(AttributeError, match="read-only"):
        c.bytes = 3  # type: ignore[misc]
    with pytest.raises(ValueError, match="bytes='many' is not a number"):
        Cost(bytes="many")
    assert Cost.of(None) is NO_COST and Cost.of({}) is NO_COST and Cost.of(c) is c and not NO_COST


def test_instructions_turn_a_mapping_cost_into_a_cost() -> None:
    work = Instr(Pipe.V, "add", cost={"repeats": 4})
    assert type(work.cost) is Cost and work.cost.repeats == 4 and work.cost == {"repeats": 4}
    assert set_flag(Pipe.MTE2, Pipe.V, 0).cost is NO_COST and Instr(Pipe.V, "x").cost is NO_COST
    assert replace(work, cost={}).cost is NO_COST and replace(work, line=3).cost is work.cost
    assert pickle.loads(pickle.dumps(work)) == work
