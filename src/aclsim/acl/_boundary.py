"""The one place where runtime exceptions become pyACL return codes.

The runtime (:mod:`aclsim.runtime`) raises :class:`~aclsim.errors.AclError` subclasses,
each carrying its AscendCL code.  Every function of the pyACL face goes through
:func:`_guard`, which catches those, logs the message (logger ``"aclsim.acl"``, level
ERROR), keeps it for :func:`get_recent_err_msg`, and hands the code back in the shape of
the function:

* no OUT value -- ``ret`` (:func:`returns_code`);
* one OUT value -- ``(value, ret)`` (:func:`returns_value`);
* two OUT values -- ``(a, b, ret)`` (:func:`returns_values`, ``get_mem_info``);
* no ``ret`` at all, as C functions that return a handle, a size or nothing
  (``create_tensor_desc``, ``get_tensor_desc_size``, ``destroy_tensor_desc``) -- the value
  itself, and on failure C's null value (:func:`returns_plain`).

On failure the OUT values are placeholders fixed per function: ``None`` where the value
is a handle or a pointer (context, stream, event, device address, host address), so a
failed ``create_stream`` can never be mistaken for the default stream ``0``; ``0`` (or
``0.0``) where it is a number (count, device id, status, size, milliseconds, thread id).

A wrong number of arguments raises ``TypeError`` as pyACL does ("args parse failed").  Any
other exception escaping the runtime is a bug in aclsim; the face still does not raise: it
logs the traceback and returns ``ACL_ERROR_INTERNAL_ERROR`` (500000).  The pointer
utilities of ``acl.util`` have no ``ret``; they use :func:`raises`, which records the message
and re-raises, as pyACL's do.

Diagnostics of legal but suspicious calls (``aclsim.diagnostics()``, such as a copy kind
that does not match the pointers) are logged at WARNING on the same logger during a pyACL
call, instead of being issued as Python warnings: warning filters set to "error" must not
make the face raise.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from aclsim.errors import ACL_ERROR_INTERNAL_ERROR, ACL_SUCCESS, AclError
from aclsim.recent_errors import MAX_MESSAGES, record_error, take_recent_errors
from aclsim.runtime.copies import set_diagnostic_sink
from aclsim.runtime.memdebug import Diagnostic

__all__ = [
    "LOGGER", "get_recent_err_msg", "raises", "returns_code", "returns_plain", "returns_value",
    "returns_values",
]

LOGGER = logging.getLogger("aclsim.acl")
# A library must not print on its own: without this, logging's last-resort handler would
# write every failed call (routine ones too, like process_report timeouts) to stderr.
LOGGER.addHandler(logging.NullHandler())

_MAX_MESSAGES = MAX_MESSAGES  # messages kept per thread (the shared store's bound)

_P = ParamSpec("_P")
_T = TypeVar("_T")
_A = TypeVar("_A")
_B = TypeVar("_B")
_V = TypeVar("_V")
_W = TypeVar("_W")


def _record(api: str, exc: AclError) -> None:
    message = f"{api}: {exc}"
    LOGGER.error("%s", message)
    record_error(message)


def get_recent_err_msg() -> str | None:
    """Return and clear the messages of this thread's failed calls (``aclGetRecentErrMsg``).

    Returns
    -------
    str or None
        The messages, latest first, one a line; ``None`` when no call of this thread
        failed since the last call of this function.  The store is shared with the aclnn
        compat face (:mod:`aclsim.recent_errors`): its failed calls are reported here too,
        as ``aclGetRecentErrMsg`` reports runtime and operator errors on the device.

    Examples
    --------
    >>> import aclsim.acl as acl
    >>> acl.rt.set_device(0)  # before acl.init
    100001
    >>> acl.get_recent_err_msg().startswith("acl.rt.set_device: [ACL_ERROR_UNINITIALIZE 100001]")
    True
    >>> acl.get_recent_err_msg() is None
    True
    """
    return take_recent_errors()


def _api_name(fn: Callable[..., object]) -> str:
    module = fn.__module__.removeprefix("aclsim.")
    if module.startswith("acl._"):  # private modules hold the top-level calls (acl.init, ...)
        module = "acl"
    return f"{module}.{fn.__name__}"


class InternalError(AclError):
    """An exception aclsim did not expect (a bug): the face reports it as 500000."""

    default_code = ACL_ERROR_INTERNAL_ERROR


def _log_diagnostic(diag: Diagnostic) -> None:
    LOGGER.warning("%s", diag)


def _guard(api: str, fn: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T | AclError:
    """Call ``fn``; an :class:`AclError` is recorded and returned instead of raised, and so is
    any other exception, as an :class:`InternalError` (except a call that did not bind)."""
    previous = set_diagnostic_sink(_log_diagnostic)
    try:
        return fn(*args, **kwargs)
    except AclError as exc:
        _record(api, exc)
        return exc
    except Exception as exc:
        tb = exc.__traceback__
        if isinstance(exc, TypeError) and tb is not None and tb.tb_next is None:
            raise  # the call itself did not bind: wrong arguments, as pyACL's parser says
        LOGGER.exception("%s: unexpected %s (a bug in aclsim)", api, type(exc).__name__)
        error = InternalError(f"unexpected {type(exc).__name__}: {exc}",
                              hint="a bug in aclsim: please report it with this message")
        _record(api, error)
        return error
    finally:
        set_diagnostic_sink(previous)


def returns_code(fn: Callable[_P, object]) -> Callable[_P, int]:
    """Wrap a function without OUT values: it returns ``ret``."""
    api = _api_name(fn)

    @functools.wraps(fn)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> int:
        out = _guard(api, fn, *args, **kwargs)
        return out.code if isinstance(out, AclError) else ACL_SUCCESS

    return wrapper


def returns_value(placeholder: _V) -> Callable[[Callable[_P, _T]], Callable[_P, tuple[_T | _V, int]]]:
    """Wrap a function with one OUT value: it returns ``(value, ret)``, ``(placeholder, code)``
    on failure."""

    def decorate(fn: Callable[_P, _T]) -> Callable[_P, tuple[_T | _V, int]]:
        api = _api_name(fn)

        @functools.wraps(fn)
        def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> tuple[_T | _V, int]:
            out = _guard(api, fn, *args, **kwargs)
            if isinstance(out, AclError):
                return placeholder, out.code
            return out, ACL_SUCCESS

        return wrapper

    return decorate


def returns_values(first: _V, second: _W) -> Callable[[Callable[_P, tuple[_A, _B]]],
                                                       Callable[_P, tuple[_A | _V, _B | _W, int]]]:
    """Wrap a function with two OUT values: it returns ``(a, b, ret)``."""

    def decorate(fn: Callable[_P, tuple[_A, _B]]) -> Callable[_P, tuple[_A | _V, _B | _W, int]]:
        api = _api_name(fn)

        @functools.wraps(fn)
        def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> tuple[_A | _V, _B | _W, int]:
            out = _guard(api, fn, *args, **kwargs)
            if isinstance(out, AclError):
                return first, second, out.code
            return out[0], out[1], ACL_SUCCESS

        return wrapper

    return decorate


def returns_plain(placeholder: _V) -> Callable[[Callable[_P, _T]], Callable[_P, _T | _V]]:
    """Wrap a function whose C form has no status (it returns a handle, a number, or is
    ``void``): it returns the value, and on failure ``placeholder`` -- what the C function
    returns then (0 for a null handle or a size, -1 for an undefined enum, ``None`` for a
    ``void`` function); the message is kept for :func:`get_recent_err_msg`."""

    def decorate(fn: Callable[_P, _T]) -> Callable[_P, _T | _V]:
        api = _api_name(fn)

        @functools.wraps(fn)
        def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _T | _V:
            out = _guard(api, fn, *args, **kwargs)
            return placeholder if isinstance(out, AclError) else out

        return wrapper

    return decorate


def raises(fn: Callable[_P, _T]) -> Callable[_P, _T]:
    """Wrap a function that has no ``ret`` (``acl.util`` pointer helpers): an
    :class:`AclError` is recorded like everywhere else, then re-raised."""
    api = _api_name(fn)

    @functools.wraps(fn)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        try:
            return fn(*args, **kwargs)
        except AclError as exc:
            _record(api, exc)
            raise

    return wrapper
