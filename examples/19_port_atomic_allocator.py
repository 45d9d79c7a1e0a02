"""Port: Ascend C's atomic data-movement sample (LocalMemAllocator, SyncAll, SetAtomicAdd/Max), line by line.

Source: cannmirror/asc-devkit, commit 0da921b91aeb2abdc6e8d74423b0bbe7040c3fd1,
examples/01_simd_cpp_api/03_basic_api/06_atomic/data_movement_with_atomic_operations/
data_movement_with_atomic_operations.asc (``KernelSetAtomicAdd``, ``KernelSetAtomicMaxMultiInput``,
the kernel and ``main``) and scripts/gen_data.py (the data and the golden values).

Three blocks, a static-tensor kernel (no TPipe): each block carves its UB tile with a
``LocalMemAllocator<Hardware::UB>``, copies its input in, waits for every block at ``SyncAll`` and
stores its tile to the one output with an atomic mode set.  Scenario 1: every block adds the same
ones to an output of twos (golden 2 + 3 * 1 = 5); scenario 2: each block its own input, atomic
maximum into zeros (golden the elementwise maximum of the three).

How it maps:
- ``LocalMemAllocator<Hardware::UB> ub; ub.Alloc<T, SIZE>()`` -> ``asc.LocalMemAllocator(asc.Hardware.UB)``,
  ``ub.alloc(T, SIZE)``; ``SetFlag/WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0)`` -> ``set_flag``/``wait_flag``;
  ``SyncAll()`` -> ``sync_all()``; ``SetAtomicAdd<T>()``/``SetAtomicMax<T>()`` -> ``set_atomic_add(T)``/
  ``set_atomic_max(T)``; ``PipeBarrier<PIPE_ALL>()`` -> ``pipe_barrier(PIPE_ALL)``.
- ``if constexpr (scenarioNum == 1)`` (a compile-time macro) -> the kernel argument ``scenario_num``;
  the ``<<<NUM_BLOCKS, 0, stream>>>`` launch -> ``kernel[NUM_BLOCKS, stream](...)``; the host's files
  -> NumPy arrays made as gen_data.py makes them.
"""

from __future__ import annotations

import sys

import numpy as np

import aclsim
import aclsim.kernel as asc

CHIP = "910B"
E = asc.HardEvent


class KernelSetAtomicAdd:
    def __init__(self, t, size: int) -> None:
        self.t, self.size = t, size
        self.src_global, self.dst_global = asc.GlobalTensor(t), asc.GlobalTensor(t)

    def init(self, src_gm, dst_gm) -> None:
        self.src_global.set_global_buffer(src_gm.cast(self.t))
        self.dst_global.set_global_buffer(dst_gm.cast(self.t))

    def process(self) -> None:
        ub_allocator = asc.LocalMemAllocator(asc.Hardware.UB)
        src_local = ub_allocator.alloc(self.t, self.size)

        asc.disable_dma_atomic()
        asc.data_copy(src_local, self.src_global, self.size)
        asc.set_flag(E.MTE2_MTE3, 0)
        asc.wait_flag(E.MTE2_MTE3, 0)
        asc.sync_all()

        asc.set_atomic_add(self.t)
        asc.data_copy(self.dst_global, src_local, self.size)

        asc.disable_dma_atomic()


class KernelSetAtomicMaxMultiInput:
    def __init__(self, t, size: int) -> None:
        self.t, self.size = t, size
        self.src_global = [asc.GlobalTensor(t) for _ in range(3)]
        self.dst_global = asc.GlobalTensor(t)

    def init(self, src_gm0, src_gm1, src_gm2, dst_gm) -> None:
        self.src_global[0].set_global_buffer(src_gm0.cast(self.t))
        self.src_global[1].set_global_buffer(src_gm1.cast(self.t))
        self.src_global[2].set_global_buffer(src_gm2.cast(self.t))
        self.dst_global.set_global_buffer(dst_gm.cast(self.t))

    def process(self) -> None:
        ub_allocator = asc.LocalMemAllocator(asc.Hardware.UB)
        src_local = ub_allocator.alloc(self.t, self.size)

        asc.disable_dma_atomic()

        asc.data_copy(src_local, self.src_global[asc.get_block_idx()], self.size)
        asc.set_flag(E.MTE2_MTE3, 0)
        asc.wait_flag(E.MTE2_MTE3, 0)
        asc.sync_all()

        asc.set_atomic_max(self.t)
        asc.data_copy(self.dst_global, src_local, self.size)

        asc.disable_dma_atomic()


@asc.kernel
def data_movement_with_atomic_operations_custom(x, y, data_size: int, scenario_num: int):
    asc.init_soc_state()
    if scenario_num == 1:
        op = KernelSetAtomicAdd(asc.half, data_size)
        op.init(x, y)
        op.process()
    else:
        op2 = KernelSetAtomicMaxMultiInput(asc.half, data_size)
        op2.init(x, x + data_size * asc.half.itemsize, x + 2 * data_size * asc.half.itemsize, y)
        op2.process()
    asc.pipe_barrier(asc.PIPE_ALL)


def gen_golden_data(scenario_num: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """gen_data.py: (input x, input y, golden)."""
    block_length, use_core_num = 256, 3
    if scenario_num == 1:
        input_x = np.ones(block_length).astype(np.float16)
        input_y = 2 * np.ones(block_length).astype(np.float16)
        return input_x, input_y, input_y + use_core_num * input_x
    rng = np.random.RandomState(9)
    xs = [rng.uniform(lo, hi, block_length).astype(np.float16) for lo, hi in ((1, 5), (3, 7), (2, 6))]
    return np.concatenate(xs), np.zeros(block_length, np.float16), np.maximum.reduce(xs)


def main() -> int:
    num_blocks, data_size = 3, 256
    aclsim.init(chip=CHIP)
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    ok = True
    for scenario_num in (1, 2):
        x_host, y_host, golden = gen_golden_data(scenario_num)
        x_device, out_device = aclsim.malloc(x_host.nbytes), aclsim.malloc(y_host.nbytes)
        aclsim.memcpy(x_device, x_host.nbytes, x_host, x_host.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
        aclsim.memcpy(out_device, y_host.nbytes, y_host, y_host.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)

        launch = data_movement_with_atomic_operations_custom[num_blocks, stream](
            x_device, out_device, data_size, scenario_num)
        aclsim.synchronize_stream(stream)

        out_host = np.empty_like(y_host)
        n = out_host.nbytes
        aclsim.memcpy(out_host, n, out_device, n, aclsim.MemcpyKind.DEVICE_TO_HOST)
        aclsim.free(x_device)
        aclsim.free(out_device)
        good = bool(np.array_equal(out_host, golden)) and not launch.diagnostics
        ok &= good
        print(f"scenario {scenario_num}: {'atomic add' if scenario_num == 1 else 'atomic max'} of "
              f"{num_blocks} blocks, {launch.report.total_cycles:.0f} cycles:", "ok" if good else "MISMATCH")
    aclsim.destroy_stream(stream)
    aclsim.reset_device(0)
    assert aclsim.finalize() == []
    if not ok:
        print("FAIL")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
