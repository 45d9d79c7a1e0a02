"""InitConstValue / Fill of L0A and L0B (InitConstValueParams<T>), Mmad with the 6-argument MmadParams,
and Fixpipe with a FixpipeConfig template parameter, in C++: checked against NumPy and against the
same kernel in Python (identical results and instruction streams)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import aclsim
import aclsim.kernel as asc

CPP = r"""
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void cube_fills(GM_ADDR c)
{
    TPipe pipe;
    TQue<TPosition::A2, 1> qa;
    TQue<TPosition::B2, 1> qb;
    TQue<TPosition::CO1, 1> qc;
    pipe.InitBuffer(qa, 1, 16 * 32 * sizeof(half));
    pipe.InitBuffer(qb, 1, 32 * 16 * sizeof(half));
    pipe.InitBuffer(qc, 1, 16 * 16 * sizeof(float));
    GlobalTensor<float> gc;
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
    LocalTensor<half> a2 = qa.AllocTensor<half>();
    InitConstValue(a2, InitConstValueParams<half>(1, 2, 0, 2.0f));
    qa.EnQue(a2);
    LocalTensor<half> b2 = qb.AllocTensor<half>();
    Fill(b2, InitConstValueParams<half>(1, 1, 0, 3.0f));
    Fill(b2[256], InitConstValueParams<half>(1, 1, 0, -1.0f));
    qb.EnQue(b2);
    a2 = qa.DeQue<half>();
    b2 = qb.DeQue<half>();
    LocalTensor<float> c1 = qc.AllocTensor<float>();
    Mmad(c1, a2, b2, MmadParams(16, 16, 32, 0, false, true));
    qa.FreeTensor(a2);
    qb.FreeTensor(b2);
    qc.EnQue(c1);
    c1 = qc.DeQue<float>();
    FixpipeParamsV220 p;
    p.nSize = 16;
    p.mSize = 16;
    p.srcStride = 16;
    p.dstStride = 16;
    Fixpipe<float, float, CFG_ROW_MAJOR>(gc, c1, p);
    Fixpipe(gc[256], c1, p);
    Fixpipe<float, float, CFG_NZ>(gc[512], c1, p);
    qc.FreeTensor(c1);
}
"""


@asc.kernel
def cube_fills(c):
    pipe = asc.TPipe()
    qa, qb = asc.TQue(asc.TPosition.A2, 1), asc.TQue(asc.TPosition.B2, 1)
    qc = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(qa, 1, 16 * 32 * 2)
    pipe.init_buffer(qb, 1, 32 * 16 * 2)
    pipe.init_buffer(qc, 1, 16 * 16 * 4)
    gc = asc.GlobalTensor(asc.float32)
    gc.set_global_buffer(c)
    a2 = qa.alloc_tensor(asc.half)
    asc.init_const_value(a2, asc.InitConstValueParams(1, 2, 0, 2.0))
    qa.enque(a2)
    b2 = qb.alloc_tensor(asc.half)
    asc.fill(b2, asc.InitConstValueParams(1, 1, 0, 3.0))
    asc.fill(b2[256], asc.InitConstValueParams(1, 1, 0, -1.0))
    qb.enque(b2)
    a2, b2 = qa.deque(asc.half), qb.deque(asc.half)
    c1 = qc.alloc_tensor(asc.float32)
    asc.mmad(c1, a2, b2, asc.MmadParams(16, 16, 32, 0, False, True))
    qa.free_tensor(a2)
    qb.free_tensor(b2)
    qc.enque(c1)
    c1 = qc.deque(asc.float32)
    p = asc.FixpipeParamsV220(n_size=16, m_size=16, src_stride=16, dst_stride=16)
    asc.fixpipe(gc, c1, p, asc.CFG_ROW_MAJOR)
    asc.fixpipe(gc[256], c1, p)
    asc.fixpipe(gc[512], c1, p, asc.CFG_NZ)
    qc.free_tensor(c1)


def _key(ins):
    return (ins.pipe, ins.op, ins.reads, ins.writes, ins.src, ins.dst, ins.event_id, ins.logical, ins.cost)


def test_fills_mmad_and_fixpipe_configs(cpp_kernels, tmp_path: Path) -> None:
    src = tmp_path / "cube_fills.cpp"
    src.write_text(CPP)
    kernels = cpp_kernels([src])
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    out = aclsim.malloc(768 * 4)
    results, launches = [], []
    for kernel in (kernels.cube_fills, cube_fills):
        aclsim.memset(out, 768 * 4, 0, 768 * 4)
        launches.append(kernel[1, stream](out))
        aclsim.synchronize_stream(stream)
        c = np.zeros(768, np.float32)
        aclsim.memcpy(c, c.nbytes, out, c.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
        results.append(c)
    # A: 2 everywhere; B (K 32 x N 16 as nZ fractals): its first fractal 3, its second -1
    a = np.full((16, 32), 2, np.float32)
    b = np.concatenate([np.full((16, 16), 3, np.float32), np.full((16, 16), -1, np.float32)])
    want = (a @ b).ravel()
    got = results[0]
    np.testing.assert_array_equal(got[:256], want)
    np.testing.assert_array_equal(got[256:512], want)
    np.testing.assert_array_equal(got[512:], want)  # NZ of a constant matrix: the same values
    assert np.array_equal(got, results[1])
    cpp, py = launches
    assert [[_key(i) for i in s] for s in cpp.streams] == [[_key(i) for i in s] for s in py.streams]
    ops = [i.op for i in cpp.streams[0]]
    assert any("init_const_value" in o for o in ops) and any(o.startswith("fill") for o in ops), ops
    aclsim.free(out)
