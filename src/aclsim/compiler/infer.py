"""``infer_sync``: find the dependences a stream needs from its memory ranges and insert
logical set/wait pairs (and same-pipe barriers) so that a stream written with no syncs at
all becomes correct: the auto-sync mode of Ascend's compiler.

Rules (the same model as :mod:`aclsim.compiler.hb`):

- a dependence is a read-after-write, write-after-read or write-after-write on overlapping
  ranges of the same memory;
- across pipes it gets ``set_flag P Q Ln`` right after the producer and
  ``wait_flag P Q Ln`` right before the consumer, with a fresh logical ID;
- on one pipe it gets ``pipe_barrier P`` right before the consumer (``same_pipe="barrier"``,
  Ascend C's ``PipeBarrier<pipe>``; never for PIPE_S, which the hardware orders), or nothing
  with ``same_pipe="inorder"``;
- a dependence already ordered by program order, by the syncs already present (hand-written
  or inserted for an earlier consumer) or by barriers is not synced again (transitive
  reduction): for each consumer, only the latest conflicting producer of each pipe is
  considered, and a candidate is dropped when another inserted pair already carries its
  producer's completion.

Flat lists (recorded traces) take a linear pass; programs with loops take the structured
pass in :mod:`aclsim.compiler.structured`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

from aclsim.compiler.clock import NPIPES, PIPE_INDEX, HistoryClock, inorder_pipes
from aclsim.compiler.program import Program
from aclsim.compiler.shadow import Shadow
from aclsim.compiler.structured import infer_structured
from aclsim.compiler.types import (
    PIPE_BARRIER,
    SET_FLAG,
    SYNC_ALL,
    WAIT_FLAG,
    InferStats,
    gc_paused,
    sync_error,
)
from aclsim.isa import Instr, Pipe

_ALL = int(Pipe.ALL)
_PIPES = list(Pipe)


@overload
def infer_sync(stream: Program, *, same_pipe: str = ..., stats: InferStats | None = ...) -> Program: ...


@overload
def infer_sync(stream: Sequence[Instr], *, same_pipe: str = ...,
               stats: InferStats | None = ...) -> list[Instr]: ...


def infer_sync(stream: Program | Sequence[Instr], *, same_pipe: str = "barrier",
               stats: InferStats | None = None) -> Program | list[Instr]:
    """Insert the logical syncs ``stream`` needs; returns a new stream of the same form.

    >>> from aclsim.compiler.text import parse, format_program
    >>> prog = parse("MTE2 load w:UB[0:64]\\nV add r:UB[0:64] w:UB[64:128]\\nMTE3 store r:UB[64:128]")
    >>> print(format_program(infer_sync(prog)), end="")
    MTE2 load w:UB[0:64]
    set_flag MTE2 V L0
    wait_flag MTE2 V L0
    V add r:UB[0:64] w:UB[64:128]
    set_flag V MTE3 L1
    wait_flag V MTE3 L1
    MTE3 store r:UB[64:128]
    """
    stats = stats if stats is not None else InferStats()
    with gc_paused():
        if isinstance(stream, Program):
            if stream.is_flat:
                return Program(_FlatInference(stream.items, same_pipe, stats).run(),  # type: ignore[arg-type]
                               stream.file)
            return infer_structured(stream, same_pipe=same_pipe, stats=stats)
        return _FlatInference(stream, same_pipe, stats).run()


def next_logical_id(instrs: Sequence[Instr]) -> int:
    """One above the largest logical event ID in use (0: none)."""
    top = -1
    for ins in instrs:
        if ins.logical and ins.event_id is not None and ins.event_id > top:
            top = ins.event_id
    return top + 1


class _FlatInference:
    """One pass of :func:`infer_sync` over a flat stream, in program order: the clock (with
    its history, to tell what a set right after an earlier producer carries), the pending sets
    and the shadow memory; the inserted syncs go to ``before``/``after`` (by input index)."""

    __slots__ = ("instrs", "stats", "inorder", "clock", "pending", "shadow", "before", "after", "next_id")

    def __init__(self, instrs: Sequence[Instr], same_pipe: str, stats: InferStats) -> None:
        self.instrs = instrs
        self.stats = stats
        self.inorder = inorder_pipes(same_pipe)
        self.clock = HistoryClock()
        self.pending: dict[tuple[int, int, int, bool], list[int]] = {}  # flag -> signal of its set
        self.shadow = Shadow()
        self.before: dict[int, list[Instr]] = {}
        self.after: dict[int, list[Instr]] = {}
        self.next_id = next_logical_id(instrs)

    def run(self) -> list[Instr]:
        clock, shadow, pending, inorder = self.clock, self.shadow, self.pending, self.inorder
        pipe_index = PIPE_INDEX
        for index, ins in enumerate(self.instrs):
            op = ins.op
            if op == SET_FLAG:
                p = pipe_index[ins.src]  # type: ignore[index]
                pending[(p, pipe_index[ins.dst], ins.event_id, ins.logical)] = clock.signal(p)  # type: ignore[index]
            elif op == WAIT_FLAG:
                q = pipe_index[ins.dst]  # type: ignore[index]
                sig = pending.pop((pipe_index[ins.src], q, ins.event_id, ins.logical), None)  # type: ignore[arg-type,index]
                if sig is None:
                    raise sync_error(ins, "wait_flag with no earlier set_flag; fix the stream first")
                clock.wait(q, sig)
            elif op == PIPE_BARRIER:
                if ins.pipe == _ALL:
                    clock.strong()
                    shadow.clear()
                else:
                    clock.barrier(ins.pipe)
            elif op == SYNC_ALL:
                clock.strong()
                shadow.clear()
            else:
                p = pipe_index[ins.pipe]
                found = shadow.unordered(ins, index, p, clock.know[p], inorder[p])
                if found is not None:
                    self.order(ins, index, p, *found)
                shadow.record(ins, p, clock.work(p, ins.reads), index)
        return self.output()

    def order(self, ins: Instr, index: int, p: int, need: list[int], prod: list[int]) -> None:
        """Order the unordered producers before ``ins`` (pipe ``p``): a pair from each other
        pipe unless an earlier pair already carries it, a ``pipe_barrier`` for its own pipe."""
        clock, stats, instrs = self.clock, self.stats, self.instrs
        cands = [r for r in range(NPIPES) if r != p and need[r] >= 0]
        stats.dependences += len(cands) + (need[p] >= 0)
        # the signal each candidate's set would carry: its knowledge right after the producer
        sigs = {r: clock.signal_after(r, need[r]) for r in cands}
        waits: list[Instr] = []
        while cands:
            # the pair whose signal carries the most other producers goes first
            if len(cands) == 1:
                best = cands[0]
            else:
                best = max(cands, key=lambda r: (sum(1 for c in cands if sigs[r][c] > need[c]), -r))
            src, dst = _PIPES[best], _PIPES[p]
            eid = self.next_id
            self.next_id += 1
            px = instrs[prod[best]]
            self.after.setdefault(prod[best], []).append(
                Instr(src, SET_FLAG, (), (), src, dst, eid, True, {}, px.file, px.line))
            waits.append(Instr(dst, WAIT_FLAG, (), (), src, dst, eid, True, {}, ins.file, ins.line))
            stats.flags += 1
            clock.wait(p, sigs[best])
            known = clock.know[p]
            left = [c for c in cands if c != best and known[c] <= need[c]]
            stats.implied += len(cands) - 1 - len(left)
            cands = left
        if need[p] >= 0 and clock.know[p][p] > need[p]:
            stats.implied += 1
        elif need[p] >= 0:
            waits.append(Instr(_PIPES[p], PIPE_BARRIER, line=ins.line, file=ins.file))
            stats.barriers += 1
            clock.barrier(p)
        if waits:
            self.before[index] = waits

    def output(self) -> list[Instr]:
        """The input with the inserted syncs spliced in."""
        before, after = self.before, self.after
        if not before and not after:
            return list(self.instrs)
        out: list[Instr] = []
        for index, ins in enumerate(self.instrs):
            b = before.get(index)
            if b is not None:
                out.extend(b)
            out.append(ins)
            a = after.get(index)
            if a is not None:
                out.extend(a)
        return out
