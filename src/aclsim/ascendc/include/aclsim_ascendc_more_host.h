/* aclsim: ge::Shape for the host-side tiling functions of the high-level APIs (GetSinMaxMinTmpSize,
   GetSoftMaxMaxTmpSize, ...): the dims of a tensor's shape, crossing to Python as their list.
   Written from Ascend's public documentation (the members a tiling function's caller uses). */
#ifndef ACLSIM_ASCENDC_MORE_HOST_H
#define ACLSIM_ASCENDC_MORE_HOST_H

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace ge {

class Shape {
public:
    Shape() = default;
    explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
    Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t idx) const { return idx < dims_.size() ? dims_[idx] : 0; }
    const std::vector<int64_t>& GetDims() const { return dims_; }
    int64_t GetShapeSize() const
    {
        int64_t n = 1;
        for (const int64_t d : dims_) {
            n *= d;
        }
        return dims_.empty() ? 0 : n;
    }

private:
    std::vector<int64_t> dims_;
};

/* found by argument-dependent lookup where the table's host rows pack their arguments */
inline ::aclsim::detail::Arg pack(const Shape& s)
{
    ::aclsim::detail::Arg a;
    a.kind = ::aclsim::detail::K_ARRAY;
    a.sub = static_cast<int32_t>(s.GetDimNum());
    a.v.p = s.GetDims().data();  // int64 dims read as 64-bit words
    return a;
}

}  // namespace ge

#endif
