"""``Fill`` / ``InitConstValue``: set a local tensor in L1, L0A or L0B to one value, and the high-level
``Fill`` of global memory.

``fill(dst, InitConstValueParams(repeat_times, block_num, dst_gap, init_value))`` writes
``repeat_times`` runs of ``block_num`` blocks, each run ``dst_gap`` blocks after the end of the one
before; a block is 32 B in L1 (the MTE2 pipe) and 512 B in L0A/L0B (the MTE1 pipe), whose start
must be 512 B aligned.  ``repeat_times`` or ``block_num`` 0 is a no-op.  On the inference chips
(arch 2002) only ``repeat_times`` and ``init_value`` count: each repeat fills 512 B, no gap.
Types: int16, uint16, half, bfloat16, int32, uint32, float (arch 2002: int16, uint16, half).
The fill is timed as a copy of the bytes it writes on its pipe (no fitted figure for it).
``fill(gm, size, value)`` on a ``GlobalTensor`` is ``InitGlobalMemory`` (the high-level ``Fill``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from aclsim.errors import LocalOutOfRangeError
from aclsim.isa import Pipe, Space
from aclsim.kernel._core import (
    BYTES,
    bfloat16,
    current,
    fault_code,
    float16,
    float32,
    int16,
    int32,
    uint16,
    uint32,
)
from aclsim.kernel.multicore import init_global_memory
from aclsim.kernel.operands import local_operand
from aclsim.kernel.repeat import check_types
from aclsim.kernel.tensor import GlobalTensor, LocalTensor

#: Block bytes of a fill by memory.
_BLOCK = {Space.L1: 32, Space.L0A: 512, Space.L0B: 512}
#: Fill types by arch (the Fill page).
_TYPES = {"2002": (int16, uint16, float16)}
_TYPES_DEFAULT = (int16, uint16, float16, bfloat16, int32, uint32, float32)
_LIMIT = 32767  # repeatTimes, blockNum and dstGap range


@dataclass
class InitConstValueParams:
    """``InitConstValueParams<T>``: ``repeat_times``, ``block_num`` and ``dst_gap`` (in blocks: 32 B in
    L1, 512 B in L0A/L0B, each 0..32767) and ``init_value``.  Ascend C's two-argument form
    ``(repeatTimes, initValue)`` is ``InitConstValueParams(repeat_times=r, init_value=v)``."""

    repeat_times: int = 0
    block_num: int = 0
    dst_gap: int = 0
    init_value: Any = 0


def fill(dst: LocalTensor | GlobalTensor, *args: Any) -> None:
    """``Fill(dst, InitConstValueParams)`` on an L1/L0A/L0B tensor, or the high-level ``Fill(gm, size,
    value)`` on a ``GlobalTensor`` (``InitGlobalMemory``)."""
    if isinstance(dst, GlobalTensor):
        if len(args) != 2:
            raise TypeError("fill(gm, size, value) fills global memory; fill(local, InitConstValueParams) "
                            "a local tensor")
        init_global_memory(dst, *args)
        return
    if len(args) != 1:
        raise TypeError("fill(dst, InitConstValueParams(repeat_times, block_num, dst_gap, init_value))")
    _fill_local("fill", dst, args[0])


def init_const_value(dst: LocalTensor, params: InitConstValueParams) -> None:
    """``InitConstValue(dst, InitConstValueParams)``: the older name of :func:`fill` on a local tensor."""
    _fill_local("init_const_value", dst, params)


def _fill_local(name: str, dst: LocalTensor, p: Any) -> None:
    core = current()
    local_operand(core, dst, name, "dst", spaces=(Space.L1, Space.L0A, Space.L0B))
    if not isinstance(p, InitConstValueParams):
        raise TypeError(f"{name} takes InitConstValueParams, got {type(p).__name__}")
    arch = core.chip.arch_version
    dt = dst.dtype
    check_types(name, dt, _TYPES.get(arch, _TYPES_DEFAULT))
    rep, num, gap = int(p.repeat_times), int(p.block_num), int(p.dst_gap)
    for what, v in (("repeat_times", rep), ("block_num", num), ("dst_gap", gap)):
        if not 0 <= v <= _LIMIT:
            raise ValueError(f"{name}: {what} must be in 0..{_LIMIT}, got {v}")
    block = _BLOCK[dst.space]
    if arch == "2002":  # only the repeats and the value count there: 512 B a repeat, no gap
        num, gap, block = 1, 0, 512
    if rep == 0 or num == 0:
        return
    # the value converted to T as C++ does: integers wrap to the type's bits
    value = np.array(int(p.init_value)).astype(dt) if dt.kind in "iu" else dt.type(p.init_value)
    per = block // dt.itemsize
    span = dst.span()
    starts = np.arange(rep) * (num + gap) * per
    end = int(starts[-1]) + num * per
    if end > span.size:
        core.fault(LocalOutOfRangeError, f"{name}: {rep} repeats of {num} x {block} B reach element "
                   f"{end - 1}, past dst's buffer ({span.size} elements of {dt})", code=fault_code(dst.space))
    span[(starts[:, None] + np.arange(num * per)[None, :]).ravel()] = value
    nbytes = rep * num * block
    pipe = Pipe.MTE2 if dst.space is Space.L1 else Pipe.MTE1
    core.emit(pipe, name, (), (dst.access(end * dt.itemsize),), BYTES[nbytes])


__all__ = ["InitConstValueParams", "fill", "init_const_value"]
