"""What the passes on programs with loops share: the static tree of a :class:`Program` and
its *analysis unrolling*, the happens-before clocks over it.

Happens-before on a loop nest is taken from the analysis unrolling: every loop runs
``min(trips, 2)`` times.  Iteration 0 stands for the first iteration and iteration 1 for
any later one; what is ordered there is ordered in every real execution (an event of
iteration ``i >= 1`` knows at least what the same event of iteration 1 knows, because a
pipe's knowledge only grows, and a path between iterations ``i`` and ``i + 1`` has the same
shape for every ``i``).  So the analysis may miss an ordering (the passes are then more
conservative) but never invents one.

Used by :mod:`aclsim.compiler.structured` (inference) and
:mod:`aclsim.compiler.structured_alloc` (allocation).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from aclsim.compiler.clock import Clock, inorder_pipes
from aclsim.compiler.program import Item, Loop
from aclsim.compiler.types import BARRIER_OPS, SET_FLAG, SYNC_ALL, WAIT_FLAG, flag_key, sync_error
from aclsim.isa import Instr, Pipe

#: Rounds of the fix-point loops of the structured passes before they give up.
MAX_ROUNDS = 10_000

# --- the static tree --------------------------------------------------------------------------


@dataclass(slots=True)
class Node:
    """Where an item of a program sits."""

    block: list[Item]  # the list holding the item
    loops: tuple[Loop, ...]  # enclosing loops, outermost first
    order: int  # pre-order position (loop bodies once)


def index_tree(items: list[Item]) -> dict[int, Node]:
    """Every item of the program (by ``id``) with its :class:`Node`."""
    nodes: dict[int, Node] = {}
    counter = 0

    def walk(block: list[Item], loops: tuple[Loop, ...]) -> None:
        nonlocal counter
        for item in block:
            nodes[id(item)] = Node(block, loops, counter)
            counter += 1
            if isinstance(item, Loop):
                walk(item.body, (*loops, item))

    walk(items, ())
    return nodes


def position(block: Sequence[Item], item: Item) -> int:
    """The index of ``item`` (by identity) in ``block``."""
    for i, it in enumerate(block):
        if it is item:
            return i
    raise AssertionError("item not in its block")


def item_in(block: list[Item], leaf: Item, nodes: dict[int, Node], depth: int) -> Item:
    """The item of ``block`` (the body at loop depth ``depth``) that contains ``leaf``."""
    node = nodes[id(leaf)]
    if len(node.loops) == depth:
        return leaf
    return node.loops[depth]


def leaves(items: Sequence[Item]) -> list[Instr]:
    """Every instruction of the program in text order (loop bodies once)."""
    out: list[Instr] = []
    for item in items:
        if isinstance(item, Loop):
            out.extend(leaves(item.body))
        else:
            out.append(item)
    return out


# --- analysis unrolling -----------------------------------------------------------------------


class Analysis:
    """The clocks over the analysis unrolling (each loop ``min(trips, 2)`` times).

    Per event (an instruction of the unrolling, in order): ``instr``, ``path`` (its loop
    iterations), ``num`` (its number on its pipe, -1 for sets and barriers) and ``kn`` (its
    pipe's knowledge when it issues; for a set, the signal it carries).  ``events`` maps a
    static instruction (by ``id``) to its events, ``flags`` a flag ``(src, dst, id, logical)``
    to its executions ``(set event, wait event)``.
    """

    def __init__(self, items: list[Item], same_pipe: str) -> None:
        self.inorder = inorder_pipes(same_pipe)
        self.instr: list[Instr] = []
        self.path: list[tuple[int, ...]] = []
        self.num: list[int] = []
        self.kn: list[list[int]] = []
        self.events: dict[int, list[int]] = {}
        self.flags: dict[tuple[int, int, int, bool], list[tuple[int, int]]] = {}
        self._clock = Clock()
        self._pending: dict[tuple[int, int, int, bool], int] = {}
        self._run(items, ())
        if self._pending:
            ev = min(self._pending.values())
            raise sync_error(self.instr[ev], "set_flag is never waited (in the analysis of the loops)")

    def _run(self, items: Sequence[Item], path: tuple[int, ...]) -> None:
        clock = self._clock
        know = clock.know
        for item in items:
            if isinstance(item, Loop):
                for it in range(min(item.trips, 2)):
                    self._run(item.body, (*path, it))
                continue
            ev = len(self.instr)
            self.instr.append(item)
            self.path.append(path)
            self.events.setdefault(id(item), []).append(ev)
            op = item.op
            if op == SET_FLAG:
                p, q, eid = flag_key(item)
                self.num.append(-1)
                self.kn.append(clock.signal(p))
                key = (p, q, eid, item.logical)
                if key in self._pending:
                    raise sync_error(item, "flag set twice before its wait")
                self._pending[key] = ev
            elif op == WAIT_FLAG:
                p, q, eid = flag_key(item)
                key = (p, q, eid, item.logical)
                s = self._pending.pop(key, -1)
                if s < 0:
                    raise sync_error(item, "wait_flag with no earlier set_flag")
                self.flags.setdefault(key, []).append((s, ev))
                self.kn.append(know[q][:])
                self.num.append(clock.wait(q, self.kn[s]))
            elif op in BARRIER_OPS:
                self.num.append(-1)
                self.kn.append(know[0][:])
                clock.barrier(Pipe.ALL if op == SYNC_ALL else item.pipe)
            else:
                p = int(item.pipe)
                self.kn.append(know[p][:])
                self.num.append(clock.work(p, item.reads))
                if self.inorder[p]:
                    clock.barrier(p)

    def ordered(self, x: Instr, y: Instr, prefix_len: int, carried: bool) -> bool:
        """Is every execution of ``x`` ordered before the executions of ``y`` it conflicts with?

        Intra (``carried`` False): same iteration of the ``prefix_len`` enclosing loops.
        Carried: ``x`` in iteration 0 and ``y`` in iteration 1 of loop number ``prefix_len``.
        """
        xs = self.events.get(id(x), [])
        ys = self.events.get(id(y), [])
        p = int(x.pipe)
        last: dict[tuple[int, ...], int] = {}
        for ev in xs:
            path = self.path[ev]
            if carried and path[prefix_len] != 0:
                continue
            last[path[:prefix_len]] = ev  # events are in trace order: the last one wins
        seen: set[tuple[int, ...]] = set()
        for ev in ys:
            path = self.path[ev]
            if carried and path[prefix_len] != 1:
                continue
            key = path[:prefix_len]
            if key in seen:
                continue
            seen.add(key)
            xe = last.get(key)
            if xe is None:
                continue
            if self.kn[ev][p] <= self.num[xe]:
                return False
        return True


__all__ = ["MAX_ROUNDS", "Analysis", "Node", "index_tree", "item_in", "leaves", "position"]
