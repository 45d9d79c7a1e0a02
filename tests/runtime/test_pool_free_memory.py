"""Property: the free memory the pool reports (``get_mem_info``'s free) can be allocated.

The rule (docs/memory.md, "Free memory"): when ``get_mem_info`` reports ``F`` bytes free, every
``malloc(n)`` whose block (``ALIGN_UP(n, 32) + 32`` rounded up to 512 B, or to the power-of-two
division) is at most ``F`` succeeds, on any stream of the device, whatever the other streams
hold, cache or still have queued.  With the default options that is every ``n <= F - 32``.
Random programs over several streams (one of which may never finish its work), limits that
are not whole pages, both segment modes; after every step the largest and a random smaller
request are allocated and released on a random stream.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_pool_core import FakeStream

import aclsim
from aclsim.runtime.pool import AccountingUpstream, AllocatorFull, CachingPool, PoolOptions

KiB, MiB = 1 << 10, 1 << 20
PAGE = 256 * KiB


class Stuck(FakeStream):
    """A stream whose waits give up (a deadlock): its queued work never completes on demand."""

    def wait_for(self, ticket: int) -> None:
        self.waited.append(ticket)


def largest_request(pool: CachingPool, free: int) -> int:
    """The largest ``n`` whose block size is at most ``free`` (0 if none)."""
    lo, hi = 0, free
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if pool.round_size(mid) <= free:
            lo = mid
        else:
            hi = mid - 1
    return lo


sizes = st.one_of(st.integers(1, 8 * KiB), st.integers(8 * KiB, 1 * MiB), st.integers(1 * MiB, 5 * MiB))
ops = st.lists(
    st.one_of(
        st.tuples(st.just("alloc"), sizes, st.integers(0, 2)),
        st.tuples(st.just("free"), st.integers(0, 10_000), st.integers(0, 2)),
        st.tuples(st.just("use"), st.integers(0, 10_000), st.integers(0, 2)),
        st.tuples(st.just("submit"), st.integers(1, 3), st.integers(0, 2)),
        st.tuples(st.just("finish"), st.just(0), st.integers(0, 2)),
        st.tuples(st.just("limit"), st.integers(2 * MiB, 24 * MiB), st.just(0)),
        st.tuples(st.just("empty"), st.just(0), st.just(0)),
    ),
    max_size=40,
)
options = st.builds(PoolOptions, expandable_segments=st.booleans(), reuse_before_grow=st.booleans(),
                    fast_cache=st.booleans(), max_split_size=st.sampled_from([None, 4 * MiB]),
                    round_divisions=st.sampled_from([0, 4]), ascend_padding=st.booleans())


@settings(max_examples=150, deadline=None, database=None)
@given(opts=options, program=ops, probes=st.lists(st.tuples(st.integers(0, 2), st.floats(0, 1)),
                                                  min_size=41, max_size=41))
def test_reported_free_memory_is_allocatable(opts: PoolOptions, program: list[tuple[str, int, int]],
                                            probes: list[tuple[int, float]]) -> None:
    up = AccountingUpstream(24 * MiB, granularity=PAGE)
    pool = CachingPool(up, opts)
    streams: list[FakeStream] = [FakeStream("s0"), FakeStream("s1"), Stuck("stuck")]
    live: dict[int, FakeStream] = {}
    for (op, arg, si), (pi, frac) in zip([("start", 0, 0), *program], probes, strict=False):
        s = streams[si]
        if op == "alloc":
            try:
                live[pool.allocate(arg, s)] = s
            except AllocatorFull:
                pass
        elif op in ("free", "use") and live:
            off = sorted(live)[arg % len(live)]
            if op == "use":
                pool.record_stream(off, s)
                s.submit()
            else:
                del live[off]
                pool.release(off)
        elif op == "submit":
            s.submit(arg)
        elif op == "finish":
            s.finish()
        elif op == "limit":
            pool.set_limit(arg)
        elif op == "empty":
            pool.empty_cache()
        probe = streams[pi]
        for share in (1.0, frac):  # the largest request, then a smaller one
            free = pool.available_bytes()
            assert free <= max(pool.limit - pool.reserved_bytes(), 0)
            nbytes = int(largest_request(pool, free) * share)
            if nbytes == 0:
                break
            try:
                off = pool.allocate(nbytes, probe)
            except AllocatorFull as exc:  # pragma: no cover - the failure this test is about
                raise AssertionError(f"{free} B reported free, but {nbytes} B ({pool.round_size(nbytes)} B "
                                     f"block) on {probe!r} failed: {exc.stats}") from None
            pool.release(off)
            pool.check()


@settings(max_examples=40, deadline=None, database=None)
@given(expandable=st.booleans(),
       program=st.lists(st.tuples(st.sampled_from(["malloc", "free", "free_async", "limit"]),
                                  st.integers(1, 3 * MiB), st.integers(0, 3)), max_size=14))
def test_get_mem_info_free_memory_is_allocatable_in_every_context(
        expandable: bool, program: list[tuple[str, int, int]]) -> None:
    """The same through the runtime: contexts, their default streams, stream-ordered frees."""
    aclsim.init(chip="tiny", memory=12 * MiB, alloc_conf=f"expandable_segments:{expandable}")
    aclsim.set_device(0)
    contexts = [aclsim.create_context(0) for _ in range(3)]
    host = bytearray(4096)
    bufs: list[aclsim.Buffer] = []
    try:
        for op, arg, ci in program:
            aclsim.set_context(contexts[ci % 3])
            if op == "malloc":
                try:
                    bufs.append(aclsim.malloc(arg))
                except aclsim.errors.OutOfMemoryError:
                    pass
            elif op.startswith("free") and bufs:
                buf = bufs.pop(arg % len(bufs))
                if op == "free_async":  # a queued copy still reads it when it is freed
                    n = min(len(host), buf.size)
                    aclsim.memcpy_async(aclsim.bytes_to_ptr(host), n, buf, n,
                                        aclsim.MemcpyKind.DEVICE_TO_HOST, contexts[ci % 3].default_stream)
                aclsim.free(buf)
            elif op == "limit":
                aclsim.set_memory_limit(4 * MiB + arg)
            free, _ = aclsim.get_mem_info()
            if free > 32:
                aclsim.set_context(contexts[(ci + 1) % 3])
                aclsim.free(aclsim.malloc(free - 32))
    finally:
        for buf in bufs:
            aclsim.free(buf)
        for ctx in contexts:
            try:
                ctx.default_stream.synchronize()
            except aclsim.errors.TaskError:  # a copy that ran after its buffer was freed
                pass
            aclsim.destroy_context(ctx)
        aclsim.reset_device(0)
        aclsim.finalize()
