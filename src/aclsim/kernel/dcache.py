"""The scalar unit's data cache: ``DataCacheCleanAndInvalid``, ``Read/WriteGmByPassDCache``.

On the device the scalar unit reaches global memory through a per-core data cache (DCache),
while the DMA pipes (MTE2/MTE3) go to global memory directly.  A kernel that reads with
``GetValue`` data another core or a DMA wrote, or that wants its ``SetValue`` stores seen at
once, calls ``DataCacheCleanAndInvalid`` (write the dirty lines back, drop the lines) or skips
the cache with ``ReadGmByPassDCache`` / ``WriteGmByPassDCache``.

aclsim has no scalar data cache: its ``get_value``/``set_value`` on a ``GlobalTensor`` read and
write global memory directly, so every scalar access already sees the latest data and the
clean-and-invalidate has nothing to do.  The calls are accepted where the documentation
accepts them (chip, prototype, mode), checked, and recorded as scalar-pipe instructions with
their cost, so the timeline and the pipe order match the kernel:

- ``data_cache_clean_and_invalid``: op ``dcci``, no memory access (there are no dirty lines to
  write back), one global-memory round trip (the preset's ``gm_latency_cycles``) for either mode.
  The device's ``ENTIRE_DATA_CACHE`` walks the whole cache and costs more; aclsim does not model
  the cache's size, so it undercounts that mode.
- ``read_gm_by_pass_dcache`` / ``write_gm_by_pass_dcache``: one element read or written in global
  memory on the scalar pipe (the access recorded, so the race sanitizer orders it against the
  DMA pipes), one round trip to global memory each; bounds checked like every global access.
"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from aclsim.errors import GlobalOutOfRangeError
from aclsim.isa import Pipe, Space
from aclsim.kernel._core import Core, CostTable, UnsupportedFault, current
from aclsim.kernel.gm import GmAddr, gm_fault_code
from aclsim.kernel.tensor import GlobalTensor, LocalTensor

#: Scalar instructions with a fixed duration: cycles.
CYCLES = CostTable("cycles")
#: Bytes of one DCache line (the DataCacheCleanAndInvalid page: a line is 64 B).
CACHE_LINE_BYTES = 64


class CacheLine(enum.IntEnum):
    """``AscendC::CacheLine``: one line (the one holding the address) or the whole DCache."""

    SINGLE_CACHE_LINE = 0
    ENTIRE_DATA_CACHE = 1


class DcciDst(enum.IntEnum):
    """``AscendC::DcciDst``: which memory the DCache is made coherent with."""

    CACHELINE_ALL = 0
    CACHELINE_UB = 1
    CACHELINE_OUT = 2
    CACHELINE_ATOMIC = 3


def _require_chip(core: Core, name: str, arches: tuple[str, ...]) -> None:
    if core.chip.arch_version not in arches:
        core.fault(UnsupportedFault, f"{name} is not supported on the {core.chip.name} (arch "
                   f"{core.chip.arch_version})", hint="its page lists the Atlas A2/A3 series only"
                   if arches == ("2201",) else None)


def data_cache_clean_and_invalid(dst: GlobalTensor | LocalTensor,
                                 entire_type: CacheLine = CacheLine.SINGLE_CACHE_LINE,
                                 dcci_dst: DcciDst | None = None) -> None:
    """``DataCacheCleanAndInvalid<T, entireType[, dcciDst]>(dst)``: make the scalar data cache
    coherent with ``dst``'s memory (global memory, or UB with ``DcciDst.CACHELINE_UB``).

    ``SINGLE_CACHE_LINE`` works on the 64 B line holding ``dst``'s address (from the address to
    the next 64 B boundary); ``ENTIRE_DATA_CACHE`` on the whole cache.  The prototype without
    ``dcci_dst`` (None) takes a GlobalTensor; the one with it takes a GlobalTensor or a
    LocalTensor.  The 310P (Atlas inference AI Core) has only the first; ``CACHELINE_ATOMIC`` is
    documented for the Ascend 950 only.  aclsim has no scalar cache (module docstring): a
    recorded ``dcci`` on the scalar pipe that moves no data.
    """
    core = current()
    name = "DataCacheCleanAndInvalid"
    _require_chip(core, name, ("2201", "2002"))
    CacheLine(entire_type)  # either mode: checked, and nothing to do on aclsim's absent cache
    if dcci_dst is not None:
        target = DcciDst(dcci_dst)
        if core.chip.arch_version == "2002":
            core.fault(UnsupportedFault, f"{name} with dcciDst on the {core.chip.name}: its AI Core takes "
                       "only the prototype without dcciDst (GlobalTensor, coherence with global memory)",
                       hint="leave dcci_dst out")
        if target is DcciDst.CACHELINE_ATOMIC:
            core.fault(UnsupportedFault, f"{name}: DcciDst.CACHELINE_ATOMIC is not supported on the "
                       f"{core.chip.name} (documented for the Ascend 950 only)",
                       hint="use CACHELINE_OUT (or CACHELINE_ALL) for global memory")
    if isinstance(dst, LocalTensor):
        if dcci_dst is None:
            raise TypeError(f"{name}(LocalTensor) needs dcci_dst (the LocalTensor prototype has it): "
                            "DcciDst.CACHELINE_UB for UB")
        dst.check_live(core, name)
    elif isinstance(dst, GlobalTensor):
        if dst.alloc is None:
            raise ValueError(f"{name}: GlobalTensor used before set_global_buffer")
    else:
        raise TypeError(f"{name} takes a GlobalTensor or a LocalTensor, not {type(dst).__name__}")
    core.emit(Pipe.S, "dcci", (), (), CYCLES[core.chip.gm_latency_cycles])


def _scalar_gm(core: Core, addr: Any, name: str, write: bool) -> tuple[GlobalTensor, np.dtype, int]:
    if not isinstance(addr, GmAddr):
        raise TypeError(f"{name} takes a typed global pointer (GmAddr, e.g. x.cast(asc.int32) + i), "
                        f"not {type(addr).__name__}")
    dt = addr.dtype
    if dt.kind not in "iu":
        raise TypeError(f"{name}<{dt}>: the documented types are int8/uint8/int16/uint16/int32/uint32/"
                        "int64/uint64")
    _require_chip(core, name, ("2201",))
    g = GlobalTensor(dt)
    try:
        g.set_global_buffer(addr.addr, 1)
    except GlobalOutOfRangeError as exc:  # not in device memory: the trap of a read, or of a write
        core.fault(GlobalOutOfRangeError, f"{name}: {exc.message}", hint=exc.hint,
                   code=gm_fault_code(write, _vector_side(core)))
    return g, dt, addr.addr


def _vector_side(core: Core) -> bool:
    return getattr(core.core_type, "name", "AIV") != "AIC"


def read_gm_by_pass_dcache(addr: GmAddr) -> Any:
    """``ReadGmByPassDCache<T>(addr)``: the element of type ``T`` at ``addr`` in global memory, read
    by the scalar unit without the data cache (one round trip to global memory)."""
    core = current()
    name = "ReadGmByPassDCache"
    g, dt, a = _scalar_gm(core, addr, name, False)
    raw = g.bytes_at(core, 0, dt.itemsize, write=False, vector_side=_vector_side(core), op=name)
    value = raw.view(dt)[0]
    core.emit(Pipe.S, "read_gm_by_pass_dcache", (core.access(Space.GM, a, dt.itemsize),), (),
              CYCLES[core.chip.gm_latency_cycles])
    return value


def write_gm_by_pass_dcache(addr: GmAddr, value: Any) -> None:
    """``WriteGmByPassDCache<T>(addr, value)``: store ``value`` (as ``T``) at ``addr`` in global
    memory from the scalar unit without the data cache (seen by the other cores and the DMA
    pipes once it completes)."""
    core = current()
    name = "WriteGmByPassDCache"
    g, dt, a = _scalar_gm(core, addr, name, True)
    v = dt.type(value)  # converted first: a value T cannot hold fails before memory changes
    raw = g.bytes_at(core, 0, dt.itemsize, write=True, vector_side=_vector_side(core), op=name)
    raw.view(dt)[0] = v
    core.emit(Pipe.S, "write_gm_by_pass_dcache", (), (core.access(Space.GM, a, dt.itemsize),),
              CYCLES[core.chip.gm_latency_cycles])

