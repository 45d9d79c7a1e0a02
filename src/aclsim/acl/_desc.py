"""Tensor descriptions and data buffers of pyACL's single-op API (``acl.create_tensor_desc``,
``acl.create_data_buffer``, ...), the top-level calls of ``acl_base.h``.

Python names and return shapes are pyACL's (checked against its C wrappers): a C function
that returns a handle or a number returns just that (``desc = acl.create_tensor_desc(...)``,
``size = acl.get_tensor_desc_size(desc)``), a ``void`` one returns ``None``, the others
``ret``; ``get_tensor_desc_dim_v2`` returns ``(dim, ret)``.  On failure a handle is ``0``
(C's null), a size or count ``0``, a type or format ``-1`` (``ACL_DT_UNDEFINED``,
``ACL_FORMAT_UNDEFINED``), and the message goes to ``acl.get_recent_err_msg()``.

A description holds a data type, a format and dims: ``[]`` is a scalar, a ``0`` dim an
empty tensor, ``-1`` a dynamic dim and ``[-2]`` an unknown rank (their size and element
count are 0).  A data buffer is a device address and a size; it does not own the memory
(``destroy_data_buffer`` does not free it) and ``(0, 0)`` is the placeholder of an absent
optional input.

>>> import aclsim.acl as acl
>>> desc = acl.create_tensor_desc(acl.ACL_FLOAT16, [2, 3], acl.ACL_FORMAT_ND)
>>> acl.get_tensor_desc_size(desc), acl.get_tensor_desc_num_dims(desc), acl.get_tensor_desc_dim_v2(desc, 1)
(12, 2, (3, 0))
>>> acl.destroy_tensor_desc(desc)
>>> acl.get_tensor_desc_size(desc)  # destroyed: C's 0, and a message
0
>>> acl.get_recent_err_msg().startswith("acl.get_tensor_desc_size: [ACL_ERROR_INVALID_PARAM 100000]")
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from aclsim.acl._boundary import returns_code, returns_plain, returns_value
from aclsim.acl._convert import as_int
from aclsim.acl._handles import TABLE
from aclsim.aclnn import DataType, Format, element_size
from aclsim.errors import InvalidParamError

__all__ = [
    "DataBuffer",
    "TensorDesc",
    "create_data_buffer",
    "create_tensor_desc",
    "data_type_size",
    "data_buffer_of",
    "desc_of",
    "destroy_data_buffer",
    "destroy_tensor_desc",
    "get_data_buffer_addr",
    "get_data_buffer_size",
    "get_data_buffer_size_v2",
    "get_tensor_desc_dim",
    "get_tensor_desc_dim_v2",
    "get_tensor_desc_element_count",
    "get_tensor_desc_format",
    "get_tensor_desc_num_dims",
    "get_tensor_desc_size",
    "get_tensor_desc_type",
    "update_data_buffer",
]

UNKNOWN_DIM = -1
UNKNOWN_RANK_DIM = -2
ACL_UNKNOWN_RANK = 0xFFFFFFFFFFFFFFFE
_MAX_DIMS = 128  # ACL_MAX_DIM_CNT of acl_base.h


class TensorDesc:
    """``aclTensorDesc``: data type, dims and format of one op input or output."""

    __slots__ = ("data_type", "dims", "format", "handle")
    C_NAME = "aclTensorDesc"

    def __init__(self, data_type: DataType, dims: tuple[int, ...], fmt: Format) -> None:
        self.data_type = data_type
        self.dims = dims
        self.format = fmt
        self.handle = 0

    @property
    def unknown_rank(self) -> bool:
        return self.dims == (UNKNOWN_RANK_DIM,)

    @property
    def dynamic(self) -> bool:
        """True when a dim is -1 or the rank is unknown (the shape is not exact)."""
        return any(d < 0 for d in self.dims)

    @property
    def element_count(self) -> int:
        return 0 if self.dynamic else math.prod(self.dims)

    @property
    def size(self) -> int:
        if self.data_type == DataType.ACL_DT_UNDEFINED:
            return 0
        return self.element_count * element_size(self.data_type)

    def __repr__(self) -> str:
        return f"<aclTensorDesc {self.data_type.name} {list(self.dims)} {self.format.name}>"


class DataBuffer:
    """``aclDataBuffer``: a device address and a size (the memory is the caller's)."""

    __slots__ = ("addr", "handle", "size")
    C_NAME = "aclDataBuffer"

    def __init__(self, addr: int, size: int) -> None:
        self.addr = addr
        self.size = size
        self.handle = 0

    def __repr__(self) -> str:
        return f"<aclDataBuffer 0x{self.addr:x} {self.size}B>"


def desc_of(value: object, name: str = "desc") -> TensorDesc:
    """The live description behind handle ``value`` (100000 otherwise)."""
    return TABLE.get(name, value, TensorDesc, "acl.create_tensor_desc")


def data_buffer_of(value: object, name: str = "data_buffer") -> DataBuffer:
    """The live data buffer behind handle ``value`` (100000 otherwise)."""
    return TABLE.get(name, value, DataBuffer, "acl.create_data_buffer")


def _enum(cls: type[DataType] | type[Format], name: str, value: object) -> Any:
    v = as_int(name, value)
    try:
        return cls(v)
    except ValueError:
        raise InvalidParamError(f"{name} {v} is not an acl{cls.__name__} value",
                                hint=f"use one of the acl{cls.__name__} values of acl_base.h") from None


def _dims(dims: object) -> tuple[int, ...]:
    if isinstance(dims, (str, bytes)) or not isinstance(dims, (Sequence, np.ndarray)):
        raise InvalidParamError(f"dims must be a list of ints, got {type(dims).__name__}")
    out = tuple(as_int(f"dims[{i}]", d) for i, d in enumerate(dims))
    if len(out) > _MAX_DIMS:
        raise InvalidParamError(f"dims has {len(out)} entries, more than ACL_MAX_DIM_CNT {_MAX_DIMS}")
    if out == (UNKNOWN_RANK_DIM,):
        return out
    bad = [d for d in out if d < UNKNOWN_DIM]
    if bad:
        raise InvalidParamError(f"dims {list(out)} has {bad[0]}: a dim is >= 0, -1 (dynamic), "
                                "or the whole dims is [-2] (unknown rank)")
    return out


@returns_plain(0)
def create_tensor_desc(data_type: int, dims: Sequence[int], format: int) -> int:  # noqa: A002 (pyACL's name)
    """``aclCreateTensorDesc``: a description of a tensor; returns its handle (0 on failure)."""
    desc = TensorDesc(_enum(DataType, "data_type", data_type), _dims(dims), _enum(Format, "format", format))
    desc.handle = TABLE.add(desc)
    return desc.handle


@returns_plain(None)
def destroy_tensor_desc(desc: int) -> None:
    """``aclDestroyTensorDesc``: returns ``None``; a bad handle is recorded, nothing else changes."""
    TABLE.remove(desc_of(desc).handle)


@returns_plain(-1)
def get_tensor_desc_type(desc: int) -> int:
    """``aclGetTensorDescType``: the ``aclDataType`` (``ACL_DT_UNDEFINED`` -1 for a bad handle)."""
    return int(desc_of(desc).data_type)


@returns_plain(-1)
def get_tensor_desc_format(desc: int) -> int:
    """``aclGetTensorDescFormat``: the ``aclFormat`` (``ACL_FORMAT_UNDEFINED`` -1 for a bad handle)."""
    return int(desc_of(desc).format)


@returns_plain(0)
def get_tensor_desc_size(desc: int) -> int:
    """``aclGetTensorDescSize``: element count x element size in bytes (0 for dynamic shapes)."""
    return desc_of(desc).size


@returns_plain(0)
def get_tensor_desc_element_count(desc: int) -> int:
    """``aclGetTensorDescElementCount`` (0 for dynamic shapes)."""
    return desc_of(desc).element_count


@returns_plain(0)
def get_tensor_desc_num_dims(desc: int) -> int:
    """``aclGetTensorDescNumDims``; ``ACL_UNKNOWN_RANK`` (0xFFFFFFFFFFFFFFFE) for dims ``[-2]``."""
    d = desc_of(desc)
    return ACL_UNKNOWN_RANK if d.unknown_rank else len(d.dims)


def _dim(desc: object, index: object) -> int:
    d = desc_of(desc)
    i = as_int("index", index)
    if d.unknown_rank:
        raise InvalidParamError(f"{d!r} has an unknown rank: it has no dim {i}")
    if not 0 <= i < len(d.dims):
        raise InvalidParamError(f"index {i} is out of range for {d!r} ({len(d.dims)} dims)",
                                hint=f"use 0..{len(d.dims) - 1}" if d.dims else "a scalar has no dims")
    return d.dims[i]


@returns_value(0)
def get_tensor_desc_dim_v2(desc: int, index: int) -> int:
    """``aclGetTensorDescDimV2``: ``(dim, ret)``; -1 is a dynamic dim."""
    return _dim(desc, index)


@returns_plain(-1)
def get_tensor_desc_dim(desc: int, index: int) -> int:
    """``aclGetTensorDescDim`` (deprecated: use :func:`get_tensor_desc_dim_v2`): the dim, -1 on failure."""
    return _dim(desc, index)


def _size(name: str, value: object) -> int:
    n = as_int(name, value)
    if n < 0:
        raise InvalidParamError(f"{name} must be >= 0, got {n}")
    return n


@returns_plain(0)
def create_data_buffer(data: int, size: int) -> int:
    """``aclCreateDataBuffer``: wrap ``size`` bytes at device address ``data``; returns its handle.

    ``(0, 0)`` is the placeholder of an absent optional input.  The memory stays the caller's."""
    addr = _size("data", data)
    buf = DataBuffer(addr, _size("size", size))
    buf.handle = TABLE.add(buf)
    return buf.handle


@returns_code
def destroy_data_buffer(data_buffer: int) -> None:
    """``aclDestroyDataBuffer``: returns ``ret``; the memory it wraps is not freed."""
    TABLE.remove(data_buffer_of(data_buffer).handle)


@returns_code
def update_data_buffer(data_buffer: int, data: int, size: int) -> None:
    """``aclUpdateDataBuffer``: point the buffer at other memory; returns ``ret``."""
    buf = data_buffer_of(data_buffer)
    addr, n = _size("data", data), _size("size", size)
    buf.addr, buf.size = addr, n


@returns_plain(0)
def get_data_buffer_addr(data_buffer: int) -> int:
    """``aclGetDataBufferAddr``: the device address (0 for a bad handle)."""
    return data_buffer_of(data_buffer).addr


@returns_plain(0)
def get_data_buffer_size_v2(data_buffer: int) -> int:
    """``aclGetDataBufferSizeV2``: the size in bytes (0 for a bad handle)."""
    return data_buffer_of(data_buffer).size


@returns_plain(0)
def get_data_buffer_size(data_buffer: int) -> int:
    """``aclGetDataBufferSize`` (deprecated: use :func:`get_data_buffer_size_v2`)."""
    return data_buffer_of(data_buffer).size


@returns_plain(0)
def data_type_size(data_type: int) -> int:
    """``aclDataTypeSize``: bytes of one element (0 for ``ACL_DT_UNDEFINED`` and sub-byte types)."""
    dt = _enum(DataType, "data_type", data_type)
    return 0 if dt == DataType.ACL_DT_UNDEFINED else element_size(dt)
