"""Copies and memsets (``aclrtMemcpy[Async]``, ``aclrtMemset[Async]``) and the diagnostics
of legal but suspicious calls.

As AscendCL documents, a copy's ``kind`` is reserved: the pointers decide the direction.  A
kind that says otherwise still copies and is reported (:func:`report_diagnostic`); strict
mode refuses it.  The kinds the calls take are 0-5, those the open CANN runtime translates
(``hicann/runtime``, ``src/acl/aclrt_impl/memory.cpp``).  Copies and memsets of 0 bytes
succeed at once without looking at anything, as there.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from aclsim.errors import DiagnosticWarning, InvalidMemoryTypeError, InvalidParamError, MemcpyKindWarning
from aclsim.runtime import lookup
from aclsim.runtime._state import caller_site, check_int
from aclsim.runtime.enums import MemcpyKind
from aclsim.runtime.lookup import current_device_or_first, stream_or_default
from aclsim.runtime.memdebug import Diagnostic
from aclsim.runtime.pointers import Located, Pointer, as_ptr, buffers_of, locate, pinned_regions_of
from aclsim.runtime.stream import CopyTask, FillTask, Stream

__all__ = ["memcpy", "memcpy_async", "memset", "memset_async", "report_diagnostic", "set_diagnostic_sink"]

_KIND_SIDES = {  # the kinds aclrtMemcpy[Async] takes -> (src on device, dst on device); None = either
    MemcpyKind.HOST_TO_HOST: (False, False),
    MemcpyKind.HOST_TO_DEVICE: (False, True),
    MemcpyKind.DEVICE_TO_HOST: (True, False),
    MemcpyKind.DEVICE_TO_DEVICE: (True, True),
    MemcpyKind.DEFAULT: None,
    MemcpyKind.HOST_TO_BUF_TO_DEVICE: (False, True),
}
_SIDE_NAMES = {(False, False): "host to host", (False, True): "host to device",
               (True, False): "device to host", (True, True): "device to device"}


def _side(on_device: bool) -> str:
    return "device" if on_device else "host"


def _copy_kind(kind: object) -> MemcpyKind:
    """The kind of ``aclrtMemcpy[Async]``: 0-5.  The open CANN runtime translates exactly these
    (INNER/INTER_DEVICE_TO_DEVICE belong to other copy calls) and refuses the rest (100000)."""
    if isinstance(kind, (int, np.integer)) and not isinstance(kind, bool):
        with contextlib.suppress(ValueError):
            member = MemcpyKind(int(kind))
            if member in _KIND_SIDES:
                return member
    raise InvalidParamError(f"memcpy kind {kind!r} is not one aclrtMemcpy takes",
                            hint="pass ACL_MEMCPY_HOST_TO_HOST (0), HOST_TO_DEVICE (1), DEVICE_TO_HOST (2), "
                            "DEVICE_TO_DEVICE (3), DEFAULT (4) or HOST_TO_BUF_TO_DEVICE (5); the direction "
                            "comes from the pointers")


def _check_kind(kind: MemcpyKind, sides: tuple[bool, bool], sptr: int, dptr: int) -> None:
    """AscendCL's kind is reserved: the pointers decide the direction.  A kind that says
    otherwise is reported as a diagnostic (an error in strict mode, 107016)."""
    expected = _KIND_SIDES[kind]
    if expected is None or expected == sides:
        return
    message = (f"memcpy kind {kind.name} does not match the pointers: src 0x{sptr:x} is "
               f"{_side(sides[0])} memory and dst 0x{dptr:x} is {_side(sides[1])} memory, so the copy "
               f"runs {_SIDE_NAMES[sides]}")
    hint = "pass the kind that matches the pointers, or ACL_MEMCPY_DEFAULT"
    if lookup.state().require_init().strict:
        raise InvalidMemoryTypeError(f"{message} (refused in strict mode)", hint=hint)
    report_diagnostic("memcpy_kind", f"{message}; {hint}", MemcpyKindWarning)


_warning_registry: dict[Any, Any] = {}


def set_diagnostic_sink(sink: Callable[[Diagnostic], None] | None) -> Callable[[Diagnostic], None] | None:
    """Send this thread's diagnostics to ``sink`` instead of issuing warnings (None: warnings
    again); returns the previous sink.  The pyACL face logs them, so that warning filters set
    to "error" cannot make it raise."""
    tls = lookup.state().tls
    previous: Callable[[Diagnostic], None] | None = getattr(tls, "diagnostic_sink", None)
    tls.diagnostic_sink = sink
    return previous


def report_diagnostic(kind: str, message: str, category: type[Warning] = DiagnosticWarning) -> Diagnostic:
    """Record a legal but suspicious use with the caller's line (:func:`aclsim.diagnostics`)
    and tell the user: a warning of ``category`` attributed to that line, or, inside a pyACL
    call (which never raises, whatever the warning filters say), the face's log."""
    state = lookup.state()
    site = caller_site()
    diag = Diagnostic(kind, message, site)
    state.diagnostics.append(diag)
    sink = getattr(state.tls, "diagnostic_sink", None)
    if sink is not None:
        sink(diag)
        return diag
    filename, _, line = site.rpartition(":")
    warnings.warn_explicit(message, category, filename or site, int(line) if line.isdigit() else 0,
                           registry=_warning_registry)
    return diag


def _nothing_to_copy(max_count: object, count: object, what: str) -> bool:
    """AscendCL's copies and memsets of 0 bytes succeed at once without looking at their
    pointers, kind or stream (the open runtime returns before any check)."""
    lookup.require_init()
    check_int(what, max_count)
    return check_int("count", count) == 0


def _plan_copy(dst: Pointer, dest_max: int, src: Pointer, count: int, kind: int) -> tuple[
        Located, Located, float, str]:
    dest_max = check_int("dest_max", dest_max)
    count = check_int("count", count)
    mkind = _copy_kind(kind)
    if count > dest_max:
        raise InvalidParamError(f"count {count} B is larger than dest_max {dest_max} B",
                                hint="copy at most dest_max bytes, or pass the destination's real size")
    dptr, sptr = as_ptr(dst, "dst"), as_ptr(src, "src")
    d, s = locate(dptr, count, "dst"), locate(sptr, count, "src")
    _check_kind(mkind, (s.on_device, d.on_device), sptr, dptr)
    chip = (d.device or s.device or current_device_or_first()).chip
    if s.on_device and d.on_device:
        seconds, label = chip.device_copy_seconds(count), "D2D"
    elif s.on_device or d.on_device:
        seconds, label = chip.host_copy_seconds(count), "H2D" if d.on_device else "D2H"
    else:
        seconds, label = chip.host_copy_seconds(count), "H2H"
    return d, s, seconds, label


def memcpy(dst: Pointer, dest_max: int, src: Pointer, count: int, kind: int) -> None:
    """Copy now, on the calling thread (``aclrtMemcpy``): no stream or device sync.

    The direction is where the pointers are; ``kind`` is checked against them as a
    diagnostic only (:func:`diagnostics`; refused with 107016 in strict mode).  A copy of 0
    bytes does nothing and succeeds.
    """
    if _nothing_to_copy(dest_max, count, "dest_max"):
        return
    d, s, _, _ = _plan_copy(dst, dest_max, src, count, kind)
    np.copyto(d.view, s.view)


def memcpy_async(dst: Pointer, dest_max: int, src: Pointer, count: int, kind: int,
                 stream: Stream | None = None) -> None:
    """Queue a copy on ``stream`` (``aclrtMemcpyAsync``); it advances the stream clock by the
    modeled transfer time (host link for H2D/D2H, device memory for D2D).  A copy of 0 bytes
    queues nothing."""
    if _nothing_to_copy(dest_max, count, "dest_max"):
        return
    d, s, seconds, label = _plan_copy(dst, dest_max, src, count, kind)
    st = stream_or_default(stream)
    st.submit(CopyTask(f"memcpy_async({label} {count} B)", caller_site(), d.view, s.view, seconds,
                       buffers_of(d, s), (d.keep, s.keep), pinned_regions_of(d, s)))


def _plan_fill(ptr: Pointer, max_count: int, value: int, count: int) -> tuple[Located, int, float]:
    max_count = check_int("max_count", max_count)
    count = check_int("count", count)
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        raise InvalidParamError(f"value must be an int, got {type(value).__name__}")
    if count > max_count:
        raise InvalidParamError(f"count {count} B is larger than max_count {max_count} B")
    loc = locate(as_ptr(ptr, "ptr"), count, "ptr")
    chip = (loc.device or current_device_or_first()).chip
    return loc, int(value) & 0xFF, chip.device_fill_seconds(count)


def memset(ptr: Pointer, max_count: int, value: int, count: int) -> None:
    """Set ``count`` bytes to ``value & 0xFF`` now (``aclrtMemset``); 0 bytes do nothing."""
    if _nothing_to_copy(max_count, count, "max_count"):
        return
    loc, byte, _ = _plan_fill(ptr, max_count, value, count)
    loc.view.fill(byte)


def memset_async(ptr: Pointer, max_count: int, value: int, count: int, stream: Stream | None = None) -> None:
    """Queue a memset on ``stream`` (``aclrtMemsetAsync``); 0 bytes queue nothing."""
    if _nothing_to_copy(max_count, count, "max_count"):
        return
    loc, byte, seconds = _plan_fill(ptr, max_count, value, count)
    st = stream_or_default(stream)
    st.submit(FillTask(f"memset_async({count} B)", caller_site(), loc.view, byte, seconds,
                       buffers_of(loc), (loc.keep,), pinned_regions_of(loc)))
