/* aclsim: Matmul callbacks in C++ (issue 16, api_cxx.txt "Matmul callbacks").
 *
 * Matmul<..., MatmulCallBackFunc<DataCopyOut, CopyA1, CopyB1>> hands the Python Matmul object one trampoline per
 * function (SetCallBacks, at construction).  The Python Matmul calls a trampoline where it would copy (its
 * callback, aclsim.ascendc.adapters.mmcb) with the callback's arguments as 64-bit words; the trampoline calls
 * the C++ function with the documented arguments, on the same thread.  A bridged call that fails inside the
 * callback throws as anywhere in a kernel: the trampoline stops the unwinding there and returns non-zero, and
 * the Python side raises the kept error inside the call that copies, which then unwinds to the block's entry.
 * Written from Ascend's public documentation. */
#ifndef ACLSIM_ASCENDC_MMCB_H
#define ACLSIM_ASCENDC_MMCB_H

#include <exception>

namespace AscendC {
namespace detail_mmcb {

/* a C++ callback called from Python: int trampoline(const int64_t* words), 0 when it returned */
template <class F> inline int Guard(const F& body)
{
    try {
        body();
        return 0;
    } catch (const ::aclsim::detail::Abort&) {
        return 1;  // the bridge kept the error of the call that failed
    } catch (const std::exception& e) {
        aclsim_asc_fail(e.what(), "C++ exception", 0);
        return 1;
    } catch (...) {
        aclsim_asc_fail("a C++ exception that is not a std::exception", "C++ exception", 0);
        return 1;
    }
}

inline const __gm__ void* Gm(int64_t word) { return reinterpret_cast<const __gm__ void*>(static_cast<uintptr_t>(word)); }

/* CopyA1 / CopyB1: words = (matrix handle, gm, row, col, use, use, tilingPtr, dataPtr) */
template <class F, F fn> int CopyIn(const int64_t* w)
{
    return Guard([w] {
        const LocalTensor<int8_t> matrix{::aclsim::detail::Handle{w[0]}};
        fn(matrix, Gm(w[1]), static_cast<int>(w[2]), static_cast<int>(w[3]), static_cast<int>(w[4]),
           static_cast<int>(w[5]), static_cast<uint64_t>(w[6]), static_cast<uint64_t>(w[7]));
    });
}

/* DataCopyOut: words = (gm, co1Local handle, tilingPtr, dataPtr, DataCopyOutParams's fields in order) */
template <MatmulDataCopyOutFunc fn> int CopyOut(const int64_t* w)
{
    return Guard([w] {
        const LocalTensor<int8_t> co1{::aclsim::detail::Handle{w[1]}};
        const DataCopyOutParams params(static_cast<uint16_t>(w[4]), static_cast<uint16_t>(w[5]),
                                       static_cast<uint16_t>(w[6]), static_cast<uint32_t>(w[7]),
                                       static_cast<uint16_t>(w[8]), w[9] != 0, static_cast<int32_t>(w[10]),
                                       static_cast<int32_t>(w[11]), static_cast<uint8_t>(w[12]),
                                       static_cast<uint64_t>(w[13]), static_cast<uint64_t>(w[14]));
        fn(Gm(w[0]), co1, &params, static_cast<uint64_t>(w[2]), static_cast<uint64_t>(w[3]));
    });
}

template <class F> inline uint64_t Address(F f) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(f)); }

template <class MM_CB> struct Install {
    static_assert(sizeof(MM_CB) == 0, "aclsim: Matmul's MM_CB is a MatmulCallBackFunc<DataCopyOut, CopyA1, CopyB1>");
};

template <MatmulDataCopyOutFunc DataCopyOut, MatmulCopyA1Func CopyA1, MatmulCopyB1Func CopyB1>
struct Install<MatmulCallBackFunc<DataCopyOut, CopyA1, CopyB1>> {
    template <class M> static void Run(const M& mm, const char* file, int line)
    {
        if constexpr (DataCopyOut != nullptr || CopyA1 != nullptr || CopyB1 != nullptr) {
            uint64_t out = 0, a1 = 0, b1 = 0;
            if constexpr (DataCopyOut != nullptr) {
                out = Address(&CopyOut<DataCopyOut>);
            }
            if constexpr (CopyA1 != nullptr) {
                a1 = Address(&CopyIn<MatmulCopyA1Func, CopyA1>);
            }
            if constexpr (CopyB1 != nullptr) {
                b1 = Address(&CopyIn<MatmulCopyB1Func, CopyB1>);
            }
            mm.SetCallBacks(out, a1, b1, file, line);
        }
    }
};

}  // namespace detail_mmcb
}  // namespace AscendC

#endif
