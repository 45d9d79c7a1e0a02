"""Constant fills of the cube's memories: ``InitConstValue`` / ``Fill`` (L1, L0A, L0B) and ``Fill`` of GM.

``init_const_value(dst, InitConstValueParams(repeat_times, block_num, dst_gap, init_value))`` writes
``init_value`` into ``repeat_times`` runs of ``block_num`` blocks, ``dst_gap`` blocks apart (end to
start); a block is 32 B in L1 (the instruction runs on MTE2) and 512 B in L0A/L0B (MTE1), as the
Fill page says.  ``fill`` is the newer name: on a LocalTensor it is this instruction, on a
GlobalTensor the high-level ``Fill(gm, size, value)`` (``init_global_memory``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from aclsim.isa import Pipe, Space
from aclsim.kernel._core import BYTES, current
from aclsim.kernel.multicore import init_global_memory
from aclsim.kernel.operands import local_bytes, local_operand
from aclsim.kernel.tensor import GlobalTensor, LocalTensor

_FRAC = 512  # bytes of an L0A/L0B block (one fractal)


@dataclass(frozen=True, init=False)
class InitConstValueParams:
    """``InitConstValueParams<T>``: ``(repeatTimes, blockNum, dstGap, initValue)`` or ``(repeatTimes,
    initValue)`` positionally, as the two C++ constructors; any field by keyword."""

    repeat_times: int = 0
    block_num: int = 0
    dst_gap: int = 0
    init_value: float = 0

    def __init__(self, *args: Any, repeat_times: int = 0, block_num: int = 0, dst_gap: int = 0,
                 init_value: float = 0) -> None:
        if len(args) == 2:
            repeat_times, init_value = args
        elif len(args) == 4:
            repeat_times, block_num, dst_gap, init_value = args
        elif args:
            raise TypeError(f"InitConstValueParams takes (repeatTimes, blockNum, dstGap, initValue) or "
                            f"(repeatTimes, initValue), got {len(args)} arguments")
        for name, value in (("repeat_times", repeat_times), ("block_num", block_num), ("dst_gap", dst_gap),
                            ("init_value", init_value)):
            object.__setattr__(self, name, value)


#: arch -> the element types InitConstValue/Fill takes (the Fill page's table)
_FILL_TYPES = {
    "2201": ("int16", "uint16", "float16", "bfloat16", "int32", "uint32", "float32"),
    "2002": ("int16", "uint16", "float16"),
}


def init_const_value(dst: LocalTensor, params: InitConstValueParams) -> None:
    """``InitConstValue(dst, InitConstValueParams)`` / ``Fill(dst, params)``: ``repeat_times`` times,
    ``block_num`` blocks of ``init_value``, ``dst_gap`` blocks between the end of one repeat and the
    start of the next; a block is 32 B in L1 (MTE2) and 512 B in L0A/L0B (MTE1).  On the 310P (arch
    2002) only ``repeat_times`` and ``init_value`` count: each repeat fills one 512 B block, no gap
    (the page).  ``repeat_times`` or ``block_num`` 0: nothing (a NOP)."""
    _fill_local("init_const_value", dst, params)


def _fill_local(name: str, dst: LocalTensor, params: InitConstValueParams) -> None:
    core = current()
    if not isinstance(params, InitConstValueParams):
        raise TypeError(f"{name} takes InitConstValueParams, got {type(params).__name__}")
    local_operand(core, dst, name, "dst", (Space.L1, Space.L0A, Space.L0B))
    allowed = _FILL_TYPES.get(core.chip.arch_version, _FILL_TYPES["2201"])
    if dst.dtype.name not in allowed:
        raise TypeError(f"{name}: {dst.dtype} is not filled on {core.chip.name}; it takes "
                        f"{', '.join(allowed)}")
    reps, blocks, gap = int(params.repeat_times), int(params.block_num), int(params.dst_gap)
    if not (0 <= reps <= 32767 and 0 <= blocks <= 32767 and 0 <= gap <= 32767):
        raise ValueError(f"{name}: repeat_times, block_num and dst_gap are in 0..32767, got "
                         f"{reps}, {blocks}, {gap}")
    in_l1 = dst.space is Space.L1
    if core.chip.arch_version == "2002":
        blk, blocks, gap = _FRAC, 1, 0
    else:
        blk = 32 if in_l1 else _FRAC
    if reps == 0 or blocks == 0:  # a NOP
        return
    run = blocks * blk
    step = run + gap * blk
    span = (reps - 1) * step + run
    buf = local_bytes(core, dst, span, name, "dst")
    # the value converted to T as C++ does: an integer wraps to the type's bits
    dt = dst.dtype
    value = np.array(int(params.init_value)).astype(dt) if dt.kind in "iu" else dt.type(params.init_value)
    pattern = np.full(run // dt.itemsize, value, dt).view(np.uint8)
    for i in range(reps):
        buf[i * step:i * step + run] = pattern
    core.emit(Pipe.MTE2 if in_l1 else Pipe.MTE1, name, (), (dst.access(span),), BYTES[reps * run])


def fill(dst: LocalTensor | GlobalTensor, *args: Any) -> None:
    """``Fill``: ``Fill(local, InitConstValueParams)`` is the new name of ``InitConstValue`` (the header:
    "InitConstValue has been updated, please use Fill instead"); ``Fill(gm, size, value)`` is the
    high-level API that sets global memory (``init_global_memory``)."""
    if isinstance(dst, GlobalTensor):
        init_global_memory(dst, *args)
    else:
        _fill_local("fill", dst, *args)


__all__ = ["InitConstValueParams", "fill", "init_const_value"]
