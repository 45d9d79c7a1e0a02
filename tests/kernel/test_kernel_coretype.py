"""Kernel types (KERNEL_TASK_TYPE_DEFAULT), the core type of a block (ASCEND_IS_AIV/AIC,
g_coreType) and GetTPipePtr."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim import errors

F32 = asc.float32
E = asc.HardEvent
KT = asc.KernelMetaType


@asc.kernel
def typed_double(kind, seen, x, y):
    asc.kernel_task_type_default(kind)
    seen.append((asc.ASCEND_IS_AIV, asc.ASCEND_IS_AIC, asc.g_coreType))
    if asc.ASCEND_IS_AIC:  # the vector half of a kernel compiled for both: nothing to do on a cube core
        return
    pipe = asc.TPipe()
    assert asc.get_tpipe_ptr() is pipe
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, 256)
    t = buf.get(F32)
    gx, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    asc.data_copy(t, gx, 64)
    asc.set_flag(E.MTE2_V, 0)
    asc.wait_flag(E.MTE2_V, 0)
    asc.add(t, t, t, 64)
    asc.set_flag(E.V_MTE3, 0)
    asc.wait_flag(E.V_MTE3, 0)
    asc.data_copy(gy, t, 64)


def test_a_vector_kernel_runs_as_a_vector_core(run) -> None:
    seen: list[tuple[bool, bool, asc.CoreType]] = []
    x = np.arange(64, dtype=np.float32)
    launch, (_, y) = run(typed_double, 2, x, np.zeros(64, np.float32), extra=(KT.KERNEL_TYPE_AIV_ONLY, seen))
    np.testing.assert_array_equal(y, 2 * x)
    assert seen == [(True, False, asc.AIV)] * 2
    seen.clear()
    kind = asc.KERNEL_TYPE_MIX_AIV_1_0
    launch, (_, y) = run(typed_double, 1, x, np.zeros(64, np.float32), extra=(kind, seen))
    assert seen == [(True, False, asc.CoreType.AIV)] and (y == 2 * x).all()


def test_a_cube_kernel_has_no_vector_pipe(run) -> None:
    seen: list[tuple[bool, bool, asc.CoreType]] = []
    zeros = np.zeros(64, np.float32)
    run(typed_double, 1, zeros, zeros, extra=(KT.KERNEL_TYPE_AIC_ONLY, seen))
    assert seen == [(False, True, asc.AIC)]  # returned before the vector half


@asc.kernel
def vector_on_cube(x):
    asc.kernel_task_type_default(asc.KERNEL_TYPE_AIC_ONLY)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, 256)
    t = buf.get(F32)
    asc.add(t, t, t, 64)  # CUBE-CORE-ADD


@asc.kernel
def mixed(x):
    asc.pipe_barrier(asc.PIPE_ALL)
    asc.kernel_task_type_default(asc.KERNEL_TYPE_MIX_AIC_1_2)  # MIXED-DECL


@asc.kernel
def undeclared(x):
    if asc.ASCEND_IS_AIV:  # UNDECLARED-READ
        pass


def _line(marker: str) -> int:
    with open(__file__) as f:
        return next(i for i, text in enumerate(f, 1) if marker in text and "_line(" not in text)


@pytest.mark.parametrize("kern, marker, cls, text", [
    (vector_on_cube, "CUBE-CORE-ADD", errors.FeatureNotSupportedError, "add runs on V, which a cube core"),
    (mixed, "MIXED-DECL", errors.KernelFault, "after the kernel began"),
    (undeclared, "UNDECLARED-READ", errors.KernelFault, "no declared type"),
])
def test_refusals_at_the_line(run, kern, marker, cls, text) -> None:
    with pytest.raises(errors.TaskError) as info:
        run(kern, 1, np.zeros(64, np.float32))
    cause = info.value.cause
    assert isinstance(cause, cls) and text in str(cause), repr(cause)
    assert cause.line == _line(marker)
    if cls is errors.FeatureNotSupportedError:
        assert cause.code == errors.ACL_ERROR_RT_FEATURE_NOT_SUPPORT


@asc.kernel
def coupled(x, kind):
    asc.kernel_task_type_default(kind)


def test_the_chip_decides_which_types_exist() -> None:
    aclsim.init(chip="310P")
    aclsim.set_device(0)
    try:
        buf = aclsim.malloc(256)
        coupled[1, None](buf, asc.KERNEL_TYPE_AICORE)  # the inference chip's type
        aclsim.synchronize_device()
        coupled[1, None](buf, asc.KERNEL_TYPE_AIV_ONLY)
        with pytest.raises(errors.TaskError, match="its kernel types are KERNEL_TYPE_AICORE"):
            aclsim.synchronize_device()
        aclsim.free(buf)
    finally:
        aclsim.reset_device(0)
        aclsim.finalize()


@asc.kernel
def per_key(key, seen, x):
    asc.kernel_task_type_default(asc.KERNEL_TYPE_AIC_ONLY)
    asc.kernel_task_type(2, asc.KERNEL_TYPE_AIV_ONLY, tiling_key=key)
    seen.append(asc.g_coreType)


def test_kernel_task_type_per_tiling_key(run) -> None:
    seen: list[asc.CoreType] = []
    for key in (1, 2):
        run(per_key, 1, np.zeros(64, np.float32), extra=(key, seen))
    assert seen == [asc.AIC, asc.AIV]


@asc.kernel
def early_pipe_ptr(x):
    asc.get_tpipe_ptr()


def test_get_tpipe_ptr_needs_a_pipe(run) -> None:
    with pytest.raises(errors.TaskError, match="GetTPipePtr before"):
        run(early_pipe_ptr, 1, np.zeros(64, np.float32))


@asc.kernel
def soc_state(seen, x):
    asc.set_atomic_add(asc.float32)
    asc.set_mask_count()
    asc.set_deq_scale(2.0)
    before = asc.vector_mask_state()
    asc.init_soc_state()
    seen.append((before, asc.vector_mask_state()))


def test_init_soc_state_resets_the_registers(run) -> None:
    seen: list[tuple[object, object]] = []
    run(soc_state, 1, np.zeros(64, np.float32), extra=(seen,))
    (before, after), = seen
    assert before != after
    fresh: list[tuple[object, object]] = []

    @asc.kernel
    def fresh_state(seen2, x):
        seen2.append(asc.vector_mask_state())

    run(fresh_state, 1, np.zeros(64, np.float32), extra=(fresh,))
    assert after == fresh[0]  # as a fresh block starts


@asc.kernel
def store_after_reset(x, y):
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, 256)
    t = buf.get(F32)
    gx, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    asc.data_copy(t, gx, 64)
    asc.set_atomic_add(asc.float32)
    asc.init_soc_state()  # the atomic mode goes: the store below overwrites
    asc.set_flag(E.MTE2_MTE3, 0)
    asc.wait_flag(E.MTE2_MTE3, 0)
    asc.data_copy(gy, t, 64)


def test_init_soc_state_ends_the_atomic_mode(run) -> None:
    x = np.ones(64, np.float32)
    _, (_, y) = run(store_after_reset, 1, x, np.full(64, 5, np.float32))
    assert (y == 1).all()
