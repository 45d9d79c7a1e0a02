"""The high-level Broadcast / BroadCast API against NumPy (both axes, aligned and unaligned rows,
passes of the minimum buffer, b8 through half, the framework's buffer), its host function, the
recorded instructions and its faults."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.compiler import verify_sync
from aclsim.isa import Pipe

P = asc.TPosition


@asc.kernel
def bc_kernel(dst_shape: Any, src_shape: Any, tmp_bytes: int, dt: Any, spelling: str, x: Any, y: Any) -> None:
    pipe = asc.TPipe()
    b_in, b_out = asc.TBuf(P.VECCALC), asc.TBuf(P.VECCALC)
    n_src, n_dst = int(np.prod(src_shape)), int(np.prod(dst_shape))
    isz = np.dtype(dt).itemsize
    pipe.init_buffer(b_in, -(-n_src * isz // 32) * 32)
    pipe.init_buffer(b_out, -(-n_dst * isz // 32) * 32)
    gx, gy = asc.GlobalTensor(dt), asc.GlobalTensor(dt)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    t, out = b_in.get(dt), b_out.get(dt)
    asc.data_copy_pad(t, gx, asc.DataCopyExtParams(1, n_src * isz, 0, 0, 0))
    tmp = ()
    if tmp_bytes:
        buf = asc.TBuf(P.VECCALC)
        pipe.init_buffer(buf, tmp_bytes)
        tmp = (buf.get(asc.uint8),)
    asc.pipe_barrier(asc.PIPE_ALL)
    getattr(asc, spelling)(out, t, dst_shape, src_shape, *tmp)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.data_copy_pad(gy, out, asc.DataCopyExtParams(1, n_dst * isz, 0, 0, 0))


CASES = [
    ((16, 64), (16, 1), np.float32),  # axis 1, aligned, a 256 B row
    ((37, 100), (37, 1), np.float32),  # axis 1, unaligned rows (gather_mask), rows past 8
    ((20, 24), (20, 1), np.float16),  # half, unaligned
    ((9, 80), (1, 80), np.float32),  # axis 0: 8 rows an or, then one
    ((5, 32), (1, 32), np.float16),
    ((12, 40), (12, 1), np.int8),  # b8 through half
    ((4, 64), (1, 64), np.uint8),
    ((7, 16), (1, 1), np.float16),  # one element: duplicate
    ((33,), (33,), np.float32),  # same size: copy
    ((50,), (1,), np.float32),
]


def _tmp(dst_shape: Any, src_shape: Any, dt: Any, which: str) -> int:
    hi, lo = asc.get_broad_cast_max_min_tmp_size(src_shape, dst_shape, np.dtype(dt).itemsize)
    return {"min": max(lo, 32), "max": max(hi, 32), "framework": 0}[which]


@pytest.mark.parametrize("dst_shape, src_shape, dt", CASES)
@pytest.mark.parametrize("which", ["min", "max"])
def test_broadcast_against_numpy(run, dst_shape, src_shape, dt, which) -> None:
    rng = np.random.default_rng(3)
    info = np.iinfo(dt) if np.dtype(dt).kind in "iu" else None
    x = (rng.integers(info.min, info.max, src_shape) if info else rng.standard_normal(src_shape)).astype(dt)
    y0 = np.zeros(dst_shape, dt)
    launch, (_, y) = run(bc_kernel, 1, x, y0,
                         extra=(dst_shape, src_shape, _tmp(dst_shape, src_shape, dt, which), np.dtype(dt),
                                "broad_cast"))
    np.testing.assert_array_equal(y, np.broadcast_to(x, dst_shape))
    for stream in launch.streams:
        assert verify_sync(stream).ok


def test_broadcast_spelling_and_framework_buffer(run) -> None:
    x = np.arange(6, dtype=np.float32).reshape(6, 1)
    _, (_, y) = run(bc_kernel, 1, x, np.zeros((6, 16), np.float32),
                    extra=((6, 16), (6, 1), 0, np.dtype(np.float32), "broadcast"))
    np.testing.assert_array_equal(y, np.broadcast_to(x, (6, 16)))
    assert asc.broadcast is asc.broad_cast


def test_recorded_instructions(run) -> None:
    """[m, 1] -> [m, k] unaligned: brcb into the buffer, copy (reading only the buffer), gather_mask
    into dst; [1, k] -> [m, k]: duplicate of zeros then one ``or`` per 8 rows."""
    x = np.ones((10, 1), np.float32)
    launch, _ = run(bc_kernel, 1, x, np.zeros((10, 12), np.float32),
                    extra=((10, 12), (10, 1), 4096, np.dtype(np.float32), "broadcast"))
    ops = [i for i in launch.streams[0] if i.pipe is Pipe.V and i.op != "pipe_barrier"]
    assert [i.op for i in ops] == ["brcb", "copy", "gather_mask"]
    brcb, cp, gm = ops
    tmp_start = brcb.writes[0].offset  # the buffer: above src (64 B) and dst (480 B)
    assert tmp_start >= 64 + 480 and brcb.reads[0].offset == 0
    assert cp.reads[0].offset == tmp_start and cp.writes[0].offset >= tmp_start  # buffer to buffer
    assert gm.reads[0].offset == cp.writes[0].offset and gm.writes[0].offset == 64  # packed into dst
    launch, _ = run(bc_kernel, 1, np.ones((1, 64), np.float32), np.zeros((17, 64), np.float32),
                    extra=((17, 64), (1, 64), 64, np.dtype(np.float32), "broadcast"))
    ops = [i.op for i in launch.streams[0] if i.pipe is Pipe.V and i.op != "pipe_barrier"]
    assert ops == ["duplicate", "or", "or", "or"]


def test_host_figures() -> None:
    f = asc.get_broad_cast_max_min_tmp_size
    assert f((16, 1), (16, 64), 4) == (16 * 8 * 4, 8 * 8 * 4)
    assert f((37, 1), (37, 100), 4) == (40 * 8 * 4 + 37 * 104 * 4, 8 * 8 * 4 + 8 * 104 * 4)
    assert f((1, 80), (9, 80), 4) == (32, 32)
    assert f((33,), (33,), 4) == (0, 0)
    assert f((1, 1), (4, 4), 1) == ((16 + 16) * 2 + 32,) * 2
    with pytest.raises(ValueError, match="does not broadcast"):
        f((3, 2), (3, 4), 4)
    with pytest.raises(ValueError, match="32 B aligned"):
        f((1, 10), (4, 10), 4)


@asc.kernel
def bc_misuse(what: str, x: Any) -> None:
    pipe = asc.TPipe()
    buf, tb = asc.TBuf(P.VECCALC), asc.TBuf(P.VECCALC)
    pipe.init_buffer(buf, 4096)
    pipe.init_buffer(tb, 32)
    t = buf.get(asc.float32)
    if what == "small":
        asc.broad_cast(t[0:512], t[512:528], (16, 32), (16, 1), tb.get(asc.uint8))
    elif what == "overlap":
        asc.broad_cast(t[0:512], t[8:24], (16, 32), (16, 1))
    elif what == "shape":
        asc.broad_cast(t[0:512], t[512:528], (16, 32), (16, 2))
    elif what == "axis0":
        asc.broad_cast(t[0:40], t[512:522], (4, 10), (1, 10))


@pytest.mark.parametrize("what, exc, match", [
    ("small", errors.KernelFault, "too small for one pass"),
    ("overlap", errors.KernelFault, "overlaps src"),
    ("shape", ValueError, "does not broadcast"),
    ("axis0", ValueError, "multiple of 32 B"),
])
def test_broadcast_faults(run, what: str, exc: type[Exception], match: str) -> None:
    with pytest.raises(errors.TaskError) as info:
        run(bc_misuse, 1, np.zeros(8, np.float32), extra=(what,))
    err = info.value.cause
    assert isinstance(err, exc) and match in str(err)
    assert err.file.endswith("test_kernel_broadcast_api.py") and err.line > 0
    if exc is errors.KernelFault:
        assert err.code == errors.ACL_ERROR_RT_VECTOR_CORE_EXCEPTION
