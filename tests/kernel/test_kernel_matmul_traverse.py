"""MatmulApiTiling.set_traverse (``SetTraverse(MatrixTraverse)``): the tiling's iterate_order."""

from __future__ import annotations

import aclsim.kernel as asc

P, F, D = asc.TPosition, asc.CubeFormat, asc.DataType


def _tiling(traverse: asc.MatrixTraverse | None) -> asc.TCubeTiling:
    t = asc.MultiCoreMatmulTiling("910B")
    t.set_dim(2)
    t.set_a_type(P.GM, F.ND, D.DT_FLOAT16)
    t.set_b_type(P.GM, F.ND, D.DT_FLOAT16)
    t.set_c_type(P.GM, F.ND, D.DT_FLOAT)
    t.set_shape(512, 512, 256)
    t.set_org_shape(512, 512, 256)
    if traverse is not None:
        assert t.set_traverse(traverse) == 0
    tc = asc.TCubeTiling()
    assert t.get_tiling(tc) == 0
    return tc


def test_traverse_sets_the_iterate_order() -> None:
    assert _tiling(None).iterate_order == 0
    assert _tiling(asc.MatrixTraverse.NOSET).iterate_order == 0
    assert _tiling(asc.MatrixTraverse.FIRSTM).iterate_order == 0
    assert _tiling(asc.MatrixTraverse.FIRSTN).iterate_order == 1


def test_a_bad_traverse_is_refused_and_changes_nothing() -> None:
    t = asc.MatmulApiTiling("910B")
    assert t.set_traverse(asc.MatrixTraverse.FIRSTN) == 0
    assert t.set_traverse(7) == -1
    assert t.traverse == asc.MatrixTraverse.FIRSTN
