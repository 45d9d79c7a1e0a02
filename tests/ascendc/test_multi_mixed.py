"""A mixed AIC + AIV C++ kernel (KERNEL_TASK_TYPE_DEFAULT, ASCEND_IS_AIC/AIV, CrossCoreSetFlag /
CrossCoreWaitFlag, GetSubBlockIdx/Num, GetTaskRatio) and its Python twin: the same results, instruction
streams and reports, checked against NumPy; and the same kernel typed by the host's
SetKernelMode(MIX_MODE) in a CPU-debug program."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

import aclsim
import aclsim.kernel as asc

SOURCE = Path(__file__).with_name("cpp") / "mixed_exchange.cpp"
TILE = 64
F32 = asc.float32


@asc.kernel
def mixed_exchange(x, y, z, info):
    asc.kernel_task_type_default(asc.KERNEL_TYPE_MIX_AIC_1_2)
    if asc.ASCEND_IS_AIC:
        asc.cross_core_wait_flag(0, asc.PIPE_S, 3)
        asc.cross_core_set_flag(0, asc.PIPE_MTE2, 4)
        asc.cross_core_wait_flag(0, asc.PIPE_S, 4)
        asc.cross_core_set_flag(2, asc.PIPE_MTE2, 5)
        return
    idx = asc.get_block_idx()
    partner = idx ^ 1
    gx, gy, gz = asc.GlobalTensor(F32), asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    gi = asc.GlobalTensor(asc.int32)
    gx.set_global_buffer(x.cast(F32) + idx * TILE, TILE)
    gy.set_global_buffer(y.cast(F32), TILE * asc.get_block_num() * asc.get_task_ratio())
    gz.set_global_buffer(z.cast(F32) + idx * TILE, TILE)
    gi.set_global_buffer(info.cast(asc.int32) + idx * 8, 8)
    gi.set_value(0, idx)
    gi.set_value(1, asc.get_block_num())
    gi.set_value(2, asc.get_sub_block_idx())
    gi.set_value(3, asc.get_sub_block_num())
    gi.set_value(4, asc.get_task_ratio())
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, 2 * TILE * 4)
    a, b = buf.get_with_offset(F32, TILE, 0), buf.get_with_offset(F32, TILE, TILE * 4)
    asc.data_copy(a, gx, TILE)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.muls(a, a, float(idx + 1), TILE)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(gy[idx * TILE], a, TILE)
    asc.cross_core_set_flag(2, asc.PIPE_MTE3, 3)
    asc.cross_core_wait_flag(0, asc.PIPE_S, 5)
    asc.data_copy(b, gy[partner * TILE], TILE)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.add(b, a, b, TILE)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(gz, b, TILE)


def key(ins: Any) -> tuple[Any, ...]:
    return (ins.pipe, ins.op, ins.reads, ins.writes, ins.src, ins.dst, ins.event_id, ins.logical, ins.cost)


def want(x: np.ndarray) -> np.ndarray:
    t = x.reshape(4, TILE) * np.arange(1, 5, dtype=np.float32)[:, None]
    return (t + t[[1, 0, 3, 2]]).reshape(-1)


def test_mixed_kernel_and_python_twin_agree(cpp_kernels) -> None:
    kernels = cpp_kernels([SOURCE])
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    x = np.random.default_rng(5).integers(-8, 8, 4 * TILE).astype(np.float32)
    dx, dy, dz, di = (aclsim.malloc(x.nbytes) for _ in range(4))
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    outs, launches = [], []
    for k in (kernels.mixed_exchange, mixed_exchange):
        for d in (dy, dz, di):
            aclsim.memset(d, x.nbytes, 0, x.nbytes)
        launches.append(k[2, stream](dx, dy, dz, di))
        aclsim.synchronize_stream(stream)
        z, info = np.empty_like(x), np.empty(32, np.int32)
        aclsim.memcpy(z, z.nbytes, dz, z.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
        aclsim.memcpy(info, info.nbytes, di, info.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
        outs.append((z, info.reshape(4, 8)[:, :5]))
    (z, info), (z_py, info_py) = outs
    assert np.array_equal(z, want(x)) and np.array_equal(z, z_py)
    # per AIV: block index, block num (groups), sub-block index, sub-block num, task ratio
    assert info.tolist() == [[v, 2, v % 2, 2, 2] for v in range(4)] == info_py.tolist()
    cpp, py = launches
    assert {t.kind for t in cpp.report.timelines} == {t.kind for t in py.report.timelines} and len(
        cpp.report.timelines) == 6
    assert [[key(i) for i in s] for s in cpp.streams] == [[key(i) for i in s] for s in py.streams]
    assert cpp.report.total_cycles == py.report.total_cycles
    assert cpp.report.pipe_busy() == py.report.pipe_busy()
    assert cpp.diagnostics == [] == py.diagnostics
    lines = SOURCE.read_text().splitlines()
    waits = [i for s in cpp.streams for i in s if i.op == "cross_core_wait_flag" and i.event_id == 3]
    assert waits and all("AIC-WAIT" in lines[i.line - 1] for i in waits)
    for d in (dx, dy, dz, di):
        aclsim.free(d)
    aclsim.destroy_stream(stream)


def test_set_kernel_mode_mix_runs_the_kernel_as_aic_and_aivs(host_program) -> None:
    exe = host_program([SOURCE], "mixed_exchange", flags=["-DACLSIM_HOST_MAIN"])
    done = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "ACLSIM_PYTHON": sys.executable, "ACLSIM_CHIP": "910B"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 differ" in done.stdout
    for v in range(4):
        assert f"aiv {v}: {v} 2 {v % 2} 2 2" in done.stdout
