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
_UB = Space.UB
_V = Pipe.V
MOVERS = (Pipe.MTE2, Pipe.MTE3, Pipe.FIX)  # pipes whose bytes count as global-memory traffic

#: ``(cycles, bytes, gm rate, reads GM, writes GM, copy cycles)`` of a work instruction.
Shape = tuple[float, int, float, bool, bool, float]


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
        self.copy_cycles = [0.0] * (len(EXEC_PIPES) + 1)
        self.copy_cycles[Pipe.MTE2] = chip.mte2_copy_cycles
        self.copy_cycles[Pipe.MTE3] = chip.mte3_copy_cycles
        self.copy_cycles[Pipe.FIX] = chip.fixpipe_copy_cycles
        self.api = {op: (h16, p16, h32, p32) for op, h16, p16, h32, p32 in chip.vector_api_costs}
        self.groups = chip.ub_bank_groups
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
        if pipe is _V and self.groups:  # bank conflicts depend on where the operands sit
            row, groups, slc = self.chip.ub_bank_row_bytes, self.groups, self.chip.ub_bank_slice_bytes
            key = (*key, tuple((a.offset // row) % groups + groups * (a.offset // slc) for a in (*reads, w)))
        shape = self.memo.get(key)
        if shape is None:
            shape = self.memo[key] = self.shape(ins)
            self._costs.append(ins.cost)
        return shape

    def shape(self, ins: Instr) -> Shape:
        """``(cycles, bytes, gm rate, reads GM, writes GM, copy cycles)`` of a work instruction.
        ``gm rate`` is 0 when ``cycles`` is final, else the path rate of a global-memory
        transfer, whose time then depends on the share of device memory it gets; ``copy
        cycles`` is then the fixed cost of the copy on its pipe, before its bytes move."""
        pipe = ins.pipe
        cost = Cost.of(ins.cost)
        rd = any(a.space is _GM for a in ins.reads)
        wr = any(a.space is _GM for a in ins.writes)
        nbytes = _nbytes(ins, cost) if pipe in MOVERS else 0
        rate = self.path_rate[pipe]
        if pipe is Pipe.MTE2 and any(a.space is Space.L1 for a in ins.writes):
            rate = self.chip.mte2_l1_bytes_per_cycle
        if (rd or wr) and rate and cost.cycles is None:
            return 0.0, nbytes, rate, rd, wr, self.copy_cycles[pipe]
        return self.cycles(ins, cost), nbytes, 0.0, rd, wr, 0.0

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
            row = self.api.get(ins.op)
            head: float
            per: float
            if row is None:
                head, per = chip.vector_issue_cycles, chip.vector_cycles_per_repeat
            elif (cost.get("width") or 2) >= 4:  # the element width, when the instruction gives it
                head, per = row[2], row[3]
            else:
                head, per = row[0], row[1]
            return head + repeats * per * self.beats(ins)
        if pipe is Pipe.M:
            fractals = cost.fractals
            if fractals is None:
                fractals = self.fractals(ins, cost)
            if cost.get("hf32"):  # an fp32 product in HF32 mode: twice the fp32 rate (the HF32 page)
                fractals /= 2
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

    def fractals(self, ins: Instr, cost: Cost) -> float:
        """The fractals (one per cycle) of a cube product of ``m x n x k``: ``ceil(m/16) *
        ceil(n/16)`` output fractals times the K fractals of A, whose width is 32 bytes of the
        input type (16 fp16, 8 fp32, 32 int8 values): read from the size of the A operand the
        instruction reads (a 16 x 32 B fractal each), else 16 values."""
        f = self.chip.cube_fractal
        m, n, k = (f if x is None else x for x in (cost.m, cost.n, cost.k))
        m1, n1 = math.ceil(m / f), math.ceil(n / f)
        k1 = math.ceil(k / f)
        a = ins.reads[0].length if ins.reads else 0
        tile = f * 32  # bytes of one A fractal: 16 rows of 32 B
        if a and m1 and a % (tile * m1) == 0:
            k1 = a // (tile * m1)
        return m1 * n1 * k1

    def beats(self, ins: Instr) -> int:
        """Beats one repeat of a vector instruction takes for its UB accesses (1 without
        conflicts).  Each operand's repeat touches 8 consecutive rows, so 8 consecutive bank
        groups from its address; per beat a bank group serves one read and one write, and a
        bank (a group in one slice) not a read and a write together.  The beats are the most
        accesses any group or bank must serve."""
        groups = self.groups
        if not groups:
            return 1
        row, slc = self.chip.ub_bank_row_bytes, self.chip.ub_bank_slice_bytes
        per_repeat = self.chip.vector_repeat_bytes // row
        reads = [0] * groups
        writes = [0] * groups
        bank: dict[tuple[int, int], int] = {}
        for accesses, count in ((ins.reads, reads), (ins.writes, writes)):
            for a in accesses:
                if a.space is not _UB or a.length <= 0:
                    continue
                g0, s0 = (a.offset // row) % groups, a.offset // slc
                for k in range(min(per_repeat, -(-a.length // row), groups)):
                    g = (g0 + k) % groups
                    count[g] += 1
                    bank[(s0, g)] = bank.get((s0, g), 0) + 1
        return max(1, *reads, *writes, *bank.values())
