"""The entry points other layers call: :func:`verify_sync` and :func:`auto_sync`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import overload

from aclsim.arch import ChipSpec
from aclsim.compiler.alloc import allocate_events, resolve_pool
from aclsim.compiler.hb import HBReport, check
from aclsim.compiler.infer import infer_sync
from aclsim.compiler.program import Program
from aclsim.compiler.types import BARRIER_OPS, FLAG_OPS, AllocStats, InferStats, SyncError
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


def strip_syncs(stream: Sequence[Instr], *, keep_strong: bool = True) -> list[Instr]:
    """The work of a recorded stream without its flags and same-pipe barriers (strong syncs
    kept unless ``keep_strong`` is False): what :func:`auto_sync` starts from when a kernel's
    own syncs are to be replaced.

    >>> from aclsim.isa import Pipe, pipe_barrier, set_flag
    >>> strip_syncs([set_flag(Pipe.MTE2, Pipe.V, 0), pipe_barrier(Pipe.V), pipe_barrier(Pipe.ALL)])
    [<Instr pipe_barrier ALL>]
    """
    out: list[Instr] = []
    for ins in stream:
        if ins.op in FLAG_OPS:
            continue
        if ins.op in BARRIER_OPS and not (keep_strong and ins.is_strong_sync):
            continue
        out.append(ins)
    return out


@dataclass(slots=True)
class SyncStats:
    """What :func:`auto_sync` did: inference and allocation figures, and the verification."""

    infer: InferStats = field(default_factory=InferStats)
    alloc: AllocStats = field(default_factory=lambda: AllocStats(0))
    report: HBReport | None = None

    def summary(self) -> str:
        return (f"inferred {self.infer.flags} flag pair(s) and {self.infer.barriers} barrier(s); "
                + self.alloc.summary())


@overload
def auto_sync(stream: Program, chip: ChipSpec | str | None = ..., *, pool: int | None = ...,
              same_pipe: str = ..., stats: SyncStats | None = ..., verify: bool = ...) -> Program: ...


@overload
def auto_sync(stream: Sequence[Instr], chip: ChipSpec | str | None = ..., *, pool: int | None = ...,
              same_pipe: str = ..., stats: SyncStats | None = ..., verify: bool = ...) -> list[Instr]: ...


def auto_sync(stream: Program | Sequence[Instr], chip: ChipSpec | str | None = None, *,
              pool: int | None = None, same_pipe: str = "barrier", stats: SyncStats | None = None,
              verify: bool = True) -> Program | list[Instr]:
    """Insert and allocate every sync a stream needs: ``infer_sync`` then ``allocate_events``
    (then ``verify_sync``; a failure there is a bug of the passes and raises ``SyncError``).

    This is what the kernel language's ``auto_sync=True`` calls on one core's recorded trace.

    >>> from aclsim.isa import Access, Instr, Pipe, Space
    >>> trace = [Instr(Pipe.MTE2, "copy_in", writes=(Access(Space.UB, 0, 256),)),
    ...          Instr(Pipe.V, "add", reads=(Access(Space.UB, 0, 256),))]
    >>> [repr(i) for i in auto_sync(trace, "910B")]  # doctest: +NORMALIZE_WHITESPACE
    ['<Instr MTE2 copy_in w:UB[0:256]>', '<Instr MTE2 set_flag MTE2->V 0>',
     '<Instr V wait_flag MTE2->V 0>', '<Instr V add r:UB[0:256]>']
    """
    stats = stats if stats is not None else SyncStats()
    size = resolve_pool(chip, pool)
    stats.alloc.pool = size
    logical = infer_sync(stream, same_pipe=same_pipe, stats=stats.infer)
    out = allocate_events(logical, pool=size, stats=stats.alloc)
    if verify:
        report = verify_sync(out, pool=size, same_pipe=same_pipe, require_physical=True)
        stats.report = report
        if not report.ok:
            raise SyncError("auto_sync produced a stream that does not verify (a bug in aclsim.compiler):\n"
                            + str(report))
    return out
