"""The toolkit tree of ``aclsim ascendc --cmake-prefix``: its layout, ``setenv.bash``, the CPU-mode
``ccec``, and a CMake project of ours (``cmake_project/``) that finds ``tikicpulib``, builds a
kernel library and a CPU-debug host program, and runs them.

Skips, with the reason, where a C++ kernel program cannot be built here: no cffi, no shared
libpython, no C/C++ compiler (and no cmake / bash for the tests that need them).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

from aclsim.ascendc import install_tree
from aclsim.ascendc.build import CMAKE_DIR, INCLUDE_DIR, LIBRARY
from aclsim.capi import build as capi_build
from aclsim.cli import main

PROJECT = Path(__file__).parent / "cmake_project"


def _cxx() -> str | None:
    return next((shutil.which(n) for n in ("c++", "g++", "clang++") if shutil.which(n)), None)


def _env(**extra: str) -> dict[str, str]:
    """A program's environment: no ACLSIM_PYTHON / VIRTUAL_ENV (the libraries start the Python they
    were built for), a quiet launch."""
    env = {k: v for k, v in os.environ.items() if k not in ("ACLSIM_PYTHON", "VIRTUAL_ENV", "PYTHONPATH")}
    env.update(ACLSIM_QUIET="1", **extra)
    return env


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh build of both libraries and the tree around them (once for this file)."""
    pytest.importorskip("cffi", reason="the C++ kernel front needs cffi (pip install 'aclsim[capi]')")
    if not sysconfig.get_config_var("Py_ENABLE_SHARED"):
        pytest.skip("this Python has no shared libpython: C++ programs cannot embed it")
    if shutil.which("cc") is None and shutil.which("gcc") is None or _cxx() is None:
        pytest.skip("no C/C++ compiler")
    out = tmp_path_factory.mktemp("ascendc-lib")
    return install_tree.ensure_tree(out)


def test_cli_prints_the_tree_and_libs(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tree.parent
    before = (out / LIBRARY).stat().st_mtime_ns
    assert main(["ascendc", "--libs", "--libdir", "--cmake-prefix", "--out", str(out)]) == 0
    words = capsys.readouterr().out.split()
    assert words == [f"-L{out}", f"-Wl,-rpath,{out}", "-laclsim_ascendc", "-lascendcl", str(out), str(tree)]
    assert (out / LIBRARY).stat().st_mtime_ns == before  # reused, not rebuilt
    assert (out / capi_build.LIBRARY).is_file()


def test_tree_layout(tree: Path) -> None:
    lib64 = tree / "lib64"
    assert (lib64 / LIBRARY).resolve() == (tree.parent / LIBRARY).resolve()
    assert (lib64 / "libascendcl.so").resolve() == (tree.parent / "libascendcl.so").resolve()
    for alias in install_tree.LINK_ONLY:
        assert (lib64 / alias).resolve() == (tree.parent / "libascendcl.so").resolve(), alias
    # a stand-alone host tiling program links only tiling_api: the bridge's library behind it
    assert (lib64 / install_tree.TILING_LIBRARY).resolve() == (tree.parent / LIBRARY).resolve()
    for inc in ("include", "runtime/include", "acllib/include"):
        header = (tree / inc / "kernel_operator.h").read_bytes()
        assert header == (INCLUDE_DIR / "kernel_operator.h").read_bytes()
        assert (tree / inc / "tikicpulib.h").is_file() and (tree / inc / "acl" / "acl.h").is_file()
    config = tree / install_tree.CMAKE_PACKAGE / "tikicpulibConfig.cmake"
    assert config.read_text() == (CMAKE_DIR / "tikicpulibConfig.cmake").read_text()
    assert os.access(tree / install_tree.CCEC, os.X_OK)


def test_tree_follows_the_headers(tree: Path) -> None:
    """A link that no header stands behind any more goes; a regenerated tree is the same tree."""
    stale = tree / "include" / "gone.h"
    stale.symlink_to(tree / "include" / "no-such-header.h")
    assert install_tree.ensure_tree(tree.parent) == tree
    assert not stale.is_symlink()
    assert (tree / "include" / "kernel_operator.h").is_file()


def test_every_soc_of_the_bridge_has_a_target() -> None:
    text = (CMAKE_DIR / "tikicpulibConfig.cmake").read_text()
    socs = set(re.search(r"set\(TIKICPULIB_SOC_VERSIONS(.*?)\)", text, re.S).group(1).split())
    from aclsim.ascendc.bridge import SOC_CHIPS

    assert set(SOC_CHIPS) <= socs


def _bash_env(tree: Path, script: str, **extra: str) -> dict[str, str]:
    env = {**_env(), **extra}
    proc = subprocess.run(["bash", "-c", f"source {tree / install_tree.SETENV} && {script}"],
                          capture_output=True, text=True, env=env, timeout=30)
    assert proc.returncode == 0, proc.stderr
    return dict(line.split("=", 1) for line in proc.stdout.splitlines() if "=" in line)


def test_setenv_prepends_the_tree_only(tree: Path) -> None:
    if shutil.which("bash") is None:
        pytest.skip("no bash")
    seen = _bash_env(tree, "env", PATH="/usr/bin:/bin", LD_LIBRARY_PATH="/opt/x")
    assert seen["PATH"] == f"{tree / 'compiler/ccec_compiler/bin'}:/usr/bin:/bin"
    assert seen["LD_LIBRARY_PATH"] == f"{tree / 'lib64'}:/opt/x"
    assert seen["ASCEND_HOME_PATH"] == str(tree)
    assert "CMAKE_PREFIX_PATH" not in seen  # unset stays unset: the samples then use their own default
    seen = _bash_env(tree, "env", PATH="/usr/bin:/bin", CMAKE_PREFIX_PATH="/opt/cmake")
    assert seen["CMAKE_PREFIX_PATH"] == f"{tree / install_tree.CMAKE_PACKAGE}:/opt/cmake"


def test_ccec_compiles_the_cpu_mode_and_refuses_the_npu(tree: Path, tmp_path: Path) -> None:
    if shutil.which("bash") is None:
        pytest.skip("no bash")
    src = tmp_path / "k.cce"
    src.write_text("#ifndef __CCE_KT_TEST__\n#error not cpu\n#endif\n"
                   "#if __cplusplus < 201703L\n#error not c++17\n#endif\nint k() { return 1; }\n")
    ccec = str(tree / install_tree.CCEC)
    obj = tmp_path / "k.o"
    cce_flags = ["-xcce", "--cce-aicore-arch=dav-c220-vec", "-mllvm", "-cce-aicore-record-overflow=false",
                 "--cce-auto-sync"]
    proc = subprocess.run([ccec, *cce_flags, "-D__CCE_KT_TEST__", "-fPIC", "-o", str(obj), "-c", str(src)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert obj.stat().st_size > 0
    spaced = subprocess.run([ccec, "-x", "cce", "-D__CCE_KT_TEST__", "-o", str(tmp_path / "s.o"), "-c",
                             str(src)], capture_output=True, text=True, timeout=60)
    assert spaced.returncode == 0, spaced.stderr
    proc = subprocess.run([ccec, *cce_flags, "-o", str(tmp_path / "n.o"), "-c", str(src)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert "CPU-debug mode only" in proc.stderr and "CANN's ccec" in proc.stderr
    assert not (tmp_path / "n.o").exists()


def test_flags_build_and_run_a_kernel(tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``c++ ... $(aclsim ascendc --cflags --soc X --libs)``: the program of the CMake test, by hand."""
    assert main(["ascendc", "--cflags", "--soc", "Ascend910B2", "--libs", "--out", str(tree.parent)]) == 0
    flags = capsys.readouterr().out.split()
    exe = tmp_path / "affine"
    # pkg-config order: the sources, then the flags (the libraries after the objects that need them)
    sources = [str(PROJECT / "main.cpp"), str(PROJECT / "affine_kernel.cpp")]
    cmd = [str(_cxx()), "-g", *sources, *flags, "-o", str(exe)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120,
                         env=_env(ACLSIM_CHIP="tiny"))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "soc Ascend910B2, affine ok" in run.stdout


def test_cmake_project_finds_tikicpulib(tree: Path, tmp_path: Path) -> None:
    cmake = shutil.which("cmake")
    if cmake is None:
        pytest.skip("no cmake")
    build = tmp_path / "build"
    configure = subprocess.run(
        [cmake, "-S", str(PROJECT), "-B", str(build), "-DSOC_VERSION=Ascend910B1",
         f"-DCMAKE_PREFIX_PATH={tree / install_tree.CMAKE_PACKAGE}"],
        capture_output=True, text=True, timeout=300, env=_env())
    assert configure.returncode == 0, configure.stdout + configure.stderr
    made = subprocess.run([cmake, "--build", str(build)], capture_output=True, text=True, timeout=300,
                          env=_env())
    assert made.returncode == 0, made.stdout + made.stderr
    exe = build / "affine_host"
    # no LD_LIBRARY_PATH: the target's rpath finds lib64; the kernel library through CMake's build rpath
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120,
                         env=_env(ACLSIM_CHIP="tiny"))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "soc Ascend910B1, affine ok" in run.stdout
    assert "ACL_SUCCESS 0" in run.stdout


def test_unknown_soc_target_is_a_cmake_error(tree: Path, tmp_path: Path) -> None:
    cmake = shutil.which("cmake")
    if cmake is None:
        pytest.skip("no cmake")
    proc = subprocess.run(
        [cmake, "-S", str(PROJECT), "-B", str(tmp_path / "b"), "-DSOC_VERSION=Ascend999X",
         f"-DCMAKE_PREFIX_PATH={tree / install_tree.CMAKE_PACKAGE}"],
        capture_output=True, text=True, timeout=300, env=_env())
    assert proc.returncode != 0
    assert "tikicpulib::Ascend999X" in proc.stderr
