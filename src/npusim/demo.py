"""The main job: the host flow of seeds 000 and 003, step by step, on the simulated NPU."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import npusim
from npusim.errors import AclError, LeakWarning
from npusim.runtime.api import MemcpyKind


@dataclass
class DemoResult:
    passed: bool
    steps: list[str] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    leaks: list[str] = field(default_factory=list)
    kernel_seconds: float = 0.0  # the add kernel's modeled time (core model)


def _add_kernel(elements: int, blocks: int) -> Any:
    """z = x + y in float32 over ``blocks`` blocks, tiles double-buffered through TQues."""
    import npusim.kernel as asc
    from npusim.kernel.samples import add_kernel

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
    config = npusim.get_chip(chip)
    blocks = next(b for b in range(min(8, config.cores), 0, -1) if elements % (8 * b) == 0 or b == 1)
    add = _add_kernel(elements, blocks)  # checks the size before anything is allocated
    npusim.init(chip=chip)
    step(f"init: runtime up, chip {config.name} ({config.description})")
    npusim.set_device(0)
    step(f"set_device(0): {npusim.get_device_count()} device(s), run mode {npusim.get_run_mode().name}")
    ctx = npusim.create_context(0)
    step(f"create_context(0) -> {ctx!r}, current in this thread")
    s_in, s_work = npusim.create_stream(), npusim.create_stream()
    step(f"create_stream x2 -> {s_in!r}, {s_work!r}")

    nbytes = elements * 4
    rng = np.random.default_rng(0)
    x_host = npusim.malloc_host(nbytes)
    y_host = npusim.malloc_host(nbytes)
    z_host = npusim.malloc_host(nbytes)
    x = npusim.ptr_to_numpy(x_host, elements, np.float32)
    y = npusim.ptr_to_numpy(y_host, elements, np.float32)
    x[:] = rng.standard_normal(elements, dtype=np.float32)
    y[:] = rng.standard_normal(elements, dtype=np.float32)
    step(f"malloc_host x3: {elements} float32 inputs x, y ({nbytes / 2**20:.1f} MiB each) in pinned memory")
    x_dev, y_dev, z_dev = (npusim.malloc(nbytes) for _ in range(3))
    free_b, total_b = npusim.get_mem_info(npusim.MemAttr.HBM_MEM if config.dram_kind == "HBM"
                                          else npusim.MemAttr.DDR_MEM)
    step(f"malloc x3 on npu:0 -> {x_dev!r} ...; device memory free {free_b / 2**30:.2f} of "
         f"{total_b / 2**30:.2f} GiB")

    ev = {name: npusim.create_event() for name in ("start", "in_done", "y_done", "compute_done", "end")}
    npusim.record_event(ev["start"], s_in)
    npusim.memcpy_async(x_dev, nbytes, x_host, nbytes, MemcpyKind.HOST_TO_DEVICE, s_in)
    npusim.record_event(ev["in_done"], s_in)
    npusim.memcpy_async(y_dev, nbytes, y_host, nbytes, MemcpyKind.HOST_TO_DEVICE, s_work)
    npusim.record_event(ev["y_done"], s_work)
    step("memcpy_async H2D: x on stream 1, y on stream 2 (queued, host continues)")
    npusim.stream_wait_event(s_work, ev["in_done"])
    step("stream_wait_event: stream 2 waits for x to land before computing")

    # The compute step: an Ascend C-style add kernel (double-buffered queues), run exactly
    # on NumPy and timed by the core model; its modeled time advances stream 2's clock.
    launch = add[blocks, None, s_work](x_dev, y_dev, z_dev)  # <<<blockDim, l2ctrl, stream>>>
    npusim.record_event(ev["compute_done"], s_work)
    npusim.memcpy_async(z_host, nbytes, z_dev, nbytes, MemcpyKind.DEVICE_TO_HOST, s_work)
    npusim.record_event(ev["end"], s_work)
    step(f"launch add_kernel<<<{blocks}>>> (z = x + y) on stream 2, then memcpy_async D2H")
    npusim.synchronize_stream(s_in)
    npusim.synchronize_stream(s_work)
    step("synchronize_stream x2: all queued work done")

    report = launch.report
    result.kernel_seconds = report.seconds
    step(f"kernel: {launch.instructions} instructions, {report.total_cycles:.0f} cycles, bottleneck "
         f"{report.bottleneck.track_name}, global memory at {report.bandwidth_fraction:.0%} of the HBM peak")
    z = npusim.ptr_to_numpy(z_host, elements, np.float32)
    expected = x + y
    ok = bool(np.array_equal(z, expected))
    step(f"verify z == x + y against NumPy: {'PASS' if ok else 'FAIL'} "
         f"(max abs diff {float(np.max(np.abs(z - expected))):.3g})")

    t = result.timings_ms
    t["H2D x"] = npusim.event_elapsed_time(ev["start"], ev["in_done"])
    t["H2D y"] = npusim.event_elapsed_time(ev["start"], ev["y_done"])
    t["compute"] = npusim.event_elapsed_time(ev["in_done"], ev["compute_done"])
    t["D2H z"] = npusim.event_elapsed_time(ev["compute_done"], ev["end"])
    t["total"] = npusim.event_elapsed_time(ev["start"], ev["end"])
    gbps = nbytes / (t["H2D x"] * 1e-3) / 1e9
    step("event_elapsed_time (modeled device time): " + ", ".join(f"{k} {v:.3f} ms" for k, v in t.items())
         + f"; H2D {gbps:.1f} GB/s")

    for e in ev.values():
        npusim.destroy_event(e)
    for b in (x_dev, y_dev, z_dev):
        npusim.free(b)
    for h in (x_host, y_host, z_host):
        npusim.free_host(h)
    npusim.destroy_stream(s_in)
    npusim.destroy_stream(s_work)
    npusim.destroy_context(ctx)
    npusim.reset_device(0)
    step("released in order: events, device memory, host memory, streams, context, device")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LeakWarning)
        result.leaks = npusim.finalize()
    step(f"finalize: {'no leaks' if not result.leaks else f'{len(result.leaks)} LEAK(S)'} "
         f"(host wall time {time.perf_counter() - t0:.2f} s)")
    for line in result.leaks:
        log(f"     leak: {line}")
    result.passed = ok and not result.leaks
    return result


def main_demo(chip: str, elements: int) -> int:
    try:
        result = run_demo(chip=chip, elements=elements)
    except AclError as exc:
        print(f"FAIL: {exc}")
        return 1
    except ValueError as exc:
        print(f"npusim demo: {exc}")
        return 2
    print("PASS" if result.passed else "FAIL")
    return 0 if result.passed else 1
