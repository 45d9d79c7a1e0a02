"""The main job: the host flow of seeds 000 and 003, step by step, on the simulated NPU: seed
003's 1M-element add through aclnn's two phases (aclnnAddGetWorkspaceSize, the workspace from
the caching pool on the stream, aclnnAdd), with the profile summary and the verdict."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import aclsim
from aclsim import aclnn
from aclsim.errors import AclError, LeakWarning
from aclsim.runtime.enums import MemcpyKind


@dataclass
class DemoResult:
    passed: bool
    steps: list[str] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    leaks: list[str] = field(default_factory=list)
    kernel_seconds: float = 0.0  # the add kernel's modeled time (core model)


def _aclnn_add(elements: int, bufs: tuple[aclsim.Buffer, ...], stream: aclsim.Stream,
               step: Callable[[str], None]) -> tuple[list[Any], Callable[[], None]]:
    """aclnnAddGetWorkspaceSize, the workspace from the caching pool on ``stream``, aclnnAdd.
    Phase one validates and plans (tiling over every vector core of the chip); phase two only
    enqueues the kernel.  Returns the launches and what releases the descriptors and workspace."""
    f32, nd = aclnn.DataType.ACL_FLOAT, aclnn.Format.ACL_FORMAT_ND
    descs = [aclnn.create_tensor([elements], f32, None, 0, nd, None, buf) for buf in bufs]
    alpha = aclnn.create_scalar(1.0, f32)
    ws_size, executor = aclnn.add_get_workspace_size(descs[0], descs[1], alpha, descs[2])
    launch_step = executor.steps[0]
    step(f"aclnnAddGetWorkspaceSize: workspace {ws_size} B, executor {executor!r}, kernel "
         f"{getattr(launch_step, 'name', '?')}<<<{getattr(launch_step, 'block_dim', '?')}>>> planned")
    workspace = aclsim.malloc(ws_size, stream=stream) if ws_size else None
    step("workspace: " + (f"{workspace!r} from the caching pool on stream 2" if workspace is not None
                          else "none needed (contiguous float32 inputs: no copies, no casts)"))
    launches = aclnn.add(workspace, ws_size, executor, stream)

    def release() -> None:
        for d in descs:
            aclnn.destroy_tensor(d)
        aclnn.destroy_scalar(alpha)
        if workspace is not None:
            aclsim.free(workspace)

    return launches, release


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
    if elements <= 0:
        raise ValueError(f"--elements must be > 0, got {elements}")
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

    # The compute step, as seed 003 writes it: aclnnAdd in two phases.
    launches, release = _aclnn_add(elements, (x_dev, y_dev, z_dev), s_work, step)
    aclsim.record_event(ev["compute_done"], s_work)
    aclsim.memcpy_async(z_host, nbytes, z_dev, nbytes, MemcpyKind.DEVICE_TO_HOST, s_work)
    aclsim.record_event(ev["end"], s_work)
    step("aclnnAdd(workspace, size, executor, stream 2) enqueued (z = x + 1.0 * y), then memcpy_async D2H")
    aclsim.synchronize_stream(s_in)
    aclsim.synchronize_stream(s_work)
    step("synchronize_stream x2: all queued work done")

    launch = launches[0]
    report = launch.report
    result.kernel_seconds = report.task_seconds
    step(f"kernel {launch.name}<<<{launch.block_dim}>>>: {launch.instructions} instructions, "
         f"{report.total_cycles:.0f} cycles, bottleneck {report.bottleneck.track_name}, global memory at "
         f"{report.bandwidth_fraction:.0%} of the HBM peak")
    z = aclsim.ptr_to_numpy(z_host, elements, np.float32)
    expected = x + y
    ok = bool(np.array_equal(z, expected))
    step(f"verify z == x + y against NumPy: {'PASS' if ok else 'FAIL'} "
         f"(max abs diff {float(np.max(np.abs(z - expected))):.3g})")

    _time_events(result, ev, nbytes, step)
    release()
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
