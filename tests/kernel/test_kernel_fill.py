"""Fill / InitConstValue on L1, L0A, L0B, and the high-level Fill of global memory."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.errors import TaskError

P = asc.InitConstValueParams


@asc.kernel
def fill_and_read(position, dtype, nbytes, params, old_name, p):
    """Fill a fresh tensor of ``position`` (first set to -1) and copy every element to ``p`` by scalar."""
    pipe = asc.TPipe()
    b = asc.TBuf(position)
    pipe.init_buffer(b, nbytes)
    t = b.get(dtype)
    n = nbytes // np.dtype(dtype).itemsize
    asc.fill(t, P(1, nbytes // (32 if position is asc.TPosition.A1 else 512), 0, -1))
    asc.pipe_barrier(asc.PIPE_ALL)
    (asc.init_const_value if old_name else asc.fill)(t, params)  # FILL-LINE
    asc.pipe_barrier(asc.PIPE_ALL)
    g = asc.GlobalTensor(dtype)
    g.set_global_buffer(p)
    for i in range(n):
        g.set_value(i, t.get_value(i))


def test_fill_l1_blocks_and_gaps(run) -> None:
    launch, (out,) = run(fill_and_read, 1, np.zeros(128, np.float16),
                         extra=(asc.TPosition.A1, asc.float16, 256, P(3, 1, 1, 2.5), False))
    blocks = out.reshape(8, 16)  # 32 B blocks: filled, gap, filled, gap, filled, untouched
    assert (blocks[[0, 2, 4]] == 2.5).all() and (blocks[[1, 3, 5, 6, 7]] == -1).all()
    ins = [i for i in launch.streams[0] if i.op == "fill"][-1]
    assert ins.pipe is asc.Pipe.MTE2 and ins.cost.bytes == 96 and ins.writes[0].length == 5 * 32


def test_fill_l0a_l0b_and_the_old_name(run) -> None:
    _, (out,) = run(fill_and_read, 1, np.zeros(1024, np.int32),
                    extra=(asc.TPosition.A2, asc.int32, 4096, P(2, 3, 1, 7), True))
    blocks = out.reshape(8, 128)  # 512 B blocks
    assert (blocks[[0, 1, 2, 4, 5, 6]] == 7).all() and (blocks[[3, 7]] == -1).all()
    launch, (out,) = run(fill_and_read, 1, np.zeros(256, np.uint16),
                         extra=(asc.TPosition.B2, asc.uint16, 512,
                                P(repeat_times=1, block_num=1, init_value=9), False))
    assert (out == 9).all()
    assert [i.pipe for i in launch.streams[0] if i.op == "fill"][-1] is asc.Pipe.MTE1


def test_fill_noop_and_faults(run) -> None:
    _, (out,) = run(fill_and_read, 1, np.zeros(16, np.float16), extra=(asc.TPosition.A1, asc.float16, 32,
                                                                       P(0, 1, 0, 3.0), False))
    assert (out == -1).all()  # repeat_times 0: nothing
    # past its 32 B buffer but inside L1: legal on the device (the neighbouring bytes), noted
    with pytest.warns(asc.KernelSanitizerWarning, match="write past a local buffer"):
        run(fill_and_read, 1, np.zeros(16, np.float16), extra=(asc.TPosition.A1, asc.float16, 32,
                                                               P(2, 1, 0, 3.0), False))
    with pytest.raises(TaskError) as info:  # past L1 itself: a fault
        run(fill_and_read, 1, np.zeros(16, np.float16), extra=(asc.TPosition.A1, asc.float16, 32,
                                                               P(32767, 1, 32767, 3.0), False))
    e = info.value.cause
    assert isinstance(e, errors.LocalOutOfRangeError) and e.code == errors.ACL_ERROR_RT_AICORE_EXCEPTION
    with pytest.raises(TaskError, match="dst_gap are in 0..32767"):
        run(fill_and_read, 1, np.zeros(16, np.float16), extra=(asc.TPosition.A1, asc.float16, 32,
                                                               P(1, 1, 40000, 3.0), False))
    with pytest.raises(TaskError, match="fill: dst is in UB; fill takes it in L1/L0A/L0B"):
        run(fill_and_read, 1, np.zeros(16, np.float16), extra=(asc.TPosition.VECCALC, asc.float16, 32,
                                                               P(1, 1, 0, 3.0), False))


def test_fill_on_310p_repeats_only(run) -> None:
    @asc.kernel(chip="310P")
    def k(bad, p):
        pipe = asc.TPipe()
        b = asc.TBuf(asc.TPosition.A1)
        pipe.init_buffer(b, 2048)
        t = b.get(asc.float16)
        asc.fill(t, P(4, 1, 0, -1.0))
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.fill(t, P(2, 5, 9, 1.0))  # block_num and dst_gap do not count there: 2 x 512 B
        asc.pipe_barrier(asc.PIPE_ALL)
        g = asc.GlobalTensor(asc.float16)
        g.set_global_buffer(p)
        g.set_value(0, t.get_value(255))
        g.set_value(1, t.get_value(511))
        g.set_value(2, t.get_value(512))
        if bad:
            asc.fill(t.reinterpret_cast(asc.float32), P(1, 1, 0, 1.0))

    _, (out,) = run(k, 1, np.zeros(16, np.float16), extra=(False,))
    assert out[:3].tolist() == [1.0, 1.0, -1.0]  # 2 x 512 B: half elements 0..511
    with pytest.raises(TaskError, match="fill: float32 is not filled on 310P"):
        run(k, 1, np.zeros(16, np.float16), extra=(True,))


def test_fill_global_memory(run) -> None:
    @asc.kernel
    def k(p):
        asc.TPipe()
        g = asc.GlobalTensor(asc.float32)
        g.set_global_buffer(p)
        asc.fill(g[asc.get_block_idx() * 100], 100, float(asc.get_block_idx()))

    _, (out,) = run(k, 2, np.zeros(200, np.float32))
    assert out.tolist() == [0.0] * 100 + [1.0] * 100
