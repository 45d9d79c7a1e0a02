"""``int4b_t`` in the cube loads the documentation allows on Atlas A2/A3: img2col (LoadData with
LoadData3DParamsV2) into L0A and LoadDataWithTranspose into L0B, each checked exactly through an mmad
against NumPy; and the combinations the documentation excludes, refused with the page named."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors

P = asc.TPosition
I4 = asc.int4b_t


def pack(v: np.ndarray) -> np.ndarray:
    """int4 values -8..7 as the device packs them: element 2k in the low nibble of byte k."""
    u = (np.asarray(v, np.int64).ravel() & 0xF).astype(np.uint8)
    u = np.append(u, np.zeros(u.size % 2, np.uint8))
    return u[0::2] | (u[1::2] << 4)


def _bufs(pipe: Any, sizes: dict[Any, int]) -> dict[Any, Any]:
    bufs = {p: asc.TBuf(p) for p in sizes}
    for p, buf in bufs.items():
        pipe.init_buffer(buf, sizes[p])
    return bufs


@asc.kernel
def img2col_mm(c: int, h: int, w: int, p3: Any, n: int, fm: Any, bt: Any, out: Any) -> None:
    """fm (NC1HWC0, int4) GM -> L1, img2col into L0A; B^T (n rows of k_extension) GM -> L1 by ND2NZ ->
    L0B; mmad; fixpipe."""
    mx, kx = p3.m_extension, p3.k_extension
    m1, k1, n1 = -(-mx // 16), kx // 64, n // 16
    pipe = asc.TPipe()
    bufs = _bufs(pipe, {P.A1: c * h * w // 2, P.B1: k1 * n1 * 512, P.A2: m1 * k1 * 512, P.B2: k1 * n1 * 512,
                        P.CO1: m1 * n1 * 1024})
    gf, gb, gc = asc.GlobalTensor(I4), asc.GlobalTensor(I4), asc.GlobalTensor(asc.int32)
    gf.set_global_buffer(fm)
    gb.set_global_buffer(bt)
    gc.set_global_buffer(out)
    a1, b1, a2, b2 = (bufs[q].get(I4) for q in (P.A1, P.B1, P.A2, P.B2))
    asc.data_copy(a1, gf, c * h * w)
    asc.data_copy(b1, gb, asc.Nd2NzParams(1, n, kx, 0, kx, n, 1, 0))
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.load_data(a2, a1, p3)  # LoadData(dst, src, LoadData3DParamsV2): img2col of int4b_t
    asc.load_data(b2, b1, asc.LoadData2DParams(0, k1 * n1, 1))
    asc.pipe_barrier(asc.PIPE_ALL)
    c1 = bufs[P.CO1].get(asc.int32)
    asc.mmad(c1, a2, b2, asc.MmadParams(mx, n, kx))
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.fixpipe(gc, c1, asc.FixpipeParamsV220(n, mx, m1 * 16, n, False, asc.QuantMode.NoQuant))


def im2col_reference(fm: np.ndarray, p: asc.LoadData3DParamsV2) -> np.ndarray:
    """The img2col matrix by its definition, element by element: row (ho, wo), column (c1, kh, kw, c0)."""
    c1n, h, w, c0n = fm.shape
    left, right, top, bottom = p.pad_list
    fh, fw, sh, sw = p.filter_h, p.filter_w, p.stride_h, p.stride_w
    dh, dw = p.dilation_filter_h, p.dilation_filter_w
    h_out = (h + top + bottom - (fh - 1) * dh - 1) // sh + 1
    w_out = (w + left + right - (fw - 1) * dw - 1) // sw + 1
    x = np.zeros((h_out * w_out, c1n * fh * fw * c0n), np.int64)
    for ho in range(h_out):
        for wo in range(w_out):
            col = 0
            for c1 in range(c1n):
                for kh in range(fh):
                    for kw in range(fw):
                        hi, wi = ho * sh + kh * dh - top, wo * sw + kw * dw - left
                        inside = 0 <= hi < h and 0 <= wi < w
                        x[ho * w_out + wo, col:col + c0n] = fm[c1, hi, wi] if inside else p.pad_value
                        col += c0n
    return x


@pytest.mark.parametrize("c, h, w, fh, fw, stride, dil, pads, pad_value, ms, mx, ks, kx", [
    (64, 5, 6, 3, 2, 1, 1, (1, 0, 1, 1), -3, 0, 20, 0, 384),  # padding, a partial last M fractal
    (128, 6, 5, 2, 2, 2, 1, (0, 1, 0, 0), 5, 2, 7, 64, 384),  # two C1 planes, stride 2, M/K windows
    (64, 7, 7, 2, 3, 1, 2, (0, 0, 0, 0), 0, 3, 12, 64, 320),  # dilation 2
])
def test_img2col_of_int4_into_l0a_feeds_an_exact_mmad(run, c, h, w, fh, fw, stride, dil, pads, pad_value, ms,
                                                       mx, ks, kx) -> None:
    rng = np.random.default_rng(c + h + w + ms)
    fm = rng.integers(-8, 8, (c // 64, h, w, 64))
    n = 32
    bt = rng.integers(-8, 8, (n, kx))
    p3 = asc.LoadData3DParamsV2(pad_list=pads, l1_h=h, l1_w=w, channel_size=c, k_extension=kx,
                                m_extension=mx, k_start_pt=ks, m_start_pt=ms, stride_w=stride,
                                stride_h=stride, filter_w=fw, filter_h=fh, dilation_filter_w=dil,
                                dilation_filter_h=dil, pad_value=pad_value)
    launch, (_, _, out) = run(img2col_mm, 1, pack(fm), pack(bt), np.zeros((mx, n), np.int32),
                              extra=(c, h, w, p3, n))
    x = im2col_reference(fm, p3)[ms:ms + mx, ks:ks + kx]
    assert np.array_equal(out, x @ bt.T)
    load = [i for i in launch.streams[0] if i.op == "load_data"][0]
    assert load.reads[0].length == c * h * w // 2 and load.writes[0].length == -(-mx // 16) * (kx // 64) * 512


@asc.kernel
def transposed_b_mm(m: int, n: int, k: int, a: Any, b: Any, out: Any) -> None:
    """A (m x k, ND) -> L1 NZ -> L0A; B (k x n, ND, not transposed) -> L1 NZ (16 x 64 fractals down K) ->
    LoadDataWithTranspose (64 x 64 squares) -> L0B nZ; mmad; fixpipe."""
    m1, k1, n1, k64, n64 = -(-m // 16), k // 64, n // 16, k // 64, n // 64
    pipe = asc.TPipe()
    bufs = _bufs(pipe, {P.A1: m1 * k1 * 512, P.B1: k * n // 2, P.A2: m1 * k1 * 512, P.B2: k1 * n1 * 512,
                        P.CO1: m1 * n1 * 1024})
    ga, gb, gc = asc.GlobalTensor(I4), asc.GlobalTensor(I4), asc.GlobalTensor(asc.int32)
    ga.set_global_buffer(a)
    gb.set_global_buffer(b)
    gc.set_global_buffer(out)
    a1, b1, a2, b2 = (bufs[q].get(I4) for q in (P.A1, P.B1, P.A2, P.B2))
    asc.data_copy(a1, ga, asc.Nd2NzParams(1, m, k, 0, k, m1 * 16, 1, 0))
    asc.data_copy(b1, gb, asc.Nd2NzParams(1, k, n, 0, n, k, 1, 0))  # column groups of 64 n, k rows each
    asc.pipe_barrier(asc.PIPE_ALL)
    for i in range(m1):
        asc.load_data(a2[i * k1 * 1024], a1, asc.LoadData2DParams(i, k1, m1))
    for kg in range(k64):  # squares (kg, j) of L1 -> fractals kg * n1 + 4 j .. 4 j + 3 of L0B
        asc.load_data_with_transpose(b2[kg * n1 * 1024], b1,
                                     asc.LoadData2dTransposeParams(kg, n64, k64, 3, 0))
    asc.pipe_barrier(asc.PIPE_ALL)
    c1 = bufs[P.CO1].get(asc.int32)
    asc.mmad(c1, a2, b2, asc.MmadParams(m, n, k))
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.fixpipe(gc, c1, asc.FixpipeParamsV220(n, m, m1 * 16, n, False, asc.QuantMode.NoQuant))


@pytest.mark.parametrize("m, n, k", [(20, 64, 64), (16, 128, 192)])
def test_load_data_with_transpose_of_int4_into_l0b(run, m, n, k) -> None:
    rng = np.random.default_rng(m * n + k)
    a, b = rng.integers(-8, 8, (m, k)), rng.integers(-8, 8, (k, n))
    launch, (_, _, out) = run(transposed_b_mm, 1, pack(a), pack(b), np.zeros((m, n), np.int32),
                              extra=(m, n, k))
    assert np.array_equal(out, a @ b)
    loads = [i for i in launch.streams[0] if i.op == "load_data_with_transpose"]
    assert len(loads) == k // 64 and all(i.writes[0].length == 4 * (n // 64) * 512 for i in loads)


@asc.kernel
def excluded(case: str, x: Any) -> None:
    pipe = asc.TPipe()
    bufs = _bufs(pipe, {P.A1: 2048, P.A2: 2048, P.B2: 2048, P.VECIN: 256})
    a1, a2, b2 = (bufs[q].get(I4) for q in (P.A1, P.A2, P.B2))
    if case == "transpose_l0a":
        asc.load_data_with_transpose(a2, a1, asc.LoadData2dTransposeParams(0, 1, 1, 0, 0))
    elif case in ("img2col_l0b", "img2col_transpose"):
        dst = b2 if case == "img2col_l0b" else a2
        p3 = asc.LoadData3DParamsV2(l1_h=2, l1_w=2, channel_size=64, k_extension=64, m_extension=4,
                                    en_transpose=case == "img2col_transpose")
        asc.load_data(dst, a1, p3)
    else:
        g = asc.GlobalTensor(I4)
        g.set_global_buffer(x)
        asc.data_copy_pad(bufs[P.VECIN].get(I4), g, asc.DataCopyExtParams(1, 16, 0, 0, 0),
                          asc.DataCopyPadExtParams(True, 0, 32, 0))


@pytest.mark.parametrize("case, page", [
    ("transpose_l0a", "LoadDataWithTranspose.md"),
    ("img2col_l0b", "LoadData_3D.md"),
    ("img2col_transpose", "LoadData_3D.md"),
    ("pad", "GMToUB非对齐数据搬运(DataCopyPad).md"),
])
def test_combinations_the_documentation_excludes_are_refused(run, case, page) -> None:
    with pytest.raises(errors.TaskError) as info:
        run(excluded, 1, np.zeros(64, np.uint8), extra=(case,))
    e = info.value.cause
    assert isinstance(e, errors.FeatureNotSupportedError), e
    assert "the documentation excludes" in str(e) and page in str(e) and e.file == __file__
