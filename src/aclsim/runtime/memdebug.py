"""The memory debugger's exports: PyTorch-layout snapshots and a PNG of memory over time.

The history itself is recorded by the pool's observer (:meth:`CachingPool.record_history`); leaks are
reported by ``aclsim.leak_report``/``finalize``; double frees and uses after free are errors
raised where they happen (:mod:`aclsim.runtime.memory`); legal but suspicious uses (a copy
whose kind does not match its pointers) are :class:`Diagnostic` records
(``aclsim.diagnostics()``).

Snapshot layout: the dictionary ``torch.cuda.memory._snapshot()`` returns, which
https://pytorch.org/memory_viz reads (pickled, as ``torch.cuda.memory._dump_snapshot`` writes
it).  Field names follow the ``Snapshot``/``Segment``/``Block``/``TraceEntry`` typed
dictionaries documented in ``torch/cuda/memory.py`` (``_snapshot``) and the keys measured on
torch 2.11 (shared/design/reference/allocator-prior-art.md 1.8).
"""

from __future__ import annotations

import os
import pickle
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aclsim.runtime.pool import ALLOC, LARGE, PENDING, CachingPool, Segment

if TYPE_CHECKING:
    from aclsim.runtime.memory import DeviceMemory


#: How many diagnostics the runtime keeps (the oldest are dropped first).
MAX_DIAGNOSTICS = 1000


@dataclass(frozen=True)
class Diagnostic:
    """A legal but suspicious use the runtime noticed, with the line that made it.

    ``kind`` names the check (``"memcpy_kind"``: a copy whose kind does not match where its
    pointers are; the runtime copies in the direction of the pointers, as AscendCL does).
    """

    kind: str
    message: str
    site: str

    def __str__(self) -> str:
        return f"{self.site}: {self.message}"


def _stream_id(stream: Any) -> int:
    return int(getattr(stream, "handle", 0) or 0)


def _frames(frames: list[tuple[str, int, str]] | None) -> list[dict[str, Any]]:
    return [{"filename": f, "line": line, "name": name} for f, line, name in frames or ()]


def _site_frames(site: str | None) -> list[dict[str, Any]]:
    if not site:
        return []
    filename, _, line = site.rpartition(":")
    return [{"filename": filename or site, "line": int(line) if line.isdigit() else 0, "name": "<malloc>"}]


def _alloc_frames(pool: CachingPool) -> dict[int, list[tuple[str, int, str]]]:
    """The Python stack of the latest recorded ``alloc`` at each offset (history with stacks):
    the allocation of the block there now, the ring buffer dropping the oldest events first."""
    out = {}
    for action, addr, _size, _stream, _t, frames, _extra in pool.history():
        if action == "alloc":
            out[addr] = frames or []
    return out


def _segment_entries(memory: DeviceMemory, pool: CachingPool, seg: Segment,
                     alloc_frames: dict[int, list[tuple[str, int, str]]]) -> list[dict[str, Any]]:
    base = memory.arena.base
    out = []
    blocks = pool.blocks_of(seg)
    for start, nbytes in pool.mapped_ranges(seg):
        end = start + nbytes
        entries = []
        allocated = active = requested = 0
        for b in blocks:
            lo, hi = max(b.addr, start), min(b.addr + b.size, end)
            if lo >= hi:
                continue
            state = {ALLOC: "active_allocated", PENDING: "active_awaiting_free"}.get(b.state, "inactive")
            frames: list[dict[str, Any]] = []
            if b.state in (ALLOC, PENDING):  # its allocation's stack, or the line of its malloc
                frames = _frames(alloc_frames.get(b.addr))
                buf = memory._buffers.get(base + b.addr) if b.state == ALLOC else None
                frames = frames or _site_frames(buf.site if buf is not None else None)
            req = b.requested if b.state in (ALLOC, PENDING) else 0
            entries.append({"address": base + lo, "size": hi - lo, "requested_size": req, "state": state,
                            "frames": frames})
            if b.state == ALLOC:
                allocated += hi - lo
            if b.state in (ALLOC, PENDING):
                active += hi - lo
                requested += req
        out.append({
            "device": memory.device_id,
            "address": base + start,
            "total_size": nbytes,
            "allocated_size": allocated,
            "active_size": active,
            "requested_size": requested,
            "stream": _stream_id(seg.stream),
            "segment_type": "large" if seg.kind == LARGE else "small",
            "segment_pool_id": (0, 0),
            "is_expandable": seg.mapped is not None,
            "frames": [],
            "blocks": entries,
        })
    return out


def trace_entries(memory: DeviceMemory, pool: CachingPool) -> list[dict[str, Any]]:
    """The pool's history as PyTorch ``TraceEntry`` dictionaries (absolute addresses)."""
    base = memory.arena.base
    t0 = pool.t0
    out = []
    for action, addr, size, stream, t_ns, frames, extra in pool.history():
        entry: dict[str, Any] = {
            "action": action,
            "addr": base + addr if action != "oom" else 0,
            "size": size,
            "stream": _stream_id(stream),
            "time_us": (t_ns - t0) // 1000,
            "frames": _frames(frames),
            "compile_context": "",
            "user_metadata": "",
        }
        if extra:
            entry.update(extra)
        out.append(entry)
    return out


def snapshot(memories: list[DeviceMemory | None]) -> dict[str, Any]:
    """The PyTorch memory-snapshot dictionary of the given devices (index = device id)."""
    segments: list[dict[str, Any]] = []
    traces: list[list[dict[str, Any]]] = []
    for memory in memories:
        pool = memory.pool if memory is not None else None
        if memory is None or pool is None:
            traces.append([])
            continue
        with memory._lock:
            alloc_frames = _alloc_frames(pool)
            for seg in pool.segments():
                segments.extend(_segment_entries(memory, pool, seg, alloc_frames))
            traces.append(trace_entries(memory, pool))
    return {"segments": segments, "device_traces": traces,
            "allocator_settings": {"PYTORCH_NPU_ALLOC_CONF": ""}}


def dump_snapshot(snap: dict[str, Any], path: str | os.PathLike[str]) -> None:
    """Write a snapshot as ``torch.cuda.memory._dump_snapshot`` does: pickled."""
    with open(path, "wb") as f:
        pickle.dump(snap, f)


_UP = {"alloc": ("allocated", 1), "free_completed": ("allocated", -1), "segment_alloc": ("reserved", 1),
       "segment_map": ("reserved", 1), "segment_free": ("reserved", -1), "segment_unmap": ("reserved", -1)}


def usage_over_time(pool: CachingPool) -> tuple[list[float], list[int], list[int]]:
    """``(seconds, allocated, reserved)`` after each recorded event, from the history.

    Events before the history started (or dropped by the ring buffer) are accounted for by
    starting from the values that make the last point equal to the pool's current ones.
    """
    events = pool.history()
    deltas = {"allocated": 0, "reserved": 0}
    for action, _addr, size, *_ in events:
        kind = _UP.get(action)
        if kind is not None:
            deltas[kind[0]] += kind[1] * size
    alloc = pool.all.b - deltas["allocated"]
    res = pool.all.res - deltas["reserved"]
    times, allocated, reserved = [], [], []
    for action, _addr, size, _stream, t_ns, *_ in events:
        kind = _UP.get(action)
        if kind is None:
            continue
        if kind[0] == "allocated":
            alloc += kind[1] * size
        else:
            res += kind[1] * size
        times.append((t_ns - pool.t0) / 1e9)
        allocated.append(alloc)
        reserved.append(res)
    return times, allocated, reserved


def plot_usage(pool: CachingPool, path: str | os.PathLike[str], *, title: str = "") -> None:
    """A PNG of allocated and reserved bytes over time (needs the ``plot`` extra: matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg", force=False)
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("plotting memory needs matplotlib: pip install 'aclsim[plot]'") from exc
    times, allocated, reserved = usage_over_time(pool)
    fig, ax = plt.subplots(figsize=(9, 4.5), dpi=100)
    try:
        mib = float(1 << 20)
        ax.step(times, [r / mib for r in reserved], where="post", label="reserved", color="tab:orange")
        ax.step(times, [a / mib for a in allocated], where="post", label="allocated", color="tab:blue")
        ax.set_xlabel("time (s)")
        ax.set_ylabel("MiB")
        ax.set_title(title or "device memory")
        ax.grid(True, alpha=0.3)
        ax.legend(loc="upper left")
        fig.tight_layout()
        fig.savefig(os.fspath(path), format="png")
    finally:
        plt.close(fig)
