"""Adapters of the memory / cache / utility / register rows of ``api_cxx.txt``."""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np

__all__ = ["SHAPE_ARRAY_LEN", "shape_array"]

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
