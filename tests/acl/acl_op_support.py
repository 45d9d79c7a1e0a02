"""Helpers of the acl.op tests: descriptions, device buffers and data buffers for one call,
attributes, and execute_v2 with the output read back."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

import aclsim.acl as acl

H2D, D2H = acl.ACL_MEMCPY_HOST_TO_DEVICE, acl.ACL_MEMCPY_DEVICE_TO_HOST
ACL_OF = {
    np.dtype(np.float32): acl.ACL_FLOAT,
    np.dtype(np.float16): acl.ACL_FLOAT16,
    np.dtype(ml_dtypes.bfloat16): acl.ACL_BF16,
    np.dtype(np.int32): acl.ACL_INT32,
    np.dtype(np.int64): acl.ACL_INT64,
    np.dtype(np.int8): acl.ACL_INT8,
    np.dtype(np.bool_): acl.ACL_BOOL,
}


class Op:
    """Descriptions, device buffers and data buffers for one op call, freed at the end."""

    def __init__(self) -> None:
        self.descs: list[int] = []
        self.bufs: list[int] = []
        self.ptrs: list[int] = []

    def tensor(self, shape: tuple[int, ...], dtype: Any, data: np.ndarray | None = None) -> tuple[int, int]:
        desc = acl.create_tensor_desc(ACL_OF[np.dtype(dtype)], list(shape), acl.ACL_FORMAT_ND)
        size = acl.get_tensor_desc_size(desc)
        ptr, ret = acl.rt.malloc(max(size, 1), acl.ACL_MEM_MALLOC_HUGE_FIRST)
        assert ret == 0
        if data is not None and size:
            host = np.ascontiguousarray(data, dtype=dtype)
            assert acl.rt.memcpy(ptr, size, acl.util.numpy_to_ptr(host), size, H2D) == 0
        buf = acl.create_data_buffer(ptr, size)
        self.descs.append(desc)
        self.ptrs.append(ptr)
        self.bufs.append(buf)
        return desc, buf

    def read(self, desc: int, buf: int, dtype: Any) -> np.ndarray:
        shape = tuple(
            acl.get_tensor_desc_dim_v2(desc, i)[0] for i in range(acl.get_tensor_desc_num_dims(desc))
        )
        out = np.zeros(shape, dtype=dtype)
        if out.nbytes:
            ptr = acl.get_data_buffer_addr(buf)
            assert acl.rt.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, ptr, out.nbytes, D2H) == 0
        return out

    def close(self) -> None:
        for b in self.bufs:
            assert acl.destroy_data_buffer(b) == 0
        for p in self.ptrs:
            assert acl.rt.free(p) == 0
        for d in self.descs:
            acl.destroy_tensor_desc(d)


def attrs(**values: Any) -> int:
    a = acl.op.create_attr()
    for name, v in values.items():
        if isinstance(v, float):
            assert acl.op.set_attr_float(a, name, v) == 0
        else:
            assert acl.op.set_attr_int(a, name, v) == 0
    return a


def run(
    op: Op,
    op_type: str,
    xs: list[np.ndarray],
    out_shape: tuple[int, ...],
    out_dtype: Any,
    attr: int = 0,
    stream: int = 0,
) -> tuple[int, np.ndarray | None]:
    ins = [op.tensor(x.shape, x.dtype, x) for x in xs]
    out = op.tensor(out_shape, out_dtype)
    ret = acl.op.execute_v2(
        op_type, [d for d, _ in ins], [b for _, b in ins], [out[0]], [out[1]], attr, stream
    )
    if ret != 0:
        return ret, None
    assert acl.rt.synchronize_stream(stream) == 0
    return ret, op.read(out[0], out[1], out_dtype)
