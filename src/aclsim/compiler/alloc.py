"""``allocate_events``: the method of seed 002 (CN118467183A), physical event IDs for logical
sync points.

1. Split the stream at its strong syncs (``pipe_barrier ALL``, ``sync_all``) into segments.
   At a strong sync everything before has finished, so every event ID is free again (but
   for pending hand-written sets: a strong sync consumes no signal) and a logical pair whose
   set and wait lie in different segments is already ordered by the strong sync: it is
   removed (never a dependence: the strong sync carries it).
2. For each segment, the DAG of its logical sync points (producer on one pipe, consumer on
   another), ordered by the execution order, is represented by vector clocks (one per pipe,
   merged at each wait and barrier, as in :mod:`aclsim.compiler.hb`): "the wait of sync
   point *u* happens before the set of *v*" is one integer comparison.
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
   only (see :class:`_Flat`).  Rewrite logical IDs into physical ones.  Output is
   deterministic.

Programs with loops take the structured variant in :mod:`aclsim.compiler.structured`
(loop-carried pairs hold their ID across the back edge).
"""

from __future__ import annotations

import time
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from aclsim.arch import ChipSpec, get_chip
from aclsim.compiler.hb import NPIPES
from aclsim.compiler.program import Program, SyncError, flag_key, gc_paused
from aclsim.isa import Instr, Pipe

_ALL = int(Pipe.ALL)
_S = int(Pipe.S)
_PIPES = list(Pipe)
DEFAULT_CHIP = "910B"


@dataclass(slots=True)
class AllocStats:
    """Figures of one allocation."""

    pool: int
    method: str = "segments"
    sync_points: int = 0
    segments: int = 1
    ids_used: dict[tuple[Pipe, Pipe], int] = field(default_factory=dict)
    merges: int = 0  # false dependencies: two sync points merged onto one set/wait
    orderings: int = 0  # false dependencies: an ordering pair inserted in the other direction
    cuts: int = 0  # strong syncs inserted (the last resort)
    redundant: int = 0  # logical pairs dropped because a strong sync already orders them
    seconds: float = 0.0

    @property
    def false_dependencies(self) -> int:
        return self.merges + self.orderings

    def summary(self) -> str:
        pairs = ", ".join(f"{p.name}->{q.name}: {n}" for (p, q), n in sorted(self.ids_used.items()))
        return (f"{self.sync_points} sync points, {self.segments} segment(s); IDs per pipe pair "
                f"(pool {self.pool}): {pairs or 'none'}; spills: {self.merges} merge(s), "
                f"{self.orderings} ordering pair(s), {self.cuts} strong sync(s) inserted; "
                f"{self.redundant} pair(s) already ordered by a strong sync removed")


def resolve_pool(chip: ChipSpec | str | None, pool: int | None) -> int:
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
                out = Program(list(_allocate_flat(stream.items, size, stats)), stream.file)  # type: ignore[arg-type]
            else:
                from aclsim.compiler.structured_alloc import allocate_structured

                out = allocate_structured(stream, size, stats)
            stats.seconds = time.perf_counter() - t0
            return out
        result = _allocate_flat(stream, size, stats)
    stats.seconds = time.perf_counter() - t0
    return result


class _Flat:
    """One traversal of a flat stream: the state of steps 2 to 4 of the method.

    Per pipe pair ``pq = p * 7 + q`` and event ID ``k``: ``lw`` the number (on ``q``) of the
    last wait of ``k``, ``lg`` the live group of logical sync points sharing the pending set
    (more than one after a merge), ``ls`` the out index of that set, ``sg`` its signal,
    ``hw`` whether a hand-written set of ``k`` is pending, ``ours`` whether the last wait of
    ``k`` is one the pass placed (a later hand-written set must then be ordered after it).

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
        npp = NPIPES * NPIPES
        self.count = [0] * NPIPES
        self.know = [[0] * NPIPES for _ in range(NPIPES)]
        self.lw: list[list[int] | None] = [None] * npp
        self.lg: list[list[list[int] | None] | None] = [None] * npp
        self.ls: list[list[int] | None] = [None] * npp
        self.sg: list[list[list[int] | None] | None] = [None] * npp
        self.hw: list[list[bool] | None] = [None] * npp
        self.ours: list[list[bool] | None] = [None] * npp
        self.used = [0] * npp
        self.phys: dict[tuple[Any, Any, int], list[int]] = {}  # hand-written flag -> its pending signal
        self.open_key: dict[Any, int] = {}  # logical flag -> its point with a pending set
        self.point_k: list[int] = []  # point -> physical ID
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
            if op == "set_flag" or op == "wait_flag":
                if not ins.logical:
                    p, q, eid = flag_key(ins)
                    if 0 <= eid < pool:
                        self.hand.setdefault(p * NPIPES + q, {}).setdefault(eid, []).append(i)
            elif op == "sync_all" or (op == "pipe_barrier" and ins.pipe is Pipe.ALL):
                self.strong.append(i)
        if self.hand:  # the windows of the logical points matter only next to hand-written flags
            pending: dict[tuple[Any, Any, Any], int] = {}
            for i, ins in enumerate(instrs):
                if ins.logical and ins.op == "set_flag":
                    pending.setdefault((ins.src, ins.dst, ins.event_id), i)
                elif ins.logical and ins.op == "wait_flag":
                    s = pending.pop((ins.src, ins.dst, ins.event_id), -1)
                    if s >= 0:
                        self.wait_at[s] = i
        stats.segments += len(self.strong)

    # --- state --------------------------------------------------------------------------------

    def pair(self, pq: int) -> tuple[list[int], list[list[int] | None], list[int], list[list[int] | None]]:
        a = self.lw[pq]
        if a is None:
            pool = self.pool
            a = self.lw[pq] = [-1] * pool
            self.lg[pq] = [None] * pool
            self.ls[pq] = [-1] * pool
            self.sg[pq] = [None] * pool
            self.hw[pq] = [False] * pool
            self.ours[pq] = [False] * pool
        return a, self.lg[pq], self.ls[pq], self.sg[pq]  # type: ignore[return-value]

    def hold(self) -> None:
        """A scalar read or a wait on PIPE_S held the issue: every pipe learns what S knows."""
        know = self.know
        ks = know[_S]
        ks[_S] = self.count[_S]
        for r in range(NPIPES):
            if r != _S:
                kr = know[r]
                for j in range(NPIPES):
                    if ks[j] > kr[j]:
                        kr[j] = ks[j]

    def drop_live(self) -> int:
        """A strong sync orders every pending logical pair: drop their sets (and later their waits).

        Pairs whose wait is on PIPE_S stay: that wait also holds the issue of what follows it,
        an ordering among instructions after the strong sync that the strong sync does not give.
        Hand-written pairs stay as written.
        """
        n = 0
        out, dropped = self.out, self.dropped
        for pq in range(NPIPES * NPIPES):
            glist, slist = self.lg[pq], self.ls[pq]
            if pq % NPIPES == _S or glist is None or slist is None:
                continue
            for k in range(self.pool):
                group = glist[k]
                if group is not None:
                    out[slist[k]] = None
                    for x in group:
                        dropped[x] = True
                    n += len(group)
        return n

    def reset(self) -> None:
        """After a strong sync: every wait is known complete; only live pairs waited on PIPE_S
        (see :meth:`drop_live`) and pending hand-written sets still hold their IDs."""
        pool = self.pool
        for pq in range(NPIPES * NPIPES):
            a = self.lw[pq]
            if a is not None:
                a[:] = [-1] * pool
                self.ours[pq][:] = [False] * pool  # type: ignore[index]
                if pq % NPIPES == _S:
                    continue
                self.lg[pq][:] = [None] * pool  # type: ignore[index]
                self.ls[pq][:] = [-1] * pool  # type: ignore[index]
                self.sg[pq][:] = [None] * pool  # type: ignore[index]
        for r in range(NPIPES):
            self.know[r] = self.count[:]

    def cut(self, ins: Instr) -> None:
        """Insert ``pipe_barrier ALL`` here: the last resort."""
        self.stats.redundant += self.drop_live()
        self.out.append(Instr(Pipe.ALL, "pipe_barrier", line=ins.line, file=ins.file))
        self.reset()
        self.stats.cuts += 1
        self.stats.segments += 1

    # --- choosing an ID -----------------------------------------------------------------------

    def clear(self, pq: int, k: int, i: int, j: int) -> bool:
        """No hand-written set or wait of ``(pq, k)`` strictly between input positions i and j."""
        pos = self.hand.get(pq, {}).get(k)
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

    def pick(self, pq: int, f: int, i: int, j: int) -> int:
        """An ID of pair ``pq`` free for a point whose set (input position i, knowing ``f``
        instructions of the wait's pipe) and wait (position j) are to be placed, or -1: the
        lowest one, except that next to hand-written flags an ID whose next hand-written use
        lies beyond a strong sync comes first (no ordering needed before that use)."""
        plw, plg = self.lw[pq], self.lg[pq]
        assert plw is not None and plg is not None
        hand = self.hand.get(pq)
        if hand is None:
            for k in range(self.pool):
                if plg[k] is None and plw[k] < f:
                    return k
            return -1
        phw = self.hw[pq]
        assert phw is not None
        fallback = -1
        for k in range(self.pool):
            if plg[k] is None and not phw[k] and plw[k] < f:
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
        count, out = self.count, self.out
        for i, ins in enumerate(self.instrs):
            op = ins.op
            if op == "set_flag":
                if ins.logical:
                    self.set_logical(ins, i)
                else:
                    self.set_hand(ins, i)
            elif op == "wait_flag":
                if ins.logical:
                    self.wait_logical(ins)
                else:
                    self.wait_hand(ins)
            elif op == "pipe_barrier" or op == "sync_all":
                out.append(ins)
                pipe = ins.pipe
                if pipe is Pipe.ALL or op == "sync_all":
                    self.stats.redundant += self.drop_live()
                    self.reset()
                else:
                    self.know[pipe][pipe] = count[pipe]
            else:
                count[ins.pipe] += 1
                if ins.pipe is Pipe.S and ins.reads:
                    self.hold()
                out.append(ins)
        if self.open_key:
            key, pid = min(self.open_key.items(), key=lambda kv: kv[1])
            first = next(x for x in self.instrs if x.op == "set_flag" and x.logical
                         and (x.src, x.dst, x.event_id) == key)
            raise SyncError(f"{first.where}: set_flag {_flag(key)} is never waited", file=first.file,
                            line=first.line)
        stats = self.stats
        stats.sync_points += len(self.point_k)
        for pq in range(NPIPES * NPIPES):
            if self.used[pq]:
                pair = (_PIPES[pq // NPIPES], _PIPES[pq % NPIPES])
                stats.ids_used[pair] = max(self.used[pq], stats.ids_used.get(pair, 0))
        return [x for x in out if x is not None]

    def set_logical(self, ins: Instr, i: int) -> None:
        p: Any = ins.src
        q: Any = ins.dst
        key = (p, q, ins.event_id)
        if key in self.open_key:
            raise SyncError(f"{ins.where}: logical flag {_flag(key)} set twice before its wait",
                            file=ins.file, line=ins.line)
        pid = len(self.point_k)
        self.open_key[key] = pid
        self.point_k.append(-1)
        self.dropped.append(False)
        pq = p * NPIPES + q
        plw, plg, pls, psg = self.pair(pq)
        f = self.count[p] if p == q else self.know[p][q]
        k = -1
        if pq in self.hand:
            j = self.wait_at.get(i, i)  # (never waited: the error comes at the end)
            k = self.pick(pq, f, i, j)
        else:
            j = i
            for x in range(self.pool):
                if plg[x] is None and plw[x] < f:
                    k = x
                    break
        if k < 0:
            k = self.spill(pid, p, q, ins, i, j)
            if k == -2:
                return
        sig = self.know[p][:]
        sig[p] = self.count[p]
        plg[k] = [pid]
        pls[k] = len(self.out)
        psg[k] = sig
        self.point_k[pid] = k
        if k >= self.used[pq]:
            self.used[pq] = k + 1
        self.out.append(Instr(ins.pipe, "set_flag", (), (), p, q, k, False, {}, ins.file, ins.line))

    def wait_logical(self, ins: Instr) -> None:
        p: Any = ins.src
        q: Any = ins.dst
        key = (p, q, ins.event_id)
        pid = self.open_key.pop(key, -1)
        if pid < 0:
            raise SyncError(f"{ins.where}: wait_flag {_flag(key)} has no earlier set_flag",
                            file=ins.file, line=ins.line)
        if self.dropped[pid]:
            return
        if pid in self.barrier_at_wait:
            self.out.append(Instr(Pipe.ALL, "pipe_barrier", line=ins.line, file=ins.file))
            self.stats.redundant += self.drop_live()
            self.reset()
            self.stats.segments += 1
            return
        k = self.point_k[pid]
        pq = p * NPIPES + q
        plw, plg, psg = self.lw[pq], self.lg[pq], self.sg[pq]
        assert plw is not None and plg is not None and psg is not None
        for x in plg[k] or ():
            if x != pid:
                self.dropped[x] = True  # merged: this first wait of the group carries them all
        sig = psg[k]
        assert sig is not None
        kq = self.know[q]
        for r in range(NPIPES):
            if sig[r] > kq[r]:
                kq[r] = sig[r]
        plw[k] = self.count[q]
        if pq in self.hand:  # (only a hand-written set asks whose the last wait was)
            self.ours[pq][k] = True
        self.count[q] += 1
        if q is Pipe.S:
            self.hold()
        plg[k] = None
        psg[k] = None
        self.out.append(Instr(ins.pipe, "wait_flag", (), (), p, q, k, False, {}, ins.file, ins.line))

    def set_hand(self, ins: Instr, i: int) -> None:
        """A hand-written set: kept; its ID is occupied until its wait.  If the previous wait of
        that ID was one the pass placed and is not ordered before this set, order it first."""
        p, q, eid = flag_key(ins)
        if 0 <= eid < self.pool:
            pq = p * NPIPES + q
            plw, plg, _pls, _psg = self.pair(pq)
            assert plg[eid] is None  # the window test keeps logical points off this position
            if self.ours[pq][eid] and p != q and self.know[p][q] <= plw[eid]:  # type: ignore[index]
                self.pair(q * NPIPES + p)
                k3 = self.pick(q * NPIPES + p, self.know[q][p], i, i) if self.order else -1
                if k3 >= 0:
                    self.order_pair(p, q, k3, ins)
                else:
                    self.cut(ins)
            self.hw[pq][eid] = True  # type: ignore[index]
        sig = self.know[p][:]
        sig[p] = self.count[p]
        self.phys[(p, q, eid)] = sig
        self.out.append(ins)

    def wait_hand(self, ins: Instr) -> None:
        p, q, eid = flag_key(ins)
        sig = self.phys.pop((p, q, eid), None)
        kq = self.know[q]
        if sig is not None:
            for r in range(NPIPES):
                if sig[r] > kq[r]:
                    kq[r] = sig[r]
        if 0 <= eid < self.pool:
            pq = p * NPIPES + q
            plw, _plg, _pls, _psg = self.pair(pq)
            self.hw[pq][eid] = False  # type: ignore[index]
            self.ours[pq][eid] = False  # type: ignore[index]
            plw[eid] = self.count[q]
        self.count[q] += 1
        if q == _S:
            self.hold()
        self.out.append(ins)

    # --- shortage -----------------------------------------------------------------------------

    def order_pair(self, p: int, q: int, k2: int, ins: Instr) -> None:
        """``set_flag q p k2`` / ``wait_flag q p k2`` here: every earlier wait on ``q`` (the
        previous uses of ``(p, q)`` IDs) is then ordered before what ``p`` does next."""
        qp = q * NPIPES + p
        qlw, _qlg, _qls, _qsg = self.pair(qp)
        src, dst = _PIPES[q], _PIPES[p]
        count, know = self.count, self.know
        sig = know[q][:]
        sig[q] = count[q]
        self.out.append(Instr(src, "set_flag", (), (), src, dst, k2, False, {}, ins.file, ins.line))
        self.out.append(Instr(dst, "wait_flag", (), (), src, dst, k2, False, {}, ins.file, ins.line))
        kp = know[p]
        for r in range(NPIPES):
            if sig[r] > kp[r]:
                kp[r] = sig[r]
        qlw[k2] = count[p]
        self.ours[qp][k2] = True  # type: ignore[index]
        count[p] += 1
        if p == _S:
            self.hold()
        if k2 >= self.used[qp]:
            self.used[qp] = k2 + 1
        self.stats.orderings += 1

    def spill(self, pid: int, p: int, q: int, ins: Instr, i: int, j: int) -> int:
        """The pool of (p, q) is short at the set of point ``pid`` (input positions i, j of its
        set and wait): return the ID to use, or -2 when the point needs no ID of its own (it
        joined a live group, or becomes a strong sync at its wait)."""
        pool, stats, out = self.pool, self.stats, self.out
        pq = p * NPIPES + q
        plw, plg, pls, psg = self.pair(pq)
        phw = self.hw[pq]
        assert phw is not None
        live = [k for k in range(pool) if plg[k] is not None]
        # (not when the waits are on PIPE_S: a scalar wait holds the issue of what follows it,
        # so dropping the later wait of the group would drop an ordering)
        if self.merge and live and q != _S:
            # merge with the live point whose set is the latest: one set here, and the first
            # wait of the group (the earlier consumer) now carries every dependence of it; the
            # group's window only shrinks, so its ID stays clear of hand-written uses
            k = max(live, key=lambda k: pls[k])
            out[pls[k]] = None
            plg[k].append(pid)  # type: ignore[union-attr]
            sig = self.know[p][:]
            sig[p] = self.count[p]
            pls[k] = len(out)
            psg[k] = sig
            self.point_k[pid] = k
            stats.merges += 1
            out.append(Instr(ins.pipe, "set_flag", (), (), ins.src, ins.dst, k, False, {}, ins.file,
                             ins.line))
            return -2
        # the IDs a cut frees (not held by a pending hand-written set, no hand-written use of
        # them between this set and its wait); of those, the ones no live pair holds need only
        # their previous waits ordered before this set, which an ordering pair does
        if pq in self.hand:
            cuttable: Sequence[int] = [k for k in range(pool) if not phw[k] and self.clear(pq, k, i, j)]
            helps = any(plg[k] is None for k in cuttable)
        else:
            cuttable, helps = range(pool), len(live) < pool
        if self.order and p != q and helps:
            # order every earlier wait of (p, q) before this set: set_flag q p / wait_flag q p here
            qp = q * NPIPES + p
            _qlw, qlg, qls, qsg = self.pair(qp)
            k2 = self.pick(qp, self.know[q][p], i, i)
            if k2 < 0 and self.merge and p != _S:
                qlive = [k for k in range(pool) if qlg[k] is not None]
                if qlive:  # take over the live (q, p) group: the wait inserted here covers its consumers
                    k2 = max(qlive, key=lambda k: qls[k])
                    out[qls[k2]] = None
                    for x in qlg[k2]:  # type: ignore[union-attr]
                        self.dropped[x] = True
                    qlg[k2] = None
                    qsg[k2] = None
                    stats.merges += 1
            if k2 >= 0:
                self.order_pair(p, q, k2, ins)
                k = self.pick(pq, self.know[p][q], i, j)
                if k >= 0:
                    return k
        if q == _S or not cuttable:
            # every ID is held by a pair a cut cannot free (a live pair waited on PIPE_S, a
            # pending hand-written set) or used by hand between this set and its wait: the
            # point becomes a strong sync at its wait (its set goes)
            self.barrier_at_wait.add(pid)
            stats.cuts += 1
            return -2
        # last resort: a strong sync cuts the segment; the pairs it straddles become redundant
        self.cut(ins)
        k = self.pick(pq, self.count[p] if p == q else self.know[p][q], i, j)
        assert k >= 0
        return k


def _allocate_flat(instrs: Sequence[Instr], pool: int, stats: AllocStats,
                   merge: bool = True, order: bool = True) -> list[Instr]:
    return _Flat(instrs, pool, stats, merge, order).run()


def _flag(key: tuple[Any, Any, Any]) -> str:
    return f"{_PIPES[key[0]].name} {_PIPES[key[1]].name} L{key[2]}"
