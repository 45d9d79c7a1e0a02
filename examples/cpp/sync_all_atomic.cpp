/*
 * Multi-core kernels in C++: the twins of examples/16_kernel_sync_all_atomic.py (8 blocks of 32
 * floats).  sync_all_custom: each block doubles its slice into a shared workspace, SyncAll, then
 * adds the other blocks' slices to its own.  atomic_sum: block 0 zeroes the output with
 * InitGlobalMemory, SyncAll, then every block stores its doubled slice with SetAtomicAdd<float>.
 * tests/ascendc/test_multi_twins.py checks results, instruction streams and reports against the
 * Python kernels.
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t TOTAL_LENGTH = 256;
constexpr int32_t TILE_LENGTH = 32;

class KernelSyncAll {
public:
    __aicore__ inline KernelSyncAll() {}
    __aicore__ inline void Init(GM_ADDR srcGm, GM_ADDR dstGm, GM_ADDR workGm)
    {
        blockNum = GetBlockNum();
        blockIdx = GetBlockIdx();
        const int64_t offset = blockIdx * TILE_LENGTH;
        srcGlobal.SetGlobalBuffer((__gm__ float*)srcGm + offset, TILE_LENGTH);
        dstGlobal.SetGlobalBuffer((__gm__ float*)dstGm + offset, TILE_LENGTH);
        workGlobal.SetGlobalBuffer((__gm__ float*)workGm, TOTAL_LENGTH);
    }
    __aicore__ inline void Process()
    {
        TPipe pipe;
        TBuf<> b1, b2;
        pipe.InitBuffer(b1, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(b2, TILE_LENGTH * sizeof(float));
        LocalTensor<float> srcLocal = b1.Get<float>();
        LocalTensor<float> dstLocal = b2.Get<float>();
        DataCopy(srcLocal, srcGlobal, TILE_LENGTH);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        Muls(dstLocal, srcLocal, 2.0f, TILE_LENGTH);  // FirstCompute
        PipeBarrier<PIPE_V>();
        SetFlag<HardEvent::V_MTE3>(0);  // CopyToWorkGlobal
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(workGlobal[blockIdx * TILE_LENGTH], dstLocal, TILE_LENGTH);
        SyncAll();  // every block has written its slice of the workspace
        for (int64_t i = 0; i < blockNum; i++) {
            if (i != blockIdx) {
                SetFlag<HardEvent::V_MTE2>(0);  // CopyFromOtherCore
                WaitFlag<HardEvent::V_MTE2>(0);
                DataCopy(srcLocal, workGlobal[i * TILE_LENGTH], TILE_LENGTH);
                SetFlag<HardEvent::MTE2_V>(0);
                WaitFlag<HardEvent::MTE2_V>(0);
                Add(dstLocal, dstLocal, srcLocal, TILE_LENGTH);  // Accumulate
                PipeBarrier<PIPE_V>();
            }
        }
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(dstGlobal, dstLocal, TILE_LENGTH);
    }

private:
    int64_t blockNum = 0;
    int64_t blockIdx = 0;
    GlobalTensor<float> srcGlobal, dstGlobal, workGlobal;
};

extern "C" __global__ __aicore__ void sync_all_custom(GM_ADDR srcGm, GM_ADDR dstGm, GM_ADDR workGm)
{
    KernelSyncAll op;
    op.Init(srcGm, dstGm, workGm);
    op.Process();
    PipeBarrier<PIPE_ALL>();
}

/* dst = sum over the blocks of 2 * (the block's slice of src) */
extern "C" __global__ __aicore__ void atomic_sum(GM_ADDR srcGm, GM_ADDR dstGm)
{
    const int64_t idx = GetBlockIdx();
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
    TBuf<> buf;
    pipe.InitBuffer(q, 1, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(buf, TILE_LENGTH * sizeof(float));
    GlobalTensor<float> src, dst;
    src.SetGlobalBuffer((__gm__ float*)srcGm + idx * TILE_LENGTH, TILE_LENGTH);
    dst.SetGlobalBuffer((__gm__ float*)dstGm, TILE_LENGTH);
    if (idx == 0) {
        InitGlobalMemory(dst, TILE_LENGTH, 0.0f);
    }
    SyncAll();  // the output is zero before anyone adds to it
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, src, TILE_LENGTH);
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, 2.0f, TILE_LENGTH);
    PipeBarrier<PIPE_ALL>();
    q.EnQue(t);
    t = q.DeQue<float>();
    SetAtomicAdd<float>();
    DataCopy(dst, t, TILE_LENGTH);
    SetAtomicNone();
    q.FreeTensor(t);
}
