"""The C++ rows of "Cube loads, fixpipe, int4" (api_cxx.txt's section; include/aclsim_ascendc_2.h): each
kernel of last2_cube.cpp on one block of the tiny chip, checked against NumPy or its Python twin."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim.errors import TaskError
from aclsim.kernel import TPosition as P

SOURCE = Path(__file__).with_name("last2_cube.cpp")
C, H, W, COUT = 16, 4, 4, 16
KCOLS, MROWS = 9 * C, H * W


@pytest.fixture
def run(cpp_kernels):
    """``run(kernel_or_name, inputs, *outs)``: a kernel of last2_cube.cpp (by name) or a Python kernel on one
    block of the tiny chip, with the inputs' device copies and a device buffer per output (NumPy arrays the
    results are copied into); returns the launch."""
    kernels = cpp_kernels([SOURCE])
    made = []
    aclsim.init(chip="tiny")
    aclsim.set_device(0)

    def go(kernel, inputs: list[np.ndarray], *outs: np.ndarray) -> object:
        stream = aclsim.create_stream()
        ptrs = []
        for a in [*inputs, *outs]:
            d = aclsim.malloc(max(a.nbytes, 32))
            made.append(d)
            aclsim.memcpy(d, a.nbytes, a, a.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
            ptrs.append(d)
        k = getattr(kernels, kernel) if isinstance(kernel, str) else kernel
        launch = k[1, stream](*ptrs)
        aclsim.synchronize_stream(stream)
        for out, d in zip(outs, ptrs[len(inputs):], strict=True):
            aclsim.memcpy(out, out.nbytes, d, out.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
        return launch

    yield go
    for d in made:
        aclsim.free(d)


def _im2col(fm: np.ndarray, pad_value: float) -> np.ndarray:
    """Rows (ho, wo), columns (kh, kw, c) of the 3 x 3 windows of ``fm`` (H, W, C) padded by 1."""
    padded = np.pad(fm, ((1, 1), (1, 1), (0, 0)), constant_values=pad_value)
    return np.stack([padded[ho:ho + 3, wo:wo + 3, :].reshape(-1) for ho in range(H) for wo in range(W)])


@pytest.mark.parametrize(("name", "pad_value"), [("last2_conv_regs", 2.0), ("last2_conv_default", 3.0)])
def test_load3d_config_fmatrix_padding_and_co12_copy(run, name, pad_value) -> None:
    rng = np.random.default_rng(8)
    fm = rng.integers(-3, 4, (H, W, C)).astype(np.float16)
    wt = rng.integers(-3, 4, (COUT, KCOLS)).astype(np.float16)
    out = np.zeros((MROWS, COUT), np.float32)
    launch = run(name, [fm, wt], out)
    want = _im2col(fm, pad_value).astype(np.float32) @ wt.T.astype(np.float32)
    np.testing.assert_array_equal(out, want)
    lines = SOURCE.read_text().splitlines()
    load = next(i for i in launch.streams[0] if i.op == "load_data")  # the img2col load: its C++ line
    assert "LoadData<half, " in lines[load.line - 1]


def test_load_data_with_transpose(run) -> None:
    eye = np.eye(16, dtype=np.float16)
    b = (np.arange(256) % 23 - 11).astype(np.float16).reshape(16, 16)
    plain = np.zeros((16, 16), np.float32)
    trans = np.zeros((16, 16), np.float32)
    launch = run("last2_transpose", [eye, b], plain, trans)
    bf = b.astype(np.float32)
    assert np.array_equal(plain, bf) or np.array_equal(plain, bf.T)
    np.testing.assert_array_equal(trans, plain.T)
    lines = SOURCE.read_text().splitlines()
    (load,) = [i for i in launch.streams[0] if i.op == "load_data_with_transpose"]
    assert "LoadDataWithTranspose(b2" in lines[load.line - 1]


def _deq_hf32_twin(mode: int):
    @asc.kernel
    def k(xi, a, b, m, yh, c):
        pipe = asc.TPipe()
        ub = asc.TBuf(P.VECCALC)
        pipe.init_buffer(ub, 64 * 4 + 64 * 2)
        gx, gy = asc.GlobalTensor(asc.int32), asc.GlobalTensor(asc.half)
        gx.set_global_buffer(xi)
        gy.set_global_buffer(yh)
        x = ub.get(asc.int32)
        y = ub.get(asc.half)[128]
        asc.data_copy(x, gx, 64)
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.set_deq_scale(0.5)
        asc.cast(y, x, asc.RoundMode.CAST_NONE, 64)
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.data_copy(gy, y, 64)
        asc.pipe_barrier(asc.PIPE_ALL)
        bufs = [asc.TBuf(p) for p in (P.A1, P.B1, P.A2, P.B2)]
        co1 = asc.TBuf(P.CO1)
        for t in bufs:
            pipe.init_buffer(t, 512)
        pipe.init_buffer(co1, 1024)
        ga, gb, gc = (asc.GlobalTensor(asc.float32) for _ in range(3))
        ga.set_global_buffer(a)
        gb.set_global_buffer(b)
        gc.set_global_buffer(c)
        asc.data_copy(bufs[0].get(asc.float32), ga, 128)
        asc.data_copy(bufs[1].get(asc.float32), gb, 128)
        asc.pipe_barrier(asc.PIPE_ALL)
        if mode:
            asc.set_hf32_mode(True)
            trans = asc.HF32TransMode.NEAREST_ZERO if mode == 2 else asc.HF32TransMode.NEAREST_EVEN
            asc.set_hf32_trans_mode(trans)
        for src, dst in ((bufs[0], bufs[2]), (bufs[1], bufs[3])):
            asc.load_data(dst.get(asc.float32), src.get(asc.float32),
                          asc.LoadData2DParams(0, 1, 1, 0, 0, False, 0))
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.mmad(co1.get(asc.float32), bufs[2].get(asc.float32), bufs[3].get(asc.float32),
                 asc.MmadParams(16, 16, 8, 0, False, True))
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.set_hf32_mode(False)
        asc.data_copy(gc, co1.get(asc.float32), asc.DataCopyCO12DstParams(16, 16, 32, 16))
        asc.pipe_barrier(asc.PIPE_ALL)

    return k


def test_deq_scale_and_hf32_modes(run) -> None:
    rng = np.random.default_rng(3)
    xi = rng.integers(-3000, 3000, 64).astype(np.int32)
    # A's values lie half way between two HF32 values (12 significant bits): the modes round them apart
    a = ((1 + (2 * (np.arange(128) % 8) + 1) * 2.0**-12) * rng.choice([-1, 1], 128)).astype(np.float32)
    b = (rng.standard_normal(128) * 3).astype(np.float32)
    results: list[np.ndarray] = []
    for mode in (0, 1, 2):
        got: list[np.ndarray] = [np.zeros(64, np.float16), np.zeros(256, np.float32)]
        twin: list[np.ndarray] = [np.zeros(64, np.float16), np.zeros(256, np.float32)]
        m = np.array([mode], np.int32)
        run("last2_deq_hf32", [xi, a, b, m], *got)
        run(_deq_hf32_twin(mode), [xi, a, b, m], *twin)
        np.testing.assert_array_equal(got[0], (xi.astype(np.float64) * 0.5).astype(np.float16))
        np.testing.assert_array_equal(got[0], twin[0])
        np.testing.assert_array_equal(got[1], twin[1])
        results.append(got[1])
    # HF32 rounds the float operands (ties to even or by the other mode): each mode its own products
    assert not np.array_equal(results[0], results[1]) and not np.array_equal(results[1], results[2])


def test_int4_tensors_count_elements(run) -> None:
    x = np.random.default_rng(5).integers(0, 256, 128).astype(np.uint8)  # 256 int4 elements
    y = np.zeros(128, np.uint8)
    z = np.zeros(32, np.uint8)
    run("last2_int4_copy", [x], y, z)
    np.testing.assert_array_equal(y, x)
    np.testing.assert_array_equal(z, x[32:64])  # elements 64..127: bytes 32..63


def test_fixpipe_older_form(run) -> None:
    eye = np.eye(16, dtype=np.float16)
    b = (np.arange(512) % 19 - 9).astype(np.float16)
    v220 = np.zeros((16, 32), np.float32)
    nd = np.zeros((16, 32), np.float32)
    nz = np.full(16 * 16 * 2 + 8, -1, np.float32)  # two Z columns 1024 B + 32 B apart
    run("last2_fixpipe_old", [eye, b], v220, nd, nz)
    assert np.abs(v220).sum() > 0
    np.testing.assert_array_equal(nd, v220)
    np.testing.assert_array_equal(nz[:256].reshape(16, 16), v220[:, :16])
    np.testing.assert_array_equal(nz[256:264], -1)  # the 32 B gap: unwritten
    np.testing.assert_array_equal(nz[264:].reshape(16, 16), v220[:, 16:])


def test_fixpipe_older_form_needs_the_n_size_for_nz2nd(run) -> None:
    with pytest.raises(TaskError) as e:
        run("last2_fixpipe_no_n", [], np.zeros(256, np.float32))
    text = str(e.value)
    assert "originalNSize" in text and "100000" in text
    line = next(i for i, t in enumerate(SOURCE.read_text().splitlines(), 1) if "// no originalNSize" in t)
    assert f"last2_cube.cpp:{line}" in text


@asc.kernel
def _py_int4_mmad(a, b, c):
    pipe = asc.TPipe()
    bufs = [asc.TBuf(p) for p in (P.A1, P.B1, P.A2, P.B2)]
    co1 = asc.TBuf(P.CO1)
    for t in bufs:
        pipe.init_buffer(t, 512)
    pipe.init_buffer(co1, 1024)
    ga, gb, gc = asc.GlobalTensor(asc.int4b_t), asc.GlobalTensor(asc.int4b_t), asc.GlobalTensor(asc.int32)
    ga.set_global_buffer(a)
    gb.set_global_buffer(b)
    gc.set_global_buffer(c)
    asc.data_copy(bufs[0].get(asc.int4b_t), ga, 1024)
    asc.data_copy(bufs[1].get(asc.int4b_t), gb, 1024)
    asc.pipe_barrier(asc.PIPE_ALL)
    for src, dst in ((bufs[0], bufs[2]), (bufs[1], bufs[3])):
        asc.load_data(dst.get(asc.int4b_t), src.get(asc.int4b_t),
                      asc.LoadData2DParams(0, 1, 1, 0, 0, False, 0))
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.mmad(co1.get(asc.int32), bufs[2].get(asc.int4b_t), bufs[3].get(asc.int4b_t),
             asc.MmadParams(16, 16, 64, 0, False, True))
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.fixpipe(gc, co1.get(asc.int32), asc.FixpipeParamsV220(16, 16, 16, 16))
    asc.pipe_barrier(asc.PIPE_ALL)


def test_int4_through_the_cube_as_its_python_twin(run) -> None:
    rng = np.random.default_rng(9)
    a = rng.integers(0, 256, 512).astype(np.uint8)
    b = rng.integers(0, 256, 512).astype(np.uint8)
    got = np.zeros((16, 16), np.int32)
    want = np.zeros((16, 16), np.int32)
    launch = run("last2_int4_mmad", [a, b], got)
    twin = run(_py_int4_mmad, [a, b], want)
    assert np.abs(want).sum() > 0
    np.testing.assert_array_equal(got, want)

    def shape(stream: list) -> list:  # each instruction's op and what it reads and writes (GM: the sizes)
        return [(i.op, [(a.space, 0 if a.space.name == "GM" else a.offset, a.length)
                        for a in (*i.reads, *i.writes)]) for i in stream]

    assert shape(launch.streams[0]) == shape(twin.streams[0])
