"""KernelAdd, the canonical Ascend C sample, in aclsim's kernel language.

float16, 8 blocks, TILE_NUM 8, BUFFER_NUM 2 (double buffering), exactly as the sample
(reference/ascend-api.md section 2.4); checked bit for bit against NumPy's ``x + y``.
"""

import numpy as np

import aclsim
import aclsim.kernel as asc

TOTAL_LENGTH = 8 * 2048
USE_CORE_NUM = 8
BLOCK_LENGTH = TOTAL_LENGTH // USE_CORE_NUM  # 2048 per core
TILE_NUM = 8
BUFFER_NUM = 2  # double buffer
TILE_LENGTH = BLOCK_LENGTH // TILE_NUM // BUFFER_NUM  # 128 elements


class KernelAdd:
    def __init__(self) -> None:
        self.pipe = asc.TPipe()
        self.in_queue_x = asc.TQue(asc.QuePosition.VECIN, BUFFER_NUM)
        self.in_queue_y = asc.TQue(asc.QuePosition.VECIN, BUFFER_NUM)
        self.out_queue_z = asc.TQue(asc.QuePosition.VECOUT, BUFFER_NUM)
        self.x_gm = asc.GlobalTensor(asc.half)
        self.y_gm = asc.GlobalTensor(asc.half)
        self.z_gm = asc.GlobalTensor(asc.half)

    def init(self, x, y, z) -> None:
        offset = BLOCK_LENGTH * asc.get_block_idx()
        self.x_gm.set_global_buffer(x.cast(asc.half) + offset, BLOCK_LENGTH)
        self.y_gm.set_global_buffer(y.cast(asc.half) + offset, BLOCK_LENGTH)
        self.z_gm.set_global_buffer(z.cast(asc.half) + offset, BLOCK_LENGTH)
        self.pipe.init_buffer(self.in_queue_x, BUFFER_NUM, TILE_LENGTH * 2)
        self.pipe.init_buffer(self.in_queue_y, BUFFER_NUM, TILE_LENGTH * 2)
        self.pipe.init_buffer(self.out_queue_z, BUFFER_NUM, TILE_LENGTH * 2)

    def process(self) -> None:
        for i in range(TILE_NUM * BUFFER_NUM):
            self.copy_in(i)
            self.compute(i)
            self.copy_out(i)

    def copy_in(self, i: int) -> None:
        x_local = self.in_queue_x.alloc_tensor(asc.half)
        y_local = self.in_queue_y.alloc_tensor(asc.half)
        asc.data_copy(x_local, self.x_gm[i * TILE_LENGTH], TILE_LENGTH)
        asc.data_copy(y_local, self.y_gm[i * TILE_LENGTH], TILE_LENGTH)
        self.in_queue_x.enque(x_local)
        self.in_queue_y.enque(y_local)

    def compute(self, i: int) -> None:
        x_local = self.in_queue_x.deque(asc.half)
        y_local = self.in_queue_y.deque(asc.half)
        z_local = self.out_queue_z.alloc_tensor(asc.half)
        asc.add(z_local, x_local, y_local, TILE_LENGTH)
        self.out_queue_z.enque(z_local)
        self.in_queue_x.free_tensor(x_local)
        self.in_queue_y.free_tensor(y_local)

    def copy_out(self, i: int) -> None:
        z_local = self.out_queue_z.deque(asc.half)
        asc.data_copy(self.z_gm[i * TILE_LENGTH], z_local, TILE_LENGTH)
        self.out_queue_z.free_tensor(z_local)


@asc.kernel
def add_custom(x, y, z):
    op = KernelAdd()
    op.init(x, y, z)
    op.process()


def main() -> None:
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    rng = np.random.default_rng(0)
    x = rng.uniform(-100, 100, TOTAL_LENGTH).astype(np.float16)
    y = rng.uniform(-100, 100, TOTAL_LENGTH).astype(np.float16)
    z = np.zeros_like(x)
    nbytes = x.nbytes
    dx, dy, dz = aclsim.malloc(nbytes), aclsim.malloc(nbytes), aclsim.malloc(nbytes)
    aclsim.memcpy(dx, nbytes, x, nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    aclsim.memcpy(dy, nbytes, y, nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)

    launch = add_custom[USE_CORE_NUM, None, stream](dx, dy, dz)  # <<<blockDim, l2ctrl, stream>>>
    aclsim.synchronize_stream(stream)
    aclsim.memcpy(z, nbytes, dz, nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)

    assert np.array_equal(z.view(np.uint16), (x + y).view(np.uint16)), "z != x + y"
    report = launch.report
    print(f"add_custom<<<{USE_CORE_NUM}>>>: {launch.instructions} instructions, "
          f"{report.total_cycles:.0f} cycles = {report.microseconds:.2f} us on {report.chip.name}; "
          f"bottleneck {report.bottleneck.track_name}")
    for d in (dx, dy, dz):
        aclsim.free(d)
    aclsim.destroy_stream(stream)
    aclsim.reset_device(0)
    assert aclsim.finalize() == []
    print("PASS")


if __name__ == "__main__":
    main()
