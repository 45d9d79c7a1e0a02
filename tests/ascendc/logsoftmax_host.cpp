/* A CPU-debug host program of LogSoftMax as an operator writes one: the host tiling (the tmp sizes,
   LogSoftMaxTilingFunc into AscendC::tiling::LogSoftMaxTiling and into an optiling::LogSoftMaxTiling
   field of the op's tiling data), the tiling data saved to GM, a kernel that reads it with
   GET_TILING_DATA and calls LogSoftMax without a SoftMaxShapeInfo (the shape from the tiling).
   tests/ascendc/test_logsoftmax_cpp.py compares what it prints with the Python functions and NumPy. */
#include <cmath>
#include <cstdio>
#include <cstring>

#include "tikicpulib.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LsmTilingData)
TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);
TILING_DATA_FIELD_DEF_STRUCT(LogSoftMaxTiling, lsm);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LsmCustom, LsmTilingData);
}  // namespace optiling

constexpr uint32_t M = 10;
constexpr uint32_t K = 64;

extern "C" __global__ __aicore__ void lsm_tiled(GM_ADDR x, GM_ADDR y, GM_ADDR tilingGm)
{
    GET_TILING_DATA(td, tilingGm);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> io, tmp;
    pipe.InitBuffer(io, (2 * M * K + 2 * M * 8) * sizeof(float));
    pipe.InitBuffer(tmp, td.tmpBytes);
    AscendC::LocalTensor<float> all = io.Get<float>();
    AscendC::LocalTensor<float> src = all[0], dst = all[M * K], sum = all[2 * M * K], max = all[2 * M * K + M * 8];
    AscendC::GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float*)x, M * K);
    gy.SetGlobalBuffer((__gm__ float*)y, M * K);
    AscendC::DataCopy(src, gx, M * K);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::LogSoftMax<float>(dst, sum, max, src, tmp.Get<uint8_t>(), td.lsm);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::DataCopy(gy, dst, M * K);
}

int main()
{
    const ge::Shape shape({M, K});
    const uint32_t maxTmp = AscendC::GetLogSoftMaxMaxTmpSize(shape, sizeof(float), false);
    const uint32_t minTmp = AscendC::GetLogSoftMaxMinTmpSize(shape, sizeof(float), false);
    std::printf("sizes %u %u %u\n", maxTmp, minTmp, AscendC::GetLogSoftMaxMinTmpSize(ge::Shape({4, 32}), 2, false));
    const uint32_t tmpBytes = 3 * minTmp;
    AscendC::tiling::LogSoftMaxTiling plain;
    AscendC::LogSoftMaxTilingFunc(shape, sizeof(float), tmpBytes, plain);
    std::printf("plain %u %u %u %u %u %u %u %u %u %u %u %u %u %u %u %u\n", plain.srcM, plain.srcK, plain.srcSize,
                plain.outMaxM, plain.outMaxK, plain.outMaxSize, plain.splitM, plain.splitK, plain.splitSize,
                plain.reduceM, plain.reduceK, plain.reduceSize, plain.rangeM, plain.tailM, plain.tailSplitSize,
                plain.tailReduceSize);

    optiling::LsmTilingData data;
    data.set_tmpBytes(tmpBytes);
    AscendC::LogSoftMaxTilingFunc(shape, sizeof(float), tmpBytes, data.lsm);
    std::printf("optiling %u %u %u\n", data.lsm.get_splitM(), data.lsm.get_tailM(), data.GetDataSize());

    float* x = static_cast<float*>(AscendC::GmAlloc(M * K * sizeof(float)));
    float* y = static_cast<float*>(AscendC::GmAlloc(M * K * sizeof(float)));
    uint8_t* tiling = static_cast<uint8_t*>(AscendC::GmAlloc(data.GetDataSize()));
    for (uint32_t i = 0; i < M * K; ++i) {
        x[i] = static_cast<float>((i * 37) % 101) * 0.125f - 6.0f;
    }
    data.SaveToBuffer(tiling, data.GetDataSize());
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(lsm_tiled, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)tiling);
    double worst = 0;
    for (uint32_t r = 0; r < M; ++r) {
        double mx = x[r * K];
        for (uint32_t c = 1; c < K; ++c) {
            mx = std::fmax(mx, x[r * K + c]);
        }
        double s = 0;
        for (uint32_t c = 0; c < K; ++c) {
            s += std::exp(x[r * K + c] - mx);
        }
        for (uint32_t c = 0; c < K; ++c) {
            const double want = std::log10(std::exp(x[r * K + c] - mx) / s);
            worst = std::fmax(worst, std::fabs(y[r * K + c] - want) / std::fmax(std::fabs(want), 1e-1));
        }
    }
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(tiling);
    std::printf("%s: worst relative error %.3g\n", worst < 4e-6 ? "PASS" : "FAIL", worst);
    return worst < 4e-6 ? 0 : 1;
}
