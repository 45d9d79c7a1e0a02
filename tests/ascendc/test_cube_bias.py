"""The bias table in C++: bias GM -> L1 (C1) -> bias table (C2, half -> float) by DataCopy<T, U>, then
Mmad with the bias tensor; checked against NumPy."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import aclsim

CPP = r"""
#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t S = 32, K = 16;  // one K fractal: A's NZ in L1 is then L0A's zZ

extern "C" __global__ __aicore__ void mm_bias(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c)
{
    TPipe pipe;
    TBuf<TPosition::A1> a1;
    TBuf<TPosition::B1> b1;
    TBuf<TPosition::A2> a2;
    TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> co1;
    TQue<TPosition::C1, 1> qL1;
    TQue<TPosition::C2, 1> qBt;
    pipe.InitBuffer(a1, S * K * sizeof(half));
    pipe.InitBuffer(b1, S * K * sizeof(half));
    pipe.InitBuffer(a2, S * K * sizeof(half));
    pipe.InitBuffer(b2, S * K * sizeof(half));
    pipe.InitBuffer(co1, S * S * sizeof(float));
    pipe.InitBuffer(qL1, 1, S * sizeof(half));
    pipe.InitBuffer(qBt, 1, S * sizeof(float));
    GlobalTensor<half> ga, gb, gbias;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
    gbias.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(bias));
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
    DataCopy(a1.Get<half>(), ga, Nd2NzParams(1, S, K, 0, K, S, 1, 0));
    DataCopy(b1.Get<half>(), gb, Nd2NzParams(1, S, K, 0, K, S, 1, 0));  // B^T given: n x k rows
    LocalTensor<half> l1 = qL1.AllocTensor<half>();
    DataCopy(l1, gbias, S);
    qL1.EnQue(l1);
    l1 = qL1.DeQue<half>();
    LocalTensor<float> bt = qBt.AllocTensor<float>();
    DataCopy(bt, l1, DataCopyParams(1, S * sizeof(float) / 64, 0, 0));  // half -> float on the way
    qL1.FreeTensor(l1);
    qBt.EnQue(bt);
    bt = qBt.DeQue<float>();
    PipeBarrier<PIPE_ALL>();
    LoadData(a2.Get<half>(), a1.Get<half>(), LoadData2DParams(0, S / 16, 1, 0, 0, false, 0));
    LoadData(b2.Get<half>(), b1.Get<half>(), LoadData2DParams(0, S / 16, 1, 0, 0, false, 0));
    PipeBarrier<PIPE_ALL>();
    Mmad(co1.Get<float>(), a2.Get<half>(), b2.Get<half>(), bt, MmadParams(S, S, K, 0, false, true));
    qBt.FreeTensor(bt);
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 f;
    f.nSize = S;
    f.mSize = S;
    f.srcStride = S;
    f.dstStride = S;
    Fixpipe(gc, co1.Get<float>(), f);
    PipeBarrier<PIPE_ALL>();
}
"""


def test_bias_table_and_mmad_with_bias(cpp_kernels, tmp_path: Path) -> None:
    src = tmp_path / "mm_bias.cpp"
    src.write_text(CPP)
    kernels = cpp_kernels([src])
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    rng = np.random.default_rng(9)
    a = rng.integers(-3, 4, (32, 16)).astype(np.float16)
    bt_ = rng.integers(-3, 4, (32, 16)).astype(np.float16)  # B transposed (n x k)
    bias = rng.integers(-8, 9, 32).astype(np.float16)
    c = np.zeros((32, 32), np.float32)
    bufs = [aclsim.malloc(x.nbytes) for x in (a, bt_, bias, c)]
    for buf, x in zip(bufs, (a, bt_, bias), strict=False):
        aclsim.memcpy(buf, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    launch = kernels.mm_bias[1, None](*bufs)
    aclsim.synchronize_device()
    aclsim.memcpy(c, c.nbytes, bufs[3], c.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    want = a.astype(np.float32) @ bt_.T.astype(np.float32) + bias.astype(np.float32)
    np.testing.assert_array_equal(c, want)
    assert any(i.op == "mmad" for i in launch.streams[0])
    for buf in bufs:
        aclsim.free(buf)
