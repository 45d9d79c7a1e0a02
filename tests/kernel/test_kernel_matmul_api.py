"""The high-level Matmul API against NumPy: types, tails, transposes, bias, multi-core, Iterate/GetTensorC,
VECIN output, NZ inputs; its recorded instructions are race-free cube-path instructions; its faults."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.compiler import verify_sync
from aclsim.isa import Pipe

P, F, D = asc.TPosition, asc.CubeFormat, asc.DataType
NP = {
    asc.float16: np.float16,
    asc.bfloat16: asc.bfloat16,
    asc.float32: np.float32,
    asc.int8: np.int8,
    asc.int32: np.int32,
}
DT = {
    asc.float16: D.DT_FLOAT16,
    asc.bfloat16: D.DT_BFLOAT16,
    asc.float32: D.DT_FLOAT,
    asc.int8: D.DT_INT8,
    asc.int32: D.DT_INT32,
}


@dataclass(frozen=True)
class Case:
    m: int
    n: int
    k: int
    dim: int = 1
    bias: bool = False
    ta: bool = False
    tb: bool = False
    adt: object = asc.float16
    cdt: object = asc.float32
    fix: tuple[int, int] | None = None
    l1: int = -1
    a_fmt: asc.CubeFormat = F.ND
    b_fmt: asc.CubeFormat = F.ND
    cfg: asc.MatmulConfig = asc.CFG_NORM
    bias_dt: object = asc.float32


def host_tiling(c: Case) -> asc.TCubeTiling:
    t = asc.MultiCoreMatmulTiling("tiny")
    assert t.set_dim(c.dim) == 0
    t.set_a_type(P.GM, c.a_fmt, DT[c.adt], c.ta)
    t.set_b_type(P.GM, c.b_fmt, DT[c.adt], c.tb)
    t.set_c_type(P.GM, F.ND, DT[c.cdt])
    t.set_bias_type(P.GM, F.ND, DT[c.bias_dt])
    t.set_shape(c.m, c.n, c.k)
    t.set_org_shape(c.m, c.n, c.k)
    t.set_bias(c.bias)
    if c.fix:
        assert t.set_fix_split(*c.fix, -1) == 0
    assert t.set_buffer_space(c.l1) == 0
    tc = asc.TCubeTiling()
    assert t.get_tiling(tc) == 0
    return tc


@asc.kernel
def matmul_all(tiling, case, a, b, bias, c):
    """The multi-core sample's kernel: offsets from the tiling, SetTail on tail cores, IterateAll."""
    pipe = asc.TPipe()
    mm = asc.Matmul(
        asc.MatmulType(P.GM, case.a_fmt, case.adt, case.ta),
        asc.MatmulType(P.GM, case.b_fmt, case.adt, case.tb),
        asc.MatmulType(P.GM, F.ND, case.cdt),
        asc.MatmulType(P.GM, F.ND, case.bias_dt),
        case.cfg,
    )
    asc.regist_matmul_obj(pipe, None, mm, tiling)
    ga, gb, gc = asc.GlobalTensor(case.adt), asc.GlobalTensor(case.adt), asc.GlobalTensor(case.cdt)
    gbias = asc.GlobalTensor(case.bias_dt)
    ga.set_global_buffer(a)
    gb.set_global_buffer(b)
    gc.set_global_buffer(c)
    gbias.set_global_buffer(bias)
    m_blocks = -(-tiling.m // tiling.single_core_m)
    mi, ni = asc.get_block_idx() % m_blocks, asc.get_block_idx() // m_blocks
    off_a = mi * tiling.single_core_m if case.ta else mi * tiling.ka * tiling.single_core_m
    off_b = ni * tiling.kb * tiling.single_core_n if case.tb else ni * tiling.single_core_n
    tail_m = min(tiling.m - mi * tiling.single_core_m, tiling.single_core_m)
    tail_n = min(tiling.n - ni * tiling.single_core_n, tiling.single_core_n)
    if tail_m < tiling.single_core_m or tail_n < tiling.single_core_n:
        mm.set_tail(tail_m, tail_n)
    mm.set_tensor_a(ga[off_a], case.ta)
    mm.set_tensor_b(gb[off_b], case.tb)
    if tiling.is_bias:
        mm.set_bias(gbias[ni * tiling.single_core_n])
    mm.iterate_all(gc[mi * tiling.n * tiling.single_core_m + ni * tiling.single_core_n])
    mm.end()


def to_nz(x: np.ndarray, c0: int) -> np.ndarray:
    """ND (rows x cols) -> NZ in GM: groups of c0 columns, each holding align16(rows) rows."""
    r, c = x.shape
    r16, cg = -(-r // 16) * 16, -(-c // c0)
    pad = np.zeros((r16, cg * c0), x.dtype)
    pad[:r, :c] = x
    return np.ascontiguousarray(pad.reshape(r16, cg, c0).transpose(1, 0, 2))


def inputs(c: Case, seed: int = 0) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    if c.adt == asc.int8:
        a = rng.integers(-128, 128, (c.m, c.k)).astype(np.int8)
        b = rng.integers(-128, 128, (c.k, c.n)).astype(np.int8)
        bias = rng.integers(-1000, 1000, c.n).astype(np.int32)
    else:
        a = rng.standard_normal((c.m, c.k)).astype(NP[c.adt])
        b = rng.standard_normal((c.k, c.n)).astype(NP[c.adt])
        bias = rng.standard_normal(c.n).astype(NP[c.bias_dt])
    return a, b, bias


def expected(c: Case, a: np.ndarray, b: np.ndarray, bias: np.ndarray) -> np.ndarray:
    acc = np.int32 if c.adt == asc.int8 else np.float32
    y = a.astype(acc) @ b.astype(acc)
    if c.bias:
        y = y + bias.astype(acc)
    return y


def run_case(run, c: Case) -> tuple[asc.KernelLaunch, np.ndarray, np.ndarray, asc.TCubeTiling]:
    tc = host_tiling(c)
    a, b, bias = inputs(c)
    c0 = 32 // np.dtype(NP[c.adt]).itemsize
    ah = to_nz(a, c0) if c.a_fmt is F.NZ else np.ascontiguousarray(a.T) if c.ta else a
    bh = to_nz(b, 16) if c.b_fmt is F.NZ else np.ascontiguousarray(b.T) if c.tb else b
    out = np.zeros((c.m, c.n), NP[c.cdt])
    launch, res = run(matmul_all, tc.used_core_num, ah, bh, bias, out, extra=(tc, c))
    return launch, res[3], expected(c, a, b, bias), tc


def assert_close(c: Case, got: np.ndarray, want: np.ndarray) -> None:
    if c.adt == asc.int8:
        np.testing.assert_array_equal(got, want)
    elif c.cdt == asc.float32:
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)
    else:  # rounded to 16 bits on the way out: compare with NumPy's rounding of the fp32 result
        np.testing.assert_array_equal(got.astype(np.float32), want.astype(NP[c.cdt]).astype(np.float32))


def assert_race_free(launch: asc.KernelLaunch) -> None:
    for stream in launch.streams:
        report = verify_sync(stream, pool=8, require_physical=True)
        assert report.ok, str(report)[:2000]


CASES = {
    "f16-f32": Case(64, 64, 64),
    "tails-bias-2core": Case(100, 70, 90, dim=2, bias=True),
    "transA-bias": Case(96, 80, 200, dim=2, bias=True, ta=True),
    "transB-bias": Case(96, 80, 200, dim=2, bias=True, tb=True),
    "transAB-f16out": Case(50, 40, 72, ta=True, tb=True, cdt=asc.float16),
    "bf16-f32": Case(48, 40, 100, adt=asc.bfloat16, bias=True),
    "bf16-bf16": Case(48, 40, 100, adt=asc.bfloat16, cdt=asc.bfloat16),
    "f32-transB": Case(40, 24, 20, adt=asc.float32, tb=True, bias=True),
    "int8-transB": Case(40, 50, 100, adt=asc.int8, cdt=asc.int32, tb=True, bias=True, bias_dt=asc.int32),
    "fixsplit-blocks": Case(150, 130, 520, dim=2, bias=True, fix=(64, 64)),
    "k-in-slabs-mdl": Case(64, 96, 800, bias=True, l1=48 * 1024, cfg=asc.CFG_MDL),
    "nz-inputs": Case(64, 48, 96, a_fmt=F.NZ, b_fmt=F.NZ, bias=True),
    "half-bias": Case(32, 48, 64, bias=True, bias_dt=asc.float16),
}


@pytest.mark.parametrize("name", list(CASES))
def test_matmul_against_numpy(run, name: str) -> None:
    c = CASES[name]
    launch, got, want, tc = run_case(run, c)
    assert_close(c, got, want)
    assert_race_free(launch)
    ops = {i.op for s in launch.streams for i in s}
    assert {"data_copy", "load_data", "mmad", "fixpipe"} <= ops
    if name == "k-in-slabs-mdl":
        assert tc.step_ka * tc.base_k < tc.single_core_k  # K crossed several L1 loads


def test_k_slabs_load_once_each_and_full_k_slabs_stay(run) -> None:
    """A slab holding all of K stays in L1 for the next block; otherwise each block loads its slabs."""
    c = Case(64, 128, 64, fix=(32, 32))  # 2 x 4 blocks, M first: B's slab stays while M moves
    launch, got, want, tc = run_case(run, c)
    assert_close(c, got, want)
    l1_loads = [i for i in launch.streams[0] if i.op == "data_copy" and i.pipe is Pipe.MTE2]
    assert tc.iterate_order == 0 and tc.step_ka * tc.base_k >= 64
    assert len(l1_loads) == 8 + 4  # A for each of the 8 blocks, B once per column of blocks


@asc.kernel
def matmul_iterate(tiling, seq, a, b, c, ub_out, workspace):
    """Iterate / GetTensorC: to GM at the block's place (or sequentially) and to a VECIN tensor."""
    pipe = asc.TPipe()
    mm = asc.Matmul(
        asc.MatmulType(P.GM, F.ND, asc.half),
        asc.MatmulType(P.GM, F.ND, asc.half),
        asc.MatmulType(P.VECIN, F.ND, asc.float32),
    )
    asc.regist_matmul_obj(pipe, workspace, mm)
    mm.init(tiling)
    q = asc.TQue(P.VECIN, 1)
    pipe.init_buffer(q, 1, tiling.single_core_m * tiling.single_core_n * 4)
    ga, gb, gc, gu = (
        asc.GlobalTensor(asc.half),
        asc.GlobalTensor(asc.half),
        asc.GlobalTensor(asc.float32),
        asc.GlobalTensor(asc.float32),
    )
    for g, p in ((ga, a), (gb, b), (gc, c), (gu, ub_out)):
        g.set_global_buffer(p)
    mm.set_tensor_a(ga)
    mm.set_tensor_b(gb)
    i = 0
    while mm.iterate():
        mm.get_tensor_c(gc[i * tiling.base_m * tiling.base_n] if seq else gc, 0, seq)
        i += 1
    assert i == -(-tiling.m // tiling.base_m) * -(-tiling.n // tiling.base_n)
    ub = q.alloc_tensor(asc.float32)
    mm.iterate_all(ub)
    q.enque(ub)
    ub = q.deque(asc.float32)
    asc.data_copy(gu, ub, tiling.single_core_m * tiling.single_core_n)
    q.free_tensor(ub)
    mm.end()


def test_iterate_get_tensor_c_gm_and_vecin(run) -> None:
    c = Case(48, 64, 40, fix=(16, 32))
    tc = host_tiling(c)
    a, b, _ = inputs(c)
    want = expected(c, a, b, np.zeros(0))
    ws = np.zeros(tc.base_m * tc.base_n, np.float32)
    for seq in (False, True):
        launch, (_, _, got, ub, _) = run(
            matmul_iterate,
            1,
            a,
            b,
            np.zeros((48, 64), np.float32),
            np.zeros((48, 64), np.float32),
            ws,
            extra=(tc, seq),
        )
        np.testing.assert_allclose(ub, want, rtol=1e-4, atol=1e-3)
        if seq:  # block after block, each baseM x baseN, in M-first order
            blocks = [
                want[mi * 16 : (mi + 1) * 16, ni * 32 : (ni + 1) * 32] for ni in range(2) for mi in range(3)
            ]
            np.testing.assert_allclose(got.reshape(6, 16, 32), np.stack(blocks), rtol=1e-4, atol=1e-3)
        else:
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)
        assert_race_free(launch)


def test_iterate_order_n_first(run) -> None:
    c = Case(64, 64, 32, fix=(32, 32))
    tc = replace(host_tiling(c), iterate_order=1)
    a, b, _ = inputs(c)
    want = expected(c, a, b, np.zeros(0))
    ws = np.zeros(tc.base_m * tc.base_n, np.float32)
    _, (_, _, got, ub, _) = run(
        matmul_iterate,
        1,
        a,
        b,
        np.zeros((64, 64), np.float32),
        np.zeros((64, 64), np.float32),
        ws,
        extra=(tc, True),
    )
    blocks = [want[mi * 32 : (mi + 1) * 32, ni * 32 : (ni + 1) * 32] for mi in range(2) for ni in range(2)]
    np.testing.assert_allclose(got.reshape(4, 32, 32), np.stack(blocks), rtol=1e-4, atol=1e-3)


@asc.kernel
def misuse(tiling, what, a, b, c):
    pipe = asc.TPipe()
    dt = asc.float32 if what == "fp32-b-not-transposed" else asc.half
    mm = asc.Matmul(
        asc.MatmulType(P.GM, F.ND, dt),
        asc.MatmulType(P.GM, F.ND, dt),
        asc.MatmulType(P.GM if what != "ub-no-workspace" else P.VECIN, F.ND, asc.float32),
    )
    if what == "bad-tiling":
        tiling = replace(tiling, base_m=24)
    if what == "too-big-for-l0c":
        tiling = replace(tiling, base_m=256, base_n=256)
    asc.regist_matmul_obj(pipe, None, mm, tiling)
    ga, gb, gc = asc.GlobalTensor(dt), asc.GlobalTensor(dt), asc.GlobalTensor(asc.float32)
    ga.set_global_buffer(a)
    gb.set_global_buffer(b)
    gc.set_global_buffer(c)
    mm.set_tensor_a(ga, what == "trans-not-declared")  # FAULT-LINE
    mm.set_tensor_b(gb)
    if what == "bias-without-tiling":
        mm.set_bias(gc)
    if what == "iterate-twice":
        mm.iterate()
        mm.iterate()
    if what == "atomic":
        mm.iterate_all(gc, 1)
    if what == "ub-no-workspace":
        q = asc.TQue(P.VECIN, 1)
        pipe.init_buffer(q, 1, 64 * 64 * 4)
        mm.iterate()
        mm.get_tensor_c(q.alloc_tensor(asc.float32))
    if what == "local-workspace":
        buf = asc.TBuf(P.VECCALC)
        pipe.init_buffer(buf, 1024)
        mm.set_local_workspace(buf.get(asc.uint8))
    mm.iterate_all(gc)


@pytest.mark.parametrize(
    "what, exc, match",
    [
        ("trans-not-declared", ValueError, "is_trans False"),
        ("fp32-b-not-transposed", errors.FeatureNotSupportedError, "16-bit types"),
        ("bad-tiling", ValueError, "multiples of 16"),
        ("too-big-for-l0c", ValueError, "L0C"),
        ("bias-without-tiling", ValueError, "is_bias = 1"),
        ("iterate-twice", ValueError, "get_tensor_c"),
        ("atomic", errors.FeatureNotSupportedError, "en_atomic"),
        ("ub-no-workspace", ValueError, "workspace"),
        ("local-workspace", errors.FeatureNotSupportedError, "coupled chips"),
    ],
)
def test_misuse_is_refused_clearly(run, what: str, exc: type, match: str) -> None:
    c = Case(
        64,
        64,
        64,
        adt=asc.float32 if what == "fp32-b-not-transposed" else asc.float16,
        tb=what == "fp32-b-not-transposed",
    )
    tc = host_tiling(c)
    a = np.zeros((64, 64), NP[c.adt])
    with pytest.raises(errors.TaskError) as info:
        run(misuse, 1, a, a, np.zeros((64, 64), np.float32), extra=(tc, what))
    cause = info.value.cause
    assert isinstance(cause, exc) and match in str(cause), repr(cause)
    if exc is errors.FeatureNotSupportedError:
        assert cause.code == errors.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    else:  # a Python error of the kernel: located at the kernel line (507000), still a ValueError
        assert isinstance(cause, asc.KernelPythonError) and cause.line > 0


@asc.kernel
def construct(a_t, c_t, x):
    asc.Matmul(a_t, asc.MatmulType(P.GM, F.ND, asc.half), c_t)


@pytest.mark.parametrize(
    "a_t, c_t, exc",
    [
        (asc.MatmulType(P.GM, F.ND, asc.half), asc.MatmulType(P.GM, F.ND, asc.int32), TypeError),
        (
            asc.MatmulType(P.VECOUT, F.ND, asc.half),
            asc.MatmulType(P.GM, F.ND, asc.float32),
            errors.FeatureNotSupportedError,
        ),
        (
            asc.MatmulType(P.GM, F.NZ, asc.half, True),
            asc.MatmulType(P.GM, F.ND, asc.float32),
            errors.FeatureNotSupportedError,
        ),
        (
            asc.MatmulType(P.GM, F.ND, asc.half),
            asc.MatmulType(P.GM, F.NZ, asc.float32),
            errors.FeatureNotSupportedError,
        ),
    ],
)
def test_matmul_object_checks_its_types(run, a_t, c_t, exc) -> None:
    with pytest.raises(errors.TaskError) as info:
        run(construct, 1, np.zeros(16, np.float32), extra=(a_t, c_t))
    assert isinstance(info.value.cause, exc)


def test_outside_a_kernel_fails_loudly(rt) -> None:
    t = asc.MatmulType(P.GM, F.ND, asc.half)
    with pytest.raises(errors.KernelContextError):
        asc.Matmul(t, t, asc.MatmulType(P.GM, F.ND, asc.float32))
    with pytest.raises(errors.KernelContextError):
        asc.regist_matmul_obj(None, None)


@asc.kernel
def refused_then_retried(tiling, a, b, c):
    """A refused get_tensor_c / set_tensor_a leaves the object as it was: the retry computes the same."""
    pipe = asc.TPipe()
    mm = asc.Matmul(
        asc.MatmulType(P.GM, F.ND, asc.half),
        asc.MatmulType(P.GM, F.ND, asc.half),
        asc.MatmulType(P.VECIN, F.ND, asc.float32),
    )
    asc.regist_matmul_obj(pipe, None, mm, tiling)  # no workspace: UB output is refused
    q = asc.TQue(P.VECIN, 1)
    pipe.init_buffer(q, 1, tiling.base_m * tiling.base_n * 4)
    ga, gb, gc = asc.GlobalTensor(asc.half), asc.GlobalTensor(asc.half), asc.GlobalTensor(asc.float32)
    ga.set_global_buffer(a)
    gb.set_global_buffer(b)
    gc.set_global_buffer(c)
    mm.set_tensor_a(ga)
    mm.set_tensor_b(gb)
    with pytest.raises(ValueError, match="is_trans False"):
        mm.set_tensor_a(gb, True)  # refused: A stays ga
    ub = q.alloc_tensor(asc.float32)
    while mm.iterate():
        with pytest.raises(ValueError, match="workspace"):
            mm.get_tensor_c(ub, 0, True)
        mm.get_tensor_c(gc)  # the block is still in L0C
    q.free_tensor(ub)
    mm.end()


def test_refused_calls_leave_state_intact(run) -> None:
    c = Case(32, 64, 32, fix=(16, 32))
    tc = host_tiling(c)
    a, b, _ = inputs(c)
    _, (_, _, got) = run(refused_then_retried, 1, a, b, np.zeros((32, 64), np.float32), extra=(tc,))
    np.testing.assert_allclose(got, expected(c, a, b, np.zeros(0)), rtol=1e-4, atol=1e-3)



def test_coupled_chip_is_refused_clearly(run) -> None:
    """On the 310P (coupled: no fixpipe, the CO1 queue has no M -> FIX flag) Matmul is refused up
    front with the reason, instead of racing on L0C."""
    import aclsim

    aclsim.reset_device(0)
    assert aclsim.finalize() == []  # the fixture's tiny chip, for the 310P
    aclsim.init(chip="310P")
    aclsim.set_device(0)
    t = asc.MatmulType(P.GM, F.ND, asc.half)
    with pytest.raises(errors.TaskError) as info:
        run(construct, 1, np.zeros(16, np.float32), extra=(t, asc.MatmulType(P.GM, F.ND, asc.float32)))
    cause = info.value.cause
    assert isinstance(cause, errors.FeatureNotSupportedError) and "coupled chip" in str(cause)
