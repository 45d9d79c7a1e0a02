"""A reduction kernel in the style of Ascend's samples, written line by line in the kernel language:
three tiling keys (one whole reduce; block reduces then a whole reduce; counter mode), against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc

F32 = asc.float32
ELEMS_PER_REPEAT = 64  # 256 B of float


@asc.kernel
def reduce_sum_custom(total_length, tiling_key, x, z):
    pipe = asc.TPipe()
    in_q, out_q = asc.TQue(asc.TPosition.VECIN, 1), asc.TQue(asc.TPosition.VECOUT, 1)
    work_buf = asc.TBuf(asc.TPosition.VECCALC)
    x_gm, z_gm = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    x_gm.set_global_buffer(x, total_length)
    z_gm.set_global_buffer(z, 8)
    pipe.init_buffer(in_q, 1, total_length * 4)
    pipe.init_buffer(out_q, 1, 32)
    pipe.init_buffer(work_buf, max(32, total_length // 8 * 4))

    x_local = in_q.alloc_tensor(F32)  # CopyIn
    asc.data_copy(x_local, x_gm, total_length)
    in_q.enque(x_local)

    x_local = in_q.deque(F32)  # Compute
    z_local = out_q.alloc_tensor(F32)
    work = work_buf.get(F32)
    repeat = -(-total_length // ELEMS_PER_REPEAT)
    if tiling_key == 1:  # at most one repeat
        asc.whole_reduce_sum(z_local, x_local, total_length, 1, 1, 1, 8)
    elif tiling_key == 2:  # block sums of block sums, then one repeat (a multiple of 512 elements)
        asc.block_reduce_sum(work, x_local, repeat, ELEMS_PER_REPEAT, 1, 1, 8)
        asc.pipe_barrier(asc.PIPE_V)
        asc.block_reduce_sum(work, work, -(-repeat // 8), ELEMS_PER_REPEAT, 1, 1, 8)
        asc.pipe_barrier(asc.PIPE_V)
        asc.whole_reduce_sum(z_local, work, repeat, 1, 1, 1, 8)  # repeat sums left (<= 64)
    else:  # counter mode: the count decides the repeats (at most 64 * 64 elements)
        asc.set_mask_count()
        asc.set_vector_mask(total_length, dtype=F32, mode=asc.MaskMode.COUNTER)
        asc.whole_reduce_sum(work, x_local, asc.MASK_PLACEHOLDER, 1, 1, 1, 8, is_set_mask=False)
        asc.pipe_barrier(asc.PIPE_V)
        asc.set_vector_mask(repeat, dtype=F32, mode=asc.MaskMode.COUNTER)
        asc.whole_reduce_sum(z_local, work, asc.MASK_PLACEHOLDER, 1, 1, 1, 8, is_set_mask=False)
        asc.set_mask_norm()
        asc.reset_mask()
    out_q.enque(z_local)
    in_q.free_tensor(x_local)

    z_local = out_q.deque(F32)  # CopyOut
    asc.data_copy(z_gm, z_local, 8)
    out_q.free_tensor(z_local)


@pytest.mark.parametrize("n,key", [(48, 1), (64, 1), (2048, 2), (1024, 2), (1000, 3), (4096, 3)])
def test_reduce_sum_custom(run, n, key) -> None:
    x = np.random.default_rng(n).uniform(-1, 1, n).astype(np.float32)
    launch, (_, z) = run(reduce_sum_custom, 1, x, np.zeros(8, np.float32), extra=(n, key))
    np.testing.assert_allclose(float(z[0]), float(x.astype(np.float64).sum()), rtol=1e-5, atol=1e-5)
    ops = [i.op for i in launch.streams[0]]
    want = {1: "whole_reduce_sum", 2: "block_reduce_sum", 3: "whole_reduce_sum"}[key]
    assert want in ops and launch.report.total_cycles > 0 and not launch.diagnostics
