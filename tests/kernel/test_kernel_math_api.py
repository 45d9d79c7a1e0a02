"""The high-level math APIs (Floor, Ceil, Trunc, Round, Log, Log2, Log10, Sigmoid, Tanh, Sign) against
NumPy computed the library's way, with a shared buffer split into passes and with the framework's
buffer; their host functions; the recorded instructions; the faults."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.compiler import verify_sync
from aclsim.isa import Pipe

P = asc.TPosition
F16, F32 = np.float16, np.float32


@asc.kernel
def math_kernel(fn_name: str, n: int, count: Any, tmp_bytes: int, dt: Any, x: Any, y: Any) -> None:
    """Copy x and y in, one high-level call between full barriers, y out (``tmp_bytes`` 0: the
    framework's buffer; ``count`` None: the whole tensor)."""
    pipe = asc.TPipe()
    b_in, b_out = asc.TBuf(P.VECCALC), asc.TBuf(P.VECCALC)
    nb = -(-n * np.dtype(dt).itemsize // 32) * 32
    pipe.init_buffer(b_in, nb)
    pipe.init_buffer(b_out, nb)
    gx, gy = asc.GlobalTensor(dt), asc.GlobalTensor(dt)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    t, out = b_in.get(dt)[0:n], b_out.get(dt)[0:n]
    asc.data_copy(t, gx, n)
    asc.data_copy(out, gy, n)  # (the tail past count keeps y's contents)
    args: list[Any] = [out, t]
    if tmp_bytes:
        buf = asc.TBuf(P.VECCALC)
        pipe.init_buffer(buf, tmp_bytes)
        args.append(buf.get(asc.uint8))
    if count is not None:
        args.append(count)
    asc.pipe_barrier(asc.PIPE_ALL)
    getattr(asc, fn_name)(*args)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.data_copy(gy, out, n)


def _f32(fn):
    """``fn`` on float32, the result rounded to the input's type (the half path of the library)."""
    def run(x: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            return fn(x.astype(F32)).astype(x.dtype)
    return run


def _sigmoid(x: np.ndarray) -> np.ndarray:
    """Step by step in the input's type, as the library does: 1 / (1 + exp(-x))."""
    t = x.dtype.type
    with np.errstate(all="ignore"):
        e = np.exp((x * t(-1)).astype(x.dtype)).astype(x.dtype)
        return (t(1) / (e + t(1)).astype(x.dtype)).astype(x.dtype)


def _tanh(x: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        c = np.maximum(np.minimum(x.astype(F32), F32(8.8)), F32(-8.8))
        e = np.exp(c * F32(2))
        return ((e - F32(1)) / (e + F32(1))).astype(x.dtype)


def _log10(x: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return (np.log(x) * x.dtype.type(0.43429448190325176)).astype(x.dtype)


def _log2(x: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return (np.log(x.astype(F32)) * F32(1.4426950408889634)).astype(x.dtype)


def _sign(x: np.ndarray) -> np.ndarray:
    return np.where(x > 0, 1, np.where(x < 0, -1, 0)).astype(x.dtype)  # NaN and -0: +0


REF = {
    "floor": _f32(np.floor),
    "ceil": _f32(np.ceil),
    "trunc": _f32(np.trunc),
    "frac": _f32(lambda x: x - np.trunc(x)),
    "round": _f32(np.rint),
    "log": lambda x: np.log(x).astype(x.dtype),
    "log10": _log10,
    "log2": _log2,
    "sigmoid": _sigmoid,
    "tanh": _tanh,
    "sign": _sign,
}


def _input(name: str, n: int, dt: Any) -> np.ndarray:
    rng = np.random.default_rng(7)
    if name.startswith("log"):
        x = rng.uniform(0.01, 50, n)
        x[:3] = [1.0, 0.0, -1.0]  # 0 -> -inf, negative -> NaN
    else:
        x = rng.uniform(-12, 12, n)
        x[:8] = [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.0, -0.0]  # ties
    return x.astype(dt)


@pytest.mark.parametrize("name", list(REF))
@pytest.mark.parametrize("dt", [F16, F32])
def test_math_against_numpy(run, name: str, dt: Any) -> None:
    n, count = 600, 590  # several passes of the minimum buffer and a tail; count short of the tensor
    x = _input(name, n, dt)
    y0 = np.full(n, 7, dt)
    get = getattr(asc, f"get_{name}_max_min_tmp_size", None)
    _, lo = get((n,), np.dtype(dt).itemsize) if get else (0, 0)
    lo = max(lo, 256) if name not in ("log", "log10") else 0
    launch, (_, y) = run(math_kernel, 1, x, y0, extra=(name, n, count, lo, np.dtype(dt)))
    with np.errstate(all="ignore"):
        want = REF[name](x[:count])
    np.testing.assert_array_equal(y[:count], want)
    np.testing.assert_array_equal(y[count:], y0[count:])  # past count: untouched
    for stream in launch.streams:
        assert verify_sync(stream).ok


@pytest.mark.parametrize("name", ["floor", "tanh", "sigmoid", "sign", "log2"])
def test_framework_buffer_and_whole_tensor(run, name: str) -> None:
    n = 256
    x = _input(name, n, F16)
    _, (_, y) = run(math_kernel, 1, x, np.zeros(n, F16), extra=(name, n, None, 0, np.dtype(F16)))
    np.testing.assert_array_equal(y, REF[name](x))


def _records(run, name: str, dt: Any, n: int, tmp: int) -> list[Any]:
    launch, _ = run(math_kernel, 1, _input(name, n, dt), np.zeros(n, dt),
                    extra=(name, n, n, tmp, np.dtype(dt)))
    return [i for i in launch.streams[0] if i.op not in ("data_copy", "pipe_barrier") and i.pipe is Pipe.V]


def test_recorded_sequence_and_tmp_accesses(run) -> None:
    """Half Floor through a 512 B buffer (128 floats a pass): cast, cast, cast per pass, the middle one
    reading and writing the buffer; Sigmoid's five instructions a pass."""
    recs = _records(run, "floor", F16, 256, 512)
    assert [r.op for r in recs] == ["cast"] * 6
    work = recs[1]
    assert work.reads[0].length == 128 * 4 and work.writes[0].length == 128 * 4
    assert work.reads[0].offset == work.writes[0].offset == recs[0].writes[0].offset
    assert recs[0].reads[0].length == 128 * 2 and recs[2].writes[0].length == 128 * 2
    sig = _records(run, "sigmoid", F32, 128, 256)  # 64 floats a pass: two passes
    assert [r.op for r in sig] == ["muls", "exp", "adds", "duplicate", "div"] * 2


@asc.kernel
def xor_kernel(n: int, tmp_bytes: int, a: Any, b: Any, y: Any) -> None:
    pipe = asc.TPipe()
    bufs = [asc.TBuf(P.VECCALC) for _ in range(4)]
    for buf in bufs[:3]:
        pipe.init_buffer(buf, n * 2)
    pipe.init_buffer(bufs[3], tmp_bytes)
    ta, tb, out = (buf.get(asc.int16) for buf in bufs[:3])
    for t, p in ((ta, a), (tb, b)):
        g = asc.GlobalTensor(asc.int16)
        g.set_global_buffer(p)
        asc.data_copy(t, g, n)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.xor(out, ta, tb, bufs[3].get(asc.uint8), n)
    asc.pipe_barrier(asc.PIPE_ALL)
    gy = asc.GlobalTensor(asc.int16)
    gy.set_global_buffer(y)
    asc.data_copy(gy, out, n)


def test_xor(run) -> None:
    n = 400  # 128 a pass with the minimum buffer: three passes and a tail
    rng = np.random.default_rng(2)
    a, b = (rng.integers(-32768, 32767, n).astype(np.int16) for _ in range(2))
    _, lo = asc.get_xor_max_min_tmp_size((n,), 2)
    launch, (_, _, y) = run(xor_kernel, 1, a, b, np.zeros(n, np.int16), extra=(n, lo))
    np.testing.assert_array_equal(y, a ^ b)
    ops = [i.op for i in launch.streams[0] if i.pipe is Pipe.V and i.op != "pipe_barrier"]
    assert ops == ["and", "or", "not", "and"] * 4
    for stream in launch.streams:
        assert verify_sync(stream).ok


@asc.kernel
def clamp_kernel(n: int, dt: Any, x: Any, y: Any) -> None:
    pipe = asc.TPipe()
    b_in, b_out = asc.TBuf(P.VECCALC), asc.TBuf(P.VECCALC)
    pipe.init_buffer(b_in, n * 4)
    pipe.init_buffer(b_out, n * 8)
    t, out = b_in.get(dt)[0:n], b_out.get(dt)
    g = asc.GlobalTensor(dt)
    g.set_global_buffer(x)
    asc.data_copy(t, g, n)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.clamp_max(out[0:n], t, 0.5, n)
    asc.clamp_min(out[n:], t, -0.25, n)
    asc.pipe_barrier(asc.PIPE_ALL)
    gy = asc.GlobalTensor(dt)
    gy.set_global_buffer(y)
    asc.data_copy(gy, out, 2 * n)


@pytest.mark.parametrize("dt", [F16, F32])
def test_clamp(run, dt: Any) -> None:
    n = 64
    x = np.linspace(-1, 1, n).astype(dt)
    _, (_, y) = run(clamp_kernel, 1, x, np.zeros(2 * n, dt), extra=(n, np.dtype(dt)))
    np.testing.assert_array_equal(y[:n], np.minimum(x, dt(0.5)))
    np.testing.assert_array_equal(y[n:], np.maximum(x, dt(-0.25)))


@asc.kernel
def silu_kernel(n: int, dt: Any, beta: float, x: Any, y: Any) -> None:
    pipe = asc.TPipe()
    b_in, b_out = asc.TBuf(P.VECCALC), asc.TBuf(P.VECCALC)
    pipe.init_buffer(b_in, n * 4)
    pipe.init_buffer(b_out, n * 8)
    t, out = b_in.get(dt)[0:n], b_out.get(dt)
    g = asc.GlobalTensor(dt)
    g.set_global_buffer(x)
    asc.data_copy(t, g, n)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.silu(out[0:n], t, n)
    asc.swish(out[n:], t, n, beta)
    asc.pipe_barrier(asc.PIPE_ALL)
    gy = asc.GlobalTensor(dt)
    gy.set_global_buffer(y)
    asc.data_copy(gy, out, 2 * n)


@pytest.mark.parametrize("dt", [F16, F32])
def test_silu_swish(run, dt: Any) -> None:
    n, beta = 128, 1.702
    x = np.linspace(-8, 8, n).astype(dt)
    _, (_, y) = run(silu_kernel, 1, x, np.zeros(2 * n, dt), extra=(n, np.dtype(dt), beta))
    t = np.dtype(dt).type

    def step(f: Any) -> np.ndarray:  # x / (1 + exp(f x)), each step rounded to the type
        with np.errstate(over="ignore"):  # half: exp(13.6) overflows to inf, and x / inf = 0
            e = np.exp((x * t(f)).astype(dt)).astype(dt)
            return (x / (e + t(1)).astype(dt)).astype(dt)

    np.testing.assert_array_equal(y[:n], step(-1.0))
    np.testing.assert_array_equal(y[n:], step(-1.0 * float(np.float32(beta))))
    np.testing.assert_allclose(y[:n].astype(np.float64), x / (1 + np.exp(-x.astype(np.float64))),
                               rtol=1e-6 if dt == F32 else 2e-3, atol=1e-6 if dt == F32 else 2e-3)


def test_host_figures() -> None:
    assert asc.get_clamp_max_min_tmp_size((1000,), 4) == (1000, 64)
    assert asc.get_clamp_max_min_tmp_size((10,), 2) == (128, 128)
    assert asc.get_floor_max_min_tmp_size((1024,), 2) == (4096, 512)
    assert asc.get_floor_max_min_tmp_size((1024,), 4) == (0, 0)
    assert asc.get_ceil_max_min_tmp_size((32,), 4) == (256, 256)
    assert asc.get_tanh_max_min_tmp_size((1024,), 2) == (8192, 1024)
    assert asc.get_sign_max_min_tmp_size((16,), 4) == (768, 768)
    assert asc.get_log2_max_min_tmp_size((100,), 2) == (400, 256)
    assert asc.get_log_max_min_tmp_size((100,), 2) == (0, 0)
    assert asc.get_sigmoid_max_min_tmp_size((1000,), 4) == (4000, 256)
    assert asc.get_tanh_tmp_buffer_factor_size(2) == (4, 0)
    assert asc.get_floor_tmp_buffer_factor_size(4) == (0, 0)
    assert asc.get_frac_max_min_tmp_size((100,), 2) == (1024, 1024)
    assert asc.get_xor_max_min_tmp_size((1000,), 2) == (2000, 256)
    with pytest.raises(ValueError, match="positive"):
        asc.get_floor_max_min_tmp_size((0, 4), 2)
    with pytest.raises(ValueError, match="type_size"):
        asc.get_tanh_max_min_tmp_size((8,), 8)


@asc.kernel
def math_misuse(what: str, x: Any) -> None:
    pipe = asc.TPipe()
    buf, tb = asc.TBuf(P.VECCALC), asc.TBuf(P.VECCALC)
    pipe.init_buffer(buf, 1024)
    pipe.init_buffer(tb, 64)
    t = buf.get(asc.float16)
    if what == "small":
        asc.tanh(t[0:256], t[256:512], tb.get(asc.uint8), 256)
    elif what == "overlap":
        asc.sign(t[0:128], t[128:256], t[256:512].reinterpret_cast(asc.uint8), 128)
        asc.sign(t[0:128], t[128:256], t[64:].reinterpret_cast(asc.uint8), 128)
    elif what == "dtype":
        asc.floor(t.reinterpret_cast(asc.int16), t.reinterpret_cast(asc.int16), 16)
    elif what == "count":
        asc.log(t[0:16], t[16:32], -1)
    elif what == "count-past-ub":
        asc.log(t[0:16], t[16:32], 10**6)


@pytest.mark.parametrize("what, exc, match", [
    ("small", errors.KernelFault, "too small for one pass"),
    ("overlap", errors.KernelFault, "shared_tmp_buffer UB[128:1024] overlaps src UB[256:512]"),
    ("dtype", TypeError, "one dtype of"),
    ("count", ValueError, "count must be >= 0"),
    ("count-past-ub", errors.LocalOutOfRangeError, "past the"),
])
def test_math_faults(run, what: str, exc: type[Exception], match: str) -> None:
    with pytest.raises(errors.TaskError) as info:
        run(math_misuse, 1, np.zeros(8, F16), extra=(what,))
    err = info.value.cause
    assert isinstance(err, exc) and match in str(err)
    assert err.file.endswith("test_kernel_math_api.py") and err.line > 0  # the call's line
    if issubclass(exc, errors.KernelFault):
        assert err.code == errors.ACL_ERROR_RT_VECTOR_CORE_EXCEPTION
