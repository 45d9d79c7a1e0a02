"""``aclsim sync``: infer, allocate and verify syncs of an instruction-stream text file."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from aclsim.arch import DEFAULT_CHIP
from aclsim.compiler.alloc import allocate_events, resolve_pool
from aclsim.compiler.api import verify_sync
from aclsim.compiler.baselines import lower_bound
from aclsim.compiler.infer import infer_sync
from aclsim.compiler.program import Program
from aclsim.compiler.text import format_program, parse_file
from aclsim.compiler.types import AllocStats, InferStats


def register(subparsers: argparse._SubParsersAction) -> None:
    sync = subparsers.add_parser("sync", help="infer, allocate and verify sync event IDs of a stream file")
    sub = sync.add_subparsers(dest="sync_command", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("file", help="instruction stream in the text format (docs/sync.md)")
    common.add_argument("--same-pipe", choices=("barrier", "inorder"), default="barrier",
                        help="same-pipe dependences need pipe_barrier (Ascend C, default) or not")
    chip = argparse.ArgumentParser(add_help=False)
    chip.add_argument("--chip", default=DEFAULT_CHIP, help="chip preset: its event IDs per pipe pair")
    chip.add_argument("--pool", type=int, default=None, help="event IDs per pipe pair (overrides --chip)")
    out = argparse.ArgumentParser(add_help=False)
    out.add_argument("-o", "--output", help="write the stream here (default: standard output)")

    p = sub.add_parser("infer", parents=[common, out], help="insert the logical syncs the stream needs")
    p.set_defaults(func=_cmd_infer)
    p = sub.add_parser("allocate", parents=[common, chip, out],
                       help="give logical syncs physical event IDs (seed 002), verify, summarize")
    p.add_argument("--infer", action="store_true", help="first insert the syncs the stream needs")
    p.set_defaults(func=_cmd_allocate)
    p = sub.add_parser("verify", parents=[common, chip],
                       help="check every dependence is ordered and every flag well paired")
    p.add_argument("--physical", action="store_true", help="also reject logical event IDs")
    p.set_defaults(func=_cmd_verify)


def _load(args: argparse.Namespace) -> Program:
    return parse_file(args.file)


def _emit(text: str, output: str | None) -> None:
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


def _guard(fn: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            return int(fn(args))
        except (OSError, ValueError) as exc:  # (SyncError and SyncFormatError are ValueErrors)
            print(f"aclsim sync: {exc}", file=sys.stderr)
            return 2

    return run


@_guard
def _cmd_infer(args: argparse.Namespace) -> int:
    stats = InferStats()
    prog = infer_sync(_load(args), same_pipe=args.same_pipe, stats=stats)
    _emit(format_program(prog), args.output)
    print(f"inferred {stats.flags} flag pair(s), {stats.barriers} barrier(s); "
          f"{stats.implied} dependence(s) already ordered", file=sys.stderr)
    return 0


@_guard
def _cmd_allocate(args: argparse.Namespace) -> int:
    pool = resolve_pool(args.chip, args.pool)
    prog = _load(args)
    if args.infer:
        prog = infer_sync(prog, same_pipe=args.same_pipe)
    stats = AllocStats(pool)
    out = allocate_events(prog, pool=pool, stats=stats)
    report = verify_sync(out, pool=pool, same_pipe=args.same_pipe, require_physical=True)
    _emit(format_program(out), args.output)
    err = sys.stderr
    print(f"{args.file}: {stats.sync_points} sync point(s), {stats.segments} segment(s), "
          f"pool {pool} per pipe pair ({stats.seconds * 1e3:.2f} ms)", file=err)
    bound = lower_bound(prog) if prog.is_flat else {}
    for pair, used in sorted(stats.ids_used.items()):
        extra = f" (lower bound {bound[pair]})" if pair in bound else ""
        print(f"  {pair[0].name:>4} -> {pair[1].name:<4} {used} ID(s){extra}", file=err)
    print(f"  spills: {stats.merges} merge(s), {stats.orderings} ordering pair(s), "
          f"{stats.cuts} strong sync(s) inserted; {stats.redundant} pair(s) already ordered by a strong "
          f"sync removed", file=err)
    print(f"  verify: {'OK' if report.ok else 'FAILED'}", file=err)
    if not report.ok:
        print(str(report), file=err)
        return 1
    return 0


@_guard
def _cmd_verify(args: argparse.Namespace) -> int:
    pool = resolve_pool(args.chip, args.pool)
    report = verify_sync(_load(args), pool=pool, same_pipe=args.same_pipe, require_physical=args.physical)
    print(f"{args.file}: {report}")
    return 0 if report.ok else 1
