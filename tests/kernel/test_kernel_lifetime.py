"""Lifetimes inside a kernel: tensors after free_tensor / TPipe.destroy fault as uses after free (with
their lines), sync faults carry their line like the other faults, and a block's local memory is
released when the block ends (a launch's memory stays flat in its number of blocks)."""

from __future__ import annotations

import weakref
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim import errors
from aclsim.arch import get_chip

F16 = asc.float16
N = 128
HERE = __file__


def line_of(marker: str) -> int:
    return next(i for i, text in enumerate(Path(HERE).read_text().splitlines(), 1)
                if marker in text and "line_of(" not in text)


def fault_of(run, kern, *extra: Any, block_dim: int = 1) -> BaseException:
    with pytest.raises(errors.TaskError) as info:
        run(kern, block_dim, np.zeros(N, np.float16), extra=extra)
    return info.value.cause


def _queue_in(x):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 1, N * 2)
    g = asc.GlobalTensor(F16)
    g.set_global_buffer(x)
    t = q.alloc_tensor(F16)
    asc.data_copy(t, g, N)
    q.enque(t)
    return pipe, q, g, q.deque(F16)


@asc.kernel
def use_after_free(how, x):
    pipe, q, g, t = _queue_in(x)
    sub = t[64]
    q.free_tensor(t)  # UAF-FREE
    if how == "exp":
        asc.exp(t, t, N)  # UAF-EXP
    elif how == "sub":
        asc.adds(sub, sub, 1.0, 64)  # UAF-SUB
    elif how == "copy":
        asc.data_copy(g, t, N)  # UAF-COPY
    elif how == "get":
        t.get_value(0)  # UAF-GET
    elif how == "cast":
        asc.duplicate(t.reinterpret_cast(asc.int16), 0, N)  # UAF-CAST


def test_a_tensor_used_after_free_tensor_faults_with_both_lines(run) -> None:
    for how, marker in (("exp", "UAF-EXP"), ("sub", "UAF-SUB"), ("copy", "UAF-COPY"), ("get", "UAF-GET"),
                        ("cast", "UAF-CAST")):
        e = fault_of(run, use_after_free, how)
        assert isinstance(e, errors.QueueError) and e.code == errors.ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, how
        assert (e.file, e.line, e.block) == (HERE, line_of(marker), 0), how
        assert "use after free" in str(e)
        assert f"freed by free_tensor at {HERE}:{line_of('UAF-FREE')}" in str(e)


@asc.kernel
def reuse_after_realloc(x):
    pipe, q, g, t = _queue_in(x)
    q.free_tensor(t)
    t2 = q.alloc_tensor(F16)  # the same buffer again: the old tensor is a valid address again
    asc.adds(t, t, 1.0, N)
    q.free_tensor(t2)


def test_a_freed_tensor_whose_buffer_was_allocated_again_runs(run) -> None:
    launch, _ = run(reuse_after_realloc, 1, np.zeros(N, np.float16))
    assert launch.error is None


@asc.kernel
def after_destroy(what, x):
    pipe = asc.TPipe()
    tb = asc.TBuf()
    q = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(tb, N * 2)
    pipe.init_buffer(q, 1, N * 2)
    t = tb.get(F16)
    pipe.destroy()  # DESTROY
    if what == "tbuf tensor":
        asc.duplicate(t, 1.0, N)  # AD-TENSOR
    elif what == "tbuf":
        tb.get(F16)  # AD-TBUF
    elif what == "queue":
        q.alloc_tensor(F16)  # AD-QUEUE
    elif what == "init_buffer":
        pipe.init_buffer(asc.TBuf(), 64)  # AD-INIT


def test_buffers_queues_and_tbufs_after_destroy_fault(run) -> None:
    e = fault_of(run, after_destroy, "tbuf tensor")
    assert isinstance(e, errors.QueueError) and e.line == line_of("AD-TENSOR")
    assert f"released by TPipe.destroy at {HERE}:{line_of('DESTROY')}" in str(e)
    for what, marker in (("tbuf", "AD-TBUF"), ("queue", "AD-QUEUE"), ("init_buffer", "AD-INIT")):
        e = fault_of(run, after_destroy, what)
        assert isinstance(e, errors.QueueError) and e.line == line_of(marker), what
        assert "destroy" in str(e), what


kept: list[Any] = []


@asc.kernel
def tensor_of_another_block(x):
    pipe = asc.TPipe()
    tb = asc.TBuf()
    pipe.init_buffer(tb, N * 2)
    if asc.get_block_idx() == 0:
        kept.append(tb.get(F16))
    else:
        asc.duplicate(kept[0], 0.0, N)  # OTHER-BLOCK


def test_a_tensor_of_another_block_faults(run) -> None:
    kept.clear()
    e = fault_of(run, tensor_of_another_block, block_dim=2)
    assert isinstance(e, errors.KernelFault) and (e.line, e.block) == (line_of("OTHER-BLOCK"), 1)
    assert "belongs to block 0" in str(e)
    with pytest.raises(errors.KernelContextError, match="released when the block ended"):
        kept[0].numpy()  # outside the kernel: block 0's local memory is gone
    kept.clear()


@asc.kernel
def unmatched_set(x):
    asc.set_flag(asc.HardEvent.MTE2_V, 0)  # SYNC-UNMATCHED


@asc.kernel
def lost_signal(x):
    asc.set_flag(asc.HardEvent.MTE2_V, 1)
    asc.set_flag(asc.HardEvent.MTE2_V, 1)  # SYNC-LOST
    asc.wait_flag(asc.HardEvent.MTE2_V, 1)
    asc.wait_flag(asc.HardEvent.MTE2_V, 1)


@asc.kernel
def deadlock_in_block_1(x):
    if asc.get_block_idx() == 1:
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 3)  # SYNC-DEADLOCK


def test_sync_faults_carry_file_line_and_block(run) -> None:
    for kern, cls, marker, block_dim in ((unmatched_set, errors.SyncError, "SYNC-UNMATCHED", 1),
                                         (lost_signal, errors.SyncError, "SYNC-LOST", 1),
                                         (deadlock_in_block_1, errors.KernelDeadlockError, "SYNC-DEADLOCK",
                                          2)):
        e = fault_of(run, kern, block_dim=block_dim)
        assert isinstance(e, cls)
        assert (e.file, e.line, e.block) == (HERE, line_of(marker), block_dim - 1), kern.name


def test_a_block_keeps_no_local_memory_after_it_ends(run) -> None:
    """Each block's TPipe, queues and local memory are gone when the next block starts (the
    launch pauses the cyclic GC: only reference counting can free them)."""
    refs: list[list[weakref.ref]] = []
    alive_at_start: list[list[bool]] = []
    arena_sizes: list[int] = []

    @asc.kernel
    def k(x):
        alive_at_start.append([r() is not None for block in refs for r in block])
        pipe, q, g, t = _queue_in(x)
        q2 = asc.TQue(asc.TPosition.VECCALC, 2)
        pipe.init_buffer(q2, 2, 64)
        q2.enque(q2.alloc_tensor(F16))  # left enqueued at the end of the kernel (no flags on VECCALC)
        refs.append([weakref.ref(pipe), weakref.ref(q), weakref.ref(q2), weakref.ref(t.view.base)])
        arena_sizes.append(t.view.base.size)
        q.free_tensor(t)

    launch, _ = run(k, 4, np.zeros(N, np.float16))
    assert launch.error is None and len(alive_at_start) == 4
    assert arena_sizes == [get_chip("tiny").ub_bytes] * 4  # the last weak reference is to the UB arena
    assert alive_at_start == [[False] * 4 * b for b in range(4)]


kept_gm: list[Any] = []


@asc.kernel
def global_tensor_kept(x):
    if not kept_gm:
        g = asc.GlobalTensor(F16)
        g.set_global_buffer(x)
        kept_gm.append(g)
    kept_gm[0].get_value(0)  # KEPT-GM


def test_a_global_tensor_kept_across_launches_faults_after_its_free(rt) -> None:
    kept_gm.clear()
    a = aclsim.malloc(N * 2)
    c = aclsim.malloc(N * 2)  # a live neighbour: a's block stays on its own once freed
    global_tensor_kept[1](a)  # sets the kept tensor up on a
    aclsim.synchronize_stream()
    aclsim.free(a)
    b = aclsim.malloc(64 * 1024)  # too big for a's block: a's memory stays freed (poisoned)
    assert not b.ptr <= a.ptr < b.ptr + b.size
    global_tensor_kept[1](b)  # the kept tensor still points into a
    with pytest.raises(errors.TaskError) as info:
        aclsim.synchronize_stream()
    e = info.value.cause
    assert isinstance(e, errors.GlobalOutOfRangeError) and "use after free" in str(e)
    assert e.line == line_of("KEPT-GM") and e.code == errors.ACL_ERROR_RT_PARAM_INVALID
    aclsim.free(b)
    aclsim.free(c)
    kept_gm.clear()



@asc.kernel
def pipe_left_open(x):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(q, 1, N * 2)
    kept.append((pipe, q))


def test_the_launch_ends_a_blocks_pipe_when_its_function_returns(run) -> None:
    kept.clear()
    launch, _ = run(pipe_left_open, 1, np.zeros(N, np.float16))
    assert launch.error is None
    pipe, q = kept.pop()
    assert pipe.destroyed and pipe.queues == [] and pipe.core.pipe is None  # no TPipe <-> TQue cycle left
    pipe.end_block(HERE, 1, "again")  # a no-op once destroyed
    assert pipe.destroyed


@asc.kernel
def optional_input(how, x, opt):
    gx = asc.GlobalTensor(F16)
    gx.set_global_buffer(x)
    go = asc.GlobalTensor(F16)
    go.set_global_buffer(opt)  # an optional input that was not given: a null pointer
    if how == "read":
        go.get_value(0)  # OPT-READ
    elif how == "write":
        go.set_value(0, 1.0)  # OPT-WRITE
    gx.set_value(0, gx.get_value(1))


def test_binding_a_pointer_outside_device_memory_faults_only_at_an_access(rt) -> None:
    x = np.arange(N, dtype=np.float16)
    d = aclsim.malloc(x.nbytes)
    aclsim.memcpy(d, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    optional_input[1]("none", d, 0)  # never touched: legal, as on the device
    aclsim.synchronize_stream()
    out = np.empty_like(x)
    aclsim.memcpy(out, out.nbytes, d, x.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    assert out[0] == x[1]
    for how, marker, code in (("read", "OPT-READ", errors.ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW),
                              ("write", "OPT-WRITE", errors.ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW)):
        optional_input[1](how, d, 0)
        with pytest.raises(errors.TaskError) as info:
            aclsim.synchronize_stream()
        e = info.value.cause
        assert isinstance(e, errors.GlobalOutOfRangeError), how
        assert (e.line, e.code) == (line_of(marker), code), how
        assert "not inside a live device allocation" in str(e)
    aclsim.free(d)
