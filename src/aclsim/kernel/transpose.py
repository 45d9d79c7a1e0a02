"""The basic ``Transpose`` (数据排布转换): a 16 x 16 block of 16-bit elements turned around, and the enhanced
form with ``TransposeParamsExt`` / ``TransposeType``: the same block, or [N, C, H, W] <-> [N, H, W, C].

As the Transpose page gives them: ``transpose(dst, src)`` (int16, uint16, half; ``dst`` may be ``src``);
``transpose(dst, src, shared_tmp_buffer, TransposeParamsExt(n, c, h, w, TransposeType.X))`` with
``TRANSPOSE_ND2ND_B16`` (uint16 on Atlas A2/A3 and the 310P; ``h``, ``w`` 16), ``TRANSPOSE_NCHW2NHWC``,
``TRANSPOSE_NHWC2NCHW`` (int8, uint8, int16, uint16, half, int32, uint32, float; ``n`` 0..65535,
``c`` 0..4095, ``h * w`` 0..4095 with ``h * w * sizeof(T)`` a multiple of 32 B; a zero size writes
nothing; ``dst`` and ``src`` must not overlap).  On Atlas A2/A3 the temporary buffer must hold
``(c + 2) * h0 * w0`` (NCHW2NHWC) or ``(2c + 1) * h0 * w0`` (NHWC2NCHW) elements (``h0`` 16, 32 for
8-bit types; ``w0`` = 32 B of elements); the 310P needs none.  The other ``TransposeType`` values
are "当前不支持" on the page: refused with 207000.  Operands in UB, 32 B aligned.

The results are the permutations, exact.  Recording: the basic form is one vector instruction over its
512 B; the enhanced layout change is recorded as one vector instruction reading ``src`` and writing
``dst`` and the temporary buffer's needed range, timed as two passes over the data (into the buffer
and out: the library's TransDataTo5HD sequence is not reproduced instruction by instruction, and the
buffer's contents after the call are left as they were, which the page leaves undefined).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np

from aclsim.errors import KernelFault
from aclsim.isa import Access, Pipe, Space
from aclsim.kernel._core import (
    REPEATS,
    Core,
    UnsupportedFault,
    current,
    dtype_name,
    fault_code,
    float16,
    float32,
    int8,
    int16,
    int32,
    uint8,
    uint16,
    uint32,
)
from aclsim.kernel.operands import local_bytes, local_operand
from aclsim.kernel.tensor import LocalTensor

_NAME = "transpose"
_B16 = (int16, uint16, float16)
_LAYOUT_TYPES = (int8, uint8, int16, uint16, float16, int32, uint32, float32)


class TransposeType(enum.IntEnum):
    """``TransposeType``: what the enhanced ``Transpose`` does (the page's enum, in its order)."""

    TRANSPOSE_TYPE_NONE = 0
    TRANSPOSE_NZ2ND_0213 = 1
    TRANSPOSE_NZ2NZ_0213 = 2
    TRANSPOSE_NZ2NZ_012_WITH_N = 3
    TRANSPOSE_NZ2ND_012_WITH_N = 4
    TRANSPOSE_NZ2ND_012_WITHOUT_N = 5
    TRANSPOSE_NZ2NZ_012_WITHOUT_N = 6
    TRANSPOSE_ND2ND_ONLY = 7
    TRANSPOSE_ND_UB_GM = 8
    TRANSPOSE_GRAD_ND_UB_GM = 9
    TRANSPOSE_ND2ND_B16 = 10
    TRANSPOSE_NCHW2NHWC = 11
    TRANSPOSE_NHWC2NCHW = 12


@dataclass(frozen=True)
class TransposeParamsExt:
    """``TransposeParamsExt(nSize, cSize, hSize, wSize, transposeType)``."""

    n_size: int = 0
    c_size: int = 0
    h_size: int = 0
    w_size: int = 0
    transpose_type: TransposeType = TransposeType.TRANSPOSE_ND2ND_B16


def transpose(dst: LocalTensor, src: LocalTensor, *args: object) -> None:
    """``Transpose(dst, src)`` or ``Transpose(dst, src, sharedTmpBuffer, TransposeParamsExt)`` (module
    docstring).

    >>> # inside a kernel, half tensors of 256 elements: asc.transpose(dst, src)
    """
    core = current()
    local_operand(core, dst, _NAME, "dst", align=32)
    local_operand(core, src, _NAME, "src", align=32)
    if dst.dtype != src.dtype:
        raise TypeError(f"{_NAME}: dst and src must share one type, got {dtype_name(dst.dtype)}, "
                        f"{dtype_name(src.dtype)}")
    if not args:
        _block(core, dst, src, _B16)
        return
    tmp, p = args if len(args) == 2 else (None, None)
    if not isinstance(tmp, LocalTensor) or not isinstance(p, TransposeParamsExt):
        raise TypeError(f"{_NAME}(dst, src) or {_NAME}(dst, src, shared_tmp_buffer, TransposeParamsExt)")
    kind = TransposeType(p.transpose_type)
    if kind is TransposeType.TRANSPOSE_ND2ND_B16:
        _block(core, dst, src, (uint16,))
    elif kind in (TransposeType.TRANSPOSE_NCHW2NHWC, TransposeType.TRANSPOSE_NHWC2NCHW):
        _layout(core, dst, src, tmp, p, kind)
    else:
        core.fault(UnsupportedFault, f"{_NAME}: {kind.name} is not supported (the Transpose page: "
                   "当前不支持)",
                   hint="TRANSPOSE_ND2ND_B16, TRANSPOSE_NCHW2NHWC or TRANSPOSE_NHWC2NCHW")


def _block(core: Core, dst: LocalTensor, src: LocalTensor, types: tuple[np.dtype, ...]) -> None:
    if src.dtype not in types:
        raise TypeError(f"{_NAME}: the 16 x 16 form takes {', '.join(dtype_name(t) for t in types)}, "
                        f"got {dtype_name(src.dtype)}")
    block = local_bytes(core, src, 512, _NAME, "src").view(src.dtype).reshape(16, 16).T.copy()
    local_bytes(core, dst, 512, _NAME, "dst").view(dst.dtype)[:] = block.reshape(-1)
    core.emit(Pipe.V, _NAME, (src.access(512),), (dst.access(512),), REPEATS[2])


def _layout(core: Core, dst: LocalTensor, src: LocalTensor, tmp: LocalTensor, p: TransposeParamsExt,
            kind: TransposeType) -> None:
    n, c, h, w = (int(v) for v in (p.n_size, p.c_size, p.h_size, p.w_size))
    dt = src.dtype
    if dt not in _LAYOUT_TYPES:
        raise TypeError(f"{_NAME}: {kind.name} takes int8, uint8, int16, uint16, half, int32, uint32, float; "
                        f"got {dtype_name(dt)}")
    isz = dt.itemsize
    if not (0 <= n <= 65535 and 0 <= c <= 4095 and 0 <= h * w <= 4095) or (h * w * isz) % 32:
        raise ValueError(f"{_NAME}: n {n} in 0..65535, c {c} in 0..4095, h * w {h * w} in 0..4095 and "
                         f"h * w * sizeof(T) a multiple of 32 B (got {h * w * isz} B)")
    if 0 in (n, c, h, w):
        return  # the page: nothing computed, nothing written
    nbytes = n * c * h * w * isz
    s_acc, d_acc = src.access(nbytes), dst.access(nbytes)
    x = local_bytes(core, src, nbytes, _NAME, "src").view(dt)
    out = local_bytes(core, dst, nbytes, _NAME, "dst").view(dt)
    if s_acc.overlaps(d_acc):
        core.fault(KernelFault, f"{_NAME}: {kind.name} takes no overlapping src and dst ({s_acc}, {d_acc})",
                   code=fault_code(Space.UB), hint="give dst its own UB range")
    writes: tuple[Access, ...] = (d_acc,)
    if core.chip.arch_version != "2002":  # the 310P needs no temporary buffer
        local_operand(core, tmp, _NAME, "shared_tmp_buffer")
        h0, w0 = (32 if isz == 1 else 16), 32 // isz
        need = ((c + 2) if kind is TransposeType.TRANSPOSE_NCHW2NHWC else (2 * c + 1)) * h0 * w0 * isz
        have = tmp.size * tmp.dtype.itemsize
        if have < need:
            core.fault(KernelFault, f"{_NAME}: {kind.name} needs a temporary buffer of {need} B, "
                       f"got {have} B",
                       code=fault_code(Space.UB), hint="size it as the Transpose page's table says")
        writes = (d_acc, tmp.access(need))
    if kind is TransposeType.TRANSPOSE_NCHW2NHWC:
        out[:] = x.reshape(n, c, h, w).transpose(0, 2, 3, 1).reshape(-1)
    else:
        out[:] = x.reshape(n, h, w, c).transpose(0, 3, 1, 2).reshape(-1)
    core.emit(Pipe.V, _NAME, (s_acc,), writes, REPEATS[2 * -(-nbytes // 256)])


__all__ = ["TransposeParamsExt", "TransposeType", "transpose"]
