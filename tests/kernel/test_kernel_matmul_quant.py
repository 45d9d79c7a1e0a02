"""Matmul.SetQuantScalar / SetQuantVector (int8 A/B -> half C, the fixpipe's DEQF16 / VDEQF16) and
fixpipe's cbuf_workspace form, against NumPy: int32 products times the scale's 19 bits, rounded once."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.compiler import verify_sync
from aclsim.errors import TaskError

P, F, D = asc.TPosition, asc.CubeFormat, asc.DataType
M, N, K = 40, 48, 64


def tiling() -> asc.TCubeTiling:
    t = asc.MultiCoreMatmulTiling("tiny")
    assert t.set_dim(1) == 0
    t.set_a_type(P.GM, F.ND, D.DT_INT8)
    t.set_b_type(P.GM, F.ND, D.DT_INT8, True)  # int8 B goes transposed
    t.set_c_type(P.GM, F.ND, D.DT_FLOAT16)
    t.set_bias_type(P.GM, F.ND, D.DT_INT32)
    t.set_shape(M, N, K)
    t.set_org_shape(M, N, K)
    t.set_bias(False)
    assert t.set_fix_split(32, 16, -1) == 0  # several blocks: each stages its own 16 scales
    tc = asc.TCubeTiling()
    assert t.get_tiling(tc) == 0
    return tc


@asc.kernel
def mm_quant(tc, how, word, a, b, scale, c):
    pipe = asc.TPipe()
    mm = asc.Matmul(asc.MatmulType(P.GM, F.ND, asc.int8), asc.MatmulType(P.GM, F.ND, asc.int8, True),
                    asc.MatmulType(P.GM, F.ND, asc.float16), asc.MatmulType(P.GM, F.ND, asc.int32))
    asc.regist_matmul_obj(pipe, None, mm, tc)
    ga, gb, gs, gc = (asc.GlobalTensor(t) for t in (asc.int8, asc.int8, asc.uint64, asc.float16))
    for g, x in ((ga, a), (gb, b), (gs, scale), (gc, c)):
        g.set_global_buffer(x)
    if how == "scalar":
        mm.set_quant_scalar(word)
    elif how == "vector":
        mm.set_quant_vector(gs)
    mm.set_tensor_a(ga)
    mm.set_tensor_b(gb, True)
    mm.iterate_all(gc)
    mm.end()


def words(x: np.ndarray) -> np.ndarray:
    """Float scales as the page's example builds the uint64 word (the float's bits), control bits above."""
    return x.astype(np.float32).view(np.uint32).astype(np.uint64) | (np.uint64(1) << np.uint64(46))


def truncated(x: np.ndarray) -> np.ndarray:
    return (x.astype(np.float32).view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)


def data(seed: int = 2):
    rng = np.random.default_rng(seed)
    a = rng.integers(-128, 128, (M, K)).astype(np.int8)
    b = rng.integers(-128, 128, (K, N)).astype(np.int8)
    return a, np.ascontiguousarray(b.T), a.astype(np.int32) @ b.astype(np.int32)


def test_quant_scalar(run) -> None:
    a, b, acc = data()
    s = np.float32(0.0123456789)
    launch, res = run(mm_quant, 1, a, b, np.zeros(N, np.uint64), np.zeros((M, N), np.float16),
                      extra=(tiling(), "scalar", int(words(np.array([s]))[0])))
    want = (acc.astype(np.float64) * np.float64(truncated(np.array([s]))[0])).astype(np.float16)
    np.testing.assert_array_equal(res[3], want)
    assert not np.array_equal(want, (acc * np.float64(s)).astype(np.float16))  # the 13 cleared bits matter


def test_quant_vector(run) -> None:
    a, b, acc = data(3)
    s = np.linspace(-0.02, 0.03, N).astype(np.float32)
    launch, res = run(mm_quant, 1, a, b, words(s), np.zeros((M, N), np.float16),
                      extra=(tiling(), "vector", 0))
    want = (acc.astype(np.float64) * truncated(s).astype(np.float64)[None, :]).astype(np.float16)
    np.testing.assert_array_equal(res[3], want)
    assert verify_sync(launch.streams[0], pool=8, require_physical=True).ok
    fix = [i for i in launch.streams[0] if i.op == "fixpipe"]
    assert fix and all(len(i.reads) == 2 for i in fix)  # L0C and the staged scales in L1


def test_int8_to_half_without_a_quant_call_is_refused(run) -> None:
    a, b, _ = data()
    with pytest.raises(TaskError, match="call set_quant_scalar or set_quant_vector first") as info:
        run(mm_quant, 1, a, b, np.zeros(N, np.uint64), np.zeros((M, N), np.float16), extra=(tiling(), "", 0))
    assert isinstance(info.value.cause, errors.FeatureNotSupportedError)


def test_fixpipe_refuses_the_int8_modes_and_a_wrong_source(run) -> None:
    @asc.kernel
    def k(mode, c):
        pipe = asc.TPipe()
        co1 = asc.TBuf(P.CO1)
        pipe.init_buffer(co1, 4096)
        gc = asc.GlobalTensor(asc.int8 if mode == "req8" else asc.float16)
        gc.set_global_buffer(c)
        if mode == "req8":
            asc.fixpipe(gc, co1.get(asc.int32), asc.FixpipeParamsV220(16, 16, 16, 16,
                                                                     quant_pre=asc.QuantMode.REQ8))
        else:  # DEQF16 dequantises int32, not float
            asc.fixpipe(gc, co1.get(asc.float32), asc.FixpipeParamsV220(16, 16, 16, 16,
                                                                       quant_pre=asc.QuantMode.DEQF16))

    with pytest.raises(TaskError, match="REQ8 .* is not modelled") as info:
        run(k, 1, np.zeros(256, np.int8), extra=("req8",))
    assert isinstance(info.value.cause, errors.FeatureNotSupportedError)
    with pytest.raises(TaskError, match="DEQF16 converts int32 results"):
        run(k, 1, np.zeros(256, np.float16), extra=("deq",))
