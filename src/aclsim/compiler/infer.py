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

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import overload

from aclsim.compiler.hb import NPIPES, _cover, _mode_flags
from aclsim.compiler.program import Program, SyncError, gc_paused
from aclsim.isa import Instr, Pipe, Space

_ALL = int(Pipe.ALL)
_S = int(Pipe.S)
_PIPES = list(Pipe)


@dataclass(slots=True)
class InferStats:
    """What :func:`infer_sync` inserted."""

    flags: int = 0  # set/wait pairs
    barriers: int = 0  # same-pipe pipe_barrier
    dependences: int = 0  # (consumer, producer pipe) pairs found unordered before insertion
    implied: int = 0  # of those, already ordered by another inserted pair


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
                return Program(list(_infer_flat(stream.items, same_pipe, stats)), stream.file)  # type: ignore[arg-type]
            from aclsim.compiler.structured import infer_structured

            return infer_structured(stream, same_pipe=same_pipe, stats=stats)
        return _infer_flat(stream, same_pipe, stats)


def next_logical_id(instrs: Sequence[Instr]) -> int:
    top = -1
    for ins in instrs:
        if ins.logical and ins.event_id is not None and ins.event_id > top:
            top = ins.event_id
    return top + 1


def _infer_flat(instrs: Sequence[Instr], same_pipe: str, stats: InferStats) -> list[Instr]:
    inorder = _mode_flags(same_pipe)
    next_id = next_logical_id(instrs)
    count = [0] * NPIPES
    # know[p] is replaced (never mutated) when it changes, so history entries can share it
    know: list[list[int]] = [[0] * NPIPES for _ in range(NPIPES)]
    hist_n: list[list[int]] = [[0] for _ in range(NPIPES)]
    hist_k: list[list[list[int]]] = [[know[p]] for p in range(NPIPES)]
    slots: dict[tuple[int, int, int, bool], list] = {}
    shadow: dict[Space, tuple[list[int], dict[int, list]]] = {}
    before: dict[int, list[Instr]] = {}
    after: dict[int, list[Instr]] = {}
    set_op, wait_op, bar_op, all_op = "set_flag", "wait_flag", "pipe_barrier", "sync_all"

    def hold() -> None:
        """A scalar read or a wait on PIPE_S held the issue: every pipe learns what S knows."""
        ks = know[_S][:]
        ks[_S] = count[_S]
        know[_S] = ks
        hist_n[_S].append(count[_S])
        hist_k[_S].append(ks)
        for r in range(NPIPES):
            kr = know[r]
            if r != _S and any(a > b for a, b in zip(ks, kr, strict=False)):
                nk = [a if a > b else b for a, b in zip(kr, ks, strict=False)]
                know[r] = nk
                hist_n[r].append(count[r])
                hist_k[r].append(nk)
    for index, ins in enumerate(instrs):
        op = ins.op
        if op == set_op:
            p = int(ins.src)  # type: ignore[arg-type]
            sig = know[p][:]
            sig[p] = count[p]
            slots[(p, int(ins.dst), ins.event_id, ins.logical)] = [index, sig]  # type: ignore[arg-type,index]
            continue
        if op == wait_op:
            q = int(ins.dst)  # type: ignore[arg-type]
            slot = slots.get((int(ins.src), q, ins.event_id, ins.logical))  # type: ignore[arg-type]
            if slot is None or slot[0] < 0:
                raise SyncError(f"{ins.where}: wait_flag with no earlier set_flag; fix the stream first")
            sig = slot[1]
            slot[0] = -1
            count[q] += 1
            know[q] = [a if a > b else b for a, b in zip(know[q], sig, strict=False)]
            hist_n[q].append(count[q])
            hist_k[q].append(know[q])
            if q == _S:
                hold()
            continue
        if op in (bar_op, all_op):
            pipe = int(ins.pipe)
            if pipe == _ALL or op == all_op:
                for r in range(NPIPES):
                    know[r] = count[:]
                    hist_n[r] = [count[r]]
                    hist_k[r] = [know[r]]
                shadow.clear()
            else:
                k = know[pipe][:]
                k[pipe] = count[pipe]
                know[pipe] = k
                hist_n[pipe].append(count[pipe])
                hist_k[pipe].append(k)
            continue
        # a work instruction: collect, per producer pipe, the latest unordered conflicting access
        p = int(ins.pipe)
        k = know[p]
        same_ok = inorder[p]
        need = [-1] * NPIPES
        prod = [-1] * NPIPES
        found = False
        for is_write, accesses in ((True, ins.writes), (False, ins.reads)):
            for acc in accesses:
                if acc.length <= 0:
                    continue
                sp = acc.space
                lo = acc.offset
                hi = lo + acc.length
                sh = shadow.get(sp)
                if sh is None:
                    sh = shadow[sp] = ([], {})
                starts, segs = sh
                seg = segs.get(lo)
                covered = (seg,) if seg is not None and seg[0] == hi else _cover(starts, segs, lo, hi)
                for seg in covered:
                    wp = seg[1]
                    if wp >= 0 and (wp != p or not same_ok) and k[wp] <= seg[2] and seg[2] > need[wp] \
                            and seg[3] != index:
                        need[wp] = seg[2]
                        prod[wp] = seg[3]
                        found = True
                    if is_write and seg[5] is not None:
                        for rp, (rn, ri) in seg[5].items():
                            if (rp != p or not same_ok) and k[rp] <= rn and rn > need[rp]:
                                need[rp] = rn
                                prod[rp] = ri
                                found = True
        if found:
            cands = [r for r in range(NPIPES) if r != p and need[r] >= 0]
            stats.dependences += len(cands) + (need[p] >= 0)
            # signal each candidate's set would carry: P's knowledge right after the producer
            sigs: dict[int, list[int]] = {}
            for r in cands:
                pos = bisect_right(hist_n[r], need[r]) - 1
                sig = hist_k[r][pos][:]
                sig[r] = need[r] + 1
                sigs[r] = sig
            kk = k
            waits: list[Instr] = []
            while cands:
                # the pair whose signal carries the most other producers goes first
                best = max(cands, key=lambda r: (sum(1 for c in cands if sigs[r][c] > need[c]), -r))
                sig = sigs[best]
                src, dst = _PIPES[best], _PIPES[p]
                eid = next_id
                next_id += 1
                x = prod[best]
                px = instrs[x]
                after.setdefault(x, []).append(
                    Instr(src, set_op, (), (), src, dst, eid, True, {}, px.file, px.line))
                waits.append(Instr(dst, wait_op, (), (), src, dst, eid, True, {}, ins.file, ins.line))
                stats.flags += 1
                count[p] += 1
                kk = [a if a > b else b for a, b in zip(kk, sig, strict=False)]
                hist_n[p].append(count[p])
                hist_k[p].append(kk)
                left = [c for c in cands if c != best and kk[c] <= need[c]]
                stats.implied += len(cands) - 1 - len(left)
                cands = left
            if need[p] >= 0 and kk[p] > need[p]:
                stats.implied += 1
            elif need[p] >= 0:
                waits.append(Instr(_PIPES[p], bar_op, line=ins.line, file=ins.file))
                stats.barriers += 1
                kk = kk[:]
                kk[p] = count[p]
                hist_n[p].append(count[p])
                hist_k[p].append(kk)
            if waits:
                before[index] = waits
            know[p] = kk
            k = kk
        if p == _S and index in before:
            hold()  # the waits inserted before this scalar instruction held the issue
        n = count[p]
        count[p] = n + 1
        if p == _S and ins.reads:
            hold()  # a scalar read completes before issue goes on
        _record(shadow, ins, p, n, index)
    if not before and not after:
        return list(instrs)
    out: list[Instr] = []
    for index, ins in enumerate(instrs):
        b = before.get(index)
        if b is not None:
            out.extend(b)
        out.append(ins)
        a = after.get(index)
        if a is not None:
            out.extend(a)
    return out


def _record(shadow: dict[Space, tuple[list[int], dict[int, list]]], ins: Instr, p: int, n: int,
            index: int) -> None:
    """Record an instruction's accesses in the shadow (writes replace, reads add).  Its ranges
    may overlap one another, so each write splits the shadow at its own bounds first (an
    earlier write of the instruction may have merged the segments that the checks split)."""
    for acc in ins.writes:
        if acc.length <= 0:
            continue
        starts, segs = shadow[acc.space]
        lo = acc.offset
        hi = lo + acc.length
        seg = segs.get(lo)
        if seg is None or seg[0] != hi:
            _cover(starts, segs, lo, hi)
            i = bisect_left(starts, lo)
            j = bisect_left(starts, hi, i)
            for s in starts[i + 1:j]:
                del segs[s]
            del starts[i + 1:j]
        segs[lo] = [hi, p, n, index, lo, None]
    for acc in ins.reads:
        if acc.length <= 0:
            continue
        starts, segs = shadow[acc.space]
        lo = acc.offset
        hi = lo + acc.length
        seg = segs.get(lo)
        covered = (seg,) if seg is not None and seg[0] == hi else _cover(starts, segs, lo, hi)
        for seg in covered:
            rd = seg[5]
            if rd is None:
                seg[5] = {p: (n, index)}
            else:
                rd[p] = (n, index)
