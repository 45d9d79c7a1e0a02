"""Shared fixtures: every test leaves the process-wide runtime finalized."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

import npusim


@pytest.fixture(autouse=True)
def _finalize_runtime() -> Iterator[None]:
    """After each test, finalize the runtime if the test left it initialized."""
    yield
    if npusim.is_initialized():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", npusim.LeakWarning)
            npusim.finalize()


@pytest.fixture
def rt() -> Iterator[None]:
    """An initialized runtime on the ``tiny`` chip with device 0 set in this thread."""
    npusim.init(chip="tiny")
    npusim.set_device(0)
    yield
