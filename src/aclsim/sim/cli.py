"""``aclsim profile SCRIPT``: run a script, profile every kernel launch it makes."""

from __future__ import annotations

import argparse
import runpy
import sys
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("profile", help="run a Python script and profile every kernel launch in it")
    p.add_argument("script", help="the Python script to run")
    p.add_argument("args", nargs="*", help="arguments for the script (after --)")
    p.add_argument("--trace", metavar="OUT.json", help="write a Chrome/Perfetto trace of all launches")
    p.add_argument("--hbm-track", action="store_true",
                   help="add a counter track of the HBM bandwidth in use to the trace")
    p.add_argument("--png", metavar="OUT.png", help="write a PNG timeline of the slowest launch")
    p.add_argument("--json", metavar="OUT.json", help="write every launch's summary as JSON")
    p.add_argument("--msprof", metavar="DIR",
                   help="write msprof/msOpProf-style outputs into DIR: op_summary_*.csv, and per launch "
                   "OPPROF_*/ with OpBasicInfo, PipeUtilization, Memory and simulator/ traces and tables")
    p.set_defaults(func=run_profile)


def run_profile(args: argparse.Namespace) -> int:
    from rich.console import Console

    from aclsim.kernel import add_launch_listener, remove_launch_listener
    from aclsim.sim.report import plot_timeline, render_table, summary
    from aclsim.sim.trace import write_trace

    console = Console()
    script = Path(args.script)
    if not script.is_file():
        console.print(f"[red]aclsim profile: no such script {script}[/red]")
        return 2
    launches: list[Any] = []
    starts: dict[int, tuple[float | None, int]] = {}

    def take(launch: Any) -> None:  # on the stream's worker, before its clock moves past the launch
        stream = launch.stream
        clock = getattr(stream, "clock", None)
        starts[id(launch)] = (clock * 1e6 if isinstance(clock, float) else None, getattr(stream, "handle", 0))
        launches.append(launch)

    add_launch_listener(take)
    argv = sys.argv
    sys.argv = [str(script), *args.args]
    status = 0
    try:
        runpy.run_path(str(script), run_name="__main__")
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.argv = argv
        remove_launch_listener(take)
    done = [launch for launch in launches if launch.report is not None]
    failed = [launch for launch in launches if launch.report is None]
    console.print(f"aclsim profile: {len(launches)} kernel launch(es) in {script}, {len(failed)} failed")
    for n, launch in enumerate(done):
        console.print(render_table(launch.report, f"#{n} {launch.name}<<<{launch.block_dim}>>>"))
    for launch in failed:
        console.print(f"[red]{launch.name}: {launch.error}[/red]")
    names = [f"#{n} {launch.name}" for n, launch in enumerate(done)]
    if args.trace:
        write_trace(args.trace, [launch.report for launch in done], names=names, hbm_track=args.hbm_track)
        console.print(f"trace: {args.trace} (open in ui.perfetto.dev or chrome://tracing)")
    if args.png and done:
        slowest = max(done, key=lambda launch: launch.report.total_cycles)
        plot_timeline(slowest.report, args.png, title=slowest.name)
        console.print(f"timeline: {args.png} ({slowest.name})")
    if args.json:
        import json

        Path(args.json).write_text(json.dumps(
            [{"name": launch.name, **summary(launch.report)} for launch in done], indent=1))
    if args.msprof:
        from aclsim.sim.msprof import Task, write_msprof

        tasks = [Task(launch.report, launch.name, task_id=n, stream_id=starts[id(launch)][1],
                      start_us=starts[id(launch)][0]) for n, launch in enumerate(done)]
        try:
            written = write_msprof(args.msprof, tasks)
        except OSError as exc:
            console.print(f"[red]aclsim profile: cannot write the msprof outputs into {args.msprof}: {exc}; "
                          "give --msprof a directory that can be created or written[/red]")
            return 2
        console.print(f"msprof: {written[0]} and {len(written) - 1} OPPROF_* folder(s) in {args.msprof}")
    if status == 0 and failed:
        status = 1
    return status
