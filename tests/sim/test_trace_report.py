"""Trace JSON validity, the summary, the rich table and the PNG timeline."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console

from aclsim.arch import get_chip
from aclsim.isa import Access, Instr, Pipe, Space, set_flag, wait_flag
from aclsim.sim import simulate
from aclsim.sim.report import plot_timeline, render_table, summary
from aclsim.sim.trace import trace_events, write_trace

TINY = get_chip("tiny")


def _report():  # two blocks of copy-in, add, copy-out with flags
    def block(b: int) -> list[Instr]:
        gm, ub = Access(Space.GM, b * 512, 512), Access(Space.UB, 0, 512)
        out = Access(Space.UB, 512, 512)
        return [Instr(Pipe.MTE2, "data_copy", reads=(gm,), writes=(ub,), line=10, file="k.py"),
                set_flag(Pipe.MTE2, Pipe.V, 0), wait_flag(Pipe.MTE2, Pipe.V, 0),
                Instr(Pipe.V, "add", reads=(ub,), writes=(out,), cost={"repeats": 2}),
                set_flag(Pipe.V, Pipe.MTE3, 0), wait_flag(Pipe.V, Pipe.MTE3, 0),
                Instr(Pipe.MTE3, "data_copy", reads=(out,), writes=(Access(Space.GM, 4096 + b * 512, 512),))]
    return simulate(TINY, [block(0), block(1)])


def test_trace_json_has_the_required_fields(tmp_path: Path) -> None:
    report = _report()
    path = tmp_path / "t.json"
    write_trace(path, [report, report], names=["add", "add again"])
    doc = json.loads(path.read_text())
    events = doc["traceEvents"]
    slices = [e for e in events if e["ph"] == "X"]
    assert len(slices) == 2 * 2 * 7
    for e in slices:
        assert {"name", "ph", "ts", "dur", "pid", "tid", "cat"} <= set(e) and e["dur"] >= 0
    names = {e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    assert names == {"SCALAR", "VECTOR", "CUBE", "MTE1", "MTE2", "MTE3", "FIXP"}
    starts = [e for e in events if e["ph"] == "s"]
    finishes = [e for e in events if e["ph"] == "f"]
    assert len(starts) == len(finishes) == 2 * 2 * 2
    assert {e["id"] for e in starts} == {e["id"] for e in finishes}
    second = [e for e in slices if e["pid"] >= 10_000]
    assert min(e["ts"] for e in second) >= report.total_cycles  # launches laid end to end
    copy = next(e for e in slices if e["name"] == "data_copy")
    assert copy["args"]["line"] == "k.py:10" and copy["args"]["reads"] == ["GM[0:512]"]
    assert len({e["pid"] for e in events}) == 2 * 2  # one process per core and launch
    with_hbm = trace_events([report], hbm_track=True)
    counters = [e for e in with_hbm if e["ph"] == "C"]
    assert counters and all(e["name"] == "HBM bandwidth (GB/s)" and e["args"]["GB/s"] >= 0 for e in counters)
    assert max(e["args"]["GB/s"] for e in counters) <= TINY.dram_bandwidth / 1e9
    assert trace_events([]) == []


def test_summary_and_table() -> None:
    report = _report()
    s = summary(report)
    assert s["blocks"] == 2 and s["cycles"] == report.total_cycles
    assert s["pipes"]["VECTOR"]["instructions"] == 2 * 3 and s["gm_bytes"] == 2 * 1024
    console = Console(record=True, width=140)
    console.print(render_table(report, "add"))
    text = console.export_text()
    assert "MTE2" in text and "VECTOR" in text and "bottleneck" in text


def test_png_timeline(tmp_path: Path) -> None:
    path = tmp_path / "t.png"
    plot_timeline(_report(), path, title="add")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
