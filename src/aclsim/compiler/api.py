"""Entry points other layers call besides the passes: :func:`verify_sync`, :func:`strip_syncs`
and :class:`SyncStats` (``auto_sync`` and the pipeline are in :mod:`aclsim.compiler.pipeline`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import overload

from aclsim.arch import ChipSpec
from aclsim.compiler.alloc import resolve_pool
from aclsim.compiler.hb import HBReport, Race, check
from aclsim.compiler.program import Item, Loop, Program
from aclsim.compiler.types import BARRIER_OPS, FLAG_OPS, AllocStats, InferStats
from aclsim.isa import Instr


def verify_sync(stream: Program | Sequence[Instr], chip: ChipSpec | str | None = None, *,
                pool: int | None = None, same_pipe: str = "barrier", require_physical: bool = False,
                max_reports: int = 100) -> HBReport:
    """Check a stream with the happens-before engine (:func:`aclsim.compiler.hb.check`).

    Every conflicting access pair (so every dependence :func:`infer_sync` finds) must be
    ordered; every wait must have its set; no flag may be set twice before its wait or fire
    before the previous wait consumed it; no set may stay unwaited; physical IDs must lie in
    the pool (``pool``, else the chip's ``events_per_pipe_pair`` when ``chip`` is given).
    A :class:`Program` is unrolled; reports then name the loop iteration too.

    >>> from aclsim.compiler.text import parse
    >>> print(verify_sync(parse("MTE2 ld w:UB[0:64]\\nV add r:UB[0:64]")))  # doctest: +ELLIPSIS
    1 race(s), 0 sync issue(s)
    RAW race on UB[0:64]: line 1 'MTE2 ld w:UB[0:64]' and line 2 'V add r:UB[0:64]' are not ordered; ...
    """
    size = resolve_pool(chip, pool) if (chip is not None or pool is not None) else None
    if not isinstance(stream, Program):
        return check(stream, same_pipe=same_pipe, pool=size, require_physical=require_physical,
                     max_reports=max_reports)
    instrs, origin = stream.unroll_with_origin()
    report = check(instrs, same_pipe=same_pipe, pool=size, require_physical=require_physical,
                   max_reports=max_reports)

    def ctx(index: int) -> str:
        loops = origin[index][1]
        return ", ".join(f"{name}={value}" for name, value in loops)

    report.races = [replace(r, context=_join(ctx(r.first_index), ctx(r.second_index))) for r in report.races]
    report.issues = [replace(x, context=ctx(x.index)) for x in report.issues]
    return report


def _join(a: str, b: str) -> str:
    if not a and not b:
        return ""
    return f"{a or '-'} / {b or '-'}"


@overload
def strip_syncs(stream: Program, *, keep_strong: bool = ...) -> Program: ...


@overload
def strip_syncs(stream: Sequence[Instr], *, keep_strong: bool = ...) -> list[Instr]: ...


def strip_syncs(stream: Program | Sequence[Instr], *, keep_strong: bool = True) -> Program | list[Instr]:
    """The work of a stream without its flags and same-pipe barriers (strong syncs kept unless
    ``keep_strong`` is False): what :func:`~aclsim.compiler.auto_sync` starts from when a
    kernel's own syncs are to be replaced.  A :class:`Program` keeps its loops.

    >>> from aclsim.isa import Pipe, pipe_barrier, set_flag
    >>> strip_syncs([set_flag(Pipe.MTE2, Pipe.V, 0), pipe_barrier(Pipe.V), pipe_barrier(Pipe.ALL)])
    [<Instr pipe_barrier ALL>]
    """
    if isinstance(stream, Program):
        return Program(_strip_items(stream.items, keep_strong), stream.file)
    out: list[Instr] = []
    for ins in stream:
        if ins.op in FLAG_OPS:
            continue
        if ins.op in BARRIER_OPS and not (keep_strong and ins.is_strong_sync):
            continue
        out.append(ins)
    return out


def _strip_items(items: Sequence[Item], keep_strong: bool) -> list[Item]:
    out: list[Item] = []
    for item in items:
        if isinstance(item, Loop):
            out.append(replace(item, body=_strip_items(item.body, keep_strong)))
        elif item.op in FLAG_OPS or (item.op in BARRIER_OPS and not (keep_strong and item.is_strong_sync)):
            continue
        else:
            out.append(item)
    return out


@dataclass(slots=True)
class SyncStats:
    """What :func:`~aclsim.compiler.auto_sync` (or a :class:`~aclsim.compiler.Pipeline`) did:
    inference and allocation figures, the verification, the races found by ``find_races``."""

    infer: InferStats = field(default_factory=InferStats)
    alloc: AllocStats = field(default_factory=lambda: AllocStats(0))
    report: HBReport | None = None
    races: list[Race] = field(default_factory=list)

    def summary(self) -> str:
        return (f"inferred {self.infer.flags} flag pair(s) and {self.infer.barriers} barrier(s); "
                + self.alloc.summary())
