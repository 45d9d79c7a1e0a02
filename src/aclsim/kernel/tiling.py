"""Host-side Matmul tiling: ``matmul_tiling::MatmulApiTiling`` / ``MultiCoreMatmulTiling`` -> ``TCubeTiling``.

The host program describes the matrices (``set_a_type``... with their position, format,
data type and transposition), the shapes (``set_shape``, ``set_org_shape``), the bias and
the buffer space, then ``get_tiling(tcube)`` fills a :class:`TCubeTiling` that the kernel's
``Matmul`` object reads (``regist_matmul_obj(pipe, workspace, mm, tcube)``).  As in Ascend C,
every setter returns 0 (set) or -1 (refused) and ``get_tiling`` returns -1 when no tiling
fits; the reason is logged at WARNING on the ``aclsim.tiling`` logger with the key words
"MatmulApi Tiling", as the CANN documentation says to look for.

Sizes come from the chip's :class:`~aclsim.arch.ChipSpec` (L1, L0A, L0B, L0C), or from
``set_buffer_space``.  The field names of :class:`TCubeTiling` are the documented ones in
snake_case (``singleCoreM`` -> ``single_core_m``, ``M``/``Ka`` -> ``m``/``ka``).

>>> from aclsim.kernel.tiling import CubeFormat, DataType, MatmulApiTiling, TCubeTiling
>>> from aclsim.kernel.tensor import TPosition
>>> t = MatmulApiTiling("tiny")
>>> t.set_a_type(TPosition.GM, CubeFormat.ND, DataType.DT_FLOAT16)
0
>>> _ = t.set_b_type(TPosition.GM, CubeFormat.ND, DataType.DT_FLOAT16)
>>> _ = t.set_c_type(TPosition.GM, CubeFormat.ND, DataType.DT_FLOAT)
>>> _ = t.set_shape(256, 512, 256); _ = t.set_org_shape(256, 512, 256)
>>> tc = TCubeTiling(); t.get_tiling(tc), (tc.base_m, tc.base_n, tc.base_k)
(0, (128, 256, 64))
"""

from __future__ import annotations

import enum
import logging
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from aclsim.arch import ChipSpec, get_chip
from aclsim.kernel._core import as_dtype, bfloat16, float16, float32, int4b_t, int8, int32, is_int4
from aclsim.kernel.tensor import TPosition

log = logging.getLogger("aclsim.tiling")

#: L0C holds float32 or int32 results.
L0C_ELEM = 4
#: Recommended base block (elements) for 16-bit inputs: (baseM, baseN, baseK) = (128, 256, 64)
#: (TCubeTiling performance notes); baseK scales with the fractal's C0 for other input sizes.
DEFAULT_BASE_M, DEFAULT_BASE_N, DEFAULT_BASE_K_BYTES = 128, 256, 128


class CubeFormat(enum.IntEnum):
    """``CubeFormat``: how a matrix is laid out (ND row-major, NZ fractal, ...)."""

    ND = 0
    NZ = 1
    ZN = 2
    ZZ = 3
    NN = 4
    ND_ALIGN = 5
    SCALAR = 6
    VECTOR = 7


class DataType(enum.IntEnum):
    """``matmul_tiling::DataType``: the element types the tiling knows (the subset aclsim runs)."""

    DT_FLOAT = 0
    DT_FLOAT16 = 1
    DT_INT8 = 2
    DT_INT32 = 3
    DT_BFLOAT16 = 27
    DT_INT4 = 29


class MatrixTraverse(enum.IntEnum):
    """``matmul_tiling::MatrixTraverse``: the order of the base blocks ``SetTraverse`` asks for (the
    tiling's ``iterateOrder``: FIRSTM 0, M first; FIRSTN 1, N first; NOSET: the tiling's choice, M first)."""

    NOSET = 0
    FIRSTM = 1
    FIRSTN = 2


_DTYPES = {
    DataType.DT_FLOAT: float32,
    DataType.DT_FLOAT16: float16,
    DataType.DT_INT8: int8,
    DataType.DT_INT32: int32,
    DataType.DT_BFLOAT16: bfloat16,
    DataType.DT_INT4: int4b_t,
}

#: A/B input type -> the C types the cube path can produce (L0C accumulates in float32 / int32; int8 ->
#: half is the fixpipe's dequantisation, with Matmul.set_quant_scalar / set_quant_vector).
OUTPUT_TYPES = {
    float16: (float32, float16),
    bfloat16: (float32, bfloat16),
    float32: (float32,),
    int8: (int32, float16),
    int4b_t: (int32,),
}
#: A/B input type -> the bias types accepted.
BIAS_TYPES = {float16: (float32, float16), bfloat16: (float32,), float32: (float32,), int8: (int32,),
              int4b_t: (int32,)}


def elem_size(dtype: np.dtype) -> Fraction:
    """Bytes of one element: half a byte for int4b_t (two a byte), else the itemsize."""
    return Fraction(1, 2) if is_int4(dtype) else Fraction(dtype.itemsize)


def element_type(dtype: Any) -> np.dtype:
    """A ``DataType`` or a NumPy-compatible dtype as the NumPy dtype aclsim runs."""
    if isinstance(dtype, DataType):
        return _DTYPES[dtype]
    return as_dtype(dtype)


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def align(a: int, b: int) -> int:
    return ceil_div(a, b) * b


@dataclass
class TCubeTiling:
    """``TCubeTiling``: the documented fields (snake_case), filled by ``get_tiling``.

    ``m, n, ka, kb``: the original shapes (``M, N, Ka, Kb``); ``single_core_*``: one core's
    part; ``base_*``: one ``Mmad``'s block; ``depth_a1/b1``: base blocks held in L1
    (``step_m * step_ka * db``); ``step_*``: base blocks per L1 load; ``iterate_order`` 0: M
    first, 1: N first; ``db_l0a/b/c`` 1 or 2 buffers; ``share_l1_size``/``share_l0c_size``:
    the L1/L0C bytes the tiling uses (reserved fields in CANN, informative here).
    """

    used_core_num: int = 0
    m: int = 0
    n: int = 0
    ka: int = 0
    kb: int = 0
    single_core_m: int = 0
    single_core_n: int = 0
    single_core_k: int = 0
    base_m: int = 0
    base_n: int = 0
    base_k: int = 0
    depth_a1: int = 0
    depth_b1: int = 0
    step_m: int = 0
    step_n: int = 0
    is_bias: int = 0
    trans_length: int = 0
    iterate_order: int = 0
    share_mode: int = 0
    share_l1_size: int = 0
    share_l0c_size: int = 0
    share_ub_size: int = 0
    batch_m: int = 0
    batch_n: int = 0
    single_batch_m: int = 0
    single_batch_n: int = 0
    step_ka: int = 0
    step_kb: int = 0
    depth_al1_cache_ub: int = 0
    depth_bl1_cache_ub: int = 0
    db_l0a: int = 0
    db_l0b: int = 0
    db_l0c: int = 0


@dataclass(frozen=True)
class _MatType:
    pos: TPosition
    fmt: CubeFormat
    dtype: np.dtype
    trans: bool


def l1_slab_bytes(base: int, step_k: int, base_k: int, itemsize: Fraction | int) -> int:
    """Bytes of one L1 buffer holding ``base`` rows (or columns) by ``step_k * base_k`` of K."""
    return -(-align(base, 16) * align(step_k * base_k, 16) * itemsize // 1)


def c0_elems(dtype: np.dtype) -> int:
    """Elements of one 32 B fractal row (C0): 64 for int4b_t, else 32 / itemsize."""
    return 64 if is_int4(dtype) else 32 // dtype.itemsize


def k_align(a_dtype: np.dtype, trans_a: bool, trans_b: bool) -> int:
    """baseK's alignment: C0 (32 B of elements) when A is not transposed and B is; 16 otherwise."""
    c0 = c0_elems(a_dtype)
    return c0 if (not trans_a and trans_b) else max(16, c0)


class MatmulApiTiling:
    """``matmul_tiling::MatmulApiTiling``: the tiling of one core's matmul (``set_shape`` is its part).

    ``chip``: a preset name or :class:`ChipSpec` (the ``PlatformAscendC`` of the C++ API).
    """

    multi_core = False

    def __init__(self, chip: str | ChipSpec = "910B") -> None:
        self.chip = get_chip(chip)
        self.types: dict[str, _MatType] = {}
        self.shape: tuple[int, int, int] | None = None
        self.org: tuple[int, int, int, int] | None = None
        self.single: tuple[int, int, int] | None = None
        self.bias = False
        self.space = (self.chip.l1_bytes, self.chip.l0c_bytes, self.chip.ub_usable_bytes)
        self.fix_split = (-1, -1)
        self.traverse = MatrixTraverse.NOSET
        self.dim = 1
        self.split = (1, 1)  # (mDim, nDim) of the last tiling

    # --- setters (0: set, -1: refused) -----------------------------------------------------
    def _set_type(self, which: str, pos: Any, fmt: Any, dtype: Any, trans: bool) -> int:
        try:
            t = _MatType(TPosition(pos), CubeFormat(fmt), element_type(dtype), bool(trans))
        except (ValueError, TypeError, KeyError) as exc:
            log.warning("MatmulApi Tiling: Set%sType(%r, %r, %r): %s", which, pos, fmt, dtype, exc)
            return -1
        self.types[which] = t
        return 0

    def set_a_type(self, pos: Any, type: Any, data_type: Any, is_trans: bool = False) -> int:  # noqa: A002
        """``SetAType(pos, CubeFormat, DataType, isTrans)``."""
        return self._set_type("A", pos, type, data_type, is_trans)

    def set_b_type(self, pos: Any, type: Any, data_type: Any, is_trans: bool = False) -> int:  # noqa: A002
        """``SetBType(pos, CubeFormat, DataType, isTrans)``."""
        return self._set_type("B", pos, type, data_type, is_trans)

    def set_c_type(self, pos: Any, type: Any, data_type: Any) -> int:  # noqa: A002
        """``SetCType(pos, CubeFormat, DataType)``."""
        return self._set_type("C", pos, type, data_type, False)

    def set_bias_type(self, pos: Any, type: Any, data_type: Any) -> int:  # noqa: A002
        """``SetBiasType(pos, CubeFormat, DataType)``."""
        return self._set_type("Bias", pos, type, data_type, False)

    def set_shape(self, m: int, n: int, k: int) -> int:
        """``SetShape(m, n, k)`` in elements; -1 takes the value of ``set_org_shape``."""
        if any(int(v) < -1 or int(v) == 0 for v in (m, n, k)):
            log.warning("MatmulApi Tiling: SetShape(%s, %s, %s): sizes must be > 0 (or -1)", m, n, k)
            return -1
        self.shape = (int(m), int(n), int(k))
        return 0

    def set_org_shape(self, org_m: int, org_n: int, org_ka: int, org_kb: int | None = None) -> int:
        """``SetOrgShape(M, N, K)`` or ``SetOrgShape(M, N, Ka, Kb)``: the whole matrices (row strides)."""
        kb = org_ka if org_kb is None else org_kb
        if min(int(org_m), int(org_n), int(org_ka), int(kb)) <= 0:
            log.warning(
                "MatmulApi Tiling: SetOrgShape(%s, %s, %s, %s): sizes must be > 0", org_m, org_n, org_ka, kb
            )
            return -1
        self.org = (int(org_m), int(org_n), int(org_ka), int(kb))
        return 0

    def set_traverse(self, traverse: MatrixTraverse | int) -> int:
        """``SetTraverse(traverse)``: the order ``Iterate`` walks the base blocks in (the tiling's
        ``iterate_order``: 1 for ``FIRSTN``, else 0)."""
        try:
            self.traverse = MatrixTraverse(traverse)
        except ValueError:
            log.warning("MatmulApi Tiling: SetTraverse(%r): not a MatrixTraverse", traverse)
            return -1
        return 0

    def set_bias(self, is_bias_in: bool = False) -> int:
        """``SetBias(isBias)``."""
        self.bias = bool(is_bias_in)
        return 0

    def set_buffer_space(
        self, l1_size: int = -1, l0c_size: int = -1, ub_size: int = -1, bt_size: int = -1
    ) -> int:
        """``SetBufferSpace(l1Size, l0CSize, ubSize, btSize)`` in bytes; -1: the chip's whole buffer."""
        chip = self.chip
        caps = (chip.l1_bytes, chip.l0c_bytes, chip.ub_usable_bytes)
        vals = (int(l1_size), int(l0c_size), int(ub_size))
        for v, cap, name in zip(vals, caps, ("l1Size", "l0CSize", "ubSize"), strict=True):
            if v != -1 and not 0 < v <= cap:
                log.warning(
                    "MatmulApi Tiling: SetBufferSpace %s = %d: must be -1 or in 1..%d on %s",
                    name,
                    v,
                    cap,
                    chip.name,
                )
                return -1
        l1, l0c, ub = (cap if v == -1 else v for v, cap in zip(vals, caps, strict=True))
        self.space = (l1, l0c, ub)
        return 0

    def set_fix_split(self, base_m_in: int = -1, base_n_in: int = -1, base_k_in: int = -1) -> int:
        """``SetFixSplit(baseM, baseN, baseK)``: fixed base blocks (-1: computed); baseK must be -1."""
        bm, bn = int(base_m_in), int(base_n_in)
        if int(base_k_in) != -1:
            log.warning("MatmulApi Tiling: SetFixSplit baseK %s: only -1 is supported", base_k_in)
            return -1
        for v in (bm, bn):
            if v != -1 and (v <= 0 or v % 16):
                log.warning(
                    "MatmulApi Tiling: SetFixSplit(%d, %d): baseM/baseN must be multiples of 16", bm, bn
                )
                return -1
        self.fix_split = (bm, bn)
        return 0

    # --- the tiling ------------------------------------------------------------------------
    def _fail(self, why: str) -> int:
        log.warning("MatmulApi Tiling: %s", why)
        return -1

    def _shapes(self) -> tuple[int, int, int, int, int, int, int] | str:
        """(M, N, Ka, Kb, m, n, k) with the -1 of set_shape resolved, or why not."""
        if self.shape is None and self.org is None:
            return "no shape: call SetShape and SetOrgShape"
        org = self.org
        shape = self.shape or (-1, -1, -1)
        if org is None:
            if -1 in shape:
                return f"SetShape{shape} has -1 but no SetOrgShape"
            org = (shape[0], shape[1], shape[2], shape[2])
        mm, nn, ka, kb = org
        m = mm if shape[0] == -1 else shape[0]
        n = nn if shape[1] == -1 else shape[1]
        k = min(ka, kb) if shape[2] == -1 else shape[2]
        if m > mm or n > nn or k > ka or k > kb:
            return f"shape (m, n, k) = ({m}, {n}, {k}) exceeds the original shape (M, N, Ka, Kb) = {org}"
        return mm, nn, ka, kb, m, n, k

    def _check_types(self) -> str:
        for which in ("A", "B", "C"):
            if which not in self.types:
                return f"Set{which}Type was not called"
        a, b, c = self.types["A"], self.types["B"], self.types["C"]
        if a.dtype != b.dtype:
            return f"A is {a.dtype} and B {b.dtype}: the cube multiplies two matrices of one type"
        if a.dtype not in OUTPUT_TYPES:
            return f"A/B type {a.dtype}: the tiling supports float16, bfloat16, float32, int8 and int4b_t"
        if c.dtype not in OUTPUT_TYPES[a.dtype]:
            return f"{a.dtype} inputs give C in {OUTPUT_TYPES[a.dtype]}, not {c.dtype}"
        bias = self.types.get("Bias")
        if self.bias and bias is not None and bias.dtype not in BIAS_TYPES[a.dtype]:
            return f"bias {bias.dtype} with {a.dtype} inputs: use one of {BIAS_TYPES[a.dtype]}"
        return ""

    def _single_shape(self, mm: int, nn: int, m: int, n: int, k: int) -> tuple[int, int, int]:
        return m, n, k

    def get_tiling(self, tiling: TCubeTiling) -> int:
        """``GetTiling(tiling)``: fill ``tiling``; 0 on success, -1 when no tiling fits (logged why)."""
        why = self._check_types()
        if why:
            return self._fail(why)
        shapes = self._shapes()
        if isinstance(shapes, str):
            return self._fail(shapes)
        mm, nn, ka, kb, m, n, k = shapes
        sm, sn, sk = self._single_shape(mm, nn, m, n, k)
        a, b = self.types["A"], self.types["B"]
        bias = self.types.get("Bias")
        bias_size = (bias.dtype.itemsize if bias is not None else L0C_ELEM) if self.bias else 0
        res = self._blocks(sm, sn, sk, elem_size(a.dtype), bias_size, k_align(a.dtype, a.trans, b.trans))
        if isinstance(res, str):
            return self._fail(res)
        bm, bn, bk, dba, dbb, dbc = res
        l1 = self._l1(bm, bn, bk, sk, elem_size(a.dtype), bias_size)
        if isinstance(l1, str):
            return self._fail(l1)
        step_ka, step_kb, db1, l1_bytes = l1
        used = ceil_div(m, sm) * ceil_div(n, sn) if self.multi_core else 1
        fields = dict(
            used_core_num=used,
            m=mm,
            n=nn,
            ka=ka,
            kb=kb,
            single_core_m=sm,
            single_core_n=sn,
            single_core_k=sk,
            base_m=bm,
            base_n=bn,
            base_k=bk,
            depth_a1=step_ka * db1,
            depth_b1=step_kb * db1,
            step_m=1,
            step_n=1,
            is_bias=int(self.bias),
            trans_length=0,
            iterate_order=int(self.traverse == MatrixTraverse.FIRSTN),
            share_mode=0,
            share_l1_size=l1_bytes,
            share_l0c_size=bm * bn * L0C_ELEM * dbc,
            share_ub_size=0,
            batch_m=1,
            batch_n=1,
            single_batch_m=1,
            single_batch_n=1,
            step_ka=step_ka,
            step_kb=step_kb,
            depth_al1_cache_ub=0,
            depth_bl1_cache_ub=0,
            db_l0a=dba,
            db_l0b=dbb,
            db_l0c=dbc,
        )
        for name, value in fields.items():
            setattr(tiling, name, value)
        return 0

    def _blocks(
        self, sm: int, sn: int, sk: int, isz: Fraction, bias_size: int, kal: int
    ) -> tuple[int, int, int, int, int, int] | str:
        """(baseM, baseN, baseK, dbL0A, dbL0B, dbL0C) that fit L0A/L0B/L0C, or why none does."""
        chip = self.chip
        l0c = self.space[1]
        fm, fn = self.fix_split
        if fm != -1 and fm > align(sm, 16):
            return f"SetFixSplit baseM {fm} exceeds singleCoreM {sm} aligned to 16"
        if fn != -1 and fn > align(sn, 16):
            return f"SetFixSplit baseN {fn} exceeds singleCoreN {sn} aligned to 16"
        bm = fm if fm != -1 else min(DEFAULT_BASE_M, align(sm, 16))
        bn = fn if fn != -1 else min(DEFAULT_BASE_N, align(sn, 16))
        while bm * bn * L0C_ELEM > l0c:  # shrink the computed ones; a fixed split that does not fit fails
            if fn == -1 and bn > 16 and bn >= bm:
                bn = align(bn // 2, 16)
            elif fm == -1 and bm > 16:
                bm = align(bm // 2, 16)
            elif fn == -1 and bn > 16:
                bn = align(bn // 2, 16)
            else:
                return f"baseM {bm} x baseN {bn} x {L0C_ELEM} B does not fit L0C ({l0c} B)"
        while bias_size and bn * L0C_ELEM > chip.bt_bytes:  # the bias row of a block fills the bias table
            if fn != -1 or bn <= 16:
                return (f"baseN {bn}: a bias row of {bn} x {L0C_ELEM} B does not fit the bias table "
                        f"({chip.bt_bytes} B)")
            bn = align(bn // 2, 16)
        dbc = 2 if 2 * bm * bn * L0C_ELEM <= l0c else 1
        bk = min(align(DEFAULT_BASE_K_BYTES // isz, kal), align(sk, kal))
        dba = dbb = 2
        while True:
            fits_a = bm * bk * isz * dba <= chip.l0a_bytes
            fits_b = bn * bk * isz * dbb <= chip.l0b_bytes
            if fits_a and fits_b:
                break
            if bk > kal:
                bk = align(bk // 2, kal)
            elif not fits_a and dba == 2:
                dba = 1
            elif not fits_b and dbb == 2:
                dbb = 1
            else:
                return (
                    f"baseM {bm} / baseN {bn} x baseK {bk} of {isz} B do not fit L0A "
                    f"({chip.l0a_bytes} B) / L0B ({chip.l0b_bytes} B)"
                )
        if bias_size and bn * bias_size > chip.l1_bytes:
            return f"bias block {bn} x {bias_size} B too large"
        return bm, bn, bk, dba, dbb, dbc

    def _l1(
        self, bm: int, bn: int, bk: int, sk: int, isz: Fraction, bias_size: int
    ) -> tuple[int, int, int, int] | str:
        """(stepKa, stepKb, L1 double buffering, L1 bytes): all of K in L1 if it fits (double-buffered,
        else single), as the tuning notes advise; else the most K per load that fits double-buffered."""
        l1 = self.space[0]
        full = ceil_div(sk, bk)

        def need(st: int, d: int) -> int:
            return d * (l1_slab_bytes(bm, st, bk, isz) + l1_slab_bytes(bn, st, bk, isz)) + bn * bias_size

        candidates = [(full, 2), (full, 1)]
        step = full
        while step > 1:
            step = ceil_div(step, 2)
            candidates.append((step, 2))
        candidates.append((1, 1))
        for st, db in candidates:
            if need(st, db) <= l1:
                return st, st, db, need(st, db)
        return f"one base block each of A and B ({need(1, 1)} B) does not fit L1 ({l1} B)"

    # --- getters -----------------------------------------------------------------------------
    def get_base_m(self) -> int:
        tc = TCubeTiling()
        return tc.base_m if self.get_tiling(tc) == 0 else -1

    def get_base_n(self) -> int:
        tc = TCubeTiling()
        return tc.base_n if self.get_tiling(tc) == 0 else -1

    def get_base_k(self) -> int:
        tc = TCubeTiling()
        return tc.base_k if self.get_tiling(tc) == 0 else -1


class MultiCoreMatmulTiling(MatmulApiTiling):
    """``matmul_tiling::MultiCoreMatmulTiling``: ``set_shape`` is the whole matmul, split over
    ``set_dim`` cores in M and N (K is not split); ``used_core_num`` cores get a part."""

    multi_core = True

    def set_dim(self, dim: int) -> int:
        """``SetDim(dim)``: the cores the tiling may use (1..the chip's cube cores)."""
        if not 1 <= int(dim) <= max(self.chip.cube_cores, self.chip.vector_cores):
            log.warning(
                "MatmulApi Tiling: SetDim(%s): must be in 1..%d on %s",
                dim,
                max(self.chip.cube_cores, self.chip.vector_cores),
                self.chip.name,
            )
            return -1
        self.dim = int(dim)
        return 0

    def set_single_shape(self, single_m_in: int = -1, single_n_in: int = -1, single_k_in: int = -1) -> int:
        """``SetSingleShape(singleM, singleN, singleK)``: fix one core's part (-1: computed)."""
        vals = (int(single_m_in), int(single_n_in), int(single_k_in))
        if any(v < -1 or v == 0 for v in vals):
            return self._fail(f"SetSingleShape{vals}: sizes must be > 0 (or -1)")
        self.single = vals
        return 0

    def _single_shape(self, mm: int, nn: int, m: int, n: int, k: int) -> tuple[int, int, int]:
        fixed = self.single or (-1, -1, -1)
        best: tuple[tuple[int, int, int], int, int] | None = None
        for m_dim in range(1, self.dim + 1):
            n_dim = self.dim // m_dim
            sm = fixed[0] if fixed[0] != -1 else align(ceil_div(m, m_dim), 16)
            sn = fixed[1] if fixed[1] != -1 else align(ceil_div(n, n_dim), 16)
            sm, sn = min(sm, m), min(sn, n)
            # least work on the busiest core, then the fewest bytes each core loads
            key = (sm * sn, sm + sn, -ceil_div(m, sm) * ceil_div(n, sn))
            if best is None or key < best[0]:
                best = (key, sm, sn)
        assert best is not None
        _, sm, sn = best
        self.split = (ceil_div(m, sm), ceil_div(n, sn))
        sk = fixed[2] if fixed[2] != -1 else k
        return sm, sn, sk

    def get_core_num(self) -> tuple[int, int, int]:
        """``GetCoreNum(dim, mDim, nDim)``: the cores used and the split in M and N (after a tiling)."""
        tc = TCubeTiling()
        if self.get_tiling(tc) != 0:
            return -1, -1, -1
        m_dim, n_dim = self.split
        return m_dim * n_dim, m_dim, n_dim

    def get_single_shape(self) -> tuple[int, int, int]:
        """``GetSingleShape(singleM, singleN, singleK)``."""
        tc = TCubeTiling()
        if self.get_tiling(tc) != 0:
            return -1, -1, -1
        return tc.single_core_m, tc.single_core_n, tc.single_core_k
