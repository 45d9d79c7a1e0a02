"""Kernels that place their own buffers and steer the L2 cache.

- :func:`local_tensor` is Ascend C's ``LocalTensor<T>(TPosition pos, uint32_t addr, uint32_t
  tileSize)``: a tensor at a byte address of the position's local memory chosen by the kernel
  (tuned kernels lay out UB by hand, for instance to keep operands in different bank groups),
  with no TPipe buffer behind it.  Its synchronization is the kernel's own business
  (``set_flag``/``wait_flag``), as on the device.
- :class:`~aclsim.kernel.cache.CacheMode` is the mode of ``GlobalTensor.set_l2_cache_hint``
  (``SetL2CacheHint``).
"""

from __future__ import annotations

from typing import Any

from aclsim.errors import LocalOutOfRangeError
from aclsim.kernel._core import LOCAL_SPACES, as_dtype, current, elem_bytes, fault_code
from aclsim.kernel.tensor import POSITION_SPACE, LocalTensor, TPosition


def local_tensor(dtype: Any, position: TPosition, addr: int, tile_size: int) -> LocalTensor:
    """``LocalTensor<T>(pos, addr, tileSize)``: ``tile_size`` elements of ``dtype`` at byte
    ``addr`` of the local memory of ``position`` (``VECCALC``/``VECIN``/``VECOUT``: UB; ``A1``,
    ``B1``, ``C1``: L1; ``A2``: L0A; ``B2``: L0B; ``CO1``: L0C; ``CO2``: UB on a coupled chip).

    The address must be aligned as that memory requires (32 B in UB and L1, 512 B in L0A/L0B,
    64 B in L0C) and the tensor must fit in the memory; otherwise the call faults with the
    memory's exception code at the kernel line.
    """
    core = current()
    dt = as_dtype(dtype)
    pos = TPosition(position)
    if pos is TPosition.CO2 and core.chip.coupled:
        space = POSITION_SPACE[TPosition.VECCALC]
    else:
        space = POSITION_SPACE[pos]
    if space not in LOCAL_SPACES:
        raise ValueError(f"LocalTensor at position {pos.name}: that position has no local memory on "
                         f"the {core.chip.name} (use a GlobalTensor for global memory)")
    addr, n = int(addr), int(tile_size)
    size = core.arenas[space].size
    align = core.align[space]
    if addr < 0 or n < 0 or addr % align or addr + elem_bytes(dt, n) > size:
        core.fault(
            LocalOutOfRangeError,
            f"LocalTensor({pos.name}, addr={addr}, tileSize={n}) of {dt}: {space.value} holds {size} B "
            f"and its tensors start on {align} B boundaries",
            hint=f"place the tensor at a multiple of {align} B inside the {size} B of {space.value}",
            code=fault_code(space),
        )
    end = addr + elem_bytes(dt, n)
    return LocalTensor(core, dt, space, addr, n, end, pos)
