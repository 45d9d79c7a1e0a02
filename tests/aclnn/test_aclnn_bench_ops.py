"""benchmarks/ops.py at a small scale: one JSON line per op, within the roofline."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from aclsim import aclnn


def _bench() -> Any:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "ops.py"
    spec = importlib.util.spec_from_file_location("aclsim_bench_ops", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_one_line_per_op_within_the_roofline(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    assert bench.main(["--only", "Add,Gelu,Cast", "--scale", "0.01"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [d["op"] for d in lines] == ["Add", "Add", "Gelu", "Cast"]
    for d in lines:
        assert 0 < d["roofline_fraction"] <= 1
        assert d["modeled_us"] > 0 and d["sim_wall_s"] >= 0 and d["kernels"]


def test_every_elementwise_op_has_a_line() -> None:
    names = {c.name for c in _bench().CASES}
    binary_and_unary = {"Add", "Sub", "Mul", "Div", "Adds", "Muls", "Abs", "Neg", "Exp", "Log", "Sqrt",
                        "Rsqrt", "Relu", "Gelu", "Sigmoid", "Silu", "Cast"}
    assert binary_and_unary <= names and names <= set(aclnn.op_names())


def test_every_other_family_at_a_small_scale(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    ops = "Permute,Slice,InplaceCopy,ReduceSum,Amax,Mean,Softmax,LogSoftmax,LayerNorm,RmsNorm,Matmul"
    assert bench.main(["--only", ops, "--scale", "0.001"]) == 0
    lines = {d["op"]: d for d in map(json.loads, capsys.readouterr().out.splitlines())}
    assert sorted(lines) == sorted(ops.split(","))
    for name, d in lines.items():
        assert 0 < d["roofline_fraction"] <= 1, name
        assert d["bound"] == ("cube" if name == "Matmul" else "hbm") and d["kernels"]
    assert lines["Permute"]["shape"] == [[4, 4096]]  # the leading dim scaled, the permuted out agrees
    assert lines["Slice"]["bytes_moved"] == 2 * 4 * 2048 * 2  # the kept half read, then written
    mm = lines["Matmul"]
    (m, k), (k2, n) = mm["shape"]
    assert (k, k2, n) == (2048, 2048, 2048) and mm["flops"] == 2 * m * n * k


def test_matmul_4096_is_behind_a_flag() -> None:
    bench = _bench()
    assert [c.inputs[0][0] for c in bench.CASES if c.name == "Matmul"] == [(2048, 2048)]
    assert bench.matmul_case(4096).inputs == [((4096, 4096), bench.F16)] * 2
