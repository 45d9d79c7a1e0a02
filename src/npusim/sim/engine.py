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
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from npusim.arch import ChipSpec
from npusim.errors import KernelDeadlockError, SyncError
from npusim.isa import EXEC_PIPES, SYNC_OPS, Instr, Op, Pipe, Space

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
_SYNC_OPS = SYNC_OPS
_MOVERS = (Pipe.MTE2, Pipe.MTE3, Pipe.FIX)  # pipes whose bytes count as global-memory traffic


def _touches_gm(ins: Instr) -> bool:
    return any(a.space is Space.GM for a in ins.reads) or any(a.space is Space.GM for a in ins.writes)


def _nbytes(ins: Instr) -> int:
    if "bytes" in ins.cost:
        return int(ins.cost["bytes"])
    return max(sum(a.length for a in ins.writes), sum(a.length for a in ins.reads), 0)


class _Costs:
    """Duration in cycles of one work instruction on one core, from the chip."""

    def __init__(self, chip: ChipSpec, gm_share: float, jitter: tuple[float, float] | None = None,
                 seed: int = 0) -> None:
        self.chip = chip
        self.gm_share = gm_share  # bytes per cycle this core may draw from HBM
        # randomized latencies (the SyncTester idea): every duration scaled by U(lo, hi)
        self.jitter = jitter
        self.rng = random.Random(seed)
        # cycles per byte a global-memory transfer loses to sharing HBM (vs its path rate)
        self.bw_extra = [0.0] * (len(EXEC_PIPES) + 1)
        for pipe, rate in ((Pipe.MTE2, chip.mte2_bytes_per_cycle), (Pipe.MTE3, chip.mte3_bytes_per_cycle),
                           (Pipe.FIX, chip.fixpipe_bytes_per_cycle)):
            if gm_share < rate:
                self.bw_extra[pipe] = 1.0 / gm_share - 1.0 / rate
        self._memo: dict[tuple[Any, ...], tuple[float, int]] = {}

    def duration(self, ins: Instr, pipe: Pipe) -> tuple[float, int, bool, bool]:
        """``(cycles, bytes, reads GM, writes GM)`` of a work instruction, memoized by shape."""
        reads, writes, cost = ins.reads, ins.writes, ins.cost
        nr = len(reads)
        if len(writes) == 1 and nr <= 2:
            w = writes[0]
            wr = w.space is _GM
            if nr == 0:
                rd, r0, r1 = False, (0, -1), (0, -1)
            elif nr == 1:
                r = reads[0]
                rd, r0, r1 = r.space is _GM, (id(r.space), r.length), (0, -1)
            else:
                ra, rb = reads
                rd = ra.space is _GM or rb.space is _GM
                r0, r1 = (id(ra.space), ra.length), (id(rb.space), rb.length)
            # ids, not the enums: Enum.__hash__ is Python code, ids of singletons are free
            key = (id(pipe), id(w.space), w.length, r0, r1, tuple(cost.items()) if cost else None)
            hit = self._memo.get(key)
            if hit is None:
                hit = self._memo[key] = (self.cycles(ins), _nbytes(ins) if pipe in _MOVERS else 0)
            return hit[0], hit[1], rd, wr
        rd = any(a.space is _GM for a in reads)
        wr = any(a.space is _GM for a in writes)
        return self.cycles(ins), (_nbytes(ins) if pipe in _MOVERS else 0), rd, wr

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
        if any(a.space is _HOST for a in ins.reads) or any(a.space is _HOST for a in ins.writes):
            # zero-copy host memory: the host link's latency and bandwidth, not HBM's
            link = chip.host_link_bandwidth / chip.clock_hz
            return chip.host_link_latency_s * chip.clock_hz + nbytes / min(rate, link)
        if _touches_gm(ins):
            return chip.gm_latency_cycles + nbytes / min(rate, self.gm_share)
        return chip.local_copy_latency_cycles + nbytes / rate


# --- one core ------------------------------------------------------------------------------

_K_WORK, _K_SET, _K_WAIT, _K_BARRIER, _K_FENCE = range(5)
_KIND = {_SET: _K_SET, _WAIT: _K_WAIT, _BARRIER: _K_BARRIER, _SYNC_ALL: _K_FENCE}
_ALL = int(Pipe.ALL)
_S = int(Pipe.S)


def _schedule_core(instrs: Sequence[Instr], costs: _Costs, t0: float, block: int, core: int, wave: int,
                   flag_latency: float, sync_floor: Sequence[float] = (),
                   shared: dict[str, Any] | None = None) -> CoreTimeline:
    """List-schedule one block's instructions on its pipes; raise on deadlock or flag misuse.

    Every instruction is turned into integers first (kind, pipe, dense flag number, the
    ordinal of a wait among the waits of its flag, duration), so the scheduling loop
    touches only lists.  The blocks of an SPMD kernel usually turn into the very same
    integers (only their global addresses differ): ``shared`` keeps the last block's, and
    an identical block reuses its schedule instead of computing the same one again.
    """
    n = len(instrs)
    kinds = [0] * n
    pipes: list[int] = [0] * n
    flag_of = [0] * n  # dense flag number of a set/wait
    wait_ord = [0] * n  # a wait pairs with the set of the same ordinal
    durs = [0.0] * n
    blocking = [False] * n  # holds back the issue of later instructions until it completes
    queues: list[list[int]] = [[] for _ in range(_NPIPES + 1)]
    flag_ids: dict[tuple[int, int, Any], int] = {}
    set_index: list[list[int]] = []  # per flag: its sets, in order
    wait_index: list[list[int]] = []  # per flag: its waits, in order
    kind_of = _KIND.get
    floor_of: dict[int, float] = {}  # sync_all index -> the time every block reaches it
    n_sync = 0
    duration = costs.duration
    jitter = costs.jitter
    uniform = costs.rng.uniform
    bw_extra = costs.bw_extra
    bw_stall = [0.0] * (_NPIPES + 1)
    busy = [0.0] * (_NPIPES + 1)
    gm_read = gm_write = 0
    for i, ins in enumerate(instrs):
        pipe = ins.pipe
        kind = kind_of(ins.op, _K_WORK)
        if kind == _K_WORK:
            d, nb, rd, wr = duration(ins, pipe)
            if jitter is not None:
                d *= uniform(jitter[0], jitter[1])
            durs[i] = d
            busy[pipe] += d
            if rd:
                gm_read += nb
            if wr:
                gm_write += nb
            if nb and (rd or wr):
                bw_stall[pipe] += nb * bw_extra[pipe]
            if pipe == _S:
                blocking[i] = True
        elif kind in (_K_SET, _K_WAIT):
            fk = (id(ins.src), id(ins.dst), ins.event_id)  # ids: Enum.__hash__ is slow
            f = flag_ids.get(fk)
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
            if kind == _K_FENCE:  # sync_all: the k-th one may not pass before sync_floor[k]
                floor_of[i] = sync_floor[n_sync] if n_sync < len(sync_floor) else t0
                n_sync += 1
            kind = _K_FENCE
            pipe = Pipe.ALL
            blocking[i] = True
        kinds[i] = kind
        pipes[i] = pipe
        queues[pipe].append(i)

    floors = tuple(sync_floor)
    if shared is not None:
        sig = shared.get("sig")
        if (sig is not None and sig[0] == kinds and sig[1] == pipes and sig[2] == flag_of and sig[3] == durs
                and sig[4] == t0 and sig[5] == floors):
            same: CoreTimeline = shared["timeline"]
            tl = CoreTimeline(block, core, wave, instrs, same.start, same.end, same.flows, same.busy,
                              same.flag_stall)
            tl.begin, tl.finish = same.begin, same.finish
            tl.gm_read, tl.gm_write, tl.bw_stall = gm_read, gm_write, same.bw_stall
            return tl

    start = [0.0] * n
    end = [0.0] * n
    done = [False] * n  # kept for blocking instructions only (the issue logic reads them)
    issue = [0.0] * n
    stall = [0.0] * (_NPIPES + 1)
    heads = [0] * (_NPIPES + 1)
    pipe_free = [t0] * (_NPIPES + 1)
    set_times: list[list[float]] = [[] for _ in set_index]
    issued = 0  # instructions [0, issued) have an issue time
    issue_clock = t0
    all_pipes = range(_NPIPES + 1)

    def advance_issue() -> None:
        """Give issue times to every instruction up to (and including) the next blocking one."""
        nonlocal issued, issue_clock
        while issued < n:
            if issued > 0 and blocking[issued - 1]:
                if not done[issued - 1]:
                    return
                if end[issued - 1] > issue_clock:
                    issue_clock = end[issued - 1]
            try:
                stop = blocking.index(True, issued) + 1
            except ValueError:
                stop = n
            issue[issued:stop] = [issue_clock] * (stop - issued)
            issued = stop

    advance_issue()
    progress = True
    while progress:
        progress = False
        for p in all_pipes:
            q = queues[p]
            h = h0 = heads[p]
            qlen = len(q)
            free = pipe_free[p]
            while h < qlen:
                i = q[h]
                if i >= issued:
                    break
                kind = kinds[i]
                s = issue[i]
                if free > s:
                    s = free
                if kind == _K_WORK:
                    start[i] = s
                    free = end[i] = s + durs[i]
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
                    done[i] = True
                    heads[p] = h
                    pipe_free[p] = free
                    advance_issue()
            if h != h0:
                progress = True
                heads[p] = h
                pipe_free[p] = free
        advance_issue()
    if sum(heads) < n:
        raise KernelDeadlockError(_deadlock_message(instrs, queues, heads, issued, block),
                                  hint="every wait_flag needs a matching set_flag that can execute first; "
                                  "check the event, the id and the pipe order")
    _check_flags(instrs, set_index, wait_index, set_times, start, block)
    flows = [(sx, wx) for sets, waits in zip(set_index, wait_index, strict=True)
             for sx, wx in zip(sets, waits, strict=True)]
    tl = CoreTimeline(block, core, wave, instrs, start, end, flows, busy[:_NPIPES], stall[:_NPIPES])
    tl.begin = t0
    tl.finish = max(end, default=t0)
    tl.gm_read, tl.gm_write = gm_read, gm_write
    tl.bw_stall = bw_stall[:_NPIPES]
    if shared is not None:
        shared["sig"] = (kinds, pipes, flag_of, durs, t0, floors)
        shared["timeline"] = tl
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
                            hint="pair every set_flag with a wait_flag of the same event and id")
        # lost signal: the (k+1)-th set fired before the k-th wait consumed the k-th
        for k in range(len(sets) - 1):
            if fired[k + 1] < start[waits[k]]:
                a, b = instrs[sets[k]], instrs[sets[k + 1]]
                raise SyncError(f"block {block}: set_flag({name}) at {b.where} fired again before the "
                                f"wait for the one at {a.where} (a lost signal)",
                                hint="wait for a flag before setting it again, or use another event id")


# --- launch --------------------------------------------------------------------------------

def simulate(chip: ChipSpec, cores: Sequence[Sequence[Instr]], *, jitter: tuple[float, float] | None = None,
             seed: int = 0) -> SimReport:
    """Schedule a launch: ``cores[b]`` is the instruction stream recorded by block ``b``.

    ``jitter=(lo, hi)`` scales every instruction's duration by a random factor in
    ``[lo, hi]`` (seeded by ``seed``): runs under randomized latencies show whether a stream's
    synchronization holds for any timing, not just the modeled one.

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
    cap = max(chip.mte2_bytes_per_cycle, chip.mte3_bytes_per_cycle, chip.fixpipe_bytes_per_cycle)
    timelines: list[CoreTimeline] = []
    t = 0.0
    for w in range(waves):
        blocks = range(w * ncores, min((w + 1) * ncores, block_dim))

        def run(share: float, t0: float = t, w: int = w, blocks: range = blocks) -> list[CoreTimeline]:
            costs = _Costs(chip, share, jitter, seed + w)
            if any(has_sync_all):
                return _schedule_with_sync_all(cores, blocks, costs, t0, w, chip.flag_latency_cycles)
            shared: dict[str, Any] = {}
            return [_schedule_core(cores[b], costs, t0, b, b - w * ncores, w, chip.flag_latency_cycles,
                                   shared=shared) for b in blocks]

        wave_tl = _share_hbm(run, _gm_pipes(cores, blocks), hbm, cap, t)
        timelines.extend(wave_tl)
        t = max((tl.finish for tl in wave_tl), default=t)
    return SimReport(chip, block_dim, waves, t, timelines, sum(len(c) for c in cores))


def _gm_pipes(cores: Sequence[Sequence[Instr]], blocks: range) -> int:
    """How many (block, pipe) pairs of the wave move global data: the transfers that may run at once."""
    count = 0
    for b in blocks:
        pipes = set()
        for ins in cores[b]:
            if ins.pipe in _MOVERS and ins.op not in _SYNC_OPS and _touches_gm(ins):
                pipes.add(ins.pipe)
                if len(pipes) == len(_MOVERS):
                    break
        count += len(pipes)
    return count


def _wave_bandwidth(tls: list[CoreTimeline], t0: float) -> float:
    span = max((tl.finish for tl in tls), default=t0) - t0
    moved = sum(tl.gm_read + tl.gm_write for tl in tls)
    return moved / span if span > 0 else 0.0


def _share_hbm(run: Callable[[float], list[CoreTimeline]], gm_pipes: int, hbm: float, cap: float,
               t0: float) -> list[CoreTimeline]:
    """Schedule a wave with the HBM bandwidth shared by its global-memory transfers.

    Start from an even split among every pipe that moves global data (never above the HBM
    bandwidth at any instant).  When pipes move data only part of the time, raise each
    transfer's rate (up to the path rate ``cap``) as long as the wave's global-memory
    traffic over its duration stays within the HBM bandwidth: the transfers that are
    active at a moment share what the idle ones leave.
    """
    low = hbm / gm_pipes if gm_pipes else cap
    tls = run(min(low, cap))
    if low >= cap:
        return tls
    achieved = _wave_bandwidth(tls, t0)
    if achieved <= 0 or achieved >= 0.995 * hbm:
        return tls
    top = run(cap)
    if _wave_bandwidth(top, t0) <= hbm:
        return top
    high = cap
    guess = min(low * hbm / achieved, high)  # proportional first, then bisection
    for _ in range(8):
        trial = run(guess)
        got = _wave_bandwidth(trial, t0)
        if got <= hbm:
            low, tls = guess, trial
            if got >= 0.995 * hbm:
                break
        else:
            high = guess
        if high - low < 0.002 * low:
            break
        guess = (low + high) / 2
    return tls


def _schedule_with_sync_all(cores: Sequence[Sequence[Instr]], blocks: range, costs: _Costs, t0: float,
                            wave: int, flag_latency: float) -> list[CoreTimeline]:
    """Schedule blocks whose streams hold ``sync_all``: the k-th ``sync_all`` of every block
    passes at the latest time any block reaches its k-th one (a fixed point: each round can
    only delay later barriers, so it ends within one round per barrier)."""
    counts = {sum(1 for ins in cores[b] if ins.op == _SYNC_ALL) for b in blocks}
    if len(counts) != 1:
        raise KernelDeadlockError("blocks reach different numbers of sync_all: the barrier never opens",
                                  hint="every block must call sync_all the same number of times")
    nsync = counts.pop()
    floors: list[float] = [t0] * nsync
    for _ in range(nsync + 1):
        shared: dict[str, Any] = {}
        tls = [_schedule_core(cores[b], costs, t0, b, j, wave, flag_latency, floors, shared)
               for j, b in enumerate(blocks)]
        reached = [max(tl.start[i] for tl in tls for i in [_sync_index(tl.instrs, k)]) for k in range(nsync)]
        if reached == floors:
            break
        floors = reached
    return tls


def _sync_index(instrs: Sequence[Instr], k: int) -> int:
    seen = -1
    for i, ins in enumerate(instrs):
        if ins.op == _SYNC_ALL:
            seen += 1
            if seen == k:
                return i
    raise AssertionError("sync_all count changed")
