"""The high-level Sin and Cos against the library's float32 steps (exact) and NumPy (close), half and
float, passes of the minimum buffer, ``is_reuse_source``; the host functions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim.compiler import verify_sync
from aclsim.isa import Pipe
from aclsim.kernel.trig_api import COS_HALF_PI, COS_PI, INV_PI, POLY, SIN_PI

P = asc.TPosition
F32 = np.float32


@asc.kernel
def trig_kernel(name: str, n: int, tmp_bytes: int, dt: Any, reuse: bool, x: Any, y: Any) -> None:
    pipe = asc.TPipe()
    b_in, b_out = asc.TBuf(P.VECCALC), asc.TBuf(P.VECCALC)
    nb = -(-n * np.dtype(dt).itemsize // 32) * 32
    pipe.init_buffer(b_in, nb)
    pipe.init_buffer(b_out, nb)
    t, out = b_in.get(dt)[0:n], b_out.get(dt)[0:n]
    gx, gy = asc.GlobalTensor(dt), asc.GlobalTensor(dt)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    asc.data_copy(t, gx, n)
    tmp = ()
    if tmp_bytes:
        buf = asc.TBuf(P.VECCALC)
        pipe.init_buffer(buf, tmp_bytes)
        tmp = (buf.get(asc.uint8),)
    asc.pipe_barrier(asc.PIPE_ALL)
    getattr(asc, name)(out, t, *tmp, n, is_reuse_source=reuse)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.data_copy(gy, out, n)


def ref(name: str, x: np.ndarray) -> np.ndarray:
    """The library's steps in float32."""
    f = F32
    x = x.astype(F32)
    k = x * f(INV_PI)
    if name == "sin":
        k = np.copysign(np.floor(np.abs(k.astype(np.float64)) + 0.5), k).astype(F32)
        x0 = x
        for p in SIN_PI:
            x0 = x0 - k * f(p)
    else:
        k = np.rint(k + f(0.5))
        x0 = x - k * f(COS_PI[0])
        x0 = x0 - k * f(COS_PI[1])
        x0 = x0 + f(COS_HALF_PI[0])
        for p in COS_PI[2:]:
            x0 = x0 - k * f(p)
        x0 = x0 + f(COS_HALF_PI[1])
    x2 = x0 * x0
    sign = np.floor(k * f(0.5)) * f(4) + k * f(-2) + f(1)
    r = x2 * f(POLY[0]) + f(POLY[1])
    for c in (POLY[2], POLY[3], 1.0):
        r = r * x2 + f(c)
    d = r * x0 * sign
    if name == "cos":
        d = np.maximum(np.minimum(d, f(1)), f(-1))
    return d.astype(F32)


@pytest.mark.parametrize("name", ["sin", "cos"])
@pytest.mark.parametrize("dt, reuse", [(np.float32, False), (np.float32, True), (np.float16, False)])
def test_trig(run, name: str, dt: Any, reuse: bool) -> None:
    n = 304  # 64 floats a pass with the minimum float buffer: four passes and a tail of 48
    x = np.random.default_rng(9).uniform(-40, 40, n).astype(dt)
    x[:6] = [0, np.pi / 2, -np.pi, 1e-3, 20.5, -7.25]
    _, lo = getattr(asc, f"get_{name}_max_min_tmp_size")((n,), np.dtype(dt).itemsize, reuse)
    launch, (_, y) = run(trig_kernel, 1, x, np.zeros(n, dt), extra=(name, n, lo, np.dtype(dt), reuse))
    want = ref(name, x)
    np.testing.assert_array_equal(y, want.astype(dt))
    exact = getattr(np, name)(x.astype(np.float64))
    np.testing.assert_allclose(y.astype(np.float64), exact, atol=2e-6 if dt == np.float32 else 1e-3)
    src_end = n * np.dtype(dt).itemsize  # the source's UB: [0, src_end)
    src_writes = [i for i in launch.streams[0]
                  if i.pipe is Pipe.V and any(w.offset < src_end for w in i.writes)]
    assert bool(src_writes) == reuse  # is_reuse_source: the reduced argument goes to the source's UB
    for stream in launch.streams:
        assert verify_sync(stream).ok


def ref_asinh(x: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        a = np.abs(x.astype(F32))
        r = np.log(np.sqrt(a * a + F32(1)) + a)
        s = x.astype(F32) * F32(2.0**62)
        return (r * (s / (np.abs(s) + F32(2.0**-62)))).astype(x.dtype)


@pytest.mark.parametrize("dt", [np.float32, np.float16])
def test_asinh(run, dt: Any) -> None:
    n = 304
    x = np.random.default_rng(4).uniform(-300, 300, n).astype(dt)
    x[:4] = [0, -0.5, 1e-4, -60000 if dt == np.float16 else -1e19]
    _, lo = asc.get_asinh_max_min_tmp_size((n,), np.dtype(dt).itemsize)
    launch, (_, y) = run(trig_kernel, 1, x, np.zeros(n, dt), extra=("asinh", n, lo, np.dtype(dt), False))
    np.testing.assert_array_equal(y, ref_asinh(x))
    np.testing.assert_allclose(y.astype(np.float64), np.arcsinh(x.astype(np.float64)),
                               rtol=1e-6 if dt == np.float32 else 1e-3, atol=1e-7)
    for stream in launch.streams:
        assert verify_sync(stream).ok


def ref_atan(x: np.ndarray) -> np.ndarray:
    """The library's steps in float32 (numbers from the module, the order written out here)."""
    from aclsim.kernel.trig_api import ATAN_SERIES, PI_4, PI_8, TAN_PI_8
    f = F32

    def taylor(v: np.ndarray, level: int) -> np.ndarray:
        sq = v * v
        d = v * v * f(ATAN_SERIES[level])
        for i in range(level - 1, 0, -1):
            d = (d + f(ATAN_SERIES[i])) * sq
        return (d + f(ATAN_SERIES[0])) * v

    def transform(v: np.ndarray) -> np.ndarray:
        return np.abs((v + f(-TAN_PI_8)) / (v * f(TAN_PI_8) + f(1)))

    with np.errstate(all="ignore"):
        clip = np.maximum(np.minimum(x.astype(F32), f(1e4)), f(-1e4))
        a = np.abs(clip)
        d = taylor(a, 4)
        d = np.minimum(d, taylor(transform(a), 4) + f(PI_8))
        t = np.abs((a + f(-1)) / (a + f(1)))
        d = np.minimum(d, taylor(t, 4) + f(PI_4))
        d = np.minimum(d, taylor(transform(t), 6) + f(PI_8) + f(PI_4))
        s = clip * f(2.0**62)
        return (d * (s / (np.abs(s) + f(2.0**-62)))).astype(x.dtype)


@pytest.mark.parametrize("dt", [np.float32, np.float16])
def test_atan(run, dt: Any) -> None:
    n = 304
    x = np.random.default_rng(6).uniform(-5, 5, n).astype(dt)
    x[:6] = [0, 1, -1, 0.4142, 2e4, -3e4]
    _, lo = asc.get_atan_max_min_tmp_size((n,), np.dtype(dt).itemsize)
    launch, (_, y) = run(trig_kernel, 1, x, np.zeros(n, dt), extra=("atan", n, lo, np.dtype(dt), False))
    np.testing.assert_array_equal(y, ref_atan(x))
    np.testing.assert_allclose(y.astype(np.float64), np.arctan(x.astype(np.float64)),
                               atol=1e-4 if dt == np.float32 else 2e-3)
    for stream in launch.streams:
        assert verify_sync(stream).ok


def ref_erf(x: np.ndarray) -> np.ndarray:
    from aclsim.kernel.special_api import ERF_P, ERF_Q
    f = F32
    c = np.maximum(np.minimum(x.astype(F32), f(3.92)), f(-3.92))
    sq = c * c
    p = sq * f(ERF_P[5]) + f(ERF_P[4])
    for k in ERF_P[3::-1]:
        p = sq * p + f(k)
    p = c * p
    q = sq + f(ERF_Q[4])
    for k in ERF_Q[3::-1]:
        q = sq * q + f(k)
    r = p / q
    if x.dtype == np.float16:  # CAST_ROUND: ties away from zero
        from aclsim.kernel.conversion import RoundMode, cast_values
        return cast_values(r, np.dtype(np.float16), RoundMode.CAST_ROUND)
    return r


@pytest.mark.parametrize("dt", [np.float32, np.float16])
def test_erf(run, dt: Any) -> None:
    import math
    n = 304
    x = np.random.default_rng(8).uniform(-5, 5, n).astype(dt)
    x[:4] = [0, 3.92, -10, 0.5]
    _, lo = asc.get_erf_max_min_tmp_size((n,), np.dtype(dt).itemsize)
    launch, (_, y) = run(trig_kernel, 1, x, np.zeros(n, dt), extra=("erf", n, lo, np.dtype(dt), False))
    np.testing.assert_array_equal(y, ref_erf(x))
    exact = np.array([math.erf(v) for v in x.astype(np.float64)])
    np.testing.assert_allclose(y.astype(np.float64), exact, atol=1e-6 if dt == np.float32 else 1e-3)
    for stream in launch.streams:
        assert verify_sync(stream).ok


def ref_tan(x: np.ndarray) -> np.ndarray:
    from aclsim.kernel.trig_api import TAN_PI, TAN_R
    f = F32
    v = x.astype(F32)
    k = np.rint(v * f(INV_PI))
    lo = hi = None
    for i, p in enumerate(TAN_PI):
        d = k * f(p)
        v = v - d
        if i >= 2:
            lo, hi = lo - d, hi - d
        if i == 1:
            lo, hi = v + f(COS_HALF_PI[0]), v + f(-COS_HALF_PI[0])
        if i == 2:
            lo, hi = lo + f(COS_HALF_PI[1]), hi + f(-COS_HALF_PI[1])
    sq = v * v
    up = ((sq * f(TAN_R[0]) + f(TAN_R[1])) * sq + f(TAN_R[2])) * v
    down = (sq + f(TAN_R[3])) * lo * hi
    with np.errstate(all="ignore"):
        return (up / down).astype(x.dtype)


@pytest.mark.parametrize("dt", [np.float32, np.float16])
def test_tan(run, dt: Any) -> None:
    n = 304
    x = np.random.default_rng(12).uniform(-20, 20, n).astype(dt)
    x[:4] = [0, 1, -0.5, 1.5]
    _, lo = asc.get_tan_max_min_tmp_size((n,), np.dtype(dt).itemsize)
    launch, (_, y) = run(trig_kernel, 1, x, np.zeros(n, dt), extra=("tan", n, lo, np.dtype(dt), False))
    np.testing.assert_array_equal(y, ref_tan(x))
    exact = np.tan(x.astype(np.float64))
    ok = np.abs(exact) < 50  # away from the poles
    np.testing.assert_allclose(y[ok].astype(np.float64), exact[ok], rtol=1e-4 if dt == np.float32 else 4e-3,
                               atol=1e-5 if dt == np.float32 else 2e-3)
    for stream in launch.streams:
        assert verify_sync(stream).ok


@pytest.mark.parametrize("name", ["asin", "acos"])
@pytest.mark.parametrize("dt", [np.float32, np.float16])
def test_asin_acos(run, name: str, dt: Any) -> None:
    """Against NumPy: the library's 7-term series is within 1e-4 over [-1, 1] (its error peaks near
    the 1/sqrt(2) boundary, about 6e-5), half within its rounding."""
    n = 304
    x = np.random.default_rng(13).uniform(-1, 1, n).astype(dt)
    x[:5] = [0, 1, -1, 0.7071, -0.5]
    _, lo = getattr(asc, f"get_{name}_max_min_tmp_size")((n,), np.dtype(dt).itemsize)
    launch, (_, y) = run(trig_kernel, 1, x, np.zeros(n, dt), extra=(name, n, lo, np.dtype(dt), False))
    exact = getattr(np, "arc" + name[1:])(x.astype(np.float64))
    np.testing.assert_allclose(y.astype(np.float64), exact, atol=1e-4 if dt == np.float32 else 2e-3)
    ops = [i.op for i in launch.streams[0] if i.pipe is Pipe.V and i.op != "pipe_barrier"]
    isz = np.dtype(dt).itemsize
    passes = -(-n // (lo // isz // (4 if isz == 4 else 6) // 32 * 32))  # the library's split of the buffer
    assert ops.count("sqrt") == (2 if isz == 4 else 1) * passes
    assert ops.count("cast") == (2 if isz == 4 else 7) * passes
    for stream in launch.streams:
        assert verify_sync(stream).ok


def test_host_figures() -> None:
    assert asc.get_asin_max_min_tmp_size((100,), 4) == (800, 512)
    assert asc.get_acos_max_min_tmp_size((100,), 2) == (1536, 1536)
    assert asc.get_tan_max_min_tmp_size((100,), 2) == (2560, 2560)
    assert asc.get_tan_max_min_tmp_size((100,), 4) == (1600, 1024)
    assert asc.get_erf_max_min_tmp_size((100,), 2) == (2048, 2048)
    assert asc.get_erf_tmp_buffer_factor_size(4) == (3, 0)
    assert asc.get_atan_max_min_tmp_size((100,), 2) == (3072, 3072)
    assert asc.get_atan_max_min_tmp_size((100,), 4) == (2000, 1280)
    assert asc.get_asinh_max_min_tmp_size((100,), 2) == (768, 768)
    assert asc.get_asinh_max_min_tmp_size((100,), 4) == (1200, 768)
    assert asc.get_sin_max_min_tmp_size((1024,), 4) == (12288, 768)
    assert asc.get_cos_max_min_tmp_size((1024,), 4, True) == (8192, 512)
    assert asc.get_cos_max_min_tmp_size((64,), 2) == (2048, 2048)
    assert asc.get_sin_tmp_buffer_factor_size(2) == (8, 0)
    with pytest.raises(ValueError, match="not supported for half"):
        asc.get_sin_max_min_tmp_size((8,), 2, True)
