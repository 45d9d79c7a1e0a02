/* A CPU-debug host program passing host memory that is not GmAlloc's to ICPU_RUN_KF (argument 2):
   aclsim says so at the launch, naming the argument (test_host_args.py). */
#include <cstdio>
#include <vector>
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z);

int main()
{
    constexpr size_t n = 8 * 2048;
    half* x = static_cast<half*>(AscendC::GmAlloc(n * sizeof(half)));
    std::vector<half> y(n, half(1.0f));  // host memory, not GmAlloc's
    half* z = static_cast<half*>(AscendC::GmAlloc(n * sizeof(half)));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(add_custom, 8, (GM_ADDR)x, (GM_ADDR)y.data(), (GM_ADDR)z);
    AscendC::GmFree(x);
    AscendC::GmFree(z);
    return 0;
}
