"""The C face of ``acl_base.h``'s host objects: data buffers and tensor descriptions.

Each function forwards to the pyACL function of the same call (:mod:`aclsim.acl`): the
handles are that face's ints, which cross as the C pointers' values (NULL on failure), so an object made
from C can be used from Python in the same process and the other way round.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from aclsim import acl
from aclsim.capi.cdata import c_function, need_out, store
from aclsim.errors import InvalidParamError

__all__: list[str] = []

#: aclCreateTensorDesc refuses more dimensions than this (the documented ACL_MAX_DIM_CNT)
MAX_DIMS = 128


@c_function
def aclFloat16ToFloat(value: int) -> float:
    return float(np.uint16(value & 0xFFFF).view(np.float16))


@c_function
def aclFloatToFloat16(value: float) -> int:
    return int(np.float16(np.float32(value)).view(np.uint16))


@c_function
def aclCreateDataBuffer(data: int, size: int) -> int:
    return acl.create_data_buffer(data, size)


@c_function
def aclDestroyDataBuffer(data_buffer: Any) -> int:
    return acl.destroy_data_buffer(data_buffer)


@c_function
def aclUpdateDataBuffer(data_buffer: Any, data: Any, size: int) -> int:
    return acl.update_data_buffer(data_buffer, data, size)


@c_function
def aclGetDataBufferAddr(data_buffer: int) -> int:
    return acl.get_data_buffer_addr(data_buffer)


@c_function
def aclGetDataBufferSize(data_buffer: Any) -> int:
    return acl.get_data_buffer_size(data_buffer) & 0xFFFFFFFF


@c_function
def aclGetDataBufferSizeV2(data_buffer: Any) -> int:
    return acl.get_data_buffer_size_v2(data_buffer)


@c_function
def aclDataTypeSize(data_type: int) -> int:
    return acl.data_type_size(data_type)


@c_function
def aclCreateTensorDesc(data_type: int, num_dims: int, dims: Any, format: int) -> int:  # noqa: A002
    if num_dims < 0 or num_dims > MAX_DIMS:
        raise InvalidParamError(f"numDims {num_dims} is out of range 0..{MAX_DIMS}")
    if num_dims and not dims:
        raise InvalidParamError(f"dims is a null pointer with numDims {num_dims}",
                                hint="pass an array of numDims int64_t")
    shape = [int(dims[i]) for i in range(num_dims)]
    return acl.create_tensor_desc(data_type, shape, format)


@c_function
def aclDestroyTensorDesc(desc: Any) -> None:
    acl.destroy_tensor_desc(desc)


@c_function
def aclGetTensorDescType(desc: Any) -> int:
    return acl.get_tensor_desc_type(desc)


@c_function
def aclGetTensorDescFormat(desc: Any) -> int:
    return acl.get_tensor_desc_format(desc)


@c_function
def aclGetTensorDescSize(desc: Any) -> int:
    return acl.get_tensor_desc_size(desc)


@c_function
def aclGetTensorDescElementCount(desc: Any) -> int:
    return acl.get_tensor_desc_element_count(desc)


@c_function
def aclGetTensorDescNumDims(desc: Any) -> int:
    return acl.get_tensor_desc_num_dims(desc)


@c_function
def aclGetTensorDescDim(desc: Any, index: int) -> int:
    return acl.get_tensor_desc_dim(desc, index)


@c_function
def aclGetTensorDescDimV2(desc: Any, index: int, dim_size: Any) -> int:
    need_out(dim_size, "dimSize")
    return store(dim_size, *acl.get_tensor_desc_dim_v2(desc, index))
