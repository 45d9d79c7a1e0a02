"""The main job: the host flow of seeds 000 and 003, step by step, on the simulated NPU."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import aclsim
from aclsim.errors import AclError, LeakWarning
from aclsim.runtime.enums import MemcpyKind


@dataclass
class DemoResult:
    passed: bool
    steps: list[str] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    leaks: list[str] = field(default_factory=list)
    kernel_seconds: float = 0.0  # the add kernel's modeled time (core model)


def _add_kernel(elements: int, blocks: int) -> Any:
    """z = x + y in float32 over ``blocks`` blocks, tiles double-buffered through TQues."""
    import aclsim.kernel as asc
    from aclsim.kernel.samples import add_kernel

    per_block = -(-elements // blocks)
    tile = 4096
    while tile > 8 and per_block % tile:
        tile //= 2
    if per_block % tile or elements % blocks:
        raise ValueError(f"--elements {elements} is not a multiple of 8 (32 B of float32): DataCopy moves "
                         "whole 32 B blocks")
    return add_kernel(asc.float32, per_block, tile)


def run_demo(*, chip: str = "910B", elements: int = 1 << 20,
             log: Callable[[str], None] = print) -> DemoResult:
    """Run the demo flow; every step is reported through ``log``.  Returns the outcome.

    >>> run_demo(chip="tiny", elements=1024, log=lambda s: None).passed
    True
    """
    result = DemoResult(passed=False)

    def step(text: str) -> None:
        result.steps.append(text)
        log(f"[{len(result.steps):2d}] {text}")

    t0 = time.perf_counter()
    config = aclsim.get_chip(chip)
    blocks = next(b for b in range(min(8, config.cores), 0, -1) if elements % (8 * b) == 0 or b == 1)
    add = _add_kernel(elements, blocks)  # checks the size before anything is allocated
    aclsim.init(chip=chip)
    step(f"init: runtime up, chip {config.name} ({config.description})")
    aclsim.set_device(0)
    step(f"set_device(0): {aclsim.get_device_count()} device(s), run mode {aclsim.get_run_mode().name}")
    ctx = aclsim.create_context(0)
    step(f"create_context(0) -> {ctx!r}, current in this thread")
    s_in, s_work = aclsim.create_stream(), aclsim.create_stream()
    step(f"create_stream x2 -> {s_in!r}, {s_work!r}")

    nbytes = elements * 4
    rng = np.random.default_rng(0)
    x_host = aclsim.malloc_host(nbytes)
    y_host = aclsim.malloc_host(nbytes)
    z_host = aclsim.malloc_host(nbytes)
    x = aclsim.ptr_to_numpy(x_host, elements, np.float32)
    y = aclsim.ptr_to_numpy(y_host, elements, np.float32)
    x[:] = rng.standard_normal(elements, dtype=np.float32)
    y[:] = rng.standard_normal(elements, dtype=np.float32)
    step(f"malloc_host x3: {elements} float32 inputs x, y ({nbytes / 2**20:.1f} MiB each) in pinned memory")
    x_dev, y_dev, z_dev = (aclsim.malloc(nbytes) for _ in range(3))
    free_b, total_b = aclsim.get_mem_info(aclsim.MemAttr.HBM_MEM if config.dram_kind == "HBM"
                                          else aclsim.MemAttr.DDR_MEM)
    step(f"malloc x3 on npu:0 -> {x_dev!r} ...; device memory free {free_b / 2**30:.2f} of "
         f"{total_b / 2**30:.2f} GiB")

    ev = {name: aclsim.create_event() for name in ("start", "in_done", "y_done", "compute_done", "end")}
    aclsim.record_event(ev["start"], s_in)
    aclsim.memcpy_async(x_dev, nbytes, x_host, nbytes, MemcpyKind.HOST_TO_DEVICE, s_in)
    aclsim.record_event(ev["in_done"], s_in)
    aclsim.memcpy_async(y_dev, nbytes, y_host, nbytes, MemcpyKind.HOST_TO_DEVICE, s_work)
    aclsim.record_event(ev["y_done"], s_work)
    step("memcpy_async H2D: x on stream 1, y on stream 2 (queued, host continues)")
    aclsim.stream_wait_event(s_work, ev["in_done"])
    step("stream_wait_event: stream 2 waits for x to land before computing")

    # The compute step: an Ascend C-style add kernel (double-buffered queues), run exactly
    # on NumPy and timed by the core model; its modeled time advances stream 2's clock.
    launch = add[blocks, None, s_work](x_dev, y_dev, z_dev)  # <<<blockDim, l2ctrl, stream>>>
    aclsim.record_event(ev["compute_done"], s_work)
    aclsim.memcpy_async(z_host, nbytes, z_dev, nbytes, MemcpyKind.DEVICE_TO_HOST, s_work)
    aclsim.record_event(ev["end"], s_work)
    step(f"launch add_kernel<<<{blocks}>>> (z = x + y) on stream 2, then memcpy_async D2H")
    aclsim.synchronize_stream(s_in)
    aclsim.synchronize_stream(s_work)
    step("synchronize_stream x2: all queued work done")

    report = launch.report
    result.kernel_seconds = report.seconds
    step(f"kernel: {launch.instructions} instructions, {report.total_cycles:.0f} cycles, bottleneck "
         f"{report.bottleneck.track_name}, global memory at {report.bandwidth_fraction:.0%} of the HBM peak")
    z = aclsim.ptr_to_numpy(z_host, elements, np.float32)
    expected = x + y
    ok = bool(np.array_equal(z, expected))
    step(f"verify z == x + y against NumPy: {'PASS' if ok else 'FAIL'} "
         f"(max abs diff {float(np.max(np.abs(z - expected))):.3g})")

    _time_events(result, ev, nbytes, step)
    for e in ev.values():
        aclsim.destroy_event(e)
    for b in (x_dev, y_dev, z_dev):
        aclsim.free(b)
    for h in (x_host, y_host, z_host):
        aclsim.free_host(h)
    aclsim.destroy_stream(s_in)
    aclsim.destroy_stream(s_work)
    aclsim.destroy_context(ctx)
    aclsim.reset_device(0)
    step("released in order: events, device memory, host memory, streams, context, device")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LeakWarning)
        result.leaks = aclsim.finalize()
    step(f"finalize: {'no leaks' if not result.leaks else f'{len(result.leaks)} LEAK(S)'} "
         f"(host wall time {time.perf_counter() - t0:.2f} s)")
    for line in result.leaks:
        log(f"     leak: {line}")
    result.passed = ok and not result.leaks
    return result


def _time_events(result: DemoResult, ev: dict[str, aclsim.Event], nbytes: int,
                 step: Callable[[str], None]) -> None:
    """The modeled device time between the demo's events."""
    t = result.timings_ms
    t["H2D x"] = aclsim.event_elapsed_time(ev["start"], ev["in_done"])
    t["H2D y"] = aclsim.event_elapsed_time(ev["start"], ev["y_done"])
    t["compute"] = aclsim.event_elapsed_time(ev["in_done"], ev["compute_done"])
    t["D2H z"] = aclsim.event_elapsed_time(ev["compute_done"], ev["end"])
    t["total"] = aclsim.event_elapsed_time(ev["start"], ev["end"])
    gbps = nbytes / (t["H2D x"] * 1e-3) / 1e9
    step("event_elapsed_time (modeled device time): " + ", ".join(f"{k} {v:.3f} ms" for k, v in t.items())
         + f"; H2D {gbps:.1f} GB/s")


def main_demo(chip: str, elements: int) -> int:
    try:
        result = run_demo(chip=chip, elements=elements)
    except AclError as exc:
        print(f"FAIL: {exc}")
        return 1
    except ValueError as exc:
        print(f"aclsim demo: {exc}")
        return 2
    print("PASS" if result.passed else "FAIL")
    return 0 if result.passed else 1
