/* aclsim: the "core type, broadcast, loop mode, 5HD, misc" C++ that the table cannot express (written from
   Ascend's public documentation; the bridging itself is in api_cxx.txt's rows):
   - g_coreType: Ascend C's global holding the running core's type (AIC 1, AIV 2); here an object
     converting to int32_t by calling the AclsimCoreType row (a kernel of a declared type only, as in
     Python), so `if (g_coreType == AIV)` reads the running block's type;
   - RESERVED_WORKSPACE: a chip-dependent size as aclsim_ascendc_util.h's TOTAL_UB_SIZE;
   - Pattern::Reduce::AR / RA and ReduceSum<T, pattern, isReuseSource>(dst, src[, sharedTmpBuffer],
     srcShape, srcInnerPad), over the AclsimReduceSumPattern rows;
   - TransDataTo5HD<T>(LocalTensor<T> (&dstList)[16], LocalTensor<T> (&srcList)[16], params): the
     tensors' addresses (GetPhyAddr) through the uint64_t address-list row. */
#ifndef ACLSIM_ASCENDC_3_H
#define ACLSIM_ASCENDC_3_H

namespace AscendC {

struct AclsimCoreTypeValue {
    __aicore__ inline operator int32_t() const { return AclsimCoreType(__FILE__, __LINE__); }
};
inline constexpr AclsimCoreTypeValue g_coreType{};

/* RESERVED_WORKSPACE: the system workspace's bytes on the running chip (16 MiB on the A2/A3, 2 MiB on
   the 310P/910); converts to uint32_t like TOTAL_UB_SIZE (no constant expression) */
inline constexpr AclsimChipSize RESERVED_WORKSPACE{&AclsimReservedWorkspace};

namespace Pattern {
namespace Reduce {
struct AR {
    static constexpr int32_t aclsimId = 0;
};
struct RA {
    static constexpr int32_t aclsimId = 1;
};
}  // namespace Reduce
}  // namespace Pattern

#define ACLSIM_3_AT_ const char *aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()
template <class T, class pattern, bool isReuseSource = false, int32_t id = pattern::aclsimId>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[],
                                 bool srcInnerPad, ACLSIM_3_AT_)
{
    AclsimReduceSumPattern<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcShape, srcInnerPad, id,
                                             aclsim_file_, aclsim_line_);
}

template <class T, class pattern, bool isReuseSource = false, int32_t id = pattern::aclsimId>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                 const uint32_t srcShape[], bool srcInnerPad, ACLSIM_3_AT_)
{
    AclsimReduceSumPattern<T, isReuseSource>(dstTensor, srcTensor, srcShape, srcInnerPad, id, aclsim_file_,
                                             aclsim_line_);
}

template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& nchwconvParams, ACLSIM_3_AT_)
{
    uint64_t dst[NCHW_CONV_ADDR_LIST_SIZE];
    uint64_t src[NCHW_CONV_ADDR_LIST_SIZE];
    for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
        dst[i] = dstList[i].GetPhyAddr(aclsim_file_, aclsim_line_);
        src[i] = srcList[i].GetPhyAddr(aclsim_file_, aclsim_line_);
    }
    TransDataTo5HD<T>(dst, src, nchwconvParams, aclsim_file_, aclsim_line_);
}
#undef ACLSIM_3_AT_

}  // namespace AscendC

#endif
