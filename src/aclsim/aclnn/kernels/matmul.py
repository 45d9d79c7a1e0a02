"""The cube matmul kernel behind aclnnMatmul / aclnnMm / aclnnBatchMatMul.

``matmul_kernel(plan)`` builds the kernel of a :class:`MatmulPlan` (``plan_matmul``, in
:mod:`.matmul_plan`), launched as ``k[plan.block_dim, stream](a_addr, b_addr, c_addr)``.
Each block computes the base blocks of its (batch, M, N) rectangle in the documented cube
flow:

- GM -> L1 (MTE2): ``data_copy`` with ``Nd2NzParams`` turns a ``k_l1``-deep chunk of A and
  of B from ND (strided rows, possibly transposed) into NZ, padded to whole fractals; A1/B1
  are double buffered, and A's chunk stays in L1 for every base block of its rows when it
  holds all of K;
- L1 -> L0A / L0B (MTE1): ``load_data`` one ``base_k`` step at a time, ping-pong; A goes to
  zZ (fractal rows), B to nZ; a 16 x 16 fractal is transposed on the way where the ND
  layout has K on the other side (B as stored K x N, A stored as K x M);
- ``mmad`` (M) accumulates in float32 in L0C over K (``cmatrix_init_val`` on the first step);
- ``fixpipe`` (FIX) writes the valid ``m x n`` part of L0C's NZ block as ND rows, with the
  cast to the output dtype (F322F16 / F322BF16).
"""

from __future__ import annotations

from typing import Any

import aclsim.kernel as asc
from aclsim.aclnn.kernels.matmul_plan import (
    FRACTAL,
    CubeMathType,
    MatLayout,
    MatmulPlan,
    Prep,
    plan_matmul,
)
from aclsim.errors import AclnnTilingError

__all__ = ["CubeMathType", "MatLayout", "MatmulPlan", "Prep", "matmul_kernel", "plan_matmul"]

_QUANT = {asc.float16: asc.QuantMode.F322F16, asc.bfloat16: asc.QuantMode.F322BF16,
          asc.float32: asc.QuantMode.NoQuant}


def _up(x: int, to: int = 16) -> int:
    return -(-x // to) * to


class _Cube:
    """The queues and global tensors of one block, and the plan's constants."""

    def __init__(self, plan: MatmulPlan, a: Any, b: Any, c: Any) -> None:
        self.p = p = plan
        dt = p.in_dtype
        self.isz = dt.itemsize
        self.c0 = 32 // self.isz
        self.fr = FRACTAL // self.isz  # elements per L0A/L0B fractal
        pipe = asc.TPipe()
        P = asc.TPosition
        self.q_a1, self.q_b1 = asc.TQue(P.A1, 1), asc.TQue(P.B1, 1)
        self.q_a2, self.q_b2, self.q_c = asc.TQue(P.A2, 1), asc.TQue(P.B2, 1), asc.TQue(P.CO1, 1)
        mp, np_, kp = _up(p.base_m), _up(p.base_n), _up(p.k_l1)
        pipe.init_buffer(self.q_a1, p.l1_buffers, mp * kp * self.isz)
        pipe.init_buffer(self.q_b1, p.l1_buffers, kp * np_ * self.isz)
        pipe.init_buffer(self.q_a2, p.l0_buffers, mp * p.base_k * self.isz)
        pipe.init_buffer(self.q_b2, p.l0_buffers, p.base_k * np_ * self.isz)
        pipe.init_buffer(self.q_c, p.l0c_buffers, mp * np_ * 4)
        self.ga, self.gb, self.gc = asc.GlobalTensor(dt), asc.GlobalTensor(dt), asc.GlobalTensor(p.out_dtype)
        self.ga.set_global_buffer(a)
        self.gb.set_global_buffer(b)
        self.gc.set_global_buffer(c)

    # GM -> L1 ---------------------------------------------------------------------------
    def load_a1(self, bt: int, m0: int, mt: int, k0: int, kt: int) -> Any:
        p, lay = self.p, self.p.a
        a1 = self.q_a1.alloc_tensor(p.in_dtype)
        if lay.trans:  # storage K x M: NZ of the (kt x mt) window, column groups of 16 m
            src = self.ga[bt * lay.batch_stride + k0 * lay.ld + m0]
            asc.data_copy(a1, src, asc.Nd2NzParams(1, kt, mt, 0, lay.ld, _up(kt), 1, 0))
        else:  # storage M x K: NZ of the (mt x kt) window, column groups of C0 k
            src = self.ga[bt * lay.batch_stride + m0 * lay.ld + k0]
            asc.data_copy(a1, src, asc.Nd2NzParams(1, mt, kt, 0, lay.ld, _up(mt), 1, 0))
        self.q_a1.enque(a1)
        return self.q_a1.deque(p.in_dtype)

    def load_b1(self, bt: int, n0: int, nt: int, k0: int, kt: int) -> Any:
        p, lay = self.p, self.p.b
        b1 = self.q_b1.alloc_tensor(p.in_dtype)
        if lay.trans:  # storage N x K: NZ of the (nt x kt) window: its fractals are nZ already
            src = self.gb[bt * lay.batch_stride + n0 * lay.ld + k0]
            asc.data_copy(b1, src, asc.Nd2NzParams(1, nt, kt, 0, lay.ld, _up(nt), 1, 0))
        else:  # storage K x N: NZ of the (kt x nt) window, column groups of 16 n
            src = self.gb[bt * lay.batch_stride + k0 * lay.ld + n0]
            asc.data_copy(b1, src, asc.Nd2NzParams(1, kt, nt, 0, lay.ld, _up(kt), 1, 0))
        self.q_b1.enque(b1)
        return self.q_b1.deque(p.in_dtype)

    # L1 -> L0A / L0B --------------------------------------------------------------------
    def load_a2(self, a1: Any, m1n: int, kt: int, ks: int, ksz: int) -> Any:
        """zZ in L0A: fractal row ``i`` of the step holds fractals (i, 0..k1-1), one load_data each."""
        a2 = self.q_a2.alloc_tensor(self.p.in_dtype)
        k1 = -(-ksz // self.c0)
        for i in range(m1n):
            if self.p.a.trans:  # L1 fractal (kf, i) at i * Kp/16 + kf, transposed to 16 m x 16 k
                params = asc.LoadData2DParams(i * (_up(kt) // 16) + ks // 16, k1, 1, if_transpose=True)
            else:  # L1 fractal (i, kf) at kf * M1 + i
                params = asc.LoadData2DParams((ks // self.c0) * m1n + i, k1, m1n)
            asc.load_data(a2[i * k1 * self.fr], a1, params)
        self.q_a2.enque(a2)
        return self.q_a2.deque(self.p.in_dtype)

    def load_b2(self, b1: Any, n1n: int, kt: int, ks: int, ksz: int) -> Any:
        """nZ in L0B: fractals (kf, j) row-major over the step's (k1, n1) grid."""
        b2 = self.q_b2.alloc_tensor(self.p.in_dtype)
        k1 = -(-ksz // self.c0)
        if self.p.b.trans:  # L1 fractal (j, kf) at kf * N1 + j: the step is one contiguous run
            first, total, most = (ks // self.c0) * n1n, k1 * n1n, self.p.max_repeat
            for done in range(0, total, most):
                reps = min(most, total - done)
                asc.load_data(b2[done * self.fr], b1, asc.LoadData2DParams(first + done, reps, 1))
        else:  # L1 fractal (kf, j) at j * Kp/16 + kf, each transposed to 16 n x 16 k
            for kf in range(k1):
                params = asc.LoadData2DParams(ks // 16 + kf, n1n, _up(kt) // 16, if_transpose=True)
                asc.load_data(b2[kf * n1n * self.fr], b1, params)
        self.q_b2.enque(b2)
        return self.q_b2.deque(self.p.in_dtype)

    # one base block ---------------------------------------------------------------------
    def tile(self, bt: int, mi: int, ni: int, a_res: Any) -> Any:
        """C[bt][mi, ni] over all of K; returns A's resident L1 chunk (or None)."""
        p = self.p
        m0, n0 = mi * p.base_m, ni * p.base_n
        mt, nt = min(p.base_m, p.m - m0), min(p.base_n, p.n - n0)
        m1n, n1n = -(-mt // 16), -(-nt // 16)
        c1 = self.q_c.alloc_tensor(asc.float32)
        first = True
        for k0 in range(0, p.k, p.k_l1):
            kt = min(p.k_l1, p.k - k0)
            if p.a_resident:
                a1 = a_res = a_res if a_res is not None else self.load_a1(bt, m0, mt, k0, kt)
            else:
                a1 = self.load_a1(bt, m0, mt, k0, kt)
            b1 = self.load_b1(bt, n0, nt, k0, kt)
            for ks in range(0, kt, p.base_k):
                ksz = min(p.base_k, kt - ks)
                a2 = self.load_a2(a1, m1n, kt, ks, ksz)
                b2 = self.load_b2(b1, n1n, kt, ks, ksz)
                asc.mmad(c1, a2, b2, asc.MmadParams(mt, nt, ksz, cmatrix_init_val=first))
                first = False
                self.q_a2.free_tensor(a2)
                self.q_b2.free_tensor(b2)
            if not p.a_resident:
                self.q_a1.free_tensor(a1)
            self.q_b1.free_tensor(b1)
        self.q_c.enque(c1)
        c1 = self.q_c.deque(asc.float32)
        dst = self.gc[bt * p.c_batch_stride + m0 * p.c_ld + n0]
        params = asc.FixpipeParamsV220(n_size=nt, m_size=mt, src_stride=m1n * 16, dst_stride=p.c_ld,
                                       quant_pre=_QUANT[p.out_dtype])
        asc.fixpipe(dst, c1, params)
        self.q_c.free_tensor(c1)
        return a_res


def _run(plan: MatmulPlan, a: Any, b: Any, c: Any) -> None:
    cube = _Cube(plan, a, b, c)
    batches, mtiles, ntiles = plan.core_range(asc.get_block_idx())
    for bt in batches:
        for mi in mtiles:
            a_res = None
            for ni in ntiles:
                a_res = cube.tile(bt, mi, ni, a_res)
            if a_res is not None:
                cube.q_a1.free_tensor(a_res)


def matmul_kernel(plan: MatmulPlan, **options: Any) -> asc.Kernel:
    """The kernel of ``plan``, launched as ``k[plan.block_dim, stream](a_addr, b_addr, c_addr)``
    (``options``: :class:`~aclsim.kernel.KernelOptions` fields, e.g. ``detect_races=False``).

    The addresses are those of the operands as the plan reads them (``plan.a`` / ``plan.b``:
    after the ``plan.prep`` conversions, the workspace copies) and of the output.
    """
    if plan.block_dim == 0:
        raise AclnnTilingError(f"an empty matmul (m={plan.m} k={plan.k} n={plan.n}) has no cube kernel",
                               hint="skip the launch; with k == 0 fill the output with zeros")

    def matmul_cube(a: Any, b: Any, c: Any) -> None:
        _run(plan, a, b, c)

    return asc.kernel(matmul_cube, **options)
