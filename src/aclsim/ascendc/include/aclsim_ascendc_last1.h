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

/* MatmulApiStaticTiling: the constant config and the L1 size of GetMatmulApiTiling<A, B, C, BIAS>(cfg, l1Size).
   Matmul<..., staticTiling> takes it as MM_CFG; with a null tiling (REGIST_MATMUL_OBJ(..., mm, nullptr) or
   mm.Init(nullptr)) the object's tiling is computed from its types, the config and l1Size when the kernel runs
   (aclsim.kernel.get_matmul_api_tiling), not when it is compiled: the tiling's fields are not members here. */
struct MatmulApiStaticTiling {
    MatmulConfig cfg{};
    int32_t l1Size = -1;
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
__aicore__ constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG, int32_t l1Size = -1)
{
    MatmulApiStaticTiling s{};
    s.cfg = mmCFG;
    s.l1Size = l1Size;
    return s;
}

namespace detail_mmcfg {
__aicore__ constexpr const MatmulConfig& ConfigOf(const MatmulConfig& c) { return c; }
__aicore__ constexpr const MatmulConfig& ConfigOf(const MatmulApiStaticTiling& s) { return s.cfg; }
__aicore__ constexpr int32_t L1SizeOf(const MatmulConfig&) { return -1; }
__aicore__ constexpr int32_t L1SizeOf(const MatmulApiStaticTiling& s) { return s.l1Size; }
}  // namespace detail_mmcfg

/* MatmulCallBackFunc<DataCopyOut, CopyA1, CopyB1>: Matmul's MM_CB.  Only the library's own copies (all three
   nullptr) run in C++: a C++ callback would have to be called back from the Python Matmul. */
template <void (*DataCopyOut)(const __gm__ void* gm, const LocalTensor<int8_t>& co1Local,
                              const void* dataCopyOutParams, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr,
          void (*CopyA1)(const LocalTensor<int8_t>& aMatrix, const __gm__ void* gm, int row, int col, int useM,
                         int useK, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr,
          void (*CopyB1)(const LocalTensor<int8_t>& bMatrix, const __gm__ void* gm, int row, int col, int useK,
                         int useN, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr>
struct MatmulCallBackFunc {
    static_assert(DataCopyOut == nullptr && CopyA1 == nullptr && CopyB1 == nullptr,
                  "aclsim: C++ Matmul callbacks (MatmulCallBackFunc with functions) are not modelled; the "
                  "Python Matmul takes them (aclsim.kernel.MatmulCallBackFunc)");
};

}  // namespace AscendC

#endif
