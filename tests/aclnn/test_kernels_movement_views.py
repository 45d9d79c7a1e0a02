"""Permute's and Slice's shape rules (aclnn-api.md section 6.8) as pure functions, and their errors."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from aclsim.aclnn.kernels.movement import (
    View,
    broadcast_view,
    contiguous_strides,
    permute_shape,
    permute_view,
    plan_permute,
    plan_slice,
    slice_bounds,
    slice_view,
)
from aclsim.arch import get_chip
from aclsim.errors import AclnnParamInvalidError

TINY = get_chip("tiny")


def test_permute_shape_matches_numpy_transpose_with_negative_dims() -> None:
    shape = (2, 3, 5, 7)
    for perm in itertools.permutations(range(4)):
        expect = np.empty(shape, np.int8).transpose(perm).shape
        assert permute_shape(shape, perm) == expect
        negative = tuple(d - 4 if i % 2 else d for i, d in enumerate(perm))
        assert permute_shape(shape, negative) == expect
    assert permute_shape((), ()) == ()


def test_permute_view_reads_self_in_out_order() -> None:
    a = np.arange(2 * 3 * 4).reshape(2, 3, 4)[:, ::2, :]  # a strided self
    strides = tuple(s // a.itemsize for s in a.strides)
    v = permute_view(a.shape, strides, 0, (1, -1, 0))
    t = a.transpose(1, 2, 0)
    assert v == View(t.shape, tuple(s // a.itemsize for s in t.strides), 0)


@pytest.mark.parametrize(("dims", "what"), [
    ((0, 0, 1), "repeats"),
    ((0, 1), "2 entries"),
    ((0, 1, 3), "out of range"),
    ((0, 1, -4), "out of range"),
    ((0, 1, 1.5), "not an integer"),
    (None, "not a sequence"),
])
def test_permute_bad_dims_are_161002(dims, what) -> None:
    with pytest.raises(AclnnParamInvalidError, match=what) as e:
        permute_shape((2, 3, 4), dims)
    assert e.value.code == 161002


def test_permute_rank_over_8_is_161002() -> None:
    with pytest.raises(AclnnParamInvalidError, match="at most 8"):
        permute_shape((1,) * 9, tuple(range(9)))


def test_slice_bounds_agree_with_python_slicing_everywhere() -> None:
    # the documented clamping gives the same elements as Python's slices for every start/end
    for n in range(7):
        for start, end, step in itertools.product(range(-10, 11), range(-10, 11), range(1, 5)):
            s, e, size = slice_bounds(n, start, end, step)
            expect = range(n)[start:end:step]
            assert size == len(expect), (n, start, end, step)
            assert 0 <= s <= e <= n
            if size:
                assert s == expect[0] and s + (size - 1) * step == expect[-1]


def test_slice_bounds_follow_the_documented_formula() -> None:
    assert slice_bounds(10, -11, 5, 1) == (0, 5, 5)      # start < -N -> 0
    assert slice_bounds(10, 10, 12, 1) == (10, 10, 0)    # start >= N -> N
    assert slice_bounds(10, 3, -11, 1) == (3, 3, 0)      # end < -N -> start
    assert slice_bounds(10, 6, -6, 1) == (6, 6, 0)       # (end + N) mod N < start -> start
    assert slice_bounds(10, 1, 10, 4) == (1, 10, 3)      # floor((10 - 1 + 3) / 4)
    assert slice_bounds(0, -1, 1, 1) == (0, 0, 0)        # an empty dim


def test_slice_view_matches_numpy() -> None:
    a = np.arange(4 * 6 * 5).reshape(4, 6, 5).transpose(2, 0, 1)  # non-contiguous self
    strides = tuple(s // a.itemsize for s in a.strides)
    for dim, start, end, step in [(0, 1, 4, 2), (-1, -4, 100, 3), (1, 2, 2, 1), (2, -100, -2, 1)]:
        v = slice_view(a.shape, strides, 0, dim, start, end, step)
        index = [slice(None)] * 3
        index[dim] = slice(start, end, step)
        ref = a[tuple(index)]
        assert v.shape == ref.shape
        if ref.size:
            base = np.arange(a.size)  # a's storage: element i holds i
            got = np.lib.stride_tricks.as_strided(base[v.offset:], v.shape,
                                                  tuple(s * base.itemsize for s in v.strides))
            assert (got == ref).all()


@pytest.mark.parametrize(("args", "what"), [
    (((4, 5), (5, 1), 0, 2, 0, 3, 1), "out of range"),
    (((4, 5), (5, 1), 0, 0, 0, 3, 0), "step 0 must be > 0"),
    (((4, 5), (5, 1), 0, 0, 0, 3, -1), "must be > 0"),
    (((), (), 0, 0, 0, 1, 1), "rank 0"),
    (((1,) * 9, (1,) * 9, 0, 0, 0, 1, 1), "rank 9"),
    (((4, 5), (5, 1), 0, 0, 0.5, 3, 1), "start 0.5 is not an integer"),
])
def test_slice_bad_arguments_are_161002(args, what) -> None:
    with pytest.raises(AclnnParamInvalidError, match=what) as e:
        slice_view(*args)
    assert e.value.code == 161002


def test_plans_check_out_shape() -> None:
    with pytest.raises(AclnnParamInvalidError, match=r"out has shape \(2, 3\).*\(3, 2\)"):
        plan_permute((2, 3), (3, 1), 0, (1, 0), (2, 3), (3, 1), 0, "float32", TINY)
    with pytest.raises(AclnnParamInvalidError, match="out has shape"):
        plan_slice((4, 10), (10, 1), 0, 1, 0, 5, 1, (4, 4), (4, 1), 0, "float32", TINY)
    p = plan_slice((4, 10), (10, 1), 0, 1, 0, 5, 2, (4, 3), (3, 1), 0, "float32", TINY)
    assert (p.shape, p.src_strides, p.src_offset) == ((4, 3), (10, 2), 0)


def test_contiguous_strides_match_numpy() -> None:
    for shape in [(), (5,), (2, 3, 4), (3, 0, 2), (1, 7, 1)]:
        a = np.empty(shape, np.int16)
        if a.size:
            assert contiguous_strides(shape) == tuple(s // 2 for s in a.strides)
    assert contiguous_strides((3, 0, 2)) == (2, 2, 1)


def test_broadcast_view_matches_numpy_broadcast_to() -> None:
    a = np.arange(12, dtype=np.int32).reshape(3, 4)[:, 1:2]  # (3, 1), strides (4, 1)
    v = broadcast_view(a.shape, (4, 1), 1, (2, 3, 5))
    ref = np.broadcast_to(a, (2, 3, 5))
    assert v == View((2, 3, 5), tuple(s // 4 for s in ref.strides), 1)
    with pytest.raises(AclnnParamInvalidError, match="cannot broadcast") as e:
        broadcast_view((3, 2), (2, 1), 0, (3, 5))
    assert e.value.code == 161002
    with pytest.raises(AclnnParamInvalidError, match="more dims"):
        broadcast_view((2, 3), (3, 1), 0, (3,))
