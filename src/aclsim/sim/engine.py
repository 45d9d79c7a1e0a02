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
from aclsim.sim.stream import BARRIER, NPIPES, SET, WAIT, WORK, Stream, durations, prepare

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

    def run(self) -> None:
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
    ncores = chip.cores
    waves = math.ceil(block_dim / ncores)
    costs = CostModel(chip)
    streams = [prepare(c, costs) for c in cores]
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
            wave_tl, wave_steps = _schedule_with_sync_all(chip, streams, blocks, t, w, jitter, rng, hbm)
        else:
            wave_tl, wave_steps = _schedule_wave(chip, streams, blocks, t, w, jitter, rng, hbm, ())
        timelines.extend(wave_tl)
        steps.append(wave_steps)
        t = max((tl.finish for tl in wave_tl), default=t)
    report = SimReport(chip, block_dim, waves, t, timelines, sum(len(c) for c in cores))
    report._steps = steps
    return report


def _through_l2(chip: ChipSpec, cache: L2Cache, streams: Sequence[Stream]) -> None:
    """Give each global-memory transfer of a wave the bytes it draws from device memory and
    its latency, from the L2 cache (:mod:`aclsim.sim.l2`)."""
    hbm_lat, l2_lat = float(chip.gm_latency_cycles), float(chip.l2_latency_cycles)
    results = classify(cache, [[st.instrs[i] for i in st.gm_idx] for st in streams],
                       [st.gm_bytes for st in streams])
    for st, (drawn, slow) in zip(streams, results, strict=True):
        st.gm_hbm = drawn
        st.gm_lat = [hbm_lat if x else l2_lat for x in slow]


def _same_stream(a: Stream, b: Stream) -> bool:
    """Whether two blocks turned into the very same integers and durations."""
    return (len(a.kinds) == len(b.kinds) and a.gm_bytes == b.gm_bytes and a.gm_rate == b.gm_rate
            and a.kinds == b.kinds and a.pipes == b.pipes and a.flag_of == b.flag_of and a.durs == b.durs
            and a.gm_hbm == b.gm_hbm and a.gm_lat == b.gm_lat)


def _schedule_wave(chip: ChipSpec, streams: Sequence[Stream], blocks: range, t0: float, wave: int,
                   jitter: tuple[float, float] | None, rng: random.Random, hbm: float,
                   floors: Sequence[float]) -> tuple[list[CoreTimeline], Steps]:
    """Schedule the blocks of one wave together.  Blocks that turned into the very same
    integers (an SPMD kernel's blocks differ only in their global addresses) are scheduled
    once, as one class whose transfers count as many times as it has blocks."""
    classes: list[_Core] = []
    members: list[list[int]] = []
    # when the wave's pipes cannot ask for more than HBM gives, each transfer runs at its path rate
    contended = sum(streams[b].demand for b in blocks) > hbm
    # the blocks are dispatched one after another: block k of the wave starts k intervals late
    dispatch = chip.task_per_block_s * chip.clock_hz
    # blocks sharing device memory at shifted moments are not copies of each other: one class each
    alone = jitter is not None or (contended and dispatch > 0)
    for b in blocks:
        st = streams[b]
        # same integers, same durations: matched before computing them (under jitter every
        # block draws its own durations, so it is a class of its own)
        same = None if alone else next((k for k, c in enumerate(classes) if _same_stream(c.st, st)), None)
        if same is None:
            durs, busy, gm_lat, gm_bytes = durations(st, jitter, rng, not contended)
            core = _Core(st, durs, busy, gm_lat, gm_bytes, t0 + (b - blocks.start) * dispatch, floors,
                         chip.flag_latency_cycles, b)
            core.issue_cost = chip.scalar_issue_cycles
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
        shifts.append([(b - m[0]) * dispatch for b in m])
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
            if ins.op == _WAIT:
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
                            jitter: tuple[float, float] | None, rng: random.Random, hbm: float
                            ) -> tuple[list[CoreTimeline], Steps]:
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
        tls, steps = _schedule_wave(chip, streams, blocks, t0, wave, jitter, rng, hbm, floors)
        reached = [max(tl.start[streams[tl.block].fences[k]] for tl in tls) for k in range(nsync)]
        if reached == floors:
            break
        floors = reached
    return tls, steps
