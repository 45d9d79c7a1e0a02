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
from aclsim.kernel._core import (
    Core,
    as_dtype,
    bytes_elems,
    current,
    dtype_name,
    elem_bytes,
    fault_code,
    float16,
    is_int4,
    pack_int4,
    space_capacity,
    unpack_int4,
)
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
    LCM = 11  # VECCALC's other name in Ascend C (PopStackBuffer<T, TPosition::LCM>)
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
        """The tensor's elements as a NumPy view of the arena (no instruction recorded); for
        ``int4b_t`` its packed bytes (one marker element per byte: see :meth:`numpy`)."""
        v = self._view
        if v is None:
            v = self._view = self.core.arenas[self.space][
                self.offset : self.offset + elem_bytes(self.dtype, self.size)
            ].view(self.dtype)
        return v

    def span(self) -> np.ndarray:
        """Every element from the tensor's start to the end of its buffer (strided forms)."""
        isz = self.dtype.itemsize
        end = self.offset + (self.buf_end - self.offset) // isz * isz
        return self.core.arenas[self.space][self.offset : end].view(self.dtype)

    def numpy(self) -> np.ndarray:
        """A copy of the elements, for debugging and tests (not an instruction); ``int4b_t``
        elements come as int8 values -8..7."""
        if is_int4(self.dtype):
            return unpack_int4(self.view, self.size)
        return self.view.copy()

    # --- Ascend C methods ------------------------------------------------------------------
    def get_size(self) -> int:
        return self.size

    def set_size(self, size: int) -> None:
        if elem_bytes(self.dtype, size) > self.buf_end - self.offset:
            self.core.fault(
                LocalOutOfRangeError,
                f"set_size({size}) runs past the tensor's buffer",
                code=fault_code(self.space),
            )
        self.size = int(size)
        self._view = None

    def get_length(self) -> int:
        """Bytes of the tensor."""
        return elem_bytes(self.dtype, self.size)

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
            bytes_elems(dt, elem_bytes(self.dtype, self.size)),
            self.buf_end,
            self.position,
            self.buf,
        )

    def __getitem__(self, index: int | slice) -> LocalTensor:
        if isinstance(index, slice):
            start, stop, step = index.indices(self.size)
            start -= start & 1 if is_int4(self.dtype) else 0  # int4b_t: from the byte holding it
            if step != 1:
                raise ValueError("LocalTensor slices must be contiguous (step 1)")
            return LocalTensor(
                self.core,
                self.dtype,
                self.space,
                self.offset + self._element_offset(start),
                max(stop - start, 0),
                self.buf_end,
                self.position,
                self.buf,
            )
        i = int(index)
        i -= i & 1 if is_int4(self.dtype) else 0  # int4b_t: from the byte holding element i (i / 2 B)
        # ``operator[]`` only moves the address: past the tensor's buffer is legal until an
        # instruction reaches past the memory itself (the operand checks note or fault it then)
        byte = self.offset + self._element_offset(i)
        if not 0 <= byte <= space_capacity(self.core.chip, self.space):
            self.core.fault(
                LocalOutOfRangeError,
                f"offset {i} puts the tensor at byte {byte}, outside {self.space.name} "
                f"({space_capacity(self.core.chip, self.space)} B)",
                code=fault_code(self.space),
            )
        return LocalTensor(
            self.core,
            self.dtype,
            self.space,
            byte,
            max(self.size - i, 0),
            self.buf_end,
            self.position,
            self.buf,
        )

    def _element_offset(self, i: int) -> int:
        """The byte offset of element ``i`` from the start; for ``int4b_t`` ``i / 2`` rounded down,
        as Ascend C's ``operator[]`` computes it (an address cannot point at a high nibble: an odd
        offset starts the sub-tensor at the byte holding element ``i``)."""
        return i >> 1 if is_int4(self.dtype) else i * self.dtype.itemsize

    def _element(self, core: Core, i: int, what: str) -> int:
        self.check_live(core, what)
        i = int(i)
        if is_int4(self.dtype):
            byte = self.offset + (i >> 1)
            if i < 0 or byte + 1 > self.buf_end:
                core.fault(
                    LocalOutOfRangeError,
                    f"{what}({i}) is outside the tensor's buffer",
                    code=fault_code(self.space),
                )
            return byte
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
        isz = self.dtype.itemsize
        raw = core.arenas[self.space][byte : byte + isz]
        value = unpack_int4(raw, 1, int(i) & 1)[0] if is_int4(self.dtype) else raw.view(self.dtype)[0]
        core.emit(Pipe.S, "get_value", (core.access(self.space, byte, isz),), (), NO_COST)
        return value

    def set_value(self, i: int, value: Any) -> None:
        """``SetValue(i, v)``: write one element on the scalar pipe (rounded to the dtype)."""
        core = current()
        byte = self._element(core, i, "set_value")
        isz = self.dtype.itemsize
        raw = core.arenas[self.space][byte : byte + isz]
        if is_int4(self.dtype):
            pack_int4(raw, _nibble(value), int(i) & 1)
        else:
            raw.view(self.dtype)[0] = value
        core.emit(Pipe.S, "set_value", (), (core.access(self.space, byte, isz),), NO_COST)

    def access(self, nbytes: int) -> Access:
        return self.core.access(self.space, self.offset, nbytes)

    def __repr__(self) -> str:
        return (
            f"<LocalTensor {dtype_name(self.dtype)} x{self.size} {self.space.value}[{self.offset}:"
            f"{self.offset + elem_bytes(self.dtype, self.size)}] {self.position.name}>"
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
        room = 0 if alloc is None else bytes_elems(self.dtype, max(alloc.base + alloc.size - addr, 0))
        self.size = room if buffer_size is None else int(buffer_size)

    def _sub(self, addr: int, size: int) -> GlobalTensor:
        g = GlobalTensor.__new__(GlobalTensor)
        g.dtype, g.addr, g.size, g.alloc, g.bound = self.dtype, addr, size, self.alloc, True
        return g

    def __getitem__(self, index: int | slice) -> GlobalTensor:
        self._require()
        if isinstance(index, slice):
            start, stop, step = index.indices(self.size)
            start -= start & 1 if is_int4(self.dtype) else 0  # int4b_t: from the byte holding it
            if step != 1:
                raise ValueError("GlobalTensor slices must be contiguous (step 1)")
            return self._sub(self.addr + self._element_offset(start), max(stop - start, 0))
        i = int(index)
        i -= i & 1 if is_int4(self.dtype) else 0  # int4b_t: from the byte holding element i (i / 2 B)
        return self._sub(self.addr + self._element_offset(i), max(self.size - i, 0))

    def _element_offset(self, i: int) -> int:
        """The byte offset of element ``i``; for ``int4b_t`` ``i / 2`` rounded down, as Ascend C's
        ``operator[]`` computes it."""
        return i >> 1 if is_int4(self.dtype) else i * self.dtype.itemsize

    def offset_bytes(self, nbytes: int) -> GlobalTensor:
        """The tensor ``nbytes`` bytes on (its address need not stay aligned to ``sizeof(T)``; the
        instruction using it checks that)."""
        self._require()
        return self._sub(self.addr + int(nbytes), max(self.size - bytes_elems(self.dtype, int(nbytes)), 0))

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
        end = self.addr + elem_bytes(self.dtype, self.size)
        core.set_l2_hint(self.addr, end, mode is CacheMode.CACHE_MODE_DISABLE)

    def get_phy_addr(self, offset: int = 0) -> GmAddr:
        return GmAddr(self.addr + self._element_offset(int(offset)), self.dtype)

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
        """A view of the tensor's elements, for debugging (not an instruction); ``int4b_t``
        elements come as a copy, int8 values -8..7."""
        alloc = self._memory(current())
        start = self.addr - alloc.base
        raw = alloc.view[start : start + elem_bytes(self.dtype, self.size)]
        return unpack_int4(raw, self.size) if is_int4(self.dtype) else raw.view(self.dtype)

    def get_value(self, i: int) -> Any:
        """``GetValue(i)``: read one element of global memory on the scalar pipe."""
        core = current()
        isz, at = self.dtype.itemsize, self._value_byte(i)
        raw = self.bytes_at(core, at, isz, write=False, vector_side=True, op="get_value")
        core.emit(Pipe.S, "get_value", (core.access(Space.GM, self.addr + at, isz),), (), NO_COST)
        return unpack_int4(raw, 1, int(i) & 1)[0] if is_int4(self.dtype) else raw.view(self.dtype)[0]

    def _value_byte(self, i: int) -> int:
        """The byte offset of the byte holding element ``i``."""
        return int(i) >> 1 if is_int4(self.dtype) else int(i) * self.dtype.itemsize

    def set_value(self, i: int, value: Any) -> None:
        """``SetValue(i, v)``: write one element of global memory on the scalar pipe."""
        core = current()
        isz, at = self.dtype.itemsize, self._value_byte(i)
        raw = self.bytes_at(core, at, isz, write=True, vector_side=True, op="set_value")
        if is_int4(self.dtype):
            pack_int4(raw, _nibble(value), int(i) & 1)
        else:
            raw.view(self.dtype)[0] = value
        core.emit(Pipe.S, "set_value", (), (core.access(Space.GM, self.addr + at, isz),), NO_COST)

    def __repr__(self) -> str:
        if not self.bound:
            return f"<GlobalTensor {dtype_name(self.dtype)} unset>"
        return f"<GlobalTensor {dtype_name(self.dtype)} x{self.size} @0x{self.addr:x}>"


def _nibble(value: Any) -> int:
    """``value`` as an int4b_t: its low four bits, two's complement (-8..7), as the device stores it."""
    return ((int(value) + 8) & 0xF) - 8
