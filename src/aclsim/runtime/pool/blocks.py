"""Blocks and the free index (CuPy's ``_Chunk`` and ``_Arena``).

A :class:`Segment` is memory from one upstream call (a classic segment, or a reserved address
range); its :class:`Block` s tile it in a doubly linked list, each allocated, pending (freed,
waiting for other streams), cached (in an exact-size free list of the pool) or free.  The
:class:`FreeIndex` keeps the free blocks of each (owner stream, pool) in (size, address) order
for best fit, and coalesces a block with its free neighbours when it goes in.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator
from typing import Any

from aclsim.runtime.pool.sizes import POOL_NAMES
from aclsim.runtime.pool.stats import KindStats

# block states
FREE, ALLOC, CACHED, PENDING = 0, 1, 2, 3  # CACHED: in an exact-size free list, not coalesced
STATE_NAMES = {FREE: "inactive", CACHED: "inactive", ALLOC: "active_allocated",
               PENDING: "active_awaiting_free"}


class Segment:
    """Memory from one upstream call: a classic segment, or a reserved range (expandable).
    Segments are shared by all streams; ``stream`` is the one whose request created it."""

    __slots__ = ("base", "size", "stream", "kind", "mapped", "page", "head", "serial", "top")

    def __init__(self, base: int, size: int, stream: Any, kind: int, page: int, expandable: bool,
                 serial: int) -> None:
        self.base = base
        self.size = size
        self.stream = stream
        self.kind = kind
        self.page = page
        # expandable: one byte per page, 1 = mapped; classic: None (wholly backed)
        self.mapped: bytearray | None = bytearray(size // page) if expandable else None
        self.head: Block | None = None
        self.serial = serial
        self.top = 0  # expandable: no page at or above ``top`` is mapped (keeps scans short)

    def __repr__(self) -> str:
        kind = "expandable" if self.mapped is not None else "classic"
        return f"<Segment {kind} {POOL_NAMES[self.kind]} 0x{self.base:x} {self.size}B>"


class Block:
    """A piece of a segment: allocated, pending (freed, waiting for other streams), or free.
    ``stream``: the stream an allocated block belongs to; of a free block, its owner (the
    stream that freed it; ``None``: common memory, any stream may take it)."""

    __slots__ = ("addr", "size", "seg", "prev", "next", "state", "stream", "requested", "ticket",
                 "uses", "waits", "age", "ks", "rel")

    def __init__(self, addr: int, size: int, seg: Segment, prev: Block | None, next_: Block | None,
                 stream: Any, ks: KindStats) -> None:
        self.addr = addr
        self.size = size
        self.seg = seg
        self.prev = prev
        self.next = next_
        self.state = FREE
        self.stream = stream
        self.requested = 0
        self.ticket = 0  # the owner stream's ticket at free: cross-stream reuse waits for it
        self.uses: set[Any] | None = None  # other streams that used the block (record_stream)
        self.waits: list[tuple[Any, int]] | None = None  # pending: (stream, ticket) to reach
        self.age = 0
        self.ks = ks
        self.rel = 0  # free, expandable: mapped pages wholly inside the block

    def __repr__(self) -> str:
        return f"<Block 0x{self.addr:x} {self.size}B {STATE_NAMES[self.state]}>"


def done(b: Block) -> bool:
    """Whether the work of ``b``'s owner stream queued before its free has completed (common
    memory is always done): then any stream may take it."""
    s = b.stream
    return s is None or s.reached(b.ticket)


def absorb(left: Block, right: Block) -> None:
    """``left`` takes over ``right``, its neighbour at higher addresses: the merged block keeps
    the later ticket (the stream work that must finish before reuse) and the later age."""
    left.size += right.size
    left.next = right.next
    if right.next is not None:
        right.next.prev = left
    if right.ticket > left.ticket:
        left.ticket = right.ticket
    if right.age > left.age:
        left.age = right.age


def cut(b: Block, at: int) -> Block:
    """Split block ``b`` (not indexed) at address ``at``: returns the block from ``at``, which
    keeps ``b``'s owner, ticket and age."""
    rest = Block(at, b.addr + b.size - at, b.seg, b, b.next, b.stream, b.ks)
    rest.ticket = b.ticket
    rest.age = b.age
    if b.next is not None:
        b.next.prev = rest
    b.next = rest
    b.size = at - b.addr
    return rest


class FreeBlocks:
    """Free blocks of one (owner stream, pool): ``keys`` ordered by (size, address) for best
    fit (``bisect`` for the first of at least a size), ``blocks`` by address."""

    __slots__ = ("keys", "blocks")

    def __init__(self) -> None:
        self.keys: list[tuple[int, int]] = []
        self.blocks: dict[int, Block] = {}


class FreeIndex:
    """The free blocks of every (owner stream, pool), in ``lists[(owner, kind)]``.

    ``on_add(block)`` is called when a free block is indexed and ``releasable`` loses a block
    that leaves the index: the segment source keeps there the free blocks whose memory could
    go back to the upstream, oldest first.
    """

    __slots__ = ("lists", "on_add", "releasable")

    def __init__(self, on_add: Callable[[Block], None], releasable: dict[Block, None]) -> None:
        self.lists: dict[tuple[Any, int], FreeBlocks] = {}
        self.on_add = on_add
        self.releasable = releasable

    def get(self, owner: Any, kind: int) -> FreeBlocks | None:
        return self.lists.get((owner, kind))

    def blocks(self) -> Iterator[Block]:
        for fb in self.lists.values():
            yield from fb.blocks.values()

    def holds(self, b: Block) -> bool:
        fb = self.lists.get((b.stream, b.seg.kind))
        return fb is not None and fb.blocks.get(b.addr) is b

    def add(self, b: Block) -> None:
        """Index free block ``b`` under its owner (no coalescing: see :meth:`merge`)."""
        b.state = FREE
        key = (b.stream, b.seg.kind)
        fb = self.lists.get(key)
        if fb is None:
            fb = self.lists[key] = FreeBlocks()
        bisect.insort(fb.keys, (b.size, b.addr))
        fb.blocks[b.addr] = b
        self.on_add(b)

    def remove(self, b: Block) -> None:
        fb = self.lists[(b.stream, b.seg.kind)]
        keys = fb.keys
        del keys[bisect.bisect_left(keys, (b.size, b.addr))]
        del fb.blocks[b.addr]
        self.releasable.pop(b, None)

    def merge(self, b: Block) -> Block:
        """Coalesce free block ``b`` with its free neighbours of the same owner, and with common
        ones (which ``b``'s owner takes over), and index it; returns the merged block."""
        owner = b.stream
        p = b.prev
        if p is not None and p.state == FREE and (p.stream is owner or p.stream is None):
            self.remove(p)
            absorb(p, b)
            p.stream = owner
            b = p
        n = b.next
        if n is not None and n.state == FREE and (n.stream is owner or n.stream is None):
            self.remove(n)
            absorb(b, n)
        self.add(b)
        return b

    def drop_if_empty(self, owner: Any, kind: int) -> None:
        fb = self.lists.get((owner, kind))
        if fb is not None and not fb.blocks:
            del self.lists[(owner, kind)]
