"""``int4b_t``: the packed 4-bit signed type in tensors, element access and data copies."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.isa import Space

P = asc.TPosition
I4 = asc.int4b_t
VEC = errors.ACL_ERROR_RT_VECTOR_CORE_EXCEPTION


def pack(v: np.ndarray) -> np.ndarray:
    """int4 values -8..7 as the device packs them: element 2k in the low nibble of byte k."""
    u = (np.asarray(v, np.int64).ravel() & 0xF).astype(np.uint8)
    u = np.append(u, np.zeros(u.size % 2, np.uint8))  # an odd count: the last high nibble 0
    return u[0::2] | (u[1::2] << 4)


def values(n: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(-8, 8, n).astype(np.int8)


def test_packing_is_low_nibble_first_as_documented() -> None:
    # LoadDataWithTranspose's page: 6 and 7 packed into one byte give 0b0111_0110 = 118
    assert pack(np.array([6, 7]))[0] == 118


@asc.kernel
def sizes(out: list[Any], x: Any) -> None:
    pipe = asc.TPipe()
    que, buf = asc.TQue(P.VECIN, 1), asc.TBuf(P.VECCALC)
    pipe.init_buffer(que, 1, 64)
    pipe.init_buffer(buf, 96)
    t = que.alloc_tensor(I4)
    g = asc.GlobalTensor(I4)
    g.set_global_buffer(x)
    b = buf.get(I4)
    out.extend([t.get_size(), t.get_length(), b.get_size(), buf.get(I4, 10).get_size(),
                t[64].get_size(), t[64].get_phy_addr(), t.reinterpret_cast(asc.int16).get_size(),
                t.reinterpret_cast(asc.int16).reinterpret_cast(I4).get_size(), g.get_size(),
                g[10].get_size(), repr(t)])
    que.free_tensor(t)


def test_sizes_count_elements_two_per_byte(run) -> None:
    out: list[Any] = []
    run(sizes, 1, np.zeros(50, np.uint8), extra=(out,))
    assert out[:4] == [128, 64, 192, 10]
    assert out[4:10] == [64, 32, 32, 128, 100, 90]
    assert "int4b_t x128" in out[10]


@asc.kernel
def values_kernel(out: list[Any], x: Any, y: Any) -> None:
    pipe = asc.TPipe()
    buf = asc.TBuf(P.VECCALC)
    pipe.init_buffer(buf, 64)
    t = buf.get(I4)
    g, h = asc.GlobalTensor(I4), asc.GlobalTensor(I4)
    g.set_global_buffer(x)
    h.set_global_buffer(y)
    for i in range(6):
        t.set_value(i, g.get_value(i))
    t.set_value(6, 9)  # stored as its low four bits: -7
    out.extend(int(t.get_value(i)) for i in range(7))
    out.append(t.numpy()[:7].tolist())
    h.set_value(3, -8)
    h.set_value(4, 5)


def test_get_and_set_value_read_one_nibble_sign_extended(run) -> None:
    v = np.array([-8, 7, -1, 0, 3, -5, 0, 0], np.int8)
    out: list[Any] = []
    _, (_, y) = run(values_kernel, 1, pack(v), np.full(4, 0x99, np.uint8), extra=(out,))
    assert out[:7] == [*v[:6].tolist(), -7] and out[7] == out[:7]
    # only the written nibble changes: byte 1 keeps its low nibble, byte 2 its high nibble
    assert y.tolist() == [0x99, 0x89, 0x95, 0x99]


@asc.kernel
def copy_through_ub(n: int, x: Any, y: Any) -> None:
    pipe = asc.TPipe()
    que = asc.TQue(P.VECIN, 1)
    pipe.init_buffer(que, 1, 256)
    g, h = asc.GlobalTensor(I4), asc.GlobalTensor(I4)
    g.set_global_buffer(x)
    h.set_global_buffer(y)
    t = que.alloc_tensor(I4)
    asc.data_copy(t, g[64], n)  # counts elements: n / 2 bytes, from byte 32
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.data_copy(h, t, n)
    que.free_tensor(t)


def test_data_copy_counts_int4_elements(run) -> None:
    v = values(512, 1)
    launch, (_, y) = run(copy_through_ub, 1, pack(v), np.zeros(256, np.uint8), extra=(384,))
    assert np.array_equal(y[:192], pack(v[64:448])) and not y[192:].any()
    moves = [i for i in launch.streams[0] if i.op == "data_copy"]
    gm = [a for i in moves for a in (*i.reads, *i.writes) if a.space is Space.GM]
    assert [a.length for a in gm] == [192, 192] and gm[0].offset % 64 == 32


@asc.kernel
def odd_offset(out: list[Any], x: Any) -> None:
    g = asc.GlobalTensor(I4)
    g.set_global_buffer(x)
    pipe = asc.TPipe()
    buf = asc.TBuf(P.VECCALC)
    pipe.init_buffer(buf, 64)
    t = buf.get(I4)
    t.set_value(2, 5)
    out.extend([t[3].get_phy_addr() - t.get_phy_addr(), t[3].get_size(), int(t[3].get_value(0)),
                int(g[5].get_value(0)), int(g.get_phy_addr(5)) - int(g.get_phy_addr())])


def test_an_odd_offset_starts_at_the_byte_holding_the_element(run) -> None:
    """Ascend C's operator[] on int4b_t adds offset / 2 bytes (rounded down): element 3 of a tensor
    is in byte 1, whose low nibble is element 2 (and the sub-tensor holds 126 elements)."""
    out: list[Any] = []
    run(odd_offset, 1, pack(np.array([0, 1, 2, 3, 4, 5, 6, 7])), extra=(out,))
    assert out == [1, 126, 5, 4, 2]


@asc.kernel
def mixed(x: Any) -> None:
    pipe = asc.TPipe()
    buf = asc.TBuf(P.VECCALC)
    pipe.init_buffer(buf, 64)
    g = asc.GlobalTensor(asc.int8)
    g.set_global_buffer(x)
    asc.data_copy(buf.get(I4), g, 64)


def test_data_copy_does_not_convert_int8_to_int4(run) -> None:
    with pytest.raises(errors.TaskError) as info:
        run(mixed, 1, np.zeros(64, np.int8))
    assert "data_copy between int8 and int4b_t" in str(info.value.cause)


@asc.kernel
def cast_kernel(mode: Any, n: int, x: Any, q: Any, y: Any) -> None:
    pipe = asc.TPipe()
    a, b, c = asc.TBuf(P.VECCALC), asc.TBuf(P.VECCALC), asc.TBuf(P.VECCALC)
    for t in (a, c):
        pipe.init_buffer(t, 2 * n)
    pipe.init_buffer(b, n // 2)
    h, g4, h2 = asc.GlobalTensor(asc.half), asc.GlobalTensor(I4), asc.GlobalTensor(asc.half)
    h.set_global_buffer(x)
    g4.set_global_buffer(q)
    h2.set_global_buffer(y)
    src, mid, back = a.get(asc.half), b.get(asc.int8).reinterpret_cast(I4), c.get(asc.half)
    asc.data_copy(src, h, n)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.cast(mid, src, mode, n)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.cast(back, mid, asc.RoundMode.CAST_NONE, n)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.data_copy(g4, mid, n)
    asc.data_copy(h2, back, n)


ROUND = {
    asc.RoundMode.CAST_NONE: np.rint, asc.RoundMode.CAST_RINT: np.rint, asc.RoundMode.CAST_FLOOR: np.floor,
    asc.RoundMode.CAST_CEIL: np.ceil, asc.RoundMode.CAST_TRUNC: np.trunc,
    asc.RoundMode.CAST_ROUND: lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5),
}


@pytest.mark.parametrize("mode", list(ROUND))
def test_cast_half_to_int4_rounds_and_saturates_and_back_is_exact(run, mode) -> None:
    n = 128
    x = np.concatenate([np.arange(-12, 12, 0.5), [-8.5, 7.5, 2.5, -2.5, np.nan, np.inf, -np.inf, 0.49],
                        np.random.default_rng(2).uniform(-9, 9, 72)]).astype(np.float16)
    want = np.clip(np.nan_to_num(ROUND[mode](x.astype(np.float64)), nan=0, posinf=7, neginf=-8), -8, 7)
    launch, (_, q, y) = run(cast_kernel, 1, x, np.zeros(n // 2, np.uint8), np.zeros(n, np.float16),
                            extra=(mode, n))
    assert np.array_equal(q, pack(want)) and np.array_equal(y, want.astype(np.float16))
    casts = [i for i in launch.streams[0] if i.op == "cast"]
    assert [(i.reads[0].length, i.writes[0].length) for i in casts] == [(256, 64), (64, 256)]


@asc.kernel
def bad_cast(case: int) -> None:
    pipe = asc.TPipe()
    buf = asc.TBuf(P.VECCALC)
    pipe.init_buffer(buf, 1024)
    f, i4 = buf.get(asc.float32), buf.get(I4)[512]
    if case == 0:
        asc.cast(i4, f, asc.RoundMode.CAST_RINT, 64)
    elif case == 1:
        asc.cast(i4, buf.get(asc.half), asc.RoundMode.CAST_RINT, 63)
    else:
        asc.cast(i4, buf.get(asc.half), asc.RoundMode.CAST_RINT, 63, 1, asc.UnaryRepeatParams(1, 1, 2, 8))


@pytest.mark.parametrize("case,cls,text", [
    (0, errors.FeatureNotSupportedError, "float32 -> int4b_t is not a documented int4b_t conversion"),
    (1, ValueError, "needs an even count"),
    (2, ValueError, "selects elements in pairs"),
])
def test_int4_casts_outside_the_documented_pairs_are_refused(run, case, cls, text) -> None:
    with pytest.raises(errors.TaskError) as info:
        run(bad_cast, 1, extra=(case,))
    e = info.value.cause
    assert isinstance(e, cls) and text in str(e), str(e)


@asc.kernel
def mm4(m: int, n: int, k: int, a: Any, b: Any, c: Any) -> None:
    """int4 A (zZ) and B (nZ) fractals of 16 x 64 elements (512 B), packed on the host: GM -> L1 by
    element count, L1 -> L0A/L0B by load_data, mmad into int32, fixpipe out."""
    m1, n1, k1 = -(-m // 16), -(-n // 16), -(-k // 64)
    pipe = asc.TPipe()
    sizes = {P.A1: m1 * k1 * 512, P.B1: k1 * n1 * 512, P.A2: m1 * k1 * 512, P.B2: k1 * n1 * 512,
             P.CO1: m1 * n1 * 1024}
    bufs = {p: asc.TBuf(p) for p in sizes}
    for p, buf in bufs.items():
        pipe.init_buffer(buf, sizes[p])
    ga, gb, gc = asc.GlobalTensor(I4), asc.GlobalTensor(I4), asc.GlobalTensor(asc.int32)
    ga.set_global_buffer(a)
    gb.set_global_buffer(b)
    gc.set_global_buffer(c)
    a1, b1, a2, b2 = (bufs[p].get(I4) for p in (P.A1, P.B1, P.A2, P.B2))
    asc.data_copy(a1, ga, m1 * k1 * 1024)
    asc.data_copy(b1, gb, k1 * n1 * 1024)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.load_data(a2, a1, asc.LoadData2DParams(0, m1 * k1, 1))
    asc.load_data(b2, b1, asc.LoadData2DParams(0, k1 * n1, 1))
    asc.pipe_barrier(asc.PIPE_ALL)
    c1 = bufs[P.CO1].get(asc.int32)
    asc.mmad(c1, a2, b2, asc.MmadParams(m, n, k))
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.fixpipe(gc, c1, asc.FixpipeParamsV220(n, m, m1 * 16, n, False, asc.QuantMode.NoQuant))


def test_mmad_int4_is_exact_in_int32(run) -> None:
    m, n, k = 20, 24, 100
    m1, n1, k1 = 2, 2, 2
    rng = np.random.default_rng(3)
    a, b = rng.integers(-8, 8, (m, k)), rng.integers(-8, 8, (k, n))
    ap, bp = np.zeros((m1 * 16, k1 * 64), np.int64), np.zeros((k1 * 64, n1 * 16), np.int64)
    ap[:m, :k], bp[:k, :n] = a, b
    a_zz = ap.reshape(m1, 16, k1, 64).transpose(0, 2, 1, 3).ravel()  # fractals row-major, rows of 64
    b_nz = bp.reshape(k1, 64, n1, 16).transpose(0, 2, 3, 1).ravel()  # each fractal column-major
    launch, (_, _, c) = run(mm4, 1, pack(a_zz), pack(b_nz), np.zeros((m, n), np.int32), extra=(m, n, k))
    assert np.array_equal(c, a @ b)
    mm = [i for i in launch.streams[0] if i.op == "mmad"][0]
    # A's K in 64-element (32 B) fractal rows: half the bytes of int8 for the same k
    assert [r.length for r in mm.reads] == [m1 * k1 * 512, k1 * n1 * 512]
    assert [w.length for w in mm.writes] == [m1 * n1 * 1024]


@asc.kernel
def mm4_mixed(x: Any) -> None:
    pipe = asc.TPipe()
    a, b, c = asc.TBuf(P.A2), asc.TBuf(P.B2), asc.TBuf(P.CO1)
    for t in (a, b):
        pipe.init_buffer(t, 512)
    pipe.init_buffer(c, 1024)
    asc.mmad(c.get(asc.int32), a.get(I4), b.get(asc.int8), asc.MmadParams(16, 16, 64))


def test_mmad_int4_needs_int4_on_both_sides(run) -> None:
    with pytest.raises(errors.TaskError) as info:
        run(mm4_mixed, 1, np.zeros(4, np.uint8))
    assert "int8 or int4b_t, got int4b_t, int8" in str(info.value.cause)


@asc.kernel
def quant_out(n: int, x: Any, y: Any) -> None:
    """rms_norm_quant's int4 output: Cast half -> int4b_t (CAST_RINT), then DataCopyPad UB -> GM with
    block_len = n / 2 bytes, at an int4 element offset of the output."""
    pipe = asc.TPipe()
    qin, qout = asc.TQue(P.VECIN, 1), asc.TQue(P.VECOUT, 1)
    pipe.init_buffer(qin, 1, 2 * n)
    pipe.init_buffer(qout, 1, n // 2)
    h, g4 = asc.GlobalTensor(asc.half), asc.GlobalTensor(I4)
    h.set_global_buffer(x)
    g4.set_global_buffer(y)
    t = qin.alloc_tensor(asc.half)
    asc.data_copy(t, h, n)
    qin.enque(t)
    t = qin.deque(asc.half)
    q = qout.alloc_tensor(I4)
    asc.cast(q, t, asc.RoundMode.CAST_RINT, n)
    qin.free_tensor(t)
    qout.enque(q)
    q = qout.deque(I4)
    asc.data_copy_pad(g4[2], q, asc.DataCopyParams(1, n // 2, 0, 0))
    qout.free_tensor(q)


def test_cast_then_data_copy_pad_out_as_rms_norm_quant_does(run) -> None:
    n = 96
    x = np.random.default_rng(4).uniform(-10, 10, n).astype(np.float16)
    launch, (_, y) = run(quant_out, 1, x, np.zeros(64, np.uint8), extra=(n,))
    want = np.clip(np.rint(x.astype(np.float64)), -8, 7)
    assert y[0] == 0 and np.array_equal(y[1:49], pack(want)) and not y[49:].any()
    out = [i for i in launch.streams[0] if i.op == "data_copy_pad"][0]
    assert out.writes[0].length == n // 2


@asc.kernel
def not_for_int4(x: Any) -> None:
    pipe = asc.TPipe()
    buf = asc.TBuf(P.VECCALC)
    pipe.init_buffer(buf, 256)
    t = buf.get(I4)
    asc.duplicate(t, 1, 128)


def test_instructions_without_int4_support_refuse_it(run) -> None:
    with pytest.raises(errors.TaskError) as info:
        run(not_for_int4, 1, np.zeros(4, np.uint8))
    assert "duplicate: dst is int4b_t; aclsim handles int4b_t in" in str(info.value.cause)


@asc.kernel
def mm4_nd(m: int, n: int, k: int, ld: int, a: Any, bt: Any, c: Any) -> None:
    """The documented flow with int4 in ND: GM -> L1 by ND2NZ (rows of ``ld`` elements, odd: rows
    start inside bytes), L1 -> L0A by fractal rows, L1 -> L0B, mmad, fixpipe."""
    m1, n1, k1 = -(-m // 16), -(-n // 16), -(-k // 64)
    pipe = asc.TPipe()
    sizes = {P.A1: m1 * k1 * 512, P.B1: k1 * n1 * 512, P.A2: m1 * k1 * 512, P.B2: k1 * n1 * 512,
             P.CO1: m1 * n1 * 1024}
    bufs = {p: asc.TBuf(p) for p in sizes}
    for p, buf in bufs.items():
        pipe.init_buffer(buf, sizes[p])
    ga, gb, gc = asc.GlobalTensor(I4), asc.GlobalTensor(I4), asc.GlobalTensor(asc.int32)
    ga.set_global_buffer(a)
    gb.set_global_buffer(bt)
    gc.set_global_buffer(c)
    a1, b1, a2, b2 = (bufs[p].get(I4) for p in (P.A1, P.B1, P.A2, P.B2))
    asc.data_copy(a1, ga, asc.Nd2NzParams(1, m, k, 0, ld, m1 * 16, 1, 0))
    asc.data_copy(b1, gb, asc.Nd2NzParams(1, n, k, 0, ld, n1 * 16, 1, 0))
    asc.pipe_barrier(asc.PIPE_ALL)
    for i in range(m1):  # fractal row i of A: fractals (i, 0..k1-1), m1 apart in L1's NZ
        asc.load_data(a2[i * k1 * 1024], a1, asc.LoadData2DParams(i, k1, m1))
    asc.load_data(b2, b1, asc.LoadData2DParams(0, k1 * n1, 1))
    asc.pipe_barrier(asc.PIPE_ALL)
    c1 = bufs[P.CO1].get(asc.int32)
    asc.mmad(c1, a2, b2, asc.MmadParams(m, n, k))
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.fixpipe(gc, c1, asc.FixpipeParamsV220(n, m, m1 * 16, n, False, asc.QuantMode.NoQuant))


def test_nd2nz_of_int4_feeds_an_exact_mmad(run) -> None:
    m, n, k, ld = 20, 24, 100, 101
    rng = np.random.default_rng(8)
    a, bt = rng.integers(-8, 8, (m, ld)), rng.integers(-8, 8, (n, ld))  # column k: not part of the matrix
    launch, (_, _, c) = run(mm4_nd, 1, pack(a), pack(bt),
                            np.zeros((m, n), np.int32), extra=(m, n, k, ld))
    assert np.array_equal(c, a[:, :k] @ bt[:, :k].T)
    nd2nz = [i for i in launch.streams[0] if i.op == "data_copy"]
    # GM: m rows of ld nibbles read up to the last element used; L1: up to the last NZ element written
    assert [i.reads[0].length for i in nd2nz] == [-(-((m - 1) * ld + k) // 2), -(-((n - 1) * ld + k) // 2)]
    last = [64 * 32 + (rows - 1) * 64 + (k - 64) for rows in (m, n)]  # column group 1 (of 32 rows)
    assert [i.writes[0].length for i in nd2nz] == [e // 2 for e in last]


@asc.kernel
def cast_strided(mask: Any, reps: int, p: Any, back: Any, x: Any, q: Any, y: Any) -> None:
    pipe = asc.TPipe()
    a, b, c = asc.TBuf(P.VECCALC), asc.TBuf(P.VECCALC), asc.TBuf(P.VECCALC)
    pipe.init_buffer(a, 1024)
    pipe.init_buffer(b, 256)
    pipe.init_buffer(c, 1024)
    h, g4, h2 = asc.GlobalTensor(asc.half), asc.GlobalTensor(I4), asc.GlobalTensor(asc.half)
    h.set_global_buffer(x)
    g4.set_global_buffer(q)
    h2.set_global_buffer(y)
    src, mid, out = a.get(asc.half), b.get(I4), c.get(asc.half)
    asc.data_copy(src, h, 512)
    asc.duplicate(b.get(asc.int8), 0, 256)
    asc.duplicate(out, 0.0, 512)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.cast(mid, src, asc.RoundMode.CAST_FLOOR, mask, reps, p)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.cast(out, mid, asc.RoundMode.CAST_NONE, mask, reps, back)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.data_copy(g4, mid, 512)
    asc.data_copy(h2, out, 512)


@pytest.mark.parametrize("mask,reps", [(128, 2), (64, 3)])
def test_cast_int4_mask_repeat_form(run, mask, reps) -> None:
    x = np.random.default_rng(9).uniform(-10, 10, 512).astype(np.float16)
    p, back = asc.UnaryRepeatParams(1, 1, 2, 8), asc.UnaryRepeatParams(1, 1, 8, 2)
    launch, (_, q, y) = run(cast_strided, 1, x, np.zeros(256, np.uint8), np.zeros(512, np.float16),
                            extra=(mask, reps, p, back))
    want4 = np.zeros(512)
    want_h = np.zeros(512)
    for r in range(reps):
        sel = np.arange(mask)
        want4[r * 128 + sel] = np.clip(np.floor(x[r * 128 + sel].astype(np.float64)), -8, 7)
        want_h[r * 128 + sel] = want4[r * 128 + sel]
    assert np.array_equal(q, pack(want4)) and np.array_equal(y, want_h.astype(np.float16))
    first = [i for i in launch.streams[0] if i.op == "cast"][0]
    assert first.reads[0].length == ((reps - 1) * 128 + mask) * 2 and first.writes[0].length == \
        ((reps - 1) * 128 + mask) // 2


def test_placed_and_allocated_int4_tensors_take_half_a_byte_an_element(run) -> None:
    seen = {}

    @asc.kernel
    def k(x):
        ub = asc.LocalMemAllocator(asc.Hardware.UB)
        a = ub.alloc(asc.int4b_t, 128)
        b = ub.alloc(asc.float16, 16)
        seen["a"], seen["b"], seen["head"] = a.get_phy_addr(), b.get_phy_addr(), ub.get_cur_addr()
        seen["placed"] = asc.local_tensor(asc.int4b_t, asc.TPosition.VECCALC, 256, 64).buf_end

    run(k, 1, np.zeros(16, np.float16))
    assert (int(seen["b"]) - int(seen["a"]), seen["head"] - int(seen["a"])) == (64, 96)
    assert seen["placed"] == 256 + 32  # 64 elements: 32 B
