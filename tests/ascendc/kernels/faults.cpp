// Kernels that fail on purpose (tests/ascendc/test_cpp_faults.py): each fault must name this file's line.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void copy_past_end(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 64);
    pipe.InitBuffer(q, 1, 64 * sizeof(float));
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xGm[1 << 20], 64);  // FAULT-LINE: far past the allocation
    q.FreeTensor(t);
}

extern "C" __global__ __aicore__ void assert_fails(GM_ADDR x, GM_ADDR y)
{
    ASSERT(GetBlockNum() == 1000 && "block dim must be 1000");  // ASSERT-LINE
}

extern "C" __global__ __aicore__ void ub_overflow(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1 << 30);  // OVERFLOW-LINE
}

extern "C" __global__ __aicore__ void scalar_values(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + GetBlockIdx() * 8, 8);
    yGm.SetGlobalBuffer((__gm__ float*)y + GetBlockIdx() * 8, 8);
    pipe.InitBuffer(buf, 8 * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    for (int i = 0; i < 8; ++i) {
        float v = xGm.GetValue(i);
        t.SetValue(i, v * 2.0f + static_cast<float>(GetBlockIdx()));
    }
    for (int i = 0; i < 8; ++i) {
        yGm.SetValue(i, t.GetValue(i));
    }
}
