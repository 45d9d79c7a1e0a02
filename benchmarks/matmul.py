"""The cube matmul kernel (aclnn Matmul) at fp16 2048^3 and 4096^3 on the 910B preset.

Prints one JSON line: per size the modeled microseconds, the fraction of the cube peak
(2*M*N*K / time / (cube_cores * cube_macs_per_cycle * 2 * clock)), the bottleneck pipe, each
pipe's utilization, the plan (base blocks, grid) and the wall time of the simulation
(functional execution + sync passes + core model).  ``--sizes 1024 2048`` picks others;
``--check`` compares the result with NumPy (float32 reference of the fp16 inputs).
"""

from __future__ import annotations

import argparse
import json
import os
import time

# One BLAS thread: the cube's mmad multiplies small blocks, and OpenBLAS threads fighting for a
# loaded 2-core box made it ~50x slower.  Must be set before NumPy loads OpenBLAS.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import aclsim  # noqa: E402
from aclsim.aclnn.kernels.matmul import MatLayout, matmul_kernel, plan_matmul  # noqa: E402
from aclsim.arch import get_chip  # noqa: E402
from aclsim.isa import Pipe  # noqa: E402


def run(size: int, check: bool) -> dict[str, object]:
    chip = get_chip("910B")
    m = k = n = size
    plan = plan_matmul(m, k, n, 1, np.float16, np.float16, MatLayout(), MatLayout(), 0, chip)
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    da, db, dc = aclsim.malloc(a.nbytes), aclsim.malloc(b.nbytes), aclsim.malloc(m * n * 2)
    aclsim.memcpy(da, a.nbytes, a, a.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    aclsim.memcpy(db, b.nbytes, b, b.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    kern = matmul_kernel(plan, detect_races=False)
    t0 = time.perf_counter()
    launch = kern[plan.block_dim, None](da, db, dc)
    aclsim.synchronize_device()
    wall = time.perf_counter() - t0
    rep = launch.report
    peak = chip.cube_cores * chip.cube_macs_per_cycle * 2 * chip.clock_hz
    util = rep.utilization()
    out: dict[str, object] = {
        "size": size, "modeled_us": round(rep.microseconds, 1),
        "cube_peak_fraction": round(2 * m * n * k / rep.seconds / peak, 4),
        "bottleneck": rep.bottleneck.track_name,
        "utilization": {p.track_name: round(util[p], 3) for p in (Pipe.M, Pipe.MTE1, Pipe.MTE2, Pipe.FIX)},
        "plan": {"base_m": plan.base_m, "base_n": plan.base_n, "base_k": plan.base_k, "k_l1": plan.k_l1,
                 "l0c_buffers": plan.l0c_buffers, "grid": list(plan.grid), "block_dim": plan.block_dim},
        "instructions": launch.instructions, "wall_s": round(wall, 1),
        "exec_s": round(launch.exec_seconds, 1), "sim_s": round(launch.sim_seconds, 1),
    }
    if check:
        c = np.empty((m, n), np.float16)
        aclsim.memcpy(c, c.nbytes, dc, c.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
        ref = (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float16)
        out["max_abs_err"] = float(np.abs(c.astype(np.float32) - ref.astype(np.float32)).max())
    for d in (da, db, dc):
        aclsim.free(d)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", type=int, nargs="+", default=[2048, 4096])
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    results = [run(s, args.check) for s in args.sizes]
    aclsim.reset_device(0)
    aclsim.finalize()
    print(json.dumps({"benchmark": "matmul_fp16", "chip": "910B", "results": results}))


if __name__ == "__main__":
    main()
