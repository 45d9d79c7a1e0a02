/*
 * The twin of examples/22_port_cross_core_mmad.py in C++: a mixed AIC + AIV kernel (1:2, 8 groups)
 * computing C[32, 64] float = LeakyRelu(Cast(A) x Cast(B)) with three cross-core hand-offs:
 * each AIV casts its group's uint8 slice to half in GM and CrossCoreSetFlag<2, PIPE_MTE3>; each AIC
 * waits, loads ND -> NZ into L1, splits into L0A / L0B, Mmad, Fixpipe into C with SetAtomicAdd,
 * syncs the 8 AICs (mode 0) and signals its AIVs (mode 2); each AIV then applies LeakyRelu to its
 * 2 rows of C.  tests/ascendc/test_multi_twins.py checks it against the Python kernel.
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t M = 32, N = 64, K = 32;
constexpr int32_t NUM_BLOCKS = 8;
constexpr int32_t FRACTAL_SHAPE_0 = 16;
constexpr int32_t FRACTAL_SHAPE_1 = 16;
constexpr int32_t FRACTAL_SIZE = FRACTAL_SHAPE_0 * FRACTAL_SHAPE_1;

__aicore__ constexpr int32_t CeilAlignConst(int32_t value, int32_t align) { return (value + align - 1) / align * align; }
__aicore__ constexpr int32_t CeilDiv(int32_t a, int32_t b) { return (a + b - 1) / b; }

constexpr int32_t AIC_M = M, AIC_K = K / NUM_BLOCKS, AIC_N = N;
constexpr int32_t CEIL_ALIGN_M = CeilAlignConst(AIC_M, FRACTAL_SHAPE_0);
constexpr int32_t CEIL_ALIGN_K = CeilAlignConst(AIC_K, FRACTAL_SHAPE_1);
constexpr int32_t CEIL_ALIGN_N = CeilAlignConst(AIC_N, FRACTAL_SHAPE_0);
constexpr int32_t A_SIZE_ALIGN_L1 = CEIL_ALIGN_M * CEIL_ALIGN_K;
constexpr int32_t B_SIZE_ALIGN_L1 = CEIL_ALIGN_K * CeilAlignConst(AIC_N, FRACTAL_SHAPE_1);
constexpr int32_t C_SIZE_ALIGN_L0 = CEIL_ALIGN_M * CEIL_ALIGN_N;
constexpr int32_t A_BLOCKS_LENGTH = M * K / NUM_BLOCKS;
constexpr int32_t B_BLOCKS_LENGTH = K / NUM_BLOCKS * N;
constexpr int32_t C_AIC_BLOCKS_LENGTH = M * N;
constexpr int32_t C_AIV_BLOCKS_LENGTH = M / (NUM_BLOCKS * 2) * N;
constexpr int32_t SYNC_AIC_FLAG = 11;
constexpr int32_t SYNC_AIV_AIC_FLAG = 12;
constexpr int32_t SYNC_AIC_AIV_FLAG = 13;

class KernelMmad {
public:
    __aicore__ inline KernelMmad() { blockIdx = GetBlockIdx(); }
    __aicore__ inline void InitAic(GM_ADDR a, GM_ADDR b, GM_ADDR c)
    {
        aCubeGm.SetGlobalBuffer((__gm__ half*)a + A_BLOCKS_LENGTH * GetBlockIdx(), A_BLOCKS_LENGTH);
        bCubeGm.SetGlobalBuffer((__gm__ half*)b + B_BLOCKS_LENGTH * GetBlockIdx(), B_BLOCKS_LENGTH);
        cCubeGm.SetGlobalBuffer((__gm__ float*)c, C_AIC_BLOCKS_LENGTH);
    }
    __aicore__ inline void InitAiv(GM_ADDR a, GM_ADDR b, GM_ADDR aHalf, GM_ADDR bHalf, GM_ADDR c)
    {
        const int64_t g = GetBlockIdx() / 2;
        aGm.SetGlobalBuffer((__gm__ uint8_t*)a + A_BLOCKS_LENGTH * g, A_BLOCKS_LENGTH);
        bGm.SetGlobalBuffer((__gm__ uint8_t*)b + B_BLOCKS_LENGTH * g, B_BLOCKS_LENGTH);
        aVectorGm.SetGlobalBuffer((__gm__ half*)aHalf + A_BLOCKS_LENGTH * g, A_BLOCKS_LENGTH);
        bVectorGm.SetGlobalBuffer((__gm__ half*)bHalf + B_BLOCKS_LENGTH * g, B_BLOCKS_LENGTH);
        cVectorGm.SetGlobalBuffer((__gm__ float*)c + C_AIV_BLOCKS_LENGTH * GetBlockIdx(), C_AIV_BLOCKS_LENGTH);
    }
    __aicore__ inline void ProcessAic()
    {
        LocalTensor<half> a1Local(TPosition::A1, 0, A_SIZE_ALIGN_L1);
        LocalTensor<half> b1Local(TPosition::B1, A_SIZE_ALIGN_L1 * sizeof(half), B_SIZE_ALIGN_L1);
        LocalTensor<half> a2Local(TPosition::A2, 0, A_SIZE_ALIGN_L1);
        LocalTensor<half> b2Local(TPosition::B2, 0, B_SIZE_ALIGN_L1);
        LocalTensor<float> c1Local(TPosition::CO1, 0, C_SIZE_ALIGN_L0);

        CrossCoreWaitFlag(SYNC_AIV_AIC_FLAG);  // mode 2: both AIVs of this AI Core converted their data

        CopyIn(a1Local, b1Local);
        SplitA(a1Local, a2Local);
        SplitBTranspose(b1Local, b2Local);
        Compute(a2Local, b2Local, c1Local);
        CopyOut(c1Local);

        CrossCoreSetFlag<0, PIPE_FIX>(SYNC_AIC_FLAG);  // mode 0: the 8 AICs sync
        CrossCoreWaitFlag(SYNC_AIC_FLAG);
        CrossCoreSetFlag<2, PIPE_FIX>(SYNC_AIC_AIV_FLAG);  // mode 2: the AIVs may run LeakyRelu
    }
    __aicore__ inline void ProcessAiv()
    {
        LocalTensor<uint8_t> aLocal(TPosition::VECIN, 0, A_BLOCKS_LENGTH);
        LocalTensor<uint8_t> bLocal(TPosition::VECIN, A_BLOCKS_LENGTH, B_BLOCKS_LENGTH);
        LocalTensor<float> cLocal(TPosition::VECIN, A_BLOCKS_LENGTH + B_BLOCKS_LENGTH, C_AIV_BLOCKS_LENGTH);
        LocalTensor<half> castALocal(TPosition::VECOUT, 0, A_BLOCKS_LENGTH);
        LocalTensor<half> castBLocal(TPosition::VECOUT, A_BLOCKS_LENGTH, B_BLOCKS_LENGTH);
        LocalTensor<float> reluCLocal(TPosition::VECOUT, A_BLOCKS_LENGTH + B_BLOCKS_LENGTH, C_AIV_BLOCKS_LENGTH);

        if (blockIdx % 2 == 0) {
            DataCopy(aLocal, aGm, A_BLOCKS_LENGTH);
            SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
            WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
            Cast(castALocal, aLocal, RoundMode::CAST_NONE, A_BLOCKS_LENGTH);
            SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
            WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
            DataCopy(aVectorGm, castALocal, A_BLOCKS_LENGTH);
        } else {
            DataCopy(bLocal, bGm, B_BLOCKS_LENGTH);
            SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
            WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
            Cast(castBLocal, bLocal, RoundMode::CAST_NONE, B_BLOCKS_LENGTH);
            SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
            WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
            DataCopy(bVectorGm, castBLocal, B_BLOCKS_LENGTH);
        }
        CrossCoreSetFlag<2, PIPE_MTE3>(SYNC_AIV_AIC_FLAG);  // mode 2: tell the AIC
        CrossCoreWaitFlag(SYNC_AIC_AIV_FLAG);  // mode 2: wait for the AIC's product

        const float alpha = 0.001f;
        DataCopy(cLocal, cVectorGm, C_AIV_BLOCKS_LENGTH);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        LeakyRelu(reluCLocal, cLocal, alpha, C_AIV_BLOCKS_LENGTH);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopy(cVectorGm, reluCLocal, C_AIV_BLOCKS_LENGTH);
    }

private:
    __aicore__ inline void CopyIn(const LocalTensor<half>& a1Local, const LocalTensor<half>& b1Local)
    {
        Nd2NzParams a;
        a.ndNum = 1;
        a.nValue = AIC_M;
        a.dValue = AIC_K;
        a.srcNdMatrixStride = 0;
        a.srcDValue = AIC_K;
        a.dstNzC0Stride = CEIL_ALIGN_M;
        a.dstNzNStride = 1;
        a.dstNzMatrixStride = 0;
        DataCopy(a1Local, aCubeGm, a);
        Nd2NzParams b;
        b.ndNum = 1;
        b.nValue = AIC_K;
        b.dValue = AIC_N;
        b.srcNdMatrixStride = 0;
        b.srcDValue = AIC_N;
        b.dstNzC0Stride = CeilAlignConst(AIC_K, FRACTAL_SHAPE_0);
        b.dstNzNStride = 1;
        b.dstNzMatrixStride = 0;
        DataCopy(b1Local, bCubeGm, b);
    }
    __aicore__ inline void SplitA(const LocalTensor<half>& a1Local, const LocalTensor<half>& a2Local)
    {
        SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
        const int32_t dstOffset = CeilDiv(AIC_K, FRACTAL_SHAPE_1) * FRACTAL_SIZE;
        const int32_t srcOffset = FRACTAL_SIZE;
        LoadData2DParams p;
        p.repeatTimes = CeilDiv(AIC_K, FRACTAL_SHAPE_1);
        p.srcStride = CeilDiv(AIC_M, FRACTAL_SHAPE_0);
        p.dstGap = 0;
        p.ifTranspose = false;
        for (int32_t i = 0; i < CeilDiv(AIC_M, FRACTAL_SHAPE_0); i++) {
            LoadData(a2Local[i * dstOffset], a1Local[i * srcOffset], p);
        }
    }
    __aicore__ inline void SplitBTranspose(const LocalTensor<half>& b1Local, const LocalTensor<half>& b2Local)
    {
        const int32_t dstOffset = CeilDiv(AIC_N, FRACTAL_SHAPE_0) * FRACTAL_SIZE;
        const int32_t srcOffset = FRACTAL_SIZE;
        LoadData2DParams p;
        p.repeatTimes = CeilDiv(AIC_N, FRACTAL_SHAPE_0);
        p.srcStride = CeilDiv(AIC_K, FRACTAL_SHAPE_0);
        p.dstGap = 0;
        p.ifTranspose = true;
        for (int32_t i = 0; i < CeilDiv(AIC_K, FRACTAL_SHAPE_0); i++) {
            LoadData(b2Local[i * dstOffset], b1Local[i * srcOffset], p);
        }
    }
    __aicore__ inline void Compute(const LocalTensor<half>& a2Local, const LocalTensor<half>& b2Local,
                                   const LocalTensor<float>& c1Local)
    {
        SetFlag<HardEvent::MTE1_M>(EVENT_ID0);  // M reads what MTE1 wrote into L0A / L0B
        WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
        MmadParams p;
        p.m = AIC_M;
        p.n = AIC_N;
        p.k = AIC_K;
        Mmad(c1Local, a2Local, b2Local, p);
    }
    __aicore__ inline void CopyOut(const LocalTensor<float>& c1Local)
    {
        SetFlag<HardEvent::M_FIX>(EVENT_ID0);  // FIX reads what M wrote into L0C
        WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
        FixpipeParamsV220 p;
        p.nSize = AIC_N;
        p.mSize = AIC_M;
        p.srcStride = CEIL_ALIGN_M;
        p.dstStride = AIC_N;
        p.ndNum = 1;
        p.srcNdStride = 0;
        p.dstNdStride = 0;
        SetAtomicAdd<float>();  // the blocks' partial products sum up in C
        Fixpipe(cCubeGm, c1Local, p);
        DisableDmaAtomic();
    }

    int64_t blockIdx = 0;
    GlobalTensor<uint8_t> aGm, bGm;
    GlobalTensor<half> aVectorGm, bVectorGm, aCubeGm, bCubeGm;
    GlobalTensor<float> cVectorGm, cCubeGm;
};

extern "C" __global__ __aicore__ void mmad_custom(GM_ADDR a, GM_ADDR b, GM_ADDR aHalf, GM_ADDR bHalf, GM_ADDR c)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);  // __mix__(1, 2)
    InitSocState();
    KernelMmad op;
    if ASCEND_IS_AIC {
        op.InitAic(aHalf, bHalf, c);
        op.ProcessAic();
    }
    if ASCEND_IS_AIV {
        op.InitAiv(a, b, aHalf, bHalf, c);
        op.ProcessAiv();
    }
    PipeBarrier<PIPE_ALL>();
}
