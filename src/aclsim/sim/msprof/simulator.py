"""msOpProf simulator-style outputs of one launch (``calibration.md`` 10.3): per sub-core
(``core{N}.veccore{k}``, ``core{N}.cubecore0``) a ``trace.json`` with one process per pipe,
``instr_exe.csv`` and ``code_exe.csv``; and the merged trace of every sub-core.

Times are microseconds: cycles / the chip's clock in MHz, from the launch's start.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from aclsim.isa import Instr, Op, Pipe
from aclsim.sim.msprof.figures import (
    AIC,
    NA,
    busy_shares,
    fmt,
    mhz,
    moved_bytes,
    placement,
    side_of,
    split_kind,
)
from aclsim.sim.report import CoreTimeline, SimReport
from aclsim.sim.stream import XSET_OP, XWAIT_OP

INSTR_EXE_HEADER = ("instr", "addr", "pipe", "call_count", "cycles", "running_time(us)", "detail")
CODE_EXE_HEADER = ("code", "call_count", "cycles", "running_time(us)")

#: msOpProf's pipe rows in display order (utility.cpp), those aclsim has
PIPE_ORDER = (Pipe.S, Pipe.MTE1, Pipe.M, Pipe.FIX, Pipe.MTE2, Pipe.V, Pipe.MTE3, Pipe.ALL)
_DETAIL_PIPE = {Pipe.S: "SCALAR", Pipe.V: "VEC", Pipe.M: "CUBE", Pipe.MTE1: "MTE1", Pipe.MTE2: "MTE2",
                Pipe.MTE3: "MTE3", Pipe.FIX: "FIXP", Pipe.ALL: "ALL"}
_SYNC_NAMES = {Op.SET_FLAG.value: "SET_FLAG", Op.WAIT_FLAG.value: "WAIT_FLAG",
               Op.PIPE_BARRIER.value: "BARRIER", Op.SYNC_ALL.value: "SYNC_ALL"}


@dataclass
class SubCore:
    """One sub-core's share of a launch: ``(timeline, instruction index)`` in program order,
    block after block (a physical core runs the blocks of successive waves)."""

    name: str
    items: list[tuple[CoreTimeline, int]] = field(default_factory=list)


def subcore_name(tl: CoreTimeline, side: str, kind: str, coupled: bool) -> str:
    """msOpProf's folder name of the sub-core running block ``tl``'s ``side``: a vector-only
    launch on a split chip puts two vector cores in each AI Core (``core{c // 2}.veccore{c %
    2}``); otherwise (and on a coupled chip) core ``c`` is one AI Core with ``cubecore0`` and
    ``veccore0``."""
    if tl.kind:  # a core of a mixed group: the group's AI Core, its cube core or its vector core
        g, own, sub = placement(tl)
        return f"core{g}.cubecore0" if own == AIC else f"core{g}.veccore{sub}"
    c = tl.core
    if kind == "AI_VECTOR_CORE" and not coupled:
        return f"core{c // 2}.veccore{c % 2}"
    return f"core{c}.cubecore0" if side == AIC else f"core{c}.veccore0"


def subcores(report: SimReport) -> list[SubCore]:
    """The launch's sub-cores in core order, each with its instructions."""
    kind = split_kind(report)
    found: dict[str, SubCore] = {}
    for tl in report.timelines:
        for i, ins in enumerate(tl.instrs):
            name = subcore_name(tl, side_of(ins, kind), kind, report.chip.coupled)
            found.setdefault(name, SubCore(name)).items.append((tl, i))
    return [found[k] for k in sorted(found, key=_core_key)]


def _core_key(name: str) -> tuple[int, str]:
    core, sub = name.split(".")
    return int(core[4:]), sub


def cycles_text(cycles: float) -> str:
    """Cycles as msOpProf writes them (an integer), with two decimals where the model's
    durations are fractional (bytes / rate), so that the rows add up."""
    whole = round(cycles)
    return str(whole) if abs(cycles - whole) < 1e-9 else f"{cycles:.2f}"


def instr_name(ins: Instr) -> str:
    return _SYNC_NAMES.get(ins.op, ins.op)


def detail(ins: Instr) -> str:
    """What msOpProf's ``detail`` says of an instruction: for a flag ``PIPE:<set pipe>,
    TRIGGERPIPE:<waiting pipe>,FLAGID:<id>`` (the same key on the set and its wait); for
    other instructions the operands' byte ranges."""
    if ins.flag is not None:
        src, dst, eid = ins.flag
        return f"PIPE:{_DETAIL_PIPE[src]},TRIGGERPIPE:{_DETAIL_PIPE[dst]},FLAGID:{eid}"
    if ins.op == Op.PIPE_BARRIER.value:
        return f"PIPE:{_DETAIL_PIPE[ins.pipe]}"
    return " ".join([*(f"r:{a}" for a in ins.reads), *(f"w:{a}" for a in ins.writes)])


def site_detail(ins: Instr) -> str:
    """``detail`` of an instruction site: a flag's or barrier's :func:`detail`, else the
    memories it moves between (``GM->UB``), the same on every execution of the line."""
    if ins.is_sync:
        return detail(ins)
    src = "+".join(dict.fromkeys(a.space.value for a in ins.reads))
    dst = "+".join(dict.fromkeys(a.space.value for a in ins.writes))
    return f"{src}->{dst}" if src or dst else ""


def instr_exe_rows(report: SimReport, sub: SubCore) -> list[list[str]]:
    """One row per instruction site (operation, pipe, source line, detail) of a sub-core,
    in order of first execution: call count, busy cycles, time.  aclsim has no program
    counter: ``addr`` is N/A and the source line leads ``detail``."""
    freq = mhz(report)
    rows: dict[tuple[str, Pipe, str, str], list[Any]] = {}
    shares = _shares(sub)
    for tl, i in sub.items:
        ins = tl.instrs[i]
        key = (instr_name(ins), ins.pipe, ins.where, site_detail(ins))
        row = rows.get(key)
        if row is None:
            row = rows[key] = [0, 0.0]
        row[0] += 1
        row[1] += shares[id(tl)][i]
    return [[name, NA, pipe.track_name, str(n), cycles_text(cyc), fmt(cyc / freq), f"{where} {text}".strip()]
            for (name, pipe, where, text), (n, cyc) in rows.items()]


def code_exe_rows(report: SimReport, sub: SubCore) -> list[list[str]]:
    """One row per kernel source line (``file:line``) of a sub-core: the instructions it
    issued, their busy cycles and time."""
    freq = mhz(report)
    rows: dict[str, list[Any]] = {}
    shares = _shares(sub)
    for tl, i in sub.items:
        row = rows.setdefault(tl.instrs[i].where, [0, 0.0])
        row[0] += 1
        row[1] += shares[id(tl)][i]
    return [[code, str(n), cycles_text(cyc), fmt(cyc / freq)] for code, (n, cyc) in rows.items()]


def _shares(sub: SubCore) -> dict[int, list[float]]:
    """:func:`busy_shares` of each block timeline of a sub-core, by the timeline's id."""
    out: dict[int, list[float]] = {}
    for tl, _ in sub.items:
        if id(tl) not in out:
            out[id(tl)] = busy_shares(tl)
    return out


def _lanes(spans: Sequence[tuple[float, float]]) -> list[int]:
    """A lane per slice so that slices of one lane never overlap (msOpProf's tids)."""
    ends: list[float] = []
    out = []
    for start, end in spans:
        lane = next((k for k, e in enumerate(ends) if e <= start), len(ends))
        if lane == len(ends):
            ends.append(end)
        else:
            ends[lane] = end
        out.append(lane)
    return out


def trace_events(report: SimReport, subs: Sequence[SubCore] | None = None) -> list[dict[str, Any]]:
    """Chrome trace events of the given sub-cores (all by default): per sub-core one process
    per pipe (``process_name`` the pipe, ``process_labels`` the sub-core), an ``X`` slice per
    instruction with ``args`` ``code`` (file:line), ``detail``, ``process_bytes``, and a
    ``flow`` arrow (``cat`` ``<SrcPipe>To<DstPipe>``) from each ``SET_FLAG`` to the
    ``WAIT_FLAG`` it released, and from each cross-core set to each wait that consumed it
    (between the sub-cores of a mixed kernel)."""
    freq = mhz(report)
    events: list[dict[str, Any]] = []
    where: dict[tuple[int, int], tuple[int, int]] = {}  # (id(timeline), index) -> (pid, tid)
    timelines: dict[int, CoreTimeline] = {}
    for n, sub in enumerate(subcores(report) if subs is None else subs):
        pid_of = {pipe: n * 16 + k for k, pipe in enumerate(PIPE_ORDER)}
        used = {tl.instrs[i].pipe for tl, i in sub.items}
        for pipe in PIPE_ORDER:
            if pipe in used:
                pid = pid_of[pipe]
                events += [{"ph": "M", "pid": pid, "name": "process_name", "args": {"name": pipe.track_name}},
                           {"ph": "M", "pid": pid, "name": "process_labels", "args": {"labels": sub.name}},
                           {"ph": "M", "pid": pid, "name": "process_sort_index", "args": {"sort_index": pid}}]
        for tl, _ in sub.items:
            timelines.setdefault(id(tl), tl)
        for pipe in PIPE_ORDER:
            items = sorted(((tl, i) for tl, i in sub.items if tl.instrs[i].pipe is pipe),
                           key=lambda it: it[0].start[it[1]])
            lanes = _lanes([(tl.start[i], tl.end[i]) for tl, i in items])
            for (tl, i), lane in zip(items, lanes, strict=True):
                ins = tl.instrs[i]
                where[id(tl), i] = (pid_of[pipe], lane)
                nbytes = moved_bytes(ins) if ins.pipe in (Pipe.MTE1, Pipe.MTE2, Pipe.MTE3, Pipe.FIX) else 0
                events.append({"name": instr_name(ins), "ph": "X", "pid": pid_of[pipe], "tid": lane,
                               "ts": tl.start[i] / freq, "dur": (tl.end[i] - tl.start[i]) / freq,
                               "args": {"code": ins.where, "detail": detail(ins), "process_bytes": nbytes}})
    flow_id = 0
    for tl in timelines.values():
        for s, w in tl.flows:
            if (id(tl), s) in where and (id(tl), w) in where:  # else: an end on a sub-core not traced
                flow_id += 1
                events += _flow(tl, s, tl, w, where, flow_id, freq)
    for stl, s, tl, w in _cross_flows(report):
        if (id(stl), s) in where and (id(tl), w) in where:
            flow_id += 1
            events += _flow(stl, s, tl, w, where, flow_id, freq)
    return events


def _cross_flows(report: SimReport) -> list[tuple[CoreTimeline, int, CoreTimeline, int]]:
    """``(setting core, set index, waiting core, wait index)`` of each cross-core set and a wait
    that consumed it (mixed kernels; ``cost["deps"]`` names the sets by core and ordinal)."""
    sets: dict[tuple[int, int], tuple[CoreTimeline, int]] = {}
    for tl in report.timelines:
        for i, ins in enumerate(tl.instrs):
            if ins.op == XSET_OP:
                sets[(int(ins.cost["unit"]), int(ins.cost["ordinal"]))] = (tl, i)
    out = []
    for tl in report.timelines:
        for w, ins in enumerate(tl.instrs):
            if ins.op == XWAIT_OP:
                out += [(*sets[d], tl, w) for d in ins.cost["deps"] if d in sets]
    return out


def _flow(stl: CoreTimeline, s: int, tl: CoreTimeline, w: int, where: dict[tuple[int, int], tuple[int, int]],
          flow_id: int, freq: float) -> list[dict[str, Any]]:
    set_ins, wait_ins = stl.instrs[s], tl.instrs[w]
    cat = f"{set_ins.pipe.track_name}To{wait_ins.pipe.track_name}"
    (spid, stid), (wpid, wtid) = where[id(stl), s], where[id(tl), w]
    mid = (stl.start[s] + stl.end[s]) / 2 / freq
    return [{"ph": "s", "name": "flow", "cat": cat, "id": flow_id, "pid": spid, "tid": stid, "ts": mid},
            {"ph": "t", "name": "flow", "cat": cat, "id": flow_id, "pid": wpid, "tid": wtid, "bp": "e",
             "ts": tl.end[w] / freq}]
