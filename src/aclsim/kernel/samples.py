"""Ready-made kernels used by the demo and the benchmarks (the examples spell theirs out)."""

from __future__ import annotations

from typing import Any

import numpy as np

import aclsim.kernel as asc
from aclsim.kernel.launch import Kernel


def add_kernel(dtype: Any, per_block: int, tile: int) -> Kernel:
    """``z = x + y``: each block adds ``per_block`` elements in tiles of ``tile``, through a
    VECIN queue per input and a VECOUT queue, double buffered (the Ascend C KernelAdd shape).

    >>> import aclsim.kernel as asc
    >>> add_kernel(asc.float32, 4096, 1024).name
    'add_kernel'
    """
    if per_block % tile:
        raise ValueError(f"per_block {per_block} is not a multiple of the tile {tile}")
    nbytes = tile * np.dtype(dtype).itemsize

    @asc.kernel
    def add_kernel(x: Any, y: Any, z: Any) -> None:
        base = per_block * asc.get_block_idx()
        gx, gy, gz = asc.GlobalTensor(dtype), asc.GlobalTensor(dtype), asc.GlobalTensor(dtype)
        gx.set_global_buffer(x.cast(dtype) + base, per_block)
        gy.set_global_buffer(y.cast(dtype) + base, per_block)
        gz.set_global_buffer(z.cast(dtype) + base, per_block)
        pipe = asc.TPipe()
        qx, qy = asc.TQue(asc.QuePosition.VECIN, 1), asc.TQue(asc.QuePosition.VECIN, 1)
        qz = asc.TQue(asc.QuePosition.VECOUT, 1)
        for q in (qx, qy, qz):
            pipe.init_buffer(q, 2, nbytes)
        for i in range(per_block // tile):
            xl, yl = qx.alloc_tensor(dtype), qy.alloc_tensor(dtype)
            asc.data_copy(xl, gx[i * tile], tile)
            asc.data_copy(yl, gy[i * tile], tile)
            qx.enque(xl)
            qy.enque(yl)
            xl, yl = qx.deque(dtype), qy.deque(dtype)
            zl = qz.alloc_tensor(dtype)
            asc.add(zl, xl, yl, tile)
            qz.enque(zl)
            qx.free_tensor(xl)
            qy.free_tensor(yl)
            zl = qz.deque(dtype)
            asc.data_copy(gz[i * tile], zl, tile)
            qz.free_tensor(zl)

    return add_kernel
