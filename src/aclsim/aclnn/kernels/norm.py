"""The kernels behind LayerNorm and RmsNorm over the trailing ``R`` elements of each row.

The input is viewed as ``rows x R`` (``R`` = the product of the normalised dims), rows split over
the vector cores, computed in float32.  A row that fits a UB tile is loaded once (weight and
bias once per core); a longer row is streamed in tiles: LayerNorm sweeps it three times (sum ->
mean, sum of squared deviations -> rstd, write), RmsNorm twice (sum of squares -> rstd, write).

- LayerNorm: ``mean = sum(x) / R``, ``rstd = 1 / sqrt(sum((x - mean)^2) / R + eps)``,
  ``out = (x - mean) * rstd * weight + bias`` (weight/bias optional: ones/zeros); ``mean`` and
  ``rstd`` (optional outputs, one per row) in the input dtype.
- RmsNorm: ``rstd = 1 / sqrt(sum(x^2) / R + epsilon)``, ``y = x * rstd * gamma``; ``rstd`` in
  float32.

Per-row statistics are read on the scalar pipe (after a V -> S flag) and gathered into output
tiles of up to 64 values with masked ``duplicate``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import aclsim.kernel as asc
from aclsim.aclnn.kernels.reduce_tiling import (
    FLOAT_IN,
    GROUP,
    align_elems,
    load_rows,
    move,
    put_value,
    split_evenly,
    store_rows,
    ub_budget,
)
from aclsim.arch import ChipSpec
from aclsim.errors import AclnnParamInvalidError

F32 = np.dtype(np.float32)


@dataclass(frozen=True)
class NormPlan:
    """``rms``: RmsNorm (else LayerNorm).  ``weight``/``bias``: their dtypes, None when absent;
    ``stats``: the dtype of mean/rstd; ``with_mean``/``with_rstd``: those outputs are written.
    ``tile`` float32 elements per load; ``resident``: a row fits and is loaded once."""

    rms: bool
    rows: int
    r: int
    dtype: np.dtype
    weight: np.dtype | None
    bias: np.dtype | None
    stats: np.dtype
    eps: float
    with_mean: bool
    with_rstd: bool
    block_dim: int
    tile: int
    resident: bool
    workspace_bytes: int = 0


def _float(d: Any, what: str) -> np.dtype:
    dt = np.dtype(d)
    if dt not in FLOAT_IN:
        raise AclnnParamInvalidError(f"{what} dtype {dt}: the norm kernels take float16, bfloat16, float32")
    return dt


def _plan(rms: bool, shape: Sequence[int], r_dims: int, dtype: Any, weight: Any, bias: Any, stats: Any,
          eps: float, with_mean: bool, with_rstd: bool, chip: ChipSpec) -> NormPlan:
    shape = tuple(int(s) for s in shape)
    if not 1 <= r_dims <= len(shape):
        raise AclnnParamInvalidError(f"{r_dims} normalised dims for a rank-{len(shape)} input",
                                     hint="normalise 1..rank trailing dims")
    dt = _float(dtype, "input")
    w = _float(weight, "weight") if weight is not None else None
    b = _float(bias, "bias") if bias is not None else None
    r = math.prod(shape[len(shape) - r_dims:])
    rows = math.prod(shape[:len(shape) - r_dims])
    # x (double buffered), float32 x, float32 scratch, float32 weight and bias, out (double buffered)
    isz_in = max(d.itemsize for d in (dt, w, b) if d is not None)  # the input queue also loads w, b
    per = 2 * isz_in + 4 * 4 + 2 * dt.itemsize
    fixed = 4 * GROUP * 4 + 1024
    tile = (ub_budget(chip) - fixed) // per // 64 * 64
    p = NormPlan(rms, rows, r, dt, w, b, np.dtype(stats), float(eps), with_mean, with_rstd, 1, tile,
                 align_elems(max(r, 1), 2) <= tile)
    from dataclasses import replace

    return replace(p, block_dim=max(1, min(chip.cores, rows)))


def plan_layer_norm(shape: Sequence[int], normalized_dims: int, dtype: Any, chip: ChipSpec, *,
                    weight_dtype: Any = None, bias_dtype: Any = None, eps: float = 1e-5,
                    with_mean: bool = True, with_rstd: bool = True) -> NormPlan:
    """Plan LayerNorm of a contiguous ``shape`` input over its last ``normalized_dims`` dims.

    >>> from aclsim.arch import get_chip
    >>> p = plan_layer_norm((8192, 4096), 1, "float16", get_chip("910B"), weight_dtype="float32")
    >>> p.block_dim, p.resident, p.stats
    (48, True, dtype('float16'))
    """
    return _plan(False, shape, normalized_dims, dtype, weight_dtype, bias_dtype, dtype, eps, with_mean,
                 with_rstd, chip)


def plan_rms_norm(shape: Sequence[int], gamma_dims: int, dtype: Any, gamma_dtype: Any, chip: ChipSpec, *,
                  epsilon: float = 1e-6, with_rstd: bool = True) -> NormPlan:
    """Plan RmsNorm of a contiguous ``shape`` input over its last ``gamma_dims`` dims (rstd float32)."""
    return _plan(True, shape, gamma_dims, dtype, gamma_dtype, None, F32, epsilon, False, with_rstd, chip)


class _Rows:
    """One core's buffers and steps (built inside the running kernel)."""

    def __init__(self, p: NormPlan, x: Any, w: Any, b: Any, y: Any) -> None:
        self.p, self.x, self.w, self.b = p, x, w, b
        dt, tile = p.dtype, p.tile
        self.inv_r = np.float32(1.0 / p.r) if p.r else np.float32("nan")
        isz_in = max(d.itemsize for d in (dt, p.weight, p.bias) if d is not None)
        pipe = asc.TPipe()
        self.q_in, self.q_out = asc.TQue(asc.TPosition.VECIN, 1), asc.TQue(asc.TPosition.VECOUT, 1)
        self.q_stat = asc.TQue(asc.TPosition.VECOUT, 1)
        pipe.init_buffer(self.q_in, 2, tile * isz_in)
        pipe.init_buffer(self.q_out, 2, tile * dt.itemsize)
        pipe.init_buffer(self.q_stat, 2, GROUP * 4)
        calc = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(calc, 4 * tile * 4 + 4 * GROUP * 4 + 512)
        self.wide, self.sq = calc.get(F32, tile), calc.get_with_offset(F32, tile, tile * 4)
        self.wv = calc.get_with_offset(F32, tile, 2 * tile * 4)
        self.bv = calc.get_with_offset(F32, tile, 3 * tile * 4)
        base = 4 * tile * 4
        self.mt = calc.get_with_offset(p.stats, GROUP, base)
        self.rt = calc.get_with_offset(p.stats, GROUP, base + GROUP * 4)
        self.slot = calc.get_with_offset(F32, 8, base + 2 * GROUP * 4)
        self.part = calc.get_with_offset(F32, 8, base + 2 * GROUP * 4 + 32)
        self.red = calc.get_with_offset(F32, None, base + 2 * GROUP * 4 + 64)
        self.v_s = pipe.alloc_event_id(asc.HardEvent.V_S)
        self.gy = asc.GlobalTensor(dt)
        self.gy.set_global_buffer(y.cast(dt))

    def scalar(self, t: Any) -> Any:
        asc.set_flag(asc.HardEvent.V_S, self.v_s)
        asc.wait_flag(asc.HardEvent.V_S, self.v_s)
        return t.get_value(0)

    def load(self, dst: Any, addr: Any, ldt: np.dtype, off: int, n: int) -> None:
        g = asc.GlobalTensor(ldt)
        g.set_global_buffer(addr.cast(ldt))
        t = self.q_in.alloc_tensor(ldt)
        load_rows(t, g[off], 1, n)
        self.q_in.enque(t)
        t = self.q_in.deque(ldt)
        move(dst, t, n)
        self.q_in.free_tensor(t)

    def params(self, c0: int, n: int) -> None:
        if self.p.weight is not None:
            self.load(self.wv, self.w, self.p.weight, c0, n)
        if self.p.bias is not None:
            self.load(self.bv, self.b, self.p.bias, c0, n)

    def total(self, row: int, shift: Any, square: bool) -> Any:
        """The sum over the row of x (+ shift), squared when ``square``, in ``slot``."""
        p, wide, sq = self.p, self.wide, self.sq
        for c0 in range(0, p.r, p.tile):
            n = min(p.tile, p.r - c0)
            if not p.resident:
                self.load(wide, self.x, p.dtype, row * p.r + c0, n)
            src = wide
            if shift is not None:
                asc.adds(sq, wide, shift, n)
                src = sq
            if square:
                asc.mul(sq, src, src, n)
                src = sq
            asc.reduce_sum(self.slot if c0 == 0 else self.part, src, self.red, n)
            if c0:
                asc.add(self.slot, self.slot, self.part, 1)
        return self.slot

    def rstd_of(self, sum_slot: Any) -> Any:
        asc.muls(sum_slot, sum_slot, self.inv_r, 1)
        asc.adds(sum_slot, sum_slot, self.p.eps, 1)
        asc.rsqrt(sum_slot, sum_slot, 1)
        return self.scalar(sum_slot)

    def write(self, row: int, shift: Any, rstd: Any) -> None:
        p, wide = self.p, self.wide
        for c0 in range(0, p.r, p.tile):
            n = min(p.tile, p.r - c0)
            if not p.resident:
                self.load(wide, self.x, p.dtype, row * p.r + c0, n)
                self.params(c0, n)
            if shift is not None:
                asc.adds(wide, wide, shift, n)
            asc.muls(wide, wide, rstd, n)
            if p.weight is not None:
                asc.mul(wide, wide, self.wv, n)
            if p.bias is not None:
                asc.add(wide, wide, self.bv, n)
            o = self.q_out.alloc_tensor(p.dtype)
            move(o, wide, n)
            self.q_out.enque(o)
            o = self.q_out.deque(p.dtype)
            store_rows(self.gy[row * p.r + c0], o, 1, n)
            self.q_out.free_tensor(o)

    def flush(self, tile_t: Any, addr: Any, first: int, k: int) -> None:
        st = self.p.stats
        o = self.q_stat.alloc_tensor(st)
        asc.data_copy(o, tile_t, GROUP)
        self.q_stat.enque(o)
        o = self.q_stat.deque(st)
        g = asc.GlobalTensor(st)
        g.set_global_buffer(addr.cast(st))
        store_rows(g[first], o, 1, k)
        self.q_stat.free_tensor(o)


def _norm_rows(p: NormPlan, x: Any, w: Any, b: Any, y: Any, mean_out: Any, rstd_out: Any) -> None:
    c = _Rows(p, x, w, b, y)
    r0, r1 = split_evenly(p.rows, asc.get_block_num(), asc.get_block_idx())
    if p.resident:
        c.params(0, p.r)
    first = r0
    for row in range(r0, r1):
        if p.resident:
            c.load(c.wide, x, p.dtype, row * p.r, p.r)
        mean = None
        if not p.rms:
            mean = c.scalar(c.total(row, None, False)) * c.inv_r
        shift = None if mean is None else -mean
        rstd = c.rstd_of(c.total(row, shift, True))
        c.write(row, shift, rstd)
        k = row - first
        if p.with_mean:
            put_value(c.mt, k, mean)
        if p.with_rstd:
            put_value(c.rt, k, rstd)
        if k + 1 == GROUP or row + 1 == r1:
            if p.with_mean:
                c.flush(c.mt, mean_out, first, k + 1)
            if p.with_rstd:
                c.flush(c.rt, rstd_out, first, k + 1)
            first = row + 1


@functools.lru_cache(maxsize=128)
def norm_kernel(p: NormPlan) -> asc.Kernel:
    """LayerNorm: ``k[p.block_dim, stream](x, weight, bias, out, mean, rstd)``; RmsNorm:
    ``k[p.block_dim, stream](x, gamma, y, rstd)``; absent optional operands are passed as 0."""
    if p.rms:
        def rms_norm(x: Any, gamma: Any, y: Any, rstd: Any) -> None:
            _norm_rows(p, x, gamma, None, y, None, rstd)

        return asc.kernel(rms_norm)

    def layer_norm(x: Any, weight: Any, bias: Any, out: Any, mean: Any, rstd: Any) -> None:
        _norm_rows(p, x, weight, bias, out, mean, rstd)

    return asc.kernel(layer_norm)


def launch_norm(plan: NormPlan, stream: Any, *addrs: Any) -> Any:
    """Enqueue the kernel with the operands in :func:`norm_kernel`'s order (None/0 for absent
    ones); nothing for an empty input.  Returns the launch or None."""
    if plan.rows * plan.r == 0:
        return None
    args = [int(getattr(a, "ptr", a)) if a is not None else 0 for a in addrs]
    return norm_kernel(plan)[plan.block_dim, stream](*args)
