"""The vector API's overload families in C++ (examples/cpp/vec_forms.cpp) checked against NumPy:
the count, mask-count, mask-words and mask-register (MASK_PLACEHOLDER) forms, Compare /
CompareScalar / Select, Cast, int16 bitwise and shifts, DataCopyPad, the CCE flag intrinsics and
the scalar helpers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import aclsim

ROOT = Path(__file__).resolve().parents[2]
CPP_EXAMPLES = ROOT / "examples" / "cpp"  # as in conftest.py (not `from conftest import`: when
# tests of several folders run together, another folder's conftest may hold that module name)

F32 = np.float32


@pytest.fixture
def device() -> Iterator[None]:
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    yield
    aclsim.reset_device(0)
    aclsim.finalize()


@pytest.fixture
def kernels(cpp_kernels):  # type: ignore[no-untyped-def]
    return cpp_kernels([CPP_EXAMPLES / "vec_forms.cpp"])


def _run(kernel, *arrays: np.ndarray) -> list[np.ndarray]:  # type: ignore[no-untyped-def]
    """Launch ``kernel`` on one block with the arrays copied to device memory; the arrays after it."""
    bufs = [aclsim.malloc(a.nbytes) for a in arrays]
    for buf, a in zip(bufs, arrays, strict=True):
        aclsim.memcpy(buf, a.nbytes, a, a.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    out = []
    try:
        kernel[1, None](*bufs)
        aclsim.synchronize_device()
        for buf, a in zip(bufs, arrays, strict=True):
            r = np.empty_like(a)
            aclsim.memcpy(r, r.nbytes, buf, r.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
            out.append(r)
    finally:
        for buf in bufs:
            aclsim.free(buf)
    return out


def _lanes(per_rep: int, repeats: int, lanes: np.ndarray) -> np.ndarray:
    """Indices of the elements a normal-mode mask selects (``lanes``: positions within a repeat)."""
    return (np.arange(repeats)[:, None] * per_rep + lanes[None, :]).ravel()


def _bits(words: tuple[int, int], per_rep: int) -> np.ndarray:
    value = words[0] | (words[1] << 64)
    return np.array([j for j in range(per_rep) if value >> j & 1])


def test_float_forms(device, kernels) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(3)
    n = 128
    a = rng.uniform(-4, 4, n).astype(F32)
    b = rng.uniform(-4, 4, n).astype(F32)
    _, _, out = _run(kernels.vec_float_forms, a, b, np.full(12 * n, np.nan, F32))
    seg = out.reshape(12, n)
    want = np.zeros((12, n), F32)
    first = lambda k: _lanes(64, 2, np.arange(k))  # noqa: E731 - the first k lanes of each repeat
    words = _lanes(64, 2, _bits((0xFFFF0000, 0), 64))
    want[0] = a - b
    want[1][first(32)] = (a * b)[first(32)]
    want[2][words] = np.maximum(a, b)[words]
    reg = _lanes(64, 2, _bits((0xF0F0F0F0F0F0F0F0, 0), 64))
    want[3][reg] = (a + b)[reg]
    want[4][first(48)] = np.abs(a)[first(48)]
    want[5][words] = np.maximum(a, 0)[words]
    want[6][first(40)] = (a + F32(1.5))[first(40)]
    want[7][words] = (a * F32(2))[words]
    want[8][first(8)] = 7
    want[9] = a * F32(0.5)
    want[10][:100] = a[:100] + F32(1)
    want[11][:64] = np.minimum(a, b)[:64]
    np.testing.assert_array_equal(seg, want)


def test_compare_select_cast(device, kernels) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(4)
    n = 128
    a = rng.uniform(-3, 3, n).astype(F32)
    a[:8] = [0.5, 1.5, 2.5, -0.5, -2.5, 0.25, 0.0, 3.0]  # ties for CAST_ROUND, the CompareScalar edge
    b = rng.uniform(-3, 3, n).astype(F32)
    b[9] = a[9]
    res = _run(kernels.vec_cmp_cast, a, b, np.zeros(128, np.uint8), np.zeros(n, np.float16),
               np.zeros(n, np.int32), np.zeros(3 * n, F32))
    bits, h, i, sel = res[2:]
    unpack = lambda raw: np.unpackbits(raw, bitorder="little")[:n].astype(bool)  # noqa: E731
    lt, gt0, ge_low, le_q = (unpack(bits[k * 32:k * 32 + 16]) for k in range(4))
    np.testing.assert_array_equal(lt, a < b)
    np.testing.assert_array_equal(gt0, a > 0)
    low = _lanes(64, 2, np.arange(16))
    want_ge = np.zeros(n, bool)
    want_ge[low] = (a >= b)[low]
    np.testing.assert_array_equal(ge_low, want_ge)
    np.testing.assert_array_equal(le_q, a <= F32(0.25))
    s = sel.reshape(3, n)
    np.testing.assert_array_equal(s[0], np.where(a < b, a, b))
    np.testing.assert_array_equal(s[1], np.where(a > 0, a, F32(-1)))
    want_sel = np.zeros(n, F32)
    want_sel[low] = np.where(want_ge, a, b)[low]
    np.testing.assert_array_equal(s[2], want_sel)
    np.testing.assert_array_equal(h.view(np.uint16), a.astype(np.float16).view(np.uint16))
    np.testing.assert_array_equal(i, (np.sign(a) * np.floor(np.abs(a) + 0.5)).astype(np.int32))


def test_int16_forms(device, kernels) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(5)
    m = 256
    a = rng.integers(-30000, 30000, m, dtype=np.int16)
    b = rng.integers(-30000, 30000, m, dtype=np.int16)
    _, _, out = _run(kernels.vec_int16_forms, a, b, np.full(8 * m, 99, np.int16))
    seg = out.reshape(8, m)
    want = np.zeros((8, m), np.int16)
    first = lambda k: _lanes(128, 2, np.arange(k))  # noqa: E731
    words = _lanes(128, 2, _bits((0x00FF00FF00FF00FF, 0xFFFF000000000000), 128))
    want[0][first(64)] = (a & b)[first(64)]
    want[1][words] = (a | b)[words]
    want[2][first(100)] = (~a)[first(100)]
    au = a.view(np.uint16)  # ShiftLeft of a signed type: the sign bit stays (the documented arithmetic shift)
    want[3] = ((au & 0x8000) | ((au << 3) & 0x7FFF)).astype(np.uint16).view(np.int16)
    want[4][first(128)] = (a >> 2)[first(128)]
    rounded = (a >> 4) + ((a >> 3) & 1)  # round_en: plus the last bit shifted out
    want[5][words] = rounded.astype(np.int16)[words]
    want[6] = np.arange(5, 5 + m, dtype=np.int16)
    want[7][words] = -3
    np.testing.assert_array_equal(seg, want)


def test_data_copy_pad(device, kernels) -> None:  # type: ignore[no-untyped-def]
    x = np.arange(1, 17, dtype=F32)
    _, out, out2 = _run(kernels.vec_pad_copy, x, np.zeros(16, F32), np.zeros(8, F32))
    want = np.zeros(16, F32)
    want[0:5], want[5:7] = x[0:5], -1
    want[8:13], want[13:15] = x[5:10], -1
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(out2, np.array([11, 12, 13, 2, 2, 2, 2, 2], F32))


def test_scalar_helpers(device, kernels) -> None:  # type: ignore[no-untyped-def]
    out, fout = _run(kernels.vec_scalars, np.zeros(8, np.int32), np.zeros(8, F32))
    import aclsim.kernel as asc

    assert out[0] == 64 * 4  # GetPhyAddr: bytes
    assert out[1] == int(asc.TPosition.VECCALC)
    assert out[2] == 32
    want = np.float32(1.0 + 1 / 256 + 1 / 65536).view(np.uint32) + 0x7FFF + 1 >> 16  # nearest, ties up: odd
    assert out[3] == want
    assert fout[0] == np.uint32(want << 16).view(F32)
    assert out[4:6].view(np.uint64)[0] == 0xF000000000000001  # a uint64 crosses both ways whole
    assert fout[1] == -2.5  # a bfloat16 result crosses as its value (not as an object handle)


def test_data_copy_enhanced_params(device, kernels) -> None:  # type: ignore[no-untyped-def]
    x = np.arange(32, dtype=F32)
    _, out = _run(kernels.vec_copy_forms, x, np.zeros(16, F32))
    np.testing.assert_array_equal(out, np.concatenate([x[0:8], x[16:24]]))


def test_scalar_bit_helpers(device, kernels) -> None:  # type: ignore[no-untyped-def]
    (out,) = _run(kernels.vec_scalar_bits, np.zeros(12, np.int64))
    assert out.tolist() == [16, 48, 7, 64, 6, -1, 62, 5, -1, 3, 0, 2]


def test_flag_between_pipes_no_event_joins_fails_at_its_line(device, kernels) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(aclsim.AclError) as info:
        _run(kernels.vec_bad_flag, np.zeros(8, F32))
    text = str(info.value)
    assert "no HardEvent from S to S" in text and "vec_forms.cpp" in text
    line = next(i for i, s in enumerate((CPP_EXAMPLES / "vec_forms.cpp").read_text().splitlines(), 1)
                if "set_flag(PIPE_S, PIPE_S" in s)
    assert f"vec_forms.cpp:{line}" in text


def test_all_float_mask_forms(device, kernels) -> None:  # type: ignore[no-untyped-def]
    """Each float overload of the mask forms once (examples/cpp/vec_forms.cpp: vec_all_forms)."""
    rng = np.random.default_rng(6)
    n = 128
    a = rng.uniform(-4, 4, n).astype(F32)
    b = rng.uniform(0.5, 4, n).astype(F32) * rng.choice([-1, 1], n).astype(F32)
    p = rng.uniform(0.1, 8, n).astype(F32)
    out = _run(kernels.vec_all_forms, a, b, p, np.full(44 * n, np.nan, F32))[3].reshape(44, n)
    count = _lanes(64, 2, np.arange(40))
    words = _lanes(64, 2, _bits((0xFF00FF00F0F0F0F0, 0), 64))
    p64 = p.astype(np.float64)
    want_of = {  # in the kernel's order; the transcendental ones compared to 2e-7 relative
        "add": a + b, "sub": a - b, "mul": a * b, "div": a / b,
        "max": np.maximum(a, b), "min": np.minimum(a, b),
        "exp": np.exp(a), "ln": np.log(p), "abs": np.abs(a), "sqrt": np.sqrt(p),
        "rsqrt": (1 / np.sqrt(p64)).astype(F32), "reciprocal": (1 / p64).astype(F32),
        "relu": np.maximum(a, 0), "adds": a + F32(1.5), "muls": a * F32(-2),
        "maxs": np.maximum(a, F32(0.5)), "mins": np.minimum(a, F32(0.5)),
        "leaky_relu": np.where(a >= 0, a, a * F32(0.25)), "axpy": a * F32(0.5),
    }
    order = list(want_of)
    for i, name in enumerate(order):
        for j, lanes in enumerate((count, words)):
            seg = out[2 * i + j]
            want = np.zeros(n, F32)
            want[lanes] = want_of[name][lanes]
            if name in ("exp", "ln", "sqrt", "rsqrt", "reciprocal"):
                np.testing.assert_allclose(seg, want, rtol=2e-7, err_msg=f"{name} form {j}")
            else:
                np.testing.assert_array_equal(seg, want, err_msg=f"{name} form {j}")
    k = 2 * len(order)
    index = np.zeros((2, n), F32)
    for j, lanes in enumerate((count, words)):
        index[j][lanes] = (F32(3) + np.arange(n, dtype=F32))[lanes]
    np.testing.assert_array_equal(out[k:k + 2], index)
    floor_words, floor_count = np.zeros(n, F32), np.zeros(n, F32)
    floor_words[words] = np.floor(a)[words]
    floor_count[count] = np.floor(a)[count]  # SetVectorMask<float>(40): the first 40 lanes
    np.testing.assert_array_equal(out[k + 2], floor_words)
    np.testing.assert_array_equal(out[k + 3], floor_count)
    np.testing.assert_array_equal(out[k + 4], F32(1) + F32(0.5) * np.arange(n, dtype=F32))
    np.testing.assert_array_equal(out[k + 5], np.zeros(n, F32))


def test_compares_select_cast_more(device, kernels) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(8)
    n = 128
    a = rng.uniform(-3, 3, n).astype(F32)
    a[5] = 0.5
    res = _run(kernels.vec_cmp_more, a, np.zeros(128, np.uint8), np.full(3 * n, np.nan, F32),
               np.zeros(n, np.float16))
    bits, sel, h = res[1:]
    unpack = lambda raw: np.unpackbits(raw, bitorder="little")[:n].astype(bool)  # noqa: E731
    gt0, lt_half, ne_half, ge_words = (unpack(bits[k * 32:k * 32 + 16]) for k in range(4))
    words = _lanes(64, 2, _bits((0xFF00FF00F0F0F0F0, 0), 64))
    count = _lanes(64, 2, np.arange(40))
    np.testing.assert_array_equal(gt0, a > 0)
    np.testing.assert_array_equal(lt_half, a < F32(0.5))  # Compares: the mask is reserved
    np.testing.assert_array_equal(ne_half, a != F32(0.5))
    want_ge = np.zeros(n, bool)
    want_ge[words] = (a >= 0)[words]
    np.testing.assert_array_equal(ge_words, want_ge)
    s = sel.reshape(3, n)
    np.testing.assert_array_equal(s[2], np.where(a < F32(0.5), a, F32(2)))
    want0 = np.zeros(n, F32)
    want0[count] = np.where(a > 0, a, F32(0))[count]
    np.testing.assert_array_equal(s[0], want0)
    want1 = np.zeros(n, F32)
    want1[words] = np.where(a > 0, a, F32(-1))[words]
    np.testing.assert_array_equal(s[1], want1)
    want_h = np.zeros(n, np.float16)
    want_h[words] = a.astype(np.float16)[words]
    np.testing.assert_array_equal(h.view(np.uint16), want_h.view(np.uint16))


def test_int16_more_forms(device, kernels) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(9)
    m = 256
    a = rng.integers(-30000, 30000, m, dtype=np.int16)
    b = rng.integers(-30000, 30000, m, dtype=np.int16)
    seg = _run(kernels.vec_int16_more, a, b, np.full(8 * m, 99, np.int16))[2].reshape(8, m)
    words = _lanes(128, 2, _bits((0x00FF00FF00FF00FF, 0xFFFF000000000000), 128))
    first = lambda k: _lanes(128, 2, np.arange(k))  # noqa: E731
    au = a.view(np.uint16)
    shl = lambda s: ((au & 0x8000) | ((au << s) & 0x7FFF)).astype(np.uint16).view(np.int16)  # noqa: E731
    want = np.zeros((8, m), np.int16)
    want[0][words] = (a & b)[words]
    want[1][first(64)] = (a | b)[first(64)]
    want[2][words] = (~a)[words]
    want[3][first(100)] = shl(2)[first(100)]
    want[4][words] = shl(5)[words]
    want[5][first(30)] = 9
    want[6][words] = (np.arange(m) - 7).astype(np.int16)[words]
    want[7] = a >> 3  # arithmetic for int16
    np.testing.assert_array_equal(seg, want)
