"""The high-level SoftMax API against NumPy (half and float, splits and tails, max/sum outputs, the
framework-allocated and the shared work buffer), its tiling functions, its faults."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.compiler import verify_sync

P = asc.TPosition


@asc.kernel
def softmax_kernel(m, k, dt, out_dt, tiling, tmp_bytes, with_outs, x, y, s, mx):
    """CopyIn, SoftMax, CopyOut as the SoftMax samples do (one tile of all rows)."""
    pipe = asc.TPipe()
    q_in, q_out = asc.TQue(P.VECIN, 1), asc.TQue(P.VECOUT, 1)
    q_sum, q_max = asc.TQue(P.VECOUT, 1), asc.TQue(P.VECOUT, 1)
    isz, blk = np.dtype(dt).itemsize, 32 // np.dtype(out_dt).itemsize
    pipe.init_buffer(q_in, 1, m * k * isz)
    pipe.init_buffer(q_out, 1, m * k * isz)
    pipe.init_buffer(q_sum, 1, m * blk * np.dtype(out_dt).itemsize)
    pipe.init_buffer(q_max, 1, m * blk * np.dtype(out_dt).itemsize)
    gx, gy = asc.GlobalTensor(dt), asc.GlobalTensor(dt)
    gs, gm = asc.GlobalTensor(out_dt), asc.GlobalTensor(out_dt)
    for g, p in ((gx, x), (gy, y), (gs, s), (gm, mx)):
        g.set_global_buffer(p)
    t = q_in.alloc_tensor(dt)
    asc.data_copy(t, gx, m * k)
    q_in.enque(t)
    t = q_in.deque(dt)
    out, ts, tm = q_out.alloc_tensor(dt), q_sum.alloc_tensor(out_dt), q_max.alloc_tensor(out_dt)
    shape = asc.SoftMaxShapeInfo(m, k, m, k)
    tmp = ()
    if tmp_bytes:
        buf = asc.TBuf(P.VECCALC)
        pipe.init_buffer(buf, tmp_bytes)
        tmp = (buf.get(asc.uint8),)
    if with_outs:
        asc.soft_max(out, ts, tm, t, *tmp, tiling, shape)
    else:
        asc.soft_max(out, t, *tmp, tiling)
    q_out.enque(out)
    q_sum.enque(ts)
    q_max.enque(tm)
    q_in.free_tensor(t)
    for q, g, n, d in ((q_out, gy, m * k, dt), (q_sum, gs, m * blk, out_dt), (q_max, gm, m * blk, out_dt)):
        o = q.deque(d)
        asc.data_copy(g, o, n)
        q.free_tensor(o)


def reference(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xf = x.astype(np.float32)
    mx = xf.max(axis=-1, keepdims=True)
    e = np.exp(xf - mx)
    s = e.sum(axis=-1, keepdims=True)
    return e / s, s, mx


@pytest.mark.parametrize(
    "m, k, dt, out_dt, tmp_rows, with_outs",
    [
        (8, 64, np.float32, np.float32, None, True),  # one repeat per row
        (20, 200, np.float32, np.float32, 8, True),  # 64-lane chunks and a 8-lane tail; splits of 8 + tail 4
        (13, 48, np.float16, np.float16, 13, True),  # half, rows not a multiple of 8
        (16, 160, np.float16, np.float32, 5, True),  # half in, float sum/max
        (10, 32, np.float16, np.float16, None, False),  # SoftMax(dst, src, tiling)
    ],
)
def test_softmax_against_numpy(run, m, k, dt, out_dt, tmp_rows, with_outs) -> None:
    rng = np.random.default_rng(1)
    x = (rng.standard_normal((m, k)) * 3).astype(dt)
    osz = np.dtype(out_dt).itemsize
    tiling = asc.SoftMaxTiling()
    if tmp_rows is None:  # the framework's buffer: all rows at once
        tmp_bytes = 0
        asc.soft_max_tiling_func((m, k), osz, asc.get_soft_max_max_tmp_size((m, k), osz), tiling)
    else:
        tmp_bytes = asc.get_soft_max_min_tmp_size((m, k), osz) * tmp_rows
        asc.soft_max_tiling_func((m, k), osz, tmp_bytes, tiling)
        assert 1 < tiling.split_m <= m and tiling.range_m * tiling.split_m + tiling.tail_m == m
    blk = 32 // osz
    outs = (np.zeros((m, k), dt), np.zeros((m, blk), out_dt), np.zeros((m, blk), out_dt))
    launch, (_, y, s, mx) = run(
        softmax_kernel,
        1,
        x,
        *outs,
        extra=(m, k, np.dtype(dt), np.dtype(out_dt), tiling, tmp_bytes, with_outs),
    )
    want, ws, wm = reference(x)
    tol = dict(rtol=1e-5, atol=1e-6) if dt == np.float32 else dict(rtol=2e-3, atol=1e-4)
    np.testing.assert_allclose(y.astype(np.float32), want, **tol)
    if with_outs:
        np.testing.assert_allclose(s.astype(np.float32), np.broadcast_to(ws, (m, blk)), rtol=2e-3)
        np.testing.assert_array_equal(mx.astype(np.float32), np.broadcast_to(wm, (m, blk)))
    for stream in launch.streams:
        assert verify_sync(stream).ok


def test_softmax_tiling_fields() -> None:
    t = asc.SoftMaxTiling()
    asc.soft_max_tiling_func((4, 80, 64), 2, asc.get_soft_max_max_tmp_size((320, 64), 2), t)
    assert (t.src_m, t.src_k, t.src_size) == (320, 64, 320 * 64)
    assert (t.out_max_m, t.out_max_k, t.out_max_size) == (320, 16, 320 * 16)
    assert (
        t.split_m == 248 and t.split_k == 64 and t.split_size == 248 * 64
    )  # at most 255 rows, a multiple of 8
    assert (t.reduce_m, t.reduce_k, t.range_m, t.tail_m) == (248, 16, 1, 72)
    assert (t.tail_split_size, t.tail_reduce_size) == (72 * 64, 72 * 16)
    small = asc.SoftMaxTiling()
    asc.soft_max_tiling_func((320, 64), 4, asc.get_soft_max_min_tmp_size((320, 64), 4), small)
    assert small.split_m == 1 and small.range_m == 320 and small.tail_m == 0
    assert asc.get_soft_max_min_tmp_size((320, 64), 4) < asc.get_soft_max_max_tmp_size((320, 64), 4)
    with pytest.raises(ValueError, match="32 B"):
        asc.get_soft_max_min_tmp_size((8, 12), 2)
    with pytest.raises(ValueError, match="half"):
        asc.soft_max_tiling_func((8, 16), 8, 4096, small)
    with pytest.raises(ValueError, match="GetSoftMaxMinTmpSize"):
        asc.soft_max_tiling_func((8, 64), 4, 16, small)


@asc.kernel
def softmax_misuse(tiling, what, x):
    pipe = asc.TPipe()
    buf = asc.TBuf(P.VECCALC)
    pipe.init_buffer(buf, 8 * 64 * 4)
    t = buf.get(asc.float32)
    if what == "nz":
        asc.soft_max(t, t, tiling, is_data_format_nz=True)
    elif what == "shape":
        asc.soft_max(t, t, tiling, asc.SoftMaxShapeInfo(4, 64, 4, 64))
    elif what == "small-tmp":
        tb = asc.TBuf(P.VECCALC)
        pipe.init_buffer(tb, 64)
        asc.soft_max(t, t, tb.get(asc.uint8), tiling)
    else:
        asc.soft_max(t, tiling)


@pytest.mark.parametrize(
    "what, exc, match",
    [
        ("nz", errors.FeatureNotSupportedError, "NZ"),
        ("shape", ValueError, "tiling is for"),
        ("small-tmp", ValueError, "work buffer"),
        ("args", TypeError, "LocalTensors"),
    ],
)
def test_softmax_misuse(run, what, exc, match) -> None:
    tiling = asc.SoftMaxTiling()
    asc.soft_max_tiling_func((8, 64), 4, asc.get_soft_max_max_tmp_size((8, 64), 4), tiling)
    with pytest.raises(errors.TaskError) as info:
        run(softmax_misuse, 1, np.zeros(16, np.float32), extra=(tiling, what))
    assert isinstance(info.value.cause, exc) and match in str(info.value.cause)
