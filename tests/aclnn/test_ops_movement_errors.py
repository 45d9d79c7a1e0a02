"""Permute, Slice and InplaceCopy: every error path with its status and a message naming the
argument; the registry and the C names."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from aclsim.aclnn import DataType as D
from aclsim.aclnn import create_int_array, create_tensor, destroy_int_array, get_op
from aclsim.aclnn.ops.movement import (
    inplace_copy_get_workspace_size,
    permute_get_workspace_size,
    slice_get_workspace_size,
)
from aclsim.errors import AclnnNullptrError, AclnnParamInvalidError

F32 = np.float32


def _t(shape: tuple[int, ...], dt: Any = D.ACL_FLOAT, strides: Any = None) -> Any:
    return create_tensor(list(shape), dt, strides, 0, 2, None, None)


def _raises(exc: type, match: str, fn: Any, *args: Any) -> None:
    with pytest.raises(exc, match=match) as info:
        fn(*args)
    assert info.value.code == (161001 if exc is AclnnNullptrError else 161002)


@pytest.mark.parametrize(
    ("args", "exc", "match"),
    [
        ((None, [0], "out"), AclnnNullptrError, "Permute: self is None"),
        (("self", None, "out"), AclnnNullptrError, "Permute: dims is None"),
        (("self", [0], None), AclnnNullptrError, "Permute: out is None"),
    ],
)
def test_permute_null_arguments(args: tuple[Any, ...], exc: type, match: str) -> None:
    fill = {"self": _t((3,)), "out": _t((3,))}
    _raises(
        exc, match, permute_get_workspace_size, *(fill.get(a, a) if isinstance(a, str) else a for a in args)
    )


@pytest.mark.parametrize(
    ("self_shape", "dims", "out_shape", "out_dt", "match"),
    [
        ((2, 3), (1, 0), (3, 2), D.ACL_FLOAT16, "out has dtype ACL_FLOAT16, self ACL_FLOAT"),
        ((2, 3), (0,), (2, 3), D.ACL_FLOAT, r"dims \(0,\) has 1 entries for self of rank 2"),
        ((2, 3), (1, 1), (3, 3), D.ACL_FLOAT, "repeats a dim"),
        ((2, 3), (0, 2), (2, 3), D.ACL_FLOAT, "dims entry 2 is out of range for a tensor of rank 2"),
        ((2, 3), (0, -3), (2, 3), D.ACL_FLOAT, "dims entry -3 is out of range"),
        ((2, 3), (1, 0), (2, 3), D.ACL_FLOAT, r"out has shape \[2, 3\], expected \[3, 2\]"),
        ((2, 3), (1, 0), (3, 2, 1), D.ACL_FLOAT, "out has shape"),
    ],
)
def test_permute_invalid(self_shape: Any, dims: Any, out_shape: Any, out_dt: Any, match: str) -> None:
    _raises(
        AclnnParamInvalidError,
        "Permute: .*" + match,
        permute_get_workspace_size,
        _t(self_shape),
        list(dims),
        _t(out_shape, out_dt),
    )


def test_permute_overlapping_out_and_bad_dims() -> None:
    _raises(
        AclnnParamInvalidError,
        "Permute: out has stride 0 on dim 0 of size 2",
        permute_get_workspace_size,
        _t((3, 2)),
        [1, 0],
        _t((2, 3), strides=[0, 1]),
    )
    dims = create_int_array([1, 0])
    destroy_int_array(dims)
    _raises(
        AclnnParamInvalidError,
        "Permute: dims .* was destroyed",
        permute_get_workspace_size,
        _t((3, 2)),
        dims,
        _t((2, 3)),
    )
    _raises(
        AclnnParamInvalidError,
        "Permute: dims must be an AclIntArray",
        permute_get_workspace_size,
        _t((3, 2)),
        5,
        _t((2, 3)),
    )


@pytest.mark.parametrize(
    ("self_shape", "dt", "out_dt", "dim", "start", "end", "step", "out_shape", "match"),
    [
        ((4,), D.ACL_FLOAT, D.ACL_INT32, 0, 0, 4, 1, (4,), "out has dtype ACL_INT32, self ACL_FLOAT"),
        ((4,), D.ACL_INT16, D.ACL_INT16, 0, 0, 4, 1, (4,), "self has dtype ACL_INT16"),
        ((), D.ACL_FLOAT, D.ACL_FLOAT, 0, 0, 1, 1, (), "self has rank 0: Slice takes rank 1..8"),
        ((4, 5), D.ACL_FLOAT, D.ACL_FLOAT, 2, 0, 4, 1, (4, 5), "dim 2 is out of range"),
        ((4, 5), D.ACL_FLOAT, D.ACL_FLOAT, -3, 0, 4, 1, (4, 5), "dim -3 is out of range"),
        ((4, 5), D.ACL_FLOAT, D.ACL_FLOAT, 1, 0, 4, 0, (4, 5), "step 0 must be > 0"),
        ((4, 5), D.ACL_FLOAT, D.ACL_FLOAT, 1, 0, 4, -1, (4, 5), "step -1 must be > 0"),
        ((4, 5), D.ACL_FLOAT, D.ACL_FLOAT, 1, 0, 4, 2, (4, 3), r"out has shape \[4, 3\], expected \[4, 2\]"),
        ((4, 5), D.ACL_FLOAT, D.ACL_FLOAT, 1, 0.5, 4, 1, (4, 4), "start 0.5 is not an integer"),
    ],
)
def test_slice_invalid(
    self_shape: Any,
    dt: Any,
    out_dt: Any,
    dim: Any,
    start: Any,
    end: Any,
    step: Any,
    out_shape: Any,
    match: str,
) -> None:
    _raises(
        AclnnParamInvalidError,
        "Slice: .*" + match,
        slice_get_workspace_size,
        _t(self_shape, dt),
        dim,
        start,
        end,
        step,
        _t(out_shape, out_dt),
    )


def test_slice_null_and_overlapping_out() -> None:
    _raises(AclnnNullptrError, "Slice: self is None", slice_get_workspace_size, None, 0, 0, 1, 1, _t((1,)))
    _raises(AclnnNullptrError, "Slice: out is None", slice_get_workspace_size, _t((1,)), 0, 0, 1, 1, None)
    _raises(
        AclnnParamInvalidError,
        "Slice: out has stride 0",
        slice_get_workspace_size,
        _t((4,)),
        0,
        0,
        2,
        1,
        _t((2,), strides=[0]),
    )


@pytest.mark.parametrize(
    ("self_shape", "self_dt", "src_shape", "src_dt", "strides", "match"),
    [
        (
            (4, 3),
            D.ACL_FLOAT,
            (2, 3),
            D.ACL_FLOAT,
            None,
            r"src of shape \(2, 3\) cannot broadcast to \(4, 3\)",
        ),
        ((3,), D.ACL_FLOAT, (1, 3), D.ACL_FLOAT, None, "has more dims than"),
        # conversions involving float64, int64 or complex run on the AI CPU (test_aclnn_aicpu_ops.py)
        (
            (2, 2),
            D.ACL_COMPLEX64,
            (2, 2),
            D.ACL_COMPLEX64,
            [1, 2],
            "complex selfRef needs it contiguous",
        ),
        ((3, 2), D.ACL_FLOAT, (3, 2), D.ACL_FLOAT, [0, 1], "selfRef has stride 0 on dim 0"),
    ],
)
def test_inplace_copy_invalid(
    self_shape: Any, self_dt: Any, src_shape: Any, src_dt: Any, strides: Any, match: str
) -> None:
    _raises(
        AclnnParamInvalidError,
        "InplaceCopy: .*" + match,
        inplace_copy_get_workspace_size,
        _t(self_shape, self_dt, strides),
        _t(src_shape, src_dt),
    )


def test_inplace_copy_null() -> None:
    _raises(
        AclnnNullptrError, "InplaceCopy: selfRef is None", inplace_copy_get_workspace_size, None, _t((1,))
    )
    _raises(AclnnNullptrError, "InplaceCopy: src is None", inplace_copy_get_workspace_size, _t((1,)), None)


def test_registered_under_aclnn_names_and_c_face(rt: None) -> None:
    from aclsim.aclnn import compat

    assert get_op("Permute").get_workspace_size is permute_get_workspace_size
    assert get_op("Slice").get_workspace_size is slice_get_workspace_size
    assert get_op("InplaceCopy").get_workspace_size is inplace_copy_get_workspace_size
    dims = compat.aclCreateIntArray([1, 0])
    ws, ex, status = compat.aclnnPermuteGetWorkspaceSize(_t((2, 3)), dims, _t((3, 2)))
    assert (ws, status) == (0, 0) and ex is not None
    ws, ex, status = compat.aclnnSliceGetWorkspaceSize(_t((2, 3)), 1, 0, 3, 0, _t((2, 3)))
    assert status == 161002 and ex is None
    assert "step 0 must be > 0" in (compat.aclGetRecentErrMsg() or "")
    ws, ex, status = compat.aclnnInplaceCopyGetWorkspaceSize(None, _t((3,)))
    assert status == 161001
