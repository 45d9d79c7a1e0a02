"""Host Matmul tiling (MatmulApiTiling / MultiCoreMatmulTiling -> TCubeTiling): return codes and fields."""

from __future__ import annotations

import logging

import pytest

import aclsim.kernel as asc
from aclsim.arch import get_chip
from aclsim.kernel.tiling import L0C_ELEM, l1_slab_bytes

P, F, D = asc.TPosition, asc.CubeFormat, asc.DataType


def typed(
    t: asc.MatmulApiTiling, adt=D.DT_FLOAT16, cdt=D.DT_FLOAT, ta: bool = False, tb: bool = False
) -> asc.MatmulApiTiling:
    assert t.set_a_type(P.GM, F.ND, adt, ta) == 0
    assert t.set_b_type(P.GM, F.ND, adt, tb) == 0
    assert t.set_c_type(P.GM, F.ND, cdt) == 0
    assert t.set_bias_type(P.GM, F.ND, D.DT_FLOAT) == 0
    return t


def check_constraints(tc: asc.TCubeTiling, chip: str, isz: int = 2) -> None:
    """The TCubeTiling constraints of the documentation (table 2), which the kernel relies on."""
    spec = get_chip(chip)
    assert tc.base_m % 16 == 0 and tc.base_n % 16 == 0
    assert tc.base_m * tc.base_k * isz * tc.db_l0a <= spec.l0a_bytes
    assert tc.base_n * tc.base_k * isz * tc.db_l0b <= spec.l0b_bytes
    assert tc.base_m * tc.base_n * L0C_ELEM * tc.db_l0c <= spec.l0c_bytes
    assert tc.depth_a1 in (tc.step_m * tc.step_ka, 2 * tc.step_m * tc.step_ka)
    assert tc.depth_b1 in (tc.step_n * tc.step_kb, 2 * tc.step_n * tc.step_kb)
    db = tc.depth_a1 // tc.step_ka
    l1 = db * (
        l1_slab_bytes(tc.base_m, tc.step_ka, tc.base_k, isz)
        + l1_slab_bytes(tc.base_n, tc.step_kb, tc.base_k, isz)
    )
    assert l1 + tc.is_bias * tc.base_n * 4 == tc.share_l1_size <= spec.l1_bytes


def test_documented_example_fills_the_recommended_blocks() -> None:
    t = typed(asc.MatmulApiTiling("910B"))
    assert t.set_shape(1024, 1024, 1024) == 0
    assert t.set_org_shape(1024, 1024, 1024) == 0
    assert t.set_bias(True) == 0
    assert t.set_buffer_space(-1, -1, -1) == 0
    tc = asc.TCubeTiling()
    assert t.get_tiling(tc) == 0
    assert (tc.m, tc.n, tc.ka, tc.kb) == (1024, 1024, 1024, 1024)
    assert (tc.single_core_m, tc.single_core_n, tc.single_core_k) == (1024, 1024, 1024)
    assert (tc.base_m, tc.base_n, tc.base_k) == (128, 256, 64)  # the documented recommendation
    assert (tc.db_l0a, tc.db_l0b, tc.used_core_num, tc.is_bias, tc.iterate_order) == (2, 2, 1, 1, 0)
    assert tc.db_l0c == 1  # 128 x 256 x 4 B is all of L0C
    check_constraints(tc, "910B")
    assert (t.get_base_m(), t.get_base_n(), t.get_base_k()) == (128, 256, 64)


def test_blocks_shrink_to_small_shapes_and_other_types() -> None:
    t = typed(asc.MatmulApiTiling("tiny"), D.DT_FLOAT, D.DT_FLOAT, tb=True)
    t.set_shape(40, 24, 20)
    tc = asc.TCubeTiling()
    assert t.get_tiling(tc) == 0
    assert (tc.base_m, tc.base_n, tc.base_k) == (48, 32, 24)  # baseK aligned to C0 = 8 floats
    assert tc.step_ka == 1 and tc.depth_a1 == 2
    check_constraints(tc, "tiny", isz=4)
    t8 = typed(asc.MatmulApiTiling("tiny"), D.DT_INT8, D.DT_INT32, tb=True)
    t8.set_shape(64, 64, 1000)
    assert t8.get_tiling(tc) == 0 and tc.base_k == 128 and tc.base_k % 32 == 0


def test_l1_too_small_splits_k_then_fails() -> None:
    t = typed(asc.MatmulApiTiling("tiny"))
    t.set_shape(256, 256, 512)
    tc = asc.TCubeTiling()
    assert t.get_tiling(tc) == 0 and tc.step_ka == 8  # all of K in L1
    assert t.set_buffer_space(96 * 1024) == 0
    assert t.get_tiling(tc) == 0
    assert tc.step_ka < 8 and tc.depth_a1 == 2 * tc.step_ka and tc.share_l1_size <= 96 * 1024
    check_constraints(tc, "tiny")
    assert t.set_buffer_space(1024) == 0
    assert t.get_tiling(tc) == -1


def test_return_codes(caplog: pytest.LogCaptureFixture) -> None:
    t = asc.MatmulApiTiling("tiny")
    tc = asc.TCubeTiling()
    with caplog.at_level(logging.WARNING, logger="aclsim.tiling"):
        assert t.get_tiling(tc) == -1  # no types
        assert "MatmulApi Tiling" in caplog.text and "SetAType" in caplog.text
    typed(t)
    assert t.get_tiling(tc) == -1  # no shape
    assert t.set_shape(0, 16, 16) == -1
    assert t.set_org_shape(64, 64, 64, 0) == -1
    assert t.set_shape(128, 64, 64) == 0 and t.set_org_shape(64, 64, 64) == 0
    assert t.get_tiling(tc) == -1  # m beyond the original M
    assert t.set_shape(-1, -1, -1) == 0
    assert t.get_tiling(tc) == 0 and (tc.single_core_m, tc.single_core_k) == (64, 64)  # -1: the org shape
    assert t.set_fix_split(64, 64, 32) == -1  # baseK: only -1
    assert t.set_fix_split(24, -1, -1) == -1  # not a multiple of 16
    assert t.set_fix_split(128, -1, -1) == 0
    assert t.get_tiling(tc) == -1  # baseM 128 > singleCoreM 64
    assert t.set_fix_split(64, 64, -1) == 0 and t.get_tiling(tc) == 0 and tc.base_m == 64
    assert t.set_buffer_space(-1, 8 * 1024) == 0  # L0C of 8 KiB: 64 x 64 x 4 B does not fit a fixed split
    assert t.get_tiling(tc) == -1
    assert t.set_buffer_space(-1, 10**9) == -1  # beyond the chip's L0C
    assert t.set_a_type(P.GM, F.ND, "not a type") == -1
    bad = typed(asc.MatmulApiTiling("tiny"), cdt=D.DT_INT32)  # float16 in, int32 out
    bad.set_shape(64, 64, 64)
    assert bad.get_tiling(tc) == -1


def test_failed_tiling_leaves_the_structure_alone() -> None:
    t = typed(asc.MatmulApiTiling("tiny"))
    t.set_shape(64, 64, 64)
    tc = asc.TCubeTiling()
    assert t.get_tiling(tc) == 0
    before = asc.TCubeTiling(**vars(tc))
    t.set_buffer_space(512)
    assert t.get_tiling(tc) == -1 and tc == before


def test_multi_core_split_covers_the_matrix() -> None:
    t = typed(asc.MultiCoreMatmulTiling("910B"))
    assert t.set_dim(0) == -1 and t.set_dim(10**6) == -1
    assert t.set_dim(20) == 0
    t.set_shape(512, 1024, 512)
    t.set_org_shape(512, 1024, 512)
    tc = asc.TCubeTiling()
    assert t.get_tiling(tc) == 0
    m_blocks = -(-tc.m // tc.single_core_m)
    n_blocks = -(-tc.n // tc.single_core_n)
    assert tc.used_core_num == m_blocks * n_blocks <= 20
    assert tc.single_core_k == 512  # K is not split
    assert t.get_core_num() == (tc.used_core_num, m_blocks, n_blocks)
    assert t.get_single_shape() == (tc.single_core_m, tc.single_core_n, 512)
    check_constraints(tc, "910B")
    # the leaky-relu sample's tiling: two cores split M
    s = typed(asc.MultiCoreMatmulTiling("910B"))
    s.set_dim(2)
    s.set_shape(1024, 640, 256)
    s.set_fix_split(128, 128, -1)
    assert s.get_tiling(tc) == 0
    assert (tc.used_core_num, tc.single_core_m, tc.single_core_n, tc.base_m, tc.base_n) == (
        2,
        512,
        640,
        128,
        128,
    )
    assert s.set_single_shape(256, 640, -1) == 0 and s.get_tiling(tc) == 0
    assert (tc.single_core_m, tc.used_core_num) == (256, 4)


def test_every_high_level_name_is_exported_and_in_the_mapping_table() -> None:
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "dsl_mapping.md").read_text()
    names = [
        "CFG_MDL",
        "CFG_NORM",
        "CubeFormat",
        "DataType",
        "Matmul",
        "MatmulApiTiling",
        "MatmulConfig",
        "MatmulType",
        "MultiCoreMatmulTiling",
        "TCubeTiling",
        "regist_matmul_obj",
        "SoftMaxShapeInfo",
        "SoftMaxTiling",
        "get_soft_max_max_tmp_size",
        "get_soft_max_min_tmp_size",
        "soft_max",
        "soft_max_tiling_func",
        "LayerNormTiling",
        "get_layer_norm_max_min_tmp_size",
        "get_layer_norm_nd_tiling_info",
        "layer_norm",
    ]
    for name in names:
        assert name in asc.__all__ and hasattr(asc, name), name
        assert f"`{name}" in docs, f"{name} has no row in docs/dsl_mapping.md"
