// The bridged call's C path (tests/ascendc/test_speed_bridge.py): values of each kind crossing both
// ways, an error raised by a row's Python call, and a probe timing bridged calls.
#include <chrono>
#include "kernel_operator.h"
using namespace AscendC;

// a uint64_t above 2**63, a negative int8_t and a half, each read with GetValue (a template's return:
// it crosses by the value's type) and written back with SetValue
extern "C" __global__ __aicore__ void scalar_kinds(GM_ADDR u, GM_ADDR i, GM_ADDR h)
{
    GlobalTensor<uint64_t> uGm;
    GlobalTensor<int8_t> iGm;
    GlobalTensor<half> hGm;
    uGm.SetGlobalBuffer((__gm__ uint64_t*)u, 4);
    iGm.SetGlobalBuffer((__gm__ int8_t*)i, 32);
    hGm.SetGlobalBuffer((__gm__ half*)h, 16);
    const uint64_t big = uGm.GetValue(0);
    uGm.SetValue(1, big + 1);
    uGm.SetValue(2, static_cast<uint64_t>(GetBlockNum()) + (1ull << 63));
    const int8_t neg = iGm.GetValue(0);
    iGm.SetValue(1, static_cast<int8_t>(neg - 1));
    const half x = hGm.GetValue(0);
    hGm.SetValue(1, static_cast<float>(x) * 2.0f);
}

// a method called on a tensor that was never set (its handle stands for None)
extern "C" __global__ __aicore__ void unset_tensor(GM_ADDR x)
{
    LocalTensor<float> t;
    const float v = t.GetValue(0);  // UNSET-LINE
    (void)v;
}

extern "C" {
int g_probe_calls = 1000;
double g_probe_us = 0.0;
}

// GetBlockIdx() g_probe_calls times: g_probe_us per call (benchmarks/ascendc.py has the full set)
extern "C" __global__ __aicore__ void probe_block_idx()
{
    volatile int64_t sink = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < g_probe_calls; ++i) {
        sink += GetBlockIdx();
    }
    const std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - start;
    g_probe_us = took.count() / g_probe_calls;
}
