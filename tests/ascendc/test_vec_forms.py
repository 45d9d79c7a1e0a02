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
