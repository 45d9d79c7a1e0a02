"""``aclsim profile SCRIPT``: every launch profiled, trace/PNG/JSON written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aclsim.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_profile_kernel_add(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace, png, js = tmp_path / "t.json", tmp_path / "t.png", tmp_path / "s.json"
    script = ROOT / "examples" / "10_kernel_add.py"
    rc = main(["profile", str(script), "--trace", str(trace), "--png", str(png), "--json", str(js)])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "1 kernel launch(es)" in out and "MTE2" in out and "VECTOR" in out
    doc = json.loads(trace.read_text())
    assert any(e.get("ph") == "X" for e in doc["traceEvents"])
    assert png.read_bytes()[:4] == b"\x89PNG"
    summaries = json.loads(js.read_text())
    assert summaries[0]["name"] == "add_custom" and summaries[0]["blocks"] == 8
    assert not any(e.get("ph") == "C" for e in doc["traceEvents"])
    assert main(["profile", str(script), "--trace", str(trace), "--hbm-track"]) == 0
    counters = [e for e in json.loads(trace.read_text())["traceEvents"] if e.get("ph") == "C"]
    assert counters and all(e["name"] == "HBM bandwidth (GB/s)" for e in counters)


def test_profile_passes_script_arguments_and_exit_status(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "s.py"
    script.write_text("import sys\nprint('args', sys.argv[1:])\nsys.exit(int(sys.argv[1]))\n")
    assert main(["profile", str(script), "--", "3"]) == 3
    out = capsys.readouterr().out
    assert "args ['3']" in out and "0 kernel launch(es)" in out
    assert main(["profile", str(tmp_path / "missing.py")]) == 2
