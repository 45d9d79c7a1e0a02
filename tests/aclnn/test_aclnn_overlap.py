"""Elementwise ops whose inputs partly overlap their output compute from the old values (the
input is staged through the workspace at phase one); a true inplace input is read in place."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from aclnn_support import run_op

from aclsim import aclnn
from aclsim.aclnn import DataType as D
from aclsim.aclnn import create_tensor
from aclsim.aclnn.checks import overlaps, partly_overlaps, same_elements

N = 40000  # several tiles per core on the tiny chip: a store of one tile meets a later load


def test_inplace_add_of_a_shifted_view_reads_the_old_values(dev: Any) -> None:
    a = np.random.default_rng(1).uniform(-4, 4, N).astype(np.float32)
    t = dev(a)
    ex = run_op(
        aclnn.inplace_add_get_workspace_size, aclnn.inplace_add,
        t.view((N - 1,), (1,), 1), t.view((N - 1,), (1,), 0), 1.0,
    )
    want = a.copy()
    want[1:] = a[1:] + a[:-1]
    np.testing.assert_array_equal(t.numpy(), want)
    assert [k.name for k in ex.launches] == ["view_copy", "inplaceadd"]


@pytest.mark.parametrize("shift", [1, -1])
def test_out_overlapping_an_input_reads_the_old_values(dev: Any, shift: int) -> None:
    a = np.random.default_rng(2).uniform(-4, 4, N).astype(np.float32)
    b = np.random.default_rng(3).uniform(-4, 4, N - 1).astype(np.float32)
    t = dev(a)
    src, dst = (0, 1) if shift == 1 else (1, 0)
    ex = run_op(
        aclnn.mul_get_workspace_size, aclnn.mul,
        t.view((N - 1,), (1,), src), dev(b), t.view((N - 1,), (1,), dst),
    )
    want = a.copy()
    want[dst:dst + N - 1] = a[src:src + N - 1] * b
    np.testing.assert_array_equal(t.numpy(), want)
    assert ex.workspace_size > 0


def test_unary_into_a_shifted_view(dev: Any) -> None:
    a = np.random.default_rng(4).uniform(-4, 4, N).astype(np.float32)
    t = dev(a)
    run_op(aclnn.neg_get_workspace_size, aclnn.neg, t.view((N - 1,), (1,), 0), t.view((N - 1,), (1,), 1))
    want = a.copy()
    want[1:] = -a[:-1]
    np.testing.assert_array_equal(t.numpy(), want)


def test_broadcast_row_of_out_is_staged(dev: Any) -> None:
    a = np.random.default_rng(5).uniform(-4, 4, (200, 64)).astype(np.float32)
    t = dev(a)
    ex = run_op(aclnn.inplace_sub_get_workspace_size, aclnn.inplace_sub, t, t.view((64,), (1,), 0), 1.0)
    np.testing.assert_array_equal(t.numpy(), a - a[0])
    assert ex.workspace_size > 0


def test_true_inplace_is_not_staged(dev: Any) -> None:
    a = np.random.default_rng(6).uniform(-4, 4, N).astype(np.float32)
    t = dev(a)
    ex = run_op(aclnn.inplace_mul_get_workspace_size, aclnn.inplace_mul, t, t)
    np.testing.assert_array_equal(t.numpy(), a * a)
    assert ex.workspace_size == 0 and [k.name for k in ex.launches] == ["inplacemul"]


def test_cast_to_a_wider_dtype_over_the_same_bytes_is_staged(dev: Any) -> None:
    inp = np.random.default_rng(7).uniform(-4, 4, N).astype(np.float16)
    host = np.zeros(N, np.float32)
    host.view(np.float16)[:N] = inp  # the f16 input fills the first half of the f32 output's bytes
    t = dev(host)
    halves = create_tensor([N], D.ACL_FLOAT16, device_addr=t.desc.device_addr)
    ex = run_op(aclnn.cast_get_workspace_size, aclnn.cast, halves, D.ACL_FLOAT, t)
    np.testing.assert_array_equal(t.numpy(), inp.astype(np.float32))
    assert [k.name for k in ex.launches] == ["view_copy", "cast"]


def test_overlap_predicates() -> None:
    base = 1 << 20
    a = create_tensor([8], D.ACL_FLOAT, [1], 0, storage_dims=[16], device_addr=base)
    b = create_tensor([8], D.ACL_FLOAT, [1], 1, storage_dims=[16], device_addr=base)
    c = create_tensor([8], D.ACL_FLOAT, [1], 8, storage_dims=[16], device_addr=base)
    assert overlaps(a, b) and not overlaps(a, c)
    assert same_elements(a, (1,), a, (1,), (8,)) and not same_elements(a, (1,), b, (1,), (8,))
    assert partly_overlaps(b, (1,), a, (1,), (8,)) and not partly_overlaps(a, (1,), a, (1,), (8,))
    assert partly_overlaps(a, (0,), a, (1,), (8,))  # a broadcast element of the output
    h = create_tensor([8], D.ACL_FLOAT16, [1], 0, device_addr=base)
    assert partly_overlaps(h, (1,), a, (1,), (8,))  # same first byte, another element size
    assert not overlaps(create_tensor([8], D.ACL_FLOAT), a)  # no address yet
