"""Multi-core kernels: SyncAll between the blocks, then atomic adds of every block into one output.

1. KernelSyncAll, Ascend C's SyncAll sample, line by line: 8 blocks of 32 floats each double
   their slice into a shared workspace, wait at ``sync_all`` for every block, then add the other
   blocks' slices (which later blocks wrote) to their own. (The sample lays out UB by hand with
   ``LocalMemAllocator``; here two ``TBuf`` give the same two 32-float tensors.)
2. An atomic-add reduction: block 0 zeroes the output with ``init_global_memory``, ``sync_all``,
   then every block stores its doubled slice with ``set_atomic_add(float32)``: the output is the
   sum of the slices (the blocks' stores to the same bytes are not a race: they are atomic).

Both are checked against NumPy.
"""

import numpy as np

import aclsim
import aclsim.kernel as asc

TOTAL_LENGTH = 256
TILE_LENGTH = 32
BLOCKS = TOTAL_LENGTH // TILE_LENGTH


class KernelSyncAll:
    def init(self, src_gm, dst_gm, work_gm) -> None:
        self.block_num = asc.get_block_num()
        self.block_idx = asc.get_block_idx()
        self.src_global = asc.GlobalTensor(asc.float32)
        self.dst_global = asc.GlobalTensor(asc.float32)
        self.work_global = asc.GlobalTensor(asc.float32)
        offset = self.block_idx * TILE_LENGTH
        self.src_global.set_global_buffer(src_gm.cast(asc.float32) + offset, TILE_LENGTH)
        self.dst_global.set_global_buffer(dst_gm.cast(asc.float32) + offset, TILE_LENGTH)
        self.work_global.set_global_buffer(work_gm.cast(asc.float32), TOTAL_LENGTH)

    def process(self) -> None:
        pipe = asc.TPipe()
        b1, b2 = asc.TBuf(), asc.TBuf()
        pipe.init_buffer(b1, TILE_LENGTH * 4)
        pipe.init_buffer(b2, TILE_LENGTH * 4)
        src_local, dst_local = b1.get(asc.float32), b2.get(asc.float32)
        asc.data_copy(src_local, self.src_global, TILE_LENGTH)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        asc.muls(dst_local, src_local, 2.0, TILE_LENGTH)  # FirstCompute
        asc.pipe_barrier(asc.PIPE_V)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)  # CopyToWorkGlobal
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(self.work_global[self.block_idx * TILE_LENGTH], dst_local, TILE_LENGTH)
        asc.sync_all()  # every block has written its slice of the workspace
        for i in range(self.block_num):
            if i != self.block_idx:
                asc.set_flag(asc.HardEvent.V_MTE2, 0)  # CopyFromOtherCore
                asc.wait_flag(asc.HardEvent.V_MTE2, 0)
                asc.data_copy(src_local, self.work_global[i * TILE_LENGTH], TILE_LENGTH)
                asc.set_flag(asc.HardEvent.MTE2_V, 0)
                asc.wait_flag(asc.HardEvent.MTE2_V, 0)
                asc.add(dst_local, dst_local, src_local, TILE_LENGTH)  # Accumulate
                asc.pipe_barrier(asc.PIPE_V)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(self.dst_global, dst_local, TILE_LENGTH)


@asc.kernel
def sync_all_custom(src_gm, dst_gm, work_gm):
    op = KernelSyncAll()
    op.init(src_gm, dst_gm, work_gm)
    op.process()
    asc.pipe_barrier(asc.PIPE_ALL)


@asc.kernel
def atomic_sum(src_gm, dst_gm):
    """dst = sum over the blocks of 2 * (the block's slice of src)."""
    idx = asc.get_block_idx()
    pipe = asc.TPipe()
    q = asc.TQueBind(asc.TPosition.VECIN, asc.TPosition.VECOUT, 1)
    buf = asc.TBuf()
    pipe.init_buffer(q, 1, TILE_LENGTH * 4)
    pipe.init_buffer(buf, TILE_LENGTH * 4)
    src, dst = asc.GlobalTensor(asc.float32), asc.GlobalTensor(asc.float32)
    src.set_global_buffer(src_gm.cast(asc.float32) + idx * TILE_LENGTH, TILE_LENGTH)
    dst.set_global_buffer(dst_gm.cast(asc.float32), TILE_LENGTH)
    if idx == 0:
        asc.init_global_memory(dst, TILE_LENGTH, 0.0)
    asc.sync_all()  # the output is zero before anyone adds to it
    t = q.alloc_tensor(asc.float32)
    asc.data_copy(t, src, TILE_LENGTH)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.muls(t, t, 2.0, TILE_LENGTH)
    asc.pipe_barrier(asc.PIPE_ALL)
    q.enque(t)
    t = q.deque(asc.float32)
    asc.set_atomic_add(asc.float32)
    asc.data_copy(dst, t, TILE_LENGTH)
    asc.set_atomic_none()
    q.free_tensor(t)


def main() -> None:
    aclsim.init()
    aclsim.set_device(0)
    x = np.random.default_rng(0).uniform(-1, 1, TOTAL_LENGTH).astype(np.float32)
    nbytes = x.nbytes
    bx, bz, bw, bs = (aclsim.malloc(nbytes) for _ in range(4))
    aclsim.memcpy(bx, nbytes, x, nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    launch = sync_all_custom[BLOCKS, None](bx, bz, bw)
    atomic_sum[BLOCKS, None](bx, bs)
    aclsim.synchronize_device()
    z, s = np.empty_like(x), np.empty(TILE_LENGTH, np.float32)
    aclsim.memcpy(z, nbytes, bz, nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    aclsim.memcpy(s, s.nbytes, bs, s.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    tiles = (2 * x).reshape(BLOCKS, TILE_LENGTH)
    want_z = np.empty_like(tiles)
    for b in range(BLOCKS):  # each block: its own slice, then the others in index order, in float32
        acc = tiles[b].copy()
        for i in range(BLOCKS):
            if i != b:
                acc = acc + tiles[i]
        want_z[b] = acc
    want_s = np.zeros(TILE_LENGTH, np.float32)
    for b in range(BLOCKS):  # aclsim adds the blocks' atomic stores in block order
        want_s = want_s + tiles[b]
    assert np.array_equal(z, want_z.reshape(-1)), "sync_all result differs from NumPy"
    assert np.array_equal(s, want_s), "atomic sum differs from NumPy"
    print(f"sync_all: {BLOCKS} blocks exchanged their slices through GM, exact; "
          f"{launch.report.total_cycles:.0f} cycles")
    print(f"atomic add: {BLOCKS} blocks summed into one output, exact; max {abs(s).max():.3f}")
    print("PASS")
    for b in (bx, bz, bw, bs):
        aclsim.free(b)
    aclsim.reset_device(0)
    aclsim.finalize()


if __name__ == "__main__":
    main()
