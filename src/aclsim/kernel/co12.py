"""``DataCopy(dst, src, DataCopyCO12DstParams)`` (L0C -> GM on the fixpipe, arch 220) and its NZ2ND
register ``SetFixpipeNz2ndFlag(ndNum, srcNdStride, dstNdStride)``.

The L0C->GM DataCopy page: ``DataCopyCO12DstParams{nSize, mSize, dstStride, srcStride, quantPre, reluPre,
channelSplit, nz2ndEn}`` (constructor order; ``sid``, ``unitFlag``, ``clipReluPre``, ``eltWiseOp`` as
keywords) moves an ``mSize`` x ``nSize`` NZ result out of L0C as :func:`~aclsim.kernel.fixpipe` does:
``nz2nd_en`` True writes ND rows (``dst_stride`` elements a row) in ``ndNum`` matrices that the NZ2ND
register describes (``srcNdStride`` in fractals of 16 x 16 source elements, ``dstNdStride`` in elements,
as ``FixpipeParamsV220``'s ``nd_num``/``src_nd_stride``/``dst_nd_stride``); False keeps NZ (``dst_stride``
in 32 B blocks between Z columns).  ``src_stride`` counts 16-element rows between Z columns (``mSize``
rounded up to 16).  ``nSize`` or ``mSize`` 0: nothing moves (the page: a NOP).  Quantisation: NoQuant,
F322F16, F322BF16 (the others need the quant registers aclsim does not model: refused with 207000 like
``fixpipe``'s); ``channelSplit`` and the 310B-only ``clipReluPre`` / ``eltWiseOp`` are refused too.

``set_fixpipe_nz2nd_flag`` checks the page's ranges (``ndNum`` 1..65535; ``srcNdStride`` 0..512, and
at least 1 when ``ndNum`` > 1; ``dstNdStride`` 1..65535, 0 allowed with one matrix as the kernels
write ``SetFixpipeNz2ndFlag(1, 0, 0)``).  A NZ2ND copy before any ``set_fixpipe_nz2nd_flag`` is refused
(207000), as the library's own CPU check does ("SetFixpipeNz2ndFlag was not called before DataCopy
with DataCopyCO12DstParams").  Not on the 310P (no fixpipe; its library reports the call as not
supported).  The register write is a setting, not recorded; the copy is recorded as the fixpipe's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from aclsim.kernel._core import UnsupportedFault, current
from aclsim.kernel.cube import CFG_NZ, CFG_ROW_MAJOR, FixpipeParamsV220, QuantMode, fixpipe
from aclsim.kernel.tensor import GlobalTensor, LocalTensor

_ND = "nd_para"  # Core.spr key: (nd_num, src_nd_stride, dst_nd_stride)


@dataclass(frozen=True)
class DataCopyCO12DstParams:
    """``DataCopyCO12DstParams(nSize, mSize, dstStride, srcStride, quantPre, reluPre, channelSplit,
    nz2ndEn)``; ``sid``, ``unit_flag``, ``clip_relu_pre``, ``elt_wise_op`` by keyword."""

    n_size: int = 0
    m_size: int = 0
    dst_stride: int = 0
    src_stride: int = 0
    quant_pre: QuantMode = QuantMode.NoQuant
    relu_pre: int = 0
    channel_split: bool = False
    nz2nd_en: bool = False
    sid: int = field(default=0, kw_only=True)
    unit_flag: int = field(default=0, kw_only=True)
    clip_relu_pre: int = field(default=0, kw_only=True)
    elt_wise_op: int = field(default=0, kw_only=True)


def set_fixpipe_nz2nd_flag(nd_num: int, src_nd_stride: int, dst_nd_stride: int) -> None:
    """``SetFixpipeNz2ndFlag(ndNum, srcNdStride, dstNdStride)``: the NZ2ND register a
    ``data_copy(gm, l0c, DataCopyCO12DstParams(..., nz2nd_en=True))`` reads.

    >>> # inside a cube kernel: set_fixpipe_nz2nd_flag(1, 0, 0)
    """
    core = current()
    if core.chip.coupled:
        core.fault(UnsupportedFault, f"set_fixpipe_nz2nd_flag: {core.chip.name} has no fixpipe (its library "
                   "reports the call as not supported)")
    nd, ss, ds = int(nd_num), int(src_nd_stride), int(dst_nd_stride)
    if not 1 <= nd <= 65535:
        raise ValueError(f"set_fixpipe_nz2nd_flag: nd_num {nd} must be in 1..65535")
    if not (0 <= ss <= 512 and 0 <= ds <= 65535) or (nd > 1 and (ss < 1 or ds < 1)):
        raise ValueError(f"set_fixpipe_nz2nd_flag: src_nd_stride {ss} must be in 0..512 and dst_nd_stride "
                         f"{ds} in 0..65535, both at least 1 when nd_num > 1")
    core.spr[_ND] = (nd, ss, ds)


def data_copy_co12(dst: GlobalTensor, src: LocalTensor, p: DataCopyCO12DstParams) -> None:
    """``DataCopy(dst, src, DataCopyCO12DstParams)``: L0C -> GM (module docstring), for ``data_copy``."""
    core = current()
    name = "data_copy"
    if not isinstance(dst, GlobalTensor):
        raise TypeError(f"{name} with DataCopyCO12DstParams moves L0C -> GM: dst must be a GlobalTensor")
    if p.channel_split or p.clip_relu_pre or p.elt_wise_op:
        core.fault(UnsupportedFault, f"{name}: channel_split, clip_relu_pre and elt_wise_op "
                   "(DataCopyCO12DstParams) are not modelled (the last two exist on the Atlas 200I/500 A2 "
                   "only)",
                   hint="leave them at their defaults")
    if int(p.n_size) == 0 or int(p.m_size) == 0:
        return  # the page: nSize or mSize 0 is a NOP
    nd = (1, 0, 0)
    if p.nz2nd_en:
        if _ND not in core.spr:
            core.fault(UnsupportedFault, f"{name}: nz2nd_en reads the NZ2ND register, which nothing set in "
                       "this block (the library's check: SetFixpipeNz2ndFlag was not called before DataCopy "
                       "with DataCopyCO12DstParams)",
                       hint="call set_fixpipe_nz2nd_flag(nd_num, src_nd_stride, dst_nd_stride) first")
        nd = core.spr[_ND]
    params = FixpipeParamsV220(int(p.n_size), int(p.m_size), int(p.src_stride), int(p.dst_stride),
                               bool(p.relu_pre), QuantMode(p.quant_pre), 0, nd[0], nd[1], nd[2],
                               int(p.unit_flag))
    fixpipe(dst, src, params, CFG_ROW_MAJOR if p.nz2nd_en else CFG_NZ)


__all__ = ["DataCopyCO12DstParams", "data_copy_co12", "set_fixpipe_nz2nd_flag"]
