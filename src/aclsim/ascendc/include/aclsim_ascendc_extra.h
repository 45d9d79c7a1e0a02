/* aclsim: declarations the generated API (aclsim_ascendc_api.h) needs before its classes. */
#ifndef ACLSIM_ASCENDC_EXTRA_H
#define ACLSIM_ASCENDC_EXTRA_H

namespace aclsim {
namespace detail {
template <class T> struct BinExpr;  // a tensor operator expression: dst = a + b (aclsim_ascendc_after.h)
}  // namespace detail
}  // namespace aclsim

namespace AscendC {
/* declared here so that LocalTensor's placing constructor may name the AclsimLocalTensorAt<T> row (an
   overload the generated API adds) as a template; never defined, never called */
template <class T> void AclsimLocalTensorAt();
}  // namespace AscendC

/* LocalTensor: `dst = a + b` runs the expression's instruction on dst (Ascend C's symbol overloads);
   LocalTensor<T>(pos, addr, tileSize): tileSize elements at byte addr of pos's memory */
#define ACLSIM_CLASS_EXTRA_LocalTensor                                                              \
    __aicore__ LocalTensor(const LocalTensor&) = default;                                           \
    __aicore__ LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize,                         \
                           const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()) \
    {                                                                                               \
        *this = AclsimLocalTensorAt<T>(pos, addr, tileSize, aclsim_file_, aclsim_line_);            \
    }                                                                                               \
    __aicore__ LocalTensor& operator=(const LocalTensor&) = default;                                \
    template <class U> __aicore__ LocalTensor& operator=(const ::aclsim::detail::BinExpr<U>& e)     \
    {                                                                                               \
        e.process(*this);                                                                           \
        return *this;                                                                               \
    }

#include "aclsim_ascendc_multi_extra.h"  // GlobalTensor::address_
#include "aclsim_ascendc_cube_extra.h"
#include "aclsim_ascendc_2_extra.h"
#include "aclsim_ascendc_samples_extra.h"

#endif
