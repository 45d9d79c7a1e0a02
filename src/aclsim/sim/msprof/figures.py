"""What msprof's tables need from a ``SimReport``: which core type ("side") did each
instruction, and per block the busy cycles, instruction counts and bytes of each side.

An aclsim block records every pipe on one stream; Atlas A2 (910B) splits an AI Core into a
cube core (AIC: ``CUBE``, ``MTE1``, ``FIXP``, and ``MTE2`` into L1) and vector cores (AIV:
``VECTOR``, ``MTE3``, and ``MTE2`` into UB).  The scalar pipe, barriers and the
instructions whose side cannot be told go to the launch's main side (the AIC for
``AI_CORE`` / ``MIX_AIC``, else the AIV).  On a coupled chip (310P) one AI Core runs
everything: its task is ``AI_CORE``, its figures are laid out as on the split chip.
A mixed AIC + AIV kernel (``KERNEL_TYPE_MIX_AIC_1_1`` / ``_1_2``) records one stream per core
of each group, each timeline with its type (``tl.kind``): all its instructions are that side's,
its task is ``MIX_AIC``, and a core is placed at (its group, ``cube0`` / ``vector{sub}``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from aclsim.isa import EXEC_PIPES, Instr, Op, Pipe, Space
from aclsim.sim.report import CoreTimeline, SimReport

AIC, AIV = "aic", "aiv"
SIDES = (AIC, AIV)
NA = "N/A"  # what msprof writes for data it does not have

_AIC_PIPES = frozenset((Pipe.M, Pipe.MTE1, Pipe.FIX))
_AIV_PIPES = frozenset((Pipe.V, Pipe.MTE3))
_CUBE_SPACES = frozenset((Space.L1, Space.L0A, Space.L0B, Space.L0C, Space.BT, Space.FB))
_GM_SPACES = frozenset((Space.GM, Space.HOST))
_SYNC = frozenset(op.value for op in Op)


@dataclass(frozen=True)
class Task:
    """One launch as msprof sees a task: its report and what the runtime knew of it.

    ``start_us`` is the launch's start on its stream's modeled clock (None: the tasks are
    laid one after another from 0).  ``name`` is the kernel name (msprof's Op Name).
    """

    report: SimReport
    name: str = "kernel"
    task_id: int = 0
    stream_id: int = 0
    device_id: int = 0
    start_us: float | None = None


def moved_bytes(ins: Instr) -> int:
    """The bytes a copy moves, as the cost model counts them (``bytes``, else the larger of
    the bytes read and written)."""
    if ins.cost.bytes is not None:
        return int(ins.cost.bytes)
    return max(sum(a.length for a in ins.writes), sum(a.length for a in ins.reads), 0)


def _natural_side(ins: Instr) -> str | None:
    """The core type an instruction belongs to by its pipe and operands (None: either).
    A flag on a shared pipe (``MTE2``, ``S``) goes with the pipe at its other end."""
    pipe = ins.pipe  # a set_flag runs on its source pipe, a wait_flag on its destination
    if pipe in _AIC_PIPES:
        return AIC
    if pipe in _AIV_PIPES:
        return AIV
    if ins.op in _SYNC:
        other = ins.dst if ins.op == Op.SET_FLAG.value else ins.src if ins.op == Op.WAIT_FLAG.value else None
        return AIC if other in _AIC_PIPES else AIV if other in _AIV_PIPES else None
    if pipe is Pipe.MTE2:
        if any(a.space in _CUBE_SPACES for a in ins.writes):
            return AIC
        if any(a.space is Space.UB for a in ins.writes):
            return AIV
    return None


def placement(tl: CoreTimeline) -> tuple[int, str, int]:
    """A mixed launch's core: ``(group, side, index of the AIV in its group)``."""
    size = 1 + int(tl.instrs[0].cost["ratio"])
    return tl.block // size, tl.kind.lower(), max(tl.block % size - 1, 0)


def split_kind(report: SimReport) -> str:
    """The Task Type a launch has on a split chip (Atlas A2): ``MIX_AIC`` for a mixed AIC + AIV
    kernel; else ``AI_VECTOR_CORE`` when only vector-side pipes worked, ``AI_CORE`` when only
    cube-side ones did, ``MIX_AIC`` when both did and the cube pipe was busy at least as long as
    the vector pipe, else ``MIX_AIV``.  It also decides which side each instruction's figures
    go to (:func:`side_of`)."""
    if any(tl.kind for tl in report.timelines):
        return "MIX_AIC"
    sides = {_natural_side(ins) for tl in report.timelines for ins in tl.instrs}
    if AIC in sides and AIV in sides:
        busy = report.pipe_busy()
        return "MIX_AIC" if busy[Pipe.M] >= busy[Pipe.V] else "MIX_AIV"
    return "AI_CORE" if AIC in sides else "AI_VECTOR_CORE"


def task_type(report: SimReport) -> str:
    """msprof's Task Type: :func:`split_kind`, or ``AI_CORE`` on a coupled chip (310P), whose
    AI Core runs every pipe (its figures keep the split layout's columns)."""
    return "AI_CORE" if report.chip.coupled else split_kind(report)


def main_side(kind: str) -> str:
    return AIC if kind in ("AI_CORE", "MIX_AIC") else AIV


def side_of(ins: Instr, kind: str) -> str:
    """The side that runs ``ins`` in a launch of Task Type ``kind``."""
    if kind == "AI_CORE":
        return AIC
    if kind == "AI_VECTOR_CORE":
        return AIV
    return _natural_side(ins) or main_side(kind)


def busy_shares(tl: CoreTimeline) -> list[float]:
    """Each instruction's share of its pipe's busy cycles: its start-to-end span less what an
    earlier instruction of the pipe already covered (a copy's latency overlaps the next copy),
    so the shares of a pipe add up to the block's busy cycles of that pipe."""
    covered: dict[Pipe, float] = {}
    out = [0.0] * len(tl.instrs)
    for i, ins in enumerate(tl.instrs):
        s, e = tl.start[i], tl.end[i]
        c = covered.get(ins.pipe, s)
        out[i] = max(e, c) - max(s, c)
        covered[ins.pipe] = max(e, c)
    return out


@dataclass
class SideFigures:
    """One side of one block: resident cycles, per pipe busy cycles, instruction counts and
    bytes moved, and bytes by route (``"GM_to_UB"``, ``"UB_to_GM"``, ``"GM_to_L1"``,
    ``"L0C_to_GM"``, ``"L0C_to_L1"``, ``"read_main_memory"``, ``"write_main_memory"``,
    ``"l1_read"``, ``"l1_write"``)."""

    total: float = 0.0
    busy: dict[Pipe, float] = field(default_factory=lambda: dict.fromkeys(EXEC_PIPES, 0.0))
    count: dict[Pipe, int] = field(default_factory=lambda: dict.fromkeys(EXEC_PIPES, 0))
    nbytes: dict[Pipe, int] = field(default_factory=lambda: dict.fromkeys(EXEC_PIPES, 0))
    route: dict[str, int] = field(default_factory=dict)
    used: bool = False


def _routes(ins: Instr, nb: int) -> list[str]:
    src = {a.space for a in ins.reads}
    dst = {a.space for a in ins.writes}
    out = []
    if src & _GM_SPACES:
        out.append("read_main_memory")
    if dst & _GM_SPACES:
        out.append("write_main_memory")
    if Space.L1 in src:
        out.append("l1_read")
    if Space.L1 in dst:
        out.append("l1_write")
    for a, b, name in ((_GM_SPACES, {Space.UB}, "GM_to_UB"), ({Space.UB}, _GM_SPACES, "UB_to_GM"),
                       (_GM_SPACES, {Space.L1}, "GM_to_L1"), ({Space.L0C}, _GM_SPACES, "L0C_to_GM"),
                       ({Space.L0C}, {Space.L1}, "L0C_to_L1")):
        if src & a and dst & b:
            out.append(name)
    return out if nb else []


def block_figures(tl: CoreTimeline, kind: str) -> dict[str, SideFigures]:
    """Per side, what block ``tl`` did.  A side's busy cycles of a pipe are the block's
    (``tl.busy``), shared between the sides in proportion to the instructions' cycles when
    both sides used the pipe (``MTE2`` of a mix kernel); a side that ran anything is resident
    for the block's whole span (``finish - begin``: one scalar unit issues for both here)."""
    figs = {side: SideFigures() for side in SIDES}
    own: dict[tuple[str, Pipe], float] = {}
    shares = busy_shares(tl)
    core_side = tl.kind.lower()
    for i, ins in enumerate(tl.instrs):
        side = core_side or side_of(ins, kind)
        f = figs[side]
        f.used = True
        if ins.pipe is Pipe.ALL or ins.op in _SYNC:
            continue
        f.count[ins.pipe] += 1
        own[side, ins.pipe] = own.get((side, ins.pipe), 0.0) + shares[i]
        if ins.pipe in (Pipe.MTE1, Pipe.MTE2, Pipe.MTE3, Pipe.FIX):
            nb = moved_bytes(ins)
            f.nbytes[ins.pipe] += nb
            for r in _routes(ins, nb):
                f.route[r] = f.route.get(r, 0) + nb
    span = max(tl.finish - tl.begin, 0.0)
    main = core_side or main_side(kind)
    for pipe in EXEC_PIPES:
        parts = {side: own.get((side, pipe), 0.0) for side in SIDES}
        whole = sum(parts.values())
        for side in SIDES:
            if whole > 0:
                figs[side].busy[pipe] = tl.busy[pipe] * parts[side] / whole
            elif side == main:  # busy without a timed instruction (none today): the main side's
                figs[side].busy[pipe] = tl.busy[pipe]
    for f in figs.values():
        f.total = span if f.used else 0.0
    return figs


def launch_figures(report: SimReport, kind: str) -> list[dict[str, SideFigures]]:
    return [block_figures(tl, kind) for tl in report.timelines]


def ratio(part: float, whole: float) -> float | str:
    return part / whole if whole > 0 else NA


def fmt(value: float | str | None, digits: int = 3) -> str:
    """A figure as msprof writes it: ``digits`` decimals, N/A for what is missing."""
    if value is None or isinstance(value, str):
        return NA if value is None else value
    return f"{value:.{digits}f}"


def mhz(report: SimReport) -> float:
    return report.chip.clock_hz / 1e6


def laid_out(tasks: Sequence[Task]) -> list[float]:
    """Each task's start in microseconds: its own, else right after the previous task."""
    out: list[float] = []
    t = 0.0
    for task in tasks:
        start = task.start_us if task.start_us is not None else t
        out.append(start)
        t = start + task.report.task_seconds * 1e6
    return out
