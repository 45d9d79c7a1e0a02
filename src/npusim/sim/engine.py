"""The core model: schedule each core's recorded instructions on its independent pipes.

Model (every figure from the ``ChipSpec``; formulas in ``docs/simulator.md``):

- Issue: the scalar unit issues instructions in program order into per-pipe queues.
  Issuing never waits on other pipes, except that an instruction on the scalar pipe ``S``
  (scalar work, and a ``wait_flag`` whose destination is ``S``), a ``pipe_barrier(ALL)``
  and a ``sync_all`` hold back the instructions after them until they complete.
- Pipes: each of ``S V M MTE1 MTE2 MTE3 FIX`` executes its queue in order, one instruction
  at a time.  ``set_flag`` fires when everything before it on its source pipe is done (it
  does not occupy the pipe); ``wait_flag`` holds its pipe until the matching ``set_flag``
  fired plus ``flag_latency_cycles``.  Flags are binary: the k-th set of a
  (src, dst, id) pairs with the k-th wait; a second set before the wait is a lost signal.
- Costs: vector ``issue + repeats * cycles_per_repeat`` (a repeat is 256 B per operand);
  cube ``issue + fractals * cycles_per_fractal`` (16x16x16); copies ``latency + bytes /
  rate``, where a copy touching global memory gets ``min(path rate, HBM bandwidth / cores
  moving global data in the wave)``, so all cores together never exceed the HBM bandwidth.
- Blocks beyond the core count run in waves; ``sync_all`` aligns every block.
- A stream that cannot finish is a deadlock, reported with the blocked pipes, the flags
  they wait for and the source lines, never a hang.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from npusim.arch import ChipSpec
from npusim.errors import KernelDeadlockError, SyncError
from npusim.isa import EXEC_PIPES, Instr, Op, Pipe, Space

_SET, _WAIT, _BARRIER, _SYNC_ALL = (Op.SET_FLAG.value, Op.WAIT_FLAG.value, Op.PIPE_BARRIER.value,
                                    Op.SYNC_ALL.value)
_NPIPES = len(EXEC_PIPES)


@dataclass
class CoreTimeline:
    """The schedule of one block: for instruction ``i``, ``start[i]`` and ``end[i]`` in cycles."""

    block: int
    core: int
    wave: int
    instrs: Sequence[Instr]
    start: list[float]
    end: list[float]
    flows: list[tuple[int, int]]  # (set_flag index, wait_flag index)
    busy: list[float]  # per pipe (index = Pipe value)
    flag_stall: list[float]  # per pipe: cycles spent in wait_flag
    begin: float = 0.0
    finish: float = 0.0
    gm_read: int = 0
    gm_write: int = 0


@dataclass
class SimReport:
    """What one launch cost: cycles, time, per-core and per-pipe figures, the schedule."""

    chip: ChipSpec
    block_dim: int
    waves: int
    total_cycles: float
    timelines: list[CoreTimeline] = field(repr=False)
    instructions: int = 0

    @property
    def seconds(self) -> float:
        return self.total_cycles / self.chip.clock_hz

    @property
    def microseconds(self) -> float:
        return self.seconds * 1e6

    def pipe_busy(self) -> dict[Pipe, float]:
        """Busy cycles per pipe, summed over blocks."""
        return {p: sum(t.busy[p] for t in self.timelines) for p in EXEC_PIPES}

    def utilization(self) -> dict[Pipe, float]:
        """Per pipe: busy cycles / (cycles each block was resident), averaged over blocks."""
        resident = sum(max(t.finish - t.begin, 0.0) for t in self.timelines) or 1.0
        return {p: b / resident for p, b in self.pipe_busy().items()}

    @property
    def bottleneck(self) -> Pipe:
        busy = self.pipe_busy()
        return max(busy, key=lambda p: busy[p])

    def flag_stall(self) -> dict[Pipe, float]:
        return {p: sum(t.flag_stall[p] for t in self.timelines) for p in EXEC_PIPES}

    @property
    def gm_bytes(self) -> int:
        return sum(t.gm_read + t.gm_write for t in self.timelines)

    @property
    def achieved_bandwidth(self) -> float:
        """Global-memory bytes per second over the whole launch."""
        return self.gm_bytes / self.seconds if self.total_cycles else 0.0

    @property
    def bandwidth_fraction(self) -> float:
        return self.achieved_bandwidth / self.chip.dram_bandwidth

    def instruction_counts(self) -> dict[Pipe, int]:
        counts = dict.fromkeys(EXEC_PIPES, 0)
        for t in self.timelines:
            for ins in t.instrs:
                if ins.pipe is not Pipe.ALL:
                    counts[ins.pipe] += 1
        return counts


# --- costs ---------------------------------------------------------------------------------

def _touches_gm(ins: Instr) -> bool:
    return any(a.space is Space.GM for a in ins.reads) or any(a.space is Space.GM for a in ins.writes)


def _nbytes(ins: Instr) -> int:
    if "bytes" in ins.cost:
        return int(ins.cost["bytes"])
    return max(sum(a.length for a in ins.writes), sum(a.length for a in ins.reads), 0)


class _Costs:
    """Duration in cycles of one work instruction on one core, from the chip."""

    def __init__(self, chip: ChipSpec, gm_share: float) -> None:
        self.chip = chip
        self.gm_share = gm_share  # bytes per cycle this core may draw from HBM

    def cycles(self, ins: Instr) -> float:
        chip, pipe, cost = self.chip, ins.pipe, ins.cost
        if "cycles" in cost:
            return float(cost["cycles"])
        if pipe is Pipe.V:
            repeats = cost.get("repeats")
            if repeats is None:
                repeats = math.ceil(_nbytes(ins) / chip.vector_repeat_bytes) if _nbytes(ins) else 1
            return chip.vector_issue_cycles + repeats * chip.vector_cycles_per_repeat
        if pipe is Pipe.M:
            fractals = cost.get("fractals")
            if fractals is None:
                f = chip.cube_fractal
                fractals = (math.ceil(cost.get("m", f) / f) * math.ceil(cost.get("n", f) / f)
                            * math.ceil(cost.get("k", f) / f))
            return chip.cube_issue_cycles + fractals * chip.cube_cycles_per_fractal
        if pipe is Pipe.S:
            return chip.scalar_cycles_per_op * cost.get("ops", 1)
        nbytes = _nbytes(ins)
        if pipe is Pipe.MTE1:
            to_l0b = any(a.space is Space.L0B for a in ins.writes)
            rate = chip.mte1_l0b_bytes_per_cycle if to_l0b else chip.mte1_l0a_bytes_per_cycle
            return chip.local_copy_latency_cycles + nbytes / rate
        rate = {Pipe.MTE2: chip.mte2_bytes_per_cycle, Pipe.MTE3: chip.mte3_bytes_per_cycle,
                Pipe.FIX: chip.fixpipe_bytes_per_cycle}[pipe]
        if _touches_gm(ins):
            return chip.gm_latency_cycles + nbytes / min(rate, self.gm_share)
        return chip.local_copy_latency_cycles + nbytes / rate


# --- one core ------------------------------------------------------------------------------

def _schedule_core(instrs: Sequence[Instr], costs: _Costs, t0: float, block: int, core: int, wave: int,
                   flag_latency: float) -> CoreTimeline:
    """List-schedule one block's instructions on its pipes; raise on deadlock or flag misuse."""
    n = len(instrs)
    start = [0.0] * n
    end = [0.0] * n
    flows: list[tuple[int, int]] = []
    busy = [0.0] * (_NPIPES + 1)
    stall = [0.0] * (_NPIPES + 1)
    # per-pipe queues of instruction indices (pipe_barrier(ALL)/sync_all go to every pipe as a
    # fence: they are handled by the issue logic instead)
    queues: list[list[int]] = [[] for _ in range(_NPIPES + 1)]
    blocking = [False] * n  # holds back the issue of later instructions until it completes
    for i, ins in enumerate(instrs):
        pipe = ins.pipe
        if ins.op == _SYNC_ALL or (ins.op == _BARRIER and pipe is Pipe.ALL):
            blocking[i] = True
            queues[Pipe.ALL].append(i)
        else:
            if pipe is Pipe.S:
                blocking[i] = True
            queues[pipe].append(i)
    heads = [0] * (_NPIPES + 1)
    pipe_free = [t0] * (_NPIPES + 1)
    done = [False] * n
    issue = [0.0] * n
    issued = 0  # instructions [0, issued) have an issue time
    issue_clock = t0
    # flags: (src, dst, id) -> list of set times (k-th entry pairs with the k-th wait)
    FlagKey = tuple[object, object, object]  # (src pipe, dst pipe, event id)
    sets: dict[FlagKey, list[tuple[float, int]]] = {}
    waits_done: dict[FlagKey, int] = {}
    wait_starts: dict[FlagKey, list[float]] = {}
    remaining = n
    first_undone = 0  # every instruction before this index is done
    prefix_end = t0  # the latest end among them

    def advance_issue() -> None:
        nonlocal issued, issue_clock
        while issued < n:
            if issued > 0 and blocking[issued - 1]:
                if not done[issued - 1]:
                    return
                issue_clock = max(issue_clock, end[issued - 1])
            issue[issued] = issue_clock
            issued += 1

    advance_issue()
    progress = True
    while remaining and progress:
        progress = False
        for p in range(_NPIPES + 1):
            q = queues[p]
            h = heads[p]
            while h < len(q):
                i = q[h]
                if i >= issued:
                    break
                ins = instrs[i]
                op = ins.op
                ready = max(issue[i], pipe_free[p])
                if p == Pipe.ALL:  # pipe_barrier(ALL) / sync_all: every earlier instruction done
                    while first_undone < i and done[first_undone]:
                        prefix_end = max(prefix_end, end[first_undone])
                        first_undone += 1
                    if first_undone < i:
                        break
                    s = e = max(issue[i], prefix_end)
                elif op == _WAIT:
                    key = (ins.src, ins.dst, ins.event_id)
                    k = waits_done.get(key, 0)
                    fired = sets.get(key)
                    if fired is None or len(fired) <= k:
                        break  # the matching set has not fired (yet)
                    set_time, set_index = fired[k]
                    s = max(ready, set_time + flag_latency)
                    stall[p] += s - ready
                    e = s
                    waits_done[key] = k + 1
                    wait_starts.setdefault(key, []).append(s)
                    flows.append((set_index, i))
                elif op == _SET:
                    key = (ins.src, ins.dst, ins.event_id)
                    s = e = ready
                    sets.setdefault(key, []).append((s, i))
                elif op == _BARRIER:
                    s = e = ready
                else:
                    s = ready
                    d = costs.cycles(ins)
                    e = s + d
                    busy[p] += d
                start[i], end[i] = s, e
                done[i] = True
                pipe_free[p] = e
                remaining -= 1
                h += 1
                progress = True
                if blocking[i]:
                    advance_issue()
            heads[p] = h
        advance_issue()
    if remaining:
        raise KernelDeadlockError(_deadlock_message(instrs, queues, heads, issued, block),
                                  hint="every wait_flag needs a matching set_flag that can execute first; "
                                  "check the event, the id and the pipe order")
    _check_flags(instrs, sets, waits_done, wait_starts, block)
    tl = CoreTimeline(block, core, wave, instrs, start, end, flows, busy[:_NPIPES], stall[:_NPIPES])
    tl.begin = t0
    tl.finish = max(end, default=t0)
    for ins in instrs:
        if ins.pipe in (Pipe.MTE2, Pipe.MTE3, Pipe.FIX) and not ins.is_sync:
            nb = _nbytes(ins)
            if any(a.space is Space.GM for a in ins.reads):
                tl.gm_read += nb
            if any(a.space is Space.GM for a in ins.writes):
                tl.gm_write += nb
    return tl


def _deadlock_message(instrs: Sequence[Instr], queues: list[list[int]], heads: list[int], issued: int,
                      block: int) -> str:
    stuck = []
    for p, q in enumerate(queues):
        if heads[p] < len(q):
            i = q[heads[p]]
            ins = instrs[i]
            if i >= issued:
                continue
            if ins.op == _WAIT:
                what = (f"wait_flag({ins.src.name}_{ins.dst.name}, {ins.event_id}) at "  # type: ignore[union-attr]
                        f"{ins.where} with no set_flag that can fire")
            else:
                what = f"{ins.op} at {ins.where} waiting for earlier instructions"
            stuck.append(f"{Pipe(p).name}: {what}")
    if not stuck and issued < len(instrs):
        ins = instrs[issued - 1]
        stuck.append(f"issue is held by {ins.op} at {ins.where}")
    return f"block {block} deadlocked: " + "; ".join(stuck)


def _check_flags(instrs: Sequence[Instr], sets: dict, waits_done: dict, wait_starts: dict,
                 block: int) -> None:
    for key, fired in sets.items():
        waited = waits_done.get(key, 0)
        src, dst, eid = key
        name = f"{Pipe(src).name}_{Pipe(dst).name}, {eid}"
        if len(fired) > waited:
            ins = instrs[fired[waited][1]]
            raise SyncError(f"block {block}: set_flag({name}) at {ins.where} is never waited for",
                            hint="pair every set_flag with a wait_flag of the same event and id")
        # lost signal: the (k+1)-th set fired before the k-th wait consumed the k-th
        starts = wait_starts.get(key, [])
        for k in range(len(fired) - 1):
            if fired[k + 1][0] < starts[k]:
                a, b = instrs[fired[k][1]], instrs[fired[k + 1][1]]
                raise SyncError(f"block {block}: set_flag({name}) at {b.where} fired again before the "
                                f"wait for the one at {a.where} (a lost signal)",
                                hint="wait for a flag before setting it again, or use another event id")


# --- launch --------------------------------------------------------------------------------

def simulate(chip: ChipSpec, cores: Sequence[Sequence[Instr]]) -> SimReport:
    """Schedule a launch: ``cores[b]`` is the instruction stream recorded by block ``b``.

    >>> from npusim.arch import get_chip
    >>> from npusim.isa import Access, Instr, Pipe, Space
    >>> add = Instr(Pipe.V, "add", reads=(Access(Space.UB, 0, 512),), writes=(Access(Space.UB, 512, 512),))
    >>> simulate(get_chip("tiny"), [[add]]).total_cycles
    10.0
    """
    block_dim = len(cores)
    if block_dim == 0:
        return SimReport(chip, 0, 0, 0.0, [], 0)
    ncores = chip.cores
    waves = math.ceil(block_dim / ncores)
    has_sync_all = [any(ins.op == _SYNC_ALL for ins in stream) for stream in cores]
    if any(has_sync_all) and waves > 1:
        raise KernelDeadlockError(f"sync_all with {block_dim} blocks on {ncores} cores: blocks of later "
                                  "waves cannot start while earlier ones wait for them",
                                  hint=f"launch at most {ncores} blocks when using sync_all")
    hbm = chip.dram_bandwidth / chip.clock_hz  # bytes per cycle, whole chip
    timelines: list[CoreTimeline] = []
    t = 0.0
    for w in range(waves):
        blocks = range(w * ncores, min((w + 1) * ncores, block_dim))
        movers = sum(1 for b in blocks if any(_touches_gm(i) and not i.is_sync for i in cores[b])) or 1
        costs = _Costs(chip, hbm / movers)
        if any(has_sync_all):
            wave_tl = _schedule_with_sync_all(cores, blocks, costs, t, w, chip.flag_latency_cycles)
        else:
            wave_tl = [_schedule_core(cores[b], costs, t, b, b - w * ncores, w, chip.flag_latency_cycles)
                       for b in blocks]
        timelines.extend(wave_tl)
        t = max((tl.finish for tl in wave_tl), default=t)
    return SimReport(chip, block_dim, waves, t, timelines, sum(len(c) for c in cores))


def _schedule_with_sync_all(cores: Sequence[Sequence[Instr]], blocks: range, costs: _Costs, t0: float,
                            wave: int, flag_latency: float) -> list[CoreTimeline]:
    """Blocks run segment by segment between sync_all barriers, each segment starting together."""
    segments: list[list[list[Instr]]] = []
    for b in blocks:
        parts: list[list[Instr]] = [[]]
        for ins in cores[b]:
            if ins.op == _SYNC_ALL:
                parts.append([])
            else:
                parts[-1].append(ins)
        segments.append(parts)
    counts = {len(p) for p in segments}
    if len(counts) != 1:
        raise KernelDeadlockError("blocks reach different numbers of sync_all: the barrier never opens",
                                  hint="every block must call sync_all the same number of times")
    merged: list[CoreTimeline] = []
    t = t0
    per_block: list[list[CoreTimeline]] = [[] for _ in blocks]
    for s in range(counts.pop()):
        part = [_schedule_core(segments[j][s], costs, t, b, j, wave, flag_latency)
                for j, b in enumerate(blocks)]
        for j, tl in enumerate(part):
            per_block[j].append(tl)
        t = max((tl.finish for tl in part), default=t)
    for j, b in enumerate(blocks):
        parts_tl = per_block[j]
        instrs = [ins for tl in parts_tl for ins in tl.instrs]
        offset = 0
        flows: list[tuple[int, int]] = []
        for tl in parts_tl:
            flows.extend((a + offset, c + offset) for a, c in tl.flows)
            offset += len(tl.instrs)
        tl = CoreTimeline(b, j, wave, instrs, [x for p in parts_tl for x in p.start],
                          [x for p in parts_tl for x in p.end], flows,
                          [sum(p.busy[k] for p in parts_tl) for k in range(_NPIPES)],
                          [sum(p.flag_stall[k] for p in parts_tl) for k in range(_NPIPES)])
        tl.begin = parts_tl[0].begin
        tl.finish = t
        tl.gm_read = sum(p.gm_read for p in parts_tl)
        tl.gm_write = sum(p.gm_write for p in parts_tl)
        merged.append(tl)
    return merged
