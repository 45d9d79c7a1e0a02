"""Allocated streams hold in the core model under randomized pipe latencies."""

from __future__ import annotations

import random

from aclsim.compiler import auto_sync, strip_syncs
from aclsim.compiler.coretest import cross_pipe_dependences, stress_in_core_model
from aclsim.compiler.gen import random_stream
from aclsim.isa import Access, Instr, Pipe, Space


def test_dependences_found_by_overlap() -> None:
    w = Instr(Pipe.MTE2, "ld", writes=(Access(Space.UB, 0, 256),))
    r = Instr(Pipe.V, "add", reads=(Access(Space.UB, 128, 256),), writes=(Access(Space.UB, 512, 64),))
    o = Instr(Pipe.MTE3, "st", reads=(Access(Space.UB, 512, 64),), writes=(Access(Space.GM, 0, 64),))
    again = Instr(Pipe.MTE2, "ld", writes=(Access(Space.UB, 128, 64),))  # same pipe as w: no pair
    deps = cross_pipe_dependences([w, r, o, again])
    assert deps == [("RAW", 0, 1), ("RAW", 1, 2), ("WAR", 1, 3)]


def test_random_streams_allocated_at_small_pools_hold_under_random_latencies() -> None:
    broken = 0
    for seed in range(40):
        work = strip_syncs(random_stream(random.Random(seed), 30, buffers=3))
        for pool in (2, 8):
            synced = auto_sync(work, "tiny", pool=pool)
            assert stress_in_core_model(synced, "tiny", trials=4, seed=seed) == [], (seed, pool)
        if cross_pipe_dependences(work):
            broken += bool(stress_in_core_model(work, "tiny", trials=4, seed=seed))
    assert broken > 10  # without the syncs, random latencies do break the dependences
