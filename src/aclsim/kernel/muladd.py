"""``MulAddDst``: ``dst = src0 * src1 + dst`` on the vector unit (PIPE_V, UB operands).

Forms, as the MulAddDst page gives them: ``mul_add_dst(dst, src0, src1, count)`` and
``mul_add_dst(dst, src0, src1, mask, repeat_times, BinaryRepeatParams)`` (``mask`` an int or
the two-word bit list; ``is_set_mask=False`` with ``MASK_PLACEHOLDER`` reads the mask register).
Types on Atlas A2/A3 and the 310P AI Core: half -> half (128 lanes a repeat), float -> float
and half sources into a float ``dst`` (64 lanes a repeat; the sources' strides then count half
blocks, as ``Axpy``'s mixed form).  The half -> float form takes no overlapping operands
(the page's constraint: a fault with the line).  A count or repeat of 0 is a no-op (the page:
nothing is written on A2/A3).

The product and the sum are computed in float64 and rounded once to ``dst``'s type (a fused
multiply-add; the page does not say whether the device rounds the product first: for half
operands the product is exact in float, so the two agree whenever the float sum is exact).
Unselected ``dst`` elements of the mask form keep their value.  Recorded as one vector
instruction reading ``src0``, ``src1`` and ``dst`` and writing ``dst``, timed as a binary vector
instruction of its repeats and width.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from aclsim.errors import ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, KernelFault
from aclsim.isa import Access, Pipe
from aclsim.kernel._core import WIDE_REPEATS, Core, current, dtype_name, float16, float32
from aclsim.kernel.mask import MASK_PLACEHOLDER, RESET
from aclsim.kernel.operands import count_view, local_operand
from aclsim.kernel.repeat import BinaryRepeatParams, Strided, check_count, repeats
from aclsim.kernel.tensor import LocalTensor

_PAIRS = ((float16, float16), (float32, float32), (float16, float32))  # (src, dst)


def _fma(d: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):
        return (a.astype(np.float64) * b.astype(np.float64) + d.astype(np.float64)).astype(d.dtype)


def _disjoint(core: Core, dst: Access, src: Access, which: str) -> None:
    if dst.length and src.length and dst.overlaps(src):
        core.fault(KernelFault, f"mul_add_dst: half {which} {src} overlaps float dst {dst}; the half -> "
                   "float form takes no overlapping operands (the MulAddDst page)",
                   code=ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, hint="give dst and the sources separate buffers")


def mul_add_dst(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any,
                is_set_mask: bool | None = None) -> None:
    """``MulAddDst(dst, src0, src1, count)`` or ``MulAddDst(dst, src0, src1, mask, repeat_times,
    BinaryRepeatParams)``: ``dst = src0 * src1 + dst`` elementwise.

    >>> # inside a kernel, float tensors in UB: acc += x * w over 256 elements
    >>> # asc.mul_add_dst(acc, x, w, 256)
    """
    core = current()
    name = "mul_add_dst"
    local_operand(core, dst, name, "dst")
    local_operand(core, src0, name, "src0")
    local_operand(core, src1, name, "src1")
    if src0.dtype != src1.dtype or (src0.dtype, dst.dtype) not in _PAIRS:
        raise TypeError(f"{name}: takes half -> half, float -> float or half -> float (src0 and src1 one "
                        f"type), got src0 {dtype_name(src0.dtype)}, src1 {dtype_name(src1.dtype)}, "
                        f"dst {dtype_name(dst.dtype)}")
    mixed = src0.dtype != dst.dtype
    if len(args) == 1 and is_set_mask is False:  # one repeat from the mask register
        args = (MASK_PLACEHOLDER, 1, BinaryRepeatParams())
    elif len(args) == 1:
        n = check_count(args[0], name)
        d = count_view(core, dst, n, name, "dst")
        a = count_view(core, src0, n, name, "src0")
        b = count_view(core, src1, n, name, "src1")
        nb, sb = n * dst.dtype.itemsize, n * src0.dtype.itemsize
        da, aa, ba = dst.access(nb), src0.access(sb), src1.access(sb)
        if mixed:
            _disjoint(core, da, aa, "src0")
            _disjoint(core, da, ba, "src1")
        d[...] = _fma(d, a, b)
        core.emit(Pipe.V, name, (aa, ba, da), (da,), WIDE_REPEATS[(repeats(core, nb), dst.dtype.itemsize)])
        core.vmask = RESET
        return
    if len(args) != 3 or not isinstance(args[2], BinaryRepeatParams):
        raise TypeError(f"{name}(dst, src0, src1, count) or {name}(dst, src0, src1, mask, repeat_times, "
                        "BinaryRepeatParams)")
    mask, repeat, p = args
    st = Strided(core, name, dst.dtype, mask, repeat, is_set_mask)  # float dst: 64 lanes a repeat
    ds, di, da = st.operand(core, dst, p.dst_blk_stride, p.dst_rep_stride, name)
    xs, xi, xa = st.operand(core, src0, p.src0_blk_stride, p.src0_rep_stride, name)
    ys, yi, ya = st.operand(core, src1, p.src1_blk_stride, p.src1_rep_stride, name)
    if mixed:
        _disjoint(core, da, xa, "src0")
        _disjoint(core, da, ya, "src1")
    ds[di] = _fma(ds[di], xs[xi], ys[yi])
    core.emit(Pipe.V, name, (xa, ya, da), (da,), WIDE_REPEATS[(st.repeat, dst.dtype.itemsize)])


__all__ = ["mul_add_dst"]
