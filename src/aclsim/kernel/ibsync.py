"""``IBSet`` / ``IBWait``: one core waits for another through a flag in global memory.

As the IBSet / IBWait pages describe them, and as Ascend C's implementation runs them:
``IBSet(gm, ub, blockIdx, eventID)`` on the core being waited for waits until its flag (the
32-byte slot ``eventID * coreNum + blockIdx`` of the int32 workspace ``gm``; ``coreNum`` is
``GetBlockNum()`` with ``isAIVOnly``, else twice it) holds 0, then writes 1 into it, once the
core's earlier work is done (a ``PipeBarrier<PIPE_ALL>`` first); ``IBWait`` with the same
arguments on the waiting core reads that slot until it holds 1 and writes 0 back, so one flag
can hand over again and again (a second ``IBSet`` waits for the first to be consumed).  The
workspace must be zeroed before the launch, holds at least ``(eventID * coreNum + blockIdx + 1)
* 32`` bytes, and the UB workspace 32 bytes in VECIN / VECCALC / VECOUT.  On the split chip only
the vector cores take part: on a cube core both calls return at once, as the library's do.

aclsim runs the handshake functionally (the stores on MTE3, 32 bytes UB -> GM, the first int32
of the UB workspace set as the device's ``SetValue`` does) and records each store as a
cross-core set and each completed poll as a cross-core wait on the store it saw, so the core
model starts it after that store and the sanitizer orders the cores by it
(:mod:`aclsim.kernel.crosscore`); the core parks while its poll would spin.  A wait no core will
ever release is a deadlock (507014) naming the core, the slot and the line.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from aclsim.errors import KernelFault
from aclsim.isa import Cost, Instr, Pipe, Space
from aclsim.kernel._core import BYTES, Core, current, fault_code, int32, where
from aclsim.kernel.blocks import Waiting
from aclsim.kernel.coretype import CoreType
from aclsim.kernel.crosscore import _state, unit_of
from aclsim.kernel.crossrace import XSET_OP, XWAIT_OP
from aclsim.kernel.tensor import GlobalTensor, LocalTensor, TPosition

SLOT = 32  # bytes per flag


def _slot(core: Core, gm: GlobalTensor, ub: LocalTensor, block_idx: int, event_id: int, aiv_only: bool,
          name: str) -> int:
    """The byte offset of the flag in ``gm``, after the documented checks."""
    if not isinstance(gm, GlobalTensor) or not isinstance(ub, LocalTensor):
        raise TypeError(f"{name}(gm_workspace, ub_workspace, block_idx, event_id) takes a GlobalTensor and a "
                        "LocalTensor")
    if gm.dtype != int32 or ub.dtype != int32:
        raise TypeError(f"{name}: the workspaces hold int32, got {gm.dtype} and {ub.dtype}")
    if ub.position not in (TPosition.VECIN, TPosition.VECCALC, TPosition.VECOUT) or ub.size * 4 < SLOT:
        core.fault(KernelFault,
                   f"{name}: ub_workspace must be VECIN/VECCALC/VECOUT with {SLOT} B, got {ub!r}",
                   code=fault_code(Space.UB))
    cores = core.block_num if aiv_only else core.block_num * 2
    b, e = int(block_idx), int(event_id)
    if not 0 <= b < cores or e < 0:
        core.fault(KernelFault, f"{name}: block_idx {b} must be in [0, {cores}) and event_id >= 0, got {e}",
                   hint="block_idx is the index of the core that sets the flag")
    offset = (e * cores + b) * SLOT
    if gm.size * 4 < offset + SLOT:
        core.fault(KernelFault, f"{name}({b}, {e}): the flag's slot [{offset}, {offset + SLOT}) lies past "
                   f"the {gm.size * 4} B gm_workspace",
                   hint="allocate core count * 32 B * (event_id + 1) at least, zeroed before the launch")
    return offset


def _store(core: Core, gm: GlobalTensor, ub: LocalTensor, offset: int, value: int, op: str,
           file: str, line: int) -> None:
    """``ub[0] = value``, then the 32 B slot UB -> GM on MTE3, recorded as a cross-core set."""
    _, st = _state(core)
    raw = gm.bytes_at(core, offset, SLOT, write=True, vector_side=True, op=op)
    arena = core.arenas[Space.UB][ub.offset: ub.offset + SLOT]
    arena[:4].view(np.int32)[0] = value
    raw[:] = arena
    addr = gm.addr + offset
    core.emit(Pipe.MTE3, op, (core.access(Space.UB, ub.offset, SLOT),), (core.access(Space.GM, addr, SLOT),),
              BYTES[SLOT])
    unit = unit_of(core)
    ordinal = st.next_ordinal(unit)
    st.ib_last[addr] = (unit, ordinal)
    core.add(Instr(Pipe.MTE3, XSET_OP, event_id=None, cost=Cost(mode="IBSet", ordinal=ordinal, unit=unit),
                   file=file, line=line))


def _poll(core: Core, gm: GlobalTensor, offset: int, want: int, what: str, file: str, line: int) -> None:
    """Park until the slot holds ``want``; record the wait on the store that made it so."""
    launch, st = _state(core)
    raw = gm.bytes_at(core, offset, 4, write=False, vector_side=True, op="ib_poll")
    addr = gm.addr + offset

    def ready() -> Any:
        return int(raw.view(np.int32)[0]) == want

    launch.blocks.park(unit_of(core), ready, Waiting(what, file, line))
    deps = (st.ib_last[addr],) if addr in st.ib_last else ()
    core.add(Instr(Pipe.S, XWAIT_OP, event_id=None, cost=Cost(deps=deps), file=file, line=line))


def ib_set(gm_workspace: GlobalTensor, ub_workspace: LocalTensor, block_idx: int, event_id: int, *,
           is_aiv_only: bool = True) -> None:
    """``IBSet<isAIVOnly>(gmWorkspace, ubWorkspace, blockIdx, eventID)``: once this core's flag is 0
    (consumed), set it to 1."""
    core = current()
    if core.core_type is CoreType.AIC:
        return  # the library's IBSet returns at once on a cube core
    file, line = where(2)
    offset = _slot(core, gm_workspace, ub_workspace, block_idx, event_id, is_aiv_only, "IBSet")
    what = (f"IBSet(block {int(block_idx)}, event {int(event_id)}): the flag at GM "
            f"0x{gm_workspace.addr + offset:x} is never consumed (no IBWait sets it back to 0)")
    _poll(core, gm_workspace, offset, 0, what, file, line)
    _store(core, gm_workspace, ub_workspace, offset, 1, "ib_set", file, line)


def ib_wait(gm_workspace: GlobalTensor, ub_workspace: LocalTensor, block_idx: int, event_id: int, *,
            is_aiv_only: bool = True) -> None:
    """``IBWait<isAIVOnly>(gmWorkspace, ubWorkspace, blockIdx, eventID)``: wait until core
    ``blockIdx`` set its flag ``eventID``, then consume it (set it back to 0)."""
    core = current()
    if core.core_type is CoreType.AIC:
        return  # the library's IBWait returns at once on a cube core
    file, line = where(2)
    offset = _slot(core, gm_workspace, ub_workspace, block_idx, event_id, is_aiv_only, "IBWait")
    what = (f"IBWait(block {int(block_idx)}, event {int(event_id)}): GM "
            f"0x{gm_workspace.addr + offset:x} never becomes 1")
    _poll(core, gm_workspace, offset, 1, what, file, line)
    _store(core, gm_workspace, ub_workspace, offset, 0, "ib_wait", file, line)


__all__ = ["ib_set", "ib_wait"]
