"""Properties of the moment-by-moment HBM sharing, on random launches."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aclsim.arch import get_chip
from aclsim.isa import Access, Instr, Pipe, Space, set_flag, wait_flag
from aclsim.sim import SimReport, simulate

TINY = get_chip("tiny")  # 4 cores, MTE2/MTE3 32 B/cycle, HBM 100 B/cycle, GM latency 200
HBM = TINY.dram_bandwidth / TINY.clock_hz


def _block(b: int, tiles: list[tuple[int, int, int]]) -> list[Instr]:
    """Per tile: copy in ``n_in`` bytes, compute ``work`` cycles, copy out ``n_out`` bytes, serially."""
    out: list[Instr] = []
    for t, (n_in, work, n_out) in enumerate(tiles):
        base = b * 10**7 + t * 10**5
        out += [Instr(Pipe.MTE2, "data_copy", reads=(Access(Space.GM, base, n_in),),
                      writes=(Access(Space.UB, 0, n_in),)),
                set_flag(Pipe.MTE2, Pipe.V, 0), wait_flag(Pipe.MTE2, Pipe.V, 0),
                Instr(Pipe.V, "work", reads=(Access(Space.UB, 0, n_in),),
                      writes=(Access(Space.UB, 65536, n_out),), cost={"cycles": work}),
                set_flag(Pipe.V, Pipe.MTE3, 0), wait_flag(Pipe.V, Pipe.MTE3, 0),
                Instr(Pipe.MTE3, "data_copy", reads=(Access(Space.UB, 65536, n_out),),
                      writes=(Access(Space.GM, base + 5 * 10**6, n_out),)),
                set_flag(Pipe.MTE3, Pipe.MTE2, 0), wait_flag(Pipe.MTE3, Pipe.MTE2, 0)]
    return out


def _moved(report: SimReport) -> float:
    steps = [*report.hbm_steps, (report.total_cycles, 0.0)]
    return sum(d * (t1 - t0) for (t0, d), (t1, _) in zip(steps, steps[1:], strict=False))


tile = st.tuples(st.integers(0, 8192), st.integers(1, 3000), st.integers(0, 8192))
launch = st.lists(st.lists(tile, min_size=1, max_size=4), min_size=1, max_size=7)


@settings(max_examples=60, deadline=None)
@given(launch)
def test_never_above_hbm_and_every_byte_accounted_for(blocks: list[list[tuple[int, int, int]]]) -> None:
    report = simulate(TINY, [_block(b, tiles) for b, tiles in enumerate(blocks)])
    assert max((d for _, d in report.hbm_steps), default=0.0) <= HBM * (1 + 1e-9)
    assert _moved(report) == pytest.approx(report.gm_bytes, rel=1e-6, abs=1e-6)
    for tl in report.timelines:
        for i, ins in enumerate(tl.instrs):
            if ins.op == "data_copy":  # never faster than its latency plus its path rate
                nbytes = ins.reads[0].length
                assert tl.end[i] - tl.start[i] >= TINY.gm_latency_cycles + nbytes / 32 - 1e-6
    if len(blocks) == 1:  # alone on the chip: no stall from sharing
        assert sum(report.bandwidth_stall().values()) == pytest.approx(0, abs=1e-6)


@settings(max_examples=30, deadline=None)
@given(launch)
def test_identical_blocks_share_like_one_class(blocks: list[list[tuple[int, int, int]]]) -> None:
    # k copies of one block, scheduled as one class, equal the first block's own schedule
    # repeated, and their transfers are never faster than when fewer blocks share HBM
    tiles = blocks[0]
    k = min(len(blocks), TINY.cores)
    many = simulate(TINY, [_block(b, tiles) for b in range(k)])
    one = simulate(TINY, [_block(0, tiles)])
    assert all(tl.end == many.timelines[0].end for tl in many.timelines)
    assert many.total_cycles >= one.total_cycles - 1e-6
