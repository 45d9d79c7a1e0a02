"""Each kernel fault: the ACL code, the exception class, and the kernel source line it names."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim import errors

HERE = __file__
F16 = asc.float16


def line_of(path: str, marker: str) -> int:
    """The 1-based line of ``path`` holding ``marker``."""
    for i, text in enumerate(Path(path).read_text().splitlines(), 1):
        if marker in text and "line_of(" not in text:
            return i
    raise AssertionError(f"marker {marker!r} not found")


def launch_fault(run, kern, *arrays, block_dim: int = 1) -> BaseException:
    """Run ``kern``; return the original exception of the failed task (raised at synchronize)."""
    if not arrays:
        arrays = (np.zeros(64, np.float16),)
    with pytest.raises(errors.TaskError) as info:
        run(kern, block_dim, *arrays)
    assert info.value.code == getattr(info.value.cause, "code", info.value.code)
    return info.value.cause


@asc.kernel
def ub_overflow(x):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 2, 100 * 1024)  # FAULT-UB-OVERFLOW


def test_ub_overflow(run) -> None:
    e = launch_fault(run, ub_overflow)
    assert isinstance(e, errors.LocalMemoryOverflowError)
    assert e.code == errors.ACL_ERROR_RT_AIVEC_OVER_FLOW
    assert (e.space, e.required, e.limit) == ("UB", 2 * 100 * 1024, 192 * 1024 - 256)
    assert e.file == HERE and e.line == line_of(HERE, "FAULT-UB-OVERFLOW") and e.block == 0


@asc.kernel
def l1_overflow(x):
    pipe = asc.TPipe()
    a = asc.TQue(asc.TPosition.A1, 1)
    b = asc.TQue(asc.TPosition.B1, 1)
    pipe.init_buffer(a, 2, 128 * 1024)
    pipe.init_buffer(b, 2, 128 * 1024 + 1)  # FAULT-L1 (rounded up to 32 B: one block too many)


def test_l1_overflow_rounds_up(run) -> None:
    e = launch_fault(run, l1_overflow)
    assert isinstance(e, errors.LocalMemoryOverflowError) and e.code == errors.ACL_ERROR_RT_AICORE_OVER_FLOW
    assert e.required == 512 * 1024 + 64 and e.line == line_of(HERE, "FAULT-L1")


@asc.kernel
def too_many_buffers(x):
    pipe = asc.TPipe()
    for _ in range(4):
        pipe.init_buffer(asc.TQue(asc.TPosition.VECIN, 1), 2, 256)
    pipe.init_buffer(asc.TQue(asc.TPosition.VECIN, 1), 1, 256)  # FAULT-TOO-MANY


def test_too_many_queue_buffers_per_position(run) -> None:
    e = launch_fault(run, too_many_buffers)
    assert isinstance(e, errors.QueueError) and "9 queue buffers" in str(e)
    assert e.code == errors.ACL_ERROR_RT_VECTOR_CORE_EXCEPTION and e.line == line_of(HERE, "FAULT-TOO-MANY")


@asc.kernel
def alloc_without_free(x):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 2)
    pipe.init_buffer(q, 2, 256)
    q.alloc_tensor(F16)
    q.alloc_tensor(F16)
    q.alloc_tensor(F16)  # FAULT-NO-FREE


@asc.kernel
def deque_empty(x):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 1, 256)
    q.deque(F16)  # FAULT-DEQUE


@asc.kernel
def double_free(x):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(q, 1, 256)
    t = q.alloc_tensor(F16)
    q.free_tensor(t)
    q.free_tensor(t)  # FAULT-DOUBLE-FREE


@pytest.mark.parametrize("kern,marker,text", [
    (alloc_without_free, "FAULT-NO-FREE", "no free buffer"),
    (deque_empty, "FAULT-DEQUE", "nothing enqueued"),
    (double_free, "FAULT-DOUBLE-FREE", "double free_tensor"),
])
def test_queue_misuse(run, kern, marker, text) -> None:
    e = launch_fault(run, kern)
    assert isinstance(e, errors.QueueError) and text in str(e) and e.line == line_of(HERE, marker)


@asc.kernel
def misaligned_copy(x):
    pipe = asc.TPipe()
    buf = asc.TBuf()
    pipe.init_buffer(buf, 256)
    g = asc.GlobalTensor(F16)
    g.set_global_buffer(x)
    t = buf.get(F16)
    asc.data_copy(t[1], g, 16)  # FAULT-MISALIGNED


@asc.kernel
def misaligned_vector(x):
    pipe = asc.TPipe()
    buf = asc.TBuf()
    pipe.init_buffer(buf, 256)
    t = buf.get(F16)
    asc.add(t[8], t, t, 16)  # FAULT-VEC-ALIGN (8 halves = 16 B)


@asc.kernel
def misaligned_l0a(x):
    pipe = asc.TPipe()
    a1, a2 = asc.TBuf(asc.TPosition.A1), asc.TBuf(asc.TPosition.A2)
    pipe.init_buffer(a1, 1024)
    pipe.init_buffer(a2, 2048)
    asc.load_data(a2.get(F16)[16], a1.get(F16), asc.LoadData2DParams(0, 1, 1))  # FAULT-L0A-ALIGN


def test_misaligned(run) -> None:
    e = launch_fault(run, misaligned_copy)
    assert isinstance(e, errors.MisalignedAccessError) and e.code == errors.ACL_ERROR_RT_VECTOR_CORE_EXCEPTION
    assert e.line == line_of(HERE, "FAULT-MISALIGNED") and "not 32 B aligned" in str(e)
    e = launch_fault(run, misaligned_vector)
    assert isinstance(e, errors.MisalignedAccessError) and e.line == line_of(HERE, "FAULT-VEC-ALIGN")
    e = launch_fault(run, misaligned_l0a)
    assert isinstance(e, errors.MisalignedAccessError) and e.code == errors.ACL_ERROR_RT_AICORE_EXCEPTION
    assert "512 B" in str(e) and e.line == line_of(HERE, "FAULT-L0A-ALIGN")


@asc.kernel
def gm_out_of_range(write, x):
    pipe = asc.TPipe()
    buf = asc.TBuf()
    pipe.init_buffer(buf, 1024)
    g = asc.GlobalTensor(F16)
    g.set_global_buffer(x)
    t = buf.get(F16)
    if write:
        asc.data_copy(g[64], t, 32)  # FAULT-GM-WRITE
    else:
        asc.data_copy(t, g[64], 32)  # FAULT-GM-READ


def test_global_out_of_range(run) -> None:
    # 128 B, padded to 160 B: elements 64..95 (bytes 128..191) run 32 B past the padding
    x = np.zeros(64, np.float16)
    cases = ((False, errors.ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW, "FAULT-GM-READ"),
             (True, errors.ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW, "FAULT-GM-WRITE"))
    for write, code, marker in cases:
        with pytest.raises(errors.TaskError) as info:
            run(gm_out_of_range, 1, x, extra=(write,))
        e = info.value.cause
        assert isinstance(e, errors.GlobalOutOfRangeError) and e.code == code == info.value.code
        assert e.line == line_of(HERE, marker) and "outside its allocation" in str(e)


@asc.kernel
def local_out_of_range(x):
    pipe = asc.TPipe()
    buf = asc.TBuf()
    pipe.init_buffer(buf, 256)
    t = buf.get(F16)
    asc.exp(t, t, 100_000)  # FAULT-LOCAL-RANGE (past the 192 KiB of UB, not only past the buffer)


def test_local_out_of_range(run) -> None:
    e = launch_fault(run, local_out_of_range)
    assert isinstance(e, errors.LocalOutOfRangeError) and e.line == line_of(HERE, "FAULT-LOCAL-RANGE")
    assert "past the 196608 B of UB" in str(e)


@asc.kernel
def unmatched_set(x):
    asc.set_flag(asc.HardEvent.MTE2_V, 0)  # FAULT-UNMATCHED


@asc.kernel
def wait_without_set(x):
    asc.wait_flag(asc.HardEvent.V_MTE3, 2)  # FAULT-NO-SET


@asc.kernel
def doubled_set(x):
    asc.set_flag(asc.HardEvent.MTE2_V, 1)
    asc.set_flag(asc.HardEvent.MTE2_V, 1)  # FAULT-DOUBLED
    asc.wait_flag(asc.HardEvent.MTE2_V, 1)
    asc.wait_flag(asc.HardEvent.MTE2_V, 1)


@asc.kernel
def bad_event_id(x):
    asc.set_flag(asc.HardEvent.MTE2_V, 8)  # FAULT-EVENT-ID


def test_flag_faults(run) -> None:
    e = launch_fault(run, unmatched_set)
    assert isinstance(e, errors.SyncError) and e.code == errors.ACL_ERROR_RT_AICORE_EXCEPTION
    assert f"{HERE}:{line_of(HERE, 'FAULT-UNMATCHED')}" in str(e) and "never waited" in str(e)
    e = launch_fault(run, wait_without_set)
    assert isinstance(e, errors.KernelDeadlockError) and e.code == errors.ACL_ERROR_RT_AICORE_TIMEOUT
    assert f"{HERE}:{line_of(HERE, 'FAULT-NO-SET')}" in str(e) and "MTE3" in str(e)
    e = launch_fault(run, doubled_set)
    assert isinstance(e, errors.SyncError) and "lost signal" in str(e)
    assert f"{HERE}:{line_of(HERE, 'FAULT-DOUBLED')}" in str(e)
    e = launch_fault(run, bad_event_id)
    assert isinstance(e, errors.KernelFault) and e.line == line_of(HERE, "FAULT-EVENT-ID")


@asc.kernel
def second_block_faults(x):
    if asc.get_block_idx() == 1:
        asc.wait_flag(asc.HardEvent.S_V, 0)


def test_fault_names_the_block_and_the_stream_recovers(run) -> None:
    e = launch_fault(run, second_block_faults, block_dim=2)
    assert "block 1" in str(e)
    # the stream keeps working after a failed task
    x = np.zeros(64, np.float16)
    b = aclsim.malloc(x.nbytes)
    aclsim.memcpy(b, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    aclsim.free(b)


def test_outside_kernel_calls_fail_loudly(rt) -> None:
    for call in (asc.get_block_idx, asc.get_block_num, asc.TPipe,
                 lambda: asc.set_flag(asc.HardEvent.MTE2_V, 0),
                 lambda: asc.pipe_barrier(asc.PIPE_V), lambda: asc.GlobalTensor(F16).set_global_buffer(0)):
        with pytest.raises(errors.KernelContextError, match="outside a running kernel"):
            call()
    with pytest.raises(errors.KernelContextError, match="called like a function"):
        unmatched_set(0)
    with pytest.raises(errors.InvalidParamError, match="block_dim"):
        unmatched_set[0, None]
    with pytest.raises(errors.InvalidParamError, match="block_dim"):
        unmatched_set[70000]
