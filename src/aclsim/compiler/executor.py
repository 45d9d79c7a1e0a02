"""A small randomized pipe executor: the SyncTester idea of AscendNPU-IR (run a synced stream
under random pipe latencies and watch memory order, lost signals and hangs).

It is self-contained on purpose (the core model in :mod:`aclsim.sim` is the real timing
model); its rules are those of :mod:`aclsim.compiler.hb`: each pipe issues in program
order, one instruction per cycle; with ``same_pipe="barrier"`` a later instruction may
start before an earlier one of the same pipe has finished (PIPE_S always waits); a
``set_flag`` fires when every earlier instruction of its pipe has finished; a
``wait_flag`` holds its pipe until the flag is up (plus the flag latency) and clears it;
``pipe_barrier P`` holds P until P has drained; ``pipe_barrier ALL``/``sync_all`` hold every
pipe until all have drained.  Since every wait's set comes earlier in program order, times
follow in one pass over the stream.

What it reports: the cycle count, lost signals (a set firing while the flag is still up),
waits with no set (a hang), and memory-order violations (two conflicting accesses where
the later one in program order starts before the earlier one has finished).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from aclsim.arch import ChipSpec
from aclsim.compiler.clock import NPIPES, inorder_pipes
from aclsim.compiler.types import BARRIER_OPS, PIPE_BARRIER, SET_FLAG, WAIT_FLAG, flag_key
from aclsim.isa import Instr, Pipe

Latency = Callable[[Instr], int]
_S = int(Pipe.S)


@dataclass(slots=True)
class ExecResult:
    cycles: int = 0
    lost_signals: list[int] = field(default_factory=list)  # indices of the sets that lost a signal
    hangs: list[int] = field(default_factory=list)  # indices of waits that never get a signal
    violations: list[tuple[int, int]] = field(default_factory=list)  # (earlier, later) conflicting pairs
    busy: list[int] = field(default_factory=lambda: [0] * NPIPES)

    @property
    def ok(self) -> bool:
        return not self.lost_signals and not self.hangs and not self.violations


def random_latency(rng: random.Random) -> Latency:
    """Latencies from 1 to 400 cycles, heavy-tailed so that reorderings show up."""
    choices = (1, 2, 3, 5, 8, 20, 50, 120, 400)

    def lat(_ins: Instr) -> int:
        return rng.choice(choices)

    return lat


def chip_latency(chip: ChipSpec) -> Latency:
    """Fixed latencies from the chip's figures (a stand-in for the core model of aclsim.sim)."""

    def lat(ins: Instr) -> int:
        nbytes = sum(a.length for a in ins.writes) or sum(a.length for a in ins.reads)
        p = ins.pipe
        if p is Pipe.MTE2:
            return int(chip.mte2_copy_cycles + chip.gm_latency_cycles + nbytes / chip.mte2_bytes_per_cycle)
        if p is Pipe.MTE3:
            return int(chip.mte3_copy_cycles + chip.gm_latency_cycles + nbytes / chip.mte3_bytes_per_cycle)
        if p is Pipe.MTE1:
            return int(chip.local_copy_latency_cycles + nbytes / chip.mte1_l0a_bytes_per_cycle)
        if p is Pipe.FIX:
            return int(chip.local_copy_latency_cycles + nbytes / chip.fixpipe_bytes_per_cycle)
        if p is Pipe.V:
            repeats = max(1, -(-nbytes // chip.vector_repeat_bytes))
            return int(chip.vector_issue_cycles + repeats * chip.vector_cycles_per_repeat)
        if p is Pipe.M:
            return int(chip.cube_issue_cycles + max(1, nbytes // 512) * chip.cube_cycles_per_fractal)
        return chip.scalar_cycles_per_op

    return lat


def execute(instrs: Sequence[Instr], latency: Latency, *, same_pipe: str = "barrier", flag_latency: int = 4,
            check_memory: bool = True) -> ExecResult:
    """Run one core's stream with the given latencies; see the module docstring for the rules."""
    inorder = inorder_pipes(same_pipe)
    res = ExecResult()
    issue = [0] * NPIPES  # earliest issue time of the next instruction of each pipe
    drained = [0] * NPIPES  # when every instruction issued so far on the pipe has finished
    floor = 0  # nothing may start before the last strong sync completed
    pending: dict[tuple[int, int, int, bool], int] = {}  # fire time of the unconsumed set
    consumed: dict[tuple[int, int, int, bool], int] = {}  # when the last wait cleared the flag
    spans: list[tuple[int, int, int]] = []  # (index, start, end) of work instructions
    for index, ins in enumerate(instrs):
        op = ins.op
        if op == SET_FLAG:
            p, q, eid = flag_key(ins)
            key = (p, q, eid, ins.logical)
            fire = max(issue[p], floor, drained[p])
            if key in pending or fire < consumed.get(key, -1):
                res.lost_signals.append(index)
            pending[key] = fire
        elif op == WAIT_FLAG:
            p, q, eid = flag_key(ins)
            key = (p, q, eid, ins.logical)
            start = max(issue[q], floor)
            fire = pending.pop(key, -1)
            if fire < 0:
                res.hangs.append(index)
                continue
            done = max(start, fire + flag_latency)
            consumed[key] = done
            issue[q] = done
            drained[q] = max(drained[q], done)
            if q == _S:  # a scalar wait holds the issue of everything after it
                floor = max(floor, done)
        elif op == PIPE_BARRIER and ins.pipe is not Pipe.ALL:
            p = int(ins.pipe)
            issue[p] = max(issue[p], drained[p])
        elif op in BARRIER_OPS:
            floor = max(floor, *drained, *issue)
            for r in range(NPIPES):
                issue[r] = drained[r] = floor
        else:
            p = int(ins.pipe)
            start = max(issue[p], floor)
            end = start + max(1, latency(ins))
            res.busy[p] += end - start
            issue[p] = end if inorder[p] else start + 1
            if end > drained[p]:
                drained[p] = end
            if p == _S and ins.reads:  # a scalar read completes before issue goes on
                floor = max(floor, end)
            if check_memory:
                spans.append((index, start, end))
    res.cycles = max(floor, *drained)
    if check_memory:
        res.violations = _violations(instrs, spans)
    return res


def _violations(instrs: Sequence[Instr], spans: list[tuple[int, int, int]]) -> list[tuple[int, int]]:
    bad: list[tuple[int, int]] = []
    for a in range(len(spans)):
        ia, sa, ea = spans[a]
        x = instrs[ia]
        for b in range(a + 1, len(spans)):
            ib, sb, _eb = spans[b]
            if sb >= ea:
                continue
            y = instrs[ib]
            if _conflict(x, y):
                bad.append((ia, ib))
    return bad


def _conflict(x: Instr, y: Instr) -> bool:
    for w in x.writes:
        for acc in (*y.reads, *y.writes):
            if w.overlaps(acc):
                return True
    for r in x.reads:
        for w in y.writes:
            if r.overlaps(w):
                return True
    return False


def stress(instrs: Sequence[Instr], *, runs: int = 20, seed: int = 0,
           same_pipe: str = "barrier") -> ExecResult:
    """Run ``runs`` times under random latencies; return the first failing run (or the last)."""
    rng = random.Random(seed)
    res = ExecResult()
    for _ in range(runs):
        res = execute(instrs, random_latency(rng), same_pipe=same_pipe, flag_latency=rng.choice((0, 1, 4)))
        if not res.ok:
            return res
    return res
