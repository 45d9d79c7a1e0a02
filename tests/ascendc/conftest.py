"""Fixtures of the C++ kernel front's tests: ``libaclsim_ascendc.so`` built once per session into a
temporary directory, C++ kernels loaded into this process (:class:`aclsim.ascendc.inprocess.CppKernels`),
and CPU-debug host programs built and run as processes.

Everything skips cleanly, with the reason, where the front cannot work: no cffi, no C/C++ compiler,
or a Python without a shared libpython (docs/ascendc_cpp.md).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from aclsim.capi.prototypes import INCLUDE_DIR as CAPI_INCLUDE


@pytest.fixture(scope="session")
def ascendc_lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The directory of a fresh ``libaclsim_ascendc.so`` (``ACLSIM_ASCENDC_DIR`` points at it)."""
    pytest.importorskip("cffi", reason="the C++ kernel front needs cffi (pip install 'aclsim[capi]')")
    if not sysconfig.get_config_var("Py_ENABLE_SHARED"):
        pytest.skip("this Python has no shared libpython: C++ programs cannot embed it")
    if not (shutil.which("c++") or shutil.which("g++")) or not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("no C/C++ compiler")
    from aclsim.ascendc.build import build

    out = tmp_path_factory.mktemp("ascendc-lib")
    build(out)
    previous = os.environ.get("ACLSIM_ASCENDC_DIR")
    os.environ["ACLSIM_ASCENDC_DIR"] = str(out)
    yield out
    if previous is None:
        os.environ.pop("ACLSIM_ASCENDC_DIR", None)
    else:
        os.environ["ACLSIM_ASCENDC_DIR"] = previous


@pytest.fixture(scope="session")
def cpp_kernels(ascendc_lib: Path) -> Callable[..., object]:
    """``cpp_kernels(sources, flags=(), **options)``: a :class:`CppKernels` of those sources."""
    from aclsim.ascendc.inprocess import CppKernels

    made: dict[tuple[object, ...], CppKernels] = {}

    def load(sources: Sequence[Path], flags: Sequence[str] = (), **options: object) -> CppKernels:
        key = (tuple(map(str, sources)), tuple(flags), tuple(sorted(options.items())))
        if key not in made:
            made[key] = CppKernels(sources, flags=flags, **options)
        return made[key]

    return load


@pytest.fixture(scope="session")
def host_program(ascendc_lib: Path, tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """``host_program(sources, name, flags=())``: a CPU-debug host executable (tikicpulib.h)."""
    from aclsim.ascendc.build import INCLUDE_DIR

    bin_dir = tmp_path_factory.mktemp("ascendc-bin")
    compiler = shutil.which("c++") or shutil.which("g++")

    def build(sources: Sequence[Path], name: str, flags: Sequence[str] = ()) -> Path:
        exe = bin_dir / name
        cmd = [str(compiler), "-g", "-O0", "-std=c++17", "-D__CCE_KT_TEST__", f"-I{INCLUDE_DIR}",
               f"-I{CAPI_INCLUDE}", *flags, *map(str, sources), f"-L{ascendc_lib}",
               f"-Wl,-rpath,{ascendc_lib}", "-laclsim_ascendc", "-o", str(exe)]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stderr}"
        return exe

    return build
