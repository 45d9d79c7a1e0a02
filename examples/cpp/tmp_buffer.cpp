/*
 * bfloat16 add through float temporaries in C++: the twin of examples/19_port_tmp_buffer.py
 * (z = bfloat16(float(x) + float(y)), the float temporaries in two TBuf<VECCALC>, one block).
 * tests/ascendc/test_vec_twins.py checks that both give the same results, instruction streams
 * and reports.
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t TOTAL_LENGTH = 2048;

extern "C" __global__ __aicore__ void tmp_buffer_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    GlobalTensor<bfloat16_t> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ bfloat16_t*)x, TOTAL_LENGTH);
    yGm.SetGlobalBuffer((__gm__ bfloat16_t*)y, TOTAL_LENGTH);
    zGm.SetGlobalBuffer((__gm__ bfloat16_t*)z, TOTAL_LENGTH);
    TQue<TPosition::VECIN, 1> inQueueX, inQueueY;
    TQue<TPosition::VECOUT, 1> outQueueZ;
    pipe.InitBuffer(inQueueX, 1, TOTAL_LENGTH * sizeof(bfloat16_t));
    pipe.InitBuffer(inQueueY, 1, TOTAL_LENGTH * sizeof(bfloat16_t));
    pipe.InitBuffer(outQueueZ, 1, TOTAL_LENGTH * sizeof(bfloat16_t));
    TBuf<TPosition::VECCALC> tmpBuf0, tmpBuf1;
    pipe.InitBuffer(tmpBuf0, TOTAL_LENGTH * sizeof(float));
    pipe.InitBuffer(tmpBuf1, TOTAL_LENGTH * sizeof(float));

    LocalTensor<bfloat16_t> xLocal = inQueueX.AllocTensor<bfloat16_t>();
    LocalTensor<bfloat16_t> yLocal = inQueueY.AllocTensor<bfloat16_t>();
    DataCopy(xLocal, xGm, TOTAL_LENGTH);
    DataCopy(yLocal, yGm, TOTAL_LENGTH);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);

    xLocal = inQueueX.DeQue<bfloat16_t>();
    yLocal = inQueueY.DeQue<bfloat16_t>();
    LocalTensor<bfloat16_t> zLocal = outQueueZ.AllocTensor<bfloat16_t>();
    LocalTensor<float> tmp0 = tmpBuf0.Get<float>();
    LocalTensor<float> tmp1 = tmpBuf1.Get<float>();
    Cast(tmp0, xLocal, RoundMode::CAST_NONE, TOTAL_LENGTH);
    Cast(tmp1, yLocal, RoundMode::CAST_NONE, TOTAL_LENGTH);
    Add(tmp0, tmp0, tmp1, TOTAL_LENGTH);
    Cast(zLocal, tmp0, RoundMode::CAST_RINT, TOTAL_LENGTH);
    outQueueZ.EnQue(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);

    zLocal = outQueueZ.DeQue<bfloat16_t>();
    DataCopy(zGm, zLocal, TOTAL_LENGTH);
    outQueueZ.FreeTensor(zLocal);
}
