"""Fixtures for aclnn tests (the helpers they import are in aclnn_support.py)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from aclsim.aclnn import Tensor


@pytest.fixture
def dev(rt: None) -> Callable[[np.ndarray], Tensor]:
    """``dev(array)``: a device Tensor holding ``array``."""
    made: list[Tensor] = []

    def make(a: np.ndarray) -> Tensor:
        t = Tensor.from_numpy(a)
        made.append(t)
        return t

    yield make
    for t in made:
        t.free()
