"""aclsim.testing: data generation and the tolerance report."""

from __future__ import annotations

import doctest

import ml_dtypes
import numpy as np
import pytest

import aclsim.testing as at
from aclsim.testing import assert_close, compare, default_tolerance, generate

BF16 = np.dtype(ml_dtypes.bfloat16)


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "int32", "int8", "uint8", "bool"])
def test_generate_shape_dtype_range_and_seed(dtype: str) -> None:
    x = generate((3, 5), dtype, value_range=(-4, 4), seed=7)
    assert x.shape == (3, 5) and x.dtype == at.resolve_dtype(dtype)
    assert np.array_equal(x, generate((3, 5), dtype, value_range=(-4, 4), seed=7))
    f = x.astype(np.float64)
    if dtype in ("uint8", "bool"):
        assert f.min() >= 0
    else:
        assert f.min() >= -4 and f.max() <= 4
    if dtype.startswith("int"):
        assert f.max() <= 3  # integers in [low, high)


def test_generate_differs_by_seed_and_rounds_once() -> None:
    a, b = generate(64, "bf16", seed=1), generate(64, "bf16", seed=2)
    assert not np.array_equal(a, b)
    assert a.dtype == BF16
    assert generate(0, "float32").shape == (0,) and generate((), "float32").shape == ()


def test_generate_special_values() -> None:
    x = generate(16, "float16", seed=3, special=["nan", "inf", "-inf", "-zero", "max", "subnormal"])
    assert np.isnan(x).sum() == 1 and np.isposinf(x).sum() == 1 and np.isneginf(x).sum() == 1
    assert (x == np.finfo(np.float16).max).sum() == 1
    assert (np.signbit(x) & (x == 0)).sum() == 1
    assert (x == np.finfo(np.float16).smallest_subnormal).sum() == 1
    i = generate(8, "int32", seed=0, special=["max", "min"])
    assert (i == np.iinfo(np.int32).max).sum() == 1 and (i == np.iinfo(np.int32).min).sum() == 1


@pytest.mark.parametrize("kwargs, words", [
    ({"dtype": "int32", "special": ["nan"]}, "needs a float dtype"),
    ({"special": ["bogus"]}, "unknown special value"),
    ({"value_range": (2, 1)}, "empty"),
    ({"dtype": "uint8", "value_range": (-5, 0)}, "no uint8 values"),
    ({"dtype": "complex64"}, "does not make complex64"),
    ({"dtype": "nonsense"}, "unknown dtype"),
])
def test_generate_refuses_bad_requests(kwargs: dict, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        generate(4, **kwargs)


def test_compare_report_fields() -> None:
    expected = np.array([[1.0, 2.0], [4.0, 0.0]], np.float32)
    actual = np.array([[1.0, 2.1], [3.0, 0.0]], np.float32)
    r = compare(actual, expected, rtol=0.0, atol=0.5)
    assert not r.passed and r.n_over == 1 and r.count == 4
    assert r.worst_index == (1, 0) and r.worst_actual == 3.0 and r.worst_expected == 4.0
    assert r.max_abs == pytest.approx(1.0) and r.mean_abs == pytest.approx((0.1 + 1.0) / 4, rel=1e-6)
    assert r.max_rel == pytest.approx(0.25) and r.mean_rel == pytest.approx((0.1 / 2 + 0.25) / 4, rel=1e-6)
    text = str(r)
    for word in ("FAIL", "1 of 4", "worst at index (1, 0)", "max 1", "rtol=0"):
        assert word in text, word


def test_compare_worst_is_the_largest_excess_not_the_largest_error() -> None:
    # 1000 -> 1001 is within rtol; 1 -> 1.5 is not, although its absolute error is smaller
    r = compare(np.array([1001.0, 1.5]), np.array([1000.0, 1.0]), rtol=0.01, atol=0.0)
    assert r.n_over == 1 and r.worst_index == (1,)


def test_compare_nan_inf_and_equal_nan() -> None:
    e = np.array([np.nan, np.inf, 1.0], np.float32)
    assert compare(e.copy(), e).passed
    assert not compare(e.copy(), e, equal_nan=False).passed
    r = compare(np.array([1.0, np.inf, 1.0], np.float32), e)
    assert r.n_over == 1 and r.n_nan_mismatch == 1 and r.worst_index == (0,)
    assert not compare(np.array([np.nan, -np.inf, 1.0], np.float32), e).passed


def test_integers_are_exact_even_beyond_float64() -> None:
    big = np.array([2**60, 5], np.int64)
    r = compare(big + np.array([1, 0]), big)
    assert not r.passed and r.n_over == 1 and r.worst_index == (0,)
    assert compare(big.copy(), big).passed


def test_default_tolerances_per_dtype() -> None:
    one = np.array([1.0], BF16)
    near = np.array([1.0078125], BF16)  # one bf16 ulp above 1
    assert compare(near, one).passed  # within bf16's rtol 1.6e-2
    assert not compare(np.float32([1.001]), np.float32([1.0])).passed  # float32 default is tight
    assert compare(np.float16([1.0005]), np.float16([1.0])).passed
    assert default_tolerance("bool") == at.Tolerance(0.0, 0.0)
    with pytest.raises(ValueError, match="both"):
        compare(one, one, rtol=0.1)


def test_shape_mismatch_and_empty() -> None:
    r = compare(np.zeros(3), np.zeros(4))
    assert not r.passed and "shape mismatch" in str(r)
    assert compare(np.zeros((0, 3), np.float32), np.zeros((0, 3), np.float32)).passed


def test_assert_close_raises_with_the_report() -> None:
    with pytest.raises(AssertionError, match=r"(?s)add output.*1 of 3.*worst at index \(2,\)"):
        assert_close(np.float32([1, 2, 3]), np.float32([1, 2, 4]), msg="add output")
    assert assert_close(np.int32([1, 2]), np.int32([1, 2])).passed


@pytest.mark.parametrize("module", ["data", "compare", "harness", "memhealth", "sample_op"])
def test_docstring_examples_run(module: str) -> None:
    mod = __import__(f"aclsim.testing.{module}", fromlist=["x"])
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_a_finite_value_never_matches_an_infinity() -> None:
    r = compare(np.float32([1.0, 2.0]), np.float32([np.inf, 2.0]), rtol=1.0, atol=1.0)
    assert not r.passed and r.worst_index == (0,)
    assert not compare(np.float32([np.inf]), np.float32([1e30]), rtol=1.0, atol=0.0).passed
