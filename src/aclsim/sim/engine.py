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
  path rate: :class:`_Hbm`), so all cores together never exceed the HBM bandwidth.
- Blocks beyond the core count run in waves; ``sync_all`` aligns every block.
- A stream that cannot finish is a deadlock, reported with the blocked pipes, the flags
  they wait for and the source lines, never a hang.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from aclsim.arch import ChipSpec
from aclsim.errors import KernelDeadlockError, SyncError
from aclsim.isa import EXEC_PIPES, Cost, Instr, Op, Pipe, Space

_SET, _WAIT, _BARRIER, _SYNC_ALL = (Op.SET_FLAG.value, Op.WAIT_FLAG.value, Op.PIPE_BARRIER.value,
                                    Op.SYNC_ALL.value)
_NPIPES = len(EXEC_PIPES)


_Steps = Callable[[], list[tuple[float, float]]]  # a wave's global-memory draw, computed on demand


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
    bw_stall: list[float] = field(default_factory=lambda: [0.0] * len(EXEC_PIPES))  # HBM sharing


@dataclass
class SimReport:
    """What one launch cost: cycles, time, per-core and per-pipe figures, the schedule."""

    chip: ChipSpec
    block_dim: int
    waves: int
    total_cycles: float
    timelines: list[CoreTimeline] = field(repr=False)
    instructions: int = 0
    _steps: list[_Steps] = field(default_factory=list, repr=False)

    @property
    def hbm_steps(self) -> list[tuple[float, float]]:
        """The chip's global-memory draw over time: ``(cycle, bytes per cycle)`` from each
        change on (wave after wave)."""
        return [step for wave in self._steps for step in wave()]

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
        """Cycles each pipe spent in ``wait_flag``, summed over blocks."""
        return {p: sum(t.flag_stall[p] for t in self.timelines) for p in EXEC_PIPES}

    def bandwidth_stall(self) -> dict[Pipe, float]:
        """Cycles global-memory transfers took beyond their path rate because the cores share
        the HBM bandwidth (part of the busy cycles), summed over blocks."""
        return {p: sum(t.bw_stall[p] for t in self.timelines) for p in EXEC_PIPES}

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

_GM = Space.GM
_HOST = Space.HOST
_MOVERS = (Pipe.MTE2, Pipe.MTE3, Pipe.FIX)  # pipes whose bytes count as global-memory traffic


def _nbytes(ins: Instr, cost: Cost) -> int:
    if cost.bytes is not None:
        return int(cost.bytes)
    return max(sum(a.length for a in ins.writes), sum(a.length for a in ins.reads), 0)


class _Costs:
    """Duration in cycles of each instruction shape on a chip.

    Everything but a global-memory transfer costs the same whatever the other cores do; a
    transfer touching global memory is timed by :class:`_Hbm`, from what the other
    transfers of the moment draw.
    """

    def __init__(self, chip: ChipSpec) -> None:
        self.chip = chip
        self.path_rate = [0.0] * (_NPIPES + 1)
        self.path_rate[Pipe.MTE2] = chip.mte2_bytes_per_cycle
        self.path_rate[Pipe.MTE3] = chip.mte3_bytes_per_cycle
        self.path_rate[Pipe.FIX] = chip.fixpipe_bytes_per_cycle
        self.memo: dict[tuple[Any, ...], tuple[float, int, float]] = {}  # shape key -> shape()[:3]

    def shape(self, ins: Instr, pipe: Pipe) -> tuple[float, int, float, bool, bool]:
        """``(cycles, bytes, gm rate, reads GM, writes GM)`` of a work instruction.  ``gm rate`` is
        0 when ``cycles`` is final, else the path rate of a global-memory transfer (whose cycles
        then depend on the HBM share).  :func:`_prepare` memoizes it by shape in ``memo``."""
        cost = Cost.of(ins.cost)
        rd = any(a.space is _GM for a in ins.reads)
        wr = any(a.space is _GM for a in ins.writes)
        nbytes = _nbytes(ins, cost) if pipe in _MOVERS else 0
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


# --- one core ------------------------------------------------------------------------------

_K_WORK, _K_SET, _K_WAIT, _K_BARRIER, _K_FENCE = range(5)
_KIND = {_SET: _K_SET, _WAIT: _K_WAIT, _BARRIER: _K_BARRIER, _SYNC_ALL: _K_FENCE}
_ALL = int(Pipe.ALL)
_S = int(Pipe.S)


@dataclass(slots=True)
class _Stream:
    """One block's instructions turned into integers, once per launch (see :func:`_prepare`)."""

    instrs: Sequence[Instr]
    kinds: list[int]
    pipes: list[int]
    flag_of: list[int]  # dense flag number of a set/wait
    wait_ord: list[int]  # a wait pairs with the set of the same ordinal
    blocking: list[bool]  # holds back the issue of later instructions until it completes
    queues: list[list[int]]  # per pipe: its instructions, in order
    set_index: list[list[int]]  # per flag: its sets, in order
    wait_index: list[list[int]]  # per flag: its waits, in order
    fences: list[int]  # the sync_all instructions, in order
    durs: list[float]  # cycles, except global-memory transfers (0 here; see gm_*)
    busy: list[float]  # per pipe: the cycles of ``durs``
    work: list[int]  # the work instructions, in order (jitter scales these)
    gm_idx: list[int]  # the global-memory transfers ...
    gm_bytes: list[int]  # ... their bytes ...
    gm_rate: list[float]  # ... and path rates
    gm_read: int
    gm_write: int
    demand: float  # bytes per cycle this block's pipes could draw from global memory at once


def _prepare(instrs: Sequence[Instr], costs: _Costs) -> _Stream:
    """Turn a stream into integers (kind, pipe, dense flag number, the ordinal of a wait among
    the waits of its flag, fixed durations) so that the scheduling loop touches only lists."""
    n = len(instrs)
    kinds = [0] * n
    pipes: list[int] = [0] * n
    flag_of = [0] * n
    wait_ord = [0] * n
    durs = [0.0] * n
    blocking = [False] * n
    queues: list[list[int]] = [[] for _ in range(_NPIPES + 1)]
    flag_ids: dict[tuple[Any, Any, Any], int] = {}
    set_index: list[list[int]] = []
    wait_index: list[list[int]] = []
    fences: list[int] = []
    work: list[int] = []
    gm_idx: list[int] = []
    gm_bytes: list[int] = []
    gm_rate: list[float] = []
    movers: dict[int, float] = {}
    kind_of = _KIND.get
    flag_get = flag_ids.get
    memo = costs.memo
    memo_get = memo.get
    busy = [0.0] * (_NPIPES + 1)
    gm_read = gm_write = 0
    for i, ins in enumerate(instrs):
        pipe = ins.pipe
        kind = kind_of(ins.op, _K_WORK)
        if kind == _K_WORK:
            # _Costs.shape, memoized by shape (this loop runs once per instruction)
            reads, writes, cost = ins.reads, ins.writes, ins.cost
            nr = len(reads)
            if len(writes) == 1 and nr <= 2:
                w = writes[0]
                wr = w.space is _GM
                ck = id(cost)  # costs are shared (interned) and alive as long as the memo
                if nr == 0:
                    rd = False
                    key: tuple[Any, ...] = (pipe, id(w.space), w.length, ck)
                elif nr == 1:
                    r = reads[0]
                    rd = r.space is _GM
                    key = (pipe, id(w.space), w.length, id(r.space), r.length, ck)
                else:
                    ra, rb = reads
                    rd = ra.space is _GM or rb.space is _GM
                    key = (pipe, id(w.space), w.length, id(ra.space), ra.length, id(rb.space), rb.length, ck)
                hit = memo_get(key)
                if hit is None:
                    hit = memo[key] = costs.shape(ins, pipe)[:3]
                d, nb, rate = hit
            else:
                d, nb, rate, rd, wr = costs.shape(ins, pipe)
            work.append(i)
            if rd or wr:
                if rd:
                    gm_read += nb
                if wr:
                    gm_write += nb
            if rate:
                if rate > movers.get(pipe, 0.0):
                    movers[pipe] = rate
                gm_idx.append(i)
                gm_bytes.append(nb)
                gm_rate.append(rate)
            else:
                durs[i] = d
                busy[pipe] += d
            if pipe == _S:
                blocking[i] = True
        elif kind <= _K_WAIT:
            fk = (ins.src, ins.dst, ins.event_id)
            f = flag_get(fk)
            if f is None:
                f = flag_ids[fk] = len(set_index)
                set_index.append([])
                wait_index.append([])
            flag_of[i] = f
            if kind == _K_SET:
                set_index[f].append(i)
            else:
                waits = wait_index[f]
                wait_ord[i] = len(waits)
                waits.append(i)
                if pipe == _S:
                    blocking[i] = True
        elif kind == _K_FENCE or pipe == _ALL:
            if kind == _K_FENCE:
                fences.append(i)
            kind = _K_FENCE
            pipe = Pipe.ALL
            blocking[i] = True
        kinds[i] = kind
        pipes[i] = pipe
        queues[pipe].append(i)
    return _Stream(instrs, kinds, pipes, flag_of, wait_ord, blocking, queues, set_index, wait_index, fences,
                   durs, busy, work, gm_idx, gm_bytes, gm_rate, gm_read, gm_write, sum(movers.values()))


def _durations(st: _Stream, jitter: tuple[float, float] | None, rng: random.Random, fixed: float | None
               ) -> tuple[list[float], list[float], list[float], list[float]]:
    """``(durations, busy cycles per pipe, latency factor of each global-memory transfer, its
    bytes)``.  Global-memory transfers get the duration ``-1`` (timed by :class:`_Hbm`),
    or, with ``fixed`` (their latency in cycles, when they cannot contend), their path-rate
    duration.  ``jitter`` scales every duration, and the latency and bytes of every
    transfer, by U(lo, hi).
    """
    durs, busy = st.durs, st.busy
    lat = [0.0] * len(st.gm_idx)
    nbytes: list[float] = list(st.gm_bytes)
    if jitter is not None:
        lo, hi = jitter
        uniform = rng.uniform
        durs = durs[:]
        busy = [0.0] * (_NPIPES + 1)
        pipes = st.pipes
        for i in st.work:
            d = durs[i] = durs[i] * uniform(lo, hi)
            busy[pipes[i]] += d
    if st.gm_idx:
        if durs is st.durs:
            durs = durs[:]
        for j, i in enumerate(st.gm_idx):
            durs[i] = -1.0
            lat[j] = 1.0
            if jitter is not None:
                u = uniform(lo, hi)
                lat[j], nbytes[j] = u, nbytes[j] * u
            if fixed is not None:
                if busy is st.busy:
                    busy = busy[:]
                d = durs[i] = lat[j] * fixed + nbytes[j] / st.gm_rate[j]
                busy[st.pipes[i]] += d
    return durs, busy, lat, nbytes


class _Core:
    """The resumable list scheduler of one stream: a block, or a class of identical blocks.

    ``run`` schedules every instruction whose time is known; it stops a pipe at a
    global-memory transfer, whose end :class:`_Hbm` decides (``finish``) from what the
    other transfers of the moment draw.
    """

    def __init__(self, st: _Stream, durs: list[float], busy: list[float], gm_lat: list[float],
                 gm_bytes: list[float], t0: float, floors: Sequence[float], flag_latency: float,
                 block: int) -> None:
        n = len(st.instrs)
        self.st, self.durs, self.mult, self.t0, self.block = st, durs, 1, t0, block
        self.flag_latency = flag_latency
        self.floor_of = {i: (floors[k] if k < len(floors) else t0) for k, i in enumerate(st.fences)}
        self.busy = busy[:]
        self.bw_stall = [0.0] * (_NPIPES + 1)
        self.gm_of = {i: j for j, i in enumerate(st.gm_idx)}
        self.gm_lat, self.gm_bytes = gm_lat, gm_bytes
        self.start = [0.0] * n
        self.end = [0.0] * n
        self.done = [False] * n  # kept for blocking instructions only (the issue logic reads them)
        self.issue = [0.0] * n
        self.stall = [0.0] * (_NPIPES + 1)
        self.heads = [0] * (_NPIPES + 1)
        self.pipe_free = [t0] * (_NPIPES + 1)
        self.pending = [-1] * (_NPIPES + 1)  # per pipe: the transfer waiting for its end
        self.set_times: list[list[float]] = [[] for _ in st.set_index]
        self.issued = 0  # instructions [0, issued) have an issue time
        self.issue_clock = t0
        self.hbm: _Hbm | None = None

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
            self.issue[issued:stop] = [issue_clock] * (stop - issued)
            issued = stop
        self.issued, self.issue_clock = issued, issue_clock

    def run(self) -> None:
        st = self.st
        kinds, flag_of, wait_ord, blocking, queues = st.kinds, st.flag_of, st.wait_ord, st.blocking, st.queues
        durs, start, end, issue, heads = self.durs, self.start, self.end, self.issue, self.heads
        pipe_free, stall, set_times, pending = self.pipe_free, self.stall, self.set_times, self.pending
        flag_latency, floor_of = self.flag_latency, self.floor_of
        all_pipes = range(_NPIPES + 1)
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
                    if kind == _K_WORK:
                        d = durs[i]
                        if d < 0:  # a global-memory transfer: its end depends on the others
                            if pending[p] != i:
                                pending[p] = i
                                start[i] = s
                                j = self.gm_of[i]
                                self.hbm.add(self, i, s, self.gm_lat[j], self.gm_bytes[j],  # type: ignore[union-attr]
                                             st.gm_rate[j])
                            break
                        start[i] = s
                        free = end[i] = s + d
                    elif kind == _K_SET:
                        start[i] = end[i] = s
                        set_times[flag_of[i]].append(s)
                    elif kind == _K_WAIT:
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
                    elif kind == _K_BARRIER:
                        start[i] = end[i] = s
                    else:  # fence: pipe_barrier(ALL) / sync_all waits for every earlier instruction
                        if any(heads[o] < len(queues[o]) and queues[o][heads[o]] < i
                               for o in all_pipes if o != p):
                            break
                        latest = max(pipe_free)
                        if latest > s:
                            s = latest
                        if i in floor_of and floor_of[i] > s:
                            s = floor_of[i]
                        free = start[i] = end[i] = s
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
        """The global-memory transfer ``i`` (waiting at the head of its pipe) ends at ``t``."""
        p = self.st.pipes[i]
        self.end[i] = t
        self.pending[p] = -1
        self.heads[p] += 1
        self.pipe_free[p] = t
        j = self.gm_of[i]
        d = t - self.start[i]
        self.busy[p] += d
        latency = self.hbm.latency if self.hbm is not None else 0.0
        self.bw_stall[p] += max(0.0, d - latency * self.gm_lat[j] - self.gm_bytes[j] / self.st.gm_rate[j])

    def timeline(self, block: int, core: int, wave: int) -> CoreTimeline:
        st, start, end = self.st, self.start, self.end
        if sum(self.heads) < len(start):
            raise _deadlock(st.instrs, st.queues, self.heads, self.issued, block)
        _check_flags(st.instrs, st.set_index, st.wait_index, self.set_times, start, block)
        flows = [(sx, wx) for sets, waits in zip(st.set_index, st.wait_index, strict=True)
                 for sx, wx in zip(sets, waits, strict=True)]
        tl = CoreTimeline(block, core, wave, st.instrs, start, end, flows, self.busy[:_NPIPES],
                          self.stall[:_NPIPES])
        tl.begin = self.t0
        tl.finish = max(end, default=self.t0)
        tl.gm_read, tl.gm_write = st.gm_read, st.gm_write
        tl.bw_stall = self.bw_stall[:_NPIPES]
        return tl


class _Hbm:
    """Global-memory transfers sharing the HBM bandwidth at every moment (a fluid model).

    A transfer waits its latency, then moves its bytes.  At each moment the HBM bandwidth
    is split evenly among the transfers moving data, none above its path rate, and what
    the capped ones leave goes to the others (max-min fairness).  So the cores together
    never draw more than the HBM bandwidth, and a core copying alone gets its path rate.
    The rates change only when a transfer starts or ends moving data; ``steps`` records
    the chip's draw, ``(cycle, bytes per cycle)``, from each such moment on.
    """

    def __init__(self, bandwidth: float, latency: float, t0: float) -> None:
        self.bandwidth, self.latency, self.now = bandwidth, latency, t0
        self.arrivals: list[tuple[float, int, list[Any]]] = []  # (data start, seq, transfer)
        self.active: list[list[Any]] = []  # [bytes left, path rate, multiplicity, core, index]
        self.seq = 0
        self.steps: list[tuple[float, float]] = []

    def add(self, core: _Core, i: int, start: float, lat: float, nbytes: float, rate: float) -> None:
        self.seq += 1
        transfer = [nbytes, rate, core.mult, core, i]
        heapq.heappush(self.arrivals, (start + lat * self.latency, self.seq, transfer))

    def _rates(self) -> list[float]:
        active = self.active
        left, count = self.bandwidth, sum(a[2] for a in active)
        rates = [0.0] * len(active)
        for j in sorted(range(len(active)), key=lambda j: active[j][1]):
            share = left / count
            cap, mult = active[j][1], active[j][2]
            r = rates[j] = cap if cap < share else share
            left -= r * mult
            count -= mult
        return rates

    def run(self, cores: Sequence[_Core]) -> None:
        for c in cores:
            c.hbm = self
            c.run()
        active, arrivals, steps = self.active, self.arrivals, self.steps
        rates: list[float] = []
        while active or arrivals:
            tc = math.inf
            for a, r in zip(active, rates, strict=True):
                t = self.now + a[0] / r
                if t < tc:
                    tc = t
            ta = arrivals[0][0] if arrivals else math.inf
            t = ta if ta <= tc else tc
            dt = t - self.now
            for a, r in zip(active, rates, strict=True):
                a[0] -= r * dt
            self.now = t
            eps = 1e-9 * max(t, 1.0)
            ended = [a for a, r in zip(active, rates, strict=True) if a[0] <= eps * r]
            if ended:
                self.active = active = [a for a, r in zip(active, rates, strict=True) if a[0] > eps * r]
            while arrivals and arrivals[0][0] <= t:
                a = heapq.heappop(arrivals)[2]
                if a[0] > 0:
                    active.append(a)
                else:
                    ended.append(a)
            rates = self._rates()
            draw = sum(r * a[2] for a, r in zip(active, rates, strict=True))
            if not steps or steps[-1][1] != draw:
                steps.append((t, draw))
            if ended:
                touched = []
                for a in ended:
                    a[3].finish(a[4], t)
                    if a[3] not in touched:
                        touched.append(a[3])
                for c in touched:
                    c.run()  # new transfers join the arrivals, not the moving set


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
    costs = _Costs(chip)
    streams = [_prepare(c, costs) for c in cores]
    fenced = [b for b, st in enumerate(streams) if st.fences]
    if fenced and waves > 1:
        ins = streams[fenced[0]].instrs[streams[fenced[0]].fences[0]]
        raise KernelDeadlockError(f"sync_all with {block_dim} blocks on {ncores} cores: blocks of later "
                                  "waves cannot start while earlier ones wait for them", file=ins.file,
                                  line=ins.line, block=fenced[0],
                                  hint=f"launch at most {ncores} blocks when using sync_all")
    hbm = chip.dram_bandwidth / chip.clock_hz  # bytes per cycle, whole chip
    timelines: list[CoreTimeline] = []
    steps: list[_Steps] = []
    t = 0.0
    for w in range(waves):
        blocks = range(w * ncores, min((w + 1) * ncores, block_dim))
        rng = random.Random(seed + w)
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


def _same_stream(a: _Stream, b: _Stream) -> bool:
    """Whether two blocks turned into the very same integers and durations."""
    return (len(a.kinds) == len(b.kinds) and a.gm_bytes == b.gm_bytes and a.gm_rate == b.gm_rate
            and a.kinds == b.kinds and a.pipes == b.pipes and a.flag_of == b.flag_of and a.durs == b.durs)


def _schedule_wave(chip: ChipSpec, streams: Sequence[_Stream], blocks: range, t0: float, wave: int,
                   jitter: tuple[float, float] | None, rng: random.Random, hbm: float,
                   floors: Sequence[float]) -> tuple[list[CoreTimeline], _Steps]:
    """Schedule the blocks of one wave together.  Blocks that turned into the very same
    integers (an SPMD kernel's blocks differ only in their global addresses) are scheduled
    once, as one class whose transfers count as many times as it has blocks."""
    classes: list[_Core] = []
    members: list[list[int]] = []
    # when the wave's pipes cannot ask for more than HBM gives, each transfer runs at its path rate
    contended = sum(streams[b].demand for b in blocks) > hbm
    fixed = None if contended else float(chip.gm_latency_cycles)
    for b in blocks:
        st = streams[b]
        # same integers, same durations: matched before computing them (under jitter every
        # block draws its own durations, so it is a class of its own)
        same = None if jitter else next((k for k, c in enumerate(classes) if _same_stream(c.st, st)), None)
        if same is None:
            durs, busy, gm_lat, gm_bytes = _durations(st, jitter, rng, fixed)
            classes.append(_Core(st, durs, busy, gm_lat, gm_bytes, t0, floors, chip.flag_latency_cycles, b))
            members.append([b])
        else:
            classes[same].mult += 1
            members[same].append(b)
    fluid = _Hbm(hbm, chip.gm_latency_cycles, t0)
    fluid.run(classes)
    latency = chip.gm_latency_cycles
    steps = (lambda: fluid.steps) if contended else (lambda: _sweep_steps(classes, latency))
    tls: list[CoreTimeline] = []
    for c, m in zip(classes, members, strict=True):
        first = c.timeline(m[0], m[0] - blocks.start, wave)
        for b in m:
            if b == m[0]:
                tl = first
            else:
                sb = streams[b]
                tl = CoreTimeline(b, 0, wave, sb.instrs, first.start, first.end, first.flows, first.busy,
                                  first.flag_stall, first.begin, first.finish, sb.gm_read, sb.gm_write,
                                  first.bw_stall)
            tl.core = b - blocks.start
            tls.append(tl)
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


def _sweep_steps(classes: Sequence[_Core], latency: float) -> list[tuple[float, float]]:
    """The chip's global-memory draw over time when every transfer ran at its path rate."""
    changes: dict[float, float] = {}
    for c in classes:
        st = c.st
        for j, i in enumerate(st.gm_idx):
            t = c.start[i] + c.gm_lat[j] * latency
            if c.end[i] > t:
                r = c.gm_bytes[j] / (c.end[i] - t) * c.mult
                changes[t] = changes.get(t, 0.0) + r
                changes[c.end[i]] = changes.get(c.end[i], 0.0) - r
    steps: list[tuple[float, float]] = []
    draw = 0.0
    for t in sorted(changes):
        draw += changes[t]
        if abs(draw) < 1e-9:
            draw = 0.0
        if not steps or steps[-1][1] != draw:
            steps.append((t, draw))
    return steps


def _schedule_with_sync_all(chip: ChipSpec, streams: Sequence[_Stream], blocks: range, t0: float, wave: int,
                            jitter: tuple[float, float] | None, rng: random.Random, hbm: float
                            ) -> tuple[list[CoreTimeline], _Steps]:
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
