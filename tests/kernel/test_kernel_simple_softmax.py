"""SimpleSoftMax (``simple_soft_max``): the rows' softmax with the max and sum GIVEN (no reduction), against
NumPy, in half and float, with a split of the rows; its type checks."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim.errors import TaskError


def _tiling(m: int, k: int, split_m: int) -> asc.SoftMaxTiling:
    t = asc.SoftMaxTiling()
    t.src_m, t.src_k, t.split_m = m, k, split_m
    return t


@pytest.mark.parametrize("dt, blk_dt", [(np.float32, np.float32), (np.float16, np.float16),
                                        (np.float16, np.float32)])
def test_simple_softmax_uses_the_given_blocks(vec, dt, blk_dt) -> None:
    m, k = 6, 32
    rng = np.random.default_rng(2)
    x = rng.standard_normal((m, k)).astype(dt)
    mx = rng.standard_normal(m).astype(blk_dt)  # not the rows' max: nothing is reduced
    sm = rng.uniform(1, 3, m).astype(blk_dt)
    blk = 32 // np.dtype(blk_dt).itemsize
    tiling = _tiling(m, k, 4)  # two splits: 4 rows, then 2

    def body(y, xs, s, mxs, tmp):
        asc.simple_soft_max(y, s, mxs, xs, tmp.reinterpret_cast(asc.uint8), tiling)

    (y,) = vec(body, [x.ravel(), np.repeat(sm, blk), np.repeat(mx, blk), np.zeros(4096, np.float32)],
               [np.zeros(m * k, dt)])
    expect = np.exp(x.astype(np.float32) - mx.astype(np.float32)[:, None]) / sm.astype(np.float32)[:, None]
    tol = 1e-6 if dt == np.float32 else 2e-3
    assert np.allclose(y.reshape(m, k).astype(np.float32), expect.astype(dt).astype(np.float32), rtol=tol)


def test_simple_softmax_sum_and_max_of_one_type(vec) -> None:
    tiling = _tiling(2, 16, 2)

    def body(y, xs, s, mxs):
        asc.simple_soft_max(y, s, mxs, xs, tiling)

    with pytest.raises((TypeError, TaskError), match="in_sum and in_max must be one type"):
        vec(body, [np.zeros(32, np.float16), np.ones(32, np.float16), np.zeros(16, np.float32)],
            [np.zeros(32, np.float16)])
