"""The reduction and softmax ops: ReduceSum, Amax, Mean, Softmax, LogSoftmax (reference 6.4, 6.5),
on the kernels of ``aclnn/kernels/{reduce,softmax}.py``.

Phase one follows the L2 skeleton of ops-math (``aclnn_mean.cpp``): checks -> empty-tensor
shortcut -> Contiguous of a strided input (the view_copy kernel) -> Cast to the computation dtype
(the Cast op's elementwise kernel) -> the kernel -> Cast to ``out``'s dtype -> ViewCopy into a
strided ``out``.  Every intermediate is a workspace tensor (OPBASE's bucket layout).  The staging
helpers here (:func:`stage_input`, :func:`result_buffer`, :func:`deliver`) are shared with
``normalization.py``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from aclsim.aclnn import aicpu
from aclsim.aclnn.checks import (
    check_castable,
    check_dtype,
    check_rank,
    check_shape,
    operands,
    overlaps,
    require,
    same_elements,
)
from aclsim.aclnn.dtypes import DataType, is_complex, is_floating, numpy_dtype
from aclsim.aclnn.executor import Executor, OpBuilder, Ref, register_op, run
from aclsim.aclnn.kernels.elementwise import elementwise_kernel, plan_elementwise
from aclsim.aclnn.kernels.movement import contiguous_strides, plan_view_copy, view_copy_kernel
from aclsim.aclnn.kernels.reduce import plan_reduce, reduce_kernel
from aclsim.aclnn.kernels.softmax import plan_softmax, softmax_kernel
from aclsim.aclnn.meta import MAX_RANK, AclIntArray, AclTensor
from aclsim.aclnn.ops.elementwise import FLOAT3, KERNEL_DTYPES, inner_stride, needs_aicpu
from aclsim.errors import AclnnParamInvalidError

D = DataType
F32 = np.dtype(np.float32)
BOOL = np.dtype(np.bool_)
# FLOAT3 and KERNEL_DTYPES (the dtypes the vector kernels hold: no float64, int64 or complex)
# are the elementwise family's: the reduction kernels hold the same ones; the others run on the
# AI CPU (aclnn/aicpu.py)
SUM_DTYPES = (*KERNEL_DTYPES, D.ACL_INT64, D.ACL_DOUBLE, D.ACL_COMPLEX64, D.ACL_COMPLEX128)
AMAX_DTYPES = (*KERNEL_DTYPES, D.ACL_INT64, D.ACL_DOUBLE)
MEAN_DTYPES = (*FLOAT3, D.ACL_INT32, D.ACL_INT16, D.ACL_INT8, D.ACL_UINT8, D.ACL_INT64, D.ACL_DOUBLE,
               D.ACL_COMPLEX64, D.ACL_COMPLEX128)
SOFTMAX_DTYPES = (*FLOAT3, D.ACL_DOUBLE)
#: bytes of a fill whose every element reads NaN in float16, bfloat16 and float32 (0xFF...: a NaN)
NAN_BYTE = 0xFF

__all__ = [
    "amax",
    "amax_get_workspace_size",
    "deliver",
    "log_softmax",
    "log_softmax_get_workspace_size",
    "mean",
    "must_stage",
    "mean_get_workspace_size",
    "reduce_sum",
    "reduce_sum_get_workspace_size",
    "result_buffer",
    "softmax",
    "softmax_get_workspace_size",
    "stage_input",
]


# --- checks -------------------------------------------------------------------------------------


def check_out_view(op: str, name: str, t: AclTensor) -> None:
    """161002 for an output whose elements overlap (stride 0 on a dim of size > 1)."""
    if any(s == 0 for d, s in zip(t.view_dims, t.strides, strict=True) if d > 1):
        raise AclnnParamInvalidError(f"{op}: {name} has stride 0 on a dim of size > 1 (its elements overlap)",
                                     hint=f"give {name} distinct elements")


def int_values(op: str, name: str, arr: Any) -> tuple[int, ...]:
    """The values of an ``aclIntArray`` (a list or tuple of ints is accepted too)."""
    if isinstance(arr, (list, tuple)):
        if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in arr):
            raise AclnnParamInvalidError(f"{op}: {name} must hold integers, got {list(arr)}")
        return tuple(int(v) for v in arr)
    require(op, (name, arr), kinds={name: AclIntArray})
    return tuple(int(v) for v in arr.values)


def axes(op: str, name: str, values: Sequence[int], rank: int) -> tuple[int, ...]:
    """Reduced axes, sorted, from ``values`` in ``[-max(rank, 1), max(rank, 1) - 1]``, each once
    (a rank-0 tensor takes -1 and 0); an empty list means every axis (ReduceSum's, Amax's and
    Mean's code)."""
    n = max(rank, 1)
    seen: list[int] = []
    for v in values:
        if not -n <= v < n:
            raise AclnnParamInvalidError(f"{op}: {name} holds {v}, outside [{-n}, {n - 1}] for a rank-{rank} "
                                         "self", hint=f"pass {name} in range")
        a = v % n
        if a in seen:
            raise AclnnParamInvalidError(f"{op}: {name} {list(values)} names axis {a} twice",
                                         hint="name each axis once")
        seen.append(a)
    if not values:
        return tuple(range(rank))
    return tuple(sorted(a for a in seen if a < rank))


def reduced_shape(shape: Sequence[int], rdims: Sequence[int], keep: bool) -> tuple[int, ...]:
    return tuple(1 if a in rdims else s for a, s in enumerate(shape) if keep or a not in rdims)


def direct_input(src: DataType, dst: DataType) -> bool:
    """Whether the reduction kernel may read ``src`` for a computation in ``dst`` without a Cast
    first: the same dtype, or a widening that is exact (float16/bfloat16 -> float32; a narrower
    integer or bool -> a wider integer), which the kernel's accumulator does on the fly."""
    if src == dst:
        return True
    if is_floating(src):
        return dst == D.ACL_FLOAT
    s, d = numpy_dtype(src), numpy_dtype(dst)
    return d.kind in "iu" and np.can_cast(s, d, "safe")


# --- staging through the workspace --------------------------------------------------------------


def _identity(d: Any, s: Sequence[Any], t: Sequence[Any], n: int) -> Any:
    return s[0]


def cast_into(b: OpBuilder, src: Ref, shape: tuple[int, ...], src_dt: np.dtype, src_strides: Sequence[int],
              dst_dt: np.dtype, dst: Ref | None = None, dst_strides: Sequence[int] | None = None) -> Ref:
    """Plan the Cast op's kernel (the elementwise template with an identity body) from a view
    into ``dst`` (a new contiguous workspace tensor when ``None``); returns ``dst``."""
    if dst is None:
        dst = b.workspace(math.prod(shape) * dst_dt.itemsize)
    compute = F32 if dst_dt == BOOL else (np.dtype(np.uint8) if src_dt == BOOL else src_dt)
    plan = plan_elementwise(shape, [(src_dt, tuple(src_strides))],
                            (dst_dt, tuple(dst_strides or contiguous_strides(shape))), compute, b.chip)
    b.launch(elementwise_kernel(plan, _identity, "cast"), plan.block_dim, src, dst)
    return dst


def _view_copy(b: OpBuilder, src: Ref, dst: Ref, shape: tuple[int, ...], dt: np.dtype,
               src_strides: Sequence[int], dst_strides: Sequence[int]) -> None:
    plan = plan_view_copy(shape, dt, tuple(src_strides), 0, tuple(dst_strides), 0, b.chip)
    b.launch(view_copy_kernel(plan), plan.block_dim, src, dst)


def must_stage(t: AclTensor, written: Iterable[AclTensor | None], inplace: AclTensor | None = None) -> bool:
    """Whether a kernel that reads input ``t`` while it writes the outputs ``written`` must read a
    copy of ``t`` instead: ``t``'s memory meets one of them (decided from the addresses known at
    phase one), other than as ``inplace`` element for element (the same shape, first byte,
    element size and strides: a true inplace output, which the caller's kernel writes only
    after it has read each element).  The device's graph reads such an input from a copy, so
    the op computes from the old values."""
    for o in written:
        if o is None or not overlaps(t, o):
            continue
        if o is inplace and tuple(o.view_dims) == tuple(t.view_dims) and same_elements(
                t, t.strides, o, o.strides, t.view_dims):
            continue
        return True
    return False


def stage_input(b: OpBuilder, ref: Ref, t: AclTensor, dtype: np.dtype | None = None, *,
                copy: bool = False) -> Ref:
    """``t``'s view, contiguous and in ``dtype`` (default its own), for a kernel to read: ``ref``
    itself when it already is (and no ``copy`` is asked: see :func:`must_stage`), else a
    workspace copy (aclnn's Contiguous: the view_copy kernel) and/or a Cast (the elementwise
    kernel reads a view whose inner stride is 0 or 1 in place)."""
    want = t.dtype if dtype is None else np.dtype(dtype)
    if want == t.dtype and t.is_contiguous() and not copy:
        return ref
    shape, cst = tuple(t.view_dims), contiguous_strides(t.view_dims)
    src, strides = ref, tuple(t.strides)
    if want == t.dtype or inner_stride(shape, strides) not in (0, 1):
        tmp = b.workspace(t.numel * t.itemsize)
        _view_copy(b, src, tmp, shape, t.dtype, strides, cst)
        if want == t.dtype:
            return tmp
        src, strides = tmp, cst
    return cast_into(b, src, shape, t.dtype, strides, want)


def result_buffer(b: OpBuilder, out_ref: Ref, out: AclTensor, dt: np.dtype) -> tuple[Ref, bool]:
    """Where a kernel writing a contiguous result of ``dt`` puts it: ``out`` itself when ``out`` is
    contiguous in ``dt`` (``True``), else a workspace tensor for :func:`deliver` (``False``)."""
    if out.dtype == dt and out.is_contiguous():
        return out_ref, True
    return b.workspace(out.numel * dt.itemsize), False


def deliver(b: OpBuilder, res: Ref, res_dt: np.dtype, out_ref: Ref, out: AclTensor) -> None:
    """The contiguous result ``res`` (``res_dt``, ``out``'s shape) into ``out``: a Cast to its dtype
    and/or a ViewCopy into its strides."""
    shape, cst = tuple(out.view_dims), contiguous_strides(out.view_dims)
    if res_dt != out.dtype:
        if inner_stride(shape, out.strides) == 1:
            cast_into(b, res, shape, res_dt, cst, out.dtype, out_ref, out.strides)
            return
        res = cast_into(b, res, shape, res_dt, cst, out.dtype)
    _view_copy(b, res, out_ref, shape, out.dtype, cst, out.strides)


def fill_out(b: OpBuilder, out_ref: Ref, out: AclTensor, byte: int) -> None:
    """Every element of ``out`` := the element whose bytes are all ``byte`` (a memset, staged
    through the workspace for a strided ``out``)."""
    if out.is_contiguous():
        b.fill(out_ref, byte, out.numel * out.itemsize)
        return
    tmp = b.workspace(out.numel * out.itemsize)
    b.fill(tmp, byte, out.numel * out.itemsize)
    shape = tuple(out.view_dims)
    _view_copy(b, tmp, out_ref, shape, out.dtype, contiguous_strides(shape), out.strides)


# --- ReduceSum, Amax, Mean ----------------------------------------------------------------------


def _reduce(op: str, kind: str, self: AclTensor, rdims: tuple[int, ...], work: DataType, out: AclTensor,
            empty_byte: int) -> tuple[int, Executor]:
    """Plan ``out = cast(reduce(cast(self, work)), out)`` (the checks are done)."""
    b = OpBuilder(op)
    src_ref, out_ref = b.input(self), b.output(out)
    if out.numel == 0:
        return b.finish()
    if self.numel == 0:  # documented: ReduceSum fills 0, Mean NaN (Amax was refused)
        fill_out(b, out_ref, out, empty_byte)
        return b.finish()
    if needs_aicpu(self.data_type, work, out.data_type):
        _aicpu_reduce(b, op, kind, src_ref, self, rdims, work, out_ref, out)
        return b.finish()
    src_dt = self.data_type if direct_input(self.data_type, work) else work
    work_np = numpy_dtype(work)
    # the kernel writes a float Mean in its dtype; an integer Mean is float32, truncated after
    kernel_dt = F32 if kind == "mean" and work_np.kind in "iub" else work_np
    if kernel_dt == work_np:
        dst, done = result_buffer(b, out_ref, out, kernel_dt)
    else:
        dst, done = b.workspace(out.numel * kernel_dt.itemsize), False
    plan = plan_reduce(self.view_dims, rdims, kind, numpy_dtype(src_dt), kernel_dt, b.chip)
    # a launch that reads self and writes out in place: self must not meet out (no inplace form)
    reads_into_out = done and any(p.src == "self" and p.dst == "out" for p in plan.passes)
    src = stage_input(b, src_ref, self, numpy_dtype(src_dt), copy=reads_into_out and must_stage(self, [out]))
    ws = b.workspace(plan.workspace_bytes) if plan.workspace_bytes else None

    def role(r: Any) -> Ref:
        if r == "self":
            return src
        if r == "out":
            return dst
        assert ws is not None
        return ws + int(r)

    for p in plan.passes:
        b.launch(reduce_kernel(p), p.block_dim, role(p.src), role(p.dst))
    if kernel_dt != work_np:
        dst = cast_into(b, dst, tuple(out.view_dims), kernel_dt, contiguous_strides(out.view_dims), work_np)
        kernel_dt = work_np
    if not done:
        deliver(b, dst, kernel_dt, out_ref, out)
    return b.finish()


def _aicpu_reduce(b: OpBuilder, op: str, kind: str, src_ref: Ref, self: AclTensor, rdims: tuple[int, ...],
                  work: DataType, out_ref: Ref, out: AclTensor) -> None:
    """The reduction as AI CPU tasks (``aclnn/aicpu.py``): self cast to ``work``, reduced there
    (an integer Mean: the exact sum, divided toward zero), cast to out.  The reduced axes are a
    host-placed int64 tensor of the task (its AI CPU task memory: ``aicpu.task_memory``); the
    device's kernels are TensorFlow-style ("Sum", "Max", "Mean") but int64 ReduceSum's."""
    compute = numpy_dtype(work)
    count = math.prod(self.view_dims[a] for a in rdims)

    def reduce(x: np.ndarray) -> np.ndarray:
        if kind == "max":
            return x.max(axis=rdims)
        if kind == "sum":
            return x.sum(axis=rdims, dtype=compute)
        if compute.kind in "iu":
            s = x.sum(axis=rdims, dtype=np.dtype(compute.kind + "8"))
            return np.sign(s) * (np.abs(s) // count)
        return x.mean(axis=rdims, dtype=compute)

    cc = kind == "sum" and work == D.ACL_INT64
    memory = aicpu.task_memory([8 * len(rdims)], aicpu.CC_ALIGN if cc else aicpu.TF_ALIGN)
    aicpu.plan_whole(b, op, src_ref, self, out_ref, out, compute, reduce, memory=memory)


def _reduce_args(op: str, self: Any, dims: Any, out: Any, dims_name: str
                 ) -> tuple[AclTensor, tuple[int, ...], AclTensor]:
    self, out = operands(self, out)
    for name, value in (("self", self), (dims_name, dims), ("out", out)):  # 161001 in this order
        if value is None:
            require(op, (name, value))
    require(op, ("self", self), ("out", out))
    values = int_values(op, dims_name, dims)
    check_rank(op, "self", self, 0, MAX_RANK)
    check_rank(op, "out", out, 0, MAX_RANK)
    return self, axes(op, dims_name, values, self.rank), out


def _check_out_shape(op: str, self: AclTensor, rdims: tuple[int, ...], keep: bool, out: AclTensor) -> None:
    check_shape(op, "out", out, reduced_shape(self.view_dims, rdims, bool(keep)),
                f"self reduced over {list(rdims)} with keepDims={bool(keep)}")
    check_out_view(op, "out", out)


def _dtype_arg(op: str, dtype: Any) -> DataType:
    try:
        return DataType(dtype)
    except ValueError:
        raise AclnnParamInvalidError(f"{op}: dtype {dtype!r} is not an aclDataType") from None


def reduce_sum_get_workspace_size(self: AclTensor, dims: Any, keep_dims: bool, dtype: DataType | int,
                                  out: AclTensor) -> tuple[int, Executor]:
    """``aclnnReduceSumGetWorkspaceSize(self, dims, keepDims, dtype, out)``: out = the sum of self
    over ``dims`` (empty: every axis), computed in ``dtype``, which must be out's dtype.

    >>> import numpy as np, aclsim
    >>> from aclsim import aclnn
    >>> from aclsim.aclnn.ops.reduction import reduce_sum, reduce_sum_get_workspace_size
    >>> aclsim.init(chip="tiny"); aclsim.set_device(0)
    >>> x = aclnn.Tensor.from_numpy(np.arange(6, dtype=np.float32).reshape(2, 3))
    >>> y = aclnn.Tensor.empty((3,), np.float32)
    >>> _ = reduce_sum(None, *reduce_sum_get_workspace_size(x, [0], False, aclnn.DataType.ACL_FLOAT, y), None)
    >>> aclsim.synchronize_device(); y.numpy().tolist()
    [3.0, 5.0, 7.0]
    >>> x.free(); y.free(); aclsim.reset_device(0); _ = aclsim.finalize()
    """
    op = "ReduceSum"
    self, rdims, out = _reduce_args(op, self, dims, out, "dims")
    dt = _dtype_arg(op, dtype)
    check_dtype(op, "self", self.data_type, SUM_DTYPES)
    check_dtype(op, "dtype", dt, SUM_DTYPES)
    check_dtype(op, "out", out.data_type, SUM_DTYPES)
    if out.data_type != dt:
        raise AclnnParamInvalidError(f"{op}: out has dtype {out.data_type.name}, dtype says {dt.name}",
                                     hint="dtype must equal out's dtype")
    if self.numel == 0 and is_complex(dt):
        raise AclnnParamInvalidError(f"{op}: self is empty and out is {dt.name}: the zeros of an empty sum "
                                     "are not filled into a complex out (documented for the device)",
                                     hint="give out a real dtype, or reduce a non-empty self")
    _check_out_shape(op, self, rdims, keep_dims, out)
    return _reduce(op, "sum", self, rdims, dt, out, 0)


def amax_get_workspace_size(self: AclTensor, dim: Any, keep_dim: bool, out: AclTensor
                            ) -> tuple[int, Executor]:
    """``aclnnAmaxGetWorkspaceSize(self, dim, keepDim, out)``: out = the maximum of self over
    ``dim`` (empty: every axis); out's dtype is self's; a size-0 reduced dim is refused (161002)."""
    op = "Amax"
    self, rdims, out = _reduce_args(op, self, dim, out, "dim")
    check_dtype(op, "self", self.data_type, AMAX_DTYPES)
    if out.data_type != self.data_type:
        raise AclnnParamInvalidError(f"{op}: out has dtype {out.data_type.name}, self {self.data_type.name}",
                                     hint="give out self's dtype")
    if self.rank and any(self.view_dims[a] == 0 for a in rdims):
        raise AclnnParamInvalidError(f"{op}: self {list(self.view_dims)} is reduced over a size-0 dim "
                                     f"(dim {list(rdims)}): a maximum of nothing",
                                     hint="reduce non-empty dims")
    _check_out_shape(op, self, rdims, keep_dim, out)
    return _reduce(op, "max", self, rdims, self.data_type, out, 0)


def mean_get_workspace_size(self: AclTensor, dim: Any, keep_dim: bool, dtype: DataType | int,
                            out: AclTensor) -> tuple[int, Executor]:
    """``aclnnMeanGetWorkspaceSize(self, dim, keepDim, dtype, out)``: out = the mean of self over
    ``dim`` (empty: every axis) computed in ``dtype`` (self is cast to it, the mean cast to out's
    dtype); an empty self gives NaN."""
    op = "Mean"
    self, rdims, out = _reduce_args(op, self, dim, out, "dim")
    dt = _dtype_arg(op, dtype)
    check_dtype(op, "self", self.data_type, MEAN_DTYPES)
    check_dtype(op, "dtype", dt, MEAN_DTYPES)
    check_dtype(op, "out", out.data_type, MEAN_DTYPES)
    check_castable(op, self.data_type, "dtype", dt)
    check_castable(op, dt, "out", out.data_type)
    _check_out_shape(op, self, rdims, keep_dim, out)
    nan = is_floating(out.data_type) or is_complex(out.data_type)  # 0xFF... bytes: NaN (NaN + NaNj)
    return _reduce(op, "mean", self, rdims, dt, out, NAN_BYTE if nan else 0)


# --- Softmax, LogSoftmax ------------------------------------------------------------------------


def _softmax(op: str, self: Any, dim: Any, out: Any, log: bool) -> tuple[int, Executor]:
    self, out = operands(self, out)
    require(op, ("self", self), ("out", out))
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
        raise AclnnParamInvalidError(f"{op}: dim must be an int, got {dim!r}")
    check_rank(op, "self", self, 1 if log else 0, MAX_RANK)
    check_dtype(op, "self", self.data_type, SOFTMAX_DTYPES)
    check_dtype(op, "out", out.data_type, SOFTMAX_DTYPES)
    n = max(self.rank, 1)
    if not -n <= int(dim) < n:
        raise AclnnParamInvalidError(
            f"{op}: dim {int(dim)} is outside [{-n}, {n - 1}] for a rank-{self.rank} self")
    check_shape(op, "out", out, tuple(self.view_dims), "the shape of self")
    check_out_view(op, "out", out)
    b = OpBuilder(op)
    src_ref, out_ref = b.input(self), b.output(out)
    if self.numel == 0:
        return b.finish()
    if needs_aicpu(self.data_type, out.data_type):
        axis = int(dim) % n if self.rank else None
        compute = np.dtype(np.float64 if self.data_type == D.ACL_DOUBLE else np.float32)
        aicpu.plan_whole(b, op, src_ref, self, out_ref, out, compute, lambda x: _softmax_np(x, axis, log))
        return b.finish()
    plan = plan_softmax(self.view_dims, int(dim), self.dtype, b.chip, log=log, out_dtype=out.dtype)
    dst, done = result_buffer(b, out_ref, out, out.dtype)
    # out is self element for element: safe in place, each element is loaded (in the tile that
    # stores it, by the core that stores it) before its store; any other overlap is staged
    src = stage_input(b, src_ref, self, copy=done and must_stage(self, [out], inplace=out))
    b.launch(softmax_kernel(plan), plan.block_dim, src, dst)
    if not done:
        deliver(b, dst, out.dtype, out_ref, out)
    return b.finish()


def _softmax_np(x: np.ndarray, axis: int | None, log: bool) -> np.ndarray:
    """The AI CPU kernel of Softmax / LogSoftmax along ``axis`` (``None``: a rank-0 self), max-subtracted."""
    shifted = x - x.max(axis=axis, keepdims=True)
    total = np.exp(shifted).sum(axis=axis, keepdims=True)
    return shifted - np.log(total) if log else np.exp(shifted) / total


def softmax_get_workspace_size(self: AclTensor, dim: int, out: AclTensor) -> tuple[int, Executor]:
    """``aclnnSoftmaxGetWorkspaceSize(self, dim, out)``: out = exp(x - max) / sum(exp(x - max))
    along ``dim`` (rank 0..8; out a float dtype, same shape)."""
    return _softmax("Softmax", self, dim, out, False)


def log_softmax_get_workspace_size(self: AclTensor, dim: int, out: AclTensor) -> tuple[int, Executor]:
    """``aclnnLogSoftmaxGetWorkspaceSize(self, dim, out)``: out = x - max - ln(sum(exp(x - max)))
    along ``dim`` (rank 1..8; out a float dtype, same shape)."""
    return _softmax("LogSoftmax", self, dim, out, True)


reduce_sum = amax = mean = softmax = log_softmax = run
register_op("ReduceSum", reduce_sum_get_workspace_size)
register_op("Amax", amax_get_workspace_size)
register_op("Mean", mean_get_workspace_size)
register_op("Softmax", softmax_get_workspace_size)
register_op("LogSoftmax", log_softmax_get_workspace_size)
