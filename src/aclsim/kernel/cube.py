"""The cube path: ``load_data`` (L1 -> L0A/L0B, MTE1), ``mmad`` (M), ``fixpipe`` (L0C -> GM/L1, FIX).

Layouts are the hardware's fractal ones, as the Ascend C ``Mmad`` documentation gives them
(a fractal is 512 B of inputs: 16 rows x C0 = 32 B / sizeof(T) columns; 16 x 16 of results):

- A in L0A is **zZ**: inside a fractal row-major, fractals row-major over the (M/16, K/C0) grid;
- B in L0B is **nZ**: a C0 x 16 fractal stored column-major, fractals row-major over the
  (K/C0, N/16) grid;
- C in L0C is **zN**: a 16 x 16 fractal row-major, fractals column-major over the
  (M/16, N/16) grid (the NZ format).

Matrices reach L1 in NZ through ``data_copy(..., Nd2NzParams)`` (the GM -> L1 ND2NZ
conversion); ``load_data`` moves whole 512 B fractals (``if_transpose`` turns each 16 x 16
fractal of a 16-bit type around: NZ in L1 -> nZ in L0B); ``fixpipe`` converts the NZ result
to ND rows on its way out (``CFG_ROW_MAJOR``).

Accumulation: float16 and bfloat16 products are exact in float32 and summed in float32
into L0C (as the cube does); float32 inputs multiply in float32; int8 accumulates in int32.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from aclsim.isa import Access, Pipe, Space
from aclsim.kernel._core import (
    BYTES,
    BYTES_REPEATS,
    CUBE,
    Core,
    CostTable,
    UnsupportedFault,
    bfloat16,
    current,
    dtype_name,
    float16,
    float32,
    int4b_t,
    int8,
    int32,
    is_int4,
    unpack_int4,
)
from aclsim.kernel.atomic import store_at, store_cost
from aclsim.kernel.cube_load import LoadData3DParamsV2, load_data_3d_v2
from aclsim.kernel.cube_modes import check_unit_flag, to_hf32, unit_flags
from aclsim.kernel.fixquant import QuantMode, is_vector
from aclsim.kernel.fixquant import check as quant_check
from aclsim.kernel.fixquant import convert as quant_convert
from aclsim.kernel.fixquant import scales as quant_scales
from aclsim.kernel.fmatrix import IsResetLoad3dConfig
from aclsim.kernel.gm import indexed_footprint
from aclsim.kernel.operands import global_operand, local_bytes, local_operand
from aclsim.kernel.tensor import GlobalTensor, LocalTensor

_MMAD_TYPES = {float16: float32, bfloat16: float32, float32: float32, int8: int32, int4b_t: int32}
#: An fp32 mmad in HF32 mode: ``hf32=1`` in its cost (the HF32 page: twice the fp32 rate).
CUBE_HF32 = CostTable("m", "n", "k", "hf32")


@dataclass(frozen=True)
class LoadData2DParams:
    """``LoadData2DParams``: ``repeat_times`` fractals (512 B each), the first at ``start_index``,
    ``src_stride`` fractals apart in L1, ``dst_gap`` fractals of gap between them in L0."""

    start_index: int = 0
    repeat_times: int = 1
    src_stride: int = 1
    sid: int = 0
    dst_gap: int = 0
    if_transpose: bool = False
    addr_mode: int = 0


@dataclass(frozen=True, init=False)
class MmadParams:
    """``MmadParams``: ``cmatrix_init_val`` True overwrites L0C (C starts from zero), False
    accumulates into it.  Positional arguments follow Ascend C's two constructors:
    ``MmadParams(m, n, k, isBias, fmOffset, enSsparse, enWinogradA, enWinogradB)`` (8) and
    ``MmadParams(m, n, k, unitFlag, cmatrixSource, cmatrixInitVal)`` (6); aclsim also takes
    ``m, n, k`` alone; any field by keyword."""

    m: int = 0
    n: int = 0
    k: int = 0
    is_bias: bool = False
    fm_offset: int = 0
    en_ssparse: bool = False
    en_winograd_a: bool = False
    en_winograd_b: bool = False
    unit_flag: int = 0
    k_direction_align: bool = False
    cmatrix_source: bool = False
    cmatrix_init_val: bool = True

    _EIGHT = ("m", "n", "k", "is_bias", "fm_offset", "en_ssparse", "en_winograd_a", "en_winograd_b")
    _SIX = ("m", "n", "k", "unit_flag", "cmatrix_source", "cmatrix_init_val")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if len(args) == 8:
            names: tuple[str, ...] = self._EIGHT
        elif len(args) == 6:
            names = self._SIX
        elif len(args) <= 3:
            names = self._SIX[:len(args)]
        else:
            raise TypeError(f"MmadParams takes 8 positional arguments (m, n, k, isBias, fmOffset, enSsparse, "
                            f"enWinogradA, enWinogradB) or 6 (m, n, k, unitFlag, cmatrixSource, "
                            f"cmatrixInitVal), or m, n, k; got {len(args)}")
        values = {f.name: f.default for f in fields(self)}
        for name, value in zip(names, args, strict=True):
            values[name] = value
        for name, value in kwargs.items():
            if name not in values:
                raise TypeError(f"MmadParams has no field {name!r}")
            if name in names[:len(args)]:
                raise TypeError(f"MmadParams got {name!r} both by position and by keyword")
            values[name] = value
        for name, value in values.items():
            object.__setattr__(self, name, value)


@dataclass(frozen=True)
class FixpipeParamsV220:
    """``FixpipeParamsV220{nSize, mSize, srcStride, dstStride, reluEn, quantPre, deqScalar, ndNum,
    srcNdStride, dstNdStride, unitFlag}`` (the C++ field order): ``m_size`` x ``n_size`` results
    leave L0C's NZ layout as ND rows.  ``src_stride``: the distance between the starts of
    two consecutive N-direction Z columns of L0C, in 16-element rows (C0_SIZE; usually ``m_size``
    rounded up to 16; 0 means that); ``dst_stride``: elements per destination row (0:
    ``n_size``); ``nd_num`` matrices, ``src_nd_stride`` fractals (1024 B) and ``dst_nd_stride``
    elements apart."""

    n_size: int = 0
    m_size: int = 0
    src_stride: int = 0
    dst_stride: int = 0
    relu_en: bool = False
    quant_pre: QuantMode = QuantMode.NoQuant
    deq_scalar: int = 0
    nd_num: int = 1
    src_nd_stride: int = 0
    dst_nd_stride: int = 0
    unit_flag: int = 0


FixpipeParams = FixpipeParamsV220


class CO2Layout(enum.IntEnum):
    """``CO2Layout``: the layout ``fixpipe`` writes (``COLUMN_MAJOR``, NZ2DN: the Ascend 950's only)."""

    NZ = 0
    ROW_MAJOR = 1
    COLUMN_MAJOR = 2


@dataclass(frozen=True)
class FixpipeConfig:
    """``FixpipeConfig{format, isToUB}``: ``fixpipe``'s template argument (``Fixpipe<T, U, CFG_NZ>``)."""

    format: CO2Layout = CO2Layout.ROW_MAJOR
    is_to_ub: bool = False


CFG_ROW_MAJOR = FixpipeConfig(CO2Layout.ROW_MAJOR)
CFG_NZ = FixpipeConfig(CO2Layout.NZ)
CFG_COLUMN_MAJOR = FixpipeConfig(CO2Layout.COLUMN_MAJOR)
LoadData2dParams = LoadData2DParams  # Ascend C spells it both ways


def load_data(dst: LocalTensor, src: LocalTensor, params: LoadData2DParams | LoadData3DParamsV2,
              config: IsResetLoad3dConfig | None = None) -> None:
    """``LoadData(dst, src, LoadData2DParams)``: L1 -> L0A/L0B on MTE1, ``repeat_times`` 512 B
    fractals from fractal ``start_index`` of ``src``, ``src_stride`` fractals apart, with
    ``dst_gap`` fractals between them in ``dst``; ``if_transpose`` transposes each 16 x 16
    fractal (16-bit types), turning L1's NZ into L0B's nZ.  ``LoadData(dst, src,
    LoadData3DParamsV2)`` is the img2col load (``cube_load.load_data_3d_v2``; ``config``: its
    ``IsResetLoad3dConfig`` template switch, kernel/fmatrix.py)."""
    if isinstance(params, LoadData3DParamsV2):
        load_data_3d_v2(dst, src, params, config)
        return
    core = current()
    name = "load_data"
    local_operand(core, dst, name, "dst", (Space.L0A, Space.L0B))
    local_operand(core, src, name, "src", (Space.L1,))
    transpose = bool(params.if_transpose)
    if transpose and src.dtype.itemsize != 2:
        core.fault(
            UnsupportedFault,
            f"load_data with if_transpose on {dtype_name(src.dtype)}: LoadData2D transposes 16-bit "
            "fractals only (the LoadData page); 8- and 32-bit squares: load_data_with_transpose "
            "(LoadDataWithTranspose)"
        )
    frac = core.chip.l0ab_align
    reps, start = int(params.repeat_times), int(params.start_index)
    sstride, dstride = int(params.src_stride) * frac, (1 + int(params.dst_gap)) * frac
    if not 0 <= reps <= core.chip.max_repeat or start < 0 or sstride < 0:
        raise ValueError(f"{name}: bad LoadData2DParams {params}")
    sspan = start * frac + ((reps - 1) * sstride + frac if reps else 0)
    dspan = (reps - 1) * dstride + frac if reps else 0
    sbuf = local_bytes(core, src, sspan, name, "src")[start * frac :]
    dbuf = local_bytes(core, dst, dspan, name, "dst")
    if reps:
        if transpose:  # each 16 x 16 fractal of 16-bit elements turned around
            fr = as_strided(sbuf, (reps, frac), (sstride, 1)).view(np.uint16).reshape(reps, 16, 16)
            out = as_strided(dbuf, (reps, frac), (dstride, 1), writeable=True).view(np.uint16)
            out.reshape(reps, 16, 16)[...] = fr.transpose(0, 2, 1)
        elif sstride == frac and dstride == frac:
            dbuf[:] = sbuf[:dspan]
        else:
            as_strided(dbuf, (reps, frac), (dstride, 1), writeable=True)[...] = as_strided(
                sbuf, (reps, frac), (sstride, 1)
            )
    core.emit(
        Pipe.MTE1,
        name,
        (core.access(Space.L1, src.offset + start * frac, sspan - start * frac),),
        (dst.access(dspan),),
        BYTES[reps * frac],
    )


def mmad(dst: LocalTensor, fm: LocalTensor, filter: LocalTensor,  # noqa: A002
         bias_or_params: LocalTensor | MmadParams, params: MmadParams | None = None) -> None:
    """``Mmad(dst, fm, filter, MmadParams)`` or ``Mmad(dst, fm, filter, bias, MmadParams)``: ``C(m, n) =
    A(m, k) @ B(k, n)`` on the cube (pipe M), A in zZ at ``fm`` (L0A), B in nZ at ``filter`` (L0B),
    C in zN at ``dst`` (L0C).

    Where C starts (the c220 implementation's ``mad`` operands): from the bias table when there is
    a ``bias`` tensor in C2 (a 1 x n row of float32 / int32 added to every row), or, with no bias
    tensor, when ``cmatrix_source`` is set (the row at the start of the bias table); else from 0
    when ``cmatrix_init_val`` is set and the deprecated ``is_bias`` is not; else from L0C's C
    (``C += A @ B``).
    """
    core = current()
    name = "mmad"
    if params is None:
        if not isinstance(bias_or_params, MmadParams):
            raise TypeError(f"{name}(dst, fm, filter, params) needs MmadParams, got "
                            f"{type(bias_or_params).__name__}")
        bias, params = None, bias_or_params
    else:
        bias = local_operand(core, bias_or_params, name, "bias", (Space.BT,))
    local_operand(core, dst, name, "dst", (Space.L0C,))
    local_operand(core, fm, name, "fm", (Space.L0A,))
    local_operand(core, filter, name, "filter", (Space.L0B,))
    m, n, k = int(params.m), int(params.n), int(params.k)
    if min(m, n, k) <= 0 or max(m, n, k) > 4095:
        raise ValueError(f"{name}: m, n, k must be in 1..4095, got {m}, {n}, {k}")
    from_bt = bias is not None or bool(params.cmatrix_source)
    if from_bt and core.chip.bt_bytes == 0:
        core.fault(UnsupportedFault, f"{name}: {core.chip.name} has no bias table (cmatrix_source is false "
                   "only there)", hint="add the bias after the mmad, on the vector side")
    check_unit_flag(core, int(params.unit_flag), name)
    if fm.dtype != filter.dtype or fm.dtype not in _MMAD_TYPES:
        raise TypeError(
            f"{name}: fm and filter must both be float16, bfloat16, float32, int8 or int4b_t, got "
            f"{dtype_name(fm.dtype)}, {dtype_name(filter.dtype)}"
        )
    acc = _MMAD_TYPES[fm.dtype]
    if dst.dtype != acc:
        raise TypeError(f"{name}: {fm.dtype} inputs accumulate in {acc} in L0C, got dst {dst.dtype}")
    if bias is not None and bias.dtype != acc:
        raise TypeError(f"{name}: the bias of a {acc} result is {acc} in the bias table, got {bias.dtype}")
    if bias is not None and is_int4(fm.dtype):
        core.fault(UnsupportedFault, f"{name}: int4b_t inputs with a bias tensor: the Mmad page lists no "
                   "bias for int4b_t on this chip", hint="mmad without bias, then add the bias")
    c0 = 64 if is_int4(fm.dtype) else 32 // fm.dtype.itemsize  # K elements per 32 B fractal row
    m1, n1, k1 = -(-m // 16), -(-n // 16), -(-k // c0)
    na, nb, nc = m1 * k1 * 512, k1 * n1 * 512, m1 * n1 * 256 * acc.itemsize
    # A zZ: (m1, k1) fractals row-major, each 16 x c0 row-major
    a = _elements(local_bytes(core, fm, na, name, "fm"), fm.dtype).reshape(m1, k1, 16, c0)
    a = a.transpose(0, 2, 1, 3).reshape(m1 * 16, k1 * c0)[:m, :k]
    # B nZ: (k1, n1) fractals row-major, each c0 x 16 column-major (stored as 16 rows of c0)
    b = _elements(local_bytes(core, filter, nb, name, "filter"), filter.dtype).reshape(k1, n1, 16, c0)
    b = b.transpose(0, 3, 1, 2).reshape(k1 * c0, n1 * 16)[:k, :n]
    # C zN: (m1, n1) fractals column-major, each 16 x 16 row-major
    c = local_bytes(core, dst, nc, name, "dst").view(acc).reshape(n1, m1, 16, 16).transpose(1, 2, 0, 3)
    hf32 = core.hf32 is not None and core.hf32[0] and fm.dtype == float32
    if hf32:
        assert core.hf32 is not None
        a, b = to_hf32(a, *core.hf32[1:]), to_hf32(b, *core.hf32[1:])
    prod = np.zeros((m1 * 16, n1 * 16), acc)  # the edge fractals' padding computes to zero
    prod[:m, :n] = np.matmul(a.astype(acc), b.astype(acc))
    reads: tuple[Access, ...] = (fm.access(na), filter.access(nb))
    accumulate = not from_bt and not (params.cmatrix_init_val and not params.is_bias)
    if from_bt:
        row, bt_read = _bias_row(core, bias, acc, n, name)
        prod[:m, :n] += row
        reads = (*reads, bt_read)
    if accumulate:
        c += prod.reshape(m1, 16, n1, 16)
        reads = (*reads, dst.access(nc))
    else:
        c[...] = prod.reshape(m1, 16, n1, 16)
    uf = int(params.unit_flag)
    if uf:
        unit_flags(core).before(core, name, uf, dst.access(nc))
    core.emit(Pipe.M, name, reads, (dst.access(nc),), CUBE_HF32[(m, n, k, 1)] if hf32 else CUBE[(m, n, k)])
    if uf:
        unit_flags(core).after(core, name, uf, dst.access(nc))


def _elements(raw: np.ndarray, dt: np.dtype) -> np.ndarray:
    """The bytes ``raw`` as elements of ``dt`` (``int4b_t``: unpacked to int8, low nibble first)."""
    return unpack_int4(raw, raw.size * 2) if is_int4(dt) else raw.view(dt)


def _bias_row(core: Core, bias: LocalTensor | None, acc: np.dtype, n: int,
              name: str) -> tuple[np.ndarray, Access]:
    """The ``n`` bias values C starts from (at ``bias`` in BT, or the table's start) and their read."""
    nbytes = n * acc.itemsize
    if bias is not None:
        return local_bytes(core, bias, nbytes, name, "bias").view(acc), bias.access(nbytes)
    if nbytes > core.chip.bt_bytes:
        raise ValueError(f"{name}: n = {n} {acc} values do not fit the {core.chip.bt_bytes} B bias table")
    return core.arenas[Space.BT][:nbytes].view(acc), core.access(Space.BT, 0, nbytes)


#: L1 -> bias table conversions (src, dst) on Atlas A2/A3 (the L1ToBiasTable DataCopy page)
_BT_TYPES = ((float16, float32), (float32, float32), (int32, int32))
#: blockLen and dstGap of an L1 -> BT copy count 64 B units on Atlas A2/A3 (the same page)
BT_UNIT = 64


def copy_l1_to_bt(dst: LocalTensor, src: LocalTensor | GlobalTensor, count_or_params: Any) -> None:
    """``DataCopy(bt, l1, count)`` / ``DataCopy(bt, l1, DataCopyParams)``: L1 (C1) -> bias table (C2) on
    MTE1, ``half -> float`` converted on the way.  ``DataCopyParams``: ``block_count`` blocks of
    ``block_len`` x 64 B of the destination (the source block holds as many elements), the source
    blocks ``src_stride`` x 32 B apart (end to start), the destination ones ``dst_stride`` x 64 B;
    the count form moves ``count`` elements, rounded down to whole 32 B of the destination."""
    core = current()
    name = "data_copy"
    local_operand(core, dst, name, "dst", (Space.BT,))
    src = local_operand(core, src, name, "src", (Space.L1,))  # the bias table is filled from L1 only
    if (src.dtype, dst.dtype) not in _BT_TYPES:
        raise TypeError(f"{name}: L1 {src.dtype} -> bias table {dst.dtype}: this path takes half -> float, "
                        "float -> float and int32 -> int32")
    ssz, dsz = src.dtype.itemsize, dst.dtype.itemsize
    if isinstance(count_or_params, (int, np.integer)):
        nbytes = int(count_or_params) * dsz // 32 * 32
        count, blen, sgap, dgap = (1 if nbytes else 0), nbytes, 0, 0
    else:
        p = count_or_params
        count, blen = int(p.block_count), int(p.block_len) * BT_UNIT
        sgap, dgap = int(p.src_stride) * 32, int(p.dst_stride) * BT_UNIT
        if not 0 <= count <= 4095 or min(blen, sgap, dgap) < 0:
            raise ValueError(f"{name}: L1 -> bias table DataCopyParams {p}: block_count in 0..4095, the "
                             "rest >= 0")
    elems = blen // dsz
    s_step, d_step = elems * ssz + sgap, blen + dgap
    sspan = (count - 1) * s_step + elems * ssz if count and blen else 0
    dspan = (count - 1) * d_step + blen if count and blen else 0
    if not dspan:  # blockCount or blockLen 0: a NOP
        return
    sbuf = local_bytes(core, src, sspan, name, "src")
    dbuf = local_bytes(core, dst, dspan, name, "dst")
    for i in range(count):
        x = sbuf[i * s_step:i * s_step + elems * ssz].view(src.dtype)
        dbuf[i * d_step:i * d_step + blen] = x.astype(dst.dtype).view(np.uint8)
    core.emit(Pipe.MTE1, name, (src.access(sspan),), (dst.access(dspan),), BYTES[count * blen])


class BlockMode(enum.IntEnum):
    """``BlockMode`` of ``DataCopyEnhancedParams``: the unit of an L0C -> UB copy (310P)."""

    BLOCK_MODE_NORMAL = 0
    BLOCK_MODE_MATRIX = 1
    BLOCK_MODE_VECTOR = 2
    BLOCK_MODE_SMALL_CHANNEL = 3
    BLOCK_MODE_DEPTHWISE = 4


class DeqScale(enum.IntEnum):
    """``DeqScale``: the conversion of an L0C -> UB copy (``DEQ_NONE`` and ``DEQ`` are modelled)."""

    DEQ_NONE = 0
    DEQ = 1
    VDEQ = 2
    DEQ8 = 3
    VDEQ8 = 4
    DEQ16 = 5
    VDEQ16 = 6


@dataclass(frozen=True)
class DataCopyEnhancedParams:
    """``DataCopyEnhancedParams{blockMode, deqScale, deqValue, sidStoreMode, isRelu, padMode, padValue}``
    (``deqTensorAddr`` last): the L0C -> UB path of a coupled chip (310P)."""

    block_mode: BlockMode = BlockMode.BLOCK_MODE_NORMAL
    deq_scale: DeqScale = DeqScale.DEQ_NONE
    deq_value: int = 0
    sid_store_mode: int = 0
    is_relu: bool = False
    pad_mode: int = 0
    pad_value: int = 0
    deq_tensor_addr: int = 0


#: (src dtype, dst dtype) -> DeqScale modes allowed on the L0C -> UB path (the DataCopy page's tables)
_L0C_UB_TYPES = {
    (float16, float16): (DeqScale.DEQ_NONE, DeqScale.DEQ), (float32, float32): (DeqScale.DEQ_NONE,),
    (int32, int32): (DeqScale.DEQ_NONE,), (np.dtype(np.uint32), np.dtype(np.uint32)): (DeqScale.DEQ_NONE,),
    (float32, float16): (DeqScale.DEQ_NONE,), (int32, float16): (DeqScale.DEQ,),
}


def copy_l0c_to_ub(dst: LocalTensor, src: LocalTensor, count: int, block_len: int, src_gap: int,
                   dst_gap: int, ep: DataCopyEnhancedParams) -> None:
    """``DataCopy(ub, l0c, DataCopyParams, DataCopyEnhancedParams)`` on a coupled chip: ``count`` blocks
    of ``block_len`` units, ``src_gap`` units apart in L0C, ``dst_gap`` 32 B blocks apart in UB, on the
    vector pipe (CO1 -> CO2).  ``BLOCK_MODE_MATRIX``: a unit is one 16 x 16 fractal and the source gap
    counts fractals; ``BLOCK_MODE_VECTOR``: a unit is one 1 x 16 row of a fractal, the source gap
    still counts fractals.  Elements keep their order (NZ stays NZ); with a conversion (float ->
    half, int32 -> half with ``DEQ``: ``deq_value`` bits 0..15 are the half scale M) each element is
    converted (round to nearest even) and the UB block is half as long; ``is_relu`` applies ReLU
    last."""
    core = current()
    name = "data_copy"
    local_operand(core, src, name, "src", (Space.L0C,))
    local_operand(core, dst, name, "dst", (Space.UB,))
    if not core.chip.coupled:
        raise ValueError(f"{name}: no L0C -> UB path on {core.chip.name} (arch {core.chip.arch_version}); "
                         "L0C results leave by fixpipe there")
    mode, deq = BlockMode(ep.block_mode), DeqScale(ep.deq_scale)
    if mode not in (BlockMode.BLOCK_MODE_MATRIX, BlockMode.BLOCK_MODE_VECTOR):
        core.fault(UnsupportedFault, f"{name}: {mode.name} is not supported on the L0C -> UB path (the "
                   "DataCopy page: 'not supported yet')", hint="use BLOCK_MODE_MATRIX or BLOCK_MODE_VECTOR")
    allowed = _L0C_UB_TYPES.get((src.dtype, dst.dtype))
    if allowed is None:
        raise TypeError(f"{name}: L0C {src.dtype} -> UB {dst.dtype} is not a conversion of this path; it "
                        "takes half/float/int32/uint32 as they are, float -> half, int32 -> half (DEQ)")
    if deq not in allowed:
        core.fault(UnsupportedFault, f"{name}: {deq.name} on {src.dtype} -> {dst.dtype} is not modelled "
                   f"(aclsim models {', '.join(d.name for d in allowed)} for these types)")
    if min(count, block_len, src_gap, dst_gap) < 0:
        raise ValueError(f"{name}: negative field in DataCopyParams({count}, {block_len}, {src_gap}, "
                         f"{dst_gap})")
    frac = 256  # elements of a 16 x 16 fractal
    unit = frac if mode is BlockMode.BLOCK_MODE_MATRIX else 16
    n = block_len * unit  # elements per block
    s_step = n + src_gap * frac
    d_step = n * dst.dtype.itemsize + dst_gap * 32
    if n * dst.dtype.itemsize % 32:
        raise ValueError(f"{name}: a block of {n} {dst.dtype} is not whole 32 B blocks of UB")
    sspan = ((count - 1) * s_step + n) * src.dtype.itemsize if count else 0
    dspan = (count - 1) * d_step + n * dst.dtype.itemsize if count else 0
    sbuf = local_bytes(core, src, sspan, name, "src").view(src.dtype)
    dbuf = local_bytes(core, dst, dspan, name, "dst")
    if count and n:
        x = as_strided(sbuf, (count, n), (s_step * src.dtype.itemsize, src.dtype.itemsize))
        if deq is DeqScale.DEQ:
            scale = np.array([int(ep.deq_value) & 0xFFFF], np.uint16).view(np.float16)[0]
            y = (x.astype(np.float32) * np.float32(scale)).astype(dst.dtype)
        else:
            y = x.astype(dst.dtype)
        if ep.is_relu:
            y = np.maximum(y, dst.dtype.type(0))
        out = as_strided(dbuf, (count, n * dst.dtype.itemsize), (d_step, 1), writeable=True)
        out[...] = np.ascontiguousarray(y).view(np.uint8).reshape(count, -1)
    nbytes = count * n * src.dtype.itemsize
    core.emit(Pipe.V, name, (src.access(sspan),), (dst.access(dspan),),
              BYTES_REPEATS[(nbytes, -(-count * n * dst.dtype.itemsize // core.chip.vector_repeat_bytes))])


def fixpipe(dst: GlobalTensor | LocalTensor, src: LocalTensor, *args: Any) -> None:
    """``Fixpipe<T, U, config>(dst, src, FixpipeParamsV220)`` -> ``fixpipe(dst, src, params[, config])``,
    or with the per-column quant tensor in L1 ``Fixpipe(dst, src, cbufWorkspace, params)`` ->
    ``fixpipe(dst, src, cbuf_workspace, params[, config])``: L0C (NZ) -> GM (or L1) on FIX, with
    optional conversion (``quant_pre``: kernel/fixquant.py: fp32 -> fp16/bf16, int32 -> half by
    ``deq_scalar`` or by the tensor) and ReLU.

    ``CFG_ROW_MAJOR`` (NZ2ND): element ``(r, c)`` of matrix ``i`` is read at L0C element ``i *
    src_nd_stride * 1024 B + (c // 16) * src_stride * 16 + r * 16 + c % 16`` and written at
    destination element ``i * dst_nd_stride + r * dst_stride + c``.  ``CFG_NZ`` (NZ2NZ, the
    NZ2NZ page's pseudocode): the result stays NZ, ``n_size`` a multiple of 16, element ``(r, c)``
    written at byte ``(c // 16) * dst_stride * 32 + (r * 16 + c % 16) * sizeof(dst)``
    (``dst_stride`` counts 32 B blocks between the starts of two Z columns; ``nd_num`` is an
    NZ2ND field and must stay 1).
    """
    cbuf = args[0] if args and isinstance(args[0], LocalTensor) else None
    rest = args[1:] if cbuf is not None else args
    if not 1 <= len(rest) <= 2 or not isinstance(rest[0], FixpipeParamsV220):
        raise TypeError("fixpipe(dst, src[, cbuf_workspace], FixpipeParamsV220[, FixpipeConfig])")
    _fixpipe(dst, src, rest[0], rest[1] if len(rest) == 2 else CFG_ROW_MAJOR, cbuf)


def _quant_tensor(core: Core, name: str, quant: QuantMode, cbuf: LocalTensor | None, n: int) -> Any:
    """The per-column scales of a tensor quant mode (``cbuf`` in L1, uint64, one a column) and its range."""
    if not is_vector(quant):
        if cbuf is not None:
            raise TypeError(f"{name}: a cbuf_workspace goes with a tensor quant_pre (VDEQF16), "
                            f"not {quant.name}")
        return None, None
    if cbuf is None:
        raise TypeError(f"{name}: {quant.name} takes its scales from cbuf_workspace: "
                        "fixpipe(dst, src, cbuf, params)")
    local_operand(core, cbuf, name, "cbuf_workspace", (Space.L1,), align=32)
    if cbuf.dtype != np.uint64:
        raise TypeError(f"{name}: cbuf_workspace must be uint64 (a quant word a column), "
                        f"got {dtype_name(cbuf.dtype)}")
    words = local_bytes(core, cbuf, n * 8, name, "cbuf_workspace").view(np.uint64)
    return quant_scales(words), cbuf.access(n * 8)


def _fixpipe(dst: GlobalTensor | LocalTensor, src: LocalTensor, params: FixpipeParamsV220,
             config: FixpipeConfig, cbuf: LocalTensor | None) -> None:
    core = current()
    name = "fixpipe"
    if core.chip.coupled:
        core.fault(UnsupportedFault,
                   f"{name}: {core.chip.name} (arch {core.chip.arch_version}, coupled) has no fixpipe",
                   hint="move L0C results to UB with data_copy(ub, l0c, DataCopyParams(...), "
                   "DataCopyEnhancedParams(block_mode=BlockMode.BLOCK_MODE_MATRIX)) (CO1 -> CO2 queues), "
                   "then data_copy(gm, ub, ...)")
    local_operand(core, src, name, "src", (Space.L0C,))
    m, n, nd = int(params.m_size), int(params.n_size), int(params.nd_num)
    check_unit_flag(core, int(params.unit_flag), name)
    layout = CO2Layout(config.format)
    if layout is CO2Layout.COLUMN_MAJOR or config.is_to_ub:
        what = "is_to_ub (L0C -> UB)" if config.is_to_ub else "CFG_COLUMN_MAJOR (NZ2DN)"
        core.fault(UnsupportedFault, f"{name}: {what} exists on the Ascend 950 (arch 3510) only, not on "
                   f"{core.chip.name}",
                   hint="CFG_ROW_MAJOR (ND rows) or CFG_NZ (NZ) to GM or L1")
    if m <= 0 or n <= 0 or nd <= 0:
        raise ValueError(f"{name}: m_size, n_size and nd_num must be > 0, got {m}, {n}, {nd}")
    ss = int(params.src_stride) or -(-m // 16) * 16
    ds = int(params.dst_stride) or n
    if ss < m:
        raise ValueError(f"{name}: src_stride {ss} (16-element rows between Z columns) must be >= m_size {m}")
    nz = layout is CO2Layout.NZ
    if nz and (n % 16 or nd != 1 or not int(params.dst_stride)):
        raise ValueError(f"{name} with CFG_NZ: n_size ({n}) must be a multiple of 16, nd_num ({nd}) 1 and "
                         "dst_stride (32 B blocks between Z columns) given, not 0")
    if not nz and ds < n:
        raise ValueError(f"{name}: dst_stride {ds} (elements per row) must be >= n_size {n}")
    quant = QuantMode(params.quant_pre)
    quant_check(name, quant, src.dtype, dst.dtype)
    col_scales, cbuf_read = _quant_tensor(core, name, quant, cbuf, n)
    frac_elems = 1024 // src.dtype.itemsize
    r, c = np.arange(m)[:, None], np.arange(n)[None, :]
    s_idx = (c // 16) * ss * 16 + r * 16 + c % 16
    if nz:  # Z columns dst_stride 32 B blocks apart, rows of 16 inside
        col_step = ds * 32 // dst.dtype.itemsize
        if (ds * 32) % dst.dtype.itemsize:
            raise ValueError(f"{name}: dst_stride {ds} x 32 B is not whole {dst.dtype} elements")
        d_idx = (c // 16) * col_step + r * 16 + c % 16
    else:
        d_idx = r * ds + c
    s_step, d_step = int(params.src_nd_stride) * frac_elems, int(params.dst_nd_stride)
    if nd > 1 and (s_step <= 0 or d_step <= 0):
        raise ValueError(f"{name}: nd_num {nd} needs src_nd_stride and dst_nd_stride > 0")
    sspan = ((nd - 1) * s_step + int(s_idx.max()) + 1) * src.dtype.itemsize
    dspan = ((nd - 1) * d_step + int(d_idx.max()) + 1) * dst.dtype.itemsize
    x_all = local_bytes(core, src, sspan, name, "src").view(src.dtype)
    if isinstance(dst, GlobalTensor):
        global_operand(core, dst, name, "dst", src.space)
        d_all = np.arange(nd)[:, None, None] * d_step + d_idx[None]
        out = dst.bytes_at(core, 0, dspan, write=True, vector_side=False, op=name,
                           footprint=indexed_footprint(d_all, dst.dtype.itemsize))
        waccess = core.access(Space.GM, dst.addr, dspan)
        cost = store_cost(core, nd * m * n * dst.dtype.itemsize, "L0C", name)
        atomic = core.atomic is not None
    elif isinstance(dst, LocalTensor) and dst.space is Space.L1:
        local_operand(core, dst, name, "dst", (Space.L1,))
        out = local_bytes(core, dst, dspan, name, "dst")
        waccess = dst.access(dspan)
        cost, atomic = BYTES[nd * m * n * dst.dtype.itemsize], False
    else:
        raise TypeError(f"{name}: dst must be a GlobalTensor or an L1 LocalTensor")
    y_all = out.view(dst.dtype)
    for i in range(nd):
        x = x_all[i * s_step + s_idx]
        if params.relu_en:
            x = np.maximum(x, src.dtype.type(0))
        y = quant_convert(x, quant, dst.dtype, int(params.deq_scalar), col_scales)
        if atomic:
            store_at(core, y_all, i * d_step + d_idx, y, name)
        else:
            y_all[i * d_step + d_idx] = y
    reads = (src.access(sspan), waccess) if atomic else (src.access(sspan),)
    if cbuf_read is not None:
        reads = (*reads, cbuf_read)
    uf = int(params.unit_flag)
    if uf:
        unit_flags(core).before(core, name, uf, src.access(sspan))
    core.emit(Pipe.FIX, name, reads, (waccess,), cost)
    if uf:
        unit_flags(core).after(core, name, uf, src.access(sspan))
