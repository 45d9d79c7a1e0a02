"""SetFmatrix / SetLoadDataPaddingValue and LoadData<T, IsResetLoad3dConfig> (the img2col registers)."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.errors import TaskError

P = asc.TPosition
F16 = asc.float16
C, H, W = 16, 5, 6
PADS = (1, 0, 2, 1)


def _kernel(mode: str):
    @asc.kernel
    def k(fm):
        pipe = asc.TPipe()
        a1, l0 = asc.TBuf(P.A1), asc.TBuf(P.A2)
        pipe.init_buffer(a1, C * H * W * 2)
        pipe.init_buffer(l0, 3 * 32 * 48 * 2)
        g = asc.GlobalTensor(F16)
        g.set_global_buffer(fm)
        asc.data_copy(a1.get(F16), g, C * H * W)
        asc.pipe_barrier(asc.PIPE_ALL)
        out = l0.get(F16)
        right = dict(pad_list=PADS, l1_h=H, l1_w=W, channel_size=C, k_extension=48, m_extension=32,
                     filter_h=3, filter_w=1, pad_value=7.0)
        wrong = dict(right, pad_list=(0, 0, 0, 0), l1_h=2, l1_w=2, pad_value=-1.0)
        off = asc.IsResetLoad3dConfig(is_set_f_matrix=False, is_set_padding=False)
        asc.load_data(out[0], a1.get(F16), asc.LoadData3DParamsV2(**right))  # default: sets the registers
        if mode == "set":
            asc.set_fmatrix(H, W, list(PADS), asc.FmatrixMode.FMATRIX_LEFT)
            asc.set_load_data_padding_value(7.0)
            asc.set_fmatrix(1, 1, [0, 0, 0, 0], asc.FmatrixMode.FMATRIX_RIGHT)  # not read by the load
        asc.load_data(out[32 * 48], a1.get(F16), asc.LoadData3DParamsV2(**wrong), config=off)
        own = dict(right, pad_value=-1.0)
        asc.load_data(out[2 * 32 * 48], a1.get(F16), asc.LoadData3DParamsV2(**own))  # its own parameters
        asc.pipe_barrier(asc.PIPE_ALL)
        got.append(out.numpy().reshape(3, 32 * 48).copy())

    got: list[np.ndarray] = []
    return k, got


@pytest.mark.parametrize("mode", ["set", "kept"])
def test_the_registers_replace_the_parameters(run, mode) -> None:
    k, got = _kernel(mode)
    fm = (np.arange(C * H * W) % 97 + 10).astype(np.float16)  # no 7 nor -1: those are the pad values
    run(k, 1, fm)
    first, second, third = got[0]
    assert (second == first).all()  # l1H, l1W, padList, padValue from the registers, not the parameters
    assert (first == 7).sum() > 0  # the padding is there, with the register's value
    assert ((third == -1) == (first == 7)).all() and (third == -1).any()  # the default: its own pad value


def test_a_register_nothing_set_is_refused(run) -> None:
    @asc.kernel
    def k(fm):
        pipe = asc.TPipe()
        a1, l0 = asc.TBuf(P.A1), asc.TBuf(P.A2)
        pipe.init_buffer(a1, C * H * W * 2)
        pipe.init_buffer(l0, 32 * 48 * 2)
        asc.load_data(l0.get(F16), a1.get(F16), asc.LoadData3DParamsV2(
            l1_h=H, l1_w=W, channel_size=C, k_extension=16, m_extension=16),
            config=asc.IsResetLoad3dConfig(is_set_f_matrix=False))

    with pytest.raises(TaskError, match="fmatrix left register, which nothing set") as info:
        run(k, 1, np.zeros(8, np.float16))
    assert isinstance(info.value.cause, errors.FeatureNotSupportedError)
    assert "test_kernel_fmatrix.py" in str(info.value)


def test_set_fmatrix_ranges(run) -> None:
    @asc.kernel
    def k(x):
        asc.set_fmatrix(0, 4, [0, 0, 0, 0], asc.FmatrixMode.FMATRIX_LEFT)

    with pytest.raises(TaskError, match="must be in 1..32767"):
        run(k, 1, np.zeros(8, np.float16))

    @asc.kernel
    def pads(x):
        asc.set_fmatrix(4, 4, [0, 256, 0, 0], asc.FmatrixMode.FMATRIX_LEFT)

    with pytest.raises(TaskError, match="in 0..255"):
        run(pads, 1, np.zeros(8, np.float16))
