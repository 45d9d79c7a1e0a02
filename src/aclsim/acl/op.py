"""``acl.op``: pyACL's single-operator API over the aclnn library.

``acl.op.execute_v2(op_type, input_desc, inputs, output_desc, outputs, attr, stream)`` runs
a built-in op by its GE type name ("Add", "Cast", ...): aclsim finds it in
:data:`aclsim.acl.op_table.OP_TABLE` and runs the aclnn op behind it on the stream (its
kernels on the simulated NPU, its workspace from the caching pool).  No compiled ``.om``
model is needed: ``set_model_dir`` is accepted (the directory must exist) and the ops are
found without it.  Return shapes are pyACL's: ``create_attr()`` returns the handle,
``destroy_attr`` / ``destroy_handle`` return ``None``, ``create_handle`` returns ``(handle,
ret)``, ``set_attr_data_type`` / ``set_attr_list_data_type`` return ``(attr, ret)``, the
others ``ret``.

Codes: 100024 ``ACL_ERROR_OP_NOT_FOUND`` for an op type aclsim does not run; 100021 / 100022
``ACL_ERROR_OP_INPUT/OUTPUT_NOT_MATCH`` for descriptions the op does not take (count, data
type, shape, broadcasting); 100023 ``ACL_ERROR_OP_ATTR_NOT_MATCH`` for a missing or
unmodelled attribute; 100026 / 100027 for data types / formats aclsim does not hold; 100000
for bad handles and buffers.  ``acl.get_recent_err_msg()`` tells which and why.

>>> import numpy as np, aclsim.acl as acl
>>> acl.init(), acl.rt.set_device(0)
(0, 0)
>>> a = np.arange(6, dtype=np.int32); n = a.nbytes
>>> descs = [acl.create_tensor_desc(acl.ACL_INT32, [6], acl.ACL_FORMAT_ND) for _ in range(3)]
>>> ptrs = [acl.rt.malloc(n, 0)[0] for _ in range(3)]
>>> for p in ptrs[:2]:
...     _ = acl.rt.memcpy(p, n, acl.util.numpy_to_ptr(a), n, acl.ACL_MEMCPY_HOST_TO_DEVICE)
>>> bufs = [acl.create_data_buffer(p, n) for p in ptrs]
>>> acl.op.execute_v2("Add", descs[:2], bufs[:2], descs[2:], bufs[2:], 0, 0), acl.rt.synchronize_stream(0)
(0, 0)
>>> out = np.zeros_like(a)
>>> acl.rt.memcpy(acl.util.numpy_to_ptr(out), n, ptrs[2], n, acl.ACL_MEMCPY_DEVICE_TO_HOST), out.tolist()
(0, [0, 2, 4, 6, 8, 10])
>>> acl.op.execute_v2("NoSuchOp", descs[:2], bufs[:2], descs[2:], bufs[2:], 0, 0)
100024
>>> [acl.destroy_data_buffer(b) for b in bufs] + [acl.rt.free(p) for p in ptrs]
[0, 0, 0, 0, 0, 0]
>>> for d in descs:
...     acl.destroy_tensor_desc(d)
>>> acl.rt.reset_device(0), acl.finalize()
(0, 0)
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from aclsim.acl._boundary import returns_code, returns_plain, returns_value
from aclsim.acl._convert import as_int, stream_of
from aclsim.acl._desc import desc_of
from aclsim.acl._handles import TABLE
from aclsim.acl._opexec import OpAttr, Prepared, attr_of, prepare
from aclsim.acl._opexec import execute as _enqueue
from aclsim.aclnn import DataType
from aclsim.errors import ACL_ERROR_INVALID_FILE, AclError, InvalidParamError

__all__ = [
    "cast", "create_attr", "create_handle", "create_handle_for_cast", "destroy_attr", "destroy_handle",
    "execute", "execute_v2", "execute_with_handle", "get_model_dir", "set_attr_bool", "set_attr_data_type",
    "set_attr_float", "set_attr_int", "set_attr_list_bool", "set_attr_list_data_type", "set_attr_list_float",
    "set_attr_list_int", "set_attr_list_list_int", "set_attr_list_string", "set_attr_string",
    "set_model_dir", "update_params",
]

_model_dir: list[str] = []  # the directory of the last successful set_model_dir


# --- model directory -------------------------------------------------------------------------

@returns_code
def set_model_dir(model_dir: str) -> None:
    """``aclopSetModelDir``: accepted for compatibility; built-in ops need no ``.om`` model.

    The directory must exist (``ACL_ERROR_INVALID_FILE`` 100003 otherwise, naming it); its
    ``.om`` files are not read: aclsim runs its own ops whatever the directory holds.
    """
    if not isinstance(model_dir, (str, os.PathLike)):
        raise InvalidParamError(f"model_dir must be a str, got {type(model_dir).__name__}")
    path = os.fspath(model_dir)
    if not os.path.isdir(path):
        raise AclError(f"model_dir {path!r} is not a directory", code=ACL_ERROR_INVALID_FILE,
                       hint="pass the directory of the single-op models (it must exist; aclsim's built-in "
                       "ops need no model file in it)")
    _model_dir[:] = [path]


def get_model_dir() -> str | None:
    """The directory of the last successful :func:`set_model_dir` (an aclsim addition)."""
    return _model_dir[0] if _model_dir else None


# --- attributes -----------------------------------------------------------------------------

@returns_plain(0)
def create_attr() -> int:
    """``aclopCreateAttr``: a new, empty attribute set; returns its handle."""
    a = OpAttr()
    a.handle = TABLE.add(a)
    return a.handle


@returns_plain(None)
def destroy_attr(attr: int) -> None:
    """``aclopDestroyAttr``: returns ``None``."""
    TABLE.remove(attr_of(attr).handle)


def _name(attr_name: object) -> str:
    if not isinstance(attr_name, str) or not attr_name:
        raise InvalidParamError(f"attr_name must be a non-empty str, got {attr_name!r}")
    return attr_name


def _set(attr: object, attr_name: object, kind: str, value: Any) -> None:
    a, name = attr_of(attr), _name(attr_name)
    with a.lock:
        a.values[name] = (kind, value)


def _number(name: str, value: object, kind: type) -> Any:
    if isinstance(value, (bool, np.bool_)) and kind is not bool:
        return kind(value)
    if kind is float and isinstance(value, (int, float, np.integer, np.floating)):
        return float(np.float32(value))  # a C float, as aclopSetAttrFloat stores
    if kind in (int, bool) and isinstance(value, (int, bool, np.integer, np.bool_)):
        return kind(value)
    raise InvalidParamError(f"{name} must be {'a float' if kind is float else 'an int'}, got {value!r}")


def _list(name: str, values: object, kind: type) -> list[Any]:
    if isinstance(values, np.ndarray):
        values = values.reshape(-1).tolist()
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise InvalidParamError(f"{name} must be a list, got {type(values).__name__}")
    return [_number(f"{name}[{i}]", v, kind) for i, v in enumerate(values)]


def _data_type(name: str, value: object) -> int:
    v = as_int(name, value)
    try:
        return int(DataType(v))
    except ValueError:
        raise InvalidParamError(f"{name} {v} is not an aclDataType value") from None


@returns_code
def set_attr_int(attr: int, attr_name: str, attr_value: int) -> None:
    """``aclopSetAttrInt``: returns ``ret``."""
    _set(attr, attr_name, "int", _number("attr_value", attr_value, int))


@returns_code
def set_attr_float(attr: int, attr_name: str, attr_value: float) -> None:
    """``aclopSetAttrFloat`` (stored as a C float): returns ``ret``."""
    _set(attr, attr_name, "float", _number("attr_value", attr_value, float))


@returns_code
def set_attr_bool(attr: int, attr_name: str, attr_value: int) -> None:
    """``aclopSetAttrBool`` (a ``uint8_t``: any int, 0 is false): returns ``ret``."""
    _set(attr, attr_name, "bool", bool(_number("attr_value", attr_value, int)))


@returns_code
def set_attr_string(attr: int, attr_name: str, attr_value: str) -> None:
    """``aclopSetAttrString``: returns ``ret``."""
    if not isinstance(attr_value, str):
        raise InvalidParamError(f"attr_value must be a str, got {attr_value!r}")
    _set(attr, attr_name, "string", attr_value)


@returns_code
def set_attr_list_int(attr: int, attr_name: str, values: Sequence[int]) -> None:
    """``aclopSetAttrListInt``: ``values`` a list of ints (or an int64 array); returns ``ret``."""
    _set(attr, attr_name, "list_int", _list("values", values, int))


@returns_code
def set_attr_list_float(attr: int, attr_name: str, values: Sequence[float]) -> None:
    """``aclopSetAttrListFloat``: returns ``ret``."""
    _set(attr, attr_name, "list_float", _list("values", values, float))


@returns_code
def set_attr_list_bool(attr: int, attr_name: str, values: Sequence[int]) -> None:
    """``aclopSetAttrListBool``: returns ``ret``."""
    _set(attr, attr_name, "list_bool", [bool(v) for v in _list("values", values, int)])


@returns_code
def set_attr_list_string(attr: int, attr_name: str, values: Sequence[str]) -> None:
    """``aclopSetAttrListString``: returns ``ret``."""
    if not isinstance(values, (list, tuple)) or not all(isinstance(v, str) for v in values):
        raise InvalidParamError(f"values must be a list of str, got {values!r}")
    _set(attr, attr_name, "list_string", list(values))


@returns_code
def set_attr_list_list_int(attr: int, attr_name: str, values: Sequence[Sequence[int]]) -> None:
    """``aclopSetAttrListListInt``: a list of int lists; returns ``ret``."""
    if not isinstance(values, (list, tuple)):
        raise InvalidParamError(f"values must be a list of lists, got {type(values).__name__}")
    _set(attr, attr_name, "list_list_int", [_list(f"values[{i}]", v, int) for i, v in enumerate(values)])


def _echo_attr(impl: Callable[[int, str, Any], None]) -> Callable[[int, str, Any], tuple[int, int]]:
    """pyACL's data-type setters return ``(attr, ret)`` (the attr handle echoed)."""
    coded = returns_code(impl)

    @functools.wraps(impl)
    def wrapper(attr: int, attr_name: str, value: Any) -> tuple[int, int]:
        return attr, coded(attr, attr_name, value)

    return wrapper


@_echo_attr
def set_attr_data_type(attr: int, attr_name: str, attr_value: int) -> None:
    """``aclopSetAttrDataType``: returns ``(attr, ret)``, as pyACL does."""
    _set(attr, attr_name, "data_type", _data_type("attr_value", attr_value))


@_echo_attr
def set_attr_list_data_type(attr: int, attr_name: str, values: Sequence[int]) -> None:
    """``aclopSetAttrListDataType``: returns ``(attr, ret)``, as pyACL does."""
    if not isinstance(values, (list, tuple)):
        raise InvalidParamError(f"values must be a list, got {type(values).__name__}")
    _set(attr, attr_name, "list_data_type", [_data_type(f"values[{i}]", v) for i, v in enumerate(values)])


# --- execution ------------------------------------------------------------------------------

def _run(op_type: str, input_desc: Any, inputs: Any, output_desc: Any, outputs: Any, attr: int,
         stream: int) -> None:
    st = stream_of(stream)
    _enqueue(prepare(op_type, input_desc, output_desc, attr), inputs, outputs, st)


@returns_code
def execute_v2(op_type: str, input_desc: list[int], inputs: list[int], output_desc: list[int],
               outputs: list[int], attr: int, stream: int) -> None:
    """``aclopExecuteV2``: run the built-in op ``op_type`` on ``stream`` (asynchronous).

    ``input_desc``/``inputs`` and ``output_desc``/``outputs`` are index-aligned lists of
    description and data-buffer handles; ``attr`` an attribute handle (``0``: none);
    ``stream`` ``0`` is the default stream.  Returns ``ret`` (see the module docstring).
    aclsim runs exact shapes only: output descriptions with -1 dims are refused (100022).
    """
    _run(op_type, input_desc, inputs, output_desc, outputs, attr, stream)


@returns_code
def execute(op_type: str, input_desc: list[int], inputs: list[int], output_desc: list[int],
            outputs: list[int], attr: int, stream: int) -> None:
    """``aclopExecute`` (deprecated: use :func:`execute_v2`, which takes the same arguments)."""
    _run(op_type, input_desc, inputs, output_desc, outputs, attr, stream)


@returns_code
def update_params(op_type: str, input_desc: list[int], output_desc: list[int], attr: int) -> None:
    """``aclopUpdateParams``: check that ``op_type`` runs with these descriptions and attributes
    (the device selects and compiles the op here; aclsim plans it once and drops the plan)."""
    stream_of(0)  # needs acl.init and a current context, as execution does
    prepare(op_type, input_desc, output_desc, attr)


class OpHandle:
    """``aclopHandle``: an op type matched once to descriptions and attributes."""

    __slots__ = ("handle", "prepared")
    C_NAME = "aclopHandle"

    def __init__(self, prepared: Prepared) -> None:
        self.prepared = prepared
        self.handle = 0

    def __repr__(self) -> str:
        return f"<aclopHandle {self.prepared.op_type}>"


def _handle_of(value: object) -> OpHandle:
    return TABLE.get("handle", value, OpHandle, "acl.op.create_handle")


def _new_handle(prepared: Prepared) -> int:
    h = OpHandle(prepared)
    h.handle = TABLE.add(h)
    return h.handle


@returns_value(0)
def create_handle(op_type: str, input_desc: list[int], output_desc: list[int], op_attr: int) -> int:
    """``aclopCreateHandle``: ``(handle, ret)``.  The descriptions and attributes are copied
    into the handle (changing or destroying them later does not change it)."""
    stream_of(0)  # needs acl.init and a current context (the op is planned for its device)
    return _new_handle(prepare(op_type, input_desc, output_desc, op_attr))


@returns_code
def execute_with_handle(handle: int, inputs: list[int], outputs: list[int], stream: int) -> None:
    """``aclopExecWithHandle``: run the handle's op on new buffers; returns ``ret``."""
    h = _handle_of(handle)
    _enqueue(h.prepared, inputs, outputs, stream_of(stream))


@returns_plain(None)
def destroy_handle(handle: int) -> None:
    """``aclopDestroyHandle``: returns ``None``."""
    TABLE.remove(_handle_of(handle).handle)


_cast_lock = threading.Lock()


def _cast_prepared(src_desc: int, dst_desc: int, truncate: int) -> Prepared:
    as_int("truncate", truncate)  # float -> int conversions truncate toward zero whatever it says
    dst = desc_of(dst_desc, "dst_desc")
    with _cast_lock:
        attr = create_attr()
        try:
            set_attr_int(attr, "dst_type", int(dst.data_type))
            return prepare("Cast", [src_desc], [dst_desc], attr)
        finally:
            destroy_attr(attr)


@returns_code
def cast(src_desc: int, src_buffer: int, dst_desc: int, dst_buffer: int, truncate: int, stream: int) -> None:
    """``aclopCast``: convert ``src`` into the data type of ``dst_desc``; returns ``ret``."""
    st = stream_of(stream)
    _enqueue(_cast_prepared(src_desc, dst_desc, truncate), [src_buffer], [dst_buffer], st)


@returns_value(0)
def create_handle_for_cast(src_desc: int, dst_desc: int, truncate: int) -> int:
    """``aclopCreateHandleForCast``: ``(handle, ret)`` for :func:`execute_with_handle`."""
    stream_of(0)
    return _new_handle(_cast_prepared(src_desc, dst_desc, truncate))
