"""TQueSync, PopStackBuffer and Trap."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors
from aclsim.arch import get_chip
from aclsim.errors import RaceError, TaskError


def line_of(marker: str) -> int:
    lines = Path(__file__).read_text().splitlines()
    return next(i for i, s in enumerate(lines, 1) if s.rstrip().endswith(marker))


def _sync_kernel(flagged: bool):
    @asc.kernel
    def k(y):
        pipe = asc.TPipe()
        buf = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(buf, 64)
        t = buf.get(asc.float32)
        g = asc.GlobalTensor(asc.float32)
        g.set_global_buffer(y)
        t.set_value(0, 42.0)
        if flagged:  # the TQueSync page's example: SetValue, then DataCopy after a PIPE_S -> PIPE_MTE3 flag
            sync = asc.TQueSync(asc.PIPE_S, asc.PIPE_MTE3)
            sync.set_flag(0)
            sync.wait_flag(0)
        asc.data_copy(g, t, 8)

    return k


def test_tque_sync_orders_the_two_pipes(run) -> None:
    launch, (y,) = run(_sync_kernel(True), 1, np.zeros(8, np.float32))
    assert y[0] == 42.0
    ops = [(i.op, i.pipe.name) for i in launch.streams[0] if i.op in ("set_flag", "wait_flag")]
    assert ops == [("set_flag", "S"), ("wait_flag", "MTE3")]
    with pytest.raises(TaskError) as info:
        run(_sync_kernel(False), 1, np.zeros(8, np.float32))
    assert isinstance(info.value.cause, RaceError)  # without it: the race the flag prevents


def test_tque_sync_needs_a_hardware_event(run) -> None:
    assert repr(asc.TQueSync(asc.PIPE_MTE2, asc.PIPE_S)) == "<TQueSync MTE2_S>"
    with pytest.raises(ValueError, match="no hardware event from V to FIX"):
        asc.TQueSync(asc.PIPE_V, asc.PIPE_FIX)


def test_pop_stack_buffer_is_the_rest_of_ub(run) -> None:
    seen: list = []

    @asc.kernel
    def k(y):
        pipe = asc.TPipe()
        buf = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(buf, 100)  # rounded up to 128 B
        t = asc.pop_stack_buffer(asc.int16, asc.TPosition.LCM)
        seen.append((t.offset, t.size))
        asc.duplicate(t, 3, 16)

    run(k, 1, np.zeros(8, np.float32))
    offset, size = seen[0]
    assert offset == 128 and size == (get_chip("tiny").ub_usable_bytes - 128) // 2


def test_trap_stops_the_kernel_at_its_line(run) -> None:
    @asc.kernel
    def k(y):
        asc.trap()  # TRAP-HERE

    with pytest.raises(TaskError) as info:
        run(k, 1, np.zeros(8, np.float32))
    e = info.value.cause
    assert isinstance(e, errors.KernelFault) and e.line == line_of("# TRAP-HERE")
    assert e.code == errors.ACL_ERROR_RT_AICORE_EXCEPTION
