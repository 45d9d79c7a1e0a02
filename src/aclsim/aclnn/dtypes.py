"""``aclDataType`` and ``aclFormat`` with AscendCL's values, the NumPy dtype of each, and the
aclnn type rules: tensor-tensor promotion, tensor-scalar promotion, conversion into ``out``
(reference ``aclnn-api.md`` sections 4 and 5).

>>> promote_types(DataType.ACL_FLOAT16, DataType.ACL_BF16).name
'ACL_FLOAT'
>>> numpy_dtype(DataType.ACL_BF16).name
'bfloat16'
"""

from __future__ import annotations

import enum
from typing import Any

import ml_dtypes
import numpy as np

__all__ = [
    "DataType",
    "Format",
    "can_cast",
    "data_type_of",
    "element_size",
    "is_complex",
    "is_floating",
    "is_integral",
    "numpy_dtype",
    "promote_scalar",
    "promote_scalar_a2",
    "promote_types",
]


class DataType(enum.IntEnum):
    """``aclDataType`` (values of CANN's ``acl_base_rt.h``)."""

    ACL_DT_UNDEFINED = -1
    ACL_FLOAT = 0
    ACL_FLOAT16 = 1
    ACL_INT8 = 2
    ACL_INT32 = 3
    ACL_UINT8 = 4
    ACL_INT16 = 6
    ACL_UINT16 = 7
    ACL_UINT32 = 8
    ACL_INT64 = 9
    ACL_UINT64 = 10
    ACL_DOUBLE = 11
    ACL_BOOL = 12
    ACL_STRING = 13
    ACL_COMPLEX64 = 16
    ACL_COMPLEX128 = 17
    ACL_BF16 = 27
    ACL_INT4 = 29
    ACL_UINT1 = 30
    ACL_COMPLEX32 = 33
    ACL_HIFLOAT8 = 34
    ACL_FLOAT8_E5M2 = 35
    ACL_FLOAT8_E4M3FN = 36
    ACL_FLOAT8_E8M0 = 37
    ACL_FLOAT6_E3M2 = 38
    ACL_FLOAT6_E2M3 = 39
    ACL_FLOAT4_E2M1 = 40
    ACL_FLOAT4_E1M2 = 41


class Format(enum.IntEnum):
    """``aclFormat`` (values of CANN's ``acl_base_rt.h``)."""

    ACL_FORMAT_UNDEFINED = -1
    ACL_FORMAT_NCHW = 0
    ACL_FORMAT_NHWC = 1
    ACL_FORMAT_ND = 2
    ACL_FORMAT_NC1HWC0 = 3
    ACL_FORMAT_FRACTAL_Z = 4
    ACL_FORMAT_NC1HWC0_C04 = 12
    ACL_FORMAT_HWCN = 16
    ACL_FORMAT_NDHWC = 27
    ACL_FORMAT_FRACTAL_NZ = 29
    ACL_FORMAT_NCDHW = 30
    ACL_FORMAT_NDC1HWC0 = 32
    ACL_FRACTAL_Z_3D = 33
    ACL_FORMAT_NC = 35
    ACL_FORMAT_NCL = 47
    ACL_FORMAT_FRACTAL_NZ_C0_16 = 50
    ACL_FORMAT_FRACTAL_NZ_C0_32 = 51
    ACL_FORMAT_FRACTAL_NZ_C0_2 = 52
    ACL_FORMAT_FRACTAL_NZ_C0_4 = 53
    ACL_FORMAT_FRACTAL_NZ_C0_8 = 54


D = DataType

#: The NumPy dtype of every data type aclsim can hold in memory (bfloat16 from ml_dtypes).
_NUMPY: dict[DataType, np.dtype] = {
    D.ACL_FLOAT: np.dtype(np.float32),
    D.ACL_FLOAT16: np.dtype(np.float16),
    D.ACL_BF16: np.dtype(ml_dtypes.bfloat16),
    D.ACL_DOUBLE: np.dtype(np.float64),
    D.ACL_INT8: np.dtype(np.int8),
    D.ACL_UINT8: np.dtype(np.uint8),
    D.ACL_INT16: np.dtype(np.int16),
    D.ACL_UINT16: np.dtype(np.uint16),
    D.ACL_INT32: np.dtype(np.int32),
    D.ACL_UINT32: np.dtype(np.uint32),
    D.ACL_INT64: np.dtype(np.int64),
    D.ACL_UINT64: np.dtype(np.uint64),
    D.ACL_BOOL: np.dtype(np.bool_),
    D.ACL_COMPLEX64: np.dtype(np.complex64),
    D.ACL_COMPLEX128: np.dtype(np.complex128),
}
_FROM_NUMPY = {v: k for k, v in _NUMPY.items()}

#: Element sizes in bytes of the types with no NumPy dtype (sub-byte types have none).
_OTHER_SIZES = {
    D.ACL_COMPLEX32: 4,
    D.ACL_HIFLOAT8: 1,
    D.ACL_FLOAT8_E5M2: 1,
    D.ACL_FLOAT8_E4M3FN: 1,
    D.ACL_FLOAT8_E8M0: 1,
}

_FLOATS = (D.ACL_FLOAT16, D.ACL_BF16, D.ACL_FLOAT, D.ACL_DOUBLE)
_COMPLEX_RANK = {D.ACL_COMPLEX32: 1, D.ACL_COMPLEX64: 2, D.ACL_COMPLEX128: 3}
_COMPLEX_OF_RANK = {1: D.ACL_COMPLEX32, 2: D.ACL_COMPLEX64, 3: D.ACL_COMPLEX128}
_SIGNED = {D.ACL_INT8: 1, D.ACL_INT16: 2, D.ACL_INT32: 4, D.ACL_INT64: 8}
_SIGNED_OF_SIZE = {v: k for k, v in _SIGNED.items()}
_WIDE_UNSIGNED = (D.ACL_UINT16, D.ACL_UINT32, D.ACL_UINT64)


def numpy_dtype(dt: DataType | int) -> np.dtype:
    """The NumPy dtype holding ``dt``; ``ValueError`` for a type with none (INT4, FP8, ...)."""
    try:
        return _NUMPY[DataType(dt)]
    except (KeyError, ValueError):
        raise ValueError(f"aclDataType {dt!r} has no NumPy dtype in aclsim") from None


def data_type_of(dtype: Any) -> DataType:
    """The ``aclDataType`` of a NumPy dtype (``np.float32`` -> ``ACL_FLOAT``)."""
    try:
        return _FROM_NUMPY[np.dtype(dtype)]
    except (KeyError, TypeError):
        raise ValueError(f"NumPy dtype {dtype!r} has no aclDataType") from None


def element_size(dt: DataType | int) -> int:
    """Bytes per element (``aclDataTypeSize``); 0 for sub-byte and undefined types."""
    dt = DataType(dt)
    if dt in _NUMPY:
        return _NUMPY[dt].itemsize
    return _OTHER_SIZES.get(dt, 0)


def is_floating(dt: DataType) -> bool:
    return dt in _FLOATS


def is_complex(dt: DataType) -> bool:
    return dt in _COMPLEX_RANK


def is_integral(dt: DataType, *, include_bool: bool = False) -> bool:
    return dt in _SIGNED or dt in (D.ACL_UINT8, *_WIDE_UNSIGNED) or (include_bool and dt == D.ACL_BOOL)


def _real_complex_rank(dt: DataType) -> int:
    return 3 if dt == D.ACL_DOUBLE else 2 if dt == D.ACL_FLOAT else 1


def promote_types(a: DataType, b: DataType) -> DataType | None:
    """The tensor-tensor promotion of section 5.1, or ``None`` where the table has x.

    >>> promote_types(DataType.ACL_INT8, DataType.ACL_UINT8).name
    'ACL_INT16'
    >>> promote_types(DataType.ACL_UINT16, DataType.ACL_INT32) is None
    True
    """
    a, b = DataType(a), DataType(b)
    if a == b:
        return a if a in _NUMPY or a == D.ACL_COMPLEX32 else None
    known = set(_NUMPY) | {D.ACL_COMPLEX32}
    if a not in known or b not in known or a in _WIDE_UNSIGNED or b in _WIDE_UNSIGNED:
        return None
    if is_complex(a) or is_complex(b):
        rank = max(_COMPLEX_RANK[x] if is_complex(x) else _real_complex_rank(x) for x in (a, b))
        return _COMPLEX_OF_RANK[rank]
    if is_floating(a) or is_floating(b):
        if D.ACL_DOUBLE in (a, b):
            return D.ACL_DOUBLE
        fa, fb = is_floating(a), is_floating(b)
        if fa and fb:  # two different float types among f16, bf16, f32: f32 (f16 with bf16 too)
            return D.ACL_FLOAT
        return a if fa else b
    if a == D.ACL_BOOL:
        return b
    if b == D.ACL_BOOL:
        return a
    if D.ACL_UINT8 in (a, b):
        other = b if a == D.ACL_UINT8 else a
        return D.ACL_INT16 if other == D.ACL_INT8 else other
    return _SIGNED_OF_SIZE[max(_SIGNED[a], _SIGNED[b])]


def promote_scalar(tensor: DataType, scalar: DataType) -> DataType | None:
    """The tensor-scalar promotion of section 5.2 (the documented table), or ``None`` for x.

    >>> promote_scalar(DataType.ACL_FLOAT16, DataType.ACL_FLOAT).name
    'ACL_FLOAT16'
    >>> promote_scalar(DataType.ACL_INT32, DataType.ACL_FLOAT).name
    'ACL_FLOAT'
    """
    t, s = DataType(tensor), DataType(scalar)
    if is_complex(s):
        if is_complex(t):
            return t
        return {D.ACL_FLOAT16: D.ACL_COMPLEX32, D.ACL_DOUBLE: D.ACL_COMPLEX128}.get(t, D.ACL_COMPLEX64)
    if is_complex(t):
        return D.ACL_COMPLEX128 if s == D.ACL_DOUBLE else t
    if is_floating(t):
        return t
    if is_floating(s):
        return None if t in _WIDE_UNSIGNED else D.ACL_FLOAT
    if t == D.ACL_BOOL:
        if s == D.ACL_BOOL:
            return t
        return None if s in _WIDE_UNSIGNED else s
    return t


def promote_scalar_a2(tensor: DataType, scalar: DataType, out: DataType) -> DataType | None:
    """What A2's Adds/Muls code computes in (section 5.4): a floating tensor keeps its type;
    else an f64 scalar with an f32 ``out`` gives f32; else a floating scalar or a bool tensor
    follows the tensor-tensor table; else the tensor's type."""
    t, s = DataType(tensor), DataType(scalar)
    if is_floating(t):
        return t
    if s == D.ACL_DOUBLE and DataType(out) == D.ACL_FLOAT:
        return D.ACL_FLOAT
    if is_floating(s) or t == D.ACL_BOOL:
        return promote_types(t, s)
    return t


def can_cast(src: DataType, dst: DataType) -> bool:
    """Whether a result of type ``src`` may be written into an ``out`` of type ``dst`` (5.3).

    >>> can_cast(DataType.ACL_FLOAT, DataType.ACL_INT32), can_cast(DataType.ACL_INT32, DataType.ACL_BOOL)
    (True, False)
    """
    src, dst = DataType(src), DataType(dst)
    if src == dst:
        return True
    if dst == D.ACL_BOOL:
        return False
    if is_complex(src):
        return is_complex(dst) or is_floating(dst)
    return is_integral(dst) or is_floating(dst) or is_complex(dst)
