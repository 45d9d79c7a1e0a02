"""Property tests of the caching pool: random alloc/free/stream programs, in both segment modes.

After every step: no two live blocks overlap, blocks tile their segments, free neighbours are
merged, the counters match the blocks, reserved bytes match what the upstream handed out, a
block freed on one stream is not handed to another before that stream's work is done.  At the
end, after every free and ``empty_cache``, everything is back upstream.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_pool_core import FakeStream, FakeUpstream

from aclsim.runtime.pool import AllocatorFull, CachingPool, PoolOptions

KiB, MiB = 1 << 10, 1 << 20

sizes = st.one_of(st.integers(1, 4 * KiB), st.integers(4 * KiB, 1 * MiB), st.integers(1 * MiB, 6 * MiB))
ops = st.lists(
    st.one_of(
        st.tuples(st.just("alloc"), sizes, st.integers(0, 2)),
        st.tuples(st.just("free"), st.integers(0, 10_000), st.integers(0, 2)),
        st.tuples(st.just("use"), st.integers(0, 10_000), st.integers(0, 2)),
        st.tuples(st.just("submit"), st.integers(1, 3), st.integers(0, 2)),
        st.tuples(st.just("finish"), st.just(0), st.integers(0, 2)),
        st.tuples(st.just("empty"), st.just(0), st.just(0)),
    ),
    max_size=60,
)
options = st.builds(PoolOptions, expandable_segments=st.booleans(), reuse_before_grow=st.booleans(),
                    fast_cache=st.booleans(), max_split_size=st.sampled_from([None, 4 * MiB]))


@settings(max_examples=120, deadline=None, database=None)
@given(opts=options, program=ops)
def test_random_programs_keep_the_pool_consistent(opts: PoolOptions,
                                                  program: list[tuple[str, int, int]]) -> None:
    up = FakeUpstream(48 * MiB)
    pool = CachingPool(up, opts)
    streams = [FakeStream(f"s{i}") for i in range(3)]
    live: dict[int, tuple[int, int, FakeStream]] = {}  # offset -> (size asked, block size, stream)
    uses: dict[int, set[FakeStream]] = {}
    # memory freed while a stream that used it had work pending: (stream, ticket, what the
    # upstream must not take back before the stream gets there: pages or a segment)
    guarded: list[tuple[FakeStream, int, frozenset[int], int | None]] = []
    # blocks another stream still used when they were freed: not handed out again, to any
    # stream, before that stream's work is done (PyTorch's record_stream)
    pending: list[tuple[FakeStream, int, int, int]] = []
    for op, arg, si in program:
        s = streams[si]
        if op == "alloc":
            try:
                off = pool.allocate(arg, s)
            except AllocatorFull:
                continue
            blk = pool.block_at(off)
            assert blk is not None and blk.size >= arg + 32 and off % 512 == 0
            for user, ticket, poff, psize in pending:
                if off < poff + psize and poff < off + blk.size:
                    assert user.reached(ticket), "handed out while another stream still used it"
            live[off] = (arg, blk.size, s)
            uses[off] = {s}
        elif op in ("free", "use") and live:
            off = sorted(live)[arg % len(live)]
            if op == "use":
                pool.record_stream(off, s)
                uses[off].add(s)
                s.submit()
                continue
            _, size, owner = live.pop(off)
            blk = pool.block_at(off)
            assert blk is not None
            g = up.granularity
            expandable = blk.seg.mapped is not None
            pages = frozenset(range(-(-off // g) * g, (off + size) // g * g, g) if expandable else ())
            seg = None if expandable else blk.seg.base
            for u in uses.pop(off):
                if not u.reached(u.ticket()):
                    guarded.append((u, u.ticket(), pages, seg))
                    if u is not owner:
                        pending.append((u, u.ticket(), off, size))
            pool.release(off)
        elif op == "submit":
            s.submit(arg)
        elif op == "finish":
            s.finish()
        elif op == "empty":
            pool.empty_cache()
        # invariants after every step
        pool.check()
        for other, ticket, pages, seg in guarded:
            if not other.reached(ticket):  # not handed back (so not to another stream) before
                assert pages <= up.pages and (seg is None or seg in up.segments), "taken back too early"
        spans = sorted((off, off + size) for off, (_, size, _) in live.items())
        assert all(end <= nxt for (_, end), (nxt, _) in zip(spans, spans[1:], strict=False)), "overlap"
        stats = pool.memory_stats()
        assert stats["allocation.all.current"] == len(live)
        assert stats["allocated_bytes.all.current"] == sum(size for _, size, _ in live.values())
        assert stats["requested_bytes.all.current"] == sum(asked for asked, _, _ in live.values())
        assert stats["reserved_bytes.all.current"] == up.used <= pool.limit
        assert stats["allocated_bytes.all.peak"] >= stats["allocated_bytes.all.current"]
        assert (stats["reserved_bytes.all.current"] >= stats["active_bytes.all.current"]
                >= stats["allocated_bytes.all.current"])
        assert stats["allocation.small_pool.current"] + stats["allocation.large_pool.current"] == len(live)
        assert 0.0 <= stats["fragmentation"] <= 1.0 and 0.0 <= stats["hit_rate"] <= 1.0
    for off in list(live):
        pool.release(off)
    for s in streams:
        s.finish()
    pool.empty_cache()
    pool.check()
    stats = pool.memory_stats()
    assert up.used == 0 and stats["reserved_bytes.all.current"] == 0
    assert stats["segment.all.current"] == 0 and stats["active.all.current"] == 0
    assert not up.segments and not up.pages and not up.reservations
