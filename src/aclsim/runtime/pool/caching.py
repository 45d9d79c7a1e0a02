"""The caching device-memory pool: size classes, best fit, split and coalesce, stream-ordered
reuse, expandable segments, an out-of-memory ladder, statistics and allocation history.

The pool serves every device allocation of the runtime.  It asks an *upstream* (the device
arena, as ``cudaMalloc``/``cuMemMap`` are for PyTorch's allocator) for large pieces of memory
and hands out blocks from them.  Nothing here knows about the runtime: streams are any object
with ``ticket()``/``reached(t)``/``wait_for(t)`` (or ``None``, a stream whose work is always
done), and the upstream is injected, so the pool is tested with a fake one.

Two ways of getting memory from the upstream (``PoolOptions.expandable_segments``):

expandable segments (default)
    Each pool (small, large) reserves a device *address range* and maps physical pages into it
    on demand (``reserve``/``map``/``unmap``, what ``cuMemAddressReserve``/``cuMemMap`` and
    AscendCL's ``aclrtReserveMemAddress``/``aclrtMapMem`` do).  A block only needs its pages
    mapped, so free memory is never stranded between live blocks: when a request needs new
    pages, pages that lie wholly inside cached free blocks are unmapped first and mapped where
    they are needed (``reuse_before_grow``), so the reserved bytes stay close to the live ones;
    a growing request is placed on the mapped pages at the end of a free block.
classic segments
    PyTorch's native scheme: 2 MiB segments for requests up to 1 MiB, 20 MiB for up to 10 MiB,
    the request rounded to 2 MiB above; blocks are carved from segments and a segment goes back
    to the upstream only when it is wholly free.

Segments belong to no stream.  A free block belongs to the stream that freed it (reused at
once by that stream) until that stream's work queued before the free is done; then, when
another stream would otherwise need the upstream, it becomes common memory that any stream
takes in place.

Hit path: a block freed on a stream goes to an exact-size free list of that stream (its size
class) and is handed out again by the next request of the same size class on the same stream
with a few dictionary operations; it is coalesced with its neighbours only when a request
misses (as the fast bins of dlmalloc/tcache).  See ``docs/memory.md`` for the design, every
option, the statistics and the figures.
"""

from __future__ import annotations

import bisect
import collections
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

from aclsim.runtime.pool.errors import AllocatorFull, InvalidRelease
from aclsim.runtime.pool.options import PoolOptions
from aclsim.runtime.pool.sizes import (
    ASCEND_PADDING,
    LARGE,
    LARGE_BUFFER,
    MIN_BLOCK,
    POOL_NAMES,
    SMALL,
    SMALL_SIZE,
    align_up,
    classic_segment_size,
    size_class,
)
from aclsim.runtime.pool.upstream import Upstream

# block states
FREE, ALLOC, CACHED, PENDING = 0, 1, 2, 3  # CACHED: in an exact-size free list, not coalesced
_STATE_NAMES = {FREE: "inactive", CACHED: "inactive", ALLOC: "active_allocated",
                PENDING: "active_awaiting_free"}

_PACKAGE_DIR = str(Path(__file__).resolve().parents[2])  # src/aclsim


class StreamLike(Protocol):
    """What the pool needs of a stream: a position in its queue and whether work got there."""

    def ticket(self) -> int:
        """An increasing number for the work submitted so far."""

    def reached(self, ticket: int) -> bool:
        """True once all the work submitted before ``ticket`` was taken has completed."""

    def wait_for(self, ticket: int) -> None:
        """Block until ``reached(ticket)``."""


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
                 "uses", "waits", "age", "frames", "ks", "rel")

    def __init__(self, addr: int, size: int, seg: Segment, prev: Block | None, next_: Block | None,
                 stream: Any, ks: _KindStats) -> None:
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
        self.frames: list[tuple[str, int, str]] | None = None
        self.ks = ks
        self.rel = 0  # free, expandable: mapped pages wholly inside the block

    def __repr__(self) -> str:
        return f"<Block 0x{self.addr:x} {self.size}B {_STATE_NAMES[self.state]}>"


class _KindStats:
    """Counters of one pool (small, large) or of both (all)."""

    __slots__ = ("n", "n_peak", "n_tot", "b", "b_peak", "b_tot", "r", "r_peak", "r_tot",
                 "pend_n", "pend_b", "act_n_peak", "act_b_peak", "seg", "seg_peak", "seg_tot",
                 "seg_freed", "res", "res_peak", "res_tot", "res_freed", "split_n_peak",
                 "split_b_peak", "split_n_tot", "split_b_tot")

    def __init__(self) -> None:
        # n: allocated blocks, b: their bytes, r: requested bytes; pend: awaiting other streams;
        # act: active (allocated + pending); seg: segments (classic) or mapped ranges; res:
        # reserved bytes; split: inactive split; *_peak / *_tot: peak and cumulative values.
        self.n: int = 0
        self.n_peak: int = 0
        self.n_tot: int = 0
        self.b: int = 0
        self.b_peak: int = 0
        self.b_tot: int = 0
        self.r: int = 0
        self.r_peak: int = 0
        self.r_tot: int = 0
        self.pend_n: int = 0
        self.pend_b: int = 0
        self.act_n_peak: int = 0
        self.act_b_peak: int = 0
        self.seg: int = 0
        self.seg_peak: int = 0
        self.seg_tot: int = 0
        self.seg_freed: int = 0
        self.res: int = 0
        self.res_peak: int = 0
        self.res_tot: int = 0
        self.res_freed: int = 0
        self.split_n_peak: int = 0
        self.split_b_peak: int = 0
        self.split_n_tot: int = 0
        self.split_b_tot: int = 0


class _FreeIndex:
    """Free blocks of one (owner stream, pool), ordered by (size, address) for best fit."""

    __slots__ = ("keys", "blocks")

    def __init__(self) -> None:
        self.keys: list[tuple[int, int]] = []
        self.blocks: dict[int, Block] = {}


def _absorb(left: Block, right: Block) -> None:
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


class CachingPool:
    """A caching allocator over an :class:`Upstream`; offsets in, offsets out.

    ``allocate(nbytes, stream)`` returns the offset of a block of at least ``nbytes`` (after
    AscendCL's padding), 512 B aligned; ``release(offset)`` gives it back.  A block freed on a
    stream is reused at once by that stream; another stream gets its memory only after the
    work queued on its stream before the free is done.

    >>> from aclsim.runtime.pool import AccountingUpstream
    >>> pool = CachingPool(AccountingUpstream(64 << 20), PoolOptions())
    >>> a = pool.allocate(1000); pool.release(a)
    >>> pool.allocate(1000) == a, pool.memory_stats()["num_device_alloc"]
    (True, 1)
    """

    def __init__(self, upstream: Upstream, options: PoolOptions | None = None, *,
                 sync: Callable[[list[tuple[Any, int]]], None] | None = None,
                 device: int = 0) -> None:
        opts = options or PoolOptions()
        self.upstream = upstream
        self.options = opts
        self.device = device
        self.page = opts.page_size or upstream.granularity
        if self.page % upstream.granularity:
            raise ValueError(f"page_size {self.page} is not a multiple of the upstream's "
                             f"{upstream.granularity} B pages")
        self.expandable = opts.expandable_segments
        self.limit = min(opts.limit or upstream.capacity, upstream.capacity)
        self._pad = ASCEND_PADDING + MIN_BLOCK - 1 if opts.ascend_padding else MIN_BLOCK - 1
        self._simple_round = opts.round_divisions == 0
        self._fast_on = opts.fast_cache
        self._sync_fn = sync or _wait_all
        self._live: dict[int, Block] = {}
        self._fast: dict[Any, dict[int, list[Block]]] = {}
        self._index: dict[tuple[Any, int], _FreeIndex] = {}
        self._pending: list[Block] = []
        self._releasable: dict[Block, None] = {}  # free expandable blocks with mapped interior pages
        self._free_segments: dict[Segment, None] = {}  # classic segments that are one free block
        self._segments: dict[Segment, None] = {}
        self._clock = 0  # ages: counts frees
        self._serial = 0
        self.all = _KindStats()
        self.kinds = (_KindStats(), _KindStats())
        self.misses = 0  # allocations that needed the upstream (hits: all the others)
        self._hits_base = 0  # reset_accumulated_stats
        self.num_device_alloc = 0
        self.num_device_free = 0
        self.num_alloc_retries = 0
        self.num_ooms = 0
        self.num_sync_all_streams = 0
        self.oversize_allocations = 0
        self.oversize_segments = 0
        self._oversize_seg_peak = 0
        # history (the debugger); None = off
        self._hist: collections.deque[tuple[Any, ...]] | None = None
        self._stacks = False
        self._t0 = time.perf_counter_ns()

    def __repr__(self) -> str:
        mode = "expandable" if self.expandable else "classic"
        return (f"<CachingPool npu:{self.device} {mode} allocated={self.all.b}B reserved={self.all.res}B "
                f"limit={self.limit}B>")

    @property
    def hits(self) -> int:
        """Allocations served without calling the upstream."""
        return self.kinds[0].n_tot + self.kinds[1].n_tot - self.misses - self._hits_base

    # --- the seam -------------------------------------------------------------------------
    @property
    def capacity(self) -> int:
        return self.upstream.capacity

    def reserved_bytes(self) -> int:
        return self.all.res

    def allocate(self, nbytes: int, stream: Any = None) -> int:
        """Offset of a block for ``nbytes`` on ``stream``; raises :class:`AllocatorFull`."""
        size = (nbytes + self._pad) & -512 if self._simple_round else self._round(nbytes)
        per = self._fast.get(stream)
        if per is not None:
            lst = per.get(size)
            if lst:
                b = lst.pop()
                b.state = 1  # ALLOC
                b.requested = nbytes
                self._live[b.addr] = b
                a = self.all
                k = b.ks
                v = a.b = a.b + size
                if v > a.b_peak:
                    a.b_peak = v
                v = a.r = a.r + nbytes
                if v > a.r_peak:
                    a.r_peak = v
                v = a.n = a.n + 1
                if v > a.n_peak:
                    a.n_peak = v
                v = k.b = k.b + size
                if v > k.b_peak:
                    k.b_peak = v
                v = k.r = k.r + nbytes
                if v > k.r_peak:
                    k.r_peak = v
                v = k.n = k.n + 1
                if v > k.n_peak:
                    k.n_peak = v
                k.b_tot += size
                k.r_tot += nbytes
                k.n_tot += 1
                if a.pend_n:
                    self._active_peaks(k)
                h = self._hist
                if h is not None:
                    if self._stacks:
                        self._trace("alloc", b.addr, size, stream)
                    else:
                        h.append(("alloc", b.addr, size, stream, _now(), None, None))
                return b.addr
        return self._allocate_slow(nbytes, size, stream)

    def release(self, offset: int, stream: Any = None) -> None:
        """Give a block back.  ``stream``: the free is also ordered after that stream's work."""
        b = self._live.pop(offset, None)
        if b is None:
            raise InvalidRelease(f"offset 0x{offset:x} is not a live block of this pool")
        size = b.size
        a = self.all
        k = b.ks
        a.b -= size
        a.r -= b.requested
        a.n -= 1
        k.b -= size
        k.r -= b.requested
        k.n -= 1
        if (stream is None or stream is b.stream) and b.uses is None and self._fast_on:
            b.state = 2  # CACHED
            per = self._fast.get(b.stream)
            if per is None:
                per = self._fast[b.stream] = {}
            lst = per.get(size)
            if lst is None:
                per[size] = [b]
            else:
                lst.append(b)
            h = self._hist
            if h is not None:
                if self._stacks:
                    self._trace("free_requested", offset, size, b.stream)
                    self._trace("free_completed", offset, size, b.stream)
                else:
                    t = _now()
                    h.append(("free_requested", offset, size, b.stream, t, None, None))
                    h.append(("free_completed", offset, size, b.stream, t, None, None))
            return
        self._release_slow(b, stream)

    def record_stream(self, offset: int, stream: Any) -> None:
        """Note that ``stream`` (not the block's own) uses the block (PyTorch's ``record_stream``)."""
        b = self._live[offset]
        if stream is b.stream or stream is None:
            return
        if b.uses is None:
            b.uses = {stream}
        else:
            b.uses.add(stream)

    def largest_free(self, done_only: bool = False) -> int:
        """The largest contiguous free range that needs no upstream call (mapped, cached);
        ``done_only``: only in free blocks any stream may take now (their stream work done)."""
        self._flush_all()
        best = 0
        for b in self._free_blocks():
            if not done_only or self._block_done(b):
                best = max(best, self._mapped_run(b))
        return best

    def available_bytes(self) -> int:
        """Free device memory as ``get_mem_info`` reports it: what one allocation is sure to
        get from the upstream, on any stream.  The limit minus the reserved bytes (cached
        memory is not free), rounded down to whole pages (expandable segments) or to the
        largest contiguous range the upstream has (classic segments).  Every request whose
        block size (:meth:`round_size`) is at most this succeeds."""
        headroom = max(self.limit - self.all.res, 0)
        if self.expandable:
            return headroom - headroom % self.page
        upstream_largest = getattr(self.upstream, "largest_free", None)
        fresh = min(headroom, upstream_largest()) if upstream_largest is not None else headroom
        return fresh - fresh % MIN_BLOCK

    def largest_allocatable(self) -> int:
        """About the largest request that could succeed now: the largest cached free range any
        stream may take, or :meth:`available_bytes`."""
        return max(self.largest_free(done_only=True), self.available_bytes())

    # --- sizes ----------------------------------------------------------------------------
    def _round(self, nbytes: int) -> int:
        opts = self.options
        return size_class(nbytes, ascend_padding=opts.ascend_padding, round_divisions=opts.round_divisions)

    def round_size(self, nbytes: int) -> int:
        """The block size a request of ``nbytes`` gets (padding and size class).

        >>> from aclsim.runtime.pool import AccountingUpstream
        >>> CachingPool(AccountingUpstream(1 << 30)).round_size(1000)
        1536
        """
        return (nbytes + self._pad) & -512 if self._simple_round else self._round(nbytes)

    # --- slow paths -----------------------------------------------------------------------
    def _allocate_slow(self, nbytes: int, size: int, stream: Any) -> int:
        if self._pending:
            self._process_pending()
        if stream in self._fast:
            self._flush(stream)
        kind = SMALL if size <= SMALL_SIZE else LARGE
        try:
            if self.expandable:
                b, hit = self._try_expandable(size, stream, kind, self.options.reuse_before_grow)
            else:
                b, hit = self._try_classic(size, stream, kind, self.options.reuse_before_grow)
        except AllocatorFull:
            # the ladder: wait for the streams that hold cached or pending memory, give back
            # everything cached, retry once; then out of memory.
            waits = self._unreached_waits()
            if waits:
                self.num_sync_all_streams += 1
                self._sync_fn(waits)
            self._process_pending()
            self.release_cached()
            self.num_alloc_retries += 1
            try:
                b, hit = self._try_allocate(size, stream, kind, True)
            except AllocatorFull:
                self.num_ooms += 1
                self._note_split_peaks()
                if self._hist is not None:
                    self._trace("oom", 0, size, stream, device_free=self.limit - self.all.res)
                raise AllocatorFull(size, requested=nbytes, allocated=self.all.b, reserved=self.all.res,
                                    limit=self.limit, largest_free=self.largest_allocatable()) from None
        if not hit:
            self.misses += 1
        b.state = ALLOC
        b.requested = nbytes
        b.stream = stream
        b.uses = None
        b.waits = None
        self._live[b.addr] = b
        size = b.size  # a classic block that was not split is larger than the request
        k = b.ks
        for s in (self.all, k):
            v = s.b = s.b + size
            if v > s.b_peak:
                s.b_peak = v
            v = s.r = s.r + nbytes
            if v > s.r_peak:
                s.r_peak = v
            v = s.n = s.n + 1
            if v > s.n_peak:
                s.n_peak = v
            if s.pend_n:
                s.act_n_peak = max(s.act_n_peak, s.n + s.pend_n)
                s.act_b_peak = max(s.act_b_peak, s.b + s.pend_b)
        k.b_tot += size
        k.r_tot += nbytes
        k.n_tot += 1
        mss = self.options.max_split_size
        if mss is not None and size >= mss:
            self.oversize_allocations += 1
        if self._hist is not None:
            self._trace("alloc", b.addr, size, stream)
        return b.addr

    def _try_allocate(self, size: int, stream: Any, kind: int, share: bool) -> tuple[Block, bool]:
        """A block from the stream's free memory or the common one; when that needs the upstream
        and ``share``, first from other streams' free memory whose work is done."""
        if self.expandable:
            return self._try_expandable(size, stream, kind, share)
        return self._try_classic(size, stream, kind, share)

    # expandable
    def _try_expandable(self, size: int, stream: Any, kind: int, share: bool) -> tuple[Block, bool]:
        b = self._mapped_fit(size, stream, kind)
        at = None
        if b is None:  # every fit needs pages: first share what other streams are done with
            if share:
                self._share_done()
            else:
                self._flush_all()  # nothing may merge into the pieces cut below while pages are found
            b, at = self._fewest_pages_fit(size, stream, kind)
            if b is None:
                b = self._new_reservation(stream, kind, size).head
                assert b is not None
        b = self._take(b, size, at)
        seg = b.seg
        mapped = seg.mapped
        assert mapped is not None
        page = seg.page
        p0 = (b.addr - seg.base) // page
        p1 = (b.addr + size - seg.base + page - 1) // page
        top = seg.top
        missing = mapped.count(0, p0, min(p1, top)) + max(0, p1 - max(p0, top))
        if missing:
            b.state = ALLOC  # not free while pages are found for it
            # the pages of the pieces it was cut from stay (the next request of a rolling
            # pattern takes them) unless the upstream refuses
            pieces = [n for n in (b.prev, b.next) if n is not None and n.state == FREE
                      and self._releasable.pop(n, 0) is None]
            try:
                self._grow(missing * page, lambda: self._map_pages(seg, p0, p1), pieces)
            except AllocatorFull:
                self._insert_free(b)
                raise
        return b, not missing

    def _missing_pages(self, seg: Segment, at: int, size: int) -> int:
        """Unmapped pages under ``[at, at + size)`` of expandable segment ``seg``."""
        mapped = seg.mapped
        assert mapped is not None
        page, top = seg.page, seg.top
        p0 = (at - seg.base) // page
        p1 = (at + size - seg.base + page - 1) // page
        return mapped.count(0, p0, min(p1, top)) + max(0, p1 - max(p0, top))

    def _mapped_fit(self, size: int, stream: Any, kind: int) -> Block | None:
        """The smaller of the first of the stream's and of the common free blocks, among the
        8 smallest that fit, whose pages under the request are all mapped."""
        best = None
        for owner in (stream, None) if stream is not None else (None,):
            idx = self._index.get((owner, kind))
            if idx is None:
                continue
            keys = idx.keys
            i = bisect.bisect_left(keys, (size, -1))
            for j in range(i, min(i + 8, len(keys))):
                b = idx.blocks[keys[j][1]]
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

    def _fewest_pages_fit(self, size: int, stream: Any, kind: int) -> tuple[Block | None, int | None]:
        """Among the 8 smallest fits (the stream's and the common ones), the block and the
        place in it that need the fewest pages mapped: ``(block, address)``."""
        best: tuple[int, int, Block | None, int | None] = (sys.maxsize, 0, None, None)
        for owner in (stream, None) if stream is not None else (None,):
            idx = self._index.get((owner, kind))
            if idx is None:
                continue
            keys = idx.keys
            i = bisect.bisect_left(keys, (size, -1))
            for j in range(i, min(i + 8, len(keys))):
                b = idx.blocks[keys[j][1]]
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
        return self._add_segment(offset, nbytes, stream, kind, expandable=True)

    def _map_pages(self, seg: Segment, p0: int, p1: int) -> None:
        mapped = seg.mapped
        assert mapped is not None
        page = seg.page
        i = mapped.find(0, p0, p1)
        while i != -1:
            j = mapped.find(1, i, p1)
            if j == -1:
                j = p1
            self._check_limit((j - i) * page)
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
        for k in (self.all, self.kinds[seg.kind]):
            self._stat_segments(k, ranges)
            if sign > 0:
                k.res += nbytes
                k.res_tot += nbytes
                k.res_peak = max(k.res_peak, k.res)
            else:
                k.res -= nbytes
                k.res_freed += nbytes
        if sign > 0:
            self.num_device_alloc += 1
        else:
            self.num_device_free += 1
        if self._hist is not None:
            self._trace("segment_map" if sign > 0 else "segment_unmap", seg.base + i * seg.page, nbytes,
                        seg.stream)

    @staticmethod
    def _stat_segments(k: _KindStats, delta: int) -> None:
        if delta > 0:
            k.seg_tot += delta
        elif delta < 0:
            k.seg_freed -= delta
        k.seg += delta
        k.seg_peak = max(k.seg_peak, k.seg)

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
        self._set_rel(b)
        return freed

    def _set_rel(self, b: Block) -> None:
        """Recount the mapped pages wholly inside free expandable block ``b``."""
        seg = b.seg
        mapped = seg.mapped
        if mapped is None or b.state != FREE:
            return
        page = seg.page
        p0 = (b.addr - seg.base + page - 1) // page
        p1 = min((b.addr + b.size - seg.base) // page, seg.top)
        b.rel = mapped.count(1, p0, p1) if p0 < p1 else 0
        if b.rel:
            self._releasable[b] = None
        else:
            self._releasable.pop(b, None)

    def _mapped_run(self, b: Block) -> int:
        """Bytes of the longest mapped stretch of free block ``b``."""
        seg = b.seg
        mapped = seg.mapped
        if mapped is None:
            return b.size
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

    # classic
    def _try_classic(self, size: int, stream: Any, kind: int, share: bool) -> tuple[Block, bool]:
        b = self._classic_fit(size, stream, kind)
        if b is None and share:
            self._share_done()
            b = self._classic_fit(size, stream, kind)
        hit = b is not None
        if b is None:
            seg_size = classic_segment_size(size)
            holder: list[Segment] = []

            def get() -> None:
                # PyTorch's segment size, or, when that does not fit, one just for the request
                for n in (seg_size, size) if size < seg_size else (seg_size,):
                    try:
                        self._check_limit(n)
                        holder.append(self._add_segment(self.upstream.malloc(n), n, stream, kind,
                                                        expandable=False))
                        return
                    except AllocatorFull:
                        if n == size:
                            raise

            self._grow(seg_size, get)
            seg = holder[0]
            for k in (self.all, self.kinds[kind]):
                self._stat_segments(k, 1)
                k.res += seg.size
                k.res_tot += seg.size
                k.res_peak = max(k.res_peak, k.res)
            self.num_device_alloc += 1
            mss = self.options.max_split_size
            if mss is not None and seg.size >= mss:
                self.oversize_segments += 1
            if self._hist is not None:
                self._trace("segment_alloc", seg.base, seg.size, stream)
            b = seg.head
            assert b is not None
        return self._take(b, size), hit

    def _classic_fit(self, size: int, stream: Any, kind: int) -> Block | None:
        """Best fit among the stream's and the common free blocks (PyTorch's oversize rules)."""
        best = None
        mss = self.options.max_split_size
        for owner in (stream, None) if stream is not None else (None,):
            idx = self._index.get((owner, kind))
            if idx is None:
                continue
            i = bisect.bisect_left(idx.keys, (size, -1))
            if i == len(idx.keys) or (best is not None and idx.keys[i][0] >= best.size):
                continue
            b = idx.blocks[idx.keys[i][1]]
            # small requests never take oversize blocks, oversize ones no block 20 MiB larger
            if mss is not None and (size < mss <= b.size or mss <= size <= b.size - LARGE_BUFFER):
                continue
            best = b
        return best

    def _add_segment(self, offset: int, nbytes: int, stream: Any, kind: int, *, expandable: bool) -> Segment:
        self._serial += 1
        seg = Segment(offset, nbytes, stream, kind, self.page, expandable, self._serial)
        b = Block(offset, nbytes, seg, None, None, None, self.kinds[kind])  # common memory
        seg.head = b
        self._segments[seg] = None
        self._index_free(b)
        return seg

    # block list maintenance
    def _should_split(self, b: Block, size: int) -> bool:
        rest = b.size - size
        if self.expandable or b.seg.kind == SMALL:
            return rest >= MIN_BLOCK
        mss = self.options.max_split_size
        if mss is not None and b.size >= mss:
            return False
        return rest > SMALL_SIZE

    def _cut(self, b: Block, at: int) -> Block:
        """Split block ``b`` (not indexed) at address ``at``: returns the block from ``at``."""
        rest = Block(at, b.addr + b.size - at, b.seg, b, b.next, b.stream, b.ks)
        rest.ticket = b.ticket
        rest.age = b.age
        if b.next is not None:
            b.next.prev = rest
        b.next = rest
        b.size = at - b.addr
        return rest

    def _take(self, b: Block, size: int, at: int | None = None) -> Block:
        """Allocate ``size`` bytes of free block ``b`` from its front, or from address ``at``
        (the pieces before and after stay free); returns the allocated block."""
        self._unindex(b)
        if at is not None and at > b.addr:
            front, b = b, self._cut(b, at)
            self._index_free(front)
        if (b.size - size >= MIN_BLOCK) if self.expandable else self._should_split(b, size):
            rest = Block(b.addr + size, b.size - size, b.seg, b, b.next, b.stream, b.ks)
            rest.ticket = b.ticket
            rest.age = b.age
            if b.next is not None:
                b.next.prev = rest
            b.next = rest
            b.size = size
            self._index_free(rest)
        return b

    def _index_free(self, b: Block) -> None:
        b.state = FREE
        seg = b.seg
        idx = self._index.get((b.stream, seg.kind))
        if idx is None:
            idx = self._index[(b.stream, seg.kind)] = _FreeIndex()
        bisect.insort(idx.keys, (b.size, b.addr))
        idx.blocks[b.addr] = b
        if seg.mapped is not None:
            self._set_rel(b)
        elif b.prev is None and b.next is None:
            self._free_segments[seg] = None

    def _unindex(self, b: Block) -> None:
        idx = self._index[(b.stream, b.seg.kind)]
        keys = idx.keys
        del keys[bisect.bisect_left(keys, (b.size, b.addr))]
        del idx.blocks[b.addr]
        self._releasable.pop(b, None)
        if b.prev is None and b.next is None:
            self._free_segments.pop(b.seg, None)

    def _insert_free(self, b: Block) -> Block:
        """Coalesce free block ``b`` with its free neighbours of the same owner, and with common
        ones (which ``b``'s owner takes over), and index it; returns the merged block."""
        owner = b.stream
        p = b.prev
        if p is not None and p.state == FREE and (p.stream is owner or p.stream is None):
            self._unindex(p)
            _absorb(p, b)
            p.stream = owner
            b = p
        n = b.next
        if n is not None and n.state == FREE and (n.stream is owner or n.stream is None):
            self._unindex(n)
            _absorb(b, n)
        self._index_free(b)
        return b

    def _share_done(self) -> None:
        """Free blocks whose stream work is done become common memory: any stream may take
        them in place (cudaMallocAsync's opportunistic reuse), no upstream call needed."""
        self._flush_all()
        for (owner, _), idx in list(self._index.items()):
            if owner is None:
                continue
            for b in list(idx.blocks.values()):
                if b.state == FREE and b.stream is owner and owner.reached(b.ticket):
                    self._unindex(b)
                    b.stream = None
                    b.ticket = 0
                    self._insert_free(b)

    def _release_slow(self, b: Block, stream: Any) -> None:
        if self._hist is not None:
            self._trace("free_requested", b.addr, b.size, b.stream)
        uses = set(b.uses or ())
        if stream is not None and stream is not b.stream:
            uses.add(stream)
        waits = [(s, s.ticket()) for s in uses if s is not None]
        waits = [(s, t) for s, t in waits if not s.reached(t)]
        b.uses = None
        self._clock += 1
        b.age = self._clock
        b.ticket = b.stream.ticket() if b.stream is not None else 0
        if waits:
            b.state = PENDING
            b.waits = waits
            self._pending.append(b)
            for k in (self.all, b.ks):
                k.pend_n += 1
                k.pend_b += b.size
            self._active_peaks(b.ks)
            return
        if self._fast_on:  # every other stream that used it is done: the hit path may reuse it
            if self._hist is not None:
                self._trace("free_completed", b.addr, b.size, b.stream)
            b.state = CACHED
            per = self._fast.get(b.stream)
            if per is None:
                per = self._fast[b.stream] = {}
            per.setdefault(b.size, []).append(b)
            return
        self._complete_free(b)

    def _complete_free(self, b: Block) -> None:
        if self._hist is not None:
            self._trace("free_completed", b.addr, b.size, b.stream)
        self._insert_free(b)

    def _process_pending(self) -> None:
        if not self._pending:
            return
        keep: list[Block] = []
        for b in self._pending:
            waits = b.waits or []
            if all(s.reached(t) for s, t in waits):
                b.waits = None
                for k in (self.all, b.ks):
                    k.pend_n -= 1
                    k.pend_b -= b.size
                self._complete_free(b)
            else:
                keep.append(b)
        self._pending = keep

    def _flush(self, stream: Any) -> None:
        """Coalesce the blocks of ``stream``'s exact-size free lists into its free index."""
        per = self._fast.pop(stream, None)
        if not per:
            return
        ticket = stream.ticket() if stream is not None else 0
        for lst in per.values():
            for b in lst:
                self._clock += 1
                b.age = self._clock
                b.ticket = ticket  # conservative: all the work submitted until now
                self._insert_free(b)

    def _flush_all(self) -> None:
        for stream in list(self._fast):
            self._flush(stream)

    # --- growth, release, the OOM ladder ----------------------------------------------------
    def _check_limit(self, nbytes: int) -> None:
        if self.all.res + nbytes > self.limit:
            raise AllocatorFull(nbytes)

    def _grow(self, nbytes: int, get: Callable[[], None], kept: Iterable[Block] = ()) -> None:
        """Get ``nbytes`` more from the upstream with ``get``; cached memory goes back first
        (``reuse_before_grow``), and everything cached when the upstream or the limit says no.
        The free blocks ``kept`` (out of the releasable set) give their pages only then."""
        if self.options.reuse_before_grow:
            self._reclaim(nbytes)
        try:
            get()
        except AllocatorFull:
            self.num_alloc_retries += 1  # PyTorch: a failed device allocation, cache flush and retry
            self._keep_back(kept)
            self._reclaim(None)
            get()  # AllocatorFull from here goes to the caller's ladder
        else:
            self._keep_back(kept)

    def _keep_back(self, blocks: Iterable[Block]) -> None:
        for b in blocks:
            idx = self._index.get((b.stream, b.seg.kind))
            if idx is not None and idx.blocks.get(b.addr) is b:
                self._set_rel(b)

    def _block_done(self, b: Block) -> bool:
        s = b.stream
        return s is None or s.reached(b.ticket)

    def _reclaim(self, need: int | None) -> int:
        """Give back up to ``need`` bytes (``None``: all) of cached memory whose stream work is
        done, oldest first (all of it: after sharing other streams' done blocks, so that pages
        between two of them go back too).  Returns the bytes given back."""
        if need is None:
            self._share_done()
        else:
            self._flush_all()
        freed = 0
        if self.expandable:
            for b in list(self._releasable):
                if need is not None and freed >= need:
                    break
                if self._block_done(b):
                    freed += self._unmap_block_pages(b, None if need is None else need - freed)
        else:
            for seg in list(self._free_segments):
                if need is not None and freed >= need:
                    break
                head = seg.head
                assert head is not None
                if self._block_done(head):
                    freed += self._free_segment(seg)
        return freed

    def _free_segment(self, seg: Segment) -> int:
        b = seg.head
        assert b is not None and b.prev is None and b.next is None and b.state == FREE
        self._unindex(b)
        self.upstream.free(seg.base, seg.size)
        del self._segments[seg]
        for k in (self.all, self.kinds[seg.kind]):
            self._stat_segments(k, -1)
            k.res -= seg.size
            k.res_freed += seg.size
        self.num_device_free += 1
        mss = self.options.max_split_size
        if mss is not None and seg.size >= mss:
            self.oversize_segments -= 1
        if self._hist is not None:
            self._trace("segment_free", seg.base, seg.size, seg.stream)
        return seg.size

    def _unreached_waits(self) -> list[tuple[Any, int]]:
        waits: dict[Any, int] = {}
        for b in self._pending:
            for s, t in b.waits or []:
                waits[s] = max(waits.get(s, 0), t)
        self._flush_all()
        for b in self._free_blocks():
            if not self._block_done(b):
                waits[b.stream] = max(waits.get(b.stream, 0), b.ticket)
        return list(waits.items())

    def release_cached(self) -> int:
        """Give every cached byte whose stream work is done back to the upstream; with
        expandable segments also drop address ranges that hold nothing.  Returns bytes freed."""
        freed = self._reclaim(None)
        self._drop_empty_reservations(list(self._segments))
        return freed

    def _drop_empty_reservations(self, segments: list[Segment]) -> None:
        for seg in segments:
            b = seg.head
            if (seg.mapped is not None and b is not None and b.next is None and b.state == FREE
                    and seg.mapped.count(1, 0, seg.top) == 0):
                self._unindex(b)
                del self._segments[seg]
                self.upstream.unreserve(seg.base, seg.size)

    def empty_cache(self) -> int:
        """Wait for the streams that hold freed memory, then give all cached memory back.

        Returns the bytes given back to the upstream.
        """
        waits = self._unreached_waits()
        if waits:
            self.num_sync_all_streams += 1
            self._sync_fn(waits)
        self._process_pending()
        self._note_split_peaks()
        return self.release_cached()

    def set_limit(self, nbytes: int | None) -> None:
        """Cap reserved bytes at ``nbytes`` (``None``: the upstream's capacity).  Cached memory
        above the new cap is given back at once; live memory is never touched."""
        if nbytes is not None and nbytes <= 0:
            raise ValueError(f"a memory limit must be > 0, got {nbytes}")
        self.limit = min(nbytes or self.upstream.capacity, self.upstream.capacity)
        if self.all.res > self.limit:
            self._share_done()
            self._reclaim(self.all.res - self.limit)

    def drop_stream(self, stream: Any) -> None:
        """The stream is gone: its free memory whose work is done becomes common and goes back
        to the upstream.  Its live blocks stay and come back to the pool when freed."""
        self._flush(stream)
        for kind in (SMALL, LARGE):
            idx = self._index.get((stream, kind))
            if idx is None:
                continue
            for b in list(idx.blocks.values()):
                if b.stream is not stream or not self._block_done(b):
                    continue
                self._unindex(b)
                b.stream = None
                b.ticket = 0
                b = self._insert_free(b)
                if self.expandable:
                    if b.rel:
                        self._unmap_block_pages(b)
                elif b.prev is None and b.next is None:
                    self._free_segment(b.seg)
            if not idx.blocks:
                del self._index[(stream, kind)]
        self._drop_empty_reservations(list(self._segments))

    # --- statistics -------------------------------------------------------------------------
    def _active_peaks(self, k: _KindStats) -> None:
        for s in (self.all, k):
            v = s.n + s.pend_n
            if v > s.act_n_peak:
                s.act_n_peak = v
            v = s.b + s.pend_b
            if v > s.act_b_peak:
                s.act_b_peak = v

    def _free_blocks(self) -> Iterable[Block]:
        for idx in self._index.values():
            yield from idx.blocks.values()

    def _split_state(self) -> tuple[list[int], list[int]]:
        """Inactive split (count, bytes) per pool: free memory that cannot go back to the
        upstream: free blocks of split classic segments; free mapped bytes of expandable
        segments that share a page with an active block."""
        counts, nbytes = [0, 0], [0, 0]
        for fl in self._fast.values():
            for lst in fl.values():
                for b in lst:
                    counts[b.seg.kind] += 1
                    nbytes[b.seg.kind] += b.size
        for b in self._free_blocks():
            kind = b.seg.kind
            if b.seg.mapped is None:
                if b.prev is not None or b.next is not None:
                    counts[kind] += 1
                    nbytes[kind] += b.size
            else:
                stuck = self._mapped_bytes(b) - b.rel * b.seg.page
                if stuck > 0:
                    counts[kind] += 1
                    nbytes[kind] += stuck
        return counts, nbytes

    def _mapped_bytes(self, b: Block) -> int:
        seg = b.seg
        mapped = seg.mapped
        if mapped is None:
            return b.size
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

    def _note_split_peaks(self) -> tuple[list[int], list[int]]:
        counts, nbytes = self._split_state()
        for k, n, b in ((self.kinds[SMALL], counts[0], nbytes[0]), (self.kinds[LARGE], counts[1], nbytes[1]),
                        (self.all, sum(counts), sum(nbytes))):
            k.split_n_peak = max(k.split_n_peak, n)
            k.split_b_peak = max(k.split_b_peak, b)
        return counts, nbytes

    def memory_stats(self) -> dict[str, Any]:
        """A superset of ``torch.cuda.memory_stats()``: ``family.pool.metric`` keys for the
        families allocation, allocated_bytes, requested_bytes, active, active_bytes,
        inactive_split, inactive_split_bytes, segment, reserved_bytes (pools all, small_pool,
        large_pool; metrics current, peak, allocated, freed), PyTorch's counters, and aclsim's
        extras (hit rate, fragmentation, limit, ...).  ``docs/memory.md`` defines each."""
        self._flush_all()
        counts, nbytes = self._note_split_peaks()
        small, large = self.kinds
        stats: dict[str, Any] = {}

        def put(family: str, values: list[tuple[int, int, int, int]]) -> None:
            for pool, (cur, peak, alloc, freed) in zip(("all", "small_pool", "large_pool"), values,
                                                       strict=True):
                stats[f"{family}.{pool}.current"] = cur
                stats[f"{family}.{pool}.peak"] = peak
                stats[f"{family}.{pool}.allocated"] = alloc
                stats[f"{family}.{pool}.freed"] = freed

        def fam(cur: str, peak: str, tot: str) -> list[tuple[int, int, int, int]]:
            out = []
            for k, parts in ((self.all, (small, large)), (small, (small,)), (large, (large,))):
                c = getattr(k, cur)
                t = sum(getattr(p, tot) for p in parts)
                out.append((c, getattr(k, peak), t, t - c))
            return out

        put("allocation", fam("n", "n_peak", "n_tot"))
        put("allocated_bytes", fam("b", "b_peak", "b_tot"))
        put("requested_bytes", fam("r", "r_peak", "r_tot"))
        act_n, act_b = [], []
        for k, parts in ((self.all, (small, large)), (small, (small,)), (large, (large,))):
            n_tot = sum(p.n_tot for p in parts)
            b_tot = sum(p.b_tot for p in parts)
            cur_n, cur_b = k.n + k.pend_n, k.b + k.pend_b
            act_n.append((cur_n, max(k.act_n_peak, k.n_peak, cur_n), n_tot, n_tot - cur_n))
            act_b.append((cur_b, max(k.act_b_peak, k.b_peak, cur_b), b_tot, b_tot - cur_b))
        put("active", act_n)
        put("active_bytes", act_b)
        split_n = [(sum(counts), self.all.split_n_peak), (counts[0], small.split_n_peak),
                   (counts[1], large.split_n_peak)]
        split_b = [(sum(nbytes), self.all.split_b_peak), (nbytes[0], small.split_b_peak),
                   (nbytes[1], large.split_b_peak)]
        put("inactive_split", [(c, p, 0, 0) for c, p in split_n])
        put("inactive_split_bytes", [(c, p, 0, 0) for c, p in split_b])
        put("segment", [(k.seg, k.seg_peak, k.seg_tot, k.seg_freed) for k in (self.all, small, large)])
        put("reserved_bytes", [(k.res, k.res_peak, k.res_tot, k.res_freed) for k in (self.all, small, large)])
        allocs = self.hits + self.misses
        free_total = self.all.res - (self.all.b + self.all.pend_b)
        largest = self.largest_free()
        stats.update({
            "num_alloc_retries": self.num_alloc_retries,
            "num_ooms": self.num_ooms,
            "num_sync_all_streams": self.num_sync_all_streams,
            "num_device_alloc": self.num_device_alloc,
            "num_device_free": self.num_device_free,
            "max_split_size": -1 if self.options.max_split_size is None else self.options.max_split_size,
            "oversize_allocations.current": sum(1 for b in self._live.values() if self._oversize(b)),
            "oversize_allocations.allocated": self.oversize_allocations,
            "oversize_segments.current": self.oversize_segments,
            # aclsim's extras
            "num_hits": self.hits,
            "num_misses": self.misses,
            "hit_rate": self.hits / allocs if allocs else 1.0,
            "free_bytes": free_total,
            "largest_free_bytes": largest,
            "fragmentation": 1.0 - largest / free_total if free_total > 0 else 0.0,
            "pending_frees": self.all.pend_n,
            "limit_bytes": self.limit,
            "capacity_bytes": self.upstream.capacity,
            "page_size": self.page,
            "expandable_segments": self.expandable,
        })
        return stats

    def _oversize(self, b: Block) -> bool:
        mss = self.options.max_split_size
        return mss is not None and b.size >= mss

    def reset_peak_stats(self) -> None:
        """Peaks restart from the current values (``reset_peak_memory_stats``)."""
        counts, nbytes = self._split_state()
        for k, n, b in ((self.kinds[SMALL], counts[0], nbytes[0]), (self.kinds[LARGE], counts[1], nbytes[1]),
                        (self.all, sum(counts), sum(nbytes))):
            k.n_peak, k.b_peak, k.r_peak = k.n, k.b, k.r
            k.act_n_peak, k.act_b_peak = k.n + k.pend_n, k.b + k.pend_b
            k.seg_peak, k.res_peak = k.seg, k.res
            k.split_n_peak, k.split_b_peak = n, b

    def reset_accumulated_stats(self) -> None:
        """Cumulative counters (allocated, freed, num_*) restart from zero."""
        for k in (self.all, *self.kinds):
            k.n_tot, k.b_tot, k.r_tot = k.n, k.b, k.r
            k.seg_tot, k.seg_freed, k.res_tot, k.res_freed = k.seg, 0, k.res, 0
        self.misses = 0
        self._hits_base = self.kinds[0].n_tot + self.kinds[1].n_tot
        self.num_device_alloc = self.num_device_free = 0
        self.num_alloc_retries = self.num_ooms = self.num_sync_all_streams = 0
        self.oversize_allocations = 0

    # --- the debugger: history -------------------------------------------------------------
    def record_history(self, enabled: bool = True, *, stacks: bool = False, max_entries: int = 100_000,
                       clear: bool = False) -> None:
        """Keep the last ``max_entries`` allocator events (alloc, free_requested,
        free_completed, segment_alloc/free/map/unmap, oom) in a ring buffer; ``stacks`` adds
        the Python frames of each event (outside aclsim)."""
        if not enabled:
            self._hist = None
            return
        if max_entries <= 0:
            raise ValueError(f"max_entries must be > 0, got {max_entries}")
        old = [] if clear or self._hist is None else list(self._hist)
        self._hist = collections.deque(old, maxlen=max_entries)
        self._stacks = stacks

    @property
    def history_enabled(self) -> bool:
        return self._hist is not None

    def _trace(self, action: str, addr: int, size: int, stream: Any, **extra: int) -> None:
        assert self._hist is not None
        frames = _user_frames() if self._stacks else None
        self._hist.append((action, addr, size, stream, time.perf_counter_ns(), frames, extra or None))

    def history(self) -> list[tuple[Any, ...]]:
        """The recorded events, oldest first: ``(action, offset, size, stream, time_ns,
        frames, extra)``."""
        return list(self._hist or ())

    # --- introspection ------------------------------------------------------------------------
    def live_blocks(self) -> list[Block]:
        return list(self._live.values())

    def block_at(self, offset: int) -> Block | None:
        return self._live.get(offset)

    def segments(self) -> list[Segment]:
        self._flush_all()
        return sorted(self._segments, key=lambda s: s.base)

    def blocks_of(self, seg: Segment) -> list[Block]:
        out = []
        b = seg.head
        while b is not None:
            out.append(b)
            b = b.next
        return out

    def mapped_bytes_of(self, b: Block) -> int:
        return self._mapped_bytes(b) if b.state in (FREE, CACHED) else b.size

    def mapped_ranges(self, seg: Segment) -> list[tuple[int, int]]:
        """``(offset, nbytes)`` of the backed ranges of a segment (the whole of a classic one)."""
        if seg.mapped is None:
            return [(seg.base, seg.size)]
        out = []
        mapped = seg.mapped
        i = mapped.find(1)
        while i != -1:
            j = mapped.find(0, i)
            if j == -1:
                j = len(mapped)
            out.append((seg.base + i * seg.page, (j - i) * seg.page))
            i = mapped.find(1, j)
        return out

    def check(self) -> None:
        """Assert the pool's invariants (tests): blocks tile their segments, no two live
        blocks overlap, free neighbours are merged, counters match the blocks."""
        self_b = self_r = 0
        res = 0

        for seg in self._segments:
            b = seg.head
            assert b is not None and b.prev is None
            pos = seg.base
            while b is not None:
                assert b.addr == pos and b.size > 0 and b.seg is seg, (b, pos)
                if b.state == FREE:
                    idx = self._index.get((b.stream, seg.kind))
                    assert idx is not None and idx.blocks.get(b.addr) is b, "free block not indexed"
                    assert b.stream is not None or b.ticket == 0
                    # only free blocks of two owners stay apart (one of them may be common)
                    assert b.next is None or b.next.state != FREE or b.next.stream is not b.stream
                if seg.mapped is not None and b.next is not None and (b.next.addr - seg.base) % seg.page:
                    # a page that two blocks share is mapped: a request at a block's front
                    # needs at most ceil(size / page) new pages
                    assert seg.mapped[(b.next.addr - seg.base) // seg.page], "shared page unmapped"
                if b.state == ALLOC:
                    assert self._live.get(b.addr) is b
                    self_b += b.size
                    self_r += b.requested
                    if seg.mapped is not None:
                        p0 = (b.addr - seg.base) // seg.page
                        p1 = (b.addr + b.size - seg.base + seg.page - 1) // seg.page
                        assert seg.mapped.count(0, p0, p1) == 0, "allocated block on unmapped pages"
                pos += b.size
                b = b.next
            assert pos == seg.base + seg.size
            res += seg.size if seg.mapped is None else seg.mapped.count(1) * seg.page
        assert self_b == self.all.b and self_r == self.all.r, (self_b, self.all.b)
        assert len(self._live) == self.all.n
        assert res == self.all.res, (res, self.all.res)


_now = time.perf_counter_ns


def _wait_all(waits: list[tuple[Any, int]]) -> None:
    for stream, ticket in waits:
        stream.wait_for(ticket)


def _user_frames(limit: int = 16) -> list[tuple[str, int, str]]:
    """``(filename, line, function)`` of the calling frames outside aclsim, innermost first."""
    out: list[tuple[str, int, str]] = []
    frame = sys._getframe(2)
    while frame is not None and len(out) < limit:
        code = frame.f_code
        if not code.co_filename.startswith(_PACKAGE_DIR):
            out.append((code.co_filename, frame.f_lineno, code.co_name))
        frame = frame.f_back  # type: ignore[assignment]
    return out
