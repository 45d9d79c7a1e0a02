// Runs affine_kernel on 2 blocks in the CPU-debug mode and checks every element; prints "affine ok".
#include <cstdio>

#include "acl/acl.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void affine_kernel(GM_ADDR x, GM_ADDR z);

int main()
{
    constexpr int kBlocks = 2;
    constexpr int kCount = 64 * kBlocks;
    auto* x = static_cast<float*>(AscendC::GmAlloc(kCount * sizeof(float)));
    auto* z = static_cast<float*>(AscendC::GmAlloc(kCount * sizeof(float)));
    for (int i = 0; i < kCount; ++i) {
        x[i] = static_cast<float>(i) - 10.0f;
        z[i] = -1.0f;
    }
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(affine_kernel, kBlocks, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(z));
    int bad = 0;
    for (int i = 0; i < kCount; ++i) {
        if (z[i] != x[i] * 3.0f + 1.0f) {
            std::printf("z[%d] = %g, expected %g\n", i, z[i], x[i] * 3.0f + 1.0f);
            ++bad;
        }
    }
    AscendC::GmFree(x);
    AscendC::GmFree(z);
    std::printf("soc %s, affine %s\n", ACLSIM_SOC, bad == 0 ? "ok" : "wrong");
    std::printf("ACL_SUCCESS %d\n", static_cast<int>(ACL_SUCCESS));
    return bad == 0 ? 0 : 1;
}
