"""The Matmul object's template arguments: ``MatmulType``, ``MatmulConfig`` and its getters, the
callbacks (``MatmulCallBackFunc``) and the constant tiling (``GetMatmulApiTiling``).

In Ascend C these are compile-time template arguments of ``Matmul<A_TYPE, B_TYPE, C_TYPE,
BIAS_TYPE, MM_CFG, MM_CB>``; in aclsim they are values passed to :class:`~aclsim.kernel.Matmul`
(``Matmul(a_type, b_type, c_type, bias_type, cfg, cb)``).

``MatmulConfig`` keeps the documented fields (snake_case) and their defaults; the getters
(``get_normal_config``, ``get_mdl_config``, ``get_special_mdl_config``, ``get_basic_config``,
``get_ib_share_norm_config``, ``get_mm_config``) fill them as the library's ``GetXxxConfig`` do.
What aclsim's Matmul reads from a config: the template (Norm, MDL: the same schedule, MDL's
tiling constraint checked), ``enable_set_bias`` (False: ``set_bias`` refused, as its code is
compiled out), ``is_n_batch`` (``iterate_n_batch`` is not modelled), the constant shapes
(``single_core_m/n/k``, ``basic_m/n/k``: checked against the tiling at ``init``, as the
GetMatmulApiTiling page requires them to agree).  The other fields tune the library's
pipelining and are kept for the kernel to read; they do not change results.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

from aclsim.errors import FeatureNotSupportedError, KernelContextError
from aclsim.kernel._core import current
from aclsim.kernel.tensor import TPosition
from aclsim.kernel.tiling import CubeFormat, MatmulApiTiling, TCubeTiling


class LayoutMode(enum.IntEnum):
    """``LayoutMode``: how a BatchMatmul's batches lie (``NONE``: not a batch matmul; ``NORMAL``: BMNK)."""

    NONE = 0
    BSNGD = 1
    SBNGD = 2
    BNGS1S2 = 3
    NORMAL = 4


@dataclass(frozen=True)
class MatmulType:
    """``MatmulType<POSITION, CubeFormat, TYPE, ISTRANS, LAYOUT, IBSHARE, SRCPOS>``: a matrix's place,
    layout, type, transposition, batch layout, IBShare flag and (TSCM) source position."""

    position: TPosition
    format: CubeFormat
    dtype: Any
    is_trans: bool = False
    layout: LayoutMode = LayoutMode.NONE
    ib_share: bool = False
    src_pos: TPosition = TPosition.GM


class BatchMode(enum.IntEnum):
    """``BatchMode``: how the batches of a BatchMatmul compare with L1."""

    NONE = 0
    BATCH_LESS_THAN_L1 = 1
    BATCH_LARGE_THAN_L1 = 2
    SINGLE_LARGE_THAN_L1 = 3


class IterateOrder(enum.IntEnum):
    """``IterateOrder``: M first, N first, or the tiling's (``UNDEF``)."""

    ORDER_M = 0
    ORDER_N = 1
    UNDEF = 2


class ScheduleType(enum.IntEnum):
    """``ScheduleType``: MTE1 loops over K (``INNER_PRODUCT``) or over M/N (``OUTER_PRODUCT``)."""

    INNER_PRODUCT = 0
    OUTER_PRODUCT = 1


class IterateMode(enum.IntEnum):
    """``IterateMode``: which Iterate interfaces a kernel calls (a head-cost optimisation)."""

    ITERATE_MODE_NORMAL = 0b00000001
    ITERATE_MODE_ALL = 0b00000010
    ITERATE_MODE_BATCH = 0b00000100
    ITERATE_MODE_N_BATCH = 0b00001000
    ITERATE_MODE_DEFAULT = 0b11111111


class MatmulConfigMode(enum.IntEnum):
    """``MatmulConfigMode``: the template ``get_mm_config`` starts from."""

    CONFIG_NORM = 0
    CONFIG_MDL = 1
    CONFIG_SPECIALMDL = 2
    CONFIG_IBSHARE = 3


@dataclass(frozen=True)
class MatmulConfig:
    """``MatmulConfig``: the documented fields (snake_case) with the struct's defaults."""

    do_norm: bool = True
    do_basic_block: bool = False
    do_multi_data_load: bool = False
    basic_m: int = 0
    basic_n: int = 0
    basic_k: int = 0
    intrinsics_check: bool = False
    is_n_batch: bool = False
    en_vec_nd2nz: bool = False
    do_special_basic_block: bool = False
    do_mte2_preload: int = 0
    single_core_m: int = 0
    single_core_n: int = 0
    single_core_k: int = 0
    step_m: int = 0
    step_n: int = 0
    base_mn: int = 0
    single_core_mn: int = 0
    en_unit_flag: bool = True
    is_per_tensor: bool = False
    has_anti_quant_offset: bool = False
    do_ib_share_norm: bool = False
    do_special_mdl: bool = False
    enable_init: bool = True
    batch_mode: BatchMode = BatchMode.NONE
    enable_end: bool = True
    enable_get_tensor_c: bool = True
    enable_set_org_shape: bool = True
    enable_set_bias: bool = True
    enable_set_tail: bool = True
    enable_quant_vector: bool = True
    enable_set_define_data: bool = True
    iterate_mode: int = IterateMode.ITERATE_MODE_DEFAULT
    enable_reuse: bool = True
    enable_ub_reuse: bool = False
    enable_l1_cache_ub: bool = False
    intra_block_part_sum: bool = False
    iterate_order: IterateOrder = IterateOrder.UNDEF
    schedule_type: ScheduleType = ScheduleType.INNER_PRODUCT
    enable_double_cache: bool = False
    is_bias_batch: bool = True
    enable_static_pad_zeros: bool = False
    is_partial_output: bool = False
    enable_mix_dual_master: bool = False
    is_a2b2_shared: bool = False
    is_enable_channel_split: bool = False
    enable_kdim_reorder_load: bool = False
    is_co1_shared: bool = False


def get_normal_config(
    intrinsics_limit: bool = False,
    batch_loop: bool = False,
    is_vec_nd2nz: bool = False,
    bmm_mode: BatchMode = BatchMode.BATCH_LESS_THAN_L1,
    is_msg_reuse: bool = True,
    iterate_order: IterateOrder = IterateOrder.UNDEF,
    schedule_type: ScheduleType = ScheduleType.INNER_PRODUCT,
    en_unit_flag: bool = True,
    enable_mix_dual_master: bool = False,
) -> MatmulConfig:
    """``GetNormalConfig(...)``: the Norm template with the given switches."""
    return MatmulConfig(
        do_norm=True,
        intrinsics_check=bool(intrinsics_limit),
        is_n_batch=bool(batch_loop),
        en_vec_nd2nz=bool(is_vec_nd2nz),
        batch_mode=BatchMode(bmm_mode),
        enable_reuse=bool(is_msg_reuse),
        iterate_order=IterateOrder(iterate_order),
        schedule_type=ScheduleType(schedule_type),
        en_unit_flag=bool(en_unit_flag),
        enable_mix_dual_master=bool(enable_mix_dual_master),
    )


def get_mdl_config(
    intrinsics_limit: bool = False,
    batch_loop: bool = False,
    do_mte2_preload: int = 0,
    is_vec_nd2nz: bool = False,
    is_per_tensor: bool = False,
    has_anti_quant_offset: bool = False,
    en_unit_flag: bool = False,
    is_msg_reuse: bool = True,
    enable_ub_reuse: bool = True,
    enable_l1_cache_ub: bool = False,
    enable_mix_dual_master: bool = False,
    enable_kdim_reorder_load: bool = False,
) -> MatmulConfig:
    """``GetMDLConfig(...)``: the MDL (multi-data-load) template with the given switches."""
    if int(do_mte2_preload) not in (0, 1, 2):
        raise ValueError(f"get_mdl_config: do_mte2_preload is 0 (off), 1 (M) or 2 (N), got {do_mte2_preload}")
    return MatmulConfig(
        do_norm=False,
        do_multi_data_load=True,
        intrinsics_check=bool(intrinsics_limit),
        is_n_batch=bool(batch_loop),
        do_mte2_preload=int(do_mte2_preload),
        en_vec_nd2nz=bool(is_vec_nd2nz),
        is_per_tensor=bool(is_per_tensor),
        has_anti_quant_offset=bool(has_anti_quant_offset),
        en_unit_flag=bool(en_unit_flag),
        enable_reuse=bool(is_msg_reuse),
        enable_ub_reuse=bool(enable_ub_reuse),
        enable_l1_cache_ub=bool(enable_l1_cache_ub),
        enable_mix_dual_master=bool(enable_mix_dual_master),
        enable_kdim_reorder_load=bool(enable_kdim_reorder_load),
    )


def get_special_mdl_config(
    intrinsics_limit: bool = False, batch_loop: bool = False, do_mte2_preload: int = 0,
    is_vec_nd2nz: bool = False, is_per_tensor: bool = False, has_anti_quant_offset: bool = False,
) -> MatmulConfig:
    """``GetSpecialMDLConfig(...)``: MDL with stepN 2 (the same schedule in aclsim)."""
    base = get_mdl_config(intrinsics_limit, batch_loop, do_mte2_preload, is_vec_nd2nz, is_per_tensor,
                          has_anti_quant_offset)
    return replace(base, do_multi_data_load=False, do_special_mdl=True)


def get_basic_config(
    basic_m: int, basic_n: int, basic_k: int, intrinsics_limit: bool = False, batch_loop: bool = False,
    bmm_mode: BatchMode = BatchMode.BATCH_LESS_THAN_L1,
) -> MatmulConfig:
    """``GetBasicConfig(basicM, basicN, basicK, ...)``: the BasicBlock template with fixed base blocks."""
    if min(int(basic_m), int(basic_n), int(basic_k)) <= 0:
        raise ValueError(f"get_basic_config: basic_m/n/k must be > 0, got {basic_m}, {basic_n}, {basic_k}")
    return MatmulConfig(
        do_norm=False, do_basic_block=True, basic_m=int(basic_m), basic_n=int(basic_n), basic_k=int(basic_k),
        intrinsics_check=bool(intrinsics_limit), is_n_batch=bool(batch_loop), batch_mode=BatchMode(bmm_mode),
    )


def get_ib_share_norm_config(
    intrinsics_limit: bool = False, batch_loop: bool = False, is_vec_nd2nz: bool = False,
    bmm_mode: BatchMode = BatchMode.BATCH_LESS_THAN_L1, is_double_cache: bool = False,
    en_unit_flag: bool = True,
) -> MatmulConfig:
    """``GetIBShareNormConfig(...)``: the IBShare template (two AIVs share one matrix in L1)."""
    return MatmulConfig(
        do_norm=False, do_ib_share_norm=True, intrinsics_check=bool(intrinsics_limit),
        is_n_batch=bool(batch_loop), en_vec_nd2nz=bool(is_vec_nd2nz), batch_mode=BatchMode(bmm_mode),
        enable_double_cache=bool(is_double_cache), en_unit_flag=bool(en_unit_flag),
    )


CFG_NORM = get_normal_config()
CFG_MDL = get_mdl_config()
MM_CFG_BB = get_basic_config(128, 128, 128)
CFG_IBSHARE_NORM = get_ib_share_norm_config()


@dataclass(frozen=True)
class MatmulShapeParams:
    """``MatmulShapeParams{singleCoreM, singleCoreN, singleCoreK, basicM, basicN, basicK}``."""

    single_core_m: int = 0
    single_core_n: int = 0
    single_core_k: int = 0
    basic_m: int = 0
    basic_n: int = 0
    basic_k: int = 0


@dataclass(frozen=True)
class MatmulQuantParams:
    """``MatmulQuantParams{isPerTensor, hasAntiQuantOffset}``."""

    is_per_tensor: bool = False
    has_anti_quant_offset: bool = False


@dataclass(frozen=True)
class MatmulBatchParams:
    """``MatmulBatchParams{isNBatch, batchMode, isBiasBatch}``."""

    is_n_batch: bool = False
    batch_mode: BatchMode = BatchMode.BATCH_LESS_THAN_L1
    is_bias_batch: bool = True


@dataclass(frozen=True)
class MatmulFuncParams:
    """``MatmulFuncParams{intrinsicsLimit, enVecND2NZ, enableDoubleCache, enableL1CacheUB, doMTE2Preload,
    iterateOrder, scheduleType, enableReuse, enableUBReuse, isPartialOutput, isA2B2Shared,
    isEnableChannelSplit, enableKdimReorderLoad}``."""

    intrinsics_limit: bool = False
    en_vec_nd2nz: bool = False
    enable_double_cache: bool = False
    enable_l1_cache_ub: bool = False
    do_mte2_preload: int = 0
    iterate_order: IterateOrder = IterateOrder.UNDEF
    schedule_type: ScheduleType = ScheduleType.INNER_PRODUCT
    enable_reuse: bool = True
    enable_ub_reuse: bool = False
    is_partial_output: bool = False
    is_a2b2_shared: bool = False
    is_enable_channel_split: bool = False
    enable_kdim_reorder_load: bool = False


_MODE_BASE: dict[MatmulConfigMode, Callable[[], MatmulConfig]] = {
    MatmulConfigMode.CONFIG_NORM: get_normal_config,
    MatmulConfigMode.CONFIG_MDL: get_mdl_config,
    MatmulConfigMode.CONFIG_SPECIALMDL: get_special_mdl_config,
    MatmulConfigMode.CONFIG_IBSHARE: get_ib_share_norm_config,
}
_CONFIG_NAMES = {f.name for f in fields(MatmulConfig)}
_RENAMED = {"intrinsics_limit": "intrinsics_check"}


def get_mm_config(config_mode: MatmulConfigMode, *args: Any) -> MatmulConfig:
    """``GetMMConfig<configMode>(args...)``: the template of ``config_mode`` with the fields of any of
    ``MatmulShapeParams``, ``MatmulQuantParams``, ``MatmulBatchParams``, ``MatmulFuncParams`` (any order)."""
    cfg = _MODE_BASE[MatmulConfigMode(config_mode)]()
    for arg in args:
        if not isinstance(arg, (MatmulShapeParams, MatmulQuantParams, MatmulBatchParams, MatmulFuncParams)):
            raise TypeError(f"get_mm_config takes MatmulShapeParams, MatmulQuantParams, MatmulBatchParams or "
                            f"MatmulFuncParams, got {type(arg).__name__}")
        changes = {_RENAMED.get(f.name, f.name): getattr(arg, f.name) for f in fields(arg)}
        assert set(changes) <= _CONFIG_NAMES, set(changes) - _CONFIG_NAMES
        cfg = replace(cfg, **changes)
    return cfg


@dataclass(frozen=True)
class MatmulCallBackFunc:
    """``MatmulCallBackFunc<DataCopyOut, CopyA1, CopyB1>``: user copies the Matmul calls instead of its own.

    ``copy_a1(a_matrix, gm, row, col, use_m, use_k, tiling_ptr, data_ptr)`` fills the L1 buffer
    ``a_matrix`` (an int8 view: ``reinterpret_cast`` it) with A's copy block (``row``, ``col``) of
    ``use_m x use_k`` elements, the blocks being ``baseM`` rows by ``stepKa x baseK`` columns, laid
    out as the library's own copy would (NZ: groups of C0 columns of K, each ``use_m`` rounded up
    to 16 rows; transposed A: groups of 16 columns of M, each ``use_k`` rounded up to 16 rows);
    ``copy_b1(b_matrix, gm, row, col, use_k, use_n, ...)`` likewise for B (blocks ``stepKb x baseK``
    by ``baseN``; NZ of B: groups of 16 columns of N, each ``use_k`` rounded up to 16 rows; B
    transposed: groups of C0 columns of K, each ``use_n`` rounded up to 16 rows);
    ``data_copy_out(gm, co1_local, params, tiling_ptr, data_ptr)`` takes a block of C out of L0C
    (an int8 view of the CO1 tensor; ``params`` a :class:`DataCopyOutParams`) to ``gm``, the address
    of the block's place in C.  ``gm`` of A and B: the ``GmAddr`` of what ``set_tensor_a/b`` got;
    ``tiling_ptr``/``data_ptr``: what ``set_user_def_info``/``set_self_define_data`` gave (0 until
    then).  ``None``: the library's own copy."""

    data_copy_out: Callable[..., None] | None = None
    copy_a1: Callable[..., None] | None = None
    copy_b1: Callable[..., None] | None = None


@dataclass(frozen=True)
class DataCopyOutParams:
    """``DataCopyOutParams`` of a ``data_copy_out`` callback (matmul_utils.h): ``c_burst_num`` 16-column
    groups of ``burst_len`` 32 B blocks each (``cur_m`` rows of 16 float/int32 values), C's row pitch
    ``dst_stride`` (elements), ``ori_n_size`` columns, the block's index ``cur_m``/``cur_n`` in M/N."""

    c_burst_num: int = 0
    burst_len: int = 0
    src_stride: int = 0
    dst_stride: int = 0
    ori_n_size: int = 0
    en_unit_flag: bool = False
    cur_m: int = 0
    cur_n: int = 0
    quant_mode: int = 0
    quant_scalar: int = 0
    cbuf_workspace_addr: int = 0


@dataclass(frozen=True)
class MatmulApiStaticTiling:
    """``MatmulApiStaticTiling``: a tiling fixed when the kernel is built, and its config."""

    tiling: TCubeTiling
    cfg: MatmulConfig


def get_matmul_api_tiling(
    a_type: MatmulType, b_type: MatmulType, c_type: MatmulType, bias_type: MatmulType | None,
    mm_cfg: MatmulConfig, l1_size: int = -1, chip: Any = None,
) -> MatmulApiStaticTiling:
    """``GetMatmulApiTiling<A, B, C, BIAS>(mmCFG, l1Size)``: the constant tiling of a config whose
    ``single_core_m/n/k`` and ``basic_m/n/k`` are all set (full constant); ``chip``: a chip name or
    ``ChipSpec`` (default: the running kernel's chip, else 910B).  A config with only the base
    blocks (partial constant) needs the runtime tiling: ``ValueError`` says so."""
    sm, sn, sk = mm_cfg.single_core_m, mm_cfg.single_core_n, mm_cfg.single_core_k
    bm, bn, bk = mm_cfg.basic_m, mm_cfg.basic_n, mm_cfg.basic_k
    if min(bm, bn, bk) <= 0:
        raise ValueError("get_matmul_api_tiling: the config needs basic_m/n/k (get_mm_config with "
                         "MatmulShapeParams, or get_basic_config)")
    if min(sm, sn, sk) <= 0:
        raise ValueError("get_matmul_api_tiling: only basic_m/n/k set (partial constant): pass the runtime "
                         "TCubeTiling to regist_matmul_obj; set single_core_m/n/k too for a full constant")
    if chip is None:
        try:
            chip = current().chip  # inside a kernel: its chip
        except KernelContextError:
            chip = "910B"
    t = MatmulApiTiling(chip)
    for setter, mt in ((t.set_a_type, a_type), (t.set_b_type, b_type)):
        if setter(mt.position, mt.format, mt.dtype, mt.is_trans) != 0:
            raise ValueError(f"get_matmul_api_tiling: refused type {mt}")
    if t.set_c_type(c_type.position, c_type.format, c_type.dtype) != 0:
        raise ValueError(f"get_matmul_api_tiling: refused type {c_type}")
    if bias_type is not None:
        t.set_bias_type(bias_type.position, bias_type.format, bias_type.dtype)
        t.set_bias(True)
    t.set_shape(sm, sn, sk)
    t.set_org_shape(sm, sn, sk)
    t.set_fix_split(bm, bn, -1)
    if int(l1_size) != -1:
        t.set_buffer_space(int(l1_size))
    tc = TCubeTiling()
    if t.get_tiling(tc) != 0:
        raise ValueError(f"get_matmul_api_tiling: no tiling with base blocks {bm} x {bn} fits "
                         "(see the 'MatmulApi Tiling' warning)")
    if tc.base_k != bk:  # the page: the constant values must agree with what the tiling computes
        raise ValueError(f"get_matmul_api_tiling: basic_k {bk} differs from the tiling's baseK {tc.base_k} "
                         f"for these shapes; use basic_k={tc.base_k}")
    return MatmulApiStaticTiling(tc, mm_cfg)


def check_positions(a_type: MatmulType, b_type: MatmulType, c_type: MatmulType,
                     bias_type: MatmulType | None) -> None:
    """The positions and formats a Matmul object takes (FeatureNotSupportedError for the others)."""
    for name, t in (("A", a_type), ("B", b_type), ("C", c_type), ("bias", bias_type)):
        if t is not None and t.layout not in (LayoutMode.NONE, LayoutMode.NORMAL):
            raise FeatureNotSupportedError(
                f"Matmul: {name} with layout {LayoutMode(t.layout).name}: aclsim's batch matmul takes "
                "NONE or NORMAL (BMNK) layouts"
            )
    for name, t in (("A", a_type), ("B", b_type)):  # the bias's: at set_bias (an unused one may be anywhere)
        if t.position not in (TPosition.GM, TPosition.TSCM):
            raise FeatureNotSupportedError(
                f"Matmul: {name} at {TPosition(t.position).name}: aclsim's Matmul reads A and B from GM "
                "or TSCM (L1), the bias from GM (VECOUT inputs are not modelled)"
            )
    for name, t in (("A", a_type), ("B", b_type)):
        if t.position is TPosition.TSCM and t.format is not CubeFormat.NZ:
            raise FeatureNotSupportedError(
                f"Matmul: {name} in TSCM as {CubeFormat(t.format).name}: the cube loads L1 in NZ "
                "(pass NZ)"
            )
        if t.format not in (CubeFormat.ND, CubeFormat.NZ) or (
            t.format is CubeFormat.NZ and t.is_trans and t.position is TPosition.GM
        ):
            raise FeatureNotSupportedError(
                f"Matmul: {name} in {CubeFormat(t.format).name}"
                f"{' transposed' if t.is_trans else ''} in GM: ND, or NZ not transposed"
            )
    if c_type.position not in (TPosition.GM, TPosition.VECIN) or c_type.format is not CubeFormat.ND:
        raise FeatureNotSupportedError(
            f"Matmul: C at {TPosition(c_type.position).name} in {CubeFormat(c_type.format).name}: "
            "fixpipe writes ND rows to GM, or to VECIN through the workspace"
        )
