"""Baselines for :func:`aclsim.compiler.allocate_events`, in the same framework (flat streams;
a :class:`~aclsim.compiler.program.Program` is unrolled first).

- :func:`all_barriers`: every logical pair becomes ``pipe_barrier ALL`` at its wait (the
  ``BARRIERALL`` mode of AscendNPU-IR): no IDs, maximal stalls.
- :func:`round_robin`: TileLang-Ascend's ``ascend_sync_insert``: each wait moved right after
  its set, IDs from one round-robin counter, no analysis.  With one-signal-deep flags this is
  not always safe; :func:`aclsim.compiler.verify_sync` reports the lost signals.
- :func:`whole_kernel`: AscendNPU-IR ``InjectSync`` style: lifetime windows ``[set, wait]`` in
  program order over the whole kernel (a strong sync frees nothing; hand-written pairs are
  windows placed in advance), first fit preferring never-used IDs, then *widen* (merge with
  a live pair of the same pipe pair), then the pair's wait becomes ``pipe_barrier ALL``.  We
  add the happens-before guard of the seed's method (the previous use's wait must be ordered
  before the new set, and the new wait before a later hand-written set) so that its output
  verifies too; ``hb_guard=False`` gives the pure lifetime version.
- :func:`lower_bound` / :func:`optimal_colouring`: the optimum per pipe pair on loop-free
  streams: the largest number of flag uses live at once (happens-before intervals), reached
  by the left-edge colouring; :func:`interval_lower_bound` is the classic bound over program
  order intervals (what counting flags would allow).
"""

from __future__ import annotations

import time
from bisect import bisect_right, insort
from collections.abc import Sequence

from aclsim.compiler.alloc import allocate_flat
from aclsim.compiler.hb import FlagUse, flag_uses
from aclsim.compiler.program import Program, flat_instrs
from aclsim.compiler.types import FLAG_OPS, PIPE_BARRIER, SET_FLAG, WAIT_FLAG, AllocStats, gc_paused
from aclsim.isa import NO_COST, Instr, Pipe

_PIPES = list(Pipe)
Pair = tuple[Pipe, Pipe]


def _flat(stream: Program | Sequence[Instr]) -> list[Instr]:
    return flat_instrs(stream)


def all_barriers(stream: Program | Sequence[Instr], stats: AllocStats | None = None) -> list[Instr]:
    """Every logical set/wait pair replaced by ``pipe_barrier ALL`` at the wait."""
    out: list[Instr] = []
    for ins in _flat(stream):
        if ins.logical and ins.op == SET_FLAG:
            continue
        if ins.logical and ins.op == WAIT_FLAG:
            out.append(Instr(Pipe.ALL, PIPE_BARRIER, line=ins.line, file=ins.file))
            if stats is not None:
                stats.cuts += 1
                stats.sync_points += 1
            continue
        out.append(ins)
    return out


def round_robin(stream: Program | Sequence[Instr], pool: int, stats: AllocStats | None = None) -> list[Instr]:
    """TileLang-Ascend style: wait right after set, ``id = counter % pool``."""
    instrs = _flat(stream)
    out: list[Instr] = []
    counter = 0
    for ins in instrs:
        if ins.logical and ins.op == SET_FLAG:
            k = counter % pool
            counter += 1
            assert ins.dst is not None
            out.append(Instr(ins.pipe, SET_FLAG, (), (), ins.src, ins.dst, k, False, NO_COST, ins.file,
                             ins.line))
            out.append(Instr(ins.dst, WAIT_FLAG, (), (), ins.src, ins.dst, k, False, NO_COST, ins.file,
                             ins.line))
            if stats is not None:
                stats.sync_points += 1
                pair = (ins.src, ins.dst)
                stats.ids_used[pair] = max(stats.ids_used.get(pair, 0), k + 1)  # type: ignore[index,arg-type]
            continue
        if ins.logical and ins.op == WAIT_FLAG:
            continue
        out.append(ins)
    return out


def whole_kernel(stream: Program | Sequence[Instr], pool: int, stats: AllocStats | None = None, *,
                 hb_guard: bool = True) -> list[Instr]:
    """InjectSync-style whole-kernel lifetime first fit with widen and barrier fallback."""
    with gc_paused():
        return _whole_kernel(stream, pool, stats, hb_guard)


def _whole_kernel(stream: Program | Sequence[Instr], pool: int, stats: AllocStats | None,
                  hb_guard: bool) -> list[Instr]:
    t0 = time.perf_counter()
    instrs = _flat(stream)
    stats = stats if stats is not None else AllocStats(pool, method="whole-kernel")
    every = flag_uses(instrs)
    uses = [u for u in every if u.logical]
    stats.sync_points += len(uses)
    n = len(uses)
    # hand-written uses (numbered from n) are windows placed in advance, never widened
    uses += [u for u in every if not u.logical and 0 <= u.event_id < pool]
    starts, ends, owner = _windows(uses, n, pool)
    reuse = [0] * n
    ident = [-1] * n
    set_at = [u.set_index for u in uses]
    wait_at = [u.wait_index for u in uses]
    set_id: dict[int, int] = {}
    wait_id: dict[int, int] = {}
    barrier_at: set[int] = set()
    for i, u in enumerate(uses[:n]):
        pair = (u.src, u.dst)
        s, w = u.set_index, u.wait_index
        chosen = -1
        for idle_pass in (True, False):
            for k in range(pool):
                st = starts[pair][k]
                if idle_pass and st:
                    continue
                j = bisect_right(st, w) - 1
                if j >= 0 and ends[pair][k][st[j]] >= s:
                    continue  # lifetime overlap
                if hb_guard:
                    j = bisect_right(st, s) - 1
                    if j >= 0 and uses[owner[pair][k][st[j]]].number >= u.known:
                        continue  # the previous wait is not ordered before this set
                    j = bisect_right(st, w)
                    if j < len(st) and u.number >= uses[owner[pair][k][st[j]]].known:
                        continue  # a later hand-written set is not ordered after this wait
                chosen = k
                break
            if chosen >= 0:
                break
        if chosen >= 0:
            ident[i] = chosen
            insort(starts[pair][chosen], s)
            ends[pair][chosen][s] = w
            owner[pair][chosen][s] = i
            set_id[s] = chosen
            wait_id[w] = chosen
            key = (_PIPES[u.src], _PIPES[u.dst])
            stats.ids_used[key] = max(stats.ids_used.get(key, 0), chosen + 1)
            continue
        # widen: merge with a live pair of this pipe pair (set before ours, wait after it),
        # the least widened first: one set here, one wait at the earlier consumer
        best = -1
        for k in range(pool if u.dst != int(Pipe.S) else 0):  # a scalar wait holds issue: never drop one
            st = starts[pair][k]
            j = bisect_right(st, s) - 1
            if j < 0:
                continue
            v = owner[pair][k][st[j]]
            if v >= n:
                continue  # a hand-written pair is never widened
            if wait_at[v] > s and (best < 0 or (reuse[v], -set_at[v]) < (reuse[best], -set_at[best])):
                best = v
        if best < 0:
            barrier_at.add(w)  # no ID: the wait becomes pipe_barrier ALL, the set goes
            stats.cuts += 1
            continue
        k = ident[best]
        st = starts[pair][k]
        old = set_at[best]
        st.remove(old)
        del ends[pair][k][old]
        del owner[pair][k][old]
        del set_id[old]
        set_id[s] = k
        if w < wait_at[best]:
            del wait_id[wait_at[best]]
            wait_id[w] = k
            keep = i
        else:
            keep = best
        ident[keep] = k
        reuse[keep] = reuse[best] + 1
        set_at[keep] = s
        wait_at[keep] = min(w, wait_at[best])
        insort(st, s)
        ends[pair][k][s] = wait_at[keep]
        owner[pair][k][s] = keep
        stats.merges += 1
    out = _rewrite(instrs, set_id, wait_id, barrier_at)
    stats.seconds = time.perf_counter() - t0
    return out


Starts = dict[tuple[int, int], list[list[int]]]
ByStart = dict[tuple[int, int], list[dict[int, int]]]


def _windows(uses: list[FlagUse], n: int, pool: int) -> tuple[Starts, ByStart, ByStart]:
    """Per pipe pair and ID: sorted window starts, their ends and their use numbers; the
    hand-written uses (numbered from ``n``) placed already."""
    starts: Starts = {}
    ends: ByStart = {}
    owner: ByStart = {}
    for i, u in enumerate(uses):
        pair = (u.src, u.dst)
        if pair not in starts:
            starts[pair] = [[] for _ in range(pool)]
            ends[pair] = [{} for _ in range(pool)]
            owner[pair] = [{} for _ in range(pool)]
        if i >= n:
            insort(starts[pair][u.event_id], u.set_index)
            ends[pair][u.event_id][u.set_index] = u.wait_index
            owner[pair][u.event_id][u.set_index] = i
    return starts, ends, owner


def _rewrite(instrs: list[Instr], set_id: dict[int, int], wait_id: dict[int, int],
             barrier_at: set[int]) -> list[Instr]:
    out: list[Instr] = []
    for index, ins in enumerate(instrs):
        if not ins.logical or ins.op not in FLAG_OPS:
            out.append(ins)
        elif ins.op == SET_FLAG:
            if index in set_id:
                out.append(Instr(ins.pipe, SET_FLAG, (), (), ins.src, ins.dst, set_id[index], False, {},
                                 ins.file, ins.line))
        elif index in barrier_at:
            out.append(Instr(Pipe.ALL, PIPE_BARRIER, line=ins.line, file=ins.file))
        elif index in wait_id:
            out.append(Instr(ins.pipe, WAIT_FLAG, (), (), ins.src, ins.dst, wait_id[index], False, {},
                             ins.file, ins.line))
    return out


def lower_bound(stream: Program | Sequence[Instr]) -> dict[Pair, int]:
    """Per pipe pair, the most logical flag uses live at once in happens-before order: no
    allocation of one-signal-deep flags can use fewer IDs without adding orderings."""
    per: dict[Pair, list[tuple[int, int]]] = {}
    for u in flag_uses(_flat(stream)):
        if u.logical:
            per.setdefault((_PIPES[u.src], _PIPES[u.dst]), []).append((u.known, u.number))
    return {pair: _max_overlap(ivs) for pair, ivs in per.items()}


def interval_lower_bound(stream: Program | Sequence[Instr]) -> dict[Pair, int]:
    """Per pipe pair, the most logical pairs whose ``[set, wait]`` program-order intervals
    overlap: the classic bound (reachable only if flags counted signals)."""
    per: dict[Pair, list[tuple[int, int]]] = {}
    for u in flag_uses(_flat(stream)):
        if u.logical:
            per.setdefault((_PIPES[u.src], _PIPES[u.dst]), []).append((u.set_index, u.wait_index))
    return {pair: _max_overlap(ivs) for pair, ivs in per.items()}


def _max_overlap(intervals: list[tuple[int, int]]) -> int:
    """Largest number of closed intervals ``[a, b]`` sharing a point."""
    events = sorted([(a, 0) for a, _ in intervals] + [(b, 1) for _, b in intervals])
    best = cur = 0
    for _, kind in events:
        if kind == 0:
            cur += 1
            best = max(best, cur)
        else:
            cur -= 1
    return best


def optimal_colouring(stream: Program | Sequence[Instr], stats: AllocStats | None = None) -> list[Instr]:
    """The left-edge colouring with as many IDs as :func:`lower_bound` asks (loop-free streams)."""
    instrs = _flat(stream)
    need = max(lower_bound(instrs).values(), default=1)
    stats = stats if stats is not None else AllocStats(need, method="optimal")
    return allocate_flat(instrs, max(need, 1), stats)
