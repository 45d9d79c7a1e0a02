"""Adapters of the memory / cache / utility / register rows of ``api_cxx.txt``."""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np

import aclsim.kernel as asc

__all__ = ["SHAPE_ARRAY_LEN", "TUPLE_CLOSE", "TUPLE_OPEN", "crd2idx", "decode_tuple", "shape_array"]

#: how many uint64 extents a C++ ``TensorDesc::SetShapeAddr(uint64_t*)`` array is taken to hold: C++
#: passes no length, and ``ListTensorDesc::GetDesc`` writes only the tensor's ``dim`` extents (as the
#: device does), so the bound only has to cover any rank a descriptor holds
SHAPE_ARRAY_LEN = 64


def shape_array(ptr: Any) -> np.ndarray:
    """``TensorDesc<T>::SetShapeAddr(uint64_t* shapePtr)``: the C++ array at host address ``ptr`` (the
    bridge gives a pointer as a ``GmAddr`` of that address) as a NumPy uint64 array over the same bytes,
    so the extents ``GetDesc`` writes land in the kernel's array."""
    if ptr is None:
        raise ValueError("SetShapeAddr(nullptr): give it an array for the extents")
    data = ctypes.cast(int(ptr), ctypes.POINTER(ctypes.c_uint64))
    return np.ctypeslib.as_array(data, shape=(SHAPE_ARRAY_LEN,))


#: the tokens of an encoded nested tuple (aclsim_ascendc_util.h's ``detail::LayoutWords``): a tuple opens
#: and closes with these two words; anything else is an integer
TUPLE_OPEN = (1 << 64) - 1
TUPLE_CLOSE = (1 << 64) - 2


def decode_tuple(words: list[int]) -> Any:
    """The nested tuple (or integer) a C++ ``Shape``/``Stride``/``Coord`` was encoded as: ``words[0]`` is
    the count of tokens that follow."""
    tokens = [int(w) for w in words[1:1 + int(words[0])]]
    if not tokens:
        raise ValueError("an empty layout tuple encoding")

    def parse(i: int) -> tuple[Any, int]:
        if tokens[i] == TUPLE_OPEN:
            items = []
            i += 1
            while tokens[i] != TUPLE_CLOSE:
                item, i = parse(i)
                items.append(item)
            return tuple(items), i + 1
        if tokens[i] == TUPLE_CLOSE:
            raise ValueError("a layout tuple encoding closes a tuple it did not open")
        return tokens[i], i + 1

    value, end = parse(0)
    if end != len(tokens):
        raise ValueError("a layout tuple encoding with words after its value")
    return value


def crd2idx(coord: list[int], shape: list[int], stride: list[int]) -> int:
    """``Crd2Idx(coord, shape, stride)`` of C++ tuples encoded as words (``aclsim.kernel.crd2idx``)."""
    return int(asc.crd2idx(decode_tuple(coord), decode_tuple(shape), decode_tuple(stride)))
