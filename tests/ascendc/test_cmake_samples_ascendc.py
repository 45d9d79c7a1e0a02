"""Ascend's kernel-invocation samples (``operator/*/KernelLaunch`` of Ascend/samples) build through
their own CMake files and ``run.sh -r cpu -i <toolkit>`` with ``aclsim ascendc --cmake-prefix`` as
the toolkit, unchanged, and pass their own ``verify_result.py``.

The samples are read at test time from a copy: ``ACLSIM_ASCENDC_SAMPLES`` (a checkout that has
``operator/``, or its git directory) or the workspace's mirror; nothing of them is kept in this
repository.  Without a copy, cmake, bash or a compiler, the tests skip.  Marked slow (a CMake
configure and build each, about 5 s): ``python -m pytest -m slow tests/ascendc``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from aclsim.ascendc import install_tree

pytestmark = pytest.mark.slow

MIRROR = Path("/work/.mirror/tjulitianyi1997+AscendProjects/repo")
#: a newer copy of the samples' operator/ (github.com/Mr-Xiao2021/ascend_op_learning)
NEWER_MIRROR = Path("/work/.mirror/Mr-Xiao2021+ascend_op_learning/repo")
#: Ascend/samples itself, for the older kernel-invocation samples
ASCEND_MIRROR = Path("/work/.mirror/Ascend+samples/repo")
KERNEL_INVOCATION = "cplusplus/level1_single_api/4_op_dev/6_ascendc_custom_op/kernel_invocation"

#: the samples whose run.sh takes -r/-v/-i and whose data scripts need only NumPy (the CCE-language
#: style and the Neo style; docs/ascendc_cpp.md lists the others and why)
SAMPLES = (
    "AddCustomSample/KernelLaunch/AddKernelInvocation",
    "AddCustomSample/KernelLaunch/AddKernelInvocationNeo",
    "AddCustomSample/KernelLaunch/AddKernelInvocationTilingNeo",
    "AddcdivCustomSample/KernelLaunch/AddcdivKernelInvocation",
    "LeakyReluCustomSample/KernelLaunch/LeakyReluKernelInvocation",
    # the high-level Matmul and its host tiling (docs/ascendc_cube.md); the second writes a 384 MiB
    # workspace file
    "MatMulCustomSample/KernelLaunch/MatMulInvocationNeo",
    "MatMulLeakyReluCustomSample/KernelLaunch/MatMulLeakyReluInvocation",
)


def _fetch(sample: str, dest: Path, mirror: Path = MIRROR, folder: str = "operator") -> None:
    env = os.environ.get("ACLSIM_ASCENDC_SAMPLES")
    path = Path(env) if env else mirror
    if (path / folder / sample).is_dir():
        shutil.copytree(path / folder / sample, dest)
        return
    if not ((path / "HEAD").is_file() and (path / "objects").is_dir() and shutil.which("git")):
        pytest.skip(f"no copy of Ascend's samples (set ACLSIM_ASCENDC_SAMPLES to a checkout with {folder}/)")
    where = f"{folder}/{sample}"
    listed = subprocess.run(["git", f"--git-dir={path}", "ls-tree", "--name-only", "HEAD", where],
                            capture_output=True, text=True, timeout=120)
    if not listed.stdout.strip():
        pytest.skip(f"{folder}/{sample} is not in {path}")
    dest.mkdir(parents=True)
    archive = subprocess.run(["git", f"--git-dir={path}", "archive", "HEAD", where],
                             capture_output=True, check=True, timeout=120).stdout
    subprocess.run(["tar", "-x", "-C", str(dest), f"--strip-components={where.count('/') + 1}"],
                   input=archive, check=True, timeout=120)


@pytest.fixture(scope="module")
def toolkit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("cffi", reason="the C++ kernel front needs cffi (pip install 'aclsim[capi]')")
    if not sysconfig.get_config_var("Py_ENABLE_SHARED"):
        pytest.skip("this Python has no shared libpython: C++ programs cannot embed it")
    for tool in ("cmake", "bash", "c++", "getopt"):
        if shutil.which(tool) is None:
            pytest.skip(f"no {tool}")
    return install_tree.ensure_tree(tmp_path_factory.mktemp("ascendc-samples-lib"))


@pytest.mark.parametrize(("sample", "mirror"), [*((s, MIRROR) for s in SAMPLES),
                                                 # the newer MatMul sample: PlatformAscendC, kernel_tiling.h
                                                 ("MatmulCustomSample/KernelLaunch/MatmulInvocationNeo",
                                                  NEWER_MIRROR),
                                                 # the asynchronous Matmul: Iterate<false>, GetTensorC<false>
                                                 ("MatmulLeakyReluCustomSample/KernelLaunch/"
                                                  "MatmulLeakyReluInvocationAsync", NEWER_MIRROR)])
def test_sample_runs_through_its_run_sh(sample: str, mirror: Path, toolkit: Path, tmp_path: Path) -> None:
    work = tmp_path / "sample"
    _fetch(sample, work, mirror)
    (work / "output").mkdir(exist_ok=True)  # the older samples' repositories keep input/, not output/
    dropped = ("ACLSIM_PYTHON", "VIRTUAL_ENV", "CMAKE_PREFIX_PATH")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    # the samples' scripts run `python3` (gen_data.py, verify_result.py: NumPy): this Python's
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    proc = subprocess.run(["bash", "run.sh", "-r", "cpu", "-v", "Ascend910B1", "-i", str(toolkit)], cwd=work,
                          capture_output=True, text=True, timeout=600, env=env)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-4000:]
    assert "test pass" in out, out[-4000:]
    assert "aclsim: " in out and "modeled" in out  # it ran on aclsim, with the core model's report


#: the older kernel-invocation samples of Ascend/samples (namespace tik2, ParamOffset, the product types):
#: ``run.sh <kernel file> ascend310p AiCore cpu`` with ``ASCEND_HOME_DIR`` at the toolkit; they print the
#: md5sums of ``output/*.bin``, the check being the output's equal to the golden's
OLDER_SAMPLES = (("Add", "add_custom"), ("Add_tile", "add_custom"), ("MatMul", "matmul_custom"))


@pytest.mark.parametrize(("sample", "kernel"), OLDER_SAMPLES)
def test_older_sample_runs_through_its_run_sh(sample: str, kernel: str, toolkit: Path,
                                              tmp_path: Path) -> None:
    work = tmp_path / "sample"
    _fetch(sample, work, ASCEND_MIRROR, KERNEL_INVOCATION)
    (work / "output").mkdir(exist_ok=True)
    dropped = ("ACLSIM_PYTHON", "VIRTUAL_ENV", "CMAKE_PREFIX_PATH")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["ASCEND_HOME_DIR"] = str(toolkit)
    proc = subprocess.run(["bash", "run.sh", kernel, "ascend310p", "AiCore", "cpu"], cwd=work,
                          capture_output=True, text=True, timeout=600, env=env)
    out = proc.stdout + proc.stderr
    assert "execute op on cpu succeed" in out, out[-4000:]
    assert "aclsim: " in out and "modeled" in out
    sums = dict(line.split()[::-1] for line in proc.stdout.splitlines() if line.endswith(".bin"))
    assert len(sums) == 2 and len(set(sums.values())) == 1, sums  # output/golden.bin and the output


#: MatMulInvocation (operator/, the CCE-language style): its run.sh takes the run mode alone and the
#: toolkit from ASCEND_HOME_DIR and prints the md5sums of output/*.bin; its Matmul runs on the AIC of
#: CANN's default MIX_MODE (its AIVs return at once), and it builds a stand-alone host tiling program
#: (`custom_tiling/main.cpp`, linked against libtiling_api)
MATMUL_INVOCATION = "MatMulCustomSample/KernelLaunch/MatMulInvocation"


def test_matmul_invocation_runs_through_its_run_sh(toolkit: Path, tmp_path: Path) -> None:
    work = tmp_path / "sample"
    _fetch(MATMUL_INVOCATION, work)
    dropped = ("ACLSIM_PYTHON", "VIRTUAL_ENV", "CMAKE_PREFIX_PATH")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["ASCEND_HOME_DIR"] = str(toolkit)
    proc = subprocess.run(["bash", "run.sh", "cpu"], cwd=work, capture_output=True, text=True, timeout=600,
                          env=env)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-4000:]
    assert "execute op on cpu succeed" in out, out[-4000:]
    sums = {line.split()[1]: line.split()[0] for line in out.splitlines()
            if line.strip().endswith(".bin") and len(line.split()) == 2}
    assert sums.get("output/output.bin") == sums.get("output/golden.bin") is not None, out[-4000:]
    assert "aclsim: " in out and "modeled" in out
