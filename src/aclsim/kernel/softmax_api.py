"""The high-level SoftMax API: ``SoftMax`` and its host tiling (``SoftMaxTilingFunc``, ``GetSoftMax*TmpSize``)

``soft_max`` treats its source as ``[m, k]`` (the product of the leading axes by the last
one, ``k * sizeof(T)`` a multiple of 32 B) and computes, per row, in float32::

    max = rowmax(x); y = exp(x - max); sum = rowsum(y); dst = y / sum

writing ``dst`` (the source's type) and, when given, ``max`` and ``sum`` as ``[m, 32 B /
sizeof(T)]`` blocks: every element of row ``r``'s block holds row ``r``'s value (the
documented output shape).  The rows go in splits of ``split_m`` (the tiling's ``splitM``)
through a float32 work buffer, with the library's vector instructions (all on PIPE_V, a
``pipe_barrier(PIPE_V)`` between dependent steps):

``cast`` (half) or ``data_copy`` (float) into the work buffer; per row the 64-lane
partial maxima (``copy`` then ``max`` of the next 64 columns, repeated over the rows);
``whole_reduce_max`` of them; ``brcb`` to a 32 B block per row; ``sub`` with the block
broadcast (block stride 0); ``exp``; the same with ``add`` / ``whole_reduce_sum`` for the
sums; ``div``; ``cast``/``data_copy`` out.

Work buffer (float32): per row ``k + 64`` elements, and per row (rounded up to 8 rows) a
block of ``32 B / sizeof(max type)`` and one reduced value: ``get_soft_max_min_tmp_size`` (one row) and
``get_soft_max_max_tmp_size`` (all rows).  This is aclsim's buffer layout; CANN's formula
differs by the last term.  Without a ``shared_tmp_buffer`` the API takes the UB above the
TPipe's buffers, as the library's framework-allocated form does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from aclsim.errors import FeatureNotSupportedError
from aclsim.isa import Space
from aclsim.kernel._core import current, float16, float32
from aclsim.kernel.conversion import RoundMode, cast
from aclsim.kernel.copy import data_copy
from aclsim.kernel.elementwise import add, div, exp, max, sub  # noqa: A004
from aclsim.kernel.gather import BrcbRepeatParams, CopyRepeatParams, brcb, copy
from aclsim.kernel.operands import local_operand
from aclsim.kernel.placed import local_tensor
from aclsim.kernel.reduction import ReduceOrder, whole_reduce_max, whole_reduce_sum
from aclsim.kernel.repeat import BinaryRepeatParams
from aclsim.kernel.sync import PIPE_V, pipe_barrier
from aclsim.kernel.tensor import LocalTensor, TPosition

BLOCK = 32
LANES = 64  # float32 lanes of one 256 B repeat
F32 = 4


def _mk(shape: Sequence[int], data_type_size: int, what: str) -> tuple[int, int]:
    dims = [int(d) for d in shape]
    if not dims or min(dims) <= 0:
        raise ValueError(f"{what}: shape {tuple(dims)} must have positive dimensions")
    if data_type_size not in (2, 4):
        raise ValueError(f"{what}: data_type_size {data_type_size}: SoftMax takes half (2) or float (4)")
    k = dims[-1]
    if (k * data_type_size) % BLOCK:
        raise ValueError(f"{what}: the last axis ({k} x {data_type_size} B) must be a multiple of 32 B")
    m = 1
    for d in dims[:-1]:
        m *= d
    return m, k


def _need_floats(rows: int, k: int, data_type_size: int) -> int:
    """Work floats for ``rows`` rows: the rows, their 64-lane partials, then for the rows rounded up
    to 8 (``brcb`` fills 8 rows per repeat) a 32 B block of max/sum each and the reduced value."""
    return rows * (k + LANES) + -(-rows // 8) * 8 * (BLOCK // data_type_size + 1)


def get_soft_max_max_tmp_size(
    src_shape: Sequence[int], data_type_size: int, is_reuse_source: bool = False
) -> int:
    """``GetSoftMaxMaxTmpSize``: bytes of work buffer for all rows at once (the fastest)."""
    m, k = _mk(src_shape, data_type_size, "GetSoftMaxMaxTmpSize")
    return _need_floats(m, k, data_type_size) * F32


def get_soft_max_min_tmp_size(
    src_shape: Sequence[int], data_type_size: int, is_reuse_source: bool = False
) -> int:
    """``GetSoftMaxMinTmpSize``: bytes of work buffer for one row at a time (the least that works)."""
    _, k = _mk(src_shape, data_type_size, "GetSoftMaxMinTmpSize")
    return _need_floats(1, k, data_type_size) * F32


@dataclass
class SoftMaxTiling:
    """``SoftMaxTiling`` (snake_case fields): the source ``[src_m, src_k]``; the max/sum outputs
    ``[out_max_m, out_max_k]``; splits of ``split_m`` rows (``range_m`` of them, then ``tail_m``
    rows), their sizes in elements and their reduce outputs ``[reduce_m, reduce_k]``."""

    src_m: int = 0
    src_k: int = 0
    src_size: int = 0
    out_max_m: int = 0
    out_max_k: int = 0
    out_max_size: int = 0
    split_m: int = 0
    split_k: int = 0
    split_size: int = 0
    reduce_m: int = 0
    reduce_k: int = 0
    reduce_size: int = 0
    range_m: int = 0
    tail_m: int = 0
    tail_split_size: int = 0
    tail_reduce_size: int = 0


def soft_max_tiling_func(
    src_shape: Sequence[int], data_type_size: int, local_work_space_size: int, softmax_tiling: SoftMaxTiling
) -> None:
    """``SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, tiling)``: as many rows per split as
    ``local_work_space_size`` bytes of work buffer hold (a multiple of 8 when it is not all of them,
    at most 255: one vector repeat per row)."""
    m, k = _mk(src_shape, data_type_size, "SoftMaxTilingFunc")
    if local_work_space_size < get_soft_max_min_tmp_size(src_shape, data_type_size):
        raise ValueError(
            f"SoftMaxTilingFunc: local_work_space_size {local_work_space_size} B is less than the "
            f"{get_soft_max_min_tmp_size(src_shape, data_type_size)} B GetSoftMaxMinTmpSize asks for"
        )
    floats = int(local_work_space_size) // F32
    base = min(m, 255)
    while base > 1 and _need_floats(base, k, data_type_size) > floats:
        base -= 1
    if 8 < base < m:
        base = base // 8 * 8
    blk = BLOCK // data_type_size
    tail = m % base
    fields = dict(
        src_m=m,
        src_k=k,
        src_size=m * k,
        out_max_m=m,
        out_max_k=blk,
        out_max_size=m * blk,
        split_m=base,
        split_k=k,
        split_size=base * k,
        reduce_m=base,
        reduce_k=blk,
        reduce_size=base * blk,
        range_m=m // base,
        tail_m=tail,
        tail_split_size=tail * k,
        tail_reduce_size=tail * blk,
    )
    for name, value in fields.items():
        setattr(softmax_tiling, name, value)


@dataclass(frozen=True)
class SoftMaxShapeInfo:
    """``SoftMaxShapeInfo{srcM, srcK, oriSrcM, oriSrcK}``: the source shape the call computes."""

    src_m: int = 0
    src_k: int = 0
    ori_src_m: int = 0
    ori_src_k: int = 0


def soft_max(
    *args: Any, is_reuse_source: bool = False, is_basic_block: bool = False, is_data_format_nz: bool = False
) -> None:
    """``SoftMax(dst, sum, max, src[, sharedTmpBuffer], tiling[, shapeInfo])`` or
    ``SoftMax(dst, src[, sharedTmpBuffer], tiling[, shapeInfo])``: row softmax of ``src`` into ``dst``.

    ``dst``/``src``: half or float, the same type; ``sum``/``max``: ``[m, 32 B / sizeof]`` of
    the source's type or float; ``shared_tmp_buffer``: a UB tensor of at least
    ``get_soft_max_min_tmp_size`` bytes.  ``is_basic_block`` only selects the library's faster
    path (same results); NZ sources are not modelled."""
    if is_data_format_nz:
        raise FeatureNotSupportedError("soft_max on NZ data (isDataFormatNZ) is not modelled: pass ND rows")
    tensors = [a for a in args if isinstance(a, LocalTensor)]
    rest = [a for a in args if not isinstance(a, LocalTensor)]
    if not rest or not isinstance(rest[0], SoftMaxTiling) or len(rest) > 2:
        raise TypeError(
            "soft_max(dst, [sum, max,] src, [shared_tmp_buffer,] tiling: SoftMaxTiling[, shape_info])"
        )
    tiling = rest[0]
    shape = rest[1] if len(rest) == 2 else None
    if len(tensors) in (2, 3):
        dst, src, tmp = tensors[0], tensors[1], tensors[2] if len(tensors) == 3 else None
        sum_t = max_t = None
    elif len(tensors) in (4, 5):
        dst, sum_t, max_t, src = tensors[:4]
        tmp = tensors[4] if len(tensors) == 5 else None
    else:
        raise TypeError(f"soft_max takes 2 to 5 LocalTensors, got {len(tensors)}")
    _SoftMax(dst, sum_t, max_t, src, tmp, tiling, shape).run()


class _SoftMax:
    """One ``soft_max`` call: operands checked, then the splits of rows."""

    def __init__(
        self,
        dst: LocalTensor,
        sum_t: LocalTensor | None,
        max_t: LocalTensor | None,
        src: LocalTensor,
        tmp: LocalTensor | None,
        tiling: SoftMaxTiling,
        shape: SoftMaxShapeInfo | None,
    ) -> None:
        core = current()
        name = "soft_max"
        for what, t in (("dst", dst), ("src", src), ("sum", sum_t), ("max", max_t), ("tmp", tmp)):
            if t is not None:
                local_operand(core, t, name, what)
        if src.dtype not in (float16, float32) or dst.dtype != src.dtype:
            raise TypeError(
                f"soft_max: src and dst must be both half or both float, got {src.dtype}, {dst.dtype}"
            )
        for what, t in (("sum", sum_t), ("max", max_t)):
            if t is not None and t.dtype not in (src.dtype, float32):
                raise TypeError(f"soft_max: {what} must be {src.dtype} or float, got {t.dtype}")
        m = shape.src_m if shape is not None and shape.src_m else tiling.src_m
        k = shape.src_k if shape is not None and shape.src_k else tiling.src_k
        if m != tiling.src_m or k != tiling.src_k or tiling.split_m <= 0:
            raise ValueError(
                f"soft_max: shape [{m}, {k}] but the tiling is for [{tiling.src_m}, {tiling.src_k}] "
                f"(split_m {tiling.split_m}): call soft_max_tiling_func for this shape"
            )
        if (k * src.dtype.itemsize) % BLOCK:
            raise ValueError(
                f"soft_max: the last axis ({k} x {src.dtype.itemsize} B) must be a multiple of 32 B"
            )
        self.m, self.k, self.base = m, k, tiling.split_m
        out_dt = (max_t if max_t is not None else sum_t if sum_t is not None else src).dtype
        self.blk = BLOCK // out_dt.itemsize  # the max/sum block of a row, in elements
        need = _need_floats(self.base, k, out_dt.itemsize)
        if tmp is None:
            tmp = self._framework_buffer(need)
        if tmp.size * tmp.dtype.itemsize < need * F32:
            raise ValueError(
                f"soft_max: the work buffer holds {tmp.size * tmp.dtype.itemsize} B, {self.base} "
                f"rows per split need {need * F32} B (soft_max_tiling_func with that size)"
            )
        self.dst, self.sum_t, self.max_t, self.src = dst, sum_t, max_t, src
        self.work = tmp.reinterpret_cast(float32)

    @staticmethod
    def _framework_buffer(floats: int) -> LocalTensor:
        """The UB above the TPipe's buffers (the framework-allocated work buffer)."""
        core = current()
        pipe = core.pipe
        start = pipe.used[Space.UB] if pipe is not None else 0
        start = -(-start // BLOCK) * BLOCK
        if start + floats * F32 > core.chip.ub_usable_bytes:
            raise ValueError(
                f"soft_max: {floats * F32} B of work buffer do not fit in the UB left above the "
                f"TPipe's buffers ({core.chip.ub_usable_bytes - start} B): pass a shared_tmp_buffer"
            )
        return local_tensor(float32, TPosition.VECCALC, start, floats)

    def run(self) -> None:
        r0 = 0
        while r0 < self.m:
            rows = min(self.base, self.m - r0)
            self._split(r0, rows)
            r0 += rows

    def _split(self, r0: int, rows: int) -> None:
        k, blk, w = self.k, self.blk, self.work
        x = w[0 : rows * k]
        red = w[rows * k : rows * (k + LANES)]
        r8 = -(-rows // 8) * 8
        bc = w[rows * (k + LANES) : rows * (k + LANES) + r8 * blk]
        vals = w[rows * (k + LANES) + r8 * blk : rows * (k + LANES) + r8 * (blk + 1)]
        src = self.src[r0 * k : (r0 + rows) * k]
        if src.dtype == float16:
            cast(x, src, RoundMode.CAST_NONE, rows * k)
        else:
            data_copy(x, src, rows * k)
        pipe_barrier(PIPE_V)
        row_reduce(x, red, vals, rows, self.k, max, whole_reduce_max)
        self._broadcast(bc, vals, rows)
        self._out(self.max_t, bc, r0, rows)
        by_row(sub, x, bc, rows, self.k, self.blk * F32 // BLOCK)
        exp(x, x, rows * k)
        pipe_barrier(PIPE_V)
        row_reduce(x, red, vals, rows, self.k, add, whole_reduce_sum)
        self._broadcast(bc, vals, rows)
        self._out(self.sum_t, bc, r0, rows)
        by_row(div, x, bc, rows, self.k, self.blk * F32 // BLOCK)
        dst = self.dst[r0 * k : (r0 + rows) * k]
        if dst.dtype == float16:
            cast(dst, x, RoundMode.CAST_NONE, rows * k)
        else:
            data_copy(dst, x, rows * k)
        pipe_barrier(PIPE_V)

    def _broadcast(self, bc: LocalTensor, vals: LocalTensor, rows: int) -> None:
        """Row ``r``'s value over its ``blk`` floats of ``bc`` (one or two 32 B blocks)."""
        per = self.blk * F32 // BLOCK  # blocks per row of bc
        for b in range(per):
            brcb(bc[b * 8 :], vals, -(-rows // 8), BrcbRepeatParams(per, 8 * per))
            pipe_barrier(PIPE_V)  # interleaved blocks: the recorded spans overlap

    def _out(self, out: LocalTensor | None, bc: LocalTensor, r0: int, rows: int) -> None:
        """The ``[rows, blk]`` block of ``max``/``sum`` (in its type)."""
        if out is None:
            return
        dst = out[r0 * self.blk : (r0 + rows) * self.blk]
        if out.dtype == float16:
            cast(dst, bc, RoundMode.CAST_NONE, rows * self.blk)
        else:
            data_copy(dst, bc, rows * self.blk)
        pipe_barrier(PIPE_V)


def simple_soft_max(
    *args: Any, is_reuse_source: bool = False, is_basic_block: bool = False, is_data_format_nz: bool = False
) -> None:
    """``SimpleSoftMax(dst, inSum, inMax, src[, sharedTmpBuffer], tiling[, shapeInfo])``: per row,
    ``dst = exp(src - max) / sum`` with ``max``/``sum`` GIVEN (``[m, 32 B / sizeof]`` blocks of the source's
    type or float, as ``soft_max`` writes them; no reduction).  The same splits, work buffer and
    instructions as ``soft_max`` less its reductions: the blocks are read (``cast``/``data_copy``) into
    the work buffer, then ``sub``, ``exp`` and ``div`` by row."""
    if is_data_format_nz:
        raise FeatureNotSupportedError(
            "simple_soft_max on NZ data (isDataFormatNZ) is not modelled: pass ND rows"
        )
    tensors = [a for a in args if isinstance(a, LocalTensor)]
    rest = [a for a in args if not isinstance(a, LocalTensor)]
    if len(tensors) not in (4, 5) or not rest or not isinstance(rest[0], SoftMaxTiling) or len(rest) > 2:
        raise TypeError(
            "simple_soft_max(dst, in_sum, in_max, src, [shared_tmp_buffer,] tiling: SoftMaxTiling"
            "[, shape_info])"
        )
    dst, sum_t, max_t, src = tensors[:4]
    tmp = tensors[4] if len(tensors) == 5 else None
    if sum_t.dtype != max_t.dtype:
        raise TypeError(
            f"simple_soft_max: in_sum and in_max must be one type, got {sum_t.dtype}, {max_t.dtype}"
        )
    _SimpleSoftMax(dst, sum_t, max_t, src, tmp, rest[0], rest[1] if len(rest) == 2 else None).run()


class _SimpleSoftMax(_SoftMax):
    """One ``simple_soft_max`` call: ``soft_max``'s checks and splits; ``sum``/``max`` are inputs."""

    def _split(self, r0: int, rows: int) -> None:
        k, w = self.k, self.work
        x = w[0 : rows * k]
        r8 = -(-rows // 8) * 8
        bc = w[rows * (k + LANES) : rows * (k + LANES) + r8 * self.blk]
        src = self.src[r0 * k : (r0 + rows) * k]
        if src.dtype == float16:
            cast(x, src, RoundMode.CAST_NONE, rows * k)
        else:
            data_copy(x, src, rows * k)
        for given, op in ((self.max_t, sub), (self.sum_t, div)):
            assert given is not None
            blocks = given[r0 * self.blk : (r0 + rows) * self.blk]
            if given.dtype == float16:
                cast(bc, blocks, RoundMode.CAST_NONE, rows * self.blk)
            else:
                data_copy(bc, blocks, rows * self.blk)
            pipe_barrier(PIPE_V)
            by_row(op, x, bc, rows, self.k, self.blk * F32 // BLOCK)
            if op is sub:
                exp(x, x, rows * k)
                pipe_barrier(PIPE_V)
        dst = self.dst[r0 * k : (r0 + rows) * k]
        if dst.dtype == float16:
            cast(dst, x, RoundMode.CAST_NONE, rows * k)
        else:
            data_copy(dst, x, rows * k)
        pipe_barrier(PIPE_V)


def row_reduce(
    x: LocalTensor,
    red: LocalTensor,
    vals: LocalTensor,
    rows: int,
    k: int,
    fold: Any,
    reduce: Any,
    also: LocalTensor | None = None,
) -> None:
    """``vals[r]`` = the reduction of row ``r`` of the float rows ``x`` (``k`` each): 64-lane partials
    in ``red`` (``rows x 64``) folded over the row's chunks with ``fold`` (``max``/``add``, one repeat
    per row), then ``reduce`` (``whole_reduce_max``/``whole_reduce_sum``) of each row's lanes into
    ``vals`` and, when given, into ``also`` too (a destination that need only be element-aligned)."""
    rep = k * F32 // BLOCK  # a row of x, in blocks
    lanes_rep = LANES * F32 // BLOCK  # a row of red, in blocks
    order = (ReduceOrder.ORDER_ONLY_VALUE,) if reduce is whole_reduce_max else ()
    if k <= LANES:
        for dst in (vals,) if also is None else (vals, also):
            reduce(dst, x, k, rows, 1, 1, rep, *order)
        pipe_barrier(PIPE_V)
        return
    copy(red, x, LANES, rows, CopyRepeatParams(1, 1, lanes_rep, rep))
    for c in range(LANES, k, LANES):
        pipe_barrier(PIPE_V)
        fold(red, red, x[c:], min(LANES, k - c), rows, BinaryRepeatParams(1, 1, 1, lanes_rep, lanes_rep, rep))
    pipe_barrier(PIPE_V)
    for dst in (vals,) if also is None else (vals, also):
        reduce(dst, red, LANES, rows, 1, 1, lanes_rep, *order)
    pipe_barrier(PIPE_V)


def by_row(
    op: Any, x: LocalTensor, other: LocalTensor, rows: int, k: int, other_rep: int, other_blk: int = 0
) -> None:
    """``x[r, :] = op(x[r, :], other)`` for the float rows ``x`` (``k`` each), one repeat per row:
    ``other`` advances ``other_rep`` blocks per row and ``other_blk`` per block (0: a row's
    value broadcast from one block; ``other_rep`` 0 and ``other_blk`` 1: one vector for all rows)."""
    rep = k * F32 // BLOCK
    for c in range(0, k, LANES):
        src1 = other[c:] if other_blk else other
        op(
            x[c:],
            x[c:],
            src1,
            min(LANES, k - c),
            rows,
            BinaryRepeatParams(1, 1, other_blk, rep, rep, other_rep),
        )
        pipe_barrier(PIPE_V)  # the recorded ranges of two column chunks (spans of all rows) overlap
