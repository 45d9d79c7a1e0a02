"""``auto_sync=True``: a kernel with no syncs gets inferred, allocated, verified flags."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim.compiler import verify_sync

N = 512
F32 = asc.float32


def body(x, y):
    pipe = asc.TPipe()
    ub = asc.TBuf(asc.QuePosition.VECCALC)
    pipe.init_buffer(ub, 2 * 128 * 4)
    a, b = ub.get_with_offset(F32, 128, 0), ub.get_with_offset(F32, 128, 512)
    gx, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    gx.set_global_buffer(x.cast(F32), N)
    gy.set_global_buffer(y.cast(F32), N)
    for i in range(N // 128):
        asc.data_copy(a, gx[i * 128], 128)
        asc.adds(b, a, 1.0, 128)
        asc.data_copy(gy[i * 128], b, 128)


def test_auto_sync_makes_an_unsynchronized_kernel_correct() -> None:
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    x = np.arange(N, dtype=np.float32)
    dx, dy = aclsim.malloc(x.nbytes), aclsim.malloc(x.nbytes)
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    launch = asc.kernel(body, auto_sync=True)[1](dx, dy)
    aclsim.synchronize_stream()
    y = np.empty_like(x)
    aclsim.memcpy(y, y.nbytes, dy, y.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    assert np.array_equal(y, x + 1)
    stream = launch.streams[0]
    assert any(i.op == "set_flag" for i in stream) and not any(i.logical for i in stream)
    chip = aclsim.get_chip("tiny")
    assert verify_sync(stream, pool=chip.events_per_pipe_pair, require_physical=True).ok
    ids = launch.sync_stats[0].alloc.ids_used
    assert ids and max(ids.values()) <= chip.events_per_pipe_pair
    plain = asc.kernel(body, detect_races=False)[1](dx, dy)  # same kernel, no syncs, no check
    aclsim.synchronize_stream()
    assert plain.sync_stats == [] and not any(i.op == "set_flag" for i in plain.streams[0])
    assert launch.report.total_cycles >= plain.report.total_cycles  # the syncs cost time
    for d in (dx, dy):
        aclsim.free(d)
    aclsim.reset_device(0)
    assert aclsim.finalize() == []


def test_sample_add_kernel_is_exact() -> None:
    from aclsim.kernel.samples import add_kernel

    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    x = np.arange(4096, dtype=np.float32)
    y = np.full(4096, 0.5, dtype=np.float32)
    dx, dy, dz = (aclsim.malloc(x.nbytes) for _ in range(3))
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    aclsim.memcpy(dy, y.nbytes, y, y.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    add_kernel(asc.float32, 1024, 256)[4](dx, dy, dz)
    aclsim.synchronize_stream()
    z = np.empty_like(x)
    aclsim.memcpy(z, z.nbytes, dz, z.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    assert np.array_equal(z, x + y)
    with pytest.raises(ValueError, match="not a multiple"):
        add_kernel(asc.float32, 1000, 256)
    for d in (dx, dy, dz):
        aclsim.free(d)
    aclsim.reset_device(0)
    assert aclsim.finalize() == []


def test_unmodelled_features_are_feature_not_supported() -> None:
    from aclsim.errors import FeatureNotSupportedError
    from aclsim.kernel.vector import RoundMode, cast_values

    with pytest.raises(FeatureNotSupportedError, match="CAST_HYBRID") as exc:
        cast_values(np.ones(4, np.float32), np.dtype(np.float16), RoundMode.CAST_HYBRID)
    assert exc.value.code == 207000 and isinstance(exc.value, NotImplementedError)
