"""The high-level ``Broadcast`` API (and its older spelling ``BroadCast``) and ``GetBroadCastMaxMinTmpSize``.

``broadcast(dst, src, dst_shape, src_shape[, shared_tmp_buffer], dim=, axis=)`` (Ascend C's template
arguments ``dim`` and ``axis`` as keywords; by default ``dim`` is the shapes' length and ``axis`` the
one axis where ``src_shape`` is 1 and ``dst_shape`` is not) writes ``src`` broadcast to ``dst_shape``
(ND, 1 or 2 dimensions, int8, uint8, half, float), as the library does on the 910B, with its
basic vector instructions (each recorded; ``pipe_barrier(PIPE_V)`` between dependent steps):

- same size: ``copy`` (UB -> UB) of the elements;
- one source element: ``get_value`` on the scalar pipe (a V -> S flag before it, S -> V after) and
  ``duplicate``;
- ``[m, 1] -> [m, k]`` (axis 1): ``brcb`` of the rows' values into the buffer (a 32 B block a row),
  then a strided ``copy`` per 256 B of columns repeating each row's block along its row (block
  stride 0); when ``k * sizeof(T)`` is not a multiple of 32 B the rows go to the buffer at a 32 B
  aligned pitch and a ``gather_mask`` (pattern 7, counter mode) packs them into ``dst``.  The rows go
  in passes of as many as the buffer holds (``32 B / sizeof(T)`` rows per ``(32 B / sizeof(T))^2``
  elements, plus a row's aligned copy each when ``k`` is not aligned), as the library splits them;
- ``[1, k] -> [m, k]`` (axis 0, ``k * sizeof(T)`` a multiple of 32 B, as documented): a 32 B block
  of zeros in the buffer (``duplicate``), then per 8 rows one ``or`` (uint16 lanes) of the source
  row with the zeros, block ``b`` of a repeat writing row ``b`` (dst block stride: a row), repeat ``j``
  column block ``j``; rows longer than 255 blocks go row by row with ``copy``.

int8/uint8 are cast to half in the buffer, broadcast there and cast back (``cast``), as the library's
b8 path.  Exact for every type (a broadcast moves values).  Without a ``shared_tmp_buffer`` the API
takes the UB above the TPipe's buffers.  Faults (with the kernel line): a buffer too small for one
pass, the buffer or ``dst`` overlapping ``src``.  Where aclsim differs: the library's counter-mode
``copy`` of a whole row in one instruction is recorded as one strided ``copy`` per 256 B of columns.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from aclsim.errors import KernelFault
from aclsim.isa import HardEvent, Space
from aclsim.kernel._core import current, fault_code, float16, float32, int8, uint8, uint16
from aclsim.kernel.conversion import RoundMode, cast
from aclsim.kernel.elementwise import duplicate, or_
from aclsim.kernel.gather import BrcbRepeatParams, CopyRepeatParams, GatherMaskParams, brcb, copy, gather_mask
from aclsim.kernel.math_api import framework_buffer
from aclsim.kernel.operands import local_operand
from aclsim.kernel.repeat import BinaryRepeatParams
from aclsim.kernel.sync import PIPE_V, pipe_barrier, set_flag, wait_flag
from aclsim.kernel.tensor import LocalTensor

BLOCK = 32
MAX_REPEAT = 255
TYPES = (int8, uint8, float16, float32)


def _shapes(dst_shape: Sequence[int], src_shape: Sequence[int], dim: int | None, what: str) -> tuple[
        list[int], list[int]]:
    d, s = [int(x) for x in dst_shape], [int(x) for x in src_shape]
    n = len(d) if dim is None else int(dim)
    if n not in (1, 2) or len(d) != n or len(s) != n:
        raise ValueError(f"{what}: dst_shape {tuple(d)} and src_shape {tuple(s)} must both have dim = 1 "
                         "or 2 axes")
    if min(d + s) <= 0 or any(b not in (1, a) for a, b in zip(d, s, strict=True)):
        raise ValueError(f"{what}: src_shape {tuple(s)} does not broadcast to dst_shape {tuple(d)} "
                         "(each axis of src equal to dst's or 1)")
    return d, s


def broadcast(dst: LocalTensor, src: LocalTensor, dst_shape: Sequence[int], src_shape: Sequence[int],
              shared_tmp_buffer: LocalTensor | None = None, *, dim: int | None = None,
              axis: int | None = None, is_reuse_source: bool = False) -> None:
    """``Broadcast<T, dim, axis>(dst, src, dstShape, srcShape[, sharedTmpBuffer])``: ``src`` broadcast
    to ``dst_shape`` (1 or 2 axes; int8, uint8, half, float)."""
    core = current()
    name = "broadcast"
    local_operand(core, dst, name, "dst")
    local_operand(core, src, name, "src")
    if dst.dtype != src.dtype or dst.dtype not in TYPES:
        raise TypeError(f"{name}: dst and src must share one dtype of int8, uint8, half, float, "
                        f"got {dst.dtype}, {src.dtype}")
    d, s = _shapes(dst_shape, src_shape, dim, name)
    dst_size, src_size = int(np.prod(d)), int(np.prod(s))
    if axis is None:
        axis = next((i for i, (a, b) in enumerate(zip(d, s, strict=True)) if a != b), len(d) - 1)
    if int(axis) not in range(len(d)):
        raise ValueError(f"{name}: axis {axis} must be 0 or 1 (dim {len(d)})")
    isz = dst.dtype.itemsize
    if _overlap(dst, dst_size * isz, src, src_size * isz):
        core.fault(KernelFault, f"{name}: dst UB[{dst.offset}:{dst.offset + dst_size * isz}] overlaps src "
                   f"UB[{src.offset}:{src.offset + src_size * isz}]",
                   hint="the documentation forbids it", code=fault_code(Space.UB))
    if len(d) == 2 and src_size not in (1, dst_size) and axis == 0 and (d[1] * isz) % BLOCK:
        raise ValueError(f"{name}: broadcasting axis 0 needs dst_shape[1] ({d[1]} x {isz} B) a multiple "
                         "of 32 B")
    if shared_tmp_buffer is not None:
        local_operand(core, shared_tmp_buffer, name, "shared_tmp_buffer")
        tmp = shared_tmp_buffer.reinterpret_cast(uint8)
        for what, t, nb in (("src", src, src_size * isz), ("dst", dst, dst_size * isz)):
            if _overlap(tmp, tmp.size, t, nb):
                core.fault(KernelFault, f"{name}: shared_tmp_buffer UB[{tmp.offset}:{tmp.offset + tmp.size}] "
                           f"overlaps {what} UB[{t.offset}:{t.offset + nb}]",
                           hint="give the temporary buffer its own UB", code=fault_code(Space.UB))
    else:
        tmp = framework_buffer(core)
    _Broadcast(name, d, s, int(axis), tmp).run(dst, src, dst_size, src_size)


#: ``BroadCast``, the older spelling of ``Broadcast`` (the same function).
broad_cast = broadcast


def _overlap(a: LocalTensor, a_bytes: int, b: LocalTensor, b_bytes: int) -> bool:
    return a.offset < b.offset + b_bytes and b.offset < a.offset + a_bytes


class _Broadcast:
    """One call's plan: the shapes, the axis, the temporary buffer (bytes)."""

    def __init__(self, name: str, d: list[int], s: list[int], axis: int, tmp: LocalTensor) -> None:
        self.name, self.d, self.s, self.axis, self.tmp = name, d, s, axis, tmp

    def run(self, dst: LocalTensor, src: LocalTensor, dst_size: int, src_size: int) -> None:
        tmp = self.tmp
        if dst.dtype.itemsize == 1 and src_size != dst_size and src_size != 1:  # b8: through half
            a_src, a_dst = _a16(src_size) * 2, _a16(dst_size) * 2
            if tmp.size < a_src + a_dst:
                self._too_small()
            hs = tmp[0:a_src].reinterpret_cast(float16)
            hd = tmp[a_src : a_src + a_dst].reinterpret_cast(float16)
            self.tmp = tmp[a_src + a_dst :]
            cast(hs, src, RoundMode.CAST_NONE, src_size)
            pipe_barrier(PIPE_V)
            self._body(hd, hs, dst_size, src_size)
            cast(dst, hd, RoundMode.CAST_NONE, dst_size)
            pipe_barrier(PIPE_V)
            return
        self._body(dst, src, dst_size, src_size)

    def _too_small(self) -> None:
        current().fault(KernelFault, f"{self.name}: the temporary buffer ({self.tmp.size} B) is too small "
                        "for one pass",
                        hint="give it at least the min_value of get_broad_cast_max_min_tmp_size",
                        code=fault_code(Space.UB))

    def _body(self, dst: LocalTensor, src: LocalTensor, dst_size: int, src_size: int) -> None:
        if src_size == dst_size:
            _copy_run(dst, src, dst_size)
            pipe_barrier(PIPE_V)
        elif src_size == 1:  # the scalar read between the pipe's fetched V -> S and S -> V events
            pipe = current().pipe
            eid = pipe.fetch_event_id(HardEvent.V_S) if pipe is not None else 0
            set_flag(HardEvent.V_S, eid)
            wait_flag(HardEvent.V_S, eid)
            value = src.get_value(0)
            eid = pipe.fetch_event_id(HardEvent.S_V) if pipe is not None else 0
            set_flag(HardEvent.S_V, eid)
            wait_flag(HardEvent.S_V, eid)
            duplicate(dst, value, dst_size)
            pipe_barrier(PIPE_V)
        elif self.axis == 1:
            self._last_axis(dst, src)
        else:
            self._first_axis(dst, src)

    def _first_axis(self, dst: LocalTensor, src: LocalTensor) -> None:
        """``[1, k] -> [m, k]``: ``or`` of the source row with a zero block, 8 rows an instruction."""
        m, k = self.d
        isz = dst.dtype.itemsize
        if self.tmp.size < BLOCK:
            self._too_small()
        zero = self.tmp[0:BLOCK].reinterpret_cast(uint16)
        duplicate(zero, 0, BLOCK // 2)
        pipe_barrier(PIPE_V)
        row_blocks = k * isz // BLOCK
        if row_blocks > MAX_REPEAT:  # the library's long-row loop: row by row
            for r in range(m):
                _copy_run(dst[r * k :], src, k)
            pipe_barrier(PIPE_V)
            return
        d16, s16 = dst.reinterpret_cast(uint16), src.reinterpret_cast(uint16)
        per_row = k * isz // 2
        for r0 in range(0, m, 8):
            rows = min(8, m - r0)
            or_(d16[r0 * per_row :], s16, zero, rows * 16, row_blocks,
                BinaryRepeatParams(row_blocks, 0, 0, 1, 1, 0))
        pipe_barrier(PIPE_V)

    def _last_axis(self, dst: LocalTensor, src: LocalTensor) -> None:
        """``[m, 1] -> [m, k]``: ``brcb`` a block per row, ``copy`` it along the row (``gather_mask``
        to pack rows whose length is not 32 B aligned), in passes of rows the buffer holds."""
        m, k = self.d
        dt = dst.dtype
        blk = BLOCK // dt.itemsize
        aligned = k % blk == 0
        k_a = -(-k // blk) * blk
        elems = self.tmp.size // dt.itemsize
        unit = blk * blk + (0 if aligned else blk * k_a)
        rows_per_pass = elems // unit * blk
        if rows_per_pass <= 0:
            self._too_small()
        work = self.tmp.reinterpret_cast(dt)
        for r0 in range(0, m, rows_per_pass):
            rows = min(rows_per_pass, m - r0)
            blocks = work[0 : -(-rows // 8) * 8 * blk]
            max_rep = 255 if dt.itemsize == 4 else 254
            for g in range(0, -(-rows // 8), max_rep):
                brcb(blocks[g * 8 * blk :], src[r0 + g * 8 :], min(max_rep, -(-rows // 8) - g),
                     BrcbRepeatParams(1, 8))
            pipe_barrier(PIPE_V)
            target = dst[r0 * k :] if aligned else work[rows_per_pass * blk :]
            _spread(target, blocks, rows, k, k_a // blk)
            if not aligned:
                gather_mask(dst[r0 * k :], target, 7, True, k, GatherMaskParams(1, rows, k_a // blk, 0))
                pipe_barrier(PIPE_V)


def _a16(n: int) -> int:
    return -(-n // 16) * 16


def _spread(target: LocalTensor, blocks: LocalTensor, rows: int, k: int, pitch_blocks: int) -> None:
    """Row ``r`` of ``target`` (``pitch_blocks`` blocks apart) = row ``r``'s block of ``blocks`` repeated
    over ``k`` elements: one strided ``copy`` per 256 B of columns and 255 rows."""
    per_rep = 256 // target.dtype.itemsize
    blk = BLOCK // target.dtype.itemsize
    for r0 in range(0, rows, MAX_REPEAT):
        n = min(MAX_REPEAT, rows - r0)
        for c in range(0, k, per_rep):
            copy(target[r0 * pitch_blocks * blk + c :], blocks[r0 * blk :], min(per_rep, k - c), n,
                 CopyRepeatParams(1, 0, pitch_blocks, 1))
            pipe_barrier(PIPE_V)  # the recorded spans of two column chunks (all their rows) overlap


def _copy_run(dst: LocalTensor, src: LocalTensor, n: int) -> None:
    """``dst[:n] = src[:n]`` with ``copy``: whole 256 B repeats, then the tail's lanes."""
    per_rep = 256 // dst.dtype.itemsize
    full = n // per_rep
    for r0 in range(0, full, MAX_REPEAT):
        reps = min(MAX_REPEAT, full - r0)
        copy(dst[r0 * per_rep :], src[r0 * per_rep :], per_rep, reps, CopyRepeatParams(1, 1, 8, 8))
    if n % per_rep:
        copy(dst[full * per_rep :], src[full * per_rep :], n % per_rep, 1, CopyRepeatParams(1, 1, 8, 8))


def get_broad_cast_max_min_tmp_size(src_shape: Sequence[int], dst_shape: Sequence[int], type_size: int,
                                    is_reuse_source: bool = False) -> tuple[int, int]:
    """``GetBroadCastMaxMinTmpSize(platform, srcShape, dstShape, typeSize, isReuseSource, maxValue,
    minValue)`` (the 910B's figures): ``(max_value, min_value)`` bytes of temporary buffer (the maximum
    raised to the minimum where the library's formula gives less: rows fewer than a block holds)."""
    what = "GetBroadCastMaxMinTmpSize"
    d, s = _shapes(dst_shape, src_shape, None, what)
    if type_size not in (1, 2, 4):
        raise ValueError(f"{what}: type_size {type_size}: it takes 1, 2 or 4")
    src_size, dst_size = int(np.prod(s)), int(np.prod(d))
    cast_tmp = (_a16(src_size) + _a16(dst_size)) * 2 if type_size == 1 else 0
    tsz = 2 if type_size == 1 else type_size
    if src_size in (1, dst_size):
        return (0, 0) if type_size != 1 else (cast_tmp + BLOCK, cast_tmp + BLOCK)
    if len(d) == 1 or s[1] != 1:  # axis 0
        if (d[1] * tsz) % BLOCK:
            raise ValueError(f"{what}: dst_shape[1] {d[1]} is not 32 B aligned")
        return BLOCK + cast_tmp, BLOCK + cast_tmp
    blk = BLOCK // tsz
    m, k = d
    brcb_min, brcb_max = blk * blk * tsz, -(-m // 8) * 8 * blk * tsz
    if k % blk == 0:
        hi, lo = brcb_max, brcb_min
    else:
        k_a = -(-k // blk) * blk
        hi, lo = brcb_max + m * k_a * tsz, brcb_min + blk * k_a * tsz
    # (the library's maximum is below its minimum when m < 32 B / sizeof(T): a kernel given it fails
    # the library's own check; aclsim returns at least the minimum)
    return max(hi, lo) + cast_tmp, lo + cast_tmp


__all__ = ["broad_cast", "broadcast", "get_broad_cast_max_min_tmp_size"]
