"""What ships: every file the C++ kernel front needs at run time (headers, the API table, the CMake
package and scripts) is package data, so an installed aclsim (a wheel) builds and runs kernels too."""

from __future__ import annotations

import fnmatch
from pathlib import Path

import pytest

import aclsim

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(aclsim.__file__).parent


def test_the_ascendc_data_files_are_package_data() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["aclsim"]
    needed = [p.relative_to(PACKAGE).as_posix() for p in (PACKAGE / "ascendc").rglob("*")
              if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts]
    assert "ascendc/include/kernel_operator.h" in needed and "ascendc/cmake/ccec" in needed
    missing = [f for f in needed if not any(fnmatch.fnmatch(f, pat) and f.count("/") == pat.count("/")
                                            for pat in patterns)]
    assert missing == [], f"add to [tool.setuptools.package-data] in pyproject.toml: {missing}"
