"""msprof's op_summary and msOpProf's PipeUtilization / Memory / OpBasicInfo rows: exact
headers, and figures that agree with the SimReport they come from."""

from __future__ import annotations

import pytest

from aclsim.arch import get_chip
from aclsim.isa import EXEC_PIPES, Access, Instr, Pipe, Space, set_flag, wait_flag
from aclsim.sim import SimReport, simulate
from aclsim.sim.msprof import (
    MEMORY_HEADER,
    OP_BASIC_INFO_HEADER,
    OP_SUMMARY_HEADER,
    PIPE_UTILIZATION_HEADER,
    Task,
    op_basic_info_row,
    op_summary_rows,
    per_core_rows,
    task_type,
)
from aclsim.sim.msprof.figures import block_figures, split_kind

TINY = get_chip("tiny")
MHZ = TINY.clock_hz / 1e6

# calibration.md 10.1 (MSPROF BASE_HEADER; the A2 PipeUtilization group as msprof's own tests
# expect it) and 10.2 (OPPROF metric_csv_header.h, 910B)
BASE = ("Device_id, Model ID, Task ID, Stream ID, Op Name, OP Type, OP State, Task Type, "
        "Task Start Time(us), Task Duration(us), Task Wait Time(us), Block Num, Mix Block Num, "
        "HF32 Eligible, Input Shapes, Input Data Types, Input Formats, Output Shapes, Output Data Types, "
        "Output Formats, Context ID")
PIPE_GROUP = ("aicore_time(us), aic_total_cycles, aic_mac_time(us), aic_mac_ratio, aic_scalar_time(us), "
              "aic_scalar_ratio, aic_mte1_time(us), aic_mte1_ratio, aic_mte2_time(us), aic_mte2_ratio, "
              "aic_fixpipe_time(us), aic_fixpipe_ratio, aic_icache_miss_rate, aiv_time(us), "
              "aiv_total_cycles, aiv_vec_time(us), aiv_vec_ratio, aiv_scalar_time(us), aiv_scalar_ratio, "
              "aiv_mte2_time(us), aiv_mte2_ratio, aiv_mte3_time(us), aiv_mte3_ratio, aiv_icache_miss_rate, "
              "memory_bound, cube_utilization(%)")
PIPE_UTIL = ("block_id, sub_block_id, aic_time(us), aic_total_cycles, aic_cube_time(us), aic_cube_ratio, "
             "aic_mte1_time(us), aic_mte1_ratio, aic_mte2_time(us), aic_mte2_ratio, aic_mte3_time(us), "
             "aic_mte3_ratio, aic_mte3_active_bw(GB/s), aic_fixpipe_time(us), aic_fixpipe_ratio, "
             "aic_fixpipe_active_bw(GB/s), aic_icache_miss_rate, aic_scalar_time(us), aic_scalar_ratio, "
             "aic_scalar_single_time(us), aic_scalar_dual_time(us), aic_scalar_mte1_stall_time(us), "
             "aic_scalar_mte2_stall_time(us), aic_scalar_mte3_stall_time(us), "
             "aic_scalar_cube_stall_time(us), aic_scalar_wait_ib_time(us), aic_scalar_wait_time(us), "
             "aiv_time(us), aiv_total_cycles, aiv_vec_time(us), aiv_vec_ratio, aiv_mte2_time(us), "
             "aiv_mte2_ratio, aiv_mte2_active_bw(GB/s), aiv_mte3_time(us), aiv_mte3_ratio, "
             "aiv_mte3_active_bw(GB/s), aiv_icache_miss_rate, aiv_scalar_time(us), aiv_scalar_ratio, "
             "aiv_scalar_single_time(us), aiv_scalar_dual_time(us), aiv_scalar_mte2_stall_time(us), "
             "aiv_scalar_mte3_stall_time(us), aiv_scalar_stall_by_ub_time(us), "
             "aiv_scalar_vector_stall_time(us), aiv_scalar_wait_ib_time(us), aiv_scalar_wait_time(us)")
MEMORY_TAIL = ("aiv_ub_to_gm_bw(GB/s), aiv_gm_to_ub_bw(GB/s), aiv_main_mem_read_bw(GB/s), "
               "aiv_main_mem_write_bw(GB/s), aiv_mte2_instructions, aiv_mte2_ratio, aiv_mte3_instructions, "
               "aiv_mte3_ratio, read_main_memory_datas(KB), write_main_memory_datas(KB), "
               "GM_to_L1_datas(KB), GM_to_L1_bw_usage_rate(%)")
BASIC = ("Op Name, Op Type, Task Duration(us), Block Dim, Mix Block Dim, Device Id, Pid, Current Freq, "
         "Rated Freq")


def _split(text: str) -> tuple[str, ...]:
    return tuple(text.split(", "))


def _vector_block(b: int, scalar: bool = False) -> list[Instr]:
    gm, ub, out = Access(Space.GM, b * 4096, 4096), Access(Space.UB, 0, 4096), Access(Space.UB, 4096, 4096)
    code = [Instr(Pipe.MTE2, "data_copy", reads=(gm,), writes=(ub,), line=10, file="k.py"),
            set_flag(Pipe.MTE2, Pipe.V, 0, line=11, file="k.py"),
            wait_flag(Pipe.MTE2, Pipe.V, 0, line=12, file="k.py"),
            Instr(Pipe.V, "add", reads=(ub,), writes=(out,), cost={"repeats": 16}, line=13, file="k.py"),
            set_flag(Pipe.V, Pipe.MTE3, 0, line=14, file="k.py"),
            wait_flag(Pipe.V, Pipe.MTE3, 0, line=15, file="k.py"),
            Instr(Pipe.MTE3, "data_copy", reads=(out,), writes=(Access(Space.GM, 1 << 20 | b * 4096, 4096),),
                  line=16, file="k.py")]
    if scalar:
        code.insert(0, Instr(Pipe.S, "get_value", cost={"ops": 30}, line=9, file="k.py"))
    return code


def _cube_block(b: int) -> list[Instr]:
    a1, l0a, l0b = Access(Space.L1, 0, 8192), Access(Space.L0A, 0, 8192), Access(Space.L0B, 0, 8192)
    c = Access(Space.L0C, 0, 16384)
    return [Instr(Pipe.MTE2, "data_copy", reads=(Access(Space.GM, b * 8192, 8192),), writes=(a1,), line=20,
                  file="m.py"),
            set_flag(Pipe.MTE2, Pipe.MTE1, 0), wait_flag(Pipe.MTE2, Pipe.MTE1, 0),
            Instr(Pipe.MTE1, "load_data", reads=(a1,), writes=(l0a,), line=21, file="m.py"),
            Instr(Pipe.MTE1, "load_data", reads=(a1,), writes=(l0b,), line=22, file="m.py"),
            set_flag(Pipe.MTE1, Pipe.M, 0), wait_flag(Pipe.MTE1, Pipe.M, 0),
            Instr(Pipe.M, "mmad", reads=(l0a, l0b), writes=(c,), cost={"m": 64, "n": 64, "k": 64}, line=23,
                  file="m.py"),
            set_flag(Pipe.M, Pipe.FIX, 0), wait_flag(Pipe.M, Pipe.FIX, 0),
            Instr(Pipe.FIX, "fixpipe", reads=(c,), writes=(Access(Space.GM, 1 << 20 | b * 16384, 16384),),
                  line=24, file="m.py")]


def _row(report: SimReport, **task: object) -> dict[str, str]:
    rows = op_summary_rows([Task(report, "k", **task)])  # type: ignore[arg-type]
    assert len(rows) == 1 and len(rows[0]) == len(OP_SUMMARY_HEADER)
    return dict(zip(OP_SUMMARY_HEADER, rows[0], strict=True))


def _close(text: str, value: float, tol: float = 6e-4) -> None:
    assert float(text) == pytest.approx(value, abs=tol), (text, value)


def test_headers_are_msprofs() -> None:
    assert _split(BASE) + _split(PIPE_GROUP) == OP_SUMMARY_HEADER
    assert _split(PIPE_UTIL) == PIPE_UTILIZATION_HEADER
    assert _split(BASIC) == OP_BASIC_INFO_HEADER
    tail = _split(MEMORY_TAIL)
    start = MEMORY_HEADER.index(tail[0])
    assert MEMORY_HEADER[start:start + len(tail)] == tail
    assert MEMORY_HEADER[:4] == ("block_id", "sub_block_id", "aic_time(us)", "aic_total_cycles")
    assert MEMORY_HEADER[-2:] == ("UB_to_GM_datas(KB)", "UB_to_GM_bw_usage_rate(%)")
    assert len(set(MEMORY_HEADER)) == len(MEMORY_HEADER) == 36


def test_op_summary_of_a_vector_launch_agrees_with_the_report() -> None:
    report = simulate(TINY, [_vector_block(0, scalar=True), _vector_block(1, scalar=True), _vector_block(2)])
    row = _row(report, task_id=7, stream_id=3, start_us=12.5)
    assert (row["Op Name"], row["OP Type"], row["Task Type"], row["Task ID"], row["Stream ID"]) == (
        "k", "k", "AI_VECTOR_CORE", "7", "3")
    assert row["Block Num"] == "3" and row["Mix Block Num"] == "0" and row["Model ID"] == "4294967295"
    _close(row["Task Start Time(us)"], 12.5)
    _close(row["Task Duration(us)"], report.total_cycles / MHZ)
    resident = sum(tl.finish - tl.begin for tl in report.timelines)
    assert row["aiv_total_cycles"] == str(round(resident))
    _close(row["aiv_time(us)"], resident / 3 / MHZ)  # msprof: all blocks as if they started together
    busy = report.pipe_busy()
    for col, pipe in (("vec", Pipe.V), ("scalar", Pipe.S), ("mte2", Pipe.MTE2), ("mte3", Pipe.MTE3)):
        _close(row[f"aiv_{col}_time(us)"], busy[pipe] / 3 / MHZ)
        _close(row[f"aiv_{col}_ratio"], busy[pipe] / resident)
    assert busy[Pipe.S] > 0 and busy[Pipe.V] > 0
    _close(row["memory_bound"], busy[Pipe.MTE2] / busy[Pipe.V], 2e-3)
    for col in ("aicore_time(us)", "aic_total_cycles", "aic_mac_ratio", "aic_icache_miss_rate",
                "aiv_icache_miss_rate", "Task Wait Time(us)", "Input Shapes", "Context ID", "OP State"):
        assert row[col] == "N/A", col
    assert row["cube_utilization(%)"] == "0.000"


def test_op_summary_of_a_cube_launch_and_cube_utilization() -> None:
    report = simulate(TINY, [_cube_block(0), _cube_block(1)])
    assert task_type(report) == "AI_CORE"
    row = _row(report)
    resident = sum(tl.finish - tl.begin for tl in report.timelines)
    busy = report.pipe_busy()
    assert row["aic_total_cycles"] == str(round(resident)) and row["aiv_time(us)"] == "N/A"
    for col, pipe in (("mac", Pipe.M), ("mte1", Pipe.MTE1), ("mte2", Pipe.MTE2), ("fixpipe", Pipe.FIX)):
        _close(row[f"aic_{col}_time(us)"], busy[pipe] / 2 / MHZ)
        _close(row[f"aic_{col}_ratio"], busy[pipe] / resident)
    util = 100 * resident / (TINY.clock_hz * TINY.cube_cores * report.seconds)
    _close(row["cube_utilization(%)"], util)
    assert 0 < util <= 100


def test_mix_launch_splits_the_blocks_between_cube_and_vector_cores() -> None:
    mixed = [_cube_block(0) + _vector_block(0)]
    report = simulate(TINY, mixed)
    busy = report.pipe_busy()
    assert split_kind(report) == ("MIX_AIC" if busy[Pipe.M] >= busy[Pipe.V] else "MIX_AIV")
    row = _row(report)
    assert row["Task Type"].startswith("MIX_") and row["Mix Block Num"] == "1"
    # MTE2 into L1 is the cube core's, into UB the vector core's; together the block's MTE2
    figs = block_figures(report.timelines[0], split_kind(report))
    tl = report.timelines[0]
    assert figs["aic"].busy[Pipe.MTE2] > 0 and figs["aiv"].busy[Pipe.MTE2] > 0
    assert figs["aic"].busy[Pipe.MTE2] + figs["aiv"].busy[Pipe.MTE2] == pytest.approx(tl.busy[Pipe.MTE2])
    for pipe in EXEC_PIPES:
        assert figs["aic"].busy[pipe] + figs["aiv"].busy[pipe] == pytest.approx(tl.busy[pipe])
    assert figs["aic"].busy[Pipe.V] == 0 and figs["aiv"].busy[Pipe.M] == 0
    # a launch whose vector pipe outworks its cube is MIX_AIV
    heavy = [_cube_block(0) + [Instr(Pipe.V, "exp", reads=(Access(Space.UB, 0, 256),),
                                     writes=(Access(Space.UB, 256, 256),), cost={"cycles": 100_000})]]
    assert task_type(simulate(TINY, heavy)) == "MIX_AIV"


def test_coupled_chip_is_ai_core_with_the_split_layout() -> None:
    report = simulate(get_chip("310P"), [_vector_block(0)])
    row = _row(report)
    assert row["Task Type"] == "AI_CORE" and row["aiv_vec_ratio"] != "N/A"


def test_tasks_without_a_start_are_laid_one_after_another() -> None:
    a = simulate(TINY, [_vector_block(0)])
    b = simulate(TINY, [_cube_block(0)])
    rows = [dict(zip(OP_SUMMARY_HEADER, r, strict=True))
            for r in op_summary_rows([Task(a, "a"), Task(b, "b"), Task(a, "a", start_us=1000.0)])]
    _close(rows[0]["Task Start Time(us)"], 0.0)
    _close(rows[1]["Task Start Time(us)"], a.microseconds)
    _close(rows[2]["Task Start Time(us)"], 1000.0)


def test_pipe_utilization_and_memory_rows_per_block() -> None:
    blocks = [_vector_block(b, scalar=b == 0) for b in range(6)]  # 6 blocks on 4 cores: two waves
    report = simulate(TINY, blocks)
    pipe_rows, memory_rows = per_core_rows(report)
    assert len(pipe_rows) == len(memory_rows) == 6
    for tl, prow, mrow in zip(report.timelines, pipe_rows, memory_rows, strict=True):
        p = dict(zip(PIPE_UTILIZATION_HEADER, prow, strict=True))
        m = dict(zip(MEMORY_HEADER, mrow, strict=True))
        span = tl.finish - tl.begin
        assert p["block_id"] == m["block_id"] == str(tl.block) and p["sub_block_id"] == "vector0"
        assert p["aiv_total_cycles"] == m["aiv_total_cycles"] == str(round(span))
        _close(p["aiv_time(us)"], span / MHZ)
        for col, pipe in (("vec", Pipe.V), ("mte2", Pipe.MTE2), ("mte3", Pipe.MTE3), ("scalar", Pipe.S)):
            _close(p[f"aiv_{col}_time(us)"], tl.busy[pipe] / MHZ)
            _close(p[f"aiv_{col}_ratio"], tl.busy[pipe] / span)
        # active bandwidth: the pipe's bytes over its busy time, in 2**30 bytes per second
        _close(p["aiv_mte2_active_bw(GB/s)"], 4096 / (tl.busy[Pipe.MTE2] / TINY.clock_hz) / 2**30, 2e-3)
        assert p["aic_time(us)"] == p["aiv_icache_miss_rate"] == p["aiv_scalar_wait_time(us)"] == "N/A"
        assert m["aiv_mte2_instructions"] == m["aiv_mte3_instructions"] == "1"
        _close(m["GM_to_UB_datas(KB)"], 4.0)
        _close(m["UB_to_GM_datas(KB)"], 4.0)
        _close(m["read_main_memory_datas(KB)"], tl.gm_read / 1024)
        _close(m["write_main_memory_datas(KB)"], tl.gm_write / 1024)
        usage = 100 * 4096 / span / TINY.mte2_bytes_per_cycle
        _close(m["GM_to_UB_bw_usage_rate(%)"], min(usage, 100.0))
        assert m["GM_to_L1_datas(KB)"] == m["aic_mte1_instructions"] == "N/A"
    total_kb = sum(float(dict(zip(MEMORY_HEADER, r, strict=True))[c]) for r in memory_rows
                   for c in ("read_main_memory_datas(KB)", "write_main_memory_datas(KB)"))
    assert total_kb == pytest.approx(report.gm_bytes / 1024)


def test_cube_rows_and_op_basic_info() -> None:
    report = simulate(TINY, [_cube_block(0)])
    pipe_rows, memory_rows = per_core_rows(report)
    p = dict(zip(PIPE_UTILIZATION_HEADER, pipe_rows[0], strict=True))
    m = dict(zip(MEMORY_HEADER, memory_rows[0], strict=True))
    tl = report.timelines[0]
    assert p["sub_block_id"] == "cube0" and p["aiv_time(us)"] == "N/A"
    _close(p["aic_cube_ratio"], tl.busy[Pipe.M] / (tl.finish - tl.begin))
    _close(p["aic_fixpipe_active_bw(GB/s)"], 16384 / (tl.busy[Pipe.FIX] / TINY.clock_hz) / 2**30, 2e-3)
    assert m["aic_mte1_instructions"] == "2" and m["aic_mte2_instructions"] == "1"
    _close(m["GM_to_L1_datas(KB)"], 8.0)
    _close(m["L0C_to_GM_datas(KB)"], 16.0)
    assert m["GM_to_UB_datas(KB)"] == "N/A"
    info = dict(zip(OP_BASIC_INFO_HEADER, op_basic_info_row(Task(report, "mm")), strict=True))
    got = (info["Op Name"], info["Op Type"], info["Block Dim"], info["Mix Block Dim"])
    assert got == ("mm", "cube", "1", "0")
    _close(info["Task Duration(us)"], report.microseconds)
    assert info["Current Freq"] == info["Rated Freq"] == str(round(MHZ))


def test_an_empty_launch_writes_no_figures() -> None:
    report = simulate(TINY, [])
    row = _row(report)
    assert row["Block Num"] == "0" and row["aiv_time(us)"] == row["cube_utilization(%)"] == "N/A"
    assert per_core_rows(report) == ([], [])


def test_the_docstring_examples_hold() -> None:
    import doctest

    import aclsim.sim.msprof
    import aclsim.sim.msprof.writer

    for module in (aclsim.sim.msprof, aclsim.sim.msprof.writer):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__
