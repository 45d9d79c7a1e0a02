"""The view_copy kernel on the 910B preset; prints one JSON line.

A 4096 x 4096 float16 transpose (element-granular DMA gathers) and a contiguous copy of the
same size: modeled microseconds, the fraction of the HBM roofline (bytes read + written over
``dram_bandwidth``, the time a copy can never beat), the simulation's wall time, and a check of
the result against NumPy.  ``python benchmarks/movement.py [--n 4096]``.

``--ops`` instead runs the aclnn ops through both phases, one JSON line each: Permute (an
n x n float16 transpose), Slice (n columns of an n x 2n float16 tensor) and InplaceCopy (an
n x n float16 ``src`` converted into a float32 ``selfRef``), with the same figures.

Note: the core model charges a DMA instruction by its bytes (plus a fixed latency), not by
burst: a gather of 2-byte blocks is modeled as fast as a burst of the same bytes, which a real
device is not (see docs/aclnn.md, "Data movement kernels").
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from typing import Any

import numpy as np

import aclsim
from aclsim.aclnn import Tensor
from aclsim.aclnn.kernels.movement import plan_view_copy, view_copy_kernel
from aclsim.aclnn.ops import movement as mv
from aclsim.arch import get_chip


def run(name: str, n: int, src_strides: tuple[int, int], src: np.ndarray,
        ref: np.ndarray) -> dict[str, object]:
    chip = get_chip("910B")
    plan = plan_view_copy((n, n), np.float16, src_strides, 0, (n, 1), 0, chip)
    bs, bd = aclsim.malloc(src.nbytes), aclsim.malloc(src.nbytes)
    try:
        aclsim.memcpy(bs, src.nbytes, src, src.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
        kernel = view_copy_kernel(plan)
        t0 = time.perf_counter()
        launch = kernel[plan.block_dim, None](bs, bd)
        aclsim.synchronize_device()
        wall = time.perf_counter() - t0
        out = np.empty_like(src)
        aclsim.memcpy(out, out.nbytes, bd, out.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    finally:
        aclsim.free(bs)
        aclsim.free(bd)
    if not np.array_equal(out.view(np.uint16), ref.view(np.uint16)):
        raise AssertionError(f"{name}: the copy differs from NumPy")
    report = launch.report
    roofline_s = 2 * src.nbytes / chip.dram_bandwidth
    return {
        "mode": plan.mode,
        "block_dim": plan.block_dim,
        "units": plan.units,
        "tile_bytes": plan.tile_bytes,
        "instructions": launch.instructions,
        "modeled_us": round(report.microseconds, 2),
        "roofline_us": round(roofline_s * 1e6, 2),
        "roofline_fraction": round(roofline_s / report.seconds, 4),
        "wall_s": round(wall, 2),
    }


def run_op(name: str, phase_one: Any, phase_two: Any, args: tuple[Any, ...], out: Tensor,
           want: np.ndarray, moved_bytes: int) -> dict[str, object]:
    """Both phases of one op on the default stream; the figures of its launches."""
    chip = get_chip("910B")
    t0 = time.perf_counter()
    ws, ex = phase_one(*args)
    workspace = aclsim.malloc(ws) if ws else None
    launches = phase_two(workspace, ws, ex, None)
    aclsim.synchronize_device()
    wall = time.perf_counter() - t0
    if workspace is not None:
        aclsim.free(workspace)
    if not np.array_equal(out.numpy(), want):
        raise AssertionError(f"{name}: the result differs from NumPy")
    seconds = sum(launch.report.seconds for launch in launches)
    roofline_s = moved_bytes / chip.dram_bandwidth
    return {
        "benchmark": "aclnn_op",
        "op": name,
        "chip": "910B",
        "workspace_bytes": ws,
        "launches": len(launches),
        "instructions": sum(launch.instructions for launch in launches),
        "modeled_us": round(seconds * 1e6, 2),
        "roofline_us": round(roofline_s * 1e6, 2),
        "roofline_fraction": round(roofline_s / seconds, 4),
        "wall_s": round(wall, 2),
        "machine": f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}",
    }


def ops(n: int) -> None:
    """One JSON line per data-movement op at n x n float16 (see the module docstring)."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(np.float16)
    wide = rng.standard_normal((n, 2 * n)).astype(np.float16)
    x, w = Tensor.from_numpy(a), Tensor.from_numpy(wide)
    outs = [Tensor.empty((n, n), dt) for dt in (np.float16, np.float16, np.float32)]
    lines = [
        run_op("Permute", mv.permute_get_workspace_size, mv.permute, (x, [1, 0], outs[0]), outs[0], a.T,
               2 * a.nbytes),
        run_op("Slice", mv.slice_get_workspace_size, mv.slice_, (w, 1, n // 2, n // 2 + n, 1, outs[1]),
               outs[1], wide[:, n // 2: n // 2 + n], 2 * a.nbytes),
        run_op("InplaceCopy", mv.inplace_copy_get_workspace_size, mv.inplace_copy, (outs[2], x), outs[2],
               a.astype(np.float32), 3 * a.nbytes),
    ]
    for t in (x, w, *outs):
        t.free()
    for line in lines:
        line["shape"] = [n, n]
        print(json.dumps(line))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=4096)
    parser.add_argument("--ops", action="store_true", help="the aclnn ops, one JSON line each")
    args = parser.parse_args()
    n = args.n
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    if args.ops:
        try:
            ops(n)
        finally:
            aclsim.reset_device(0)
            aclsim.finalize()
        return
    try:
        a = np.random.default_rng(0).standard_normal(n * n).astype(np.float16)
        result = {
            "benchmark": "movement",
            "chip": "910B",
            "shape": [n, n],
            "dtype": "float16",
            "contiguous_copy": run("copy", n, (n, 1), a, a),
            "transpose": run("transpose", n, (1, n), a, np.ascontiguousarray(a.reshape(n, n).T).ravel()),
            "machine": f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}",
        }
    finally:
        aclsim.reset_device(0)
        aclsim.finalize()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
