"""Data movement: ``data_copy`` and ``data_copy_pad`` (reference section 2.5).

Pipes: GM -> UB/L1/L0A/L0B on MTE2, UB -> GM on MTE3, UB -> UB on V, UB -> L1 on MTE3.
Rules enforced as the hardware does:

- local operand addresses aligned to the memory's alignment (UB/L1 32 B, L0A/L0B 512 B);
  global addresses aligned to ``sizeof(T)``;
- ``data_copy(dst, src, count)`` moves ``count * sizeof(T)`` bytes ROUNDED DOWN to a
  multiple of 32 B (the documented behaviour; use ``data_copy_pad`` for the tail);
- ``DataCopyParams``: ``block_len`` and both strides in 32 B blocks (strides are the gaps
  between consecutive blocks);
- ``DataCopyExtParams`` (``data_copy_pad``): ``block_len`` in bytes, the GM-side stride in
  bytes, the UB-side stride in 32 B blocks; each block is padded to 32 B on the UB side;
- ``Nd2NzParams``: GM (ND, row-major) -> L1 in the NZ fractal layout the cube path reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from aclsim.errors import MisalignedAccessError
from aclsim.isa import Access, Pipe, Space
from aclsim.kernel._core import (
    BYTES,
    BYTES_REPEATS,
    SEGMENTS,
    Core,
    UnsupportedFault,
    bytes_elems,
    current,
    dtype_name,
    elem_bytes,
    fault_code,
    is_int4,
    pack_int4,
    unpack_int4,
)
from aclsim.kernel.atomic import store, store_cost, store_reads
from aclsim.kernel.cube import DataCopyEnhancedParams, copy_l0c_to_ub, copy_l1_to_bt
from aclsim.kernel.gm import indexed_footprint, strided_footprint
from aclsim.kernel.operands import LOCAL, UB, global_operand, local_bytes, local_operand
from aclsim.kernel.tensor import GlobalTensor, LocalTensor

BLOCK = 32


@dataclass(frozen=True)
class DataCopyParams:
    """``DataCopyParams{blockCount, blockLen, srcStride, dstStride}``: lengths and gaps in 32 B blocks."""

    block_count: int = 1
    block_len: int = 0
    src_stride: int = 0
    dst_stride: int = 0


@dataclass(frozen=True)
class DataCopyExtParams:
    """``DataCopyExtParams``: ``block_len`` bytes; GM-side stride in bytes, UB-side stride in 32 B blocks."""

    block_count: int = 1
    block_len: int = 0
    src_stride: int = 0
    dst_stride: int = 0
    rsv: int = 0


@dataclass(frozen=True)
class DataCopyPadExtParams:
    """``DataCopyPadExtParams<T>{isPad, leftPadding, rightPadding, paddingValue}`` (paddings in elements)."""

    is_pad: bool = False
    left_padding: int = 0
    right_padding: int = 0
    padding_value: Any = 0


@dataclass(frozen=True)
class DataCopyPadParams:
    """``DataCopyPadParams{isPad, leftPadding, rightPadding, paddingValue}``: the older padding parameters,
    with ``DataCopyParams`` in ``data_copy_pad`` (``block_len`` then counts BYTES, strides as in
    ``DataCopyExtParams``).  ``padding_value`` is the pad's bit pattern (a uint64 whose low
    ``sizeof(T)`` bytes are used, as the register is set), not a value converted to ``T``."""

    is_pad: bool = False
    left_padding: int = 0
    right_padding: int = 0
    padding_value: int = 0


@dataclass(frozen=True)
class Nd2NzParams:
    """``Nd2NzParams{ndNum, nValue, dValue, srcNdMatrixStride, srcDValue, dstNzC0Stride, dstNzNStride,
    dstNzMatrixStride}``: ``nd_num`` ND matrices of ``n_value`` rows x ``d_value`` columns
    (row ``r`` of matrix ``i`` starts at source element ``i * src_nd_matrix_stride + r *
    src_d_value``) become NZ: element ``(r, c)`` lands at ``i * dst_nz_matrix_stride + (c // C0) *
    dst_nz_c0_stride * C0 + r * dst_nz_n_stride * C0 + c % C0`` (C0 = 32 B / sizeof(T);
    the two NZ strides count 32 B blocks, the matrix strides elements)."""

    nd_num: int = 1
    n_value: int = 0
    d_value: int = 0
    src_nd_matrix_stride: int = 0
    src_d_value: int = 0
    dst_nz_c0_stride: int = 0
    dst_nz_n_stride: int = 1
    dst_nz_matrix_stride: int = 0


def _nd2nz(core: Core, dst: LocalTensor, src: GlobalTensor, p: Nd2NzParams) -> None:
    """``DataCopy(dst, src, Nd2NzParams)``: GM (ND) -> L1/UB (NZ) on MTE2."""
    name = "data_copy"
    fields = (p.nd_num, p.n_value, p.d_value, p.src_nd_matrix_stride, p.src_d_value, p.dst_nz_c0_stride,
              p.dst_nz_n_stride, p.dst_nz_matrix_stride)
    if any(int(f) < 0 for f in fields):
        raise ValueError(f"{name}: negative field in {p}")
    nd, n, d = int(p.nd_num), int(p.n_value), int(p.d_value)
    if int(p.src_d_value) < d:
        raise ValueError(f"{name}: src_d_value {p.src_d_value} (source row length) is less than d_value {d}")
    i4 = is_int4(src.dtype)
    c0 = 2 * BLOCK if i4 else BLOCK // src.dtype.itemsize  # elements of a 32 B NZ row
    if nd and n and d and int(p.dst_nz_c0_stride) < n and d > c0:
        raise ValueError(f"{name}: dst_nz_c0_stride {p.dst_nz_c0_stride} < n_value {n}: the column groups "
                         "of the NZ result would overlap")
    isz = src.dtype.itemsize
    if not (nd and n and d):
        core.emit(Pipe.MTE2, name, (), (), BYTES[0])
        return
    r, c = np.arange(n)[:, None], np.arange(d)[None, :]
    m = np.arange(nd)[:, None, None]
    s_idx = m * int(p.src_nd_matrix_stride) + r * int(p.src_d_value) + c
    d_idx = (m * int(p.dst_nz_matrix_stride) + (c // c0) * int(p.dst_nz_c0_stride) * c0
             + r * int(p.dst_nz_n_stride) * c0 + c % c0)
    sspan, dspan = elem_bytes(src.dtype, int(s_idx.max()) + 1), elem_bytes(dst.dtype, int(d_idx.max()) + 1)
    dbuf = local_bytes(core, local_operand(core, dst, name, "dst", LOCAL), dspan, name, "dst")
    global_operand(core, src, name, "src", dst.space)
    sbuf = src.bytes_at(core, 0, sspan, write=False, vector_side=dst.space is Space.UB, op=name,
                        footprint=indexed_footprint(s_idx // 2, 1) if i4 else indexed_footprint(s_idx, isz))
    if i4:  # nibbles: unpack both sides, move the elements, pack the destination back
        nibs = unpack_int4(dbuf, 2 * dspan)
        nibs[d_idx] = unpack_int4(sbuf, 2 * sspan)[s_idx]
        pack_int4(dbuf, nibs)
    else:
        dbuf.view(dst.dtype)[d_idx] = sbuf.view(src.dtype)[s_idx]
    core.emit(Pipe.MTE2, name, (core.access(Space.GM, src.addr, sspan),), (dst.access(dspan),),
              BYTES[elem_bytes(src.dtype, nd * n * d)])


def _strided(buf: np.ndarray, count: int, blen: int, stride: int) -> np.ndarray:
    """``count`` blocks of ``blen`` bytes, ``stride`` bytes apart, as a (count, blen) view of ``buf``."""
    return as_strided(buf, shape=(count, blen), strides=(stride, 1), writeable=True)


def _direction(dst: Any, src: Any) -> tuple[Pipe, str]:
    if isinstance(dst, LocalTensor) and isinstance(src, GlobalTensor):
        if dst.space not in (Space.UB, Space.L1, Space.L0A, Space.L0B):
            raise ValueError(f"no global -> {dst.space.value} copy; L0C is written by mmad")
        return Pipe.MTE2, "gm2local"
    if isinstance(dst, GlobalTensor) and isinstance(src, LocalTensor):
        if src.space is not Space.UB:
            raise ValueError(
                f"data_copy from {src.space.value} to global memory: only UB -> GM exists "
                "(L0C results leave by fixpipe)"
            )
        return Pipe.MTE3, "local2gm"
    if isinstance(dst, LocalTensor) and isinstance(src, LocalTensor):
        if src.space is Space.UB and dst.space is Space.UB:
            return Pipe.V, "local2local"
        if src.space is Space.UB and dst.space is Space.L1:
            return Pipe.MTE3, "local2local"
        raise ValueError(
            f"no data_copy from {src.space.value} to {dst.space.value} "
            "(L1 -> L0A/L0B is load_data, L0C -> out is fixpipe; L0C -> UB on a coupled chip is "
            "data_copy(ub, l0c, DataCopyParams, DataCopyEnhancedParams))"
        )
    raise TypeError(
        f"data_copy(dst, src, ...) needs LocalTensor/GlobalTensor operands, got "
        f"{type(dst).__name__}, {type(src).__name__}"
    )


def data_copy(
    dst: LocalTensor | GlobalTensor,
    src: LocalTensor | GlobalTensor,
    count_or_params: int | DataCopyParams | Nd2NzParams,
    enhanced_params: DataCopyEnhancedParams | None = None,
) -> None:
    """``DataCopy(dst, src, count)``, ``DataCopy(dst, src, DataCopyParams)`` or, GM -> L1 with the
    ND -> NZ conversion, ``DataCopy(dst, src, Nd2NzParams)``; ``DataCopy(dst, src, DataCopyParams,
    DataCopyEnhancedParams)`` moves L0C -> UB on a coupled chip (``cube.copy_l0c_to_ub``) and is the
    plain copy on every other path (as the DataCopy page says).

    The count form moves ``count * sizeof(T)`` bytes rounded DOWN to 32 B.
    """
    core = current()
    name = "data_copy"
    if core.loop_mode and _looped(core, data_copy, dst, src, count_or_params, enhanced_params):
        return
    if enhanced_params is not None:
        if not isinstance(enhanced_params, DataCopyEnhancedParams) or not isinstance(count_or_params,
                                                                                      DataCopyParams):
            raise TypeError("data_copy(dst, src, DataCopyParams, DataCopyEnhancedParams) takes those two "
                            "types")
        if isinstance(src, LocalTensor) and src.space is Space.L0C and isinstance(dst, LocalTensor):
            p = count_or_params
            copy_l0c_to_ub(dst, src, int(p.block_count), int(p.block_len), int(p.src_stride),
                           int(p.dst_stride), enhanced_params)
            return
    if isinstance(dst, LocalTensor) and dst.space is Space.BT:  # L1 -> bias table (with half -> float)
        copy_l1_to_bt(dst, src, count_or_params)
        return
    if dst.dtype.itemsize != src.dtype.itemsize or is_int4(dst.dtype) != is_int4(src.dtype):
        raise TypeError(f"data_copy between {dtype_name(src.dtype)} and {dtype_name(dst.dtype)}: "
                        "use cast for conversions")
    pipe, kind = _direction(dst, src)
    if isinstance(count_or_params, Nd2NzParams):
        if kind != "gm2local" or not isinstance(dst, LocalTensor) or dst.space not in (Space.L1, Space.UB):
            raise ValueError("data_copy with Nd2NzParams converts GM -> L1 (A1/B1) or UB only")
        assert isinstance(src, GlobalTensor)
        _nd2nz(core, dst, src, count_or_params)
        return
    if isinstance(count_or_params, DataCopyParams):
        p = count_or_params
        if p.block_count < 0 or p.block_len < 0 or p.src_stride < 0 or p.dst_stride < 0:
            raise ValueError(f"negative field in {p}")
        count, blen = int(p.block_count), int(p.block_len) * BLOCK
        sstride, dstride = blen + int(p.src_stride) * BLOCK, blen + int(p.dst_stride) * BLOCK
    else:
        n = int(count_or_params)
        if n < 0:
            raise ValueError(f"data_copy count must be >= 0, got {n}")
        nbytes = elem_bytes(src.dtype, n)
        count, blen = 1, nbytes - nbytes % BLOCK
        sstride = dstride = blen
    sspan = (count - 1) * sstride + blen if count else 0
    dspan = (count - 1) * dstride + blen if count else 0
    total = count * blen
    if kind == "gm2local":
        assert isinstance(src, GlobalTensor) and isinstance(dst, LocalTensor)
        dbuf = local_bytes(core, local_operand(core, dst, name, "dst", LOCAL), dspan, name, "dst")
        global_operand(core, src, name, "src", dst.space)
        sbuf = src.bytes_at(core, 0, sspan, write=False, vector_side=dst.space is Space.UB, op=name,
                            footprint=strided_footprint(count, blen, sstride) if count > 1 else None)
        reads: tuple[Access, ...] = (core.access(Space.GM, src.addr, sspan),)
        writes = (dst.access(dspan),)
    elif kind == "local2gm":
        assert isinstance(dst, GlobalTensor) and isinstance(src, LocalTensor)
        sbuf = local_bytes(core, local_operand(core, src, name, "src", UB), sspan, name, "src")
        global_operand(core, dst, name, "dst", src.space)
        dbuf = dst.bytes_at(core, 0, dspan, write=True, vector_side=True, op=name,
                            footprint=strided_footprint(count, blen, dstride) if count > 1 else None)
        gm = core.access(Space.GM, dst.addr, dspan)
        reads, writes = (src.access(sspan), *store_reads(core, gm)), (gm,)
    else:
        assert isinstance(dst, LocalTensor) and isinstance(src, LocalTensor)
        sbuf = local_bytes(core, local_operand(core, src, name, "src", UB), sspan, name, "src")
        dbuf = local_bytes(core, local_operand(core, dst, name, "dst", LOCAL), dspan, name, "dst")
        reads, writes = (src.access(sspan),), (dst.access(dspan),)
    if total:
        contiguous = count == 1 or (sstride == blen and dstride == blen)
        if kind == "local2gm":
            if contiguous:
                store(core, dbuf[:total], sbuf[:total], name)
            else:
                store(core, _strided(dbuf, count, blen, dstride), _strided(sbuf, count, blen, sstride), name)
        elif contiguous:
            dbuf[:total] = sbuf[:total]
        else:
            _strided(dbuf, count, blen, dstride)[...] = _strided(sbuf, count, blen, sstride)
    if pipe is Pipe.V:
        cost = BYTES_REPEATS[(total, -(-total // core.chip.vector_repeat_bytes))]
    elif kind == "local2gm":
        cost = store_cost(core, total, "UB", name)
    elif kind == "gm2local" and count > 1 and sstride != blen:
        cost = SEGMENTS[(total, count, blen, sstride)]
    else:
        cost = BYTES[total]
    core.emit(pipe, "data_copy", reads, writes, cost)


def _shifted(t: Any, nbytes: int) -> Any:
    """``t`` moved ``nbytes`` bytes on (a loop-mode iteration's operand)."""
    if isinstance(t, GlobalTensor):
        return t.offset_bytes(nbytes)
    return t[bytes_elems(t.dtype, nbytes)]


def _looped(core: Core, fn: Any, dst: Any, src: Any, *args: Any) -> bool:
    """Run ``fn(dst, src, *args)`` once per iteration of the loop mode set for its direction
    (``SetLoopModePara``: ``loop2_size`` x ``loop1_size`` iterations, operands moved on by the loops'
    byte strides), each recorded as its own copy.  False when no loop mode is set for that direction."""
    if isinstance(dst, LocalTensor) and isinstance(src, GlobalTensor):
        direction = 1  # DataCopyMVType.OUT_TO_UB
    elif isinstance(dst, GlobalTensor) and isinstance(src, LocalTensor):
        direction = 0  # DataCopyMVType.UB_TO_OUT
    else:
        return False
    loop = core.loop_mode.pop(direction, None)
    if loop is None:
        return False
    try:
        for i2 in range(int(loop.loop2_size)):
            for i1 in range(int(loop.loop1_size)):
                s_off = i1 * int(loop.loop1_src_stride) + i2 * int(loop.loop2_src_stride)
                d_off = i1 * int(loop.loop1_dst_stride) + i2 * int(loop.loop2_dst_stride)
                fn(_shifted(dst, d_off), _shifted(src, s_off), *args)
    finally:
        core.loop_mode[direction] = loop
    return True


def _pad_forms(params: Any, pad: Any,
               dtype: np.dtype) -> tuple[DataCopyExtParams, DataCopyPadExtParams | None]:
    """``data_copy_pad``'s two spellings as the newer one: ``(DataCopyExtParams, DataCopyPadExtParams)``
    or the older ``(DataCopyParams, DataCopyPadParams)`` (``block_len`` in bytes, uint16 fields, the
    padding value a bit pattern)."""
    if isinstance(params, DataCopyExtParams):
        if pad is not None and not isinstance(pad, DataCopyPadExtParams):
            raise TypeError("data_copy_pad with DataCopyExtParams takes DataCopyPadExtParams "
                            "(DataCopyPadParams goes with DataCopyParams)")
        return params, pad
    if isinstance(params, DataCopyParams):
        if pad is not None and not isinstance(pad, DataCopyPadParams):
            raise TypeError("data_copy_pad with DataCopyParams takes DataCopyPadParams (DataCopyPadExtParams "
                            "goes with DataCopyExtParams)")
        fields = (params.block_count, params.block_len, params.src_stride, params.dst_stride)
        if any(not 0 <= int(f) <= 0xFFFF for f in fields):
            raise ValueError(f"DataCopyParams fields are uint16 (0..65535), got {params}")
        ext = DataCopyExtParams(int(params.block_count), int(params.block_len), int(params.src_stride),
                                int(params.dst_stride))
        if pad is None:
            return ext, None
        bits = np.array([int(pad.padding_value) & (2**64 - 1)], np.uint64).view(np.uint8)[:dtype.itemsize]
        value = bits.view(dtype)[0]
        return ext, DataCopyPadExtParams(bool(pad.is_pad), int(pad.left_padding), int(pad.right_padding),
                                         value)
    raise TypeError(f"data_copy_pad needs DataCopyExtParams (or the older DataCopyParams), got "
                    f"{type(params).__name__}")


#: Why data_copy_pad refuses to pad int4b_t elements, and what to do instead.
_INT4_PAD = ("data_copy_pad: padding of int4b_t elements: the documentation excludes int4b_t from "
             "DataCopyPad (asc-devkit docs/zh/api/SIMD-API/基础API/Memory矢量计算/数据搬运/GM与UB数据搬运/"
             "GMToUB非对齐数据搬运(DataCopyPad).md lists no int4b_t for Atlas A2/A3); aclsim moves int4b_t "
             "with data_copy_pad as whole bytes only")
_INT4_PAD_HINT = ("copy whole bytes without padding (block_len counts bytes: two int4b_t each), or pad an "
                  "int8 view (reinterpret_cast) of the tensor")


def data_copy_pad(
    dst: LocalTensor | GlobalTensor,
    src: LocalTensor | GlobalTensor,
    params: DataCopyExtParams | DataCopyParams,
    pad_params: DataCopyPadExtParams | DataCopyPadParams | None = None,
) -> None:
    """``DataCopyPad``: byte-exact copies of blocks whose length need not be a multiple of 32 B.

    GM -> UB: block ``i`` is read from ``src + i * (block_len + src_stride)`` bytes and written
    at UB ``dst + i * (align32(left + block_len + right) + dst_stride * 32)``, after ``left``
    padding elements; with ``is_pad`` the left and right paddings are filled with
    ``padding_value`` (otherwise they keep what was there).
    UB -> GM: block ``i`` is read from UB ``src + i * (align32(block_len) + src_stride * 32)``
    and written at ``dst + i * (block_len + dst_stride)`` bytes.
    """
    core = current()
    name = "data_copy_pad"
    if core.loop_mode and _looped(core, data_copy_pad, dst, src, params, pad_params):
        return
    if dst.dtype.itemsize != src.dtype.itemsize or is_int4(dst.dtype) != is_int4(src.dtype):
        raise TypeError(f"data_copy_pad between {dtype_name(src.dtype)} and {dtype_name(dst.dtype)}")
    params, pad_params = _pad_forms(params, pad_params, dst.dtype)
    count, blen = int(params.block_count), int(params.block_len)
    isz = src.dtype.itemsize
    if not 0 <= count <= 4095 or blen < 0:
        raise ValueError(f"DataCopyExtParams block_count must be in 0..4095 and block_len >= 0, got {params}")
    if blen % isz:
        core.fault(
            MisalignedAccessError,
            f"data_copy_pad block_len {blen} B is not a multiple of sizeof({src.dtype}) = {isz}",
            code=fault_code(Space.UB),
        )
    if isinstance(dst, LocalTensor) and isinstance(src, GlobalTensor):
        if dst.space is not Space.UB:
            raise ValueError("data_copy_pad moves between global memory and UB")
        pad = pad_params or DataCopyPadExtParams()
        if is_int4(dst.dtype) and (int(pad.left_padding) or int(pad.right_padding)):
            core.fault(UnsupportedFault, _INT4_PAD, hint=_INT4_PAD_HINT, code=fault_code(Space.UB))
        left, right = int(pad.left_padding) * isz, int(pad.right_padding) * isz
        if left > BLOCK or right > BLOCK:
            raise ValueError("data_copy_pad paddings are at most 32 B each")
        ub_block = -(-(left + blen + right) // BLOCK) * BLOCK
        sstride = blen + int(params.src_stride)
        dstride = ub_block + int(params.dst_stride) * BLOCK
        sspan = (count - 1) * sstride + blen if count else 0
        dspan = (count - 1) * dstride + ub_block if count else 0
        dbuf = local_bytes(core, local_operand(core, dst, name, "dst"), dspan, name, "dst")
        global_operand(core, src, name, "src", dst.space)
        sbuf = src.bytes_at(core, 0, sspan, write=False, vector_side=True, op=name,
                            footprint=strided_footprint(count, blen, sstride))
        if count:
            d2 = _strided(dbuf, count, ub_block, dstride)
            d2[:, left : left + blen] = _strided(sbuf, count, blen, sstride)
            if pad.is_pad:
                value = np.asarray(pad.padding_value).astype(dst.dtype)
                if left:
                    d2[:, :left] = np.full(left // isz, value, dst.dtype).view(np.uint8)
                if right:
                    d2[:, left + blen : left + blen + right] = np.full(right // isz, value, dst.dtype).view(
                        np.uint8
                    )
        core.emit(
            Pipe.MTE2,
            "data_copy_pad",
            (core.access(Space.GM, src.addr, sspan),),
            (dst.access(dspan),),
            (SEGMENTS[(count * blen, count, blen, sstride)] if count > 1 and sstride != blen
             else BYTES[count * blen]),
        )
    elif isinstance(dst, GlobalTensor) and isinstance(src, LocalTensor):
        if src.space is not Space.UB:
            raise ValueError("data_copy_pad moves between global memory and UB")
        if pad_params is not None:
            raise TypeError("UB -> GM data_copy_pad takes no padding parameters")
        ub_block = -(-blen // BLOCK) * BLOCK
        sstride = ub_block + int(params.src_stride) * BLOCK
        dstride = blen + int(params.dst_stride)
        sspan = (count - 1) * sstride + blen if count else 0
        dspan = (count - 1) * dstride + blen if count else 0
        sbuf = local_bytes(core, local_operand(core, src, name, "src"), sspan, name, "src")
        global_operand(core, dst, name, "dst", src.space)
        dbuf = dst.bytes_at(core, 0, dspan, write=True, vector_side=True, op=name,
                            footprint=strided_footprint(count, blen, dstride))
        cost = store_cost(core, count * blen, "UB", name)
        if count:
            store(core, _strided(dbuf, count, blen, dstride), _strided(sbuf, count, blen, sstride), name)
        gm = core.access(Space.GM, dst.addr, dspan)
        core.emit(Pipe.MTE3, "data_copy_pad", (src.access(sspan), *store_reads(core, gm)), (gm,), cost)
    else:
        raise TypeError(
            "data_copy_pad copies GlobalTensor -> LocalTensor (UB) or LocalTensor (UB) -> GlobalTensor"
        )
