"""``compare``, ``compare_scalar`` and ``select``: bit masks on the vector unit (PIPE_V, UB operands).

``compare`` writes one bit per element (LSB first); ``select`` reads them back.  In the
mask/repeat form repeat ``r`` owns the bits from ``r * PAR`` (PAR = 256 B / sizeof(T)),
except ``select``'s mode 0 (VSEL_CMPMASK_SPR), which reuses the first PAR bits for every
repeat; bits and elements the mask leaves out keep their value.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any

import numpy as np

from aclsim.isa import Access, Pipe, Space
from aclsim.kernel._core import REPEATS, Core, current
from aclsim.kernel.mask import RESET
from aclsim.kernel.operands import count_view, local_bytes, local_operand
from aclsim.kernel.repeat import (
    BinaryRepeatParams,
    Strided,
    UnaryRepeatParams,
    check_count,
    repeats,
    selected,
)
from aclsim.kernel.tensor import LocalTensor


class CMPMODE(enum.IntEnum):
    LT = 0
    GT = 1
    EQ = 2
    LE = 3
    GE = 4
    NE = 5


class SELMODE(enum.IntEnum):
    VSEL_CMPMASK_SPR = 0
    VSEL_TENSOR_SCALAR_MODE = 1
    VSEL_TENSOR_TENSOR_MODE = 2


_CMP = {
    CMPMODE.LT: np.less,
    CMPMODE.GT: np.greater,
    CMPMODE.EQ: np.equal,
    CMPMODE.LE: np.less_equal,
    CMPMODE.GE: np.greater_equal,
    CMPMODE.NE: np.not_equal,
}


def _write_bits(core: Core, dst: LocalTensor, bits: np.ndarray, name: str) -> Access:
    packed = np.packbits(bits, bitorder="little")
    local_bytes(core, dst, packed.size, name, "dst")[...] = packed
    return dst.access(packed.size)


def _mask_bytes(core: Core, t: LocalTensor, nbits: int, name: str, what: str) -> np.ndarray:
    """The bytes of a bit-mask tensor holding ``nbits`` bits (a view into UB)."""
    return local_bytes(core, t, -(-nbits // 8), name, what)


def _repeat_bits(st: Strided, continuous: bool = True) -> np.ndarray:
    """Bit positions of the selected elements, repeat by repeat: repeat ``r`` owns bits
    ``r * PAR ..`` (``continuous``), or every repeat reuses bits ``0 .. PAR-1``."""
    if continuous:
        return st.positions()
    if st.count is not None:
        return np.arange(st.count) % st.per_rep
    sel = selected(st.key, st.per_rep)
    return np.broadcast_to(sel, (st.repeat, sel.size))


def _compare_strided(core: Core, name: str, st: Strided, dst: LocalTensor, src: LocalTensor, blk: int,
                     rep: int, result: Callable[[np.ndarray], np.ndarray]) -> tuple[Access, Access]:
    """The mask/repeat form of compare: each repeat writes its PAR result bits one after another
    (bit ``r * PAR + j`` for element ``j`` of repeat ``r``); bits of masked-off elements keep
    their value."""
    ss, si, sa = st.operand(core, src, blk, rep, name)
    nbits = st.repeat * st.per_rep
    raw = _mask_bytes(core, dst, nbits, name, "dst")
    bits = np.unpackbits(raw, bitorder="little").astype(bool)
    bits[_repeat_bits(st)] = result(ss[si])
    raw[...] = np.packbits(bits, bitorder="little")
    return sa, dst.access(raw.size)


def _whole_repeats(core: Core, src: LocalTensor, count: int, name: str) -> int:
    """The elements of the whole 256 B repeats among ``count``: the count forms of Compare and
    Compares compute only those (documented: the unaligned rest takes no part); the rest is
    noted in the sanitizer report."""
    isz = src.dtype.itemsize
    whole = count * isz // 256 * 256 // isz
    if whole != count:
        start = src.offset + whole * isz
        core.diagnose_local("ignored_tail", src.space.name, src.offset, start,
                            src.offset + count * isz, name)
    return whole


def _compare_count(core: Core, name: str, dst: LocalTensor, src0: LocalTensor, src1: LocalTensor | Any,
                   op: Callable[[Any, Any], np.ndarray], n: int) -> None:
    """The first ``n`` elements compared (``src1`` a tensor or a scalar), their bits into ``dst``."""
    right = count_view(core, src1, n, name, "src1") if isinstance(src1, LocalTensor) else src1
    bits = op(count_view(core, src0, n, name, "src0" if isinstance(src1, LocalTensor) else "src"), right)
    wa = _write_bits(core, dst, bits, name)
    nb = n * src0.dtype.itemsize
    reads = (src0.access(nb), src1.access(nb)) if isinstance(src1, LocalTensor) else (src0.access(nb),)
    core.emit(Pipe.V, name, reads, (wa,), REPEATS[repeats(core, nb)])
    core.vmask = RESET


def compare_exact(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor | Any, cmp_mode: CMPMODE,
                  count: int) -> None:
    """``count`` elements compared exactly (``src1`` a tensor, or a scalar as in ``Compares``): the
    high-level APIs' compares, which the library runs in counter mode (``SetMaskCount`` and a mask
    of ``count``) where the count forms of ``Compare``/``Compares`` would leave a partial repeat
    uncomputed.  Recorded as ``compare`` / ``compare_scalar``."""
    core = current()
    name = "compare" if isinstance(src1, LocalTensor) else "compare_scalar"
    local_operand(core, dst, name, "dst")
    local_operand(core, src0, name, "src0")
    op = _CMP[CMPMODE(cmp_mode)]
    if isinstance(src1, LocalTensor):
        local_operand(core, src1, name, "src1")
        if src0.dtype != src1.dtype:
            raise TypeError(f"compare: sources must share one dtype, got {src0.dtype}, {src1.dtype}")
    else:
        src1 = src0.dtype.type(src1)
    _compare_count(core, name, dst, src0, src1, op, check_count(count, name))


def compare(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, cmp_mode: CMPMODE, *args: Any,
            is_set_mask: bool | None = None) -> None:
    """``Compare(dst, src0, src1, cmpMode, count)`` or ``Compare(dst, src0, src1, cmpMode, mask,
    repeatTimes, BinaryRepeatParams)``: bit ``i`` of ``dst`` (LSB first) is ``src0[i] op src1[i]``.

    In the mask/repeat form repeat ``r`` writes its 256 B / sizeof(T) bits at bit
    ``r * PAR`` (the results are packed one after another; the dst strides are not used).
    """
    core = current()
    name = "compare"
    for t, w in ((dst, "dst"), (src0, "src0"), (src1, "src1")):
        local_operand(core, t, name, w)
    if src0.dtype != src1.dtype:
        raise TypeError(f"compare: sources must share one dtype, got {src0.dtype}, {src1.dtype}")
    op = _CMP[CMPMODE(cmp_mode)]
    if len(args) == 1:
        n = _whole_repeats(core, src0, check_count(args[0], name), name)
        _compare_count(core, name, dst, src0, src1, op, n)
        return
    if len(args) != 3 or not isinstance(args[2], BinaryRepeatParams):
        raise TypeError("compare(dst, src0, src1, cmp_mode, count) or "
                        "compare(dst, src0, src1, cmp_mode, mask, repeat_times, BinaryRepeatParams)")
    mask, repeat, p = args
    st = Strided(core, name, src0.dtype, mask, repeat, is_set_mask)
    bs, bi, ba = st.operand(core, src1, p.src1_blk_stride, p.src1_rep_stride, name)
    aa, wa = _compare_strided(core, name, st, dst, src0, p.src0_blk_stride, p.src0_rep_stride,
                              lambda a: op(a, bs[bi]))
    core.emit(Pipe.V, name, (aa, ba), (wa,), REPEATS[st.repeat])


def compare_scalar(dst: LocalTensor, src: LocalTensor, scalar: Any, cmp_mode: CMPMODE, *args: Any,
                   is_set_mask: bool | None = None) -> None:
    """``CompareScalar(dst, src, scalar, cmpMode, count)`` or ``CompareScalar(dst, src, scalar,
    cmpMode, mask, repeatTimes, UnaryRepeatParams)``: bit ``i`` is ``src[i] op scalar``."""
    core = current()
    name = "compare_scalar"
    local_operand(core, dst, name, "dst")
    local_operand(core, src, name, "src")
    op = _CMP[CMPMODE(cmp_mode)]
    v = src.dtype.type(scalar)
    if len(args) == 1:
        n = _whole_repeats(core, src, check_count(args[0], name), name)
        _compare_count(core, name, dst, src, v, op, n)
        return
    if len(args) != 3 or not isinstance(args[2], UnaryRepeatParams):
        raise TypeError("compare_scalar(dst, src, scalar, cmp_mode, count) or "
                        "compare_scalar(dst, src, scalar, cmp_mode, mask, repeat_times, UnaryRepeatParams)")
    mask, repeat, p = args
    st = Strided(core, name, src.dtype, mask, repeat, is_set_mask)
    sa, wa = _compare_strided(core, name, st, dst, src, p.src_blk_stride, p.src_rep_stride,
                              lambda a: op(a, v))
    core.emit(Pipe.V, name, (sa,), (wa,), REPEATS[st.repeat])


def select(
    dst: LocalTensor,
    sel_mask: LocalTensor,
    src0: LocalTensor,
    src1: LocalTensor | Any,
    sel_mode: SELMODE,
    *args: Any,
    is_set_mask: bool | None = None,
) -> None:
    """``Select(dst, selMask, src0, src1, selMode, count)`` or ``Select(dst, selMask, src0, src1,
    selMode, mask, repeatTimes, BinaryRepeatParams)``: ``src0[i]`` where the mask bit is 1, else
    ``src1[i]`` (a tensor) or the scalar ``src1`` (VSEL_TENSOR_SCALAR_MODE).

    Which bit: VSEL_CMPMASK_SPR (mode 0) uses the first 256 B / sizeof(T) bits of ``sel_mask``
    for every repeat (element ``i`` of the count form reads bit ``i % PAR``); modes 1 and 2
    use the mask's bits one after another (repeat ``r`` reads bits ``r * PAR ..``).  In the
    mask/repeat form, elements the mask leaves out keep their ``dst`` value.
    """
    core = current()
    name = "select"
    mode = SELMODE(sel_mode)
    local_operand(core, dst, name, "dst")
    local_operand(core, sel_mask, name, "sel_mask")
    local_operand(core, src0, name, "src0")
    tensor_mode = mode is not SELMODE.VSEL_TENSOR_SCALAR_MODE
    if tensor_mode:
        local_operand(core, src1, name, "src1")
        if src1.dtype != dst.dtype:
            raise TypeError(f"{name}: src1 must have dst's dtype {dst.dtype}, got {src1.dtype}")
    if src0.dtype != dst.dtype:
        raise TypeError(f"{name}: src0 must have dst's dtype {dst.dtype}, got {src0.dtype}")
    par = core.chip.vector_repeat_bytes // dst.dtype.itemsize
    if len(args) == 1:
        n = check_count(args[0], name)
        nbits = min(n, par) if mode is SELMODE.VSEL_CMPMASK_SPR else n
        raw = _mask_bytes(core, sel_mask, nbits, name, "sel_mask")
        bits = np.unpackbits(raw, bitorder="little", count=nbits).astype(bool)
        if mode is SELMODE.VSEL_CMPMASK_SPR and n > par:
            bits = np.resize(bits, n)  # the same PAR bits for every repeat
        a = count_view(core, src0, n, name, "src0")
        nb = n * dst.dtype.itemsize
        reads = [core.access(Space.UB, sel_mask.offset, raw.size), src0.access(nb)]
        if tensor_mode:
            b: Any = count_view(core, src1, n, name, "src1")
            reads.append(src1.access(nb))
        else:
            b = dst.dtype.type(src1)
        np.copyto(count_view(core, dst, n, name, "dst"), np.where(bits, a, b))
        core.emit(Pipe.V, name, tuple(reads), (dst.access(nb),), REPEATS[repeats(core, nb)])
        core.vmask = RESET
        return
    if len(args) != 3 or not isinstance(args[2], BinaryRepeatParams):
        raise TypeError("select(dst, sel_mask, src0, src1, sel_mode, count) or "
                        "select(dst, sel_mask, src0, src1, sel_mode, mask, repeat_times, BinaryRepeatParams)")
    mask, repeat, p = args
    st = Strided(core, name, dst.dtype, mask, repeat, is_set_mask)
    ds, di, da = st.operand(core, dst, p.dst_blk_stride, p.dst_rep_stride, name)
    as_, ai, aa = st.operand(core, src0, p.src0_blk_stride, p.src0_rep_stride, name)
    positions = _repeat_bits(st, continuous=mode is not SELMODE.VSEL_CMPMASK_SPR)
    nbits = int(positions.max()) + 1 if positions.size else 0
    raw = _mask_bytes(core, sel_mask, nbits, name, "sel_mask")
    bits = np.unpackbits(raw, bitorder="little").astype(bool)[positions]
    reads = [core.access(Space.UB, sel_mask.offset, raw.size), aa]
    if tensor_mode:
        bs, bi, ba = st.operand(core, src1, p.src1_blk_stride, p.src1_rep_stride, name)
        b = bs[bi]
        reads.append(ba)
    else:
        b = dst.dtype.type(src1)
    ds[di] = np.where(bits, as_[ai], b)
    core.emit(Pipe.V, name, tuple(reads), (da,), REPEATS[st.repeat])
