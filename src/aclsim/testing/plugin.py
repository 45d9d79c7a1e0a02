"""The pytest plug-in of aclsim, installed through the package's ``pytest11`` entry point
(``aclsim = "aclsim.testing.plugin"``): fixtures for an initialised runtime, a stream, the
operator harness and :func:`~aclsim.testing.assert_close`.

Nothing here is autouse and no hook changes collection or outcomes: a test suite that does
not ask for these fixtures runs as without the plug-in.  ``-p no:aclsim`` disables it.

Fixtures (all function-scoped):

``aclsim_runtime``
    ``aclsim.init(chip=...)`` + ``set_device(0)``; yields the :class:`aclsim.Device`; after
    the test, waits for the device, resets it and finalizes (leaks are not an error here;
    ``aclsim.leak_report()`` inside the test tells them).  The chip is ``tiny`` unless the
    test is marked ``@pytest.mark.aclsim_chip("310P")`` or pytest runs with
    ``--aclsim-chip NAME``; the marker wins.
``aclsim_stream``
    a new stream on that device, destroyed after the test.
``aclsim_harness``
    an :class:`~aclsim.testing.OpHarness` on that stream (1 warm-up run, 3 timed runs); the
    device memory it allocated is freed after the test.
``assert_close``
    :func:`aclsim.testing.assert_close` (an ``AssertionError`` with the tolerance report).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import aclsim
from aclsim.testing.compare import assert_close as _assert_close
from aclsim.testing.harness import OpHarness

DEFAULT_CHIP = "tiny"  # the small preset: fast tests


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("aclsim")
    group.addoption("--aclsim-chip", default=None, metavar="NAME",
                    help=f"chip preset of the aclsim_runtime fixture (default {DEFAULT_CHIP}; "
                    "see `aclsim chips`)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "aclsim_chip(name): the chip preset of the aclsim_runtime fixture")


def _chip(request: pytest.FixtureRequest) -> str:
    marker = request.node.get_closest_marker("aclsim_chip")
    if marker is not None:
        if len(marker.args) != 1 or not isinstance(marker.args[0], str):
            raise pytest.UsageError("aclsim_chip takes one chip name, e.g. @pytest.mark.aclsim_chip('310P')")
        return str(marker.args[0])
    option = request.config.getoption("--aclsim-chip", default=None)
    return str(option) if option else DEFAULT_CHIP


@pytest.fixture
def aclsim_runtime(request: pytest.FixtureRequest) -> Iterator[aclsim.Device]:
    """An initialised runtime with device 0 set in this thread (see the module's docstring)."""
    chip = _chip(request)
    aclsim.get_chip(chip)  # an unknown name fails here, naming the presets
    if aclsim.is_initialized():
        raise pytest.UsageError("aclsim_runtime: the runtime is already initialised (a test or fixture "
                                "called aclsim.init without finalize)")
    aclsim.init(chip=chip)
    try:
        aclsim.set_device(0)
        yield aclsim.runtime.device_by_id(0)
    finally:
        if aclsim.is_initialized():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", aclsim.LeakWarning)
                try:
                    aclsim.reset_device_force(0)
                finally:
                    aclsim.finalize()


@pytest.fixture
def aclsim_stream(aclsim_runtime: aclsim.Device) -> Iterator[aclsim.Stream]:
    """A new stream on the ``aclsim_runtime`` device, destroyed after the test."""
    stream = aclsim.create_stream()
    yield stream
    if aclsim.is_initialized() and stream.alive:
        aclsim.destroy_stream(stream)


@pytest.fixture
def aclsim_harness(aclsim_stream: aclsim.Stream) -> Iterator[OpHarness]:
    """An :class:`~aclsim.testing.OpHarness` on ``aclsim_stream`` (warmup=1, repeats=3)."""
    harness = OpHarness(aclsim_stream, warmup=1, repeats=3)
    yield harness
    if aclsim.is_initialized():
        harness.free_all()


@pytest.fixture
def assert_close() -> Callable[..., Any]:
    """:func:`aclsim.testing.assert_close`."""
    return _assert_close
