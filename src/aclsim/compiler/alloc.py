"""``allocate_events``: the method of seed 002 (CN118467183A), physical event IDs for logical
sync points.

1. Split the stream at its strong syncs (``pipe_barrier ALL``, ``sync_all``) into segments.
   At a strong sync everything before has finished, so every event ID is free again (but
   for pending hand-written sets: a strong sync consumes no signal) and a logical pair whose
   set and wait lie in different segments is already ordered by the strong sync: it is
   removed (never a dependence: the strong sync carries it).
2. For each segment, the DAG of its logical sync points (producer on one pipe, consumer on
   another), ordered by the execution order, is represented by the vector clocks of
   :mod:`aclsim.compiler.clock` (one per pipe, merged at each wait and barrier): "the wait
   of sync point *u* happens before the set of *v*" is one integer comparison.
3. Traverse the segment in program order (a topological order of the DAG): at each set,
   give the sync point the lowest ID of its pipe pair's pool whose previous use's wait is
   ordered before this set (a flag is one signal deep, so only then can the ID be reused);
   at each wait, release it.  Sets of one pipe pair are met in the order of their left
   ends, so this is the left-edge algorithm: it uses exactly the interval lower bound
   (:func:`aclsim.compiler.baselines.lower_bound`) when that fits the pool.
4. When the pool is short: first reuse an ID by adding an ordering (a false dependency):
   merge with the live sync point of the same pair whose set is the latest (one set, at the
   later producer, and one wait, at the earlier consumer, now carry both dependences); if no
   point is live, order the wait side before this set with a pair in the other direction
   (``set_flag Q P`` / ``wait_flag Q P`` just before the set).  As a last resort insert a
   strong sync that cuts the segment (the pairs it straddles are now redundant and removed),
   or, when no cut can free an ID (pending hand-written sets, live pairs waited on PIPE_S),
   turn the point into a strong sync at its wait.  No dependence is ever dropped, and no
   legal program is refused.
5. Hand-written (physical) flags are kept; their ID is taken from their set to their wait
   only (see :class:`_FlatAllocator`).  Rewrite logical IDs into physical ones.  Output is
   deterministic.

Programs with loops take the structured variant in :mod:`aclsim.compiler.structured_alloc`
(loop-carried pairs hold their ID across the back edge).
"""

from __future__ import annotations

import time
from bisect import bisect_right
from collections.abc import Sequence
from typing import overload

from aclsim.arch import ChipSpec, get_chip
from aclsim.compiler.clock import NPIPES, PIPE_INDEX, Clock
from aclsim.compiler.program import Program
from aclsim.compiler.structured_alloc import allocate_structured
from aclsim.compiler.types import (
    BARRIER_OPS,
    FLAG_OPS,
    PIPE_BARRIER,
    SET_FLAG,
    SYNC_ALL,
    WAIT_FLAG,
    AllocStats,
    FlagKey,
    flag_key,
    gc_paused,
    sync_error,
)
from aclsim.isa import NO_COST, Instr, Pipe

_S = int(Pipe.S)
_PIPES = list(Pipe)
DEFAULT_CHIP = "910B"

__all__ = ["DEFAULT_CHIP", "AllocStats", "allocate_events", "allocate_flat", "resolve_pool"]


def resolve_pool(chip: ChipSpec | str | None, pool: int | None) -> int:
    """The event IDs per pipe pair: ``pool`` if given, else the chip's (default 910B)."""
    if pool is not None:
        if pool <= 0:
            raise ValueError(f"pool must be > 0, got {pool}")
        return pool
    return get_chip(chip if chip is not None else DEFAULT_CHIP).events_per_pipe_pair


@overload
def allocate_events(stream: Program, chip: ChipSpec | str | None = ..., *, pool: int | None = ...,
                    stats: AllocStats | None = ...) -> Program: ...


@overload
def allocate_events(stream: Sequence[Instr], chip: ChipSpec | str | None = ..., *, pool: int | None = ...,
                    stats: AllocStats | None = ...) -> list[Instr]: ...


def allocate_events(stream: Program | Sequence[Instr], chip: ChipSpec | str | None = None, *,
                    pool: int | None = None, stats: AllocStats | None = None) -> Program | list[Instr]:
    """Give every logical sync point a physical event ID; returns a new stream of the same form.

    Parameters
    ----------
    stream
        A recorded ``list[Instr]`` or a :class:`~aclsim.compiler.program.Program` with logical
        ``set_flag``/``wait_flag`` pairs (physical ones are kept; their ID is taken from their
        set to their wait).
    chip
        Chip preset or spec; its ``events_per_pipe_pair`` is the pool (default 910B: 8).
    pool
        Overrides the chip's pool size.
    stats
        Filled with the figures of the run (IDs per pipe pair, segments, spills).

    >>> from aclsim.compiler.text import parse, format_program
    >>> prog = parse("MTE2 ld w:UB[0:64]\\nset_flag MTE2 V L7\\nwait_flag MTE2 V L7\\nV add r:UB[0:64]")
    >>> print(format_program(allocate_events(prog)), end="")
    MTE2 ld w:UB[0:64]
    set_flag MTE2 V 0
    wait_flag MTE2 V 0
    V add r:UB[0:64]
    """
    size = resolve_pool(chip, pool)
    stats = stats if stats is not None else AllocStats(size)
    stats.pool = size
    t0 = time.perf_counter()
    with gc_paused():
        if isinstance(stream, Program):
            if stream.is_flat:
                out = Program(list(allocate_flat(stream.items, size, stats)), stream.file)  # type: ignore[arg-type]
            else:
                out = allocate_structured(stream, size, stats)
            stats.seconds = time.perf_counter() - t0
            return out
        result = allocate_flat(stream, size, stats)
    stats.seconds = time.perf_counter() - t0
    return result


def allocate_flat(instrs: Sequence[Instr], pool: int, stats: AllocStats, *, merge: bool = True,
                  order: bool = True) -> list[Instr]:
    """The seed's method on a flat stream (what :func:`allocate_events` runs on one).

    ``merge=False`` / ``order=False`` leave out those spills (a shortage then cuts with a
    strong sync): the variants the tests and the baselines compare.
    """
    return _FlatAllocator(instrs, pool, stats, merge, order).run()


class _Pair:
    """The event IDs of one pipe pair during the traversal: per ID ``k``, what holds it."""

    __slots__ = ("last_wait", "group", "set_at", "signal", "hand_set", "ours", "used", "hand")

    def __init__(self, pool: int, hand: dict[int, list[int]] | None) -> None:
        #: number (on the destination pipe) of the last wait of k since the last strong sync
        self.last_wait = [-1] * pool
        #: the live logical sync points sharing k's pending set (more than one after a merge)
        self.group: list[list[int] | None] = [None] * pool
        #: out index of that set, and its signal
        self.set_at = [-1] * pool
        self.signal: list[list[int] | None] = [None] * pool
        #: a hand-written set of k is pending
        self.hand_set = [False] * pool
        #: the last wait of k is one the pass placed (a later hand-written set must follow it)
        self.ours = [False] * pool
        #: IDs taken so far (1 + the highest)
        self.used = 0
        #: input positions of the hand-written sets and waits of each k (None: no hand-written flag)
        self.hand = hand

    def reset(self, waited_on_s: bool) -> None:
        """After a strong sync: every wait is known complete; only live pairs waited on PIPE_S
        and pending hand-written sets still hold their IDs."""
        pool = len(self.last_wait)
        self.last_wait[:] = [-1] * pool
        self.ours[:] = [False] * pool
        if not waited_on_s:
            self.group[:] = [None] * pool
            self.set_at[:] = [-1] * pool
            self.signal[:] = [None] * pool


class _FlatAllocator:
    """One traversal of a flat stream: the state of steps 2 to 4 of the method.

    The clock (:class:`~aclsim.compiler.clock.Clock`) is the DAG of the segment; ``pairs``
    holds, per pipe pair ``pq = src * 7 + dst``, the state of its event IDs (:class:`_Pair`);
    the logical sync points are numbered in the order of their sets (``point_id``: the ID
    each got; ``dropped``: its wait is not emitted, merged away or made redundant).

    Hand-written (physical) flags are kept as written; their ID is occupied from their set
    to their wait only, across strong syncs too (a strong sync consumes no signal).  A
    logical point may take such an ID when no hand-written set or wait of it lies between the
    point's set and wait, preferring IDs whose next hand-written use lies beyond a strong
    sync; a hand-written set whose previous wait was the pass's gets an ordering pair (or,
    with no ID for it, a strong sync) before it when it is not ordered after that wait.
    """

    def __init__(self, instrs: Sequence[Instr], pool: int, stats: AllocStats, merge: bool,
                 order: bool) -> None:
        self.instrs = instrs
        self.pool = pool
        self.stats = stats
        self.merge = merge
        self.order = order
        self.clock = Clock()
        self.pairs: list[_Pair | None] = [None] * (NPIPES * NPIPES)
        self.phys: dict[FlagKey, list[int]] = {}  # hand-written flag -> its pending signal
        self.open_key: dict[FlagKey, int] = {}  # logical flag -> its point with a pending set
        self.point_id: list[int] = []  # point -> physical ID
        self.dropped: list[bool] = []  # point -> its wait is not emitted (merged away or made redundant)
        self.barrier_at_wait: set[int] = set()  # points that became a strong sync at their wait
        self.out: list[Instr | None] = []
        # input positions: of the hand-written sets and waits per pair and ID, of the wait of
        # each logical set, of the strong syncs
        self.hand: dict[int, dict[int, list[int]]] = {}
        self.wait_at: dict[int, int] = {}
        self.strong: list[int] = []
        for i, ins in enumerate(instrs):
            op = ins.op
            if op in FLAG_OPS:
                if not ins.logical:
                    p, q, eid = flag_key(ins)
                    if 0 <= eid < pool:
                        self.hand.setdefault(p * NPIPES + q, {}).setdefault(eid, []).append(i)
            elif op == SYNC_ALL or (op == PIPE_BARRIER and ins.pipe is Pipe.ALL):
                self.strong.append(i)
        if self.hand:  # the windows of the logical points matter only next to hand-written flags
            pending: dict[FlagKey, int] = {}
            for i, ins in enumerate(instrs):
                if ins.logical and ins.op == SET_FLAG:
                    pending.setdefault(flag_key(ins), i)
                elif ins.logical and ins.op == WAIT_FLAG:
                    s = pending.pop(flag_key(ins), -1)
                    if s >= 0:
                        self.wait_at[s] = i
        stats.segments += len(self.strong)

    # --- state --------------------------------------------------------------------------------

    def pair(self, pq: int) -> _Pair:
        pair = self.pairs[pq]
        if pair is None:
            pair = self.pairs[pq] = _Pair(self.pool, self.hand.get(pq))
        return pair

    def drop_live(self) -> int:
        """A strong sync orders every pending logical pair: drop their sets (and later their waits).

        Pairs whose wait is on PIPE_S stay: that wait also holds the issue of what follows it,
        an ordering among instructions after the strong sync that the strong sync does not give.
        Hand-written pairs stay as written.
        """
        n = 0
        out, dropped = self.out, self.dropped
        for pq, pair in enumerate(self.pairs):
            if pair is None or pq % NPIPES == _S:
                continue
            for k, group in enumerate(pair.group):
                if group is not None:
                    out[pair.set_at[k]] = None
                    for x in group:
                        dropped[x] = True
                    n += len(group)
        return n

    def reset(self) -> None:
        """After a strong sync (see :meth:`_Pair.reset`)."""
        for pq, pair in enumerate(self.pairs):
            if pair is not None:
                pair.reset(pq % NPIPES == _S)
        self.clock.strong()

    def cut(self, ins: Instr) -> None:
        """Insert ``pipe_barrier ALL`` here: the last resort."""
        self.stats.redundant += self.drop_live()
        self.out.append(Instr(Pipe.ALL, PIPE_BARRIER, line=ins.line, file=ins.file))
        self.reset()
        self.stats.cuts += 1
        self.stats.segments += 1

    # --- choosing an ID -----------------------------------------------------------------------

    def clear(self, pair: _Pair, k: int, i: int, j: int) -> bool:
        """No hand-written set or wait of ``k`` strictly between input positions i and j."""
        pos = pair.hand.get(k) if pair.hand is not None else None
        if pos is None:
            return True
        b = bisect_right(pos, i)
        return b >= len(pos) or pos[b] >= j

    def safe(self, pos: list[int], j: int) -> bool:
        """The next hand-written use after position ``j`` lies beyond a strong sync (or none)."""
        b = bisect_right(pos, j)
        if b >= len(pos):
            return True
        strong = self.strong
        c = bisect_right(strong, j)
        return c < len(strong) and strong[c] < pos[b]

    def pick(self, pair: _Pair, f: int, i: int, j: int) -> int:
        """An ID of ``pair`` free for a point whose set (input position i, knowing ``f``
        instructions of the wait's pipe) and wait (position j) are to be placed, or -1: the
        lowest one, except that next to hand-written flags an ID whose next hand-written use
        lies beyond a strong sync comes first (no ordering needed before that use)."""
        last_wait, group = pair.last_wait, pair.group
        hand = pair.hand
        if hand is None:
            for k in range(self.pool):
                if group[k] is None and last_wait[k] < f:
                    return k
            return -1
        hand_set = pair.hand_set
        fallback = -1
        for k in range(self.pool):
            if group[k] is None and not hand_set[k] and last_wait[k] < f:
                pos = hand.get(k)
                if pos is None:
                    return k
                b = bisect_right(pos, i)
                if b < len(pos) and pos[b] < j:
                    continue  # a hand-written use of k inside the point's window
                if self.safe(pos, j):
                    return k
                if fallback < 0:
                    fallback = k
        return fallback

    # --- the stream ---------------------------------------------------------------------------

    def run(self) -> list[Instr]:
        clock, out, pipe_index = self.clock, self.out, PIPE_INDEX
        for i, ins in enumerate(self.instrs):
            op = ins.op
            if op == SET_FLAG:
                if ins.logical:
                    self.set_logical(ins, i)
                else:
                    self.set_hand(ins, i)
            elif op == WAIT_FLAG:
                if ins.logical:
                    self.wait_logical(ins)
                else:
                    self.wait_hand(ins)
            elif op in BARRIER_OPS:
                out.append(ins)
                if ins.pipe is Pipe.ALL or op == SYNC_ALL:
                    self.stats.redundant += self.drop_live()
                    self.reset()
                else:
                    clock.barrier(ins.pipe)
            else:
                clock.work(pipe_index[ins.pipe], ins.reads)
                out.append(ins)
        if self.open_key:
            key, _ = min(self.open_key.items(), key=lambda kv: kv[1])
            first = next(x for x in self.instrs if x.op == SET_FLAG and x.logical and flag_key(x) == key)
            raise sync_error(first, f"set_flag {_flag(key)} is never waited")
        stats = self.stats
        stats.sync_points += len(self.point_id)
        for pq, pair in enumerate(self.pairs):
            if pair is not None and pair.used:
                pipes = (_PIPES[pq // NPIPES], _PIPES[pq % NPIPES])
                stats.ids_used[pipes] = max(pair.used, stats.ids_used.get(pipes, 0))
        return [x for x in out if x is not None]

    def set_logical(self, ins: Instr, i: int) -> None:
        p, q = PIPE_INDEX[ins.src], PIPE_INDEX[ins.dst]  # type: ignore[index]
        key: FlagKey = (p, q, ins.event_id)  # type: ignore[assignment]  # (a flag's ID is an int)
        if key in self.open_key:
            raise sync_error(ins, f"logical flag {_flag(key)} set twice before its wait")
        point = len(self.point_id)
        self.open_key[key] = point
        self.point_id.append(-1)
        self.dropped.append(False)
        pair = self.pairs[p * NPIPES + q] or self.pair(p * NPIPES + q)
        clock = self.clock
        f = clock.count[p] if p == q else clock.know[p][q]
        # the wait's position matters only next to hand-written flags (never waited: the error
        # comes at the end)
        j = self.wait_at.get(i, i) if pair.hand is not None else i
        k = self.pick(pair, f, i, j)
        if k < 0:
            k = self.spill(point, p, q, ins, i, j)
            if k == -2:
                return
        pair.group[k] = [point]
        pair.set_at[k] = len(self.out)
        pair.signal[k] = clock.signal(p)
        self.point_id[point] = k
        if k >= pair.used:
            pair.used = k + 1
        self.out.append(Instr(ins.pipe, SET_FLAG, (), (), ins.src, ins.dst, k, False, NO_COST, ins.file,
                              ins.line))

    def wait_logical(self, ins: Instr) -> None:
        p, q = PIPE_INDEX[ins.src], PIPE_INDEX[ins.dst]  # type: ignore[index]
        key: FlagKey = (p, q, ins.event_id)  # type: ignore[assignment]  # (a flag's ID is an int)
        point = self.open_key.pop(key, -1)
        if point < 0:
            raise sync_error(ins, f"wait_flag {_flag(key)} has no earlier set_flag")
        if self.dropped[point]:
            return
        if point in self.barrier_at_wait:
            self.out.append(Instr(Pipe.ALL, PIPE_BARRIER, line=ins.line, file=ins.file))
            self.stats.redundant += self.drop_live()
            self.reset()
            self.stats.segments += 1
            return
        k = self.point_id[point]
        pair = self.pairs[p * NPIPES + q]
        assert pair is not None
        for x in pair.group[k] or ():
            if x != point:
                self.dropped[x] = True  # merged: this first wait of the group carries them all
        sig = pair.signal[k]
        assert sig is not None
        pair.last_wait[k] = self.clock.wait(q, sig)
        if pair.hand is not None:  # (only a hand-written set asks whose the last wait was)
            pair.ours[k] = True
        pair.group[k] = None
        pair.signal[k] = None
        self.out.append(Instr(ins.pipe, WAIT_FLAG, (), (), ins.src, ins.dst, k, False, NO_COST, ins.file,
                              ins.line))

    def set_hand(self, ins: Instr, i: int) -> None:
        """A hand-written set: kept; its ID is occupied until its wait.  If the previous wait of
        that ID was one the pass placed and is not ordered before this set, order it first."""
        p, q, eid = key = flag_key(ins)
        if 0 <= eid < self.pool:
            pair = self.pair(p * NPIPES + q)
            assert pair.group[eid] is None  # the window test keeps logical points off this position
            if pair.ours[eid] and p != q and self.clock.know[p][q] <= pair.last_wait[eid]:
                back = self.pair(q * NPIPES + p)
                k3 = self.pick(back, self.clock.know[q][p], i, i) if self.order else -1
                if k3 >= 0:
                    self.order_pair(p, q, k3, ins)
                else:
                    self.cut(ins)
            pair.hand_set[eid] = True
        self.phys[key] = self.clock.signal(p)
        self.out.append(ins)

    def wait_hand(self, ins: Instr) -> None:
        p, q, eid = key = flag_key(ins)
        n = self.clock.wait(q, self.phys.pop(key, None))
        if 0 <= eid < self.pool:
            pair = self.pair(p * NPIPES + q)
            pair.hand_set[eid] = False
            pair.ours[eid] = False
            pair.last_wait[eid] = n
        self.out.append(ins)

    # --- shortage -----------------------------------------------------------------------------

    def order_pair(self, p: int, q: int, k: int, ins: Instr) -> None:
        """``set_flag q p k`` / ``wait_flag q p k`` here: every earlier wait on ``q`` (the
        previous uses of ``(p, q)`` IDs) is then ordered before what ``p`` does next."""
        back = self.pair(q * NPIPES + p)
        src, dst = _PIPES[q], _PIPES[p]
        sig = self.clock.signal(q)
        self.out.append(Instr(src, SET_FLAG, (), (), src, dst, k, False, NO_COST, ins.file, ins.line))
        self.out.append(Instr(dst, WAIT_FLAG, (), (), src, dst, k, False, NO_COST, ins.file, ins.line))
        back.last_wait[k] = self.clock.wait(p, sig)
        back.ours[k] = True
        if k >= back.used:
            back.used = k + 1
        self.stats.orderings += 1

    def merge_into(self, pair: _Pair, point: int, p: int, ins: Instr) -> None:
        """Merge point ``point`` with the live point of ``pair`` whose set is the latest: one set
        here, and the first wait of the group (the earlier consumer) now carries every
        dependence of it; the group's window only shrinks, so its ID stays clear of
        hand-written uses."""
        out = self.out
        k = max((k for k in range(self.pool) if pair.group[k] is not None), key=lambda k: pair.set_at[k])
        out[pair.set_at[k]] = None
        pair.group[k].append(point)  # type: ignore[union-attr]
        pair.set_at[k] = len(out)
        pair.signal[k] = self.clock.signal(p)
        self.point_id[point] = k
        self.stats.merges += 1
        out.append(Instr(ins.pipe, SET_FLAG, (), (), ins.src, ins.dst, k, False, NO_COST, ins.file, ins.line))

    def take_over(self, back: _Pair) -> int:
        """Drop the live group of ``back`` whose set is the latest (an ordering pair placed here
        covers its consumers); return its ID, or -1 when none is live."""
        live = [k for k in range(self.pool) if back.group[k] is not None]
        if not live:
            return -1
        k = max(live, key=lambda k: back.set_at[k])
        self.out[back.set_at[k]] = None
        for x in back.group[k]:  # type: ignore[union-attr]
            self.dropped[x] = True
        back.group[k] = None
        back.signal[k] = None
        self.stats.merges += 1
        return k

    def spill(self, point: int, p: int, q: int, ins: Instr, i: int, j: int) -> int:
        """The pool of (p, q) is short at the set of point ``point`` (input positions i, j of
        its set and wait): return the ID to use, or -2 when the point needs no ID of its own
        (it joined a live group, or becomes a strong sync at its wait)."""
        pool, clock = self.pool, self.clock
        pair = self.pair(p * NPIPES + q)
        live = sum(1 for g in pair.group if g is not None)
        # (not when the waits are on PIPE_S: a scalar wait holds the issue of what follows it,
        # so dropping the later wait of the group would drop an ordering)
        if self.merge and live and q != _S:
            self.merge_into(pair, point, p, ins)
            return -2
        # the IDs a cut frees (not held by a pending hand-written set, no hand-written use of
        # them between this set and its wait); of those, the ones no live pair holds need only
        # their previous waits ordered before this set, which an ordering pair does
        if pair.hand is not None:
            cuttable: Sequence[int] = [k for k in range(pool)
                                       if not pair.hand_set[k] and self.clear(pair, k, i, j)]
            helps = any(pair.group[k] is None for k in cuttable)
        else:
            cuttable, helps = range(pool), live < pool
        if self.order and p != q and helps:
            # order every earlier wait of (p, q) before this set: set_flag q p / wait_flag q p here
            back = self.pair(q * NPIPES + p)
            k2 = self.pick(back, clock.know[q][p], i, i)
            if k2 < 0 and self.merge and p != _S:
                k2 = self.take_over(back)
            if k2 >= 0:
                self.order_pair(p, q, k2, ins)
                k = self.pick(pair, clock.know[p][q], i, j)
                if k >= 0:
                    return k
        if q == _S or not cuttable:
            # every ID is held by a pair a cut cannot free (a live pair waited on PIPE_S, a
            # pending hand-written set) or used by hand between this set and its wait: the
            # point becomes a strong sync at its wait (its set goes)
            self.barrier_at_wait.add(point)
            self.stats.cuts += 1
            return -2
        # last resort: a strong sync cuts the segment; the pairs it straddles become redundant
        self.cut(ins)
        k = self.pick(pair, clock.count[p] if p == q else clock.know[p][q], i, j)
        assert k >= 0
        return k


def _flag(key: FlagKey) -> str:
    return f"{_PIPES[key[0]].name} {_PIPES[key[1]].name} L{key[2]}"
