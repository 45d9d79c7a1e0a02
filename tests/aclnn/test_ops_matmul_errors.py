"""Every error path of aclnn Matmul, Mm and BatchMatMul, with its status and a message naming the argument."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from aclnn_support import BF16

import aclsim
from aclsim.aclnn import Tensor, create_tensor, destroy_tensor
from aclsim.aclnn.dtypes import DataType
from aclsim.aclnn.ops.matmul import (
    batch_mat_mul_get_workspace_size,
    matmul,
    matmul_get_workspace_size,
    mm_get_workspace_size,
)
from aclsim.errors import AclnnNullptrError, AclnnParamInvalidError

F16, F32 = np.float16, np.float32


@pytest.fixture
def mk(rt: None) -> Any:
    made: list[Tensor] = []

    def make(shape: tuple[int, ...], dtype: Any = F16) -> Tensor:
        t = Tensor.empty(shape, dtype)
        made.append(t)
        return t

    yield make
    for t in made:
        t.free()


def _bad(fn: Any, *args: Any, match: str) -> None:
    with pytest.raises(AclnnParamInvalidError, match=match) as info:
        fn(*args)
    assert info.value.code == 161002


@pytest.mark.parametrize("fn", [matmul_get_workspace_size, mm_get_workspace_size])
def test_null_arguments_in_order(mk: Any, fn: Any) -> None:
    a, b, c = mk((4, 8)), mk((8, 2)), mk((4, 2))
    for args, name in (((None, b, c), "self"), ((a, None, c), "mat2"), ((a, b, None), "out"),
                       ((None, None, None), "self")):
        with pytest.raises(AclnnNullptrError, match=f": {name} is None") as info:
            fn(*args, 0)
        assert info.value.code == 161001


def test_dtypes(mk: Any) -> None:
    a, b, c = mk((4, 8)), mk((8, 2)), mk((4, 2))
    _bad(mm_get_workspace_size, mk((4, 8), np.int32), b, c, 0, match="self has dtype ACL_INT32")
    _bad(mm_get_workspace_size, a, b, mk((4, 2), np.int8), 0, match="out has dtype ACL_INT8")
    _bad(mm_get_workspace_size, mk((4, 8), BF16), b, c, 0, match="does not promote bfloat16")
    _bad(matmul_get_workspace_size, a, mk((8, 2), BF16), c, 0, match="does not promote bfloat16")
    _bad(mm_get_workspace_size, mk((4, 8), F32), mk((8, 2), BF16), c, 0, match="does not promote")


def test_cube_math_type(mk: Any) -> None:
    a, b, c = mk((4, 8)), mk((8, 2)), mk((4, 2))
    for v in (-1, 5, 127):
        _bad(mm_get_workspace_size, a, b, c, v, match="cubeMathType")
    _bad(mm_get_workspace_size, a, b, c, True, match="cubeMathType must be an int8")
    _bad(mm_get_workspace_size, a, b, c, 3, match="USE_HF32")  # float16 inputs
    _bad(mm_get_workspace_size, mk((4, 8), BF16), mk((8, 2), BF16), mk((4, 2), BF16), 2, match="USE_FP16")
    # checked for calls that plan no kernel too: an empty bf16 call with USE_FP16
    _bad(mm_get_workspace_size, mk((0, 8), BF16), mk((8, 2), BF16), mk((0, 2), BF16), 2, match="USE_FP16")
    # documented: cubeMathType has no effect when both inputs are 1-D
    ws, ex = matmul_get_workspace_size(mk((8,), BF16), mk((8,), BF16), mk((), BF16), 2)
    assert ex.op == "Matmul"


def test_ranks(mk: Any) -> None:
    _bad(matmul_get_workspace_size, mk(()), mk((1,)), mk(()), 0, match="self has rank 0")
    _bad(matmul_get_workspace_size, mk((1,) * 7), mk((1, 1)), mk((1,) * 7), 0, match="self has rank 7")
    _bad(mm_get_workspace_size, mk((2, 4, 8)), mk((8, 2)), mk((2, 4, 2)), 0, match="self has rank 3")
    _bad(mm_get_workspace_size, mk((8,)), mk((8, 2)), mk((2,)), 0, match="self has rank 1")
    _bad(batch_mat_mul_get_workspace_size, mk((4, 8)), mk((1, 8, 2)), mk((1, 4, 2)), 0,
         match="self has rank 2")
    _bad(batch_mat_mul_get_workspace_size, mk((1, 4, 8)), mk((1, 8, 2)), mk((4, 2)), 0,
         match="out has rank 2")


def test_shapes(mk: Any) -> None:
    _bad(mm_get_workspace_size, mk((4, 8)), mk((7, 2)), mk((4, 2)), 0, match="K must match|differ")
    _bad(matmul_get_workspace_size, mk((8,)), mk((9,)), mk(()), 0, match="differ")
    _bad(matmul_get_workspace_size, mk((2, 4, 8)), mk((3, 8, 2)), mk((3, 4, 2)), 0,
         match="cannot be broadcast")
    _bad(batch_mat_mul_get_workspace_size, mk((2, 4, 8)), mk((3, 8, 2)), mk((3, 4, 2)), 0,
         match="cannot be broadcast")
    _bad(mm_get_workspace_size, mk((4, 8)), mk((8, 2)), mk((2, 4)), 0, match=r"out has shape \[2, 4\]")
    _bad(matmul_get_workspace_size, mk((4, 8)), mk((8,)), mk((4, 1)), 0, match=r"expected \[4\]")
    store = mk((4, 2))
    _bad(mm_get_workspace_size, mk((4, 8)), mk((8, 2)), store.view((4, 2), (0, 1)), 0, match="stride 0")


def test_destroyed_tensor_and_state_kept(mk: Any) -> None:
    a, b, c = mk((4, 8)), mk((8, 2)), mk((4, 2))
    d = create_tensor([4, 8], DataType.ACL_FLOAT16, device_addr=a.desc.device_addr)
    destroy_tensor(d)
    _bad(mm_get_workspace_size, d, b, c, 0, match="destroyed")
    assert (a.desc.alive, b.desc.alive, c.desc.alive) == (True, True, True)
    ws, ex = mm_get_workspace_size(a, b, c, 0)  # the same tensors still plan
    assert ex.alive


def test_phase_two_rules(mk: Any) -> None:
    a, b, c = mk((4, 40), F32), mk((2, 40), F32), mk((4, 2), F32)
    bt = b.view((40, 2), (1, 40))
    at = mk((40, 4), F32).view((4, 40), (1, 4))  # float32 A stored K x M: a transposed copy
    ws, ex = matmul_get_workspace_size(at, bt, c, 0)
    assert ws > 0
    with pytest.raises(AclnnParamInvalidError, match="smaller than"):
        matmul(aclsim.malloc(512), ws - 512, ex, None)
    with pytest.raises(AclnnNullptrError, match="workspace is None"):
        matmul(None, ws, ex, None)
    with pytest.raises(AclnnNullptrError, match="freed"):
        matmul(None, ws, ex, None)
    with pytest.raises(AclnnNullptrError):
        matmul(None, 0, None, None)
    assert a.desc.alive
