"""Test data as seed 003's framework makes it: a shape, a dtype, a value range, a seed, and
special values (NaN, infinities, signed zeros, extremes, subnormals) on request."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import ml_dtypes
import numpy as np

__all__ = ["SPECIAL_VALUES", "generate", "resolve_dtype"]

_NAMED = {"bfloat16": np.dtype(ml_dtypes.bfloat16), "bf16": np.dtype(ml_dtypes.bfloat16),
          "half": np.dtype(np.float16), "float": np.dtype(np.float32)}

#: The special values :func:`generate` places on request; the float ones need a float dtype.
SPECIAL_VALUES = ("nan", "inf", "-inf", "zero", "-zero", "max", "min", "tiny", "subnormal")
_INT_SPECIALS = {"zero", "max", "min"}


def resolve_dtype(dtype: Any) -> np.dtype[Any]:
    """A NumPy dtype from a NumPy dtype, a type, or a name (``"bfloat16"``, ``"float16"``, ...).

    >>> resolve_dtype("bf16").name, resolve_dtype(np.int32).name
    ('bfloat16', 'int32')
    """
    if isinstance(dtype, str) and dtype.lower() in _NAMED:
        return _NAMED[dtype.lower()]
    try:
        return np.dtype(dtype)
    except TypeError:
        raise ValueError(f"unknown dtype {dtype!r}; use a NumPy dtype or a name such as 'float32', "
                         "'float16', 'bfloat16', 'int32'") from None


def _special(name: str, dt: np.dtype[Any]) -> Any:
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return {"zero": 0, "max": info.max, "min": info.min}[name]
    info_f = ml_dtypes.finfo(dt) if dt == _NAMED["bfloat16"] else np.finfo(dt)
    return {"nan": np.nan, "inf": np.inf, "-inf": -np.inf, "zero": 0.0, "-zero": -0.0,
            "max": info_f.max, "min": info_f.min, "tiny": info_f.tiny,
            "subnormal": info_f.smallest_subnormal}[name]


def generate(shape: int | Sequence[int], dtype: Any = np.float32, *,
             value_range: tuple[float, float] = (-1.0, 1.0), seed: int | None = 0,
             special: Iterable[str] = ()) -> np.ndarray:
    """Random data of ``shape`` and ``dtype``, uniform in ``value_range`` (integers: in
    ``[low, high)`` clipped to the dtype's range; bool: fair coin), reproducible from ``seed``
    (``None``: fresh entropy).

    Floats are drawn in float64 and rounded to ``dtype`` once (float16 and bfloat16 included),
    so the values are exactly representable.  ``special`` names values from
    :data:`SPECIAL_VALUES` to place, each at a distinct position drawn from the same generator
    (a name may be given several times).

    >>> x = generate((2, 3), "bfloat16", value_range=(0, 4), seed=1, special=["nan"])
    >>> x.dtype.name, x.shape, int(np.isnan(x.astype(np.float32)).sum())
    ('bfloat16', (2, 3), 1)
    """
    dt = resolve_dtype(dtype)
    shape_t = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(d) for d in shape)
    if any(d < 0 for d in shape_t):
        raise ValueError(f"shape {shape_t} has a negative dimension")
    low, high = value_range
    if not low <= high:
        raise ValueError(f"value_range {value_range} is empty: low must be <= high")
    rng = np.random.default_rng(seed)
    if dt.kind == "b":
        out = rng.integers(0, 2, shape_t).astype(dt)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = max(int(np.ceil(low)), int(info.min)), min(int(np.ceil(high)), int(info.max) + 1)
        if hi <= lo:
            raise ValueError(f"value_range {value_range} holds no {dt.name} values within "
                             f"[{info.min}, {info.max}]")
        out = rng.integers(lo, hi, shape_t, dtype=np.int64).astype(dt)
    elif dt.kind == "f" or dt == _NAMED["bfloat16"]:
        out = rng.uniform(low, high, shape_t).astype(dt)
    else:
        raise ValueError(f"generate does not make {dt.name} data; use a float, integer or bool dtype")
    names = list(special)
    if names:
        _place_specials(out, names, dt, rng)
    return out


def _place_specials(out: np.ndarray, names: list[str], dt: np.dtype[Any], rng: np.random.Generator) -> None:
    for name in names:
        if name not in SPECIAL_VALUES:
            raise ValueError(f"unknown special value {name!r}; known: {', '.join(SPECIAL_VALUES)}")
        if dt.kind in "iub" and name not in _INT_SPECIALS:
            raise ValueError(f"special value {name!r} needs a float dtype, not {dt.name}")
        if dt.kind == "b":
            raise ValueError("bool data has no special values")
    if len(names) > out.size:
        raise ValueError(f"{len(names)} special values do not fit in {out.size} element(s)")
    flat = out.reshape(-1)
    positions = rng.choice(out.size, size=len(names), replace=False)
    for pos, name in zip(positions, names, strict=True):
        flat[pos] = _special(name, dt)
