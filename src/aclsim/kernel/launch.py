"""``@kernel`` and the ``<<<blockDim, l2ctrl, stream>>>`` launch.

``my_kernel[block_dim, stream](*args)`` (or ``[block_dim, l2ctrl, stream]``, or
``[block_dim]`` for the current context's default stream) queues a stream task and returns
a :class:`KernelLaunch`.  When the stream reaches the task, every block runs functionally
on its own simulated core, recording its instruction stream; the streams are scheduled by
:func:`aclsim.sim.simulate`, the stream's modeled clock advances by ``report.seconds``, and
``launch.report`` holds the :class:`~aclsim.sim.SimReport`.  Faults are raised by the task
and surface at the stream's next synchronize, as on the device.

Observers (the profiler) register with :func:`add_launch_listener`; each listener is called
with the finished :class:`KernelLaunch` on the stream's worker thread.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import numpy as np

from aclsim.arch import ChipSpec, get_chip
from aclsim.errors import InvalidParamError, KernelContextError, RaceError
from aclsim.isa import Instr
from aclsim.kernel._core import Core, KernelOptions, running, set_current
from aclsim.kernel.gm import Allocation, GmAddr, locate_allocation
from aclsim.kernel.sanitizer import KernelDiagnostic, KernelSanitizerWarning, SanitizerReport

MAX_BLOCK_DIM = 65535

_listeners: list[Callable[[KernelLaunch], None]] = []
_listeners_lock = threading.Lock()


def add_launch_listener(fn: Callable[[KernelLaunch], None]) -> Callable[[KernelLaunch], None]:
    """Call ``fn(launch)`` after every kernel launch finishes (``launch.report`` set, or
    ``launch.error`` when it failed), on the stream's worker thread.  Returns ``fn`` (usable
    as a decorator).  A listener that raises is reported as a warning, never breaks the launch.
    """
    with _listeners_lock:
        _listeners.append(fn)
    return fn


def remove_launch_listener(fn: Callable[[KernelLaunch], None]) -> None:
    with _listeners_lock:
        if fn in _listeners:
            _listeners.remove(fn)


@contextlib.contextmanager
def capture_launches() -> Iterator[list[KernelLaunch]]:
    """Collect the launches that finish inside the ``with`` block.

    >>> with capture_launches() as launches:
    ...     pass
    >>> launches
    []
    """
    got: list[KernelLaunch] = []
    add_launch_listener(got.append)
    try:
        yield got
    finally:
        remove_launch_listener(got.append)


def _notify(launch: KernelLaunch) -> None:
    with _listeners_lock:
        listeners = list(_listeners)
    for fn in listeners:
        try:
            fn(launch)
        except Exception as exc:  # noqa: BLE001 - an observer must not break the launch
            warnings.warn(
                f"kernel launch listener {fn!r} raised {type(exc).__name__}: {exc}",
                RuntimeWarning,
                stacklevel=2,
            )


class KernelLaunch:
    """One launch of a kernel: filled in when its stream runs it.

    Attributes
    ----------
    report
        The :class:`~aclsim.sim.SimReport` (None until the stream ran the launch, or if it failed).
    streams
        Per block, the recorded ``list[Instr]``.
    error
        The exception the launch failed with, if any.
    diagnostics
        The sanitizer's findings (:class:`~aclsim.kernel.sanitizer.KernelDiagnostic`): legal but
        suspicious accesses (reads and writes in the padding of an allocation), each with its
        kernel line; a launch with any also warns with ``KernelSanitizerWarning``.
    exec_seconds, sim_seconds
        Wall time of functional execution + recording, and of the timing engine.
    """

    def __init__(
        self,
        kernel: Kernel,
        block_dim: int,
        stream: Any,
        args: tuple[Any, ...],
        chip: ChipSpec,
        options: KernelOptions,
        site: str,
    ) -> None:
        self.kernel = kernel
        self.name = kernel.name
        self.block_dim = block_dim
        self.stream = stream
        self.args = args
        self.chip = chip
        self.options = options
        self.site = site
        self.streams: list[list[Instr]] | None = None
        self.report: Any = None
        self.error: BaseException | None = None
        self.exec_seconds = 0.0
        self.sim_seconds = 0.0
        self.allocations: dict[int, Allocation] = {}
        self.sync_stats: list[Any] = []  # per block, with auto_sync: what the sync passes did
        self.sanitizer = SanitizerReport()
        self._done = threading.Event()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    @property
    def diagnostics(self) -> list[KernelDiagnostic]:
        return self.sanitizer.diagnostics

    @property
    def instructions(self) -> int:
        return sum(len(s) for s in self.streams) if self.streams else 0

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the stream ran this launch (prefer ``stream.synchronize()``)."""
        return self._done.wait(timeout)

    def _run(self) -> float:
        from aclsim.sim import simulate

        # The recording makes many small objects that all stay alive until the launch ends:
        # the cyclic GC would rescan them again and again, so it is paused for the run.
        gc_was_enabled = gc.isenabled()
        gc.disable()
        try:
            t0 = time.perf_counter()
            fn = self.kernel.fn
            code = fn.__code__
            streams: list[list[Instr]] = []
            with np.errstate(all="ignore"):
                for b in range(self.block_dim):
                    core = Core(self.chip, self.options, b, self.block_dim, self)
                    set_current(core)
                    try:
                        fn(*self.args)
                        if core.pipe is not None:
                            core.pipe._finish(code.co_filename, code.co_firstlineno)
                    finally:
                        set_current(None)
                        core.close()  # the block's local memory goes now, not at the end of the launch
                    streams.append(core.instrs)
            if self.options.auto_sync:
                streams = self._auto_sync(streams)
            self.streams = streams
            t1 = time.perf_counter()
            self.exec_seconds = t1 - t0
            report = simulate(self.chip, streams)
            self.sim_seconds = time.perf_counter() - t1
            self.report = report
            if self.options.detect_races and not self.options.auto_sync:
                _check_races(streams)
        except BaseException as exc:
            self.error = exc
            self._finished()
            raise
        finally:
            if gc_was_enabled:
                gc.enable()
        self._finished()
        return float(report.seconds)

    def _finished(self) -> None:
        found = self.diagnostics
        if found:
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            warnings.warn(f"kernel {self.name}<<<{self.block_dim}>>> launched at {self.site}: {found[0]}"
                          f"{more}; see launch.diagnostics", KernelSanitizerWarning, stacklevel=2)
        _notify(self)
        self._done.set()

    def _auto_sync(self, streams: list[list[Instr]]) -> list[list[Instr]]:
        """Each block's work with the syncs the compiler infers and allocates (verified)."""
        from aclsim.compiler import SyncStats, auto_sync, strip_syncs

        out = []
        self.sync_stats = []
        for stream in streams:
            stats = SyncStats()
            out.append(auto_sync(strip_syncs(stream), self.chip, stats=stats))
            self.sync_stats.append(stats)
        return out

    def __repr__(self) -> str:
        state = "failed" if self.error else "done" if self.done else "queued"
        return f"<KernelLaunch {self.name}<<<{self.block_dim}>>> {state}>"


def _check_races(streams: list[list[Instr]]) -> None:
    """The sanitizer: cross-pipe accesses to overlapping memory not ordered by flags or barriers.

    Same-pipe order is taken as given (``same_pipe="inorder"``): the sanitizer reports what
    flags must order; ``aclsim.compiler.verify_sync`` applies Ascend C's stricter same-pipe rule.
    """
    from aclsim.compiler.hb import find_races

    for block, stream in enumerate(streams):
        races = find_races(stream, same_pipe="inorder", max_reports=10)
        if races:
            first = races[0]
            more = f" (and {len(races) - 1} more)" if len(races) > 1 else ""
            raise RaceError(f"{first}{more}", file=first.second.file, line=first.second.line, block=block,
                            hint="order the two instructions with set_flag/wait_flag (or a queue's "
                            "enque/deque, alloc/free), or disable the check with detect_races=False")


class _Configured:
    __slots__ = ("kernel", "block_dim", "l2ctrl", "stream")

    def __init__(self, kernel: Kernel, block_dim: int, l2ctrl: Any, stream: Any) -> None:
        self.kernel, self.block_dim, self.l2ctrl, self.stream = kernel, block_dim, l2ctrl, stream

    def __call__(self, *args: Any) -> KernelLaunch:
        from aclsim.runtime import api
        from aclsim.runtime._state import caller_site
        from aclsim.runtime.memory import Buffer, is_device_address

        k = self.kernel
        stream = self.stream
        st = stream if stream is not None else api.get_context().default_stream
        chip = get_chip(k.options.chip) if k.options.chip is not None else st.device.chip
        gm_args: list[Any] = []
        buffers: list[Buffer] = []
        for a in args:
            if isinstance(a, Buffer):
                buffers.append(a)
                gm_args.append(GmAddr(a.ptr))
            elif isinstance(a, (int, np.integer)) and not isinstance(a, bool) and is_device_address(int(a)):
                alloc = locate_allocation(int(a))
                if alloc is not None and alloc.buffer is not None:  # not zero-copy host memory
                    buffers.append(alloc.buffer)
                gm_args.append(GmAddr(int(a)))
            else:
                gm_args.append(a)
        launch = KernelLaunch(k, self.block_dim, stream, tuple(gm_args), chip, k.options, caller_site())
        api.launch_function(
            launch._run, label=f"kernel {k.name}<<<{self.block_dim}>>>", stream=stream, buffers=buffers
        )
        return launch


class Kernel:
    """A ``@kernel`` function: launch it with ``k[block_dim, stream](*args)``."""

    def __init__(self, fn: Callable[..., Any], options: KernelOptions | None = None) -> None:
        if not callable(fn) or not hasattr(fn, "__code__"):
            raise TypeError("@kernel decorates a Python function")
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.name: str = fn.__name__
        self.options = options or KernelOptions()

    def with_options(self, **changes: Any) -> Kernel:
        """The same kernel with some :class:`KernelOptions` changed (``detect_races=False``...)."""
        return Kernel(self.fn, replace(self.options, **changes))

    def __getitem__(self, config: Any) -> _Configured:
        cfg = config if isinstance(config, tuple) else (config,)
        if len(cfg) == 1:
            block_dim, l2ctrl, stream = cfg[0], None, None
        elif len(cfg) == 2:
            block_dim, stream = cfg
            l2ctrl = None
        elif len(cfg) == 3:
            block_dim, l2ctrl, stream = cfg
        else:
            raise TypeError(
                "launch as kernel[block_dim], kernel[block_dim, stream] or kernel[block_dim, l2ctrl, stream]"
            )
        if (
            not isinstance(block_dim, (int, np.integer))
            or isinstance(block_dim, bool)
            or not 1 <= block_dim <= MAX_BLOCK_DIM
        ):
            raise InvalidParamError(f"block_dim must be an int in 1..{MAX_BLOCK_DIM}, got {block_dim!r}")
        return _Configured(self, int(block_dim), l2ctrl, stream)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if running():
            raise KernelContextError(
                f"kernel {self.name} called from inside a kernel",
                hint="call the plain Python function it wraps (its .fn) instead",
            )
        raise KernelContextError(
            f"kernel {self.name} called like a function",
            hint=f"launch it: {self.name}[block_dim, stream](*device_pointers)",
        )

    def __repr__(self) -> str:
        return f"<Kernel {self.name}>"


def kernel(
    fn: Callable[..., Any] | None = None, *, options: KernelOptions | None = None, **option_changes: Any
) -> Any:
    """Mark a function as a kernel (``__global__ __aicore__``).

    ``@kernel``, ``@kernel(options=KernelOptions(...))`` or ``@kernel(detect_races=False)``.
    """
    opts = replace(options or KernelOptions(), **option_changes)

    def wrap(f: Callable[..., Any]) -> Kernel:
        return Kernel(f, opts)

    return wrap(fn) if fn is not None else wrap
