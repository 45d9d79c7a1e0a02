"""UB laid out by bank (910B: 16 bank groups of 32 B rows in 64 KiB slices): no instruction of
the elementwise template's unary bodies, of the Softmax/LogSoftmax row kernel or of the
LayerNorm/RmsNorm resident rows waits on a bank conflict (but a square's two reads of one
operand), and the results stay exact."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import aclsim
from aclsim import aclnn
from aclsim.aclnn import Tensor
from aclsim.aclnn.kernels.elementwise import plan_elementwise
from aclsim.arch import get_chip
from aclsim.isa import Pipe
from aclsim.sim.costs import CostModel

F16, F32 = np.dtype(np.float16), np.dtype(np.float32)
K = math.sqrt(2 / math.pi)
REF = {
    "exp": np.exp,
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "silu": lambda x: x / (1 + np.exp(-x)),
    "gelu": lambda x: 0.5 * x * (1 + np.tanh(K * (x + 0.044715 * x**3))),
}


@pytest.fixture
def rt910() -> Iterator[None]:
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    yield
    aclsim.reset_device(0)
    aclsim.finalize()


def _conflicts(ex: Any) -> list[tuple[str, int]]:
    """(op, beats) of the vector instructions of block 0 that take more than one beat a repeat,
    but for those reading one operand twice (x * x), which no layout can help."""
    model = CostModel(get_chip("910B"))
    out = []
    for launch in ex.launches:
        for ins in launch.report.timelines[0].instrs:
            if ins.pipe is not Pipe.V or len({r.offset for r in ins.reads}) < len(ins.reads):
                continue
            beats = model.beats(ins)
            if beats > 1:
                out.append((ins.op, beats))
    return out


@pytest.mark.parametrize("name", sorted(REF))
@pytest.mark.parametrize("dt", [F16, F32])
def test_unary_bodies_have_no_bank_conflicts(rt910: None, name: str, dt: np.dtype) -> None:
    x = np.random.default_rng(3).uniform(-4, 4, (48, 2048)).astype(dt)
    a, z = Tensor.from_numpy(x), Tensor.from_numpy(np.zeros_like(x))
    try:
        ws, ex = getattr(aclnn, f"{name}_get_workspace_size")(a, z)
        getattr(aclnn, name)(None, ws, ex, None)
        aclsim.synchronize_device()
        got = z.numpy()
    finally:
        a.free()
        z.free()
    want = REF[name](x.astype(np.float64))
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=2e-3 if dt == F16 else 1e-5,
                               atol=2e-3 if dt == F16 else 1e-6)
    assert _conflicts(ex) == []


@pytest.mark.parametrize(("n_in", "temps", "out_dt"), [(1, 2, F16), (2, 0, F16), (1, 1, F32), (2, 1, F16)])
def test_bank_layout_keeps_operands_apart(n_in: int, temps: int, out_dt: np.dtype) -> None:
    chip = get_chip("910B")
    shape = (4096, 4096)
    p = plan_elementwise(shape, [(F16, (4096, 1))] * n_in, (out_dt, (4096, 1)), F32, chip, temps=temps)
    slots = {s.role: s for s in p.layout}
    spans = sorted((s.offset, s.offset + s.num * s.length) for s in p.layout)
    assert all(e0 <= s1 for (_, e0), (s1, _) in zip(spans, spans[1:], strict=False))
    assert spans[-1][1] <= chip.ub_usable_bytes and p.ub_bytes == spans[-1][1]
    assert all(s.length % 512 == 0 for s in p.layout)
    half = lambda role: slots[role].offset % 512  # noqa: E731
    if n_in == 2:
        assert half("in0") != half("in1") and half("cast0") != half("cast1")
    assert half("cast0") != half("in0")
    for k in range(temps):
        assert half(f"tmp{k}") != (half("cast0") if k % 2 == 0 else 256 - half("cast0"))
    dst = slots["res"] if out_dt != F32 else slots["out"]
    top = 2 * chip.ub_bank_slice_bytes
    assert dst.offset >= top
    assert all(s.offset + s.num * s.length <= top for s in p.layout if s.role not in ("out", "res"))


def test_no_bank_model_packs_buffers() -> None:
    chip = get_chip("910B").with_changes(ub_bank_groups=0)
    p = plan_elementwise((4096, 4096), [(F16, (4096, 1))], (F16, (4096, 1)), F32, chip, temps=1)
    assert p.layout == () and p.ub_bytes <= chip.ub_usable_bytes


@pytest.mark.parametrize("log", [False, True])
def test_softmax_rows_have_no_bank_conflicts(rt910: None, log: bool) -> None:
    x = np.random.default_rng(5).uniform(-3, 3, (96, 4096)).astype(F16)
    a, z = Tensor.from_numpy(x), Tensor.from_numpy(np.zeros_like(x))
    name = "log_softmax" if log else "softmax"
    try:
        ws, ex = getattr(aclnn, f"{name}_get_workspace_size")(a, -1, z)
        getattr(aclnn, name)(None, ws, ex, None)
        aclsim.synchronize_device()
        got = z.numpy().astype(np.float64)
    finally:
        a.free()
        z.free()
    x64 = x.astype(np.float64)
    e = np.exp(x64 - x64.max(-1, keepdims=True))
    want = np.log(e / e.sum(-1, keepdims=True)) if log else e / e.sum(-1, keepdims=True)
    np.testing.assert_allclose(got, want, rtol=2e-3, atol=2e-3 if log else 1e-5)
    model = CostModel(get_chip("910B"))
    big = [ins for launch in ex.launches for ins in launch.report.timelines[0].instrs
           if ins.pipe is Pipe.V and max((a.length for a in (*ins.reads, *ins.writes)), default=0) >= 512]
    assert big and [(i.op, model.beats(i)) for i in big if model.beats(i) > 1] == []


@pytest.mark.parametrize("rms", [False, True])
def test_norm_rows_have_no_bank_conflicts(rt910: None, rms: bool) -> None:
    rng = np.random.default_rng(7)
    x = rng.uniform(-2, 2, (96, 4096)).astype(F16)
    w = rng.uniform(0.5, 1.5, (4096,)).astype(F16)
    bias = rng.uniform(-1, 1, (4096,)).astype(F16)
    x64 = x.astype(np.float64)
    ts = [Tensor.from_numpy(a) for a in (x, w, bias)]
    y = Tensor.from_numpy(np.zeros_like(x))
    st = Tensor.from_numpy(np.zeros((96, 1), F32 if rms else F16))
    st2 = Tensor.from_numpy(np.zeros((96, 1), F16))
    try:
        if rms:
            ws, ex = aclnn.rms_norm_get_workspace_size(ts[0], ts[1], 1e-6, y, st)
            aclnn.rms_norm(None, ws, ex, None)
            want = x64 / np.sqrt((x64**2).mean(-1, keepdims=True) + 1e-6) * w
        else:
            ws, ex = aclnn.layer_norm_get_workspace_size(ts[0], [4096], ts[1], ts[2], 1e-5, y, st2, st)
            aclnn.layer_norm(None, ws, ex, None)
            d = x64 - x64.mean(-1, keepdims=True)
            want = d / np.sqrt((d**2).mean(-1, keepdims=True) + 1e-5) * w + bias
        aclsim.synchronize_device()
        got = y.numpy().astype(np.float64)
    finally:
        for t in (*ts, y, st, st2):
            t.free()
    np.testing.assert_allclose(got, want, rtol=4e-3, atol=4e-3)
    model = CostModel(get_chip("910B"))
    big = [ins for launch in ex.launches for ins in launch.report.timelines[0].instrs
           if ins.pipe is Pipe.V and max((a.length for a in (*ins.reads, *ins.writes)), default=0) >= 512
           and len({r.offset for r in ins.reads}) == len(ins.reads)]  # x * x: two reads of one bank
    bad = [(i.op, model.beats(i)) for i in big if model.beats(i) > 1]
    assert len(big) >= 8 and len(bad) <= 2, bad  # at most the weight's and the bias's one load
