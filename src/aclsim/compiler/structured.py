"""``infer_sync`` on programs with loops (``for i in 0..N { ... }``), working on the code
rather than on its unrolled trace.

Happens-before comes from the analysis unrolling of :mod:`aclsim.compiler.loops` (each loop
``min(trips, 2)`` times: it may miss an ordering but never invents one).

:func:`infer_structured` finds the dependences from affine ranges (a box test on the bounds:
sound for every iteration distance), within an iteration and carried around a loop; each
gets the simplest placement (a pair inside one iteration when the producer comes first in
the body, else a loop-carried pair: ``set`` before the loop, ``wait``/``set`` in the body,
``wait`` after the loop, so the ID is held across the back edge and zero-trip loops stay
balanced), unless the analysis shows it already ordered.  Then every logical flag is checked
for lost signals between consecutive executions (a flag is one signal deep) and given a
back-pressure pair in the other direction where needed.
:func:`aclsim.compiler.structured_alloc.allocate_structured` allocates the physical IDs on
the same analysis.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from aclsim.compiler.clock import inorder_pipes
from aclsim.compiler.loops import MAX_ROUNDS, Analysis, Node, index_tree, item_in, leaves, position
from aclsim.compiler.program import AffineAccess, Item, Loop, Program
from aclsim.compiler.types import PIPE_BARRIER, SET_FLAG, WAIT_FLAG, InferStats, SyncError, sync_error
from aclsim.isa import NO_COST, Access, Instr, Pipe

# --- dependences from affine ranges ------------------------------------------------------------


@dataclass(slots=True)
class _Req:
    x: Instr  # producer (earlier)
    y: Instr  # consumer
    depth: int  # loop depth of the block the requirement lives in
    carried: bool  # around loop number depth-1 (the loop whose body is the block)
    order: tuple[int, int]


def _bounds(expr_terms: dict[str, int], const: int, box: dict[str, tuple[int, int]]) -> int:
    """Max of ``const + sum(c * v)`` over the box."""
    hi = const
    for name, c in expr_terms.items():
        lo_v, hi_v = box[name]
        hi += c * hi_v if c > 0 else c * lo_v
    return hi


def _may_overlap(a: Access, b: Access, shared: Sequence[Loop], carried: Loop | None,
                 loops_a: Sequence[Loop], loops_b: Sequence[Loop]) -> bool:
    """Can ``a`` (an execution of the earlier instruction) overlap ``b`` (a later one)?

    ``shared`` loops have the same value for both; ``carried``'s variable is ``v`` for ``a``
    and ``v + d`` (``d >= 1``) for ``b``; the loops only around ``a`` or ``b`` are free.
    """
    if a.space is not b.space:
        return False
    box: dict[str, tuple[int, int]] = {}
    rename_a: dict[str, str] = {}
    rename_b: dict[str, str] = {}
    for lp in shared:
        box[lp.var] = (lp.start, lp.stop - 1)
        rename_a[lp.var] = rename_b[lp.var] = lp.var
    if carried is not None:
        box[carried.var] = (carried.start, carried.stop - 2)
        box["@d"] = (1, carried.trips - 1)
        rename_a[carried.var] = rename_b[carried.var] = carried.var
    for lp in loops_a:
        if lp.var not in rename_a:
            rename_a[lp.var] = lp.var + "@a"
            box[lp.var + "@a"] = (lp.start, lp.stop - 1)
    for lp in loops_b:
        if lp.var not in rename_b:
            rename_b[lp.var] = lp.var + "@b"
            box[lp.var + "@b"] = (lp.start, lp.stop - 1)

    def affine(acc: Access, rename: dict[str, str],
               shift: bool) -> tuple[dict[str, int], int, dict[str, int], int]:
        if not isinstance(acc, AffineAccess):
            return {}, acc.offset, {}, acc.offset + acc.length
        out = []
        for expr in (acc.start, acc.stop):
            terms: dict[str, int] = {}
            for n, c in expr.terms:
                terms[rename[n]] = terms.get(rename[n], 0) + c
                if shift and carried is not None and n == carried.var:
                    terms["@d"] = terms.get("@d", 0) + c
            out.append((terms, expr.const))
        return out[0][0], out[0][1], out[1][0], out[1][1]

    sa, ca, ea, cea = affine(a, rename_a, False)
    sb, cb, eb, ceb = affine(b, rename_b, True)
    # overlap needs stop_b - start_a > 0 and stop_a - start_b > 0
    diff1 = dict(eb)
    for n, c in sa.items():
        diff1[n] = diff1.get(n, 0) - c
    diff2 = dict(ea)
    for n, c in sb.items():
        diff2[n] = diff2.get(n, 0) - c
    return _bounds(diff1, ceb - ca, box) > 0 and _bounds(diff2, cea - cb, box) > 0


def _conflict(x: Instr, y: Instr, shared: Sequence[Loop], carried: Loop | None,
              loops_x: Sequence[Loop], loops_y: Sequence[Loop]) -> bool:
    for wa in x.writes:
        for acc in (*y.reads, *y.writes):
            if _may_overlap(wa, acc, shared, carried, loops_x, loops_y):
                return True
    for ra in x.reads:
        for wb in y.writes:
            if _may_overlap(ra, wb, shared, carried, loops_x, loops_y):
                return True
    return False


def _requirements(items: list[Item], nodes: dict[int, Node], inorder: list[bool]) -> list[_Req]:
    reqs: list[_Req] = []
    work = [ins for ins in leaves(items) if not ins.is_sync and (ins.reads or ins.writes)]
    for x in work:
        nx = nodes[id(x)]
        for y in work:
            px, py = int(x.pipe), int(y.pipe)
            if px == py and inorder[px]:
                continue
            ny = nodes[id(y)]
            common = 0
            while (common < len(nx.loops) and common < len(ny.loops)
                   and nx.loops[common] is ny.loops[common]):
                common += 1
            # within one iteration of the common loops: x must come first in program order
            if x is not y and nx.order < ny.order:
                shared = nx.loops[:common]
                if _conflict(x, y, shared, None, nx.loops[common:], ny.loops[common:]):
                    reqs.append(_Req(x, y, common, False, (ny.order, -nx.order)))
            # carried around each common loop (x in iteration v, y in v + d)
            for level in range(common):
                lp = nx.loops[level]
                if lp.trips < 2:
                    continue
                if _conflict(x, y, nx.loops[:level], lp, nx.loops[level + 1:], ny.loops[level + 1:]):
                    reqs.append(_Req(x, y, level + 1, True, (ny.order, -nx.order)))
    # within-iteration dependences first (in consumer order), then the loop-carried ones: a
    # carried dependence is often ordered through the pairs of the iteration
    reqs.sort(key=lambda r: (r.carried, r.order, r.depth))
    return reqs


# --- placing a pair -----------------------------------------------------------------------------


def _place(items: list[Item], after: Instr, before: Instr, depth: int, carried: bool, p: Pipe, q: Pipe,
           eid: int, nodes: dict[int, Node]) -> list[Instr]:
    """Insert ``set_flag p q L<eid>`` after (the item holding) ``after`` and the wait before (the
    item holding) ``before``, in the block at loop depth ``depth`` shared by both; carried pairs
    also get the set before and the wait after that block's loop."""
    na = nodes[id(after)]
    block = items if depth == 0 else na.loops[depth - 1].body
    a_item = item_in(block, after, nodes, depth)
    b_item = item_in(block, before, nodes, depth)
    s = Instr(p, SET_FLAG, src=p, dst=q, event_id=eid, logical=True, line=after.line, file=after.file)
    w = Instr(q, WAIT_FLAG, src=p, dst=q, event_id=eid, logical=True, line=before.line, file=before.file)
    block.insert(position(block, a_item) + 1, s)
    block.insert(position(block, b_item), w)
    unit = [s, w]
    if carried:
        loop = na.loops[depth - 1]
        parent = items if depth == 1 else na.loops[depth - 2].body
        i = position(parent, loop)
        unit += [replace(w, cost=NO_COST), replace(s, cost=NO_COST)]
        parent.insert(i + 1, unit[2])
        parent.insert(i, unit[3])
    return unit


def _place_barrier(items: list[Item], before: Instr, depth: int, pipe: Pipe,
                   nodes: dict[int, Node]) -> list[Instr]:
    nb = nodes[id(before)]
    block = items if depth == 0 else nb.loops[depth - 1].body
    b_item = item_in(block, before, nodes, depth)
    bar = Instr(pipe, PIPE_BARRIER, line=before.line, file=before.file)
    block.insert(position(block, b_item), bar)
    return [bar]


def _next_id(items: list[Item]) -> int:
    top = -1
    for ins in leaves(items):
        if ins.logical and ins.event_id is not None:
            top = max(top, ins.event_id)
    return top + 1


def infer_structured(prog: Program, *, same_pipe: str, stats: InferStats) -> Program:
    """:func:`aclsim.compiler.infer_sync` for a program with loops."""
    out = prog.copy()
    items = out.items
    inorder = inorder_pipes(same_pipe)
    nodes = index_tree(items)
    reqs = _requirements(items, nodes, inorder)
    stats.dependences += len(reqs)
    ana = Analysis(items, same_pipe)
    eid = _next_id(items)
    units: list[list[Instr]] = []
    for req in reqs:
        prefix = req.depth - 1 if req.carried else req.depth
        if ana.ordered(req.x, req.y, prefix, req.carried):
            stats.implied += 1
            continue
        p, q = req.x.pipe, req.y.pipe
        block = items if req.depth == 0 else nodes[id(req.x)].loops[req.depth - 1].body
        a_item = item_in(block, req.x, nodes, req.depth)
        b_item = item_in(block, req.y, nodes, req.depth)
        # a carried dependence whose producer comes first in the body is covered, at every
        # distance, by a pair inside the iteration (a pipe's knowledge only grows)
        carried = req.carried and position(block, a_item) >= position(block, b_item)
        if p is q:
            units.append(_place_barrier(items, req.y, req.depth, q, nodes))
            stats.barriers += 1
        else:
            units.append(_place(items, req.x, req.y, req.depth, carried, p, q, eid, nodes))
            eid += 1
            stats.flags += 1
        nodes = index_tree(items)
        ana = Analysis(items, same_pipe)
    out.items = items = _prune(items, reqs, units, same_pipe, stats)
    _balance(out, same_pipe, stats)
    return out


def _satisfied(items: list[Item], reqs: Sequence[_Req], same_pipe: str) -> bool:
    ana = Analysis(items, same_pipe)
    return all(ana.ordered(r.x, r.y, r.depth - 1 if r.carried else r.depth, r.carried) for r in reqs)


def _without(block: Sequence[Item], drop: set[int]) -> list[Item]:
    out: list[Item] = []
    for item in block:
        if id(item) in drop:
            continue
        out.append(replace(item, body=_without(item.body, drop)) if isinstance(item, Loop) else item)
    return out


def _prune(items: list[Item], reqs: Sequence[_Req], units: list[list[Instr]], same_pipe: str,
           stats: InferStats) -> list[Item]:
    """Transitive reduction after the fact: drop each inserted pair or barrier (latest first)
    whose dependences the others already order."""
    for unit in reversed(units):
        trial = _without(items, {id(x) for x in unit})
        if _satisfied(trial, reqs, same_pipe):
            items = trial
            if unit[0].op == PIPE_BARRIER:
                stats.barriers -= 1
            else:
                stats.flags -= 1
            stats.implied += 1
    return items


def _balance(prog: Program, same_pipe: str, stats: InferStats) -> None:
    """Give every logical flag whose consecutive executions are not ordered (the next set could
    fire before the previous wait consumed the signal) a back-pressure pair."""
    items = prog.items
    eid = _next_id(items)
    for _ in range(MAX_ROUNDS):
        ana = Analysis(items, same_pipe)
        bad = _first_lost_signal(ana)
        if bad is None:
            return
        wait_ev, set_ev = bad
        w, s = ana.instr[wait_ev], ana.instr[set_ev]
        nodes = index_tree(items)
        nw, ns = nodes[id(w)], nodes[id(s)]
        common = 0
        while (common < len(nw.loops) and common < len(ns.loops) and nw.loops[common] is ns.loops[common]):
            common += 1
        block = items if common == 0 else nw.loops[common - 1].body
        a_item = item_in(block, w, nodes, common)
        b_item = item_in(block, s, nodes, common)
        carried = position(block, a_item) >= position(block, b_item)
        if carried and common == 0:
            raise sync_error(s, f"cannot order the flag's earlier wait at {w.where} before this set")
        # set_flag (wait's pipe -> set's pipe) after the wait, wait_flag before the set
        _place(items, w, s, common, carried, w.pipe, s.pipe, eid, nodes)
        eid += 1
        stats.flags += 1
    raise SyncError("back-pressure insertion did not converge")


def _first_lost_signal(ana: Analysis) -> tuple[int, int] | None:
    worst: tuple[int, int] | None = None
    for key, pairs in ana.flags.items():
        q = key[1]
        for (_s0, w0), (s1, _w1) in zip(pairs, pairs[1:], strict=False):
            if ana.kn[s1][q] <= ana.num[w0]:
                if worst is None or s1 < worst[1]:
                    worst = (w0, s1)
                break
    return worst


__all__ = ["infer_structured"]
