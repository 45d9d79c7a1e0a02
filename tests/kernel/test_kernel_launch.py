"""Launches through the runtime, the queues' flag traffic, options, listeners, recorded streams."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim.compiler.hb import check
from aclsim.isa import NO_COST, Access, Cost, Pipe, Space

TILE = 128
TILES = 4  # TILE_NUM 2 x BUFFER_NUM 2


@asc.kernel
def small_add(x, y, z):
    pipe = asc.TPipe()
    qx, qy = asc.TQue(asc.TPosition.VECIN, 1), asc.TQue(asc.TPosition.VECIN, 1)
    qz = asc.TQue(asc.TPosition.VECOUT, 1)
    for q in (qx, qy, qz):
        pipe.init_buffer(q, 2, TILE * 2)
    gx, gy, gz = (asc.GlobalTensor(asc.half) for _ in range(3))
    base = TILE * TILES * asc.get_block_idx()
    for g, p in ((gx, x), (gy, y), (gz, z)):
        g.set_global_buffer(p.cast(asc.half) + base, TILE * TILES)
    for i in range(TILES):
        a, b = qx.alloc_tensor(asc.half), qy.alloc_tensor(asc.half)
        asc.data_copy(a, gx[i * TILE], TILE)
        asc.data_copy(b, gy[i * TILE], TILE)
        qx.enque(a)
        qy.enque(b)
        a, b = qx.deque(asc.half), qy.deque(asc.half)
        c = qz.alloc_tensor(asc.half)
        asc.add(c, a, b, TILE)
        qz.enque(c)
        qx.free_tensor(a)
        qy.free_tensor(b)
        c = qz.deque(asc.half)
        asc.data_copy(gz[i * TILE], c, TILE)
        qz.free_tensor(c)


def flags(instrs) -> list[str]:
    out = []
    for ins in instrs:
        if ins.op in ("set_flag", "wait_flag"):
            out.append(f"{ins.op[:-5]} {ins.src.name}_{ins.dst.name} {ins.event_id}")
    return out


# Hand-derived: every queue buffer owns one id of each of its events ("each TQue buffer owns a
# sync eventID"), reserved at init_buffer in order: qx buffers 0, 1 -> MTE2_V/V_MTE2 ids 0, 1;
# qy buffers 0, 1 -> ids 2, 3; qz buffers 0, 1 -> V_MTE3/MTE3_V ids 0, 1.  EnQue/FreeTensor
# set the buffer's id, DeQue/AllocTensor wait on it; tiles alternate buffers 0, 1.
EXPECTED_FLAGS = [
    # tile 0 (buffers 0)
    "set MTE2_V 0", "set MTE2_V 2", "wait MTE2_V 0", "wait MTE2_V 2", "set V_MTE3 0",
    "set V_MTE2 0", "set V_MTE2 2", "wait V_MTE3 0", "set MTE3_V 0",
    # tile 1 (buffers 1: nothing to wait for yet)
    "set MTE2_V 1", "set MTE2_V 3", "wait MTE2_V 1", "wait MTE2_V 3", "set V_MTE3 1",
    "set V_MTE2 1", "set V_MTE2 3", "wait V_MTE3 1", "set MTE3_V 1",
    # tile 2: back on buffers 0, wait for their free events
    "wait V_MTE2 0", "wait V_MTE2 2", "set MTE2_V 0", "set MTE2_V 2", "wait MTE2_V 0", "wait MTE2_V 2",
    "wait MTE3_V 0", "set V_MTE3 0", "set V_MTE2 0", "set V_MTE2 2", "wait V_MTE3 0", "set MTE3_V 0",
    # tile 3
    "wait V_MTE2 1", "wait V_MTE2 3", "set MTE2_V 1", "set MTE2_V 3", "wait MTE2_V 1", "wait MTE2_V 3",
    "wait MTE3_V 1", "set V_MTE3 1", "set V_MTE2 1", "set V_MTE2 3", "wait V_MTE3 1", "set MTE3_V 1",
    # the TPipe's destruction at the end of the kernel waits for the pending free events
    "wait V_MTE2 0", "wait V_MTE2 1", "wait V_MTE2 2", "wait V_MTE2 3", "wait MTE3_V 0", "wait MTE3_V 1",
]


def test_queue_flag_traffic_and_exact_result(run) -> None:
    n = TILE * TILES * 2
    rng = np.random.default_rng(7)
    x = rng.standard_normal(n).astype(np.float16)
    y = rng.standard_normal(n).astype(np.float16)
    launch, (_, _, z) = run(small_add, 2, x, y, np.zeros(n, np.float16))
    assert z.tobytes() == (x + y).tobytes()
    assert launch.done and launch.error is None and len(launch.streams) == 2
    for stream in launch.streams:
        assert flags(stream) == EXPECTED_FLAGS
        # one signal deep: every reuse of an id is ordered after its previous wait, not by timing
        report = check(stream, same_pipe="inorder", pool=aclsim.get_chip("tiny").events_per_pipe_pair)
        assert report.issues == [] and report.races == []
    # pipes of the work instructions, and the source lines they carry
    work = [i for i in launch.streams[0] if i.op not in ("set_flag", "wait_flag")]
    assert [(i.pipe, i.op) for i in work[:4]] == [(Pipe.MTE2, "data_copy"), (Pipe.MTE2, "data_copy"),
                                                  (Pipe.V, "add"), (Pipe.MTE3, "data_copy")]
    assert all(i.file == __file__ and i.line > 0 for i in launch.streams[0])
    assert work[2].cost["repeats"] == 1 and work[0].cost["bytes"] == TILE * 2


def test_recorded_costs_are_typed_and_shared(run) -> None:
    n = TILE * TILES
    launch, _ = run(small_add, 1, *(np.zeros(n, np.float16) for _ in range(3)))
    stream = launch.streams[0]
    adds = [i.cost for i in stream if i.op == "add"]
    copies = [i.cost for i in stream if i.op == "data_copy"]
    assert all(type(c) is Cost for c in adds + copies) and adds[0].repeats == 1 and adds[0].bytes is None
    assert all(c is adds[0] for c in adds) and all(c is copies[0] for c in copies)  # one object per shape
    assert copies[0].bytes == TILE * 2 and copies[0].repeats is None
    assert all(i.cost is NO_COST for i in stream if i.op in ("set_flag", "wait_flag"))


def test_recorded_accesses_use_device_addresses(run) -> None:
    n = TILE * TILES
    bufs = [aclsim.malloc(n * 2) for _ in range(3)]
    try:
        launch = small_add[1](*bufs)
        aclsim.synchronize_device()
    finally:
        for b in bufs:
            aclsim.free(b)
    first = launch.streams[0][0]
    assert first.reads == (Access(Space.GM, bufs[0].ptr, TILE * 2),)
    assert first.writes == (Access(Space.UB, 0, TILE * 2),)
    out = [i for i in launch.streams[0] if i.pipe is Pipe.MTE3 and i.op == "data_copy"][1]
    assert out.writes == (Access(Space.GM, bufs[2].ptr + TILE * 2, TILE * 2),)


def test_stream_clock_advances_by_the_report(run) -> None:
    n = TILE * TILES * 4
    stream = aclsim.create_stream()
    bufs = [aclsim.malloc(n * 2) for _ in range(3)]
    start, end = aclsim.create_event(), aclsim.create_event()
    try:
        aclsim.record_event(start, stream)
        launch = small_add[4, None, stream](*bufs)  # <<<blockDim, l2ctrl, stream>>>
        aclsim.record_event(end, stream)
        aclsim.synchronize_stream(stream)
        ms = aclsim.event_elapsed_time(start, end)
        assert launch.report.block_dim == 4 and launch.report.seconds > 0
        assert ms == pytest.approx(launch.report.seconds * 1e3, rel=1e-9)
        with asc.capture_launches() as seen:
            again = small_add[4, stream](*bufs)
            aclsim.synchronize_stream(stream)
        assert seen == [again] and again.report.total_cycles == launch.report.total_cycles
    finally:
        for e in (start, end):
            aclsim.destroy_event(e)
        for b in bufs:
            aclsim.free(b)
        aclsim.destroy_stream(stream)


def test_listeners_see_failures_too(run) -> None:
    seen: list[asc.KernelLaunch] = []
    fn = asc.add_launch_listener(seen.append)

    @asc.kernel
    def broken(x):
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)

    try:
        with pytest.raises(aclsim.errors.TaskError):
            run(broken, 1, np.zeros(16, np.float16))
    finally:
        asc.remove_launch_listener(fn)
    assert len(seen) == 1 and seen[0].error is not None and seen[0].report is None
    assert "broken" in repr(seen[0]) and "failed" in repr(seen[0])


@asc.kernel
def read_fresh(out):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(q, 1, 64)
    t = q.alloc_tensor(asc.float32)
    g = asc.GlobalTensor(asc.float32)
    g.set_global_buffer(out)
    g.set_value(0, t.get_value(0))
    g.set_value(1, asc.get_block_num())
    q.free_tensor(t)


def test_options_fill_nan_and_chip(run) -> None:
    _, (out,) = run(read_fresh, 1, np.zeros(8, np.float32))
    assert out[0] == 0 and out[1] == 1
    launch, (out,) = run(read_fresh.with_options(fill_nan=True, chip="910B"), 3, np.zeros(8, np.float32))
    assert np.isnan(out[0]) and out[1] == 3
    assert launch.chip.name == "910B" and launch.options.fill_nan
    with pytest.raises(ValueError):
        asc.KernelOptions(chip="no-such-chip")


def test_kernel_decorator_forms() -> None:
    @asc.kernel(detect_races=False)
    def k1(x):
        pass

    @asc.kernel(options=asc.KernelOptions(fill_nan=True))
    def k2(x):
        pass

    assert not k1.options.detect_races and k2.options.fill_nan and k1.name == "k1"
    assert repr(k1) == "<Kernel k1>"
