/* aclsim: the memory / cache / utility / register C++ that the table cannot express (written from
   Ascend's public documentation; the bridging itself is in api_cxx.txt's rows):
   - PopStackBuffer<T, pos>(LocalTensor<T>&) -> bool, over the row returning the tensor (an empty tensor
     where the device returns false);
   - TOTAL_UB_SIZE, TOTAL_VEC_LOCAL_SIZE, TOTAL_L1_SIZE, TOTAL_L0A/L0B/L0C_SIZE: Ascend C's are constants
     of the chip a kernel is built for; aclsim's depend on the chip the kernel runs on, so each is an
     object converting to uint32_t by calling its row (usable where a value is, AscendC::TOTAL_UB_SIZE
     included, but not in a constant expression: no constexpr, template argument or array bound);
   - AscendCUtils, a class of static members (the table has no static methods), each forwarding to its
     AclsimUtils* row;
   - the A2/A3 layout helpers: Shape, Stride, Coord (Std::tuple), MakeShape/MakeStride/MakeCoord,
     Layout, MakeLayout, is_layout; Crd2Idx encodes its tuples as words for the AclsimCrd2Idx row. */
#ifndef ACLSIM_ASCENDC_UTIL_H
#define ACLSIM_ASCENDC_UTIL_H

#include <tuple>
#include <type_traits>

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

namespace Std {
using std::get;
using std::make_tuple;
using std::tuple;
using std::tuple_element;
using std::tuple_size;
}  // namespace Std

template <class... Ts> using Shape = Std::tuple<Ts...>;
template <class... Ts> using Stride = Std::tuple<Ts...>;
template <class... Ts> using Coord = Std::tuple<Ts...>;

template <class... Ts> __aicore__ inline constexpr Shape<Ts...> MakeShape(const Ts&... t) { return Shape<Ts...>(t...); }
template <class... Ts> __aicore__ inline constexpr Stride<Ts...> MakeStride(const Ts&... t) { return Stride<Ts...>(t...); }
template <class... Ts> __aicore__ inline constexpr Coord<Ts...> MakeCoord(const Ts&... t) { return Coord<Ts...>(t...); }

template <class ShapeType, class StrideType> class Layout;

template <class T> struct is_layout : std::false_type {};
template <class S, class D> struct is_layout<Layout<S, D>> : std::true_type {};

namespace aclsim_layout {
/* a (nested) tuple of integers as words: words[0] counts the tokens after it; a tuple is its elements
   between an open and a close word (adapters/util.py decodes them) */
struct Words {
    uint64_t w[64] = {0};
    void Put(uint64_t v)
    {
        ASSERT(w[0] < 63 && "aclsim: a layout tuple of more than 62 tokens");
        w[++w[0]] = v;
    }
};
template <class T> inline void Encode(Words& out, const T& v) { out.Put(static_cast<uint64_t>(v)); }
template <class... Ts> inline void Encode(Words& out, const std::tuple<Ts...>& t)
{
    out.Put(~uint64_t{0});
    std::apply([&out](const auto&... e) { (Encode(out, e), ...); }, t);
    out.Put(~uint64_t{0} - 1);
}
template <class T> inline Words Of(const T& v)
{
    Words out;
    Encode(out, v);
    return out;
}
}  // namespace aclsim_layout

/* the memory index (in elements) of coord in a shape with these strides (an integer coordinate counts
   through the shape column-major, as documented) */
template <class CoordType, class ShapeType, class StrideType>
__aicore__ inline int64_t Crd2Idx(const CoordType& coord, const ShapeType& shape, const StrideType& stride,
                                  ACLSIM_UTIL_AT_)
{
    return AclsimCrd2Idx(aclsim_layout::Of(coord).w, aclsim_layout::Of(shape).w, aclsim_layout::Of(stride).w,
                         aclsim_file_, aclsim_line_);
}

template <class ShapeType, class StrideType> class Layout {
public:
    __aicore__ inline constexpr Layout(const ShapeType& shape = {}, const StrideType& stride = {})
        : shape_(shape), stride_(stride)
    {
    }
    __aicore__ inline constexpr const ShapeType& GetShape() const { return shape_; }
    __aicore__ inline constexpr const StrideType& GetStride() const { return stride_; }
    template <class CoordType> __aicore__ inline int64_t operator()(const CoordType& coord, ACLSIM_UTIL_AT_) const
    {
        return Crd2Idx(coord, shape_, stride_, aclsim_file_, aclsim_line_);
    }

private:
    ShapeType shape_;
    StrideType stride_;
};

template <class ShapeType, class StrideType>
__aicore__ inline constexpr Layout<ShapeType, StrideType> MakeLayout(const ShapeType& shape, const StrideType& stride)
{
    return Layout<ShapeType, StrideType>(shape, stride);
}

template <class CoordType, class ShapeType, class StrideType>
__aicore__ inline int64_t Crd2Idx(const CoordType& coord, const Layout<ShapeType, StrideType>& layout, ACLSIM_UTIL_AT_)
{
    return Crd2Idx(coord, layout.GetShape(), layout.GetStride(), aclsim_file_, aclsim_line_);
}
#undef ACLSIM_UTIL_AT_

}  // namespace AscendC

#endif
