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


def _fetch(sample: str, dest: Path) -> None:
    env = os.environ.get("ACLSIM_ASCENDC_SAMPLES")
    path = Path(env) if env else MIRROR
    if (path / "operator" / sample).is_dir():
        shutil.copytree(path / "operator" / sample, dest)
        return
    if not ((path / "HEAD").is_file() and (path / "objects").is_dir() and shutil.which("git")):
        pytest.skip("no copy of Ascend's samples (set ACLSIM_ASCENDC_SAMPLES to a checkout with operator/)")
    dest.mkdir(parents=True)
    archive = subprocess.run(["git", f"--git-dir={path}", "archive", "HEAD", f"operator/{sample}"],
                             capture_output=True, check=True, timeout=120).stdout
    subprocess.run(["tar", "-x", "-C", str(dest), f"--strip-components={sample.count('/') + 2}"],
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


@pytest.mark.parametrize("sample", SAMPLES)
def test_sample_runs_through_its_run_sh(sample: str, toolkit: Path, tmp_path: Path) -> None:
    work = tmp_path / "sample"
    _fetch(sample, work)
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


#: the older samples whose run.sh takes the run mode alone and the toolkit from ASCEND_HOME_DIR, and
#: whose check is the md5sum of the output beside the golden file's.  MatMulInvocation runs its Matmul
#: on the AIC of CANN's default MIX_MODE (its AIVs return at once) and builds a stand-alone host
#: tiling program (`custom_tiling/main.cpp`, linked against libtiling_api)
OLDER_SAMPLES = ("MatMulCustomSample/KernelLaunch/MatMulInvocation",)


@pytest.mark.parametrize("sample", OLDER_SAMPLES)
def test_older_sample_runs_through_its_run_sh(sample: str, toolkit: Path, tmp_path: Path) -> None:
    work = tmp_path / "sample"
    _fetch(sample, work)
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
