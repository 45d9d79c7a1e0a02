"""Handles of the host-side objects of the single-op API: tensor descriptions, data buffers,
op attributes and op handles.

pyACL hands these out as ints (the address of the C object).  aclsim gives each object a
fresh int from one counter, never reused in a process, so a destroyed handle is always
recognised (on the device it is a use after free) and a handle of one kind passed where
another is expected (a data buffer as a tensor description) is refused with its kind named.
The objects live on the host: they need no ``acl.init`` and survive ``acl.finalize``, as
the C objects do.
"""

from __future__ import annotations

import itertools
import threading
from typing import TypeVar

from aclsim.acl._convert import as_int
from aclsim.errors import InvalidParamError

__all__ = ["HandleTable", "TABLE"]

_O = TypeVar("_O")

# Far from the runtime's handles and from small ints, 64 B apart like heap objects.
_BASE = 0x7A00_0000_0000
_STEP = 0x40


def _c_name(cls: type) -> str:
    return str(getattr(cls, "C_NAME", cls.__name__))


class HandleTable:
    """int handle -> live host object, with the name of its creating call for messages."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._objects: dict[int, object] = {}
        self._counter = itertools.count()

    def add(self, obj: object) -> int:
        with self._lock:
            handle = _BASE + _STEP * next(self._counter)
            self._objects[handle] = obj
        return handle

    def get(self, name: str, value: object, cls: type[_O], creator: str) -> _O:
        """The live object of ``cls`` behind handle ``value`` (argument ``name``); 100000 otherwise."""
        h = as_int(name, value)
        with self._lock:
            obj = self._objects.get(h)
        if obj is None or not isinstance(obj, cls):
            what = "a null handle" if h == 0 else (
                f"{h:#x}, an {_c_name(type(obj))}" if obj is not None else f"{h:#x}, not a live handle")
            raise InvalidParamError(f"{name} is {what}; an {_c_name(cls)} is expected (destroyed, or never "
                                    "created)",
                                    hint=f"pass a handle returned by {creator}, before it is destroyed")
        return obj

    def remove(self, handle: int) -> None:
        with self._lock:
            self._objects.pop(handle, None)

    def count(self, cls: type) -> int:
        """How many live objects of ``cls`` there are (for tests and leak reports)."""
        with self._lock:
            return sum(isinstance(o, cls) for o in self._objects.values())


#: the one table of the process
TABLE = HandleTable()
