/* aclsim's tiling/platform/platform_ascendc.h: PlatformAscendC and PlatformAscendCManager of a CPU-debug
 * host program (the kernel-invocation samples' main.cpp and host tiling).  The figures are those of the
 * chip preset aclsim runs on: the first call starts aclsim as a first GmAlloc would (ACLSIM_CHIP, else
 * the SoC the platform names, else the build's), each read through the row AclsimPlatformInfo of
 * api_cxx.txt ("## Samples sweep").  Written from Ascend's public documentation. */
#ifndef ACLSIM_PLATFORM_ASCENDC_H
#define ACLSIM_PLATFORM_ASCENDC_H

#include <cstdint>
#include <cstdio>

#include "kernel_operator.h"

#ifndef ACLSIM_SOC
#define ACLSIM_SOC ""
#endif

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };

/* the product families aclsim has presets of (GetSocVersion of another chip: RESERVED_VERSION) */
enum class SocVersion { ASCEND910 = 0, ASCEND910B, ASCEND310P, ASCEND310B, RESERVED_VERSION = 99999 };

class PlatformAscendC {
public:
    PlatformAscendC() : soc_(ACLSIM_SOC) {}
    explicit PlatformAscendC(const char* socVersion) : soc_(socVersion != nullptr ? socVersion : ACLSIM_SOC) {}

    /* the vector cores of a split chip, the AI Cores of a coupled one */
    uint32_t GetCoreNum() const { return static_cast<uint32_t>(Info(0)); }
    uint32_t GetCoreNumAic() const { return static_cast<uint32_t>(Info(1)); }
    uint32_t GetCoreNumAiv() const { return static_cast<uint32_t>(Info(2)); }
    /* bytes of system workspace a kernel's workspace starts with (RESERVED_WORKSPACE) */
    uint32_t GetLibApiWorkSpaceSize() const { return static_cast<uint32_t>(Info(3)); }
    SocVersion GetSocVersion() const { return static_cast<SocVersion>(Info(4)); }
    /* the size of a memory of one core (the chip's for L2 and HBM); 0 for one the preset has no figure
       of (the Fixpipe buffer), said on stderr */
    void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const
    {
        const int64_t v = Info(16 + static_cast<int32_t>(memType));
        size = v < 0 ? 0 : static_cast<uint64_t>(v);
    }
    const char* AclsimSoc() const { return soc_; }

private:
    int64_t Info(int32_t what) const { return ::AscendC::AclsimPlatformInfo(soc_, what); }
    const char* soc_;
};

/* the platform of a Kernel Launch host program: one instance, its SoC the first call's */
class PlatformAscendCManager {
public:
    static PlatformAscendC* GetInstance() { return Instance(nullptr); }
    static PlatformAscendC* GetInstance(const char* customSocVersion) { return Instance(customSocVersion); }

private:
    static PlatformAscendC* Instance(const char* soc)
    {
        static PlatformAscendC platform(soc);
        return &platform;
    }
};

}  // namespace platform_ascendc

#endif /* ACLSIM_PLATFORM_ASCENDC_H */
