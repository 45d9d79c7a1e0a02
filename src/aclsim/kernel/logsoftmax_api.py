"""The high-level LogSoftMax API: ``LogSoftMax`` and its host tiling (``LogSoftMaxTilingFunc``,
``GetLogSoftMaxMaxTmpSize`` / ``GetLogSoftMaxMinTmpSize``).

``log_soft_max(dst, sum, max, src, shared_tmp_buffer, tiling[, shape_info])`` treats ``src`` as
``[m, k]`` rows (``k * sizeof(T)`` a multiple of 32 B) and computes, per row, in float32::

    max = rowmax(x); y = exp(x - max); sum = rowsum(y); dst = log10(y / sum)

The logarithm is base 10, as the API reference documents it (its formula, its Python model
``np.log10(dst)`` and its example output: a row whose softmax is ``1/1.0067834`` gives
``-0.00293603``): ``Ln`` then ``Muls`` by 0.4342944819, the library's constant.  ``dst``, ``sum``
and ``max`` are of the source's type ``T`` (half or float); ``sum``/``max`` are ``[m, 32 B /
sizeof(T)]`` blocks, every element of row ``r``'s block holding row ``r``'s value.

With ``shape_info.ori_src_k`` (``oriSrcK``) less than ``src_k``, the max and the sum reduce the first
``ori_src_k`` columns of each row only; the padded columns still go through the subtraction, the
exponential, the division and the logarithm (the reference: "the padded data takes part in part
of the computation").

Splits and work buffer: as the library does, the kernel derives its row splits from the size of
``shared_tmp_buffer`` (as many rows per split as the buffer holds, a multiple of 8 when not all of
them, at most 255: one vector repeat per row), not from ``tiling``: a default-constructed
``LogSoftMaxTiling`` is legal (the API's own example passes one).  The buffer layout is
``soft_max``'s (a float32 copy of the rows, their 64-lane partials, the broadcast max/sum blocks
and the reduced values), so ``get_log_soft_max_min_tmp_size`` / ``_max_tmp_size`` give aclsim's
layout: CANN's ``m * (k + 32 B / sizeof(T) + 64)`` floats differs by the block term.  The
instructions are ``soft_max``'s (all on PIPE_V, a ``pipe_barrier(PIPE_V)`` between dependent
steps) with ``ln`` and ``muls`` over the rows before the result goes out.

The shape: ``shape_info``'s ``src_m``/``src_k`` when both are set, else the tiling's (the library
reads the source tensor's ShapeInfo there, which aclsim's tensors do not carry: pass a
``SoftMaxShapeInfo`` or a filled tiling).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from aclsim.errors import FeatureNotSupportedError
from aclsim.kernel._core import current, float16, float32
from aclsim.kernel.conversion import RoundMode, cast
from aclsim.kernel.copy import data_copy
from aclsim.kernel.elementwise import add, div, exp, ln, max, muls, sub  # noqa: A004
from aclsim.kernel.gather import CopyRepeatParams, copy
from aclsim.kernel.operands import local_operand
from aclsim.kernel.reduction import ReduceOrder, whole_reduce_max, whole_reduce_sum
from aclsim.kernel.repeat import BinaryRepeatParams
from aclsim.kernel.softmax_api import (
    BLOCK,
    F32,
    LANES,
    SoftMaxShapeInfo,
    SoftMaxTiling,
    _mk,
    _need_floats,
    _SoftMax,
    by_row,
)
from aclsim.kernel.sync import PIPE_V, pipe_barrier
from aclsim.kernel.tensor import LocalTensor

#: log10(e): the library's ``Muls`` factor after ``Ln`` (SCALAR_NATURE_LOG_10)
LOG10_E = 0.4342944819
#: rows per split at most: one vector repeat per row
MAX_SPLIT_ROWS = 255


@dataclass
class LogSoftMaxTiling(SoftMaxTiling):
    """``LogSoftMaxTiling`` (snake_case fields): the fields of ``SoftMaxTiling``, filled by
    ``log_soft_max_tiling_func``.  ``log_soft_max`` takes its splits from the work buffer's size
    (as the library does) and reads the shape from here only when no ``SoftMaxShapeInfo`` gives it."""


def _split_rows(floats: int, m: int, k: int, data_type_size: int) -> int:
    """Rows per split that ``floats`` work floats hold (0: not even one row)."""
    per = k + LANES + BLOCK // data_type_size + 1  # _need_floats per row, less the 8-row rounding
    base = min(m, MAX_SPLIT_ROWS, floats // per)
    while base > 0 and _need_floats(base, k, data_type_size) > floats:
        base -= 1
    if 8 < base < m:
        base = base // 8 * 8
    return base


def get_log_soft_max_max_tmp_size(
    src_shape: Sequence[int], data_type_size: int, is_reuse_source: bool = False
) -> int:
    """``GetLogSoftMaxMaxTmpSize``: bytes of work buffer for all rows in one split (the fastest)."""
    m, k = _mk(src_shape, data_type_size, "GetLogSoftMaxMaxTmpSize")
    return _need_floats(min(m, MAX_SPLIT_ROWS), k, data_type_size) * F32


def get_log_soft_max_min_tmp_size(
    src_shape: Sequence[int], data_type_size: int, is_reuse_source: bool = False
) -> int:
    """``GetLogSoftMaxMinTmpSize``: bytes of work buffer for one row per split (the least that works)."""
    _, k = _mk(src_shape, data_type_size, "GetLogSoftMaxMinTmpSize")
    return _need_floats(1, k, data_type_size) * F32


def log_soft_max_tiling_func(
    src_shape: Sequence[int], data_type_size: int, local_work_space_size: int,
    softmax_tiling: LogSoftMaxTiling,
) -> None:
    """``LogSoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, softmaxTiling)``: the shape,
    the max/sum block shape and the splits a work buffer of ``local_work_space_size`` bytes gives."""
    m, k = _mk(src_shape, data_type_size, "LogSoftMaxTilingFunc")
    base = _split_rows(int(local_work_space_size) // F32, m, k, data_type_size)
    if base == 0:
        raise ValueError(
            f"LogSoftMaxTilingFunc: local_work_space_size {local_work_space_size} B is less than the "
            f"{get_log_soft_max_min_tmp_size(src_shape, data_type_size)} B GetLogSoftMaxMinTmpSize asks for"
        )
    blk = BLOCK // data_type_size
    tail = m % base
    fields = dict(
        src_m=m, src_k=k, src_size=m * k,
        out_max_m=m, out_max_k=blk, out_max_size=m * blk,
        split_m=base, split_k=k, split_size=base * k,
        reduce_m=base, reduce_k=blk, reduce_size=base * blk,
        range_m=m // base, tail_m=tail, tail_split_size=tail * k, tail_reduce_size=tail * blk,
    )  # fmt: skip
    for name, value in fields.items():
        setattr(softmax_tiling, name, value)


def log_soft_max(
    dst: LocalTensor,
    sum_tensor: LocalTensor,
    max_tensor: LocalTensor,
    src: LocalTensor,
    shared_tmp_buffer: LocalTensor,
    tiling: LogSoftMaxTiling,
    softmax_shape_info: SoftMaxShapeInfo | None = None,
    *,
    is_reuse_source: bool = False,
    is_data_format_nz: bool = False,
) -> None:
    """``LogSoftMax<T, isReuseSource, isDataFormatNZ>(dst, sum, max, src, sharedTmpBuffer, tiling[,
    softmaxShapeInfo])``: ``dst = log10(softmax(src))`` by row, with the row sums and maxima.

    All four tensors of one type ``T`` (half or float), none overlapping another or the work buffer
    (a UB tensor of at least ``get_log_soft_max_min_tmp_size`` bytes).  ``is_reuse_source`` is
    reserved (no effect); NZ sources are not modelled."""
    if is_data_format_nz:
        raise FeatureNotSupportedError(
            "log_soft_max on NZ data (isDataFormatNZ) is not modelled: pass ND rows"
        )
    if not isinstance(tiling, LogSoftMaxTiling):
        raise TypeError(f"log_soft_max needs a LogSoftMaxTiling (log_soft_max_tiling_func fills one; a "
                        f"default one works with a SoftMaxShapeInfo), got {type(tiling).__name__}")
    if softmax_shape_info is not None and not isinstance(softmax_shape_info, SoftMaxShapeInfo):
        raise TypeError(f"log_soft_max: softmax_shape_info must be a SoftMaxShapeInfo, "
                        f"got {type(softmax_shape_info).__name__}")
    _LogSoftMax(dst, sum_tensor, max_tensor, src, shared_tmp_buffer, tiling, softmax_shape_info).run()


class _LogSoftMax(_SoftMax):
    """One ``log_soft_max`` call: operands checked, then ``soft_max``'s splits with the logarithm."""

    def __init__(
        self,
        dst: LocalTensor,
        sum_t: LocalTensor,
        max_t: LocalTensor,
        src: LocalTensor,
        tmp: LocalTensor,
        tiling: LogSoftMaxTiling,
        shape: SoftMaxShapeInfo | None,
    ) -> None:
        core = current()
        name = "log_soft_max"
        ops = (("dst", dst), ("sum", sum_t), ("max", max_t), ("src", src), ("shared_tmp_buffer", tmp))
        for what, t in ops:
            local_operand(core, t, name, what)
        if src.dtype not in (float16, float32):
            raise TypeError(f"log_soft_max: T must be half or float, src is {src.dtype}")
        for what, t in ops[:3]:
            if t.dtype != src.dtype:
                raise TypeError(f"log_soft_max: {what} is {t.dtype}; dst, sum and max must be of src's type "
                                f"{src.dtype}")
        m, k, ori_k = self._shape(tiling, shape, src.dtype.itemsize)
        isz = src.dtype.itemsize
        self.blk = BLOCK // isz
        for what, t, need in (("src", src, m * k), ("dst", dst, m * k), ("sum", sum_t, m * self.blk),
                              ("max", max_t, m * self.blk)):
            if t.size < need:
                raise ValueError(f"log_soft_max: {what} holds {t.size} elements; [{m}, {k}] rows need {need}")
        self.base = _split_rows(tmp.size * tmp.dtype.itemsize // F32, m, k, isz)
        if self.base == 0:
            raise ValueError(
                f"log_soft_max: the shared_tmp_buffer holds {tmp.size * tmp.dtype.itemsize} B, one row of "
                f"[{m}, {k}] needs {_need_floats(1, k, isz) * F32} B (get_log_soft_max_min_tmp_size)"
            )
        rows_bytes, blocks_bytes = m * k * isz, m * BLOCK
        _disjoint([("dst", dst.offset, rows_bytes), ("sum", sum_t.offset, blocks_bytes),
                   ("max", max_t.offset, blocks_bytes), ("src", src.offset, rows_bytes),
                   ("shared_tmp_buffer", tmp.offset, _need_floats(self.base, k, isz) * F32)])
        self.m, self.k, self.ori_k = m, k, ori_k
        self.dst, self.sum_t, self.max_t, self.src = dst, sum_t, max_t, src
        self.work = tmp.reinterpret_cast(float32)

    @staticmethod
    def _shape(tiling: LogSoftMaxTiling, shape: SoftMaxShapeInfo | None, isz: int) -> tuple[int, int, int]:
        """``[m, k]`` and the columns the reductions cover."""
        if shape is not None and shape.src_m and shape.src_k:
            m, k = shape.src_m, shape.src_k
            ori_k = shape.ori_src_k or k
        elif tiling.src_m and tiling.src_k:
            m, k, ori_k = tiling.src_m, tiling.src_k, tiling.src_k
        else:
            raise ValueError(
                "log_soft_max: no shape: aclsim's tensors carry no ShapeInfo, so pass a SoftMaxShapeInfo "
                "(src_m, src_k, ori_src_m, ori_src_k) or a tiling filled by log_soft_max_tiling_func"
            )
        if (k * isz) % BLOCK:
            raise ValueError(f"log_soft_max: the last axis ({k} x {isz} B) must be a multiple of 32 B")
        if not 0 < ori_k <= k:
            raise ValueError(f"log_soft_max: ori_src_k {ori_k} must be in 1..src_k ({k})")
        return m, k, ori_k

    def _split(self, r0: int, rows: int) -> None:
        k, w = self.k, self.work
        x = w[0 : rows * k]
        red = w[rows * k : rows * (k + LANES)]
        r8 = -(-rows // 8) * 8
        bc = w[rows * (k + LANES) : rows * (k + LANES) + r8 * self.blk]
        vals = w[rows * (k + LANES) + r8 * self.blk : rows * (k + LANES) + r8 * (self.blk + 1)]
        src = self.src[r0 * k : (r0 + rows) * k]
        if src.dtype == float16:
            cast(x, src, RoundMode.CAST_NONE, rows * k)
        else:
            data_copy(x, src, rows * k)
        pipe_barrier(PIPE_V)
        other_rep = self.blk * F32 // BLOCK
        for fold, reduce, out in ((max, whole_reduce_max, self.max_t), (add, whole_reduce_sum, self.sum_t)):
            reduce_columns(x, red, vals, rows, k, self.ori_k, fold, reduce)
            self._broadcast(bc, vals, rows)
            self._out(out, bc, r0, rows)
            by_row(sub if fold is max else div, x, bc, rows, k, other_rep)
            if fold is max:
                exp(x, x, rows * k)
                pipe_barrier(PIPE_V)
        ln(x, x, rows * k)
        pipe_barrier(PIPE_V)
        muls(x, x, LOG10_E, rows * k)
        pipe_barrier(PIPE_V)
        dst = self.dst[r0 * k : (r0 + rows) * k]
        if dst.dtype == float16:
            cast(dst, x, RoundMode.CAST_NONE, rows * k)
        else:
            data_copy(dst, x, rows * k)
        pipe_barrier(PIPE_V)


def _disjoint(spans: Sequence[tuple[str, int, int]]) -> None:
    """The documented constraint: no two operands share a byte of what the call reads or writes
    (``(name, UB offset, bytes used)`` each; a tensor running on to the end of its buffer, as
    ``operator[]`` makes one, is fine as long as the parts used are apart)."""
    for i, (a, a0, an) in enumerate(spans):
        for b, b0, bn in spans[i + 1 :]:
            if a0 < b0 + bn and b0 < a0 + an:
                raise ValueError(
                    f"log_soft_max: {a} (UB bytes {a0}..{a0 + an}) and {b} (UB bytes {b0}..{b0 + bn}) "
                    "overlap; LogSoftMax takes separate dst, sum, max, src and shared_tmp_buffer"
                )


def reduce_columns(
    x: LocalTensor, red: LocalTensor, vals: LocalTensor, rows: int, k: int, cols: int, fold: Any, reduce: Any
) -> None:
    """``vals[r]`` = the reduction of the first ``cols`` columns of row ``r`` of the float rows ``x``
    (``k`` each): ``softmax_api.row_reduce`` over a prefix of each row (64-lane partials in ``red``
    folded with ``fold`` over the row's chunks, then ``reduce`` of each row's lanes)."""
    rep = k * F32 // BLOCK  # a row of x, in blocks
    lanes_rep = LANES * F32 // BLOCK  # a row of red, in blocks
    order = (ReduceOrder.ORDER_ONLY_VALUE,) if reduce is whole_reduce_max else ()
    if cols <= LANES:
        reduce(vals, x, cols, rows, 1, 1, rep, *order)
        pipe_barrier(PIPE_V)
        return
    copy(red, x, LANES, rows, CopyRepeatParams(1, 1, lanes_rep, rep))
    for c in range(LANES, cols, LANES):
        pipe_barrier(PIPE_V)
        params = BinaryRepeatParams(1, 1, 1, lanes_rep, lanes_rep, rep)
        fold(red, red, x[c:], min(LANES, cols - c), rows, params)
    pipe_barrier(PIPE_V)
    reduce(vals, red, LANES, rows, 1, 1, lanes_rep, *order)
    pipe_barrier(PIPE_V)
