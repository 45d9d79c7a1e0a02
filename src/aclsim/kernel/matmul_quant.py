"""The Matmul object's ``SetQuantScalar`` / ``SetQuantVector``: C leaves L0C dequantised by the fixpipe.

The pages' Matmul dequantisation case that aclsim models: int8 A and B (int32 in L0C) with a half C;
the fixpipe converts each block on its way out, ``DEQF16`` by the one scale ``SetQuantScalar`` gave
(a uint64: the float scale in its low 32 bits, as the page's example builds it), ``VDEQF16`` by a
scale per column of C from the uint64 GlobalTensor ``SetQuantVector`` gave (element ``j`` is the scale
of the core's column ``j``: the kernels pass the tensor at the core's N offset).  For the tensor form
the object stages each block's scales in L1 (a C1 buffer of ``baseN`` words it takes from its TPipe at
the first ``set_quant_vector``; a GM -> L1 copy on MTE2 of the block's columns rounded up to 4 words,
32 B, between two ``PipeBarrier<PIPE_ALL>``: the earlier block's fixpipe has read the buffer before it
is written, and the copy has landed before the fixpipe reads it; the library orders these with its own
flags, so aclsim's timeline is the more serial) and gives them to ``fixpipe`` as its
``cbuf_workspace``.  The conversion itself (the scale's 19 bits, one rounding to half) is
kernel/fixquant.py's.  The other cases of the pages (int8 C by ``REQ8``/``VREQ8``, half/bfloat16 A
and B quantised to int8 C by ``QF322B8_PRE``) are refused with 207000, as the fixpipe refuses those
modes; an int8 -> half Matmul with neither call is refused too (the device would dequantise by
whatever the registers hold).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from aclsim.kernel._core import UnsupportedFault, current, dtype_name, float16, int32
from aclsim.kernel.copy import data_copy
from aclsim.kernel.fixquant import QuantMode
from aclsim.kernel.pipe import TBuf, TPipe
from aclsim.kernel.sync import PIPE_ALL, pipe_barrier
from aclsim.kernel.tensor import GlobalTensor, LocalTensor, TPosition


class MatmulQuant:
    """One Matmul object's quant setting: a scalar word, or a GlobalTensor of words, and its L1 staging."""

    __slots__ = ("scalar", "vector", "buf")

    def __init__(self) -> None:
        self.scalar: int | None = None
        self.vector: GlobalTensor | None = None
        self.buf: TBuf | None = None

    def set_scalar(self, word: Any) -> None:
        self.scalar, self.vector = int(word) & 0xFFFF_FFFF_FFFF_FFFF, None

    def set_vector(self, gm: Any, pipe: TPipe | None, base_n: int) -> None:
        if not isinstance(gm, GlobalTensor) or gm.dtype != np.uint64:
            raise TypeError(f"set_quant_vector takes a uint64 GlobalTensor (a quant word a column of C), got "
                            f"{getattr(gm, 'dtype', type(gm).__name__)}")
        if self.buf is None:
            if pipe is None:
                raise ValueError("set_quant_vector before the object has a TPipe: regist_matmul_obj first")
            self.buf = TBuf(TPosition.C1)
            pipe.init_buffer(self.buf, -(-base_n // 4) * 32)
        self.vector, self.scalar = gm, None

    def mode(self, name: str, acc: np.dtype, c_dt: np.dtype, default: QuantMode) -> QuantMode:
        """The fixpipe mode of this object's C (``default``: the plain conversion of the C type)."""
        quantised = self.scalar is not None or self.vector is not None
        if acc == int32 and c_dt == float16:
            if not quantised:
                current().fault(UnsupportedFault, f"{name}: an int32 result to a half C is a dequantisation: "
                                "call set_quant_scalar or set_quant_vector first",
                                hint="as the SetQuantScalar page: before iterate / iterate_all")
            return QuantMode.VDEQF16 if self.vector is not None else QuantMode.DEQF16
        if quantised:
            current().fault(UnsupportedFault, f"{name}: quantisation of a {dtype_name(acc)} result to a "
                            f"{dtype_name(c_dt)} C is not modelled (int8 C: REQ8 / QF322B8_PRE)",
                            hint="aclsim models the int8 A/B -> half C dequantisation")
        return default

    def stage(self, col0: int, cur_n: int) -> LocalTensor | None:
        """The block's column scales in L1 (the tensor form), or None."""
        if self.vector is None:
            return None
        assert self.buf is not None
        t = self.buf.get(np.uint64)
        pipe_barrier(PIPE_ALL)  # the earlier block's fixpipe has read the buffer
        data_copy(t, self.vector[col0], -(-cur_n // 4) * 4)
        pipe_barrier(PIPE_ALL)  # the scales are in L1 before the fixpipe reads them
        return t


__all__ = ["MatmulQuant"]
