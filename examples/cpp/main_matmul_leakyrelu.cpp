/*
 * A CPU-debug host program for matmul_leakyrelu.cpp: the host tiling of the high-level Matmul
 * (tiling/tiling_api.h: MultiCoreMatmulTiling over two cores, fixed 64 x 64 base blocks, bias, C to
 * VECIN), GmAlloc'd inputs the host fills in place, ICPU_RUN_KF with blockDim 1 (no SetKernelMode:
 * CANN's MIX_MODE, whose two AIVs are the tiling's two cores), the result checked here against
 * LeakyRelu(A @ B + bias) computed in float.
 */
#include <cmath>
#include <cstdio>
#include <cstring>

#include "tikicpulib.h"
#include "tiling/tiling_api.h"

extern "C" void matmul_leakyrelu(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                 GM_ADDR tiling);

namespace {
constexpr int M = 128;
constexpr int N = 128;
constexpr int K = 64;

/* small exact values: every product and sum is exact in float */
float Value(uint32_t i, uint32_t salt) { return static_cast<float>(static_cast<int>((i * 7u + salt * 13u) % 9u) - 4); }
}  // namespace

int main()
{
    using namespace matmul_tiling;
    MultiCoreMatmulTiling api;
    api.SetDim(2);
    api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    api.SetCType(TPosition::VECIN, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetShape(M, N, K);
    api.SetOrgShape(M, N, K);
    api.SetFixSplit(64, 64, -1);
    api.SetBias(true);
    api.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling tilingData;
    if (api.GetTiling(tilingData) != 0) {
        std::printf("FAIL: GetTiling\n");
        return 1;
    }
    tilingData.set_stepM(1);
    tilingData.set_stepN(1);
    const uint32_t cores = static_cast<uint32_t>(tilingData.get_usedCoreNum());
    std::printf("tiling: %u cores, singleCore %d x %d x %d, base %d x %d x %d\n", cores,
                tilingData.get_singleCoreM(), tilingData.get_singleCoreN(), tilingData.get_singleCoreK(),
                tilingData.get_baseM(), tilingData.get_baseN(), tilingData.get_baseK());

    half* a = static_cast<half*>(AscendC::GmAlloc(M * K * sizeof(half)));
    half* b = static_cast<half*>(AscendC::GmAlloc(K * N * sizeof(half)));
    float* bias = static_cast<float*>(AscendC::GmAlloc(N * sizeof(float)));
    float* c = static_cast<float*>(AscendC::GmAlloc(M * N * sizeof(float)));
    uint8_t* workspace = static_cast<uint8_t*>(
        AscendC::GmAlloc(cores * tilingData.get_baseM() * tilingData.get_baseN() * sizeof(float)));
    uint8_t* tiling = static_cast<uint8_t*>(AscendC::GmAlloc(tilingData.GetDataSize()));
    for (uint32_t i = 0; i < M * K; ++i) a[i] = Value(i, 1);
    for (uint32_t i = 0; i < K * N; ++i) b[i] = Value(i, 2);
    for (uint32_t i = 0; i < N; ++i) bias[i] = Value(i, 3) * 8;
    std::memset(c, 0, M * N * sizeof(float));
    tilingData.SaveToBuffer(tiling, tilingData.GetDataSize());

    ICPU_RUN_KF(matmul_leakyrelu, 1, (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)bias, (GM_ADDR)c, workspace, tiling);

    int bad = 0;
    for (int i = 0; i < M; ++i) {
        for (int j = 0; j < N; ++j) {
            float y = bias[j];
            for (int k = 0; k < K; ++k) y += static_cast<float>(a[i * K + k]) * static_cast<float>(b[k * N + j]);
            const float want = y >= 0 ? y : y * 0.001f;
            bad += std::fabs(c[i * N + j] - want) > 1e-5f * (1.0f + std::fabs(want));
        }
    }
    std::printf("%s: %d of %d elements differ\n", bad == 0 ? "PASS" : "FAIL", bad, M * N);
    for (void* p : {static_cast<void*>(a), static_cast<void*>(b), static_cast<void*>(bias), static_cast<void*>(c),
                    static_cast<void*>(workspace), static_cast<void*>(tiling)}) {
        AscendC::GmFree(p);
    }
    return bad == 0 ? 0 : 1;
}
