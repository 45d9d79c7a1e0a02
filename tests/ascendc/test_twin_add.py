"""A C++ kernel and its Python twin: the same results, instruction streams and reports.

``examples/cpp/add_custom.cpp`` is ``examples/10_kernel_add.py`` written in C++; both run in this
process on the same device memory (the C++ one through :class:`aclsim.ascendc.inprocess.CppKernels`).
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from ascendc_support import CPP_EXAMPLES, ROOT, run_program

import aclsim


def _python_twin(name: str) -> object:
    spec = importlib.util.spec_from_file_location(f"example_{name}", ROOT / "examples" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _key(ins: object) -> tuple[object, ...]:
    """An instruction without its source location (the C++ and Python lines differ)."""
    return (ins.pipe, ins.op, ins.reads, ins.writes, ins.src, ins.dst, ins.event_id, ins.logical,  # type: ignore[attr-defined]
            ins.cost)  # type: ignore[attr-defined]


def test_add_cpp_and_python_twin_agree(cpp_kernels) -> None:
    kernels = cpp_kernels([CPP_EXAMPLES / "add_custom.cpp"])
    twin = _python_twin("10_kernel_add")
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    n = 8 * 2048
    rng = np.random.default_rng(1)
    x = rng.uniform(-100, 100, n).astype(np.float16)
    y = rng.uniform(-100, 100, n).astype(np.float16)
    dx, dy, dz = (aclsim.malloc(n * 2) for _ in range(3))
    aclsim.memcpy(dx, n * 2, x, n * 2, aclsim.MemcpyKind.HOST_TO_DEVICE)
    aclsim.memcpy(dy, n * 2, y, n * 2, aclsim.MemcpyKind.HOST_TO_DEVICE)
    results, launches = [], []
    for kernel in (kernels.add_custom, twin.add_custom):
        aclsim.memset(dz, n * 2, 0, n * 2)
        launches.append(kernel[8, stream](dx, dy, dz))
        aclsim.synchronize_stream(stream)
        z = np.zeros(n, np.float16)
        aclsim.memcpy(z, n * 2, dz, n * 2, aclsim.MemcpyKind.DEVICE_TO_HOST)
        results.append(z)
    cpp, py = launches
    assert np.array_equal(results[0].view(np.uint16), (x + y).view(np.uint16))
    assert np.array_equal(results[0].view(np.uint16), results[1].view(np.uint16))
    assert [[_key(i) for i in s] for s in cpp.streams] == [[_key(i) for i in s] for s in py.streams]
    assert cpp.report.total_cycles == py.report.total_cycles
    assert cpp.report.pipe_busy() == py.report.pipe_busy()
    assert cpp.report.utilization() == py.report.utilization()
    # every C++ instruction names its C++ line
    first = cpp.streams[0][0]
    assert first.file.endswith("add_custom.cpp") and first.line > 0
    text = (CPP_EXAMPLES / "add_custom.cpp").read_text().splitlines()
    assert "DataCopy" in text[first.line - 1]
    for d in (dx, dy, dz):
        aclsim.free(d)


def test_add_host_program_runs(host_program) -> None:
    exe = host_program([CPP_EXAMPLES / "main_add.cpp", CPP_EXAMPLES / "add_custom.cpp"], "add_cpu")
    done = run_program(exe, env={"ACLSIM_CHIP": "tiny"})
    assert done.returncode == 0, done.stderr
    assert "PASS: 0 of 16384 elements differ" in done.stdout
    assert "add_custom<<<8>>> on tiny" in done.stderr


@pytest.mark.parametrize("quiet", ["1"])
def test_quiet_host_program_prints_no_report(host_program, quiet: str) -> None:
    exe = host_program([CPP_EXAMPLES / "main_add.cpp", CPP_EXAMPLES / "add_custom.cpp"], "add_cpu_quiet")
    done = run_program(exe, env={"ACLSIM_CHIP": "tiny", "ACLSIM_QUIET": quiet})
    assert done.returncode == 0, done.stderr
    assert "aclsim:" not in done.stderr
