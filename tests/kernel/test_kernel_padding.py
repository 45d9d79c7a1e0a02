"""Global accesses inside AscendCL's padding (``ALIGN_UP(size, 32) + 32``) run as on the device and
are reported by the launch's sanitizer; accesses past the padding still trap."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim import errors

F16, F32 = asc.float16, asc.float32
HERE = __file__


def line_of(marker: str) -> int:
    return next(i for i, text in enumerate(Path(HERE).read_text().splitlines(), 1)
                if marker in text and "line_of(" not in text)


N = 1000  # float16 elements: 2000 B requested, 2048 B padded
BLOCKS, PER_BLOCK = 4, 256  # the last block rounds up: elements 768..1023, 24 past the request


@asc.kernel
def fast_gelu_like(x, y):
    """The shape of the published FastGelu sample: every block copies a whole tile, the last one
    rounds up past the end of the tensors."""
    base = asc.get_block_idx() * PER_BLOCK
    gx, gy = asc.GlobalTensor(F16), asc.GlobalTensor(F16)
    gx.set_global_buffer(x.cast(F16) + base, PER_BLOCK)
    gy.set_global_buffer(y.cast(F16) + base, PER_BLOCK)
    pipe = asc.TPipe()
    qi, qo = asc.TQue(asc.TPosition.VECIN, 1), asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(qi, 1, PER_BLOCK * 2)
    pipe.init_buffer(qo, 1, PER_BLOCK * 2)
    t = qi.alloc_tensor(F16)
    asc.data_copy(t, gx, PER_BLOCK)  # PAD-READ
    qi.enque(t)
    t = qi.deque(F16)
    u = qo.alloc_tensor(F16)
    asc.muls(u, t, 2.0, PER_BLOCK)
    qo.enque(u)
    qi.free_tensor(t)
    u = qo.deque(F16)
    asc.data_copy(gy, u, PER_BLOCK)  # PAD-WRITE
    qo.free_tensor(u)


def test_reads_and_writes_in_the_padding_run_and_are_reported(run) -> None:
    x = np.linspace(-2, 2, N).astype(np.float16)
    with pytest.warns(asc.KernelSanitizerWarning, match=r"uninitialized read \(48 B at") as caught:
        launch, (_, y) = run(fast_gelu_like, BLOCKS, x, np.zeros(N, np.float16))
    assert np.array_equal(y, x * np.float16(2))  # the first N elements, as on the device
    assert len(caught) == 1 and f"{HERE}:{line_of('PAD-READ')} (block 3)" in str(caught[0].message)
    by_kind = {d.kind: d for d in launch.diagnostics}
    assert set(by_kind) == {"uninitialized_read", "out_of_request_write"}
    read, write = by_kind["uninitialized_read"], by_kind["out_of_request_write"]
    for d, marker in ((read, "PAD-READ"), (write, "PAD-WRITE")):
        assert (d.file, d.line, d.block, d.op, d.count) == (HERE, line_of(marker), 3, "data_copy", 1)
        assert (d.end - d.start, d.start - d.base, d.requested, d.padded) == (48, 2000, 2000, 2048)
        assert "allocated at" in d.allocation and d.allocation.startswith("<Buffer npu:0")
    assert read.base != write.base


@asc.kernel
def write_then_read_padding(x, y):
    g = asc.GlobalTensor(F32)
    g.set_global_buffer(x.cast(F32))
    if asc.get_block_idx() == 0:
        g.set_value(25, 7.0)  # PAD-SET: element 25 = bytes 100..103, past the 100 B requested
        g.get_value(25)  # PAD-GET-OWN: written above, not uninitialized
    else:
        g.get_value(25)  # PAD-GET-BLOCK1: written by block 0 earlier in the launch
        g.get_value(26)  # PAD-GET-UNINIT: never written


def test_padding_the_launch_wrote_is_not_uninitialized(run) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", asc.KernelSanitizerWarning)
        launch, _ = run(write_then_read_padding, 2, np.zeros(25, np.float32), np.zeros(1, np.float32))
    got = {(d.kind, d.line, d.block, d.op) for d in launch.diagnostics}
    assert got == {
        ("out_of_request_write", line_of("PAD-SET"), 0, "set_value"),
        ("out_of_request_read", line_of("PAD-GET-OWN"), 0, "get_value"),
        ("out_of_request_read", line_of("PAD-GET-BLOCK1"), 1, "get_value"),
        ("uninitialized_read", line_of("PAD-GET-UNINIT"), 1, "get_value"),
    }
    assert all(d.padded == 160 and d.requested == 100 for d in launch.diagnostics)


@asc.kernel
def read_at(start, count, x):
    pipe = asc.TPipe()
    buf = asc.TBuf()
    pipe.init_buffer(buf, 256)
    g = asc.GlobalTensor(F16)
    g.set_global_buffer(x)
    asc.data_copy(buf.get(F16), g[start], count)  # PAD-EDGE


def test_the_last_padded_byte_is_reachable_the_next_traps(run) -> None:
    x = np.zeros(64, np.float16)  # 128 B requested, 160 B padded
    with pytest.warns(asc.KernelSanitizerWarning):
        launch, _ = run(read_at, 1, x, extra=(0, 80))  # bytes 0..159
    (d,) = launch.diagnostics
    assert (d.kind, d.start - d.base, d.end - d.base) == ("uninitialized_read", 128, 160)
    with pytest.raises(errors.TaskError) as info:
        run(read_at, 1, x, extra=(16, 80))  # bytes 32..191
    e = info.value.cause
    assert isinstance(e, errors.GlobalOutOfRangeError)
    assert e.code == errors.ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW and e.line == line_of("PAD-EDGE")
    assert "160 B with the padding" in str(e) and "128 B requested" in str(e)


@asc.kernel
def strided_into_padding(x):
    pipe = asc.TPipe()
    buf = asc.TBuf()
    pipe.init_buffer(buf, 256)
    g = asc.GlobalTensor(F16)
    g.set_global_buffer(x)
    # blocks at bytes 0..31 and 64..95 (a 32 B gap): the gap covers bytes 40..63 of the padding
    asc.data_copy(buf.get(F16), g, asc.DataCopyParams(2, 1, 1, 0))


def test_a_strided_access_reports_only_the_bytes_it_touches(run) -> None:
    with pytest.warns(asc.KernelSanitizerWarning):
        launch, _ = run(strided_into_padding, 1, np.zeros(20, np.float16))  # 40 B requested, 96 B padded
    (d,) = launch.diagnostics
    assert (d.kind, d.start - d.base, d.end - d.base, d.padded) == ("uninitialized_read", 64, 96, 96)


@asc.kernel
def pointer_into_padding(x, y):
    g = asc.GlobalTensor(F32)
    g.set_global_buffer(x + 48)  # byte 48 of a 40 B allocation: inside its padding (96 B)
    g.get_value(0)  # PAD-PTR


def test_a_pointer_into_the_padding_resolves(run) -> None:
    with pytest.warns(asc.KernelSanitizerWarning):
        launch, _ = run(pointer_into_padding, 1, np.zeros(10, np.float32), np.zeros(1, np.float32))
    (d,) = launch.diagnostics
    assert (d.kind, d.start - d.base, d.line) == ("uninitialized_read", 48, line_of("PAD-PTR"))


def test_in_bounds_launches_report_nothing(run) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", asc.KernelSanitizerWarning)
        launch, (_, y) = run(fast_gelu_like, BLOCKS, np.ones(BLOCKS * PER_BLOCK, np.float16),
                             np.zeros(BLOCKS * PER_BLOCK, np.float16))
    assert launch.diagnostics == [] and (y == 2).all()


def test_a_pool_without_ascend_padding_pads_less() -> None:
    aclsim.init(chip="tiny", alloc_conf="ascend_padding:False")
    aclsim.set_device(0)
    buf = aclsim.malloc(512)  # a 512 B block: no room for AscendCL's 32 B
    launch = read_at[1](256, 16, buf)  # bytes 512..543
    with pytest.raises(errors.TaskError) as info:
        aclsim.synchronize_stream()
    assert isinstance(info.value.cause, errors.GlobalOutOfRangeError) and launch.error is info.value.cause
    aclsim.free(buf)


@asc.kernel
def nd2nz_into_padding(x):
    pipe = asc.TPipe()
    a1 = asc.TBuf(asc.TPosition.A1)
    pipe.init_buffer(a1, 512)
    g = asc.GlobalTensor(F16)
    g.set_global_buffer(x)
    # 2 rows of 16 halves, 24 halves apart: bytes 0..31 and 48..79 (the gap 32..47 is not read)
    asc.data_copy(a1.get(F16), g, asc.Nd2NzParams(1, 2, 16, 0, 24, 2, 1, 0))  # PAD-ND2NZ


def test_an_nd2nz_copy_reports_the_rows_it_reads(run) -> None:
    with pytest.warns(asc.KernelSanitizerWarning):
        launch, _ = run(nd2nz_into_padding, 1, np.zeros(20, np.float16))  # 40 B requested, 96 B padded
    (d,) = launch.diagnostics
    assert (d.kind, d.start - d.base, d.end - d.base, d.op) == ("uninitialized_read", 48, 80, "data_copy")
    assert d.line == line_of("PAD-ND2NZ")
