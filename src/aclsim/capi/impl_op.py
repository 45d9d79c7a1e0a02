"""The C face of ``acl/acl_op.h``: the single-operator API, forwarding to :mod:`aclsim.acl.op`.

The pyACL functions take Python lists of handles and values; here the C arrays are read into
those lists (a NULL array with a count above 0 is refused with ``ACL_ERROR_INVALID_PARAM``
before anything happens) and the handles (attributes, op handles, tensor descriptions, data
buffers) are the pyACL face's ints, so objects made from C and from Python mix in one process.
The codes and messages are the pyACL face's (docs/acl_op.md).
"""

from __future__ import annotations

from typing import Any

from aclsim import acl
from aclsim.capi.cdata import c_function, ffi, need_out, store, text
from aclsim.errors import InvalidParamError

__all__: list[str] = []

#: the most entries aclsim reads from one C array of the single-op API
MAX_ENTRIES = 1 << 16


def _count(n: int, name: str) -> int:
    n = int(n)
    if n < 0 or n > MAX_ENTRIES:
        raise InvalidParamError(f"{name} {n} is out of range 0..{MAX_ENTRIES}",
                                hint="pass the number of entries of the array")
    return n


def _array(ptr: Any, n: int, name: str, count_name: str) -> list[Any]:
    """The ``n`` entries of the C array ``ptr`` (pointers as ints)."""
    n = _count(n, count_name)
    if n == 0:
        return []
    if not ptr:
        raise InvalidParamError(f"{name} is a null pointer with {count_name} {n}",
                                hint=f"pass an array of {count_name} entries")
    if ffi().typeof(ptr).item.kind == "pointer":
        return [int(ffi().cast("uintptr_t", ptr[i])) for i in range(n)]
    return [ptr[i] for i in range(n)]


def _name(ptr: Any) -> Any:
    """A C string; NULL is passed on as ``None`` for the pyACL call's own check and message."""
    return text(ptr)


# --- model directory and attributes ------------------------------------------------------------

@c_function
def aclopSetModelDir(model_dir: Any) -> int:
    return acl.op.set_model_dir(_name(model_dir))


@c_function
def aclopCreateAttr() -> int:
    return acl.op.create_attr()


@c_function
def aclopDestroyAttr(attr: int) -> None:
    acl.op.destroy_attr(attr)


@c_function
def aclopSetAttrBool(attr: int, name: Any, value: int) -> int:
    return acl.op.set_attr_bool(attr, _name(name), value)


@c_function
def aclopSetAttrInt(attr: int, name: Any, value: int) -> int:
    return acl.op.set_attr_int(attr, _name(name), value)


@c_function
def aclopSetAttrFloat(attr: int, name: Any, value: float) -> int:
    return acl.op.set_attr_float(attr, _name(name), value)


@c_function
def aclopSetAttrString(attr: int, name: Any, value: Any) -> int:
    return acl.op.set_attr_string(attr, _name(name), _name(value))


@c_function
def aclopSetAttrDataType(attr: int, name: Any, value: int) -> int:
    return acl.op.set_attr_data_type(attr, _name(name), value)[1]


@c_function
def aclopSetAttrListDataType(attr: int, name: Any, n: int, values: Any) -> int:
    return acl.op.set_attr_list_data_type(attr, _name(name), _array(values, n, "values", "numValues"))[1]


@c_function
def aclopSetAttrListBool(attr: int, name: Any, n: int, values: Any) -> int:
    return acl.op.set_attr_list_bool(attr, _name(name), _array(values, n, "values", "numValues"))


@c_function
def aclopSetAttrListInt(attr: int, name: Any, n: int, values: Any) -> int:
    return acl.op.set_attr_list_int(attr, _name(name), _array(values, n, "values", "numValues"))


@c_function
def aclopSetAttrListFloat(attr: int, name: Any, n: int, values: Any) -> int:
    return acl.op.set_attr_list_float(attr, _name(name), _array(values, n, "values", "numValues"))


@c_function
def aclopSetAttrListString(attr: int, name: Any, n: int, values: Any) -> int:
    n = _count(n, "numValues")
    if n and not values:
        raise InvalidParamError(f"values is a null pointer with numValues {n}")
    strings: list[Any] = [text(values[i]) for i in range(n)]
    if any(s is None for s in strings):
        raise InvalidParamError(f"values[{strings.index(None)}] is a null pointer", hint="pass C strings")
    return acl.op.set_attr_list_string(attr, _name(name), strings)


@c_function
def aclopSetAttrListListInt(attr: int, name: Any, n: int, counts: Any, values: Any) -> int:
    sizes = _array(counts, n, "numValues", "numLists")
    if sizes and not values:
        raise InvalidParamError(f"values is a null pointer with numLists {len(sizes)}")
    lists = [_array(values[i], size, f"values[{i}]", f"numValues[{i}]") for i, size in enumerate(sizes)]
    return acl.op.set_attr_list_list_int(attr, _name(name), lists)


# --- execution and handles ---------------------------------------------------------------------

def _execute(fn: Any, op_type: Any, n_in: int, in_desc: Any, inputs: Any, n_out: int, out_desc: Any,
             outputs: Any, attr: int, stream: int) -> int:
    ins = _array(in_desc, n_in, "inputDesc", "numInputs"), _array(inputs, n_in, "inputs", "numInputs")
    outs = (_array(out_desc, n_out, "outputDesc", "numOutputs"),
            _array(outputs, n_out, "outputs", "numOutputs"))
    return int(fn(_name(op_type), *ins, *outs, attr, stream))


@c_function
def aclopExecute(op_type: Any, n_in: int, in_desc: Any, inputs: Any, n_out: int, out_desc: Any,
                 outputs: Any, attr: int, stream: int) -> int:
    return _execute(acl.op.execute, op_type, n_in, in_desc, inputs, n_out, out_desc, outputs, attr, stream)


@c_function
def aclopExecuteV2(op_type: Any, n_in: int, in_desc: Any, inputs: Any, n_out: int, out_desc: Any,
                   outputs: Any, attr: int, stream: int) -> int:
    return _execute(acl.op.execute_v2, op_type, n_in, in_desc, inputs, n_out, out_desc, outputs, attr, stream)


@c_function
def aclopUpdateParams(op_type: Any, n_in: int, in_desc: Any, n_out: int, out_desc: Any, attr: int) -> int:
    return acl.op.update_params(_name(op_type), _array(in_desc, n_in, "inputDesc", "numInputs"),
                                _array(out_desc, n_out, "outputDesc", "numOutputs"), attr)


@c_function
def aclopCreateHandle(op_type: Any, n_in: int, in_desc: Any, n_out: int, out_desc: Any, attr: int,
                      handle: Any) -> int:
    need_out(handle, "handle")
    ins = _array(in_desc, n_in, "inputDesc", "numInputs")
    outs = _array(out_desc, n_out, "outputDesc", "numOutputs")
    return store(handle, *acl.op.create_handle(_name(op_type), ins, outs, attr), pointer=True)


@c_function
def aclopDestroyHandle(handle: int) -> None:
    acl.op.destroy_handle(handle)


@c_function
def aclopExecWithHandle(handle: int, n_in: int, inputs: Any, n_out: int, outputs: Any, stream: int) -> int:
    return acl.op.execute_with_handle(handle, _array(inputs, n_in, "inputs", "numInputs"),
                                      _array(outputs, n_out, "outputs", "numOutputs"), stream)


@c_function
def aclopCast(src_desc: int, src_buffer: int, dst_desc: int, dst_buffer: int, truncate: int,
              stream: int) -> int:
    return acl.op.cast(src_desc, src_buffer, dst_desc, dst_buffer, truncate, stream)


@c_function
def aclopCreateHandleForCast(src_desc: int, dst_desc: int, truncate: int, handle: Any) -> int:
    need_out(handle, "handle")
    return store(handle, *acl.op.create_handle_for_cast(src_desc, dst_desc, truncate), pointer=True)
