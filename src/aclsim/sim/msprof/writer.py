"""Write msprof / msOpProf-style output directories (``aclsim profile --msprof DIR``)."""

from __future__ import annotations

import csv
import json
import os
import re
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from aclsim.sim.msprof.figures import Task
from aclsim.sim.msprof.simulator import (
    CODE_EXE_HEADER,
    INSTR_EXE_HEADER,
    code_exe_rows,
    instr_exe_rows,
    subcores,
    trace_events,
)
from aclsim.sim.msprof.tables import (
    MEMORY_HEADER,
    OP_BASIC_INFO_HEADER,
    OP_SUMMARY_HEADER,
    PIPE_UTILIZATION_HEADER,
    op_basic_info_row,
    op_summary_rows,
    per_core_rows,
)


def write_csv(path: str | os.PathLike[str], header: Sequence[str], rows: Iterable[Sequence[str]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)


def _write_json(path: Path, events: list[dict[str, object]]) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump({"traceEvents": events, "displayTimeUnit": "ns"}, fh)


def write_opprof(directory: str | os.PathLike[str], task: Task) -> Path:
    """One launch as msOpProf lays it out in ``directory``: ``OpBasicInfo.csv``,
    ``PipeUtilization.csv``, ``Memory.csv`` and ``simulator/`` (``trace.json`` of every
    sub-core, and per sub-core ``core{N}.{sub}/`` with its ``trace.json``,
    ``core{N}.{sub}_instr_exe.csv`` and ``core{N}.{sub}_code_exe.csv``)."""
    out = Path(directory)
    sim = out / "simulator"
    sim.mkdir(parents=True, exist_ok=True)
    report = task.report
    write_csv(out / "OpBasicInfo.csv", OP_BASIC_INFO_HEADER, [op_basic_info_row(task)])
    pipe_rows, memory_rows = per_core_rows(report)
    write_csv(out / "PipeUtilization.csv", PIPE_UTILIZATION_HEADER, pipe_rows)
    write_csv(out / "Memory.csv", MEMORY_HEADER, memory_rows)
    subs = subcores(report)
    _write_json(sim / "trace.json", trace_events(report, subs))
    for sub in subs:
        folder = sim / sub.name
        folder.mkdir(exist_ok=True)
        write_csv(folder / f"{sub.name}_instr_exe.csv", INSTR_EXE_HEADER, instr_exe_rows(report, sub))
        write_csv(folder / f"{sub.name}_code_exe.csv", CODE_EXE_HEADER, code_exe_rows(report, sub))
        _write_json(folder / "trace.json", trace_events(report, [sub]))
    return out


def write_msprof(directory: str | os.PathLike[str], tasks: Sequence[Task], *, stamp: str | None = None
                 ) -> list[Path]:
    """Write ``op_summary_{stamp}.csv`` (one row per task) into ``directory`` and, per task,
    an ``OPPROF_{stamp}_{n}_{name}/`` folder (:func:`write_opprof`).  ``stamp`` defaults to
    the local time as msprof writes it (``%Y%m%d%H%M%S``).  Returns the paths written at the
    top level (the summary first).

    >>> import tempfile
    >>> from aclsim.arch import get_chip
    >>> from aclsim.isa import Instr, Pipe
    >>> from aclsim.sim import simulate
    >>> report = simulate(get_chip("tiny"), [[Instr(Pipe.V, "add", cost={"cycles": 10})]])
    >>> with tempfile.TemporaryDirectory() as out:
    ...     [p.name for p in write_msprof(out, [Task(report, "add")], stamp="1")]
    ['op_summary_1.csv', 'OPPROF_1_000_add']
    """
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    stamp = stamp or time.strftime("%Y%m%d%H%M%S")
    summary = out / f"op_summary_{stamp}.csv"
    write_csv(summary, OP_SUMMARY_HEADER, op_summary_rows(tasks))
    written = [summary]
    for n, task in enumerate(tasks):
        safe = re.sub(r"[^A-Za-z0-9_]+", "_", task.name).strip("_") or "kernel"
        written.append(write_opprof(out / f"OPPROF_{stamp}_{n:03d}_{safe}", task))
    return written
