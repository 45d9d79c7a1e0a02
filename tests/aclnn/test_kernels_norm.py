"""The LayerNorm / RmsNorm kernels against NumPy (float64 references), on the tiny chip."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from kernels_reduce_support import BF16, assert_close, run, sample

import aclsim.kernel as asc
from aclsim.aclnn.kernels.norm import launch_norm, plan_layer_norm, plan_rms_norm
from aclsim.arch import get_chip
from aclsim.errors import AclnnParamInvalidError

TINY = get_chip("tiny")


@pytest.fixture(autouse=True)
def _tiny(rt: None) -> None:
    """Every test runs on the tiny chip (4 vector cores)."""


def layer_norm_ref(x: np.ndarray, nd: int, w: Any, b: Any, eps: float) -> tuple[np.ndarray, ...]:
    axes = tuple(range(x.ndim - nd, x.ndim))
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=axes, keepdims=True)
    rstd = 1 / np.sqrt(((x64 - mean) ** 2).mean(axis=axes, keepdims=True) + eps)
    y = (x64 - mean) * rstd
    if w is not None:
        y = y * w.astype(np.float64)
    if b is not None:
        y = y + b.astype(np.float64)
    return y, mean.ravel(), rstd.ravel()


def layer_norm_on_device(x: np.ndarray, nd: int, w: Any, b: Any, eps: float, chip: Any = TINY) -> Any:
    plan = plan_layer_norm(x.shape, nd, x.dtype, chip, weight_dtype=None if w is None else w.dtype,
                           bias_dtype=None if b is None else b.dtype, eps=eps)
    ins = [a for a in (x, w, b) if a is not None]
    rows = plan.rows

    def launch(*bufs: Any) -> Any:
        it = iter(bufs)
        xb = next(it)
        wb = next(it) if w is not None else None
        bb = next(it) if b is not None else None
        yb, mb, rb, _ = it
        return launch_norm(plan, None, xb, wb, bb, yb, mb, rb)

    outs, _ = run(launch, ins, [(x.shape, x.dtype), ((rows,), x.dtype), ((rows,), x.dtype)])
    return outs, plan


@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16])
@pytest.mark.parametrize("affine", ["none", "weight", "both", "both_f32"])
def test_layer_norm_matches_numpy(dtype: Any, affine: str) -> None:
    x = sample((5, 3, 40), dtype, seed=1, scale=3.0) + np.asarray(2, dtype)
    pdt = np.float32 if affine == "both_f32" else dtype
    w = sample((3, 40), pdt, seed=2) if affine != "none" else None
    b = sample((3, 40), pdt, seed=3) if affine in ("both", "both_f32") else None
    (y, mean, rstd), plan = layer_norm_on_device(x, 2, w, b, 1e-5)
    ry, rm, rr = layer_norm_ref(x, 2, w, b, 1e-5)
    assert plan.rows == 5 and plan.r == 120 and plan.resident
    assert_close(y, ry, dtype)
    assert_close(mean, rm, dtype)
    assert_close(rstd, rr, dtype)


def test_layer_norm_long_rows_stream_in_three_sweeps() -> None:
    x = sample((3, 9001), np.float32, seed=4) * 2 + 1
    w, b = sample((9001,), np.float32, seed=5), sample((9001,), np.float32, seed=6)
    (y, mean, rstd), plan = layer_norm_on_device(x, 1, w, b, 1e-6)
    assert not plan.resident
    ry, rm, rr = layer_norm_ref(x, 1, w, b, 1e-6)
    assert_close(y, ry, np.float32)
    assert_close(mean, rm, np.float32)
    assert_close(rstd, rr, np.float32)


def test_layer_norm_gathers_more_rows_than_one_statistics_tile() -> None:
    x = sample((150, 16), np.float16, seed=7)
    (y, mean, rstd), _ = layer_norm_on_device(x, 1, None, None, 1e-5)
    ry, rm, rr = layer_norm_ref(x, 1, None, None, 1e-5)
    assert_close(y, ry, np.float16)
    assert_close(mean, rm, np.float16)
    assert_close(rstd, rr, np.float16)


@pytest.mark.parametrize(("xdt", "gdt"), [(np.float16, np.float32), (BF16, np.float32),
                                          (np.float16, np.float16), (BF16, BF16), (np.float32, np.float32)])
@pytest.mark.parametrize("r", [33, 9001])
def test_rms_norm_matches_numpy(xdt: Any, gdt: Any, r: int) -> None:
    x = sample((4, r), xdt, seed=8)
    g = sample((r,), gdt, seed=9)
    plan = plan_rms_norm(x.shape, 1, xdt, gdt, TINY, epsilon=1e-6)
    (y, rstd), _ = run(lambda a, gb, yb, rb, ws: launch_norm(plan, None, a, gb, yb, rb), [x, g],
                       [(x.shape, xdt), ((4,), np.float32)])
    x64 = x.astype(np.float64)
    rr = 1 / np.sqrt((x64 ** 2).mean(axis=1, keepdims=True) + 1e-6)
    assert plan.resident == (r == 33)
    assert_close(rstd, rr.ravel(), np.float32)
    assert_close(y, x64 * rr * g.astype(np.float64), xdt)


def test_plans_use_every_core_and_refuse_bad_arguments() -> None:
    chip = get_chip("910B")
    p = plan_layer_norm((8192, 4096), 1, np.float16, chip, weight_dtype=np.float16, bias_dtype=np.float16)
    assert p.block_dim == chip.cores and p.resident
    with pytest.raises(AclnnParamInvalidError):
        plan_layer_norm((4, 4), 3, np.float32, chip)
    with pytest.raises(AclnnParamInvalidError):
        plan_rms_norm((4, 4), 1, np.int32, np.float32, chip)


def test_norm_kernels_are_race_free_and_empty_inputs_launch_nothing() -> None:
    assert launch_norm(plan_rms_norm((0, 4), 1, np.float32, np.float32, TINY), None, 0, 0, 0, 0) is None
    with asc.capture_launches() as launches:
        layer_norm_on_device(sample((6, 24), np.float32), 1, None, None, 1e-5)
    assert launches and all(la.error is None and not la.diagnostics for la in launches)
