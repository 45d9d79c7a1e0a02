"""DataCopy(gm, l0c, DataCopyCO12DstParams) and SetFixpipeNz2ndFlag: against NumPy matmuls."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.errors import TaskError

P = asc.TPosition
F16, F32 = asc.float16, asc.float32
M, N, K = 16, 32, 16


def _kernel(mode: str):
    @asc.kernel
    def kern(a, bt, nd, two, nz):
        pipe = asc.TPipe()
        bufs = [asc.TBuf(p) for p in (P.A1, P.B1, P.A2, P.B2, P.CO1)]
        for b in bufs:
            pipe.init_buffer(b, 4096)
        ga, gb, gnd, gtwo, gnz = (asc.GlobalTensor(t) for t in (F16, F16, F32, F32, F16))
        for g, x in ((ga, a), (gb, bt), (gnd, nd), (gtwo, two), (gnz, nz)):
            g.set_global_buffer(x)
        a1, b1, a2, b2 = (b.get(F16) for b in bufs[:4])
        co1 = bufs[4].get(F32)
        asc.data_copy(a1, ga, asc.Nd2NzParams(1, M, K, 0, K, M, 1, 0))
        asc.data_copy(b1, gb, asc.Nd2NzParams(1, N, K, 0, K, N, 1, 0))
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.load_data(a2, a1, asc.LoadData2dParams(0, M // 16, 1))
        asc.load_data(b2, b1, asc.LoadData2dParams(0, N // 16, 1))
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.mmad(co1, a2, b2, asc.MmadParams(M, N, K))
        asc.pipe_barrier(asc.PIPE_ALL)
        if mode == "unset":
            asc.data_copy(gnd, co1, asc.DataCopyCO12DstParams(N, M, N, M, nz2nd_en=True))  # NO-FLAG
        asc.set_fixpipe_nz2nd_flag(1, 0, 0)  # as gemm_v3 sets it once
        asc.data_copy(gnd, co1, asc.DataCopyCO12DstParams(N, M, N, M, asc.QuantMode.NoQuant, 0, False, True))
        asc.set_fixpipe_nz2nd_flag(2, 1, M * 16)  # two 16-column matrices, one fractal apart in L0C
        asc.data_copy(gtwo, co1, asc.DataCopyCO12DstParams(16, M, 16, M, nz2nd_en=True))
        asc.data_copy(gnz, co1, asc.DataCopyCO12DstParams(N, M, M * 16 * 2 // 32, M, asc.QuantMode.F322F16))
        asc.data_copy(gnz, co1, asc.DataCopyCO12DstParams(0, M, 1, M))  # nSize 0: a NOP
        asc.pipe_barrier(asc.PIPE_ALL)

    return kern


def test_l0c_to_gm_nd_two_matrices_and_nz(run) -> None:
    rng = np.random.default_rng(4)
    a = rng.integers(-4, 5, (M, K)).astype(np.float16)
    b = rng.integers(-4, 5, (K, N)).astype(np.float16)
    want = a.astype(np.float32) @ b.astype(np.float32)
    launch, (_, _, nd, two, nz) = run(_kernel("set"), 1, a, np.ascontiguousarray(b.T),
                                      np.zeros((M, N), np.float32), np.zeros(2 * M * 16, np.float32),
                                      np.zeros(M * N, np.float16))
    np.testing.assert_array_equal(nd, want)
    np.testing.assert_array_equal(two, np.concatenate([want[:, :16].ravel(), want[:, 16:].ravel()]))
    cols = [want[:, j * 16:(j + 1) * 16].ravel() for j in range(N // 16)]
    nz_want = np.concatenate(cols).astype(np.float16)
    np.testing.assert_array_equal(nz, nz_want)
    assert sum(i.op == "fixpipe" for i in launch.streams[0]) == 3


def test_nz2nd_before_the_flag_is_refused(run) -> None:
    z = np.zeros(M * N, np.float32)
    with pytest.raises(TaskError, match="SetFixpipeNz2ndFlag was not called") as info:
        run(_kernel("unset"), 1, np.zeros((M, K), np.float16), np.zeros((N, K), np.float16), z, z,
            np.zeros(M * N, np.float16))
    assert isinstance(info.value.cause, errors.FeatureNotSupportedError)
    assert "test_kernel_co12.py" in str(info.value)


def test_flag_ranges_and_the_310p(run) -> None:
    @asc.kernel
    def bad(x):
        asc.set_fixpipe_nz2nd_flag(2, 0, 16)

    with pytest.raises(TaskError, match="at least 1 when nd_num > 1"):
        run(bad, 1, np.zeros(8, np.float32))

    @asc.kernel(chip="310P")
    def coupled(x):
        asc.set_fixpipe_nz2nd_flag(1, 0, 0)

    with pytest.raises(TaskError, match="has no fixpipe"):
        run(coupled, 1, np.zeros(8, np.float32))
