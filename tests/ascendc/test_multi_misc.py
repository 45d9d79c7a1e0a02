"""The multi-core rows of the C++ table in small C++ kernels, checked against NumPy: IBSet/IBWait,
the software SyncAll, the atomic modes, the workspace calls, InitOutput / TPipe::Reset /
InitGlobalMemory / SyncAll<false>."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import aclsim

SOURCE = Path(__file__).with_name("cpp") / "multi_misc.cpp"
N = 64
_made: list = []  # the test's device buffers, freed by the fixture


@pytest.fixture
def k(cpp_kernels):
    kernels = cpp_kernels([SOURCE])
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    yield kernels
    while _made:
        aclsim.free(_made.pop())
    aclsim.reset_device(0)
    aclsim.finalize()


def put(host: np.ndarray):
    d = aclsim.malloc(host.nbytes)
    _made.append(d)
    aclsim.memcpy(d, host.nbytes, host, host.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    return d


def get(d, like: np.ndarray) -> np.ndarray:
    out = np.empty_like(like)
    aclsim.memcpy(out, out.nbytes, d, out.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    return out


def test_ib_set_and_wait_chain_the_blocks(k) -> None:
    x = np.arange(4 * N, dtype=np.float32) % 11
    dx, dy, dw = put(x), put(np.zeros(N, np.float32)), put(np.zeros(4 * 64, np.int32))
    launch = k.ib_chain[4](dx, dy, dw)
    aclsim.synchronize_stream()
    want = x.reshape(4, N)[0].copy()
    for b in range(1, 4):
        want = want + x.reshape(4, N)[b]
    np.testing.assert_array_equal(get(dy, want), want)
    ops = {i.op for s in launch.streams for i in s}
    assert {"ib_set", "ib_wait"} <= ops, ops


def test_software_sync_all_orders_the_blocks(k) -> None:
    x = np.arange(4 * N, dtype=np.float32)
    dx, dy, dw = put(x), put(np.zeros_like(x)), put(np.zeros(4 * 8, np.int32))
    launch = k.soft_sync[4](dx, dy, dw)
    aclsim.synchronize_stream()
    np.testing.assert_array_equal(get(dx, x), 10 * np.roll(x.reshape(4, N), -1, axis=0).reshape(-1))
    assert all(sum(i.op == "sync_all" for i in s) == 1 for s in launch.streams)


def test_atomic_max_min_and_type(k) -> None:
    x = np.random.default_rng(2).uniform(-4, 4, 3 * N).astype(np.float32)
    ymax, ymin, ysum = np.full(N, -1.0, np.float32), np.full(N, 1.0, np.float32), np.ones(N, np.float32)
    d = [put(x), put(ymax), put(ymin), put(ysum)]
    k.atomic_modes[3](*d)
    aclsim.synchronize_stream()
    t = x.reshape(3, N)
    want_sum = ysum.copy()
    for b in range(3):  # in block order, rounded in float32
        want_sum = want_sum + t[b]
    np.testing.assert_array_equal(get(d[1], ymax), np.maximum(ymax, t.max(axis=0)))
    np.testing.assert_array_equal(get(d[2], ymin), np.minimum(ymin, t.min(axis=0)))
    np.testing.assert_array_equal(get(d[3], ysum), want_sum)


def test_workspace_calls(k) -> None:
    ws = aclsim.malloc(aclsim.kernel.sys_workspace_size("910B") + 1024)
    _made.append(ws)
    out = put(np.full(4, -7, np.int64))
    k.workspace_probe[1](ws, out)
    aclsim.synchronize_stream()
    got = get(out, np.zeros(4, np.int64))
    assert got.tolist() == [1, 0, aclsim.kernel.sys_workspace_size("910B"), -7]


def test_init_output_reset_and_init_global_memory(k) -> None:
    y = np.full(2 * 2 * N, -1.0, np.float32)
    dy = put(y)
    launch = k.init_reset[2](dy)
    aclsim.synchronize_stream()
    want = np.concatenate([np.full(N, 3.0), np.full(N, 0.0), np.full(N, 3.0), np.full(N, 1.0)])
    want = want.astype(np.float32)
    np.testing.assert_array_equal(get(dy, y), want)
    lines = SOURCE.read_text().splitlines()
    sync = [i for i in launch.streams[0] if i.op == "sync_all"]
    assert len(sync) == 1 and "SyncAll<false>()" in lines[sync[0].line - 1]


def test_tiling_data_and_tiling_keys(host_program) -> None:
    import os
    import subprocess
    import sys

    exe = host_program([SOURCE.with_name("tiling_key.cpp")], "tiling_key")
    env = {**os.environ, "ACLSIM_PYTHON": sys.executable, "ACLSIM_CHIP": "910B", "ACLSIM_QUIET": "1"}

    def run(key: str) -> str:
        done = subprocess.run([str(exe), key], capture_output=True, text=True, timeout=300, env=env)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout.strip()

    assert run("1") == "0 2.5 5 7.5 probe 0"  # TILING_KEY_IS(1): x * scale
    assert run("2") == "7 8 9 10 probe 0"  # TILING_KEY_LIST(2, 3): x + pair[0] + pair[1]
    assert run("3") == "7 8 9 10 probe 1"  # typed AIV_ONLY (SetKernelMode, KERNEL_TASK_TYPE): ASCEND_IS_AIV
    assert run("9") == "0 1 2 3 probe 0"


def test_kernel_task_type_applies_for_its_tiling_key(k) -> None:
    from aclsim.ascendc.adapters import multi

    out = put(np.zeros(2, np.int32))
    got = []
    for key in (3, 4, None):
        multi.set_tiling_key(key)  # what ICPU_SET_TILING_KEY sets in a host program
        try:
            k.typed_probe[1](out)
            aclsim.synchronize_stream()
        finally:
            multi.set_tiling_key(None)
        got.append(get(out, np.zeros(2, np.int32)).tolist())
    # key 3: KERNEL_TASK_TYPE(3, AIV_ONLY) over the default AIC_ONLY; TILING_KEY_IS(3) too
    assert got == [[1, 1], [2, 0], [2, 0]]
