"""The bias table: DataCopy L1 (C1) -> BT (C2) with half -> float, Mmad with a bias tensor, cmatrixSource,
the deprecated isBias (accumulate), TQue<C2>; against NumPy, race-free, and refused on the 310P."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.compiler import verify_sync
from aclsim.isa import Pipe, Space

F16, F32, I8, I32 = asc.float16, asc.float32, asc.int8, asc.int32
P = asc.TPosition


SEEN: dict[str, np.ndarray] = {}


def bias_kernel(m, n, k, in_dt, bias_dt, mode):
    """A (m x k) @ B (k x n) + bias through the cube; ``mode``: tensor (Mmad with bias), source
    (cmatrix_source), accumulate (is_bias: C += A @ B on top of a first mmad), gapped (two BT blocks)."""
    acc = I32 if in_dt == I8 else F32

    @asc.kernel
    def kern(a, bt_, bias, c):
        pipe = asc.TPipe()
        bufs = [asc.TBuf(p) for p in (P.A1, P.B1, P.A2, P.B2, P.CO1)]
        for b in bufs:
            pipe.init_buffer(b, 8192)
        q_l1, q_bt = asc.TQue(P.C1, 1), asc.TQue(P.C2, 1)
        pipe.init_buffer(q_l1, 1, 512)
        pipe.init_buffer(q_bt, 1, 512)
        ga, gb, gbias, gc = (asc.GlobalTensor(t) for t in (in_dt, in_dt, bias_dt, acc))
        for g, x in ((ga, a), (gb, bt_), (gbias, bias), (gc, c)):
            g.set_global_buffer(x)
        a1, b1, a2, b2 = (b.get(in_dt) for b in bufs[:4])
        c0 = 32 // np.dtype(in_dt).itemsize
        asc.data_copy(a1, ga, asc.Nd2NzParams(1, m, k, 0, k, m, 1, 0))
        asc.data_copy(b1, gb, asc.Nd2NzParams(1, n, k, 0, k, n, 1, 0))
        l1 = q_l1.alloc_tensor(bias_dt)
        asc.data_copy(l1, gbias, 2 * n if mode == "gapped" else n)
        q_l1.enque(l1)
        l1 = q_l1.deque(bias_dt)
        bt = q_bt.alloc_tensor(acc)
        if mode == "gapped":  # two blocks of 16 values: 64 B apart in BT (dstGap 1), then in L1 (srcGap 2)
            asc.data_copy(bt, l1, asc.DataCopyParams(2, 1, 0, 1))
            SEEN["bt"] = bt.numpy()
            asc.pipe_barrier(asc.PIPE_MTE1)  # the second copy rewrites the first's bytes (same pipe)
            asc.data_copy(bt, l1, asc.DataCopyParams(2, 1, 2, 0))
        else:
            asc.data_copy(bt, l1, asc.DataCopyParams(1, n * 4 // 64, 0, 0))
        q_l1.free_tensor(l1)
        q_bt.enque(bt)
        bt = q_bt.deque(acc)
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.load_data(a2, a1, asc.LoadData2dParams(0, (m // 16) * (k // c0), 1))
        asc.load_data(b2, b1, asc.LoadData2dParams(0, (n // 16) * (k // c0), 1))
        asc.pipe_barrier(asc.PIPE_ALL)
        co1 = bufs[4].get(acc)
        if mode in ("tensor", "gapped"):
            asc.mmad(co1, a2, b2, bt, asc.MmadParams(m, n, k))
        elif mode == "source":  # no tensor: the row at the start of the bias table
            asc.mmad(co1, a2, b2, asc.MmadParams(m, n, k, 0, False, False))
            asc.pipe_barrier(asc.PIPE_M)
            asc.mmad(co1, a2, b2, asc.MmadParams(m, n, k, 0, True, False))
        else:  # accumulate: the 8-argument constructor's isBias
            asc.mmad(co1, a2, b2, asc.MmadParams(m, n, k))
            asc.pipe_barrier(asc.PIPE_M)
            asc.mmad(co1, a2, b2, asc.MmadParams(m, n, k, True, 0, False, False, False))
        q_bt.free_tensor(bt)
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.fixpipe(gc, co1, asc.FixpipeParamsV220(n, m, m, n))
        asc.pipe_barrier(asc.PIPE_ALL)

    return kern


@pytest.mark.parametrize("in_dt, bias_dt, mode", [
    (F16, F32, "tensor"), (F16, F16, "tensor"), (I8, I32, "tensor"), (F32, F32, "tensor"),
    (F16, F32, "source"), (F16, F32, "accumulate"), (F16, F32, "gapped"),
])
def test_mmad_with_the_bias_table(run, in_dt, bias_dt, mode) -> None:
    m, n = 32, 32
    np_in = {F16: np.float16, I8: np.int8, F32: np.float32}[in_dt]
    k = 32 // np.dtype(np_in).itemsize  # one K fractal: A's NZ in L1 is then L0A's zZ
    rng = np.random.default_rng(5)
    if in_dt == I8:
        a, b = (rng.integers(-100, 100, s).astype(np.int8) for s in ((m, k), (k, n)))
        bias = rng.integers(-9999, 9999, 2 * n).astype(np.int32)
    else:
        a, b = rng.standard_normal((m, k)).astype(np_in), rng.standard_normal((k, n)).astype(np_in)
        bias = rng.standard_normal(2 * n).astype(np.float16 if bias_dt == F16 else np.float32)
    np_acc = np.int32 if in_dt == I8 else np.float32
    wide = np_acc if in_dt != F32 else np.float64
    prod = a.astype(wide) @ b.astype(wide)
    launch, (_, _, _, c) = run(bias_kernel(m, n, k, in_dt, bias_dt, mode), 1, a, np.ascontiguousarray(b.T),
                               bias, np.zeros((m, n), np_acc))
    if mode == "accumulate":
        want = 2 * prod
    elif mode == "gapped":
        want = prod + np.r_[bias[:16], bias[32:48]]
        np.testing.assert_array_equal(SEEN["bt"][:16], bias[:16])
        np.testing.assert_array_equal(SEEN["bt"][32:48], bias[16:32])
    else:
        want = prod + bias[:n].astype(np_acc)
    if in_dt == I8:
        np.testing.assert_array_equal(c, want)
    else:
        np.testing.assert_allclose(c, want, rtol=1e-4, atol=1e-4)
    stream = launch.streams[0]
    bt_copies = [i for i in stream if i.op == "data_copy" and i.pipe is Pipe.MTE1]
    assert bt_copies and all(w.space is Space.BT for i in bt_copies for w in i.writes)
    reads_bt = [i for i in stream if i.op == "mmad" and any(r.space is Space.BT for r in i.reads)]
    assert len(reads_bt) == (0 if mode == "accumulate" else 1)
    assert verify_sync(stream, pool=8, require_physical=True).ok


@pytest.mark.parametrize("case, text", [
    ("bt-type", "half -> float"), ("gm-src", "LocalTensor"), ("bias-type", "bias"),
    ("over", "BT"), ("310p", "bias table"),
])
def test_bias_table_refusals(run, case, text) -> None:
    @asc.kernel(chip="310P" if case == "310p" else "tiny")
    def kern(x):
        pipe = asc.TPipe()
        if case == "310p":
            a2, b2, co1 = asc.TBuf(P.A2), asc.TBuf(P.B2), asc.TBuf(P.CO1)
            for b in (a2, b2, co1):
                pipe.init_buffer(b, 1024)
            asc.mmad(co1.get(F32), a2.get(F16), b2.get(F16), asc.MmadParams(16, 16, 16, 0, True, False))
            return
        if case == "over":
            pipe.init_buffer(asc.TBuf(P.C2), 2048)
            return
        l1, bt = asc.TBuf(P.C1), asc.TBuf(P.C2)
        pipe.init_buffer(l1, 512)
        pipe.init_buffer(bt, 512)
        g = asc.GlobalTensor(F32)
        g.set_global_buffer(x)
        if case == "bt-type":
            asc.data_copy(bt.get(F16), l1.get(F16), 64)
        elif case == "gm-src":
            asc.data_copy(bt.get(F32), g, 64)
        else:
            a2, b2, co1 = asc.TBuf(P.A2), asc.TBuf(P.B2), asc.TBuf(P.CO1)
            for b in (a2, b2, co1):
                pipe.init_buffer(b, 1024)
            asc.mmad(co1.get(F32), a2.get(F16), b2.get(F16), bt.get(I32), asc.MmadParams(16, 16, 16))

    with pytest.raises(errors.AclError, match=text):
        run(kern, 1, np.zeros(64, np.float32))


def test_the_310p_has_no_bias_table_buffer(run) -> None:
    @asc.kernel(chip="310P")
    def kern(x):
        pipe = asc.TPipe()
        pipe.init_buffer(asc.TQue(P.C2, 1), 1, 64)

    with pytest.raises(errors.AclError, match="BT"):
        run(kern, 1, np.zeros(4, np.float32))
