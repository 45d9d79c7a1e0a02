/* aclsim: host-side helpers the CPU-debug programs of Ascend's samples call through tikicpulib.h. */
#ifndef ACLSIM_ASCENDC_HOST_H
#define ACLSIM_ASCENDC_HOST_H

#include <cstddef>
#include <cstring>

#ifndef ACLSIM_HAVE_MEMCPY_S
#define ACLSIM_HAVE_MEMCPY_S
/* memcpy_s of the securec library (CANN's c_sec): 0 when copied; EINVAL (22) for a null pointer,
   ERANGE_AND_RESET (162) when count exceeds destMax (dest zeroed), EOVERLAP_AND_RESET (182) when the
   ranges overlap (dest zeroed). */
inline int memcpy_s(void* dest, size_t destMax, const void* src, size_t count)
{
    if (dest == nullptr || src == nullptr) {
        return 22;
    }
    if (count > destMax) {
        std::memset(dest, 0, destMax);
        return 162;
    }
    const char* d = static_cast<const char*>(dest);
    const char* s = static_cast<const char*>(src);
    if ((d < s && s < d + count) || (s < d && d < s + count)) {
        std::memset(dest, 0, destMax);
        return 182;
    }
    std::memcpy(dest, src, count);
    return 0;
}
#endif

#endif
