"""Shared by the row-kernel pipelining tests: what a launch's timeline says about its loads."""

from __future__ import annotations

from typing import Any

from aclsim.isa import Pipe


def scalar_ops(launch: Any) -> int:
    """Instructions the launch ran on the scalar pipe (every block)."""
    return int(launch.report.instruction_counts().get(Pipe.S, 0))


def loads_run_ahead(launch: Any, block: int = 0) -> bool:
    """Whether the block's last GM load started before the last per-row statistic before it
    (a ``reduce_*``) ended: the load of tile i+1 moving while tile i is still being reduced, as
    double buffering promises.  A kernel that reads its statistics on the scalar pipe issues the
    next load only after they are done, so it starts later."""
    tl = launch.report.timelines[block]
    loads = [i for i, ins in enumerate(tl.instrs) if ins.pipe is Pipe.MTE2 and ins.op.startswith("data_copy")]
    if len(loads) < 2:
        raise AssertionError("the block made fewer than two loads: pick a larger input")
    last = loads[-1]
    reduces = [i for i in range(loads[-2], last) if tl.instrs[i].op.startswith("reduce_")]
    if not reduces:
        raise AssertionError("no reduce between the last two loads")
    return bool(tl.start[last] < tl.end[reduces[-1]])
