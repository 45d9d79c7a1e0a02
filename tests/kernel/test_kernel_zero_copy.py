"""Kernels on zero-copy host memory (host link costs) and on freed memory (use after free)."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim.errors import UseAfterFreeError
from aclsim.isa import Pipe, Space

N = 2048
F32 = asc.float32


@asc.kernel
def double(x, y):
    gx, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    gx.set_global_buffer(x.cast(F32), N)
    gy.set_global_buffer(y.cast(F32), N)
    pipe = asc.TPipe()
    qi, qo = asc.TQue(asc.QuePosition.VECIN, 1), asc.TQue(asc.QuePosition.VECOUT, 1)
    pipe.init_buffer(qi, 1, N * 4)
    pipe.init_buffer(qo, 1, N * 4)
    a = qi.alloc_tensor(F32)
    asc.data_copy(a, gx[0], N)
    qi.enque(a)
    a = qi.deque(F32)
    b = qo.alloc_tensor(F32)
    asc.muls(b, a, 2.0, N)
    qo.enque(b)
    qi.free_tensor(a)
    b = qo.deque(F32)
    asc.data_copy(gy[0], b, N)
    qo.free_tensor(b)


@pytest.fixture
def dev():
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    yield
    aclsim.reset_device(0)
    aclsim.finalize()


def test_kernel_reads_zero_copy_host_memory_over_the_host_link(dev) -> None:
    chip = aclsim.get_chip("910B")
    x = np.arange(N, dtype=np.float32)
    host = aclsim.malloc_host(x.nbytes)
    aclsim.ptr_to_numpy(host, N, np.float32)[:] = x
    mapped = aclsim.host_register(host, x.nbytes)
    dx, dy = aclsim.malloc(x.nbytes), aclsim.malloc(x.nbytes)
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    zero_copy = double[1](mapped, dy)
    on_device = double[1](dx, dy)
    aclsim.synchronize_stream()
    y = np.empty_like(x)
    aclsim.memcpy(y, y.nbytes, dy, y.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    assert np.array_equal(y, 2 * x)
    copy_in = next(i for i in zero_copy.streams[0] if i.op == "data_copy" and i.pipe is Pipe.MTE2)
    assert copy_in.reads[0].space is Space.HOST and copy_in.reads[0].offset == mapped
    hz, tz = zero_copy.report.timelines[0], on_device.report.timelines[0]
    k = zero_copy.streams[0].index(copy_in)
    link = chip.host_link_bandwidth / chip.clock_hz
    expected = chip.host_link_latency_s * chip.clock_hz + x.nbytes / min(chip.mte2_bytes_per_cycle, link)
    assert hz.end[k] - hz.start[k] == pytest.approx(expected)
    assert zero_copy.report.total_cycles > on_device.report.total_cycles
    assert zero_copy.report.gm_bytes == x.nbytes and on_device.report.gm_bytes == 2 * x.nbytes  # HBM only
    assert tz.gm_read == x.nbytes
    aclsim.host_unregister(host)
    aclsim.free_host(host)
    aclsim.free(dx)
    aclsim.free(dy)


def test_kernel_launch_on_freed_memory_is_a_use_after_free(dev) -> None:
    dx, dy = aclsim.malloc(N * 4), aclsim.malloc(N * 4)
    stale = dx.ptr
    aclsim.free(dx)
    with pytest.raises(UseAfterFreeError, match="freed"):
        double[1](stale, dy)
    aclsim.free(dy)


def test_memory_freed_before_the_stream_reaches_the_kernel(dev) -> None:
    from aclsim.errors import TaskError

    gate = __import__("threading").Event()
    aclsim.launch_function(lambda: (gate.wait(10), 0.0)[1], label="hold the stream")
    dx, dy = aclsim.malloc(N * 4), aclsim.malloc(N * 4)
    launch = double[1](dx, dy)
    aclsim.free(dx)  # the kernel is still queued behind the gate
    gate.set()
    with pytest.raises(TaskError, match=r"was freed at .*zero_copy.py:\d+ before the queued kernel") as exc:
        aclsim.synchronize_stream()
    assert exc.value.code == 207002 and "test_kernel_zero_copy.py" in str(exc.value)
    assert launch.report is None
    aclsim.free(dy)
