"""Tensor descriptions and data buffers of the pyACL face (acl.create_tensor_desc, ...)."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim.acl as acl
from aclsim.errors import ACL_ERROR_INVALID_PARAM


def _msg() -> str:
    text = acl.get_recent_err_msg()
    assert text is not None
    return text


def test_description_getters() -> None:
    desc = acl.create_tensor_desc(acl.ACL_FLOAT16, [2, 3, 5], acl.ACL_FORMAT_NCHW)
    assert isinstance(desc, int) and desc != 0
    assert acl.get_tensor_desc_type(desc) == acl.ACL_FLOAT16
    assert acl.get_tensor_desc_format(desc) == acl.ACL_FORMAT_NCHW
    assert acl.get_tensor_desc_num_dims(desc) == 3
    assert acl.get_tensor_desc_element_count(desc) == 30
    assert acl.get_tensor_desc_size(desc) == 60
    assert [acl.get_tensor_desc_dim_v2(desc, i) for i in range(3)] == [(2, 0), (3, 0), (5, 0)]
    assert acl.get_tensor_desc_dim(desc, 2) == 5
    assert acl.destroy_tensor_desc(desc) is None
    assert acl.get_recent_err_msg() is None


def test_scalar_empty_dynamic_and_unknown_rank() -> None:
    scalar = acl.create_tensor_desc(acl.ACL_INT32, [], acl.ACL_FORMAT_ND)
    assert (acl.get_tensor_desc_num_dims(scalar), acl.get_tensor_desc_size(scalar)) == (0, 4)
    empty = acl.create_tensor_desc(acl.ACL_FLOAT, [4, 0], acl.ACL_FORMAT_ND)
    assert (acl.get_tensor_desc_element_count(empty), acl.get_tensor_desc_size(empty)) == (0, 0)
    dynamic = acl.create_tensor_desc(acl.ACL_FLOAT, [-1, 8], acl.ACL_FORMAT_ND)
    assert acl.get_tensor_desc_dim_v2(dynamic, 0) == (-1, 0)
    assert acl.get_tensor_desc_size(dynamic) == 0
    unknown = acl.create_tensor_desc(acl.ACL_FLOAT, [-2], acl.ACL_FORMAT_ND)
    assert acl.get_tensor_desc_num_dims(unknown) == acl.ACL_UNKNOWN_RANK == 0xFFFFFFFFFFFFFFFE
    assert acl.get_tensor_desc_dim_v2(unknown, 0) == (0, ACL_ERROR_INVALID_PARAM)
    _msg()
    for d in (scalar, empty, dynamic, unknown):
        acl.destroy_tensor_desc(d)


def test_dims_as_tuple_or_array_and_numpy_ints() -> None:
    desc = acl.create_tensor_desc(np.int64(acl.ACL_BF16), np.array([3, 4]), acl.ACL_FORMAT_ND)
    assert acl.get_tensor_desc_size(desc) == 24
    acl.destroy_tensor_desc(desc)


@pytest.mark.parametrize(
    ("args", "word"),
    [
        ((999, [2], acl.ACL_FORMAT_ND), "data_type 999"),
        ((acl.ACL_FLOAT, [2], 777), "format 777"),
        ((acl.ACL_FLOAT, [2, -3], acl.ACL_FORMAT_ND), "-3"),
        ((acl.ACL_FLOAT, [-2, 4], acl.ACL_FORMAT_ND), "-2"),
        ((acl.ACL_FLOAT, "23", acl.ACL_FORMAT_ND), "list of ints"),
        ((acl.ACL_FLOAT, [2.5], acl.ACL_FORMAT_ND), "dims[0]"),
    ],
)
def test_bad_descriptions_return_null(args: tuple, word: str) -> None:
    assert acl.create_tensor_desc(*args) == 0
    msg = _msg()
    assert "acl.create_tensor_desc: [ACL_ERROR_INVALID_PARAM 100000]" in msg and word in msg


def test_bad_handles_give_the_c_placeholders_and_a_message() -> None:
    desc = acl.create_tensor_desc(acl.ACL_FLOAT, [2], acl.ACL_FORMAT_ND)
    buf = acl.create_data_buffer(0, 0)
    acl.destroy_tensor_desc(desc)
    for bad in (desc, 0, buf, 12345, "x"):
        assert acl.get_tensor_desc_type(bad) == acl.ACL_DT_UNDEFINED
        assert acl.get_tensor_desc_format(bad) == acl.ACL_FORMAT_UNDEFINED
        assert acl.get_tensor_desc_size(bad) == 0
        assert acl.get_tensor_desc_num_dims(bad) == 0
        assert acl.get_tensor_desc_element_count(bad) == 0
        assert acl.get_tensor_desc_dim_v2(bad, 0) == (0, ACL_ERROR_INVALID_PARAM)
        assert acl.get_tensor_desc_dim(bad, 0) == -1
        assert acl.destroy_tensor_desc(bad) is None
    msg = _msg()
    assert "an aclDataBuffer; an aclTensorDesc is expected" in msg
    assert "not a live handle" in msg and "a null handle" in msg
    acl.destroy_data_buffer(buf)


def test_dim_index_out_of_range() -> None:
    desc = acl.create_tensor_desc(acl.ACL_FLOAT, [2, 3], acl.ACL_FORMAT_ND)
    assert acl.get_tensor_desc_dim_v2(desc, 2) == (0, ACL_ERROR_INVALID_PARAM)
    assert "index 2 is out of range" in _msg()
    assert acl.get_tensor_desc_dim_v2(desc, -1) == (0, ACL_ERROR_INVALID_PARAM)
    acl.destroy_tensor_desc(desc)
    acl.get_recent_err_msg()


def test_data_buffers() -> None:
    buf = acl.create_data_buffer(0x1000, 256)
    assert (
        acl.get_data_buffer_addr(buf),
        acl.get_data_buffer_size_v2(buf),
        acl.get_data_buffer_size(buf),
    ) == (0x1000, 256, 256)
    assert acl.update_data_buffer(buf, 0x2000, 64) == 0
    assert (acl.get_data_buffer_addr(buf), acl.get_data_buffer_size_v2(buf)) == (0x2000, 64)
    assert acl.update_data_buffer(buf, 0x3000, -1) == ACL_ERROR_INVALID_PARAM
    assert (acl.get_data_buffer_addr(buf), acl.get_data_buffer_size_v2(buf)) == (0x2000, 64)  # unchanged
    placeholder = acl.create_data_buffer(0, 0)
    assert placeholder not in (0, buf)
    assert acl.destroy_data_buffer(buf) == 0
    assert acl.destroy_data_buffer(buf) == ACL_ERROR_INVALID_PARAM  # twice
    assert acl.get_data_buffer_addr(buf) == 0 and acl.get_data_buffer_size_v2(buf) == 0
    assert acl.create_data_buffer(-5, 4) == 0 and acl.create_data_buffer(0, -4) == 0
    assert acl.destroy_data_buffer(placeholder) == 0
    acl.get_recent_err_msg()


def test_destroying_a_buffer_does_not_free_its_memory(dev: None) -> None:
    ptr, _ = acl.rt.malloc(64, 0)
    buf = acl.create_data_buffer(ptr, 64)
    assert acl.destroy_data_buffer(buf) == 0
    assert acl.rt.free(ptr) == 0  # still the caller's to free, once


def test_handles_are_never_reused() -> None:
    a = acl.create_tensor_desc(acl.ACL_FLOAT, [1], acl.ACL_FORMAT_ND)
    acl.destroy_tensor_desc(a)
    b = acl.create_tensor_desc(acl.ACL_FLOAT, [1], acl.ACL_FORMAT_ND)
    assert b != a and acl.get_tensor_desc_size(a) == 0 and acl.get_tensor_desc_size(b) == 4
    acl.destroy_tensor_desc(b)
    acl.get_recent_err_msg()


def test_data_type_size() -> None:
    sizes = {
        acl.ACL_FLOAT: 4,
        acl.ACL_FLOAT16: 2,
        acl.ACL_BF16: 2,
        acl.ACL_INT64: 8,
        acl.ACL_BOOL: 1,
        acl.ACL_DT_UNDEFINED: 0,
    }
    assert {dt: acl.data_type_size(dt) for dt in sizes} == sizes
    assert acl.data_type_size(1000) == 0
    acl.get_recent_err_msg()


def test_descriptions_need_no_init_and_survive_finalize() -> None:
    desc = acl.create_tensor_desc(acl.ACL_INT8, [3], acl.ACL_FORMAT_ND)
    assert acl.init() == 0 and acl.finalize() == 0
    assert acl.get_tensor_desc_size(desc) == 3
    acl.destroy_tensor_desc(desc)
