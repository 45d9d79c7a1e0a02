"""KernelOptions.on_race: "fail" (the default) fails a launch with a race; "report" notes every race
(both lines) on the launch's diagnostics, warns, and lets the launch finish."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim.errors import InvalidParamError, RaceError, TaskError
from aclsim.kernel import KernelOptions, KernelSanitizerWarning

N = 64
F32 = asc.float32


def line_of(marker: str) -> int:
    with open(__file__) as f:
        for i, text in enumerate(f, 1):
            if marker in text and "line_of(" not in text:
                return i
    raise AssertionError(marker)


def racy(x, y):
    gx, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    gx.set_global_buffer(x.cast(F32), N)
    gy.set_global_buffer(y.cast(F32), N)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.QuePosition.VECCALC)
    pipe.init_buffer(buf, 2 * N * 4)
    a, b = buf.get_with_offset(F32, N, 0), buf.get_with_offset(F32, N, N * 4)
    asc.data_copy(a, gx[0], N)  # COPY-IN
    asc.muls(b, a, 3.0, N)  # MULS: RAW with the copy, no flag
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(gy[0], b, N)


def plain_and_atomic(x, y):
    b = asc.get_block_idx()
    pipe = asc.TPipe()
    buf = asc.TBuf()
    pipe.init_buffer(buf, N * 4)
    t = buf.get(F32)
    gx, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    gx.set_global_buffer(x.cast(F32))
    gy.set_global_buffer(y.cast(F32))
    asc.data_copy(t, gx[b * N], N)
    asc.pipe_barrier(asc.PIPE_ALL)
    if b != 1:
        asc.set_atomic_add(F32)
    asc.data_copy(gy, t, N)  # STORE: block 1's is plain
    asc.set_atomic_none()
    asc.pipe_barrier(asc.PIPE_ALL)


@pytest.fixture
def dev():
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    x = np.arange(3 * N, dtype=np.float32)
    dx, dy = aclsim.malloc(x.nbytes), aclsim.malloc(x.nbytes)
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    aclsim.memset(dy, x.nbytes, 0, x.nbytes)
    yield x, dx, dy
    aclsim.free(dx)
    aclsim.free(dy)
    aclsim.reset_device(0)
    aclsim.finalize()


def test_on_race_is_validated() -> None:
    assert KernelOptions().on_race == "fail"
    with pytest.raises(InvalidParamError, match="on_race"):
        KernelOptions(on_race="ignore")


def test_a_race_fails_the_launch_by_default(dev) -> None:
    _, dx, dy = dev
    launch = asc.kernel(racy)[1](dx, dy)
    with pytest.raises(TaskError):
        aclsim.synchronize_stream()
    assert isinstance(launch.error, RaceError)


def test_report_notes_the_race_with_both_lines_and_the_launch_runs(dev) -> None:
    x, dx, dy = dev
    with pytest.warns(KernelSanitizerWarning, match="RAW race"):
        launch = asc.kernel(racy, on_race="report")[1](dx, dy)
        aclsim.synchronize_stream()
    assert launch.error is None and launch.report is not None
    races = [d for d in launch.diagnostics if d.kind == "race"]
    assert len(races) == 1
    text = str(races[0])
    assert f"test_kernel_on_race.py:{line_of('# COPY-IN')}" in text
    assert f"test_kernel_on_race.py:{line_of('# MULS')}" in text
    assert races[0].line == line_of("# MULS") and races[0].end - races[0].start == N * 4
    y = np.zeros(N, np.float32)
    aclsim.memcpy(y, y.nbytes, dy, y.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    np.testing.assert_array_equal(y, 3 * x[:N])  # aclsim runs in program order


def test_report_notes_a_cross_block_atomic_race(dev) -> None:
    _, dx, dy = dev
    k = asc.kernel(plain_and_atomic)
    k[3](dx, dy)
    with pytest.raises(TaskError):
        aclsim.synchronize_stream()
    with pytest.warns(KernelSanitizerWarning, match="cross-block race"):
        launch = k.with_options(on_race="report")[3](dx, dy)
        aclsim.synchronize_stream()
    races = [d for d in launch.diagnostics if d.kind == "race"]
    assert launch.error is None and len(races) == 1
    assert "plain write" in races[0].detail and races[0].line == line_of("# STORE")


def test_races_of_the_same_two_lines_are_one_diagnostic(dev) -> None:
    _, dx, dy = dev

    def scalar_then_vector(x, y):
        gy = asc.GlobalTensor(F32)
        gy.set_global_buffer(y.cast(F32), N)
        pipe = asc.TPipe()
        buf = asc.TBuf(asc.QuePosition.VECCALC)
        pipe.init_buffer(buf, 2 * N * 4)
        a, b = buf.get_with_offset(F32, N, 0), buf.get_with_offset(F32, N, N * 4)
        for i in range(4):
            a.set_value(i, float(i))  # SCALAR-STORE
        asc.muls(b, a, 2.0, N)  # VECTOR-READ: S -> V with no flag, four times
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(gy[0], b, N)

    with pytest.warns(KernelSanitizerWarning):
        launch = asc.kernel(scalar_then_vector, on_race="report")[1](dx, dy)
        aclsim.synchronize_stream()
    races = [d for d in launch.diagnostics if d.kind == "race"]
    assert len(races) == 1 and races[0].count == 4, [str(d) for d in races]
    assert races[0].line == line_of("# VECTOR-READ") and races[0].end - races[0].start == 16
    text = str(races[0])
    assert f"test_kernel_on_race.py:{line_of('# SCALAR-STORE')}" in text and "4 races" in text
