"""Transpose: the 16 x 16 block and [N, C, H, W] <-> [N, H, W, C], against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim.errors import TaskError

T = asc.TransposeType


def test_block_transpose_and_in_place(vec) -> None:
    x = np.arange(256, dtype=np.float16)
    u = np.arange(256, dtype=np.uint16) * 7

    def body(d, inplace, ext, s, su):
        asc.transpose(d, s)
        asc.transpose(inplace, inplace)  # src and dst may be one tensor
        asc.transpose(ext, su, su, asc.TransposeParamsExt(0, 0, 16, 16, T.TRANSPOSE_ND2ND_B16))

    d, inplace, ext = vec(body, [x, u], [np.zeros(256, np.float16), x.copy(), np.zeros(256, np.uint16)])
    assert d.tolist() == x.reshape(16, 16).T.ravel().tolist()
    assert inplace.tolist() == x.reshape(16, 16).T.ravel().tolist()
    assert ext.tolist() == u.reshape(16, 16).T.ravel().tolist()


@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.float16])
def test_nchw_nhwc_both_ways(vec, dtype) -> None:
    n, c, h = 2, 3, 4
    w = 32 // np.dtype(dtype).itemsize  # h * w * sizeof(T) a multiple of 32 B
    x = (np.arange(n * c * h * w) % 120).astype(dtype)
    h0, w0 = (32 if np.dtype(dtype).itemsize == 1 else 16), 32 // np.dtype(dtype).itemsize
    tmp = np.zeros((2 * c + 1) * h0 * w0 * np.dtype(dtype).itemsize, np.uint8)

    def body(nhwc, back, t, s):
        asc.transpose(nhwc, s, t, asc.TransposeParamsExt(n, c, h, w, T.TRANSPOSE_NCHW2NHWC))
        asc.pipe_barrier(asc.PIPE_V)
        asc.transpose(back, nhwc, t, asc.TransposeParamsExt(n, c, h, w, T.TRANSPOSE_NHWC2NCHW))

    nhwc, back, _ = vec(body, [x], [np.zeros_like(x), np.zeros_like(x), tmp])
    assert nhwc.tolist() == x.reshape(n, c, h, w).transpose(0, 2, 3, 1).ravel().tolist()
    assert back.tolist() == x.tolist()


def test_faults(vec) -> None:
    x = np.zeros(256, np.float32)
    with pytest.raises(TaskError, match="16 x 16 form takes"):
        vec(lambda d, s: asc.transpose(d, s), [x], [np.zeros(256, np.float32)])
    with pytest.raises(TaskError, match="needs a temporary buffer of"):
        vec(lambda d, t, s: asc.transpose(d, s, t, asc.TransposeParamsExt(1, 4, 8, 8, T.TRANSPOSE_NCHW2NHWC)),
            [x], [np.zeros(256, np.float32), np.zeros(32, np.uint8)])
    with pytest.raises(TaskError, match="当前不支持"):
        vec(lambda d, s: asc.transpose(d, s, s, asc.TransposeParamsExt(1, 1, 16, 16, T.TRANSPOSE_ND2ND_ONLY)),
            [x], [np.zeros(256, np.float32)])
    with pytest.raises(TaskError, match="no overlapping"):
        vec(lambda d, t, s: asc.transpose(s, s, t, asc.TransposeParamsExt(1, 4, 8, 8, T.TRANSPOSE_NCHW2NHWC)),
            [x], [np.zeros(256, np.float32), np.zeros(4096, np.uint8)])
