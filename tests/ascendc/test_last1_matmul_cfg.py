"""Matmul's MM_CFG in C++ (tests/ascendc/last1_matmul_cfg.cpp): the constexpr getters (GetNormalConfig,
GetMDLConfig, GetSpecialMDLConfig, GetBasicConfig, GetIBShareNormConfig, GetMMConfig with the four
parameter structs, CFG_NORM / CFG_MDL / MM_CFG_BB / CFG_IBSHARE_NORM) reach the Python Matmul object
equal to what aclsim.kernel's getters give; a config's effect (GetBasicConfig against the tiling, a
config without SetBias); SetUserDefInfo / SetSelfDefineData; SetBatchNum + IterateBatch and
SetQuantScalar / SetQuantVector, checked against NumPy."""

from __future__ import annotations

import dataclasses
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim.errors import AclError
from aclsim.kernel import matmul_api
from aclsim.kernel.matmul_config import (
    BatchMode,
    IterateOrder,
    MatmulBatchParams,
    MatmulConfigMode,
    MatmulFuncParams,
    MatmulQuantParams,
    MatmulShapeParams,
    ScheduleType,
)

SRC = Path(__file__).with_name("last1_matmul_cfg.cpp")
P, F, D = asc.TPosition, asc.CubeFormat, asc.DataType
M, N, K = 64, 32, 48


def tiling_words(a_dt: asc.DataType, c_dt: asc.DataType, m: int, n: int, k: int, trans_b: bool = False,
                 bias: bool = False) -> np.ndarray:
    api = asc.MatmulApiTiling("tiny")
    assert api.set_a_type(P.GM, F.ND, a_dt) == 0
    assert api.set_b_type(P.GM, F.ND, a_dt, trans_b) == 0
    assert api.set_c_type(P.GM, F.ND, c_dt) == 0
    api.set_shape(m, n, k)
    api.set_org_shape(m, n, k)
    if bias:
        assert api.set_bias_type(P.GM, F.ND, c_dt) == 0
    api.set_bias(bias)
    t = asc.TCubeTiling()
    assert api.get_tiling(t) == 0
    return np.array([getattr(t, f.name) for f in dataclasses.fields(asc.TCubeTiling)], np.int32)


def launch(kernel, *arrays: np.ndarray) -> list[np.ndarray]:
    """Copy ``arrays`` to the device, run ``kernel`` on one block, return them as the device left them."""
    bufs = [aclsim.malloc(max(x.nbytes, 8)) for x in arrays]
    try:
        for buf, x in zip(bufs, arrays, strict=True):
            aclsim.memcpy(buf, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
        kernel[1, None](*bufs)
        aclsim.synchronize_device()
        out = [np.empty_like(x) for x in arrays]
        for buf, x in zip(bufs, out, strict=True):
            aclsim.memcpy(x, x.nbytes, buf, x.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
        return out
    finally:
        for buf in bufs:
            aclsim.free(buf)


@pytest.fixture
def kernels(cpp_kernels, monkeypatch):
    """The kernels, and every Python Matmul object they make (``kernels.made``)."""
    ks = cpp_kernels([SRC])
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    made: list[matmul_api.Matmul] = []
    init = matmul_api.Matmul.__init__

    def record(self, *args, **kwargs) -> None:
        init(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(matmul_api.Matmul, "__init__", record)
    ks.made = made
    return ks


def run_half(kernel, info=(0, 0, 0)) -> tuple[np.ndarray, np.ndarray]:
    """C of ``kernel``, and A @ B (+ the bias when ``info[2]``: N floats after the three words)."""
    rng = np.random.default_rng(5)
    a = rng.integers(-4, 5, (M, K)).astype(np.float16)
    b = rng.integers(-4, 5, (K, N)).astype(np.float16)
    bias = np.arange(N, dtype=np.float32) - 7
    words = np.concatenate([np.array(info, np.uint64).view(np.uint8), bias.view(np.uint8)])
    out = launch(kernel, a, b, np.zeros((M, N), np.float32),
                 tiling_words(D.DT_FLOAT16, D.DT_FLOAT, M, N, K, bias=bool(info[2])), words)
    return out[2], a.astype(np.float32) @ b.astype(np.float32) + (bias if info[2] else 0)


CONFIGS = {
    "mm_norm": asc.CFG_NORM,
    "mm_mdl": asc.CFG_MDL,
    "mm_shape_cfg": asc.get_mm_config(
        MatmulConfigMode.CONFIG_MDL, MatmulShapeParams(64, 32, 48, 64, 32, 48),
        MatmulFuncParams(False, False, True, False, 1, IterateOrder.ORDER_N, ScheduleType.OUTER_PRODUCT),
        MatmulQuantParams(True, False), MatmulBatchParams(True, BatchMode.BATCH_LARGE_THAN_L1, False)),
    "mm_bb_right": asc.get_basic_config(64, 32, 48, True, False, BatchMode.NONE),
    "mm_normal_n": asc.get_normal_config(False, False, False, BatchMode.BATCH_LESS_THAN_L1, False,
                                         IterateOrder.ORDER_N),
    "mm_special": asc.get_special_mdl_config(False, False, 2),
    "mm_ibshare": asc.get_ib_share_norm_config(False, False, False, BatchMode.NONE, True),
    "mm_no_bias": replace(asc.CFG_NORM, enable_set_bias=False),
}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_config_reaches_the_python_matmul_and_it_computes(kernels, name: str) -> None:
    got, want = run_half(getattr(kernels, name), (0x1234, 0xABCD0000_00000001, 0))
    np.testing.assert_array_equal(got, want)
    (mm,) = kernels.made
    assert mm.cfg == CONFIGS[name]
    assert mm.cfg != (asc.CFG_MDL if name == "mm_norm" else asc.CFG_NORM)  # the check can fail
    assert (mm.user_def_info, mm.self_define_data) == (0x1234, 0xABCD0000_00000001)


def test_basic_config_disagreeing_with_the_tiling_is_refused(kernels) -> None:
    with pytest.raises(AclError, match="basicM/N/K"):
        run_half(kernels.mm_bb_wrong)


def test_set_bias_is_refused_when_the_config_compiles_it_out(kernels) -> None:
    got, want = run_half(kernels.mm_norm, (0, 0, 1))  # with the default config the bias is added
    np.testing.assert_array_equal(got, want)
    with pytest.raises(AclError, match="enable_set_bias"):
        run_half(kernels.mm_no_bias, (0, 0, 1))


@pytest.mark.parametrize("ba, bb", [(2, 2), (1, 3), (4, 2)])
def test_iterate_batch(kernels, ba: int, bb: int) -> None:
    m, n, k = 32, 16, 40
    rng = np.random.default_rng(2)
    a = rng.integers(-3, 4, (ba, m, k)).astype(np.float16)
    b = rng.integers(-3, 4, (bb, k, n)).astype(np.float16)
    nb = max(ba, bb)
    out = launch(kernels.mm_batch, a, b, np.zeros((nb, m, n), np.float32),
                 tiling_words(D.DT_FLOAT16, D.DT_FLOAT, m, n, k), np.array([ba, bb, nb], np.int32))
    want = np.stack([a[i // (nb // ba)].astype(np.float32) @ b[i // (nb // bb)].astype(np.float32)
                     for i in range(nb)])
    np.testing.assert_array_equal(out[2], want)


def scale_words(s: np.ndarray) -> np.ndarray:
    return np.asarray(s, np.float32).view(np.uint32).astype(np.uint64)


@pytest.mark.parametrize("how", ["scalar", "vector"])
def test_quant_scalar_and_vector(kernels, how: str) -> None:
    m, n, k = 32, 32, 64
    rng = np.random.default_rng(3)
    a = rng.integers(-8, 9, (m, k)).astype(np.int8)
    b = rng.integers(-8, 9, (k, n)).astype(np.int8)
    acc = a.astype(np.int32) @ b.astype(np.int32)
    scales = np.array([0.5, 0.25, 2.0, 1.0] * (n // 4), np.float32)  # exact in the fixpipe's truncated float
    word = int(scale_words(np.array([0.5]))[0]) if how == "scalar" else 0
    out = launch(kernels.mm_quant, a, np.ascontiguousarray(b.T), np.zeros((m, n), np.float16),
                 tiling_words(D.DT_INT8, D.DT_FLOAT16, m, n, k, trans_b=True), np.array([word], np.uint64),
                 scale_words(scales))
    want = acc.astype(np.float64) * (0.5 if how == "scalar" else scales.astype(np.float64)[None, :])
    np.testing.assert_array_equal(out[2], want.astype(np.float16))


@pytest.mark.parametrize("name", ["mm_static", "mm_static_init"])
def test_get_matmul_api_tiling_full_constant_with_a_null_tiling(kernels, name: str) -> None:
    got, want = run_half(getattr(kernels, name))
    np.testing.assert_array_equal(got, want)
    (mm,) = kernels.made
    cfg = asc.get_mm_config(MatmulConfigMode.CONFIG_NORM, MatmulShapeParams(64, 32, 48, 64, 32, 48))
    assert mm.cfg == cfg
    ct = asc.MatmulType(P.GM, F.ND, asc.float32)
    at = asc.MatmulType(P.GM, F.ND, asc.float16)
    assert mm.tiling == asc.get_matmul_api_tiling(at, at, ct, ct, cfg, chip="tiny").tiling
    assert mm.tiling.is_bias == 1  # Ascend C's constant tiling: isBias = enableSetBias


def test_get_matmul_api_tiling_partial_constant_needs_the_runtime_tiling(kernels) -> None:
    with pytest.raises(AclError, match="partial constant"):
        run_half(kernels.mm_static_partial)
    got, want = run_half(kernels.mm_partial_runtime)
    np.testing.assert_array_equal(got, want)
    assert kernels.made[-1].cfg == asc.get_basic_config(64, 32, 48)


def test_two_objects_registered_one_with_a_null_tiling(kernels) -> None:
    got, want = run_half(kernels.mm_static_two)
    np.testing.assert_array_equal(got, want)
    first, second = kernels.made
    assert first.tiling == second.tiling  # enableSetBias false: no bias, as the runtime tiling here
