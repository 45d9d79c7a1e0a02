"""The matmul ops: Matmul (ranks 1-6, batch broadcast), Mm (2-D) and BatchMatMul (3-D), on the
cube kernel of ``aclnn/kernels/matmul.py`` (reference section 6.7; ops-nn ``aclnnMatmul.md``,
``aclnnMm.md``, ``aclnnBatchMatMul.md``).

Phase one validates, then plans the launches:

- each operand is read where it lies when its last two dims are rows of contiguous elements
  (``MatLayout``) or columns of contiguous elements (a transposed view: ``MatLayout(trans=True)``,
  read as A^T / B^T by the kernel, no copy); any other view is first copied contiguous into
  the workspace by the view_copy kernel (aclnn's Contiguous);
- batch dims broadcast; the trailing batch dims whose strides collapse into one batch stride on
  every operand go to one launch (a batch stride of 0 broadcasts), the leading ones (if any)
  give one launch per index;
- ``self`` and ``mat2`` of different dtypes (float16 with float32) are cast to the promoted dtype
  (float16 for ``cubeMathType`` USE_FP16) in the workspace by the elementwise template; the
  plan's own conversions (``MatmulPlan.prep``: float16 copies for USE_FP16 on float32, the
  transposed float32 copies) are done on the device the same way;
- an ``out`` whose rows are not contiguous gets the result through the workspace and a
  view_copy; K == 0 fills ``out`` with zeros; an empty ``out`` plans nothing (workspace 0);
- an operand whose memory meets an ``out`` written in place is first copied contiguous into
  the workspace (the result is computed from the old values, as the device's graph does).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from aclsim.aclnn.checks import (
    check_castable,
    check_dtype,
    check_rank,
    check_shape,
    operands,
    overlaps,
    require,
)
from aclsim.aclnn.dtypes import DataType, promote_types
from aclsim.aclnn.executor import Executor, OpBuilder, Ref, register_op, run
from aclsim.aclnn.kernels.elementwise import elementwise_kernel, plan_elementwise
from aclsim.aclnn.kernels.matmul import CubeMathType, MatLayout, matmul_kernel, plan_matmul
from aclsim.aclnn.kernels.movement import contiguous_strides, plan_view_copy, view_copy_kernel
from aclsim.aclnn.meta import AclTensor
from aclsim.aclnn.ops.elementwise import stage_contiguous
from aclsim.errors import AclnnParamInvalidError

D = DataType
#: the dtypes of self, mat2 and out (A2)
MM_DTYPES = (D.ACL_FLOAT, D.ACL_FLOAT16, D.ACL_BF16)
MAX_MATMUL_RANK = 6
F16 = np.dtype(np.float16)

__all__ = [
    "batch_mat_mul",
    "batch_mat_mul_get_workspace_size",
    "matmul",
    "matmul_get_workspace_size",
    "mm",
    "mm_get_workspace_size",
]


@dataclass(frozen=True)
class _Mat:
    """An operand as the matmul reads it: ``rows x cols`` with row / column strides ``rs`` / ``cs``
    (elements), ``bstrides`` over the output's batch dims (0 where it broadcasts), its dtype and
    the ref of its first element."""

    ref: Ref
    dtype: np.dtype
    rows: int
    cols: int
    rs: int
    cs: int
    bstrides: tuple[int, ...]


def _cube_math_type(op: str, value: Any) -> CubeMathType:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise AclnnParamInvalidError(f"{op}: cubeMathType must be an int8, got {value!r}")
    if not 0 <= int(value) <= 4:
        raise AclnnParamInvalidError(
            f"{op}: cubeMathType {int(value)} is not one of 0 KEEP_DTYPE, 1 ALLOW_FP32_DOWN_PRECISION, "
            "2 USE_FP16, 3 USE_HF32, 4 USE_FP32_ADD"
        )
    return CubeMathType(int(value))


def _check_dtypes(op: str, self: AclTensor, mat2: AclTensor, out: AclTensor) -> DataType:
    """The promoted dtype of self and mat2 (161002 for a dtype the cube cannot take, bf16 mixed
    with f16 / f32 (refused on A2), a result ``out`` cannot hold)."""
    for name, t in (("self", self), ("mat2", mat2), ("out", out)):
        check_dtype(op, name, t.data_type, MM_DTYPES)
    a, b = self.data_type, mat2.data_type
    if a != b and D.ACL_BF16 in (a, b):
        raise AclnnParamInvalidError(
            f"{op}: self is {a.name} and mat2 {b.name}: Atlas A2 does not promote bfloat16 with "
            "float16 or float32 in the matmul family",
            hint="cast both to the same dtype first",
        )
    promoted = promote_types(a, b)
    assert promoted is not None
    check_castable(op, promoted, "out", out.data_type)
    return promoted


def _batch_shape(op: str, a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    """The broadcast of the batch dims of self (``a``) and mat2 (``b``)."""
    rank = max(len(a), len(b))
    pa, pb = (1,) * (rank - len(a)) + tuple(a), (1,) * (rank - len(b)) + tuple(b)
    out = []
    for i, (x, y) in enumerate(zip(pa, pb, strict=True)):
        if x != y and 1 not in (x, y):
            raise AclnnParamInvalidError(
                f"{op}: the batch dims of self {list(a)} and mat2 {list(b)} cannot be broadcast: "
                f"dim {i - rank} is {x} against {y}",
                hint="batch sizes must be equal or 1",
            )
        out.append(max(x, y) if min(x, y) else 0)
    return tuple(out)


def _out_shape(op: str, self: AclTensor, mat2: AclTensor) -> tuple[tuple[int, ...], int, int, int]:
    """(batch shape, m, k, n) of ``self @ mat2`` with the 1-D rules of aclnnMatmul."""
    sd, md = list(self.view_dims), list(mat2.view_dims)
    k = sd[-1]
    k2 = md[0] if len(md) == 1 else md[-2]
    if k != k2:
        raise AclnnParamInvalidError(
            f"{op}: the last dim of self ({k}) and the {'only' if len(md) == 1 else 'second to last'} dim "
            f"of mat2 ({k2}) differ (self {sd}, mat2 {md})",
            hint="K must match",
        )
    m = 1 if len(sd) == 1 else sd[-2]
    n = 1 if len(md) == 1 else md[-1]
    return _batch_shape(op, sd[:-2], md[:-2]), m, k, n


def _bstrides(dims: Sequence[int], strides: Sequence[int], batch: Sequence[int]) -> tuple[int, ...]:
    """Strides of the batch dims ``dims`` over the output's ``batch`` (0 where they broadcast)."""
    pad = len(batch) - len(dims)
    return (0,) * pad + tuple(0 if d == 1 else int(s) for d, s in zip(dims, strides, strict=True))


def _operand(ref: Ref, t: AclTensor, strides: Sequence[int], batch: Sequence[int], second: bool) -> _Mat:
    """``t`` (self, or mat2 with ``second``) as a matrix operand; 1-D: (1, K) for self, (K, 1) for mat2."""
    dims = list(t.view_dims)
    if len(dims) == 1:
        if second:
            return _Mat(ref, t.dtype, dims[0], 1, int(strides[0]), 1, (0,) * len(batch))
        return _Mat(ref, t.dtype, 1, dims[0], dims[0], int(strides[0]), (0,) * len(batch))
    bst = _bstrides(dims[:-2], strides[:-2], batch)
    return _Mat(ref, t.dtype, dims[-2], dims[-1], int(strides[-2]), int(strides[-1]), bst)


def _layout(x: _Mat) -> MatLayout | None:
    """The kernel's layout of ``x``'s matrix (without its batch stride), or ``None`` when neither
    its rows nor its columns are contiguous (the operand must be copied contiguous first)."""
    if (x.cols == 1 or x.cs == 1) and (x.rows == 1 or x.rs >= max(x.cols, 1)):
        return MatLayout(False, x.rs if x.rows > 1 else 0, 0).resolved(x.rows, x.cols)
    if (x.rows == 1 or x.rs == 1) and (x.cols == 1 or x.cs >= max(x.rows, 1)):
        return MatLayout(True, x.cs if x.cols > 1 else 0, 0).resolved(x.rows, x.cols)
    return None


def _collapse(batch: Sequence[int], strides: Sequence[Sequence[int]]) -> int:
    """The first of the trailing batch dims that collapse into one stride on every operand."""
    j = len(batch)
    while j > 0:
        if j < len(batch) and any(s[j - 1] != s[j] * batch[j] for s in strides):
            break
        j -= 1
    return j


def _strides3(lay: MatLayout, nb: int) -> tuple[int, int, int]:
    """Element strides of a (batch, rows, cols) operand laid out as ``lay``."""
    bs = lay.batch_stride if nb > 1 else 0
    return (bs, 1, lay.ld) if lay.trans else (bs, lay.ld, 1)


def _swap(t: tuple[int, int, int]) -> tuple[int, int, int]:
    return t[0], t[2], t[1]


def _convert(b: OpBuilder, src: Ref, shape: tuple[int, int, int], dtype: np.dtype, lay: MatLayout,
             new_dtype: np.dtype, new: MatLayout, tmp: Ref) -> None:
    """Plan the copy of a (batch, rows, cols) operand laid out as ``lay`` into ``tmp`` as ``new``:
    a view_copy when only the layout changes, the elementwise template when the dtype does."""
    s_st, d_st = _strides3(lay, shape[0]), _strides3(new, shape[0])
    if new_dtype == dtype:
        plan = plan_view_copy(shape, dtype, s_st, 0, d_st, 0, b.chip)
        b.launch(view_copy_kernel(plan), plan.block_dim, src, tmp)
        return
    if lay.trans:  # walk the storage order, so both sides have inner stride 1
        shape, s_st, d_st = (_swap(x) for x in (shape, s_st, d_st))
    f32 = np.dtype(np.float32)
    ew = plan_elementwise(shape, [(dtype, s_st)], (new_dtype, d_st), f32, b.chip)
    b.launch(elementwise_kernel(ew, lambda d, s, t, n: s[0], "matmul_cast"), ew.block_dim, src, tmp)


@dataclass
class _Call:
    """Everything one Matmul / Mm / BatchMatMul call plans with."""

    op: str
    b: OpBuilder
    a: _Mat
    m2: _Mat
    c: _Mat
    k: int
    batch: tuple[int, ...]
    cmt: CubeMathType


def _contiguous(x: _Mat) -> bool:
    return _layout(x) is not None


def _writable(c: _Mat) -> bool:
    """Whether the kernel's fixpipe can write ``c`` in place: rows of contiguous elements."""
    return (c.cols == 1 or c.cs == 1) and (c.rows == 1 or c.rs >= c.cols)


def _plan_launches(call: _Call) -> None:
    """Plan the cube launches (and their operand conversions) over the batch dims."""
    b, a, m2, c = call.b, call.a, call.m2, call.c
    keep = [i for i, d in enumerate(call.batch) if d > 1]
    sizes = [call.batch[i] for i in keep]
    st = [[x.bstrides[i] for i in keep] for x in (a, m2, c)]
    j = _collapse(sizes, st)
    inner = math.prod(sizes[j:])
    bsa, bsb, bsc = (s[-1] if j < len(sizes) else 0 for s in st)
    la = replace(_layout(a) or MatLayout(), batch_stride=bsa if inner > 1 else 0)
    lb = replace(_layout(m2) or MatLayout(), batch_stride=bsb if inner > 1 else 0)
    # self and mat2 of different dtypes: both in the promoted dtype (float16 under USE_FP16)
    kdt = a.dtype
    if a.dtype != m2.dtype:
        kdt = F16 if call.cmt is CubeMathType.USE_FP16 else np.dtype(np.float32)
    casts: list[tuple[int, _Mat, MatLayout, MatLayout, Ref] | None] = []
    for x, lay in ((a, la), (m2, lb)):
        if x.dtype != kdt:
            nb = inner if lay.batch_stride else 1
            new = MatLayout(lay.trans, 0, x.rows * x.cols if nb > 1 else 0).resolved(x.rows, x.cols)
            casts.append((nb, x, lay, new, b.workspace(nb * x.rows * x.cols * kdt.itemsize)))
        else:
            casts.append(None)
    la2 = casts[0][3] if casts[0] else la
    lb2 = casts[1][3] if casts[1] else lb
    plan = plan_matmul(a.rows, call.k, m2.cols, inner, kdt, c.dtype, la2, lb2, call.cmt, b.chip,
                       c_ld=c.rs if c.rows > 1 else c.cols, c_batch_stride=bsc if inner > 1 else 0)
    preps = [(p, b.workspace(p.nbytes)) for p in plan.prep]
    kern = matmul_kernel(plan)
    for idx in itertools.product(*(range(s) for s in sizes[:j])):
        offs = [sum(i * s for i, s in zip(idx, x[:j], strict=True)) for x in st]
        refs = [x.ref + off * x.dtype.itemsize for x, off in zip((a, m2, c), offs, strict=True)]
        lays = [la2, lb2]
        for i, cst in enumerate(casts):
            if cst is not None:
                nb, x, lay, new, tmp = cst
                _convert(b, refs[i], (nb, x.rows, x.cols), x.dtype, lay, kdt, new, tmp)
                refs[i] = tmp
        for p, tmp in preps:
            i = 0 if p.operand == "a" else 1
            x = a if i == 0 else m2
            nb = inner if lays[i].batch_stride else 1
            _convert(b, refs[i], (nb, x.rows, x.cols), kdt, lays[i], p.dtype, p.layout, tmp)
            refs[i] = tmp
        b.launch(kern, plan.block_dim, *refs)


def _phase_one(op: str, self: Any, mat2: Any, out: Any, cube_math_type: Any,
               ranks: tuple[int, int] | None) -> tuple[int, Executor]:
    """Validate and plan one call; ``ranks`` (lo, hi) for Matmul, ``None``: all three of rank 2 / 3."""
    self, mat2, out = operands(self, mat2, out)
    require(op, ("self", self), ("mat2", mat2), ("out", out))
    cmt = _cube_math_type(op, cube_math_type)
    _check_dtypes(op, self, mat2, out)
    lo, hi = ranks if ranks is not None else (2 if op == "Mm" else 3,) * 2
    check_rank(op, "self", self, lo, hi)
    check_rank(op, "mat2", mat2, lo, hi)
    if ranks is None:
        check_rank(op, "out", out, lo, hi)
    batch, m, k, n = _out_shape(op, self, mat2)
    shape = batch + ((m,) if self.rank > 1 else ()) + ((n,) if mat2.rank > 1 else ())
    check_shape(op, "out", out, shape, "self @ mat2")
    if any(s == 0 for d, s in zip(out.view_dims, out.strides, strict=True) if d > 1):
        raise AclnnParamInvalidError(f"{op}: out has stride 0 on a dim of size > 1 (its elements overlap)")
    if self.rank == 1 and mat2.rank == 1:
        cmt = CubeMathType.KEEP_DTYPE  # documented: cubeMathType has no effect on 1-D x 1-D
    b = OpBuilder(op)
    ra, rb, rc = b.input(self), b.input(mat2), b.output(out)
    # validate cubeMathType against the dtypes now, also for the calls that plan no launch
    kdt = self.dtype if self.data_type == mat2.data_type else np.dtype(np.float32)
    plan_matmul(0, 0, 0, 1, kdt, out.dtype, MatLayout(), MatLayout(), cmt, b.chip)
    if out.numel == 0:
        return b.finish()
    _plan_out(b, ra, rb, rc, self, mat2, out, batch, k, cmt, op)
    return b.finish()


def _plan_out(b: OpBuilder, ra: Ref, rb: Ref, rc: Ref, self: AclTensor, mat2: AclTensor, out: AclTensor,
              batch: tuple[int, ...], k: int, cmt: CubeMathType, op: str) -> None:
    """Plan the steps of a non-empty call: stage views, launch (or fill for K == 0), ViewCopy out."""
    c_strides = tuple(out.strides)
    dense = all(s == c for d, s, c in zip(out.view_dims, c_strides, contiguous_strides(out.view_dims),
                                          strict=True) if d > 1)
    c = _out_mat(rc, out, c_strides, batch, self.rank, mat2.rank)
    staged_out = (not dense) if k == 0 else not _writable(c)
    dst = rc
    if staged_out:
        dst = b.workspace(out.numel * out.itemsize)
        c_strides = contiguous_strides(out.view_dims)
        c = _out_mat(dst, out, c_strides, batch, self.rank, mat2.rank)
    if k == 0:
        b.fill(dst, 0, out.numel * out.itemsize)
    else:
        mats = []
        for ref, t, second in ((ra, self, False), (rb, mat2, True)):
            x = _operand(ref, t, t.strides, batch, second)
            # an operand meeting an out the cube writes in place is read from a copy (the cores'
            # fixpipe stores of C tiles would meet other cores' and later batches' loads)
            if not _contiguous(x) or (not staged_out and overlaps(t, out)):
                x = _operand(stage_contiguous(b, ref, t), t, contiguous_strides(t.view_dims), batch, second)
            mats.append(x)
        _plan_launches(_Call(op, b, mats[0], mats[1], c, k, batch, cmt))
    if staged_out:
        vc = plan_view_copy(out.view_dims, out.dtype, contiguous_strides(out.view_dims), 0, out.strides, 0,
                            b.chip)
        b.launch(view_copy_kernel(vc), vc.block_dim, dst, rc)


def _out_mat(ref: Ref, out: AclTensor, strides: Sequence[int], batch: tuple[int, ...], r1: int,
             r2: int) -> _Mat:
    """``out`` as an m x n matrix over the batch dims (a missing M or N dim is of size 1)."""
    nb = len(batch)
    dims, st = list(out.view_dims[nb:]), list(strides[nb:])
    m, rs = (dims.pop(0), st.pop(0)) if r1 > 1 else (1, 0)
    n, cs = (dims.pop(0), st.pop(0)) if r2 > 1 else (1, 1)
    rs = rs if m > 1 else n
    return _Mat(ref, out.dtype, m, n, int(rs), int(cs), _bstrides(batch, strides[:nb], batch))


def matmul_get_workspace_size(self: Any, mat2: Any, out: Any, cube_math_type: int) -> tuple[int, Executor]:
    """``aclnnMatmulGetWorkspaceSize(self, mat2, out, cubeMathType)``: out = self @ mat2 (ranks 1-6,
    batch dims broadcast; a 1-D self (K) is (1, K) with M dropped from out, a 1-D mat2 (K) is
    (K, 1) with N dropped; transposed views are read in place).

    >>> import numpy as np, aclsim
    >>> from aclsim.aclnn import Tensor
    >>> aclsim.init(chip="tiny"); aclsim.set_device(0)
    >>> a = Tensor.from_numpy(np.ones((2, 3), np.float16)); b = Tensor.from_numpy(np.ones(3, np.float16))
    >>> c = Tensor.empty((2,), np.float16)
    >>> ws, ex = matmul_get_workspace_size(a, b, c, 0); _ = matmul(None, ws, ex, None)
    >>> c.numpy().tolist()
    [3.0, 3.0]
    >>> for t in (a, b, c): t.free()
    >>> aclsim.reset_device(0); _ = aclsim.finalize()
    """
    return _phase_one("Matmul", self, mat2, out, cube_math_type, (1, MAX_MATMUL_RANK))


def mm_get_workspace_size(self: Any, mat2: Any, out: Any, cube_math_type: int) -> tuple[int, Executor]:
    """``aclnnMmGetWorkspaceSize(self, mat2, out, cubeMathType)``: out = self @ mat2, all three 2-D."""
    return _phase_one("Mm", self, mat2, out, cube_math_type, None)


def batch_mat_mul_get_workspace_size(
    self: Any, mat2: Any, out: Any, cube_math_type: int
) -> tuple[int, Executor]:
    """``aclnnBatchMatMulGetWorkspaceSize(self, mat2, out, cubeMathType)``: [B, M, K] x [B, K, N]
    -> [B, M, N], all three 3-D; a batch of 1 on either side broadcasts."""
    return _phase_one("BatchMatMul", self, mat2, out, cube_math_type, None)


def matmul(workspace: Any, workspace_size: int, executor: Executor | None, stream: Any) -> Any:
    """``aclnnMatmul``: phase two."""
    return run(workspace, workspace_size, executor, stream)


def mm(workspace: Any, workspace_size: int, executor: Executor | None, stream: Any) -> Any:
    """``aclnnMm``: phase two."""
    return run(workspace, workspace_size, executor, stream)


def batch_mat_mul(workspace: Any, workspace_size: int, executor: Executor | None, stream: Any) -> Any:
    """``aclnnBatchMatMul``: phase two."""
    return run(workspace, workspace_size, executor, stream)


register_op("Matmul", matmul_get_workspace_size)
register_op("Mm", mm_get_workspace_size)
register_op("BatchMatMul", batch_mat_mul_get_workspace_size)
#: the public names of this module
PUBLIC = tuple(__all__)
