"""The LayerNorm / RmsNorm row kernels: several rows per load, mean and rstd kept in 32 B blocks
on the vector pipe (no scalar round trip) and gathered into the statistics outputs, so the next
load overlaps the current rows' reductions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from kernels_reduce_support import BF16, assert_close, run, sample
from kernels_rows_support import loads_run_ahead, scalar_ops

import aclsim.kernel as asc
from aclsim.aclnn.kernels.norm import launch_norm, plan_layer_norm, plan_rms_norm
from aclsim.aclnn.kernels.reduce_tiling import GROUP
from aclsim.arch import get_chip

TINY = get_chip("tiny")


@pytest.fixture(autouse=True)
def _tiny(rt: None) -> None:
    """Every test runs on the tiny chip (4 vector cores)."""


def layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> tuple[list[np.ndarray], Any, Any]:
    plan = plan_layer_norm(x.shape, 1, x.dtype, TINY, weight_dtype=w.dtype, bias_dtype=b.dtype, eps=1e-5)
    rows = x.shape[0]
    with asc.capture_launches() as launches:
        outs, _ = run(lambda xb, wb, bb, yb, mb, rb, ws: launch_norm(plan, None, xb, wb, bb, yb, mb, rb),
                      [x, w, b], [(x.shape, x.dtype), ((rows,), x.dtype), ((rows,), x.dtype)])
    (la,) = launches
    return outs, plan, la


def rms_norm(x: np.ndarray, g: np.ndarray) -> tuple[list[np.ndarray], Any, Any]:
    plan = plan_rms_norm(x.shape, 1, x.dtype, g.dtype, TINY, epsilon=1e-6)
    with asc.capture_launches() as launches:
        outs, _ = run(lambda xb, gb, yb, rb, ws: launch_norm(plan, None, xb, gb, yb, rb), [x, g],
                      [(x.shape, x.dtype), ((x.shape[0],), np.float32)])
    (la,) = launches
    return outs, plan, la


def layer_norm_ref(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=1, keepdims=True)
    rstd = 1 / np.sqrt(((x64 - mean) ** 2).mean(axis=1, keepdims=True) + 1e-5)
    return (x64 - mean) * rstd * w.astype(np.float64) + b.astype(np.float64), mean.ravel(), rstd.ravel()


@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16])
def test_layer_norm_several_rows_per_load_odd_counts_per_core(dtype: Any) -> None:
    x = sample((4 * 7 + 3, 3000), dtype, seed=1, scale=2.0) + np.asarray(1, dtype)  # 8, 8, 8, 7 rows
    w, b = sample((3000,), dtype, seed=2), sample((3000,), dtype, seed=3)
    (y, mean, rstd), plan, la = layer_norm(x, w, b)
    assert plan.resident and 2 <= plan.per_load < 7
    ry, rm, rr = layer_norm_ref(x, w, b)
    assert_close(y, ry, dtype)
    assert_close(mean, rm, dtype)
    assert_close(rstd, rr, dtype)
    assert scalar_ops(la) == 0
    assert loads_run_ahead(la)


def test_statistics_of_loads_that_straddle_a_group_are_stored_in_order() -> None:
    x = sample((4 * (GROUP + 37), 40), np.float32, seed=4)  # 101 rows per core, loads of up to GROUP
    w, b = np.ones(40, np.float32), np.zeros(40, np.float32)
    (y, mean, rstd), plan, _ = layer_norm(x, w, b)
    assert plan.per_load == GROUP
    ry, rm, rr = layer_norm_ref(x, w, b)
    assert_close(y, ry, np.float32)
    assert_close(mean, rm, np.float32)
    assert_close(rstd, rr, np.float32)


@pytest.mark.parametrize(("r", "resident"), [(2500, True), (30001, False)])
def test_rms_norm_without_the_scalar_pipe(r: int, resident: bool) -> None:
    x = sample((33 if resident else 5, r), np.float16, seed=5)  # resident: 9, 8, 8, 8 rows per core
    g = sample((r,), np.float32, seed=6)
    (y, rstd), plan, la = rms_norm(x, g)
    assert plan.resident == resident
    x64 = x.astype(np.float64)
    rr = 1 / np.sqrt((x64 ** 2).mean(axis=1, keepdims=True) + 1e-6)
    assert_close(rstd, rr.ravel(), np.float32)
    assert_close(y, x64 * rr * g.astype(np.float64), np.float16)
    assert scalar_ops(la) == 0
    if resident:
        assert loads_run_ahead(la)


def test_the_plan_carries_several_rows_at_the_benchmark_shape() -> None:
    chip = get_chip("910B")
    p = plan_rms_norm((8192, 4096), 1, np.float16, np.float16, chip)
    assert p.resident and p.per_load >= 2 and p.per_load * p.slot <= p.tile
