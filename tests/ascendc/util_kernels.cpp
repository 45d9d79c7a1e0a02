/*
 * Kernels of the "memory, cache, utilities, registers" rows of api_cxx.txt, written in C++ against
 * aclsim's kernel_operator.h; tests/ascendc/test_util_api.py runs each on one block of the tiny chip and
 * checks its output against NumPy.
 */
#include "kernel_operator.h"
using namespace AscendC;

/* y: 16 int32 (register readings, CeilDivision) */
extern "C" __global__ __aicore__ void util_regs(GM_ADDR y)
{
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)y, 16);
    g.SetValue(0, static_cast<int32_t>(GetCtrlSpr<48, 48>()));
    SetSaturationFlag<SaturationMode::FLOAT>(true);
    g.SetValue(1, GetSaturationFlag<SaturationMode::FLOAT>() ? 1 : 0);
    g.SetValue(2, static_cast<int32_t>(GetCtrlSpr<48, 48>()));
    SetCtrlSpr<48, 48>(1);
    g.SetValue(3, GetSaturationFlag<SaturationMode::FLOAT>() ? 1 : 0);
    g.SetValue(4, CeilDivision(33, 16));
    g.SetValue(5, CeilDivision(5, 0));
}

/* src: 32 int32 ([4, 8]); scale: 8 floats; y: 128 floats (tensor scale; the scalar 0.5; the tensor scale
   with a shared temporary buffer on 6 of 8 columns; the older count form on 8 elements) */
extern "C" __global__ __aicore__ void util_dequant(GM_ADDR src, GM_ADDR scale, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> sBuf, cBuf, dBuf, tBuf;
    pipe.InitBuffer(sBuf, 32 * sizeof(int32_t));
    pipe.InitBuffer(cBuf, 8 * sizeof(float));
    pipe.InitBuffer(dBuf, 128 * sizeof(float));
    pipe.InitBuffer(tBuf, 4096);
    GlobalTensor<int32_t> gs;
    GlobalTensor<float> gc, gy;
    gs.SetGlobalBuffer((__gm__ int32_t*)src, 32);
    gc.SetGlobalBuffer((__gm__ float*)scale, 8);
    gy.SetGlobalBuffer((__gm__ float*)y, 128);
    LocalTensor<int32_t> s = sBuf.Get<int32_t>();
    LocalTensor<float> c = cBuf.Get<float>();
    LocalTensor<float> d = dBuf.Get<float>();
    LocalTensor<uint8_t> tmp = tBuf.Get<uint8_t>();
    DataCopy(s, gs, 32);
    DataCopy(c, gc, 8);
    Duplicate(d, -1.0f, 128);
    TQueSync<PIPE_MTE2, PIPE_V> in;
    in.SetFlag(0);
    in.WaitFlag(0);
    AscendDequant(d, s, c, DequantParams{4, 8, 8});
    AscendDequant(d[32], s, 0.5f, DequantParams{4, 8, 8});
    AscendDequant(d[64], s, c, tmp, DequantParams{4, 8, 6});
    AscendDequant(d[96], s, c, 8u);
    TQueSync<PIPE_V, PIPE_MTE3> out;
    out.SetFlag(0);
    out.WaitFlag(0);
    DataCopy(gy, d, 128);
}

/* a, b: 64 halves; y: 192 floats (1 + a * b by count; 2 + a * b on the first 32 by mask, 2 after; 3 + a * b
   where the bit mask's bits are set, 3 elsewhere) */
extern "C" __global__ __aicore__ void util_mul_add_dst(GM_ADDR a, GM_ADDR b, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> aBuf, bBuf, dBuf;
    pipe.InitBuffer(aBuf, 64 * sizeof(half));
    pipe.InitBuffer(bBuf, 64 * sizeof(half));
    pipe.InitBuffer(dBuf, 192 * sizeof(float));
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gy;
    ga.SetGlobalBuffer((__gm__ half*)a, 64);
    gb.SetGlobalBuffer((__gm__ half*)b, 64);
    gy.SetGlobalBuffer((__gm__ float*)y, 192);
    LocalTensor<half> la = aBuf.Get<half>();
    LocalTensor<half> lb = bBuf.Get<half>();
    LocalTensor<float> d = dBuf.Get<float>();
    DataCopy(la, ga, 64);
    DataCopy(lb, gb, 64);
    Duplicate(d, 1.0f, 64);
    Duplicate(d[64], 2.0f, 64);
    Duplicate(d[128], 3.0f, 64);
    TQueSync<PIPE_MTE2, PIPE_V> in;
    in.SetFlag(0);
    in.WaitFlag(0);
    MulAddDst(d, la, lb, 64);
    BinaryRepeatParams rep(1, 1, 1, 8, 4, 4);
    MulAddDst(d[64], la, lb, 32, 1, rep);
    uint64_t bits[2] = {0xF0F0F0F00000FFFFull, 0};
    MulAddDst(d[128], la, lb, bits, 1, rep);
    TQueSync<PIPE_V, PIPE_MTE3> out;
    out.SetFlag(0);
    out.WaitFlag(0);
    DataCopy(gy, d, 192);
}

/* x: 256 halves ([16, 16], also [1, 16, 4, 4] NCHW); y: 512 halves: x transposed, then x as NHWC */
extern "C" __global__ __aicore__ void util_transpose(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, yBuf, tmpBuf;
    pipe.InitBuffer(xBuf, 256 * sizeof(half));
    pipe.InitBuffer(yBuf, 512 * sizeof(half));
    pipe.InitBuffer(tmpBuf, (16 + 2) * 16 * 16 * sizeof(half));  // (c + 2) * 16 * 16 elements
    GlobalTensor<half> gx, gy;
    gx.SetGlobalBuffer((__gm__ half*)x, 256);
    gy.SetGlobalBuffer((__gm__ half*)y, 512);
    LocalTensor<half> lx = xBuf.Get<half>();
    LocalTensor<half> ly = yBuf.Get<half>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    DataCopy(lx, gx, 256);
    TQueSync<PIPE_MTE2, PIPE_V> in;
    in.SetFlag(0);
    in.WaitFlag(0);
    Transpose(ly, lx);
    TransposeParamsExt params{1, 16, 4, 4, TransposeType::TRANSPOSE_NCHW2NHWC};
    Transpose(ly[256], lx, tmp, params);
    TQueSync<PIPE_V, PIPE_MTE3> out;
    out.SetFlag(0);
    out.WaitFlag(0);
    DataCopy(gy, ly, 512);
}

/* x: 64 floats; y: 8 floats (the ReduceSum register through both names) */
extern "C" __global__ __aicore__ void util_repeat_sum(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, aBuf, wBuf;
    pipe.InitBuffer(xBuf, 64 * sizeof(float));
    pipe.InitBuffer(aBuf, 8 * sizeof(float));
    pipe.InitBuffer(wBuf, 64 * sizeof(float));
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float*)x, 64);
    gy.SetGlobalBuffer((__gm__ float*)y, 8);
    LocalTensor<float> lx = xBuf.Get<float>();
    LocalTensor<float> acc = aBuf.Get<float>();
    LocalTensor<float> work = wBuf.Get<float>();
    DataCopy(lx, gx, 64);
    TQueSync<PIPE_MTE2, PIPE_V> in;
    in.SetFlag(0);
    in.WaitFlag(0);
    ReduceSum(acc, lx, work, 64);
    TQueSync<PIPE_V, PIPE_S> vs;
    vs.SetFlag(0);
    vs.WaitFlag(0);
    gy.SetValue(0, GetReduceRepeatSumSpr<float>());
    gy.SetValue(1, GetAccVal<float>());
}

/* y: 16 int32: PopStackBuffer's result and size, the chip's TOTAL_*_SIZE, 8 values written through the
   popped tensor */
extern "C" __global__ __aicore__ void util_pop(GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> used;
    pipe.InitBuffer(used, 1000);
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)y, 16);
    LocalTensor<int32_t> t;
    const bool ok = PopStackBuffer<int32_t, TPosition::VECCALC>(t);
    Duplicate(t, 7, 64);
    TQueSync<PIPE_V, PIPE_MTE3> out;
    out.SetFlag(0);
    out.WaitFlag(0);
    DataCopy(g[8], t, 8);
    g.SetValue(0, ok ? 1 : 0);
    g.SetValue(1, static_cast<int32_t>(t.GetSize()));
    g.SetValue(2, static_cast<int32_t>(TOTAL_UB_SIZE));
    g.SetValue(3, static_cast<int32_t>(AscendC::TOTAL_VEC_LOCAL_SIZE));
    g.SetValue(4, static_cast<int32_t>(TOTAL_L1_SIZE / 1024));
    uint32_t l0 = TOTAL_L0A_SIZE;
    g.SetValue(5, static_cast<int32_t>(l0));
    g.SetValue(6, static_cast<int32_t>(TOTAL_L0B_SIZE));
    g.SetValue(7, static_cast<int32_t>(TOTAL_L0C_SIZE));
}

extern "C" __global__ __aicore__ void util_trap(GM_ADDR y)
{
    (void)y;
    Trap();  // TRAP-LINE
}

/* x: 128 floats; yi: 8 int32 (AscendCUtils's numbers, CTRL[48] after SetOverflow(0)); yf: 192 floats
   (x + x under masks set through AscendCUtils: 16 by bits, 24 by length, 40 in counter mode) */
extern "C" __global__ __aicore__ void util_ascendc_utils(GM_ADDR x, GM_ADDR yi, GM_ADDR yf)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, dBuf;
    pipe.InitBuffer(xBuf, 128 * sizeof(float));
    pipe.InitBuffer(dBuf, 192 * sizeof(float));
    GlobalTensor<float> gx, gy;
    GlobalTensor<int32_t> gi;
    gx.SetGlobalBuffer((__gm__ float*)x, 128);
    gy.SetGlobalBuffer((__gm__ float*)yf, 192);
    gi.SetGlobalBuffer((__gm__ int32_t*)yi, 8);
    gi.SetValue(0, AscendCUtils::GetBitSize(2));
    gi.SetValue(1, AscendCUtils::GetC0Size());
    gi.SetValue(2, AscendCUtils::GetC0Count(2));
    gi.SetValue(3, AscendCUtils::GetDefaultBlockNum());
    AscendCUtils::SetOverflow(0);
    gi.SetValue(4, static_cast<int32_t>(GetCtrlSpr<48, 48>()));
    AscendCUtils::SetOverflow(1);
    LocalTensor<float> lx = xBuf.Get<float>();
    LocalTensor<float> d = dBuf.Get<float>();
    DataCopy(lx, gx, 128);
    Duplicate(d, 0.0f, 192);
    TQueSync<PIPE_MTE2, PIPE_V> in;
    in.SetFlag(0);
    in.WaitFlag(0);
    BinaryRepeatParams rep;
    AscendCUtils::SetMask<float>(0, 0xFFFF);
    Add<float, false>(d, lx, lx, 64, 1, rep);
    AscendCUtils::SetMask<float>(24);
    Add<float, false>(d[64], lx, lx, 64, 1, rep);
    AscendCUtils::SetMaskCount<float>();
    AscendCUtils::SetMask<float>(0, 40);
    Add<float, false>(d[128], lx, lx, 64, 1, rep);
    AscendCUtils::SetMaskNorm<float>();
    AscendCUtils::ResetMask();
    TQueSync<PIPE_V, PIPE_MTE3> out;
    out.SetFlag(0);
    out.WaitFlag(0);
    DataCopy(gy, d, 192);
}

/* x: 64 int32; y: 64 int32: cache maintenance, the DCache-bypassing scalar accesses, the system cycle,
   the block size, LocalMemAllocator's tensors and addresses */
extern "C" __global__ __aicore__ void util_memory(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<int32_t> gx, gy;
    gx.SetGlobalBuffer((__gm__ int32_t*)x, 64);
    gy.SetGlobalBuffer((__gm__ int32_t*)y, 64);
    OOMCheckAddrRange((__gm__ int32_t*)x, 64 * sizeof(int32_t));
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(gx);
    DataCacheCleanAndInvalid<int32_t, CacheLine::ENTIRE_DATA_CACHE>(gx);
    const int32_t v = ReadGmByPassDCache((__gm__ int32_t*)x + 3);
    WriteGmByPassDCache((__gm__ int32_t*)y, v * 2);
    gy.SetValue(1, GetDataBlockSizeInBytes());
    const int64_t c0 = GetSystemCycle();
    const int64_t c1 = GetSystemCycle();
    gy.SetValue(2, c1 >= c0 && c0 > 0 ? 1 : 0);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<int32_t> a = ub.Alloc<TPosition::VECIN, int32_t, 64>();
    gy.SetValue(3, static_cast<int32_t>(ub.GetCurAddr()));
    LocalTensor<int32_t> b = ub.Alloc<int32_t>(32);
    gy.SetValue(4, static_cast<int32_t>(ub.GetCurAddr()));
    LocalTensor<int32_t> c = ub.Alloc<int32_t, 8>();
    gy.SetValue(5, static_cast<int32_t>(ub.GetCurAddr()));
    LocalTensor<int32_t> e = ub.Alloc<TPosition::VECCALC, int32_t>(8);
    gy.SetValue(6, static_cast<int32_t>(ub.GetCurAddr()));
    gy.SetValue(7, static_cast<int32_t>(c.GetSize() + e.GetSize()));
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_UB>(c);
    DataCopy(a, gx, 64);
    TQueSync<PIPE_MTE2, PIPE_V> in;
    in.SetFlag(0);
    in.WaitFlag(0);
    Adds(b, a, 5, 32);
    TQueSync<PIPE_V, PIPE_MTE3> out;
    out.SetFlag(0);
    out.WaitFlag(0);
    DataCopy(gy[8], b, 32);
}

/* list: a ListTensorDesc of tensors; y: 16 int32 read through it */
extern "C" __global__ __aicore__ void util_list(GM_ADDR list, GM_ADDR y)
{
    GlobalTensor<int32_t> gy;
    gy.SetGlobalBuffer((__gm__ int32_t*)y, 16);
    ListTensorDesc l;
    l.Init(list);
    gy.SetValue(0, static_cast<int32_t>(l.GetSize()));
    TensorDesc<float> d;
    uint64_t shape[8] = {0};
    d.SetShapeAddr(shape);
    l.GetDesc(d, 1);
    gy.SetValue(1, static_cast<int32_t>(d.GetDim()));
    gy.SetValue(2, static_cast<int32_t>(d.GetIndex()));
    gy.SetValue(3, static_cast<int32_t>(shape[0]));
    gy.SetValue(4, static_cast<int32_t>(shape[1]));
    gy.SetValue(5, static_cast<int32_t>(d.GetShape(1)));
    __gm__ float* p = l.GetDataPtr<float>(1);
    GlobalTensor<float> g;
    g.SetGlobalBuffer(p, 4);
    gy.SetValue(6, static_cast<int32_t>(g.GetValue(2)));
    gy.SetValue(7, d.GetDataPtr() == p ? 1 : 0);
    gy.SetValue(8, static_cast<int32_t>(shape[2]));
}

/* x: 64 floats; y: 64 floats (x + 1 through tensors placed at UB addresses) */
extern "C" __global__ __aicore__ void util_placed(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float*)x, 64);
    gy.SetGlobalBuffer((__gm__ float*)y, 64);
    LocalTensor<float> a(TPosition::VECIN, 0, 64);
    LocalTensor<float> b(TPosition::VECOUT, 512, 64);
    DataCopy(a, gx, 64);
    TQueSync<PIPE_MTE2, PIPE_V> in;
    in.SetFlag(0);
    in.WaitFlag(0);
    Adds(b, a, 1.0f, 64);
    TQueSync<PIPE_V, PIPE_MTE3> out;
    out.SetFlag(0);
    out.WaitFlag(0);
    DataCopy(gy, b, 64);
}

extern "C" __global__ __aicore__ void util_placed_misaligned(GM_ADDR y)
{
    (void)y;
    LocalTensor<float> a(TPosition::VECCALC, 100, 8);  // MISALIGNED-LINE
}

/* y: 16 int32: Crd2Idx through layouts, flat and nested */
extern "C" __global__ __aicore__ void util_layout(GM_ADDR y)
{
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)y, 16);
    auto lay = MakeLayout(MakeShape(4, 2), MakeStride(4, 1));
    g.SetValue(0, static_cast<int32_t>(lay(MakeCoord(3, 1))));
    g.SetValue(1, static_cast<int32_t>(lay(5)));
    g.SetValue(2, static_cast<int32_t>(Crd2Idx(MakeCoord(1, 2, 3), MakeShape(3, 4, 5), MakeStride(20, 5, 1))));
    auto nested = MakeLayout(MakeShape(MakeShape(2, 4), MakeShape(3, 5)),
                             MakeStride(MakeStride(3, 6), MakeStride(1, 24)));
    g.SetValue(3, static_cast<int32_t>(Crd2Idx(MakeCoord(11, 12), nested)));
    g.SetValue(4, static_cast<int32_t>(Crd2Idx(MakeCoord(MakeCoord(1, 2), 7), nested)));
    g.SetValue(5, is_layout<decltype(lay)>::value && !is_layout<int>::value ? 1 : 0);
    g.SetValue(6, Std::get<0>(lay.GetShape()) * 10 + Std::get<1>(lay.GetStride()));
}

/* x: 64 floats (the L2 cache hint set on it); y: 8 int32: a placed tensor's address and position */
extern "C" __global__ __aicore__ void util_place_query(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<float> gx;
    gx.SetGlobalBuffer((__gm__ float*)x, 64);
    gx.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);
    gx.SetL2CacheHint<CacheRwMode::READ>(CacheMode::CACHE_MODE_NORMAL);
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)y, 8);
    LocalTensor<float> t(TPosition::VECOUT, 1024, 64);
    g.SetValue(0, static_cast<int32_t>(t.GetPhyAddr()));
    g.SetValue(1, static_cast<int32_t>(t.GetPhyAddr(3)));
    g.SetValue(2, static_cast<int32_t>(t[8].GetPhyAddr()));
    g.SetValue(3, t.GetPosition() == TPosition::VECOUT ? 1 : 0);
    g.SetValue(4, DEFAULT_C0_SIZE);
}

/* y: 16 int32: the queues' state through two allocations of a depth-2 queue of two buffers */
extern "C" __global__ __aicore__ void util_queue_state(GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> b;
    pipe.InitBuffer(q, 2, 256);
    pipe.InitBuffer(b, 1, 256);
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)y, 16);
    g.SetValue(0, q.GetTensorCountInQue());
    g.SetValue(1, q.HasIdleBuffer() ? 1 : 0);
    LocalTensor<float> t0 = q.AllocTensor<float>();
    q.EnQue(t0);
    g.SetValue(2, q.GetTensorCountInQue());
    g.SetValue(3, q.HasIdleBuffer() ? 1 : 0);
    LocalTensor<float> t1 = q.AllocTensor<float>();
    q.EnQue(t1);
    g.SetValue(4, q.GetTensorCountInQue());
    g.SetValue(5, q.HasIdleBuffer() ? 1 : 0);
    q.FreeTensor(q.DeQue<float>());
    q.FreeTensor(q.DeQue<float>());
    g.SetValue(6, b.VacantInQue() ? 1 : 0);
    LocalTensor<float> u = b.AllocTensor<float>();
    b.EnQue(u);
    g.SetValue(7, b.HasTensorInQue() ? 1 : 0);
    g.SetValue(8, b.GetTensorCountInQue());
    g.SetValue(9, b.HasIdleBuffer() ? 1 : 0);
    g.SetValue(10, b.VacantInQue() ? 1 : 0);
    b.FreeTensor(b.DeQue<float>());
    b.FreeAllEvent();
    q.FreeAllEvent();
}
