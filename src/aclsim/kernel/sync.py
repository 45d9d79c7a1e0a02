"""Hand-written synchronization: ``set_flag``/``wait_flag`` (HardEvent, id) and ``pipe_barrier``.

``set_flag(HardEvent.MTE2_V, 0)`` is Ascend C's ``SetFlag<HardEvent::MTE2_V>(0)``: when
every earlier instruction of the source pipe (MTE2) is done, flag (MTE2, V, 0) is raised;
``wait_flag`` stalls the destination pipe (V) until it is, and lowers it.  Pairing is
checked when the launch is scheduled: a wait that can never be satisfied is a deadlock
(``KernelDeadlockError``, 507014), a set never waited for or set twice before its wait is a
``SyncError`` (507015), each with the kernel lines.
"""

from __future__ import annotations

from aclsim import isa
from aclsim.errors import KernelFault
from aclsim.isa import HardEvent, Pipe
from aclsim.kernel._core import current, where
from aclsim.kernel.pipe import EVENT_PIPES


def _event(evt: HardEvent, event_id: int, name: str) -> tuple[HardEvent, int]:
    core = current()
    evt = HardEvent(evt)
    eid = int(event_id)
    n = core.chip.events_per_pipe_pair
    if not 0 <= eid < n:
        core.fault(KernelFault, f"{name}({evt.name}, {eid}): event ids are 0..{n - 1} on {core.chip.name}")
    return evt, eid


def set_flag(event: HardEvent, event_id: int) -> None:
    """``SetFlag<event>(id)``: signal the destination pipe once the source pipe's earlier work is done."""
    core = current()
    evt, eid = _event(event, event_id, isa.Op.SET_FLAG.value)
    file, line = where(2)
    src, dst = EVENT_PIPES[evt]
    core.instrs.append(isa.set_flag(src, dst, eid, file=file, line=line))


def wait_flag(event: HardEvent, event_id: int) -> None:
    """``WaitFlag<event>(id)``: stall the destination pipe until the matching ``set_flag`` fired."""
    core = current()
    evt, eid = _event(event, event_id, isa.Op.WAIT_FLAG.value)
    file, line = where(2)
    src, dst = EVENT_PIPES[evt]
    core.instrs.append(isa.wait_flag(src, dst, eid, file=file, line=line))


def pipe_barrier(pipe: Pipe) -> None:
    """``PipeBarrier<pipe>()``: later instructions of ``pipe`` start after its earlier ones finished
    (``Pipe.ALL``: every pipe).  ``PIPE_S`` is not supported, as in Ascend C."""
    core = current()
    p = Pipe(pipe)
    if p is Pipe.S:
        raise ValueError("pipe_barrier does not support PIPE_S")
    file, line = where(2)
    core.instrs.append(isa.pipe_barrier(p, file=file, line=line))


PIPE_S, PIPE_V, PIPE_M = Pipe.S, Pipe.V, Pipe.M
PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX, PIPE_ALL = Pipe.MTE1, Pipe.MTE2, Pipe.MTE3, Pipe.FIX, Pipe.ALL
