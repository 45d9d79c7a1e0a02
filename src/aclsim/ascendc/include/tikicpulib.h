/*
 * aclsim's tikicpulib.h: the CPU-debug host side of Ascend C kernel programs (ICPU_RUN_KF,
 * GmAlloc/GmFree, ICPU_SET_TILING_KEY, SetKernelMode), running the kernel on aclsim's simulated
 * AI Core: one aclsim launch of all its blocks, with the instruction streams, the race check and
 * the cycle model of the Python kernel language.  Written from Ascend's public documentation.
 */
#ifndef ACLSIM_TIKICPULIB_H
#define ACLSIM_TIKICPULIB_H

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <exception>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"

/* The SoC the build targets (the CMake package's tikicpulib::<soc> defines it): aclsim runs on
   its preset unless ACLSIM_CHIP says otherwise. */
#ifndef ACLSIM_SOC
#define ACLSIM_SOC ""
#endif

enum class KernelMode { MIX_MODE = 0, AIC_MODE = 1, AIV_MODE = 2, MIX_AIC_1_1 = 3 };

extern "C" {
void* aclsim_gm_alloc(uint64_t size, const char* soc);
int aclsim_gm_free(void* p);
void aclsim_set_tiling_key(uint64_t key);
uint64_t aclsim_tiling_key(void);
void aclsim_set_kernel_mode(int mode);
int aclsim_run_kernel(const char* name, const char* file, int line, uint32_t block_dim, const char* soc,
                      int (*body)(void*), void* ctx, int n, void* const* ptrs, const char* table);
}

namespace AscendC {
/* Device memory the host reads and writes in place (the bytes of aclsim's device memory). */
inline void* GmAlloc(size_t size) { return aclsim_gm_alloc(static_cast<uint64_t>(size), ACLSIM_SOC); }
inline void GmFree(void* ptr)
{
    if (ptr != nullptr && !aclsim_gm_free(ptr)) {
        std::fprintf(stderr, "aclsim: GmFree(%p): not memory of GmAlloc\n", ptr);
    }
}
inline void SetKernelMode(KernelMode mode) { aclsim_set_kernel_mode(static_cast<int>(mode)); }
}  // namespace AscendC

namespace aclsim {
namespace cpudebug {

template <class F> int block_entry(void* ctx)
{
    try {
        (*static_cast<F*>(ctx))();
        return 0;
    } catch (const ::aclsim::detail::Abort&) {
        return 1;  // the bridge kept the error
    } catch (const std::exception& e) {
        aclsim_asc_fail(e.what(), "C++ exception", 0);
        return 1;
    } catch (...) {
        aclsim_asc_fail("a C++ exception that is not a std::exception", "C++ exception", 0);
        return 1;
    }
}

template <class A> inline void pointer_of(std::vector<void*>& out, const A& a)
{
    if constexpr (std::is_pointer<A>::value) {
        out.push_back(const_cast<void*>(reinterpret_cast<const void*>(a)));
    } else {
        out.push_back(nullptr);  // a tiling struct passed by value
    }
}

/* ICPU_RUN_KF: every block of the kernel in one launch; a failed launch prints its error (the
   code, the C++ line) and ends the program with status 1 (ACLSIM_ON_ERROR=continue: go on). */
template <class F, class... A>
inline void run_kf(const char* name, const char* file, int line, uint32_t block_dim, F body, const A&... args)
{
    std::vector<void*> ptrs;
    (pointer_of(ptrs, args), ...);
    const int rc = aclsim_run_kernel(name, file, line, block_dim, ACLSIM_SOC, &block_entry<F>, &body,
                                     static_cast<int>(ptrs.size()), ptrs.data(), ACLSIM_ASCENDC_TABLE);
    if (rc != 0) {
        const char* on = std::getenv("ACLSIM_ON_ERROR");
        if (on == nullptr || std::string_view(on) != "continue") {
            std::exit(1);
        }
    }
}

}  // namespace cpudebug
}  // namespace aclsim

#define ICPU_RUN_KF(func, blockdim, ...)                                                            \
    ::aclsim::cpudebug::run_kf(#func, __FILE__, __LINE__, static_cast<uint32_t>(blockdim),            \
                               [&]() { func(__VA_ARGS__); }, ##__VA_ARGS__)
#define ICPU_SET_TILING_KEY(key) aclsim_set_tiling_key(static_cast<uint64_t>(key))

#include "aclsim_ascendc_more_host.h"
#include "aclsim_ascendc_host.h"

#endif /* ACLSIM_TIKICPULIB_H */
