// Matmul callbacks (MatmulCallBackFunc with C++ functions), IterateBatch's mix-mode forms and WaitIterateBatch,
// and the constant tiling's constexpr fields (tests/ascendc/test_mmcb_matmul.py: NumPy and a Python twin).
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include <stdexcept>
using namespace AscendC;

using AT = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CT = MatmulType<TPosition::GM, CubeFormat::ND, float>;

__aicore__ inline void ReadTiling(TCubeTiling& t, GM_ADDR tilingGm)
{
    const auto* words = reinterpret_cast<__gm__ const int32_t*>(tilingGm);
    auto* mine = reinterpret_cast<int32_t*>(&t);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(int32_t); ++i) {
        mine[i] = words[i];
    }
}

// the callbacks' log in GM (dataPtr): word 0 counts the entries, then 5 words an entry
__aicore__ inline void Log(uint64_t dataPtr, int32_t what, int32_t v0, int32_t v1, int32_t v2, int32_t v3)
{
    GlobalTensor<int32_t> log;
    log.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(dataPtr));
    const int32_t n = log.GetValue(0);
    const int32_t values[5] = {what, v0, v1, v2, v3};
    for (int32_t i = 0; i < 5; ++i) {
        log.SetValue(1 + n * 5 + i, values[i]);
    }
    log.SetValue(0, n + 1);
}

// CopyA1: A's copy block (row, col) ND -> NZ, the offsets from the tiling that SetUserDefInfo gave
__aicore__ inline void CopyA1(const LocalTensor<int8_t>& aMatrix, const __gm__ void* gm, int row, int col, int useM,
                              int useK, const uint64_t tilingPtr, const uint64_t dataPtr)
{
    const TCubeTiling& t = *reinterpret_cast<const TCubeTiling*>(tilingPtr);
    Log(dataPtr, 1, row, col, useM, useK);
    GlobalTensor<half> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(const_cast<__gm__ void*>(gm)));
    const uint16_t rows16 = static_cast<uint16_t>((useM + 15) / 16 * 16);
    Nd2NzParams params(1, useM, useK, 0, t.Ka, rows16, 1, 0);
    DataCopy(aMatrix.ReinterpretCast<half>(), g[row * t.baseM * t.Ka + col * t.stepKa * t.baseK], params);  // A1 copy
}

__aicore__ inline void CopyB1(const LocalTensor<int8_t>& bMatrix, const __gm__ void* gm, int row, int col, int useK,
                              int useN, const uint64_t tilingPtr, const uint64_t dataPtr)
{
    const TCubeTiling& t = *reinterpret_cast<const TCubeTiling*>(tilingPtr);
    Log(dataPtr, 2, row, col, useK, useN);
    GlobalTensor<half> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(const_cast<__gm__ void*>(gm)));
    const uint16_t rows16 = static_cast<uint16_t>((useK + 15) / 16 * 16);
    Nd2NzParams params(1, useK, useN, 0, t.N, rows16, 1, 0);
    DataCopy(bMatrix.ReinterpretCast<half>(), g[row * t.stepKb * t.baseK * t.N + col * t.baseN], params);  // B1 copy
}

// DataCopyOut: the block to GM with ReLU on the way (the library's copy has none)
__aicore__ inline void CopyOutRelu(const __gm__ void* gm, const LocalTensor<int8_t>& co1Local,
                                   const void* dataCopyOutParams, const uint64_t tilingPtr, const uint64_t dataPtr)
{
    const auto& p = *static_cast<const DataCopyOutParams*>(dataCopyOutParams);
    Log(dataPtr, 3, p.curM, p.curN, p.oriNSize, static_cast<int32_t>(p.dstStride));
    GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(const_cast<__gm__ void*>(gm)));
    const uint16_t m = static_cast<uint16_t>(p.burstLen * 32 / (16 * 4));
    FixpipeParamsV220 params;
    params.nSize = p.oriNSize;
    params.mSize = m;
    params.srcStride = m;
    params.dstStride = p.dstStride;
    params.reluEn = true;
    Fixpipe(g, co1Local.ReinterpretCast<float>(), params);  // C out
}

using Callbacks = MatmulCallBackFunc<CopyOutRelu, CopyA1, CopyB1>;

extern "C" __global__ __aicore__ void mm_callbacks(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm, GM_ADDR log)
{
    TPipe pipe;
    TCubeTiling t;
    ReadTiling(t, tilingGm);
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.M * t.Ka);
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.M * t.N);
    Matmul<AT, AT, CT, CT, CFG_NORM, Callbacks> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetUserDefInfo(reinterpret_cast<uint64_t>(&t));
    mm.SetSelfDefineData(reinterpret_cast<uint64_t>(log));
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.IterateAll(gc);  // the Matmul's own instructions
    mm.End();
}

// only CopyB1 (the library copies A and C out)
extern "C" __global__ __aicore__ void mm_copy_b1_only(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm, GM_ADDR log)
{
    TPipe pipe;
    TCubeTiling t;
    ReadTiling(t, tilingGm);
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.M * t.Ka);
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.M * t.N);
    Matmul<AT, AT, CT, CT, CFG_NORM, MatmulCallBackFunc<nullptr, nullptr, CopyB1>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetUserDefInfo(reinterpret_cast<uint64_t>(&t));
    mm.SetSelfDefineData(reinterpret_cast<uint64_t>(log));
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    while (mm.Iterate()) {
        mm.GetTensorC(gc);
    }
    mm.End();
}

// CopyA1 that fails on its second block: log word 63 picks how (1: ASSERT, 2: a bridged call's fault,
// 3: a C++ exception)
__aicore__ inline void CopyA1Failing(const LocalTensor<int8_t>& aMatrix, const __gm__ void* gm, int row, int col,
                                     int useM, int useK, const uint64_t tilingPtr, const uint64_t dataPtr)
{
    GlobalTensor<int32_t> log;
    log.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(dataPtr));
    const int32_t how = log.GetValue(63);
    if (row == 1) {
        ASSERT(how != 1);  // fails: how 1
        if (how == 2) {
            GlobalTensor<half> g;
            g.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(const_cast<__gm__ void*>(gm)));
            Nd2NzParams params(1, useM, useK, 0, 60000, 16, 1, 0);
            DataCopy(aMatrix.ReinterpretCast<half>(), g, params);  // fails: how 2
        }
        if (how == 3) {
            throw std::runtime_error("CopyA1Failing: how 3");
        }
    }
    CopyA1(aMatrix, gm, row, col, useM, useK, tilingPtr, dataPtr);
}

__aicore__ inline void CopyA1Zero(const LocalTensor<int8_t>&, const __gm__ void*, int, int, int, int, const uint64_t,
                                  const uint64_t)
{
}

extern "C" __global__ __aicore__ void mm_callback_fails(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm,
                                                       GM_ADDR log)
{
    TPipe pipe;
    TCubeTiling t;
    ReadTiling(t, tilingGm);
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.M * t.Ka);
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.M * t.N);
    Matmul<AT, AT, CT, CT, CFG_NORM, MatmulCallBackFunc<nullptr, CopyA1Failing, nullptr>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetUserDefInfo(reinterpret_cast<uint64_t>(&t));
    mm.SetSelfDefineData(reinterpret_cast<uint64_t>(log));
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.IterateAll(gc);  // the call the callback's error unwinds
    mm.End();
}

using BT = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
using BCT = MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>;

// IterateBatch's mix-mode forms: info = (batchA, batchB, batches, how): how 0 synchronous, 1 IterateBatch<false,
// true> + WaitIterateBatch, 2 IterateBatch<false> (no wait), 3 WaitIterateBatch after a synchronous one,
// 4 IterateBatch<false> to VECIN
extern "C" __global__ __aicore__ void mm_batch_mix(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm, GM_ADDR info)
{
    TPipe pipe;
    TCubeTiling t;
    ReadTiling(t, tilingGm);
    const auto* nums = reinterpret_cast<__gm__ const int32_t*>(info);
    const uint32_t batchA = nums[0], batchB = nums[1];
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), batchA * t.M * t.Ka);
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), batchB * t.Kb * t.N);
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), nums[2] * t.M * t.N);
    Matmul<BT, BT, BCT> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    switch (nums[3]) {
        case 0: mm.IterateBatch(gc, batchA, batchB, false); break;
        case 1:
            mm.IterateBatch<false, true>(gc, batchA, batchB, false);
            mm.WaitIterateBatch();
            break;
        case 2: mm.IterateBatch<false>(gc, batchA, batchB, false); break;
        case 3:
            mm.IterateBatch<true, true>(gc, batchA, batchB, false);
            mm.WaitIterateBatch();  // refused: no asynchronous IterateBatch
            break;
        default: {
            TQue<TPosition::VECIN, 1> que;
            pipe.InitBuffer(que, 1, t.M * t.N * sizeof(float));
            LocalTensor<float> ub = que.AllocTensor<float>();
            mm.IterateBatch<false>(ub, batchA, batchB, true);  // refused: asynchronous to VECIN
            que.FreeTensor(ub);
        }
    }
    mm.End();
}

// the constant tiling: GetMatmulApiTiling's fields are constexpr, a kernel changes some in a constant expression
constexpr static MatmulShapeParams CSHAPE = {64, 32, 48, 32, 32, 48};
__aicore__ constexpr MatmulApiStaticTiling CustomConstant()
{
    MatmulConfig cfg = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(CSHAPE);
    cfg.enableSetBias = false;
    auto constant = GetMatmulApiTiling<AT, AT, CT, CT>(cfg);
    constant.iterateOrder = 1;  // N first
    constant.stepM = 1;
    return constant;
}
constexpr static auto CONSTANT_CFG = CustomConstant();
static_assert(CONSTANT_CFG.M == 64 && CONSTANT_CFG.N == 32 && CONSTANT_CFG.Ka == 48 && CONSTANT_CFG.Kb == 48 &&
                  CONSTANT_CFG.singleCoreM == 64 && CONSTANT_CFG.baseM == 32 && CONSTANT_CFG.baseN == 32 &&
                  CONSTANT_CFG.baseK == 48 && CONSTANT_CFG.isBias == 0 && CONSTANT_CFG.iterateOrder == 1 &&
                  CONSTANT_CFG.depthA1 == -1 && !CONSTANT_CFG.cfg.enableSetBias,
              "GetMatmulApiTiling's constant fields");
constexpr static auto PLAIN_CFG = GetMatmulApiTiling<AT, AT, CT, CT>(GetMMConfig<MatmulConfigMode::CONFIG_MDL>(CSHAPE));
static_assert(PLAIN_CFG.isBias == 1 && PLAIN_CFG.baseM == 32 && PLAIN_CFG.cfg.doMultiDataLoad, "the MDL constant");

// a constant expression over the fields: the blocks of M as a template argument
template <int32_t BLOCKS> struct MBlocks {
    static constexpr int32_t value = BLOCKS;
};

template <const auto& CFG>
__aicore__ inline void RunConstant(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR info)
{
    TPipe pipe;
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), CFG.M * CFG.Ka);
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), CFG.Kb * CFG.N);
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), CFG.M * CFG.N);
    GlobalTensor<int32_t> out;
    out.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(info), 1);
    out.SetValue(0, MBlocks<CFG.singleCoreM / CFG.baseM>::value);
    Matmul<AT, AT, CT, CT, CFG> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, (TCubeTiling*)nullptr);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.IterateAll(gc);
    mm.End();
}

extern "C" __global__ __aicore__ void mm_constant(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR info)
{
    RunConstant<CONSTANT_CFG>(a, b, c, info);
}
extern "C" __global__ __aicore__ void mm_constant_mdl(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR info)
{
    RunConstant<PLAIN_CFG>(a, b, c, info);
}

// a change that no longer fits: refused by Init as a runtime tiling would be
constexpr static auto BAD_CFG = [] {
    auto constant = GetMatmulApiTiling<AT, AT, CT, CT>(GetMMConfig<MatmulConfigMode::CONFIG_NORM>(CSHAPE));
    constant.baseM = 24;  // not a multiple of 16
    return constant;
}();
extern "C" __global__ __aicore__ void mm_constant_bad(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR info)
{
    RunConstant<BAD_CFG>(a, b, c, info);
}
