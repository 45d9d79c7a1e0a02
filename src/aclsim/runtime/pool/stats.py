"""The pool's statistics: counters per pool (small, large) and of both, PyTorch's counters,
and the ``memory_stats()`` dictionary built from them (``docs/memory.md``, Statistics).

The pool updates the counters of allocations and frees itself, inline on its hit path; the
segment sources update the reserved bytes and segment counts through :class:`PoolStats`.
"""

from __future__ import annotations

from typing import Any

from aclsim.runtime.pool.sizes import LARGE, SMALL

_POOLS = ("all", "small_pool", "large_pool")


class KindStats:
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


class PoolStats:
    """All of a pool's counters: ``all`` and ``kinds`` (small, large), and PyTorch's counters
    (``num_device_alloc`` = upstream calls that got memory, ``num_device_free`` = calls that
    gave it back, ...).  ``misses``: allocations that needed the upstream (hits: the others)."""

    __slots__ = ("all", "kinds", "misses", "hits_base", "num_device_alloc", "num_device_free",
                 "num_alloc_retries", "num_ooms", "num_sync_all_streams", "oversize_allocations",
                 "oversize_segments")

    def __init__(self) -> None:
        self.all = KindStats()
        self.kinds = (KindStats(), KindStats())
        self.misses = 0
        self.hits_base = 0  # allocations before reset_accumulated
        self.num_device_alloc = 0
        self.num_device_free = 0
        self.num_alloc_retries = 0
        self.num_ooms = 0
        self.num_sync_all_streams = 0
        self.oversize_allocations = 0
        self.oversize_segments = 0

    @property
    def hits(self) -> int:
        """Allocations served without calling the upstream."""
        return self.kinds[0].n_tot + self.kinds[1].n_tot - self.misses - self.hits_base

    def active_peaks(self, k: KindStats) -> None:
        """Update the peaks of active (allocated + pending) blocks of ``k`` and of all."""
        for s in (self.all, k):
            v = s.n + s.pend_n
            if v > s.act_n_peak:
                s.act_n_peak = v
            v = s.b + s.pend_b
            if v > s.act_b_peak:
                s.act_b_peak = v

    def reserved(self, kind: int, nbytes: int, segments: int) -> None:
        """``nbytes`` more reserved in pool ``kind`` (negative: given back), ``segments`` more
        segments (classic) or contiguous mapped ranges (expandable)."""
        for k in (self.all, self.kinds[kind]):
            if segments > 0:
                k.seg_tot += segments
            elif segments < 0:
                k.seg_freed -= segments
            k.seg += segments
            k.seg_peak = max(k.seg_peak, k.seg)
            if nbytes > 0:
                k.res += nbytes
                k.res_tot += nbytes
                k.res_peak = max(k.res_peak, k.res)
            else:
                k.res += nbytes
                k.res_freed -= nbytes

    def note_split_peaks(self, counts: list[int], nbytes: list[int]) -> None:
        """Sample the inactive split counts and bytes per pool (``counts[SMALL]``, ...)."""
        for k, n, b in self._split_values(counts, nbytes):
            k.split_n_peak = max(k.split_n_peak, n)
            k.split_b_peak = max(k.split_b_peak, b)

    def reset_peaks(self, counts: list[int], nbytes: list[int]) -> None:
        """Peaks restart from the current values (``reset_peak_memory_stats``)."""
        for k, n, b in self._split_values(counts, nbytes):
            k.n_peak, k.b_peak, k.r_peak = k.n, k.b, k.r
            k.act_n_peak, k.act_b_peak = k.n + k.pend_n, k.b + k.pend_b
            k.seg_peak, k.res_peak = k.seg, k.res
            k.split_n_peak, k.split_b_peak = n, b

    def _split_values(self, counts: list[int], nbytes: list[int]) -> list[tuple[KindStats, int, int]]:
        small, large = self.kinds[SMALL], self.kinds[LARGE]
        return [(small, counts[SMALL], nbytes[SMALL]), (large, counts[LARGE], nbytes[LARGE]),
                (self.all, sum(counts), sum(nbytes))]

    def reset_accumulated(self) -> None:
        """Cumulative counters (allocated, freed, num_*) restart from zero."""
        for k in (self.all, *self.kinds):
            k.n_tot, k.b_tot, k.r_tot = k.n, k.b, k.r
            k.seg_tot, k.seg_freed, k.res_tot, k.res_freed = k.seg, 0, k.res, 0
        self.misses = 0
        self.hits_base = self.kinds[0].n_tot + self.kinds[1].n_tot
        self.num_device_alloc = self.num_device_free = 0
        self.num_alloc_retries = self.num_ooms = self.num_sync_all_streams = 0
        self.oversize_allocations = 0

    def as_dict(self, counts: list[int], nbytes: list[int], *, max_split_size: int | None,
                oversize_current: int) -> dict[str, Any]:
        """``family.pool.metric`` for every family, PyTorch's counters, then hits, misses and
        the hit rate.  ``counts``/``nbytes``: inactive split blocks and bytes per pool now."""
        small, large = self.kinds
        stats: dict[str, Any] = {}

        def put(family: str, values: list[tuple[int, int, int, int]]) -> None:
            for pool, (cur, peak, alloc, freed) in zip(_POOLS, values, strict=True):
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
        split = self._split_values(counts, nbytes)
        order = (split[2], split[0], split[1])  # all, small, large
        put("inactive_split", [(n, k.split_n_peak, 0, 0) for k, n, _ in order])
        put("inactive_split_bytes", [(b, k.split_b_peak, 0, 0) for k, _, b in order])
        put("segment", [(k.seg, k.seg_peak, k.seg_tot, k.seg_freed) for k in (self.all, small, large)])
        put("reserved_bytes", [(k.res, k.res_peak, k.res_tot, k.res_freed) for k in (self.all, small, large)])
        hits = self.hits
        allocs = hits + self.misses
        stats.update({
            "num_alloc_retries": self.num_alloc_retries,
            "num_ooms": self.num_ooms,
            "num_sync_all_streams": self.num_sync_all_streams,
            "num_device_alloc": self.num_device_alloc,
            "num_device_free": self.num_device_free,
            "max_split_size": -1 if max_split_size is None else max_split_size,
            "oversize_allocations.current": oversize_current,
            "oversize_allocations.allocated": self.oversize_allocations,
            "oversize_segments.current": self.oversize_segments,
            # aclsim's extras
            "num_hits": hits,
            "num_misses": self.misses,
            "hit_rate": hits / allocs if allocs else 1.0,
        })
        return stats
