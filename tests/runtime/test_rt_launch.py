"""A kernel launch as the runtime runs it: the backend's pipeline (record -> passes -> timing ->
report -> hooks), the race reported before any timing, and the null backend."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim import errors
from aclsim.isa import HardEvent, Instr
from aclsim.runtime.backends import NullBackend, SimBackend, add_launch_listener, remove_launch_listener

N = 256
F32 = asc.float32


class CountingBackend(SimBackend):
    """The sim backend, counting how often the core model ran."""

    def __init__(self) -> None:
        self.timed = 0

    def time(self, chip: Any, streams: list[list[Instr]]) -> Any:
        self.timed += 1
        return super().time(chip, streams)


@asc.kernel
def scale(x, y, flags):
    gx, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    gx.set_global_buffer(x, N)
    gy.set_global_buffer(y, N)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.QuePosition.VECCALC)
    pipe.init_buffer(buf, 2 * N * 4)
    a, b = buf.get_with_offset(F32, N, 0), buf.get_with_offset(F32, N, N * 4)
    asc.data_copy(a, gx[0], N)
    if flags != "race":
        asc.set_flag(HardEvent.MTE2_V, 0)
        asc.wait_flag(HardEvent.MTE2_V, 1 if flags == "wrong_id" else 0)
    asc.muls(b, a, 3.0, N)
    asc.set_flag(HardEvent.V_MTE3, 0)
    asc.wait_flag(HardEvent.V_MTE3, 0)
    asc.data_copy(gy[0], b, N)


def _buffers() -> tuple[np.ndarray, aclsim.Buffer, aclsim.Buffer]:
    x = np.arange(N, dtype=np.float32)
    dx, dy = aclsim.malloc(x.nbytes), aclsim.malloc(x.nbytes)
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    return x, dx, dy


def _result(dy: aclsim.Buffer) -> np.ndarray:
    out = np.zeros(N, np.float32)
    aclsim.memcpy(out, out.nbytes, dy, out.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    return out


def test_a_race_is_reported_before_any_timing() -> None:
    backend = CountingBackend()
    aclsim.init(chip="tiny", backend=backend)
    aclsim.set_device(0)
    x, dx, dy = _buffers()
    good = scale[1](dx, dy, "ok")
    aclsim.synchronize_stream()
    assert backend.timed == 1 and good.report is not None and np.array_equal(_result(dy), 3 * x)
    racy = scale[1](dx, dy, "race")
    with pytest.raises(errors.TaskError) as info:
        aclsim.synchronize_stream()
    assert isinstance(info.value.cause, errors.RaceError)
    assert backend.timed == 1 and racy.report is None and racy.streams  # recorded, never timed
    # misused flags are the kernel's first fault: the core model reports them, as a device hangs
    broken = scale[1](dx, dy, "wrong_id")
    with pytest.raises(errors.TaskError) as info:
        aclsim.synchronize_stream()
    assert isinstance(info.value.cause, errors.KernelDeadlockError) and backend.timed == 2
    assert broken.error is info.value.cause


def test_null_backend_runs_kernels_exactly_without_timing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ACLSIM_BACKEND", "null")
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    x, dx, dy = _buffers()
    stream = aclsim.create_stream()
    before = stream.clock
    seen: list[Any] = []
    listener = add_launch_listener(seen.append)
    try:
        launch = scale[2, stream](dx, dy, "ok")
        aclsim.synchronize_stream(stream)
    finally:
        remove_launch_listener(listener)
    assert seen == [launch] and launch.report is None and len(launch.streams) == 2
    assert stream.clock == before  # no modeled time
    assert np.array_equal(_result(dy), 3 * x)
    racy = scale[1, stream](dx, dy, "race")
    with pytest.raises(errors.TaskError) as info:  # still checked
        aclsim.synchronize_stream(stream)
    assert isinstance(info.value.cause, errors.RaceError) and racy.error is not None
    scale[1, stream](dx, dy, "wrong_id")
    with pytest.raises(errors.TaskError) as info:  # flags checked without the core model
        aclsim.synchronize_stream(stream)
    cause = info.value.cause
    assert isinstance(cause, errors.KernelDeadlockError) and cause.line > 0 and cause.block == 0
    aclsim.destroy_stream(stream)


def test_backend_choice_is_validated() -> None:
    aclsim.init(chip="tiny", backend=NullBackend())
    aclsim.finalize()
    with pytest.raises(errors.InvalidParamError, match="backend"):
        aclsim.init(chip="tiny", backend="gpu-please")


def test_launch_kernel_runs_any_kernel_run() -> None:
    """The runtime's side of a launch takes anything shaped like a KernelRun."""
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    calls: list[str] = []

    class Run:
        name, block_dim, chip = "fake", 1, aclsim.get_chip("tiny")

        class options:
            auto_sync, detect_races = False, True

        def record(self, find_memory: Any) -> list[list[Instr]]:
            calls.append("record")
            return [[]]

        def recorded(self, streams: Any, sync_stats: Any) -> None:
            calls.append("recorded")

        def timed(self, report: Any, sim_seconds: float) -> None:
            calls.append(f"timed {int(report.total_cycles)}")

        def fail(self, error: BaseException) -> None:
            calls.append("fail")

        def close(self) -> None:
            calls.append("close")

    aclsim.launch_kernel(Run())
    aclsim.synchronize_stream()
    assert calls == ["record", "recorded", "timed 0", "close"]
