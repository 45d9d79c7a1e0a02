/*
 * tests/ascendc/test_multi_misc.py: small C++ kernels of the multi-core rows, checked against NumPy.
 * ib_chain: block b waits (IBWait) for block b-1, adds its own tile to the running sum, IBSets.
 * soft_sync: SyncAll(gmWorkspace, ubWorkspace) between a store and a read of another block's tile.
 * atomic_modes: SetAtomicMax / SetAtomicMin / SetAtomicAdd<half> + SetAtomicType<float> stores.
 * workspace_probe: SetSysWorkspace, GetSysWorkSpacePtr, GetUserWorkspace (offsets written out).
 * init_reset: InitOutput, TPipe::Reset and InitBuffer again, InitGlobalMemory, SyncAll<false>.
 * typed_probe: KERNEL_TASK_TYPE for a tiling key over KERNEL_TASK_TYPE_DEFAULT.
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t N = 64;

extern "C" __global__ __aicore__ void ib_chain(GM_ADDR x, GM_ADDR y, GM_ADDR ws)
{
    const int64_t b = GetBlockIdx();
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, flags;
    pipe.InitBuffer(buf, 2 * N * sizeof(float));
    pipe.InitBuffer(flags, 32 * 8);
    LocalTensor<float> acc = buf.GetWithOffset<float>(N, 0);
    LocalTensor<float> mine = buf.GetWithOffset<float>(N, N * sizeof(float));
    LocalTensor<int32_t> ub = flags.Get<int32_t>();
    GlobalTensor<float> gx, gy;
    GlobalTensor<int32_t> gw;
    gx.SetGlobalBuffer((__gm__ float*)x + b * N, N);
    gy.SetGlobalBuffer((__gm__ float*)y, N);
    gw.SetGlobalBuffer((__gm__ int32_t*)ws, GetBlockNum() * 8 * 8);
    DataCopy(mine, gx, N);
    if (b > 0) {
        IBWait(gw, ub, static_cast<int32_t>(b - 1), 0);
        DataCopy(acc, gy, N);
        PipeBarrier<PIPE_ALL>();
        Add(acc, acc, mine, N);
    } else {
        PipeBarrier<PIPE_ALL>();
        Adds(acc, mine, 0.0f, N);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, acc, N);
    PipeBarrier<PIPE_ALL>();
    IBSet(gw, ub, static_cast<int32_t>(b), 0);
}

extern "C" __global__ __aicore__ void soft_sync(GM_ADDR x, GM_ADDR y, GM_ADDR ws)
{
    const int64_t b = GetBlockIdx(), n = GetBlockNum();
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, work;
    pipe.InitBuffer(buf, N * sizeof(float));
    pipe.InitBuffer(work, n * 32);
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> gx, gy;
    GlobalTensor<int32_t> gw;
    gx.SetGlobalBuffer((__gm__ float*)x, n * N);
    gy.SetGlobalBuffer((__gm__ float*)y, n * N);
    gw.SetGlobalBuffer((__gm__ int32_t*)ws, n * 8);
    DataCopy(t, gx[b * N], N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy[b * N], t, N);
    SyncAll(gw, work.Get<int32_t>());
    DataCopy(t, gy[((b + 1) % n) * N], N);  // the next block's tile, stored before its SyncAll
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, 10.0f, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gx[b * N], t, N);
}

extern "C" __global__ __aicore__ void atomic_modes(GM_ADDR x, GM_ADDR ymax, GM_ADDR ymin, GM_ADDR ysum)
{
    const int64_t b = GetBlockIdx();
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, N * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> gx, gmax, gmin, gsum;
    gx.SetGlobalBuffer((__gm__ float*)x + b * N, N);
    gmax.SetGlobalBuffer((__gm__ float*)ymax, N);
    gmin.SetGlobalBuffer((__gm__ float*)ymin, N);
    gsum.SetGlobalBuffer((__gm__ float*)ysum, N);
    DataCopy(t, gx, N);
    PipeBarrier<PIPE_ALL>();
    SetAtomicMax<float>();
    DataCopy(gmax, t, N);
    SetAtomicMin<float>();
    DataCopy(gmin, t, N);
    SetAtomicAdd<half>();
    SetAtomicType<float>();  // the add mode, now on float
    DataCopy(gsum, t, N);
    DisableDmaAtomic();
    PipeBarrier<PIPE_ALL>();
}

extern "C" __global__ __aicore__ void workspace_probe(GM_ADDR ws, GM_ADDR out)
{
    GlobalTensor<int64_t> go;
    go.SetGlobalBuffer((__gm__ int64_t*)out, 4);
    go.SetValue(0, GetSysWorkSpacePtr() == nullptr ? 1 : 0);
    SetSysWorkspace(ws);
    go.SetValue(1, static_cast<int64_t>(GetSysWorkSpacePtr() - ws));
    go.SetValue(2, static_cast<int64_t>(GetUserWorkspace(ws) - ws));
}

extern "C" __global__ __aicore__ void init_reset(GM_ADDR y)
{
    GlobalTensor<float> gy;
    gy.SetGlobalBuffer((__gm__ float*)y + GetBlockIdx() * 2 * N, 2 * N);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, N * sizeof(float));
    InitOutput(gy, N, 3.0f);  // the first half: 3
    pipe.Reset();
    pipe.InitBuffer(buf, 2 * N * sizeof(float));
    InitGlobalMemory(gy[N], N, static_cast<float>(GetBlockIdx()));  // the second half: the block index
    SyncAll<false>();
}

/* KERNEL_TASK_TYPE(3, AIV_ONLY) over KERNEL_TASK_TYPE_DEFAULT(AIC_ONLY): the type for tiling key 3 */
extern "C" __global__ __aicore__ void typed_probe(GM_ADDR out)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    KERNEL_TASK_TYPE(3, KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<int32_t> go;
    go.SetGlobalBuffer((__gm__ int32_t*)out, 2);
    go.SetValue(0, ASCEND_IS_AIV ? 1 : 2);
    go.SetValue(1, TILING_KEY_IS(3) ? 1 : 0);
}
