"""Fixtures of the pyACL-face tests: a clean runtime around every test, and a gate that
holds a stream at a blocking callback so that NOT_READY states can be observed."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Iterator

import pytest

import aclsim.acl as acl
from aclsim.errors import LeakWarning
from aclsim.runtime._state import STATE


def _finalize_quietly() -> None:
    """Finalize the runtime if it is initialized, ignoring leak warnings."""
    if STATE.initialized:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", LeakWarning)
            assert acl.finalize() == acl.ACL_SUCCESS


@pytest.fixture
def finalize_quietly() -> Callable[[], None]:
    """The function that finalizes the runtime if it is initialized, ignoring leaks."""
    return _finalize_quietly


@pytest.fixture(autouse=True)
def _clean_runtime(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test starts and ends with the runtime finalized, on two ``tiny`` devices
    (64 MiB of HBM each), with no stale error message."""
    monkeypatch.setenv("ACLSIM_CHIP", "tiny")
    monkeypatch.setenv("ACLSIM_DEVICES", "2")
    monkeypatch.delenv("ACLSIM_MEMORY", raising=False)
    _finalize_quietly()
    acl.get_recent_err_msg()
    yield
    _finalize_quietly()
    acl.get_recent_err_msg()


@pytest.fixture
def dev() -> Iterator[None]:
    """pyACL initialized, device 0 set in this thread (its default context current)."""
    assert acl.init() == 0
    assert acl.rt.set_device(0) == 0
    yield


class Gate:
    """Holds ``stream`` at a blocking callback until :meth:`open`.

    A helper thread from ``acl.util.start_thread`` is subscribed to the stream and only
    starts calling ``process_report`` once the gate is opened.
    """

    def __init__(self, stream: int) -> None:
        self.stream = stream
        self.ran = threading.Event()
        self._open = threading.Event()
        self._stop = threading.Event()
        self.tid, ret = acl.util.start_thread(self._loop, [stream])
        assert ret == 0
        assert acl.rt.subscribe_report(self.tid, stream) == 0
        assert acl.rt.launch_callback(self._callback, None, acl.ACL_CALLBACK_BLOCK, stream) == 0
        self.stopped = False

    def _callback(self, _user_data: object) -> None:
        self.ran.set()

    def _loop(self, _args: object) -> None:
        self._open.wait(10)
        while not self._stop.is_set():
            acl.rt.process_report(10)

    def open(self) -> None:
        self._open.set()
        assert self.ran.wait(5), "the gate's callback did not run"

    def stop(self) -> None:
        if self.stopped:
            return
        self.stopped = True
        self._open.set()
        self._stop.set()
        assert acl.util.stop_thread(self.tid) == 0


@pytest.fixture
def gate() -> Iterator[Callable[[int], Gate]]:
    """``gate(stream)`` blocks ``stream``; every gate is stopped at teardown."""
    gates: list[Gate] = []

    def make(stream: int) -> Gate:
        g = Gate(stream)
        gates.append(g)
        return g

    yield make
    for g in gates:
        g.stop()
