"""The C face of ``acl_op.h``, the single-op API: attributes, ``aclopExecuteV2``, op handles.

Each function forwards to :mod:`aclsim.acl.op` (the pyACL face of the same calls), which runs
aclsim's built-in ops (``docs/acl_op.md``); the C arrays of descriptions and data buffers
become that face's lists of handles.
"""

from __future__ import annotations

from typing import Any

from aclsim import acl
from aclsim.capi.cdata import array, c_function, need_out, store, string

__all__: list[str] = []


@c_function
def aclopSetModelDir(model_dir: Any) -> int:
    return acl.op.set_model_dir(string(model_dir, "modelDir"))


@c_function
def aclopCreateAttr() -> int:
    return acl.op.create_attr()


@c_function
def aclopDestroyAttr(attr: int) -> None:
    acl.op.destroy_attr(attr)


@c_function
def aclopSetAttrBool(attr: int, name: Any, value: int) -> int:
    return acl.op.set_attr_bool(attr, string(name, "attrName"), value)


@c_function
def aclopSetAttrInt(attr: int, name: Any, value: int) -> int:
    return acl.op.set_attr_int(attr, string(name, "attrName"), value)


@c_function
def aclopSetAttrFloat(attr: int, name: Any, value: float) -> int:
    return acl.op.set_attr_float(attr, string(name, "attrName"), value)


@c_function
def aclopSetAttrString(attr: int, name: Any, value: Any) -> int:
    return acl.op.set_attr_string(attr, string(name, "attrName"), string(value, "attrValue"))


@c_function
def aclopSetAttrDataType(attr: int, name: Any, value: int) -> int:
    return acl.op.set_attr_data_type(attr, string(name, "attrName"), value)[1]


@c_function
def aclopSetAttrListBool(attr: int, name: Any, count: int, values: Any) -> int:
    values_list = array(values, count, "values", ctype="uint8_t")
    return acl.op.set_attr_list_bool(attr, string(name, "attrName"), values_list)


@c_function
def aclopSetAttrListInt(attr: int, name: Any, count: int, values: Any) -> int:
    values_list = array(values, count, "values", ctype="int64_t")
    return acl.op.set_attr_list_int(attr, string(name, "attrName"), values_list)


@c_function
def aclopSetAttrListFloat(attr: int, name: Any, count: int, values: Any) -> int:
    values_list = array(values, count, "values", ctype="float")
    return acl.op.set_attr_list_float(attr, string(name, "attrName"), values_list)


@c_function
def aclopSetAttrListString(attr: int, name: Any, count: int, values: Any) -> int:
    values_list = array(values, count, "values", ctype="char *")
    return acl.op.set_attr_list_string(attr, string(name, "attrName"), values_list)


@c_function
def aclopExecuteV2(op_type: Any, num_inputs: int, input_desc: Any, inputs: Any, num_outputs: int,
                   output_desc: Any, outputs: Any, attr: int, stream: int) -> int:
    return acl.op.execute_v2(string(op_type, "opType"), array(input_desc, num_inputs, "inputDesc"),
                             array(inputs, num_inputs, "inputs"),
                             array(output_desc, num_outputs, "outputDesc"),
                             array(outputs, num_outputs, "outputs"), attr, stream)


@c_function
def aclopUpdateParams(op_type: Any, num_inputs: int, input_desc: Any, num_outputs: int, output_desc: Any,
                      attr: int) -> int:
    return acl.op.update_params(string(op_type, "opType"), array(input_desc, num_inputs, "inputDesc"),
                                array(output_desc, num_outputs, "outputDesc"), attr)


@c_function
def aclopCreateHandle(op_type: Any, num_inputs: int, input_desc: Any, num_outputs: int, output_desc: Any,
                      attr: int, handle: Any) -> int:
    need_out(handle, "handle")
    made = acl.op.create_handle(string(op_type, "opType"), array(input_desc, num_inputs, "inputDesc"),
                                array(output_desc, num_outputs, "outputDesc"), attr)
    return store(handle, *made, pointer=True)


@c_function
def aclopDestroyHandle(handle: int) -> None:
    acl.op.destroy_handle(handle)


@c_function
def aclopExecWithHandle(handle: int, num_inputs: int, inputs: Any, num_outputs: int, outputs: Any,
                        stream: int) -> int:
    return acl.op.execute_with_handle(handle, array(inputs, num_inputs, "inputs"),
                                      array(outputs, num_outputs, "outputs"), stream)


# --- more attribute kinds, aclopExecute, conversions ------------------------------------------


@c_function
def aclopSetAttrListDataType(attr: int, name: Any, count: int, values: Any) -> int:
    values_list = array(values, count, "values", ctype="int")
    return acl.op.set_attr_list_data_type(attr, string(name, "attrName"), values_list)[1]


@c_function
def aclopSetAttrListListInt(attr: int, name: Any, num_lists: int, counts: Any, values: Any) -> int:
    sizes = array(counts, num_lists, "numValues", ctype="int")
    rows = array(values, len(sizes), "values", ctype="int64_t *")
    lists = [array(row, size, f"values[{i}]", ctype="int64_t")
             for i, (row, size) in enumerate(zip(rows, sizes, strict=True))]
    return acl.op.set_attr_list_list_int(attr, string(name, "attrName"), lists)


@c_function
def aclopExecute(op_type: Any, num_inputs: int, input_desc: Any, inputs: Any, num_outputs: int,
                 output_desc: Any, outputs: Any, attr: int, stream: int) -> int:
    return acl.op.execute(string(op_type, "opType"), array(input_desc, num_inputs, "inputDesc"),
                          array(inputs, num_inputs, "inputs"), array(output_desc, num_outputs, "outputDesc"),
                          array(outputs, num_outputs, "outputs"), attr, stream)


@c_function
def aclopCast(src_desc: int, src_buffer: int, dst_desc: int, dst_buffer: int, truncate: int,
              stream: int) -> int:
    return acl.op.cast(src_desc, src_buffer, dst_desc, dst_buffer, truncate, stream)


@c_function
def aclopCreateHandleForCast(src_desc: int, dst_desc: int, truncate: int, handle: Any) -> int:
    need_out(handle, "handle")
    return store(handle, *acl.op.create_handle_for_cast(src_desc, dst_desc, truncate), pointer=True)
