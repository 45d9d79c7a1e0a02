/*
 * A CPU-debug host program for add_custom.cpp, as Ascend's kernel-invocation samples write one:
 * GmAlloc'd memory the host fills in place, ICPU_RUN_KF over 8 blocks, the result checked here.
 *   c++ main_add.cpp add_custom.cpp $(aclsim ascendc --cflags --libs) -o add_cpu && ./add_cpu
 */
#include <cmath>
#include <cstdio>
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z);

int main()
{
    constexpr uint32_t blockDim = 8;
    constexpr size_t n = 8 * 2048;
    half* x = static_cast<half*>(AscendC::GmAlloc(n * sizeof(half)));
    half* y = static_cast<half*>(AscendC::GmAlloc(n * sizeof(half)));
    half* z = static_cast<half*>(AscendC::GmAlloc(n * sizeof(half)));
    for (size_t i = 0; i < n; ++i) {
        x[i] = half(static_cast<float>(i % 97) * 0.5f);
        y[i] = half(static_cast<float>(i % 13) - 6.0f);
    }
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(add_custom, blockDim, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z);
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i) {
        const half expected = half(float(x[i]) + float(y[i]));
        wrong += z[i].bits_ != expected.bits_;
    }
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(z);
    std::printf("%s: %zu of %zu elements differ\n", wrong ? "FAIL" : "PASS", wrong, n);
    return wrong ? 1 : 0;
}
