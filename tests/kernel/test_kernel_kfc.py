"""A mixed kernel's high-level Matmul: the AIC serves its AIVs' requests (kernel/kfc.py).

The kernel is example 17's (Matmul + LeakyRelu, C to VECIN) declared ``KERNEL_TYPE_MIX_AIC_1_2``
and launched with one block: its two AIVs are the tiling's two cores, their Matmul runs on the
group's AIC."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim.errors import AclError
from aclsim.isa import Pipe
from aclsim.kernel.crossrace import XSET_OP, XWAIT_OP

ROOT = Path(__file__).resolve().parents[2]
M, N, K = 128, 128, 64


def _example() -> Any:
    path = ROOT / "examples" / "17_kernel_matmul_api.py"
    spec = importlib.util.spec_from_file_location("aclsim_example_17_kfc", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


EX = _example()


def _tiling() -> asc.TCubeTiling:
    api = asc.MultiCoreMatmulTiling("tiny")
    api.set_dim(2)
    api.set_a_type(asc.TPosition.GM, asc.CubeFormat.ND, asc.DataType.DT_FLOAT16)
    api.set_b_type(asc.TPosition.GM, asc.CubeFormat.ND, asc.DataType.DT_FLOAT16)
    api.set_c_type(asc.TPosition.VECIN, asc.CubeFormat.ND, asc.DataType.DT_FLOAT)
    api.set_bias_type(asc.TPosition.GM, asc.CubeFormat.ND, asc.DataType.DT_FLOAT)
    api.set_shape(M, N, K)
    api.set_org_shape(M, N, K)
    api.set_fix_split(64, 64, -1)
    api.set_bias(True)
    tiling = asc.TCubeTiling()
    assert api.get_tiling(tiling) == 0
    tiling.step_m = tiling.step_n = 1
    return tiling


@asc.kernel
def mixed_matmul_leakyrelu(a, b, bias, c, workspace, tiling, alpha):
    asc.kernel_task_type_default(asc.KERNEL_TYPE_MIX_AIC_1_2)
    EX.matmul_leakyrelu_custom.fn(a, b, bias, c, workspace, tiling, alpha)


@asc.kernel
def aic_returns_first(a, b, bias, c, workspace, tiling, alpha):
    asc.kernel_task_type_default(asc.KERNEL_TYPE_MIX_AIC_1_2)
    if asc.ascend_is_aic():
        return  # the AIC never reaches REGIST_MATMUL_OBJ: nobody serves the AIVs
    EX.matmul_leakyrelu_custom.fn(a, b, bias, c, workspace, tiling, alpha)


@pytest.fixture
def data() -> Any:
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    rng = np.random.default_rng(7)
    a = rng.uniform(-1, 1, (M, K)).astype(np.float16)
    b = rng.uniform(-1, 1, (K, N)).astype(np.float16)
    bias = rng.uniform(-1, 1, N).astype(np.float32)
    tiling = _tiling()
    bufs = [aclsim.malloc(x.nbytes) for x in (a, b, bias)] + [aclsim.malloc(M * N * 4)]
    for buf, x in zip(bufs, (a, b, bias), strict=False):
        aclsim.memcpy(buf, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    ws = aclsim.malloc(tiling.used_core_num * tiling.base_m * tiling.base_n * 4)
    yield a, b, bias, tiling, bufs, ws
    for buf in (*bufs, ws):
        aclsim.free(buf)
    aclsim.reset_device(0)
    aclsim.finalize()


def _run(k: Any, block_dim: int, data: Any) -> tuple[np.ndarray, Any]:
    _, _, _, tiling, bufs, ws = data
    aclsim.memset(bufs[3], M * N * 4, 0, M * N * 4)
    launch = k[block_dim, None](*bufs, ws, tiling, EX.ALPHA)
    aclsim.synchronize_device()
    c = np.zeros((M, N), np.float32)
    aclsim.memcpy(c, c.nbytes, bufs[3], c.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    return c, launch


def test_the_aic_runs_the_aivs_matmul(data) -> None:
    a, b, bias, tiling, _, _ = data
    c, launch = _run(mixed_matmul_leakyrelu, 1, data)
    y = a.astype(np.float32) @ b.astype(np.float32) + bias
    np.testing.assert_allclose(c, np.where(y >= 0, y, y * np.float32(EX.ALPHA)), rtol=1e-4, atol=1e-4)
    # the same instructions as two cores with every pipe each (the undeclared kernel), bit for bit
    plain, _ = _run(EX.matmul_leakyrelu_custom, tiling.used_core_num, data)
    assert np.array_equal(c.view(np.uint32), plain.view(np.uint32))
    aic, *aivs = launch.streams  # one group: AIC 0, AIV 0, AIV 1
    assert len(aivs) == 2
    cube = {Pipe.M, Pipe.MTE1, Pipe.FIX}
    assert any(i.op == "mmad" for i in aic) and all(i.pipe is not Pipe.V for i in aic)
    for s in aivs:  # each AIV: its vector part and the copies, none of the cube's work
        assert not [i for i in s if i.pipe in cube], [i.op for i in s if i.pipe in cube]
        assert any(i.pipe is Pipe.V for i in s) and any(i.op == "data_copy_pad" for i in s)
    # every request: a message set on the AIV that the AIC waits for, and back
    sets = [i for i in aic if i.op == XSET_OP and i.cost["mode"] == "KFC"]
    waits = [i for i in aic if i.op == XWAIT_OP]
    assert sets and len(waits) == sum(1 for s in aivs for i in s if i.op == XSET_OP)
    # the requests carry the lines of the AIV's Python code that made them
    assert all(i.file.endswith("17_kernel_matmul_api.py") for i in waits)


def test_the_report_times_the_aic_and_the_aivs(data) -> None:
    _, launch = _run(mixed_matmul_leakyrelu, 1, data)
    report = launch.report
    assert report is not None and report.total_cycles > 0
    util = report.utilization()
    assert util[Pipe.M] > 0 and util[Pipe.V] > 0
    assert not launch.diagnostics  # the messages order the AIC's GM writes and the AIVs' reads


def test_an_aic_that_does_not_serve_is_a_deadlock(data) -> None:
    with pytest.raises(AclError) as err:
        _run(aic_returns_first, 1, data)
    text = str(err.value)
    assert "507014" in text or "deadlock" in text.lower() or "hangs" in text
    assert "not serving" in text and "REGIST_MATMUL_OBJ" in text


def _async_body(a, b, bias, c, workspace, tiling, alpha, wait_all: bool | None = None):
    """Example 17's computation in the asynchronous mode: ``Iterate<false>()`` once, then each block by
    ``GetTensorC<false>`` into UB, LeakyRelu, out to C (``wait_all`` set: ``IterateAll<false>`` to GM,
    then C read back into UB, with or without ``WaitIterateAll``)."""
    k = EX.MatmulLeakyKernel(asc.half, asc.half, asc.float32, asc.float32)
    pipe = asc.TPipe()
    asc.regist_matmul_obj(pipe, workspace, k.matmul_obj, tiling)
    k.init(a, b, bias, c, workspace, tiling, alpha, pipe)
    mm, t = k.matmul_obj, tiling
    mm.set_tensor_a(k.a_global)
    mm.set_tensor_b(k.b_global)
    mm.set_bias(k.bias_global)
    if wait_all is not None:
        mm.iterate_all(k.c_global, sync=False)
        if wait_all:
            mm.wait_iterate_all()
        back = k.relu_out_queue.alloc_tensor(asc.float32)
        asc.data_copy(back, k.c_global, t.base_n)  # reads C the AIC wrote
        k.relu_out_queue.free_tensor(back)
        mm.end()
        return
    ws = asc.GlobalTensor(asc.float32)
    ws.set_global_buffer(workspace)
    mm.set_workspace(ws[asc.get_block_idx() * t.single_core_m * t.single_core_n])
    mm.iterate(sync=False)
    for i in range(t.single_core_m * t.single_core_n // (t.base_m * t.base_n)):
        k.relu_out_local = k.relu_out_queue.alloc_tensor(asc.float32)
        mm.get_tensor_c(k.relu_out_local, False, True, sync=False)
        k.leaky_relu_compute()
        k.copy_out(i)
    mm.end()


@asc.kernel
def async_mixed(a, b, bias, c, workspace, tiling, alpha):
    asc.kernel_task_type_default(asc.KERNEL_TYPE_MIX_AIC_1_2)
    _async_body(a, b, bias, c, workspace, tiling, alpha)


@asc.kernel
def async_plain(a, b, bias, c, workspace, tiling, alpha):
    _async_body(a, b, bias, c, workspace, tiling, alpha)


@asc.kernel
def iterate_all_async(a, b, bias, c, workspace, tiling, alpha, wait_all):
    asc.kernel_task_type_default(asc.KERNEL_TYPE_MIX_AIC_1_2)
    _async_body(a, b, bias, c, workspace, tiling, alpha, wait_all)


@pytest.fixture
def big_ws(data) -> Any:
    _, _, _, tiling, bufs, _ = data
    ws = aclsim.malloc(tiling.used_core_num * tiling.single_core_m * tiling.single_core_n * 4)
    yield (*data[:5], ws)
    aclsim.free(ws)


@pytest.mark.parametrize("k, blocks", [(async_mixed, 1), (async_plain, 2)])
def test_iterate_async_then_get_tensor_c_async(big_ws, k, blocks) -> None:
    a, b, bias, tiling, _, _ = big_ws
    c, launch = _run(k, blocks, big_ws)
    y = a.astype(np.float32) @ b.astype(np.float32) + bias
    np.testing.assert_allclose(c, np.where(y >= 0, y, y * np.float32(EX.ALPHA)), rtol=1e-4, atol=1e-4)
    assert not launch.diagnostics
    if k is async_mixed:  # each GetTensorC<false> waits for its block's set, not for the whole request
        aic, *aivs = launch.streams
        n_blocks = tiling.single_core_m * tiling.single_core_n // (tiling.base_m * tiling.base_n)
        for s in aivs:
            assert sum(1 for i in s if i.op == XWAIT_OP) == n_blocks + 1  # (+ the set-up's answer)
            assert not [i for i in s if i.pipe in (Pipe.M, Pipe.FIX)]


def test_get_tensor_c_async_without_iterate_says_so(big_ws) -> None:
    @asc.kernel
    def early(a, b, bias, c, workspace, tiling, alpha):
        k = EX.MatmulLeakyKernel(asc.half, asc.half, asc.float32, asc.float32)
        pipe = asc.TPipe()
        asc.regist_matmul_obj(pipe, workspace, k.matmul_obj, tiling)
        k.init(a, b, bias, c, workspace, tiling, alpha, pipe)
        out = k.relu_out_queue.alloc_tensor(asc.float32)
        k.matmul_obj.get_tensor_c(out, False, True, sync=False)

    with pytest.raises(AclError, match=r"no block left: iterate\(sync=False\)"):
        _run(early, 2, big_ws)


@pytest.mark.parametrize("wait_all", [True, False])
def test_iterate_all_async_needs_wait_iterate_all(data, wait_all) -> None:
    _, _, _, tiling, bufs, ws = data
    aclsim.memset(bufs[3], M * N * 4, 0, M * N * 4)
    if wait_all:
        iterate_all_async[1, None](*bufs, ws, tiling, EX.ALPHA, True)
        aclsim.synchronize_device()
        return
    with pytest.raises(AclError, match="race"):  # the AIV reads C the AIC may still be writing
        iterate_all_async[1, None](*bufs, ws, tiling, EX.ALPHA, False)
        aclsim.synchronize_device()


def test_a_vector_instruction_on_the_aic_names_the_mixed_kernel(data) -> None:
    @asc.kernel
    def vector_everywhere(out):
        asc.kernel_task_type_default(asc.KERNEL_TYPE_MIX_AIC_1_2)
        pipe = asc.TPipe()
        buf = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(buf, 256)
        t = buf.get(asc.float32)
        asc.duplicate(t, 1.0, 64)  # on the AIC too: it has no vector unit

    out = aclsim.malloc(256)
    with pytest.raises(AclError) as err:
        vector_everywhere[1, None](out)
        aclsim.synchronize_device()
    aclsim.free(out)
    text = str(err.value)
    assert "the AIC of a mixed kernel" in text and "AIV_MODE" in text and "MIX_MODE" in text


@asc.kernel
def interleaved(a, b, bias, c, workspace, tiling, alpha):
    """Each AIV parks at a sync_all between its Iterate and its GetTensorC: the other AIV's Iterate runs
    on the AIC in between."""
    asc.kernel_task_type_default(asc.KERNEL_TYPE_MIX_AIC_1_2)
    k = EX.MatmulLeakyKernel(asc.half, asc.half, asc.float32, asc.float32)
    pipe = asc.TPipe()
    asc.regist_matmul_obj(pipe, workspace, k.matmul_obj, tiling)
    k.init(a, b, bias, c, workspace, tiling, alpha, pipe)
    mm = k.matmul_obj
    mm.set_tensor_a(k.a_global)
    mm.set_tensor_b(k.b_global)
    mm.set_bias(k.bias_global)
    i = 0
    while mm.iterate():
        asc.sync_all()
        k.matmul_compute()
        k.leaky_relu_compute()
        k.copy_out(i)
        i += 1
    mm.end()


def test_requests_of_two_aivs_that_interleave(data) -> None:
    a, b, bias, _, _, _ = data
    c, launch = _run(interleaved, 1, data)
    y = a.astype(np.float32) @ b.astype(np.float32) + bias
    np.testing.assert_allclose(c, np.where(y >= 0, y, y * np.float32(EX.ALPHA)), rtol=1e-4, atol=1e-4)
    aic = launch.streams[0]
    # AIV 1's Iterate (unit 2) came between AIV 0's Iterate and its GetTensorC (unit 1), and so on
    senders = [i.cost["deps"][0][0] for i in aic if i.op == XWAIT_OP]
    assert senders[:6] == [1, 2, 1, 1, 2, 2], senders
    assert not launch.diagnostics
