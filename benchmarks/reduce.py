"""Reduction, softmax and normalisation kernels at a transformer-sized activation on the 910B
preset: one JSON line per kernel with the modeled time, the fraction of the HBM roofline (bytes
the kernel must move over the chip's HBM bandwidth) and the simulation's wall time.

    python benchmarks/reduce.py [--rows 8192] [--cols 4096] [--only Softmax]
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

import aclsim
from aclsim.aclnn.kernels.norm import launch_norm, plan_layer_norm, plan_rms_norm
from aclsim.aclnn.kernels.reduce import launch_reduce, plan_reduce
from aclsim.aclnn.kernels.softmax import launch_softmax, plan_softmax
from aclsim.arch import get_chip


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=8192)
    ap.add_argument("--cols", type=int, default=4096)
    ap.add_argument("--only", default="", help="run the kernels whose name contains this text")
    a = ap.parse_args()
    chip = get_chip("910B")
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    rows, cols, f16 = a.rows, a.cols, np.dtype(np.float16)
    nbytes = rows * cols * 2
    x = aclsim.malloc(nbytes)
    y = aclsim.malloc(nbytes)
    w = aclsim.malloc(cols * 2)
    st = aclsim.malloc(rows * 4)
    st2 = aclsim.malloc(rows * 4)
    aclsim.memset(x, nbytes, 0, nbytes)
    cases: list[tuple[str, Any, int]] = []
    p = plan_reduce((rows, cols), [1], "sum", f16, f16, chip)
    cases.append(("ReduceSum dim=-1", lambda p=p: launch_reduce(p, None, x, y), nbytes + rows * 2))
    p = plan_reduce((rows, cols), [0], "sum", f16, f16, chip)
    cases.append(("ReduceSum dim=0", lambda p=p: launch_reduce(p, None, x, y), nbytes + cols * 2))
    p = plan_softmax((rows, cols), -1, f16, chip)
    cases.append(("Softmax dim=-1", lambda p=p: [launch_softmax(p, None, x, y)], 2 * nbytes))
    p = plan_layer_norm((rows, cols), 1, f16, chip, weight_dtype=f16, bias_dtype=f16)
    cases.append(("LayerNorm", lambda p=p: [launch_norm(p, None, x, w, w, y, st, st2)],
                  2 * nbytes + 2 * cols * 2 + 2 * rows * 2))
    p = plan_rms_norm((rows, cols), 1, f16, f16, chip)
    cases.append(("RmsNorm", lambda p=p: [launch_norm(p, None, x, w, y, st)],
                  2 * nbytes + cols * 2 + rows * 4))
    for name, run, traffic in cases:
        if a.only.lower() not in name.lower():
            continue
        t0 = time.perf_counter()
        launches = run()
        aclsim.synchronize_device()
        wall = time.perf_counter() - t0
        seconds = sum(la.report.seconds for la in launches)
        roof = traffic / chip.dram_bandwidth
        print(json.dumps({"kernel": name, "shape": [rows, cols], "dtype": "float16", "chip": chip.name,
                          "modeled_us": round(seconds * 1e6, 2), "roofline_us": round(roof * 1e6, 2),
                          "roofline_fraction": round(roof / seconds, 3), "wall_s": round(wall, 2)}),
              flush=True)
    for b in (x, y, w, st, st2):
        aclsim.free(b)
    aclsim.reset_device(0)
    aclsim.finalize()


if __name__ == "__main__":
    main()
