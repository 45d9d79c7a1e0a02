"""Port: the BitwiseAnd operator of CANN's ops-math (experimental), kernel and tiling, line by line.

Source: hicann/ops-math, commit c41933244c31e44fd496e3bb3212164f8c48c214:
experimental/math/bitwise_and/op_kernel/bitwise_and.cpp (entry), op_kernel/bitwise_and.h
(``KernelBitwiseAnd``), op_kernel/bitwise_and_tiling_data.h (``BitwiseAndTilingData``) and
op_host/bitwise_and_tiling.cpp (``BitwiseAndTilingFunc``: a sixth of the UB per tile, cores over
32 B blocks, big cores taking one block more, a tail tile per core). int16, uint16 and int32.

How it maps:
- ``BitwiseAndTilingData`` -> the dataclass; ``BitwiseAndTilingFunc`` and its helpers
  (``GetPlatformInfo``, ``GetWorkspaceSize``, ``GetShapeAttrsInfo``, ``CalculateCoreBlockNums``)
  -> functions of the same names. ``PlatformAscendC``'s ``GetCoreMemSize(UB)``, ``GetCoreNum()``
  and ``GetLibApiWorkSpaceSize()`` and ``GetUbBlockSize`` -> the 910B preset's ``ub_usable_bytes``,
  ``vector_cores``, ``asc.sys_workspace_size`` and ``asc.ONE_BLK_SIZE``.
- ``template <typename TYPE_X1>`` / ``DTYPE_X1`` -> the dtype passed to the kernel; the template
  ``schMode`` (one value used) is not a parameter.
- The int32 path: ``And`` on the int16 reinterpretation of the int32 tiles (twice the elements:
  ``tmp*DataNum``), enqueued as int16 and dequeued as int32, exactly as the kernel does.

Checked bit for bit against NumPy's ``x1 & x2``.
"""

from __future__ import annotations

import sys
import warnings
from dataclasses import dataclass

import numpy as np

import aclsim
import aclsim.kernel as asc
from aclsim.arch import get_chip

CHIP = "910B"


# ---- op_host -----------------------------------------------------------------------------------
@dataclass
class BitwiseAndTilingData:
    small_core_data_num: int = 0
    big_core_data_num: int = 0
    final_big_tile_num: int = 0
    final_small_tile_num: int = 0
    tile_data_num: int = 0
    small_tail_data_num: int = 0
    big_tail_data_num: int = 0
    tail_block_num: int = 0
    tmp_tile_data_num: int = 0
    tmp_small_tail_data_num: int = 0
    tmp_big_tail_data_num: int = 0


UB_NUM = 6
INT32_DOUBLE_DATA = 2
BUFFER_NUM = 2


def get_platform_info() -> tuple[int, int, int]:
    chip = get_chip(CHIP)
    ub_size = chip.ub_usable_bytes  # GetCoreMemSize(CoreMemType::UB)
    core_num = chip.vector_cores  # GetCoreNum()
    block_size = asc.ONE_BLK_SIZE  # GetUbBlockSize(context)
    return ub_size, core_num, block_size


def get_workspace_size() -> int:
    usr_size = 0
    sys_workspace_size = asc.sys_workspace_size(CHIP)  # GetLibApiWorkSpaceSize()
    return usr_size + sys_workspace_size


def get_shape_attrs_info(input_num: int, dtype, block_size: int, ub_size: int) -> tuple[int, int, int, int]:
    type_length = np.dtype(dtype).itemsize
    input_length = input_num * type_length
    if input_num == 0:
        raise ValueError("inputNum is 0")
    input_bytes = input_length // input_num
    ub_data_number = UB_NUM
    tile_block_num = (ub_size // block_size) // ub_data_number
    tile_data_num = (tile_block_num * block_size) // input_bytes
    input_length_algin = ((input_length + block_size - 1) // block_size) * block_size
    return input_bytes, tile_block_num, tile_data_num, input_length_algin


def calculate_core_block_nums(block_size, input_length_algin, core_num, tile_block_num, input_bytes,
                              tile_data_num) -> tuple[int, ...]:
    every_core_input_block_num = input_length_algin // block_size // core_num
    tail_block_num = (input_length_algin // block_size) % core_num
    small_core_data_num = every_core_input_block_num * block_size // input_bytes
    small_tile_num = every_core_input_block_num // tile_block_num
    final_small_tile_num = (small_tile_num if every_core_input_block_num % tile_block_num == 0
                            else small_tile_num + 1)
    small_tail_data_num = small_core_data_num - (tile_data_num * small_tile_num)
    small_tail_data_num = tile_data_num if small_tail_data_num == 0 else small_tail_data_num

    every_core_input_block_num += 1
    big_core_data_num = every_core_input_block_num * block_size // input_bytes
    big_tile_num = every_core_input_block_num // tile_block_num
    final_big_tile_num = (big_tile_num if every_core_input_block_num % tile_block_num == 0
                          else big_tile_num + 1)
    big_tail_data_num = big_core_data_num - tile_data_num * big_tile_num
    big_tail_data_num = tile_data_num if big_tail_data_num == 0 else big_tail_data_num
    return (small_core_data_num, big_core_data_num, small_tail_data_num, big_tail_data_num,
            final_small_tile_num, final_big_tile_num, tail_block_num)


def bitwise_and_tiling_func(input_num: int, dtype) -> tuple[BitwiseAndTilingData, int, int]:
    """(tiling, block dim, workspace size); the tiling key (schMode 0) selects nothing here."""
    # 1. the platform
    ub_size, core_num, block_size = get_platform_info()
    # 2. shape and attributes
    input_bytes, tile_block_num, tile_data_num, input_length_algin = get_shape_attrs_info(
        input_num, dtype, block_size, ub_size)
    # 3. workspace
    workspace = get_workspace_size()
    # 4. the tiling
    tiling = BitwiseAndTilingData()
    if tile_data_num >= input_num:
        core_num = 1
    else:
        core_num = (core_num if core_num < input_length_algin // block_size
                    else input_length_algin // block_size)
    (small_core_data_num, big_core_data_num, small_tail_data_num, big_tail_data_num, final_small_tile_num,
     final_big_tile_num, tail_block_num) = calculate_core_block_nums(
        block_size, input_length_algin, core_num, tile_block_num, input_bytes, tile_data_num)
    tiling.small_core_data_num = small_core_data_num
    tiling.big_core_data_num = big_core_data_num
    tiling.tile_data_num = tile_data_num
    tiling.small_tail_data_num = small_tail_data_num
    tiling.big_tail_data_num = big_tail_data_num
    tiling.final_small_tile_num = final_small_tile_num
    tiling.final_big_tile_num = final_big_tile_num
    tiling.tail_block_num = tail_block_num
    # the int32 type's tmpLocal figures
    tiling.tmp_tile_data_num = INT32_DOUBLE_DATA * tile_data_num
    tiling.tmp_small_tail_data_num = INT32_DOUBLE_DATA * small_tail_data_num
    tiling.tmp_big_tail_data_num = INT32_DOUBLE_DATA * big_tail_data_num
    return tiling, core_num, workspace


# ---- op_kernel ---------------------------------------------------------------------------------
class KernelBitwiseAnd:
    def __init__(self, type_x1) -> None:
        self.type_x1 = type_x1
        self.pipe = asc.TPipe()
        self.in_queue_x1 = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
        self.in_queue_x2 = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
        self.out_queue_y = asc.TQue(asc.TPosition.VECOUT, BUFFER_NUM)
        self.x1_gm, self.x2_gm, self.y_gm = (asc.GlobalTensor(type_x1) for _ in range(3))

    def init(self, x1, x2, y, small_core_data_num, big_core_data_num, final_big_tile_num,
             final_small_tile_num, tile_data_num, small_tail_data_num, big_tail_data_num, tail_block_num,
             tmp_tile_data_num, tmp_small_tail_data_num, tmp_big_tail_data_num) -> None:
        assert asc.get_block_num() != 0, "block dim can not be zero!"
        core_id = asc.get_block_idx()
        global_buffer_index = big_core_data_num * core_id
        self.tile_data_num = tile_data_num
        self.tmp_tile_data_num = tmp_tile_data_num
        if core_id < tail_block_num:
            self.core_data_num = big_core_data_num
            self.tile_num = final_big_tile_num
            self.tail_data_num = big_tail_data_num
            self.tmp_tail_data_num = tmp_big_tail_data_num
        else:
            self.core_data_num = small_core_data_num
            self.tile_num = final_small_tile_num
            self.tail_data_num = small_tail_data_num
            self.tmp_tail_data_num = tmp_small_tail_data_num
            global_buffer_index -= (big_core_data_num - small_core_data_num) * (core_id - tail_block_num)
        self.x1_gm.set_global_buffer(x1.cast(self.type_x1) + global_buffer_index, self.core_data_num)
        self.x2_gm.set_global_buffer(x2.cast(self.type_x1) + global_buffer_index, self.core_data_num)
        self.y_gm.set_global_buffer(y.cast(self.type_x1) + global_buffer_index, self.core_data_num)
        self.pipe.init_buffer(self.in_queue_x1, BUFFER_NUM, self.tile_data_num * self.type_x1.itemsize)
        self.pipe.init_buffer(self.in_queue_x2, BUFFER_NUM, self.tile_data_num * self.type_x1.itemsize)
        self.pipe.init_buffer(self.out_queue_y, BUFFER_NUM, self.tile_data_num * self.type_x1.itemsize)

    def copy_in(self, progress: int) -> None:
        x1_local = self.in_queue_x1.alloc_tensor(self.type_x1)
        x2_local = self.in_queue_x2.alloc_tensor(self.type_x1)
        asc.data_copy(x1_local, self.x1_gm[progress * self.tile_data_num], self.process_data_num)
        asc.data_copy(x2_local, self.x2_gm[progress * self.tile_data_num], self.process_data_num)
        self.in_queue_x1.enque(x1_local)
        self.in_queue_x2.enque(x2_local)

    def copy_out(self, progress: int) -> None:
        y_local = self.out_queue_y.deque(self.type_x1)
        asc.data_copy(self.y_gm[progress * self.tile_data_num], y_local, self.process_data_num)
        self.out_queue_y.free_tensor(y_local)

    def compute(self, progress: int) -> None:
        x1_local = self.in_queue_x1.deque(self.type_x1)
        x2_local = self.in_queue_x2.deque(self.type_x1)
        if self.type_x1 != asc.int32:
            y_local = self.out_queue_y.alloc_tensor(self.type_x1)
            asc.and_(y_local, x1_local, x2_local, self.process_data_num)
            self.out_queue_y.enque(y_local)
        else:
            y_local = self.out_queue_y.alloc_tensor(asc.int16)
            asc.and_(y_local, x1_local.reinterpret_cast(asc.int16), x2_local.reinterpret_cast(asc.int16),
                     self.tmp_process_data_num)
            self.out_queue_y.enque(y_local)
        self.in_queue_x1.free_tensor(x1_local)
        self.in_queue_x2.free_tensor(x2_local)

    def process(self) -> None:
        loop_count = self.tile_num
        self.process_data_num = self.tile_data_num
        if self.type_x1 == asc.int32:
            self.tmp_process_data_num = self.tmp_tile_data_num
        for i in range(loop_count - 1):
            self.copy_in(i)
            self.compute(i)
            self.copy_out(i)
        self.process_data_num = self.tail_data_num
        if self.type_x1 == asc.int32:
            self.tmp_process_data_num = self.tmp_tail_data_num
        self.copy_in(loop_count - 1)
        self.compute(loop_count - 1)
        self.copy_out(loop_count - 1)


@asc.kernel
def bitwise_and(x1, x2, y, workspace, tiling_data: BitwiseAndTilingData, dtype_x1):
    op = KernelBitwiseAnd(dtype_x1)  # the operator's kernel instance
    op.init(x1, x2, y, tiling_data.small_core_data_num, tiling_data.big_core_data_num,
            tiling_data.final_big_tile_num, tiling_data.final_small_tile_num, tiling_data.tile_data_num,
            tiling_data.small_tail_data_num, tiling_data.big_tail_data_num, tiling_data.tail_block_num,
            tiling_data.tmp_tile_data_num, tiling_data.tmp_small_tail_data_num,
            tiling_data.tmp_big_tail_data_num)
    op.process()


def run_case(n: int, dtype, stream) -> tuple[bool, str]:
    info = np.iinfo(dtype)
    rng = np.random.default_rng(n)
    x1 = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    x2 = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    tiling, block_dim, workspace_size = bitwise_and_tiling_func(n, dtype)
    y = np.zeros_like(x1)
    d1, d2, dy, dws = (aclsim.malloc(s) for s in (x1.nbytes, x2.nbytes, y.nbytes, workspace_size))
    aclsim.memcpy(d1, x1.nbytes, x1, x1.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    aclsim.memcpy(d2, x2.nbytes, x2, x2.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    with warnings.catch_warnings():  # a size not a multiple of 32 B: the last block reads the padding
        warnings.simplefilter("ignore", asc.KernelSanitizerWarning)
        launch = bitwise_and[block_dim, None, stream](d1, d2, dy, dws, tiling, np.dtype(dtype))
        aclsim.synchronize_stream(stream)
    aclsim.memcpy(y, y.nbytes, dy, y.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    for d in (d1, d2, dy, dws):
        aclsim.free(d)
    kinds = {d.kind for d in launch.diagnostics}
    padding_kinds = {"out_of_request_read", "out_of_request_write", "uninitialized_read"}
    ok = np.array_equal(y, x1 & x2) and kinds <= padding_kinds
    return ok, (f"bitwise_and n={n:6d} {np.dtype(dtype).name:6s} blocks={block_dim:2d} "
                f"(tails {tiling.small_tail_data_num}/{tiling.big_tail_data_num}, "
                f"{tiling.tail_block_num} big): "
                f"{'exact' if ok else 'MISMATCH'}; sanitizer {sorted(kinds) or 'clean'}; "
                f"{launch.report.total_cycles:.0f} cycles")


def main() -> int:
    aclsim.init(chip=CHIP)
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    ok = True
    # under one tile: 1 core (1000 int16 end 16 B short of a block: read and written in the
    # allocation's padding, as on the device); 40000 int16 = 2500 blocks over 48 cores (52 each,
    # 4 big); 20000 uint16
    # under a tile per core; 24000 int32 = 3000 blocks over 48 cores, And on the int16 halves
    for n, dtype in ((1000, np.int16), (40000, np.int16), (20000, np.uint16), (24000, np.int32)):
        good, line = run_case(n, dtype, stream)
        ok &= good
        print(line)
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
