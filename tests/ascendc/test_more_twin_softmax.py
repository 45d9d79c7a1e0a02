"""A C++ kernel of the reduction rows and its Python twin: the same results, instruction streams and
reports.  ``examples/cpp/softmax_rows.cpp`` is ``examples/12_kernel_softmax.py`` written in C++
(ReduceMax, ReduceSum, Adds, Exp, Muls, a V -> S event id of its own); both run in this process on
the same device memory."""

from __future__ import annotations

import importlib.util

import numpy as np
from ascendc_support import CPP_EXAMPLES, ROOT

import aclsim


def _python_twin(name: str) -> object:
    spec = importlib.util.spec_from_file_location(f"example_{name}", ROOT / "examples" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _key(ins: object) -> tuple[object, ...]:
    """An instruction without its source location (the C++ and Python lines differ)."""
    return (ins.pipe, ins.op, ins.reads, ins.writes, ins.src, ins.dst, ins.event_id,  # type: ignore[attr-defined]
            ins.logical, ins.cost)  # type: ignore[attr-defined]


def test_softmax_cpp_and_python_twin_agree(cpp_kernels) -> None:
    kernels = cpp_kernels([CPP_EXAMPLES / "softmax_rows.cpp"])
    twin = _python_twin("12_kernel_softmax")
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    rows, cols = twin.ROWS, twin.COLS  # type: ignore[attr-defined]
    x = np.random.default_rng(1).standard_normal((rows, cols)).astype(np.float32) * 4
    dx, dy = aclsim.malloc(x.nbytes), aclsim.malloc(x.nbytes)
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    results, launches = [], []
    for kernel in (kernels.softmax_rows, twin.softmax):  # type: ignore[attr-defined]
        aclsim.memset(dy, x.nbytes, 0, x.nbytes)
        launches.append(kernel[twin.BLOCKS, stream](dx, dy))  # type: ignore[attr-defined]
        aclsim.synchronize_stream(stream)
        y = np.zeros_like(x)
        aclsim.memcpy(y, y.nbytes, dy, y.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
        results.append(y)
    cpp, py = launches
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(results[0], e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)
    assert np.array_equal(results[0].view(np.uint32), results[1].view(np.uint32))
    assert [[_key(i) for i in s] for s in cpp.streams] == [[_key(i) for i in s] for s in py.streams]
    assert cpp.report.total_cycles == py.report.total_cycles
    assert cpp.report.pipe_busy() == py.report.pipe_busy()
    assert cpp.report.utilization() == py.report.utilization()
    text = (CPP_EXAMPLES / "softmax_rows.cpp").read_text().splitlines()
    ins = next(i for i in cpp.streams[0] if i.op == "reduce_max")
    assert ins.file.endswith("softmax_rows.cpp") and "ReduceMax" in text[ins.line - 1]
    for d in (dx, dy):
        aclsim.free(d)
