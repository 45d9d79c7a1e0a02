"""The dispatch table of ``acl.op``: GE op type -> the aclnn op that runs it.

``acl.op.execute_v2("Add", ...)`` finds ``OP_TABLE["Add"]``: how many inputs and outputs the
op type has (its GE ``REG_OP`` signature), the attributes it knows, and an adapter that calls
the aclnn op's phase one with the tensors built from the descriptions and buffers::

    "Add": OpSpec(2, 1, lambda x, y, a: nn("Add")(x[0], x[1], 1, y[0])),

``x`` are the input tensors (``AclTensor``, ``None`` for an absent optional input), ``y`` the
output tensors, ``a`` the op's attributes (:class:`Attrs`: ``a.get_float("value")``,
``a.get_int("dst_type")``, ``a.only("scale", 1.0)``; a missing required attribute is
``ACL_ERROR_OP_ATTR_NOT_MATCH``); ``nn(name)`` is the phase one of the aclnn op registered
under ``name``.  Adding an op type is one line in :data:`OP_TABLE` (or
``OP_TABLE["Foo"] = OpSpec(...)`` from another module).

An adapter returns one ``(workspace_size, executor)`` or a list of them, run in order on the
stream (LayerNorm's variance, MatMul's bias: more than one aclnn op per GE op).  ``a`` also
helps with what GE passes differently: ``a.int_values(x[1], "axes")`` reads a small int32/
int64 input tensor back to the host (``None`` while a handle is made, before any buffer), and
``a.view(t, dims, strides, offset)`` / ``a.transposed(t)`` make views of a tensor (freed with
the call).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from aclsim.aclnn import AclTensor, DataType, Executor, create_tensor, get_op, numpy_dtype
from aclsim.aclnn.dtypes import is_floating
from aclsim.errors import (
    ACL_ERROR_OP_ATTR_NOT_MATCH,
    ACL_ERROR_OP_INPUT_NOT_MATCH,
    ACL_ERROR_OP_OUTPUT_NOT_MATCH,
    AclError,
)
from aclsim.runtime import MemcpyKind, memcpy, synchronize_stream
from aclsim.runtime.stream import Stream

__all__ = ["OP_TABLE", "Attrs", "OpSpec", "Plan", "nn"]

#: what an adapter returns: one aclnn op's phase one, or several run in order
Plan = tuple[int, Executor] | list[tuple[int, Executor]]
Adapter = Callable[[list[Any], list[AclTensor], "Attrs"], Plan]


def nn(name: str) -> Callable[..., tuple[int, Executor]]:
    """The phase one (``xxx_get_workspace_size``) of the aclnn op ``name`` (100024 if none)."""
    return get_op(name).get_workspace_size


def attr_error(op_type: str, message: str, hint: str) -> AclError:
    return AclError(f"{op_type}: {message}", hint=hint, code=ACL_ERROR_OP_ATTR_NOT_MATCH)


def mismatch(side: str, op_type: str, message: str, hint: str | None = None) -> AclError:
    """100022 (``side`` "output") or 100021: a description the op type does not take."""
    code = ACL_ERROR_OP_OUTPUT_NOT_MATCH if side == "output" else ACL_ERROR_OP_INPUT_NOT_MATCH
    return AclError(f"{op_type}: {message}", hint=hint, code=code)


_INDEX_TYPES = (DataType.ACL_INT32, DataType.ACL_INT64)


class Attrs:
    """One op call as the adapter sees it: the attributes (an ``aclopAttr``'s values) and the
    helpers for tensor-valued inputs and views.  ``bound`` is False while a handle is made
    (no buffers yet); ``stream`` is the call's stream (``None``: the default one)."""

    def __init__(self, op_type: str, values: dict[str, tuple[str, Any]], *, bound: bool = False,
                 stream: Stream | None = None) -> None:
        self.op_type = op_type
        self.values = values  # name -> (kind, value); kind as in acl.op.set_attr_<kind>
        self.bound = bound
        self.stream = stream
        self.made: list[AclTensor] = []  # views made by the adapter: the caller destroys them

    def _get(self, name: str, kinds: tuple[str, ...], default: Any, required: bool) -> Any:
        if name not in self.values:
            if required:
                raise attr_error(self.op_type, f"attribute {name!r} is required",
                                 f"set it with acl.op.set_attr_{kinds[0]}(attr, {name!r}, ...)")
            return default
        kind, value = self.values[name]
        if kind not in kinds:
            raise attr_error(self.op_type, f"attribute {name!r} was set as {kind}, {kinds[0]} is expected",
                             f"set it with acl.op.set_attr_{kinds[0]}")
        return value

    def get_float(self, name: str, default: float | None = None) -> float:
        """A float attribute (an int one is accepted); required when ``default`` is ``None``."""
        return float(self._get(name, ("float", "int"), default, default is None))

    def get_int(self, name: str, default: int | None = None) -> int:
        """An int attribute (a data-type one is accepted); required when ``default`` is ``None``."""
        return int(self._get(name, ("int", "data_type"), default, default is None))

    def get_bool(self, name: str, default: bool | None = None) -> bool:
        return bool(self._get(name, ("bool", "int"), default, default is None))

    def get_list_int(self, name: str, default: list[int] | None = None) -> list[int]:
        return list(self._get(name, ("list_int",), default, default is None))

    def only(self, name: str, value: float) -> None:
        """Refuse (100023) a numeric attribute set to anything but ``value``: aclsim runs the
        op with that value only."""
        got = self.get_float(name, value)
        if got != value:
            raise attr_error(self.op_type, f"attribute {name!r} = {got} is not modelled",
                             f"aclsim runs {self.op_type} with {name} = {value} only (a difference from the "
                             "device)")


    # --- helpers for the adapters -------------------------------------------------------------

    def int_values(self, t: AclTensor | None, name: str) -> list[int] | None:
        """The values of the int32/int64 input ``name`` (rank 0 or 1), read back to the host;
        ``None`` when no buffer is bound yet (a handle being made).

        The buffer may be device memory or host memory (a description placed on the host, as
        GE's ReduceSum samples do); earlier work on the call's stream is waited for first, so
        a value written there by a queued copy or op is the one read: these op types make
        ``execute_v2`` wait for the stream's earlier tasks (a difference from the device, whose
        kernel reads the tensor on the device)."""
        if t is None:
            raise mismatch("input", self.op_type, f"the input {name!r} is required",
                           f"give {name} as an int32 or int64 tensor")
        if t.data_type not in _INDEX_TYPES:
            raise mismatch("input", self.op_type, f"{name} is {t.data_type.name}, int32 or int64 is expected",
                           f"describe {name} as ACL_INT32 or ACL_INT64")
        if len(t.view_dims) > 1:
            raise mismatch("input", self.op_type,
                           f"{name} has rank {len(t.view_dims)}, a 1-D list is expected",
                           f"describe {name} with dims [n]")
        if not self.bound:
            return None
        values = np.zeros(t.numel, numpy_dtype(t.data_type))
        if values.size:
            synchronize_stream(self.stream)
            memcpy(values, values.nbytes, int(t.device_addr), values.nbytes, MemcpyKind.DEFAULT)
        return [int(v) for v in values]

    def view(self, t: AclTensor, dims: Sequence[int], strides: Sequence[int], offset: int) -> AclTensor:
        """A view of ``t``'s storage: ``dims`` and ``strides`` in elements, ``offset`` elements
        after ``t``'s own offset (destroyed with the call)."""
        v = create_tensor(list(dims), t.data_type, list(strides), t.offset + int(offset), t.format,
                          list(t.storage_dims), t.device_addr)
        self.made.append(v)
        return v

    def transposed(self, t: AclTensor, name: str) -> AclTensor:
        """``t`` with its last two dims swapped, as a strided view (no copy)."""
        if len(t.view_dims) < 2:
            raise mismatch("input", self.op_type,
                           f"{name} has rank {len(t.view_dims)}: transposing needs 2 dims",
                           f"give {name} rank 2 or more")
        dims, strides = list(t.view_dims), list(t.strides)
        dims[-2:], strides[-2:] = dims[:-3:-1], strides[:-3:-1]
        return self.view(t, dims, strides, 0)


@dataclass(frozen=True)
class OpSpec:
    """One op type: ``inputs`` and ``outputs`` counts (the last ``optional`` inputs may be
    left out or given as placeholders), the adapter, and the attribute names it reads."""

    inputs: int
    outputs: int
    build: Adapter
    attrs: tuple[str, ...] = ()
    optional: int = 0


def _value(x: AclTensor, a: Attrs) -> float | int:
    """The Adds/Muls ``value`` attribute (a required float) in the kind of ``x``'s dtype:
    integral tensors take it truncated toward zero, as a C cast of the attribute."""
    value = a.get_float("value")
    return value if is_floating(x.data_type) else int(value)


def _unary(name: str) -> OpSpec:
    return OpSpec(1, 1, lambda x, y, a: nn(name)(x[0], y[0]))


def _exp_log(name: str) -> OpSpec:
    def build(x: list[Any], y: list[AclTensor], a: Attrs) -> tuple[int, Executor]:
        for attr, value in (("base", -1.0), ("scale", 1.0), ("shift", 0.0)):
            a.only(attr, value)
        return nn(name)(x[0], y[0])

    return OpSpec(1, 1, build, ("base", "scale", "shift"))


def _swish(x: list[Any], y: list[AclTensor], a: Attrs) -> tuple[int, Executor]:
    a.only("scale", 1.0)
    return nn("Silu")(x[0], y[0])


def _cast(x: list[Any], y: list[AclTensor], a: Attrs) -> tuple[int, Executor]:
    dst = a.get_int("dst_type")
    if dst != int(y[0].data_type):
        name = DataType(dst).name if dst in DataType._value2member_map_ else str(dst)
        raise attr_error(a.op_type, f"dst_type {name} differs from the output description's "
                         f"{y[0].data_type.name}", "make dst_type the output's data type")
    return nn("Cast")(x[0], dst, y[0])


_DIV = OpSpec(2, 1, lambda x, y, a: nn("Div")(x[0], x[1], y[0]))

#: GE op type -> its spec; one line per op type
OP_TABLE: dict[str, OpSpec] = {
    "Add": OpSpec(2, 1, lambda x, y, a: nn("Add")(x[0], x[1], 1, y[0])),
    "Sub": OpSpec(2, 1, lambda x, y, a: nn("Sub")(x[0], x[1], 1, y[0])),
    "Mul": OpSpec(2, 1, lambda x, y, a: nn("Mul")(x[0], x[1], y[0])),
    "Div": _DIV,
    "RealDiv": _DIV,
    "Adds": OpSpec(1, 1, lambda x, y, a: nn("Adds")(x[0], _value(x[0], a), 1, y[0]), ("value",)),
    "Muls": OpSpec(1, 1, lambda x, y, a: nn("Muls")(x[0], _value(x[0], a), y[0]), ("value",)),
    "Abs": _unary("Abs"),
    "Neg": _unary("Neg"),
    "Exp": _exp_log("Exp"),
    "Log": _exp_log("Log"),
    "Sqrt": _unary("Sqrt"),
    "Rsqrt": _unary("Rsqrt"),
    "Relu": _unary("Relu"),
    "Gelu": _unary("Gelu"),
    "Sigmoid": _unary("Sigmoid"),
    "Swish": OpSpec(1, 1, _swish, ("scale",)),
    "Cast": OpSpec(1, 1, _cast, ("dst_type", "truncate")),
}


# --- reductions, softmax, normalisation, matmul, layout -------------------------------------


def _same_dtype(a: Attrs, x: AclTensor, y: AclTensor, what: str = "x") -> None:
    if y.data_type != x.data_type:
        raise mismatch("output", a.op_type, f"the output is {y.data_type.name}, {what} is {x.data_type.name}",
                       f"{a.op_type}'s output has the data type of {what}")


def _reduce(name: str) -> OpSpec:
    """ReduceSum / ReduceMax / ReduceMean (x, axes -> y): aclnn ReduceSum / Amax / Mean."""

    def build(x: list[Any], y: list[AclTensor], a: Attrs) -> Plan:
        keep = a.get_bool("keep_dims", False)
        noop = a.get_bool("noop_with_empty_axes", True)
        _same_dtype(a, x[0], y[0])
        axes = a.int_values(x[1], "axes")
        if axes is None:
            return []
        if not axes and noop:  # no axes: y = x
            if y[0].view_dims != x[0].view_dims:
                raise mismatch("output", a.op_type, f"axes is empty (no reduction) but the output's dims "
                               f"{list(y[0].view_dims)} are not x's {list(x[0].view_dims)}",
                               "give y x's dims, or set noop_with_empty_axes false to reduce every axis")
            return nn("InplaceCopy")(y[0], x[0])
        if name == "Amax":
            return nn("Amax")(x[0], axes, keep, y[0])
        return nn(name)(x[0], axes, keep, y[0].data_type, y[0])  # empty axes: every axis

    return OpSpec(2, 1, build, ("keep_dims", "noop_with_empty_axes"))


def _softmax(name: str) -> OpSpec:
    """SoftmaxV2 / LogSoftmaxV2 (``axes`` attr, one axis) onto aclnn Softmax / LogSoftmax."""

    def build(x: list[Any], y: list[AclTensor], a: Attrs) -> Plan:
        axes = a.get_list_int("axes", [-1])
        if len(axes) != 1:
            raise attr_error(a.op_type, f"axes {axes} names {len(axes)} axes",
                             f"aclsim runs {a.op_type} over one axis (aclnn {name} takes one dim)")
        if a.get_bool("half_to_float", False) and x[0].data_type == DataType.ACL_FLOAT16:
            if y[0].data_type != DataType.ACL_FLOAT:
                raise mismatch("output", a.op_type, f"half_to_float with a float16 x needs a float output, "
                               f"got {y[0].data_type.name}", "describe y as ACL_FLOAT")
        else:
            _same_dtype(a, x[0], y[0])
        return nn(name)(x[0], axes[0], y[0])

    return OpSpec(1, 1, build, ("axes", "half_to_float") if name == "Softmax" else ("axes",))


def _axis(a: Attrs, name: str, rank: int) -> int:
    value = a.get_int(name, 0)
    if not -rank <= value < rank:
        raise attr_error(a.op_type, f"{name} {value} is outside [{-rank}, {rank - 1}] for a rank-{rank} x",
                         f"set {name} within x's rank")
    return value % rank


def _layer_norm(x: list[Any], y: list[AclTensor], a: Attrs) -> Plan:
    """LayerNorm (x, gamma, beta -> y, mean, variance): aclnn LayerNorm writes rstd into the
    variance output, then variance = 1 / rstd^2 - epsilon on the device (Mul, Rsqrt, Mul, Adds)."""
    rank = len(x[0].view_dims)
    if rank == 0:
        raise mismatch("input", a.op_type, "x is a scalar", "LayerNorm takes x of rank 1 to 8")
    begin = _axis(a, "begin_norm_axis", rank)
    if _axis(a, "begin_params_axis", rank) != begin:
        raise attr_error(a.op_type, "begin_params_axis differs from begin_norm_axis",
                         "aclsim runs LayerNorm with gamma and beta over the normalised dims only "
                         "(begin_params_axis == begin_norm_axis; a difference from the device)")
    eps = a.get_float("epsilon", 1e-7)
    v = y[2]
    return [
        nn("LayerNorm")(x[0], list(x[0].view_dims[begin:]), x[1], x[2], eps, y[0], y[1], v),
        nn("Mul")(v, v, v),
        nn("Rsqrt")(v, v),
        nn("Mul")(v, v, v),
        nn("Adds")(v, -eps, 1, v),
    ]


def _matmul(t1: str, t2: str, batched: bool) -> Adapter:
    """MatMul(V2) (2-D, onto Mm) and BatchMatMul(V2) (rank >= 2, onto Matmul): transposes as
    strided views, the bias added with Add, cubeMathType KEEP_DTYPE."""

    def build(x: list[Any], y: list[AclTensor], a: Attrs) -> Plan:
        if len(x) > 3 and x[3] is not None:
            raise mismatch("input", a.op_type, "offset_w (the int8 quantised form) is given",
                           "aclsim runs the float forms only: leave offset_w out")
        a.only("offset_x", 0)
        for i in (0, 1):
            if not batched and len(x[i].view_dims) != 2:
                raise mismatch("input", a.op_type, f"x{i + 1} has rank {len(x[i].view_dims)}, 2 is expected",
                               "use BatchMatMulV2 for batched inputs")
        x1 = a.transposed(x[0], "x1") if a.get_bool(t1, False) else x[0]
        x2 = a.transposed(x[1], "x2") if a.get_bool(t2, False) else x[1]
        mm = nn("Matmul" if batched else "Mm")(x1, x2, y[0], 0)
        bias = x[2] if len(x) > 2 else None
        return mm if bias is None else [mm, nn("Add")(y[0], bias, 1, y[0])]

    return build


def _transpose(x: list[Any], y: list[AclTensor], a: Attrs) -> Plan:
    perm = a.int_values(x[1], "perm")
    _same_dtype(a, x[0], y[0])
    return [] if perm is None else nn("Permute")(x[0], perm, y[0])


def _slice(x: list[Any], y: list[AclTensor], a: Attrs) -> Plan:
    """Slice (x, offsets, size -> y; size -1: to the end) as one copy of a view of x."""
    offsets, size = a.int_values(x[1], "offsets"), a.int_values(x[2], "size")
    _same_dtype(a, x[0], y[0])
    if offsets is None or size is None:
        return []
    dims = x[0].view_dims
    if len(offsets) != len(dims) or len(size) != len(dims):
        raise mismatch("input", a.op_type, f"offsets has {len(offsets)} and size {len(size)} values for a "
                       f"rank-{len(dims)} x", "give one offset and one size per dim of x")
    sizes = [d - o if s == -1 else s for d, o, s in zip(dims, offsets, size, strict=True)]
    for i, (d, o, s) in enumerate(zip(dims, offsets, sizes, strict=True)):
        if not 0 <= o <= o + s <= d:
            raise mismatch("input", a.op_type, f"dim {i}: offset {o} size {s} is outside x's {d} elements",
                           "keep 0 <= offset <= offset + size <= dim (size -1: to the end)")
    if list(y[0].view_dims) != sizes:
        raise mismatch("output", a.op_type, f"the output's dims {list(y[0].view_dims)} are not the slice's "
                       f"{sizes}", "give y the dims of size")
    start = sum(o * st for o, st in zip(offsets, x[0].strides, strict=True))
    return nn("InplaceCopy")(y[0], a.view(x[0], sizes, x[0].strides, start))


OP_TABLE.update({
    "ReduceSum": _reduce("ReduceSum"),
    "ReduceMax": _reduce("Amax"),
    "ReduceMean": _reduce("Mean"),
    "SoftmaxV2": _softmax("Softmax"),
    "LogSoftmaxV2": _softmax("LogSoftmax"),
    "LayerNorm": OpSpec(3, 3, _layer_norm, ("begin_norm_axis", "begin_params_axis", "epsilon")),
    "RmsNorm": OpSpec(2, 2, lambda x, y, a: nn("RmsNorm")(x[0], x[1], a.get_float("epsilon", 1e-6), y[0],
                                                          y[1]), ("epsilon",)),
    "MatMul": OpSpec(3, 1, _matmul("transpose_x1", "transpose_x2", False), ("transpose_x1", "transpose_x2"),
                     1),
    "MatMulV2": OpSpec(4, 1, _matmul("transpose_x1", "transpose_x2", False),
                       ("transpose_x1", "transpose_x2", "offset_x"), 2),
    "BatchMatMul": OpSpec(2, 1, _matmul("adj_x1", "adj_x2", True), ("adj_x1", "adj_x2")),
    "BatchMatMulV2": OpSpec(4, 1, _matmul("adj_x1", "adj_x2", True), ("adj_x1", "adj_x2", "offset_x"), 2),
    "Transpose": OpSpec(2, 1, _transpose),
    "Slice": OpSpec(3, 1, _slice),
})
