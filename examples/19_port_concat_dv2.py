"""Port: CANN's ConcatDV2 (a tensor list concatenated along dim 0 through a ListTensorDesc), line by line.

Source: hicann/ops-math, commit c41933244c31e44fd496e3bb3212164f8c48c214: conversion/concat_dv2/
op_kernel/concat_dv2.h (``ConcatDV2``), op_kernel/concat_dv2.cpp (the kernel), op_host/concat_dv2_tiling.h
(``ConcatDV2TilingData``) and op_host/concat_dv2_tiling.cpp (``Tiling4ConcatDV2``).

The input ``x`` is a dynamic tensor list: the kernel gets one ``GM_ADDR`` pointing at the list's
descriptor (each tensor's shape, then its device address), decodes it with ``ListTensorDesc`` and
reads each tensor's first extent with ``GetDesc`` / ``TensorDesc.GetShape``.  The output is cut
into 32 B aligned shares per core and the shares into UB-sized loops; each loop gathers the pieces
of the tensors it covers into one UB tile (a VECIN -> VECOUT ``TQueBind``) and stores it.

How it maps:
- ``ConcatDV2TilingData`` -> a dataclass; ``Tiling4ConcatDV2`` -> ``tiling4_concat_dv2`` with the same
  arithmetic (``CalculatePrefixSumAndSizes``, ``CalculateCoreDistribution``,
  ``CalculateBlockDistribution``, the end tensor and offset of each core).  ``GetCoreNumAiv()`` and
  ``GetCoreMemSize(UB)`` -> the preset's ``vector_cores`` and ``ub_usable_bytes``;
  ``GetLibApiWorkSpaceSize()`` -> ``asc.sys_workspace_size``.
- The framework's tensor-list descriptor -> ``asc.make_list_tensor_desc(pointers, shapes)``;
  ``AscendC::ListTensorDesc(reinterpret_cast<__gm__ void*>(x))`` -> ``asc.ListTensorDesc(x)``;
  ``uint64_t buf[10]`` + ``desc_.SetShapeAddr(buf)`` -> a NumPy uint64 array;
  ``inputList_.GetDataPtr<T>(j) + n`` -> ``get_data_ptr(T, j) + n`` (a typed ``GmAddr``).
- ``#if ORIG_DTYPE_X == ...`` (one binary per type) -> the element type the host passes; the kernel
  moves bytes, so float32/int32 run as float, float16/bfloat16/int16 as half, as the .cpp does.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

import numpy as np

import aclsim
import aclsim.kernel as asc
from aclsim.arch import get_chip

CHIP = "910B"
BUFFER_NUM = 1
UB_BLOCK_SIZE = 32
TILING_ARRAY_LENGTH = 48
TILING_KEY = 0


# ---- op_host -----------------------------------------------------------------------------------
@dataclass
class ConcatDV2TilingData:
    ele_per_loop: int = 0
    ele_percore: int = 0
    ub_loop: int = 0
    ele_tail_core: int = 0
    ub_loop_tail: int = 0
    same_dim_size: int = 0
    end_tensor_idx: list[int] = field(default_factory=lambda: [0] * TILING_ARRAY_LENGTH)
    end_tensor_offset: list[int] = field(default_factory=lambda: [0] * TILING_ARRAY_LENGTH)


@dataclass
class ConcatDV2Tiling:
    ele_per_loop: int = 0
    ele_percore: int = 0
    ub_loop: int = 0
    ele_tail_core: int = 0
    ub_loop_tail: int = 0
    used_core_num: int = 0
    dtype_size: int = 0


def calculate_prefix_sum_and_sizes(shapes: list[tuple[int, ...]]) -> tuple[list[int], int, int]:
    # prefix sums: to split over cores and loops
    input_num = len(shapes)
    prefix_sum = [0] * (input_num + 1)
    same_dim_size = 0
    for i in range(input_num):
        input_sizes = 1
        for d in shapes[i]:
            input_sizes *= d
        if i == 0:
            same_dim_size = input_sizes // shapes[i][0]
        prefix_sum[i + 1] = prefix_sum[i] + input_sizes
    output_size = prefix_sum[input_num]
    return prefix_sum, same_dim_size, output_size


def calculate_core_distribution(tilingdata: ConcatDV2Tiling, output_size: int, core_num: int,
                                ele_per_ub_block: int) -> None:
    assert core_num != 0 and ele_per_ub_block != 0
    tilingdata.ele_percore = (output_size + core_num - 1) // core_num
    ele_percore_align = (tilingdata.ele_percore + ele_per_ub_block - 1) // ele_per_ub_block * ele_per_ub_block
    used_core_num = (output_size + ele_percore_align - 1) // ele_percore_align
    ele_tail_core = output_size - (used_core_num - 1) * ele_percore_align
    tilingdata.ele_percore = ele_percore_align
    tilingdata.used_core_num = used_core_num
    tilingdata.ele_tail_core = ele_tail_core


def calculate_block_distribution(tilingdata: ConcatDV2Tiling, ele_per_ub_block: int, ub_size: int) -> None:
    assert ele_per_ub_block != 0
    ele_per_loop = ((ub_size // tilingdata.dtype_size + ele_per_ub_block - 1) // ele_per_ub_block
                    * ele_per_ub_block)
    ub_loop = (tilingdata.ele_percore + ele_per_loop - 1) // ele_per_loop
    ub_loop_tail = (tilingdata.ele_tail_core + ele_per_loop - 1) // ele_per_loop
    tilingdata.ele_per_loop = ele_per_loop
    tilingdata.ub_loop = ub_loop
    tilingdata.ub_loop_tail = ub_loop_tail


def tiling4_concat_dv2(shapes: list[tuple[int, ...]], dtype) -> tuple[ConcatDV2TilingData, int, int, int]:
    """Tiling4ConcatDV2: (tiling, tiling key, block dim, workspace size)."""
    chip = get_chip(CHIP)
    core_num = chip.vector_cores  # GetCoreNumAiv()
    ub_size = chip.ub_usable_bytes  # GetCoreMemSize(UB)
    sys_workspace_size = asc.sys_workspace_size(chip)  # GetLibApiWorkSpaceSize()
    prefix_sum, same_dim_size, output_size = calculate_prefix_sum_and_sizes(shapes)
    # the data type
    tilingdata = ConcatDV2Tiling()
    tilingdata.dtype_size = np.dtype(dtype).itemsize
    ele_per_ub_block = UB_BLOCK_SIZE // tilingdata.dtype_size
    # split over cores and loops
    calculate_core_distribution(tilingdata, output_size, core_num, ele_per_ub_block)
    calculate_block_distribution(tilingdata, ele_per_ub_block, ub_size)
    # offsets
    input_num = len(prefix_sum) - 1
    end_tensor_idx = [0] * TILING_ARRAY_LENGTH
    end_tensor_offset = [0] * TILING_ARRAY_LENGTH
    for i in range(1, tilingdata.used_core_num):
        for j in range(1, input_num + 1):
            if prefix_sum[j] >= i * tilingdata.ele_percore:
                end_tensor_idx[i - 1] = j - 1
                break
        end_tensor_offset[i - 1] = i * tilingdata.ele_percore - prefix_sum[end_tensor_idx[i - 1]]
    end_tensor_idx[tilingdata.used_core_num - 1] = input_num - 1
    end_tensor_offset[tilingdata.used_core_num - 1] = prefix_sum[input_num] - prefix_sum[input_num - 1]
    tiling = ConcatDV2TilingData(tilingdata.ele_per_loop, tilingdata.ele_percore, tilingdata.ub_loop,
                                 tilingdata.ele_tail_core, tilingdata.ub_loop_tail, same_dim_size,
                                 end_tensor_idx, end_tensor_offset)
    return tiling, TILING_KEY, tilingdata.used_core_num, sys_workspace_size


# ---- op_kernel ---------------------------------------------------------------------------------
class ConcatDV2:
    def __init__(self, t, pipe: asc.TPipe) -> None:
        self.t, self.pipe_ = t, pipe
        self.buf = np.zeros(10, np.uint64)
        self.desc_ = asc.TensorDesc(t)
        self.input_list_ = asc.ListTensorDesc()
        self.dst_global_ = asc.GlobalTensor(t)
        self.src_global_ = asc.GlobalTensor(t)
        self.in_out_queue_ = asc.TQueBind(asc.QuePosition.VECIN, asc.QuePosition.VECOUT, BUFFER_NUM)
        self.start_tensor_idx_ = 0
        self.start_tensor_offset_ = 0

    def init(self, x, dst, tiling_data: ConcatDV2TilingData) -> None:
        self.block_idx_ = asc.get_block_idx()
        self.used_core_num = asc.get_block_num()
        self.ele_per_loop_ = tiling_data.ele_per_loop
        self.ele_percore_ = tiling_data.ele_percore
        self.ub_loop_ = tiling_data.ub_loop
        self.same_dim_size_ = tiling_data.same_dim_size

        if self.block_idx_ != 0:
            self.start_tensor_idx_ = tiling_data.end_tensor_idx[self.block_idx_ - 1]
            self.start_tensor_offset_ = tiling_data.end_tensor_offset[self.block_idx_ - 1]
        self.end_tensor_offset_ = tiling_data.end_tensor_offset[self.block_idx_]
        self.end_tensor_idx_ = tiling_data.end_tensor_idx[self.block_idx_]

        self.input_list_ = asc.ListTensorDesc(x)
        self.desc_.set_shape_addr(self.buf)  # for the shapes
        self.input_num_ = self.input_list_.get_size()

        self.block_offset_ = self.block_idx_ * self.ele_percore_
        self.dst_global_.set_global_buffer(dst.cast(self.t) + self.block_offset_)
        self.pipe_.init_buffer(self.in_out_queue_, BUFFER_NUM, self.ele_per_loop_ * self.t.itemsize)
        if self.block_idx_ == asc.get_block_num() - 1:
            self.ele_percore_ = tiling_data.ele_tail_core
            self.ub_loop_ = tiling_data.ub_loop_tail

    def process(self) -> None:
        cur_tensor_idx = 0
        src_gm_offset = 0
        dst_gm_offset = 0
        for i in range(self.ub_loop_):
            src_local = self.in_out_queue_.alloc_tensor(self.t)
            ub_offset = 0
            total_input_size = 0
            for j in range(self.start_tensor_idx_, self.end_tensor_idx_ + 1):
                self.input_list_.get_desc(self.desc_, j)
                input_size = self.desc_.get_shape(0) * self.same_dim_size_
                start_offset = 0
                if j == self.start_tensor_idx_:
                    input_size = input_size - self.start_tensor_offset_
                    start_offset = self.start_tensor_offset_
                input_size = self.end_tensor_offset_ if j == self.end_tensor_idx_ else input_size
                input_size = ((self.end_tensor_offset_ - self.start_tensor_offset_)
                              if self.start_tensor_idx_ == self.end_tensor_idx_ else input_size)
                if input_size == 0:
                    continue
                pre_input_size = total_input_size
                total_input_size += input_size
                # the tensors this loop covers
                loop = self.ele_per_loop_
                if pre_input_size < (i + 1) * loop and total_input_size > i * loop:
                    if cur_tensor_idx != j:
                        src_gm_offset = 0
                    cur_tensor_idx = j
                    self.src_global_.set_global_buffer(
                        self.input_list_.get_data_ptr(self.t, j) + start_offset + src_gm_offset)
                    copy_num = (self.ele_per_loop_ if total_input_size >= (i + 1) * self.ele_per_loop_
                                else (input_size if pre_input_size > i * self.ele_per_loop_
                                      else (total_input_size - i * self.ele_per_loop_)))
                    copy_num = copy_num if ub_offset + copy_num <= loop else loop - ub_offset
                    block_len = copy_num * self.t.itemsize // UB_BLOCK_SIZE
                    copy_params_in = asc.DataCopyParams(1, block_len, 0, 0)
                    asc.data_copy(src_local[ub_offset], self.src_global_, copy_params_in)
                    ub_offset += copy_num
                    src_gm_offset += copy_num
            self.in_out_queue_.enque(src_local)
            dst_local = self.in_out_queue_.deque(self.t)
            copy_num = (self.ele_percore_ - i * self.ele_per_loop_ if i == self.ub_loop_ - 1
                        else self.ele_per_loop_)
            block_len = copy_num * self.t.itemsize // UB_BLOCK_SIZE
            copy_params_out = asc.DataCopyParams(1, block_len, 0, 0)
            asc.data_copy(self.dst_global_[dst_gm_offset], dst_local, copy_params_out)
            dst_gm_offset += copy_num
            self.in_out_queue_.free_tensor(dst_local)


@asc.kernel
def concat_dv2(x, y, workspace, tiling: ConcatDV2TilingData, dtype):
    pipe = asc.TPipe()
    # GET_TILING_DATA(tiling_data, tiling): the tiling arrives as the Python object
    t = {1: asc.int8, 2: asc.half, 4: asc.float32, 8: asc.int64}[np.dtype(dtype).itemsize]
    op = ConcatDV2(t, pipe)
    op.init(x, y, tiling)
    op.process()


def run_case(shapes: list[tuple[int, ...]], dtype, stream) -> tuple[bool, str]:
    rng = np.random.default_rng(len(shapes))
    xs = [rng.standard_normal(s).astype(dtype) for s in shapes]
    tiling, _key, block_dim, workspace_size = tiling4_concat_dv2(shapes, dtype)
    d_xs = [aclsim.malloc(x.nbytes) for x in xs]
    for b, x in zip(d_xs, xs, strict=True):
        aclsim.memcpy(b, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    x_list = asc.make_list_tensor_desc(d_xs, shapes)  # the framework's descriptor of the list
    want = np.concatenate(xs, axis=0)
    d_y, d_ws = aclsim.malloc(want.nbytes), aclsim.malloc(workspace_size)
    launch = concat_dv2[block_dim, stream](x_list, d_y, d_ws, tiling, np.dtype(dtype))
    aclsim.synchronize_stream(stream)
    y = np.empty_like(want)
    aclsim.memcpy(y, y.nbytes, d_y, y.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    for b in (*d_xs, x_list, d_y, d_ws):
        aclsim.free(b)
    ok = bool(np.array_equal(y, want)) and not launch.diagnostics
    return ok, (f"concat {len(shapes)} x {np.dtype(dtype).name:8s} -> {want.shape}, {block_dim:2d} blocks, "
                f"{launch.report.total_cycles:.0f} cycles")


def main() -> int:
    aclsim.init(chip=CHIP)
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    ok = True
    # three tensors spread over 32 cores (a core's share ends inside a tensor); one bigger than
    # a core's share; half: 16-element blocks; a list of one
    for shapes, dtype in (([(5, 16), (3, 16), (8, 16)], np.float32),
                          ([(40, 8), (2, 8), (6, 8), (16, 8)], np.float32),
                          ([(3, 32), (9, 32)], np.float16),
                          ([(4, 8, 8)], np.int32)):
        good, line = run_case(shapes, dtype, stream)
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
