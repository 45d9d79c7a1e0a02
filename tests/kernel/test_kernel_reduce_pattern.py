"""The high-level ReduceSum<float, Pattern::Reduce::AR/RA>: against NumPy sums in the library's order (written
here in float32 with NumPy, independently of the kernel code) and against float64 sums."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim.errors import TaskError

AR, RA = asc.Pattern.Reduce.AR, asc.Pattern.Reduce.RA


def tree(x: np.ndarray) -> np.float32:
    """Adjacent pairs, then pairs of pairs (x a power of two long), in float32."""
    x = x.astype(np.float32)
    while x.size > 1:
        x = x[0::2] + x[1::2]
    return x[0]


def ar_ref(m: np.ndarray, last: int) -> np.ndarray:
    out = []
    for row in m[:, :last]:
        if last <= 8:
            out.append(tree(np.pad(row, (0, 8 - last))))
        elif last <= 64:
            out.append(tree(np.pad(row, (0, 64 - last))))
        else:
            split = 1 << (last.bit_length() - 1)
            p = split if split != last else split // 2
            acc = row[:p].copy()
            rest = row[p:]
            acc[:rest.size] = acc[:rest.size] + rest
            while acc.size > 64:
                acc = acc[0::2] + acc[1::2]
            blocks = np.array([tree(acc[i:i + 8]) for i in range(0, 64, 8)], np.float32)
            out.append(tree(blocks))
    return np.array(out, np.float32)


def ra_ref(m: np.ndarray, last: int) -> np.ndarray:
    rows = [r.copy() for r in m.astype(np.float32)]
    split = 1 << (len(rows).bit_length() - 1)
    for i in range(len(rows) - split):
        rows[i] = rows[i] + rows[split + i]
    while split > 1:
        split //= 2
        for i in range(split):
            rows[i] = rows[i] + rows[split + i]
    return rows[0][:last] + np.float32(0)


def _padded(first: int, last: int, seed: int) -> tuple[np.ndarray, int]:
    pad = -(-last // 8) * 8
    m = np.random.default_rng(seed).standard_normal((first, pad)).astype(np.float32)
    m[:, last:] = 0  # srcInnerPad: the padding holds zeros, as a DataCopyPad leaves it
    return m, pad


@pytest.mark.parametrize("first,last", [(3, 5), (2100, 3), (5, 40), (4, 200), (3, 128), (260, 72),
                                        (2, 1000)])
@pytest.mark.parametrize("reuse", [False, True])
def test_ar_row_sums(vec, first, last, reuse) -> None:
    m, pad = _padded(first, last, first * last)
    tmp0 = np.zeros(80 * 1024, np.uint8)

    def body(d, tmp, s):
        asc.reduce_sum(d, s, tmp, [first, last], True, pattern=AR, is_reuse_source=reuse)

    d, _ = vec(body, [m.ravel()], [np.zeros(-(-first // 8) * 8, np.float32), tmp0])
    got = d[:first]
    assert got.tolist() == ar_ref(m, last).tolist()
    np.testing.assert_allclose(got, m.astype(np.float64).sum(axis=1), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("first,last", [(1, 16), (2, 8), (7, 24), (8, 40), (13, 100)])
@pytest.mark.parametrize("reuse", [False, True])
def test_ra_column_sums(vec, first, last, reuse) -> None:
    m, pad = _padded(first, last, first + last)

    def body(d, s):  # the framework's buffer: no shared_tmp_buffer
        asc.reduce_sum(d, s, [first, last], True, pattern=RA, is_reuse_source=reuse)

    (d,) = vec(body, [m.ravel()], [np.zeros(pad, np.float32)])
    assert d[:last].tolist() == ra_ref(m, last).tolist()
    np.testing.assert_allclose(d[:last], m[:, :last].astype(np.float64).sum(axis=0), rtol=1e-4, atol=1e-5)


def test_the_pages_example_and_the_basic_form_still_works(vec) -> None:
    src = np.array([[0, 4, 2, 0, -1, 2, -1, 7], [0, 1, -9, 2, 2, 2, 8, 3]], np.float32)

    def body(d, basic, tmp, s):
        asc.reduce_sum(d, s, tmp, [2, 8], True, pattern=AR, is_reuse_source=True)
        asc.pipe_barrier(asc.PIPE_V)
        asc.reduce_sum(basic, s, tmp.reinterpret_cast(asc.float32), 16)  # the basic ReduceSum

    d, basic, _ = vec(body, [src.ravel()], [np.zeros(8, np.float32), np.zeros(8, np.float32),
                                             np.zeros(1024, np.uint8)])
    assert d[:2].tolist() == [13.0, 9.0]
    assert basic[0] == 22.0


def test_faults(vec, run) -> None:
    m = np.ones(64, np.float32)
    with pytest.raises(TaskError, match="smaller than the"):
        vec(lambda d, t, s: asc.reduce_sum(d, s, t, [4, 16], True, pattern=RA), [m],
            [np.zeros(16, np.float32), np.zeros(32, np.uint8)])
    with pytest.raises(TaskError, match="src_inner_pad must be True"):
        vec(lambda d, s: asc.reduce_sum(d, s, [4, 16], False, pattern=AR), [m], [np.zeros(8, np.float32)])
    with pytest.raises(TaskError, match="takes float"):
        vec(lambda d, s: asc.reduce_sum(d, s, [4, 16], True, pattern=AR), [m.astype(np.float16)],
            [np.zeros(16, np.float16)])
    with pytest.raises(TaskError, match="dst holds 8 floats, the RA sum needs 16"):
        vec(lambda d, s: asc.reduce_sum(d, s, [4, 16], True, pattern=RA), [m], [np.zeros(8, np.float32)])

    @asc.kernel(chip="310P")
    def on_310p(x):
        pipe = asc.TPipe()
        b = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(b, 1024)
        t = b.get(asc.float32)
        asc.reduce_sum(t[128], t, [2, 8], True, pattern=AR)

    with pytest.raises(TaskError, match="not available on"):
        run(on_310p, 1, np.zeros(8, np.float32))
