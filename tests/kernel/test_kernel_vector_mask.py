"""The vector mask register and counter mode (SetMaskCount/SetMaskNorm/SetVectorMask/ResetMask,
MASK_PLACEHOLDER, isSetMask), each case against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim.errors import TaskError

rng = np.random.default_rng(5)
B = asc.BinaryRepeatParams
U = asc.UnaryRepeatParams


def ints(dtype, n):
    return rng.integers(-100, 100, n).astype(dtype)


def test_normal_mode_register_from_set_vector_mask(vec) -> None:
    x, y = ints(np.float16, 256), ints(np.float16, 256)
    init = np.full(256, 3, np.float16)
    high, low = 0x8000000000000001, 0x00000000000000F0

    def body(z, a, b):
        asc.set_mask_norm()
        asc.set_vector_mask(high, low)
        asc.add(z, a, b, asc.MASK_PLACEHOLDER, 2, B(), is_set_mask=False)
        asc.reset_mask()

    (z,) = vec(body, [x, y], [init])
    lanes = [4, 5, 6, 7, 64, 127]
    expect = init.copy()
    for r in range(2):
        for j in lanes:
            expect[128 * r + j] = x[128 * r + j] + y[128 * r + j]
    assert z.tolist() == expect.tolist()


def test_an_instruction_with_its_own_mask_writes_the_register(vec) -> None:
    # isSetMask true: the first add sets the register to 16 lanes; the adds after it reads them
    x = ints(np.float32, 64)
    init = np.zeros(64, np.float32)

    def body(z, w, a):
        asc.add(z, a, a, 16, 1, B())
        asc.adds(w, a, 1.0, asc.MASK_PLACEHOLDER, 1, U())

    z, w = vec(body, [x], [init, init])
    assert z[:16].tolist() == (2 * x[:16]).tolist() and not z[16:].any()
    assert w[:16].tolist() == (x[:16] + 1).tolist() and not w[16:].any()


def test_counter_mode_derives_the_repeats(vec) -> None:
    # the documented example: half, 130 elements, block stride 2 and repeat stride 16 blocks;
    # repeat_times (1) is ignored: 2 repeats run, the second of 2 elements
    x = ints(np.float16, 512)
    init = np.full(512, -1, np.float16)
    idx = [(r * 16 + b * 2) * 16 + i for r in range(2) for b in range(8) for i in range(16)][:130]

    def placeholder(z, a):
        asc.set_mask_count()
        asc.set_vector_mask(130, mode=asc.MaskMode.COUNTER)
        asc.adds(z, a, 1.0, asc.MASK_PLACEHOLDER, 1, U(2, 2, 16, 16), is_set_mask=False)
        asc.set_mask_norm()
        asc.reset_mask()

    def own_mask(z, a):  # isSetMask true in counter mode: mask[0] is the count
        asc.set_mask_count()
        asc.adds(z, a, 1.0, [130, 0], 1, U(2, 2, 16, 16))
        asc.set_mask_norm()

    expect = init.copy()
    expect[idx] = x[idx] + 1
    for body in (placeholder, own_mask):
        (z,) = vec(body, [x], [init])
        assert z.tolist() == expect.tolist()


def test_count_form_from_the_register_and_its_reset(vec) -> None:
    x = ints(np.float32, 256)
    init = np.zeros(256, np.float32)

    def body(z, w, v, bits, a):
        asc.set_mask_count()
        asc.set_vector_mask(100, mode=asc.MaskMode.COUNTER)
        asc.adds(z, a, 2.0, 1, is_set_mask=False)  # count argument unused: 100 from the register
        asc.set_mask_norm()
        asc.set_vector_mask(0, 0xF)
        asc.muls(w, a, 3.0, 7)  # count form: counter mode inside, then normal mode and all lanes again
        asc.adds(v, a, 1.0, asc.MASK_PLACEHOLDER, 1, U())
        assert asc.vector_mask_state() == (False, (1 << 64) - 1, (1 << 64) - 1)
        for count_form in (lambda: asc.cast(w, a, asc.RoundMode.CAST_NONE, 0), lambda: asc.exp(w, a, 0),
                           lambda: asc.compare_scalar(bits, a, 0.0, asc.CMPMODE.GT, 0),
                           lambda: asc.duplicate(w, 0.0, 0)):
            asc.set_mask_count()
            asc.set_vector_mask(0, 5)
            count_form()
            assert asc.vector_mask_state() == (False, (1 << 64) - 1, (1 << 64) - 1)
        asc.set_vector_mask(0, 3)
        asc.brcb(w, a, 0, asc.BrcbRepeatParams())
        assert asc.vector_mask_state() == (False, (1 << 64) - 1, (1 << 64) - 1)

    z, w, v, _ = vec(body, [x], [init, init, init, np.zeros(32, np.uint8)])
    assert z[:100].tolist() == (x[:100] + 2).tolist() and not z[100:].any()
    assert w[:7].tolist() == (x[:7] * 3).tolist() and not w[7:].any()
    assert v[:64].tolist() == (x[:64] + 1).tolist() and not v[64:].any()


def test_mask_zero_is_a_nop_and_a_large_mask_covers_the_repeat(vec) -> None:
    # documented: mask 0 does nothing; a continuous mask past the repeat counts as the whole repeat
    x = ints(np.float32, 128)
    init = np.full(128, 9, np.float32)

    def body(z, w, a):
        asc.add(z, a, a, 0, 2, B())
        asc.add(w, a, a, 100, 2, B())

    z, w = vec(body, [x], [init, init])
    assert z.tolist() == init.tolist() and w.tolist() == (2 * x).tolist()


def test_compare_select_duplicate_cast_follow_the_register(vec) -> None:
    x = ints(np.float32, 128)
    zeros8 = np.zeros(32, np.uint8)

    def body(bits, d, h, a):
        asc.set_mask_count()
        asc.set_vector_mask(70, mode=asc.MaskMode.COUNTER)
        asc.compare_scalar(bits, a, 0.0, asc.CMPMODE.GT, asc.MASK_PLACEHOLDER, 1, U(), is_set_mask=False)
        asc.duplicate(d, 5.0, asc.MASK_PLACEHOLDER, 1, 1, 8, is_set_mask=False)
        asc.cast(h, a, asc.RoundMode.CAST_NONE, asc.MASK_PLACEHOLDER, 1, U(1, 1, 4, 8))
        asc.set_mask_norm()

    bits, d, h = vec(body, [x], [zeros8, np.zeros(128, np.float32), np.zeros(128, np.float16)])
    got = np.unpackbits(bits, bitorder="little")
    assert got[:70].tolist() == (x[:70] > 0).astype(np.uint8).tolist() and not got[70:].any()
    assert d[:70].tolist() == [5.0] * 70 and not d[70:].any()
    assert h[:70].tolist() == x[:70].astype(np.float16).tolist() and not h[70:].any()


@asc.kernel
def two_blocks(out):
    g = asc.GlobalTensor(asc.int32)
    g.set_global_buffer(out)
    state = asc.vector_mask_state()
    g.set_value(asc.get_block_idx(), int(state[0]))
    asc.set_mask_count()  # block 0's mode must not leak into block 1


def test_the_register_is_per_block(run) -> None:
    _, (out,) = run(two_blocks, 2, np.full(8, 7, np.int32))
    assert out[:2].tolist() == [0, 0]


def test_bad_masks_are_refused(vec) -> None:
    x = np.ones(64, np.float32)
    with pytest.raises(TaskError, match="set_vector_mask: mask words must be >= 0"):
        vec(lambda z, a: asc.set_vector_mask(-1, 0), [x], [x])
    with pytest.raises(TaskError, match="add: a continuous mask must be >= 0, got -3"):
        vec(lambda z, a: asc.add(z, a, a, -3, 1, B()), [x], [x])

    def too_many(z, a):
        asc.set_mask_count()
        asc.set_vector_mask(10**9, mode=asc.MaskMode.COUNTER)
        asc.add(z, a, a, asc.MASK_PLACEHOLDER, 1, B())

    with pytest.raises(TaskError, match="counter mode asks for 1000000000 elements"):
        vec(too_many, [x], [x])

    def past_buffer(z, a):
        asc.set_mask_count()
        asc.set_vector_mask(80, mode=asc.MaskMode.COUNTER)
        asc.add(z, a, a, asc.MASK_PLACEHOLDER, 1, B())

    with pytest.raises(TaskError, match="the repeats reach element 79, past the tensor's buffer"):
        vec(past_buffer, [x], [x])


def test_issue13_vector_names_are_exported_and_documented() -> None:
    import re
    from pathlib import Path

    import aclsim.kernel.vector as vector

    docs = (Path(__file__).resolve().parents[2] / "docs" / "dsl_mapping.md").read_text()
    names = ["MASK_PLACEHOLDER", "MaskMode", "set_mask_count", "set_mask_norm", "set_vector_mask",
             "reset_mask", "vector_mask_state", "block_reduce_sum", "block_reduce_max", "block_reduce_min",
             "pair_reduce_sum", "repeat_reduce_sum", "brcb", "gather", "gather_mask", "copy",
             "BrcbRepeatParams", "CopyRepeatParams", "GatherMaskParams", "and_", "or_", "not_", "shift_left",
             "shift_right", "leaky_relu", "set_deq_scale"]
    for name in names:
        assert name in asc.__all__ and hasattr(asc, name), name
        assert re.search(rf"[`(, ]{re.escape(name)}[`(.]", docs), f"{name} has no row in docs/dsl_mapping.md"
        if name != "vector_mask_state":
            assert getattr(vector, name) is getattr(asc, name)
