"""Calls that come from native code (the C face, :mod:`aclsim.capi`).

A C program's call crosses into Python through a generated wrapper; for the time of the
call the C face marks the calling thread with a :class:`ForeignCall` (:func:`enter` /
:func:`leave`).  The runtime asks this module two things:

- where the user called from: :func:`aclsim.runtime._state.caller_site` returns the C
  caller (resolved lazily by the resolver the C face installs, :func:`set_site_resolver`:
  function, and ``file:line`` where debug information has it) instead of a Python frame,
  so allocation sites, leak reports and use-after-free messages name the C code;
- whether any process address is host memory (:func:`raw_host_memory`): a C program's
  ``malloc``'d, stack or static memory is used in place with no registration, as on the
  device, while ``aclrtMallocHost`` memory keeps its checks (:class:`~aclsim.runtime.hostmem.HostMemory`).

Python callers never see a mark: ``current()`` is ``None`` outside a C call.

>>> call = ForeignCall("aclrtMalloc", 0x401234)
>>> previous = enter(call); current() is call, raw_host_memory()
(True, True)
>>> leave(previous); current() is None, raw_host_memory()
(True, False)
"""

from __future__ import annotations

import threading
from collections.abc import Callable

__all__ = ["ForeignCall", "current", "enter", "leave", "raw_host_memory", "set_site_resolver", "site_of",
           "thread_marks"]

_tls = threading.local()
_resolver: Callable[[int], str] | None = None


class ForeignCall:
    """One call from native code: the C function's name and the caller's return address."""

    __slots__ = ("name", "caller", "_site")

    def __init__(self, name: str, caller: int) -> None:
        self.name = name
        self.caller = caller
        self._site: str | None = None

    @property
    def site(self) -> str:
        """The caller, resolved on first use (``main (prog.c:42)``, ``prog+0x1234``)."""
        if self._site is None:
            self._site = site_of(self.caller)
        return self._site

    def __repr__(self) -> str:
        return f"<ForeignCall {self.name} from 0x{self.caller:x}>"


def set_site_resolver(resolver: Callable[[int], str] | None) -> None:
    """Install the function that names a native return address (the C face does, at start)."""
    global _resolver
    _resolver = resolver


def site_of(address: int) -> str:
    """The name of a native return address, ``0x...`` when no resolver is installed."""
    resolver = _resolver
    return resolver(address) if resolver is not None else f"0x{address:x}"


def current() -> ForeignCall | None:
    """The native call the calling thread is in, or ``None``."""
    call = getattr(_tls, "call", None)
    if call is None or isinstance(call, ForeignCall):
        return call
    call = _tls.call = ForeignCall(*call)  # marked by the fast path: made on first use
    return call


def enter(call: ForeignCall | tuple[str, int]) -> object:
    """Mark the calling thread as inside ``call`` (a :class:`ForeignCall`, or ``(name,
    caller)``, the entry points' cheaper form); returns the previous mark for :func:`leave`."""
    previous = getattr(_tls, "call", None)
    _tls.call = call
    return previous


def leave(previous: object) -> None:
    """Restore the mark :func:`enter` returned."""
    _tls.call = previous


def thread_marks() -> threading.local:
    """The thread-local object whose ``call`` attribute is the mark, for entry points that set
    it inline (``(name, caller)`` or ``None``; what :func:`enter` and :func:`leave` do)."""
    return _tls


def raw_host_memory() -> bool:
    """Whether any process address counts as host memory for the current call (C callers)."""
    return getattr(_tls, "call", None) is not None
