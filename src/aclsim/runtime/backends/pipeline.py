"""A kernel launch as a backend runs it: record -> compiler passes -> timing -> report -> hooks.

The kernel language only records (:meth:`KernelRun.record` runs every block on NumPy and
returns its instruction stream); the compiler's passes check or rewrite the streams (the race
sanitizer, or auto-sync when the kernel asks for it) before any timing is computed; the
backend times them (:meth:`Backend.time`: the core model for ``sim``, nothing for ``null``);
the launch gets its report; the launch hooks see it; the stream's clock advances by the
seconds this returns.
"""

from __future__ import annotations

import contextlib
import gc
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from aclsim.arch import ChipSpec
from aclsim.compiler import Pipeline, SyncStats, kernel_pipeline
from aclsim.compiler.hb import Race, SyncIssue
from aclsim.errors import AclError, KernelDeadlockError, RaceError, SyncError
from aclsim.isa import Instr

if TYPE_CHECKING:
    from aclsim.runtime.backends.base import Backend

__all__ = [
    "FindMemory",
    "KernelRun",
    "add_launch_listener",
    "capture_launches",
    "remove_launch_listener",
    "run_launch",
]

#: Finds the device memory a kernel may reach at an address (the runtime's pointer module).
FindMemory = Callable[[int], Any]


class KernelRun(Protocol):
    """What a backend needs of a kernel launch (``aclsim.kernel.KernelLaunch`` is one)."""

    name: str
    block_dim: int
    chip: ChipSpec
    options: Any  # .auto_sync, .detect_races, .on_race

    def record(self, find_memory: FindMemory) -> list[list[Instr]]:
        """Run every block, return its instruction stream."""

    def note_race(self, block: int, detail: str, file: str, line: int, start: int = 0, end: int = 0,
                  first: str = "") -> None:
        """Note a race on the launch's report (``on_race="report"``) instead of failing it."""

    def recorded(self, streams: list[list[Instr]], sync_stats: list[SyncStats]) -> None:
        """Take the streams after the compiler's passes (and what auto-sync did per block)."""

    def timed(self, report: Any, sim_seconds: float) -> None:
        """Take the timing report (None from a backend that does not time)."""

    def fail(self, error: BaseException) -> None:
        """Take the error of a launch that failed."""

    def close(self) -> None:
        """Mark the launch done (after the hooks saw it)."""


# --- the launch hooks -----------------------------------------------------------------------

_listeners: list[Callable[[Any], None]] = []
_listeners_lock = threading.Lock()


def add_launch_listener(fn: Callable[[Any], None]) -> Callable[[Any], None]:
    """Call ``fn(launch)`` after every kernel launch finishes (``launch.report`` set, or
    ``launch.error`` when it failed), on the stream's worker thread.  Returns ``fn`` (usable
    as a decorator).  A listener that raises is reported as a warning, never breaks the launch.
    """
    with _listeners_lock:
        _listeners.append(fn)
    return fn


def remove_launch_listener(fn: Callable[[Any], None]) -> None:
    with _listeners_lock:
        if fn in _listeners:
            _listeners.remove(fn)


@contextlib.contextmanager
def capture_launches() -> Iterator[list[Any]]:
    """Collect the launches that finish inside the ``with`` block.

    >>> with capture_launches() as launches:
    ...     pass
    >>> launches
    []
    """
    got: list[Any] = []
    add_launch_listener(got.append)
    try:
        yield got
    finally:
        remove_launch_listener(got.append)


def _notify(run: KernelRun) -> None:
    with _listeners_lock:
        listeners = list(_listeners)
    for fn in listeners:
        try:
            fn(run)
        except Exception as exc:  # noqa: BLE001 - an observer must not break the launch
            warnings.warn(f"kernel launch listener {fn!r} raised {type(exc).__name__}: {exc}",
                          RuntimeWarning, stacklevel=2)


# --- the compiler passes of a launch ------------------------------------------------------------

def _race_error(block: int, races: list[Race]) -> RaceError:
    first = races[0]
    more = f" (and {len(races) - 1} more)" if len(races) > 1 else ""
    return RaceError(f"{first}{more}", file=first.second.file, line=first.second.line, block=block,
                     hint="order the two instructions with set_flag/wait_flag (or a queue's enque/deque, "
                     "alloc/free), or disable the check with detect_races=False")


def _flag_error(block: int, issues: list[SyncIssue]) -> AclError:
    """A flag misuse found without running the core model (a hang first: what the device shows)."""
    issue = ([i for i in issues if i.kind == "wait_without_set"] or issues)[0]
    cls = KernelDeadlockError if issue.kind == "wait_without_set" else SyncError
    return cls(f"block {block}: {issue}", file=issue.instr.file, line=issue.instr.line, block=block,
               hint="pair every set_flag with one wait_flag of the same pipes and event ID")


class LaunchCheck:
    """The sanitizer's verdict on a launch's blocks, from the compiler's ``find_races`` pass.

    Cross-pipe accesses to overlapping memory not ordered by flags or barriers are races; the
    same walk also sees flags misused.  Same-pipe order is taken as given
    (``same_pipe="inorder"``): the sanitizer reports what flags must order;
    ``aclsim.compiler.verify_sync`` applies Ascend C's stricter same-pipe rule.
    """

    def __init__(self, stats: Sequence[SyncStats]) -> None:
        self.race: RaceError | None = None
        self.flag: AclError | None = None
        self.races = [(block, r) for block, st in enumerate(stats) for r in st.races]  # every one found
        for block, st in enumerate(stats):
            if st.races and self.race is None:
                self.race = _race_error(block, st.races)
            issues = st.report.issues if st.report is not None else []
            if issues and self.flag is None:
                self.flag = _flag_error(block, issues)

    def before_timing(self) -> None:
        """A race in a kernel whose flags are sound is reported before any timing is computed.
        With flags misused, that misuse is the kernel's first fault: the core model reports it
        (a hang or a lost signal, as the device would), and the race only after."""
        if self.race is not None and self.flag is None:
            raise self.race

    def after_timing(self, timed: bool) -> None:
        if self.flag is not None and not timed:
            raise self.flag
        if self.race is not None:
            raise self.race


def run_passes(streams: list[list[Instr]], chip: ChipSpec, options: Any, *,
               timed: bool = True) -> tuple[list[list[Instr]], list[SyncStats], LaunchCheck | None]:
    """Run the compiler's passes for a launch on every block (``kernel_pipeline``: auto-sync when
    the kernel asks for it, else the race sanitizer unless it is off).  Returns the streams,
    what auto-sync did per block (empty without it), and the sanitizer's verdict (None when no
    check ran).  A backend that does not time checks the flags here even when races are off."""
    pipeline = kernel_pipeline(auto_sync=options.auto_sync, detect_races=options.detect_races)
    if not pipeline.passes and not timed:
        pipeline = Pipeline.of("find_races", same_pipe="inorder", max_reports=10)
    if not pipeline.passes:
        return streams, [], None
    out, stats = [], []
    for stream in streams:
        block_stats = SyncStats()
        out.append(pipeline.run(stream, chip, stats=block_stats))
        stats.append(block_stats)
    if options.auto_sync:
        return out, stats, None
    if not options.detect_races:  # flags only (a backend that does not time)
        for st in stats:
            st.races = []
    return out, [], LaunchCheck(stats)


def run_launch(backend: Backend, run: KernelRun, find_memory: FindMemory) -> float:
    """Run a launch on ``backend``; the modeled seconds it took (0 without a timing model)."""
    # The recording makes many small objects that all stay alive until the launch ends:
    # the cyclic GC would rescan them again and again, so it is paused for the run.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        streams = run.record(find_memory)
        streams, stats, check = run_passes(streams, run.chip, run.options, timed=backend.times)
        run.recorded(streams, stats)
        if check is not None and check.race is not None and run.options.on_race == "report":
            for block, race in check.races:  # noted on the launch's report; the launch goes on
                run.note_race(block, str(race), race.second.file, race.second.line, race.overlap.offset,
                              race.overlap.end, race.first.where)
            check.race = None
        if check is not None:
            check.before_timing()
        t0 = time.perf_counter()
        report = backend.time(run.chip, streams)
        run.timed(report, time.perf_counter() - t0)
        if check is not None:
            check.after_timing(report is not None)
    except BaseException as exc:
        run.fail(exc)
        _notify(run)
        run.close()
        raise
    finally:
        if gc_was_enabled:
            gc.enable()
    _notify(run)
    run.close()
    return float(report.task_seconds) if report is not None else 0.0
