"""The Python side of ``libascendcl.so``: run once, when the library starts, by its init code.

:func:`install` binds every prototype's embedded entry point to its implementation, and
installs the hooks that let the runtime name C callers.  Each entry point marks the calling
thread as inside a C call for the time of the call (:mod:`aclsim.runtime.foreign`: C
callers' sites, any process address usable as host memory) and turns an
:class:`~aclsim.errors.AclError` raised by the implementation itself into its code and a
message for ``aclGetRecentErrMsg``; the pyACL functions it forwards to do the same for theirs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aclsim.capi import impl_desc, impl_nn, impl_op, impl_rt  # noqa: F401  (they register the implementations)
from aclsim.capi.build import START_MAGIC
from aclsim.capi.cdata import IMPLS, set_ffi
from aclsim.capi.prototypes import Prototype, load
from aclsim.capi.site import describe
from aclsim.errors import AclError
from aclsim.recent_errors import record_error, set_message_decorator
from aclsim.runtime import foreign

__all__ = ["decorate_message", "entry_point", "install", "missing_implementations"]


def missing_implementations() -> list[str]:
    """Prototypes without a Python implementation (none, in a correct build)."""
    return [p.name for p in load() if p.name not in IMPLS]


def decorate_message(message: str) -> str:
    """Inside a C call, a recorded message names the C function and its caller instead of the
    pyACL function: ``aclrtFree (called from main (prog.c:42)): ...``."""
    call = foreign.current()
    if call is None:
        return message
    _, sep, rest = message.partition(": ")
    return f"{call.name} (called from {call.site}): {rest if sep else message}"


def entry_point(proto: Prototype, impl: Callable[..., Any], null: Any) -> Callable[..., Any]:
    """The Python function behind ``_aclsim_py_<name>``; ``null``: the library's NULL."""
    name = proto.name
    name_is_status = proto.ret in ("aclError", "aclnnStatus")
    failure = null if proto.ret_transport.endswith("*") else proto.failure
    marks = foreign.thread_marks()  # foreign.enter/leave, inline: this runs on every C call

    def entry(caller: int, *args: Any) -> Any:
        previous = getattr(marks, "call", None)
        marks.call = (name, caller)
        try:
            return impl(*args)
        except AclError as exc:
            record_error(f"{name}: {exc}")
            return exc.code if name_is_status else failure
        finally:
            marks.call = previous

    entry.__name__ = f"c_{name}"
    return entry


def install(ffi: Any) -> None:
    """Bind the library's entry points (called by the library's init code)."""
    missing = missing_implementations()
    if missing:
        raise RuntimeError(f"the C face has prototypes without implementation: {', '.join(missing)}")
    set_ffi(ffi)
    for proto in load():
        error = proto.failure
        kwargs = {} if error is None or proto.ret_transport.endswith("*") else {"error": error}
        entry = entry_point(proto, IMPLS[proto.name], ffi.NULL)
        ffi.def_extern(name=f"_aclsim_py_{proto.name}", **kwargs)(entry)

    @ffi.def_extern(name="_aclsim_py_start")
    def _start() -> int:
        return START_MAGIC

    foreign.set_site_resolver(describe)
    set_message_decorator(decorate_message)
