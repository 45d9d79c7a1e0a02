"""aclsim.testing: the two-phase harness and the sample op it is tested with."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim.errors import AclnnNullptrError, AclnnParamInvalidError
from aclsim.testing import (
    OpHarness,
    generate,
    sample_add,
    sample_add_get_workspace_size,
    sample_destroy_executor,
    sample_set_executor_repeatable,
)


@pytest.fixture
def dev() -> Any:
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    yield
    aclsim.reset_device_force(0)


def _inputs(h: OpHarness, n: int, dtype: Any) -> tuple[np.ndarray, np.ndarray, Any, Any, Any]:
    x, y = generate(n, dtype, seed=1), generate(n, dtype, seed=2)
    return x, y, h.to_device(x), h.to_device(y), h.empty(x.nbytes)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_phase_one_per_run_counts_and_result(dev: Any, dtype: Any) -> None:
    h = OpHarness(aclsim.create_stream(), warmup=2, repeats=3)
    x, y, dx, dy, dz = _inputs(h, 256, dtype)
    calls = []

    def phase_one(*args: Any) -> Any:
        calls.append(args)
        return sample_add_get_workspace_size(*args, dtype=dtype)

    with asc.capture_launches() as launches:
        run = h.run(phase_one, sample_add, dx, dy, dz, 256)
    assert len(calls) == 5 and len(run.phase_one_ms) == 5  # an executor is consumed by its run
    assert not run.repeatable and run.workspace_size == 0 and len(run.device_ms) == 3
    h.assert_close(h.from_device(dz, x.shape, dtype), x + y)
    assert len(launches) == 5
    kernel_ms = launches[-1].report.seconds * 1e3
    assert run.device_ms[-1] == pytest.approx(kernel_ms, rel=1e-9)  # events around one launch
    assert run.host_ms > 0 and all(ms > 0 for ms in run.submit_ms)
    assert "3 run(s) after 2 warm-up" in run.summary()
    h.free_all()


def test_repeatable_executor_is_planned_once_and_destroyed(dev: Any) -> None:
    h = OpHarness(warmup=1, repeats=4)
    x, y, dx, dy, dz = _inputs(h, 128, np.float32)
    made: list[Any] = []

    def phase_one(*args: Any) -> Any:
        size, ex = sample_add_get_workspace_size(*args)
        made.append(ex)
        return size, ex

    destroyed: list[Any] = []
    run = h.run(phase_one, sample_add, dx, dy, dz, 128, repeatable=sample_set_executor_repeatable,
                destroy=lambda ex: (destroyed.append(ex), sample_destroy_executor(ex)))
    assert len(made) == 1 and destroyed == made and made[0].consumed
    assert run.repeatable and len(run.phase_one_ms) == 1 and len(run.device_ms) == 4
    # every run took the same modeled time: the same kernel on the same data
    assert max(run.device_ms) == pytest.approx(min(run.device_ms), rel=1e-9)
    h.assert_close(h.from_device(dz, x.shape, x.dtype), x + y)
    h.free_all()


def test_workspace_comes_from_the_pool_and_is_freed(dev: Any) -> None:
    h = OpHarness(warmup=0, repeats=2)
    x, y, dx, dy, dz = _inputs(h, 1000, np.float32)
    before = aclsim.memory_allocated()
    aclsim.record_memory_history()
    run = h.run(sample_add_get_workspace_size, sample_add, dx, dy, dz, 1000, staged=True)
    assert run.workspace_size == (4000 + 32 + 511) // 512 * 512
    allocs = [e for e in aclsim.memory_history() if e["action"] == "alloc"]
    assert [e["size"] for e in allocs] == [4608]  # allocated once, reused by both runs
    assert aclsim.memory_allocated() == before
    h.assert_close(h.from_device(dz, x.shape, x.dtype), x + y)
    h.free_all()
    assert aclsim.memory_allocated() == 0


def test_a_failing_run_frees_the_workspace_and_events(dev: Any) -> None:
    h = OpHarness(warmup=0, repeats=2)
    _, _, dx, dy, dz = _inputs(h, 64, np.float32)
    before = aclsim.memory_allocated()

    def broken(workspace: Any, size: int, executor: Any, stream: Any) -> None:
        raise AclnnParamInvalidError("boom")

    with pytest.raises(AclnnParamInvalidError, match="boom"):
        h.run(sample_add_get_workspace_size, broken, dx, dy, dz, 64, staged=True)
    assert aclsim.memory_allocated() == before
    h.free_all()
    assert not [line for line in aclsim.leak_report() if line.startswith("event")]


def test_sample_op_rules(dev: Any) -> None:
    h = OpHarness()
    _, _, dx, dy, dz = _inputs(h, 64, np.float32)
    size, ex = sample_add_get_workspace_size(dx, dy, dz, 64)
    sample_add(None, size, ex, None)
    with pytest.raises(AclnnParamInvalidError, match="already ran"):
        sample_add(None, size, ex, None)
    with pytest.raises(AclnnNullptrError, match="executor is None"):
        sample_add(None, 0, None, None)
    size, ex = sample_add_get_workspace_size(dx, dy, dz, 64, staged=True)
    with pytest.raises(AclnnNullptrError, match="needs a workspace"):
        sample_add(None, size, ex, None)
    with pytest.raises(AclnnNullptrError, match="y is None"):
        sample_add_get_workspace_size(dx, None, dz, 64)
    with pytest.raises(AclnnParamInvalidError, match="32 B"):
        sample_add_get_workspace_size(dx, dy, dz, 7)
    assert sample_add_get_workspace_size(dx, dy, dz, 0)[0] == 0
    h.free_all()


def test_bad_counts() -> None:
    with pytest.raises(ValueError, match="repeats >= 1"):
        OpHarness(repeats=0)
