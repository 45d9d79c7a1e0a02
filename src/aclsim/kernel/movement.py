"""Layout changes in UB and copy modes: ``TransDataTo5HD`` and ``SetLoopModePara``/``ResetLoopModePara``.

``trans_data_to_5hd(dst_list, src_list, TransDataTo5HDParams)`` (``TransDataTo5HD``, the vector
unit's VNCHWCONV, PIPE_V) reads 16 data blocks (32 B each, anywhere in UB) per repeat and writes
16: with 16-bit types dst block ``j`` holds element ``j`` of src blocks 0..15 (a 16 x 16
transpose); with 32-bit types dst blocks ``2k`` and ``2k + 1`` hold element ``k`` of src blocks
0..7 and 8..15; with 8-bit types dst block ``j``'s low or high 16 bytes (``dst_high_half``) hold
element ``j`` (+16 with ``src_high_half``) of src blocks 0..15, the other half left as it was.
Repeat ``r`` moves every src address ``r * src_rep_stride`` and every dst address
``r * dst_rep_stride`` blocks on; with ``repeat_times == 1`` the single repeat is moved by one
stride, as the TransDataTo5HD page says (set the strides to 0 to use the addresses as given).

``set_loop_mode_para(LoopModeParams, DataCopyMVType)`` exists on arch 3510 only (Ascend 950): the
presets refuse it (``UnsupportedFault``, 207000).  On a 3510 ``ChipSpec`` the next ``data_copy`` /
``data_copy_pad`` of that direction runs ``loop2_size`` x ``loop1_size`` times, its operands moved
on by the loops' byte strides, until ``reset_loop_mode_para``; aclsim records each iteration as
its own copy.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from aclsim.errors import LocalOutOfRangeError, MisalignedAccessError
from aclsim.isa import NO_COST, Access, Pipe, Space
from aclsim.kernel._core import REPEATS, Core, UnsupportedFault, as_dtype, current, fault_code, space_capacity
from aclsim.kernel.tensor import LocalTensor

NCHW_CONV_ADDR_LIST_SIZE = 16
_BLOCK = 32
#: arch -> the types TransDataTo5HD takes (the page's table; bfloat16 only on arch 3510)
_5HD_TYPES = {"3510": ("int8", "uint8", "int16", "uint16", "float16", "bfloat16", "int32", "uint32",
                        "float32")}
_5HD_DEFAULT = ("int8", "uint8", "int16", "uint16", "float16", "int32", "uint32", "float32")


@dataclass(frozen=True)
class TransDataTo5HDParams:
    """``TransDataTo5HDParams{dstHighHalf, srcHighHalf, repeatTimes, dstRepStride, srcRepStride}``."""

    dst_high_half: bool = False
    src_high_half: bool = False
    repeat_times: int = 1
    dst_rep_stride: int = 0
    src_rep_stride: int = 0


def _addresses(core: Core, lst: Any, dtype: Any, name: str, what: str) -> tuple[list[int], np.dtype]:
    """The 16 UB byte addresses of an operand list: LocalTensors, ints (``GetPhyAddr`` values, with
    ``dtype``) or a uint64 LocalTensor holding them (read on the scalar side, recorded)."""
    if isinstance(lst, LocalTensor):
        if lst.dtype != np.dtype(np.uint64) or lst.space is not Space.UB:
            raise TypeError(f"{name}: {what} as one tensor holds the 16 addresses as uint64 in UB, got "
                            f"{lst!r}")
        lst.check_live(core, name, what)
        if lst.size < NCHW_CONV_ADDR_LIST_SIZE:
            core.fault(LocalOutOfRangeError, f"{name}: {what} holds {lst.size} addresses, needs 16",
                       code=fault_code(Space.UB))
        core.emit(Pipe.S, "get_value", (lst.access(16 * 8),), (), NO_COST)
        lst = [int(a) for a in lst.view[:16]]
    seq = list(lst) if isinstance(lst, Sequence) else None
    if seq is None or len(seq) != NCHW_CONV_ADDR_LIST_SIZE:
        raise TypeError(f"{name}: {what} must be 16 LocalTensors or 16 UB addresses")
    if all(isinstance(t, LocalTensor) for t in seq):
        for t in seq:
            if t.space is not Space.UB:
                raise ValueError(f"{name}: {what} is in {t.space.value}; {name} takes it in UB")
            t.check_live(core, name, what)
        dts = {t.dtype for t in seq}
        if len(dts) != 1:
            raise TypeError(f"{name}: the {what} tensors have different types {sorted(map(str, dts))}")
        return [t.offset for t in seq], dts.pop()
    if dtype is None:
        raise TypeError(f"{name}: {what} given as addresses needs dtype= (the template argument T)")
    return [int(a) for a in seq], as_dtype(dtype)


def trans_data_to_5hd(dst_list: Any, src_list: Any, params: TransDataTo5HDParams, dtype: Any = None) -> None:
    """``TransDataTo5HD<T>(dstList, srcList, TransDataTo5HDParams)`` (see the module docstring)."""
    core = current()
    name = "trans_data_to_5hd"
    d_addr, dt = _addresses(core, dst_list, dtype, name, "dst_list")
    s_addr, st = _addresses(core, src_list, dtype if dtype is not None else dt, name, "src_list")
    if dt != st:
        raise TypeError(f"{name}: dst {dt} and src {st} must be the same type")
    allowed = _5HD_TYPES.get(core.chip.arch_version, _5HD_DEFAULT)
    if dt.name not in allowed:
        core.fault(UnsupportedFault,
                   f"{name}: {dt} on {core.chip.name} (arch {core.chip.arch_version}); it takes "
                   + ", ".join(allowed))
    reps, ds, ss = int(params.repeat_times), int(params.dst_rep_stride), int(params.src_rep_stride)
    if not 0 <= reps <= 255 or ds < 0 or ss < 0:
        raise ValueError(f"{name}: repeat_times must be in 0..255 and the strides >= 0, got {params}")
    first = 1 if reps == 1 else 0  # one repeat is moved by one stride (the page's rule)
    limit = space_capacity(core.chip, Space.UB)
    for a, what, step in [(a, "dst_list", ds) for a in d_addr] + [(a, "src_list", ss) for a in s_addr]:
        if a % _BLOCK:
            core.fault(MisalignedAccessError, f"{name}: {what} address {a} is not 32 B aligned",
                       code=fault_code(Space.UB))
        end = a + (first + max(reps - 1, 0)) * step * _BLOCK + _BLOCK
        if a < 0 or (reps and end > limit):
            core.fault(LocalOutOfRangeError,
                       f"{name}: {what} block at {a} reaches UB byte {end}, past {limit}",
                       code=fault_code(Space.UB))
    ub = core.arenas[Space.UB]
    isz = dt.itemsize
    for r in range(first, first + reps):
        blocks = np.stack([ub[a + r * ss * _BLOCK: a + r * ss * _BLOCK + _BLOCK] for a in s_addr])  # (16, 32)
        for j, a in enumerate(d_addr):
            o = a + r * ds * _BLOCK
            if isz == 2:
                ub[o:o + _BLOCK] = np.ascontiguousarray(blocks.view(np.uint16)[:, j]).view(np.uint8)
            elif isz == 4:
                k, half = divmod(j, 2)
                col32 = blocks.view(np.uint32)[half * 8:(half + 1) * 8, k]
                ub[o:o + _BLOCK] = np.ascontiguousarray(col32).view(np.uint8)
            else:
                col = j + (16 if params.src_high_half else 0)
                lo = 16 if params.dst_high_half else 0
                ub[o + lo:o + lo + 16] = blocks[:, col]
    reads = tuple(core.access(Space.UB, a + first * ss * _BLOCK, (reps - 1) * ss * _BLOCK + _BLOCK)
                  for a in s_addr) if reps else ()
    writes = tuple(core.access(Space.UB, a + first * ds * _BLOCK, (reps - 1) * ds * _BLOCK + _BLOCK)
                   for a in d_addr) if reps else ()
    core.emit(Pipe.V, name, _merge(reads), _merge(writes), REPEATS[reps])


def _merge(accesses: tuple[Access, ...]) -> tuple[Access, ...]:
    """The same byte ranges with duplicates dropped (16 addresses often repeat)."""
    return tuple(dict.fromkeys(accesses))


# --- loop mode ------------------------------------------------------------------------------------

class DataCopyMVType(enum.IntEnum):
    """``DataCopyMVType``: the path a loop mode applies to."""

    UB_TO_OUT = 0
    OUT_TO_UB = 1


@dataclass(frozen=True)
class LoopModeParams:
    """``LoopModeParams{loop1Size, loop2Size, loop1SrcStride, loop1DstStride, loop2SrcStride,
    loop2DstStride}``: inner (1) and outer (2) loop counts and byte strides."""

    loop1_size: int = 0
    loop2_size: int = 0
    loop1_src_stride: int = 0
    loop1_dst_stride: int = 0
    loop2_src_stride: int = 0
    loop2_dst_stride: int = 0


def _loop_chip(core: Core, name: str) -> None:
    if core.chip.arch_version != "3510":
        core.fault(UnsupportedFault, f"{name}: loop mode exists on arch 3510 (Ascend 950) only, not on "
                   f"{core.chip.name} (arch {core.chip.arch_version})",
                   hint="issue the copies in a loop, or use DataCopyParams strides")


def set_loop_mode_para(params: LoopModeParams, mv_type: DataCopyMVType) -> None:
    """``SetLoopModePara(loopParams, type)``: the next copies of that path loop (arch 3510)."""
    core = current()
    name = "set_loop_mode_para"
    _loop_chip(core, name)
    t = DataCopyMVType(mv_type)
    sizes = (params.loop1_size, params.loop2_size)
    if any(not 0 <= int(x) < 2**21 for x in sizes):
        raise ValueError(f"{name}: loop sizes are in [0, 2^21), got {sizes}")
    ub_strides = ((params.loop1_src_stride, params.loop2_src_stride) if t is DataCopyMVType.UB_TO_OUT
                  else (params.loop1_dst_stride, params.loop2_dst_stride))
    if any(int(x) % _BLOCK or not 0 <= int(x) < 2**21 for x in ub_strides):
        core.fault(MisalignedAccessError,
                   f"{name}: the UB-side strides {ub_strides} must be multiples of 32 B below 2^21",
                   code=fault_code(Space.UB))
    core.loop_mode[int(t)] = params
    core.emit(Pipe.S, name, (), (), NO_COST)


def reset_loop_mode_para(mv_type: DataCopyMVType) -> None:
    """``ResetLoopModePara(type)``: the copies of that path run once again (arch 3510)."""
    core = current()
    name = "reset_loop_mode_para"
    _loop_chip(core, name)
    core.loop_mode.pop(int(DataCopyMVType(mv_type)), None)
    core.emit(Pipe.S, name, (), (), NO_COST)
