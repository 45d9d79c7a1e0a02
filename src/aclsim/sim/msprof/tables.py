"""msprof's and msOpProf's per-task and per-core tables, from ``SimReport``s.

- ``op_summary``: one row per launch with msprof's columns (``calibration.md`` 10.1: the
  base header, then the Atlas A2 PipeUtilization group of ``--task-time l1``), plus
  ``memory_bound`` before ``cube_utilization(%)``;
- ``PipeUtilization``, ``Memory`` and ``OpBasicInfo`` of msOpProf (10.2): one row per block
  and core type (``block_id``, ``sub_block_id`` ``cube0`` / ``vector0``).

Definitions (msprof's): ``*_ratio`` = busy cycles of the pipe / total cycles of the core;
``*_time(us)`` = busy cycles / clock in MHz; ``memory_bound`` = ``mte2_ratio / max(mac_ratio,
vec_ratio)``; ``cube_utilization(%)`` = ``aic_total_cycles / (clock * cube cores * task
duration)``.  What aclsim does not model is ``N/A`` (``docs/simulator.md``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from aclsim.isa import Pipe
from aclsim.sim.msprof.figures import (
    AIC,
    AIV,
    NA,
    SideFigures,
    Task,
    fmt,
    laid_out,
    launch_figures,
    mhz,
    placement,
    ratio,
    split_kind,
    task_type,
)
from aclsim.sim.report import SimReport

BASE_HEADER = (
    "Device_id", "Model ID", "Task ID", "Stream ID", "Op Name", "OP Type", "OP State", "Task Type",
    "Task Start Time(us)", "Task Duration(us)", "Task Wait Time(us)", "Block Num", "Mix Block Num",
    "HF32 Eligible", "Input Shapes", "Input Data Types", "Input Formats", "Output Shapes",
    "Output Data Types", "Output Formats", "Context ID",
)
PIPE_GROUP_HEADER = (
    "aicore_time(us)", "aic_total_cycles", "aic_mac_time(us)", "aic_mac_ratio", "aic_scalar_time(us)",
    "aic_scalar_ratio", "aic_mte1_time(us)", "aic_mte1_ratio", "aic_mte2_time(us)", "aic_mte2_ratio",
    "aic_fixpipe_time(us)", "aic_fixpipe_ratio", "aic_icache_miss_rate", "aiv_time(us)", "aiv_total_cycles",
    "aiv_vec_time(us)", "aiv_vec_ratio", "aiv_scalar_time(us)", "aiv_scalar_ratio", "aiv_mte2_time(us)",
    "aiv_mte2_ratio", "aiv_mte3_time(us)", "aiv_mte3_ratio", "aiv_icache_miss_rate", "memory_bound",
    "cube_utilization(%)",
)
OP_SUMMARY_HEADER = BASE_HEADER + PIPE_GROUP_HEADER

PIPE_UTILIZATION_HEADER = (
    "block_id", "sub_block_id", "aic_time(us)", "aic_total_cycles", "aic_cube_time(us)", "aic_cube_ratio",
    "aic_mte1_time(us)", "aic_mte1_ratio", "aic_mte2_time(us)", "aic_mte2_ratio", "aic_mte3_time(us)",
    "aic_mte3_ratio", "aic_mte3_active_bw(GB/s)", "aic_fixpipe_time(us)", "aic_fixpipe_ratio",
    "aic_fixpipe_active_bw(GB/s)", "aic_icache_miss_rate", "aic_scalar_time(us)", "aic_scalar_ratio",
    "aic_scalar_single_time(us)", "aic_scalar_dual_time(us)", "aic_scalar_mte1_stall_time(us)",
    "aic_scalar_mte2_stall_time(us)", "aic_scalar_mte3_stall_time(us)", "aic_scalar_cube_stall_time(us)",
    "aic_scalar_wait_ib_time(us)", "aic_scalar_wait_time(us)", "aiv_time(us)", "aiv_total_cycles",
    "aiv_vec_time(us)", "aiv_vec_ratio", "aiv_mte2_time(us)", "aiv_mte2_ratio", "aiv_mte2_active_bw(GB/s)",
    "aiv_mte3_time(us)", "aiv_mte3_ratio", "aiv_mte3_active_bw(GB/s)", "aiv_icache_miss_rate",
    "aiv_scalar_time(us)", "aiv_scalar_ratio", "aiv_scalar_single_time(us)", "aiv_scalar_dual_time(us)",
    "aiv_scalar_mte2_stall_time(us)", "aiv_scalar_mte3_stall_time(us)", "aiv_scalar_stall_by_ub_time(us)",
    "aiv_scalar_vector_stall_time(us)", "aiv_scalar_wait_ib_time(us)", "aiv_scalar_wait_time(us)",
)

MEMORY_HEADER = (
    "block_id", "sub_block_id", "aic_time(us)", "aic_total_cycles", "aic_l1_read_bw(GB/s)",
    "aic_l1_write_bw(GB/s)", "aic_main_mem_read_bw(GB/s)", "aic_main_mem_write_bw(GB/s)",
    "aic_mte1_instructions", "aic_mte1_ratio", "aic_mte2_instructions", "aic_mte2_ratio",
    "aic_mte3_instructions", "aic_mte3_ratio", "aiv_time(us)", "aiv_total_cycles", "aiv_ub_to_gm_bw(GB/s)",
    "aiv_gm_to_ub_bw(GB/s)", "aiv_main_mem_read_bw(GB/s)", "aiv_main_mem_write_bw(GB/s)",
    "aiv_mte2_instructions", "aiv_mte2_ratio", "aiv_mte3_instructions", "aiv_mte3_ratio",
    "read_main_memory_datas(KB)", "write_main_memory_datas(KB)", "GM_to_L1_datas(KB)",
    "GM_to_L1_bw_usage_rate(%)", "L0C_to_L1_datas(KB)", "L0C_to_L1_bw_usage_rate(%)", "L0C_to_GM_datas(KB)",
    "L0C_to_GM_bw_usage_rate(%)", "GM_to_UB_datas(KB)", "GM_to_UB_bw_usage_rate(%)", "UB_to_GM_datas(KB)",
    "UB_to_GM_bw_usage_rate(%)",
)

OP_BASIC_INFO_HEADER = ("Op Name", "Op Type", "Task Duration(us)", "Block Dim", "Mix Block Dim", "Device Id",
                        "Pid", "Current Freq", "Rated Freq")

#: msprof's single-operator Model ID (no model: UINT32_MAX)
NO_MODEL = 4294967295
#: bytes of msprof's "GB" (its bandwidth helpers divide by 2**30, calibration.md 10.1)
GIB = float(1 << 30)
_SUB_BLOCK = {AIC: "cube0", AIV: "vector0"}


def _sum(blocks: Sequence[dict[str, SideFigures]], side: str, pipe: Pipe | None = None) -> float:
    if pipe is None:
        return sum(b[side].total for b in blocks)
    return sum(b[side].busy[pipe] for b in blocks)


def _pipe_pair(total: float, busy: float, n: int, freq: float) -> list[Any]:
    """``time(us), ratio`` of one pipe over ``n`` blocks of a side (N/A when it did not run)."""
    if total <= 0:
        return [NA, NA]
    return [busy / n / freq, ratio(busy, total)]


def op_summary_row(task: Task, start_us: float) -> list[Any]:
    """The values of one launch's op_summary row (numbers unformatted), header order."""
    report = task.report
    kind = task_type(report)
    blocks = launch_figures(report, split_kind(report))
    freq = mhz(report)
    mix = kind.startswith("MIX")
    task_us = report.task_seconds * 1e6
    row: list[Any] = [task.device_id, NO_MODEL, task.task_id, task.stream_id, task.name, task.name, NA, kind,
                      start_us, task_us, NA, report.block_dim, report.block_dim if mix else 0,
                      "NO", NA, NA, NA, NA, NA, NA, NA]
    aic_n = sum(1 for b in blocks if b[AIC].used) or 1
    aiv_n = sum(1 for b in blocks if b[AIV].used) or 1
    aic_total, aiv_total = _sum(blocks, AIC), _sum(blocks, AIV)
    if aic_total > 0:
        row += [aic_total / aic_n / freq, round(aic_total)]
    else:
        row += [NA, NA]
    for pipe in (Pipe.M, Pipe.S, Pipe.MTE1, Pipe.MTE2, Pipe.FIX):
        row += _pipe_pair(aic_total, _sum(blocks, AIC, pipe), aic_n, freq)
    row.append(NA)  # aic_icache_miss_rate
    if aiv_total > 0:
        row += [aiv_total / aiv_n / freq, round(aiv_total)]
    else:
        row += [NA, NA]
    for pipe in (Pipe.V, Pipe.S, Pipe.MTE2, Pipe.MTE3):
        row += _pipe_pair(aiv_total, _sum(blocks, AIV, pipe), aiv_n, freq)
    row.append(NA)  # aiv_icache_miss_rate
    row.append(memory_bound(report))
    seconds = report.task_seconds
    chip = report.chip
    row.append(100.0 * aic_total / (chip.clock_hz * chip.cube_cores * seconds) if seconds > 0 else NA)
    return row


def memory_bound(report: SimReport) -> float | str:
    """``mte2_ratio / max(mac_ratio, vec_ratio)`` over the launch's blocks (their resident
    cycles as the total; N/A when neither the cube nor the vector pipe worked)."""
    busy = report.pipe_busy()
    compute = max(busy[Pipe.M], busy[Pipe.V])
    return busy[Pipe.MTE2] / compute if compute > 0 else NA


def op_summary_rows(tasks: Sequence[Task]) -> list[list[str]]:
    """op_summary's rows (formatted as msprof writes them), one per task."""
    starts = laid_out(tasks)
    return [_format(op_summary_row(task, start)) for task, start in zip(tasks, starts, strict=True)]


def _format(row: Sequence[Any]) -> list[str]:
    return [fmt(v) if isinstance(v, float) else str(v) for v in row]


def _bw(nbytes: float, cycles: float, freq: float) -> float | str:
    """Bytes over ``cycles`` at ``freq`` MHz, in msprof's GB/s (2**30 bytes)."""
    return nbytes / (cycles / (freq * 1e6)) / GIB if cycles > 0 else NA


def _usage(nbytes: float, cycles: float, peak_bytes_per_cycle: float) -> float | str:
    """Achieved over the per-core peak of the path, in %, capped at 100 (msOpProf's rate)."""
    if cycles <= 0 or peak_bytes_per_cycle <= 0:
        return NA
    return min(100.0, 100.0 * nbytes / cycles / peak_bytes_per_cycle)


def _pipe_cols(f: SideFigures, pipe: Pipe, freq: float, active_bw: bool) -> list[Any]:
    cols: list[Any] = [f.busy[pipe] / freq, ratio(f.busy[pipe], f.total)]
    if active_bw:
        cols.append(_bw(f.nbytes[pipe], f.busy[pipe], freq))
    return cols


def pipe_utilization_row(block: int, side: str, f: SideFigures, freq: float, sub: int = 0) -> list[Any]:
    """One PipeUtilization row: the block's ``side`` (``sub``: which AIV of a mixed group); the other
    side's columns are N/A."""
    na: list[Any] = [NA]
    if side == AIC:
        aic = [f.total / freq, round(f.total), *_pipe_cols(f, Pipe.M, freq, False),
               *_pipe_cols(f, Pipe.MTE1, freq, False), *_pipe_cols(f, Pipe.MTE2, freq, False),
               *_pipe_cols(f, Pipe.MTE3, freq, True), *_pipe_cols(f, Pipe.FIX, freq, True), NA,
               *_pipe_cols(f, Pipe.S, freq, False)] + na * 8
        aiv = na * 21
    else:
        aic = na * 25
        aiv = [f.total / freq, round(f.total), *_pipe_cols(f, Pipe.V, freq, False),
               *_pipe_cols(f, Pipe.MTE2, freq, True), *_pipe_cols(f, Pipe.MTE3, freq, True), NA,
               *_pipe_cols(f, Pipe.S, freq, False)] + na * 8
    return [block, _sub_block(side, sub), *aic, *aiv]


def _sub_block(side: str, sub: int) -> str:
    return _SUB_BLOCK[side] if side == AIC else f"vector{sub}"


def memory_row(block: int, side: str, f: SideFigures, report: SimReport, sub: int = 0) -> list[Any]:
    """One Memory row: bandwidths over the side's resident cycles, data in KB, usage rates
    against the chip's per-core path peaks (MTE2, MTE3, FIXP)."""
    chip, freq, t = report.chip, mhz(report), f.total
    r = f.route.get
    na: list[Any] = [NA]
    aic: list[Any]
    aiv: list[Any]
    if side == AIC:
        aic = [t / freq, round(t), _bw(r("l1_read", 0), t, freq), _bw(r("l1_write", 0), t, freq),
               _bw(r("read_main_memory", 0), t, freq), _bw(r("write_main_memory", 0), t, freq)]
        for pipe in (Pipe.MTE1, Pipe.MTE2, Pipe.MTE3):
            aic += [f.count[pipe], ratio(f.busy[pipe], t)]
        aiv = na * 10
    else:
        aic = na * 12
        aiv = [t / freq, round(t), _bw(r("UB_to_GM", 0), t, freq), _bw(r("GM_to_UB", 0), t, freq),
               _bw(r("read_main_memory", 0), t, freq), _bw(r("write_main_memory", 0), t, freq)]
        for pipe in (Pipe.MTE2, Pipe.MTE3):
            aiv += [f.count[pipe], ratio(f.busy[pipe], t)]
    data: list[Any] = [r("read_main_memory", 0) / 1024, r("write_main_memory", 0) / 1024]
    for route, peak, owner in (("GM_to_L1", chip.mte2_bytes_per_cycle, AIC),
                               ("L0C_to_L1", chip.fixpipe_bytes_per_cycle, AIC),
                               ("L0C_to_GM", chip.fixpipe_bytes_per_cycle, AIC),
                               ("GM_to_UB", chip.mte2_bytes_per_cycle, AIV),
                               ("UB_to_GM", chip.mte3_bytes_per_cycle, AIV)):
        data += [r(route, 0) / 1024, _usage(r(route, 0), t, peak)] if owner == side else na * 2
    return [block, _sub_block(side, sub), *aic, *aiv, *data]


def per_core_rows(report: SimReport) -> tuple[list[list[str]], list[list[str]]]:
    """msOpProf's PipeUtilization and Memory rows of one launch: per block, one row for each
    core type it used (``cube0``, ``vector0``)."""
    kind = split_kind(report)
    freq = mhz(report)
    pipe_rows, memory_rows = [], []
    for tl, figs in zip(report.timelines, launch_figures(report, kind), strict=True):
        block, sub = tl.block, 0
        if tl.kind:  # a core of a mixed group: the group is msOpProf's block_id
            block, _, sub = placement(tl)
        for side in (AIC, AIV):
            if figs[side].used:
                pipe_rows.append(_format(pipe_utilization_row(block, side, figs[side], freq, sub)))
                memory_rows.append(_format(memory_row(block, side, figs[side], report, sub)))
    return pipe_rows, memory_rows


def op_basic_info_row(task: Task) -> list[str]:
    """OpBasicInfo: the op, its type (``vector``, ``cube`` or ``mix``), task duration, block
    dims, device, this process, and the clock (MHz) as both current and rated frequency."""
    report = task.report
    kind = split_kind(report)
    op_type = "mix" if kind.startswith("MIX") else "vector" if kind == "AI_VECTOR_CORE" else "cube"
    freq = round(mhz(report))
    return _format([task.name, op_type, report.task_seconds * 1e6, report.block_dim,
                    report.block_dim if op_type == "mix" else 0, task.device_id, os.getpid(), freq, freq])
