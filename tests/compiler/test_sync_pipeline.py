"""The named, ordered pipeline of the sync passes (``aclsim.compiler.pipeline``)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim.compiler import (
    PASSES,
    Pipeline,
    SyncError,
    SyncStats,
    auto_sync,
    find_races,
    format_program,
    kernel_pipeline,
    parse,
    strip_syncs,
    verify_sync,
)
from aclsim.compiler.gen import kernel_stream, random_program
from aclsim.errors import RaceError, TaskError

N = 512
F32 = asc.float32

KERNEL = """\
for i in 0..4 {
  MTE2 copy_in r:GM[i*512:i*512+256] w:UB[0:256]
  V add r:UB[0:256] w:UB[1024:1280]
  MTE3 copy_out r:UB[1024:1280] w:GM[i*512+65536:i*512+65792]
}
"""


def test_the_passes_are_listed_once_in_their_order() -> None:
    assert [p.name for p in PASSES] == ["strip_syncs", "infer_sync", "allocate_events", "verify_sync",
                                        "find_races"]
    assert all(p.doc for p in PASSES)
    assert repr(Pipeline.of("infer_sync", "allocate_events")) == "<Pipeline infer_sync -> allocate_events>"
    with pytest.raises(ValueError, match="in the order strip_syncs -> infer_sync"):
        Pipeline.of("allocate_events", "infer_sync")
    with pytest.raises(ValueError, match="in the order"):
        Pipeline.of("infer_sync", "infer_sync")
    with pytest.raises(ValueError, match="unknown pass 'fuse'"):
        Pipeline.of("infer_sync", "fuse")
    with pytest.raises(ValueError, match="same_pipe"):
        Pipeline.of("infer_sync", same_pipe="fifo")
    assert Pipeline(()).run([]) == []


def test_auto_sync_is_the_pipeline_infer_allocate_verify() -> None:
    trace = kernel_stream(400, depth=4, strong_every=7)
    stats, by_hand = SyncStats(), SyncStats()
    out = auto_sync(trace, pool=3, stats=stats)
    pipeline = Pipeline.of("infer_sync", "allocate_events", "verify_sync")
    assert [repr(x) for x in pipeline.run(trace, pool=3, stats=by_hand)] == [repr(x) for x in out]
    assert by_hand.infer == stats.infer and by_hand.alloc.ids_used == stats.alloc.ids_used
    assert by_hand.alloc.merges == stats.alloc.merges and by_hand.report is not None and by_hand.report.ok
    prog = parse(KERNEL)
    assert format_program(pipeline.run(prog, "910B")) == format_program(auto_sync(prog, "910B"))


def test_passes_are_pure() -> None:
    prog = random_program(random.Random(3), 10, hand=2)
    before = format_program(prog)
    synced = Pipeline.of("infer_sync", "allocate_events", "verify_sync").run(prog, pool=2)
    assert format_program(prog) == before and synced is not prog
    stripped = Pipeline.of("strip_syncs").run(synced)
    assert format_program(stripped) == format_program(strip_syncs(synced))
    assert "set_flag" not in format_program(stripped) and "for " in format_program(stripped)
    trace = kernel_stream(50)
    kept = list(trace)
    assert Pipeline.of("find_races").run(trace) == kept and trace == kept


def test_verify_and_race_passes_report_into_the_stats() -> None:
    racy = parse("MTE2 ld w:UB[0:64]\nV add r:UB[0:64]").items
    stats = SyncStats()
    assert Pipeline.of("find_races").run(racy, stats=stats) == racy
    assert [str(r) for r in stats.races] == [str(r) for r in find_races(racy)]
    with pytest.raises(SyncError, match="the stream does not verify") as exc:
        Pipeline.of("verify_sync").run(racy, stats=stats)
    assert "RAW race on UB[0:64]" in str(exc.value) and stats.report is not None and not stats.report.ok
    assert verify_sync(Pipeline.of("infer_sync", "allocate_events").run(racy), pool=8,
                       require_physical=True).ok


def _body(x, y):
    pipe = asc.TPipe()
    ub = asc.TBuf(asc.QuePosition.VECCALC)
    pipe.init_buffer(ub, 2 * 128 * 4)
    a, b = ub.get_with_offset(F32, 128, 0), ub.get_with_offset(F32, 128, 512)
    gx, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
    gx.set_global_buffer(x.cast(F32), N)
    gy.set_global_buffer(y.cast(F32), N)
    for i in range(N // 128):
        asc.data_copy(a, gx[i * 128], 128)
        asc.adds(b, a, 1.0, 128)
        asc.data_copy(gy[i * 128], b, 128)


def test_kernel_pipeline_is_what_a_launch_runs() -> None:
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    x = np.arange(N, dtype=np.float32)
    dx, dy = aclsim.malloc(x.nbytes), aclsim.malloc(x.nbytes)
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    chip = aclsim.get_chip("tiny")
    try:
        plain = asc.kernel(_body, detect_races=False)[1](dx, dy)  # the recorded work, no check
        synced = asc.kernel(_body, auto_sync=True)[1](dx, dy)
        aclsim.synchronize_stream()
        assert kernel_pipeline(auto_sync=False, detect_races=False).names == ()
        # auto_sync: the launch's flags are the pipeline's
        stats = SyncStats()
        out = kernel_pipeline(auto_sync=True, detect_races=True).run(plain.streams[0], chip, stats=stats)
        assert [repr(i) for i in out] == [repr(i) for i in synced.streams[0]]
        assert stats.alloc.ids_used == synced.sync_stats[0].alloc.ids_used and stats.report.ok
        # the sanitizer: the launch's RaceError names the pipeline's first race
        stats = SyncStats()
        kernel_pipeline(auto_sync=False, detect_races=True).run(plain.streams[0], chip, stats=stats)
        assert stats.races
        racy = asc.kernel(_body)[1](dx, dy)
        with pytest.raises(TaskError) as exc:
            aclsim.synchronize_stream()
        assert isinstance(racy.error, RaceError) and str(stats.races[0]) in str(exc.value)
    finally:
        for d in (dx, dy):
            aclsim.free(d)
        aclsim.reset_device(0)
        aclsim.finalize()
