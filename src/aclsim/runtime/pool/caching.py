"""The pool's policy: :class:`CachingPool`.

The hit path (exact-size free lists per stream), stream-ordered frees (pending frees, tickets,
other streams' done memory shared in place), growth (what goes back before the upstream is
asked for more), the out-of-memory ladder, and the entry points of the statistics and the
history.  Where blocks come from is the segment source's business (:mod:`.expandable`,
:mod:`.classic`); blocks and the free index are :mod:`.blocks`, the counters :mod:`.stats`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from aclsim.runtime.pool.blocks import ALLOC, CACHED, FREE, PENDING, Block, Segment, done
from aclsim.runtime.pool.classic import ClassicSource
from aclsim.runtime.pool.errors import AllocatorFull, InvalidRelease
from aclsim.runtime.pool.expandable import ExpandableSource
from aclsim.runtime.pool.history import Event, History, PoolObserver, now, user_frames
from aclsim.runtime.pool.options import PoolOptions
from aclsim.runtime.pool.sizes import ASCEND_PADDING, LARGE, MIN_BLOCK, SMALL, SMALL_SIZE, size_class
from aclsim.runtime.pool.source import SegmentSource
from aclsim.runtime.pool.stats import PoolStats
from aclsim.runtime.pool.upstream import Upstream

__all__ = ["CachingPool", "StreamLike"]


class StreamLike(Protocol):
    """What the pool needs of a stream: a position in its queue and whether work got there."""

    def ticket(self) -> int:
        """An increasing number for the work submitted so far."""

    def reached(self, ticket: int) -> bool:
        """True once all the work submitted before ``ticket`` was taken has completed."""

    def wait_for(self, ticket: int) -> None:
        """Block until ``reached(ticket)``."""


def _counter(name: str) -> Any:
    """A read-only attribute of the pool: the counter ``name`` of its :class:`PoolStats`."""
    return property(lambda pool: getattr(pool.stats, name), doc=f"``stats.{name}``")


class CachingPool:
    """A caching allocator over an :class:`Upstream`; offsets in, offsets out.

    ``allocate(nbytes, stream)`` returns the offset of a block of at least ``nbytes`` (after
    AscendCL's padding), 512 B aligned; ``release(offset)`` gives it back.  A block freed on a
    stream is reused at once by that stream; another stream gets its memory only after the
    work queued on its stream before the free is done.  Streams are any object with
    ``ticket()``/``reached(t)``/``wait_for(t)`` (:class:`StreamLike`), or ``None``, a
    stream whose work is always done.

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
        self.stats = PoolStats()
        self.all = self.stats.all  # the counters the hit path updates, of both pools ...
        self.kinds = self.stats.kinds  # ... and of each (small, large)
        source_type = ExpandableSource if self.expandable else ClassicSource
        self.source: SegmentSource = source_type(
            upstream, opts, self.stats, page=self.page, limit=min(opts.limit or upstream.capacity,
                                                                  upstream.capacity))
        self._free = self.source.free
        self._pad = ASCEND_PADDING + MIN_BLOCK - 1 if opts.ascend_padding else MIN_BLOCK - 1
        self._simple_round = opts.round_divisions == 0
        self._fast_on = opts.fast_cache
        self._sync_fn = sync or _wait_all
        self._live: dict[int, Block] = {}
        self._fast: dict[Any, dict[int, list[Block]]] = {}  # {stream: {size: [cached blocks]}}
        self._pending: list[Block] = []
        self._clock = 0  # ages: counts frees
        self._obs: PoolObserver | None = None
        self._hist: Callable[[Event], None] | None = None  # the observer's append (the hit path's)
        self._stacks = False  # the observer's stacks
        self.t0 = time.perf_counter_ns()  # history times are relative to the pool's creation

    def __repr__(self) -> str:
        mode = "expandable" if self.expandable else "classic"
        return (f"<CachingPool npu:{self.device} {mode} allocated={self.all.b}B reserved={self.all.res}B "
                f"limit={self.limit}B>")

    @property
    def limit(self) -> int:
        """The cap on reserved bytes (:meth:`set_limit`)."""
        return self.source.limit

    @property
    def hits(self) -> int:
        """Allocations served without calling the upstream."""
        return self.stats.hits

    misses = _counter("misses")
    num_device_alloc = _counter("num_device_alloc")
    num_device_free = _counter("num_device_free")
    num_alloc_retries = _counter("num_alloc_retries")
    num_ooms = _counter("num_ooms")
    num_sync_all_streams = _counter("num_sync_all_streams")
    oversize_allocations = _counter("oversize_allocations")
    oversize_segments = _counter("oversize_segments")

    @property
    def observer(self) -> PoolObserver | None:
        """Told of every allocator event (:meth:`record_history` installs a :class:`History`)."""
        return self._obs

    @observer.setter
    def observer(self, obs: PoolObserver | None) -> None:
        self._obs = obs
        self._hist = obs.append if obs is not None else None
        self._stacks = obs.stacks if obs is not None else False
        self.source.observer = obs

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
                    self.stats.active_peaks(k)
                h = self._hist
                if h is not None:
                    if self._stacks:
                        self._trace("alloc", b.addr, size, stream)
                    else:
                        h(("alloc", b.addr, size, stream, now(), None, None))
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
                    t = now()
                    h(("free_requested", offset, size, b.stream, t, None, None))
                    h(("free_completed", offset, size, b.stream, t, None, None))
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
        run = self.source.mapped_run
        for b in self._free.blocks():
            if not done_only or done(b):
                best = max(best, run(b))
        return best

    def available_bytes(self) -> int:
        """Free device memory as ``get_mem_info`` reports it: what one allocation is sure to
        get from the upstream, on any stream.  The limit minus the reserved bytes (cached
        memory is not free), rounded down to whole pages (expandable segments) or to the
        largest contiguous range the upstream has (classic segments).  Every request whose
        block size (:meth:`round_size`) is at most this succeeds."""
        return self.source.available(max(self.limit - self.all.res, 0))

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

    # --- allocation: the slow path and the out-of-memory ladder ------------------------------
    def _allocate_slow(self, nbytes: int, size: int, stream: Any) -> int:
        if self._pending:
            self._process_pending()
        if stream in self._fast:
            self._flush(stream)
        kind = SMALL if size <= SMALL_SIZE else LARGE
        try:
            b, hit = self._try_allocate(size, stream, kind, self.options.reuse_before_grow)
        except AllocatorFull:
            b, hit = self._last_resort(nbytes, size, stream, kind)
        if not hit:
            self.stats.misses += 1
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
            self.stats.oversize_allocations += 1
        if self._hist is not None:
            self._trace("alloc", b.addr, size, stream)
        return b.addr

    def _last_resort(self, nbytes: int, size: int, stream: Any, kind: int) -> tuple[Block, bool]:
        """The ladder: wait for the streams that hold cached or pending memory, give back
        everything cached, retry once; then out of memory."""
        self._wait_for_streams()
        self.release_cached()
        self.stats.num_alloc_retries += 1
        try:
            return self._try_allocate(size, stream, kind, True)
        except AllocatorFull:
            self.stats.num_ooms += 1
            self._note_split_peaks()
            if self._hist is not None:
                self._trace("oom", 0, size, stream, {"device_free": self.limit - self.all.res})
            raise AllocatorFull(size, requested=nbytes, allocated=self.all.b, reserved=self.all.res,
                                limit=self.limit, largest_free=self.largest_allocatable()) from None

    def _try_allocate(self, size: int, stream: Any, kind: int, share: bool) -> tuple[Block, bool]:
        """A block from the stream's free memory or the common one; when that needs the upstream
        and ``share``, first from other streams' free memory whose work is done."""
        src = self.source
        b = src.fit(size, stream, kind)
        if b is not None:
            return src.take(b, size), True
        if share:
            self._share_done()
        elif src.flush_before_growth:
            self._flush_all()
        return src.obtain(size, stream, kind, self._grow)

    def _grow(self, nbytes: int, get: Callable[[], None], kept: Iterable[Block] = ()) -> None:
        """Get ``nbytes`` more from the upstream with ``get``; cached memory goes back first
        (``reuse_before_grow``), and everything cached when the upstream or the limit says no.
        The free blocks ``kept`` (out of the source's releasable ones) give their pages only then."""
        if self.options.reuse_before_grow:
            self._reclaim(nbytes)
        try:
            get()
        except AllocatorFull:
            self.stats.num_alloc_retries += 1  # PyTorch: a failed device allocation, cache flush and retry
            self.source.keep_back(kept)
            self._reclaim(None)
            get()  # AllocatorFull from here goes to the caller's ladder
        else:
            self.source.keep_back(kept)

    def _reclaim(self, need: int | None) -> int:
        """Give back up to ``need`` bytes (``None``: all) of cached memory whose stream work is
        done, oldest first (all of it: after sharing other streams' done blocks, so that pages
        between two of them go back too).  Returns the bytes given back."""
        if need is None:
            self._share_done()
        else:
            self._flush_all()
        return self.source.give_back(need)

    def _share_done(self) -> None:
        """Free blocks whose stream work is done become common memory: any stream may take
        them in place (cudaMallocAsync's opportunistic reuse), no upstream call needed."""
        self._flush_all()
        free = self._free
        for (owner, _), fb in list(free.lists.items()):
            if owner is None:
                continue
            for b in list(fb.blocks.values()):
                if b.state == FREE and b.stream is owner and owner.reached(b.ticket):
                    free.remove(b)
                    b.stream = None
                    b.ticket = 0
                    free.merge(b)

    # --- frees ------------------------------------------------------------------------------
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
            self.stats.active_peaks(b.ks)
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
        self._free.merge(b)

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
        merge = self._free.merge
        for lst in per.values():
            for b in lst:
                self._clock += 1
                b.age = self._clock
                b.ticket = ticket  # conservative: all the work submitted until now
                merge(b)

    def _flush_all(self) -> None:
        for stream in list(self._fast):
            self._flush(stream)

    # --- giving memory back -------------------------------------------------------------------
    def _wait_for_streams(self) -> None:
        """Wait for every stream that holds pending frees or free blocks whose work is not
        done, then complete the pending frees."""
        waits: dict[Any, int] = {}
        for b in self._pending:
            for s, t in b.waits or []:
                waits[s] = max(waits.get(s, 0), t)
        self._flush_all()
        for b in self._free.blocks():
            if not done(b):
                waits[b.stream] = max(waits.get(b.stream, 0), b.ticket)
        if waits:
            self.stats.num_sync_all_streams += 1
            self._sync_fn(list(waits.items()))
        self._process_pending()

    def release_cached(self) -> int:
        """Give every cached byte whose stream work is done back to the upstream; with
        expandable segments also drop address ranges that hold nothing.  Returns bytes freed."""
        freed = self._reclaim(None)
        self.source.drop_empty()
        return freed

    def empty_cache(self) -> int:
        """Wait for the streams that hold freed memory, then give all cached memory back.

        Returns the bytes given back to the upstream.
        """
        self._wait_for_streams()
        self._note_split_peaks()
        return self.release_cached()

    def set_limit(self, nbytes: int | None) -> None:
        """Cap reserved bytes at ``nbytes`` (``None``: the upstream's capacity).  Cached memory
        above the new cap is given back at once; live memory is never touched."""
        if nbytes is not None and nbytes <= 0:
            raise ValueError(f"a memory limit must be > 0, got {nbytes}")
        self.source.limit = min(nbytes or self.upstream.capacity, self.upstream.capacity)
        if self.all.res > self.limit:
            self._share_done()
            self._reclaim(self.all.res - self.limit)

    def drop_stream(self, stream: Any) -> None:
        """The stream is gone: its free memory whose work is done becomes common and goes back
        to the upstream.  Its live blocks stay and come back to the pool when freed."""
        self._flush(stream)
        free = self._free
        for kind in (SMALL, LARGE):
            fb = free.get(stream, kind)
            if fb is None:
                continue
            for b in list(fb.blocks.values()):
                if b.stream is not stream or not done(b):
                    continue
                free.remove(b)
                b.stream = None
                b.ticket = 0
                self.source.give_back_block(free.merge(b))
            free.drop_if_empty(stream, kind)
        self.source.drop_empty()

    # --- statistics -------------------------------------------------------------------------
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
        split = self.source.inactive_split
        for b in self._free.blocks():
            stuck = split(b)
            if stuck > 0:
                counts[b.seg.kind] += 1
                nbytes[b.seg.kind] += stuck
        return counts, nbytes

    def _note_split_peaks(self) -> tuple[list[int], list[int]]:
        counts, nbytes = self._split_state()
        self.stats.note_split_peaks(counts, nbytes)
        return counts, nbytes

    def _oversize(self, b: Block) -> bool:
        mss = self.options.max_split_size
        return mss is not None and b.size >= mss

    def memory_stats(self) -> dict[str, Any]:
        """A superset of ``torch.cuda.memory_stats()``: ``family.pool.metric`` keys for the
        families allocation, allocated_bytes, requested_bytes, active, active_bytes,
        inactive_split, inactive_split_bytes, segment, reserved_bytes (pools all, small_pool,
        large_pool; metrics current, peak, allocated, freed), PyTorch's counters, and aclsim's
        extras (hit rate, fragmentation, limit, ...).  ``docs/memory.md`` defines each."""
        self._flush_all()
        counts, nbytes = self._note_split_peaks()
        stats = self.stats.as_dict(counts, nbytes, max_split_size=self.options.max_split_size,
                                   oversize_current=sum(1 for b in self._live.values() if self._oversize(b)))
        free_total = self.all.res - (self.all.b + self.all.pend_b)
        largest = self.largest_free()
        stats.update({
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

    def reset_peak_stats(self) -> None:
        """Peaks restart from the current values (``reset_peak_memory_stats``)."""
        self.stats.reset_peaks(*self._split_state())

    def reset_accumulated_stats(self) -> None:
        """Cumulative counters (allocated, freed, num_*) restart from zero."""
        self.stats.reset_accumulated()

    # --- the debugger: history -------------------------------------------------------------
    def record_history(self, enabled: bool = True, *, stacks: bool = False, max_entries: int = 100_000,
                       clear: bool = False) -> None:
        """Keep the last ``max_entries`` allocator events (alloc, free_requested,
        free_completed, segment_alloc/free/map/unmap, oom) in a ring buffer; ``stacks`` adds
        the Python frames of each event (outside aclsim).  The history is the pool's observer."""
        if not enabled:
            self.observer = None
            return
        old = self._obs if isinstance(self._obs, History) and not clear else ()
        self.observer = History(max_entries, stacks, old)

    def _trace(self, action: str, addr: int, size: int, stream: Any,
               extra: dict[str, int] | None = None) -> None:
        """Tell the observer (there is one) of an event of the pool."""
        h = self._hist
        assert h is not None
        h((action, addr, size, stream, now(), user_frames() if self._stacks else None, extra))

    @property
    def history_enabled(self) -> bool:
        return isinstance(self._obs, History)

    def history(self) -> list[tuple[Any, ...]]:
        """The recorded events, oldest first: ``(action, offset, size, stream, time_ns,
        frames, extra)``."""
        return list(self._obs) if isinstance(self._obs, History) else []

    # --- introspection ------------------------------------------------------------------------
    def live_blocks(self) -> list[Block]:
        return list(self._live.values())

    def block_at(self, offset: int) -> Block | None:
        return self._live.get(offset)

    def segments(self) -> list[Segment]:
        self._flush_all()
        return sorted(self.source.segments, key=lambda s: s.base)

    def blocks_of(self, seg: Segment) -> list[Block]:
        out = []
        b = seg.head
        while b is not None:
            out.append(b)
            b = b.next
        return out

    def mapped_bytes_of(self, b: Block) -> int:
        return self.source.mapped_bytes(b) if b.state in (FREE, CACHED) else b.size

    def mapped_ranges(self, seg: Segment) -> list[tuple[int, int]]:
        """``(offset, nbytes)`` of the backed ranges of a segment (the whole of a classic one)."""
        return self.source.mapped_ranges(seg)

    def check(self) -> None:
        """Assert the pool's invariants (tests): blocks tile their segments, no two live
        blocks overlap, free neighbours are merged, counters match the blocks."""
        self.source.check(self._live)


def _wait_all(waits: list[tuple[Any, int]]) -> None:
    for stream, ticket in waits:
        stream.wait_for(ticket)
