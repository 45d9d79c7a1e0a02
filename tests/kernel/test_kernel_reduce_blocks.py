"""The reductions real kernels use: block/pair/repeat reduce, whole reduce at element-aligned results,
and the reductions in counter mode and from the mask register, each against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.errors import TaskError

rng = np.random.default_rng(77)


def tree_sum(rows: np.ndarray) -> np.ndarray:
    """The documented binary-tree sum of each row (pairs, then pairs of pairs), in the rows' dtype."""
    x = rows
    while x.shape[-1] > 1:
        x = x[..., 0::2] + x[..., 1::2]
    return x[..., 0]


def test_whole_reduce_results_need_only_element_alignment(vec) -> None:
    # WholeReduceSum: dst 2 B aligned for half; WholeReduceMax/Min: 4 B (a value/index pair)
    x = rng.uniform(-4, 4, 256).astype(np.float16)
    rows = x.reshape(2, 128)

    def body(s, m, a):
        asc.whole_reduce_sum(s[1:], a, 128, 2, 1, 1, 8)     # 2 B past a 32 B boundary
        asc.whole_reduce_max(m[2:], a, 128, 2, 1, 1, 8)     # 4 B past
        asc.repeat_reduce_sum(s[5:], a, 2, 128, 0, 1, 1, 8)  # 10 B past

    s, m = vec(body, [x], [np.zeros(16, np.float16), np.zeros(16, np.float16)])
    assert s[1:3].tolist() == tree_sum(rows).tolist() == s[5:7].tolist()
    assert m[2:6:2].tolist() == rows.max(1).tolist()
    assert m[3:6:2].view(np.uint16).tolist() == np.argmax(rows, 1).tolist()


def test_reduce_results_keep_their_documented_alignment(vec) -> None:
    x = np.ones(256, np.float32)
    with pytest.raises(TaskError) as info:  # WholeReduceMax's float dst: 8 B
        vec(lambda m, a: asc.whole_reduce_max(m[1:], a, 64, 1, 1, 1, 8), [x], [np.zeros(16, np.float32)])
    e = info.value.cause
    assert isinstance(e, errors.MisalignedAccessError) and "not 8 B aligned" in str(e)
    assert e.code == errors.ACL_ERROR_RT_VECTOR_CORE_EXCEPTION and e.file == __file__
    with pytest.raises(TaskError, match=r"src UB address \d+ is not 32 B aligned"):  # src stays 32 B
        vec(lambda m, a: asc.whole_reduce_sum(m, a[1:], 64, 1, 1, 1, 8), [x], [np.zeros(16, np.float32)])


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_block_reduce(vec, dtype) -> None:
    per_rep, epb = 256 // np.dtype(dtype).itemsize, 32 // np.dtype(dtype).itemsize
    x = rng.uniform(-4, 4, 3 * per_rep).astype(dtype)
    blocks = x.reshape(3, 8, epb)
    init = np.full(48, 7, dtype)

    def body(s, mx, mn, a):
        asc.block_reduce_sum(s, a, 3, per_rep, 1, 1, 8)
        asc.block_reduce_max(mx, a, 3, per_rep, 2, 1, 8)  # dst repeat stride 2: every other group of 8
        asc.block_reduce_min(mn, a, 2, per_rep, 1, 1, 16)  # src repeat stride 16: repeats 0 and 2

    s, mx, mn = vec(body, [x], [init] * 3)
    assert s[:24].tolist() == tree_sum(blocks).ravel().tolist() and s[24:].tolist() == init[24:].tolist()
    assert mx[0:8].tolist() == blocks[0].max(1).tolist() and mx[8:16].tolist() == init[8:16].tolist()
    assert mx[16:24].tolist() == blocks[1].max(1).tolist() and mx[32:40].tolist() == blocks[2].max(1).tolist()
    assert mn[:16].tolist() == blocks[[0, 2]].min(2).ravel().tolist()


def test_block_reduce_masks_lanes_and_skips_empty_blocks(vec) -> None:
    # float32: 8 per block; bit mask keeps lanes 0..2 of each block, and no lane of blocks 6, 7
    x = rng.integers(-50, 50, 64).astype(np.float32)
    word = sum(0b111 << (8 * b) for b in range(6))
    (s,) = vec(lambda s, a: asc.block_reduce_sum(s, a, 1, [word], 1, 1, 8), [x], [np.full(8, -1, np.float32)])
    assert s[:6].tolist() == x.reshape(8, 8)[:6, :3].sum(1).tolist() and s[6:].tolist() == [-1, -1]


def test_block_reduce_half_saturates_as_documented(vec) -> None:
    x = np.zeros(128, np.float16)
    x[:4] = [60000, 60000, -30000, 100]  # the documented example: 60000 + 60000 saturates at 65504
    h = np.float16
    expect = h(65504) + (h(-30000) + h(100))  # "65504 - 29900 = 35604", rounded to half: 35584
    (s,) = vec(lambda s, a: asc.block_reduce_sum(s, a, 1, 128, 1, 1, 8), [x], [np.zeros(16, np.float16)])
    assert s[0] == expect == h(35584)
    (w,) = vec(lambda w, a: asc.whole_reduce_sum(w, a, 4, 1, 1, 1, 8), [x], [np.zeros(16, np.float16)])
    assert w[0] == expect


def test_block_reduce_checks(vec) -> None:
    x = np.ones(128, np.float16)
    with pytest.raises(TaskError, match="not 16 B aligned"):  # half results: 16 B
        vec(lambda s, a: asc.block_reduce_sum(s[4:], a, 1, 128, 1, 1, 8), [x], [np.zeros(32, np.float16)])
    vec(lambda s, a: asc.block_reduce_sum(s[8:], a, 1, 128, 1, 1, 8), [x], [np.zeros(32, np.float16)])
    with pytest.raises(TaskError, match="block_reduce_sum does not support int32"):
        vec(lambda s, a: asc.block_reduce_sum(s, a, 1, 64, 1, 1, 8), [np.ones(64, np.int32)],
            [np.zeros(8, np.int32)])
    with pytest.raises(TaskError, match="results reach element 23, past dst's buffer") as info:
        vec(lambda s, a: asc.block_reduce_sum(s, a, 2, 128, 2, 1, 0), [x], [np.zeros(16, np.float16)])
    assert isinstance(info.value.cause, errors.LocalOutOfRangeError) and info.value.cause.file == __file__


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_pair_reduce_sum(vec, dtype) -> None:
    per_rep = 256 // np.dtype(dtype).itemsize
    x = rng.integers(-100, 100, 2 * per_rep).astype(dtype)
    init = np.full(2 * per_rep, 5, dtype)
    # continuous mask of per_rep - 3 lanes: the last pair has one lane (its partner counts as 0), the
    # pair past it none (not written); dst repeat stride 2 (units of 128 B)
    (s,) = vec(lambda s, a: asc.pair_reduce_sum(s, a, 2, per_rep - 3, 2, 1, 8), [x], [init])
    half = per_rep // 2
    rows = x.reshape(2, per_rep).copy()
    rows[:, per_rep - 3:] = 0
    sums = rows.reshape(2, half, 2).sum(2)
    expect = init.copy()
    for r in range(2):
        expect[2 * half * r: 2 * half * r + half - 1] = sums[r, : half - 1]
    assert s.tolist() == expect.tolist()


def test_repeat_reduce_sum_takes_a_count_only(vec) -> None:
    x = np.ones(128, np.float32)
    (s,) = vec(lambda s, a: asc.repeat_reduce_sum(s, a, 2, 40, 99, 1, 3, 8), [x], [np.zeros(8, np.float32)])
    assert s.tolist() == [40, 0, 0, 40, 0, 0, 0, 0]
    with pytest.raises(TaskError, match="repeat_reduce_sum: mask is a count"):
        vec(lambda s, a: asc.repeat_reduce_sum(s, a, 1, [7], 1, 1, 1, 8), [x], [np.zeros(8, np.float32)])


def test_reductions_in_counter_mode(vec) -> None:
    # 150 floats: counter mode runs ceil(150 / 64) = 3 repeats (the last of 22), repeat_times ignored
    x = rng.integers(-20, 20, 192).astype(np.float32)

    def body(w, b, m, a):
        asc.set_mask_count()
        asc.set_vector_mask(0, 150)
        asc.whole_reduce_sum(w, a, asc.MASK_PLACEHOLDER, 1, 1, 1, 8, is_set_mask=False)
        asc.block_reduce_sum(b, a, 1, asc.MASK_PLACEHOLDER, 1, 1, 8, is_set_mask=False)
        asc.whole_reduce_max(m, a, asc.MASK_PLACEHOLDER, 1, 1, 1, 8, is_set_mask=False)
        asc.set_mask_norm()
        asc.reset_mask()

    w, b, m = vec(body, [x], [np.zeros(8, np.float32), np.full(24, -1, np.float32), np.zeros(8, np.float32)])
    rows = [x[0:64], x[64:128], x[128:150]]
    assert w[:3].tolist() == [float(r.sum()) for r in rows] and w[3:].tolist() == [0] * 5
    blocks = [x[i:min(i + 8, 150)].sum() for i in range(0, 150, 8)]  # 19 blocks, the last of 6
    assert b[:19].tolist() == blocks and b[19:].tolist() == [-1] * 5
    assert m[0:6:2].tolist() == [float(r.max()) for r in rows]
    assert m[1:6:2].view(np.uint32).tolist() == [int(np.argmax(r)) for r in rows]
