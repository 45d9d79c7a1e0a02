"""The C++ rows of reductions, UB copies and gathers, sorting and the high-level math APIs, each
family's kernel (tests/ascendc/more_families.cpp) run on one block and checked against NumPy."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import aclsim

SOURCE = Path(__file__).with_name("more_families.cpp")


@pytest.fixture
def run(cpp_kernels):
    """``run(name, x, n_out[, chip])``: the kernel on one block (of the tiny chip), its output (x's type)."""
    kernels = cpp_kernels([SOURCE])
    made = []

    def go(name: str, x: np.ndarray, n_out: int, chip: str = "tiny") -> tuple[np.ndarray, object]:
        aclsim.init(chip=chip)
        aclsim.set_device(0)
        stream = aclsim.create_stream()
        dx, dy = aclsim.malloc(x.nbytes), aclsim.malloc(n_out * x.itemsize)
        made.extend([dx, dy])
        aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
        launch = getattr(kernels, name)[1, stream](dx, dy)
        aclsim.synchronize_stream(stream)
        y = np.zeros(n_out, x.dtype)
        aclsim.memcpy(y, y.nbytes, dy, y.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
        return y, launch

    yield go
    for d in made:
        aclsim.free(d)


def _bits(v: np.ndarray) -> np.ndarray:
    return np.asarray(v, np.float32).view(np.uint32)


def test_reductions_match_numpy(run) -> None:
    x = np.random.default_rng(3).uniform(-10, 10, 256).astype(np.float32)
    y, launch = run("more_reduce", x, 64)
    assert y[0] == pytest.approx(float(x.sum(dtype=np.float64)), rel=1e-5, abs=1e-3)
    assert y[8] == x.max() and _bits(y[9:10])[0] == int(np.argmax(x))
    assert y[16] == x[:128].min() and _bits(y[17:18])[0] == int(np.argmin(x[:128]))
    assert y[24] == pytest.approx(float(x[:64:2].sum(dtype=np.float64)), rel=1e-5, abs=1e-3)
    assert np.allclose(y[32:36], x.reshape(4, 64).sum(1), rtol=1e-5, atol=1e-3)
    assert np.array_equal(y[40:42], x[:128].reshape(2, 64).max(1))
    assert np.array_equal(y[48:56], x[:64].reshape(8, 8).min(1))
    assert np.array_equal(y[56:64], x[:16].reshape(8, 2).sum(1))
    ops = {i.op for s in launch.streams for i in s}
    assert {"reduce_sum", "reduce_max", "reduce_min", "whole_reduce_sum", "whole_reduce_max",
            "block_reduce_min", "pair_reduce_sum"} <= ops
    # the instructions cite this file's lines
    line = next(i for i in launch.streams[0] if i.op == "whole_reduce_sum").line
    assert "WholeReduceSum" in SOURCE.read_text().splitlines()[line - 1]


def test_copy_brcb_gather_gather_mask_match_numpy(run) -> None:
    x = np.arange(128, dtype=np.float32) * 1.5 - 7
    y, _ = run("more_gather", x, 192)
    blocks = x.reshape(16, 8)
    assert np.array_equal(y[:64], blocks[0:16:2].ravel())                  # Copy, src block stride 2
    assert np.array_equal(y[64:128], np.repeat(x[:8], 8))                   # Brcb
    assert np.array_equal(y[128:160], x[:32][::-1])                         # Gather
    assert np.array_equal(y[160:191], x[:64:2][:31])                        # GatherMask pattern 1
    assert y[191] == 32                                                     # rsvdCnt written back


def test_sorts_match_numpy(run) -> None:
    x = np.random.default_rng(5).permutation(64).astype(np.float32) - 20
    y, _ = run("more_sort", x, 256)
    for r in range(2):  # Sort32: each 32 descending, (score, index) pairs
        pairs = y[r * 64:(r + 1) * 64].reshape(32, 2)
        order = np.argsort(-x[r * 32:(r + 1) * 32], kind="stable")
        assert np.array_equal(pairs[:, 0], x[r * 32:(r + 1) * 32][order])
        assert np.array_equal(_bits(pairs[:, 1]), order + r * 32)
    order = np.argsort(-x, kind="stable")  # the full sort of all 64
    assert np.array_equal(y[128:192], x[order])
    assert np.array_equal(_bits(y[192:256]), order)


def test_high_level_math_matches_numpy(run) -> None:
    x = np.random.default_rng(7).uniform(0.05, 0.95, 64).astype(np.float32)
    y, launch = run("more_math", x, 9 * 64)
    r = y.reshape(9, 64)
    assert np.allclose(r[0], np.sin(x), atol=1e-5)
    assert np.allclose(r[1], np.cos(x), atol=1e-5)
    assert np.allclose(r[2], [math.erf(v) for v in x.astype(np.float64)], atol=1e-4)
    assert np.allclose(r[3], 1 / (1 + np.exp(-x)), atol=1e-5)
    assert np.array_equal(r[4], np.floor(x * 8))
    assert np.allclose(r[5], x.astype(np.float64) ** 2.5, rtol=1e-4)
    assert np.array_equal(r[6], np.minimum(x, np.float32(0.5)))
    assert np.allclose(r[7], x / (1 + np.exp(-x)), rtol=1e-5)
    assert np.allclose(r[8], x / (1 + np.exp(-1.5 * x)), rtol=1e-5)
    assert launch.instructions > 6


def test_no_row_shadows_its_python_function() -> None:
    """A row whose Python call is a plain name runs ``lambda <C++ params>: name(...)``: a parameter
    of that name (Concat's ``concat``) would shadow the function (such a row names it ``asc.name``)."""
    import re

    from aclsim.ascendc.table import crossing, load

    for row in load().callables:
        if re.fullmatch(r"\w+", row.python) and row.kind != "method":
            assert row.python not in crossing(row), f"api_cxx.txt:{row.line}: {row.name}"


def _run3(cpp_kernels, name: str, x: np.ndarray, tiling: np.ndarray, n_out: int) -> np.ndarray:
    kernels = cpp_kernels([SOURCE])
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    bufs = [aclsim.malloc(a.nbytes) for a in (x, tiling)] + [aclsim.malloc(n_out * 4)]
    for d, a in zip(bufs[:2], (x, tiling), strict=True):
        aclsim.memcpy(d, a.nbytes, a, a.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    getattr(kernels, name)[1, stream](bufs[0], bufs[2], bufs[1])
    aclsim.synchronize_stream(stream)
    y = np.zeros(n_out, np.float32)
    aclsim.memcpy(y, y.nbytes, bufs[2], y.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    for d in bufs:
        aclsim.free(d)
    return y


def _struct_bytes(obj: object) -> np.ndarray:
    """A tiling dataclass as the C++ struct of the table lays it out (uint32 fields, float ones)."""
    import dataclasses

    words = [np.float32(v).view(np.uint32) if isinstance(v, float) else np.uint32(v)
             for v in (getattr(obj, f.name) for f in dataclasses.fields(obj))]  # type: ignore[arg-type]
    return np.array(words, np.uint32)


def test_softmax_with_its_tiling_struct_matches_numpy(cpp_kernels) -> None:
    import aclsim.kernel as asc

    x = np.random.default_rng(11).standard_normal((8, 64)).astype(np.float32) * 3
    tiling = asc.SoftMaxTiling()
    asc.soft_max_tiling_func((8, 64), 4, 16384, tiling)
    y = _run3(cpp_kernels, "more_softmax", x, _struct_bytes(tiling), 512 + 128)
    e = np.exp(x - x.max(1, keepdims=True))
    np.testing.assert_allclose(y[:512].reshape(8, 64), e / e.sum(1, keepdims=True), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(y[512:576].reshape(8, 8), np.repeat(e.sum(1)[:, None], 8, 1), rtol=1e-5)
    assert np.array_equal(y[576:].reshape(8, 8), np.repeat(x.max(1)[:, None], 8, 1))


def test_layernorm_with_its_tiling_struct_matches_numpy(cpp_kernels) -> None:
    import aclsim.kernel as asc

    rng = np.random.default_rng(12)
    x = (rng.standard_normal((2, 4, 32)) * 2 + 0.5).astype(np.float32)
    gamma, beta = rng.standard_normal(32).astype(np.float32), rng.standard_normal(32).astype(np.float32)
    tiling = asc.LayerNormTiling()
    mx, _ = asc.get_layer_norm_max_min_tmp_size((2, 4, 32), 4)
    asc.get_layer_norm_nd_tiling_info((2, 4, 32), mx, 4, False, tiling)
    y = _run3(cpp_kernels, "more_layernorm", np.concatenate([x.ravel(), gamma, beta]), _struct_bytes(tiling),
              256 + 16)
    mean = x.mean(-1)
    var = ((x - mean[..., None]) ** 2).mean(-1)
    want = (x - mean[..., None]) / np.sqrt(var[..., None] + 1e-5) * gamma + beta
    np.testing.assert_allclose(y[256:264], mean.ravel(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(y[264:272], var.ravel(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(y[:256], want.ravel(), rtol=1e-5, atol=1e-5)


def test_mrg_sort_of_a_src_list_and_its_result_counts(run) -> None:
    x = np.random.default_rng(9).permutation(128).astype(np.float32) * 0.5
    y, _ = run("more_mrgsort", x, 264)
    recs = y[:256].reshape(128, 2)
    order = np.argsort(-x, kind="stable")  # distinct scores: one order
    assert np.array_equal(recs[:, 0], x[order])
    # each record keeps the index Sort32 gave it: its position in its own queue of 32
    assert np.array_equal(_bits(recs[:, 1]), order % 32)
    assert np.array_equal(y[256:260], [32, 32, 32, 32])  # GetMrgSortResult: all taken from each queue


def test_region_proposals_on_the_310p(run) -> None:
    scores = np.random.default_rng(4).permutation(16).astype(np.float16) * np.float16(0.25)
    labels = np.arange(16, dtype=np.float16)
    y, launch = run("more_proposals", np.concatenate([scores, labels]), 32, chip="310P")
    order = np.argsort(-scores.astype(np.float32), kind="stable")
    assert np.array_equal(y[:16], scores[order]) and np.array_equal(y[16:], labels[order])
    assert {"proposal_concat", "rp_sort16", "proposal_extract"} <= {i.op for s in launch.streams for i in s}


def test_an_output_argument_crosses_as_the_rows_return() -> None:
    """``uint64_t& rsvdCnt``: the bridge encodes the Python result as a uint64_t (the row's return is
    void) and the generated C++ writes it to the argument; ``uint64_t mask[2]`` crosses as words."""
    from aclsim.ascendc import gen_cxx
    from aclsim.ascendc.table import crossing, parse_row

    row = parse_row("fn G<typename T>(LocalTensor<T> dst, uint64_t mask[2], uint64_t& cnt) = g", 1)
    assert [p.name for p in row.out_params] == ["cnt"] and row.returns == "uint64_t"
    assert crossing(row) == ["dst", "mask"]  # an output argument does not cross
    header = gen_cxx.HEADER_PATH.read_text()
    assert "rsvdCnt = ::aclsim::detail::unpack<uint64_t>(" in header
    assert "::aclsim::detail::Array{mask, 2}" in header


def test_several_output_arguments_cross_packed() -> None:
    """``GetMrgSortResult(uint16_t& l1, ..., uint16_t& l4)``: the Python tuple packed in 64 bits, the
    first lowest; the generated C++ unpacks it; outputs that do not fit 64 bits are refused."""
    from aclsim.ascendc.table import Table, TableError, crossing, dispatch, out_widths, parse_row

    row = parse_row("fn R(uint16_t& a, uint32_t& b, uint16_t& c) = asc.get_mrg_sort_result", 1)
    assert out_widths(row) == [16, 32, 16] and row.returns == "uint64_t" and crossing(row) == []
    row = parse_row("fn R(uint16_t& a, uint32_t& b, uint16_t& c) = (lambda: (1, 2**32 - 1, 3))()", 1)
    row = type(row)(**{**row.__dict__, "ident": 0})
    (fn, ret), = dispatch({}, Table([row]))
    assert ret == "uint64_t" and fn() == 1 | (2**32 - 1) << 16 | 3 << 48
    with pytest.raises(TableError, match="64-bit"):
        out_widths(parse_row("fn R(uint32_t& a, uint32_t& b, uint32_t& c) = f", 1))


def test_forms_real_kernels_write_on_half(run) -> None:
    x = (np.random.default_rng(13).permutation(128) - 64).astype(np.float16) * np.float16(0.125)
    y, _ = run("more_forms", x, 96)
    assert y[0] == pytest.approx(float(x.astype(np.float64).sum()), abs=0.05)
    assert y[2] == x.max() and y[3:4].view(np.uint16)[0] == int(np.argmax(x))
    assert np.array_equal(y[16:24], x.reshape(8, 16).max(1))
    assert np.array_equal(y[32:40], x.reshape(8, 16).min(1))
    assert np.array_equal(y[48:56], x[:16].reshape(8, 2).sum(1))
    assert np.array_equal(y[64:80], x[:16])
    assert np.array_equal(y[80:96], x[:32:2])


def test_high_level_mrg_sort_stops_when_a_queue_runs_out(run) -> None:
    x = np.random.default_rng(21).permutation(128).astype(np.float32)  # the queues interleave
    y, _ = run("more_mrgsort_exhausted", x, 264)
    order = np.argsort(-x, kind="stable")
    taken = np.zeros(4, int)
    merged = 0
    for q in order // 32:  # merge until a queue is empty
        taken[q] += 1
        merged += 1
        if taken[q] == 32:
            break
    assert np.array_equal(y[256:260], taken) and 32 < merged < 128 and np.count_nonzero(taken) > 1
    assert np.array_equal(y[:2 * merged:2], x[order[:merged]])
    assert not y[2 * merged:256].any()
