"""aclnn ops at a representative large shape on a chip preset (910B by default): one JSON line
per op with the modeled device time, the fraction of the roofline, and the simulation's wall
time.

For a memory-bound op (``"bound": "hbm"``) the roofline is the bytes that must cross device
memory during the op (every input read once, from a cold L2; a Slice reads only the part it
keeps; the outputs only beyond what the L2 cache holds, since L2 is write-back and the rest is
written back after the kernel, as on the device) over the preset's HBM bandwidth;
``roofline_fraction`` is that time over the modeled time of the op's kernels (it can never
exceed 1 in the model: the core model shares the HBM bandwidth among the cores).
``all_bytes_fraction`` counts every byte, outputs included, against HBM (it exceeds 1 when
the L2 absorbs the outputs).
Target for the elementwise ops: >= 0.85.  For Matmul (``"bound": "cube"``) the fraction is of
the cube peak: ``2*M*N*K`` flops / the modeled time / the preset's fp16 peak (``cube_cores *
cube_macs_per_cycle * 2 * clock_hz``).  Target: >= 0.70 at 4096^3.

Families and shapes: elementwise [4096, 4096]; Permute, Slice, InplaceCopy [4096, 4096] f16;
ReduceSum, Amax, Mean, Softmax, LogSoftmax, LayerNorm, RmsNorm [8192, 4096] f16 (over the last
dim); Matmul fp16 2048^3 (``--matmul-4096`` adds 4096^3, which takes minutes to simulate).

Adding an op: append a :class:`Case` to ``CASES`` (name, the phase-one and phase-two
functions, how to build the arguments from device tensors, the bytes the op must move):

    CASES.append(Case("Softmax", nn.softmax_get_workspace_size, nn.softmax,
                      inputs=[((8192, 4096), F16)], outputs=[((8192, 4096), F16)],
                      args=lambda i, o: (i[0], -1, o[0])))

Run: ``python benchmarks/ops.py [--chip 910B] [--only Add,Gelu] [--scale 0.25] [--matmul-4096]``
(``--scale`` scales the leading dim of every shape but those a Case lists in ``fixed``).
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
ROWS, COLS = 8192, 4096  # the reductions and normalisations: 64 MiB of float16
WIDE = (ROWS, COLS)


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
    fixed: tuple[int, ...] = ()  # tensors (inputs, then outputs) whose shape --scale leaves alone
    scale_dim: dict[int, int] = field(default_factory=dict)  # the dim --scale scales, if not dim 0
    moved: Callable[[list[Tensor], list[Tensor]], int] | None = None  # bytes; None: every tensor once
    flops: Callable[[list[Tensor], list[Tensor]], int] | None = None  # set: cube-bound, vs the cube peak


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
    # data movement
    Case("Permute", nn.permute_get_workspace_size, nn.permute, [(BIG, F16)], [(BIG, F16)],
         lambda i, o: (i[0], (1, 0), o[0]), scale_dim={1: 1}),
    Case("Slice", nn.slice_get_workspace_size, nn.slice_, [(BIG, F16)], [((BIG[0], BIG[1] // 2), F16)],
         lambda i, o: (i[0], -1, 1, BIG[1], 2, o[0]),
         moved=lambda i, o: 2 * o[0].desc.numel * o[0].desc.itemsize),
    Case("InplaceCopy", nn.inplace_copy_get_workspace_size, nn.inplace_copy, [(BIG, F16)], [(BIG, F16)],
         lambda i, o: (o[0], i[0])),
    # reductions, softmax and normalisation over the last dim
    Case("ReduceSum", nn.reduce_sum_get_workspace_size, nn.reduce_sum, [(WIDE, F16)], [((ROWS,), F16)],
         lambda i, o: (i[0], [-1], False, nn.DataType.ACL_FLOAT16, o[0])),
    Case("Amax", nn.amax_get_workspace_size, nn.amax, [(WIDE, F16)], [((ROWS,), F16)],
         lambda i, o: (i[0], [-1], False, o[0])),
    Case("Mean", nn.mean_get_workspace_size, nn.mean, [(WIDE, F16)], [((ROWS,), F16)],
         lambda i, o: (i[0], [-1], False, nn.DataType.ACL_FLOAT16, o[0])),
    Case("Softmax", nn.softmax_get_workspace_size, nn.softmax, [(WIDE, F16)], [(WIDE, F16)],
         lambda i, o: (i[0], -1, o[0])),
    Case("LogSoftmax", nn.log_softmax_get_workspace_size, nn.log_softmax, [(WIDE, F16)], [(WIDE, F16)],
         lambda i, o: (i[0], -1, o[0])),
    Case("LayerNorm", nn.layer_norm_get_workspace_size, nn.layer_norm,
         [(WIDE, F16), ((COLS,), F16), ((COLS,), F16)], [(WIDE, F16), ((ROWS, 1), F16), ((ROWS, 1), F16)],
         lambda i, o: (i[0], [COLS], i[1], i[2], 1e-5, o[0], o[1], o[2]), fixed=(1, 2)),
    Case("RmsNorm", nn.rms_norm_get_workspace_size, nn.rms_norm,
         [(WIDE, F16), ((COLS,), F16)], [(WIDE, F16), ((ROWS, 1), F32)],
         lambda i, o: (i[0], i[1], 1e-6, o[0], o[1]), fixed=(1,)),
]


def matmul_case(size: int) -> Case:
    """fp16 ``[size, size] @ [size, size]`` (cubeMathType 0, KEEP_DTYPE) against the cube peak."""
    return Case("Matmul", nn.matmul_get_workspace_size, nn.matmul, [((size, size), F16)] * 2,
                [((size, size), F16)], lambda i, o: (i[0], i[1], o[0], 0), low=-1.0, high=1.0, fixed=(1,),
                flops=lambda i, o: 2 * o[0].shape[0] * o[0].shape[1] * i[0].shape[1])


CASES.append(matmul_case(2048))


def run_case(case: Case, chip: aclsim.ChipSpec, scale: float) -> dict[str, Any]:
    rng = np.random.default_rng(0)

    def shape_of(k: int, s: tuple[int, ...]) -> tuple[int, ...]:
        if k in case.fixed:
            return s
        d = case.scale_dim.get(k, 0)
        return (*s[:d], max(1, int(s[d] * scale)), *s[d + 1:])

    ins = [Tensor.from_numpy(rng.uniform(case.low, case.high, shape_of(k, s)).astype(d))
           for k, (s, d) in enumerate(case.inputs)]
    outs = [Tensor.empty(shape_of(len(ins) + k, s), d) for k, (s, d) in enumerate(case.outputs)]
    workspace = None
    written = sum(t.desc.numel * t.desc.itemsize for t in outs)
    try:
        moved = (case.moved(ins, outs) if case.moved is not None
                 else sum(t.desc.numel * t.desc.itemsize for t in (*ins, *outs)))
        t0 = time.perf_counter()
        ws, ex = case.phase_one(*case.args(ins, outs))
        workspace = aclsim.malloc(ws) if ws else None
        launches = case.phase_two(workspace, ws, ex, None)
        aclsim.synchronize_device()
        wall = time.perf_counter() - t0
    finally:
        for t in (*ins, *outs):
            t.free()
        if workspace is not None:
            aclsim.free(workspace)
    modeled = sum(launch.report.seconds for launch in launches)
    if case.flops is not None:
        flops = case.flops(ins, outs)
        peak = chip.cube_cores * chip.cube_macs_per_cycle * 2 * chip.clock_hz
        extra = {"flops": flops, "tflops": round(flops / modeled / 1e12, 2)}
        bound, roofline = "cube", flops / peak
    else:
        crossing = moved - written + max(0, written - chip.l2_bytes)
        bound, roofline = "hbm", crossing / chip.dram_bandwidth
        extra = {"all_bytes_fraction": round(moved / chip.dram_bandwidth / modeled, 4) if modeled else None}
    line = {
        "op": case.name,
        "chip": chip.name,
        "shape": [list(t.shape) for t in ins],
        "dtype": [str(t.dtype) for t in (*ins, *outs)],
        "kernels": [f"{launch.name}<<<{launch.block_dim}>>>" for launch in launches],
        "workspace": ws,
        "modeled_us": round(modeled * 1e6, 3),
        "bytes_moved": moved,
        "bound": bound,
        "roofline_us": round(roofline * 1e6, 3),
        "roofline_fraction": round(roofline / modeled, 4) if modeled else None,
        "bottleneck": [launch.report.bottleneck.track_name for launch in launches],
        "instructions": sum(launch.instructions for launch in launches),
        "sim_wall_s": round(wall, 3),
        **extra,
        **case.extra,
    }
    return line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chip", default="910B")
    parser.add_argument("--only", default="", help="comma-separated op names")
    parser.add_argument("--scale", type=float, default=1.0, help="scale the leading dim of every shape")
    parser.add_argument("--matmul-4096", action="store_true",
                        help="also run Matmul fp16 4096^3 (the issue's target shape; minutes of simulation)")
    args = parser.parse_args(argv)
    cases = [*CASES, matmul_case(4096)] if args.matmul_4096 else CASES
    wanted = {n for n in args.only.split(",") if n}
    aclsim.init(chip=args.chip)
    aclsim.set_device(0)
    chip = aclsim.get_chip(args.chip)
    try:
        for case in cases:
            if not wanted or case.name in wanted:
                print(json.dumps(run_case(case, chip, args.scale)), flush=True)
    finally:
        aclsim.reset_device(0)
        aclsim.finalize()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
