"""Segment sources: where a pool's blocks come from and how their memory goes back.

A :class:`SegmentSource` holds the segments of one pool, the free index of their blocks and
the cap on reserved bytes, and fills in one interface for the pool's policy
(:class:`~aclsim.runtime.pool.caching.CachingPool`): find a block that needs no upstream call
(:meth:`~SegmentSource.fit`), get one with the upstream's help (:meth:`~SegmentSource.obtain`),
give cached memory back (:meth:`~SegmentSource.give_back`), and measure what is backed.
Two sources fill it in: expandable segments (:mod:`.expandable`, reserved address ranges with
pages mapped on demand) and classic segments (:mod:`.classic`, PyTorch's native scheme).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from typing import Any

from aclsim.runtime.pool.blocks import ALLOC, FREE, Block, FreeIndex, Segment, cut
from aclsim.runtime.pool.errors import AllocatorFull
from aclsim.runtime.pool.history import PoolObserver, event
from aclsim.runtime.pool.options import PoolOptions
from aclsim.runtime.pool.stats import PoolStats
from aclsim.runtime.pool.upstream import Upstream

#: The pool's growth step, given to :meth:`SegmentSource.obtain`: ``grow(nbytes, get, kept)``
#: calls ``get()`` (the upstream call) after giving cached memory back as the options say,
#: and once more after giving everything cached back when the upstream refuses; the free
#: blocks ``kept`` keep their pages until then.
GrowFn = Callable[[int, Callable[[], None], Iterable[Block]], None]


class SegmentSource(ABC):
    """The segments of one pool and the free index of their blocks.

    ``observer`` is told of every segment event; ``limit`` caps the reserved bytes;
    ``releasable`` holds the free blocks whose memory could go back, oldest first.
    """

    #: reserved address ranges with pages mapped on demand (else classic segments)
    expandable: bool
    #: the exact-size free lists must be coalesced before a block is cut and grown when the
    #: pool does not share other streams' memory first (expandable: nothing may merge into
    #: the pieces around a block while pages are found for it)
    flush_before_growth: bool

    def __init__(self, upstream: Upstream, options: PoolOptions, stats: PoolStats, *, page: int,
                 limit: int) -> None:
        self.upstream = upstream
        self.options = options
        self.stats = stats
        self.page = page
        self.limit = limit
        self.observer: PoolObserver | None = None
        self.segments: dict[Segment, None] = {}
        self.serial = 0
        # free blocks whose memory could go back to the upstream, oldest first
        self.releasable: dict[Block, None] = {}
        self.free = FreeIndex(self.on_add, self.releasable)

    # --- blocks ----------------------------------------------------------------------------
    @abstractmethod
    def on_add(self, b: Block) -> None:
        """Free block ``b`` was indexed: put it in :attr:`releasable` if its memory could go
        back to the upstream (a block leaving the index leaves it too)."""

    @abstractmethod
    def should_split(self, b: Block, size: int) -> bool:
        """Whether a request of ``size`` cuts free block ``b`` in two (else takes all of it)."""

    def take(self, b: Block, size: int, at: int | None = None) -> Block:
        """Allocate ``size`` bytes of free block ``b`` from its front, or from address ``at``
        (the pieces before and after stay free); returns the allocated block."""
        free = self.free
        free.remove(b)
        if at is not None and at > b.addr:
            front, b = b, cut(b, at)
            free.add(front)
        if self.should_split(b, size):
            free.add(cut(b, b.addr + size))
        return b

    def add_segment(self, offset: int, nbytes: int, stream: Any, kind: int) -> Segment:
        """A new segment of pool ``kind`` at ``offset``: one free block of common memory."""
        self.serial += 1
        seg = Segment(offset, nbytes, stream, kind, self.page, self.expandable, self.serial)
        b = Block(offset, nbytes, seg, None, None, None, self.stats.kinds[kind])
        seg.head = b
        self.segments[seg] = None
        self.free.add(b)
        return seg

    def check_limit(self, nbytes: int) -> None:
        """Raise :class:`AllocatorFull` when ``nbytes`` more would exceed the limit."""
        if self.stats.all.res + nbytes > self.limit:
            raise AllocatorFull(nbytes)

    def trace(self, action: str, addr: int, size: int, stream: Any) -> None:
        """Tell the observer of a segment event."""
        h = self.observer
        if h is not None:
            h.append(event(action, addr, size, stream, h.stacks))

    # --- the interface the pool's policy uses ---------------------------------------------
    @abstractmethod
    def fit(self, size: int, stream: Any, kind: int) -> Block | None:
        """A free block the stream may take for ``size`` bytes without an upstream call."""

    @abstractmethod
    def obtain(self, size: int, stream: Any, kind: int, grow: GrowFn) -> tuple[Block, bool]:
        """A block of ``size`` bytes, with the upstream's help through ``grow`` when needed:
        ``(block, True)`` when no upstream call was needed after all.  Raises
        :class:`AllocatorFull` (with the pool as it was) when the upstream refuses."""

    @abstractmethod
    def give_back(self, need: int | None) -> int:
        """Give up to ``need`` bytes (``None``: all) of cached memory whose stream work is done
        back to the upstream, oldest first; returns the bytes given back."""

    @abstractmethod
    def give_back_block(self, b: Block) -> None:
        """Give what the upstream can take back of common free block ``b`` (a stream is gone)."""

    def drop_empty(self) -> None:  # noqa: B027 - only expandable segments hold empty ranges
        """Give back the address ranges that hold nothing."""

    @abstractmethod
    def keep_back(self, kept: Iterable[Block]) -> None:
        """The free blocks ``kept`` out of :meth:`give_back` during a growth may go back again."""

    @abstractmethod
    def available(self, headroom: int) -> int:
        """Of ``headroom`` bytes below the limit, what one request is sure to get."""

    @abstractmethod
    def mapped_run(self, b: Block) -> int:
        """Bytes of the longest backed stretch of free block ``b``."""

    @abstractmethod
    def mapped_bytes(self, b: Block) -> int:
        """Backed bytes of free block ``b``."""

    @abstractmethod
    def inactive_split(self, b: Block) -> int:
        """Bytes of free block ``b`` that cannot go back to the upstream (0: none)."""

    @abstractmethod
    def mapped_ranges(self, seg: Segment) -> list[tuple[int, int]]:
        """``(offset, nbytes)`` of the backed ranges of ``seg``."""

    @abstractmethod
    def reserved_of(self, seg: Segment) -> int:
        """Bytes of ``seg`` held from the upstream."""

    def check_block(self, b: Block) -> None:  # noqa: B027 - classic segments have nothing to check
        """Assert the source's own invariants of block ``b``."""

    def check(self, live: dict[int, Block]) -> None:
        """Assert the invariants (tests): blocks tile their segments, the free ones are indexed
        and merged with free neighbours of their owner, the allocated ones are ``live``, and
        the counters match the blocks."""
        self_b = self_r = res = 0
        for seg in self.segments:
            b = seg.head
            assert b is not None and b.prev is None
            pos = seg.base
            while b is not None:
                assert b.addr == pos and b.size > 0 and b.seg is seg, (b, pos)
                if b.state == FREE:
                    assert self.free.holds(b), "free block not indexed"
                    assert b.stream is not None or b.ticket == 0
                    # only free blocks of two owners stay apart (one of them may be common)
                    assert b.next is None or b.next.state != FREE or b.next.stream is not b.stream
                self.check_block(b)
                if b.state == ALLOC:
                    assert live.get(b.addr) is b
                    self_b += b.size
                    self_r += b.requested
                pos += b.size
                b = b.next
            assert pos == seg.base + seg.size
            res += self.reserved_of(seg)
        total = self.stats.all
        assert self_b == total.b and self_r == total.r, (self_b, total.b)
        assert len(live) == total.n
        assert res == total.res, (res, total.res)
