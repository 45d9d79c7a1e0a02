"""The pyACL-compatible face of aclsim: ``import aclsim.acl as acl``.

A pyACL host program runs unchanged on the simulated NPU: same module layout
(``acl.init``, ``acl.rt.*``, ``acl.util.*``, ``acl.media.*``; the single-op API:
``acl.create_tensor_desc``, ``acl.create_data_buffer``, ``acl.op.*``), same argument order, same
return convention (``(value, ret)`` for calls with an OUT value, ``ret`` for the others,
``free, total, ret = acl.rt.get_mem_info(attr)``), handles and pointers as ints, the
default stream as ``0``, timeouts in milliseconds.  No API error ever raises here: the
runtime's exceptions become return codes in one place (:mod:`aclsim.acl._boundary`),
and ``acl.get_recent_err_msg()`` returns their messages.  The numeric constants of
``acl_rt.h`` and the error codes are exported too (``acl.ACL_MEMCPY_HOST_TO_DEVICE``).

Examples
--------
>>> import aclsim.acl as acl
>>> acl.init()
0
>>> acl.rt.set_device(0)
0
>>> stream, ret = acl.rt.create_stream()
>>> ret, acl.rt.synchronize_stream(stream), acl.rt.destroy_stream(stream)
(0, 0, 0)
>>> acl.rt.destroy_stream(stream)  # already destroyed
107017
>>> acl.rt.reset_device(0), acl.finalize()
(0, 0)
"""

from __future__ import annotations

from aclsim.acl import constants, media, op, rt, util
from aclsim.acl._boundary import get_recent_err_msg
from aclsim.acl._core import finalize, init
from aclsim.acl._desc import (
    create_data_buffer,
    create_tensor_desc,
    data_type_size,
    destroy_data_buffer,
    destroy_tensor_desc,
    get_data_buffer_addr,
    get_data_buffer_size,
    get_data_buffer_size_v2,
    get_tensor_desc_dim,
    get_tensor_desc_dim_v2,
    get_tensor_desc_element_count,
    get_tensor_desc_format,
    get_tensor_desc_num_dims,
    get_tensor_desc_size,
    get_tensor_desc_type,
    update_data_buffer,
)
from aclsim.acl.constants import *  # noqa: F403
from aclsim.acl.constants import __all__ as _constants_all

__all__ = [
    "constants", "create_data_buffer", "create_tensor_desc", "data_type_size", "destroy_data_buffer",
    "destroy_tensor_desc", "finalize", "get_data_buffer_addr", "get_data_buffer_size",
    "get_data_buffer_size_v2",
    "get_recent_err_msg", "get_tensor_desc_dim", "get_tensor_desc_dim_v2", "get_tensor_desc_element_count",
    "get_tensor_desc_format", "get_tensor_desc_num_dims", "get_tensor_desc_size", "get_tensor_desc_type",
    "init", "media", "op", "rt", "update_data_buffer", "util", *_constants_all,
]
