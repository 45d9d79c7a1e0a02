"""LogSoftMax over the rows of a matrix with the high-level API: ``dst = log10(softmax(x))`` by row,
with each row's sum and max as 32 B blocks.

Each block copies its rows in, calls ``log_soft_max`` with a work buffer that holds 8 rows (so its
12 rows go as a split of 8 and a tail of 4) and a default ``LogSoftMaxTiling`` (the API takes its
splits from the work buffer; the shape comes from the ``SoftMaxShapeInfo``), and copies the three
results out.  Checked against a float64 NumPy reference.  ``examples/cpp/log_softmax.cpp`` is this
kernel in C++ (tests/ascendc/test_logsoftmax_cpp.py runs both).
"""

import numpy as np

import aclsim
import aclsim.kernel as asc

ROWS, COLS = 48, 160
BLOCKS = 4
ROWS_PER_BLOCK = ROWS // BLOCKS
BLK = 8  # floats of a 32 B block: each row's sum and max
TMP_ROWS = 8
TMP_BYTES = asc.get_log_soft_max_max_tmp_size((TMP_ROWS, COLS), 4)
F32 = asc.float32
P = asc.TPosition


@asc.kernel
def log_softmax(x, y, s, mx):
    pipe = asc.TPipe()
    q_in, q_out = asc.TQue(P.VECIN, 1), asc.TQue(P.VECOUT, 1)
    q_sum, q_max = asc.TQue(P.VECOUT, 1), asc.TQue(P.VECOUT, 1)
    pipe.init_buffer(q_in, 1, ROWS_PER_BLOCK * COLS * 4)
    pipe.init_buffer(q_out, 1, ROWS_PER_BLOCK * COLS * 4)
    pipe.init_buffer(q_sum, 1, ROWS_PER_BLOCK * BLK * 4)
    pipe.init_buffer(q_max, 1, ROWS_PER_BLOCK * BLK * 4)
    tmp_buf = asc.TBuf(P.VECCALC)
    pipe.init_buffer(tmp_buf, TMP_BYTES)
    gx, gy, gs, gm = (asc.GlobalTensor(F32) for _ in range(4))
    block = asc.get_block_idx()
    gx.set_global_buffer(x.cast(F32) + block * ROWS_PER_BLOCK * COLS, ROWS_PER_BLOCK * COLS)
    gy.set_global_buffer(y.cast(F32) + block * ROWS_PER_BLOCK * COLS, ROWS_PER_BLOCK * COLS)
    gs.set_global_buffer(s.cast(F32) + block * ROWS_PER_BLOCK * BLK, ROWS_PER_BLOCK * BLK)
    gm.set_global_buffer(mx.cast(F32) + block * ROWS_PER_BLOCK * BLK, ROWS_PER_BLOCK * BLK)
    t = q_in.alloc_tensor(F32)
    asc.data_copy(t, gx, ROWS_PER_BLOCK * COLS)
    q_in.enque(t)
    t = q_in.deque(F32)
    out, ts, tm = q_out.alloc_tensor(F32), q_sum.alloc_tensor(F32), q_max.alloc_tensor(F32)
    tiling = asc.LogSoftMaxTiling()
    shape = asc.SoftMaxShapeInfo(ROWS_PER_BLOCK, COLS, ROWS_PER_BLOCK, COLS)
    asc.log_soft_max(out, ts, tm, t, tmp_buf.get(asc.uint8), tiling, shape)
    q_in.free_tensor(t)
    q_out.enque(out)
    q_sum.enque(ts)
    q_max.enque(tm)
    for q, g, n in ((q_out, gy, ROWS_PER_BLOCK * COLS), (q_sum, gs, ROWS_PER_BLOCK * BLK),
                    (q_max, gm, ROWS_PER_BLOCK * BLK)):
        o = q.deque(F32)
        asc.data_copy(g, o, n)
        q.free_tensor(o)


def reference(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """log10 of the row softmax, the row sums of exp(x - max) and the row maxima, in float64."""
    xd = x.astype(np.float64)
    mx = xd.max(axis=1, keepdims=True)
    e = np.exp(xd - mx)
    s = e.sum(axis=1, keepdims=True)
    return np.log10(e / s), s, mx


def main() -> None:
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    x = (np.random.default_rng(1).standard_normal((ROWS, COLS)) * 4).astype(np.float32)
    outs = [np.zeros_like(x), np.zeros((ROWS, BLK), np.float32), np.zeros((ROWS, BLK), np.float32)]
    dx = aclsim.malloc(x.nbytes)
    dev = [aclsim.malloc(o.nbytes) for o in outs]
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    launch = log_softmax[BLOCKS, None](dx, *dev)
    aclsim.synchronize_device()
    for o, d in zip(outs, dev, strict=True):
        aclsim.memcpy(o, o.nbytes, d, o.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    want_y, want_s, want_mx = reference(x)
    np.testing.assert_allclose(outs[0], want_y, rtol=2e-6, atol=2e-6)
    np.testing.assert_allclose(outs[1], np.repeat(want_s, BLK, axis=1), rtol=2e-6)
    assert np.array_equal(outs[2], np.repeat(want_mx, BLK, axis=1).astype(np.float32))
    report = launch.report
    print(f"log_softmax {ROWS}x{COLS} on {BLOCKS} blocks: {report.microseconds:.2f} us, bottleneck "
          f"{report.bottleneck.track_name}, {sum(report.instruction_counts().values())} instructions")
    for d in (dx, *dev):
        aclsim.free(d)
    aclsim.reset_device(0)
    assert aclsim.finalize() == []
    print("PASS")


if __name__ == "__main__":
    main()
