"""The types every sync pass shares (a leaf module: it imports no pass, only the clock's
constants).

- :class:`InferStats` and :class:`AllocStats`: the figures :func:`~aclsim.compiler.infer_sync`
  and :func:`~aclsim.compiler.allocate_events` fill, for flat streams and programs alike;
- :class:`SyncError` (the one of :mod:`aclsim.errors`: an ``AclError`` with code 507015 and a
  ``ValueError``) and :func:`sync_error`, which names the instruction's line;
- the operation names of the sync instructions (:class:`aclsim.isa.Op` values, as plain
  strings for the hot loops), :func:`flag_key` and :func:`gc_paused`.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from aclsim.compiler.clock import PIPE_INDEX
from aclsim.errors import SyncError
from aclsim.isa import Instr, Op, Pipe

#: ``Instr.op`` of the sync instructions (the values of :class:`aclsim.isa.Op`).
SET_FLAG: str = Op.SET_FLAG.value
WAIT_FLAG: str = Op.WAIT_FLAG.value
PIPE_BARRIER: str = Op.PIPE_BARRIER.value
SYNC_ALL: str = Op.SYNC_ALL.value
FLAG_OPS = (SET_FLAG, WAIT_FLAG)
BARRIER_OPS = (PIPE_BARRIER, SYNC_ALL)

#: ``(src, dst, event_id)`` of a flag as integers.
FlagKey = tuple[int, int, int]


@dataclass(slots=True)
class InferStats:
    """What :func:`~aclsim.compiler.infer_sync` inserted."""

    flags: int = 0  # set/wait pairs
    barriers: int = 0  # same-pipe pipe_barrier
    dependences: int = 0  # (consumer, producer pipe) pairs found unordered before insertion
    implied: int = 0  # of those, already ordered by another inserted pair


@dataclass(slots=True)
class AllocStats:
    """Figures of one allocation."""

    pool: int
    method: str = "segments"
    sync_points: int = 0
    segments: int = 1
    ids_used: dict[tuple[Pipe, Pipe], int] = field(default_factory=dict)
    merges: int = 0  # false dependencies: two sync points merged onto one set/wait
    orderings: int = 0  # false dependencies: an ordering pair inserted in the other direction
    cuts: int = 0  # strong syncs inserted (the last resort)
    redundant: int = 0  # logical pairs dropped because a strong sync already orders them
    seconds: float = 0.0

    @property
    def false_dependencies(self) -> int:
        return self.merges + self.orderings

    def summary(self) -> str:
        pairs = ", ".join(f"{p.name}->{q.name}: {n}" for (p, q), n in sorted(self.ids_used.items()))
        return (f"{self.sync_points} sync points, {self.segments} segment(s); IDs per pipe pair "
                f"(pool {self.pool}): {pairs or 'none'}; spills: {self.merges} merge(s), "
                f"{self.orderings} ordering pair(s), {self.cuts} strong sync(s) inserted; "
                f"{self.redundant} pair(s) already ordered by a strong sync removed")


def sync_error(instr: Instr, message: str) -> SyncError:
    """A :class:`SyncError` about ``instr``: the message starts with its place, and the error
    carries its ``file`` and ``line``."""
    return SyncError(f"{instr.where}: {message}", file=instr.file, line=instr.line)


def flag_key(instr: Instr) -> FlagKey:
    """``(src, dst, event_id)`` of a set_flag/wait_flag as integers."""
    assert instr.src is not None and instr.dst is not None and instr.event_id is not None
    return PIPE_INDEX[instr.src], PIPE_INDEX[instr.dst], instr.event_id


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector during a pass over a long stream.

    The passes allocate many small lists and no cycles; with a million live instructions a
    collection rescans them all (about 40 % of the allocation time at 10^6 instructions).
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


__all__ = [
    "BARRIER_OPS",
    "FLAG_OPS",
    "PIPE_BARRIER",
    "SET_FLAG",
    "SYNC_ALL",
    "WAIT_FLAG",
    "AllocStats",
    "FlagKey",
    "InferStats",
    "SyncError",
    "flag_key",
    "gc_paused",
    "sync_error",
]
