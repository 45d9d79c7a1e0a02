"""set_executor_repeatable's documented refusals (OPBASE's SetRepeatable: 561000): a device-to-device
copy in the graph, a ViewCopy whose source and destination are one address."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import aclsim
from aclsim import aclnn
from aclsim.aclnn import OpBuilder, compat
from aclsim.errors import ACLNN_ERR_INNER, AclnnError


def test_view_copy_onto_itself_is_not_repeatable(dev: Any) -> None:
    a = np.arange(64, dtype=np.float32)
    t = dev(a)
    ws, ex = aclnn.inplace_copy_get_workspace_size(t, t)
    assert [s.name for s in ex.steps] == ["view_copy"]
    with pytest.raises(AclnnError, match="ViewCopy whose source and destination") as info:
        aclnn.set_executor_repeatable(ex)
    assert info.value.code == ACLNN_ERR_INNER
    assert not ex.repeatable and ex.alive  # left as it was: one run
    aclnn.inplace_copy(None, ws, ex, None)
    aclsim.synchronize_device()
    np.testing.assert_array_equal(t.numpy(), a)
    assert not ex.alive
    ws, ex = aclnn.inplace_copy_get_workspace_size(t, t)
    assert compat.aclSetAclOpExecutorRepeatable(ex) == ACLNN_ERR_INNER
    assert "cannot be made repeatable" in (compat.aclGetRecentErrMsg() or "")


def test_a_copy_between_distinct_tensors_is_repeatable(dev: Any) -> None:
    a = np.arange(64, dtype=np.float32)
    t, u = dev(np.zeros_like(a)), dev(a)
    ws, ex = aclnn.inplace_copy_get_workspace_size(t, u)
    aclnn.set_executor_repeatable(ex)
    for _ in range(2):
        aclnn.inplace_copy(None, ws, ex, None)
    aclsim.synchronize_device()
    np.testing.assert_array_equal(t.numpy(), a)
    aclnn.destroy_executor(ex)


def test_a_device_to_device_copy_step_is_not_repeatable(dev: Any) -> None:
    a = np.arange(16, dtype=np.float32)
    src, dst = dev(a), dev(np.zeros_like(a))
    b = OpBuilder("CopyByDma")
    i, o = b.input(src.desc), b.output(dst.desc)
    b.copy(o, i, a.nbytes)
    ws, ex = b.finish()
    with pytest.raises(AclnnError, match="device-to-device copy"):
        aclnn.set_executor_repeatable(ex)
    aclnn.run(None, ws, ex, None)
    aclsim.synchronize_device()
    np.testing.assert_array_equal(dst.numpy(), a)


def test_elementwise_and_staged_executors_stay_repeatable(dev: Any) -> None:
    n = 4000
    a = np.random.default_rng(0).uniform(-1, 1, n).astype(np.float32)
    t = dev(a)
    ws, ex = aclnn.inplace_add_get_workspace_size(t.view((n - 1,), (1,), 1), t.view((n - 1,), (1,), 0), 1.0)
    aclnn.set_executor_repeatable(ex)  # a staged input: a view_copy into the workspace, not onto itself
    w = aclsim.malloc(ws)
    for _ in range(2):
        aclnn.inplace_add(w, ws, ex, None)
    aclsim.synchronize_device()
    aclsim.free(w)
    aclnn.destroy_executor(ex)
    want = a.copy()
    for _ in range(2):
        want[1:] = want[1:] + want[:-1]
    np.testing.assert_allclose(t.numpy(), want, rtol=1e-6, atol=1e-6)
