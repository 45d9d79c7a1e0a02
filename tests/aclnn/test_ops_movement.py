"""Permute, Slice and InplaceCopy against NumPy (exact): every listed dtype, strided inputs and
outputs, broadcasting and casts, overlap through the workspace, empty tensors, rank 0."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from aclnn_support import run_op

from aclsim.aclnn import Tensor
from aclsim.aclnn.dtypes import numpy_dtype
from aclsim.aclnn.ops.movement import (
    CAST_DTYPES,
    COPY_DTYPES,
    PERMUTE_DTYPES,
    SLICE_DTYPES,
    inplace_copy,
    inplace_copy_get_workspace_size,
    permute,
    permute_get_workspace_size,
    slice_,
    slice_get_workspace_size,
)


def _data(shape: tuple[int, ...], dt: np.dtype, seed: int = 0) -> np.ndarray:
    r = np.random.default_rng(seed)
    if dt == np.bool_:
        return r.integers(0, 2, shape).astype(bool)
    if dt.kind == "c":
        return (r.standard_normal(shape) + 1j * r.standard_normal(shape)).astype(dt)
    if dt.kind in "iu":
        return r.integers(0, 100, shape).astype(dt)
    return (r.integers(0, 400, shape) / 4).astype(dt)  # multiples of 1/4 up to 100


def _bits(a: np.ndarray) -> np.ndarray:
    """Exact comparison, NaN payloads included: the bytes of each element."""
    a = np.ascontiguousarray(a)
    return a.view(np.uint8).reshape(a.shape + (a.dtype.itemsize,)) if a.size else a


def _equal(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(_bits(got), _bits(want))


def _view(dev: Any, storage: np.ndarray, view: np.ndarray) -> Tensor:
    """A device Tensor over ``storage`` describing the NumPy view ``view`` of it."""
    t = dev(storage)
    isz = storage.dtype.itemsize
    offset = (view.__array_interface__["data"][0] - storage.__array_interface__["data"][0]) // isz
    return t.view(view.shape, [s // isz for s in view.strides], offset)


# --- Permute -------------------------------------------------------------------------------------


@pytest.mark.parametrize("acl_dt", PERMUTE_DTYPES, ids=lambda d: d.name)
def test_permute_reference_example_every_dtype(dev: Any, acl_dt: Any) -> None:
    dt = numpy_dtype(acl_dt)
    a = _data((2, 3, 5), dt)
    out = dev(np.zeros((5, 2, 3), dt))
    ex = run_op(permute_get_workspace_size, permute, dev(a), [2, 0, 1], out)
    assert out.numpy().shape == (5, 2, 3)
    _equal(out.numpy(), a.transpose(2, 0, 1))
    assert ex.workspace_size == 0


@pytest.mark.parametrize(
    ("shape", "dims"),
    [((), ()), ((7,), (0,)), ((3, 4), (-1, -2)), ((2, 3, 4, 5), (3, 1, 0, 2)), ((2, 1, 33), (2, 0, 1))],
)
def test_permute_ranks_and_negative_dims(dev: Any, shape: tuple[int, ...], dims: tuple[int, ...]) -> None:
    a = _data(shape, np.dtype(np.float16), 1)
    want = np.transpose(a, dims) if a.ndim else a
    out = dev(np.zeros(want.shape, a.dtype))
    run_op(permute_get_workspace_size, permute, dev(a), list(dims), out)
    _equal(out.numpy(), want)


def _whole(t: Tensor, shape: tuple[int, ...]) -> np.ndarray:
    """The whole (contiguous) storage a view lies in, read back."""
    strides, acc = [], 1
    for n in reversed(shape):
        strides.insert(0, acc)
        acc *= n
    return t.view(shape, strides, 0).numpy()


def test_permute_strided_self_and_out(dev: Any) -> None:
    base = _data((6, 9, 4), np.dtype(np.float32), 2)
    src = base[1:5, ::2, 1:]  # (4, 5, 3): an offset, a stride-2 dim, a cut inner dim
    want = src.transpose(2, 0, 1)  # (3, 4, 5)
    storage = np.full((5, 4, 12), -1, np.float32)
    out = _view(dev, storage, storage[1:4, :, 2:12:2])  # (3, 4, 5): an offset, inner stride 2
    ex = run_op(permute_get_workspace_size, permute, _view(dev, base, src), [2, 0, 1], out)
    assert ex.workspace_size == 0
    _equal(out.numpy(), want)
    expect = storage.copy()
    expect[1:4, :, 2:12:2] = want
    _equal(_whole(out, storage.shape), expect)  # nothing written outside out's view


def test_permute_into_its_own_storage_goes_through_the_workspace(dev: Any) -> None:
    """out and self are the same memory: the device's Transpose writes a workspace intermediate,
    aclsim stages self there (a direct copy would read elements it has already overwritten)."""
    a = _data((8, 8), np.dtype(np.int32), 3)
    t = dev(a)
    out = t.view((8, 8), (8, 1), 0)
    ex = run_op(permute_get_workspace_size, permute, t, [1, 0], out)
    assert ex.workspace_size > 0
    _equal(out.numpy(), a.T)


def test_permute_empty_needs_no_kernel(dev: Any) -> None:
    a = np.zeros((3, 0, 2), np.float32)
    out = dev(np.zeros((2, 3, 0), np.float32))
    ws, ex = permute_get_workspace_size(dev(a), [2, 0, 1], out)
    assert ws == 0 and ex.steps == []
    permute(None, ws, ex, None)


def test_permute_repeatable_executor_rebinds_self(dev: Any) -> None:
    from aclsim.aclnn import set_executor_repeatable, set_input_tensor_addr

    a, b = _data((4, 6), np.dtype(np.float32), 4), _data((4, 6), np.dtype(np.float32), 5)
    ta, tb, out = dev(a), dev(b), dev(np.zeros((6, 4), np.float32))
    ws, ex = permute_get_workspace_size(ta, np.array([1, 0]), out)  # dims as a NumPy array
    set_executor_repeatable(ex)
    permute(None, ws, ex, None)
    _equal(out.numpy(), a.T)
    set_input_tensor_addr(ex, 0, ta.desc, tb.desc.device_addr)
    permute(None, ws, ex, None)
    _equal(out.numpy(), b.T)


# --- Slice ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("acl_dt", SLICE_DTYPES, ids=lambda d: d.name)
def test_slice_every_dtype(dev: Any, acl_dt: Any) -> None:
    dt = numpy_dtype(acl_dt)
    a = _data((3, 11), dt, 6)
    out = dev(np.zeros((3, 4), dt))
    run_op(slice_get_workspace_size, slice_, dev(a), 1, 1, 9, 2, out)
    _equal(out.numpy(), a[:, 1:9:2])


@pytest.mark.parametrize(
    ("dim", "start", "end", "step"),
    [
        (0, -100, 100, 1),  # both clamped to the whole dim
        (1, -3, 100, 2),  # negative start, end past the dim
        (-1, 5, 2, 1),  # end before start: empty
        (1, 11, 20, 1),  # start at N: empty
        (0, 1, -1, 1),  # negative end
        (1, -20, -20, 3),  # end < -N -> start
        (-2, 2, 3, 5),
    ],
)
def test_slice_clamping_matches_python_slicing(dev: Any, dim: int, start: int, end: int, step: int) -> None:
    a = _data((4, 11), np.dtype(np.float32), 7)
    idx: list[Any] = [slice(None)] * 2
    idx[dim] = slice(start, end, step)
    want = a[tuple(idx)]
    out = dev(np.zeros(want.shape, np.float32))
    ex = run_op(slice_get_workspace_size, slice_, dev(a), dim, start, end, step, out)
    _equal(out.numpy(), want)
    assert (ex.steps == []) == (want.size == 0)


def test_slice_strided_self_and_out(dev: Any) -> None:
    base = _data((5, 12, 3), np.dtype(np.int8), 8)
    src = base[::2, 1:, 1]  # (3, 11), strides (72, 3)
    want = src[:, 2:11:3]  # (3, 3)
    storage = np.zeros((4, 7), np.int8)
    out = _view(dev, storage, storage[::1, 1:7:2][1:])  # (3, 3), offset 8, strides (7, 2)
    run_op(slice_get_workspace_size, slice_, _view(dev, base, src), -1, 2, 11, 3, out)
    _equal(out.numpy(), want)


def test_slice_of_odd_sizes_and_rank_1(dev: Any) -> None:
    a = _data((1001,), np.dtype(np.float16), 9)
    out = dev(np.zeros((997,), np.float16))
    run_op(slice_get_workspace_size, slice_, dev(a), 0, 3, -1, 1, out)
    _equal(out.numpy(), a[3:-1])


# --- InplaceCopy ---------------------------------------------------------------------------------


@pytest.mark.parametrize("acl_dt", COPY_DTYPES, ids=lambda d: d.name)
def test_inplace_copy_broadcast_every_dtype(dev: Any, acl_dt: Any) -> None:
    dt = numpy_dtype(acl_dt)
    src = _data((3, 1), dt, 10)
    self_ref = dev(_data((4, 3, 5), dt, 11))
    ex = run_op(inplace_copy_get_workspace_size, inplace_copy, self_ref, dev(src))
    _equal(self_ref.numpy(), np.broadcast_to(src, (4, 3, 5)).copy())
    assert ex.workspace_size == 0


def test_inplace_copy_reference_example(dev: Any) -> None:
    self_ref = dev(np.array([[1, 2], [3, 4]], np.int64))
    run_op(inplace_copy_get_workspace_size, inplace_copy, self_ref, dev(np.array([[5, 6], [7, 8]], np.int64)))
    _equal(self_ref.numpy(), np.array([[5, 6], [7, 8]], np.int64))


def _cast_ref(a: np.ndarray, dt: np.dtype) -> np.ndarray:
    return (a != 0) if dt == np.bool_ else a.astype(dt)


@pytest.mark.parametrize("src_dt", CAST_DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("dst_dt", CAST_DTYPES, ids=lambda d: d.name)
def test_inplace_copy_converts_to_self_dtype(dev: Any, src_dt: Any, dst_dt: Any) -> None:
    s, d = numpy_dtype(src_dt), numpy_dtype(dst_dt)
    src = _data((2, 37), s, 12)
    self_ref = dev(np.zeros((2, 37), d))
    run_op(inplace_copy_get_workspace_size, inplace_copy, self_ref, dev(src))
    _equal(self_ref.numpy(), _cast_ref(src, d))


def test_inplace_copy_cast_truncates_toward_zero(dev: Any) -> None:
    src = np.array([-2.75, -1.5, -0.25, 0.25, 1.5, 2.75, 100.9], np.float32)
    self_ref = dev(np.zeros(7, np.int32))
    run_op(inplace_copy_get_workspace_size, inplace_copy, self_ref, dev(src))
    _equal(self_ref.numpy(), np.array([-2, -1, 0, 0, 1, 2, 100], np.int32))


@pytest.mark.parametrize("cast", [False, True])
def test_inplace_copy_strided_self_and_src(dev: Any, cast: bool) -> None:
    s_dt = np.dtype(np.float16)
    d_dt = np.dtype(np.float32) if cast else s_dt
    base = _data((6, 10), s_dt, 13)
    src = base[1:, ::3].T  # (4, 5): inner stride 30 elements
    storage = np.full((9, 9), -1, d_dt)
    self_ref = _view(dev, storage, storage[2:7, 1:9:2].T)  # (4, 5), strides (2, 9): transposed
    run_op(inplace_copy_get_workspace_size, inplace_copy, self_ref, _view(dev, base, src))
    _equal(self_ref.numpy(), src.astype(d_dt))
    expect = storage.copy()
    expect[2:7, 1:9:2] = src.T.astype(d_dt)
    _equal(_whole(self_ref, storage.shape), expect)


@pytest.mark.parametrize("dt", [np.dtype(np.int32), np.dtype(np.float32)])
def test_inplace_copy_overlapping_src_goes_through_the_workspace(dev: Any, dt: np.dtype) -> None:
    """src = storage[0:n-1], selfRef = storage[1:n] (as memmove): read directly, the later
    work units would read elements the earlier ones overwrote; staged in the workspace, every
    element is the old one.  The cast case (a float32 selfRef over the same bytes) too."""
    n = 40000  # a run of 4 work units on the tiny preset
    a = _data((n,), np.dtype(np.int32), 14)
    t = dev(a)
    src = t.view((n - 1,), (1,), 0)
    if dt == np.int32:
        self_ref = t.view((n - 1,), (1,), 1)
        want = a[:-1]
    else:
        self_ref = Tensor(t.buffer, _reinterpret(t, np.float32, (n - 1,), 1))
        want = a[:-1].astype(np.float32)
    ex = run_op(inplace_copy_get_workspace_size, inplace_copy, self_ref, src)
    assert ex.workspace_size > 0
    _equal(self_ref.numpy(), want)


def _reinterpret(t: Tensor, dt: Any, shape: tuple[int, ...], offset: int) -> Any:
    from aclsim.aclnn import create_tensor
    from aclsim.aclnn.dtypes import data_type_of

    d = t.desc
    return create_tensor(list(shape), data_type_of(dt), None, offset, d.format, d.storage_dims, d.device_addr)


def test_inplace_copy_broadcast_row_of_itself(dev: Any) -> None:
    """src is selfRef's first row broadcast over selfRef: the memory overlaps, so src is staged
    (conservative: this overlap happens to be harmless, row 0 is rewritten with itself)."""
    a = _data((5, 6), np.dtype(np.float32), 15)
    t = dev(a)
    ex = run_op(inplace_copy_get_workspace_size, inplace_copy, t, t.view((1, 6), (6, 1), 0))
    assert ex.workspace_size > 0
    _equal(t.numpy(), np.broadcast_to(a[:1], (5, 6)).copy())


def test_inplace_copy_onto_itself_needs_no_workspace(dev: Any) -> None:
    a = _data((5, 6), np.dtype(np.float32), 16)
    t = dev(a)
    ex = run_op(inplace_copy_get_workspace_size, inplace_copy, t, t.view((5, 6), (6, 1), 0))
    assert ex.workspace_size == 0
    _equal(t.numpy(), a)


def test_inplace_copy_rank_0_and_empty(dev: Any) -> None:
    self_ref = dev(np.array(1.5, np.float32))
    run_op(inplace_copy_get_workspace_size, inplace_copy, self_ref, dev(np.array(7, np.int32)))
    _equal(self_ref.numpy(), np.array(7.0, np.float32))
    ws, ex = inplace_copy_get_workspace_size(
        dev(np.zeros((0, 3), np.float32)), dev(np.zeros((1, 3), np.float32))
    )
    assert ws == 0 and ex.steps == []
    inplace_copy(None, ws, ex, None)


@pytest.mark.parametrize("src_shape", [(3, 1), (5,), (1, 1, 1), ()])
def test_inplace_copy_broadcast_and_cast(dev: Any, src_shape: tuple[int, ...]) -> None:
    src = _data(src_shape, np.dtype(np.float32), 17) - 50
    self_ref = dev(np.zeros((4, 3, 5), np.int8))
    run_op(inplace_copy_get_workspace_size, inplace_copy, self_ref, dev(src))
    _equal(self_ref.numpy(), np.broadcast_to(src.astype(np.int8), (4, 3, 5)).copy())
