"""Seed 003's operator test harness: data onto the device and back, an operator run through
both phases with warm-up and repeated runs, timed by events (modeled device time) and by the
host clock, and checked against a NumPy reference.

The operator is given as its two phases, in the aclnn convention::

    workspace_size, executor = get_workspace_size(*args)
    launch(workspace, workspace_size, executor, stream)

``workspace`` is a :class:`aclsim.Buffer` from the caching pool (``int(buf)`` is its address),
or ``None`` when ``workspace_size`` is 0.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import aclsim
from aclsim.testing.compare import CompareReport, assert_close, compare

__all__ = ["OpHarness", "OpRun"]

PhaseOne = Callable[..., tuple[int, Any]]
PhaseTwo = Callable[[Any, int, Any, Any], Any]


@dataclass
class OpRun:
    """The timings of one :meth:`OpHarness.run`.

    ``device_ms``: modeled device milliseconds of each timed run, between events recorded on
    the stream before and after its phase two.  ``host_ms``: host wall milliseconds per timed
    run, from the first timed submission to the end of the stream synchronisation, divided by
    the runs (seed 003's measure).  ``phase_one_ms``: host milliseconds of each phase-one call
    (one with a repeatable executor).  ``submit_ms``: host milliseconds each phase two took to
    return (enqueueing only).
    """

    workspace_size: int
    warmup: int
    repeats: int
    repeatable: bool
    device_ms: list[float] = field(default_factory=list)
    host_ms: float = 0.0
    phase_one_ms: list[float] = field(default_factory=list)
    submit_ms: list[float] = field(default_factory=list)

    @property
    def mean_device_ms(self) -> float:
        return statistics.fmean(self.device_ms) if self.device_ms else 0.0

    @property
    def median_device_ms(self) -> float:
        return statistics.median(self.device_ms) if self.device_ms else 0.0

    @property
    def min_device_ms(self) -> float:
        return min(self.device_ms) if self.device_ms else 0.0

    def summary(self) -> str:
        return (f"{self.repeats} run(s) after {self.warmup} warm-up: "
                f"device {self.mean_device_ms * 1e3:.2f} us mean (min {self.min_device_ms * 1e3:.2f}, "
                f"modeled), host {self.host_ms:.3f} ms per run "
                f"(wall), workspace {self.workspace_size} B, "
                f"executor {'repeatable' if self.repeatable else 'rebuilt per run'}")


class OpHarness:
    """Runs operators on ``stream`` (the current context's default stream when ``None``) of an
    initialised runtime with a device set.

    >>> import numpy as np, aclsim
    >>> from aclsim.testing import OpHarness, sample_add, sample_add_get_workspace_size
    >>> aclsim.init(chip="tiny"); aclsim.set_device(0)
    >>> h = OpHarness(warmup=1, repeats=2)
    >>> x, y = np.arange(64, dtype=np.float32), np.ones(64, np.float32)
    >>> dx, dy, dz = h.to_device(x), h.to_device(y), h.empty(x.nbytes)
    >>> run = h.run(sample_add_get_workspace_size, sample_add, dx, dy, dz, 64)
    >>> h.check(h.from_device(dz, x.shape, x.dtype), x + y).passed, len(run.device_ms)
    (True, 2)
    >>> h.free_all(); aclsim.reset_device(0); aclsim.finalize()
    []
    """

    def __init__(self, stream: aclsim.Stream | None = None, *, warmup: int = 3, repeats: int = 10,
                 sync_timeout: float = 120.0) -> None:
        if warmup < 0 or repeats < 1:
            raise ValueError(f"need warmup >= 0 and repeats >= 1, got warmup={warmup}, repeats={repeats}")
        self.stream = stream
        self.warmup = warmup
        self.repeats = repeats
        self.sync_timeout = sync_timeout
        self._owned: list[aclsim.Buffer] = []

    # --- data ---------------------------------------------------------------------------
    def empty(self, nbytes: int) -> aclsim.Buffer:
        """Device memory from the caching pool, on the harness's stream; freed by :meth:`free_all`."""
        buf = aclsim.malloc(nbytes, stream=self.stream)
        self._owned.append(buf)
        return buf

    def to_device(self, host: np.ndarray) -> aclsim.Buffer:
        """A device copy of ``host`` (its bytes, C order)."""
        data = np.ascontiguousarray(host)
        buf = self.empty(max(data.nbytes, 1))
        aclsim.memcpy(buf, buf.size, data, data.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
        return buf

    def from_device(self, buf: Any, shape: int | Sequence[int], dtype: Any) -> np.ndarray:
        """The array of ``shape`` and ``dtype`` at device address ``buf``, after the stream's work."""
        aclsim.synchronize_stream(self.stream, self.sync_timeout)
        out = np.empty(shape, dtype=dtype)
        aclsim.memcpy(out, out.nbytes, buf, out.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
        return out

    def free_all(self) -> None:
        """Free what :meth:`empty` and :meth:`to_device` allocated (after the stream's work)."""
        aclsim.synchronize_stream(self.stream, self.sync_timeout)
        while self._owned:
            aclsim.free(self._owned.pop())

    # --- checks -------------------------------------------------------------------------
    @staticmethod
    def check(actual: Any, expected: Any, *, rtol: float | None = None,
              atol: float | None = None) -> CompareReport:
        """The tolerance report of ``actual`` against the reference (:func:`compare`)."""
        return compare(actual, expected, rtol=rtol, atol=atol)

    @staticmethod
    def assert_close(actual: Any, expected: Any, *, rtol: float | None = None,
                     atol: float | None = None) -> CompareReport:
        return assert_close(actual, expected, rtol=rtol, atol=atol)

    # --- running ------------------------------------------------------------------------
    def run(self, get_workspace_size: PhaseOne, launch: PhaseTwo, *args: Any, warmup: int | None = None,
            repeats: int | None = None, repeatable: Callable[[Any], Any] | None = None,
            destroy: Callable[[Any], Any] | None = None, **kwargs: Any) -> OpRun:
        """Run an operator through both phases: ``warmup`` untimed runs, then ``repeats`` timed.

        With ``repeatable`` (the op's ``set_executor_repeatable``), phase one runs once, the
        executor is made repeatable and reused by every run, then given to ``destroy`` (its
        ``destroy_executor``) if given.  Without it, phase one runs again before every run (an
        executor is consumed by its run).  The workspace comes from the caching pool on the
        harness's stream and is freed at the end, also when a run fails.
        """
        warmup = self.warmup if warmup is None else warmup
        repeats = self.repeats if repeats is None else repeats
        if warmup < 0 or repeats < 1:
            raise ValueError(f"need warmup >= 0 and repeats >= 1, got warmup={warmup}, repeats={repeats}")
        run = OpRun(0, warmup, repeats, repeatable is not None)
        events = [aclsim.create_event() for _ in range(2 * repeats)]
        state: dict[str, Any] = {"buf": None, "executor": None}
        try:
            self._runs(run, state, events, get_workspace_size, launch, args, kwargs, repeatable)
        finally:
            aclsim.synchronize_stream(self.stream, self.sync_timeout)
            if repeatable is not None and destroy is not None and state["executor"] is not None:
                destroy(state["executor"])
            if state["buf"] is not None:
                aclsim.free(state["buf"])
            for ev in events:
                aclsim.destroy_event(ev)
        return run

    def _runs(self, run: OpRun, state: dict[str, Any], events: list[aclsim.Event], phase_one: PhaseOne,
              launch: PhaseTwo, args: tuple[Any, ...], kwargs: dict[str, Any],
              repeatable: Callable[[Any], Any] | None) -> None:
        def prepare() -> tuple[Any, int, Any]:
            if repeatable is not None and state["executor"] is not None:
                return state["buf"], run.workspace_size, state["executor"]
            t0 = time.perf_counter()
            size, executor = phase_one(*args, **kwargs)
            run.phase_one_ms.append((time.perf_counter() - t0) * 1e3)
            state["executor"] = executor
            if repeatable is not None:
                repeatable(executor)
            if size > run.workspace_size or (size and state["buf"] is None):
                if state["buf"] is not None:
                    aclsim.free(state["buf"])
                    state["buf"] = None
                state["buf"] = aclsim.malloc(size, stream=self.stream)
            run.workspace_size = max(run.workspace_size, size)
            return (state["buf"] if size else None), size, executor

        for _ in range(run.warmup):
            launch(*prepare(), self.stream)
        aclsim.synchronize_stream(self.stream, self.sync_timeout)
        t0 = time.perf_counter()
        for i in range(run.repeats):
            workspace, size, executor = prepare()
            aclsim.record_event(events[2 * i], self.stream)
            t1 = time.perf_counter()
            launch(workspace, size, executor, self.stream)
            run.submit_ms.append((time.perf_counter() - t1) * 1e3)
            aclsim.record_event(events[2 * i + 1], self.stream)
        aclsim.synchronize_stream(self.stream, self.sync_timeout)
        run.host_ms = (time.perf_counter() - t0) * 1e3 / run.repeats
        run.device_ms = [aclsim.event_elapsed_time(events[2 * i], events[2 * i + 1])
                         for i in range(run.repeats)]
