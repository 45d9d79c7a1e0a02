"""What a launch cost: ``SimReport`` (per block ``CoreTimeline``), and human-readable views of it:
a summary dict, a rich table, a terminal or PNG timeline."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from aclsim.arch import ChipSpec
from aclsim.isa import EXEC_PIPES, Instr, Pipe

Steps = Callable[[], list[tuple[float, float]]]  # a wave's global-memory draw, computed on demand


@dataclass
class CoreTimeline:
    """The schedule of one block: for instruction ``i``, ``start[i]`` and ``end[i]`` in cycles."""

    block: int
    core: int
    wave: int
    instrs: Sequence[Instr]
    start: list[float]
    end: list[float]
    flows: list[tuple[int, int]]  # (set_flag index, wait_flag index)
    busy: list[float]  # per pipe (index = Pipe value)
    flag_stall: list[float]  # per pipe: cycles spent in wait_flag
    begin: float = 0.0
    finish: float = 0.0
    gm_read: int = 0
    gm_write: int = 0
    bw_stall: list[float] = field(default_factory=lambda: [0.0] * len(EXEC_PIPES))  # HBM sharing
    kind: str = ""  # in a mixed AIC + AIV launch, the core's type ("AIC" / "AIV"); else ""


@dataclass
class SimReport:
    """What one launch cost: cycles, time, per-core and per-pipe figures, the schedule."""

    chip: ChipSpec
    block_dim: int
    waves: int
    total_cycles: float
    timelines: list[CoreTimeline] = field(repr=False)
    instructions: int = 0
    _steps: list[Steps] = field(default_factory=list, repr=False)

    @property
    def hbm_steps(self) -> list[tuple[float, float]]:
        """The chip's global-memory draw over time: ``(cycle, bytes per cycle)`` from each
        change on (wave after wave)."""
        return [step for wave in self._steps for step in wave()]

    @property
    def seconds(self) -> float:
        """The cores' span: from the first block's start to the last block's end.  Blocks start
        ``task_per_block_s`` apart (dispatched one after another), so the span includes the
        later blocks' dispatch; msprof's ``aiv_time``/``aicore_time`` is the longest block's
        own time (``finish - begin`` of its timeline)."""
        return self.total_cycles / self.chip.clock_hz

    @property
    def task_cycles(self) -> float:
        """msprof's Task Duration in cycles: the cores' span (which holds the blocks' dispatch,
        ``task_per_block_s`` apart) plus the launch's fixed overhead ``task_head_s`` (scheduling
        the task, the first block's dispatch, completion)."""
        if not self.block_dim:
            return self.total_cycles
        return self.total_cycles + self.chip.task_head_s * self.chip.clock_hz

    @property
    def task_seconds(self) -> float:
        """Task Duration in seconds: what a launch adds to its stream's clock."""
        return self.task_cycles / self.chip.clock_hz

    @property
    def microseconds(self) -> float:
        return self.seconds * 1e6

    def pipe_busy(self) -> dict[Pipe, float]:
        """Busy cycles per pipe, summed over blocks."""
        return {p: sum(t.busy[p] for t in self.timelines) for p in EXEC_PIPES}

    def utilization(self) -> dict[Pipe, float]:
        """Per pipe: busy cycles / (cycles each block was resident), averaged over blocks."""
        resident = sum(max(t.finish - t.begin, 0.0) for t in self.timelines) or 1.0
        return {p: b / resident for p, b in self.pipe_busy().items()}

    @property
    def bottleneck(self) -> Pipe:
        busy = self.pipe_busy()
        return max(busy, key=lambda p: busy[p])

    def flag_stall(self) -> dict[Pipe, float]:
        """Cycles each pipe spent in ``wait_flag``, summed over blocks."""
        return {p: sum(t.flag_stall[p] for t in self.timelines) for p in EXEC_PIPES}

    def bandwidth_stall(self) -> dict[Pipe, float]:
        """Cycles global-memory transfers took beyond their path rate because the cores share
        the HBM bandwidth (part of the busy cycles), summed over blocks."""
        return {p: sum(t.bw_stall[p] for t in self.timelines) for p in EXEC_PIPES}

    @property
    def gm_bytes(self) -> int:
        return sum(t.gm_read + t.gm_write for t in self.timelines)

    @property
    def achieved_bandwidth(self) -> float:
        """Global-memory bytes the cores moved per second over the whole launch (L2 hits and
        writes that stay in L2 included: it can exceed the device-memory bandwidth)."""
        return self.gm_bytes / self.seconds if self.total_cycles else 0.0

    @property
    def hbm_bytes(self) -> float:
        """Bytes drawn from device memory during the launch: the area under ``hbm_steps`` (L2
        misses, bypassed copies and write-backs; without an L2 model, every global byte)."""
        steps = self.hbm_steps
        if not steps:
            return 0.0
        ends = [t for t, _ in steps[1:]] + [self.total_cycles]
        return sum(d * max(0.0, t1 - t0) for (t0, d), t1 in zip(steps, ends, strict=True))

    @property
    def bandwidth_fraction(self) -> float:
        """Device-memory bytes per second over the launch, as a fraction of its bandwidth (at most 1)."""
        if not self.total_cycles:
            return 0.0
        return self.hbm_bytes / self.seconds / self.chip.dram_bandwidth

    def instruction_counts(self) -> dict[Pipe, int]:
        counts = dict.fromkeys(EXEC_PIPES, 0)
        for t in self.timelines:
            for ins in t.instrs:
                if ins.pipe is not Pipe.ALL:
                    counts[ins.pipe] += 1
        return counts


def summary(report: SimReport) -> dict[str, Any]:
    """The launch's figures as plain data (what the table and the JSON outputs show)."""
    util = report.utilization()
    busy = report.pipe_busy()
    stall = report.flag_stall()
    bw = report.bandwidth_stall()
    counts = report.instruction_counts()
    return {
        "blocks": report.block_dim,
        "waves": report.waves,
        "cycles": report.total_cycles,
        "microseconds": report.microseconds,
        "bottleneck": report.bottleneck.track_name,
        "pipes": {p.track_name: {"busy_cycles": busy[p], "utilization": util[p], "flag_wait_cycles": stall[p],
                                 "bandwidth_wait_cycles": bw[p], "instructions": counts[p]}
                  for p in EXEC_PIPES},
        "gm_bytes": report.gm_bytes,
        "achieved_GBps": report.achieved_bandwidth / 1e9,
        "peak_GBps": report.chip.dram_bandwidth / 1e9,
        "bandwidth_fraction": report.bandwidth_fraction,
        "instructions": report.instructions,
        **({"core_types": by_core_type(report)} if any(t.kind for t in report.timelines) else {}),
    }


def by_core_type(report: SimReport) -> dict[str, Any]:
    """A mixed AIC + AIV launch's figures per core type (msprof's ``aic_*`` / ``aiv_*``): how many
    cores, their mean resident time, and per pipe the busy cycles summed over them and the ratio
    to their resident cycles (empty for a launch whose cores are all of one kind)."""
    out: dict[str, Any] = {}
    for kind in ("AIC", "AIV"):
        tls = [t for t in report.timelines if t.kind == kind]
        if not tls:
            continue
        resident = sum(max(t.finish - t.begin, 0.0) for t in tls)
        busy = {p: sum(t.busy[p] for t in tls) for p in EXEC_PIPES}
        out[kind] = {"cores": len(tls), "microseconds": resident / len(tls) / report.chip.clock_hz * 1e6,
                     "total_cycles": resident,
                     "pipes": {p.track_name: {"busy_cycles": busy[p],
                                              "ratio": busy[p] / resident if resident else 0.0}
                               for p in EXEC_PIPES if busy[p]}}
    return out


def render_table(report: SimReport, title: str = "launch") -> Any:
    """A ``rich.table.Table`` with one row per pipe."""
    from rich.table import Table

    s = summary(report)
    table = Table(title=f"{title}: {s['cycles']:.0f} cycles = {s['microseconds']:.2f} us, "
                  f"{s['blocks']} blocks in {s['waves']} wave(s), bottleneck {s['bottleneck']}, "
                  f"GM {s['achieved_GBps']:.1f} of {s['peak_GBps']:.0f} GB/s")
    for col in ("pipe", "busy cycles", "utilization", "flag-wait cycles", "HBM-share cycles", "instructions"):
        table.add_column(col, justify="left" if col == "pipe" else "right")
    for name, row in s["pipes"].items():
        if row["instructions"] == 0:
            continue
        table.add_row(name, f"{row['busy_cycles']:.0f}", f"{row['utilization']:.1%}",
                      f"{row['flag_wait_cycles']:.0f}", f"{row['bandwidth_wait_cycles']:.0f}",
                      str(row["instructions"]))
    for kind, fig in s.get("core_types", {}).items():  # a mixed kernel: each core type on its own
        for name, row in fig["pipes"].items():
            table.add_row(f"{kind.lower()} {name}", f"{row['busy_cycles']:.0f}", f"{row['ratio']:.1%}",
                          "", "",
                          f"{fig['cores']} cores, {fig['microseconds']:.2f} us")
    return table


def text_timeline(report: SimReport, *, block: int = 0, width: int = 100) -> str:
    """A terminal timeline of one block: one row per pipe that did work, ``#`` where busy.

    >>> from aclsim.arch import get_chip
    >>> from aclsim.isa import Instr, Pipe
    >>> from aclsim.sim import simulate
    >>> report = simulate(get_chip("tiny"), [[Instr(Pipe.V, "x", cost={"cycles": 10})]])
    >>> print(text_timeline(report, width=10))
    VECTOR |##########| 100%
    """
    tl = report.timelines[block]
    span = max(tl.finish - tl.begin, 1e-9)
    util = {p: tl.busy[p] / span for p in EXEC_PIPES}
    rows = []
    for pipe in EXEC_PIPES:
        if not tl.busy[pipe]:
            continue
        cells = [0.0] * width
        for i, ins in enumerate(tl.instrs):
            if ins.pipe is not pipe or tl.end[i] <= tl.start[i]:
                continue
            a = (tl.start[i] - tl.begin) / span * width
            b = (tl.end[i] - tl.begin) / span * width
            for c in range(int(a), min(int(b) + 1, width)):
                cells[c] += max(0.0, min(b, c + 1) - max(a, c))
        bar = "".join("#" if x >= 0.5 else "." if x > 0 else " " for x in cells)
        rows.append(f"{pipe.track_name:6s} |{bar}| {util[pipe]:4.0%}")
    return "\n".join(rows)


def _core_name(tl: CoreTimeline) -> str:
    return f"core {tl.block} ({tl.kind})" if tl.kind else f"block {tl.block}"


_COLORS = {Pipe.S: "#7f7f7f", Pipe.V: "#1f77b4", Pipe.M: "#d62728", Pipe.MTE1: "#9467bd",
           Pipe.MTE2: "#2ca02c", Pipe.MTE3: "#ff7f0e", Pipe.FIX: "#8c564b"}


def plot_timeline(report: SimReport, path: str | os.PathLike[str], *, title: str = "launch",
                  max_blocks: int = 4) -> None:
    """A PNG: per-pipe bars over cycles for the first ``max_blocks`` blocks, with utilization."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    timelines = report.timelines[:max_blocks]
    pipes = [p for p in EXEC_PIPES if any(t.busy[p] or any(i.pipe is p for i in t.instrs) for t in timelines)]
    util = report.utilization()
    rows = [(t, p) for t in timelines for p in pipes]
    fig, ax = plt.subplots(figsize=(12, 0.45 * len(rows) + 1.5))
    for y, (tl, pipe) in enumerate(rows):
        spans = [(tl.start[i], tl.end[i] - tl.start[i]) for i, ins in enumerate(tl.instrs)
                 if ins.pipe is pipe and tl.end[i] > tl.start[i]]
        ax.broken_barh(spans, (y - 0.35, 0.7), facecolors=_COLORS[pipe])
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([f"{_core_name(t)} {p.track_name} ({util[p]:.0%})" for t, p in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("cycles")
    ax.set_title(f"{title}: {report.total_cycles:.0f} cycles, bottleneck {report.bottleneck.track_name}")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
