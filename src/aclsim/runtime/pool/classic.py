"""Classic segments (``expandable_segments:False``): PyTorch's native scheme.

A miss in the small pool gets a 2 MiB segment, a request below 10 MiB a 20 MiB segment, a
larger one a segment of its size rounded up to 2 MiB; blocks are carved from segments, and a
segment goes back to the upstream only when it is wholly free.  With ``max_split_size``,
oversize blocks are never split and PyTorch's rules say which requests may take them.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from typing import Any

from aclsim.runtime.pool.blocks import FREE, Block, Segment, done
from aclsim.runtime.pool.errors import AllocatorFull
from aclsim.runtime.pool.sizes import LARGE_BUFFER, MIN_BLOCK, SMALL, SMALL_SIZE, classic_segment_size
from aclsim.runtime.pool.source import GrowFn, SegmentSource


class ClassicSource(SegmentSource):
    """Contiguous segments from the upstream's ``malloc``.

    ``releasable``: the free blocks that are a whole segment, oldest first (the segments
    :meth:`give_back` frees).
    """

    expandable = False
    flush_before_growth = False

    # --- blocks ----------------------------------------------------------------------------
    def on_add(self, b: Block) -> None:
        if b.prev is None and b.next is None:
            self.releasable[b] = None

    def should_split(self, b: Block, size: int) -> bool:
        """PyTorch's ``should_split``: in the small pool any remainder of at least 512 B, in the
        large pool only one above 1 MiB, and never an oversize block."""
        rest = b.size - size
        if b.seg.kind == SMALL:
            return rest >= MIN_BLOCK
        mss = self.options.max_split_size
        if mss is not None and b.size >= mss:
            return False
        return rest > SMALL_SIZE

    # --- getting a block -------------------------------------------------------------------
    def fit(self, size: int, stream: Any, kind: int) -> Block | None:
        """Best fit among the stream's and the common free blocks (PyTorch's oversize rules)."""
        best = None
        mss = self.options.max_split_size
        lists = self.free.lists
        for owner in (stream, None) if stream is not None else (None,):
            fb = lists.get((owner, kind))
            if fb is None:
                continue
            keys = fb.keys
            i = bisect.bisect_left(keys, (size, -1))
            if i == len(keys) or (best is not None and keys[i][0] >= best.size):
                continue
            b = fb.blocks[keys[i][1]]
            # small requests never take oversize blocks, oversize ones no block 20 MiB larger
            if mss is not None and (size < mss <= b.size or mss <= size <= b.size - LARGE_BUFFER):
                continue
            best = b
        return best

    def obtain(self, size: int, stream: Any, kind: int, grow: GrowFn) -> tuple[Block, bool]:
        """The best fit, else a new segment (PyTorch's size, or just the request's when that
        does not fit under the limit or in the upstream)."""
        b = self.fit(size, stream, kind)
        if b is not None:
            return self.take(b, size), True
        seg_size = classic_segment_size(size)
        holder: list[Segment] = []

        def get() -> None:
            for n in (seg_size, size) if size < seg_size else (seg_size,):
                try:
                    self.check_limit(n)
                    holder.append(self.add_segment(self.upstream.malloc(n), n, stream, kind))
                    return
                except AllocatorFull:
                    if n == size:
                        raise

        grow(seg_size, get, ())
        seg = holder[0]
        self.stats.reserved(kind, seg.size, 1)
        self.stats.num_device_alloc += 1
        mss = self.options.max_split_size
        if mss is not None and seg.size >= mss:
            self.stats.oversize_segments += 1
        self.trace("segment_alloc", seg.base, seg.size, stream)
        head = seg.head
        assert head is not None
        return self.take(head, size), False

    # --- giving memory back ------------------------------------------------------------------
    def give_back(self, need: int | None) -> int:
        freed = 0
        for b in list(self.releasable):
            if need is not None and freed >= need:
                break
            if done(b):
                freed += self._free_segment(b.seg)
        return freed

    def give_back_block(self, b: Block) -> None:
        if b.prev is None and b.next is None:
            self._free_segment(b.seg)

    def _free_segment(self, seg: Segment) -> int:
        b = seg.head
        assert b is not None and b.prev is None and b.next is None and b.state == FREE
        self.free.remove(b)
        self.upstream.free(seg.base, seg.size)
        del self.segments[seg]
        self.stats.reserved(seg.kind, -seg.size, -1)
        self.stats.num_device_free += 1
        mss = self.options.max_split_size
        if mss is not None and seg.size >= mss:
            self.stats.oversize_segments -= 1
        self.trace("segment_free", seg.base, seg.size, seg.stream)
        return seg.size

    def keep_back(self, kept: Iterable[Block]) -> None:
        """Classic growth keeps no blocks out."""

    # --- measures ------------------------------------------------------------------------------
    def available(self, headroom: int) -> int:
        """The largest contiguous range the upstream has (a segment is contiguous), in 512 B."""
        upstream_largest = getattr(self.upstream, "largest_free", None)
        fresh = min(headroom, upstream_largest()) if upstream_largest is not None else headroom
        return fresh - fresh % MIN_BLOCK

    def mapped_run(self, b: Block) -> int:
        return b.size

    def mapped_bytes(self, b: Block) -> int:
        return b.size

    def inactive_split(self, b: Block) -> int:
        """A free block of a split segment cannot go back."""
        return b.size if b.prev is not None or b.next is not None else 0

    def mapped_ranges(self, seg: Segment) -> list[tuple[int, int]]:
        return [(seg.base, seg.size)]

    def reserved_of(self, seg: Segment) -> int:
        return seg.size
