"""BroadCastVecToMM (UB -> L0C on the 310P): each 16 elements fill a 16 x 16 fractal, against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.errors import TaskError

P = asc.TPosition


@pytest.mark.parametrize("dtype", [asc.float32, asc.int32, asc.float16])
def test_broadcast_fills_fractals(run, dtype) -> None:
    got: list[np.ndarray] = []
    npdt = np.dtype(dtype)

    @asc.kernel(chip="310P")
    def k(x):
        pipe = asc.TPipe()
        ub, l0c = asc.TBuf(P.VECCALC), asc.TBuf(P.CO1)
        pipe.init_buffer(ub, 256)
        pipe.init_buffer(l0c, 6 * 256 * npdt.itemsize)
        g = asc.GlobalTensor(dtype)
        g.set_global_buffer(x)
        v, c = ub.get(dtype), l0c.get(dtype)
        asc.data_copy(v, g, 64)
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.broad_cast_vec_to_mm(c, v, 1, 1, 0, 0)  # the kernels' call: one fractal
        asc.broad_cast_vec_to_mm(c[256], v[16], 2, 1, 1, 1)  # two blocks, a 32 B gap in UB, a fractal in L0C
        asc.pipe_barrier(asc.PIPE_ALL)
        got.append(c.numpy().copy())

    x = (np.arange(64) * 3 - 50).astype(npdt)
    run(k, 1, x)
    c = got[0].reshape(6, 16, 16)
    assert (c[0] == np.broadcast_to(x[:16], (16, 16))).all()
    assert (c[1] == np.broadcast_to(x[16:32], (16, 16))).all()
    at = 32 + 32 // npdt.itemsize  # after the gaps: UB + 32 B, L0C + 1 fractal
    assert (c[3] == np.broadcast_to(x[at:at + 16], (16, 16))).all()
    assert (c[2] == 0).all()  # the gap fractal is not written


def test_split_chips_have_no_such_path(run) -> None:
    @asc.kernel
    def k(x):
        pipe = asc.TPipe()
        ub, l0c = asc.TBuf(P.VECCALC), asc.TBuf(P.CO1)
        pipe.init_buffer(ub, 256)
        pipe.init_buffer(l0c, 1024)
        asc.broad_cast_vec_to_mm(l0c.get(asc.float32), ub.get(asc.float32), 1, 1, 0, 0)

    with pytest.raises(TaskError, match="no UB -> L0C path") as info:
        run(k, 1, np.zeros(8, np.float32))
    assert isinstance(info.value.cause, errors.FeatureNotSupportedError)
