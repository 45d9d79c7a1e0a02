/* aclsim: the memory / cache / utility / register C++ that the table cannot express (written from
   Ascend's public documentation; the bridging itself is in api_cxx.txt's rows):
   - PopStackBuffer<T, pos>(LocalTensor<T>&) -> bool, over the row returning the tensor (an empty tensor
     where the device returns false);
   - TOTAL_UB_SIZE, TOTAL_VEC_LOCAL_SIZE, TOTAL_L1_SIZE, TOTAL_L0A/L0B/L0C_SIZE: Ascend C's are constants
     of the chip a kernel is built for; aclsim's depend on the chip the kernel runs on, so each is an
     object converting to uint32_t by calling its row (usable where a value is, AscendC::TOTAL_UB_SIZE
     included, but not in a constant expression: no constexpr, template argument or array bound);
   - AscendCUtils, a class of static members (the table has no static methods), each forwarding to its
     AclsimUtils* row. */
#ifndef ACLSIM_ASCENDC_UTIL_H
#define ACLSIM_ASCENDC_UTIL_H

namespace AscendC {

template <typename T, TPosition pos>
__aicore__ inline bool PopStackBuffer(LocalTensor<T>& popLocal, const char* aclsim_file_ = __builtin_FILE(),
                                      int aclsim_line_ = __builtin_LINE())
{
    popLocal = PopStackBuffer<T, pos>(aclsim_file_, aclsim_line_);
    return popLocal.GetSize() != 0;
}

/* a chip-dependent size: converts to its value on the running chip */
struct AclsimChipSize {
    uint32_t (*get)(const char*, int);
    __aicore__ inline operator uint32_t() const { return get(__FILE__, __LINE__); }
};
inline constexpr AclsimChipSize TOTAL_UB_SIZE{&AclsimTotalUbSize};
inline constexpr AclsimChipSize TOTAL_VEC_LOCAL_SIZE{&AclsimTotalVecLocalSize};
inline constexpr AclsimChipSize TOTAL_L1_SIZE{&AclsimTotalL1Size};
inline constexpr AclsimChipSize TOTAL_L0A_SIZE{&AclsimTotalL0ASize};
inline constexpr AclsimChipSize TOTAL_L0B_SIZE{&AclsimTotalL0BSize};
inline constexpr AclsimChipSize TOTAL_L0C_SIZE{&AclsimTotalL0CSize};

#define ACLSIM_UTIL_AT_ const char *aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()
class AscendCUtils {
public:
    static __aicore__ inline int32_t GetBitSize(int32_t byteSize, ACLSIM_UTIL_AT_)
    {
        return AclsimUtilsGetBitSize(byteSize, aclsim_file_, aclsim_line_);
    }
    static __aicore__ inline int32_t GetC0Size(ACLSIM_UTIL_AT_) { return AclsimUtilsGetC0Size(aclsim_file_, aclsim_line_); }
    static __aicore__ inline int32_t GetC0Count(const int32_t dtypeSize, ACLSIM_UTIL_AT_)
    {
        return AclsimUtilsGetC0Count(dtypeSize, aclsim_file_, aclsim_line_);
    }
    static __aicore__ inline int32_t GetDefaultBlockNum(ACLSIM_UTIL_AT_)
    {
        return AclsimUtilsGetDefaultBlockNum(aclsim_file_, aclsim_line_);
    }
    template <typename T, bool isSetMask = true>
    static __aicore__ inline void SetMask(const uint64_t& maskHigh, const uint64_t& maskLow, ACLSIM_UTIL_AT_)
    {
        AclsimUtilsSetMask<T, isSetMask>(maskHigh, maskLow, aclsim_file_, aclsim_line_);
    }
    template <typename T, bool isSetMask = true> static __aicore__ inline void SetMask(int32_t len, ACLSIM_UTIL_AT_)
    {
        AclsimUtilsSetMask<T, isSetMask>(len, aclsim_file_, aclsim_line_);
    }
    template <bool isSetMask = true> static __aicore__ inline void ResetMask(ACLSIM_UTIL_AT_)
    {
        AclsimUtilsResetMask<isSetMask>(aclsim_file_, aclsim_line_);
    }
    template <typename T> static __aicore__ inline void SetMaskCount(ACLSIM_UTIL_AT_)
    {
        AclsimUtilsSetMaskCount<T>(aclsim_file_, aclsim_line_);
    }
    template <typename T> static __aicore__ inline void SetMaskNorm(ACLSIM_UTIL_AT_)
    {
        AclsimUtilsSetMaskNorm<T>(aclsim_file_, aclsim_line_);
    }
    static __aicore__ inline void SetOverflow(uint64_t ctrlValue, ACLSIM_UTIL_AT_)
    {
        AclsimUtilsSetOverflow(ctrlValue, aclsim_file_, aclsim_line_);
    }
};
#undef ACLSIM_UTIL_AT_

}  // namespace AscendC

#endif
