"""Ascend's published C++ memory-management samples (cplusplus/level1_single_api/1_acl/
2_memory_management in github.com/Ascend/samples) build against aclsim's headers with their
sources unchanged -- only the include and link flags point at aclsim -- and run.

The sources are read at test time from a copy of that repository: ``ACLSIM_ASCEND_SAMPLES``
(a checkout, or a git directory) or the workspace's mirror; nothing of them is kept in this
repository.  Without a copy the tests skip.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = "cplusplus/level1_single_api/1_acl/2_memory_management"
MIRROR = Path("/work/.mirror/Ascend+samples/repo")

# sample directory -> its sources and the arguments of its sample_run.sh, with a smaller
# memory size (1 MiB instead of 10 MiB: the samples leak their print buffers, see below)
SAMPLES = {
    "memcpy_host_device_cpp": ("--release_cycle 2 --number_of_cycles 2 --device_id 0 --memory_size 1048576 "
                               "--write_back_host 1 --memory_reuse 1", 12),
    "memcpy_host_device_async_cpp": ("--release_cycle 2 --number_of_cycles 2 --device_id 0 "
                                     "--memory_size 1048576", 12),
    "memcpy_host_DVPP_cpp": ("--release_cycle 2 --number_of_cycles 3 --device_id 0 --memory_size 1048576 "
                             "--memory_reuse 1", 12),
}


def _source_tree() -> tuple[str, Path] | None:
    env = os.environ.get("ACLSIM_ASCEND_SAMPLES")
    path = Path(env) if env else MIRROR
    if (path / ROOT).is_dir():
        return "checkout", path
    if (path / "HEAD").is_file() and (path / "objects").is_dir() and shutil.which("git"):
        return "git", path
    return None


def _fetch(sample: str, dest: Path) -> list[Path]:
    tree = _source_tree()
    if tree is None:
        pytest.skip("no copy of Ascend/samples (set ACLSIM_ASCEND_SAMPLES to a checkout)")
    kind, path = tree
    src = f"{ROOT}/{sample}/src"
    dest.mkdir(parents=True, exist_ok=True)
    if kind == "checkout":
        names = [p.name for p in (path / src).iterdir()]
        for name in names:
            shutil.copyfile(path / src / name, dest / name)
    else:
        listing = subprocess.run(["git", f"--git-dir={path}", "ls-tree", "--name-only", "HEAD", f"{src}/"],
                                 capture_output=True, text=True, check=True, timeout=60).stdout.split()
        names = [Path(n).name for n in listing]
        for name in names:
            blob = subprocess.run(["git", f"--git-dir={path}", "show", f"HEAD:{src}/{name}"],
                                  capture_output=True, check=True, timeout=60).stdout
            (dest / name).write_bytes(blob)
    return [dest / n for n in names if n.endswith(".cpp")]


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_ascend_memory_sample_runs_unchanged(sample: str, compile_c, run_c, tmp_path: Path) -> None:  # noqa: ANN001
    args, prints = SAMPLES[sample]
    sources = _fetch(sample, tmp_path / sample)
    # the flags of the samples' CMakeLists.txt (C++11, DVPP interface on, libacl_dvpp linked)
    exe = compile_c(sources, f"sample_{sample}", ["-std=c++11", "-DENABLE_DVPP_INTERFACE", "-lacl_dvpp"])
    proc = run_c(exe, *args.split(), timeout=300)
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    assert "run success!" in out, out + proc.stderr
    assert "failed" not in out.lower(), out
    data = re.findall(r"data is (\w+)", out)
    assert len(data) == prints and set(data) == {"7"}, data  # the value the samples memset
    assert re.search(r"HBM free memory:\d+ Byte", out)
    # The samples' print_data allocates with aclrtMallocHost and never frees: aclsim names the
    # leak at aclFinalize, with the C++ function and line that allocated.
    leaks = re.findall(r"malloc_host 0x[0-9a-f]+ \d+B allocated at print_data \((memcpy_host_\w+\.cpp:\d+)\)",
                       proc.stderr)
    assert len(leaks) == prints, proc.stderr
