"""Port: Ascend C's tensor-allocation sample (TPipe queues, LocalMemAllocator, placed tensors), line by line.

Source: cannmirror/asc-devkit, commit 0da921b91aeb2abdc6e8d74423b0bbe7040c3fd1,
examples/01_simd_cpp_api/03_basic_api/04_memory_management/tensor_allocation/tensor_allocation.asc
(``TensorAllocationKernel``, the kernel, ``kernel_tensor_allocate``, ``VerifyResult`` and ``main``).

z = x + y on 1024 floats, with the UB tensors made three ways: scenario 1 by a TPipe and TQues
(the queues carry the syncs), scenario 2 by a ``LocalMemAllocator<Hardware::UB>`` and scenario 3 by
``LocalTensor(pos, addr, len)`` at addresses the kernel computes (scenarios 2 and 3 set their flags
by hand).  Scenario 4 is the Ascend 950's (``__NPU_ARCH__ == 3510``: Reg vector functions) and,
as in the source on every other chip, does nothing here.

How it maps:
- ``AscendC::LocalMemAllocator<Hardware::UB> ubAllocator; ubAllocator.Alloc<T, N>()`` /
  ``Alloc<T>(N)`` -> ``asc.LocalMemAllocator(asc.Hardware.UB)``, ``alloc(T, N)``;
  ``LocalTensor<T>(pos, addr, len)`` -> ``asc.local_tensor(T, pos, addr, len)``.
- ``if constexpr (scenarioNum == k)`` (the SCENARIO_NUM macro) -> the kernel argument ``scenario_num``;
  the template's ``T, TOTAL_LENGTH`` -> arguments of the kernel class.
"""

from __future__ import annotations

import sys

import numpy as np

import aclsim
import aclsim.kernel as asc

CHIP = "910B"
E = asc.HardEvent


class TensorAllocationKernel:
    def __init__(self, t, total_length: int) -> None:
        self.t, self.total_length = t, total_length
        self.x_global = asc.GlobalTensor(t)
        self.y_global = asc.GlobalTensor(t)
        self.z_global = asc.GlobalTensor(t)

    def init(self, x, y, z) -> None:
        self.x_global.set_global_buffer(x.cast(self.t), self.total_length)
        self.y_global.set_global_buffer(y.cast(self.t), self.total_length)
        self.z_global.set_global_buffer(z.cast(self.t), self.total_length)

    def process1(self) -> None:
        t, n = self.t, self.total_length
        pipe = asc.TPipe()
        in_queue_x = asc.TQue(asc.TPosition.VECIN, 1)
        in_queue_y = asc.TQue(asc.TPosition.VECIN, 1)
        out_queue_z = asc.TQue(asc.TPosition.VECOUT, 1)
        pipe.init_buffer(in_queue_x, 1, n * t.itemsize)
        pipe.init_buffer(in_queue_y, 1, n * t.itemsize)
        pipe.init_buffer(out_queue_z, 1, n * t.itemsize)

        x_local = in_queue_x.alloc_tensor(t)
        y_local = in_queue_y.alloc_tensor(t)
        asc.data_copy(x_local, self.x_global, n)
        asc.data_copy(y_local, self.y_global, n)
        in_queue_x.enque(x_local)
        in_queue_y.enque(y_local)

        x_local = in_queue_x.deque(t)
        y_local = in_queue_y.deque(t)
        z_local = out_queue_z.alloc_tensor(t)
        asc.add(z_local, x_local, y_local, n)
        out_queue_z.enque(z_local)
        in_queue_x.free_tensor(x_local)
        in_queue_y.free_tensor(y_local)

        z_local = out_queue_z.deque(t)
        asc.data_copy(self.z_global, z_local, n)
        out_queue_z.free_tensor(z_local)

    def process2(self) -> None:
        t, n = self.t, self.total_length
        ub_allocator = asc.LocalMemAllocator(asc.Hardware.UB)
        x_local = ub_allocator.alloc(t, n)
        y_local = ub_allocator.alloc(t, n)
        z_local = ub_allocator.alloc(t, n)

        asc.data_copy(x_local, self.x_global, n)
        asc.data_copy(y_local, self.y_global, n)

        asc.set_flag(E.MTE2_V, 0)
        asc.wait_flag(E.MTE2_V, 0)

        asc.add(z_local, x_local, y_local, n)

        asc.set_flag(E.V_MTE3, 0)
        asc.wait_flag(E.V_MTE3, 0)

        asc.data_copy(self.z_global, z_local, n)

    def process3(self) -> None:
        t, n = self.t, self.total_length
        x_addr = 0
        y_addr = n * t.itemsize
        z_addr = y_addr + n * t.itemsize

        x_local = asc.local_tensor(t, asc.TPosition.VECIN, x_addr, n)
        y_local = asc.local_tensor(t, asc.TPosition.VECIN, y_addr, n)
        z_local = asc.local_tensor(t, asc.TPosition.VECOUT, z_addr, n)

        asc.data_copy(x_local, self.x_global, n)
        asc.data_copy(y_local, self.y_global, n)

        asc.set_flag(E.MTE2_V, 0)
        asc.wait_flag(E.MTE2_V, 0)

        asc.add(z_local, x_local, y_local, n)

        asc.set_flag(E.V_MTE3, 0)
        asc.wait_flag(E.V_MTE3, 0)

        asc.data_copy(self.z_global, z_local, n)

    def process4(self) -> None:
        pass  # Ascend 950 only (Reg vector functions): compiled to nothing on the other chips


@asc.kernel
def tensor_allocate_custom(x, y, z, total_length: int, scenario_num: int):
    asc.init_soc_state()
    op = TensorAllocationKernel(asc.float32, total_length)
    op.init(x, y, z)
    if scenario_num == 1:
        op.process1()
    elif scenario_num == 2:
        op.process2()
    elif scenario_num == 3:
        op.process3()
    elif scenario_num == 4:
        op.process4()
    asc.pipe_barrier(asc.PIPE_ALL)


def kernel_tensor_allocate(x: np.ndarray, y: np.ndarray, scenario_num: int) -> tuple[np.ndarray, float]:
    data_byte_size = x.nbytes
    block_num = 1
    stream = aclsim.create_stream()
    x_device, y_device, z_device = (aclsim.malloc(data_byte_size) for _ in range(3))
    aclsim.memcpy(x_device, data_byte_size, x, data_byte_size, aclsim.MemcpyKind.HOST_TO_DEVICE)
    aclsim.memcpy(y_device, data_byte_size, y, data_byte_size, aclsim.MemcpyKind.HOST_TO_DEVICE)

    launch = tensor_allocate_custom[block_num, stream](x_device, y_device, z_device, x.size, scenario_num)
    aclsim.synchronize_stream(stream)
    assert not launch.diagnostics, launch.diagnostics

    z = np.empty_like(x)
    aclsim.memcpy(z, data_byte_size, z_device, data_byte_size, aclsim.MemcpyKind.DEVICE_TO_HOST)
    for b in (x_device, y_device, z_device):
        aclsim.free(b)
    aclsim.destroy_stream(stream)
    return z, launch.report.total_cycles


def verify_result(output: np.ndarray, golden: np.ndarray) -> int:
    tolerance = np.float32(1e-3)
    bad = np.flatnonzero(np.abs(output - golden) > tolerance)
    if bad.size:
        i = int(bad[0])
        print(f"test failed! diff at index {i}: output={output[i]}, golden={golden[i]}")
        return 1
    return 0


def main() -> int:
    total_length = 1024
    i = np.arange(total_length)
    x = ((i % 100) * np.float32(0.1)).astype(np.float32)
    y = (((i + 50) % 100) * np.float32(0.2)).astype(np.float32)
    golden = x + y

    aclsim.init(chip=CHIP)
    aclsim.set_device(0)
    failed = 0
    for scenario_num in (1, 2, 3):
        output, cycles = kernel_tensor_allocate(x, y, scenario_num)
        rc = verify_result(output, golden)
        exact = bool(np.array_equal(output, golden))
        print(f"scenario {scenario_num}: {cycles:.0f} cycles,", "ok" if rc == 0 and exact else "MISMATCH")
        failed += rc or (not exact)
    aclsim.reset_device(0)
    assert aclsim.finalize() == []
    if failed:
        print("FAIL")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
