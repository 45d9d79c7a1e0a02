/*
 * aclsim: the macros of multi-core and mixed kernels and of tiling, on top of the table's rows
 * (## Blocks, cores, atomics, tiling in api_cxx.txt).  Written from Ascend's public documentation.
 *
 * - ASCEND_IS_AIV / ASCEND_IS_AIC: the core type of the running block (a declared kernel type is
 *   needed: KERNEL_TASK_TYPE_DEFAULT, or SetKernelMode on the host);
 * - KERNEL_TASK_TYPE_DEFAULT(type) / KERNEL_TASK_TYPE(key, type): the kernel's type (KernelMetaType's
 *   names unqualified, as kernels write them);
 * - TILING_KEY_IS(key) / TILING_KEY_LIST(k1, k2, ...): the tiling key ICPU_SET_TILING_KEY set;
 * - BEGIN_TILING_DATA_DEF / TILING_DATA_FIELD_DEF(_ARR/_STRUCT) / END_TILING_DATA_DEF /
 *   REGISTER_TILING_DATA_CLASS: a plain struct with the fields in order (set_x/get_x accessors,
 *   GetDataSize, SaveToBuffer), the layout a kernel reads; GET_TILING_DATA(var, tiling) declares
 *   var of the registered class and copies it from the GM tiling pointer
 *   (GET_TILING_DATA_WITH_STRUCT(Type, var, tiling): of Type).
 */
#ifndef ACLSIM_ASCENDC_MULTI_H
#define ACLSIM_ASCENDC_MULTI_H

#include <cstring>
#include <initializer_list>

extern "C" uint64_t aclsim_tiling_key(void);

#define ASCEND_IS_AIV (::AscendC::AscendIsAIV())
#define ASCEND_IS_AIC (::AscendC::AscendIsAIC())
#define ASCEND_IS_NOT_AIV (!::AscendC::AscendIsAIV())
#define ASCEND_IS_NOT_AIC (!::AscendC::AscendIsAIC())

#define KERNEL_TASK_TYPE_DEFAULT(type)                                                              \
    do {                                                                                            \
        using namespace ::AscendC;                                                                  \
        ::AscendC::KernelTaskTypeDefault(type);                                                     \
    } while (0)
#define KERNEL_TASK_TYPE(key, type)                                                                 \
    do {                                                                                            \
        using namespace ::AscendC;                                                                  \
        ::AscendC::KernelTaskType(static_cast<uint64_t>(key), type);                                \
    } while (0)

namespace aclsim {
namespace detail {
inline bool tiling_key_in(std::initializer_list<uint64_t> keys)
{
    const uint64_t key = aclsim_tiling_key();
    for (uint64_t k : keys) {
        if (k == key) {
            return true;
        }
    }
    return false;
}

template <class T> inline void read_tiling(T* dst, const void* tiling, const char* file, int line)
{
    if (tiling == nullptr) {
        assert_failed("GET_TILING_DATA: the tiling pointer is null", file, line);
    }
    std::memcpy(static_cast<void*>(dst), tiling, sizeof(T));
}
}  // namespace detail
}  // namespace aclsim

#define TILING_KEY_IS(key) (aclsim_tiling_key() == static_cast<uint64_t>(key))
#define TILING_KEY_LIST(...) (::aclsim::detail::tiling_key_in({__VA_ARGS__}))

#define BEGIN_TILING_DATA_DEF(name)                                                                 \
    struct name {                                                                                   \
        uint32_t GetDataSize() const { return static_cast<uint32_t>(sizeof(name)); }                \
        void SaveToBuffer(void* buf, size_t cap) const                                              \
        {                                                                                           \
            std::memcpy(buf, this, cap < sizeof(name) ? cap : sizeof(name));                        \
        }
#define TILING_DATA_FIELD_DEF(type, field)                                                          \
    type field;                                                                                     \
    void set_##field(type v) { field = v; }                                                         \
    type get_##field() const { return field; }
#define TILING_DATA_FIELD_DEF_ARR(type, count, field)                                               \
    type field[count];                                                                              \
    void set_##field(const type* v) { std::memcpy(field, v, sizeof(field)); }                       \
    const type* get_##field() const { return field; }
#define TILING_DATA_FIELD_DEF_STRUCT(type, field)                                                   \
    type field;                                                                                     \
    void set_##field(const type& v) { field = v; }                                                  \
    const type& get_##field() const { return field; }
#define END_TILING_DATA_DEF }
/* the class GET_TILING_DATA reads (one per translation unit, as one kernel's tiling header has) */
#define REGISTER_TILING_DATA_CLASS(op, cls) using AclsimRegisteredTilingData = cls
#define REGISTER_TILING_DEFAULT(cls) using AclsimRegisteredTilingData = cls

namespace optiling {}  // GET_TILING_DATA looks the registered class up here too

#define GET_TILING_DATA_WITH_STRUCT(type, var, tiling)                                              \
    type var;                                                                                       \
    ::aclsim::detail::read_tiling(&var, reinterpret_cast<const void*>(tiling), __FILE__, __LINE__)
#define GET_TILING_DATA(var, tiling)                                                                \
    using namespace ::optiling;                                                                     \
    GET_TILING_DATA_WITH_STRUCT(AclsimRegisteredTilingData, var, tiling)

#endif
