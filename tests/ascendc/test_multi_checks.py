"""The C++ front's launch checks: races reported with both C++ lines under ``ACLSIM_RACES=fail|report|off``,
and writes to GmAlloc memory through raw pointers reported as unrecorded."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SOURCE = Path(__file__).with_name("cpp") / "races_raw.cpp"


def run_program(exe: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run a host program with this test's Python as the library's interpreter (as conftest's)."""
    full = {**os.environ, "ACLSIM_PYTHON": sys.executable, **env}
    return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=300, env=full)


def line_of(marker: str) -> int:
    for i, text in enumerate(SOURCE.read_text().splitlines(), 1):
        if marker in text:
            return i
    raise AssertionError(marker)


@pytest.fixture(scope="module")
def prog(host_program) -> Path:
    return host_program([SOURCE], "races_raw")


def test_a_race_fails_the_launch_by_default_with_both_cxx_lines(prog) -> None:
    done = run_program(prog, "racy", env={"ACLSIM_CHIP": "tiny"})
    assert done.returncode == 1, done.stderr
    assert "RAW race" in done.stderr
    assert f"races_raw.cpp:{line_of('// COPY-IN')}" in done.stderr
    assert f"races_raw.cpp:{line_of('// MULS')}" in done.stderr


def test_races_report_prints_them_and_the_launch_runs(prog) -> None:
    done = run_program(prog, "racy", env={"ACLSIM_CHIP": "tiny", "ACLSIM_RACES": "report"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "3", "6", "9"]
    races = [ln for ln in done.stderr.splitlines() if ln.startswith("aclsim: racy<<<1>>>: RAW race")]
    assert len(races) == 1
    assert f"races_raw.cpp:{line_of('// COPY-IN')}" in races[0]
    assert f"races_raw.cpp:{line_of('// MULS')}" in races[0]


def test_races_off_runs_without_a_check(prog) -> None:
    done = run_program(prog, "racy", env={"ACLSIM_CHIP": "tiny", "ACLSIM_RACES": "off"})
    assert done.returncode == 0, done.stderr
    assert "race" not in done.stderr


def test_auto_sync_gives_the_racy_kernel_its_flags(prog) -> None:
    """ACLSIM_AUTO_SYNC=1: the flags aclsim's auto-sync infers (the device build's --cce-auto-sync)."""
    done = run_program(prog, "racy", env={"ACLSIM_CHIP": "tiny", "ACLSIM_AUTO_SYNC": "1"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "3", "6", "9"]
    assert "race" not in done.stderr


def test_races_option_is_validated(prog) -> None:
    done = run_program(prog, "racy", env={"ACLSIM_CHIP": "tiny", "ACLSIM_RACES": "sometimes"})
    assert done.returncode == 1
    assert "ACLSIM_RACES='sometimes' is not one of fail, report, off" in done.stderr
    done = run_program(prog, "racy", env={"ACLSIM_CHIP": "tiny", "ACLSIM_AUTO_SYNC": "maybe"})
    assert done.returncode == 1
    assert "ACLSIM_AUTO_SYNC='maybe' is not one of" in done.stderr


def test_a_raw_pointer_store_is_reported_as_unrecorded(prog) -> None:
    done = run_program(prog, "raw", env={"ACLSIM_CHIP": "tiny"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(100 + i) for i in range(16)] + ["16.5", "17.5", "18.5", "19.5"]
    found = [ln for ln in done.stderr.splitlines() if "write no instruction recorded" in ln]
    assert len(found) == 1, done.stderr
    # halves 16..19 are bytes 32..39 of y; the DataCopy's 32 bytes before them are recorded
    assert "bytes 32..39 of" in found[0] and "raw_store<<<1>>>" in found[0]
    assert f"races_raw.cpp:{line_of('ICPU_RUN_KF(raw_store')}" in found[0]


def test_unrecorded_runs_are_the_changed_bytes_no_gm_write_covers() -> None:
    import numpy as np

    from aclsim.ascendc.gmwatch import unrecorded_runs
    from aclsim.isa import Access, Instr, Pipe, Space

    changed = np.zeros(100, bool)
    changed[[1, 2, 3, 10, 11, 50, 60, 61, 99]] = True
    base = 0x1000
    gm_and_ub = (Access(Space.GM, base + 2, 2), Access(Space.UB, base, 100))
    streams = [[Instr(Pipe.MTE3, "data_copy", writes=gm_and_ub),
                Instr(Pipe.S, "set_value", writes=(Access(Space.GM, base + 55, 7),))],
               [Instr(Pipe.MTE3, "data_copy", writes=(Access(Space.GM, base - 8, 9),))]]  # covers byte 0 only
    assert unrecorded_runs(changed, base, streams) == [(1, 2), (10, 12), (50, 51), (99, 100)]
    assert unrecorded_runs(changed, base, []) == [(1, 4), (10, 12), (50, 51), (60, 62), (99, 100)]
    assert unrecorded_runs(np.zeros(8, bool), base, streams) == []
