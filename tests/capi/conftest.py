"""Fixtures of the C face tests: the library built once per session into a temporary
directory, a compiler for C/C++ programs linked against it, and a runner.

Everything here skips cleanly, with the reason, where the C face cannot work: no cffi, no
C compiler, or a Python without a shared libpython (docs/capi.md).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from aclsim.capi.prototypes import INCLUDE_DIR

Compile = Callable[..., Path]
Run = Callable[..., subprocess.CompletedProcess[str]]


def _compiler(cxx: bool) -> str | None:
    names = ("c++", "g++", "clang++") if cxx else ("cc", "gcc", "clang")
    return next((shutil.which(n) for n in names if shutil.which(n)), None)


@pytest.fixture(scope="session")
def capi_lib(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The directory of a fresh ``libascendcl.so`` (built once per test session)."""
    pytest.importorskip("cffi", reason="the C face needs cffi (pip install 'aclsim[capi]')")
    if not sysconfig.get_config_var("Py_ENABLE_SHARED"):
        pytest.skip("this Python has no shared libpython: C programs cannot embed it")
    if _compiler(False) is None:
        pytest.skip("no C compiler")
    from aclsim.capi.build import build

    out = tmp_path_factory.mktemp("capi-lib")
    build(out)
    return out


@pytest.fixture(scope="session")
def compile_c(capi_lib: Path, tmp_path_factory: pytest.TempPathFactory) -> Compile:
    """``compile_c(sources, name, flags=())``: an executable linked against the library."""
    bin_dir = tmp_path_factory.mktemp("capi-bin")

    def compile_program(sources: Sequence[Path], name: str, flags: Sequence[str] = ()) -> Path:
        cxx = any(Path(s).suffix in (".cpp", ".cc", ".cxx") for s in sources)
        compiler = _compiler(cxx)
        if compiler is None:
            pytest.skip(f"no {'C++' if cxx else 'C'} compiler")
        exe = bin_dir / name
        cmd = [compiler, "-g", "-O0", *flags, *map(str, sources), f"-I{INCLUDE_DIR}", f"-L{capi_lib}",
               f"-Wl,-rpath,{capi_lib}", "-lascendcl", "-pthread", "-lm", "-o", str(exe)]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stderr}"
        return exe

    return compile_program


def clean_env(**extra: str) -> dict[str, str]:
    """The environment of a C program: no ACLSIM_PYTHON / VIRTUAL_ENV (the library must start
    its own Python with no variables set), a small simulated device unless asked otherwise."""
    env = {k: v for k, v in os.environ.items() if k not in ("ACLSIM_PYTHON", "VIRTUAL_ENV", "PYTHONPATH")}
    env.update(extra)
    return env


@pytest.fixture(scope="session")
def c_env() -> Callable[..., dict[str, str]]:
    """``c_env(**extra)``: :func:`clean_env` as a fixture."""
    return clean_env


@pytest.fixture(scope="session")
def run_c() -> Run:
    """``run_c(exe, *args, env=None, cwd=None)``: run a program (bounded), text output."""

    def run(exe: Path, *args: str, env: dict[str, str] | None = None,
            cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=timeout,
                              env=env if env is not None else clean_env(), cwd=cwd or exe.parent)

    return run
