"""Human-readable views of a launch: a summary dict, a rich table, a PNG timeline."""

from __future__ import annotations

import os
from typing import Any

from aclsim.isa import EXEC_PIPES, Pipe
from aclsim.sim.engine import SimReport


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
    }


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
    ax.set_yticklabels([f"block {t.block} {p.track_name} ({util[p]:.0%})" for t, p in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("cycles")
    ax.set_title(f"{title}: {report.total_cycles:.0f} cycles, bottleneck {report.bottleneck.track_name}")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
