/*
 * KernelAdd with hand-written synchronization in C++: the twin of examples/13_kernel_hand_flags.py,
 * written with the CCE intrinsics set_flag/wait_flag(pipe, pipe, event_t) where the Python kernel
 * calls set_flag(HardEvent, id).  Two ping-pong buffers per operand; event id = buffer index.
 * tests/ascendc/test_vec_twins.py checks that both give the same results, instruction streams
 * and reports.
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t N = 8 * 2048;
constexpr int32_t BLOCKS = 8;
constexpr int32_t PER_BLOCK = N / BLOCKS;
constexpr int32_t TILE = 128;
constexpr int32_t TILES = PER_BLOCK / TILE;

extern "C" __global__ __aicore__ void add_hand_flags(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TBuf<> bx, by, bz;
    pipe.InitBuffer(bx, 2 * TILE * sizeof(half));
    pipe.InitBuffer(by, 2 * TILE * sizeof(half));
    pipe.InitBuffer(bz, 2 * TILE * sizeof(half));
    GlobalTensor<half> gx, gy, gz;
    const int32_t base = GetBlockIdx() * PER_BLOCK;
    gx.SetGlobalBuffer((__gm__ half*)x + base, PER_BLOCK);
    gy.SetGlobalBuffer((__gm__ half*)y + base, PER_BLOCK);
    gz.SetGlobalBuffer((__gm__ half*)z + base, PER_BLOCK);
    LocalTensor<half> xs[2], ys[2], zs[2];
    for (int32_t k = 0; k < 2; k++) {
        xs[k] = bx.GetWithOffset<half>(TILE, k * TILE * sizeof(half));
    }
    for (int32_t k = 0; k < 2; k++) {
        ys[k] = by.GetWithOffset<half>(TILE, k * TILE * sizeof(half));
    }
    for (int32_t k = 0; k < 2; k++) {
        zs[k] = bz.GetWithOffset<half>(TILE, k * TILE * sizeof(half));
    }
    for (int32_t i = 0; i < TILES; i++) {
        const event_t k = static_cast<event_t>(i % 2);
        if (i >= 2) {
            wait_flag(PIPE_V, PIPE_MTE2, k);  // x[k], y[k] were consumed by tile i - 2
        }
        DataCopy(xs[k], gx[i * TILE], TILE);
        DataCopy(ys[k], gy[i * TILE], TILE);
        set_flag(PIPE_MTE2, PIPE_V, k);
        wait_flag(PIPE_MTE2, PIPE_V, k);
        if (i >= 2) {
            wait_flag(PIPE_MTE3, PIPE_V, k);  // z[k] was written out by tile i - 2
        }
        Add(zs[k], xs[k], ys[k], TILE);
        if (i + 2 < TILES) {
            set_flag(PIPE_V, PIPE_MTE2, k);
        }
        set_flag(PIPE_V, PIPE_MTE3, k);
        wait_flag(PIPE_V, PIPE_MTE3, k);
        DataCopy(gz[i * TILE], zs[k], TILE);
        if (i + 2 < TILES) {
            set_flag(PIPE_MTE3, PIPE_V, k);
        }
    }
}
