"""KernelAdd with hand-written synchronization instead of queues (static tensors + flags).

Two ping-pong buffers per operand; event id = buffer index.  MTE2 -> V says "inputs have
landed", V -> MTE3 "result is ready", and the backward flags V -> MTE2 / MTE3 -> V say
"buffer free again" -- set only when a later tile will wait for them, so every set_flag
has its wait (the engine checks it).  The result and the flag flow match the queue version.
"""

import numpy as np

import aclsim
import aclsim.kernel as asc
from aclsim.isa import HardEvent

N = 8 * 2048
BLOCKS = 8
PER_BLOCK = N // BLOCKS
TILE = 128
TILES = PER_BLOCK // TILE
F16 = asc.float16


@asc.kernel
def add_hand_flags(x, y, z):
    pipe = asc.TPipe()
    bx, by, bz = asc.TBuf(), asc.TBuf(), asc.TBuf()
    for b in (bx, by, bz):
        pipe.init_buffer(b, 2 * TILE * 2)
    gx, gy, gz = asc.GlobalTensor(F16), asc.GlobalTensor(F16), asc.GlobalTensor(F16)
    base = asc.get_block_idx() * PER_BLOCK
    for g, p in ((gx, x), (gy, y), (gz, z)):
        g.set_global_buffer(p.cast(F16) + base, PER_BLOCK)
    xs = [bx.get_with_offset(F16, TILE, k * TILE * 2) for k in range(2)]
    ys = [by.get_with_offset(F16, TILE, k * TILE * 2) for k in range(2)]
    zs = [bz.get_with_offset(F16, TILE, k * TILE * 2) for k in range(2)]
    for i in range(TILES):
        k = i % 2
        if i >= 2:
            asc.wait_flag(HardEvent.V_MTE2, k)  # x[k], y[k] were consumed by tile i - 2
        asc.data_copy(xs[k], gx[i * TILE], TILE)
        asc.data_copy(ys[k], gy[i * TILE], TILE)
        asc.set_flag(HardEvent.MTE2_V, k)
        asc.wait_flag(HardEvent.MTE2_V, k)
        if i >= 2:
            asc.wait_flag(HardEvent.MTE3_V, k)  # z[k] was written out by tile i - 2
        asc.add(zs[k], xs[k], ys[k], TILE)
        if i + 2 < TILES:
            asc.set_flag(HardEvent.V_MTE2, k)
        asc.set_flag(HardEvent.V_MTE3, k)
        asc.wait_flag(HardEvent.V_MTE3, k)
        asc.data_copy(gz[i * TILE], zs[k], TILE)
        if i + 2 < TILES:
            asc.set_flag(HardEvent.MTE3_V, k)


def main() -> None:
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    rng = np.random.default_rng(2)
    x = rng.standard_normal(N).astype(np.float16)
    y = rng.standard_normal(N).astype(np.float16)
    z = np.zeros_like(x)
    bufs = [aclsim.malloc(x.nbytes) for _ in range(3)]
    aclsim.memcpy(bufs[0], x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    aclsim.memcpy(bufs[1], y.nbytes, y, y.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    launch = add_hand_flags[BLOCKS, None](*bufs)
    aclsim.synchronize_device()
    aclsim.memcpy(z, z.nbytes, bufs[2], z.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    assert z.tobytes() == (x + y).tobytes()
    report = launch.report
    flows = sum(len(t.flows) for t in report.timelines)
    print(f"hand-synchronized add: {report.microseconds:.2f} us, {flows} set->wait flag pairs, "
          f"bottleneck {report.bottleneck.track_name}")
    for b in bufs:
        aclsim.free(b)
    aclsim.reset_device(0)
    assert aclsim.finalize() == []
    print("PASS")


if __name__ == "__main__":
    main()
