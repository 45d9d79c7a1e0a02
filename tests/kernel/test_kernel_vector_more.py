"""Axpy, CreateVecIndex, ArithProgression, Compares, ReduceRepeat/ReduceDataBlock: against NumPy and
against the device library's algorithm written out element by element."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.errors import TaskError

U = asc.UnaryRepeatParams


def chained(first, n: int, dt, block: int, per_rep: int, seed) -> list:
    """The library's way, one scalar at a time: ``seed(j)`` for the first block, each later element the
    one a block (then a repeat) before plus the step, added in ``dt``."""
    out: list = []
    for p in range(n):
        if p < block:
            out.append(dt.type(seed(p)))
        elif p < per_rep:
            out.append(dt.type(out[p - block] + dt.type(first(block))))
        else:
            out.append(dt.type(out[p - per_rep] + dt.type(first(per_rep))))
    return out


# --- Axpy ------------------------------------------------------------------------------------------


def test_axpy_count_forms_fused(vec) -> None:
    rng = np.random.default_rng(1)
    xh = rng.standard_normal(256).astype(np.float16)
    yh = rng.standard_normal(256).astype(np.float16)
    xf, yf = xh.astype(np.float32) * 3, yh.astype(np.float32) / 7

    def body(h, f, hf, sh, sf):
        asc.axpy(h, sh, 2.5, 256)
        asc.axpy(f, sf, -0.75, 256)
        asc.axpy(hf, sh, 2.5, 256)

    h, f, hf = vec(body, [xh, xf], [yh, yf, yf])
    want = lambda y, x, s: (y.astype(np.float64) + x.astype(np.float64) * s).astype(y.dtype)  # noqa: E731
    assert h.tolist() == want(yh, xh, 2.5).tolist()
    assert f.tolist() == want(yf, xf, -0.75).tolist()
    assert hf.tolist() == want(yf, xh, 2.5).tolist()


def test_axpy_mask_forms_and_mixed_strides(vec) -> None:
    x = np.arange(512, dtype=np.float16) / 8
    y = np.ones(512, np.float32)
    yh = np.ones(512, np.float16)

    def body(mixed, bits, sh):
        asc.axpy(mixed, sh, 2.0, 64, 8, U(1, 1, 8, 4))  # the page's half -> float example: 512 elements
        asc.axpy(bits, sh, 2.0, [0xFFFF, 0], 4, U(1, 1, 8, 8))  # 16 lanes of each 128-lane repeat

    mixed, bits = vec(body, [x], [y, yh])
    assert mixed.tolist() == (1 + 2 * x.astype(np.float64)).astype(np.float32).tolist()
    lane = np.arange(512) % 128 < 16
    assert bits[lane].tolist() == (1 + 2 * x[lane].astype(np.float64)).astype(np.float16).tolist()
    assert (bits[~lane] == 1).all()


def test_axpy_faults(vec) -> None:
    x = np.ones(64, np.float16)
    with pytest.raises(TaskError, match="axpy takes half -> half, float -> float or half -> float"):
        vec(lambda d, s: asc.axpy(d, s, 1, 64), [x], [np.ones(64, np.int16)])
    with pytest.raises(TaskError, match="overlaps float dst") as info:
        vec(lambda d, s: asc.axpy(s.reinterpret_cast(asc.float32), s, 1, 32), [x], [np.ones(64, np.float16)])
    assert info.value.cause.code == errors.ACL_ERROR_RT_VECTOR_CORE_EXCEPTION


# --- CreateVecIndex ----------------------------------------------------------------------------------


def test_create_vec_index_count_forms(vec) -> None:
    def body(i16, f32, h16, small):
        asc.create_vec_index(i16, np.int16(0), 128)  # the page's example: 0 .. 127
        asc.create_vec_index(f32, 5.0, 200)
        asc.create_vec_index(h16, 2040.0, 300)  # past 2048 half rounds, block by block as the library
        asc.create_vec_index(small, 7, 5)

    i16, f32, h16, small = vec(body, [], [np.zeros(128, np.int16), np.zeros(200, np.float32),
                                          np.zeros(304, np.float16), np.full(16, -1, np.int32)])
    assert i16.tolist() == list(range(128))
    assert f32.tolist() == [5.0 + i for i in range(200)]
    h = np.dtype(np.float16)
    assert h16[:300].tolist() == chained(float, 300, h, 16, 128, lambda j: np.float32(2040 + j))
    assert small.tolist() == [7, 8, 9, 10, 11] + [-1] * 11


def test_create_vec_index_mask_forms(vec) -> None:
    def body(cont, bits, strided):
        asc.create_vec_index(cont, np.int16(3), 128, 2, 1, 8)
        asc.create_vec_index(bits, 0.0, [0xFF, 0], 2, 1, 8)  # lanes 0..7 of each float repeat
        asc.create_vec_index(strided, 0, 64, 1, 2, 16)  # int32: 8 blocks, every other block

    cont, bits, strided = vec(body, [], [np.zeros(256, np.int16), np.full(128, -1, np.float32),
                                         np.full(128, -1, np.int32)])
    assert cont.tolist() == [3 + i for i in range(256)]
    lane = np.arange(128) % 64 < 8
    assert bits[lane].tolist() == [float(r * 64 + j) for r in range(2) for j in range(8)]
    assert (bits[~lane] == -1).all()
    blocks = strided.reshape(16, 8)
    assert blocks[::2].ravel().tolist() == list(range(64)) and (blocks[1::2] == -1).all()
    with pytest.raises(TaskError, match="first_value 40000 is outside int16's range"):
        vec(lambda t: asc.create_vec_index(t, 40000, 16), [], [np.zeros(16, np.int16)])
    with pytest.raises(TaskError, match="a continuous mask of float32 takes 0..64 lanes, got 128"):
        vec(lambda t: asc.create_vec_index(t, 0.0, 128, 1, 1, 8), [], [np.zeros(64, np.float32)])


def test_create_vec_index_leaves_the_mask_as_the_library(run) -> None:
    @asc.kernel
    def k(p):
        pipe = asc.TPipe()
        b = asc.TBuf()
        pipe.init_buffer(b, 2048)
        t = b.get(asc.float32)
        asc.create_vec_index(t, 0.0, 40, 2, 1, 8)  # the last Adds uses mask 40
        state = asc.vector_mask_state()
        g = asc.GlobalTensor(asc.uint64)
        g.set_global_buffer(p)
        g.set_value(0, state[2])

    _, (out,) = run(k, 1, np.zeros(4, np.uint64))
    assert out[0] == (1 << 40) - 1


# --- ArithProgression ----------------------------------------------------------------------------------


def test_arith_progression_as_the_library(vec) -> None:
    def body(f, h, i, few):
        asc.arith_progression(f, 1.5, 0.25, 300)
        asc.arange(h, 1000.0, 3.0, 200)
        asc.arith_progression(i, np.int32(-5), np.int32(7), 100)
        asc.arith_progression(few, 2, 3, 5)

    f, h, i, few = vec(body, [], [np.full(304, -1, np.float32), np.full(208, -1, np.float16),
                                  np.full(104, -1, np.int32), np.full(8, -1, np.int16)])
    fd, hd = np.dtype(np.float32), np.dtype(np.float16)
    want_f = chained(lambda k: np.float32(0.25) * np.float32(k), 304, fd, 8, 64,
                     lambda j: np.float32(1.5) + np.float32(0.25) * np.float32(j))
    assert f.tolist() == want_f  # 300 asked, written to the next 32 B boundary (304)
    want_h = chained(lambda k: np.float32(3.0) * np.float32(k), 208, hd, 16, 128,
                     lambda j: np.float32(1000.0) + np.float32(3.0) * np.float32(j))
    assert h.tolist() == want_h
    assert i.tolist() == [-5 + 7 * k for k in range(104)]
    assert few.tolist() == [2, 5, 8, 11, 14, -1, -1, -1]
    with pytest.raises(TaskError, match="count must be > 0"):
        vec(lambda t: asc.arith_progression(t, 0, 1, 0), [], [np.zeros(8, np.int32)])
    with pytest.raises(TaskError, match="arith_progression does not support uint16"):
        vec(lambda t: asc.arith_progression(t, 0, 1, 4), [], [np.zeros(16, np.uint16)])


def test_arith_progression_past_its_buffer(run) -> None:
    @asc.kernel
    def k(big, p):
        pipe = asc.TPipe()
        b = asc.TBuf()
        pipe.init_buffer(b, 96)
        n = 100 if not big else asc.total_ub_size() // 4 + 8
        asc.arith_progression(b.get(asc.float32), 0.0, 1.0, n)

    with pytest.warns(asc.KernelSanitizerWarning, match="write past a local buffer"):
        launch, _ = run(k, 1, np.zeros(8, np.float32), extra=(False,))
    assert [d.op for d in launch.diagnostics] == ["arith_progression"]  # legal inside UB: diagnosed
    with pytest.raises(TaskError) as info:  # past UB itself: a fault
        run(k, 1, np.zeros(8, np.float32), extra=(True,))
    assert info.value.cause.code == errors.ACL_ERROR_RT_VECTOR_CORE_EXCEPTION


# --- Compares -------------------------------------------------------------------------------------------


def test_compares_forms(vec) -> None:
    x = np.linspace(-3, 3, 128).astype(np.float32)

    def body(all_, part, strided, eq, s):
        asc.compares(all_, s, 0.5, asc.CMPMODE.LT, 128)
        asc.compares(part, s, 0.5, asc.CMPMODE.GE, 100)  # one whole repeat of 64 compared only
        asc.compares(strided, s, 0.0, asc.CMPMODE.GT, 0, 2, U(1, 1, 8, 8))  # the mask is reserved
        asc.compares(eq, s.reinterpret_cast(asc.int32), x.view(np.int32)[3], asc.CMPMODE.EQ, 128)

    init = np.full(32, 0xAA, np.uint8)
    all_, part, strided, eq = vec(body, [x], [init] * 4)
    assert all_[:16].tolist() == np.packbits(x < 0.5, bitorder="little").tolist()
    assert part[:8].tolist() == np.packbits(x[:64] >= 0.5, bitorder="little").tolist()
    assert (part[8:] == 0xAA).all()
    assert strided[:16].tolist() == np.packbits(x > 0, bitorder="little").tolist()
    assert np.unpackbits(eq[:16], bitorder="little").nonzero()[0].tolist() == [3]
    with pytest.raises(TaskError, match="compares does not support int32 with LT"):
        vec(lambda d, s: asc.compares(d, s, 1, asc.CMPMODE.LT, 64), [np.zeros(64, np.int32)], [init])


# --- ReduceRepeat, ReduceDataBlock ------------------------------------------------------------------------


def test_reduce_repeat_the_documented_example(vec) -> None:
    x = np.repeat(np.array([1, 2, 3, 4], np.float16), 128)
    for r, pos in enumerate((52, 100, 19, 7)):
        x[r * 128 + pos] = 11 + r

    def body(vi, only_v, only_i, sums, s):
        asc.reduce_repeat(vi, s, 128, 4, 1, 1, 8, reduce_type=asc.ReduceType.MAX)
        asc.reduce_repeat(only_v, s, 128, 4, 1, 1, 8, asc.ReduceOrder.ORDER_ONLY_VALUE,
                          reduce_type=asc.ReduceType.MAX)
        asc.reduce_repeat(only_i, s, 128, 4, 1, 1, 8, asc.ReduceOrder.ORDER_ONLY_INDEX,
                          reduce_type=asc.ReduceType.MAX)
        asc.reduce_repeat(sums, s, 128, 4, 1, 1, 8, reduce_type=asc.ReduceType.SUM)

    z = np.zeros(16, np.float16)
    vi, only_v, only_i, sums = vec(body, [x], [z, z, z, z])
    assert vi[:8:2].tolist() == [11, 12, 13, 14] and vi[1:8:2].view(np.uint16).tolist() == [52, 100, 19, 7]
    assert only_v[:4].tolist() == [11, 12, 13, 14]
    assert only_i[:8].view(np.uint32).tolist() == [52, 100, 19, 7]  # one uint32 slot each, as documented
    assert sums[:4].tolist() == [float(x[r * 128:(r + 1) * 128].astype(np.float32).sum()) for r in range(4)]


def test_reduce_data_block(vec) -> None:
    x = np.arange(128, dtype=np.float32)[::-1].copy()

    def body(mx, mn, sm, s):
        asc.reduce_data_block(mx, s, 64, 2, 1, 1, 8, reduce_type=asc.ReduceType.MAX)
        asc.reduce_data_block(mn, s, 64, 2, 1, 1, 8, reduce_type=asc.ReduceType.MIN)
        asc.reduce_data_block(sm, s, 64, 2, 1, 1, 8, reduce_type=asc.ReduceType.SUM)

    z = np.zeros(16, np.float32)
    mx, mn, sm = vec(body, [x], [z, z, z])
    blocks = x.reshape(16, 8)
    assert mx.tolist() == blocks.max(1).tolist() and mn.tolist() == blocks.min(1).tolist()
    assert sm.tolist() == blocks.sum(1).tolist()
    with pytest.raises(TaskError, match="reduce_type must be SUM, MAX or MIN"):
        vec(lambda d, s: asc.reduce_data_block(d, s, 64, 1, 1, 1, 8, reduce_type=asc.ReduceType.NONE),
            [x], [z])


def test_recorded_ops_and_accesses(run) -> None:
    @asc.kernel
    def k(p):
        pipe = asc.TPipe()
        b = asc.TBuf()
        pipe.init_buffer(b, 4096)
        t = b.get(asc.float32)
        asc.arith_progression(t, 0.0, 1.0, 100)  # a scalar block, 7 block Adds, 1 tail Adds
        asc.pipe_barrier(asc.PIPE_V)
        asc.axpy(t[128:], t, 2.0, 100)
        asc.pipe_barrier(asc.PIPE_V)
        asc.compares(t.reinterpret_cast(asc.uint8)[1024:], t, 3.0, asc.CMPMODE.EQ, 128)

    launch, _ = run(k, 1, np.zeros(8, np.float32))
    ins = [i for i in launch.streams[0] if i.op in ("arith_progression", "axpy", "compares")]
    ap, ax, cmp_ = ins
    assert ap.writes[0].length == 104 * 4 and ap.cost.repeats == 1 + 7 + 1
    assert [a.length for a in ax.reads] == [400, 400] and ax.writes[0].offset == ap.writes[0].offset + 512
    assert cmp_.reads[0].length == 512 and cmp_.writes[0].length == 16


def test_reduce_pair_elem(vec) -> None:
    x = np.arange(256, dtype=np.float16)

    def body(d, s):
        asc.reduce_pair_elem(d, s, 128, 2, 1, 1, 8)

    (d,) = vec(body, [x], [np.zeros(128, np.float16)])
    assert d.tolist() == (x[0::2] + x[1::2]).tolist()
    with pytest.raises(TaskError, match="reduce_type must be SUM"):
        vec(lambda d, s: asc.reduce_pair_elem(d, s, 128, 1, 1, 1, 8, reduce_type=asc.ReduceType.MAX), [x],
            [np.zeros(128, np.float16)])


def test_compares_timed_by_the_att_row() -> None:
    from aclsim.arch import get_chip
    from aclsim.isa import Access, Cost, Instr, Pipe, Space
    from aclsim.sim.costs import CostModel

    model = CostModel(get_chip("910B"))
    row = dict((op, (h16, p16, h32, p32)) for op, h16, p16, h32, p32 in get_chip("910B").vector_api_costs)
    assert row["compares"] == (21.92, 1.0, 22.31, 1.0)  # [ATT] CompareScalar: under a cycle a repeat -> 1
    for width, head in ((2, 21.92), (4, 22.31)):
        ins = Instr(Pipe.V, "compares", (Access(Space.UB, 0, 512),), (Access(Space.UB, 4096, 16),),
                    cost=Cost(repeats=2, width=width))
        assert model.cycles(ins, ins.cost) == pytest.approx(head + 2 * model.beats(ins))
