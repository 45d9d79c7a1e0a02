"""Sync passes on instruction streams: the synchronization-resource allocator of seed 002.

One core's instruction stream, a recorded ``list[Instr]`` or a structured
:class:`Program` (text format in :mod:`aclsim.compiler.text`), goes through:

- :func:`infer_sync`: the dependences its memory ranges need, as logical set/wait pairs
  (and same-pipe barriers);
- :func:`allocate_events`: the seed's method, physical event IDs per pipe pair, segment by
  segment between strong syncs;
- :func:`verify_sync`: the happens-before check (:mod:`aclsim.compiler.hb`, also the kernel
  sanitizer's engine);
- :func:`auto_sync`: all three, what the kernel language's ``auto_sync=True`` calls.

The passes are also listed as a named, ordered pipeline (:data:`PASSES`, :class:`Pipeline`,
:func:`kernel_pipeline`: what a backend runs between recording and simulating a kernel).

Baselines are in :mod:`aclsim.compiler.baselines`, a randomized pipe executor in
:mod:`aclsim.compiler.executor`.  See ``docs/sync.md``.

>>> from aclsim.compiler import parse, auto_sync, format_program
>>> prog = parse("MTE2 copy_in w:UB[0:256]\\nV add r:UB[0:256] w:UB[256:512]\\nMTE3 copy_out r:UB[256:512]")
>>> print(format_program(auto_sync(prog, "910B")), end="")
MTE2 copy_in w:UB[0:256]
set_flag MTE2 V 0
wait_flag MTE2 V 0
V add r:UB[0:256] w:UB[256:512]
set_flag V MTE3 0
wait_flag V MTE3 0
MTE3 copy_out r:UB[256:512]
"""

from aclsim.compiler.alloc import allocate_events
from aclsim.compiler.api import SyncStats, strip_syncs, verify_sync
from aclsim.compiler.baselines import (
    all_barriers,
    interval_lower_bound,
    lower_bound,
    optimal_colouring,
    round_robin,
    whole_kernel,
)
from aclsim.compiler.hb import FlagUse, HBReport, Race, SyncIssue, check, check_flags, find_races, flag_uses
from aclsim.compiler.infer import infer_sync
from aclsim.compiler.pipeline import PASSES, Pass, PassContext, Pipeline, auto_sync, kernel_pipeline
from aclsim.compiler.program import Affine, AffineAccess, Loop, Program, SyncFormatError
from aclsim.compiler.text import format_instr, format_program, parse, parse_file
from aclsim.compiler.types import AllocStats, InferStats, SyncError

__all__ = [
    "Affine",
    "AffineAccess",
    "AllocStats",
    "FlagUse",
    "HBReport",
    "InferStats",
    "Loop",
    "PASSES",
    "Pass",
    "PassContext",
    "Pipeline",
    "Program",
    "Race",
    "SyncError",
    "SyncFormatError",
    "SyncIssue",
    "SyncStats",
    "all_barriers",
    "allocate_events",
    "auto_sync",
    "check",
    "check_flags",
    "find_races",
    "flag_uses",
    "format_instr",
    "format_program",
    "infer_sync",
    "interval_lower_bound",
    "kernel_pipeline",
    "lower_bound",
    "optimal_colouring",
    "parse",
    "parse_file",
    "round_robin",
    "strip_syncs",
    "verify_sync",
    "whole_kernel",
]
