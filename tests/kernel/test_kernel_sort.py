"""The sort family (sort32, mrg_sort, get_mrg_sort_result, concat/sort/extract) against NumPy (exact:
scores and uint32 indices), with the recorded ranges and the faults."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.errors import TaskError
from aclsim.isa import Pipe

rng = np.random.default_rng(13)


def records(buf: np.ndarray, n: int, dtype) -> tuple[np.ndarray, np.ndarray]:
    """Scores and indices of the first ``n`` 8 B records of ``buf``."""
    raw = buf.view(np.uint8)[:8 * n].reshape(n, 8)
    isz = np.dtype(dtype).itemsize
    return raw[:, :isz].copy().view(dtype).ravel(), raw[:, 4:].copy().view(np.uint32).ravel()


def ref_sort(scores: np.ndarray, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(-scores.astype(np.float64), kind="stable")
    return scores[order], index[order]


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_sort32_sorts_each_repeat_descending_stable(vec, dtype) -> None:
    scores = rng.integers(-8, 8, 96).astype(dtype)  # many ties: input order must be kept
    index = rng.permutation(1000)[:96].astype(np.uint32)
    (z,) = vec(lambda z, s, i: asc.sort32(z, s, i, 3), [scores, index], [np.zeros(96 * 8 // 4, np.float32)
                                                                      .view(dtype)])
    got_s, got_i = records(z, 96, dtype)
    for r in range(3):
        es, ei = ref_sort(scores[32 * r:32 * r + 32], index[32 * r:32 * r + 32])
        assert got_s[32 * r:32 * r + 32].tolist() == es.tolist()
        assert got_i[32 * r:32 * r + 32].tolist() == ei.tolist()
    if dtype == np.float16:  # bytes 2..3 of a half record are reserved: written as 0
        assert not z.view(np.uint8).reshape(96, 8)[:, 2:4].any()


def test_sort32_repeat_zero_writes_nothing_and_records_ranges(run) -> None:
    @asc.kernel
    def k(out):
        pipe = asc.TPipe()
        bs, bi, bd = (asc.TBuf(asc.TPosition.VECCALC) for _ in range(3))
        pipe.init_buffer(bs, 256)
        pipe.init_buffer(bi, 256)
        pipe.init_buffer(bd, 1024)
        s, i, d = bs.get(asc.float32), bi.get(asc.uint32), bd.get(asc.float32)
        asc.duplicate(d, 7.0, 256)
        asc.sort32(d, s, i, 0)
        asc.sort32(d, s, i, 2)

    launch, _ = run(k, 1, np.zeros(1, np.float32))
    ops = [i for i in launch.streams[0] if i.pipe is Pipe.V and i.op == "sort32"]
    assert [(o.reads[0].length, o.reads[1].length, o.writes[0].length) for o in ops] == [(0, 0, 0),
                                                                                       (256, 256, 512)]
    assert ops[1].writes[0].offset == 512 and ops[1].reads[1].offset == 256


def sorted_queue(n: int, base: int, dtype=np.float32) -> np.ndarray:
    s = np.sort(rng.integers(-20, 20, n).astype(dtype))[::-1]
    return np.concatenate([s[:, None].astype(np.float32).view(np.uint32) if dtype == np.float32
                           else np.pad(s[:, None].view(np.uint16), ((0, 0), (0, 1))).view(np.uint32),
                           (np.arange(n, dtype=np.uint32) + base)[:, None]], 1).ravel()


def test_mrg_sort_merges_queues_earlier_queue_first_on_ties(vec) -> None:
    lens = (5, 7, 3, 0)
    qs = [sorted_queue(n, 100 * (q + 1)) for q, n in enumerate(lens)]
    packed = np.zeros(64, np.uint32)  # each queue at its own 8 B aligned start
    starts = [0, 12, 28, 40]
    for st, q in zip(starts, qs, strict=True):
        packed[st:st + q.size] = q

    def body(z, src):
        s = src.reinterpret_cast(asc.float32)
        lst = asc.MrgSortSrcList(s[starts[0]], s[starts[1]], s[starts[2]], s[starts[3]])
        asc.mrg_sort(z, lst, asc.MrgSort4Info(lens, False, 7, 1))
        assert asc.get_mrg_sort_result() == (5, 7, 3, 0)

    (z,) = vec(body, [packed], [np.zeros(64, np.float32)])
    allq = np.concatenate(qs[:3]).view(np.uint32).reshape(-1, 2)
    scores, index = allq[:, 0].copy().view(np.float32), allq[:, 1]
    es, ei = ref_sort(scores, index)
    gs, gi = records(z, 15, np.float32)
    assert gs.tolist() == es.tolist() and gi.tolist() == ei.tolist()
    assert not z[30:].any()


def test_mrg_sort_exhausted_suspension_and_high_level_form(vec) -> None:
    q1 = np.array([9, 1, 8, 2, 7, 3], np.float32)  # records (9, 1) (8, 2) (7, 3): 3 records
    q2 = np.array([10, 11, 6, 12, 5, 13, 4, 14], np.float32)  # 4 records, as raw float pairs
    src = np.concatenate([q1, np.zeros(2, np.float32), q2])
    got = {}

    def body(z, s):
        lst = asc.MrgSortSrcList(s[0], s[8])
        sorted_num = [0, 0, 0, 0]
        asc.mrg_sort(z, lst, [3, 4, 0, 0], sorted_num, 0b11, 1, is_exhausted_suspension=True)
        got["n"] = sorted_num

    (z,) = vec(body, [src], [np.zeros(16, np.float32)])
    # merge: 10 (q2), 9, 8, 7 (q1 now empty: stop)
    assert got["n"] == [3, 1, 0, 0]
    assert z[:8].tolist() == [10, 11, 9, 1, 8, 2, 7, 3] and not z[8:].any()


def test_mrg_sort_unsorted_queues_merge_head_by_head(vec) -> None:
    q1 = np.array([1, 0, 9, 1], np.float32)  # heads compared, not a global sort
    q2 = np.array([5, 2, 0.5, 3], np.float32)

    def body(z, s):
        asc.mrg_sort(z, asc.MrgSortSrcList(s[0], s[4]), asc.MrgSort4Info((2, 2, 0, 0), False, 3, 1))

    (z,) = vec(body, [np.concatenate([q1, q2])], [np.zeros(8, np.float32)])
    assert z.tolist() == [5, 2, 1, 0, 9, 1, 0.5, 3]


def test_mrg_sort_repeat_times(vec) -> None:
    qs = [sorted_queue(4, 10 * q) for q in range(8)]  # 2 repeats of 4 contiguous queues of 4
    src = np.concatenate(qs)

    def body(z, s):
        f = s.reinterpret_cast(asc.float32)
        lst = asc.MrgSortSrcList(f[0], f[8], f[16], f[24])
        asc.mrg_sort(z, lst, asc.MrgSort4Info((4, 4, 4, 4), False, 15, 2))

    (z,) = vec(body, [src], [np.zeros(64, np.float32)])
    for r in range(2):
        grp = np.concatenate(qs[4 * r:4 * r + 4]).reshape(-1, 2)
        es, ei = ref_sort(grp[:, 0].copy().view(np.float32), grp[:, 1])
        gs, gi = records(z[32 * r:], 16, np.float32)
        assert gs.tolist() == es.tolist() and gi.tolist() == ei.tolist()


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("n", [32, 160, 544])  # 1 run; 5 runs (2 rounds); 17 runs (3 rounds: via tmp)
def test_high_level_concat_full_sort_extract(vec, dtype, n) -> None:
    x = rng.integers(-50, 50, n).astype(dtype)
    idx = np.arange(n, dtype=np.uint32)

    def body(val, ind, concat, srt, tmp, src, index):
        asc.concat(concat, src, tmp, n // 16)
        asc.sort(srt, concat, index, tmp, n // 32, is_full_sort=True)
        asc.extract(val, ind, srt, n // 32)

    rec = np.zeros(n * 8 // np.dtype(dtype).itemsize, dtype)
    outs = [np.zeros(n, dtype), np.zeros(n, np.uint32), np.zeros(n, dtype), rec, rec]
    val, ind, concat, _, _ = vec(body, [x, idx], outs)
    es, ei = ref_sort(x, idx)
    assert concat.tolist() == x.tolist()
    assert val.tolist() == es.tolist() and ind.tolist() == ei.tolist()


def test_get_sort_offset() -> None:
    assert asc.get_sort_offset(asc.float16, 32) == 128 and asc.get_sort_offset(asc.float32, 32) == 64


def two_queues(n1: int, n2: int, repeat: int = 1) -> asc.MrgSort4Info:
    return asc.MrgSort4Info((n1, n2, 0, 0), False, 3, repeat)


def test_faults(vec, run) -> None:
    s = np.zeros(32, np.float32)
    with pytest.raises(TaskError, match="src1 .the indices. must be uint32"):
        vec(lambda z, a, b: asc.sort32(z, a, b, 1), [s, np.zeros(32, np.int32)], [np.zeros(64, np.float32)])
    with pytest.raises(TaskError, match="dst reaches UB byte") as info:
        vec(lambda z, a, b: asc.sort32(z, a, b, 1), [s, np.zeros(32, np.uint32)], [np.zeros(32, np.float32)])
    assert isinstance(info.value.cause, errors.LocalOutOfRangeError) and info.value.cause.file == __file__
    assert info.value.cause.code == errors.ACL_ERROR_RT_VECTOR_CORE_EXCEPTION
    with pytest.raises(TaskError, match="overlaps a source queue"):
        vec(lambda z, a: asc.mrg_sort(z, asc.MrgSortSrcList(z[0], a[0]), two_queues(2, 2)), [s],
            [np.zeros(32, np.float32)])
    with pytest.raises(TaskError, match="4 valid queues"):
        vec(lambda z, a: asc.mrg_sort(z, asc.MrgSortSrcList(a[0], a[4]), two_queues(2, 2, 2)), [s],
            [np.zeros(32, np.float32)])
    with pytest.raises(TaskError, match="not 8 B aligned"):
        vec(lambda z, a: asc.mrg_sort(z, asc.MrgSortSrcList(a[1], a[4]), two_queues(1, 1)), [s],
            [np.zeros(32, np.float32)])
    with pytest.raises(ValueError, match="valid_bit must be 3, 7 or 15"):
        asc.MrgSort4Info((1, 1, 0, 0), False, 5)

    @asc.kernel
    def on_310p(x):
        pipe = asc.TPipe()
        b = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(b, 1024)
        t = b.get(asc.float32)
        asc.sort32(t, t[64], t[128].reinterpret_cast(asc.uint32), 1)

    with pytest.raises(TaskError) as info:
        run(on_310p.with_options(chip="310P"), 1, np.zeros(1, np.float32))
    e = info.value.cause
    assert isinstance(e, errors.FeatureNotSupportedError) and "310P" in str(e) and e.code == 207000


# --- region proposals on the 310P ----------------------------------------------------------------

@asc.kernel
def rp_harness(body, specs, n_out, *ptrs):
    """Copies every operand GM -> UB, runs ``body(*tensors)``, copies the first ``n_out`` back."""
    pipe = asc.TPipe()
    tensors, gms = [], []
    for (dtype, count), ptr in zip(specs, ptrs, strict=True):
        buf = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(buf, max(32, -(-count * np.dtype(dtype).itemsize // 32) * 32))
        t, g = buf.get(dtype), asc.GlobalTensor(dtype)
        g.set_global_buffer(ptr)
        asc.data_copy(t, g, count)
        tensors.append(t)
        gms.append(g)
    asc.pipe_barrier(asc.PIPE_ALL)
    body(*tensors)
    asc.pipe_barrier(asc.PIPE_ALL)
    for t, g, (_, count) in list(zip(tensors, gms, specs, strict=True))[:n_out]:
        asc.data_copy(g, t, count)


def on_310p(run, body, outputs, inputs):
    arrays = [*outputs, *inputs]
    specs = [(a.dtype, a.size) for a in arrays]
    _, res = run(rp_harness.with_options(chip="310P"), 1, *arrays, extra=(body, specs, len(outputs)))
    return res[:len(outputs)]


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_proposal_concat_rp_sort16_mrg_sort4_extract(run, dtype) -> None:
    n = 64  # 4 repeats of 16 proposals, then one 4-way merge of the 4 sorted runs
    x = rng.integers(-10, 10, n).astype(dtype)  # ties: input order kept
    label = np.arange(n).astype(dtype)
    got = {}

    def body(val, lab, props, srt, merged, xs, ls):
        asc.proposal_concat(props, xs, 4, 4)
        asc.proposal_concat(props, ls, 4, 5)
        asc.rp_sort16(srt, props, 4)
        lst = asc.MrgSortSrcList(srt[0], srt[128], srt[256], srt[384])
        asc.mrg_sort4(merged, lst, asc.MrgSort4Info((16, 16, 16, 16), False, 15, 1))
        got["n"] = asc.get_mrg_sort_result()
        asc.proposal_extract(val, merged, 4, 4)
        asc.proposal_extract(lab, merged, 4, 5)

    props0 = np.full(8 * n, 3, dtype)  # the other elements are kept
    val, lab, props, srt, _ = on_310p(run, body, [np.zeros(n, dtype), np.zeros(n, dtype), props0,
                                                  np.zeros(8 * n, dtype), np.zeros(8 * n, dtype)], [x, label])
    pr = props.reshape(n, 8)
    assert pr[:, 4].tolist() == x.tolist() and pr[:, 5].tolist() == label.tolist()
    assert (pr[:, [0, 1, 2, 3, 6, 7]] == 3).all()
    for r in range(4):  # each run of 16 sorted (whole proposals moved)
        es, el = ref_sort(x[16 * r:16 * r + 16], label[16 * r:16 * r + 16])
        run_r = srt.reshape(n, 8)[16 * r:16 * r + 16]
        assert run_r[:, 4].tolist() == es.tolist() and run_r[:, 5].tolist() == el.tolist()
    es, el = ref_sort(x, label)
    assert val.tolist() == es.tolist() and lab.tolist() == el.tolist()
    assert got["n"] == (16, 16, 16, 16)


def test_proposal_faults(run, vec) -> None:
    with pytest.raises(TaskError, match="rp_sort16 does not exist on the tiny") as info:
        vec(lambda z, a: asc.rp_sort16(z, a, 1), [np.zeros(128, np.float16)], [np.zeros(128, np.float16)])
    assert info.value.cause.code == 207000
    with pytest.raises(TaskError, match="mode_number must be in 0..5"):
        on_310p(run, lambda d, s: asc.proposal_concat(d, s, 1, 6), [np.zeros(128, np.float16)],
                [np.zeros(16, np.float16)])
    with pytest.raises(TaskError, match="dst reaches UB byte"):
        on_310p(run, lambda d, s: asc.proposal_concat(d, s, 2, 4), [np.zeros(128, np.float16)],
                [np.zeros(32, np.float16)])
    with pytest.raises(TaskError, match="not 16 B aligned"):  # half proposals: 16 B aligned queues
        on_310p(run, lambda d, s: asc.mrg_sort4(d, asc.MrgSortSrcList(s[4], s[16]), two_queues(1, 1)),
                [np.zeros(32, np.float16)], [np.zeros(32, np.float16)])


def test_high_level_mrg_sort_on_310p_merges_proposals(run) -> None:
    a = np.zeros((2, 8), np.float32)
    b = np.zeros((2, 8), np.float32)
    a[:, 4], a[:, 5] = (5, 1), (0, 1)
    b[:, 4], b[:, 5] = (5, 3), (2, 3)  # a tie with a's first: a (the earlier queue) first
    got = {}

    def body(z, s):
        sorted_num = [0, 0, 0, 0]
        asc.mrg_sort(z, asc.MrgSortSrcList(s[0], s[16]), [2, 2, 0, 0], sorted_num, 0b11, 1)
        got["n"] = sorted_num

    (z,) = on_310p(run, body, [np.zeros(32, np.float32)], [np.concatenate([a, b]).ravel()])
    assert z.reshape(4, 8)[:, 5].tolist() == [0, 2, 3, 1] and got["n"] == [2, 2, 0, 0]
