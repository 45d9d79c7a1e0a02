// Kernels of the samples sweep's tests (test_samples_sweep.py): the older spellings the public
// kernel-invocation samples use (namespace tik2, ParamOffset, block_idx, block_num, IsSameType, __ubuf__) and
// ListTensorDesc's decoding constructor.  Our own kernels, checked against NumPy.
#include "kernel_operator.h"
#include "kernel_operator_list_tensor_intf.h"
using namespace tik2;

constexpr int32_t SWEEP_LEN = 64;  // elements per block

template <typename T> __aicore__ inline T SweepBias()
{
    return IsSameType<T, half>::value ? T(1.0f) : T(2.0f);
}

// y[b * 64 + i] = x[b * 64 + i] + bias + b * blocks, block b's part found with ParamOffset
template <typename T> __aicore__ inline void SweepOffsets(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T*)ParamOffset<T>(x, SWEEP_LEN), SWEEP_LEN);
    yGm.SetGlobalBuffer((__gm__ T*)ParamOffset<T>(y, SWEEP_LEN), SWEEP_LEN);
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, SWEEP_LEN * sizeof(T));
    pipe.InitBuffer(outQ, 1, SWEEP_LEN * sizeof(T));
    LocalTensor<T> a = inQ.AllocTensor<T>();
    DataCopy(a, xGm, SWEEP_LEN);
    inQ.EnQue(a);
    a = inQ.DeQue<T>();
    LocalTensor<T> b = outQ.AllocTensor<T>();
    const int64_t idx = block_idx * block_num;  // the device compiler's globals
    Adds(b, a, static_cast<T>(static_cast<float>(SweepBias<T>()) + static_cast<float>(idx)), SWEEP_LEN);
    outQ.EnQue(b);
    inQ.FreeTensor(a);
    b = outQ.DeQue<T>();
    DataCopy(yGm, b, SWEEP_LEN);
    outQ.FreeTensor(b);
}

extern "C" __global__ __aicore__ void sweep_offsets_half(GM_ADDR x, GM_ADDR y) { SweepOffsets<half>(x, y); }
extern "C" __global__ __aicore__ void sweep_offsets_float(GM_ADDR x, GM_ADDR y) { SweepOffsets<float>(x, y); }

// the device's buffer qualifiers are empty on the host, as __gm__ is
__aicore__ inline int32_t SweepQualified(__ubuf__ int32_t* p, __cbuf__ int32_t* q) { return p == q ? 1 : 0; }

// y = the list's tensor 1 (SWEEP_LEN halves) and, after it as int32: the list's size, tensor 1's rank
// and extents, decoded by the constructor ListTensorDesc(data, length, count)
extern "C" __global__ __aicore__ void sweep_list_desc(GM_ADDR desc, GM_ADDR y, GM_ADDR info)
{
    ListTensorDesc list(reinterpret_cast<__gm__ void*>(desc), (1 + (1 + 2) * 2 + 2) * sizeof(uint64_t), 2);
    uint64_t shape[2] = {0, 0};
    TensorDesc<half> d;
    d.SetShapeAddr(shape);
    list.GetDesc(d, 1);
    GlobalTensor<half> src, dst;
    src.SetGlobalBuffer(list.GetDataPtr<half>(1), SWEEP_LEN);
    dst.SetGlobalBuffer((__gm__ half*)y, SWEEP_LEN);
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, SWEEP_LEN * sizeof(half));
    pipe.InitBuffer(outQ, 1, SWEEP_LEN * sizeof(half));
    LocalTensor<half> a = inQ.AllocTensor<half>();
    DataCopy(a, src, SWEEP_LEN);
    inQ.EnQue(a);
    a = inQ.DeQue<half>();
    LocalTensor<half> b = outQ.AllocTensor<half>();
    Adds(b, a, half(0.0f), SWEEP_LEN);
    outQ.EnQue(b);
    inQ.FreeTensor(a);
    b = outQ.DeQue<half>();
    DataCopy(dst, b, SWEEP_LEN);
    outQ.FreeTensor(b);
    GlobalTensor<int32_t> out;
    out.SetGlobalBuffer((__gm__ int32_t*)info, 8);
    int32_t probe = 0;
    out.SetValue(0, static_cast<int32_t>(list.GetSize()));
    out.SetValue(1, static_cast<int32_t>(d.GetDim()));
    out.SetValue(2, static_cast<int32_t>(shape[0]));
    out.SetValue(3, static_cast<int32_t>(shape[1]));
    out.SetValue(4, SweepQualified(&probe, &probe));
}

// The older region-proposal Concat / Extract (dst, src, repeatTimes, modeNumber), in a class of a reopened
// namespace tik2 as the TopK sample writes it.  x: 16 scores then 16 labels; y: the labels then the scores,
// each read back from the 16 proposals the two Concats filled.
namespace tik2 {
template <typename T> class SweepProposals {
public:
    __aicore__ inline void Run(GM_ADDR x, GM_ADDR y)
    {
        GlobalTensor<T> xGm, yGm;
        xGm.SetGlobalBuffer((__gm__ T*)x, 32);
        yGm.SetGlobalBuffer((__gm__ T*)y, 32);
        pipe.InitBuffer(inQ, 1, 32 * sizeof(T));
        pipe.InitBuffer(outQ, 1, 32 * sizeof(T));
        pipe.InitBuffer(propBuf, 16 * 8 * sizeof(T));
        LocalTensor<T> src = inQ.AllocTensor<T>();
        DataCopy(src, xGm, 32);
        inQ.EnQue(src);
        src = inQ.DeQue<T>();
        LocalTensor<T> props = propBuf.Get<T>();
        LocalTensor<T> dst = outQ.AllocTensor<T>();
        Duplicate(props, T(0), 128);
        PipeBarrier<PIPE_V>();
        Concat(props, src, 1, 4);
        PipeBarrier<PIPE_V>();
        Concat(props, src[16], 1, 5);
        PipeBarrier<PIPE_V>();
        Extract(dst, props, 1, 5);
        Extract(dst[16], props, 1, 4);
        outQ.EnQue(dst);
        inQ.FreeTensor(src);
        dst = outQ.DeQue<T>();
        DataCopy(yGm, dst, 32);
        outQ.FreeTensor(dst);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> propBuf;
};
}  // namespace tik2

extern "C" __global__ __aicore__ void sweep_proposals(GM_ADDR x, GM_ADDR y)
{
    tik2::SweepProposals<half> op;
    op.Run(x, y);
}
