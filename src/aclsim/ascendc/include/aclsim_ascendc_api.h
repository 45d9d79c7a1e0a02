/* Generated from aclsim/ascendc/api_cxx.txt by `python -m aclsim.ascendc.gen_cxx`: do not edit. */
#pragma once
#define ACLSIM_ASCENDC_TABLE "6784555c2d4b55a0"
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
template <> struct EnumId<::AscendC::CubeFormat> { static constexpr int value = 7; };
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
template <> struct EnumId<::AscendC::LayoutMode> { static constexpr int value = 8; };
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
template <> struct EnumId<::AscendC::DataType> { static constexpr int value = 9; };
} }  // namespace aclsim::detail
namespace AscendC {

enum QuantMode_t : int32_t {
    NoQuant = 0,
    F322F16 = 1,
    F322BF16 = 2
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::QuantMode_t> { static constexpr int value = 10; };
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
template <> struct EnumId<::AscendC::BlockMode> { static constexpr int value = 11; };
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
template <> struct EnumId<::AscendC::DeqScale> { static constexpr int value = 12; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class CO2Layout : int32_t {
    NZ = 0,
    ROW_MAJOR = 1,
    COLUMN_MAJOR = 2
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::CO2Layout> { static constexpr int value = 13; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class MatrixTraverse : int32_t {
    NOSET = 0,
    FIRSTM = 1,
    FIRSTN = 2
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::MatrixTraverse> { static constexpr int value = 14; };
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
template <> struct StructId<::AscendC::Nd2NzParams> { static constexpr int value = 5; };
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
template <> struct StructId<::AscendC::LoadData2DParams> { static constexpr int value = 6; };
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
template <> struct StructId<::AscendC::MmadParams> { static constexpr int value = 7; };
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
template <> struct StructId<::AscendC::FixpipeParamsV220> { static constexpr int value = 8; };
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
template <> struct StructId<::AscendC::DataCopyEnhancedParams> { static constexpr int value = 9; };
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
template <> struct StructId<::AscendC::TCubeTiling> { static constexpr int value = 10; };
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
template <> struct StructId<::AscendC::FixpipeConfig> { static constexpr int value = 11; };
} }  // namespace aclsim::detail
namespace AscendC {

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
    __aicore__ MatmulObject(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
        : Object(::aclsim::detail::call(88, aclsim_file_, aclsim_line_, aPos, aFmt, ::aclsim::detail::Dtype<aT>{}, aTrans, aLayout, aIbShare, bPos, bFmt, ::aclsim::detail::Dtype<bT>{}, bTrans, bLayout, bIbShare, cPos, cFmt, ::aclsim::detail::Dtype<cT>{}, cLayout, biasPos, biasFmt, ::aclsim::detail::Dtype<biasT>{}).v.i) {}
    __aicore__ explicit MatmulObject(::aclsim::detail::Handle h) : Object(h.value) {}
#ifdef ACLSIM_CLASS_EXTRA_MatmulObject
    ACLSIM_CLASS_EXTRA_MatmulObject
#endif
    __aicore__ inline void Init(const TCubeTiling& tiling, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(89, aclsim_file_, aclsim_line_, *this, tiling); }
    __aicore__ inline void Init(const TCubeTiling& tiling, const TPipe& tpipe, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(90, aclsim_file_, aclsim_line_, *this, tiling, tpipe); }
    template <typename T>
    __aicore__ inline void SetTensorA(const GlobalTensor<T>& gm, bool isTransposeA = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(91, aclsim_file_, aclsim_line_, *this, gm, isTransposeA); }
    template <typename T>
    __aicore__ inline void SetTensorA(const LocalTensor<T>& leftMatrix, bool isTransposeA = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(92, aclsim_file_, aclsim_line_, *this, leftMatrix, isTransposeA); }
    template <typename T>
    __aicore__ inline void SetTensorB(const GlobalTensor<T>& gm, bool isTransposeB = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(93, aclsim_file_, aclsim_line_, *this, gm, isTransposeB); }
    template <typename T>
    __aicore__ inline void SetTensorB(const LocalTensor<T>& rightMatrix, bool isTransposeB = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(94, aclsim_file_, aclsim_line_, *this, rightMatrix, isTransposeB); }
    template <typename T>
    __aicore__ inline void SetBias(const GlobalTensor<T>& biasGlobal, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(95, aclsim_file_, aclsim_line_, *this, biasGlobal); }
    __aicore__ inline void DisableBias(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(96, aclsim_file_, aclsim_line_, *this); }
    __aicore__ inline void ClearBias(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(97, aclsim_file_, aclsim_line_, *this); }
    __aicore__ inline void SetTail(int32_t tailM = -1, int32_t tailN = -1, int32_t tailK = -1, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(98, aclsim_file_, aclsim_line_, *this, tailM, tailN, tailK); }
    __aicore__ inline void SetOrgShape(int32_t orgM, int32_t orgN, int32_t orgK, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(99, aclsim_file_, aclsim_line_, *this, orgM, orgN, orgK); }
    __aicore__ inline void SetOrgShape(int32_t orgM, int32_t orgN, int32_t orgKa, int32_t orgKb, int32_t orgKc = 0, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(100, aclsim_file_, aclsim_line_, *this, orgM, orgN, orgKa, orgKb, orgKc); }
    __aicore__ inline void SetSingleShape(int32_t singleM, int32_t singleN, int32_t singleK, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(101, aclsim_file_, aclsim_line_, *this, singleM, singleN, singleK); }
    template <typename T>
    __aicore__ inline void SetLocalWorkspace(const LocalTensor<T>& tmpBuffer, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(102, aclsim_file_, aclsim_line_, *this, tmpBuffer); }
    template <bool sync = true>
    __aicore__ inline bool Iterate(bool enPartialSum = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<bool>(::aclsim::detail::call(103, aclsim_file_, aclsim_line_, *this, enPartialSum, sync)); }
    template <bool sync = true, typename T>
    __aicore__ inline void GetTensorC(const LocalTensor<T>& c, uint8_t enAtomic = 0, bool enSequentialWrite = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(104, aclsim_file_, aclsim_line_, *this, c, enAtomic, enSequentialWrite, sync); }
    template <bool sync = true, typename T>
    __aicore__ inline void GetTensorC(const GlobalTensor<T>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(105, aclsim_file_, aclsim_line_, *this, gm, enAtomic, enSequentialWrite, sync); }
    template <bool sync = true, typename T>
    __aicore__ inline void IterateAll(const GlobalTensor<T>& gm, uint8_t enAtomic = 0, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(106, aclsim_file_, aclsim_line_, *this, gm, enAtomic, sync); }
    __aicore__ inline void SetSubBlockIdx(uint8_t subBlockIdx, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(107, aclsim_file_, aclsim_line_, *this, subBlockIdx); }
    template <bool sync = true, typename T>
    __aicore__ inline void IterateAll(const LocalTensor<T>& ub, uint8_t enAtomic = 0, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(108, aclsim_file_, aclsim_line_, *this, ub, enAtomic, sync); }
    template <typename T>
    __aicore__ inline void SetWorkspace(const GlobalTensor<T>& addr, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(109, aclsim_file_, aclsim_line_, *this, addr); }
    __aicore__ inline void SetHF32(bool enableHF32 = false, int32_t transMode = 0, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(110, aclsim_file_, aclsim_line_, *this, enableHF32, transMode); }
    __aicore__ inline void End(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(111, aclsim_file_, aclsim_line_, *this); }
};

class MatmulTilingHost : public ::aclsim::detail::Object {
public:
    __aicore__ MatmulTilingHost(bool multiCore, const char* soc, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
        : Object(::aclsim::detail::call(115, aclsim_file_, aclsim_line_, multiCore, soc).v.i) {}
    __aicore__ explicit MatmulTilingHost(::aclsim::detail::Handle h) : Object(h.value) {}
#ifdef ACLSIM_CLASS_EXTRA_MatmulTilingHost
    ACLSIM_CLASS_EXTRA_MatmulTilingHost
#endif
    __aicore__ inline int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(116, aclsim_file_, aclsim_line_, *this, pos, type, dataType, isTrans)); }
    __aicore__ inline int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(117, aclsim_file_, aclsim_line_, *this, pos, type, dataType, isTrans)); }
    __aicore__ inline int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(118, aclsim_file_, aclsim_line_, *this, pos, type, dataType)); }
    __aicore__ inline int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(119, aclsim_file_, aclsim_line_, *this, pos, type, dataType)); }
    __aicore__ inline int32_t SetShape(int32_t m, int32_t n, int32_t k, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(120, aclsim_file_, aclsim_line_, *this, m, n, k)); }
    __aicore__ inline int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(121, aclsim_file_, aclsim_line_, *this, orgMIn, orgNIn, orgKIn)); }
    __aicore__ inline int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(122, aclsim_file_, aclsim_line_, *this, orgMIn, orgNIn, orgKaIn, orgKbIn)); }
    __aicore__ inline int32_t SetBias(bool isBiasIn = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(123, aclsim_file_, aclsim_line_, *this, isBiasIn)); }
    __aicore__ inline int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(124, aclsim_file_, aclsim_line_, *this, l1Size, l0CSize, ubSize)); }
    __aicore__ inline int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(125, aclsim_file_, aclsim_line_, *this, baseMIn, baseNIn, baseKIn)); }
    __aicore__ inline int32_t SetTraverse(MatrixTraverse traverse, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(126, aclsim_file_, aclsim_line_, *this, traverse)); }
    __aicore__ inline int32_t SetDim(int32_t dim, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(127, aclsim_file_, aclsim_line_, *this, dim)); }
    __aicore__ inline int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(128, aclsim_file_, aclsim_line_, *this, singleMIn, singleNIn, singleKIn)); }
    __aicore__ inline int32_t GetBaseM(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(129, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline int32_t GetBaseN(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(130, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline int32_t GetBaseK(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(131, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline int64_t ComputeTiling(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(132, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline int64_t TilingValue(uint32_t index, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(133, aclsim_file_, aclsim_line_, *this, index)); }
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
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(78, aclsim_file_, aclsim_line_, dst, src, params); }

template <typename T, typename U>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& params, const DataCopyEnhancedParams& enhancedParams, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(79, aclsim_file_, aclsim_line_, dst, src, params, enhancedParams); }

template <typename T, typename U>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(80, aclsim_file_, aclsim_line_, dst, src, params); }

template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(81, aclsim_file_, aclsim_line_, dst, src, params); }

template <typename T, typename U, typename S>
__aicore__ inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter, const MmadParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(82, aclsim_file_, aclsim_line_, dst, fm, filter, params); }

template <typename T, typename U, typename S, typename V>
__aicore__ inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter, const LocalTensor<V>& bias, const MmadParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(83, aclsim_file_, aclsim_line_, dst, fm, filter, bias, params); }

template <typename T, typename U>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(84, aclsim_file_, aclsim_line_, dst, src, params); }

template <typename T, typename U>
__aicore__ inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(85, aclsim_file_, aclsim_line_, dst, src, params); }

__aicore__ inline uint8_t* GetSysWorkSpacePtr(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<uint8_t*>(::aclsim::detail::call(86, aclsim_file_, aclsim_line_)); }

__aicore__ inline void SetSysWorkspace(uint8_t* workspace, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(87, aclsim_file_, aclsim_line_, workspace); }

template <class M>
__aicore__ inline void RegistMatmulObj(const TPipe& tpipe, uint8_t* workspace, M mm, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(112, aclsim_file_, aclsim_line_, tpipe, workspace, mm); }

template <class M>
__aicore__ inline void RegistMatmulObj(const TPipe& tpipe, uint8_t* workspace, M mm, const TCubeTiling& tiling, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(113, aclsim_file_, aclsim_line_, tpipe, workspace, mm, tiling); }

template <class M, class N>
__aicore__ inline void RegistMatmulObj(const TPipe& tpipe, uint8_t* workspace, M mm, const TCubeTiling& tiling, N mm2, const TCubeTiling& tiling2, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(114, aclsim_file_, aclsim_line_, tpipe, workspace, mm, tiling, mm2, tiling2); }

template <typename T>
__aicore__ inline void InitConstValueFields(const LocalTensor<T>& dst, uint16_t repeatTimes, uint16_t blockNum, uint16_t dstGap, ::aclsim::detail::nd_t<T> initValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(134, aclsim_file_, aclsim_line_, dst, repeatTimes, blockNum, dstGap, initValue); }

template <typename T>
__aicore__ inline void FillFields(const LocalTensor<T>& dst, uint16_t repeatTimes, uint16_t blockNum, uint16_t dstGap, ::aclsim::detail::nd_t<T> initValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(135, aclsim_file_, aclsim_line_, dst, repeatTimes, blockNum, dstGap, initValue); }

template <typename T, typename U>
__aicore__ inline void FixpipeWithConfig(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& params, const FixpipeConfig& config, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(136, aclsim_file_, aclsim_line_, dst, src, params, config); }

template <typename T, typename U>
__aicore__ inline void FixpipeWithConfig(const LocalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& params, const FixpipeConfig& config, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(137, aclsim_file_, aclsim_line_, dst, src, params, config); }

template <typename T>
__aicore__ inline void LoadData3DFields(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint8_t padLeft, uint8_t padRight, uint8_t padTop, uint8_t padBottom, uint16_t l1H, uint16_t l1W, uint16_t channelSize, uint16_t kExtension, uint16_t mExtension, uint16_t kStartPt, uint16_t mStartPt, uint8_t strideW, uint8_t strideH, uint8_t filterW, uint8_t filterH, uint8_t dilationFilterW, uint8_t dilationFilterH, bool enTranspose, bool enSmallK, ::aclsim::detail::nd_t<T> padValue, bool filterSizeW, bool filterSizeH, bool fMatrixCtrl, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(138, aclsim_file_, aclsim_line_, dst, src, padLeft, padRight, padTop, padBottom, l1H, l1W, channelSize, kExtension, mExtension, kStartPt, mStartPt, strideW, strideH, filterW, filterH, dilationFilterW, dilationFilterH, enTranspose, enSmallK, padValue, filterSizeW, filterSizeH, fMatrixCtrl); }

}  // namespace AscendC
