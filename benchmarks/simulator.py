"""Simulator speed; prints one JSON line.

- execution + recording: instructions per second of a kernel of >= 200,000 instructions
  (a queued add with small tiles), and separately the timing engine on the same streams;
- the wall time of a 1M-element add (float16 and float32, the tile sizes a real kernel would
  use) next to NumPy's own ``a + b`` on the same data, measured in the same run; the target
  (10x) is for KernelAdd's float16.  For float32 the run also times the floor of any
  tile-by-tile execution: plain NumPy copying each tile in, adding it and copying it out,
  with no simulation at all.
"""

from __future__ import annotations

import argparse
import json
import platform
import time

import numpy as np

import aclsim
import aclsim.kernel as asc
from aclsim.kernel.samples import add_kernel
from aclsim.sim import simulate


def run_add(dtype, n: int, blocks: int, tile: int, repeats: int = 1):
    npdt = np.dtype(dtype)
    rng = np.random.default_rng(0)
    x = rng.uniform(-10, 10, n).astype(npdt)
    y = rng.uniform(-10, 10, n).astype(npdt)
    dx, dy, dz = (aclsim.malloc(x.nbytes) for _ in range(3))
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    aclsim.memcpy(dy, y.nbytes, y, y.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    kernel = add_kernel(dtype, n // blocks, tile)
    best, launch = float("inf"), None
    for _ in range(repeats):
        t0 = time.perf_counter()
        launch = kernel[blocks](dx, dy, dz)
        aclsim.synchronize_stream()
        best = min(best, time.perf_counter() - t0)
    z = np.empty_like(x)
    aclsim.memcpy(z, z.nbytes, dz, z.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    assert np.array_equal(z, x + y)
    numpy_best = float("inf")
    for _ in range(max(repeats, 5)):
        t0 = time.perf_counter()
        _ = x + y
        numpy_best = min(numpy_best, time.perf_counter() - t0)
    for d in (dx, dy, dz):
        aclsim.free(d)
    return launch, best, numpy_best


def tiled_numpy_add(dtype, n: int, tile: int, repeats: int) -> float:
    """Best wall time of the add done tile by tile in plain NumPy (GM -> UB -> add -> GM)."""
    rng = np.random.default_rng(1)
    x, y = (rng.uniform(-10, 10, n).astype(np.dtype(dtype)) for _ in range(2))
    z = np.empty_like(x)
    ub = np.empty(3 * tile, x.dtype)
    a, b, c = ub[:tile], ub[tile:2 * tile], ub[2 * tile:]
    best = float("inf")
    for _ in range(max(repeats, 5)):
        t0 = time.perf_counter()
        for i in range(0, n, tile):
            a[...] = x[i:i + tile]
            b[...] = y[i:i + tile]
            np.add(a, b, out=c)
            z[i:i + tile] = c
        best = min(best, time.perf_counter() - t0)
    assert np.array_equal(z, x + y)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    aclsim.init(chip="910B")
    aclsim.set_device(0)

    # >= 200k instructions: 8 blocks x 2048 tiles of 64 float16 elements
    big, _, _ = run_add(asc.half, 8 * 2048 * 64, 8, 64)
    instrs = big.instructions
    exec_ips = instrs / big.exec_seconds
    t0 = time.perf_counter()
    for _ in range(args.repeats):
        simulate(big.chip, big.streams)
    engine_ips = instrs * args.repeats / (time.perf_counter() - t0)

    n = 1 << 20
    add16, wall16, np16 = run_add(asc.half, n, 8, 8192, args.repeats)
    add32, wall32, np32 = run_add(asc.float32, n, 8, 4096, args.repeats)
    floor32 = tiled_numpy_add(asc.float32, n, 4096, args.repeats)
    aclsim.reset_device(0)
    aclsim.finalize()
    print(json.dumps({
        "benchmark": "simulator",
        "machine": f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}",
        "kernel_instructions": instrs,
        "exec_record_instr_per_s": round(exec_ips),
        "timing_engine_instr_per_s": round(engine_ips),
        "add_1M_f16_wall_s": round(wall16, 5), "numpy_add_1M_f16_s": round(np16, 6),
        "add_1M_f16_vs_numpy": round(wall16 / np16, 2), "add_1M_f16_instructions": add16.instructions,
        "add_1M_f32_wall_s": round(wall32, 5), "numpy_add_1M_f32_s": round(np32, 6),
        "add_1M_f32_vs_numpy": round(wall32 / np32, 2), "add_1M_f32_instructions": add32.instructions,
        "add_1M_f32_tiled_numpy_floor_s": round(floor32, 6),
        "add_1M_f32_tiled_numpy_floor_vs_numpy": round(floor32 / np32, 2),
        "targets": {"timing_engine_instr_per_s": 1_000_000, "add_1M_f16_vs_numpy": 10},
    }))


if __name__ == "__main__":
    main()
