"""The L2 cache between the cores and device memory: which bytes of each transfer hit it.

The chip's L2 (``ChipSpec.l2_bytes``, lines of ``l2_line_bytes``) is modelled as one
least-recently-used, write-back, write-allocate cache shared by every core:

- a read hits on the lines resident; the lines it misses come from device memory and are
  then resident;
- a write allocates its lines (whole-line writes: nothing is read first) and leaves them
  dirty; device memory sees them only when they are evicted (a write-back) or never during
  the launch;
- a line is evicted when the cache is full and it is the least recently touched; a dirty
  one costs a write of its bytes to device memory, charged to the transfer that evicted it;
  with ``writes_first`` (``ChipSpec.l2_writes_first``) a written line enters at the
  least-recently-used end instead, so under pressure written data leaves first (streaming
  stores do not push out data that was read) and without pressure it stays;
- a transfer with the bypass hint (``GlobalTensor.set_l2_cache_hint(CacheMode.DISABLE)``,
  ``SetL2CacheHint(CACHE_MODE_DISABLE)``) neither allocates nor refreshes lines: a read
  takes the resident lines from L2 and the rest from device memory; a write goes to device
  memory and drops the lines it overwrote.

:func:`classify` runs the transfers of a wave through the cache in an order that
interleaves the blocks by their progress (block ``b``'s ``j``-th transfer of ``n`` at
``j / n``), since blocks of one launch advance side by side.  What it returns per transfer
(the bytes that reach device memory, whether it waits for device memory or for L2) is what
the scheduler times it by.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

import numpy as np

from aclsim.isa import Instr, Space

#: Lines per page of the sparse line table (a page is allocated when first touched).
_PAGE_LINES = 4096
#: ``cache_mode`` values of a cost: the transfer bypasses L2.
BYPASS = "disable"


class L2Cache:
    """A line-granular LRU cache with dirty bits (see the module docstring).

    >>> c = L2Cache(capacity=4096, line=512)
    >>> c.access(0, 2048, write=True)        # allocate 4 dirty lines: nothing reaches memory
    (0, 0, 0)
    >>> c.access(0, 1024, write=False)       # 2 lines hit
    (1024, 0, 0)
    >>> c.access(8192, 4096, write=False)    # 8 new lines: all miss, evicting the 4 dirty ones
    (0, 4096, 2048)
    """

    def __init__(self, capacity: int, line: int, *, writes_first: bool = False) -> None:
        self.line = line
        self.writes_first = writes_first  # written lines enter at the LRU end: the first to leave
        self.capacity = max(1, capacity // line)  # in lines
        self.stamps: dict[int, np.ndarray] = {}  # page -> stamp of each line's last touch (-1: absent)
        self.dirty: dict[int, np.ndarray] = {}
        # touch order: (page, the lines' indices in the page, stamp)
        self.order: deque[tuple[int, np.ndarray, int]] = deque()
        self.resident = 0
        self.clock = 0

    def _page(self, page: int) -> tuple[np.ndarray, np.ndarray]:
        stamps = self.stamps.get(page)
        if stamps is None:
            stamps = self.stamps[page] = np.full(_PAGE_LINES, -1, np.int64)
            self.dirty[page] = np.zeros(_PAGE_LINES, bool)
        return stamps, self.dirty[page]

    def access(self, offset: int, length: int, *, write: bool, bypass: bool = False) -> tuple[int, int, int]:
        """Run one access through the cache: ``(bytes a read found in L2, bytes read from device
        memory or written to it by this access, bytes written back by the evictions it caused)``."""
        if length <= 0:
            return 0, 0, 0
        line = self.line
        first, last = offset // line, (offset + length - 1) // line
        hits, _, written_back = self.access_lines(np.arange(first, last + 1, dtype=np.int64), write=write,
                                                  bypass=bypass)
        if write:
            return 0, (length if bypass else 0), written_back
        hit_bytes = length * hits // (last - first + 1)
        return hit_bytes, length - hit_bytes, written_back

    def access_lines(self, lines: np.ndarray, *, write: bool, bypass: bool = False) -> tuple[int, int, int]:
        """Run an access touching the (sorted, distinct) ``lines`` only, such as a strided copy's
        segments: ``(lines hit, lines missed, bytes written back by the evictions it caused)``.
        A missed line is fetched whole from device memory (a read) or allocated (a write)."""
        if not len(lines):
            return 0, 0, 0
        self.clock += 1
        stamp = self.clock
        hits = fresh = 0
        pages = lines // _PAGE_LINES
        cuts = np.flatnonzero(np.diff(pages)) + 1
        for chunk in np.split(lines, cuts):
            page = int(chunk[0] // _PAGE_LINES)
            idx = chunk % _PAGE_LINES
            stamps, dirty = self._page(page)
            present = stamps[idx] >= 0
            n_present = int(np.count_nonzero(present))
            hits += n_present
            if bypass:
                if write and n_present:
                    gone = idx[present]
                    stamps[gone] = -1
                    dirty[gone] = False
                    self.resident -= n_present
                continue
            fresh += len(idx) - n_present
            stamps[idx] = stamp
            if write:
                dirty[idx] = True
            record = (page, idx, stamp)
            if write and self.writes_first:
                self.order.appendleft(record)
            else:
                self.order.append(record)
        self.resident += fresh
        written_back = self._evict() if fresh else 0
        return hits, len(lines) - hits, written_back

    def _evict(self) -> int:
        """Drop least recently touched lines until the cache fits; the dirty bytes dropped."""
        written = 0
        order = self.order
        while self.resident > self.capacity and order:
            page, idx, stamp = order.popleft()
            stamps, dirty = self.stamps[page], self.dirty[page]
            gone = idx[stamps[idx] == stamp]  # lines touched again since are listed later
            if not len(gone):
                continue
            written += int(np.count_nonzero(dirty[gone])) * self.line
            dirty[gone] = False
            stamps[gone] = -1
            self.resident -= len(gone)
        return written


def gm_access(ins: Instr) -> tuple[int, int, bool] | None:
    """``(offset, length, write)`` of the global-memory side of a copy, or ``None``."""
    for a in ins.writes:
        if a.space is Space.GM:
            return a.offset, a.length, True
    for a in ins.reads:
        if a.space is Space.GM:
            return a.offset, a.length, False
    return None


def segment_lines(offset: int, count: int, seg_bytes: int, stride: int, line: int) -> np.ndarray:
    """The distinct L2 lines touched by ``count`` segments of ``seg_bytes`` every ``stride`` bytes."""
    starts = offset + np.arange(count, dtype=np.int64) * stride
    first = starts // line
    n = (starts + seg_bytes - 1) // line - first + 1
    if (n == 1).all():
        lines = first
    else:
        base = np.repeat(first, n)
        lines = base + (np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n))
    return np.unique(lines)


def classify(cache: L2Cache, transfers: Sequence[Sequence[Instr]], nbytes: Sequence[Sequence[float]]
             ) -> list[tuple[list[float], list[bool]]]:
    """Run the global-memory transfers of a wave's blocks through ``cache``, blocks interleaved
    by progress.  ``transfers[b]`` are block ``b``'s transfers in program order and
    ``nbytes[b]`` the bytes each moves.  Returns, per block, the bytes of each transfer that
    reach device memory (misses, bypassed writes, write-backs it caused) and whether it waits
    for device memory (a read that missed, a bypassed access) rather than L2.

    A strided copy whose cost gives its segments (``segments``, ``seg_bytes``, ``seg_stride``)
    touches only their lines, and a line it misses is fetched whole: reading one element per
    row costs a line per row, and the next columns then hit."""
    order: list[tuple[float, int, int]] = []
    for b, ts in enumerate(transfers):
        n = len(ts)
        order.extend((j / n, b, j) for j in range(n))
    order.sort()
    out = [([0.0] * len(ts), [False] * len(ts)) for ts in transfers]
    line = cache.line
    for _, b, j in order:
        ins = transfers[b][j]
        where = gm_access(ins)
        if where is None:
            continue
        offset, length, write = where
        cost = ins.cost
        bypass = cost.get("cache_mode") == BYPASS
        segments = cost.get("segments")
        if segments and segments > 1:
            seg_bytes, stride = int(cost["seg_bytes"]), int(cost["seg_stride"])
            lines = segment_lines(offset, int(segments), seg_bytes, stride, line)
            _, missed, written_back = cache.access_lines(lines, write=write, bypass=bypass)
            direct = missed * line if not write else (len(lines) * line if bypass else 0)
            out[b][0][j] = float(direct + written_back)
            out[b][1][j] = bypass or (not write and missed > 0)
            continue
        hit, direct, written_back = cache.access(offset, length, write=write, bypass=bypass)
        moved = nbytes[b][j]
        share = moved / length if length else 0.0
        out[b][0][j] = (direct + written_back) * share
        out[b][1][j] = bypass or (not write and direct > 0)
    return out
