"""Multi-core and mixed C++ kernels and their Python twins: the same results, instruction streams and
reports.

``examples/cpp/sync_all_atomic.cpp`` is ``examples/16_kernel_sync_all_atomic.py`` (SyncAll,
InitGlobalMemory, SetAtomicAdd) in C++; ``examples/cpp/cross_core_mmad.cpp`` is
``examples/22_port_cross_core_mmad.py`` (a mixed 1:2 kernel: ASCEND_IS_AIC/AIV, CrossCoreSetFlag /
CrossCoreWaitFlag, KERNEL_TASK_TYPE_DEFAULT).  Both run in this process on the same device memory.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import aclsim

ROOT = Path(__file__).resolve().parents[2]
CPP_EXAMPLES = ROOT / "examples" / "cpp"


def python_twin(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"example_{name}", ROOT / "examples" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def key(ins: Any) -> tuple[Any, ...]:
    """An instruction without its source location (the C++ and Python lines differ)."""
    return (ins.pipe, ins.op, ins.reads, ins.writes, ins.src, ins.dst, ins.event_id, ins.logical, ins.cost)


def same_launch(cpp: Any, py: Any) -> None:
    assert [[key(i) for i in s] for s in cpp.streams] == [[key(i) for i in s] for s in py.streams]
    assert cpp.report.total_cycles == py.report.total_cycles
    assert cpp.report.pipe_busy() == py.report.pipe_busy()
    assert cpp.report.utilization() == py.report.utilization()
    assert [str(d) for d in cpp.diagnostics] == [] == [str(d) for d in py.diagnostics]


def cpp_line(ins: Any, source: str) -> str:
    """The C++ source line an instruction names."""
    assert ins.file.endswith(source) and ins.line > 0, ins.where
    return (CPP_EXAMPLES / source).read_text().splitlines()[ins.line - 1]


def run_both(kernels: tuple[Any, Any], block_dim: int, args: list[Any], outs: list[tuple[Any, int]],
             reset: list[tuple[Any, np.ndarray]]) -> tuple[list[list[np.ndarray]], list[Any]]:
    """Launch the C++ kernel and its twin on the same memory (``reset`` rewritten before each);
    the bytes of ``outs`` after each."""
    stream = aclsim.create_stream()
    results, launches = [], []
    for kernel in kernels:
        for dev, host in reset:
            aclsim.memcpy(dev, host.nbytes, host, host.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
        launches.append(kernel[block_dim, stream](*args))
        aclsim.synchronize_stream(stream)
        got = []
        for dev, nbytes in outs:
            out = np.zeros(nbytes, np.uint8)
            aclsim.memcpy(out, nbytes, dev, nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
            got.append(out)
        results.append(got)
    aclsim.destroy_stream(stream)
    return results, launches


def test_sync_all_and_atomic_add_twins_agree(cpp_kernels) -> None:
    kernels = cpp_kernels([CPP_EXAMPLES / "sync_all_atomic.cpp"])
    twin = python_twin("16_kernel_sync_all_atomic")
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    n, tile, blocks = twin.TOTAL_LENGTH, twin.TILE_LENGTH, twin.BLOCKS
    x = np.random.default_rng(3).uniform(-1, 1, n).astype(np.float32)
    dx, dz, dw, ds = (aclsim.malloc(n * 4) for _ in range(4))
    zeros = np.zeros(n, np.float32)
    (res, launches) = run_both((kernels.sync_all_custom, twin.sync_all_custom), blocks, [dx, dz, dw],
                               [(dz, n * 4)], [(dx, x), (dz, zeros), (dw, zeros)])
    tiles = (2 * x).reshape(blocks, tile)
    want = tiles.copy()
    for b in range(blocks):  # its own slice, then the others in index order, in float32
        for i in range(blocks):
            if i != b:
                want[b] = want[b] + tiles[i]
    assert np.array_equal(res[0][0].view(np.float32), want.reshape(-1))
    assert np.array_equal(res[0][0], res[1][0])
    same_launch(*launches)
    syncs = [i for i in launches[0].streams[0] if i.op == "sync_all"]
    assert len(syncs) == 1 and "SyncAll()" in cpp_line(syncs[0], "sync_all_atomic.cpp")

    ones = np.full(n, 7, np.float32)  # garbage InitGlobalMemory must clear
    (res, launches) = run_both((kernels.atomic_sum, twin.atomic_sum), blocks, [dx, ds], [(ds, tile * 4)],
                               [(dx, x), (ds, ones)])
    want_s = np.zeros(tile, np.float32)
    for b in range(blocks):
        want_s = want_s + tiles[b]
    assert np.array_equal(res[0][0].view(np.float32), want_s)
    assert np.array_equal(res[0][0], res[1][0])
    same_launch(*launches)
    atomic = [i for i in launches[0].streams[3] if i.op == "set_atomic_add"]
    assert len(atomic) == 1 and "SetAtomicAdd<float>()" in cpp_line(atomic[0], "sync_all_atomic.cpp")
    for d in (dx, dz, dw, ds):
        aclsim.free(d)


#: what cross_core_mmad.cpp needs beyond this section's rows (the cube and vector sections' rows)
NEEDS_22 = ("Cast", "LeakyRelu", "LoadData", "Mmad", "Fixpipe", "Nd2NzParams", "LoadData2DParams",
            "MmadParams", "FixpipeParamsV220", "LocalTensor(TPosition, addr, size)")


def missing_for_22() -> list[str]:
    import re

    from aclsim.ascendc.build import INCLUDE_DIR
    from aclsim.ascendc.table import load

    table = load()
    names = {r.cxx_name for r in table.callables} | set(table.structs)
    headers = "\n".join(p.read_text() for p in INCLUDE_DIR.glob("*.h"))
    have_ctor = re.search(r"LocalTensor\(\s*(const\s+)?(TPosition|QuePosition)\b", headers) is not None
    return [n for n in NEEDS_22 if n not in names and not (n.startswith("LocalTensor(") and have_ctor)]


def test_cross_core_mmad_twins_agree(cpp_kernels) -> None:
    missing = missing_for_22()
    if missing:
        pytest.skip("cross_core_mmad.cpp needs the rows of the cube and vector sections: "
                    + ", ".join(missing))
    kernels = cpp_kernels([CPP_EXAMPLES / "cross_core_mmad.cpp"])
    twin = python_twin("22_port_cross_core_mmad")
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    m, n, k, blocks = twin.M, twin.N, twin.K, twin.NUM_BLOCKS
    rng = np.random.default_rng(9)
    x1 = rng.integers(0, 8, (m, k)).astype(np.uint8)
    x2 = rng.integers(0, 8, (k, n)).astype(np.uint8)
    golden = x1.astype(np.float32) @ x2.astype(np.float32)
    golden = np.maximum(0.001 * golden, golden)
    a = np.ascontiguousarray(x1.reshape(m, blocks, k // blocks).transpose(1, 0, 2))
    host = [a, x2, np.zeros((m, k), np.float16), np.zeros((k, n), np.float16), np.zeros((m, n), np.float32)]
    dev = [aclsim.malloc(h.nbytes) for h in host]
    (res, launches) = run_both((kernels.mmad_custom, twin.mmad_custom), blocks, dev, [(dev[4], m * n * 4)],
                               list(zip(dev, host, strict=True)))
    c = res[0][0].view(np.float32).reshape(m, n)
    assert np.abs(c - golden).max() <= 1e-3
    assert np.array_equal(res[0][0], res[1][0])
    same_launch(*launches)
    assert len(launches[0].report.timelines) == 3 * blocks  # 8 AICs and 16 AIVs
    xsets = [i for s in launches[0].streams for i in s if i.op == "cross_core_set_flag"]
    assert xsets and all("CrossCoreSetFlag<" in cpp_line(i, "cross_core_mmad.cpp") for i in xsets)
    for d in dev:
        aclsim.free(d)
