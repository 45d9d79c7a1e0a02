"""``LocalMemAllocator<Hardware>``: tensors carved from a local memory without a TPipe."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim.errors import KernelFault, LocalOutOfRangeError, TaskError
from aclsim.isa import Pipe, Space

F32, F16 = asc.float32, asc.float16
E = asc.HardEvent


@asc.kernel
def alloc_add(n, x, y, z):
    """The static-tensor style of the asc-devkit examples: one UB allocator, flags by hand."""
    gx, gy, gz = asc.GlobalTensor(F32), asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    gx.set_global_buffer(x.cast(F32), n)
    gy.set_global_buffer(y.cast(F32), n)
    gz.set_global_buffer(z.cast(F32), n)
    ub = asc.LocalMemAllocator(asc.Hardware.UB)
    assert ub.get_cur_addr() == 0
    a = ub.alloc(F32, n)
    b = ub.alloc(asc.TPosition.VECIN, F32, n)
    c = ub.alloc(asc.TPosition.VECOUT, F32, n)
    assert (a.get_phy_addr(), b.get_phy_addr(), c.get_phy_addr()) == (0, 4 * n, 8 * n)
    assert (a.get_position(), b.get_position()) == (asc.TPosition.VECCALC, asc.TPosition.VECIN)
    assert ub.get_cur_addr() == 12 * n
    asc.data_copy(a, gx, n)
    asc.data_copy(b, gy, n)
    asc.set_flag(E.MTE2_V, 0)
    asc.wait_flag(E.MTE2_V, 0)
    asc.add(c, a, b, n)
    asc.set_flag(E.V_MTE3, 0)
    asc.wait_flag(E.V_MTE3, 0)
    asc.data_copy(gz, c, n)


def test_allocator_tensors_follow_each_other_and_compute(rt, run) -> None:
    n = 128
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal(n, dtype=np.float32), rng.standard_normal(n, dtype=np.float32)
    launch, (_, _, z) = run(alloc_add, 1, x, y, np.zeros(n, np.float32), extra=(n,))
    np.testing.assert_array_equal(z, x + y)
    adds = [i for i in launch.streams[0] if i.pipe is Pipe.V and i.op == "add"]
    assert [(a.space, a.offset, a.length) for a in adds[0].writes] == [(Space.UB, 8 * n, 4 * n)]
    assert launch.diagnostics == []


@asc.kernel
def other_memories(out):
    l1 = asc.LocalMemAllocator(asc.Hardware.L1)
    a1 = l1.alloc(F16, 512)
    b1 = l1.alloc(asc.TPosition.B1, F16, 256)
    l0a = asc.LocalMemAllocator(asc.Hardware.L0A)
    a2 = l0a.alloc(F16, 256)
    l0c = asc.LocalMemAllocator(asc.Hardware.L0C)
    co1 = l0c.alloc(F32, 256)
    got = [(t.space.value, t.get_phy_addr(), t.get_position().name) for t in (a1, b1, a2, co1)]
    g = asc.GlobalTensor(asc.int32)
    g.set_global_buffer(out.cast(asc.int32), 4)
    assert got == [("L1", 0, "A1"), ("L1", 1024, "B1"), ("L0A", 0, "A2"), ("L0C", 0, "CO1")], got
    g.set_value(0, l1.get_cur_addr())


def test_allocators_of_the_cube_memories_use_their_default_positions(rt, run) -> None:
    _, (out,) = run(other_memories, 1, np.zeros(4, np.int32))
    assert out[0] == 1536


@asc.kernel
def bad_alloc(out, case):
    ub = asc.LocalMemAllocator()
    if case == "unaligned":
        ub.alloc(F16, 7)  # 14 B: the next tensor would start at 14
        ub.alloc(F16, 16)
    elif case == "full":
        ub.alloc(F32, asc.total_ub_size() // 4 + 8)
    elif case == "second":
        asc.LocalMemAllocator(asc.Hardware.UB)
    elif case == "position":
        ub.alloc(asc.TPosition.A1, F16, 16)


@pytest.mark.parametrize("case, cls, code", [
    ("unaligned", LocalOutOfRangeError, 507035),
    ("full", LocalOutOfRangeError, 507035),
    ("second", KernelFault, 507035),
])
def test_bad_allocations_fault_at_the_line(rt, case: str, cls: type, code: int) -> None:
    d = aclsim.malloc(64)
    with pytest.raises(TaskError) as info:
        bad_alloc[1, None](d, case)
        aclsim.synchronize_device()
    fault = info.value.cause
    assert isinstance(fault, cls) and fault.code == code, fault
    assert fault.file.endswith("test_kernel_allocator.py") and fault.line > 0
    assert "LocalMemAllocator" in str(fault)
    aclsim.free(d)


def test_a_position_of_another_memory_is_refused(rt) -> None:
    d = aclsim.malloc(64)
    with pytest.raises(TaskError) as info:
        bad_alloc[1, None](d, "position")
        aclsim.synchronize_device()
    assert "A1 is in L1" in str(info.value.cause)
    aclsim.free(d)


@asc.kernel
def fault_keeps_head(out):
    ub = asc.LocalMemAllocator()
    ub.alloc(F32, 8)
    try:
        ub.alloc(F32, 10**7)
    except LocalOutOfRangeError:
        pass
    t = ub.alloc(F32, 8)  # the failed alloc moved nothing
    g = asc.GlobalTensor(asc.int32)
    g.set_global_buffer(out.cast(asc.int32), 2)
    g.set_value(0, t.get_phy_addr())
    g.set_value(1, ub.get_cur_addr())


def test_a_failed_alloc_leaves_the_address(rt, run) -> None:
    _, (out,) = run(fault_keeps_head, 1, np.zeros(2, np.int32))
    assert out.tolist() == [32, 64]


@asc.kernel
def one_per_function(out):
    def phase(k):
        ub = asc.LocalMemAllocator()  # gone when phase returns: the next one may start at 0
        return ub.alloc(F32, 8 * k).get_phy_addr()

    g = asc.GlobalTensor(asc.int32)
    g.set_global_buffer(out.cast(asc.int32), 2)
    g.set_value(0, phase(1))
    g.set_value(1, phase(2))


def test_an_allocator_made_after_the_first_is_gone_starts_at_zero(rt, run) -> None:
    _, (out,) = run(one_per_function, 1, np.zeros(2, np.int32))
    assert out.tolist() == [0, 0]


@asc.kernel
def bias_alloc(out):
    asc.LocalMemAllocator(asc.Hardware.BIAS)


def test_bias_table_allocator_is_refused_as_not_modelled(rt) -> None:
    d = aclsim.malloc(64)
    with pytest.raises(TaskError) as info:
        bias_alloc[1, None](d)
        aclsim.synchronize_device()
    assert info.value.cause.code == 207000 and "BiasTable" in str(info.value.cause)
    aclsim.free(d)


def test_gm_allocator_is_a_value_error(rt) -> None:
    @asc.kernel
    def gm_alloc(out):
        asc.LocalMemAllocator(asc.Hardware.GM)

    d = aclsim.malloc(64)
    with pytest.raises(TaskError) as info:
        gm_alloc[1, None](d)
        aclsim.synchronize_device()
    assert "not a local memory" in str(info.value.cause)
    aclsim.free(d)
