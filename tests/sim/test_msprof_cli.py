"""``aclsim profile --msprof DIR`` lays the files out as msprof / msOpProf do."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from aclsim.cli import main
from aclsim.sim.msprof import (
    CODE_EXE_HEADER,
    INSTR_EXE_HEADER,
    MEMORY_HEADER,
    OP_BASIC_INFO_HEADER,
    OP_SUMMARY_HEADER,
    PIPE_UTILIZATION_HEADER,
)

ROOT = Path(__file__).resolve().parents[2]


def _read(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    return rows[0], [dict(zip(rows[0], r, strict=True)) for r in rows[1:]]


def test_profile_writes_msprof_outputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "prof"
    rc = main(["profile", str(ROOT / "examples" / "10_kernel_add.py"), "--msprof", str(out)])
    assert rc == 0, capsys.readouterr().out
    assert "msprof:" in capsys.readouterr().out
    summary = sorted(out.glob("op_summary_*.csv"))
    assert len(summary) == 1
    header, rows = _read(summary[0])
    assert tuple(header) == OP_SUMMARY_HEADER and len(rows) == 1
    row = rows[0]
    assert (row["Op Name"], row["Task Type"], row["Block Num"]) == ("add_custom", "AI_VECTOR_CORE", "8")
    duration = float(row["Task Duration(us)"])
    assert duration > 0 and float(row["aiv_time(us)"]) <= duration
    [opprof] = sorted(out.glob("OPPROF_*_000_add_custom"))
    for name, expected, count in (("OpBasicInfo.csv", OP_BASIC_INFO_HEADER, 1),
                                  ("PipeUtilization.csv", PIPE_UTILIZATION_HEADER, 8),
                                  ("Memory.csv", MEMORY_HEADER, 8)):
        header, rows = _read(opprof / name)
        assert tuple(header) == expected and len(rows) == count, name
    info = _read(opprof / "OpBasicInfo.csv")[1][0]
    assert info["Task Duration(us)"] == row["Task Duration(us)"] and info["Op Type"] == "vector"
    sim = opprof / "simulator"
    cores = sorted(p.name for p in sim.iterdir() if p.is_dir())
    assert cores == [f"core{c}.veccore{k}" for c in range(4) for k in range(2)]
    calls = 0
    for core in cores:
        header, rows = _read(sim / core / f"{core}_instr_exe.csv")
        assert tuple(header) == INSTR_EXE_HEADER
        calls += sum(int(r["call_count"]) for r in rows)
        header, rows = _read(sim / core / f"{core}_code_exe.csv")
        assert tuple(header) == CODE_EXE_HEADER and all("10_kernel_add.py:" in r["code"] for r in rows)
        doc = json.loads((sim / core / "trace.json").read_text())
        assert any(e["ph"] == "X" for e in doc["traceEvents"])
    merged = json.loads((sim / "trace.json").read_text())["traceEvents"]
    assert sum(1 for e in merged if e["ph"] == "X") == calls
    pipes = {e["args"]["name"] for e in merged if e.get("name") == "process_name"}
    assert pipes >= {"MTE2", "VECTOR", "MTE3"}


SCRIPT = """
import importlib.util, sys
import numpy as np
import aclsim
spec = importlib.util.spec_from_file_location("kadd", {example!r})
kadd = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kadd)
aclsim.init(chip="910B")
aclsim.set_device(0)
stream = aclsim.create_stream()
n = kadd.TOTAL_LENGTH * 2
dx, dy, dz = aclsim.malloc(n), aclsim.malloc(n), aclsim.malloc(n)
host = np.ones(n, dtype=np.uint8)
aclsim.memcpy_async(dx, n, host, n, aclsim.MemcpyKind.HOST_TO_DEVICE, stream)  # the stream's clock moves
kadd.add_custom[8, None, stream](dx, dy, dz)
kadd.add_custom[4, None, stream](dx, dy, dz)
aclsim.synchronize_stream(stream)
print("stream handle", stream.handle)
for d in (dx, dy, dz):
    aclsim.free(d)
aclsim.destroy_stream(stream)
aclsim.reset_device(0)
aclsim.finalize()
"""


def test_task_start_and_stream_come_from_the_launch_stream(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "two.py"
    script.write_text(SCRIPT.format(example=str(ROOT / "examples" / "10_kernel_add.py")))
    assert main(["profile", str(script), "--msprof", str(tmp_path / "p")]) == 0
    handle = capsys.readouterr().out.split("stream handle ")[1].split()[0]
    [summary] = sorted((tmp_path / "p").glob("op_summary_*.csv"))
    _, rows = _read(summary)
    assert [r["Task ID"] for r in rows] == ["0", "1"] and [r["Block Num"] for r in rows] == ["8", "4"]
    assert {r["Stream ID"] for r in rows} == {handle}
    first, second = (float(r["Task Start Time(us)"]) for r in rows)
    assert first > 0  # after the copy queued before it on the stream
    assert second == pytest.approx(first + float(rows[0]["Task Duration(us)"]), abs=2e-3)
    assert len(sorted((tmp_path / "p").glob("OPPROF_*"))) == 2


def test_an_unwritable_msprof_directory_is_a_clear_error(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    rc = main(["profile", str(ROOT / "examples" / "10_kernel_add.py"), "--msprof", str(blocker)])
    out = capsys.readouterr().out
    assert rc == 2 and "cannot write the msprof outputs" in " ".join(out.split())
