"""``BroadCastVecToMM``: a vector in UB broadcast into L0C fractals (the 310P's bias path, PIPE_V).

The BroadCastVecToMM page (Atlas inference-series AI Core only, UB -> L0C, VECIN/VECCALC/VECOUT ->
CO1): each 16 consecutive elements of a block are copied 16 times in a row, so they fill a 16 x 16
fractal whose every row is those 16 elements (a bias row over 16 rows of M, in L0C's NZ layout).
``broad_cast_vec_to_mm(dst, src, block_count, block_len, src_gap, dst_gap)``: ``block_count``
blocks (1..255) of ``block_len`` groups of 16 elements (1..255); between the end of a block and the
start of the next, ``src_gap`` 32 B blocks in UB and ``dst_gap`` fractals of 256 elements in L0C.
Types: half, int32, float, the same in ``dst`` and ``src``; ``dst`` starts on a 256-element boundary.
The ops-nn kernels call it as ``BroadCastVecToMM(l0c[...], ubBias[i * 16], 1, 1, 0, 0)`` before the
first ``Mmad`` of a block with ``cmatrixInitVal`` false.  Recorded as one vector instruction (the
coupled chips' vector unit writes L0C, as ``copy_l0c_to_ub`` reads it), timed by its repeats of 256
B written.  On the split chips (910B) there is no UB -> L0C path: refused with 207000.
"""

from __future__ import annotations

import numpy as np

from aclsim.isa import Pipe, Space
from aclsim.kernel._core import REPEATS, UnsupportedFault, current, dtype_name, float16, float32, int32
from aclsim.kernel.operands import local_bytes, local_operand
from aclsim.kernel.tensor import LocalTensor

_FRAC = 256  # elements of an L0C fractal
_NAME = "broad_cast_vec_to_mm"


def broad_cast_vec_to_mm(dst: LocalTensor, src: LocalTensor, block_count: int, block_len: int, src_gap: int,
                         dst_gap: int) -> None:
    """``BroadCastVecToMM(dst, src, blockCount, blockLen, srcGap, dstGap)``: UB vector -> L0C fractals
    whose rows repeat each 16 elements (module docstring).

    >>> # inside a 310P kernel: asc.broad_cast_vec_to_mm(l0c, ub_bias, 1, 1, 0, 0)
    """
    core = current()
    if not core.chip.coupled:
        core.fault(UnsupportedFault, f"{_NAME}: {core.chip.name} has no UB -> L0C path (the page lists the "
                   "Atlas inference-series AI Core only)", hint="load the bias into the bias table (C2) and "
                   "mmad with it, as the split chips do")
    isz = dst.dtype.itemsize
    local_operand(core, dst, _NAME, "dst", (Space.L0C,), align=_FRAC * isz)
    local_operand(core, src, _NAME, "src", (Space.UB,))
    if dst.dtype != src.dtype or dst.dtype not in (float16, int32, float32):
        raise TypeError(f"{_NAME}: dst and src share one type of half, int32, float; got "
                        f"{dtype_name(dst.dtype)}, {dtype_name(src.dtype)}")
    count, length, sgap, dgap = int(block_count), int(block_len), int(src_gap), int(dst_gap)
    if not (1 <= count <= 255 and 1 <= length <= 255 and 0 <= sgap <= 255 and 0 <= dgap <= 255):
        raise ValueError(f"{_NAME}: block_count and block_len must be in 1..255, the gaps in 0..255; got "
                         f"{count}, {length}, {sgap}, {dgap}")
    s_step = length * 16 * isz + sgap * 32  # bytes from one block's start to the next
    d_step = (length + dgap) * _FRAC  # elements
    s_span = (count - 1) * s_step + length * 16 * isz
    d_span = (count - 1) * d_step + length * _FRAC
    sbuf = local_bytes(core, src, s_span, _NAME, "src")
    out = local_bytes(core, dst, d_span * isz, _NAME, "dst").view(dst.dtype)
    for b in range(count):
        groups = sbuf[b * s_step:b * s_step + length * 16 * isz].view(src.dtype).reshape(length, 1, 16)
        out[b * d_step:b * d_step + length * _FRAC] = np.broadcast_to(groups, (length, 16, 16)).reshape(-1)
    blk = length * 16 * isz
    reads = tuple(core.access(Space.UB, src.offset + b * s_step, blk) for b in range(count)) if sgap else (
        src.access(s_span),)
    writes = tuple(core.access(Space.L0C, dst.offset + b * d_step * isz, length * _FRAC * isz)
                   for b in range(count)) if dgap else (dst.access(d_span * isz),)
    core.emit(Pipe.V, _NAME, reads, writes, REPEATS[-(-count * length * _FRAC * isz // 256)])


__all__ = ["broad_cast_vec_to_mm"]
