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
import numbers
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias


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


#: A cost figure: a count (bytes, repeats, ...) or, for ``cycles``, any number.
Figure: TypeAlias = int | float

#: The figures the core model reads, in the order ``Cost`` lists them.
FIGURES = ("bytes", "repeats", "fractals", "m", "n", "k", "ops", "cycles")


class Cost(Mapping[str, Any]):
    """What the core model needs to time one instruction: typed figures, read-only.

    - ``bytes``: bytes a copy moves (``MTE1``, ``MTE2``, ``MTE3``, ``FIX``);
    - ``repeats``: vector repeats (``vector_repeat_bytes`` per operand each);
    - ``fractals``, or ``m``, ``n``, ``k``: the size of a cube instruction;
    - ``ops``: scalar operations;
    - ``cycles``: a fixed duration that overrides every formula.

    A figure not given is ``None``: the core model derives it from the instruction's
    accesses or takes its default (``docs/simulator.md``).  Other keys (annotations of the
    text format, ``mode=fast``) are kept and ignored by the core model.  A ``Cost`` is also
    the mapping of what was given, in the order given (``cost["bytes"]``, ``dict(cost)``,
    ``cost == {"bytes": 256}``), so the text format prints it back as it was written.
    Instructions share equal costs (the kernel language interns them), hence read-only.

    >>> c = Cost(bytes=256)
    >>> c.bytes, c.repeats, dict(c), c == {"bytes": 256}
    (256, None, {'bytes': 256}, True)
    """

    __slots__ = ("bytes", "repeats", "fractals", "m", "n", "k", "ops", "cycles", "_given")

    bytes: Figure | None
    repeats: Figure | None
    fractals: Figure | None
    m: Figure | None
    n: Figure | None
    k: Figure | None
    ops: Figure | None
    cycles: Figure | None
    _given: dict[str, Any]

    def __init__(self, **given: Any) -> None:
        for name in FIGURES:
            value = given.get(name)
            if value is not None and (not isinstance(value, numbers.Real) or isinstance(value, bool)):
                raise ValueError(f"cost figure {name}={value!r} is not a number")
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_given", given)

    @classmethod
    def of(cls, cost: Mapping[str, Any] | None) -> Cost:
        """``cost`` as a :class:`Cost` (itself if it is one; :data:`NO_COST` for nothing)."""
        if type(cost) is Cost or (cost and isinstance(cost, Cost)):  # the exact type first: cheap
            return cost
        if not cost:
            return NO_COST
        return cls(**cost)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a Cost is read-only (instructions share it); make a new one, not {name}=")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("a Cost is read-only")

    def __getitem__(self, key: str) -> Any:
        return self._given[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._given)

    def __len__(self) -> int:
        return len(self._given)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Cost):
            return self is other or self._given == other._given
        if isinstance(other, Mapping):
            return self._given == dict(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(frozenset(self._given.items()))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_cost_from, (tuple(self._given.items()),))

    def __repr__(self) -> str:
        return "Cost(" + ", ".join(f"{k}={v!r}" for k, v in self._given.items()) + ")"


def _cost_from(items: tuple[tuple[str, Any], ...]) -> Cost:
    return Cost.of(dict(items))


#: The cost of an instruction with no figures (sync instructions; scalar accesses: one op).
NO_COST = Cost()


@dataclass(slots=True, init=False)
class Instr:
    """One instruction of one core's stream.

    - Work instructions: ``pipe`` executes ``op`` reading ``reads`` and writing ``writes``;
      ``cost`` is the :class:`Cost` the core model times it by (``bytes``, ``repeats``,
      ``m``/``n``/``k``...; a plain mapping is turned into one).
    - ``set_flag``: runs on ``src``, signals (``src``, ``dst``, ``event_id``).
    - ``wait_flag``: runs on ``dst``, waits for that signal.
    - ``pipe_barrier``: ``pipe`` is the pipe drained (``Pipe.ALL``: every pipe, a strong sync).
    - ``sync_all``: a cross-core barrier (``pipe`` is ``Pipe.ALL``).
    ``logical`` marks event IDs not yet mapped to physical ones by the sync pass.
    ``file``/``line`` locate the kernel source line that issued it.
    """

    pipe: Pipe
    op: str
    reads: tuple[Access, ...]
    writes: tuple[Access, ...]
    src: Pipe | None
    dst: Pipe | None
    event_id: int | None
    logical: bool
    cost: Cost  # a mapping given to the constructor is turned into one
    file: str
    line: int

    def __init__(self, pipe: Pipe, op: str, reads: tuple[Access, ...] = (), writes: tuple[Access, ...] = (),
                 src: Pipe | None = None, dst: Pipe | None = None, event_id: int | None = None,
                 logical: bool = False, cost: Mapping[str, Any] | None = NO_COST, file: str = "",
                 line: int = 0) -> None:
        self.pipe = pipe
        self.op = op
        self.reads = reads
        self.writes = writes
        self.src = src
        self.dst = dst
        self.event_id = event_id
        self.logical = logical
        self.cost = cost if type(cost) is Cost else Cost.of(cost)
        self.file = file
        self.line = line

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
