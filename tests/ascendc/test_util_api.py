"""The C++ rows of "memory, cache, utilities, registers" (api_cxx.txt's last section): each kernel of
util_kernels.cpp run on one block of the tiny chip, its output checked against NumPy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim.arch.presets import get_chip
from aclsim.errors import KernelFault, TaskError

SOURCE = Path(__file__).with_name("util_kernels.cpp")


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


@asc.kernel
def _py_trap(y: asc.GmAddr) -> None:
    asc.trap()


def _line(marker: str) -> int:
    return next(i for i, text in enumerate(SOURCE.read_text().splitlines(), 1) if marker in text)


def test_ctrl_spr_saturation_and_ceil_division(run) -> None:
    y = np.full(16, -1, np.int32)
    run("util_regs", [], y)
    # CTRL[48] reads 1 (Inf/NaN mode); the float saturation flag clears it; SetCtrlSpr sets it back
    assert list(y[:6]) == [1, 1, 0, 0, 3, 0]


def test_ascend_dequant_tensor_and_scalar_scale(run) -> None:
    rng = np.random.default_rng(7)
    src = rng.integers(-1000, 1000, 32).astype(np.int32)
    scale = rng.uniform(-2, 2, 8).astype(np.float32)
    y = np.zeros(128, np.float32)
    launch = run("util_dequant", [src, scale], y)
    rows = src.reshape(4, 8).astype(np.float32)
    expect = (rows * scale).ravel()
    assert np.allclose(y[:32], expect, rtol=1e-6)
    assert np.array_equal(y[32:64], src.astype(np.float32) * np.float32(0.5))
    # calCount 6 of 8: the last two columns hold the converted source (the page)
    part = rows.copy()
    part[:, :6] *= scale[:6]
    assert np.allclose(y[64:96], part.ravel(), rtol=1e-6)
    assert np.allclose(y[96:104], rows[0] * scale, rtol=1e-6)      # the count form: 8 elements
    line = next(i for i in launch.streams[0] if i.line == _line("AscendDequant(d, s, c"))
    assert line.file.endswith("util_kernels.cpp")


def test_mul_add_dst_count_and_mask(run) -> None:
    rng = np.random.default_rng(8)
    a = rng.uniform(-4, 4, 64).astype(np.float16)
    b = rng.uniform(-4, 4, 64).astype(np.float16)
    y = np.zeros(192, np.float32)
    run("util_mul_add_dst", [a, b], y)
    prod = a.astype(np.float32) * b.astype(np.float32)
    assert np.allclose(y[:64], prod + 1, rtol=1e-6)
    assert np.allclose(y[64:96], prod[:32] + 2, rtol=1e-6)
    assert np.array_equal(y[96:128], np.full(32, 2, np.float32))
    on = np.array([(0xF0F0F0F00000FFFF >> i) & 1 for i in range(64)], bool)
    assert np.allclose(y[128:][on], prod[on] + 3, rtol=1e-6)
    assert np.array_equal(y[128:][~on], np.full(int((~on).sum()), 3, np.float32))


def test_transpose_16x16_and_nchw_to_nhwc(run) -> None:
    x = (np.arange(256) % 97).astype(np.float16)
    y = np.zeros(512, np.float16)
    run("util_transpose", [x], y)
    assert np.array_equal(y[:256].reshape(16, 16), x.reshape(16, 16).T)
    assert np.array_equal(y[256:], x.reshape(1, 16, 4, 4).transpose(0, 2, 3, 1).ravel())


def test_reduce_repeat_sum_register(run) -> None:
    x = np.random.default_rng(9).uniform(-3, 3, 64).astype(np.float32)
    y = np.zeros(8, np.float32)
    run("util_repeat_sum", [x], y)
    assert y[0] == pytest.approx(float(x.sum(dtype=np.float64)), rel=1e-5, abs=1e-4)
    assert y[1] == y[0]


def test_pop_stack_buffer_and_chip_sizes(run) -> None:
    chip = get_chip("tiny")
    y = np.zeros(16, np.int32)
    run("util_pop", [], y)
    start = -(-1000 // 32) * 32  # above the pipe's buffer, 32 B aligned
    assert y[0] == 1 and y[1] == (chip.ub_usable_bytes - start) // 4  # up to the usable UB
    assert list(y[2:8]) == [chip.ub_bytes, chip.ub_usable_bytes, chip.l1_bytes // 1024, chip.l0a_bytes,
                            chip.l0b_bytes, chip.l0c_bytes]
    assert np.array_equal(y[8:], np.full(8, 7, np.int32))


def test_trap_faults_at_its_line(run, cpp_kernels) -> None:
    k = cpp_kernels([SOURCE])
    stream = aclsim.create_stream()
    k.util_trap[1, stream](aclsim.malloc(32))
    with pytest.raises(TaskError) as info:
        aclsim.synchronize_stream(stream)
    err = info.value.cause
    assert isinstance(err, KernelFault) and err.line == _line("TRAP-LINE"), err
    # the code of the core it ran on, as the Python kernel's Trap gives on the same launch
    twin = aclsim.create_stream()
    _py_trap[1, twin](aclsim.malloc(32))
    with pytest.raises(TaskError) as py_info:
        aclsim.synchronize_stream(twin)
    assert err.code == py_info.value.cause.code and err.code in (507015, 507035)


def test_ascendc_utils_static_members(run) -> None:
    # SetMask through AscendCUtils, then Add<float, false> (isSetMask false: the register's mask, as a C++
    # bool template argument must reach Python as False, not 0)
    x = np.random.default_rng(10).uniform(-5, 5, 128).astype(np.float32)
    yi, yf = np.zeros(8, np.int32), np.zeros(192, np.float32)
    run("util_ascendc_utils", [x], yi, yf)
    assert list(yi[:5]) == [16, 32, 16, 8, 0]
    for start, n in ((0, 16), (64, 24), (128, 40)):
        assert np.array_equal(yf[start:start + n], x[:n] + x[:n])
        assert not yf[start + n:start + 64].any()


def test_cache_bypass_cycle_and_local_mem_allocator(run) -> None:
    x = np.arange(64, dtype=np.int32) * 3 - 50
    y = np.zeros(64, np.int32)
    launch = run("util_memory", [x], y)
    ends = np.cumsum([64 * 4, 32 * 4, 8 * 4, 8 * 4])  # the allocator's address after each Alloc
    assert list(y[:8]) == [2 * x[3], 32, 1, *ends, 16]
    assert np.array_equal(y[8:40], x[:32] + 5)
    ops = {i.op for s in launch.streams for i in s}
    assert "dcci" in ops, ops


def test_list_tensor_desc(run) -> None:
    tensors = [np.arange(6, dtype=np.float32), np.arange(12, dtype=np.float32) + 100]
    bufs = []
    for t in tensors:
        d = aclsim.malloc(t.nbytes)
        aclsim.memcpy(d, t.nbytes, t, t.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
        bufs.append(d)
    words = np.asarray(asc.list_tensor_desc_words([int(b) for b in bufs], [(2, 3), (3, 4)]), np.uint64)
    y = np.zeros(16, np.int32)
    run("util_list", [words], y)
    assert list(y[:9]) == [2, 2, 1, 3, 4, 4, 102, 1, 0]
    for d in bufs:
        aclsim.free(d)


def test_local_tensor_placed_at_an_address(run, cpp_kernels) -> None:
    x = np.random.default_rng(11).uniform(-3, 3, 64).astype(np.float32)
    y = np.zeros(64, np.float32)
    launch = run("util_placed", [x], y)
    assert np.array_equal(y, x + np.float32(1))
    adds = next(i for i in launch.streams[0] if i.op == "adds")
    assert adds.file.endswith("util_kernels.cpp")
    # a misaligned address faults at the constructor's line
    k = cpp_kernels([SOURCE])
    stream = aclsim.create_stream()
    k.util_placed_misaligned[1, stream](aclsim.malloc(32))
    with pytest.raises(TaskError) as info:
        aclsim.synchronize_stream(stream)
    assert info.value.cause.line == _line("MISALIGNED-LINE"), info.value.cause


def test_layout_helpers_crd2idx(run) -> None:
    y = np.zeros(16, np.int32)
    run("util_layout", [], y)
    nested = asc.Layout(((2, 4), (3, 5)), ((3, 6), (1, 24)))
    expect = [asc.crd2idx((3, 1), (4, 2), (4, 1)), asc.crd2idx(5, (4, 2), (4, 1)),
              asc.crd2idx((1, 2, 3), (3, 4, 5), (20, 5, 1)), asc.crd2idx((11, 12), nested),
              asc.crd2idx(((1, 2), 7), nested), 1, 41]
    assert list(y[:7]) == expect
    # column-major delinearization by hand: 5 in (4, 2) is (1, 1) -> 1 * 4 + 1 * 1
    assert y[1] == 5 and y[0] == 3 * 4 + 1


def test_l2_cache_hint_and_local_tensor_place(run) -> None:
    y = np.zeros(8, np.int32)
    run("util_place_query", [np.zeros(64, np.float32)], y)
    assert list(y[:5]) == [1024, 1024 + 3 * 4, 1024 + 8 * 4, 1, asc.DEFAULT_C0_SIZE]


def test_queue_state_queries(run) -> None:
    y = np.full(16, -1, np.int32)
    run("util_queue_state", [], y)
    # TQue depth 2, two buffers: empty; one queued (a buffer idle); both queued (none idle)
    assert list(y[:6]) == [0, 1, 1, 1, 2, 0]
    # TQueBind depth 1, one buffer: vacant; then one queued, full, no idle buffer
    assert list(y[6:11]) == [1, 1, 1, 0, 0]
