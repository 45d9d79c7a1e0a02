"""Adapters of the section "Matmul configs and members" (api_cxx.txt)."""

from __future__ import annotations

from typing import Any

from aclsim.kernel import get_matmul_api_tiling

__all__ = ["matmul_init_static"]


def matmul_init_static(mm: Any, l1_size: int, tpipe: Any = None) -> None:
    """``mm.Init(nullptr)`` / ``REGIST_MATMUL_OBJ(..., mm, nullptr)`` of a Matmul whose ``MM_CFG`` is
    ``GetMatmulApiTiling<A, B, C, BIAS>(cfg, l1Size)``: the constant tiling of its types and config
    (``get_matmul_api_tiling``; a config without the single-core shapes is refused with the reason).  The
    tiling has a bias when the config's ``enable_set_bias`` is set, as Ascend C's constant tiling
    (``isBias = mmCFG.enableSetBias``): C++'s ``BIAS_TYPE`` is always there (default ``C_TYPE``)."""
    bias = mm.bias_type if mm.cfg.enable_set_bias else None
    static = get_matmul_api_tiling(mm.a_type, mm.b_type, mm.c_type, bias, mm.cfg, int(l1_size))
    mm.init(static.tiling, tpipe)
