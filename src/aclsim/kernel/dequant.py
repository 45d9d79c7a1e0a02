"""``AscendDequant``: int32 -> half / float / bfloat16 dequantisation by a per-column vector or a scalar
scale (the high-level API of the 量化操作 family), with ``DequantParams``, ``DeQuantMode`` and the host
functions ``GetAscendDequantMaxMinTmpSize`` / ``GetAscendDequantTmpBufferFactorSize``.

What it computes (the AscendDequant page; its 实现原理 section and its example).  ``src`` is an
``[m, n]`` int32 matrix (``n`` a multiple of 8: rows 32 B aligned); ``dst`` has the same rows,
each padded to ``n_dst`` = ``n`` rounded up to 32 B of ``dstT``.  For every element, in float:
``x = float(src[r, c])`` (int32 -> float rounds to nearest even); the first ``calCount`` columns
of each row are multiplied by the float scale of their column (``deqScale[c]``, or the scalar);
the result is converted to ``dstT``: float through ``Adds(x, 0)`` (so a -0.0 product becomes
+0.0, as on the device), bfloat16 with CAST_RINT, half with CAST_NONE (both round to nearest
even).  Columns ``calCount .. n - 1`` therefore hold the converted source values (the page:
"undefined"; the library converts them unscaled, as its example shows); the padding columns
``n .. n_dst - 1`` are not written.  Scales: a uint64 vector gives its low 32 bits as a float
(the high bits are control bits the API ignores), bfloat16 converts exactly, float as is.

Forms (each with or without ``shared_tmp_buffer`` after the scale):
``ascend_dequant(dst, src, deq_scale, [tmp,] DequantParams(m, n, cal_count))`` (or the tuple
``(m, n, cal_count)``, as kernels write ``{m, n, calCount}``), ``deq_scale`` a LocalTensor or a
scalar (a Python float is a float; pass ``np.float32`` / a ``bfloat16`` value to choose); and the
older forms ``ascend_dequant(dst, src, deq_scale, [tmp,] [cal_count])`` with a scale tensor:
``src`` seen as ``[src.size / deq_scale.size, deq_scale.size]``, every column scaled, the first
``cal_count`` (default: all) elements of ``src`` processed.  ``mode``
(``DeQuantMode.DEQUANT_WITH_SINGLE_ROW``, the default) turns ``{1, n, calCount}`` into ``{n /
calCount, calCount, calCount}`` when ``calCount`` is a multiple of 32 B of ``dstT`` and divides
``n``, as the page says; ``DEQUANT_WITH_MULTI_ROW`` keeps it.

Types (the page's tables): scale tensor: half <- uint64, float <- float, and on Atlas A2/A3 also
float <- bfloat16, bfloat16 <- bfloat16, bfloat16 <- float; scalar: float <- float, and on
Atlas A2/A3 bfloat16 <- bfloat16, float <- bfloat16, bfloat16 <- float.  The 310P (arch 2002)
takes the half / float rows only.  The page's constraints are checked: ``n`` a multiple of 8,
``0 < calCount <= n``, ``calCount`` no more than the scale tensor's elements, ``m * n`` within
``src`` and ``m * n_dst`` within ``dst``, ``src`` and ``dst`` not overlapping, the temporary
buffer clear of the operands; a fault names the line.  On a cube core of a mixed kernel the
tensor forms return at once, as the library does.

How it is recorded: as the library issues it on arch 220 and the 310P, each step a vector
instruction with the ranges it reads and writes and a ``PipeBarrier<PIPE_V>`` after it: the
scale converted to float into the front of the temporary buffer (``adds``, ``cast``,
``gather_mask`` for uint64, ``duplicate`` for a scalar); then per pass of as many whole rows as
the rest of the buffer holds (a buffer too small for one row faults, as the library asserts):
``cast`` int32 -> float into the buffer, ``mul`` by the scale, and ``cast`` (``adds`` for float)
into ``dst`` (one instruction a row when ``dst``'s rows are padded).  Without a temporary buffer
the API takes the UB above the TPipe's buffers (the library's stack buffer).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from aclsim.errors import KernelFault, LocalOutOfRangeError
from aclsim.isa import Access, Pipe, Space
from aclsim.kernel._core import (
    REPEATS,
    WIDE_REPEATS,
    Core,
    bfloat16,
    current,
    dtype_name,
    fault_code,
    float16,
    float32,
    int32,
    uint8,
    uint64,
)
from aclsim.kernel.coretype import CoreType
from aclsim.kernel.mask import RESET
from aclsim.kernel.math_api import framework_buffer
from aclsim.kernel.operands import count_view, local_operand
from aclsim.kernel.sync import PIPE_V, pipe_barrier
from aclsim.kernel.tensor import LocalTensor

_F32_BLOCK = 8  # floats in 32 B
_F32_REPEAT = 64  # floats in 256 B
_NAME = "ascend_dequant"

#: (dst, scale) pairs of the tensor form; the 310P (arch 2002) takes the first two only.
_TENSOR_PAIRS = ((float16, uint64), (float32, float32), (float32, bfloat16), (bfloat16, bfloat16),
                 (bfloat16, float32))
#: (dst, scale) pairs of the scalar form; the 310P takes float <- float only.
_SCALAR_PAIRS = ((float32, float32), (bfloat16, bfloat16), (float32, bfloat16), (bfloat16, float32))


class DeQuantMode(enum.IntEnum):
    """``DeQuantMode``: how ``{1, n, calCount}`` is read (see :func:`ascend_dequant`)."""

    DEQUANT_WITH_SINGLE_ROW = 0
    DEQUANT_WITH_MULTI_ROW = 1


@dataclass(frozen=True)
class DequantParams:
    """``DequantParams{m, n, calCount}``: ``src`` is ``[m, n]``; the first ``cal_count`` of each row are
    scaled."""

    m: int = 0
    n: int = 0
    cal_count: int = 0


@dataclass
class _Call:
    core: Core
    dst: LocalTensor
    src: LocalTensor
    m: int
    n: int
    cal: int
    total: int  # source elements processed (m * n, or the older forms' count)


def _parse(args: tuple[Any, ...], scale_is_tensor: bool) -> tuple[LocalTensor | None, Any]:
    rest = list(args)
    tmp = rest.pop(0) if rest and isinstance(rest[0], LocalTensor) else None
    if len(rest) > 1:
        raise TypeError(f"{_NAME}(dst, src, deq_scale[, shared_tmp_buffer][, DequantParams | cal_count])")
    shape = rest[0] if rest else None
    if isinstance(shape, (tuple, list)):
        if len(shape) != 3:
            raise TypeError(f"{_NAME}: the params are (m, n, cal_count), got {shape!r}")
        shape = DequantParams(*(int(v) for v in shape))
    if not isinstance(shape, (DequantParams, type(None), int, np.integer)):
        raise TypeError(f"{_NAME}: the last argument is a DequantParams or a count, "
                        f"got {type(shape).__name__}")
    if not isinstance(shape, DequantParams) and not scale_is_tensor:
        raise TypeError(f"{_NAME}: a scalar deq_scale needs DequantParams (the page's scalar forms "
                        "take them)")
    return tmp, shape


def _scale_type(deq_scale: Any) -> np.dtype:
    if isinstance(deq_scale, LocalTensor):
        return deq_scale.dtype
    if isinstance(deq_scale, np.generic):
        return np.dtype(deq_scale.dtype)
    return float32  # a Python float: the C++ float overload


def _check_types(core: Core, dst: LocalTensor, src: LocalTensor, deq_scale: Any) -> np.dtype:
    if src.dtype != int32:
        raise TypeError(f"{_NAME}: src must be int32, got {dtype_name(src.dtype)}")
    st = _scale_type(deq_scale)
    tensor = isinstance(deq_scale, LocalTensor)
    pairs: tuple[tuple[np.dtype, np.dtype], ...] = _TENSOR_PAIRS if tensor else _SCALAR_PAIRS
    if core.chip.arch_version == "2002":
        pairs = pairs[:2] if tensor else pairs[:1]
    if (dst.dtype, st) not in pairs:
        allowed = ", ".join(f"{dtype_name(d)} <- {dtype_name(s)}" for d, s in pairs)
        kind = "tensor" if tensor else "scalar"
        raise TypeError(f"{_NAME}: dst {dtype_name(dst.dtype)} with a {kind} scale "
                        f"of {dtype_name(st)} is not a documented combination on {core.chip.name} "
                        f"(dst <- scale: {allowed})")
    return st


def _geometry(core: Core, dst: LocalTensor, src: LocalTensor, deq_scale: Any, shape: Any,
              mode: DeQuantMode) -> _Call:
    if isinstance(shape, DequantParams):
        m, n, cal = int(shape.m), int(shape.n), int(shape.cal_count)
        blk = 32 // dst.dtype.itemsize
        single = DeQuantMode(mode) is DeQuantMode.DEQUANT_WITH_SINGLE_ROW
        if single and m == 1 and cal > 0 and cal % blk == 0 and n % cal == 0:
            m, n = n // cal, cal
        if n <= 0 or n % _F32_BLOCK:
            raise ValueError(f"{_NAME}: DequantParams.n {n} must be a positive multiple of 8 (rows of 32 B)")
        if not 0 < cal <= n:
            raise ValueError(f"{_NAME}: DequantParams.cal_count {cal} must be in 1..n ({n})")
        if m <= 0:
            raise ValueError(f"{_NAME}: DequantParams.m {m} must be positive")
        if isinstance(deq_scale, LocalTensor) and cal > deq_scale.size:
            raise ValueError(f"{_NAME}: cal_count {cal} is more than the {deq_scale.size} elements of "
                             "deq_scale")
        return _Call(core, dst, src, m, n, cal, m * n)
    assert isinstance(deq_scale, LocalTensor)
    n = deq_scale.size
    if n <= 0 or src.size % n:
        raise ValueError(f"{_NAME}: without DequantParams src's {src.size} elements must be whole rows of "
                         f"deq_scale's {n}")
    if deq_scale.dtype == uint64 and n % 8:
        raise ValueError(f"{_NAME}: without DequantParams a uint64 deq_scale needs a multiple of 8 elements, "
                         f"got {n}")
    total = src.size if shape is None else int(shape)
    if not 0 < total <= src.size:
        raise ValueError(f"{_NAME}: cal_count {total} must be in 1..{src.size} (src's elements)")
    return _Call(core, dst, src, src.size // n, n, n, total)


def _scale_values(call: _Call, deq_scale: Any, st: np.dtype) -> np.ndarray:
    if not isinstance(deq_scale, LocalTensor):
        return np.full(call.cal, np.float32(st.type(deq_scale)), np.float32)
    s = count_view(call.core, deq_scale, call.cal, _NAME, "deq_scale")
    if st == uint64:
        return (s & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.float32)
    return s.astype(np.float32)


def _disjoint(core: Core, what: str, a: Access, b: Access) -> None:
    if a.length and b.length and a.overlaps(b):
        core.fault(KernelFault, f"{_NAME}: {what}: {a} overlaps {b} (the page: no overlap)",
                   hint="give each operand and the temporary buffer its own UB range",
                   code=fault_code(Space.UB))


def _emit(core: Core, op: str, reads: Sequence[Access], writes: Sequence[Access], nbytes: int,
          width: int | None = 4) -> None:
    reps = -(-nbytes // core.chip.vector_repeat_bytes)
    cost = REPEATS[reps] if width is None else WIDE_REPEATS[(reps, width)]
    core.emit(Pipe.V, op, tuple(reads), tuple(writes), cost)
    pipe_barrier(PIPE_V)


def _buffer(call: _Call, tmp: LocalTensor | None) -> tuple[LocalTensor, int, int]:
    """The temporary buffer as floats, the scale's float count (32 B rounded), and the floats of one pass."""
    core = call.core
    buf = framework_buffer(core) if tmp is None else tmp
    local_operand(core, buf, _NAME, "shared_tmp_buffer")
    nbytes = buf.size * buf.dtype.itemsize
    raw = buf.reinterpret_cast(uint8)
    floats = raw[0:nbytes // 4 * 4].reinterpret_cast(float32) if nbytes >= 4 else None
    deq = -(-call.cal // _F32_BLOCK) * _F32_BLOCK
    room = ((nbytes // 4 - deq) // call.n) * call.n
    if floats is None or room <= 0:
        core.fault(KernelFault, f"{_NAME}: the temporary buffer ({nbytes} B) is too small for the scale "
                   f"and one row of {call.n} floats", code=fault_code(Space.UB),
                   hint="give it at least the min_value of get_ascend_dequant_max_min_tmp_size")
    return floats, deq, min(room, call.m * call.n)


def ascend_dequant(dst: LocalTensor, src: LocalTensor, deq_scale: Any, *args: Any,
                   mode: DeQuantMode = DeQuantMode.DEQUANT_WITH_SINGLE_ROW) -> None:
    """``AscendDequant<dstT, scaleT, mode>(dst, src, deqScale[, sharedTmpBuffer], params)`` (module
    docstring): ``dst[r, c] = dstT(float(src[r, c]) * scale[c])`` for the first ``cal_count`` columns.

    >>> # inside a kernel: dst float [4, 8], src int32 [4, 8], scale float [8]
    >>> # asc.ascend_dequant(dst, src, scale, asc.DequantParams(4, 8, 6))
    """
    core = current()
    tensor_scale = isinstance(deq_scale, LocalTensor)
    local_operand(core, dst, _NAME, "dst")
    local_operand(core, src, _NAME, "src")
    if tensor_scale:
        local_operand(core, deq_scale, _NAME, "deq_scale")
    tmp, shape = _parse(args, tensor_scale)
    st = _check_types(core, dst, src, deq_scale)
    if tensor_scale and core.core_type is CoreType.AIC:
        return  # the library returns on a cube core
    call = _geometry(core, dst, src, deq_scale, shape, mode)
    _run(call, deq_scale, st, tmp)


def _run(call: _Call, deq_scale: Any, st: np.dtype, tmp: LocalTensor | None) -> None:
    core, dst, src, n, cal = call.core, call.dst, call.src, call.n, call.cal
    disz = dst.dtype.itemsize
    blk = 32 // disz
    inner = -(-n // blk) * blk  # dst's row, padded to 32 B
    pos = np.arange(call.total, dtype=np.int64)
    rows, cols = pos // n, pos % n
    x = count_view(core, src, call.total, _NAME, "src")
    need = int(rows[-1]) * inner + int(cols[-1]) + 1
    if need > dst.size:
        core.fault(LocalOutOfRangeError, f"{_NAME}: dst needs {need} elements ({call.m} rows of {inner}), "
                   f"it has {dst.size}", code=fault_code(Space.UB))
    out = count_view(core, dst, need, _NAME, "dst")
    sa, da = src.access(call.total * 4), dst.access(need * disz)
    _disjoint(core, "src and dst", sa, da)
    scale = _scale_values(call, deq_scale, st)
    floats, deq, room = _buffer(call, tmp)
    ta, tb = floats[0:deq], floats[deq:deq + room]
    for what, acc in (("src", sa), ("dst", da)):
        _disjoint(core, f"the temporary buffer and {what}", floats.access(4 * (deq + room)), acc)
    if isinstance(deq_scale, LocalTensor):
        _disjoint(core, "the temporary buffer and deq_scale", floats.access(4 * (deq + room)),
                  deq_scale.access(cal * st.itemsize))
    # the values: float(src) scaled in its first cal columns, converted to dstT
    v = x.astype(np.float32)
    scaled = cols < cal
    v[scaled] = v[scaled] * scale[cols[scaled]]
    with np.errstate(over="ignore"):
        res = (v + np.float32(0)) if dst.dtype == float32 else v.astype(dst.dtype)
    out[rows * inner + cols] = res
    ta.view[:cal] = scale
    # the record: the scale into the buffer, then passes of whole rows
    if not isinstance(deq_scale, LocalTensor):
        _emit(core, "duplicate", (), (ta.access(cal * 4),), cal * 4)
    else:
        op = {float32: "adds", uint64: "gather_mask"}.get(st, "cast")
        _emit(core, op, (deq_scale.access(cal * st.itemsize),), (ta.access(cal * 4),), cal * 4,
              None if op == "cast" else 4)
    for o in range(0, call.total, room):
        k = min(room, call.total - o)
        tb.view[:k] = v[o:o + k]
        pass_a = tb.access(k * 4)
        _emit(core, "cast", (core.access(Space.UB, src.offset + o * 4, k * 4),), (pass_a,), k * 4, None)
        mul_reps = -(-k // n) * -(-min(cal, n) // _F32_REPEAT)
        core.emit(Pipe.V, "mul", (pass_a, ta.access(cal * 4)), (pass_a,), WIDE_REPEATS[(mul_reps, 4)])
        pipe_barrier(PIPE_V)
        _store(core, dst, o, k, n, inner, pass_a)
    core.vmask = RESET


def _store(core: Core, dst: LocalTensor, o: int, k: int, n: int, inner: int, pass_a: Access) -> None:
    """The last step of a pass: the floats of ``k`` source elements from ``o`` into ``dst``'s rows."""
    disz = dst.dtype.itemsize
    op, width = ("adds", 4) if dst.dtype == float32 else ("cast", None)
    if inner == n:
        _emit(core, op, (pass_a,), (core.access(Space.UB, dst.offset + o * disz, k * disz),), k * 4, width)
        return
    for first in range(o, o + k, n):  # one instruction a padded row, as the library issues them
        c = min(n - first % n, o + k - first)
        at = (first // n) * inner + first % n
        src_at = core.access(Space.UB, pass_a.offset + (first - o) * 4, c * 4)
        core.emit(Pipe.V, op, (src_at,), (core.access(Space.UB, dst.offset + at * disz, c * disz),),
                  REPEATS[-(-c * 4 // core.chip.vector_repeat_bytes)])
    pipe_barrier(PIPE_V)


# --- host -------------------------------------------------------------------------------------------


def _dims(src_shape: Sequence[int] | int, what: str) -> tuple[int, int]:
    dims = [int(src_shape)] if isinstance(src_shape, (int, np.integer)) else [int(d) for d in src_shape]
    if not 1 <= len(dims) <= 2 or any(d <= 0 for d in dims):
        raise ValueError(f"{what}: src_shape must be [n] or [m, n] with positive sizes, got {tuple(dims)}")
    return (1, dims[0]) if len(dims) == 1 else (dims[0], dims[1])


def get_ascend_dequant_max_min_tmp_size(src_shape: Sequence[int] | int, type_size: int) -> tuple[int, int]:
    """``GetAscendDequantMaxMinTmpSize(srcShape, typeSize, maxValue, minValue)`` -> ``(max_value, min_value)``
    in bytes: floats for the scale (``n + 8``), one 256 B repeat of margin, and all ``m * n`` (max) or one row
    (min) of the source as float.  ``type_size`` is int32's 4.

    >>> get_ascend_dequant_max_min_tmp_size([2, 1024], 4)
    (12576, 8480)
    """
    m, n = _dims(src_shape, "GetAscendDequantMaxMinTmpSize")
    if int(type_size) != 4:
        raise ValueError(f"GetAscendDequantMaxMinTmpSize: type_size {type_size}: the source is int32 (4)")
    scale = n + _F32_BLOCK
    return (_F32_REPEAT + m * n + scale) * 4, (_F32_REPEAT + n + scale) * 4


def get_ascend_dequant_tmp_buffer_factor_size(src_shape: Sequence[int] | int) -> tuple[int, int]:
    """``GetAscendDequantTmpBufferFactorSize(srcShape, maxLiveNodeCount, extraBuf)`` ->
    ``(max_live_node_count, extra_buf)``: a 2-D shape ``(1, n + 72)``, a 1-D shape ``(2, 72)`` (the
    library's figures)."""
    dims = [int(src_shape)] if isinstance(src_shape, (int, np.integer)) else [int(d) for d in src_shape]
    extra = _F32_BLOCK + _F32_REPEAT
    if len(dims) == 2:
        return 1, extra + dims[1]
    if len(dims) == 1:
        return 2, extra
    return 0, 0


__all__ = [
    "DeQuantMode",
    "DequantParams",
    "ascend_dequant",
    "get_ascend_dequant_max_min_tmp_size",
    "get_ascend_dequant_tmp_buffer_factor_size",
]
