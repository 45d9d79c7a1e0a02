"""``@kernel`` and the ``<<<blockDim, l2ctrl, stream>>>`` launch.

``my_kernel[block_dim, stream](*args)`` (or ``[block_dim, l2ctrl, stream]``, or
``[block_dim]`` for the current context's default stream) hands a :class:`KernelLaunch` to
the runtime (``aclsim.runtime.launch_kernel``) and returns it.  When the stream reaches it,
the device's backend runs it: :meth:`KernelLaunch.record` runs every block functionally on
its own simulated core and records its instruction stream (the language's only job), the
compiler's passes check them (races) or rewrite them (auto-sync), the backend times them
(the core model), :meth:`KernelLaunch.timed` takes the report, the launch hooks see the
launch, and the stream's modeled clock advances.  Faults are raised by the task and surface
at the stream's next synchronize, as on the device.

Observers (the profiler) register with :func:`add_launch_listener`; each listener is called
with the finished :class:`KernelLaunch` on the stream's worker thread.
"""

from __future__ import annotations

import functools
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
from threadpoolctl import ThreadpoolController

from aclsim.arch import ChipSpec, get_chip
from aclsim.errors import AclError, InvalidParamError, KernelContextError, RaceError
from aclsim.isa import Instr
from aclsim.kernel._core import Core, KernelOptions, running, set_current
from aclsim.kernel.blocks import (
    BlockScheduler,
    KernelReturn,
    Unwind,
    check_atomic_races,
    locate_acl_error,
    python_error,
)
from aclsim.kernel.coretype import MixedRestart, mix_ratio
from aclsim.kernel.crosscore import MixLayout, check_cross_core_races, start_mixed_core
from aclsim.kernel.crossrace import cross_clocks, implied_flags
from aclsim.kernel.gm import Allocation, FindMemory, GmAddr
from aclsim.kernel.sanitizer import KernelDiagnostic, KernelSanitizerWarning, SanitizerReport
from aclsim.runtime import api
from aclsim.runtime.backends import add_launch_listener, capture_launches, remove_launch_listener
from aclsim.runtime.lookup import caller_site, stream_or_default
from aclsim.runtime.memory import Buffer, is_device_address
from aclsim.runtime.pointers import allocation_at

__all__ = ["Kernel", "KernelLaunch", "add_launch_listener", "capture_launches", "kernel",
           "remove_launch_listener"]

MAX_BLOCK_DIM = 65535


@functools.lru_cache(maxsize=1)
def _blas() -> ThreadpoolController:
    return ThreadpoolController()


def _one_blas_thread() -> Any:
    """BLAS on one thread while blocks run: the cube instructions compute on NumPy many small
    products one after the other, and BLAS's own threads would only compete with the process's
    other work for the cores (2.7x slower recording of a matmul on a 2-core machine)."""
    return _blas().limit(limits=1, user_api="blas")


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
        self.find_memory: FindMemory | None = None  # the runtime's, while the launch runs
        self.sanitizer = SanitizerReport()
        self.blocks: BlockScheduler | None = None  # while the blocks run: what sync_all parks on
        self.has_atomics = False  # an atomic store was recorded: check the blocks' GM accesses
        self.kernel_type: Any = None  # the declared KernelMetaType (kernel/coretype.py)
        self.layout: Any = None  # a mixed kernel's groups (crosscore.MixLayout); None: one core per block
        self.cross: Any = None  # the cross-core flag counters while the cores run (kernel/crosscore.py)
        self.kfc_servers: dict[int, Any] = {}  # the AICs serving their AIVs' Matmul now, by group (kfc.py)
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

    def record(self, find_memory: FindMemory) -> list[list[Instr]]:
        """Run every block functionally on its own core and return the blocks' instruction
        streams (for a mixed AIC + AIV kernel: every core's, group by group, see
        :mod:`aclsim.kernel.crosscore`).  ``find_memory`` is the runtime's lookup of the device
        memory behind a global address (injected: the language does not reach into the runtime)."""
        self.find_memory = find_memory
        t0 = time.perf_counter()
        try:
            streams = self._run_cores()
        except MixedRestart as restart:  # block 0 declared a mixed type first thing: run as groups
            self.kernel_type = restart.kernel_type
            self.layout = MixLayout(self.block_dim, mix_ratio(restart.kernel_type))
            self.sanitizer = SanitizerReport()
            streams = self._run_cores()
        if self.cross is not None or self.layout is not None:
            clocks = cross_clocks(streams)
            if self.has_atomics or self.options.detect_races:
                self._checked(check_cross_core_races, streams, self.layout, clocks)
            streams = implied_flags(streams, self.chip.events_per_pipe_pair, clocks)
        elif self.has_atomics:
            self._checked(check_atomic_races, streams)
        self.exec_seconds = time.perf_counter() - t0
        return streams

    def _checked(self, check: Callable[..., None], *args: Any) -> None:
        """Run a race check between the cores; with ``on_race="report"`` its race is noted instead."""
        try:
            check(*args)
        except RaceError as exc:
            if self.options.on_race != "report":
                raise
            self.note_race(exc.block or 0, exc.message, exc.file, exc.line)

    def note_race(self, block: int, detail: str, file: str, line: int, start: int = 0, end: int = 0,
                  first: str = "") -> None:
        """Note a race on the sanitizer report (``on_race="report"``): ``detail`` names both accesses,
        ``file:line`` the second, ``first`` the first one's location (races of the same two lines
        merge into one diagnostic, ``count`` of them)."""
        self.sanitizer.note(KernelDiagnostic("race", block, start, end, first or detail, start, 0, 0, "",
                                             file, line, detail=detail))

    def _run_cores(self) -> list[list[Instr]]:
        fn = self.kernel.fn
        code = fn.__code__
        layout = self.layout
        units = layout.units if layout is not None else self.block_dim
        streams: list[list[Instr]] = [[] for _ in range(units)]

        def run_block(u: int) -> None:
            b = layout.block_idx(u) if layout is not None else u
            core = Core(self.chip, self.options, b, self.block_dim, self)
            if layout is not None:
                start_mixed_core(core, layout, u)
            set_current(core)
            try:
                try:
                    fn(*self.args)
                except KernelReturn:  # returned inside a call (REGIST_MATMUL_OBJ on a serving AIC)
                    pass
                if core.pipe is not None:
                    core.pipe.end_block(code.co_filename, code.co_firstlineno)
            except (Unwind, MixedRestart):
                raise
            except AclError as exc:
                locate_acl_error(exc, b)
                raise
            except Exception as exc:  # a Python error of the kernel: located like a fault
                raise python_error(exc, b) from exc
            finally:
                set_current(None)
                core.close()  # the block's local memory goes now, not at the end of the launch
            streams[u] = core.instrs

        names = (layout.name, layout.block_idx) if layout is not None else (None, None)
        self.blocks = BlockScheduler(units, run_block, *names)
        try:
            with _one_blas_thread():
                self.blocks.run()
        finally:
            self.blocks = None
        return streams

    def recorded(self, streams: list[list[Instr]], sync_stats: list[Any]) -> None:
        """Take the streams after the compiler's passes, and what auto-sync did per block."""
        self.streams, self.sync_stats = streams, sync_stats

    def timed(self, report: Any, sim_seconds: float) -> None:
        """Take the timing report (None with a backend that does not time)."""
        self.report, self.sim_seconds = report, sim_seconds

    def fail(self, error: BaseException) -> None:
        """Take the error the launch failed with (the stream reports it at its synchronize)."""
        self.error = error

    def close(self) -> None:
        """The launch is over (the hooks saw it): its sanitizer findings are reported and
        :meth:`wait` returns."""
        self._warn_diagnostics()
        self._done.set()

    def _warn_diagnostics(self) -> None:
        found = self.diagnostics
        if found:
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            warnings.warn(f"kernel {self.name}<<<{self.block_dim}>>> launched at {self.site}: {found[0]}"
                          f"{more}; see launch.diagnostics", KernelSanitizerWarning, stacklevel=2)

    def __repr__(self) -> str:
        state = "failed" if self.error else "done" if self.done else "queued"
        return f"<KernelLaunch {self.name}<<<{self.block_dim}>>> {state}>"


class _Configured:
    __slots__ = ("kernel", "block_dim", "l2ctrl", "stream")

    def __init__(self, kernel: Kernel, block_dim: int, l2ctrl: Any, stream: Any) -> None:
        self.kernel, self.block_dim, self.l2ctrl, self.stream = kernel, block_dim, l2ctrl, stream

    def __call__(self, *args: Any) -> KernelLaunch:
        k = self.kernel
        st = stream_or_default(self.stream)
        chip = get_chip(k.options.chip) if k.options.chip is not None else st.device.chip
        gm_args: list[Any] = []
        buffers: list[Buffer] = []
        for a in args:
            if isinstance(a, Buffer):
                buffers.append(a)
                gm_args.append(GmAddr(a.ptr))
            elif isinstance(a, (int, np.integer)) and not isinstance(a, bool) and is_device_address(int(a)):
                found = allocation_at(int(a))  # freed memory: a use after free, at the launch
                if found is not None and found.buffer is not None:  # not zero-copy host memory
                    buffers.append(found.buffer)
                gm_args.append(GmAddr(int(a)))
            else:
                gm_args.append(a)
        launch = KernelLaunch(k, self.block_dim, self.stream, tuple(gm_args), chip, k.options, caller_site())
        api.launch_kernel(launch, self.stream, buffers)
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
