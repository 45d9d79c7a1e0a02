"""Atomic stores to global memory: ``SetAtomicAdd/Max/Min<T>()``, ``SetAtomicType<T>()``,
``SetAtomicNone()`` / ``DisableDmaAtomic()``.

While a mode is set, every later store of the block to global memory (``data_copy`` and
``data_copy_pad`` UB -> GM on MTE3, ``fixpipe`` L0C -> GM on FIX) writes ``old op new``
element by element in the mode's type instead of ``new``: the bytes moved and the bytes in
GM are both read as ``T``.  ``add`` rounds once in ``T`` (NumPy's correctly rounded
arithmetic; integers wrap), ``max``/``min`` compare in ``T`` (a NaN on either side gives NaN).
Blocks run one after the other in aclsim, so concurrent atomic adds of several blocks are
summed in block order; on the device the order (and with floats the last bits) depends on
which core comes first.

The types and paths are the chip's (the Ascend C pages of ``SetAtomicAdd``/``SetAtomicMax``):
arch 2201 (910B-like): add, max and min on int8, int16, half, bfloat16, int32, float, from UB
and L0C; arch 2002 (310P-like, coupled): add only, on int16, half, float, from UB only;
other archs: add on float from UB.

The setting is a scalar-unit register write: it is recorded on PIPE_S (``set_atomic_add``
...).  Each atomic store is recorded with its GM range in ``reads`` (it reads the old value)
and ``writes``, and ``atomic="add:float32"`` in its cost, so the launch can tell atomic
stores of different blocks (not a race) from a plain access racing with them (a
``RaceError``, see :func:`aclsim.kernel.blocks.check_atomic_races`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from aclsim.errors import MisalignedAccessError
from aclsim.isa import NO_COST, Access, Cost, Pipe
from aclsim.kernel._core import (
    BYTES,
    Core,
    CostTable,
    UnsupportedFault,
    as_dtype,
    bfloat16,
    current,
    float16,
    float32,
    int8,
    int16,
    int32,
)

_ALL = (int8, int16, float16, bfloat16, int32, float32)
#: arch -> mode -> the types it takes
_TYPES: dict[str, dict[str, tuple[np.dtype, ...]]] = {
    "2201": {"add": _ALL, "max": _ALL, "min": _ALL},
    "2002": {"add": (int16, float16, float32)},
}
_DEFAULT_TYPES: dict[str, tuple[np.dtype, ...]] = {"add": (float32,)}
#: arch -> the memories an atomic store may come from
_PATHS: dict[str, tuple[str, ...]] = {"2201": ("UB", "L0C")}

_OPS: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "add": np.add, "max": np.maximum, "min": np.minimum,
}

#: Atomic stores: bytes moved and the mode (``"add:float32"``).
ATOMIC_BYTES = CostTable("bytes", "atomic")


def _set(mode: str | None, dtype: Any, name: str) -> None:
    core = current()
    if mode is None:
        core.atomic = None
    else:
        dt = as_dtype(dtype)
        arch = core.chip.arch_version
        allowed = _TYPES.get(arch, _DEFAULT_TYPES)
        if mode not in allowed:
            core.fault(UnsupportedFault,
                       f"{name}: {core.chip.name} (arch {arch}) has no atomic {mode}; its atomic modes are "
                       + ", ".join(allowed), hint="accumulate in UB and store once, or use set_atomic_add")
        if dt not in allowed[mode]:
            core.fault(UnsupportedFault,
                       f"{name}({dt}): atomic {mode} on {core.chip.name} (arch {arch}) takes "
                       + ", ".join(str(t) for t in allowed[mode]), hint="store in one of those types")
        core.atomic = (mode, dt)
    core.emit(Pipe.S, name, (), (), NO_COST)


def set_atomic_add(dtype: Any) -> None:
    """``SetAtomicAdd<T>()``: later stores to GM add to what is there (``gm = gm + value`` in ``T``)."""
    _set("add", dtype, "set_atomic_add")


def set_atomic_max(dtype: Any) -> None:
    """``SetAtomicMax<T>()``: later stores to GM keep the larger of old and new (arch 2201)."""
    _set("max", dtype, "set_atomic_max")


def set_atomic_min(dtype: Any) -> None:
    """``SetAtomicMin<T>()``: later stores to GM keep the smaller of old and new (arch 2201)."""
    _set("min", dtype, "set_atomic_min")


def set_atomic_type(dtype: Any) -> None:
    """``SetAtomicType<T>()``: change the type of the atomic mode that is set (no mode: nothing)."""
    core = current()
    if core.atomic is not None:
        _set(core.atomic[0], dtype, "set_atomic_type")
    else:
        as_dtype(dtype)
        core.emit(Pipe.S, "set_atomic_type", (), (), NO_COST)


def set_atomic_none() -> None:
    """``SetAtomicNone()`` / ``DisableDmaAtomic()``: later stores to GM overwrite again."""
    _set(None, None, "set_atomic_none")


disable_dma_atomic = set_atomic_none


# --- used by the stores (copy.py, cube.py) ---------------------------------------------------

def store_cost(core: Core, nbytes: int, source: str, op: str) -> Cost:
    """The cost of a GM store of ``nbytes`` from ``source`` ("UB", "L0C"): ``BYTES`` or, in an
    atomic mode, ``ATOMIC_BYTES`` (faults when the chip has no atomic store from ``source``)."""
    mode = core.atomic
    if mode is None:
        return BYTES[nbytes]
    paths = _PATHS.get(core.chip.arch_version, ("UB",))
    if source not in paths:
        core.fault(UnsupportedFault,
                   f"{op}: an atomic {mode[0]} store from {source} is not available on {core.chip.name} "
                   f"(arch {core.chip.arch_version}: from {', '.join(paths)} only)",
                   hint="store from UB, or call set_atomic_none() before this store")
    if core.launch is not None:
        core.launch.has_atomics = True
    return ATOMIC_BYTES[(nbytes, f"{mode[0]}:{mode[1]}")]


def store_reads(core: Core, gm: Access) -> tuple[Access, ...]:
    """The GM reads of a store to ``gm``: its range in an atomic mode (read-modify-write), else none."""
    return (gm,) if core.atomic is not None else ()


def store(core: Core, dst: np.ndarray, src: np.ndarray, op: str) -> None:
    """``dst[...] = src`` for uint8 arrays of one shape (last axis contiguous), or in an atomic mode
    ``dst = dst <mode> src`` with both read as the mode's type."""
    mode = core.atomic
    if mode is None:
        dst[...] = src
        return
    fn, dt = _OPS[mode[0]], mode[1]
    if dst.shape and dst.shape[-1] % dt.itemsize:
        core.fault(MisalignedAccessError,
                   f"{op}: atomic {mode[0]} in {dt} on blocks of {dst.shape[-1]} B, not a multiple of "
                   f"sizeof({dt}) = {dt.itemsize}", hint="store whole elements of the atomic type")
    d = dst.view(dt)
    d[...] = fn(d, src.view(dt))


def store_at(core: Core, dst: np.ndarray, index: np.ndarray, values: np.ndarray, op: str) -> None:
    """``dst[index] = values`` (a typed array), or in an atomic mode ``dst[index] = dst[index] <mode>
    values`` read as the mode's type (``index`` holds no element twice)."""
    mode = core.atomic
    if mode is None:
        dst[index] = values
        return
    fn, dt = _OPS[mode[0]], mode[1]
    if dt.itemsize != dst.dtype.itemsize:
        core.fault(MisalignedAccessError,
                   f"{op}: atomic {mode[0]} in {dt} on {dst.dtype} results (elements of another size)",
                   hint=f"set the atomic type to the stored type: set_atomic_{mode[0]}({dst.dtype})")
    d = dst.view(dt)
    d[index] = fn(d[index], np.ascontiguousarray(values).view(dt))
