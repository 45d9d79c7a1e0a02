"""The cost model on its own: typed figures in, cycles out, memoized by shape and cost."""

from __future__ import annotations

import math

from aclsim.arch import get_chip
from aclsim.isa import Access, Cost, Instr, Pipe, Space
from aclsim.sim.costs import CostModel

TINY = get_chip("tiny")
UB = Access(Space.UB, 0, 512)
GM = Access(Space.GM, 1 << 20, 512)


def test_figures_to_cycles() -> None:
    m = CostModel(TINY)
    c = TINY
    assert m.shape(Instr(Pipe.V, "add", (UB,), (UB,), cost=Cost(repeats=3))) == (
        c.vector_issue_cycles + 3 * c.vector_cycles_per_repeat, 0, 0.0, False, False, 0.0)
    # no repeats: derived from the bytes touched (512 B = 2 repeats of 256 B)
    two = c.vector_issue_cycles + 2 * c.vector_cycles_per_repeat
    assert m.shape(Instr(Pipe.V, "add", (UB,), (UB,)))[0] == two
    fractals = math.ceil(32 / c.cube_fractal) ** 3
    assert m.shape(Instr(Pipe.M, "mmad", cost=Cost(m=32, n=32, k=32)))[0] == (
        c.cube_issue_cycles + fractals * c.cube_cycles_per_fractal)
    assert m.shape(Instr(Pipe.S, "scalar", cost=Cost(ops=4)))[0] == 4 * c.scalar_cycles_per_op
    assert m.shape(Instr(Pipe.V, "x", cost=Cost(cycles=77, repeats=3)))[0] == 77  # cycles override
    # a global-memory transfer: no fixed cycles, its bytes, path rate and copy cost (the HBM
    # model times it); GM -> L1 (the cube side) has a path rate of its own
    assert m.shape(Instr(Pipe.MTE2, "copy", (GM,), (UB,), cost=Cost(bytes=100))) == (
        0.0, 100, c.mte2_bytes_per_cycle, True, False, c.mte2_copy_cycles)
    chip = get_chip("910B")
    to_l1 = Instr(Pipe.MTE2, "copy", (GM,), (Access(Space.L1, 0, 512),), cost=Cost(bytes=512))
    assert CostModel(chip).shape(to_l1)[2] == chip.mte2_l1_bytes_per_cycle
    to_l0b = Instr(Pipe.MTE1, "load", (UB,), (Access(Space.L0B, 0, 512),), cost=Cost(bytes=512))
    assert m.shape(to_l0b)[0] == c.local_copy_latency_cycles + 512 / c.mte1_l0b_bytes_per_cycle


def test_memo_tells_costs_apart_even_when_they_come_and_go() -> None:
    """The memo keys costs by identity: every cost it saw stays alive, so a new cost never takes
    the id (and the cycles) of one that was freed."""
    m = CostModel(TINY)
    for repeats in range(1, 300):
        got = m.work(Instr(Pipe.V, "add", (UB,), (UB,), cost=Cost(repeats=repeats)))  # freed right after
        assert got[0] == TINY.vector_issue_cycles + repeats * TINY.vector_cycles_per_repeat
    same = Cost(repeats=5)
    a, b = (Instr(Pipe.V, "add", (UB,), (UB,), cost=same) for _ in range(2))
    assert m.work(a) is m.work(b)  # one shape, computed once


def test_cube_fractals_follow_the_input_type() -> None:
    """A fractal of A is 16 rows of 32 B: 16 fp16, 8 fp32 or 32 int8 values of K, so the same
    m x n x k takes twice the cycles in fp32 and half in int8; HF32 is twice the fp32 rate."""
    m = CostModel(TINY)
    c = TINY

    def mmad(k_bytes_per_value: float, **extra: int) -> float:
        k = 64
        a = Access(Space.L0A, 0, int(32 * k * k_bytes_per_value))  # m = 32: two row fractals
        b = Access(Space.L0B, 0, int(32 * k * k_bytes_per_value))
        out = Access(Space.L0C, 0, 32 * 32 * 4)
        return m.shape(Instr(Pipe.M, "mmad", (a, b), (out,), cost=Cost(m=32, n=32, k=k, **extra)))[0]

    fp16 = mmad(2) - c.cube_issue_cycles
    assert fp16 == 2 * 2 * 4 * c.cube_cycles_per_fractal
    assert mmad(4) - c.cube_issue_cycles == 2 * fp16
    assert mmad(1) - c.cube_issue_cycles == fp16 / 2
    assert mmad(4, hf32=1) - c.cube_issue_cycles == fp16
