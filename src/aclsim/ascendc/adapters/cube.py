"""Adapters of the cube rows (``## Cube and Matmul`` of api_cxx.txt): the Matmul object's template
``sync`` parameter, and the host tiling (``tiling/tiling_api.h``) that a CPU-debug program runs before
any launch."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from typing import Any

import aclsim.kernel as asc

__all__ = ["HostTiling", "bind_start", "host", "host_get_tiling", "host_matmul_tiling", "host_tiling_value",
           "matmul_get_tensor_c", "matmul_iterate", "matmul_iterate_all", "mmad_params"]

#: TCubeTiling's fields in order: the C++ struct (api_cxx.txt) and optiling::TCubeTiling hold them so
TILING_FIELDS = tuple(f.name for f in dataclasses.fields(asc.TCubeTiling))


def mmad_params(*values: Any) -> Any:
    """The C++ ``MmadParams``'s fields (all twelve, in order) as the Python ``MmadParams`` (whose
    positional forms are the C++ constructors' 8 and 6 arguments)."""
    names = [f.name for f in dataclasses.fields(asc.MmadParams)]
    return asc.MmadParams(**dict(zip(names, values, strict=True)))


def matmul_iterate(mm: Any, en_partial_sum: Any, sync: Any) -> bool:
    """``mm.Iterate<sync>(enPartialSum)``."""
    return bool(mm.iterate(bool(en_partial_sum), sync=bool(sync)))


def matmul_get_tensor_c(mm: Any, dst: Any, en_atomic: Any, en_sequential_write: Any, sync: Any) -> None:
    """``mm.GetTensorC<sync>(dst, enAtomic, enSequentialWrite)``."""
    mm.get_tensor_c(dst, int(en_atomic), bool(en_sequential_write), sync=bool(sync))


def matmul_iterate_all(mm: Any, gm: Any, en_atomic: Any, sync: Any) -> None:
    """``mm.IterateAll<sync>(gm, enAtomic)``."""
    mm.iterate_all(gm, int(en_atomic), sync=bool(sync))


class HostTiling:
    """A host program's ``MatmulApiTiling`` / ``MultiCoreMatmulTiling`` and its last ``GetTiling``."""

    def __init__(self, api: Any) -> None:
        self.api = api
        self.result = asc.TCubeTiling()


#: the bridge's start-up (``Bridge.start(soc)``), bound by ``bridge.install``: a host program's first
#: tiling call starts aclsim as its first GmAlloc would
_start: list[Callable[[str], None]] = []


def bind_start(start: Callable[[str], None]) -> None:
    """Called by the library's bridge when it installs: how a host-side row starts aclsim."""
    _start[:] = [start]


def host_matmul_tiling(multi_core: Any, soc: str) -> HostTiling:
    """The tiling object of a host program: aclsim starts on first use (the chip: ``ACLSIM_CHIP``, else
    the SoC the build names) and the tiling is for the current device's chip."""
    from aclsim.runtime.lookup import current_device_or_first

    for start in _start:
        start(soc)
    chip = current_device_or_first().chip
    return HostTiling(asc.MultiCoreMatmulTiling(chip) if multi_core else asc.MatmulApiTiling(chip))


def host(tiling: HostTiling, name: str, *args: Any) -> int:
    """One setter or getter of the host tiling: its result, or -1 with the reason printed (a host
    program has no launch to carry the error)."""
    try:
        return int(getattr(tiling.api, name)(*args))
    except Exception as exc:  # noqa: BLE001 - reported as the C++ API reports: -1 and a log line
        print(f"aclsim: matmul tiling {name}{tuple(args)}: {exc}", file=sys.stderr)
        return -1


def host_get_tiling(tiling: HostTiling) -> int:
    """``GetTiling``: 0, or -1 when no tiling fits (the reason is logged); the fields are then read one
    by one (:func:`host_tiling_value`)."""
    result = asc.TCubeTiling()
    rc = host(tiling, "get_tiling", result)
    if rc == 0:
        tiling.result = result
    return rc


def host_tiling_value(tiling: HostTiling, index: int) -> int:
    """Field ``index`` (TCubeTiling's order) of the last tiling."""
    return int(getattr(tiling.result, TILING_FIELDS[index]))
