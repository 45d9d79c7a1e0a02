/*
 * LogSoftMax over the rows of a matrix in C++: the twin of examples/26_kernel_log_softmax.py
 * (48 x 160 float, 4 blocks of 12 rows).  Each block copies its rows in, calls the high-level
 * LogSoftMax with a work buffer that holds 8 rows (a split of 8 and a tail of 4) and a
 * default-constructed LogSoftMaxTiling (the API takes its splits from the work buffer, the shape from
 * the SoftMaxShapeInfo), and copies dst = log10(softmax(x)), the row sums and the row maxima out.
 * tests/ascendc/test_logsoftmax_cpp.py checks that it and the Python kernel give the same results,
 * instruction streams and reports.
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t ROWS = 48;
constexpr int32_t COLS = 160;
constexpr int32_t BLOCKS = 4;
constexpr int32_t ROWS_PER_BLOCK = ROWS / BLOCKS;
constexpr int32_t BLK = 8;  // floats of a 32 B block: each row's sum and max
// GetLogSoftMaxMaxTmpSize({8, COLS}, 4, false): 8 rows of COLS + 64 floats, 8 blocks and 8 values
constexpr uint32_t TMP_BYTES = (8 * (COLS + 64) + 8 * (BLK + 1)) * sizeof(float);

extern "C" __global__ __aicore__ void log_softmax(GM_ADDR x, GM_ADDR y, GM_ADDR s, GM_ADDR mx)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qIn;
    TQue<TPosition::VECOUT, 1> qOut, qSum, qMax;
    pipe.InitBuffer(qIn, 1, ROWS_PER_BLOCK * COLS * sizeof(float));
    pipe.InitBuffer(qOut, 1, ROWS_PER_BLOCK * COLS * sizeof(float));
    pipe.InitBuffer(qSum, 1, ROWS_PER_BLOCK * BLK * sizeof(float));
    pipe.InitBuffer(qMax, 1, ROWS_PER_BLOCK * BLK * sizeof(float));
    TBuf<TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(tmpBuf, TMP_BYTES);
    GlobalTensor<float> gx, gy, gs, gm;
    const int64_t block = GetBlockIdx();
    gx.SetGlobalBuffer((__gm__ float*)x + block * ROWS_PER_BLOCK * COLS, ROWS_PER_BLOCK * COLS);
    gy.SetGlobalBuffer((__gm__ float*)y + block * ROWS_PER_BLOCK * COLS, ROWS_PER_BLOCK * COLS);
    gs.SetGlobalBuffer((__gm__ float*)s + block * ROWS_PER_BLOCK * BLK, ROWS_PER_BLOCK * BLK);
    gm.SetGlobalBuffer((__gm__ float*)mx + block * ROWS_PER_BLOCK * BLK, ROWS_PER_BLOCK * BLK);
    LocalTensor<float> t = qIn.AllocTensor<float>();
    DataCopy(t, gx, ROWS_PER_BLOCK * COLS);
    qIn.EnQue(t);
    t = qIn.DeQue<float>();
    LocalTensor<float> out = qOut.AllocTensor<float>();
    LocalTensor<float> ts = qSum.AllocTensor<float>();
    LocalTensor<float> tm = qMax.AllocTensor<float>();
    LogSoftMaxTiling tiling;
    SoftMaxShapeInfo shape = {ROWS_PER_BLOCK, COLS, ROWS_PER_BLOCK, COLS};
    LogSoftMax<float>(out, ts, tm, t, tmpBuf.Get<uint8_t>(), tiling, shape);
    qIn.FreeTensor(t);
    qOut.EnQue(out);
    qSum.EnQue(ts);
    qMax.EnQue(tm);
    LocalTensor<float> o = qOut.DeQue<float>();
    DataCopy(gy, o, ROWS_PER_BLOCK * COLS);
    qOut.FreeTensor(o);
    o = qSum.DeQue<float>();
    DataCopy(gs, o, ROWS_PER_BLOCK * BLK);
    qSum.FreeTensor(o);
    o = qMax.DeQue<float>();
    DataCopy(gm, o, ROWS_PER_BLOCK * BLK);
    qMax.FreeTensor(o);
}
