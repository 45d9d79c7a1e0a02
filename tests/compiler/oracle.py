"""Brute-force references for the tests: happens-before by explicit graph reachability, and
every conflicting access pair.  Quadratic; for small streams only."""

from __future__ import annotations

from collections.abc import Sequence

from aclsim.isa import Instr, Pipe


def _conflicts(x: Instr, y: Instr) -> bool:
    return any(w.overlaps(a) for w in x.writes for a in (*y.reads, *y.writes)) or any(
        r.overlaps(w) for r in x.reads for w in y.writes)


def dependences(instrs: Sequence[Instr]) -> list[tuple[int, int]]:
    """Every (earlier, later) pair of work instructions with conflicting accesses."""
    work = [i for i, x in enumerate(instrs) if not x.is_sync]
    return [(a, b) for ai, a in enumerate(work) for b in work[ai + 1:] if _conflicts(instrs[a], instrs[b])]


class Oracle:
    """Two events per instruction, start ``2i`` and end ``2i+1``; an edge means "before in time".

    Rules (the model of ``aclsim.compiler.hb``): a pipe starts its instructions in program order
    (``start -> start``); on a completion-ordered pipe (PIPE_S, or every pipe with
    ``inorder``) ``end -> start`` of the next; a wait ends when its flag arrives and holds the
    later instructions of its pipe; a set ends (fires) after every earlier instruction of its
    pipe ended; ``pipe_barrier P`` ends after every earlier P instruction and holds the later
    ones; a strong sync ends after everything earlier and holds everything later; a scalar
    read (get_value) and a wait on PIPE_S hold the issue of everything after them, so every
    later instruction starts after they end.
    """

    def __init__(self, instrs: Sequence[Instr], same_pipe: str = "barrier") -> None:
        self.instrs = list(instrs)
        n = len(instrs)
        edges: list[set[int]] = [set() for _ in range(2 * n)]
        last_on: dict[Pipe, int] = {}
        earlier: list[int] = []
        pending: dict[tuple, int] = {}
        self.matched: dict[int, int] = {}
        self.unmatched_waits: list[int] = []
        strong_before: list[int] = []
        holders: list[int] = []  # scalar reads and scalar waits: they hold the issue of what follows
        for i, x in enumerate(instrs):
            edges[2 * i].add(2 * i + 1)
            for s in strong_before[-1:]:
                edges[2 * s + 1].add(2 * i)
            for h in holders[-1:]:
                edges[2 * h + 1].add(2 * i)
            if (x.pipe is Pipe.S and x.reads and not x.is_sync) or (x.op == "wait_flag" and x.dst is Pipe.S):
                holders.append(i)
            if x.is_strong_sync:
                for j in range(i):
                    edges[2 * j + 1].add(2 * i + 1)
                strong_before.append(i)
                continue
            p = x.pipe
            if x.op == "set_flag":
                assert x.src is not None
                p = x.src
            elif x.op == "wait_flag":
                assert x.dst is not None
                p = x.dst
            prev = last_on.get(p)
            if prev is not None:
                edges[2 * prev].add(2 * i)
                prev_x = self.instrs[prev]
                if (p is Pipe.S or same_pipe == "inorder" or prev_x.op in ("wait_flag", "pipe_barrier")):
                    edges[2 * prev + 1].add(2 * i)
            if x.op == "set_flag" or x.op == "pipe_barrier":
                for j in earlier:
                    y = self.instrs[j]
                    if self.pipe_of(y) is p:
                        edges[2 * j + 1].add(2 * i + 1)
            if x.op == "set_flag":
                pending[(x.src, x.dst, x.event_id, x.logical)] = i
            elif x.op == "wait_flag":
                s = pending.pop((x.src, x.dst, x.event_id, x.logical), None)
                if s is None:
                    self.unmatched_waits.append(i)
                else:
                    edges[2 * s + 1].add(2 * i + 1)
                    self.matched[i] = s
            last_on[p] = i
            earlier.append(i)
        self.unmatched_sets = sorted(pending.values())
        # reachability (transitive closure) over a DAG whose edges go forward in index order
        reach: list[int] = [0] * (2 * n)
        for v in range(2 * n - 1, -1, -1):
            bits = 1 << v
            for w in edges[v]:
                bits |= reach[w]
            reach[v] = bits
        self.reach = reach

    @staticmethod
    def pipe_of(x: Instr) -> Pipe:
        if x.op == "set_flag":
            assert x.src is not None
            return x.src
        if x.op == "wait_flag":
            assert x.dst is not None
            return x.dst
        return x.pipe

    def ordered(self, a: int, b: int) -> bool:
        """Does ``a`` end before ``b`` starts?"""
        return bool(self.reach[2 * a + 1] >> (2 * b) & 1)

    def races(self) -> list[tuple[int, int]]:
        return [(a, b) for a, b in dependences(self.instrs) if not self.ordered(a, b)]

    def lost_signals(self) -> list[int]:
        """Sets that may fire before the previous wait of their flag has consumed its signal."""
        out: list[int] = []
        last_wait: dict[tuple, int] = {}
        pending: set[tuple] = set()
        for i, x in enumerate(self.instrs):
            key = (x.src, x.dst, x.event_id, x.logical)
            if x.op == "wait_flag" and i in self.matched:
                last_wait[key] = i
                pending.discard(key)
            elif x.op == "set_flag":
                w = last_wait.get(key)
                reached = w is not None and bool(self.reach[2 * w + 1] >> (2 * i + 1) & 1)
                if key not in pending and w is not None and not reached:
                    out.append(i)
                pending.add(key)
        return out
