"""Global memory: kernel pointer arguments (``GM_ADDR``) and the allocations they point into.

The only place the kernel language touches the runtime's memory: an address is resolved
once to the live allocation holding it (its start, its size, a uint8 view of all of it),
so every later global access is a bounds check and a NumPy slice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from aclsim.errors import (
    ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW,
    ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW,
    ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW,
    ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW,
    AclError,
    GlobalOutOfRangeError,
    UseAfterFreeError,
)
from aclsim.kernel._core import as_dtype

if TYPE_CHECKING:
    from aclsim.kernel._core import Core


class Allocation:
    """A live device allocation: ``[base, base + size)`` and a uint8 view of those bytes.

    ``host`` marks zero-copy host memory mapped for the device (``aclsim.host_register``):
    its accesses are recorded in ``Space.HOST`` and cost the host link in the core model.
    """

    __slots__ = ("base", "size", "view", "buffer", "host")

    def __init__(self, base: int, size: int, view: np.ndarray, buffer: Any, host: bool = False) -> None:
        self.base, self.size, self.view, self.buffer = base, size, view, buffer
        self.host = host

    def __repr__(self) -> str:
        return f"<Allocation 0x{self.base:x} {self.size}B>"


def locate_allocation(addr: int) -> Allocation | None:
    """The runtime's live allocation (or zero-copy host mapping) holding ``addr``, or None.

    Memory that was freed raises :class:`~aclsim.errors.UseAfterFreeError` (naming the lines
    that allocated and freed it): the pool poisons freed blocks.
    """
    from aclsim.runtime import api
    from aclsim.runtime.memory import Buffer, HostMapping, is_device_address

    if not is_device_address(addr):
        return None
    try:
        held = api._locate(addr, 0, "kernel pointer").keep
    except UseAfterFreeError:
        raise
    except AclError:
        return None
    if isinstance(held, Buffer):
        base, size, buf, host = held.ptr, held.size, held, False
    elif isinstance(held, HostMapping):
        base, size, buf, host = held.ptr, held.nbytes, None, True
    else:
        return None
    view = api._locate(base, size, "kernel pointer").view
    return Allocation(base, size, view, buf, host)


def resolve(core: Core, addr: int) -> Allocation:
    cache: dict[int, Allocation] = core.launch.allocations if core.launch is not None else {}
    for alloc in cache.values():
        if alloc.base <= addr < alloc.base + alloc.size:
            return alloc
    try:
        found = locate_allocation(addr)
    except UseAfterFreeError as exc:
        core.fault(GlobalOutOfRangeError, f"use after free: {exc.message}", hint=exc.hint, code=exc.code)
    if found is None:
        core.fault(
            GlobalOutOfRangeError,
            f"global address 0x{addr:x} is not inside a live device allocation",
            hint="pass pointers from aclsim.malloc, before they are freed",
        )
    cache[found.base] = found
    if found.host:
        core.host_ranges.append((found.base, found.base + found.size))
    return found


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
