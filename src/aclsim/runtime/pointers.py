"""Pointers: what an address is, and the memory behind it.

The one place that turns a pointer argument (an int, a :class:`Buffer`, a NumPy array or
bytes) into the memory it names, for copies and memsets (:func:`locate`), for kernels
(:func:`allocation_at`: a device allocation including AscendCL's padding), for the memory
debugger (:func:`check_access`) and for pyACL's pointer utilities (``numpy_to_ptr``,
``ptr_to_numpy``, ...).  Device addresses are above every 64-bit OS's user space
(``backends/sim.py``), so an int alone tells host from device.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from aclsim.errors import InvalidMemoryTypeError, InvalidParamError
from aclsim.runtime import lookup
from aclsim.runtime._state import caller_site, check_int
from aclsim.runtime.hostmem import HostRegion
from aclsim.runtime.memory import Buffer, DeviceMemory, HostMapping, device_of_address, is_device_address

if TYPE_CHECKING:
    from aclsim.runtime.device import Device

__all__ = [
    "DeviceRange",
    "Located",
    "Pointer",
    "allocation_at",
    "as_ptr",
    "bytes_to_ptr",
    "check_access",
    "device_array",
    "device_memory_at",
    "dims",
    "locate",
    "numpy_to_ptr",
    "ptr_to_bytes",
    "ptr_to_numpy",
]

Pointer = int | Buffer | np.ndarray | bytes | bytearray


def as_ptr(ptr: Pointer, what: str) -> int:
    """The address of a pointer argument; arrays and bytes are registered as host memory."""
    if isinstance(ptr, Buffer):
        return ptr.ptr
    if isinstance(ptr, np.ndarray):
        return lookup.state().host.register_array(ptr, caller_site())
    if isinstance(ptr, (bytes, bytearray)):
        return lookup.state().host.register_bytes(ptr, caller_site())
    if isinstance(ptr, (int, np.integer)) and not isinstance(ptr, bool):
        if ptr <= 0:
            raise InvalidParamError(f"{what} is a null pointer" if ptr == 0 else f"{what} {ptr} is negative")
        return int(ptr)
    raise InvalidParamError(f"{what} must be a pointer (int), a Buffer or a numpy array, got "
                            f"{type(ptr).__name__}")


class Located:
    """The memory behind ``[ptr, ptr + nbytes)``: which side, which device, a uint8 view of the
    bytes, what to keep alive while the view is used, and the buffer or host region holding it."""

    __slots__ = ("on_device", "device", "view", "keep", "buffer", "region")

    def __init__(self, on_device: bool, device: Device | None, view: np.ndarray, keep: object,
                 buffer: Buffer | None, region: HostRegion | None = None) -> None:
        self.on_device, self.device, self.view, self.keep, self.buffer = on_device, device, view, keep, buffer
        self.region = region


def device_memory_at(ptr: int, what: str) -> tuple[Device, DeviceMemory]:
    """The open device (and its memory) whose address space holds the device address ``ptr``."""
    state = lookup.state()
    did = device_of_address(ptr)
    device = state.devices[did] if did < len(state.devices) else None
    if device is None or device.memory is None:
        raise InvalidMemoryTypeError(f"{what} 0x{ptr:x} is not memory of an open device",
                                     hint="use pointers from malloc on a device you set")
    return device, device.memory


def locate(ptr: int, nbytes: int, what: str) -> Located:
    """The memory of ``[ptr, ptr + nbytes)``, device or known host memory; every error names
    what to fix (freed memory is a use after free naming its lines)."""
    if is_device_address(ptr):
        device, memory = device_memory_at(ptr, what)
        held, view = memory.locate(ptr, nbytes)
        return Located(True, device, view, held, held if isinstance(held, Buffer) else None)
    region, hview, owner = lookup.state().host.locate(ptr, nbytes)
    return Located(False, None, hview, (region, owner), None, region)


def buffers_of(*locs: Located) -> tuple[Buffer, ...]:
    return tuple(loc.buffer for loc in locs if loc.buffer is not None)


def pinned_regions_of(*locs: Located) -> tuple[HostRegion, ...]:
    return tuple(loc.region for loc in locs if loc.region is not None and loc.region.kind == "pinned")


@dataclass(frozen=True)
class DeviceRange:
    """The device memory a kernel may reach at an address: ``size`` bytes requested at
    ``base``, a uint8 ``view`` of the bytes it may touch (a device allocation's padded bytes,
    ``DeviceMemory.reachable_bytes``), the :class:`Buffer` (None for zero-copy host memory,
    ``host`` True: its accesses cost the host link)."""

    base: int
    size: int
    view: np.ndarray
    buffer: Buffer | None
    host: bool


def allocation_at(addr: int) -> DeviceRange | None:
    """For kernels: the live device allocation whose padded bytes hold ``addr`` (a kernel may
    reach all ``ALIGN_UP(size, 32) + 32`` of them, as on the device), or the zero-copy host
    mapping holding it; None for an address nothing holds.  Freed memory raises
    ``UseAfterFreeError`` naming its lines."""
    if not is_device_address(addr):
        return None
    state = lookup.state()
    did = device_of_address(addr)
    device = state.devices[did] if did < len(state.devices) else None
    if device is None or device.memory is None:
        return None
    memory = device.memory
    held = memory.holder(addr)
    if isinstance(held, Buffer):
        return DeviceRange(held.ptr, held.size, memory.padded_view(held), held, False)
    if isinstance(held, HostMapping):
        return DeviceRange(held.ptr, held.nbytes, memory.locate(held.ptr, held.nbytes)[1], None, True)
    return None


def check_access(ptr: Pointer, nbytes: int, *, what: str = "access") -> Buffer | HostMapping:
    """Check that ``[ptr, ptr + nbytes)`` is device memory a kernel or copy may touch now, and
    return what holds it: a live :class:`Buffer` or a :class:`HostMapping` (zero-copy host
    memory; :func:`is_host_mapped` tells the core model to charge the host link).

    Memory that was freed (cached by the pool, or handed to nobody) is poisoned: touching it
    raises :class:`~aclsim.errors.UseAfterFreeError` naming the lines that allocated and freed
    it.  A range running past the end of its allocation raises
    :class:`~aclsim.errors.RtParamInvalidError`; a host pointer
    :class:`~aclsim.errors.InvalidMemoryTypeError`.

    >>> import aclsim
    >>> aclsim.init(chip="tiny"); aclsim.set_device(0)
    >>> buf = aclsim.malloc(256); aclsim.check_access(buf.ptr + 64, 128) is buf
    True
    >>> aclsim.free(buf)
    >>> try:
    ...     aclsim.check_access(buf.ptr, 16)
    ... except aclsim.errors.UseAfterFreeError as exc:
    ...     print(exc.code, "use after free" in str(exc))
    107000 True
    >>> aclsim.reset_device(0); _ = aclsim.finalize()
    """
    lookup.require_init()
    nbytes = check_int("nbytes", nbytes)
    p = as_ptr(ptr, "ptr")
    if not is_device_address(p):
        raise InvalidMemoryTypeError(f"{what} of host address 0x{p:x}: kernels reach host memory only "
                                     "through host_register", hint="register it, or copy it to the device")
    _device, memory = device_memory_at(p, what)
    owner, _view = memory.locate(p, nbytes)
    return owner


# --- views and host pointers (acl.util) ----------------------------------------------------

def dims(shape: object) -> tuple[int, ...]:
    """A shape as non-negative ints (its byte count is computed with Python ints: a NumPy
    int64 product would wrap around for huge shapes and describe a tiny view)."""
    items = (shape,) if isinstance(shape, (int, np.integer)) else shape
    if not isinstance(items, Sequence | np.ndarray) or isinstance(items, (str, bytes)):
        raise InvalidParamError(f"shape must be an int or a tuple of ints, got {type(shape).__name__}")
    return tuple(check_int("shape dimension", d) for d in items)


def device_array(ptr: Pointer, shape: int | tuple[int, ...], dtype: Any) -> np.ndarray:
    """A NumPy view of device memory, for device-side work inside :func:`launch_function`."""
    lookup.require_init()
    dt = np.dtype(dtype)
    shape_t = dims(shape)
    nbytes = math.prod(shape_t) * dt.itemsize
    p = as_ptr(ptr, "ptr")
    if not is_device_address(p):
        raise InvalidMemoryTypeError(f"0x{p:x} is host memory, not device memory")
    return locate(p, nbytes, "ptr").view.view(dt).reshape(shape_t)


def numpy_to_ptr(arr: np.ndarray) -> int:
    """The address of a C-contiguous array's data, usable as a copy source/destination."""
    state = lookup.state()
    state.require_init()
    return state.host.register_array(arr, caller_site())


def bytes_to_ptr(data: bytes | bytearray) -> int:
    """The address of a bytes object's data (writable by D2H copies, as in pyACL)."""
    state = lookup.state()
    state.require_init()
    return state.host.register_bytes(data, caller_site())


def _host_view(ptr: Pointer, nbytes: int) -> np.ndarray:
    p = as_ptr(ptr, "ptr")
    if is_device_address(p):
        raise InvalidMemoryTypeError(f"0x{p:x} is device memory, which the host cannot read directly",
                                     hint="memcpy it to host memory first")
    return lookup.state().host.locate(p, nbytes)[1]


def ptr_to_numpy(ptr: int, shape: int | Sequence[int], dtype: Any) -> np.ndarray:
    """A NumPy array viewing host memory at ``ptr`` (no copy).  Device pointers are refused."""
    lookup.require_init()
    dt = np.dtype(dtype)
    shape_t = dims(shape)
    return _host_view(ptr, math.prod(shape_t) * dt.itemsize).view(dt).reshape(shape_t)


def ptr_to_bytes(ptr: int, size: int) -> bytes:
    """A copy of ``size`` bytes of host memory at ``ptr``."""
    lookup.require_init()
    return _host_view(ptr, check_int("size", size)).tobytes()
