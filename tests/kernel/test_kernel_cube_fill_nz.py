"""Fixpipe's layouts (CFG_NZ: NZ2NZ with its Z-column stride; CFG_COLUMN_MAJOR refused off the 950) and the
constant fills of L1/L0A/L0B (InitConstValue / Fill), against NumPy, with their pipes and faults."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.compiler import verify_sync
from aclsim.isa import Pipe

F16, F32 = asc.float16, asc.float32
P = asc.TPosition


def to_nz(x: np.ndarray, rows_to: int, col_stride: int) -> np.ndarray:
    """The NZ2NZ page's layout: Z column j (16 columns) at element j * col_stride, rows of 16 inside."""
    m, n = x.shape
    out = np.zeros(((n // 16 - 1) * col_stride + rows_to * 16,), x.dtype)
    for j in range(n // 16):
        out[j * col_stride:j * col_stride + m * 16] = x[:, j * 16:(j + 1) * 16].reshape(-1)
    return out


def nz_kernel(m, n, k, dst_stride, out_dt, cfg):
    @asc.kernel
    def kern(a, bt, c):
        pipe = asc.TPipe()
        bufs = [asc.TBuf(p) for p in (P.A1, P.B1, P.A2, P.B2, P.CO1)]
        for b in bufs:
            pipe.init_buffer(b, 8192)
        ga, gb, gc = asc.GlobalTensor(F16), asc.GlobalTensor(F16), asc.GlobalTensor(out_dt)
        ga.set_global_buffer(a)
        gb.set_global_buffer(bt)
        gc.set_global_buffer(c)
        a1, b1, a2, b2 = (b.get(F16) for b in bufs[:4])
        asc.data_copy(a1, ga, asc.Nd2NzParams(1, m, k, 0, k, m, 1, 0))
        asc.data_copy(b1, gb, asc.Nd2NzParams(1, n, k, 0, k, n, 1, 0))
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.load_data(a2, a1, asc.LoadData2dParams(0, m // 16, 1))
        asc.load_data(b2, b1, asc.LoadData2dParams(0, n // 16, 1))
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.mmad(bufs[4].get(F32), a2, b2, asc.MmadParams(m, n, k))
        asc.pipe_barrier(asc.PIPE_ALL)
        quant = asc.QuantMode.NoQuant if out_dt == F32 else asc.QuantMode.F322F16
        asc.fixpipe(gc, bufs[4].get(F32), asc.FixpipeParamsV220(n, m, m, dst_stride, quant_pre=quant), cfg)
        asc.pipe_barrier(asc.PIPE_ALL)

    return kern


@pytest.mark.parametrize("out_dt, dst_stride", [(F32, 32 * 64 // 32), (F32, 96), (F16, 32 * 32 // 32)])
def test_fixpipe_cfg_nz_keeps_the_result_nz(run, out_dt, dst_stride) -> None:
    m, n, k = 32, 48, 16
    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    want = a.astype(np.float32) @ b.astype(np.float32)
    npdt = np.float32 if out_dt == F32 else np.float16
    col = dst_stride * 32 // np.dtype(npdt).itemsize
    size = (n // 16 - 1) * col + m * 16
    launch, (_, _, c) = run(nz_kernel(m, n, k, dst_stride, out_dt, asc.CFG_NZ), 1, a,
                            np.ascontiguousarray(b.T), np.full(size, -7, npdt))
    ref = to_nz(want.astype(npdt), m, col)
    written = to_nz(np.ones((m, n), bool), m, col)
    np.testing.assert_allclose(c[written], ref[written], rtol=1e-3 if npdt == np.float16 else 1e-5, atol=1e-3)
    assert (c[~written] == -7).all()  # the gaps between Z columns untouched
    assert verify_sync(launch.streams[0], pool=8, require_physical=True).ok


def test_fixpipe_cfg_row_major_is_the_default(run) -> None:
    m, n, k = 16, 32, 16
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((m, k)).astype(np.float16), rng.standard_normal((k, n)).astype(np.float16)
    _, (_, _, c) = run(nz_kernel(m, n, k, n, F32, asc.CFG_ROW_MAJOR), 1, a, np.ascontiguousarray(b.T),
                       np.zeros((m, n), np.float32))
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32), rtol=1e-5, atol=1e-5)


def fixpipe_only(cfg, n, stride):
    """One fixpipe out of a CO1 buffer with the given layout (its refusals come before any data moves)."""
    @asc.kernel
    def kern(c):
        pipe = asc.TPipe()
        co1 = asc.TBuf(P.CO1)
        pipe.init_buffer(co1, 4096)
        gc = asc.GlobalTensor(F32)
        gc.set_global_buffer(c)
        asc.fixpipe(gc, co1.get(F32), asc.FixpipeParamsV220(n, 16, 16, stride), cfg)

    return kern


@pytest.mark.parametrize("cfg, n, stride, text", [
    (asc.CFG_COLUMN_MAJOR, 32, 32, "Ascend 950"),
    (asc.FixpipeConfig(asc.CO2Layout.ROW_MAJOR, is_to_ub=True), 32, 32, "is_to_ub"),
    (asc.CFG_NZ, 24, 32, "multiple of 16"),
    (asc.CFG_NZ, 32, 0, "dst_stride"),
])
def test_fixpipe_layout_refusals(run, cfg, n, stride, text) -> None:
    with pytest.raises(errors.AclError, match=text):
        run(fixpipe_only(cfg, n, stride), 1, np.zeros(4096, np.float32))


# --- InitConstValue / Fill ---------------------------------------------------------------------------
@pytest.mark.parametrize("pos, blk, pipe", [(P.A1, 32, Pipe.MTE2), (P.A2, 512, Pipe.MTE1),
                                            (P.B2, 512, Pipe.MTE1)])
@pytest.mark.parametrize("dt", [F16, F32, asc.int32])
def test_init_const_value_fills_runs_of_blocks_with_gaps(run, pos, blk, pipe, dt) -> None:
    reps, blocks, gap = 3, 2, 1
    value = 3 if dt == asc.int32 else 1.5
    seen = {}

    @asc.kernel
    def kern(out):
        p = asc.TPipe()
        buf = asc.TBuf(pos)
        p.init_buffer(buf, 8192)
        t = buf.get(dt)
        asc.fill(t, asc.InitConstValueParams(1, 8192 // blk, 0, 7))  # the whole buffer to 7
        asc.init_const_value(t, asc.InitConstValueParams(reps, blocks, gap, value))
        seen["arr"] = t.numpy()

    launch, _ = run(kern, 1, np.zeros(1, np.float32))
    npdt = np.dtype(np.int32 if dt == asc.int32 else np.float16 if dt == F16 else np.float32)
    want = np.full(8192 // npdt.itemsize, 7, npdt)
    per = blk // npdt.itemsize
    for r in range(reps):
        start = r * (blocks + gap) * per
        want[start:start + blocks * per] = value
    np.testing.assert_array_equal(seen["arr"], want)
    ins = [i for i in launch.streams[0] if i.op in ("fill", "init_const_value")]
    assert [i.pipe for i in ins] == [pipe, pipe]
    assert ins[1].writes[0].length == (reps - 1) * (blocks + gap) * blk + blocks * blk


def test_fill_of_global_memory_is_init_global_memory(run) -> None:
    @asc.kernel
    def kern(out):
        asc.TPipe()
        g = asc.GlobalTensor(F32)
        g.set_global_buffer(out)
        asc.fill(g, 100, 2.5)

    _, (out,) = run(kern, 1, np.zeros(128, np.float32))
    np.testing.assert_array_equal(out, np.r_[np.full(100, 2.5, np.float32), np.zeros(28, np.float32)])


@pytest.mark.parametrize("case, err", [("ub", ValueError), ("int8", TypeError), ("range", ValueError),
                                       ("past", "diagnostic"), ("nop", None),
                                       ("two-arg", None)])
def test_init_const_value_refusals_and_nop(run, case, err) -> None:
    @asc.kernel
    def kern(out):
        p = asc.TPipe()
        buf = asc.TBuf(P.VECCALC if case == "ub" else P.A2)
        p.init_buffer(buf, 1024)
        t = buf.get(asc.int8 if case == "int8" else F16)
        params = {"range": asc.InitConstValueParams(40000, 1, 0, 1),
                  "past": asc.InitConstValueParams(3, 1, 0, 1), "nop": asc.InitConstValueParams(0, 5, 0, 1),
                  "two-arg": asc.InitConstValueParams(2, 1)}
        params = params.get(case, asc.InitConstValueParams(1, 1, 0, 1))
        asc.init_const_value(t, params)

    if err == "diagnostic":  # past its buffer, inside L0A: legal, reported by the sanitizer
        with pytest.warns(asc.KernelSanitizerWarning, match="init_const_value"):
            run(kern, 1, np.zeros(1, np.float32))
    elif err is None:
        launch, _ = run(kern, 1, np.zeros(1, np.float32))
        assert not [i for i in launch.streams[0] if i.op == "init_const_value"]
    else:
        with pytest.raises(errors.AclError) as info:
            run(kern, 1, np.zeros(1, np.float32))
        assert isinstance(info.value.__cause__ or info.value.cause, err) or err.__name__ in str(info.value)


def test_init_const_value_on_the_310p_fills_512_bytes_a_repeat(run) -> None:
    """arch 2002 takes only repeatTimes and initValue: each repeat one 512 B block, no gap (the page);
    on A2 the two-argument form leaves blockNum 0, a NOP (test above)."""
    seen = {}

    @asc.kernel(chip="310P")
    def kern(out):
        p = asc.TPipe()
        buf = asc.TBuf(P.A2)
        p.init_buffer(buf, 2048)
        t = buf.get(F16)
        asc.init_const_value(t, asc.InitConstValueParams(2, 3.0))
        seen["arr"] = t.numpy()

    run(kern, 1, np.zeros(1, np.float32))
    np.testing.assert_array_equal(seen["arr"][:512], np.full(512, 3, np.float16))
    assert not seen["arr"][512:].any()
