"""Mixed AIC + AIV kernels (KERNEL_TYPE_MIX_AIC_1_1 / _1_2), their indices, and the cross-core flags
(CrossCoreSetFlag / CrossCoreWaitFlag): functional semantics, deadlocks, counter overflow, races."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors

F32 = asc.float32
E = asc.HardEvent
KT = asc.KernelMetaType
N = 64  # floats per vector core


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


# --- indices ------------------------------------------------------------------------------------

@asc.kernel
def who(kind, seen, x):
    asc.kernel_task_type_default(kind)
    seen.append((asc.g_coreType, asc.get_block_idx(), asc.get_block_num(), asc.get_sub_block_idx(),
                 asc.get_sub_block_num(), asc.get_task_ratio(), asc.ASCEND_IS_AIC, asc.ASCEND_IS_AIV))


def test_indices_of_a_1_2_launch(run) -> None:
    seen: list[tuple] = []
    launch, _ = run(who, 2, np.zeros(8, np.float32), extra=(KT.KERNEL_TYPE_MIX_AIC_1_2, seen))
    AIC, AIV = asc.AIC, asc.AIV
    assert seen == [(AIC, 0, 2, 0, 1, 1, True, False), (AIV, 0, 2, 0, 2, 2, False, True),
                    (AIV, 1, 2, 1, 2, 2, False, True), (AIC, 1, 2, 0, 1, 1, True, False),
                    (AIV, 2, 2, 0, 2, 2, False, True), (AIV, 3, 2, 1, 2, 2, False, True)]
    assert len(launch.streams) == 6 and launch.layout == asc.MixLayout(2, 2)


def test_indices_of_a_1_1_launch(run) -> None:
    seen: list[tuple] = []
    run(who, 3, np.zeros(8, np.float32), extra=(KT.KERNEL_TYPE_MIX_AIC_1_1, seen))
    assert [s[:6] for s in seen[::2]] == [(asc.AIC, g, 3, 0, 1, 1) for g in range(3)]
    assert [s[:6] for s in seen[1::2]] == [(asc.AIV, g, 3, 0, 1, 1) for g in range(3)]


def test_a_mixed_kernel_is_refused_on_a_coupled_chip(run) -> None:
    e = launch_fault(run, who.with_options(chip="310P"), np.zeros(8, np.float32),
                     extra=(KT.KERNEL_TYPE_MIX_AIC_1_2, []))
    assert isinstance(e, errors.FeatureNotSupportedError) and e.code == 207000 and "310P" in str(e)


# --- a cube stage and a vector stage through a GM workspace ----------------------------------------

def _vec_tbuf(nbytes: int):
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, nbytes)
    return buf.get(F32)


@asc.kernel
def aiv_double_then_add(ws_skip_wait, x, ws, y):
    """AIVs: y = x + 1 + 2 * x.  Each AIV writes 2*x of its slice into the workspace and reports to the
    other AIV of its group (mode 1); after both did, each adds its partner's... no: the AIC waits for
    both AIVs (mode 2), then tells them (mode 2) to go on; each AIV then reads the workspace slice of
    its partner, written by the OTHER core."""
    asc.kernel_task_type_default(KT.KERNEL_TYPE_MIX_AIC_1_2)
    if asc.ASCEND_IS_AIC:
        asc.cross_core_wait_flag(3)  # AIC-WAIT
        asc.cross_core_set_flag(2, asc.PIPE_FIX, 4)
        return
    b = asc.get_block_idx()
    t = _vec_tbuf(N * 4)
    gx, gws, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    gx.set_global_buffer(x + b * N * 4)
    gws.set_global_buffer(ws)
    gy.set_global_buffer(y + b * N * 4)
    asc.data_copy(t, gx, N)
    asc.set_flag(E.MTE2_V, 0)
    asc.wait_flag(E.MTE2_V, 0)
    asc.muls(t, t, 2.0, N)
    asc.set_flag(E.V_MTE3, 0)
    asc.wait_flag(E.V_MTE3, 0)
    asc.data_copy(gws[b * N], t, N)  # WS-WRITE
    asc.cross_core_set_flag(2, asc.PIPE_MTE3, 3)
    if not ws_skip_wait:
        asc.cross_core_wait_flag(4)
    partner = b ^ 1
    asc.set_flag(E.MTE3_MTE2, 0)
    asc.wait_flag(E.MTE3_MTE2, 0)
    asc.data_copy(t, gws[partner * N], N)  # WS-READ
    asc.set_flag(E.MTE2_MTE3, 0)
    asc.wait_flag(E.MTE2_MTE3, 0)
    asc.data_copy(gy, t, N)
    if ws_skip_wait:
        asc.cross_core_wait_flag(4)


def test_aic_and_aivs_hand_data_through_gm(run) -> None:
    x = np.arange(4 * N, dtype=np.float32)
    zeros = np.zeros(4 * N, np.float32)
    launch, (_, ws, y) = run(aiv_double_then_add, 2, x, zeros, zeros, extra=(False,))
    np.testing.assert_array_equal(ws, 2 * x)
    partner = (2 * x).reshape(4, N)[[1, 0, 3, 2]].ravel()
    np.testing.assert_array_equal(y, partner)
    kinds = [s[0].cost["core"] for s in launch.streams]
    assert kinds == ["AIC", "AIV", "AIV"] * 2


def test_a_read_not_ordered_by_the_flags_is_a_cross_core_race(run) -> None:
    x = np.arange(4 * N, dtype=np.float32)
    e = launch_fault(run, aiv_double_then_add, x, np.zeros(4 * N, np.float32), np.zeros(4 * N, np.float32),
                     block_dim=2, extra=(True,))
    assert isinstance(e, errors.RaceError) and "cross-core race" in str(e)
    assert e.line in (line_of("# WS-WRITE"), line_of("# WS-READ"))
    assert "AIV" in str(e)


# --- modes 0 and 1 --------------------------------------------------------------------------------

@asc.kernel
def ring(kind, mode, x, y):
    """Each AIV stores its slice, syncs with cross-core flags of ``mode``, reads its neighbour's."""
    asc.kernel_task_type_default(kind)
    if asc.ASCEND_IS_AIC:
        return
    b = asc.get_block_idx()
    n = asc.get_block_num() * asc.get_task_ratio()
    t = _vec_tbuf(N * 4)
    gx, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    asc.data_copy(t, gx[b * N], N)
    asc.set_flag(E.MTE2_MTE3, 0)
    asc.wait_flag(E.MTE2_MTE3, 0)
    asc.data_copy(gy[b * N], t, N)
    asc.cross_core_set_flag(mode, asc.PIPE_MTE3, 0)
    asc.cross_core_wait_flag(0)
    nb = b ^ 1 if mode == 1 else (b + 1) % n
    # the UB tile is reused with no MTE3 -> MTE2 flag: the wait passes only after this core's own
    # set on MTE3 fired (modes 0 and 1 wait for every member's set), so the store out of it is done
    asc.data_copy(t, gy[nb * N], N)  # RING-REUSE
    asc.set_flag(E.MTE2_MTE3, 0)
    asc.wait_flag(E.MTE2_MTE3, 0)
    asc.data_copy(gx[b * N], t, N)


@pytest.mark.parametrize("kind,mode,blocks,cores", [(KT.KERNEL_TYPE_MIX_AIV_1_0, 0, 4, 4),
                                                    (KT.KERNEL_TYPE_MIX_AIC_1_2, 0, 2, 4),
                                                    (KT.KERNEL_TYPE_MIX_AIC_1_2, 1, 2, 4)])
def test_modes_0_and_1_order_the_vector_cores(run, kind, mode, blocks, cores) -> None:
    x = np.arange(cores * N, dtype=np.float32)
    _, (x2, y) = run(ring, blocks, x, np.zeros_like(x), extra=(kind, mode))
    np.testing.assert_array_equal(y, x)
    order = [b ^ 1 for b in range(cores)] if mode == 1 else [(b + 1) % cores for b in range(cores)]
    np.testing.assert_array_equal(x2, x.reshape(cores, N)[order].ravel())


# --- faults ------------------------------------------------------------------------------------------

@asc.kernel
def aiv_waits_for_nothing(x):
    asc.kernel_task_type_default(KT.KERNEL_TYPE_MIX_AIC_1_2)
    if asc.ASCEND_IS_AIV and asc.get_sub_block_idx() == 1:
        asc.cross_core_wait_flag(5)  # NEVER-SET


def test_a_wait_no_core_sets_is_a_deadlock_naming_core_flag_and_line(run) -> None:
    e = launch_fault(run, aiv_waits_for_nothing, np.zeros(8, np.float32), block_dim=2)
    assert isinstance(e, errors.KernelDeadlockError) and e.code == errors.ACL_ERROR_RT_AICORE_TIMEOUT
    assert e.line == line_of("# NEVER-SET") and e.block == 1
    assert "AIV 1" in str(e) and "CrossCoreWaitFlag(5)" in str(e) and "AIV 3" in str(e)
    assert not [t for t in threading.enumerate() if t.name.startswith("aclsim-block")]


@asc.kernel
def sets_too_often(times, x):
    asc.kernel_task_type_default(KT.KERNEL_TYPE_MIX_AIC_1_1)
    if asc.ASCEND_IS_AIC:
        for _ in range(times):
            asc.cross_core_set_flag(2, asc.PIPE_FIX, 1)  # SET-AGAIN
    else:
        for _ in range(times):
            asc.cross_core_wait_flag(1)


def test_a_counter_holds_fifteen_pending_sets(run) -> None:
    run(sets_too_often, 1, np.zeros(8, np.float32), extra=(15,))
    e = launch_fault(run, sets_too_often, np.zeros(8, np.float32), extra=(16,))
    assert isinstance(e, errors.KernelFault) and e.code == errors.ACL_ERROR_RT_AICORE_EXCEPTION
    assert e.line == line_of("# SET-AGAIN") and "AIV 0" in str(e) and "16" in str(e)


@asc.kernel
def flags_in(kind, mode, pipe, x):
    asc.kernel_task_type_default(kind)
    asc.cross_core_set_flag(mode, pipe, 0)  # BAD-SET


@pytest.mark.parametrize("kind,mode,pipe,words", [
    (KT.KERNEL_TYPE_AIV_ONLY, 0, asc.PIPE_MTE3, "scheduling module"),
    (KT.KERNEL_TYPE_MIX_AIV_1_0, 2, asc.PIPE_MTE3, "group"),
    (KT.KERNEL_TYPE_MIX_AIC_1_2, 0, asc.PIPE_S, "PIPE_S"),
    (KT.KERNEL_TYPE_MIX_AIC_1_2, 4, asc.PIPE_MTE3, "950"),
])
def test_cross_core_flags_the_kernel_cannot_use_are_refused(run, kind, mode, pipe, words) -> None:
    e = launch_fault(run, flags_in, np.zeros(8, np.float32), extra=(kind, mode, pipe))
    assert isinstance(e, errors.KernelFault) and e.line == line_of("# BAD-SET") and words in str(e)


def test_an_aic_has_no_vector_pipe_in_a_mixed_kernel(run) -> None:
    e = launch_fault(run, flags_in, np.zeros(8, np.float32),
                     extra=(KT.KERNEL_TYPE_MIX_AIC_1_2, 2, asc.PIPE_V))
    assert isinstance(e, errors.FeatureNotSupportedError) and "PIPE_V" in str(e)


# --- timing --------------------------------------------------------------------------------------

def test_a_cross_core_wait_ends_no_earlier_than_the_sets_it_consumed(run) -> None:
    x = np.arange(4 * N, dtype=np.float32)
    launch, _ = run(aiv_double_then_add, 2, x, np.zeros(4 * N, np.float32), np.zeros(4 * N, np.float32),
                    extra=(False,))
    rep = launch.report
    lat = launch.chip.cross_core_flag_latency_cycles
    assert rep.block_dim == 2 and [tl.kind for tl in rep.timelines] == ["AIC", "AIV", "AIV"] * 2
    tls = {tl.block: tl for tl in rep.timelines}
    checked = 0
    for tl in tls.values():
        for i, ins in enumerate(tl.instrs):
            if ins.op != "cross_core_wait_flag":
                continue
            for v, k in ins.cost["deps"]:
                other = tls[v]
                j = [n for n, x in enumerate(other.instrs) if x.op == "cross_core_set_flag"][k]
                assert tl.start[i] >= other.end[j] + lat
                # the set fired when the earlier work of its pipe was done
                pipe = other.instrs[j].pipe
                earlier = [other.end[n] for n in range(j) if other.instrs[n].pipe is pipe]
                assert other.end[j] >= max(earlier, default=0.0)
                checked += 1
            # nothing after the wait starts before it ends
            assert min(tl.start[i + 1:], default=tl.end[i]) >= tl.end[i]
    assert checked == 2 * 2 + 4  # each AIC waits for its two AIVs; each AIV for its AIC


def test_reports_show_both_core_types(run, tmp_path) -> None:
    from aclsim.sim.msprof.figures import Task
    from aclsim.sim.msprof.simulator import subcores
    from aclsim.sim.msprof.tables import OP_SUMMARY_HEADER, op_summary_rows, per_core_rows
    from aclsim.sim.report import summary

    x = np.arange(4 * N, dtype=np.float32)
    launch, _ = run(aiv_double_then_add, 2, x, np.zeros(4 * N, np.float32), np.zeros(4 * N, np.float32),
                    extra=(False,))
    rep = launch.report
    s = summary(rep)
    assert s["core_types"]["AIC"]["cores"] == 2 and s["core_types"]["AIV"]["cores"] == 4
    aiv = [t for t in rep.timelines if t.kind == "AIV"]
    assert s["core_types"]["AIV"]["pipes"]["MTE2"]["busy_cycles"] == sum(t.busy[asc.Pipe.MTE2] for t in aiv)
    row = dict(zip(OP_SUMMARY_HEADER, op_summary_rows([Task(rep, "mixed")])[0], strict=True))
    assert row["Task Type"] == "MIX_AIC" and row["Block Num"] == "2" and row["Mix Block Num"] == "2"
    freq = launch.chip.clock_hz / 1e6
    aiv_us = sum(t.finish - t.begin for t in aiv) / 4 / freq
    assert row["aiv_time(us)"] == f"{aiv_us:.3f}" and row["aicore_time(us)"] != "N/A"
    pipe_rows, _ = per_core_rows(rep)
    assert [(r[0], r[1]) for r in pipe_rows] == [("0", "cube0"), ("0", "vector0"), ("0", "vector1"),
                                                 ("1", "cube0"), ("1", "vector0"), ("1", "vector1")]
    assert [c.name for c in subcores(rep)] == ["core0.cubecore0", "core0.veccore0", "core0.veccore1",
                                               "core1.cubecore0", "core1.veccore0", "core1.veccore1"]


@asc.kernel
def reuse_after_handoff(wait_first, x, y):
    """The AIV stores a UB tile, sets mode 2 on MTE3, waits for its AIC, then loads into the same
    tile.  With ``wait_first`` the AIC waits for the AIVs before it sets: the AIV's wait implies
    its own store is done.  Without, the AIC sets at once and nothing orders the load after the
    store."""
    asc.kernel_task_type_default(KT.KERNEL_TYPE_MIX_AIC_1_1)
    if asc.ASCEND_IS_AIC:
        if wait_first:
            asc.cross_core_wait_flag(1)
        asc.cross_core_set_flag(2, asc.PIPE_FIX, 2)
        if not wait_first:
            asc.cross_core_wait_flag(1)
        return
    t = _vec_tbuf(N * 4)
    gx, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    asc.data_copy(t, gx, N)
    asc.set_flag(E.MTE2_MTE3, 0)
    asc.wait_flag(E.MTE2_MTE3, 0)
    asc.data_copy(gy, t, N)
    asc.cross_core_set_flag(2, asc.PIPE_MTE3, 1)
    asc.cross_core_wait_flag(2)
    asc.data_copy(t, gx[N], N)  # REUSE-LOAD
    asc.set_flag(E.MTE2_MTE3, 0)
    asc.wait_flag(E.MTE2_MTE3, 0)
    asc.data_copy(gy[N], t, N)


def test_a_cross_core_round_trip_orders_the_cores_own_pipes(run) -> None:
    x = np.arange(2 * N, dtype=np.float32)
    launch, (_, y) = run(reuse_after_handoff, 1, x, np.zeros_like(x), extra=(True,))
    np.testing.assert_array_equal(y, x)
    aiv = launch.streams[1]
    i = next(i for i, ins in enumerate(aiv) if ins.op == "cross_core_wait_flag")
    assert aiv[i - 1].op == "wait_flag" and (aiv[i - 1].src, aiv[i - 1].dst) == (asc.PIPE_MTE3, asc.PIPE_S)
    e = launch_fault(run, reuse_after_handoff, x, np.zeros_like(x), extra=(False,))
    assert isinstance(e, errors.RaceError) and "WAR" in str(e) and e.line == line_of("# REUSE-LOAD")


# --- sync_all in a mixed kernel; groups beyond the chip -----------------------------------------------

@asc.kernel
def mixed_sync_all(aiv_only, x, y):
    """Every AIV stores its slice; after sync_all each reads the next AIV's (SyncAll<true>), or the AIC
    of each group copies its group's first slice (SyncAll<false>)."""
    asc.kernel_task_type_default(KT.KERNEL_TYPE_MIX_AIC_1_2)
    gx, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    if asc.ASCEND_IS_AIC:
        if not aiv_only:
            asc.sync_all(is_aiv_only=False)
        return
    b, n = asc.get_block_idx(), asc.get_block_num() * 2
    t = _vec_tbuf(N * 4)
    asc.data_copy(t, gx[b * N], N)
    asc.set_flag(E.MTE2_MTE3, 0)
    asc.wait_flag(E.MTE2_MTE3, 0)
    asc.data_copy(gy[b * N], t, N)
    asc.sync_all(is_aiv_only=aiv_only)  # MIXED-SYNC
    asc.data_copy(t, gy[(b + 1) % n * N], N)
    asc.set_flag(E.MTE2_MTE3, 0)
    asc.wait_flag(E.MTE2_MTE3, 0)
    asc.data_copy(gx[b * N], t, N)


@pytest.mark.parametrize("aiv_only", [True, False])
def test_sync_all_in_a_mixed_kernel(run, aiv_only) -> None:
    x = np.arange(4 * N, dtype=np.float32)
    launch, (x2, y) = run(mixed_sync_all, 2, x, np.zeros_like(x), extra=(aiv_only,))
    np.testing.assert_array_equal(y, x)
    np.testing.assert_array_equal(x2, np.roll(x.reshape(4, N), -1, axis=0).ravel())
    tls = launch.report.timelines
    line = line_of("# MIXED-SYNC")
    waits = [(tl, i) for tl in tls for i, ins in enumerate(tl.instrs)
             if ins.op == "cross_core_wait_flag" and ins.line == line]
    sets = [(tl, i) for tl in tls for i, ins in enumerate(tl.instrs)
            if ins.op == "cross_core_set_flag" and ins.line == line]
    assert len(waits) == len(sets) == 4
    assert min(tl.start[i] for tl, i in waits) >= max(tl.end[i] for tl, i in sets)


def test_sync_all_aiv_only_on_the_aic_is_refused(run) -> None:
    @asc.kernel
    def aic_syncs(x):
        asc.kernel_task_type_default(KT.KERNEL_TYPE_MIX_AIC_1_1)
        asc.sync_all()

    e = launch_fault(run, aic_syncs, np.zeros(8, np.float32))
    assert isinstance(e, errors.FeatureNotSupportedError) and "AIC" in str(e)


def test_groups_beyond_the_chip_run_in_waves_and_mode_0_across_waves_deadlocks(run) -> None:
    # the tiny chip holds 2 groups of 1 AIC + 2 AIV: 3 groups run in 2 waves
    x = np.arange(6 * N, dtype=np.float32)
    launch, (x2, _) = run(ring, 3, x, np.zeros_like(x), extra=(KT.KERNEL_TYPE_MIX_AIC_1_2, 1))
    assert launch.report.waves == 2 and launch.report.block_dim == 3
    assert {tl.wave for tl in launch.report.timelines if tl.block >= 6} == {1}
    e = launch_fault(run, ring, x, np.zeros_like(x), block_dim=3, extra=(KT.KERNEL_TYPE_MIX_AIC_1_2, 0))
    assert isinstance(e, errors.KernelDeadlockError) and "cross_core_wait_flag(0)" in str(e)


# --- IBSet / IBWait ------------------------------------------------------------------------------------

@asc.kernel
def ib_chain(skip_set, x, y, ws):
    """Block b waits for block b - 1's flag, adds 1 to what it stored, stores it and sets its own."""
    b = asc.get_block_idx()
    pipe = asc.TPipe()
    buf, sync = asc.TBuf(asc.TPosition.VECCALC), asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, N * 4)
    pipe.init_buffer(sync, 32)
    t, s = buf.get(F32), sync.get(asc.int32)
    gx, gy, gws = asc.GlobalTensor(F32), asc.GlobalTensor(F32), asc.GlobalTensor(asc.int32)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    gws.set_global_buffer(ws)
    if b > 0:
        asc.ib_wait(gws, s, b - 1, 0)  # IB-WAIT
        asc.data_copy(t, gy[(b - 1) * N], N)
    else:
        asc.data_copy(t, gx, N)
    asc.set_flag(E.MTE2_V, 0)
    asc.wait_flag(E.MTE2_V, 0)
    asc.adds(t, t, 1.0, N)
    asc.set_flag(E.V_MTE3, 0)
    asc.wait_flag(E.V_MTE3, 0)
    asc.data_copy(gy[b * N], t, N)
    if not (skip_set and b == 1):
        asc.ib_set(gws, s, b, 0)


def test_ib_set_and_ib_wait_chain_the_blocks(run) -> None:
    x = np.arange(N, dtype=np.float32)
    launch, (_, y, ws) = run(ib_chain, 3, x, np.zeros(3 * N, np.float32), np.zeros(3 * 8, np.int32),
                             extra=(False,))
    np.testing.assert_array_equal(y.reshape(3, N), np.stack([x + 1, x + 2, x + 3]))
    assert list(ws[::8]) == [1, 1, 1]
    tls = launch.report.timelines
    wait = next(i for i, ins in enumerate(tls[2].instrs) if ins.op == "cross_core_wait_flag")
    set1 = next(i for i, ins in enumerate(tls[1].instrs) if ins.op == "cross_core_set_flag")
    assert tls[2].start[wait] >= tls[1].end[set1] + launch.chip.cross_core_flag_latency_cycles
    e = launch_fault(run, ib_chain, x, np.zeros(3 * N, np.float32), np.zeros(3 * 8, np.int32), block_dim=3,
                     extra=(True,))
    assert isinstance(e, errors.KernelDeadlockError) and e.line == line_of("# IB-WAIT") and e.block == 2
    assert "IBWait(block 1, event 0)" in str(e)


@asc.kernel
def notify_wait(x):
    asc.kernel_task_type_default(KT.KERNEL_TYPE_MIX_AIC_1_2)
    if asc.ASCEND_IS_AIC:
        asc.notify_event(asc.PIPE_FIX, 4)
    else:
        asc.wait_event(4)


def test_notify_event_and_wait_event_are_the_mode_2_hand_off(run) -> None:
    launch, _ = run(notify_wait, 1, np.zeros(8, np.float32))
    aic, aiv0, aiv1 = launch.streams
    (s,) = [ins for ins in aic if ins.op == "cross_core_set_flag"]
    assert s.cost["mode"] == 2 and s.pipe is asc.PIPE_FIX and s.event_id == 4
    assert [ins.cost["deps"] for ins in (*aiv0, *aiv1) if ins.op == "cross_core_wait_flag"] == [((0, 0),)] * 2


def test_after_a_barrier_the_cores_resume_in_order(run) -> None:
    order: list[int] = []

    @asc.kernel
    def note(x):
        asc.sync_all()
        order.append(asc.get_block_idx())

    run(note, 4, np.zeros(8, np.float32))
    assert order == [0, 1, 2, 3]  # the last to arrive does not go first


def test_the_simulator_trace_has_cross_core_flows(run) -> None:
    from aclsim.sim.msprof.simulator import trace_events

    x = np.arange(4 * N, dtype=np.float32)
    launch, _ = run(aiv_double_then_add, 2, x, np.zeros(4 * N, np.float32), np.zeros(4 * N, np.float32),
                    extra=(False,))
    events = trace_events(launch.report)
    labels = {e["pid"]: e["args"]["labels"] for e in events if e.get("name") == "process_labels"}
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    ends = {e["id"]: e for e in events if e["ph"] == "t"}
    cross = [(labels[starts[k]["pid"]], labels[ends[k]["pid"]], starts[k]["cat"]) for k in starts
             if labels[starts[k]["pid"]] != labels[ends[k]["pid"]]]
    assert ("core0.veccore0", "core0.cubecore0", "MTE3ToSCALAR") in cross
    assert ("core1.cubecore0", "core1.veccore1", "FIXPToSCALAR") in cross
    assert len(cross) == 8 and all(ends[k]["ts"] >= starts[k]["ts"] for k in starts)


@asc.kernel
def fault_while_aic_waits(x):
    asc.kernel_task_type_default(KT.KERNEL_TYPE_MIX_AIC_1_2)
    if asc.ASCEND_IS_AIC:
        asc.cross_core_wait_flag(0)
    elif asc.get_sub_block_idx() == 1:
        asc.TBuf().get(F32)  # used before init_buffer: a fault
    else:
        asc.cross_core_set_flag(2, asc.PIPE_MTE3, 0)


def test_a_fault_while_a_core_waits_ends_the_launch(run) -> None:
    e = launch_fault(run, fault_while_aic_waits, np.zeros(8, np.float32), block_dim=2)
    assert isinstance(e, errors.QueueError) and e.block == 1
    assert not [t for t in threading.enumerate() if t.name.startswith("aclsim-block")]
