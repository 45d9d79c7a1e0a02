"""The high-level Matmul with int4b_t A and B (int32 C), as the Matmul page lists for Atlas A2/A3: exact
against NumPy over cores and tails, the host tiling counting half a byte an element; the int4 bias
(not modelled: the Mmad page has no int4b_t bias) refused with the reason."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.compiler import verify_sync

P, F, D = asc.TPosition, asc.CubeFormat, asc.DataType


def pack(v: np.ndarray) -> np.ndarray:
    """int4 values as the device packs them: element 2k in the low nibble of byte k."""
    u = (np.asarray(v, np.int64).ravel() & 0xF).astype(np.uint8)
    u = np.append(u, np.zeros(u.size % 2, np.uint8))
    return u[0::2] | (u[1::2] << 4)


def host_tiling(m: int, n: int, k: int, dim: int, a_fmt: Any = F.ND, dt: Any = D.DT_INT4) -> asc.TCubeTiling:
    t = asc.MultiCoreMatmulTiling("tiny")
    assert t.set_dim(dim) == 0
    t.set_a_type(P.GM, a_fmt, dt, False)
    t.set_b_type(P.GM, F.ND, dt, True)
    t.set_c_type(P.GM, F.ND, D.DT_INT32)
    t.set_shape(m, n, k)
    t.set_org_shape(m, n, k)
    t.set_bias(False)
    tc = asc.TCubeTiling()
    assert t.get_tiling(tc) == 0
    return tc


@asc.kernel
def matmul_int4(tiling: Any, a_fmt: Any, a: Any, bt: Any, c: Any) -> None:
    pipe = asc.TPipe()
    mm = asc.Matmul(asc.MatmulType(P.GM, a_fmt, asc.int4b_t, False),
                    asc.MatmulType(P.GM, F.ND, asc.int4b_t, True),
                    asc.MatmulType(P.GM, F.ND, asc.int32))
    asc.regist_matmul_obj(pipe, None, mm, tiling)
    ga, gb, gc = asc.GlobalTensor(asc.int4b_t), asc.GlobalTensor(asc.int4b_t), asc.GlobalTensor(asc.int32)
    ga.set_global_buffer(a)
    gb.set_global_buffer(bt)
    gc.set_global_buffer(c)
    m_blocks = -(-tiling.m // tiling.single_core_m)
    mi, ni = asc.get_block_idx() % m_blocks, asc.get_block_idx() // m_blocks
    tail_m = min(tiling.m - mi * tiling.single_core_m, tiling.single_core_m)
    tail_n = min(tiling.n - ni * tiling.single_core_n, tiling.single_core_n)
    if tail_m < tiling.single_core_m or tail_n < tiling.single_core_n:
        mm.set_tail(tail_m, tail_n)
    mm.set_tensor_a(ga[0] if a_fmt is F.NZ else ga[mi * tiling.ka * tiling.single_core_m])  # (NZ: one core)
    mm.set_tensor_b(gb[ni * tiling.kb * tiling.single_core_n], True)
    mm.iterate_all(gc[mi * tiling.n * tiling.single_core_m + ni * tiling.single_core_n])
    mm.end()


def to_nz(x: np.ndarray, c0: int) -> np.ndarray:
    """ND (rows x cols) -> NZ: groups of c0 columns, each holding align16(rows) rows."""
    r, c = x.shape
    r16, cg = -(-r // 16) * 16, -(-c // c0)
    pad = np.zeros((r16, cg * c0), x.dtype)
    pad[:r, :c] = x
    return np.ascontiguousarray(pad.reshape(r16, cg, c0).transpose(1, 0, 2))


@pytest.mark.parametrize("m, n, k, dim, a_fmt", [
    (40, 48, 128, 1, F.ND),
    (100, 70, 300, 2, F.ND),  # tails in M and N, K not a multiple of 64, two cores
    (64, 32, 192, 1, F.NZ),  # A stored NZ (16 x 64 fractals)
])
def test_int4_matmul_against_numpy(run, m, n, k, dim, a_fmt) -> None:
    tc = host_tiling(m, n, k, dim, a_fmt)
    assert tc.base_k % 64 == 0
    rng = np.random.default_rng(m + n + k)
    a, b = rng.integers(-8, 8, (m, k)), rng.integers(-8, 8, (k, n))
    ah = to_nz(a, 64) if a_fmt is F.NZ else a
    launch, res = run(matmul_int4, tc.used_core_num, pack(ah), pack(np.ascontiguousarray(b.T)),
                      np.zeros((m, n), np.int32), extra=(tc, a_fmt))
    np.testing.assert_array_equal(res[2], a @ b)
    for stream in launch.streams:
        report = verify_sync(stream, pool=8, require_physical=True)
        assert report.ok, str(report)[:2000]
    assert {"load_data", "mmad", "fixpipe"} <= {i.op for s in launch.streams for i in s}


def test_tiling_counts_half_a_byte_an_element() -> None:
    t4, t8 = host_tiling(256, 256, 2048, 1), host_tiling(256, 256, 2048, 1, dt=D.DT_INT8)
    assert t4.base_k == 2 * t8.base_k and t4.share_l1_size == t8.share_l1_size
    assert (t4.base_m, t4.base_n) == (t8.base_m, t8.base_n)


def test_int4_bias_is_refused_with_the_reason(run) -> None:
    @asc.kernel
    def k(p):
        asc.Matmul(asc.MatmulType(P.GM, F.ND, asc.int4b_t), asc.MatmulType(P.GM, F.ND, asc.int4b_t, True),
                   asc.MatmulType(P.GM, F.ND, asc.int32), asc.MatmulType(P.GM, F.ND, asc.int32))

    with pytest.raises(errors.TaskError) as info:
        run(k, 1, np.zeros(4, np.uint8))
    assert isinstance(info.value.cause, errors.FeatureNotSupportedError)
    assert info.value.cause.code == errors.ACL_ERROR_RT_FEATURE_NOT_SUPPORT == 207000
    assert "Mmad page lists no bias for int4b_t" in str(info.value.cause)
