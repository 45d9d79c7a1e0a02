"""Softmax over the rows of a matrix: reductions on the vector unit, scalar work in between.

Per row: copy in, ReduceMax, read the max on the scalar pipe (after a V -> S flag), subtract
it, Exp, ReduceSum, read the sum, multiply by its reciprocal, copy out.  Checked against
NumPy to float32 precision.
"""

import numpy as np

import aclsim
import aclsim.kernel as asc
from aclsim.isa import HardEvent

ROWS, COLS = 32, 512
BLOCKS = 8
ROWS_PER_BLOCK = ROWS // BLOCKS
F32 = asc.float32


@asc.kernel
def softmax(x, y):
    pipe = asc.TPipe()
    q_in, q_out = asc.TQue(asc.TPosition.VECIN, 1), asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(q_in, 2, COLS * 4)
    pipe.init_buffer(q_out, 2, COLS * 4)
    calc = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(calc, 64 * 4)
    gx, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    base = asc.get_block_idx() * ROWS_PER_BLOCK * COLS
    gx.set_global_buffer(x.cast(F32) + base, ROWS_PER_BLOCK * COLS)
    gy.set_global_buffer(y.cast(F32) + base, ROWS_PER_BLOCK * COLS)
    v_s = pipe.alloc_event_id(HardEvent.V_S)  # a V -> S event id of our own
    for r in range(ROWS_PER_BLOCK):
        t = q_in.alloc_tensor(F32)
        asc.data_copy(t, gx[r * COLS], COLS)
        q_in.enque(t)
        t = q_in.deque(F32)
        scratch = calc.get(F32)
        red, work = scratch[0], scratch[8]
        asc.reduce_max(red, t, work, COLS)
        asc.set_flag(HardEvent.V_S, v_s)
        asc.wait_flag(HardEvent.V_S, v_s)
        row_max = float(red.get_value(0))  # scalar pipe
        o = q_out.alloc_tensor(F32)
        asc.adds(o, t, -row_max, COLS)
        asc.pipe_barrier(asc.PIPE_V)
        asc.exp(o, o, COLS)
        asc.pipe_barrier(asc.PIPE_V)
        asc.reduce_sum(red, o, work, COLS)
        asc.set_flag(HardEvent.V_S, v_s)
        asc.wait_flag(HardEvent.V_S, v_s)
        inv = 1.0 / float(red.get_value(0))
        asc.muls(o, o, inv, COLS)
        q_in.free_tensor(t)
        q_out.enque(o)
        o = q_out.deque(F32)
        asc.data_copy(gy[r * COLS], o, COLS)
        q_out.free_tensor(o)
    pipe.release_event_id(HardEvent.V_S, v_s)


def main() -> None:
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    x = np.random.default_rng(1).standard_normal((ROWS, COLS)).astype(np.float32) * 4
    y = np.zeros_like(x)
    dx, dy = aclsim.malloc(x.nbytes), aclsim.malloc(y.nbytes)
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    launch = softmax[BLOCKS, None](dx, dy)
    aclsim.synchronize_device()
    aclsim.memcpy(y, y.nbytes, dy, y.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    ref = e / e.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(y, ref, rtol=1e-5, atol=1e-7)
    assert np.allclose(y.sum(axis=1), 1, atol=1e-5)
    report = launch.report
    counts = report.instruction_counts()
    print(f"softmax {ROWS}x{COLS} on {BLOCKS} blocks: {report.microseconds:.2f} us, bottleneck "
          f"{report.bottleneck.track_name}; instructions per pipe: "
          + ", ".join(f"{p.track_name} {n}" for p, n in counts.items() if n))
    aclsim.free(dx)
    aclsim.free(dy)
    aclsim.reset_device(0)
    assert aclsim.finalize() == []
    print("PASS")


if __name__ == "__main__":
    main()
