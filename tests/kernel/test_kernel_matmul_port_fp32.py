"""Example 23 (CANN's MatmulFp32, ported line by line): its tiling function's figures, a run against NumPy
on two cores in two rounds, and the source's C offset (pitch singleCoreN) overrunning y when N is
not a multiple of 16, reported as the device would fault."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import aclsim
from aclsim import errors

PATH = Path(__file__).resolve().parents[2] / "examples" / "23_port_matmul_fp32.py"


@pytest.fixture(scope="module")
def port():
    spec = importlib.util.spec_from_file_location("aclsim_port_matmul_fp32", PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def device():
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    yield
    aclsim.reset_device(0)
    aclsim.finalize()


def test_tiling_function_figures(port) -> None:
    args = port.MatmulFp32Args(is_b_trans=True, has_bias=True, m_value=300, n_value=192, k_value=100)
    data, block_dim, ws = port.matmul_fp32_tiling_func("tiny", args)
    t = data.t_cube_tiling
    # ResetBase / CalL1Tiling on 512 KiB of L1: baseK 128 B of float, depths 16 and 10 -> stepKa 5, stepKb 5
    assert (t.base_m, t.base_n, t.base_k) == (128, 192, 32)
    assert (t.single_core_m, t.single_core_n, t.single_core_k) == (128, 192, 100)
    assert (t.step_ka, t.step_kb, t.depth_a1, t.depth_b1) == (5, 5, 10, 10)
    assert block_dim == t.used_core_num == 2 and ws == port.WS_SYS_SIZE + port.asc.sys_workspace_size("tiny")
    assert (data.matmul_fp32_run_info.trans_a, data.matmul_fp32_run_info.trans_b) == (0, 1)


def test_runs_against_numpy(port, device) -> None:
    assert port.run(300, 192, 100) < 1e-4


def test_the_sources_c_offset_overruns_y_when_n_is_not_a_multiple_of_16(port, device) -> None:
    with pytest.raises(errors.TaskError) as info:
        port.run(300, 200, 100)
    assert info.value.code == 507043
