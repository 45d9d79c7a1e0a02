"""Dynamic tensor lists: ``ListTensorDesc`` and ``TensorDesc``, and a host helper that builds one.

An operator taking a list of tensors (``TensorList``: ChunkCat, FusedAdamW, ForeachXxx...) gets
one ``GM_ADDR`` pointing at a descriptor in global memory, a sequence of 64-bit words:

====================  ==========================================================================
word 0                ``data_offset``: bytes from the descriptor's start to its pointer array
words 1 ..            one record per tensor: ``(index << 32) | dim``, then its ``dim`` extents
words data_offset/8.. the tensors' device addresses, one per tensor
====================  ==========================================================================

so ``data_offset = 8 + count * (1 + dim) * 8``.  A list with no shapes (``dim`` 0) has a single
record ``(count << 32) | 0, 0xFFFFFFFF`` and ``data_offset`` 24.  The kernel decodes it as
Ascend C's ``ListTensorDescImpl`` does (dav_c220): the first record gives ``dim`` (all tensors of
a list have the same rank); the count is the first record's high word when it is not 0, else
the last record's index + 1.  ``length`` and ``shape_size`` (bytes of the descriptor, number of
pointers), when given, are checked against it.  Every word read is a scalar read of global
memory, recorded on the scalar pipe with its address.

A malformed descriptor (counts that do not match its ``data_offset``), an index past the count or
a ``TensorDesc`` with no shape buffer faults at the kernel line (Ascend C asserts these in its
debug build; the device reads whatever lies there).

On the host, :func:`list_tensor_desc_words` lays the words out and :func:`make_list_tensor_desc`
puts them in device memory, ready to pass to a kernel.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn

import numpy as np

from aclsim.errors import KernelFault, MisalignedAccessError
from aclsim.isa import Access, Pipe, Space
from aclsim.kernel._core import Core, CostTable, as_dtype, current, uint8
from aclsim.kernel.gm import GmAddr
from aclsim.kernel.tensor import GlobalTensor

#: ``length``/``shapeSize`` left out: no check (the C++ default 0xFFFFFFFF).
UNCHECKED = 0xFFFFFFFF
#: Scalar reads of several words: ``ops``.
OPS = CostTable("ops")
_U64 = np.dtype(np.uint64)


def list_tensor_desc_words(pointers: Sequence[int],
                           shapes: Sequence[Sequence[int]] | None = None) -> np.ndarray:
    """The descriptor of a tensor list (host side): ``pointers`` (device addresses, e.g. the
    ``Buffer`` objects of ``aclsim.malloc``) and, optionally, each tensor's shape (same rank for
    all).  Returns the uint64 words to copy into device memory.

    >>> list_tensor_desc_words([0x1000, 0x2000], [(2, 3), (4, 5)]).tolist()
    [56, 2, 2, 3, 4294967298, 4, 5, 4096, 8192]
    >>> list_tensor_desc_words([0x1000, 0x2000]).tolist()
    [24, 8589934592, 4294967295, 4096, 8192]
    """
    ptrs = [int(p) for p in pointers]
    if not ptrs:
        raise ValueError("a tensor list descriptor needs at least one tensor")
    if shapes is None or all(len(s) == 0 for s in shapes):
        head = [24, len(ptrs) << 32, UNCHECKED]
        return np.array(head + ptrs, dtype=np.uint64)
    if len(shapes) != len(ptrs):
        raise ValueError(f"{len(shapes)} shapes for {len(ptrs)} pointers")
    dim = len(shapes[0])
    if any(len(s) != dim for s in shapes):
        raise ValueError(f"the tensors of a list have one rank: shapes {[tuple(s) for s in shapes]}")
    words = [8 + len(ptrs) * (1 + dim) * 8]
    for i, shape in enumerate(shapes):
        if any(int(x) < 0 for x in shape):
            raise ValueError(f"shape {tuple(shape)} of tensor {i} has a negative extent")
        words += [(i << 32) | dim, *(int(x) for x in shape)]
    return np.array(words + ptrs, dtype=np.uint64)


def make_list_tensor_desc(pointers: Sequence[int], shapes: Sequence[Sequence[int]] | None = None) -> Any:
    """:func:`list_tensor_desc_words` copied into a new device allocation (``aclsim.malloc`` on the
    current device; free it with ``aclsim.free``).  Returns the ``Buffer``, to pass to the kernel
    as the list's ``GM_ADDR``."""
    import aclsim  # the runtime's public face; imported here: the kernel language does not need it

    words = list_tensor_desc_words(pointers, shapes)
    buf = aclsim.malloc(words.nbytes)
    try:
        aclsim.memcpy(buf, words.nbytes, words, words.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    except BaseException:
        aclsim.free(buf)
        raise
    return buf


class TensorDesc:
    """``TensorDesc<T>``: one tensor of a list, filled by :meth:`ListTensorDesc.get_desc`.

    ``set_shape_addr(buf)`` gives it the (kernel-local) array its extents are written to, as in
    Ascend C; ``get_dim``, ``get_index``, ``get_shape(i)``, ``get_data_ptr()`` read it.
    """

    __slots__ = ("dtype", "dim", "index", "shape", "ptr")

    def __init__(self, dtype: Any = uint8) -> None:
        self.dtype = as_dtype(dtype)
        self.dim, self.index, self.ptr = 0, 0, 0
        self.shape: Any = None

    def set_shape_addr(self, buf: Any) -> None:
        """``SetShapeAddr(buf)``: ``buf`` (a NumPy uint64 array or a list) receives the extents."""
        if buf is None:
            raise ValueError("SetShapeAddr(nullptr): give it an array for the extents")
        self.shape = buf

    def get_shape_addr(self) -> Any:
        return self.shape

    def get_dim(self) -> int:
        return self.dim

    def get_index(self) -> int:
        return self.index

    def get_shape(self, i: int) -> int:
        """``GetShape(i)``: extent ``i`` (``i < get_dim()``)."""
        if not 0 <= int(i) < self.dim:
            current().fault(KernelFault, f"TensorDesc.GetShape({i}) of a {self.dim}-dimensional tensor",
                            hint="read extents 0 .. GetDim() - 1")
        return int(self.shape[int(i)])

    def get_data_ptr(self) -> GmAddr:
        return GmAddr(self.ptr, self.dtype)

    def __repr__(self) -> str:
        return f"<TensorDesc {self.dtype} #{self.index} dim {self.dim} @0x{self.ptr:x}>"


class ListTensorDesc:
    """``ListTensorDesc``: decodes a tensor-list descriptor in global memory (module docstring).

    ``ListTensorDesc(data, length, shape_size)`` or ``ListTensorDesc()`` then ``init(...)``;
    ``get_size()`` the number of tensors, ``get_data_ptr(T, i)`` the address of tensor ``i`` as a
    ``__gm__ T*``, ``get_desc(desc, i)`` its rank, index and extents.
    """

    __slots__ = ("_g", "_base", "dim", "count", "_record", "_data_offset")

    def __init__(self, data: Any = None, length: int = UNCHECKED, shape_size: int = UNCHECKED) -> None:
        self._g: GlobalTensor | None = None
        self._base = self.dim = self.count = self._record = self._data_offset = 0
        if data is not None:
            self.init(data, length, shape_size)

    # --- reading words of the descriptor ---------------------------------------------------
    def _words(self, core: Core, first: int, n: int) -> np.ndarray:
        assert self._g is not None
        raw = self._g.bytes_at(core, first * 8, n * 8, write=False, vector_side=True, op="ListTensorDesc")
        return raw.view(_U64)

    def _read(self, core: Core, spans: Sequence[tuple[int, int]]) -> list[int]:
        """The words ``[first, first + n)`` of each span, read and recorded as one scalar read."""
        values: list[int] = []
        reads: list[Access] = []
        for first, n in spans:
            values += [int(w) for w in self._words(core, first, n)]
            reads.append(core.access(Space.GM, self._base + first * 8, n * 8))
        core.emit(Pipe.S, "list_tensor_desc", tuple(reads), (), OPS[sum(n for _, n in spans)])
        return values

    def init(self, data: Any, length: int = UNCHECKED, shape_size: int = UNCHECKED) -> None:
        """``Init(data, length, shapeSize)``: decode the descriptor at ``data``."""
        core = current()
        addr = int(data)
        if addr % 8:
            core.fault(MisalignedAccessError, f"ListTensorDesc at 0x{addr:x}: its 64-bit words need an "
                       "8-byte aligned address", hint="pass the descriptor's GM_ADDR as the host built it")
        g = GlobalTensor(_U64)
        g.set_global_buffer(addr)
        saved = (self._g, self._base)
        self._g, self._base = g, addr
        try:
            self._decode(core, length, shape_size)
        except BaseException:
            self._g, self._base = saved  # a failed Init leaves the object as it was
            raise

    def _decode(self, core: Core, length: int, shape_size: int) -> None:
        offset, head = self._read(core, [(0, 2)])
        dim, first_count = head & 0xFFFFFFFF, head >> 32
        record = 2 if dim == 0 else 1 + dim
        if offset % 8 or offset < 8 + record * 8:
            self._malformed(core, f"its data offset {offset} B is not 8 + a whole number of "
                            f"{record * 8} B records")
        if dim == 0:
            (mark,) = self._read(core, [(2, 1)])
            if mark != UNCHECKED or offset != 24:
                self._malformed(core, f"a list with no shapes has one record (count << 32, 0xFFFFFFFF) and a "
                                f"data offset of 24 B, not {mark:#x} and {offset} B")
        if first_count:
            count = first_count
        else:
            (last,) = self._read(core, [(offset // 8 - record, 1)])
            count = (last >> 32) + 1
        if dim and count != (offset - 8) // (record * 8):
            self._malformed(core, f"{count} tensors but {(offset - 8) // (record * 8)} records of {dim} "
                            "extents before the pointers")
        checked = length != UNCHECKED and shape_size != UNCHECKED
        if checked and (count != int(shape_size) or int(length) != offset + count * 8):
            self._malformed(core, f"{count} tensors in {offset + count * 8} B, not shapeSize "
                            f"{int(shape_size)} in length {int(length)} B")
        self.dim, self.count, self._record, self._data_offset = dim, count, record, offset

    def _malformed(self, core: Core, why: str) -> NoReturn:
        core.fault(KernelFault, f"ListTensorDesc at 0x{self._base:x} is malformed: {why}",
                   hint="build it with aclsim.kernel.make_list_tensor_desc (layout in aclsim/kernel/"
                   "listtensor.py)")

    def _index(self, core: Core, index: int, what: str) -> int:
        if self._g is None:
            raise ValueError(f"ListTensorDesc.{what} before Init")
        i = int(index)
        if not 0 <= i < self.count:
            core.fault(KernelFault, f"ListTensorDesc.{what}({i}) of a list of {self.count} tensors",
                       hint="index 0 .. GetSize() - 1")
        return i

    def get_size(self) -> int:
        """``GetSize()``: the number of tensors in the list."""
        if self._g is None:
            raise ValueError("ListTensorDesc.GetSize before Init")
        return self.count

    def get_data_ptr(self, dtype: Any, index: int) -> GmAddr:
        """``GetDataPtr<T>(index)``: the device address of tensor ``index`` as a ``__gm__ T*``."""
        core = current()
        i = self._index(core, index, "GetDataPtr")
        dt = as_dtype(dtype)
        (ptr,) = self._read(core, [(self._data_offset // 8 + i, 1)])
        return GmAddr(ptr, dt)

    def get_desc(self, desc: TensorDesc, index: int) -> None:
        """``GetDesc(desc, index)``: fill ``desc`` with tensor ``index``'s rank, index, address and
        extents (into the array given by ``desc.set_shape_addr``)."""
        core = current()
        i = self._index(core, index, "GetDesc")
        if self.dim == 0:
            core.fault(KernelFault, "ListTensorDesc.GetDesc on a list with no shapes (dim 0)",
                       hint="use GetDataPtr; the host built the list without shapes")
        if desc.shape is None or len(desc.shape) < self.dim:
            room = "none" if desc.shape is None else len(desc.shape)
            core.fault(KernelFault, f"ListTensorDesc.GetDesc: the TensorDesc's shape array ({room}) cannot "
                       f"take {self.dim} extents",
                       hint="call desc.set_shape_addr(array of at least dim uint64) first")
        record = 1 + i * self._record
        values = self._read(core, [(self._data_offset // 8 + i, 1), (record + 1, self.dim)])
        desc.dim, desc.index, desc.ptr = self.dim, i, values[0]
        for k, extent in enumerate(values[1:]):
            desc.shape[k] = extent

    def __repr__(self) -> str:
        if self._g is None:
            return "<ListTensorDesc uninitialized>"
        return f"<ListTensorDesc @0x{self._base:x} {self.count} tensors dim {self.dim}>"
