"""Matmul callbacks, IterateBatch's mix-mode forms and the constant tiling in C++
(tests/ascendc/mmcb_kernels.cpp, api_cxx.txt's "Matmul callbacks"):

- ``MatmulCallBackFunc<DataCopyOut, CopyA1, CopyB1>`` with C++ functions: the Python Matmul calls them back
  with the documented arguments (the tiling and data pointers of SetUserDefInfo / SetSelfDefineData, the
  DataCopyOutParams), beside a Python twin with the same callbacks: the same results, instruction streams
  and report; the callbacks' instructions name their C++ lines and the Matmul's own the call that copies;
  an error in a callback unwinds like any failed bridged call, at the callback's line;
- ``IterateBatch<sync, waitIterateBatch>(gm, batchA, batchB, ...)`` and ``WaitIterateBatch`` against NumPy;
- ``GetMatmulApiTiling``'s fields as ``constexpr`` members, changed in a constant expression, reaching the
  Python Matmul's tiling.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim.errors import AclError, KernelFault
from aclsim.kernel import matmul_api

SRC = Path(__file__).with_name("mmcb_kernels.cpp")
P, F, D = asc.TPosition, asc.CubeFormat, asc.DataType
M, N, K = 48, 64, 40


def _tiling(m: int, n: int, k: int, base: tuple[int, int] = (-1, -1)) -> asc.TCubeTiling:
    api = asc.MatmulApiTiling("tiny")
    assert api.set_a_type(P.GM, F.ND, D.DT_FLOAT16) == 0
    assert api.set_b_type(P.GM, F.ND, D.DT_FLOAT16) == 0
    assert api.set_c_type(P.GM, F.ND, D.DT_FLOAT) == 0
    api.set_shape(m, n, k)
    api.set_org_shape(m, n, k)
    api.set_fix_split(base[0], base[1], -1)
    t = asc.TCubeTiling()
    assert api.get_tiling(t) == 0
    return t


def _words(t: asc.TCubeTiling) -> np.ndarray:
    return np.array([getattr(t, f.name) for f in dataclasses.fields(asc.TCubeTiling)], np.int32)


def _key(ins: Any) -> tuple[Any, ...]:
    """An instruction without its source location."""
    return (ins.pipe, ins.op, ins.reads, ins.writes, ins.src, ins.dst, ins.event_id, ins.logical, ins.cost)


class _Device:
    """Arrays on the device for one launch after another."""

    def __init__(self, *arrays: np.ndarray) -> None:
        self.arrays = arrays
        self.bufs = [aclsim.malloc(max(x.nbytes, 8)) for x in arrays]
        self.reset()

    def reset(self) -> None:
        for buf, x in zip(self.bufs, self.arrays, strict=True):
            aclsim.memcpy(buf, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)

    def read(self, i: int) -> np.ndarray:
        out = np.empty_like(self.arrays[i])
        aclsim.memcpy(out, out.nbytes, self.bufs[i], out.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
        return out

    def free(self) -> None:
        for buf in self.bufs:
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


# --- the Python twin: the same callbacks in the Python language ----------------------------------------

def _log(data_ptr: Any, *values: int) -> None:
    log = asc.GlobalTensor(asc.int32)
    log.set_global_buffer(data_ptr)
    n = int(log.get_value(0))
    for i, v in enumerate(values):
        log.set_value(1 + n * 5 + i, v)
    log.set_value(0, n + 1)


def copy_a1(a_matrix, gm, row, col, use_m, use_k, tiling_ptr, data_ptr):
    t = tiling_ptr
    _log(data_ptr, 1, row, col, use_m, use_k)
    g = asc.GlobalTensor(asc.half)
    g.set_global_buffer(gm)
    params = asc.Nd2NzParams(1, use_m, use_k, 0, t.ka, -(-use_m // 16) * 16, 1, 0)
    src = g[row * t.base_m * t.ka + col * t.step_ka * t.base_k]
    asc.data_copy(a_matrix.reinterpret_cast(asc.half), src, params)


def copy_b1(b_matrix, gm, row, col, use_k, use_n, tiling_ptr, data_ptr):
    t = tiling_ptr
    _log(data_ptr, 2, row, col, use_k, use_n)
    g = asc.GlobalTensor(asc.half)
    g.set_global_buffer(gm)
    params = asc.Nd2NzParams(1, use_k, use_n, 0, t.n, -(-use_k // 16) * 16, 1, 0)
    src = g[row * t.step_kb * t.base_k * t.n + col * t.base_n]
    asc.data_copy(b_matrix.reinterpret_cast(asc.half), src, params)


def copy_out_relu(gm, co1_local, params, tiling_ptr, data_ptr):
    _log(data_ptr, 3, params.cur_m, params.cur_n, params.ori_n_size, params.dst_stride)
    g = asc.GlobalTensor(asc.float32)
    g.set_global_buffer(gm)
    m = params.burst_len * 32 // (16 * 4)
    asc.fixpipe(g, co1_local.reinterpret_cast(asc.float32),
                asc.FixpipeParamsV220(params.ori_n_size, m, m, params.dst_stride, relu_en=True))


@asc.kernel
def py_callbacks(a, b, c, t, log):
    """The twin of mm_callbacks (which reads its tiling from GM with plain C++ reads: no instructions)."""
    pipe = asc.TPipe()
    ga, gb, gc = asc.GlobalTensor(asc.half), asc.GlobalTensor(asc.half), asc.GlobalTensor(asc.float32)
    ga.set_global_buffer(a, t.m * t.ka)
    gb.set_global_buffer(b, t.kb * t.n)
    gc.set_global_buffer(c, t.m * t.n)
    gm_type = asc.MatmulType(P.GM, F.ND, asc.half)
    c_type = asc.MatmulType(P.GM, F.ND, asc.float32)
    mm = asc.Matmul(gm_type, gm_type, c_type, c_type, asc.CFG_NORM,
                    asc.MatmulCallBackFunc(copy_out_relu, copy_a1, copy_b1))
    asc.regist_matmul_obj(pipe, asc.get_sys_workspace_ptr(), mm, t)
    mm.set_user_def_info(t)
    mm.set_self_define_data(log)
    mm.set_tensor_a(ga)
    mm.set_tensor_b(gb)
    mm.iterate_all(gc)
    mm.end()


def _inputs() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(6)
    return (rng.integers(-4, 5, (M, K)).astype(np.float16), rng.integers(-4, 5, (K, N)).astype(np.float16))


def _entries(log: np.ndarray) -> list[tuple[int, ...]]:
    return [tuple(int(v) for v in log[1 + i * 5: 6 + i * 5]) for i in range(int(log[0]))]


def test_cpp_callbacks_beside_the_python_twin(kernels) -> None:
    a, b = _inputs()
    t = _tiling(M, N, K, (16, 32))
    dev = _Device(a, b, np.zeros((M, N), np.float32), _words(t), np.zeros(256, np.int32))
    try:
        cpp = kernels.mm_callbacks[1, None](*dev.bufs)
        aclsim.synchronize_device()
        got, got_log = dev.read(2), dev.read(4)
        dev.reset()
        py = py_callbacks[1, None](*dev.bufs[:3], t, dev.bufs[4])
        aclsim.synchronize_device()
        want, want_log = dev.read(2), dev.read(4)
    finally:
        dev.free()
    np.testing.assert_array_equal(got, np.maximum(a.astype(np.float32) @ b.astype(np.float32), 0))
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
    entries = _entries(got_log)
    assert entries == _entries(want_log)
    assert [e[1:] for e in entries if e[0] == 3] == [(mi, ni, 32, 64) for ni in range(2) for mi in range(3)]
    assert [e for e in entries if e[0] == 1][0] == (1, 0, 0, 16, 40)  # A's first block: row 0, 16 x 40
    assert [e[1:] for e in entries if e[0] == 2] == [(0, 0, 40, 32), (0, 1, 40, 32)]  # B's kept in L1
    # the same instruction streams and report
    assert [[_key(i) for i in s] for s in cpp.streams] == [[_key(i) for i in s] for s in py.streams]
    assert cpp.report.total_cycles == py.report.total_cycles
    assert cpp.report.pipe_busy() == py.report.pipe_busy()
    # the callbacks' instructions name their lines, the Matmul's own the IterateAll that copies
    lines = SRC.read_text().splitlines()
    ins = [i for s in cpp.streams for i in s]
    for op, mark in (("data_copy", "copy"), ("fixpipe", "// C out"), ("mmad", "IterateAll"),
                     ("load_data", "IterateAll")):
        found = [i for i in ins if i.op.lower().startswith(op)]
        assert found, op
        assert all(i.file.endswith("mmcb_kernels.cpp") and mark in lines[i.line - 1] for i in found), op
    a1 = {i.line for i in ins if i.op.lower().startswith("data_copy") and "A1 copy" in lines[i.line - 1]}
    b1 = {i.line for i in ins if i.op.lower().startswith("data_copy") and "B1 copy" in lines[i.line - 1]}
    assert len(a1) == len(b1) == 1


def test_only_copy_b1_with_iterate_and_get_tensor_c(kernels) -> None:
    a, b = _inputs()
    t = _tiling(M, N, K, (16, 32))
    dev = _Device(a, b, np.zeros((M, N), np.float32), _words(t), np.zeros(64, np.int32))
    try:
        kernels.mm_copy_b1_only[1, None](*dev.bufs)
        aclsim.synchronize_device()
        got, log = dev.read(2), dev.read(4)
    finally:
        dev.free()
    np.testing.assert_array_equal(got, a.astype(np.float32) @ b.astype(np.float32))  # the library's copy out
    assert {e[0] for e in _entries(log)} == {2}
    (mm,) = kernels.made
    assert mm.cb.copy_a1 is None and mm.cb.data_copy_out is None and mm.cb.copy_b1 is not None


@pytest.mark.parametrize("how, error, text", [
    (1, KernelFault, "ASSERT(how != 1)"),
    (2, AclError, "DataCopy(aMatrix.ReinterpretCast<half>(), g, params)"),
    (3, KernelFault, None),
])
def test_an_error_in_a_callback_unwinds_at_its_line(kernels, how: int, error: type, text: str | None) -> None:
    a, b = _inputs()
    t = _tiling(M, N, K, (16, 32))
    log = np.zeros(64, np.int32)
    log[63] = how
    dev = _Device(a, b, np.zeros((M, N), np.float32), _words(t), log)
    try:
        with pytest.raises(AclError) as info:
            kernels.mm_callback_fails[1, None](*dev.bufs)
            aclsim.synchronize_device()
        exc = info.value.cause  # the launch's error: the callback's, raised as it was raised in the callback
        assert isinstance(exc, error), exc
        lines = SRC.read_text().splitlines()
        if text is None:
            assert "how 3" in str(exc)  # the C++ exception's what()
        else:
            assert exc.file.endswith("mmcb_kernels.cpp"), exc
            assert text in lines[exc.line - 1], (exc.line, lines[exc.line - 1])
        # nothing is left behind: the kernel runs again (how 0: no failure) and computes
        log[63] = 0
        dev.arrays = (a, b, np.zeros((M, N), np.float32), _words(t), log)
        dev.reset()
        kernels.mm_callback_fails[1, None](*dev.bufs)
        aclsim.synchronize_device()
        np.testing.assert_array_equal(dev.read(2), a.astype(np.float32) @ b.astype(np.float32))
    finally:
        dev.free()


# --- IterateBatch's mix-mode forms -------------------------------------------------------------------------

def _batch(kernels, ba: int, bb: int, how: int) -> tuple[np.ndarray, np.ndarray]:
    m, n, k = 32, 16, 40
    rng = np.random.default_rng(2)
    a = rng.integers(-3, 4, (ba, m, k)).astype(np.float16)
    b = rng.integers(-3, 4, (bb, k, n)).astype(np.float16)
    nb = max(ba, bb)
    dev = _Device(a, b, np.zeros((nb, m, n), np.float32), _words(_tiling(m, n, k)),
                  np.array([ba, bb, nb, how], np.int32))
    try:
        kernels.mm_batch_mix[1, None](*dev.bufs)
        aclsim.synchronize_device()
        got = dev.read(2)
    finally:
        dev.free()
    want = np.stack([a[i // (nb // ba)].astype(np.float32) @ b[i // (nb // bb)].astype(np.float32)
                     for i in range(nb)])
    return got, want


@pytest.mark.parametrize("ba, bb, how", [(2, 2, 0), (1, 3, 0), (4, 2, 1), (2, 4, 2)])
def test_iterate_batch_mix_forms(kernels, ba: int, bb: int, how: int) -> None:
    got, want = _batch(kernels, ba, bb, how)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("how, text", [(3, "WaitIterateBatch with no IterateBatch<false, true>"),
                                       (4, "writes to GM only")])
def test_iterate_batch_refusals(kernels, how: int, text: str) -> None:
    with pytest.raises(AclError, match=text) as info:
        _batch(kernels, 2, 2, how)
    lines = SRC.read_text().splitlines()
    assert "refused" in lines[info.value.cause.line - 1]


# --- the constant tiling's constexpr fields ----------------------------------------------------------------

@pytest.mark.parametrize("name", ["mm_constant", "mm_constant_mdl"])
def test_constant_tiling_fields(kernels, name: str) -> None:
    m, n, k = 64, 32, 48
    rng = np.random.default_rng(4)
    a = rng.integers(-4, 5, (m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (k, n)).astype(np.float16)
    dev = _Device(a, b, np.zeros((m, n), np.float32), np.zeros(2, np.int32))
    try:
        getattr(kernels, name)[1, None](*dev.bufs)
        aclsim.synchronize_device()
        got, blocks = dev.read(2), dev.read(3)
    finally:
        dev.free()
    np.testing.assert_array_equal(got, a.astype(np.float32) @ b.astype(np.float32))
    assert blocks[0] == 2  # MBlocks<singleCoreM / baseM>: a constant expression over the fields
    (mm,) = kernels.made
    shape = asc.MatmulShapeParams(64, 32, 48, 32, 32, 48)
    mode = asc.MatmulConfigMode.CONFIG_NORM if name == "mm_constant" else asc.MatmulConfigMode.CONFIG_MDL
    cfg = asc.get_mm_config(mode, shape)
    at, ct = asc.MatmulType(P.GM, F.ND, asc.half), asc.MatmulType(P.GM, F.ND, asc.float32)
    if name == "mm_constant":
        cfg = dataclasses.replace(cfg, enable_set_bias=False)
    bias = ct if cfg.enable_set_bias else None
    computed = asc.get_matmul_api_tiling(at, at, ct, bias, cfg, chip="tiny").tiling
    assert mm.cfg == cfg
    if name == "mm_constant":  # the kernel's changes replace the computed fields
        assert computed.iterate_order != 1  # the check can fail
        assert mm.tiling == dataclasses.replace(computed, iterate_order=1, step_m=1)
    else:
        assert mm.tiling == computed


def test_constant_tiling_change_that_does_not_fit_is_refused(kernels) -> None:
    m, n, k = 64, 32, 48
    dev = _Device(np.zeros((m, k), np.float16), np.zeros((k, n), np.float16), np.zeros((m, n), np.float32),
                  np.zeros(2, np.int32))
    try:
        with pytest.raises(AclError, match="baseM 24") as info:
            kernels.mm_constant_bad[1, None](*dev.bufs)
            aclsim.synchronize_device()
    finally:
        dev.free()
    lines = SRC.read_text().splitlines()
    assert "REGIST_MATMUL_OBJ" in lines[info.value.cause.line - 1]
