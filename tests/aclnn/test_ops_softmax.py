"""Softmax and LogSoftmax on the aclnn executor against NumPy (float64 references): dtypes, dims,
strided inputs and outputs, out of another float dtype, empty and rank-0 tensors, error statuses."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from aclnn_support import BF16, run_op

from aclsim.aclnn import compat
from aclsim.aclnn.ops.reduction import (
    log_softmax,
    log_softmax_get_workspace_size,
    softmax,
    softmax_get_workspace_size,
)
from aclsim.errors import AclnnNullptrError, AclnnParamInvalidError

F32, F16 = np.dtype(np.float32), np.dtype(np.float16)
TOL = {F32: 1e-5, F16: 2e-3, BF16: 1.6e-2}


def _ref(x: np.ndarray, dim: int, log: bool) -> np.ndarray:
    x = x.astype(np.float64)
    z = x - x.max(axis=dim, keepdims=True)
    lse = np.log(np.exp(z).sum(axis=dim, keepdims=True))
    return z - lse if log else np.exp(z - lse)


def _close(got: np.ndarray, want: np.ndarray, dt: np.dtype) -> None:
    assert got.dtype == dt
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=TOL[dt], atol=TOL[dt])


OPS = {False: (softmax_get_workspace_size, softmax), True: (log_softmax_get_workspace_size, log_softmax)}


@pytest.mark.parametrize("dt", [F32, F16, BF16])
@pytest.mark.parametrize("dim", [-1, 0, 1])
@pytest.mark.parametrize("log", [False, True])
def test_softmax_over_dtypes_and_dims(dev: Any, dt: np.dtype, dim: int, log: bool) -> None:
    x = (np.random.default_rng(dim + 3).standard_normal((5, 6, 37)) * 3).astype(dt)
    y = dev(np.zeros(x.shape, dt))
    run_op(*OPS[log], dev(x), dim, y)
    _close(y.numpy(), _ref(x, dim, log), dt)


@pytest.mark.parametrize("log", [False, True])
def test_strided_input_output_and_out_dtype(dev: Any, log: bool) -> None:
    x = np.random.default_rng(1).standard_normal((24, 40)).astype(F16)
    xt = dev(x).view((40, 24), (1, 40))  # transposed: staged through the workspace
    y = dev(np.zeros((40, 24), F32))  # out float32: a castable float dtype
    ex = run_op(*OPS[log], xt, 0, y)
    assert ex.workspace_size > 0
    _close(y.numpy(), _ref(x.T, 0, log), F32)
    big = dev(np.zeros((24, 40), F16))
    out_t = big.view((40, 24), (1, 40))  # a transposed out: the result goes through a ViewCopy
    run_op(*OPS[log], xt, -1, out_t)
    _close(big.numpy().T, _ref(x.T, -1, log), F16)


def test_empty_and_rank_zero(dev: Any) -> None:
    e = dev(np.zeros((3, 0), F32))
    ws, ex = softmax_get_workspace_size(e, 1, dev(np.zeros((3, 0), F32)))
    assert ws == 0 and ex.steps == []
    s = dev(np.array(0, F32))
    run_op(softmax_get_workspace_size, softmax, dev(np.array(4.0, F32)), 0, s)
    assert s.numpy() == 1.0
    with pytest.raises(AclnnParamInvalidError, match="rank 0"):
        log_softmax_get_workspace_size(dev(np.array(4.0, F32)), 0, s)


def test_error_statuses(dev: Any) -> None:
    x, y = dev(np.zeros((4, 6), F32)), dev(np.zeros((4, 6), F32))
    with pytest.raises(AclnnNullptrError, match="self"):
        softmax_get_workspace_size(None, 0, y)
    with pytest.raises(AclnnNullptrError, match="out"):
        log_softmax_get_workspace_size(x, 0, None)
    for args, match in (
        ((x, 2, y), "outside"),
        ((x, -3, y), "outside"),
        ((x, 1.0, y), "must be an int"),
        ((x, 1, dev(np.zeros((6, 4), F32))), "expected"),
        ((x, 1, dev(np.zeros((4, 6), np.int32))), "ACL_INT32"),
        ((dev(np.zeros((4, 6), np.int64)), 1, dev(np.zeros((4, 6), np.int64))), "ACL_INT64"),  # not listed
    ):
        with pytest.raises(AclnnParamInvalidError, match=match):
            softmax_get_workspace_size(*args)
    ws, ex, ret = compat.aclnnSoftmaxGetWorkspaceSize(x.desc, 5, y.desc)
    assert ret == 161002 and ex is None
    ws, ex, ret = compat.aclnnLogSoftmaxGetWorkspaceSize(x.desc, 1, y.desc)
    assert ret == 0 and compat.aclnnLogSoftmax(None, ws, ex, None) == 0
