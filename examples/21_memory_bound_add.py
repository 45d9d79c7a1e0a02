"""A memory-bound add on every core reaches the chip's HBM bandwidth, and never exceeds it.

z = x + y in float32 on all vector cores of the 910B preset, double buffered, tiles as large
as the UB allows. The vector work is tiny next to the data movement, so the launch is bound
by global memory: the core model shares the HBM bandwidth among the cores' copies.
"""

import sys

import numpy as np

import aclsim
import aclsim.kernel as asc
from aclsim.isa import Pipe

TILE = 7680  # float32 elements: 30 KiB; x, y, z double buffered = 180 KiB of UB
TILES = 8
F32 = asc.float32


@asc.kernel
def add_all_cores(x, y, z):
    per_block = TILES * TILE
    base = per_block * asc.get_block_idx()
    gx, gy, gz = asc.GlobalTensor(F32), asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    gx.set_global_buffer(x.cast(F32) + base, per_block)
    gy.set_global_buffer(y.cast(F32) + base, per_block)
    gz.set_global_buffer(z.cast(F32) + base, per_block)
    pipe = asc.TPipe()
    qx, qy = asc.TQue(asc.QuePosition.VECIN, 1), asc.TQue(asc.QuePosition.VECIN, 1)
    qz = asc.TQue(asc.QuePosition.VECOUT, 1)
    for q in (qx, qy, qz):
        pipe.init_buffer(q, 2, TILE * 4)
    for i in range(TILES):
        xl, yl = qx.alloc_tensor(F32), qy.alloc_tensor(F32)
        asc.data_copy(xl, gx[i * TILE], TILE)
        asc.data_copy(yl, gy[i * TILE], TILE)
        qx.enque(xl)
        qy.enque(yl)
        xl, yl = qx.deque(F32), qy.deque(F32)
        zl = qz.alloc_tensor(F32)
        asc.add(zl, xl, yl, TILE)
        qz.enque(zl)
        qx.free_tensor(xl)
        qy.free_tensor(yl)
        zl = qz.deque(F32)
        asc.data_copy(gz[i * TILE], zl, TILE)
        qz.free_tensor(zl)


def main() -> None:
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    chip = aclsim.get_chip("910B")
    blocks = chip.cores
    n = blocks * TILES * TILE
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(n, dtype=np.float32), rng.standard_normal(n, dtype=np.float32)
    dx, dy, dz = (aclsim.malloc(x.nbytes) for _ in range(3))
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    aclsim.memcpy(dy, y.nbytes, y, y.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    launch = add_all_cores[blocks](dx, dy, dz)
    aclsim.synchronize_stream()
    z = np.empty_like(x)
    aclsim.memcpy(z, z.nbytes, dz, z.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    assert np.array_equal(z, x + y), "z != x + y"
    report = launch.report
    frac = report.bandwidth_fraction
    print(f"add<<<{blocks}>>> of {n} float32: {report.total_cycles:.0f} cycles = "
          f"{report.microseconds:.1f} us, "
          f"{report.gm_bytes / 2**20:.0f} MiB moved by the cores, {report.hbm_bytes / 2**20:.0f} MiB "
          f"through HBM (z stays in the L2 cache) = {frac:.1%} of the {chip.dram_bandwidth / 1e9:.0f} GB/s "
          f"HBM peak; bottleneck {report.bottleneck.track_name}, VECTOR busy "
          f"{report.utilization()[Pipe.V]:.1%}")
    assert 0.9 <= frac <= 1.0, frac
    for d in (dx, dy, dz):
        aclsim.free(d)
    aclsim.reset_device(0)
    assert aclsim.finalize() == []
    print("PASS")


if __name__ == "__main__":
    sys.exit(main())
