"""The high-level LayerNorm API (``[B, S, H]``: output, mean, variance) and its host tiling.

``layer_norm(output, output_mean, output_variance, input_x, gamma, beta[, shared_tmp_buffer],
epsilon, tiling)`` normalises each of the ``B * S`` rows of ``H`` elements, in float32::

    mean = sum(x / H0); variance = sum((x - mean)^2 / H0)    (H0: the original H)
    output = (x - mean) * rsqrt(variance + epsilon) * gamma + beta

as the documentation's steps do on the vector unit (``muls`` by ``1/H0`` then a row sum;
``sub``, ``mul``, ``muls`` and a row sum; ``adds`` of epsilon and ``rsqrt``; ``mul`` by the
row's factor, ``mul`` by gamma, ``add`` of beta), rows in rounds of ``mean_var_round_size``
that fit the work buffer, a ``pipe_barrier(PIPE_V)`` between dependent steps.  Row sums fold
64-lane partials and finish with ``whole_reduce_sum``; a row's value reaches its elements
through a 32 B block per row (``brcb``) read with block stride 0.

Work buffer (float32), aclsim's layout described by the tiling's fields: for half inputs the
mean and variance temporaries (``mean_tmp_tensor_size`` each; float inputs reduce straight
into the outputs), a block of 8 floats and one value per row of a round (rows rounded up to
8; the value also reduced there, 32 B aligned for ``brcb``), then the three buffers of
``one_tmp_size`` floats at ``first/second/third_tmp_start_pos``.  This layout is aclsim's:
the figures of ``get_layer_norm_max_min_tmp_size`` differ from CANN's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from aclsim.isa import Space
from aclsim.kernel._core import current, float16, float32
from aclsim.kernel.conversion import RoundMode, cast
from aclsim.kernel.copy import data_copy
from aclsim.kernel.elementwise import add, adds, mul, muls, rsqrt, sub
from aclsim.kernel.gather import BrcbRepeatParams, brcb
from aclsim.kernel.operands import local_operand
from aclsim.kernel.placed import local_tensor
from aclsim.kernel.reduction import whole_reduce_sum
from aclsim.kernel.softmax_api import by_row, row_reduce
from aclsim.kernel.sync import PIPE_V, pipe_barrier
from aclsim.kernel.tensor import LocalTensor, TPosition

BLOCK, F32, LANES, MAX_ROWS = 32, 4, 64, 255


def _a8(n: int) -> int:
    return -(-n // 8) * 8


def _shape(src_shape: Sequence[int], type_size: int, what: str) -> tuple[int, int, int, int]:
    dims = [int(d) for d in src_shape]
    if len(dims) not in (3, 4) or min(dims) <= 0:
        raise ValueError(f"{what}: shape {tuple(dims)} must be [B, S, H] or [B, S, H, originalH], all > 0")
    if type_size not in (2, 4):
        raise ValueError(f"{what}: type_size {type_size}: LayerNorm takes half (2) or float (4)")
    b, s, h = dims[:3]
    h0 = dims[3] if len(dims) == 4 else h
    if (h * type_size) % BLOCK or h0 > h:
        raise ValueError(
            f"{what}: H = {h} must be a multiple of 32 B ({BLOCK // type_size} elements) and "
            f"at least the original H {h0}"
        )
    return b, s, h, h0


def _floats(rows: int, bs: int, h: int, type_size: int) -> int:
    """Work floats for rounds of ``rows`` rows of ``h``: mean/variance temporaries (half), the
    rows' blocks, three buffers."""
    mv = 2 * _a8(bs) if type_size == 2 else 0
    return mv + _a8(rows) * 9 + 3 * rows * h


def get_layer_norm_max_min_tmp_size(
    src_shape: Sequence[int], type_size: int, is_reuse_source: bool = False
) -> tuple[int, int]:
    """``GetLayerNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)``: (max, min)
    bytes of work buffer: all rows in one round, or one row per round."""
    b, s, h, _ = _shape(src_shape, type_size, "GetLayerNormMaxMinTmpSize")
    return _floats(b * s, b * s, h, type_size) * F32, _floats(1, b * s, h, type_size) * F32


@dataclass
class LayerNormTiling:
    """``LayerNormTiling`` (snake_case fields), filled by :func:`get_layer_norm_nd_tiling_info`.

    Positions and sizes count float32 elements of the work buffer; ``loop_round`` rounds of
    ``mean_var_round_size`` rows (``input_round_size`` elements) then a tail of
    ``mean_var_tail_size`` rows at row ``mean_var_tail_pos``; ``last_dim_value_back`` = 1 / H0."""

    b_length: int = 0
    s_length: int = 0
    h_length: int = 0
    original_h_length: int = 0
    input_x_size: int = 0
    mean_var_size: int = 0
    number_of_tmp_buf: int = 0
    mean_tmp_tensor_pos: int = 0
    mean_tmp_tensor_size: int = 0
    variance_tmp_tensor_pos: int = 0
    variance_tmp_tensor_size: int = 0
    tmp_buf_size: int = 0
    one_tmp_size: int = 0
    first_tmp_start_pos: int = 0
    second_tmp_start_pos: int = 0
    third_tmp_start_pos: int = 0
    loop_round: int = 0
    input_round_size: int = 0
    input_tail_size: int = 0
    input_tail_pos: int = 0
    mean_var_round_size: int = 0
    mean_var_tail_size: int = 0
    mean_var_tail_pos: int = 0
    bsh_cur_length: int = 0
    bs_cur_length: int = 0
    last_dim_value_back: float = 0.0


def get_layer_norm_nd_tiling_info(
    src_shape: Sequence[int],
    stack_buffer_size: int,
    type_size: int,
    is_reuse_source: bool,
    tiling: LayerNormTiling,
) -> None:
    """``GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, tiling)``: rounds of
    as many rows as ``stack_buffer_size`` bytes of work buffer hold (a multiple of 8 when not all,
    at most 255).  ValueError when not even one row fits (GetLayerNormMaxMinTmpSize's minimum)."""
    b, s, h, h0 = _shape(src_shape, type_size, "GetLayerNormNDTilingInfo")
    bs = b * s
    floats = int(stack_buffer_size) // F32
    if _floats(1, bs, h, type_size) > floats:
        raise ValueError(
            f"GetLayerNormNDTilingInfo: {stack_buffer_size} B of work buffer hold no row; "
            f"GetLayerNormMaxMinTmpSize asks for at least {_floats(1, bs, h, type_size) * F32} B"
        )
    rows = min(bs, MAX_ROWS)
    while rows > 1 and _floats(rows, bs, h, type_size) > floats:
        rows -= 1
    if 8 < rows < bs:
        rows = rows // 8 * 8
    mv = _a8(bs) if type_size == 2 else 0
    first = 2 * mv + _a8(rows) * 9
    tail_rows = bs % rows
    fields = dict(
        b_length=b,
        s_length=s,
        h_length=h,
        original_h_length=h0,
        input_x_size=bs * h,
        mean_var_size=bs,
        number_of_tmp_buf=3,
        mean_tmp_tensor_pos=0,
        mean_tmp_tensor_size=mv,
        variance_tmp_tensor_pos=mv,
        variance_tmp_tensor_size=mv,
        tmp_buf_size=floats,
        one_tmp_size=rows * h,
        first_tmp_start_pos=first,
        second_tmp_start_pos=first + rows * h,
        third_tmp_start_pos=first + 2 * rows * h,
        loop_round=bs // rows,
        input_round_size=rows * h,
        input_tail_size=tail_rows * h,
        input_tail_pos=(bs - tail_rows) * h,
        mean_var_round_size=rows,
        mean_var_tail_size=tail_rows,
        mean_var_tail_pos=bs - tail_rows,
        bsh_cur_length=rows * h,
        bs_cur_length=rows,
        last_dim_value_back=1.0 / h0,
    )
    for name, value in fields.items():
        setattr(tiling, name, value)


def layer_norm(
    output: LocalTensor,
    output_mean: LocalTensor,
    output_variance: LocalTensor,
    input_x: LocalTensor,
    gamma: LocalTensor,
    beta: LocalTensor,
    *args: Any,
    is_reuse_source: bool = False,
) -> None:
    """``LayerNorm(output, outputMean, outputVariance, inputX, gamma, beta[, sharedTmpBuffer], epsilon,
    tiling)`` for ``[B, S, H]`` data of half or float (all operands of one type); without a
    ``shared_tmp_buffer`` the UB above the TPipe's buffers is the work buffer."""
    if len(args) == 3 and isinstance(args[0], LocalTensor):
        tmp, epsilon, tiling = args
    elif len(args) == 2:
        tmp, (epsilon, tiling) = None, args
    else:
        raise TypeError(
            "layer_norm(output, mean, variance, x, gamma, beta, [shared_tmp_buffer,] epsilon, tiling)"
        )
    if not isinstance(tiling, LayerNormTiling):
        raise TypeError(f"layer_norm needs a LayerNormTiling, got {type(tiling).__name__}")
    _LayerNorm(output, output_mean, output_variance, input_x, gamma, beta, tmp, float(epsilon), tiling).run()


class _LayerNorm:
    def __init__(
        self,
        out: LocalTensor,
        mean: LocalTensor,
        var: LocalTensor,
        x: LocalTensor,
        gamma: LocalTensor,
        beta: LocalTensor,
        tmp: LocalTensor | None,
        eps: float,
        t: LayerNormTiling,
    ) -> None:
        core = current()
        ops = {
            "output": out,
            "output_mean": mean,
            "output_variance": var,
            "input_x": x,
            "gamma": gamma,
            "beta": beta,
        }
        for what, op in ops.items():
            local_operand(core, op, "layer_norm", what)
            if op.dtype != x.dtype or x.dtype not in (float16, float32):
                raise TypeError(f"layer_norm: {what} is {op.dtype}; all operands must be half or all float")
        if t.h_length <= 0 or t.mean_var_round_size <= 0:
            raise ValueError("layer_norm: the tiling is empty: fill it with get_layer_norm_nd_tiling_info")
        self.h, self.bs, self.rows = t.h_length, t.mean_var_size, t.mean_var_round_size
        if (self.h * x.dtype.itemsize) % BLOCK or self.rows > MAX_ROWS:
            raise ValueError(
                f"layer_norm: H = {self.h} must be whole 32 B blocks and a round at most "
                f"{MAX_ROWS} rows (got {self.rows})"
            )
        sizes = {
            "input_x": self.bs * self.h,
            "output": self.bs * self.h,
            "output_mean": self.bs,
            "output_variance": self.bs,
            "gamma": self.h,
            "beta": self.h,
        }
        for what, n in sizes.items():
            if ops[what].size < n:
                raise ValueError(
                    f"layer_norm: {what} holds {ops[what].size} elements, the tiling's shape "
                    f"[{t.b_length}, {t.s_length}, {self.h}] needs {n}"
                )
        need = t.third_tmp_start_pos + t.one_tmp_size
        if tmp is None:
            tmp = self._framework_buffer(need)
        if tmp.size * tmp.dtype.itemsize < need * F32:
            raise ValueError(
                f"layer_norm: the work buffer holds {tmp.size * tmp.dtype.itemsize} B, the tiling "
                f"lays out {need * F32} B (get_layer_norm_nd_tiling_info with its size)"
            )
        w = tmp.reinterpret_cast(float32)
        self.w, self.t, self.eps = w, t, eps
        self.out, self.mean, self.var, self.x, self.gamma, self.beta = out, mean, var, x, gamma, beta
        half = x.dtype == float16
        self.mean_t = w[t.mean_tmp_tensor_pos :] if half else mean
        self.var_t = w[t.variance_tmp_tensor_pos :] if half else var
        self.bc = w[t.first_tmp_start_pos - _a8(self.rows) * 9 :]
        self.vals = w[t.first_tmp_start_pos - _a8(self.rows) :]
        self.t1, self.t2, self.t3 = (
            w[t.first_tmp_start_pos :],
            w[t.second_tmp_start_pos :],
            w[t.third_tmp_start_pos :],
        )

    @staticmethod
    def _framework_buffer(floats: int) -> LocalTensor:
        core = current()
        start = -(-(core.pipe.used[Space.UB] if core.pipe is not None else 0) // BLOCK) * BLOCK
        if start + floats * F32 > core.chip.ub_usable_bytes:
            raise ValueError(
                f"layer_norm: {floats * F32} B of work buffer do not fit in the UB left above the "
                f"TPipe's buffers ({core.chip.ub_usable_bytes - start} B): pass a shared_tmp_buffer"
            )
        return local_tensor(float32, TPosition.VECCALC, start, floats)

    def _to_f32(self, dst: LocalTensor, src: LocalTensor, n: int) -> None:
        if src.dtype == float16:
            cast(dst, src, RoundMode.CAST_NONE, n)
        else:
            data_copy(dst, src, n)

    def run(self) -> None:
        r0 = 0
        while r0 < self.bs:
            rows = min(self.rows, self.bs - r0)
            self._round(r0, rows)
            r0 += rows
        if self.x.dtype == float16:  # the float temporaries out as half
            cast(self.mean, self.mean_t, RoundMode.CAST_NONE, self.bs)
            cast(self.var, self.var_t, RoundMode.CAST_NONE, self.bs)
            pipe_barrier(PIPE_V)

    def _broadcast(self, vals: LocalTensor, rows: int) -> None:
        brcb(self.bc, vals, -(-rows // 8), BrcbRepeatParams(1, 8))
        pipe_barrier(PIPE_V)

    def _round(self, r0: int, rows: int) -> None:
        h, n, inv = self.h, rows * self.h, self.t.last_dim_value_back
        t1, t2, t3 = self.t1, self.t2, self.t3
        self._to_f32(t1, self.x[r0 * h :], n)  # x
        pipe_barrier(PIPE_V)
        muls(t2, t1, inv, n)  # x / H0
        pipe_barrier(PIPE_V)
        row_reduce(t2, t3, self.vals, rows, h, add, whole_reduce_sum, self.mean_t[r0:])  # mean
        self._broadcast(self.vals, rows)
        by_row(sub, t1, self.bc, rows, h, 1)  # x - mean, in t1
        mul(t2, t1, t1, n)
        pipe_barrier(PIPE_V)
        muls(t2, t2, inv, n)  # (x - mean)^2 / H0
        pipe_barrier(PIPE_V)
        row_reduce(t2, t3, self.vals, rows, h, add, whole_reduce_sum, self.var_t[r0:])  # variance
        self._broadcast(self.vals, rows)
        adds(self.bc, self.bc, self.eps, _a8(rows) * 8)
        pipe_barrier(PIPE_V)
        rsqrt(self.bc, self.bc, _a8(rows) * 8)
        pipe_barrier(PIPE_V)
        by_row(mul, t1, self.bc, rows, h, 1)  # (x - mean) * rstd
        self._to_f32(t2, self.gamma, h)
        self._to_f32(t3, self.beta, h)
        pipe_barrier(PIPE_V)
        by_row(mul, t1, t2, rows, h, 0, 1)  # * gamma (one vector for every row)
        by_row(add, t1, t3, rows, h, 0, 1)  # + beta
        out = self.out[r0 * h :]
        if out.dtype == float16:
            cast(out, t1, RoundMode.CAST_NONE, n)
        else:
            data_copy(out, t1, n)
        pipe_barrier(PIPE_V)
