"""Every vector instruction against NumPy: exact for integers and copies, to dtype precision for floats."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim.kernel.vector import RoundMode, cast_values

BF16 = np.dtype(ml_dtypes.bfloat16)
rng = np.random.default_rng(1234)


def data(dtype: np.dtype, n: int, lo: float = -8, hi: float = 8) -> np.ndarray:
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        return rng.integers(max(lo, np.iinfo(dt).min), min(hi, np.iinfo(dt).max), n).astype(dt)
    return rng.uniform(lo, hi, n).astype(np.float32).astype(dt)


def same(a: np.ndarray, b: np.ndarray) -> bool:
    """Bit-for-bit equality (NaNs compare by bits)."""
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


BINARY = [("add", np.add), ("sub", np.subtract), ("mul", np.multiply), ("max", np.maximum),
          ("min", np.minimum)]


@pytest.mark.parametrize("name,ref", BINARY)
@pytest.mark.parametrize("dtype", [np.float16, np.float32, BF16, np.int16, np.int32])
def test_binary_count_form(vec, name, ref, dtype) -> None:
    n = 200
    x, y = data(dtype, n), data(dtype, n)
    op = getattr(asc, name)
    (z,) = vec(lambda z, a, b: op(z, a, b, n), [x, y], [np.zeros(n, dtype)])
    assert same(z, ref(x, y).astype(dtype))


def test_div_and_int_wraparound(vec) -> None:
    x, y = data(np.float32, 64), data(np.float32, 64, 1, 4)
    (z,) = vec(lambda z, a, b: asc.div(z, a, b, 64), [x, y], [np.zeros(64, np.float32)])
    assert same(z, x / y)
    a = np.full(16, 32767, np.int16)
    b = np.ones(16, np.int16)
    (z16,) = vec(lambda z, p, q: asc.add(z, p, q, 16), [a, b], [np.zeros(16, np.int16)])
    assert same(z16, a + b)  # wraps to -32768, as the hardware's int16 add
    with pytest.raises(Exception, match="div does not support int32"):
        vec(lambda z, p, q: asc.div(z, p, q, 8), [np.ones(8, np.int32)] * 2, [np.zeros(8, np.int32)])


UNARY = [("exp", np.exp, 0), ("ln", np.log, 0), ("sqrt", np.sqrt, 0), ("abs", np.abs, 0),
         ("relu", lambda x: np.maximum(x, 0), 0)]


@pytest.mark.parametrize("name,ref,_", UNARY)
@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_unary_count_form(vec, name, ref, _, dtype) -> None:
    n = 96
    x = data(dtype, n, 0.1, 4) if name in ("ln", "sqrt") else data(dtype, n, -4, 4)
    op = getattr(asc, name)
    (z,) = vec(lambda z, a: op(z, a, n), [x], [np.zeros(n, dtype)])
    assert same(z, ref(x).astype(dtype))


def test_rsqrt_reciprocal(vec) -> None:
    x = data(np.float16, 64, 0.5, 4)
    (r, q) = vec(lambda r, q, a: (asc.rsqrt(r, a, 64), asc.reciprocal(q, a, 64)), [x],
                 [np.zeros(64, np.float16), np.zeros(64, np.float16)])
    np.testing.assert_allclose(r.astype(np.float32), 1 / np.sqrt(x.astype(np.float32)), rtol=1e-3)
    np.testing.assert_allclose(q.astype(np.float32), 1 / x.astype(np.float32), rtol=1e-3)


@pytest.mark.parametrize("name,ref", [("adds", np.add), ("muls", np.multiply), ("maxs", np.maximum),
                                      ("mins", np.minimum)])
@pytest.mark.parametrize("dtype", [np.float16, np.int32])
def test_scalar_forms(vec, name, ref, dtype) -> None:
    n = 80
    x = data(dtype, n)
    s = 3
    op = getattr(asc, name)
    (z,) = vec(lambda z, a: op(z, a, s, n), [x], [np.zeros(n, dtype)])
    assert same(z, ref(x, np.dtype(dtype).type(s)).astype(dtype))


def test_duplicate_both_forms(vec) -> None:
    (z, w) = vec(lambda z, w: (asc.duplicate(z, 1.5, 100), asc.duplicate(w, 7, 16, 2, 1, 8)), [],
                 [np.zeros(128, np.float16), np.zeros(128, np.int32)])
    assert same(z, np.r_[np.full(100, 1.5), np.zeros(28)].astype(np.float16))
    expect = np.zeros(128, np.int32)
    expect[:16] = 7  # repeat 0: first 16 elements
    expect[64:80] = 7  # repeat 1 starts 8 blocks (64 int32) later
    assert same(w, expect)


def test_binary_mask_repeat_form(vec) -> None:
    # float16: 128 elements per repeat; continuous mask 100 of 128, 2 repeats, dst repeat stride 8 blocks
    x, y = data(np.float16, 256), data(np.float16, 256)
    init = np.full(256, -1, np.float16)
    (z,) = vec(lambda z, a, b: asc.add(z, a, b, 100, 2, asc.BinaryRepeatParams()), [x, y], [init])
    expect = init.copy()
    for r in range(2):
        sl = slice(128 * r, 128 * r + 100)
        expect[sl] = x[sl] + y[sl]
    assert same(z, expect)


def test_bitmask_and_block_strides(vec) -> None:
    # float32: 8 elements per block, 64 per repeat; bit mask selects even elements of mask[0]
    x, y = data(np.float32, 512), data(np.float32, 512)
    init = np.zeros(512, np.float32)
    mask = [0x5555555555555555]
    params = asc.BinaryRepeatParams(dst_blk_stride=1, src0_blk_stride=2, src1_blk_stride=1, dst_rep_stride=8,
                                    src0_rep_stride=16, src1_rep_stride=8)
    (z,) = vec(lambda z, a, b: asc.mul(z, a, b, mask, 3, params), [x, y], [init])
    expect = init.copy()
    for r in range(3):
        for blk in range(8):
            for e in range(0, 8, 2):
                i = blk * 8 + e
                expect[r * 64 + i] = x[r * 128 + blk * 16 + e] * y[r * 64 + i]
    assert same(z, expect)


def test_unary_mask_form(vec) -> None:
    x = data(np.float16, 256, 0.1, 2)
    init = np.zeros(256, np.float16)
    p = asc.UnaryRepeatParams(dst_rep_stride=8, src_rep_stride=8)
    (z,) = vec(lambda z, a: asc.exp(z, a, 64, 2, p), [x], [init])
    expect = init.copy()
    for r in range(2):
        expect[128 * r:128 * r + 64] = np.exp(x[128 * r:128 * r + 64])
    assert same(z, expect)
    (w,) = vec(lambda z, a: asc.adds(z, a, 2.0, 128, 1, p), [x], [init])
    assert same(w[:128], (x[:128] + np.float16(2)).astype(np.float16))


@pytest.mark.parametrize("src,dst,mode", [
    (np.float32, np.float16, RoundMode.CAST_NONE), (np.float32, np.float16, RoundMode.CAST_FLOOR),
    (np.float32, np.float16, RoundMode.CAST_CEIL), (np.float32, np.float16, RoundMode.CAST_TRUNC),
    (np.float32, np.float16, RoundMode.CAST_ODD), (np.float32, BF16, RoundMode.CAST_RINT),
    (np.float16, np.float32, RoundMode.CAST_NONE), (np.float32, np.int32, RoundMode.CAST_RINT),
    (np.float32, np.int32, RoundMode.CAST_FLOOR), (np.float16, np.int16, RoundMode.CAST_ROUND),
    (np.int32, np.float32, RoundMode.CAST_NONE),
])
def test_cast(vec, src, dst, mode) -> None:
    x = data(src, 64, -1000, 1000)
    (z,) = vec(lambda z, a: asc.cast(z, a, mode, 64), [x], [np.zeros(64, dst)])
    assert same(z, cast_values(x, np.dtype(dst), mode))
    x64 = x.astype(np.float64)
    z64 = z.astype(np.float64)
    if mode is RoundMode.CAST_FLOOR:
        assert (z64 <= x64).all()
    if mode is RoundMode.CAST_CEIL:
        assert (z64 >= x64).all()
    if mode is RoundMode.CAST_TRUNC:
        assert (np.abs(z64) <= np.abs(x64)).all()


def test_cast_values_directed_rounding_is_one_ulp() -> None:
    f16 = np.dtype(np.float16)
    x = np.array([1.0001, -1.0001, 1e-8, -1e-8, 2.5], np.float32)
    one_up = np.nextafter(np.float16(1), np.float16(2))
    tiny = np.nextafter(np.float16(0), np.float16(1))
    assert cast_values(x, f16, RoundMode.CAST_FLOOR).tolist() == [1.0, -float(one_up), 0.0, -float(tiny), 2.5]
    assert cast_values(x, f16, RoundMode.CAST_CEIL).tolist() == [float(one_up), -1.0, float(tiny), 0.0, 2.5]
    assert cast_values(x, f16, RoundMode.CAST_TRUNC).tolist() == [1.0, -1.0, 0.0, 0.0, 2.5]
    assert cast_values(x, f16, RoundMode.CAST_ODD).tolist() == [float(one_up), -float(one_up), float(tiny),
                                                                -float(tiny), 2.5]
    assert cast_values(np.array([2.5, -2.5, 3.5], np.float32), np.dtype(np.int32), RoundMode.CAST_ROUND
                       ).tolist() == [3, -3, 4]
    rint = cast_values(np.array([2.5, 3.5], np.float32), np.dtype(np.int32), RoundMode.CAST_RINT)
    assert rint.tolist() == [2, 4]
    assert cast_values(np.array([1e10, np.nan], np.float32), np.dtype(np.int16), RoundMode.CAST_RINT
                       ).tolist() == [32767, 0]


@pytest.mark.parametrize("mode,ref", [(asc.CMPMODE.LT, np.less), (asc.CMPMODE.GE, np.greater_equal),
                                      (asc.CMPMODE.EQ, np.equal), (asc.CMPMODE.NE, np.not_equal)])
def test_compare_and_select(vec, mode, ref) -> None:
    n = 128
    x, y = data(np.float16, n, -3, 3).round(), data(np.float16, n, -3, 3).round()
    mask_init = np.zeros(32, np.uint8)
    (m,) = vec(lambda m, a, b: asc.compare(m, a, b, mode, n), [x, y], [mask_init])
    bits = ref(x, y)
    assert same(m[:n // 8], np.packbits(bits, bitorder="little"))
    (z,) = vec(lambda z, mm, a, b: asc.select(z, mm, a, b, asc.SELMODE.VSEL_TENSOR_TENSOR_MODE, n),
               [m, x, y], [np.zeros(n, np.float16)])
    assert same(z, np.where(bits, x, y))
    (s,) = vec(lambda z, mm, a: asc.select(z, mm, a, 9.0, asc.SELMODE.VSEL_TENSOR_SCALAR_MODE, n), [m, x],
               [np.zeros(n, np.float16)])
    assert same(s, np.where(bits, x, np.float16(9)))
    (c,) = vec(lambda c, a: asc.compare_scalar(c, a, 0.0, mode, n), [x], [mask_init])
    assert same(c[:n // 8], np.packbits(ref(x, np.float16(0)), bitorder="little"))


def test_cast_mask_repeat_form(vec) -> None:
    # float -> half: 64 elements per repeat; the half destination's blocks hold 16 elements,
    # so a contiguous destination takes dst_rep_stride 4 (blocks of 32 B)
    x = data(np.float32, 192, -1000, 1000)
    init = np.full(192, -1, np.float16)
    p = asc.UnaryRepeatParams(dst_blk_stride=1, src_blk_stride=1, dst_rep_stride=4, src_rep_stride=8)
    (z,) = vec(lambda z, a: asc.cast(z, a, RoundMode.CAST_FLOOR, 40, 3, p), [x], [init])
    expect = init.copy()
    for r in range(3):
        sl = slice(64 * r, 64 * r + 40)
        expect[sl] = cast_values(x[sl], np.dtype(np.float16), RoundMode.CAST_FLOOR)
    assert same(z, expect)
    # half -> int32 with a bit mask (odd elements) and a source block stride of 2
    h = data(np.float16, 256, -100, 100)
    p2 = asc.UnaryRepeatParams(dst_blk_stride=1, src_blk_stride=2, dst_rep_stride=8, src_rep_stride=8)
    (w,) = vec(lambda z, a: asc.cast(z, a, RoundMode.CAST_RINT, [0xAAAAAAAAAAAAAAAA], 1, p2), [h],
               [np.zeros(64, np.int32)])
    expect_w = np.zeros(64, np.int32)
    for j in range(1, 64, 2):  # element j: source block j // 16 at stride 2, offset j % 16
        expect_w[j] = np.rint(np.float64(h[(j // 16) * 32 + j % 16]))
    assert same(w, expect_w)
    with pytest.raises(Exception, match="UnaryRepeatParams"):
        vec(lambda z, a: asc.cast(z, a, RoundMode.CAST_RINT, 64, 1, asc.BinaryRepeatParams()), [h],
            [np.zeros(64, np.int32)])


def test_compare_mask_repeat_form(vec) -> None:
    # float32: 64 elements (bits) per repeat, results packed repeat after repeat; masked bits keep their value
    x, y = data(np.float32, 192, -3, 3).round(), data(np.float32, 192, -3, 3).round()
    init = np.full(32, 0xFF, np.uint8)
    (m,) = vec(lambda m, a, b: asc.compare(m, a, b, asc.CMPMODE.LT, 48, 3, asc.BinaryRepeatParams()), [x, y],
               [init])
    bits = np.ones(256, bool)
    for r in range(3):
        bits[64 * r:64 * r + 48] = x[64 * r:64 * r + 48] < y[64 * r:64 * r + 48]
    assert same(m[:24], np.packbits(bits[:192], bitorder="little")) and (m[24:] == 0xFF).all()
    # compare_scalar, float16 (128 per repeat), second source repeat read with stride 16 blocks
    h = data(np.float16, 512, -3, 3).round()
    p = asc.UnaryRepeatParams(src_rep_stride=16)
    (c,) = vec(lambda c, a: asc.compare_scalar(c, a, 0.0, asc.CMPMODE.GE, 128, 2, p), [h],
               [np.zeros(32, np.uint8)])
    expect = np.concatenate([h[:128] >= 0, h[256:384] >= 0])
    assert same(c, np.packbits(expect, bitorder="little"))


@pytest.mark.parametrize("mode", [asc.SELMODE.VSEL_CMPMASK_SPR, asc.SELMODE.VSEL_TENSOR_SCALAR_MODE,
                                  asc.SELMODE.VSEL_TENSOR_TENSOR_MODE])
def test_select_modes_both_forms(vec, mode) -> None:
    n = 256  # float16: 2 repeats of 128
    x, y = data(np.float16, n), data(np.float16, n)
    sel = rng.integers(0, 256, 32).astype(np.uint8)
    bits = np.unpackbits(sel, bitorder="little").astype(bool)
    # mode 0 reuses the first 128 bits for every repeat; modes 1 and 2 read the bits one after another
    per_element = np.resize(bits[:128], n) if mode is asc.SELMODE.VSEL_CMPMASK_SPR else bits[:n]
    other = np.float16(5) if mode is asc.SELMODE.VSEL_TENSOR_SCALAR_MODE else y
    scalar_mode = mode is asc.SELMODE.VSEL_TENSOR_SCALAR_MODE
    if scalar_mode:
        (z,) = vec(lambda z, s, a: asc.select(z, s, a, 5.0, mode, n), [sel, x], [np.zeros(n, np.float16)])
    else:
        (z,) = vec(lambda z, s, a, b: asc.select(z, s, a, b, mode, n), [sel, x, y], [np.zeros(n, np.float16)])
    assert same(z, np.where(per_element, x, other).astype(np.float16))
    # mask/repeat form: mask 100 of 128, elements past it keep dst
    init = np.full(n, -1, np.float16)
    p = asc.BinaryRepeatParams()
    if scalar_mode:
        (w,) = vec(lambda z, s, a: asc.select(z, s, a, 5.0, mode, 100, 2, p), [sel, x], [init])
    else:
        (w,) = vec(lambda z, s, a, b: asc.select(z, s, a, b, mode, 100, 2, p), [sel, x, y], [init])
    expect = init.copy()
    full = np.where(per_element, x, other).astype(np.float16)
    for r in range(2):
        expect[128 * r:128 * r + 100] = full[128 * r:128 * r + 100]
    assert same(w, expect)


def test_select_mask_too_short_reads_the_next_buffer(vec) -> None:
    # 512 elements need 64 B of mask bits; the mask tensor's buffer holds 32: the device reads
    # the next 32 B of UB (here the first input's ones: every bit set, src0 selected), and
    # aclsim reports the read past the buffer
    with pytest.warns(asc.KernelSanitizerWarning, match="read past a local buffer .* by select"):
        (z,) = vec(lambda z, s, a, b: asc.select(z, s, a, b, asc.SELMODE.VSEL_TENSOR_TENSOR_MODE, 512),
                   [np.zeros(32, np.uint8), np.full(512, 2, np.float16), np.ones(512, np.float16)],
                   [np.zeros(512, np.float16)])
    assert (z[:256] == 1).all()  # mask bytes 0..31 are zero: src1


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_reduce_sum_max_min(vec, dtype) -> None:
    n = 300
    x = data(dtype, n)
    work = np.zeros(64, dtype)
    (s, mx, mn) = vec(lambda s, mx, mn, w, a: (asc.reduce_sum(s, a, w, n), asc.reduce_max(mx, a, w, n, True),
                                              asc.reduce_min(mn, a, w, n)),
                      [work, x], [np.zeros(16, dtype)] * 3)
    np.testing.assert_allclose(float(s[0]), float(x.astype(np.float64).sum()),
                               rtol=2e-3 if dtype == np.float16 else 1e-5, atol=1e-2)
    assert mx[0] == x.max() and mn[0] == x.min()
    uint = np.uint16 if dtype == np.float16 else np.uint32
    assert int(mx[1:2].view(uint)[0]) == int(np.argmax(x))


def test_reduce_sum_mask_form_and_int(vec) -> None:
    x = data(np.float32, 256)
    (s,) = vec(lambda s, w, a: asc.reduce_sum(s, a, w, 32, 4, 8), [np.zeros(64, np.float32), x],
               [np.zeros(8, np.float32)])
    expect = sum(x[64 * r:64 * r + 32].astype(np.float64).sum() for r in range(4))
    np.testing.assert_allclose(float(s[0]), expect, rtol=1e-5)
    xi = data(np.int32, 100, -1000, 1000)
    (si,) = vec(lambda s, w, a: asc.reduce_sum(s, a, w, 100), [np.zeros(8, np.int32), xi],
                [np.zeros(8, np.int32)])
    assert int(si[0]) == int(xi.sum())


def test_whole_reduce(vec) -> None:
    x = data(np.float16, 384)  # 3 repeats of 128
    (s, mx) = vec(lambda s, mx, a: (asc.whole_reduce_sum(s, a, 128, 3, 1, 1, 8),
                                    asc.whole_reduce_max(mx, a, 128, 3, 1, 1, 8)),
                  [x], [np.zeros(16, np.float16), np.zeros(16, np.float16)])
    rows = x.reshape(3, 128)
    np.testing.assert_allclose(s[:3].astype(np.float32), rows.astype(np.float32).sum(1), rtol=2e-3, atol=0.05)
    assert same(mx[0:6:2], rows.max(1))
    assert mx[1:6:2].view(np.uint16).tolist() == np.argmax(rows, 1).tolist()
    (mn,) = vec(lambda mn, a: asc.whole_reduce_min(mn, a, 64, 3, 1, 1, 8, asc.ReduceOrder.ORDER_ONLY_VALUE),
                [x], [np.zeros(16, np.float16)])
    assert same(mn[:3], rows[:, :64].min(1))


def test_scalar_get_set_value(vec) -> None:
    x = data(np.float32, 16)

    def body(z, a):
        v = a.get_value(3)
        z.set_value(0, v * 2)
        z.set_value(1, a.get_value(15))

    (z,) = vec(body, [x], [np.zeros(8, np.float32)])
    assert z[0] == np.float32(x[3] * 2) and z[1] == x[15]


def test_operator_dtype_mismatch_is_a_type_error(vec) -> None:
    with pytest.raises(Exception, match="share one dtype"):
        vec(lambda z, a, b: asc.add(z, a, b, 16), [np.ones(16, np.float16), np.ones(16, np.float32)],
            [np.zeros(16, np.float16)])



@asc.kernel
def compare_count_kernel(scalar: bool, n: int, m_ptr, x_ptr, y_ptr) -> None:
    pipe = asc.TPipe()
    bufs = [asc.TBuf(asc.TPosition.VECCALC) for _ in range(3)]
    tensors = []
    dtypes = (asc.uint8, asc.float16, asc.float16)
    for buf, ptr, dtype, count in zip(bufs, (m_ptr, x_ptr, y_ptr), dtypes, (32, n, n), strict=True):
        pipe.init_buffer(buf, 512)
        t, g = buf.get(dtype), asc.GlobalTensor(dtype)
        g.set_global_buffer(ptr)
        asc.data_copy_pad(t, g, asc.DataCopyExtParams(1, count * np.dtype(dtype).itemsize, 0, 0, 0))
        tensors.append((t, g))
    (m, gm), (a, _), (b, _) = tensors
    asc.pipe_barrier(asc.PIPE_ALL)
    if scalar:
        asc.compare_scalar(m, a, 0.0, asc.CMPMODE.GE, n)
    else:
        asc.compare(m, a, b, asc.CMPMODE.LT, n)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.data_copy_pad(gm, m, asc.DataCopyExtParams(1, 32, 0, 0, 0))


def test_compare_count_form_computes_whole_repeats_only(run) -> None:
    # documented: count * sizeof(T) must be a multiple of 256 B; the unaligned rest takes no part
    n = 200  # float16: one whole repeat of 128, 72 elements past it
    x, y = data(np.float16, n, -3, 3).round(), data(np.float16, n, -3, 3).round()
    for scalar in (False, True):
        with pytest.warns(asc.KernelSanitizerWarning, match="not computed"):
            launch, (m, _, _) = run(compare_count_kernel, 1, np.full(32, 0xFF, np.uint8), x, y,
                                    extra=(scalar, n))
        ref = x[:128] >= 0 if scalar else x[:128] < y[:128]
        assert same(m[:16], np.packbits(ref, bitorder="little")) and (m[16:] == 0xFF).all()
        (d,) = [d for d in launch.diagnostics if d.kind == "ignored_tail"]
        assert (d.end - d.start, d.op) == (72 * 2, "compare_scalar" if scalar else "compare")
        assert "multiple of 256 B" in str(d) and d.line > 0
