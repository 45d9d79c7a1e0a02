"""acl.util pointer helpers."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.acl as acl
from aclsim.acl.util import NPY_TYPES
from aclsim.errors import InvalidMemoryTypeError, InvalidParamError, UninitializedError

_NPY = {
    acl.NPY_BOOL: np.bool_, acl.NPY_BYTE: np.int8, acl.NPY_UBYTE: np.uint8, acl.NPY_SHORT: np.int16,
    acl.NPY_USHORT: np.uint16, acl.NPY_INT: np.int32, acl.NPY_UINT: np.uint32, acl.NPY_LONGLONG: np.longlong,
    acl.NPY_ULONGLONG: np.ulonglong, acl.NPY_FLOAT: np.float32, acl.NPY_DOUBLE: np.float64,
    acl.NPY_HALF: np.float16, acl.NPY_LONG: np.dtype("l").type, acl.NPY_ULONG: np.dtype("L").type,
}


def test_npy_type_table_matches_numpy() -> None:
    for num, typ in _NPY.items():
        assert NPY_TYPES[num] == np.dtype(typ)
        assert np.dtype(typ).num == num


@pytest.mark.parametrize("num", sorted(_NPY))
def test_ptr_to_numpy_with_type_numbers_is_a_view(dev: None, num: int) -> None:
    dt = np.dtype(_NPY[num])
    arr = np.arange(6).astype(dt)
    view = acl.util.ptr_to_numpy(acl.util.numpy_to_ptr(arr), (2, 3), num)
    assert view.dtype == dt and view.shape == (2, 3)
    np.testing.assert_array_equal(view.ravel(), arr)
    if dt != np.bool_:
        view[0, 0] = 5
        assert arr[0] == 5  # no copy


@pytest.mark.parametrize("npy_type", [np.float32, np.dtype(np.float32), "float32"])
def test_ptr_to_numpy_accepts_dtypes(dev: None, npy_type: object) -> None:
    arr = np.linspace(0, 1, 8, dtype=np.float32)
    view = acl.util.ptr_to_numpy(acl.util.numpy_to_ptr(arr), (8,), npy_type)
    np.testing.assert_array_equal(view, arr)


def test_ptr_to_numpy_of_pinned_memory_and_int_shape(dev: None) -> None:
    host, _ = acl.rt.malloc_host(64)
    view = acl.util.ptr_to_numpy(host, 16, acl.NPY_INT)
    view[:] = np.arange(16)
    assert acl.util.ptr_to_bytes(host, 8) == np.arange(2, dtype=np.int32).tobytes()
    assert acl.rt.free_host(host) == 0


def test_ptr_to_numpy_errors(dev: None) -> None:
    arr = np.zeros(4, dtype=np.float32)
    p = acl.util.numpy_to_ptr(arr)
    with pytest.raises(InvalidParamError):
        acl.util.ptr_to_numpy(p, (4,), 99)  # no such type number
    with pytest.raises(InvalidParamError):
        acl.util.ptr_to_numpy(p, (4,), object())
    with pytest.raises(InvalidParamError):
        acl.util.ptr_to_numpy(p, (-1,), acl.NPY_FLOAT)
    with pytest.raises(InvalidParamError):
        acl.util.ptr_to_numpy(p, "4", acl.NPY_FLOAT)  # type: ignore[arg-type]
    with pytest.raises(ValueError):  # RtParamInvalidError: past the end of the array
        acl.util.ptr_to_numpy(p, (8,), acl.NPY_FLOAT)
    d, _ = acl.rt.malloc(16, 0)
    with pytest.raises(InvalidMemoryTypeError):
        acl.util.ptr_to_numpy(d, (4,), acl.NPY_FLOAT)  # the host cannot see device memory
    with pytest.raises(InvalidMemoryTypeError):
        acl.util.ptr_to_bytes(d, 16)


def test_numpy_to_ptr(dev: None) -> None:
    arr = np.arange(10, dtype=np.int16)
    assert acl.util.numpy_to_ptr(arr) == arr.ctypes.data
    with pytest.raises(InvalidParamError):
        acl.util.numpy_to_ptr(np.arange(10)[::2])  # not contiguous
    with pytest.raises(TypeError):
        acl.util.numpy_to_ptr([1, 2, 3])  # type: ignore[arg-type]


def test_bytes_to_ptr_and_ptr_to_bytes(dev: None) -> None:
    data = b"hello aclsim"
    p = acl.util.bytes_to_ptr(data)
    assert acl.util.ptr_to_bytes(p, len(data)) == data
    assert acl.util.ptr_to_bytes(p + 6, 6) == b"aclsim"
    with pytest.raises(InvalidParamError):
        acl.util.bytes_to_ptr(b"")
    with pytest.raises(TypeError):
        acl.util.bytes_to_ptr("text")  # type: ignore[arg-type]
    with pytest.raises(InvalidParamError):
        acl.util.ptr_to_bytes(p, -1)


def test_util_before_init_raises() -> None:
    with pytest.raises(UninitializedError):
        acl.util.numpy_to_ptr(np.zeros(2))
    msg = acl.get_recent_err_msg()
    assert msg is not None and msg.startswith("acl.util.numpy_to_ptr: [ACL_ERROR_UNINITIALIZE 100001]")
