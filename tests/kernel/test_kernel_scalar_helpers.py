"""Repeat constants, GetDataBlockSizeInBytes, ToFloat, AscendCUtils and the CTRL register."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.errors import TaskError


def test_constants_and_block_size() -> None:
    assert (asc.ONE_REPEAT_BYTE_SIZE, asc.DEFAULT_REPEAT_STRIDE, asc.HALF_DEFAULT_REPEAT_STRIDE,
            asc.ONE_FOURTH_DEFAULT_REPEAT_STRIDE, asc.DEFAULT_BLK_STRIDE, asc.DEFAULT_BLK_NUM,
            asc.MAX_REPEAT_TIMES) == (256, 8, 4, 2, 1, 8, 255)
    assert (asc.ONE_BLK_FLOAT_NUM, asc.ONE_BLK_HALF_NUM, asc.ONE_BYTE_BIT_SIZE) == (8, 16, 8)
    assert asc.get_data_block_size_in_bytes() * asc.DEFAULT_BLK_NUM == asc.ONE_REPEAT_BYTE_SIZE


def test_to_float_exact() -> None:
    bits = np.arange(0, 1 << 16, 97, dtype=np.uint16)
    b = bits.view(ml_dtypes.bfloat16)
    got = np.array([asc.to_float(v) for v in b], np.float32)
    want = (bits.astype(np.uint32) << 16).view(np.float32)  # bfloat16 is the high half of a float32
    same = (got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want))
    assert same.all() and isinstance(asc.to_float(b[3]), np.float32)
    assert asc.to_float(np.float16(0.1)) == np.float32(np.float16(0.1))
    with pytest.raises(TypeError, match="use np.float32"):
        asc.to_float(1.5)
    with pytest.raises(TypeError, match="got int32"):
        asc.to_float(np.int32(3))


def test_to_float_on_get_value(vec) -> None:
    x = np.array([1.5, -2.25, 3e37, 1e-30] * 4, ml_dtypes.bfloat16)

    def body(out, src):
        for i in range(4):
            out.set_value(i, asc.to_float(src.get_value(i)) * 2)

    (out,) = vec(body, [x], [np.zeros(8, np.float32)])
    assert out[:4].tolist() == (x[:4].astype(np.float32) * 2).tolist()


def test_ascendc_utils(vec) -> None:
    u = asc.AscendCUtils
    assert (u.get_bit_size(4), u.get_c0_size(), u.get_c0_count(2), u.get_c0_count(4),
            u.get_default_block_num()) == (32, 32, 16, 8, 8)
    with pytest.raises(ValueError, match="dtype_size must be > 0"):
        u.get_c0_count(0)
    x = np.arange(128, dtype=np.float16)

    def body(a, b, s):
        asc.AscendCUtils.set_mask(20, dtype=asc.float16)  # SetMask<half>(20): the low 20 lanes
        asc.adds(a, s, 1.0, asc.MASK_PLACEHOLDER, 1, asc.UnaryRepeatParams(), is_set_mask=False)
        asc.AscendCUtils.set_mask(1, 0)  # (maskHigh, maskLow): lanes 64..
        asc.adds(b, s, 1.0, asc.MASK_PLACEHOLDER, 1, asc.UnaryRepeatParams(), is_set_mask=False)
        asc.AscendCUtils.reset_mask()

    a, b = vec(body, [x], [np.zeros(128, np.float16)] * 2)
    assert a.nonzero()[0].tolist() == list(range(20)) and a[:20].tolist() == (x[:20] + 1).tolist()
    assert b.nonzero()[0].tolist() == [64]


@asc.kernel
def ctrl_kernel(steps, p):
    g = asc.GlobalTensor(asc.int64)
    g.set_global_buffer(p)
    for i, (start, end, value) in enumerate(steps):
        if value is not None:
            asc.set_ctrl_spr(start, end, value)  # CTRL-SET
        g.set_value(i, asc.get_ctrl_spr(start, end))


def test_ctrl_spr_inf_nan_mode(run) -> None:
    steps = [(48, 48, None), (48, 48, 1), (40, 50, None), (0, 63, None), (60, 60, 0), (48, 48, 0),
             (40, 50, None)]  # 60: a restore
    _, (out,) = run(ctrl_kernel, 1, np.zeros(7, np.int64), extra=(steps,))
    assert out.tolist() == [1, 1, 1 << 8, 1 << 48, 0, 0, 0]


@pytest.mark.parametrize("steps, match", [
    ([(6, 8, 1)], "has CTRL bit 48 only; this write changes bit 6"),
    ([(60, 60, None), (60, 60, 1)], "has CTRL bit 48 only; this write changes bit 60"),
])
def test_ctrl_spr_faults(run, steps, match) -> None:
    with pytest.raises(TaskError, match=match) as info:
        run(ctrl_kernel, 1, np.zeros(4, np.int64), extra=(steps,))
    e = info.value.cause
    assert e.code == errors.ACL_ERROR_RT_FEATURE_NOT_SUPPORT and e.line > 0
    with pytest.raises(TaskError, match="does not fit bits"):
        run(ctrl_kernel, 1, np.zeros(4, np.int64), extra=([(48, 48, 2)],))
    with pytest.raises(TaskError, match="0 <= start_bit <= end_bit <= 63"):
        run(ctrl_kernel, 1, np.zeros(4, np.int64), extra=([(50, 48, None)],))


def test_ctrl_spr_not_on_310p(run) -> None:
    @asc.kernel(chip="310P")
    def k(p):
        asc.get_ctrl_spr(48, 48)

    with pytest.raises(TaskError, match="has no SetCtrlSpr/GetCtrlSpr") as info:
        run(k, 1, np.zeros(4, np.int64))
    assert info.value.cause.code == errors.ACL_ERROR_RT_FEATURE_NOT_SUPPORT


def test_set_overflow(run) -> None:
    @asc.kernel
    def k(mode, p):
        asc.AscendCUtils.set_overflow(mode)
        g = asc.GlobalTensor(asc.int64)
        g.set_global_buffer(p)
        g.set_value(0, asc.get_ctrl_spr(48, 48))

    _, (out,) = run(k, 1, np.zeros(4, np.int64), extra=(1,))
    assert out[0] == 1
    _, (out,) = run(k, 1, np.zeros(4, np.int64), extra=(0,))  # saturation mode: kernel/saturation.py
    assert out[0] == 0


def test_to_bfloat16_nearest_even() -> None:
    bits = np.arange(0, 1 << 32, 65521 * 7, dtype=np.uint64).astype(np.uint32)
    f = bits.view(np.float32)
    got = np.array([asc.to_bfloat16(v) for v in f], ml_dtypes.bfloat16).view(np.uint16)
    # nearest even by hand: add 0x7FFF plus the kept LSB, drop the low 16 bits
    rne = ((bits.astype(np.uint64) + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    want = np.where(np.isnan(f), np.uint16(0x7FFF), rne)
    assert (got == want).all()
    assert asc.to_float(asc.to_bfloat16(3.0)) == 3.0
