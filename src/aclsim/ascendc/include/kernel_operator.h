/*
 * aclsim's kernel_operator.h: Ascend C kernels compiled by the host's C++ compiler run on aclsim's
 * simulated AI Core (the CPU-debug build of Ascend's samples: define __CCE_KT_TEST__, include
 * tikicpulib.h on the host side).
 *
 * Written from Ascend's public documentation.  Every Ascend C call of a kernel crosses into
 * aclsim's Python kernel language (aclsim.kernel) through the bridge of libaclsim_ascendc.so,
 * with the file and line it is written at: instructions, faults and races name C++ lines.  The
 * API itself (classes, functions, structs, enums) is generated from one table into
 * aclsim_ascendc_api.h; this file has the types, qualifiers and the bridge's C++ half.
 */
#ifndef ACLSIM_KERNEL_OPERATOR_H
#define ACLSIM_KERNEL_OPERATOR_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <type_traits>

/* --- qualifiers: the compiler of the device gives them meaning; on the host they are empty --- */
#ifndef __global__
#define __global__
#endif
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __inline__
#define __inline__ inline
#endif
#ifndef GM_ADDR
#define GM_ADDR uint8_t*
#endif

namespace aclsim {
namespace detail {

inline uint16_t f32_to_f16(float f)
{
    uint32_t x;
    std::memcpy(&x, &f, 4);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const uint32_t exp = (x >> 23) & 0xFFu;
    uint32_t man = x & 0x7FFFFFu;
    if (exp == 0xFFu) {  // inf, nan (a nan stays a quiet nan)
        return static_cast<uint16_t>(sign | 0x7C00u | (man ? 0x200u | (man >> 13) : 0u));
    }
    int e = static_cast<int>(exp) - 127 + 15;
    if (e >= 31) {
        return static_cast<uint16_t>(sign | 0x7C00u);  // overflow: inf
    }
    if (e <= 0) {  // subnormal half, or zero
        if (e < -10) {
            return static_cast<uint16_t>(sign);
        }
        man |= 0x800000u;
        const int shift = 14 - e;
        uint32_t half_man = man >> shift;
        const uint32_t rest = man & ((1u << shift) - 1u);
        const uint32_t halfway = 1u << (shift - 1);
        if (rest > halfway || (rest == halfway && (half_man & 1u))) {
            ++half_man;
        }
        return static_cast<uint16_t>(sign | half_man);
    }
    uint32_t h = sign | (static_cast<uint32_t>(e) << 10) | (man >> 13);
    const uint32_t rest = man & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) {
        ++h;  // round to nearest even (a carry into the exponent is right, up to inf)
    }
    return static_cast<uint16_t>(h);
}

inline float f16_to_f32(uint16_t h)
{
    const uint32_t sign = (static_cast<uint32_t>(h) & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t man = h & 0x3FFu;
    uint32_t x;
    if (exp == 0) {
        if (man == 0) {
            x = sign;
        } else {  // subnormal: normalize
            int e = -1;
            do {
                ++e;
                man <<= 1;
            } while ((man & 0x400u) == 0);
            x = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) | ((man & 0x3FFu) << 13);
        }
    } else if (exp == 0x1Fu) {
        x = sign | 0x7F800000u | (man << 13);
    } else {
        x = sign | ((exp - 15 + 127) << 23) | (man << 13);
    }
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

inline uint16_t f32_to_bf16(float f)
{
    uint32_t x;
    std::memcpy(&x, &f, 4);
    if ((x & 0x7F800000u) == 0x7F800000u && (x & 0x7FFFFFu)) {
        return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet nan
    }
    x += 0x7FFFu + ((x >> 16) & 1u);  // round to nearest even
    return static_cast<uint16_t>(x >> 16);
}

inline float bf16_to_f32(uint16_t b)
{
    const uint32_t x = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

}  // namespace detail
}  // namespace aclsim

/* half and bfloat16_t: 16-bit storage, arithmetic in float (each result rounds back on assignment) */
#define ACLSIM_SMALL_FLOAT(NAME, TO, FROM)                                                          \
    struct NAME {                                                                                   \
        uint16_t bits_;                                                                             \
        NAME() = default;                                                                           \
        NAME(float f) : bits_(::aclsim::detail::TO(f)) {}                                           \
        NAME(double d) : bits_(::aclsim::detail::TO(static_cast<float>(d))) {}                      \
        template <class I, typename std::enable_if<std::is_integral<I>::value, int>::type = 0>      \
        NAME(I i) : bits_(::aclsim::detail::TO(static_cast<float>(i))) {}                           \
        operator float() const { return ::aclsim::detail::FROM(bits_); }                            \
        NAME& operator+=(float o) { return *this = NAME(float(*this) + o); }                        \
        NAME& operator-=(float o) { return *this = NAME(float(*this) - o); }                        \
        NAME& operator*=(float o) { return *this = NAME(float(*this) * o); }                        \
        NAME& operator/=(float o) { return *this = NAME(float(*this) / o); }                        \
    }
ACLSIM_SMALL_FLOAT(half, f32_to_f16, f16_to_f32);
ACLSIM_SMALL_FLOAT(bfloat16_t, f32_to_bf16, bf16_to_f32);
#undef ACLSIM_SMALL_FLOAT
static_assert(sizeof(half) == 2 && sizeof(bfloat16_t) == 2, "half and bfloat16_t are 2 bytes");

namespace aclsim {
namespace detail {

/* How an argument crosses to Python (aclsim/ascendc/bridge.py reads the same numbers). */
enum : int32_t { K_NONE = 0, K_INT = 1, K_FLOAT = 2, K_HANDLE = 3, K_STRUCT = 4, K_ENUM = 5,
                 K_DTYPE = 6, K_GM = 7, K_ARRAY = 8, K_STR = 9 };

struct Arg {
    int32_t kind;
    int32_t sub;
    union {
        int64_t i;
        double f;
        const void* p;
    } v;
};


}  // namespace detail
}  // namespace aclsim

/* The bridge (libaclsim_ascendc.so). */
extern "C" int aclsim_asc_call(int id, const char* file, int line, int n, const ::aclsim::detail::Arg* args,
                               ::aclsim::detail::Arg* ret);
extern "C" int aclsim_asc_fail(const char* what, const char* file, int line);

namespace aclsim {
namespace detail {

/* Thrown when a bridged call failed (a fault, a deadlock, the launch ending): it unwinds the
   kernel's C++ frames to the block's entry, and the error surfaces as the launch's error. */
struct Abort {};

struct Handle {
    int64_t value;
};

/* A C++ object that stands for a Python object of the kernel language (a queue, a tensor). */
class Object {
public:
    int64_t h_ = 0;
    Object() = default;
    explicit Object(int64_t h) : h_(h) {}
};

template <class T> struct nd { using type = T; };
template <class T> using nd_t = typename nd<T>::type;  // a parameter type that is not deduced

template <class T> struct Dtype {};
template <class T> struct DtypeCode { static constexpr int value = -1; };
#define ACLSIM_DTYPE(T, N) template <> struct DtypeCode<T> { static constexpr int value = N; }
ACLSIM_DTYPE(half, 1);
ACLSIM_DTYPE(float, 2);
ACLSIM_DTYPE(bfloat16_t, 3);
ACLSIM_DTYPE(int8_t, 4);
ACLSIM_DTYPE(uint8_t, 5);
ACLSIM_DTYPE(int16_t, 6);
ACLSIM_DTYPE(uint16_t, 7);
ACLSIM_DTYPE(int32_t, 8);
ACLSIM_DTYPE(uint32_t, 9);
ACLSIM_DTYPE(int64_t, 10);
ACLSIM_DTYPE(uint64_t, 11);
ACLSIM_DTYPE(bool, 12);
ACLSIM_DTYPE(double, 13);
#undef ACLSIM_DTYPE

template <class E> struct EnumId { static constexpr int value = -1; };
/* a struct of the table: its id (the generated header specializes it; a trait, not an overload of
   pack, because pack's calls in call() are resolved where call() is defined) */
template <class S> struct StructId { static constexpr int value = -1; };

struct Array {
    const uint64_t* data;
    int32_t count;
};

inline Arg make(int32_t kind, int32_t sub, int64_t i)
{
    Arg a;
    a.kind = kind;
    a.sub = sub;
    a.v.i = i;
    return a;
}

inline Arg struct_arg(int id, const void* p)
{
    Arg a;
    a.kind = K_STRUCT;
    a.sub = id;
    a.v.p = p;
    return a;
}

template <class T> struct always_false : std::false_type {};

template <class T> inline Arg pack(const T& v)
{
    if constexpr (std::is_base_of<Object, T>::value) {
        return make(K_HANDLE, 0, v.h_);
    } else if constexpr (std::is_enum<T>::value) {
        static_assert(EnumId<T>::value >= 0, "aclsim: this enum is not in api_cxx.txt");
        return make(K_ENUM, EnumId<T>::value, static_cast<int64_t>(v));
    } else if constexpr (std::is_same<T, bool>::value) {  // sub 2: a bool (Python checks `is False`)
        return make(K_INT, 2, v ? 1 : 0);
    } else if constexpr (std::is_integral<T>::value) {  // sub 1: a 64-bit unsigned value (its bits)
        return make(K_INT, std::is_unsigned<T>::value && sizeof(T) == 8 ? 1 : 0, static_cast<int64_t>(v));
    } else if constexpr (std::is_floating_point<T>::value || std::is_same<T, half>::value ||
                         std::is_same<T, bfloat16_t>::value) {
        Arg a;
        a.kind = K_FLOAT;
        a.sub = 0;
        a.v.f = static_cast<double>(static_cast<float>(v));
        if constexpr (std::is_same<T, double>::value) {
            a.v.f = v;
        }
        return a;
    } else if constexpr (std::is_pointer<T>::value) {
        return make(K_GM, 0, static_cast<int64_t>(reinterpret_cast<uintptr_t>(v)));
    } else if constexpr (std::is_same<T, std::nullptr_t>::value) {
        return make(K_GM, 0, 0);
    } else if constexpr (StructId<T>::value >= 0) {
        return struct_arg(StructId<T>::value, &v);
    } else {
        static_assert(always_false<T>::value, "aclsim: this argument type does not cross to Python");
        return make(K_NONE, 0, 0);
    }
}

template <class T> inline Arg pack(const Dtype<T>&)
{
    static_assert(DtypeCode<T>::value >= 0, "aclsim: this element type has no aclsim dtype");
    return make(K_DTYPE, 0, DtypeCode<T>::value);
}

inline Arg pack(const Array& a)
{
    Arg r;
    r.kind = K_ARRAY;
    r.sub = a.count;
    r.v.p = a.data;
    return r;
}

inline Arg pack(const char* s)
{
    Arg r;
    r.kind = K_STR;
    r.sub = 0;
    r.v.p = s;
    return r;
}

template <class... A> inline Arg call(int id, const char* file, int line, const A&... a)
{
    Arg args[sizeof...(A) > 0 ? sizeof...(A) : 1] = {pack(a)...};
    Arg ret = make(K_NONE, 0, 0);
    if (aclsim_asc_call(id, file, line, static_cast<int>(sizeof...(A)), args, &ret) != 0) {
        throw Abort{};
    }
    return ret;
}

template <class R> inline R unpack(const Arg& r)
{
    if constexpr (std::is_base_of<Object, R>::value) {
        return R(Handle{r.v.i});
    } else if constexpr (std::is_pointer<R>::value) {
        return reinterpret_cast<R>(static_cast<uintptr_t>(r.v.i));
    } else if constexpr (std::is_enum<R>::value) {
        return static_cast<R>(r.v.i);
    } else {
        if (r.kind == K_FLOAT) {
            return static_cast<R>(r.v.f);
        }
        return static_cast<R>(r.v.i);
    }
}

[[noreturn]] inline void assert_failed(const char* what, const char* file, int line)
{
    aclsim_asc_fail(what, file, line);
    throw Abort{};
}

}  // namespace detail
}  // namespace aclsim

#ifndef ASSERT
#define ASSERT(cond) ((cond) ? (void)0 : ::aclsim::detail::assert_failed("ASSERT(" #cond ") failed", __FILE__, __LINE__))
#endif

namespace AscendC {
template <class T> using nd_t = ::aclsim::detail::nd_t<T>;
}

#include "aclsim_ascendc_extra.h"
#include "aclsim_ascendc_api.h"
#include "aclsim_ascendc_after.h"

#endif /* ACLSIM_KERNEL_OPERATOR_H */
