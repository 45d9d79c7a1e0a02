"""The Ascend C programming model in Python: write a kernel, run it exactly, see its pipes.

``import aclsim.kernel as asc``; names mirror Ascend C one to one (classes keep their
names, functions are snake_case; the table is ``docs/dsl_mapping.md``).

>>> import numpy as np, aclsim, aclsim.kernel as asc
>>> @asc.kernel
... def double(x, y):
...     pipe = asc.TPipe()
...     q_in, q_out = asc.TQue(asc.TPosition.VECIN, 1), asc.TQue(asc.TPosition.VECOUT, 1)
...     pipe.init_buffer(q_in, 1, 256); pipe.init_buffer(q_out, 1, 256)
...     gx, gy = asc.GlobalTensor(asc.float32), asc.GlobalTensor(asc.float32)
...     gx.set_global_buffer(x); gy.set_global_buffer(y)
...     t = q_in.alloc_tensor(asc.float32); asc.data_copy(t, gx, 64); q_in.enque(t)
...     t = q_in.deque(); u = q_out.alloc_tensor(asc.float32)
...     asc.add(u, t, t, 64); q_out.enque(u); q_in.free_tensor(t)
...     u = q_out.deque(); asc.data_copy(gy, u, 64); q_out.free_tensor(u)
>>> aclsim.init(chip="tiny"); aclsim.set_device(0)
>>> x = np.arange(64, dtype=np.float32); bx, by = aclsim.malloc(256), aclsim.malloc(256)
>>> aclsim.memcpy(bx, 256, x, 256, aclsim.MemcpyKind.HOST_TO_DEVICE)
>>> launch = double[1, None](bx, by); aclsim.synchronize_device()
>>> y = np.empty_like(x); aclsim.memcpy(y, 256, by, 256, aclsim.MemcpyKind.DEVICE_TO_HOST)
>>> bool((y == 2 * x).all()), launch.report.total_cycles > 0
(True, True)
>>> aclsim.free(bx); aclsim.free(by); aclsim.reset_device(0); aclsim.finalize()
[]
"""

from aclsim.isa import HardEvent, Pipe
from aclsim.kernel import highlevel as _highlevel
from aclsim.kernel._core import (
    KernelOptions,
    bfloat16,
    float16,
    float32,
    get_block_idx,
    get_block_num,
    half,
    int4b_t,
    int8,
    int16,
    int32,
    int64,
    set_source_location,
    source_location,
    uint8,
    uint16,
    uint32,
    uint64,
)
from aclsim.kernel.allocator import Hardware, LocalMemAllocator  # memory, cache, utilities (issue 13)
from aclsim.kernel.atomic import (
    disable_dma_atomic,
    set_atomic_add,
    set_atomic_max,
    set_atomic_min,
    set_atomic_none,
    set_atomic_type,
)
from aclsim.kernel.blocks import KernelPythonError
from aclsim.kernel.cache import CacheMode, CacheRwMode
from aclsim.kernel.comparison import CMPMODE, SELMODE, compare, compare_scalar, select
from aclsim.kernel.conversion import RoundMode, cast
from aclsim.kernel.copy import (
    DataCopyExtParams,
    DataCopyPadExtParams,
    DataCopyPadParams,
    DataCopyParams,
    Nd2NzParams,
    data_copy,
    data_copy_pad,
)
from aclsim.kernel.coretype import (
    CoreType,
    KernelMetaType,
    ascend_is_aic,
    ascend_is_aiv,
    core_type,
    get_tpipe_ptr,
    init_soc_state,
    kernel_task_type,
    kernel_task_type_default,
)
from aclsim.kernel.crosscore import (
    MixLayout,
    cross_core_set_flag,
    cross_core_wait_flag,
    get_task_ratio,
    get_task_ration,
    notify_event,
    wait_event,
)
from aclsim.kernel.cube import (
    CFG_COLUMN_MAJOR,
    CFG_NZ,
    CFG_ROW_MAJOR,
    BlockMode,
    CO2Layout,
    DataCopyEnhancedParams,
    DeqScale,
    FixpipeConfig,
    FixpipeParams,
    FixpipeParamsV220,
    LoadData2DParams,
    LoadData2dParams,
    MmadParams,
    QuantMode,
    fixpipe,
    load_data,
    mmad,
)
from aclsim.kernel.cube_fill import InitConstValueParams, fill, init_const_value
from aclsim.kernel.cube_load import LoadData2dTransposeParams, LoadData3DParamsV2, load_data_with_transpose
from aclsim.kernel.cube_modes import HF32Mode, HF32TransMode, set_hf32_mode, set_hf32_trans_mode
from aclsim.kernel.dcache import (
    CACHE_LINE_BYTES,
    CacheLine,
    DcciDst,
    data_cache_clean_and_invalid,
    read_gm_by_pass_dcache,
    write_gm_by_pass_dcache,
)
from aclsim.kernel.elementwise import (  # the elementwise instructions: one line each in its table
    abs,
    add,
    adds,
    and_,
    div,
    duplicate,
    exp,
    leaky_relu,
    ln,
    max,
    maxs,
    min,
    mins,
    mul,
    muls,
    not_,
    or_,
    reciprocal,
    relu,
    rsqrt,
    shift_left,
    shift_right,
    sqrt,
    sub,
)
from aclsim.kernel.gather import (  # after kernel.copy: the name ``copy`` is the instruction Copy
    BrcbRepeatParams,
    CopyRepeatParams,
    GatherMaskParams,
    brcb,
    copy,
    gather,
    gather_mask,
)
from aclsim.kernel.gm import GmAddr
from aclsim.kernel.helpers import (
    BLOCK_CUBE,
    DEFAULT_C0_SIZE,
    ONE_BLK_SIZE,
    ceil_division,
    total_l0a_size,
    total_l0b_size,
    total_l0c_size,
    total_l1_size,
    total_ub_size,
    total_vec_local_size,
)
from aclsim.kernel.highlevel import *  # noqa: F403  (their names: highlevel.__all__)
from aclsim.kernel.ibsync import ib_set, ib_wait
from aclsim.kernel.launch import (
    Kernel,
    KernelLaunch,
    add_launch_listener,
    capture_launches,
    kernel,
    remove_launch_listener,
)
from aclsim.kernel.layout import (
    Coord,
    Layout,
    Shape,
    Stride,
    crd2idx,
    is_layout,
    make_coord,
    make_layout,
    make_shape,
    make_stride,
)
from aclsim.kernel.listtensor import ListTensorDesc, TensorDesc, list_tensor_desc_words, make_list_tensor_desc
from aclsim.kernel.mask import (
    MASK_PLACEHOLDER,
    MaskMode,
    reset_mask,
    set_mask_count,
    set_mask_norm,
    set_vector_mask,
    vector_mask_state,
)
from aclsim.kernel.movement import (
    NCHW_CONV_ADDR_LIST_SIZE,
    DataCopyMVType,
    LoopModeParams,
    TransDataTo5HDParams,
    reset_loop_mode_para,
    set_loop_mode_para,
    trans_data_to_5hd,
)
from aclsim.kernel.multicore import (
    get_sub_block_idx,
    get_sub_block_num,
    get_sys_workspace_ptr,
    get_user_workspace,
    init_global_memory,
    init_output,
    reserved_workspace,
    set_sys_workspace,
    sync_all,
    sys_workspace_size,
)
from aclsim.kernel.pipe import TBuf, TPipe, TQue, TQueBind
from aclsim.kernel.placed import local_tensor
from aclsim.kernel.quant import set_deq_scale
from aclsim.kernel.reduction import (
    ReduceOrder,
    block_reduce_max,
    block_reduce_min,
    block_reduce_sum,
    pair_reduce_sum,
    reduce_max,
    reduce_min,
    repeat_reduce_sum,
    whole_reduce_max,
    whole_reduce_min,
    whole_reduce_sum,
)
from aclsim.kernel.repeat import BinaryRepeatParams, UnaryRepeatParams
from aclsim.kernel.sanitizer import KernelDiagnostic, KernelSanitizerWarning
from aclsim.kernel.scalar import (
    DEFAULT_BLK_NUM,
    DEFAULT_BLK_STRIDE,
    DEFAULT_REPEAT_STRIDE,
    HALF_DEFAULT_REPEAT_STRIDE,
    MAX_REPEAT_TIMES,
    ONE_BLK_FLOAT_NUM,
    ONE_BLK_HALF_NUM,
    ONE_BYTE_BIT_SIZE,
    ONE_FOURTH_DEFAULT_REPEAT_STRIDE,
    ONE_REPEAT_BYTE_SIZE,
    AscendCUtils,
    get_ctrl_spr,
    get_data_block_size_in_bytes,
    set_ctrl_spr,
    to_bfloat16,
    to_float,
)
from aclsim.kernel.sync import (
    PIPE_ALL,
    PIPE_FIX,
    PIPE_M,
    PIPE_MTE1,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_S,
    PIPE_V,
    pipe_barrier,
    set_flag,
    wait_flag,
)
from aclsim.kernel.sysvar import (
    SYSTEM_COUNTER_HZ,
    DataFormat,
    get_system_cycle,
    oom_check_addr_range,
    system_cycle_readings,
)
from aclsim.kernel.tensor import GlobalTensor, LocalTensor, QuePosition, TPosition
from aclsim.kernel.vector_more import (
    ReduceType,
    arange,
    arith_progression,
    axpy,
    compares,
    create_vec_index,
    reduce_data_block,
    reduce_pair_elem,
    reduce_repeat,
)

__all__ = [
    "CMPMODE",
    "PIPE_ALL",
    "PIPE_FIX",
    "PIPE_M",
    "PIPE_MTE1",
    "PIPE_MTE2",
    "PIPE_MTE3",
    "PIPE_S",
    "PIPE_V",
    "SELMODE",
    "BinaryRepeatParams",
    "DataCopyExtParams",
    "DataCopyPadExtParams",
    "DataCopyParams",
    "FixpipeParams",
    "FixpipeParamsV220",
    "GlobalTensor",
    "GmAddr",
    "HardEvent",
    "Kernel",
    "KernelDiagnostic",
    "KernelLaunch",
    "KernelOptions",
    "KernelSanitizerWarning",
    "LoadData2DParams",
    "LocalTensor",
    "MmadParams",
    "Nd2NzParams",
    "Pipe",
    "QuantMode",
    "QuePosition",
    "ReduceOrder",
    "RoundMode",
    "TBuf",
    "TPipe",
    "TPosition",
    "TQue",
    "TQueBind",
    "UnaryRepeatParams",
    "abs",
    "add",
    "add_launch_listener",
    "adds",
    "bfloat16",
    "capture_launches",
    "cast",
    "compare",
    "compare_scalar",
    "data_copy",
    "data_copy_pad",
    "div",
    "duplicate",
    "exp",
    "fixpipe",
    "float16",
    "float32",
    "get_block_idx",
    "get_block_num",
    "half",
    "int8",
    "int16",
    "int32",
    "int4b_t",
    "int64",
    "kernel",
    "ln",
    "load_data",
    "max",
    "maxs",
    "min",
    "mins",
    "mmad",
    "mul",
    "muls",
    "pipe_barrier",
    "reciprocal",
    "reduce_max",
    "reduce_min",
    "reduce_sum",
    "relu",
    "remove_launch_listener",
    "rsqrt",
    "select",
    "set_flag",
    "sqrt",
    "sub",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "wait_flag",
    "whole_reduce_max",
    "whole_reduce_min",
    "whole_reduce_sum",
    # placed local tensors and the L2 cache hint
    "CacheMode",
    "CacheRwMode",
    "local_tensor",
    # issue 13, vector APIs: mask register and counter mode, more reductions
    "MASK_PLACEHOLDER",
    "MaskMode",
    "block_reduce_max",
    "block_reduce_min",
    "block_reduce_sum",
    "pair_reduce_sum",
    "repeat_reduce_sum",
    "reset_mask",
    "set_mask_count",
    "set_mask_norm",
    "set_vector_mask",
    "vector_mask_state",
    # issue 13, vector APIs: data rearrangement
    "BrcbRepeatParams",
    "CopyRepeatParams",
    "GatherMaskParams",
    "brcb",
    "copy",
    "gather",
    "gather_mask",
    # issue 13, vector APIs: bitwise, shifts, LeakyRelu
    "and_",
    "leaky_relu",
    "not_",
    "or_",
    "shift_left",
    "shift_right",
    "set_deq_scale",
    # issue 13, the high-level Matmul API and its host tiling
    # issue 13, the high-level SoftMax API and its tiling
    # issue 13, the high-level LayerNorm API and its tiling
]
__all__ += [  # multi-core kernels, atomic stores, workspaces (issue 13)
    "KernelPythonError",
    "disable_dma_atomic",
    "get_sub_block_idx",
    "get_sub_block_num",
    "get_sys_workspace_ptr",
    "get_user_workspace",
    "init_global_memory",
    "init_output",
    "set_atomic_add",
    "set_atomic_max",
    "set_atomic_min",
    "set_atomic_none",
    "set_atomic_type",
    "set_sys_workspace",
    "sync_all",
    "sys_workspace_size",
    "reserved_workspace",
]
__all__ += [  # data movement (issue 13)
    "NCHW_CONV_ADDR_LIST_SIZE",
    "BlockMode",
    "DataCopyEnhancedParams",
    "DataCopyMVType",
    "DataCopyPadParams",
    "DeqScale",
    "LoopModeParams",
    "TransDataTo5HDParams",
    "reset_loop_mode_para",
    "set_loop_mode_para",
    "trans_data_to_5hd",
]
__all__ += [  # cube paths and helpers (issue 13)
    "BLOCK_CUBE",
    "DEFAULT_C0_SIZE",
    "ONE_BLK_SIZE",
    "HF32Mode",
    "HF32TransMode",
    "LoadData2dParams",
    "LoadData2dTransposeParams",
    "LoadData3DParamsV2",
    "ceil_division",
    "load_data_with_transpose",
    "set_hf32_mode",
    "set_hf32_trans_mode",
    "total_l0a_size",
    "total_l0b_size",
    "total_l0c_size",
    "total_l1_size",
    "total_ub_size",
    "total_vec_local_size",
    # issue 13: kernel types, the core type of a block, GetTPipePtr
    "CoreType",
    "KernelMetaType",
    "ascend_is_aic",
    "ascend_is_aiv",
    "core_type",
    "get_tpipe_ptr",
    "init_soc_state",
    "kernel_task_type",
    "kernel_task_type_default",
    *(t.name for t in KernelMetaType),
    "AIC",
    "AIV",
]

__all__ += [  # memory, cache and utility APIs (issue 13)
    "CACHE_LINE_BYTES",
    "CacheLine",
    "DataFormat",
    "DcciDst",
    "Hardware",
    "ListTensorDesc",
    "LocalMemAllocator",
    "TensorDesc",
    "data_cache_clean_and_invalid",
    "get_system_cycle",
    "list_tensor_desc_words",
    "make_list_tensor_desc",
    "oom_check_addr_range",
    "read_gm_by_pass_dcache",
    "SYSTEM_COUNTER_HZ",
    "system_cycle_readings",
    "write_gm_by_pass_dcache",
    "Coord",
    "Layout",
    "Shape",
    "Stride",
    "crd2idx",
    "is_layout",
    "make_coord",
    "make_layout",
    "make_shape",
    "make_stride",
]

__all__ += [  # mixed AIC + AIV kernels, cross-core flags (issue 13)
    "MixLayout",
    "cross_core_set_flag",
    "cross_core_wait_flag",
    "get_task_ratio",
    "get_task_ration",
    "ib_set",
    "ib_wait",
    "notify_event",
    "wait_event",
]


#: Ascend C's kernel-type values and core types, unqualified as kernels write them.
globals().update({t.name: t for t in KernelMetaType})
AIC, AIV = CoreType.AIC, CoreType.AIV


def __getattr__(name: str) -> object:
    """``asc.ASCEND_IS_AIV``, ``asc.ASCEND_IS_AIC``, ``asc.g_coreType``: read inside a kernel, as
    the macros are, they tell the core type of the running block (kernel/coretype.py)."""
    from aclsim.kernel.coretype import DYNAMIC

    fn = DYNAMIC.get(name)
    if fn is None:
        raise AttributeError(f"module 'aclsim.kernel' has no attribute {name!r}")
    return fn()


__all__ += [  # more vector and scalar APIs (issue 13)
    "DEFAULT_BLK_NUM",
    "DEFAULT_BLK_STRIDE",
    "DEFAULT_REPEAT_STRIDE",
    "HALF_DEFAULT_REPEAT_STRIDE",
    "MAX_REPEAT_TIMES",
    "ONE_BLK_FLOAT_NUM",
    "ONE_BLK_HALF_NUM",
    "ONE_BYTE_BIT_SIZE",
    "ONE_FOURTH_DEFAULT_REPEAT_STRIDE",
    "ONE_REPEAT_BYTE_SIZE",
    "AscendCUtils",
    "InitConstValueParams",
    "ReduceType",
    "arange",
    "arith_progression",
    "axpy",
    "compares",
    "create_vec_index",
    "fill",
    "get_ctrl_spr",
    "get_data_block_size_in_bytes",
    "init_const_value",
    "reduce_data_block",
    "reduce_pair_elem",
    "reduce_repeat",
    "set_ctrl_spr",
    "to_bfloat16",
    "to_float",
]

__all__ += [  # fixpipe layouts (issue 13)
    "CFG_COLUMN_MAJOR",
    "CFG_NZ",
    "CFG_ROW_MAJOR",
    "CO2Layout",
    "FixpipeConfig",
]
__all__ += _highlevel.__all__  # the high-level APIs (kernel/highlevel.py)

from aclsim.kernel.sort import (  # noqa: E402  # the sort family (issue 13)
    MrgSort4Info,
    MrgSortSrcList,
    concat,
    extract,
    get_mrg_sort_result,
    get_sort_offset,
    mrg_sort,
    mrg_sort4,
    proposal_concat,
    proposal_extract,
    rp_sort16,
    sort,
    sort32,
)

__all__ += [  # the sort family (kernel/sort.py, issue 13)
    "MrgSort4Info",
    "MrgSortSrcList",
    "concat",
    "extract",
    "get_mrg_sort_result",
    "get_sort_offset",
    "mrg_sort",
    "mrg_sort4",
    "proposal_concat",
    "proposal_extract",
    "rp_sort16",
    "sort",
    "sort32",
]
# where a non-Python front end's statement is written (aclsim.ascendc)
__all__ += ["set_source_location", "source_location"]

# issue 13 (h13-rest): SetSaturationFlag / GetSaturationFlag
from aclsim.kernel.scalar import SaturationMode, get_saturation_flag, set_saturation_flag  # noqa: E402

__all__ += ["SaturationMode", "get_saturation_flag", "set_saturation_flag"]

from aclsim.kernel.accval import get_acc_val, get_reduce_repeat_sum_spr  # noqa: E402
from aclsim.kernel.muladd import mul_add_dst  # noqa: E402
from aclsim.kernel.reduce_api import reduce_sum  # noqa: E402  (the basic and the Pattern forms)

__all__ += [  # issue 13's most used missing names (kernel/accval.py, muladd.py)
    "get_acc_val",
    "get_reduce_repeat_sum_spr",
    "mul_add_dst",
]

from aclsim.kernel.fmatrix import (  # noqa: E402  (the img2col LoadData's registers, kernel/fmatrix.py)
    IS_RESER_LOAD3D_DEFAULT_CONFIG,
    FmatrixMode,
    IsResetLoad3dConfig,
    set_fmatrix,
    set_load_data_padding_value,
)

__all__ += [
    "IS_RESER_LOAD3D_DEFAULT_CONFIG",
    "FmatrixMode",
    "IsResetLoad3dConfig",
    "set_fmatrix",
    "set_load_data_padding_value",
]

from aclsim.kernel.co12 import DataCopyCO12DstParams, set_fixpipe_nz2nd_flag  # noqa: E402  (L0C -> GM DataCopy)

__all__ += ["DataCopyCO12DstParams", "set_fixpipe_nz2nd_flag"]

from aclsim.kernel.brcmm import broad_cast_vec_to_mm  # noqa: E402  (UB -> L0C on the 310P)

__all__ += ["broad_cast_vec_to_mm"]

from aclsim.kernel.transpose import TransposeParamsExt, TransposeType, transpose  # noqa: E402

__all__ += ["TransposeParamsExt", "TransposeType", "transpose"]

from aclsim.kernel.small_api import TQueSync, pop_stack_buffer, trap  # noqa: E402

__all__ += ["TQueSync", "pop_stack_buffer", "trap"]

from aclsim.kernel.scalar_bits import (  # noqa: E402  # the scalar bit helpers (issue 16)
    count_bits_cnt_same_as_sign_bit,
    count_leading_zero,
    get_bit_count,
    get_sff_value,
)

__all__ += ["count_bits_cnt_same_as_sign_bit", "count_leading_zero", "get_bit_count", "get_sff_value"]
