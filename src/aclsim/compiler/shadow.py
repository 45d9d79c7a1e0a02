"""Shadow memory of the happens-before engine: per memory and byte range, the last write
and the last read of each pipe since the last strong sync.

Used by the checker (:mod:`aclsim.compiler.hb`, :meth:`Shadow.check`) and the inference
(:mod:`aclsim.compiler.infer`, :meth:`Shadow.unordered` then :meth:`Shadow.record`): an access
conflicts with the shadow segments it covers, and is ordered after one of them iff its pipe
knows that segment's instruction complete (``know[P][R] > n``, see
:mod:`aclsim.compiler.clock`).  A segment is the list
``[end, write pipe, write number, write index, start, reads]``: the last write of
``[start, end)`` (pipe, its number on that pipe, its index in the stream; pipe -1: none) and
``reads``, None or ``{pipe: (number, index)}``.  The segments of one memory are disjoint, kept
in ``starts`` (sorted) and ``segs`` (start -> segment).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence

from aclsim.compiler.clock import NPIPES
from aclsim.isa import Instr, Space

Segment = list  # [end, write pipe, write number, write index, start, reads]
Memory = tuple[list[int], dict[int, Segment]]  # sorted starts, start -> segment


class Shadow:
    """The shadow segments of every memory (keyed by the identity of the ``Space`` member:
    ``Space`` is a plain ``Enum``, whose hash is computed in Python)."""

    __slots__ = ("_spaces",)

    def __init__(self) -> None:
        self._spaces: dict[int, Memory] = {}

    def clear(self) -> None:
        """A strong sync: everything before it is ordered before everything after it."""
        self._spaces.clear()

    def memory(self, space: Space) -> Memory:
        """The segments of one memory (created empty on first use)."""
        mem = self._spaces.get(id(space))
        if mem is None:
            mem = self._spaces[id(space)] = ([], {})
        return mem

    def check(self, ins: Instr, index: int, p: int, n: int, k: Sequence[int], same_ok: bool,
              race: Callable[[str, int, int, Space, int, int], None]) -> None:
        """Check the accesses of work instruction ``index`` (number ``n`` of pipe ``p``, whose
        knowledge is ``k``; ``same_ok``: ``p`` completes in order) and record them: writes,
        then reads.  Each unordered conflict is passed to ``race(kind, first index, index,
        space, start, stop)``; its own overlapping ranges never race (``seg[3] != index``)."""
        spaces = self._spaces
        for acc in ins.writes:
            ln = acc.length
            if ln <= 0:
                continue
            sp = acc.space
            lo = acc.offset
            hi = lo + ln
            mem = spaces.get(id(sp))
            if mem is None:
                mem = self.memory(sp)
            starts, segs = mem
            seg = segs.get(lo)
            if seg is not None and seg[0] == hi:  # the same range again: update it in place
                wp = seg[1]
                if wp >= 0 and (wp != p or not same_ok) and k[wp] <= seg[2] and seg[3] != index:
                    race("WAW", seg[3], index, sp, lo, hi)
                rd = seg[5]
                if rd is not None:
                    for rp, (rn, ri) in rd.items():
                        if (rp != p or not same_ok) and k[rp] <= rn:
                            race("WAR", ri, index, sp, lo, hi)
                seg[1] = p
                seg[2] = n
                seg[3] = index
                seg[5] = None
                continue
            for seg in cover(starts, segs, lo, hi):
                wp = seg[1]
                if wp >= 0 and (wp != p or not same_ok) and k[wp] <= seg[2] and seg[3] != index:
                    race("WAW", seg[3], index, sp, max(lo, seg[4]), min(hi, seg[0]))
                rd = seg[5]
                if rd is not None:
                    for rp, (rn, ri) in rd.items():
                        if (rp != p or not same_ok) and k[rp] <= rn:
                            race("WAR", ri, index, sp, max(lo, seg[4]), min(hi, seg[0]))
            replace(starts, segs, lo, hi, [hi, p, n, index, lo, None])  # one segment for [lo, hi)
        for acc in ins.reads:
            ln = acc.length
            if ln <= 0:
                continue
            sp = acc.space
            lo = acc.offset
            hi = lo + ln
            mem = spaces.get(id(sp))
            if mem is None:
                mem = self.memory(sp)
            starts, segs = mem
            same = segs.get(lo)
            for seg in (same,) if same is not None and same[0] == hi else cover(starts, segs, lo, hi):
                wp = seg[1]
                if wp >= 0 and (wp != p or not same_ok) and k[wp] <= seg[2] and seg[3] != index:
                    race("RAW", seg[3], index, sp, max(lo, seg[4]), min(hi, seg[0]))
                rd = seg[5]
                if rd is None:
                    seg[5] = {p: (n, index)}
                else:
                    rd[p] = (n, index)

    def unordered(self, ins: Instr, index: int, p: int, k: Sequence[int],
                  same_ok: bool) -> tuple[list[int], list[int]] | None:
        """Per producer pipe, the number and the index of the latest access that conflicts with
        work instruction ``index`` (pipe ``p``, knowledge ``k``) and is not ordered before it
        (-1: none); None when there is none at all.  Nothing is recorded (see :meth:`record`)."""
        spaces = self._spaces
        need = [-1] * NPIPES
        prod = [-1] * NPIPES
        found = False
        for is_write, accesses in ((True, ins.writes), (False, ins.reads)):
            for acc in accesses:
                ln = acc.length
                if ln <= 0:
                    continue
                lo = acc.offset
                hi = lo + ln
                mem = spaces.get(id(acc.space))
                if mem is None:
                    mem = self.memory(acc.space)
                starts, segs = mem
                same = segs.get(lo)
                for seg in (same,) if same is not None and same[0] == hi else cover(starts, segs, lo, hi):
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
        return (need, prod) if found else None

    def record(self, ins: Instr, pipe: int, n: int, index: int) -> None:
        """Record an instruction's accesses (writes replace, reads add).  Its ranges may
        overlap one another, so each write splits the shadow at its own bounds first (an
        earlier write of the instruction may have merged the segments that a check split)."""
        spaces = self._spaces
        for acc in ins.writes:
            if acc.length <= 0:
                continue
            starts, segs = spaces.get(id(acc.space)) or self.memory(acc.space)
            lo = acc.offset
            hi = lo + acc.length
            seg = segs.get(lo)
            if seg is None or seg[0] != hi:
                cover(starts, segs, lo, hi)
                i = bisect_left(starts, lo)
                j = bisect_left(starts, hi, i)
                for s in starts[i + 1:j]:
                    del segs[s]
                del starts[i + 1:j]
            segs[lo] = [hi, pipe, n, index, lo, None]
        for acc in ins.reads:
            if acc.length <= 0:
                continue
            starts, segs = spaces.get(id(acc.space)) or self.memory(acc.space)
            lo = acc.offset
            hi = lo + acc.length
            for seg in covering(starts, segs, lo, hi):
                rd = seg[5]
                if rd is None:
                    seg[5] = {pipe: (n, index)}
                else:
                    rd[pipe] = (n, index)


def covering(starts: list[int], segs: dict[int, Segment], lo: int, hi: int) -> Sequence[Segment]:
    """The segments that exactly cover ``[lo, hi)`` (split and filled as needed)."""
    seg = segs.get(lo)
    if seg is not None and seg[0] == hi:
        return (seg,)
    return cover(starts, segs, lo, hi)


def replace(starts: list[int], segs: dict[int, Segment], lo: int, hi: int, seg: Segment) -> None:
    """``seg`` (which starts at ``lo`` and ends at ``hi``) replaces the segments that exactly
    cover ``[lo, hi)`` (call :func:`cover` first)."""
    i = bisect_left(starts, lo)
    j = bisect_left(starts, hi, i)
    for s in starts[i:j]:
        del segs[s]
    starts[i:j] = [lo]
    segs[lo] = seg


def cover(starts: list[int], segs: dict[int, Segment], lo: int, hi: int) -> list[Segment]:
    """Split the segments of one memory so that ``[lo, hi)`` is exactly covered; return them
    in address order.  Gaps get fresh segments with no write and no read."""
    i = bisect_right(starts, lo) - 1
    if i < 0:
        i = 0
    elif starts[i] < lo:
        seg = segs[starts[i]]
        if seg[0] > lo:  # split off [lo, end)
            segs[lo] = [seg[0], seg[1], seg[2], seg[3], lo, dict(seg[5]) if seg[5] else None]
            seg[0] = lo
            starts.insert(i + 1, lo)
        i += 1
    out: list[Segment] = []
    pos = lo
    n = len(starts)
    while pos < hi:
        if i < n and starts[i] == pos:
            seg = segs[pos]
            if seg[0] > hi:  # split off [hi, end)
                tail = [seg[0], seg[1], seg[2], seg[3], hi, dict(seg[5]) if seg[5] else None]
                seg[0] = hi
                segs[hi] = tail
                starts.insert(i + 1, hi)
                n += 1
            out.append(seg)
            pos = seg[0]
            i += 1
        else:
            nxt = starts[i] if i < n and starts[i] < hi else hi
            gap = [nxt, -1, -1, -1, pos, None]
            segs[pos] = gap
            starts.insert(i, pos)
            n += 1
            i += 1
            out.append(gap)
            pos = nxt
    return out


__all__ = ["Memory", "Segment", "Shadow", "cover", "covering", "replace"]
