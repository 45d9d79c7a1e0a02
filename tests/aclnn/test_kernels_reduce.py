"""The ReduceSum / Amax / Mean kernels against NumPy (float64 references), on the tiny chip."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from kernels_reduce_support import BF16, assert_close, run, sample

import aclsim
import aclsim.kernel as asc
from aclsim.aclnn.kernels.reduce import launch_reduce, plan_reduce, reduce_views
from aclsim.arch import get_chip
from aclsim.errors import AclnnParamInvalidError

TINY = get_chip("tiny")


@pytest.fixture(autouse=True)
def _tiny(rt: None) -> None:
    """Every test runs on the tiny chip (4 vector cores)."""


def reference(x: np.ndarray, dims: tuple[int, ...], kind: str, out: Any) -> np.ndarray:
    dt = np.dtype(out)
    if kind == "sum" and x.dtype.kind in "iub":
        s = x.astype(np.int64).sum(axis=dims)
        return (s != 0) if dt == np.bool_ else s.astype(dt)  # wraps as the output type does
    x64 = x.astype(np.float64)
    if kind == "max":
        return x64.max(axis=dims) if x.dtype.kind == "f" or x.dtype == BF16 else x.max(axis=dims)
    if kind == "mean":
        with np.errstate(all="ignore"):
            return x64.sum(axis=dims) / np.prod([x.shape[d] for d in dims]) if x.size else \
                np.full(np.sum(x64, axis=dims).shape, np.nan)
    return x64.sum(axis=dims)


def reduce_on_device(x: np.ndarray, dims: list[int], kind: str, out_dtype: Any, chip: Any = TINY
                     ) -> tuple[np.ndarray, Any]:
    plan = plan_reduce(x.shape, dims, kind, x.dtype, out_dtype, chip)
    (y,), _ = run(lambda a, b, ws: launch_reduce(plan, None, a, b, ws), [x],
                  [((plan.out_elements,), out_dtype)], plan.workspace_bytes)
    return y, plan


CASES = [  # shape, dims: rows (inner 1), columns (inner > 1), two runs, all, odd sizes
    ((7, 100), [1]),
    ((5, 7, 9), [1]),
    ((5, 7, 9), [0, 2]),
    ((3, 33), []),
    ((13,), [0]),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16])
@pytest.mark.parametrize(("shape", "dims"), CASES)
@pytest.mark.parametrize("kind", ["sum", "max", "mean"])
def test_float_reductions_match_numpy(shape: tuple[int, ...], dims: list[int], kind: str, dtype: Any) -> None:
    x = sample(shape, dtype, seed=len(shape) + len(dims))
    y, plan = reduce_on_device(x, dims, kind, dtype)
    assert_close(y, np.ravel(reference(x, plan.dims, kind, dtype)), dtype)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32])
@pytest.mark.parametrize(("shape", "dims"), [((300, 5), [0]), ((5, 300), [1]), ((4, 6, 5), [0, 2])])
@pytest.mark.parametrize("kind", ["sum", "max"])
def test_integer_sums_wrap_in_their_type_and_max_is_exact(shape: tuple[int, ...], dims: list[int], kind: str,
                                                          dtype: Any) -> None:
    x = sample(shape, dtype, seed=5)
    y, plan = reduce_on_device(x, dims, kind, dtype)
    ref = np.ravel(reference(x, plan.dims, kind, dtype))
    if kind == "sum" and np.dtype(dtype).itemsize < 4:
        assert (np.abs(x.astype(np.int64).sum(axis=plan.dims)) > np.iinfo(dtype).max).any()  # wraps
    assert_close(y, ref, dtype)


def test_bool_sum_into_bool_is_any() -> None:
    x = sample((6, 40), np.bool_, seed=1)
    x[2] = False
    y, plan = reduce_on_device(x, [1], "sum", np.bool_)
    np.testing.assert_array_equal(y, x.any(axis=1))


@pytest.mark.parametrize(("shape", "dims"), [((1, 9000), [1]), ((2, 9000, 3), [1])])
def test_long_r_splits_over_cores_with_partials_in_the_workspace(shape: tuple[int, ...], dims: list[int]
                                                                  ) -> None:
    x = sample(shape, np.float16, seed=2)
    y, plan = reduce_on_device(x, dims, "sum", np.float32)
    first, combine = plan.passes
    assert first.splits > 1 and first.block_dim == TINY.cores and combine.r == first.splits
    assert plan.workspace_bytes >= first.splits * plan.out_elements * 4
    assert_close(y, np.ravel(reference(x, plan.dims, "sum", np.float32)), np.float32)


def test_rows_longer_than_a_tile_reduce_chunk_by_chunk() -> None:
    x = sample((5, 70001), np.float32, seed=4)  # 5 rows: no split on 4 cores, 70001 > one UB tile
    y, plan = reduce_on_device(x, [1], "max", np.float32)
    assert plan.passes[0].rows == 0
    assert_close(y, x.astype(np.float64).max(axis=1), np.float32)


def test_float16_sums_accumulate_in_float32() -> None:
    x = np.full((2, 4096), 1.0, np.float16)  # float16 alone stops counting at 2048
    y, _ = reduce_on_device(x, [1], "sum", np.float16)
    np.testing.assert_array_equal(y, [4096, 4096])


def test_empty_reductions_fill_zero_or_nan_and_empty_outputs_launch_nothing() -> None:
    x = np.zeros((3, 0, 2), np.float32)
    y, _ = reduce_on_device(x, [1], "sum", np.float32)
    np.testing.assert_array_equal(y, np.zeros(6))
    y, _ = reduce_on_device(x, [1], "mean", np.float32)
    assert np.isnan(y).all()
    assert plan_reduce((0, 4), [1], "sum", np.float32, np.float32, TINY).passes == ()
    with pytest.raises(AclnnParamInvalidError, match="size-0"):
        plan_reduce((3, 0), [1], "max", np.float32, np.float32, TINY)


def test_rank0_is_a_copy() -> None:
    y, _ = reduce_on_device(np.array(2.5, np.float32), [], "sum", np.float32)
    assert y[0] == 2.5


def test_plans_use_every_vector_core_and_size_tiles_from_the_chip() -> None:
    chip = get_chip("910B")
    p = plan_reduce((8192, 4096), [1], "sum", np.float16, np.float16, chip).passes[0]
    assert p.block_dim == chip.cores and p.mode == "row" and p.rows >= 2
    assert 2 * p.tile * 2 + p.tile * 4 < chip.ub_usable_bytes
    small = plan_reduce((8192, 4096), [1], "sum", np.float16, np.float16,
                        chip.with_changes(ub_bytes=64 * 1024)).passes[0]
    assert small.tile < p.tile


def test_views_merge_adjacent_axes_and_run_innermost_first() -> None:
    assert reduce_views((2, 3, 4, 5), (1, 2)) == [(2, 12, 5)]
    assert reduce_views((2, 3, 4, 5), (0, 2)) == [(6, 4, 5), (1, 2, 15)]
    assert reduce_views((2, 3), ()) == [(6, 1, 1)]


def test_unsupported_dtypes_and_bad_dims_are_161002() -> None:
    with pytest.raises(AclnnParamInvalidError) as e:
        plan_reduce((4,), [0], "sum", np.float64, np.float64, TINY)
    assert e.value.code == 161002
    with pytest.raises(AclnnParamInvalidError, match="repeat"):
        plan_reduce((4, 4), [1, -1], "sum", np.float32, np.float32, TINY)
    with pytest.raises(AclnnParamInvalidError, match="out of range"):
        plan_reduce((4, 4), [2], "sum", np.float32, np.float32, TINY)


def test_kernels_run_clean_under_the_race_checker() -> None:
    x = sample((6, 300), np.float16, seed=9)
    with asc.capture_launches() as launches:
        reduce_on_device(x, [0], "mean", np.float16)
    assert launches and all(la.error is None and not la.diagnostics for la in launches)
    assert aclsim.is_initialized()
