/* aclsim: declarations the generated API (aclsim_ascendc_api.h) needs before its classes. */
#ifndef ACLSIM_ASCENDC_EXTRA_H
#define ACLSIM_ASCENDC_EXTRA_H

namespace aclsim {
namespace detail {
template <class T> struct BinExpr;  // a tensor operator expression: dst = a + b (aclsim_ascendc_after.h)
}  // namespace detail
}  // namespace aclsim

/* LocalTensor: `dst = a + b` runs the expression's instruction on dst (Ascend C's symbol overloads) */
#define ACLSIM_CLASS_EXTRA_LocalTensor                                                              \
    __aicore__ LocalTensor(const LocalTensor&) = default;                                           \
    __aicore__ LocalTensor& operator=(const LocalTensor&) = default;                                \
    template <class U> __aicore__ LocalTensor& operator=(const ::aclsim::detail::BinExpr<U>& e)     \
    {                                                                                               \
        e.process(*this);                                                                           \
        return *this;                                                                               \
    }

#include "aclsim_ascendc_multi_extra.h"  // GlobalTensor::address_
#include "aclsim_ascendc_cube_extra.h"

#endif
