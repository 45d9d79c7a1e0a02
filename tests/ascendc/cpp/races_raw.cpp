/*
 * tests/ascendc/test_multi_checks.py: a CPU-debug host program with two small kernels.
 * racy: DataCopy into UB then Muls on it with no flag between them (a RAW race of MTE2 and V).
 * raw_store: DataCopy of 16 halves to GM, then the block stores 4 more through raw pointers (the
 * kernel's pointer argument, and GlobalTensor::address_).
 * Run as `prog racy` or `prog raw`; prints the output's values.
 */
#include <cstdio>
#include <cstring>

#include "kernel_operator.h"
#include "tikicpulib.h"
using namespace AscendC;

constexpr int32_t N = 64;

extern "C" __global__ __aicore__ void racy(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float*)x, N);
    gy.SetGlobalBuffer((__gm__ float*)y, N);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * N * sizeof(float));
    LocalTensor<float> a = buf.GetWithOffset<float>(N, 0);
    LocalTensor<float> b = buf.GetWithOffset<float>(N, N * sizeof(float));
    DataCopy(a, gx, N);  // COPY-IN
    Muls(b, a, 3.0f, N);  // MULS: reads a with no flag after the copy
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(gy, b, N);
}

extern "C" __global__ __aicore__ void raw_store(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<half> gx, gy;
    gx.SetGlobalBuffer((__gm__ half*)x, 32);
    gy.SetGlobalBuffer((__gm__ half*)y, 32);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 16 * sizeof(half));
    LocalTensor<half> t = buf.Get<half>();
    DataCopy(t, gx, 16);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, t, 16);
    PipeBarrier<PIPE_ALL>();
    for (int i = 16; i < 18; i++) {
        *((__gm__ half*)y + i) = half(float(i) + 0.5f);  // RAW-STORE
    }
    for (int i = 18; i < 20; i++) {
        auto cursor = gy[18].address_ + (i - 18);  // Ascend C's address_ member, after operator[]
        *cursor = half(float(i) + 0.5f);
    }
}

int main(int argc, char** argv)
{
    const bool raw = argc > 1 && std::strcmp(argv[1], "raw") == 0;
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(N * sizeof(float));
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(N * sizeof(float));
    std::memset(y, 0, N * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);  // one vector core per block, as the samples run
    if (raw) {
        for (int i = 0; i < 32; i++) {
            ((half*)x)[i] = half(float(100 + i));
        }
        ICPU_RUN_KF(raw_store, 1, x, y);
        for (int i = 0; i < 20; i++) {
            std::printf("%g ", float(((half*)y)[i]));
        }
    } else {
        for (int i = 0; i < N; i++) {
            ((float*)x)[i] = float(i);
        }
        ICPU_RUN_KF(racy, 1, x, y);
        for (int i = 0; i < 4; i++) {
            std::printf("%g ", ((float*)y)[i]);
        }
    }
    std::printf("\n");
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    return 0;
}
