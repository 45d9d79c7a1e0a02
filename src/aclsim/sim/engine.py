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
  rate``.  A copy touching global memory waits its latency, then moves its bytes sharing
  the HBM bandwidth with the transfers moving data at that moment (evenly, none above its
  path rate: :class:`~aclsim.sim.hbm.Hbm`), so all cores together never exceed the HBM bandwidth.
- Blocks beyond the core count run in waves; ``sync_all`` aligns every block.
- A stream that cannot finish is a deadlock, reported with the blocked pipes, the flags
  they wait for and the source lines, never a hang.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from aclsim.arch import ChipSpec
from aclsim.errors import KernelDeadlockError, SyncError
from aclsim.isa import Instr, Op, Pipe
from aclsim.sim.costs import CostModel
from aclsim.sim.hbm import Hbm
from aclsim.sim.l2 import L2Cache, classify
from aclsim.sim.report import CoreTimeline, SimReport, Steps
from aclsim.sim.stream import (
    BARRIER,
    MIX_OP,
    NPIPES,
    SET,
    WAIT,
    WORK,
    XSET,
    XWAIT,
    XWAIT_OP,
    Stream,
    durations,
    prepare,
)

_WAIT = Op.WAIT_FLAG.value
_S = int(Pipe.S)


# --- one core ------------------------------------------------------------------------------

class _Core:
    """The resumable list scheduler of one stream: a block, or a class of identical blocks.

    ``run`` schedules every instruction whose time is known; it stops a pipe at a
    global-memory transfer, whose end :class:`Hbm` decides (``finish``) from what the
    other transfers of the moment draw.
    """

    def __init__(self, st: Stream, durs: list[float], busy: list[float], gm_lat: list[float],
                 gm_bytes: list[float], t0: float, floors: Sequence[float], flag_latency: float,
                 block: int) -> None:
        n = len(st.instrs)
        self.st, self.durs, self.mult, self.t0, self.block = st, durs, 1, t0, block
        self.flag_latency = flag_latency
        self.floor_of = {i: (floors[k] if k < len(floors) else t0) for k, i in enumerate(st.fences)}
        self.busy = busy[:]
        self.bw_stall = [0.0] * (NPIPES + 1)
        self.gm_of = {i: j for j, i in enumerate(st.gm_idx)}
        self.gm_lat, self.gm_bytes = gm_lat, gm_bytes
        self.start = [0.0] * n
        self.end = [0.0] * n
        self.done = [False] * n  # kept for blocking instructions only (the issue logic reads them)
        self.issue = [0.0] * n
        self.stall = [0.0] * (NPIPES + 1)
        self.heads = [0] * (NPIPES + 1)
        self.pipe_free = [t0] * (NPIPES + 1)
        self.pending = [-1] * (NPIPES + 1)  # per pipe: the transfer waiting for its end
        self.done_at = [t0] * (NPIPES + 1)  # per pipe: when everything issued to it has completed
        self.covered = [t0] * (NPIPES + 1)  # per pipe: the end of the busy time counted so far
        self.tail = [0.0] * n  # per instruction: its latency after it leaves the pipe
        for j, i in enumerate(st.gm_idx):
            self.tail[i] = gm_lat[j]
        self.set_times: list[list[float]] = [[] for _ in st.set_index]
        self.issued = 0  # instructions [0, issued) have an issue time
        self.issue_clock = t0
        self.hbm: Hbm | None = None
        self.issue_cost = 0.0  # scalar cycles the issue of each instruction takes
        self.xf: _CrossFlags | None = None  # the launch's cross-core flags, if this stream has any
        self.xnew = False  # a cross-core set fired in the last pass

    def run(self) -> None:
        """Schedule what can be scheduled; with cross-core flags, the other cores of the launch
        that a set of this pass may release run again too."""
        if self.xf is None:
            self._run()
        else:
            self.xf.drive(self)

    def _cross_set(self, i: int, s: float) -> float:
        """Cross-core set ``i`` fires at ``s``: the cores waiting for it may go on."""
        c = self.st.instrs[i].cost
        self.xf.fired[(c["unit"], c["ordinal"])] = s  # type: ignore[union-attr]
        self.xnew = True
        return s

    def _cross_wait(self, i: int, s: float) -> float | None:
        """When cross-core wait ``i``, issued at ``s``, ends (None: a set it consumed has not fired)."""
        t = self.xf.ready(self.st.instrs[i].cost["deps"]) if self.xf is not None else None
        if t is None:
            return None
        return max(s, t, self.hbm.now if self.hbm is not None else s)

    def x_blocked(self) -> bool:
        """Whether the issue of this core stops at a cross-core wait."""
        q, h = self.st.queues[_S], self.heads[_S]
        return h < len(q) and self.st.kinds[q[h]] == XWAIT

    def advance_issue(self) -> None:
        """Give issue times to every instruction up to (and including) the next blocking one."""
        blocking, n, end = self.st.blocking, len(self.start), self.end
        issued, issue_clock = self.issued, self.issue_clock
        while issued < n:
            if issued > 0 and blocking[issued - 1]:
                if not self.done[issued - 1]:
                    break
                if end[issued - 1] > issue_clock:
                    issue_clock = end[issued - 1]
            try:
                stop = blocking.index(True, issued) + 1
            except ValueError:
                stop = n
            cost = self.issue_cost
            if cost:  # the scalar unit's control code around each call: one call after the other
                self.issue[issued:stop] = [issue_clock + k * cost for k in range(stop - issued)]
                issue_clock += (stop - issued) * cost
                self.busy[_S] += (stop - issued) * cost
            else:
                self.issue[issued:stop] = [issue_clock] * (stop - issued)
            issued = stop
        self.issued, self.issue_clock = issued, issue_clock

    def _run(self) -> None:
        st = self.st
        kinds, flag_of, wait_ord, blocking, queues = st.kinds, st.flag_of, st.wait_ord, st.blocking, st.queues
        durs, start, end, issue, heads = self.durs, self.start, self.end, self.issue, self.heads
        pipe_free, stall, set_times, pending = self.pipe_free, self.stall, self.set_times, self.pending
        flag_latency, floor_of = self.flag_latency, self.floor_of
        done_at, covered, tail, busy = self.done_at, self.covered, self.tail, self.busy
        all_pipes = range(NPIPES + 1)
        self.advance_issue()
        progress = True
        while progress:
            progress = False
            for p in all_pipes:
                q = queues[p]
                h = h0 = heads[p]
                qlen = len(q)
                free = pipe_free[p]
                issued = self.issued
                while h < qlen:
                    i = q[h]
                    if i >= issued:
                        break
                    kind = kinds[i]
                    s = issue[i]
                    if free > s:
                        s = free
                    if kind == WORK:
                        d = durs[i]
                        if d < 0:  # a global-memory transfer: its end depends on the others
                            if pending[p] != i:
                                pending[p] = i
                                start[i] = s
                                j = self.gm_of[i]
                                nb = self.gm_bytes[j]
                                self.hbm.add(self, i, s + st.gm_copy[j], nb,  # type: ignore[union-attr]
                                             st.gm_rate[j], st.gm_hbm[j] / nb if nb else 1.0, 1.0)
                            break
                        start[i] = s
                        free = s + d
                        e = end[i] = free + tail[i]
                        c = covered[p]
                        if c > s or e > free:  # a latency overlaps: count the union of busy times
                            busy[p] += (e if e > c else c) - (s if s > c else c) - d
                            covered[p] = e if e > c else c
                        else:
                            covered[p] = e
                        if e > done_at[p]:
                            done_at[p] = e
                    elif kind == SET:
                        if done_at[p] > s:
                            s = done_at[p]
                        start[i] = end[i] = s
                        set_times[flag_of[i]].append(s)
                    elif kind == WAIT:
                        fired = set_times[flag_of[i]]
                        k = wait_ord[i]
                        if len(fired) <= k:
                            break  # the matching set has not fired (yet)
                        ready = s
                        s = fired[k] + flag_latency
                        if s < ready:
                            s = ready
                        stall[p] += s - ready
                        free = start[i] = end[i] = s
                    elif kind == XSET:  # fires when the pipe's earlier work is done
                        start[i] = end[i] = self._cross_set(i, done_at[p] if done_at[p] > s else s)
                    elif kind == XWAIT:  # the sets it consumed fired, plus the cross-core latency
                        t = self._cross_wait(i, s)
                        if t is None:
                            break
                        stall[p] += t - s
                        free = start[i] = end[i] = t
                    elif kind == BARRIER:  # the pipe waits for its copies in flight
                        if done_at[p] > s:
                            s = done_at[p]
                        free = start[i] = end[i] = s
                    else:  # fence: pipe_barrier(ALL) / sync_all waits for every earlier instruction
                        if any(heads[o] < len(queues[o]) and queues[o][heads[o]] < i
                               for o in all_pipes if o != p):
                            break
                        latest = max(max(pipe_free), max(done_at))
                        if latest > s:
                            s = latest
                        if i in floor_of and floor_of[i] > s:
                            s = floor_of[i]
                        free = start[i] = end[i] = s
                        if s > done_at[p]:
                            done_at[p] = s
                    h += 1
                    if blocking[i]:
                        self.done[i] = True
                        heads[p] = h
                        pipe_free[p] = free
                        self.advance_issue()
                        issued = self.issued
                if h != h0:
                    progress = True
                    heads[p] = h
                    pipe_free[p] = free
            self.advance_issue()

    def finish(self, i: int, t: float) -> None:
        """The bytes of global-memory transfer ``i`` (at the head of its pipe) have all left at
        ``t``: the pipe moves on, the transfer ends its latency later."""
        p = self.st.pipes[i]
        e = self.end[i] = t + self.tail[i]
        self.pending[p] = -1
        self.heads[p] += 1
        self.pipe_free[p] = t
        if e > self.done_at[p]:
            self.done_at[p] = e
        s, c = self.start[i], self.covered[p]
        self.busy[p] += (e if e > c else c) - (s if s > c else c)
        self.covered[p] = e if e > c else c
        j = self.gm_of[i]
        alone = self.st.gm_copy[j] + self.gm_bytes[j] / self.st.gm_rate[j]
        self.bw_stall[p] += max(0.0, t - s - alone)

    def timeline(self, block: int, core: int, wave: int) -> CoreTimeline:
        st, start, end = self.st, self.start, self.end
        if sum(self.heads) < len(start):
            raise _deadlock(st.instrs, st.queues, self.heads, self.issued, block)
        _check_flags(st.instrs, st.set_index, st.wait_index, self.set_times, start, block)
        flows = [(sx, wx) for sets, waits in zip(st.set_index, st.wait_index, strict=True)
                 for sx, wx in zip(sets, waits, strict=True)]
        tl = CoreTimeline(block, core, wave, st.instrs, start, end, flows, self.busy[:NPIPES],
                          self.stall[:NPIPES])
        tl.begin = self.t0
        tl.finish = max(end, default=self.t0)
        tl.gm_read, tl.gm_write = st.gm_read, st.gm_write
        tl.bw_stall = self.bw_stall[:NPIPES]
        return tl


class _CrossFlags:
    """The cross-core flags of a launch (mixed kernels): when each core's set fired, and the
    driving of the cores so that a set lets the cores waiting for it go on at once."""

    def __init__(self, latency: float, present: set[int]) -> None:
        self.latency = latency
        self.present = present  # the cores (of the launch) whose sets are simulated here
        self.fired: dict[tuple[int, int], float] = {}  # (core, set ordinal) -> time
        self.cores: list[_Core] = []
        self.queue: list[_Core] = []
        self.busy = False

    def ready(self, deps: Sequence[tuple[int, int]]) -> float | None:
        """When a wait that consumed the sets ``deps`` may end (None: one has not fired yet).  A set
        of a core that is not simulated here (a core's stream timed on its own) does not hold it."""
        fired, present = self.fired, self.present
        t = 0.0
        for d in deps:
            x = fired.get(d)
            if x is None:
                if d[0] not in present:
                    continue
                return None
            if x > t:
                t = x
        return t + self.latency

    def drive(self, core: _Core) -> None:
        if self.busy:  # a core of the launch is being run: it will run this one after it
            if core not in self.queue:
                self.queue.append(core)
            return
        self.busy = True
        try:
            self.queue = [core]
            while self.queue:
                c = self.queue.pop(0)
                c.xnew = False
                c._run()
                if c.xnew:
                    self.queue.extend(o for o in self.cores
                                      if o is not c and o not in self.queue and o.x_blocked())
        finally:
            self.busy = False


# --- launch --------------------------------------------------------------------------------

def simulate(chip: ChipSpec, cores: Sequence[Sequence[Instr]], *, jitter: tuple[float, float] | None = None,
             seed: int = 0) -> SimReport:
    """Schedule a launch: ``cores[b]`` is the instruction stream recorded by block ``b``.

    ``jitter=(lo, hi)`` scales every instruction's duration by a random factor in
    ``[lo, hi]`` (seeded by ``seed``): runs under randomized latencies show whether a stream's
    synchronization holds for any timing, not just the modeled one.

    >>> from aclsim.arch import get_chip
    >>> from aclsim.isa import Access, Instr, Pipe, Space
    >>> add = Instr(Pipe.V, "add", reads=(Access(Space.UB, 0, 512),), writes=(Access(Space.UB, 512, 512),))
    >>> simulate(get_chip("tiny"), [[add]]).total_cycles
    10.0
    """
    block_dim = len(cores)
    if block_dim == 0:
        return SimReport(chip, 0, 0, 0.0, [], 0)
    costs = CostModel(chip)
    streams = [prepare(c, costs) for c in cores]
    ncores, kinds = _layout(chip, cores)
    waves = math.ceil(block_dim / ncores)
    xf = (_CrossFlags(chip.cross_core_flag_latency_cycles, _setters(streams))
          if any(XSET in st.kinds or XWAIT in st.kinds for st in streams) else None)
    fenced = [b for b, st in enumerate(streams) if st.fences]
    if fenced and waves > 1:
        ins = streams[fenced[0]].instrs[streams[fenced[0]].fences[0]]
        raise KernelDeadlockError(f"sync_all with {block_dim} blocks on {ncores} cores: blocks of later "
                                  "waves cannot start while earlier ones wait for them", file=ins.file,
                                  line=ins.line, block=fenced[0],
                                  hint=f"launch at most {ncores} blocks when using sync_all")
    hbm = chip.dram_bandwidth / chip.clock_hz  # bytes per cycle, whole chip
    timelines: list[CoreTimeline] = []
    steps: list[Steps] = []
    t = 0.0
    cache = (L2Cache(chip.l2_bytes, chip.l2_line_bytes, writes_first=chip.l2_writes_first)
             if chip.l2_bytes and chip.l2_latency_cycles else None)
    for w in range(waves):
        blocks = range(w * ncores, min((w + 1) * ncores, block_dim))
        rng = random.Random(seed + w)
        if cache is not None:
            _through_l2(chip, cache, [streams[b] for b in blocks])
        if any(streams[b].fences for b in blocks):
            wave_tl, wave_steps = _schedule_with_sync_all(chip, streams, blocks, t, w, jitter, rng, hbm, xf)
        else:
            wave_tl, wave_steps = _schedule_wave(chip, streams, blocks, t, w, jitter, rng, hbm, (), xf)
        timelines.extend(wave_tl)
        steps.append(wave_steps)
        t = max((tl.finish for tl in wave_tl), default=t)
    for tl in timelines:
        tl.kind = kinds[tl.block] if kinds else ""
    groups = kinds.count("AIC") if kinds else block_dim  # a mixed launch's Block Num: its groups
    report = SimReport(chip, groups, waves, t, timelines, sum(len(c) for c in cores))
    report._steps = steps
    return report


def _setters(streams: Sequence[Stream]) -> set[int]:
    """The launch's cores (numbered as the kernel language numbers them) that set cross-core flags."""
    return {int(st.instrs[i].cost["unit"]) for st in streams for i, k in enumerate(st.kinds) if k == XSET}


def _layout(chip: ChipSpec, cores: Sequence[Sequence[Instr]]) -> tuple[int, list[str]]:
    """``(cores a wave holds, the type of each core)``: a mixed kernel's streams start with a marker
    naming the core's type and its group's AIVs per AIC (kernel/crosscore.py); a wave then holds
    whole groups, as many as the chip has AICs and AIVs for.  Other launches: ``chip.cores``
    blocks, no types."""
    first = cores[0][0] if cores[0] else None
    if first is None or first.op != MIX_OP:
        return chip.cores, []
    ratio = int(first.cost["ratio"])
    groups = max(1, min(chip.cube_cores, chip.vector_cores // ratio))
    return groups * (1 + ratio), [str(c[0].cost["core"]) for c in cores]


def _through_l2(chip: ChipSpec, cache: L2Cache, streams: Sequence[Stream]) -> None:
    """Give each global-memory transfer of a wave the bytes it draws from device memory and
    its latency, from the L2 cache (:mod:`aclsim.sim.l2`)."""
    hbm_lat, l2_lat = float(chip.gm_latency_cycles), float(chip.l2_latency_cycles)
    results = classify(cache, [[st.instrs[i] for i in st.gm_idx] for st in streams],
                       [st.gm_bytes for st in streams])
    for st, (drawn, slow) in zip(streams, results, strict=True):
        st.gm_hbm = drawn
        st.gm_lat = [hbm_lat if x else l2_lat for x in slow]


def _dispatch_unit(st: Stream) -> int:
    """The cores dispatched together: a mixed kernel's group (its AIC and AIVs, named by the
    stream's ``mix_core`` marker), else one block."""
    first = st.instrs[0] if st.instrs else None
    if first is not None and first.op == MIX_OP:
        return 1 + int(first.cost["ratio"])
    return 1


def _same_stream(a: Stream, b: Stream) -> bool:
    """Whether two blocks turned into the very same integers and durations."""
    return (len(a.kinds) == len(b.kinds) and a.gm_bytes == b.gm_bytes and a.gm_rate == b.gm_rate
            and a.kinds == b.kinds and a.pipes == b.pipes and a.flag_of == b.flag_of and a.durs == b.durs
            and a.gm_hbm == b.gm_hbm and a.gm_lat == b.gm_lat)


def _schedule_wave(chip: ChipSpec, streams: Sequence[Stream], blocks: range, t0: float, wave: int,
                   jitter: tuple[float, float] | None, rng: random.Random, hbm: float,
                   floors: Sequence[float], xf: _CrossFlags | None = None
                   ) -> tuple[list[CoreTimeline], Steps]:
    """Schedule the blocks of one wave together.  Blocks that turned into the very same
    integers (an SPMD kernel's blocks differ only in their global addresses) are scheduled
    once, as one class whose transfers count as many times as it has blocks (not the cores
    with cross-core flags: each waits for the sets of particular other cores)."""
    classes: list[_Core] = []
    members: list[list[int]] = []
    if xf is not None:
        xf.cores = []
        for key in [k for k in xf.fired if k[0] in blocks]:  # a round of a sync_all fixed point
            del xf.fired[key]
    # when the wave's pipes cannot ask for more than HBM gives, each transfer runs at its path rate
    contended = sum(streams[b].demand for b in blocks) > hbm
    # the blocks are dispatched one after another: block k of the wave starts k intervals late
    # (a mixed kernel's group, its AIC and AIVs, is dispatched as one)
    dispatch = chip.task_per_block_s * chip.clock_hz
    unit = _dispatch_unit(streams[blocks.start]) if len(blocks) else 1
    late = {b: (b - blocks.start) // unit * dispatch for b in blocks}
    # blocks sharing device memory at shifted moments are not copies of each other: one class each
    alone = jitter is not None or (contended and dispatch > 0)
    for b in blocks:
        st = streams[b]
        # same integers, same durations: matched before computing them (under jitter every
        # block draws its own durations, so it is a class of its own)
        crossing = xf is not None and (XSET in st.kinds or XWAIT in st.kinds)
        same = (None if alone or crossing else
                next((k for k, c in enumerate(classes) if c.xf is None and _same_stream(c.st, st)), None))
        if same is None:
            durs, busy, gm_lat, gm_bytes = durations(st, jitter, rng, not contended)
            core = _Core(st, durs, busy, gm_lat, gm_bytes, t0 + late[b], floors, chip.flag_latency_cycles, b)
            core.issue_cost = chip.scalar_issue_cycles
            if crossing:
                core.xf = xf
                xf.cores.append(core)  # type: ignore[union-attr]
            classes.append(core)
            members.append([b])
        else:
            classes[same].mult += 1
            members[same].append(b)
    fluid = Hbm(hbm, t0, chip.l2_bandwidth / chip.clock_hz)
    fluid.run(classes)
    tls: list[CoreTimeline] = []
    shifts: list[list[float]] = []
    for c, m in zip(classes, members, strict=True):
        first = c.timeline(m[0], m[0] - blocks.start, wave)
        shifts.append([late[b] - late[m[0]] for b in m])
        for b, shift in zip(m, shifts[-1], strict=True):
            if b == m[0]:
                tl = first
            else:  # the class's schedule, as late as the block's dispatch
                sb = streams[b]
                start, end = first.start, first.end
                if shift:
                    start, end = [t + shift for t in start], [t + shift for t in end]
                tl = CoreTimeline(b, 0, wave, sb.instrs, start, end, first.flows, first.busy,
                                  first.flag_stall, first.begin + shift, first.finish + shift, sb.gm_read,
                                  sb.gm_write, first.bw_stall)
            tl.core = b - blocks.start
            tls.append(tl)
    steps = (lambda: fluid.steps) if contended else (lambda: _sweep_steps(classes, shifts))
    tls.sort(key=lambda tl: tl.block)
    return tls, steps


def _deadlock(instrs: Sequence[Instr], queues: list[list[int]], heads: list[int], issued: int,
              block: int) -> KernelDeadlockError:
    stuck, first = [], None
    for p, q in enumerate(queues):
        if heads[p] < len(q):
            i = q[heads[p]]
            ins = instrs[i]
            if i >= issued:
                continue
            if ins.op == XWAIT_OP:
                what = (f"{XWAIT_OP}({ins.event_id}) at {ins.where}: the cross-core sets it consumed never "
                        "fire "
                        "in this wave (a core of a later wave, or a core that cannot reach them)")
            elif ins.op == _WAIT:
                what = (f"wait_flag({ins.src.name}_{ins.dst.name}, {ins.event_id}) at "  # type: ignore[union-attr]
                        f"{ins.where} with no set_flag that can fire")
            else:
                what = f"{ins.op} at {ins.where} waiting for earlier instructions"
            stuck.append(f"{Pipe(p).name}: {what}")
            first = ins if first is None or first.op != _WAIT and ins.op == _WAIT else first  # a wait first
    if not stuck and issued < len(instrs):
        first = ins = instrs[issued - 1]
        stuck.append(f"issue is held by {ins.op} at {ins.where}")
    return KernelDeadlockError(f"block {block} deadlocked: " + "; ".join(stuck), block=block,
                               file=getattr(first, "file", ""), line=getattr(first, "line", 0),
                               hint="every wait_flag needs a matching set_flag that can execute first; "
                               "check the event, the id and the pipe order")


def _check_flags(instrs: Sequence[Instr], set_index: list[list[int]], wait_index: list[list[int]],
                 set_times: list[list[float]], start: list[float], block: int) -> None:
    for sets, waits, fired in zip(set_index, wait_index, set_times, strict=True):
        if not sets:
            continue
        first = instrs[sets[0]]
        name = f"{first.src.name}_{first.dst.name}, {first.event_id}"  # type: ignore[union-attr]
        if len(sets) > len(waits):
            ins = instrs[sets[len(waits)]]
            raise SyncError(f"block {block}: set_flag({name}) at {ins.where} is never waited for",
                            hint="pair every set_flag with a wait_flag of the same event and id",
                            file=ins.file, line=ins.line, block=block)
        # lost signal: the (k+1)-th set fired before the k-th wait consumed the k-th
        for k in range(len(sets) - 1):
            if fired[k + 1] < start[waits[k]]:
                a, b = instrs[sets[k]], instrs[sets[k + 1]]
                raise SyncError(f"block {block}: set_flag({name}) at {b.where} fired again before the "
                                f"wait for the one at {a.where} (a lost signal)", file=b.file, line=b.line,
                                block=block,
                                hint="wait for a flag before setting it again, or use another event id")


def _sweep_steps(classes: Sequence[_Core], shifts: Sequence[Sequence[float]]) -> list[tuple[float, float]]:
    """The chip's device-memory draw over time when every transfer ran at its path rate
    (``shifts``: per class, how late each of its blocks runs its schedule)."""
    changes: dict[float, float] = {}
    for c, class_shifts in zip(classes, shifts, strict=True):
        st = c.st
        for j, i in enumerate(st.gm_idx):
            t = c.start[i] + st.gm_copy[j]
            t_end = c.end[i] - c.gm_lat[j]
            if t_end > t and st.gm_hbm[j]:
                r = st.gm_hbm[j] / (t_end - t)
                for shift in class_shifts:
                    changes[t + shift] = changes.get(t + shift, 0.0) + r
                    changes[t_end + shift] = changes.get(t_end + shift, 0.0) - r
    steps: list[tuple[float, float]] = []
    draw = 0.0
    for t in sorted(changes):
        draw += changes[t]
        if abs(draw) < 1e-9:
            draw = 0.0
        if not steps or steps[-1][1] != draw:
            steps.append((t, draw))
    return steps


def _schedule_with_sync_all(chip: ChipSpec, streams: Sequence[Stream], blocks: range, t0: float, wave: int,
                            jitter: tuple[float, float] | None, rng: random.Random, hbm: float,
                            xf: _CrossFlags | None = None) -> tuple[list[CoreTimeline], Steps]:
    """Schedule blocks whose streams hold ``sync_all``: the k-th ``sync_all`` of every block
    passes at the latest time any block reaches its k-th one (a fixed point: each round can
    only delay later barriers, so it ends within one round per barrier)."""
    counts = {len(streams[b].fences) for b in blocks}
    if len(counts) != 1:
        b = max(blocks, key=lambda b: len(streams[b].fences))  # its first sync_all some block never reaches:
        ins = streams[b].instrs[streams[b].fences[min(counts)]]
        raise KernelDeadlockError("blocks reach different numbers of sync_all: the barrier never opens",
                                  hint="every block must call sync_all the same number of times",
                                  file=ins.file, line=ins.line, block=b)
    nsync = counts.pop()
    floors: list[float] = [t0] * nsync
    state = rng.getstate()
    for _ in range(nsync + 1):
        rng.setstate(state)  # the same jitter every round
        tls, steps = _schedule_wave(chip, streams, blocks, t0, wave, jitter, rng, hbm, floors, xf)
        reached = [max(tl.start[streams[tl.block].fences[k]] for tl in tls) for k in range(nsync)]
        if reached == floors:
            break
        floors = reached
    return tls, steps
