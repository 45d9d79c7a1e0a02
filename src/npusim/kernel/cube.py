"""The cube path: ``load_data`` (L1 -> L0A/L0B, MTE1), ``mmad`` (M), ``fixpipe`` (L0C -> GM/L1, FIX).

Layouts: npusim keeps matrices in ND (row-major) in every local memory instead of the
hardware's fractal NZ/ZZ/ZN layouts.  ``mmad`` reads A as an (m, k) row-major matrix at
the L0A tensor, B as (k, n) at L0B, and writes C as (m, n) at L0C; ``load_data`` moves
whole 512 B fractals (byte-exact, so an ND tile moves as it is); ``fixpipe`` reads
(m_size, n_size) rows from L0C with a row stride and writes them with another.  A kernel
ported to Ascend C needs ``Nd2NzParams`` on the GM -> L1 copy and NZ-aware strides; the
pipes, flags, byte counts and fractal counts (what the timing model sees) are the same.

Accumulation: float16 and bfloat16 products are exact in float32 and summed in float32
into L0C (as the cube does); float32 inputs multiply in float32; int8 accumulates in int32.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import as_strided

from npusim.errors import FeatureNotSupportedError, LocalOutOfRangeError, MisalignedAccessError
from npusim.isa import Access, Pipe, Space
from npusim.kernel._core import Core, bfloat16, current, fault_code, float16, float32, int8, int32
from npusim.kernel.tensor import GlobalTensor, LocalTensor

_MMAD_TYPES = {float16: float32, bfloat16: float32, float32: float32, int8: int32}


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


@dataclass(frozen=True)
class MmadParams:
    """``MmadParams{m, n, k, isBias, ..., cmatrixInitVal}``: ``cmatrix_init_val`` True overwrites
    L0C (C starts from zero), False accumulates into it."""

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


class QuantMode(enum.IntEnum):
    """Fixpipe's on-the-fly conversion (``quantPre``), the subset npusim models."""

    NoQuant = 0
    F322F16 = 1
    F322BF16 = 2


@dataclass(frozen=True)
class FixpipeParamsV220:
    """``FixpipeParamsV220`` in ND terms: ``m_size`` rows of ``n_size`` elements; ``src_stride`` and
    ``dst_stride`` are the row strides in elements of L0C and of the destination (0: ``n_size``)."""

    n_size: int = 0
    m_size: int = 0
    src_stride: int = 0
    dst_stride: int = 0
    quant_pre: QuantMode = QuantMode.NoQuant
    relu_en: bool = False


FixpipeParams = FixpipeParamsV220


def _local(core: Core, t: object, spaces: tuple[Space, ...], name: str, what: str) -> LocalTensor:
    if not isinstance(t, LocalTensor) or t.space not in spaces:
        where = "/".join(s.value for s in spaces)
        raise TypeError(f"{name}: {what} must be a LocalTensor in {where}, got {t!r}")
    align = core.align[t.space]
    if t.offset % align:
        core.fault(
            MisalignedAccessError,
            f"{name}: {what} {t.space.value} address {t.offset} is not {align} B aligned",
            code=fault_code(t.space),
        )
    return t


def _bytes(core: Core, t: LocalTensor, nbytes: int, name: str, what: str) -> np.ndarray:
    if t.offset + nbytes > t.buf_end:
        core.fault(
            LocalOutOfRangeError,
            f"{name}: {what} needs {nbytes} B at {t.space.value}[{t.offset}], "
            f"{t.offset + nbytes - t.buf_end} B past its buffer",
            code=fault_code(t.space),
        )
    return core.arenas[t.space][t.offset : t.offset + nbytes]


def load_data(dst: LocalTensor, src: LocalTensor, params: LoadData2DParams) -> None:
    """``LoadData(dst, src, LoadData2DParams)``: L1 -> L0A/L0B on MTE1, fractal by fractal."""
    core = current()
    name = "load_data"
    _local(core, dst, (Space.L0A, Space.L0B), name, "dst")
    _local(core, src, (Space.L1,), name, "src")
    if params.if_transpose:
        raise FeatureNotSupportedError(
            "load_data with if_transpose: npusim keeps ND layouts; transpose the tile when it is copied in"
        )
    frac = core.chip.l0ab_align
    reps, start = int(params.repeat_times), int(params.start_index)
    sstride, dstride = int(params.src_stride) * frac, (1 + int(params.dst_gap)) * frac
    if not 0 <= reps <= core.chip.max_repeat or start < 0 or sstride < 0:
        raise ValueError(f"{name}: bad LoadData2DParams {params}")
    sspan = start * frac + ((reps - 1) * sstride + frac if reps else 0)
    dspan = (reps - 1) * dstride + frac if reps else 0
    sbuf = _bytes(core, src, sspan, name, "src")[start * frac :]
    dbuf = _bytes(core, dst, dspan, name, "dst")
    if reps:
        if sstride == frac and dstride == frac:
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
        {"bytes": reps * frac},
    )


def mmad(dst: LocalTensor, fm: LocalTensor, filter: LocalTensor, params: MmadParams) -> None:  # noqa: A002
    """``Mmad(dst, fm, filter, MmadParams)``: ``C(m, n) [+]= A(m, k) @ B(k, n)`` on the cube (pipe M)."""
    core = current()
    name = "mmad"
    _local(core, dst, (Space.L0C,), name, "dst")
    _local(core, fm, (Space.L0A,), name, "fm")
    _local(core, filter, (Space.L0B,), name, "filter")
    m, n, k = int(params.m), int(params.n), int(params.k)
    if min(m, n, k) <= 0 or max(m, n, k) > 4095:
        raise ValueError(f"{name}: m, n, k must be in 1..4095, got {m}, {n}, {k}")
    if params.is_bias:
        raise FeatureNotSupportedError("mmad with a bias table is not modelled")
    if fm.dtype != filter.dtype or fm.dtype not in _MMAD_TYPES:
        raise TypeError(
            f"{name}: fm and filter must both be float16, bfloat16, float32 or int8, got "
            f"{fm.dtype}, {filter.dtype}"
        )
    acc = _MMAD_TYPES[fm.dtype]
    if dst.dtype != acc:
        raise TypeError(f"{name}: {fm.dtype} inputs accumulate in {acc} in L0C, got dst {dst.dtype}")
    isz = fm.dtype.itemsize
    a = _bytes(core, fm, m * k * isz, name, "fm").view(fm.dtype).reshape(m, k)
    b = _bytes(core, filter, k * n * isz, name, "filter").view(filter.dtype).reshape(k, n)
    c = _bytes(core, dst, m * n * acc.itemsize, name, "dst").view(acc).reshape(m, n)
    prod = np.matmul(a.astype(acc), b.astype(acc))
    if params.cmatrix_init_val:
        c[...] = prod
    else:
        c += prod
    reads: tuple[Access, ...] = (fm.access(m * k * isz), filter.access(k * n * isz))
    if not params.cmatrix_init_val:
        reads = (*reads, dst.access(m * n * acc.itemsize))
    core.emit(Pipe.M, name, reads, (dst.access(m * n * acc.itemsize),), {"m": m, "n": n, "k": k})


def _rows(buf: np.ndarray, dtype: np.dtype, m: int, n: int, stride: int) -> np.ndarray:
    v = buf.view(dtype)
    return as_strided(v, (m, n), (stride * dtype.itemsize, dtype.itemsize), writeable=True)


def fixpipe(dst: GlobalTensor | LocalTensor, src: LocalTensor, params: FixpipeParamsV220) -> None:
    """``Fixpipe(dst, src, FixpipeParamsV220)``: L0C -> GM (or L1) on FIX, with optional fp32 -> fp16/bf16
    conversion (round to nearest even) and ReLU."""
    core = current()
    name = "fixpipe"
    _local(core, src, (Space.L0C,), name, "src")
    m, n = int(params.m_size), int(params.n_size)
    if m <= 0 or n <= 0:
        raise ValueError(f"{name}: m_size and n_size must be > 0")
    ss = int(params.src_stride) or n
    ds = int(params.dst_stride) or n
    if ss < n or ds < n:
        raise ValueError(f"{name}: row strides must be >= n_size")
    quant = QuantMode(params.quant_pre)
    want = {QuantMode.NoQuant: src.dtype, QuantMode.F322F16: float16, QuantMode.F322BF16: bfloat16}[quant]
    if quant is not QuantMode.NoQuant and src.dtype != float32:
        raise TypeError(f"{name}: {quant.name} converts float32, got {src.dtype}")
    if dst.dtype != want:
        raise TypeError(
            f"{name}: {src.dtype} -> {dst.dtype} needs quant_pre "
            f"{'F322F16' if dst.dtype == float16 else 'F322BF16' if dst.dtype == bfloat16 else '?'}; "
            f"with {quant.name} the destination is {want}"
        )
    sspan = ((m - 1) * ss + n) * src.dtype.itemsize
    dspan = ((m - 1) * ds + n) * dst.dtype.itemsize
    x = _rows(_bytes(core, src, sspan, name, "src"), src.dtype, m, n, ss)
    if params.relu_en:
        x = np.maximum(x, src.dtype.type(0))
    y = x.astype(dst.dtype)
    if isinstance(dst, GlobalTensor):
        if dst.addr % dst.dtype.itemsize:
            core.fault(
                MisalignedAccessError,
                f"{name}: global address 0x{dst.addr:x} is not aligned to sizeof({dst.dtype})",
            )
        out = dst.bytes_at(core, 0, dspan, write=True, vector_side=False)
        waccess = core.access(Space.GM, dst.addr, dspan)
    elif isinstance(dst, LocalTensor) and dst.space is Space.L1:
        _local(core, dst, (Space.L1,), name, "dst")
        out = _bytes(core, dst, dspan, name, "dst")
        waccess = dst.access(dspan)
    else:
        raise TypeError(f"{name}: dst must be a GlobalTensor or an L1 LocalTensor")
    _rows(out, dst.dtype, m, n, ds)[...] = y
    core.emit(Pipe.FIX, name, (src.access(sspan),), (waccess,), {"bytes": m * n * dst.dtype.itemsize})
