"""Multi-core kernels: sync_all, atomic stores (and their cross-block race check), sub-blocks,
workspaces, TPipe.reset, init_global_memory, and Python errors located in the kernel."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.isa import Pipe

F16, F32, I32 = asc.float16, asc.float32, asc.int32
N = 64  # elements per block


def line_of(marker: str) -> int:
    with open(__file__) as f:
        for i, text in enumerate(f, 1):
            if marker in text and "line_of(" not in text:
                return i
    raise AssertionError(marker)


def launch_fault(run, kern, *arrays, block_dim: int = 1, extra=()) -> BaseException:
    with pytest.raises(errors.TaskError) as info:
        run(kern, block_dim, *arrays, extra=extra)
    return info.value.cause


# --- sync_all --------------------------------------------------------------------------------

@asc.kernel
def rotate_after_sync(x, y):
    """Each block doubles its slice of x into y, then (after sync_all) reads the NEXT block's slice
    of y, written by a block that runs after it, and stores it back in x."""
    b, nb = asc.get_block_idx(), asc.get_block_num()
    pipe = asc.TPipe()
    buf = asc.TBuf()
    pipe.init_buffer(buf, N * 4)
    t = buf.get(F32)
    gx, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    asc.data_copy(t, gx[b * N], N)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.muls(t, t, 2.0, N)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.data_copy(gy[b * N], t, N)
    asc.sync_all()  # SYNC-ALL
    asc.data_copy(t, gy[(b + 1) % nb * N], N)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.data_copy(gx[b * N], t, N)


def test_sync_all_orders_blocks(run) -> None:
    x = np.arange(4 * N, dtype=np.float32)
    launch, (x2, y) = run(rotate_after_sync, 4, x, np.zeros_like(x))
    np.testing.assert_array_equal(y, 2 * x)
    np.testing.assert_array_equal(x2, np.roll(2 * x, -N))
    for stream in launch.streams:
        syncs = [i for i in stream if i.op == "sync_all"]
        assert len(syncs) == 1 and syncs[0].pipe is Pipe.ALL and syncs[0].line == line_of("# SYNC-ALL")
    assert launch.report.total_cycles > 0
    assert not [t for t in threading.enumerate() if t.name.startswith("aclsim-block")]


@asc.kernel
def soft_sync(x, y, ws):
    b = asc.get_block_idx()
    pipe = asc.TPipe()
    buf, wbuf = asc.TBuf(), asc.TBuf()
    pipe.init_buffer(buf, N * 4)
    pipe.init_buffer(wbuf, asc.get_block_num() * 32)
    t = buf.get(F32)
    gx, gy, gw = asc.GlobalTensor(F32), asc.GlobalTensor(F32), asc.GlobalTensor(I32)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    gw.set_global_buffer(ws)
    asc.data_copy(t, gx[b * N], N)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.data_copy(gy[b * N], t, N)
    asc.sync_all(gw, wbuf.get(I32))
    asc.data_copy(t, gy[(1 - b) * N], N)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.data_copy(gx[b * N], t, N)


def test_software_sync_all(run) -> None:
    x = np.arange(2 * N, dtype=np.float32)
    _, (x2, _, _) = run(soft_sync, 2, x, np.zeros_like(x), np.zeros(16, np.int32))
    np.testing.assert_array_equal(x2, np.roll(x, N))


def test_software_sync_all_checks_its_workspace(run) -> None:
    x = np.arange(2 * N, dtype=np.float32)
    e = launch_fault(run, soft_sync, x, np.zeros_like(x), np.zeros(8, np.int32), block_dim=2)
    assert isinstance(e, errors.KernelFault) and "64 B" in str(e)


@asc.kernel
def uneven_sync(x):
    if asc.get_block_idx() != 1:
        asc.sync_all()  # UNEVEN-SYNC


def test_sync_all_not_reached_by_every_block_is_a_deadlock(run) -> None:
    e = launch_fault(run, uneven_sync, np.zeros(8, np.float32), block_dim=3)
    assert isinstance(e, errors.KernelDeadlockError) and e.code == errors.ACL_ERROR_RT_AICORE_TIMEOUT
    assert e.line == line_of("# UNEVEN-SYNC") and e.block == 0 and "block(s) 1" in str(e)
    assert not [t for t in threading.enumerate() if t.name.startswith("aclsim-block")]


@asc.kernel
def fault_while_others_wait(x):
    if asc.get_block_idx() == 2:
        asc.TBuf().get(F32)  # used before init_buffer: a fault
    asc.sync_all()


def test_a_fault_while_blocks_wait_at_sync_all_ends_the_launch(run) -> None:
    e = launch_fault(run, fault_while_others_wait, np.zeros(8, np.float32), block_dim=4)
    assert isinstance(e, errors.QueueError) and e.block == 2
    assert not [t for t in threading.enumerate() if t.name.startswith("aclsim-block")]


def test_hardware_sync_all_is_refused_on_a_coupled_chip(run) -> None:
    e = launch_fault(run, uneven_sync.with_options(chip="310P"), np.zeros(8, np.float32))
    assert isinstance(e, errors.FeatureNotSupportedError) and "software form" in str(e)


# --- atomic stores ---------------------------------------------------------------------------

def _atomic_kernel(dtype, mode: str, pad: bool = False, plain_block: int | None = None, sync: bool = False):
    @asc.kernel
    def k(x, y):
        b = asc.get_block_idx()
        pipe = asc.TPipe()
        buf = asc.TBuf()
        pipe.init_buffer(buf, N * 4)
        t = buf.get(dtype)
        gx, gy = asc.GlobalTensor(dtype), asc.GlobalTensor(dtype)
        gx.set_global_buffer(x)
        gy.set_global_buffer(y)
        asc.data_copy(t, gx[b * N], N)
        asc.pipe_barrier(asc.PIPE_ALL)
        if sync:
            asc.sync_all()
        if b != plain_block:
            getattr(asc, f"set_atomic_{mode}")(dtype)
        if pad:
            asc.data_copy_pad(gy, t, asc.DataCopyExtParams(1, 40 * np.dtype(dtype).itemsize, 0, 0))
        else:
            asc.data_copy(gy, t, N)  # STORE
        asc.set_atomic_none()
        asc.pipe_barrier(asc.PIPE_ALL)

    return k


@pytest.mark.parametrize("dtype,mode,fn", [
    (np.int32, "add", np.add), (np.float32, "add", np.add), (np.float16, "add", np.add),
    (np.int16, "max", np.maximum), (np.float32, "min", np.minimum), (np.int8, "add", np.add),
])
def test_atomic_stores_of_every_block_combine(run, dtype, mode, fn) -> None:
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(4 * N) * 20).astype(dtype)
    y0 = (rng.standard_normal(N) * 20).astype(dtype)
    launch, (_, y) = run(_atomic_kernel(dtype, mode), 4, x, y0)
    want = y0.copy()
    for b in range(4):  # the blocks' stores in block order, each rounded in dtype
        want = fn(want, x[b * N:(b + 1) * N]).astype(dtype)
    np.testing.assert_array_equal(y, want)
    store = [i for i in launch.streams[1] if i.line == line_of("# STORE")][0]
    assert store.cost["atomic"] == f"{mode}:{np.dtype(dtype)}" and store.reads[1] == store.writes[0]
    scalar = [i.op for i in launch.streams[0] if i.pipe is Pipe.S]
    assert scalar[:2] == [f"set_atomic_{mode}", "set_atomic_none"]


def test_atomic_data_copy_pad(run) -> None:
    x = np.arange(2 * N, dtype=np.float32)
    y0 = np.ones(N, np.float32)
    _, (_, y) = run(_atomic_kernel(np.float32, "add", pad=True), 2, x, y0)
    want = y0.copy()
    want[:40] += x[:40] + x[N:N + 40]
    np.testing.assert_array_equal(y, want)


def test_plain_store_racing_with_atomic_stores_is_a_race(run) -> None:
    x = np.arange(3 * N, dtype=np.float32)
    e = launch_fault(run, _atomic_kernel(np.float32, "add", plain_block=1), x, np.zeros(N, np.float32),
                     block_dim=3)
    assert isinstance(e, errors.RaceError) and "cross-block race" in str(e) and "plain write" in str(e)
    assert e.line == line_of("# STORE") and e.block == 1


def test_sync_all_orders_a_plain_store_before_atomic_ones(run) -> None:
    @asc.kernel
    def zero_then_add(x, y):
        b = asc.get_block_idx()
        pipe = asc.TPipe()
        buf = asc.TBuf()
        pipe.init_buffer(buf, N * 4)
        t = buf.get(F32)
        gx, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
        gx.set_global_buffer(x)
        gy.set_global_buffer(y)
        if b == 0:
            asc.init_global_memory(gy, N, 0.0)
        asc.sync_all()
        asc.data_copy(t, gx[b * N], N)
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.set_atomic_add(F32)
        asc.data_copy(gy, t, N)
        asc.set_atomic_none()

    x = np.arange(3 * N, dtype=np.float32)
    _, (_, y) = run(zero_then_add, 3, x, np.full(N, 7, np.float32))
    np.testing.assert_array_equal(y, x[:N] + x[N:2 * N] + x[2 * N:])


def test_atomic_fixpipe_sums_split_k(run) -> None:
    """Split-K matmul: each block multiplies one K slice and adds its C into GM atomically."""
    m, n, ks = 16, 16, 16

    @asc.kernel
    def split_k(a, bt, c):
        blk = asc.get_block_idx()
        pipe = asc.TPipe()
        a1, b1, a2, b2 = (asc.TBuf(p) for p in (asc.TPosition.A1, asc.TPosition.B1, asc.TPosition.A2,
                                                 asc.TPosition.B2))
        co1 = asc.TBuf(asc.TPosition.CO1)
        for buf in (a1, b1, a2, b2):
            pipe.init_buffer(buf, 512)
        pipe.init_buffer(co1, 1024)
        ga, gb, gc = asc.GlobalTensor(F16), asc.GlobalTensor(F16), asc.GlobalTensor(F32)
        ga.set_global_buffer(a)
        gb.set_global_buffer(bt)
        gc.set_global_buffer(c)
        ta1, tb1, ta2, tb2, tc = a1.get(F16), b1.get(F16), a2.get(F16), b2.get(F16), co1.get(F32)
        asc.data_copy(ta1, ga[blk * ks], asc.Nd2NzParams(1, m, ks, 0, 2 * ks, 16, 1, 0))
        asc.data_copy(tb1, gb[blk * ks], asc.Nd2NzParams(1, n, ks, 0, 2 * ks, 16, 1, 0))
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.load_data(ta2, ta1, asc.LoadData2DParams(0, 1, 1))
        asc.load_data(tb2, tb1, asc.LoadData2DParams(0, 1, 1))
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.mmad(tc, ta2, tb2, asc.MmadParams(m, n, ks))
        asc.pipe_barrier(asc.PIPE_ALL)
        asc.set_atomic_add(F32)
        asc.fixpipe(gc, tc, asc.FixpipeParamsV220(n_size=n, m_size=m, src_stride=16, dst_stride=n))
        asc.set_atomic_none()
        asc.pipe_barrier(asc.PIPE_ALL)

    rng = np.random.default_rng(3)
    a = rng.integers(-3, 4, (m, 2 * ks)).astype(np.float16)
    b = rng.integers(-3, 4, (2 * ks, n)).astype(np.float16)
    c0 = np.full((m, n), 5, np.float32)
    launch, (_, _, c) = run(split_k, 2, a, np.ascontiguousarray(b.T), c0)
    np.testing.assert_array_equal(c, c0 + a.astype(np.float32) @ b.astype(np.float32))
    fix = [i for i in launch.streams[0] if i.op == "fixpipe"][0]
    assert fix.cost["atomic"] == "add:float32" and fix.reads[1] == fix.writes[0]


def test_atomic_modes_and_types_follow_the_chip(run) -> None:
    x = np.arange(N, dtype=np.float32)
    e = launch_fault(run, _atomic_kernel(np.float32, "max").with_options(chip="310P"), x, x.copy())
    assert isinstance(e, errors.FeatureNotSupportedError) and "no atomic max" in str(e)
    xi = np.arange(N, dtype=np.int8)
    e = launch_fault(run, _atomic_kernel(np.int8, "add").with_options(chip="310P"), xi, xi.copy())
    assert isinstance(e, errors.FeatureNotSupportedError) and "int16, float16, float32" in str(e)
    # 310P: atomic add from UB works
    x2 = np.arange(2 * N, dtype=np.float32)
    kern = _atomic_kernel(np.float32, "add").with_options(chip="310P")
    _, (_, y) = run(kern, 2, x2, np.zeros(N, np.float32))
    np.testing.assert_array_equal(y, x2[:N] + x2[N:])


# --- sub-blocks, workspaces, TPipe.reset, init_global_memory --------------------------------

def test_sub_block_and_workspaces(run) -> None:
    got = {}

    @asc.kernel
    def probe(ws):
        got["sub"] = (asc.get_sub_block_idx(), asc.get_sub_block_num())
        got["user"] = int(asc.get_user_workspace(ws)) - int(ws)
        got["before"] = asc.get_sys_workspace_ptr()
        asc.set_sys_workspace(ws)
        asc.set_sys_workspace(ws + 64)  # the first call wins
        got["sys"] = int(asc.get_sys_workspace_ptr()) - int(ws)

    run(probe, 1, np.zeros(8, np.uint8))
    assert got == {"sub": (0, 1), "user": 16 * 2**20, "before": None, "sys": 0}
    assert asc.sys_workspace_size("tiny") == 16 * 2**20 and asc.sys_workspace_size("310P") == 2 * 2**20


@asc.kernel
def reset_loop(x, y):
    pipe = asc.TPipe()
    q_in, q_out = asc.TQue(asc.TPosition.VECIN, 1), asc.TQue(asc.TPosition.VECOUT, 1)
    gx, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    for i in range(2):
        pipe.init_buffer(q_in, 2, N * 4)
        pipe.init_buffer(q_out, 2, N * 4)
        t = q_in.alloc_tensor(F32)
        asc.data_copy(t, gx[i * N], N)
        q_in.enque(t)
        t = q_in.deque(F32)
        u = q_out.alloc_tensor(F32)
        asc.adds(u, t, 1.0, N)
        q_out.enque(u)
        q_in.free_tensor(t)
        u = q_out.deque(F32)
        asc.data_copy(gy[i * N], u, N)
        q_out.free_tensor(u)
        pipe.reset()  # RESET
    asc.adds(u, u, 1.0, N)  # USE-AFTER-RESET


def test_tpipe_reset_lets_queues_start_again(run) -> None:
    x = np.arange(2 * N, dtype=np.float32)
    e = launch_fault(run, reset_loop, x, np.zeros_like(x))
    assert isinstance(e, errors.QueueError) and "released by TPipe.reset" in str(e)
    assert e.line == line_of("# USE-AFTER-RESET")

    @asc.kernel
    def loop_only(x, y):
        pipe = asc.TPipe()
        q = asc.TQueBind(asc.TPosition.VECIN, asc.TPosition.VECOUT, 1)
        gx, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
        gx.set_global_buffer(x)
        gy.set_global_buffer(y)
        for i in range(3):
            pipe.init_buffer(q, 2, N * 4)  # the same queue, given buffers again after each reset
            t = q.alloc_tensor(F32)
            asc.data_copy(t, gx[i * N], N)
            q.enque(t)
            t = q.deque(F32)
            asc.data_copy(gy[i * N], t, N)
            q.free_tensor(t)
            pipe.reset()

    x3 = np.arange(3 * N, dtype=np.float32)
    launch, (_, y) = run(loop_only, 1, x3, np.zeros_like(x3))
    np.testing.assert_array_equal(y, x3)


@pytest.mark.parametrize("dtype,value,size",
                         [(np.float32, 1.5, 100), (np.int32, -7, 20000), (np.float16, 3, 7)])
def test_init_global_memory(run, dtype, value, size) -> None:
    @asc.kernel
    def fill(y):
        pipe = asc.TPipe()
        q = asc.TQue(asc.TPosition.VECIN, 1)
        pipe.init_buffer(q, 1, 1024)
        g = asc.GlobalTensor(dtype)
        g.set_global_buffer(y)
        asc.init_global_memory(g, size, value)

    y0 = np.full(size + 40, 9, dtype)
    launch, (y,) = run(fill, 1, y0)
    want = y0.copy()
    want[:size] = value
    np.testing.assert_array_equal(y, want)
    ops = [(i.pipe, i.op) for i in launch.streams[0]]
    assert ops[:3] == [(Pipe.V, "duplicate"), (Pipe.V, "set_flag"), (Pipe.MTE3, "wait_flag")]
    burst = 255 * 256 // np.dtype(dtype).itemsize
    assert sum(op == "data_copy_pad" for _, op in ops) == -(-size // burst)
    dup = launch.streams[0][0]
    assert dup.writes[0].offset == 1024  # the UB the TPipe did not hand out


def test_init_output_is_refused_where_ascend_c_compiles_it_to_nothing(run) -> None:
    @asc.kernel
    def fill(y):
        asc.TPipe()
        g = asc.GlobalTensor(F32)
        g.set_global_buffer(y)
        asc.init_output(g, 8)

    _, (y,) = run(fill, 1, np.ones(8, np.float32))
    np.testing.assert_array_equal(y, np.zeros(8, np.float32))
    e = launch_fault(run, fill.with_options(chip="310P"), np.ones(8, np.float32))
    assert isinstance(e, errors.FeatureNotSupportedError)


# --- Python errors inside a kernel --------------------------------------------------------------

@asc.kernel
def typo(x):
    pipe = asc.TPipe()
    buf = asc.TBuf()
    pipe.init_buffer(buf, 256)
    t = buf.get(F32)
    asc.adds(t, t, undefined_name, 8)  # noqa: F821  # TYPO


@asc.kernel
def bad_argument(x):
    pipe = asc.TPipe()
    buf = asc.TBuf()
    pipe.init_buffer(buf, 256)
    g = asc.GlobalTensor(F32)
    g.set_global_buffer(x)
    asc.data_copy(buf.get(F32), g, asc.DataCopyParams(-1, 1, 0, 0))  # BAD-ARG


def test_python_error_in_a_kernel_names_file_line_and_block(run) -> None:
    e = launch_fault(run, typo, np.zeros(8, np.float32), block_dim=2)
    assert isinstance(e, asc.KernelPythonError) and isinstance(e, NameError)
    assert (e.file, e.line, e.block, e.op) == (__file__, line_of("# TYPO"), 0, None)
    assert e.code == errors.ACL_ERROR_RT_INTERNAL_ERROR and "undefined_name" in str(e)
    assert f"{__file__}:{line_of('# TYPO')}" in str(e)
    e = launch_fault(run, bad_argument, np.zeros(8, np.float32))
    assert isinstance(e, ValueError) and e.op == "data_copy" and e.line == line_of("# BAD-ARG")
    assert "negative field" in str(e) and "data_copy" in e.hint


@asc.kernel
def unsupported_mode(x):
    pipe = asc.TPipe()
    a, b = asc.TBuf(), asc.TBuf()
    pipe.init_buffer(a, 256)
    pipe.init_buffer(b, 256)
    asc.cast(a.get(F16), b.get(F32), asc.RoundMode.CAST_HYBRID, 64)  # HYBRID


def test_acl_error_without_a_location_gets_the_kernel_line(run) -> None:
    """An ACL error an instruction raises without a kernel location (not a fault) is located at the
    kernel line and block, in its attributes and its message."""
    e = launch_fault(run, unsupported_mode, np.zeros(8, np.float32), block_dim=2)
    assert isinstance(e, errors.FeatureNotSupportedError)
    assert (e.file, e.line, e.block) == (__file__, line_of("# HYBRID"), 0)
    assert f"{__file__}:{line_of('# HYBRID')} (block 0)" in e.message
