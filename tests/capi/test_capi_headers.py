"""The headers compile on their own, as C and as C++, without a warning (no library needed)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from aclsim.capi.prototypes import HEADERS, INCLUDE_DIR

COMPILERS = {"c": ("cc", ["-x", "c", "-std=c99"]), "c++": ("c++", ["-x", "c++", "-std=c++11"])}


@pytest.mark.parametrize("lang", sorted(COMPILERS))
def test_each_header_compiles_alone(lang: str, tmp_path: Path) -> None:
    name, flags = COMPILERS[lang]
    compiler = shutil.which(name)
    if compiler is None:
        pytest.skip(f"no {lang} compiler")
    for header in HEADERS:
        unit = tmp_path / "unit.txt"
        unit.write_text(f'#include "{header}"\nint main(void) {{ return 0; }}\n')
        cmd = [compiler, *flags, "-Wall", "-Wextra", "-pedantic", "-Werror", "-fsyntax-only",
               f"-I{INCLUDE_DIR}", str(unit)]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, f"{header} as {lang}:\n{proc.stderr}"
