"""The binary and tensor-scalar elementwise ops, and what every elementwise op is built on:
:func:`elementwise_op` over the shared template of ``aclnn/kernels/elementwise.py`` (the unary
ops and Cast are in ``ops/unary.py``).  Validation follows reference sections 5 and 6.1-6.3.

Compute dtypes (what the vector unit computes in): bfloat16 always goes through float32 (cast
up, compute, cast back, as the real kernels do: the A2 vector unit has no bf16 arithmetic);
float16 arithmetic (add, sub, mul, div, abs, neg, relu) is native, float16 transcendentals
(exp, log, sqrt, rsqrt, gelu, sigmoid, silu) go through float32; int8/uint8 arithmetic goes
through int16 (the result wraps as the narrow type's would); integer inputs of the float
functions and of Div are computed in float32; a bool result is a compare against 0.  An op
that involves a dtype the vector kernels do not hold (float64, int64, unsigned 16/32/64,
complex: :func:`needs_aicpu`) runs as AI CPU tasks instead (``aclnn/aicpu.py``,
:func:`aicpu_elementwise`), as the device's L0 layer does for dtypes outside its AI Core list.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import aclsim.kernel as asc
from aclsim.aclnn import aicpu
from aclsim.aclnn.checks import (
    broadcast_shapes,
    broadcast_strides,
    check_castable,
    check_dtype,
    check_rank,
    check_shape,
    operands,
    partly_overlaps,
    require,
)
from aclsim.aclnn.dtypes import (
    DataType,
    is_complex,
    is_floating,
    numpy_dtype,
    promote_scalar_a2,
    promote_types,
)
from aclsim.aclnn.executor import Executor, OpBuilder, Ref, register_op, run
from aclsim.aclnn.kernels.elementwise import Body, collapse, elementwise_kernel, plan_elementwise
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
F32 = np.dtype(np.float32)


def needs_aicpu(*dtypes: DataType) -> bool:
    """Whether an op over these dtypes runs on the AI CPU (``aclnn/aicpu.py``): one of them is
    outside :data:`KERNEL_DTYPES`, which the AI Core kernels hold."""
    return any(d not in KERNEL_DTYPES for d in dtypes)


def scalar_in(value: Any, dt: np.dtype) -> Any:
    """A scalar's value in ``dt`` (a complex value into a real dtype keeps its real part)."""
    v = np.asarray(value)
    if v.dtype.kind == "c" and dt.kind != "c":
        v = v.real
    with np.errstate(all="ignore"):
        return v.astype(dt)[()]


def aicpu_elementwise(
    op: str,
    inputs: Sequence[AclTensor],
    out: AclTensor,
    compute: np.dtype,
    fn: aicpu.Fn,
    result: np.dtype | None = None,
) -> tuple[int, Executor]:
    """Plan ``out = fn(inputs)`` as AI CPU tasks (the dtypes the AI Core kernels do not hold):
    inputs contiguous in ``compute``, broadcast to ``out``'s shape (``aicpu.plan_map``).  The
    caller has validated dtypes and shapes; a true inplace ``out`` (``selfRef``) is one of the
    inputs (the task reads every input before it writes)."""
    if any(s == 0 for d, s in zip(out.view_dims, out.strides, strict=True) if d > 1):
        raise AclnnParamInvalidError(f"{op}: out has stride 0 on a dim of size > 1 (its elements overlap)")
    b = OpBuilder(op)
    refs = [b.input(t) for t in inputs]
    out_ref = b.output(out)
    aicpu.plan_map(b, op.removeprefix("Inplace"), list(zip(refs, inputs, strict=True)), out_ref, out,
                   compute, fn, result)
    return b.finish()


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


def inner_stride(dims: Sequence[int], strides: Sequence[int]) -> int:
    """The stride of the innermost dim of size > 1 (1 for a single element)."""
    for d, st in zip(reversed(dims), reversed(strides), strict=True):
        if d > 1:
            return int(st)
    return 1


def stage_contiguous(b: OpBuilder, src: Ref, t: AclTensor) -> Ref:
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
    in_buffer_num: int | None = None,
) -> tuple[int, Executor]:
    """Plan one launch of the template: ``out = body(inputs)`` with broadcasting and views
    (``in_buffer_num``: buffers per input queue, 2 by default).

    The caller has validated dtypes and shapes; ``out``'s shape is the broadcast shape.  Views
    whose innermost stride is 0 or 1 are read (written) in place; other views are staged
    through the workspace with the view_copy kernel (a contiguous copy of an input before, a
    ViewCopy into ``out`` after).  An input whose memory meets ``out``'s other than element for
    element (``t[1:]`` into ``t[:-1]``, a broadcast row of ``out``, another dtype at the same
    address) is staged too, so that the op computes from the old values as the device does
    (its graph copies such an input); a true inplace input (``selfRef``) is read in place.
    """
    shape = tuple(out.view_dims)
    if any(s == 0 for d, s in zip(out.view_dims, out.strides, strict=True) if d > 1):
        raise AclnnParamInvalidError(f"{op}: out has stride 0 on a dim of size > 1 (its elements overlap)")
    b = OpBuilder(op)
    refs = [b.input(t) for _, t in inputs]
    out_ref = b.output(out)
    if out.numel == 0:
        return b.finish()
    staged_out = inner_stride(shape, out.strides) != 1
    operands: list[tuple[np.dtype, tuple[int, ...]]] = []
    for i, (_, t) in enumerate(inputs):
        st = broadcast_strides(t, shape)
        aliased = not staged_out and partly_overlaps(t, st, out, out.strides, shape)
        if aliased or inner_stride(shape, st) not in (0, 1):
            refs[i] = stage_contiguous(b, refs[i], t)
            st = broadcast_strides(t, shape, contiguous_strides(t.view_dims))
        operands.append((t.dtype, st))
    dst = b.workspace(out.numel * out.itemsize) if staged_out else out_ref
    out_strides = contiguous_strides(shape) if staged_out else broadcast_strides(out, shape)
    plan = plan_elementwise(shape, operands, (out.dtype, out_strides), compute, b.chip, temps=temps,
                            in_buffer_num=in_buffer_num)
    b.launch(elementwise_kernel(plan, body, op.lower()), plan.block_dim, *refs, dst)
    if staged_out:
        copy = plan_view_copy(shape, out.dtype, contiguous_strides(shape), 0, out.strides, 0, b.chip)
        b.launch(view_copy_kernel(copy), copy.block_dim, dst, out_ref)
    return b.finish()


PhaseOne = Callable[..., tuple[int, Executor]]
PhaseTwo = Callable[[Any, int, "Executor | None", Any], list[KernelLaunch]]
Pair = tuple[PhaseOne, PhaseTwo]


def export_op(py: str, aclnn: str, phase_one: PhaseOne) -> Pair:
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
        check_dtype(op, name, t.data_type, ALL12)
    promoted = promote_types(self.data_type, other.data_type)
    if promoted is None:
        raise AclnnParamInvalidError(
            f"{op}: {names[0]} {self.data_type.name} and other {other.data_type.name} "
            "cannot be promoted to a common dtype",
            hint="cast one of them first",
        )
    result = D.ACL_FLOAT if true_div and not (is_floating(promoted) or is_complex(promoted)) else promoted
    check_castable(op, result, names[0] if inplace else "out", out.data_type)
    shape = broadcast_shapes((names[0], self), ("other", other))
    check_shape(op, names[0] if inplace else "out", out, shape, "the broadcast shape of self and other")
    _check_merged_rank(op, (self.data_type, other.data_type, promoted), self, other, shape)
    unit = True  # alpha == 1: the plain op
    if has_alpha:
        assert alpha is not None
        if promoted == D.ACL_BOOL and (is_floating(alpha.data_type) or is_complex(alpha.data_type)):
            raise AclnnParamInvalidError(
                f"{op}: alpha {alpha.data_type.name} cannot be cast to the bool result",
                hint="use an integral or bool alpha",
            )
        unit = alpha.value == 1
    if needs_aicpu(self.data_type, other.data_type, out.data_type, result):
        res_np = numpy_dtype(result)
        al = None if unit or alpha is None else scalar_in(alpha.value, res_np)
        fn = _NP_BINARY[op.removeprefix("Inplace")]
        return aicpu_elementwise(op, [self, other], out, res_np, lambda x: fn(x[0], x[1], al))
    # alpha cast to the real result (a complex alpha keeps its real part, reference 5.3)
    a = None if unit or alpha is None else float(np.real(alpha.value))
    cdt = compute_dtype(result, out.data_type, int_ok=not true_div)
    body, temps = make(cdt, a)
    return elementwise_op(op, [(names[0], self), ("other", other)], out, cdt, body, temps=temps)


#: the AI CPU kernels of the binary ops: (self, other, alpha or None) in the compute dtype
_NP_BINARY: dict[str, Callable[[Any, Any, Any], Any]] = {
    "Add": lambda a, b, al: a + b if al is None else a + al * b,
    "Sub": lambda a, b, al: a - b if al is None else a - al * b,
    "Mul": lambda a, b, al: a * b,
    "Div": lambda a, b, al: a / b,
}

#: dtypes with which a broadcast must merge to fewer than 6 axes (reference 5.5)
_RANK_LIMITED = (D.ACL_COMPLEX64, D.ACL_COMPLEX128, D.ACL_DOUBLE, D.ACL_INT16, D.ACL_UINT16, D.ACL_UINT64)


def _check_merged_rank(
    op: str, dtypes: Sequence[DataType], a: AclTensor, b: AclTensor, shape: tuple[int, ...]
) -> None:
    """161002 when a limited dtype is involved and the broadcast, with adjacent axes of the same
    broadcast pattern merged, still has 6 or more axes."""
    if not any(d in _RANK_LIMITED for d in dtypes):
        return
    flat = contiguous_strides(shape)
    pattern = [
        tuple(0 if s == 0 else f for s, f in zip(broadcast_strides(t, shape), flat, strict=True))
        for t in (a, b)
    ]
    merged, _ = collapse(shape, [flat, *pattern])
    if len(merged) >= 6:
        raise AclnnParamInvalidError(
            f"{op}: with {', '.join(d.name for d in dtypes if d in _RANK_LIMITED)} the broadcast of self "
            f"{list(a.view_dims)} and other {list(b.view_dims)} merges to {len(merged)} axes, at most 5 "
            "allowed",
            hint="reshape the inputs so that fewer broadcast and non-broadcast axes alternate",
        )


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
    return export_op(py, aclnn, phase_one), export_op("inplace_" + py, "Inplace" + aclnn, inplace)


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
        check_dtype(op, name, t.data_type, ALL12)
    result = promote_scalar_a2(self.data_type, other.data_type, out.data_type)
    if result is None or result == D.ACL_COMPLEX32:
        raise AclnnParamInvalidError(
            f"{op}: {first} {self.data_type.name} and scalar {other.data_type.name} "
            f"promote to {'nothing' if result is None else result.name}"
            + ("" if result is None else " (complex32 has no NumPy dtype in aclsim)"),
            hint="cast the tensor or use a scalar of another dtype",
        )
    check_castable(op, result, "out", out.data_type)
    check_rank(op, first, self)
    check_shape(op, "out", out, tuple(self.view_dims), f"the shape of {first}")
    res_np = numpy_dtype(result)
    value = scalar_in(other.value, res_np)
    if has_alpha:
        assert alpha is not None
        with np.errstate(all="ignore"):
            value = (np.asarray(value) * scalar_in(alpha.value, res_np)).astype(res_np)[()]
    if needs_aicpu(self.data_type, out.data_type, result):
        fn = _NP_SCALAR[op.removeprefix("Inplace")]
        return aicpu_elementwise(op, [self], out, res_np, lambda x: fn(x[0], value))
    cdt = compute_dtype(result, out.data_type)
    v = float(value) if cdt.kind == "f" else int(value)
    return elementwise_op(op, [(first, self)], out, cdt, lambda d, s, t, n: instr(d, s[0], v, n))


#: the AI CPU kernels of the tensor-scalar ops: (self, value) in the compute dtype
_NP_SCALAR: dict[str, Callable[[Any, Any], Any]] = {"Adds": np.add, "Subs": np.subtract, "Muls": np.multiply}


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
    return export_op(py, aclnn, phase_one), export_op("inplace_" + py, "Inplace" + aclnn, inplace)


(adds_get_workspace_size, adds), (inplace_adds_get_workspace_size, inplace_adds) = _def_scalar(
    "adds", "Adds", asc.adds, has_alpha=True
)
(subs_get_workspace_size, subs), (inplace_subs_get_workspace_size, inplace_subs) = _def_scalar(
    "subs", "Subs", lambda d, s, v, n: asc.adds(d, s, -v, n), has_alpha=True
)
(muls_get_workspace_size, muls), (inplace_muls_get_workspace_size, inplace_muls) = _def_scalar(
    "muls", "Muls", asc.muls, has_alpha=False
)


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
)
__all__ = [
    *PUBLIC, "KERNEL_DTYPES", "aicpu_elementwise", "compute_dtype", "elementwise_op",
    "export_op", "inner_stride", "needs_aicpu", "scalar_in", "stage_contiguous",
]
