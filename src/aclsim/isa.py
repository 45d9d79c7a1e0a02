"""The instruction model shared by the kernel language, the sync passes and the core model.

A kernel run records, per AI Core, a list of :class:`Instr`: which pipe executes it, what
it does, which byte ranges of which memory it reads and writes, and (for sync
instructions) the pipes and event ID involved.  ``aclsim.kernel`` produces these lists,
``aclsim.compiler`` transforms and verifies them, ``aclsim.sim`` schedules them in time.

Names follow Ascend C (``reference/ascend-api.md`` section 2.2): pipes ``PIPE_S``,
``PIPE_V``, ``PIPE_M``, ``PIPE_MTE1``, ``PIPE_MTE2``, ``PIPE_MTE3``, ``PIPE_FIX``;
``HardEvent`` values named ``SRC_DST`` ("DST waits for SRC"), in the declaration order of
``kernel_event.h``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Pipe(enum.IntEnum):
    """The independent in-order pipes of an AI Core (``ALL`` only as a barrier argument)."""

    S = 0
    V = 1
    M = 2
    MTE1 = 3
    MTE2 = 4
    MTE3 = 5
    FIX = 6
    ALL = 7

    @property
    def track_name(self) -> str:
        """The row name Huawei's simulator uses in its trace.json."""
        return _TRACK_NAMES[self]

    @classmethod
    def parse(cls, text: str) -> Pipe:
        """``"V"``, ``"PIPE_V"``, ``"VECTOR"`` (any case) -> ``Pipe.V``."""
        key = text.strip().upper()
        if key.startswith("PIPE_"):
            key = key[5:]
        key = _ALIASES.get(key, key)
        try:
            return cls[key]
        except KeyError:
            raise ValueError(f"unknown pipe {text!r}; pipes: {', '.join(p.name for p in cls)}") from None


_TRACK_NAMES = {Pipe.S: "SCALAR", Pipe.V: "VECTOR", Pipe.M: "CUBE", Pipe.MTE1: "MTE1", Pipe.MTE2: "MTE2",
                Pipe.MTE3: "MTE3", Pipe.FIX: "FIXP", Pipe.ALL: "ALL"}
_ALIASES = {"SCALAR": "S", "VECTOR": "V", "CUBE": "M", "FIXP": "FIX", "FIXPIPE": "FIX"}

#: The pipes that execute instructions (everything but ``ALL``).
EXEC_PIPES: tuple[Pipe, ...] = (Pipe.S, Pipe.V, Pipe.M, Pipe.MTE1, Pipe.MTE2, Pipe.MTE3, Pipe.FIX)


class HardEvent(enum.IntEnum):
    """Ascend C ``HardEvent``: ``SRC_DST`` means the DST pipe waits for the SRC pipe."""

    MTE2_MTE1 = 0
    MTE1_MTE2 = 1
    MTE1_M = 2
    M_MTE1 = 3
    MTE2_V = 4
    V_MTE2 = 5
    MTE3_V = 6
    V_MTE3 = 7
    M_V = 8
    V_M = 9
    V_V = 10
    MTE3_MTE1 = 11
    MTE1_MTE3 = 12
    MTE1_V = 13
    MTE2_M = 14
    M_MTE2 = 15
    V_MTE1 = 16
    M_FIX = 17
    FIX_M = 18
    MTE3_MTE2 = 19
    MTE2_MTE3 = 20
    S_V = 21
    V_S = 22
    S_MTE2 = 23
    MTE2_S = 24
    S_MTE3 = 25
    MTE3_S = 26
    MTE2_FIX = 27
    FIX_MTE2 = 28
    FIX_S = 29
    M_S = 30
    FIX_MTE3 = 31
    MTE1_FIX = 32
    FIX_MTE1 = 33
    FIX_FIX = 34

    @property
    def src(self) -> Pipe:
        return Pipe[self.name.split("_")[0]]

    @property
    def dst(self) -> Pipe:
        return Pipe[self.name.split("_")[1]]

    @classmethod
    def between(cls, src: Pipe, dst: Pipe) -> HardEvent:
        try:
            return cls[f"{src.name}_{dst.name}"]
        except KeyError:
            raise ValueError(f"no HardEvent from {src.name} to {dst.name}") from None


class Space(enum.Enum):
    """Memories an instruction can touch.  GM is the device arena (global memory)."""

    GM = "GM"
    UB = "UB"
    L1 = "L1"
    L0A = "L0A"
    L0B = "L0B"
    L0C = "L0C"
    BT = "BT"  # bias table
    FB = "FB"  # fixpipe buffer
    HOST = "HOST"  # host memory mapped for the device (zero-copy): reached over the host link


@dataclass(frozen=True, slots=True)
class Access:
    """``length`` bytes at ``offset`` of ``space`` (GM offsets are device addresses)."""

    space: Space
    offset: int
    length: int

    @property
    def end(self) -> int:
        return self.offset + self.length

    def overlaps(self, other: Access) -> bool:
        return (self.space is other.space and self.offset < other.end and other.offset < self.end
                and self.length > 0 and other.length > 0)

    def __str__(self) -> str:
        return f"{self.space.value}[{self.offset}:{self.end}]"


class Op(str, enum.Enum):
    """The sync operations; every other instruction names its operation by a plain string."""

    SET_FLAG = "set_flag"
    WAIT_FLAG = "wait_flag"
    PIPE_BARRIER = "pipe_barrier"
    SYNC_ALL = "sync_all"


SYNC_OPS = frozenset(op.value for op in Op)


@dataclass(slots=True)
class Instr:
    """One instruction of one core's stream.

    - Work instructions: ``pipe`` executes ``op`` reading ``reads`` and writing ``writes``;
      ``cost`` carries what the core model needs (``bytes``, ``repeats``, ``fractals``...).
    - ``set_flag``: runs on ``src``, signals (``src``, ``dst``, ``event_id``).
    - ``wait_flag``: runs on ``dst``, waits for that signal.
    - ``pipe_barrier``: ``pipe`` is the pipe drained (``Pipe.ALL``: every pipe, a strong sync).
    - ``sync_all``: a cross-core barrier (``pipe`` is ``Pipe.ALL``).
    ``logical`` marks event IDs not yet mapped to physical ones by the sync pass.
    ``file``/``line`` locate the kernel source line that issued it.
    """

    pipe: Pipe
    op: str
    reads: tuple[Access, ...] = ()
    writes: tuple[Access, ...] = ()
    src: Pipe | None = None
    dst: Pipe | None = None
    event_id: int | None = None
    logical: bool = False
    cost: dict[str, Any] = field(default_factory=dict)
    file: str = ""
    line: int = 0

    @property
    def is_sync(self) -> bool:
        return self.op in SYNC_OPS

    @property
    def is_strong_sync(self) -> bool:
        return (self.op == Op.PIPE_BARRIER and self.pipe is Pipe.ALL) or self.op == Op.SYNC_ALL

    @property
    def flag(self) -> tuple[Pipe, Pipe, int] | None:
        """``(src, dst, id)`` of a set_flag/wait_flag, else None."""
        if self.op in (Op.SET_FLAG, Op.WAIT_FLAG):
            assert self.src is not None and self.dst is not None and self.event_id is not None
            return (self.src, self.dst, self.event_id)
        return None

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.file else f"line {self.line}"

    def __repr__(self) -> str:
        if self.op in (Op.SET_FLAG, Op.WAIT_FLAG):
            kind = "L" if self.logical else ""
            return (f"<Instr {self.pipe.name} {self.op} {self.src.name if self.src is not None else '?'}->"
                    f"{self.dst.name if self.dst is not None else '?'} {kind}{self.event_id}>")
        if self.op == Op.PIPE_BARRIER:
            return f"<Instr pipe_barrier {self.pipe.name}>"
        rw = " ".join([*(f"r:{a}" for a in self.reads), *(f"w:{a}" for a in self.writes)])
        return f"<Instr {self.pipe.name} {self.op} {rw}>".replace(" >", ">")


def set_flag(src: Pipe, dst: Pipe, event_id: int, *, logical: bool = False, line: int = 0,
             file: str = "") -> Instr:
    return Instr(src, Op.SET_FLAG.value, src=src, dst=dst, event_id=event_id, logical=logical, line=line,
                 file=file)


def wait_flag(src: Pipe, dst: Pipe, event_id: int, *, logical: bool = False, line: int = 0,
              file: str = "") -> Instr:
    return Instr(dst, Op.WAIT_FLAG.value, src=src, dst=dst, event_id=event_id, logical=logical, line=line,
                 file=file)


def pipe_barrier(pipe: Pipe, *, line: int = 0, file: str = "") -> Instr:
    return Instr(pipe, Op.PIPE_BARRIER.value, line=line, file=file)
