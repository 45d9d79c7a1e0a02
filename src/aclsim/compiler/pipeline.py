"""The sync passes as a named, ordered pipeline: what a backend runs on each core's recorded
stream between recording a kernel and simulating it (record -> passes -> simulate).

Every pass is a named, pure function ``run(stream, ctx) -> stream`` on one core's stream (a
recorded ``list[Instr]`` or a :class:`~aclsim.compiler.program.Program`): it never modifies
its input, and writes its figures into ``ctx.stats`` (:class:`~aclsim.compiler.api.SyncStats`).
:data:`PASSES` lists them in the one order they may run in (as TVM VTA lists its transform
passes); a :class:`Pipeline` is a selection of them, in that order, with the options they
share:

============== =========================================================================
pass           what it does
============== =========================================================================
strip_syncs    drops the stream's own flags and same-pipe barriers (strong syncs stay)
infer_sync     inserts the logical set/wait pairs and barriers the dependences need
allocate_events gives the logical pairs physical event IDs (seed 002)
verify_sync    proves the result: every dependence ordered, every flag paired, IDs in the
               pool (``SyncError`` if not); the report goes to ``stats.report``
find_races     the kernel sanitizer's check: the unordered conflicting accesses go to
               ``stats.races``, and the walk's whole report (flag misuse too) to
               ``stats.report`` unless ``verify_sync`` filled it (the stream is returned as it is)
============== =========================================================================

>>> from aclsim.compiler import parse, format_program
>>> p = Pipeline.of("infer_sync", "allocate_events", "verify_sync")
>>> p
<Pipeline infer_sync -> allocate_events -> verify_sync>
>>> prog = parse("MTE2 ld w:UB[0:64]\\nV add r:UB[0:64]")
>>> print(format_program(p.run(prog, "910B")), end="")
MTE2 ld w:UB[0:64]
set_flag MTE2 V 0
wait_flag MTE2 V 0
V add r:UB[0:64]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import overload

from aclsim.arch import ChipSpec
from aclsim.compiler.alloc import allocate_events, resolve_pool
from aclsim.compiler.api import SyncStats, strip_syncs, verify_sync
from aclsim.compiler.clock import SAME_PIPE_MODES
from aclsim.compiler.hb import check
from aclsim.compiler.infer import infer_sync
from aclsim.compiler.program import Program
from aclsim.compiler.types import SyncError
from aclsim.isa import Instr

Stream = Program | list[Instr]


@dataclass(slots=True)
class PassContext:
    """What the passes of one run share: the pool (event IDs per pipe pair), the same-pipe
    rule, the report limit, the figures they fill, and the names of the passes run so far."""

    pool: int
    same_pipe: str
    max_reports: int
    stats: SyncStats
    name: str
    done: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Pass:
    """A named pure function on one core's stream (see the module)."""

    name: str
    run: Callable[[Stream, PassContext], Stream]
    doc: str

    def __repr__(self) -> str:
        return f"<Pass {self.name}>"


def _strip(stream: Stream, ctx: PassContext) -> Stream:
    return strip_syncs(stream)


def _infer(stream: Stream, ctx: PassContext) -> Stream:
    return infer_sync(stream, same_pipe=ctx.same_pipe, stats=ctx.stats.infer)


def _allocate(stream: Stream, ctx: PassContext) -> Stream:
    return allocate_events(stream, pool=ctx.pool, stats=ctx.stats.alloc)


def _verify(stream: Stream, ctx: PassContext) -> Stream:
    report = verify_sync(stream, pool=ctx.pool, same_pipe=ctx.same_pipe, require_physical=True,
                         max_reports=ctx.max_reports)
    ctx.stats.report = report
    if not report.ok:
        if "infer_sync" in ctx.done or "allocate_events" in ctx.done:
            raise SyncError(f"{ctx.name} produced a stream that does not verify (a bug in aclsim.compiler):\n"
                            + str(report))
        raise SyncError("the stream does not verify:\n" + str(report))
    return stream


def _races(stream: Stream, ctx: PassContext) -> Stream:
    instrs = stream.unroll() if isinstance(stream, Program) else stream
    report = check(instrs, same_pipe=ctx.same_pipe, max_reports=ctx.max_reports)
    ctx.stats.races = report.races
    if ctx.stats.report is None:  # the same walk saw the flags: their misuse, for whoever runs next
        ctx.stats.report = report
    return stream


#: Every pass, in the one order they run in.
PASSES: tuple[Pass, ...] = (
    Pass("strip_syncs", _strip, "drop the stream's own flags and same-pipe barriers (strong syncs stay)"),
    Pass("infer_sync", _infer, "insert the logical set/wait pairs and barriers the dependences need"),
    Pass("allocate_events", _allocate, "give the logical pairs physical event IDs (seed 002)"),
    Pass("verify_sync", _verify, "every dependence ordered, every flag paired, IDs physical and in the "
                                 "pool (SyncError if not); the report in stats.report"),
    Pass("find_races", _races, "the sanitizer's check: unordered conflicting accesses in stats.races "
                               "(the walk's report, flag misuse too, in stats.report)"),
)
_BY_NAME = {p.name: p for p in PASSES}


@dataclass(frozen=True, slots=True)
class Pipeline:
    """Passes of :data:`PASSES`, in their listed order, with the options they share.

    Parameters
    ----------
    passes
        The passes (a subsequence of :data:`PASSES`: each at most once, in the listed order).
    same_pipe
        ``"barrier"`` (Ascend C: a same-pipe dependence needs ``pipe_barrier``) or
        ``"inorder"`` (every pipe completes in order), for every pass.
    max_reports
        Races and sync issues listed at most (the counts are exact).
    name
        What error messages call the pipeline.
    """

    passes: tuple[Pass, ...]
    same_pipe: str = "barrier"
    max_reports: int = 100
    name: str = "the sync pipeline"

    def __post_init__(self) -> None:
        if self.same_pipe not in SAME_PIPE_MODES:
            raise ValueError(f"same_pipe must be one of {SAME_PIPE_MODES}, got {self.same_pipe!r}")
        order = [PASSES.index(p) if p in PASSES else -1 for p in self.passes]
        if -1 in order:
            raise ValueError(f"{self.passes[order.index(-1)]!r} is not one of the passes of PASSES")
        if order != sorted(set(order)):
            raise ValueError(f"passes run once each, in the order {' -> '.join(_BY_NAME)}; got "
                             f"{' -> '.join(p.name for p in self.passes)}")

    @classmethod
    def of(cls, *names: str, same_pipe: str = "barrier", max_reports: int = 100,
           name: str = "the sync pipeline") -> Pipeline:
        """The pipeline of the passes named (in the listed order).

        >>> Pipeline.of("strip_syncs", "infer_sync").names
        ('strip_syncs', 'infer_sync')
        """
        unknown = [n for n in names if n not in _BY_NAME]
        if unknown:
            raise ValueError(f"unknown pass {unknown[0]!r}; passes: {', '.join(_BY_NAME)}")
        return cls(tuple(_BY_NAME[n] for n in names), same_pipe, max_reports, name)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.passes)

    @overload
    def run(self, stream: Program, chip: ChipSpec | str | None = ..., *, pool: int | None = ...,
            stats: SyncStats | None = ...) -> Program: ...

    @overload
    def run(self, stream: Sequence[Instr], chip: ChipSpec | str | None = ..., *, pool: int | None = ...,
            stats: SyncStats | None = ...) -> list[Instr]: ...

    def run(self, stream: Program | Sequence[Instr], chip: ChipSpec | str | None = None, *,
            pool: int | None = None, stats: SyncStats | None = None) -> Program | list[Instr]:
        """Run the passes on one core's stream; returns a new stream of the same form.

        ``chip`` / ``pool`` give the event IDs per pipe pair (default: the 910B's 8);
        ``stats`` is filled with what the passes did (inference, allocation, the report of
        ``verify_sync``, the races of ``find_races``).
        """
        stats = stats if stats is not None else SyncStats()
        size = resolve_pool(chip, pool)
        stats.alloc.pool = size
        ctx = PassContext(size, self.same_pipe, self.max_reports, stats, self.name)
        out: Stream = stream.copy() if isinstance(stream, Program) else list(stream)
        for p in self.passes:
            out = p.run(out, ctx)
            ctx.done.append(p.name)
        return out

    def __repr__(self) -> str:
        return f"<Pipeline {' -> '.join(self.names) or '(no pass)'}>"


def kernel_pipeline(*, auto_sync: bool, detect_races: bool) -> Pipeline:
    """The passes a kernel launch runs on each block's recorded stream (``KernelOptions``):

    - ``auto_sync``: the kernel's own flags are replaced: ``strip_syncs``, ``infer_sync``,
      ``allocate_events``, ``verify_sync`` (which also proves what ``find_races`` checks);
    - else ``detect_races``: ``find_races`` with same-pipe order taken as given
      (``same_pipe="inorder"``: the sanitizer reports what flags must order) and at most 10
      races listed; the backend raises ``RaceError`` on the first of ``stats.races``;
    - else no pass.

    >>> kernel_pipeline(auto_sync=False, detect_races=True)
    <Pipeline find_races>
    """
    if auto_sync:
        return Pipeline.of("strip_syncs", "infer_sync", "allocate_events", "verify_sync", name="auto_sync")
    if detect_races:
        return Pipeline.of("find_races", same_pipe="inorder", max_reports=10)
    return Pipeline(())


@overload
def auto_sync(stream: Program, chip: ChipSpec | str | None = ..., *, pool: int | None = ...,
              same_pipe: str = ..., stats: SyncStats | None = ..., verify: bool = ...) -> Program: ...


@overload
def auto_sync(stream: Sequence[Instr], chip: ChipSpec | str | None = ..., *, pool: int | None = ...,
              same_pipe: str = ..., stats: SyncStats | None = ..., verify: bool = ...) -> list[Instr]: ...


def auto_sync(stream: Program | Sequence[Instr], chip: ChipSpec | str | None = None, *,
              pool: int | None = None, same_pipe: str = "barrier", stats: SyncStats | None = None,
              verify: bool = True) -> Program | list[Instr]:
    """Insert and allocate every sync a stream needs: the pipeline ``infer_sync`` ->
    ``allocate_events`` (-> ``verify_sync``; a failure there is a bug of the passes and raises
    ``SyncError``).

    This is what the kernel language's ``auto_sync=True`` calls on one core's recorded trace.

    >>> from aclsim.isa import Access, Instr, Pipe, Space
    >>> trace = [Instr(Pipe.MTE2, "copy_in", writes=(Access(Space.UB, 0, 256),)),
    ...          Instr(Pipe.V, "add", reads=(Access(Space.UB, 0, 256),))]
    >>> [repr(i) for i in auto_sync(trace, "910B")]  # doctest: +NORMALIZE_WHITESPACE
    ['<Instr MTE2 copy_in w:UB[0:256]>', '<Instr MTE2 set_flag MTE2->V 0>',
     '<Instr V wait_flag MTE2->V 0>', '<Instr V add r:UB[0:256]>']
    """
    names = ("infer_sync", "allocate_events", "verify_sync")[:3 if verify else 2]
    pipeline = Pipeline.of(*names, same_pipe=same_pipe, name="auto_sync")
    return pipeline.run(stream, chip, pool=pool, stats=stats)


__all__ = ["PASSES", "Pass", "PassContext", "Pipeline", "auto_sync", "kernel_pipeline"]
