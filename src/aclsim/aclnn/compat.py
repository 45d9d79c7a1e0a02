"""aclnn with AscendCL's C names and pyACL's return convention (values first, the status last).

Code ported from C/C++ keeps its names::

    ws, executor, ret = aclnnAddGetWorkspaceSize(self, other, alpha, out)
    ret = aclnnAdd(workspace, ws, executor, stream)
    t = aclCreateTensor(view_dims, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage_dims, addr)
    ret = aclDestroyTensor(t)
    dims, ret = aclGetViewShape(t)

Every function of this module goes through one boundary (:func:`_call`): an aclnn or ACL
error becomes its status, its message is logged (logger ``"aclsim.aclnn"``) and kept for
:func:`aclGetRecentErrMsg` (in :mod:`aclsim.recent_errors`, the store that
``acl.get_recent_err_msg()`` reads too); the OUT values are placeholders then (``None`` for a
handle, 0 for a number).  Any other exception is a bug in aclsim: it is logged with its traceback and
reported as 561000 (``ACLNN_ERR_INNER``).  Nothing here raises, except ``TypeError`` for a
call with the wrong number of arguments (as pyACL's argument parser does).

Every registered op ``Xxx`` has ``aclnnXxxGetWorkspaceSize`` and ``aclnnXxx`` here.

>>> import aclsim
>>> from aclsim.aclnn import compat as nn
>>> nn.aclCreateTensor([2], nn.ACL_FLOAT, [1], 0, nn.ACL_FORMAT_ND, [2], 48) is None
True
>>> nn.aclGetRecentErrMsg().splitlines()[0][:60]
'aclCreateTensor: [ACLNN_ERR_PARAM_INVALID 161002] device_add'
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from aclsim import aclnn
from aclsim.aclnn import config, meta
from aclsim.aclnn import executor as _ex
from aclsim.aclnn.dtypes import DataType, Format
from aclsim.errors import ACLNN_ERR_INNER, ACLNN_SUCCESS, AclError, AclnnError
from aclsim.recent_errors import record_error, take_recent_errors

LOGGER = logging.getLogger("aclsim.aclnn")
LOGGER.addHandler(logging.NullHandler())

__all__ = ["ACLNN_SUCCESS", "aclGetRecentErrMsg"]

# the enum values under their C names: ACL_FLOAT, ACL_FORMAT_ND, ...
for _enum in (DataType, Format):
    for _m in _enum:
        globals()[_m.name] = int(_m)
        __all__.append(_m.name)


def _call(api: str, fn: Callable[..., Any], args: tuple[Any, ...]) -> tuple[Any, int]:
    """The boundary: ``(result, ACLNN_SUCCESS)`` or ``(None, status)`` with the message kept."""
    try:
        return fn(*args), ACLNN_SUCCESS
    except AclError as exc:
        message = f"{api}: {exc}"
        code = exc.code
    except Exception as exc:
        tb = exc.__traceback__
        if isinstance(exc, TypeError) and tb is not None and tb.tb_next is None:
            raise  # the call itself did not bind
        LOGGER.exception("%s: unexpected %s (a bug in aclsim)", api, type(exc).__name__)
        message = f"{api}: {AclnnError(f'unexpected {type(exc).__name__}: {exc}', hint='a bug in aclsim')}"
        code = ACLNN_ERR_INNER
    LOGGER.error("%s", message)
    record_error(message)
    return None, code


def aclGetRecentErrMsg() -> str | None:  # noqa: N802 (AscendCL's name)
    """The messages of this thread's failed calls, latest first (``None`` if none), then cleared.

    One store with ``acl.get_recent_err_msg()`` (:mod:`aclsim.recent_errors`): failed pyACL
    calls show here and failed aclnn calls there, as the device's ``aclGetRecentErrMsg``
    reports both."""
    return take_recent_errors()


def _status(api: str, fn: Callable[..., Any]) -> Callable[..., int]:
    @functools.wraps(fn)
    def wrapper(*args: Any) -> int:
        return _call(api, fn, args)[1]

    wrapper.__name__ = wrapper.__qualname__ = api
    return wrapper


def _value(api: str, fn: Callable[..., Any], placeholder: Any = None) -> Callable[..., Any]:
    """A C function that returns a handle (``NULL`` on failure): just the value."""

    @functools.wraps(fn)
    def wrapper(*args: Any) -> Any:
        out, code = _call(api, fn, args)
        return placeholder if code else out

    wrapper.__name__ = wrapper.__qualname__ = api
    return wrapper


def _out(api: str, fn: Callable[..., Any], placeholder: Any) -> Callable[..., tuple[Any, int]]:
    """A C function with one OUT value: ``(value, status)``."""

    @functools.wraps(fn)
    def wrapper(*args: Any) -> tuple[Any, int]:
        out, code = _call(api, fn, args)
        return (placeholder if code else out), code

    wrapper.__name__ = wrapper.__qualname__ = api
    return wrapper


def _phase_one(api: str, fn: Callable[..., Any]) -> Callable[..., tuple[int, Any, int]]:
    @functools.wraps(fn)
    def wrapper(*args: Any) -> tuple[int, Any, int]:
        out, code = _call(api, fn, args)
        return (0, None, code) if code else (out[0], out[1], code)

    wrapper.__name__ = wrapper.__qualname__ = api
    return wrapper


def _export(api: str, wrapper: Callable[..., Any]) -> None:
    globals()[api] = wrapper
    __all__.append(api)


def _destroyed(fn: Callable[..., int]) -> Callable[..., None]:
    def call(obj: Any) -> None:
        fn(obj)

    return call


def _sized(obj: Any) -> int:
    return meta.get_array_size(obj)


_HANDLES: dict[str, Callable[..., Any]] = {
    "aclCreateTensor": meta.create_tensor,
    "aclCreateScalar": meta.create_scalar,
    "aclCreateIntArray": meta.create_int_array,
    "aclCreateFloatArray": meta.create_float_array,
    "aclCreateBoolArray": meta.create_bool_array,
    "aclCreateTensorList": meta.create_tensor_list,
    "aclCreateScalarList": meta.create_scalar_list,
}
_STATUS: dict[str, Callable[..., Any]] = {
    "aclnnInit": config.init,
    "aclnnFinalize": config.finalize,
    "aclDestroyTensor": _destroyed(meta.destroy_tensor),
    "aclDestroyScalar": _destroyed(meta.destroy_scalar),
    "aclDestroyIntArray": _destroyed(meta.destroy_int_array),
    "aclDestroyFloatArray": _destroyed(meta.destroy_float_array),
    "aclDestroyBoolArray": _destroyed(meta.destroy_bool_array),
    "aclDestroyTensorList": _destroyed(meta.destroy_tensor_list),
    "aclDestroyScalarList": _destroyed(meta.destroy_scalar_list),
    "aclInitTensor": meta.init_tensor,
    "aclSetRawTensorAddr": meta.set_raw_tensor_addr,
    "aclSetAclOpExecutorRepeatable": _ex.set_executor_repeatable,
    "aclDestroyAclOpExecutor": _ex.destroy_executor,
    "aclSetInputTensorAddr": _ex.set_input_tensor_addr,
    "aclSetOutputTensorAddr": _ex.set_output_tensor_addr,
}
_OUT: dict[str, tuple[Callable[..., Any], Any]] = {
    "aclGetViewShape": (lambda t: list(meta.get_view_shape(t)), None),
    "aclGetStorageShape": (lambda t: list(meta.get_storage_shape(t)), None),
    "aclGetViewStrides": (lambda t: list(meta.get_view_strides(t)), None),
    "aclGetViewOffset": (meta.get_view_offset, 0),
    "aclGetFormat": (lambda t: int(meta.get_format(t)), 0),
    "aclGetDataType": (lambda t: int(meta.get_data_type(t)), 0),
    "aclGetRawTensorAddr": (meta.get_raw_tensor_addr, 0),
    "aclGetIntArraySize": (_sized, 0),
    "aclGetFloatArraySize": (_sized, 0),
    "aclGetBoolArraySize": (_sized, 0),
    "aclGetTensorListSize": (_sized, 0),
    "aclGetScalarListSize": (_sized, 0),
}

for _api, _fn in _HANDLES.items():
    _export(_api, _value(_api, _fn))
for _api, _fn in _STATUS.items():
    _export(_api, _status(_api, _fn))
for _api, (_fn, _placeholder) in _OUT.items():
    _export(_api, _out(_api, _fn, _placeholder))


def _run(workspace: Any, workspace_size: int, executor: Any, stream: Any) -> None:
    _ex.run(workspace, workspace_size, executor, stream)


for _name in aclnn.op_names():
    _op = aclnn.get_op(_name)
    _api = f"aclnn{_name}GetWorkspaceSize"
    _export(_api, _phase_one(_api, _op.get_workspace_size))
    _export(f"aclnn{_name}", _status(f"aclnn{_name}", _run))


def __getattr__(name: str) -> Any:
    """The C names of an op registered after this module was imported (``register_op`` from a
    user's module): ``aclnn<Op>GetWorkspaceSize`` and ``aclnn<Op>``."""
    op_name = name[len("aclnn"):] if name.startswith("aclnn") else ""
    if op_name.endswith("GetWorkspaceSize"):
        op_name = op_name[: -len("GetWorkspaceSize")]
        if op_name in aclnn.op_names():
            _export(name, _phase_one(name, aclnn.get_op(op_name).get_workspace_size))
            return globals()[name]
    elif op_name in aclnn.op_names():
        _export(name, _status(name, _run))
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
