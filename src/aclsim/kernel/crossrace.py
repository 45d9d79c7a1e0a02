"""Races between the cores of a launch that synchronize with cross-core flags (or ``sync_all``).

The cores of a mixed AIC + AIV kernel hand data to each other through global memory (a cube core
``fixpipe``s a tile into a workspace, its vector cores read it): two accesses of different cores
to the same global bytes, one of them a write, must be ordered, or the result depends on which
core is faster.  Ordering between cores comes only from the cross-core flags: a
``CrossCoreSetFlag<mode, pipe>`` fires once the earlier work of ``pipe`` is done (and what that
pipe waited for through the core's own flags and barriers), and a ``CrossCoreWaitFlag`` holds
every later instruction of its core until the sets it consumed fired; ``sync_all`` orders
everything before it on every core before everything after it.  :func:`check_cross_core_races`
builds that happens-before relation (a vector clock per core and pipe, from each set to the
waits that consumed it) and raises :class:`~aclsim.errors.RaceError` for the first unordered
pair.  Atomic stores of the same mode from several cores are not a race (the device serializes
them).  Races within one core are the compiler's race finder's business.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from aclsim.errors import RaceError
from aclsim.isa import Instr, Op, Pipe, Space

#: The op names the core model and the sanitizer know the cross-core instructions by.
XSET_OP, XWAIT_OP, MIX_OP = "cross_core_set_flag", "cross_core_wait_flag", "mix_core"

_SET, _WAIT, _BARRIER, _SYNC = Op.SET_FLAG.value, Op.WAIT_FLAG.value, Op.PIPE_BARRIER.value, Op.SYNC_ALL.value
_GM_SPACES = (Space.GM, Space.HOST)
_ALL: Any = None  # the key of "every pipe up to this index" in a snapshot
Clock = dict[tuple[int, Any], int]  # (core, pipe or _ALL) -> the last instruction index known done


def _covered(clock: Clock, unit: int, pipe: Pipe, idx: int) -> bool:
    return (clock.get((unit, pipe), -1) >= idx or clock.get((unit, _ALL), -1) >= idx
            or clock.get((unit, Pipe.S), -1) >= idx and pipe is Pipe.S)


def _join(into: Clock, other: Clock) -> None:
    for k, v in other.items():
        if into.get(k, -1) < v:
            into[k] = v


def _events(u: int, stream: Sequence[Instr]) -> list[tuple[Any, ...]]:
    """Core ``u``'s cross-core events in program order: ``("set", idx, key, snapshot)`` with the
    core's own instructions done when the set fires (per pipe), ``("wait", idx, deps)``."""
    fr: dict[Any, dict[Any, int]] = {}
    pending: dict[Any, deque[dict[Any, int]]] = {}
    last_s, nsync = -1, 0
    out: list[tuple[Any, ...]] = []

    def snap(pipe: Any, i: int) -> dict[Any, int]:
        s = dict(fr.get(pipe, {}))
        s[pipe] = i - 1
        s[Pipe.S] = max(s.get(Pipe.S, -1), last_s)
        return s

    for i, ins in enumerate(stream):
        op, p = ins.op, ins.pipe
        if op == _SET:
            pending.setdefault(ins.flag, deque()).append(snap(ins.src, i))
        elif op == _WAIT:
            q = pending.get(ins.flag)
            if q:
                _merge(fr.setdefault(ins.dst, {}), q.popleft())
        elif op == _SYNC or (op == _BARRIER and p is Pipe.ALL):
            everything = {_ALL: i - 1, Pipe.S: max(last_s, i - 1)}
            fr = {q: dict(everything) for q in (*fr, *Pipe)}
            if op == _SYNC:
                out.append(("set", i, ("sync_all", nsync), dict(everything)))
                out.append(("wait", i, ("sync_all", nsync)))
                nsync += 1
                last_s = i
        elif op == XSET_OP:
            own = snap(p, i)
            own[("xset", p)] = i  # which of its own sets a core knows fired (implied_flags)
            out.append(("set", i, ins.cost["ordinal"], own))
        elif op == XWAIT_OP:
            out.append(("wait", i, ins.cost["deps"]))
            last_s = i
        elif p is Pipe.S:
            last_s = i
    return out


def _merge(into: dict[Any, int], other: dict[Any, int]) -> None:
    for k, v in other.items():
        if into.get(k, -1) < v:
            into[k] = v


def cross_clocks(streams: Sequence[Sequence[Instr]]) -> list[tuple[list[int], list[Clock]]]:
    """Per core: the indices of its waits and the clock of other cores' work known done after each."""
    n = len(streams)
    events = [_events(u, s) for u, s in enumerate(streams)]
    pos = [0] * n
    cum: list[Clock] = [{} for _ in range(n)]
    sets: dict[tuple[int, Any], Clock] = {}
    out: list[tuple[list[int], list[Clock]]] = [([], []) for _ in range(n)]
    progress = True
    while progress:
        progress = False
        for u in range(n):
            ev = events[u]
            while pos[u] < len(ev):
                e = ev[pos[u]]
                if e[0] == "set":
                    c = dict(cum[u])
                    _join(c, {(u, k): v for k, v in e[3].items()})
                    sets[(u, e[2])] = c
                else:
                    deps = e[2]
                    if isinstance(deps, tuple) and deps and deps[0] == "sync_all":
                        deps = tuple((v, deps) for v in range(n))
                    if any(d not in sets for d in deps):
                        break
                    c = dict(cum[u])
                    for d in deps:
                        _join(c, sets[d])
                    cum[u] = c
                    out[u][0].append(e[1])
                    out[u][1].append(c)
                pos[u] += 1
                progress = True
    return out


def _gm_touches(u: int, stream: Sequence[Instr]) -> list[tuple[int, int, int, int, str, Instr]]:
    out = []
    for i, ins in enumerate(stream):
        mode = ins.cost.get("atomic") if ins.cost else None
        for a in ins.writes:
            if a.space in _GM_SPACES and a.length:
                out.append((a.offset, a.end, u, i, mode or "write", ins))
        if mode:
            continue  # an atomic store's read is its own read-modify-write
        for a in ins.reads:
            if a.space in _GM_SPACES and a.length:
                out.append((a.offset, a.end, u, i, "read", ins))
    return out


def check_cross_core_races(streams: Sequence[Sequence[Instr]], layout: Any = None,
                           clocks: list[tuple[list[int], list[Clock]]] | None = None) -> None:
    """Raise :class:`~aclsim.errors.RaceError` for two accesses of different cores to the same global
    bytes, one a write (not two atomic stores of one mode), that the cross-core flags do not order
    (``clocks``: :func:`cross_clocks` of the streams, if already computed)."""
    name: Callable[[int], str] = layout.name if layout is not None else (lambda u: f"block {u}")
    block_of: Callable[[int], int] = layout.block_idx if layout is not None else (lambda u: u)
    touches = sorted((t for u, s in enumerate(streams) for t in _gm_touches(u, s)), key=lambda t: t[0])
    if not touches:
        return
    if clocks is None:
        clocks = cross_clocks(streams)

    def before(x: tuple[Any, ...], y: tuple[Any, ...]) -> bool:
        waits, cs = clocks[y[2]]
        k = _bisect(waits, y[3])
        return k >= 0 and _covered(cs[k], x[2], x[5].pipe, x[3])

    # sweep by start address: the reads and the writes that still overlap; reads meet only writes
    reads: list[tuple[int, int, int, int, str, Instr]] = []
    writes: list[tuple[int, int, int, int, str, Instr]] = []
    for t in touches:
        lo = t[0]
        writes = [a for a in writes if a[1] > lo]
        is_read = t[4] == "read"
        if not is_read:
            reads = [a for a in reads if a[1] > lo]
        for a in writes if is_read else (*writes, *reads):
            if a[2] == t[2] or (a[4] == t[4] and a[4] not in ("read", "write")):
                continue  # the same core; atomic stores of one mode and type
            if before(a, t) or before(t, a):
                continue
            raise _race(a, t, name, block_of)
        (reads if is_read else writes).append(t)


def _bisect(waits: list[int], idx: int) -> int:
    """The position of the last wait before instruction ``idx`` (-1: none)."""
    lo, hi = 0, len(waits)
    while lo < hi:
        mid = (lo + hi) // 2
        if waits[mid] < idx:
            lo = mid + 1
        else:
            hi = mid
    return lo - 1


def _race(a: tuple[Any, ...], b: tuple[Any, ...], name: Callable[[int], str],
          block_of: Callable[[int], int]) -> RaceError:
    lo, hi = max(a[0], b[0]), min(a[1], b[1])

    def what(t: tuple[Any, ...]) -> str:
        kind = t[4] if t[4] in ("read", "write") else f"atomic {t[4].replace(':', ' ')}"
        return f"{name(t[2])}'s {kind} ({t[5].op} on {t[5].pipe.name} at {t[5].where})"

    return RaceError(
        f"cross-core race on GM[0x{lo:x}:0x{hi:x}]: {what(a)} and {what(b)} are not ordered by "
        "cross-core flags", file=b[5].file, line=b[5].line, block=block_of(b[2]),
        hint="after the first access, CrossCoreSetFlag on the pipe that made it, and CrossCoreWaitFlag on "
        "the other core before its access (or sync_all between them)")


def implied_flags(streams: Sequence[list[Instr]], events: int,
                  clocks: list[tuple[list[int], list[Clock]]] | None = None) -> list[list[Instr]]:
    """The streams with the ordering that a cross-core round trip gives a core made explicit for
    the compiler's per-core checks: when a ``CrossCoreWaitFlag`` can only pass after a set of the
    core's own on pipe Q fired (its own set is among the sets that led to it, as in AIV -> AIC ->
    AIV), everything Q had done before that set is done before anything after the wait is
    issued.  That is what ``set_flag(Q, S)`` after the set and ``wait_flag(Q, S)`` before the wait
    say, so that pair is inserted (with an event id the core does not use for (Q, S); none free:
    not inserted).  The pair costs nothing the wait does not already imply (the wait starts after
    the set fired plus the cross-core latency)."""
    if clocks is None:
        clocks = cross_clocks(streams)
    out: list[list[Instr]] = []
    for u, stream in enumerate(streams):
        waits, cs = clocks[u]
        pairs: list[tuple[int, int, Pipe]] = []  # (set index, wait index, pipe)
        done: dict[Pipe, int] = {}
        for w, c in zip(waits, cs, strict=True):
            for (v, key), k in c.items():
                if v != u or not isinstance(key, tuple) or key[0] != "xset":
                    continue
                q = key[1]
                if done.get(q, -1) < k < w:
                    pairs.append((k, w, q))
                    done[q] = k
        out.append(_insert(stream, pairs, events) if pairs else stream)
    return out


def _insert(stream: list[Instr], pairs: list[tuple[int, int, Pipe]], events: int) -> list[Instr]:
    used: dict[Pipe, set[int]] = {}
    for ins in stream:
        if ins.op in (_SET, _WAIT) and ins.dst is Pipe.S and ins.src is not None and ins.event_id is not None:
            used.setdefault(ins.src, set()).add(ins.event_id)
    after: dict[int, list[Instr]] = {}
    before: dict[int, list[Instr]] = {}
    busy: list[tuple[int, int, Pipe, int]] = []
    for k, w, q in pairs:
        taken = used.get(q, set()) | {e for a, b, p, e in busy if p is q and a < w and k < b}
        free = [e for e in range(events) if e not in taken]
        if not free:
            continue
        e = free[0]
        busy.append((k, w, q, e))
        x = stream[k]
        after.setdefault(k, []).append(Instr(q, _SET, src=q, dst=Pipe.S, event_id=e, file=x.file,
                                             line=x.line))
        y = stream[w]
        before.setdefault(w, []).append(Instr(Pipe.S, _WAIT, src=q, dst=Pipe.S, event_id=e, file=y.file,
                                              line=y.line))
    new: list[Instr] = []
    for i, ins in enumerate(stream):
        new.extend(before.get(i, ()))
        new.append(ins)
        new.extend(after.get(i, ()))
    return new


__all__ = ["MIX_OP", "XSET_OP", "XWAIT_OP", "check_cross_core_races", "cross_clocks", "implied_flags"]
