"""The high-level LayerNorm API ([B, S, H] -> output, mean, variance) against NumPy; its tiling; faults."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.compiler import verify_sync

P = asc.TPosition


@asc.kernel
def layernorm_kernel(bs, h, dt, tiling, tmp_bytes, eps, x, gamma, beta, y, mean, var):
    """The LayerNorm sample's shape: copy in x, gamma, beta; LayerNorm; copy out y, mean, variance."""
    pipe = asc.TPipe()
    isz = np.dtype(dt).itemsize
    bufs = {}
    for name, n in (("x", bs * h), ("g", h), ("b", h), ("y", bs * h), ("m", bs), ("v", bs)):
        buf = asc.TBuf(P.VECCALC)
        pipe.init_buffer(buf, n * isz)
        bufs[name] = buf.get(dt)
    gms = {}
    for name, p in (("x", x), ("g", gamma), ("b", beta), ("y", y), ("m", mean), ("v", var)):
        g = asc.GlobalTensor(dt)
        g.set_global_buffer(p)
        gms[name] = g
    for name, n in (("x", bs * h), ("g", h), ("b", h)):
        asc.data_copy(bufs[name], gms[name], n)
    asc.pipe_barrier(asc.PIPE_ALL)
    tmp = ()
    if tmp_bytes:
        tb = asc.TBuf(P.VECCALC)
        pipe.init_buffer(tb, tmp_bytes)
        tmp = (tb.get(asc.uint8),)
    asc.layer_norm(bufs["y"], bufs["m"], bufs["v"], bufs["x"], bufs["g"], bufs["b"], *tmp, eps, tiling)
    asc.pipe_barrier(asc.PIPE_ALL)
    for name, n in (("y", bs * h), ("m", bs), ("v", bs)):
        asc.data_copy_pad(gms[name], bufs[name], asc.DataCopyExtParams(1, n * isz, 0, 0, 0))


@pytest.mark.parametrize(
    "b, s, h, dt, tmp_rows",
    [
        (2, 4, 64, np.float32, None),  # one repeat per row, all rows in one round
        (3, 7, 200, np.float32, 8),  # 64-lane chunks and a tail; rounds of 8 rows and a tail
        (1, 5, 48, np.float16, 2),  # half
        (2, 9, 128, np.float16, None),
    ],
)
def test_layernorm_against_numpy(run, b, s, h, dt, tmp_rows) -> None:
    rng = np.random.default_rng(2)
    x = (rng.standard_normal((b, s, h)) * 2 + 0.5).astype(dt)
    gamma = rng.standard_normal(h).astype(dt)
    beta = rng.standard_normal(h).astype(dt)
    eps = 1e-5
    isz = np.dtype(dt).itemsize
    tiling = asc.LayerNormTiling()
    mx, mn = asc.get_layer_norm_max_min_tmp_size((b, s, h), isz)
    tmp_bytes = 0 if tmp_rows is None else mn * tmp_rows
    asc.get_layer_norm_nd_tiling_info((b, s, h), mx if tmp_rows is None else tmp_bytes, isz, False, tiling)
    bs = b * s
    outs = (np.zeros((b, s, h), dt), np.zeros((b, s), dt), np.zeros((b, s), dt))
    launch, res = run(
        layernorm_kernel, 1, x, gamma, beta, *outs, extra=(bs, h, np.dtype(dt), tiling, tmp_bytes, eps)
    )
    y, mean, var = res[3:]
    xf = x.astype(np.float32)
    wm = xf.mean(-1)
    wv = ((xf - wm[..., None]) ** 2).mean(-1)
    wy = (xf - wm[..., None]) / np.sqrt(wv[..., None] + eps) * gamma.astype(np.float32) + beta.astype(
        np.float32
    )
    tol = dict(rtol=1e-5, atol=1e-5) if dt == np.float32 else dict(rtol=2e-3, atol=2e-3)
    np.testing.assert_allclose(mean.astype(np.float32), wm, **tol)
    np.testing.assert_allclose(var.astype(np.float32), wv, **tol)
    np.testing.assert_allclose(
        y.astype(np.float32), wy, **(tol if dt == np.float32 else dict(rtol=5e-3, atol=1e-2))
    )
    for stream in launch.streams:
        assert verify_sync(stream).ok


def test_layernorm_tiling_fields() -> None:
    t = asc.LayerNormTiling()
    mx, mn = asc.get_layer_norm_max_min_tmp_size((2, 16, 64), 2)
    assert mn < mx
    asc.get_layer_norm_nd_tiling_info((2, 16, 64, 60), mn * 10, 2, False, t)
    assert (t.b_length, t.s_length, t.h_length, t.original_h_length) == (2, 16, 64, 60)
    assert (t.input_x_size, t.mean_var_size, t.number_of_tmp_buf) == (2 * 16 * 64, 32, 3)
    assert t.mean_tmp_tensor_size == t.variance_tmp_tensor_size == 32 and t.variance_tmp_tensor_pos == 32
    assert t.mean_var_round_size == 16 and t.one_tmp_size == 16 * 64  # rounds of a multiple of 8 rows
    assert (
        t.second_tmp_start_pos - t.first_tmp_start_pos
        == t.third_tmp_start_pos - t.second_tmp_start_pos
        == 1024
    )
    assert (t.loop_round, t.mean_var_tail_size, t.input_tail_size) == (2, 0, 0)
    assert t.third_tmp_start_pos + t.one_tmp_size <= t.tmp_buf_size
    assert t.last_dim_value_back == pytest.approx(1 / 60)
    f = asc.LayerNormTiling()
    asc.get_layer_norm_nd_tiling_info(
        (1, 20, 32), asc.get_layer_norm_max_min_tmp_size((1, 20, 32), 4)[0], 4, False, f
    )
    assert (f.mean_tmp_tensor_size, f.mean_var_round_size, f.loop_round, f.input_tail_size) == (0, 20, 1, 0)
    with pytest.raises(ValueError, match="32 B"):
        asc.get_layer_norm_max_min_tmp_size((2, 3, 12), 2)
    with pytest.raises(ValueError, match="no row"):
        asc.get_layer_norm_nd_tiling_info((2, 3, 16), 64, 2, False, f)


@asc.kernel
def layernorm_misuse(tiling, what, x):
    pipe = asc.TPipe()
    buf = asc.TBuf(P.VECCALC)
    pipe.init_buffer(buf, 4096)
    t = buf.get(asc.float32)
    if what == "types":
        asc.layer_norm(t, t, t, t, t, t.reinterpret_cast(asc.half), 1e-5, tiling)
    elif what == "empty":
        asc.layer_norm(t, t, t, t, t, t, 1e-5, asc.LayerNormTiling())
    else:
        asc.layer_norm(t, t, t, t, t, t, 1e-5)


@pytest.mark.parametrize(
    "what, exc, match",
    [
        ("types", TypeError, "all operands"),
        ("empty", ValueError, "tiling is empty"),
        ("args", TypeError, "layer_norm("),
    ],
)
def test_layernorm_misuse(run, what, exc, match) -> None:
    tiling = asc.LayerNormTiling()
    asc.get_layer_norm_nd_tiling_info((1, 2, 8), 4096, 4, False, tiling)
    with pytest.raises(errors.TaskError) as info:
        run(layernorm_misuse, 1, np.zeros(8, np.float32), extra=(tiling, what))
    assert isinstance(info.value.cause, exc) and match in str(info.value.cause)
