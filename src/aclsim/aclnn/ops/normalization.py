"""The normalisation ops: LayerNorm, LayerNormWithImplMode and RmsNorm (reference 6.6, ops-nn's
``aclnnLayerNorm.md`` / ``aclnnRmsNorm.md``), on the kernels of ``aclnn/kernels/norm.py``.

Strided inputs are copied contiguous into the workspace first, strided outputs get their result
through the workspace and a ViewCopy (the helpers of ``reduction.py``).  The kernels compute in
float32 whatever ``implMode`` says (the device's high-performance and keep-float16 modes are
less precise; aclsim keeps the high-precision result for all three).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from aclsim.aclnn.checks import check_dtype, check_rank, check_shape, operands, overlaps, require
from aclsim.aclnn.dtypes import DataType
from aclsim.aclnn.executor import Executor, OpBuilder, Ref, register_op, run
from aclsim.aclnn.kernels.norm import norm_kernel, plan_layer_norm, plan_rms_norm
from aclsim.aclnn.meta import MAX_RANK, AclTensor
from aclsim.aclnn.ops.reduction import (
    FLOAT3,
    NAN_BYTE,
    check_out_view,
    deliver,
    fill_out,
    int_values,
    must_stage,
    reduced_shape,
    result_buffer,
    stage_input,
)
from aclsim.errors import AclnnParamInvalidError, AclnnTilingError

D = DataType
IMPL_MODES = {0: "high precision", 1: "high performance", 2: "keep float16"}

__all__ = [
    "layer_norm",
    "layer_norm_get_workspace_size",
    "layer_norm_with_impl_mode",
    "layer_norm_with_impl_mode_get_workspace_size",
    "rms_norm",
    "rms_norm_get_workspace_size",
]


def _number(op: str, name: str, v: Any, err: type[AclnnParamInvalidError] | type[AclnnTilingError]) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise err(f"{op}: {name} must be a number, got {v!r}")
    return float(v)


Where = list[tuple[Any, Ref | None, bool]]


def _outputs(b: OpBuilder, outs: Sequence[tuple[AclTensor | None, np.dtype]]) -> Where:
    """Each output's ref and where the kernel writes it: ``(kernel arg, out ref, written in place)``;
    an absent output is the kernel argument 0."""
    got: Where = []
    for t, dt in outs:
        if t is None:
            got.append((0, None, True))
            continue
        ref = b.output(t)
        dst, done = result_buffer(b, ref, t, dt)
        got.append((dst, ref, done))
    return got


def _written(outs: Sequence[tuple[AclTensor | None, np.dtype]], where: Where) -> list[AclTensor | None]:
    """The outputs the kernel writes in place (the others get their result by a later copy,
    after the kernel has read every input)."""
    return [t for (t, _), (_, _, done) in zip(outs, where, strict=True) if t is not None and done]


def _sources(b: OpBuilder, x: tuple[Ref, AclTensor], others: Sequence[tuple[Ref, AclTensor | None]],
             written: list[AclTensor | None], inplace: AclTensor) -> list[Any]:
    """The kernel's input arguments: each input contiguous (staged when strided), and staged too
    when its memory meets an output the kernel writes (:func:`must_stage`).  ``x`` may be
    ``inplace`` element for element: the norm kernels load each row (each tile of a streamed
    row, in the last sweep) before they store the same elements, and never read it again."""
    src: list[Any] = [stage_input(b, x[0], x[1], copy=must_stage(x[1], written, inplace=inplace))]
    for ref, t in others:
        src.append(0 if t is None else stage_input(b, ref, t, copy=must_stage(t, written)))
    return src


def _finish_outputs(b: OpBuilder, outs: Sequence[tuple[AclTensor | None, np.dtype]],
                    where: Where) -> tuple[int, Executor]:
    for (t, dt), (dst, ref, done) in zip(outs, where, strict=True):
        if t is not None and ref is not None and not done:
            deliver(b, dst, dt, ref, t)
    return b.finish()


def check_outputs_apart(op: str, named: Sequence[tuple[str, AclTensor | None]],
                        err: type[AclnnParamInvalidError] | type[AclnnTilingError]) -> None:
    """``err`` naming two outputs whose memory meets (from the addresses known at phase one): the
    kernel writes both, and which value lands in the shared bytes is undefined on the device
    (aclsim refuses it, as it refuses an output with stride 0)."""
    for i, (na, a) in enumerate(named):
        for nb, t in named[i + 1:]:
            if a is not None and t is not None and overlaps(a, t):
                raise err(f"{op}: the outputs {na} and {nb} overlap in memory: which value lands in the "
                          "shared bytes is undefined on the device; aclsim refuses it",
                          hint=f"give {na} and {nb} separate memory")


# --- LayerNorm ----------------------------------------------------------------------------------


def _layer_norm_checks(op: str, x: AclTensor, norm: tuple[int, ...], w: AclTensor | None,
                       bias: AclTensor | None, out: AclTensor, mean: AclTensor | None,
                       rstd: AclTensor | None) -> None:
    check_rank(op, "input", x, 1, MAX_RANK)
    check_dtype(op, "input", x.data_type, FLOAT3)
    if not norm or len(norm) > x.rank:
        raise AclnnParamInvalidError(f"{op}: normalizedShape {list(norm)} must hold 1..{x.rank} dims "
                                     f"(input has rank {x.rank})")
    if tuple(x.view_dims[x.rank - len(norm):]) != norm:
        raise AclnnParamInvalidError(f"{op}: normalizedShape {list(norm)} is not the trailing dims of input "
                                     f"{list(x.view_dims)}", hint="pass input's last dims")
    for name, t in (("weightOptional", w), ("biasOptional", bias)):
        if t is not None:
            check_dtype(op, name, t.data_type, (x.data_type, D.ACL_FLOAT), " (input's dtype or FLOAT)")
            check_shape(op, name, t, norm, "normalizedShape")
    if w is not None and bias is not None and w.data_type != bias.data_type:
        raise AclnnParamInvalidError(f"{op}: weightOptional is {w.data_type.name}, biasOptional "
                                     f"{bias.data_type.name}", hint="give both the same dtype")
    check_dtype(op, "out", out.data_type, (x.data_type,), " (must be input's dtype)")
    check_shape(op, "out", out, tuple(x.view_dims), "the shape of input")
    check_out_view(op, "out", out)
    stat_shape = reduced_shape(x.view_dims, tuple(range(x.rank - len(norm), x.rank)), True)
    for name, t in (("meanOutOptional", mean), ("rstdOutOptional", rstd)):
        if t is not None:
            check_dtype(op, name, t.data_type, (x.data_type,), " (must be input's dtype)")
            check_shape(op, name, t, stat_shape, "input's shape with the normalised dims 1")
            check_out_view(op, name, t)
    check_outputs_apart(op, (("out", out), ("meanOutOptional", mean), ("rstdOutOptional", rstd)),
                        AclnnParamInvalidError)


def _layer_norm(op: str, x: Any, normalized_shape: Any, weight: Any, bias: Any, eps: Any, out: Any,
                mean_out: Any, rstd_out: Any, impl_mode: int | None = None) -> tuple[int, Executor]:
    x, weight, bias, out, mean_out, rstd_out = operands(x, weight, bias, out, mean_out, rstd_out)
    for name, value in (("input", x), ("normalizedShape", normalized_shape), ("out", out)):
        if value is None:
            require(op, (name, value))
    require(op, ("input", x), ("out", out))
    for name, t in (("weightOptional", weight), ("biasOptional", bias), ("meanOutOptional", mean_out),
                    ("rstdOutOptional", rstd_out)):
        if t is not None:
            require(op, (name, t))
    norm = int_values(op, "normalizedShape", normalized_shape)
    _layer_norm_checks(op, x, norm, weight, bias, out, mean_out, rstd_out)
    eps_v = _number(op, "eps", eps, AclnnParamInvalidError)
    if impl_mode is not None:
        if isinstance(impl_mode, bool) or impl_mode not in IMPL_MODES:
            raise AclnnParamInvalidError(f"{op}: implMode {impl_mode!r} is not one of {sorted(IMPL_MODES)}",
                                         hint="0 high precision, 1 high performance, 2 keep float16")
        if impl_mode == 2:
            for name, t in (("input", x), ("weightOptional", weight), ("biasOptional", bias)):
                if t is not None:
                    check_dtype(op, name, t.data_type, (D.ACL_FLOAT16,), " (implMode 2 keeps float16)")
    b = OpBuilder(op)
    x_ref = b.input(x)
    w_ref, b_ref = b.input(weight), b.input(bias)
    outs = [(out, out.dtype), (mean_out, x.dtype), (rstd_out, x.dtype)]
    where = _outputs(b, outs)
    rows = math.prod(x.view_dims[: x.rank - len(norm)])
    if x.numel == 0:
        for t, (_, ref, _) in zip((mean_out, rstd_out), where[1:], strict=True):
            if t is not None and ref is not None and rows:  # statistics of empty rows: 0 / 0
                fill_out(b, ref, t, NAN_BYTE)
        return b.finish()
    plan = plan_layer_norm(x.view_dims, len(norm), x.dtype, b.chip,
                           weight_dtype=None if weight is None else weight.dtype,
                           bias_dtype=None if bias is None else bias.dtype, eps=eps_v,
                           with_mean=mean_out is not None, with_rstd=rstd_out is not None)
    srcs = _sources(b, (x_ref, x), [(w_ref, weight), (b_ref, bias)], _written(outs, where), out)
    b.launch(norm_kernel(plan), plan.block_dim, *srcs, *(w for w, _, _ in where))
    return _finish_outputs(b, outs, where)


def layer_norm_get_workspace_size(
    input: AclTensor, normalized_shape: Any, weight: AclTensor | None, bias: AclTensor | None,  # noqa: A002
    eps: float, out: AclTensor, mean_out: AclTensor | None, rstd_out: AclTensor | None,
) -> tuple[int, Executor]:
    """``aclnnLayerNormGetWorkspaceSize(input, normalizedShape, weightOptional, biasOptional, eps,
    out, meanOutOptional, rstdOutOptional)``: out = (x - mean) * rstd * weight + bias over the
    trailing ``normalizedShape`` dims, rstd = 1 / sqrt(var + eps) (biased variance); mean/rstd in
    input's dtype with the normalised dims 1."""
    return _layer_norm("LayerNorm", input, normalized_shape, weight, bias, eps, out, mean_out, rstd_out)


def layer_norm_with_impl_mode_get_workspace_size(
    input: AclTensor, normalized_shape: Any, weight: AclTensor | None, bias: AclTensor | None,  # noqa: A002
    eps: float, out: AclTensor, mean_out: AclTensor | None, rstd_out: AclTensor | None, impl_mode: int,
) -> tuple[int, Executor]:
    """``aclnnLayerNormWithImplModeGetWorkspaceSize``: LayerNorm with ``implMode`` 0 (high precision),
    1 (high performance) or 2 (keep float16: every tensor float16); aclsim computes all three in
    float32."""
    return _layer_norm("LayerNormWithImplMode", input, normalized_shape, weight, bias, eps, out, mean_out,
                       rstd_out, int(impl_mode) if isinstance(impl_mode, (int, np.integer)) else impl_mode)


# --- RmsNorm ------------------------------------------------------------------------------------


def _rms_checks(op: str, x: AclTensor, gamma: AclTensor, y: AclTensor, rstd: AclTensor) -> None:
    """dtype violations 161002, every other argument violation 561002 (ops-nn's aclnnRmsNorm.md)."""
    for name, t in (("x", x), ("gamma", gamma), ("yOut", y)):
        check_dtype(op, name, t.data_type, FLOAT3)
    check_dtype(op, "rstdOut", rstd.data_type, (D.ACL_FLOAT,))
    if y.data_type != x.data_type:
        raise AclnnParamInvalidError(f"{op}: yOut is {y.data_type.name}, x {x.data_type.name}",
                                     hint="give yOut x's dtype")
    if gamma.data_type not in (x.data_type, D.ACL_FLOAT):
        raise AclnnParamInvalidError(f"{op}: gamma is {gamma.data_type.name} with x {x.data_type.name}",
                                     hint="gamma takes x's dtype or FLOAT")

    def bad(what: str) -> AclnnTilingError:
        return AclnnTilingError(f"{op}: {what}", hint="see aclnnRmsNorm's parameter rules")

    if not 1 <= x.rank <= MAX_RANK or not 1 <= gamma.rank <= x.rank:
        raise bad(f"x has rank {x.rank} and gamma rank {gamma.rank}: 1 <= rank(gamma) <= rank(x) <= 8")
    if gamma.numel == 0:
        raise bad(f"gamma {list(gamma.view_dims)} is empty")
    if tuple(gamma.view_dims) != tuple(x.view_dims[x.rank - gamma.rank:]):
        raise bad(f"gamma {list(gamma.view_dims)} is not the trailing dims of x {list(x.view_dims)}")
    if tuple(y.view_dims) != tuple(x.view_dims):
        raise bad(f"yOut has shape {list(y.view_dims)}, x {list(x.view_dims)}")
    want = reduced_shape(x.view_dims, tuple(range(x.rank - gamma.rank, x.rank)), True)
    if tuple(rstd.view_dims) != want:
        raise bad(f"rstdOut has shape {list(rstd.view_dims)}, expected {list(want)} (x with gamma's dims 1)")
    for name, t in (("yOut", y), ("rstdOut", rstd)):
        if any(s == 0 for d, s in zip(t.view_dims, t.strides, strict=True) if d > 1):
            raise bad(f"{name} has stride 0 on a dim of size > 1 (its elements overlap)")
    check_outputs_apart(op, (("yOut", y), ("rstdOut", rstd)), AclnnTilingError)


def rms_norm_get_workspace_size(x: AclTensor, gamma: AclTensor, epsilon: float, y_out: AclTensor,
                                rstd_out: AclTensor) -> tuple[int, Executor]:
    """``aclnnRmsNormGetWorkspaceSize(x, gamma, epsilon, yOut, rstdOut)``: rstd = 1 / sqrt(mean(x^2)
    + epsilon) over gamma's trailing dims, yOut = x * rstd * gamma; rstdOut float32."""
    op = "RmsNorm"
    x, gamma, y_out, rstd_out = operands(x, gamma, y_out, rstd_out)
    require(op, ("x", x), ("gamma", gamma), ("yOut", y_out), ("rstdOut", rstd_out))
    _rms_checks(op, x, gamma, y_out, rstd_out)
    eps = _number(op, "epsilon", epsilon, AclnnTilingError)
    b = OpBuilder(op)
    x_ref, g_ref = b.input(x), b.input(gamma)
    outs = [(y_out, y_out.dtype), (rstd_out, np.dtype(np.float32))]
    where = _outputs(b, outs)
    if x.numel == 0:
        return b.finish()
    plan = plan_rms_norm(x.view_dims, gamma.rank, x.dtype, gamma.dtype, b.chip, epsilon=eps)
    srcs = _sources(b, (x_ref, x), [(g_ref, gamma)], _written(outs, where), y_out)
    b.launch(norm_kernel(plan), plan.block_dim, *srcs, *(w for w, _, _ in where))
    return _finish_outputs(b, outs, where)


layer_norm = layer_norm_with_impl_mode = rms_norm = run
register_op("LayerNorm", layer_norm_get_workspace_size)
register_op("LayerNormWithImplMode", layer_norm_with_impl_mode_get_workspace_size)
register_op("RmsNorm", rms_norm_get_workspace_size)
