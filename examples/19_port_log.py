"""Port: the Log operator of CANN's contributed operators (big and small cores, tail tiles), line by line.

Source: Hayden727/cann-ops (a mirror of Ascend's cann-ops), commit
fd1e257cee42a8ba666e864860cbe5f37100a2a3: src/contrib/math/log/op_kernel/log.cpp (``KernelLog``),
src/contrib/math/log/op_host/log.cpp (``TilingFunc``) and op_host/log_tiling.h (``LogTilingData``).
y = log_base(scale * x + shift), base -1 meaning e.

How it maps:
- ``LogTilingData`` -> the dataclass ``LogTilingData``; ``TilingFunc`` -> ``tiling_func`` with the same
  arithmetic: UB split into 2 (3 for bfloat16) parts x BUFFER_NUM, the input rounded up to 32 B
  blocks, ``tailBlockNum`` cores taking one block more (tiling key 1) or none (key 0), the last tile
  of each core ``*TailDataNum`` elements. ``PlatformAscendC``'s ``GetCoreMemSize(UB)`` and
  ``GetCoreNum()`` -> the chip preset's ``ub_usable_bytes`` and ``vector_cores`` (aclsim has no
  host-side PlatformAscendC object).
- ``TILING_KEY_IS(1)`` / ``GENERAL_OP_IMPL(KernelLog, DTYPE_X, DTYPE_Y, IsExistBigCore)`` -> the key
  passed next to the tiling, and ``KernelLog(dtype_x, dtype_y, is_exist_big_core)``.
- ``Log`` -> ``ln``; ``Cast(..., CAST_NONE / CAST_RINT)`` (the bfloat16 path) -> ``cast``.

Because every core's share is a whole number of 32 B blocks, the last core reads and writes up to
31 B past an input whose size is not a multiple of 32 B: on the device that lands in the
allocation's padding (AscendCL pads every allocation); aclsim does the same and lists those bytes
in the sanitizer report. Checked against NumPy for float32, float16 and bfloat16.
"""

from __future__ import annotations

import math
import sys
import warnings
from dataclasses import dataclass

import numpy as np

import aclsim
import aclsim.kernel as asc
from aclsim.arch import get_chip

CHIP = "910B"
BUFFER_NUM = 2


# ---- op_host -----------------------------------------------------------------------------------
@dataclass
class LogTilingData:
    small_core_data_num: int = 0
    big_core_data_num: int = 0
    ub_part_data_num: int = 0
    small_core_tail_data_num: int = 0
    big_core_tail_data_num: int = 0
    small_core_loop_num: int = 0
    big_core_loop_num: int = 0
    tail_block_num: int = 0
    base: float = 0.0
    scale: float = 0.0
    shift: float = 0.0


BLOCK_SIZE = 32


def tiling_func(input_data_num: int, dtype, base: float = -1.0, scale: float = 1.0,
                shift: float = 0.0) -> tuple[LogTilingData, int, int, int]:
    """The operator's TilingFunc: (tiling, tiling key, block dim, workspace size)."""
    tiling = LogTilingData()
    big_core_data_num = 0
    big_core_loop_num = 0
    big_core_tail_data_num = 0

    chip = get_chip(CHIP)
    ub_length = chip.ub_usable_bytes  # GetCoreMemSize(CoreMemType::UB)
    core_num = chip.vector_cores  # GetCoreNum()

    # the input's size
    data_type_length = np.dtype(dtype).itemsize
    input_length = input_data_num * data_type_length

    # the UB's parts
    ub_part_num = 3 if np.dtype(dtype) == asc.bfloat16 else 2
    ub_part_length = ub_length // ub_part_num // BUFFER_NUM
    ub_part_block_num = ub_part_length // BLOCK_SIZE
    ub_part_data_num = (ub_part_block_num * BLOCK_SIZE) // data_type_length

    # 32 B alignment
    input_length_align32 = ((input_length + BLOCK_SIZE - 1) // BLOCK_SIZE) * BLOCK_SIZE

    # how many cores
    if ub_part_data_num >= input_data_num:
        core_num = 1
    else:
        core_num = min(core_num, input_length_align32 // BLOCK_SIZE)

    # each core's share
    every_core_input_block_num = input_length_align32 // BLOCK_SIZE // core_num
    tail_block_num = (input_length_align32 // BLOCK_SIZE) % core_num

    # small cores
    small_core_data_num = every_core_input_block_num * BLOCK_SIZE // data_type_length
    small_core_loop_num = small_core_data_num // ub_part_data_num
    small_core_loop_num = (small_core_loop_num if every_core_input_block_num % ub_part_block_num == 0
                           else small_core_loop_num + 1)
    small_core_tail_data_num = small_core_data_num - ub_part_data_num * (small_core_loop_num - 1)
    small_core_tail_data_num = ub_part_data_num if small_core_tail_data_num == 0 else small_core_tail_data_num

    # big cores
    if tail_block_num != 0:
        every_core_input_block_num += 1
        big_core_data_num = every_core_input_block_num * BLOCK_SIZE // data_type_length
        big_core_loop_num = big_core_data_num // ub_part_data_num
        big_core_loop_num = (big_core_loop_num if every_core_input_block_num % ub_part_block_num == 0
                             else big_core_loop_num + 1)
        big_core_tail_data_num = big_core_data_num - ub_part_data_num * (big_core_loop_num - 1)
        big_core_tail_data_num = ub_part_data_num if big_core_tail_data_num == 0 else big_core_tail_data_num
        key = 1
    else:
        key = 0

    tiling.small_core_data_num = small_core_data_num
    tiling.big_core_data_num = big_core_data_num
    tiling.ub_part_data_num = ub_part_data_num
    tiling.small_core_tail_data_num = small_core_tail_data_num
    tiling.big_core_tail_data_num = big_core_tail_data_num
    tiling.small_core_loop_num = small_core_loop_num
    tiling.big_core_loop_num = big_core_loop_num
    tiling.tail_block_num = tail_block_num

    # the Log attributes
    if base == -1.0:
        tiling.base = 1.0
    elif base > 0.0 and base != 1.0:
        tiling.base = float(np.float32(1.0 / math.log(base)))
    else:
        tiling.base = 1.0
    tiling.scale = scale
    tiling.shift = shift
    return tiling, key, core_num, 0


# ---- op_kernel ---------------------------------------------------------------------------------
class KernelLog:
    def __init__(self, type_x, type_y, is_exist_big_core: bool) -> None:
        self.type_x, self.type_y, self.is_exist_big_core = type_x, type_y, is_exist_big_core
        self.pipe = asc.TPipe()
        self.in_queue_x = asc.TQue(asc.QuePosition.VECIN, BUFFER_NUM)
        self.out_queue_y = asc.TQue(asc.QuePosition.VECOUT, BUFFER_NUM)
        self.calc_buf1 = asc.TBuf(asc.QuePosition.VECCALC)
        self.x_gm = asc.GlobalTensor(type_x)
        self.y_gm = asc.GlobalTensor(type_y)

    def copy_in(self, progress: int) -> None:
        x_local = self.in_queue_x.alloc_tensor(self.type_x)
        asc.data_copy(x_local, self.x_gm[progress * self.ub_part_data_num], self.process_data_num)
        self.in_queue_x.enque(x_local)

    def compute(self, progress: int) -> None:
        x_local = self.in_queue_x.deque(self.type_x)
        y_local = self.out_queue_y.alloc_tensor(self.type_y)

        if self.type_x in (asc.float32, asc.float16):
            # floating types directly
            asc.muls(y_local, x_local, self.scale, self.process_data_num)
            asc.adds(y_local, y_local, self.shift, self.process_data_num)
            asc.ln(y_local, y_local, self.process_data_num)
            asc.muls(y_local, y_local, self.base, self.process_data_num)
        else:
            # other types through float
            x_local_fp32 = self.calc_buf1.get(asc.float32)

            asc.cast(x_local_fp32, x_local, asc.RoundMode.CAST_NONE, self.process_data_num)
            asc.muls(x_local_fp32, x_local_fp32, self.scale, self.process_data_num)
            asc.adds(x_local_fp32, x_local_fp32, self.shift, self.process_data_num)
            asc.ln(x_local_fp32, x_local_fp32, self.process_data_num)
            asc.muls(x_local_fp32, x_local_fp32, self.base, self.process_data_num)
            asc.cast(y_local, x_local_fp32, asc.RoundMode.CAST_RINT, self.process_data_num)

        self.out_queue_y.enque(y_local)
        self.in_queue_x.free_tensor(x_local)

    def copy_out(self, progress: int) -> None:
        y_local = self.out_queue_y.deque(self.type_y)
        asc.data_copy(self.y_gm[progress * self.ub_part_data_num], y_local, self.process_data_num)
        self.out_queue_y.free_tensor(y_local)

    def init(self, x, y, small_core_data_num, big_core_data_num, big_core_loop_num, small_core_loop_num,
             ub_part_data_num, small_core_tail_data_num, big_core_tail_data_num, tail_block_num,
             base, scale, shift) -> None:
        assert asc.get_block_num() != 0, "block dim can not be zero!"
        core_num = asc.get_block_idx()
        global_buffer_index = big_core_data_num * asc.get_block_idx()
        self.ub_part_data_num = ub_part_data_num

        if self.is_exist_big_core:
            if core_num < tail_block_num:
                self.core_data_num = big_core_data_num
                self.tile_num = big_core_loop_num
                self.tail_data_num = big_core_tail_data_num
            else:
                self.core_data_num = small_core_data_num
                self.tile_num = small_core_loop_num
                self.tail_data_num = small_core_tail_data_num
                global_buffer_index -= (big_core_data_num - small_core_data_num) * (
                    asc.get_block_idx() - tail_block_num)
        else:
            self.core_data_num = small_core_data_num
            self.tile_num = small_core_loop_num
            self.tail_data_num = small_core_tail_data_num
            global_buffer_index = small_core_data_num * asc.get_block_idx()

        # the Log attributes
        self.base = base
        self.shift = shift
        self.scale = scale

        # global memory
        self.x_gm.set_global_buffer(x.cast(self.type_x) + global_buffer_index, self.core_data_num)
        self.y_gm.set_global_buffer(y.cast(self.type_y) + global_buffer_index, self.core_data_num)

        # pipe and buffers
        self.pipe.init_buffer(self.in_queue_x, BUFFER_NUM, self.ub_part_data_num * self.type_x.itemsize)
        self.pipe.init_buffer(self.out_queue_y, BUFFER_NUM, self.ub_part_data_num * self.type_y.itemsize)

        # the float buffer of the conversion path
        if self.type_x == asc.bfloat16:
            self.pipe.init_buffer(self.calc_buf1, self.ub_part_data_num * 4)

    def process(self) -> None:
        loop_count = self.tile_num
        self.process_data_num = self.ub_part_data_num
        # the whole tiles
        for i in range(loop_count - 1):
            self.copy_in(i)
            self.compute(i)
            self.copy_out(i)
        self.process_data_num = self.tail_data_num
        self.copy_in(loop_count - 1)
        self.compute(loop_count - 1)
        self.copy_out(loop_count - 1)


def general_op_impl(x, y, tiling_data: LogTilingData, dtype, is_exist_big_core: bool) -> None:
    op = KernelLog(dtype, dtype, is_exist_big_core)
    op.init(x, y, tiling_data.small_core_data_num, tiling_data.big_core_data_num,
            tiling_data.big_core_loop_num, tiling_data.small_core_loop_num, tiling_data.ub_part_data_num,
            tiling_data.small_core_tail_data_num, tiling_data.big_core_tail_data_num,
            tiling_data.tail_block_num, tiling_data.base, tiling_data.scale, tiling_data.shift)
    op.process()


@asc.kernel
def log(x, y, workspace, tiling: LogTilingData, tiling_key: int, dtype):
    if tiling_key == 1:  # big cores exist (a tail of blocks)
        general_op_impl(x, y, tiling, dtype, True)
    elif tiling_key == 0:  # no big core
        general_op_impl(x, y, tiling, dtype, False)


def run_case(n: int, dtype, base: float, scale: float, shift: float, stream) -> tuple[bool, str]:
    rng = np.random.default_rng(n)
    x = rng.uniform(0.1, 10.0, n).astype(np.float32).astype(dtype)
    tiling, key, block_dim, _ = tiling_func(n, dtype, base, scale, shift)
    y = np.zeros_like(x)
    dx, dy = aclsim.malloc(x.nbytes), aclsim.malloc(y.nbytes)
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    with warnings.catch_warnings():  # the padding reads of a size not a multiple of 32 B are reported
        warnings.simplefilter("ignore", asc.KernelSanitizerWarning)
        launch = log[block_dim, None, stream](dx, dy, None, tiling, key, np.dtype(dtype))
        aclsim.synchronize_stream(stream)
    aclsim.memcpy(y, y.nbytes, dy, y.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    aclsim.free(dx)
    aclsim.free(dy)
    x64 = x.astype(np.float64)
    want = np.log(scale * x64 + shift) * (1.0 if base in (-1.0, 1.0) else 1.0 / math.log(base))
    tol = {np.dtype(np.float32): 1e-5, np.dtype(np.float16): 4e-3}.get(np.dtype(dtype), 2e-2)
    err = float(np.max(np.abs(y.astype(np.float64) - want) / np.maximum(1.0, np.abs(want))))
    kinds = sorted({d.kind for d in launch.diagnostics})
    ok = err <= tol and set(kinds) <= {"out_of_request_read", "out_of_request_write", "uninitialized_read"}
    return ok, (f"log n={n:5d} {np.dtype(dtype).name:8s} key={key} blocks={block_dim:2d}: max rel err "
                f"{err:.1e} (tol {tol:.0e}); sanitizer {kinds or 'clean'}")


def main() -> int:
    aclsim.init(chip=CHIP)
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    ok = True
    # more than one UB part: 48 cores; 3750 blocks of 32 B = 78 each + 6 cores with one more (key 1);
    # 40001 halves end 30 B short of a block (the last core reads and writes into the padding);
    # 30720 bfloat16 = 1920 blocks, 40 on each core (key 0); under one UB part: one core
    for n, dtype, base, scale, shift in ((30000, np.float32, -1.0, 1.0, 0.0),
                                         (40001, np.float16, 2.0, 0.5, 1.0),
                                         (30720, asc.bfloat16, 10.0, 2.0, 0.0),
                                         (40, np.float32, -1.0, 3.0, 0.5)):
        good, line = run_case(n, dtype, base, scale, shift, stream)
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
