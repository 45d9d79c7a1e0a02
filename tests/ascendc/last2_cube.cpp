/* Kernels of test_last2_cube.py: the C++ rows of "Cube loads, fixpipe, int4" (api_cxx.txt). */
#include "kernel_operator.h"
using namespace AscendC;

namespace {
constexpr int32_t C = 16, H = 4, W = 4, COUT = 16, KCOLS = 9 * C, MROWS = H * W;
}

/* a 3 x 3 convolution (pad 1) as img2col @ weights, the Feature Map and pad value set by SetFmatrix and
   SetLoadDataPaddingValue (LoadData<T, {false, false}> reads them), the result leaving L0C by DataCopy with
   DataCopyCO12DstParams (NZ2ND by SetFixpipeNz2ndFlag) */
extern "C" __global__ __aicore__ void last2_conv_regs(GM_ADDR fm, GM_ADDR wt, GM_ADDR out)
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
    DataCopy(a1.Get<half>(), gf, C * H * W);
    DataCopy(b1.Get<half>(), gw, Nd2NzParams(1, COUT, KCOLS, 0, KCOLS, COUT, 1, 0));
    PipeBarrier<PIPE_ALL>();
    const uint8_t pads[4] = {1, 1, 1, 1};
    SetFmatrix(H, W, pads, FmatrixMode::FMATRIX_LEFT);
    SetLoadDataPaddingValue(half(2.0f));
    static constexpr IsResetLoad3dConfig FROM_REGISTERS = {false, false};
    LoadData3DParamsV2<half> p;  // padList and padValue left 0: the registers' values apply
    p.l1H = H;
    p.l1W = W;
    p.channelSize = C;
    p.kExtension = KCOLS;
    p.mExtension = MROWS;
    p.filterW = 3;
    p.filterH = 3;
    LoadData<half, FROM_REGISTERS>(a2.Get<half>(), a1.Get<half>(), p);
    LoadData(b2.Get<half>(), b1.Get<half>(), LoadData2DParams(0, KCOLS / 16, 1, 0, 0, false, 0));
    PipeBarrier<PIPE_ALL>();
    Mmad(co1.Get<float>(), a2.Get<half>(), b2.Get<half>(), MmadParams(MROWS, COUT, KCOLS, 0, false, true));
    PipeBarrier<PIPE_ALL>();
    SetFixpipeNz2ndFlag(1, 0, 0);
    DataCopyCO12DstParams d;
    d.nSize = COUT;
    d.mSize = MROWS;
    d.srcStride = MROWS;
    d.dstStride = COUT;
    d.nz2ndEn = true;
    DataCopy(go, co1.Get<float>(), d);
    PipeBarrier<PIPE_ALL>();
}

/* the same convolution with IS_RESER_LOAD3D_DEFAULT_CONFIG: the load's own padList and padValue */
extern "C" __global__ __aicore__ void last2_conv_default(GM_ADDR fm, GM_ADDR wt, GM_ADDR out)
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
    DataCopy(a1.Get<half>(), gf, C * H * W);
    DataCopy(b1.Get<half>(), gw, Nd2NzParams(1, COUT, KCOLS, 0, KCOLS, COUT, 1, 0));
    PipeBarrier<PIPE_ALL>();
    const uint8_t pads[4] = {0, 0, 0, 0};
    SetFmatrix(1, 1, pads, FmatrixMode::FMATRIX_LEFT);  // overridden: the default config sets the registers
    SetLoadDataPaddingValue(half(5.0f));
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
    p.padValue = 3;
    LoadData<half, IS_RESER_LOAD3D_DEFAULT_CONFIG>(a2.Get<half>(), a1.Get<half>(), p);
    LoadData(b2.Get<half>(), b1.Get<half>(), LoadData2DParams(0, KCOLS / 16, 1, 0, 0, false, 0));
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

/* one 16 x 16 half fractal B through L0B, loaded plainly (out0) and by LoadDataWithTranspose (out1), each
   multiplied by the identity in L0A */
extern "C" __global__ __aicore__ void last2_transpose(GM_ADDR eye, GM_ADDR b, GM_ADDR out0, GM_ADDR out1)
{
    TPipe pipe;
    TBuf<TPosition::A1> a1;
    TBuf<TPosition::B1> b1;
    TBuf<TPosition::A2> a2;
    TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> co1;
    pipe.InitBuffer(a1, 256 * sizeof(half));
    pipe.InitBuffer(b1, 256 * sizeof(half));
    pipe.InitBuffer(a2, 256 * sizeof(half));
    pipe.InitBuffer(b2, 256 * sizeof(half));
    pipe.InitBuffer(co1, 256 * sizeof(float));
    GlobalTensor<half> ge;
    GlobalTensor<half> gb;
    GlobalTensor<float> go[2];
    ge.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(eye));
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
    go[0].SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out0));
    go[1].SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out1));
    DataCopy(a1.Get<half>(), ge, 256);
    DataCopy(b1.Get<half>(), gb, 256);
    PipeBarrier<PIPE_ALL>();
    LoadData(a2.Get<half>(), a1.Get<half>(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
    for (int t = 0; t < 2; ++t) {
        if (t == 0) {
            LoadData(b2.Get<half>(), b1.Get<half>(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
        } else {
            LoadData2dTransposeParams lp;
            lp.repeatTimes = 1;
            lp.srcStride = 1;
            LoadDataWithTranspose(b2.Get<half>(), b1.Get<half>(), lp);
        }
        PipeBarrier<PIPE_ALL>();
        Mmad(co1.Get<float>(), a2.Get<half>(), b2.Get<half>(), MmadParams(16, 16, 16, 0, false, true));
        PipeBarrier<PIPE_ALL>();
        FixpipeParamsV220 f;
        f.nSize = 16;
        f.mSize = 16;
        f.srcStride = 16;
        f.dstStride = 16;
        Fixpipe(go[t], co1.Get<float>(), f);
        PipeBarrier<PIPE_ALL>();
    }
}

/* SetDeqScale(half) before Cast int32 -> half; both SetHF32Mode / SetHF32TransMode forms around a float
   Mmad (A: one 16 x 8 fractal, B: two), the result by DataCopyCO12DstParams in NZ */
extern "C" __global__ __aicore__ void last2_deq_hf32(GM_ADDR xi, GM_ADDR a, GM_ADDR b, GM_ADDR mode, GM_ADDR yh,
                                                     GM_ADDR c)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 64 * sizeof(int32_t) + 64 * sizeof(half));
    GlobalTensor<int32_t> gx;
    GlobalTensor<half> gy;
    GlobalTensor<int32_t> gm;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(xi));
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(yh));
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(mode));
    LocalTensor<int32_t> x = ub.Get<int32_t>();
    LocalTensor<half> y = ub.Get<half>()[128];
    DataCopy(x, gx, 64);
    PipeBarrier<PIPE_ALL>();
    SetDeqScale(half(0.5f));
    Cast(y, x, RoundMode::CAST_NONE, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, y, 64);
    PipeBarrier<PIPE_ALL>();

    TBuf<TPosition::A1> a1;
    TBuf<TPosition::B1> b1;
    TBuf<TPosition::A2> a2;
    TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> co1;
    pipe.InitBuffer(a1, 128 * sizeof(float));
    pipe.InitBuffer(b1, 128 * sizeof(float));
    pipe.InitBuffer(a2, 128 * sizeof(float));
    pipe.InitBuffer(b2, 128 * sizeof(float));
    pipe.InitBuffer(co1, 256 * sizeof(float));
    GlobalTensor<float> ga;
    GlobalTensor<float> gb;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a));
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(b));
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
    DataCopy(a1.Get<float>(), ga, 128);
    DataCopy(b1.Get<float>(), gb, 128);
    PipeBarrier<PIPE_ALL>();
    int32_t m = gm.GetValue(0);  // 0: HF32 off; 1: on, ties to even (bool forms); 2: on, toward zero (enums)
    if (m == 1) {
        SetHF32Mode(true);
        SetHF32TransMode(false);
    } else if (m == 2) {
        SetHF32Mode(HF32Mode::ENABLE);
        SetHF32TransMode(HF32TransMode::NEAREST_ZERO);
    }
    LoadData(a2.Get<float>(), a1.Get<float>(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
    LoadData(b2.Get<float>(), b1.Get<float>(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
    PipeBarrier<PIPE_ALL>();
    Mmad(co1.Get<float>(), a2.Get<float>(), b2.Get<float>(), MmadParams(16, 16, 8, 0, false, true));
    PipeBarrier<PIPE_ALL>();
    SetHF32Mode(false);
    DataCopyCO12DstParams d(16, 16, 32, 16, QuantMode_t::NoQuant, 0, false, false);
    DataCopy(gc, co1.Get<float>(), d);
    PipeBarrier<PIPE_ALL>();
}

/* int4b_t: GM -> UB -> GM by element counts (two elements a byte), and a 32-element slice at element 64 */
extern "C" __global__ __aicore__ void last2_int4_copy(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 256 / 2);
    GlobalTensor<int4b_t> gx;
    GlobalTensor<int4b_t> gy;
    GlobalTensor<int4b_t> gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t*>(x), 256);
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t*>(y), 256);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t*>(z), 64);
    LocalTensor<int4b_t> t = ub.Get<int4b_t>();
    DataCopy(t, gx, 256);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, t, 256);
    DataCopy(gz, t[64], 64);
    PipeBarrier<PIPE_ALL>();
}

/* Fixpipe's older form: I(16 x 16) @ B (16 x 32, two fractals) in L0C leaves by FixpipeParamsV220 (out0), by
   FixpipeParams<float> with NZ2ND (out1), and without it, NZ (out2: two 16 x 16 Z columns, one 32 B block
   apart) */
extern "C" __global__ __aicore__ void last2_fixpipe_old(GM_ADDR eye, GM_ADDR b, GM_ADDR out0, GM_ADDR out1,
                                                        GM_ADDR out2)
{
    TPipe pipe;
    TBuf<TPosition::A1> a1;
    TBuf<TPosition::B1> b1;
    TBuf<TPosition::A2> a2;
    TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> co1;
    pipe.InitBuffer(a1, 256 * sizeof(half));
    pipe.InitBuffer(b1, 512 * sizeof(half));
    pipe.InitBuffer(a2, 256 * sizeof(half));
    pipe.InitBuffer(b2, 512 * sizeof(half));
    pipe.InitBuffer(co1, 512 * sizeof(float));
    GlobalTensor<half> ge;
    GlobalTensor<half> gb;
    GlobalTensor<float> go[3];
    ge.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(eye));
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
    go[0].SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out0));
    go[1].SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out1));
    go[2].SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out2));
    DataCopy(a1.Get<half>(), ge, 256);
    DataCopy(b1.Get<half>(), gb, 512);
    PipeBarrier<PIPE_ALL>();
    LoadData(a2.Get<half>(), a1.Get<half>(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
    LoadData(b2.Get<half>(), b1.Get<half>(), LoadData2DParams(0, 2, 1, 0, 0, false, 0));
    PipeBarrier<PIPE_ALL>();
    Mmad(co1.Get<float>(), a2.Get<half>(), b2.Get<half>(), MmadParams(16, 32, 16, 0, false, true));
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 f;
    f.nSize = 32;
    f.mSize = 16;
    f.srcStride = 16;
    f.dstStride = 32;
    Fixpipe(go[0], co1.Get<float>(), f);
    FixpipeParams<float> nd(2, 16 * 16 * sizeof(float) / 32, 0, 32);
    nd.nz2ndParams = Nz2NdParams(true, 1, 0, 0, 32);
    Fixpipe(go[1], co1.Get<float>(), nd);
    FixpipeParams<float> nz;
    nz.cburstNum = 2;
    nz.burstLen = 16 * 16 * sizeof(float) / 32;
    nz.dstStride = 1;
    nz.quantParams = {QuantMode_t::NoQuant};
    Fixpipe(go[2], co1.Get<float>(), nz);
    PipeBarrier<PIPE_ALL>();
}

/* NZ2ND without originalNSize: refused */
extern "C" __global__ __aicore__ void last2_fixpipe_no_n(GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::CO1> co1;
    pipe.InitBuffer(co1, 256 * sizeof(float));
    GlobalTensor<float> go;
    go.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    FixpipeParams<float> nd(1, 16 * 16 * sizeof(float) / 32, 0, 16);
    nd.nz2ndParams.nz2ndEn = true;
    Fixpipe(go, co1.Get<float>(), nd);  // no originalNSize
}

/* int4b_t on the cube: A (16 x 64) and B (64 x 16), one 512 B fractal each, through L1 and L0A/L0B,
   Mmad s4 x s4 -> s32 */
extern "C" __global__ __aicore__ void last2_int4_mmad(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    TPipe pipe;
    TBuf<TPosition::A1> a1;
    TBuf<TPosition::B1> b1;
    TBuf<TPosition::A2> a2;
    TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> co1;
    pipe.InitBuffer(a1, 1024 / 2);
    pipe.InitBuffer(b1, 1024 / 2);
    pipe.InitBuffer(a2, 1024 / 2);
    pipe.InitBuffer(b2, 1024 / 2);
    pipe.InitBuffer(co1, 256 * sizeof(int32_t));
    GlobalTensor<int4b_t> ga;
    GlobalTensor<int4b_t> gb;
    GlobalTensor<int32_t> gc;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t*>(a));
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t*>(b));
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(c));
    DataCopy(a1.Get<int4b_t>(), ga, 1024);
    DataCopy(b1.Get<int4b_t>(), gb, 1024);
    PipeBarrier<PIPE_ALL>();
    LoadData(a2.Get<int4b_t>(), a1.Get<int4b_t>(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
    LoadData(b2.Get<int4b_t>(), b1.Get<int4b_t>(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
    PipeBarrier<PIPE_ALL>();
    Mmad(co1.Get<int32_t>(), a2.Get<int4b_t>(), b2.Get<int4b_t>(), MmadParams(16, 16, 64, 0, false, true));
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 f;
    f.nSize = 16;
    f.mSize = 16;
    f.srcStride = 16;
    f.dstStride = 16;
    Fixpipe(gc, co1.Get<int32_t>(), f);
    PipeBarrier<PIPE_ALL>();
}
