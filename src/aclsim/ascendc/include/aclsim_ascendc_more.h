/* aclsim: the sort family's C++ that the table cannot express (written from Ascend's public
   documentation): MrgSortSrcList<T>, a struct of four tensors a kernel may fill member by member,
   and the overloads taking it, which pass its tensors to the table's rows (the high-level MrgSort
   fills its sortedNum[4] from its row's result, four counts packed). */
#ifndef ACLSIM_ASCENDC_MORE_H
#define ACLSIM_ASCENDC_MORE_H

namespace AscendC {

template <typename T> struct MrgSortSrcList {
    __aicore__ MrgSortSrcList() {}
    __aicore__ MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In,
                              const LocalTensor<T>& src3In, const LocalTensor<T>& src4In)
        : src1(src1In), src2(src2In), src3(src3In), src4(src4In)
    {
    }
    LocalTensor<T> src1;
    LocalTensor<T> src2;
    LocalTensor<T> src3;
    LocalTensor<T> src4;
};

template <typename T>
__aicore__ inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params,
                               const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
{
    MrgSort(dst, src.src1, src.src2, src.src3, src.src4, params, aclsim_file_, aclsim_line_);
}

template <typename T>
__aicore__ inline void MrgSort4(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params,
                                const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
{
    MrgSort4(dst, src.src1, src.src2, src.src3, src.src4, params, aclsim_file_, aclsim_line_);
}

/* the high-level MrgSort: sortedNum receives each queue's count (with isExhaustedSuspension, where it
   stopped) */
template <typename T, bool isExhaustedSuspension = false>
__aicore__ inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList,
                               const uint16_t elementCountList[4], uint32_t sortedNum[4], uint16_t validBit,
                               const int32_t repeatTime, const char* aclsim_file_ = __builtin_FILE(),
                               int aclsim_line_ = __builtin_LINE())
{
    const uint64_t packed = MrgSort<T, isExhaustedSuspension>(dst, sortList.src1, sortList.src2, sortList.src3,
                                                              sortList.src4, elementCountList, validBit,
                                                              repeatTime, aclsim_file_, aclsim_line_);
    for (int i = 0; i < 4; ++i) {
        sortedNum[i] = static_cast<uint32_t>((packed >> (16 * i)) & 0xFFFFu);
    }
}

}  // namespace AscendC

#endif
