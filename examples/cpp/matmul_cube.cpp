/*
 * The twin of examples/11_kernel_matmul.py in C++: a tiled matmul on the cube path by hand.  Each
 * block computes one M0 x N0 tile of C (float) = A (half) @ B (half), walking K in K0 steps: GM -> L1
 * with the ND -> NZ conversion (Nd2NzParams), L1 -> L0A row of fractals by row (LoadData), L1 -> L0B
 * with each fractal transposed, Mmad into L0C, and Fixpipe back to ND rows in GM.
 * tests/ascendc/test_cube_twins.py runs it beside the Python kernel.
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t M = 128, N = 128, K = 512;
constexpr int32_t M0 = 64, N0 = 64, K0 = 64;

extern "C" __global__ __aicore__ void matmul_cube(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    TPipe pipe;
    TQue<TPosition::A1, 1> qA1;
    TQue<TPosition::B1, 1> qB1;
    TQue<TPosition::A2, 1> qA2;
    TQue<TPosition::B2, 1> qB2;
    TQue<TPosition::CO1, 1> qCO1;
    pipe.InitBuffer(qA1, 2, M0 * K0 * sizeof(half));  // two L1 tiles of each: the next loads meanwhile
    pipe.InitBuffer(qB1, 2, K0 * N0 * sizeof(half));
    pipe.InitBuffer(qA2, 2, M0 * K0 * sizeof(half));
    pipe.InitBuffer(qB2, 2, K0 * N0 * sizeof(half));
    pipe.InitBuffer(qCO1, 1, M0 * N0 * sizeof(float));
    GlobalTensor<half> ga;
    GlobalTensor<half> gb;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
    const int32_t mi = GetBlockIdx() / (N / N0);
    const int32_t ni = GetBlockIdx() % (N / N0);
    LocalTensor<float> c1 = qCO1.AllocTensor<float>();
    for (int32_t kk = 0; kk < K / K0; ++kk) {
        LocalTensor<half> a1 = qA1.AllocTensor<half>();  // M0 x K0 of A, NZ
        DataCopy(a1, ga[mi * M0 * K + kk * K0], Nd2NzParams(1, M0, K0, 0, K, M0, 1, 0));
        qA1.EnQue(a1);
        LocalTensor<half> b1 = qB1.AllocTensor<half>();  // K0 x N0 of B, NZ
        DataCopy(b1, gb[kk * K0 * N + ni * N0], Nd2NzParams(1, K0, N0, 0, N, K0, 1, 0));
        qB1.EnQue(b1);

        a1 = qA1.DeQue<half>();
        LocalTensor<half> a2 = qA2.AllocTensor<half>();
        for (int32_t i = 0; i < M0 / 16; ++i) {  // zZ: one row of fractals per load
            LoadData(a2[i * K0 * 16], a1, LoadData2DParams(i, K0 / 16, M0 / 16, 0, 0, false, 0));
        }
        qA2.EnQue(a2);
        qA1.FreeTensor(a1);

        b1 = qB1.DeQue<half>();
        LocalTensor<half> b2 = qB2.AllocTensor<half>();
        for (int32_t kb = 0; kb < K0 / 16; ++kb) {  // nZ: every fractal transposed
            LoadData(b2[kb * N0 * 16], b1, LoadData2DParams(kb, N0 / 16, K0 / 16, 0, 0, true, 0));
        }
        qB2.EnQue(b2);
        qB1.FreeTensor(b1);

        a2 = qA2.DeQue<half>();
        b2 = qB2.DeQue<half>();
        MmadParams mmad;
        mmad.m = M0;
        mmad.n = N0;
        mmad.k = K0;
        mmad.cmatrixInitVal = kk == 0;  // the first K step starts the sum, the others add to it
        Mmad(c1, a2, b2, mmad);
        qA2.FreeTensor(a2);
        qB2.FreeTensor(b2);
    }
    qCO1.EnQue(c1);
    c1 = qCO1.DeQue<float>();
    FixpipeParamsV220 out;  // NZ in L0C (columns M0 rows apart) -> ND rows of N0 floats, N apart
    out.nSize = N0;
    out.mSize = M0;
    out.srcStride = M0;
    out.dstStride = N;
    Fixpipe(gc[mi * M0 * N + ni * N0], c1, out);
    qCO1.FreeTensor(c1);
}
