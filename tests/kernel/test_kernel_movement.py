"""Data movement: the older DataCopyPadParams spelling, L0C -> UB on the coupled 310P
(DataCopyEnhancedParams), fixpipe refused where there is none, TransDataTo5HD, loop mode."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.arch import get_chip
from aclsim.isa import Pipe

F16, F32, I8, I32 = asc.float16, asc.float32, asc.int8, asc.int32
P = asc.TPosition


def launch_fault(run, kern, *arrays, block_dim: int = 1, extra=()) -> BaseException:
    with pytest.raises(errors.TaskError) as info:
        run(kern, block_dim, *arrays, extra=extra)
    return info.value.cause


# --- DataCopyPadParams ---------------------------------------------------------------------------

def _pad_kernel(old: bool):
    @asc.kernel
    def k(x, y):
        pipe = asc.TPipe()
        q = asc.TQueBind(P.VECIN, P.VECOUT, 1)
        pipe.init_buffer(q, 1, 256)
        gx, gy = asc.GlobalTensor(F16), asc.GlobalTensor(F16)
        gx.set_global_buffer(x)
        gy.set_global_buffer(y)
        t = q.alloc_tensor(F16)
        if old:  # block_len in bytes, the pad value a bit pattern (0x3C00 = 1.0 in half)
            asc.data_copy_pad(t, gx, asc.DataCopyParams(2, 20, 4, 0),
                              asc.DataCopyPadParams(True, 2, 4, 0x3C00))
        else:
            asc.data_copy_pad(t, gx, asc.DataCopyExtParams(2, 20, 4, 0),
                              asc.DataCopyPadExtParams(True, 2, 4, 1.0))
        q.enque(t)
        t = q.deque(F16)
        if old:
            asc.data_copy_pad(gy, t, asc.DataCopyParams(2, 32, 0, 0))
        else:
            asc.data_copy_pad(gy, t, asc.DataCopyExtParams(2, 32, 0, 0))
        q.free_tensor(t)

    return k


def test_data_copy_pad_params_older_spelling(run) -> None:
    x = np.arange(40, dtype=np.float16)
    _, (_, y_old) = run(_pad_kernel(True), 1, x, np.zeros(32, np.float16))
    _, (_, y_new) = run(_pad_kernel(False), 1, x, np.zeros(32, np.float16))
    want = np.zeros(32, np.float16)
    for b, src in enumerate((0, 12)):  # two blocks of 10 halves, 4 B (2 halves) apart in GM
        want[b * 16:(b + 1) * 16] = [1, 1, *x[src:src + 10], 1, 1, 1, 1]
    np.testing.assert_array_equal(y_old, want)
    np.testing.assert_array_equal(y_new, want)


def test_data_copy_pad_forms_do_not_mix(run) -> None:
    @asc.kernel
    def mixed(x):
        pipe = asc.TPipe()
        buf = asc.TBuf(P.VECIN)
        pipe.init_buffer(buf, 64)
        g = asc.GlobalTensor(F16)
        g.set_global_buffer(x)
        asc.data_copy_pad(buf.get(F16), g, asc.DataCopyExtParams(1, 20, 0, 0), asc.DataCopyPadParams())

    e = launch_fault(run, mixed, np.zeros(16, np.float16))
    assert isinstance(e, TypeError) and "DataCopyPadParams goes with DataCopyParams" in str(e)


# --- L0C -> UB on the coupled 310P ---------------------------------------------------------------

def _coupled_matmul(out_dtype, mode: asc.BlockMode, *, fixpipe: bool = False, deq: int = 0):
    """C = A @ B (16 x 16 x 32, k in fractals of C0) on the 310P through the queues of a coupled chip:
    CO1 (L0C, M -> V) and CO2 (UB, V -> MTE3); C leaves L0C in NZ (one fractal per 16 columns)."""
    m = n = 32
    k = 32

    @asc.kernel(chip="310P")
    def mm(a, bt, c):
        in_dt = I8 if deq else F16
        acc = I32 if deq else F32
        isz = np.dtype(in_dt).itemsize
        c0 = 32 // isz
        m1, n1, k1 = m // 16, n // 16, -(-k // c0)
        pipe = asc.TPipe()
        a1, b1, a2, b2 = (asc.TBuf(p) for p in (P.A1, P.B1, P.A2, P.B2))
        sizes = (m1 * k1 * 512, k1 * n1 * 512, m1 * k1 * 512, k1 * n1 * 512)
        for buf, size in zip((a1, b1, a2, b2), sizes, strict=True):
            pipe.init_buffer(buf, size)
        co1, co2 = asc.TQue(P.CO1, 1), asc.TQue(P.CO2, 1)
        pipe.init_buffer(co1, 1, m1 * n1 * 1024)
        pipe.init_buffer(co2, 1, m1 * n1 * 256 * np.dtype(out_dtype).itemsize)
        ga, gb, gc = asc.GlobalTensor(in_dt), asc.GlobalTensor(in_dt), asc.GlobalTensor(out_dtype)
        ga.set_global_buffer(a)
        gb.set_global_buffer(bt)
        gc.set_global_buffer(c)
        ta1, tb1, ta2, tb2 = a1.get(in_dt), b1.get(in_dt), a2.get(in_dt), b2.get(in_dt)
        asc.data_copy(ta1, ga, asc.Nd2NzParams(1, m, k, 0, k, m, 1, 0))
        asc.data_copy(tb1, gb, asc.Nd2NzParams(1, n, k, 0, k, n, 1, 0))
        asc.pipe_barrier(asc.PIPE_ALL)
        for i in range(m1):
            asc.load_data(ta2[i * k1 * 512 // isz], ta1, asc.LoadData2DParams(i, k1, m1))
        asc.load_data(tb2, tb1, asc.LoadData2DParams(0, k1 * n1, 1))
        asc.pipe_barrier(asc.PIPE_ALL)
        c1 = co1.alloc_tensor(acc)
        asc.mmad(c1, ta2, tb2, asc.MmadParams(m, n, k))
        co1.enque(c1)
        c1 = co1.deque(acc)
        if fixpipe:
            asc.fixpipe(gc, c1, asc.FixpipeParamsV220(n, m, m, n))  # FIXPIPE
            return
        c2 = co2.alloc_tensor(out_dtype)
        ep = asc.DataCopyEnhancedParams(block_mode=mode, deq_scale=asc.DeqScale.DEQ if deq else
                                        asc.DeqScale.DEQ_NONE, deq_value=deq)
        if mode is asc.BlockMode.BLOCK_MODE_MATRIX:
            asc.data_copy(c2, c1, asc.DataCopyParams(1, m1 * n1, 0, 0), ep)  # L0C-UB
        else:  # one 1 x 16 row per unit: 16 rows = one fractal per block, no source gap
            asc.data_copy(c2, c1, asc.DataCopyParams(m1 * n1, 16, 0, 0), ep)
        co1.free_tensor(c1)
        co2.enque(c2)
        c2 = co2.deque(out_dtype)
        asc.data_copy(gc, c2, m * n)
        co2.free_tensor(c2)

    return mm, m, n, k


def _nz(c: np.ndarray) -> np.ndarray:
    """An ND (m x n) result in L0C's NZ order: 16-column groups, each holding every row."""
    m, n = c.shape
    return c.reshape(m, n // 16, 16).transpose(1, 0, 2).reshape(-1)


@pytest.mark.parametrize("out_dtype,mode", [(np.float32, asc.BlockMode.BLOCK_MODE_MATRIX),
                                            (np.float16, asc.BlockMode.BLOCK_MODE_MATRIX),
                                            (np.float32, asc.BlockMode.BLOCK_MODE_VECTOR)])
def test_l0c_to_ub_on_the_coupled_chip(run, out_dtype, mode) -> None:
    kern, m, n, k = _coupled_matmul(out_dtype, mode)
    rng = np.random.default_rng(1)
    a = rng.integers(-4, 5, (m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (k, n)).astype(np.float16)
    launch, (_, _, c) = run(kern, 1, a, np.ascontiguousarray(b.T), np.zeros(m * n, out_dtype))
    want = (a.astype(np.float32) @ b.astype(np.float32)).astype(out_dtype)
    np.testing.assert_array_equal(c, _nz(want))
    cp = [i for i in launch.streams[0] if i.op == "data_copy" and i.reads[0].space.value == "L0C"][0]
    assert cp.pipe is Pipe.V and cp.reads[0].length == m * n * 4
    assert cp.writes[0].length == m * n * np.dtype(out_dtype).itemsize


def test_l0c_to_ub_deq_int32_to_half(run) -> None:
    kern, m, n, k = _coupled_matmul(np.float16, asc.BlockMode.BLOCK_MODE_MATRIX, deq=0x3800)  # M = 0.5
    rng = np.random.default_rng(2)
    a = rng.integers(-9, 10, (m, k)).astype(np.int8)
    b = rng.integers(-9, 10, (k, n)).astype(np.int8)
    _, (_, _, c) = run(kern, 1, a, np.ascontiguousarray(b.T), np.zeros(m * n, np.float16))
    want = ((a.astype(np.int32) @ b.astype(np.int32)) * 0.5).astype(np.float16)
    np.testing.assert_array_equal(c, _nz(want))


def test_fixpipe_is_refused_on_a_chip_without_one(run) -> None:
    kern, m, n, k = _coupled_matmul(np.float32, asc.BlockMode.BLOCK_MODE_MATRIX, fixpipe=True)
    e = launch_fault(run, kern, np.zeros((m, k), np.float16), np.zeros((n, k), np.float16),
                     np.zeros(m * n, np.float32))
    assert isinstance(e, errors.FeatureNotSupportedError)
    assert e.code == errors.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert "has no fixpipe" in str(e) and "DataCopyEnhancedParams" in e.hint and e.line > 0


# --- TransDataTo5HD ------------------------------------------------------------------------------

def _trans_kernel(dtype, nblocks_in: int, nblocks_out: int, calls):
    """x -> UB, ``calls(src, dst)`` issues trans_data_to_5hd, UB -> y."""

    @asc.kernel
    def k(x, y):
        pipe = asc.TPipe()
        bi, bo = asc.TBuf(), asc.TBuf()
        pipe.init_buffer(bi, nblocks_in * 32)
        pipe.init_buffer(bo, nblocks_out * 32)
        src, dst = bi.get(dtype), bo.get(dtype)
        gx, gy = asc.GlobalTensor(dtype), asc.GlobalTensor(dtype)
        gx.set_global_buffer(x)
        gy.set_global_buffer(y)
        asc.data_copy(src, gx, nblocks_in * 32 // np.dtype(dtype).itemsize)
        asc.data_copy(dst, gy, nblocks_out * 32 // np.dtype(dtype).itemsize)
        asc.pipe_barrier(asc.PIPE_ALL)
        calls(src, dst)
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.data_copy(gy, dst, nblocks_out * 32 // np.dtype(dtype).itemsize)

    return k


def test_trans_data_to_5hd_b16_transposes_16x16(run) -> None:
    def calls(src, dst):
        asc.trans_data_to_5hd([dst[16 * i] for i in range(16)], [src[16 * i] for i in range(16)],
                              asc.TransDataTo5HDParams(repeat_times=1))

    x = np.arange(256, dtype=np.float16).reshape(16, 16)
    launch, (_, y) = run(_trans_kernel(F16, 16, 16, calls), 1, x, np.zeros_like(x))
    np.testing.assert_array_equal(y, x.T)
    ins = [i for i in launch.streams[0] if i.op == "trans_data_to_5hd"][0]
    assert ins.pipe is Pipe.V and len(ins.reads) == 16 and all(r.length == 32 for r in ins.reads)


def test_trans_data_to_5hd_b32_by_halves(run) -> None:
    """A 16 x 16 float transpose in two calls (src column halves m = 0, 1), as Ascend C's transpose does."""
    def calls(src, dst):
        for m in range(2):
            asc.trans_data_to_5hd([dst[m * 128 + 8 * i] for i in range(16)],
                                  [src[m * 8 + 16 * i] for i in range(16)],
                                  asc.TransDataTo5HDParams(repeat_times=1))

    x = np.arange(256, dtype=np.float32).reshape(16, 16) - 100.5
    _, (_, y) = run(_trans_kernel(F32, 32, 32, calls), 1, x, np.zeros_like(x))
    np.testing.assert_array_equal(y, x.T)


def test_trans_data_to_5hd_b8_halves_as_documented(run) -> None:
    """The page's int8 example: 4 distinct src rows repeated, high halves read and written."""
    def calls(src, dst):
        addr = [src[32 * i].get_phy_addr() for i in range(16)]  # the address form
        asc.trans_data_to_5hd([dst[32 * i].get_phy_addr() for i in range(16)], addr,
                              asc.TransDataTo5HDParams(True, True, 1, 0, 0), dtype=I8)

    x = np.tile(np.arange(128, dtype=np.int8).reshape(4, 32), (4, 1))
    _, (_, y) = run(_trans_kernel(I8, 16, 16, calls), 1, x, np.zeros((16, 32), np.int8))
    want = np.zeros((16, 32), np.int8)
    want[:, 16:] = x[:, 16:].T
    np.testing.assert_array_equal(y, want)


def test_trans_data_to_5hd_nchw_to_nc1hwc0_with_repeats(run) -> None:
    c, hw = 16, 32  # half: C0 = 16, 2 repeats cover an HW plane of 32

    def calls(src, dst):
        asc.trans_data_to_5hd([dst[16 * i] for i in range(16)], [src[hw * i] for i in range(16)],
                              asc.TransDataTo5HDParams(repeat_times=hw // 16, dst_rep_stride=16,
                                                       src_rep_stride=1))

    x = np.arange(c * hw, dtype=np.float16).reshape(c, hw)
    _, (_, y) = run(_trans_kernel(F16, 32, 32, calls), 1, x, np.zeros(c * hw, np.float16))
    np.testing.assert_array_equal(y, x.T.reshape(-1))  # (C1=1, HW, C0)


def test_trans_data_to_5hd_one_repeat_moves_by_its_stride(run) -> None:
    def calls(src, dst):
        asc.trans_data_to_5hd([dst[16 * i] for i in range(16)], [src[16 * i] for i in range(16)],
                              asc.TransDataTo5HDParams(repeat_times=1, dst_rep_stride=0, src_rep_stride=16))

    x = np.arange(512, dtype=np.float16)
    _, (_, y) = run(_trans_kernel(F16, 32, 16, calls), 1, x, np.zeros(256, np.float16))
    np.testing.assert_array_equal(y, x[256:].reshape(16, 16).T.reshape(-1))


def test_trans_data_to_5hd_refuses_bfloat16_on_2201(run) -> None:
    def calls(src, dst):
        asc.trans_data_to_5hd([dst[16 * i] for i in range(16)], [src[16 * i] for i in range(16)],
                              asc.TransDataTo5HDParams())

    e = launch_fault(run, _trans_kernel(asc.bfloat16, 16, 16, calls), np.zeros(256, np.uint16),
                     np.zeros(256, np.uint16))
    assert isinstance(e, errors.FeatureNotSupportedError) and "bfloat16" in str(e)


# --- loop mode -----------------------------------------------------------------------------------

def _loop_kernel(chip):
    @asc.kernel(chip=chip)
    def k(x, y):
        pipe = asc.TPipe()
        q = asc.TQueBind(P.VECIN, P.VECOUT, 1)
        pipe.init_buffer(q, 1, 1024)
        gx, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
        gx.set_global_buffer(x)
        gy.set_global_buffer(y)
        t = q.alloc_tensor(F32)
        lp = asc.LoopModeParams(2, 2, 64, 64, 256, 128)  # 4 copies of 8 floats: GM 64 / 256 B, UB 64 / 128 B
        asc.set_loop_mode_para(lp, asc.DataCopyMVType.OUT_TO_UB)  # LOOP
        asc.data_copy_pad(t, gx, asc.DataCopyExtParams(1, 32, 0, 0))
        asc.reset_loop_mode_para(asc.DataCopyMVType.OUT_TO_UB)
        q.enque(t)
        t = q.deque(F32)
        asc.data_copy(gy, t, 64)
        q.free_tensor(t)

    return k


def test_loop_mode(run) -> None:
    e = launch_fault(run, _loop_kernel("tiny"), np.zeros(128, np.float32), np.zeros(64, np.float32))
    assert isinstance(e, errors.FeatureNotSupportedError) and "arch 3510" in str(e)
    chip = replace(get_chip("tiny"), name="tiny-3510", arch_version="3510")
    x = np.arange(128, dtype=np.float32)
    launch, (_, y) = run(_loop_kernel(chip), 1, x, np.full(64, -1, np.float32))
    want = np.full(64, -1, np.float32)
    for i2 in range(2):
        for i1 in range(2):
            s, d = (i1 * 64 + i2 * 256) // 4, (i1 * 64 + i2 * 128) // 4
            want[d:d + 8] = x[s:s + 8]
    got = y.copy()
    got[[i for i in range(64) if want[i] == -1]] = -1  # UB bytes no copy wrote hold what was there
    np.testing.assert_array_equal(got, want)
    assert sum(i.op == "data_copy_pad" for i in launch.streams[0]) == 4
