"""Blocks dispatched one after another: each block of a wave starts ``task_per_block_s`` after
the previous one, so blocks that share device memory are out of phase (as on the device)."""

from __future__ import annotations

import pytest

from aclsim.arch import get_chip
from aclsim.isa import Access, Cost, Instr, Op, Pipe, Space
from aclsim.sim import simulate

A2 = get_chip("910B1")
TINY = get_chip("tiny")


def _load_then_compute(loops: int, gm: int) -> list[Instr]:
    """``loops`` times: load 4 KiB, wait for it on V, compute 300 cycles, let MTE2 go on."""
    out: list[Instr] = []
    for i in range(loops):
        if i:
            out.append(Instr(Pipe.MTE2, Op.WAIT_FLAG.value, src=Pipe.V, dst=Pipe.MTE2, event_id=0))
        out.append(Instr(Pipe.MTE2, "data_copy", (Access(Space.GM, gm + i * 4096, 4096),),
                         (Access(Space.UB, 0, 4096),), cost=Cost(bytes=4096)))
        out.append(Instr(Pipe.MTE2, Op.SET_FLAG.value, src=Pipe.MTE2, dst=Pipe.V, event_id=0))
        out.append(Instr(Pipe.V, Op.WAIT_FLAG.value, src=Pipe.MTE2, dst=Pipe.V, event_id=0))
        out.append(Instr(Pipe.V, "adds", (Access(Space.UB, 0, 4096),), (Access(Space.UB, 8192, 4096),),
                         cost=Cost(cycles=300)))
        if i < loops - 1:
            out.append(Instr(Pipe.V, Op.SET_FLAG.value, src=Pipe.V, dst=Pipe.MTE2, event_id=0))
    return out


def test_blocks_start_one_dispatch_interval_apart() -> None:
    """Block k begins k intervals after block 0; Task Duration is the span plus the fixed head."""
    copies = [[Instr(Pipe.MTE2, "data_copy", (Access(Space.GM, b * 4096, 4096),),
                     (Access(Space.UB, 0, 4096),), cost=Cost(bytes=4096))] for b in range(48)]
    copy = copies[0]
    dispatch = A2.task_per_block_s * A2.clock_hz
    report = simulate(A2, copies)
    begins = [tl.begin for tl in report.timelines]
    assert begins == pytest.approx([k * dispatch for k in range(48)])
    own = {round(tl.finish - tl.begin, 6) for tl in report.timelines}  # the same work, shifted
    assert len(own) == 1
    assert report.total_cycles == pytest.approx(47 * dispatch + own.pop())
    assert report.task_cycles == pytest.approx(report.total_cycles + A2.task_head_s * A2.clock_hz)
    one = simulate(A2, [copy])
    assert one.task_cycles == pytest.approx(one.total_cycles + A2.task_head_s * A2.clock_hz)
    assert simulate(TINY, [copy]).task_cycles == simulate(TINY, [copy]).total_cycles  # no overhead


def test_out_of_phase_blocks_use_the_idle_device_memory() -> None:
    """Four blocks load, then compute while device memory is idle.  Started together they load
    at once and share device memory, then all compute with it idle; started apart, one block's
    load falls in another's compute, so each block finishes its work sooner."""
    streams = [_load_then_compute(30, b << 20) for b in range(4)]
    slow = TINY.with_changes(dram_bandwidth=40e9)  # 40 B/cycle: four loads at once take 410 cycles
    together = simulate(slow, streams)
    apart = simulate(slow.with_changes(task_per_block_s=150e-9), streams)
    own_together = max(tl.finish - tl.begin for tl in together.timelines)
    own_apart = max(tl.finish - tl.begin for tl in apart.timelines)
    assert len({tl.begin for tl in together.timelines}) == 1
    assert own_apart < 0.75 * own_together
    # the bytes moved are the same; device memory is busy a larger part of the time
    assert apart.hbm_bytes == pytest.approx(together.hbm_bytes)


def test_identical_blocks_below_the_bandwidth_are_one_schedule_shifted() -> None:
    """Four blocks cannot ask for more than device memory gives: they share one schedule, each
    shifted by its dispatch, and the device-memory draw over time is theirs, shifted too."""
    blocks = [[Instr(Pipe.MTE2, "data_copy", (Access(Space.GM, b << 20, 65536),),
                     (Access(Space.UB, 0, 65536),), cost=Cost(bytes=65536))] for b in range(4)]
    dispatch = A2.task_per_block_s * A2.clock_hz
    report = simulate(A2, blocks)
    tls = report.timelines
    assert [tl.begin for tl in tls] == pytest.approx([k * dispatch for k in range(4)])
    assert [tl.start[0] - tl.begin for tl in tls] == pytest.approx([0.0] * 4)
    assert [tl.end[0] - tl.begin for tl in tls] == pytest.approx([tls[0].end[0]] * 4)
    assert report.hbm_bytes == pytest.approx(4 * 65536)
    alone = 65536 / A2.mte2_bytes_per_cycle
    # block k moves its bytes from k * 229 + 27 cycles for 513: at most three at once
    assert max(draw for _, draw in report.hbm_steps) == pytest.approx(3 * 65536 / alone)


def test_a_mixed_kernels_group_is_dispatched_as_one() -> None:
    """A mixed AIC + AIV kernel's cores come in groups (one AIC, two AIVs): the group is the
    unit of dispatch, so its three cores start together and the next group one interval later."""
    dispatch = A2.task_per_block_s * A2.clock_hz
    streams = []
    for _group in range(2):
        for kind in ("AIC", "AIV", "AIV"):
            marker = Instr(Pipe.S, "mix_core", cost=Cost(cycles=0, core=kind, ratio=2))
            work = Instr(Pipe.V if kind == "AIV" else Pipe.M, "work", cost=Cost(cycles=100))
            streams.append([marker, work])
    report = simulate(A2, streams)
    assert [tl.begin for tl in report.timelines] == pytest.approx([0.0] * 3 + [dispatch] * 3)
