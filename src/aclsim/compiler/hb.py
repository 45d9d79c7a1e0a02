"""The happens-before engine: one pass of vector clocks over one core's instruction list.

This is the single place where aclsim decides whether two instructions are ordered.  The
verifier (:func:`aclsim.compiler.verify_sync`) and the kernel sanitizer both call
:func:`check` (or :func:`find_races` / :func:`check_flags`) on a recorded ``list[Instr]``.

The model (``docs/sync.md`` has the long form):

- Each pipe issues its instructions in program order.  With ``same_pipe="barrier"`` (the
  default, Ascend C semantics) a pipe is *issue*-ordered, not completion-ordered: a
  later instruction may start before an earlier one on the same pipe has finished, so a
  same-pipe dependence needs ``pipe_barrier PIPE``.  PIPE_S is always completion-ordered
  (the hardware orders scalar work; ``PipeBarrier<PIPE_S>`` does not exist).  With
  ``same_pipe="inorder"`` every pipe finishes an instruction before it starts the next.
- ``set_flag P Q id`` fires once every earlier instruction of P has completed; it does not
  block P.  ``wait_flag P Q id`` blocks Q until the flag is set and then clears it (a flag
  is one signal deep).  ``pipe_barrier P``: every earlier P instruction completes before a
  later one starts.  ``pipe_barrier ALL`` / ``sync_all``: every earlier instruction of every
  pipe completes before any later one starts (a strong sync).
- A ``wait_flag`` is matched with the latest unmatched ``set_flag`` of the same
  (src, dst, id) earlier in program order.

Clocks: ``know[P][R]`` is how many instructions of pipe R are known to have completed
before the next instruction of P starts (only work instructions and waits are counted).
The knowledge is prefix-closed, so one integer per pipe suffices.  Two accesses conflict
when their ranges overlap and one writes; the later one (pipe Q) is ordered after the
earlier one (pipe P, number ``n`` on P) iff ``know[Q][P] > n``.  Shadow memory keeps, per
byte range, the last write and the last read of each pipe, and is dropped at every strong
sync (everything before it is ordered before everything after it).  A flag reuse is safe
when the previous wait of that (src, dst, id) is known to have completed when the new set
fires, i.e. ``know[P][Q] > n(previous wait)``; otherwise the new signal can be lost.

Deadlock: every wait must find its set earlier in program order; then all blocking edges
point backwards in program order and no cycle exists, so a stream with no
``wait_without_set`` and no lost signal cannot deadlock.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from aclsim.compiler.program import gc_paused
from aclsim.isa import Access, Instr, Pipe, Space

NPIPES = 7  # S V M MTE1 MTE2 MTE3 FIX (Pipe values 0..6); Pipe.ALL == 7
_ALL = int(Pipe.ALL)
_S = int(Pipe.S)
SAME_PIPE_MODES = ("barrier", "inorder")


def _short(instr: Instr) -> str:
    from aclsim.compiler.text import format_instr

    return format_instr(instr)


@dataclass(frozen=True, slots=True)
class Race:
    """Two conflicting accesses (overlapping ranges, one a write) that are not ordered."""

    kind: str  # "RAW", "WAR" or "WAW"
    first: Instr
    second: Instr
    first_index: int
    second_index: int
    overlap: Access
    context: str = ""

    def __str__(self) -> str:
        p, q = self.first.pipe.name, self.second.pipe.name
        fix = (f"add pipe_barrier {p}" if p == q else f"add set_flag {p} {q} / wait_flag {p} {q}")
        ctx = f" ({self.context})" if self.context else ""
        return (f"{self.kind} race on {self.overlap}{ctx}: {self.first.where} '{_short(self.first)}' and "
                f"{self.second.where} '{_short(self.second)}' are not ordered; {fix} between them")


@dataclass(frozen=True, slots=True)
class SyncIssue:
    """A misuse of flags: ``wait_without_set``, ``double_set``, ``lost_signal``,
    ``unmatched_set``, ``id_out_of_range`` or ``logical_id``."""

    kind: str
    instr: Instr
    index: int
    other: Instr | None = None
    other_index: int = -1
    context: str = ""

    def __str__(self) -> str:
        ctx = f" ({self.context})" if self.context else ""
        me = f"{self.instr.where} '{_short(self.instr)}'{ctx}"
        other = f"{self.other.where} '{_short(self.other)}'" if self.other is not None else ""
        text = {
            "wait_without_set": f"{me} waits for a flag no earlier set_flag raises: the pipe hangs",
            "double_set": f"{me} sets a flag already set by {other} and not yet waited: a lost signal",
            "lost_signal": (f"{me} may fire before {other} has consumed the previous signal of this flag "
                            f"(nothing orders that wait before this set): a lost signal, then a hang"),
            "unmatched_set": f"{me} is never waited: the flag stays set into the next kernel",
            "id_out_of_range": f"{me} uses an event ID outside the chip's pool",
            "logical_id": f"{me} still carries a logical event ID (run allocate_events)",
        }.get(self.kind, f"{me}: {self.kind}")
        return f"{self.kind}: {text}"


@dataclass(slots=True)
class HBReport:
    """What :func:`check` found.  ``ok`` is True when there is nothing to report."""

    races: list[Race] = field(default_factory=list)
    issues: list[SyncIssue] = field(default_factory=list)
    instructions: int = 0
    race_count: int = 0  # may exceed len(races) when max_reports cut the list
    issue_count: int = 0

    @property
    def ok(self) -> bool:
        return not self.race_count and not self.issue_count

    def lines(self) -> list[str]:
        return [str(x) for x in self.issues] + [str(x) for x in self.races]

    def __str__(self) -> str:
        if self.ok:
            return f"OK: {self.instructions} instructions, every dependence ordered, every flag paired"
        head = f"{self.race_count} race(s), {self.issue_count} sync issue(s)"
        return "\n".join([head, *self.lines()])


def _mode_flags(same_pipe: str) -> list[bool]:
    if same_pipe not in SAME_PIPE_MODES:
        raise ValueError(f"same_pipe must be one of {SAME_PIPE_MODES}, got {same_pipe!r}")
    inorder = [same_pipe == "inorder"] * NPIPES
    inorder[int(Pipe.S)] = True
    return inorder


def check(instrs: Sequence[Instr], *, same_pipe: str = "barrier", pool: int | None = None,
          require_physical: bool = False, races: bool = True, max_reports: int = 100) -> HBReport:
    """Check one core's instruction list for unordered conflicting accesses and flag misuse.

    Parameters
    ----------
    instrs
        The core's instructions in program order (a recorded trace, or ``Program.unroll()``).
    same_pipe
        ``"barrier"``: same-pipe dependences need ``pipe_barrier`` (Ascend C; PIPE_S is always
        ordered).  ``"inorder"``: every pipe completes an instruction before the next.
    pool
        Event IDs per pipe pair; physical IDs at or above it are reported.
    require_physical
        Report logical event IDs (an allocated stream must have none).
    races
        False skips the memory check (flags only; faster).

    >>> from aclsim.isa import Access, Instr, Pipe, Space
    >>> w = Instr(Pipe.MTE2, "load", writes=(Access(Space.UB, 0, 64),), line=1)
    >>> r = Instr(Pipe.V, "add", reads=(Access(Space.UB, 32, 64),), line=2)
    >>> print(check([w, r]).races[0])  # doctest: +ELLIPSIS
    RAW race on UB[32:64]: line 1 'MTE2 load w:UB[0:64]' and line 2 'V add r:UB[32:96]' are not ordered; ...
    """
    with gc_paused():
        return _check(instrs, same_pipe, pool, require_physical, races, max_reports)


def _check(instrs: Sequence[Instr], same_pipe: str, pool: int | None, require_physical: bool, races: bool,
           max_reports: int) -> HBReport:
    inorder = _mode_flags(same_pipe)
    report = HBReport(instructions=len(instrs))
    count = [0] * NPIPES
    know = [[0] * NPIPES for _ in range(NPIPES)]
    # flag slots: key -> [pending set index or -1, signal clock, last wait's pipe number, last wait index]
    slots: dict[tuple[int, int, int, bool], list] = {}
    shadow: dict[Space, tuple[list[int], dict[int, list]]] = {}
    race_list = report.races
    issue_list = report.issues
    nraces = 0
    nissues = 0
    set_op, wait_op, bar_op, all_op = "set_flag", "wait_flag", "pipe_barrier", "sync_all"

    def issue(kind: str, index: int, other: int = -1) -> None:
        nonlocal nissues
        nissues += 1
        if len(issue_list) < max_reports:
            issue_list.append(SyncIssue(kind, instrs[index], index,
                                        instrs[other] if other >= 0 else None, other))

    def race(kind: str, first: int, second: int, space: Space, lo: int, hi: int) -> None:
        nonlocal nraces
        nraces += 1
        if len(race_list) < max_reports:
            race_list.append(Race(kind, instrs[first], instrs[second], first, second,
                                  Access(space, lo, hi - lo)))

    for index, ins in enumerate(instrs):
        op = ins.op
        if op == set_op:
            p = int(ins.src)  # type: ignore[arg-type]
            q = int(ins.dst)  # type: ignore[arg-type]
            eid = ins.event_id
            logical = ins.logical
            assert eid is not None
            if logical:
                if require_physical:
                    issue("logical_id", index)
            elif pool is not None and not 0 <= eid < pool:
                issue("id_out_of_range", index)
            key = (p, q, eid, logical)
            slot = slots.get(key)
            sig = know[p][:]
            sig[p] = count[p]
            if slot is None:
                slots[key] = [index, sig, -1, -1]
                continue
            if slot[0] >= 0:
                issue("double_set", index, slot[0])
            elif slot[2] >= 0 and sig[q] <= slot[2]:
                issue("lost_signal", index, slot[3])
            slot[0] = index
            slot[1] = sig
        elif op == wait_op:
            p = int(ins.src)  # type: ignore[arg-type]
            q = int(ins.dst)  # type: ignore[arg-type]
            eid = ins.event_id
            logical = ins.logical
            assert eid is not None
            if logical:
                if require_physical:
                    issue("logical_id", index)
            elif pool is not None and not 0 <= eid < pool:
                issue("id_out_of_range", index)
            slot = slots.get((p, q, eid, logical))
            n = count[q]
            count[q] = n + 1
            if slot is None or slot[0] < 0:
                issue("wait_without_set", index)
                if q == _S:
                    know[_S][_S] = n + 1
                    _spread(know, _S)
                continue
            k = know[q]
            sig = slot[1]
            for r in range(NPIPES):
                if sig[r] > k[r]:
                    k[r] = sig[r]
            slot[0] = -1
            slot[2] = n
            slot[3] = index
            if q == _S:  # a scalar wait holds the issue of everything after it
                know[_S][_S] = n + 1
                _spread(know, _S)
        elif op in (bar_op, all_op):
            pipe = int(ins.pipe)
            if pipe == _ALL or op == all_op:
                for r in range(NPIPES):
                    know[r] = count[:]
                shadow.clear()
            else:
                know[pipe][pipe] = count[pipe]
        else:
            p = int(ins.pipe)
            n = count[p]
            count[p] = n + 1
            if p == _S and ins.reads:
                # a scalar read (get_value) completes before issue goes on: everything after
                # it, on every pipe, starts after it (scalar writes may still be in flight)
                know[_S][_S] = n + 1
                _spread(know, _S)
            if not races:
                continue
            k = know[p]
            same_ok = inorder[p]
            # writes, then reads; its own overlapping ranges never race (seg[3] != index skips them)
            for acc in ins.writes:
                ln = acc.length
                if ln <= 0:
                    continue
                sp = acc.space
                lo = acc.offset
                hi = lo + ln
                sh = shadow.get(sp)
                if sh is None:
                    sh = shadow[sp] = ([], {})
                starts, segs = sh
                seg = segs.get(lo)
                if seg is not None and seg[0] == hi:
                    wp = seg[1]
                    if wp >= 0 and (wp != p or not same_ok) and k[wp] <= seg[2] and seg[3] != index:
                        race("WAW", seg[3], index, sp, lo, hi)
                    rd = seg[5]
                    if rd is not None:
                        for rp, (rn, ri) in rd.items():
                            if (rp != p or not same_ok) and k[rp] <= rn:
                                race("WAR", ri, index, sp, lo, hi)
                    seg[1] = p
                    seg[2] = n
                    seg[3] = index
                    seg[5] = None
                    continue
                for seg in _cover(starts, segs, lo, hi):
                    wp = seg[1]
                    if wp >= 0 and (wp != p or not same_ok) and k[wp] <= seg[2] and seg[3] != index:
                        race("WAW", seg[3], index, sp, max(lo, seg[4]), min(hi, seg[0]))
                    rd = seg[5]
                    if rd is not None:
                        for rp, (rn, ri) in rd.items():
                            if (rp != p or not same_ok) and k[rp] <= rn:
                                race("WAR", ri, index, sp, max(lo, seg[4]), min(hi, seg[0]))
                # one segment [lo, hi) replaces the covered ones
                i = bisect_left(starts, lo)
                j = bisect_left(starts, hi, i)
                for s in starts[i:j]:
                    del segs[s]
                starts[i:j] = [lo]
                segs[lo] = [hi, p, n, index, lo, None]
            for acc in ins.reads:
                ln = acc.length
                if ln <= 0:
                    continue
                sp = acc.space
                lo = acc.offset
                hi = lo + ln
                sh = shadow.get(sp)
                if sh is None:
                    sh = shadow[sp] = ([], {})
                starts, segs = sh
                seg = segs.get(lo)
                covered = (seg,) if seg is not None and seg[0] == hi else _cover(starts, segs, lo, hi)
                for seg in covered:
                    wp = seg[1]
                    if wp >= 0 and (wp != p or not same_ok) and k[wp] <= seg[2] and seg[3] != index:
                        race("RAW", seg[3], index, sp, max(lo, seg[4]), min(hi, seg[0]))
                    rd = seg[5]
                    if rd is None:
                        seg[5] = {p: (n, index)}
                    else:
                        rd[p] = (n, index)
    for slot in slots.values():
        if slot[0] >= 0:
            issue("unmatched_set", slot[0])
    report.race_count = nraces
    report.issue_count = nissues
    report.issues.sort(key=lambda x: x.index)
    return report


def _spread(know: list[list[int]], pipe: int) -> None:
    """Every pipe learns what ``pipe`` knows (``pipe`` held back the issue of later work)."""
    src = know[pipe]
    for row in know:
        if row is not src:
            for r in range(NPIPES):
                if src[r] > row[r]:
                    row[r] = src[r]


def _cover(starts: list[int], segs: dict[int, list], lo: int, hi: int) -> list[list]:
    """Split the shadow segments of one memory so that [lo, hi) is exactly covered; return them.

    A segment is ``[end, write pipe, write number, write index, start, reads]`` where reads is
    None or ``{pipe: (number, index)}``; gaps get fresh segments with no write.
    """
    i = bisect_right(starts, lo) - 1
    if i < 0:
        i = 0
    elif starts[i] < lo:
        seg = segs[starts[i]]
        if seg[0] > lo:  # split off [lo, end)
            segs[lo] = [seg[0], seg[1], seg[2], seg[3], lo, dict(seg[5]) if seg[5] else None]
            seg[0] = lo
            starts.insert(i + 1, lo)
        i += 1
    out: list[list] = []
    pos = lo
    n = len(starts)
    while pos < hi:
        if i < n and starts[i] == pos:
            seg = segs[pos]
            if seg[0] > hi:  # split off [hi, end)
                tail = [seg[0], seg[1], seg[2], seg[3], hi, dict(seg[5]) if seg[5] else None]
                seg[0] = hi
                segs[hi] = tail
                starts.insert(i + 1, hi)
                n += 1
            out.append(seg)
            pos = seg[0]
            i += 1
        else:
            nxt = starts[i] if i < n and starts[i] < hi else hi
            gap = [nxt, -1, -1, -1, pos, None]
            segs[pos] = gap
            starts.insert(i, pos)
            n += 1
            i += 1
            out.append(gap)
            pos = nxt
    return out


def find_races(instrs: Sequence[Instr], *, same_pipe: str = "barrier", max_reports: int = 100) -> list[Race]:
    """The unordered conflicting access pairs of one core's instructions (for the sanitizer).

    Each :class:`Race` names both instructions (``.first``/``.second``, with ``.line`` and
    ``.file``) and the overlapping range.  Flag misuse is in :func:`check_flags`.
    """
    return check(instrs, same_pipe=same_pipe, max_reports=max_reports).races


def check_flags(instrs: Sequence[Instr], *, pool: int | None = None, require_physical: bool = False,
                max_reports: int = 100) -> list[SyncIssue]:
    """Flag misuse only: waits with no set, doubled sets, lost signals, sets never waited."""
    return check(instrs, pool=pool, require_physical=require_physical, races=False,
                 max_reports=max_reports).issues


@dataclass(frozen=True, slots=True)
class FlagUse:
    """One execution of a flag: its set and the wait that consumes it, with the set's and the
    wait's positions in the happens-before order of the destination pipe: the set knows the
    first ``known`` instructions of ``dst`` have completed; the wait is instruction number
    ``number`` of ``dst``.  Two uses of one pipe pair can share an event ID without a lost
    signal iff one's ``number`` is below the other's ``known``: ``[known, number]`` are the
    intervals whose colouring is the allocation problem."""

    src: int
    dst: int
    event_id: int
    logical: bool
    set_index: int
    wait_index: int
    known: int
    number: int


def flag_uses(instrs: Sequence[Instr]) -> list[FlagUse]:
    """Every matched set/wait of the stream, in the order of their sets (sync-only clock pass)."""
    count = [0] * NPIPES
    know = [[0] * NPIPES for _ in range(NPIPES)]
    pending: dict[tuple[int, int, int, bool], tuple[int, list[int], int]] = {}
    uses: list[tuple[int, FlagUse]] = []
    for index, ins in enumerate(instrs):
        op = ins.op
        if op == "set_flag":
            p, q = int(ins.src), int(ins.dst)  # type: ignore[arg-type]
            sig = know[p][:]
            sig[p] = count[p]
            pending[(p, q, ins.event_id, ins.logical)] = (index, sig, sig[q])  # type: ignore[index]
        elif op == "wait_flag":
            p, q = int(ins.src), int(ins.dst)  # type: ignore[arg-type]
            key = (p, q, ins.event_id, ins.logical)
            n = count[q]
            count[q] = n + 1
            got = pending.pop(key, None)  # type: ignore[arg-type]
            if got is None:
                continue
            s, sig, known = got
            k = know[q]
            for r in range(NPIPES):
                if sig[r] > k[r]:
                    k[r] = sig[r]
            if q == _S:  # a scalar wait holds the issue of everything after it
                know[_S][_S] = n + 1
                _spread(know, _S)
            uses.append((s, FlagUse(p, q, ins.event_id, ins.logical, s, index, known, n)))  # type: ignore[arg-type]
        elif op in ("pipe_barrier", "sync_all"):
            pipe = int(ins.pipe)
            if pipe == _ALL or op == "sync_all":
                for r in range(NPIPES):
                    know[r] = count[:]
            else:
                know[pipe][pipe] = count[pipe]
        else:
            p = int(ins.pipe)
            count[p] += 1
            if p == _S and ins.reads:  # a scalar read holds the issue of everything after it
                know[_S][_S] = count[p]
                _spread(know, _S)
    uses.sort(key=lambda x: x[0])
    return [u for _, u in uses]
