"""The aclnn meta API: tensor descriptors, scalars, arrays and lists (``acl_meta.h``).

Python forms of AscendCL's calls: ``create_tensor(view_dims, data_type, strides, offset,
format, storage_dims, device_addr)`` (the counts of the C form are the lengths of the
sequences), ``create_scalar(value, data_type)``, ``create_int_array(values)``, ...; getters
return the value; ``destroy_*`` release.  Errors raise :class:`~aclsim.errors.AclnnError`
subclasses carrying the aclnn status (161001 for a ``None`` argument, 161002 for a bad one);
:mod:`aclsim.aclnn.compat` turns them into C-style returns.

Where the device's behaviour is undefined, aclsim refuses with 161002 rather than guess: a
``device_addr`` not 32 B aligned, and a view that reaches past its storage.

>>> t = create_tensor([2, 3], DataType.ACL_FLOAT, None, 0, Format.ACL_FORMAT_ND, None, None)
>>> get_view_shape(t), get_view_strides(t), get_storage_shape(t)
((2, 3), (3, 1), (2, 3))
>>> destroy_tensor(t)
0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from aclsim.aclnn.dtypes import DataType, Format, element_size, numpy_dtype
from aclsim.errors import AclnnNullptrError, AclnnParamInvalidError

__all__ = [
    "AclBoolArray",
    "AclFloatArray",
    "AclIntArray",
    "AclScalar",
    "AclScalarList",
    "AclTensor",
    "AclTensorList",
    "MAX_RANK",
    "create_bool_array",
    "create_float_array",
    "create_int_array",
    "create_scalar",
    "create_scalar_list",
    "create_tensor",
    "create_tensor_list",
    "destroy",
    "destroy_bool_array",
    "destroy_float_array",
    "destroy_int_array",
    "destroy_scalar",
    "destroy_scalar_list",
    "destroy_tensor",
    "destroy_tensor_list",
    "get_array_size",
    "get_data_type",
    "get_format",
    "get_raw_tensor_addr",
    "get_storage_shape",
    "get_view_offset",
    "get_view_shape",
    "get_view_strides",
    "init_tensor",
    "set_raw_tensor_addr",
]

MAX_RANK = 8
ADDRESS_ALIGN = 32  # aclCreateTensor: tensorData must be 32 B aligned (else undefined on the device)

F = Format
#: aclCreateTensor's formats and the ranks each allows (reference section 4); ND takes any rank.
_FORMAT_RANKS: dict[Format, tuple[int, ...] | None] = {
    F.ACL_FORMAT_ND: None,
    F.ACL_FORMAT_NCHW: (4,),
    F.ACL_FORMAT_NHWC: (4,),
    F.ACL_FORMAT_HWCN: (4,),
    F.ACL_FORMAT_NDHWC: (5,),
    F.ACL_FORMAT_NCDHW: (5,),
    F.ACL_FORMAT_NC: (2,),
    F.ACL_FORMAT_NCL: (3,),
}


def _ints(values: Any, what: str) -> tuple[int, ...]:
    try:
        out = tuple(int(v) for v in values)
    except (TypeError, ValueError):
        raise AclnnParamInvalidError(f"{what} must be a sequence of integers, got {values!r}") from None
    for v, raw in zip(out, values, strict=True):
        if isinstance(raw, (float, np.floating)) and raw != v:
            raise AclnnParamInvalidError(f"{what} must be integers, got {raw!r}")
    return out


def _address(addr: Any) -> int:
    if addr is None:
        return 0
    ptr = getattr(addr, "ptr", addr)  # a runtime Buffer, or an int address
    if isinstance(ptr, bool) or not isinstance(ptr, (int, np.integer)) or ptr < 0:
        raise AclnnParamInvalidError(f"device_addr must be a device address (int or Buffer), got {addr!r}")
    if ptr % ADDRESS_ALIGN:
        raise AclnnParamInvalidError(
            f"device_addr 0x{int(ptr):x} is not {ADDRESS_ALIGN} B aligned",
            hint="aclCreateTensor requires a 32 B aligned tensorData (the device's behaviour is undefined "
            "otherwise; aclsim refuses it): point at the storage's start and put the element offset "
            "in `offset`",
        )
    return int(ptr)


def _alive(obj: Any, cls: type, what: str) -> Any:  # the live object, typed Any for the getters
    if obj is None:
        raise AclnnNullptrError(f"{what} is None", hint=f"pass an {cls.__name__}")
    if not isinstance(obj, cls):
        raise AclnnParamInvalidError(f"{what} must be an {cls.__name__}, got {type(obj).__name__}")
    if not getattr(obj, "alive", False):
        raise AclnnParamInvalidError(f"{what} {obj!r} was destroyed", hint="create a new one")
    return obj


class AclTensor:
    """``aclTensor``: a view (shape, strides and offset in elements) into a storage at a device address."""

    __slots__ = (
        "view_dims",
        "data_type",
        "strides",
        "offset",
        "format",
        "storage_dims",
        "device_addr",
        "alive",
    )

    def __init__(
        self,
        view_dims: tuple[int, ...],
        data_type: DataType,
        strides: tuple[int, ...],
        offset: int,
        fmt: Format,
        storage_dims: tuple[int, ...],
        device_addr: int,
    ) -> None:
        self.view_dims, self.data_type, self.strides, self.offset = view_dims, data_type, strides, offset
        self.format, self.storage_dims, self.device_addr = fmt, storage_dims, device_addr
        self.alive = True

    @property
    def shape(self) -> tuple[int, ...]:
        return self.view_dims

    @property
    def rank(self) -> int:
        return len(self.view_dims)

    @property
    def dtype(self) -> np.dtype:
        return numpy_dtype(self.data_type)

    @property
    def itemsize(self) -> int:
        return element_size(self.data_type)

    @property
    def numel(self) -> int:
        return int(np.prod(self.view_dims, dtype=np.int64))

    def is_contiguous(self) -> bool:
        """Row-major with no gaps (dims of size 1 may have any stride)."""
        expect = 1
        for d, s in zip(reversed(self.view_dims), reversed(self.strides), strict=True):
            if d != 1 and s != expect:
                return False
            expect *= d
        return True

    def __repr__(self) -> str:
        state = "" if self.alive else " destroyed"
        return (
            f"<aclTensor {self.data_type.name} {list(self.view_dims)} strides {list(self.strides)} "
            f"offset {self.offset} @0x{self.device_addr:x}{state}>"
        )


def _check_tensor(
    view_dims: tuple[int, ...],
    data_type: Any,
    strides: tuple[int, ...],
    offset: int,
    fmt: Any,
    storage_dims: tuple[int, ...],
) -> tuple[DataType, Format]:
    try:
        dt = DataType(data_type)
    except ValueError:
        raise AclnnParamInvalidError(f"data_type {data_type!r} is not an aclDataType") from None
    if element_size(dt) == 0 or dt not in (d for d in DataType if d.value >= 0 and _has_numpy(d)):
        raise AclnnParamInvalidError(
            f"data_type {dt.name} is not modelled by aclsim",
            hint="aclsim holds the types with a NumPy dtype (not INT4, FP8, ...)",
        )
    try:
        f = Format(fmt)
    except ValueError:
        raise AclnnParamInvalidError(f"format {fmt!r} is not an aclFormat") from None
    if f not in _FORMAT_RANKS:
        raise AclnnParamInvalidError(
            f"format {f.name} is not accepted by aclCreateTensor",
            hint="use ND, NCHW, NHWC, HWCN, NDHWC, NCDHW, NC or NCL",
        )
    ranks = _FORMAT_RANKS[f]
    if ranks is not None and len(view_dims) not in ranks:
        raise AclnnParamInvalidError(
            f"format {f.name} needs rank {ranks[0]}, view_dims has rank {len(view_dims)}",
            hint="use ACL_FORMAT_ND for other ranks",
        )
    if len(view_dims) > MAX_RANK:
        raise AclnnParamInvalidError(f"view_dims has rank {len(view_dims)}, more than {MAX_RANK}")
    if any(d < 0 for d in view_dims) or any(d < 0 for d in storage_dims):
        raise AclnnParamInvalidError(
            f"dims must be >= 0, got view {list(view_dims)} storage {list(storage_dims)}"
        )
    if len(strides) != len(view_dims):
        raise AclnnParamInvalidError(f"strides has {len(strides)} entries for a rank-{len(view_dims)} view")
    if any(s < 0 for s in strides) or offset < 0:
        raise AclnnParamInvalidError(f"strides and offset must be >= 0, got {list(strides)}, {offset}")
    if all(d > 0 for d in view_dims):
        last = offset + sum((d - 1) * s for d, s in zip(view_dims, strides, strict=True))
        capacity = int(np.prod(storage_dims, dtype=np.int64))
        if last >= capacity:
            raise AclnnParamInvalidError(
                f"the view (dims {list(view_dims)}, strides {list(strides)}, offset {offset}) reaches "
                f"element {last}, past the storage {list(storage_dims)} of {capacity} elements",
                hint="give storage_dims the physical extent of the memory the view lies in",
            )
    return dt, f


def _has_numpy(dt: DataType) -> bool:
    try:
        numpy_dtype(dt)
    except ValueError:
        return False
    return True


def _contiguous_strides(dims: Sequence[int]) -> tuple[int, ...]:
    out, acc = [], 1
    for d in reversed(dims):
        out.append(acc)
        acc *= max(d, 1)
    return tuple(reversed(out))


def create_tensor(
    view_dims: Sequence[int] | None,
    data_type: DataType | int,
    strides: Sequence[int] | None = None,
    offset: int = 0,
    format: Format | int = Format.ACL_FORMAT_ND,  # noqa: A002 (AscendCL's name)
    storage_dims: Sequence[int] | None = None,
    device_addr: Any = None,
) -> AclTensor:
    """``aclCreateTensor``: a view of ``view_dims`` elements of ``data_type``.

    ``strides`` and ``offset`` are in elements (``None`` strides: row-major); ``storage_dims``
    is the physical extent (``None``: the view's dims, for a contiguous tensor); ``device_addr``
    is the storage's start (an int or a runtime ``Buffer``, 32 B aligned; ``None`` for a
    tensor whose address is set later).

    >>> t = create_tensor([6, 5], DataType.ACL_FLOAT16, [10, 1], 22, Format.ACL_FORMAT_ND, [10, 10], None)
    >>> t.is_contiguous(), t.numel
    (False, 30)
    """
    if view_dims is None:
        raise AclnnNullptrError("view_dims is None", hint="pass the view's shape ([] for a scalar tensor)")
    dims = _ints(view_dims, "view_dims")
    st = _contiguous_strides(dims) if strides is None else _ints(strides, "strides")
    storage = dims if storage_dims is None else _ints(storage_dims, "storage_dims")
    off = _ints([offset], "offset")[0]
    dt, f = _check_tensor(dims, data_type, st, off, format, storage)
    return AclTensor(dims, dt, st, off, f, storage, _address(device_addr))


def init_tensor(
    tensor: AclTensor,
    view_dims: Sequence[int],
    data_type: DataType | int,
    strides: Sequence[int] | None,
    offset: int,
    format: Format | int,  # noqa: A002
    storage_dims: Sequence[int] | None,
    device_addr: Any,
) -> None:
    """``aclInitTensor``: re-describe an existing tensor (nothing changes if the new description is bad)."""
    t = _alive(tensor, AclTensor, "tensor")
    new = create_tensor(view_dims, data_type, strides, offset, format, storage_dims, device_addr)
    for name in AclTensor.__slots__:
        setattr(t, name, getattr(new, name))


class AclScalar:
    """``aclScalar``: one host value of a data type, copied at creation."""

    __slots__ = ("value", "data_type", "alive")

    def __init__(self, value: Any, data_type: DataType) -> None:
        self.value, self.data_type, self.alive = value, data_type, True

    @property
    def dtype(self) -> np.dtype:
        return numpy_dtype(self.data_type)

    def __repr__(self) -> str:
        return f"<aclScalar {self.data_type.name} {self.value!r}>"


def create_scalar(value: Any, data_type: DataType | int) -> AclScalar:
    """``aclCreateScalar``: ``value`` (a Python or NumPy number) held as ``data_type``.

    >>> create_scalar(1.5, DataType.ACL_FLOAT16).value
    np.float16(1.5)
    """
    if value is None:
        raise AclnnNullptrError("value is None", hint="pass the scalar's value")
    try:
        dt = DataType(data_type)
        npdt = numpy_dtype(dt)
    except ValueError:
        raise AclnnParamInvalidError(f"data_type {data_type!r} is not an aclDataType aclsim models") from None
    try:
        with np.errstate(all="ignore"):
            v = np.asarray(value).astype(npdt)[()] if np.ndim(value) == 0 else None
    except (TypeError, ValueError):
        v = None
    if v is None:
        raise AclnnParamInvalidError(f"value {value!r} is not a number of type {dt.name}")
    return AclScalar(v, dt)


class _Array:
    __slots__ = ("values", "alive")
    kind = "array"

    def __init__(self, values: tuple[Any, ...]) -> None:
        self.values, self.alive = values, True

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, i: int) -> Any:
        return self.values[i]

    def __repr__(self) -> str:
        return f"<{self.kind} {list(self.values)}>"


class AclIntArray(_Array):
    """``aclIntArray``: int64 values copied at creation."""

    __slots__ = ()
    kind = "aclIntArray"


class AclFloatArray(_Array):
    """``aclFloatArray``: float values copied at creation."""

    __slots__ = ()
    kind = "aclFloatArray"


class AclBoolArray(_Array):
    """``aclBoolArray``: bool values copied at creation."""

    __slots__ = ()
    kind = "aclBoolArray"


class AclTensorList(_Array):
    """``aclTensorList``: tensors (not copied: the list refers to them)."""

    __slots__ = ()
    kind = "aclTensorList"


class AclScalarList(_Array):
    """``aclScalarList``: scalars."""

    __slots__ = ()
    kind = "aclScalarList"


def _seq(values: Any, what: str) -> list[Any]:
    if values is None:
        raise AclnnNullptrError(f"{what} is None", hint="pass a sequence (it may be empty)")
    try:
        return list(values)
    except TypeError:
        raise AclnnParamInvalidError(f"{what} must be a sequence, got {type(values).__name__}") from None


def create_int_array(values: Sequence[int]) -> AclIntArray:
    """``aclCreateIntArray`` (an empty array is accepted: ReduceSum reads it as "all dims")."""
    return AclIntArray(_ints(_seq(values, "values"), "values"))


def create_float_array(values: Sequence[float]) -> AclFloatArray:
    """``aclCreateFloatArray``."""
    try:
        return AclFloatArray(tuple(float(v) for v in _seq(values, "values")))
    except (TypeError, ValueError):
        raise AclnnParamInvalidError(f"values must be numbers, got {values!r}") from None


def create_bool_array(values: Sequence[bool]) -> AclBoolArray:
    """``aclCreateBoolArray``."""
    return AclBoolArray(tuple(bool(v) for v in _seq(values, "values")))


def create_tensor_list(tensors: Sequence[AclTensor]) -> AclTensorList:
    """``aclCreateTensorList``: every element a live tensor."""
    items = _seq(tensors, "tensors")
    for i, t in enumerate(items):
        _alive(t, AclTensor, f"tensors[{i}]")
    return AclTensorList(tuple(items))


def create_scalar_list(scalars: Sequence[AclScalar]) -> AclScalarList:
    """``aclCreateScalarList``: every element a live scalar."""
    items = _seq(scalars, "scalars")
    for i, s in enumerate(items):
        _alive(s, AclScalar, f"scalars[{i}]")
    return AclScalarList(tuple(items))


# --- getters --------------------------------------------------------------------------------


def get_view_shape(tensor: AclTensor) -> tuple[int, ...]:
    """``aclGetViewShape``."""
    return _alive(tensor, AclTensor, "tensor").view_dims


def get_storage_shape(tensor: AclTensor) -> tuple[int, ...]:
    """``aclGetStorageShape``."""
    return _alive(tensor, AclTensor, "tensor").storage_dims


def get_view_strides(tensor: AclTensor) -> tuple[int, ...]:
    """``aclGetViewStrides``."""
    return _alive(tensor, AclTensor, "tensor").strides


def get_view_offset(tensor: AclTensor) -> int:
    """``aclGetViewOffset``."""
    return _alive(tensor, AclTensor, "tensor").offset


def get_format(tensor: AclTensor) -> Format:
    """``aclGetFormat``."""
    return _alive(tensor, AclTensor, "tensor").format


def get_data_type(tensor: AclTensor) -> DataType:
    """``aclGetDataType``."""
    return _alive(tensor, AclTensor, "tensor").data_type


def get_raw_tensor_addr(tensor: AclTensor) -> int:
    """``aclGetRawTensorAddr``: the storage's device address (0 when unset)."""
    return _alive(tensor, AclTensor, "tensor").device_addr


def set_raw_tensor_addr(tensor: AclTensor, addr: Any) -> None:
    """``aclSetRawTensorAddr``: point the tensor at another storage (32 B aligned)."""
    t = _alive(tensor, AclTensor, "tensor")
    t.device_addr = _address(addr)


def get_array_size(array: Any) -> int:
    """``aclGet{Int,Float,Bool}ArraySize`` / ``aclGet{Tensor,Scalar}ListSize``."""
    return len(_alive(array, _Array, "array"))


# --- destroy ---------------------------------------------------------------------------------


def destroy(obj: Any, cls: type = object) -> int:
    """Release any meta object; ``None`` is accepted (status 0), as ``aclDestroyTensor(NULL)``."""
    if obj is None:
        return 0
    if not isinstance(obj, cls) or not hasattr(obj, "alive"):
        raise AclnnParamInvalidError(
            f"cannot destroy a {type(obj).__name__} here", hint=f"pass an {cls.__name__}"
        )
    if not obj.alive:
        raise AclnnParamInvalidError(f"{obj!r} was already destroyed", hint="destroy each object once")
    obj.alive = False
    return 0


def destroy_tensor(tensor: AclTensor | None) -> int:
    """``aclDestroyTensor``: returns 0."""
    return destroy(tensor, AclTensor)


def destroy_scalar(scalar: AclScalar | None) -> int:
    """``aclDestroyScalar``."""
    return destroy(scalar, AclScalar)


def destroy_int_array(array: AclIntArray | None) -> int:
    """``aclDestroyIntArray``."""
    return destroy(array, AclIntArray)


def destroy_float_array(array: AclFloatArray | None) -> int:
    """``aclDestroyFloatArray``."""
    return destroy(array, AclFloatArray)


def destroy_bool_array(array: AclBoolArray | None) -> int:
    """``aclDestroyBoolArray``."""
    return destroy(array, AclBoolArray)


def destroy_tensor_list(tensors: AclTensorList | None) -> int:
    """``aclDestroyTensorList`` (the tensors in it are released too, as in AscendCL)."""
    if tensors is not None and isinstance(tensors, AclTensorList) and tensors.alive:
        for t in tensors.values:
            if t.alive:
                t.alive = False
    return destroy(tensors, AclTensorList)


def destroy_scalar_list(scalars: AclScalarList | None) -> int:
    """``aclDestroyScalarList`` (the scalars in it are released too)."""
    if scalars is not None and isinstance(scalars, AclScalarList) and scalars.alive:
        for s in scalars.values:
            s.alive = False
    return destroy(scalars, AclScalarList)
