"""Device memory (and L2) shared by the global-memory transfers of a wave, moment by moment.

A fluid model: see :class:`Hbm`.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from typing import Any, Protocol


class Transferring(Protocol):
    """What the HBM model needs of a scheduler: its block count, resuming it, ending a transfer."""

    mult: int
    hbm: Hbm | None

    def run(self) -> None: ...

    def finish(self, i: int, t: float) -> None: ...


class Hbm:
    """Global-memory transfers sharing device memory and L2 at every moment (a fluid model).

    A transfer moves its bytes from the moment it is added; its latency is the scheduler's
    business (paid after the bytes leave, so a pipe's next copy overlaps it).  Each transfer
    draws ``rate * hbm`` from device memory (``hbm``: the bytes that reach device memory per
    byte moved, L2 misses and write-backs) and ``rate * l2`` from L2 (``l2``: 1 unless it
    bypasses L2).  At each moment the rates are max-min fair: every transfer's rate rises
    evenly until it reaches its path rate or a resource it uses is exhausted (progressive
    filling).  So the cores together never draw more than device memory's bandwidth, a core
    copying alone gets its path rate, and L2 hits do not count against device memory.
    The rates change only when a transfer starts or ends; ``steps`` records the draw on
    device memory, ``(cycle, bytes per cycle)``, from each such moment on.
    """

    def __init__(self, bandwidth: float, t0: float, l2_bandwidth: float = 0.0) -> None:
        self.bandwidth, self.l2_bandwidth, self.now = bandwidth, l2_bandwidth, t0
        self.arrivals: list[tuple[float, int, list[Any]]] = []  # (data start, seq, transfer)
        # [bytes left, path rate, multiplicity, core, index, hbm per byte, l2 per byte]
        self.active: list[list[Any]] = []
        self.seq = 0
        self.steps: list[tuple[float, float]] = []

    def add(self, core: Transferring, i: int, start: float, nbytes: float, rate: float,
            hbm: float = 1.0, l2: float = 0.0) -> None:
        self.seq += 1
        transfer = [nbytes, rate, core.mult, core, i, hbm, l2 if self.l2_bandwidth else 0.0]
        heapq.heappush(self.arrivals, (start, self.seq, transfer))

    def _rates(self) -> list[float]:
        active = self.active
        rates = [0.0] * len(active)
        left = [self.bandwidth, self.l2_bandwidth]
        rising = list(range(len(active)))
        level = 0.0
        while rising:
            step = min(active[j][1] for j in rising) - level
            use = [0.0, 0.0]
            for j in rising:
                a = active[j]
                use[0] += a[2] * a[5]
                use[1] += a[2] * a[6]
            for r in (0, 1):
                if use[r] > 0 and left[r] / use[r] < step:
                    step = left[r] / use[r]
            level += step
            full = [use[r] > 0 and left[r] - step * use[r] <= 1e-12 * max(left[r], 1.0) for r in (0, 1)]
            for r in (0, 1):
                left[r] -= step * use[r]
            keep = []
            for j in rising:
                a = active[j]
                if a[1] <= level * (1 + 1e-12) or (full[0] and a[5] > 0) or (full[1] and a[6] > 0):
                    rates[j] = level
                else:
                    keep.append(j)
            if len(keep) == len(rising):  # rounding left nothing to freeze: they share the level
                for j in keep:
                    rates[j] = level
                break
            rising = keep
        return rates

    def run(self, cores: Sequence[Transferring]) -> None:
        for c in cores:
            c.hbm = self
            c.run()
        active, arrivals, steps = self.active, self.arrivals, self.steps
        rates: list[float] = []
        while active or arrivals:
            tc = math.inf
            for a, r in zip(active, rates, strict=True):
                t = self.now + a[0] / r
                if t < tc:
                    tc = t
            ta = arrivals[0][0] if arrivals else math.inf
            t = ta if ta <= tc else tc
            dt = t - self.now
            for a, r in zip(active, rates, strict=True):
                a[0] -= r * dt
            self.now = t
            eps = 1e-9 * max(t, 1.0)
            ended = [a for a, r in zip(active, rates, strict=True) if a[0] <= eps * r]
            if ended:
                self.active = active = [a for a, r in zip(active, rates, strict=True) if a[0] > eps * r]
            while arrivals and arrivals[0][0] <= t:
                a = heapq.heappop(arrivals)[2]
                if a[0] > 0:
                    active.append(a)
                else:
                    ended.append(a)
            rates = self._rates()
            draw = sum(r * a[2] * a[5] for a, r in zip(active, rates, strict=True))
            if not steps or steps[-1][1] != draw:
                steps.append((t, draw))
            if ended:
                touched = []
                for a in ended:
                    a[3].finish(a[4], t)
                    if a[3] not in touched:
                        touched.append(a[3])
                for c in touched:
                    c.run()  # new transfers join the arrivals, not the moving set
