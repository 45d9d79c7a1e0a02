"""Data rearrangement on the vector unit (PIPE_V, UB operands): ``brcb``, ``gather``,
``gather_mask`` and the UB -> UB vector ``copy``.

- ``brcb`` (``Brcb``): each repeat takes 8 elements of ``src`` and fills one 32 B block of
  ``dst`` with each.
- ``gather`` (``Gather``): ``dst[i]`` is the element at byte ``src_base_addr + offset[i]``
  from ``src``'s start (``offset`` a uint32 tensor of byte offsets, one per element).
- ``gather_mask`` (``GatherMask``): keeps the elements of ``src0`` whose pattern bit is 1
  (a built-in pattern 1..7 or a pattern tensor), packed one after another in ``dst``; returns
  the number kept (Ascend C's ``rsvdCnt`` output argument).
- ``copy`` (``Copy``): the mask/repeat form of an elementwise identity with its own
  ``CopyRepeatParams``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from aclsim.errors import ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, LocalOutOfRangeError, MisalignedAccessError
from aclsim.isa import Access, Pipe, Space
from aclsim.kernel._core import (
    REPEATS,
    Core,
    bfloat16,
    current,
    float16,
    float32,
    int16,
    int32,
    uint16,
    uint32,
)
from aclsim.kernel.mask import FULL64, FULL128, encode_len
from aclsim.kernel.operands import local_bytes, local_operand
from aclsim.kernel.repeat import Strided, check_count, check_types, rep_index, selected
from aclsim.kernel.tensor import LocalTensor

#: The 16- and 32-bit types these instructions move (the 910B pages' lists).
B16_B32 = (float16, bfloat16, int16, uint16, float32, int32, uint32)


@dataclass(frozen=True)
class BrcbRepeatParams:
    """``BrcbRepeatParams(dstBlkStride, dstRepStride)``: strides of ``dst`` in 32 B blocks (a block
    stride of 0 counts as 1, as documented)."""

    dst_blk_stride: int = 1
    dst_rep_stride: int = 8


@dataclass(frozen=True)
class CopyRepeatParams:
    """``CopyRepeatParams(dstStride, srcStride, dstRepeatSize, srcRepeatSize)``: block strides within a
    repeat (0..65535) and repeat strides (0..4095), in 32 B blocks.  The defaults are Ascend C's
    (block strides 0: every block of a repeat reads the first one)."""

    dst_stride: int = 0
    src_stride: int = 0
    dst_repeat_size: int = 8
    src_repeat_size: int = 8

    def __post_init__(self) -> None:
        for name in ("dst_stride", "src_stride"):
            if not 0 <= getattr(self, name) <= 65535:
                raise ValueError(f"CopyRepeatParams.{name} must be in 0..65535, got {getattr(self, name)}")
        for name in ("dst_repeat_size", "src_repeat_size"):
            if not 0 <= getattr(self, name) <= 4095:
                raise ValueError(f"CopyRepeatParams.{name} must be in 0..4095, got {getattr(self, name)}")


@dataclass(frozen=True)
class GatherMaskParams:
    """``GatherMaskParams(src0BlockStride, repeatTimes, src0RepeatStride, src1RepeatStride)``: the
    strides of ``src0`` and of a pattern tensor, in 32 B blocks, and the repeat count."""

    src0_block_stride: int = 1
    repeat_times: int = 0
    src0_repeat_stride: int = 8
    src1_repeat_stride: int = 8


def _same_dtype(name: str, dst: LocalTensor, src: LocalTensor) -> None:
    if dst.dtype != src.dtype:
        raise TypeError(f"{name}: dst and src must share one dtype, got {dst.dtype}, {src.dtype}")
    check_types(name, dst.dtype, B16_B32)


def _check_repeat(core: Core, name: str, repeat: Any) -> int:
    r = int(repeat)
    if not 0 <= r <= core.chip.max_repeat:
        raise ValueError(f"{name}: repeat_times must be in 0..{core.chip.max_repeat}, got {r}")
    return r


def _ub_range(core: Core, t: LocalTensor, idx: np.ndarray, name: str, what: str) -> Access:
    """The byte range of elements ``idx`` of ``t`` (inside its buffer)."""
    if idx.size == 0:
        return core.access(Space.UB, t.offset, 0)
    lo, hi = int(idx.min()), int(idx.max()) + 1
    span = t.span()
    if hi > span.size:
        core.fault(LocalOutOfRangeError, f"{name}: {what} reaches element {hi - 1}, past its buffer "
                   f"({span.size} elements)", code=ACL_ERROR_RT_VECTOR_CORE_EXCEPTION)
    isz = t.dtype.itemsize
    return core.access(Space.UB, t.offset + lo * isz, (hi - lo) * isz)


# --- Brcb --------------------------------------------------------------------------------------


def brcb(dst: LocalTensor, src: LocalTensor, repeat_times: int, params: BrcbRepeatParams) -> None:
    """``Brcb(dst, src0, repeatTime, BrcbRepeatParams)``: repeat ``r`` reads ``src[8r .. 8r+7]`` and fills
    block ``b`` of ``dst`` (at ``(r * dst_rep_stride + b * dst_blk_stride) * 32 B``) with ``src[8r + b]``.
    ``dst`` and ``src`` must not be the same memory (as documented).  Leaves the mask register all ones
    (the device library calls ``ResetMask`` first)."""
    core = current()
    name = "brcb"
    local_operand(core, dst, name, "dst")
    local_operand(core, src, name, "src")
    _same_dtype(name, dst, src)
    if not isinstance(params, BrcbRepeatParams):
        raise TypeError("brcb: params must be a BrcbRepeatParams")
    rep = _check_repeat(core, name, repeat_times)
    if dst.offset == src.offset:
        raise ValueError("brcb: src and dst must not be the same memory (Brcb's documented constraint)")
    epb = 32 // dst.dtype.itemsize
    blk = max(int(params.dst_blk_stride), 1)
    sidx = np.arange(8 * rep)
    sa = _ub_range(core, src, sidx, name, "src")
    starts = (np.arange(rep)[:, None] * int(params.dst_rep_stride) + np.arange(8)[None, :] * blk) * epb
    didx = (starts[..., None] + np.arange(epb)).reshape(rep * 8, epb)
    da = _ub_range(core, dst, didx, name, "dst")
    values = src.span()[sidx].copy()
    dst.span()[didx] = values[:, None]
    core.vmask = (core.vmask[0], FULL128)  # the library resets the mask register before vbrcb
    core.emit(Pipe.V, name, (sa,), (da,), REPEATS[rep])


# --- Gather ------------------------------------------------------------------------------------


def _gather_strided(core: Core, dst: LocalTensor, src: LocalTensor, offset: LocalTensor, base: int,
                    mask: Any, repeat: int, dst_rep_stride: int) -> None:
    name = "gather"
    isz = dst.dtype.itemsize
    per_rep = core.chip.vector_repeat_bytes // isz
    st = Strided(core, name, dst.dtype, mask, repeat, True)
    if st.count is None:
        sel = selected(st.key, per_rep)
        lanes = (np.arange(st.repeat)[:, None] * per_rep + sel[None, :]).ravel()
        didx = (np.arange(st.repeat)[:, None] * (int(dst_rep_stride) * 32 // isz) + sel[None, :]).ravel()
    else:  # counter mode: the first n lanes of the run
        lanes = np.arange(st.count)
        r, j = np.divmod(lanes, per_rep)
        didx = r * (int(dst_rep_stride) * 32 // isz) + j
    oa = _ub_range(core, offset, lanes, name, "offset")
    offs = offset.span()[lanes].astype(np.int64) + int(base)
    if offs.size and (offs % isz).any():
        bad = int(offs[(offs % isz) != 0][0])
        core.fault(MisalignedAccessError,
                   f"{name}: src offset {bad} B is not a multiple of sizeof({dst.dtype})",
                   hint="gather offsets are byte offsets from src (times the element size)",
                   code=ACL_ERROR_RT_VECTOR_CORE_EXCEPTION)
    ub = core.arenas[Space.UB]
    addr = src.offset + offs
    if offs.size and (addr.min() < 0 or addr.max() + isz > ub.size):
        core.fault(LocalOutOfRangeError, f"{name}: a src offset reaches UB byte {int(addr.max())}, outside "
                   f"the UB ({ub.size} B)", code=ACL_ERROR_RT_VECTOR_CORE_EXCEPTION)
    da = _ub_range(core, dst, didx, name, "dst")
    reads = [oa]
    if offs.size:
        values = ub[(addr[:, None] + np.arange(isz)).ravel()].view(dst.dtype)
        lo, hi = int(addr.min()), int(addr.max()) + isz
        reads.append(core.access(Space.UB, lo, hi - lo))
        dst.span()[didx] = values
    core.emit(Pipe.V, name, tuple(reads), (da,), REPEATS[st.repeat])


def gather(dst: LocalTensor, src: LocalTensor, src_offset: LocalTensor, src_base_addr: int,
           *args: Any) -> None:
    """``Gather(dst, src, srcOffset, srcBaseAddr, count)`` or ``Gather(dst, src, srcOffset, srcBaseAddr,
    mask, repeatTime, dstRepStride)``: ``dst[i]`` = the element at byte ``src_base_addr + src_offset[i]``
    from ``src``'s start (offsets: a uint32 tensor, multiples of sizeof(T), inside the UB).

    The mask/repeat form writes repeat ``r``'s selected lane ``j`` to ``dst[r * dst_rep_stride * 32 B /
    sizeof(T) + j]`` from offset ``r * PAR + j``.  The count form runs as the device library does: full
    repeats, then one repeat for the tail (its mask left in the register).
    """
    core = current()
    name = "gather"
    local_operand(core, dst, name, "dst")
    local_operand(core, src, name, "src")
    local_operand(core, src_offset, name, "src_offset")
    _same_dtype(name, dst, src)
    if src_offset.dtype != uint32:
        raise TypeError(f"gather: src_offset must be a uint32 tensor of byte offsets, got {src_offset.dtype}")
    base = int(src_base_addr)
    if base < 0:
        raise ValueError(f"gather: src_base_addr must be >= 0, got {base}")
    if len(args) == 3:
        mask, repeat, dst_rep_stride = args
        _gather_strided(core, dst, src, src_offset, base, mask, _check_repeat(core, name, repeat),
                        dst_rep_stride)
        return
    if len(args) != 1:
        raise TypeError("gather(dst, src, src_offset, src_base_addr, count) or "
                        "gather(dst, src, src_offset, src_base_addr, mask, repeat_times, dst_rep_stride)")
    n = check_count(args[0], name)
    per_rep = core.chip.vector_repeat_bytes // dst.dtype.itemsize
    full, tail = divmod(n, per_rep)
    if full > core.chip.max_repeat:
        raise ValueError(f"gather: count {n} needs {full} full repeats, more than {core.chip.max_repeat}; "
                         "split it (the device library's repeatTime is 8 bits)")
    if full:
        _gather_strided(core, dst, src, src_offset, base, per_rep, full, 8)
    if tail:
        k = n - tail
        _gather_strided(core, dst[k], src, src_offset[k], base, tail, 1, 8)


# --- GatherMask --------------------------------------------------------------------------------

#: The built-in patterns 1..7: which lanes (index mod 4) they keep.
_BUILTIN = {1: (0, 2), 2: (1, 3), 3: (0,), 4: (1,), 5: (2,), 6: (3,), 7: (0, 1, 2, 3)}


def gather_mask(dst: LocalTensor, src0: LocalTensor, src1_pattern: LocalTensor | int, reduce_mode: bool,
                mask: int, params: GatherMaskParams) -> int:
    """``GatherMask(dst, src0, src1Pattern, reduceMode, mask, GatherMaskParams, rsvdCnt)``: keep the
    elements of ``src0`` whose pattern bit is 1, packed from ``dst[0]``; returns ``rsvdCnt`` (the number
    kept; Ascend C's output argument).

    ``src1_pattern``: a built-in pattern 1..7 (1 even lanes, 2 odd lanes, 3..6 one lane in four,
    7 all; the same for every repeat) or a pattern tensor (uint16 for 16-bit ``T``, uint32 for
    32-bit; its bits consumed one after another within a repeat, LSB first, repeat ``r``'s at
    ``r * src1_repeat_stride`` blocks).  ``reduce_mode`` False: each of ``params.repeat_times``
    repeats covers 256 B of ``src0`` (``mask`` unused); True (counter mode, the 910B's
    "configuration one"): each repeat covers ``mask`` elements.  Afterwards the block is in normal
    mode with ``mask`` in the register's low word, as the device library leaves it.
    """
    core = current()
    name = "gather_mask"
    local_operand(core, dst, name, "dst")
    local_operand(core, src0, name, "src0")
    _same_dtype(name, dst, src0)
    if not isinstance(params, GatherMaskParams):
        raise TypeError("gather_mask: params must be a GatherMaskParams")
    isz = dst.dtype.itemsize
    epb, per_rep = 32 // isz, core.chip.vector_repeat_bytes // isz
    rep = int(params.repeat_times)
    if not 0 <= rep <= 65535:
        raise ValueError(f"gather_mask: repeat_times must be in 0..65535, got {rep}")
    m = int(mask)
    if reduce_mode and not 1 <= m <= 0xFFFFFFFF:
        raise ValueError(f"gather_mask: in counter mode (reduce_mode True) mask must be in 1..2**32-1, "
                         f"got {m}")
    lanes = m if reduce_mode else per_rep
    k = np.arange(lanes)
    src_idx = (np.arange(rep)[:, None] * (int(params.src0_repeat_stride) * epb)
               + ((k // epb) * (int(params.src0_block_stride) * epb) + k % epb)[None, :])
    reads = [_ub_range(core, src0, src_idx, name, "src0")]
    if isinstance(src1_pattern, LocalTensor):
        local_operand(core, src1_pattern, name, "src1_pattern")
        want = uint16 if isz == 2 else uint32
        if src1_pattern.dtype != want:
            raise TypeError(f"gather_mask: the pattern tensor of a {dst.dtype} gather is {want}, "
                            f"got {src1_pattern.dtype}")
        nbytes_rep = -(-lanes // 8)
        stride = int(params.src1_repeat_stride) * 32
        total = (rep - 1) * stride + nbytes_rep if rep else 0
        raw = local_bytes(core, src1_pattern, total, name, "src1_pattern")
        bits = np.zeros((rep, lanes), bool)
        for r in range(rep):
            chunk = raw[r * stride: r * stride + nbytes_rep]
            bits[r] = np.unpackbits(chunk, bitorder="little", count=lanes).astype(bool)
        reads.append(src1_pattern.access(total))
    else:
        pattern = int(src1_pattern)
        if pattern not in _BUILTIN:
            raise ValueError(f"gather_mask: a built-in pattern is 1..7, got {pattern}")
        bits = np.broadcast_to(np.isin(k % 4, _BUILTIN[pattern]), (rep, lanes))
    kept = src0.span()[src_idx[bits]] if rep else np.zeros(0, dst.dtype)
    cnt = int(kept.size)
    if cnt:
        _ub_range(core, dst, np.array([cnt - 1]), name, "dst")
        dst.span()[:cnt] = kept
    core.vmask = (False, m & FULL64)
    n_reps = max(1, -(-rep * lanes // per_rep)) if rep else 0
    core.emit(Pipe.V, name, tuple(reads), (dst.access(cnt * isz),), REPEATS[n_reps])
    return cnt


# --- Copy --------------------------------------------------------------------------------------


def copy(dst: LocalTensor, src: LocalTensor, *args: Any, is_set_mask: bool | None = None) -> None:
    """``Copy(dst, src, mask, repeatTime, CopyRepeatParams)``: UB -> UB on the vector unit, ``dst = src``
    on the lanes the mask selects, strided by ``CopyRepeatParams``.

    In counter mode the register's count is the number of lanes of each repeat (and ``repeat_times``
    counts), unlike the other vector instructions, as Copy's page says.  The count form
    ``Copy(dst, src, count)`` exists on the Ascend 950 only, which aclsim has no preset for: refused.
    """
    core = current()
    name = "copy"
    local_operand(core, dst, name, "dst")
    local_operand(core, src, name, "src")
    _same_dtype(name, dst, src)
    if len(args) == 1:
        raise TypeError("copy(dst, src, count): Copy's count form exists on the Ascend 950 only; use "
                        "copy(dst, src, mask, repeat_times, CopyRepeatParams(...)) or data_copy")
    if len(args) != 3 or not isinstance(args[2], CopyRepeatParams):
        raise TypeError("copy(dst, src, mask, repeat_times, CopyRepeatParams)")
    mask, repeat, p = args
    st = Strided(core, name, dst.dtype, mask, repeat, is_set_mask)
    if st.count is not None:  # Copy's counter mode: the count is the lanes of each repeat
        bits = encode_len(min(st.count, st.per_rep), st.per_rep) & ((1 << st.per_rep) - 1)
        key: tuple[int, ...] = (-1, bits & FULL64, bits >> 64)
        reps = _check_repeat(core, name, repeat)
    else:
        key, reps = st.key, st.repeat
    isz = dst.dtype.itemsize
    di = rep_index(isz, key, reps, int(p.dst_stride), int(p.dst_repeat_size))
    si = rep_index(isz, key, reps, int(p.src_stride), int(p.src_repeat_size))
    da = _ub_range(core, dst, di, name, "dst")
    sa = _ub_range(core, src, si, name, "src")
    if di.size:
        dst.span()[di] = src.span()[si]
    core.emit(Pipe.V, name, (sa,), (da,), REPEATS[reps])


__all__ = ["BrcbRepeatParams", "CopyRepeatParams", "GatherMaskParams", "brcb", "copy", "gather",
           "gather_mask"]
