/*
 * Kernels of the "core type, broadcast, loop mode, 5HD, misc" rows of api_cxx.txt, written in C++ against
 * aclsim's kernel_operator.h; tests/ascendc/test_last3_api.py runs each on one block of the tiny chip and
 * checks its output against NumPy.
 */
#include "kernel_operator.h"
using namespace AscendC;

/* y: 8 int32 (g_coreType, AIC, AIV, whether g_coreType == AIV, RESERVED_WORKSPACE) */
extern "C" __global__ __aicore__ void last3_core_aiv(GM_ADDR y)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)y, 8);
    g.SetValue(0, g_coreType);
    g.SetValue(1, AIC);
    g.SetValue(2, AIV);
    if (g_coreType == AIV) {
        g.SetValue(3, 1);
    }
    uint32_t reserved = RESERVED_WORKSPACE;
    g.SetValue(4, static_cast<int32_t>(reserved));
}

extern "C" __global__ __aicore__ void last3_core_aic(GM_ADDR y)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)y, 8);
    g.SetValue(0, g_coreType);
    if (g_coreType == AIC) {
        g.SetValue(3, 1);
    }
}

/* a kernel of no declared type reading g_coreType: aclsim's fault */
extern "C" __global__ __aicore__ void last3_core_undeclared(GM_ADDR y)
{
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)y, 8);
    g.SetValue(0, g_coreType);
}

/* x: 16 floats (a column [16, 1]), r: 16 floats (a row [1, 16]); y: 16 floats of Arange(1.5, 0.25), then
   x broadcast to [16, 16] (with a tmp buffer), then r broadcast to [4, 16] (BroadCast, no tmp buffer) */
extern "C" __global__ __aicore__ void last3_arange_broadcast(GM_ADDR x, GM_ADDR r, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, rBuf, aBuf, bBuf, cBuf, tBuf;
    pipe.InitBuffer(xBuf, 16 * sizeof(float));
    pipe.InitBuffer(rBuf, 16 * sizeof(float));
    pipe.InitBuffer(aBuf, 16 * sizeof(float));
    pipe.InitBuffer(bBuf, 256 * sizeof(float));
    pipe.InitBuffer(cBuf, 64 * sizeof(float));
    pipe.InitBuffer(tBuf, 8192);
    GlobalTensor<float> gx, gr, gy;
    gx.SetGlobalBuffer((__gm__ float*)x, 16);
    gr.SetGlobalBuffer((__gm__ float*)r, 16);
    gy.SetGlobalBuffer((__gm__ float*)y, 16 + 256 + 64);
    LocalTensor<float> lx = xBuf.Get<float>();
    LocalTensor<float> lr = rBuf.Get<float>();
    LocalTensor<float> a = aBuf.Get<float>();
    LocalTensor<float> b = bBuf.Get<float>();
    LocalTensor<float> c = cBuf.Get<float>();
    LocalTensor<uint8_t> tmp = tBuf.Get<uint8_t>();
    DataCopy(lx, gx, 16);
    DataCopy(lr, gr, 16);
    TQueSync<PIPE_MTE2, PIPE_V> in;
    in.SetFlag(0);
    in.WaitFlag(0);
    Arange(a, 1.5f, 0.25f, 16);
    const uint32_t colSrc[2] = {16, 1};
    const uint32_t colDst[2] = {16, 16};
    Broadcast<float, 2, 1>(b, lx, colDst, colSrc, tmp);
    const uint32_t rowSrc[2] = {1, 16};
    const uint32_t rowDst[2] = {4, 16};
    BroadCast<float, 2, 0>(c, lr, rowDst, rowSrc);
    TQueSync<PIPE_V, PIPE_MTE3> out;
    out.SetFlag(0);
    out.WaitFlag(0);
    DataCopy(gy, a, 16);
    DataCopy(gy[16], b, 256);
    DataCopy(gy[272], c, 64);
}

/* x: 256 halves ([16, 16]); y: 768 halves: x transposed three times, by the address-list, tensor-list and
   LocalTensor<uint64_t> forms of TransDataTo5HD */
extern "C" __global__ __aicore__ void last3_5hd(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, dBuf, aBuf;
    pipe.InitBuffer(xBuf, 256 * sizeof(half));
    pipe.InitBuffer(dBuf, 768 * sizeof(half));
    pipe.InitBuffer(aBuf, 32 * sizeof(uint64_t));
    GlobalTensor<half> gx, gy;
    gx.SetGlobalBuffer((__gm__ half*)x, 256);
    gy.SetGlobalBuffer((__gm__ half*)y, 768);
    LocalTensor<half> lx = xBuf.Get<half>();
    LocalTensor<half> d = dBuf.Get<half>();
    LocalTensor<uint64_t> addr = aBuf.Get<uint64_t>();
    DataCopy(lx, gx, 256);
    TQueSync<PIPE_MTE2, PIPE_V> in;
    in.SetFlag(0);
    in.WaitFlag(0);
    TransDataTo5HDParams params{false, false, 1, 0, 0};
    uint64_t dstList[16];
    uint64_t srcList[16];
    LocalTensor<half> dstTensors[16];
    LocalTensor<half> srcTensors[16];
    for (int i = 0; i < 16; ++i) {
        dstList[i] = d[16 * i].GetPhyAddr();
        srcList[i] = lx[16 * i].GetPhyAddr();
        dstTensors[i] = d[256 + 16 * i];
        srcTensors[i] = lx[16 * i];
        addr.SetValue(i, d[512 + 16 * i].GetPhyAddr());
        addr.SetValue(16 + i, lx[16 * i].GetPhyAddr());
    }
    TransDataTo5HD<half>(dstList, srcList, params);
    TransDataTo5HD<half>(dstTensors, srcTensors, params);
    TransDataTo5HD<half>(addr, addr[16], params);
    TQueSync<PIPE_V, PIPE_MTE3> out;
    out.SetFlag(0);
    out.WaitFlag(0);
    DataCopy(gy, d, 768);
}

/* x: 32 floats ([4, 8]); y: 16 floats: the row sums (Pattern::Reduce::AR, with a tmp buffer) then the
   column sums (RA, without one) */
extern "C" __global__ __aicore__ void last3_reduce_pattern(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, dBuf, tBuf;
    pipe.InitBuffer(xBuf, 32 * sizeof(float));
    pipe.InitBuffer(dBuf, 16 * sizeof(float));
    pipe.InitBuffer(tBuf, 4096);
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float*)x, 32);
    gy.SetGlobalBuffer((__gm__ float*)y, 16);
    LocalTensor<float> lx = xBuf.Get<float>();
    LocalTensor<float> d = dBuf.Get<float>();
    LocalTensor<uint8_t> tmp = tBuf.Get<uint8_t>();
    DataCopy(lx, gx, 32);
    TQueSync<PIPE_MTE2, PIPE_V> in;
    in.SetFlag(0);
    in.WaitFlag(0);
    Duplicate(d, 0.0f, 16);
    const uint32_t shape[2] = {4, 8};
    ReduceSum<float, Pattern::Reduce::AR>(d, lx, tmp, shape, true);
    ReduceSum<float, Pattern::Reduce::RA, false>(d[8], lx, shape, true);
    TQueSync<PIPE_V, PIPE_MTE3> out;
    out.SetFlag(0);
    out.WaitFlag(0);
    DataCopy(gy, d, 16);
}

/* SetLoopModePara on a chip without loop mode (the tiny chip is arch 2201): aclsim's fault */
extern "C" __global__ __aicore__ void last3_loop_mode(GM_ADDR y)
{
    LoopModeParams params{2, 2, 96, 128, 192, 288};
    SetLoopModePara(params, DataCopyMVType::OUT_TO_UB);
    ResetLoopModePara(DataCopyMVType::OUT_TO_UB);
}

/* x: 64 floats; y: 512 floats (the 310P: x[0:16] and x[16:32] each filling a 16 x 16 L0C fractal by
   BroadCastVecToMM, brought back through UB by the coupled chip's L0C -> UB DataCopy) */
extern "C" __global__ __aicore__ void last3_brcmm(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> vBuf, oBuf;
    TBuf<TPosition::CO1> cBuf;
    pipe.InitBuffer(vBuf, 64 * sizeof(float));
    pipe.InitBuffer(oBuf, 512 * sizeof(float));
    pipe.InitBuffer(cBuf, 512 * sizeof(float));
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float*)x, 64);
    gy.SetGlobalBuffer((__gm__ float*)y, 512);
    LocalTensor<float> v = vBuf.Get<float>();
    LocalTensor<float> o = oBuf.Get<float>();
    LocalTensor<float> c = cBuf.Get<float>();
    DataCopy(v, gx, 64);
    PipeBarrier<PIPE_ALL>();
    BroadCastVecToMM(c, v, 1, 2, 0, 0);
    PipeBarrier<PIPE_ALL>();
    DataCopyEnhancedParams enhanced;
    enhanced.blockMode = BlockMode::BLOCK_MODE_MATRIX;
    DataCopy(o, c, DataCopyParams{1, 2, 0, 0}, enhanced);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, o, 512);
}

/* xh: 64 halves ([4, 16]); sf, mf: 32 floats (the rows' sum and max blocks [4, 8]); xf: 64 floats ([4, 16]);
   y: 64 halves (SimpleSoftMax of xh with the float blocks, a tmp buffer and the shape info) then, as floats
   from byte 128, 64 floats (of xf with the same blocks, no tmp buffer) */
extern "C" __global__ __aicore__ void last3_simple_softmax(GM_ADDR xh, GM_ADDR sf, GM_ADDR mf, GM_ADDR xf,
                                                          GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> hBuf, sBuf, mBuf, fBuf, dhBuf, dfBuf, tBuf;
    pipe.InitBuffer(hBuf, 64 * sizeof(half));
    pipe.InitBuffer(sBuf, 32 * sizeof(float));
    pipe.InitBuffer(mBuf, 32 * sizeof(float));
    pipe.InitBuffer(fBuf, 64 * sizeof(float));
    pipe.InitBuffer(dhBuf, 64 * sizeof(half));
    pipe.InitBuffer(dfBuf, 64 * sizeof(float));
    pipe.InitBuffer(tBuf, 8192);
    GlobalTensor<half> gh, gyh;
    GlobalTensor<float> gs, gm, gf, gyf;
    gh.SetGlobalBuffer((__gm__ half*)xh, 64);
    gs.SetGlobalBuffer((__gm__ float*)sf, 32);
    gm.SetGlobalBuffer((__gm__ float*)mf, 32);
    gf.SetGlobalBuffer((__gm__ float*)xf, 64);
    gyh.SetGlobalBuffer((__gm__ half*)y, 64);
    gyf.SetGlobalBuffer((__gm__ float*)(y + 64 * sizeof(half)), 64);
    LocalTensor<half> h = hBuf.Get<half>();
    LocalTensor<float> s = sBuf.Get<float>();
    LocalTensor<float> m = mBuf.Get<float>();
    LocalTensor<float> f = fBuf.Get<float>();
    LocalTensor<half> dh = dhBuf.Get<half>();
    LocalTensor<float> df = dfBuf.Get<float>();
    LocalTensor<uint8_t> tmp = tBuf.Get<uint8_t>();
    DataCopy(h, gh, 64);
    DataCopy(s, gs, 32);
    DataCopy(m, gm, 32);
    DataCopy(f, gf, 64);
    TQueSync<PIPE_MTE2, PIPE_V> in;
    in.SetFlag(0);
    in.WaitFlag(0);
    SoftMaxTiling tiling;
    tiling.srcM = 4;
    tiling.srcK = 16;
    tiling.splitM = 4;
    SoftMaxShapeInfo info{4, 16, 4, 16};
    SimpleSoftMax<half>(dh, s, m, h, tmp, tiling, info);
    SimpleSoftMax<float>(df, s, m, f, tiling);
    TQueSync<PIPE_V, PIPE_MTE3> out;
    out.SetFlag(0);
    out.WaitFlag(0);
    DataCopy(gyh, dh, 64);
    DataCopy(gyf, df, 64);
}

/* x: 512 int8 ([16, 32]); y: 512 int8: TransDataTo5HD<int8_t> with dstHighHalf and srcHighHalf (the high 16
   columns of the 16 source blocks into the high halves of the 16 destination blocks; the low halves 0) */
extern "C" __global__ __aicore__ void last3_5hd_int8(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, dBuf;
    pipe.InitBuffer(xBuf, 512);
    pipe.InitBuffer(dBuf, 512);
    GlobalTensor<int8_t> gx, gy;
    gx.SetGlobalBuffer((__gm__ int8_t*)x, 512);
    gy.SetGlobalBuffer((__gm__ int8_t*)y, 512);
    LocalTensor<int8_t> lx = xBuf.Get<int8_t>();
    LocalTensor<int8_t> d = dBuf.Get<int8_t>();
    DataCopy(lx, gx, 512);
    Duplicate(d.ReinterpretCast<int16_t>(), static_cast<int16_t>(0), 256);
    TQueSync<PIPE_MTE2, PIPE_V> in;
    in.SetFlag(0);
    in.WaitFlag(0);
    LocalTensor<int8_t> dstList[16];
    LocalTensor<int8_t> srcList[16];
    for (int i = 0; i < 16; ++i) {
        dstList[i] = d[32 * i];
        srcList[i] = lx[32 * i];
    }
    TransDataTo5HDParams params;
    params.dstHighHalf = true;
    params.srcHighHalf = true;
    TransDataTo5HD<int8_t>(dstList, srcList, params);
    TQueSync<PIPE_V, PIPE_MTE3> out;
    out.SetFlag(0);
    out.WaitFlag(0);
    DataCopy(gy, d, 512);
}
