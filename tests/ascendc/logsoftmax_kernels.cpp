/* LogSoftMax kernels of tests/ascendc/test_logsoftmax_cpp.py: half with the reductions over a prefix of
   the columns (oriSrcK < srcK), and refusals that must name their C++ line. */
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t M = 8;
constexpr uint32_t K = 48;      // 96 B of half a row
constexpr uint32_t ORI_K = 40;  // the max and the sum cover the first 40 columns
constexpr uint32_t HBLK = 16;   // halves of a 32 B block
// GetLogSoftMaxMaxTmpSize({8, 48}, 2, false): 8 rows of K + 64 floats, 8 blocks of 16 and 8 values
constexpr uint32_t TMP_BYTES = (M * (K + 64) + M * (HBLK + 1)) * sizeof(float);

extern "C" __global__ __aicore__ void lsm_half(GM_ADDR x, GM_ADDR y, GM_ADDR s, GM_ADDR mx)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> io, tmp;
    pipe.InitBuffer(io, (2 * M * K + 2 * M * HBLK) * sizeof(half));
    pipe.InitBuffer(tmp, TMP_BYTES);
    LocalTensor<half> all = io.Get<half>();
    LocalTensor<half> src = all[0], dst = all[M * K], sum = all[2 * M * K], max = all[2 * M * K + M * HBLK];
    GlobalTensor<half> gx, gy, gs, gm;
    gx.SetGlobalBuffer((__gm__ half*)x, M * K);
    gy.SetGlobalBuffer((__gm__ half*)y, M * K);
    gs.SetGlobalBuffer((__gm__ half*)s, M * HBLK);
    gm.SetGlobalBuffer((__gm__ half*)mx, M * HBLK);
    DataCopy(src, gx, M * K);
    PipeBarrier<PIPE_ALL>();
    LogSoftMax<half, false, false>(dst, sum, max, src, tmp.Get<uint8_t>(), LogSoftMaxTiling(),
                                   SoftMaxShapeInfo{M, K, M, ORI_K});
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, dst, M * K);
    DataCopy(gs, sum, M * HBLK);
    DataCopy(gm, max, M * HBLK);
}

#define ACLSIM_LSM_OPERANDS                                                                           \
    TPipe pipe;                                                                                       \
    TBuf<TPosition::VECCALC> io, tmp;                                                                 \
    pipe.InitBuffer(io, (2 * M * K + 2 * M * HBLK) * sizeof(half));                                   \
    pipe.InitBuffer(tmp, TMP_BYTES);                                                                  \
    LocalTensor<half> all = io.Get<half>();                                                           \
    LocalTensor<half> src = all[0], dst = all[M * K], sum = all[2 * M * K], max = all[2 * M * K + M * HBLK]; \
    const SoftMaxShapeInfo shape{M, K, M, K}

extern "C" __global__ __aicore__ void lsm_no_shape(GM_ADDR x)
{
    ACLSIM_LSM_OPERANDS;
    LogSoftMax<half>(dst, sum, max, src, tmp.Get<uint8_t>(), LogSoftMaxTiling());  // NO-SHAPE-LINE
}

extern "C" __global__ __aicore__ void lsm_overlap(GM_ADDR x)
{
    ACLSIM_LSM_OPERANDS;
    LogSoftMax<half>(dst, sum, src, src, tmp.Get<uint8_t>(), LogSoftMaxTiling(), shape);  // OVERLAP-LINE
}

extern "C" __global__ __aicore__ void lsm_nz(GM_ADDR x)
{
    ACLSIM_LSM_OPERANDS;
    LogSoftMax<half, false, true>(dst, sum, max, src, tmp.Get<uint8_t>(), LogSoftMaxTiling(), shape);  // NZ-LINE
}
