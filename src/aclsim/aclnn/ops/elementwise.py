"""The elementwise ops: each is a few lines over :func:`elementwise_op` (the shared template of
``aclnn/kernels/elementwise.py``).  Validation follows reference sections 5 and 6.1-6.3.

Compute dtypes (what the vector unit computes in): bfloat16 always goes through float32 (cast
up, compute, cast back, as the real kernels do: the A2 vector unit has no bf16 arithmetic);
float16 arithmetic (add, sub, mul, div, abs, neg, relu) is native, float16 transcendentals
(exp, log, sqrt, rsqrt, gelu, sigmoid, silu) go through float32; int8/uint8 arithmetic goes
through int16 (the result wraps as the narrow type's would); integer inputs of the float
functions and of Div are computed in float32; a bool result is a compare against 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import aclsim.kernel as asc
from aclsim.aclnn.checks import (
    broadcast_shapes,
    broadcast_strides,
    check_castable,
    check_dtype,
    check_rank,
    check_shape,
    operands,
    require,
)
from aclsim.aclnn.dtypes import DataType, is_floating, numpy_dtype, promote_scalar_a2, promote_types
from aclsim.aclnn.executor import Executor, OpBuilder, Ref, register_op, run
from aclsim.aclnn.kernels.elementwise import Body, elementwise_kernel, plan_elementwise
from aclsim.aclnn.kernels.movement import contiguous_strides, plan_view_copy, view_copy_kernel
from aclsim.aclnn.meta import AclScalar, AclTensor
from aclsim.errors import AclnnParamInvalidError
from aclsim.kernel import KernelLaunch

D = DataType
#: the dtypes aclsim's elementwise kernels hold (the vector unit has no f64, s64 or complex)
KERNEL_DTYPES = (
    D.ACL_FLOAT,
    D.ACL_FLOAT16,
    D.ACL_BF16,
    D.ACL_INT32,
    D.ACL_INT16,
    D.ACL_INT8,
    D.ACL_UINT8,
    D.ACL_BOOL,
)
FLOAT3 = (D.ACL_FLOAT, D.ACL_FLOAT16, D.ACL_BF16)
ALL12 = (*KERNEL_DTYPES, D.ACL_DOUBLE, D.ACL_INT64, D.ACL_COMPLEX64, D.ACL_COMPLEX128)
_NOT_MODELLED = " (documented for the device; aclsim's vector kernels do not model f64, s64 or complex)"
F32 = np.dtype(np.float32)


def _supported(op: str, name: str, dt: DataType, documented: Sequence[DataType]) -> None:
    check_dtype(op, name, dt, documented)
    if dt not in KERNEL_DTYPES:
        raise AclnnParamInvalidError(
            f"{op}: {name} has dtype {dt.name}{_NOT_MODELLED}",
            hint=f"use one of {', '.join(d.name for d in KERNEL_DTYPES)}",
        )


def compute_dtype(
    result: DataType, out: DataType, *, transcendental: bool = False, int_ok: bool = True
) -> np.dtype:
    """The dtype the kernel computes ``result`` in (see the module docstring)."""
    if out == D.ACL_BOOL or result == D.ACL_BOOL or result == D.ACL_BF16:
        return F32
    if result == D.ACL_FLOAT16:
        return F32 if transcendental else np.dtype(np.float16)
    if result == D.ACL_FLOAT:
        return F32
    if not int_ok:
        return F32
    return np.dtype(np.int32) if result == D.ACL_INT32 else np.dtype(np.int16)


def _inner_stride(dims: Sequence[int], strides: Sequence[int]) -> int:
    """The stride of the innermost dim of size > 1 (1 for a single element)."""
    for d, st in zip(reversed(dims), reversed(strides), strict=True):
        if d > 1:
            return int(st)
    return 1


def _stage(b: OpBuilder, src: Ref, t: AclTensor) -> Ref:
    """A contiguous copy of ``t``'s view in the workspace, planned as one view_copy launch."""
    tmp = b.workspace(t.numel * t.itemsize)
    plan = plan_view_copy(t.view_dims, t.dtype, t.strides, 0, contiguous_strides(t.view_dims), 0, b.chip)
    b.launch(view_copy_kernel(plan), plan.block_dim, src, tmp)
    return tmp


def elementwise_op(
    op: str,
    inputs: Sequence[tuple[str, AclTensor]],
    out: AclTensor,
    compute: np.dtype,
    body: Body,
    *,
    temps: int = 0,
) -> tuple[int, Executor]:
    """Plan one launch of the template: ``out = body(inputs)`` with broadcasting and views.

    The caller has validated dtypes and shapes; ``out``'s shape is the broadcast shape.  Views
    whose innermost stride is 0 or 1 are read (written) in place; other views are staged
    through the workspace with the view_copy kernel (a contiguous copy of an input before, a
    ViewCopy into ``out`` after).
    """
    shape = tuple(out.view_dims)
    if any(s == 0 for d, s in zip(out.view_dims, out.strides, strict=True) if d > 1):
        raise AclnnParamInvalidError(f"{op}: out has stride 0 on a dim of size > 1 (its elements overlap)")
    b = OpBuilder(op)
    refs = [b.input(t) for _, t in inputs]
    out_ref = b.output(out)
    if out.numel == 0:
        return b.finish()
    operands: list[tuple[np.dtype, tuple[int, ...]]] = []
    for i, (_, t) in enumerate(inputs):
        st = broadcast_strides(t, shape)
        if _inner_stride(shape, st) not in (0, 1):
            refs[i] = _stage(b, refs[i], t)
            st = broadcast_strides(t, shape, contiguous_strides(t.view_dims))
        operands.append((t.dtype, st))
    staged_out = _inner_stride(shape, out.strides) != 1
    dst = b.workspace(out.numel * out.itemsize) if staged_out else out_ref
    out_strides = contiguous_strides(shape) if staged_out else broadcast_strides(out, shape)
    plan = plan_elementwise(shape, operands, (out.dtype, out_strides), compute, b.chip, temps=temps)
    b.launch(elementwise_kernel(plan, body, op.lower()), plan.block_dim, *refs, dst)
    if staged_out:
        copy = plan_view_copy(shape, out.dtype, contiguous_strides(shape), 0, out.strides, 0, b.chip)
        b.launch(view_copy_kernel(copy), copy.block_dim, dst, out_ref)
    return b.finish()


def _scalar_value(s: AclScalar, dt: np.dtype) -> Any:
    with np.errstate(all="ignore"):
        return np.asarray(s.value).astype(dt)[()]


PhaseOne = Callable[..., tuple[int, Executor]]
PhaseTwo = Callable[[Any, int, "Executor | None", Any], list[KernelLaunch]]
Pair = tuple[PhaseOne, PhaseTwo]


def _export(py: str, aclnn: str, phase_one: PhaseOne) -> Pair:
    """Name ``<py>_get_workspace_size`` and its phase two ``<py>``, register the op ``aclnn``."""
    phase_one.__name__ = phase_one.__qualname__ = f"{py}_get_workspace_size"

    def phase_two(
        workspace: Any, workspace_size: int, executor: Executor | None, stream: Any
    ) -> list[KernelLaunch]:
        return run(workspace, workspace_size, executor, stream)

    phase_two.__name__ = phase_two.__qualname__ = py
    phase_two.__doc__ = f"``aclnn{aclnn}(workspace, workspace_size, executor, stream)``: phase two (enqueue)."
    register_op(aclnn, phase_one)
    return phase_one, phase_two


# --- binary: tensor op tensor ------------------------------------------------------------------


def _binary(
    op: str,
    self: AclTensor | None,
    other: AclTensor | None,
    out: AclTensor | None,
    make: Callable[[np.dtype, float | None], tuple[Body, int]],
    *,
    alpha: AclScalar | None = None,
    has_alpha: bool = False,
    true_div: bool = False,
    inplace: bool = False,
) -> tuple[int, Executor]:
    self, other, out, alpha = operands(self, other, out, alpha)
    names = ("selfRef" if inplace else "self", "other")
    pairs = [(names[0], self), (names[1], other)]
    if has_alpha:
        pairs.append(("alpha", alpha))
    if not inplace:
        pairs.append(("out", out))
    require(op, *pairs)
    assert self is not None and other is not None and out is not None
    for name, t in ((names[0], self), (names[1], other), ("out", out)):
        _supported(op, name, t.data_type, ALL12)
    promoted = promote_types(self.data_type, other.data_type)
    if promoted is None:
        raise AclnnParamInvalidError(
            f"{op}: {names[0]} {self.data_type.name} and other {other.data_type.name} "
            "cannot be promoted to a common dtype",
            hint="cast one of them first",
        )
    result = D.ACL_FLOAT if true_div and not is_floating(promoted) else promoted
    check_castable(op, result, names[0] if inplace else "out", out.data_type)
    shape = broadcast_shapes((names[0], self), ("other", other))
    check_shape(op, names[0] if inplace else "out", out, shape, "the broadcast shape of self and other")
    a = None
    if has_alpha:
        assert alpha is not None
        if promoted == D.ACL_BOOL and is_floating(alpha.data_type):
            raise AclnnParamInvalidError(
                f"{op}: alpha {alpha.data_type.name} cannot be cast to the bool result",
                hint="use an integral or bool alpha",
            )
        a = float(alpha.value) if alpha.value != 1 else None
    cdt = compute_dtype(result, out.data_type, int_ok=not true_div)
    body, temps = make(cdt, a)
    return elementwise_op(op, [(names[0], self), ("other", other)], out, cdt, body, temps=temps)


def _axpy(instr: Callable[..., None]) -> Callable[[np.dtype, float | None], tuple[Body, int]]:
    def make(cdt: np.dtype, alpha: float | None) -> tuple[Body, int]:
        if alpha is None:
            return (lambda d, s, t, n: instr(d, s[0], s[1], n)), 0

        def body(d: Any, s: Sequence[Any], t: Sequence[Any], n: int) -> None:
            asc.muls(t[0], s[1], alpha, n)
            instr(d, s[0], t[0], n)

        return body, 1

    return make


def _plain(instr: Callable[..., None]) -> Callable[[np.dtype, float | None], tuple[Body, int]]:
    return lambda cdt, alpha: ((lambda d, s, t, n: instr(d, s[0], s[1], n)), 0)


def _def_binary(
    py: str,
    aclnn: str,
    make: Callable[[np.dtype, float | None], tuple[Body, int]],
    *,
    has_alpha: bool,
    true_div: bool = False,
) -> tuple[Pair, Pair]:
    if has_alpha:

        def phase_one(
            self: AclTensor, other: AclTensor, alpha: AclScalar, out: AclTensor
        ) -> tuple[int, Executor]:
            return _binary(aclnn, self, other, out, make, alpha=alpha, has_alpha=True)

        def inplace(self_ref: AclTensor, other: AclTensor, alpha: AclScalar) -> tuple[int, Executor]:
            return _binary(
                "Inplace" + aclnn, self_ref, other, self_ref, make, alpha=alpha, has_alpha=True, inplace=True
            )
    else:

        def phase_one(self: AclTensor, other: AclTensor, out: AclTensor) -> tuple[int, Executor]:  # type: ignore[misc]
            return _binary(aclnn, self, other, out, make, true_div=true_div)

        def inplace(self_ref: AclTensor, other: AclTensor) -> tuple[int, Executor]:  # type: ignore[misc]
            return _binary(
                "Inplace" + aclnn, self_ref, other, self_ref, make, true_div=true_div, inplace=True
            )

    phase_one.__doc__ = f"``aclnn{aclnn}GetWorkspaceSize``: out = self {py} other, broadcast (reference 6.1)."
    inplace.__doc__ = f"``aclnnInplace{aclnn}GetWorkspaceSize``: selfRef = selfRef {py} other."
    return _export(py, aclnn, phase_one), _export("inplace_" + py, "Inplace" + aclnn, inplace)


(add_get_workspace_size, add), (inplace_add_get_workspace_size, inplace_add) = _def_binary(
    "add", "Add", _axpy(asc.add), has_alpha=True
)
(sub_get_workspace_size, sub), (inplace_sub_get_workspace_size, inplace_sub) = _def_binary(
    "sub", "Sub", _axpy(asc.sub), has_alpha=True
)
(mul_get_workspace_size, mul), (inplace_mul_get_workspace_size, inplace_mul) = _def_binary(
    "mul", "Mul", _plain(asc.mul), has_alpha=False
)
(div_get_workspace_size, div), (inplace_div_get_workspace_size, inplace_div) = _def_binary(
    "div", "Div", _plain(asc.div), has_alpha=False, true_div=True
)


# --- tensor op scalar ---------------------------------------------------------------------------


def _tensor_scalar(
    op: str,
    self: AclTensor | None,
    other: AclScalar | None,
    out: AclTensor | None,
    alpha: AclScalar | None,
    has_alpha: bool,
    instr: Callable[..., None],
    inplace: bool = False,
) -> tuple[int, Executor]:
    self, other, out, alpha = operands(self, other, out, alpha)
    first = "selfRef" if inplace else "self"
    pairs = [(first, self), ("other", other)] + ([("alpha", alpha)] if has_alpha else [])
    if not inplace:
        pairs.append(("out", out))
    require(op, *pairs)
    assert self is not None and other is not None and out is not None
    for name, t in ((first, self), ("out", out)):
        _supported(op, name, t.data_type, ALL12)
    result = promote_scalar_a2(self.data_type, other.data_type, out.data_type)
    if result is None or result not in KERNEL_DTYPES:
        raise AclnnParamInvalidError(
            f"{op}: {first} {self.data_type.name} and scalar {other.data_type.name} "
            f"promote to {'nothing' if result is None else result.name}"
            + ("" if result is None else _NOT_MODELLED)
        )
    check_castable(op, result, "out", out.data_type)
    check_rank(op, first, self)
    check_shape(op, "out", out, tuple(self.view_dims), f"the shape of {first}")
    res_np = numpy_dtype(result)
    value = _scalar_value(other, res_np)
    if has_alpha:
        assert alpha is not None
        with np.errstate(all="ignore"):
            value = (np.asarray(value) * _scalar_value(alpha, res_np)).astype(res_np)[()]
    cdt = compute_dtype(result, out.data_type)
    v = float(value) if cdt.kind == "f" else int(value)
    return elementwise_op(op, [(first, self)], out, cdt, lambda d, s, t, n: instr(d, s[0], v, n))


def _def_scalar(py: str, aclnn: str, instr: Callable[..., None], *, has_alpha: bool) -> tuple[Pair, Pair]:
    if has_alpha:

        def phase_one(
            self: AclTensor, other: AclScalar, alpha: AclScalar, out: AclTensor
        ) -> tuple[int, Executor]:
            return _tensor_scalar(aclnn, self, other, out, alpha, True, instr)

        def inplace(self_ref: AclTensor, other: AclScalar, alpha: AclScalar) -> tuple[int, Executor]:
            return _tensor_scalar("Inplace" + aclnn, self_ref, other, self_ref, alpha, True, instr, True)
    else:

        def phase_one(self: AclTensor, other: AclScalar, out: AclTensor) -> tuple[int, Executor]:  # type: ignore[misc]
            return _tensor_scalar(aclnn, self, other, out, None, False, instr)

        def inplace(self_ref: AclTensor, other: AclScalar) -> tuple[int, Executor]:  # type: ignore[misc]
            return _tensor_scalar("Inplace" + aclnn, self_ref, other, self_ref, None, False, instr, True)

    phase_one.__doc__ = f"``aclnn{aclnn}GetWorkspaceSize``: tensor {py[:-1]} scalar (reference 6.1, 5.4)."
    inplace.__doc__ = f"``aclnnInplace{aclnn}GetWorkspaceSize``."
    return _export(py, aclnn, phase_one), _export("inplace_" + py, "Inplace" + aclnn, inplace)


(adds_get_workspace_size, adds), (inplace_adds_get_workspace_size, inplace_adds) = _def_scalar(
    "adds", "Adds", asc.adds, has_alpha=True
)
(subs_get_workspace_size, subs), (inplace_subs_get_workspace_size, inplace_subs) = _def_scalar(
    "subs", "Subs", lambda d, s, v, n: asc.adds(d, s, -v, n), has_alpha=True
)
(muls_get_workspace_size, muls), (inplace_muls_get_workspace_size, inplace_muls) = _def_scalar(
    "muls", "Muls", asc.muls, has_alpha=False
)


# --- unary ---------------------------------------------------------------------------------------


def _unary(
    op: str,
    self: AclTensor | None,
    out: AclTensor | None,
    documented: Sequence[DataType],
    make: Callable[[np.dtype], tuple[Body, int]],
    *,
    float_result: bool,
    transcendental: bool,
    same_dtype: bool,
    inplace: bool,
    min_rank: int = 0,
) -> tuple[int, Executor]:
    self, out = operands(self, out)
    first = "selfRef" if inplace else "self"
    require(op, (first, self), *(() if inplace else (("out", out),)))
    assert self is not None and out is not None
    _supported(op, first, self.data_type, documented)
    _supported(op, "out", out.data_type, ALL12)
    result = D.ACL_FLOAT if float_result and not is_floating(self.data_type) else self.data_type
    if same_dtype and out.data_type != self.data_type:
        raise AclnnParamInvalidError(
            f"{op}: out has dtype {out.data_type.name}, {first} {self.data_type.name}",
            hint="out must have self's dtype",
        )
    if float_result and not is_floating(out.data_type):
        raise AclnnParamInvalidError(
            f"{op}: out has dtype {out.data_type.name}, a floating dtype is needed",
            hint="use ACL_FLOAT, ACL_FLOAT16 or ACL_BF16",
        )
    check_castable(op, result, "out", out.data_type)
    check_rank(op, first, self, min_rank)
    check_shape(op, "out", out, tuple(self.view_dims), f"the shape of {first}")
    cdt = compute_dtype(result, out.data_type, transcendental=transcendental)
    body, temps = make(cdt)
    return elementwise_op(op, [(first, self)], out, cdt, body, temps=temps)


def _def_unary(
    py: str,
    aclnn: str,
    documented: Sequence[DataType],
    make: Callable[[np.dtype], tuple[Body, int]],
    *,
    float_result: bool = False,
    transcendental: bool = False,
    same_dtype: bool = False,
    inplace: bool = True,
    min_rank: int = 0,
) -> tuple[Pair, ...]:
    kw = dict(
        float_result=float_result, transcendental=transcendental, same_dtype=same_dtype, min_rank=min_rank
    )

    def phase_one(self: AclTensor, out: AclTensor) -> tuple[int, Executor]:
        return _unary(aclnn, self, out, documented, make, inplace=False, **kw)  # type: ignore[arg-type]

    phase_one.__doc__ = f"``aclnn{aclnn}GetWorkspaceSize(self, out)`` (reference 6.2)."
    pairs = [_export(py, aclnn, phase_one)]
    if inplace:

        def inplace_one(self_ref: AclTensor) -> tuple[int, Executor]:
            return _unary("Inplace" + aclnn, self_ref, self_ref, documented, make, inplace=True, **kw)  # type: ignore[arg-type]

        inplace_one.__doc__ = f"``aclnnInplace{aclnn}GetWorkspaceSize(selfRef)``."
        pairs.append(_export("inplace_" + py, "Inplace" + aclnn, inplace_one))
    return tuple(pairs)


def _one(instr: Callable[..., None]) -> Callable[[np.dtype], tuple[Body, int]]:
    return lambda cdt: ((lambda d, s, t, n: instr(d, s[0], n)), 0)


def _relu(cdt: np.dtype) -> tuple[Body, int]:
    if cdt == np.int16:  # the Relu instruction takes floats and int32; int16 goes through Maxs
        return (lambda d, s, t, n: asc.maxs(d, s[0], 0, n)), 0
    return (lambda d, s, t, n: asc.relu(d, s[0], n)), 0


def _sigmoid(cdt: np.dtype) -> tuple[Body, int]:
    def body(d: Any, s: Sequence[Any], t: Sequence[Any], n: int) -> None:  # 1 / (1 + exp(-x))
        asc.muls(d, s[0], -1.0, n)
        asc.exp(d, d, n)
        asc.adds(d, d, 1.0, n)
        asc.reciprocal(d, d, n)

    return body, 0


def _silu(cdt: np.dtype) -> tuple[Body, int]:
    def body(d: Any, s: Sequence[Any], t: Sequence[Any], n: int) -> None:  # x / (1 + exp(-x))
        asc.muls(t[0], s[0], -1.0, n)
        asc.exp(t[0], t[0], n)
        asc.adds(t[0], t[0], 1.0, n)
        asc.div(d, s[0], t[0], n)

    return body, 1


GELU_K = 2.0 * math.sqrt(2.0 / math.pi)


def _gelu(cdt: np.dtype) -> tuple[Body, int]:
    def body(d: Any, s: Sequence[Any], t: Sequence[Any], n: int) -> None:
        x, u = s[0], t[0]  # tanh form: x / (1 + exp(-2 sqrt(2/pi) (x + 0.044715 x^3)))
        asc.mul(u, x, x, n)
        asc.muls(u, u, 0.044715, n)
        asc.adds(u, u, 1.0, n)
        asc.mul(u, u, x, n)
        asc.muls(u, u, -GELU_K, n)
        asc.exp(u, u, n)
        asc.adds(u, u, 1.0, n)
        asc.div(d, x, u, n)

    return body, 1


_ABS = (
    D.ACL_FLOAT,
    D.ACL_FLOAT16,
    D.ACL_DOUBLE,
    D.ACL_BF16,
    D.ACL_INT8,
    D.ACL_INT16,
    D.ACL_INT32,
    D.ACL_INT64,
    D.ACL_UINT8,
    D.ACL_BOOL,
)
_NEG = (D.ACL_INT8, D.ACL_INT32, D.ACL_INT64, D.ACL_FLOAT16, D.ACL_BF16, D.ACL_FLOAT, D.ACL_DOUBLE)
_EXP = (D.ACL_FLOAT, D.ACL_FLOAT16, D.ACL_DOUBLE, D.ACL_BOOL, D.ACL_INT64, D.ACL_BF16)
_LOG = (
    D.ACL_BOOL,
    D.ACL_INT64,
    D.ACL_INT32,
    D.ACL_INT16,
    D.ACL_INT8,
    D.ACL_UINT8,
    D.ACL_FLOAT,
    D.ACL_FLOAT16,
    D.ACL_DOUBLE,
    D.ACL_BF16,
)
_RELU = (D.ACL_FLOAT, D.ACL_FLOAT16, D.ACL_INT8, D.ACL_INT32, D.ACL_INT64, D.ACL_BF16)

((abs_get_workspace_size, abs),) = _def_unary(
    "abs", "Abs", _ABS, _one(asc.abs), same_dtype=True, inplace=False
)
(neg_get_workspace_size, neg), (inplace_neg_get_workspace_size, inplace_neg) = _def_unary(
    "neg", "Neg", _NEG, lambda cdt: ((lambda d, s, t, n: asc.muls(d, s[0], -1, n)), 0)
)
(exp_get_workspace_size, exp), (inplace_exp_get_workspace_size, inplace_exp) = _def_unary(
    "exp", "Exp", _EXP, _one(asc.exp), float_result=True, transcendental=True
)
(log_get_workspace_size, log), (inplace_log_get_workspace_size, inplace_log) = _def_unary(
    "log", "Log", _LOG, _one(asc.ln), float_result=True, transcendental=True, min_rank=1
)
(sqrt_get_workspace_size, sqrt), (inplace_sqrt_get_workspace_size, inplace_sqrt) = _def_unary(
    "sqrt", "Sqrt", _LOG, _one(asc.sqrt), float_result=True, transcendental=True
)
(rsqrt_get_workspace_size, rsqrt), (inplace_rsqrt_get_workspace_size, inplace_rsqrt) = _def_unary(
    "rsqrt", "Rsqrt", _LOG, _one(asc.rsqrt), float_result=True, transcendental=True
)
(relu_get_workspace_size, relu), (inplace_relu_get_workspace_size, inplace_relu) = _def_unary(
    "relu", "Relu", _RELU, _relu, same_dtype=True
)
((gelu_get_workspace_size, gelu),) = _def_unary(
    "gelu", "Gelu", FLOAT3, _gelu, same_dtype=True, transcendental=True, inplace=False
)
(sigmoid_get_workspace_size, sigmoid), (inplace_sigmoid_get_workspace_size, inplace_sigmoid) = _def_unary(
    "sigmoid", "Sigmoid", FLOAT3, _sigmoid, float_result=True, transcendental=True
)
((silu_get_workspace_size, silu),) = _def_unary(
    "silu", "Silu", FLOAT3, _silu, same_dtype=True, transcendental=True, inplace=False
)


# --- Cast -----------------------------------------------------------------------------------------

_CAST = (
    D.ACL_FLOAT16,
    D.ACL_FLOAT,
    D.ACL_DOUBLE,
    D.ACL_INT8,
    D.ACL_UINT8,
    D.ACL_INT16,
    D.ACL_UINT16,
    D.ACL_INT32,
    D.ACL_UINT32,
    D.ACL_INT64,
    D.ACL_UINT64,
    D.ACL_BOOL,
    D.ACL_COMPLEX64,
    D.ACL_COMPLEX128,
    D.ACL_BF16,
)


def cast_get_workspace_size(self: AclTensor, dtype: DataType | int, out: AclTensor) -> tuple[int, Executor]:
    """``aclnnCastGetWorkspaceSize(self, dtype, out)``: out = self converted to ``dtype`` (reference
    6.3); float -> integer truncates toward zero and maps NaN to 0; -> bool is ``!= 0``."""
    op = "Cast"
    self, out = operands(self, out)
    require(op, ("self", self), ("out", out))
    try:
        dt = DataType(dtype)
    except ValueError:
        raise AclnnParamInvalidError(f"{op}: dtype {dtype!r} is not an aclDataType") from None
    _supported(op, "self", self.data_type, _CAST)
    _supported(op, "dtype", dt, _CAST)
    if out.data_type != dt:
        raise AclnnParamInvalidError(
            f"{op}: out has dtype {out.data_type.name}, dtype says {dt.name}",
            hint="make out's dtype the requested dtype",
        )
    if out.format != self.format:
        raise AclnnParamInvalidError(f"{op}: out has format {out.format.name}, self {self.format.name}")
    check_shape(op, "out", out, tuple(self.view_dims), "the shape of self")
    src = self.dtype if self.data_type != D.ACL_BOOL else np.dtype(np.uint8)
    cdt = F32 if dt == D.ACL_BOOL else src
    return elementwise_op(op, [("self", self)], out, cdt, lambda d, s, t, n: s[0])


def cast(workspace: Any, workspace_size: int, executor: Executor | None, stream: Any) -> Any:
    """``aclnnCast``: phase two."""
    return run(workspace, workspace_size, executor, stream)


register_op("Cast", cast_get_workspace_size)
#: the ops' two phases (the package re-exports them)
PUBLIC = (
    "add_get_workspace_size",
    "add",
    "inplace_add_get_workspace_size",
    "inplace_add",
    "sub_get_workspace_size",
    "sub",
    "inplace_sub_get_workspace_size",
    "inplace_sub",
    "mul_get_workspace_size",
    "mul",
    "inplace_mul_get_workspace_size",
    "inplace_mul",
    "div_get_workspace_size",
    "div",
    "inplace_div_get_workspace_size",
    "inplace_div",
    "adds_get_workspace_size",
    "adds",
    "inplace_adds_get_workspace_size",
    "inplace_adds",
    "subs_get_workspace_size",
    "subs",
    "inplace_subs_get_workspace_size",
    "inplace_subs",
    "muls_get_workspace_size",
    "muls",
    "inplace_muls_get_workspace_size",
    "inplace_muls",
    "abs_get_workspace_size",
    "abs",
    "neg_get_workspace_size",
    "neg",
    "inplace_neg_get_workspace_size",
    "inplace_neg",
    "exp_get_workspace_size",
    "exp",
    "inplace_exp_get_workspace_size",
    "inplace_exp",
    "log_get_workspace_size",
    "log",
    "inplace_log_get_workspace_size",
    "inplace_log",
    "sqrt_get_workspace_size",
    "sqrt",
    "inplace_sqrt_get_workspace_size",
    "inplace_sqrt",
    "rsqrt_get_workspace_size",
    "rsqrt",
    "inplace_rsqrt_get_workspace_size",
    "inplace_rsqrt",
    "relu_get_workspace_size",
    "relu",
    "inplace_relu_get_workspace_size",
    "inplace_relu",
    "gelu_get_workspace_size",
    "gelu",
    "sigmoid_get_workspace_size",
    "sigmoid",
    "inplace_sigmoid_get_workspace_size",
    "inplace_sigmoid",
    "silu_get_workspace_size",
    "silu",
    "cast_get_workspace_size",
    "cast",
)
__all__ = [*PUBLIC, "compute_dtype", "elementwise_op", "KERNEL_DTYPES"]
