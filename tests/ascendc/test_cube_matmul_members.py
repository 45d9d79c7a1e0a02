"""More of the C++ Matmul object: REGIST_MATMUL_OBJ without a tiling then ``mm.Init(&tiling)``,
SetOrgShape / SetSingleShape, IterateAll to GM, and to a UB tensor through SetWorkspace (checked
against NumPy), the asynchronous ``Iterate<false>`` + ``GetTensorC<false>`` into UB, and into GM (refused
with 207000 at its C++ line)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim.errors import AclError

M, N, K = 64, 32, 48

CPP = r"""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

using MM = Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>,
                  MatmulType<TPosition::GM, CubeFormat::ND, half>,
                  MatmulType<TPosition::GM, CubeFormat::ND, float>>;

__aicore__ inline void ReadTiling(TCubeTiling& t, GM_ADDR tilingGm)
{
    const auto* words = reinterpret_cast<__gm__ const int32_t*>(tilingGm);
    auto* mine = reinterpret_cast<int32_t*>(&t);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(int32_t); ++i) {
        mine[i] = words[i];
    }
}

extern "C" __global__ __aicore__ void mm_init(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm)
{
    TPipe pipe;
    TCubeTiling t;
    ReadTiling(t, tilingGm);
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.M * t.Ka);
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.M * t.N);
    MM mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm);
    mm.Init(&t);
    mm.SetOrgShape(t.M, t.N, t.Ka);
    mm.SetSingleShape(t.singleCoreM, t.singleCoreN, t.singleCoreK);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.IterateAll(gc);
    mm.End();
}

using MMUB = Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>,
                    MatmulType<TPosition::GM, CubeFormat::ND, half>,
                    MatmulType<TPosition::VECIN, CubeFormat::ND, float>>;

extern "C" __global__ __aicore__ void mm_ub(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm, GM_ADDR ws)
{
    TPipe pipe;
    TCubeTiling t;
    ReadTiling(t, tilingGm);
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc, gws;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.M * t.Ka);
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.M * t.N);
    gws.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(ws), t.baseM * t.baseN);
    MMUB mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetWorkspace(gws);  // how C reaches UB on a split chip
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, t.M * t.N * sizeof(float));
    LocalTensor<float> ub = q.AllocTensor<float>();
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.IterateAll(ub);  // the whole part, rows of singleCoreN
    mm.End();
    q.EnQue(ub);
    ub = q.DeQue<float>();
    DataCopy(gc, ub, t.M * t.N);
    q.FreeTensor(ub);
}

extern "C" __global__ __aicore__ void mm_async(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm, GM_ADDR ws)
{
    TPipe pipe;
    TCubeTiling t;
    ReadTiling(t, tilingGm);
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc, gws;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.M * t.Ka);
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.M * t.N);
    gws.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(ws), t.singleCoreM * t.singleCoreN);
    MMUB mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetWorkspace(gws);  // where the asynchronous Iterate leaves the blocks
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.template Iterate<false>();  // the asynchronous mode: every block into the workspace
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, t.baseM * t.baseN * sizeof(float));
    const uint32_t mBlocks = t.singleCoreM / t.baseM;
    for (uint32_t i = 0; i < mBlocks * (t.singleCoreN / t.baseN); ++i) {
        LocalTensor<float> ub = q.AllocTensor<float>();
        mm.template GetTensorC<false>(ub, 0, true);  // the next block, baseM x baseN
        q.EnQue(ub);
        ub = q.DeQue<float>();
        const uint32_t at = i % mBlocks * t.baseM * t.N + i / mBlocks * t.baseN;
        DataCopy(gc[at], ub, DataCopyParams(static_cast<uint16_t>(t.baseM),
                 static_cast<uint16_t>(t.baseN * sizeof(float) / 32), 0,
                 static_cast<uint16_t>((t.N - t.baseN) * sizeof(float) / 32)));
        q.FreeTensor(ub);
    }
    mm.End();
}

extern "C" __global__ __aicore__ void mm_async_gm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm,
                                                  GM_ADDR ws)
{
    TPipe pipe;
    TCubeTiling t;
    ReadTiling(t, tilingGm);
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc, gws;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.M * t.Ka);
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.M * t.N);
    gws.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(ws), t.singleCoreM * t.singleCoreN);
    MM mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetWorkspace(gws);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.template Iterate<false>();
    mm.template GetTensorC<false>(gc);  // into GM: not modelled
}
"""


@pytest.fixture(params=[asc.TPosition.GM])
def setup(cpp_kernels, tmp_path: Path, request):
    src = tmp_path / "mm_members.cpp"
    src.write_text(CPP)
    kernels = cpp_kernels([src])
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    api = asc.MatmulApiTiling("tiny")
    for set_type in (api.set_a_type, api.set_b_type):
        assert set_type(asc.TPosition.GM, asc.CubeFormat.ND, asc.DataType.DT_FLOAT16) == 0
    assert api.set_c_type(request.param, asc.CubeFormat.ND, asc.DataType.DT_FLOAT) == 0
    api.set_shape(M, N, K)
    api.set_org_shape(M, N, K)
    tiling = asc.TCubeTiling()
    assert api.get_tiling(tiling) == 0
    words = np.array([getattr(tiling, f.name) for f in dataclasses.fields(asc.TCubeTiling)], np.int32)
    rng = np.random.default_rng(11)
    a = rng.integers(-4, 5, (M, K)).astype(np.float16)
    b = rng.integers(-4, 5, (K, N)).astype(np.float16)
    c = np.zeros((M, N), np.float32)
    bufs = [aclsim.malloc(x.nbytes) for x in (a, b, c, words)]
    for buf, x in zip(bufs, (a, b, c, words), strict=True):
        aclsim.memcpy(buf, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    bufs.append(aclsim.malloc(tiling.base_m * tiling.base_n * 4))  # the workspace of C -> UB
    yield kernels, bufs, a, b, c
    for buf in bufs:
        aclsim.free(buf)


def test_init_after_regist_and_iterate_all(setup) -> None:
    kernels, bufs, a, b, c = setup
    kernels.mm_init[1, None](*bufs[:4])
    aclsim.synchronize_device()
    aclsim.memcpy(c, c.nbytes, bufs[2], c.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


@pytest.mark.parametrize("setup", [asc.TPosition.VECIN], indirect=True)
def test_asynchronous_iterate_then_get_tensor_c(setup) -> None:
    kernels, bufs, a, b, c = setup
    ws = aclsim.malloc(c.nbytes)  # the part, singleCoreM x singleCoreN
    kernels.mm_async[1, None](*bufs[:4], ws)
    aclsim.synchronize_device()
    aclsim.memcpy(c, c.nbytes, bufs[2], c.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    aclsim.free(ws)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


def test_asynchronous_get_tensor_c_into_gm_is_refused_at_its_line(setup) -> None:
    kernels, bufs, _, _, c = setup
    ws = aclsim.malloc(c.nbytes)
    with pytest.raises(AclError) as info:
        kernels.mm_async_gm[1, None](*bufs[:4], ws)
        aclsim.synchronize_device()
    aclsim.free(ws)
    text = str(info.value)
    assert info.value.code == 207000 and "into GM is not modelled" in text
    line = next(i for i, s in enumerate(CPP.splitlines(), 1) if "GetTensorC<false>(gc)" in s)
    assert f"mm_members.cpp:{line}" in text


@pytest.mark.parametrize("setup", [asc.TPosition.VECIN], indirect=True)
def test_iterate_all_to_ub_through_set_workspace(setup) -> None:
    kernels, bufs, a, b, c = setup
    kernels.mm_ub[1, None](*bufs)
    aclsim.synchronize_device()
    aclsim.memcpy(c, c.nbytes, bufs[2], c.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))
