"""More loads into L0A/L0B (MTE1): ``LoadDataWithTranspose`` and the img2col ``LoadData`` (v2 params).

``load_data_with_transpose(dst, src, LoadData2dTransposeParams)`` (arch 2201; not on the 310P)
moves square matrices out of L1 and transposes each, as the pseudocode of the LoadDataWithTranspose
page does: each repeat takes one square (16 x 16 of 16-bit, 32 x 32 of 8-bit: the two 16 x 32
fractals one under the other; 16 x 16 of 32-bit: the two 16 x 8 fractals SIDE BY SIDE), transposes
it and splits it again into fractals (16 x 16 / 16 x 32 / 16 x 8 row-major), the second
``dst_frac_gap`` fractals after the first.  ``start_index`` and ``src_stride`` count squares,
``dst_gap`` counts 512 B fractals between the first fractals of two repeats.

``load_data(dst, src, LoadData3DParamsV2)`` expands a feature map in L1 (NC1HWC0 with N = 1:
``channel_size / C0`` planes of ``l1_h x l1_w x C0``) into the img2col matrix X, whose row ``m`` is
output position ``m`` (``h_out * W_out + w_out``) and whose column ``k`` is ``(c1, kh, kw, c0)``
(c1 outermost, c0 innermost), padded with ``pad_value`` per ``pad_list`` [left, right, top,
bottom], with strides, dilations and filter sizes (+256 with ``filter_size_w/h``); then it writes
rows ``m_start_pt ..`` (``m_extension``) and columns ``k_start_pt ..`` (``k_extension``) of X:
into L0A as zZ (A = X, fractals 16 x C0 row-major over the (M/16, K/C0) grid; ``en_transpose``
with 16-bit types: C0 x 16 fractals, K groups outer), into L0B as nZ with B = X (K = the rows of
X, N = its columns), the layouts ``mmad`` reads.  The page's pseudocode (load3d.py) is the model.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from aclsim.isa import Pipe, Space
from aclsim.kernel._core import BYTES, UnsupportedFault, current, is_int4, pack_int4, unpack_int4
from aclsim.kernel.operands import local_bytes, local_operand
from aclsim.kernel.tensor import LocalTensor

_FRAC = 512


@dataclass(frozen=True)
class LoadData2dTransposeParams:
    """``LoadData2dTransposeParams{startIndex, repeatTimes, srcStride, dstGap, dstFracGap, addrMode}``."""

    start_index: int = 0
    repeat_times: int = 0
    src_stride: int = 0
    dst_gap: int = 0
    dst_frac_gap: int = 0
    addr_mode: bool = False


def load_data_with_transpose(dst: LocalTensor, src: LocalTensor, params: LoadData2dTransposeParams) -> None:
    """``LoadDataWithTranspose(dst, src, LoadData2dTransposeParams)``: L1 -> L0A/L0B on MTE1 (see above)."""
    core = current()
    name = "load_data_with_transpose"
    local_operand(core, dst, name, "dst", (Space.L0A, Space.L0B))
    local_operand(core, src, name, "src", (Space.L1,))
    if core.chip.arch_version == "2002":
        core.fault(UnsupportedFault, f"{name}: not available on {core.chip.name} (arch 2002)",
                   hint="load_data with if_transpose (16-bit types), or pass the transposed matrix")
    if dst.dtype != src.dtype:
        raise TypeError(f"{name}: dst {dst.dtype} and src {src.dtype} must be the same type")
    i4 = is_int4(src.dtype)
    isz = src.dtype.itemsize
    if i4 and dst.space is not Space.L0B:
        core.fault(UnsupportedFault, f"{name}: int4b_t into {dst.space.value}: the documentation excludes it "
                   "(asc-devkit LoadDataWithTranspose.md, Atlas A2/A3: int4b_t loads into L0B only)",
                   hint="load int4b_t into L0A untransposed with load_data (LoadData2D), or transpose "
                   "into L0B")
    if not i4 and (isz not in (1, 2, 4) or src.dtype.name in ("int16", "uint16")):
        raise TypeError(f"{name}: takes int4b_t (into L0B), int8, uint8, half, bfloat16, int32, uint32, "
                        f"float; got {src.dtype}")
    reps, start, sstride = int(params.repeat_times), int(params.start_index), int(params.src_stride)
    gap, fgap = int(params.dst_gap), int(params.dst_frac_gap)
    if not 0 <= reps <= 255 or min(start, sstride, gap, fgap) < 0:
        raise ValueError(f"{name}: bad LoadData2dTransposeParams {params}")
    if params.addr_mode:
        core.fault(UnsupportedFault, f"{name}: addr_mode (decreasing addresses) is not modelled",
                   hint="keep the default addr_mode=False")
    nfrac = 4 if i4 else 2 if isz in (1, 4) else 1
    square = nfrac * _FRAC
    sspan = (start + (reps - 1) * sstride + 1) * square if reps else 0
    d_first = [(1 + gap) * i * _FRAC for i in range(reps)]
    dspan = (max(d_first) + (1 + fgap) * (nfrac - 1) * _FRAC + _FRAC) if reps else 0
    sbuf = local_bytes(core, src, sspan, name, "src")
    dbuf = local_bytes(core, dst, dspan, name, "dst")
    dt = src.dtype
    for i in range(reps):
        s0 = (start + i * sstride) * square
        if i4:  # four 16 x 64 fractals stacked: a 64 x 64 square of nibbles, transposed, split again
            t4 = unpack_int4(sbuf[s0:s0 + square], 2 * square).reshape(64, 64).T
            for j in range(4):
                o = d_first[i] + (1 + fgap) * j * _FRAC
                pack_int4(dbuf[o:o + _FRAC], t4[16 * j:16 * (j + 1)])
            continue
        block = sbuf[s0:s0 + square].view(dt)
        if isz == 2:
            out = [block.reshape(16, 16).T]
        elif isz == 1:
            t = block.reshape(32, 32).T
            out = [t[:16], t[16:]]
        else:
            t = np.hstack([block[:128].reshape(16, 8), block[128:].reshape(16, 8)]).T
            out = [t[:, :8], t[:, 8:]]
        for j, frac in enumerate(out):
            o = d_first[i] + (1 + fgap) * j * _FRAC
            dbuf[o:o + _FRAC] = np.ascontiguousarray(frac).view(np.uint8).reshape(-1)
    core.emit(Pipe.MTE1, name, (core.access(Space.L1, src.offset + start * square, sspan - start * square),)
              if reps else (), (dst.access(dspan),) if reps else (), BYTES[reps * square])


# --- img2col ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LoadData3DParamsV2:
    """``LoadData3DParamsV2<T>{padList, l1H, l1W, channelSize, kExtension, mExtension, kStartPt, mStartPt,
    strideW, strideH, filterW, filterH, dilationFilterW, dilationFilterH, enTranspose, enSmallK, padValue,
    filterSizeW, filterSizeH, fMatrixCtrl}``."""

    pad_list: tuple[int, int, int, int] = field(default=(0, 0, 0, 0))
    l1_h: int = 0
    l1_w: int = 0
    channel_size: int = 0
    k_extension: int = 0
    m_extension: int = 0
    k_start_pt: int = 0
    m_start_pt: int = 0
    stride_w: int = 1
    stride_h: int = 1
    filter_w: int = 1
    filter_h: int = 1
    dilation_filter_w: int = 1
    dilation_filter_h: int = 1
    en_transpose: bool = False
    en_small_k: bool = False
    pad_value: float = 0
    filter_size_w: bool = False
    filter_size_h: bool = False
    f_matrix_ctrl: bool = False


def _im2col(fm: np.ndarray, p: LoadData3DParamsV2, c0: int) -> np.ndarray:
    """The img2col matrix (rows: output positions, columns: (c1, kh, kw, c0)) of ``fm`` (C1, H, W, C0)."""
    fh = int(p.filter_h) + (256 if p.filter_size_h else 0)
    fw = int(p.filter_w) + (256 if p.filter_size_w else 0)
    dh, dw, sh, sw = int(p.dilation_filter_h), int(p.dilation_filter_w), int(p.stride_h), int(p.stride_w)
    left, right, top, bottom = (int(v) for v in p.pad_list)
    padded = np.pad(fm, ((0, 0), (top, bottom), (left, right), (0, 0)),
                    constant_values=fm.dtype.type(p.pad_value))
    h_out = (padded.shape[1] - ((fh - 1) * dh + 1)) // sh + 1
    w_out = (padded.shape[2] - ((fw - 1) * dw + 1)) // sw + 1
    if h_out <= 0 or w_out <= 0:
        raise ValueError(f"load_data: the filter ({fh} x {fw}, dilation {dh} x {dw}) does not fit the padded "
                         f"feature map {padded.shape[1]} x {padded.shape[2]}")
    hi = (np.arange(h_out) * sh)[:, None] + (np.arange(fh) * dh)[None, :]  # (h_out, fh)
    wi = (np.arange(w_out) * sw)[:, None] + (np.arange(fw) * dw)[None, :]  # (w_out, fw)
    win = padded[:, hi[:, None, :, None], wi[None, :, None, :], :]  # (C1, h_out, w_out, fh, fw, C0)
    return win.transpose(1, 2, 0, 3, 4, 5).reshape(h_out * w_out, -1)


def load_data_3d_v2(dst: LocalTensor, src: LocalTensor, p: LoadData3DParamsV2) -> None:
    """``LoadData(dst, src, LoadData3DParamsV2)``: img2col L1 -> L0A/L0B on MTE1 (module docstring)."""
    core = current()
    name = "load_data"
    local_operand(core, dst, name, "dst", (Space.L0A, Space.L0B))
    local_operand(core, src, name, "src", (Space.L1,))
    if dst.dtype != src.dtype:
        raise TypeError(f"{name}: dst {dst.dtype} and src {src.dtype} must be the same type")
    dt, isz, i4 = src.dtype, src.dtype.itemsize, is_int4(src.dtype)
    c0 = 64 if i4 else 32 // isz
    if i4 and (dst.space is Space.L0B or p.en_transpose):
        what = "into L0B" if dst.space is Space.L0B else "with en_transpose"
        core.fault(UnsupportedFault, f"{name}: img2col of int4b_t {what}: the documentation excludes it "
                   "(asc-devkit LoadData_3D.md, Atlas A2/A3: no b4/b8 on L1 -> L0B; en_transpose acts on "
                   "b16/b32 sources only)", hint="img2col int4b_t into L0A without en_transpose")
    h, w, ch = int(p.l1_h), int(p.l1_w), int(p.channel_size)
    kx, mx, ks, ms = int(p.k_extension), int(p.m_extension), int(p.k_start_pt), int(p.m_start_pt)
    to_b = dst.space is Space.L0B
    if p.en_small_k or p.f_matrix_ctrl:
        core.fault(UnsupportedFault,
                   f"{name}: en_small_k / f_matrix_ctrl are not supported (the page: no longer supported / "
                   "only False)")
    if ch % c0:
        core.fault(UnsupportedFault, f"{name}: channel_size {ch} not a multiple of C0 = {c0} is not modelled")
    if not i4 and ((to_b and isz != 2) or (p.en_transpose and not to_b and isz != 2)):
        how = " with en_transpose" if p.en_transpose and not to_b else ""
        core.fault(UnsupportedFault,
                   f"{name}: img2col into {dst.space.value}{how} is modelled for 16-bit types only, got {dt}")
    if ks % c0 or kx % c0:
        raise ValueError(f"{name}: k_start_pt {ks} and k_extension {kx} must be multiples of C0 = {c0}")
    nbytes = 0
    src_bytes = ch * h * w // 2 if i4 else ch * h * w * isz
    if min(h, w, ch, kx, mx) > 0:
        raw = local_bytes(core, src, src_bytes, name, "src")
        fm = (unpack_int4(raw, ch * h * w) if i4 else raw.view(dt)).reshape(ch // c0, h, w, c0)
        if i4 and not -8 <= int(p.pad_value) <= 7:
            raise ValueError(f"{name}: an int4b_t pad_value must lie in -8..7, got {p.pad_value}")
        x = _im2col(fm, p, c0)
        if ms + mx > x.shape[0] or ks + kx > x.shape[1]:
            raise ValueError(f"{name}: rows {ms}..{ms + mx} / columns {ks}..{ks + kx} run past the img2col "
                             f"matrix {x.shape[0]} x {x.shape[1]}")
        sub = x[ms:ms + mx, ks:ks + kx]
        m1, k1 = -(-mx // 16), kx // c0
        nbytes = m1 * k1 * _FRAC
        r, c = np.arange(mx)[:, None], np.arange(kx)[None, :]
        if i4:  # zZ of 16 x 64 nibble fractals, the nibbles around the written ones kept
            dbuf = local_bytes(core, dst, nbytes, name, "dst")
            nib = unpack_int4(dbuf, 2 * nbytes)
            nib[((r // 16) * k1 + c // c0) * (16 * c0) + (r % 16) * c0 + c % c0] = sub
            pack_int4(dbuf, nib)
            core.emit(Pipe.MTE1, name, (src.access(src_bytes),), (dst.access(nbytes),), BYTES[nbytes])
            return
        out = local_bytes(core, dst, nbytes, name, "dst").view(dt).reshape(-1)
        if to_b:  # B = X (K = rows of X): nZ, fractals row-major over (K/C0, N/16), each 16 (n) x C0 (k)
            if mx % c0:
                raise ValueError(f"{name}: into L0B m_extension {mx} must be a multiple of C0 = {c0}")
            n1 = -(-kx // 16)
            idx = ((r // c0) * n1 + c // 16) * (16 * c0) + (c % 16) * c0 + r % c0
            nbytes = (mx // c0) * n1 * _FRAC
            out = local_bytes(core, dst, nbytes, name, "dst").view(dt).reshape(-1)
        elif p.en_transpose:  # fractals (k1 outer, m1 inner), each C0 x 16
            idx = ((c // c0) * m1 + r // 16) * (16 * c0) + (c % c0) * 16 + r % 16
        else:  # zZ: fractals (m1 outer, k1 inner), each 16 x C0
            idx = ((r // 16) * k1 + c // c0) * (16 * c0) + (r % 16) * c0 + c % c0
        out[idx] = sub
    core.emit(Pipe.MTE1, name, (src.access(src_bytes),) if nbytes else (),
              (dst.access(nbytes),) if nbytes else (), BYTES[nbytes])


__all__ = ["LoadData2dTransposeParams", "LoadData3DParamsV2", "load_data_3d_v2", "load_data_with_transpose"]
