/*
 * y = 2 * x in one UB buffer, CopyIn, Compute and CopyOut strictly in turn: the C++ twin of
 * serial_kernel(6, 7) of examples/20_double_buffering.py, its flags written with the CCE
 * intrinsics set_flag/wait_flag(pipe, pipe, EVENT_ID0).  tests/ascendc/test_vec_twins.py checks
 * that both give the same results, instruction streams and reports.
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t TILE = 4096;
constexpr int32_t TILES = 6;
constexpr int32_t OPS = 7;

extern "C" __global__ __aicore__ void scale_serial(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, TILES * TILE);
    yGm.SetGlobalBuffer((__gm__ half*)y, TILES * TILE);
    TPipe pipe;
    TBuf<QuePosition::VECCALC> ub;
    pipe.InitBuffer(ub, TILE * sizeof(half));
    LocalTensor<half> buf = ub.Get<half>();
    for (int32_t i = 0; i < TILES; i++) {
        if (i > 0) {
            wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);  // the buffer was copied out
        }
        DataCopy(buf, xGm[i * TILE], TILE);
        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        Muls(buf, buf, 2.0f, TILE);
        for (int32_t k = 0; k < OPS - 1; k++) {
            Adds(buf, buf, 0.0f, TILE);
        }
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        DataCopy(yGm[i * TILE], buf, TILE);
        if (i + 1 < TILES) {
            set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
        }
    }
}
