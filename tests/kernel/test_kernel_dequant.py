"""AscendDequant (kernel/dequant.py) against the page's formula written with NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.errors import TaskError

BF16 = asc.bfloat16


def ref(src: np.ndarray, scale: np.ndarray, m: int, n: int, cal: int, dst: np.ndarray,
        total: int | None = None):
    """The page's formula: float(src) times the float scale of its column for the first cal columns, converted
    to dst's type; rows of dst padded to 32 B; padding and elements past ``total`` untouched."""
    out = dst.copy()
    blk = 32 // dst.dtype.itemsize
    inner = -(-n // blk) * blk
    total = m * n if total is None else total
    for f in range(total):
        r, c = divmod(f, n)
        v = np.float32(src[f])
        if c < cal:
            v = np.float32(v * np.float32(scale[c]))
        f32 = dst.dtype == np.float32
        out[r * inner + c] = (v + np.float32(0)) if f32 else np.float32(v).astype(dst.dtype)
    return out


def test_the_pages_example_float(vec) -> None:
    src = np.arange(-16, 16, dtype=np.int32)
    scale = np.array([2.2, -2.2, 2.2, -2.2, 2.2, -2.2, 0, 0], np.float32)
    dst0 = np.full(32, 7, np.float32)

    def body(d, s, sc):
        asc.ascend_dequant(d, s, sc, asc.DequantParams(4, 8, 6))

    (d,) = vec(body, [src, scale], [dst0])
    assert d.tolist() == ref(src, scale, 4, 8, 6, dst0).tolist()
    np.testing.assert_allclose(d[:8], [-35.2, 33, -30.8, 28.6, -26.4, 24.2, -10, -9], rtol=1e-6)


def test_half_from_uint64_scale_pads_rows_and_zero_is_positive(vec) -> None:
    src = (np.arange(64, dtype=np.int32) - 30) * 1001
    low = np.linspace(-0.5, 0.5, 8).astype(np.float32)
    low[3] = 0.0
    scale = (low.view(np.uint32).astype(np.uint64) | (np.uint64(0xABCD) << np.uint64(40)))  # control bits
    dst0 = np.full(128, 3, np.float16)  # 8 rows of 16 (8 int32 columns padded to 32 B of half)

    def body(d, s, sc):
        asc.ascend_dequant(d, s, sc, (8, 8, 8))  # the tuple spelling of {m, n, calCount}

    (d,) = vec(body, [src, scale], [dst0])
    assert d.tolist() == ref(src, low, 8, 8, 8, dst0).tolist()
    assert (d.reshape(8, 16)[:, 8:] == 3).all()  # the padding is not written

    fsrc = np.array([-5, 0, 3, -1, 2, 2, 2, 2], np.int32)

    def zero(d, s, sc):
        asc.ascend_dequant(d, s, sc, asc.DequantParams(1, 8, 8), mode=asc.DeQuantMode.DEQUANT_WITH_MULTI_ROW)

    (z,) = vec(zero, [fsrc, np.zeros(8, np.float32)], [np.ones(8, np.float32)])
    assert z.tolist() == [0.0] * 8 and not np.signbit(z).any()  # -5 * 0 = -0.0, then Adds 0: +0.0


def test_bfloat16_forms_scalar_and_small_buffer(vec) -> None:
    rng = np.random.default_rng(7)
    src = rng.integers(-70000, 70000, 6 * 16, dtype=np.int32)
    scale = rng.standard_normal(16).astype(np.float32).astype(BF16)
    dst0 = np.zeros(96, BF16)
    tmp0 = np.zeros(48 * 4, np.uint8)  # the scale (16 floats) and 2 rows of 16 a pass: 3 passes

    def body(d, dscal, tmp, s, sc):
        asc.ascend_dequant(d, s, sc, tmp, asc.DequantParams(6, 16, 12))
        asc.ascend_dequant(dscal, s, np.float32(0.125), asc.DequantParams(6, 16, 16))

    d, dscal, _ = vec(body, [src, scale], [dst0, np.zeros(96, np.float32), tmp0])
    assert d.astype(np.float32).tolist() == ref(src, scale, 6, 16, 12, dst0).astype(np.float32).tolist()
    eighth = np.full(16, 0.125, np.float32)
    assert dscal.tolist() == ref(src, eighth, 6, 16, 16, np.zeros(96, np.float32)).tolist()


def test_single_row_mode_and_the_older_count_forms(vec) -> None:
    src = np.arange(1, 17, dtype=np.int32)
    scale = np.arange(1, 9, dtype=np.float32) / 4
    z = np.zeros(16, np.float32)

    def body(single, multi, older, s, sc):
        asc.ascend_dequant(single, s, sc, asc.DequantParams(1, 16, 8))  # read as {2, 8, 8}
        multi_row = asc.DeQuantMode.DEQUANT_WITH_MULTI_ROW
        asc.ascend_dequant(multi, s, sc, asc.DequantParams(1, 16, 8), mode=multi_row)
        asc.ascend_dequant(older, s, sc, 13)  # rows of deq_scale's 8, the first 13 elements

    single, multi, older = vec(body, [src, scale], [z, z, z])
    assert single.tolist() == ref(src, scale, 2, 8, 8, z).tolist()
    assert multi.tolist() == ref(src, scale, 1, 16, 8, z).tolist()
    assert older.tolist() == ref(src, scale, 2, 8, 8, z, total=13).tolist()
    assert older[13:].tolist() == [0, 0, 0]


def test_faults(vec) -> None:
    src = np.arange(16, dtype=np.int32)
    f32 = np.ones(8, np.float32)
    with pytest.raises(TaskError, match="too small for the scale and one row") as info:
        vec(lambda d, t, s, sc: asc.ascend_dequant(d, s, sc, t, asc.DequantParams(2, 8, 8)), [src, f32],
            [np.zeros(16, np.float32), np.zeros(32, np.uint8)])
    assert "test_kernel_dequant.py" in str(info.value)
    assert info.value.cause.code == errors.ACL_ERROR_RT_VECTOR_CORE_EXCEPTION
    with pytest.raises(TaskError, match="overlaps"):
        vec(lambda d, s, sc: asc.ascend_dequant(s.reinterpret_cast(asc.float32), s, sc, (2, 8, 8)),
            [src, f32], [np.zeros(16, np.float32)])
    with pytest.raises(TaskError, match="multiple of 8"):
        vec(lambda d, s, sc: asc.ascend_dequant(d, s, sc, (1, 12, 4)), [src, f32], [np.zeros(16, np.float32)])
    with pytest.raises(TaskError, match="not a documented combination"):
        vec(lambda d, s, sc: asc.ascend_dequant(d, s, sc, (2, 8, 8)), [src, f32], [np.zeros(16, np.float16)])
    with pytest.raises(TaskError, match="dst needs 24 elements"):
        vec(lambda d, s, sc: asc.ascend_dequant(d, s, sc, (2, 8, 8)), [src, f32], [np.zeros(16, BF16)])


def test_310p_takes_the_half_and_float_rows_only(run) -> None:
    @asc.kernel(chip="310P")
    def k(x):
        pipe = asc.TPipe()
        buf = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(buf, 1024)
        s = buf.get_with_offset(asc.int32, 16, 0)
        d = buf.get_with_offset(BF16, 32, 64)
        asc.ascend_dequant(d, s, np.float32(1), (2, 8, 8))

    with pytest.raises(TaskError, match="not a documented combination on"):
        run(k, 1, np.zeros(8, np.float32))


def test_host_figures() -> None:
    want = ((64 + 2048 + 1032) * 4, (64 + 1024 + 1032) * 4)
    assert asc.get_ascend_dequant_max_min_tmp_size([2, 1024], 4) == want
    assert asc.get_ascend_dequant_max_min_tmp_size(64, 4) == ((64 + 64 + 72) * 4, (64 + 64 + 72) * 4)
    assert asc.get_ascend_dequant_tmp_buffer_factor_size([4, 32]) == (1, 104)
    assert asc.get_ascend_dequant_tmp_buffer_factor_size([32]) == (2, 72)
    with pytest.raises(ValueError, match="type_size"):
        asc.get_ascend_dequant_max_min_tmp_size([2, 8], 2)
