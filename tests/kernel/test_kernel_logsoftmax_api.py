"""The high-level LogSoftMax API against a float64 NumPy reference (half and float, splits and tails,
a reduction over a prefix of the columns), its recorded instructions, its tiling functions and its
refusals."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.compiler import verify_sync
from aclsim.isa import Pipe

P = asc.TPosition


@asc.kernel
def lsm_kernel(m, k, dt, tmp_bytes, tiling, shape, x, y, s, mx):
    """CopyIn, LogSoftMax, CopyOut (one tile of all rows), as the API's example does."""
    pipe = asc.TPipe()
    q_in, q_out = asc.TQue(P.VECIN, 1), asc.TQue(P.VECOUT, 1)
    q_sum, q_max = asc.TQue(P.VECOUT, 1), asc.TQue(P.VECOUT, 1)
    isz = np.dtype(dt).itemsize
    blk = 32 // isz
    pipe.init_buffer(q_in, 1, m * k * isz)
    pipe.init_buffer(q_out, 1, m * k * isz)
    pipe.init_buffer(q_sum, 1, m * blk * isz)
    pipe.init_buffer(q_max, 1, m * blk * isz)
    tb = asc.TBuf(P.VECCALC)
    pipe.init_buffer(tb, tmp_bytes)
    gx, gy, gs, gm = (asc.GlobalTensor(dt) for _ in range(4))
    for g, p in ((gx, x), (gy, y), (gs, s), (gm, mx)):
        g.set_global_buffer(p)
    t = q_in.alloc_tensor(dt)
    asc.data_copy(t, gx, m * k)
    q_in.enque(t)
    t = q_in.deque(dt)
    out, ts, tm = q_out.alloc_tensor(dt), q_sum.alloc_tensor(dt), q_max.alloc_tensor(dt)
    extra = () if shape is None else (shape,)
    asc.log_soft_max(out, ts, tm, t, tb.get(asc.uint8), tiling, *extra)
    q_in.free_tensor(t)
    q_out.enque(out)
    q_sum.enque(ts)
    q_max.enque(tm)
    for q, g, n in ((q_out, gy, m * k), (q_sum, gs, m * blk), (q_max, gm, m * blk)):
        o = q.deque(dt)
        asc.data_copy(g, o, n)
        q.free_tensor(o)


def reference(x: np.ndarray, cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """float64: log10(exp(x - max) / sum) over all columns, max and sum over the first ``cols``."""
    xd = x.astype(np.float64)
    mx = xd[:, :cols].max(axis=1, keepdims=True)
    e = np.exp(xd - mx)
    s = e[:, :cols].sum(axis=1, keepdims=True)
    return np.log10(e / s), s, mx


def _launch(run, x: np.ndarray, tmp_bytes: int, tiling: asc.LogSoftMaxTiling, shape: object) -> tuple:
    m, k = x.shape
    blk = 32 // x.dtype.itemsize
    outs = (np.zeros((m, k), x.dtype), np.zeros((m, blk), x.dtype), np.zeros((m, blk), x.dtype))
    launch, (_, y, s, mx) = run(lsm_kernel, 1, x, *outs, extra=(m, k, x.dtype, tmp_bytes, tiling, shape))
    return launch, y, s, mx


@pytest.mark.parametrize(
    "m, k, dt, tmp_rows, ori_k",
    [
        (8, 64, np.float32, 8, 64),  # one repeat per row, one split
        (20, 200, np.float32, 8, 200),  # 64-lane chunks and an 8-lane tail; splits of 8, tail of 4
        (13, 48, np.float16, 13, 48),  # half, rows not a multiple of 8
        (16, 160, np.float16, 5, 160),  # half, splits of 5 and a tail of 1
        (6, 96, np.float32, 6, 72),  # oriSrcK < srcK: max and sum over the first 72 columns
        (3, 16, np.float32, 1, 16),  # the least buffer: one row per split
    ],
)
def test_log_softmax_against_float64(run, m, k, dt, tmp_rows, ori_k) -> None:
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((m, k)) * 3).astype(dt)
    isz = np.dtype(dt).itemsize
    tmp_bytes = asc.get_log_soft_max_max_tmp_size((tmp_rows, k), isz)
    shape = asc.SoftMaxShapeInfo(m, k, m, ori_k)
    launch, y, s, mx = _launch(run, x, tmp_bytes, asc.LogSoftMaxTiling(), shape)
    want, ws, wm = reference(x, ori_k)
    blk = 32 // isz
    if dt == np.float32:  # a few float32 ulps (ln, muls, exp and the sums round on the way)
        np.testing.assert_allclose(y, want, rtol=4e-6, atol=4e-7)
        np.testing.assert_allclose(s, np.broadcast_to(ws, (m, blk)), rtol=2e-6)
    else:  # the result rounded to half once, computed in float32
        np.testing.assert_allclose(y.astype(np.float64), want, rtol=1e-3, atol=2e-3)
        np.testing.assert_allclose(s.astype(np.float64), np.broadcast_to(ws, (m, blk)), rtol=1e-3)
    np.testing.assert_array_equal(mx.astype(np.float64), np.broadcast_to(wm, (m, blk)))
    for stream in launch.streams:
        assert verify_sync(stream).ok


def test_half_result_is_the_float32_result_rounded(run) -> None:
    """half goes through float32: the result is the float32 computation of the half input, rounded."""
    x = (np.random.default_rng(4).standard_normal((8, 32)) * 2).astype(np.float16)
    _, y, s, mx = _launch(run, x, asc.get_log_soft_max_max_tmp_size((8, 32), 2), asc.LogSoftMaxTiling(),
                          asc.SoftMaxShapeInfo(8, 32, 8, 32))
    _, y32, s32, mx32 = _launch(run, x.astype(np.float32), asc.get_log_soft_max_max_tmp_size((8, 32), 4),
                                asc.LogSoftMaxTiling(), asc.SoftMaxShapeInfo(8, 32, 8, 32))
    assert np.array_equal(y.view(np.uint16), y32.astype(np.float16).view(np.uint16))
    assert np.array_equal(s[:, :8].view(np.uint16), s32.astype(np.float16).view(np.uint16))
    assert np.array_equal(mx[:, 0], mx32[:, 0].astype(np.float16))


def test_shape_from_the_tiling_and_the_documented_example(run) -> None:
    """Without a SoftMaxShapeInfo the tiling gives the shape; the reference's example rows give its
    printed outputs (base-10 logarithm)."""
    x = np.array([[-100, -80, -60, -50, -30, -20, -15, -10], [-9, -8, -7, -6, -5, -4, -3, -2],
                  [-1.5, -1, -0.8, -0.6, -0.5, -0.45, -0.4, -0.35], [9, 10, 15, 20, 30, 50, 60, 80]],
                 np.float32)
    tiling = asc.LogSoftMaxTiling()
    tmp = asc.get_log_soft_max_min_tmp_size((4, 8), 4)
    asc.log_soft_max_tiling_func((4, 8), 4, tmp, tiling)
    _, y, s, mx = _launch(run, x, tmp, tiling, None)
    np.testing.assert_allclose(y[0, [0, 7]], [-39.08944, -0.00293603], rtol=1e-5)
    np.testing.assert_allclose(y[2, [0, 7]], [-1.2755501, -0.77611154], rtol=1e-5)
    np.testing.assert_allclose(s[:, 0], [1.0067834, 1.5814459, 5.971886, 1.0], rtol=1e-6)
    assert list(mx[:, 0]) == [-10, -2, np.float32(-0.35), 80]


def test_recorded_instructions(run) -> None:
    """All on PIPE_V: the softmax steps, then ln and muls over the rows in the work buffer, the
    result written to dst; every recorded access inside the operands."""
    m, k = 4, 64
    x = np.random.default_rng(5).standard_normal((m, k)).astype(np.float32)
    tmp = asc.get_log_soft_max_max_tmp_size((m, k), 4)
    launch, *_ = _launch(run, x, tmp, asc.LogSoftMaxTiling(), asc.SoftMaxShapeInfo(m, k, m, k))
    ops = [i for i in launch.streams[0] if i.pipe is Pipe.V]
    names = [i.op for i in ops]
    first = names.index("data_copy")
    body = [n for n in names[first:] if n != "pipe_barrier"]
    assert body[:2] == ["data_copy", "whole_reduce_max"] and body.count("exp") == 1
    ln_i, muls_i = names.index("ln"), names.index("muls")
    assert ln_i < muls_i and names[ln_i + 1] == "pipe_barrier" and names[muls_i + 1] == "pipe_barrier"
    ln_ins, muls_ins = ops[ln_i], ops[muls_i]
    assert ln_ins.reads == ln_ins.writes == muls_ins.reads == muls_ins.writes
    assert [w.length for w in ln_ins.writes] == [m * k * 4]  # the float rows of the split, in place
    assert ln_ins.cost.repeats == muls_ins.cost.repeats == m * k * 4 // 256


def test_tiling_fields_and_tmp_sizes() -> None:
    t = asc.LogSoftMaxTiling()
    asc.log_soft_max_tiling_func((4, 80, 64), 2, asc.get_log_soft_max_max_tmp_size((320, 64), 2), t)
    assert (t.src_m, t.src_k, t.src_size) == (320, 64, 320 * 64)
    assert (t.out_max_m, t.out_max_k, t.out_max_size) == (320, 16, 320 * 16)
    assert (t.split_m, t.split_k, t.split_size) == (248, 64, 248 * 64)  # <= 255 rows, a multiple of 8
    assert (t.reduce_m, t.reduce_k, t.reduce_size) == (248, 16, 248 * 16)
    assert (t.range_m, t.tail_m, t.tail_split_size, t.tail_reduce_size) == (1, 72, 72 * 64, 72 * 16)
    small = asc.LogSoftMaxTiling()
    asc.log_soft_max_tiling_func((320, 64), 4, asc.get_log_soft_max_min_tmp_size((320, 64), 4), small)
    assert small.split_m == 1 and small.range_m == 320 and small.tail_m == 0
    # the least buffer holds one row: the row, its 64 partial lanes, 8 rows of max/sum blocks and values
    assert asc.get_log_soft_max_min_tmp_size((320, 64), 4) == (64 + 64 + 8 * (8 + 1)) * 4
    assert asc.get_log_soft_max_max_tmp_size((16, 64), 2) == (16 * 128 + 16 * (16 + 1)) * 4
    with pytest.raises(ValueError, match="32 B"):
        asc.get_log_soft_max_min_tmp_size((8, 12), 2)
    with pytest.raises(ValueError, match="half"):
        asc.get_log_soft_max_max_tmp_size((8, 16), 8)
    with pytest.raises(ValueError, match="GetLogSoftMaxMinTmpSize"):
        asc.log_soft_max_tiling_func((8, 64), 4, 16, small)


@asc.kernel
def lsm_misuse(what, x):
    pipe = asc.TPipe()
    buf = asc.TBuf(P.VECCALC)
    pipe.init_buffer(buf, 4 * 64 * 4 * 2 + 2 * 4 * 8 * 4)
    f = buf.get(asc.float32)
    src, dst, s, mx = f[0:256], f[256:512], f[512:544], f[544:576]
    tb = asc.TBuf(P.VECCALC)
    pipe.init_buffer(tb, asc.get_log_soft_max_max_tmp_size((4, 64), 4))
    tmp = tb.get(asc.uint8)
    shape = asc.SoftMaxShapeInfo(4, 64, 4, 64)
    tiling = asc.LogSoftMaxTiling()
    if what == "nz":
        asc.log_soft_max(dst, s, mx, src, tmp, tiling, shape, is_data_format_nz=True)
    elif what == "overlap":
        asc.log_soft_max(src, s, mx, src, tmp, tiling, shape)
    elif what == "small-tmp":
        asc.log_soft_max(dst, s, mx, src, tmp[0:64], tiling, shape)
    elif what == "no-shape":
        asc.log_soft_max(dst, s, mx, src, tmp, tiling)
    elif what == "dtype":
        asc.log_soft_max(dst, s.reinterpret_cast(asc.float16), mx, src, tmp, tiling, shape)
    elif what == "short-src":
        asc.log_soft_max(dst, s, mx, src[0:128], tmp, tiling, shape)
    elif what == "softmax-tiling":
        asc.log_soft_max(dst, s, mx, src, tmp, asc.SoftMaxTiling(), shape)
    elif what == "align":
        asc.log_soft_max(dst, s, mx, src, tmp, tiling, asc.SoftMaxShapeInfo(4, 60, 4, 60))
    else:
        asc.log_soft_max(dst, s, mx, src, tmp, tiling, asc.SoftMaxShapeInfo(4, 64, 4, 72))


@pytest.mark.parametrize(
    "what, exc, match",
    [
        ("nz", errors.FeatureNotSupportedError, "NZ"),
        ("overlap", ValueError, "overlap"),
        ("small-tmp", ValueError, "get_log_soft_max_min_tmp_size"),
        ("no-shape", ValueError, "SoftMaxShapeInfo"),
        ("dtype", TypeError, "src's type"),
        ("short-src", ValueError, "src holds 128"),
        ("softmax-tiling", TypeError, "needs a LogSoftMaxTiling"),
        ("align", ValueError, "32 B"),
        ("ori", ValueError, "ori_src_k 72"),
    ],
)
def test_log_softmax_misuse(run, what, exc, match) -> None:
    with pytest.raises(errors.TaskError) as info:
        run(lsm_misuse, 1, np.zeros(16, np.float32), extra=(what,))
    cause = info.value.cause
    assert isinstance(cause, exc) and match in str(cause)
    assert cause.line > 0 and cause.file.endswith("test_kernel_logsoftmax_api.py")


@asc.kernel
def lsm_tails(x, y):
    """The operands as ``operator[]`` makes them: each runs on to the end of one buffer (legal: the
    parts the call uses are apart), the work buffer the same way."""
    pipe = asc.TPipe()
    buf = asc.TBuf(P.VECCALC)
    pipe.init_buffer(buf, (2 * 4 * 64 + 2 * 4 * 8) * 4 + asc.get_log_soft_max_max_tmp_size((4, 64), 4))
    f = buf.get(asc.float32)
    src, dst, s, mx = f[0], f[256], f[512], f[544]
    tmp = f[576].reinterpret_cast(asc.uint8)
    gx, gy = asc.GlobalTensor(asc.float32), asc.GlobalTensor(asc.float32)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    asc.data_copy(src, gx, 256)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.log_soft_max(dst, s, mx, src, tmp, asc.LogSoftMaxTiling(), asc.SoftMaxShapeInfo(4, 64, 4, 64))
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.data_copy(gy, dst, 256)


def test_operands_running_to_the_end_of_one_buffer(run) -> None:
    x = np.random.default_rng(6).standard_normal((4, 64)).astype(np.float32)
    _, (_, y) = run(lsm_tails, 1, x, np.zeros_like(x))
    np.testing.assert_allclose(y, reference(x, 64)[0], rtol=4e-6, atol=4e-7)
