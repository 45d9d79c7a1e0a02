/*
 * The twin of examples/18_port_matmul_basic.py in C++: c[32, 32] (float) = a[32, 32] (half) @
 * b[32, 32] (half) in one block on a coupled chip (310P): A and B come to L1 as NZ by one DataCopy per
 * 16-column strip, A goes to L0A (LoadData2dParams), B to L0B in two halves of 16 columns with each
 * fractal transposed, Mmad per half, the halves leave L0C for UB (CO2) by DataCopy in matrix block
 * mode (DataCopyEnhancedParams), and UB's NZ columns go to GM as ND rows.
 * tests/ascendc/test_cube_twins.py runs it beside the Python kernel.
 */
#include "kernel_operator.h"
using namespace AscendC;

class Matmul32 {
public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c)
    {
        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
        cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
        pipe.InitBuffer(qA1, 1, S * S * sizeof(half));
        pipe.InitBuffer(qA2, 1, S * S * sizeof(half));
        pipe.InitBuffer(qB1, 1, S * S * sizeof(half));
        pipe.InitBuffer(qB2, 2, S * S * sizeof(half) / 2);
        pipe.InitBuffer(qCO1, 2, S * S * sizeof(float) / 2);
        pipe.InitBuffer(qCO2, 1, S * S * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LoadL1();
        LoadA2();
        LocalTensor<half> b1 = qB1.DeQue<half>();
        LocalTensor<half> a2 = qA2.DeQue<half>();
        LocalTensor<float> c2 = qCO2.AllocTensor<float>();
        for (int32_t half_ = 0; half_ < 2; ++half_) {
            LoadB2(b1, half_);
            Multiply(a2);
            ToUb(c2, half_);
        }
        qB1.FreeTensor(b1);
        qA2.FreeTensor(a2);
        qCO2.EnQue(c2);
        Store();
    }

private:
    static constexpr int32_t S = 32;          // m = n = k
    static constexpr int32_t F = S / 16;      // fractals along a side
    __aicore__ inline void ToNz(const LocalTensor<half>& dst, const GlobalTensor<half>& src)
    {
        for (int32_t strip = 0; strip < F; ++strip) {  // 16 columns, every row: one NZ column block
            DataCopy(dst[strip * 16 * S], src[strip * 16], DataCopyParams(S, 1, F - 1, 0));
        }
    }
    __aicore__ inline void LoadL1()
    {
        LocalTensor<half> a1 = qA1.AllocTensor<half>();
        LocalTensor<half> b1 = qB1.AllocTensor<half>();
        ToNz(a1, aGm);
        ToNz(b1, bGm);
        qA1.EnQue(a1);
        qB1.EnQue(b1);
    }
    __aicore__ inline void LoadA2()
    {
        LocalTensor<half> a1 = qA1.DeQue<half>();
        LocalTensor<half> a2 = qA2.AllocTensor<half>();
        for (int32_t row = 0; row < F; ++row) {
            LoadData2dParams params;
            params.repeatTimes = F;
            params.srcStride = F;
            params.ifTranspose = false;
            LoadData(a2[row * S * 16], a1[row * 16 * 16], params);
        }
        qA2.EnQue(a2);
        qA1.FreeTensor(a1);
    }
    __aicore__ inline void LoadB2(const LocalTensor<half>& b1, int32_t part)
    {
        LocalTensor<half> b2 = qB2.AllocTensor<half>();
        LoadData2dParams params;
        params.repeatTimes = F;
        params.srcStride = 1;
        params.ifTranspose = true;
        LoadData(b2, b1[part * S * S / 2], params);
        qB2.EnQue(b2);
    }
    __aicore__ inline void Multiply(const LocalTensor<half>& a2)
    {
        LocalTensor<half> b2 = qB2.DeQue<half>();
        LocalTensor<float> c1 = qCO1.AllocTensor<float>();
        Mmad(c1, a2, b2, MmadParams(S, S / 2, S, false, 0, false, false, false));
        qCO1.EnQue(c1);
        qB2.FreeTensor(b2);
    }
    __aicore__ inline void ToUb(const LocalTensor<float>& c2, int32_t part)
    {
        LocalTensor<float> c1 = qCO1.DeQue<float>();
        DataCopyParams params;
        params.blockCount = 1;
        params.blockLen = 2;
        DataCopyEnhancedParams enhanced;
        enhanced.blockMode = BlockMode::BLOCK_MODE_MATRIX;
        DataCopy(c2[part * S * S / 2], c1, params, enhanced);
        qCO1.FreeTensor(c1);
    }
    __aicore__ inline void Store()
    {
        LocalTensor<float> c2 = qCO2.DeQue<float>();
        for (int32_t col = 0; col < F; ++col) {  // each NZ column block: 16 floats of every row
            DataCopy(cGm[col * 16], c2[col * S * 16], DataCopyParams(S, 2, 0, (F - 1) * 2));
        }
        qCO2.FreeTensor(c2);
    }

    TPipe pipe;
    TQue<TPosition::A1, 1> qA1;
    TQue<TPosition::A2, 1> qA2;
    TQue<TPosition::B1, 1> qB1;
    TQue<TPosition::B2, 2> qB2;
    TQue<TPosition::CO1, 2> qCO1;
    TQue<TPosition::CO2, 1> qCO2;
    GlobalTensor<half> aGm;
    GlobalTensor<half> bGm;
    GlobalTensor<float> cGm;
};

extern "C" __global__ __aicore__ void matmul_basic_310p(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    Matmul32 op;
    op.Init(a, b, c);
    op.Process();
}
