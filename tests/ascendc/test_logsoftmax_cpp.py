"""LogSoftMax in C++: ``examples/cpp/log_softmax.cpp`` and its Python twin
``examples/26_kernel_log_softmax.py`` give the same results (checked against float64 NumPy), instruction
streams and reports; a CPU-debug host program's LogSoftMax tiling (the tmp sizes, LogSoftMaxTilingFunc
into both tiling types, the tiling data through GM to GET_TILING_DATA) matches the Python functions."""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import numpy as np
import pytest
from ascendc_support import CPP_EXAMPLES, ROOT, run_program

import aclsim
import aclsim.kernel as asc
from aclsim.errors import FeatureNotSupportedError, TaskError


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


def test_log_softmax_cpp_and_python_twin_agree(cpp_kernels) -> None:
    kernels = cpp_kernels([CPP_EXAMPLES / "log_softmax.cpp"])
    twin = _python_twin("26_kernel_log_softmax")
    rows, cols, blk = twin.ROWS, twin.COLS, twin.BLK  # type: ignore[attr-defined]
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    x = (np.random.default_rng(2).standard_normal((rows, cols)) * 4).astype(np.float32)
    shapes = [(rows, cols), (rows, blk), (rows, blk)]
    dx = aclsim.malloc(x.nbytes)
    dev = [aclsim.malloc(rows * c * 4) for _, c in shapes]
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    results, launches = [], []
    for kernel in (kernels.log_softmax, twin.log_softmax):  # type: ignore[attr-defined]
        for d, s in zip(dev, shapes, strict=True):
            aclsim.memset(d, s[0] * s[1] * 4, 0, s[0] * s[1] * 4)
        launches.append(kernel[twin.BLOCKS, stream](dx, *dev))  # type: ignore[attr-defined]
        aclsim.synchronize_stream(stream)
        outs = [np.zeros(s, np.float32) for s in shapes]
        for o, d in zip(outs, dev, strict=True):
            aclsim.memcpy(o, o.nbytes, d, o.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
        results.append(outs)
    cpp, py = launches
    want_y, want_s, want_mx = twin.reference(x)  # type: ignore[attr-defined]
    np.testing.assert_allclose(results[0][0], want_y, rtol=4e-6, atol=4e-7)
    np.testing.assert_allclose(results[0][1], np.repeat(want_s, blk, axis=1), rtol=2e-6)
    assert np.array_equal(results[0][2], np.repeat(want_mx, blk, axis=1).astype(np.float32))
    for a, b in zip(results[0], results[1], strict=True):
        assert np.array_equal(a.view(np.uint32), b.view(np.uint32))
    assert [[_key(i) for i in s] for s in cpp.streams] == [[_key(i) for i in s] for s in py.streams]
    assert cpp.report.total_cycles == py.report.total_cycles
    assert cpp.report.pipe_busy() == py.report.pipe_busy()
    assert cpp.report.utilization() == py.report.utilization()
    # a work buffer of 8 rows: each block's 12 rows go as a split of 8 and a tail of 4
    assert all([i.op for i in s].count("ln") == 2 for s in cpp.streams)
    # the instructions cite the C++ call
    text = (CPP_EXAMPLES / "log_softmax.cpp").read_text().splitlines()
    ins = next(i for i in cpp.streams[0] if i.op == "ln")
    assert ins.file.endswith("log_softmax.cpp") and "LogSoftMax<float>(" in text[ins.line - 1]
    for d in (dx, *dev):
        aclsim.free(d)


def test_host_tiling_and_tiling_data_through_gm(host_program) -> None:
    exe = host_program([Path(__file__).with_name("logsoftmax_host.cpp")], "logsoftmax_host")
    done = run_program(exe, env={"ACLSIM_CHIP": "tiny"})
    assert done.returncode == 0, done.stdout + done.stderr
    got = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines()}
    m, k = 10, 64
    min_tmp = asc.get_log_soft_max_min_tmp_size((m, k), 4)
    assert [int(v) for v in got["sizes"]] == [asc.get_log_soft_max_max_tmp_size((m, k), 4), min_tmp,
                                              asc.get_log_soft_max_min_tmp_size((4, 32), 2)]
    tiling = asc.LogSoftMaxTiling()
    asc.log_soft_max_tiling_func((m, k), 4, 3 * min_tmp, tiling)
    assert [int(v) for v in got["plain"]] == list(dataclasses.astuple(tiling))
    assert [int(v) for v in got["optiling"]] == [tiling.split_m, tiling.tail_m, 4 + 16 * 4]
    assert 1 < tiling.split_m < m and tiling.tail_m  # splits and a tail through GET_TILING_DATA
    assert "PASS" in done.stdout
    assert "lsm_tiled<<<1>>> on tiny" in done.stderr


KERNELS = Path(__file__).with_name("logsoftmax_kernels.cpp")


def _line(marker: str) -> int:
    return next(i for i, text in enumerate(KERNELS.read_text().splitlines(), 1) if marker in text)


def test_half_with_a_reduced_prefix_of_the_columns(cpp_kernels, rt) -> None:
    """half in C++, oriSrcK < srcK: the result is the float32 computation rounded to half."""
    k = cpp_kernels([KERNELS])
    m, cols, ori, blk = 8, 48, 40, 16
    x = (np.random.default_rng(7).standard_normal((m, cols)) * 3).astype(np.float16)
    dev = [aclsim.malloc(n * 2) for n in (m * cols, m * cols, m * blk, m * blk)]
    aclsim.memcpy(dev[0], x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    launch = k.lsm_half[1, None](*dev)
    aclsim.synchronize_stream(None)
    y, s, mx = np.zeros((m, cols), np.float16), np.zeros((m, blk), np.float16), np.zeros((m, blk), np.float16)
    for o, d in zip((y, s, mx), dev[1:], strict=True):
        aclsim.memcpy(o, o.nbytes, d, o.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    xd = x.astype(np.float64)
    wm = xd[:, :ori].max(axis=1, keepdims=True)
    e = np.exp(xd - wm)
    ws = e[:, :ori].sum(axis=1, keepdims=True)
    np.testing.assert_allclose(y.astype(np.float64), np.log10(e / ws), rtol=1e-3, atol=2e-3)
    np.testing.assert_allclose(s.astype(np.float64), np.broadcast_to(ws, (m, blk)), rtol=1e-3)
    assert np.array_equal(mx.astype(np.float64), np.broadcast_to(wm, (m, blk)))
    assert any(i.op == "muls" for i in launch.streams[0])
    for d in dev:
        aclsim.free(d)


def _launch_error(kernel: object) -> BaseException:
    stream = aclsim.create_stream()
    kernel[1, stream](aclsim.malloc(64))  # type: ignore[index]
    with pytest.raises(TaskError) as info:
        aclsim.synchronize_stream(stream)
    return info.value.cause


@pytest.mark.parametrize(
    "name, marker, exc, text",
    [
        ("lsm_no_shape", "NO-SHAPE-LINE", ValueError, "SoftMaxShapeInfo"),
        ("lsm_overlap", "OVERLAP-LINE", ValueError, "max (UB bytes"),
        ("lsm_nz", "NZ-LINE", FeatureNotSupportedError, "NZ"),
    ],
)
def test_refusals_name_the_cpp_line(cpp_kernels, rt, name, marker, exc, text) -> None:
    err = _launch_error(getattr(cpp_kernels([KERNELS]), name))
    # (the bridge hands a Python error of the call on as a KernelPythonError holding it)
    assert isinstance(getattr(err, "error", err), exc) and text in str(err), err
    assert err.code == (207000 if exc is FeatureNotSupportedError else 507000)  # type: ignore[attr-defined]
    assert err.file.endswith("logsoftmax_kernels.cpp") and err.line == _line(marker), err  # type: ignore[attr-defined]
