"""Bitwise instructions, shifts and LeakyRelu: the documented examples and edges, exact."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim.errors import TaskError

U = asc.UnaryRepeatParams


def test_documented_shift_examples(vec) -> None:
    pat = 0b1010101010101010
    u = np.full(16, pat, np.uint16)
    s = u.view(np.int16)

    def body(a, b, c, d, e, su, ss):
        asc.shift_left(a, su, 1, 16)
        asc.shift_left(b, ss, 1, 16)
        asc.shift_left(c, ss, 3, 16)
        asc.shift_right(d, su, 1, 16)
        asc.shift_right(e, ss, 3, 16)

    outs = vec(body, [u, s], [np.zeros(16, np.uint16)] + [np.zeros(16, np.int16)] * 2
               + [np.zeros(16, np.uint16), np.zeros(16, np.int16)])
    got = [int(o.view(np.uint16)[0]) for o in outs]
    assert got == [0b0101010101010100, 0b1101010101010100, 0b1101010101010000, 0b0101010101010101,
                   0b1111010101010101]


def test_shift_edges_and_round(vec) -> None:
    x = np.array([17, -17, 5, -1, 32767, -32768, 0, 1] * 2, np.int16)

    def body(full_l, full_r, rnd, ufull, a, b):
        asc.shift_left(full_l, a, 16, 16)
        asc.shift_right(full_r, a, 16, 16)
        asc.shift_right(rnd, a, 5, 16, 1, U(), True)  # mask/repeat form with roundEn
        asc.shift_right(ufull, b, 16, 16)

    xu = x.view(np.uint16)
    full_l, full_r, rnd, ufull = vec(body, [x, xu], [np.zeros(16, np.int16)] * 3 + [np.zeros(16, np.uint16)])
    assert full_l.tolist() == np.where(x < 0, -32768, 0).tolist()  # only the sign bit is left
    assert full_r.tolist() == np.where(x < 0, -1, 0).tolist()
    assert rnd.tolist() == ((x >> 5) + ((x >> 4) & 1)).tolist()  # documented: 17 >> 5 with round = 1
    assert rnd[0] == 1 and not ufull.any()
    with pytest.raises(TaskError, match="shift_left: a shift of int16 takes 0..16 bits, got 17"):
        vec(lambda z, a: asc.shift_left(z, a, 17, 16), [x], [x])
    with pytest.raises(TaskError, match="shift_right: a shift of uint16 takes 0..16 bits, got -1"):
        vec(lambda z, a: asc.shift_right(z, a, -1, 16), [xu], [xu])


def test_bitwise_strided_and_recorded_names(run) -> None:
    x = np.arange(-64, 64, dtype=np.int16)

    @asc.kernel
    def k(p):
        pipe = asc.TPipe()
        b = asc.TBuf()
        pipe.init_buffer(b, 1024)
        t = b.get(asc.int16)
        g = asc.GlobalTensor(asc.int16)
        g.set_global_buffer(p)
        asc.data_copy(t, g, 128)
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.and_(t[128:], t, t, 16, 1, asc.BinaryRepeatParams())
        asc.not_(t[256:], t, 128)
        asc.or_(t[384:], t, t[256:], 128)
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.data_copy(g, t[384:], 128)

    launch, (out,) = run(k, 1, x)
    assert out.tolist() == (x | ~x).tolist() == [-1] * 128
    ops = [i.op for i in launch.streams[0] if i.op in ("and", "or", "not")]
    assert ops == ["and", "not", "or"]


def test_leaky_relu_forms(vec) -> None:
    x = np.linspace(-4, 4, 128).astype(np.float16)
    init = np.full(128, 9, np.float16)

    def body(a, b, s):
        asc.leaky_relu(a, s, 0.1, 128)
        asc.leaky_relu(b, s, 0.1, 64, 1, U())

    a, b = vec(body, [x], [init, init])
    want = np.where(x >= 0, x, x * np.float16(0.1))
    assert a.tolist() == want.tolist()
    assert b[:64].tolist() == want[:64].tolist() and b[64:].tolist() == init[64:].tolist()
