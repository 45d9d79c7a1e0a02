"""Tensors: ``TPosition``, ``GlobalTensor`` (device memory) and ``LocalTensor`` (UB, L1, L0*).

Indexing follows Ascend C: ``t[i]`` is the sub-tensor starting at element ``i`` (not a
value); read and write single elements with ``get_value``/``set_value``, which run on the
scalar pipe.  ``t[a:b]`` (an aclsim extension) is the sub-tensor of elements ``a..b-1``.
"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from aclsim.errors import GlobalOutOfRangeError, KernelFault, LocalOutOfRangeError, QueueError
from aclsim.isa import NO_COST, Access, Pipe, Space
from aclsim.kernel._core import Core, as_dtype, current, fault_code, float16
from aclsim.kernel.cache import CacheMode
from aclsim.kernel.gm import Allocation, Footprint, GmAddr, gm_fault_code, lookup, note_past_request, resolve


class TPosition(enum.IntEnum):
    """Ascend C ``TPosition`` (alias ``QuePosition``), numeric values as in common_types.h."""

    GM = 0
    A1 = 1
    A2 = 2
    B1 = 3
    B2 = 4
    C1 = 5
    C2 = 6
    CO1 = 7
    CO2 = 8
    VECIN = 9
    VECOUT = 10
    VECCALC = 11
    TSCM = 13  # L1 holding a Matmul input whole (SPM = 12 is not modelled)


QuePosition = TPosition

#: Where each position lives on a split (arch 2201) chip; CO2 is UB on coupled chips.
POSITION_SPACE: dict[TPosition, Space] = {
    TPosition.GM: Space.GM,
    TPosition.A1: Space.L1,
    TPosition.B1: Space.L1,
    TPosition.C1: Space.L1,
    TPosition.A2: Space.L0A,
    TPosition.B2: Space.L0B,
    TPosition.CO1: Space.L0C,
    TPosition.C2: Space.BT,
    TPosition.CO2: Space.GM,
    TPosition.VECIN: Space.UB,
    TPosition.VECOUT: Space.UB,
    TPosition.VECCALC: Space.UB,
    TPosition.TSCM: Space.L1,
}


class LocalTensor:
    """``LocalTensor<T>``: ``size`` elements of ``dtype`` at byte ``offset`` of a local memory.

    Made by ``TQue.alloc_tensor``/``deque`` and ``TBuf.get``, never directly.  ``buf`` is the
    queue or TBuf buffer it lives in (shared by its sub-tensors and casts): once that buffer
    is freed (``free_tensor``, ``TPipe.destroy``) and not allocated again, every instruction
    on the tensor faults as a use after free.
    """

    __slots__ = ("core", "dtype", "space", "offset", "size", "buf_end", "position", "buf", "_view")

    def __init__(
        self,
        core: Core,
        dtype: np.dtype,
        space: Space,
        offset: int,
        size: int,
        buf_end: int,
        position: TPosition,
        buf: Any = None,
    ) -> None:
        self.core = core
        self.dtype = dtype
        self.space = space
        self.offset = offset
        self.size = size
        self.buf_end = buf_end
        self.position = position
        self.buf = buf
        self._view: np.ndarray | None = None

    def check_live(self, core: Core, op: str, operand: str = "") -> None:
        """Fault unless the tensor is usable by ``core`` now: its buffer not freed (by
        ``free_tensor`` or ``TPipe.destroy``, with no allocation since), its block the running one."""
        gone = self.buf.gone if self.buf is not None else None
        if gone is None and self.core is core:
            return
        what = f"{op} {operand}" if operand else op
        if self.core is not core:
            core.fault(
                KernelFault,
                f"{what}: {self!r} belongs to block {self.core.block_idx}, not to this block",
                hint="local memory is per block: allocate the tensor in the block that uses it",
                code=fault_code(self.space),
            )
        assert gone is not None
        how, file, line = gone
        core.fault(
            QueueError,
            f"{what}: use after free: {self!r} was {how} at {file}:{line}",
            hint="use a tensor only between its alloc_tensor/deque and its free_tensor "
            "(allocate the buffer again to reuse it)",
            code=fault_code(self.space),
        )

    # --- NumPy views (not instructions) ---------------------------------------------------
    @property
    def view(self) -> np.ndarray:
        """The tensor's elements as a NumPy view of the arena (no instruction recorded)."""
        v = self._view
        if v is None:
            v = self._view = self.core.arenas[self.space][
                self.offset : self.offset + self.size * self.dtype.itemsize
            ].view(self.dtype)
        return v

    def span(self) -> np.ndarray:
        """Every element from the tensor's start to the end of its buffer (strided forms)."""
        isz = self.dtype.itemsize
        end = self.offset + (self.buf_end - self.offset) // isz * isz
        return self.core.arenas[self.space][self.offset : end].view(self.dtype)

    def numpy(self) -> np.ndarray:
        """A copy of the elements, for debugging and tests (not an instruction)."""
        return self.view.copy()

    # --- Ascend C methods ------------------------------------------------------------------
    def get_size(self) -> int:
        return self.size

    def set_size(self, size: int) -> None:
        if size * self.dtype.itemsize > self.buf_end - self.offset:
            self.core.fault(
                LocalOutOfRangeError,
                f"set_size({size}) runs past the tensor's buffer",
                code=fault_code(self.space),
            )
        self.size = int(size)
        self._view = None

    def get_length(self) -> int:
        """Bytes of the tensor."""
        return self.size * self.dtype.itemsize

    def get_phy_addr(self) -> int:
        """The byte offset of the tensor in its local memory."""
        return self.offset

    def get_position(self) -> TPosition:
        return self.position

    def reinterpret_cast(self, dtype: Any) -> LocalTensor:
        """``ReinterpretCast<U>()``: the same bytes as another type."""
        dt = as_dtype(dtype)
        return LocalTensor(
            self.core,
            dt,
            self.space,
            self.offset,
            self.size * self.dtype.itemsize // dt.itemsize,
            self.buf_end,
            self.position,
            self.buf,
        )

    def __getitem__(self, index: int | slice) -> LocalTensor:
        if isinstance(index, slice):
            start, stop, step = index.indices(self.size)
            if step != 1:
                raise ValueError("LocalTensor slices must be contiguous (step 1)")
            return LocalTensor(
                self.core,
                self.dtype,
                self.space,
                self.offset + start * self.dtype.itemsize,
                max(stop - start, 0),
                self.buf_end,
                self.position,
                self.buf,
            )
        i = int(index)
        if not 0 <= i * self.dtype.itemsize <= self.buf_end - self.offset:
            self.core.fault(
                LocalOutOfRangeError,
                f"offset {i} is outside the tensor's buffer",
                code=fault_code(self.space),
            )
        return LocalTensor(
            self.core,
            self.dtype,
            self.space,
            self.offset + i * self.dtype.itemsize,
            max(self.size - i, 0),
            self.buf_end,
            self.position,
            self.buf,
        )

    def _element(self, core: Core, i: int, what: str) -> int:
        self.check_live(core, what)
        i = int(i)
        byte = self.offset + i * self.dtype.itemsize
        if i < 0 or byte + self.dtype.itemsize > self.buf_end:
            core.fault(
                LocalOutOfRangeError,
                f"{what}({i}) is outside the tensor's buffer",
                code=fault_code(self.space),
            )
        return byte

    def get_value(self, i: int) -> Any:
        """``GetValue(i)``: read one element on the scalar pipe."""
        core = current()
        byte = self._element(core, i, "get_value")
        value = core.arenas[self.space][byte : byte + self.dtype.itemsize].view(self.dtype)[0]
        core.emit(Pipe.S, "get_value", (core.access(self.space, byte, self.dtype.itemsize),), (), NO_COST)
        return value

    def set_value(self, i: int, value: Any) -> None:
        """``SetValue(i, v)``: write one element on the scalar pipe (rounded to the dtype)."""
        core = current()
        byte = self._element(core, i, "set_value")
        core.arenas[self.space][byte : byte + self.dtype.itemsize].view(self.dtype)[0] = value
        core.emit(Pipe.S, "set_value", (), (core.access(self.space, byte, self.dtype.itemsize),), NO_COST)

    def access(self, nbytes: int) -> Access:
        return self.core.access(self.space, self.offset, nbytes)

    def __repr__(self) -> str:
        return (
            f"<LocalTensor {self.dtype} x{self.size} {self.space.value}[{self.offset}:"
            f"{self.offset + self.size * self.dtype.itemsize}] {self.position.name}>"
        )


class GlobalTensor:
    """``GlobalTensor<T>``: a typed window on device memory.

    >>> from aclsim.kernel import GlobalTensor, float32
    >>> GlobalTensor(float32)
    <GlobalTensor float32 unset>
    """

    __slots__ = ("dtype", "addr", "size", "alloc", "bound")

    def __init__(self, dtype: Any = float16) -> None:
        self.dtype = as_dtype(dtype)
        self.addr = 0
        self.size = 0
        self.alloc: Allocation | None = None  # found at set_global_buffer, or at the first access
        self.bound = False

    def set_global_buffer(self, buffer: GmAddr | int, buffer_size: int | None = None) -> None:
        """``SetGlobalBuffer(ptr, bufferSize)``: ``ptr`` a ``GM_ADDR`` (cast or not) or an address.

        ``buffer_size`` counts elements; by default the rest of the allocation.
        """
        core = current()
        if isinstance(buffer, GmAddr) and buffer.dtype not in (self.dtype, np.dtype(np.uint8)):
            raise TypeError(
                f"set_global_buffer of a GlobalTensor<{self.dtype}> from a {buffer.dtype} pointer; "
                f"cast it first: ptr.cast({self.dtype})"
            )
        addr = int(buffer)
        # binding a pointer is not an access: one outside device memory (an optional input's null
        # pointer) faults only where an instruction reaches it, as on the device
        alloc = lookup(core, addr)
        self.addr, self.alloc, self.bound = addr, alloc, True
        room = 0 if alloc is None else max(alloc.base + alloc.size - addr, 0) // self.dtype.itemsize
        self.size = room if buffer_size is None else int(buffer_size)

    def _sub(self, addr: int, size: int) -> GlobalTensor:
        g = GlobalTensor.__new__(GlobalTensor)
        g.dtype, g.addr, g.size, g.alloc, g.bound = self.dtype, addr, size, self.alloc, True
        return g

    def __getitem__(self, index: int | slice) -> GlobalTensor:
        self._require()
        if isinstance(index, slice):
            start, stop, step = index.indices(self.size)
            if step != 1:
                raise ValueError("GlobalTensor slices must be contiguous (step 1)")
            return self._sub(self.addr + start * self.dtype.itemsize, max(stop - start, 0))
        i = int(index)
        return self._sub(self.addr + i * self.dtype.itemsize, max(self.size - i, 0))

    def offset_bytes(self, nbytes: int) -> GlobalTensor:
        """The tensor ``nbytes`` bytes on (its address need not stay aligned to ``sizeof(T)``; the
        instruction using it checks that)."""
        self._require()
        return self._sub(self.addr + int(nbytes), max(self.size - int(nbytes) // self.dtype.itemsize, 0))

    def _require(self) -> None:
        if not self.bound:
            raise ValueError("GlobalTensor used before set_global_buffer")

    def _memory(self, core: Core, code: int | None = None) -> Allocation:
        """The allocation the tensor points into, found at the first access (``code``: that
        access's trap when there is none)."""
        self._require()
        if self.alloc is None:
            self.alloc = resolve(core, self.addr, code)
        return self.alloc

    def get_size(self) -> int:
        return self.size

    def set_l2_cache_hint(self, mode: Any, rw_mode: Any = None) -> None:
        """``SetL2CacheHint(mode)``: ``CacheMode.CACHE_MODE_DISABLE`` makes the copies of this
        tensor's memory bypass the L2 cache (a read does not allocate lines, a write goes to
        device memory); ``CACHE_MODE_NORMAL`` (the default) and ``CACHE_MODE_PERSISTENT``
        (documented as not yet supported on A2/A3, so normal there) go through it.  aclsim
        applies the hint to the tensor's range of global memory in this block from the call on
        (a GlobalTensor is one range in real kernels); ``rw_mode`` is reserved, as documented."""
        core = current()
        self._require()
        mode = CacheMode(mode)
        end = self.addr + self.size * self.dtype.itemsize
        core.set_l2_hint(self.addr, end, mode is CacheMode.CACHE_MODE_DISABLE)

    def get_phy_addr(self, offset: int = 0) -> GmAddr:
        return GmAddr(self.addr, self.dtype) + offset

    def bytes_at(
        self,
        core: Core,
        byte_offset: int,
        nbytes: int,
        *,
        write: bool,
        vector_side: bool,
        op: str = "",
        footprint: Footprint | None = None,
    ) -> np.ndarray:
        """The uint8 view of ``nbytes`` at ``byte_offset`` from the start.

        Faults past the allocation's padded size (the device's trap); bytes between the
        requested and the padded size are legal, and noted in the launch's sanitizer report
        (``footprint``: which bytes of the span a strided access really touches).
        """
        alloc = self._memory(core, gm_fault_code(write, vector_side))
        launch = core.launch
        if launch is not None and launch.allocations.get(alloc.base) is not alloc:
            # set up by an earlier launch (a GlobalTensor kept in a global): resolve its memory again,
            # which faults as a use after free if it was freed since
            alloc = self.alloc = resolve(core, self.addr, gm_fault_code(write, vector_side))
        start = self.addr + byte_offset - alloc.base
        end = start + nbytes
        if start < 0 or end > alloc.extent:
            verb = "write" if write else "read"
            padded = f", {alloc.extent} B with the padding" if alloc.extent != alloc.size else ""
            core.fault(
                GlobalOutOfRangeError,
                f"global {verb} of {nbytes} B at 0x{self.addr + byte_offset:x} is outside its allocation "
                f"[0x{alloc.base:x}, 0x{alloc.base + alloc.extent:x}) ({alloc.size} B requested{padded})",
                hint="check the offsets and lengths against the buffer the pointer came from",
                code=gm_fault_code(write, vector_side),
            )
        if end > alloc.size and nbytes:
            note_past_request(core, alloc, start, end, write=write, op=op, footprint=footprint)
        return alloc.view[start:end]

    def numpy(self) -> np.ndarray:
        """A view of the tensor's elements, for debugging (not an instruction)."""
        alloc = self._memory(current())
        start = self.addr - alloc.base
        return alloc.view[start : start + self.size * self.dtype.itemsize].view(self.dtype)

    def get_value(self, i: int) -> Any:
        """``GetValue(i)``: read one element of global memory on the scalar pipe."""
        core = current()
        isz = self.dtype.itemsize
        raw = self.bytes_at(core, int(i) * isz, isz, write=False, vector_side=True, op="get_value")
        core.emit(Pipe.S, "get_value", (core.access(Space.GM, self.addr + int(i) * isz, isz),), (), NO_COST)
        return raw.view(self.dtype)[0]

    def set_value(self, i: int, value: Any) -> None:
        """``SetValue(i, v)``: write one element of global memory on the scalar pipe."""
        core = current()
        isz = self.dtype.itemsize
        raw = self.bytes_at(core, int(i) * isz, isz, write=True, vector_side=True, op="set_value")
        raw.view(self.dtype)[0] = value
        core.emit(Pipe.S, "set_value", (), (core.access(Space.GM, self.addr + int(i) * isz, isz),), NO_COST)

    def __repr__(self) -> str:
        if not self.bound:
            return f"<GlobalTensor {self.dtype} unset>"
        return f"<GlobalTensor {self.dtype} x{self.size} @0x{self.addr:x}>"
