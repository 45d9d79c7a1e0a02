"""Chrome / Perfetto trace JSON of simulated launches.

One process per core (``"AIV core3"``), one thread (track) per pipe named as Huawei's
simulator names its rows (SCALAR, VECTOR, CUBE, MTE1, MTE2, MTE3, FIXP), one complete
("X") event per instruction, and a flow arrow from every ``set_flag`` to the
``wait_flag`` it released.  With ``hbm_track=True`` one more process per launch ("HBM")
holds a counter track of the chip's global-memory bandwidth in use.  One simulated cycle
is written as one microsecond, so the timeline's ruler reads cycles.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

from aclsim.isa import EXEC_PIPES, Pipe
from aclsim.sim.report import SimReport

_SORT = {p: i for i, p in enumerate((Pipe.S, Pipe.MTE2, Pipe.MTE1, Pipe.V, Pipe.M, Pipe.FIX, Pipe.MTE3))}


def trace_events(reports: Iterable[SimReport], *, names: Iterable[str] | None = None,
                 hbm_track: bool = False) -> list[dict[str, Any]]:
    """The trace events of one or more launches, laid one after another on the time axis."""
    events: list[dict[str, Any]] = []
    offset = 0.0
    flow_id = 0
    labels = list(names) if names is not None else []
    for n, report in enumerate(reports):
        label = labels[n] if n < len(labels) else f"launch {n}"
        kind = "AIC" if any(t.busy[Pipe.M] for t in report.timelines) else "AIV"
        for tl in report.timelines:
            pid = n * 10_000 + tl.block
            events.append({"ph": "M", "pid": pid, "name": "process_name",
                           "args": {"name": f"{label}: {kind} core{tl.core} (block {tl.block})"}})
            events.append({"ph": "M", "pid": pid, "name": "process_sort_index", "args": {"sort_index": pid}})
            for pipe in EXEC_PIPES:
                events.append({"ph": "M", "pid": pid, "tid": int(pipe), "name": "thread_name",
                               "args": {"name": pipe.track_name}})
                events.append({"ph": "M", "pid": pid, "tid": int(pipe), "name": "thread_sort_index",
                               "args": {"sort_index": _SORT[pipe]}})
            for i, ins in enumerate(tl.instrs):
                if ins.pipe is Pipe.ALL:
                    continue
                args: dict[str, Any] = {"line": ins.where}
                if ins.reads:
                    args["reads"] = [str(a) for a in ins.reads]
                if ins.writes:
                    args["writes"] = [str(a) for a in ins.writes]
                args.update({k: v for k, v in ins.cost.items() if isinstance(v, (int, float, str))})
                name = ins.op
                if ins.flag is not None:
                    name = f"{ins.op}({ins.src.name}_{ins.dst.name}, {ins.event_id})"  # type: ignore[union-attr]
                events.append({"ph": "X", "pid": pid, "tid": int(ins.pipe), "name": name,
                               "cat": ins.pipe.track_name, "ts": offset + tl.start[i],
                               "dur": tl.end[i] - tl.start[i], "args": args})
            for s, w in tl.flows:
                flow_id += 1
                set_ins, wait_ins = tl.instrs[s], tl.instrs[w]
                events.append({"ph": "s", "pid": pid, "tid": int(set_ins.pipe), "ts": offset + tl.end[s],
                               "id": flow_id, "name": "flag", "cat": "flag"})
                events.append({"ph": "f", "bp": "e", "pid": pid, "tid": int(wait_ins.pipe),
                               "ts": offset + tl.start[w], "id": flow_id, "name": "flag", "cat": "flag"})
        if hbm_track:  # the chip's global-memory draw, a counter track in GB/s
            hbm_pid = n * 10_000 + 9_999
            events.append({"ph": "M", "pid": hbm_pid, "name": "process_name",
                           "args": {"name": f"{label}: HBM"}})
            to_gbs = report.chip.clock_hz / 1e9
            for t, draw in report.hbm_steps:
                events.append({"ph": "C", "pid": hbm_pid, "name": "HBM bandwidth (GB/s)", "ts": offset + t,
                               "args": {"GB/s": round(draw * to_gbs, 3)}})
        offset += report.total_cycles
    return events


def write_trace(path: str | os.PathLike[str], reports: Iterable[SimReport], *,
                names: Iterable[str] | None = None, hbm_track: bool = False) -> None:
    """Write ``{"traceEvents": [...]}``; open it in ui.perfetto.dev or chrome://tracing."""
    doc = {"traceEvents": trace_events(reports, names=names, hbm_track=hbm_track), "displayTimeUnit": "ns",
           "otherData": {"time_unit": "1 us in the viewer = 1 simulated cycle"}}
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(doc, fh)
