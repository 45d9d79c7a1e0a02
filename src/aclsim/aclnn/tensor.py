"""``Tensor``: a device tensor for Python users -- device memory plus its ``aclTensor`` descriptor.

>>> import numpy as np, aclsim
>>> from aclsim.aclnn import Tensor, add_get_workspace_size, add
>>> aclsim.init(chip="tiny"); aclsim.set_device(0)
>>> x, y = Tensor.from_numpy(np.arange(4, dtype=np.float32)), Tensor.from_numpy(np.ones(4, np.float32))
>>> z = Tensor.empty((4,), np.float32)
>>> ws, ex = add_get_workspace_size(x.desc, y.desc, 1.0, z.desc); _ = add(None, ws, ex, None)
>>> z.numpy().tolist()
[1.0, 2.0, 3.0, 4.0]
>>> for t in (x, y, z): t.free()
>>> aclsim.reset_device(0); aclsim.finalize()
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from aclsim.aclnn.dtypes import data_type_of
from aclsim.aclnn.meta import AclTensor, create_tensor, destroy_tensor
from aclsim.runtime import Buffer, MemcpyKind, free, malloc, memcpy, synchronize_device

__all__ = ["Tensor"]


class Tensor:
    """Device memory holding a tensor, with its descriptor ``desc`` (an :class:`AclTensor`).

    ``Tensor.from_numpy(a)`` copies ``a`` to the device; ``Tensor.empty(shape, dtype)``
    allocates; ``t.numpy()`` copies the view back (after synchronizing the device);
    ``t.view(shape, strides, offset)`` describes another view of the same storage.
    """

    __slots__ = ("buffer", "desc", "owner")

    def __init__(self, buffer: Buffer | int, desc: AclTensor, *, owner: bool = False) -> None:
        self.buffer, self.desc, self.owner = buffer, desc, owner

    @classmethod
    def empty(cls, shape: Sequence[int], dtype: Any) -> Tensor:
        """Uninitialised device memory for a contiguous tensor of ``shape`` and ``dtype``."""
        dt = np.dtype(dtype)
        nbytes = int(np.prod(shape, dtype=np.int64)) * dt.itemsize
        buf = malloc(max(nbytes, 1))
        return cls(buf, create_tensor(list(shape), data_type_of(dt), None, 0, 2, None, buf), owner=True)

    @classmethod
    def from_numpy(cls, array: Any) -> Tensor:
        """A contiguous device copy of ``array`` (rank 0 stays rank 0)."""
        a = np.asarray(array)
        if not a.flags.c_contiguous:
            a = a.copy(order="C")
        t = cls.empty(a.shape, a.dtype)
        if a.nbytes:
            memcpy(t.buffer, a.nbytes, a, a.nbytes, MemcpyKind.HOST_TO_DEVICE)
        return t

    def view(self, shape: Sequence[int], strides: Sequence[int], offset: int = 0) -> Tensor:
        """Another view (strides and offset in elements) of this tensor's storage; frees nothing."""
        d = self.desc
        return Tensor(
            self.buffer,
            create_tensor(
                list(shape), d.data_type, list(strides), offset, d.format, d.storage_dims, d.device_addr
            ),
        )

    @property
    def shape(self) -> tuple[int, ...]:
        return self.desc.view_dims

    @property
    def dtype(self) -> np.dtype:
        return self.desc.dtype

    def numpy(self) -> np.ndarray:
        """The view's elements as a new host array (waits for the device's queued work)."""
        d = self.desc
        synchronize_device()
        storage = np.empty(int(np.prod(d.storage_dims, dtype=np.int64)), d.dtype)
        if storage.nbytes:
            memcpy(storage, storage.nbytes, d.device_addr, storage.nbytes, MemcpyKind.DEVICE_TO_HOST)
        if d.numel == 0:
            return np.empty(d.view_dims, d.dtype)
        isz = d.dtype.itemsize
        view = as_strided(storage[d.offset :], d.view_dims, [s * isz for s in d.strides], writeable=False)
        return np.array(view)

    def free(self) -> None:
        """Destroy the descriptor and, for a tensor that owns its memory, free it."""
        if self.desc.alive:
            destroy_tensor(self.desc)
        if self.owner and isinstance(self.buffer, Buffer) and self.buffer.alive:
            free(self.buffer)

    def __enter__(self) -> Tensor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.free()

    def __repr__(self) -> str:
        return f"<Tensor {list(self.shape)} {self.dtype} @0x{self.desc.device_addr:x}>"
