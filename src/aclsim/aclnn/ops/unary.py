"""The unary elementwise ops (reference 6.2) and Cast (6.3), each a few lines over
:func:`~aclsim.aclnn.ops.elementwise.elementwise_op`; the compute dtypes are described in
``ops/elementwise.py``."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import aclsim.kernel as asc
from aclsim.aclnn.checks import check_castable, check_dtype, check_rank, check_shape, operands, require
from aclsim.aclnn.dtypes import DataType, is_complex, is_floating, numpy_dtype
from aclsim.aclnn.executor import Executor, register_op, run
from aclsim.aclnn.kernels.elementwise import Body
from aclsim.aclnn.meta import AclTensor
from aclsim.aclnn.ops.elementwise import (
    ALL12,
    F32,
    FLOAT3,
    Pair,
    aicpu_elementwise,
    compute_dtype,
    elementwise_op,
    export_op,
    needs_aicpu,
)
from aclsim.errors import AclnnParamInvalidError

D = DataType


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
    check_dtype(op, first, self.data_type, documented)
    check_dtype(op, "out", out.data_type, ALL12)
    cplx = is_complex(self.data_type)
    result = D.ACL_FLOAT if float_result and not (is_floating(self.data_type) or cplx) else self.data_type
    want = _REAL_OF.get(self.data_type, self.data_type) if op == "Abs" else self.data_type
    if same_dtype and out.data_type != want:
        raise AclnnParamInvalidError(
            f"{op}: out has dtype {out.data_type.name}, {first} {self.data_type.name}",
            hint="out must have self's dtype" if want == self.data_type
            else f"out must have dtype {want.name} (the real dtype of a complex self)",
        )
    if float_result and not (is_complex(out.data_type) if cplx else is_floating(out.data_type)):
        kind = "complex" if cplx else "floating"
        raise AclnnParamInvalidError(
            f"{op}: out has dtype {out.data_type.name}, a {kind} dtype is needed",
            hint="use ACL_COMPLEX64 or ACL_COMPLEX128" if cplx else "use ACL_FLOAT, ACL_FLOAT16 or ACL_BF16",
        )
    check_castable(op, result, "out", out.data_type)
    check_rank(op, first, self, min_rank)
    check_shape(op, "out", out, tuple(self.view_dims), f"the shape of {first}")
    if needs_aicpu(self.data_type, out.data_type, result):
        fn = _NP_UNARY[op.removeprefix("Inplace")]
        real = numpy_dtype(want) if cplx else None
        return aicpu_elementwise(op, [self], out, numpy_dtype(result), lambda x: fn(x[0]), real)
    cdt = compute_dtype(result, out.data_type, transcendental=transcendental)
    body, temps = make(cdt)
    # Sigmoid's and Silu's bodies keep V about as busy as MTE2: a third input buffer lets the
    # next loads' latency hide behind the vector work (with two, a load waits for the tile
    # before last to be consumed); the other ops gain more from the bigger tile of two
    deep = op.removeprefix("Inplace") in ("Sigmoid", "Silu")
    return elementwise_op(op, [(first, self)], out, cdt, body, temps=temps, in_buffer_num=3 if deep else None)


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
    inplace_dtypes: Sequence[DataType] | None = None,
    inplace_min_rank: int | None = None,
) -> tuple[Pair, ...]:
    """Declare ``aclnn<Op>`` (and ``aclnnInplace<Op>``, whose documented dtypes and minimum
    rank may differ: ``inplace_dtypes``, ``inplace_min_rank``)."""
    kw = dict(float_result=float_result, transcendental=transcendental, same_dtype=same_dtype)

    def phase_one(self: AclTensor, out: AclTensor) -> tuple[int, Executor]:
        return _unary(aclnn, self, out, documented, make, inplace=False, min_rank=min_rank, **kw)

    phase_one.__doc__ = f"``aclnn{aclnn}GetWorkspaceSize(self, out)`` (reference 6.2)."
    pairs = [export_op(py, aclnn, phase_one)]
    if inplace:

        def inplace_one(self_ref: AclTensor) -> tuple[int, Executor]:
            return _unary(
                "Inplace" + aclnn,
                self_ref,
                self_ref,
                inplace_dtypes or documented,
                make,
                inplace=True,
                min_rank=min_rank if inplace_min_rank is None else inplace_min_rank,
                **kw,
            )

        inplace_one.__doc__ = f"``aclnnInplace{aclnn}GetWorkspaceSize(selfRef)``."
        pairs.append(export_op("inplace_" + py, "Inplace" + aclnn, inplace_one))
    return tuple(pairs)


def _one(instr: Callable[..., None]) -> Callable[[np.dtype], tuple[Body, int]]:
    return lambda cdt: ((lambda d, s, t, n: instr(d, s[0], n)), 0)


def _relu(cdt: np.dtype) -> tuple[Body, int]:
    if cdt == np.int16:  # the Relu instruction takes floats and int32; int16 goes through Maxs
        return (lambda d, s, t, n: asc.maxs(d, s[0], 0, n)), 0
    return (lambda d, s, t, n: asc.relu(d, s[0], n)), 0


# The bodies below ping-pong between their buffers so that no instruction reads and writes one
# UB bank (kernels/elementwise.py lays tmps[0] out of srcs[0]'s bank groups, tmps[1] out of
# tmps[0]'s, and dst in another slice): an in-place chain (exp(d, d)) takes two beats a repeat.


def _sigmoid(cdt: np.dtype) -> tuple[Body, int]:
    def body(d: Any, s: Sequence[Any], t: Sequence[Any], n: int) -> None:  # 1 / (1 + exp(-x))
        x, u = s[0], t[0]  # x is this tile's copy of the input: free to overwrite
        asc.muls(u, x, -1.0, n)
        asc.exp(x, u, n)
        asc.adds(u, x, 1.0, n)
        asc.reciprocal(d, u, n)

    return body, 1


def _silu(cdt: np.dtype) -> tuple[Body, int]:
    def body(d: Any, s: Sequence[Any], t: Sequence[Any], n: int) -> None:  # x / (1 + exp(-x))
        x, u = s[0], t[0]  # d (in the top slice) holds exp(-x) until the division writes it
        asc.muls(u, x, -1.0, n)
        asc.exp(d, u, n)
        asc.adds(u, d, 1.0, n)
        asc.div(d, x, u, n)

    return body, 1


GELU_K = 2.0 * math.sqrt(2.0 / math.pi)


def _gelu(cdt: np.dtype) -> tuple[Body, int]:
    def body(d: Any, s: Sequence[Any], t: Sequence[Any], n: int) -> None:
        x, u, v = s[0], t[0], t[1]  # tanh form: x / (1 + exp(-2 sqrt(2/pi) (x + 0.044715 x^3)))
        asc.mul(u, x, x, n)  # x reads itself twice: this one takes two beats a repeat
        asc.muls(v, u, -GELU_K * 0.044715, n)
        asc.adds(u, v, -GELU_K, n)
        asc.mul(d, u, x, n)  # -2 sqrt(2/pi) (x + 0.044715 x^3)
        asc.exp(v, d, n)
        asc.adds(u, v, 1.0, n)
        asc.div(d, x, u, n)

    return body, 2


#: the real dtype of Abs on a complex input
_REAL_OF = {D.ACL_COMPLEX64: D.ACL_FLOAT, D.ACL_COMPLEX128: D.ACL_DOUBLE}
#: the AI CPU kernels of the unary ops (in the compute dtype)
_NP_UNARY: dict[str, Callable[[Any], Any]] = {
    "Abs": np.abs,
    "Neg": np.negative,
    "Exp": np.exp,
    "Log": np.log,
    "Sqrt": np.sqrt,
    "Rsqrt": lambda x: 1 / np.sqrt(x),
    "Relu": lambda x: np.maximum(x, 0),
    "Sigmoid": lambda x: 1 / (1 + np.exp(-x)),
}
_COMPLEX = (D.ACL_COMPLEX64, D.ACL_COMPLEX128)

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
    D.ACL_COMPLEX64,
)
_NEG = (D.ACL_INT8, D.ACL_INT32, D.ACL_INT64, D.ACL_FLOAT16, D.ACL_BF16, D.ACL_FLOAT, D.ACL_DOUBLE, *_COMPLEX)
_EXP = (D.ACL_FLOAT, D.ACL_FLOAT16, D.ACL_DOUBLE, *_COMPLEX, D.ACL_BOOL, D.ACL_INT64, D.ACL_BF16)
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
    *_COMPLEX,
)
_RELU = (D.ACL_FLOAT, D.ACL_FLOAT16, D.ACL_INT8, D.ACL_INT32, D.ACL_INT64, D.ACL_BF16)

((abs_get_workspace_size, abs),) = _def_unary(
    "abs", "Abs", _ABS, _one(asc.abs), same_dtype=True, inplace=False
)
(neg_get_workspace_size, neg), (inplace_neg_get_workspace_size, inplace_neg) = _def_unary(
    "neg", "Neg", _NEG, lambda cdt: ((lambda d, s, t, n: asc.muls(d, s[0], -1, n)), 0)
)
(exp_get_workspace_size, exp), (inplace_exp_get_workspace_size, inplace_exp) = _def_unary(
    "exp", "Exp", _EXP, _one(asc.exp), float_result=True, transcendental=True,
    inplace_dtypes=tuple(d for d in _EXP if d not in (D.ACL_BOOL, D.ACL_INT64)),
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
    "relu", "Relu", _RELU, _relu, same_dtype=True, inplace_dtypes=(*_RELU, D.ACL_UINT8)
)
((gelu_get_workspace_size, gelu),) = _def_unary(
    "gelu", "Gelu", FLOAT3, _gelu, same_dtype=True, transcendental=True, inplace=False
)
(sigmoid_get_workspace_size, sigmoid), (inplace_sigmoid_get_workspace_size, inplace_sigmoid) = _def_unary(
    "sigmoid",
    "Sigmoid",
    FLOAT3,
    _sigmoid,
    float_result=True,
    transcendental=True,
    inplace_dtypes=(*FLOAT3, D.ACL_DOUBLE, D.ACL_COMPLEX64, D.ACL_COMPLEX128),
    inplace_min_rank=1,
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
    check_dtype(op, "self", self.data_type, _CAST)
    check_dtype(op, "dtype", dt, _CAST)
    if out.data_type != dt:
        raise AclnnParamInvalidError(
            f"{op}: out has dtype {out.data_type.name}, dtype says {dt.name}",
            hint="make out's dtype the requested dtype",
        )
    if out.format != self.format:
        raise AclnnParamInvalidError(f"{op}: out has format {out.format.name}, self {self.format.name}")
    check_shape(op, "out", out, tuple(self.view_dims), "the shape of self")
    if needs_aicpu(self.data_type, dt):
        return aicpu_elementwise(op, [self], out, self.dtype, lambda x: x[0], out.dtype)
    src = self.dtype if self.data_type != D.ACL_BOOL else np.dtype(np.uint8)
    cdt = F32 if dt == D.ACL_BOOL else src
    return elementwise_op(op, [("self", self)], out, cdt, lambda d, s, t, n: s[0])


def cast(workspace: Any, workspace_size: int, executor: Executor | None, stream: Any) -> Any:
    """``aclnnCast``: phase two."""
    return run(workspace, workspace_size, executor, stream)


register_op("Cast", cast_get_workspace_size)
#: the ops' two phases (the package re-exports them)
PUBLIC = (
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
__all__ = [*PUBLIC]
