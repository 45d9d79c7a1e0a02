"""Running a launch's blocks so that ``sync_all`` works: one block at a time, in block order.

The blocks of a launch run functionally one after the other (block 0 to its end, then block
1, ...), which gives every launch the same, reproducible result.  A kernel that calls
``sync_all`` needs more: block 0 must stop at its first ``sync_all`` until every other block
has reached its own, then they all go on.  So each block runs on a worker thread that can be
parked at a ``sync_all``, and a baton passes between them: exactly one block runs at any
time, in this order:

- phase 0: block 0 runs until it ends or parks at its first ``sync_all``, then block 1, ...;
- once every block is parked at its k-th ``sync_all``, they resume in block order, each
  until its next ``sync_all`` or its end (phase k).

A block that ends while others wait at a ``sync_all`` leaves them waiting forever on the
device (the barrier never opens): that is a :class:`~aclsim.errors.KernelDeadlockError`
(507014) at the waiting ``sync_all``'s line, raised when it is certain, never a hang.  A block
that raises ends the launch with that error; the parked blocks are unwound.

A worker thread that finishes a block takes the next one, so a launch without ``sync_all``
uses one worker thread for all its blocks, handing nothing between threads.
"""

from __future__ import annotations

import sysconfig
import threading
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from aclsim.errors import ACL_ERROR_RT_INTERNAL_ERROR, AclError, KernelDeadlockError, KernelFault, RaceError
from aclsim.isa import Instr, Op, Space


class Unwind(BaseException):
    """Raised in a parked block to end it when the launch fails (not an error of the kernel)."""


class BlockScheduler:
    """Runs ``run_block(b)`` for ``b`` in ``range(block_dim)`` with the baton protocol above.

    A worker thread runs block after block by itself; only a ``sync_all`` hands the baton on (the
    parked block's thread starts a worker for the next block) and, once every block has arrived,
    the launch's thread resumes the parked blocks one by one.
    """

    def __init__(self, block_dim: int, run_block: Callable[[int], None]) -> None:
        self.block_dim = block_dim
        self.run_block = run_block
        self._cv = threading.Condition()
        self._next = 0  # the next block to start
        self._running = False  # a block holds the baton
        self._error: BaseException | None = None
        self._unwinding = False
        self._parked: dict[int, tuple[threading.Event, str, int, int]] = {}  # block -> (wake, file, line, k)
        self._phase_parked: list[int] = []
        self._phase_ended: list[int] = []
        self._barriers: dict[int, int] = {}  # block -> sync_all calls so far
        self._threads: list[threading.Thread] = []

    def _spawn(self, b: int) -> None:
        """Start block ``b`` on a new worker (called with the lock held, the baton handed to it)."""
        t = threading.Thread(target=self._worker, args=(b,), name=f"aclsim-block-{b}", daemon=True)
        self._threads.append(t)
        t.start()

    def _claim(self) -> int | None:
        """The next block to start, or None (the baton is put down); called with the lock held."""
        if self._next < self.block_dim and self._error is None:
            self._next += 1
            return self._next - 1
        self._running = False
        self._cv.notify_all()
        return None

    def _worker(self, first: int) -> None:
        b: int | None = first
        with np.errstate(all="ignore"):
            while b is not None:
                try:
                    self.run_block(b)
                except Unwind:
                    return
                except BaseException as exc:  # noqa: BLE001 - handed to the launch's thread, raised there
                    with self._cv:
                        self._error = exc
                        self._running = False
                        self._cv.notify_all()
                    return
                with self._cv:
                    self._phase_ended.append(b)
                    b = self._claim()

    # --- called by a block (on its worker thread) ---------------------------------------
    def arrive(self, block: int, file: str, line: int) -> None:
        """Block ``block`` reached a ``sync_all`` at ``file:line``: park until every block has."""
        k = self._barriers.get(block, 0) + 1
        self._barriers[block] = k
        wake = threading.Event()
        with self._cv:
            self._parked[block] = (wake, file, line, k)
            self._phase_parked.append(block)
            nxt = self._claim()
            if nxt is not None:
                self._spawn(nxt)
        wake.wait()
        if self._unwinding:
            raise Unwind

    # --- the launch's thread --------------------------------------------------------------
    def _wait_baton(self) -> None:
        self._cv.wait_for(lambda: not self._running)
        if self._error is not None:
            raise self._error

    def run(self) -> None:
        """Run every block; raise the first error of a block (or the deadlock of a ``sync_all``)."""
        if not self.block_dim:
            return
        try:
            with self._cv:
                self._running, self._next = True, 1
                self._spawn(0)
                self._wait_baton()
                while self._phase_parked:
                    if self._phase_ended:
                        raise self._deadlock(self._phase_parked, self._phase_ended)
                    order = sorted(self._phase_parked)
                    self._phase_parked, self._phase_ended = [], []
                    for b in order:
                        self._running = True
                        self._parked.pop(b)[0].set()
                        self._wait_baton()
        finally:
            self._unwind()

    def _deadlock(self, waiting: list[int], ended: list[int]) -> KernelDeadlockError:
        first = min(waiting)
        _, file, line, k = self._parked[first]
        names = ", ".join(map(str, sorted(ended)[:8])) + (" ..." if len(ended) > 8 else "")
        return KernelDeadlockError(
            f"block {first} waits at its sync_all #{k} ({file}:{line}) for blocks that ended "
            f"without reaching it (block(s) {names}): the barrier never opens, the device hangs",
            hint="every block must call sync_all the same number of times",
            file=file, line=line, block=first)

    def _unwind(self) -> None:
        """End the blocks still parked (a failed launch) and wait for every worker to finish."""
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


def locate_acl_error(exc: AclError, block: int) -> None:
    """Give an ACL error raised in a block without a kernel location (not a fault: a runtime error met
    by an instruction) the kernel's file, line and block, in its attributes and its message."""
    if getattr(exc, "file", ""):
        return
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


__all__ = ["BlockScheduler", "KernelPythonError", "Unwind", "check_atomic_races", "locate_acl_error",
           "python_error"]
