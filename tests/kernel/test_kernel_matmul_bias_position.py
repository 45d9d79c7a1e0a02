"""A Matmul whose bias MatmulType is not in GM (Ascend C's default BIAS_TYPE = C_TYPE with C at VECIN)
constructs and runs; only set_bias refuses it (207000), since aclsim reads the bias from GM."""

from __future__ import annotations

import pytest

import aclsim
import aclsim.kernel as asc
from aclsim.errors import AclError

P, F = asc.TPosition, asc.CubeFormat


def _types() -> tuple[asc.MatmulType, ...]:
    c = asc.MatmulType(P.VECIN, F.ND, asc.float32)
    return asc.MatmulType(P.GM, F.ND, asc.half), asc.MatmulType(P.GM, F.ND, asc.half), c, c


def test_an_unused_bias_type_at_vecin_is_legal_and_set_bias_refuses_it() -> None:
    seen: list[str] = []

    @asc.kernel
    def k(bias):
        mm = asc.Matmul(*_types())  # it raised 207000 here
        seen.append("constructed")
        g = asc.GlobalTensor(asc.float32)
        g.set_global_buffer(bias)
        mm.set_bias(g)

    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    buf = aclsim.malloc(64)
    with pytest.raises(AclError) as info:
        k[1, None](buf)
        aclsim.synchronize_device()
    assert seen == ["constructed"]
    assert info.value.code == 207000 and "set_bias with the bias at VECIN" in str(info.value)
    aclsim.free(buf)
