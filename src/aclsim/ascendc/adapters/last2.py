"""Adapters of api_cxx.txt's "Cube loads, fixpipe, int4" rows."""

from __future__ import annotations

import dataclasses
from typing import Any

import aclsim.kernel as asc
from aclsim.errors import InvalidParamError

__all__ = ["co12_params", "fixpipe_old"]


def co12_params(*values: Any) -> Any:
    """The C++ ``DataCopyCO12DstParams``'s fields (all twelve, in the table's order) as the Python
    ``DataCopyCO12DstParams`` (whose last four fields are keyword-only)."""
    names = [f.name for f in dataclasses.fields(asc.DataCopyCO12DstParams)]
    return asc.DataCopyCO12DstParams(**dict(zip(names, values, strict=True)))


def fixpipe_old(dst: Any, src: Any, cburst_num: int, burst_len: int, dst_stride: int, src_stride: int,
                quant_pre: Any, deq_scalar: int, relu_en: bool, nz2nd_en: bool, nd_num: int,
                src_nd_stride: int, dst_nd_stride: int, original_n_size: int, unit_flag: int) -> None:
    """``Fixpipe(dst, src, FixpipeParams<T>)``, the older form (arch 220), as ``fixpipe`` with
    ``FixpipeParamsV220``: ``cburstNum`` bursts, one per 16-column Z column of L0C, each ``burstLen`` 32 B
    blocks of L0C's 32-bit elements (``m`` = burstLen * 32 / 4 / 16 rows); ``srcStride`` is the GAP
    between bursts in 256-element fractals (V220's stride counts 16-element rows: srcStride * 16 + m
    rounded up to 16).  With ``nz2ndParams.nz2ndEn`` the result is ND: ``originalNSize`` columns (0 is
    refused, as Ascend C asserts), ``dstStride`` elements a row; without it NZ: ``dstStride`` is the gap
    between Z columns in 32 B blocks (V220's stride: the gap plus a Z column's blocks of the dst type)."""
    m = burst_len * 32 // 4 // 16
    if nz2nd_en and original_n_size == 0:
        raise InvalidParamError("Fixpipe(dst, src, FixpipeParams<T>): nz2ndParams.nz2ndEn with "
                                "nz2ndParams.originalNSize 0 (Ascend C asserts it is set)",
                                hint="set nz2ndParams.originalNSize to the N size of the result")
    n = original_n_size if nz2nd_en else cburst_num * 16
    v220_src_stride = src_stride * 16 + -(-m // 16) * 16
    v220_dst_stride = dst_stride if nz2nd_en else dst_stride + burst_len * dst.dtype.itemsize // 4
    params = asc.FixpipeParamsV220(n, m, v220_src_stride, v220_dst_stride, relu_en, quant_pre, deq_scalar,
                                   nd_num, src_nd_stride, dst_nd_stride, unit_flag)
    asc.fixpipe(dst, src, params, asc.CFG_ROW_MAJOR if nz2nd_en else asc.CFG_NZ)
