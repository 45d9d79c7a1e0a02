/* aclsim: the memory / cache / utility / register C++ that the table cannot express (written from
   Ascend's public documentation; the bridging itself is in api_cxx.txt's rows):
   - PopStackBuffer<T, pos>(LocalTensor<T>&) -> bool, over the row returning the tensor (an empty tensor
     where the device returns false);
   - TOTAL_UB_SIZE, TOTAL_VEC_LOCAL_SIZE, TOTAL_L1_SIZE, TOTAL_L0A/L0B/L0C_SIZE: Ascend C's are constants
     of the chip a kernel is built for; aclsim's depend on the chip the kernel runs on, so each is an
     object converting to uint32_t by calling its row (usable where a value is, AscendC::TOTAL_UB_SIZE
     included, but not in a constant expression: no constexpr, template argument or array bound). */
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

}  // namespace AscendC

#endif
