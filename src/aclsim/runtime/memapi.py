"""The Pythonic API of the memory pool, the memory debugger and zero-copy host memory.

PyTorch's names where PyTorch has the call (``memory_stats``, ``empty_cache``,
``reset_peak_memory_stats``, ``memory_snapshot``, ``record_memory_history``), AscendCL's
where AscendCL has it (``host_register`` is ``aclrtHostRegister``).  ``device=None`` is the
current context's device.  ``docs/memory.md`` describes every statistic and option.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from aclsim.errors import InvalidMemoryTypeError, InvalidParamError
from aclsim.runtime import lookup
from aclsim.runtime._state import caller_site, check_int, parse_size
from aclsim.runtime.device import Device
from aclsim.runtime.lookup import current_context, device_by_id
from aclsim.runtime.memdebug import Diagnostic, dump_snapshot, plot_usage, snapshot, trace_entries
from aclsim.runtime.memory import DeviceMemory, device_of_address, is_device_address
from aclsim.runtime.pointers import Pointer, as_ptr, check_access
from aclsim.runtime.pool import CachingPool

__all__ = [
    "HostMappedRange",
    "check_access",
    "diagnostics",
    "dump_memory_snapshot",
    "empty_cache",
    "empty_host_cache",
    "host_mapped_ranges",
    "host_memory_stats",
    "host_register",
    "host_unregister",
    "is_host_mapped",
    "max_memory_allocated",
    "max_memory_reserved",
    "memory_allocated",
    "memory_history",
    "memory_reserved",
    "memory_snapshot",
    "memory_stats",
    "plot_memory_usage",
    "record_memory_history",
    "reset_accumulated_memory_stats",
    "reset_peak_memory_stats",
    "set_memory_limit",
]


def _memory(device: int | None) -> DeviceMemory:
    dev: Device = current_context().device if device is None else device_by_id(device)
    with dev.state.lock:
        return dev.ensure_memory()


def _pool(memory: DeviceMemory) -> CachingPool:
    if memory.pool is None:
        raise InvalidParamError(f"npu:{memory.device_id} does not use the caching pool",
                                hint="the statistics and the debugger need aclsim.runtime.pool.CachingPool")
    return memory.pool


# --- statistics and cache control ------------------------------------------------------

def memory_stats(device: int | None = None) -> dict[str, Any]:
    """The pool's statistics: a superset of ``torch.cuda.memory_stats()``.

    Keys ``<family>.<pool>.<metric>`` for the families ``allocation``, ``allocated_bytes``,
    ``requested_bytes``, ``active``, ``active_bytes``, ``inactive_split``,
    ``inactive_split_bytes``, ``segment``, ``reserved_bytes``, pools ``all``/``small_pool``/
    ``large_pool`` and metrics ``current``/``peak``/``allocated``/``freed``; PyTorch's counters
    (``num_alloc_retries``, ``num_ooms``, ``num_device_alloc``, ...); and ``hit_rate``,
    ``fragmentation`` (1 - largest free block / free bytes), ``free_bytes``,
    ``largest_free_bytes``, ``limit_bytes`` and a few more (``docs/memory.md``).

    >>> import aclsim
    >>> aclsim.init(chip="tiny"); aclsim.set_device(0)
    >>> aclsim.free(aclsim.malloc(1000)); aclsim.free(aclsim.malloc(1000))
    >>> s = aclsim.memory_stats(); s["allocation.all.allocated"], s["hit_rate"]
    (2, 0.5)
    >>> aclsim.reset_device(0); _ = aclsim.finalize()
    """
    memory = _memory(device)
    return memory.call_stats(lambda holder: holder.memory_stats()) or {}


def memory_allocated(device: int | None = None) -> int:
    """Bytes in allocated blocks now (``allocated_bytes.all.current``)."""
    return int(memory_stats(device)["allocated_bytes.all.current"])


def max_memory_allocated(device: int | None = None) -> int:
    return int(memory_stats(device)["allocated_bytes.all.peak"])


def memory_reserved(device: int | None = None) -> int:
    """Bytes the pool holds from the device (``reserved_bytes.all.current``)."""
    return int(memory_stats(device)["reserved_bytes.all.current"])


def max_memory_reserved(device: int | None = None) -> int:
    return int(memory_stats(device)["reserved_bytes.all.peak"])


def empty_cache(device: int | None = None) -> int:
    """Give every cached (free) block back to the device, after waiting for the streams whose
    queued work may still use them.  Returns the bytes given back.

    >>> import aclsim
    >>> aclsim.init(chip="tiny"); aclsim.set_device(0)
    >>> aclsim.free(aclsim.malloc(1000)); aclsim.memory_reserved()
    2097152
    >>> aclsim.empty_cache(), aclsim.memory_reserved()
    (2097152, 0)
    >>> aclsim.reset_device(0); _ = aclsim.finalize()
    """
    memory = _memory(device)
    return int(memory.call_pool(lambda pool: pool.empty_cache()) or 0)


def reset_peak_memory_stats(device: int | None = None) -> None:
    """Make every ``*.peak`` statistic restart from its current value."""
    _memory(device).call_stats(lambda holder: holder.reset_peak_stats())


def reset_accumulated_memory_stats(device: int | None = None) -> None:
    """Restart the cumulative statistics (``*.allocated``, ``*.freed``, ``num_*``)."""
    _memory(device).call_stats(lambda holder: holder.reset_accumulated_stats())


def set_memory_limit(limit: int | str | None = None, device: int | None = None, *,
                     fraction: float | None = None) -> int:
    """Cap the bytes the pool may reserve on the device: ``limit`` bytes (``"512MiB"``
    works), or ``fraction`` of the device memory; ``None`` for both removes the cap.
    Cached memory above the cap is given back at once.  Returns the limit in force.

    An allocation that would take reserved memory above the cap first gets cached memory
    back, then fails with :class:`~aclsim.errors.OutOfMemoryError` (207001).

    >>> import aclsim
    >>> aclsim.init(chip="tiny"); aclsim.set_device(0)
    >>> aclsim.set_memory_limit("4MiB"), aclsim.get_mem_info()
    (4194304, (4194304, 67108864))
    >>> try:
    ...     aclsim.malloc(5 << 20)
    ... except aclsim.errors.OutOfMemoryError as exc:
    ...     print(exc.code, exc.limit)
    207001 4194304
    >>> aclsim.reset_device(0); _ = aclsim.finalize()
    """
    memory = _memory(device)
    pool = _pool(memory)
    if limit is not None and fraction is not None:
        raise InvalidParamError("give limit or fraction, not both")
    nbytes: int | None
    if fraction is not None:
        if not 0 < fraction <= 1:
            raise InvalidParamError(f"fraction must be in (0, 1], got {fraction}")
        nbytes = max(int(pool.capacity * fraction), 1)
    elif limit is None:
        nbytes = None
    else:
        try:
            nbytes = parse_size(limit)
        except ValueError as exc:
            raise InvalidParamError(str(exc)) from None
    memory.call_pool(lambda p: p.set_limit(nbytes))
    return pool.limit


# --- the debugger ------------------------------------------------------------------------

def _memories(device: int | None, *, all_devices: bool) -> list[DeviceMemory | None]:
    """Indexed by device id; devices left out (or not opened) are None."""
    state = lookup.state()
    state.require_init()
    if all_devices and device is None:
        return [d.memory for d in state.devices]
    memory = _memory(device)
    out: list[DeviceMemory | None] = [None] * len(state.devices)
    out[memory.device_id] = memory
    return out


def record_memory_history(enabled: bool = True, *, stacks: bool = False, max_entries: int = 100_000,
                          device: int | None = None) -> None:
    """Record allocator events in a ring buffer of ``max_entries`` per device (all open
    devices, and those opened later, when ``device`` is None): alloc, free_requested,
    free_completed, segment_alloc/free, segment_map/unmap, oom; ``stacks`` adds the Python
    frames of each event.  ``enabled=False`` stops recording (the events are dropped).

    >>> import aclsim
    >>> aclsim.init(chip="tiny"); aclsim.set_device(0)
    >>> aclsim.record_memory_history()
    >>> aclsim.free(aclsim.malloc(100))
    >>> [e["action"] for e in aclsim.memory_history()]
    ['segment_map', 'alloc', 'free_requested', 'free_completed']
    >>> snap = aclsim.memory_snapshot(); sorted(snap)[:2], snap["segments"][0]["segment_type"]
    (['allocator_settings', 'device_traces'], 'small')
    >>> aclsim.reset_device(0); _ = aclsim.finalize()
    """
    state = lookup.state()
    max_entries = check_int("max_entries", max_entries, minimum=1)
    if device is None:
        state.require_init()
        state.memory_history = (enabled, stacks, max_entries) if enabled else None
    for memory in _memories(device, all_devices=True):
        if memory is not None and memory.pool is not None:
            memory.call_pool(lambda pool: pool.record_history(enabled, stacks=stacks,
                                                              max_entries=max_entries))


def memory_history(device: int | None = None) -> list[dict[str, Any]]:
    """The recorded events of a device (the current one by default) as PyTorch
    ``TraceEntry`` dictionaries, oldest first."""
    memory = _memory(device)
    pool = memory.pool
    if pool is None:
        return []
    with memory._lock:
        return trace_entries(memory, pool)


def memory_snapshot(device: int | None = None) -> dict[str, Any]:
    """The allocator state (and history) in the layout of ``torch.cuda.memory._snapshot()``:
    ``{"segments": [...], "device_traces": [[...], ...]}``, ``device_traces`` indexed by
    device id.  With ``device=None`` every device is included; otherwise that device only
    (the other devices' traces are empty).
    Dump it with :func:`dump_memory_snapshot` and open it at https://pytorch.org/memory_viz.
    """
    memories = _memories(device, all_devices=device is None)
    return snapshot(memories)


def dump_memory_snapshot(path: str | os.PathLike[str], device: int | None = None) -> None:
    """Write :func:`memory_snapshot` pickled, as ``torch.cuda.memory._dump_snapshot``."""
    dump_snapshot(memory_snapshot(device), path)


def plot_memory_usage(path: str | os.PathLike[str], device: int | None = None) -> None:
    """A PNG of allocated and reserved bytes over the recorded history (needs matplotlib:
    ``pip install 'aclsim[plot]'``, and :func:`record_memory_history` on)."""
    memory = _memory(device)
    pool = _pool(memory)
    if not pool.history_enabled:
        raise InvalidParamError("no memory history is being recorded",
                                hint="call aclsim.record_memory_history() before the code to plot")
    with memory._lock:
        plot_usage(pool, path, title=f"npu:{memory.device_id} memory")


def diagnostics(*, clear: bool = False) -> list[Diagnostic]:
    """The legal but suspicious uses the runtime noticed since ``init``, oldest first (the
    last 1000), each with its ``kind``, ``message`` and ``site`` (the ``file:line`` of the
    call).  ``clear=True`` also forgets them.  They stay readable after ``finalize``.

    Today: ``"memcpy_kind"``, a copy whose kind does not match where its pointers are (the
    copy runs in the direction of the pointers, as AscendCL's reserved kind says; strict mode,
    ``ACLSIM_STRICT=1`` or ``init(strict=True)``, refuses it with 107016 instead).

    >>> import numpy as np, aclsim, warnings
    >>> aclsim.init(chip="tiny"); aclsim.set_device(0)
    >>> a, b = np.zeros(4, np.uint8), np.ones(4, np.uint8)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     aclsim.memcpy(a, 4, b, 4, aclsim.MemcpyKind.DEVICE_TO_HOST)
    >>> [d.kind for d in aclsim.diagnostics(clear=True)], a.tolist()
    (['memcpy_kind'], [1, 1, 1, 1])
    >>> aclsim.reset_device(0); _ = aclsim.finalize()
    """
    state = lookup.state()
    found = list(state.diagnostics)
    if clear:
        state.diagnostics.clear()
    return found


# --- host memory: the pinned pool and zero-copy -------------------------------------------

@dataclass(frozen=True)
class HostMappedRange:
    """A device address range whose accesses reach host memory (``host_register``)."""

    device: int
    ptr: int
    nbytes: int
    host_ptr: int


def host_register(ptr: Pointer, size: int, device: int | None = None) -> int:
    """Map host memory for the device (``aclrtHostRegister`` with
    ``ACL_HOST_REGISTER_MAPPED``): returns the device address at which copies and kernels
    reach those host bytes directly (zero-copy).  The memory must be known host memory
    (``malloc_host``, ``numpy_to_ptr``, ``bytes_to_ptr``), kept alive and registered once;
    :func:`host_unregister` undoes it.  The core model charges accesses to the host link.

    >>> import numpy as np, aclsim
    >>> aclsim.init(chip="tiny"); aclsim.set_device(0)
    >>> host = aclsim.malloc_host(4096)
    >>> dev = aclsim.host_register(host, 4096)
    >>> aclsim.memset(dev, 4096, 7, 4096); aclsim.ptr_to_bytes(host, 2)
    b'\\x07\\x07'
    >>> aclsim.is_host_mapped(dev)
    True
    >>> aclsim.host_unregister(host); aclsim.free_host(host); aclsim.reset_device(0); _ = aclsim.finalize()
    """
    state = lookup.state()
    state.require_init()
    size = check_int("size", size, minimum=1)
    host_ptr = as_ptr(ptr, "ptr")
    if is_device_address(host_ptr):
        raise InvalidMemoryTypeError(f"0x{host_ptr:x} is device memory", hint="register host memory")
    region, view, owner = state.host.locate(host_ptr, size)
    memory = _memory(device)
    mapping = memory.map_host(host_ptr, size, view, (region, owner), caller_site())
    return mapping.ptr


def host_unregister(ptr: Pointer, device: int | None = None) -> None:
    """Undo :func:`host_register` of the host pointer ``ptr``."""
    lookup.require_init()
    host_ptr = as_ptr(ptr, "ptr")
    memory = _memory(device)
    if memory.unmap_host(host_ptr) is None:
        raise InvalidParamError(f"host 0x{host_ptr:x} is not registered for npu:{memory.device_id}",
                                hint="pass the host pointer given to host_register")


def host_mapped_ranges(device: int | None = None) -> list[HostMappedRange]:
    """The device address ranges that are host memory (zero-copy), lowest first: the core
    model uses this to charge their accesses to the host link instead of device memory."""
    memory = _memory(device)
    return [HostMappedRange(m.device, m.ptr, m.nbytes, m.host_ptr) for m in memory.host_mappings()]


def is_host_mapped(ptr: Pointer, nbytes: int = 1) -> bool:
    """True when ``[ptr, ptr + nbytes)`` is host memory registered for its device."""
    state = lookup.state()
    state.require_init()
    p = as_ptr(ptr, "ptr")
    if not is_device_address(p):
        return False
    did = device_of_address(p)
    if did >= len(state.devices) or state.devices[did].memory is None:
        return False
    return state.devices[did].memory.is_host_mapped(p, nbytes)  # type: ignore[union-attr]


def host_memory_stats() -> dict[str, Any]:
    """Statistics of the pinned host pool behind ``malloc_host`` (``docs/memory.md``)."""
    state = lookup.state()
    state.require_init()
    with state.host._lock:
        return state.host.pinned.stats()


def empty_host_cache() -> int:
    """Drop cached pinned host buffers whose copies are done; returns the bytes dropped."""
    state = lookup.state()
    state.require_init()
    with state.host._lock:
        return state.host.pinned.empty_cache()
