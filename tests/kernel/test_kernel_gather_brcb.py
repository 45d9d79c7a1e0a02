"""brcb, gather, gather_mask and the UB -> UB vector copy against NumPy (exact), with their recorded
ranges and faults."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.errors import TaskError

rng = np.random.default_rng(11)


@pytest.mark.parametrize("dtype", [np.float16, np.int32])
def test_brcb(vec, dtype) -> None:
    epb = 32 // np.dtype(dtype).itemsize
    x = rng.integers(-100, 100, 16).astype(dtype)
    init = np.full(40 * epb, -7, dtype)
    # 2 repeats, dst block stride 2 and repeat stride 20 blocks
    (z,) = vec(lambda z, a: asc.brcb(z, a, 2, asc.BrcbRepeatParams(2, 20)), [x], [init])
    expect = init.reshape(40, epb).copy()
    for r in range(2):
        for b in range(8):
            expect[r * 20 + 2 * b] = x[8 * r + b]
    assert z.tolist() == expect.ravel().tolist()


def test_brcb_block_stride_zero_counts_as_one(vec) -> None:
    x = np.arange(8, dtype=np.float32)

    def body(z, a):
        asc.set_vector_mask(0, 3)
        asc.brcb(z, a, 1, asc.BrcbRepeatParams(0, 8))
        assert asc.vector_mask_state() == (False, (1 << 64) - 1, (1 << 64) - 1)  # reset, as the library does

    (z,) = vec(body, [x], [np.zeros(64, np.float32)])
    assert z.tolist() == np.repeat(x, 8).tolist()


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_gather_count_and_strided_forms(vec, dtype) -> None:
    isz = np.dtype(dtype).itemsize
    src = rng.integers(-1000, 1000, 300).astype(dtype)
    n = 300  # more than two repeats of half, four of float: full repeats then a tail
    idx = rng.integers(0, 296, n)
    offsets = (idx * isz).astype(np.uint32)
    (z,) = vec(lambda z, s, o: asc.gather(z, s, o, 0, n), [src, offsets], [np.zeros(n, dtype)])
    assert z.tolist() == src[idx].tolist()
    # base address: 4 elements in; strided form: mask 10, 2 repeats, dst repeat stride 4 blocks
    per_rep = 256 // isz
    init = np.full(2 * per_rep, -1, dtype)

    def body(z, s, o):
        asc.gather(z, s, o, 4 * isz, 10, 2, 4)

    (w,) = vec(body, [src, offsets], [init])
    expect = init.copy()
    for r in range(2):
        for j in range(10):
            expect[r * 4 * 32 // isz + j] = src[idx[r * per_rep + j] + 4]
    assert w.tolist() == expect.tolist()


def test_gather_faults(vec) -> None:
    src = np.ones(64, np.float32)
    with pytest.raises(TaskError, match="src offset 6 B is not a multiple of sizeof") as info:
        vec(lambda z, s, o: asc.gather(z, s, o, 2, 8), [src, np.full(8, 4, np.uint32)],
            [np.zeros(8, np.float32)])
    assert isinstance(info.value.cause, errors.MisalignedAccessError) and info.value.cause.file == __file__
    with pytest.raises(TaskError, match="outside the UB"):
        vec(lambda z, s, o: asc.gather(z, s, o, 0, 8), [src, np.full(8, 1 << 30, np.uint32)],
            [np.zeros(8, np.float32)])
    with pytest.raises(TaskError, match="src_offset must be a uint32 tensor"):
        vec(lambda z, s, o: asc.gather(z, s, o, 0, 8), [src, np.zeros(8, np.int32)],
            [np.zeros(8, np.float32)])


def test_gather_mask_builtin_patterns(vec) -> None:
    x = rng.integers(-100, 100, 256).astype(np.float32)  # 4 repeats of 64
    counts = {}

    def body(*outs_and_src):
        *outs, a = outs_and_src
        for pattern, z in zip(range(1, 8), outs, strict=True):
            counts[pattern] = asc.gather_mask(z, a, pattern, False, 0, asc.GatherMaskParams(1, 4, 8, 0))
        assert asc.vector_mask_state() == (False, 0, 0)

    outs = vec(body, [x], [np.zeros(256, np.float32)] * 7)
    k = np.arange(256)
    keep = {1: k % 2 == 0, 2: k % 2 == 1, 3: k % 4 == 0, 4: k % 4 == 1, 5: k % 4 == 2, 6: k % 4 == 3,
            7: k >= 0}
    for pattern, z in zip(range(1, 8), outs, strict=True):
        kept = x[keep[pattern]]
        assert counts[pattern] == kept.size and z[:kept.size].tolist() == kept.tolist()
        assert not z[kept.size:].any()


def test_gather_mask_pattern_tensor_and_counter_mode(vec) -> None:
    x = rng.integers(-100, 100, 256).astype(np.float16)  # 2 repeats of 128
    bits = rng.integers(0, 2, 256).astype(bool)
    raw = np.zeros(64, np.uint8)  # 128 bits (16 B) a repeat; repeat stride 1 block: repeat 1's at byte 32
    raw[0:16] = np.packbits(bits[:128], bitorder="little")
    raw[32:48] = np.packbits(bits[128:], bitorder="little")
    pattern = raw.view(np.uint16)
    got = {}

    def body(z, c, a, p):
        got["normal"] = asc.gather_mask(z, a, p, False, 0, asc.GatherMaskParams(1, 2, 8, 1))
        got["counter"] = asc.gather_mask(c, a, 3, True, 100, asc.GatherMaskParams(1, 1, 8, 0))

    z, c = vec(body, [x, pattern], [np.zeros(256, np.float16), np.zeros(256, np.float16)])
    assert got["normal"] == int(bits.sum()) and z[:bits.sum()].tolist() == x[bits].tolist()
    first = x[:100][np.arange(100) % 4 == 0]  # counter mode: 100 lanes, every fourth
    assert got["counter"] == 25 and c[:25].tolist() == first.tolist()


def test_gather_mask_checks(vec) -> None:
    x = np.ones(64, np.float32)
    with pytest.raises(TaskError, match="pattern tensor of a float32 gather is uint32"):
        vec(lambda z, a, p: asc.gather_mask(z, a, p, False, 0, asc.GatherMaskParams(1, 1, 8, 8)),
            [x, np.zeros(16, np.uint16)], [np.zeros(64, np.float32)])
    with pytest.raises(TaskError, match="a built-in pattern is 1..7, got 9"):
        vec(lambda z, a: asc.gather_mask(z, a, 9, False, 0, asc.GatherMaskParams(1, 1, 8, 8)), [x],
            [np.zeros(64, np.float32)])


def test_vector_copy(vec) -> None:
    x = rng.integers(-100, 100, 512).astype(np.int16)  # 128 per repeat
    init = np.full(512, 5, np.int16)

    def body(z, w, a):
        asc.copy(z, a, 100, 2, asc.CopyRepeatParams(1, 1, 16, 8))  # dst every other 256 B
        asc.set_mask_count()
        asc.set_vector_mask(20, mode=asc.MaskMode.COUNTER)  # Copy in counter mode: 20 lanes per repeat
        asc.copy(w, a, asc.MASK_PLACEHOLDER, 3, asc.CopyRepeatParams(1, 1, 8, 8), is_set_mask=False)
        asc.set_mask_norm()

    z, w = vec(body, [x], [init, init])
    expect = init.copy()
    expect[0:100], expect[256:356] = x[0:100], x[128:228]
    assert z.tolist() == expect.tolist()
    expect = init.copy()
    for r in range(3):
        expect[128 * r:128 * r + 20] = x[128 * r:128 * r + 20]
    assert w.tolist() == expect.tolist()
    with pytest.raises(TaskError, match="Copy's count form exists on the Ascend 950 only"):
        vec(lambda z, a: asc.copy(z, a, 64), [x], [init])


def test_recorded_ranges(run) -> None:
    @asc.kernel
    def k(x):
        pipe = asc.TPipe()
        b = asc.TBuf()
        pipe.init_buffer(b, 4096)
        t = b.get(asc.float32)
        offs = t[512:].reinterpret_cast(asc.uint32)
        asc.brcb(t[256:], t, 1, asc.BrcbRepeatParams(1, 8))
        asc.gather(t[128:], t, offs, 0, 8, 1, 8)
        asc.gather_mask(t[64:], t, 1, False, 0, asc.GatherMaskParams(1, 1, 8, 8))

    launch, _ = run(k, 1, np.zeros(8, np.float32))
    ins = [i for i in launch.streams[0] if i.op in ("brcb", "gather", "gather_mask")]
    brcb, gather, gmask = ins
    assert [(a.offset, a.length) for a in brcb.reads] == [(0, 32)]
    assert [(a.offset, a.length) for a in brcb.writes] == [(1024, 256)]
    assert (gather.reads[0].offset, gather.reads[0].length) == (2048, 32)  # 8 offsets
    assert (gather.writes[0].offset, gather.writes[0].length) == (512, 32)
    assert (gmask.reads[0].offset, gmask.reads[0].length) == (0, 256)
    assert (gmask.writes[0].offset, gmask.writes[0].length) == (256, 128)  # 32 kept floats
