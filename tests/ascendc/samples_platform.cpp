// A Kernel Launch host program's platform (test_samples_sweep.py): PlatformAscendCManager's figures and
// a MultiCoreMatmulTiling made from the platform, printed as "name value" lines.  argv[1]: the SoC.
#include <cstdio>
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "tikicpulib.h"
using namespace matmul_tiling;

int main(int argc, char* argv[])
{
    auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(argc > 1 ? argv[1] : nullptr);
    std::printf("core %u\naic %u\naiv %u\nsys_ws %u\nsoc_version %d\n", platform->GetCoreNum(),
                platform->GetCoreNumAic(), platform->GetCoreNumAiv(), platform->GetLibApiWorkSpaceSize(),
                static_cast<int>(platform->GetSocVersion()));
    const platform_ascendc::CoreMemType mems[] = {platform_ascendc::CoreMemType::UB, platform_ascendc::CoreMemType::L1,
                                                  platform_ascendc::CoreMemType::L0_C};
    const char* names[] = {"ub", "l1", "l0c"};
    for (int i = 0; i < 3; ++i) {
        uint64_t size = 1;
        platform->GetCoreMemSize(mems[i], size);
        std::printf("%s %llu\n", names[i], static_cast<unsigned long long>(size));
    }
    std::printf("same %d\n", platform == platform_ascendc::PlatformAscendCManager::GetInstance() ? 1 : 0);
    MultiCoreMatmulTiling api(*platform);
    api.SetDim(2);
    api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
    api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
    api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetOrgShape(128, 256, 64);
    api.SetShape(128, 256, 64);
    api.SetBias(false);
    api.SetBufferSpace(-1, -1, -1);
    TCubeTiling tiling;  // the kernel's struct, at global scope as kernel_tiling.h has it
    if (api.GetTiling(tiling) != 0) {
        std::printf("no tiling\n");
        return 1;
    }
    std::printf("used_core_num %d\nsingle_core_m %d\nsingle_core_n %d\nbase_m %d\nbase_n %d\n", tiling.usedCoreNum,
                tiling.singleCoreM, tiling.singleCoreN, tiling.baseM, tiling.baseN);
    return 0;
}
