"""The sort family on the vector unit (PIPE_V, UB operands), arch 220 (910B) form.

A sorted element is an 8 B *record*: the score in the low bytes (a float in bytes 0..3, or a half
in bytes 0..1 with bytes 2..3 reserved: aclsim writes 0 there) and its uint32 index in bytes 4..7.

- ``sort32`` (``Sort32``): each repeat sorts 32 scores (descending) with their indices into 32
  records; equal scores keep their input order.
- ``mrg_sort`` (``MrgSort``): merges up to 4 sorted record queues into one, descending; on equal
  scores the earlier queue goes first.  With ``if_exhausted_suspension`` it stops when a queue runs
  out; ``get_mrg_sort_result`` then gives the records taken from each queue.  The high-level form
  (``MrgSort<T, isExhaustedSuspension>(dst, sortList, elementCountList, sortedNum, validBit,
  repeatTime)``) fills ``sorted_num``.
- ``concat`` / ``sort`` / ``extract``: the high-level Sort API (``Concat``, ``Sort<T, isFullSort>``,
  ``Extract``).  On arch 220 ``concat`` copies the scores (16 a repeat), ``sort`` is ``Sort32`` (and
  with ``is_full_sort`` merges the runs into one sorted list, through ``tmp``), ``extract`` splits
  32 records a repeat into scores and indices.

The 310P (arch 2002) forms use 8-element region proposals (``RpSort16``, ``MrgSort4``,
``ProposalConcat``, ``ProposalExtract``): aclsim does not model them; on the 310P preset these calls
fault with ``UnsupportedFault`` saying so (``Sort32`` and ``MrgSort`` do not exist there).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from aclsim.errors import ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, LocalOutOfRangeError
from aclsim.isa import Access, Pipe, Space
from aclsim.kernel._core import REPEATS, Core, UnsupportedFault, as_dtype, current, float16, float32, uint32
from aclsim.kernel.operands import local_operand
from aclsim.kernel.tensor import LocalTensor

REC = 8  #: bytes of one (score, index) record
_VMS4_SR = "VMS4_SR"  #: Core.spr key: the records the last MrgSort took from each queue
_VALID_BITS = {3: 2, 7: 3, 15: 4}


@dataclass(frozen=True)
class MrgSort4Info:
    """``MrgSort4Info(elementLengths, ifExhaustedSuspension, validBit, repeatTimes)``: the queue lengths
    in records (0..4095 each), whether to stop when a queue runs out, the valid queues (3, 7 or 15:
    the first 2, 3 or 4) and the repeat count (0..255)."""

    element_lengths: tuple[int, ...] = (0, 0, 0, 0)
    if_exhausted_suspension: bool = False
    valid_bit: int = 15
    repeat_times: int = 1

    def __post_init__(self) -> None:
        lens = tuple(int(x) for x in self.element_lengths)
        if len(lens) != 4 or not all(0 <= x <= 4095 for x in lens):
            raise ValueError(f"MrgSort4Info.element_lengths must be 4 lengths in 0..4095, got {lens}")
        object.__setattr__(self, "element_lengths", lens)
        if int(self.valid_bit) not in _VALID_BITS:
            raise ValueError(f"MrgSort4Info.valid_bit must be 3, 7 or 15 (0b11, 0b111, 0b1111), got "
                             f"{self.valid_bit}")
        if not 0 <= int(self.repeat_times) <= 255:
            raise ValueError(f"MrgSort4Info.repeat_times must be in 0..255, got {self.repeat_times}")


@dataclass
class MrgSortSrcList:
    """``MrgSortSrcList(src1, src2, src3, src4)``: the sorted queues (``src3``/``src4`` may be None when
    ``valid_bit`` leaves them out)."""

    src1: LocalTensor | None = None
    src2: LocalTensor | None = None
    src3: LocalTensor | None = None
    src4: LocalTensor | None = None

    def queues(self) -> list[LocalTensor | None]:
        return [self.src1, self.src2, self.src3, self.src4]


# --- helpers -----------------------------------------------------------------------------------


def _arch200(core: Core, name: str) -> None:
    """The region-proposal instructions: the 310P (arch 2002) only."""
    if core.chip.arch_version == "2002":
        return
    core.fault(UnsupportedFault, f"{name} does not exist on the {core.chip.name} (arch "
               f"{core.chip.arch_version}): it works on region proposals, an Atlas"
               " inference (310P) instruction",
               hint="on arch 220 sort (score, index) records with sort32 and mrg_sort")


def _arch220(core: Core, name: str, high_level: bool = False) -> None:
    if core.chip.arch_version != "2002":
        return
    if high_level:
        core.fault(UnsupportedFault, f"{name} on the {core.chip.name} (arch 2002) works on 8-element region "
                   "proposals, a layout aclsim does not model", hint="run the kernel on an arch 220 preset "
                   "(910B, tiny)")
    core.fault(UnsupportedFault, f"{name} does not exist on the {core.chip.name} (arch 2002): the "
               "Atlas inference AI Core sorts region proposals (RpSort16, MrgSort4), which aclsim does not "
               "model", hint="run the kernel on an arch 220 preset (910B, tiny)")


def _score_type(name: str, dtype: np.dtype) -> None:
    if dtype not in (float16, float32):
        raise TypeError(f"{name}: the scores must be half or float, got {dtype}")


def _rep(core: Core, name: str, repeat: Any, what: str = "repeat_time") -> int:
    r = int(repeat)
    if not 0 <= r <= 255:
        raise ValueError(f"{name}: {what} must be in 0..255, got {r}")
    return r


def _bytes(core: Core, t: LocalTensor, start: int, nbytes: int, name: str, what: str) -> Access:
    """The access to ``nbytes`` bytes from byte ``start`` of ``t`` (faulting past its buffer)."""
    lo = t.offset + start
    if lo + nbytes > t.buf_end:
        core.fault(LocalOutOfRangeError, f"{name}: {what} reaches UB byte {lo + nbytes}, past its buffer "
                   f"(which ends at {t.buf_end})", hint=f"give {what} room for every element the call "
                   "touches", code=ACL_ERROR_RT_VECTOR_CORE_EXCEPTION)
    return core.access(Space.UB, lo, nbytes)


def _ub(core: Core, a: Access) -> np.ndarray:
    return core.arenas[Space.UB][a.offset:a.offset + a.length]


def _scores(recs: np.ndarray, dtype: np.dtype, field: int = 0) -> np.ndarray:
    """The scores of records ``recs`` (uint8, ``(..., record bytes)``; the score is element ``field`` of
    a record) as float64."""
    isz = dtype.itemsize
    raw = np.ascontiguousarray(recs[..., field * isz:(field + 1) * isz])
    return raw.view(dtype)[..., 0].astype(np.float64)


def _records(scores: np.ndarray, index: np.ndarray) -> np.ndarray:
    out = np.zeros((*scores.shape, REC), np.uint8)
    isz = scores.dtype.itemsize
    out[..., :isz] = scores[..., None].view(np.uint8)
    out[..., 4:] = index.astype(np.uint32)[..., None].view(np.uint8)
    return out


def _overlap(a: Access, b: Access) -> bool:
    return a.length > 0 and b.length > 0 and a.offset < b.offset + b.length and b.offset < a.offset + a.length


# --- Sort32 ------------------------------------------------------------------------------------


def _sort32_values(scores: np.ndarray, index: np.ndarray) -> np.ndarray:
    """Records of each row of ``scores`` sorted descending (stable), with their ``index``."""
    order = np.argsort(-scores.astype(np.float64), axis=-1, kind="stable")
    return _records(np.take_along_axis(scores, order, -1), np.take_along_axis(index, order, -1))


def sort32(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, repeat_time: int) -> None:
    """``Sort32(dst, src0, src1, repeatTime)``: repeat ``r`` sorts scores ``src0[32r .. 32r+31]`` with
    their indices ``src1[...]`` (uint32) descending into 32 records at ``dst`` byte ``256 r``; equal
    scores keep their input order.  A repeat count of 0 writes nothing."""
    core = current()
    name = "sort32"
    _arch220(core, name)
    for t, what in ((dst, "dst"), (src0, "src0"), (src1, "src1")):
        local_operand(core, t, name, what)
    _score_type(name, src0.dtype)
    if dst.dtype != src0.dtype:
        raise TypeError(f"{name}: dst and src0 must share one dtype, got {dst.dtype}, {src0.dtype}")
    if src1.dtype != uint32:
        raise TypeError(f"{name}: src1 (the indices) must be uint32, got {src1.dtype}")
    rep = _rep(core, name, repeat_time)
    n = 32 * rep
    a0 = _bytes(core, src0, 0, n * src0.dtype.itemsize, name, "src0")
    a1 = _bytes(core, src1, 0, n * 4, name, "src1")
    ad = _bytes(core, dst, 0, n * REC, name, "dst")
    if rep:
        scores = _ub(core, a0).view(src0.dtype).reshape(rep, 32)
        index = _ub(core, a1).view(np.uint32).reshape(rep, 32)
        _ub(core, ad)[:] = _sort32_values(scores, index).ravel()
    core.emit(Pipe.V, name, (a0, a1), (ad,), REPEATS[rep])


# --- MrgSort -----------------------------------------------------------------------------------


def _merge(queues: list[np.ndarray], dtype: np.dtype, suspend: bool, field: int,
           rec: int) -> tuple[np.ndarray, list[int]]:
    """The hardware merge of record queues: repeatedly take the head with the largest score (the
    earliest queue on a tie); with ``suspend``, stop once a queue is empty.  Returns the records
    written and the count taken from each queue."""
    keys = [_scores(q, dtype, field) for q in queues]
    if suspend and any(q.shape[0] == 0 for q in queues):
        return np.zeros((0, rec), np.uint8), [0] * len(queues)
    if all(k.size < 2 or bool((np.diff(k) <= 0).all()) for k in keys):  # sorted queues: a stable sort
        allk = np.concatenate(keys)
        qid = np.concatenate([np.full(k.size, i) for i, k in enumerate(keys)])
        order = np.argsort(-allk, kind="stable")
        if suspend:  # stop after the first queue's last record
            last = min(int(np.flatnonzero(qid[order] == i)[-1]) for i in range(len(keys)))
            order = order[:last + 1]
        taken = [int((qid[order] == i).sum()) for i in range(len(keys))]
        return np.concatenate(queues)[order], taken
    pos = [0] * len(queues)
    out: list[np.ndarray] = []
    while True:  # unsorted queues: the head-by-head merge itself
        live = [i for i, k in enumerate(keys) if pos[i] < k.size]
        if not live:
            break
        best = max(live, key=lambda i: (keys[i][pos[i]], -i))
        out.append(queues[best][pos[best]])
        pos[best] += 1
        if suspend and pos[best] == keys[best].size:
            break
    return (np.array(out, np.uint8).reshape(-1, rec) if out else np.zeros((0, rec), np.uint8)), pos


def _mrg_sort_run(core: Core, name: str, dst: LocalTensor, srcs: MrgSortSrcList, info: MrgSort4Info,
                  proposals: bool = False) -> None:
    """MrgSort (8 B records) or, with ``proposals``, MrgSort4 (region proposals: 8 elements, the score
    element 4; the operands aligned to 16 B for half, 32 B for float)."""
    if proposals:
        _arch200(core, name)
    else:
        _arch220(core, name)
    _score_type(name, dst.dtype)
    REC = 8 * dst.dtype.itemsize if proposals else 8  # noqa: N806
    field = 4 if proposals else 0
    local_operand(core, dst, name, "dst", align=REC if proposals else None)
    nq = _VALID_BITS[int(info.valid_bit)]
    queues = srcs.queues()[:nq]
    for i, q in enumerate(queues):
        local_operand(core, q, name, f"src{i + 1}", align=REC if proposals else 8)
        assert q is not None
        if q.dtype != dst.dtype:
            raise TypeError(f"{name}: src{i + 1} is {q.dtype}, dst {dst.dtype}: the queues and dst share one "
                            "dtype")
    lens = info.element_lengths[:nq]
    rep = int(info.repeat_times)
    suspend = bool(info.if_exhausted_suspension)
    if rep > 1:
        q0 = queues[0]
        assert q0 is not None
        contiguous = all(q is not None and q.offset == q0.offset + i * lens[0] * REC
                         for i, q in enumerate(queues))
        if nq != 4 or len(set(lens)) != 1 or not contiguous or suspend:
            raise ValueError(f"{name}: repeat_times {rep} needs 4 valid queues (valid_bit 15) of one length, "
                             "stored one after another, and if_exhausted_suspension False (MrgSort's "
                             "documented conditions)")
    total = sum(lens)
    reads = []
    for i, (q, n) in enumerate(zip(queues, lens, strict=True)):
        assert q is not None
        reads.append(_bytes(core, q, 0, (rep - 1) * total * REC + n * REC if rep else 0, name, f"src{i + 1}"))
    dst_bytes = rep * total * REC
    ad = _bytes(core, dst, 0, dst_bytes, name, "dst")
    if any(_overlap(ad, a) for a in reads):
        raise ValueError(f"{name}: dst overlaps a source queue (MrgSort's documented constraint: no overlap)")
    ub = core.arenas[Space.UB]
    results, taken = [], [0] * 4
    for r in range(rep):
        qs = []
        for q, n in zip(queues, lens, strict=True):
            assert q is not None
            lo = q.offset + r * total * REC
            qs.append(ub[lo:lo + n * REC].reshape(n, REC).copy())
        merged, counts = _merge(qs, dst.dtype, suspend, field, REC)
        results.append(merged)
        taken[:nq] = counts
    written = np.concatenate(results).ravel() if results else np.zeros(0, np.uint8)
    ub[dst.offset:dst.offset + written.size] = written
    wa = core.access(Space.UB, dst.offset, int(written.size))
    core.spr[_VMS4_SR] = tuple(taken)
    core.emit(Pipe.V, name, tuple(reads), (wa,), REPEATS[-(-int(written.size) // 256)])


def mrg_sort(dst: LocalTensor, src: MrgSortSrcList, *args: Any,
             is_exhausted_suspension: bool = False) -> None:
    """``MrgSort(dst, src, MrgSort4Info)`` or the high-level ``MrgSort<T, isExhaustedSuspension>(dst,
    sortList, elementCountList, sortedNum, validBit, repeatTime)`` (``sorted_num``: a list of 4 that
    receives the records taken from each queue).

    Merges the valid queues (records, descending) into ``dst``; equal scores: the earlier queue first.
    Each repeat takes the next 4 queues (``repeat_times`` > 1 needs 4 equal, contiguous queues and no
    suspension).  With exhausted suspension it stops once a queue is empty; ``get_mrg_sort_result``
    then gives the count taken from each queue.  Queues that are not sorted merge head by head, as the
    hardware does.  On the 310P the high-level form merges region proposals (as ``mrg_sort4``); the
    basic form does not exist there.
    """
    core = current()
    name = "mrg_sort"
    if not isinstance(src, MrgSortSrcList):
        raise TypeError(f"{name}: src must be a MrgSortSrcList, got {type(src).__name__}")
    if len(args) == 1:
        info = args[0]
        if not isinstance(info, MrgSort4Info):
            raise TypeError(f"{name}: params must be a MrgSort4Info, got {type(info).__name__}")
        _mrg_sort_run(core, name, dst, src, info)
        return
    if len(args) != 4:
        raise TypeError(f"{name}: takes (dst, src, MrgSort4Info) or (dst, sort_list, element_count_list, "
                        "sorted_num, valid_bit, repeat_time)")
    counts, sorted_num, valid_bit, repeat = args
    if not isinstance(sorted_num, list) or len(sorted_num) != 4:
        raise TypeError(f"{name}: sorted_num must be a list of 4 (it receives the counts)")
    if not 1 <= int(repeat) <= 255:
        raise ValueError(f"{name}: repeat_time must be in 1..255, got {repeat}")
    info = MrgSort4Info(tuple(counts), is_exhausted_suspension, int(valid_bit), int(repeat))
    # the 310P's high-level MrgSort merges region proposals (its page's layout two): MrgSort4
    _mrg_sort_run(core, name, dst, src, info, proposals=core.chip.arch_version == "2002")
    sorted_num[:] = list(core.spr[_VMS4_SR])


def get_mrg_sort_result() -> tuple[int, int, int, int]:
    """``GetMrgSortResult(l1, l2, l3, l4)``: the records the last ``mrg_sort`` of this block took from
    each queue (as a tuple: Python has no output arguments); zeros before any."""
    core = current()
    taken = core.spr.get(_VMS4_SR, (0, 0, 0, 0))
    return (int(taken[0]), int(taken[1]), int(taken[2]), int(taken[3]))


# --- the high-level Sort API --------------------------------------------------------------------


def get_sort_offset(dtype: Any, elem_offset: int) -> int:
    """``GetSortOffset<T>(elemOffset)``: where record ``elem_offset`` of sorted data starts, in elements
    of ``T`` (8 B a record on arch 220; the page says bytes, its sample indexes a tensor with it)."""
    dt = as_dtype(dtype)
    _score_type("get_sort_offset", dt)
    return int(elem_offset) * REC // dt.itemsize


def concat(concat: LocalTensor, src: LocalTensor, tmp: LocalTensor, repeat_time: int) -> None:
    """``Concat(concat, src, tmp, repeatTime)``: on arch 220 the scores to sort are ``src`` itself, so
    this copies ``16 * repeat_time`` elements of ``src`` to ``concat`` (``tmp`` is not touched)."""
    core = current()
    name = "concat"
    _arch220(core, name, high_level=True)
    for t, what in ((concat, "concat"), (src, "src"), (tmp, "tmp")):
        local_operand(core, t, name, what)
    _score_type(name, src.dtype)
    if concat.dtype != src.dtype:
        raise TypeError(f"{name}: concat and src must share one dtype, got {concat.dtype}, {src.dtype}")
    rep = _rep(core, name, repeat_time)
    nbytes = 16 * rep * src.dtype.itemsize
    sa = _bytes(core, src, 0, nbytes, name, "src")
    da = _bytes(core, concat, 0, nbytes, name, "concat")
    _ub(core, da)[:] = _ub(core, sa).copy()
    core.emit(Pipe.V, name, (sa,), (da,), REPEATS[-(-nbytes // 256)])


def sort(dst: LocalTensor, concat: LocalTensor, index: LocalTensor, tmp: LocalTensor, repeat_time: int,
         is_full_sort: bool = False) -> None:
    """``Sort<T, isFullSort>(dst, concat, index, tmp, repeatTime)``: ``Sort32`` of the ``32 *
    repeat_time`` scores; with ``is_full_sort`` the sorted runs are then merged 4 at a time (through
    ``tmp``, which needs room for every record) into one list, descending, equal scores in input
    order."""
    core = current()
    name = "sort"
    _arch220(core, name, high_level=True)
    local_operand(core, tmp, name, "tmp")
    if tmp.dtype != concat.dtype:
        raise TypeError(f"{name}: tmp must be {concat.dtype} like concat, got {tmp.dtype}")
    rep = _rep(core, name, repeat_time)
    runs = rep
    rounds = 0
    while is_full_sort and runs > 1:
        runs = -(-runs // 4)
        rounds += 1
    n = 32 * rep
    if rounds:
        _bytes(core, dst, 0, n * REC, name, "dst")  # both fault before anything is written
        _bytes(core, tmp, 0, n * REC, name, "tmp")
    sort32(dst, concat, index, rep)
    bufs, run = [dst, tmp], 32
    for k in range(rounds):
        src_t, dst_t = bufs[k % 2], bufs[(k + 1) % 2]
        ra = core.access(Space.UB, src_t.offset, n * REC)
        wa = core.access(Space.UB, dst_t.offset, n * REC)
        recs = _ub(core, ra).reshape(-1, REC)
        out = np.empty_like(recs)
        for g in range(0, n, 4 * run):  # groups of 4 sorted runs: a stable sort is their merge
            grp = recs[g:g + 4 * run]
            out[g:g + 4 * run] = grp[np.argsort(-_scores(grp, concat.dtype), kind="stable")]
        _ub(core, wa)[:] = out.ravel()
        core.emit(Pipe.V, "mrg_sort", (ra,), (wa,), REPEATS[-(-n * REC // 256)])
        run *= 4
    if rounds % 2:  # the result is in tmp: copy it back
        ra = core.access(Space.UB, tmp.offset, n * REC)
        wa = core.access(Space.UB, dst.offset, n * REC)
        _ub(core, wa)[:] = _ub(core, ra).copy()
        core.emit(Pipe.V, "copy", (ra,), (wa,), REPEATS[-(-n * REC // 256)])


def extract(dst_value: LocalTensor, dst_index: LocalTensor, sorted: LocalTensor,  # noqa: A002
            repeat_time: int) -> None:
    """``Extract(dstValue, dstIndex, sorted, repeatTime)``: splits ``32 * repeat_time`` records (256 B a
    repeat: 64 float or 128 half elements) into their scores and uint32 indices."""
    core = current()
    name = "extract"
    _arch220(core, name, high_level=True)
    for t, what in ((dst_value, "dst_value"), (dst_index, "dst_index"), (sorted, "sorted")):
        local_operand(core, t, name, what)
    _score_type(name, sorted.dtype)
    if dst_value.dtype != sorted.dtype:
        raise TypeError(f"{name}: dst_value and sorted must share one dtype, got {dst_value.dtype}, "
                        f"{sorted.dtype}")
    if dst_index.dtype != uint32:
        raise TypeError(f"{name}: dst_index must be uint32, got {dst_index.dtype}")
    rep = _rep(core, name, repeat_time)
    n = 32 * rep
    sa = _bytes(core, sorted, 0, n * REC, name, "sorted")
    va = _bytes(core, dst_value, 0, n * sorted.dtype.itemsize, name, "dst_value")
    ia = _bytes(core, dst_index, 0, n * 4, name, "dst_index")
    recs = _ub(core, sa).reshape(n, REC).copy()
    isz = sorted.dtype.itemsize
    _ub(core, va)[:] = recs[:, :isz].ravel()
    _ub(core, ia)[:] = recs[:, 4:].ravel()
    core.emit(Pipe.V, name, (sa,), (va, ia), REPEATS[rep])


# --- region proposals (the 310P: arch 2002) ----------------------------------------------------

_FIELDS = ("x1", "y1", "x2", "y2", "score", "label")


def _proposal_operands(core: Core, name: str, dst: LocalTensor, src: LocalTensor, repeat: Any) -> int:
    _arch200(core, name)
    local_operand(core, dst, name, "dst")
    local_operand(core, src, name, "src")
    _score_type(name, src.dtype)
    if dst.dtype != src.dtype:
        raise TypeError(f"{name}: dst and src must share one dtype, got {dst.dtype}, {src.dtype}")
    return _rep(core, name, repeat)


def _mode(name: str, mode: Any) -> int:
    m = int(mode)
    if not 0 <= m <= 5:
        fields = ", ".join(f"{i} {f}" for i, f in enumerate(_FIELDS))
        raise ValueError(f"{name}: mode_number must be in 0..5 ({fields}), got {m}")
    return m


def rp_sort16(dst: LocalTensor, src: LocalTensor, repeat_time: int) -> None:
    """``RpSort16(dst, src, repeatTime)``: repeat ``r`` sorts region proposals ``16r .. 16r+15`` (8
    elements each, the score element 4) by score, descending; equal scores keep their input order."""
    core = current()
    name = "rp_sort16"
    rep = _proposal_operands(core, name, dst, src, repeat_time)
    rec = 8 * src.dtype.itemsize
    sa = _bytes(core, src, 0, 16 * rep * rec, name, "src")
    da = _bytes(core, dst, 0, 16 * rep * rec, name, "dst")
    recs = _ub(core, sa).reshape(rep, 16, rec)
    order = np.argsort(-_scores(recs, src.dtype, 4), axis=-1, kind="stable")
    _ub(core, da)[:] = np.take_along_axis(recs, order[..., None], 1).ravel()
    core.emit(Pipe.V, name, (sa,), (da,), REPEATS[rep])


def mrg_sort4(dst: LocalTensor, src: MrgSortSrcList, params: MrgSort4Info) -> None:
    """``MrgSort4(dst, src, MrgSort4Info)``: ``mrg_sort`` of sorted region-proposal queues (lengths in
    proposals; the score is element 4); ``get_mrg_sort_result`` gives the proposals taken from each."""
    core = current()
    if not isinstance(src, MrgSortSrcList):
        raise TypeError(f"mrg_sort4: src must be a MrgSortSrcList, got {type(src).__name__}")
    if not isinstance(params, MrgSort4Info):
        raise TypeError(f"mrg_sort4: params must be a MrgSort4Info, got {type(params).__name__}")
    _mrg_sort_run(core, "mrg_sort4", dst, src, params, proposals=True)


def proposal_concat(dst: LocalTensor, src: LocalTensor, repeat_time: int, mode_number: int) -> None:
    """``ProposalConcat(dst, src, repeatTime, modeNumber)``: element ``mode_number`` (0 x1, 1 y1, 2 x2,
    3 y2, 4 score, 5 label) of proposal ``p`` of ``dst`` = ``src[p]``, for ``16 * repeat_time``
    proposals; the other elements are kept.  The recorded write spans from the first such element to
    the last."""
    core = current()
    name = "proposal_concat"
    rep = _proposal_operands(core, name, dst, src, repeat_time)
    m = _mode(name, mode_number)
    n, isz = 16 * rep, src.dtype.itemsize
    sa = _bytes(core, src, 0, n * isz, name, "src")
    da = _bytes(core, dst, m * isz, ((n - 1) * 8 + 1) * isz if n else 0, name, "dst")
    if n:
        dst.span()[m:m + 8 * n:8] = _ub(core, sa).view(src.dtype).copy()
    core.emit(Pipe.V, name, (sa,), (da,), REPEATS[rep])


def proposal_extract(dst: LocalTensor, src: LocalTensor, repeat_time: int, mode_number: int) -> None:
    """``ProposalExtract(dst, src, repeatTime, modeNumber)``: ``dst[p]`` = element ``mode_number`` of
    proposal ``p`` of ``src``, for ``16 * repeat_time`` proposals (the inverse of
    ``proposal_concat``)."""
    core = current()
    name = "proposal_extract"
    rep = _proposal_operands(core, name, dst, src, repeat_time)
    m = _mode(name, mode_number)
    n, isz = 16 * rep, src.dtype.itemsize
    sa = _bytes(core, src, m * isz, ((n - 1) * 8 + 1) * isz if n else 0, name, "src")
    da = _bytes(core, dst, 0, n * isz, name, "dst")
    if n:
        values = src.span()[m:m + 8 * n:8].copy()
        _ub(core, da)[:] = values.view(np.uint8)
    core.emit(Pipe.V, name, (sa,), (da,), REPEATS[rep])


__all__ = [
    "MrgSort4Info",
    "MrgSortSrcList",
    "concat",
    "extract",
    "get_mrg_sort_result",
    "get_sort_offset",
    "mrg_sort",
    "mrg_sort4",
    "proposal_concat",
    "proposal_extract",
    "rp_sort16",
    "sort",
    "sort32",
]
