/*
 * One kernel per API family of the "reductions, gather, sort, high-level" rows of api_cxx.txt,
 * written in C++ against aclsim's kernel_operator.h; tests/ascendc/test_more_families.py runs each
 * on one block and checks its output against NumPy.
 */
#include "kernel_operator.h"
using namespace AscendC;

namespace {

/* x (n floats of GM) -> a UB tensor; y -> GM from a UB tensor (with the queue syncs) */
template <class T> class Io {
public:
    __aicore__ inline Io(TPipe& pipe, uint32_t nin, uint32_t nout)
    {
        pipe.InitBuffer(in, 1, nin * sizeof(T));
        pipe.InitBuffer(out, 1, nout * sizeof(T));
    }
    __aicore__ inline LocalTensor<T> Load(GM_ADDR x, uint32_t n)
    {
        GlobalTensor<T> g;
        g.SetGlobalBuffer((__gm__ T*)x, n);
        LocalTensor<T> t = in.AllocTensor<T>();
        DataCopy(t, g, n);
        in.EnQue(t);
        return in.DeQue<T>();
    }
    __aicore__ inline LocalTensor<T> Out() { return out.AllocTensor<T>(); }
    __aicore__ inline void Store(GM_ADDR y, LocalTensor<T> t, uint32_t n)
    {
        out.EnQue(t);
        LocalTensor<T> o = out.DeQue<T>();
        GlobalTensor<T> g;
        g.SetGlobalBuffer((__gm__ T*)y, n);
        DataCopy(g, o, n);
        out.FreeTensor(o);
    }
    TQue<TPosition::VECIN, 1> in;
    TQue<TPosition::VECOUT, 1> out;
};

}  // namespace

/* x: 256 floats; y: 64 floats, filled slot by slot (unused slots 0) */
extern "C" __global__ __aicore__ void more_reduce(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    Io<float> io(pipe, 256, 64);
    TBuf<TPosition::VECCALC> workBuf, accBuf;
    pipe.InitBuffer(workBuf, 256 * sizeof(float));
    pipe.InitBuffer(accBuf, 64 * sizeof(float));
    LocalTensor<float> src = io.Load(x, 256);
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> acc = accBuf.Get<float>();
    LocalTensor<float> dst = io.Out();
    Duplicate(dst, 0.0f, 64);
    Duplicate(acc, 0.0f, 64);
    PipeBarrier<PIPE_V>();
    ReduceSum(acc, src, work, 256);                 // acc[0] = sum(x)
    PipeBarrier<PIPE_V>();
    ReduceMax(acc[8], src, work, 256, true);        // acc[8] = max, acc[9] = its index's bits
    PipeBarrier<PIPE_V>();
    ReduceMin(acc[16], src, work, 64, 2, 8, true);  // mask form: 2 repeats of 64
    PipeBarrier<PIPE_V>();
    uint64_t bits[2] = {0x5555555555555555ULL, 0};
    ReduceSum(acc[24], src, work, bits, 1, 8);      // the even lanes of the first 64
    PipeBarrier<PIPE_V>();
    WholeReduceSum(acc[32], src, 64, 4, 1, 1, 8);   // acc[32..35]: the sums of each 64
    PipeBarrier<PIPE_V>();
    WholeReduceMax(acc[40], src, 64, 2, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);  // acc[40..41]
    PipeBarrier<PIPE_V>();
    BlockReduceMin(acc[48], src, 1, 64, 1, 1, 8);   // acc[48..55]: each 8's minimum
    PipeBarrier<PIPE_V>();
    PairReduceSum(acc[56], src, 1, 16, 1, 1, 8);    // acc[56..63]: x[0]+x[1], ..., x[14]+x[15]
    PipeBarrier<PIPE_V>();
    DataCopy(dst, acc, 64);
    io.in.FreeTensor(src);
    io.Store(y, dst, 64);
}

/* x: 128 floats; y: 192 floats: [0, 64) Copy of every other 8-block, [64, 128) Brcb of x[0..7],
   [128, 160) Gather by reversed offsets, [160, 191) GatherMask's even lanes of x[0..63], y[191] its count */
extern "C" __global__ __aicore__ void more_gather(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    Io<float> io(pipe, 128, 192);
    TBuf<TPosition::VECCALC> offBuf;
    pipe.InitBuffer(offBuf, 32 * sizeof(uint32_t));
    LocalTensor<float> src = io.Load(x, 128);
    LocalTensor<float> dst = io.Out();
    Duplicate(dst, 0.0f, 192);
    LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
    for (uint32_t i = 0; i < 32; ++i) {
        off.SetValue(i, (31 - i) * sizeof(float));
    }
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    Copy(dst, src, 64, 1, {1, 2, 8, 16});  // 8 blocks of src, every other one
    PipeBarrier<PIPE_V>();
    Brcb(dst[64], src, 1, {1, 8});  // block b = src[b] eight times
    PipeBarrier<PIPE_V>();
    Gather(dst[128], src, off, 0, 32);
    PipeBarrier<PIPE_V>();
    uint64_t kept = 0;
    GatherMaskParams params{1, 1, 8, 0};
    GatherMask(dst[160], src, static_cast<uint8_t>(1), false, 0, params, kept);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    dst.SetValue(191, static_cast<float>(kept));
    SetFlag<HardEvent::S_MTE3>(0);
    WaitFlag<HardEvent::S_MTE3>(0);
    io.in.FreeTensor(src);
    io.Store(y, dst, 192);
}

/* x: 64 floats; y: 256 floats: [0, 128) Sort32 of two 32s as (score, index bits) pairs, [128, 256) the
   high-level Concat/Sort/Extract of all 64: the scores, then the indices' bits */
extern "C" __global__ __aicore__ void more_sort(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    Io<float> io(pipe, 64, 256);
    TBuf<TPosition::VECCALC> idxBuf, catBuf, tmpBuf, sortedBuf, valBuf, outIdxBuf;
    pipe.InitBuffer(idxBuf, 64 * sizeof(uint32_t));
    pipe.InitBuffer(catBuf, 64 * sizeof(float));
    pipe.InitBuffer(tmpBuf, 256 * sizeof(float));
    pipe.InitBuffer(sortedBuf, 128 * sizeof(float));
    pipe.InitBuffer(valBuf, 64 * sizeof(float));
    pipe.InitBuffer(outIdxBuf, 64 * sizeof(uint32_t));
    LocalTensor<float> src = io.Load(x, 64);
    LocalTensor<float> dst = io.Out();
    LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
    for (uint32_t i = 0; i < 64; ++i) {
        idx.SetValue(i, i);
    }
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    LocalTensor<float> cat = catBuf.Get<float>();
    LocalTensor<float> tmp = tmpBuf.Get<float>();
    LocalTensor<float> sorted = sortedBuf.Get<float>();
    LocalTensor<float> val = valBuf.Get<float>();
    LocalTensor<uint32_t> outIdx = outIdxBuf.Get<uint32_t>();
    Sort32(dst, src, idx, 2);
    PipeBarrier<PIPE_V>();
    Concat(cat, src, tmp, 4);
    PipeBarrier<PIPE_V>();
    Sort<float, true>(sorted, cat, idx, tmp, 2);
    PipeBarrier<PIPE_V>();
    Extract(val, outIdx, sorted, 2);
    PipeBarrier<PIPE_V>();
    DataCopy(dst[128], val, 64);
    DataCopy(dst[192], outIdx.ReinterpretCast<float>(), 64);
    io.in.FreeTensor(src);
    io.Store(y, dst, 256);
}

/* x: 64 floats in (0, 1); y: 9 x 64 floats: Sin (tmp + count), Cos (count), Erf (tmp), Sigmoid (all),
   Floor of 8x, Power(x, 2.5), ClampMax(x, 0.5), Silu, Swish(x, 1.5) */
extern "C" __global__ __aicore__ void more_math(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    Io<float> io(pipe, 64, 9 * 64);
    TBuf<TPosition::VECCALC> tmpBuf, scaled;
    pipe.InitBuffer(tmpBuf, 8192);
    pipe.InitBuffer(scaled, 64 * sizeof(float));
    LocalTensor<float> src = io.Load(x, 64);
    LocalTensor<float> dst = io.Out();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    LocalTensor<float> s8 = scaled.Get<float>();
    Sin(dst, src, tmp, 64);
    PipeBarrier<PIPE_V>();
    Cos(dst[64], src, 64);
    PipeBarrier<PIPE_V>();
    Erf(dst[128], src, tmp);
    PipeBarrier<PIPE_V>();
    Sigmoid(dst[192], src);
    PipeBarrier<PIPE_V>();
    Muls(s8, src, 8.0f, 64);
    PipeBarrier<PIPE_V>();
    Floor(dst[256], s8, tmp, 64);
    PipeBarrier<PIPE_V>();
    Power(dst[320], src, 2.5f, tmp, 64);
    PipeBarrier<PIPE_V>();
    ClampMax(dst[384], src, 0.5f, 64);
    PipeBarrier<PIPE_V>();
    Silu(dst[448], src, 64);
    PipeBarrier<PIPE_V>();
    Swish(dst[512], src, 64, 1.5f);
    PipeBarrier<PIPE_V>();
    io.in.FreeTensor(src);
    io.Store(y, dst, 9 * 64);
}

/* x: [8, 64] floats; tiling: a SoftMaxTiling in GM; y: the softmax (512), then the rows' sums and
   maxima ([8, 8] each: a 32 B block a row) */
extern "C" __global__ __aicore__ void more_softmax(GM_ADDR x, GM_ADDR y, GM_ADDR tilingGm)
{
    const SoftMaxTiling tiling = *reinterpret_cast<__gm__ SoftMaxTiling*>(tilingGm);
    TPipe pipe;
    Io<float> io(pipe, 512, 512 + 128);
    TBuf<TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(tmpBuf, 16384);
    LocalTensor<float> src = io.Load(x, 512);
    LocalTensor<float> dst = io.Out();
    SoftMax<float>(dst, dst[512], dst[576], src, tmpBuf.Get<uint8_t>(), tiling, SoftMaxShapeInfo{8, 64, 8, 64});
    io.in.FreeTensor(src);
    io.Store(y, dst, 512 + 128);
}

/* x: [2, 4, 32] floats, then gamma (32) and beta (32); tiling: a LayerNormTiling in GM; y: the
   output (256), the means (8) and the variances (8) */
extern "C" __global__ __aicore__ void more_layernorm(GM_ADDR x, GM_ADDR y, GM_ADDR tilingGm)
{
    const LayerNormTiling tiling = *reinterpret_cast<__gm__ LayerNormTiling*>(tilingGm);
    TPipe pipe;
    Io<float> io(pipe, 256 + 64, 256 + 16);
    LocalTensor<float> src = io.Load(x, 256 + 64);
    LocalTensor<float> dst = io.Out();
    LayerNorm<float>(dst, dst[256], dst[264], src, src[256], src[288], 1e-5f, tiling);
    io.in.FreeTensor(src);
    io.Store(y, dst, 256 + 16);
}

/* x: 128 floats; y: 260 floats: four Sort32 queues of 32 merged by MrgSort (128 (score, index bits)
   records), then GetMrgSortResult's four counts */
extern "C" __global__ __aicore__ void more_mrgsort(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    Io<float> io(pipe, 128, 264);
    TBuf<TPosition::VECCALC> idxBuf, queueBuf;
    pipe.InitBuffer(idxBuf, 32 * sizeof(uint32_t));
    pipe.InitBuffer(queueBuf, 256 * sizeof(float));
    LocalTensor<float> src = io.Load(x, 128);
    LocalTensor<float> dst = io.Out();
    LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
    for (uint32_t i = 0; i < 32; ++i) {
        idx.SetValue(i, i);
    }
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    LocalTensor<float> queues = queueBuf.Get<float>();
    for (int32_t q = 0; q < 4; ++q) {
        Sort32(queues[q * 64], src[q * 32], idx, 1);
    }
    PipeBarrier<PIPE_V>();
    MrgSort4Info params;
    for (int q = 0; q < 4; ++q) {
        params.elementLengths[q] = 32;
    }
    params.validBit = 0b1111;
    MrgSortSrcList<float> list;
    list.src1 = queues[0];
    list.src2 = queues[64];
    list.src3 = queues[128];
    list.src4 = queues[192];
    MrgSort(dst, list, params);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    uint16_t n1 = 0, n2 = 0, n3 = 0, n4 = 0;
    GetMrgSortResult(n1, n2, n3, n4);
    dst.SetValue(256, n1);
    dst.SetValue(257, n2);
    dst.SetValue(258, n3);
    dst.SetValue(259, n4);
    SetFlag<HardEvent::S_MTE3>(0);
    WaitFlag<HardEvent::S_MTE3>(0);
    io.in.FreeTensor(src);
    io.Store(y, dst, 264);
}

/* The 310P's region proposals.  x: 32 halves (16 scores, 16 labels); y: 32 halves: the scores and
   labels after RpSort16 of the 16 proposals ProposalConcat made */
extern "C" __global__ __aicore__ void more_proposals(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    Io<half> io(pipe, 32, 32);
    TBuf<TPosition::VECCALC> propBuf, sortedBuf;
    pipe.InitBuffer(propBuf, 16 * 8 * sizeof(half));
    pipe.InitBuffer(sortedBuf, 16 * 8 * sizeof(half));
    LocalTensor<half> src = io.Load(x, 32);
    LocalTensor<half> dst = io.Out();
    LocalTensor<half> props = propBuf.Get<half>();
    LocalTensor<half> sorted = sortedBuf.Get<half>();
    Duplicate(props, half(0), 128);
    PipeBarrier<PIPE_V>();
    ProposalConcat(props, src, 1, 4);       // the scores
    PipeBarrier<PIPE_V>();
    ProposalConcat(props, src[16], 1, 5);   // the labels
    PipeBarrier<PIPE_V>();
    RpSort16(sorted, props, 1);
    PipeBarrier<PIPE_V>();
    ProposalExtract(dst, sorted, 1, 4);
    PipeBarrier<PIPE_V>();
    ProposalExtract(dst[16], sorted, 1, 5);
    PipeBarrier<PIPE_V>();
    io.in.FreeTensor(src);
    io.Store(y, dst, 32);
}

/* The forms real kernels write, on half: explicit template arguments, bit masks, the templated
   reductions.  x: 128 halves; y: 96 halves (unused slots 0) */
extern "C" __global__ __aicore__ void more_forms(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    Io<half> io(pipe, 128, 96);
    TBuf<TPosition::VECCALC> offBuf;
    pipe.InitBuffer(offBuf, 16 * sizeof(uint32_t));
    LocalTensor<half> src = io.Load(x, 128);
    LocalTensor<half> dst = io.Out();
    LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
    for (uint32_t i = 0; i < 16; ++i) {
        off.SetValue(i, 2 * i * sizeof(half));  // every other element
    }
    Duplicate<half>(dst, half(0), 96);
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    PipeBarrier<PIPE_V>();
    WholeReduceSum<half, true>(dst, src, 128, 1, 1, 1, 8);                      // y[0] = sum(x)
    ReduceRepeat<ReduceType::MAX>(dst[2], src, 128, 1, 1, 1, 8);                // y[2], y[3]: max, its index
    BlockReduceMax<half>(dst[16], src, 1, 128, 1, 1, 8);                         // y[16..23]: each 16's max
    ReduceDataBlock<ReduceType::MIN>(dst[32], src, 128, 1, 1, 1, 8);            // y[32..39]: each 16's min
    const uint64_t low16[2] = {0xFFFFULL, 0};
    ReducePairElem<ReduceType::SUM>(dst[48], src, low16, 1, 1, 1, 8);          // y[48..55]: pairs of x[0..15]
    Copy<half, true>(dst[64], src, low16, 1, {1, 1, 8, 8});                      // y[64..79] = x[0..15]
    Gather<half>(dst[80], src, off, 0, 16, 1, 8);                               // y[80..95] = x[0:32:2]
    PipeBarrier<PIPE_V>();
    io.in.FreeTensor(src);
    io.Store(y, dst, 96);
}

/* The high-level MrgSort<float, true> (it stops when a queue runs out).  x: 128 floats; y: 260 floats:
   the merged records (unwritten ones 0), then sortedNum's four counts */
extern "C" __global__ __aicore__ void more_mrgsort_exhausted(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    Io<float> io(pipe, 128, 264);
    TBuf<TPosition::VECCALC> idxBuf, queueBuf;
    pipe.InitBuffer(idxBuf, 32 * sizeof(uint32_t));
    pipe.InitBuffer(queueBuf, 256 * sizeof(float));
    LocalTensor<float> src = io.Load(x, 128);
    LocalTensor<float> dst = io.Out();
    LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
    for (uint32_t i = 0; i < 32; ++i) {
        idx.SetValue(i, i);
    }
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    Duplicate(dst, 0.0f, 264);
    LocalTensor<float> queues = queueBuf.Get<float>();
    for (int32_t q = 0; q < 4; ++q) {
        Sort32<float>(queues[q * 64], src[q * 32], idx, 1);
    }
    PipeBarrier<PIPE_V>();
    MrgSortSrcList<float> list(queues[0], queues[64], queues[128], queues[192]);
    const uint16_t counts[4] = {32, 32, 32, 32};
    uint32_t sortedNum[4] = {0, 0, 0, 0};
    MrgSort<float, true>(dst, list, counts, sortedNum, 0b1111, 1);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    for (int q = 0; q < 4; ++q) {
        dst.SetValue(256 + q, static_cast<float>(sortedNum[q]));
    }
    SetFlag<HardEvent::S_MTE3>(0);
    WaitFlag<HardEvent::S_MTE3>(0);
    io.in.FreeTensor(src);
    io.Store(y, dst, 264);
}
