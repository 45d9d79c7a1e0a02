"""``LocalTensor(pos, addr, len)`` placed by the kernel, and ``SetL2CacheHint``."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim.errors import LocalOutOfRangeError, TaskError
from aclsim.isa import Pipe, Space

F32 = asc.float32
E = asc.HardEvent


@asc.kernel
def placed_add(x, y, z, n, bypass):
    gx, gy, gz = asc.GlobalTensor(F32), asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    gx.set_global_buffer(x.cast(F32), n)
    gy.set_global_buffer(y.cast(F32), n)
    gz.set_global_buffer(z.cast(F32), n)
    if bypass:
        gx.set_l2_cache_hint(asc.CacheMode.CACHE_MODE_DISABLE)
    a = asc.local_tensor(F32, asc.TPosition.VECCALC, 0, n)
    b = asc.local_tensor(F32, asc.TPosition.VECCALC, 4096, n)
    c = asc.local_tensor(F32, asc.TPosition.VECCALC, 8192, n)
    asc.data_copy(a, gx, n)
    asc.data_copy(b, gy, n)
    asc.set_flag(E.MTE2_V, 0)
    asc.wait_flag(E.MTE2_V, 0)
    asc.add(c, a, b, n)
    asc.set_flag(E.V_MTE3, 0)
    asc.wait_flag(E.V_MTE3, 0)
    asc.data_copy(gz, c, n)


@pytest.mark.parametrize("bypass", [False, True])
def test_placed_tensors_compute_and_the_hint_marks_copies(rt, bypass: bool) -> None:
    n = 256
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal(n, dtype=np.float32), rng.standard_normal(n, dtype=np.float32)
    dx, dy, dz = (aclsim.malloc(x.nbytes) for _ in range(3))
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    aclsim.memcpy(dy, y.nbytes, y, y.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    launch = placed_add[1, None](dx, dy, dz, n, bypass)
    aclsim.synchronize_device()
    z = np.empty_like(x)
    aclsim.memcpy(z, z.nbytes, dz, z.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    np.testing.assert_array_equal(z, x + y)
    loads = [i for i in launch.streams[0] if i.pipe is Pipe.MTE2]
    copies = [i for i in loads if any(a.space is Space.GM for a in i.reads)]
    modes = [i.cost.get("cache_mode") for i in copies]
    assert modes == (["disable", None] if bypass else [None, None])
    for d in (dx, dy, dz):
        aclsim.free(d)


@asc.kernel
def misplaced(x, addr, n):
    asc.local_tensor(F32, asc.TPosition.VECCALC, addr, n)


@pytest.mark.parametrize("addr, n", [(16, 8), (0, 192 * 1024), (-32, 8)])
def test_misplaced_tensors_fault_at_the_line(rt, addr: int, n: int) -> None:
    dx = aclsim.malloc(64)
    with pytest.raises(TaskError) as info:
        misplaced[1, None](dx, addr, n)
        aclsim.synchronize_device()
    fault = info.value.cause
    assert isinstance(fault, LocalOutOfRangeError) and fault.code == 507035
    assert fault.line > 0 and fault.file.endswith("test_kernel_placed.py") and "LocalTensor" in str(fault)
    aclsim.free(dx)
