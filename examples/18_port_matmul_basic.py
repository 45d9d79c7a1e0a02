"""Port: Ascend's basic MatMul kernel sample (coupled chip, CO2 queue), line by line.

Source: Ascend/samples, commit fc2aea93e48be8f8cee51d0c6c1b13a08155f83a,
cplusplus/level1_single_api/4_op_dev/6_ascendc_custom_op/kernel_invocation/MatMul/matmul_custom.cpp
(``KernelMatmul``: c[32, 32] float = a[32, 32] half x b[32, 32] half, one block).

How it maps:
- ``CopyND2NZ``: GM ND -> L1 NZ by one ``DataCopy(dst, src, {height, 1, width / 16 - 1, 0})`` per
  16-column strip, as the sample writes it (no Nd2NzParams).
- ``SplitA``/``SplitB``: ``LoadData(dst, src, LoadData2dParams)`` L1 -> L0A (NZ -> ZZ, per row of
  fractals) and L1 -> L0B (NZ -> ZN, ``ifTranspose``), B split into two halves of 16 columns.
- ``Compute``: ``Mmad(c1, a2, b2, {m, n / 2, k, false, 0, false, false, false})``.
- ``Aggregate``: L0C -> UB (the CO2 queue of a coupled chip) by ``DataCopy`` with
  ``DataCopyEnhancedParams{blockMode = BLOCK_MODE_MATRIX}``; ``CopyOut``: UB NZ -> GM ND.
- The sample's member constants (m, n, k = 32 and the sizes the constructor derives, including its
  ``cSize = m * m``, which equals m * n at this shape) are kept as they are.

Runs on the 310P preset (coupled AI cores: L0C reaches UB, no FixPipe) and is checked against
NumPy's float32 product of the half inputs.
"""

from __future__ import annotations

import sys

import numpy as np

import aclsim
import aclsim.kernel as asc


class KernelMatmul:
    def __init__(self) -> None:
        self.m, self.n, self.k = 32, 32, 32
        self.a_size = self.m * self.k
        self.b_size = self.k * self.n
        self.c_size = self.m * self.m
        self.m_blocks = self.m // 16
        self.n_blocks = self.n // 16
        self.k_blocks = self.k // 16
        self.pipe = asc.TPipe()
        self.in_queue_a1 = asc.TQue(asc.QuePosition.A1, 1)
        self.in_queue_a2 = asc.TQue(asc.QuePosition.A2, 1)
        self.in_queue_b1 = asc.TQue(asc.QuePosition.B1, 1)
        self.in_queue_b2 = asc.TQue(asc.QuePosition.B2, 2)
        # dst queue
        self.out_queue_co1 = asc.TQue(asc.QuePosition.CO1, 2)
        self.out_queue_co2 = asc.TQue(asc.QuePosition.CO2, 1)
        self.a_gm, self.b_gm = asc.GlobalTensor(asc.half), asc.GlobalTensor(asc.half)
        self.c_gm = asc.GlobalTensor(asc.float32)

    def init(self, a, b, c) -> None:
        self.a_gm.set_global_buffer(a.cast(asc.half))
        self.b_gm.set_global_buffer(b.cast(asc.half))
        self.c_gm.set_global_buffer(c.cast(asc.float32))
        self.pipe.init_buffer(self.in_queue_a1, 1, self.a_size * 2)
        self.pipe.init_buffer(self.in_queue_a2, 1, self.a_size * 2)
        self.pipe.init_buffer(self.in_queue_b1, 1, self.b_size * 2)
        self.pipe.init_buffer(self.in_queue_b2, 2, self.b_size * 2 // 2)
        self.pipe.init_buffer(self.out_queue_co1, 2, self.c_size * 4 // 2)
        self.pipe.init_buffer(self.out_queue_co2, 1, self.c_size * 4)

    def process(self) -> None:
        self.copy_in()
        self.split_a()

        b1_local = self.in_queue_b1.deque(asc.half)
        a2_local = self.in_queue_a2.deque(asc.half)
        c2_local = self.out_queue_co2.alloc_tensor(asc.float32)
        # split matrix b into 2 parts, [32, 16] and [32, 16]
        for i in range(2):
            self.split_b(b1_local, i)
            self.compute(a2_local)
            self.aggregate(c2_local, i)
        self.in_queue_b1.free_tensor(b1_local)
        self.in_queue_a2.free_tensor(a2_local)
        self.out_queue_co2.enque(c2_local)

        self.copy_out()

    def copy_nd2nz(self, dst, src, height: int, width: int) -> None:
        for i in range(width // 16):
            src_offset = i * 16
            dst_offset = i * 16 * height
            asc.data_copy(dst[dst_offset], src[src_offset], asc.DataCopyParams(height, 1, width // 16 - 1, 0))

    def copy_in(self) -> None:
        a1_local = self.in_queue_a1.alloc_tensor(asc.half)
        b1_local = self.in_queue_b1.alloc_tensor(asc.half)

        self.copy_nd2nz(a1_local, self.a_gm, self.m, self.k)
        self.copy_nd2nz(b1_local, self.b_gm, self.k, self.n)

        self.in_queue_a1.enque(a1_local)
        self.in_queue_b1.enque(b1_local)

    def split_a(self) -> None:
        src_offset = 0
        dst_offset = 0
        a1_local = self.in_queue_a1.deque(asc.half)
        a2_local = self.in_queue_a2.alloc_tensor(asc.half)

        # transform nz to zz
        for _ in range(self.m_blocks):
            load_data_params = asc.LoadData2dParams(
                repeat_times=self.k_blocks, src_stride=self.m_blocks, if_transpose=False)

            asc.load_data(a2_local[dst_offset], a1_local[src_offset], load_data_params)

            src_offset += 16 * 16
            dst_offset += self.k * 16

        self.in_queue_a2.enque(a2_local)
        self.in_queue_a1.free_tensor(a1_local)

    def split_b(self, b1_local, b_split_idx: int) -> None:
        b2_local = self.in_queue_b2.alloc_tensor(asc.half)

        # transform nz to zn
        load_data_params = asc.LoadData2dParams(repeat_times=self.k_blocks, src_stride=1, if_transpose=True)

        asc.load_data(b2_local, b1_local[b_split_idx * self.b_size // 2], load_data_params)

        self.in_queue_b2.enque(b2_local)

    def compute(self, a2_local) -> None:
        b2_local = self.in_queue_b2.deque(asc.half)
        c1_local = self.out_queue_co1.alloc_tensor(asc.float32)

        asc.mmad(c1_local, a2_local, b2_local,
                 asc.MmadParams(self.m, self.n // 2, self.k, False, 0, False, False, False))

        self.out_queue_co1.enque(c1_local)
        self.in_queue_b2.free_tensor(b2_local)

    def aggregate(self, c2_local, b_split_idx: int) -> None:
        c1_local = self.out_queue_co1.deque(asc.float32)

        data_copy_params = asc.DataCopyParams(block_count=1, block_len=2)
        enhanced_params = asc.DataCopyEnhancedParams(block_mode=asc.BlockMode.BLOCK_MODE_MATRIX)
        asc.data_copy(c2_local[b_split_idx * self.c_size // 2], c1_local, data_copy_params, enhanced_params)

        self.out_queue_co1.free_tensor(c1_local)

    def copy_out(self) -> None:
        c2_local = self.out_queue_co2.deque(asc.float32)

        # transform nz to nd
        for i in range(self.n_blocks):
            asc.data_copy(self.c_gm[i * 16], c2_local[i * self.m * 16],
                          asc.DataCopyParams(self.m, 2, 0, (self.n_blocks - 1) * 2))

        self.out_queue_co2.free_tensor(c2_local)


@asc.kernel
def matmul_custom(a, b, c):
    op = KernelMatmul()
    op.init(a, b, c)
    op.process()


def main() -> int:
    aclsim.init(chip="310P")
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (32, 32)).astype(np.float16)
    b = rng.uniform(-1, 1, (32, 32)).astype(np.float16)
    c = np.zeros((32, 32), np.float32)
    da, db, dc = aclsim.malloc(a.nbytes), aclsim.malloc(b.nbytes), aclsim.malloc(c.nbytes)
    aclsim.memcpy(da, a.nbytes, a, a.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    aclsim.memcpy(db, b.nbytes, b, b.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)

    launch = matmul_custom[1, None, stream](da, db, dc)  # matmul_custom_do(blockDim = 1, ...)
    aclsim.synchronize_stream(stream)
    aclsim.memcpy(c, c.nbytes, dc, c.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)

    want = a.astype(np.float32) @ b.astype(np.float32)
    err = float(np.abs(c - want).max())
    report = launch.report
    print(f"matmul_custom<<<1>>> on {report.chip.name}: max |c - a @ b| = {err:.2e}; "
          f"{launch.instructions} instructions, {report.total_cycles:.0f} cycles, "
          f"{len(launch.diagnostics)} diagnostics")
    for d in (da, db, dc):
        aclsim.free(d)
    aclsim.destroy_stream(stream)
    aclsim.reset_device(0)
    assert aclsim.finalize() == []
    if err > 1e-4 or launch.diagnostics:
        print("FAIL")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
