"""The table of elementwise instructions: every line checked against its own NumPy reference.

Adding an instruction to the table in ``aclsim/kernel/elementwise.py`` takes its reference
here (one line of ``REFERENCE``); the completeness test below fails until it has one, is
exported by ``aclsim.kernel`` and has its row in ``docs/dsl_mapping.md``.
"""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim.errors import TaskError
from aclsim.kernel.elementwise import ELEMENTWISE

BF16 = np.dtype(ml_dtypes.bfloat16)
DOCS = Path(__file__).resolve().parents[2] / "docs" / "dsl_mapping.md"

# name -> (reference on NumPy arrays, computed in float64 (integers: in their own type), inputs' range)
REFERENCE = {
    "add": (lambda a, b: a + b, (-8, 8)),
    "sub": (lambda a, b: a - b, (-8, 8)),
    "mul": (lambda a, b: a * b, (-8, 8)),
    "div": (lambda a, b: a / b, (0.5, 4)),
    "max": (lambda a, b: np.where(a >= b, a, b), (-8, 8)),
    "min": (lambda a, b: np.where(a <= b, a, b), (-8, 8)),
    "adds": (lambda a, s: a + s, (-8, 8)),
    "muls": (lambda a, s: a * s, (-8, 8)),
    "maxs": (lambda a, s: np.where(a >= s, a, s), (-8, 8)),
    "mins": (lambda a, s: np.where(a <= s, a, s), (-8, 8)),
    "exp": (lambda a: np.exp(a), (-4, 4)),
    "ln": (lambda a: np.log(a), (0.1, 8)),
    "sqrt": (lambda a: np.sqrt(a), (0, 8)),
    "abs": (lambda a: np.where(a < 0, -a, a), (-8, 8)),
    "relu": (lambda a: np.where(a > 0, a, 0), (-8, 8)),
    "rsqrt": (lambda a: 1 / np.sqrt(a), (0.5, 8)),
    "reciprocal": (lambda a: 1 / a, (0.5, 8)),
    "and_": (lambda a, b: a & b, (-30000, 30000)),
    "or_": (lambda a, b: a | b, (-30000, 30000)),
    "not_": (lambda a: ~a, (-30000, 30000)),
    "shift_left": (lambda a, s: _shl(a, int(s)), (-30000, 30000)),
    "shift_right": (lambda a, s: a >> s, (-30000, 30000)),
    "leaky_relu": (lambda a, s: np.where(a >= 0, a, a * s), (-8, 8)),
}


def _shl(a: np.ndarray, s: int) -> np.ndarray:
    """Left shift as documented: logical for unsigned types; signed ones keep their sign bit and
    shift the bits below it (in Python integers, then back to the type)."""
    bits = 8 * a.dtype.itemsize
    if a.dtype.kind == "u":
        return np.array([(int(v) << s) % (1 << bits) for v in a], a.dtype)
    low = [(int(v) << s) % (1 << (bits - 1)) for v in a]
    return np.array([lo - (1 << (bits - 1)) if v < 0 else lo for v, lo in zip(a, low, strict=True)], a.dtype)
SCALAR = 3
RTOL = {np.dtype(np.float16): 1e-3, BF16: 8e-3, np.dtype(np.float32): 1e-6}
rng = np.random.default_rng(2024)


def test_every_table_line_has_a_reference_an_export_and_a_doc_row() -> None:
    missing, stale = set(ELEMENTWISE) - set(REFERENCE), set(REFERENCE) - set(ELEMENTWISE)
    assert not missing and not stale, f"REFERENCE lacks {sorted(missing)}, has extra {sorted(stale)}"
    docs = DOCS.read_text()
    for name, entry in ELEMENTWISE.items():
        assert entry.op.__name__ == name and entry.form in ("binary", "unary", "scalar")
        assert name in asc.__all__ and getattr(asc, name) is entry.op, f"export {name} from aclsim.kernel"
        assert f"`{name}`" in docs, f"add {name} to the vector table of docs/dsl_mapping.md"


def _data(dt: np.dtype, n: int, lo: float, hi: float) -> np.ndarray:
    if dt.kind in "iu":
        return rng.integers(int(np.floor(lo)), int(np.ceil(hi)) + 1, n).astype(dt)
    return rng.uniform(lo, hi, n).astype(np.float32).astype(dt)


def _expect(name: str, dt: np.dtype, *xs: np.ndarray) -> np.ndarray:
    ref, _ = REFERENCE[name]
    args = [x.astype(np.float64) if dt.kind == "f" or dt == BF16 else x for x in xs]
    if ELEMENTWISE[name].form == "scalar":
        args.append(dt.type(SCALAR))
    return np.asarray(ref(*args)).astype(dt)


def _check(got: np.ndarray, want: np.ndarray, dt: np.dtype) -> None:
    if dt.kind in "iu":
        assert got.tobytes() == want.tobytes()
    else:
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=RTOL[dt], atol=1e-30)


CASES = [(name, dt) for name, entry in ELEMENTWISE.items() for dt in entry.dtypes]


@pytest.mark.parametrize("name,dt", CASES, ids=[f"{n}-{d}" for n, d in CASES])
def test_table_line_against_its_reference(vec, name, dt) -> None:
    """The count form on 200 elements and the mask/repeat form (3/4 of each repeat, 2 repeats)."""
    entry, (_, (lo, hi)) = ELEMENTWISE[name], REFERENCE[name]
    dt = np.dtype(dt)
    per_rep = 256 // dt.itemsize
    n, mask = 200, per_rep * 3 // 4
    size = max(2 * per_rep, n + 16)
    nsrc = 2 if entry.form == "binary" else 1
    xs = [_data(dt, size, lo, hi) for _ in range(nsrc)]
    init = np.full(size, 1, dt)
    params = asc.BinaryRepeatParams() if nsrc == 2 else asc.UnaryRepeatParams()
    extra = (SCALAR,) if entry.form == "scalar" else ()
    op = entry.op

    def body(z, w, *srcs):
        op(z, *srcs, *extra, n)
        op(w, *srcs, *extra, mask, 2, params)

    z, w = vec(body, xs, [init, init])
    full = _expect(name, dt, *xs)
    _check(z[:n], full[:n], dt)
    assert z[n:].tobytes() == init[n:].tobytes()  # past the count: untouched
    want = init.copy()
    for r in range(2):
        want[r * per_rep:r * per_rep + mask] = full[r * per_rep:r * per_rep + mask]
    _check(w, want, dt)


@pytest.mark.parametrize("name", [n for n, e in ELEMENTWISE.items() if np.dtype(np.int32) not in e.dtypes])
def test_table_line_refuses_other_dtypes(vec, name) -> None:
    entry = ELEMENTWISE[name]
    srcs = [np.ones(8, np.int32)] * (2 if entry.form == "binary" else 1)
    extra = (SCALAR,) if entry.form == "scalar" else ()
    with pytest.raises(TaskError, match=f"{name} does not support int32"):
        vec(lambda z, *s: entry.op(z, *s, *extra, 8), srcs, [np.zeros(8, np.int32)])
