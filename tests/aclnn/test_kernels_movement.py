"""The strided copy kernel (plan_view_copy + view_copy_kernel) against NumPy's as_strided views:
every dtype, broadcasts, permutations, slices with steps, strided destinations, odd sizes, rank 0,
empty views; plans and their errors."""

from __future__ import annotations

import itertools
import math

import ml_dtypes
import numpy as np
import pytest
from numpy.lib.stride_tricks import as_strided

import aclsim
from aclsim.aclnn.kernels.movement import (
    contiguous_strides as contiguous,
)
from aclsim.aclnn.kernels.movement import (
    plan_permute,
    plan_slice,
    plan_view_copy,
    view_copy_kernel,
)
from aclsim.arch import get_chip
from aclsim.errors import AclnnParamInvalidError
from aclsim.isa import Pipe

TINY = get_chip("tiny")
ALL_DTYPES = [np.float32, np.float16, ml_dtypes.bfloat16, np.int8, np.int16, np.int32, np.int64, np.uint8,
              np.uint16, np.uint32, np.uint64, np.bool_, np.float64, np.complex64, np.complex128]


def _view(storage: np.ndarray, shape, strides, offset) -> np.ndarray:
    isz = storage.dtype.itemsize
    return as_strided(storage[offset:], shape=tuple(shape), strides=tuple(s * isz for s in strides),
                      writeable=True)


def _storage(rng: np.random.Generator, dtype: np.dtype, n: int) -> np.ndarray:
    n = max(n, 1)
    if dtype == np.bool_:
        return rng.integers(0, 2, n).astype(np.bool_)
    return rng.integers(0, 256, n * dtype.itemsize, dtype=np.uint8).view(dtype)  # any bit pattern


def run_view_copy(shape, dtype, ss, so, ds, do, *, chip=TINY, seed=0):
    """Copies the src view into the dst view on the device; returns (plan, launch, got, expected)."""
    dt = np.dtype(dtype)
    plan = plan_view_copy(shape, dt, ss, so, ds, do, chip)
    rng = np.random.default_rng(seed)
    src = _storage(rng, dt, plan.src_span + 3)
    dst = _storage(rng, dt, plan.dst_span + 3)
    expect = dst.copy()
    if plan.numel:
        _view(expect, shape, ds, do)[...] = _view(src, shape, ss, so)
    bs, bd = aclsim.malloc(src.nbytes), aclsim.malloc(dst.nbytes)
    launch = None
    try:
        aclsim.memcpy(bs, src.nbytes, src, src.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
        aclsim.memcpy(bd, dst.nbytes, dst, dst.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
        if not plan.empty:
            launch = view_copy_kernel(plan)[plan.block_dim, None](bs, bd)
            aclsim.synchronize_device()
        got = np.empty_like(dst)
        aclsim.memcpy(got, got.nbytes, bd, dst.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    finally:
        aclsim.free(bs)
        aclsim.free(bd)
    if launch is not None:
        assert launch.error is None and not launch.diagnostics
    return plan, launch, got, expect


def check(shape, dtype, ss, so, ds, do, **kw):
    plan, launch, got, expect = run_view_copy(shape, dtype, ss, so, ds, do, **kw)
    assert got.view(np.uint8).tolist() == expect.view(np.uint8).tolist()
    return plan, launch


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def test_every_dtype_contiguous_transposed_and_sliced(rt, dtype) -> None:
    # contiguous with a tail that is no multiple of 32 B, from an offset
    plan, _ = check((5, 7), dtype, (7, 1), 3, (7, 1), 1)
    assert plan.mode == "run"
    # transpose (element-granular gather)
    plan, _ = check((6, 5), dtype, (1, 6), 0, (5, 1), 0)
    # (a 16 B element moves as a run of two uint64 per block)
    assert (plan.mode, plan.block_elems) == (("run", 2) if np.dtype(dtype).itemsize == 16 else ("element", 1))
    # slice with steps in both dims
    check((3, 4), dtype, (2 * 11, 3), 2, (4, 1), 0)


@pytest.mark.parametrize("rank", [2, 3, 4, 5])
def test_permutations(rt, rank) -> None:
    base = (2, 3, 5, 2, 3)[:rank]
    perms = list(itertools.permutations(range(rank)))
    if len(perms) > 8:
        perms = [perms[i] for i in np.random.default_rng(rank).choice(len(perms), 8, replace=False)]
    src_strides = contiguous(base)
    for perm in perms:
        shape = tuple(base[p] for p in perm)
        check(shape, np.float16, tuple(src_strides[p] for p in perm), 0, contiguous(shape), 0)


def test_view_copy_into_strided_destinations(rt) -> None:
    # contiguous src into a transposed out (ViewCopy): scatter
    check((4, 9), np.float32, (9, 1), 0, (1, 4), 0)
    # into every other row and a column window of a wider storage
    check((3, 5), np.int16, (5, 1), 0, (2 * 13, 1), 4)
    # both strided
    check((4, 3), np.int64, (7, 2), 1, (1, 5), 2)


@pytest.mark.parametrize(("shape", "ss"), [
    ((3, 5), (1, 0)),         # a column broadcast along the rows: the innermost dim repeats
    ((4, 37), (0, 1)),        # a row broadcast: a run of 74 B repeated in UB
    ((2, 3, 4), (0, 0, 0)),   # a scalar filling a tensor
    ((3, 2, 6), (6, 0, 1)),   # a middle-dim broadcast
])
def test_broadcasts(rt, shape, ss) -> None:
    check(shape, np.float16, ss, 2, contiguous(shape), 0)
    check(shape, np.int32, ss, 0, contiguous(shape), 0)


def test_rank0_and_size1_dims(rt) -> None:
    plan, launch = check((), np.float32, (), 5, (), 3)
    assert plan.block_dim == 1 and launch is not None
    check((1, 1, 1), np.uint8, (9, 9, 9), 4, (0, 0, 0), 0)  # strides of size-1 dims do not matter


def test_empty_views_need_no_launch(rt) -> None:
    plan, launch = check((3, 0, 2), np.float32, (0, 2, 1), 0, (0, 2, 1), 0)
    assert plan.empty and plan.block_dim == 0 and plan.units == 0 and launch is None
    with pytest.raises(ValueError, match="empty"):
        view_copy_kernel(plan)


def test_long_run_is_chunked_and_spread_over_the_cores(rt) -> None:
    n = 50_003  # float32: 200 kB, longer than a UB tile; tail of 12 B
    plan, launch = check((n,), np.float32, (1,), 1, (1,), 0)
    assert plan.chunks >= 2 and plan.block_dim == TINY.cores
    assert plan.tile_bytes * 2 <= TINY.ub_usable_bytes
    per_core = [len(plan.units_of(b)) for b in range(plan.block_dim)]
    assert max(per_core) - min(per_core) <= 1
    moved = sum(i.cost["bytes"] for s in launch.streams for i in s if i.op == "data_copy_pad")
    assert moved == 2 * n * 4  # every byte read once and written once


def test_rows_batch_into_one_instruction_with_gaps(rt) -> None:
    # 20 rows of 9 int8 out of rows of 40: one data_copy_pad pair per group of rows
    plan, launch = check((20, 9), np.int8, (40, 1), 3, (9, 1), 0)
    assert plan.mode == "run" and plan.count == 20 and plan.groups * plan.group >= 20
    moves = [i for s in launch.streams for i in s if i.op == "data_copy_pad"]
    assert len(moves) == 2 * plan.units < 2 * 20


def test_double_buffered_overlap(rt) -> None:
    # rows longer than a tile, several chunks per core: the load of the next chunk (MTE2) runs
    # while the previous one is written (MTE3)
    plan, launch = check((8, 30_000), np.float32, (30_001, 1), 0, (30_000, 1), 0, chip=TINY)
    assert plan.units >= 2 * plan.block_dim and plan.chunks >= 2
    tl = launch.report.timelines[0]
    loads = [(tl.start[i], tl.end[i]) for i, ins in enumerate(tl.instrs)
             if ins.op == "data_copy_pad" and ins.pipe is Pipe.MTE2]
    stores = [(tl.start[i], tl.end[i]) for i, ins in enumerate(tl.instrs)
              if ins.op == "data_copy_pad" and ins.pipe is Pipe.MTE3]
    assert len(loads) == len(stores) >= 2
    assert loads[1][0] < stores[0][1]  # overlap


def test_plans_on_the_910b_preset() -> None:
    chip = get_chip("910B")
    p = plan_view_copy((4096, 4096), "float16", (4096, 1), 0, (4096, 1), 0, chip)
    assert p.mode == "run" and p.block_dim == chip.cores
    assert p.units % chip.cores == 0 and p.ub_bytes <= chip.ub_usable_bytes
    t = plan_view_copy((4096, 4096), "float16", (1, 4096), 0, (4096, 1), 0, chip)
    assert t.mode == "element" and t.block_dim == chip.cores
    assert t.group <= 4095 and t.group * 32 <= t.tile_bytes
    small = plan_view_copy((3,), "float32", (0,), 0, (1,), 0, chip)
    assert small.block_dim == 1 and small.repeat  # tiny copies are not spread thin


@pytest.mark.parametrize(("args", "what"), [
    (((2, 3), "float32", (3, -1), 0, (3, 1), 0), "negative"),
    (((2, 3), "float32", (3, 1), -1, (3, 1), 0), "negative"),
    (((2, 3), "float32", (3,), 0, (3, 1), 0), "entries"),
    (((2, 3), "float32", (3, 1), 0, (0, 1), 0), "writes one element"),
    (((1,) * 9, "float32", (1,) * 9, 0, (1,) * 9, 0), "rank 9"),
    (((2, 3), "float32", (3, 1.5), 0, (3, 1), 0), "integers"),
    (((2,), "not-a-dtype", (1,), 0, (1,), 0), "dtype"),
])
def test_bad_views_are_refused_with_161002(args, what) -> None:
    with pytest.raises(AclnnParamInvalidError, match=what) as e:
        plan_view_copy(*args, TINY)
    assert e.value.code == 161002


def test_spans_cover_the_views() -> None:
    p = plan_view_copy((3, 4), "int32", (8, 2), 5, (4, 1), 2, TINY)
    assert (p.src_span, p.dst_span) == (5 + 2 * 8 + 3 * 2 + 1, 2 + 11 + 1)
    assert math.prod(p.shape) == p.numel == 12


def _on_device(plan, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    bs, bd = aclsim.malloc(src.nbytes), aclsim.malloc(dst.nbytes)
    try:
        aclsim.memcpy(bs, src.nbytes, src, src.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
        view_copy_kernel(plan)[plan.block_dim, None](bs, bd)
        aclsim.synchronize_device()
        aclsim.memcpy(dst, dst.nbytes, bd, dst.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    finally:
        aclsim.free(bs)
        aclsim.free(bd)
    return dst


def test_permute_plan_runs_as_numpy_transpose(rt) -> None:
    a = np.random.default_rng(1).standard_normal((3, 4, 5)).astype(ml_dtypes.bfloat16)
    dims = (2, -3, 1)
    ref = np.transpose(a, (2, 0, 1))
    plan = plan_permute(a.shape, contiguous(a.shape), 0, dims, ref.shape, contiguous(ref.shape), 0,
                        a.dtype, TINY)
    got = _on_device(plan, a.ravel(), np.zeros(ref.size, a.dtype)).reshape(ref.shape)
    assert got.view(np.uint16).tolist() == ref.view(np.uint16).tolist()


def test_slice_plan_runs_as_numpy_slicing_of_a_strided_self(rt) -> None:
    storage = np.arange(6 * 8, dtype=np.int32)
    shape, strides = (8, 6), (1, 8)  # self is the transpose of a (6, 8) storage
    self_view = storage.reshape(6, 8).T
    for dim, start, end, step in [(0, 1, 100, 3), (1, -5, -1, 2), (-1, 4, 2, 1)]:
        index = [slice(None)] * 2
        index[dim] = slice(start, end, step)
        ref = self_view[tuple(index)]
        plan = plan_slice(shape, strides, 0, dim, start, end, step, ref.shape, contiguous(ref.shape), 0,
                          np.int32, TINY)
        if plan.empty:
            assert ref.size == 0
            continue
        got = _on_device(plan, storage, np.full(ref.size, -1, np.int32)).reshape(ref.shape)
        assert (got == ref).all()
