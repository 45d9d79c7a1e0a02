"""Running a launch's cores so that ``sync_all`` and cross-core flags work: one core at a time.

The cores of a launch (its blocks; for a mixed AIC + AIV kernel, every core of every group) run
functionally one after the other (core 0 to its end, then core 1, ...), which gives every launch
the same, reproducible result.  A kernel that synchronizes its cores needs more: a core that
reaches a ``sync_all`` or a ``CrossCoreWaitFlag`` that cannot pass yet must stop there until
the other cores have done what it waits for.  So each core runs on a worker thread that can be
*parked* with the condition it waits for, and a baton passes between them: exactly one core
runs at any time.  When the running core parks or ends, the next to run is:

- the lowest-numbered parked core whose condition now holds (it resumes where it parked);
- else the next core not started yet;
- else nothing can run: if cores are still parked, none of them can ever go on (the device
  would hang), which is a :class:`~aclsim.errors.KernelDeadlockError` (507014) naming the
  waiting core, what it waits for and its line, never a hang.

For ``sync_all`` this is the old order: every block runs to its first ``sync_all`` in block
order, then they resume in block order, each to its next one.  A core that raises ends the
launch with that error; the parked cores are unwound.

A worker thread that finishes a core takes the next new one itself, so a launch without any
synchronization uses one worker thread for all its cores, handing nothing between threads.
"""

from __future__ import annotations

import sysconfig
import threading
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from aclsim.errors import ACL_ERROR_RT_INTERNAL_ERROR, AclError, KernelDeadlockError, KernelFault, RaceError
from aclsim.isa import Instr, Op, Space


class Unwind(BaseException):
    """Raised in a parked core to end it when the launch fails (not an error of the kernel)."""


class KernelReturn(BaseException):  # noqa: N818 - a control signal, not an error
    """The kernel returns from inside a call (``REGIST_MATMUL_OBJ`` on the AIC that served its AIVs,
    whose macro returns): the launch takes it as the block's normal end."""


@dataclass(frozen=True)
class Waiting:
    """What a parked core waits for, for the deadlock report: ``what`` (a phrase naming the
    wait and what it waits for), the kernel line, and for a ``sync_all`` its ordinal ``k``
    and the cores that take part (None: every core)."""

    what: str
    file: str
    line: int
    k: int = 0
    members: tuple[int, ...] | None = None


class BlockScheduler:
    """Runs ``run_block(u)`` for ``u`` in ``range(units)`` with the baton protocol above.

    ``name(u)`` names core ``u`` in messages ("block 3", "AIV 5"); ``block_of(u)`` is the
    block index an error reports for it.  A core parks with :meth:`park` (any condition) or
    :meth:`arrive` (a ``sync_all``).
    """

    def __init__(self, block_dim: int, run_block: Callable[[int], None],
                 name: Callable[[int], str] | None = None, block_of: Callable[[int], int] | None = None
                 ) -> None:
        self.block_dim = block_dim
        self.run_block = run_block
        self.name = name or (lambda u: f"block {u}")
        self.block_of = block_of or (lambda u: u)
        self._cv = threading.Condition()
        self._next = 0  # the next core to start
        self._running = False  # a core holds the baton
        self._error: BaseException | None = None
        self._unwinding = False
        self._parked: dict[int, tuple[threading.Event, Callable[[], bool], Waiting]] = {}
        self._ended: set[int] = set()
        self._barriers: dict[tuple[tuple[int, ...] | None, int], int] = {}  # (members, core) -> sync_alls
        self._arrived: dict[tuple[tuple[int, ...] | None, int], int] = {}  # (members, k) -> cores there
        self._threads: list[threading.Thread] = []

    def _spawn(self, u: int) -> None:
        """Start core ``u`` on a new worker (called with the lock held, the baton handed to it)."""
        t = threading.Thread(target=self._worker, args=(u,), name=f"aclsim-block-{u}", daemon=True)
        self._threads.append(t)
        t.start()

    def _ready(self) -> int | None:
        """The lowest parked core whose condition holds (lock held)."""
        for u in sorted(self._parked):
            if self._parked[u][1]():
                return u
        return None

    def _hand_on(self, own_thread: bool) -> int | None:
        """Give the baton to the next core (lock held): wake a ready parked core, else start the next
        new core (returned, not spawned, when ``own_thread``: the caller's thread runs it), else put
        the baton down for the launch's thread."""
        if self._error is None:
            u = self._ready()
            if u is not None:
                self._parked.pop(u)[0].set()
                return None
            if self._next < self.block_dim:
                self._next += 1
                if own_thread:
                    return self._next - 1
                self._spawn(self._next - 1)
                return None
        self._running = False
        self._cv.notify_all()
        return None

    def _worker(self, first: int) -> None:
        u: int | None = first
        with np.errstate(all="ignore"):
            while u is not None:
                try:
                    self.run_block(u)
                except Unwind:
                    return
                except BaseException as exc:  # noqa: BLE001 - handed to the launch's thread, raised there
                    with self._cv:
                        self._error = exc
                        self._running = False
                        self._cv.notify_all()
                    return
                with self._cv:
                    self._ended.add(u)
                    u = self._hand_on(own_thread=True)

    def ended(self, unit: int) -> bool:
        """Whether core ``unit`` ran to its end."""
        return unit in self._ended

    # --- called by a core (on its worker thread) ---------------------------------------
    def park(self, unit: int, ready: Callable[[], bool], waiting: Waiting) -> None:
        """Core ``unit`` cannot go on until ``ready()`` holds: park it and hand the baton on.
        Returns at once when ``ready()`` already holds and no lower-numbered parked core can go on
        (else those go first: after a barrier the cores resume in order)."""
        wake = threading.Event()
        with self._cv:
            if ready() and not any(u < unit and p[1]() for u, p in self._parked.items()):
                return
            self._parked[unit] = (wake, ready, waiting)
            self._hand_on(own_thread=False)
        wake.wait()
        if self._unwinding:
            raise Unwind

    def arrive(self, block: int, file: str, line: int, members: Sequence[int] | None = None) -> None:
        """Core ``block`` reached a ``sync_all`` at ``file:line``: park until every core of
        ``members`` (None: every core of the launch) has reached the same one."""
        key = tuple(members) if members is not None else None
        k = self._barriers.get((key, block), 0) + 1
        self._barriers[(key, block)] = k
        self._arrived[(key, k)] = self._arrived.get((key, k), 0) + 1
        n = len(key) if key is not None else self.block_dim
        self.park(block, lambda: self._arrived[(key, k)] >= n,
                  Waiting(f"sync_all #{k}", file, line, k, key))

    # --- the launch's thread --------------------------------------------------------------
    def _wait_baton(self) -> None:
        self._cv.wait_for(lambda: not self._running)
        if self._error is not None:
            raise self._error

    def run(self) -> None:
        """Run every core; raise the first error of a core (or the deadlock of a wait)."""
        if not self.block_dim:
            return
        try:
            with self._cv:
                self._running, self._next = True, 1
                self._spawn(0)
                while True:
                    self._wait_baton()
                    if not self._parked and self._next >= self.block_dim:
                        return
                    self._running = True
                    self._hand_on(own_thread=False)
                    if not self._running:  # nothing could run: the parked cores wait forever
                        raise self._deadlock()
        finally:
            self._unwind()

    def _deadlock(self) -> KernelDeadlockError:
        first = min(self._parked)
        w = self._parked[first][2]
        name = self.name(first)
        if w.what.startswith("sync_all"):
            members = w.members if w.members is not None else range(self.block_dim)
            late = [u for u in members if self._barriers.get((w.members, u), 0) < w.k]
            ended = [u for u in late if u in self._ended]
            names = ", ".join(self.name(u).split()[-1] for u in ended[:8])
            names += " ..." if len(ended) > 8 else ""
            waits = [self.name(u) for u in late if u in self._parked]
            noun = self.name(0).split()[0]
            why = (f"for blocks that ended without reaching it ({noun}(s) {names})" if ended
                   else "for cores parked elsewhere (" + ", ".join(waits[:8]) + ")")
            return KernelDeadlockError(
                f"{name} waits at its sync_all #{w.k} ({w.file}:{w.line}) {why}: the barrier never opens, "
                "the device hangs", hint="every block must call sync_all the same number of times",
                file=w.file, line=w.line, block=self.block_of(first))
        others = [f"{self.name(u)} at {p[2].what} ({p[2].file}:{p[2].line})"
                  for u, p in sorted(self._parked.items()) if u != first]
        more = ("; also parked: " + "; ".join(others[:6])) if others else ""
        return KernelDeadlockError(
            f"{name} waits at {w.what} ({w.file}:{w.line}) and no core that is still running can ever "
            f"satisfy it (the others ended or wait themselves){more}: the device hangs",
            hint="every CrossCoreWaitFlag needs the matching CrossCoreSetFlag of every core its mode "
            "involves, issued before the wait can be reached",
            file=w.file, line=w.line, block=self.block_of(first))

    def _unwind(self) -> None:
        """End the cores still parked (a failed launch) and wait for every worker to finish."""
        with self._cv:
            self._unwinding = True
            for wake, *_ in self._parked.values():
                wake.set()
            self._parked = {}
        for t in self._threads:
            t.join(timeout=5.0)


# --- Python errors of a kernel ----------------------------------------------------------------

_ACLSIM = str(Path(__file__).resolve().parent.parent)
_LIBS = tuple(sorted({p for k, p in sysconfig.get_paths().items()
                      if k in ("stdlib", "platstdlib", "purelib", "platlib")}))


def _is_library(filename: str) -> bool:
    return filename.startswith(_ACLSIM) or filename.startswith(_LIBS) or filename.startswith("<frozen")


class KernelPythonError(KernelFault):
    """A Python error raised while a kernel ran (a typo, a missing attribute, a bad argument to an
    instruction): ``file``/``line`` locate the kernel statement that raised it, ``block`` the block,
    ``op`` the kernel-language call it was in (None if in the kernel's own code), ``error`` the
    original exception (also its ``__cause__``).  The code stays 507000 (ACL_ERROR_RT_INTERNAL_ERROR):
    the kernel program is broken, the device did not fault.

    >>> e = KernelPythonError(NameError("name 'x' is not defined"), None, file="k.py", line=3, block=0)
    >>> e.code, e.message
    (507000, "NameError in the kernel: name 'x' is not defined at k.py:3 (block 0)")
    """

    default_code = ACL_ERROR_RT_INTERNAL_ERROR

    def __init__(self, error: BaseException, op: str | None, *, file: str = "", line: int = 0,
                 block: int | None = None) -> None:
        self.error, self.op = error, op
        within = f" (in {op})" if op else ""
        hint = (f"check the arguments of {op} against docs/dsl_mapping.md" if op
                else "fix the kernel's Python code at that line")
        super().__init__(f"{type(error).__name__} in the kernel{within}: {error}", hint=hint,
                         file=file, line=line, block=block)


_TYPED: dict[type, type[KernelPythonError]] = {}


def _typed(cls: type) -> type[KernelPythonError]:
    """A subclass of both :class:`KernelPythonError` and ``cls`` (``except ValueError`` still catches the
    error of a kernel that raised one), or KernelPythonError itself for a type that cannot be mixed in."""
    t = _TYPED.get(cls)
    if t is None:
        try:
            t = type(f"Kernel{cls.__name__}", (KernelPythonError, cls), {"__module__": __name__})
            t(ValueError("probe"), None)
        except TypeError:
            t = KernelPythonError
        _TYPED[cls] = t
    return t


def _kernel_frame(exc: BaseException) -> tuple[str, int, str | None] | None:
    """``(file, line, op)`` of the deepest frame of the kernel's own code in ``exc``'s traceback (``op``:
    the kernel-language call it was in), or None."""
    frames = [(f.f_code.co_filename, lineno, getattr(f.f_code, "co_qualname", f.f_code.co_name))
              for f, lineno in traceback.walk_tb(exc.__traceback__)]
    mine = [i for i, fr in enumerate(frames) if not _is_library(fr[0])]
    if not mine:
        return None
    i = mine[-1]
    op = frames[i + 1][2] if i + 1 < len(frames) and frames[i + 1][0].startswith(_ACLSIM) else None
    return frames[i][0], frames[i][1], op


def locate_acl_error(exc: AclError, block: int, at: tuple[str, int] | None = None) -> None:
    """Give an ACL error raised in a block without a kernel location (not a fault: a runtime error met
    by an instruction) the kernel's file, line and block, in its attributes and its message: ``at``
    (a front end's source location: the C++ call that raised it), else the deepest frame of the
    kernel's own Python code."""
    if getattr(exc, "file", ""):
        return
    if at is not None and at[0]:
        file, line = at
    else:
        found = _kernel_frame(exc)
        if found is None:
            return
        file, line, _ = found
    exc.file, exc.line, exc.block = file, line, block  # type: ignore[attr-defined]
    where = f" at {file}:{line} (block {block})"
    exc.message += where
    if exc.args:
        exc.args = (f"{exc.args[0]}{where}", *exc.args[1:])


def python_error(exc: Exception, block: int) -> KernelPythonError:
    """``exc`` (raised by a block) as a :class:`KernelPythonError` that is also of ``exc``'s type, located
    at the deepest frame of the kernel's own code, naming the kernel-language call it was in."""
    cls = _typed(type(exc))
    found = _kernel_frame(exc)
    if found is None:
        return cls(exc, None, block=block)
    file, line, op = found
    return cls(exc, op, file=file, line=line, block=block)


# --- atomic stores of different blocks ----------------------------------------------------------

_GM_SPACES = (Space.GM, Space.HOST)
_Touch = tuple[int, int, int, int, str, Instr]  # (epoch, lo, hi, block, atomic mode or read/write, instr)
_SYNC_ALL = Op.SYNC_ALL.value


def _gm_accesses(streams: Sequence[list[Instr]]) -> tuple[list[_Touch], list[_Touch]]:
    """``(epoch, lo, hi, block, what, instr)`` of every atomic store and every other GM access;
    ``epoch`` counts the block's ``sync_all`` before it, ``what`` is the atomic mode or read/write."""
    atomics: list[_Touch] = []
    plain: list[_Touch] = []
    for b, stream in enumerate(streams):
        epoch = 0
        for ins in stream:
            if ins.op == _SYNC_ALL:
                epoch += 1
                continue
            mode = ins.cost.get("atomic")
            for a in ins.writes:
                if a.space in _GM_SPACES and a.length:
                    (atomics if mode else plain).append((epoch, a.offset, a.end, b, mode or "write", ins))
            if mode:
                continue  # an atomic store's GM read is its own read-modify-write
            for a in ins.reads:
                if a.space in _GM_SPACES and a.length:
                    plain.append((epoch, a.offset, a.end, b, "read", ins))
    return atomics, plain


def check_atomic_races(streams: Sequence[list[Instr]]) -> None:
    """Raise :class:`~aclsim.errors.RaceError` when an atomic store of one block and a plain access
    (or an atomic store of another mode or type) of another block touch the same global bytes between
    the same two ``sync_all``: the result depends on which core goes first.  Atomic stores of the same
    mode and type from any number of blocks are not a race (the device serializes them)."""
    atomics, plain = _gm_accesses(streams)
    if not atomics:
        return
    by_epoch: dict[int, list[_Touch]] = {}
    for t in atomics:
        by_epoch.setdefault(t[0], []).append(t)
    for epoch, group in by_epoch.items():
        group.sort(key=lambda t: t[1])
        lo = np.array([t[1] for t in group])
        hi_max = np.maximum.accumulate(np.array([t[2] for t in group]))
        others = [t for t in plain if t[0] == epoch] + [t for t in group]
        for _, a_lo, a_hi, b, what, ins in others:
            n = int(np.searchsorted(lo, a_hi, "left"))
            if n == 0 or hi_max[n - 1] <= a_lo:
                continue
            for _, g_lo, g_hi, g_b, g_what, g_ins in group[:n]:
                if g_hi > a_lo and g_b != b and g_what != what:
                    raise _cross_block_race(epoch, (g_lo, g_hi, g_b, g_what, g_ins),
                                            (a_lo, a_hi, b, what, ins))


def _cross_block_race(epoch: int, atomic: tuple[int, int, int, str, Instr],
                      other: tuple[int, int, int, str, Instr]) -> RaceError:
    g_lo, g_hi, g_b, g_what, g_ins = atomic
    a_lo, a_hi, b, what, ins = other
    lo, hi = max(g_lo, a_lo), min(g_hi, a_hi)
    kind = "plain " + what if what in ("read", "write") else f"atomic {what.replace(':', ' ')}"
    phase = f"after sync_all #{epoch}" if epoch else "before the first sync_all"
    return RaceError(
        f"cross-block race on GM[0x{lo:x}:0x{hi:x}] {phase}: block {g_b}'s atomic {g_what.replace(':', ' ')} "
        f"({g_ins.op} at {g_ins.where}) and block {b}'s {kind} ({ins.op} at {ins.where}) are not ordered",
        hint="make every store to those bytes atomic of the same mode and type, or separate the "
        "accesses with sync_all", file=ins.file, line=ins.line, block=b)


__all__ = ["BlockScheduler", "KernelPythonError", "Unwind", "Waiting", "check_atomic_races",
           "locate_acl_error",
           "python_error"]
