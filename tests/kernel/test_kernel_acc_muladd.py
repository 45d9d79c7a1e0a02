"""GetReduceRepeatSumSpr / GetAccVal (the ReduceSum sum register) and MulAddDst, against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.errors import RaceError, TaskError
from aclsim.isa import HardEvent

B = asc.BinaryRepeatParams
F32 = asc.float32


def launch_fault(run, kern, *arrays) -> BaseException:
    with pytest.raises(TaskError) as info:
        run(kern, 1, *arrays)
    return info.value.cause


# --- GetAccVal ---------------------------------------------------------------------------------------


def test_get_acc_val_reads_the_count_form_sum(vec) -> None:
    rng = np.random.default_rng(3)
    xf = rng.standard_normal(300).astype(np.float32)
    xh = rng.standard_normal(200).astype(np.float16)
    seen: list = []

    def body(df, dh, sf, sh):
        asc.reduce_sum(df, sf, df, 300)
        asc.set_flag(HardEvent.V_S, 0)
        asc.wait_flag(HardEvent.V_S, 0)
        seen.append((asc.get_acc_val(F32), asc.get_acc_val(), asc.get_reduce_repeat_sum_spr(F32)))
        asc.reduce_sum(dh, sh, dh, 200)
        asc.set_flag(HardEvent.V_S, 0)
        asc.wait_flag(HardEvent.V_S, 0)
        seen.append((asc.get_reduce_repeat_sum_spr(asc.half), asc.get_acc_val()))

    df, dh = vec(body, [xf, xh], [np.zeros(8, np.float32), np.zeros(16, np.float16)])
    (f_val, f_raw, f_spr), (h_val, h_raw) = seen
    assert f_val == df[0] == f_spr and isinstance(f_val, np.float32)
    assert f_raw == int(df[:1].view(np.uint32)[0])  # the raw register: the float's bits
    assert np.isclose(f_val, xf.astype(np.float64).sum(), rtol=1e-5)
    assert h_val == dh[0] and isinstance(h_val, np.float16)
    assert h_raw == int(dh[:1].view(np.uint16)[0])


def test_get_acc_val_without_the_v_s_flag_is_a_race(run) -> None:
    @asc.kernel
    def k(x):
        pipe = asc.TPipe()
        buf = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(buf, 256)
        t = buf.get(F32)
        asc.duplicate(t, 1.0, 64)
        asc.reduce_sum(t, t, t, 64)
        asc.get_acc_val(F32)  # no V_S flag: the scalar read races the vector write

    e = launch_fault(run, k, np.zeros(8, np.float32))
    assert isinstance(e, RaceError) and "get_acc_val" in str(e)


def test_get_acc_val_faults_where_the_register_is_undefined(run) -> None:
    @asc.kernel
    def before(x):
        asc.get_acc_val(F32)

    @asc.kernel
    def after_mask_form(x):
        pipe = asc.TPipe()
        buf = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(buf, 256)
        t = buf.get(F32)
        asc.duplicate(t, 1.0, 64)
        asc.reduce_sum(t, t, t, 64)
        asc.reduce_sum(t, t, t, 64, 1, 8)  # the mask form: register undefined
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.get_reduce_repeat_sum_spr(F32)

    @asc.kernel(chip="310P")
    def on_310p(x):
        asc.get_acc_val(F32)

    for kern in (before, after_mask_form):
        e = launch_fault(run, kern, np.zeros(8, np.float32))
        assert isinstance(e, errors.FeatureNotSupportedError) and "count-form reduce_sum" in str(e)
        assert "test_kernel_acc_muladd.py" in str(e)
    e = launch_fault(run, on_310p, np.zeros(8, np.float32))
    assert isinstance(e, errors.FeatureNotSupportedError)
    assert e.code == errors.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    with pytest.raises(TaskError, match="T must be half or float"):
        run(_int_kernel, 1, np.zeros(8))


@asc.kernel
def _int_kernel(x):
    asc.get_acc_val(asc.int32)


# --- MulAddDst ---------------------------------------------------------------------------------------


def _fma(d, a, b):
    return (a.astype(np.float64) * b.astype(np.float64) + d.astype(np.float64)).astype(d.dtype)


def test_mul_add_dst_count_forms(vec) -> None:
    rng = np.random.default_rng(5)
    ah, bh = (rng.standard_normal(300).astype(np.float16) for _ in range(2))
    af, bf = (rng.standard_normal(300).astype(np.float32) for _ in range(2))
    dh, df = rng.standard_normal(300).astype(np.float16), rng.standard_normal(300).astype(np.float32)

    def body(h, f, hf, zero, ah_, bh_, af_, bf_):
        asc.mul_add_dst(h, ah_, bh_, 300)
        asc.mul_add_dst(f, af_, bf_, 300)
        asc.mul_add_dst(hf, ah_, bh_, 300)
        asc.mul_add_dst(zero, af_, bf_, 0)  # a count of 0: nothing written

    h, f, hf, zero = vec(body, [ah, bh, af, bf], [dh, df, df, df])
    assert h.tolist() == _fma(dh, ah, bh).tolist()
    assert f.tolist() == _fma(df, af, bf).tolist()
    assert hf.tolist() == _fma(df, ah, bh).tolist()
    assert zero.tolist() == df.tolist()


def test_mul_add_dst_mask_forms(vec) -> None:
    a = (np.arange(512) % 17 - 8).astype(np.float16) / 4
    b = (np.arange(512) % 5 + 1).astype(np.float16)
    d32, d16 = np.ones(512, np.float32), np.full(512, 2, np.float16)

    def body(mixed, bits, a_, b_):
        asc.mul_add_dst(mixed, a_, b_, 64, 8, B(1, 1, 1, 8, 4, 4))  # half -> float: 64 lanes, 4-block strides
        asc.mul_add_dst(bits, a_, b_, [0xFFFF, 0], 4, B(1, 1, 1, 8, 8, 8))  # 16 lanes of each 128

    mixed, bits = vec(body, [a, b], [d32, d16])
    assert mixed.tolist() == _fma(d32, a, b).tolist()
    lane = np.arange(512) % 128 < 16
    assert bits[lane].tolist() == _fma(d16, a, b)[lane].tolist()
    assert (bits[~lane] == 2).all()


def test_mul_add_dst_faults(vec) -> None:
    x = np.ones(64, np.float16)
    with pytest.raises(TaskError, match="mul_add_dst: takes half -> half"):
        vec(lambda d, s: asc.mul_add_dst(d, s, s, 64), [x], [np.ones(64, np.int16)])
    with pytest.raises(TaskError, match="overlaps float dst") as info:
        vec(lambda d, s: asc.mul_add_dst(s.reinterpret_cast(asc.float32), s, d, 32), [x],
            [np.ones(64, np.float16)])
    assert info.value.cause.code == errors.ACL_ERROR_RT_VECTOR_CORE_EXCEPTION
    assert "test_kernel_acc_muladd.py" in str(info.value)
