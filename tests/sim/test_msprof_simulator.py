"""msOpProf simulator-style outputs: per sub-core instr_exe / code_exe tables and the per-pipe
trace.json, checked against the SimReport (counts, cycles, times, flows)."""

from __future__ import annotations

from collections import Counter

import pytest

from aclsim.arch import get_chip
from aclsim.isa import EXEC_PIPES, Access, Instr, Pipe, Space, pipe_barrier, set_flag, wait_flag
from aclsim.sim import CoreTimeline, SimReport, simulate
from aclsim.sim.msprof import (
    CODE_EXE_HEADER,
    INSTR_EXE_HEADER,
    SubCore,
    code_exe_rows,
    instr_exe_rows,
    subcores,
    trace_events,
)

TINY = get_chip("tiny")
MHZ = TINY.clock_hz / 1e6


def _block(b: int, tiles: int = 3) -> list[Instr]:
    """A double-buffered vector loop: copy in, add, copy out, with hand flags; a barrier."""
    code: list[Instr] = []
    for t in range(tiles):
        ub, out = Access(Space.UB, (t % 2) * 1024, 1024), Access(Space.UB, 4096 + t % 2 * 1024, 1024)
        if t >= 2:
            code.append(wait_flag(Pipe.V, Pipe.MTE2, t % 2, line=5, file="k.py"))
        code += [Instr(Pipe.MTE2, "data_copy", reads=(Access(Space.GM, (b * tiles + t) * 1024, 1024),),
                       writes=(ub,), line=6, file="k.py"),
                 set_flag(Pipe.MTE2, Pipe.V, t % 2, line=7, file="k.py"),
                 wait_flag(Pipe.MTE2, Pipe.V, t % 2, line=8, file="k.py"),
                 Instr(Pipe.V, "add", reads=(ub,), writes=(out,), cost={"repeats": 4}, line=9, file="k.py"),
                 Instr(Pipe.S, "get_value", cost={"ops": 3}, line=10, file="k.py")]
        if t + 2 < tiles:
            code.append(set_flag(Pipe.V, Pipe.MTE2, t % 2, line=11, file="k.py"))
        code += [set_flag(Pipe.V, Pipe.MTE3, 0, line=12, file="k.py"),
                 wait_flag(Pipe.V, Pipe.MTE3, 0, line=13, file="k.py"),
                 Instr(Pipe.MTE3, "data_copy", reads=(out,),
                       writes=(Access(Space.GM, 1 << 20 | (b * tiles + t) * 1024, 1024),), line=14,
                       file="k.py")]
    code.append(pipe_barrier(Pipe.ALL, line=15, file="k.py"))
    return code


def _cube(b: int) -> list[Instr]:
    l1, l0a, c = Access(Space.L1, 0, 2048), Access(Space.L0A, 0, 2048), Access(Space.L0C, 0, 4096)
    return [Instr(Pipe.MTE2, "data_copy", reads=(Access(Space.GM, b * 2048, 2048),), writes=(l1,), line=30,
                  file="m.py"),
            set_flag(Pipe.MTE2, Pipe.MTE1, 0, line=31, file="m.py"),
            wait_flag(Pipe.MTE2, Pipe.MTE1, 0, line=32, file="m.py"),
            Instr(Pipe.MTE1, "load_data", reads=(l1,), writes=(l0a,), line=33, file="m.py"),
            set_flag(Pipe.MTE1, Pipe.M, 0, line=34, file="m.py"),
            wait_flag(Pipe.MTE1, Pipe.M, 0, line=35, file="m.py"),
            Instr(Pipe.M, "mmad", reads=(l0a,), writes=(c,), cost={"m": 32, "n": 32, "k": 32}, line=36,
                  file="m.py"),
            set_flag(Pipe.M, Pipe.V, 0, line=37, file="m.py"),
            wait_flag(Pipe.M, Pipe.V, 0, line=38, file="m.py")]


def _timelines(sub: SubCore) -> list[CoreTimeline]:
    return list({id(tl): tl for tl, _ in sub.items}.values())


def _report(nblocks: int = 6) -> SimReport:
    return simulate(TINY, [_block(b) for b in range(nblocks)])  # tiny has 4 cores: two waves


def test_subcores_hold_every_instruction_once_in_msopprof_names() -> None:
    report = _report()
    subs = subcores(report)
    assert [s.name for s in subs] == ["core0.veccore0", "core0.veccore1", "core1.veccore0", "core1.veccore1"]
    assert sum(len(s.items) for s in subs) == report.instructions
    # blocks 0 and 4 ran on core 0 in waves 0 and 1: both on core0.veccore0, in that order
    assert [tl.block for tl in _timelines(subs[0])] == [0, 4]
    mixed = simulate(TINY, [_cube(0) + _block(0)])
    assert [s.name for s in subcores(mixed)] == ["core0.cubecore0", "core0.veccore0"]


def test_instr_exe_counts_and_cycles_agree_with_the_report() -> None:
    report = _report()
    total = 0
    per_pipe: Counter[str] = Counter()
    for sub in subcores(report):
        rows = instr_exe_rows(report, sub)
        assert all(len(r) == len(INSTR_EXE_HEADER) for r in rows)
        for _instr, addr, pipe, count, cycles, time_us, _detail in rows:
            assert addr == "N/A"
            total += int(count)
            per_pipe[pipe] += float(cycles)
            assert float(time_us) == pytest.approx(float(cycles) / MHZ, abs=6e-4)
        adds = [r for r in rows if r[0] == "add"]
        assert len(adds) == 1 and adds[0][6] == "k.py:9 UB->UB"  # one row per site, whatever the addresses
        waits = {r[6] for r in rows if r[0] == "WAIT_FLAG"}
        assert "k.py:8 PIPE:MTE2,TRIGGERPIPE:VEC,FLAGID:0" in waits
    assert total == report.instructions
    busy = report.pipe_busy()
    for pipe in EXEC_PIPES:
        assert per_pipe[pipe.track_name] == pytest.approx(busy[pipe], abs=0.05)


def test_code_exe_sums_to_the_busy_cycles_of_the_subcore() -> None:
    report = _report()
    for sub in subcores(report):
        rows = code_exe_rows(report, sub)
        assert all(len(r) == len(CODE_EXE_HEADER) for r in rows)
        timelines = _timelines(sub)
        busy = sum(sum(tl.busy) for tl in timelines)
        assert sum(float(r[2]) for r in rows) == pytest.approx(busy, abs=0.01 * len(rows))
        assert sum(int(r[1]) for r in rows) == sum(len(tl.instrs) for tl in timelines)
        by_line = {r[0]: r for r in rows}
        assert by_line["k.py:9"][1] == str(3 * len(timelines))  # three adds per block
        vec = sum(tl.busy[Pipe.V] for tl in timelines)
        assert float(by_line["k.py:9"][2]) == pytest.approx(vec, abs=0.01)


def test_trace_has_a_process_per_pipe_and_slices_in_microseconds() -> None:
    report = _report(2)
    events = trace_events(report)
    names = {e["pid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    labels = {e["pid"]: e["args"]["labels"] for e in events
              if e["ph"] == "M" and e["name"] == "process_labels"}
    assert set(names.values()) == {"SCALAR", "MTE2", "VECTOR", "MTE3", "ALL"}
    assert set(labels.values()) == {"core0.veccore0", "core0.veccore1"}
    slices = [e for e in events if e["ph"] == "X"]
    assert len(slices) == report.instructions
    tl = report.timelines[0]
    pid_v = next(p for p, name in names.items() if name == "VECTOR" and labels[p] == "core0.veccore0")
    adds = [e for e in slices if e["pid"] == pid_v and e["name"] == "add"]
    starts = [tl.start[i] / MHZ for i, ins in enumerate(tl.instrs) if ins.op == "add"]
    assert [e["ts"] for e in adds] == pytest.approx(starts)
    assert sum(e["dur"] for e in adds) == pytest.approx(tl.busy[Pipe.V] / MHZ)
    copy = next(e for e in slices if e["name"] == "data_copy")
    assert copy["args"]["code"] == "k.py:6" and copy["args"]["process_bytes"] == 1024
    assert copy["args"]["detail"].startswith("r:GM[")
    for e in slices:  # no two slices of one lane overlap
        assert e["dur"] >= 0
    lanes: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for e in slices:
        lanes.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"]))
    for spans in lanes.values():
        spans.sort()
        assert all(a[1] <= b[0] + 1e-9 for a, b in zip(spans, spans[1:], strict=False))


def test_flow_arrows_pair_each_set_flag_with_its_wait() -> None:
    report = _report(2)
    events = trace_events(report)
    names = {e["pid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    steps = {e["id"]: e for e in events if e["ph"] == "t"}
    assert set(starts) == set(steps)
    assert len(starts) == sum(len(tl.flows) for tl in report.timelines)
    cats = Counter(e["cat"] for e in starts.values())
    # per block: 3 MTE2->V, 1 V->MTE2 (the third tile reuses the first buffer), 3 V->MTE3
    assert cats == {"MTE2ToVECTOR": 6, "VECTORToMTE2": 2, "VECTORToMTE3": 6}
    for fid, s in starts.items():
        t = steps[fid]
        assert s["name"] == t["name"] == "flow" and s["cat"] == t["cat"]
        src, dst = s["cat"].split("To")
        assert names[s["pid"]] == src and names[t["pid"]] == dst
        assert s["ts"] <= t["ts"]


def test_flows_between_cube_and_vector_cores_are_in_the_merged_trace_only() -> None:
    report = simulate(TINY, [_cube(0) + _block(0)])
    merged = [e for e in trace_events(report) if e["ph"] == "s"]
    assert "CUBEToVECTOR" in {e["cat"] for e in merged}
    subs = subcores(report)
    alone = [e for sub in subs for e in trace_events(report, [sub]) if e["ph"] == "s"]
    assert len(alone) == len(merged) - 1


def test_a_coupled_chip_names_one_ai_core_per_block() -> None:
    report = simulate(get_chip("310P"), [_block(0), _block(1)])
    assert [s.name for s in subcores(report)] == ["core0.veccore0", "core1.veccore0"]
