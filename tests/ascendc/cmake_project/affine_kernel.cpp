// z = x * 3 + 1 on float, each block its own slice, through a VECIN and a VECOUT queue.
#include "kernel_operator.h"

namespace {
constexpr int32_t kPerBlock = 64;

class Affine {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z)
    {
        const int64_t offset = kPerBlock * AscendC::GetBlockIdx();
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + offset, kPerBlock);
        zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + offset, kPerBlock);
        pipe_.InitBuffer(in_, 1, kPerBlock * sizeof(float));
        pipe_.InitBuffer(out_, 1, kPerBlock * sizeof(float));
    }

    __aicore__ inline void Run()
    {
        AscendC::LocalTensor<float> a = in_.AllocTensor<float>();
        AscendC::DataCopy(a, xGm_, kPerBlock);
        in_.EnQue(a);
        AscendC::LocalTensor<float> b = in_.DeQue<float>();
        AscendC::LocalTensor<float> c = out_.AllocTensor<float>();
        AscendC::Muls(c, b, 3.0f, kPerBlock);
        AscendC::Adds(c, c, 1.0f, kPerBlock);
        out_.EnQue(c);
        in_.FreeTensor(b);
        AscendC::LocalTensor<float> d = out_.DeQue<float>();
        AscendC::DataCopy(zGm_, d, kPerBlock);
        out_.FreeTensor(d);
    }

private:
    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> in_;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> out_;
    AscendC::GlobalTensor<float> xGm_;
    AscendC::GlobalTensor<float> zGm_;
};
}  // namespace

extern "C" __global__ __aicore__ void affine_kernel(GM_ADDR x, GM_ADDR z)
{
    Affine op;
    op.Init(x, z);
    op.Run();
}
