"""The C face of aclnn: ``aclnn/acl_meta.h``, ``aclnn/aclnn_base.h`` and every
``aclnnop/aclnn_<op>.h``, forwarding to :mod:`aclsim.aclnn`.

The meta objects (tensors, scalars, arrays, lists) and the executors are Python objects of
:mod:`aclsim.aclnn`; C holds opaque pointers to them, handed out by one table
(:data:`HANDLES`).  A pointer that names no live object of the expected kind (destroyed,
consumed by its run, never created, or another kind) is refused with the status aclsim gives
for the same mistake from Python: 161001 for an executor (a freed executor), 161002 for the
others (a destroyed object).  NULL is passed on as ``None``, so each call's own checks give
the documented 161001.  Device addresses (``tensorData``, the workspace) are the runtime's
addresses carried in ``void *``; a NULL stream is the default stream.  The statuses are
aclnn's, unchanged; the messages go to the ``aclGetRecentErrMsg`` store the AscendCL face uses.

The op functions are not written one by one: every prototype of an ``aclnnop/`` header (made
from :mod:`aclsim.capi.aclnn_table`) is implemented by :func:`phase_one` / :func:`phase_two`,
which convert the parameters by their C types and call the op's Python phase one in the
table's order.
"""

from __future__ import annotations

import ctypes
import itertools
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from aclsim import aclnn
from aclsim.aclnn import meta
from aclsim.capi.cdata import IMPLS, c_function, ffi, handle, text
from aclsim.capi.prototypes import Prototype, load
from aclsim.errors import ACLNN_SUCCESS, AclnnNullptrError, AclnnParamInvalidError

__all__ = ["HANDLES", "HandleTable", "op_prototypes", "phase_one", "phase_two"]

#: the C struct names of the handles, and the Python class behind each
KINDS: dict[str, type] = {
    "aclTensor": meta.AclTensor,
    "aclScalar": meta.AclScalar,
    "aclIntArray": meta.AclIntArray,
    "aclFloatArray": meta.AclFloatArray,
    "aclBoolArray": meta.AclBoolArray,
    "aclTensorList": meta.AclTensorList,
    "aclScalarList": meta.AclScalarList,
    "aclOpExecutor": aclnn.Executor,
}
_C_NAMES = {cls: name for name, cls in KINDS.items()}

#: the most entries aclsim reads from a storage-dims array (a view's rank is at most meta.MAX_RANK)
MAX_STORAGE_DIMS = 64


class HandleTable:
    """Opaque pointer -> live aclnn object.  Pointers come from one counter, never reused in a
    process (a destroyed handle is always recognised), far from the runtime's addresses and from
    the pyACL face's handles."""

    _BASE = 0x7B00_0000_0000
    _STEP = 0x40

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._objects: dict[int, Any] = {}
        self._counter = itertools.count(1)
        self._next_sweep = 1024

    def add(self, obj: Any) -> int:
        with self._lock:
            if len(self._objects) >= self._next_sweep:
                self._sweep()
            h = self._BASE + self._STEP * next(self._counter)
            self._objects[h] = obj
        return h

    def _sweep(self) -> None:
        """Forget dead objects (elements released with their list)."""
        self._objects = {h: o for h, o in self._objects.items() if getattr(o, "alive", True)}
        self._next_sweep = max(1024, 2 * len(self._objects))

    def get(self, ptr: Any, cls: type, name: str) -> Any:
        """The object of ``cls`` behind the C pointer ``ptr`` (``None`` for NULL)."""
        h = ptr if type(ptr) is int else address(ptr)
        if h == 0:
            return None
        obj = self._objects.get(h)  # one dict read: atomic, no lock needed (writers swap or lock)
        if isinstance(obj, cls) and getattr(obj, "alive", True):
            return obj
        kind = _C_NAMES[cls]
        if obj is not None and not isinstance(obj, cls):
            raise AclnnParamInvalidError(f"{name} {h:#x} is an {_C_NAMES[type(obj)]}, not an {kind}",
                                         hint=f"pass the {kind} this parameter takes")
        if cls is aclnn.Executor:
            raise AclnnNullptrError(
                f"{name} {h:#x} is not a live aclOpExecutor (a non-repeatable executor is freed by its run, "
                "a repeatable one by aclDestroyAclOpExecutor)",
                hint="call aclnnXxxGetWorkspaceSize again for a new executor")
        raise AclnnParamInvalidError(f"{name} {h:#x} is not a live {kind} (destroyed, or never created)",
                                     hint=f"pass an {kind} from aclCreate{kind[3:]}, before it is destroyed")

    def remove_dead(self, ptr: Any) -> None:
        """Forget the object behind ``ptr`` if it is no longer alive."""
        h = address(ptr)
        with self._lock:
            obj = self._objects.get(h)
            if obj is not None and not getattr(obj, "alive", True):
                del self._objects[h]
                if isinstance(obj, (meta.AclTensorList, meta.AclScalarList)):
                    self._sweep()

    def count(self, cls: type) -> int:
        """How many live objects of ``cls`` there are."""
        with self._lock:
            return sum(isinstance(o, cls) and getattr(o, "alive", True) for o in self._objects.values())


#: the one table of the process
HANDLES = HandleTable()


def address(ptr: Any) -> int:
    """A ``void *`` as an int: the entry points pass handles and addresses as ints already
    (:func:`aclsim.capi.prototypes.transport`); a cdata pointer (an element of a pointer array,
    or a caller that passes cffi values) is converted."""
    if isinstance(ptr, int):
        return ptr
    return int(ffi().cast("uintptr_t", ptr))


def _new(obj: Any) -> int:
    """A new handle for ``obj`` as the ``void *`` the entry point returns (0 is NULL)."""
    return 0 if obj is None else HANDLES.add(obj)


def _need(ptr: Any, name: str) -> None:
    if not ptr:  # a NULL cdata pointer is false
        raise AclnnNullptrError(f"{name} is a null pointer: the OUT parameter needs an address to write to",
                                hint=f"pass the address of a variable, e.g. &{name}")


def _values(ptr: Any, count: int, ctype: str, name: str, limit: int | None = None) -> list[Any] | None:
    """``count`` C values of ``ctype`` at ``ptr`` (``None`` for NULL with a count, as the device
    refuses it; an empty list for ``count`` 0)."""
    count = int(count)
    if limit is not None and count > limit:
        raise AclnnParamInvalidError(f"{name} has {count} entries, more than the {limit} aclsim reads",
                                     hint="pass the number of entries of the array")
    if count == 0:
        return []
    if ptr == ffi().NULL:
        return None
    arr = ffi().cast(f"{ctype} *", ptr)
    return [arr[i] for i in range(count)]


# --- acl_meta.h: create ------------------------------------------------------------------------

@c_function
def aclCreateTensor(view_dims: Any, view_n: int, data_type: int, stride: Any, offset: int, fmt: Any,
                    storage_dims: Any, storage_n: int, tensor_data: Any) -> Any:
    dims = _values(view_dims, view_n, "int64_t", "viewDims", meta.MAX_RANK)
    strides = None if stride == ffi().NULL else _values(stride, view_n, "int64_t", "stride")
    storage = None if storage_dims == ffi().NULL and int(storage_n) == 0 else \
        _values(storage_dims, storage_n, "int64_t", "storageDims", MAX_STORAGE_DIMS)
    if storage is None and int(storage_n):
        raise AclnnNullptrError(f"storageDims is a null pointer with storageDimsNum {int(storage_n)}")
    data = address(tensor_data) or None
    return _new(meta.create_tensor(dims, data_type, strides, offset, fmt, storage, data))


@c_function
def aclCreateScalar(value: Any, data_type: int) -> Any:
    if address(value) == 0:
        return _new(meta.create_scalar(None, data_type))
    try:
        npdt = np.dtype(aclnn.numpy_dtype(data_type))
    except ValueError:
        raise AclnnParamInvalidError(
            f"dataType {data_type} is not an aclDataType aclsim models",
            hint="aclsim holds the types with a NumPy dtype (not INT4, FP8, ...)") from None
    raw = bytes(ffi().buffer(ffi().cast("char *", value), npdt.itemsize))
    return _new(meta.create_scalar(np.frombuffer(raw, npdt)[0], data_type))


@c_function
def aclCreateIntArray(value: Any, size: int) -> Any:
    return _new(meta.create_int_array(_values(value, size, "int64_t", "value")))  # type: ignore[arg-type]


@c_function
def aclCreateFloatArray(value: Any, size: int) -> Any:
    return _new(meta.create_float_array(_values(value, size, "float", "value")))  # type: ignore[arg-type]


@c_function
def aclCreateBoolArray(value: Any, size: int) -> Any:
    return _new(meta.create_bool_array(_values(value, size, "bool", "value")))  # type: ignore[arg-type]


def _objects(value: Any, size: int, cls: type, name: str) -> list[Any] | None:
    ptrs = _values(value, size, "void *", name)
    return None if ptrs is None else [HANDLES.get(p, cls, f"{name}[{i}]") for i, p in enumerate(ptrs)]


@c_function
def aclCreateTensorList(value: Any, size: int) -> Any:
    return _new(meta.create_tensor_list(_objects(value, size, meta.AclTensor, "value")))  # type: ignore[arg-type]


@c_function
def aclCreateScalarList(value: Any, size: int) -> Any:
    return _new(meta.create_scalar_list(_objects(value, size, meta.AclScalar, "value")))  # type: ignore[arg-type]


# --- acl_meta.h: destroy -----------------------------------------------------------------------

def _destroyer(c_name: str, cls: type, fn: Callable[[Any], int]) -> None:
    def destroy(obj: Any) -> int:
        status = fn(HANDLES.get(obj, cls, c_name[len("aclDestroy"):].lower()))
        HANDLES.remove_dead(obj)
        return status

    destroy.__name__ = destroy.__qualname__ = c_name
    c_function(destroy)


for _name, _fn in (("aclDestroyTensor", meta.destroy_tensor), ("aclDestroyScalar", meta.destroy_scalar),
                   ("aclDestroyIntArray", meta.destroy_int_array),
                   ("aclDestroyFloatArray", meta.destroy_float_array),
                   ("aclDestroyBoolArray", meta.destroy_bool_array),
                   ("aclDestroyTensorList", meta.destroy_tensor_list),
                   ("aclDestroyScalarList", meta.destroy_scalar_list)):
    _destroyer(_name, KINDS["acl" + _name[len("aclDestroy"):]], _fn)


# --- acl_meta.h: getters -----------------------------------------------------------------------

_LIBC = ctypes.CDLL(None)
_LIBC.malloc.restype = ctypes.c_void_p
_LIBC.malloc.argtypes = [ctypes.c_size_t]


def _tensor(ptr: Any) -> Any:
    t = HANDLES.get(ptr, meta.AclTensor, "tensor")
    if t is None:
        raise AclnnNullptrError("tensor is a null pointer", hint="pass an aclTensor from aclCreateTensor")
    return t


def _dims_out(tensor: Any, dims_out: Any, count_out: Any, getter: Callable[[Any], tuple[int, ...]],
              names: tuple[str, str]) -> int:
    """Write a malloc'd copy of ``getter(tensor)`` and its length (the caller frees the array)."""
    t = _tensor(tensor)
    _need(dims_out, names[0])
    _need(count_out, names[1])
    values = getter(t)
    mem = _LIBC.malloc(max(8 * len(values), 8))
    if not mem:
        raise AclnnParamInvalidError(f"cannot allocate {8 * len(values)} B for {names[0]}")
    arr = ffi().cast("int64_t *", mem)
    for i, v in enumerate(values):
        arr[i] = v
    dims_out[0] = arr
    count_out[0] = len(values)
    return ACLNN_SUCCESS


@c_function
def aclGetViewShape(tensor: Any, view_dims: Any, n: Any) -> int:
    return _dims_out(tensor, view_dims, n, meta.get_view_shape, ("viewDims", "viewDimsNum"))


@c_function
def aclGetStorageShape(tensor: Any, storage_dims: Any, n: Any) -> int:
    return _dims_out(tensor, storage_dims, n, meta.get_storage_shape, ("storageDims", "storageDimsNum"))


@c_function
def aclGetViewStrides(tensor: Any, strides: Any, n: Any) -> int:
    return _dims_out(tensor, strides, n, meta.get_view_strides, ("stridesValue", "stridesNum"))


def _scalar_out(ptr: Any, name: str, value: int) -> int:
    _need(ptr, name)
    ptr[0] = value
    return ACLNN_SUCCESS


@c_function
def aclGetViewOffset(tensor: Any, offset: Any) -> int:
    return _scalar_out(offset, "offset", meta.get_view_offset(_tensor(tensor)))


@c_function
def aclGetFormat(tensor: Any, fmt: Any) -> int:
    return _scalar_out(fmt, "format", int(meta.get_format(_tensor(tensor))))


@c_function
def aclGetDataType(tensor: Any, data_type: Any) -> int:
    return _scalar_out(data_type, "dataType", int(meta.get_data_type(_tensor(tensor))))


@c_function
def aclGetRawTensorAddr(tensor: Any, addr: Any) -> int:
    value = meta.get_raw_tensor_addr(_tensor(tensor))
    _need(addr, "addr")
    addr[0] = handle(value)
    return ACLNN_SUCCESS


def _sizer(c_name: str, cls: type) -> None:
    def size_of(array: Any, size: Any) -> int:
        obj = HANDLES.get(array, cls, "array")
        if obj is None:
            raise AclnnNullptrError("array is a null pointer", hint=f"pass an {_C_NAMES[cls]}")
        return _scalar_out(size, "size", meta.get_array_size(obj))

    size_of.__name__ = size_of.__qualname__ = c_name
    c_function(size_of)


for _name, _kind in (("aclGetIntArraySize", "aclIntArray"), ("aclGetFloatArraySize", "aclFloatArray"),
                     ("aclGetBoolArraySize", "aclBoolArray"), ("aclGetTensorListSize", "aclTensorList"),
                     ("aclGetScalarListSize", "aclScalarList")):
    _sizer(_name, KINDS[_kind])


@c_function
def aclInitTensor(tensor: Any, view_dims: Any, view_n: int, data_type: int, stride: Any, offset: int,
                  fmt: int, storage_dims: Any, storage_n: int, tensor_data: Any) -> int:
    t = _tensor(tensor)
    dims = _values(view_dims, view_n, "int64_t", "viewDims", meta.MAX_RANK)
    if dims is None:
        raise AclnnNullptrError(f"viewDims is a null pointer with viewDimsNum {int(view_n)}")
    strides = None if stride == ffi().NULL else _values(stride, view_n, "int64_t", "stride")
    storage = None if storage_dims == ffi().NULL and int(storage_n) == 0 else \
        _values(storage_dims, storage_n, "int64_t", "storageDims", MAX_STORAGE_DIMS)
    if storage is None and int(storage_n):
        raise AclnnNullptrError(f"storageDims is a null pointer with storageDimsNum {int(storage_n)}")
    meta.init_tensor(t, dims, data_type, strides, offset, fmt, storage, address(tensor_data) or None)
    return ACLNN_SUCCESS


@c_function
def aclSetRawTensorAddr(tensor: Any, addr: Any) -> int:
    meta.set_raw_tensor_addr(_tensor(tensor), address(addr) or None)
    return ACLNN_SUCCESS


# --- executors and aclnnInit -------------------------------------------------------------------

def _executor(ptr: Any) -> Any:
    return HANDLES.get(ptr, aclnn.Executor, "executor")


@c_function
def aclSetAclOpExecutorRepeatable(executor: Any) -> int:
    aclnn.set_executor_repeatable(_executor(executor))
    return ACLNN_SUCCESS


@c_function
def aclDestroyAclOpExecutor(executor: Any) -> int:
    aclnn.destroy_executor(_executor(executor))
    HANDLES.remove_dead(executor)
    return ACLNN_SUCCESS


@c_function
def aclSetInputTensorAddr(executor: Any, index: int, tensor: Any, addr: Any) -> int:
    aclnn.set_input_tensor_addr(_executor(executor), index, HANDLES.get(tensor, meta.AclTensor, "tensor"),
                                address(addr) or None)
    return ACLNN_SUCCESS


@c_function
def aclSetOutputTensorAddr(executor: Any, index: int, tensor: Any, addr: Any) -> int:
    aclnn.set_output_tensor_addr(_executor(executor), index, HANDLES.get(tensor, meta.AclTensor, "tensor"),
                                 address(addr) or None)
    return ACLNN_SUCCESS


@c_function
def aclnnInit(config_path: Any) -> int:
    aclnn.init(text(config_path))
    return ACLNN_SUCCESS


@c_function
def aclnnFinalize() -> int:
    aclnn.finalize()
    return ACLNN_SUCCESS


# --- the ops: aclnnop/aclnn_<op>.h -------------------------------------------------------------

def _converter(ctype: str, name: str) -> Callable[[Any], Any]:
    """How a phase-one parameter of C type ``ctype`` becomes the Python op's argument."""
    words = [w for w in ctype.replace("*", " ").split() if w != "const"]
    base = words[-1] if words else ""
    if "*" in ctype:
        if base not in KINDS:
            raise ValueError(f"aclnn parameter {ctype} {name}: only aclnn objects are passed by pointer")
        cls = KINDS[base]
        return lambda ptr: HANDLES.get(ptr, cls, name)
    if base == "bool":
        return bool
    if base in ("double", "float"):
        return float
    return int  # int64_t, int32_t, int8_t, aclDataType


def op_prototypes() -> list[Prototype]:
    """The prototypes of the generated ``aclnnop/`` headers."""
    return [p for p in load() if p.header.startswith("aclnnop/")]


def phase_one(proto: Prototype, op: str) -> Callable[..., int]:
    """The implementation of ``aclnn<op>GetWorkspaceSize``."""
    params = proto.params[:-2]
    if [p.name for p in proto.params[-2:]] != ["workspaceSize", "executor"]:
        raise ValueError(f"{proto.name}: phase one must end with workspaceSize and executor")
    converters = [_converter(p.ctype, p.name) for p in params]

    def impl(*args: Any) -> int:
        *ins, ws_out, ex_out = args
        _need(ws_out, "workspaceSize")
        _need(ex_out, "executor")
        args_py = [c(a) for c, a in zip(converters, ins, strict=True)]
        size, executor = aclnn.get_op(op).get_workspace_size(*args_py)
        ws_out[0] = int(size)
        ex_out[0] = handle(_new(executor))
        return ACLNN_SUCCESS

    impl.__name__ = impl.__qualname__ = proto.name
    return impl


def phase_two(proto: Prototype) -> Callable[..., int]:
    """The implementation of ``aclnn<op>(workspace, workspaceSize, executor, stream)``."""

    def impl(workspace: Any, workspace_size: int, executor: Any, stream: Any) -> int:
        try:
            aclnn.run(address(workspace), int(workspace_size), _executor(executor), address(stream))
        finally:  # a run frees a non-repeatable executor, also one refused for a missing workspace
            HANDLES.remove_dead(executor)
        return ACLNN_SUCCESS

    impl.__name__ = impl.__qualname__ = proto.name
    return impl


def _register_ops() -> None:
    for proto in op_prototypes():
        if proto.name in IMPLS:
            continue
        if proto.name.endswith("GetWorkspaceSize"):
            c_function(phase_one(proto, proto.name[len("aclnn"):-len("GetWorkspaceSize")]))
        else:
            c_function(phase_two(proto))


_register_ops()
