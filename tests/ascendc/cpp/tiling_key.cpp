/*
 * tests/ascendc/test_multi_misc.py: the tiling macros in a CPU-debug host program.  The host fills a
 * BEGIN_TILING_DATA_DEF class (registered for the op) with its set_ accessors, saves it into GmAlloc
 * memory and sets a tiling key; the kernel reads it with GET_TILING_DATA and branches on
 * TILING_KEY_IS / TILING_KEY_LIST; KERNEL_TASK_TYPE(3, ...) states the type for key 3 (the host's
 * SetKernelMode(AIV_MODE) has declared it already: the same type).
 * Usage: prog KEY -> prints y[0..3] and the core-type probe.
 */
#include <cstdio>
#include <cstdlib>

#include "kernel_operator.h"
#include "tikicpulib.h"
using namespace AscendC;

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleTiling)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 2, pair);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleCustom, ScaleTiling);
}  // namespace optiling

extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR probe, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE(3, KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(t, tiling);
    GlobalTensor<float> gx, gy;
    GlobalTensor<int32_t> gp;
    gx.SetGlobalBuffer((__gm__ float*)x, t.totalLength);
    gy.SetGlobalBuffer((__gm__ float*)y, t.totalLength);
    gp.SetGlobalBuffer((__gm__ int32_t*)probe, 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.totalLength * sizeof(float));
    LocalTensor<float> v = buf.Get<float>();
    DataCopy(v, gx, t.totalLength);
    PipeBarrier<PIPE_ALL>();
    if (TILING_KEY_IS(1)) {
        Muls(v, v, t.scale, t.totalLength);
    } else if (TILING_KEY_LIST(2, 3)) {
        Adds(v, v, static_cast<float>(t.pair[0] + t.pair[1]), t.totalLength);
    }
    if (TILING_KEY_IS(3)) {
        gp.SetValue(0, ASCEND_IS_AIV ? 1 : 2);  // typed by KERNEL_TASK_TYPE for this key
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, v, t.totalLength);
}

int main(int argc, char** argv)
{
    const uint64_t key = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1;
    const uint32_t n = 64;
    optiling::ScaleTiling tiling;
    tiling.set_totalLength(n);
    tiling.set_scale(2.5f);
    const uint32_t pair[2] = {3, 4};
    tiling.set_pair(pair);
    uint8_t* t = (uint8_t*)AscendC::GmAlloc(tiling.GetDataSize());
    tiling.SaveToBuffer(t, tiling.GetDataSize());
    float* x = (float*)AscendC::GmAlloc(n * sizeof(float));
    float* y = (float*)AscendC::GmAlloc(n * sizeof(float));
    int32_t* probe = (int32_t*)AscendC::GmAlloc(8 * sizeof(int32_t));
    for (uint32_t i = 0; i < n; i++) {
        x[i] = float(i);
    }
    probe[0] = 0;
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_SET_TILING_KEY(key);
    ICPU_RUN_KF(scale_custom, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)probe, t);
    std::printf("%g %g %g %g probe %d\n", y[0], y[1], y[2], y[3], probe[0]);
    AscendC::GmFree(t);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(probe);
    return 0;
}
