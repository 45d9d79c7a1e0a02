"""The toolkit tree's parts the samples sweep added: the older samples' product types as
``tikicpulib::<type>`` targets (``ascend910``, ``ascend310p``, ``ascend910B1``: the keys of their
run.sh's VersionMap), ``ASCENDC_CPU_DEBUG`` (the newer samples' CPU-mode switch) on every target, and
``libtiling_api.so`` as the library with the host tiling, so a tiling program linking ``tiling_api``
(and ``graph``) without tikicpulib links and runs.  A CMake project of ours (``samples_cmake/``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

import aclsim.kernel as asc
from aclsim.ascendc import install_tree
from aclsim.ascendc.build import LIBRARY

PROJECT = Path(__file__).parent / "samples_cmake"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("ACLSIM_PYTHON", "VIRTUAL_ENV", "PYTHONPATH")}
    env.update(ACLSIM_QUIET="1", **extra)
    return env


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("cffi", reason="the C++ kernel front needs cffi (pip install 'aclsim[capi]')")
    if not sysconfig.get_config_var("Py_ENABLE_SHARED"):
        pytest.skip("this Python has no shared libpython: C++ programs cannot embed it")
    for tool in ("cmake", "c++"):
        if shutil.which(tool) is None:
            pytest.skip(f"no {tool}")
    return install_tree.ensure_tree(tmp_path_factory.mktemp("ascendc-sweep-lib"))


def test_tiling_api_is_the_library_with_the_host_tiling(tree: Path) -> None:
    lib64 = tree / "lib64"
    assert (lib64 / install_tree.TILING_LIBRARY).resolve() == (tree.parent / LIBRARY).resolve()
    assert install_tree.TILING_LIBRARY not in install_tree.LINK_ONLY
    assert (lib64 / "libgraph.so").resolve() == (tree.parent / "libascendcl.so").resolve()


@pytest.fixture(scope="module")
def built(tree: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The project configured for each product type (one build directory each)."""
    out: dict[str, Path] = {}
    for product in ("ascend310p", "ascend910"):
        build = tmp_path_factory.mktemp(f"sweep-{product}")
        configure = subprocess.run(
            ["cmake", "-S", str(PROJECT), "-B", str(build), f"-DPRODUCT_TYPE={product}", f"-DTOOLKIT={tree}",
             f"-DCMAKE_PREFIX_PATH={tree / install_tree.CMAKE_PACKAGE}"],
            capture_output=True, text=True, timeout=300, env=_env())
        assert configure.returncode == 0, configure.stdout + configure.stderr
        made = subprocess.run(["cmake", "--build", str(build)], capture_output=True, text=True, timeout=300,
                              env=_env())
        assert made.returncode == 0, made.stdout + made.stderr
        out[product] = build
    return out


@pytest.mark.parametrize(("product", "soc"), [("ascend310p", "Ascend310P1"), ("ascend910", "Ascend910A")])
def test_product_type_targets_name_their_soc(built: dict[str, Path], product: str, soc: str) -> None:
    run = subprocess.run([str(built[product] / "soc_probe")], capture_output=True, text=True, timeout=120,
                         env=_env())
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip() == f"soc {soc}"


def test_tiling_program_links_tiling_api_alone(built: dict[str, Path]) -> None:
    run = subprocess.run([str(built["ascend310p"] / "tiling_probe")], capture_output=True, text=True,
                         timeout=120, env=_env(ACLSIM_CHIP="tiny"))
    assert run.returncode == 0, run.stdout + run.stderr
    got = dict(line.split() for line in run.stdout.splitlines())
    api = asc.MatmulApiTiling("tiny")
    api.set_a_type(asc.TPosition.GM, asc.CubeFormat.ND, asc.half, False)
    api.set_b_type(asc.TPosition.GM, asc.CubeFormat.ND, asc.half, False)
    api.set_c_type(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32)
    api.set_bias_type(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32)
    api.set_shape(64, 128, 96)
    api.set_org_shape(64, 128, 96)
    api.set_bias(False)
    api.set_buffer_space(-1, -1, -1)
    tiling = asc.TCubeTiling()
    assert api.get_tiling(tiling) == 0
    fields = {"baseM": "base_m", "baseN": "base_n", "baseK": "base_k", "singleCoreM": "single_core_m",
              "depthA1": "depth_a1", "stepKa": "step_ka"}
    for name, field in fields.items():
        assert int(got[name]) == int(getattr(tiling, field)), name
    assert got["size"] == "192"


def test_cflags_define_both_cpu_modes() -> None:
    """``aclsim ascendc --cflags`` gives what ``tikicpulib::<soc>`` gives: the older samples test
    ``__CCE_KT_TEST__``, the newer ``ASCENDC_CPU_DEBUG``."""
    from aclsim.ascendc.build import CMAKE_DIR, cflags

    words = cflags("Ascend910B1").split()
    assert "-D__CCE_KT_TEST__" in words and "-DASCENDC_CPU_DEBUG" in words
    assert "__CCE_KT_TEST__;ASCENDC_CPU_DEBUG" in (CMAKE_DIR / "tikicpulibConfig.cmake").read_text()
