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
``OP_TABLE["ReduceSum"] = OpSpec(...)`` from another module).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aclsim.aclnn import AclTensor, DataType, Executor, get_op
from aclsim.aclnn.dtypes import is_floating
from aclsim.errors import ACL_ERROR_OP_ATTR_NOT_MATCH, AclError

__all__ = ["OP_TABLE", "Attrs", "OpSpec", "nn"]

Adapter = Callable[[list[Any], list[AclTensor], "Attrs"], tuple[int, Executor]]


def nn(name: str) -> Callable[..., tuple[int, Executor]]:
    """The phase one (``xxx_get_workspace_size``) of the aclnn op ``name`` (100024 if none)."""
    return get_op(name).get_workspace_size


def attr_error(op_type: str, message: str, hint: str) -> AclError:
    return AclError(f"{op_type}: {message}", hint=hint, code=ACL_ERROR_OP_ATTR_NOT_MATCH)


class Attrs:
    """The attributes of one op call (an ``aclopAttr``'s values), read by the adapters."""

    def __init__(self, op_type: str, values: dict[str, tuple[str, Any]]) -> None:
        self.op_type = op_type
        self.values = values  # name -> (kind, value); kind as in acl.op.set_attr_<kind>

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
