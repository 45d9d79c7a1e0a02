"""Three small Ascend C APIs real kernels call: ``TQueSync<src, dst>`` (SetFlag / WaitFlag between two
pipes), ``PopStackBuffer<T, pos>`` (the rest of a position's memory as a tensor) and ``Trap()``.

- ``TQueSync(src_pipe, dst_pipe)``: ``set_flag(id)`` / ``wait_flag(id)`` are ``set_flag`` / ``wait_flag``
  of the ``HardEvent`` between the two pipes (the TQueSync page: the same as SetFlag/WaitFlag<event>),
  ``TQueSync<PIPE_S, PIPE_MTE3>`` -> ``TQueSync(PIPE_S, PIPE_MTE3)``; a pair with no hardware event is
  refused at construction.
- ``pop_stack_buffer(T, pos=TPosition.LCM)``: the memory of ``pos`` (a UB or L1 position) above the
  TPipe's buffers, from the next 32 B boundary, as a
  tensor of ``T`` (the PopStackBuffer page: "空间大小为指定position的全部剩余空间"); the C++ call
  returns a bool and fills its argument, aclsim returns the tensor (empty when nothing is left, where
  the device call returns false).  ``TPosition.LCM`` is ``VECCALC``, as in Ascend C.  The high-level
  APIs use the same space for their framework buffer: the page forbids mixing the two, which aclsim
  does not check.
- ``trap()``: stops the kernel with a fault at its line (the Trap page: the AI Core's run is
  interrupted; 507035 on a vector core, 507015 otherwise).
"""

from __future__ import annotations

from typing import Any

from aclsim.errors import ACL_ERROR_RT_AICORE_EXCEPTION, ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, KernelFault
from aclsim.isa import HardEvent, Pipe, Space
from aclsim.kernel._core import as_dtype, bytes_elems, current, space_capacity
from aclsim.kernel.coretype import CoreType
from aclsim.kernel.placed import local_tensor
from aclsim.kernel.sync import set_flag, wait_flag
from aclsim.kernel.tensor import POSITION_SPACE, LocalTensor, TPosition


class TQueSync:
    """``TQueSync<src, dst>``: flags from pipe ``src`` to pipe ``dst``.

    >>> # inside a kernel: sync = TQueSync(PIPE_S, PIPE_MTE3); sync.set_flag(0); sync.wait_flag(0)
    """

    __slots__ = ("event",)

    def __init__(self, src: Pipe, dst: Pipe) -> None:
        try:
            self.event = HardEvent.between(Pipe(src), Pipe(dst))
        except (KeyError, ValueError) as e:
            raise ValueError(f"TQueSync: no hardware event from {Pipe(src).name} to {Pipe(dst).name}") from e

    def set_flag(self, event_id: int) -> None:
        """``SetFlag(id)``."""
        set_flag(self.event, event_id)

    def wait_flag(self, event_id: int) -> None:
        """``WaitFlag(id)``."""
        wait_flag(self.event, event_id)

    def __repr__(self) -> str:
        return f"<TQueSync {self.event.name}>"


def pop_stack_buffer(dtype: Any, position: TPosition = TPosition.VECCALC) -> LocalTensor:
    """``PopStackBuffer<T, pos>(tensor)``: the rest of ``position``'s memory above the TPipe's buffers, as a
    ``T`` tensor (module docstring)."""
    core = current()
    pos = TPosition(position)
    space = POSITION_SPACE.get(pos)
    if space not in (Space.UB, Space.L1):
        raise ValueError(f"pop_stack_buffer: {pos.name} is not a UB or L1 position (VECIN, VECOUT, VECCALC / "
                         "LCM, A1, B1, C1)")
    used = core.pipe.used[space] if core.pipe is not None else 0
    start = -(-used // 32) * 32
    dt = as_dtype(dtype)
    room = max(0, space_capacity(core.chip, space) - start)
    return local_tensor(dt, pos, start, bytes_elems(dt, room))


def trap() -> None:
    """``Trap()``: interrupt the kernel (a fault at the calling line)."""
    core = current()
    vector = core.core_type is CoreType.AIV
    code = ACL_ERROR_RT_VECTOR_CORE_EXCEPTION if vector else ACL_ERROR_RT_AICORE_EXCEPTION
    core.fault(KernelFault, "Trap(): the kernel interrupted the AI Core", code=code,
               hint="the kernel's own check failed at this line (Trap is its assert)")


__all__ = ["TQueSync", "pop_stack_buffer", "trap"]
