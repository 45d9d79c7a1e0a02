/* aclsim: the Matmul configs (issue 16, "Matmul configs and members").
 *
 * MatmulConfig is a table struct (api_cxx.txt); the getters below are constexpr, as in Ascend C, so that a
 * kernel can write `constexpr static MatmulConfig CFG = GetMDLConfig();` and pass it as Matmul's MM_CFG
 * template argument; Matmul hands it to the Python Matmul object (aclsim.kernel.get_*_config fill the same
 * fields).  Written from Ascend's public documentation. */
#ifndef ACLSIM_ASCENDC_LAST1_H
#define ACLSIM_ASCENDC_LAST1_H

namespace AscendC {

__aicore__ constexpr MatmulConfig GetNormalConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
    const bool isVecND2NZ = false, const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
    const bool isMsgReuse = true, const IterateOrder iterateOrder = IterateOrder::UNDEF,
    const ScheduleType scheduleType = ScheduleType::INNER_PRODUCT, const bool enUnitFlag = true,
    const bool enableMixDualMaster = false)
{
    MatmulConfig c{};
    c.doNorm = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.enVecND2NZ = isVecND2NZ;
    c.batchMode = bmmMode;
    c.enableReuse = isMsgReuse;
    c.iterateOrder = iterateOrder;
    c.scheduleType = scheduleType;
    c.enUnitFlag = enUnitFlag;
    c.enableMixDualMaster = enableMixDualMaster;
    return c;
}

__aicore__ constexpr MatmulConfig GetMDLConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
    const uint32_t doMTE2Preload = 0, const bool isVecND2NZ = false, const bool isPerTensor = false,
    const bool hasAntiQuantOffset = false, const bool enUnitFlag = false, const bool isMsgReuse = true,
    const bool enableUBReuse = true, const bool enableL1CacheUB = false, const bool enableMixDualMaster = false,
    const bool enableKdimReorderLoad = false)
{
    MatmulConfig c{};
    c.doNorm = false;
    c.doMultiDataLoad = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.doMTE2Preload = doMTE2Preload;
    c.enVecND2NZ = isVecND2NZ;
    c.isPerTensor = isPerTensor;
    c.hasAntiQuantOffset = hasAntiQuantOffset;
    c.enUnitFlag = enUnitFlag;
    c.enableReuse = isMsgReuse;
    c.enableUBReuse = enableUBReuse;
    c.enableL1CacheUB = enableL1CacheUB;
    c.enableMixDualMaster = enableMixDualMaster;
    c.enableKdimReorderLoad = enableKdimReorderLoad;
    return c;
}

/* MDL with stepN 2 (the same schedule in aclsim) */
__aicore__ constexpr MatmulConfig GetSpecialMDLConfig(const bool intrinsicsLimit = false,
    const bool batchLoop = false, const uint32_t doMTE2Preload = 0, const bool isVecND2NZ = false,
    const bool isPerTensor = false, const bool hasAntiQuantOffset = false)
{
    MatmulConfig c = GetMDLConfig(intrinsicsLimit, batchLoop, doMTE2Preload, isVecND2NZ, isPerTensor,
                                  hasAntiQuantOffset);
    c.doMultiDataLoad = false;
    c.doSpecialMDL = true;
    return c;
}

__aicore__ constexpr MatmulConfig GetBasicConfig(const uint32_t basicM, const uint32_t basicN, const uint32_t basicK,
    const bool intrinsicsLimit = false, const bool batchLoop = false,
    const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1)
{
    MatmulConfig c{};
    c.doNorm = false;
    c.doBasicBlock = true;
    c.basicM = basicM;
    c.basicN = basicN;
    c.basicK = basicK;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.batchMode = bmmMode;
    return c;
}

__aicore__ constexpr MatmulConfig GetIBShareNormConfig(const bool intrinsicsLimit = false,
    const bool batchLoop = false, const bool isVecND2NZ = false,
    const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1, const bool isDoubleCache = false,
    const bool enUnitFlag = true)
{
    MatmulConfig c{};
    c.doNorm = false;
    c.doIBShareNorm = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.enVecND2NZ = isVecND2NZ;
    c.batchMode = bmmMode;
    c.enableDoubleCache = isDoubleCache;
    c.enUnitFlag = enUnitFlag;
    return c;
}

inline constexpr MatmulConfig CFG_NORM = GetNormalConfig();
inline constexpr MatmulConfig CFG_MDL = GetMDLConfig();
inline constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);
inline constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();

/* GetMMConfig<mode>(params...): the parts of a config, aggregates as in Ascend C (`{128, 128, 128, 64, 64, 64}`) */
struct MatmulShapeParams {
    uint32_t singleCoreM = 0;
    uint32_t singleCoreN = 0;
    uint32_t singleCoreK = 0;
    uint32_t basicM = 0;
    uint32_t basicN = 0;
    uint32_t basicK = 0;
};

struct MatmulQuantParams {
    bool isPerTensor = false;
    bool hasAntiQuantOffset = false;
};

struct MatmulBatchParams {
    bool isNBatch = false;
    BatchMode batchMode = BatchMode::BATCH_LESS_THAN_L1;
    bool isBiasBatch = true;
};

struct MatmulFuncParams {
    bool intrinsicsLimit = false;
    bool enVecND2NZ = false;
    bool enableDoubleCache = false;
    bool enableL1CacheUB = false;
    uint32_t doMTE2Preload = 0;
    IterateOrder iterateOrder = IterateOrder::UNDEF;
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
    bool enableReuse = true;
    bool enableUBReuse = false;
    bool isPartialOutput = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
};

namespace detail_mmcfg {
__aicore__ constexpr void Apply(MatmulConfig& c, const MatmulShapeParams& p)
{
    c.singleCoreM = p.singleCoreM;
    c.singleCoreN = p.singleCoreN;
    c.singleCoreK = p.singleCoreK;
    c.basicM = p.basicM;
    c.basicN = p.basicN;
    c.basicK = p.basicK;
}
__aicore__ constexpr void Apply(MatmulConfig& c, const MatmulQuantParams& p)
{
    c.isPerTensor = p.isPerTensor;
    c.hasAntiQuantOffset = p.hasAntiQuantOffset;
}
__aicore__ constexpr void Apply(MatmulConfig& c, const MatmulBatchParams& p)
{
    c.isNBatch = p.isNBatch;
    c.batchMode = p.batchMode;
    c.isBiasBatch = p.isBiasBatch;
}
__aicore__ constexpr void Apply(MatmulConfig& c, const MatmulFuncParams& p)
{
    c.intrinsicsCheck = p.intrinsicsLimit;
    c.enVecND2NZ = p.enVecND2NZ;
    c.enableDoubleCache = p.enableDoubleCache;
    c.enableL1CacheUB = p.enableL1CacheUB;
    c.doMTE2Preload = p.doMTE2Preload;
    c.iterateOrder = p.iterateOrder;
    c.scheduleType = p.scheduleType;
    c.enableReuse = p.enableReuse;
    c.enableUBReuse = p.enableUBReuse;
    c.isPartialOutput = p.isPartialOutput;
    c.isA2B2Shared = p.isA2B2Shared;
    c.isEnableChannelSplit = p.isEnableChannelSplit;
    c.enableKdimReorderLoad = p.enableKdimReorderLoad;
}
}  // namespace detail_mmcfg

template <MatmulConfigMode configMode, class... Args>
__aicore__ constexpr MatmulConfig GetMMConfig(Args... args)
{
    MatmulConfig c = configMode == MatmulConfigMode::CONFIG_MDL         ? GetMDLConfig()
                     : configMode == MatmulConfigMode::CONFIG_SPECIALMDL ? GetSpecialMDLConfig()
                     : configMode == MatmulConfigMode::CONFIG_IBSHARE    ? GetIBShareNormConfig()
                                                                         : GetNormalConfig();
    (detail_mmcfg::Apply(c, args), ...);
    return c;
}

/* MatmulApiStaticTiling: GetMatmulApiTiling<A, B, C, BIAS>(cfg, l1Size), Matmul's MM_CFG for a constant tiling.
   The fields are constexpr members as in Ascend C (-1: not set): GetMatmulApiTiling sets the shapes and base
   blocks of the config (M = singleCoreM, N = singleCoreN, Ka = Kb = singleCoreK, baseM/N/K, isBias =
   enableSetBias) when the kernel is compiled, and a kernel may change any field in a constant expression
   (`constantCFG.stepKa = 2;`).  The fields the L1 sizes decide (depthA1/B1, stepM/N/Ka/Kb, iterateOrder,
   dbL0A/B/C, transLength, share*) stay -1 here: with a null tiling (REGIST_MATMUL_OBJ(..., mm, nullptr) or
   mm.Init(nullptr)) the Python Matmul computes them when the kernel runs (aclsim.kernel.get_matmul_api_tiling,
   from the object's types, the config and l1Size), and every field set here replaces the computed one. */
struct MatmulApiStaticTiling {
    int32_t usedCoreNum = -1;
    int32_t M = -1;
    int32_t N = -1;
    int32_t Ka = -1;
    int32_t Kb = -1;
    int32_t singleCoreM = -1;
    int32_t singleCoreN = -1;
    int32_t singleCoreK = -1;
    int32_t baseM = -1;
    int32_t baseN = -1;
    int32_t baseK = -1;
    int32_t depthA1 = -1;
    int32_t depthB1 = -1;
    int32_t stepM = -1;
    int32_t stepN = -1;
    int32_t isBias = -1;
    int32_t transLength = -1;
    int32_t iterateOrder = -1;
    int32_t shareMode = -1;
    int32_t shareL1Size = -1;
    int32_t shareL0CSize = -1;
    int32_t shareUbSize = -1;
    int32_t stepKa = -1;
    int32_t stepKb = -1;
    int32_t depthAL1CacheUB = -1;
    int32_t depthBL1CacheUB = -1;
    int32_t dbL0A = -1;
    int32_t dbL0B = -1;
    int32_t dbL0C = -1;
    /* batch layouts: kept for the kernel's own constant expressions (aclsim's TCubeTiling has none of them) */
    int32_t ALayoutInfoB = -1;
    int32_t ALayoutInfoS = -1;
    int32_t ALayoutInfoN = -1;
    int32_t ALayoutInfoG = -1;
    int32_t ALayoutInfoD = -1;
    int32_t BLayoutInfoB = -1;
    int32_t BLayoutInfoS = -1;
    int32_t BLayoutInfoN = -1;
    int32_t BLayoutInfoG = -1;
    int32_t BLayoutInfoD = -1;
    int32_t CLayoutInfoB = -1;
    int32_t CLayoutInfoS1 = -1;
    int32_t CLayoutInfoN = -1;
    int32_t CLayoutInfoG = -1;
    int32_t CLayoutInfoS2 = -1;
    int32_t BatchNum = -1;
    int32_t mxTypePara = -1;
    MatmulConfig cfg = CFG_NORM;
    int32_t l1Size = -1; /* aclsim: GetMatmulApiTiling's l1Size (-1: the chip's L1) */
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
__aicore__ constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG, int32_t l1Size = -1)
{
    MatmulApiStaticTiling s{};
    s.cfg = mmCFG;
    s.l1Size = l1Size;
    if (mmCFG.basicM == 0 || mmCFG.basicN == 0 || mmCFG.basicK == 0) {
        return s;  // no constant part: the runtime tiling
    }
    s.baseM = static_cast<int32_t>(mmCFG.basicM);
    s.baseN = static_cast<int32_t>(mmCFG.basicN);
    s.baseK = static_cast<int32_t>(mmCFG.basicK);
    s.isBias = mmCFG.enableSetBias ? 1 : 0;
    if (mmCFG.singleCoreM == 0 || mmCFG.singleCoreN == 0 || mmCFG.singleCoreK == 0) {
        return s;  // partial constant: the base blocks only
    }
    s.M = s.singleCoreM = static_cast<int32_t>(mmCFG.singleCoreM);
    s.N = s.singleCoreN = static_cast<int32_t>(mmCFG.singleCoreN);
    s.Ka = s.Kb = s.singleCoreK = static_cast<int32_t>(mmCFG.singleCoreK);
    return s;
}

namespace detail_mmcfg {
__aicore__ constexpr const MatmulConfig& ConfigOf(const MatmulConfig& c) { return c; }
__aicore__ constexpr const MatmulConfig& ConfigOf(const MatmulApiStaticTiling& s) { return s.cfg; }
__aicore__ constexpr int32_t L1SizeOf(const MatmulConfig&) { return -1; }
__aicore__ constexpr int32_t L1SizeOf(const MatmulApiStaticTiling& s) { return s.l1Size; }
/* a constant tiling's fields as aclsim's TCubeTiling (-1: not set; the batch fields have no constant) */
inline TCubeTiling FieldsOf(const MatmulApiStaticTiling& s)
{
    TCubeTiling t;
    t.usedCoreNum = s.usedCoreNum;
    t.M = s.M;
    t.N = s.N;
    t.Ka = s.Ka;
    t.Kb = s.Kb;
    t.singleCoreM = s.singleCoreM;
    t.singleCoreN = s.singleCoreN;
    t.singleCoreK = s.singleCoreK;
    t.baseM = s.baseM;
    t.baseN = s.baseN;
    t.baseK = s.baseK;
    t.depthA1 = s.depthA1;
    t.depthB1 = s.depthB1;
    t.stepM = s.stepM;
    t.stepN = s.stepN;
    t.isBias = s.isBias;
    t.transLength = s.transLength;
    t.iterateOrder = s.iterateOrder;
    t.shareMode = s.shareMode;
    t.shareL1Size = s.shareL1Size;
    t.shareL0CSize = s.shareL0CSize;
    t.shareUbSize = s.shareUbSize;
    t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = -1;
    t.stepKa = s.stepKa;
    t.stepKb = s.stepKb;
    t.depthAL1CacheUB = s.depthAL1CacheUB;
    t.depthBL1CacheUB = s.depthBL1CacheUB;
    t.dbL0A = s.dbL0A;
    t.dbL0B = s.dbL0B;
    t.dbL0C = s.dbL0C;
    return t;
}
}  // namespace detail_mmcfg

/* MatmulCallBackFunc<DataCopyOut, CopyA1, CopyB1>: Matmul's MM_CB, the user's copies (nullptr: the library's
   own); the Matmul template hands them to the Python Matmul (aclsim_ascendc_mmcb.h: detail_mmcb::Install). */
using MatmulDataCopyOutFunc = void (*)(const __gm__ void* gm, const LocalTensor<int8_t>& co1Local,
                                       const void* dataCopyOutParams, const uint64_t tilingPtr,
                                       const uint64_t dataPtr);
using MatmulCopyA1Func = void (*)(const LocalTensor<int8_t>& aMatrix, const __gm__ void* gm, int row, int col,
                                  int useM, int useK, const uint64_t tilingPtr, const uint64_t dataPtr);
using MatmulCopyB1Func = void (*)(const LocalTensor<int8_t>& bMatrix, const __gm__ void* gm, int row, int col,
                                  int useK, int useN, const uint64_t tilingPtr, const uint64_t dataPtr);
template <MatmulDataCopyOutFunc DataCopyOut = nullptr, MatmulCopyA1Func CopyA1 = nullptr,
          MatmulCopyB1Func CopyB1 = nullptr>
struct MatmulCallBackFunc {
    static constexpr MatmulDataCopyOutFunc DataCopyOutPtr = DataCopyOut;
    static constexpr MatmulCopyA1Func CopyA1Ptr = CopyA1;
    static constexpr MatmulCopyB1Func CopyB1Ptr = CopyB1;
};

namespace detail_mmcb {
template <class MM_CB> struct Install;  // aclsim_ascendc_mmcb.h
}  // namespace detail_mmcb

}  // namespace AscendC

#endif
