"""The float row reduction gathers its per-row results on the vector pipe (no scalar round trip),
so the next tile's load overlaps the current tile's reduction; several rows per tile, odd row
counts per core and rows longer than a tile stay exact."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from kernels_reduce_support import BF16, assert_close, run, sample
from kernels_rows_support import loads_run_ahead, scalar_ops

import aclsim.kernel as asc
from aclsim.aclnn.kernels.reduce import launch_reduce, plan_reduce
from aclsim.arch import get_chip

TINY = get_chip("tiny")


@pytest.fixture(autouse=True)
def _tiny(rt: None) -> None:
    """Every test runs on the tiny chip (4 vector cores)."""


def reduce_rows(x: np.ndarray, kind: str, out_dtype: Any) -> tuple[np.ndarray, Any, list[Any]]:
    plan = plan_reduce(x.shape, [-1], kind, x.dtype, out_dtype, TINY)
    with asc.capture_launches() as launches:
        (y,), _ = run(lambda a, b, ws: launch_reduce(plan, None, a, b, ws),
                      [x], [((x.shape[0],), out_dtype)], plan.workspace_bytes)
    return y, plan, launches


@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16])
@pytest.mark.parametrize("kind", ["sum", "max", "mean"])
def test_several_rows_per_tile_and_an_odd_row_count_per_core(kind: str, dtype: Any) -> None:
    x = sample((4 * 27 + 3, 1500), dtype, seed=7)  # 111 rows: 28, 28, 28, 27 per core, ~15 per tile
    y, plan, launches = reduce_rows(x, kind, dtype)
    p = plan.passes[0]
    assert p.mode == "row" and 2 <= p.rows < 27
    x64 = x.astype(np.float64)
    ref = {"sum": x64.sum(axis=1), "max": x64.max(axis=1), "mean": x64.mean(axis=1)}[kind]
    assert_close(y, ref, dtype)
    (la,) = launches
    assert scalar_ops(la) == 0
    assert loads_run_ahead(la)


def test_a_row_longer_than_a_tile_still_gathers_on_the_vector_pipe() -> None:
    x = sample((5, 70001), np.float16, seed=4)
    y, plan, launches = reduce_rows(x, "sum", np.float32)
    assert plan.passes[0].rows == 0
    assert_close(y, x.astype(np.float64).sum(axis=1), np.float32)
    assert scalar_ops(launches[0]) == 0


def test_integer_rows_keep_the_scalar_gather_and_stay_exact() -> None:
    x = sample((37, 300), np.int32, seed=1)
    y, _, launches = reduce_rows(x, "sum", np.int32)
    np.testing.assert_array_equal(y, x.sum(axis=1, dtype=np.int32))
    assert scalar_ops(launches[0]) > 0  # whole_reduce takes floats only: documented
