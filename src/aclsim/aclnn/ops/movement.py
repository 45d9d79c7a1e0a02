"""The data-movement ops: Permute, Slice and InplaceCopy (reference 6.8, ops-math's
``aclnn_permute.cpp``, ``aclnn_slice.cpp`` and ``aclnn_copy.cpp``).

Each op is one strided copy (``view_copy``, ``aclnn/kernels/movement.py``) from a view of its
input straight into its (possibly strided) output: the device's chain ``Contiguous`` ->
``Transpose`` / ``StridedSliceV3`` / ``BroadcastTo`` -> ``ViewCopy`` moves the same elements
through workspace intermediates, aclsim's strided copy reads the input view in place, so the
workspace is 0 unless the input and the output overlap in memory (then the input is first
copied into the workspace, as the device's intermediates would hold it).  InplaceCopy with a
dtype change is one launch of the elementwise template (the body of Cast), with the staging
copies the template needs (an input whose innermost stride is neither 0 nor 1 is made
contiguous in the workspace; a ``selfRef`` whose innermost stride is not 1 receives the cast
result through a workspace copy).

>>> from aclsim.aclnn.ops.movement import PERMUTE_DTYPES
>>> len(PERMUTE_DTYPES)
15
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from aclsim.aclnn import aicpu
from aclsim.aclnn.checks import (
    check_dtype,
    check_shape,
    operands,
    overlaps,
    partly_overlaps,
    require,
)
from aclsim.aclnn.dtypes import DataType, is_complex
from aclsim.aclnn.executor import Executor, OpBuilder, Ref, register_op, run
from aclsim.aclnn.kernels.elementwise import collapse, elementwise_kernel, plan_elementwise
from aclsim.aclnn.kernels.movement import (
    MAX_RANK,
    View,
    broadcast_view,
    contiguous_strides,
    permute_shape,
    permute_view,
    plan_view_copy,
    slice_view,
    view_copy_kernel,
)
from aclsim.aclnn.meta import AclIntArray, AclTensor, create_int_array
from aclsim.aclnn.ops.elementwise import KERNEL_DTYPES, needs_aicpu
from aclsim.errors import AclnnParamInvalidError

__all__ = [
    "CAST_DTYPES",
    "COPY_DTYPES",
    "PERMUTE_DTYPES",
    "SLICE_DTYPES",
    "inplace_copy",
    "inplace_copy_get_workspace_size",
    "permute",
    "permute_get_workspace_size",
    "slice_",
    "slice_get_workspace_size",
]

D = DataType
#: aclnnPermute's A2 dtypes (every one moves through view_copy)
PERMUTE_DTYPES = (
    D.ACL_FLOAT,
    D.ACL_FLOAT16,
    D.ACL_DOUBLE,
    D.ACL_UINT64,
    D.ACL_INT64,
    D.ACL_UINT32,
    D.ACL_INT32,
    D.ACL_UINT16,
    D.ACL_INT16,
    D.ACL_UINT8,
    D.ACL_INT8,
    D.ACL_BOOL,
    D.ACL_COMPLEX64,
    D.ACL_COMPLEX128,
    D.ACL_BF16,
)
#: aclnnSlice's A2 dtypes
SLICE_DTYPES = (
    D.ACL_FLOAT,
    D.ACL_FLOAT16,
    D.ACL_BF16,
    D.ACL_INT32,
    D.ACL_INT64,
    D.ACL_INT8,
    D.ACL_UINT8,
    D.ACL_BOOL,
)
#: aclnnInplaceCopy's A2 dtypes (a copy within one dtype moves any of them)
COPY_DTYPES = (
    D.ACL_INT8,
    D.ACL_INT16,
    D.ACL_INT32,
    D.ACL_INT64,
    D.ACL_UINT8,
    D.ACL_FLOAT16,
    D.ACL_FLOAT,
    D.ACL_BOOL,
    D.ACL_DOUBLE,
    D.ACL_COMPLEX64,
    D.ACL_COMPLEX128,
    D.ACL_UINT16,
    D.ACL_UINT32,
    D.ACL_UINT64,
    D.ACL_BF16,
)
#: the dtypes InplaceCopy converts between on the AI Core (the elementwise template's vector
#: kernels); a conversion involving another dtype runs on the AI CPU (aclnn/aicpu.py)
CAST_DTYPES = KERNEL_DTYPES
F32 = np.dtype(np.float32)


def _named(op: str, fn: Callable[..., Any], *args: Any) -> Any:
    """Call a shape rule of the kernels module; its 161002 gets the op's name in front."""
    try:
        return fn(*args)
    except AclnnParamInvalidError as exc:
        raise AclnnParamInvalidError(f"{op}: {exc.message}", hint=exc.hint) from None


def _same_dtype(op: str, self: AclTensor, out: AclTensor, names: tuple[str, str] = ("self", "out")) -> None:
    if out.data_type != self.data_type:
        raise AclnnParamInvalidError(
            f"{op}: {names[1]} has dtype {out.data_type.name}, {names[0]} {self.data_type.name}",
            hint=f"give {names[1]} the dtype of {names[0]}",
        )


def _distinct(op: str, name: str, t: AclTensor) -> None:
    """161002 for a written tensor that holds one element at several indices (stride 0)."""
    for i, (n, s) in enumerate(zip(t.view_dims, t.strides, strict=True)):
        if s == 0 and n > 1 and t.numel:
            raise AclnnParamInvalidError(
                f"{op}: {name} has stride 0 on dim {i} of size {n}: its elements overlap",
                hint=f"write into a {name} whose elements are distinct (aclsim refuses what the device "
                "leaves undefined)",
            )


def _copy(b: OpBuilder, src: Ref, view: View, dst: Ref, dst_strides: Sequence[int], dtype: np.dtype) -> None:
    """Plan one view copy: ``view`` (strides from ``src``'s first element) into ``dst``."""
    plan = plan_view_copy(view.shape, dtype, view.strides, view.offset, dst_strides, 0, b.chip)
    if plan.block_dim:
        b.launch(view_copy_kernel(plan), plan.block_dim, src, dst)


def _stage(b: OpBuilder, ref: Ref, t: AclTensor) -> Ref:
    """A contiguous copy of ``t``'s view in the workspace (aclnn's Contiguous); its ref."""
    ws = b.workspace(t.numel * t.itemsize)
    _copy(b, ref, View(tuple(t.view_dims), tuple(t.strides)), ws, contiguous_strides(t.view_dims), t.dtype)
    return ws


def _tensor_view(t: AclTensor) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    return tuple(t.view_dims), tuple(t.strides), 0


def _moved(
    op: str,
    self: AclTensor,
    out: AclTensor,
    view_of: Callable[[tuple[int, ...], tuple[int, ...], int], View],
) -> tuple[int, Executor]:
    """Plan ``out = view_of(self)``: one view copy, through the workspace when they overlap."""
    b = OpBuilder(op)
    src, dst = b.input(self), b.output(out)
    if self.numel == 0 or out.numel == 0:
        return b.finish()
    strides = tuple(self.strides)
    if overlaps(self, out):
        src, strides = _stage(b, src, self), contiguous_strides(self.view_dims)
    _copy(b, src, view_of(tuple(self.view_dims), strides, 0), dst, out.strides, self.dtype)
    return b.finish()


# --- Permute ---------------------------------------------------------------------------------------


def permute_get_workspace_size(
    self: AclTensor, dims: AclIntArray | Sequence[int], out: AclTensor
) -> tuple[int, Executor]:
    """``aclnnPermuteGetWorkspaceSize(self, dims, out)``: out = self with its dims reordered by
    ``dims`` (``[2, 3, 5]``, dims ``(2, 0, 1)`` -> ``[5, 2, 3]``); negative dims count from the
    end; rank 0..8; out's dtype is self's; strided self and out.

    161001: self, dims or out is None.  161002: a dtype outside the list or out's dtype not
    self's, rank over 8, dims not a permutation of self's dims (length, range, repeats), out's
    shape not the permuted shape, out with overlapping elements.
    """
    op = "Permute"
    self, out = operands(self, out)
    if isinstance(dims, (list, tuple, range, np.ndarray)):
        dims = create_int_array(dims)
    require(op, ("self", self), ("dims", dims), ("out", out), kinds={"dims": AclIntArray})
    assert self is not None and out is not None and isinstance(dims, AclIntArray)
    check_dtype(op, "self", self.data_type, PERMUTE_DTYPES)
    check_dtype(op, "out", out.data_type, PERMUTE_DTYPES)
    _same_dtype(op, self, out)
    perm = tuple(dims.values)
    shape = _named(op, permute_shape, self.view_dims, perm)
    check_shape(op, "out", out, shape, f"self's shape {list(self.view_dims)} permuted by dims {list(perm)}")
    _distinct(op, "out", out)
    return _moved(op, self, out, lambda shp, st, off: permute_view(shp, st, off, perm))


def permute(workspace: Any, workspace_size: int, executor: Executor | None, stream: Any) -> Any:
    """``aclnnPermute``: phase two."""
    return run(workspace, workspace_size, executor, stream)


# --- Slice -----------------------------------------------------------------------------------------


def slice_get_workspace_size(
    self: AclTensor, dim: int, start: int, end: int, step: int, out: AclTensor
) -> tuple[int, Executor]:
    """``aclnnSliceGetWorkspaceSize(self, dim, start, end, step, out)``: the elements of ``self``
    from ``start`` to ``end`` (exclusive) by ``step`` along ``dim``, other dims whole.  With N
    the size of ``dim``: start -> 0 if < -N, N if >= N, else (start + N) mod N; end -> start if
    < -N, N if >= N, else max(start, (end + N) mod N); out's ``dim`` has ``(end - start + step -
    1) // step`` elements.  Rank 1..8; out's dtype is self's; strided self and out.

    161001: self or out is None.  161002: out's dtype not self's, a dtype outside the list,
    rank 0 or over 8, dim outside [-rank, rank - 1], step <= 0, out's shape not the slice's,
    out with overlapping elements.

    Phase two is :func:`slice_` (``slice`` is Python's builtin); the registry and the C face
    name the op ``Slice`` (``aclnnSliceGetWorkspaceSize``, ``aclnnSlice``).
    """
    op = "Slice"
    self, out = operands(self, out)
    require(op, ("self", self), ("out", out))
    assert self is not None and out is not None
    _same_dtype(op, self, out)
    check_dtype(op, "self", self.data_type, SLICE_DTYPES)
    view = _named(op, slice_view, self.view_dims, self.strides, 0, dim, start, end, step)
    check_shape(
        op,
        "out",
        out,
        view.shape,
        f"self's shape {list(self.view_dims)} sliced along dim {dim} from {start} to {end} by {step}",
    )
    _distinct(op, "out", out)
    return _moved(op, self, out, lambda shp, st, off: slice_view(shp, st, off, dim, start, end, step))


def slice_(workspace: Any, workspace_size: int, executor: Executor | None, stream: Any) -> Any:
    """``aclnnSlice``: phase two (named ``slice_``: ``slice`` is Python's builtin)."""
    return run(workspace, workspace_size, executor, stream)


# --- InplaceCopy -----------------------------------------------------------------------------------


def _check_copy(op: str, self_ref: AclTensor, src: AclTensor) -> View:
    """InplaceCopy's checks after the null ones; returns ``src``'s view broadcast to selfRef."""
    check_dtype(op, "selfRef", self_ref.data_type, COPY_DTYPES)
    check_dtype(op, "src", src.data_type, COPY_DTYPES)
    for name, t in (("selfRef", self_ref), ("src", src)):
        if t.rank > MAX_RANK:
            raise AclnnParamInvalidError(f"{op}: {name} has rank {t.rank}, more than {MAX_RANK}")
    view = _named(op, broadcast_view, src.view_dims, src.strides, 0, self_ref.view_dims)
    if is_complex(self_ref.data_type) and not self_ref.is_contiguous():
        raise AclnnParamInvalidError(
            f"{op}: a copy into a complex selfRef needs it contiguous (documented for the device), "
            f"selfRef has strides {list(self_ref.strides)}",
            hint="copy into a contiguous selfRef",
        )
    _distinct(op, "selfRef", self_ref)
    return view


def _inner_stride(shape: Sequence[int], strides: Sequence[int]) -> int:
    dims, (st,) = collapse(tuple(shape), [tuple(strides)])
    return st[-1] if dims[-1] > 1 else 1


def _cast_into(b: OpBuilder, src: Ref, view: View, self_ref: AclTensor, src_t: AclTensor, dst: Ref) -> None:
    """Plan ``selfRef = cast(src view)`` on the elementwise template (Cast's body and compute dtype)."""
    shape, out_dt = tuple(self_ref.view_dims), self_ref.dtype
    ws = None
    out_strides: tuple[int, ...] = tuple(self_ref.strides)
    if _inner_stride(shape, out_strides) != 1:  # the template would store element by element
        ws, out_strides = b.workspace(self_ref.numel * self_ref.itemsize), contiguous_strides(shape)
    in_dt = src_t.dtype if src_t.data_type != D.ACL_BOOL else np.dtype(np.uint8)
    compute = F32 if self_ref.data_type == D.ACL_BOOL else in_dt
    plan = plan_elementwise(shape, [(src_t.dtype, view.strides)], (out_dt, out_strides), compute, b.chip)
    b.launch(
        elementwise_kernel(plan, lambda d, s, t, n: s[0], "inplace_copy_cast"),
        plan.block_dim,
        src,
        dst if ws is None else ws,
    )
    if ws is not None:
        _copy(b, ws, View(shape, contiguous_strides(shape)), dst, self_ref.strides, out_dt)


def inplace_copy_get_workspace_size(self_ref: AclTensor, src: AclTensor) -> tuple[int, Executor]:
    """``aclnnInplaceCopyGetWorkspaceSize(selfRef, src)``: selfRef = src, ``src`` broadcast to
    selfRef's shape and converted to selfRef's dtype (float -> integer truncates toward zero,
    -> bool is ``!= 0``); strided selfRef and src; rank 0..8 (the device's code checks only
    the upper bound); a src that overlaps selfRef goes through the workspace.

    161001: selfRef or src is None.  161002: a dtype outside the list, rank over 8, src not
    broadcastable to selfRef, a complex copy into a non-contiguous selfRef (documented for
    the device), selfRef with overlapping elements.  A conversion involving float64, int64,
    uint16/32/64 or complex runs on the AI CPU (``aclnn/aicpu.py``).
    """
    op = "InplaceCopy"
    self_ref, src = operands(self_ref, src)
    require(op, ("selfRef", self_ref), ("src", src))
    assert self_ref is not None and src is not None
    view = _check_copy(op, self_ref, src)
    b = OpBuilder(op)
    dst = b.input(self_ref)  # selfRef is input 0 and src input 1, as the device's (no output)
    sref = b.input(src)
    if self_ref.numel == 0 or src.numel == 0:
        return b.finish()
    cast = self_ref.data_type != src.data_type
    if cast and needs_aicpu(self_ref.data_type, src.data_type):  # reads all of src before it writes
        aicpu.plan_map(b, "Cast", [(sref, src)], dst, self_ref, src.dtype, lambda x: x[0], self_ref.dtype)
        return b.finish()
    aliased = partly_overlaps(src, view.strides, self_ref, self_ref.strides, self_ref.view_dims)
    if aliased or (cast and _inner_stride(view.shape, view.strides) not in (0, 1)):
        sref = _stage(b, sref, src)
        view = broadcast_view(src.view_dims, contiguous_strides(src.view_dims), 0, self_ref.view_dims)
    if cast:
        _cast_into(b, sref, view, self_ref, src, dst)
    else:
        _copy(b, sref, view, dst, self_ref.strides, self_ref.dtype)
    return b.finish()


def inplace_copy(workspace: Any, workspace_size: int, executor: Executor | None, stream: Any) -> Any:
    """``aclnnInplaceCopy``: phase two."""
    return run(workspace, workspace_size, executor, stream)


register_op("Permute", permute_get_workspace_size)
register_op("Slice", slice_get_workspace_size)
register_op("InplaceCopy", inplace_copy_get_workspace_size)
#: the public names of this module (for the package to re-export)
PUBLIC = tuple(__all__)
