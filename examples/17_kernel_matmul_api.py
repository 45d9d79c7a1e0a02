"""MatmulLeakyReluCustom, Ascend's high-level-API Matmul sample, ported line by line.

C = LeakyRelu(A @ B + bias, alpha): A 1024 x 256 (float16), B 256 x 640 (float16), bias 640
(float32), C 1024 x 640 (float32), alpha 0.001, on two cores, as the sample's tiling
function and kernel do:

- host: ``MultiCoreMatmulTiling`` with ``SetDim(2)``, A/B/C/bias types (C at VECIN: each
  block of C comes to the vector unit's UB), ``SetFixSplit(128, 128, -1)``, bias, then
  ``GetTiling`` and ``stepM = stepN = 1``;
- kernel: ``REGIST_MATMUL_OBJ``, per-core offsets from the tiling (``CalcOffset``),
  ``SetTensorA/B``, ``SetBias``, then ``while (Iterate())``: ``GetTensorC`` into a VECOUT
  tensor (sequential write: one baseM x baseN block), ``LeakyRelu`` on it, ``DataCopy``
  of the block to its place in C; ``End``.

The sample passes ``GetSysWorkSpacePtr()`` to REGIST_MATMUL_OBJ; here the launch's
workspace argument (``block_dim x baseM x baseN x 4`` bytes) is given instead: on the split
A2 chips a block of C reaches UB through global memory.  Checked against NumPy.
"""

import numpy as np

import aclsim
import aclsim.kernel as asc
from aclsim.isa import Pipe

M, N, K = 1024, 640, 256
BASE_M, BASE_N = 128, 128
ALPHA = 0.001
USED_DIM = 2
P = asc.TPosition


def tiling_func(chip: str) -> asc.TCubeTiling:
    """The sample's host tiling function (``optiling::TilingFunc``)."""
    cube_tiling = asc.MultiCoreMatmulTiling(chip)
    cube_tiling.set_dim(USED_DIM)  # the number of cores of the multi-core computation
    cube_tiling.set_a_type(P.GM, asc.CubeFormat.ND, asc.DataType.DT_FLOAT16)
    cube_tiling.set_b_type(P.GM, asc.CubeFormat.ND, asc.DataType.DT_FLOAT16)
    cube_tiling.set_c_type(P.VECIN, asc.CubeFormat.ND, asc.DataType.DT_FLOAT)
    cube_tiling.set_bias_type(P.GM, asc.CubeFormat.ND, asc.DataType.DT_FLOAT)
    cube_tiling.set_shape(M, N, K)
    cube_tiling.set_org_shape(M, N, K)
    cube_tiling.set_fix_split(BASE_M, BASE_N, -1)  # fixed baseM = 128, baseN = 128
    cube_tiling.set_bias(True)
    cube_tiling.set_buffer_space(-1, -1, -1)
    tiling = asc.TCubeTiling()
    if cube_tiling.get_tiling(tiling) == -1:
        raise RuntimeError("GetTiling failed")
    tiling.step_m = 1
    tiling.step_n = 1
    return tiling


def ceiling(a: int, b: int) -> int:
    return (a + b - 1) // b if b else 0


class MatmulLeakyKernel:
    def __init__(self, a_type, b_type, c_type, bias_type) -> None:
        self.a_type, self.b_type, self.c_type, self.bias_type = a_type, b_type, c_type, bias_type
        self.matmul_obj = asc.Matmul(
            asc.MatmulType(P.GM, asc.CubeFormat.ND, a_type),
            asc.MatmulType(P.GM, asc.CubeFormat.ND, b_type),
            asc.MatmulType(P.VECIN, asc.CubeFormat.ND, c_type),
            asc.MatmulType(P.GM, asc.CubeFormat.ND, bias_type),
        )
        self.a_global, self.b_global = asc.GlobalTensor(a_type), asc.GlobalTensor(b_type)
        self.c_global, self.bias_global = asc.GlobalTensor(c_type), asc.GlobalTensor(bias_type)
        self.relu_out_queue = asc.TQue(asc.QuePosition.VECOUT, 1)
        self.relu_out_local = None

    def init(self, a, b, bias, c, workspace, tiling: asc.TCubeTiling, alpha: float, pipe: asc.TPipe) -> None:
        self.tiling, self.alpha = tiling, alpha
        self.a_global.set_global_buffer(a, tiling.m * tiling.ka)
        self.b_global.set_global_buffer(b, tiling.kb * tiling.n)
        self.c_global.set_global_buffer(c, tiling.m * tiling.n)
        self.bias_global.set_global_buffer(bias, tiling.n)
        offset_a, offset_b, offset_c, offset_bias = self.calc_offset(asc.get_block_idx(), tiling)
        self.a_global = self.a_global[offset_a]
        self.b_global = self.b_global[offset_b]
        self.c_global = self.c_global[offset_c]
        self.bias_global = self.bias_global[offset_bias]
        pipe.init_buffer(self.relu_out_queue, 1, tiling.base_m * tiling.base_n * self.c_type.itemsize)

    def process(self, pipe: asc.TPipe) -> None:
        compute_round = 0
        self.matmul_obj.set_tensor_a(self.a_global)
        self.matmul_obj.set_tensor_b(self.b_global)
        self.matmul_obj.set_bias(self.bias_global)
        while self.matmul_obj.iterate():  # one baseM x baseN block per Iterate (sync)
            self.matmul_compute()
            self.leaky_relu_compute()
            self.copy_out(compute_round)
            compute_round += 1
        self.matmul_obj.end()

    def matmul_compute(self) -> None:
        self.relu_out_local = self.relu_out_queue.alloc_tensor(self.c_type)
        self.matmul_obj.get_tensor_c(self.relu_out_local, False, True)

    def leaky_relu_compute(self) -> None:
        asc.leaky_relu(
            self.relu_out_local, self.relu_out_local, self.alpha, self.tiling.base_m * self.tiling.base_n
        )
        self.relu_out_queue.enque(self.relu_out_local)

    def copy_out(self, count: int) -> None:
        self.relu_out_queue.deque(self.c_type)
        t = self.tiling
        round_m = t.single_core_m // t.base_m
        start_offset = count % round_m * t.base_m * t.n + count // round_m * t.base_n
        copy_param = asc.DataCopyParams(
            t.base_m, t.base_n * self.c_type.itemsize // 32, 0, (t.n - t.base_n) * self.c_type.itemsize // 32
        )
        asc.data_copy(self.c_global[start_offset], self.relu_out_local, copy_param)
        self.relu_out_queue.free_tensor(self.relu_out_local)

    @staticmethod
    def calc_offset(block_idx: int, tiling: asc.TCubeTiling) -> tuple[int, int, int, int]:
        m_single_blocks = ceiling(tiling.m, tiling.single_core_m)
        m_core_indx = block_idx % m_single_blocks
        n_core_indx = block_idx // m_single_blocks
        offset_a = m_core_indx * tiling.ka * tiling.single_core_m
        offset_b = n_core_indx * tiling.single_core_n
        offset_c = m_core_indx * tiling.n * tiling.single_core_m + n_core_indx * tiling.single_core_n
        offset_bias = n_core_indx * tiling.single_core_n
        return offset_a, offset_b, offset_c, offset_bias


@asc.kernel
def matmul_leakyrelu_custom(a, b, bias, c, workspace, tiling, alpha):
    matmul_leaky_kernel = MatmulLeakyKernel(asc.half, asc.half, asc.float32, asc.float32)
    pipe = asc.TPipe()
    asc.regist_matmul_obj(pipe, workspace, matmul_leaky_kernel.matmul_obj, tiling)  # the Matmul object
    matmul_leaky_kernel.init(a, b, bias, c, workspace, tiling, alpha, pipe)
    matmul_leaky_kernel.process(pipe)


def main() -> None:
    chip = "910B"
    aclsim.init(chip=chip)
    aclsim.set_device(0)
    tiling = tiling_func(chip)
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (M, K)).astype(np.float16)
    b = rng.uniform(-1, 1, (K, N)).astype(np.float16)
    bias = rng.uniform(-1, 1, N).astype(np.float32)
    c = np.zeros((M, N), np.float32)
    ws_bytes = tiling.used_core_num * tiling.base_m * tiling.base_n * c.itemsize
    bufs = [aclsim.malloc(x.nbytes) for x in (a, b, bias, c)]
    for buf, x in zip(bufs, (a, b, bias), strict=False):
        aclsim.memcpy(buf, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    workspace = aclsim.malloc(ws_bytes)
    launch = matmul_leakyrelu_custom[tiling.used_core_num, None](*bufs, workspace, tiling, ALPHA)
    aclsim.synchronize_device()
    aclsim.memcpy(c, c.nbytes, bufs[3], c.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    y = a.astype(np.float32) @ b.astype(np.float32) + bias
    ref = np.where(y >= 0, y, y * np.float32(ALPHA))
    np.testing.assert_allclose(c, ref, rtol=1e-4, atol=1e-4)
    report = launch.report
    util = report.utilization()
    print(
        f"tiling: {tiling.used_core_num} cores, singleCore {tiling.single_core_m} x {tiling.single_core_n} "
        f"x {tiling.single_core_k}, base {tiling.base_m} x {tiling.base_n} x {tiling.base_k}, "
        f"stepKa {tiling.step_ka}, depthA1 {tiling.depth_a1}"
    )
    print(
        f"matmul+leakyrelu {M}x{K} @ {K}x{N} on {launch.block_dim} blocks: {report.total_cycles:.0f} cycles "
        f"({report.microseconds:.2f} us), {launch.instructions} instructions"
    )
    print(
        "utilization: "
        + ", ".join(
            f"{p.track_name} {util[p]:.0%}"
            for p in (Pipe.M, Pipe.MTE1, Pipe.MTE2, Pipe.FIX, Pipe.V, Pipe.MTE3)
        )
    )
    for buf in (*bufs, workspace):
        aclsim.free(buf)
    aclsim.reset_device(0)
    assert aclsim.finalize() == []
    print("PASS")


if __name__ == "__main__":
    main()
