"""Writes to GM that no instruction recorded: a C++ kernel storing through a raw pointer.

A CPU-debug kernel's pointers are host addresses of the device memory's bytes (``GmAlloc``), so
``*(half*)ptr = v`` in the kernel changes device memory without an Ascend C call: the race check,
the timeline and the sanitizer never see it (on the device such a store is a scalar write through
the data cache, and ``DataCacheCleanAndInvalid`` would be needed for other cores to see it).

:class:`GmWatch` takes a copy of every ``GmAlloc`` region the launch's arguments point into before
the launch, and after it compares: bytes that changed but that no recorded write of any block
covers are reported, one :class:`~aclsim.kernel.sanitizer.KernelDiagnostic` of kind
``unrecorded_write`` per run of such bytes (the region and the byte range).  Cost: a copy and a
compare of those regions' bytes per launch (8-10 ms for 10 MB on the 2-core CI box) plus one
Python pass over the recorded instructions' GM writes (30-80 ms per 10,000 writes); the coverage
itself is a sort and a search in NumPy.  A raw store that writes the value the byte already held
is not seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from aclsim.isa import Instr, Space
from aclsim.kernel import KernelDiagnostic
from aclsim.runtime.pointers import allocation_at

__all__ = ["GmWatch", "unrecorded_runs"]

_GM = (Space.GM, Space.HOST)


class GmWatch:
    """The bytes of the watched regions before a launch (``regions``: the bridge's ``_Region``s)."""

    def __init__(self, regions: Sequence[Any]) -> None:
        self.before: list[tuple[Any, np.ndarray, np.ndarray]] = []
        for r in regions:
            found = allocation_at(r.device)
            if found is not None:
                view = found.view[:r.extent]
                self.before.append((r, view, view.copy()))

    def check(self, launch: Any, file: str, line: int) -> list[KernelDiagnostic]:
        """The unrecorded writes of ``launch`` (noted on its sanitizer report too)."""
        found: list[KernelDiagnostic] = []
        streams = launch.streams or []
        for region, view, old in self.before:
            changed = view != old
            if not changed.any():
                continue
            for lo, hi in unrecorded_runs(changed, region.device, streams):
                d = KernelDiagnostic("unrecorded_write", 0, region.device + lo, region.device + hi,
                                     repr(region.buffer), region.device, int(region.buffer.size),
                                     region.extent, f"{launch.name}<<<{launch.block_dim}>>>", file, line)
                found.append(d)
                launch.sanitizer.note(KernelDiagnostic(**{**d.__dict__}))
        return found


def unrecorded_runs(changed: np.ndarray, base: int,
                    streams: Sequence[Sequence[Instr]]) -> list[tuple[int, int]]:
    """The runs ``[lo, hi)`` (offsets from ``base``) of ``changed`` bytes that no GM write of
    ``streams`` covers."""
    end = base + len(changed)
    spans = [(a.offset - base, a.end - base) for stream in streams for ins in stream for a in ins.writes
             if a.space in _GM and a.offset < end and a.end > base]
    where = np.flatnonzero(changed)
    if spans:  # a changed byte is covered when a write starting at or before it ends after it
        starts, ends = np.array(sorted(spans)).T
        reach = np.maximum.accumulate(ends)
        k = np.searchsorted(starts, where, "right") - 1
        covered = (k >= 0) & (where < reach[np.maximum(k, 0)])
        where = where[~covered]
    if not len(where):
        return []
    breaks = np.flatnonzero(np.diff(where) > 1)
    firsts = np.concatenate(([where[0]], where[breaks + 1]))
    lasts = np.concatenate((where[breaks], [where[-1]]))
    return [(int(lo), int(hi) + 1) for lo, hi in zip(firsts, lasts, strict=True)]
