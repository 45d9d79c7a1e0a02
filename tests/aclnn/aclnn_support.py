"""Helpers for aclnn tests: run an op's two phases on host arrays (imported by name: the test
folders are not packages, and ``conftest`` is a name every folder's conftest shares)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np

import aclsim

BF16 = np.dtype(ml_dtypes.bfloat16)


def run_op(phase_one: Callable[..., Any], phase_two: Callable[..., Any], *args: Any) -> Any:
    """Phase one on ``args`` (``Tensor``s stand for their descriptors), a workspace if asked,
    phase two on the default stream, synchronize; returns the executor."""
    ws, ex = phase_one(*args)
    workspace = aclsim.malloc(ws) if ws else None
    phase_two(workspace, ws, ex, None)
    aclsim.synchronize_device()
    if workspace is not None:
        aclsim.free(workspace)
    return ex
