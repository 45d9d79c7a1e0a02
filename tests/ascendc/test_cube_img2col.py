"""LoadData with LoadData3DParamsV2<T> (img2col of an L1 feature map into L0A) in C++: a 3 x 3
convolution as img2col @ weights, checked against NumPy."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import aclsim

C, H, W, COUT = 16, 4, 4, 16
KCOLS = 3 * 3 * C  # (kh, kw, c0), C1 = 1
MROWS = H * W  # pad 1 all round, stride 1: the output is H x W

CPP = r"""
#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t C = 16, H = 4, W = 4, COUT = 16, KCOLS = 9 * C, MROWS = H * W;

extern "C" __global__ __aicore__ void conv3x3(GM_ADDR fm, GM_ADDR wt, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::A1> a1;
    TBuf<TPosition::B1> b1;
    TBuf<TPosition::A2> a2;
    TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> co1;
    pipe.InitBuffer(a1, C * H * W * sizeof(half));
    pipe.InitBuffer(b1, KCOLS * COUT * sizeof(half));
    pipe.InitBuffer(a2, MROWS * KCOLS * sizeof(half));
    pipe.InitBuffer(b2, KCOLS * COUT * sizeof(half));
    pipe.InitBuffer(co1, MROWS * COUT * sizeof(float));
    GlobalTensor<half> gf;
    GlobalTensor<half> gw;
    GlobalTensor<float> go;
    gf.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(fm));
    gw.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(wt));
    go.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    DataCopy(a1.Get<half>(), gf, C * H * W);  // the feature map as NC1HWC0 (C1 = 1)
    DataCopy(b1.Get<half>(), gw, Nd2NzParams(1, COUT, KCOLS, 0, KCOLS, COUT, 1, 0));  // W^T
    PipeBarrier<PIPE_ALL>();
    LoadData3DParamsV2<half> p;
    for (int i = 0; i < 4; ++i) {
        p.padList[i] = 1;
    }
    p.l1H = H;
    p.l1W = W;
    p.channelSize = C;
    p.kExtension = KCOLS;
    p.mExtension = MROWS;
    p.filterW = 3;
    p.filterH = 3;
    LoadData(a2.Get<half>(), a1.Get<half>(), p);
    LoadData(b2.Get<half>(), b1.Get<half>(), LoadData2dParams(0, KCOLS / 16, 1, 0, 0, false, 0));
    PipeBarrier<PIPE_ALL>();
    Mmad(co1.Get<float>(), a2.Get<half>(), b2.Get<half>(), MmadParams(MROWS, COUT, KCOLS, 0, false, true));
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 f;
    f.nSize = COUT;
    f.mSize = MROWS;
    f.srcStride = MROWS;
    f.dstStride = COUT;
    Fixpipe(go, co1.Get<float>(), f);
    PipeBarrier<PIPE_ALL>();
}
"""


def _im2col(fm: np.ndarray) -> np.ndarray:
    """Rows (ho, wo), columns (kh, kw, c) of the 3 x 3 windows of ``fm`` (H, W, C) padded by 1."""
    padded = np.pad(fm, ((1, 1), (1, 1), (0, 0)))
    return np.stack([padded[ho:ho + 3, wo:wo + 3, :].reshape(-1) for ho in range(H) for wo in range(W)])


def test_img2col_conv_in_cpp(cpp_kernels, tmp_path: Path) -> None:
    src = tmp_path / "conv3x3.cpp"
    src.write_text(CPP)
    kernels = cpp_kernels([src])
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    rng = np.random.default_rng(8)
    fm = rng.integers(-3, 4, (H, W, C)).astype(np.float16)
    wt = rng.integers(-3, 4, (COUT, KCOLS)).astype(np.float16)
    out = np.zeros((MROWS, COUT), np.float32)
    bufs = [aclsim.malloc(x.nbytes) for x in (fm, wt, out)]
    for buf, x in zip(bufs, (fm, wt), strict=False):
        aclsim.memcpy(buf, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    launch = kernels.conv3x3[1, None](*bufs)
    aclsim.synchronize_device()
    aclsim.memcpy(out, out.nbytes, bufs[2], out.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    want = _im2col(fm).astype(np.float32) @ wt.T.astype(np.float32)
    np.testing.assert_array_equal(out, want)
    lines = CPP.splitlines()
    loads = [i for i in launch.streams[0] if i.op == "load_data"]
    assert len(loads) == 2 and "LoadData(a2" in lines[loads[0].line - 1]
    for b in bufs:
        aclsim.free(b)
