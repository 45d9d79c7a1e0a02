"""The core model's scheduler on small hand-computed pipelines (exact cycle counts)."""

from __future__ import annotations

import pytest

from aclsim.arch import get_chip
from aclsim.errors import KernelDeadlockError, SyncError
from aclsim.isa import Access, Instr, Op, Pipe, Space, pipe_barrier, set_flag, wait_flag
from aclsim.sim import SimReport, simulate

TINY = get_chip("tiny")  # 1 GHz, gm latency 200, MTE2/MTE3 32 B/cycle, HBM 100 B/cycle, flag 4


def UB(o: int, n: int) -> Access:
    return Access(Space.UB, o, n)


def GM(o: int, n: int) -> Access:
    return Access(Space.GM, o, n)


def copy_in(off: int, n: int = 512) -> Instr:
    return Instr(Pipe.MTE2, "data_copy", reads=(GM(off, n),), writes=(UB(0, n),))


def add(n: int = 512) -> Instr:
    return Instr(Pipe.V, "add", reads=(UB(0, n),), writes=(UB(n, n),))


def copy_out(off: int, n: int = 512) -> Instr:
    return Instr(Pipe.MTE3, "data_copy", reads=(UB(n, n),), writes=(GM(off, n),))


def serial_tile(i: int) -> list[Instr]:
    return [copy_in(i * 512), set_flag(Pipe.MTE2, Pipe.V, 0), wait_flag(Pipe.MTE2, Pipe.V, 0), add(),
            set_flag(Pipe.V, Pipe.MTE3, 0), wait_flag(Pipe.V, Pipe.MTE3, 0), copy_out(8192 + i * 512),
            set_flag(Pipe.MTE3, Pipe.MTE2, 0), wait_flag(Pipe.MTE3, Pipe.MTE2, 0)]


def test_costs_of_single_instructions() -> None:
    assert simulate(TINY, [[add(512)]]).total_cycles == 8 + 2  # issue + 2 repeats of 256 B
    assert simulate(TINY, [[copy_in(0, 512)]]).total_cycles == 200 + 512 / 32
    mmad = Instr(Pipe.M, "mmad", cost={"m": 32, "n": 32, "k": 32})
    assert simulate(TINY, [[mmad]]).total_cycles == 8 + 8  # 2*2*2 fractals
    to_l0b = Instr(Pipe.MTE1, "load_data", reads=(Access(Space.L1, 0, 1024),),
                   writes=(Access(Space.L0B, 0, 1024),))
    assert simulate(TINY, [[to_l0b]]).total_cycles == 20 + 1024 / 128
    assert simulate(TINY, [[Instr(Pipe.S, "scalar", cost={"ops": 3})]]).total_cycles == 3
    assert simulate(TINY, [[Instr(Pipe.V, "x", cost={"cycles": 77})]]).total_cycles == 77


def test_serial_pipeline_exact_cycles() -> None:
    # tile 0: MTE2 0-216, V waits to 220, add 220-230, MTE3 waits to 234, copy 234-450,
    # MTE2 waits to 454; tile 1 repeats from 454: ends at 454 + 454 = 908.
    report = simulate(TINY, [serial_tile(0) + serial_tile(1)])
    assert report.total_cycles == 908
    busy = report.pipe_busy()
    assert busy[Pipe.MTE2] == busy[Pipe.MTE3] == 2 * 216 and busy[Pipe.V] == 20
    tl = report.timelines[0]
    assert tl.start[3] == 220 and tl.end[6] == 450 and len(tl.flows) == 6
    assert report.bottleneck in (Pipe.MTE2, Pipe.MTE3)
    assert report.flag_stall()[Pipe.V] == 220 + (674 - 230)


def test_independent_pipes_overlap() -> None:
    # copy-in of the next tile does not wait for the add of this one
    stream = [copy_in(0), set_flag(Pipe.MTE2, Pipe.V, 0), copy_in(512), set_flag(Pipe.MTE2, Pipe.V, 1),
              wait_flag(Pipe.MTE2, Pipe.V, 0), add(), wait_flag(Pipe.MTE2, Pipe.V, 1), add()]
    report = simulate(TINY, [stream])
    # MTE2 moves 512 B in 16 cycles per copy, the second while the first one's latency runs:
    # data in at 216 and 232; V: 220-230, 236-246
    assert report.total_cycles == 246
    tl = report.timelines[0]
    assert (tl.start[2], tl.end[0], tl.end[2]) == (16, 216, 232)
    assert report.pipe_busy()[Pipe.MTE2] == 232  # the union of the two copies' times


def test_wait_before_set_in_program_order_is_fine_across_pipes() -> None:
    stream = [wait_flag(Pipe.MTE2, Pipe.V, 0), add(), copy_in(0), set_flag(Pipe.MTE2, Pipe.V, 0)]
    assert simulate(TINY, [stream]).total_cycles == 216 + 4 + 10


def test_scalar_wait_blocks_issue_and_deadlocks_if_set_comes_later() -> None:
    stream = [wait_flag(Pipe.MTE2, Pipe.S, 0), copy_in(0), set_flag(Pipe.MTE2, Pipe.S, 0)]
    with pytest.raises(KernelDeadlockError, match=r"issue is held|S: wait_flag") as exc:
        simulate(TINY, [stream])
    assert exc.value.code == 507014


def test_wait_without_set_is_a_deadlock_naming_pipe_flag_and_line() -> None:
    stream = [add(), Instr(Pipe.V, Op.WAIT_FLAG.value, src=Pipe.MTE2, dst=Pipe.V, event_id=3, line=42,
                           file="k.py")]
    with pytest.raises(KernelDeadlockError, match=r"V: wait_flag\(MTE2_V, 3\) at k.py:42"):
        simulate(TINY, [stream])


def test_unmatched_and_lost_set_flags() -> None:
    with pytest.raises(SyncError, match="never waited") as exc:
        simulate(TINY, [[copy_in(0), set_flag(Pipe.MTE2, Pipe.V, 0)]])
    assert exc.value.code == 507015
    # two sets fire before the (late) first wait: the second signal is lost
    lost = [copy_in(0), set_flag(Pipe.MTE2, Pipe.V, 0), set_flag(Pipe.MTE2, Pipe.V, 0),
            Instr(Pipe.V, "slow", cost={"cycles": 1000}), wait_flag(Pipe.MTE2, Pipe.V, 0),
            wait_flag(Pipe.MTE2, Pipe.V, 0)]
    with pytest.raises(SyncError, match="lost signal"):
        simulate(TINY, [lost])


def test_barrier_all_drains_every_pipe() -> None:
    stream = [copy_in(0), pipe_barrier(Pipe.ALL), add()]
    assert simulate(TINY, [stream]).total_cycles == 216 + 10
    assert simulate(TINY, [[copy_in(0), pipe_barrier(Pipe.V), add()]]).total_cycles == 216  # V barrier only


def test_waves_and_copies_at_the_same_moment_share_hbm() -> None:
    # 8 blocks on 4 cores -> 2 waves; each block copies 3200 B. The 4 copies of a wave move
    # data at the same moment: 4 x 32 B/cycle > HBM's 100, so each gets 25 B/cycle.
    blocks = [[copy_in(b * 3200, 3200)] for b in range(8)]
    report = simulate(TINY, blocks)
    assert report.waves == 2
    assert report.total_cycles == 2 * (200 + 3200 / 25)
    assert report.timelines[4].begin == 328 and report.timelines[4].core == 0
    assert max(d for _, d in report.hbm_steps) == 100
    # two cores copying at different moments each get their path rate
    late = [Instr(Pipe.V, "slow", cost={"cycles": 1000}), set_flag(Pipe.V, Pipe.MTE2, 0),
            wait_flag(Pipe.V, Pipe.MTE2, 0), copy_in(0, 3200)]
    apart = simulate(TINY, [[copy_in(0, 3200)], late, late[:1], late[:1]])
    assert apart.timelines[0].finish == 300 and apart.timelines[1].finish == 1004 + 300
    assert apart.bandwidth_stall()[Pipe.MTE2] == 0
    assert report.gm_bytes == 8 * 3200
    assert report.bandwidth_fraction <= 1.0


def test_hbm_share_binds_when_the_cores_ask_for_more() -> None:
    # 4 cores x 32 B/cycle = 128 > 100 B/cycle of HBM: while moving data, each gets 25 B/cycle;
    # a copy's latency overlaps the next copy's bytes, so HBM idles only during the last one
    blocks = [[copy_in(b * 10**6 + i * 65536, 65536) for i in range(8)] for b in range(4)]
    report = simulate(TINY, blocks)
    per_copy = report.timelines[0].end[0] - report.timelines[0].start[0]
    assert per_copy == pytest.approx(200 + 65536 / 25, rel=1e-12)
    assert report.timelines[0].start[1] == pytest.approx(65536 / 25, rel=1e-12)
    moving = 8 * 65536 / 25
    assert report.bandwidth_fraction == pytest.approx(moving / (moving + 200), rel=1e-12)
    assert max(d for _, d in report.hbm_steps) == pytest.approx(100)
    # the cycles lost to sharing: each copy's time on its pipe beyond its path-rate time
    lost = report.bandwidth_stall()[Pipe.MTE2]
    assert lost == pytest.approx(4 * 8 * (65536 / 25 - 65536 / 32), rel=1e-9)
    assert simulate(TINY, blocks[:1]).bandwidth_stall()[Pipe.MTE2] == 0  # one core: no sharing


def _moved(report: SimReport) -> float:
    """The bytes under the report's HBM draw curve."""
    steps = [*report.hbm_steps, (report.total_cycles, 0.0)]
    return sum(d * (t1 - t0) for (t0, d), (t1, _) in zip(steps, steps[1:], strict=False))


def test_copy_in_and_copy_out_pipes_share_hbm_too() -> None:
    chip = get_chip("910B").with_changes(l2_bytes=0)  # no L2: every byte goes to device memory
    hbm = chip.dram_bandwidth / chip.clock_hz
    blocks = [[x for i in range(8) for x in (copy_in(b * 2**24 + i * 32768, 32768),
                                             copy_out(b * 2**24 + 2**20 + i * 32768, 32768))]
              for b in range(chip.cores)]  # line-aligned: no two reads share an L2 line
    report = simulate(chip, blocks)
    assert 0.9 <= report.bandwidth_fraction <= 1.0
    assert max(d for _, d in report.hbm_steps) <= hbm * (1 + 1e-9)
    assert _moved(report) == pytest.approx(report.gm_bytes, rel=1e-9) == report.hbm_bytes
    # with the L2 the writes stay in it: device memory carries the reads only, and is done sooner
    cached = simulate(get_chip("910B"), blocks)
    assert cached.hbm_bytes == pytest.approx(cached.gm_bytes / 2, rel=1e-9)
    assert cached.total_cycles < report.total_cycles
    assert cached.bandwidth_fraction <= 1.0 < cached.achieved_bandwidth / chip.dram_bandwidth


def test_memory_bound_kernel_reaches_but_never_exceeds_hbm() -> None:
    chip = get_chip("910B")
    blocks = [[copy_in(b * (1 << 20) + i * 65536, 65536) for i in range(16)] for b in range(chip.cores)]
    report = simulate(chip, blocks)
    assert 0.9 <= report.bandwidth_fraction <= 1.0
    assert max(d for _, d in report.hbm_steps) <= chip.dram_bandwidth / chip.clock_hz * (1 + 1e-9)


def test_blocks_of_different_shapes_share_hbm_moment_by_moment() -> None:
    # 4 cores, blocks of 1..4 copies: as the short blocks finish, the others speed up
    blocks = [[copy_in(b * 10**6 + i * 6400, 6400) for i in range(b + 1)] for b in range(4)]
    report = simulate(TINY, blocks)
    assert max(d for _, d in report.hbm_steps) == pytest.approx(100)
    assert _moved(report) == pytest.approx(report.gm_bytes, rel=1e-9)
    # first copy of each: 4 share 100 B/cycle -> 25 each: 200 + 256 cycles
    assert [tl.end[0] for tl in report.timelines] == pytest.approx([456.0] * 4)
    # the longest block's last copy runs alone at its path rate: 200 + 6400 / 32
    last = report.timelines[3]
    assert last.end[3] - last.start[3] == pytest.approx(400.0)
    assert report.bandwidth_stall()[Pipe.MTE2] > 0


def test_sync_all_aligns_blocks() -> None:
    sync = Instr(Pipe.ALL, Op.SYNC_ALL.value)
    blocks = [[copy_in(0, 32 * 100), sync, add()], [add(), sync, add()]]
    report = simulate(TINY, blocks)
    first = 200 + 3200 / 32  # block 0 is the only GM mover: its copy gates the barrier
    assert report.total_cycles == first + 10
    # a flag may straddle a sync_all, and timelines keep every instruction, sync_all included
    straddle = [copy_in(0), set_flag(Pipe.MTE2, Pipe.V, 0), sync, wait_flag(Pipe.MTE2, Pipe.V, 0), add()]
    report = simulate(TINY, [straddle, [add(), sync, add()]])
    tl = report.timelines[0]
    assert len(tl.start) == len(straddle) and tl.start[2] == 216 and tl.end[4] == 216 + 4 + 10
    with pytest.raises(KernelDeadlockError, match="different numbers of sync_all"):
        simulate(TINY, [[sync], []])
    with pytest.raises(KernelDeadlockError, match="later waves"):
        simulate(TINY, [[sync]] * 5)


def test_report_figures() -> None:
    report = simulate(TINY, [serial_tile(0)] * 2)
    util = report.utilization()
    assert 0 < util[Pipe.MTE2] <= 1 and util[Pipe.M] == 0
    assert report.instruction_counts()[Pipe.V] == 2 * 3  # wait, add, set on V per tile
    assert report.seconds == report.total_cycles / TINY.clock_hz
    assert simulate(TINY, []).total_cycles == 0
