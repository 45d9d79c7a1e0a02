"""The SyncTester idea on the core model: run a synchronized stream under randomized pipe
latencies and check that every cross-pipe dependence held in each run.

``verify_sync`` proves ordering from the happens-before relation; this module checks it
empirically in ``aclsim.sim``'s schedule with every duration scaled by a random factor, so
a sync that only works for the modeled timing shows up as a violation.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from aclsim.arch import ChipSpec, get_chip
from aclsim.isa import Instr, Space
from aclsim.sim import simulate


@dataclass(frozen=True, slots=True)
class Violation:
    """In one randomized run, ``second`` started before ``first`` (which it depends on) ended."""

    trial: int
    kind: str  # RAW, WAR, WAW
    first: int
    second: int
    first_end: float
    second_start: float

    def __str__(self) -> str:
        return (f"trial {self.trial}: {self.kind} dependence {self.first} -> {self.second} broken "
                f"(started at {self.second_start:.1f} before {self.first_end:.1f})")


def cross_pipe_dependences(stream: Sequence[Instr]) -> list[tuple[str, int, int]]:
    """Every (kind, earlier, later) pair of work instructions on different pipes whose accesses
    overlap with at least one write (the pairs a correct synchronization must order)."""
    out: list[tuple[str, int, int]] = []
    # per space: sorted starts and parallel entries (start, end, index, is_write); max length
    spaces: dict[Space, tuple[list[int], list[tuple[int, int, int, bool]], list[int]]] = {}
    for j, ins in enumerate(stream):
        if ins.is_sync:
            continue
        accesses = [(a, True) for a in ins.writes] + [(a, False) for a in ins.reads]
        for acc, is_write in accesses:
            if acc.length <= 0:
                continue
            starts, entries, maxlen = spaces.setdefault(acc.space, ([], [], [0]))
            lo, hi = acc.offset, acc.end
            k = bisect.bisect_left(starts, hi)
            floor = lo - maxlen[0]
            while k > 0 and starts[k - 1] > floor:
                k -= 1
                s, e, i, w = entries[k]
                if e > lo and s < hi and (w or is_write) and stream[i].pipe is not ins.pipe and i != j:
                    kind = "WAW" if w and is_write else "RAW" if w else "WAR"
                    out.append((kind, i, j))
        for acc, is_write in accesses:
            if acc.length <= 0:
                continue
            starts, entries, maxlen = spaces[acc.space]
            k = bisect.bisect_right(starts, acc.offset)
            starts.insert(k, acc.offset)
            entries.insert(k, (acc.offset, acc.end, j, is_write))
            maxlen[0] = max(maxlen[0], acc.length)
    return sorted(set(out), key=lambda d: (d[2], d[1]))


def stress_in_core_model(stream: Sequence[Instr], chip: ChipSpec | str = "910B", *, trials: int = 20,
           jitter: tuple[float, float] = (0.1, 10.0), seed: int = 0) -> list[Violation]:
    """Run ``stream`` (one core, physical event ids) in the core model ``trials`` times with
    randomized latencies; return the dependences that were broken (empty: the syncs held).

    >>> from aclsim.isa import Access, Instr, Pipe, Space, set_flag, wait_flag
    >>> w = Instr(Pipe.MTE2, "copy_in", writes=(Access(Space.UB, 0, 256),))
    >>> r = Instr(Pipe.V, "add", reads=(Access(Space.UB, 0, 256),))
    >>> stress_in_core_model([w, set_flag(Pipe.MTE2, Pipe.V, 0), wait_flag(Pipe.MTE2, Pipe.V, 0), r])
    []
    >>> len(stress_in_core_model([w, r], trials=3)) > 0
    True
    """
    spec = get_chip(chip)
    deps = cross_pipe_dependences(stream)
    out: list[Violation] = []
    for trial in range(trials):
        tl = simulate(spec, [stream], jitter=jitter, seed=seed + trial).timelines[0]
        for kind, a, b in deps:
            if tl.start[b] < tl.end[a]:
                out.append(Violation(trial, kind, a, b, tl.end[a], tl.start[b]))
    return out
