"""The Softmax / LogSoftmax kernels against NumPy (float64 references), on the tiny chip."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from kernels_reduce_support import BF16, assert_close, run, sample

import aclsim.kernel as asc
from aclsim.aclnn.kernels.softmax import launch_softmax, plan_softmax
from aclsim.arch import get_chip
from aclsim.errors import AclnnParamInvalidError, AclnnTilingError

TINY = get_chip("tiny")


@pytest.fixture(autouse=True)
def _tiny(rt: None) -> None:
    """Every test runs on the tiny chip (4 vector cores)."""


def reference(x: np.ndarray, dim: int, log: bool) -> np.ndarray:
    x64 = x.astype(np.float64)
    z = x64 - x64.max(axis=dim, keepdims=True)
    lse = np.log(np.exp(z).sum(axis=dim, keepdims=True))
    return z - lse if log else np.exp(z - lse)


def softmax_on_device(x: np.ndarray, dim: int, log: bool, chip: Any = TINY) -> tuple[np.ndarray, Any]:
    plan = plan_softmax(x.shape, dim, x.dtype, chip, log=log)
    (y,), _ = run(lambda a, b, ws: launch_softmax(plan, None, a, b), [x], [(x.shape, x.dtype)])
    return y, plan


@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16])
@pytest.mark.parametrize(("shape", "dim"),
                         [((6, 100), -1), ((3, 37), 1), ((4, 5, 9), 1), ((5, 3), 0), ((7,), 0)])
@pytest.mark.parametrize("log", [False, True])
def test_softmax_matches_numpy(shape: tuple[int, ...], dim: int, log: bool, dtype: Any) -> None:
    x = sample(shape, dtype, seed=len(shape), scale=4.0)
    y, plan = softmax_on_device(x, dim, log)
    assert plan.mode == ("row" if dim in (-1, len(shape) - 1) else "col")
    assert_close(y, reference(x, dim, log), dtype)


@pytest.mark.parametrize("log", [False, True])
def test_rows_longer_than_ub_stream_in_three_sweeps(log: bool) -> None:
    x = sample((2, 30001), np.float16, seed=3, scale=3.0)
    y, plan = softmax_on_device(x, -1, log)
    assert not plan.resident
    assert_close(y, reference(x, -1, log), np.float16)


def test_large_inputs_do_not_overflow_thanks_to_the_max() -> None:
    x = np.array([[1000.0, 999.0, 998.0]], np.float32)
    y, _ = softmax_on_device(x, -1, False)
    assert np.isfinite(y).all()
    assert_close(y, reference(x, -1, False), np.float32)


def test_plans_use_every_core_and_refuse_what_they_cannot_tile() -> None:
    chip = get_chip("910B")
    p = plan_softmax((8192, 4096), -1, np.float16, chip)
    assert p.block_dim == chip.cores and p.resident and p.workspace_bytes == 0
    with pytest.raises(AclnnTilingError) as e:
        plan_softmax((100000, 4), 0, np.float32, chip)
    assert e.value.code == 561002
    with pytest.raises(AclnnParamInvalidError):
        plan_softmax((4, 4), 0, np.int32, chip)
    with pytest.raises(AclnnParamInvalidError):
        plan_softmax((4, 4), 2, np.float32, chip)


def test_empty_launches_nothing_and_kernels_are_race_free() -> None:
    plan = plan_softmax((0, 5), -1, np.float32, TINY)
    assert launch_softmax(plan, None, 0, 0) is None
    with asc.capture_launches() as launches:
        softmax_on_device(sample((3, 40), np.float32), 0, True)
    assert launches and all(la.error is None and not la.diagnostics for la in launches)
