"""Shared helpers of the C++ kernel front's tests (a module of its own: test files import it by
name, and every conftest.py of the tests tree has the same module name)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CPP_EXAMPLES = ROOT / "examples" / "cpp"


def run_program(exe: Path, *args: str, env: dict[str, str] | None = None,
                cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run a host program with this test's Python as the library's interpreter."""
    full = {**os.environ, "ACLSIM_PYTHON": sys.executable, **(env or {})}
    return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=300, env=full,
                          cwd=cwd)
