/* Generated from aclsim/ascendc/api_cxx.txt by `python -m aclsim.ascendc.gen_cxx`: do not edit. */
#pragma once
#define ACLSIM_ASCENDC_TABLE "d732b2968b10dc8e"
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

struct DataCopyParams {
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;
    uint16_t srcStride = 0;
    uint16_t dstStride = 0;
    __aicore__ DataCopyParams() = default;
    __aicore__ DataCopyParams(uint16_t blockCount_, uint16_t blockLen_, uint16_t srcStride_, uint16_t dstStride_) : blockCount(blockCount_), blockLen(blockLen_), srcStride(srcStride_), dstStride(dstStride_) {}
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::DataCopyParams> { static constexpr int value = 0; };
} }  // namespace aclsim::detail
namespace AscendC {

struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
    __aicore__ DataCopyExtParams() = default;
    __aicore__ DataCopyExtParams(uint16_t blockCount_, uint32_t blockLen_, uint32_t srcStride_, uint32_t dstStride_, uint32_t rsv_) : blockCount(blockCount_), blockLen(blockLen_), srcStride(srcStride_), dstStride(dstStride_), rsv(rsv_) {}
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::DataCopyExtParams> { static constexpr int value = 1; };
} }  // namespace aclsim::detail
namespace AscendC {

struct BinaryRepeatParams {
    uint8_t dstBlkStride = 1;
    uint8_t src0BlkStride = 1;
    uint8_t src1BlkStride = 1;
    uint8_t dstRepStride = 8;
    uint8_t src0RepStride = 8;
    uint8_t src1RepStride = 8;
    __aicore__ BinaryRepeatParams() = default;
    __aicore__ BinaryRepeatParams(uint8_t dstBlkStride_, uint8_t src0BlkStride_, uint8_t src1BlkStride_, uint8_t dstRepStride_, uint8_t src0RepStride_, uint8_t src1RepStride_) : dstBlkStride(dstBlkStride_), src0BlkStride(src0BlkStride_), src1BlkStride(src1BlkStride_), dstRepStride(dstRepStride_), src0RepStride(src0RepStride_), src1RepStride(src1RepStride_) {}
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::BinaryRepeatParams> { static constexpr int value = 2; };
} }  // namespace aclsim::detail
namespace AscendC {

struct UnaryRepeatParams {
    uint16_t dstBlkStride = 1;
    uint16_t srcBlkStride = 1;
    uint8_t dstRepStride = 8;
    uint8_t srcRepStride = 8;
    __aicore__ UnaryRepeatParams() = default;
    __aicore__ UnaryRepeatParams(uint16_t dstBlkStride_, uint16_t srcBlkStride_, uint8_t dstRepStride_, uint8_t srcRepStride_) : dstBlkStride(dstBlkStride_), srcBlkStride(srcBlkStride_), dstRepStride(dstRepStride_), srcRepStride(srcRepStride_) {}
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::UnaryRepeatParams> { static constexpr int value = 3; };
} }  // namespace aclsim::detail
namespace AscendC {

struct GatherMaskParams {
    uint8_t src0BlockStride = 1;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = 8;
    uint8_t src1RepeatStride = 8;
    __aicore__ GatherMaskParams() = default;
    __aicore__ GatherMaskParams(uint8_t src0BlockStride_, uint16_t repeatTimes_, uint16_t src0RepeatStride_, uint8_t src1RepeatStride_) : src0BlockStride(src0BlockStride_), repeatTimes(repeatTimes_), src0RepeatStride(src0RepeatStride_), src1RepeatStride(src1RepeatStride_) {}
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::GatherMaskParams> { static constexpr int value = 4; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class MaskMode : int32_t {
    NORMAL = 0,
    COUNTER = 1
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::MaskMode> { static constexpr int value = 7; };
} }  // namespace aclsim::detail
namespace AscendC {

struct DataCopyPadParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
    __aicore__ DataCopyPadParams() = default;
    __aicore__ DataCopyPadParams(bool isPad_, uint8_t leftPadding_, uint8_t rightPadding_, uint64_t paddingValue_) : isPad(isPad_), leftPadding(leftPadding_), rightPadding(rightPadding_), paddingValue(paddingValue_) {}
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::DataCopyPadParams> { static constexpr int value = 5; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class BlockMode : int32_t {
    BLOCK_MODE_NORMAL = 0,
    BLOCK_MODE_MATRIX = 1,
    BLOCK_MODE_VECTOR = 2,
    BLOCK_MODE_SMALL_CHANNEL = 3,
    BLOCK_MODE_DEPTHWISE = 4
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct EnumId<::AscendC::BlockMode> { static constexpr int value = 8; };
} }  // namespace aclsim::detail
namespace AscendC {

enum class DeqScale : int32_t {
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
template <> struct EnumId<::AscendC::DeqScale> { static constexpr int value = 9; };
} }  // namespace aclsim::detail
namespace AscendC {

struct DataCopyEnhancedParams {
    BlockMode blockMode = BlockMode::BLOCK_MODE_NORMAL;
    DeqScale deqScale = DeqScale::DEQ_NONE;
    uint64_t deqValue = 0;
    uint8_t sidStoreMode = 0;
    bool isRelu = false;
    int32_t padMode = 0;
    uint64_t padValue = 0;
    __aicore__ DataCopyEnhancedParams() = default;
    __aicore__ DataCopyEnhancedParams(BlockMode blockMode_, DeqScale deqScale_, uint64_t deqValue_, uint8_t sidStoreMode_, bool isRelu_, int32_t padMode_, uint64_t padValue_) : blockMode(blockMode_), deqScale(deqScale_), deqValue(deqValue_), sidStoreMode(sidStoreMode_), isRelu(isRelu_), padMode(padMode_), padValue(padValue_) {}
};
}  // namespace AscendC
namespace aclsim { namespace detail {
template <> struct StructId<::AscendC::DataCopyEnhancedParams> { static constexpr int value = 6; };
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
    __aicore__ inline uint64_t GetPhyAddr(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<uint64_t>(::aclsim::detail::call(164, aclsim_file_, aclsim_line_, *this)); }
    __aicore__ inline TPosition GetPosition(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { return ::aclsim::detail::unpack<TPosition>(::aclsim::detail::call(165, aclsim_file_, aclsim_line_, *this)); }
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
    __aicore__ inline void SetL2CacheHint(CacheMode mode, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) const { ::aclsim::detail::call(172, aclsim_file_, aclsim_line_, *this, mode, rwMode); }
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

template <typename T, bool isSetMask = true>
__aicore__ inline void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(78, aclsim_file_, aclsim_line_, dst, src0, src1, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Sub(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(79, aclsim_file_, aclsim_line_, dst, src0, src1, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Sub(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(80, aclsim_file_, aclsim_line_, dst, src0, src1, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Mul(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(81, aclsim_file_, aclsim_line_, dst, src0, src1, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Mul(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(82, aclsim_file_, aclsim_line_, dst, src0, src1, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(83, aclsim_file_, aclsim_line_, dst, src0, src1, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(84, aclsim_file_, aclsim_line_, dst, src0, src1, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Max(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(85, aclsim_file_, aclsim_line_, dst, src0, src1, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Max(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(86, aclsim_file_, aclsim_line_, dst, src0, src1, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Min(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(87, aclsim_file_, aclsim_line_, dst, src0, src1, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Min(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(88, aclsim_file_, aclsim_line_, dst, src0, src1, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void And(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(89, aclsim_file_, aclsim_line_, dst, src0, src1, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void And(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(90, aclsim_file_, aclsim_line_, dst, src0, src1, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Or(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(91, aclsim_file_, aclsim_line_, dst, src0, src1, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Or(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(92, aclsim_file_, aclsim_line_, dst, src0, src1, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(93, aclsim_file_, aclsim_line_, dst, src, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(94, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Ln(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(95, aclsim_file_, aclsim_line_, dst, src, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Ln(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(96, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Abs(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(97, aclsim_file_, aclsim_line_, dst, src, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Abs(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(98, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Sqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(99, aclsim_file_, aclsim_line_, dst, src, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Sqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(100, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Rsqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(101, aclsim_file_, aclsim_line_, dst, src, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Rsqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(102, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Reciprocal(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(103, aclsim_file_, aclsim_line_, dst, src, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Reciprocal(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(104, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Relu(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(105, aclsim_file_, aclsim_line_, dst, src, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Relu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(106, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Not(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(107, aclsim_file_, aclsim_line_, dst, src, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Not(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(108, aclsim_file_, aclsim_line_, dst, src, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(109, aclsim_file_, aclsim_line_, dst, src, scalar, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(110, aclsim_file_, aclsim_line_, dst, src, scalar, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Muls(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(111, aclsim_file_, aclsim_line_, dst, src, scalar, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Muls(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(112, aclsim_file_, aclsim_line_, dst, src, scalar, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Maxs(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(113, aclsim_file_, aclsim_line_, dst, src, scalar, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Maxs(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(114, aclsim_file_, aclsim_line_, dst, src, scalar, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Mins(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(115, aclsim_file_, aclsim_line_, dst, src, scalar, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Mins(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(116, aclsim_file_, aclsim_line_, dst, src, scalar, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void LeakyRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(117, aclsim_file_, aclsim_line_, dst, src, scalar, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void LeakyRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(118, aclsim_file_, aclsim_line_, dst, src, scalar, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T>
__aicore__ inline void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(119, aclsim_file_, aclsim_line_, dst, src, scalar, count); }

template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(120, aclsim_file_, aclsim_line_, dst, src, scalar, mask, repeatTimes, params, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(121, aclsim_file_, aclsim_line_, dst, src, scalar, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T>
__aicore__ inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(122, aclsim_file_, aclsim_line_, dst, src, scalar, count); }

template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, bool roundEn = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(123, aclsim_file_, aclsim_line_, dst, src, scalar, mask, repeatTimes, params, roundEn, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::aclsim::detail::nd_t<T> scalar, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, bool roundEn = false, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(124, aclsim_file_, aclsim_line_, dst, src, scalar, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, roundEn, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, ::aclsim::detail::nd_t<T> scalar, uint64_t mask, uint8_t repeatTimes, uint16_t dstBlockStride, uint8_t dstRepeatStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(125, aclsim_file_, aclsim_line_, dst, scalar, mask, repeatTimes, dstBlockStride, dstRepeatStride, isSetMask); }

template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, ::aclsim::detail::nd_t<T> scalar, const uint64_t mask[], uint8_t repeatTimes, uint16_t dstBlockStride, uint8_t dstRepeatStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(126, aclsim_file_, aclsim_line_, dst, scalar, ::aclsim::detail::Array{mask, 2}, repeatTimes, dstBlockStride, dstRepeatStride, isSetMask); }

template <typename T, typename U>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, RoundMode roundMode, uint32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(127, aclsim_file_, aclsim_line_, dst, src, roundMode, count); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, RoundMode roundMode, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(128, aclsim_file_, aclsim_line_, dst, src, roundMode, mask, repeatTimes, params, isSetMask); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, RoundMode roundMode, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(129, aclsim_file_, aclsim_line_, dst, src, roundMode, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(130, aclsim_file_, aclsim_line_, dst, src0, src1, cmpMode, mask, repeatTimes, params, isSetMask); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(131, aclsim_file_, aclsim_line_, dst, src0, src1, cmpMode, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, typename U>
__aicore__ inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1Scalar, CMPMODE cmpMode, uint32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(132, aclsim_file_, aclsim_line_, dst, src0, src1Scalar, cmpMode, count); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1Scalar, CMPMODE cmpMode, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(133, aclsim_file_, aclsim_line_, dst, src0, src1Scalar, cmpMode, mask, repeatTimes, params, isSetMask); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1Scalar, CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(134, aclsim_file_, aclsim_line_, dst, src0, src1Scalar, cmpMode, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, typename U>
__aicore__ inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1Scalar, CMPMODE cmpMode, uint32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(135, aclsim_file_, aclsim_line_, dst, src0, src1Scalar, cmpMode, count); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1Scalar, CMPMODE cmpMode, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(136, aclsim_file_, aclsim_line_, dst, src0, src1Scalar, cmpMode, mask, repeatTimes, params, isSetMask); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1Scalar, CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(137, aclsim_file_, aclsim_line_, dst, src0, src1Scalar, cmpMode, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, const LocalTensor<T>& src1, SELMODE selMode, uint32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(138, aclsim_file_, aclsim_line_, dst, selMask, src0, src1, selMode, count); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(139, aclsim_file_, aclsim_line_, dst, selMask, src0, src1, selMode, mask, repeatTimes, params, isSetMask); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, const LocalTensor<T>& src1, SELMODE selMode, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(140, aclsim_file_, aclsim_line_, dst, selMask, src0, src1, selMode, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1, SELMODE selMode, uint32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(141, aclsim_file_, aclsim_line_, dst, selMask, src0, src1, selMode, count); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1, SELMODE selMode, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(142, aclsim_file_, aclsim_line_, dst, selMask, src0, src1, selMode, mask, repeatTimes, params, isSetMask); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, ::aclsim::detail::nd_t<T> src1, SELMODE selMode, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(143, aclsim_file_, aclsim_line_, dst, selMask, src0, src1, selMode, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T, typename U>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, ::aclsim::detail::nd_t<U> scalar, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(144, aclsim_file_, aclsim_line_, dst, src, scalar, count); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, ::aclsim::detail::nd_t<U> scalar, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(145, aclsim_file_, aclsim_line_, dst, src, scalar, mask, repeatTimes, params, isSetMask); }

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, ::aclsim::detail::nd_t<U> scalar, const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(146, aclsim_file_, aclsim_line_, dst, src, scalar, ::aclsim::detail::Array{mask, 2}, repeatTimes, params, isSetMask); }

template <typename T>
__aicore__ inline void CreateVecIndex(const LocalTensor<T>& dst, ::aclsim::detail::nd_t<T> firstValue, uint32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(147, aclsim_file_, aclsim_line_, dst, firstValue, count); }

template <typename T>
__aicore__ inline void CreateVecIndex(const LocalTensor<T>& dst, ::aclsim::detail::nd_t<T> firstValue, uint64_t mask, uint8_t repeatTimes, uint16_t dstBlkStride, uint8_t dstRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(148, aclsim_file_, aclsim_line_, dst, firstValue, mask, repeatTimes, dstBlkStride, dstRepStride); }

template <typename T>
__aicore__ inline void CreateVecIndex(const LocalTensor<T>& dst, ::aclsim::detail::nd_t<T> firstValue, const uint64_t mask[], uint8_t repeatTimes, uint16_t dstBlkStride, uint8_t dstRepStride, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(149, aclsim_file_, aclsim_line_, dst, firstValue, ::aclsim::detail::Array{mask, 2}, repeatTimes, dstBlkStride, dstRepStride); }

template <typename T>
__aicore__ inline void ArithProgression(const LocalTensor<T>& dst, ::aclsim::detail::nd_t<T> firstValue, ::aclsim::detail::nd_t<T> diffValue, int32_t count, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(150, aclsim_file_, aclsim_line_, dst, firstValue, diffValue, count); }

__aicore__ inline void SetMaskCount(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(151, aclsim_file_, aclsim_line_); }

__aicore__ inline void SetMaskNorm(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(152, aclsim_file_, aclsim_line_); }

__aicore__ inline void ResetMask(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(153, aclsim_file_, aclsim_line_); }

template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ inline void SetVectorMask(uint64_t maskHigh, uint64_t maskLow, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(154, aclsim_file_, aclsim_line_, maskHigh, maskLow, ::aclsim::detail::Dtype<T>{}, mode); }

template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ inline void SetVectorMask(int32_t len, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(155, aclsim_file_, aclsim_line_, len, ::aclsim::detail::Dtype<T>{}, mode); }

template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(156, aclsim_file_, aclsim_line_, dst, src, params); }

template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& params, const DataCopyPadParams& padParams, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(157, aclsim_file_, aclsim_line_, dst, src, params, padParams); }

template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(158, aclsim_file_, aclsim_line_, dst, src, params); }

template <typename T>
__aicore__ inline void aclsim_DataCopyPadExt(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& params, bool isPad, uint8_t leftPadding, uint8_t rightPadding, ::aclsim::detail::nd_t<T> paddingValue, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(159, aclsim_file_, aclsim_line_, dst, src, params, isPad, leftPadding, rightPadding, paddingValue); }

__aicore__ inline void set_flag(pipe_t pipe, pipe_t tpipe, int32_t eventID, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(160, aclsim_file_, aclsim_line_, pipe, tpipe, eventID); }

__aicore__ inline void wait_flag(pipe_t pipe, pipe_t tpipe, int32_t eventID, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(161, aclsim_file_, aclsim_line_, pipe, tpipe, eventID); }

__aicore__ inline void pipe_barrier(pipe_t pipe, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(162, aclsim_file_, aclsim_line_, pipe); }

__aicore__ inline TPipe aclsim_GetTPipe(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<TPipe>(::aclsim::detail::call(163, aclsim_file_, aclsim_line_)); }

__aicore__ inline float ToFloat(bfloat16_t value, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<float>(::aclsim::detail::call(166, aclsim_file_, aclsim_line_, value)); }

__aicore__ inline bfloat16_t ToBfloat16(float value, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<bfloat16_t>(::aclsim::detail::call(167, aclsim_file_, aclsim_line_, value)); }

__aicore__ inline int32_t GetDataBlockSizeInBytes(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int32_t>(::aclsim::detail::call(168, aclsim_file_, aclsim_line_)); }

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& params, const DataCopyEnhancedParams& enhancedParams, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(169, aclsim_file_, aclsim_line_, dst, src, params, enhancedParams); }

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params, const DataCopyEnhancedParams& enhancedParams, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(170, aclsim_file_, aclsim_line_, dst, src, params, enhancedParams); }

template <typename T, typename U>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& params, const DataCopyEnhancedParams& enhancedParams, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { ::aclsim::detail::call(171, aclsim_file_, aclsim_line_, dst, src, params, enhancedParams); }

template <int countValue>
__aicore__ inline int64_t GetBitCount(uint64_t valueIn, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(173, aclsim_file_, aclsim_line_, valueIn, countValue)); }

template <int countValue>
__aicore__ inline int64_t ScalarGetCountOfValue(uint64_t valueIn, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(174, aclsim_file_, aclsim_line_, valueIn, countValue)); }

__aicore__ inline int64_t CountLeadingZero(uint64_t valueIn, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(175, aclsim_file_, aclsim_line_, valueIn)); }

__aicore__ inline int64_t ScalarCountLeadingZero(uint64_t valueIn, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(176, aclsim_file_, aclsim_line_, valueIn)); }

__aicore__ inline int64_t CountBitsCntSameAsSignBit(int64_t valueIn, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(177, aclsim_file_, aclsim_line_, valueIn)); }

template <int countValue>
__aicore__ inline int64_t GetSFFValue(uint64_t valueIn, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(178, aclsim_file_, aclsim_line_, valueIn, countValue)); }

template <int countValue>
__aicore__ inline int64_t ScalarGetSFFValue(uint64_t valueIn, const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) { return ::aclsim::detail::unpack<int64_t>(::aclsim::detail::call(179, aclsim_file_, aclsim_line_, valueIn, countValue)); }

}  // namespace AscendC
