"""The Softmax row kernel: several rows per load, per-row max and sum kept in 32 B blocks on the
vector pipe (no scalar round trip), so the next load overlaps the current rows' reductions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from kernels_reduce_support import BF16, assert_close, run, sample
from kernels_rows_support import loads_run_ahead, scalar_ops

import aclsim.kernel as asc
from aclsim.aclnn.kernels.softmax import launch_softmax, plan_softmax
from aclsim.arch import get_chip

TINY = get_chip("tiny")


@pytest.fixture(autouse=True)
def _tiny(rt: None) -> None:
    """Every test runs on the tiny chip (4 vector cores)."""


def reference(x: np.ndarray, log: bool) -> np.ndarray:
    z = x.astype(np.float64)
    z = z - z.max(axis=-1, keepdims=True)
    lse = np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return z - lse if log else np.exp(z - lse)


def softmax_rows(x: np.ndarray, log: bool, out_dtype: Any = None) -> tuple[np.ndarray, Any, Any]:
    odt = np.dtype(out_dtype or x.dtype)
    plan = plan_softmax(x.shape, -1, x.dtype, TINY, log=log, out_dtype=odt)
    with asc.capture_launches() as launches:
        (y,), _ = run(lambda a, b, ws: launch_softmax(plan, None, a, b), [x], [(x.shape, odt)])
    (la,) = launches
    return y, plan, la


@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16])
@pytest.mark.parametrize("log", [False, True])
def test_several_rows_per_load_with_odd_row_counts_per_core(log: bool, dtype: Any) -> None:
    x = sample((4 * 9 + 2, 2000), dtype, seed=11, scale=4.0)  # 38 rows: 10, 10, 9, 9 per core
    y, plan, la = softmax_rows(x, log)
    assert plan.resident and 2 <= plan.rows < 9
    assert_close(y, reference(x, log), dtype)
    assert scalar_ops(la) == 0
    assert loads_run_ahead(la)


@pytest.mark.parametrize("log", [False, True])
def test_rows_whose_length_is_not_a_block_multiple_and_a_wider_output(log: bool) -> None:
    x = sample((13, 203), np.float16, seed=2, scale=3.0)  # 406 B rows: slots padded to 416 B
    y, plan, _ = softmax_rows(x, log, np.float32)
    assert plan.slot == 208 and plan.rows >= 4
    assert_close(y, reference(x, log), np.float32)


@pytest.mark.parametrize("log", [False, True])
def test_rows_that_do_not_fit_stream_without_the_scalar_pipe(log: bool) -> None:
    x = sample((3, 30001), np.float16, seed=3, scale=3.0)
    y, plan, la = softmax_rows(x, log)
    assert not plan.resident and plan.rows == 0
    assert_close(y, reference(x, log), np.float16)
    assert scalar_ops(la) == 0


def test_the_plan_carries_several_rows_at_the_benchmark_shape() -> None:
    chip = get_chip("910B")
    p = plan_softmax((8192, 4096), -1, np.float16, chip)
    assert p.resident and p.rows >= 2 and p.rows * p.slot <= p.tile
    small = plan_softmax((8192, 4096), -1, np.float16, chip.with_changes(ub_bytes=96 * 1024))
    assert small.rows < p.rows
