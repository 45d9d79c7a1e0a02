"""FastGelu with a scalar tail: the vector path for the 32 B-aligned part, scalar GetValue/SetValue
for the last ``n % (32 / sizeof(T))`` elements.

Written from the pattern, not ported: issue 13's measurement named an elementwise FastGelu "with
scalar tails", but no public source of such a kernel was found (searched: the public FastGelu
kernels of hicann/ops-nn, Ascend/samples and the operator-contest repositories indexed by the
code search; they all move their tail with ``DataCopyPad`` or copy whole 32 B blocks). This kernel
is written the way kernels for chips or toolkits without ``DataCopyPad`` handle a length that is
not a multiple of a 32 B block:

- host tiling: the aligned elements are split over the cores in whole 32 B blocks (the first
  ``big_core_num`` cores take one block more); each core walks its share in tiles of
  ``tile_length`` elements (a multiple of the block) with ``DataCopy``; the last core also owns
  the ``tail_length`` elements past the last whole block;
- the tail: the last core clears a one-block UB tensor (``Duplicate``), reads each tail element
  from global memory with ``GlobalTensor::GetValue`` and stores it in UB with
  ``LocalTensor::SetValue``, runs the same vector FastGelu over the one block, and writes the
  valid results back with ``GetValue`` on UB and ``SetValue`` on global memory, then
  ``DataCacheCleanAndInvalid`` so the scalar stores leave the data cache. The pipe hand-offs are
  explicit flags: V -> S (the cleared block), S -> V (the elements set), V -> S (the results).

y = x * exp(0.851 (x - |x|)) / (1 + exp(-1.702 |x|)), computed in the input type as example 18
does. Checked against NumPy for odd lengths across several cores (1000003 float32 elements on
the 910B preset), the tail included.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

import aclsim
import aclsim.kernel as asc
from aclsim.arch import get_chip
from aclsim.isa import HardEvent

CHIP = "910B"
BUFFER_NUM = 2
BLOCK_BYTES = 32
EVENT_ID0 = 0


# ---- op_host -----------------------------------------------------------------------------------
@dataclass
class FastGeluTailTilingData:
    total_length: int = 0
    block_elems: int = 0  # elements of one 32 B block
    big_core_num: int = 0  # cores that take one block more
    small_core_blocks: int = 0  # whole blocks of the other cores
    tile_length: int = 0  # elements of one UB tile (a multiple of block_elems)
    tail_length: int = 0  # elements past the last whole block (the last core's scalar tail)


def tiling_func(chip_name: str, total_length: int, dtype) -> tuple[FastGeluTailTilingData, int]:
    """(tiling, block dim): whole 32 B blocks over at most the chip's vector cores."""
    chip = get_chip(chip_name)
    size = np.dtype(dtype).itemsize
    t = FastGeluTailTilingData(total_length=total_length, block_elems=BLOCK_BYTES // size)
    blocks = total_length // t.block_elems
    t.tail_length = total_length - blocks * t.block_elems
    core_num = max(1, min(chip.vector_cores, blocks))
    t.small_core_blocks, t.big_core_num = divmod(blocks, core_num)
    # UB: the double-buffered input and output queues plus one temporary, tile by tile; the
    # tail's two one-block tensors come off the top
    per_elem = (2 * BUFFER_NUM + 1) * size
    tile_blocks = (chip.ub_usable_bytes - 2 * BLOCK_BYTES) // per_elem // t.block_elems
    t.tile_length = max(1, tile_blocks) * t.block_elems
    return t, core_num


# ---- op_kernel ---------------------------------------------------------------------------------
class KernelFastGeluTail:
    def __init__(self, dtype) -> None:
        self.dtype = np.dtype(dtype)
        self.pipe = asc.TPipe()
        self.in_queue_x = asc.TQue(asc.QuePosition.VECIN, BUFFER_NUM)
        self.out_queue_y = asc.TQue(asc.QuePosition.VECOUT, BUFFER_NUM)
        self.tmp_buf = asc.TBuf(asc.TPosition.VECCALC)
        self.tail_x_buf = asc.TBuf(asc.TPosition.VECCALC)
        self.tail_y_buf = asc.TBuf(asc.TPosition.VECCALC)
        self.x_gm = asc.GlobalTensor(dtype)
        self.y_gm = asc.GlobalTensor(dtype)

    def init(self, x, y, t: FastGeluTailTilingData) -> None:
        idx, num = asc.get_block_idx(), asc.get_block_num()
        blocks = t.small_core_blocks + (1 if idx < t.big_core_num else 0)
        start = (idx * t.small_core_blocks + min(idx, t.big_core_num)) * t.block_elems
        self.block_length = blocks * t.block_elems
        self.tail_length = t.tail_length if idx == num - 1 else 0
        self.block_elems = t.block_elems
        self.tile_length = min(t.tile_length, self.block_length) if self.block_length else t.block_elems
        length = self.block_length + self.tail_length
        self.x_gm.set_global_buffer(x.cast(self.dtype) + start, length)
        self.y_gm.set_global_buffer(y.cast(self.dtype) + start, length)
        nbytes = self.tile_length * self.dtype.itemsize
        self.pipe.init_buffer(self.in_queue_x, BUFFER_NUM, nbytes)
        self.pipe.init_buffer(self.out_queue_y, BUFFER_NUM, nbytes)
        self.pipe.init_buffer(self.tmp_buf, nbytes)
        if self.tail_length:
            self.pipe.init_buffer(self.tail_x_buf, BLOCK_BYTES)
            self.pipe.init_buffer(self.tail_y_buf, BLOCK_BYTES)

    def process(self) -> None:
        tile_num = -(-self.block_length // self.tile_length)
        for i in range(tile_num):
            length = min(self.tile_length, self.block_length - i * self.tile_length)
            self.copy_in(i, length)
            self.compute(length)
            self.copy_out(i, length)
        if self.tail_length:
            self.process_tail()

    def copy_in(self, progress: int, length: int) -> None:
        x_local = self.in_queue_x.alloc_tensor(self.dtype)
        asc.data_copy(x_local, self.x_gm[progress * self.tile_length], length)
        self.in_queue_x.enque(x_local)

    def compute(self, length: int) -> None:
        x_local = self.in_queue_x.deque(self.dtype)
        y_local = self.out_queue_y.alloc_tensor(self.dtype)
        self.fast_gelu(y_local, x_local, self.tmp_buf.get(self.dtype), length)
        self.out_queue_y.enque(y_local)
        self.in_queue_x.free_tensor(x_local)

    def copy_out(self, progress: int, length: int) -> None:
        y_local = self.out_queue_y.deque(self.dtype)
        asc.data_copy(self.y_gm[progress * self.tile_length], y_local, length)
        self.out_queue_y.free_tensor(y_local)

    def fast_gelu(self, y, x, tmp, length: int) -> None:
        c1, c2, c3 = (self.dtype.type(v) for v in (0.851, -1.702, 1.0))
        asc.abs(tmp, x, length)  # |x|
        asc.muls(y, tmp, c2, length)
        asc.exp(y, y, length)
        asc.adds(y, y, c3, length)  # 1 + exp(-1.702 |x|)
        asc.sub(tmp, x, tmp, length)
        asc.muls(tmp, tmp, c1, length)
        asc.exp(tmp, tmp, length)  # exp(0.851 (x - |x|))
        asc.div(y, x, y, length)
        asc.mul(y, tmp, y, length)

    def process_tail(self) -> None:
        """The elements past the last whole 32 B block: in and out by scalar, computed over one block."""
        base = self.block_length
        x_tail = self.tail_x_buf.get(self.dtype)
        y_tail = self.tail_y_buf.get(self.dtype)
        tmp = self.tmp_buf.get(self.dtype)
        asc.pipe_barrier(asc.PIPE_V)
        asc.duplicate(x_tail, self.dtype.type(0), self.block_elems)  # the lanes past the tail: 0
        asc.set_flag(HardEvent.V_S, EVENT_ID0)
        asc.wait_flag(HardEvent.V_S, EVENT_ID0)
        for i in range(self.tail_length):
            x_tail.set_value(i, self.x_gm.get_value(base + i))
        asc.set_flag(HardEvent.S_V, EVENT_ID0)
        asc.wait_flag(HardEvent.S_V, EVENT_ID0)
        self.fast_gelu(y_tail, x_tail, tmp, self.block_elems)
        asc.set_flag(HardEvent.V_S, EVENT_ID0)
        asc.wait_flag(HardEvent.V_S, EVENT_ID0)
        for i in range(self.tail_length):
            self.y_gm.set_value(base + i, y_tail.get_value(i))
        asc.data_cache_clean_and_invalid(self.y_gm, asc.CacheLine.ENTIRE_DATA_CACHE,
                                         asc.DcciDst.CACHELINE_OUT)


@asc.kernel
def fast_gelu_tail(x, y, workspace, tiling: FastGeluTailTilingData, dtype):
    op = KernelFastGeluTail(dtype)
    op.init(x, y, tiling)
    op.process()


# ---- host --------------------------------------------------------------------------------------
def reference(x: np.ndarray) -> np.ndarray:
    x64 = x.astype(np.float64)
    return x64 * np.exp(0.851 * (x64 - np.abs(x64))) / (1 + np.exp(-1.702 * np.abs(x64)))


def run_case(n: int, dtype, stream, chip: str = CHIP) -> tuple[bool, str, np.ndarray, np.ndarray]:
    x = np.random.default_rng(n).uniform(-5, 5, n).astype(dtype)
    tiling, block_dim = tiling_func(chip, n, dtype)
    y = np.full_like(x, 1234)
    dx, dy = aclsim.malloc(x.nbytes), aclsim.malloc(y.nbytes)
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    aclsim.memcpy(dy, y.nbytes, y, y.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    try:
        launch = fast_gelu_tail[block_dim, None, stream](dx, dy, None, tiling, np.dtype(dtype))
        aclsim.synchronize_stream(stream)
        aclsim.memcpy(y, y.nbytes, dy, y.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    finally:
        aclsim.free(dx)
        aclsim.free(dy)
    want = reference(x)
    tol = 1e-5 if np.dtype(dtype) == np.float32 else 4e-3
    err = np.abs(y.astype(np.float64) - want) / np.maximum(1.0, np.abs(want))
    ok = bool(err.max() <= tol) and not launch.diagnostics
    tail = tiling.tail_length
    line = (f"fast_gelu (scalar tail) n={n} {np.dtype(dtype).name}: {block_dim} cores, tiles of "
            f"{tiling.tile_length}, scalar tail {tail} element{'s' if tail != 1 else ''}; max rel err "
            f"{err.max():.1e} (tol {tol:.0e}); {launch.report.total_cycles:.0f} cycles")
    return ok, line, y, want


def main() -> int:
    aclsim.init(chip=CHIP)
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    ok = True
    for n, dtype in ((1000003, np.float32),  # 48 cores, 3 tail elements on the last
                     (4099, np.float16),  # 16-element blocks, tail 3
                     (7, np.float32),  # no whole block: the one core does the tail only
                     (4096, np.float32)):  # aligned: no tail
        good, line, _, _ = run_case(n, dtype, stream)
        ok &= good
        print(line, "ok" if good else "MISMATCH")
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
