"""``IBSet`` / ``IBWait``: one core waits for another through a flag in global memory.

As the IBSet / IBWait pages describe them: ``IBSet(gm, ub, blockIdx, eventID)`` on the core
being waited for writes 1 into its flag, the 32-byte slot ``eventID * coreNum + blockIdx`` of
the int32 workspace ``gm`` (``coreNum`` is ``GetBlockNum()`` with ``isAIVOnly``, else twice
it), once the core's earlier stores are done; ``IBWait`` with the same arguments on the waiting
core reads that slot until it holds 1.  The workspace must be zeroed before the launch (a slot
that already holds 1 lets the wait through at once, as on the device), holds at least
``(eventID * coreNum + blockIdx + 1) * 32`` bytes, and the UB workspace 32 bytes in
VECIN / VECCALC / VECOUT.  On the split chip only the vector cores take part.

aclsim stores the 1 functionally (an ``ib_set`` instruction on MTE3, 32 bytes UB -> GM, the
first int32 of the UB workspace set to 1 as the device's ``SetValue`` does) and then reports a
cross-core set on MTE3; the wait parks the core until the slot holds 1 (reading the real global
memory) and is recorded as a cross-core wait on the last ``IBSet`` of that slot, so the core
model starts it after that set and the sanitizer orders the cores by it
(:mod:`aclsim.kernel.crosscore`).  A wait no core will ever release is a deadlock (507014)
naming the core, the slot and the line.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from aclsim.errors import KernelFault
from aclsim.isa import Cost, Instr, Pipe, Space
from aclsim.kernel._core import BYTES, Core, UnsupportedFault, current, fault_code, int32, where
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
    if core.core_type is CoreType.AIC:
        core.fault(UnsupportedFault,
                   f"{name} on a cube core: on the split chip only the vector cores take part",
                   hint="call it from the AIVs (if asc.ASCEND_IS_AIV)")
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


def ib_set(gm_workspace: GlobalTensor, ub_workspace: LocalTensor, block_idx: int, event_id: int, *,
           is_aiv_only: bool = True) -> None:
    """``IBSet<isAIVOnly>(gmWorkspace, ubWorkspace, blockIdx, eventID)``: set this core's flag."""
    core = current()
    file, line = where(2)
    offset = _slot(core, gm_workspace, ub_workspace, block_idx, event_id, is_aiv_only, "IBSet")
    launch, st = _state(core)
    raw = gm_workspace.bytes_at(core, offset, SLOT, write=True, vector_side=True, op="ib_set")
    ub = core.arenas[Space.UB][ub_workspace.offset: ub_workspace.offset + SLOT]
    ub[:4].view(np.int32)[0] = 1
    raw[:] = ub
    addr = gm_workspace.addr + offset
    core.emit(Pipe.MTE3, "ib_set", (core.access(Space.UB, ub_workspace.offset, SLOT),),
              (core.access(Space.GM, addr, SLOT),), BYTES[SLOT])
    unit = unit_of(core)
    ordinal = st.next_ordinal(unit)
    st.ib_last[addr] = (unit, ordinal)
    core.add(Instr(Pipe.MTE3, XSET_OP, event_id=None, cost=Cost(mode="IBSet", ordinal=ordinal, unit=unit),
                   file=file,
                   line=line))


def ib_wait(gm_workspace: GlobalTensor, ub_workspace: LocalTensor, block_idx: int, event_id: int, *,
            is_aiv_only: bool = True) -> None:
    """``IBWait<isAIVOnly>(gmWorkspace, ubWorkspace, blockIdx, eventID)``: wait until core
    ``blockIdx`` set its flag ``eventID``."""
    core = current()
    file, line = where(2)
    offset = _slot(core, gm_workspace, ub_workspace, block_idx, event_id, is_aiv_only, "IBWait")
    launch, st = _state(core)
    raw = gm_workspace.bytes_at(core, offset, 4, write=False, vector_side=True, op="ib_wait")
    addr = gm_workspace.addr + offset
    unit = unit_of(core)
    what = f"IBWait(block {int(block_idx)}, event {int(event_id)}): GM 0x{addr:x} never becomes 1"

    def ready() -> Any:
        return int(raw.view(np.int32)[0]) == 1

    launch.blocks.park(unit, ready, Waiting(what, file, line))
    deps = (st.ib_last[addr],) if addr in st.ib_last else ()
    core.add(Instr(Pipe.S, XWAIT_OP, event_id=None, cost=Cost(deps=deps), file=file, line=line))


__all__ = ["ib_set", "ib_wait"]
