"""The high-level Power API against NumPy computed the library's way (half, float, int32; tensor and
scalar operands; negative bases, integer and fractional exponents, zeros, infinities), its host
functions, its instructions and faults."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.compiler import verify_sync
from aclsim.isa import Pipe

P = asc.TPosition
F32 = np.float32


@asc.kernel
def pow_kernel(form: str, n: int, count: Any, tmp_bytes: int, dt: Any, scalar: Any,
               a: Any, b: Any, y: Any) -> None:
    pipe = asc.TPipe()
    nb = -(-n * np.dtype(dt).itemsize // 32) * 32
    bufs = [asc.TBuf(P.VECCALC) for _ in range(3)]
    for buf in bufs:
        pipe.init_buffer(buf, nb)
    ta, tb, out = (buf.get(dt)[0:n] for buf in bufs)
    for t, p in ((ta, a), (tb, b), (out, y)):
        g = asc.GlobalTensor(dt)
        g.set_global_buffer(p)
        asc.data_copy(t, g, n)
    base, exponent = {"tt": (ta, tb), "ts": (ta, scalar), "st": (scalar, tb)}[form]
    args: list[Any] = []
    if tmp_bytes:
        tbuf = asc.TBuf(P.VECCALC)
        pipe.init_buffer(tbuf, tmp_bytes)
        args.append(tbuf.get(asc.uint8))
    if count is not None:
        args.append(count)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.power(out, base, exponent, *args)
    asc.pipe_barrier(asc.PIPE_ALL)
    gy = asc.GlobalTensor(dt)
    gy.set_global_buffer(y)
    asc.data_copy(gy, out, n)


def ref_float(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The library's steps in float32: exp(y ln|x|), the sign of odd integer y, ones, NaNs."""
    with np.errstate(all="ignore"):
        x, y = x.astype(F32), y.astype(F32)
        d = np.exp(y * np.log(np.abs(x)))
        ay = np.abs(y)
        r = np.rint(ay)
        odd = F32(1) - F32(2) * (r - np.floor(r * F32(0.5)) * F32(2))
        is_int = np.abs(ay - r) < F32(1e-8)
        d = np.where(np.signbit(x) & is_int, odd * d, d)
        one = (ay != 0) & (x != 1) & ((x != -1) | (ay != np.inf))
        d = np.where(one, d, F32(1))
        keep = (ay == np.inf) | is_int | (x >= 0) | (x == -np.inf)
        return np.where(keep, d, F32(np.nan)).astype(F32)


def ref_int(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    out = np.empty_like(x)
    for i, (a, e) in enumerate(zip(x.tolist(), y.tolist(), strict=True)):
        v = pow(a, abs(e), 1 << 32)
        v = v - (1 << 32) if v >= 1 << 31 else v
        if e < 0:
            v = 0 if v == 0 else int(np.trunc(F32(1) / F32(v)))
        out[i] = v
    return out


def _data(dt: Any, n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(5)
    if np.dtype(dt) == np.int32:
        return rng.integers(-9, 10, n).astype(dt), rng.integers(-3, 12, n).astype(dt)
    x = rng.uniform(-4, 4, n)
    y = np.where(rng.random(n) < 0.5, rng.integers(-4, 5, n), rng.uniform(-3, 3, n))
    special = [(0, 2), (0, -1), (0, 0), (-2, 3), (-2, 2), (-2, 0.5), (1, np.inf), (-1, np.inf), (-1, np.nan),
               (np.inf, -1), (-np.inf, 3), (-np.inf, 0.5), (2, 10), (np.nan, 0), (1, np.nan), (-0.0, 3)]
    for i, (a, b) in enumerate(special):
        x[i], y[i] = a, b
    return x.astype(dt), y.astype(dt)


@pytest.mark.parametrize("dt", [np.float32, np.float16, np.int32])
@pytest.mark.parametrize("form", ["tt", "ts", "st"])
def test_power_against_numpy(run, dt: Any, form: str) -> None:
    n, count = 200, 190
    a, b = _data(dt, n)
    scalar = {np.dtype(np.int32): 3, np.dtype(np.float32): -2.0, np.dtype(np.float16): 1.5}[np.dtype(dt)]
    if form == "st":
        scalar = {np.dtype(np.int32): -2, np.dtype(np.float32): -2.0, np.dtype(np.float16): 0.5}[np.dtype(dt)]
    shape1, shape2 = ((n,), (n,)) if form == "tt" else (((n,), (1,)) if form == "ts" else ((1,), (n,)))
    _, lo = asc.get_power_max_min_tmp_size(shape1, shape2, np.dtype(dt) == np.int32, np.dtype(dt).itemsize)
    y0 = np.full(n, 7, dt)
    launch, (_, _, y) = run(pow_kernel, 1, a, b, y0, extra=(form, n, count, lo, np.dtype(dt), scalar))
    xa = a[:count] if form != "st" else np.full(count, scalar, dt)
    xb = b[:count] if form != "ts" else np.full(count, scalar, dt)
    want = ref_int(xa, xb) if np.dtype(dt) == np.int32 else ref_float(xa, xb).astype(dt)
    np.testing.assert_array_equal(y[:count], want)
    np.testing.assert_array_equal(y[count:], y0[count:])
    if np.dtype(dt) != np.int32:  # the library's result is close to NumPy's power where both are defined
        with np.errstate(all="ignore"):
            exact = np.power(xa.astype(np.float64), xb.astype(np.float64))
        ok = np.isfinite(exact) & (np.abs(exact) < 1e4)
        np.testing.assert_allclose(y[:count][ok].astype(np.float64), exact[ok],
                                   rtol=1e-5 if np.dtype(dt) == np.float32 else 2e-3, atol=1e-30)
    else:
        np.testing.assert_array_equal(want[xb >= 0], xa[xb >= 0] ** xb[xb >= 0])
    for stream in launch.streams:
        assert verify_sync(stream).ok


def test_power_float_steps_and_buffer(run) -> None:
    """Float (tensor, tensor) with the minimum buffer (1280 B: 64 floats a pass): the library's steps a
    pass, the masks combined as uint16 lanes, every write in the buffer or in dst."""
    n = 128
    a, b = _data(np.float32, n)
    launch, (_, _, y) = run(pow_kernel, 1, a, b, np.zeros(n, F32),
                            extra=("tt", n, None, 1280, np.dtype(F32), 0))
    np.testing.assert_array_equal(y, ref_float(a, b))
    ops = [i for i in launch.streams[0] if i.pipe is Pipe.V and i.op != "pipe_barrier"]
    per_pass = (len(ops) - 2) // 2  # two duplicates of the constants, then two passes
    assert [i.op for i in ops[:2]] == ["duplicate", "duplicate"] and per_pass * 2 + 2 == len(ops)
    assert per_pass == 40
    assert [i.op for i in ops[2:6]] == ["abs", "ln", "mul", "exp"]
    assert sum(i.op in ("and", "or") for i in ops[2 : 2 + per_pass]) == 7
    tmp = (ops[0].writes[0].offset, ops[0].writes[0].offset + 1280)
    dst = (ops[2].writes[0].offset, ops[2].writes[0].offset + n * 4)
    for i in ops:
        for w in i.writes:
            assert tmp[0] <= w.offset and w.end <= tmp[1] or dst[0] <= w.offset and w.end <= dst[1], i


def test_host_figures() -> None:
    f = asc.get_power_max_min_tmp_size
    assert f((1024,), (1024,), False, 4) == (4096 * 4 + 256, 256 * 4 + 256)
    assert f((1024,), (1,), False, 4) == (4096 * 5 + 256, 256 * 5 + 256)
    assert f((1024,), (1024,), False, 2) == (2048 * 14 + 256, 256 * 7 + 256)
    assert f((1,), (64,), True, 4) == (256 * 7, 256 * 7)
    assert asc.get_power_tmp_buffer_factor_size(True, True, False, 4) == (4, 256)
    assert asc.get_power_tmp_buffer_factor_size(True, False, True, 4) == (7, 0)
    with pytest.raises(ValueError, match="type_size"):
        f((8,), (8,), True, 2)


@asc.kernel
def pow_misuse(what: str, x: Any) -> None:
    pipe = asc.TPipe()
    buf, tb = asc.TBuf(P.VECCALC), asc.TBuf(P.VECCALC)
    pipe.init_buffer(buf, 1024)
    pipe.init_buffer(tb, 256)
    t = buf.get(asc.float32)
    if what == "small":
        asc.power(t[0:64], t[64:128], t[128:192], tb.get(asc.uint8), 64)
    elif what == "scalars":
        asc.power(t[0:64], 2.0, 3.0, 64)
    elif what == "dtype":
        asc.power(t[0:64].reinterpret_cast(asc.int16), t[64:128].reinterpret_cast(asc.int16), 2, 32)
    elif what == "overlap":
        asc.power(t[0:64], t[64:128], t[128:192], t[160:].reinterpret_cast(asc.uint8), 64)


@pytest.mark.parametrize("what, exc, match", [
    ("small", errors.KernelFault, "too small for one pass"),
    ("scalars", TypeError, "must be a LocalTensor"),
    ("dtype", TypeError, "one dtype of"),
    ("overlap", errors.KernelFault, "overlaps src1"),
])
def test_power_faults(run, what: str, exc: type[Exception], match: str) -> None:
    with pytest.raises(errors.TaskError) as info:
        run(pow_misuse, 1, np.zeros(8, F32), extra=(what,))
    err = info.value.cause
    assert isinstance(err, exc) and match in str(err)
    assert err.file.endswith("test_kernel_power_api.py") and err.line > 0
