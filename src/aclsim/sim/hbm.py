"""HBM shared by the global-memory transfers of a wave, moment by moment (a fluid model)."""

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
    """Global-memory transfers sharing the HBM bandwidth at every moment (a fluid model).

    A transfer waits its latency, then moves its bytes.  At each moment the HBM bandwidth
    is split evenly among the transfers moving data, none above its path rate, and what
    the capped ones leave goes to the others (max-min fairness).  So the cores together
    never draw more than the HBM bandwidth, and a core copying alone gets its path rate.
    The rates change only when a transfer starts or ends moving data; ``steps`` records
    the chip's draw, ``(cycle, bytes per cycle)``, from each such moment on.
    """

    def __init__(self, bandwidth: float, latency: float, t0: float) -> None:
        self.bandwidth, self.latency, self.now = bandwidth, latency, t0
        self.arrivals: list[tuple[float, int, list[Any]]] = []  # (data start, seq, transfer)
        self.active: list[list[Any]] = []  # [bytes left, path rate, multiplicity, core, index]
        self.seq = 0
        self.steps: list[tuple[float, float]] = []

    def add(self, core: Transferring, i: int, start: float, lat: float, nbytes: float, rate: float) -> None:
        self.seq += 1
        transfer = [nbytes, rate, core.mult, core, i]
        heapq.heappush(self.arrivals, (start + lat * self.latency, self.seq, transfer))

    def _rates(self) -> list[float]:
        active = self.active
        left, count = self.bandwidth, sum(a[2] for a in active)
        rates = [0.0] * len(active)
        for j in sorted(range(len(active)), key=lambda j: active[j][1]):
            share = left / count
            cap, mult = active[j][1], active[j][2]
            r = rates[j] = cap if cap < share else share
            left -= r * mult
            count -= mult
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
            draw = sum(r * a[2] for a, r in zip(active, rates, strict=True))
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
