"""The high-level Matmul API: ``Matmul<MatmulType<...>>``, ``REGIST_MATMUL_OBJ``, ``Iterate``/``GetTensorC``.

A ``Matmul`` object computes one core's ``singleCoreM x singleCoreN`` part of ``C = A @ B
(+ bias)`` as its :class:`~aclsim.kernel.tiling.TCubeTiling` says, with the cube-path
instructions a hand-written kernel would use, so the core model times real instructions:

- per L1 load (``stepKa``/``stepKb`` base blocks of K): ``data_copy`` GM -> L1 with
  ``Nd2NzParams`` (ND inputs) or ``DataCopyParams`` (NZ inputs) on MTE2, through the object's
  A1/B1 queues (two buffers when ``depthA1 = 2 * stepKa``: the next slab loads while the cube
  works); a slab holding all of K stays in L1 for the next block that needs it;
- per base block of K: ``load_data`` L1 -> L0A (zZ) / L0B (nZ; the 16 x 16 fractals turned
  around when B is not transposed, or A is) on MTE1, then ``mmad`` into the CO1 tensor
  (``cmatrix_init_val`` on the first step);
- bias: ``data_copy`` GM -> L1 (C1) on MTE2 and L1 -> bias table on MTE1, added to the
  first step's result as the cube initialises C from the bias table;
- ``get_tensor_c``: ``fixpipe`` L0C -> GM (ND rows, fp32 -> fp16/bf16 on the way); to a VECIN
  (UB) tensor through the workspace in global memory given to ``regist_matmul_obj`` (as the
  split A2 chips do: the AIC writes, the AIV reads), bracketed by full barriers (the call is
  synchronous).

Iteration order, base blocks and tails follow the documentation: ``iterate()`` computes
the next ``baseM x baseN`` block (M first when ``iterate_order`` is 0) and returns False
when the part is done; ``set_tail`` shrinks the part of a tail core.

Where aclsim differs from the library: (1) between two mmads accumulating into one L0C
block the library adds ``PipeBarrier<PIPE_M>`` only when ``(m/16) * (n/16) < 10`` (the
hardware orders larger ones itself); aclsim's sync model treats a pipe as issue-ordered, so
the barrier comes between every such pair (a little pessimistic for large blocks).  (2)
``mmad`` takes no bias table yet (``is_bias`` is refused), so the bias is added to L0C
numerically right after the first step's ``mmad``; the L1 -> bias-table copy is recorded and
timed, the mmad's read of the table is not.  (3) ND -> NZ is the DMA's (``Nd2NzParams``).
(4) Split chips only: on a coupled chip (310P) C leaves L0C through UB, not modelled here, so
the object refuses to be built there (``set_local_workspace``, a coupled-chip call, too).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from aclsim.errors import FeatureNotSupportedError
from aclsim.isa import Pipe, Space
from aclsim.kernel._core import BYTES, as_dtype, bfloat16, current, float16, float32, int8, int32
from aclsim.kernel.copy import DataCopyExtParams, DataCopyParams, Nd2NzParams, data_copy, data_copy_pad
from aclsim.kernel.cube import (
    FixpipeParamsV220,
    LoadData2DParams,
    MmadParams,
    QuantMode,
    fixpipe,
    load_data,
    mmad,
)
from aclsim.kernel.operands import local_bytes, local_operand
from aclsim.kernel.pipe import TPipe, TQue
from aclsim.kernel.sync import PIPE_ALL, PIPE_M, pipe_barrier
from aclsim.kernel.tensor import GlobalTensor, LocalTensor, TPosition
from aclsim.kernel.tiling import BIAS_TYPES, OUTPUT_TYPES, CubeFormat, TCubeTiling, align, ceil_div, k_align

#: REGIST_MATMUL_OBJ takes at most four Matmul objects.
MAX_MATMUL_OBJS = 4


@dataclass(frozen=True)
class MatmulType:
    """``MatmulType<POSITION, CubeFormat, TYPE, ISTRANS>``: a matrix's place, layout, type, transposition."""

    position: TPosition
    format: CubeFormat
    dtype: Any
    is_trans: bool = False


@dataclass(frozen=True)
class MatmulConfig:
    """``MatmulConfig``: the template switches aclsim reads.  ``do_norm`` (CFG_NORM) and
    ``do_multi_data_load`` (CFG_MDL) run the same schedule here (loads of ``stepKa``/``stepKb``
    base blocks of K); MDL's extra tiling constraints are checked."""

    do_norm: bool = True
    do_basic_block: bool = False
    do_multi_data_load: bool = False
    intrinsics_check: bool = False
    enable_set_bias: bool = True


CFG_NORM = MatmulConfig()
CFG_MDL = MatmulConfig(do_norm=False, do_multi_data_load=True)

_QUANT = {
    float32: QuantMode.NoQuant,
    int32: QuantMode.NoQuant,
    float16: QuantMode.F322F16,
    bfloat16: QuantMode.F322BF16,
}


class Matmul:
    """``Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG>``: ``Matmul(a_type, b_type, c_type, bias, cfg)``

    Positions: A, B and bias in GM (ND or NZ; NZ inputs not transposed); C in GM or VECIN,
    ND.  Types: float16/bfloat16 -> float32 or the input type, float32 -> float32, int8 ->
    int32.  The fractal transposes L1 -> L0 are of 16-bit types (``load_data``), so a
    transposed A, or a B that is not transposed, needs float16/bfloat16.
    """

    def __init__(
        self,
        a_type: MatmulType,
        b_type: MatmulType,
        c_type: MatmulType,
        bias_type: MatmulType | None = None,
        cfg: MatmulConfig = CFG_NORM,
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
                f"Matmul: A and B must be one of float16, bfloat16, float32, int8, got "
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
        for name, t in (("A", a_type), ("B", b_type), ("bias", bias_type)):
            if t is not None and t.position is not TPosition.GM:
                raise FeatureNotSupportedError(
                    f"Matmul: {name} at {TPosition(t.position).name}: aclsim's Matmul reads A, B and bias "
                    "from GM (TSCM/VECOUT inputs are not modelled)"
                )
        for name, t in (("A", a_type), ("B", b_type)):
            if t.format not in (CubeFormat.ND, CubeFormat.NZ) or (t.format is CubeFormat.NZ and t.is_trans):
                raise FeatureNotSupportedError(
                    f"Matmul: {name} in {CubeFormat(t.format).name}"
                    f"{' transposed' if t.is_trans else ''}: ND, or NZ not transposed"
                )
        if c_type.position not in (TPosition.GM, TPosition.VECIN) or c_type.format is not CubeFormat.ND:
            raise FeatureNotSupportedError(
                f"Matmul: C at {TPosition(c_type.position).name} in {CubeFormat(c_type.format).name}: "
                "fixpipe writes ND rows to GM, or to VECIN through the workspace"
            )
        self.acc = int32 if self.a_dt == int8 else float32
        self.pipe: TPipe | None = None
        self.workspace: Any = None
        self.tiling: TCubeTiling | None = None
        self._ques: dict[str, TQue] = {}
        self._sizes: dict[str, tuple[int, int]] = {}
        self._ga: GlobalTensor | None = None
        self._gb: GlobalTensor | None = None
        self._gbias: GlobalTensor | None = None
        self._trans_a = self._trans_b = False
        self._tail = (-1, -1, -1)
        self._cursor = -1
        self._pending: list[tuple[int, int, int, int]] = []
        self._kept: dict[str, tuple[tuple[int, int], LocalTensor]] = {}

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
        isz = self.a_dt.itemsize
        db_a1 = 2 if t.depth_a1 >= 2 * t.step_ka * max(t.step_m, 1) else 1
        db_b1 = 2 if t.depth_b1 >= 2 * t.step_kb * max(t.step_n, 1) else 1
        sizes = {
            "a1": (db_a1, align(t.base_m, 16) * align(t.step_ka * t.base_k, 16) * isz),
            "b1": (db_b1, align(t.base_n, 16) * align(t.step_kb * t.base_k, 16) * isz),
            "a2": (t.db_l0a, t.base_m * t.base_k * isz),
            "b2": (t.db_l0b, t.base_n * t.base_k * isz),
            "co1": (t.db_l0c, t.base_m * t.base_n * self.acc.itemsize),
        }
        if t.is_bias:
            assert self.bias_dt is not None
            sizes["bias"] = (1, t.base_n * self.bias_dt.itemsize)
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
            }
            for key, (num, size) in sizes.items():
                que = TQue(positions[key], 1)
                self.pipe.init_buffer(que, num, size)
                self._ques[key] = que
            self._sizes = sizes
        self.tiling = t
        self._reset()

    def _check_tiling(self, t: TCubeTiling) -> None:
        chip = current().chip
        isz = self.a_dt.itemsize
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
        if t.is_bias and self.bias_dt is None:
            raise ValueError("Matmul.init: the tiling has isBias = 1 but the Matmul has no bias MatmulType")
        if min(t.m, t.n, t.ka, t.kb) <= 0:
            raise ValueError("Matmul.init: TCubeTiling M, N, Ka, Kb must be > 0")

    def _reset(self) -> None:
        self._cursor = -1

    def set_tensor_a(self, gm: Any, is_transpose_a: bool = False) -> None:
        """``SetTensorA(gm, isTransposeA)``: A's part for this core, from its first element."""
        ga, trans = self._input(gm, self.a_dt, "A"), self._trans(is_transpose_a, self.a_type, "A")
        self._ga, self._trans_a = ga, trans
        self._drop_kept("a1")
        self._reset()

    def set_tensor_b(self, gm: Any, is_transpose_b: bool = False) -> None:
        """``SetTensorB(gm, isTransposeB)``."""
        gb, trans = self._input(gm, self.b_dt, "B"), self._trans(is_transpose_b, self.b_type, "B")
        self._gb, self._trans_b = gb, trans
        self._drop_kept("b1")
        self._reset()

    def set_bias(self, bias_global: Any) -> None:
        """``SetBias(biasGlobal)``: needs a tiling with ``is_bias`` 1 and a bias MatmulType."""
        t = self._need_tiling("set_bias")
        if not t.is_bias or self.bias_dt is None:
            raise ValueError(
                "set_bias needs a tiling with is_bias = 1 (SetBias(true) on the host) and a bias MatmulType"
            )
        self._gbias = self._input(bias_global, self.bias_dt, "bias")

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

    def set_local_workspace(self, tmp_buffer: LocalTensor) -> None:
        """``SetLocalWorkspace(tmpBuffer)``: the UB staging buffer of the coupled chips' library.

        The documentation lists the call for coupled chips only (not the A2 family), and
        aclsim's Matmul runs on split chips only, so the call is refused with the reason."""
        chip = current().chip
        raise FeatureNotSupportedError(
            f"set_local_workspace on {chip.name}: SetLocalWorkspace exists on coupled chips (Atlas "
            "inference AI Core, 310P) only, where aclsim's Matmul is not modelled"
        )

    def _input(self, gm: Any, dtype: np.dtype, what: str) -> GlobalTensor:
        if isinstance(gm, LocalTensor):
            raise FeatureNotSupportedError(
                f"Set{what} with a LocalTensor (TSCM/VECOUT) is not modelled: pass a GlobalTensor"
            )
        if not isinstance(gm, GlobalTensor):
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
                "fractals around, which load_data does for 16-bit types only (LoadDataWithTranspose is not "
                f"modelled); {'store A untransposed' if what == 'A' else 'pass B transposed'}"
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

    def iterate(self, en_partial_sum: bool = False) -> bool:
        """``Iterate()``: compute the next ``baseM x baseN`` block of C into L0C; False when the part is done.

        Synchronous: ``get_tensor_c`` takes each block out before the next ``iterate``."""
        t = self._need_tiling("iterate")
        if en_partial_sum:
            raise FeatureNotSupportedError(
                "iterate(en_partial_sum=True) (accumulating into L0C) is not modelled"
            )
        if self._ga is None or self._gb is None:
            raise ValueError("iterate before set_tensor_a / set_tensor_b")
        if self._pending:
            raise ValueError(
                "iterate again before get_tensor_c took the previous block out (synchronous mode)"
            )
        sm, sn, sk = self._single()
        m_iters, n_iters = ceil_div(sm, t.base_m), ceil_div(sn, t.base_n)
        self._cursor += 1
        if self._cursor >= m_iters * n_iters:
            self._reset()
            return False
        if t.iterate_order == 0:
            ni, mi = divmod(self._cursor, m_iters)
        else:
            mi, ni = divmod(self._cursor, n_iters)
        cur_m, cur_n = min(t.base_m, sm - mi * t.base_m), min(t.base_n, sn - ni * t.base_n)
        self._block(mi, ni, cur_m, cur_n, sk)
        self._pending.append((mi, ni, cur_m, cur_n))
        return True

    def _block(self, mi: int, ni: int, cur_m: int, cur_n: int, sk: int) -> None:
        """One block of C: K in base steps, L1 slabs of stepKa/stepKb steps, mmad into CO1."""
        t = self.tiling
        assert t is not None
        q_a2, q_b2, q_co1 = self._ques["a2"], self._ques["b2"], self._ques["co1"]
        c1 = q_co1.alloc_tensor(self.acc)
        k_iters = ceil_div(sk, t.base_k)
        a1 = b1 = None
        for kt in range(k_iters):
            cur_k = min(t.base_k, sk - kt * t.base_k)
            if kt % t.step_ka == 0:
                a1 = self._slab("a1", (mi, kt // t.step_ka), a1, cur_m, sk, k_iters <= t.step_ka)
            if kt % t.step_kb == 0:
                b1 = self._slab("b1", (ni, kt // t.step_kb), b1, cur_n, sk, k_iters <= t.step_kb)
            assert a1 is not None and b1 is not None
            a2 = q_a2.alloc_tensor(self.a_dt)
            kk_a, kw_a = self._in_slab(kt, t.step_ka, sk)
            self._load_l0a(a2, a1, cur_m, cur_k, kk_a, kw_a)
            q_a2.enque(a2)
            b2 = q_b2.alloc_tensor(self.b_dt)
            kk_b, kw_b = self._in_slab(kt, t.step_kb, sk)
            self._load_l0b(b2, b1, cur_n, cur_k, kk_b, kw_b)
            q_b2.enque(b2)
            a2, b2 = q_a2.deque(self.a_dt), q_b2.deque(self.b_dt)
            if kt:  # accumulating into the previous step's L0C (see the module's notes on PIPE_M)
                pipe_barrier(PIPE_M)
            mmad(c1, a2, b2, MmadParams(cur_m, cur_n, cur_k, cmatrix_init_val=kt == 0))
            if kt == 0 and self._gbias is not None:
                self._add_bias(c1, ni, cur_m, cur_n)
            q_a2.free_tensor(a2)
            q_b2.free_tensor(b2)
        for key, slab, whole in (("a1", a1, k_iters <= t.step_ka), ("b1", b1, k_iters <= t.step_kb)):
            if not whole and slab is not None:
                self._ques[key].free_tensor(slab)
        q_co1.enque(c1)

    def _in_slab(self, kt: int, step: int, sk: int) -> tuple[int, int]:
        """(K offset of base step ``kt`` inside its L1 slab, the slab's K width)."""
        t = self.tiling
        assert t is not None
        first = kt - kt % step
        return (kt - first) * t.base_k, min(step * t.base_k, sk - first * t.base_k)

    def _slab(
        self, key: str, where: tuple[int, int], old: LocalTensor | None, cur: int, sk: int, whole: bool
    ) -> LocalTensor:
        """The L1 slab ``where`` = (block in M or N, slab of K) of A (``a1``) or B (``b1``): kept
        from the previous block when it holds all of K, else loaded (the previous one freed)."""
        kept = self._kept.get(key)
        if kept is not None:
            if kept[0] == where and whole:
                return kept[1]
            self._drop_kept(key)
        que = self._ques[key]
        if old is not None and self._sizes[key][0] < 2:
            que.free_tensor(old)
            old = None
        slab = que.alloc_tensor(self.a_dt)
        if old is not None:  # the next slab's buffer taken first: its load overlaps the cube's work
            que.free_tensor(old)
        self._copy_in(key, slab, where, cur, sk)
        que.enque(slab)
        slab = que.deque(self.a_dt)
        if whole:
            self._kept[key] = (where, slab)
        return slab

    def _drop_kept(self, key: str) -> None:
        kept = self._kept.pop(key, None)
        if kept is not None:
            self._ques[key].free_tensor(kept[1])

    def _copy_in(self, key: str, slab: LocalTensor, where: tuple[int, int], cur: int, sk: int) -> None:
        """GM -> L1 (MTE2) of one slab, as NZ: ``cur`` rows (of A) / columns (of B) by the slab's K."""
        t = self.tiling
        assert t is not None
        is_a = key == "a1"
        blk, ks = where
        step = t.step_ka if is_a else t.step_kb
        k0 = ks * step * t.base_k
        kw = min(step * t.base_k, sk - k0)
        base = t.base_m if is_a else t.base_n
        g = self._ga if is_a else self._gb
        mt = self.a_type if is_a else self.b_type
        trans = self._trans_a if is_a else self._trans_b
        assert g is not None
        c0 = 32 // self.a_dt.itemsize
        r0 = blk * base
        if mt.format is CubeFormat.NZ:  # already fractal in GM: one 32 B row per block, groups apart
            if is_a:  # A NZ: groups of c0 K-columns, each holding align16(M) rows
                rows, full, groups, g0 = align(cur, 16), align(t.m, 16), ceil_div(kw, c0), k0 // c0
                start = g0 * full * c0 + r0 * c0
            else:  # B NZ: groups of 16 N-columns, each holding align16(Kb) rows
                rows, full, groups, g0 = align(kw, 16), align(t.kb, 16), ceil_div(cur, 16), r0 // 16
                start = g0 * full * 16 + k0 * 16
            data_copy(slab, g[start], DataCopyParams(groups, rows, full - rows, 0))
            return
        # ND: which rows and columns of the stored matrix, and its row length
        if is_a and not trans:  # A (M x Ka)
            off, n_rows, d_cols, stride = r0 * t.ka + k0, cur, kw, t.ka
        elif is_a:  # A stored transposed (Ka x M)
            off, n_rows, d_cols, stride = k0 * t.m + r0, kw, cur, t.m
        elif not trans:  # B (Kb x N)
            off, n_rows, d_cols, stride = k0 * t.n + r0, kw, cur, t.n
        else:  # B stored transposed (N x Kb)
            off, n_rows, d_cols, stride = r0 * t.kb + k0, cur, kw, t.kb
        data_copy(slab, g[off], Nd2NzParams(1, n_rows, d_cols, 0, stride, align(n_rows, 16), 1, 0))

    def _load_l0a(self, a2: LocalTensor, a1: LocalTensor, cur_m: int, cur_k: int, kk: int, kw: int) -> None:
        """L1 -> L0A (zZ): one row of fractals per 16 rows of A, from K offset ``kk`` of the slab."""
        c0 = 32 // self.a_dt.itemsize
        m1, k1 = ceil_div(cur_m, 16), ceil_div(cur_k, c0)
        frac = 16 * c0
        for i in range(m1):
            if self._trans_a:  # NZ of A^T: groups of 16 M-columns, each align16(slab K) rows
                params = LoadData2DParams(i * ceil_div(kw, 16) + kk // 16, k1, 1, if_transpose=True)
            else:  # NZ of A: groups of c0 K-columns, each align16(cur_m) rows
                params = LoadData2DParams((kk // c0) * m1 + i, k1, m1)
            load_data(a2[i * k1 * frac], a1, params)

    def _load_l0b(self, b2: LocalTensor, b1: LocalTensor, cur_n: int, cur_k: int, kk: int, kw: int) -> None:
        """L1 -> L0B (nZ): one row of fractals per C0 of K."""
        c0 = 32 // self.b_dt.itemsize
        n1 = ceil_div(cur_n, 16)
        frac = 16 * c0
        if self._trans_b:  # NZ of B^T: groups of c0 K-columns, each align16(cur_n) rows: already nZ
            for kb in range(ceil_div(cur_k, c0)):
                load_data(b2[kb * n1 * frac], b1, LoadData2DParams((kk // c0 + kb) * n1, n1, 1))
        else:  # NZ of B: groups of 16 N-columns, each align16(slab K) rows: fractals turned around
            for kb in range(ceil_div(cur_k, 16)):
                params = LoadData2DParams(kk // 16 + kb, n1, ceil_div(kw, 16), if_transpose=True)
                load_data(b2[kb * n1 * frac], b1, params)

    def _add_bias(self, c1: LocalTensor, ni: int, cur_m: int, cur_n: int) -> None:
        """The block's bias: GM -> L1 (C1, MTE2), L1 -> bias table (MTE1), added to C as the cube
        initialises C from the bias table."""
        t = self.tiling
        assert t is not None and self._gbias is not None and self.bias_dt is not None
        core = current()
        que = self._ques["bias"]
        bl1 = que.alloc_tensor(self.bias_dt)
        data_copy(bl1, self._gbias[ni * t.base_n], Nd2NzParams(1, 1, cur_n, 0, cur_n, 1, 1, 0))
        que.enque(bl1)
        bl1 = que.deque(self.bias_dt)
        nbytes = align(cur_n * self.bias_dt.itemsize, 32)
        bias = local_bytes(core, bl1, cur_n * self.bias_dt.itemsize, "set_bias", "bias").view(self.bias_dt)
        core.emit(
            Pipe.MTE1, "data_copy", (bl1.access(nbytes),), (core.access(Space.BT, 0, nbytes),), BYTES[nbytes]
        )
        m1, n1 = ceil_div(cur_m, 16), ceil_div(cur_n, 16)
        c = local_bytes(core, c1, m1 * n1 * 256 * self.acc.itemsize, "mmad", "dst").view(self.acc)
        row = np.zeros(n1 * 16, self.acc)
        row[:cur_n] = bias.astype(self.acc)
        blocks = c.reshape(n1, m1, 16, 16)
        blocks[...] = blocks + row.reshape(n1, 1, 1, 16)
        que.free_tensor(bl1)

    # --- results ------------------------------------------------------------------------------
    def get_tensor_c(
        self, dst: GlobalTensor | LocalTensor, en_atomic: int = 0, en_sequential_write: bool = False
    ) -> None:
        """``GetTensorC(dst, enAtomic, enSequentialWrite)``: the block of the last ``iterate`` to GM or
        to a VECIN tensor; at its place in the core's part (row length N in GM, singleCoreN in UB)
        or, with ``en_sequential_write``, as a ``baseM x baseN`` block at ``dst``."""
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
        c1 = q_co1.deque(self.acc)
        quant = _QUANT[self.c_dt]
        if isinstance(dst, GlobalTensor):
            off, row = (0, t.base_n) if en_sequential_write else (mi * t.base_m * t.n + ni * t.base_n, t.n)
            fixpipe(
                dst[off],
                c1,
                FixpipeParamsV220(
                    n_size=cur_n, m_size=cur_m, src_stride=align(cur_m, 16), dst_stride=row, quant_pre=quant
                ),
            )
        else:
            self._to_ub(dst, c1, mi, ni, cur_m, cur_n, en_sequential_write)
        q_co1.free_tensor(c1)

    def _check_ub(self, dst: LocalTensor, sequential: bool) -> None:
        t = self._need_tiling("get_tensor_c")
        local_operand(current(), dst, "get_tensor_c", "dst", (Space.UB,))
        if self.workspace is None:
            raise ValueError(
                "get_tensor_c to a VECIN tensor goes through the workspace in global memory: pass "
                "one to regist_matmul_obj(pipe, workspace, ...) (block_dim x baseM x baseN x "
                "sizeof(C) bytes)"
            )
        pitch = t.base_n if sequential else self._single()[1]
        if (pitch * self.c_dt.itemsize) % 32:
            raise ValueError(
                f"get_tensor_c to UB: rows of {pitch} x {self.c_dt.itemsize} B are not whole 32 B blocks; "
                "use en_sequential_write=True (rows of baseN) or a singleCoreN aligned to 32 B"
            )

    def _to_ub(
        self, dst: LocalTensor, c1: LocalTensor, mi: int, ni: int, cur_m: int, cur_n: int, sequential: bool
    ) -> None:
        """L0C -> workspace (FIX) -> UB (MTE2), the split chips' way from the cube to the vector core."""
        t = self.tiling
        assert t is not None
        core = current()
        csz = self.c_dt.itemsize
        sn = self._single()[1]
        pitch = t.base_n if sequential else sn
        ws = GlobalTensor(self.c_dt)
        ws.set_global_buffer(self.workspace)
        ws = ws[core.block_idx * t.base_m * t.base_n]
        fixpipe(
            ws,
            c1,
            FixpipeParamsV220(
                n_size=cur_n,
                m_size=cur_m,
                src_stride=align(cur_m, 16),
                dst_stride=t.base_n,
                quant_pre=_QUANT[self.c_dt],
            ),
        )
        pipe_barrier(PIPE_ALL)  # the FIX write to GM lands before MTE2 reads it back
        off = 0 if sequential else mi * t.base_m * sn + ni * t.base_n
        blen = cur_n * csz
        params = DataCopyExtParams(
            cur_m, blen, (t.base_n - cur_n) * csz, (pitch * csz - align(blen, 32)) // 32, 0
        )
        data_copy_pad(dst[off], ws, params)
        pipe_barrier(PIPE_ALL)  # synchronous: the block is in UB when the call returns

    def iterate_all(self, gm: GlobalTensor | LocalTensor, en_atomic: int = 0) -> None:
        """``IterateAll(gm)``: the core's whole ``singleCoreM x singleCoreN`` part of C, to GM or VECIN."""
        while self.iterate():
            self.get_tensor_c(gm, en_atomic)

    def end(self) -> None:
        """``End()``: release the object's L1 slabs and any block not taken out."""
        for key in list(self._kept):
            self._drop_kept(key)
        q_co1 = self._ques.get("co1")
        while self._pending and q_co1 is not None:
            self._pending.pop(0)
            q_co1.free_tensor(q_co1.deque(self.acc))
        self._tail = (-1, -1, -1)
        self._reset()


def regist_matmul_obj(tpipe: TPipe, workspace: Any, *objs: Any) -> None:
    """``REGIST_MATMUL_OBJ(&pipe, workspace, mm, &tiling[, mm2, &tiling2 ...])`` (up to four objects;
    a tiling may be left out and given later with ``mm.init(tiling)``).

    ``workspace``: global memory (a ``GmAddr``/address) used by ``get_tensor_c`` to a VECIN
    tensor: ``block_dim x baseM x baseN x sizeof(C)`` bytes; ``None`` when C goes to GM."""
    current()
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
    for mm, tiling in pairs:
        mm.pipe, mm.workspace = tpipe, workspace
        if tiling is not None:
            mm.init(tiling)
