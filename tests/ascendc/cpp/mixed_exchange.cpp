/*
 * tests/ascendc/test_multi_mixed.py: a mixed 1:2 kernel with no cube instruction.  Each AIV scales
 * its tile of x by (its block index + 1) into y, tells its AIC (CrossCoreSetFlag<2, PIPE_MTE3>); the
 * AIC waits for both, syncs with the other AICs (mode 0) and tells its AIVs (mode 2); each AIV then
 * adds its partner's tile (the other AIV of its group) to its own into z (the last hand-off through
 * NotifyEvent / WaitEvent, which are CrossCoreSetFlag<2> / CrossCoreWaitFlag).  It also writes, per AIV,
 * GetBlockIdx, GetBlockNum, GetSubBlockIdx, GetSubBlockNum and GetTaskRatio into info.
 * With -DACLSIM_HOST_MAIN: a CPU-debug host program that declares the type with SetKernelMode.
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t TILE = 64;

extern "C" __global__ __aicore__ void mixed_exchange(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR info)
{
#ifndef ACLSIM_HOST_MAIN
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
#endif
    if ASCEND_IS_AIC {
        CrossCoreWaitFlag(3);  // AIC-WAIT: both AIVs of the group stored their tile
        CrossCoreSetFlag<0, PIPE_MTE2>(4);
        CrossCoreWaitFlag(4);
        NotifyEvent<PIPE_MTE2>(5);  // CrossCoreSetFlag<2, PIPE_MTE2>
        return;
    }
    const int64_t idx = GetBlockIdx();
    const int64_t partner = idx ^ 1;
    GlobalTensor<float> gx, gy, gz;
    GlobalTensor<int32_t> gi;
    gx.SetGlobalBuffer((__gm__ float*)x + idx * TILE, TILE);
    gy.SetGlobalBuffer((__gm__ float*)y, TILE * GetBlockNum() * GetTaskRatio());
    gz.SetGlobalBuffer((__gm__ float*)z + idx * TILE, TILE);
    gi.SetGlobalBuffer((__gm__ int32_t*)info + idx * 8, 8);
    gi.SetValue(0, static_cast<int32_t>(idx));
    gi.SetValue(1, static_cast<int32_t>(GetBlockNum()));
    gi.SetValue(2, static_cast<int32_t>(GetSubBlockIdx()));
    gi.SetValue(3, static_cast<int32_t>(GetSubBlockNum()));
    gi.SetValue(4, static_cast<int32_t>(GetTaskRatio()));
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * TILE * sizeof(float));
    LocalTensor<float> a = buf.GetWithOffset<float>(TILE, 0);
    LocalTensor<float> b = buf.GetWithOffset<float>(TILE, TILE * sizeof(float));
    DataCopy(a, gx, TILE);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    Muls(a, a, static_cast<float>(idx + 1), TILE);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(gy[idx * TILE], a, TILE);
    CrossCoreSetFlag<2, PIPE_MTE3>(3);
    WaitEvent(5);  // AIV-WAIT: every AIV's tile is in y (CrossCoreWaitFlag)
    DataCopy(b, gy[partner * TILE], TILE);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    Add(b, a, b, TILE);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(gz, b, TILE);
}

#ifdef ACLSIM_HOST_MAIN
#include <cstdio>
#include "tikicpulib.h"
int main()
{
    const int groups = 2, aivs = 4;
    float* x = (float*)AscendC::GmAlloc(aivs * TILE * sizeof(float));
    float* y = (float*)AscendC::GmAlloc(aivs * TILE * sizeof(float));
    float* z = (float*)AscendC::GmAlloc(aivs * TILE * sizeof(float));
    int32_t* info = (int32_t*)AscendC::GmAlloc(aivs * 8 * sizeof(int32_t));
    for (int i = 0; i < aivs * TILE; i++) {
        x[i] = float(i % 7);
    }
    AscendC::SetKernelMode(KernelMode::MIX_MODE);
    ICPU_RUN_KF(mixed_exchange, groups, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z, (GM_ADDR)info);
    int bad = 0;
    for (int v = 0; v < aivs; v++) {
        for (int i = 0; i < TILE; i++) {
            const int p = v ^ 1;
            const float want = x[v * TILE + i] * (v + 1) + x[p * TILE + i] * (p + 1);
            bad += z[v * TILE + i] != want;
        }
        std::printf("aiv %d: %d %d %d %d %d\n", v, info[v * 8], info[v * 8 + 1], info[v * 8 + 2],
                    info[v * 8 + 3], info[v * 8 + 4]);
    }
    std::printf("%d differ\n", bad);
    return bad != 0;
}
#endif
