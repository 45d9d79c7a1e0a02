/* A CPU-debug host program calling the host-side tmp-size functions of the high-level APIs
   (tests/ascendc/test_more_host_tiling.py compares what it prints with the Python functions). */
#include <cstdio>

#include "tikicpulib.h"

int main()
{
    using namespace AscendC;
    const ge::Shape shape({4, 64});
    uint32_t maxValue = 0, minValue = 0, live = 0, extra = 0;
    GetSinMaxMinTmpSize(shape, 4, false, maxValue, minValue);
    GetSinTmpBufferFactorSize(2, live, extra);
    std::printf("sin %u %u %u %u\n", maxValue, minValue, live, extra);
    GetErfMaxMinTmpSize(shape, 2, false, maxValue, minValue);
    std::printf("erf %u %u\n", maxValue, minValue);
    GetPowerMaxMinTmpSize(shape, ge::Shape({1}), false, 4, false, maxValue, minValue);
    GetPowerTmpBufferFactorSize(true, false, false, 4, live, extra);
    std::printf("power %u %u %u %u\n", maxValue, minValue, live, extra);
    GetLayerNormMaxMinTmpSize(ge::Shape({2, 4, 32}), 4, false, maxValue, minValue);
    std::printf("layernorm %u %u\n", maxValue, minValue);
    std::printf("softmax %u %u\n", GetSoftMaxMaxTmpSize(shape, 4, false), GetSoftMaxMinTmpSize(shape, 4, false));
    return 0;
}
