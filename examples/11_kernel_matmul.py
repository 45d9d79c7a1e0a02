"""A tiled matmul through L1 -> L0A/L0B -> cube -> L0C -> GM, with double-buffered L1 tiles.

C (M x N, float32) = A (M x K, float16) @ B (K x N, float16).  Each block computes one
M0 x N0 tile of C, walking K in K0 steps: A and B tiles come into L1 through A1/B1 queues
with 2 buffers each (so the next tiles load on MTE2 while the cube works), move to L0A/L0B
with load_data on MTE1, multiply-accumulate on the cube into L0C, and leave by fixpipe.
The layouts are the hardware's: GM -> L1 converts ND to NZ (Nd2NzParams), A goes to L0A as
zZ one fractal row at a time, B's 16 x 16 fractals are transposed on their way to L0B (nZ),
the cube writes C as NZ, and fixpipe turns it back into ND rows.
"""

import numpy as np

import aclsim
import aclsim.kernel as asc
from aclsim.isa import Pipe

M, N, K = 128, 128, 512
M0, N0, K0 = 64, 64, 64
F16, F32 = asc.float16, asc.float32


@asc.kernel
def matmul(a, b, c):
    pipe = asc.TPipe()
    q_a1, q_b1 = asc.TQue(asc.TPosition.A1, 1), asc.TQue(asc.TPosition.B1, 1)
    q_a2, q_b2 = asc.TQue(asc.TPosition.A2, 1), asc.TQue(asc.TPosition.B2, 1)
    q_co1 = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(q_a1, 2, M0 * K0 * 2)  # double-buffered L1 tiles
    pipe.init_buffer(q_b1, 2, K0 * N0 * 2)
    pipe.init_buffer(q_a2, 2, M0 * K0 * 2)
    pipe.init_buffer(q_b2, 2, K0 * N0 * 2)
    pipe.init_buffer(q_co1, 1, M0 * N0 * 4)
    ga, gb, gc = asc.GlobalTensor(F16), asc.GlobalTensor(F16), asc.GlobalTensor(F32)
    ga.set_global_buffer(a)
    gb.set_global_buffer(b)
    gc.set_global_buffer(c)
    tiles_n = N // N0
    mi, ni = divmod(asc.get_block_idx(), tiles_n)
    c1 = q_co1.alloc_tensor(F32)
    for kk in range(K // K0):
        # GM -> L1 (MTE2): a M0 x K0 window of A and a K0 x N0 window of B, ND -> NZ
        # (column groups of 16 halves, each holding every row of the window)
        a1 = q_a1.alloc_tensor(F16)
        asc.data_copy(a1, ga[mi * M0 * K + kk * K0], asc.Nd2NzParams(1, M0, K0, 0, K, M0, 1, 0))
        q_a1.enque(a1)
        b1 = q_b1.alloc_tensor(F16)
        asc.data_copy(b1, gb[kk * K0 * N + ni * N0], asc.Nd2NzParams(1, K0, N0, 0, N, K0, 1, 0))
        q_b1.enque(b1)
        # L1 -> L0A (MTE1): zZ, one row of 512 B fractals at a time (they are M0 / 16 apart in NZ)
        a1 = q_a1.deque(F16)
        a2 = q_a2.alloc_tensor(F16)
        for i in range(M0 // 16):
            asc.load_data(a2[i * K0 * 16], a1, asc.LoadData2DParams(i, K0 // 16, M0 // 16))
        q_a2.enque(a2)
        q_a1.free_tensor(a1)
        # L1 -> L0B (MTE1): nZ, each fractal transposed on the way
        b1 = q_b1.deque(F16)
        b2 = q_b2.alloc_tensor(F16)
        for kb in range(K0 // 16):
            params = asc.LoadData2DParams(kb, N0 // 16, K0 // 16, if_transpose=True)
            asc.load_data(b2[kb * N0 * 16], b1, params)
        q_b2.enque(b2)
        q_b1.free_tensor(b1)
        # cube: C += A_k @ B_k into L0C
        a2, b2 = q_a2.deque(F16), q_b2.deque(F16)
        asc.mmad(c1, a2, b2, asc.MmadParams(M0, N0, K0, cmatrix_init_val=kk == 0))
        q_a2.free_tensor(a2)
        q_b2.free_tensor(b2)
    q_co1.enque(c1)
    c1 = q_co1.deque(F32)
    # L0C (NZ) -> GM (FIX) as ND: M0 rows of N0 floats, N apart; Z columns M0 rows apart in L0C
    asc.fixpipe(gc[mi * M0 * N + ni * N0], c1, asc.FixpipeParamsV220(n_size=N0, m_size=M0, src_stride=M0,
                                                                       dst_stride=N))
    q_co1.free_tensor(c1)


def main() -> None:
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    rng = np.random.default_rng(0)
    a = rng.standard_normal((M, K)).astype(np.float16)
    b = rng.standard_normal((K, N)).astype(np.float16)
    c = np.zeros((M, N), np.float32)
    da, db, dc = aclsim.malloc(a.nbytes), aclsim.malloc(b.nbytes), aclsim.malloc(c.nbytes)
    aclsim.memcpy(da, a.nbytes, a, a.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    aclsim.memcpy(db, b.nbytes, b, b.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    launch = matmul[(M // M0) * (N // N0), None](da, db, dc)
    aclsim.synchronize_device()
    aclsim.memcpy(c, c.nbytes, dc, c.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(c, ref, rtol=1e-4, atol=1e-3)
    report = launch.report
    util = report.utilization()
    print(f"matmul {M}x{K} @ {K}x{N} on {launch.block_dim} blocks: {report.total_cycles:.0f} cycles "
          f"({report.microseconds:.2f} us), {launch.instructions} instructions")
    print("utilization: " + ", ".join(f"{p.track_name} {util[p]:.0%}" for p in
                                      (Pipe.M, Pipe.MTE1, Pipe.MTE2, Pipe.FIX)))
    print(f"cube utilization {util[Pipe.M]:.1%}; bottleneck {report.bottleneck.track_name}")
    for d in (da, db, dc):
        aclsim.free(d)
    aclsim.reset_device(0)
    assert aclsim.finalize() == []
    print("PASS")


if __name__ == "__main__":
    main()
