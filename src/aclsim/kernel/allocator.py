"""``LocalMemAllocator<Hardware>``: carve a local memory into tensors without a TPipe.

Static-tensor kernels (the newer style of the asc-devkit examples) build no TPipe/TQue: they
make one allocator per physical memory and take tensors from it in turn,

    LocalMemAllocator<Hardware::UB> ub;            ub = asc.LocalMemAllocator(asc.Hardware.UB)
    auto x = ub.Alloc<float, 1024>();              x = ub.alloc(asc.float32, 1024)
    auto y = ub.Alloc<TPosition::VECIN, half>(n);  y = ub.alloc(asc.TPosition.VECIN, asc.half, n)

As documented (LocalMemAllocator, Alloc, GetCurAddr in basic_api/kernel_tensor.h):

- the allocator starts at address 0 of its memory (``get_cur_addr()``) and each ``alloc`` returns
  the tensor ``LocalTensor<T>(pos, head, tileSize)`` at the current address, then moves the
  address on by exactly ``tileSize * sizeof(T)`` bytes: no rounding, so a kernel keeps the next
  tensor 32 B aligned itself (the asc-devkit examples pad a 4-scalar tile to 16 elements);
- ``pos`` must be a logical position of the allocator's memory (``GetPhyType(pos) == hard``, a
  compile-time check on the device, a ``ValueError`` here); left out, it is the memory's default
  position (``VECCALC`` for UB, ``A1`` for L1, ``A2``, ``B2``, ``CO1``);
- the tensor must be a legal ``LocalTensor(pos, addr, tileSize)``: its address aligned as the memory
  requires and its bytes inside the memory (``tileSize`` "should not exceed the remaining space",
  the physical size minus ``get_cur_addr()``).  An ``alloc`` that breaks either faults at the
  kernel line, like a misplaced ``local_tensor``, and leaves the address where it was;
- only one allocator of a memory may exist at a time (the CPU-debug build asserts it): making a
  second while the first is still referenced faults (the device would hand out overlapping
  tensors).  One made after the first is gone starts again at 0, as on the device.

There is no synchronization behind these tensors (no queue): the kernel orders its pipes with
``set_flag``/``wait_flag``, and the race sanitizer checks it, as for ``local_tensor``.  The
BiasTable and Fixpipe buffers (``Hardware.BIAS``, ``Hardware.FIXBUF``) are not modelled as
memories by aclsim: an allocator of them is refused with ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
"""

from __future__ import annotations

import enum
import weakref
from typing import Any

from aclsim.errors import KernelFault, LocalOutOfRangeError
from aclsim.isa import Space
from aclsim.kernel._core import Core, UnsupportedFault, as_dtype, current, elem_bytes, fault_code
from aclsim.kernel.tensor import LocalTensor, TPosition


class Hardware(enum.IntEnum):
    """``AscendC::Hardware``: the physical memories, values as in common_types.h."""

    GM = 0
    UB = 1
    L1 = 2
    L0A = 3
    L0B = 4
    L0C = 5
    BIAS = 6
    FIXBUF = 7
    MAX = 8


_SPACE = {Hardware.UB: Space.UB, Hardware.L1: Space.L1, Hardware.L0A: Space.L0A, Hardware.L0B: Space.L0B,
          Hardware.L0C: Space.L0C}
#: ``GetDefaultPosition(hard)``: the position of a tensor allocated with none given.
DEFAULT_POSITION = {Hardware.UB: TPosition.VECCALC, Hardware.L1: TPosition.A1, Hardware.L0A: TPosition.A2,
                    Hardware.L0B: TPosition.B2, Hardware.L0C: TPosition.CO1, Hardware.BIAS: TPosition.C2}
_COMMON = {TPosition.GM: Hardware.GM, TPosition.A1: Hardware.L1, TPosition.B1: Hardware.L1,
           TPosition.A2: Hardware.L0A, TPosition.B2: Hardware.L0B, TPosition.CO1: Hardware.L0C,
           TPosition.VECIN: Hardware.UB, TPosition.VECOUT: Hardware.UB, TPosition.VECCALC: Hardware.UB}
#: ``GetPhyType(pos)`` by architecture: C1, C2 and CO2 live in different memories on the coupled
#: 310P (arch 2002) and on the split 910B (arch 2201).
_PHY = {
    "2002": {**_COMMON, TPosition.C1: Hardware.UB, TPosition.C2: Hardware.L0C, TPosition.CO2: Hardware.UB},
    "2201": {**_COMMON, TPosition.C1: Hardware.L1, TPosition.C2: Hardware.BIAS, TPosition.CO2: Hardware.GM},
}
_REGISTRY = "LocalMemAllocator"  # Core.spr key: the live allocator of each memory of the block


def phy_type(core: Core, pos: TPosition) -> Hardware:
    """``GetPhyType(pos)``: the memory a logical position lives in on the running chip."""
    return _PHY.get(core.chip.arch_version, _PHY["2201"])[TPosition(pos)]


class LocalMemAllocator:
    """``LocalMemAllocator<hard>``: hands out the memory ``hard`` (default UB) tensor by tensor.

    >>> import aclsim, aclsim.kernel as asc
    >>> @asc.kernel
    ... def k(out):
    ...     ub = asc.LocalMemAllocator()
    ...     a = ub.alloc(asc.float32, 64)
    ...     b = ub.alloc(asc.TPosition.VECIN, asc.half, 32)
    ...     assert (a.get_phy_addr(), b.get_phy_addr(), ub.get_cur_addr()) == (0, 256, 320)
    >>> aclsim.init(chip="tiny"); aclsim.set_device(0); d = aclsim.malloc(32)
    >>> launch = k[1, None](d); aclsim.synchronize_device()
    >>> aclsim.free(d); aclsim.reset_device(0); aclsim.finalize()
    []
    """

    __slots__ = ("hard", "space", "head", "_core", "__weakref__")

    def __init__(self, hard: Hardware = Hardware.UB) -> None:
        core = current()
        hard = Hardware(hard)
        if hard in (Hardware.GM, Hardware.MAX):
            raise ValueError(f"LocalMemAllocator<Hardware::{hard.name}>: not a local memory (the allocator "
                             "takes UB, L1, L0A, L0B, L0C, BIAS or FIXBUF)")
        if hard not in _SPACE:
            what = "BiasTable" if hard is Hardware.BIAS else "Fixpipe"
            core.fault(UnsupportedFault, f"LocalMemAllocator<Hardware::{hard.name}>: aclsim does not model "
                       f"the {what} buffer as a memory",
                       hint="allocate UB, L1, L0A, L0B or L0C tensors")
        live: dict[Hardware, Any] = core.spr.setdefault(_REGISTRY, {})
        other = live.get(hard)
        if other is not None and other() is not None:
            core.fault(KernelFault, f"a second LocalMemAllocator<Hardware::{hard.name}> while the first "
                       f"(at address {other().head}) still exists: only one allocator of a memory may exist "
                       "at a time, and both would hand out tensors from address 0",
                       hint="make one allocator per memory and pass it to the code that allocates",
                       code=fault_code(_SPACE[hard]))
        self.hard, self.space, self.head, self._core = hard, _SPACE[hard], 0, core
        live[hard] = weakref.ref(self)

    def get_cur_addr(self) -> int:
        """``GetCurAddr()``: the address the next tensor will start at (0 at first)."""
        return self.head

    def alloc(self, *args: Any) -> LocalTensor:
        """``Alloc<T, n>()`` / ``Alloc<T>(n)`` -> ``alloc(T, n)``; ``Alloc<pos, T, n>()`` /
        ``Alloc<pos, T>(n)`` -> ``alloc(pos, T, n)``: ``n`` elements of ``T`` at :meth:`get_cur_addr`."""
        if len(args) == 3:
            pos, dtype, tile = TPosition(args[0]), args[1], args[2]
        elif len(args) == 2:
            pos, (dtype, tile) = DEFAULT_POSITION[self.hard], args
        else:
            raise TypeError("alloc(T, tile_size) or alloc(pos, T, tile_size)")
        core = current()
        if core is not self._core:
            core.fault(KernelFault, "LocalMemAllocator.alloc in another block than the one that made the "
                       "allocator", hint="local memory is per block: make the allocator in the block",
                       code=fault_code(self.space))
        if phy_type(core, pos) is not self.hard:
            raise ValueError(f"alloc at {pos.name} from a LocalMemAllocator<Hardware::{self.hard.name}>: "
                             f"{pos.name} is in {phy_type(core, pos).name} on the {core.chip.name} (the "
                             "device's compiler refuses it: logic pos and hardware pos not matched)")
        dt = as_dtype(dtype)
        n, addr = int(tile), self.head
        size, align = core.arenas[self.space].size, core.align[self.space]
        if n < 0 or addr % align or addr + elem_bytes(dt, n) > size:
            why = (f"the next address {addr} is not a multiple of {align} B" if addr % align
                   else f"{elem_bytes(dt, n)} B do not fit in the {size - addr} B left")
            core.fault(LocalOutOfRangeError,
                       f"LocalMemAllocator<Hardware::{self.hard.name}>.alloc({pos.name}, {dt}, {n}): {why} "
                       f"({self.space.value} holds {size} B, its tensors start on {align} B boundaries)",
                       hint=f"size the earlier tiles in multiples of {align} B and the tiles to the "
                       f"{size} B of {self.space.value}",
                       code=fault_code(self.space))
        end = addr + elem_bytes(dt, n)
        self.head = end
        return LocalTensor(core, dt, self.space, addr, n, end, pos)

    def __repr__(self) -> str:
        return f"<LocalMemAllocator {self.hard.name} at {self.head}>"
