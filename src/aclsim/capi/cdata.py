"""What the Python implementations of the C face share: the registry of implementations,
the library's ``ffi``, and the conversions of C arguments (pointers, OUT parameters).

An implementation is a function named as the C function, registered with
:func:`c_function`; it receives the C arguments as they cross (:mod:`aclsim.capi.prototypes`:
handles and addresses as ints, OUT parameters and arrays as cffi pointers, strings as
``char *``) and returns the C return value (an int for a handle or an address).  It forwards to the
pyACL face (:mod:`aclsim.acl`), whose functions use the same runtime objects and already
turn errors into ACL codes and messages; an :class:`~aclsim.errors.AclError` raised here
(a null OUT pointer, ...) is turned into its code by the entry point
(:mod:`aclsim.capi.embedded`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from aclsim.errors import ACL_SUCCESS, InvalidParamError

__all__ = ["IMPLS", "array", "c_function", "ffi", "handle", "need_out", "set_ffi", "store", "string", "text"]

_F = TypeVar("_F", bound=Callable[..., Any])

#: C function name -> its Python implementation
IMPLS: dict[str, Callable[..., Any]] = {}


class _Ffi:
    """The library's ``cffi.FFI``, set by :func:`set_ffi` when the library starts (tests may set
    any ``cffi.FFI()``: cffi's primitive types are shared by all instances)."""

    __slots__ = ("ffi",)

    def __init__(self) -> None:
        self.ffi: Any = None


_STATE = _Ffi()


def set_ffi(value: Any) -> None:
    _STATE.ffi = value


def ffi() -> Any:
    """The ``cffi.FFI`` of the running library."""
    if _STATE.ffi is None:
        import cffi

        _STATE.ffi = cffi.FFI()
    return _STATE.ffi


def c_function(fn: _F) -> _F:
    """Register ``fn`` as the implementation of the C function of its name."""
    if fn.__name__ in IMPLS:
        raise ValueError(f"{fn.__name__} is implemented twice")
    IMPLS[fn.__name__] = fn
    return fn


def handle(value: int | None) -> Any:
    """An int handle or address as a C ``void *`` (``None`` and 0 are NULL)."""
    return ffi().cast("void *", value or 0)


def text(ptr: Any) -> str | None:
    """A C string (``None`` for NULL)."""
    f = ffi()
    return None if ptr == f.NULL else f.string(ptr).decode("utf-8", "surrogateescape")


def string(ptr: Any, name: str) -> str:
    """A required C string; NULL is refused (100000) naming the parameter."""
    value = text(ptr)
    if value is None:
        raise InvalidParamError(f"{name} is a null pointer", hint=f"pass {name} as a C string")
    return value


def need_out(ptr: Any, name: str) -> None:
    """Refuse a NULL OUT parameter before anything happens (the call then changes nothing)."""
    if not ptr:  # a NULL cdata pointer is false
        raise InvalidParamError(f"{name} is a null pointer: the OUT parameter needs an address to write to",
                                hint=f"pass the address of a variable, e.g. &{name}")


def store(ptr: Any, value: object, ret: int, *, pointer: bool = False) -> int:
    """Write ``value`` through the OUT parameter ``ptr`` when ``ret`` is success; returns ``ret``.
    ``pointer``: the value is a handle or an address (an int, or ``None`` for NULL)."""
    if ret == ACL_SUCCESS:
        ptr[0] = handle(value) if pointer else value  # type: ignore[arg-type]
    return ret


def array(ptr: Any, count: int, name: str, *, ctype: str = "uintptr_t") -> list[Any]:
    """The ``count`` items of a C array (handles: as ints); refuses a negative count and a NULL
    array with items."""
    if count < 0:
        raise InvalidParamError(f"the count of {name} is {count}, negative")
    if count == 0:
        return []
    if not ptr:
        raise InvalidParamError(f"{name} is a null pointer with {count} item(s)",
                                hint=f"pass an array of {count} item(s)")
    if ctype == "char *":
        return [text(ptr[i]) for i in range(count)]
    return list(ffi().unpack(ffi().cast(f"{ctype} *", ptr), count))
