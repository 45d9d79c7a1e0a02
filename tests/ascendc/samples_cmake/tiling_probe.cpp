// A host tiling program linking tiling_api alone (no tikicpulib): MatmulApiTiling's tiling of a
// 64 x 128 x 96 half matmul, its fields printed as "name value" lines.
#include <cstdio>
#include "tiling_api.h"
using namespace matmul_tiling;

int main()
{
    optiling::TCubeTiling tiling;
    MatmulApiTiling api;
    api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
    api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
    api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetShape(64, 128, 96);
    api.SetOrgShape(64, 128, 96);
    api.SetBias(false);
    api.SetBufferSpace(-1, -1, -1);
    if (api.GetTiling(tiling) != 0) {
        std::printf("no tiling\n");
        return 1;
    }
    std::printf("baseM %d\nbaseN %d\nbaseK %d\nsingleCoreM %d\ndepthA1 %d\nstepKa %d\n", tiling.get_baseM(),
                tiling.get_baseN(), tiling.get_baseK(), tiling.get_singleCoreM(), tiling.get_depthA1(),
                tiling.get_stepKa());
    std::printf("size %u\n", static_cast<unsigned>(tiling.GetDataSize()));
    return 0;
}
