"""Global memory: kernel pointer arguments (``GM_ADDR``) and the allocations they point into.

The only place the kernel language touches the runtime's memory: an address is resolved
once to the live allocation holding it (its start, its size, a uint8 view of all of it),
so every later global access is a bounds check and a NumPy slice.

A device allocation reaches as far as the device lets a kernel go: AscendCL's padded size
``ALIGN_UP(size, 32) + 32`` (``Buffer.padded_size``).  Accesses past the requested size but
inside the padding are legal and noted in the launch's sanitizer report
(:mod:`aclsim.kernel.sanitizer`); accesses past the padding trap.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from aclsim.errors import (
    ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW,
    ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW,
    ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW,
    ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW,
    GlobalOutOfRangeError,
    UseAfterFreeError,
)
from aclsim.kernel._core import as_dtype

if TYPE_CHECKING:
    from aclsim.kernel._core import Core


#: The runtime's lookup of the device memory a kernel may reach at an address (an object with
#: ``base``, ``size``, ``view``, ``buffer`` and ``host``, or None), injected by the launch.
FindMemory = Callable[[int], Any]

#: A footprint: ``touched(lo, hi)`` says which bytes ``lo .. hi - 1`` of an access's span it
#: really touches (strided and indexed copies skip gaps), as a boolean array.
Footprint = Callable[[int, int], np.ndarray]


class Allocation:
    """A live device allocation: ``size`` bytes requested at ``base``, ``extent`` bytes a kernel
    may reach (AscendCL's padded size; ``size`` for zero-copy host memory) and a uint8 view of
    those ``extent`` bytes.

    ``host`` marks zero-copy host memory mapped for the device (``aclsim.host_register``):
    its accesses are recorded in ``Space.HOST`` and cost the host link in the core model.
    ``written`` has bit ``i`` set once the launch wrote padding byte ``size + i``.
    """

    __slots__ = ("base", "size", "extent", "view", "buffer", "host", "written")

    def __init__(self, base: int, size: int, view: np.ndarray, buffer: Any, host: bool = False,
                 extent: int | None = None) -> None:
        self.base, self.size, self.view, self.buffer = base, size, view, buffer
        self.host = host
        self.extent = size if extent is None else extent
        self.written = 0

    def describe(self) -> str:
        """The allocation and the line that made it (the runtime's words), for diagnostics."""
        return self.buffer.describe() if self.buffer is not None else repr(self)

    def __repr__(self) -> str:
        return f"<Allocation 0x{self.base:x} {self.size}B>"


def locate_allocation(addr: int, find_memory: FindMemory) -> Allocation | None:
    """The live allocation (or zero-copy host mapping) holding ``addr``, found by the runtime's
    ``find_memory`` (injected by the launch; ``aclsim.runtime.pointers.allocation_at``), or None.

    A device allocation reaches as far as a kernel may go on the device (its padded bytes).
    Memory that was freed raises :class:`~aclsim.errors.UseAfterFreeError` (naming the lines
    that allocated and freed it): the pool poisons freed blocks.
    """
    found = find_memory(addr)
    if found is None:
        return None
    return Allocation(found.base, found.size, found.view, found.buffer, found.host, len(found.view))


def _cached(core: Core, addr: int) -> Allocation | None:
    """The allocation holding ``addr`` among those the launch already found."""
    cache: dict[int, Allocation] = core.launch.allocations if core.launch is not None else {}
    for alloc in cache.values():
        if alloc.base <= addr < alloc.base + alloc.extent:
            if alloc.host:  # the cache is the launch's, the host ranges each block's own
                _note_host(core, alloc)
            return alloc
    return None


def _remember(core: Core, found: Allocation) -> Allocation:
    if core.launch is not None:
        core.launch.allocations[found.base] = found
    if found.host:
        _note_host(core, found)
    return found


def resolve(core: Core, addr: int, code: int | None = None) -> Allocation:
    """The allocation holding ``addr``; a fault (``code``: the trap of the access that needed it)
    when there is none or it was freed."""
    cached = _cached(core, addr)
    if cached is not None:
        return cached
    if core.launch is None or core.launch.find_memory is None:
        core.fault(GlobalOutOfRangeError, f"global address 0x{addr:x} outside a launch",
                   hint="launch the kernel: kernel[block_dim, stream](*device_pointers)", code=code)
    try:
        found = locate_allocation(addr, core.launch.find_memory)
    except UseAfterFreeError as exc:
        core.fault(GlobalOutOfRangeError, f"use after free: {exc.message}", hint=exc.hint, code=exc.code)
    if found is None:
        core.fault(
            GlobalOutOfRangeError,
            f"global address 0x{addr:x} is not inside a live device allocation",
            hint="pass pointers from aclsim.malloc, before they are freed",
            code=code,
        )
    return _remember(core, found)


def lookup(core: Core, addr: int) -> Allocation | None:
    """The allocation holding ``addr``, or None (no fault: binding a pointer is not an access)."""
    cached = _cached(core, addr)
    if cached is not None or core.launch is None or core.launch.find_memory is None:
        return cached
    try:
        found = locate_allocation(addr, core.launch.find_memory)
    except UseAfterFreeError:
        return None
    return None if found is None else _remember(core, found)


def _note_host(core: Core, alloc: Allocation) -> None:
    """Make ``core`` record its accesses to host-mapped ``alloc`` as HOST (the host link)."""
    span = (alloc.base, alloc.base + alloc.size)
    if span not in core.host_ranges:
        core.host_ranges.append(span)


def note_past_request(core: Core, alloc: Allocation, start: int, end: int, *, write: bool, op: str,
                      footprint: Footprint | None) -> None:
    """Note an access to bytes ``start .. end - 1`` of ``alloc`` (offsets; ``end`` past the requested
    size, within the padding) in the launch's sanitizer report: an uninitialized read, a read of
    padding the launch wrote, or a write into the padding."""
    lo = max(start, alloc.size)
    if footprint is None:
        first, last = lo, end - 1
        bits = ((1 << (end - lo)) - 1) << (lo - alloc.size)
    else:
        touched = np.flatnonzero(footprint(lo - start, end - start)) + lo
        if not touched.size:
            return  # the gaps of a strided access cover the padding
        first, last = int(touched[0]), int(touched[-1])
        bits = 0
        for offset in touched.tolist():
            bits |= 1 << (offset - alloc.size)
    if write:
        alloc.written |= bits
        kind = "out_of_request_write"
    else:
        kind = "uninitialized_read" if bits & ~alloc.written else "out_of_request_read"
    core.diagnose(kind, alloc.base + first, alloc.base + last + 1, alloc, op)


def strided_footprint(count: int, blen: int, stride: int) -> Footprint | None:
    """``count`` blocks of ``blen`` bytes, ``stride`` bytes apart (None: contiguous)."""
    if count <= 1 or stride <= blen:
        return None

    def touched(lo: int, hi: int) -> np.ndarray:
        o = np.arange(lo, hi)
        return (o % stride < blen) & (o // stride < count)

    return touched


def indexed_footprint(index: np.ndarray, itemsize: int) -> Footprint:
    """The elements ``index`` (any shape) of ``itemsize`` bytes each."""

    def touched(lo: int, hi: int) -> np.ndarray:
        mask = np.zeros(hi - lo, dtype=bool)
        flat = np.asarray(index).ravel()
        elems = np.unique(flat[(flat + 1) * itemsize > lo])
        for k in range(itemsize):
            b = elems * itemsize + k - lo
            mask[b[(b >= 0) & (b < hi - lo)]] = True
        return mask

    return touched


def gm_fault_code(write: bool, vector_side: bool) -> int:
    if vector_side:
        return (
            ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW
            if write
            else ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW
        )
    return ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW if write else ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW


class GmAddr:
    """A kernel's global-memory pointer argument (``GM_ADDR``, i.e. ``__gm__ uint8_t*``).

    ``x.cast(float16)`` is ``(__gm__ half*)x``; ``+ n`` advances ``n`` elements of the
    pointer's type, as in C.  ``int(x)`` is the device address.

    >>> from aclsim.kernel import float16
    >>> p = GmAddr(0x1000)
    >>> int(p.cast(float16) + 8), int(p + 8)
    (4112, 4104)
    """

    __slots__ = ("addr", "dtype")

    def __init__(self, addr: int, dtype: Any = None) -> None:
        self.addr = int(addr)
        self.dtype = as_dtype(dtype if dtype is not None else np.uint8)

    def cast(self, dtype: Any) -> GmAddr:
        return GmAddr(self.addr, dtype)

    def __add__(self, n: int) -> GmAddr:
        return GmAddr(self.addr + int(n) * self.dtype.itemsize, self.dtype)

    __radd__ = __add__

    def __sub__(self, n: int) -> GmAddr:
        return GmAddr(self.addr - int(n) * self.dtype.itemsize, self.dtype)

    def __int__(self) -> int:
        return self.addr

    def __index__(self) -> int:
        return self.addr

    def __eq__(self, other: object) -> bool:
        return isinstance(other, (GmAddr, int)) and int(other) == self.addr

    def __hash__(self) -> int:
        return hash(self.addr)

    def __repr__(self) -> str:
        return f"<GmAddr 0x{self.addr:x} {self.dtype}*>"
