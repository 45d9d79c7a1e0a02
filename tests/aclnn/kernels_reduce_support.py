"""Shared by the reduction, softmax and normalisation kernel tests: device buffers from host
arrays, inputs per dtype, tolerances per dtype."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ml_dtypes
import numpy as np

import aclsim

BF16 = np.dtype(ml_dtypes.bfloat16)
#: (rtol, atol) against a float64 reference, by output dtype (accumulation is float32).
TOL = {np.dtype(np.float32): (2e-5, 2e-5), np.dtype(np.float16): (2e-3, 2e-3), BF16: (1.6e-2, 1.6e-2)}


def sample(shape: Sequence[int], dtype: Any, seed: int = 0, scale: float = 1.0) -> np.ndarray:
    """Inputs of ``dtype``: normal floats, integers over most of the type's range, 0/1 bools."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = max(info.min, -30000), min(info.max, 30000)
        return rng.integers(lo, hi, shape, endpoint=True).astype(dt)
    return (rng.standard_normal(shape) * scale).astype(dt)


def device(a: np.ndarray) -> Any:
    """A device buffer holding ``a`` (at least 1 byte)."""
    b = aclsim.malloc(max(a.nbytes, 1))
    if a.nbytes:
        aclsim.memcpy(b, a.nbytes, np.ascontiguousarray(a), a.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    return b


def host(b: Any, shape: Sequence[int], dtype: Any) -> np.ndarray:
    """The contents of device buffer ``b`` as an array."""
    out = np.empty(shape, dtype)
    if out.nbytes:
        aclsim.memcpy(out, out.nbytes, b, out.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    return out


def run(launch: Callable[..., Any], inputs: Sequence[np.ndarray],
        outputs: Sequence[tuple[Sequence[int], Any]], workspace: int = 0) -> tuple[list[np.ndarray], Any]:
    """Device buffers for ``inputs``, ``outputs`` (shape, dtype) and the workspace; call
    ``launch(*in_bufs, *out_bufs, ws)``, synchronize; return the outputs and what launch returned."""
    ins = [device(a) for a in inputs]
    outs = [aclsim.malloc(max(int(np.prod(s)) * np.dtype(d).itemsize, 1)) for s, d in outputs]
    ws = aclsim.malloc(workspace) if workspace else None
    try:
        got = launch(*ins, *outs, ws)
        aclsim.synchronize_device()
        return [host(b, s, d) for b, (s, d) in zip(outs, outputs, strict=True)], got
    finally:
        for b in (*ins, *outs, ws):
            if b is not None:
                aclsim.free(b)


def assert_close(got: np.ndarray, ref: np.ndarray, dtype: Any) -> None:
    """``got`` equals ``ref`` (float64) to the tolerance of ``dtype`` (exactly for integers)."""
    dt = np.dtype(dtype)
    if dt.kind in "iub":
        np.testing.assert_array_equal(got, ref.astype(dt))
        return
    rtol, atol = TOL[dt]
    np.testing.assert_allclose(got.astype(np.float64), ref, rtol=rtol, atol=atol)
