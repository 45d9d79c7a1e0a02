"""A kernel written with no synchronization at all, made correct by ``auto_sync=True``.

Plain static buffers (TBuf), two of each for ping-pong, and not one set_flag: aclsim's sync
passes find every cross-pipe dependence from the memory ranges, insert logical flags,
give them the few hardware event ids (8 per pipe pair on the 910B preset), and verify the
result. The launch reports the ids used; the sanitizer would have caught the races had the
kernel run without ``auto_sync``.
"""

import sys

import numpy as np

import aclsim
import aclsim.kernel as asc
from aclsim.errors import TaskError

N = 8 * 4096
BLOCKS = 8
PER_BLOCK = N // BLOCKS
TILE = 1024
F32 = asc.float32


def body(x, y, z):
    pipe = asc.TPipe()
    ub = asc.TBuf(asc.QuePosition.VECCALC)
    pipe.init_buffer(ub, 6 * TILE * 4)
    xs = [ub.get_with_offset(F32, TILE, (0 + k) * TILE * 4) for k in range(2)]
    ys = [ub.get_with_offset(F32, TILE, (2 + k) * TILE * 4) for k in range(2)]
    zs = [ub.get_with_offset(F32, TILE, (4 + k) * TILE * 4) for k in range(2)]
    gx, gy, gz = asc.GlobalTensor(F32), asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    base = asc.get_block_idx() * PER_BLOCK
    for g, p in ((gx, x), (gy, y), (gz, z)):
        g.set_global_buffer(p.cast(F32) + base, PER_BLOCK)
    for i in range(PER_BLOCK // TILE):
        k = i % 2
        asc.data_copy(xs[k], gx[i * TILE], TILE)
        asc.data_copy(ys[k], gy[i * TILE], TILE)
        asc.add(zs[k], xs[k], ys[k], TILE)
        asc.muls(zs[k], zs[k], 0.5, TILE)
        asc.data_copy(gz[i * TILE], zs[k], TILE)


average = asc.kernel(body, auto_sync=True)
average_unsynced = asc.kernel(body)


def main() -> None:
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal(N, dtype=np.float32), rng.standard_normal(N, dtype=np.float32)
    dx, dy, dz = (aclsim.malloc(x.nbytes) for _ in range(3))
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    aclsim.memcpy(dy, y.nbytes, y, y.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)

    try:
        average_unsynced[BLOCKS](dx, dy, dz)
        aclsim.synchronize_stream()
        raise AssertionError("the sanitizer missed the races")
    except TaskError as exc:
        print(f"without syncs the sanitizer reports: {str(exc)[:160]}...")

    launch = average[BLOCKS](dx, dy, dz)
    aclsim.synchronize_stream()
    z = np.empty_like(x)
    aclsim.memcpy(z, z.nbytes, dz, z.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    assert np.array_equal(z, (x + y) * np.float32(0.5)), "z != (x + y) / 2"
    stats = launch.sync_stats[0]
    print(f"auto_sync, block 0: {stats.summary()}")
    pool = aclsim.get_chip("910B").events_per_pipe_pair
    assert all(n <= pool for n in stats.alloc.ids_used.values()) and stats.alloc.ids_used
    print(f"{launch.report.total_cycles:.0f} cycles, bottleneck {launch.report.bottleneck.track_name}")
    for d in (dx, dy, dz):
        aclsim.free(d)
    aclsim.reset_device(0)
    assert aclsim.finalize() == []
    print("PASS")


if __name__ == "__main__":
    sys.exit(main())
