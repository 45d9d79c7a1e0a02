"""``aclsim memcheck``: run a built-in workload or a script's ``workload()`` under a
:class:`~aclsim.testing.MemoryMonitor` and print seed 003's memory health table."""

from __future__ import annotations

import argparse
import json
import runpy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import aclsim
from aclsim.testing.memhealth import MemoryHealth, MemoryMonitor
from aclsim.testing.sample_op import sample_add, sample_add_get_workspace_size

WORKLOADS = ("add", "add-zero-copy")


def register(sub: Any) -> None:
    p = sub.add_parser("memcheck", help="measure seed 003's memory health table (latency, fragmentation, "
                       "hit rate, zero-copy share) of a workload")
    p.add_argument("--workload", choices=WORKLOADS, default="add",
                   help="built-in: seed 003's two-phase add, with device buffers and copies (add) or with "
                   "host memory mapped for the device (add-zero-copy)")
    p.add_argument("--script", metavar="FILE.py",
                   help="run FILE.py's workload() instead (called with the runtime initialised and device 0 "
                   "set; the file must not call init itself)")
    p.add_argument("--chip", default="310P", help="chip preset (see `aclsim chips`)")
    p.add_argument("--elements", type=int, default=1 << 14, help="float32 elements per buffer (built-in)")
    p.add_argument("--iterations", type=int, default=20, help="iterations of the built-in workload")
    p.add_argument("--json", action="store_true", help="also print the measures as one JSON line")
    p.set_defaults(func=run_memcheck)


def add_workload(elements: int, iterations: int, *, zero_copy: bool = False) -> None:
    """Seed 003's flow ``iterations`` times: buffers, inputs in, phase one, workspace, phase
    two, result out, everything released; verified against NumPy at every iteration."""
    nbytes = elements * 4
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(elements, dtype=np.float32), rng.standard_normal(elements, dtype=np.float32)
    stream = aclsim.create_stream()
    try:
        for _ in range(iterations):
            host = [aclsim.malloc_host(nbytes) for _ in range(3)]
            aclsim.ptr_to_numpy(host[0], elements, np.float32)[:] = x
            aclsim.ptr_to_numpy(host[1], elements, np.float32)[:] = y
            if zero_copy:
                dev: list[Any] = [aclsim.host_register(h, nbytes) for h in host]
            else:
                dev = [aclsim.malloc(nbytes, stream=stream) for _ in range(3)]
                for d, h in zip(dev[:2], host[:2], strict=True):
                    aclsim.memcpy_async(d, nbytes, h, nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE, stream)
            # device buffers: x staged through the workspace; zero-copy: read in place
            size, executor = sample_add_get_workspace_size(dev[0], dev[1], dev[2], elements,
                                                           staged=not zero_copy)
            workspace = aclsim.malloc(size, stream=stream) if size else None
            sample_add(workspace, size, executor, stream)
            if not zero_copy:
                aclsim.memcpy_async(host[2], nbytes, dev[2], nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST, stream)
            aclsim.synchronize_stream(stream)
            if not np.array_equal(aclsim.ptr_to_numpy(host[2], elements, np.float32), x + y):
                raise AssertionError("memcheck workload: the add's result differs from NumPy's x + y")
            if workspace is not None:
                aclsim.free(workspace)
            for d, h in zip(dev, host, strict=True):
                if zero_copy:
                    aclsim.host_unregister(h)
                else:
                    aclsim.free(d)
                aclsim.free_host(h)
    finally:
        aclsim.destroy_stream(stream)


def _script_workload(path: Path) -> Callable[[], Any]:
    namespace = runpy.run_path(str(path), run_name="__aclsim_memcheck__")
    fn = namespace.get("workload")
    if not callable(fn):
        raise ValueError(f"{path} defines no workload() function; memcheck calls it with the runtime "
                         "initialised and device 0 set")
    return fn


def measure(workload: Callable[[], Any], *, chip: str) -> MemoryHealth:
    """Initialise the runtime on ``chip``, run ``workload()`` under a monitor, finalize."""
    aclsim.init(chip=chip)
    try:
        aclsim.set_device(0)
        with MemoryMonitor() as mon:
            workload()
        assert mon.health is not None
        return mon.health
    finally:
        if aclsim.is_initialized():
            aclsim.reset_device_force(0)
            aclsim.finalize()


def run_memcheck(args: argparse.Namespace) -> int:
    try:
        aclsim.get_chip(args.chip)
        if args.elements <= 0 or args.elements % 8 or args.iterations <= 0:
            raise ValueError("--elements must be a positive multiple of 8 (32 B of float32) and "
                             "--iterations positive")
        if args.script:
            path = Path(args.script)
            if not path.is_file():
                raise ValueError(f"no such script {path}")
            workload = _script_workload(path)
            name = str(path)
        else:
            zero = args.workload == "add-zero-copy"
            name = f"{args.workload} ({args.elements} float32 x {args.iterations} iterations)"

            def workload() -> None:
                add_workload(args.elements, args.iterations, zero_copy=zero)
    except ValueError as exc:
        print(f"aclsim memcheck: {exc}")
        return 2
    health = measure(workload, chip=args.chip)
    print(f"memory health of {name} on {args.chip}: {health.allocations} device allocation(s), "
          f"{health.hits} pool hit(s), peak reserved {health.peak_reserved_bytes} B")
    print(health.render())
    if args.json:
        print(json.dumps({"workload": name, "chip": args.chip, **health.as_dict()}))
    return 0
