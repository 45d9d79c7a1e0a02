"""The Matmul object's other members against NumPy: SetOrgShape, SetSingleShape, SetBatchNum/IterateBatch,
SetHF32, SetWorkspace, SetSubBlockIdx, MatmulImpl; the config getters and GetMatmulApiTiling."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.compiler import verify_sync
from aclsim.isa import Pipe, Space
from aclsim.kernel.cube_modes import to_hf32

P, F, D = asc.TPosition, asc.CubeFormat, asc.DataType


def tiling(m: int, n: int, k: int, dt: asc.DataType = D.DT_FLOAT16, org: tuple[int, ...] | None = None):
    t = asc.MatmulApiTiling("tiny")
    t.set_a_type(P.GM, F.ND, dt)
    t.set_b_type(P.GM, F.ND, dt)
    t.set_c_type(P.GM, F.ND, D.DT_FLOAT)
    t.set_shape(m, n, k)
    t.set_org_shape(*(org or (m, n, k)))
    tc = asc.TCubeTiling()
    assert t.get_tiling(tc) == 0
    return tc


def mm_object(dt=asc.half, cfg=None) -> asc.Matmul:
    types = (asc.MatmulType(P.GM, F.ND, dt), asc.MatmulType(P.GM, F.ND, dt),
             asc.MatmulType(P.GM, F.ND, asc.float32))
    return asc.Matmul(*types) if cfg is None else asc.Matmul(*types, None, cfg)


def globals_of(*pairs):
    out = []
    for dt, buf in pairs:
        g = asc.GlobalTensor(dt)
        g.set_global_buffer(buf)
        out.append(g)
    return out


@asc.kernel
def reuse_org_shape(tc, a, b, c, a2, b2, c2):
    """The SetOrgShape page's example: one object, then reused on bigger matrices (a part of them)."""
    pipe = asc.TPipe()
    mm = mm_object()
    asc.regist_matmul_obj(pipe, None, mm, tc)
    ga, gb, gc, ga2, gb2, gc2 = globals_of(
        (asc.half, a), (asc.half, b), (asc.float32, c), (asc.half, a2), (asc.half, b2), (asc.float32, c2)
    )
    mm.set_tensor_a(ga)
    mm.set_tensor_b(gb)
    mm.iterate_all(gc)
    # A2 is 64 x 80, B2 80 x 96, C2 64 x 96: the part at rows 32.., columns 48.., with K = 64 of 80
    mm.set_org_shape(64, 96, 80)
    mm.set_single_shape(32, 48, 64)
    mm.set_tensor_a(ga2[32 * 80])
    mm.set_tensor_b(gb2[48])
    mm.iterate_all(gc2[32 * 96 + 48])
    mm.end()


def test_set_org_shape_reuses_an_object_on_other_matrices(run) -> None:
    rng = np.random.default_rng(1)
    a, b = (rng.standard_normal(s).astype(np.float16) for s in ((32, 64), (64, 48)))
    a2, b2 = (rng.standard_normal(s).astype(np.float16) for s in ((64, 80), (80, 96)))
    c, c2 = np.zeros((32, 48), np.float32), np.zeros((64, 96), np.float32)
    _, res = run(reuse_org_shape, 1, a, b, c, a2, b2, c2, extra=(tiling(32, 48, 64),))
    np.testing.assert_allclose(res[2], a.astype(np.float32) @ b.astype(np.float32), rtol=1e-4, atol=1e-3)
    want = np.zeros((64, 96), np.float32)
    want[32:, 48:] = a2[32:, :64].astype(np.float32) @ b2[:64, 48:].astype(np.float32)
    np.testing.assert_allclose(res[5], want, rtol=1e-4, atol=1e-3)


@asc.kernel
def batched(tc, batch_a, batch_b, a, b, c):
    pipe = asc.TPipe()
    mm = mm_object()
    asc.regist_matmul_obj(pipe, None, mm, tc)
    ga, gb, gc = globals_of((asc.half, a), (asc.half, b), (asc.float32, c))
    mm.set_tensor_a(ga)
    mm.set_tensor_b(gb)
    mm.set_batch_num(batch_a, batch_b)
    mm.iterate_batch(gc, False, 0, False)
    mm.end()


@pytest.mark.parametrize("ba, bb", [(3, 3), (1, 2), (4, 2)])
def test_iterate_batch_with_broadcast(run, ba: int, bb: int) -> None:
    rng = np.random.default_rng(2)
    a = rng.standard_normal((ba, 32, 40)).astype(np.float16)
    b = rng.standard_normal((bb, 40, 16)).astype(np.float16)
    n = max(ba, bb)
    _, res = run(batched, 1, a, b, np.zeros((n, 32, 16), np.float32), extra=(tiling(32, 16, 40), ba, bb))
    want = np.stack([a[i // (n // ba)].astype(np.float32) @ b[i // (n // bb)].astype(np.float32)
                     for i in range(n)])
    np.testing.assert_allclose(res[2], want, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("enable, mode", [(False, 0), (True, 0), (True, 1)])
def test_set_hf32_rounds_the_float32_operands(run, enable: bool, mode: int) -> None:
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((16, 24)).astype(np.float32), rng.standard_normal((24, 16)).astype(np.float32)
    tb = np.ascontiguousarray(b.T)  # fp32 B goes transposed (no 32-bit fractal transpose in load_data)
    t = asc.MatmulApiTiling("tiny")
    t.set_a_type(P.GM, F.ND, D.DT_FLOAT)
    t.set_b_type(P.GM, F.ND, D.DT_FLOAT, True)
    t.set_c_type(P.GM, F.ND, D.DT_FLOAT)
    t.set_shape(16, 16, 24)
    t.set_org_shape(16, 16, 24)
    tc = asc.TCubeTiling()
    assert t.get_tiling(tc) == 0

    @asc.kernel
    def k(tc, a, b, c):
        pipe = asc.TPipe()
        f32 = asc.float32
        mm = asc.Matmul(asc.MatmulType(P.GM, F.ND, f32), asc.MatmulType(P.GM, F.ND, f32, True),
                        asc.MatmulType(P.GM, F.ND, f32))
        asc.regist_matmul_obj(pipe, None, mm, tc)
        ga, gb, gc = globals_of((asc.float32, a), (asc.float32, b), (asc.float32, c))
        mm.set_tensor_a(ga)
        mm.set_tensor_b(gb, True)
        mm.set_hf32(enable, mode)
        mm.iterate_all(gc)
        mm.end()

    _, res = run(k, 1, a, tb, np.zeros((16, 16), np.float32), extra=(tc,))
    if enable:
        want = to_hf32(a, 11, mode).astype(np.float64) @ to_hf32(b, 11, mode).astype(np.float64)
        assert not np.array_equal(to_hf32(a, 11, mode), a)
    else:
        want = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(res[2], want, rtol=1e-5, atol=1e-5)


@asc.kernel
def to_ub_via_set_workspace(tc, idx, a, b, out, ws):
    pipe = asc.TPipe()
    mm = asc.Matmul(asc.MatmulType(P.GM, F.ND, asc.half), asc.MatmulType(P.GM, F.ND, asc.half),
                    asc.MatmulType(P.VECIN, F.ND, asc.float32))
    asc.regist_matmul_obj(pipe, None, mm, tc)
    assert mm.sub_block_idx == 0
    mm.set_sub_block_idx(idx)
    gws = asc.GlobalTensor(asc.float32)
    gws.set_global_buffer(ws)
    mm.set_workspace(gws)
    q = asc.TQue(P.VECIN, 1)
    pipe.init_buffer(q, 1, tc.single_core_m * tc.single_core_n * 4)
    ga, gb, go = globals_of((asc.half, a), (asc.half, b), (asc.float32, out))
    mm.set_tensor_a(ga)
    mm.set_tensor_b(gb)
    ub = q.alloc_tensor(asc.float32)
    mm.iterate_all(ub)
    q.enque(ub)
    ub = q.deque(asc.float32)
    asc.data_copy(go, ub, tc.single_core_m * tc.single_core_n)
    q.free_tensor(ub)
    mm.end()


def test_set_workspace_carries_c_to_vecin_and_sub_block_idx_is_checked(run) -> None:
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((32, 32)).astype(np.float16), rng.standard_normal((32, 32)).astype(np.float16)
    tc = tiling(32, 32, 32)
    _, res = run(to_ub_via_set_workspace, 1, a, b, np.zeros((32, 32), np.float32),
                 np.zeros(tc.base_m * tc.base_n, np.float32), extra=(tc, 0))
    np.testing.assert_allclose(res[2], a.astype(np.float32) @ b.astype(np.float32), rtol=1e-4, atol=1e-3)
    with pytest.raises(errors.AclError, match="set_sub_block_idx"):
        run(to_ub_via_set_workspace, 1, a, b, np.zeros((32, 32), np.float32),
            np.zeros(tc.base_m * tc.base_n, np.float32), extra=(tc, 7))


@asc.kernel
def refusals(tc, what, a):
    pipe = asc.TPipe()
    cfg = asc.MatmulConfig(single_core_m=64, single_core_n=64, single_core_k=64) if what == "cfg" else None
    mm = mm_object(cfg=cfg)
    asc.regist_matmul_obj(pipe, None, mm, tc)
    if what == "single":
        mm.set_single_shape(0, 16, 16)
    if what == "org":
        mm.set_org_shape(16, -1, 16)
    if what == "batch":
        mm.set_batch_num(2, 3)


@pytest.mark.parametrize("what, text", [("single", "singleM"), ("org", "orgM"), ("batch", "multiple"),
                                        ("cfg", "constant values must agree")])
def test_refusals_name_the_argument(run, what: str, text: str) -> None:
    with pytest.raises(errors.AclError, match=text):
        run(refusals, 1, np.zeros(16, np.float16), extra=(tiling(32, 32, 32), what))


def test_matmul_impl_is_matmul() -> None:
    assert asc.MatmulImpl is asc.Matmul


def test_config_getters_follow_the_documented_defaults() -> None:
    assert asc.get_normal_config() == asc.CFG_NORM and asc.CFG_NORM.do_norm and asc.CFG_NORM.en_unit_flag
    mdl = asc.get_mdl_config(do_mte2_preload=1)
    assert mdl.do_multi_data_load and not mdl.do_norm and mdl.do_mte2_preload == 1 and not mdl.en_unit_flag
    assert asc.get_mdl_config() == asc.CFG_MDL
    assert asc.MM_CFG_BB.do_basic_block and (asc.MM_CFG_BB.basic_m, asc.MM_CFG_BB.basic_k) == (128, 128)
    cfg = asc.get_mm_config(asc.MatmulConfigMode.CONFIG_MDL, asc.MatmulShapeParams(64, 64, 64, 32, 32, 32),
                            asc.MatmulFuncParams(intrinsics_limit=True))
    assert cfg.do_multi_data_load and cfg.single_core_k == 64 and cfg.basic_n == 32 and cfg.intrinsics_check
    with pytest.raises(TypeError):
        asc.get_mm_config(asc.MatmulConfigMode.CONFIG_NORM, 3)
    with pytest.raises(ValueError):
        asc.get_mdl_config(do_mte2_preload=3)


def test_get_matmul_api_tiling_is_the_host_tiling_of_the_constant_shapes() -> None:
    types = [asc.MatmulType(P.GM, F.ND, D.DT_FLOAT16), asc.MatmulType(P.GM, F.ND, D.DT_FLOAT16),
             asc.MatmulType(P.GM, F.ND, D.DT_FLOAT)]
    host = tiling(64, 64, 128)
    cfg = asc.get_mm_config(asc.MatmulConfigMode.CONFIG_NORM,
                            asc.MatmulShapeParams(64, 64, 128, host.base_m, host.base_n, host.base_k))
    static = asc.get_matmul_api_tiling(*types, None, cfg, chip="tiny")
    assert static.tiling == host and static.cfg is cfg
    with pytest.raises(ValueError, match="partial constant"):
        asc.get_matmul_api_tiling(*types, None, asc.get_basic_config(64, 64, 64), chip="tiny")
    with pytest.raises(ValueError, match="baseK"):
        shape = asc.MatmulShapeParams(64, 64, 128, 64, 64, 16)
        bad = asc.get_mm_config(asc.MatmulConfigMode.CONFIG_NORM, shape)
        asc.get_matmul_api_tiling(*types, None, bad, chip="tiny")


# --- MatmulCallBackFunc, SetUserDefInfo, SetSelfDefineData ------------------------------------------
CALLS: list[tuple] = []


def copy_a1(a_matrix, gm, row, col, use_m, use_k, tiling_ptr, data_ptr):
    """A user CopyA1: the ND -> NZ copy of A's block (row, col), offsets from the tiling it was given."""
    CALLS.append(("a1", row, col, use_m, use_k, data_ptr))
    t = tiling_ptr
    g = asc.GlobalTensor(asc.half)
    g.set_global_buffer(gm)
    src = g[row * t.base_m * t.ka + col * t.step_ka * t.base_k]
    rows16 = -(-use_m // 16) * 16
    params = asc.Nd2NzParams(1, use_m, use_k, 0, t.ka, rows16, 1, 0)
    asc.data_copy(a_matrix.reinterpret_cast(asc.half), src, params)


def copy_b1(b_matrix, gm, row, col, use_k, use_n, tiling_ptr, data_ptr):
    CALLS.append(("b1", row, col, use_k, use_n, data_ptr))
    t = tiling_ptr
    g = asc.GlobalTensor(asc.half)
    g.set_global_buffer(gm)
    src = g[row * t.step_kb * t.base_k * t.n + col * t.base_n]
    rows16 = -(-use_k // 16) * 16
    params = asc.Nd2NzParams(1, use_k, use_n, 0, t.n, rows16, 1, 0)
    asc.data_copy(b_matrix.reinterpret_cast(asc.half), src, params)


def copy_out_relu(gm, co1_local, params, tiling_ptr, data_ptr):
    """A user DataCopyOut: fixpipe with ReLU on the way (the library's copy has none)."""
    CALLS.append(("out", params.cur_m, params.cur_n, params.ori_n_size, params.dst_stride))
    g = asc.GlobalTensor(asc.float32)
    g.set_global_buffer(gm)
    m = params.burst_len * 32 // (16 * 4)
    asc.fixpipe(g, co1_local.reinterpret_cast(asc.float32),
                asc.FixpipeParamsV220(params.ori_n_size, m, m, params.dst_stride, relu_en=True))


@asc.kernel
def with_callbacks(tc, a, b, c):
    pipe = asc.TPipe()
    cb = asc.MatmulCallBackFunc(copy_out_relu, copy_a1, copy_b1)
    mm = asc.Matmul(asc.MatmulType(P.GM, F.ND, asc.half), asc.MatmulType(P.GM, F.ND, asc.half),
                    asc.MatmulType(P.GM, F.ND, asc.float32), None, asc.CFG_NORM, cb)
    asc.regist_matmul_obj(pipe, None, mm, tc)
    mm.set_user_def_info(tc)
    mm.set_self_define_data(42)
    ga, gb, gc = globals_of((asc.half, a), (asc.half, b), (asc.float32, c))
    mm.set_tensor_a(ga)
    mm.set_tensor_b(gb)
    mm.iterate_all(gc)
    mm.end()


def test_callbacks_replace_the_library_copies(run) -> None:
    rng = np.random.default_rng(6)
    a, b = rng.standard_normal((48, 40)).astype(np.float16), rng.standard_normal((40, 64)).astype(np.float16)
    t = asc.MatmulApiTiling("tiny")
    t.set_a_type(P.GM, F.ND, D.DT_FLOAT16)
    t.set_b_type(P.GM, F.ND, D.DT_FLOAT16)
    t.set_c_type(P.GM, F.ND, D.DT_FLOAT)
    t.set_shape(48, 64, 40)
    t.set_org_shape(48, 64, 40)
    t.set_fix_split(16, 32, -1)
    tc = asc.TCubeTiling()
    assert t.get_tiling(tc) == 0
    CALLS.clear()
    _, res = run(with_callbacks, 1, a, b, np.zeros((48, 64), np.float32), extra=(tc,))
    np.testing.assert_allclose(res[2], np.maximum(a.astype(np.float32) @ b.astype(np.float32), 0),
                               rtol=1e-4, atol=1e-3)
    outs = [c for c in CALLS if c[0] == "out"]
    assert [(m, n) for _, m, n, _, _ in outs] == [(mi, ni) for ni in range(2) for mi in range(3)]
    assert all(c[3:] == (32, 64) for c in outs)  # 32 columns a block, C's rows 64 apart
    a1 = [c for c in CALLS if c[0] == "a1"]
    assert len(a1) == 6 and a1[0] == ("a1", 0, 0, 16, 40, 42)  # M first: A's block each time
    assert [c[1:5] for c in CALLS if c[0] == "b1"] == [(0, 0, 40, 32), (0, 1, 40, 32)]  # B's kept


@asc.kernel
def bias_switches(tc, what, a, b, bias, c, c2):
    pipe = asc.TPipe()
    cfg = asc.MatmulConfig(enable_set_bias=False) if what == "compiled-out" else asc.CFG_NORM
    mm = asc.Matmul(asc.MatmulType(P.GM, F.ND, asc.half), asc.MatmulType(P.GM, F.ND, asc.half),
                    asc.MatmulType(P.GM, F.ND, asc.float32), asc.MatmulType(P.GM, F.ND, asc.float32), cfg)
    asc.regist_matmul_obj(pipe, None, mm, tc)
    ga, gb, gbias, gc, gc2 = globals_of((asc.half, a), (asc.half, b), (asc.float32, bias), (asc.float32, c),
                                        (asc.float32, c2))
    mm.set_tensor_a(ga)
    mm.set_tensor_b(gb)
    mm.set_bias(gbias)
    mm.iterate_all(gc)
    mm.disable_bias() if what == "disable" else mm.clear_bias()
    mm.iterate_all(gc2)
    mm.end()


@pytest.mark.parametrize("what", ["disable", "clear", "compiled-out"])
def test_disable_bias_and_enable_set_bias(run, what) -> None:
    rng = np.random.default_rng(8)
    a, b = rng.standard_normal((32, 32)).astype(np.float16), rng.standard_normal((32, 32)).astype(np.float16)
    bias = rng.standard_normal(32).astype(np.float32)
    t = asc.MatmulApiTiling("tiny")
    t.set_a_type(P.GM, F.ND, D.DT_FLOAT16)
    t.set_b_type(P.GM, F.ND, D.DT_FLOAT16)
    t.set_c_type(P.GM, F.ND, D.DT_FLOAT)
    t.set_bias_type(P.GM, F.ND, D.DT_FLOAT)
    t.set_shape(32, 32, 32)
    t.set_org_shape(32, 32, 32)
    t.set_bias(True)
    tc = asc.TCubeTiling()
    assert t.get_tiling(tc) == 0
    args = (a, b, bias, np.zeros((32, 32), np.float32), np.zeros((32, 32), np.float32))
    if what == "compiled-out":
        with pytest.raises(errors.AclError, match="enable_set_bias"):
            run(bias_switches, 1, *args, extra=(tc, what))
        return
    _, res = run(bias_switches, 1, *args, extra=(tc, what))
    prod = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(res[3], prod + bias, rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(res[4], prod, rtol=1e-4, atol=1e-3)


@asc.kernel
def partial_sums(tc, bad, a, b, bias, c):
    """The K halves of A @ B through one object: Iterate, then Iterate(true) on the next half adds to L0C."""
    pipe = asc.TPipe()
    mm = asc.Matmul(asc.MatmulType(P.GM, F.ND, asc.half), asc.MatmulType(P.GM, F.ND, asc.half),
                    asc.MatmulType(P.GM, F.ND, asc.float32), asc.MatmulType(P.GM, F.ND, asc.float32))
    asc.regist_matmul_obj(pipe, None, mm, tc)
    ga, gb, gbias, gc = globals_of((asc.half, a), (asc.half, b), (asc.float32, bias), (asc.float32, c))
    if bad:
        mm.set_single_shape(64, 32, 32)  # two blocks of M: no L0C accumulation
    mm.set_org_shape(32, 32, 64)
    mm.set_tensor_a(ga)
    mm.set_tensor_b(gb)
    mm.set_bias(gbias)
    assert mm.iterate(bad)
    for half in (1, 2):
        mm.set_tensor_a(ga[half * 32] if half == 1 else ga)
        mm.set_tensor_b(gb[half * 32 * 32] if half == 1 else gb)
        if half == 1:
            assert mm.iterate(True)
            assert not mm.iterate(True)  # the part (one block) is done
    mm.get_tensor_c(gc)
    mm.end()


@pytest.mark.parametrize("bad", [False, True])
def test_iterate_partial_sum_adds_in_l0c(run, bad) -> None:
    rng = np.random.default_rng(9)
    a, b = rng.standard_normal((32, 64)).astype(np.float16), rng.standard_normal((64, 32)).astype(np.float16)
    bias = rng.standard_normal(32).astype(np.float32)
    t = asc.MatmulApiTiling("tiny")
    t.set_a_type(P.GM, F.ND, D.DT_FLOAT16)
    t.set_b_type(P.GM, F.ND, D.DT_FLOAT16)
    t.set_c_type(P.GM, F.ND, D.DT_FLOAT)
    t.set_bias_type(P.GM, F.ND, D.DT_FLOAT)
    t.set_shape(32, 32, 32)
    t.set_org_shape(32, 32, 64)
    t.set_bias(True)
    t.set_fix_split(32, 32, -1)
    tc = asc.TCubeTiling()
    assert t.get_tiling(tc) == 0
    args = (a, b, bias, np.zeros((32, 32), np.float32))
    if bad:
        with pytest.raises(errors.AclError, match="singleCoreM <= baseM"):
            run(partial_sums, 1, *args, extra=(tc, bad))
        return
    launch, res = run(partial_sums, 1, *args, extra=(tc, bad))
    # the bias once (the first Iterate starts from it), both K halves summed in L0C
    want = a.astype(np.float32) @ b.astype(np.float32) + bias
    np.testing.assert_allclose(res[3], want, rtol=1e-4, atol=1e-3)
    assert verify_sync(launch.streams[0], pool=8, require_physical=True).ok


def test_the_bias_reaches_c_through_the_bias_table(run) -> None:
    """The Matmul's bias goes GM -> L1 (C1) -> BT (C2) and the block's first mmad reads it there (before, the
    bias was added to L0C by NumPy after the mmad and no instruction read the table)."""
    rng = np.random.default_rng(10)
    a, b = rng.standard_normal((32, 32)).astype(np.float16), rng.standard_normal((32, 32)).astype(np.float16)
    bias = rng.standard_normal(32).astype(np.float32)
    t = asc.MatmulApiTiling("tiny")
    t.set_a_type(P.GM, F.ND, D.DT_FLOAT16)
    t.set_b_type(P.GM, F.ND, D.DT_FLOAT16)
    t.set_c_type(P.GM, F.ND, D.DT_FLOAT)
    t.set_bias_type(P.GM, F.ND, D.DT_FLOAT)
    t.set_shape(32, 32, 32)
    t.set_org_shape(32, 32, 32)
    t.set_bias(True)
    tc = asc.TCubeTiling()
    assert t.get_tiling(tc) == 0
    outs = (np.zeros((32, 32), np.float32), np.zeros((32, 32), np.float32))
    launch, _ = run(bias_switches, 1, a, b, bias, *outs, extra=(tc, "disable"))
    stream = launch.streams[0]
    bt_writes = [i for i in stream if i.pipe is Pipe.MTE1 and any(w.space is Space.BT for w in i.writes)]
    bt_reads = [i for i in stream if i.op == "mmad" and any(r.space is Space.BT for r in i.reads)]
    assert len(bt_writes) == 1 and len(bt_reads) == 1
    assert stream.index(bt_writes[0]) < stream.index(bt_reads[0])
    assert verify_sync(stream, pool=8, require_physical=True).ok
