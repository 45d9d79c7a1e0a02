"""Port: CANN's MatmulFp32 operator (a multi-core high-level-API Matmul), tiling and kernel, line by line.

Source: hicann/ops-nn, commit e5c3fa9327ea95ba26d06227e746923580d10921, experimental/matmul/matmul_fp32/
(op_host/matmul_fp32_tiling.cpp; op_kernel/matmul_fp32.cpp, matmul_fp32_base_kernel.h,
matmul_fp32_base_block.h, matmul_fp32_common.h, matmul_fp32_tiling_data.h): y = x1 @ x2 + bias in
float32, cut into base blocks of up to 128 x 256 that the AI cores take in rounds
(``MatmulFp32BaseBlock``), each block one ``Iterate``/``GetTensorC`` of a ``MatmulImpl`` whose
shape is reset per block with ``SetSingleShape``.

How it maps:
- ``MatmulFp32TilingData{TCubeTiling, MatmulFp32RunInfo{transA, transB}}`` -> dataclasses;
  ``MatmulFp32TilingFunc`` and its helpers (``InitTilingData`` with ``MultiCoreMatmulTiling``,
  ``ResetBase``, ``CalL1Tiling``, ``PostTiling``) keep their arithmetic; the platform's sizes come
  from the chip preset (``GetCoreMemSize`` -> ``ChipSpec``); the BL1 full-load branch is off in the
  source (``is_support_bl1 = false``) and is left out.
- ``template <LOADMODE, ...> matmul_fp32`` with ``ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIC_ONLY)`` ->
  a kernel declaring ``KERNEL_TYPE_AIC_ONLY``; ``MM_FP32_IMPL_CLASS`` (one class per transA/transB)
  -> the MatmulType's ``is_trans`` chosen at run time.
- ``MatmulImpl<A, B, C, BIAS, MM_CFG_NO_PRELOAD>`` -> ``asc.MatmulImpl(..., cfg)`` with
  ``GetMDLConfig(false, false, 0, false, false, false, true)``; ``SetSubBlockIdx(0)``,
  ``Init(&tiling, pipe)``, ``SetSingleShape``, ``SetTensorA/B``, ``SetBias``, ``Iterate``,
  ``GetTensorC(gm, enAtomic)``, ``PipeBarrier<PIPE_ALL>``, ``SetAtomicNone`` as written.
- ``GetCurrentBlockIdx``'s AIV branch divides by ``GetTaskRation()`` (AIV cores per AIC in a mixed
  launch): written as ``get_sub_block_num()``, which is that ratio; this AIC-only launch never
  takes the branch.

Notes: float32 operands reach L0B through a fractal transpose only for 16-bit types in aclsim
(``load_data``), so x2 is passed transposed (transB = 1), one of the operator's four variants.
``CalcGMOffset`` places C at ``nIdx * singleCoreN + mIdx * singleCoreM * singleCoreN``, the C
row pitch being N: that is the right place only when singleCoreN = N (N a multiple of 16 that
fits one block), as in the shapes below; with N = 200, say, aclsim reports the last block's write
past the end of y (ACL 507043), as the device would overrun it.  Checked against NumPy.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

import numpy as np

import aclsim
import aclsim.kernel as asc
from aclsim.arch import get_chip

P, F, D = asc.TPosition, asc.CubeFormat, asc.DataType

# --- matmul_fp32_tiling_data.h / matmul_fp32_tiling_key.h ---------------------------------------------
MAT_MUL_FP32_NO_FULLLOAD, MAT_MUL_FP32_AL1_FULLLOAD, MAT_MUL_FP32_BL1_FULLLOAD = 0, 1, 2
MAT_MUL_FP32_BASE_SPLIT_K = 0
MAT_MUL_FP32_BASE_FIXOPTI = 0
MAT_MUL_FP32_MIXND2NZ_TRUE = 0


@dataclass
class MatmulFp32RunInfoData:  # the kernel-side MatmulFp32RunInfo
    trans_a: int = 0
    trans_b: int = 0


@dataclass
class MatmulFp32TilingData:
    t_cube_tiling: asc.TCubeTiling = field(default_factory=asc.TCubeTiling)
    matmul_fp32_run_info: MatmulFp32RunInfoData = field(default_factory=MatmulFp32RunInfoData)


# --- op_host/matmul_fp32_tiling.cpp -------------------------------------------------------------------
WS_SYS_SIZE = 16 * 1024 * 1024  # 16MB
DB_SIZE = 2
BASIC_BLOCK_SIZE_256 = 256
BASIC_BLOCK_SIZE_128 = 128
BASIC_BLOCK_K_128_BYTE = 128
DB_OFF_SIZE = 1
ITER_COL_FIRST = 0
DATA_SIZE_FP32 = 4
BIAS_TABLE_NUM = 256
NUM_HALF = 2
BASE_STEP = 1
BASIC_ALIGN_16 = 16

FULL_LOAD_TYPE = MAT_MUL_FP32_NO_FULLLOAD
is_support_bl1 = False


@dataclass
class MatmulFp32CompileInfo:
    aic_num: int = 0
    ub_size: int = 0
    l1_size: int = 0
    l0_c_size: int = 0
    bt_size: int = 0


@dataclass
class MatmulFp32RunInfo:
    used_core_num: int = 1
    single_core_m: int = 1
    single_core_n: int = 1
    single_core_k: int = 1
    base_m: int = 1
    base_n: int = 1
    base_k: int = 1
    step_m: int = 1
    step_n: int = 1
    step_ka: int = 1
    step_kb: int = 1
    depth_a1: int = 1
    depth_b1: int = 1
    iterate_order: int = 0
    db_l0c: int = 0


@dataclass
class MatmulFp32Args:
    is_a_trans: bool = False
    is_b_trans: bool = False
    has_bias: bool = False
    m_value: int = 0
    n_value: int = 0
    k_value: int = 0


def ceil_div(x: int, align: int) -> int:
    if align == 0:
        return x
    return (x + align - 1) // align


def ceil_align(x: int, align: int) -> int:
    return ceil_div(x, align) * align


def get_platform_info(chip: str, compile_info: MatmulFp32CompileInfo) -> None:
    spec = get_chip(chip)  # ascendcPlatform.GetCoreNumAic / GetCoreMemSize
    compile_info.aic_num = spec.cube_cores
    compile_info.bt_size = 1024
    compile_info.ub_size = spec.ub_usable_bytes
    compile_info.l1_size = spec.l1_bytes
    compile_info.l0_c_size = spec.l0c_bytes


def init_tiling_data(chip: str, t_cube_tiling: asc.TCubeTiling, compile_info: MatmulFp32CompileInfo,
                     args: MatmulFp32Args) -> bool:
    tiling_api = asc.MultiCoreMatmulTiling(chip)
    tiling_api.set_a_type(P.GM, F.ND, D.DT_FLOAT, args.is_a_trans)
    tiling_api.set_b_type(P.GM, F.ND, D.DT_FLOAT, args.is_b_trans)
    tiling_api.set_c_type(P.GM, F.ND, D.DT_FLOAT)
    tiling_api.set_dim(compile_info.aic_num)
    tiling_api.set_shape(args.m_value, args.n_value, args.k_value)
    tiling_api.set_org_shape(args.m_value, args.n_value, args.k_value)
    if args.has_bias:
        tiling_api.set_bias(True)
        tiling_api.set_bias_type(P.GM, F.ND, D.DT_FLOAT)
    tiling_api.set_buffer_space(compile_info.l1_size, compile_info.l0_c_size, compile_info.ub_size)
    return tiling_api.get_tiling(t_cube_tiling) != -1


def reset_base(args: MatmulFp32Args, run_info: MatmulFp32RunInfo) -> None:
    run_info.base_m = BASIC_BLOCK_SIZE_128
    run_info.base_n = BASIC_BLOCK_SIZE_256  # 256 is better base
    run_info.base_k = BASIC_BLOCK_K_128_BYTE // DATA_SIZE_FP32
    run_info.step_m = BASE_STEP
    run_info.step_n = BASE_STEP
    run_info.iterate_order = ITER_COL_FIRST
    run_info.db_l0c = DB_OFF_SIZE
    run_info.single_core_k = args.k_value


def cal_l1_tiling(compile_info: MatmulFp32CompileInfo, args: MatmulFp32Args,
                  run_info: MatmulFp32RunInfo) -> None:
    run_info.base_m = ceil_align(min(args.m_value, run_info.base_m), BASIC_ALIGN_16)
    run_info.base_n = ceil_align(min(args.n_value, run_info.base_n), BASIC_ALIGN_16)
    reserve_bt_size = BIAS_TABLE_NUM * DATA_SIZE_FP32 if args.has_bias else 0
    l1_half = compile_info.l1_size // NUM_HALF  # 2: half of l1
    run_info.depth_a1 = l1_half // run_info.base_m // run_info.base_k // DATA_SIZE_FP32
    run_info.depth_b1 = l1_half // run_info.base_n // run_info.base_k // DATA_SIZE_FP32

    depth_a_size = run_info.depth_a1 * run_info.base_m * run_info.base_k * DATA_SIZE_FP32
    depth_b_size = run_info.depth_b1 * run_info.base_n * run_info.base_k * DATA_SIZE_FP32
    if depth_a_size + depth_b_size > compile_info.l1_size - reserve_bt_size:
        if run_info.base_m <= run_info.base_n:
            run_info.depth_a1 = run_info.depth_a1 // NUM_HALF  # 2: adjust deptch for l1 buffer
        else:
            run_info.depth_b1 = run_info.depth_b1 // NUM_HALF  # 2: adjust deptch for l1 buffer
    run_info.step_ka = run_info.depth_a1 // DB_SIZE
    run_info.step_kb = run_info.depth_b1 // DB_SIZE

    if run_info.step_ka >= run_info.step_kb:
        run_info.step_ka = run_info.step_ka // run_info.step_kb * run_info.step_kb
    else:
        run_info.step_kb = run_info.step_kb // run_info.step_ka * run_info.step_ka
    run_info.depth_a1 = run_info.step_ka * DB_SIZE  # depth % (stepKa * stepM) == 0
    run_info.depth_b1 = run_info.step_kb * DB_SIZE  # depth % (stepKb * stepN) == 0
    run_info.single_core_m = run_info.base_m
    run_info.single_core_n = run_info.base_n


def do_op_tiling(chip: str, t_cube_tiling: asc.TCubeTiling, compile_info: MatmulFp32CompileInfo,
                 args: MatmulFp32Args, run_info: MatmulFp32RunInfo) -> bool:
    ret = init_tiling_data(chip, t_cube_tiling, compile_info, args)  # 高阶api初始化tilingdata
    reset_base(args, run_info)  # 重置基本块
    cal_l1_tiling(compile_info, args, run_info)  # 计算L1的tiling参数
    if is_support_bl1:
        raise NotImplementedError("the BL1 full-load tiling is off in the source")
    return ret


def post_tiling(compile_info: MatmulFp32CompileInfo, tiling_data: MatmulFp32TilingData, args: MatmulFp32Args,
                run_info: MatmulFp32RunInfo) -> int:
    tiling_data.matmul_fp32_run_info.trans_a = int(args.is_a_trans)
    tiling_data.matmul_fp32_run_info.trans_b = int(args.is_b_trans)
    t = tiling_data.t_cube_tiling
    t.used_core_num = min(ceil_div(args.m_value, run_info.single_core_m) * ceil_div(args.n_value,
                                                                                    run_info.single_core_n),
                          compile_info.aic_num)
    t.single_core_m = run_info.single_core_m
    t.single_core_n = run_info.single_core_n
    t.single_core_k = run_info.single_core_k
    t.base_m = run_info.base_m
    t.base_n = run_info.base_n
    t.base_k = run_info.base_k
    t.depth_a1 = run_info.depth_a1
    t.depth_b1 = run_info.depth_b1
    t.step_m = run_info.step_m
    t.step_n = run_info.step_n
    t.step_ka = run_info.step_ka
    t.step_kb = run_info.step_kb
    t.iterate_order = run_info.iterate_order
    t.db_l0c = run_info.db_l0c
    return t.used_core_num  # context->SetBlockDim


def matmul_fp32_tiling_func(chip: str, args: MatmulFp32Args) -> tuple[MatmulFp32TilingData, int, int]:
    """``MatmulFp32TilingFunc``: (tiling data, block dim, workspace bytes)."""
    compile_info = MatmulFp32CompileInfo()
    get_platform_info(chip, compile_info)
    tiling_data = MatmulFp32TilingData()
    run_info = MatmulFp32RunInfo()
    if not do_op_tiling(chip, tiling_data.t_cube_tiling, compile_info, args, run_info):
        raise RuntimeError("failed to init tilingdata.")
    block_dim = post_tiling(compile_info, tiling_data, args, run_info)
    workspace = WS_SYS_SIZE + asc.sys_workspace_size(chip)  # GetWorkspaceSize
    return tiling_data, block_dim, workspace


# --- op_kernel/matmul_fp32_common.h -----------------------------------------------------------------
MM_CFG_MDL = asc.get_mdl_config()  # common MDL config
MM_CFG_NO_PRELOAD = asc.get_mdl_config(False, False, 0, False, False, False, True)  # set enUnitFlag


def mm_fp32_ceil_div(a: int, b: int) -> int:
    if b == 0:
        return a
    return (a + b - 1) // b


def get_current_block_idx() -> int:
    if asc.ASCEND_IS_AIV:
        return asc.get_block_idx() // asc.get_sub_block_num()  # GetTaskRation(): AIVs per AIC
    return asc.get_block_idx()


# --- op_kernel/matmul_fp32_base_block.h ---------------------------------------------------------------
@dataclass
class BlockOffset:
    offset_a: int = 0
    offset_b: int = 0
    offset_c: int = 0
    offset_bias: int = 0


@dataclass
class BaseBlockArgs:
    index: int = 0
    m_cnt_index: int = 0
    n_cnt_index: int = 0
    m_cnt: int = 0
    n_cnt: int = 0
    total_cnt: int = 0
    single_core_m: int = 0
    single_core_n: int = 0
    m_base_tail: int = 0
    n_base_tail: int = 0
    round: int = 0
    is_transpose_a: bool = False
    is_transpose_b: bool = False


class MatmulFp32BaseBlock:
    def __init__(self) -> None:
        self.offset_ = BlockOffset()
        self.params_ = BaseBlockArgs()
        self.matmul_fp32_tiling_data_: MatmulFp32TilingData | None = None

    def init(self, tiling_data: MatmulFp32TilingData) -> None:
        self.matmul_fp32_tiling_data_ = tiling_data
        t = tiling_data.t_cube_tiling
        self.params_.is_transpose_a = bool(tiling_data.matmul_fp32_run_info.trans_a)
        self.params_.is_transpose_b = bool(tiling_data.matmul_fp32_run_info.trans_b)
        self.params_.m_cnt = mm_fp32_ceil_div(t.m, t.single_core_m)  # 总的m方向base块个数
        self.params_.n_cnt = mm_fp32_ceil_div(t.n, t.single_core_n)  # 总的n方向base块个数
        self.params_.m_base_tail = t.m - (self.params_.m_cnt - 1) * t.single_core_m  # m方向的base尾块
        self.params_.n_base_tail = t.n - (self.params_.n_cnt - 1) * t.single_core_n  # n方向的base尾块
        self.params_.total_cnt = self.params_.m_cnt * self.params_.n_cnt
        self.params_.round = mm_fp32_ceil_div(self.params_.total_cnt, t.used_core_num)

    def update_basic_index(self, round_idx: int, block_idx: int) -> None:
        assert self.matmul_fp32_tiling_data_ is not None
        self.params_.index = block_idx + round_idx * self.matmul_fp32_tiling_data_.t_cube_tiling.used_core_num
        self.params_.m_cnt_index = self.params_.index // self.params_.n_cnt
        self.params_.n_cnt_index = self.params_.index % self.params_.n_cnt

    def update_block_params(self) -> None:
        assert self.matmul_fp32_tiling_data_ is not None
        t = self.matmul_fp32_tiling_data_.t_cube_tiling
        p = self.params_
        p.single_core_m = p.m_base_tail if p.m_cnt_index == p.m_cnt - 1 else t.single_core_m
        p.single_core_n = p.n_base_tail if p.n_cnt_index == p.n_cnt - 1 else t.single_core_n

    def calc_gm_offset(self) -> None:
        assert self.matmul_fp32_tiling_data_ is not None
        t = self.matmul_fp32_tiling_data_.t_cube_tiling
        p = self.params_
        if p.is_transpose_a:
            self.offset_.offset_a = p.m_cnt_index * t.single_core_m
        else:
            self.offset_.offset_a = p.m_cnt_index * t.single_core_m * t.ka
        if p.is_transpose_b:
            self.offset_.offset_b = p.n_cnt_index * t.single_core_n * t.kb
        else:
            self.offset_.offset_b = p.n_cnt_index * t.single_core_n
        self.offset_.offset_c = (p.n_cnt_index * t.single_core_n
                                 + p.m_cnt_index * t.single_core_m * t.single_core_n)
        if t.is_bias:
            self.offset_.offset_bias = p.n_cnt_index * t.single_core_n
        get_current_block_idx()


# --- op_kernel/matmul_fp32_base_kernel.h --------------------------------------------------------------
class MatmulFp32BaseKernel:
    def __init__(self, a_type: asc.MatmulType, b_type: asc.MatmulType, c_type: asc.MatmulType,
                 bias_type: asc.MatmulType, block_type: type = MatmulFp32BaseBlock,
                 mm_cfg: asc.MatmulConfig = MM_CFG_NO_PRELOAD) -> None:
        self.block_ = block_type()
        self.mm_ = asc.MatmulImpl(a_type, b_type, c_type, bias_type, mm_cfg)
        self.a_global_, self.b_global_ = asc.GlobalTensor(a_type.dtype), asc.GlobalTensor(b_type.dtype)
        self.c_global_, self.bias_global_ = asc.GlobalTensor(c_type.dtype), asc.GlobalTensor(bias_type.dtype)
        self.pipe_: asc.TPipe | None = None

    def init(self, a_gm, b_gm, c_gm, bias_gm, workspace_gm, tiling_data: MatmulFp32TilingData,
             pipe: asc.TPipe) -> None:
        self.block_.init(tiling_data)
        self.pipe_ = pipe
        self.init_inputs(a_gm, b_gm, c_gm, bias_gm)
        self.mm_.set_sub_block_idx(0)
        self.mm_.init(self.block_.matmul_fp32_tiling_data_.t_cube_tiling, self.pipe_)

    def init_inputs(self, a_gm, b_gm, c_gm, bias_gm) -> None:
        t = self.block_.matmul_fp32_tiling_data_.t_cube_tiling
        self.a_global_.set_global_buffer(a_gm, t.m * t.ka)
        self.b_global_.set_global_buffer(b_gm, t.kb * t.n)
        self.c_global_.set_global_buffer(c_gm, t.m * t.n)
        self.bias_global_.set_global_buffer(bias_gm, t.n)

    def process(self, index: int = 0, en_atomic: int = 0) -> None:
        if asc.ASCEND_IS_AIV:
            return
        t = self.block_.matmul_fp32_tiling_data_.t_cube_tiling
        for j in range(self.block_.params_.round):
            block_idx = get_current_block_idx()
            self.block_.update_basic_index(j, block_idx)  # update basic index
            if self.block_.params_.index < self.block_.params_.total_cnt:
                self.block_.update_block_params()
                self.block_.calc_gm_offset()
                self.mm_.set_single_shape(self.block_.params_.single_core_m,
                                          self.block_.params_.single_core_n, t.single_core_k)
                self.mm_.set_tensor_a(self.a_global_[self.block_.offset_.offset_a],
                                      self.block_.params_.is_transpose_a)
                self.mm_.set_tensor_b(self.b_global_[self.block_.offset_.offset_b],
                                      self.block_.params_.is_transpose_b)
                if t.is_bias:
                    self.mm_.set_bias(self.bias_global_[self.block_.offset_.offset_bias])
                self.mm_.iterate()
                self.mm_.get_tensor_c(self.c_global_[self.block_.offset_.offset_c], en_atomic)
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.set_atomic_none()


# --- op_kernel/matmul_fp32.cpp ------------------------------------------------------------------------
FORMAT_X1 = FORMAT_X2 = FORMAT_Y = F.ND


def mm_fp32_impl_class(template_class, a_format, tiling_data: MatmulFp32TilingData, a_gm, b_gm, c_gm, bias_gm,
                       user, *args) -> None:
    """``MM_FP32_IMPL_CLASS``: the class for the run's transA/transB (MatmulType's ISTRANS)."""
    c_type = asc.MatmulType(P.GM, FORMAT_Y, asc.float32)
    bias_type = asc.MatmulType(P.GM, F.ND, asc.float32)
    pipe = asc.TPipe()
    run = tiling_data.matmul_fp32_run_info
    a_type = asc.MatmulType(P.GM, a_format, asc.float32, bool(run.trans_a))
    b_type = asc.MatmulType(P.GM, FORMAT_X2, asc.float32, bool(run.trans_b))
    op = template_class(a_type, b_type, c_type, bias_type, *args)
    op.init(a_gm, b_gm, c_gm, bias_gm, user, tiling_data, pipe)
    op.process()


@asc.kernel
def matmul_fp32(a_gm, b_gm, bias_gm, c_gm, workspace_gm, tiling_gm,
                loadmode, splitcoremode, fixopti, mixnd2nz):  # the template arguments
    asc.kernel_task_type_default(asc.KERNEL_TYPE_AIC_ONLY)  # ASCENDC_TPL_KERNEL_TYPE_SEL(..._AIC_ONLY)
    tiling_data = tiling_gm  # GET_TILING_DATA_WITH_STRUCT(MatmulFp32TilingData, tilingData, tilingGM)
    user = asc.get_user_workspace(workspace_gm)
    if (loadmode == MAT_MUL_FP32_NO_FULLLOAD and splitcoremode == MAT_MUL_FP32_BASE_SPLIT_K
            and fixopti == MAT_MUL_FP32_BASE_FIXOPTI and mixnd2nz == MAT_MUL_FP32_MIXND2NZ_TRUE):
        mm_fp32_impl_class(MatmulFp32BaseKernel, FORMAT_X1, tiling_data, a_gm, b_gm, c_gm, bias_gm, user,
                           MatmulFp32BaseBlock, MM_CFG_NO_PRELOAD)
    else:
        raise NotImplementedError("the BL1 full-load kernel is not part of this port")


def run(m: int, n: int, k: int, chip: str = "tiny", seed: int = 0) -> float:
    """Runs the operator with x2 transposed and a bias; returns the largest error against NumPy."""
    args = MatmulFp32Args(is_a_trans=False, is_b_trans=True, has_bias=True, m_value=m, n_value=n, k_value=k)
    tiling_data, block_dim, ws_bytes = matmul_fp32_tiling_func(chip, args)
    rng = np.random.default_rng(seed)
    x1 = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    x2 = rng.uniform(-1, 1, (k, n)).astype(np.float32)
    bias = rng.uniform(-1, 1, n).astype(np.float32)
    y = np.zeros((m, n), np.float32)
    host = (x1, np.ascontiguousarray(x2.T), bias)
    bufs = [aclsim.malloc(x.nbytes) for x in (*host, y)]
    for buf, x in zip(bufs, host, strict=False):
        aclsim.memcpy(buf, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    workspace = aclsim.malloc(ws_bytes)
    try:
        launch = matmul_fp32[block_dim, None](bufs[0], bufs[1], bufs[2], bufs[3], workspace, tiling_data,
                                               MAT_MUL_FP32_NO_FULLLOAD, MAT_MUL_FP32_BASE_SPLIT_K,
                                               MAT_MUL_FP32_BASE_FIXOPTI, MAT_MUL_FP32_MIXND2NZ_TRUE)
        aclsim.synchronize_device()
        aclsim.memcpy(y, y.nbytes, bufs[3], y.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    finally:
        for buf in (*bufs, workspace):
            aclsim.free(buf)
    t = tiling_data.t_cube_tiling
    print(f"matmul_fp32 {m}x{k} @ {k}x{n} (+bias) on {block_dim} AIC, base {t.base_m} x {t.base_n} x "
          f"{t.base_k}, stepKa {t.step_ka}: {launch.report.total_cycles:.0f} cycles, "
          f"{launch.instructions} instructions")
    want = x1.astype(np.float64) @ x2.astype(np.float64) + bias
    return float(np.max(np.abs(y - want)))


def main() -> int:
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    err = run(300, 192, 100)  # three base blocks of M (the last 44 rows) on two cores: two rounds
    aclsim.reset_device(0)
    assert aclsim.finalize() == []
    if err > 1e-4:
        print(f"FAIL: max error {err:.3g}")
        return 1
    print(f"PASS (max error {err:.2e})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
