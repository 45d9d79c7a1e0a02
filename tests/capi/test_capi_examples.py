"""The C and C++ programs of examples/c/ compile against the headers, link the library,
run with no environment variables set, and check their own results (they print PASS)."""

from __future__ import annotations

from pathlib import Path

import pytest

EXAMPLES = sorted(p for p in (Path(__file__).resolve().parents[2] / "examples" / "c").iterdir()
                  if p.suffix in (".c", ".cpp"))


def test_examples_exist() -> None:
    assert {p.stem.split("_")[0] for p in EXAMPLES} >= {"00", "01", "02", "03"}


@pytest.mark.parametrize("source", EXAMPLES, ids=lambda p: p.name)
def test_c_example_runs(source: Path, compile_c, run_c) -> None:  # noqa: ANN001
    flags = ["-std=c++17"] if source.suffix == ".cpp" else ["-std=c11"]
    exe = compile_c([source], source.stem, ["-Wall", "-Werror", *flags])
    proc = run_c(exe)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "PASS" in proc.stdout
    assert "LeakWarning" not in proc.stderr
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr, proc.stderr
