/* aclsim: what Ascend C defines on top of the generated API: operator expressions, aliases, macros. */
#ifndef ACLSIM_ASCENDC_AFTER_H
#define ACLSIM_ASCENDC_AFTER_H

namespace aclsim {
namespace detail {

enum ExprOp { E_ADD, E_SUB, E_MUL, E_DIV, E_AND, E_OR, E_LT, E_GT, E_LE, E_GE, E_EQ, E_NE };

/* `dst = a op b`: the instruction over dst's elements (a comparison: over a's elements), as
   Ascend C's symbol overloads do.  Such a statement has no source line of its own: it is
   reported at the line of the kernel's previous Ascend C call. */
template <class T> struct BinExpr {
    ExprOp op;
    const ::AscendC::LocalTensor<T>& a;
    const ::AscendC::LocalTensor<T>& b;
    template <class D> void process(const ::AscendC::LocalTensor<D>& dst) const
    {
        using namespace ::AscendC;
        const int32_t n = static_cast<int32_t>(dst.GetSize(nullptr, 0));
        switch (op) {
            case E_ADD: Add(dst, a, b, n, nullptr, 0); break;
            case E_SUB: Sub(dst, a, b, n, nullptr, 0); break;
            case E_MUL: Mul(dst, a, b, n, nullptr, 0); break;
            case E_DIV: Div(dst, a, b, n, nullptr, 0); break;
            case E_AND: And(dst, a, b, n, nullptr, 0); break;
            case E_OR: Or(dst, a, b, n, nullptr, 0); break;
            default: {
                static const CMPMODE modes[] = {CMPMODE::LT, CMPMODE::GT, CMPMODE::LE, CMPMODE::GE,
                                                CMPMODE::EQ, CMPMODE::NE};
                Compare(dst, a, b, modes[op - E_LT], static_cast<uint32_t>(a.GetSize(nullptr, 0)), nullptr, 0);
            }
        }
    }
};

}  // namespace detail
}  // namespace aclsim

namespace AscendC {
#define ACLSIM_BINARY_OPERATOR(SYM, OP)                                                             \
    template <class T>                                                                              \
    __aicore__ inline ::aclsim::detail::BinExpr<T> operator SYM(const LocalTensor<T>& a, const LocalTensor<T>& b) \
    {                                                                                               \
        return ::aclsim::detail::BinExpr<T>{::aclsim::detail::OP, a, b};                            \
    }
ACLSIM_BINARY_OPERATOR(+, E_ADD)
ACLSIM_BINARY_OPERATOR(-, E_SUB)
ACLSIM_BINARY_OPERATOR(*, E_MUL)
ACLSIM_BINARY_OPERATOR(/, E_DIV)
ACLSIM_BINARY_OPERATOR(&, E_AND)
ACLSIM_BINARY_OPERATOR(|, E_OR)
ACLSIM_BINARY_OPERATOR(<, E_LT)
ACLSIM_BINARY_OPERATOR(>, E_GT)
ACLSIM_BINARY_OPERATOR(<=, E_LE)
ACLSIM_BINARY_OPERATOR(>=, E_GE)
ACLSIM_BINARY_OPERATOR(==, E_EQ)
ACLSIM_BINARY_OPERATOR(!=, E_NE)
#undef ACLSIM_BINARY_OPERATOR

using QuePosition = TPosition;
}  // namespace AscendC

#include "aclsim_ascendc_more.h"
#include "aclsim_ascendc_multi.h"

#include "aclsim_ascendc_vec.h"
#include "aclsim_ascendc_last1.h" /* before the Matmul template: its MM_CFG default */
#include "aclsim_ascendc_matmul.h"
#include "aclsim_ascendc_util.h"
#include "aclsim_ascendc_2.h"
#include "aclsim_ascendc_3.h"
#include "aclsim_ascendc_logsoftmax.h"
#include "aclsim_ascendc_mmcb.h"
#include "aclsim_ascendc_samples.h"

#endif
