"""Per-API vector costs and UB bank conflicts (arch 2201 presets)."""

from __future__ import annotations

import pytest

from aclsim.arch import get_chip
from aclsim.isa import Access, Cost, Instr, Pipe, Space
from aclsim.sim.costs import CostModel

A2 = get_chip("910B1")
KiB = 1024


def _add(x: int, y: int, z: int, repeats: int = 128, op: str = "add") -> Instr:
    n = repeats * 256
    return Instr(Pipe.V, op, (Access(Space.UB, x, n), Access(Space.UB, y, n)), (Access(Space.UB, z, n),),
                 cost=Cost(repeats=repeats))


def test_bank_groups_from_addresses() -> None:
    m = CostModel(A2)
    # x and y 32 KiB apart start in the same bank group: two reads per group per repeat
    assert m.beats(_add(0, 32 * KiB, 64 * KiB)) == 2
    # y 32 KiB - 256 B after x: its 8 rows fall in the other 8 groups; z in another slice
    assert m.beats(_add(0, 32 * KiB - 256, 128 * KiB)) == 1
    # a write to the same bank (group and slice) as a read conflicts; another slice does not
    unary_in_place = Instr(Pipe.V, "exp", (Access(Space.UB, 0, 256),), (Access(Space.UB, 0, 256),))
    assert m.beats(unary_in_place) == 2
    other_slice = Instr(Pipe.V, "exp", (Access(Space.UB, 0, 256),), (Access(Space.UB, 64 * KiB, 256),))
    assert m.beats(other_slice) == 1
    assert CostModel(get_chip("tiny")).beats(_add(0, 32 * KiB, 64 * KiB)) == 1  # no bank model there


def test_api_cost_rows() -> None:
    m = CostModel(A2)
    rows = {op: (h16, p16, h32, p32) for op, h16, p16, h32, p32 in A2.vector_api_costs}
    assert rows["add"] == (22.2, 1.0, 23.2, 1.0)
    assert m.shape(_add(0, 32 * KiB - 256, 128 * KiB))[0] == pytest.approx(22.2 + 128)
    assert m.shape(_add(0, 32 * KiB, 64 * KiB))[0] == pytest.approx(22.2 + 2 * 128)
    assert rows["exp"][1] == pytest.approx(0.0311 / 0.0103, rel=1e-3)  # relative to Add
    assert rows["exp"][3] == pytest.approx(0.0307 * 64 / (0.0103 * 128), rel=1e-3)  # fp32: 64 a repeat
    assert min(min(r[2], r[4]) for r in A2.vector_api_costs) == 1.0  # never above one repeat per cycle
    wide = Instr(Pipe.V, "exp", (Access(Space.UB, 0, 256),), (Access(Space.UB, 64 * KiB, 256),),
                 cost=Cost(repeats=4, width=4))
    assert m.shape(wide)[0] == pytest.approx(rows["exp"][2] + 4 * rows["exp"][3])
    other = _add(0, 32 * KiB - 256, 128 * KiB, op="not_in_the_table")
    assert m.shape(other)[0] == A2.vector_issue_cycles + 128 * A2.vector_cycles_per_repeat


def test_memo_tells_layouts_apart() -> None:
    m = CostModel(A2)
    a, b = _add(0, 32 * KiB, 64 * KiB), _add(0, 32 * KiB - 256, 128 * KiB)  # the same shapes, two layouts
    same_cost = Cost(repeats=128)
    a2 = Instr(Pipe.V, "add", a.reads, a.writes, cost=same_cost)
    b2 = Instr(Pipe.V, "add", b.reads, b.writes, cost=same_cost)
    assert m.work(a2)[0] != m.work(b2)[0]
