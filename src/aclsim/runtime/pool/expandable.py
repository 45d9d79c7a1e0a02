"""Expandable segments (the default source): reserved address ranges with pages mapped on demand.

Each pool (small, large) reserves a device *address range* the size of the device's memory and
maps physical pages into it as blocks need them (``reserve``/``map``/``unmap``, what
``cuMemAddressReserve``/``cuMemMap`` and AscendCL's ``aclrtReserveMemAddress``/``aclrtMapMem``
do); one byte per page records which pages are mapped.  A block only needs its own pages, so
free memory is never stranded between live blocks: pages wholly inside free blocks go back
when a request needs new ones (the pool's ``reuse_before_grow``), and a growing request is
placed on the mapped pages at the end of a free block.  ``docs/memory.md`` has the rules.
"""

from __future__ import annotations

import bisect
import sys
from collections.abc import Iterable
from typing import Any

from aclsim.runtime.pool.blocks import ALLOC, FREE, Block, Segment, done
from aclsim.runtime.pool.errors import AllocatorFull
from aclsim.runtime.pool.sizes import MIN_BLOCK, align_up
from aclsim.runtime.pool.source import GrowFn, SegmentSource

#: how many of the smallest free blocks that fit a request are looked at
FITS_LOOKED_AT = 8


class ExpandableSource(SegmentSource):
    """Reserved ranges shared by all streams, pages mapped as blocks need them.

    ``releasable``: the free blocks with mapped pages wholly inside them, oldest first (their
    pages are what :meth:`give_back` unmaps).
    """

    expandable = True
    flush_before_growth = True

    # --- blocks ----------------------------------------------------------------------------
    def should_split(self, b: Block, size: int) -> bool:
        return b.size - size >= MIN_BLOCK

    def set_rel(self, b: Block) -> None:
        """Recount the mapped pages wholly inside free block ``b``."""
        seg = b.seg
        mapped = seg.mapped
        if mapped is None or b.state != FREE:
            return
        page = seg.page
        p0 = (b.addr - seg.base + page - 1) // page
        p1 = min((b.addr + b.size - seg.base) // page, seg.top)
        b.rel = mapped.count(1, p0, p1) if p0 < p1 else 0
        if b.rel:
            self.releasable[b] = None
        else:
            self.releasable.pop(b, None)

    on_add = set_rel

    # --- getting a block ---------------------------------------------------------------------
    def fit(self, size: int, stream: Any, kind: int) -> Block | None:
        """The smaller of the first of the stream's and of the common free blocks, among the
        8 smallest that fit, whose pages under the request are all mapped."""
        best = None
        lists = self.free.lists
        for owner in (stream, None) if stream is not None else (None,):
            fb = lists.get((owner, kind))
            if fb is None:
                continue
            keys, blocks = fb.keys, fb.blocks
            i = bisect.bisect_left(keys, (size, -1))
            for j in range(i, min(i + FITS_LOOKED_AT, len(keys))):
                b = blocks[keys[j][1]]
                seg = b.seg
                mapped = seg.mapped
                assert mapped is not None
                page = seg.page
                p1 = (b.addr + size - seg.base + page - 1) // page
                if p1 <= seg.top and mapped.count(0, (b.addr - seg.base) // page, p1) == 0:
                    if best is None or b.size < best.size:
                        best = b
                    break
        return best

    def obtain(self, size: int, stream: Any, kind: int, grow: GrowFn) -> tuple[Block, bool]:
        """The free block and the place in it that need the fewest pages (a new reserved range
        when none fits); the pages it lacks are mapped through ``grow``."""
        b, at = self._fewest_pages_fit(size, stream, kind)
        if b is None:
            b = self._new_reservation(stream, kind, size).head
            assert b is not None
        b = self.take(b, size, at)
        seg = b.seg
        page = seg.page
        p0 = (b.addr - seg.base) // page
        p1 = (b.addr + size - seg.base + page - 1) // page
        missing = self._missing_pages(seg, b.addr, size)
        if missing:
            b.state = ALLOC  # not free while pages are found for it
            # the pages of the pieces it was cut from stay (the next request of a rolling
            # pattern takes them) unless the upstream refuses
            pieces = [n for n in (b.prev, b.next) if n is not None and n.state == FREE
                      and self.releasable.pop(n, 0) is None]
            try:
                grow(missing * page, lambda: self._map_pages(seg, p0, p1), pieces)
            except AllocatorFull:
                self.free.merge(b)
                raise
        return b, not missing

    def _missing_pages(self, seg: Segment, at: int, size: int) -> int:
        """Unmapped pages under ``[at, at + size)`` of ``seg``."""
        mapped = seg.mapped
        assert mapped is not None
        page, top = seg.page, seg.top
        p0 = (at - seg.base) // page
        p1 = (at + size - seg.base + page - 1) // page
        return mapped.count(0, p0, min(p1, top)) + max(0, p1 - max(p0, top))

    def _fewest_pages_fit(self, size: int, stream: Any, kind: int) -> tuple[Block | None, int | None]:
        """Among the 8 smallest fits (the stream's and the common ones), the block and the
        place in it that need the fewest pages mapped: ``(block, address)``."""
        best: tuple[int, int, Block | None, int | None] = (sys.maxsize, 0, None, None)
        lists = self.free.lists
        for owner in (stream, None) if stream is not None else (None,):
            fb = lists.get((owner, kind))
            if fb is None:
                continue
            keys, blocks = fb.keys, fb.blocks
            i = bisect.bisect_left(keys, (size, -1))
            for j in range(i, min(i + FITS_LOOKED_AT, len(keys))):
                b = blocks[keys[j][1]]
                at, missing = self._place(b, size)
                if (missing, b.size) < best[:2]:
                    best = (missing, b.size, b, at)
        return best[2], best[3]

    def _place(self, b: Block, size: int) -> tuple[int, int]:
        """Where in free block ``b`` a request of ``size`` goes: ``(address, missing pages)``.

        At the front (the lowest address), or at the end when that needs fewer pages mapped:
        a growing request (a slightly larger tensor allocated before the old one is freed)
        lands on the mapped pages the block ends with instead of mapping new ones in front of
        them.  Not at the end when the live block it would lean on has a live block after it
        too: freed, that one would become a hole between two live blocks."""
        seg = b.seg
        front = self._missing_pages(seg, b.addr, size)
        end = b.addr + b.size - size
        nxt = b.next
        if not front or end == b.addr or (nxt is not None and nxt.state != FREE and nxt.next is not None
                                          and nxt.next.state != FREE):
            return b.addr, front
        back = self._missing_pages(seg, end, size)
        return (end, back) if back < front else (b.addr, front)

    def _new_reservation(self, stream: Any, kind: int, size: int) -> Segment:
        nbytes = align_up(max(self.upstream.capacity, size), self.page)
        offset = self.upstream.reserve(nbytes)
        return self.add_segment(offset, nbytes, stream, kind)

    # --- pages -------------------------------------------------------------------------------
    def _map_pages(self, seg: Segment, p0: int, p1: int) -> None:
        mapped = seg.mapped
        assert mapped is not None
        page = seg.page
        i = mapped.find(0, p0, p1)
        while i != -1:
            j = mapped.find(1, i, p1)
            if j == -1:
                j = p1
            self.check_limit((j - i) * page)
            self.upstream.map(seg.base + i * page, (j - i) * page)
            self._mapped_run_changed(seg, i, j, +1)
            i = mapped.find(0, j, p1) if j < p1 else -1

    def _mapped_run_changed(self, seg: Segment, i: int, j: int, sign: int) -> None:
        """Bookkeeping after mapping (+1) or unmapping (-1) pages ``[i, j)`` of ``seg``."""
        mapped = seg.mapped
        assert mapped is not None
        nbytes = (j - i) * seg.page
        left = i > 0 and mapped[i - 1] == 1
        right = j < len(mapped) and mapped[j] == 1
        # a segment stat counts contiguous mapped ranges
        ranges = (1 - left - right) if sign > 0 else (left + right - 1)
        mapped[i:j] = (b"\x01" if sign > 0 else b"\x00") * (j - i)
        if sign > 0 and j > seg.top:
            seg.top = j
        self.stats.reserved(seg.kind, sign * nbytes, ranges)
        if sign > 0:
            self.stats.num_device_alloc += 1
        else:
            self.stats.num_device_free += 1
        action = "segment_map" if sign > 0 else "segment_unmap"
        self.trace(action, seg.base + i * seg.page, nbytes, seg.stream)

    def _unmap_block_pages(self, b: Block, need: int | None = None) -> int:
        """Unmap mapped pages wholly inside free block ``b`` (up to ``need`` bytes); bytes freed."""
        seg = b.seg
        mapped = seg.mapped
        assert mapped is not None
        page = seg.page
        p0 = (b.addr - seg.base + page - 1) // page
        p1 = min((b.addr + b.size - seg.base) // page, seg.top)
        freed = 0
        i = mapped.find(1, p0, p1) if p0 < p1 else -1
        while i != -1 and (need is None or freed < need):
            j = mapped.find(0, i, p1)
            if j == -1:
                j = p1
            if need is not None:
                j = min(j, i + (need - freed + page - 1) // page)
            self.upstream.unmap(seg.base + i * page, (j - i) * page)
            self._mapped_run_changed(seg, i, j, -1)
            freed += (j - i) * page
            i = mapped.find(1, j, p1) if j < p1 else -1
        self.set_rel(b)
        return freed

    # --- giving memory back --------------------------------------------------------------------
    def give_back(self, need: int | None) -> int:
        freed = 0
        for b in list(self.releasable):
            if need is not None and freed >= need:
                break
            if done(b):
                freed += self._unmap_block_pages(b, None if need is None else need - freed)
        return freed

    def give_back_block(self, b: Block) -> None:
        if b.rel:
            self._unmap_block_pages(b)

    def drop_empty(self) -> None:
        for seg in list(self.segments):
            b = seg.head
            if (seg.mapped is not None and b is not None and b.next is None and b.state == FREE
                    and seg.mapped.count(1, 0, seg.top) == 0):
                self.free.remove(b)
                del self.segments[seg]
                self.upstream.unreserve(seg.base, seg.size)

    def keep_back(self, kept: Iterable[Block]) -> None:
        for b in kept:
            if self.free.holds(b):
                self.set_rel(b)

    # --- measures ------------------------------------------------------------------------------
    def available(self, headroom: int) -> int:
        """Whole pages: a page cannot be mapped in part."""
        return headroom - headroom % self.page

    def mapped_run(self, b: Block) -> int:
        seg = b.seg
        mapped = seg.mapped
        assert mapped is not None
        page = seg.page
        start, end = b.addr - seg.base, b.addr + b.size - seg.base
        best = 0
        i = start // page
        last = min((end + page - 1) // page, seg.top)
        while i < last:
            i = mapped.find(1, i, last)
            if i == -1:
                break
            j = mapped.find(0, i, last)
            if j == -1:
                j = last
            best = max(best, min(j * page, end) - max(i * page, start))
            i = j
        return best

    def mapped_bytes(self, b: Block) -> int:
        seg = b.seg
        mapped = seg.mapped
        assert mapped is not None
        page = seg.page
        start, end = b.addr - seg.base, b.addr + b.size - seg.base
        p0, p1 = start // page, (end + page - 1) // page
        if p0 >= seg.top:
            return 0
        total = mapped.count(1, p0, min(p1, seg.top)) * page
        if mapped[p0]:
            total -= start - p0 * page
        if p1 - 1 >= p0 and mapped[p1 - 1]:
            total -= p1 * page - end
        return total

    def inactive_split(self, b: Block) -> int:
        """The free mapped bytes of ``b`` on pages it shares with an active block."""
        return self.mapped_bytes(b) - b.rel * b.seg.page

    def mapped_ranges(self, seg: Segment) -> list[tuple[int, int]]:
        mapped = seg.mapped
        assert mapped is not None
        out = []
        i = mapped.find(1)
        while i != -1:
            j = mapped.find(0, i)
            if j == -1:
                j = len(mapped)
            out.append((seg.base + i * seg.page, (j - i) * seg.page))
            i = mapped.find(1, j)
        return out

    def reserved_of(self, seg: Segment) -> int:
        assert seg.mapped is not None
        return seg.mapped.count(1) * seg.page

    def check_block(self, b: Block) -> None:
        seg = b.seg
        mapped = seg.mapped
        assert mapped is not None
        if b.next is not None and (b.next.addr - seg.base) % seg.page:
            # a page that two blocks share is mapped: a request at a block's front needs at
            # most ceil(size / page) new pages
            assert mapped[(b.next.addr - seg.base) // seg.page], "shared page unmapped"
        if b.state == ALLOC:
            p0 = (b.addr - seg.base) // seg.page
            p1 = (b.addr + b.size - seg.base + seg.page - 1) // seg.page
            assert mapped.count(0, p0, p1) == 0, "allocated block on unmapped pages"
