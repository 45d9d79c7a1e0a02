// Matmul's MM_CFG configs and the members SetBatchNum/IterateBatch, SetQuantScalar/SetQuantVector,
// SetUserDefInfo/SetSelfDefineData (tests/ascendc/test_last1_matmul_cfg.py checks them against NumPy).
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
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

constexpr static MatmulShapeParams SHAPE = {64, 32, 48, 64, 32, 48};
constexpr static MatmulFuncParams FUNC = {false, false, true, false, 1, IterateOrder::ORDER_N,
                                          ScheduleType::OUTER_PRODUCT};
constexpr static MatmulConfig SHAPE_CFG = GetMMConfig<MatmulConfigMode::CONFIG_MDL>(SHAPE, FUNC,
    MatmulQuantParams{true, false}, MatmulBatchParams{true, BatchMode::BATCH_LARGE_THAN_L1, false});
constexpr static MatmulConfig BB_WRONG = GetBasicConfig(32, 32, 48);
constexpr static MatmulConfig BB_RIGHT = GetBasicConfig(64, 32, 48, true, false, BatchMode::NONE);
constexpr static MatmulConfig NORMAL_N = GetNormalConfig(false, false, false, BatchMode::BATCH_LESS_THAN_L1,
                                                         false, IterateOrder::ORDER_N);
constexpr static MatmulConfig SPECIAL = GetSpecialMDLConfig(false, false, 2);
constexpr static MatmulConfig IBSHARE = GetIBShareNormConfig(false, false, false, BatchMode::NONE, true);
constexpr static MatmulConfig NO_BIAS = [] {
    MatmulConfig c = GetNormalConfig();
    c.enableSetBias = false;
    return c;
}();
static_assert(CFG_MDL.doMultiDataLoad && !CFG_MDL.doNorm && MM_CFG_BB.basicK == 128 && CFG_IBSHARE_NORM.doIBShareNorm,
              "the constant configs");

template <const auto& CFG>
__aicore__ inline void RunWith(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm, GM_ADDR info)
{
    TPipe pipe;
    TCubeTiling t;
    ReadTiling(t, tilingGm);
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.M * t.Ka);
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.M * t.N);
    Matmul<AT, AT, CT, CT, CFG> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    const auto* words = reinterpret_cast<__gm__ const uint64_t*>(info);
    mm.SetUserDefInfo(words[0]);
    mm.SetSelfDefineData(words[1]);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    if (words[2] != 0) {
        GlobalTensor<float> gbias;
        gbias.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(info + 3 * sizeof(uint64_t)), t.N);  // after the words
        mm.SetBias(gbias);
    }
    mm.IterateAll(gc);
    mm.End();
}

#define ACLSIM_CFG_KERNEL(NAME, CFG)                                                                  \
    extern "C" __global__ __aicore__ void NAME(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR t, GM_ADDR i) \
    {                                                                                                 \
        RunWith<CFG>(a, b, c, t, i);                                                                  \
    }
ACLSIM_CFG_KERNEL(mm_norm, CFG_NORM)
ACLSIM_CFG_KERNEL(mm_mdl, CFG_MDL)
ACLSIM_CFG_KERNEL(mm_shape_cfg, SHAPE_CFG)
ACLSIM_CFG_KERNEL(mm_bb_wrong, BB_WRONG)
ACLSIM_CFG_KERNEL(mm_bb_right, BB_RIGHT)
ACLSIM_CFG_KERNEL(mm_normal_n, NORMAL_N)
ACLSIM_CFG_KERNEL(mm_special, SPECIAL)
ACLSIM_CFG_KERNEL(mm_ibshare, IBSHARE)
ACLSIM_CFG_KERNEL(mm_no_bias, NO_BIAS)

using BT = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
using BCT = MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>;

// SetBatchNum(info[0], info[1]) then IterateBatch to GM
extern "C" __global__ __aicore__ void mm_batch(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm, GM_ADDR info)
{
    TPipe pipe;
    TCubeTiling t;
    ReadTiling(t, tilingGm);
    const auto* nums = reinterpret_cast<__gm__ const int32_t*>(info);
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), nums[0] * t.M * t.Ka);
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), nums[1] * t.Kb * t.N);
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), nums[2] * t.M * t.N);
    Matmul<BT, BT, BCT> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.SetBatchNum(nums[0], nums[1]);
    mm.IterateBatch(gc, false, 0, false);
    mm.End();
}

using QA = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
using QB = MatmulType<TPosition::GM, CubeFormat::ND, int8_t, true>;
using QC = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using QBIAS = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;

// int8 A and B -> half C: info[0] != 0: SetQuantScalar(info[0]), else SetQuantVector(scale)
extern "C" __global__ __aicore__ void mm_quant(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm, GM_ADDR info,
                                               GM_ADDR scale)
{
    TPipe pipe;
    TCubeTiling t;
    ReadTiling(t, tilingGm);
    GlobalTensor<int8_t> ga, gb;
    GlobalTensor<half> gc;
    GlobalTensor<uint64_t> gs;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(a), t.M * t.Ka);
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(b), t.Kb * t.N);
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(c), t.M * t.N);
    gs.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(scale), t.N);
    Matmul<QA, QB, QC, QBIAS> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb, true);
    const uint64_t word = reinterpret_cast<__gm__ const uint64_t*>(info)[0];
    if (word != 0) {
        mm.SetQuantScalar(word);
    } else {
        mm.SetQuantVector(gs);
    }
    mm.IterateAll(gc);
    mm.End();
}

// GetMatmulApiTiling: a Matmul whose tiling is the constant one of its config (a null tiling)
constexpr static MatmulApiStaticTiling FULL_CONST = GetMatmulApiTiling<AT, AT, CT, CT>(
    GetMMConfig<MatmulConfigMode::CONFIG_NORM>(MatmulShapeParams{64, 32, 48, 64, 32, 48}));
constexpr static MatmulApiStaticTiling PARTIAL_CONST = GetMatmulApiTiling<AT, AT, CT, CT>(GetBasicConfig(64, 32, 48),
                                                                                          262144);

template <const auto& CFG>
__aicore__ inline void RunStatic(GM_ADDR a, GM_ADDR b, GM_ADDR c, bool viaInit)
{
    TPipe pipe;
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), 64 * 48);
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), 48 * 32);
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), 64 * 32);
    Matmul<AT, AT, CT, CT, CFG> mm;
    if (viaInit) {
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm);
        mm.Init(nullptr);
    } else {
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, (TCubeTiling*)nullptr);
    }
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.IterateAll(gc);
    mm.End();
}

extern "C" __global__ __aicore__ void mm_static(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR t, GM_ADDR i)
{
    RunStatic<FULL_CONST>(a, b, c, false);
}
extern "C" __global__ __aicore__ void mm_static_init(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR t, GM_ADDR i)
{
    RunStatic<FULL_CONST>(a, b, c, true);
}
extern "C" __global__ __aicore__ void mm_static_partial(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR t, GM_ADDR i)
{
    RunStatic<PARTIAL_CONST>(a, b, c, false);
}
// the partial constant with the runtime tiling: as Ascend C asks
ACLSIM_CFG_KERNEL(mm_partial_runtime, PARTIAL_CONST)

// two objects registered together: the first with a constant tiling without bias, the second with the runtime one
constexpr static MatmulApiStaticTiling NO_BIAS_CONST = [] {
    MatmulConfig c = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(MatmulShapeParams{64, 32, 48, 64, 32, 48});
    c.enableSetBias = false;
    return GetMatmulApiTiling<AT, AT, CT, CT>(c);
}();
extern "C" __global__ __aicore__ void mm_static_two(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR t, GM_ADDR i)
{
    TPipe pipe;
    TCubeTiling runtime;
    ReadTiling(runtime, t);
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), 64 * 48);
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), 48 * 32);
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), 64 * 32);
    Matmul<AT, AT, CT, CT, NO_BIAS_CONST> mm;
    Matmul<AT, AT, CT> mm2;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, (TCubeTiling*)nullptr, mm2, &runtime);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.IterateAll(gc);
    mm.End();
    mm2.SetTensorA(ga);
    mm2.SetTensorB(gb);
    mm2.IterateAll(gc);  // the same C again
    mm2.End();
}
