"""The L2 cache model, copies in flight, and the device-memory / L2 sharing of the core model."""

from __future__ import annotations

import pytest

from aclsim.arch import get_chip
from aclsim.isa import Access, Cost, Instr, Pipe, Space
from aclsim.sim import simulate
from aclsim.sim.hbm import Hbm
from aclsim.sim.l2 import L2Cache, classify

A2 = get_chip("910B1")
TINY = get_chip("tiny")


def test_lru_hits_misses_and_write_backs() -> None:
    c = L2Cache(capacity=8 * 512, line=512)
    assert c.access(0, 2048, write=True) == (0, 0, 0)  # write-allocate: nothing reaches memory
    assert c.access(0, 1024, write=False) == (1024, 0, 0)  # two resident lines hit
    # 8 new lines in a cache of 8: the 4 dirty lines go, oldest first, and are written back
    assert c.access(1 << 20, 4096, write=False) == (0, 4096, 2048)
    assert c.resident == 8
    assert c.access(1 << 20, 4096, write=False) == (4096, 0, 0)  # now resident: hits, no eviction


def test_lru_keeps_what_was_touched_again() -> None:
    c = L2Cache(capacity=4 * 512, line=512)
    c.access(0, 1024, write=True)  # lines 0, 1 dirty
    c.access(4096, 1024, write=False)  # lines 8, 9
    c.access(0, 512, write=False)  # line 0 touched again: line 1 is now the oldest
    hit, direct, back = c.access(8192, 512, write=False)  # one new line evicts line 1 (dirty)
    assert (hit, direct, back) == (0, 512, 512)
    assert c.access(0, 512, write=False)[0] == 512  # line 0 survived


def test_bypass_neither_allocates_nor_keeps_stale_lines() -> None:
    c = L2Cache(capacity=16 * 512, line=512)
    assert c.access(0, 2048, write=False, bypass=True) == (0, 2048, 0)
    assert c.resident == 0
    c.access(0, 1024, write=False)
    assert c.access(0, 2048, write=False, bypass=True) == (1024, 1024, 0)  # resident lines serve it
    assert c.access(0, 1024, write=True, bypass=True) == (0, 1024, 0)  # written to memory ...
    assert c.resident == 0  # ... and the stale lines dropped


def _copy_in(gm: int, nbytes: int, ub: int = 0, cost: Cost | None = None) -> Instr:
    return Instr(Pipe.MTE2, "data_copy", (Access(Space.GM, gm, nbytes),), (Access(Space.UB, ub, nbytes),),
                 cost=cost or Cost(bytes=nbytes))


def _copy_out(gm: int, nbytes: int) -> Instr:
    return Instr(Pipe.MTE3, "data_copy", (Access(Space.UB, 0, nbytes),), (Access(Space.GM, gm, nbytes),),
                 cost=Cost(bytes=nbytes))


def test_classify_interleaves_blocks_by_progress() -> None:
    # block 1 re-reads what block 0 read first: at the same progress, block 0 goes first
    c = L2Cache(capacity=1 << 20, line=512)
    t0 = [_copy_in(0, 4096), _copy_in(8192, 4096)]
    t1 = [_copy_in(0, 4096), _copy_in(8192, 4096)]
    (hbm0, slow0), (hbm1, slow1) = classify(c, [t0, t1], [[4096, 4096], [4096, 4096]])
    assert hbm0 == [4096, 4096] and slow0 == [True, True]
    assert hbm1 == [0, 0] and slow1 == [False, False]


def test_one_core_copies_overlap_their_latency() -> None:
    """Two 8 KiB loads back to back on one core of the 910B1: the second one's bytes move while
    the first one's latency runs; MTE2 is busy from the first start to the last byte landing."""
    x, y = _copy_in(0, 8192), _copy_in(1 << 20, 8192, ub=8192)
    tl = simulate(A2, [[x, y]]).timelines[0]
    per_copy = A2.mte2_copy_cycles + 8192 / A2.mte2_bytes_per_cycle
    assert tl.start[1] == pytest.approx(per_copy)
    assert tl.end[1] == pytest.approx(2 * per_copy + A2.gm_latency_cycles)
    assert tl.busy[Pipe.MTE2] == pytest.approx(2 * per_copy + A2.gm_latency_cycles)


def test_l2_hits_are_faster_and_draw_no_device_memory() -> None:
    first = simulate(A2, [[_copy_in(0, 65536)]])
    again = simulate(A2, [[_copy_in(0, 65536), _copy_in(0, 65536, ub=65536)]])
    tl = again.timelines[0]
    lat = [tl.end[i] - tl.start[i] for i in range(2)]
    assert lat[0] == pytest.approx(first.timelines[0].end[0])
    assert lat[1] < lat[0]  # L2 latency, not device memory's
    assert tl.end[1] - tl.start[1] == pytest.approx(A2.mte2_copy_cycles + 65536 / A2.mte2_bytes_per_cycle
                                                    + A2.l2_latency_cycles)
    # a write lands in L2
    out = simulate(A2, [[_copy_out(0, 8192)]]).timelines[0]
    assert out.end[0] == pytest.approx(A2.mte3_copy_cycles + 8192 / A2.mte3_bytes_per_cycle
                                       + A2.l2_latency_cycles)


def test_bypass_hint_reaches_device_memory() -> None:
    plain = simulate(A2, [[_copy_in(0, 65536), _copy_in(0, 65536, ub=65536)]]).timelines[0]
    bypass = Cost(bytes=65536, cache_mode="disable")
    skip = simulate(A2, [[_copy_in(0, 65536, cost=bypass), _copy_in(0, 65536, ub=65536)]]).timelines[0]
    assert skip.end[1] - skip.start[1] > plain.end[1] - plain.start[1]  # nothing was kept to hit


def test_water_filling_over_device_memory_and_l2() -> None:
    class Core:
        def __init__(self, mult: int) -> None:
            self.mult, self.hbm, self.ends = mult, None, {}

        def run(self) -> None:
            pass

        def finish(self, i: int, t: float) -> None:
            self.ends[i] = t

    # device memory 100 B/cycle, L2 unlimited: a transfer drawing 2 bytes of memory per byte
    # moved (a miss plus a write-back) gets half the rate of one drawing 1
    h = Hbm(100.0, 0.0)
    a, b = Core(1), Core(1)
    h.add(a, 0, 0.0, 1000.0, 1000.0, hbm=2.0)
    h.add(b, 0, 0.0, 1000.0, 1000.0, hbm=1.0)
    h.run([a, b])
    assert a.ends[0] == pytest.approx(1000 / (100 / 3))  # both at 33.3 B/cycle: 2r + r = 100
    # hits only: device memory does not limit them, L2's bandwidth does
    h = Hbm(100.0, 0.0, l2_bandwidth=400.0)
    cores = [Core(2), Core(2)]
    for c in cores:
        h.add(c, 0, 0.0, 1000.0, 1000.0, hbm=0.0, l2=1.0)
    h.run(cores)
    assert cores[0].ends[0] == pytest.approx(1000 / 100)  # 4 blocks share 400 B/cycle of L2


def test_tiny_chip_has_no_l2_model() -> None:
    st = simulate(TINY, [[_copy_in(0, 4096), _copy_in(0, 4096, ub=4096)]]).timelines[0]
    assert st.end[1] - st.start[1] == pytest.approx(TINY.gm_latency_cycles + 4096 / TINY.mte2_bytes_per_cycle)


def test_issue_takes_scalar_cycles_per_instruction() -> None:
    """The scalar unit spends ``scalar_issue_cycles`` of control code on each instruction it
    issues: a stream of cheap instructions is issue-bound, and the scalar pipe is busy that long."""
    ub = Access(Space.UB, 0, 256)
    out = Access(Space.UB, 65536, 256)
    adds = [Instr(Pipe.V, "adds", (ub,), (out,), cost=Cost(cycles=1)) for _ in range(10)]
    slow = get_chip("tiny").with_changes(scalar_issue_cycles=3.0)
    report = simulate(slow, [adds])
    tl = report.timelines[0]
    assert [tl.start[i] for i in range(10)] == [3.0 * i for i in range(10)]
    assert tl.busy[Pipe.S] == 30.0 and report.total_cycles == 28.0
    assert simulate(TINY, [adds]).total_cycles == 10.0  # no issue cost: back to back


def test_written_lines_leave_first_under_pressure() -> None:
    """With ``writes_first`` a written line enters at the LRU end: reads streaming through a
    full cache push written data out (written back) before older read data; without
    pressure written data stays."""
    lru, wf = L2Cache(8 * 512, 512), L2Cache(8 * 512, 512, writes_first=True)
    for c in (lru, wf):
        c.access(0, 2048, write=False)  # lines 0-3 read
        c.access(1 << 20, 1024, write=True)  # 2 lines written
    assert wf.resident == lru.resident == 6  # no pressure: the writes stay
    assert lru.access(2 << 20, 2048, write=False)[2] == 0  # LRU evicts the oldest: clean reads
    assert wf.access(2 << 20, 2048, write=False)[2] == 1024  # written lines leave first


def test_strided_reads_fetch_whole_lines_and_the_next_columns_hit() -> None:
    """Reading one 2-byte element per 8 KiB row touches one line per row: each missed line is
    fetched whole (512 B), and reading the next column then hits those lines."""
    rows, row_bytes = 64, 8192
    col = Cost(bytes=2 * rows, segments=rows, seg_bytes=2, seg_stride=row_bytes)
    first = Instr(Pipe.MTE2, "data_copy", (Access(Space.GM, 0, (rows - 1) * row_bytes + 2),),
                  (Access(Space.UB, 0, 2 * rows),), cost=col)
    second = Instr(Pipe.MTE2, "data_copy", (Access(Space.GM, 2, (rows - 1) * row_bytes + 2),),
                   (Access(Space.UB, 256, 2 * rows),), cost=col)
    c = L2Cache(A2.l2_bytes, A2.l2_line_bytes)
    ((drawn, slow),) = classify(c, [[first, second]], [[2 * rows, 2 * rows]])
    assert drawn == [rows * A2.l2_line_bytes, 0.0] and slow == [True, False]
    assert c.resident == rows  # only the touched lines, not the whole span
