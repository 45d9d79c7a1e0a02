"""The high-level Matmul API: ``Matmul<MatmulType<...>>``, ``REGIST_MATMUL_OBJ``, ``Iterate``/``GetTensorC``.

A ``Matmul`` object computes one core's ``singleCoreM x singleCoreN`` part of ``C = A @ B
(+ bias)`` as its :class:`~aclsim.kernel.tiling.TCubeTiling` says, with the cube-path
instructions a hand-written kernel would use (``matmul_block.py`` records them); its template
arguments are in ``matmul_config.py``.  ``MatmulImpl`` is the class (``Matmul`` is Ascend C's
alias of it: ``using Matmul = MatmulImpl<...>`` in ``matmul_intf.h``), so both names are one class.

Iteration order, base blocks and tails follow the documentation: ``iterate()`` computes
the next ``baseM x baseN`` block (M first when ``iterate_order`` is 0) and returns False
when the part is done; ``set_single_shape`` (or ``set_tail``) shrinks the part of a tail core;
``set_org_shape`` changes the original shapes (the row lengths of A, B and C in GM) so one
object can compute parts of other matrices.

Where aclsim differs from the library: (1) between two mmads accumulating into one L0C
block the library adds ``PipeBarrier<PIPE_M>`` only when ``(m/16) * (n/16) < 10`` (the
hardware orders larger ones itself); aclsim's sync model treats a pipe as issue-ordered, so
the barrier comes between every such pair (a little pessimistic for large blocks).  (2)
ND -> NZ is the DMA's (``Nd2NzParams``).  (3) Split chips only: on a coupled chip (310P) C
leaves L0C through UB, not modelled here, so the object refuses to be built there
(``set_local_workspace``, a coupled-chip call, too).  (4) A, B and bias come from GM, or for
A and B from L1 (TSCM) in NZ.  In a mixed AIC + AIV kernel the AIC serves its AIVs' objects
(``regist_matmul_obj``; the message path in ``kfc.py``); elsewhere an object runs where the kernel
calls it (the cube-only form, ``ASCENDC_CUBE_ONLY``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from aclsim.errors import FeatureNotSupportedError
from aclsim.isa import Space
from aclsim.kernel._core import as_dtype, current, float32, int8, int32, is_int4
from aclsim.kernel.cube_modes import HF32Mode, HF32TransMode, set_hf32_mode, set_hf32_trans_mode
from aclsim.kernel.kfc import answer, client_of, serve, served
from aclsim.kernel.matmul_block import C_QUANT, MatmulBlocks
from aclsim.kernel.matmul_config import (
    CFG_NORM,
    MatmulCallBackFunc,
    MatmulConfig,
    MatmulType,
    check_positions,
)
from aclsim.kernel.matmul_quant import MatmulQuant
from aclsim.kernel.multicore import get_sub_block_idx
from aclsim.kernel.operands import local_operand
from aclsim.kernel.pipe import TPipe, TQue
from aclsim.kernel.tensor import GlobalTensor, LocalTensor, TPosition
from aclsim.kernel.tiling import (
    BIAS_TYPES,
    OUTPUT_TYPES,
    TCubeTiling,
    ceil_div,
    elem_size,
    k_align,
    l1_slab_bytes,
)

#: REGIST_MATMUL_OBJ takes at most four Matmul objects.
MAX_MATMUL_OBJS = 4


class Matmul(MatmulBlocks):
    """``Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG>``: ``Matmul(a_type, b_type, c_type, bias, cfg)``

    Positions: A, B and bias in GM (ND or NZ; NZ inputs not transposed); C in GM or VECIN,
    ND.  Types: float16/bfloat16 -> float32 or the input type, float32 -> float32, int8 and
    int4b_t -> int32 (int4b_t without a bias: see ``docs/dsl_mapping.md``).  The fractal
    transposes L1 -> L0 are of 16-bit types (``load_data``), so a transposed A, or a B that is
    not transposed, needs float16/bfloat16.
    """

    def __init__(
        self,
        a_type: MatmulType,
        b_type: MatmulType,
        c_type: MatmulType,
        bias_type: MatmulType | None = None,
        cfg: MatmulConfig = CFG_NORM,
        cb: MatmulCallBackFunc | None = None,
    ) -> None:
        chip = current().chip  # a kernel object: outside a running kernel this raises KernelContextError
        if chip.coupled:
            raise FeatureNotSupportedError(
                f"Matmul on {chip.name}, a coupled chip: its results leave L0C through UB (CO2), a path "
                "aclsim's Matmul does not model (it uses fixpipe, which coupled chips lack); use a split "
                "(A2) chip preset such as 910B or tiny"
            )
        self.a_type, self.b_type, self.c_type, self.bias_type, self.cfg = (
            a_type,
            b_type,
            c_type,
            bias_type,
            cfg,
        )
        self.a_dt, self.b_dt, self.c_dt = (
            as_dtype(a_type.dtype),
            as_dtype(b_type.dtype),
            as_dtype(c_type.dtype),
        )
        if self.a_dt != self.b_dt or self.a_dt not in OUTPUT_TYPES:
            raise TypeError(
                f"Matmul: A and B must be one of float16, bfloat16, float32, int8, int4b_t, got "
                f"{self.a_dt}, {self.b_dt}"
            )
        if self.c_dt not in OUTPUT_TYPES[self.a_dt]:
            raise TypeError(
                f"Matmul: {self.a_dt} inputs give C in {OUTPUT_TYPES[self.a_dt]}, not {self.c_dt}"
            )
        self.bias_dt = as_dtype(bias_type.dtype) if bias_type is not None else None
        if self.bias_dt is not None and self.bias_dt not in BIAS_TYPES[self.a_dt]:
            raise TypeError(
                f"Matmul: bias {self.bias_dt} with {self.a_dt} inputs: use {BIAS_TYPES[self.a_dt]}"
            )
        if self.bias_dt is not None and is_int4(self.a_dt):
            raise FeatureNotSupportedError(
                "Matmul: a bias with int4b_t A and B: aclsim's Matmul starts C from the bias table through "
                "Mmad, and the Mmad page lists no bias for int4b_t inputs on Atlas A2/A3 (the Matmul page "
                "lists an int32 bias): not modelled; add the bias to C after the Matmul"
            )
        check_positions(a_type, b_type, c_type, bias_type)
        self.acc = int32 if self.a_dt == int8 or is_int4(self.a_dt) else float32
        self.pipe: TPipe | None = None
        self.workspace: Any = None
        self.tiling: TCubeTiling | None = None
        self._ques: dict[str, TQue] = {}
        self._sizes: dict[str, tuple[int, int]] = {}
        self._ga: GlobalTensor | None = None
        self._gb: GlobalTensor | None = None
        self._la: LocalTensor | None = None
        self._lb: LocalTensor | None = None
        self._gbias: GlobalTensor | None = None
        self._trans_a = self._trans_b = False
        self._tail = (-1, -1, -1)
        self._cursor = -1
        self._pending: list[tuple[int, int, int, int]] = []  # the block in L0C: (mi, ni, rows, columns)
        self._held: LocalTensor | None = None  # its CO1 tensor, handed to FIX by get_tensor_c
        self._kept: dict[str, tuple[tuple[int, int], LocalTensor]] = {}
        if cb is not None and not isinstance(cb, MatmulCallBackFunc):
            raise TypeError(f"Matmul: the callbacks are a MatmulCallBackFunc, got {type(cb).__name__}")
        self.cb = cb if cb is not None else MatmulCallBackFunc()
        self._quant = MatmulQuant()
        self.user_def_info: Any = 0  # SetUserDefInfo: the callbacks' tiling_ptr
        self.self_define_data: Any = 0  # SetSelfDefineData: the callbacks' data_ptr
        self._org = (0, 0, 0, 0)  # M, N, Ka, Kb of the stored A and B: the tiling's, or set_org_shape's
        self._org_c = 0  # N of the stored C (SetOrgShape's orgKc; 0: N)
        self.sub_block_idx = 0  # SetSubBlockIdx: the AIV this object serves (regist_matmul_obj sets it)
        self._batch = (1, 1)  # SetBatchNum(batchA, batchB)
        self.kfc: Any = None  # on an AIV of a mixed kernel: the kfc.Client its group's AIC serves
        self._async: list[tuple[int, int, int, int, int, int | None]] = []  # Iterate<false>'s blocks

    # --- set-up -------------------------------------------------------------------------------
    def init(self, tiling: TCubeTiling, tpipe: TPipe | None = None) -> None:
        """``Init(&tiling, &pipe)``: check the tiling and take the object's L1/L0 buffers from the TPipe."""
        pipe = tpipe if tpipe is not None else self.pipe
        if pipe is None:
            raise ValueError(
                "Matmul.init: no TPipe: register the object with regist_matmul_obj(pipe, ...) "
                "or pass init(tiling, pipe)"
            )
        if not isinstance(tiling, TCubeTiling):
            raise TypeError(f"Matmul.init needs a TCubeTiling (from get_tiling), got {type(tiling).__name__}")
        self._check_tiling(tiling)  # before anything changes: a refused tiling leaves the object as it was
        self.pipe = pipe
        t = tiling
        isz = elem_size(self.a_dt)  # (int4b_t: half a byte)
        db_a1 = 2 if t.depth_a1 >= 2 * t.step_ka * max(t.step_m, 1) else 1
        db_b1 = 2 if t.depth_b1 >= 2 * t.step_kb * max(t.step_n, 1) else 1
        sizes = {
            "a1": (db_a1, l1_slab_bytes(t.base_m, t.step_ka, t.base_k, isz)),
            "b1": (db_b1, l1_slab_bytes(t.base_n, t.step_kb, t.base_k, isz)),
            "a2": (t.db_l0a, int(t.base_m * t.base_k * isz)),
            "b2": (t.db_l0b, int(t.base_n * t.base_k * isz)),
            "co1": (t.db_l0c, t.base_m * t.base_n * self.acc.itemsize),
        }
        if t.is_bias:
            assert self.bias_dt is not None
            sizes["bias"] = (1, t.base_n * self.bias_dt.itemsize)
            sizes["bt"] = (1, t.base_n * self.acc.itemsize)
        if self._ques:  # a new tiling for buffers already taken: it must fit them
            for key, (num, size) in sizes.items():
                have = self._sizes.get(key)
                if have is None or num > have[0] or size > have[1]:
                    raise ValueError(
                        f"Matmul.init: the new tiling needs {num} x {size} B of {key}, more than "
                        f"the {have} the first init took; register with the largest tiling first"
                    )
        else:
            positions = {
                "a1": TPosition.A1,
                "b1": TPosition.B1,
                "a2": TPosition.A2,
                "b2": TPosition.B2,
                "co1": TPosition.CO1,
                "bias": TPosition.C1,
                "bt": TPosition.C2,
            }
            for key, (num, size) in sizes.items():
                que = TQue(positions[key], 1)
                self.pipe.init_buffer(que, num, size)
                self._ques[key] = que
            self._sizes = sizes
        self.tiling = t
        self._org, self._org_c = (t.m, t.n, t.ka, t.kb), 0
        self._reset()

    def _check_tiling(self, t: TCubeTiling) -> None:
        chip = current().chip
        isz = elem_size(self.a_dt)
        fields = (
            "single_core_m",
            "single_core_n",
            "single_core_k",
            "base_m",
            "base_n",
            "base_k",
            "step_ka",
            "step_kb",
            "depth_a1",
            "depth_b1",
            "db_l0a",
            "db_l0b",
            "db_l0c",
        )
        bad = [f for f in fields if getattr(t, f) <= 0]
        if bad:
            raise ValueError(
                f"Matmul.init: TCubeTiling {', '.join(bad)} must be > 0 (fill it with get_tiling)"
            )
        kal = k_align(self.a_dt, self.a_type.is_trans, self.b_type.is_trans)
        if t.base_m % 16 or t.base_n % 16 or t.base_k % kal:
            raise ValueError(
                f"Matmul.init: baseM {t.base_m} and baseN {t.base_n} must be multiples of 16, "
                f"baseK {t.base_k} of {kal} (the fractal alignment)"
            )
        for what, need, cap in (
            ("A", t.base_m * t.base_k * isz * t.db_l0a, chip.l0a_bytes),
            ("B", t.base_n * t.base_k * isz * t.db_l0b, chip.l0b_bytes),
            ("C", t.base_m * t.base_n * self.acc.itemsize * t.db_l0c, chip.l0c_bytes),
        ):
            if need > cap:
                raise ValueError(
                    f"Matmul.init: the {what} base blocks take {need} B, more than L0{what} "
                    f"({cap} B on {chip.name})"
                )
        if self.cfg.do_multi_data_load:
            ka_iter = ceil_div(t.single_core_k, t.base_k * t.step_ka)
            kb_iter = ceil_div(t.single_core_k, t.base_k * t.step_kb)
            if ka_iter % kb_iter and kb_iter % ka_iter:
                raise ValueError(
                    f"Matmul.init (CFG_MDL): the K loads of A ({ka_iter}) and B ({kb_iter}) "
                    "must be multiples of one another"
                )
        if t.is_bias and t.base_n * self.acc.itemsize > chip.bt_bytes:
            raise ValueError(
                f"Matmul.init: a bias row of baseN {t.base_n} x {self.acc.itemsize} B does not fit the "
                f"{chip.bt_bytes} B bias table of {chip.name}"
            )
        if t.is_bias and self.bias_dt is None:
            raise ValueError("Matmul.init: the tiling has isBias = 1 but the Matmul has no bias MatmulType")
        if min(t.m, t.n, t.ka, t.kb) <= 0:
            raise ValueError("Matmul.init: TCubeTiling M, N, Ka, Kb must be > 0")
        cfg = self.cfg
        for what, fixed, got in (
            ("singleCoreM/N/K", (cfg.single_core_m, cfg.single_core_n, cfg.single_core_k),
             (t.single_core_m, t.single_core_n, t.single_core_k)),
            ("basicM/N/K", (cfg.basic_m, cfg.basic_n, cfg.basic_k), (t.base_m, t.base_n, t.base_k)),
        ):
            if any(fixed) and fixed != got:  # constant tiling (GetMatmulApiTiling): the values must agree
                raise ValueError(
                    f"Matmul.init: the MatmulConfig fixes {what} = {fixed} but the tiling has {got}; "
                    "the constant values must agree with the runtime tiling"
                )

    def _reset(self) -> None:
        self._cursor = -1

    def set_tensor_a(self, gm: Any, is_transpose_a: bool = False) -> None:
        """``SetTensorA(gm, isTransposeA)``: A's part for this core, from its first element; or
        ``SetTensorA(leftMatrix)`` with the core's whole part already in L1 (a TSCM tensor, NZ:
        groups of C0 columns of K holding singleCoreM rows rounded up to 16; transposed, groups
        of 16 columns of M holding singleCoreK rows rounded up to 16): no GM -> L1 copy then."""
        src = self._input(gm, self.a_dt, "A", self.a_type)
        trans = self._trans(is_transpose_a, self.a_type, "A")
        self._ga, self._la = (src, None) if isinstance(src, GlobalTensor) else (None, src)
        self._trans_a = trans
        self._drop_kept("a1")
        self._reset()

    def set_tensor_b(self, gm: Any, is_transpose_b: bool = False) -> None:
        """``SetTensorB(gm, isTransposeB)`` / ``SetTensorB(rightMatrix)`` (TSCM, NZ: groups of 16 columns
        of N holding singleCoreK rows rounded up to 16; transposed, groups of C0 columns of K)."""
        src = self._input(gm, self.b_dt, "B", self.b_type)
        trans = self._trans(is_transpose_b, self.b_type, "B")
        self._gb, self._lb = (src, None) if isinstance(src, GlobalTensor) else (None, src)
        self._trans_b = trans
        self._drop_kept("b1")
        self._reset()

    def set_bias(self, bias_global: Any) -> None:
        """``SetBias(biasGlobal)``: needs a tiling with ``is_bias`` 1 and a bias MatmulType in GM (a bias
        type elsewhere, such as Ascend C's default ``C_TYPE`` with C at VECIN, is fine while unused)."""
        if self.bias_type is not None and self.bias_type.position is not TPosition.GM:
            raise FeatureNotSupportedError(
                f"Matmul.set_bias with the bias at {TPosition(self.bias_type.position).name}: aclsim's "
                "Matmul reads the bias from GM (VECOUT inputs are not modelled)"
            )
        t = self._need_tiling("set_bias")
        if not t.is_bias or self.bias_dt is None:
            raise ValueError(
                "set_bias needs a tiling with is_bias = 1 (SetBias(true) on the host) and a bias MatmulType"
            )
        if not self.cfg.enable_set_bias:
            raise ValueError(
                "set_bias on a Matmul whose MatmulConfig has enable_set_bias False (its bias code is "
                "compiled out): leave enable_set_bias True"
            )
        self._gbias = self._input(bias_global, self.bias_dt, "bias")

    def disable_bias(self) -> None:
        """``DisableBias()``: the next computations have no bias (until ``set_bias``)."""
        self._gbias = None

    def clear_bias(self) -> None:
        """``ClearBias()``: the older name of ``disable_bias``."""
        self.disable_bias()

    def set_tail(self, tail_m: int = -1, tail_n: int = -1, tail_k: int = -1) -> None:
        """``SetTail(tailM, tailN, tailK)``: this computation's singleCoreM/N/K (-1 keeps the tiling's)."""
        self._need_tiling("set_tail")
        for v, name in ((tail_m, "tailM"), (tail_n, "tailN"), (tail_k, "tailK")):
            if int(v) != -1 and int(v) <= 0:
                raise ValueError(f"set_tail: {name} {v} must be -1 (keep the tiling's) or > 0")
        self._tail = (int(tail_m), int(tail_n), int(tail_k))
        self._drop_kept("a1")
        self._drop_kept("b1")
        self._reset()

    def set_org_shape(self, org_m: int, org_n: int, org_ka: int, org_kb: int | None = None,
                      org_kc: int = 0) -> None:
        """``SetOrgShape(orgM, orgN, orgK)`` / ``SetOrgShape(orgM, orgN, orgKa, orgKb, orgKc = 0)``: the
        original shapes of A (M x Ka), B (Kb x N) and C (M x orgKc, or N when 0) in GM, in elements
        (their row lengths), for the next ``set_tensor_a/b``; call it before them, as documented."""
        self._need_tiling("set_org_shape")
        kb = org_ka if org_kb is None else org_kb
        vals = (int(org_m), int(org_n), int(org_ka), int(kb))
        if min(vals) <= 0 or int(org_kc) < 0:
            raise ValueError(f"set_org_shape: orgM, orgN, orgKa, orgKb must be > 0 and orgKc >= 0, got "
                             f"{(*vals, int(org_kc))}")
        self._org, self._org_c = vals, int(org_kc)
        self._drop_kept("a1")
        self._drop_kept("b1")
        self._reset()

    def set_single_shape(self, single_m: int, single_n: int, single_k: int) -> None:
        """``SetSingleShape(singleM, singleN, singleK)``: this computation's singleCoreM/N/K (the
        documented successor of ``set_tail``; all three given)."""
        for v, name in ((single_m, "singleM"), (single_n, "singleN"), (single_k, "singleK")):
            if int(v) <= 0:
                raise ValueError(f"set_single_shape: {name} {v} must be > 0")
        self.set_tail(single_m, single_n, single_k)

    def set_user_def_info(self, tiling_ptr: Any) -> None:
        """``SetUserDefInfo(tilingPtr)``: what the MatmulCallBackFunc callbacks get as ``tiling_ptr``
        (any value here: the tiling object itself, say)."""
        self.user_def_info = tiling_ptr

    def set_self_define_data(self, data_ptr: Any) -> None:
        """``SetSelfDefineData(dataPtr)``: what the callbacks get as ``data_ptr``."""
        self.self_define_data = data_ptr

    def set_sub_block_idx(self, sub_block_idx: int) -> None:
        """``SetSubBlockIdx(idx)``: the AIV (0 .. AIVs per AIC - 1) this object serves on a split chip;
        ``regist_matmul_obj`` sets it from ``get_sub_block_idx()``.  It picks the object's slot of the
        workspace through which ``get_tensor_c`` hands C to a VECIN tensor."""
        chip = current().chip
        ratio = max(1, chip.vector_cores // max(chip.cube_cores, 1))
        if not 0 <= int(sub_block_idx) < ratio:
            raise ValueError(f"set_sub_block_idx: {sub_block_idx} is not an AIV index of {chip.name} "
                             f"(0..{ratio - 1})")
        self.sub_block_idx = int(sub_block_idx)

    def set_quant_scalar(self, quant_scalar: int) -> None:
        """``SetQuantScalar(quantScalar)``: one scale (a uint64, the float in its low 32 bits) for all of C
        (int8 A/B -> half C: the fixpipe's DEQF16; kernel/matmul_quant.py)."""
        self._quant.set_scalar(quant_scalar)

    @served
    def set_quant_vector(self, quant_tensor: GlobalTensor) -> None:
        """``SetQuantVector(quantTensor)``: a scale per column of C (uint64 GlobalTensor; VDEQF16)."""
        self._quant.set_vector(quant_tensor, self.pipe, self._need_tiling("set_quant_vector").base_n)

    @served
    def set_hf32(self, enable_hf32: bool = False, trans_mode: int = 0) -> None:
        """``SetHF32(enableHF32, transMode)``: round float32 A and B to HF32 in the cube (pure cube
        mode); ``set_hf32_mode`` / ``set_hf32_trans_mode`` (PIPE_S) with the same values."""
        if int(trans_mode) not in (0, 1):
            raise ValueError(f"set_hf32: trans_mode is 0 or 1, got {trans_mode}")
        set_hf32_trans_mode(HF32TransMode(int(trans_mode)))
        set_hf32_mode(HF32Mode.ENABLE if enable_hf32 else HF32Mode.DISABLE)

    def set_workspace(self, addr: Any, size: int | None = None) -> None:
        """``SetWorkspace(GlobalTensor)`` / ``SetWorkspace(addr, size)``: the global memory through which
        C reaches a VECIN tensor (what ``regist_matmul_obj``'s workspace is; ``size`` in elements of
        the GM address's type, at least baseM x baseN x sizeof(C) bytes per slot)."""
        t = self._need_tiling("set_workspace")
        if isinstance(addr, GlobalTensor):
            base, nbytes = addr.addr, (addr.size * addr.dtype.itemsize if size is None else None)
        else:
            base, nbytes = int(addr), None
        if size is not None:
            item = getattr(getattr(addr, "dtype", None), "itemsize", 1)
            nbytes = int(size) * item
        need = t.base_m * t.base_n * self.c_dt.itemsize
        if nbytes is not None and 0 < nbytes < need:
            raise ValueError(f"set_workspace: {nbytes} B is less than one block of C ({need} B)")
        self.workspace = base

    def set_batch_num(self, batch_a: int, batch_b: int) -> None:
        """``SetBatchNum(batchA, batchB)``: the batches of A and B ``iterate_batch`` computes (the larger
        a multiple of the smaller: the other is broadcast)."""
        a, b = int(batch_a), int(batch_b)
        if a <= 0 or b <= 0 or max(a, b) % min(a, b):
            raise ValueError(
                f"set_batch_num: batchA {a} and batchB {b} must be > 0, one a multiple of the other"
            )
        self._batch = (a, b)

    @served
    def iterate_batch(self, gm: GlobalTensor, en_partial_sum: bool = False, en_atomic: int = 0,
                      en_sequential_write: bool = False, matrix_stride_a: int = 0, matrix_stride_b: int = 0,
                      matrix_stride_c: int = 0) -> None:
        """``IterateBatch(gm, enPartialSum, enAtomic, enSequentialWrite, strideA, strideB, strideC)`` (pure
        cube mode, NORMAL layout): ``max(batchA, batchB)`` products, each the object's whole part, A's
        batch ``i`` at ``i // (n / batchA)`` (broadcast), ``matrix_stride_a/b`` elements apart (0: the
        whole original matrix, ``M x Ka`` / ``Kb x N``), C's one ``M x N`` apart.  GM output only."""
        self._need_tiling("iterate_batch")
        if en_partial_sum or en_sequential_write or int(matrix_stride_c):
            raise FeatureNotSupportedError("iterate_batch: en_partial_sum, en_sequential_write and "
                                           "matrix_stride_c (reserved) are not modelled; leave them 0")
        if not isinstance(gm, GlobalTensor):
            raise FeatureNotSupportedError(
                "iterate_batch to a VECIN tensor is not modelled: pass a GlobalTensor"
            )
        if self._ga is None or self._gb is None:
            raise ValueError("iterate_batch before set_tensor_a / set_tensor_b (GlobalTensors: batches "
                             "from TSCM are not modelled)")
        om, on, oka, okb = self._org
        sa, sb = int(matrix_stride_a) or om * oka, int(matrix_stride_b) or okb * on
        ba, bb = self._batch
        n = max(ba, bb)
        ga, gb = self._ga, self._gb
        try:
            for i in range(n):
                self._ga, self._gb = ga[(i // (n // ba)) * sa], gb[(i // (n // bb)) * sb]
                self._drop_kept("a1")
                self._drop_kept("b1")
                self._reset()
                self.iterate_all(gm[i * om * (self._org_c or on)], en_atomic)
        finally:
            self._ga, self._gb = ga, gb
            self._drop_kept("a1")
            self._drop_kept("b1")

    def set_local_workspace(self, tmp_buffer: LocalTensor) -> None:
        """``SetLocalWorkspace(tmpBuffer)``: the UB staging buffer of the coupled chips' library.

        The documentation lists the call for coupled chips only (not the A2 family), and
        aclsim's Matmul runs on split chips only, so the call is refused with the reason."""
        chip = current().chip
        raise FeatureNotSupportedError(
            f"set_local_workspace on {chip.name}: SetLocalWorkspace exists on coupled chips (Atlas "
            "inference AI Core, 310P) only, where aclsim's Matmul is not modelled"
        )

    def _input(self, gm: Any, dtype: np.dtype, what: str, mt: MatmulType | None = None) -> Any:
        """``gm`` checked against the MatmulType: a GlobalTensor for GM, an L1 LocalTensor for TSCM."""
        tscm = mt is not None and mt.position is TPosition.TSCM
        if isinstance(gm, LocalTensor) and not tscm:
            raise FeatureNotSupportedError(
                f"Set{what} with a LocalTensor needs a TSCM MatmulType (VECOUT inputs are not modelled); "
                "the MatmulType says GM: pass a GlobalTensor"
            )
        if tscm and not isinstance(gm, LocalTensor):
            raise TypeError(f"{what}'s MatmulType is TSCM: pass its L1 LocalTensor, got {type(gm).__name__}")
        if tscm:
            local_operand(current(), gm, f"set_tensor_{what.lower()}", what, (Space.L1,))
        elif not isinstance(gm, GlobalTensor):
            raise TypeError(f"{what} must be a GlobalTensor, got {type(gm).__name__}")
        if gm.dtype != dtype:
            raise TypeError(f"{what} is {gm.dtype}, the Matmul's MatmulType says {dtype}")
        return gm

    def _trans(self, flag: bool, mt: MatmulType, what: str) -> bool:
        if flag and not mt.is_trans:
            raise ValueError(
                f"set_tensor_{what.lower()} with transposition, but the {what} MatmulType has "
                "is_trans False (the documentation allows only False then)"
            )
        needs_fractal_transpose = bool(flag) if what == "A" else not flag
        if needs_fractal_transpose and self.a_dt.itemsize != 2:
            raise FeatureNotSupportedError(
                f"{what} {'transposed' if flag else 'not transposed'} in {self.a_dt}: moving it to L0 turns "
                "fractals around, which aclsim's Matmul does with load_data, 16-bit types only (it does not "
                "use LoadDataWithTranspose yet); "
                f"{'store A untransposed' if what == 'A' else 'pass B transposed'}"
            )
        return bool(flag)

    def _need_tiling(self, op: str) -> TCubeTiling:
        if self.tiling is None:
            raise ValueError(
                f"{op} before the tiling: regist_matmul_obj(pipe, workspace, mm, tiling) or mm.init"
            )
        return self.tiling

    # --- the computation ------------------------------------------------------------------------
    def _single(self) -> tuple[int, int, int]:
        t = self._need_tiling("iterate")
        tm, tn, tk = self._tail
        return (
            t.single_core_m if tm == -1 else tm,
            t.single_core_n if tn == -1 else tn,
            t.single_core_k if tk == -1 else tk,
        )

    @served
    def iterate(self, en_partial_sum: bool = False, *, sync: bool = True) -> bool:
        """``Iterate<sync>(enPartialSum)``: compute the next ``baseM x baseN`` block of C into L0C; False
        when the part is done.  ``en_partial_sum``: add the product to the block still in L0C (one not
        yet taken out by ``get_tensor_c``) instead of starting a new one; as documented, only for a part
        that is one block (singleCoreM == baseM, singleCoreN == baseN).

        Synchronous: ``get_tensor_c`` takes each block out before the next plain ``iterate``.
        ``sync=False`` (``Iterate<false>()``): every block of the part into the workspace, taken out by
        ``get_tensor_c(..., sync=False)`` one by one (matmul_block.py)."""
        if not sync:
            return self._iterate_async()
        t = self._need_tiling("iterate")
        if (self._ga is None and self._la is None) or (self._gb is None and self._lb is None):
            raise ValueError("iterate before set_tensor_a / set_tensor_b")
        sm, sn, sk = self._single()
        m_iters, n_iters = ceil_div(sm, t.base_m), ceil_div(sn, t.base_n)
        if en_partial_sum and m_iters * n_iters != 1:
            raise ValueError(
                f"iterate(en_partial_sum=True) on a part of {sm} x {sn} with base blocks {t.base_m} x "
                f"{t.base_n}: accumulating in L0C needs singleCoreM <= baseM and singleCoreN <= baseN"
            )
        if self._pending and not en_partial_sum:
            raise ValueError(
                "iterate again before get_tensor_c took the previous block out (synchronous mode)"
            )
        if self._cursor + 1 >= m_iters * n_iters:
            self._reset()
            return False
        self._cursor += 1
        if t.iterate_order == 0:
            ni, mi = divmod(self._cursor, m_iters)
        else:
            mi, ni = divmod(self._cursor, n_iters)
        cur_m, cur_n = min(t.base_m, sm - mi * t.base_m), min(t.base_n, sn - ni * t.base_n)
        into = None
        if self._pending:  # en_partial_sum: the block in L0C gets this product added (mmad on M again)
            self._pending.pop(0)
            into, self._held = self._held, None
        self._held = self._block(mi, ni, cur_m, cur_n, sk, into)
        self._pending.append((mi, ni, cur_m, cur_n))
        return True

    # --- results ------------------------------------------------------------------------------
    def get_tensor_c(self, dst: GlobalTensor | LocalTensor, en_atomic: int = 0,
                     en_sequential_write: bool = False, *, sync: bool = True) -> None:
        """``GetTensorC<sync>(dst, enAtomic, enSequentialWrite)``: the block of the last ``iterate`` to GM
        or to a VECIN tensor; at its place in the core's part (row length N in GM, singleCoreN in UB)
        or, with ``en_sequential_write``, as a ``baseM x baseN`` block at ``dst``.  ``sync=False``: the
        next block an ``iterate(sync=False)`` left in the workspace, into a VECIN tensor."""
        if not sync:
            self._get_async(dst, en_sequential_write)
        else:
            self._get_sync(dst, en_atomic, en_sequential_write)

    @served
    def _get_sync(self, dst: GlobalTensor | LocalTensor, en_atomic: int, en_sequential_write: bool) -> None:
        t = self._need_tiling("get_tensor_c")
        if en_atomic:
            raise FeatureNotSupportedError(
                "get_tensor_c with en_atomic (atomic add/max/min on fixpipe) is not "
                "modelled: write to GM without it"
            )
        if not self._pending:
            raise ValueError("get_tensor_c with no block computed: call iterate() first")
        if not isinstance(dst, (GlobalTensor, LocalTensor)):
            raise TypeError(
                f"get_tensor_c needs a GlobalTensor or a VECIN LocalTensor, got {type(dst).__name__}"
            )
        if dst.dtype != self.c_dt:
            raise TypeError(f"get_tensor_c: dst is {dst.dtype}, the C MatmulType says {self.c_dt}")
        if isinstance(dst, LocalTensor):  # checked before the block leaves L0C: a refusal changes nothing
            self._check_ub(dst, en_sequential_write)
        mi, ni, cur_m, cur_n = self._pending.pop(0)
        q_co1 = self._ques["co1"]
        assert self._held is not None
        q_co1.enque(self._held)  # M -> FIX: the block leaves L0C
        self._held = None
        c1 = q_co1.deque(self.acc)
        self._quant.mode("get_tensor_c", self.acc, self.c_dt, C_QUANT[self.c_dt])  # (refuses a bad pair)
        if isinstance(dst, GlobalTensor):
            c_n = self._org_c or self._org[1]  # the stored C's row length
            off, row = (0, t.base_n) if en_sequential_write else (mi * t.base_m * c_n + ni * t.base_n, c_n)
            if self.cb.data_copy_out is not None:  # the user's copy out (MatmulCallBackFunc)
                self._copy_out_cb(dst, off, row, c1, mi, ni, cur_m, cur_n)
                q_co1.free_tensor(c1)
                return
            self._fix_out(dst[off], c1, ni, cur_m, cur_n, row)
        else:
            self._to_ub(dst, c1, mi, ni, cur_m, cur_n, en_sequential_write)
        q_co1.free_tensor(c1)

    @served
    def iterate_all(self, gm: GlobalTensor | LocalTensor, en_atomic: int = 0, *, sync: bool = True) -> None:
        """``IterateAll<sync>(gm)``: the core's whole ``singleCoreM x singleCoreN`` part of C, to GM or
        VECIN.  ``sync=False``: in a mixed kernel the AIV goes on at once, ``wait_iterate_all`` waits for
        the result (elsewhere the core's pipes order it: the same as the synchronous form)."""
        while self.iterate():
            self.get_tensor_c(gm, en_atomic)

    def wait_iterate_all(self) -> None:
        """``WaitIterateAll()``: wait for the last ``iterate_all(sync=False)`` (kernel/kfc.py)."""
        answer(self.kfc)

    @served
    def end(self) -> None:
        """``End()``: release the object's L1 slabs and any block not taken out."""
        for key in list(self._kept):
            self._drop_kept(key)
        q_co1 = self._ques.get("co1")
        if self._pending and q_co1 is not None and self._held is not None:
            self._pending.clear()
            q_co1.free_tensor(self._held)
            self._held = None
        self._tail = (-1, -1, -1)
        self._async.clear()
        self._reset()



def regist_matmul_obj(tpipe: TPipe, workspace: Any, *objs: Any) -> None:
    """``REGIST_MATMUL_OBJ(&pipe, workspace, mm, &tiling[, mm2, &tiling2 ...])`` (up to four objects;
    a tiling may be left out and given later with ``mm.init(tiling)``).

    ``workspace``: global memory (a ``GmAddr``/address) used by ``get_tensor_c`` to a VECIN
    tensor: ``block_dim x baseM x baseN x sizeof(C)`` bytes; ``None`` when C goes to GM.

    In a mixed kernel (kernel/kfc.py) the AIC serves its group's AIVs here until they end, and the
    kernel returns here on the AIC; on an AIV the objects become clients the AIC serves."""
    core = current()
    if not isinstance(tpipe, TPipe):
        raise TypeError(f"regist_matmul_obj needs the kernel's TPipe first, got {type(tpipe).__name__}")
    pairs: list[tuple[Matmul, TCubeTiling | None]] = []
    items = list(objs)
    while items:
        mm = items.pop(0)
        if not isinstance(mm, Matmul):
            raise TypeError(f"regist_matmul_obj: expected a Matmul, got {type(mm).__name__}")
        tiling = items.pop(0) if items and isinstance(items[0], TCubeTiling) else None
        pairs.append((mm, tiling))
    if not 1 <= len(pairs) <= MAX_MATMUL_OBJS:
        raise ValueError(f"regist_matmul_obj registers 1..{MAX_MATMUL_OBJS} Matmul objects, got {len(pairs)}")
    serve(core)  # the AIC of a mixed kernel: it serves its AIVs' requests, then the kernel returns here
    for mm, tiling in pairs:
        mm.pipe, mm.workspace, mm.kfc = tpipe, workspace, client_of(core, mm)
        mm.sub_block_idx = get_sub_block_idx()  # REGIST_MATMUL_OBJ initialises the AIV index itself
        if tiling is not None:
            mm.init(tiling)


#: Ascend C's class behind ``Matmul`` (``using Matmul = MatmulImpl<...>``): the same class.
MatmulImpl = Matmul
