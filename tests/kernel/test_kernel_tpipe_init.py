"""TPipe.Init: the documented reuse (Destroy, Init, InitBuffer again) and Init on a live TPipe."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.errors import TaskError
from aclsim.isa import HardEvent

F32 = asc.float32
N = 64


def line_of(marker: str) -> int:
    lines = Path(__file__).read_text().splitlines()
    return next(i for i, s in enumerate(lines, 1) if s.rstrip().endswith(marker))


def launch_fault(run, kern, *arrays, extra=()) -> BaseException:
    with pytest.raises(TaskError) as info:
        run(kern, 1, *arrays, extra=extra)
    return info.value.cause


def _pass(pipe, q_in, q_out, gx, gy, i, add):
    pipe.init_buffer(q_in, 1, N * 4)
    pipe.init_buffer(q_out, 1, N * 4)
    t = q_in.alloc_tensor(F32)
    asc.data_copy(t, gx[i * N], N)
    q_in.enque(t)
    t = q_in.deque(F32)
    u = q_out.alloc_tensor(F32)
    asc.adds(u, t, add, N)
    q_out.enque(u)
    q_in.free_tensor(t)
    u = q_out.deque(F32)
    asc.data_copy(gy[i * N], u, N)
    q_out.free_tensor(u)
    return u


@asc.kernel
def reuse(misuse, x, y):
    pipe = asc.TPipe()
    q_in, q_out = asc.TQue(asc.TPosition.VECIN, 1), asc.TQue(asc.TPosition.VECOUT, 1)
    gx, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    u = _pass(pipe, q_in, q_out, gx, gy, 0, 1.0)
    pipe.destroy()
    pipe.init()  # the page's reuse: Destroy, then Init, then the same queues' InitBuffer again
    if misuse == "queue":
        q_in.alloc_tensor(F32)  # STALE-QUEUE
    if misuse == "tensor":
        asc.adds(u, u, 1.0, N)  # STALE-TENSOR
    _pass(pipe, q_in, q_out, gx, gy, 1, 2.0)


def test_destroy_then_init_reuses_the_tpipe_and_its_queues(run) -> None:
    x = np.arange(2 * N, dtype=np.float32)
    _, (_, y) = run(reuse, 1, x, np.zeros_like(x), extra=("",))
    np.testing.assert_array_equal(y, np.concatenate([x[:N] + 1, x[N:] + 2]))
    e = launch_fault(run, reuse, x, np.zeros_like(x), extra=("queue",))
    assert isinstance(e, errors.QueueError) and "used after its TPipe was destroyed" in str(e)
    assert e.line == line_of("# STALE-QUEUE")
    e = launch_fault(run, reuse, x, np.zeros_like(x), extra=("tensor",))
    assert "released by TPipe.destroy" in str(e) and e.line == line_of("# STALE-TENSOR")


def test_init_on_a_live_tpipe_frees_the_pool_and_the_event_ids(run) -> None:
    seen: list = []

    @asc.kernel
    def live(x):
        pipe = asc.TPipe()
        ids = [pipe.alloc_event_id(HardEvent.MTE2_V), pipe.alloc_event_id(HardEvent.MTE2_V)]
        first = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(first, 256)
        old = first.get(F32)
        pipe.init()  # as pad_v3_grad_replication does: Init again on the constructed TPipe
        ids.append(pipe.alloc_event_id(HardEvent.MTE2_V))  # the pool starts again: id 0
        again = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(again, 128)
        seen.append((ids, again.get(F32).offset))
        asc.duplicate(old, 1.0, 64)  # OLD-TENSOR

    e = launch_fault(run, live, np.zeros(8, np.float32))
    assert seen == [([0, 1, 0], 0)]
    assert "released by TPipe.init" in str(e) and e.line == line_of("# OLD-TENSOR")


def test_init_while_another_tpipe_lives_faults(run) -> None:
    @asc.kernel
    def two(x):
        first = asc.TPipe()
        first.destroy()
        asc.TPipe()
        first.init()  # SECOND-ALIVE

    e = launch_fault(run, two, np.zeros(8, np.float32))
    assert isinstance(e, errors.QueueError) and "another TPipe is alive" in str(e)
    assert e.line == line_of("# SECOND-ALIVE")
