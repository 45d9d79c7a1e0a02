"""The cube path and the high-level Matmul in C++ beside their Python twins: the same results,
instruction streams and reports.

- ``examples/cpp/matmul_cube.cpp``: ``examples/11_kernel_matmul.py`` (Nd2Nz DataCopy, LoadData, Mmad,
  Fixpipe) on the 910B;
- ``examples/cpp/matmul_basic_310p.cpp``: ``examples/18_port_matmul_basic.py`` (the coupled chip's path:
  L0C -> UB by DataCopy in matrix block mode) on the 310P;
- ``examples/cpp/matmul_leakyrelu.cpp``: ``examples/17_kernel_matmul_api.py`` (Matmul, REGIST_MATMUL_OBJ,
  Iterate / GetTensorC to VECIN, the tiling read from GM) on the tiny chip, and from a CPU-debug host
  program with the host tiling (``tiling/tiling_api.h``).
"""

from __future__ import annotations

import dataclasses
import importlib.util
from typing import Any

import numpy as np
from ascendc_support import CPP_EXAMPLES, ROOT, run_program

import aclsim
import aclsim.kernel as asc


def _python_twin(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"example_{name}", ROOT / "examples" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _key(ins: Any) -> tuple[Any, ...]:
    """An instruction without its source location (the C++ and Python lines differ)."""
    return (ins.pipe, ins.op, ins.reads, ins.writes, ins.src, ins.dst, ins.event_id, ins.logical, ins.cost)


def _to_device(x: np.ndarray) -> Any:
    buf = aclsim.malloc(x.nbytes)
    aclsim.memcpy(buf, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    return buf


def _from_device(buf: Any, like: np.ndarray) -> np.ndarray:
    out = np.zeros_like(like)
    aclsim.memcpy(out, out.nbytes, buf, out.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    return out


def _assert_twins(cpp: Any, py: Any, source: str, call: str, line_text: str = "") -> None:
    """Identical streams and reports; every ``call`` instruction of the C++ launch names a line of
    ``source`` that reads ``line_text`` (default: ``call``)."""
    assert [[_key(i) for i in s] for s in cpp.streams] == [[_key(i) for i in s] for s in py.streams]
    assert cpp.report.total_cycles == py.report.total_cycles
    assert cpp.report.pipe_busy() == py.report.pipe_busy()
    assert cpp.report.utilization() == py.report.utilization()
    lines = (CPP_EXAMPLES / source).read_text().splitlines()
    cube = [i for s in cpp.streams for i in s if i.op.lower().startswith(call.lower())]
    assert cube, f"no {call} instruction"
    assert all(i.file.endswith(source) and (line_text or call) in lines[i.line - 1] for i in cube)


def _run_pair(kernels: list[Any], block_dim: int, args: list[list[Any]], out: Any, like: np.ndarray,
              stream: Any) -> tuple[list[np.ndarray], list[Any]]:
    results, launches = [], []
    for kernel, kargs in zip(kernels, args, strict=True):
        aclsim.memset(out, like.nbytes, 0, like.nbytes)
        launches.append(kernel[block_dim, stream](*kargs))
        aclsim.synchronize_stream(stream)
        results.append(_from_device(out, like))
    return results, launches


def test_cube_path_twin_of_11(cpp_kernels) -> None:
    kernels = cpp_kernels([CPP_EXAMPLES / "matmul_cube.cpp"])
    twin = _python_twin("11_kernel_matmul")
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    rng = np.random.default_rng(3)
    a = rng.standard_normal((twin.M, twin.K)).astype(np.float16)
    b = rng.standard_normal((twin.K, twin.N)).astype(np.float16)
    c = np.zeros((twin.M, twin.N), np.float32)
    da, db, dc = _to_device(a), _to_device(b), _to_device(c)
    blocks = (twin.M // twin.M0) * (twin.N // twin.N0)
    (got, want), (cpp, py) = _run_pair([kernels.matmul_cube, twin.matmul], blocks, [[da, db, dc]] * 2, dc, c,
                                       stream)
    np.testing.assert_allclose(got, a.astype(np.float32) @ b.astype(np.float32), rtol=1e-4, atol=1e-3)
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
    _assert_twins(cpp, py, "matmul_cube.cpp", "Mmad")
    for d in (da, db, dc):
        aclsim.free(d)


def test_coupled_chip_path_twin_of_18(cpp_kernels) -> None:
    kernels = cpp_kernels([CPP_EXAMPLES / "matmul_basic_310p.cpp"])
    twin = _python_twin("18_port_matmul_basic")
    aclsim.init(chip="310P")
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    rng = np.random.default_rng(4)
    a = rng.uniform(-1, 1, (32, 32)).astype(np.float16)
    b = rng.uniform(-1, 1, (32, 32)).astype(np.float16)
    c = np.zeros((32, 32), np.float32)
    da, db, dc = _to_device(a), _to_device(b), _to_device(c)
    (got, want), (cpp, py) = _run_pair([kernels.matmul_basic_310p, twin.matmul_custom], 1, [[da, db, dc]] * 2,
                                       dc, c, stream)
    np.testing.assert_allclose(got, a.astype(np.float32) @ b.astype(np.float32), rtol=1e-4, atol=1e-4)
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
    assert not cpp.diagnostics
    _assert_twins(cpp, py, "matmul_basic_310p.cpp", "Mmad")
    for d in (da, db, dc):
        aclsim.free(d)


M, N, K = 128, 128, 64


def _leaky_tiling(chip: str) -> asc.TCubeTiling:
    api = asc.MultiCoreMatmulTiling(chip)
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


def test_matmul_api_twin_of_17(cpp_kernels) -> None:
    kernels = cpp_kernels([CPP_EXAMPLES / "matmul_leakyrelu.cpp"])
    twin = _python_twin("17_kernel_matmul_api")
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    tiling = _leaky_tiling("tiny")
    words = np.zeros(48, np.int32)  # the tiling as a host saves it: TCubeTiling's fields in order
    values = [getattr(tiling, f.name) for f in dataclasses.fields(asc.TCubeTiling)]
    words[:len(values)] = values
    rng = np.random.default_rng(5)
    a = rng.uniform(-1, 1, (M, K)).astype(np.float16)
    b = rng.uniform(-1, 1, (K, N)).astype(np.float16)
    bias = rng.uniform(-1, 1, N).astype(np.float32)
    c = np.zeros((M, N), np.float32)
    da, db, dbias, dc, dtiling = (_to_device(x) for x in (a, b, bias, c, words))
    ws = aclsim.malloc(tiling.used_core_num * tiling.base_m * tiling.base_n * 4)
    args = [[da, db, dbias, dc, ws, dtiling], [da, db, dbias, dc, ws, tiling, twin.ALPHA]]
    (got, want), (cpp, py) = _run_pair([kernels.matmul_leakyrelu, twin.matmul_leakyrelu_custom],
                                       tiling.used_core_num, args, dc, c, stream)
    y = a.astype(np.float32) @ b.astype(np.float32) + bias
    np.testing.assert_allclose(got, np.where(y >= 0, y, y * np.float32(twin.ALPHA)), rtol=1e-4, atol=1e-4)
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
    _assert_twins(cpp, py, "matmul_leakyrelu.cpp", "Mmad", "mm.Iterate()")  # Iterate computes the block
    for d in (da, db, dbias, dc, dtiling, ws):
        aclsim.free(d)


def test_matmul_host_program_with_host_tiling(host_program) -> None:
    exe = host_program([CPP_EXAMPLES / "main_matmul_leakyrelu.cpp", CPP_EXAMPLES / "matmul_leakyrelu.cpp"],
                       "matmul_leakyrelu_cpu")
    done = run_program(exe, env={"ACLSIM_CHIP": "tiny"})
    assert done.returncode == 0, done.stdout + done.stderr
    # the host tiling is aclsim's MultiCoreMatmulTiling on the same chip
    t = _leaky_tiling("tiny")
    assert (f"tiling: {t.used_core_num} cores, singleCore {t.single_core_m} x {t.single_core_n} x "
            f"{t.single_core_k}, base {t.base_m} x {t.base_n} x {t.base_k}") in done.stdout
    assert f"PASS: 0 of {M * N} elements differ" in done.stdout
    # blockDim 1 without SetKernelMode: MIX_MODE, one AIC serving the Matmul of its two AIVs, which
    # are the tiling's two cores
    assert "matmul_leakyrelu<<<1>>> on tiny" in done.stderr


def test_mixed_matmul_twin_of_17(cpp_kernels) -> None:
    """The kernel of 17 declared KERNEL_TYPE_MIX_AIC_1_2 and launched with one block: the AIC serves
    the two AIVs' Matmul (kernel/kfc.py), in C++ as in Python."""
    kernels = cpp_kernels([ROOT / "tests" / "ascendc" / "kfc_mixed.cpp"])
    twin = _python_twin("17_kernel_matmul_api")

    @asc.kernel
    def matmul_leakyrelu_mix(a, b, bias, c, workspace, tiling, alpha):
        asc.kernel_task_type_default(asc.KERNEL_TYPE_MIX_AIC_1_2)
        twin.matmul_leakyrelu_custom.fn(a, b, bias, c, workspace, tiling, alpha)

    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    tiling = _leaky_tiling("tiny")
    words = np.zeros(48, np.int32)
    values = [getattr(tiling, f.name) for f in dataclasses.fields(asc.TCubeTiling)]
    words[: len(values)] = values
    rng = np.random.default_rng(5)
    a = rng.uniform(-1, 1, (M, K)).astype(np.float16)
    b = rng.uniform(-1, 1, (K, N)).astype(np.float16)
    bias = rng.uniform(-1, 1, N).astype(np.float32)
    c = np.zeros((M, N), np.float32)
    da, db, dbias, dc, dtiling = (_to_device(x) for x in (a, b, bias, c, words))
    ws = aclsim.malloc(tiling.used_core_num * tiling.base_m * tiling.base_n * 4)
    args = [[da, db, dbias, dc, ws, dtiling], [da, db, dbias, dc, ws, tiling, twin.ALPHA]]
    (got, want), (cpp, py) = _run_pair([kernels.matmul_leakyrelu_mix, matmul_leakyrelu_mix], 1, args, dc, c,
                                       stream)
    y = a.astype(np.float32) @ b.astype(np.float32) + bias
    np.testing.assert_allclose(got, np.where(y >= 0, y, y * np.float32(twin.ALPHA)), rtol=1e-4, atol=1e-4)
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
    assert len(cpp.streams) == 3 and any(i.op == "mmad" for i in cpp.streams[0])  # AIC 0, AIV 0, AIV 1
    _assert_twins(cpp, py, "matmul_leakyrelu.cpp", "Mmad", "mm.Iterate()")
    for d in (da, db, dbias, dc, dtiling, ws):
        aclsim.free(d)
