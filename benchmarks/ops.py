"""aclnn ops at a representative large shape on a chip preset (910B by default): one JSON line
per op with the modeled device time, the fraction of the roofline, and the simulation's wall
time.

For a memory-bound op the roofline is the bytes it must move (every input read once, the
output written once) over the preset's HBM bandwidth; ``roofline_fraction`` is that time over
the modeled time of the op's kernels (it can never exceed 1 in the model: the core model
shares the HBM bandwidth among the cores).  Target for the elementwise ops: >= 0.85.

Adding an op: append a :class:`Case` to ``CASES`` (name, the phase-one and phase-two
functions, how to build the arguments from device tensors, the bytes the op must move):

    CASES.append(Case("Softmax", nn.softmax_get_workspace_size, nn.softmax,
                      inputs=[((8192, 4096), F16)], outputs=[((8192, 4096), F16)],
                      args=lambda i, o: (i[0], -1, o[0])))

Run: ``python benchmarks/ops.py [--chip 910B] [--only Add,Gelu] [--scale 0.25]``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import aclsim
from aclsim import aclnn as nn
from aclsim.aclnn import Tensor

F16, F32 = np.dtype(np.float16), np.dtype(np.float32)
BIG = (4096, 4096)  # 16M elements: 32 MiB of float16 per tensor


@dataclass
class Case:
    """One benchmark line: ``args(inputs, outputs)`` builds phase one's arguments."""

    name: str
    phase_one: Callable[..., tuple[int, Any]]
    phase_two: Callable[..., Any]
    inputs: Sequence[tuple[tuple[int, ...], np.dtype]]
    outputs: Sequence[tuple[tuple[int, ...], np.dtype]]
    args: Callable[[list[Tensor], list[Tensor]], tuple[Any, ...]]
    low: float = -2.0  # input value range
    high: float = 2.0
    extra: dict[str, Any] = field(default_factory=dict)


def _binary(name: str, alpha: bool = False, dt: np.dtype = F16) -> Case:
    one, two = getattr(nn, f"{name.lower()}_get_workspace_size"), getattr(nn, name.lower())
    return Case(name, one, two, [(BIG, dt), (BIG, dt)], [(BIG, dt)],
                (lambda i, o: (i[0], i[1], 1.0, o[0])) if alpha else (lambda i, o: (i[0], i[1], o[0])),
                low=0.5)


def _unary(name: str, dt: np.dtype = F16, low: float = -2.0) -> Case:
    py = name.lower()
    return Case(name, getattr(nn, f"{py}_get_workspace_size"), getattr(nn, py), [(BIG, dt)], [(BIG, dt)],
                lambda i, o: (i[0], o[0]), low=low)


CASES: list[Case] = [
    _binary("Add", alpha=True),
    _binary("Add", alpha=True, dt=F32),
    _binary("Sub", alpha=True),
    _binary("Mul"),
    _binary("Div"),
    Case("Adds", nn.adds_get_workspace_size, nn.adds, [(BIG, F16)], [(BIG, F16)],
         lambda i, o: (i[0], 2.0, 1.0, o[0])),
    Case("Muls", nn.muls_get_workspace_size, nn.muls, [(BIG, F16)], [(BIG, F16)],
         lambda i, o: (i[0], 2.0, o[0])),
    *(_unary(n) for n in ("Abs", "Neg", "Exp", "Relu", "Gelu", "Sigmoid", "Silu")),
    *(_unary(n, low=0.5) for n in ("Log", "Sqrt", "Rsqrt")),
    Case("Cast", nn.cast_get_workspace_size, nn.cast, [(BIG, F32)], [(BIG, F16)],
         lambda i, o: (i[0], nn.DataType.ACL_FLOAT16, o[0])),
]


def run_case(case: Case, chip: aclsim.ChipSpec, scale: float) -> dict[str, Any]:
    rng = np.random.default_rng(0)

    def shape_of(s: tuple[int, ...]) -> tuple[int, ...]:
        return (max(1, int(s[0] * scale)), *s[1:])

    ins = [Tensor.from_numpy(rng.uniform(case.low, case.high, shape_of(s)).astype(d)) for s, d in case.inputs]
    outs = [Tensor.empty(shape_of(s), d) for s, d in case.outputs]
    moved = sum(t.desc.numel * t.desc.itemsize for t in (*ins, *outs))
    t0 = time.perf_counter()
    ws, ex = case.phase_one(*case.args(ins, outs))
    workspace = aclsim.malloc(ws) if ws else None
    launches = case.phase_two(workspace, ws, ex, None)
    aclsim.synchronize_device()
    wall = time.perf_counter() - t0
    modeled = sum(launch.report.seconds for launch in launches)
    roofline = moved / chip.dram_bandwidth
    line = {
        "op": case.name,
        "chip": chip.name,
        "shape": [list(t.shape) for t in ins],
        "dtype": [str(t.dtype) for t in (*ins, *outs)],
        "kernels": [f"{launch.name}<<<{launch.block_dim}>>>" for launch in launches],
        "modeled_us": round(modeled * 1e6, 3),
        "bytes_moved": moved,
        "roofline_us": round(roofline * 1e6, 3),
        "roofline_fraction": round(roofline / modeled, 4) if modeled else None,
        "bottleneck": [launch.report.bottleneck.track_name for launch in launches],
        "instructions": sum(launch.instructions for launch in launches),
        "sim_wall_s": round(wall, 3),
        **case.extra,
    }
    for t in (*ins, *outs):
        t.free()
    if workspace is not None:
        aclsim.free(workspace)
    return line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chip", default="910B")
    parser.add_argument("--only", default="", help="comma-separated op names")
    parser.add_argument("--scale", type=float, default=1.0, help="scale the leading dim of every shape")
    args = parser.parse_args(argv)
    wanted = {n for n in args.only.split(",") if n}
    aclsim.init(chip=args.chip)
    aclsim.set_device(0)
    chip = aclsim.get_chip(args.chip)
    try:
        for case in CASES:
            if not wanted or case.name in wanted:
                print(json.dumps(run_case(case, chip, args.scale)), flush=True)
    finally:
        aclsim.reset_device(0)
        aclsim.finalize()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
