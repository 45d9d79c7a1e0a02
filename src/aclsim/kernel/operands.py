"""The one check of an instruction's operands, shared by copies, vector and cube instructions.

A local operand (:func:`local_operand`) must be a ``LocalTensor`` in a memory the instruction
works on, usable by the running block now (its buffer not freed by ``free_tensor`` or
``TPipe.destroy``, its block the running one) and start on its memory's alignment (UB and L1
32 B, L0A/L0B 512 B, L0C 64 B: reference 4.3).  What it touches must stay inside its buffer
(:func:`local_bytes`, :func:`count_view`).  A global operand (:func:`global_operand`) must be
aligned to ``sizeof(T)``.  Faults name the instruction, the operand and the numbers, at the
kernel line, with the code of the side of the core whose memory is involved (UB: the vector
core's, otherwise the AI core's; for a global operand, the side of the local memory it
moves to or from).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from aclsim.errors import LocalOutOfRangeError, MisalignedAccessError
from aclsim.isa import Space
from aclsim.kernel._core import LOCAL_SPACES, Core, fault_code, int4b_t
from aclsim.kernel.tensor import GlobalTensor, LocalTensor

#: Where vector instructions work.
UB = (Space.UB,)
#: Any local memory (copies: their direction already decided which).
LOCAL = LOCAL_SPACES
#: The instructions that handle ``int4b_t`` operands (packed nibbles); every other one refuses them
#: here rather than read bytes as elements.
INT4_OPS = frozenset({"data_copy", "data_copy_pad", "cast", "load_data", "load_data_with_transpose", "mmad"})


def local_operand(core: Core, t: Any, name: str, what: str, spaces: tuple[Space, ...] = UB,
                  align: int | None = None) -> LocalTensor:
    """``t``, checked as operand ``what`` of instruction ``name`` working on ``spaces``.

    Not a ``LocalTensor``: ``TypeError``; in another memory: ``ValueError``; freed or of
    another block: ``QueueError``/``KernelFault`` (``LocalTensor.check_live``); misaligned
    (to its memory's alignment, or to ``align`` bytes for an operand whose instruction's
    documentation asks less, such as a whole-reduce result): ``MisalignedAccessError``.
    """
    if not isinstance(t, LocalTensor):
        where = "/".join(s.value for s in spaces)
        raise TypeError(f"{name}: {what} must be a LocalTensor in {where}, got {type(t).__name__}")
    space = t.space
    if space not in spaces:
        where = "/".join(s.value for s in spaces)
        raise ValueError(f"{name}: {what} is in {space.value}; {name} takes it in {where}")
    if t.dtype is int4b_t and name not in INT4_OPS:  # (as_dtype makes every int4 tensor's dtype this one)
        raise TypeError(f"{name}: {what} is int4b_t; aclsim handles int4b_t in {', '.join(sorted(INT4_OPS))} "
                        "only (reinterpret_cast the bytes, or cast to half first)")
    if t.core is not core or t.buf is not None and t.buf.gone is not None:  # (the check inlined: hot)
        t.check_live(core, name, what)
    if align is None:
        align = core.align[space]
    if t.offset % align:
        core.fault(MisalignedAccessError,
                   f"{name}: {what} {space.value} address {t.offset} is not {align} B aligned",
                   hint=f"{space.value} operands start on {align} B boundaries", code=fault_code(space))
    return t


def _past(core: Core, t: LocalTensor, nbytes: int, name: str, what: str) -> None:
    """An operand reaching past its buffer: legal on the device while it stays inside the local
    memory (the instruction works on addresses; the bytes belong to the neighbouring buffer),
    so a sanitizer diagnostic with the line; past the memory itself, a fault."""
    end = t.offset + nbytes
    size = core.arenas[t.space].size
    if end > size:
        core.fault(LocalOutOfRangeError,
                   f"{name}: {what} needs {nbytes} B at {t.space.value}[{t.offset}], {end - size} B past the "
                   f"{size} B of {t.space.value} ({end - t.buf_end} B past its buffer)",
                   code=fault_code(t.space))
    kind = "past_buffer_write" if what.startswith("dst") else "past_buffer_read"
    core.diagnose_local(kind, t.space.value, t.offset, t.buf_end, end, name)


def local_bytes(core: Core, t: LocalTensor, nbytes: int, name: str, what: str) -> np.ndarray:
    """The ``nbytes`` bytes from the start of the (checked) local operand ``t``, inside its buffer."""
    end = t.offset + nbytes
    if end > t.buf_end:
        _past(core, t, nbytes, name, what)
    return core.arenas[t.space][t.offset : end]


def count_view(core: Core, t: LocalTensor, count: int, name: str, what: str) -> np.ndarray:
    """The first ``count`` elements of the (checked) local operand ``t``, inside its buffer."""
    if count <= t.size:
        return t.view[:count] if count != t.size else t.view
    nbytes = count * t.dtype.itemsize
    if t.offset + nbytes > t.buf_end:
        _past(core, t, nbytes, name, what)
    return core.arenas[t.space][t.offset : t.offset + nbytes].view(t.dtype)


def global_operand(core: Core, g: GlobalTensor, name: str, what: str, local: Space) -> GlobalTensor:
    """``g``, checked as global operand ``what`` of ``name`` moving data to or from ``local``."""
    isz = g.dtype.itemsize
    if g.addr % isz:
        core.fault(MisalignedAccessError,
                   f"{name}: {what} global address 0x{g.addr:x} is not aligned to sizeof({g.dtype}) = {isz}",
                   code=fault_code(local))
    return g
