"""The C++ rows of "core type, broadcast, loop mode, 5HD, misc" (api_cxx.txt's section of that name): each
kernel of last3_kernels.cpp run on one block of the tiny chip, its output checked against NumPy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim.errors import KernelFault, TaskError

SOURCE = Path(__file__).with_name("last3_kernels.cpp")


@pytest.fixture
def run(cpp_kernels):
    """``run(name, inputs, *outs)``: the kernel on one block of the tiny chip with the inputs' device
    copies and a device buffer per output (NumPy arrays the results are copied into); the launch."""
    kernels = cpp_kernels([SOURCE])
    made = []
    aclsim.init(chip="tiny")
    aclsim.set_device(0)

    def go(name: str, inputs: list[np.ndarray], *outs: np.ndarray) -> object:
        stream = aclsim.create_stream()
        ptrs = []
        for a in [*inputs, *outs]:
            d = aclsim.malloc(max(a.nbytes, 32))
            made.append(d)
            aclsim.memcpy(d, a.nbytes, a, a.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
            ptrs.append(d)
        launch = getattr(kernels, name)[1, stream](*ptrs)
        aclsim.synchronize_stream(stream)
        for out, d in zip(outs, ptrs[len(inputs):], strict=True):
            aclsim.memcpy(out, out.nbytes, d, out.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
        return launch

    yield go
    for d in made:
        aclsim.free(d)


def _line(marker: str) -> int:
    return next(i for i, text in enumerate(SOURCE.read_text().splitlines(), 1) if marker in text)


@asc.kernel
def _py_reserved(y: asc.GmAddr) -> None:
    g = asc.GlobalTensor(asc.int32)
    g.set_global_buffer(y, 8)
    g.set_value(4, asc.reserved_workspace())


def test_core_type_on_each_core(run) -> None:
    y = np.zeros(8, np.int32)
    run("last3_core_aiv", [], y)
    assert list(y[:4]) == [2, 1, 2, 1]
    assert y[4] == asc.sys_workspace_size("tiny") == 16 * 2**20
    y = np.zeros(8, np.int32)
    run("last3_core_aic", [], y)
    assert list(y[:4]) == [1, 0, 0, 1]


def test_core_type_needs_a_declared_type(run) -> None:
    with pytest.raises((KernelFault, TaskError)) as err:
        run("last3_core_undeclared", [], np.zeros(8, np.int32))
    assert "g_coreType" in str(err.value)


def test_arange_and_broadcast(run) -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal(16).astype(np.float32)
    r = rng.standard_normal(16).astype(np.float32)
    y = np.zeros(16 + 256 + 64, np.float32)
    launch = run("last3_arange_broadcast", [x, r], y)
    assert np.array_equal(y[:16], np.float32(1.5) + np.arange(16, dtype=np.float32) * np.float32(0.25))
    assert np.array_equal(y[16:272].reshape(16, 16), np.broadcast_to(x[:, None], (16, 16)))
    assert np.array_equal(y[272:].reshape(4, 16), np.broadcast_to(r[None, :], (4, 16)))
    lines = {i.line for i in launch.streams[0] if i.file.endswith("last3_kernels.cpp")}
    assert _line("Broadcast<float, 2, 1>") in lines and _line("BroadCast<float, 2, 0>") in lines


def test_trans_data_to_5hd_three_forms(run) -> None:
    x = np.arange(256, dtype=np.float16)
    y = np.zeros(768, np.float16)
    run("last3_5hd", [x], y)
    expect = x.reshape(16, 16).T
    for k in range(3):
        assert np.array_equal(y[256 * k:256 * (k + 1)].reshape(16, 16), expect), k


def test_reduce_sum_patterns(run) -> None:
    x = np.random.default_rng(5).standard_normal(32).astype(np.float32)
    y = np.zeros(16, np.float32)
    run("last3_reduce_pattern", [x], y)
    m = x.reshape(4, 8)
    assert np.allclose(y[:4], m.sum(axis=1), rtol=1e-6, atol=1e-6)
    assert np.allclose(y[8:16], m.sum(axis=0), rtol=1e-6, atol=1e-6)  # the library sums rows pairwise


def test_loop_mode_is_arch_3510_only(run) -> None:
    with pytest.raises((KernelFault, TaskError)) as err:
        run("last3_loop_mode", [], np.zeros(8, np.int32))
    assert "loop mode exists on arch 3510" in str(err.value)
    assert f"last3_kernels.cpp:{_line('SetLoopModePara(params')}" in str(err.value)


def test_reserved_workspace_in_a_python_kernel() -> None:
    for chip, mib in (("tiny", 16), ("310P", 2)):
        aclsim.init(chip=chip)
        aclsim.set_device(0)
        stream = aclsim.create_stream()
        d = aclsim.malloc(32)
        _py_reserved[1, stream](d)
        aclsim.synchronize_stream(stream)
        y = np.zeros(8, np.int32)
        aclsim.memcpy(y, 32, d, 32, aclsim.MemcpyKind.DEVICE_TO_HOST)
        aclsim.free(d)
        aclsim.destroy_stream(stream)
        aclsim.reset_device(0)
        aclsim.finalize()
        assert y[4] == mib * 2**20, chip


def test_broad_cast_vec_to_mm_on_the_310p(cpp_kernels) -> None:
    kernels = cpp_kernels([SOURCE])
    aclsim.init(chip="310P")
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    x = (np.arange(64) * 3 - 50).astype(np.float32)
    dx, dy = aclsim.malloc(x.nbytes), aclsim.malloc(512 * 4)
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    kernels.last3_brcmm[1, stream](dx, dy)
    aclsim.synchronize_stream(stream)
    y = np.zeros(512, np.float32)
    aclsim.memcpy(y, y.nbytes, dy, y.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    for d in (dx, dy):
        aclsim.free(d)
    aclsim.destroy_stream(stream)
    aclsim.reset_device(0)
    frac = y.reshape(2, 16, 16)
    assert np.array_equal(frac[0], np.broadcast_to(x[:16], (16, 16)))
    assert np.array_equal(frac[1], np.broadcast_to(x[16:32], (16, 16)))


def test_broad_cast_vec_to_mm_has_no_path_on_a_split_chip(run) -> None:
    with pytest.raises((KernelFault, TaskError)) as err:
        run("last3_brcmm", [np.zeros(64, np.float32)], np.zeros(512, np.float32))
    assert "no UB -> L0C path" in str(err.value)
    assert f"last3_kernels.cpp:{_line('BroadCastVecToMM(c, v')}" in str(err.value)


def test_simple_softmax_with_given_sum_and_max(run) -> None:
    rng = np.random.default_rng(11)
    xf = rng.standard_normal((4, 16)).astype(np.float32)
    xh = rng.standard_normal((4, 16)).astype(np.float16)
    mx = rng.standard_normal(4).astype(np.float32)  # not the rows' own: SimpleSoftMax does not reduce
    sm = rng.uniform(1, 4, 4).astype(np.float32)
    y = np.zeros(64 * 2 + 64 * 4, np.uint8)
    launch = run("last3_simple_softmax", [xh.ravel(), np.repeat(sm, 8), np.repeat(mx, 8), xf.ravel()], y)
    expect_h = (np.exp(xh.astype(np.float32) - mx[:, None]) / sm[:, None]).astype(np.float16)
    expect_f = np.exp(xf - mx[:, None]) / sm[:, None]
    assert np.allclose(y[:128].view(np.float16).reshape(4, 16).astype(np.float32), expect_h, rtol=2e-3)
    assert np.allclose(y[128:].view(np.float32).reshape(4, 16), expect_f, rtol=1e-6)
    lines = {i.line for i in launch.streams[0] if i.op == "exp"}
    assert lines == {_line("SimpleSoftMax<half>"), _line("SimpleSoftMax<float>")}


def test_trans_data_to_5hd_int8_high_halves(run) -> None:
    x = np.random.default_rng(4).integers(-128, 128, 512).astype(np.int8)
    y = np.full(512, 7, np.int8)
    run("last3_5hd_int8", [x], y)
    got, src = y.reshape(16, 32), x.reshape(16, 32)
    assert (got[:, :16] == 0).all()
    assert np.array_equal(got[:, 16:], src[:, 16:].T)
