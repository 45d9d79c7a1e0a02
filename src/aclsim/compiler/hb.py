"""The happens-before checker: one pass of vector clocks over one core's instruction list.

The verifier (:func:`aclsim.compiler.verify_sync`) and the kernel sanitizer both call
:func:`check` (or :func:`find_races` / :func:`check_flags`) on a recorded ``list[Instr]``.
What each instruction teaches each pipe is decided in one place, :mod:`aclsim.compiler.clock`
(the clocks every pass replays: this checker, ``infer_sync``, ``allocate_events``, the
analysis of loops); the shadow memory of the accesses is :mod:`aclsim.compiler.shadow`.

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

from collections.abc import Sequence
from dataclasses import dataclass, field

from aclsim.compiler.clock import PIPE_INDEX, Clock, inorder_pipes
from aclsim.compiler.shadow import Shadow
from aclsim.compiler.text import format_instr
from aclsim.compiler.types import PIPE_BARRIER, SET_FLAG, SYNC_ALL, WAIT_FLAG, gc_paused
from aclsim.isa import Access, Instr, Pipe, Space

_ALL = int(Pipe.ALL)
_S = int(Pipe.S)
_short = format_instr


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
        return _Checker(instrs, same_pipe, pool, require_physical, max_reports).run(races)


class _Checker:
    """One pass of :func:`check` over a stream: the clock, the flag slots, the shadow memory.

    A flag slot, per ``(src, dst, id, logical)``: ``[index of the pending set or -1, its
    signal, number of the last wait on dst or -1, index of that wait]``.
    """

    __slots__ = ("instrs", "pool", "require_physical", "max_reports", "inorder", "clock", "slots", "shadow",
                 "report")

    def __init__(self, instrs: Sequence[Instr], same_pipe: str, pool: int | None, require_physical: bool,
                 max_reports: int) -> None:
        self.instrs = instrs
        self.pool = pool
        self.require_physical = require_physical
        self.max_reports = max_reports
        self.inorder = inorder_pipes(same_pipe)
        self.clock = Clock()
        self.slots: dict[tuple[int, int, int, bool], list] = {}
        self.shadow = Shadow()
        self.report = HBReport(instructions=len(instrs))

    def run(self, races: bool) -> HBReport:
        clock, shadow, slots, inorder = self.clock, self.shadow, self.slots, self.inorder
        pipe_index = PIPE_INDEX
        know, count, signal, wait = clock.know, clock.count, clock.signal, clock.wait
        check_access = shadow.check
        issue, race = self.issue, self.race
        pool, require_physical = self.pool, self.require_physical
        for index, ins in enumerate(self.instrs):
            op = ins.op
            if op == SET_FLAG:
                p, q = pipe_index[ins.src], pipe_index[ins.dst]  # type: ignore[index]
                eid, logical = ins.event_id, ins.logical
                if logical:
                    if require_physical:
                        issue("logical_id", index)
                elif pool is not None and not 0 <= eid < pool:  # type: ignore[operator]
                    issue("id_out_of_range", index)
                key = (p, q, eid, logical)
                slot = slots.get(key)  # type: ignore[arg-type]
                sig = signal(p)
                if slot is None:
                    slots[key] = [index, sig, -1, -1]  # type: ignore[index]
                    continue
                if slot[0] >= 0:
                    issue("double_set", index, slot[0])
                elif slot[2] >= 0 and sig[q] <= slot[2]:
                    issue("lost_signal", index, slot[3])
                slot[0] = index
                slot[1] = sig
            elif op == WAIT_FLAG:
                q = pipe_index[ins.dst]  # type: ignore[index]
                eid, logical = ins.event_id, ins.logical
                if logical:
                    if require_physical:
                        issue("logical_id", index)
                elif pool is not None and not 0 <= eid < pool:  # type: ignore[operator]
                    issue("id_out_of_range", index)
                slot = slots.get((pipe_index[ins.src], q, eid, logical))  # type: ignore[arg-type,index]
                if slot is None or slot[0] < 0:
                    wait(q, None)
                    issue("wait_without_set", index)
                    continue
                slot[2] = wait(q, slot[1])
                slot[0] = -1
                slot[3] = index
            elif op == PIPE_BARRIER:
                if ins.pipe == _ALL:
                    clock.strong()
                    shadow.clear()
                else:
                    clock.barrier(ins.pipe)
            elif op == SYNC_ALL:
                clock.strong()
                shadow.clear()
            else:
                p = pipe_index[ins.pipe]
                n = count[p]  # Clock.work, inlined: the hottest step of the engine
                count[p] = n + 1
                if p == _S and ins.reads:
                    clock.hold()
                if races:
                    check_access(ins, index, p, n, know[p], inorder[p], race)
        for slot in slots.values():
            if slot[0] >= 0:
                issue("unmatched_set", slot[0])
        report = self.report
        report.issues.sort(key=lambda x: x.index)
        return report

    def issue(self, kind: str, index: int, other: int = -1) -> None:
        report, instrs = self.report, self.instrs
        report.issue_count += 1
        if len(report.issues) < self.max_reports:
            report.issues.append(SyncIssue(kind, instrs[index], index, instrs[other] if other >= 0 else None,
                                           other))

    def race(self, kind: str, first: int, second: int, space: Space, lo: int, hi: int) -> None:
        report, instrs = self.report, self.instrs
        report.race_count += 1
        if len(report.races) < self.max_reports:
            report.races.append(Race(kind, instrs[first], instrs[second], first, second,
                                     Access(space, lo, hi - lo)))


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
    clock = Clock()
    pipe_index = PIPE_INDEX
    pending: dict[tuple[int, int, int, bool], tuple[int, list[int]]] = {}
    uses: list[tuple[int, FlagUse]] = []
    for index, ins in enumerate(instrs):
        op = ins.op
        if op == SET_FLAG:
            p = pipe_index[ins.src]  # type: ignore[index]
            pending[(p, pipe_index[ins.dst], ins.event_id, ins.logical)] = (index, clock.signal(p))  # type: ignore[index]
        elif op == WAIT_FLAG:
            p, q = pipe_index[ins.src], pipe_index[ins.dst]  # type: ignore[index]
            got = pending.pop((p, q, ins.event_id, ins.logical), None)  # type: ignore[arg-type]
            if got is None:
                clock.wait(q, None)
                continue
            s, sig = got
            n = clock.wait(q, sig)
            uses.append((s, FlagUse(p, q, ins.event_id, ins.logical, s, index, sig[q], n)))  # type: ignore[arg-type]
        elif op == PIPE_BARRIER:
            clock.barrier(ins.pipe)
        elif op == SYNC_ALL:
            clock.strong()
        else:
            clock.work(pipe_index[ins.pipe], ins.reads)
    uses.sort(key=lambda x: x[0])
    return [u for _, u in uses]
