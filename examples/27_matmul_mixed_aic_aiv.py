"""Example 17's Matmul + LeakyRelu as a mixed kernel: one AIC serves the Matmul of its two AIVs.

On the split A2 chips the cube unit (AIC) and the vector units (AIV) are separate cores.  Ascend's
Matmul samples launch a mixed kernel (CANN's default kernel mode): ``blockDim`` groups of one AIC and
two AIVs; the vector code calls the Matmul, ``REGIST_MATMUL_OBJ`` makes the AIC serve those calls
(kernel/kfc.py) and the AIVs run LeakyRelu on each block the AIC hands them through global memory.
This runs the same kernel three ways on the 910B and checks each against NumPy:

1. as example 17 launches it: two blocks, each one core with every pipe (what a kernel with no
   declared type runs on);
2. declared ``KERNEL_TYPE_MIX_AIC_1_2`` with one group: the AIVs are the tiling's two cores, their
   ``Iterate``/``GetTensorC`` are messages the AIC serves one at a time;
3. the same group with the asynchronous Matmul: ``Iterate<false>()`` once, the blocks taken out of
   the workspace by ``GetTensorC<false>`` while the AIC goes on computing the next ones.

It prints each launch's modeled time and, for the mixed ones, what each core type did.
"""

import importlib.util
import sys
from pathlib import Path

import numpy as np

import aclsim
import aclsim.kernel as asc
from aclsim.sim.report import by_core_type


def _example_17():
    path = Path(__file__).resolve().parent / "17_kernel_matmul_api.py"
    spec = importlib.util.spec_from_file_location("example_17_matmul_api", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


EX = _example_17()


@asc.kernel
def mixed(a, b, bias, c, workspace, tiling, alpha):
    asc.kernel_task_type_default(asc.KERNEL_TYPE_MIX_AIC_1_2)  # one AIC and two AIVs per block
    EX.matmul_leakyrelu_custom.fn(a, b, bias, c, workspace, tiling, alpha)


@asc.kernel
def mixed_async(a, b, bias, c, workspace, tiling, alpha):
    asc.kernel_task_type_default(asc.KERNEL_TYPE_MIX_AIC_1_2)
    k = EX.MatmulLeakyKernel(asc.half, asc.half, asc.float32, asc.float32)
    pipe = asc.TPipe()
    asc.regist_matmul_obj(pipe, workspace, k.matmul_obj, tiling)  # the AIC serves from here on
    k.init(a, b, bias, c, workspace, tiling, alpha, pipe)
    mm, t = k.matmul_obj, tiling
    mm.set_tensor_a(k.a_global)
    mm.set_tensor_b(k.b_global)
    mm.set_bias(k.bias_global)
    ws = asc.GlobalTensor(asc.float32)
    ws.set_global_buffer(workspace)
    mm.set_workspace(ws[asc.get_block_idx() * t.single_core_m * t.single_core_n])  # this AIV's part
    mm.iterate(sync=False)  # Iterate<false>(): every block into the workspace, the AIV goes on
    for i in range(t.single_core_m * t.single_core_n // (t.base_m * t.base_n)):
        k.relu_out_local = k.relu_out_queue.alloc_tensor(asc.float32)
        mm.get_tensor_c(k.relu_out_local, False, True, sync=False)  # waits for this block only
        k.leaky_relu_compute()
        k.copy_out(i)
    mm.end()


def main() -> None:
    chip = "910B"
    aclsim.init(chip=chip)
    aclsim.set_device(0)
    tiling = EX.tiling_func(chip)
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (EX.M, EX.K)).astype(np.float16)
    b = rng.uniform(-1, 1, (EX.K, EX.N)).astype(np.float16)
    bias = rng.uniform(-1, 1, EX.N).astype(np.float32)
    y = a.astype(np.float32) @ b.astype(np.float32) + bias
    ref = np.where(y >= 0, y, y * np.float32(EX.ALPHA))
    bufs = [aclsim.malloc(x.nbytes) for x in (a, b, bias)] + [aclsim.malloc(ref.nbytes)]
    for buf, x in zip(bufs, (a, b, bias), strict=False):
        aclsim.memcpy(buf, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    # the workspace: a block of C per AIV (synchronous), or each AIV's whole part (asynchronous)
    workspace = aclsim.malloc(tiling.used_core_num * tiling.single_core_m * tiling.single_core_n * 4)
    runs = [("two cores with every pipe", EX.matmul_leakyrelu_custom, tiling.used_core_num),
            ("one AIC serving two AIVs", mixed, 1),
            ("the same, asynchronous Iterate", mixed_async, 1)]
    for name, k, blocks in runs:
        aclsim.memset(bufs[3], ref.nbytes, 0, ref.nbytes)
        launch = k[blocks, None](*bufs, workspace, tiling, EX.ALPHA)
        aclsim.synchronize_device()
        c = np.zeros_like(ref)
        aclsim.memcpy(c, c.nbytes, bufs[3], c.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
        np.testing.assert_allclose(c, ref, rtol=1e-4, atol=1e-4)
        report = launch.report
        print(f"{name}: {report.microseconds:.2f} us modeled, {launch.instructions} instructions")
        for kind, fig in by_core_type(report).items():
            pipes = ", ".join(f"{p} {row['ratio']:.0%}" for p, row in fig["pipes"].items())
            print(f"  {kind} x{fig['cores']}: {fig['microseconds']:.2f} us resident; busy {pipes}")
    for buf in (*bufs, workspace):
        aclsim.free(buf)
    print("PASS")


if __name__ == "__main__":
    main()
