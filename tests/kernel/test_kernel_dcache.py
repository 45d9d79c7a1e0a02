"""The scalar data cache calls, GetSystemCycle, OOMCheckAddrRange and the layout helpers."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim.arch import get_chip
from aclsim.errors import GlobalOutOfRangeError, TaskError
from aclsim.isa import Pipe, Space

I32 = asc.int32
E = asc.HardEvent
TINY = get_chip("tiny")


def _launch(kern, *args):
    launch = kern[1, None](*args)
    aclsim.synchronize_device()
    return launch


def _cause(kern, *args):
    with pytest.raises(TaskError) as info:
        _launch(kern, *args)
    return info.value.cause


@asc.kernel
def bypass(n, x, y):
    """y[i] = 2 * x[i] + 1, element by element, past the data cache."""
    px, py = x.cast(I32), y.cast(I32)
    for i in range(n):
        v = asc.read_gm_by_pass_dcache(px + i)
        asc.write_gm_by_pass_dcache(py + i, 2 * int(v) + 1)


def test_bypass_reads_and_writes_are_exact_and_recorded_on_the_scalar_pipe(rt, run) -> None:
    x = np.arange(-8, 8, dtype=np.int32) * 1000
    launch, (_, y) = run(bypass, 1, x, np.zeros(16, np.int32), extra=(16,))
    np.testing.assert_array_equal(y, 2 * x + 1)
    instrs = [i for i in launch.streams[0] if i.op.endswith("_by_pass_dcache")]
    assert len(instrs) == 32 and all(i.pipe is Pipe.S for i in instrs)
    rd, wr = instrs[0], instrs[1]
    assert [(a.space, a.length) for a in rd.reads] == [(Space.GM, 4)] and not rd.writes
    assert [(a.space, a.length) for a in wr.writes] == [(Space.GM, 4)] and not wr.reads
    assert wr.writes[0].offset == instrs[3].writes[0].offset - 4  # element 0, then element 1
    assert rd.cost.cycles == wr.cost.cycles == TINY.gm_latency_cycles


@asc.kernel
def bypass_bad(x, case):
    if case == "float":
        asc.read_gm_by_pass_dcache(x.cast(asc.float32))
    elif case == "past":
        asc.write_gm_by_pass_dcache(x.cast(I32) + 1000, 1)
    elif case == "untyped":
        asc.read_gm_by_pass_dcache(int(x))


def test_bypass_checks_type_and_bounds(rt) -> None:
    d = aclsim.malloc(64)
    assert "documented types" in str(_cause(bypass_bad, d, "float"))
    fault = _cause(bypass_bad, d, "past")
    assert isinstance(fault, GlobalOutOfRangeError) and fault.code == 507045
    assert fault.file.endswith("test_kernel_dcache.py")
    assert "typed global pointer" in str(_cause(bypass_bad, d, "untyped"))
    aclsim.free(d)


@asc.kernel
def scalar_then_dcci(x, mode, dst_kind):
    """set_value on GM, DataCacheCleanAndInvalid, then MTE2 reads it back and MTE3 stores it."""
    g = asc.GlobalTensor(I32)
    g.set_global_buffer(x.cast(I32), 16)
    for i in range(8):
        g.set_value(i, 7 * i)
    if dst_kind == "local":
        buf = asc.TBuf(asc.TPosition.VECCALC)
        asc.TPipe().init_buffer(buf, 64)
        asc.data_cache_clean_and_invalid(buf.get(I32), mode, asc.DcciDst.CACHELINE_UB)
    elif dst_kind == "out":
        asc.data_cache_clean_and_invalid(g, mode, asc.DcciDst.CACHELINE_OUT)
    else:
        asc.data_cache_clean_and_invalid(g, mode)
    ub = asc.LocalMemAllocator().alloc(I32, 8)
    asc.set_flag(E.S_MTE2, 0)
    asc.wait_flag(E.S_MTE2, 0)
    asc.data_copy(ub, g, 8)
    asc.set_flag(E.MTE2_MTE3, 0)
    asc.wait_flag(E.MTE2_MTE3, 0)
    asc.data_copy(g[8], ub, 8)


@pytest.mark.parametrize("mode", list(asc.CacheLine))
@pytest.mark.parametrize("dst_kind", ["gm", "out", "local"])
def test_dcci_is_a_recorded_scalar_instruction_and_data_stays_exact(rt, mode, dst_kind) -> None:
    d = aclsim.malloc(64)
    launch = _launch(scalar_then_dcci, d, mode, dst_kind)
    x = np.empty(16, np.int32)
    aclsim.memcpy(x, 64, d, 64, aclsim.MemcpyKind.DEVICE_TO_HOST)
    aclsim.free(d)
    np.testing.assert_array_equal(x, np.tile(np.arange(8, dtype=np.int32) * 7, 2))
    (dcci,) = [i for i in launch.streams[0] if i.op == "dcci"]
    assert dcci.pipe is Pipe.S and not dcci.reads and not dcci.writes
    assert dcci.cost.cycles == TINY.gm_latency_cycles
    assert launch.diagnostics == []


@asc.kernel
def dcci_bad(x, case):
    g = asc.GlobalTensor(I32)
    if case == "unset":
        asc.data_cache_clean_and_invalid(g)
        return
    g.set_global_buffer(x.cast(I32), 16)
    if case == "atomic":
        asc.data_cache_clean_and_invalid(g, asc.CacheLine.SINGLE_CACHE_LINE, asc.DcciDst.CACHELINE_ATOMIC)
    elif case == "local_no_dst":
        asc.data_cache_clean_and_invalid(asc.LocalMemAllocator().alloc(I32, 8))


def test_dcci_refuses_what_the_documentation_refuses(rt) -> None:
    d = aclsim.malloc(64)
    fault = _cause(dcci_bad, d, "atomic")
    assert fault.code == 207000 and "CACHELINE_ATOMIC" in str(fault)
    assert "needs dcci_dst" in str(_cause(dcci_bad, d, "local_no_dst"))
    assert "before set_global_buffer" in str(_cause(dcci_bad, d, "unset"))
    aclsim.free(d)


@asc.kernel(chip="310P")
def on_310p(x, case):
    g = asc.GlobalTensor(I32)
    g.set_global_buffer(x.cast(I32), 16)
    if case == "dcci":
        asc.data_cache_clean_and_invalid(g)  # the one prototype the 310P AI Core has
    elif case == "dcci_dst":
        asc.data_cache_clean_and_invalid(g, asc.CacheLine.SINGLE_CACHE_LINE, asc.DcciDst.CACHELINE_OUT)
    elif case == "cycle":
        asc.get_system_cycle()
    elif case == "bypass":
        asc.read_gm_by_pass_dcache(x.cast(I32))


def test_the_310p_has_the_plain_dcci_only(rt) -> None:
    d = aclsim.malloc(64)
    launch = _launch(on_310p, d, "dcci")
    assert [i.op for i in launch.streams[0]].count("dcci") == 1
    for case in ("dcci_dst", "cycle", "bypass"):
        fault = _cause(on_310p, d, case)
        assert fault.code == 207000 and "310P" in str(fault), case
    aclsim.free(d)


@asc.kernel
def cycles(x):
    g = asc.GlobalTensor(asc.int64)
    g.set_global_buffer(x.cast(asc.int64), 2)
    t0 = asc.get_system_cycle()
    asc.pipe_barrier(asc.PIPE_ALL)
    t1 = asc.get_system_cycle()
    g.set_value(0, t0)
    g.set_value(1, t1 - t0)


def test_get_system_cycle_is_a_scalar_instruction_with_the_cpu_debug_clock(rt) -> None:
    d = aclsim.malloc(16)
    launch = _launch(cycles, d)
    out = np.empty(2, np.int64)
    aclsim.memcpy(out, 16, d, 16, aclsim.MemcpyKind.DEVICE_TO_HOST)
    aclsim.free(d)
    assert out[0] > 1_600_000_000 * 10**9 and out[1] >= 0  # host nanoseconds since 1970, nondecreasing
    ops = [i for i in launch.streams[0] if i.op == "get_system_cycle"]
    assert len(ops) == 2 and all(i.pipe is Pipe.S and not i.reads and not i.writes for i in ops)


@asc.kernel
def timed_add(x):
    ub = asc.LocalMemAllocator()
    a = ub.alloc(asc.float32, 2048)
    asc.duplicate(a, 1.0, 2048)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.get_system_cycle()
    for _ in range(4):
        asc.add(a, a, a, 2048)
        asc.pipe_barrier(asc.PIPE_V)
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.get_system_cycle()


def test_system_cycle_readings_are_the_modelled_times_in_counter_ticks(rt) -> None:
    d = aclsim.malloc(16)
    launch = _launch(timed_add, d)
    aclsim.free(d)
    first, second = asc.system_cycle_readings(launch)
    (tl,) = launch.report.timelines
    adds = [i for i, ins in enumerate(tl.instrs) if ins.op == "add"]
    add_cycles = tl.end[adds[-1]] - tl.start[adds[0]]  # the four adds, back to back on PIPE_V
    ticks = add_cycles * asc.SYSTEM_COUNTER_HZ["2201"] / TINY.clock_hz
    assert ticks > 2 and abs((second - first) - ticks) <= 2  # whole ticks, the barriers' few cycles
    with pytest.raises(ValueError, match="block 3"):
        asc.system_cycle_readings(launch, 3)


@asc.kernel
def oom(x, size):
    asc.oom_check_addr_range(x.cast(asc.float32), size)


def test_oom_check_addr_range_checks_its_arguments_and_records_nothing(rt) -> None:
    d = aclsim.malloc(64)
    launch = _launch(oom, d, 64)
    assert not launch.streams[0]
    assert "unsigned" in str(_cause(oom, d, -1))
    aclsim.free(d)


def test_layouts_map_coordinates_as_documented() -> None:
    shape = asc.make_shape(asc.make_shape(2, 4), asc.make_shape(3, 5))
    stride = asc.make_stride(asc.make_stride(3, 6), asc.make_stride(1, 24))
    lay = asc.make_layout(shape, stride)
    assert asc.is_layout(lay) and not asc.is_layout(shape)
    assert lay(asc.make_coord(11, 12)) == 129 == asc.crd2idx((11, 12), lay)  # the Crd2Idx page
    assert asc.crd2idx(asc.make_coord(1, 2, 3), (3, 4, 5), (20, 5, 1)) == 33
    # a 4 x 2 row-major layout with row stride 4: every coordinate against NumPy's strides
    a = np.arange(16).reshape(4, 4)[:, :2]
    lay2 = asc.Layout(asc.make_shape(4, 2), asc.make_stride(4, 1))
    for r in range(4):
        for c in range(2):
            assert lay2((r, c)) == a[r, c]
    assert [lay2(i) for i in range(8)] == [0, 4, 8, 12, 1, 5, 9, 13]  # column-major delinearization
    with pytest.raises(ValueError, match="structure"):
        asc.make_layout((2, (3, 4)), (1, 2, 3))
    assert asc.Shape is tuple and asc.Coord is tuple
