"""The caching pool on its own, with an injected fake upstream and fake streams: sizes, split,
merge, best fit, oversize, cross-stream reuse, the OOM ladder, limits, statistics."""

from __future__ import annotations

from typing import Any

import pytest

from aclsim.runtime.pool import (
    MIN_BLOCK,
    SMALL_BUFFER,
    AllocatorFull,
    CachingPool,
    InvalidRelease,
    PoolOptions,
)

KiB, MiB = 1 << 10, 1 << 20
PAGE = 64 * KiB


class FakeUpstream:
    """Hands out offsets that never overlap and checks every call the pool makes."""

    def __init__(self, capacity: int, granularity: int = PAGE) -> None:
        self.capacity = capacity
        self.granularity = granularity
        self.used = 0
        self.log: list[tuple[str, int, int]] = []
        self.segments: dict[int, int] = {}
        self.reservations: dict[int, int] = {}
        self.pages: set[int] = set()
        self._next_classic = 0
        self._next_va = 1 << 40

    def malloc(self, nbytes: int) -> int:
        if self.used + nbytes > self.capacity:
            raise AllocatorFull(nbytes)
        offset = self._next_classic
        self._next_classic += nbytes
        self.segments[offset] = nbytes
        self.used += nbytes
        self.log.append(("malloc", offset, nbytes))
        return offset

    def free(self, offset: int, nbytes: int) -> None:
        assert self.segments.pop(offset) == nbytes
        self.used -= nbytes
        self.log.append(("free", offset, nbytes))

    def reserve(self, nbytes: int) -> int:
        assert nbytes % self.granularity == 0
        offset = self._next_va
        self._next_va += nbytes + self.granularity
        self.reservations[offset] = nbytes
        self.log.append(("reserve", offset, nbytes))
        return offset

    def unreserve(self, offset: int, nbytes: int) -> None:
        assert self.reservations.pop(offset) == nbytes
        assert not any(offset <= p < offset + nbytes for p in self.pages), "unreserve of mapped pages"
        self.log.append(("unreserve", offset, nbytes))

    def _inside(self, offset: int, nbytes: int) -> bool:
        return any(r <= offset and offset + nbytes <= r + n for r, n in self.reservations.items())

    def map(self, offset: int, nbytes: int) -> None:
        assert offset % self.granularity == 0 and nbytes % self.granularity == 0 and nbytes > 0
        assert self._inside(offset, nbytes), "map outside a reservation"
        if self.used + nbytes > self.capacity:
            raise AllocatorFull(nbytes)
        pages = set(range(offset, offset + nbytes, self.granularity))
        assert not pages & self.pages, "page mapped twice"
        self.pages |= pages
        self.used += nbytes
        self.log.append(("map", offset, nbytes))

    def unmap(self, offset: int, nbytes: int) -> None:
        pages = set(range(offset, offset + nbytes, self.granularity))
        assert pages <= self.pages, "unmap of pages that are not mapped"
        self.pages -= pages
        self.used -= nbytes
        self.log.append(("unmap", offset, nbytes))

    def calls(self, name: str) -> int:
        return sum(1 for entry in self.log if entry[0] == name)


class FakeStream:
    """Work is 'submitted' and 'completed' by the test; tickets count submissions."""

    def __init__(self, name: str = "s") -> None:
        self.name = name
        self.submitted = 0
        self.completed = 0
        self.waited: list[int] = []

    def submit(self, n: int = 1) -> None:
        self.submitted += n

    def finish(self) -> None:
        self.completed = self.submitted

    def ticket(self) -> int:
        return self.submitted

    def reached(self, ticket: int) -> bool:
        return self.completed >= ticket

    def wait_for(self, ticket: int) -> None:
        self.waited.append(ticket)
        self.completed = max(self.completed, ticket)

    def __repr__(self) -> str:
        return f"<FakeStream {self.name}>"


def make(capacity: int = 8 * MiB, **options: Any) -> tuple[CachingPool, FakeUpstream]:
    up = FakeUpstream(capacity)
    return CachingPool(up, PoolOptions(**options)), up


def classic(capacity: int = 64 * MiB, **options: Any) -> tuple[CachingPool, FakeUpstream]:
    return make(capacity, expandable_segments=False, **options)


# --- sizes -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("nbytes", "size"), [(1, 512), (480, 512), (481, 1024), (1000, 1536),
                                              (MiB, MiB + 512), (MiB - 32, MiB)])
def test_ascend_padding_and_512_byte_classes(nbytes: int, size: int) -> None:
    pool, _ = make()
    assert pool.round_size(nbytes) == size  # ALIGN_UP(n, 32) + 32, rounded up to 512 B
    off = pool.allocate(nbytes)
    assert off % MIN_BLOCK == 0 and off % 64 == 0
    assert pool.block_at(off).size == size  # type: ignore[union-attr]
    pool.check()


def test_without_ascend_padding() -> None:
    pool, _ = make(ascend_padding=False)
    assert pool.round_size(512) == 512 and pool.round_size(513) == 1024


def test_roundup_power2_divisions() -> None:
    pool, _ = make(ascend_padding=False, round_divisions=4)
    assert pool.round_size(1200) == 1536  # below 512 * 4: plain 512 B steps
    assert pool.round_size(5000) == 5120  # 4096..8192 in steps of 1024
    assert pool.round_size(70 * KiB) == 80 * KiB  # 64..128 KiB in steps of 16 KiB
    assert pool.round_size(64 * KiB) == 64 * KiB


def test_options_are_validated_and_parsed() -> None:
    with pytest.raises(ValueError):
        PoolOptions(page_size=1000)
    with pytest.raises(ValueError):
        PoolOptions(max_split_size=MiB)
    with pytest.raises(ValueError):
        PoolOptions(round_divisions=3)
    with pytest.raises(ValueError):
        PoolOptions(limit=0)
    opts = PoolOptions.parse("expandable_segments:False, max_split_size_mb:64,roundup_power2_divisions:4,"
                             "reuse_before_grow:false,limit_mb:512,page_size_mb:4,fast_cache:0")
    assert opts == PoolOptions(expandable_segments=False, max_split_size=64 * MiB, round_divisions=4,
                               reuse_before_grow=False, limit=512 * MiB, page_size=4 * MiB, fast_cache=False)
    for bad in ("nonsense:1", "expandable_segments", "expandable_segments:maybe"):
        with pytest.raises(ValueError):
            PoolOptions.parse(bad)
    with pytest.raises(ValueError, match="multiple"):
        CachingPool(FakeUpstream(MiB, granularity=PAGE), PoolOptions(page_size=PAGE + 512))


# --- the hit path, split, merge, best fit ---------------------------------------------------------

def test_hit_path_reuses_the_block_on_the_same_stream() -> None:
    pool, up = make()
    a = pool.allocate(1000)
    pool.release(a)
    assert pool.allocate(1000) == a  # exact-size free list
    assert pool.allocate(1000) != a
    stats = pool.memory_stats()
    assert stats["num_hits"] == 2 and stats["num_misses"] == 1  # the second came from the page
    assert up.calls("map") == 1


def test_split_and_merge_expandable() -> None:
    pool, up = make()
    a, b, c = (pool.allocate(10 * KiB - 32) for _ in range(3))
    assert (b - a, c - b) == (10 * KiB, 10 * KiB)  # carved one after the other
    blocks = pool.blocks_of(pool.block_at(a).seg)  # type: ignore[union-attr]
    assert [x.size for x in blocks[:3]] == [10 * KiB] * 3
    pool.release(b)
    pool.release(a)
    d = pool.allocate(5)  # a miss: cached blocks are coalesced with their free neighbours first
    assert d == a
    pool.check()
    free = [x for x in pool.blocks_of(blocks[0].seg) if x.state == 0]
    assert free[0].addr == a + 512 and free[0].size == 20 * KiB - 512  # a and b merged, minus d
    pool.release(c)
    pool.release(d)
    pool.empty_cache()
    assert up.used == 0 and pool.reserved_bytes() == 0
    pool.check()


def test_best_fit_takes_the_smallest_hole() -> None:
    pool, _ = make(fast_cache=False)
    blocks = [pool.allocate(n * KiB - 32) for n in (8, 1, 4, 1, 6, 1)]
    for i in (0, 2, 4):
        pool.release(blocks[i])  # holes of 8, 4 and 6 KiB between live blocks
    assert pool.allocate(3 * KiB - 32) == blocks[2]  # the 4 KiB hole
    assert pool.allocate(5 * KiB - 32) == blocks[4]  # the 6 KiB hole
    assert pool.allocate(8 * KiB - 32) == blocks[0]
    pool.check()


def test_classic_segments_pytorch_sizes_and_split_rules() -> None:
    pool, up = classic()
    small = pool.allocate(100 * KiB)
    assert up.log[-1] == ("malloc", 0, SMALL_BUFFER)  # up to 1 MiB: 2 MiB segments
    big = pool.allocate(13 * MiB)
    assert up.log[-1][2] == 14 * MiB  # from 10 MiB: the request rounded up to 2 MiB
    mid = pool.allocate(3 * MiB)
    assert up.log[-1][2] == 20 * MiB  # 1..10 MiB: 20 MiB segments
    # the large pool splits only when more than 1 MiB remains: the 1 MiB - 512 tail stays
    assert pool.block_at(big).size == 14 * MiB  # type: ignore[union-attr]
    assert pool.block_at(mid).size == 3 * MiB + 512  # type: ignore[union-attr]
    assert pool.block_at(small).size == 100 * KiB + 512  # type: ignore[union-attr]
    stats = pool.memory_stats()
    assert stats["segment.all.current"] == 3 and stats["segment.small_pool.current"] == 1
    assert stats["reserved_bytes.large_pool.current"] == 34 * MiB
    assert stats["allocated_bytes.large_pool.current"] == 17 * MiB + 512
    for off in (small, mid, big):
        pool.release(off)
    assert pool.memory_stats()["inactive_split.all.current"] == 0  # whole free segments
    assert pool.empty_cache() == 36 * MiB and up.used == 0
    pool.check()


def test_classic_inactive_split() -> None:
    pool, _ = classic(fast_cache=False)
    a = pool.allocate(100 * KiB)
    b = pool.allocate(100 * KiB)
    pool.release(a)
    stats = pool.memory_stats()
    # a's block and the tail of the segment: free, but the segment cannot go back (b lives)
    assert stats["inactive_split.small_pool.current"] == 2
    assert stats["inactive_split_bytes.small_pool.current"] == SMALL_BUFFER - (100 * KiB + 512)
    assert stats["inactive_split_bytes.small_pool.peak"] == SMALL_BUFFER - (100 * KiB + 512)
    pool.release(b)
    assert pool.memory_stats()["inactive_split.all.current"] == 0


# --- oversize -------------------------------------------------------------------------------------

def test_oversize_blocks_are_not_split_and_reused_only_by_close_sizes() -> None:
    pool, up = classic(256 * MiB, max_split_size=32 * MiB, reuse_before_grow=False)
    big = pool.allocate(60 * MiB - 32)
    pool.release(big)
    pool.allocate(2 * MiB)  # below max_split_size: never takes the cached oversize block
    assert up.calls("malloc") == 2
    assert pool.allocate(30 * MiB) != big  # oversize, but 30 MiB short of the block: not reused
    again = pool.allocate(50 * MiB)  # within 20 MiB of the cached 60 MiB block: reused, not split
    assert again == big and pool.block_at(again).size == 60 * MiB  # type: ignore[union-attr]
    stats = pool.memory_stats()
    assert stats["max_split_size"] == 32 * MiB
    assert stats["oversize_allocations.allocated"] == 3 and stats["oversize_segments.current"] == 2


def test_oversize_does_not_waste_memory_without_pressure() -> None:
    """PyTorch keeps unusable oversize blocks cached (3.2x waste on the random trace);
    reuse_before_grow gives them back before asking for more."""
    pool, up = classic(1024 * MiB, max_split_size=32 * MiB)
    for size in (100, 200, 300, 400):
        pool.release(pool.allocate(size * MiB - 32))
    stats = pool.memory_stats()
    assert stats["reserved_bytes.all.peak"] == 400 * MiB  # one segment at a time
    assert stats["num_alloc_retries"] == 0  # given back before asking, not after a failure
    lazy, _ = classic(1024 * MiB, max_split_size=32 * MiB, reuse_before_grow=False)
    for size in (100, 200, 300, 400):
        lazy.release(lazy.allocate(size * MiB - 32))
    assert lazy.memory_stats()["reserved_bytes.all.peak"] == 1000 * MiB


def test_expandable_oversize_costs_only_page_edges() -> None:
    pool, up = make(64 * MiB)
    off = pool.allocate(10 * MiB + 1)
    assert pool.reserved_bytes() == 10 * MiB + PAGE  # 10 MiB + 1 + 32 padding: one more page
    pool.release(off)
    pool.check()


# --- streams --------------------------------------------------------------------------------------

def test_a_block_freed_on_a_stream_is_reused_at_once_by_that_stream() -> None:
    pool, _ = make()
    a = FakeStream("a")
    x = pool.allocate(4 * KiB, a)
    a.submit()  # work on x still queued on a
    pool.release(x)
    assert pool.allocate(4 * KiB, a) == x  # stream order makes this safe


def test_other_streams_do_not_get_cached_blocks_of_a_stream_without_pressure() -> None:
    """A stream keeps what it freed; the page is shared (segments belong to no stream)."""
    pool, up = make()
    a, b = FakeStream("a"), FakeStream("b")
    x = pool.allocate(4 * KiB, a)
    pool.release(x)
    y = pool.allocate(4 * KiB, b)
    assert y != x and pool.allocate(4 * KiB, a) == x
    assert pool.block_at(y).seg is pool.block_at(x).seg and up.calls("map") == 1  # type: ignore[union-attr]


def test_distinct_streams_with_equal_names_do_not_share() -> None:
    """CUB #373: two streams that look alike must not share free lists."""
    pool, _ = make()
    s1, s2 = FakeStream("same"), FakeStream("same")
    x = pool.allocate(4 * KiB, s1)
    pool.release(x)
    assert pool.allocate(4 * KiB, s2) != x


def test_record_stream_keeps_the_block_until_the_other_stream_is_done() -> None:
    pool, _ = make(fast_cache=True)
    a, side = FakeStream("a"), FakeStream("side")
    x = pool.allocate(4 * KiB, a)
    pool.record_stream(x, side)
    side.submit()  # the side stream still reads x
    pool.release(x)
    stats = pool.memory_stats()
    assert stats["active.all.current"] == 1 and stats["allocation.all.current"] == 0
    assert stats["active_bytes.all.current"] == 4 * KiB + 512 and stats["pending_frees"] == 1
    y = pool.allocate(4 * KiB, a)
    assert y != x  # not reusable, not even by the allocating stream
    side.finish()
    pool.release(y)
    z = pool.allocate(8 * KiB, a)  # a slow-path allocation reaps completed frees
    assert pool.memory_stats()["pending_frees"] == 0
    pool.release(z)
    pool.check()


def test_release_on_another_stream_orders_the_free_after_it() -> None:
    pool, _ = make()
    a, b = FakeStream("a"), FakeStream("b")
    x = pool.allocate(4 * KiB, a)
    b.submit()
    pool.release(x, b)
    assert pool.memory_stats()["pending_frees"] == 1


def test_cross_stream_memory_moves_only_after_the_free_stream_is_done() -> None:
    """Pages of a block freed on stream a go to stream b only once a's work queued before the
    free has completed; under memory pressure the pool waits for it (and counts the sync)."""
    pool, up = make(1 * MiB)
    a, b = FakeStream("a"), FakeStream("b")
    x = pool.allocate(900 * KiB, a)
    a.submit(3)
    pool.release(x)
    y = pool.allocate(600 * KiB, b)  # needs x's pages: a must reach ticket 3 first
    assert a.waited == [3]
    stats = pool.memory_stats()
    # two device allocations failed and were retried: after giving back what was done, and
    # after waiting for a
    assert stats["num_sync_all_streams"] == 1 and stats["num_alloc_retries"] == 2
    assert stats["num_ooms"] == 0
    pool.release(y)
    pool.check()


def test_cross_stream_reuse_without_pressure_does_not_wait() -> None:
    pool, up = make(4 * MiB)
    a, b = FakeStream("a"), FakeStream("b")
    x = pool.allocate(900 * KiB, a)
    a.submit(3)
    pool.release(x)
    pool.allocate(900 * KiB, b)  # fresh pages: a's pending work is left alone
    assert a.waited == [] and pool.reserved_bytes() > 900 * KiB
    a.finish()
    pool.allocate(900 * KiB, b)  # now a's pages are remapped for b instead of growing
    assert pool.reserved_bytes() <= 2 * (900 * KiB + PAGE) and a.waited == []


def test_merged_free_blocks_keep_the_latest_ticket() -> None:
    """RMM #2490: coalescing two frees of one stream must keep the later one's dependency."""
    pool, up = make(1 * MiB, fast_cache=False)
    a, b = FakeStream("a"), FakeStream("b")
    x1 = pool.allocate(400 * KiB, a)
    x2 = pool.allocate(400 * KiB, a)
    a.submit()
    a.finish()
    pool.release(x1)  # ticket 1, reached
    a.submit(4)
    pool.release(x2)  # ticket 5, not reached; merged with x1's block
    pool.allocate(700 * KiB, b)  # needs the merged pages
    assert a.waited == [5]


def test_drop_stream_returns_its_cache() -> None:
    pool, up = make()
    a = FakeStream("a")
    x = pool.allocate(200 * KiB, a)
    pool.release(x)
    pool.drop_stream(a)
    assert up.used == 0 and pool.reserved_bytes() == 0 and up.calls("unreserve") == 1
    pool.check()


# --- growth, OOM ladder, limits ---------------------------------------------------------------

def test_reuse_before_grow_remaps_cached_pages() -> None:
    pool, up = make(4 * MiB, fast_cache=False)
    blocks = [pool.allocate(256 * KiB - 32) for _ in range(8)]
    for blk in blocks[::2]:
        pool.release(blk)  # 4 free holes of 256 KiB = 4 pages each
    reserved = pool.reserved_bytes()
    pool.allocate(1 * MiB - 32)  # no hole fits: new pages, but as many cached ones go back first
    assert pool.reserved_bytes() == reserved
    assert up.calls("unmap") >= 1
    stats = pool.memory_stats()
    assert stats["num_device_free"] == up.calls("unmap")
    assert stats["num_device_alloc"] == up.calls("map")
    pool.check()


def test_oom_ladder_frees_cache_then_raises_with_numbers() -> None:
    pool, up = classic(48 * MiB, reuse_before_grow=False)
    a = pool.allocate(20 * MiB - 32)
    b = pool.allocate(16 * MiB - 32)
    pool.release(b)  # cached 16 MiB segment
    c = pool.allocate(24 * MiB - 32)  # upstream says no: the cached segment goes back, retry works
    stats = pool.memory_stats()
    assert stats["num_alloc_retries"] == 1 and stats["num_ooms"] == 0
    assert up.calls("free") == 1
    with pytest.raises(AllocatorFull) as info:
        pool.allocate(30 * MiB - 32)
    err = info.value
    assert err.size == 30 * MiB
    assert err.stats["allocated"] == 44 * MiB and err.stats["reserved"] == 44 * MiB
    assert err.stats["limit"] == 48 * MiB and err.stats["largest_free"] == 4 * MiB
    assert pool.memory_stats()["num_ooms"] == 1
    for off in (a, c):
        pool.release(off)
    pool.check()


def test_a_stream_that_never_finishes_keeps_its_memory_and_the_pool_says_oom() -> None:
    class Stuck(FakeStream):
        def wait_for(self, ticket: int) -> None:  # as a deadlocked stream: the wait gives up
            self.waited.append(ticket)

    pool, _ = make(1 * MiB)
    s, b = Stuck("stuck"), FakeStream("b")
    x = pool.allocate(900 * KiB, s)
    s.submit()
    pool.release(x)
    with pytest.raises(AllocatorFull) as info:
        pool.allocate(900 * KiB, b)
    assert s.waited == [1]
    assert info.value.stats["reserved"] - info.value.stats["allocated"] >= 900 * KiB


def test_limit_caps_reserved_bytes() -> None:
    pool, up = make(8 * MiB)
    pool.set_limit(1 * MiB)
    x = pool.allocate(900 * KiB)
    with pytest.raises(AllocatorFull):
        pool.allocate(200 * KiB)
    assert up.used <= 1 * MiB and pool.memory_stats()["limit_bytes"] == 1 * MiB
    pool.release(x)
    pool.allocate(200 * KiB)  # fits now (the cached pages are reused)
    pool.set_limit(None)
    assert pool.limit == 8 * MiB
    with pytest.raises(ValueError):
        pool.set_limit(-1)


def test_lowering_the_limit_gives_cache_back() -> None:
    pool, up = make(8 * MiB, fast_cache=False)
    x = pool.allocate(3 * MiB)
    pool.release(x)
    assert pool.reserved_bytes() > 3 * MiB - PAGE
    pool.set_limit(1 * MiB)
    assert pool.reserved_bytes() <= 1 * MiB


def test_an_allocation_larger_than_the_device_fails_cleanly() -> None:
    for pool, up in (make(4 * MiB), classic(16 * MiB)):
        before = up.used
        with pytest.raises(AllocatorFull):
            pool.allocate(64 * MiB)
        assert up.used == before
        pool.check()


def test_release_of_unknown_offsets() -> None:
    pool, _ = make()
    x = pool.allocate(100)
    with pytest.raises(InvalidRelease):
        pool.release(x + 512)
    pool.release(x)
    with pytest.raises(InvalidRelease):
        pool.release(x)


# --- statistics -----------------------------------------------------------------------------------

PYTORCH_FAMILIES = ["allocation", "allocated_bytes", "requested_bytes", "active", "active_bytes",
                    "inactive_split", "inactive_split_bytes", "segment", "reserved_bytes"]
PYTORCH_COUNTERS = ["num_alloc_retries", "num_ooms", "num_sync_all_streams", "num_device_alloc",
                    "num_device_free", "max_split_size"]


def test_stats_are_a_superset_of_pytorch_memory_stats() -> None:
    pool, _ = make()
    stats = pool.memory_stats()
    for family in PYTORCH_FAMILIES:
        for p in ("all", "small_pool", "large_pool"):
            for metric in ("current", "peak", "allocated", "freed"):
                assert f"{family}.{p}.{metric}" in stats
    for key in PYTORCH_COUNTERS + ["hit_rate", "fragmentation", "free_bytes", "largest_free_bytes"]:
        assert key in stats


def test_stats_current_peak_cumulative_and_reset() -> None:
    pool, _ = make(16 * MiB)
    a = pool.allocate(1000)  # small pool: 1536 B block
    b = pool.allocate(2 * MiB)  # large pool
    pool.release(a)
    s = pool.memory_stats()
    assert s["allocation.all.current"] == 1 and s["allocation.all.peak"] == 2
    assert s["allocation.all.allocated"] == 2 and s["allocation.all.freed"] == 1
    assert s["allocated_bytes.small_pool.peak"] == 1536 and s["allocated_bytes.small_pool.current"] == 0
    assert s["allocated_bytes.large_pool.current"] == 2 * MiB + 512
    assert s["requested_bytes.all.peak"] == 1000 + 2 * MiB
    assert s["requested_bytes.all.current"] == 2 * MiB
    assert s["reserved_bytes.all.current"] == PAGE + 2 * MiB + PAGE
    pool.reset_peak_stats()
    s = pool.memory_stats()
    assert s["allocation.all.peak"] == 1 and s["allocated_bytes.all.peak"] == 2 * MiB + 512
    pool.reset_accumulated_stats()
    s = pool.memory_stats()
    assert s["allocation.all.allocated"] == 1 and s["allocation.all.freed"] == 0
    assert s["num_device_alloc"] == 0
    pool.release(b)


def test_hit_rate_and_fragmentation() -> None:
    pool, _ = make(16 * MiB, fast_cache=False)
    blocks = [pool.allocate(64 * KiB - 32) for _ in range(4)]
    for off in blocks:
        pool.release(off)
    for _ in range(4):
        pool.release(pool.allocate(64 * KiB - 32))
    s = pool.memory_stats()
    assert s["num_hits"] == 4 and s["num_misses"] == 4 and s["hit_rate"] == 0.5  # a page each, then reuse
    assert s["fragmentation"] == 0.0  # one free block
    live = [pool.allocate(64 * KiB - 32) for _ in range(4)]
    pool.release(live[0])
    pool.release(live[2])  # two 64 KiB holes
    s = pool.memory_stats()
    assert s["free_bytes"] == 2 * 64 * KiB and s["largest_free_bytes"] == 64 * KiB
    assert s["fragmentation"] == pytest.approx(0.5)


def test_history_ring_buffer() -> None:
    pool, _ = make()
    pool.record_history(max_entries=5)
    for _ in range(4):
        pool.release(pool.allocate(100))
    events = pool.history()
    assert len(events) == 5
    assert [e[0] for e in events][-3:] == ["alloc", "free_requested", "free_completed"]
    pool.record_history(False)
    assert pool.history() == [] and not pool.history_enabled
    pool.record_history(stacks=True)
    pool.allocate(100)
    (action, _off, size, _stream, _t, frames, _extra), = pool.history()
    assert action == "alloc" and size == 512
    assert frames and frames[0][0] == __file__
