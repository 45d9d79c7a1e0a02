"""Matmul inputs whole in L1 (TPosition::TSCM, the TSCM<GM> queue): A and/or B in NZ, plain or transposed,
over several base blocks and K steps, against NumPy; no GM -> L1 copy for them; the refusals."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.compiler import verify_sync
from aclsim.isa import Pipe, Space

P, F, D = asc.TPosition, asc.CubeFormat, asc.DataType


def to_nz(x: np.ndarray, c0: int) -> np.ndarray:
    """ND (rows x cols) -> NZ: groups of c0 columns, each holding every row (rounded up to 16)."""
    r, c = x.shape
    r16, cg = -(-r // 16) * 16, -(-c // c0)
    pad = np.zeros((r16, cg * c0), x.dtype)
    pad[:r, :c] = x
    return np.ascontiguousarray(pad.reshape(r16, cg, c0).transpose(1, 0, 2)).reshape(-1)


def tiling(m, n, k, a_pos, b_pos, ta, tb, fix):
    t = asc.MatmulApiTiling("tiny")
    t.set_a_type(a_pos, F.NZ if a_pos is P.TSCM else F.ND, D.DT_FLOAT16, ta)
    t.set_b_type(b_pos, F.NZ if b_pos is P.TSCM else F.ND, D.DT_FLOAT16, tb)
    t.set_c_type(P.GM, F.ND, D.DT_FLOAT)
    t.set_bias_type(P.GM, F.ND, D.DT_FLOAT)
    t.set_shape(m, n, k)
    t.set_org_shape(m, n, k)
    t.set_bias(True)
    t.set_fix_split(*fix, -1)
    tc = asc.TCubeTiling()
    assert t.get_tiling(tc) == 0
    tc.base_k = 16  # several K steps per block
    tc.step_ka = tc.step_kb = -(-k // 16)
    tc.depth_a1 = tc.depth_b1 = tc.step_ka
    return tc


@asc.kernel
def tscm_kernel(tc, a_pos, b_pos, ta, tb, sizes, a, b, bias, c):
    pipe = asc.TPipe()
    mm = asc.Matmul(
        asc.MatmulType(a_pos, F.NZ if a_pos is P.TSCM else F.ND, asc.half, ta),
        asc.MatmulType(b_pos, F.NZ if b_pos is P.TSCM else F.ND, asc.half, tb),
        asc.MatmulType(P.GM, F.ND, asc.float32),
        asc.MatmulType(P.GM, F.ND, asc.float32),
    )
    asc.regist_matmul_obj(pipe, None, mm, tc)
    ga, gb = asc.GlobalTensor(asc.half), asc.GlobalTensor(asc.half)
    gbias, gc = asc.GlobalTensor(asc.float32), asc.GlobalTensor(asc.float32)
    for g, x in ((ga, a), (gb, b), (gbias, bias), (gc, c)):
        g.set_global_buffer(x)
    inputs = []
    for pos, g, elems in ((a_pos, ga, sizes[0]), (b_pos, gb, sizes[1])):
        if pos is P.TSCM:  # the sample's way: the whole NZ matrix into a TSCM buffer, EnQue/DeQue
            scm = asc.TSCM(P.GM, 1)
            pipe.init_buffer(scm, 1, elems * 2)
            t = scm.alloc_tensor(asc.half)
            asc.data_copy(t, g, elems)
            scm.enque(t)
            inputs.append(scm.deque(asc.half))
        else:
            inputs.append(g)
    mm.set_tensor_a(inputs[0], ta)
    mm.set_tensor_b(inputs[1], tb)
    mm.set_bias(gbias)
    mm.iterate_all(gc)
    mm.end()


@pytest.mark.parametrize("a_pos, b_pos, ta, tb", [
    (P.TSCM, P.GM, False, False), (P.TSCM, P.GM, True, False), (P.GM, P.TSCM, False, False),
    (P.GM, P.TSCM, False, True), (P.TSCM, P.TSCM, False, True),
])
def test_matmul_from_tscm(run, a_pos, b_pos, ta, tb) -> None:
    m, n, k = 48, 64, 40
    rng = np.random.default_rng(7)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    bias = rng.standard_normal(n).astype(np.float32)
    if a_pos is P.TSCM:
        ah = to_nz(a.T, 16) if ta else to_nz(a, 16)
    else:
        ah = np.ascontiguousarray(a.T) if ta else a
    if b_pos is P.TSCM:
        bh = to_nz(b.T, 16) if tb else to_nz(b, 16)
    else:
        bh = np.ascontiguousarray(b.T) if tb else b
    tc = tiling(m, n, k, a_pos, b_pos, ta, tb, (16, 32))  # 3 x 2 blocks, 3 K steps each
    launch, res = run(tscm_kernel, 1, ah, bh, bias, np.zeros((m, n), np.float32),
                      extra=(tc, a_pos, b_pos, ta, tb, (ah.size, bh.size)))
    want = a.astype(np.float32) @ b.astype(np.float32) + bias
    np.testing.assert_allclose(res[3], want, rtol=1e-4, atol=1e-3)
    stream = launch.streams[0]
    assert verify_sync(stream, pool=8, require_physical=True).ok
    l1_loads = [i for i in stream if i.op == "data_copy" and i.pipe is Pipe.MTE2
                and any(w.space is Space.L1 for w in i.writes)]
    # one copy per TSCM matrix (the kernel's), the bias per block (6), the GM inputs' slabs: A's for each
    # of the 6 blocks (M moves first), B's once per column of blocks (all of K in a slab stays)
    tscm_count = (a_pos is P.TSCM) + (b_pos is P.TSCM)
    gm_slabs = (6 if a_pos is P.GM else 0) + (2 if b_pos is P.GM else 0)
    assert len(l1_loads) == tscm_count + 6 + gm_slabs


@pytest.mark.parametrize("case, text", [("gm-tensor-for-tscm", "TSCM"), ("tscm-nd", "NZ"),
                                        ("local-for-gm", "TSCM MatmulType")])
def test_tscm_refusals(run, case, text) -> None:
    @asc.kernel
    def kern(x):
        pipe = asc.TPipe()
        fmt = F.ND if case == "tscm-nd" else F.NZ
        a_pos = P.GM if case == "local-for-gm" else P.TSCM
        mm = asc.Matmul(asc.MatmulType(a_pos, fmt if a_pos is P.TSCM else F.ND, asc.half),
                        asc.MatmulType(P.GM, F.ND, asc.half), asc.MatmulType(P.GM, F.ND, asc.float32),
                        asc.MatmulType(P.GM, F.ND, asc.float32))
        asc.regist_matmul_obj(pipe, None, mm, tiling(32, 32, 32, P.GM, P.GM, False, False, (16, 16)))
        g = asc.GlobalTensor(asc.half)
        g.set_global_buffer(x)
        if case == "gm-tensor-for-tscm":
            mm.set_tensor_a(g)
        scm = asc.TSCM()
        pipe.init_buffer(scm, 1, 2048)
        mm.set_tensor_a(scm.alloc_tensor(asc.half))

    with pytest.raises(errors.AclError, match=text):
        run(kern, 1, np.zeros(1024, np.float16))


def test_tscm_queue_sources() -> None:
    assert asc.TSCM().src is P.GM and asc.TSCM(P.VECOUT).position is P.TSCM
    with pytest.raises(ValueError, match="GM or VECOUT"):
        asc.TSCM(P.VECIN)


def test_matmul_type_layouts(run) -> None:
    """MatmulType's layout field (LayoutMode): NONE and NORMAL run, the BatchMatmul layouts are refused."""
    assert asc.MatmulType(P.GM, F.ND, asc.half).layout is asc.LayoutMode.NONE

    @asc.kernel
    def kern(x):
        asc.Matmul(asc.MatmulType(P.GM, F.ND, asc.half, False, asc.LayoutMode.BSNGD),
                   asc.MatmulType(P.GM, F.ND, asc.half), asc.MatmulType(P.GM, F.ND, asc.float32))

    with pytest.raises(errors.AclError, match="BSNGD"):
        run(kern, 1, np.zeros(4, np.float32))
