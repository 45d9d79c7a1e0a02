"""Start-up of the library: with no variables it starts the Python it was built for;
ACLSIM_PYTHON and VIRTUAL_ENV choose another; a start that fails makes every call return an
error (cffi alone would return 0, ACL_SUCCESS); loaded by a Python process through ctypes,
it shares that process's runtime; leak reports name the C caller."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from aclsim.errors import ACL_ERROR_INTERNAL_ERROR

PROBE = r"""
#include <stdio.h>
#include "acl/acl.h"
int main(void)
{
    void *dev = NULL;
    int32_t device = -1;
    aclError init = aclInit(NULL);
    aclError set = aclrtSetDevice(0);
    aclError mal = aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    aclError get = aclrtGetDevice(&device);
    aclTensorDesc *desc = aclCreateTensorDesc(ACL_FLOAT, 0, NULL, ACL_FORMAT_ND);
    printf("codes %d %d %d %d desc %s\n", init, set, mal, get, desc ? "made" : "null");
    if (mal == ACL_SUCCESS) aclrtFree(dev);
    if (desc) aclDestroyTensorDesc(desc);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
"""


@pytest.fixture(scope="module")
def probe(compile_c, tmp_path_factory: pytest.TempPathFactory) -> Path:  # noqa: ANN001
    src = tmp_path_factory.mktemp("probe") / "probe.c"
    src.write_text(PROBE)
    return compile_c([src], "probe")


@pytest.fixture(scope="module")
def python_without_aclsim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment of the same Python in which aclsim is not installed."""
    venv = tmp_path_factory.mktemp("bare") / "venv"
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    return venv


def test_starts_with_no_environment_variables(probe: Path, run_c) -> None:  # noqa: ANN001
    proc = run_c(probe)
    assert proc.returncode == 0, proc.stderr
    assert "codes 0 0 0 0 desc made" in proc.stdout, proc.stdout + proc.stderr


def test_a_failed_start_returns_errors_not_success(probe: Path, run_c, c_env,  # noqa: ANN001
                                                   python_without_aclsim: Path) -> None:
    code = ACL_ERROR_INTERNAL_ERROR
    for env in (c_env(ACLSIM_PYTHON=str(python_without_aclsim / "bin" / "python")),
                c_env(VIRTUAL_ENV=str(python_without_aclsim))):
        proc = run_c(probe, env=env)
        assert proc.returncode == 0, proc.stderr
        assert f"codes {code} {code} {code} {code} desc null" in proc.stdout, proc.stdout + proc.stderr
        assert "could not start aclsim" in proc.stderr
        assert f"{python_without_aclsim}/lib/" in proc.stderr  # cffi shows sys.path: that environment's


def test_aclsim_python_wins_over_the_virtual_env(probe: Path, run_c, c_env,  # noqa: ANN001
                                                 python_without_aclsim: Path) -> None:
    proc = run_c(probe, env=c_env(ACLSIM_PYTHON=sys.executable, VIRTUAL_ENV=str(python_without_aclsim)))
    assert "codes 0 0 0 0 desc made" in proc.stdout, proc.stdout + proc.stderr


def test_loaded_with_ctypes_it_shares_the_runtime(capi_lib: Path, tmp_path: Path, c_env) -> None:  # noqa: ANN001
    script = tmp_path / "shared.py"
    script.write_text(textwrap.dedent(f"""
        import ctypes
        import aclsim.acl as acl
        lib = ctypes.CDLL({str(capi_lib / "libascendcl.so")!r})
        assert acl.init() == 0 and acl.rt.set_device(0) == 0
        device = ctypes.c_int32(-1)
        assert lib.aclrtGetDevice(ctypes.byref(device)) == 0 and device.value == 0  # set from Python
        ptr = ctypes.c_void_p()
        assert lib.aclrtMalloc(ctypes.byref(ptr), ctypes.c_size_t(256), 0) == 0
        assert acl.rt.free(ptr.value) == 0  # allocated from C, freed from Python
        assert lib.aclrtFree(ptr) == 207002  # so C sees it freed
        assert acl.rt.reset_device(0) == 0 and lib.aclFinalize() == 0
        assert acl.finalize() == 100037  # C finalized the same runtime
        print("SHARED")
    """))
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                          env=c_env())
    assert proc.returncode == 0 and "SHARED" in proc.stdout, proc.stdout + proc.stderr


def test_leak_report_names_the_c_callers(compile_c, run_c, tmp_path: Path) -> None:  # noqa: ANN001
    src = tmp_path / "leaky.c"
    src.write_text(textwrap.dedent("""\
        #include "acl/acl.h"
        static void *make_buffer(void)
        {
            void *dev = 0;
            aclrtMalloc(&dev, 1000, ACL_MEM_MALLOC_HUGE_FIRST);
            return dev;
        }
        int main(void)
        {
            aclInit(0);
            aclrtSetDevice(0);
            make_buffer();
            aclrtResetDevice(0);
            return aclFinalize();
        }
        """))
    proc = run_c(compile_c([src], "leaky", ["-O0"]))
    assert proc.returncode == 0, proc.stderr
    assert "leaky.c:14: LeakWarning" in proc.stderr, proc.stderr  # the line that called aclFinalize
    assert "1000B" in proc.stderr and "allocated at make_buffer (leaky.c:5)" in proc.stderr, proc.stderr


def test_a_python_exception_is_an_error_code_not_success(capi_lib: Path, tmp_path: Path, c_env) -> None:  # noqa: ANN001
    """cffi returns 0 (ACL_SUCCESS) from an entry point whose Python side raised, unless told
    otherwise: every entry point is registered with its failure value."""
    script = tmp_path / "bug.py"
    script.write_text(textwrap.dedent(f"""
        import ctypes
        import aclsim.acl as acl
        lib = ctypes.CDLL({str(capi_lib / "libascendcl.so")!r})
        lib.aclCreateTensorDesc.restype = ctypes.c_void_p
        assert acl.init() == 0 and acl.rt.set_device(0) == 0

        def bug(*args):
            raise RuntimeError("a bug in an implementation")

        acl.rt.get_device = bug
        acl.create_tensor_desc = bug
        device = ctypes.c_int32(7)
        print("codes", lib.aclrtGetDevice(ctypes.byref(device)), device.value,
              lib.aclCreateTensorDesc(0, 0, None, 2))
    """))
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                          env=c_env())
    assert f"codes {ACL_ERROR_INTERNAL_ERROR} 7 None" in proc.stdout, proc.stdout + proc.stderr
    assert "a bug in an implementation" in proc.stderr  # cffi prints the traceback
