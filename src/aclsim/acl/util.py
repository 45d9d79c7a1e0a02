"""``acl.util``: host pointers of NumPy arrays and bytes, and callback threads.

The pointer helpers have no ``ret`` in pyACL; like pyACL they raise on bad arguments
(here an :class:`~aclsim.errors.AclError` subclass -- ``InvalidParamError`` and
``InvalidMemoryTypeError`` are also ``ValueError`` -- or ``TypeError`` for an object of
the wrong kind).  The message is recorded for ``acl.get_recent_err_msg`` all the same.
``start_thread`` and ``stop_thread`` follow the ``(value, ret)`` / ``ret`` convention.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from aclsim.acl._boundary import raises, returns_code, returns_value
from aclsim.acl._convert import as_int
from aclsim.errors import InvalidParamError
from aclsim.runtime import api as _rt

__all__ = ["bytes_to_ptr", "numpy_to_ptr", "ptr_to_bytes", "ptr_to_numpy", "start_thread", "stop_thread"]

#: NumPy type number (``NPY_FLOAT`` = 11, ...) -> dtype, built from NumPy itself so that
#: ``NPY_LONG`` (7) is C ``long`` whatever its size on this platform.
NPY_TYPES: dict[int, np.dtype[Any]] = {np.dtype(code).num: np.dtype(code) for code in "?bBhHiIlLqQefdgFDG"}

# Threads of start_thread by id, oldest first.  An id names the thread it was given to until
# stop_thread joins it, as a joinable pthread's id does in C; but Python's threads are
# detached, so the OS may hand a finished thread's id to a newer one: both stay listed, and
# stop_thread joins the oldest (the one the id first named) instead of the newer one.
_threads: dict[int, list[threading.Thread]] = {}
_threads_lock = threading.Lock()


@raises
def numpy_to_ptr(arr: np.ndarray) -> int:
    """The address of a C-contiguous array's data (no copy), usable in ``acl.rt.memcpy``.

    Keep the array alive while the device may use the pointer.

    Parameters
    ----------
    arr
        A C-contiguous :class:`numpy.ndarray`.

    Returns
    -------
    int
        The host address (no ``ret``).

    Raises
    ------
    TypeError
        ``arr`` is not an ndarray.
    aclsim.errors.InvalidParamError
        The array is not C-contiguous.
    """
    return _rt.numpy_to_ptr(arr)


@raises
def bytes_to_ptr(data: bytes | bytearray) -> int:
    """The address of a bytes object's buffer (no copy).

    As in pyACL, a device-to-host copy to this address writes into the bytes object;
    read it back with ``np.frombuffer(data, dtype)``.  Returns the address (no ``ret``).
    """
    return _rt.bytes_to_ptr(data)


def _dtype(npy_type: object) -> np.dtype[Any]:
    if isinstance(npy_type, (int, np.integer)) and not isinstance(npy_type, bool):
        dt = NPY_TYPES.get(int(npy_type))
        if dt is None:
            raise InvalidParamError(f"unknown NumPy type number {int(npy_type)}",
                                    hint="use NPY_FLOAT (11), NPY_INT (5), NPY_HALF (23), ... or a dtype")
        return dt
    try:
        return np.dtype(npy_type)  # type: ignore[call-overload]
    except TypeError as exc:
        raise InvalidParamError(f"npy_type must be a NumPy type number or dtype, got {npy_type!r}: {exc}") \
            from None


@raises
def ptr_to_numpy(ptr: int, shape: Sequence[int] | int, npy_type: Any) -> np.ndarray:
    """A NumPy array viewing host memory at ``ptr`` (no copy).

    Parameters
    ----------
    ptr
        A host pointer (``malloc_host``, ``numpy_to_ptr``, ``bytes_to_ptr``); device
        pointers are refused (``InvalidMemoryTypeError``).
    shape
        Tuple of dimensions.
    npy_type
        A NumPy type number as pyACL takes it (``NPY_FLOAT`` = 11, ``NPY_INT`` = 5,
        ``NPY_HALF`` = 23, ...; see :data:`NPY_TYPES`), or anything ``np.dtype`` accepts
        (``np.float32``), as many programs pass.

    Returns
    -------
    numpy.ndarray
        The view (no ``ret``).
    """
    return _rt.ptr_to_numpy(as_int("ptr", ptr), shape, _dtype(npy_type))


@raises
def ptr_to_bytes(ptr: int, size: int) -> bytes:
    """A copy of ``size`` bytes of host memory at ``ptr`` (no ``ret``)."""
    return _rt.ptr_to_bytes(as_int("ptr", ptr), as_int("size", size))


@returns_value(0)
def start_thread(fn: Callable[[Any], Any], args_list: Any) -> int:
    """Start a thread running ``fn(args_list)``, typically a ``process_report`` loop.

    Parameters
    ----------
    fn
        The thread function; it receives ``args_list`` as its one argument.
    args_list
        Anything (pyACL programs pass a list such as ``[context, timeout_ms]``).

    Returns
    -------
    tuple
        ``(thread_id, ret)``: ``thread_id`` is the thread's ``threading.get_ident()``,
        the id ``acl.rt.subscribe_report`` takes.  The thread is a daemon, so one that
        never ends cannot keep the process alive.
    """
    if not callable(fn):
        raise InvalidParamError(f"fn must be callable, got {type(fn).__name__}")
    thread = threading.Thread(target=fn, args=(args_list,), name=f"acl-{getattr(fn, '__name__', 'thread')}",
                              daemon=True)
    thread.start()  # returns once the thread runs, so its ident is known
    ident = thread.ident
    assert ident is not None
    with _threads_lock:
        _threads.setdefault(ident, []).append(thread)
    return ident


@returns_code
def stop_thread(thread_id: int) -> None:
    """Wait for a thread of :func:`start_thread` to end (it must leave its loop by itself).

    Returns ``ret``; ``ACL_ERROR_INVALID_PARAM`` for an id not from ``start_thread`` (or
    already stopped) and for a thread stopping itself.
    """
    tid = as_int("thread_id", thread_id)
    if tid == threading.get_ident():
        raise InvalidParamError("a thread cannot stop (join) itself",
                                hint="call stop_thread from another thread")
    with _threads_lock:
        same_id = _threads.get(tid)
        thread = same_id.pop(0) if same_id else None
        if same_id is not None and not same_id:
            del _threads[tid]
    if thread is None:
        raise InvalidParamError(f"thread {tid} was not started by acl.util.start_thread (or was stopped)")
    thread.join()
