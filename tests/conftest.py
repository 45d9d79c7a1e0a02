"""Shared fixtures: every test leaves the process-wide runtime finalized."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

import aclsim


@pytest.fixture(autouse=True)
def _finalize_runtime() -> Iterator[None]:
    """After each test, finalize the runtime if the test left it initialized."""
    yield
    if aclsim.is_initialized():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", aclsim.LeakWarning)
            aclsim.finalize()


@pytest.fixture
def rt() -> Iterator[None]:
    """An initialized runtime on the ``tiny`` chip with device 0 set in this thread."""
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    yield
