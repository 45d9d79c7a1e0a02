"""``allocate_events``: the method of seed 002 (CN118467183A), physical event IDs for logical
sync points.

1. Split the stream at its strong syncs (``pipe_barrier ALL``, ``sync_all``) into segments.
   At a strong sync everything before has finished, so every event ID is free again and a
   logical pair whose set and wait lie in different segments is already ordered by the
   strong sync: it is removed (never a dependence: the strong sync carries it).
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
   strong sync that cuts the segment (the pairs it straddles are now redundant and removed).
   No dependence is ever dropped.
5. Rewrite logical IDs into physical ones.  Output is deterministic.

Programs with loops take the structured variant in :mod:`aclsim.compiler.structured`
(loop-carried pairs hold their ID across the back edge).
"""

from __future__ import annotations

import time
from collections.abc import Container, Sequence
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
        ``set_flag``/``wait_flag`` pairs (physical ones are kept and their IDs reserved).
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
                from aclsim.compiler.structured import allocate_structured

                out = allocate_structured(stream, size, stats)
            stats.seconds = time.perf_counter() - t0
            return out
        result = _allocate_flat(stream, size, stats)
    stats.seconds = time.perf_counter() - t0
    return result


def _lowest_free(lw: list[int], lg: list[list[int] | None], f: int, reserved: Container[int] | None) -> int:
    for k in range(len(lw)):
        if lg[k] is None and lw[k] < f and (reserved is None or k not in reserved):
            return k
    return -1


def _allocate_flat(instrs: Sequence[Instr], pool: int, stats: AllocStats,
                   merge: bool = True, order: bool = True) -> list[Instr]:
    set_op, wait_op, bar_op, all_op = "set_flag", "wait_flag", "pipe_barrier", "sync_all"
    npp = NPIPES * NPIPES
    p: Any  # pipes (IntEnum members index lists directly: no int() in the hot loop)
    q: Any
    sig: Any
    # physical IDs written by hand are reserved in the segments that use them
    reserved_by_seg: dict[int, dict[int, set[int]]] = {}
    seg = 0
    for ins in instrs:
        op = ins.op
        if op in (set_op, wait_op):
            if not ins.logical:
                p, q, eid = flag_key(ins)
                reserved_by_seg.setdefault(seg, {}).setdefault(p * NPIPES + q, set()).add(eid)
        elif op == all_op or (op == bar_op and ins.pipe is Pipe.ALL):
            seg += 1
    stats.segments += seg
    seg = 0
    reserved = reserved_by_seg.get(0, {})
    # the traversal: one vector clock per pipe (the segment's DAG of sync points, implicitly)
    count = [0] * NPIPES
    know = [[0] * NPIPES for _ in range(NPIPES)]
    # per pipe pair (p * 7 + q) and ID: number of the last wait, the live group of sync points
    # sharing the pending set (more than one after a merge), out index of that set, its signal
    lw: list[list[int] | None] = [None] * npp
    lg: list[list[list[int] | None] | None] = [None] * npp
    ls: list[list[int] | None] = [None] * npp
    sg: list[list[list[int] | None] | None] = [None] * npp
    used = [0] * npp
    phys: dict[Any, list[int]] = {}
    open_key: dict[Any, int] = {}  # logical flag -> its point with a pending set
    point_k: list[int] = []  # point -> physical ID
    dropped: list[bool] = []  # point -> its wait is not emitted (merged away or made redundant)
    barrier_at_wait: set[int] = set()  # points that became a strong sync at their wait
    out: list[Instr | None] = []

    def hold() -> None:
        """A scalar read or a wait on PIPE_S held the issue: every pipe learns what S knows."""
        ks = know[_S]
        ks[_S] = count[_S]
        for r in range(NPIPES):
            if r != _S:
                kr = know[r]
                for j in range(NPIPES):
                    if ks[j] > kr[j]:
                        kr[j] = ks[j]

    def pair_state(pq: int) -> tuple[list[int], list[list[int] | None], list[int], list[list[int] | None]]:
        a = lw[pq]
        if a is None:
            a = lw[pq] = [-1] * pool
            lg[pq] = [None] * pool
            ls[pq] = [-1] * pool
            sg[pq] = [None] * pool
        return a, lg[pq], ls[pq], sg[pq]  # type: ignore[return-value]

    def drop_live() -> int:
        """A strong sync orders every pending pair: drop their sets (and later their waits).

        Pairs whose wait is on PIPE_S stay: that wait also holds the issue of what follows it,
        an ordering among instructions after the strong sync that the strong sync does not give.
        """
        n = 0
        for pq in range(npp):
            if pq % NPIPES == _S:
                continue
            glist, slist = lg[pq], ls[pq]
            if glist is None or slist is None:
                continue
            for k in range(pool):
                group = glist[k]
                if group is not None:
                    out[slist[k]] = None
                    for x in group:
                        dropped[x] = True
                    n += len(group)
        return n

    def reset() -> None:
        for pq in range(npp):
            a = lw[pq]
            if a is not None:
                a[:] = [-1] * pool
                if pq % NPIPES == _S:  # live scalar-wait pairs survive (see drop_live)
                    continue
                lg[pq][:] = [None] * pool  # type: ignore[index]
                ls[pq][:] = [-1] * pool  # type: ignore[index]
                sg[pq][:] = [None] * pool  # type: ignore[index]
        for r in range(NPIPES):
            know[r] = count[:]

    def spill(pid: int, p: int, q: int, ins: Instr) -> int:
        """The pool of (p, q) is short at the set of point ``pid``: return the ID to use, or -2
        when the point joined a live group (its set then already emitted)."""
        pq = p * NPIPES + q
        plw, plg, pls, psg = pair_state(pq)
        res = reserved.get(pq)
        live = [k for k in range(pool) if plg[k] is not None]
        # (not when the waits are on PIPE_S: a scalar wait holds the issue of what follows it,
        # so dropping the later wait of the group would drop an ordering)
        if merge and live and q != _S:
            # merge with the live point whose set is the latest: one set here, and the first
            # wait of the group (the earlier consumer) now carries every dependence of it
            k = max(live, key=lambda k: pls[k])
            out[pls[k]] = None
            plg[k].append(pid)  # type: ignore[union-attr]
            sig = know[p][:]
            sig[p] = count[p]
            pls[k] = len(out)
            psg[k] = sig
            point_k[pid] = k
            stats.merges += 1
            out.append(Instr(ins.pipe, set_op, (), (), ins.src, ins.dst, k, False, {}, ins.file, ins.line))
            return -2
        if order and p != q:
            # order every earlier wait of (p, q) before this set: set_flag q p / wait_flag q p here
            qp = q * NPIPES + p
            qlw, qlg, qls, qsg = pair_state(qp)
            k2 = _lowest_free(qlw, qlg, know[q][p], reserved.get(qp))
            if k2 < 0 and merge and p != _S:
                qlive = [k for k in range(pool) if qlg[k] is not None]
                if qlive:  # take over the live (q, p) group: the wait inserted here covers its consumers
                    k2 = max(qlive, key=lambda k: qls[k])
                    out[qls[k2]] = None
                    for x in qlg[k2]:  # type: ignore[union-attr]
                        dropped[x] = True
                    qlg[k2] = None
                    qsg[k2] = None
                    stats.merges += 1
            if k2 >= 0:
                src, dst = _PIPES[q], _PIPES[p]
                sig = know[q][:]
                sig[q] = count[q]
                out.append(Instr(src, set_op, (), (), src, dst, k2, False, {}, ins.file, ins.line))
                out.append(Instr(dst, wait_op, (), (), src, dst, k2, False, {}, ins.file, ins.line))
                kp = know[p]
                for r in range(NPIPES):
                    if sig[r] > kp[r]:
                        kp[r] = sig[r]
                qlw[k2] = count[p]
                count[p] += 1
                if p == _S:
                    hold()
                if k2 >= used[qp]:
                    used[qp] = k2 + 1
                stats.orderings += 1
                k = _lowest_free(plw, plg, know[p][q], res)
                if k >= 0:
                    return k
        if q == _S:
            # every ID of a pair waited on PIPE_S is held by a live pair that must not be dropped:
            # this point becomes a strong sync at its wait (its set goes)
            barrier_at_wait.add(pid)
            stats.cuts += 1
            return -2
        # last resort: a strong sync cuts the segment; the pairs it straddles become redundant
        stats.redundant += drop_live()
        out.append(Instr(Pipe.ALL, bar_op, line=ins.line, file=ins.file))
        reset()
        stats.cuts += 1
        stats.segments += 1
        k = _lowest_free(plw, plg, count[p] if p == q else know[p][q], res)
        if k < 0:
            raise SyncError(f"{ins.where}: every event ID of {_PIPES[p].name}->{_PIPES[q].name} is "
                            f"reserved by hand-written flags; no ID left for the pass")
        return k

    for ins in instrs:
        op = ins.op
        if op == set_op:
            p = ins.src
            q = ins.dst
            if not ins.logical:  # physical: keep, and carry its signal
                sig = know[p][:]
                sig[p] = count[p]
                phys[(p, q, ins.event_id)] = sig
                out.append(ins)
                continue
            key = (p, q, ins.event_id)
            if key in open_key:
                raise SyncError(f"{ins.where}: logical flag {_flag(key)} set twice before its wait")
            pid = len(point_k)
            open_key[key] = pid
            point_k.append(-1)
            dropped.append(False)
            pq = p * NPIPES + q
            plw, plg, pls, psg = pair_state(pq)
            res = reserved.get(pq)
            f = count[p] if p == q else know[p][q]
            k = -1
            for j in range(pool):
                if plg[j] is None and plw[j] < f and (res is None or j not in res):
                    k = j
                    break
            if k < 0:
                k = spill(pid, p, q, ins)
                if k == -2:
                    continue
            sig = know[p][:]
            sig[p] = count[p]
            plg[k] = [pid]
            pls[k] = len(out)
            psg[k] = sig
            point_k[pid] = k
            if k >= used[pq]:
                used[pq] = k + 1
            out.append(Instr(ins.pipe, set_op, (), (), p, q, k, False, {}, ins.file, ins.line))
        elif op == wait_op:
            p = ins.src
            q = ins.dst
            if not ins.logical:
                sig = phys.get((p, q, ins.event_id))
                if sig is not None:
                    kq = know[q]
                    for r in range(NPIPES):
                        if sig[r] > kq[r]:
                            kq[r] = sig[r]
                count[q] += 1
                if q is Pipe.S:
                    hold()
                out.append(ins)
                continue
            key = (p, q, ins.event_id)
            pid = open_key.pop(key, -1)
            if pid < 0:
                raise SyncError(f"{ins.where}: wait_flag {_flag(key)} has no earlier set_flag")
            if dropped[pid]:
                continue
            if pid in barrier_at_wait:
                out.append(Instr(Pipe.ALL, bar_op, line=ins.line, file=ins.file))
                stats.redundant += drop_live()
                reset()
                stats.segments += 1
                continue
            k = point_k[pid]
            pq = p * NPIPES + q
            plw, plg, pls, psg = pair_state(pq)
            for x in plg[k] or ():
                if x != pid:
                    dropped[x] = True  # merged: this first wait of the group carries them all
            sig = psg[k]
            kq = know[q]
            for r in range(NPIPES):
                if sig[r] > kq[r]:
                    kq[r] = sig[r]
            plw[k] = count[q]
            count[q] += 1
            if q is Pipe.S:
                hold()
            plg[k] = None
            psg[k] = None
            out.append(Instr(ins.pipe, wait_op, (), (), p, q, k, False, {}, ins.file, ins.line))
        elif op in (bar_op, all_op):
            out.append(ins)
            pipe = ins.pipe
            if pipe is Pipe.ALL or op == all_op:
                seg += 1
                reserved = reserved_by_seg.get(seg, {})
                stats.redundant += drop_live()
                reset()
            else:
                know[pipe][pipe] = count[pipe]
        else:
            count[ins.pipe] += 1
            if ins.pipe is Pipe.S and ins.reads:
                hold()
            out.append(ins)
    if open_key:
        key, pid = min(open_key.items(), key=lambda kv: kv[1])
        where = next((i.where for i in instrs if i.op == set_op and i.logical
                      and (i.src, i.dst, i.event_id) == key), "?")
        raise SyncError(f"{where}: set_flag {_flag(key)} is never waited")
    stats.sync_points += len(point_k)
    for pq in range(npp):
        if used[pq]:
            pair = (_PIPES[pq // NPIPES], _PIPES[pq % NPIPES])
            stats.ids_used[pair] = max(used[pq], stats.ids_used.get(pair, 0))
    return [x for x in out if x is not None]


def _flag(key: tuple[Any, Any, Any]) -> str:
    return f"{_PIPES[key[0]].name} {_PIPES[key[1]].name} L{key[2]}"
