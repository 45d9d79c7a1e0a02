/*
 * Row softmax in C++: the twin of examples/12_kernel_softmax.py (32 x 512 float, 8 blocks of 4 rows).
 * Per row: copy in, ReduceMax, read the max on the scalar pipe (after a V -> S flag), subtract it,
 * Exp, ReduceSum, read the sum, multiply by its reciprocal, copy out.
 * tests/ascendc/test_more_twin_softmax.py checks that it and the Python kernel give the same
 * results, instruction streams and reports.
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t ROWS = 32;
constexpr int32_t COLS = 512;
constexpr int32_t BLOCKS = 8;
constexpr int32_t ROWS_PER_BLOCK = ROWS / BLOCKS;

extern "C" __global__ __aicore__ void softmax_rows(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qIn;
    TQue<TPosition::VECOUT, 1> qOut;
    pipe.InitBuffer(qIn, 2, COLS * sizeof(float));
    pipe.InitBuffer(qOut, 2, COLS * sizeof(float));
    TBuf<TPosition::VECCALC> calc;
    pipe.InitBuffer(calc, 64 * sizeof(float));
    GlobalTensor<float> gx, gy;
    const int64_t base = GetBlockIdx() * ROWS_PER_BLOCK * COLS;
    gx.SetGlobalBuffer((__gm__ float*)x + base, ROWS_PER_BLOCK * COLS);
    gy.SetGlobalBuffer((__gm__ float*)y + base, ROWS_PER_BLOCK * COLS);
    const int32_t vs = pipe.AllocEventID<HardEvent::V_S>();  // a V -> S event id of our own
    for (int32_t r = 0; r < ROWS_PER_BLOCK; ++r) {
        LocalTensor<float> t = qIn.AllocTensor<float>();
        DataCopy(t, gx[r * COLS], COLS);
        qIn.EnQue(t);
        t = qIn.DeQue<float>();
        LocalTensor<float> scratch = calc.Get<float>();
        LocalTensor<float> red = scratch[0];
        LocalTensor<float> work = scratch[8];
        ReduceMax(red, t, work, COLS);
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        const float rowMax = red.GetValue(0);  // scalar pipe
        LocalTensor<float> o = qOut.AllocTensor<float>();
        Adds(o, t, -rowMax, COLS);
        PipeBarrier<PIPE_V>();
        Exp(o, o, COLS);
        PipeBarrier<PIPE_V>();
        ReduceSum(red, o, work, COLS);
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        const double inv = 1.0 / static_cast<double>(red.GetValue(0));
        Muls(o, o, inv, COLS);
        qIn.FreeTensor(t);
        qOut.EnQue(o);
        o = qOut.DeQue<float>();
        DataCopy(gy[r * COLS], o, COLS);
        qOut.FreeTensor(o);
    }
    pipe.ReleaseEventID<HardEvent::V_S>(vs);
}
