"""Verification against a NumPy reference: a tolerance report (max and mean absolute and
relative error, the worst element, how many elements are over the tolerance) and
:func:`assert_close`, which raises :class:`AssertionError` carrying that report.

An element passes when ``|actual - expected| <= atol + rtol * |expected|`` (NumPy's and
``torch.testing.assert_close``'s rule), computed in float64; equal infinities match, and NaN
matches NaN when ``equal_nan``.  Integer and bool data must match exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np

from aclsim.testing.data import resolve_dtype

__all__ = ["DEFAULT_TOLERANCES", "CompareReport", "Tolerance", "assert_close", "compare", "default_tolerance"]


@dataclass(frozen=True)
class Tolerance:
    rtol: float
    atol: float

    def __post_init__(self) -> None:
        if not (self.rtol >= 0 and self.atol >= 0):
            raise ValueError(f"tolerances must be >= 0, got rtol={self.rtol}, atol={self.atol}")


#: Per dtype: torch.testing.assert_close's defaults (same-dtype computation); integers exact.
DEFAULT_TOLERANCES: dict[str, Tolerance] = {
    "float64": Tolerance(1e-7, 1e-7),
    "float32": Tolerance(1.3e-6, 1e-5),
    "float16": Tolerance(1e-3, 1e-5),
    "bfloat16": Tolerance(1.6e-2, 1e-5),
}
_EXACT = Tolerance(0.0, 0.0)


def default_tolerance(dtype: Any) -> Tolerance:
    """The tolerance :func:`compare` uses for ``dtype`` when none is given.

    >>> default_tolerance("float16"), default_tolerance("int32")
    (Tolerance(rtol=0.001, atol=1e-05), Tolerance(rtol=0.0, atol=0.0))
    """
    dt = resolve_dtype(dtype)
    if dt.kind in "iub":
        return _EXACT
    try:
        return DEFAULT_TOLERANCES[dt.name]
    except KeyError:
        raise ValueError(f"no default tolerance for {dt.name}; pass rtol and atol") from None


@dataclass(frozen=True)
class CompareReport:
    """What :func:`compare` found.  ``worst_index`` is the element with the largest excess
    over its tolerance (``None`` for empty data or a shape mismatch)."""

    dtype: str
    shape: tuple[int, ...]
    expected_shape: tuple[int, ...]
    rtol: float
    atol: float
    count: int
    n_over: int
    n_nan_mismatch: int
    max_abs: float
    mean_abs: float
    max_rel: float
    mean_rel: float
    worst_index: tuple[int, ...] | None
    worst_actual: float
    worst_expected: float

    @property
    def passed(self) -> bool:
        return self.shape == self.expected_shape and self.n_over == 0

    def __str__(self) -> str:
        if self.shape != self.expected_shape:
            return f"shape mismatch: actual {self.shape}, expected {self.expected_shape} ({self.dtype})"
        verdict = "PASS" if self.passed else "FAIL"
        lines = [f"{verdict}: {self.n_over} of {self.count} element(s) over tolerance "
                 f"(rtol={self.rtol:g}, atol={self.atol:g}, {self.dtype}, shape {self.shape})",
                 f"  abs error: max {self.max_abs:.6g}, mean {self.mean_abs:.6g}",
                 f"  rel error: max {self.max_rel:.6g}, mean {self.mean_rel:.6g}"]
        if self.n_nan_mismatch:
            lines.append(f"  NaN in one of actual/expected only: {self.n_nan_mismatch} element(s)")
        if self.worst_index is not None:
            lines.append(f"  worst at index {self.worst_index}: actual {self.worst_actual!r}, "
                         f"expected {self.worst_expected!r}")
        return "\n".join(lines)


def _as_float64(a: np.ndarray) -> np.ndarray:
    if a.dtype == np.dtype(ml_dtypes.bfloat16) or a.dtype.kind in "fiub":
        return a.astype(np.float64)
    raise TypeError(f"cannot compare {a.dtype} data")


def compare(actual: Any, expected: Any, *, rtol: float | None = None, atol: float | None = None,
            equal_nan: bool = True) -> CompareReport:
    """Compare ``actual`` with the reference ``expected``; the tolerances default to
    :func:`default_tolerance` of ``expected``'s dtype (give both or neither).

    >>> r = compare(np.array([1.0, 2.0]), np.array([1.0, 2.5]), rtol=0, atol=0.1)
    >>> r.passed, r.n_over, r.worst_index, r.max_abs
    (False, 1, (1,), 0.5)
    """
    a, e = np.asarray(actual), np.asarray(expected)
    if (rtol is None) != (atol is None):
        raise ValueError("give both rtol and atol, or neither (the dtype's defaults)")
    tol = default_tolerance(e.dtype) if rtol is None or atol is None else Tolerance(rtol, atol)
    exact = e.dtype.kind in "iub" and a.dtype.kind in "iub"
    if a.shape != e.shape:
        return CompareReport(e.dtype.name, a.shape, e.shape, tol.rtol, tol.atol, e.size, e.size, 0,
                             np.inf, np.inf, np.inf, np.inf, None, np.nan, np.nan)
    if e.size == 0:
        return CompareReport(e.dtype.name, a.shape, e.shape, tol.rtol, tol.atol, 0, 0, 0,
                             0.0, 0.0, 0.0, 0.0, None, np.nan, np.nan)
    af, ef = _as_float64(a), _as_float64(e)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        diff = np.abs(af - ef)
        same = (af == ef) | (np.isnan(af) & np.isnan(ef) & equal_nan)
        diff = np.where(same, 0.0, diff)
        diff = np.where(np.isnan(diff), np.inf, diff)  # NaN against a number, or inf - inf of opposite signs
        rel = np.where(diff == 0, 0.0, diff / np.abs(ef))
        rel = np.where(np.isnan(rel), np.inf, rel)
        if exact:
            over = a != e  # exact, whatever the float64 view of large integers says
            excess = np.where(over, diff, -1.0)
        else:
            limit = tol.atol + tol.rtol * np.abs(ef)
            # a NaN or an infinity matches only itself (``same``): no tolerance covers it
            nonfinite = ~same & ~(np.isfinite(af) & np.isfinite(ef))
            over = nonfinite | (diff > limit)
            excess = np.where(nonfinite, np.inf, diff - limit)
    nan_mismatch = int((np.isnan(af) ^ np.isnan(ef)).sum())
    n_over = int(np.count_nonzero(over))
    worst = np.unravel_index(int(np.argmax(excess)), e.shape)
    worst_t = tuple(int(i) for i in worst)
    return CompareReport(e.dtype.name, a.shape, e.shape, tol.rtol, tol.atol, int(e.size), n_over,
                         nan_mismatch, float(diff.max()), float(diff.mean()), float(rel.max()),
                         float(rel.mean()), worst_t, float(af[worst]), float(ef[worst]))


def assert_close(actual: Any, expected: Any, *, rtol: float | None = None, atol: float | None = None,
                 equal_nan: bool = True, msg: str = "") -> CompareReport:
    """Raise :class:`AssertionError` with the tolerance report unless ``actual`` matches
    ``expected`` (:func:`compare`); return the report when it does.

    >>> assert_close(np.float32([1, 2]), np.float32([1, 2])).max_abs
    0.0
    """
    report = compare(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if not report.passed:
        raise AssertionError(f"{msg}\n{report}" if msg else str(report))
    return report
