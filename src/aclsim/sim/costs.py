"""The cost model: how many cycles each instruction takes on a chip, from its typed ``Cost``.

Every figure comes from the ``ChipSpec`` (formulas and sources in ``docs/simulator.md``):
vector ``issue + repeats * cycles_per_repeat``; cube ``issue + fractals * cycles_per_fractal``;
scalar ``ops * cycles_per_op``; copies ``latency + bytes / rate``; a ``cycles`` figure
overrides them all.  A copy touching global memory has no fixed duration: the HBM model
(:class:`~aclsim.sim.hbm.Hbm`) times it from what the other transfers of the moment draw.
"""

from __future__ import annotations

import math
from typing import Any

from aclsim.arch import ChipSpec
from aclsim.isa import EXEC_PIPES, Cost, Instr, Pipe, Space

_GM = Space.GM
_HOST = Space.HOST
MOVERS = (Pipe.MTE2, Pipe.MTE3, Pipe.FIX)  # pipes whose bytes count as global-memory traffic

#: ``(cycles, bytes, gm rate, reads GM, writes GM)`` of a work instruction.
Shape = tuple[float, int, float, bool, bool]


def _nbytes(ins: Instr, cost: Cost) -> int:
    if cost.bytes is not None:
        return int(cost.bytes)
    return max(sum(a.length for a in ins.writes), sum(a.length for a in ins.reads), 0)


class CostModel:
    """Duration in cycles of each instruction shape on a chip.

    Everything but a global-memory transfer costs the same whatever the other cores do; a
    transfer touching global memory is timed by :class:`~aclsim.sim.hbm.Hbm`, from what the other
    transfers of the moment draw.
    """

    def __init__(self, chip: ChipSpec) -> None:
        self.chip = chip
        self.path_rate = [0.0] * (len(EXEC_PIPES) + 1)
        self.path_rate[Pipe.MTE2] = chip.mte2_bytes_per_cycle
        self.path_rate[Pipe.MTE3] = chip.mte3_bytes_per_cycle
        self.path_rate[Pipe.FIX] = chip.fixpipe_bytes_per_cycle
        self.memo: dict[tuple[Any, ...], Shape] = {}
        self._costs: list[Any] = []  # every cost in a memo key, kept alive: its id stays its own

    def work(self, ins: Instr) -> Shape:
        """:meth:`shape`, memoized by what it depends on: the pipe, the cost, the memory and
        length of each access (the same shapes recur tile after tile)."""
        reads, writes = ins.reads, ins.writes
        nr = len(reads)
        if len(writes) != 1 or nr > 2:  # not a shape the kernel language records
            return self.shape(ins)
        w = writes[0]
        # ids, not the objects: hashing an enum member or a Cost is slow
        pipe, cost = ins.pipe, id(ins.cost)
        if nr == 0:
            key: tuple[Any, ...] = (pipe, cost, id(w.space), w.length)
        elif nr == 1:
            r = reads[0]
            key = (pipe, cost, id(w.space), w.length, id(r.space), r.length)
        else:
            ra, rb = reads
            key = (pipe, cost, id(w.space), w.length, id(ra.space), ra.length, id(rb.space), rb.length)
        shape = self.memo.get(key)
        if shape is None:
            shape = self.memo[key] = self.shape(ins)
            self._costs.append(ins.cost)
        return shape

    def shape(self, ins: Instr) -> Shape:
        """``(cycles, bytes, gm rate, reads GM, writes GM)`` of a work instruction.  ``gm rate`` is
        0 when ``cycles`` is final, else the path rate of a global-memory transfer (whose cycles
        then depend on the HBM share)."""
        pipe = ins.pipe
        cost = Cost.of(ins.cost)
        rd = any(a.space is _GM for a in ins.reads)
        wr = any(a.space is _GM for a in ins.writes)
        nbytes = _nbytes(ins, cost) if pipe in MOVERS else 0
        rate = self.path_rate[pipe]
        if (rd or wr) and rate and cost.cycles is None:
            return 0.0, nbytes, rate, rd, wr
        return self.cycles(ins, cost), nbytes, 0.0, rd, wr

    def cycles(self, ins: Instr, cost: Cost) -> float:
        """The cycles of an instruction whose cost does not depend on the other cores."""
        chip, pipe = self.chip, ins.pipe
        if cost.cycles is not None:
            return float(cost.cycles)
        if pipe is Pipe.V:
            repeats = cost.repeats
            if repeats is None:
                nbytes = _nbytes(ins, cost)
                repeats = math.ceil(nbytes / chip.vector_repeat_bytes) if nbytes else 1
            return chip.vector_issue_cycles + repeats * chip.vector_cycles_per_repeat
        if pipe is Pipe.M:
            fractals = cost.fractals
            if fractals is None:
                f = chip.cube_fractal
                m, n, k = (f if x is None else x for x in (cost.m, cost.n, cost.k))
                fractals = math.ceil(m / f) * math.ceil(n / f) * math.ceil(k / f)
            return chip.cube_issue_cycles + fractals * chip.cube_cycles_per_fractal
        if pipe is Pipe.S:
            return chip.scalar_cycles_per_op * (1 if cost.ops is None else cost.ops)
        nbytes = _nbytes(ins, cost)
        if pipe is Pipe.MTE1:
            to_l0b = any(a.space is Space.L0B for a in ins.writes)
            rate = chip.mte1_l0b_bytes_per_cycle if to_l0b else chip.mte1_l0a_bytes_per_cycle
            return chip.local_copy_latency_cycles + nbytes / rate
        rate = self.path_rate[pipe]
        if any(a.space is _HOST for a in ins.reads) or any(a.space is _HOST for a in ins.writes):
            # zero-copy host memory: the host link's latency and bandwidth, not HBM's
            link = chip.host_link_bandwidth / chip.clock_hz
            return chip.host_link_latency_s * chip.clock_hz + nbytes / min(rate, link)
        return chip.local_copy_latency_cycles + nbytes / rate
