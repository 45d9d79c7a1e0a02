"""The per-block interpreter ("builder") every kernel-language call hands its work to.

A kernel launch runs each block on a :class:`Core`: the block's local memories as NumPy
byte arenas sized by the chip, the instruction stream it records, its TPipe state.  The
running core is thread-local (blocks run on the stream's worker thread); a kernel-language
call with no running core fails loudly with :class:`~aclsim.errors.KernelContextError`.
"""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import ml_dtypes
import numpy as np

from aclsim.arch import ChipSpec, get_chip
from aclsim.errors import (
    ACL_ERROR_RT_AICORE_EXCEPTION,
    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    ACL_ERROR_RT_VECTOR_CORE_EXCEPTION,
    FeatureNotSupportedError,
    InvalidParamError,
    KernelContextError,
    KernelFault,
)
from aclsim.isa import Access, Cost, Instr, Pipe, Space
from aclsim.kernel.sanitizer import KernelDiagnostic

if TYPE_CHECKING:
    from aclsim.kernel.gm import Allocation
    from aclsim.kernel.pipe import TPipe

# --- data types ---------------------------------------------------------------------------
# bfloat16 comes from ml_dtypes (a NumPy dtype with correctly rounded arithmetic), so every
# dtype below works with NumPy's ufuncs, astype and views alike.
float16 = half = np.dtype(np.float16)
bfloat16 = np.dtype(ml_dtypes.bfloat16)
float32 = np.dtype(np.float32)
int8 = np.dtype(np.int8)
uint8 = np.dtype(np.uint8)
int16 = np.dtype(np.int16)
uint16 = np.dtype(np.uint16)
int32 = np.dtype(np.int32)
uint32 = np.dtype(np.uint32)
int64 = np.dtype(np.int64)
uint64 = np.dtype(np.uint64)
DTYPES = (float16, bfloat16, float32, int8, uint8, int16, uint16, int32, uint32, int64, uint64)


#: ``int4b_t``: Ascend C's 4-bit signed integer (-8..7), two per byte, element 2k in the low
#: nibble of byte k and element 2k+1 in the high one.  A distinct one-byte structured dtype marks it:
#: it equals no numeric dtype and NumPy refuses arithmetic on it, so a path that does not know
#: 4-bit elements fails loudly instead of reading bytes as elements.  Sizes of such tensors count
#: elements; :func:`elem_bytes` / :func:`bytes_elems` turn them into bytes and back.
int4b_t = np.dtype([("int4b_t", np.uint8)])


def is_int4(dt: np.dtype) -> bool:
    """Whether ``dt`` is :data:`int4b_t`."""
    return bool(dt == int4b_t)


def elem_bytes(dt: np.dtype, n: int) -> int:
    """Bytes that ``n`` elements of ``dt`` take (``ceil(n / 2)`` for :data:`int4b_t`)."""
    return (int(n) + 1) // 2 if is_int4(dt) else int(n) * dt.itemsize


def bytes_elems(dt: np.dtype, nbytes: int) -> int:
    """Whole elements of ``dt`` in ``nbytes`` bytes (two per byte for :data:`int4b_t`)."""
    return int(nbytes) * 2 if is_int4(dt) else int(nbytes) // dt.itemsize


def dtype_name(dt: np.dtype) -> str:
    """The name of ``dt`` in messages (``int4b_t`` rather than its marker's NumPy spelling)."""
    return "int4b_t" if is_int4(dt) else str(dt)


def unpack_int4(raw: np.ndarray, n: int, start: int = 0) -> np.ndarray:
    """The ``n`` int4 values (as int8, sign-extended) from nibble ``start`` of the bytes ``raw``."""
    b = np.ascontiguousarray(raw).view(np.uint8)
    nib = np.empty(b.size * 2, np.uint8)
    nib[0::2], nib[1::2] = b & 0xF, b >> 4
    v = nib[start : start + n].astype(np.int8)
    return np.where(v > 7, v - 16, v).astype(np.int8)


def pack_int4(raw: np.ndarray, values: Any, start: int = 0) -> None:
    """Write ``values`` (each -8..7) as int4 into the bytes ``raw`` from nibble ``start``, keeping
    the other nibbles."""
    b = raw.view(np.uint8)
    v = np.asarray(values, np.int64).ravel()
    if v.size and (v.min() < -8 or v.max() > 7):
        raise ValueError(f"int4b_t values must lie in -8..7, got {v.min()}..{v.max()}")
    nib = np.empty(b.size * 2, np.uint8)
    nib[0::2], nib[1::2] = b & 0xF, b >> 4
    nib[start : start + v.size] = (v & 0xF).astype(np.uint8)
    b[:] = nib[0::2] | (nib[1::2] << 4)


def as_dtype(dtype: Any) -> np.dtype:
    """A NumPy dtype among the kernel language's (``float16``, ``bfloat16``, ``int32``...)."""
    dt = np.dtype(dtype)
    if is_int4(dt):
        return int4b_t
    if dt not in DTYPES:
        raise TypeError(f"{dt} is not a kernel data type; use one of {', '.join(str(d) for d in DTYPES)}")
    return dt


class UnsupportedFault(KernelFault, FeatureNotSupportedError):
    """A kernel statement the chip (or aclsim) does not support, located like a fault (207000)."""

    default_code = ACL_ERROR_RT_FEATURE_NOT_SUPPORT


# --- options ---------------------------------------------------------------------------------

#: KernelOptions.on_race: what a race found in a launch does
ON_RACE = ("fail", "report")


@dataclass(frozen=True)
class KernelOptions:
    """Interpreter settings of a kernel, in one place.

    Parameters
    ----------
    detect_races
        Check every launch for cross-pipe races (RAW/WAR/WAW on overlapping memory not
        ordered by flags or barriers) with the happens-before verifier of
        ``aclsim.compiler``.  Off is faster.
    fill_nan
        Fill fresh local memory (the arenas at block start, every ``alloc_tensor`` and
        ``TBuf.get``) with 0xFF bytes, a NaN in every float type, so reads of data never
        written show up as NaN (or -1 in integer types).  Off: fresh memory reads as zero.
    chip
        Run on this chip (a preset name or a ``ChipSpec``) instead of the stream's device.
    auto_sync
        Replace the flags and same-pipe barriers the kernel recorded (hand-written or emitted
        by queues) with the ones ``aclsim.compiler.auto_sync`` infers and allocates from the
        memory accesses; the launch's ``sync_stats`` says how many ids each pipe pair used.
        A kernel may then be written with no syncs at all (the auto-sync mode of Ascend's
        compiler).
    on_race
        What a race found by ``detect_races`` (or between the blocks' atomic and plain GM
        accesses) does: ``"fail"`` (the default) fails the launch with ``RaceError``;
        ``"report"`` notes each race (both lines) on ``launch.diagnostics`` as a ``race``
        diagnostic, warns with ``KernelSanitizerWarning`` and lets the launch finish.

    >>> KernelOptions(fill_nan=True).detect_races
    True
    """

    detect_races: bool = True
    fill_nan: bool = False
    chip: str | ChipSpec | None = None
    auto_sync: bool = False
    on_race: str = "fail"

    def __post_init__(self) -> None:
        if self.chip is not None:
            get_chip(self.chip)  # validates the name
        if self.on_race not in ON_RACE:
            raise InvalidParamError(f"KernelOptions(on_race={self.on_race!r}): one of "
                                    + ", ".join(repr(v) for v in ON_RACE))


# --- source locations ----------------------------------------------------------------------

_PKG = str(Path(__file__).resolve().parent)


_source = threading.local()  # a front end's current source location (see source_location)


def source_location(file: str | None, line: int = 0) -> tuple[str, int] | None:
    """Say where the kernel statement now running is written, for kernels whose source is not
    Python (the C++ front end, :mod:`aclsim.ascendc`): until the next call, every instruction
    recorded and every fault raised on this thread names ``file:line`` instead of a Python frame.
    ``None`` goes back to Python frames.  Returns the previous location (None: Python frames).

    >>> previous = source_location("add_custom.cpp", 42)
    >>> where()
    ('add_custom.cpp', 42)
    >>> source_location(None) == ("add_custom.cpp", 42)
    True
    """
    previous: tuple[str, int] | None = getattr(_source, "at", None)
    _source.at = None if file is None else (file, int(line))
    return previous


def _setter() -> Callable[[tuple[str, int] | None], None]:
    store = functools.partial(setattr, _source, "at")  # C all the way: no Python frame per call
    store.__doc__ = """``set_source_location(at)``: :func:`source_location` for a front end's hot path
    (the C++ front sets it before every bridged call): ``at`` is ``(file, line)`` or None, passed
    positionally; the previous location is not returned.

    >>> set_source_location(("add_custom.cpp", 7))
    >>> where()
    ('add_custom.cpp', 7)
    >>> set_source_location(None)
    """
    return store


set_source_location = _setter()


def where(depth: int = 2) -> tuple[str, int]:
    """``(file, line)`` of the kernel statement: the front end's :func:`source_location` when one
    is set, else the first frame outside ``aclsim.kernel``."""
    at = getattr(_source, "at", None)
    if at is not None:
        return at
    f = sys._getframe(depth)
    while f.f_code.co_filename.startswith(_PKG):
        back = f.f_back
        if back is None:
            break
        f = back
    return f.f_code.co_filename, f.f_lineno


# --- the core ------------------------------------------------------------------------------

#: Local memories and their arena sizes (bytes) on a chip.
LOCAL_SPACES = (Space.UB, Space.L1, Space.L0A, Space.L0B, Space.L0C, Space.BT)


def space_capacity(chip: ChipSpec, space: Space) -> int:
    """Bytes of ``space`` a kernel may allocate."""
    if space is Space.UB:
        return chip.ub_usable_bytes
    return {
        Space.L1: chip.l1_bytes,
        Space.L0A: chip.l0a_bytes,
        Space.L0B: chip.l0b_bytes,
        Space.L0C: chip.l0c_bytes,
        Space.BT: chip.bt_bytes,
    }[space]


def space_align(chip: ChipSpec, space: Space) -> int:
    """Start-address alignment of operands in ``space`` (reference 4.3)."""
    return {
        Space.UB: chip.ub_align,
        Space.L1: chip.l1_align,
        Space.L0A: chip.l0ab_align,
        Space.L0B: chip.l0ab_align,
        Space.L0C: chip.l0c_align,
        Space.BT: chip.bt_align,
    }[space]


def fault_code(space: Space) -> int:
    """The core-exception code for a fault on ``space``: vector side (UB) or cube side."""
    return ACL_ERROR_RT_VECTOR_CORE_EXCEPTION if space is Space.UB else ACL_ERROR_RT_AICORE_EXCEPTION


class _ReleasedArenas(dict[Space, np.ndarray]):
    """The local memories of a block that ended: every look-up says so."""

    def __init__(self, block: int) -> None:
        super().__init__()
        self.block = block

    def __missing__(self, space: Space) -> NoReturn:
        raise KernelContextError(
            f"the local memory ({space.value}) of block {self.block} was released when the block ended",
            hint="read local tensors inside the kernel (copy them to global memory to look at them later)",
        )


class Core:
    """One block running on one simulated AI Core: local arenas, recorded instructions.

    :meth:`close` releases everything the block holds but its instructions when it ends, so a
    launch's memory does not grow with its number of blocks.
    """

    __slots__ = (
        "chip",
        "options",
        "block_idx",
        "block_num",
        "arenas",
        "instrs",
        "host_ranges",
        "pipe",
        "launch",
        "_acc",
        "align",
        "l2_hints",
        "core_type",
        "forbidden",
        "vmask",
        "spr",
        "atomic",
        "sys_workspace",
        "loop_mode",
        "hf32",
        "unit",
    )

    def __init__(
        self, chip: ChipSpec, options: KernelOptions, block_idx: int, block_num: int, launch: Any = None
    ) -> None:
        self.chip = chip
        self.options = options
        self.block_idx = block_idx
        self.block_num = block_num
        self.launch = launch
        fill = 0xFF if options.fill_nan else 0
        self.arenas: dict[Space, np.ndarray] = {}
        for space in LOCAL_SPACES:
            size = {
                Space.UB: chip.ub_bytes,
                Space.L1: chip.l1_bytes,
                Space.L0A: chip.l0a_bytes,
                Space.L0B: chip.l0b_bytes,
                Space.L0C: chip.l0c_bytes,
                Space.BT: chip.bt_bytes,
            }[space]
            self.arenas[space] = np.full(size, fill, np.uint8) if fill else np.zeros(size, np.uint8)
        self.align = {s: space_align(chip, s) for s in LOCAL_SPACES}
        self.instrs: list[Instr] = []
        self.host_ranges: list[tuple[int, int]] = []  # zero-copy host memory met by this block
        self.pipe: TPipe | None = None
        self._acc: dict[tuple[Space, int, int], Access] = {}
        self.l2_hints: list[tuple[int, int]] = []  # GM ranges whose copies bypass L2 (SetL2CacheHint)
        self.core_type: Any = None  # the declared kernel type's core (kernel/coretype.py); None: all pipes
        self.forbidden: frozenset[Pipe] = frozenset()  # the pipes that core does not have
        #: The vector mask register of this block: (counter mode?, its 128 bits); see kernel/mask.py.
        self.vmask: tuple[bool, int] = (False, (1 << 128) - 1)
        #: Other special registers the block set (``DEQSCALE``...), by name; see kernel/quant.py.
        self.spr: dict[str, Any] = {}
        self.atomic: tuple[str, np.dtype] | None = None  # SetAtomicAdd/Max/Min: (mode, dtype) of GM stores
        self.sys_workspace: int | None = None  # SetSysWorkspace: the system workspace's address
        self.loop_mode: dict[int, Any] = {}  # SetLoopModePara: DataCopyMVType -> LoopModeParams
        self.hf32: tuple[bool, int, int] | None = None  # SetHF32Mode/TransMode: (on, mantissa bits, mode)
        self.unit: Any = None  # the L0C unit flags of mmad/fixpipe (cube_modes.UnitFlags), at first use

    def close(self) -> None:
        """The block ended: release its local memories, its TPipe and its interned ranges."""
        self.arenas = _ReleasedArenas(self.block_idx)
        self.pipe = None
        self._acc = {}

    def access(self, space: Space, offset: int, length: int) -> Access:
        """An interned :class:`~aclsim.isa.Access` (the same ranges recur tile after tile)."""
        if self.host_ranges and space is Space.GM:
            for lo, hi in self.host_ranges:
                if lo <= offset < hi:
                    space = Space.HOST
                    break
        key = (space, offset, length)
        a = self._acc.get(key)
        if a is None:
            if len(self._acc) > 65536:
                self._acc.clear()
            a = self._acc[key] = Access(space, offset, length)
        return a

    def emit(self, pipe: Pipe, op: str, reads: tuple[Access, ...], writes: tuple[Access, ...],
             cost: Cost) -> Instr:
        file, line = where(3)
        if self.forbidden and pipe in self.forbidden:
            self._no_pipe(pipe, op)
        if self.l2_hints and pipe in _GM_PIPES:
            cost = self._l2_cost(reads, writes, cost)
        ins = Instr(pipe, op, reads, writes, cost=cost, file=file, line=line)
        self.instrs.append(ins)
        return ins

    def _no_pipe(self, pipe: Pipe, op: str) -> NoReturn:
        side = "vector" if pipe is not Pipe.V else "cube"
        if getattr(self.launch, "layout", None) is None:
            self.fault(UnsupportedFault, f"{op} runs on {pipe.name}, which a {side} core does not have: the "
                       f"kernel declared a {side}-only type",
                       hint="declare the kernel type that has this pipe, or move the instruction to a kernel "
                       "of the other core type")
        self.fault(UnsupportedFault, f"{op} runs on {pipe.name}, which a {side} core does not have: this is "
                   f"the {'AIV' if side == 'vector' else 'AIC'} of a mixed kernel",
                   hint="run it on the other core of the group (ASCEND_IS_AIV / ASCEND_IS_AIC), or declare a "
                   "one-type kernel (a CPU-debug program: SetKernelMode(KernelMode::AIV_MODE) for a vector "
                   "kernel; CANN's default is MIX_MODE)")

    def set_l2_hint(self, lo: int, hi: int, bypass: bool) -> None:
        """Copies touching global memory in ``[lo, hi)`` bypass L2 from now on (or no longer)."""
        self.l2_hints = [(a, b) for a, b in self.l2_hints if b <= lo or a >= hi]
        if bypass:
            self.l2_hints.append((lo, hi))

    def _l2_cost(self, reads: tuple[Access, ...], writes: tuple[Access, ...], cost: Cost) -> Cost:
        for a in (*reads, *writes):
            if a.space is Space.GM and any(lo <= a.offset < hi for lo, hi in self.l2_hints):
                return BYPASS_COSTS[tuple(cost.items())]
        return cost

    def add(self, ins: Instr) -> None:
        self.instrs.append(ins)

    def fault(
        self,
        cls: type[KernelFault],
        message: str,
        *,
        hint: str | None = None,
        code: int | None = None,
        **extra: Any,
    ) -> NoReturn:
        file, line = where(3)
        raise cls(message, hint=hint, code=code, file=file, line=line, block=self.block_idx, **extra)

    def diagnose_local(self, kind: str, space: str, offset: int, buf_end: int, end: int, op: str) -> None:
        """Note a local operand reaching past its buffer (``[offset, buf_end)``) up to ``end``."""
        if self.launch is None:
            return
        file, line = where(4)
        self.launch.sanitizer.note(KernelDiagnostic(kind, self.block_idx, buf_end, end,
                                                    f"{space} buffer [{offset}:{buf_end}]", offset,
                                                    buf_end - offset, end - offset, op, file, line))

    def diagnose(self, kind: str, start: int, end: int, alloc: Allocation, op: str) -> None:
        """Note a legal but suspicious access in the launch's sanitizer report, at the kernel line."""
        if self.launch is None:
            return
        file, line = where(3)
        self.launch.sanitizer.note(KernelDiagnostic(kind, self.block_idx, start, end, alloc.describe(),
                                                    alloc.base, alloc.size, alloc.extent, op, file, line))


class CostTable(dict[Any, Cost]):
    """Interned :class:`~aclsim.isa.Cost` objects of one shape, by value: ``REPEATS[3]`` is
    ``Cost(repeats=3)``, ``CUBE[(m, n, k)]`` is ``Cost(m=m, n=n, k=k)``.  The same figures recur
    instruction after instruction, so the instructions share their costs (and the core model
    times each shape once)."""

    def __init__(self, *figures: str) -> None:
        super().__init__()
        self.figures = figures

    def __missing__(self, key: Any) -> Cost:
        values = key if len(self.figures) > 1 else (key,)
        if len(self) > 65536:
            self.clear()
        cost = self[key] = Cost(**dict(zip(self.figures, values, strict=True)))
        return cost


#: Vector instructions: repeats.
REPEATS = CostTable("repeats")
#: Vector instructions whose cost depends on the element width: ``(repeats, bytes per element)``.
WIDE_REPEATS = CostTable("repeats", "width")
#: Copies: bytes moved.
BYTES = CostTable("bytes")
#: Strided copies touching global memory: bytes moved and the segments' geometry (the L2 model
#: touches only the segments' lines).
SEGMENTS = CostTable("bytes", "segments", "seg_bytes", "seg_stride")
#: Copies on the vector pipe (UB -> UB): bytes and repeats.
BYTES_REPEATS = CostTable("bytes", "repeats")
#: Cube instructions: ``(m, n, k)``.
CUBE = CostTable("m", "n", "k")


class _BypassCosts(dict[Any, Cost]):
    """The cost of a copy that bypasses L2: its figures plus ``cache_mode="disable"``."""

    def __missing__(self, key: tuple[tuple[str, Any], ...]) -> Cost:
        cost = self[key] = Cost(**dict(key), cache_mode="disable")
        return cost


BYPASS_COSTS = _BypassCosts()
_GM_PIPES = (Pipe.MTE2, Pipe.MTE3, Pipe.FIX)

_tls = threading.local()


def current() -> Core:
    """The core running the calling kernel code; fails loudly outside a kernel."""
    core = getattr(_tls, "core", None)
    if core is None:
        file, line = where(2)
        raise KernelContextError(
            f"kernel-language call outside a running kernel ({file}:{line})",
            hint="call it from a @kernel function launched as my_kernel[block_dim, stream](...)",
        )
    return core


def set_current(core: Core | None) -> None:
    _tls.core = core


def running() -> bool:
    """Whether the calling thread is running a kernel block."""
    return getattr(_tls, "core", None) is not None


def get_block_idx() -> int:
    """``GetBlockIdx()``: the index of the block this core runs (0 .. block_dim - 1)."""
    return current().block_idx


def get_block_num() -> int:
    """``GetBlockNum()``: the block dimension of the launch."""
    return current().block_num
