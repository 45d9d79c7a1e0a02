"""The float saturation mode (CTRL[48] = 0 on Atlas A2/A3): half/bfloat16 results inf -> +-MAX, NaN -> 0.

References are NumPy, saturated by hand; a few rows of the documentation's appendix
(``docs/zh/api/附录/Memory矢量计算接口边界值汇总.md``) are checked as printed there.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim.errors import TaskError

BF16 = np.dtype(ml_dtypes.bfloat16)
F16, F32 = np.dtype(np.float16), np.dtype(np.float32)
N = 128
SPECIAL = [65504.0, -65504.0, np.inf, -np.inf, np.nan, 0.0, -0.0, 1.5, 60000.0, -3.0, 2.0, 0.5, 300.0, -7.25]
SCALAR = 4096.0  # a scalar that overflows half when multiplied by the large values


def _inputs(dt: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    big = float(ml_dtypes.finfo(dt).max)
    vals = [big if v == 65504.0 else -big if v == -65504.0 else v for v in SPECIAL]
    a = np.resize(np.array(vals, np.float64), N)
    b = np.roll(a, 3) * np.resize(np.array([1.0, -1.0, 2.0]), N)
    with np.errstate(over="ignore"):
        return a.astype(dt), b.astype(dt)


def _ref(name: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    dt = a.dtype
    s = dt.type(SCALAR)
    with np.errstate(all="ignore"):
        out = {
            "add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b, "div": lambda: a / b,
            "max": lambda: np.maximum(a, b), "min": lambda: np.minimum(a, b),
            "adds": lambda: a + s, "muls": lambda: a * s, "maxs": lambda: np.maximum(a, s),
            "mins": lambda: np.minimum(a, s), "leaky_relu": lambda: np.where(a >= 0, a, a * s),
            "exp": lambda: np.exp(a), "ln": lambda: np.log(a), "sqrt": lambda: np.sqrt(a),
            "abs": lambda: np.abs(a), "relu": lambda: np.maximum(a, dt.type(0)),
            "rsqrt": lambda: (np.float32(1) / np.sqrt(a.astype(np.float32))).astype(dt),
            "reciprocal": lambda: (np.float32(1) / a.astype(np.float32)).astype(dt),
        }[name]()
    return np.asarray(out, dt)


def _sat(x: np.ndarray) -> np.ndarray:
    big = ml_dtypes.finfo(x.dtype).max
    y = np.where(np.isnan(x), x.dtype.type(0), x).astype(x.dtype)
    y[np.isposinf(y)] = big
    y[np.isneginf(y)] = -big
    return y


BINARY = ["add", "sub", "mul", "div", "max", "min"]
SCALAR_OPS = ["adds", "muls", "maxs", "mins", "leaky_relu"]
UNARY = ["exp", "ln", "sqrt", "abs", "relu", "rsqrt", "reciprocal"]


def _call(name: str, dst, x, y, count: int | None) -> None:
    op = getattr(asc, name)
    tail = (count,) if count is not None else (64, 1, asc.UnaryRepeatParams())
    if name in BINARY:
        tail = (count,) if count is not None else (64, 1, asc.BinaryRepeatParams())
        op(dst, x, y, *tail)
    elif name in SCALAR_OPS:
        op(dst, x, SCALAR, *tail)
    else:
        op(dst, x, *tail)


def _same(got: np.ndarray, want: np.ndarray) -> bool:
    g, w = got.astype(np.float64), want.astype(np.float64)
    return bool(np.all((g == w) & (np.signbit(g) == np.signbit(w)) | (np.isnan(g) & np.isnan(w))))


@pytest.mark.parametrize("dt", [F16, BF16, F32], ids=["half", "bfloat16", "float"])
@pytest.mark.parametrize("name", BINARY + SCALAR_OPS + UNARY)
def test_elementwise_both_modes(vec, name, dt) -> None:
    if name == "leaky_relu" and dt == BF16:
        pytest.skip("LeakyRelu takes half and float")
    a, b = _inputs(dt)

    def body(o_inf, o_sat, o_mask, x, y):
        _call(name, o_inf, x, y, N)  # the block starts in Inf/NaN mode
        asc.set_ctrl_spr(48, 48, 0)
        _call(name, o_sat, x, y, N)
        _call(name, o_mask, x, y, None)  # mask/repeat form: 64 lanes of the first repeat
        asc.set_ctrl_spr(48, 48, 1)

    init = np.full(N, np.inf, dt)  # unselected lanes keep their inf: the mode changes results only
    o_inf, o_sat, o_mask = vec(body, [a, b], [np.zeros(N, dt), np.zeros(N, dt), init])
    want = _ref(name, a, b)
    want_sat = _sat(want) if dt != F32 else want.copy()
    if name == "abs" and dt == F32:  # the appendix's Abs table: float NaN -> 0.0 in saturation mode
        want_sat[np.isnan(want_sat)] = 0
    assert _same(o_inf, want)
    assert _same(o_sat, want_sat)
    assert _same(o_mask[:64], want_sat[:64]) and np.isposinf(o_mask[64:]).all()
    if dt != F32:
        assert not np.isfinite(want).all(), "the inputs must reach inf or NaN"


@pytest.mark.parametrize("dt", [F16, BF16])
def test_cast_to_half_and_bfloat16(vec, dt) -> None:
    x = np.resize(np.array([3.4028235e38, -3.4028235e38, np.inf, -np.inf, np.nan, 1e5, -1e5, 1.0, 0.0,
                            -0.0, 65520.0, 65519.0], np.float32), 64)

    def body(o_inf, o_sat, o_back, o_int, src):
        asc.cast(o_inf, src, asc.RoundMode.CAST_NONE, 64)
        asc.set_ctrl_spr(48, 48, 0)
        asc.cast(o_sat, src, asc.RoundMode.CAST_NONE, 64)
        asc.cast(o_back, o_inf, asc.RoundMode.CAST_NONE, 64)  # half/bf16 -> float: not saturated
        asc.cast(o_int, src, asc.RoundMode.CAST_RINT, 64)  # float -> int32 follows CTRL[59], not [48]

    o_inf, o_sat, o_back, o_int = vec(body, [x], [np.zeros(64, dt), np.zeros(64, dt), np.zeros(64, F32),
                                                   np.zeros(64, np.int32)])
    with np.errstate(all="ignore"):
        want = x.astype(dt)
        want_int = np.clip(np.nan_to_num(np.rint(x.astype(np.float64)), nan=0, posinf=2 ** 31 - 1,
                                         neginf=-2 ** 31), -2 ** 31, 2 ** 31 - 1).astype(np.int32)
    assert _same(o_inf, want) and _same(o_sat, _sat(want))
    assert _same(o_back, want.astype(F32)) and (o_int == want_int).all()
    big = float(ml_dtypes.finfo(dt).max)
    # the appendix's Cast table: float MAX / +inf / nan -> half MAX / MAX / 0 in saturation mode
    assert [float(v) for v in o_sat[[0, 2, 4]]] == [big, big, 0.0]


def test_axpy_saturates_the_half_product(vec) -> None:
    src = np.resize(np.array([np.inf, np.inf, 65504.0, np.nan, 300.0, 2.0, -np.inf, 1.0], np.float16), N)
    dst0 = np.resize(np.array([-np.inf, -65504.0, 0.0, 1.0, 5.0, 1.0, 65504.0, np.nan], np.float16), N)
    s = 65504.0

    def body(d_inf, d_sat, x):
        asc.axpy(d_inf, x, s, N)
        asc.set_ctrl_spr(48, 48, 0)
        asc.axpy(d_sat, x, s, N)

    d_inf, d_sat = vec(body, [src], [dst0.copy(), dst0.copy()])
    x64, d64 = src.astype(np.float64), dst0.astype(np.float64)
    with np.errstate(all="ignore"):
        product = x64 * s
        want = (d64 + product).astype(np.float16)
        h = product.astype(np.float16)
        clamped = np.where(np.isinf(h), np.copysign(65504.0, product), product)
        clamped = np.where(np.isnan(product), 0.0, clamped)
        want_sat = _sat((d64 + clamped).astype(np.float16))
    assert _same(d_inf, want) and _same(d_sat, want_sat)
    # the appendix's Axpy rows: +inf * MAX + MIN: Inf/NaN +inf, saturation +0 (the product clamps first)
    assert float(d_inf[1]) == np.inf and float(d_sat[1]) == 0.0
    assert np.isnan(d_inf[0]) and float(d_sat[0]) == -65504.0  # +inf*MAX + -inf: nan / MIN


def test_mode_persists_and_reads_back(run) -> None:
    @asc.kernel
    def k(p_x, p_out, p_mode):
        pipe = asc.TPipe()
        buf = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(buf, 4 * 256)
        x, y0, y1, y2 = (buf.get(asc.float16)[i * 128:(i + 1) * 128] for i in range(4))
        gx, go, gm = asc.GlobalTensor(asc.float16), asc.GlobalTensor(asc.float16), asc.GlobalTensor(asc.int64)
        gx.set_global_buffer(p_x)
        go.set_global_buffer(p_out)
        gm.set_global_buffer(p_mode)
        asc.data_copy(x, gx, 128)
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.AscendCUtils.set_overflow(0)  # SetOverflow(0): CTRL[48] = 0
        gm.set_value(0, asc.get_ctrl_spr(48, 48))
        asc.exp(y0, x, 128)
        asc.muls(y1, x, 4.0, 128)  # still saturating: the mode holds until written again
        asc.set_ctrl_spr(48, 48, 1)
        gm.set_value(1, asc.get_ctrl_spr(48, 48))
        asc.exp(y2, x, 128)
        asc.pipe_barrier(asc.PIPE_ALL)
        for i, y in enumerate((y0, y1, y2)):
            asc.data_copy(go[i * 128:], y, 128)

    x = np.resize(np.array([20.0, 30000.0, -20.0, np.nan, 1.0], np.float16), 128)
    _, (_, out, mode) = run(k, 1, x, np.zeros(384, np.float16), np.zeros(4, np.int64))
    with np.errstate(all="ignore"):
        e, m = np.exp(x), x * np.float16(4)
    assert mode[:2].tolist() == [0, 1]
    assert _same(out[:128], _sat(e)) and _same(out[128:256], _sat(m)) and _same(out[256:], e)


def test_appendix_rows_half() -> None:
    """Rows of the appendix's Exp, Ln, Sqrt and Reciprocal tables (half, saturation mode)."""
    from aclsim.kernel.saturation import saturate_values

    with np.errstate(all="ignore"):
        x = np.array([65504.0, np.nan, -65504.0, 0.0, -0.0], np.float16)
        assert saturate_values(np.exp(x))[:2].tolist() == [65504.0, 0.0]
        assert saturate_values(np.log(x))[2:].tolist() == [0.0, -65504.0, -65504.0]
        assert saturate_values(np.float16(1) / x)[3:].tolist() == [65504.0, -65504.0]
        assert saturate_values(np.sqrt(x))[2] == 0.0


def test_set_overflow_on_310p(run) -> None:
    @asc.kernel(chip="310P")
    def k(mode, p_x, p_out):
        pipe = asc.TPipe()
        buf = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(buf, 512)
        x, y = buf.get(asc.float16)[:128], buf.get(asc.float16)[128:]
        gx, go = asc.GlobalTensor(asc.float16), asc.GlobalTensor(asc.float16)
        gx.set_global_buffer(p_x)
        go.set_global_buffer(p_out)
        asc.data_copy(x, gx, 128)
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.AscendCUtils.set_overflow(mode)
        asc.muls(y, x, 1000.0, 128)
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.data_copy(go, y, 128)

    x = np.resize(np.array([100.0, -100.0, 1.0, np.nan], np.float16), 128)
    with np.errstate(all="ignore"):
        want = x * np.float16(1000)
    _, (_, out) = run(k, 1, x, np.zeros(128, np.float16), extra=(1,))
    assert _same(out, want)
    _, (_, out) = run(k, 1, x, np.zeros(128, np.float16), extra=(0,))
    assert _same(out, _sat(want))
    with pytest.raises(TaskError, match="has no SetCtrlSpr"):
        run(asc.kernel(chip="310P")(lambda p: asc.set_ctrl_spr(48, 48, 0)), 1, np.zeros(4, np.int64))


def test_set_saturation_flag_float(run) -> None:
    @asc.kernel
    def k(p_x, p_out, p_flags):
        pipe = asc.TPipe()
        buf = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(buf, 768)
        x, y0, y1 = (buf.get(asc.float16)[i * 128:(i + 1) * 128] for i in range(3))
        gx, go, gf = asc.GlobalTensor(asc.float16), asc.GlobalTensor(asc.float16), asc.GlobalTensor(asc.int64)
        gx.set_global_buffer(p_x)
        go.set_global_buffer(p_out)
        gf.set_global_buffer(p_flags)
        asc.data_copy(x, gx, 128)
        asc.pipe_barrier(asc.PIPE_ALL)
        gf.set_value(0, int(asc.get_saturation_flag(asc.SaturationMode.FLOAT)))
        asc.set_saturation_flag(asc.SaturationMode.FLOAT, True)
        gf.set_value(1, int(asc.get_saturation_flag(asc.SaturationMode.FLOAT)))
        gf.set_value(2, asc.get_ctrl_spr(48, 48))
        asc.muls(y0, x, 1000.0, 128)
        asc.set_saturation_flag(asc.SaturationMode.FLOAT, False)
        asc.muls(y1, x, 1000.0, 128)
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.data_copy(go, y0, 128)
        asc.data_copy(go[128:], y1, 128)

    x = np.resize(np.array([100.0, -100.0, 1.0, np.nan], np.float16), 128)
    _, (_, out, flags) = run(k, 1, x, np.zeros(256, np.float16), np.zeros(4, np.int64))
    with np.errstate(all="ignore"):
        want = x * np.float16(1000)
    assert flags[:3].tolist() == [0, 1, 0]
    assert _same(out[:128], _sat(want)) and _same(out[128:], want)


@pytest.mark.parametrize("chip, match", [("910B", "SaturationMode.CAST .* is not modelled"),
                                         ("310P", "has no SetSaturationFlag")])
def test_set_saturation_flag_refusals(run, chip, match) -> None:
    @asc.kernel(chip=chip)
    def k(p):
        mode = asc.SaturationMode.CAST if chip == "910B" else asc.SaturationMode.FLOAT
        asc.set_saturation_flag(mode, True)

    with pytest.raises(TaskError, match=match) as info:
        run(k, 1, np.zeros(4, np.int64))
    assert info.value.cause.code == 207000


def test_arith_progression_saturates_its_adds(vec) -> None:
    def body(o_inf, o_sat):
        asc.arith_progression(o_inf, 60000.0, 200.0, 64)
        asc.set_ctrl_spr(48, 48, 0)
        asc.arith_progression(o_sat, 60000.0, 200.0, 64)

    o_inf, o_sat = vec(body, [], [np.zeros(64, np.float16), np.zeros(64, np.float16)])
    exact = 60000.0 + 200.0 * np.arange(64)
    assert np.isposinf(o_inf[exact > 65519]).all()  # past the half range: inf in Inf/NaN mode
    assert (o_sat[exact > 65519] == 65504).all() and np.isfinite(o_sat).all()
    assert (o_sat[exact <= 65504] == o_inf[exact <= 65504]).all()
