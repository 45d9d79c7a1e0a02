"""The race sanitizer at launch: unordered cross-pipe accesses are faults naming both lines."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim.errors import RaceError, TaskError
from aclsim.isa import HardEvent

N = 256
F32 = asc.float32


def _kernel(with_flags: bool):
    @asc.kernel
    def racy(x, y):
        gx, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
        gx.set_global_buffer(x.cast(F32), N)
        gy.set_global_buffer(y.cast(F32), N)
        pipe = asc.TPipe()
        buf = asc.TBuf(asc.QuePosition.VECCALC)
        pipe.init_buffer(buf, 2 * N * 4)
        a, b = buf.get_with_offset(F32, N, 0), buf.get_with_offset(F32, N, N * 4)
        asc.data_copy(a, gx[0], N)  # MTE2 writes a
        if with_flags:
            asc.set_flag(HardEvent.MTE2_V, 0)
            asc.wait_flag(HardEvent.MTE2_V, 0)
        asc.muls(b, a, 3.0, N)  # V reads a: RAW with the copy unless flagged
        if with_flags:
            asc.set_flag(HardEvent.V_MTE3, 0)
            asc.wait_flag(HardEvent.V_MTE3, 0)
        asc.data_copy(gy[0], b, N)  # MTE3 reads b: RAW with the muls unless flagged

    return racy


@pytest.fixture
def dev():
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    x = np.arange(N, dtype=np.float32)
    dx, dy = aclsim.malloc(x.nbytes), aclsim.malloc(x.nbytes)
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    yield x, dx, dy
    aclsim.free(dx)
    aclsim.free(dy)
    aclsim.reset_device(0)
    aclsim.finalize()


def test_missing_flags_are_reported_with_both_lines(dev) -> None:
    _, dx, dy = dev
    launch = _kernel(with_flags=False)[1](dx, dy)
    with pytest.raises(TaskError) as exc:
        aclsim.synchronize_stream()
    assert isinstance(launch.error, RaceError) and exc.value.code == 507015
    text = str(exc.value)
    lines = Path(__file__).read_text().splitlines()
    copy_line = next(i for i, ln in enumerate(lines, 1) if "asc.data_copy(a, gx[0], N)" in ln)
    muls_line = next(i for i, ln in enumerate(lines, 1) if "asc.muls(b, a, 3.0, N)" in ln)
    assert "RAW race on UB" in text
    assert f"test_kernel_sanitizer.py:{copy_line}" in text and f"test_kernel_sanitizer.py:{muls_line}" in text
    assert "set_flag MTE2 V" in text and launch.error.block == 0


def test_flagged_kernel_passes_and_the_check_can_be_turned_off(dev) -> None:
    x, dx, dy = dev
    _kernel(with_flags=True)[1](dx, dy)
    aclsim.synchronize_stream()
    y = np.empty_like(x)
    aclsim.memcpy(y, y.nbytes, dy, y.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    assert np.array_equal(y, x * np.float32(3))
    unchecked = _kernel(with_flags=False).with_options(detect_races=False)[1](dx, dy)
    aclsim.synchronize_stream()
    assert unchecked.error is None and unchecked.report is not None
