/*
 * The vector API's overload families in C++, one kernel per family (one block each, small tiles):
 * the count form, the mask/repeat form with a mask count, the form with two mask words
 * (uint64_t mask[]) and the mask register read through MASK_PLACEHOLDER (isSetMask = false);
 * Compare/CompareScalar/Select, Cast, the int16 bitwise and shift instructions, DataCopyPad,
 * the CCE flag intrinsics (set_flag/wait_flag with event_t, GetTPipePtr()->FetchEventID) and
 * the scalar helpers.  tests/ascendc/test_vec_forms.py checks every output against NumPy.
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t N = 128;  // float: two repeats of 64 elements
constexpr int32_t SEGS = 12;

/* V -> MTE3 through the CCE intrinsics with an event id the pipe hands out */
__aicore__ inline void VectorDoneForMte3()
{
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
    set_flag(PIPE_V, PIPE_MTE3, e);
    wait_flag(PIPE_V, PIPE_MTE3, e);
}

extern "C" __global__ __aicore__ void vec_float_forms(GM_ADDR x, GM_ADDR y, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, (2 + SEGS) * N * sizeof(float));
    GlobalTensor<float> gx, gy, go;
    gx.SetGlobalBuffer((__gm__ float*)x, N);
    gy.SetGlobalBuffer((__gm__ float*)y, N);
    go.SetGlobalBuffer((__gm__ float*)out, SEGS * N);
    LocalTensor<float> all = buf.Get<float>();
    LocalTensor<float> a = all[0];
    LocalTensor<float> b = all[N];
    LocalTensor<float> o = all[2 * N];
    DataCopy(a, gx, N);
    DataCopy(b, gy, N);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    Duplicate(o, 0.0f, SEGS * N);
    pipe_barrier(PIPE_V);

    uint64_t words[2] = {0x00000000FFFF0000ull, 0};  // elements 16..31 of each repeat
    BinaryRepeatParams bp;
    UnaryRepeatParams up;
    Sub(o[0], a, b, N);
    Mul(o[N], a, b, 32, 2, bp);
    Max(o[2 * N], a, b, words, 2, bp);
    SetVectorMask<float>(0, 0xF0F0F0F0F0F0F0F0ull);
    Add<float, false>(o[3 * N], a, b, MASK_PLACEHOLDER, 2, bp);
    ResetMask();
    Abs(o[4 * N], a, 48, 2, up);
    Relu(o[5 * N], a, words, 2, up);
    Adds(o[6 * N], a, 1.5f, 40, 2, up);
    Muls(o[7 * N], a, 2.0f, words, 2, up);
    Duplicate(o[8 * N], 7.0f, 8, 2, 1, 8);
    Axpy(o[9 * N], a, 0.5f, N);
    SetMaskCount();  // counter mode: the register holds an element count
    SetVectorMask<float, MaskMode::COUNTER>(0, 100);
    Adds<float, false>(o[10 * N], a, 1.0f, MASK_PLACEHOLDER, 1, up);
    SetMaskNorm();
    ResetMask();
    Min<float, false>(o[11 * N], a, b, MASK_PLACEHOLDER_LIST, 1, bp);  // the reset register: all 64
    VectorDoneForMte3();
    DataCopy(go, o, SEGS * N);
}

/* bits: 4 x 16 bytes (Compare mask form, CompareScalar count form, Compare mask words,
   CompareScalar mask form); h: Cast float -> half (mask form); i: Cast float -> int32 (count form,
   round half away); sel: 3 x 128 floats (Select tensor/tensor count form, tensor/scalar mask form,
   tensor/tensor mask words) */
extern "C" __global__ __aicore__ void vec_cmp_cast(GM_ADDR x, GM_ADDR y, GM_ADDR bits, GM_ADDR h, GM_ADDR i,
                                                   GM_ADDR sel)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> fbuf, bbuf, hbuf, ibuf;
    pipe.InitBuffer(fbuf, 5 * N * sizeof(float));
    pipe.InitBuffer(bbuf, 4 * 32);
    pipe.InitBuffer(hbuf, N * sizeof(half));
    pipe.InitBuffer(ibuf, N * sizeof(int32_t));
    GlobalTensor<float> gx, gy, gsel;
    GlobalTensor<uint8_t> gbits;
    GlobalTensor<half> gh;
    GlobalTensor<int32_t> gi;
    gx.SetGlobalBuffer((__gm__ float*)x, N);
    gy.SetGlobalBuffer((__gm__ float*)y, N);
    gsel.SetGlobalBuffer((__gm__ float*)sel, 3 * N);
    gbits.SetGlobalBuffer((__gm__ uint8_t*)bits, 4 * 32);
    gh.SetGlobalBuffer((__gm__ half*)h, N);
    gi.SetGlobalBuffer((__gm__ int32_t*)i, N);
    LocalTensor<float> f = fbuf.Get<float>();
    LocalTensor<float> a = f[0];
    LocalTensor<float> b = f[N];
    LocalTensor<float> s = f[2 * N];
    LocalTensor<uint8_t> m = bbuf.Get<uint8_t>();
    LocalTensor<half> lh = hbuf.Get<half>();
    LocalTensor<int32_t> li = ibuf.Get<int32_t>();
    DataCopy(a, gx, N);
    DataCopy(b, gy, N);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    Duplicate(s, 0.0f, 3 * N);
    Duplicate(m.ReinterpretCast<uint16_t>(), static_cast<uint16_t>(0), 4 * 16);
    pipe_barrier(PIPE_V);

    BinaryRepeatParams bp;
    UnaryRepeatParams up;
    uint64_t low16[2] = {0xFFFFull, 0};
    Compare(m[0], a, b, CMPMODE::LT, 64, 2, bp);
    CompareScalar(m[32], a, 0.0f, CMPMODE::GT, N);
    Compare(m[64], a, b, CMPMODE::GE, low16, 2, bp);
    CompareScalar(m[96], a, 0.25f, CMPMODE::LE, 64, 2, up);
    pipe_barrier(PIPE_V);
    Select(s[0], m[0], a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, N);
    Select(s[N], m[32], a, -1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64, 2, bp);
    Select(s[2 * N], m[64], a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, low16, 2, bp);
    Cast(lh, a, RoundMode::CAST_NONE, 64, 2, UnaryRepeatParams(1, 1, 4, 8));
    Cast(li, a, RoundMode::CAST_ROUND, N);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(gbits, m, 4 * 32);
    DataCopy(gsel, s, 3 * N);
    DataCopy(gh, lh, N);
    DataCopy(gi, li, N);
}

constexpr int32_t M = 256;  // int16: two repeats of 128 elements
constexpr int32_t ISEGS = 8;

extern "C" __global__ __aicore__ void vec_int16_forms(GM_ADDR x, GM_ADDR y, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, (2 + ISEGS) * M * sizeof(int16_t));
    GlobalTensor<int16_t> gx, gy, go;
    gx.SetGlobalBuffer((__gm__ int16_t*)x, M);
    gy.SetGlobalBuffer((__gm__ int16_t*)y, M);
    go.SetGlobalBuffer((__gm__ int16_t*)out, ISEGS * M);
    LocalTensor<int16_t> all = buf.Get<int16_t>();
    LocalTensor<int16_t> a = all[0];
    LocalTensor<int16_t> b = all[M];
    LocalTensor<int16_t> o = all[2 * M];
    DataCopy(a, gx, M);
    DataCopy(b, gy, M);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    Duplicate(o, static_cast<int16_t>(0), ISEGS * M);
    PipeBarrier<PIPE_V>();

    uint64_t words[2] = {0x00FF00FF00FF00FFull, 0xFFFF000000000000ull};
    BinaryRepeatParams bp;
    UnaryRepeatParams up;
    And(o[0], a, b, 64, 2, bp);
    Or(o[M], a, b, words, 2, bp);
    Not(o[2 * M], a, 100, 2, up);
    ShiftLeft(o[3 * M], a, static_cast<int16_t>(3), M);
    ShiftRight(o[4 * M], a, static_cast<int16_t>(2), 128, 2, up);
    ShiftRight(o[5 * M], a, static_cast<int16_t>(4), words, 2, up, true);
    CreateVecIndex(o[6 * M], static_cast<int16_t>(5), M);
    Duplicate(o[7 * M], static_cast<int16_t>(-3), words, 2, 1, 8);
    PipeBarrier<PIPE_V>();
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(go, o, ISEGS * M);
}

/* DataCopyPad both ways: 2 blocks of 5 floats padded on the right to 8 with -1 (DataCopyExtParams,
   DataCopyPadExtParams<float>), written back 7 floats a block 4 bytes apart; then 3 floats with the
   older DataCopyParams/DataCopyPadParams (the pad given as float 2.0's bits), written back whole */
extern "C" __global__ __aicore__ void vec_pad_copy(GM_ADDR x, GM_ADDR out, GM_ADDR out2)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32 * sizeof(float));
    GlobalTensor<float> gx, go, go2;
    gx.SetGlobalBuffer((__gm__ float*)x, 16);
    go.SetGlobalBuffer((__gm__ float*)out, 16);
    go2.SetGlobalBuffer((__gm__ float*)out2, 8);
    LocalTensor<float> t = buf.Get<float>();
    DataCopyPad(t, gx, DataCopyExtParams(2, 5 * sizeof(float), 0, 0, 0), DataCopyPadExtParams<float>(true, 0, 3, -1.0f));
    DataCopyPad(t[16], gx[10], DataCopyParams(1, 3 * sizeof(float), 0, 0),
                DataCopyPadParams(true, 0, 5, 0x40000000ull));
    SetFlag<HardEvent::MTE2_MTE3>(0);
    WaitFlag<HardEvent::MTE2_MTE3>(0);
    DataCopyPad(go, t, DataCopyExtParams(2, 7 * sizeof(float), 0, 4, 0));
    DataCopyPad(go2, t[16], DataCopyParams(1, 8 * sizeof(float), 0, 0));
}

/* scalar helpers: int32 results in out, float results in fout */
extern "C" __global__ __aicore__ void vec_scalars(GM_ADDR out, GM_ADDR fout)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    GlobalTensor<int32_t> go;
    GlobalTensor<float> gf;
    go.SetGlobalBuffer((__gm__ int32_t*)out, 8);
    gf.SetGlobalBuffer((__gm__ float*)fout, 8);
    LocalTensor<float> t = buf.Get<float>();
    bfloat16_t bf = ToBfloat16(1.0f + 1.0f / 256.0f + 1.0f / 65536.0f);
    go.SetValue(0, static_cast<int32_t>(t[64].GetPhyAddr() - t.GetPhyAddr()));
    go.SetValue(1, static_cast<int32_t>(t.GetPosition()));
    go.SetValue(2, GetDataBlockSizeInBytes());
    go.SetValue(3, static_cast<int32_t>(bf.bits_));
    gf.SetValue(0, ToFloat(bf));
    LocalTensor<uint64_t> u = buf.Get<uint64_t>()[64];  // a uint64 value with the top bit set, there and back
    u.SetValue(0, 0xF000000000000001ull);
    const uint64_t back = u.GetValue(0);
    go.SetValue(4, static_cast<int32_t>(back & 0xFFFFFFFFu));
    go.SetValue(5, static_cast<int32_t>(back >> 32));
    LocalTensor<bfloat16_t> w = buf.Get<bfloat16_t>()[256];  // a bfloat16 value there and back
    w.SetValue(0, bfloat16_t(-2.5f));
    gf.SetValue(1, static_cast<float>(w.GetValue(0)));
}

/* DataCopy with DataCopyEnhancedParams (the plain copy off the coupled chip's L0C path) GM -> UB with
   a source gap, UB -> UB and UB -> GM; the input read around the L2 cache (SetL2CacheHint) */
extern "C" __global__ __aicore__ void vec_copy_forms(GM_ADDR x, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32 * sizeof(float));
    GlobalTensor<float> gx, go;
    gx.SetGlobalBuffer((__gm__ float*)x, 32);
    go.SetGlobalBuffer((__gm__ float*)out, 16);
    gx.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);
    LocalTensor<float> t = buf.Get<float>();
    DataCopyEnhancedParams enhanced;
    DataCopy(t, gx, DataCopyParams(2, 1, 1, 0), enhanced);
    PipeBarrier<PIPE_ALL>();
    DataCopy(t[16], t, DataCopyParams(1, 2, 0, 0), enhanced);
    PipeBarrier<PIPE_ALL>();
    DataCopy(go, t[16], DataCopyParams(1, 2, 0, 0), enhanced);
}

/* the scalar bit helpers, new and older names, on the values of the Ascend C docs' examples */
extern "C" __global__ __aicore__ void vec_scalar_bits(GM_ADDR out)
{
    GlobalTensor<int64_t> go;
    go.SetGlobalBuffer((__gm__ int64_t*)out, 12);
    const uint64_t v = 0x0100000000000020ull;
    go.SetValue(0, GetBitCount<1>(0xFFFFull));
    go.SetValue(1, ScalarGetCountOfValue<0>(0xFFFFull));
    go.SetValue(2, CountLeadingZero(v));
    go.SetValue(3, ScalarCountLeadingZero(0));
    go.SetValue(4, CountBitsCntSameAsSignBit(static_cast<int64_t>(v)));
    go.SetValue(5, CountBitsCntSameAsSignBit(-1));
    go.SetValue(6, CountBitsCntSameAsSignBit(-2));
    go.SetValue(7, GetSFFValue<1>(v));
    go.SetValue(8, ScalarGetSFFValue<0>(0xFFFFFFFFFFFFFFFFull));
    go.SetValue(9, GetSFFValue<0>(0x7ull));
    go.SetValue(10, CountLeadingZero(0xFFFFFFFFFFFFFFFFull));
    go.SetValue(11, GetBitCount<1>(0x8000000000000001ull));
}

/* a pipe pair no HardEvent joins: the launch fails naming the pair and this line */
extern "C" __global__ __aicore__ void vec_bad_flag(GM_ADDR out)
{
    set_flag(PIPE_S, PIPE_S, EVENT_ID0);
}

/* every remaining float overload of the mask forms, one segment of 128 each: the binary ones
   (mask count 40, then the mask words), the unary ones (on p > 0), the scalar ones, Axpy,
   CreateVecIndex, Cast float -> float (CAST_FLOOR) with mask words and with the register set by
   SetVectorMask<float>(len) */
constexpr int32_t ALL_SEGS = 44;

extern "C" __global__ __aicore__ void vec_all_forms(GM_ADDR x, GM_ADDR y, GM_ADDR pos, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, (3 + ALL_SEGS) * N * sizeof(float));
    GlobalTensor<float> gx, gy, gp, go;
    gx.SetGlobalBuffer((__gm__ float*)x, N);
    gy.SetGlobalBuffer((__gm__ float*)y, N);
    gp.SetGlobalBuffer((__gm__ float*)pos, N);
    go.SetGlobalBuffer((__gm__ float*)out, ALL_SEGS * N);
    LocalTensor<float> all = buf.Get<float>();
    LocalTensor<float> a = all[0];
    LocalTensor<float> b = all[N];
    LocalTensor<float> p = all[2 * N];
    LocalTensor<float> o = all[3 * N];
    DataCopy(a, gx, N);
    DataCopy(b, gy, N);
    DataCopy(p, gp, N);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    Duplicate(o, 0.0f, ALL_SEGS * N);
    PipeBarrier<PIPE_V>();

    uint64_t words[2] = {0xFF00FF00F0F0F0F0ull, 0};
    BinaryRepeatParams bp;
    UnaryRepeatParams up;
    int32_t k = 0;
#define ACLSIM_BIN(OP)                                                                              \
    OP(o[(k++) * N], a, b, 40, 2, bp);                                                              \
    OP(o[(k++) * N], a, b, words, 2, bp);
    ACLSIM_BIN(Add)
    ACLSIM_BIN(Sub)
    ACLSIM_BIN(Mul)
    ACLSIM_BIN(Div)
    ACLSIM_BIN(Max)
    ACLSIM_BIN(Min)
#define ACLSIM_UN(OP, SRC)                                                                          \
    OP(o[(k++) * N], SRC, 40, 2, up);                                                               \
    OP(o[(k++) * N], SRC, words, 2, up);
    ACLSIM_UN(Exp, a)
    ACLSIM_UN(Ln, p)
    ACLSIM_UN(Abs, a)
    ACLSIM_UN(Sqrt, p)
    ACLSIM_UN(Rsqrt, p)
    ACLSIM_UN(Reciprocal, p)
    ACLSIM_UN(Relu, a)
#define ACLSIM_SC(OP, S)                                                                            \
    OP(o[(k++) * N], a, S, 40, 2, up);                                                              \
    OP(o[(k++) * N], a, S, words, 2, up);
    ACLSIM_SC(Adds, 1.5f)
    ACLSIM_SC(Muls, -2.0f)
    ACLSIM_SC(Maxs, 0.5f)
    ACLSIM_SC(Mins, 0.5f)
    ACLSIM_SC(LeakyRelu, 0.25f)
    ACLSIM_SC(Axpy, 0.5f)
#undef ACLSIM_BIN
#undef ACLSIM_UN
#undef ACLSIM_SC
    CreateVecIndex(o[(k++) * N], 3.0f, 40, 2, 1, 8);
    CreateVecIndex(o[(k++) * N], 3.0f, words, 2, 1, 8);
    Cast(o[(k++) * N], a, RoundMode::CAST_FLOOR, words, 2, up);
    SetVectorMask<float>(40);
    Cast<float, float, false>(o[(k++) * N], a, RoundMode::CAST_FLOOR, MASK_PLACEHOLDER, 2, up);
    ResetMask();
    ArithProgression(o[(k++) * N], 1.0f, 0.5f, N);
    PipeBarrier<PIPE_V>();
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(go, o, ALL_SEGS * N);
}

/* Compares in its three forms (the mask is reserved: every lane compared), CompareScalar with mask
   words, Select tensor/tensor with a mask count, tensor/scalar with mask words and a count, Cast float -> half
   with mask words */
extern "C" __global__ __aicore__ void vec_cmp_more(GM_ADDR x, GM_ADDR bits, GM_ADDR sel, GM_ADDR h)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> fbuf, bbuf, hbuf;
    pipe.InitBuffer(fbuf, 5 * N * sizeof(float));
    pipe.InitBuffer(bbuf, 4 * 32);
    pipe.InitBuffer(hbuf, N * sizeof(half));
    GlobalTensor<float> gx, gsel;
    GlobalTensor<uint8_t> gbits;
    GlobalTensor<half> gh;
    gx.SetGlobalBuffer((__gm__ float*)x, N);
    gsel.SetGlobalBuffer((__gm__ float*)sel, 3 * N);
    gbits.SetGlobalBuffer((__gm__ uint8_t*)bits, 4 * 32);
    gh.SetGlobalBuffer((__gm__ half*)h, N);
    LocalTensor<float> f = fbuf.Get<float>();
    LocalTensor<float> a = f[0];
    LocalTensor<float> s = f[N];
    LocalTensor<uint8_t> m = bbuf.Get<uint8_t>();
    LocalTensor<half> lh = hbuf.Get<half>();
    DataCopy(a, gx, N);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    Duplicate(f[N], 0.0f, 4 * N);
    Duplicate(m.ReinterpretCast<uint16_t>(), static_cast<uint16_t>(0), 4 * 16);
    Duplicate(lh, static_cast<half>(0.0f), N);
    pipe_barrier(PIPE_V);

    uint64_t words[2] = {0xFF00FF00F0F0F0F0ull, 0};
    BinaryRepeatParams bp;
    UnaryRepeatParams up;
    Compares(m[0], a, 0.0f, CMPMODE::GT, N);
    Compares(m[32], a, 0.5f, CMPMODE::LT, 40, 2, up);
    Compares(m[64], a, 0.5f, CMPMODE::NE, words, 2, up);
    CompareScalar(m[96], a, 0.0f, CMPMODE::GE, words, 2, up);
    pipe_barrier(PIPE_V);
    Select(s[0], m[0], a, f[4 * N], SELMODE::VSEL_TENSOR_TENSOR_MODE, 40, 2, bp);
    Select(s[N], m[0], a, -1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, words, 2, bp);
    Select(s[2 * N], m[32], a, 2.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, N);
    Cast(lh, a, RoundMode::CAST_NONE, words, 2, UnaryRepeatParams(1, 1, 4, 8));
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(gbits, m, 4 * 32);
    DataCopy(gsel, s, 3 * N);
    DataCopy(gh, lh, N);
}

/* the remaining int16 overloads: And with mask words, Or with a mask count, Not with mask words,
   ShiftLeft in both mask forms, Duplicate with a mask count, CreateVecIndex with mask words, ShiftRight's
   count form */
extern "C" __global__ __aicore__ void vec_int16_more(GM_ADDR x, GM_ADDR y, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, (2 + ISEGS) * M * sizeof(int16_t));
    GlobalTensor<int16_t> gx, gy, go;
    gx.SetGlobalBuffer((__gm__ int16_t*)x, M);
    gy.SetGlobalBuffer((__gm__ int16_t*)y, M);
    go.SetGlobalBuffer((__gm__ int16_t*)out, ISEGS * M);
    LocalTensor<int16_t> all = buf.Get<int16_t>();
    LocalTensor<int16_t> a = all[0];
    LocalTensor<int16_t> b = all[M];
    LocalTensor<int16_t> o = all[2 * M];
    DataCopy(a, gx, M);
    DataCopy(b, gy, M);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    Duplicate(o, static_cast<int16_t>(0), ISEGS * M);
    PipeBarrier<PIPE_V>();

    uint64_t words[2] = {0x00FF00FF00FF00FFull, 0xFFFF000000000000ull};
    BinaryRepeatParams bp;
    UnaryRepeatParams up;
    And(o[0], a, b, words, 2, bp);
    Or(o[M], a, b, 64, 2, bp);
    Not(o[2 * M], a, words, 2, up);
    ShiftLeft(o[3 * M], a, static_cast<int16_t>(2), 100, 2, up);
    ShiftLeft(o[4 * M], a, static_cast<int16_t>(5), words, 2, up);
    Duplicate(o[5 * M], static_cast<int16_t>(9), 30, 2, 1, 8);
    CreateVecIndex(o[6 * M], static_cast<int16_t>(-7), words, 2, 1, 8);
    ShiftRight(o[7 * M], a, static_cast<int16_t>(3), M);
    PipeBarrier<PIPE_V>();
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(go, o, ISEGS * M);
}
