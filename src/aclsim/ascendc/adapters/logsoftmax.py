"""Adapters of api_cxx.txt's "LogSoftMax" rows."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import aclsim.kernel as asc

__all__ = ["log_soft_max_tiling_value"]


def log_soft_max_tiling_value(src_shape: Sequence[int], data_type_size: int, local_work_space_size: int,
                              index: int) -> int:
    """Field ``index`` (in ``LogSoftMaxTiling``'s order) of what ``LogSoftMaxTilingFunc(srcShape,
    dataTypeSize, localWorkSpaceSize, tiling)`` fills: include/aclsim_ascendc_logsoftmax.h reads the
    fields one by one into the C++ struct."""
    tiling = asc.LogSoftMaxTiling()
    asc.log_soft_max_tiling_func(src_shape, data_type_size, local_work_space_size, tiling)
    names = [f.name for f in dataclasses.fields(tiling)]
    if not 0 <= index < len(names):
        raise IndexError(f"LogSoftMaxTiling has {len(names)} fields, no field {index}")
    return int(getattr(tiling, names[index]))
