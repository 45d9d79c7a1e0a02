"""Cube modes: ``SetHF32Mode``/``SetHF32TransMode`` and the ``unitFlag`` of ``Mmad``/``Fixpipe``.

HF32: with ``set_hf32_mode(HF32Mode.ENABLE)`` the float32 operands of ``mmad`` are rounded to
HF32 before the multiply (the products are then summed in float32 as before): the sign and the
8 exponent bits of float32 and the top 11 mantissa bits on arch 2201 (10 on arch 3510, as the
HF32 page notes; the 11 of arch 2201 is the Atlas A2 HF32 format, 1 + 8 + 11 bits: the page's
figure, not its text, gives it).  ``HF32TransMode.NEAREST_EVEN`` rounds to nearest, ties to
even; ``NEAREST_ZERO`` rounds to nearest, ties toward zero (aclsim's reading of "以向零靠近的方式
四舍五入").  Infinities and NaNs stay as they are; a carry past the largest finite value gives
infinity.  Not available on the 310P (arch 2002): ``UnsupportedFault``.

unitFlag (:class:`UnitFlags`): ``MmadParams.unit_flag`` / ``FixpipeParamsV220.unit_flag`` take
0 (off), 2 or 3 (anything else: ``ValueError``).  Each 512 B block of L0C has a unit flag bit,
as the UnitFlag page describes: an mmad with 2 or 3 writes blocks whose bit is 0 (3 sets them to
1 after), a fixpipe with 2 or 3 reads blocks whose bit is 1 (3 clears them after).  aclsim runs
the instructions in program order and records the hand-off as flags a queue would emit, at the
granularity of whole instructions: an mmad with 3 ends with ``set_flag(M_FIX)``, the next
fixpipe with a unit flag waits for every such set before it; a fixpipe with 3 ends with
``set_flag(FIX_M)``, the next mmad with a unit flag waits for them; sets nobody waited for are
waited for when the TPipe ends (as ``FreeAllEvent``).  Their ids come from the TPipe's pools.
A fixpipe that reads blocks no mmad marked readable, or an mmad that writes blocks still marked
readable, waits forever on the device unless an instruction later in program order flips the
bits: aclsim, which runs in program order, refuses both (``UnsupportedFault``).  The core model
times the hand-off per instruction, not per 512 B block.
"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from aclsim.errors import QueueError
from aclsim.isa import NO_COST, Access, HardEvent, Pipe, Space, set_flag, wait_flag
from aclsim.kernel._core import Core, UnsupportedFault, current, fault_code, where


class HF32Mode(enum.IntEnum):
    """``HF32Mode``: ``DISABLE`` (plain float32 mmad) or ``ENABLE`` (operands rounded to HF32)."""

    DISABLE = 0
    ENABLE = 1


class HF32TransMode(enum.IntEnum):
    """``HF32TransMode``: how float32 is rounded to HF32 (``asc_enable_hf32_trans``: 0 even, 1 zero)."""

    NEAREST_EVEN = 0
    NEAREST_ZERO = 1


#: arch -> mantissa bits of HF32
HF32_MANTISSA = {"2201": 11, "3510": 10}


def to_hf32(x: np.ndarray, mantissa: int, trans: int) -> np.ndarray:
    """``x`` (float32) rounded to ``mantissa`` mantissa bits (see the module docstring), as float32."""
    x = np.ascontiguousarray(x, np.float32)
    bits = x.view(np.uint32)
    drop = 23 - mantissa
    half = np.uint32(1 << (drop - 1))
    keep = np.uint32(~((1 << drop) - 1) & 0xFFFFFFFF)
    if trans == HF32TransMode.NEAREST_EVEN:
        bias = half - np.uint32(1) + ((bits >> np.uint32(drop)) & np.uint32(1))
    else:
        bias = half - np.uint32(1)  # ties go down in magnitude: toward zero
    rounded = ((bits + bias) & keep).view(np.float32)
    return np.where(np.isfinite(x), rounded, x)


def _mode(core: Core, name: str) -> int:
    bits = HF32_MANTISSA.get(core.chip.arch_version)
    if bits is None:
        core.fault(UnsupportedFault, f"{name}: no HF32 on {core.chip.name} (arch {core.chip.arch_version})",
                   hint="HF32 exists on arch 2201 (Atlas A2) and 3510")
    return bits


def set_hf32_mode(mode: HF32Mode | bool) -> None:
    """``SetHF32Mode(mode)``: round the float32 operands of later ``mmad`` to HF32 (PIPE_S)."""
    core = current()
    name = "set_hf32_mode"
    bits = _mode(core, name)
    trans = core.hf32[2] if core.hf32 is not None else HF32TransMode.NEAREST_EVEN
    core.hf32 = (HF32Mode(int(mode)) is HF32Mode.ENABLE, bits, trans)
    core.emit(Pipe.S, name, (), (), NO_COST)


def set_hf32_trans_mode(mode: HF32TransMode) -> None:
    """``SetHF32TransMode(mode)``: how ``set_hf32_mode`` rounds (PIPE_S; kept while HF32 is off)."""
    core = current()
    name = "set_hf32_trans_mode"
    bits = _mode(core, name)
    core.hf32 = (core.hf32 is not None and core.hf32[0], bits, HF32TransMode(int(mode)))
    core.emit(Pipe.S, name, (), (), NO_COST)


def check_unit_flag(core: Core, value: int, op: str) -> None:
    """``unit_flag`` must be 0, 2 or 3."""
    if value not in (0, 2, 3):
        raise ValueError(f"{op}: unit_flag is 0 (off), 2 or 3, got {value}")


class UnitFlags:
    """The unit flag bits of one block's L0C and the flags that record their hand-offs (see above)."""

    __slots__ = ("bits", "pending", "ids", "knows")

    def __init__(self) -> None:
        self.bits: dict[int, int] = {}  # 512 B block of L0C -> its unit flag bit
        # per direction (M_FIX: mmad -> fixpipe, FIX_M: fixpipe -> mmad): sets not waited for yet,
        # as (event id, instruction index of the set)
        self.pending: dict[HardEvent, list[tuple[int, int]]] = {HardEvent.M_FIX: [], HardEvent.FIX_M: []}
        # per direction: event id -> instruction index of its last wait (None: never waited)
        self.ids: dict[HardEvent, dict[int, int | None]] = {HardEvent.M_FIX: {}, HardEvent.FIX_M: {}}
        # per pipe: the highest index of an instruction of the other pipe it is known to follow
        self.knows: dict[Pipe, int] = {Pipe.M: -1, Pipe.FIX: -1}

    @staticmethod
    def blocks(access: Access) -> range:
        return range(access.offset // 512, -(-access.end // 512))

    def _id(self, core: Core, evt: HardEvent, op: str) -> int:
        """An id of ``evt`` whose last wait the setting pipe is known to follow (no signal lost)."""
        src = evt.src
        for eid, last in self.ids[evt].items():
            if (last is None or last <= self.knows[src]) and all(p[0] != eid for p in self.pending[evt]):
                return eid
        pipe = core.pipe
        if pipe is None:
            core.fault(QueueError, f"{op} with unit_flag needs a TPipe (its event ids carry the hand-off)",
                       code=fault_code(Space.L0C))
        eid = pipe.alloc_event_id(evt)
        self.ids[evt][eid] = None
        return eid

    def _wait_all(self, core: Core, evt: HardEvent, file: str, line: int) -> None:
        for eid, at in self.pending[evt]:
            core.instrs.append(wait_flag(evt.src, evt.dst, eid, file=file, line=line))
            self.ids[evt][eid] = len(core.instrs) - 1
            self.knows[evt.dst] = max(self.knows[evt.dst], at)
        self.pending[evt] = []

    def _set(self, core: Core, evt: HardEvent, op: str, file: str, line: int) -> None:
        eid = self._id(core, evt, op)
        core.instrs.append(set_flag(evt.src, evt.dst, eid, file=file, line=line))
        self.pending[evt].append((eid, len(core.instrs) - 1))

    def before(self, core: Core, op: str, unit_flag: int, access: Access) -> None:
        """Before an mmad (writes ``access``) or a fixpipe (reads it) with ``unit_flag``: check, wait."""
        if not unit_flag:
            return
        mmad = op == "mmad"
        want = 0 if mmad else 1
        bad = [b for b in self.blocks(access) if self.bits.get(b, 0) != want]
        if bad:
            what = ("writes L0C blocks still marked readable (an mmad with unit_flag=3 and no fixpipe with "
                    "unit_flag=3 read them since)" if mmad else
                    "reads L0C blocks no mmad with unit_flag=3 marked readable")
            core.fault(UnsupportedFault,
                       f"{op} with unit_flag={unit_flag} {what}: on the device it waits for an instruction "
                       "later in program order; aclsim runs in program order",
                       hint="issue the mmad (unit_flag=3) before the fixpipe that reads its blocks, and the "
                       "fixpipe (unit_flag=3) before the next mmad on them")
        file, line = where(3)
        self._wait_all(core, HardEvent.FIX_M if mmad else HardEvent.M_FIX, file, line)

    def after(self, core: Core, op: str, unit_flag: int, access: Access) -> None:
        """After an mmad / fixpipe with ``unit_flag``: flip the bits (3) and record the set."""
        if unit_flag != 3:
            return
        mmad = op == "mmad"
        for b in self.blocks(access):
            self.bits[b] = 1 if mmad else 0
        file, line = where(3)
        self._set(core, HardEvent.M_FIX if mmad else HardEvent.FIX_M, op, file, line)

    def drain(self, core: Core, file: str, line: int) -> None:
        """The TPipe ends: wait for the sets nobody waited for."""
        for evt in (HardEvent.M_FIX, HardEvent.FIX_M):
            self._wait_all(core, evt, file, line)


def unit_flags(core: Core) -> Any:
    """The running block's :class:`UnitFlags` (made at its first use)."""
    if core.unit is None:
        core.unit = UnitFlags()
    return core.unit
