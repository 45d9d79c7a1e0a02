/* aclsim: names of the older Ascend C releases that the public kernel-invocation samples still spell
   (api_cxx.txt, section "## Samples sweep"; docs/ascendc_cpp.md, "The older samples"):
   - namespace tik2: the name of namespace AscendC before its release (`using namespace tik2;`,
     `tik2::GmAlloc`, kernels that put their classes in `namespace tik2 { ... }`): a namespace of its
     own (an alias could not be reopened) that uses namespace AscendC, so its names are found through it;
   - ParamOffset<T>(gm, blockLength): this block's part of a GM buffer split evenly over the blocks
     (gm + GetBlockIdx() * blockLength elements of T);
   - block_idx, block_num: the device compiler's globals of the block's index and the launch's block
     count (objects reading GetBlockIdx() / GetBlockNum() each time they are used as a number);
   - IsSameType<A, B>::value;
   - TCubeTiling at global scope too (CANN's kernel_tiling.h declares it there: kernels that say
     `using namespace matmul;` only name it unqualified);
   - the other buffer qualifiers of the device compiler (__ubuf__, __cbuf__, __ca__, __cb__, __cc__):
     empty on the host, as __gm__ is. */
#ifndef ACLSIM_ASCENDC_SAMPLES_H
#define ACLSIM_ASCENDC_SAMPLES_H

#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __cbuf__
#define __cbuf__
#endif
#ifndef __ca__
#define __ca__
#endif
#ifndef __cb__
#define __cb__
#endif
#ifndef __cc__
#define __cc__
#endif

namespace AscendC {

template <class A, class B> struct IsSameType {
    static constexpr bool value = std::is_same<A, B>::value;
};

template <class T>
__aicore__ inline GM_ADDR ParamOffset(GM_ADDR gm, int64_t blockLength, const char* aclsim_file_ = __builtin_FILE(),
                                      int aclsim_line_ = __builtin_LINE())
{
    return gm + GetBlockIdx(aclsim_file_, aclsim_line_) * blockLength * static_cast<int64_t>(sizeof(T));
}

}  // namespace AscendC

namespace aclsim {
namespace detail {
/* block_idx / block_num: read each time they are used as a number (no source line of their own) */
struct BlockIdxVar {
    __aicore__ operator int64_t() const { return ::AscendC::GetBlockIdx(nullptr, 0); }
};
struct BlockNumVar {
    __aicore__ operator int64_t() const { return ::AscendC::GetBlockNum(nullptr, 0); }
};
}  // namespace detail
}  // namespace aclsim

/* the device compiler's globals of the block's index and the launch's block count */
inline constexpr ::aclsim::detail::BlockIdxVar block_idx{};
inline constexpr ::aclsim::detail::BlockNumVar block_num{};

namespace tik2 {
using namespace ::AscendC;
}
using ::AscendC::TCubeTiling;

#endif
