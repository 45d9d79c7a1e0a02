"""The instructions of one Matmul object: the cube-path sequence its ``iterate`` and ``get_tensor_c`` issue.

:class:`MatmulBlocks` is the part of :class:`~aclsim.kernel.Matmul` that records instructions
(the object's state and API are in ``matmul_api.py``), with the instructions a hand-written
kernel would use, so the core model times real instructions:

- per L1 load (``stepKa``/``stepKb`` base blocks of K): ``data_copy`` GM -> L1 with
  ``Nd2NzParams`` (ND inputs) or ``DataCopyParams`` (NZ inputs) on MTE2, through the object's
  A1/B1 queues (two buffers when ``depthA1 = 2 * stepKa``: the next slab loads while the cube
  works); a slab holding all of K stays in L1 for the next block that needs it;
- per base block of K: ``load_data`` L1 -> L0A (zZ) / L0B (nZ; the 16 x 16 fractals turned
  around when B is not transposed, or A is) on MTE1, then ``mmad`` into the CO1 tensor
  (``cmatrix_init_val`` on the first step);
- bias: ``data_copy`` GM -> L1 (C1) on MTE2 and L1 -> bias table (C2) on MTE1, read by the
  block's first ``mmad`` (``Mmad(dst, fm, filter, bias, params)``: C starts from the bias);
- ``get_tensor_c``: ``fixpipe`` L0C -> GM (ND rows, fp32 -> fp16/bf16 on the way); to a VECIN
  (UB) tensor through the workspace in global memory given to ``regist_matmul_obj`` (as the
  split A2 chips do: the AIC writes, the AIV reads), bracketed by full barriers (the call is
  synchronous).

The row lengths of the stored matrices are the object's original shape (``M, N, Ka, Kb``: the
tiling's, or ``set_org_shape``'s).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from aclsim.errors import FeatureNotSupportedError
from aclsim.isa import Pipe, Space
from aclsim.kernel._core import bfloat16, current, float16, float32, int8, int32
from aclsim.kernel.copy import DataCopyExtParams, DataCopyParams, Nd2NzParams, data_copy, data_copy_pad
from aclsim.kernel.cube import (
    BT_UNIT,
    FixpipeParamsV220,
    LoadData2DParams,
    MmadParams,
    QuantMode,
    fixpipe,
    load_data,
    mmad,
)
from aclsim.kernel.kfc import await_set, notify, on_aiv
from aclsim.kernel.matmul_config import DataCopyOutParams, MatmulCallBackFunc, MatmulConfig, MatmulType
from aclsim.kernel.matmul_quant import MatmulQuant
from aclsim.kernel.multicore import get_sub_block_num
from aclsim.kernel.operands import local_operand
from aclsim.kernel.pipe import TQue
from aclsim.kernel.sync import PIPE_ALL, PIPE_M, pipe_barrier
from aclsim.kernel.tensor import GlobalTensor, LocalTensor
from aclsim.kernel.tiling import CubeFormat, TCubeTiling, align, c0_elems, ceil_div

#: C's type -> the fixpipe conversion that produces it from L0C.
C_QUANT = {
    float32: QuantMode.NoQuant,
    int32: QuantMode.NoQuant,
    float16: QuantMode.F322F16,
    bfloat16: QuantMode.F322BF16,
}


class MatmulBlocks(ABC):
    """The instruction sequences of a Matmul object (its state is set up by ``Matmul``)."""

    a_type: MatmulType
    b_type: MatmulType
    a_dt: np.dtype
    b_dt: np.dtype
    c_dt: np.dtype
    bias_dt: np.dtype | None
    acc: np.dtype
    workspace: Any
    sub_block_idx: int
    kfc: Any  # a mixed kernel's AIV object: the kfc.Client its group's AIC serves (else None)
    tiling: TCubeTiling | None
    _ques: dict[str, TQue]
    _quant: MatmulQuant
    _sizes: dict[str, tuple[int, int]]
    _ga: GlobalTensor | None
    _gb: GlobalTensor | None
    _gbias: GlobalTensor | None
    _la: LocalTensor | None  # A / B in L1 (TSCM), whole
    _lb: LocalTensor | None
    _trans_a: bool
    _trans_b: bool
    _kept: dict[str, tuple[tuple[int, int], LocalTensor]]
    _pending: list[tuple[int, int, int, int]]  # the block in L0C: (mi, ni, rows, columns)
    _held: LocalTensor | None
    #: Iterate<false>'s blocks in the workspace: (mi, ni, rows, columns, element offset, ready set)
    _async: list[tuple[int, int, int, int, int, int | None]]
    _org: tuple[int, int, int, int]
    cb: MatmulCallBackFunc
    cfg: MatmulConfig
    user_def_info: Any
    self_define_data: Any

    @abstractmethod
    def _single(self) -> tuple[int, int, int]:
        """This computation's singleCoreM/N/K (``Matmul`` holds them)."""

    @abstractmethod
    def _need_tiling(self, op: str) -> TCubeTiling:
        """The tiling, or the error saying why there is none (``Matmul`` holds it)."""

    @abstractmethod
    def iterate(self, en_partial_sum: bool = False, *, sync: bool = True) -> bool:
        """``Iterate<sync>(enPartialSum)`` (``Matmul``)."""

    def _block(self, mi: int, ni: int, cur_m: int, cur_n: int, sk: int,
               into: LocalTensor | None = None) -> LocalTensor:
        """One block of C: K in base steps, L1 slabs of stepKa/stepKb steps, mmad into CO1 (a new
        tensor, or ``into``, the block still in L0C, added to: Iterate's enPartialSum)."""
        t = self.tiling
        assert t is not None
        q_a2, q_b2, q_co1 = self._ques["a2"], self._ques["b2"], self._ques["co1"]
        c1 = q_co1.alloc_tensor(self.acc) if into is None else into
        k_iters = ceil_div(sk, t.base_k)
        bt = self._load_bias(ni, cur_n) if self._gbias is not None and into is None else None
        a1 = b1 = None
        sm, sn, _ = self._single()
        for kt in range(k_iters):
            cur_k = min(t.base_k, sk - kt * t.base_k)
            if self._la is not None:  # A whole in L1 (TSCM): no copy; the core's part is NZ there
                a1, kk_a = self._la, kt * t.base_k
                geo_a = (mi * t.base_m // 16, ceil_div(sk if self._trans_a else sm, 16))
            else:
                if kt % t.step_ka == 0:
                    a1 = self._slab("a1", (mi, kt // t.step_ka), a1, cur_m, sk, k_iters <= t.step_ka)
                kk_a, kw_a = self._in_slab(kt, t.step_ka, sk)
                geo_a = (0, ceil_div(kw_a if self._trans_a else cur_m, 16))
            if self._lb is not None:  # B whole in L1 (TSCM)
                b1, kk_b = self._lb, kt * t.base_k
                geo_b = (ni * t.base_n // 16, ceil_div(sn if self._trans_b else sk, 16))
            else:
                if kt % t.step_kb == 0:
                    b1 = self._slab("b1", (ni, kt // t.step_kb), b1, cur_n, sk, k_iters <= t.step_kb)
                kk_b, kw_b = self._in_slab(kt, t.step_kb, sk)
                geo_b = (0, ceil_div(cur_n if self._trans_b else kw_b, 16))
            assert a1 is not None and b1 is not None
            a2 = q_a2.alloc_tensor(self.a_dt)
            self._load_l0a(a2, a1, cur_m, cur_k, kk_a, geo_a)
            q_a2.enque(a2)
            b2 = q_b2.alloc_tensor(self.b_dt)
            self._load_l0b(b2, b1, cur_n, cur_k, kk_b, geo_b)
            q_b2.enque(b2)
            a2, b2 = q_a2.deque(self.a_dt), q_b2.deque(self.b_dt)
            if kt or into is not None:  # adding to L0C an mmad wrote (see the notes on PIPE_M)
                pipe_barrier(PIPE_M)
            if kt == 0 and bt is not None:  # C starts from the bias table
                mmad(c1, a2, b2, bt, MmadParams(cur_m, cur_n, cur_k))
                self._ques["bt"].free_tensor(bt)
            else:
                fresh = kt == 0 and into is None
                mmad(c1, a2, b2, MmadParams(cur_m, cur_n, cur_k, cmatrix_init_val=fresh))
            q_a2.free_tensor(a2)
            q_b2.free_tensor(b2)
        for key, slab, whole, tscm in (("a1", a1, k_iters <= t.step_ka, self._la),
                                       ("b1", b1, k_iters <= t.step_kb, self._lb)):
            if not whole and slab is not None and tscm is None:
                self._ques[key].free_tensor(slab)
        return c1  # enqueued (M -> FIX) when get_tensor_c takes it out

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
        om, on, oka, okb = self._org
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
        copy_cb = self.cb.copy_a1 if is_a else self.cb.copy_b1
        if copy_cb is not None:  # the user's copy (MatmulCallBackFunc): (row, col) of the copy block
            row, col, use_h, use_w = (blk, ks, cur, kw) if is_a else (ks, blk, kw, cur)
            copy_cb(slab.reinterpret_cast(int8), g.get_phy_addr(), row, col, use_h, use_w,
                    self.user_def_info, self.self_define_data)
            return
        c0 = c0_elems(self.a_dt)
        r0 = blk * base
        if mt.format is CubeFormat.NZ:  # already fractal in GM: one 32 B row per block, groups apart
            if is_a:  # A NZ: groups of c0 K-columns, each holding align16(M) rows
                rows, full, groups, g0 = align(cur, 16), align(om, 16), ceil_div(kw, c0), k0 // c0
                start = g0 * full * c0 + r0 * c0
            else:  # B NZ: groups of 16 N-columns, each holding align16(Kb) rows
                rows, full, groups, g0 = align(kw, 16), align(okb, 16), ceil_div(cur, 16), r0 // 16
                start = g0 * full * 16 + k0 * 16
            data_copy(slab, g[start], DataCopyParams(groups, rows, full - rows, 0))
            return
        # ND: which rows and columns of the stored matrix, and its row length
        if is_a and not trans:  # A (M x Ka)
            off, n_rows, d_cols, stride = r0 * oka + k0, cur, kw, oka
        elif is_a:  # A stored transposed (Ka x M)
            off, n_rows, d_cols, stride = k0 * om + r0, kw, cur, om
        elif not trans:  # B (Kb x N)
            off, n_rows, d_cols, stride = k0 * on + r0, kw, cur, on
        else:  # B stored transposed (N x Kb)
            off, n_rows, d_cols, stride = r0 * okb + k0, cur, kw, okb
        data_copy(slab, g[off], Nd2NzParams(1, n_rows, d_cols, 0, stride, align(n_rows, 16), 1, 0))

    def _load_l0a(self, a2: LocalTensor, a1: LocalTensor, cur_m: int, cur_k: int, kk: int,
                  geo: tuple[int, int]) -> None:
        """L1 -> L0A (zZ): one row of fractals per 16 rows of A, from K offset ``kk`` of the L1 matrix.
        ``geo`` = (the block's first fractal row in it, its group height in fractals: the 16-row
        blocks of M per group of C0 K-columns; transposed, the 16-row blocks of K per 16 M-columns)."""
        c0 = c0_elems(self.a_dt)
        m1, k1 = ceil_div(cur_m, 16), ceil_div(cur_k, c0)
        frac = 16 * c0
        r0, height = geo
        for i in range(m1):
            if self._trans_a:  # NZ of A^T: groups of 16 M-columns, each `height` x 16 rows of K
                params = LoadData2DParams((r0 + i) * height + kk // 16, k1, 1, if_transpose=True)
            else:  # NZ of A: groups of c0 K-columns, each `height` x 16 rows of M
                params = LoadData2DParams((kk // c0) * height + r0 + i, k1, height)
            load_data(a2[i * k1 * frac], a1, params)

    def _load_l0b(self, b2: LocalTensor, b1: LocalTensor, cur_n: int, cur_k: int, kk: int,
                  geo: tuple[int, int]) -> None:
        """L1 -> L0B (nZ): one row of fractals per C0 of K; ``geo`` as for A, over N."""
        c0 = c0_elems(self.b_dt)
        n1 = ceil_div(cur_n, 16)
        frac = 16 * c0
        n0, height = geo
        if self._trans_b:  # NZ of B^T: groups of c0 K-columns, each `height` x 16 rows of N: already nZ
            for kb in range(ceil_div(cur_k, c0)):
                load_data(b2[kb * n1 * frac], b1, LoadData2DParams((kk // c0 + kb) * height + n0, n1, 1))
        else:  # NZ of B: groups of 16 N-columns, each `height` x 16 rows of K: fractals turned around
            for kb in range(ceil_div(cur_k, 16)):
                params = LoadData2DParams(n0 * height + kk // 16 + kb, n1, height, if_transpose=True)
                load_data(b2[kb * n1 * frac], b1, params)

    def _load_bias(self, ni: int, cur_n: int) -> LocalTensor:
        """The block's bias: GM -> L1 (C1, MTE2), then L1 -> bias table (C2, MTE1; half -> float on
        the way), whole 16-column groups; the first mmad of the block starts C from it."""
        t = self.tiling
        assert t is not None and self._gbias is not None and self.bias_dt is not None
        q_l1, q_bt = self._ques["bias"], self._ques["bt"]
        bl1 = q_l1.alloc_tensor(self.bias_dt)
        data_copy(bl1, self._gbias[ni * t.base_n], Nd2NzParams(1, 1, cur_n, 0, cur_n, 1, 1, 0))
        q_l1.enque(bl1)
        bl1 = q_l1.deque(self.bias_dt)
        bt = q_bt.alloc_tensor(self.acc)
        data_copy(bt, bl1, DataCopyParams(1, ceil_div(cur_n, 16) * 16 * self.acc.itemsize // BT_UNIT, 0, 0))
        q_l1.free_tensor(bl1)
        q_bt.enque(bt)
        return q_bt.deque(self.acc)

    def _copy_out_cb(self, dst: GlobalTensor, off: int, row: int, c1: LocalTensor, mi: int, ni: int,
                     cur_m: int, cur_n: int) -> None:
        """DataCopyOut(gm, co1Local, &params, tilingPtr, dataPtr) with the library's parameters."""
        assert self.cb.data_copy_out is not None
        params = DataCopyOutParams(
            c_burst_num=ceil_div(cur_n, 16), burst_len=align(cur_m, 16) * 16 * self.acc.itemsize // 32,
            dst_stride=row, ori_n_size=cur_n, en_unit_flag=self.cfg.en_unit_flag, cur_m=mi, cur_n=ni,
        )
        self.cb.data_copy_out(dst[off].get_phy_addr(), c1.reinterpret_cast(int8), params,
                              self.user_def_info, self.self_define_data)

    def settle(self, file: str, line: int) -> None:
        """Wait for the free events the object's queues left pending (their waits recorded where the
        sets were: a mixed kernel's AIC turning from this client to another, kernel/kfc.py)."""
        for que in self._ques.values():
            que.drain_free_events(file, line)

    def _check_ub(self, dst: LocalTensor, sequential: bool) -> None:
        t = self._need_tiling("get_tensor_c")
        local_operand(self.kfc.aiv if self.kfc is not None else current(), dst, "get_tensor_c", "dst",
                      (Space.UB,))  # (a mixed kernel's UB is its AIV's)
        if self.workspace is None:
            raise ValueError(
                "get_tensor_c to a VECIN tensor goes through the workspace in global memory: pass "
                "one to regist_matmul_obj(pipe, workspace, ...) or set_workspace (block_dim x sub-blocks x "
                "baseM x baseN x sizeof(C) bytes)"
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
        """L0C -> workspace (FIX) -> UB (MTE2), the split chips' way from the cube to the vector core
        (in a mixed kernel the AIC's fixpipe, then the AIV's copy: kernel/kfc.py)."""
        t = self.tiling
        assert t is not None
        client = self.kfc
        ws = self._workspace()
        if client is not None:  # one slot per AIV: its block index
            slot = client.aiv.block_idx
        else:
            slot = current().block_idx * get_sub_block_num() + self.sub_block_idx
        ws = ws[slot * t.base_m * t.base_n]
        self._fix_out(ws, c1, ni, cur_m, cur_n, t.base_n)
        if client is None:
            pipe_barrier(PIPE_ALL)  # the FIX write to GM lands before MTE2 reads it back
        with on_aiv(client, Pipe.FIX):  # (a mixed kernel's AIV waits for the AIC's FIX instead)
            self._ub_copy(dst, ws, t.base_n, mi, ni, cur_m, cur_n, sequential)

    def _workspace(self) -> GlobalTensor:
        ws = GlobalTensor(self.c_dt)
        ws.set_global_buffer(self.workspace)
        return ws

    def _fix_out(self, dst: GlobalTensor, c1: LocalTensor, ni: int, cur_m: int, cur_n: int, row: int) -> None:
        """A block from L0C to GM rows of ``row`` elements, quantized as the object says (FIX)."""
        t = self.tiling
        assert t is not None
        quant = self._quant.mode("get_tensor_c", self.acc, self.c_dt, C_QUANT[self.c_dt])
        scales = self._quant.stage(ni * t.base_n, cur_n)
        fixpipe(dst, c1, *(() if scales is None else (scales,)), FixpipeParamsV220(
            n_size=cur_n, m_size=cur_m, src_stride=align(cur_m, 16), dst_stride=row, quant_pre=quant,
            deq_scalar=self._quant.scalar or 0))

    def _ub_copy(self, dst: LocalTensor, ws: GlobalTensor, ws_row: int, mi: int, ni: int, cur_m: int,
                 cur_n: int, sequential: bool) -> None:
        """A block from the workspace (rows of ``ws_row`` elements at ``ws``) into UB (MTE2): at its
        place in the core's part (rows of singleCoreN) or, ``sequential``, as a baseM x baseN block."""
        t = self.tiling
        assert t is not None
        csz = self.c_dt.itemsize
        sn = self._single()[1]
        pitch = t.base_n if sequential else sn
        off = 0 if sequential else mi * t.base_m * sn + ni * t.base_n
        blen = cur_n * csz
        params = DataCopyExtParams(cur_m, blen, (ws_row - cur_n) * csz,
                                   (pitch * csz - align(blen, 32)) // 32, 0)
        data_copy_pad(dst[off], ws, params)
        pipe_barrier(PIPE_ALL)  # synchronous: the block is in UB when the call returns

    # --- the asynchronous mode: Iterate<false>, GetTensorC<false> ------------------------------
    def _iterate_async(self) -> bool:
        """``Iterate<false>()``: every block of the part left, each through L0C into the workspace
        (``set_workspace``: singleCoreM x singleCoreN of C), one after the other in the order they are
        computed, each ``cur_m x cur_n`` elements in rows of ``cur_n``; ``GetTensorC<false>`` takes
        them out in order.  False when no block was left."""
        self._need_tiling("iterate")
        if self.workspace is None:
            raise ValueError("iterate(sync=False) caches the blocks of C in the workspace: call "
                             "set_workspace(singleCoreM x singleCoreN of C) before it")
        if self._pending:
            raise ValueError("iterate(sync=False) with a block of a synchronous iterate still in L0C")
        ws = self._workspace()
        q_co1 = self._ques["co1"]
        at = self._async[-1][4] + self._async[-1][2] * self._async[-1][3] if self._async else 0
        computed = False
        while self.iterate():
            mi, ni, cur_m, cur_n = self._pending.pop(0)
            assert self._held is not None
            q_co1.enque(self._held)  # M -> FIX
            self._held = None
            c1 = q_co1.deque(self.acc)
            self._fix_out(ws[at], c1, ni, cur_m, cur_n, cur_n)
            q_co1.free_tensor(c1)
            self._async.append((mi, ni, cur_m, cur_n, at, notify(self.kfc)))
            at += cur_m * cur_n
            computed = True
        return computed

    def _get_async(self, dst: GlobalTensor | LocalTensor, sequential: bool) -> None:
        """``GetTensorC<false>(ub)``: the next block an asynchronous ``iterate`` left in the workspace,
        copied into a VECIN tensor (in a mixed kernel once the AIC says the block is there)."""
        self._need_tiling("get_tensor_c")
        if not isinstance(dst, LocalTensor):
            raise FeatureNotSupportedError(
                "get_tensor_c(sync=False) into GM is not modelled: take the blocks into a VECIN tensor "
                "(or use the synchronous mode)")
        if dst.dtype != self.c_dt:
            raise TypeError(f"get_tensor_c: dst is {dst.dtype}, the C MatmulType says {self.c_dt}")
        if not self._async:
            raise ValueError("get_tensor_c(sync=False) with no block left: iterate(sync=False) computes "
                             "the part's blocks first")
        self._check_ub(dst, sequential)
        mi, ni, cur_m, cur_n, at, ready = self._async.pop(0)
        await_set(self.kfc, ready)  # a mixed kernel's AIV: the AIC's set after this block's FIX
        pipe_barrier(PIPE_ALL)  # the FIX writes land, and the core's earlier work, before MTE2 writes UB
        self._ub_copy(dst, self._workspace()[at], cur_n, mi, ni, cur_m, cur_n, sequential)

