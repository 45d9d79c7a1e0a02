/*
 * The twin of examples/17_kernel_matmul_api.py in C++: C = LeakyRelu(A @ B + bias) through the
 * high-level Matmul object, one baseM x baseN block of C at a time (Iterate / GetTensorC into a VECOUT
 * tensor, LeakyRelu on the vector unit, DataCopy to its place in C).  The tiling comes from global
 * memory (the words of a TCubeTiling, as a host writes them), the workspace is the launch's argument.
 * tests/ascendc/test_cube_twins.py runs it beside the Python kernel (same results, instruction streams
 * and reports); main_matmul_leakyrelu.cpp runs it from a CPU-debug host program with the host tiling.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

constexpr float LEAKY_ALPHA = 0.001f;

template <class AT, class BT, class CT, class BiasT>
struct LeakyMatmul {
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, AT>, MatmulType<TPosition::GM, CubeFormat::ND, BT>,
           MatmulType<TPosition::VECIN, CubeFormat::ND, CT>, MatmulType<TPosition::GM, CubeFormat::ND, BiasT>>
        mm;
    GlobalTensor<AT> a;
    GlobalTensor<BT> b;
    GlobalTensor<CT> c;
    GlobalTensor<BiasT> bias;
    TQue<TPosition::VECOUT, 1> outQueue;
    LocalTensor<CT> block;
    TCubeTiling t;

    __aicore__ inline void ReadTiling(GM_ADDR tilingGm)
    {
        const auto* words = reinterpret_cast<__gm__ const int32_t*>(tilingGm);
        auto* mine = reinterpret_cast<int32_t*>(&t);
        for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(int32_t); ++i) {
            mine[i] = words[i];
        }
    }

    /* this core's corner of A, B, bias and C (cores walk M first, then N) */
    __aicore__ inline void Bind(GM_ADDR aGm, GM_ADDR bGm, GM_ADDR biasGm, GM_ADDR cGm, TPipe* pipe)
    {
        a.SetGlobalBuffer(reinterpret_cast<__gm__ AT*>(aGm), t.M * t.Ka);
        b.SetGlobalBuffer(reinterpret_cast<__gm__ BT*>(bGm), t.Kb * t.N);
        c.SetGlobalBuffer(reinterpret_cast<__gm__ CT*>(cGm), t.M * t.N);
        bias.SetGlobalBuffer(reinterpret_cast<__gm__ BiasT*>(biasGm), t.N);
        const int32_t mParts = Ceil(t.M, t.singleCoreM);
        const int32_t mIdx = GetBlockIdx() % mParts;
        const int32_t nIdx = GetBlockIdx() / mParts;
        a = a[mIdx * t.Ka * t.singleCoreM];
        b = b[nIdx * t.singleCoreN];
        c = c[mIdx * t.N * t.singleCoreM + nIdx * t.singleCoreN];
        bias = bias[nIdx * t.singleCoreN];
        pipe->InitBuffer(outQueue, 1, t.baseM * t.baseN * sizeof(CT));
    }

    __aicore__ inline void Run()
    {
        mm.SetTensorA(a);
        mm.SetTensorB(b);
        mm.SetBias(bias);
        for (uint32_t done = 0; mm.Iterate(); ++done) {
            block = outQueue.AllocTensor<CT>();
            mm.GetTensorC(block, false, true);  // the block alone, baseM x baseN
            LeakyRelu(block, block, static_cast<CT>(LEAKY_ALPHA), t.baseM * t.baseN);
            outQueue.EnQue(block);
            Store(done);
        }
        mm.End();
    }

    /* block `done` (M first) to its place in this core's part of C */
    __aicore__ inline void Store(uint32_t done)
    {
        outQueue.DeQue<CT>();
        const uint32_t mBlocks = t.singleCoreM / t.baseM;
        const uint32_t at = done % mBlocks * t.baseM * t.N + done / mBlocks * t.baseN;
        const uint16_t rowBlocks = static_cast<uint16_t>(t.baseN * sizeof(CT) / 32);
        const uint16_t gap = static_cast<uint16_t>((t.N - t.baseN) * sizeof(CT) / 32);
        DataCopy(c[at], block, DataCopyParams(static_cast<uint16_t>(t.baseM), rowBlocks, 0, gap));
        outQueue.FreeTensor(block);
    }
};

extern "C" __global__ __aicore__ void matmul_leakyrelu(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    LeakyMatmul<half, half, float, float> op;
    TPipe pipe;
    op.ReadTiling(tiling);
    REGIST_MATMUL_OBJ(&pipe, workspace, op.mm, &op.t);
    op.Bind(a, b, bias, c, &pipe);
    op.Run();
}
