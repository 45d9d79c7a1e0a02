"""Cube paths: LoadDataWithTranspose (8/16/32-bit squares), HF32 mmad, img2col (LoadData3DParamsV2), unit_flag
values, the helpers and constants."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors

F16, F32, I8 = asc.float16, asc.float32, asc.int8
P = asc.TPosition


def launch_fault(run, kern, *arrays, block_dim: int = 1, extra=()) -> BaseException:
    with pytest.raises(errors.TaskError) as info:
        run(kern, block_dim, *arrays, extra=extra)
    return info.value.cause


# --- LoadDataWithTranspose ------------------------------------------------------------------------

def _transpose_ref(src: np.ndarray, isz: int, start: int, reps: int, sstride: int, gap: int, fgap: int,
                   dst_len: int) -> np.ndarray:
    """The LoadDataWithTranspose page's pseudocode (element loops), written out independently."""
    frac_shape = {1: (16, 32), 2: (16, 16), 4: (16, 8)}[isz]
    nfrac = 1 if isz == 2 else 2
    fsize = frac_shape[0] * frac_shape[1]
    square = fsize * nfrac
    dst = np.zeros(dst_len, src.dtype)
    for i in range(reps):
        s0 = (start + sstride * i) * square
        d0 = (gap + 1) * i * fsize
        if isz == 4:
            for k in range(8):  # the four quarter moves of the b32 pseudocode
                dst[d0 + 8 * k: d0 + 8 * k + 8] = src[s0 + k: s0 + k + 64: 8]
                d1 = d0 + (fgap + 1) * fsize
                dst[d1 + 8 * k: d1 + 8 * k + 8] = src[s0 + k + 64: s0 + k + 128: 8]
                dst[d0 + 8 * k + 64: d0 + 8 * k + 72] = src[s0 + fsize + k: s0 + fsize + k + 64: 8]
                dst[d1 + 8 * k + 64: d1 + 8 * k + 72] = src[s0 + fsize + k + 64: s0 + fsize + k + 128: 8]
        else:
            side = 16 if isz == 2 else 32
            for j in range(nfrac):
                df = d0 + fsize * (fgap + 1) * j
                for k in range(16):
                    dst[df + k * frac_shape[1]: df + (k + 1) * frac_shape[1]] = \
                        src[s0 + j * 16 + k: s0 + j * 16 + k + square: side][:frac_shape[1]]
    return dst


@pytest.mark.parametrize("dtype", [np.int8, np.float16, np.float32])
@pytest.mark.parametrize("to", [P.A2, P.B2])
def test_load_data_with_transpose_matches_the_pseudocode(run, dtype, to) -> None:
    isz = np.dtype(dtype).itemsize
    start, reps, sstride, gap, fgap = 1, 2, 2, 1, 0
    if isz == 2:
        gap = 0
    n_in = 6 * 1024 // isz
    n_out = 4 * 512 // isz

    @asc.kernel
    def k(x, y):
        pipe = asc.TPipe()
        l1, l0, ub = asc.TBuf(P.A1), asc.TBuf(to), asc.TBuf()
        pipe.init_buffer(l1, n_in * isz)
        pipe.init_buffer(l0, n_out * isz)
        pipe.init_buffer(ub, n_out * isz)
        gx = asc.GlobalTensor(dtype)
        gx.set_global_buffer(x)
        asc.data_copy(l1.get(dtype), gx, n_in)
        asc.pipe_barrier(asc.PIPE_ALL)
        t0 = l0.get(dtype)
        params = asc.LoadData2dTransposeParams(start, reps, sstride, gap, fgap)
        asc.load_data_with_transpose(t0, l1.get(dtype), params)
        asc.pipe_barrier(asc.PIPE_ALL)
        got.append(t0.numpy())

    got: list[np.ndarray] = []
    x = (np.arange(n_in) % 251 - 120).astype(dtype)
    run(k, 1, x, np.zeros(8, np.float32))
    want = _transpose_ref(x, isz, start, reps, sstride, gap, fgap, n_out)  # unwritten: 0, as fresh L0
    np.testing.assert_array_equal(got[0], want)


def test_load_data_with_transpose_is_not_on_the_310p(run) -> None:
    @asc.kernel(chip="310P")
    def k(x):
        pipe = asc.TPipe()
        l1, l0 = asc.TBuf(P.A1), asc.TBuf(P.B2)
        pipe.init_buffer(l1, 1024)
        pipe.init_buffer(l0, 1024)
        asc.load_data_with_transpose(l0.get(F32), l1.get(F32), asc.LoadData2dTransposeParams(0, 1, 1))

    e = launch_fault(run, k, np.zeros(8, np.float32))
    assert isinstance(e, errors.FeatureNotSupportedError)


# --- HF32 -----------------------------------------------------------------------------------------

def _hf32_ref(x: np.ndarray, ties_even: bool) -> np.ndarray:
    """float32 -> 11 mantissa bits by exact float64 arithmetic (an independent rounding)."""
    x64 = x.astype(np.float64)
    m, e = np.frexp(x64)  # x = m * 2**e, 0.5 <= |m| < 1: 12 significant bits = m * 2**12
    scaled = m * 2.0**12
    low = np.floor(np.abs(scaled))
    frac = np.abs(scaled) - low
    up = (frac > 0.5) | ((frac == 0.5) & ties_even & (low % 2 == 1))
    return (np.sign(scaled) * (low + up) * 2.0 ** (e - 12)).astype(np.float32)


@pytest.mark.parametrize("trans", [asc.HF32TransMode.NEAREST_EVEN, asc.HF32TransMode.NEAREST_ZERO])
def test_hf32_mmad_rounds_float32_operands(run, trans) -> None:
    m = n = 16
    k = 8

    @asc.kernel
    def mm(a, bt, c):
        pipe = asc.TPipe()
        bufs = [asc.TBuf(p) for p in (P.A1, P.B1, P.A2, P.B2)]
        for b in bufs:
            pipe.init_buffer(b, 512)
        co1 = asc.TBuf(P.CO1)
        pipe.init_buffer(co1, 1024)
        ga, gb, gc = asc.GlobalTensor(F32), asc.GlobalTensor(F32), asc.GlobalTensor(F32)
        ga.set_global_buffer(a)
        gb.set_global_buffer(bt)
        gc.set_global_buffer(c)
        a1, b1, a2, b2 = (b.get(F32) for b in bufs)
        asc.data_copy(a1, ga, asc.Nd2NzParams(1, m, k, 0, k, m, 1, 0))
        asc.data_copy(b1, gb, asc.Nd2NzParams(1, n, k, 0, k, n, 1, 0))
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.load_data(a2, a1, asc.LoadData2dParams(0, 1, 1))
        asc.load_data(b2, b1, asc.LoadData2dParams(0, 1, 1))
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.set_hf32_trans_mode(trans)
        asc.set_hf32_mode(asc.HF32Mode.ENABLE)
        asc.mmad(co1.get(F32), a2, b2, asc.MmadParams(m, n, k))
        asc.set_hf32_mode(asc.HF32Mode.DISABLE)
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.fixpipe(gc, co1.get(F32), asc.FixpipeParamsV220(n, m, m, n))
        asc.pipe_barrier(asc.PIPE_ALL)

    rng = np.random.default_rng(4)
    a = rng.standard_normal((m, k)).astype(np.float32)
    a[0, 0] = 1 + 2.0**-12  # a tie: down both ways
    a[0, 1] = 1 + 3 * 2.0**-12  # a tie: up to even, down toward zero
    b = rng.standard_normal((k, n)).astype(np.float32)
    launch, (_, _, c) = run(mm, 1, a, np.ascontiguousarray(b.T), np.zeros((m, n), np.float32))
    assert [i.cost.get("hf32") for i in launch.streams[0] if i.op == "mmad"] == [1]
    even = trans is asc.HF32TransMode.NEAREST_EVEN
    ah, bh = _hf32_ref(a, even), _hf32_ref(b, even)
    assert ah[0, 1] == np.float32(1 + (2 if even else 1) * 2.0**-11) and ah[0, 0] == 1.0
    np.testing.assert_allclose(c, ah.astype(np.float64) @ bh.astype(np.float64), rtol=2e-6, atol=2e-6)
    assert not np.allclose(c, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-7, atol=0)


def test_hf32_is_not_on_the_310p(run) -> None:
    @asc.kernel(chip="310P")
    def k(x):
        asc.set_hf32_mode(asc.HF32Mode.ENABLE)

    assert isinstance(launch_fault(run, k, np.zeros(8, np.float32)), errors.FeatureNotSupportedError)


# --- img2col --------------------------------------------------------------------------------------

def _im2col_ref(fm: np.ndarray, pads, stride, dil, filt) -> np.ndarray:
    """Rows: output positions (h_out, w_out); columns: (c1, kh, kw, c0). Element loops."""
    c1, h, w, c0 = fm.shape
    left, right, top, bottom = pads
    fh, fw = filt
    h_out = (h + top + bottom - ((fh - 1) * dil[0] + 1)) // stride[0] + 1
    w_out = (w + left + right - ((fw - 1) * dil[1] + 1)) // stride[1] + 1
    x = np.zeros((h_out * w_out, c1 * fh * fw * c0), fm.dtype)
    for oh in range(h_out):
        for ow in range(w_out):
            for a in range(c1):
                for i in range(fh):
                    for j in range(fw):
                        hh, ww = oh * stride[0] + i * dil[0] - top, ow * stride[1] + j * dil[1] - left
                        if 0 <= hh < h and 0 <= ww < w:
                            col = ((a * fh + i) * fw + j) * c0
                            x[oh * w_out + ow, col:col + c0] = fm[a, hh, ww]
    return x


def test_img2col_conv_through_mmad(run) -> None:
    """A 3 x 3 convolution (pad 1, stride 1, dilation 2 in w) of a 16-channel 6 x 8 half feature map
    into 16 output channels: img2col into L0A, weights into L0B, mmad, fixpipe; against NumPy."""
    c, h, w, cout = 16, 6, 8, 16
    pads, stride, dil, filt = (1, 1, 1, 1), (1, 1), (1, 2), (3, 3)
    x_ref = _im2col_ref(np.zeros((1, h, w, c), np.float16), pads, stride, dil, filt)
    mrows, kcols = x_ref.shape  # 24 output positions, 144 = 16 * 9 columns
    m16 = -(-mrows // 16) * 16

    @asc.kernel
    def conv(fm, wt, out):
        pipe = asc.TPipe()
        a1, b1, a2, b2 = (asc.TBuf(p) for p in (P.A1, P.B1, P.A2, P.B2))
        pipe.init_buffer(a1, c * h * w * 2)
        pipe.init_buffer(b1, kcols * cout * 2)
        pipe.init_buffer(a2, m16 * kcols * 2)
        pipe.init_buffer(b2, kcols * cout * 2)
        co1 = asc.TBuf(P.CO1)
        pipe.init_buffer(co1, m16 * cout * 4)
        gf, gw, go = asc.GlobalTensor(F16), asc.GlobalTensor(F16), asc.GlobalTensor(F32)
        gf.set_global_buffer(fm)
        gw.set_global_buffer(wt)
        go.set_global_buffer(out)
        asc.data_copy(a1.get(F16), gf, c * h * w)  # NC1HWC0, C1 = 1
        asc.data_copy(b1.get(F16), gw, asc.Nd2NzParams(1, cout, kcols, 0, kcols, cout, 1, 0))  # W^T: n x k
        asc.pipe_barrier(asc.PIPE_ALL)
        p3 = asc.LoadData3DParamsV2(pad_list=pads, l1_h=h, l1_w=w, channel_size=c, k_extension=kcols,
                                    m_extension=mrows, stride_h=stride[0], stride_w=stride[1],
                                    filter_h=filt[0], filter_w=filt[1], dilation_filter_h=dil[0],
                                    dilation_filter_w=dil[1])
        asc.load_data(a2.get(F16), a1.get(F16), p3)
        asc.load_data(b2.get(F16), b1.get(F16), asc.LoadData2dParams(0, kcols // 16, 1))
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.mmad(co1.get(F32), a2.get(F16), b2.get(F16), asc.MmadParams(mrows, cout, kcols))
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.fixpipe(go, co1.get(F32), asc.FixpipeParamsV220(cout, mrows, m16, cout))
        asc.pipe_barrier(asc.PIPE_ALL)

    rng = np.random.default_rng(6)
    fm = rng.integers(-3, 4, (1, h, w, c)).astype(np.float16)
    wt = rng.integers(-3, 4, (cout, kcols)).astype(np.float16)  # W^T: cout rows of (kh, kw, c) columns
    launch, (_, _, out) = run(conv, 1, fm, wt, np.zeros((mrows, cout), np.float32))
    x = _im2col_ref(fm, pads, stride, dil, filt)
    np.testing.assert_array_equal(out, x.astype(np.float32) @ wt.T.astype(np.float32))
    ld = [i for i in launch.streams[0] if i.op == "load_data"][0]
    assert ld.reads[0].length == c * h * w * 2 and ld.writes[0].length == m16 * kcols * 2


@pytest.mark.parametrize("to,transpose", [(P.B2, False), (P.A2, True)])
def test_img2col_layouts_into_l0b_and_transposed(run, to, transpose) -> None:
    c, h, w = 16, 5, 5
    pads, stride, dil, filt = (0, 1, 1, 0), (1, 1), (1, 1), (2, 2)
    x = _im2col_ref(np.arange(c * h * w).reshape(1, h, w, c).astype(np.float16), pads, stride, dil, filt)
    ms, mx, ks, kx = 0, 16, 16, 32

    @asc.kernel
    def k(fm):
        pipe = asc.TPipe()
        a1, l0 = asc.TBuf(P.A1), asc.TBuf(to)
        pipe.init_buffer(a1, c * h * w * 2)
        pipe.init_buffer(l0, mx * kx * 2)
        g = asc.GlobalTensor(F16)
        g.set_global_buffer(fm)
        asc.data_copy(a1.get(F16), g, c * h * w)
        asc.pipe_barrier(asc.PIPE_ALL)
        t = l0.get(F16)
        asc.load_data(t, a1.get(F16), asc.LoadData3DParamsV2(
            pad_list=pads, l1_h=h, l1_w=w, channel_size=c, k_extension=kx, m_extension=mx, k_start_pt=ks,
            m_start_pt=ms, stride_h=stride[0], stride_w=stride[1], filter_h=filt[0], filter_w=filt[1],
            en_transpose=transpose))
        asc.pipe_barrier(asc.PIPE_ALL)
        got.append(t.numpy())

    got: list[np.ndarray] = []
    run(k, 1, np.arange(c * h * w).astype(np.float16))
    sub = x[ms:ms + mx, ks:ks + kx]  # 16 x 32
    if to is P.B2:  # nZ of B = sub (K = 16 rows, N = 32): fractals over (1, 2), each n-major
        want = sub.reshape(1, 16, 2, 16).transpose(0, 2, 3, 1).reshape(-1)
    else:  # fractals (k groups outer), each C0 (k) x 16 (m)
        want = sub.reshape(1, 16, 2, 16).transpose(2, 3, 0, 1).reshape(-1)
    np.testing.assert_array_equal(got[0], want)


# --- unit_flag, helpers ---------------------------------------------------------------------------

def test_unit_flag_values(run) -> None:
    @asc.kernel
    def k(x):
        pipe = asc.TPipe()
        a2, b2, co1 = asc.TBuf(P.A2), asc.TBuf(P.B2), asc.TBuf(P.CO1)
        for b, n in ((a2, 512), (b2, 512), (co1, 1024)):
            pipe.init_buffer(b, n)
        asc.mmad(co1.get(F32), a2.get(F16), b2.get(F16), asc.MmadParams(16, 16, 16, unit_flag=1))

    e = launch_fault(run, k, np.zeros(8, np.float32))
    assert isinstance(e, ValueError) and "unit_flag is 0 (off), 2 or 3" in str(e)


def test_helpers_and_chip_constants(run) -> None:
    got = {}

    @asc.kernel
    def k(x):
        got["sizes"] = (asc.total_ub_size(), asc.total_vec_local_size(), asc.total_l1_size(),
                        asc.total_l0a_size(), asc.total_l0b_size(), asc.total_l0c_size())

    run(k, 1, np.zeros(8, np.float32))
    from aclsim.arch import get_chip

    chip = get_chip("tiny")
    assert got["sizes"] == (chip.ub_bytes, chip.ub_usable_bytes, chip.l1_bytes, chip.l0a_bytes,
                            chip.l0b_bytes, chip.l0c_bytes)
    assert (asc.ceil_division(33, 16), asc.ceil_division(0, 16), asc.ceil_division(7, 0)) == (3, 0, 0)
    assert (asc.DEFAULT_C0_SIZE, asc.ONE_BLK_SIZE, asc.BLOCK_CUBE) == (32, 32, 16)
    assert asc.LoadData2dParams is asc.LoadData2DParams


# --- unit flags: the mmad -> fixpipe hand-off with no other sync ------------------------------------

def _unit_flag_kernel(pattern: str):
    m, n, k, kc = 16, 32, 64, 16

    @asc.kernel
    def mm(a, bt, c):
        pipe = asc.TPipe()
        a1, b1, a2, b2 = (asc.TBuf(p) for p in (P.A1, P.B1, P.A2, P.B2))
        for buf, size in zip((a1, b1, a2, b2), (m * k * 2, n * k * 2, m * k * 2, n * k * 2), strict=True):
            pipe.init_buffer(buf, size)
        co1 = asc.TBuf(P.CO1)
        pipe.init_buffer(co1, 2 * m * n * 4)  # two tiles of C (ping-pong)
        ga, gb, gc = asc.GlobalTensor(F16), asc.GlobalTensor(F16), asc.GlobalTensor(F32)
        ga.set_global_buffer(a)
        gb.set_global_buffer(bt)
        gc.set_global_buffer(c)
        ta1, tb1, ta2, tb2 = a1.get(F16), b1.get(F16), a2.get(F16), b2.get(F16)
        asc.data_copy(ta1, ga, asc.Nd2NzParams(1, m, k, 0, k, m, 1, 0))
        asc.data_copy(tb1, gb, asc.Nd2NzParams(1, n, k, 0, k, n, 1, 0))
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.load_data(ta2, ta1, asc.LoadData2dParams(0, k // 16, 1))
        asc.load_data(tb2, tb1, asc.LoadData2dParams(0, (k // 16) * (n // 16), 1))
        asc.pipe_barrier(asc.PIPE_ALL)
        tiles = 2 if pattern == "pingpong" else 1
        for rep in range(2):  # the same tiles twice: the second round waits for the first's fixpipes
            for t in range(tiles):
                ct = co1.get(F32)[t * m * n:]
                for i in range(k // kc):  # K loop: unit_flag 2, the last 3
                    uf = 3 if i == k // kc - 1 else 2
                    asc.mmad(ct, ta2[i * 256], tb2[i * (n // 16) * 256],
                             asc.MmadParams(m, n, kc, cmatrix_init_val=i == 0, unit_flag=uf))
                if pattern == "halves":  # one mmad result leaves in two fixpipes (N halves)
                    for h in range(2):
                        asc.fixpipe(gc[(rep * tiles + t) * m * n + 16 * h], ct[h * 256],
                                    asc.FixpipeParamsV220(16, m, m, n, unit_flag=3))
                elif pattern == "missing":
                    asc.fixpipe(gc, ct, asc.FixpipeParamsV220(n, m, m, n, unit_flag=3))
                    asc.fixpipe(gc, ct, asc.FixpipeParamsV220(n, m, m, n, unit_flag=3))  # HANG
                else:
                    asc.fixpipe(gc[(rep * tiles + t) * m * n], ct,
                                asc.FixpipeParamsV220(n, m, m, n, unit_flag=3))

    return mm, m, n, k


@pytest.mark.parametrize("pattern", ["kloop", "halves", "pingpong"])
def test_unit_flags_order_mmad_and_fixpipe(run, pattern) -> None:
    kern, m, n, k = _unit_flag_kernel(pattern)
    rng = np.random.default_rng(8)
    a = rng.integers(-3, 4, (m, k)).astype(np.float16)
    b = rng.integers(-3, 4, (k, n)).astype(np.float16)
    tiles = 2 if pattern == "pingpong" else 1
    launch, (_, _, c) = run(kern, 1, a, np.ascontiguousarray(b.T), np.zeros((2 * tiles * m, n), np.float32))
    want = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_array_equal(c, np.vstack([want] * 2 * tiles))
    flags = [(i.op, i.src.name, i.dst.name) for i in launch.streams[0] if i.op in ("set_flag", "wait_flag")]
    assert ("set_flag", "M", "FIX") in flags and ("wait_flag", "FIX", "M") in flags or \
        ("wait_flag", "M", "FIX") in flags
    assert launch.report.total_cycles > 0  # the core model ran the hand-off: no lost signal, no deadlock


def test_unit_flag_fixpipe_with_nothing_to_read_would_hang(run) -> None:
    kern, m, n, k = _unit_flag_kernel("missing")
    e = launch_fault(run, kern, np.zeros((m, k), np.float16), np.zeros((n, k), np.float16),
                     np.zeros((m, n), np.float32))
    assert isinstance(e, errors.FeatureNotSupportedError) and "no mmad with unit_flag=3" in str(e)


def test_mmad_params_follow_the_two_cpp_constructors() -> None:
    """Positional arguments land as in Ascend C's constructors (6: the unitFlag one, 8: the
    isBias one), not in the fields' declaration order."""
    six = asc.MmadParams(16, 32, 48, 1, False, False)
    assert (six.unit_flag, six.cmatrix_source, six.cmatrix_init_val, six.is_bias) == (1, False, False, False)
    eight = asc.MmadParams(16, 32, 48, True, 4, False, False, False)
    assert (eight.is_bias, eight.fm_offset, eight.unit_flag, eight.cmatrix_init_val) == (True, 4, 0, True)
    assert asc.MmadParams(16, 32, 48, cmatrix_init_val=False).cmatrix_init_val is False
    for bad in ((1, 2, 3, 4), (1, 2, 3, 4, 5, 6, 7)):
        with pytest.raises(TypeError, match="constructors|positional"):
            asc.MmadParams(*bad)
    with pytest.raises(TypeError, match="both"):
        asc.MmadParams(1, 2, 3, m=4)
