/* Generated from aclsim/ascendc/api_cxx.txt by `python -m aclsim.ascendc.gen_cxx`: do not edit. */
#pragma once
#define ACLSIM_ASCENDC_TABLE "b66066494ca7acbe"
namespace aclsim { namespace detail {
template <int N> struct Words {
    uint64_t w[N];
    template <class E> explicit Words(const E* a)
    {
        for (int i = 0; i < N; ++i) {
            w[i] = static_cast<uint64_t>(a[i]);
        }
    }
};
} }  // namespace aclsim::detail
namespace AscendC {
enum class TPosition : int32_t {
    GM = 0,
    A1 = 1,
    A2 = 2,
    B1 = 3,
    B2 = 4,
    C1 = 5,
    C2 = 6,
    CO1 = 7,
    CO2 = 8,
    VECIN = 9,
    VECOUT = 10,
    VECCALC = 11,
    TSCM = 13
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::TPosition> { static constexpr int value = 0; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class HardEvent : int32_t {
    MTE2_MTE1 = 0,
    MTE1_MTE2 = 1,
    MTE1_M = 2,
    M_MTE1 = 3,
    MTE2_V = 4,
    V_MTE2 = 5,
    MTE3_V = 6,
    V_MTE3 = 7,
    M_V = 8,
    V_M = 9,
    V_V = 10,
    MTE3_MTE1 = 11,
    MTE1_MTE3 = 12,
    MTE1_V = 13,
    MTE2_M = 14,
    M_MTE2 = 15,
    V_MTE1 = 16,
    M_FIX = 17,
    FIX_M = 18,
    MTE3_MTE2 = 19,
    MTE2_MTE3 = 20,
    S_V = 21,
    V_S = 22,
    S_MTE2 = 23,
    MTE2_S = 24,
    S_MTE3 = 25,
    MTE3_S = 26,
    MTE2_FIX = 27,
    FIX_MTE2 = 28,
    FIX_S = 29,
    M_S = 30,
    FIX_MTE3 = 31,
    MTE1_FIX = 32,
    FIX_MTE1 = 33,
    FIX_FIX = 34
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::HardEvent> { static constexpr int value = 1; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class CMPMODE : int32_t {
    LT = 0,
    GT = 1,
    EQ = 2,
    LE = 3,
    GE = 4,
    NE = 5
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::CMPMODE> { static constexpr int value = 2; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class SELMODE : int32_t {
    VSEL_CMPMASK_SPR = 0,
    VSEL_TENSOR_SCALAR_MODE = 1,
    VSEL_TENSOR_TENSOR_MODE = 2
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::SELMODE> { static constexpr int value = 3; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class RoundMode : int32_t {
    CAST_NONE = 0,
    CAST_RINT = 1,
    CAST_FLOOR = 2,
    CAST_CEIL = 3,
    CAST_ROUND = 4,
    CAST_TRUNC = 5,
    CAST_ODD = 6,
    CAST_HYBRID = 7
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::RoundMode> { static constexpr int value = 4; };
} }  // namespace aclsim::detail
namespace AscendC {

enum pipe_t : int32_t {
    PIPE_S = 0,
    PIPE_V = 1,
    PIPE_M = 2,
    PIPE_MTE1 = 3,
    PIPE_MTE2 = 4,
    PIPE_MTE3 = 5,
    PIPE_FIX = 6,
    PIPE_ALL = 7
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::pipe_t> { static constexpr int value = 5; };
} }  // namespace aclsim::detail
namespace AscendC {

enum KernelMetaType : int32_t {
    KERNEL_TYPE_AIV_ONLY = 0,
    KERNEL_TYPE_AIC_ONLY = 1,
    KERNEL_TYPE_MIX_AIV_1_0 = 2,
    KERNEL_TYPE_MIX_AIC_1_0 = 3,
    KERNEL_TYPE_MIX_AIC_1_1 = 4,
    KERNEL_TYPE_MIX_AIC_1_2 = 5,
    KERNEL_TYPE_AICORE = 6,
    KERNEL_TYPE_VECTORCORE = 7,
    KERNEL_TYPE_MIX_AICORE = 8,
    KERNEL_TYPE_MIX_VECTOR_CORE = 9
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::KernelMetaType> { static constexpr int value = 6; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_DataCopyParams(X) X(uint16_t, blockCount) X(uint16_t, blockLen) X(uint16_t, srcStride) X(uint16_t, dstStride)
struct DataCopyParams {
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;
    uint16_t srcStride = 0;
    uint16_t dstStride = 0;
    __aicore__ DataCopyParams() = default;
    __aicore__ DataCopyParams(uint16_t blockCount_, uint16_t blockLen_, uint16_t srcStride_, uint16_t dstStride_) : blockCount(blockCount_), blockLen(blockLen_), srcStride(srcStride_), dstStride(dstStride_) {}
#ifdef ACLSIM_STRUCT_EXTRA_DataCopyParams
    ACLSIM_STRUCT_EXTRA_DataCopyParams
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::DataCopyParams> { static constexpr int value = 0; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_DataCopyExtParams(X) X(uint16_t, blockCount) X(uint32_t, blockLen) X(uint32_t, srcStride) X(uint32_t, dstStride) X(uint32_t, rsv)
struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
    __aicore__ DataCopyExtParams() = default;
    __aicore__ DataCopyExtParams(uint16_t blockCount_, uint32_t blockLen_, uint32_t srcStride_, uint32_t dstStride_, uint32_t rsv_) : blockCount(blockCount_), blockLen(blockLen_), srcStride(srcStride_), dstStride(dstStride_), rsv(rsv_) {}
#ifdef ACLSIM_STRUCT_EXTRA_DataCopyExtParams
    ACLSIM_STRUCT_EXTRA_DataCopyExtParams
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::DataCopyExtParams> { static constexpr int value = 1; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_BinaryRepeatParams(X) X(uint8_t, dstBlkStride) X(uint8_t, src0BlkStride) X(uint8_t, src1BlkStride) X(uint8_t, dstRepStride) X(uint8_t, src0RepStride) X(uint8_t, src1RepStride)
struct BinaryRepeatParams {
    uint8_t dstBlkStride = 1;
    uint8_t src0BlkStride = 1;
    uint8_t src1BlkStride = 1;
    uint8_t dstRepStride = 8;
    uint8_t src0RepStride = 8;
    uint8_t src1RepStride = 8;
    __aicore__ BinaryRepeatParams() = default;
    __aicore__ BinaryRepeatParams(uint8_t dstBlkStride_, uint8_t src0BlkStride_, uint8_t src1BlkStride_, uint8_t dstRepStride_, uint8_t src0RepStride_, uint8_t src1RepStride_) : dstBlkStride(dstBlkStride_), src0BlkStride(src0BlkStride_), src1BlkStride(src1BlkStride_), dstRepStride(dstRepStride_), src0RepStride(src0RepStride_), src1RepStride(src1RepStride_) {}
#ifdef ACLSIM_STRUCT_EXTRA_BinaryRepeatParams
    ACLSIM_STRUCT_EXTRA_BinaryRepeatParams
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::BinaryRepeatParams> { static constexpr int value = 2; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_UnaryRepeatParams(X) X(uint16_t, dstBlkStride) X(uint16_t, srcBlkStride) X(uint8_t, dstRepStride) X(uint8_t, srcRepStride)
struct UnaryRepeatParams {
    uint16_t dstBlkStride = 1;
    uint16_t srcBlkStride = 1;
    uint8_t dstRepStride = 8;
    uint8_t srcRepStride = 8;
    __aicore__ UnaryRepeatParams() = default;
    __aicore__ UnaryRepeatParams(uint16_t dstBlkStride_, uint16_t srcBlkStride_, uint8_t dstRepStride_, uint8_t srcRepStride_) : dstBlkStride(dstBlkStride_), srcBlkStride(srcBlkStride_), dstRepStride(dstRepStride_), srcRepStride(srcRepStride_) {}
#ifdef ACLSIM_STRUCT_EXTRA_UnaryRepeatParams
    ACLSIM_STRUCT_EXTRA_UnaryRepeatParams
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::UnaryRepeatParams> { static constexpr int value = 3; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_GatherMaskParams(X) X(uint8_t, src0BlockStride) X(uint16_t, repeatTimes) X(uint16_t, src0RepeatStride) X(uint8_t, src1RepeatStride)
struct GatherMaskParams {
    uint8_t src0BlockStride = 1;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = 8;
    uint8_t src1RepeatStride = 8;
    __aicore__ GatherMaskParams() = default;
    __aicore__ GatherMaskParams(uint8_t src0BlockStride_, uint16_t repeatTimes_, uint16_t src0RepeatStride_, uint8_t src1RepeatStride_) : src0BlockStride(src0BlockStride_), repeatTimes(repeatTimes_), src0RepeatStride(src0RepeatStride_), src1RepeatStride(src1RepeatStride_) {}
#ifdef ACLSIM_STRUCT_EXTRA_GatherMaskParams
    ACLSIM_STRUCT_EXTRA_GatherMaskParams
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::GatherMaskParams> { static constexpr int value = 4; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class ReduceOrder : int32_t {
    ORDER_VALUE_INDEX = 0,
    ORDER_INDEX_VALUE = 1,
    ORDER_ONLY_VALUE = 2,
    ORDER_ONLY_INDEX = 3
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::ReduceOrder> { static constexpr int value = 7; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class ReduceType : int32_t {
    NONE = -1,
    SUM = 0,
    MAX = 1,
    MIN = 2
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::ReduceType> { static constexpr int value = 8; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_CopyRepeatParams(X) X(uint16_t, dstStride) X(uint16_t, srcStride) X(uint16_t, dstRepeatSize) X(uint16_t, srcRepeatSize)
struct CopyRepeatParams {
    uint16_t dstStride = 0;
    uint16_t srcStride = 0;
    uint16_t dstRepeatSize = 8;
    uint16_t srcRepeatSize = 8;
    __aicore__ CopyRepeatParams() = default;
    __aicore__ CopyRepeatParams(uint16_t dstStride_, uint16_t srcStride_, uint16_t dstRepeatSize_, uint16_t srcRepeatSize_) : dstStride(dstStride_), srcStride(srcStride_), dstRepeatSize(dstRepeatSize_), srcRepeatSize(srcRepeatSize_) {}
#ifdef ACLSIM_STRUCT_EXTRA_CopyRepeatParams
    ACLSIM_STRUCT_EXTRA_CopyRepeatParams
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::CopyRepeatParams> { static constexpr int value = 5; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_BrcbRepeatParams(X) X(uint16_t, dstBlkStride) X(uint16_t, dstRepStride)
struct BrcbRepeatParams {
    uint16_t dstBlkStride = 1;
    uint16_t dstRepStride = 8;
    __aicore__ BrcbRepeatParams() = default;
    __aicore__ BrcbRepeatParams(uint16_t dstBlkStride_, uint16_t dstRepStride_) : dstBlkStride(dstBlkStride_), dstRepStride(dstRepStride_) {}
#ifdef ACLSIM_STRUCT_EXTRA_BrcbRepeatParams
    ACLSIM_STRUCT_EXTRA_BrcbRepeatParams
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::BrcbRepeatParams> { static constexpr int value = 6; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_SoftMaxTiling(X) X(uint32_t, srcM) X(uint32_t, srcK) X(uint32_t, srcSize) X(uint32_t, outMaxM) X(uint32_t, outMaxK) X(uint32_t, outMaxSize) X(uint32_t, splitM) X(uint32_t, splitK) X(uint32_t, splitSize) X(uint32_t, reduceM) X(uint32_t, reduceK) X(uint32_t, reduceSize) X(uint32_t, rangeM) X(uint32_t, tailM) X(uint32_t, tailSplitSize) X(uint32_t, tailReduceSize)
struct SoftMaxTiling {
    uint32_t srcM = 0;
    uint32_t srcK = 0;
    uint32_t srcSize = 0;
    uint32_t outMaxM = 0;
    uint32_t outMaxK = 0;
    uint32_t outMaxSize = 0;
    uint32_t splitM = 0;
    uint32_t splitK = 0;
    uint32_t splitSize = 0;
    uint32_t reduceM = 0;
    uint32_t reduceK = 0;
    uint32_t reduceSize = 0;
    uint32_t rangeM = 0;
    uint32_t tailM = 0;
    uint32_t tailSplitSize = 0;
    uint32_t tailReduceSize = 0;
    __aicore__ SoftMaxTiling() = default;
    __aicore__ SoftMaxTiling(uint32_t srcM_, uint32_t srcK_, uint32_t srcSize_, uint32_t outMaxM_, uint32_t outMaxK_, uint32_t outMaxSize_, uint32_t splitM_, uint32_t splitK_, uint32_t splitSize_, uint32_t reduceM_, uint32_t reduceK_, uint32_t reduceSize_, uint32_t rangeM_, uint32_t tailM_, uint32_t tailSplitSize_, uint32_t tailReduceSize_) : srcM(srcM_), srcK(srcK_), srcSize(srcSize_), outMaxM(outMaxM_), outMaxK(outMaxK_), outMaxSize(outMaxSize_), splitM(splitM_), splitK(splitK_), splitSize(splitSize_), reduceM(reduceM_), reduceK(reduceK_), reduceSize(reduceSize_), rangeM(rangeM_), tailM(tailM_), tailSplitSize(tailSplitSize_), tailReduceSize(tailReduceSize_) {}
#ifdef ACLSIM_STRUCT_EXTRA_SoftMaxTiling
    ACLSIM_STRUCT_EXTRA_SoftMaxTiling
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::SoftMaxTiling> { static constexpr int value = 7; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_SoftMaxShapeInfo(X) X(uint32_t, srcM) X(uint32_t, srcK) X(uint32_t, oriSrcM) X(uint32_t, oriSrcK)
struct SoftMaxShapeInfo {
    uint32_t srcM = 0;
    uint32_t srcK = 0;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
    __aicore__ SoftMaxShapeInfo() = default;
    __aicore__ SoftMaxShapeInfo(uint32_t srcM_, uint32_t srcK_, uint32_t oriSrcM_, uint32_t oriSrcK_) : srcM(srcM_), srcK(srcK_), oriSrcM(oriSrcM_), oriSrcK(oriSrcK_) {}
#ifdef ACLSIM_STRUCT_EXTRA_SoftMaxShapeInfo
    ACLSIM_STRUCT_EXTRA_SoftMaxShapeInfo
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::SoftMaxShapeInfo> { static constexpr int value = 8; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_LayerNormTiling(X) X(uint32_t, bLength) X(uint32_t, sLength) X(uint32_t, hLength) X(uint32_t, originalHLength) X(uint32_t, inputXSize) X(uint32_t, meanVarSize) X(uint32_t, numberOfTmpBuf) X(uint32_t, meanTmpTensorPos) X(uint32_t, meanTmpTensorSize) X(uint32_t, varianceTmpTensorPos) X(uint32_t, varianceTmpTensorSize) X(uint32_t, tmpBufSize) X(uint32_t, oneTmpSize) X(uint32_t, firstTmpStartPos) X(uint32_t, secondTmpStartPos) X(uint32_t, thirdTmpStartPos) X(uint32_t, loopRound) X(uint32_t, inputRoundSize) X(uint32_t, inputTailSize) X(uint32_t, inputTailPos) X(uint32_t, meanVarRoundSize) X(uint32_t, meanVarTailSize) X(uint32_t, meanVarTailPos) X(uint32_t, bshCurLength) X(uint32_t, bsCurLength) X(float, lastDimValueBack)
struct LayerNormTiling {
    uint32_t bLength = 0;
    uint32_t sLength = 0;
    uint32_t hLength = 0;
    uint32_t originalHLength = 0;
    uint32_t inputXSize = 0;
    uint32_t meanVarSize = 0;
    uint32_t numberOfTmpBuf = 0;
    uint32_t meanTmpTensorPos = 0;
    uint32_t meanTmpTensorSize = 0;
    uint32_t varianceTmpTensorPos = 0;
    uint32_t varianceTmpTensorSize = 0;
    uint32_t tmpBufSize = 0;
    uint32_t oneTmpSize = 0;
    uint32_t firstTmpStartPos = 0;
    uint32_t secondTmpStartPos = 0;
    uint32_t thirdTmpStartPos = 0;
    uint32_t loopRound = 0;
    uint32_t inputRoundSize = 0;
    uint32_t inputTailSize = 0;
    uint32_t inputTailPos = 0;
    uint32_t meanVarRoundSize = 0;
    uint32_t meanVarTailSize = 0;
    uint32_t meanVarTailPos = 0;
    uint32_t bshCurLength = 0;
    uint32_t bsCurLength = 0;
    float lastDimValueBack = 0;
    __aicore__ LayerNormTiling() = default;
    __aicore__ LayerNormTiling(uint32_t bLength_, uint32_t sLength_, uint32_t hLength_, uint32_t originalHLength_, uint32_t inputXSize_, uint32_t meanVarSize_, uint32_t numberOfTmpBuf_, uint32_t meanTmpTensorPos_, uint32_t meanTmpTensorSize_, uint32_t varianceTmpTensorPos_, uint32_t varianceTmpTensorSize_, uint32_t tmpBufSize_, uint32_t oneTmpSize_, uint32_t firstTmpStartPos_, uint32_t secondTmpStartPos_, uint32_t thirdTmpStartPos_, uint32_t loopRound_, uint32_t inputRoundSize_, uint32_t inputTailSize_, uint32_t inputTailPos_, uint32_t meanVarRoundSize_, uint32_t meanVarTailSize_, uint32_t meanVarTailPos_, uint32_t bshCurLength_, uint32_t bsCurLength_, float lastDimValueBack_) : bLength(bLength_), sLength(sLength_), hLength(hLength_), originalHLength(originalHLength_), inputXSize(inputXSize_), meanVarSize(meanVarSize_), numberOfTmpBuf(numberOfTmpBuf_), meanTmpTensorPos(meanTmpTensorPos_), meanTmpTensorSize(meanTmpTensorSize_), varianceTmpTensorPos(varianceTmpTensorPos_), varianceTmpTensorSize(varianceTmpTensorSize_), tmpBufSize(tmpBufSize_), oneTmpSize(oneTmpSize_), firstTmpStartPos(firstTmpStartPos_), secondTmpStartPos(secondTmpStartPos_), thirdTmpStartPos(thirdTmpStartPos_), loopRound(loopRound_), inputRoundSize(inputRoundSize_), inputTailSize(inputTailSize_), inputTailPos(inputTailPos_), meanVarRoundSize(meanVarRoundSize_), meanVarTailSize(meanVarTailSize_), meanVarTailPos(meanVarTailPos_), bshCurLength(bshCurLength_), bsCurLength(bsCurLength_), lastDimValueBack(lastDimValueBack_) {}
#ifdef ACLSIM_STRUCT_EXTRA_LayerNormTiling
    ACLSIM_STRUCT_EXTRA_LayerNormTiling
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::LayerNormTiling> { static constexpr int value = 9; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_MrgSort4Info(X) X(uint16_t[4], elementLengths) X(bool, ifExhaustedSuspension) X(uint16_t, validBit) X(uint16_t, repeatTimes)
struct MrgSort4Info {
    uint16_t elementLengths[4] = {};
    bool ifExhaustedSuspension = false;
    uint16_t validBit = 15;
    uint16_t repeatTimes = 1;
    __aicore__ MrgSort4Info() = default;
    __aicore__ MrgSort4Info(const uint16_t elementLengths_[4], bool ifExhaustedSuspension_, uint16_t validBit_, uint16_t repeatTimes_) : ifExhaustedSuspension(ifExhaustedSuspension_), validBit(validBit_), repeatTimes(repeatTimes_) { for (int i = 0; i < 4; ++i) { elementLengths[i] = elementLengths_[i]; } }
#ifdef ACLSIM_STRUCT_EXTRA_MrgSort4Info
    ACLSIM_STRUCT_EXTRA_MrgSort4Info
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::MrgSort4Info> { static constexpr int value = 10; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class MaskMode : int32_t {
    NORMAL = 0,
    COUNTER = 1
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::MaskMode> { static constexpr int value = 9; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_DataCopyPadParams(X) X(bool, isPad) X(uint8_t, leftPadding) X(uint8_t, rightPadding) X(uint64_t, paddingValue)
struct DataCopyPadParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
    __aicore__ DataCopyPadParams() = default;
    __aicore__ DataCopyPadParams(bool isPad_, uint8_t leftPadding_, uint8_t rightPadding_, uint64_t paddingValue_) : isPad(isPad_), leftPadding(leftPadding_), rightPadding(rightPadding_), paddingValue(paddingValue_) {}
#ifdef ACLSIM_STRUCT_EXTRA_DataCopyPadParams
    ACLSIM_STRUCT_EXTRA_DataCopyPadParams
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::DataCopyPadParams> { static constexpr int value = 11; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class CacheMode : int32_t {
    CACHE_MODE_DISABLE = 0,
    CACHE_MODE_NORMAL = 1,
    CACHE_MODE_PERSISTENT = 4
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::CacheMode> { static constexpr int value = 10; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class CacheRwMode : int32_t {
    READ = 1,
    WRITE = 2,
    RW = 3
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::CacheRwMode> { static constexpr int value = 11; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class CubeFormat : int32_t {
    ND = 0,
    NZ = 1,
    ZN = 2,
    ZZ = 3,
    NN = 4,
    ND_ALIGN = 5,
    SCALAR = 6,
    VECTOR = 7
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::CubeFormat> { static constexpr int value = 12; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class LayoutMode : int32_t {
    NONE = 0,
    BSNGD = 1,
    SBNGD = 2,
    BNGS1S2 = 3,
    NORMAL = 4
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::LayoutMode> { static constexpr int value = 13; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class DataType : int32_t {
    DT_FLOAT = 0,
    DT_FLOAT16 = 1,
    DT_INT8 = 2,
    DT_INT32 = 3,
    DT_BFLOAT16 = 27,
    DT_INT4 = 29
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::DataType> { static constexpr int value = 14; };
} }  // namespace aclsim::detail
namespace AscendC {

enum QuantMode_t : int32_t {
    NoQuant = 0,
    F322F16 = 1,
    F322BF16 = 2,
    DEQF16 = 3,
    VDEQF16 = 4,
    QF322B8_PRE = 5,
    VQF322B8_PRE = 6,
    REQ8 = 7,
    VREQ8 = 8
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::QuantMode_t> { static constexpr int value = 15; };
} }  // namespace aclsim::detail
namespace AscendC {

enum BlockMode : int32_t {
    BLOCK_MODE_NORMAL = 0,
    BLOCK_MODE_MATRIX = 1,
    BLOCK_MODE_VECTOR = 2,
    BLOCK_MODE_SMALL_CHANNEL = 3,
    BLOCK_MODE_DEPTHWISE = 4
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::BlockMode> { static constexpr int value = 16; };
} }  // namespace aclsim::detail
namespace AscendC {

enum DeqScale : int32_t {
    DEQ_NONE = 0,
    DEQ = 1,
    VDEQ = 2,
    DEQ8 = 3,
    VDEQ8 = 4,
    DEQ16 = 5,
    VDEQ16 = 6
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::DeqScale> { static constexpr int value = 17; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class CO2Layout : int32_t {
    NZ = 0,
    ROW_MAJOR = 1,
    COLUMN_MAJOR = 2
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::CO2Layout> { static constexpr int value = 18; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class MatrixTraverse : int32_t {
    NOSET = 0,
    FIRSTM = 1,
    FIRSTN = 2
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::MatrixTraverse> { static constexpr int value = 19; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_Nd2NzParams(X) X(uint16_t, ndNum) X(uint16_t, nValue) X(uint16_t, dValue) X(uint16_t, srcNdMatrixStride) X(uint16_t, srcDValue) X(uint16_t, dstNzC0Stride) X(uint16_t, dstNzNStride) X(uint16_t, dstNzMatrixStride)
struct Nd2NzParams {
    uint16_t ndNum = 1;
    uint16_t nValue = 0;
    uint16_t dValue = 0;
    uint16_t srcNdMatrixStride = 0;
    uint16_t srcDValue = 0;
    uint16_t dstNzC0Stride = 0;
    uint16_t dstNzNStride = 1;
    uint16_t dstNzMatrixStride = 0;
    __aicore__ Nd2NzParams() = default;
    __aicore__ Nd2NzParams(uint16_t ndNum_, uint16_t nValue_, uint16_t dValue_, uint16_t srcNdMatrixStride_, uint16_t srcDValue_, uint16_t dstNzC0Stride_, uint16_t dstNzNStride_, uint16_t dstNzMatrixStride_) : ndNum(ndNum_), nValue(nValue_), dValue(dValue_), srcNdMatrixStride(srcNdMatrixStride_), srcDValue(srcDValue_), dstNzC0Stride(dstNzC0Stride_), dstNzNStride(dstNzNStride_), dstNzMatrixStride(dstNzMatrixStride_) {}
#ifdef ACLSIM_STRUCT_EXTRA_Nd2NzParams
    ACLSIM_STRUCT_EXTRA_Nd2NzParams
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::Nd2NzParams> { static constexpr int value = 12; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_LoadData2DParams(X) X(uint16_t, startIndex) X(uint8_t, repeatTimes) X(uint16_t, srcStride) X(uint8_t, sid) X(uint16_t, dstGap) X(bool, ifTranspose) X(uint8_t, addrMode)
struct LoadData2DParams {
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 1;
    uint16_t srcStride = 1;
    uint8_t sid = 0;
    uint16_t dstGap = 0;
    bool ifTranspose = false;
    uint8_t addrMode = 0;
    __aicore__ LoadData2DParams() = default;
    __aicore__ LoadData2DParams(uint16_t startIndex_, uint8_t repeatTimes_, uint16_t srcStride_, uint8_t sid_, uint16_t dstGap_, bool ifTranspose_, uint8_t addrMode_) : startIndex(startIndex_), repeatTimes(repeatTimes_), srcStride(srcStride_), sid(sid_), dstGap(dstGap_), ifTranspose(ifTranspose_), addrMode(addrMode_) {}
#ifdef ACLSIM_STRUCT_EXTRA_LoadData2DParams
    ACLSIM_STRUCT_EXTRA_LoadData2DParams
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::LoadData2DParams> { static constexpr int value = 13; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_MmadParams(X) X(uint16_t, m) X(uint16_t, n) X(uint16_t, k) X(bool, isBias) X(int32_t, fmOffset) X(bool, enSsparse) X(bool, enWinogradA) X(bool, enWinogradB) X(uint8_t, unitFlag) X(bool, kDirectionAlign) X(bool, cmatrixSource) X(bool, cmatrixInitVal)
struct MmadParams {
    uint16_t m = 0;
    uint16_t n = 0;
    uint16_t k = 0;
    bool isBias = false;
    int32_t fmOffset = 0;
    bool enSsparse = false;
    bool enWinogradA = false;
    bool enWinogradB = false;
    uint8_t unitFlag = 0;
    bool kDirectionAlign = false;
    bool cmatrixSource = false;
    bool cmatrixInitVal = true;
    __aicore__ MmadParams() = default;
    __aicore__ MmadParams(uint16_t m_, uint16_t n_, uint16_t k_, bool isBias_, int32_t fmOffset_, bool enSsparse_, bool enWinogradA_, bool enWinogradB_, uint8_t unitFlag_, bool kDirectionAlign_, bool cmatrixSource_, bool cmatrixInitVal_) : m(m_), n(n_), k(k_), isBias(isBias_), fmOffset(fmOffset_), enSsparse(enSsparse_), enWinogradA(enWinogradA_), enWinogradB(enWinogradB_), unitFlag(unitFlag_), kDirectionAlign(kDirectionAlign_), cmatrixSource(cmatrixSource_), cmatrixInitVal(cmatrixInitVal_) {}
#ifdef ACLSIM_STRUCT_EXTRA_MmadParams
    ACLSIM_STRUCT_EXTRA_MmadParams
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::MmadParams> { static constexpr int value = 14; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_FixpipeParamsV220(X) X(uint16_t, nSize) X(uint16_t, mSize) X(uint16_t, srcStride) X(uint32_t, dstStride) X(bool, reluEn) X(QuantMode_t, quantPre) X(uint64_t, deqScalar) X(uint16_t, ndNum) X(uint16_t, srcNdStride) X(uint16_t, dstNdStride) X(uint8_t, unitFlag)
struct FixpipeParamsV220 {
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint16_t srcStride = 0;
    uint32_t dstStride = 0;
    bool reluEn = false;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint16_t dstNdStride = 0;
    uint8_t unitFlag = 0;
    __aicore__ FixpipeParamsV220() = default;
    __aicore__ FixpipeParamsV220(uint16_t nSize_, uint16_t mSize_, uint16_t srcStride_, uint32_t dstStride_, bool reluEn_, QuantMode_t quantPre_, uint64_t deqScalar_, uint16_t ndNum_, uint16_t srcNdStride_, uint16_t dstNdStride_, uint8_t unitFlag_) : nSize(nSize_), mSize(mSize_), srcStride(srcStride_), dstStride(dstStride_), reluEn(reluEn_), quantPre(quantPre_), deqScalar(deqScalar_), ndNum(ndNum_), srcNdStride(srcNdStride_), dstNdStride(dstNdStride_), unitFlag(unitFlag_) {}
#ifdef ACLSIM_STRUCT_EXTRA_FixpipeParamsV220
    ACLSIM_STRUCT_EXTRA_FixpipeParamsV220
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::FixpipeParamsV220> { static constexpr int value = 15; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_DataCopyEnhancedParams(X) X(BlockMode, blockMode) X(DeqScale, deqScale) X(uint64_t, deqValue) X(uint8_t, sidStoreMode) X(bool, isRelu) X(uint8_t, padMode) X(uint64_t, padValue) X(uint64_t, deqTensorAddr)
struct DataCopyEnhancedParams {
    BlockMode blockMode = BlockMode::BLOCK_MODE_NORMAL;
    DeqScale deqScale = DeqScale::DEQ_NONE;
    uint64_t deqValue = 0;
    uint8_t sidStoreMode = 0;
    bool isRelu = false;
    uint8_t padMode = 0;
    uint64_t padValue = 0;
    uint64_t deqTensorAddr = 0;
    __aicore__ DataCopyEnhancedParams() = default;
    __aicore__ DataCopyEnhancedParams(BlockMode blockMode_, DeqScale deqScale_, uint64_t deqValue_, uint8_t sidStoreMode_, bool isRelu_, uint8_t padMode_, uint64_t padValue_, uint64_t deqTensorAddr_) : blockMode(blockMode_), deqScale(deqScale_), deqValue(deqValue_), sidStoreMode(sidStoreMode_), isRelu(isRelu_), padMode(padMode_), padValue(padValue_), deqTensorAddr(deqTensorAddr_) {}
#ifdef ACLSIM_STRUCT_EXTRA_DataCopyEnhancedParams
    ACLSIM_STRUCT_EXTRA_DataCopyEnhancedParams
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::DataCopyEnhancedParams> { static constexpr int value = 16; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_TCubeTiling(X) X(int32_t, usedCoreNum) X(int32_t, M) X(int32_t, N) X(int32_t, Ka) X(int32_t, Kb) X(int32_t, singleCoreM) X(int32_t, singleCoreN) X(int32_t, singleCoreK) X(int32_t, baseM) X(int32_t, baseN) X(int32_t, baseK) X(int32_t, depthA1) X(int32_t, depthB1) X(int32_t, stepM) X(int32_t, stepN) X(int32_t, isBias) X(int32_t, transLength) X(int32_t, iterateOrder) X(int32_t, shareMode) X(int32_t, shareL1Size) X(int32_t, shareL0CSize) X(int32_t, shareUbSize) X(int32_t, batchM) X(int32_t, batchN) X(int32_t, singleBatchM) X(int32_t, singleBatchN) X(int32_t, stepKa) X(int32_t, stepKb) X(int32_t, depthAL1CacheUB) X(int32_t, depthBL1CacheUB) X(int32_t, dbL0A) X(int32_t, dbL0B) X(int32_t, dbL0C)
struct TCubeTiling {
    int32_t usedCoreNum = 0;
    int32_t M = 0;
    int32_t N = 0;
    int32_t Ka = 0;
    int32_t Kb = 0;
    int32_t singleCoreM = 0;
    int32_t singleCoreN = 0;
    int32_t singleCoreK = 0;
    int32_t baseM = 0;
    int32_t baseN = 0;
    int32_t baseK = 0;
    int32_t depthA1 = 0;
    int32_t depthB1 = 0;
    int32_t stepM = 0;
    int32_t stepN = 0;
    int32_t isBias = 0;
    int32_t transLength = 0;
    int32_t iterateOrder = 0;
    int32_t shareMode = 0;
    int32_t shareL1Size = 0;
    int32_t shareL0CSize = 0;
    int32_t shareUbSize = 0;
    int32_t batchM = 0;
    int32_t batchN = 0;
    int32_t singleBatchM = 0;
    int32_t singleBatchN = 0;
    int32_t stepKa = 0;
    int32_t stepKb = 0;
    int32_t depthAL1CacheUB = 0;
    int32_t depthBL1CacheUB = 0;
    int32_t dbL0A = 0;
    int32_t dbL0B = 0;
    int32_t dbL0C = 0;
    __aicore__ TCubeTiling() = default;
    __aicore__ TCubeTiling(int32_t usedCoreNum_, int32_t M_, int32_t N_, int32_t Ka_, int32_t Kb_, int32_t singleCoreM_, int32_t singleCoreN_, int32_t singleCoreK_, int32_t baseM_, int32_t baseN_, int32_t baseK_, int32_t depthA1_, int32_t depthB1_, int32_t stepM_, int32_t stepN_, int32_t isBias_, int32_t transLength_, int32_t iterateOrder_, int32_t shareMode_, int32_t shareL1Size_, int32_t shareL0CSize_, int32_t shareUbSize_, int32_t batchM_, int32_t batchN_, int32_t singleBatchM_, int32_t singleBatchN_, int32_t stepKa_, int32_t stepKb_, int32_t depthAL1CacheUB_, int32_t depthBL1CacheUB_, int32_t dbL0A_, int32_t dbL0B_, int32_t dbL0C_) : usedCoreNum(usedCoreNum_), M(M_), N(N_), Ka(Ka_), Kb(Kb_), singleCoreM(singleCoreM_), singleCoreN(singleCoreN_), singleCoreK(singleCoreK_), baseM(baseM_), baseN(baseN_), baseK(baseK_), depthA1(depthA1_), depthB1(depthB1_), stepM(stepM_), stepN(stepN_), isBias(isBias_), transLength(transLength_), iterateOrder(iterateOrder_), shareMode(shareMode_), shareL1Size(shareL1Size_), shareL0CSize(shareL0CSize_), shareUbSize(shareUbSize_), batchM(batchM_), batchN(batchN_), singleBatchM(singleBatchM_), singleBatchN(singleBatchN_), stepKa(stepKa_), stepKb(stepKb_), depthAL1CacheUB(depthAL1CacheUB_), depthBL1CacheUB(depthBL1CacheUB_), dbL0A(dbL0A_), dbL0B(dbL0B_), dbL0C(dbL0C_) {}
#ifdef ACLSIM_STRUCT_EXTRA_TCubeTiling
    ACLSIM_STRUCT_EXTRA_TCubeTiling
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::TCubeTiling> { static constexpr int value = 17; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_FixpipeConfig(X) X(CO2Layout, format) X(bool, isToUB)
struct FixpipeConfig {
    CO2Layout format = CO2Layout::ROW_MAJOR;
    bool isToUB = false;
    __aicore__ FixpipeConfig() = default;
    __aicore__ FixpipeConfig(CO2Layout format_, bool isToUB_) : format(format_), isToUB(isToUB_) {}
#ifdef ACLSIM_STRUCT_EXTRA_FixpipeConfig
    ACLSIM_STRUCT_EXTRA_FixpipeConfig
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::FixpipeConfig> { static constexpr int value = 18; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class SaturationMode : uint8_t {
    FLOAT = 0,
    CAST = 1
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::SaturationMode> { static constexpr int value = 20; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class DeQuantMode : int32_t {
    DEQUANT_WITH_SINGLE_ROW = 0,
    DEQUANT_WITH_MULTI_ROW = 1
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::DeQuantMode> { static constexpr int value = 21; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_DequantParams(X) X(uint32_t, m) X(uint32_t, n) X(uint32_t, calCount)
struct DequantParams {
    uint32_t m = 0;
    uint32_t n = 0;
    uint32_t calCount = 0;
    __aicore__ DequantParams() = default;
    __aicore__ DequantParams(uint32_t m_, uint32_t n_, uint32_t calCount_) : m(m_), n(n_), calCount(calCount_) {}
#ifdef ACLSIM_STRUCT_EXTRA_DequantParams
    ACLSIM_STRUCT_EXTRA_DequantParams
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::DequantParams> { static constexpr int value = 19; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class TransposeType : uint8_t {
    TRANSPOSE_TYPE_NONE = 0,
    TRANSPOSE_NZ2ND_0213 = 1,
    TRANSPOSE_NZ2NZ_0213 = 2,
    TRANSPOSE_NZ2NZ_012_WITH_N = 3,
    TRANSPOSE_NZ2ND_012_WITH_N = 4,
    TRANSPOSE_NZ2ND_012_WITHOUT_N = 5,
    TRANSPOSE_NZ2NZ_012_WITHOUT_N = 6,
    TRANSPOSE_ND2ND_ONLY = 7,
    TRANSPOSE_ND_UB_GM = 8,
    TRANSPOSE_GRAD_ND_UB_GM = 9,
    TRANSPOSE_ND2ND_B16 = 10,
    TRANSPOSE_NCHW2NHWC = 11,
    TRANSPOSE_NHWC2NCHW = 12
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::TransposeType> { static constexpr int value = 22; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_TransposeParamsExt(X) X(uint16_t, nSize) X(uint16_t, cSize) X(uint16_t, hSize) X(uint16_t, wSize) X(TransposeType, transposeType)
struct TransposeParamsExt {
    uint16_t nSize = 0;
    uint16_t cSize = 0;
    uint16_t hSize = 0;
    uint16_t wSize = 0;
    TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
    __aicore__ TransposeParamsExt() = default;
    __aicore__ TransposeParamsExt(uint16_t nSize_, uint16_t cSize_, uint16_t hSize_, uint16_t wSize_, TransposeType transposeType_) : nSize(nSize_), cSize(cSize_), hSize(hSize_), wSize(wSize_), transposeType(transposeType_) {}
#ifdef ACLSIM_STRUCT_EXTRA_TransposeParamsExt
    ACLSIM_STRUCT_EXTRA_TransposeParamsExt
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::TransposeParamsExt> { static constexpr int value = 20; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class CacheLine : int32_t {
    SINGLE_CACHE_LINE = 0,
    ENTIRE_DATA_CACHE = 1
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::CacheLine> { static constexpr int value = 23; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class DcciDst : int32_t {
    CACHELINE_ALL = 0,
    CACHELINE_UB = 1,
    CACHELINE_OUT = 2,
    CACHELINE_ATOMIC = 3
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::DcciDst> { static constexpr int value = 24; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class Hardware : uint8_t {
    GM = 0,
    UB = 1,
    L1 = 2,
    L0A = 3,
    L0B = 4,
    L0C = 5,
    BIAS = 6,
    FIXBUF = 7,
    MAX = 8
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::Hardware> { static constexpr int value = 25; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class FmatrixMode : uint8_t {
    FMATRIX_LEFT = 0,
    FMATRIX_RIGHT = 1
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::FmatrixMode> { static constexpr int value = 26; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class QuantMode : int32_t {
    NoQuant = 0,
    F322F16 = 1,
    F322BF16 = 2,
    DEQF16 = 3,
    VDEQF16 = 4,
    QF322B8_PRE = 5,
    VQF322B8_PRE = 6,
    REQ8 = 7,
    VREQ8 = 8
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::QuantMode> { static constexpr int value = 27; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class HF32Mode : int32_t {
    DISABLE = 0,
    ENABLE = 1
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::HF32Mode> { static constexpr int value = 28; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class HF32TransMode : int32_t {
    NEAREST_EVEN = 0,
    NEAREST_ZERO = 1
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::HF32TransMode> { static constexpr int value = 29; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_LoadData2dTransposeParams(X) X(uint16_t, startIndex) X(uint8_t, repeatTimes) X(uint16_t, srcStride) X(uint16_t, dstGap) X(uint16_t, dstFracGap) X(uint8_t, addrMode)
struct LoadData2dTransposeParams {
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint16_t dstGap = 0;
    uint16_t dstFracGap = 0;
    uint8_t addrMode = 0;
    __aicore__ LoadData2dTransposeParams() = default;
    __aicore__ LoadData2dTransposeParams(uint16_t startIndex_, uint8_t repeatTimes_, uint16_t srcStride_, uint16_t dstGap_, uint16_t dstFracGap_, uint8_t addrMode_) : startIndex(startIndex_), repeatTimes(repeatTimes_), srcStride(srcStride_), dstGap(dstGap_), dstFracGap(dstFracGap_), addrMode(addrMode_) {}
#ifdef ACLSIM_STRUCT_EXTRA_LoadData2dTransposeParams
    ACLSIM_STRUCT_EXTRA_LoadData2dTransposeParams
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::LoadData2dTransposeParams> { static constexpr int value = 21; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_DataCopyCO12DstParams(X) X(uint16_t, nSize) X(uint16_t, mSize) X(uint32_t, dstStride) X(uint16_t, srcStride) X(QuantMode_t, quantPre) X(uint8_t, reluPre) X(bool, channelSplit) X(bool, nz2ndEn) X(uint8_t, sid) X(uint8_t, unitFlag) X(uint8_t, clipReluPre) X(uint8_t, eltWiseOp)
struct DataCopyCO12DstParams {
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint32_t dstStride = 0;
    uint16_t srcStride = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint8_t reluPre = 0;
    bool channelSplit = false;
    bool nz2ndEn = false;
    uint8_t sid = 0;
    uint8_t unitFlag = 0;
    uint8_t clipReluPre = 0;
    uint8_t eltWiseOp = 0;
    __aicore__ DataCopyCO12DstParams() = default;
    __aicore__ DataCopyCO12DstParams(uint16_t nSize_, uint16_t mSize_, uint32_t dstStride_, uint16_t srcStride_, QuantMode_t quantPre_, uint8_t reluPre_, bool channelSplit_, bool nz2ndEn_, uint8_t sid_, uint8_t unitFlag_, uint8_t clipReluPre_, uint8_t eltWiseOp_) : nSize(nSize_), mSize(mSize_), dstStride(dstStride_), srcStride(srcStride_), quantPre(quantPre_), reluPre(reluPre_), channelSplit(channelSplit_), nz2ndEn(nz2ndEn_), sid(sid_), unitFlag(unitFlag_), clipReluPre(clipReluPre_), eltWiseOp(eltWiseOp_) {}
#ifdef ACLSIM_STRUCT_EXTRA_DataCopyCO12DstParams
    ACLSIM_STRUCT_EXTRA_DataCopyCO12DstParams
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::DataCopyCO12DstParams> { static constexpr int value = 22; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class BatchMode : int32_t {
    NONE = 0,
    BATCH_LESS_THAN_L1 = 1,
    BATCH_LARGE_THAN_L1 = 2,
    SINGLE_LARGE_THAN_L1 = 3
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::BatchMode> { static constexpr int value = 30; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class IterateOrder : int32_t {
    ORDER_M = 0,
    ORDER_N = 1,
    UNDEF = 2
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::IterateOrder> { static constexpr int value = 31; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class ScheduleType : int32_t {
    INNER_PRODUCT = 0,
    OUTER_PRODUCT = 1
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::ScheduleType> { static constexpr int value = 32; };
} }  // namespace aclsim::detail
namespace AscendC {

enum IterateMode : uint8_t {
    ITERATE_MODE_NORMAL = 1,
    ITERATE_MODE_ALL = 2,
    ITERATE_MODE_BATCH = 4,
    ITERATE_MODE_N_BATCH = 8,
    ITERATE_MODE_DEFAULT = 255
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::IterateMode> { static constexpr int value = 33; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class MatmulConfigMode : int32_t {
    CONFIG_NORM = 0,
    CONFIG_MDL = 1,
    CONFIG_SPECIALMDL = 2,
    CONFIG_IBSHARE = 3
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::MatmulConfigMode> { static constexpr int value = 34; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_MatmulConfig(X) X(bool, doNorm) X(bool, doBasicBlock) X(bool, doMultiDataLoad) X(uint32_t, basicM) X(uint32_t, basicN) X(uint32_t, basicK) X(bool, intrinsicsCheck) X(bool, isNBatch) X(bool, enVecND2NZ) X(bool, doSpecialBasicBlock) X(uint32_t, doMTE2Preload) X(uint32_t, singleCoreM) X(uint32_t, singleCoreN) X(uint32_t, singleCoreK) X(uint32_t, stepM) X(uint32_t, stepN) X(uint32_t, baseMN) X(uint32_t, singleCoreMN) X(bool, enUnitFlag) X(bool, isPerTensor) X(bool, hasAntiQuantOffset) X(bool, doIBShareNorm) X(bool, doSpecialMDL) X(bool, enableInit) X(BatchMode, batchMode) X(bool, enableEnd) X(bool, enableGetTensorC) X(bool, enableSetOrgShape) X(bool, enableSetBias) X(bool, enableSetTail) X(bool, enableQuantVector) X(bool, enableSetDefineData) X(uint8_t, iterateMode) X(bool, enableReuse) X(bool, enableUBReuse) X(bool, enableL1CacheUB) X(bool, intraBlockPartSum) X(IterateOrder, iterateOrder) X(ScheduleType, scheduleType) X(bool, enableDoubleCache) X(bool, isBiasBatch) X(bool, enableStaticPadZeros) X(bool, isPartialOutput) X(bool, enableMixDualMaster) X(bool, isA2B2Shared) X(bool, isEnableChannelSplit) X(bool, enableKdimReorderLoad) X(bool, isCo1Shared)
struct MatmulConfig {
    bool doNorm = true;
    bool doBasicBlock = false;
    bool doMultiDataLoad = false;
    uint32_t basicM = 0;
    uint32_t basicN = 0;
    uint32_t basicK = 0;
    bool intrinsicsCheck = false;
    bool isNBatch = false;
    bool enVecND2NZ = false;
    bool doSpecialBasicBlock = false;
    uint32_t doMTE2Preload = 0;
    uint32_t singleCoreM = 0;
    uint32_t singleCoreN = 0;
    uint32_t singleCoreK = 0;
    uint32_t stepM = 0;
    uint32_t stepN = 0;
    uint32_t baseMN = 0;
    uint32_t singleCoreMN = 0;
    bool enUnitFlag = true;
    bool isPerTensor = false;
    bool hasAntiQuantOffset = false;
    bool doIBShareNorm = false;
    bool doSpecialMDL = false;
    bool enableInit = true;
    BatchMode batchMode = BatchMode::NONE;
    bool enableEnd = true;
    bool enableGetTensorC = true;
    bool enableSetOrgShape = true;
    bool enableSetBias = true;
    bool enableSetTail = true;
    bool enableQuantVector = true;
    bool enableSetDefineData = true;
    uint8_t iterateMode = 255;
    bool enableReuse = true;
    bool enableUBReuse = false;
    bool enableL1CacheUB = false;
    bool intraBlockPartSum = false;
    IterateOrder iterateOrder = IterateOrder::UNDEF;
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
    bool enableDoubleCache = false;
    bool isBiasBatch = true;
    bool enableStaticPadZeros = false;
    bool isPartialOutput = false;
    bool enableMixDualMaster = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
    bool isCo1Shared = false;
    __aicore__ MatmulConfig() = default;
    __aicore__ MatmulConfig(bool doNorm_, bool doBasicBlock_, bool doMultiDataLoad_, uint32_t basicM_, uint32_t basicN_, uint32_t basicK_, bool intrinsicsCheck_, bool isNBatch_, bool enVecND2NZ_, bool doSpecialBasicBlock_, uint32_t doMTE2Preload_, uint32_t singleCoreM_, uint32_t singleCoreN_, uint32_t singleCoreK_, uint32_t stepM_, uint32_t stepN_, uint32_t baseMN_, uint32_t singleCoreMN_, bool enUnitFlag_, bool isPerTensor_, bool hasAntiQuantOffset_, bool doIBShareNorm_, bool doSpecialMDL_, bool enableInit_, BatchMode batchMode_, bool enableEnd_, bool enableGetTensorC_, bool enableSetOrgShape_, bool enableSetBias_, bool enableSetTail_, bool enableQuantVector_, bool enableSetDefineData_, uint8_t iterateMode_, bool enableReuse_, bool enableUBReuse_, bool enableL1CacheUB_, bool intraBlockPartSum_, IterateOrder iterateOrder_, ScheduleType scheduleType_, bool enableDoubleCache_, bool isBiasBatch_, bool enableStaticPadZeros_, bool isPartialOutput_, bool enableMixDualMaster_, bool isA2B2Shared_, bool isEnableChannelSplit_, bool enableKdimReorderLoad_, bool isCo1Shared_) : doNorm(doNorm_), doBasicBlock(doBasicBlock_), doMultiDataLoad(doMultiDataLoad_), basicM(basicM_), basicN(basicN_), basicK(basicK_), intrinsicsCheck(intrinsicsCheck_), isNBatch(isNBatch_), enVecND2NZ(enVecND2NZ_), doSpecialBasicBlock(doSpecialBasicBlock_), doMTE2Preload(doMTE2Preload_), singleCoreM(singleCoreM_), singleCoreN(singleCoreN_), singleCoreK(singleCoreK_), stepM(stepM_), stepN(stepN_), baseMN(baseMN_), singleCoreMN(singleCoreMN_), enUnitFlag(enUnitFlag_), isPerTensor(isPerTensor_), hasAntiQuantOffset(hasAntiQuantOffset_), doIBShareNorm(doIBShareNorm_), doSpecialMDL(doSpecialMDL_), enableInit(enableInit_), batchMode(batchMode_), enableEnd(enableEnd_), enableGetTensorC(enableGetTensorC_), enableSetOrgShape(enableSetOrgShape_), enableSetBias(enableSetBias_), enableSetTail(enableSetTail_), enableQuantVector(enableQuantVector_), enableSetDefineData(enableSetDefineData_), iterateMode(iterateMode_), enableReuse(enableReuse_), enableUBReuse(enableUBReuse_), enableL1CacheUB(enableL1CacheUB_), intraBlockPartSum(intraBlockPartSum_), iterateOrder(iterateOrder_), scheduleType(scheduleType_), enableDoubleCache(enableDoubleCache_), isBiasBatch(isBiasBatch_), enableStaticPadZeros(enableStaticPadZeros_), isPartialOutput(isPartialOutput_), enableMixDualMaster(enableMixDualMaster_), isA2B2Shared(isA2B2Shared_), isEnableChannelSplit(isEnableChannelSplit_), enableKdimReorderLoad(enableKdimReorderLoad_), isCo1Shared(isCo1Shared_) {}
#ifdef ACLSIM_STRUCT_EXTRA_MatmulConfig
    ACLSIM_STRUCT_EXTRA_MatmulConfig
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::MatmulConfig> { static constexpr int value = 23; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class DataFormat : uint8_t {
    ND = 0,
    NZ = 1,
    NCHW = 2,
    NC1HWC0 = 3,
    NHWC = 4,
    NCDHW = 5,
    NDC1HWC0 = 6,
    FRACTAL_Z_3D = 7
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::DataFormat> { static constexpr int value = 35; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class DataCopyMVType : uint8_t {
    UB_TO_OUT = 0,
    OUT_TO_UB = 1
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::DataCopyMVType> { static constexpr int value = 36; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_LoopModeParams(X) X(uint32_t, loop1Size) X(uint32_t, loop2Size) X(uint64_t, loop1SrcStride) X(uint64_t, loop1DstStride) X(uint64_t, loop2SrcStride) X(uint64_t, loop2DstStride)
struct LoopModeParams {
    uint32_t loop1Size = 0;
    uint32_t loop2Size = 0;
    uint64_t loop1SrcStride = 0;
    uint64_t loop1DstStride = 0;
    uint64_t loop2SrcStride = 0;
    uint64_t loop2DstStride = 0;
    __aicore__ LoopModeParams() = default;
    __aicore__ LoopModeParams(uint32_t loop1Size_, uint32_t loop2Size_, uint64_t loop1SrcStride_, uint64_t loop1DstStride_, uint64_t loop2SrcStride_, uint64_t loop2DstStride_) : loop1Size(loop1Size_), loop2Size(loop2Size_), loop1SrcStride(loop1SrcStride_), loop1DstStride(loop1DstStride_), loop2SrcStride(loop2SrcStride_), loop2DstStride(loop2DstStride_) {}
#ifdef ACLSIM_STRUCT_EXTRA_LoopModeParams
    ACLSIM_STRUCT_EXTRA_LoopModeParams
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::LoopModeParams> { static constexpr int value = 24; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_TransDataTo5HDParams(X) X(bool, dstHighHalf) X(bool, srcHighHalf) X(uint8_t, repeatTimes) X(uint16_t, dstRepStride) X(uint16_t, srcRepStride)
struct TransDataTo5HDParams {
    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
    __aicore__ TransDataTo5HDParams() = default;
    __aicore__ TransDataTo5HDParams(bool dstHighHalf_, bool srcHighHalf_, uint8_t repeatTimes_, uint16_t dstRepStride_, uint16_t srcRepStride_) : dstHighHalf(dstHighHalf_), srcHighHalf(srcHighHalf_), repeatTimes(repeatTimes_), dstRepStride(dstRepStride_), srcRepStride(srcRepStride_) {}
#ifdef ACLSIM_STRUCT_EXTRA_TransDataTo5HDParams
    ACLSIM_STRUCT_EXTRA_TransDataTo5HDParams
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::TransDataTo5HDParams> { static constexpr int value = 25; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_LogSoftMaxTiling(X) X(uint32_t, srcM) X(uint32_t, srcK) X(uint32_t, srcSize) X(uint32_t, outMaxM) X(uint32_t, outMaxK) X(uint32_t, outMaxSize) X(uint32_t, splitM) X(uint32_t, splitK) X(uint32_t, splitSize) X(uint32_t, reduceM) X(uint32_t, reduceK) X(uint32_t, reduceSize) X(uint32_t, rangeM) X(uint32_t, tailM) X(uint32_t, tailSplitSize) X(uint32_t, tailReduceSize)
struct LogSoftMaxTiling {
    uint32_t srcM = 0;
    uint32_t srcK = 0;
    uint32_t srcSize = 0;
    uint32_t outMaxM = 0;
    uint32_t outMaxK = 0;
    uint32_t outMaxSize = 0;
    uint32_t splitM = 0;
    uint32_t splitK = 0;
    uint32_t splitSize = 0;
    uint32_t reduceM = 0;
    uint32_t reduceK = 0;
    uint32_t reduceSize = 0;
    uint32_t rangeM = 0;
    uint32_t tailM = 0;
    uint32_t tailSplitSize = 0;
    uint32_t tailReduceSize = 0;
    __aicore__ LogSoftMaxTiling() = default;
    __aicore__ LogSoftMaxTiling(uint32_t srcM_, uint32_t srcK_, uint32_t srcSize_, uint32_t outMaxM_, uint32_t outMaxK_, uint32_t outMaxSize_, uint32_t splitM_, uint32_t splitK_, uint32_t splitSize_, uint32_t reduceM_, uint32_t reduceK_, uint32_t reduceSize_, uint32_t rangeM_, uint32_t tailM_, uint32_t tailSplitSize_, uint32_t tailReduceSize_) : srcM(srcM_), srcK(srcK_), srcSize(srcSize_), outMaxM(outMaxM_), outMaxK(outMaxK_), outMaxSize(outMaxSize_), splitM(splitM_), splitK(splitK_), splitSize(splitSize_), reduceM(reduceM_), reduceK(reduceK_), reduceSize(reduceSize_), rangeM(rangeM_), tailM(tailM_), tailSplitSize(tailSplitSize_), tailReduceSize(tailReduceSize_) {}
#ifdef ACLSIM_STRUCT_EXTRA_LogSoftMaxTiling
    ACLSIM_STRUCT_EXTRA_LogSoftMaxTiling
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::LogSoftMaxTiling> { static constexpr int value = 26; };
} }  // namespace aclsim::detail
namespace AscendC {

#define ACLSIM_FIELDS_DataCopyOutParams(X) X(uint16_t, cBurstNum) X(uint16_t, burstLen) X(uint16_t, srcStride) X(uint32_t, dstStride) X(uint16_t, oriNSize) X(bool, enUnitFlag) X(int32_t, curM) X(int32_t, curN) X(uint8_t, quantMode) X(uint64_t, quantScalar) X(uint64_t, cbufWorkspaceAddr)
struct DataCopyOutParams {
    uint16_t cBurstNum = 0;
    uint16_t burstLen = 0;
    uint16_t srcStride = 0;
    uint32_t dstStride = 0;
    uint16_t oriNSize = 0;
    bool enUnitFlag = false;
    int32_t curM = 0;
    int32_t curN = 0;
    uint8_t quantMode = 0;
    uint64_t quantScalar = 0;
    uint64_t cbufWorkspaceAddr = 0;
    __aicore__ DataCopyOutParams() = default;
    __aicore__ DataCopyOutParams(uint16_t cBurstNum_, uint16_t burstLen_, uint16_t srcStride_, uint32_t dstStride_, uint16_t oriNSize_, bool enUnitFlag_, int32_t curM_, int32_t curN_, uint8_t quantMode_, uint64_t quantScalar_, uint64_t cbufWorkspaceAddr_) : cBurstNum(cBurstNum_), burstLen(burstLen_), srcStride(srcStride_), dstStride(dstStride_), oriNSize(oriNSize_), enUnitFlag(enUnitFlag_), curM(curM_), curN(curN_), quantMode(quantMode_), quantScalar(quantScalar_), cbufWorkspaceAddr(cbufWorkspaceAddr_) {}
#ifdef ACLSIM_STRUCT_EXTRA_DataCopyOutParams
    ACLSIM_STRUCT_EXTRA_DataCopyOutParams
#endif
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::DataCopyOutParams> { static constexpr int value = 27; };
} }  // namespace aclsim::detail
namespace AscendC {

constexpr int32_t ONE_BLK_SIZE = 32;
constexpr int32_t BLOCK_CUBE = 16;
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr int32_t ONE_BLK_FLOAT_NUM = 8;
constexpr int32_t ONE_BLK_HALF_NUM = 16;
constexpr int32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr int32_t HALF_DEFAULT_REPEAT_STRIDE = 4;
constexpr int32_t ONE_FOURTH_DEFAULT_REPEAT_STRIDE = 2;
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
constexpr int32_t DEFAULT_BLK_NUM = 8;
constexpr int32_t MAX_REPEAT_TIMES = 255;
constexpr int32_t ONE_BYTE_BIT_SIZE = 8;
constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;
template <typename T>
class LocalTensor;
template <typename T>
class GlobalTensor;
class TPipe;
template <TPosition pos, int32_t depth = 1>
class TQue;
template <TPosition src, TPosition dst, int32_t depth = 1>
class TQueBind;
template <TPosition pos = TPosition::VECCALC>
class TBuf;
template <TPosition aPos, CubeFormat aFmt, typename aT, bool aTrans, LayoutMode aLayout, bool aIbShare, TPosition bPos, CubeFormat bFmt, typename bT, bool bTrans, LayoutMode bLayout, bool bIbShare, TPosition cPos, CubeFormat cFmt, typename cT, LayoutMode cLayout, TPosition biasPos, CubeFormat biasFmt, typename biasT>
class MatmulObject;
class MatmulTilingHost;
template <pipe_t src, pipe_t dst>
class TQueSync;
template <Hardware hard = Hardware::UB>
class LocalMemAllocator;
template <typename T>
class TensorDesc;
class ListTensorDesc;
template <typename T>
class LocalTensor : public ::aclsim::detail::Object {
public:
    __aicore__ LocalTensor() = default;
    __aicore__ explicit LocalTensor(::aclsim::detail::Handle h) : Object(h.value) {}
#ifdef ACLSIM_CLASS_EXTRA_LocalTensor
    ACLSIM_CLASS_EXTRA_LocalTensor
#endif
    __aicore__ inline T GetValue(uint32_t index, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<T>(::aclsim::detail::call(0, aclsim_file_, aclsim_line_, *this, index)); }
    __aicore__ inline void SetValue(uint32_t index, T value, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(1, aclsim_file_, aclsim_line_, *this, index, value); }
    __aicore__ inline LocalTensor<T> operator[](uint32_t offset) const { return ::aclsim::detail::unpack<LocalTensor<T>>(::aclsim::detail::call(2, nullptr, 0, *this, offset)); }
    __aicore__ inline uint32_t GetSize(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<uint32_t>(::aclsim::detail::call(3, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline uint32_t GetLength(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<uint32_t>(::aclsim::detail::call(4, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline void SetSize(uint32_t size, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(5, aclsim_file_, aclsim_line_, *this, size); }
    template <typename U>
    __aicore__ inline LocalTensor<U> ReinterpretCast(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<LocalTensor<U>>(::aclsim::detail::call(6, aclsim_file_, aclsim_line_, *this, ::aclsim::detail::Dtype<U>{})); }
    __aicore__ inline uint64_t GetPhyAddr(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(395, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline TPosition GetPosition(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<TPosition>(::aclsim::detail::call(396, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline uint64_t GetPhyAddr(uint32_t offset, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(537, aclsim_file_, aclsim_line_, *this, offset)); }
};

template <typename T>
class GlobalTensor : public ::aclsim::detail::Object {
public:
    __aicore__ GlobalTensor(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
        : Object(::aclsim::detail::call(7, aclsim_file_, aclsim_line_, ::aclsim::detail::Dtype<T>{}).v.i) {}
    __aicore__ explicit GlobalTensor(::aclsim::detail::Handle h) : Object(h.value) {}
#ifdef ACLSIM_CLASS_EXTRA_GlobalTensor
    ACLSIM_CLASS_EXTRA_GlobalTensor
#endif
    __aicore__ inline void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(8, aclsim_file_, aclsim_line_, *this, buffer, bufferSize); }
    __aicore__ inline void SetGlobalBuffer(__gm__ T* buffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(9, aclsim_file_, aclsim_line_, *this, buffer); }
    __aicore__ inline T GetValue(uint64_t offset, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<T>(::aclsim::detail::call(10, aclsim_file_, aclsim_line_, *this, offset)); }
    __aicore__ inline void SetValue(uint64_t offset, T value, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(11, aclsim_file_, aclsim_line_, *this, offset, value); }
    __aicore__ inline GlobalTensor<T> operator[](uint64_t offset) const { return ::aclsim::detail::unpack<GlobalTensor<T>>(::aclsim::detail::call(12, nullptr, 0, *this, offset)); }
    __aicore__ inline uint64_t GetSize(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(13, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline __gm__ T* GetPhyAddr(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<__gm__ T*>(::aclsim::detail::call(14, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline __gm__ T* GetPhyAddr(uint64_t offset, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<__gm__ T*>(::aclsim::detail::call(15, aclsim_file_, aclsim_line_, *this, offset)); }
    template <CacheRwMode rwMode = CacheRwMode::RW>
    __aicore__ inline void SetL2CacheHint(CacheMode mode, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(403, aclsim_file_, aclsim_line_, *this, mode, rwMode); }
};

class TPipe : public ::aclsim::detail::Object {
public:
    __aicore__ TPipe(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
        : Object(::aclsim::detail::call(16, aclsim_file_, aclsim_line_).v.i) {}
    __aicore__ explicit TPipe(::aclsim::detail::Handle h) : Object(h.value) {}
#ifdef ACLSIM_CLASS_EXTRA_TPipe
    ACLSIM_CLASS_EXTRA_TPipe
#endif
    template <class Q>
    __aicore__ inline bool InitBuffer(Q que, uint8_t num, uint32_t len, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<bool>(::aclsim::detail::call(17, aclsim_file_, aclsim_line_, *this, que, num, len)); }
    template <class B>
    __aicore__ inline bool InitBuffer(B buf, uint32_t len, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<bool>(::aclsim::detail::call(18, aclsim_file_, aclsim_line_, *this, buf, len)); }
    __aicore__ inline void Reset(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(19, aclsim_file_, aclsim_line_, *this); }
    __aicore__ inline void Destroy(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(20, aclsim_file_, aclsim_line_, *this); }
    __aicore__ inline int32_t FetchEventID(HardEvent evt, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(21, aclsim_file_, aclsim_line_, *this, evt)); }
    template <HardEvent evt>
    __aicore__ inline int32_t FetchEventID(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(22, aclsim_file_, aclsim_line_, *this, evt)); }
    template <HardEvent evt>
    __aicore__ inline int32_t AllocEventID(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(23, aclsim_file_, aclsim_line_, *this, evt)); }
    template <HardEvent evt>
    __aicore__ inline void ReleaseEventID(int32_t id, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(24, aclsim_file_, aclsim_line_, *this, id, evt); }
};

template <TPosition pos, int32_t depth>
class TQue : public ::aclsim::detail::Object {
public:
    __aicore__ TQue(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
        : Object(::aclsim::detail::call(25, aclsim_file_, aclsim_line_, pos, depth).v.i) {}
    __aicore__ explicit TQue(::aclsim::detail::Handle h) : Object(h.value) {}
#ifdef ACLSIM_CLASS_EXTRA_TQue
    ACLSIM_CLASS_EXTRA_TQue
#endif
    template <typename T>
    __aicore__ inline LocalTensor<T> AllocTensor(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<LocalTensor<T>>(::aclsim::detail::call(26, aclsim_file_, aclsim_line_, *this, ::aclsim::detail::Dtype<T>{})); }
    template <typename T>
    __aicore__ inline bool EnQue(const LocalTensor<T>& tensor, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<bool>(::aclsim::detail::call(27, aclsim_file_, aclsim_line_, *this, tensor)); }
    template <typename T>
    __aicore__ inline LocalTensor<T> DeQue(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<LocalTensor<T>>(::aclsim::detail::call(28, aclsim_file_, aclsim_line_, *this, ::aclsim::detail::Dtype<T>{})); }
    template <typename T>
    __aicore__ inline void FreeTensor(const LocalTensor<T>& tensor, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(29, aclsim_file_, aclsim_line_, *this, tensor); }
    __aicore__ inline bool VacantInQue(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<bool>(::aclsim::detail::call(30, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline bool HasTensorInQue(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<bool>(::aclsim::detail::call(31, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline void FreeAllEvent(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(32, aclsim_file_, aclsim_line_, *this); }
    __aicore__ inline int32_t GetTensorCountInQue(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(538, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline bool HasIdleBuffer(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<bool>(::aclsim::detail::call(539, aclsim_file_, aclsim_line_, *this)); }
};

template <TPosition src, TPosition dst, int32_t depth>
class TQueBind : public ::aclsim::detail::Object {
public:
    __aicore__ TQueBind(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
        : Object(::aclsim::detail::call(33, aclsim_file_, aclsim_line_, src, dst, depth).v.i) {}
    __aicore__ explicit TQueBind(::aclsim::detail::Handle h) : Object(h.value) {}
#ifdef ACLSIM_CLASS_EXTRA_TQueBind
    ACLSIM_CLASS_EXTRA_TQueBind
#endif
    template <typename T>
    __aicore__ inline LocalTensor<T> AllocTensor(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<LocalTensor<T>>(::aclsim::detail::call(34, aclsim_file_, aclsim_line_, *this, ::aclsim::detail::Dtype<T>{})); }
    template <typename T>
    __aicore__ inline bool EnQue(const LocalTensor<T>& tensor, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<bool>(::aclsim::detail::call(35, aclsim_file_, aclsim_line_, *this, tensor)); }
    template <typename T>
    __aicore__ inline LocalTensor<T> DeQue(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<LocalTensor<T>>(::aclsim::detail::call(36, aclsim_file_, aclsim_line_, *this, ::aclsim::detail::Dtype<T>{})); }
    template <typename T>
    __aicore__ inline void FreeTensor(const LocalTensor<T>& tensor, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(37, aclsim_file_, aclsim_line_, *this, tensor); }
    __aicore__ inline bool VacantInQue(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<bool>(::aclsim::detail::call(540, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline bool HasTensorInQue(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<bool>(::aclsim::detail::call(541, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline int32_t GetTensorCountInQue(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(542, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline bool HasIdleBuffer(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<bool>(::aclsim::detail::call(543, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline void FreeAllEvent(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(544, aclsim_file_, aclsim_line_, *this); }
};

template <TPosition pos>
class TBuf : public ::aclsim::detail::Object {
public:
    __aicore__ TBuf(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
        : Object(::aclsim::detail::call(38, aclsim_file_, aclsim_line_, pos).v.i) {}
    __aicore__ explicit TBuf(::aclsim::detail::Handle h) : Object(h.value) {}
#ifdef ACLSIM_CLASS_EXTRA_TBuf
    ACLSIM_CLASS_EXTRA_TBuf
#endif
    template <typename T>
    __aicore__ inline LocalTensor<T> Get(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<LocalTensor<T>>(::aclsim::detail::call(39, aclsim_file_, aclsim_line_, *this, ::aclsim::detail::Dtype<T>{})); }
    template <typename T>
    __aicore__ inline LocalTensor<T> Get(uint32_t len, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<LocalTensor<T>>(::aclsim::detail::call(40, aclsim_file_, aclsim_line_, *this, len, ::aclsim::detail::Dtype<T>{})); }
    template <typename T>
    __aicore__ inline LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<LocalTensor<T>>(::aclsim::detail::call(41, aclsim_file_, aclsim_line_, *this, size, bufOffset, ::aclsim::detail::Dtype<T>{})); }
};

template <TPosition aPos, CubeFormat aFmt, typename aT, bool aTrans, LayoutMode aLayout, bool aIbShare, TPosition bPos, CubeFormat bFmt, typename bT, bool bTrans, LayoutMode bLayout, bool bIbShare, TPosition cPos, CubeFormat cFmt, typename cT, LayoutMode cLayout, TPosition biasPos, CubeFormat biasFmt, typename biasT>
class MatmulObject : public ::aclsim::detail::Object {
public:
    __aicore__ MatmulObject(const MatmulConfig& cfg, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
        : Object(::aclsim::detail::call(418, aclsim_file_, aclsim_line_, cfg, aPos, aFmt, ::aclsim::detail::Dtype<aT>{}, aTrans, aLayout, aIbShare, bPos, bFmt, ::aclsim::detail::Dtype<bT>{}, bTrans, bLayout, bIbShare, cPos, cFmt, ::aclsim::detail::Dtype<cT>{}, cLayout, biasPos, biasFmt, ::aclsim::detail::Dtype<biasT>{}).v.i) {}
    __aicore__ explicit MatmulObject(::aclsim::detail::Handle h) : Object(h.value) {}
#ifdef ACLSIM_CLASS_EXTRA_MatmulObject
    ACLSIM_CLASS_EXTRA_MatmulObject
#endif
    __aicore__ inline void Init(const TCubeTiling& tiling, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(419, aclsim_file_, aclsim_line_, *this, tiling); }
    __aicore__ inline void Init(const TCubeTiling& tiling, const TPipe& tpipe, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(420, aclsim_file_, aclsim_line_, *this, tiling, tpipe); }
    template <typename T>
    __aicore__ inline void SetTensorA(const GlobalTensor<T>& gm, bool isTransposeA = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(421, aclsim_file_, aclsim_line_, *this, gm, isTransposeA); }
    template <typename T>
    __aicore__ inline void SetTensorA(const LocalTensor<T>& leftMatrix, bool isTransposeA = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(422, aclsim_file_, aclsim_line_, *this, leftMatrix, isTransposeA); }
    template <typename T>
    __aicore__ inline void SetTensorB(const GlobalTensor<T>& gm, bool isTransposeB = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(423, aclsim_file_, aclsim_line_, *this, gm, isTransposeB); }
    template <typename T>
    __aicore__ inline void SetTensorB(const LocalTensor<T>& rightMatrix, bool isTransposeB = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(424, aclsim_file_, aclsim_line_, *this, rightMatrix, isTransposeB); }
    template <typename T>
    __aicore__ inline void SetBias(const GlobalTensor<T>& biasGlobal, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(425, aclsim_file_, aclsim_line_, *this, biasGlobal); }
    __aicore__ inline void DisableBias(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(426, aclsim_file_, aclsim_line_, *this); }
    __aicore__ inline void ClearBias(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(427, aclsim_file_, aclsim_line_, *this); }
    __aicore__ inline void SetTail(int32_t tailM = -1, int32_t tailN = -1, int32_t tailK = -1, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(428, aclsim_file_, aclsim_line_, *this, tailM, tailN, tailK); }
    __aicore__ inline void SetOrgShape(int32_t orgM, int32_t orgN, int32_t orgK, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(429, aclsim_file_, aclsim_line_, *this, orgM, orgN, orgK); }
    __aicore__ inline void SetOrgShape(int32_t orgM, int32_t orgN, int32_t orgKa, int32_t orgKb, int32_t orgKc = 0, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(430, aclsim_file_, aclsim_line_, *this, orgM, orgN, orgKa, orgKb, orgKc); }
    __aicore__ inline void SetSingleShape(int32_t singleM, int32_t singleN, int32_t singleK, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(431, aclsim_file_, aclsim_line_, *this, singleM, singleN, singleK); }
    template <typename T>
    __aicore__ inline void SetLocalWorkspace(const LocalTensor<T>& tmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(432, aclsim_file_, aclsim_line_, *this, tmpBuffer); }
    template <bool sync = true>
    __aicore__ inline bool Iterate(bool enPartialSum = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<bool>(::aclsim::detail::call(433, aclsim_file_, aclsim_line_, *this, enPartialSum, sync)); }
    template <bool sync = true, typename T>
    __aicore__ inline void GetTensorC(const LocalTensor<T>& c, uint8_t enAtomic = 0, bool enSequentialWrite = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(434, aclsim_file_, aclsim_line_, *this, c, enAtomic, enSequentialWrite, sync); }
    template <bool sync = true, typename T>
    __aicore__ inline void GetTensorC(const GlobalTensor<T>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(435, aclsim_file_, aclsim_line_, *this, gm, enAtomic, enSequentialWrite, sync); }
    template <bool sync = true, typename T>
    __aicore__ inline void IterateAll(const GlobalTensor<T>& gm, uint8_t enAtomic = 0, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(436, aclsim_file_, aclsim_line_, *this, gm, enAtomic, sync); }
    __aicore__ inline void SetSubBlockIdx(uint8_t subBlockIdx, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(437, aclsim_file_, aclsim_line_, *this, subBlockIdx); }
    template <bool sync = true, typename T>
    __aicore__ inline void IterateAll(const LocalTensor<T>& ub, uint8_t enAtomic = 0, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(438, aclsim_file_, aclsim_line_, *this, ub, enAtomic, sync); }
    template <typename T>
    __aicore__ inline void SetWorkspace(const GlobalTensor<T>& addr, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(439, aclsim_file_, aclsim_line_, *this, addr); }
    __aicore__ inline void SetHF32(bool enableHF32 = false, int32_t transMode = 0, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(440, aclsim_file_, aclsim_line_, *this, enableHF32, transMode); }
    __aicore__ inline void End(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(441, aclsim_file_, aclsim_line_, *this); }
    __aicore__ inline void WaitIterateAll(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(442, aclsim_file_, aclsim_line_, *this); }
    __aicore__ inline void SetBatchNum(int32_t batchA, int32_t batchB, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(559, aclsim_file_, aclsim_line_, *this, batchA, batchB); }
    template <typename T>
    __aicore__ inline void IterateBatch(const GlobalTensor<T>& gm, bool enPartialSum, uint8_t enAtomic, bool enSequentialWrite, uint32_t matrixStrideA = 0, uint32_t matrixStrideB = 0, uint32_t matrixStrideC = 0, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(560, aclsim_file_, aclsim_line_, *this, gm, enPartialSum, enAtomic, enSequentialWrite, matrixStrideA, matrixStrideB, matrixStrideC); }
    __aicore__ inline void SetQuantScalar(uint64_t quantScalar, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(561, aclsim_file_, aclsim_line_, *this, quantScalar); }
    __aicore__ inline void SetQuantVector(const GlobalTensor<uint64_t>& quantTensor, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(562, aclsim_file_, aclsim_line_, *this, quantTensor); }
    __aicore__ inline void SetUserDefInfo(uint64_t tilingPtr, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(563, aclsim_file_, aclsim_line_, *this, tilingPtr); }
    __aicore__ inline void SetSelfDefineData(uint64_t dataPtr, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(564, aclsim_file_, aclsim_line_, *this, dataPtr); }
    __aicore__ inline void InitStaticTiling(int32_t l1Size, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(565, aclsim_file_, aclsim_line_, *this, l1Size); }
    __aicore__ inline void InitStaticTiling(int32_t l1Size, const TPipe& tpipe, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(566, aclsim_file_, aclsim_line_, *this, l1Size, tpipe); }
    __aicore__ inline void SetCallBacks(uint64_t dataCopyOut, uint64_t copyA1, uint64_t copyB1, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(594, aclsim_file_, aclsim_line_, *this, dataCopyOut, copyA1, copyB1); }
    template <bool sync = true, bool waitIterateBatch = false, typename T>
    __aicore__ inline void IterateBatch(const GlobalTensor<T>& gm, uint32_t batchA, uint32_t batchB, bool enSequentialWrite, uint32_t matrixStrideA = 0, uint32_t matrixStrideB = 0, uint32_t matrixStrideC = 0, bool enPartialSum = false, uint8_t enAtomic = 0, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(595, aclsim_file_, aclsim_line_, *this, gm, batchA, batchB, enSequentialWrite, matrixStrideA, matrixStrideB, matrixStrideC, enPartialSum, enAtomic, sync, waitIterateBatch); }
    template <bool sync = true, typename T>
    __aicore__ inline void IterateBatch(const LocalTensor<T>& ubCmatrix, uint32_t batchA, uint32_t batchB, bool enSequentialWrite, uint32_t matrixStrideA = 0, uint32_t matrixStrideB = 0, uint32_t matrixStrideC = 0, bool enPartialSum = false, uint8_t enAtomic = 0, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(596, aclsim_file_, aclsim_line_, *this, ubCmatrix, batchA, batchB, enSequentialWrite, matrixStrideA, matrixStrideB, matrixStrideC, enPartialSum, enAtomic, sync); }
    template <typename T>
    __aicore__ inline void IterateBatch(const LocalTensor<T>& ubCmatrix, bool enPartialSum, uint8_t enAtomic, bool enSequentialWrite, uint32_t matrixStrideA = 0, uint32_t matrixStrideB = 0, uint32_t matrixStrideC = 0, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(597, aclsim_file_, aclsim_line_, *this, ubCmatrix, enPartialSum, enAtomic, enSequentialWrite, matrixStrideA, matrixStrideB, matrixStrideC); }
    __aicore__ inline void WaitIterateBatch(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(598, aclsim_file_, aclsim_line_, *this); }
    __aicore__ inline void InitConstantTiling(const TCubeTiling& fields, int32_t l1Size, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(599, aclsim_file_, aclsim_line_, *this, fields, l1Size); }
    __aicore__ inline void InitConstantTiling(const TCubeTiling& fields, int32_t l1Size, const TPipe& tpipe, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(600, aclsim_file_, aclsim_line_, *this, fields, l1Size, tpipe); }
};

class MatmulTilingHost : public ::aclsim::detail::Object {
public:
    __aicore__ MatmulTilingHost(bool multiCore, const char* soc, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
        : Object(::aclsim::detail::call(446, aclsim_file_, aclsim_line_, multiCore, soc).v.i) {}
    __aicore__ explicit MatmulTilingHost(::aclsim::detail::Handle h) : Object(h.value) {}
#ifdef ACLSIM_CLASS_EXTRA_MatmulTilingHost
    ACLSIM_CLASS_EXTRA_MatmulTilingHost
#endif
    __aicore__ inline int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(447, aclsim_file_, aclsim_line_, *this, pos, type, dataType, isTrans)); }
    __aicore__ inline int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(448, aclsim_file_, aclsim_line_, *this, pos, type, dataType, isTrans)); }
    __aicore__ inline int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(449, aclsim_file_, aclsim_line_, *this, pos, type, dataType)); }
    __aicore__ inline int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(450, aclsim_file_, aclsim_line_, *this, pos, type, dataType)); }
    __aicore__ inline int32_t SetShape(int32_t m, int32_t n, int32_t k, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(451, aclsim_file_, aclsim_line_, *this, m, n, k)); }
    __aicore__ inline int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(452, aclsim_file_, aclsim_line_, *this, orgMIn, orgNIn, orgKIn)); }
    __aicore__ inline int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(453, aclsim_file_, aclsim_line_, *this, orgMIn, orgNIn, orgKaIn, orgKbIn)); }
    __aicore__ inline int32_t SetBias(bool isBiasIn = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(454, aclsim_file_, aclsim_line_, *this, isBiasIn)); }
    __aicore__ inline int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(455, aclsim_file_, aclsim_line_, *this, l1Size, l0CSize, ubSize)); }
    __aicore__ inline int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(456, aclsim_file_, aclsim_line_, *this, baseMIn, baseNIn, baseKIn)); }
    __aicore__ inline int32_t SetTraverse(MatrixTraverse traverse, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(457, aclsim_file_, aclsim_line_, *this, traverse)); }
    __aicore__ inline int32_t SetDim(int32_t dim, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(458, aclsim_file_, aclsim_line_, *this, dim)); }
    __aicore__ inline int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(459, aclsim_file_, aclsim_line_, *this, singleMIn, singleNIn, singleKIn)); }
    __aicore__ inline int32_t GetBaseM(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(460, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline int32_t GetBaseN(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(461, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline int32_t GetBaseK(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(462, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline int64_t ComputeTiling(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(463, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline int64_t TilingValue(uint32_t index, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(464, aclsim_file_, aclsim_line_, *this, index)); }
};

template <pipe_t src, pipe_t dst>
class TQueSync : public ::aclsim::detail::Object {
public:
    __aicore__ TQueSync(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
        : Object(::aclsim::detail::call(491, aclsim_file_, aclsim_line_, src, dst).v.i) {}
    __aicore__ explicit TQueSync(::aclsim::detail::Handle h) : Object(h.value) {}
#ifdef ACLSIM_CLASS_EXTRA_TQueSync
    ACLSIM_CLASS_EXTRA_TQueSync
#endif
    __aicore__ inline void SetFlag(int32_t id, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(492, aclsim_file_, aclsim_line_, *this, id); }
    __aicore__ inline void WaitFlag(int32_t id, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(493, aclsim_file_, aclsim_line_, *this, id); }
};

template <Hardware hard>
class LocalMemAllocator : public ::aclsim::detail::Object {
public:
    __aicore__ LocalMemAllocator(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
        : Object(::aclsim::detail::call(518, aclsim_file_, aclsim_line_, hard).v.i) {}
    __aicore__ explicit LocalMemAllocator(::aclsim::detail::Handle h) : Object(h.value) {}
#ifdef ACLSIM_CLASS_EXTRA_LocalMemAllocator
    ACLSIM_CLASS_EXTRA_LocalMemAllocator
#endif
    template <TPosition pos, typename DataType, uint32_t tileSize>
    __aicore__ inline LocalTensor<DataType> Alloc(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<LocalTensor<DataType>>(::aclsim::detail::call(519, aclsim_file_, aclsim_line_, *this, pos, ::aclsim::detail::Dtype<DataType>{}, tileSize)); }
    template <typename DataType, uint32_t tileSize>
    __aicore__ inline LocalTensor<DataType> Alloc(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<LocalTensor<DataType>>(::aclsim::detail::call(520, aclsim_file_, aclsim_line_, *this, ::aclsim::detail::Dtype<DataType>{}, tileSize)); }
    template <TPosition pos, typename DataType>
    __aicore__ inline LocalTensor<DataType> Alloc(uint32_t tileSize, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<LocalTensor<DataType>>(::aclsim::detail::call(521, aclsim_file_, aclsim_line_, *this, tileSize, pos, ::aclsim::detail::Dtype<DataType>{})); }
    template <typename DataType>
    __aicore__ inline LocalTensor<DataType> Alloc(uint32_t tileSize, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<LocalTensor<DataType>>(::aclsim::detail::call(522, aclsim_file_, aclsim_line_, *this, tileSize, ::aclsim::detail::Dtype<DataType>{})); }
    __aicore__ inline uint32_t GetCurAddr(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<uint32_t>(::aclsim::detail::call(523, aclsim_file_, aclsim_line_, *this)); }
};

template <typename T>
class TensorDesc : public ::aclsim::detail::Object {
public:
    __aicore__ TensorDesc(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
        : Object(::aclsim::detail::call(524, aclsim_file_, aclsim_line_, ::aclsim::detail::Dtype<T>{}).v.i) {}
    __aicore__ explicit TensorDesc(::aclsim::detail::Handle h) : Object(h.value) {}
#ifdef ACLSIM_CLASS_EXTRA_TensorDesc
    ACLSIM_CLASS_EXTRA_TensorDesc
#endif
    __aicore__ inline void SetShapeAddr(uint64_t* shapePtr, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(525, aclsim_file_, aclsim_line_, *this, shapePtr); }
    __aicore__ inline uint64_t GetDim(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(526, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline uint64_t GetIndex(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(527, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline uint64_t GetShape(uint32_t offset, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(528, aclsim_file_, aclsim_line_, *this, offset)); }
    __aicore__ inline __gm__ T* GetDataPtr(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<__gm__ T*>(::aclsim::detail::call(529, aclsim_file_, aclsim_line_, *this)); }
};

class ListTensorDesc : public ::aclsim::detail::Object {
public:
    __aicore__ ListTensorDesc(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
        : Object(::aclsim::detail::call(530, aclsim_file_, aclsim_line_).v.i) {}
    __aicore__ explicit ListTensorDesc(::aclsim::detail::Handle h) : Object(h.value) {}
#ifdef ACLSIM_CLASS_EXTRA_ListTensorDesc
    ACLSIM_CLASS_EXTRA_ListTensorDesc
#endif
    __aicore__ inline void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(531, aclsim_file_, aclsim_line_, *this, data, length, shapeSize); }
    template <typename T>
    __aicore__ inline __gm__ T* GetDataPtr(uint32_t index, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<__gm__ T*>(::aclsim::detail::call(532, aclsim_file_, aclsim_line_, *this, index, ::aclsim::detail::Dtype<T>{})); }
    template <typename T>
    __aicore__ inline void GetDesc(const TensorDesc<T>& desc, uint32_t index, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(533, aclsim_file_, aclsim_line_, *this, desc, index); }
    __aicore__ inline uint32_t GetSize(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<uint32_t>(::aclsim::detail::call(534, aclsim_file_, aclsim_line_, *this)); }
};

__aicore__ inline int64_t GetBlockIdx(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(42, aclsim_file_, aclsim_line_)); }

__aicore__ inline int64_t GetBlockNum(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(43, aclsim_file_, aclsim_line_)); }

template <HardEvent event>
__aicore__ inline void SetFlag(int32_t eventID, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(44, aclsim_file_, aclsim_line_, eventID, event); }

template <HardEvent event>
__aicore__ inline void WaitFlag(int32_t eventID, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(45, aclsim_file_, aclsim_line_, eventID, event); }

template <pipe_t pipe>
__aicore__ inline void PipeBarrier(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(46, aclsim_file_, aclsim_line_, pipe); }

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(47, aclsim_file_, aclsim_line_, dst, src, count); }

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(48, aclsim_file_, aclsim_line_, dst, src, count); }

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(49, aclsim_file_, aclsim_line_, dst, src, count); }

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(50, aclsim_file_, aclsim_line_, dst, src, params); }

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(51, aclsim_file_, aclsim_line_, dst, src, params); }

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(52, aclsim_file_, aclsim_line_, dst, src, params); }

template <typename T>
__aicore__ inline void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(53, aclsim_file_, aclsim_line_, dst, src0, src1, count); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(54, aclsim_file_, aclsim_line_, dst, src0, src1, mask, repeatTimes, params, isSetMask); }

template <typename T>
__aicore__ inline void Sub(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(55, aclsim_file_, aclsim_line_, dst, src0, src1, count); }

template <typename T>
__aicore__ inline void Mul(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(56, aclsim_file_, aclsim_line_, dst, src0, src1, count); }

template <typename T>
__aicore__ inline void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(57, aclsim_file_, aclsim_line_, dst, src0, src1, count); }

template <typename T>
__aicore__ inline void Max(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(58, aclsim_file_, aclsim_line_, dst, src0, src1, count); }

template <typename T>
__aicore__ inline void Min(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(59, aclsim_file_, aclsim_line_, dst, src0, src1, count); }

template <typename T>
__aicore__ inline void And(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(60, aclsim_file_, aclsim_line_, dst, src0, src1, count); }

template <typename T>
__aicore__ inline void Or(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(61, aclsim_file_, aclsim_line_, dst, src0, src1, count); }

template <typename T, typename U>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, uint32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(62, aclsim_file_, aclsim_line_, dst, src0, src1, cmpMode, count); }

template <typename T>
__aicore__ inline void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(63, aclsim_file_, aclsim_line_, dst, src, scalar, count); }

template <typename T>
__aicore__ inline void Muls(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(64, aclsim_file_, aclsim_line_, dst, src, scalar, count); }

template <typename T>
__aicore__ inline void Maxs(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(65, aclsim_file_, aclsim_line_, dst, src, scalar, count); }

template <typename T>
__aicore__ inline void Mins(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(66, aclsim_file_, aclsim_line_, dst, src, scalar, count); }

template <typename T>
__aicore__ inline void LeakyRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(67, aclsim_file_, aclsim_line_, dst, src, scalar, count); }

template <typename T>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, ::aclsim::detail::nd_t<T> scalar, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(68, aclsim_file_, aclsim_line_, dst, scalar, count); }

template <typename T>
__aicore__ inline void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(69, aclsim_file_, aclsim_line_, dst, src, count); }

template <typename T>
__aicore__ inline void Ln(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(70, aclsim_file_, aclsim_line_, dst, src, count); }

template <typename T>
__aicore__ inline void Abs(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(71, aclsim_file_, aclsim_line_, dst, src, count); }

template <typename T>
__aicore__ inline void Sqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(72, aclsim_file_, aclsim_line_, dst, src, count); }

template <typename T>
__aicore__ inline void Rsqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(73, aclsim_file_, aclsim_line_, dst, src, count); }

template <typename T>
__aicore__ inline void Reciprocal(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(74, aclsim_file_, aclsim_line_, dst, src, count); }

template <typename T>
__aicore__ inline void Relu(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(75, aclsim_file_, aclsim_line_, dst, src, count); }

template <typename T>
__aicore__ inline void Not(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(76, aclsim_file_, aclsim_line_, dst, src, count); }

template <typename T>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(77, aclsim_file_, aclsim_line_, dst, src, work, count); }

template <typename T>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer, const uint64_t mask[2], int32_t repeatTime, int32_t srcRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(78, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, ::aclsim::detail::Array{mask, 2}, repeatTime, srcRepStride); }

template <typename T>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer, int32_t mask, int32_t repeatTime, int32_t srcRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(79, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, mask, repeatTime, srcRepStride); }

template <typename T>
__aicore__ inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer, int32_t count, bool calIndex = 0, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(80, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, count, calIndex); }

template <typename T>
__aicore__ inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer, const uint64_t mask[2], int32_t repeatTime, int32_t srcRepStride, bool calIndex = 0, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(81, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, ::aclsim::detail::Array{mask, 2}, repeatTime, srcRepStride, calIndex); }

template <typename T>
__aicore__ inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer, int32_t mask, int32_t repeatTime, int32_t srcRepStride, bool calIndex = 0, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(82, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, mask, repeatTime, srcRepStride, calIndex); }

template <typename T>
__aicore__ inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer, int32_t count, bool calIndex = 0, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(83, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, count, calIndex); }

template <typename T>
__aicore__ inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer, const uint64_t mask[2], int32_t repeatTime, int32_t srcRepStride, bool calIndex = 0, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(84, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, ::aclsim::detail::Array{mask, 2}, repeatTime, srcRepStride, calIndex); }

template <typename T>
__aicore__ inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer, int32_t mask, int32_t repeatTime, int32_t srcRepStride, bool calIndex = 0, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(85, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, mask, repeatTime, srcRepStride, calIndex); }

template <typename T, bool isSetMask = true>
__aicore__ inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[2], int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(86, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTime, dstRepStride, srcBlkStride, srcRepStride, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t mask, int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(87, aclsim_file_, aclsim_line_, dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void WholeReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[2], int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(88, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void WholeReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t mask, int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(89, aclsim_file_, aclsim_line_, dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void WholeReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[2], int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(90, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void WholeReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t mask, int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(91, aclsim_file_, aclsim_line_, dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void BlockReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime, const uint64_t mask[2], int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(92, aclsim_file_, aclsim_line_, dst, src, repeatTime, ::aclsim::detail::Array{mask, 2}, dstRepStride, srcBlkStride, srcRepStride, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void BlockReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime, int32_t mask, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(93, aclsim_file_, aclsim_line_, dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void BlockReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime, const uint64_t mask[2], int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(94, aclsim_file_, aclsim_line_, dst, src, repeatTime, ::aclsim::detail::Array{mask, 2}, dstRepStride, srcBlkStride, srcRepStride, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void BlockReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime, int32_t mask, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(95, aclsim_file_, aclsim_line_, dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void BlockReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime, const uint64_t mask[2], int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(96, aclsim_file_, aclsim_line_, dst, src, repeatTime, ::aclsim::detail::Array{mask, 2}, dstRepStride, srcBlkStride, srcRepStride, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void BlockReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime, int32_t mask, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(97, aclsim_file_, aclsim_line_, dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime, const uint64_t mask[2], int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(98, aclsim_file_, aclsim_line_, dst, src, repeatTime, ::aclsim::detail::Array{mask, 2}, dstRepStride, srcBlkStride, srcRepStride, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime, int32_t mask, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(99, aclsim_file_, aclsim_line_, dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime, int32_t mask, int32_t dstBlkStride, int32_t srcBlkStride, int32_t dstRepStride, int32_t srcRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(100, aclsim_file_, aclsim_line_, dst, src, repeatTime, mask, dstBlkStride, srcBlkStride, dstRepStride, srcRepStride, isSetMask); }

template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[2], int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(101, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, reduceType, isSetMask); }

template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, int32_t mask, int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(102, aclsim_file_, aclsim_line_, dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, reduceType, isSetMask); }

template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[2], int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(103, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTime, dstRepStride, srcBlkStride, srcRepStride, reduceType, isSetMask); }

template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, int32_t mask, int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(104, aclsim_file_, aclsim_line_, dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, reduceType, isSetMask); }

template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[2], int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(105, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTime, dstRepStride, srcBlkStride, srcRepStride, reduceType, isSetMask); }

template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, int32_t mask, int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(106, aclsim_file_, aclsim_line_, dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, reduceType, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[2], uint8_t repeatTime, const CopyRepeatParams& repeatParams, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(107, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTime, repeatParams, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, uint8_t repeatTime, const CopyRepeatParams& repeatParams, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(108, aclsim_file_, aclsim_line_, dst, src, mask, repeatTime, repeatParams, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(109, aclsim_file_, aclsim_line_, dst, src, count, isSetMask); }

template <typename T>
__aicore__ inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint8_t repeatTime, const BrcbRepeatParams& repeatParams, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(110, aclsim_file_, aclsim_line_, dst, src, repeatTime, repeatParams); }

template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset, uint32_t srcBaseAddr, uint32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(111, aclsim_file_, aclsim_line_, dst, src, srcOffset, srcBaseAddr, count); }

template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset, uint32_t srcBaseAddr, const uint64_t mask[2], uint8_t repeatTime, uint16_t dstRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(112, aclsim_file_, aclsim_line_, dst, src, srcOffset, srcBaseAddr, ::aclsim::detail::Array{mask, 2}, repeatTime, dstRepStride); }

template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset, uint32_t srcBaseAddr, uint64_t mask, uint8_t repeatTime, uint16_t dstRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(113, aclsim_file_, aclsim_line_, dst, src, srcOffset, srcBaseAddr, mask, repeatTime, dstRepStride); }

template <typename T, typename U>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern, bool reduceMode, uint32_t mask, const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { rsvdCnt = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(114, aclsim_file_, aclsim_line_, dst, src0, src1Pattern, reduceMode, mask, gatherMaskParams)); }

template <typename T>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, uint8_t src1Pattern, bool reduceMode, uint32_t mask, const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { rsvdCnt = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(115, aclsim_file_, aclsim_line_, dst, src0, src1Pattern, reduceMode, mask, gatherMaskParams)); }

template <typename T>
__aicore__ inline void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1, int32_t repeatTime, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(116, aclsim_file_, aclsim_line_, dst, src0, src1, repeatTime); }

template <typename T>
__aicore__ inline void Concat(const LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp, int32_t repeatTime, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(117, aclsim_file_, aclsim_line_, concat, src, tmp, repeatTime); }

template <typename T, bool isFullSort>
__aicore__ inline void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat, const LocalTensor<uint32_t>& index, const LocalTensor<T>& tmp, int32_t repeatTime, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(118, aclsim_file_, aclsim_line_, dst, concat, index, tmp, repeatTime, isFullSort); }

template <typename T>
__aicore__ inline void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex, const LocalTensor<T>& sorted, int32_t repeatTime, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(119, aclsim_file_, aclsim_line_, dstValue, dstIndex, sorted, repeatTime); }

template <typename T>
__aicore__ inline uint32_t GetSortOffset(uint32_t elemOffset, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<uint32_t>(::aclsim::detail::call(120, aclsim_file_, aclsim_line_, elemOffset, ::aclsim::detail::Dtype<T>{})); }

template <typename T>
__aicore__ inline void RpSort16(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(121, aclsim_file_, aclsim_line_, dst, src, repeatTime); }

template <typename T>
__aicore__ inline void ProposalConcat(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime, int32_t modeNumber, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(122, aclsim_file_, aclsim_line_, dst, src, repeatTime, modeNumber); }

template <typename T>
__aicore__ inline void ProposalExtract(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime, int32_t modeNumber, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(123, aclsim_file_, aclsim_line_, dst, src, repeatTime, modeNumber); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Sin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(124, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Sin(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(125, aclsim_file_, aclsim_line_, dst, src, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Sin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(126, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Sin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(127, aclsim_file_, aclsim_line_, dst, src, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Cos(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(128, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Cos(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(129, aclsim_file_, aclsim_line_, dst, src, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Cos(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(130, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Cos(const LocalTensor<T>& dst, const LocalTensor<T>& src, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(131, aclsim_file_, aclsim_line_, dst, src, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Tan(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(132, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Tan(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(133, aclsim_file_, aclsim_line_, dst, src, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Tan(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(134, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Tan(const LocalTensor<T>& dst, const LocalTensor<T>& src, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(135, aclsim_file_, aclsim_line_, dst, src, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Asin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(136, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Asin(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(137, aclsim_file_, aclsim_line_, dst, src, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Asin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(138, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Asin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(139, aclsim_file_, aclsim_line_, dst, src, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Acos(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(140, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Acos(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(141, aclsim_file_, aclsim_line_, dst, src, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Acos(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(142, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Acos(const LocalTensor<T>& dst, const LocalTensor<T>& src, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(143, aclsim_file_, aclsim_line_, dst, src, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Atan(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(144, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Atan(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(145, aclsim_file_, aclsim_line_, dst, src, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Atan(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(146, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Atan(const LocalTensor<T>& dst, const LocalTensor<T>& src, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(147, aclsim_file_, aclsim_line_, dst, src, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Asinh(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(148, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Asinh(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(149, aclsim_file_, aclsim_line_, dst, src, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Asinh(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(150, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Asinh(const LocalTensor<T>& dst, const LocalTensor<T>& src, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(151, aclsim_file_, aclsim_line_, dst, src, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Erf(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(152, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Erf(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(153, aclsim_file_, aclsim_line_, dst, src, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Erf(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(154, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Erf(const LocalTensor<T>& dst, const LocalTensor<T>& src, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(155, aclsim_file_, aclsim_line_, dst, src, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Sigmoid(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(156, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Sigmoid(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(157, aclsim_file_, aclsim_line_, dst, src, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Sigmoid(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(158, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Sigmoid(const LocalTensor<T>& dst, const LocalTensor<T>& src, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(159, aclsim_file_, aclsim_line_, dst, src, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Tanh(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(160, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Tanh(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(161, aclsim_file_, aclsim_line_, dst, src, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Tanh(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(162, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Tanh(const LocalTensor<T>& dst, const LocalTensor<T>& src, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(163, aclsim_file_, aclsim_line_, dst, src, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Floor(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(164, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Floor(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(165, aclsim_file_, aclsim_line_, dst, src, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Floor(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(166, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Floor(const LocalTensor<T>& dst, const LocalTensor<T>& src, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(167, aclsim_file_, aclsim_line_, dst, src, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Ceil(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(168, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Ceil(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(169, aclsim_file_, aclsim_line_, dst, src, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Ceil(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(170, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Ceil(const LocalTensor<T>& dst, const LocalTensor<T>& src, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(171, aclsim_file_, aclsim_line_, dst, src, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Trunc(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(172, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Trunc(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(173, aclsim_file_, aclsim_line_, dst, src, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Trunc(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(174, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Trunc(const LocalTensor<T>& dst, const LocalTensor<T>& src, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(175, aclsim_file_, aclsim_line_, dst, src, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Round(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(176, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Round(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(177, aclsim_file_, aclsim_line_, dst, src, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Round(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(178, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Round(const LocalTensor<T>& dst, const LocalTensor<T>& src, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(179, aclsim_file_, aclsim_line_, dst, src, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Frac(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(180, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Frac(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(181, aclsim_file_, aclsim_line_, dst, src, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Frac(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(182, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Frac(const LocalTensor<T>& dst, const LocalTensor<T>& src, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(183, aclsim_file_, aclsim_line_, dst, src, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Sign(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(184, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Sign(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(185, aclsim_file_, aclsim_line_, dst, src, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Sign(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(186, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Sign(const LocalTensor<T>& dst, const LocalTensor<T>& src, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(187, aclsim_file_, aclsim_line_, dst, src, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Log(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(188, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Log(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(189, aclsim_file_, aclsim_line_, dst, src, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Log(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(190, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Log(const LocalTensor<T>& dst, const LocalTensor<T>& src, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(191, aclsim_file_, aclsim_line_, dst, src, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Log2(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(192, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Log2(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(193, aclsim_file_, aclsim_line_, dst, src, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Log2(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(194, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Log2(const LocalTensor<T>& dst, const LocalTensor<T>& src, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(195, aclsim_file_, aclsim_line_, dst, src, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Log10(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(196, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Log10(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(197, aclsim_file_, aclsim_line_, dst, src, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Log10(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(198, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Log10(const LocalTensor<T>& dst, const LocalTensor<T>& src, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(199, aclsim_file_, aclsim_line_, dst, src, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(200, aclsim_file_, aclsim_line_, dst, src0, src1, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(201, aclsim_file_, aclsim_line_, dst, src0, src1, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(202, aclsim_file_, aclsim_line_, dst, src0, src1, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(203, aclsim_file_, aclsim_line_, dst, src0, src1, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1Scalar, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(204, aclsim_file_, aclsim_line_, dst, src0, src1Scalar, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1Scalar, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(205, aclsim_file_, aclsim_line_, dst, src0, src1Scalar, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1Scalar, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(206, aclsim_file_, aclsim_line_, dst, src0, src1Scalar, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1Scalar, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(207, aclsim_file_, aclsim_line_, dst, src0, src1Scalar, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dst, ::aclsim::detail::nd_t<T> src0Scalar, const LocalTensor<T>& src1, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(208, aclsim_file_, aclsim_line_, dst, src0Scalar, src1, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dst, ::aclsim::detail::nd_t<T> src0Scalar, const LocalTensor<T>& src1, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(209, aclsim_file_, aclsim_line_, dst, src0Scalar, src1, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dst, ::aclsim::detail::nd_t<T> src0Scalar, const LocalTensor<T>& src1, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(210, aclsim_file_, aclsim_line_, dst, src0Scalar, src1, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dst, ::aclsim::detail::nd_t<T> src0Scalar, const LocalTensor<T>& src1, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(211, aclsim_file_, aclsim_line_, dst, src0Scalar, src1, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(212, aclsim_file_, aclsim_line_, dst, src0, src1, sharedTmpBuffer, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(213, aclsim_file_, aclsim_line_, dst, src0, src1, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(214, aclsim_file_, aclsim_line_, dst, src0, src1, sharedTmpBuffer, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(215, aclsim_file_, aclsim_line_, dst, src0, src1, isReuseSource); }

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(216, aclsim_file_, aclsim_line_, dst, sumTensor, maxTensor, src, sharedTmpBuffer, tiling, isReuseSource, isBasicBlock); }

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(217, aclsim_file_, aclsim_line_, dst, sumTensor, maxTensor, src, sharedTmpBuffer, tiling, softmaxShapeInfo, isReuseSource, isBasicBlock); }

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor, const LocalTensor<T>& src, const SoftMaxTiling& tiling, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(218, aclsim_file_, aclsim_line_, dst, sumTensor, maxTensor, src, tiling, isReuseSource, isBasicBlock); }

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor, const LocalTensor<T>& src, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(219, aclsim_file_, aclsim_line_, dst, sumTensor, maxTensor, src, tiling, softmaxShapeInfo, isReuseSource, isBasicBlock); }

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(220, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, tiling, isReuseSource, isBasicBlock); }

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(221, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, tiling, softmaxShapeInfo, isReuseSource, isBasicBlock); }

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const SoftMaxTiling& tiling, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(222, aclsim_file_, aclsim_line_, dst, src, tiling, isReuseSource, isBasicBlock); }

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(223, aclsim_file_, aclsim_line_, dst, src, tiling, softmaxShapeInfo, isReuseSource, isBasicBlock); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const LocalTensor<uint8_t>& sharedTmpBuffer, ::aclsim::detail::nd_t<T> epsilon, const LayerNormTiling& tiling, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(224, aclsim_file_, aclsim_line_, output, outputMean, outputVariance, inputX, gamma, beta, sharedTmpBuffer, epsilon, tiling, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta, ::aclsim::detail::nd_t<T> epsilon, const LayerNormTiling& tiling, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(225, aclsim_file_, aclsim_line_, output, outputMean, outputVariance, inputX, gamma, beta, epsilon, tiling, isReuseSource); }

template <typename T>
__aicore__ inline void MrgSort(const LocalTensor<T>& dst, const LocalTensor<T>& src1, const LocalTensor<T>& src2, const LocalTensor<T>& src3, const LocalTensor<T>& src4, const MrgSort4Info& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(226, aclsim_file_, aclsim_line_, dst, src1, src2, src3, src4, params); }

template <typename T>
__aicore__ inline void MrgSort4(const LocalTensor<T>& dst, const LocalTensor<T>& src1, const LocalTensor<T>& src2, const LocalTensor<T>& src3, const LocalTensor<T>& src4, const MrgSort4Info& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(227, aclsim_file_, aclsim_line_, dst, src1, src2, src3, src4, params); }

__aicore__ inline void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2, uint16_t& mrgSortList3, uint16_t& mrgSortList4, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(228, aclsim_file_, aclsim_line_)); mrgSortList1 = static_cast<uint16_t>((aclsim_r_ >> 0) & 0xFFFFULL); mrgSortList2 = static_cast<uint16_t>((aclsim_r_ >> 16) & 0xFFFFULL); mrgSortList3 = static_cast<uint16_t>((aclsim_r_ >> 32) & 0xFFFFULL); mrgSortList4 = static_cast<uint16_t>((aclsim_r_ >> 48) & 0xFFFFULL); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, ::aclsim::detail::nd_t<T> scalar, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(229, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, scalar, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(230, aclsim_file_, aclsim_line_, dst, src, scalar, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, ::aclsim::detail::nd_t<T> scalar, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(231, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, scalar, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(232, aclsim_file_, aclsim_line_, dst, src, scalar, calCount, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Silu(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t dataSize, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(233, aclsim_file_, aclsim_line_, dst, src, dataSize, isReuseSource); }

template <typename T, bool isReuseSource = false>
__aicore__ inline void Swish(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t dataSize, ::aclsim::detail::nd_t<T> scalarValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(234, aclsim_file_, aclsim_line_, dst, src, dataSize, scalarValue, isReuseSource); }

template <typename T, bool isExhaustedSuspension = false>
__aicore__ inline uint64_t MrgSort(const LocalTensor<T>& dst, const LocalTensor<T>& src1, const LocalTensor<T>& src2, const LocalTensor<T>& src3, const LocalTensor<T>& src4, const uint16_t elementCountList[4], uint16_t validBit, int32_t repeatTime, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(235, aclsim_file_, aclsim_line_, dst, src1, src2, src3, src4, ::aclsim::detail::Array{::aclsim::detail::Words<4>(elementCountList).w, 4}, validBit, repeatTime, isExhaustedSuspension)); }

template <class Shape>
__aicore__ inline void GetClampMaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(236, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetErfMaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(237, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

__aicore__ inline void GetErfTmpBufferFactorSize(uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(238, aclsim_file_, aclsim_line_, typeSize)); maxLiveNodeCount = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); extraBuf = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetFloorMaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(239, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

__aicore__ inline void GetFloorTmpBufferFactorSize(uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(240, aclsim_file_, aclsim_line_, typeSize)); maxLiveNodeCount = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); extraBuf = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetCeilMaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(241, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

__aicore__ inline void GetCeilTmpBufferFactorSize(uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(242, aclsim_file_, aclsim_line_, typeSize)); maxLiveNodeCount = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); extraBuf = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetTruncMaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(243, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

__aicore__ inline void GetTruncTmpBufferFactorSize(uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(244, aclsim_file_, aclsim_line_, typeSize)); maxLiveNodeCount = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); extraBuf = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetRoundMaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(245, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

__aicore__ inline void GetRoundTmpBufferFactorSize(uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(246, aclsim_file_, aclsim_line_, typeSize)); maxLiveNodeCount = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); extraBuf = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetLogMaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(247, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

__aicore__ inline void GetLogTmpBufferFactorSize(uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(248, aclsim_file_, aclsim_line_, typeSize)); maxLiveNodeCount = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); extraBuf = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetLog2MaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(249, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

__aicore__ inline void GetLog2TmpBufferFactorSize(uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(250, aclsim_file_, aclsim_line_, typeSize)); maxLiveNodeCount = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); extraBuf = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetLog10MaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(251, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

__aicore__ inline void GetLog10TmpBufferFactorSize(uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(252, aclsim_file_, aclsim_line_, typeSize)); maxLiveNodeCount = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); extraBuf = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetSigmoidMaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(253, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetTanhMaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(254, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

__aicore__ inline void GetTanhTmpBufferFactorSize(uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(255, aclsim_file_, aclsim_line_, typeSize)); maxLiveNodeCount = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); extraBuf = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetSignMaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(256, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

__aicore__ inline void GetSignTmpBufferFactorSize(uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(257, aclsim_file_, aclsim_line_, typeSize)); maxLiveNodeCount = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); extraBuf = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetFracMaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(258, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

__aicore__ inline void GetFracTmpBufferFactorSize(uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(259, aclsim_file_, aclsim_line_, typeSize)); maxLiveNodeCount = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); extraBuf = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetXorMaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(260, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

__aicore__ inline void GetXorTmpBufferFactorSize(uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(261, aclsim_file_, aclsim_line_, typeSize)); maxLiveNodeCount = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); extraBuf = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetSinMaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(262, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

__aicore__ inline void GetSinTmpBufferFactorSize(uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(263, aclsim_file_, aclsim_line_, typeSize)); maxLiveNodeCount = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); extraBuf = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetCosMaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(264, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

__aicore__ inline void GetCosTmpBufferFactorSize(uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(265, aclsim_file_, aclsim_line_, typeSize)); maxLiveNodeCount = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); extraBuf = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetTanMaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(266, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

__aicore__ inline void GetTanTmpBufferFactorSize(uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(267, aclsim_file_, aclsim_line_, typeSize)); maxLiveNodeCount = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); extraBuf = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetAsinMaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(268, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

__aicore__ inline void GetAsinTmpBufferFactorSize(uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(269, aclsim_file_, aclsim_line_, typeSize)); maxLiveNodeCount = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); extraBuf = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetAcosMaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(270, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

__aicore__ inline void GetAcosTmpBufferFactorSize(uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(271, aclsim_file_, aclsim_line_, typeSize)); maxLiveNodeCount = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); extraBuf = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetAsinhMaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(272, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

__aicore__ inline void GetAsinhTmpBufferFactorSize(uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(273, aclsim_file_, aclsim_line_, typeSize)); maxLiveNodeCount = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); extraBuf = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetAtanMaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(274, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

__aicore__ inline void GetAtanTmpBufferFactorSize(uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(275, aclsim_file_, aclsim_line_, typeSize)); maxLiveNodeCount = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); extraBuf = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetLayerNormMaxMinTmpSize(Shape srcShape, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(276, aclsim_file_, aclsim_line_, srcShape, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline void GetPowerMaxMinTmpSize(Shape srcShape1, Shape srcShape2, bool typeIsInt, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(277, aclsim_file_, aclsim_line_, srcShape1, srcShape2, typeIsInt, typeSize, isReuseSource)); maxValue = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); minValue = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

__aicore__ inline void GetPowerTmpBufferFactorSize(bool baseIsTensor, bool expIsTensor, bool typeIsInt, uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(278, aclsim_file_, aclsim_line_, baseIsTensor, expIsTensor, typeIsInt, typeSize)); maxLiveNodeCount = static_cast<uint32_t>((aclsim_r_ >> 0) & 0xFFFFFFFFULL); extraBuffer = static_cast<uint32_t>((aclsim_r_ >> 32) & 0xFFFFFFFFULL); }

template <class Shape>
__aicore__ inline uint32_t GetSoftMaxMaxTmpSize(Shape srcShape, uint32_t dataTypeSize, bool isReuseSource, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<uint32_t>(::aclsim::detail::call(279, aclsim_file_, aclsim_line_, srcShape, dataTypeSize, isReuseSource)); }

template <class Shape>
__aicore__ inline uint32_t GetSoftMaxMinTmpSize(Shape srcShape, uint32_t dataTypeSize, bool isReuseSource, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<uint32_t>(::aclsim::detail::call(280, aclsim_file_, aclsim_line_, srcShape, dataTypeSize, isReuseSource)); }

template <bool isAIVOnly = true>
__aicore__ inline void SyncAll(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(281, aclsim_file_, aclsim_line_, isAIVOnly); }

template <bool isAIVOnly = true>
__aicore__ inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t usedCores = 0, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(282, aclsim_file_, aclsim_line_, gmWorkspace, ubWorkspace, usedCores, isAIVOnly); }

template <bool isAIVOnly = true>
__aicore__ inline void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx, int32_t eventID, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(283, aclsim_file_, aclsim_line_, gmWorkspace, ubWorkspace, blockIdx, eventID, isAIVOnly); }

template <bool isAIVOnly = true>
__aicore__ inline void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx, int32_t eventID, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(284, aclsim_file_, aclsim_line_, gmWorkspace, ubWorkspace, blockIdx, eventID, isAIVOnly); }

template <uint8_t modeId, pipe_t pipe>
__aicore__ inline void CrossCoreSetFlag(uint16_t flagId, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(285, aclsim_file_, aclsim_line_, flagId, modeId, pipe); }

template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
__aicore__ inline void CrossCoreWaitFlag(uint16_t flagId, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(286, aclsim_file_, aclsim_line_, flagId, modeId, pipe); }

template <pipe_t pipe>
__aicore__ inline void NotifyEvent(uint16_t flagId, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(287, aclsim_file_, aclsim_line_, flagId, pipe); }

template <pipe_t pipe = PIPE_S>
__aicore__ inline void WaitEvent(uint16_t flagId, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(288, aclsim_file_, aclsim_line_, flagId); }

__aicore__ inline int64_t GetSubBlockIdx(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(289, aclsim_file_, aclsim_line_)); }

__aicore__ inline int64_t GetSubBlockNum(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(290, aclsim_file_, aclsim_line_)); }

__aicore__ inline int64_t GetTaskRatio(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(291, aclsim_file_, aclsim_line_)); }

__aicore__ inline int64_t GetTaskRation(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(292, aclsim_file_, aclsim_line_)); }

__aicore__ inline bool AscendIsAIV(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<bool>(::aclsim::detail::call(293, aclsim_file_, aclsim_line_)); }

__aicore__ inline bool AscendIsAIC(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<bool>(::aclsim::detail::call(294, aclsim_file_, aclsim_line_)); }

__aicore__ inline void KernelTaskTypeDefault(KernelMetaType value, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(295, aclsim_file_, aclsim_line_, value); }

__aicore__ inline void KernelTaskType(uint64_t key, KernelMetaType value, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(296, aclsim_file_, aclsim_line_, key, value); }

template <typename T>
__aicore__ inline void SetAtomicAdd(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(297, aclsim_file_, aclsim_line_, ::aclsim::detail::Dtype<T>{}); }

template <typename T>
__aicore__ inline void SetAtomicMax(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(298, aclsim_file_, aclsim_line_, ::aclsim::detail::Dtype<T>{}); }

template <typename T>
__aicore__ inline void SetAtomicMin(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(299, aclsim_file_, aclsim_line_, ::aclsim::detail::Dtype<T>{}); }

template <typename T>
__aicore__ inline void SetAtomicType(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(300, aclsim_file_, aclsim_line_, ::aclsim::detail::Dtype<T>{}); }

__aicore__ inline void SetAtomicNone(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(301, aclsim_file_, aclsim_line_); }

__aicore__ inline void DisableDmaAtomic(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(302, aclsim_file_, aclsim_line_); }

__aicore__ inline __gm__ uint8_t* GetUserWorkspace(__gm__ uint8_t* workspace, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<__gm__ uint8_t*>(::aclsim::detail::call(303, aclsim_file_, aclsim_line_, workspace)); }

__aicore__ inline void SetSysWorkspace(__gm__ uint8_t* workspace, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(304, aclsim_file_, aclsim_line_, workspace); }

__aicore__ inline __gm__ uint8_t* GetSysWorkSpacePtr(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<__gm__ uint8_t*>(::aclsim::detail::call(305, aclsim_file_, aclsim_line_)); }

template <typename T>
__aicore__ inline void InitGlobalMemory(const GlobalTensor<T>& gmWorkspaceAddr, uint64_t size, ::aclsim::detail::nd_t<T> value, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(306, aclsim_file_, aclsim_line_, gmWorkspaceAddr, size, value); }

template <typename T>
__aicore__ inline void InitOutput(const GlobalTensor<T>& gmWorkspaceAddr, uint32_t size, ::aclsim::detail::nd_t<T> value = 0, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(307, aclsim_file_, aclsim_line_, gmWorkspaceAddr, size, value); }

__aicore__ inline void InitSocState(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(308, aclsim_file_, aclsim_line_); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(309, aclsim_file_, aclsim_line_, dst, src0, src1, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Sub(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(310, aclsim_file_, aclsim_line_, dst, src0, src1, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Sub(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(311, aclsim_file_, aclsim_line_, dst, src0, src1, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Mul(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(312, aclsim_file_, aclsim_line_, dst, src0, src1, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Mul(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(313, aclsim_file_, aclsim_line_, dst, src0, src1, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(314, aclsim_file_, aclsim_line_, dst, src0, src1, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(315, aclsim_file_, aclsim_line_, dst, src0, src1, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Max(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(316, aclsim_file_, aclsim_line_, dst, src0, src1, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Max(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(317, aclsim_file_, aclsim_line_, dst, src0, src1, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Min(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(318, aclsim_file_, aclsim_line_, dst, src0, src1, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Min(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(319, aclsim_file_, aclsim_line_, dst, src0, src1, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void And(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(320, aclsim_file_, aclsim_line_, dst, src0, src1, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void And(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(321, aclsim_file_, aclsim_line_, dst, src0, src1, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Or(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(322, aclsim_file_, aclsim_line_, dst, src0, src1, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Or(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(323, aclsim_file_, aclsim_line_, dst, src0, src1, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(324, aclsim_file_, aclsim_line_, dst, src, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(325, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Ln(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(326, aclsim_file_, aclsim_line_, dst, src, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Ln(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(327, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Abs(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(328, aclsim_file_, aclsim_line_, dst, src, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Abs(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(329, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Sqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(330, aclsim_file_, aclsim_line_, dst, src, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Sqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(331, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Rsqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(332, aclsim_file_, aclsim_line_, dst, src, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Rsqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(333, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Reciprocal(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(334, aclsim_file_, aclsim_line_, dst, src, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Reciprocal(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(335, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Relu(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(336, aclsim_file_, aclsim_line_, dst, src, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Relu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(337, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Not(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(338, aclsim_file_, aclsim_line_, dst, src, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Not(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(339, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(340, aclsim_file_, aclsim_line_, dst, src, scalar, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(341, aclsim_file_, aclsim_line_, dst, src, scalar, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Muls(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(342, aclsim_file_, aclsim_line_, dst, src, scalar, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Muls(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(343, aclsim_file_, aclsim_line_, dst, src, scalar, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Maxs(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(344, aclsim_file_, aclsim_line_, dst, src, scalar, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Maxs(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(345, aclsim_file_, aclsim_line_, dst, src, scalar, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Mins(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(346, aclsim_file_, aclsim_line_, dst, src, scalar, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Mins(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(347, aclsim_file_, aclsim_line_, dst, src, scalar, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void LeakyRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(348, aclsim_file_, aclsim_line_, dst, src, scalar, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void LeakyRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(349, aclsim_file_, aclsim_line_, dst, src, scalar, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T>
__aicore__ inline void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(350, aclsim_file_, aclsim_line_, dst, src, scalar, count); }

template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(351, aclsim_file_, aclsim_line_, dst, src, scalar, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(352, aclsim_file_, aclsim_line_, dst, src, scalar, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T>
__aicore__ inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(353, aclsim_file_, aclsim_line_, dst, src, scalar, count); }

template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, bool roundEn = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(354, aclsim_file_, aclsim_line_, dst, src, scalar, mask, repeatTimes, params, roundEn, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, bool roundEn = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(355, aclsim_file_, aclsim_line_, dst, src, scalar, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, roundEn, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, ::aclsim::detail::nd_t<T> scalar, uint64_t mask, uint8_t repeatTimes, uint16_t dstBlockStride, uint8_t dstRepeatStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(356, aclsim_file_, aclsim_line_, dst, scalar, mask, repeatTimes, dstBlockStride, dstRepeatStride, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, ::aclsim::detail::nd_t<T> scalar, const uint64_t mask[], uint8_t repeatTimes, uint16_t dstBlockStride, uint8_t dstRepeatStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(357, aclsim_file_, aclsim_line_, dst, scalar, ::aclsim::detail::Array{mask, 2}, repeatTimes, dstBlockStride, dstRepeatStride, isSetMask); }

template <typename T, typename U>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, RoundMode roundMode, uint32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(358, aclsim_file_, aclsim_line_, dst, src, roundMode, count); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, RoundMode roundMode, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(359, aclsim_file_, aclsim_line_, dst, src, roundMode, mask, repeatTimes, params, isSetMask); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, RoundMode roundMode, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(360, aclsim_file_, aclsim_line_, dst, src, roundMode, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(361, aclsim_file_, aclsim_line_, dst, src0, src1, cmpMode, mask, repeatTimes, params, isSetMask); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(362, aclsim_file_, aclsim_line_, dst, src0, src1, cmpMode, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, typename U>
__aicore__ inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1Scalar, CMPMODE cmpMode, uint32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(363, aclsim_file_, aclsim_line_, dst, src0, src1Scalar, cmpMode, count); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1Scalar, CMPMODE cmpMode, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(364, aclsim_file_, aclsim_line_, dst, src0, src1Scalar, cmpMode, mask, repeatTimes, params, isSetMask); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1Scalar, CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(365, aclsim_file_, aclsim_line_, dst, src0, src1Scalar, cmpMode, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, typename U>
__aicore__ inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1Scalar, CMPMODE cmpMode, uint32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(366, aclsim_file_, aclsim_line_, dst, src0, src1Scalar, cmpMode, count); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1Scalar, CMPMODE cmpMode, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(367, aclsim_file_, aclsim_line_, dst, src0, src1Scalar, cmpMode, mask, repeatTimes, params, isSetMask); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1Scalar, CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(368, aclsim_file_, aclsim_line_, dst, src0, src1Scalar, cmpMode, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, const LocalTensor<T>& src1, SELMODE selMode, uint32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(369, aclsim_file_, aclsim_line_, dst, selMask, src0, src1, selMode, count); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(370, aclsim_file_, aclsim_line_, dst, selMask, src0, src1, selMode, mask, repeatTimes, params, isSetMask); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, const LocalTensor<T>& src1, SELMODE selMode, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(371, aclsim_file_, aclsim_line_, dst, selMask, src0, src1, selMode, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1, SELMODE selMode, uint32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(372, aclsim_file_, aclsim_line_, dst, selMask, src0, src1, selMode, count); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1, SELMODE selMode, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(373, aclsim_file_, aclsim_line_, dst, selMask, src0, src1, selMode, mask, repeatTimes, params, isSetMask); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1, SELMODE selMode, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(374, aclsim_file_, aclsim_line_, dst, selMask, src0, src1, selMode, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, typename U>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, ::aclsim::detail::nd_t<U> scalar, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(375, aclsim_file_, aclsim_line_, dst, src, scalar, count); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, ::aclsim::detail::nd_t<U> scalar, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(376, aclsim_file_, aclsim_line_, dst, src, scalar, mask, repeatTimes, params, isSetMask); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, ::aclsim::detail::nd_t<U> scalar, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(377, aclsim_file_, aclsim_line_, dst, src, scalar, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T>
__aicore__ inline void CreateVecIndex(const LocalTensor<T>& dst, ::aclsim::detail::nd_t<T> firstValue, uint32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(378, aclsim_file_, aclsim_line_, dst, firstValue, count); }

template <typename T>
__aicore__ inline void CreateVecIndex(const LocalTensor<T>& dst, ::aclsim::detail::nd_t<T> firstValue, uint64_t mask, uint8_t repeatTimes, uint16_t dstBlkStride, uint8_t dstRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(379, aclsim_file_, aclsim_line_, dst, firstValue, mask, repeatTimes, dstBlkStride, dstRepStride); }

template <typename T>
__aicore__ inline void CreateVecIndex(const LocalTensor<T>& dst, ::aclsim::detail::nd_t<T> firstValue, const uint64_t mask[], uint8_t repeatTimes, uint16_t dstBlkStride, uint8_t dstRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(380, aclsim_file_, aclsim_line_, dst, firstValue, ::aclsim::detail::Array{mask, 2}, repeatTimes, dstBlkStride, dstRepStride); }

template <typename T>
__aicore__ inline void ArithProgression(const LocalTensor<T>& dst, ::aclsim::detail::nd_t<T> firstValue, ::aclsim::detail::nd_t<T> diffValue, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(381, aclsim_file_, aclsim_line_, dst, firstValue, diffValue, count); }

__aicore__ inline void SetMaskCount(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(382, aclsim_file_, aclsim_line_); }

__aicore__ inline void SetMaskNorm(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(383, aclsim_file_, aclsim_line_); }

__aicore__ inline void ResetMask(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(384, aclsim_file_, aclsim_line_); }

template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ inline void SetVectorMask(uint64_t maskHigh, uint64_t maskLow, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(385, aclsim_file_, aclsim_line_, maskHigh, maskLow, ::aclsim::detail::Dtype<T>{}, mode); }

template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ inline void SetVectorMask(int32_t len, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(386, aclsim_file_, aclsim_line_, len, ::aclsim::detail::Dtype<T>{}, mode); }

template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(387, aclsim_file_, aclsim_line_, dst, src, params); }

template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& params, const DataCopyPadParams& padParams, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(388, aclsim_file_, aclsim_line_, dst, src, params, padParams); }

template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(389, aclsim_file_, aclsim_line_, dst, src, params); }

template <typename T>
__aicore__ inline void aclsim_DataCopyPadExt(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& params, bool isPad, uint8_t leftPadding, uint8_t rightPadding, ::aclsim::detail::nd_t<T> paddingValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(390, aclsim_file_, aclsim_line_, dst, src, params, isPad, leftPadding, rightPadding, paddingValue); }

__aicore__ inline void set_flag(pipe_t pipe, pipe_t tpipe, int32_t eventID, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(391, aclsim_file_, aclsim_line_, pipe, tpipe, eventID); }

__aicore__ inline void wait_flag(pipe_t pipe, pipe_t tpipe, int32_t eventID, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(392, aclsim_file_, aclsim_line_, pipe, tpipe, eventID); }

__aicore__ inline void pipe_barrier(pipe_t pipe, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(393, aclsim_file_, aclsim_line_, pipe); }

__aicore__ inline TPipe aclsim_GetTPipe(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<TPipe>(::aclsim::detail::call(394, aclsim_file_, aclsim_line_)); }

__aicore__ inline float ToFloat(bfloat16_t value, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<float>(::aclsim::detail::call(397, aclsim_file_, aclsim_line_, value)); }

__aicore__ inline bfloat16_t ToBfloat16(float value, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<bfloat16_t>(::aclsim::detail::call(398, aclsim_file_, aclsim_line_, value)); }

__aicore__ inline int32_t GetDataBlockSizeInBytes(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(399, aclsim_file_, aclsim_line_)); }

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& params, const DataCopyEnhancedParams& enhancedParams, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(400, aclsim_file_, aclsim_line_, dst, src, params, enhancedParams); }

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params, const DataCopyEnhancedParams& enhancedParams, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(401, aclsim_file_, aclsim_line_, dst, src, params, enhancedParams); }

template <typename T, typename U>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& params, const DataCopyEnhancedParams& enhancedParams, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(402, aclsim_file_, aclsim_line_, dst, src, params, enhancedParams); }

template <int countValue>
__aicore__ inline int64_t GetBitCount(uint64_t valueIn, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(404, aclsim_file_, aclsim_line_, valueIn, countValue)); }

template <int countValue>
__aicore__ inline int64_t ScalarGetCountOfValue(uint64_t valueIn, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(405, aclsim_file_, aclsim_line_, valueIn, countValue)); }

__aicore__ inline int64_t CountLeadingZero(uint64_t valueIn, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(406, aclsim_file_, aclsim_line_, valueIn)); }

__aicore__ inline int64_t ScalarCountLeadingZero(uint64_t valueIn, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(407, aclsim_file_, aclsim_line_, valueIn)); }

__aicore__ inline int64_t CountBitsCntSameAsSignBit(int64_t valueIn, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(408, aclsim_file_, aclsim_line_, valueIn)); }

template <int countValue>
__aicore__ inline int64_t GetSFFValue(uint64_t valueIn, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(409, aclsim_file_, aclsim_line_, valueIn, countValue)); }

template <int countValue>
__aicore__ inline int64_t ScalarGetSFFValue(uint64_t valueIn, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(410, aclsim_file_, aclsim_line_, valueIn, countValue)); }

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(411, aclsim_file_, aclsim_line_, dst, src, params); }

template <typename T, typename U>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(412, aclsim_file_, aclsim_line_, dst, src, params); }

template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(413, aclsim_file_, aclsim_line_, dst, src, params); }

template <typename T, typename U, typename S>
__aicore__ inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter, const MmadParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(414, aclsim_file_, aclsim_line_, dst, fm, filter, params); }

template <typename T, typename U, typename S, typename V>
__aicore__ inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter, const LocalTensor<V>& bias, const MmadParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(415, aclsim_file_, aclsim_line_, dst, fm, filter, bias, params); }

template <typename T, typename U>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(416, aclsim_file_, aclsim_line_, dst, src, params); }

template <typename T, typename U>
__aicore__ inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(417, aclsim_file_, aclsim_line_, dst, src, params); }

template <class M>
__aicore__ inline void RegistMatmulObj(const TPipe& tpipe, uint8_t* workspace, M mm, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(443, aclsim_file_, aclsim_line_, tpipe, workspace, mm); }

template <class M>
__aicore__ inline void RegistMatmulObj(const TPipe& tpipe, uint8_t* workspace, M mm, const TCubeTiling& tiling, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(444, aclsim_file_, aclsim_line_, tpipe, workspace, mm, tiling); }

template <class M, class N>
__aicore__ inline void RegistMatmulObj(const TPipe& tpipe, uint8_t* workspace, M mm, const TCubeTiling& tiling, N mm2, const TCubeTiling& tiling2, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(445, aclsim_file_, aclsim_line_, tpipe, workspace, mm, tiling, mm2, tiling2); }

template <typename T>
__aicore__ inline void InitConstValueFields(const LocalTensor<T>& dst, uint16_t repeatTimes, uint16_t blockNum, uint16_t dstGap, ::aclsim::detail::nd_t<T> initValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(465, aclsim_file_, aclsim_line_, dst, repeatTimes, blockNum, dstGap, initValue); }

template <typename T>
__aicore__ inline void FillFields(const LocalTensor<T>& dst, uint16_t repeatTimes, uint16_t blockNum, uint16_t dstGap, ::aclsim::detail::nd_t<T> initValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(466, aclsim_file_, aclsim_line_, dst, repeatTimes, blockNum, dstGap, initValue); }

template <typename T, typename U>
__aicore__ inline void FixpipeWithConfig(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& params, const FixpipeConfig& config, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(467, aclsim_file_, aclsim_line_, dst, src, params, config); }

template <typename T, typename U>
__aicore__ inline void FixpipeWithConfig(const LocalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& params, const FixpipeConfig& config, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(468, aclsim_file_, aclsim_line_, dst, src, params, config); }

template <typename T>
__aicore__ inline void LoadData3DFields(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint8_t padLeft, uint8_t padRight, uint8_t padTop, uint8_t padBottom, uint16_t l1H, uint16_t l1W, uint16_t channelSize, uint16_t kExtension, uint16_t mExtension, uint16_t kStartPt, uint16_t mStartPt, uint8_t strideW, uint8_t strideH, uint8_t filterW, uint8_t filterH, uint8_t dilationFilterW, uint8_t dilationFilterH, bool enTranspose, bool enSmallK, ::aclsim::detail::nd_t<T> padValue, bool filterSizeW, bool filterSizeH, bool fMatrixCtrl, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(469, aclsim_file_, aclsim_line_, dst, src, padLeft, padRight, padTop, padBottom, l1H, l1W, channelSize, kExtension, mExtension, kStartPt, mStartPt, strideW, strideH, filterW, filterH, dilationFilterW, dilationFilterH, enTranspose, enSmallK, padValue, filterSizeW, filterSizeH, fMatrixCtrl); }

template <int8_t startBit, int8_t endBit>
__aicore__ inline void SetCtrlSpr(int64_t value, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(470, aclsim_file_, aclsim_line_, value, startBit, endBit); }

template <int8_t startBit, int8_t endBit>
__aicore__ inline int64_t GetCtrlSpr(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(471, aclsim_file_, aclsim_line_, startBit, endBit)); }

template <SaturationMode mode>
__aicore__ inline void SetSaturationFlag(bool enableSat, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(472, aclsim_file_, aclsim_line_, enableSat, mode); }

template <SaturationMode mode>
__aicore__ inline bool GetSaturationFlag(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<bool>(::aclsim::detail::call(473, aclsim_file_, aclsim_line_, mode)); }

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer, const DequantParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(474, aclsim_file_, aclsim_line_, dstTensor, srcTensor, deqScale, sharedTmpBuffer, params, mode); }

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, const LocalTensor<scaleT>& deqScale, const DequantParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(475, aclsim_file_, aclsim_line_, dstTensor, srcTensor, deqScale, params, mode); }

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, scaleT deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer, const DequantParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(476, aclsim_file_, aclsim_line_, dstTensor, srcTensor, deqScale, sharedTmpBuffer, params, mode); }

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, scaleT deqScale, const DequantParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(477, aclsim_file_, aclsim_line_, dstTensor, srcTensor, deqScale, params, mode); }

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(478, aclsim_file_, aclsim_line_, dstTensor, srcTensor, deqScale, sharedTmpBuffer, calCount, mode); }

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(479, aclsim_file_, aclsim_line_, dstTensor, srcTensor, deqScale, sharedTmpBuffer, mode); }

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, const LocalTensor<scaleT>& deqScale, uint32_t calCount, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(480, aclsim_file_, aclsim_line_, dstTensor, srcTensor, deqScale, calCount, mode); }

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, const LocalTensor<scaleT>& deqScale, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(481, aclsim_file_, aclsim_line_, dstTensor, srcTensor, deqScale, mode); }

template <typename T>
__aicore__ inline T GetReduceRepeatSumSpr(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<T>(::aclsim::detail::call(482, aclsim_file_, aclsim_line_, ::aclsim::detail::Dtype<T>{})); }

template <typename T>
__aicore__ inline T GetAccVal(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<T>(::aclsim::detail::call(483, aclsim_file_, aclsim_line_, ::aclsim::detail::Dtype<T>{})); }

template <typename T, typename U>
__aicore__ inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(484, aclsim_file_, aclsim_line_, dst, src0, src1, count); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams& repeatParams, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(485, aclsim_file_, aclsim_line_, dst, src0, src1, mask, repeatTime, repeatParams, isSetMask); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, const uint64_t mask[2], uint8_t repeatTime, const BinaryRepeatParams& repeatParams, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(486, aclsim_file_, aclsim_line_, dst, src0, src1, ::aclsim::detail::Array{mask, 2}, repeatTime, repeatParams, isSetMask); }

template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(487, aclsim_file_, aclsim_line_, dst, src); }

template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const TransposeParamsExt& transposeParams, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(488, aclsim_file_, aclsim_line_, dst, src, sharedTmpBuffer, transposeParams); }

__aicore__ inline void Trap(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(489, aclsim_file_, aclsim_line_); }

template <typename T, TPosition pos>
__aicore__ inline LocalTensor<T> PopStackBuffer(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<LocalTensor<T>>(::aclsim::detail::call(490, aclsim_file_, aclsim_line_, ::aclsim::detail::Dtype<T>{}, pos)); }

__aicore__ inline int32_t CeilDivision(int32_t num1, int32_t num2, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(494, aclsim_file_, aclsim_line_, num1, num2)); }

__aicore__ inline uint32_t AclsimTotalUbSize(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<uint32_t>(::aclsim::detail::call(495, aclsim_file_, aclsim_line_)); }

__aicore__ inline uint32_t AclsimTotalVecLocalSize(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<uint32_t>(::aclsim::detail::call(496, aclsim_file_, aclsim_line_)); }

__aicore__ inline uint32_t AclsimTotalL1Size(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<uint32_t>(::aclsim::detail::call(497, aclsim_file_, aclsim_line_)); }

__aicore__ inline uint32_t AclsimTotalL0ASize(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<uint32_t>(::aclsim::detail::call(498, aclsim_file_, aclsim_line_)); }

__aicore__ inline uint32_t AclsimTotalL0BSize(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<uint32_t>(::aclsim::detail::call(499, aclsim_file_, aclsim_line_)); }

__aicore__ inline uint32_t AclsimTotalL0CSize(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<uint32_t>(::aclsim::detail::call(500, aclsim_file_, aclsim_line_)); }

__aicore__ inline int32_t AclsimUtilsGetBitSize(int32_t byteSize, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(501, aclsim_file_, aclsim_line_, byteSize)); }

__aicore__ inline int32_t AclsimUtilsGetC0Size(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(502, aclsim_file_, aclsim_line_)); }

__aicore__ inline int32_t AclsimUtilsGetC0Count(int32_t dtypeSize, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(503, aclsim_file_, aclsim_line_, dtypeSize)); }

__aicore__ inline int32_t AclsimUtilsGetDefaultBlockNum(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(504, aclsim_file_, aclsim_line_)); }

template <typename T, bool isSetMask = true>
__aicore__ inline void AclsimUtilsSetMask(uint64_t maskHigh, uint64_t maskLow, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(505, aclsim_file_, aclsim_line_, maskHigh, maskLow, ::aclsim::detail::Dtype<T>{}, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void AclsimUtilsSetMask(int32_t len, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(506, aclsim_file_, aclsim_line_, len, ::aclsim::detail::Dtype<T>{}, isSetMask); }

template <bool isSetMask = true>
__aicore__ inline void AclsimUtilsResetMask(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(507, aclsim_file_, aclsim_line_, isSetMask); }

template <typename T>
__aicore__ inline void AclsimUtilsSetMaskCount(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(508, aclsim_file_, aclsim_line_, ::aclsim::detail::Dtype<T>{}); }

template <typename T>
__aicore__ inline void AclsimUtilsSetMaskNorm(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(509, aclsim_file_, aclsim_line_, ::aclsim::detail::Dtype<T>{}); }

__aicore__ inline void AclsimUtilsSetOverflow(uint64_t ctrlValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(510, aclsim_file_, aclsim_line_, ctrlValue); }

template <typename T, CacheLine entireType, DcciDst dcciDst>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(511, aclsim_file_, aclsim_line_, dst, entireType, dcciDst); }

template <typename T, CacheLine entireType, DcciDst dcciDst>
__aicore__ inline void DataCacheCleanAndInvalid(const LocalTensor<T>& dst, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(512, aclsim_file_, aclsim_line_, dst, entireType, dcciDst); }

template <typename T, CacheLine entireType>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(513, aclsim_file_, aclsim_line_, dst, entireType); }

template <typename T>
__aicore__ inline T ReadGmByPassDCache(__gm__ T* addr, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<T>(::aclsim::detail::call(514, aclsim_file_, aclsim_line_, addr, ::aclsim::detail::Dtype<T>{})); }

template <typename T>
__aicore__ inline void WriteGmByPassDCache(__gm__ T* addr, T value, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(515, aclsim_file_, aclsim_line_, addr, value, ::aclsim::detail::Dtype<T>{}); }

__aicore__ inline int64_t GetSystemCycle(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(516, aclsim_file_, aclsim_line_)); }

template <typename T>
__aicore__ inline void OOMCheckAddrRange(__gm__ T* gmAddr, uint64_t gmSize, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(517, aclsim_file_, aclsim_line_, gmAddr, gmSize); }

template <typename T>
__aicore__ inline LocalTensor<T> AclsimLocalTensorAt(TPosition pos, uint32_t addr, uint32_t tileSize, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<LocalTensor<T>>(::aclsim::detail::call(535, aclsim_file_, aclsim_line_, pos, addr, tileSize, ::aclsim::detail::Dtype<T>{})); }

__aicore__ inline int64_t AclsimCrd2Idx(const uint64_t coord[64], const uint64_t shape[64], const uint64_t stride[64], const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(536, aclsim_file_, aclsim_line_, ::aclsim::detail::Array{coord, 64}, ::aclsim::detail::Array{shape, 64}, ::aclsim::detail::Array{stride, 64})); }

__aicore__ inline void SetFmatrixFields(uint16_t l1H, uint16_t l1W, uint8_t padLeft, uint8_t padRight, uint8_t padTop, uint8_t padBottom, FmatrixMode fmatrixMode, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(545, aclsim_file_, aclsim_line_, l1H, l1W, padLeft, padRight, padTop, padBottom, fmatrixMode); }

template <typename T>
__aicore__ inline void SetLoadDataPaddingValue(T padValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(546, aclsim_file_, aclsim_line_, padValue); }

template <typename T>
__aicore__ inline void LoadData3DFieldsConfig(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint8_t padLeft, uint8_t padRight, uint8_t padTop, uint8_t padBottom, uint16_t l1H, uint16_t l1W, uint16_t channelSize, uint16_t kExtension, uint16_t mExtension, uint16_t kStartPt, uint16_t mStartPt, uint8_t strideW, uint8_t strideH, uint8_t filterW, uint8_t filterH, uint8_t dilationFilterW, uint8_t dilationFilterH, bool enTranspose, bool enSmallK, ::aclsim::detail::nd_t<T> padValue, bool filterSizeW, bool filterSizeH, bool fMatrixCtrl, bool isSetFMatrix, bool isSetPadding, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(547, aclsim_file_, aclsim_line_, dst, src, padLeft, padRight, padTop, padBottom, l1H, l1W, channelSize, kExtension, mExtension, kStartPt, mStartPt, strideW, strideH, filterW, filterH, dilationFilterW, dilationFilterH, enTranspose, enSmallK, padValue, filterSizeW, filterSizeH, fMatrixCtrl, isSetFMatrix, isSetPadding); }

template <typename T>
__aicore__ inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2dTransposeParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(548, aclsim_file_, aclsim_line_, dst, src, params); }

template <typename T, typename U>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(549, aclsim_file_, aclsim_line_, dst, src, params); }

__aicore__ inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(550, aclsim_file_, aclsim_line_, ndNum, srcNdStride, dstNdStride); }

__aicore__ inline void SetDeqScale(half scale, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(551, aclsim_file_, aclsim_line_, scale); }

__aicore__ inline void SetDeqScale(float scale, int16_t offset, bool signMode, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(552, aclsim_file_, aclsim_line_, scale, offset, signMode); }

__aicore__ inline void SetHF32Mode(HF32Mode mode, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(553, aclsim_file_, aclsim_line_, mode); }

__aicore__ inline void SetHF32Mode(bool hf32Mode, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(554, aclsim_file_, aclsim_line_, hf32Mode); }

__aicore__ inline void SetHF32TransMode(HF32TransMode mode, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(555, aclsim_file_, aclsim_line_, mode); }

__aicore__ inline void SetHF32TransMode(bool hf32TransMode, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(556, aclsim_file_, aclsim_line_, hf32TransMode); }

template <typename T, typename U>
__aicore__ inline void FixpipeOldFields(const GlobalTensor<T>& dst, const LocalTensor<U>& src, uint16_t cburstNum, uint16_t burstLen, uint32_t dstStride, uint16_t srcStride, QuantMode_t quantPre, uint64_t deqScalar, bool reluEn, bool nz2ndEn, uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride, uint16_t originalNSize, uint8_t unitFlag, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(557, aclsim_file_, aclsim_line_, dst, src, cburstNum, burstLen, dstStride, srcStride, quantPre, deqScalar, reluEn, nz2ndEn, ndNum, srcNdStride, dstNdStride, originalNSize, unitFlag); }

template <typename T, typename U>
__aicore__ inline void FixpipeOldFields(const LocalTensor<T>& dst, const LocalTensor<U>& src, uint16_t cburstNum, uint16_t burstLen, uint32_t dstStride, uint16_t srcStride, QuantMode_t quantPre, uint64_t deqScalar, bool reluEn, bool nz2ndEn, uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride, uint16_t originalNSize, uint8_t unitFlag, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(558, aclsim_file_, aclsim_line_, dst, src, cburstNum, burstLen, dstStride, srcStride, quantPre, deqScalar, reluEn, nz2ndEn, ndNum, srcNdStride, dstNdStride, originalNSize, unitFlag); }

__aicore__ inline int32_t AclsimCoreType(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(567, aclsim_file_, aclsim_line_)); }

template <typename T>
__aicore__ inline void Arange(const LocalTensor<T>& dst, ::aclsim::detail::nd_t<T> firstValue, ::aclsim::detail::nd_t<T> diffValue, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(568, aclsim_file_, aclsim_line_, dst, firstValue, diffValue, count); }

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim], const uint32_t srcShape[dim], const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(569, aclsim_file_, aclsim_line_, dstLocal, srcLocal, ::aclsim::detail::Array{::aclsim::detail::Words<dim>(dstShape).w, dim}, ::aclsim::detail::Array{::aclsim::detail::Words<dim>(srcShape).w, dim}, sharedTmpBuffer, dim, axis, isReuseSource); }

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim], const uint32_t srcShape[dim], const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(570, aclsim_file_, aclsim_line_, dstLocal, srcLocal, ::aclsim::detail::Array{::aclsim::detail::Words<dim>(dstShape).w, dim}, ::aclsim::detail::Array{::aclsim::detail::Words<dim>(srcShape).w, dim}, dim, axis, isReuseSource); }

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim], const uint32_t srcShape[dim], const LocalTensor<uint8_t>& sharedTmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(571, aclsim_file_, aclsim_line_, dstLocal, srcLocal, ::aclsim::detail::Array{::aclsim::detail::Words<dim>(dstShape).w, dim}, ::aclsim::detail::Array{::aclsim::detail::Words<dim>(srcShape).w, dim}, sharedTmpBuffer, dim, axis, isReuseSource); }

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim], const uint32_t srcShape[dim], const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(572, aclsim_file_, aclsim_line_, dstLocal, srcLocal, ::aclsim::detail::Array{::aclsim::detail::Words<dim>(dstShape).w, dim}, ::aclsim::detail::Array{::aclsim::detail::Words<dim>(srcShape).w, dim}, dim, axis, isReuseSource); }

template <typename T, typename U>
__aicore__ inline void BroadCastVecToMM(const LocalTensor<T>& dst, const LocalTensor<U>& src, int32_t blockCount, uint8_t blockLen, uint8_t srcGap, uint8_t dstGap, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(573, aclsim_file_, aclsim_line_, dst, src, blockCount, blockLen, srcGap, dstGap); }

__aicore__ inline void SetLoopModePara(const LoopModeParams& loopParams, DataCopyMVType type, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(574, aclsim_file_, aclsim_line_, loopParams, type); }

__aicore__ inline void ResetLoopModePara(DataCopyMVType type, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(575, aclsim_file_, aclsim_line_, type); }

template <typename T>
__aicore__ inline void TransDataTo5HD(const uint64_t dstList[16], const uint64_t srcList[16], const TransDataTo5HDParams& nchwconvParams, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(576, aclsim_file_, aclsim_line_, ::aclsim::detail::Array{dstList, 16}, ::aclsim::detail::Array{srcList, 16}, nchwconvParams, ::aclsim::detail::Dtype<T>{}); }

template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<uint64_t>& dst, const LocalTensor<uint64_t>& src, const TransDataTo5HDParams& nchwconvParams, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(577, aclsim_file_, aclsim_line_, dst, src, nchwconvParams, ::aclsim::detail::Dtype<T>{}); }

template <typename T, bool isReuseSource>
__aicore__ inline void AclsimReduceSumPattern(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[2], bool srcInnerPad, int32_t pattern, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(578, aclsim_file_, aclsim_line_, dstTensor, srcTensor, sharedTmpBuffer, ::aclsim::detail::Array{::aclsim::detail::Words<2>(srcShape).w, 2}, srcInnerPad, pattern, isReuseSource); }

template <typename T, bool isReuseSource>
__aicore__ inline void AclsimReduceSumPattern(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t srcShape[2], bool srcInnerPad, int32_t pattern, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(579, aclsim_file_, aclsim_line_, dstTensor, srcTensor, ::aclsim::detail::Array{::aclsim::detail::Words<2>(srcShape).w, 2}, srcInnerPad, pattern, isReuseSource); }

__aicore__ inline uint32_t AclsimReservedWorkspace(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<uint32_t>(::aclsim::detail::call(580, aclsim_file_, aclsim_line_)); }

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(581, aclsim_file_, aclsim_line_, dstTensor, inSumTensor, inMaxTensor, srcTensor, sharedTmpBuffer, tiling, softmaxShapeInfo, isReuseSource, isBasicBlock, isDataFormatNZ); }

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(582, aclsim_file_, aclsim_line_, dstTensor, inSumTensor, inMaxTensor, srcTensor, sharedTmpBuffer, tiling, isReuseSource, isBasicBlock, isDataFormatNZ); }

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(583, aclsim_file_, aclsim_line_, dstTensor, inSumTensor, inMaxTensor, srcTensor, tiling, softmaxShapeInfo, isReuseSource, isBasicBlock, isDataFormatNZ); }

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(584, aclsim_file_, aclsim_line_, dstTensor, inSumTensor, inMaxTensor, srcTensor, tiling, isReuseSource, isBasicBlock, isDataFormatNZ); }

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor, const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(585, aclsim_file_, aclsim_line_, dstTensor, inSumTensor, inMaxTensor, srcTensor, sharedTmpBuffer, tiling, softmaxShapeInfo, isReuseSource, isBasicBlock, isDataFormatNZ); }

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor, const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(586, aclsim_file_, aclsim_line_, dstTensor, inSumTensor, inMaxTensor, srcTensor, sharedTmpBuffer, tiling, isReuseSource, isBasicBlock, isDataFormatNZ); }

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor, const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(587, aclsim_file_, aclsim_line_, dstTensor, inSumTensor, inMaxTensor, srcTensor, tiling, softmaxShapeInfo, isReuseSource, isBasicBlock, isDataFormatNZ); }

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor, const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor, const SoftMaxTiling& tiling, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(588, aclsim_file_, aclsim_line_, dstTensor, inSumTensor, inMaxTensor, srcTensor, tiling, isReuseSource, isBasicBlock, isDataFormatNZ); }

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const LogSoftMaxTiling& tiling, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(589, aclsim_file_, aclsim_line_, dst, sumTensor, maxTensor, src, sharedTmpBuffer, tiling, isReuseSource, isDataFormatNZ); }

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const LogSoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(590, aclsim_file_, aclsim_line_, dst, sumTensor, maxTensor, src, sharedTmpBuffer, tiling, softmaxShapeInfo, isReuseSource, isDataFormatNZ); }

template <class Shape>
__aicore__ inline uint32_t GetLogSoftMaxMaxTmpSize(Shape srcShape, uint32_t dataTypeSize, bool isReuseSource, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<uint32_t>(::aclsim::detail::call(591, aclsim_file_, aclsim_line_, srcShape, dataTypeSize, isReuseSource)); }

template <class Shape>
__aicore__ inline uint32_t GetLogSoftMaxMinTmpSize(Shape srcShape, uint32_t dataTypeSize, bool isReuseSource, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<uint32_t>(::aclsim::detail::call(592, aclsim_file_, aclsim_line_, srcShape, dataTypeSize, isReuseSource)); }

template <class Shape>
__aicore__ inline uint32_t AclsimLogSoftMaxTilingValue(Shape srcShape, uint32_t dataTypeSize, uint32_t localWorkSpaceSize, uint32_t index, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<uint32_t>(::aclsim::detail::call(593, aclsim_file_, aclsim_line_, srcShape, dataTypeSize, localWorkSpaceSize, index)); }

__aicore__ inline int64_t AclsimPlatformInfo(const char* soc, int32_t what, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(601, aclsim_file_, aclsim_line_, soc, what)); }

template <typename T>
__aicore__ inline void Concat(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTimes, int32_t modeNumber, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(602, aclsim_file_, aclsim_line_, dst, src, repeatTimes, modeNumber); }

template <typename T>
__aicore__ inline void Extract(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTimes, int32_t modeNumber, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(603, aclsim_file_, aclsim_line_, dst, src, repeatTimes, modeNumber); }

}  // namespace AscendC
