"""data_copy / data_copy_pad (bit-exact, with Ascend C's rounding and stride rules) and the cube path."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim.isa import Pipe

F16, F32 = asc.float16, asc.float32


@asc.kernel
def copy_rounds_down(x, y):
    pipe = asc.TPipe()
    buf = asc.TBuf()
    pipe.init_buffer(buf, 128)
    gx, gy = asc.GlobalTensor(F16), asc.GlobalTensor(F16)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    t = buf.get(F16)
    asc.duplicate(t, -1.0, 64)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.data_copy(t, gx, 20)  # 40 B -> 32 B move: 16 halves
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.data_copy(gy, t, 24)  # 48 B -> 32 B
    asc.pipe_barrier(asc.PIPE_ALL)


def test_data_copy_rounds_down_to_32_bytes(run) -> None:
    x = np.arange(64, dtype=np.float16)
    launch, (_, y) = run(copy_rounds_down, 1, x, np.full(64, 5, np.float16))
    assert y[:16].tolist() == x[:16].tolist() and (y[16:] == 5).all()
    moves = [i for i in launch.streams[0] if i.op == "data_copy"]
    assert [i.cost["bytes"] for i in moves] == [32, 32]


@asc.kernel
def strided_copies(x, y):
    pipe = asc.TPipe()
    buf = asc.TBuf()
    pipe.init_buffer(buf, 1024)
    gx, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    t = buf.get(F32)
    # 4 rows of 16 floats (2 blocks) out of a 4 x 32 matrix: GM gap 2 blocks, UB gap 1 block
    asc.data_copy(t, gx, asc.DataCopyParams(block_count=4, block_len=2, src_stride=2, dst_stride=1))
    asc.pipe_barrier(asc.PIPE_ALL)
    # and back densely into y's rows with a gap of 2 blocks between them
    asc.data_copy(gy, t, asc.DataCopyParams(block_count=4, block_len=2, src_stride=1, dst_stride=2))
    asc.pipe_barrier(asc.PIPE_ALL)


def test_data_copy_params_strides(run) -> None:
    x = np.arange(128, dtype=np.float32)
    _, (_, y) = run(strided_copies, 1, x, np.zeros(128, np.float32))
    expect = np.zeros((4, 32), np.float32)
    expect[:, :16] = x.reshape(4, 32)[:, :16]
    assert (y.reshape(4, 32) == expect).all()


@asc.kernel
def pad_copies(x, y):
    pipe = asc.TPipe()
    buf = asc.TBuf()
    pipe.init_buffer(buf, 1024)
    gx, gy = asc.GlobalTensor(F16), asc.GlobalTensor(F16)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    t = buf.get(F16)
    asc.duplicate(t, 0.0, 512)
    asc.pipe_barrier(asc.PIPE_ALL)
    # 3 rows of 7 halves (14 B), GM rows 10 halves apart; 2 left + 3 right pad -> 24 B -> 32 B per UB row
    asc.data_copy_pad(t, gx, asc.DataCopyExtParams(3, 14, 6, 0, 0),
                      asc.DataCopyPadExtParams(True, 2, 3, 9.0))
    asc.pipe_barrier(asc.PIPE_ALL)
    # write the 3 padded rows (32 B each, 12 halves used) back as 12-half rows, 1 half apart
    asc.data_copy_pad(gy, t, asc.DataCopyExtParams(3, 24, 0, 2, 0))
    asc.pipe_barrier(asc.PIPE_ALL)


def test_data_copy_pad_both_directions(run) -> None:
    x = np.arange(40, dtype=np.float16)
    launch, (_, y) = run(pad_copies, 1, x, np.full(64, -1, np.float16))
    rows = []
    for r in range(3):
        rows.append([9, 9, *x[10 * r:10 * r + 7].tolist(), 9, 9, 9])
    got = [y[13 * r:13 * r + 12].tolist() for r in range(3)]
    assert got == rows
    assert y[12] == -1 and y[25] == -1 and (y[38:] == -1).all()
    pads = [i for i in launch.streams[0] if i.op == "data_copy_pad"]
    assert [(i.pipe, i.cost["bytes"]) for i in pads] == [(Pipe.MTE2, 42), (Pipe.MTE3, 72)]


@asc.kernel
def ub_to_ub(x, y):
    pipe = asc.TPipe()
    a, b = asc.TBuf(), asc.TBuf()
    pipe.init_buffer(a, 256)
    pipe.init_buffer(b, 256)
    gx, gy = asc.GlobalTensor(asc.int8), asc.GlobalTensor(asc.int8)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    ta, tb = a.get(asc.int8), b.get(asc.int8)
    asc.data_copy(ta, gx, 256)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.data_copy(tb, ta, 256)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.data_copy(gy, tb, 256)
    asc.pipe_barrier(asc.PIPE_ALL)


def test_ub_to_ub_runs_on_vector_and_is_exact(run) -> None:
    x = np.random.default_rng(3).integers(-128, 128, 256).astype(np.int8)
    launch, (_, y) = run(ub_to_ub, 1, x, np.zeros(256, np.int8))
    assert (x == y).all()
    assert [i.pipe for i in launch.streams[0] if i.op == "data_copy"] == [Pipe.MTE2, Pipe.V, Pipe.MTE3]


def _up16(x: int) -> int:
    return -(-x // 16) * 16


def _matmul_kernel(in_dtype, acc_dtype, out_dtype, quant, accumulate_twice: bool, relu: bool):
    """The documented flow: GM (ND) -> L1 (NZ) by ND2NZ, L1 -> L0A (zZ) row of fractals by row,
    L1 -> L0B (nZ), mmad into L0C (zN), fixpipe NZ -> ND.  ``b`` arrives as B^T (n x k): its NZ
    form in L1 is B's nZ form, so it loads fractal for fractal (no transpose, any dtype)."""

    @asc.kernel
    def mm(m, n, k, a, bt, c):
        pipe = asc.TPipe()
        bufs = {p: asc.TBuf(p) for p in (asc.TPosition.A1, asc.TPosition.B1, asc.TPosition.A2,
                                          asc.TPosition.B2, asc.TPosition.CO1)}
        isz = np.dtype(in_dtype).itemsize
        c0 = 32 // isz
        m1, n1, k1 = _up16(m) // 16, _up16(n) // 16, -(-k // c0)
        sizes = {asc.TPosition.A1: m1 * k1 * 512, asc.TPosition.B1: k1 * n1 * 512,
                 asc.TPosition.A2: m1 * k1 * 512, asc.TPosition.B2: k1 * n1 * 512,
                 asc.TPosition.CO1: m1 * n1 * 256 * 4}
        for p, buf in bufs.items():
            pipe.init_buffer(buf, sizes[p])
        ga, gb, gc = asc.GlobalTensor(in_dtype), asc.GlobalTensor(in_dtype), asc.GlobalTensor(out_dtype)
        ga.set_global_buffer(a)
        gb.set_global_buffer(bt)
        gc.set_global_buffer(c)
        a1, b1 = bufs[asc.TPosition.A1].get(in_dtype), bufs[asc.TPosition.B1].get(in_dtype)
        a2, b2 = bufs[asc.TPosition.A2].get(in_dtype), bufs[asc.TPosition.B2].get(in_dtype)
        c1 = bufs[asc.TPosition.CO1].get(acc_dtype)
        asc.data_copy(a1, ga, asc.Nd2NzParams(1, m, k, 0, k, _up16(m), 1, 0))
        asc.data_copy(b1, gb, asc.Nd2NzParams(1, n, k, 0, k, _up16(n), 1, 0))
        asc.pipe_barrier(asc.PIPE_ALL)
        for i in range(m1):  # fractal row i of A: fractals (i, 0..k1-1), m1 apart in L1's NZ
            asc.load_data(a2[i * k1 * 512 // isz], a1, asc.LoadData2DParams(i, k1, m1))
        asc.load_data(b2, b1, asc.LoadData2DParams(0, k1 * n1, 1))
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.mmad(c1, a2, b2, asc.MmadParams(m, n, k))
        if accumulate_twice:
            asc.pipe_barrier(asc.PIPE_ALL)
            asc.mmad(c1, a2, b2, asc.MmadParams(m, n, k, cmatrix_init_val=False))
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.fixpipe(gc, c1, asc.FixpipeParamsV220(n, m, _up16(m), n, relu, quant))
        asc.pipe_barrier(asc.PIPE_ALL)

    return mm


def test_mmad_fp16_accumulates_in_fp32(run) -> None:
    m, n, k = 32, 48, 64
    rng = np.random.default_rng(5)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    kern = _matmul_kernel(F16, F32, F32, asc.QuantMode.NoQuant, accumulate_twice=True, relu=False)
    bt = np.ascontiguousarray(b.T)
    launch, (_, _, c) = run(kern, 1, a, bt, np.zeros((m, n), np.float32), extra=(m, n, k))
    ref = 2 * (a.astype(np.float64) @ b.astype(np.float64))
    np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-4)
    cube = [i for i in launch.streams[0] if i.pipe is Pipe.M]
    assert [(i.cost["m"], i.cost["n"], i.cost["k"]) for i in cube] == [(m, n, k)] * 2
    assert [i.pipe for i in launch.streams[0] if i.op == "load_data"] == [Pipe.MTE1] * (m // 16 + 1)
    assert [i.pipe for i in launch.streams[0] if i.op == "fixpipe"] == [Pipe.FIX]


def test_mmad_int8_exact_and_fixpipe_fp16_relu(run) -> None:
    m, n, k = 16, 32, 32
    rng = np.random.default_rng(6)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    kern = _matmul_kernel(asc.int8, asc.int32, asc.int32, asc.QuantMode.NoQuant, False, False)
    _, (_, _, c) = run(kern, 1, a, np.ascontiguousarray(b.T), np.zeros((m, n), np.int32), extra=(m, n, k))
    assert (c == a.astype(np.int32) @ b.astype(np.int32)).all()
    af = rng.standard_normal((m, k)).astype(np.float16)
    bf = rng.standard_normal((k, n)).astype(np.float16)
    kern = _matmul_kernel(F16, F32, F16, asc.QuantMode.F322F16, False, True)
    bft = np.ascontiguousarray(bf.T)
    _, (_, _, cf) = run(kern, 1, af, bft, np.zeros((m, n), np.float16), extra=(m, n, k))
    ref = np.maximum(af.astype(np.float32) @ bf.astype(np.float32), 0).astype(np.float16)
    np.testing.assert_allclose(cf.astype(np.float32), ref.astype(np.float32), rtol=2e-3, atol=2e-3)


@asc.kernel
def load_data_strides(x, y):
    pipe = asc.TPipe()
    a1, a2 = asc.TBuf(asc.TPosition.A1), asc.TBuf(asc.TPosition.A2)
    pipe.init_buffer(a1, 4 * 512)
    pipe.init_buffer(a2, 4 * 512)
    gx, gy = asc.GlobalTensor(F16), asc.GlobalTensor(F16)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    t1, t2 = a1.get(F16), a2.get(F16)
    asc.data_copy(t1, gx, 1024)
    asc.pipe_barrier(asc.PIPE_ALL)
    # fractals 1 and 3 of L1 into fractals 0 and 2 of L0A
    asc.load_data(t2, t1, asc.LoadData2DParams(start_index=1, repeat_times=2, src_stride=2, dst_gap=1))
    asc.pipe_barrier(asc.PIPE_ALL)
    # read L0A back through a 16 x 16 "matmul" with the identity? keep it simple: mmad A x I
    ident = asc.TBuf(asc.TPosition.B2)
    pipe.init_buffer(ident, 512)
    co1 = asc.TBuf(asc.TPosition.CO1)
    pipe.init_buffer(co1, 4 * 256 * 4)
    ti = ident.get(F16)
    for i in range(16):
        ti.set_value(i * 17, 1.0)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.mmad(co1.get(F32), t2, ti, asc.MmadParams(64, 16, 16))
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.fixpipe(gy, co1.get(F32), asc.FixpipeParamsV220(n_size=16, m_size=64,
                                                         quant_pre=asc.QuantMode.F322F16))
    asc.pipe_barrier(asc.PIPE_ALL)


def test_load_data_fractal_strides(run) -> None:
    x = (np.arange(1024) % 1000).astype(np.float16)
    _, (_, y) = run(load_data_strides, 1, x, np.zeros(1024, np.float16))
    frac = x.reshape(4, 256)
    assert (y[:256] == frac[1]).all() and (y[512:768] == frac[3]).all()


@asc.kernel
def nd2nz_to_ub(nd, n, d, src_d, c0_stride, n_stride, mat_stride, x, y):
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, 8192)
    gx, gy = asc.GlobalTensor(F16), asc.GlobalTensor(F16)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    t = buf.get(F16)
    asc.duplicate(t, -1.0, 4096)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.data_copy(t, gx, asc.Nd2NzParams(nd, n, d, n * src_d, src_d, c0_stride, n_stride, mat_stride))
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.data_copy(gy, t, 4096)
    asc.pipe_barrier(asc.PIPE_ALL)


def test_nd2nz_layout_is_exact(run) -> None:
    # 2 matrices of 20 x 40 halves, source rows 48 long; NZ: column groups of 16, 32 rows apart
    nd, n, d, src_d, c0s, ns, ms = 2, 20, 40, 48, 32, 1, 1536
    x = (np.arange(nd * n * src_d) % 2000).astype(np.float16)
    _, (_, y) = run(nd2nz_to_ub, 1, x, np.zeros(4096, np.float16), extra=(nd, n, d, src_d, c0s, ns, ms))
    expect = np.full(4096, -1, np.float16)
    for i in range(nd):
        for r in range(n):
            for c in range(d):
                dst = i * ms + (c // 16) * c0s * 16 + r * ns * 16 + c % 16
                expect[dst] = x[i * n * src_d + r * src_d + c]
    assert (y == expect).all()


@asc.kernel
def matmul_fp16_transposed_b(m, n, k, a, b, c):
    """A (m x k) and B (k x n) both in ND: B's NZ fractals are turned around by load_data."""
    pipe = asc.TPipe()
    m1, n1, k1 = _up16(m) // 16, _up16(n) // 16, _up16(k) // 16
    a1, b1, a2, b2 = (asc.TBuf(p) for p in (asc.TPosition.A1, asc.TPosition.B1, asc.TPosition.A2,
                                             asc.TPosition.B2))
    co1 = asc.TBuf(asc.TPosition.CO1)
    for buf, nbytes in ((a1, m1 * k1 * 512), (b1, k1 * n1 * 512), (a2, m1 * k1 * 512), (b2, k1 * n1 * 512),
                        (co1, m1 * n1 * 1024)):
        pipe.init_buffer(buf, nbytes)
    ga, gb, gc = asc.GlobalTensor(F16), asc.GlobalTensor(F16), asc.GlobalTensor(F32)
    ga.set_global_buffer(a)
    gb.set_global_buffer(b)
    gc.set_global_buffer(c)
    ta1, tb1, ta2, tb2 = a1.get(F16), b1.get(F16), a2.get(F16), b2.get(F16)
    tc = co1.get(F32)
    asc.data_copy(ta1, ga, asc.Nd2NzParams(1, m, k, 0, k, m1 * 16, 1, 0))
    asc.data_copy(tb1, gb, asc.Nd2NzParams(1, k, n, 0, n, k1 * 16, 1, 0))
    asc.pipe_barrier(asc.PIPE_ALL)
    for i in range(m1):
        asc.load_data(ta2[i * k1 * 256], ta1, asc.LoadData2DParams(i, k1, m1))
    for kb in range(k1):  # L0B fractal (kb, 0..n1-1) <- L1 fractals (kb, nb), k1 apart, transposed
        asc.load_data(tb2[kb * n1 * 256], tb1, asc.LoadData2DParams(kb, n1, k1, if_transpose=True))
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.mmad(tc, ta2, tb2, asc.MmadParams(m, n, k))
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.fixpipe(gc, tc, asc.FixpipeParamsV220(n_size=n, m_size=m, src_stride=m1 * 16, dst_stride=n))
    asc.pipe_barrier(asc.PIPE_ALL)


@pytest.mark.parametrize("m,n,k", [(32, 48, 64), (20, 24, 40)])
def test_documented_fp16_matmul_flow(run, m, n, k) -> None:
    rng = np.random.default_rng(m)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    _, (_, _, c) = run(matmul_fp16_transposed_b, 1, a, b, np.zeros((m, n), np.float32), extra=(m, n, k))
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5, atol=1e-4)


def test_float32_matmul_and_fixpipe_nd_num(run) -> None:
    m, n, k = 16, 32, 24  # float32: C0 = 8, fractals 16 x 8
    rng = np.random.default_rng(9)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    kern = _matmul_kernel(F32, F32, F32, asc.QuantMode.NoQuant, False, False)
    _, (_, _, c) = run(kern, 1, a, np.ascontiguousarray(b.T), np.zeros((m, n), np.float32), extra=(m, n, k))
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5, atol=1e-5)


@asc.kernel
def fixpipe_two(x, y):
    """Two 16 x 16 NZ results, one fractal (1024 B) apart, out as two ND matrices 300 elements apart."""
    pipe = asc.TPipe()
    co1 = asc.TBuf(asc.TPosition.CO1)
    pipe.init_buffer(co1, 2048)
    a1, a2, b2 = asc.TBuf(asc.TPosition.A1), asc.TBuf(asc.TPosition.A2), asc.TBuf(asc.TPosition.B2)
    for buf in (a1, a2, b2):
        pipe.init_buffer(buf, 1024)
    gx, gy = asc.GlobalTensor(F16), asc.GlobalTensor(F32)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    t1, t2, tb = a1.get(F16), a2.get(F16), b2.get(F16)
    asc.data_copy(t1, gx, 512)  # two 16 x 16 fractals, already in zZ
    for i in range(16):
        tb.set_value(i * 17, 1.0)  # the identity is its own nZ form
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.load_data(t2, t1, asc.LoadData2DParams(0, 2, 1))
    asc.pipe_barrier(asc.PIPE_ALL)
    tc = co1.get(F32)
    asc.mmad(tc, t2, tb, asc.MmadParams(16, 16, 16))
    asc.mmad(tc[256], t2[256], tb, asc.MmadParams(16, 16, 16))
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.fixpipe(gy, tc, asc.FixpipeParamsV220(16, 16, 16, 16, nd_num=2, src_nd_stride=1, dst_nd_stride=300))
    asc.pipe_barrier(asc.PIPE_ALL)


def test_fixpipe_nd_num(run) -> None:
    x = (np.arange(512) % 100).astype(np.float16)
    _, (_, y) = run(fixpipe_two, 1, x, np.zeros(600, np.float32))
    assert (y[:256] == x[:256].astype(np.float32)).all() and (y[300:556] == x[256:].astype(np.float32)).all()
    assert (y[256:300] == 0).all()


@pytest.mark.parametrize("params,text", [
    ((1, 20, 40, 0, 30, 32, 1, 0), "src_d_value 30"),  # source rows shorter than d_value
    ((1, 20, 40, 0, 48, 16, 1, 0), "would overlap"),  # column groups 16 rows apart hold 20 rows
])
def test_nd2nz_bad_params_name_the_field(run, params, text) -> None:
    from aclsim.errors import TaskError

    with pytest.raises(TaskError, match=text):
        run(nd2nz_to_ub, 1, np.zeros(2048, np.float16), np.zeros(4096, np.float16),
            extra=(params[0], params[1], params[2], params[4], params[5], params[6], params[7]))
