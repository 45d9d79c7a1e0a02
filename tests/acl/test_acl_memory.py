"""acl.rt memory (malloc, free, host memory, copies, memset, get_mem_info) and acl.media."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import aclsim
import aclsim.acl as acl

H2D, D2H, D2D, H2H = (acl.ACL_MEMCPY_HOST_TO_DEVICE, acl.ACL_MEMCPY_DEVICE_TO_HOST,
                      acl.ACL_MEMCPY_DEVICE_TO_DEVICE, acl.ACL_MEMCPY_HOST_TO_HOST)
TINY_HBM = 64 * 2**20


def test_malloc_free(dev: None) -> None:
    ptr, ret = acl.rt.malloc(100, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0 and isinstance(ptr, int) and ptr % 64 == 0
    assert acl.rt.free(ptr) == 0


@pytest.mark.parametrize("policy", [0, 1, 2, 3, 7,
                                    acl.ACL_MEM_MALLOC_NORMAL_ONLY | acl.ACL_MEM_TYPE_HIGH_BAND_WIDTH])
def test_malloc_policies(dev: None, policy: int) -> None:
    ptr, ret = acl.rt.malloc(32, policy)
    assert ret == 0
    assert acl.rt.free(ptr) == 0


def test_malloc_errors(dev: None) -> None:
    assert acl.rt.malloc(0, 0) == (None, acl.ACL_ERROR_INVALID_PARAM)
    assert acl.rt.malloc(-8, 0) == (None, acl.ACL_ERROR_INVALID_PARAM)
    assert acl.rt.malloc(64, 99) == (None, acl.ACL_ERROR_INVALID_PARAM)
    assert acl.rt.malloc(2 * TINY_HBM, 0) == (None, acl.ACL_ERROR_RT_MEMORY_ALLOCATION)


def test_malloc_without_context_is_107002() -> None:
    assert acl.init() == 0
    assert acl.rt.malloc(64, 0) == (None, acl.ACL_ERROR_RT_CONTEXT_NULL)


def test_free_errors(dev: None) -> None:
    ptr, _ = acl.rt.malloc(64, 0)
    assert acl.rt.free(ptr) == 0
    assert acl.rt.free(ptr) == acl.ACL_ERROR_RT_MEMORY_FREE == 207002  # double free
    assert acl.rt.free(0) == acl.ACL_ERROR_INVALID_PARAM
    host, _ = acl.rt.malloc_host(64)
    assert acl.rt.free(host) == acl.ACL_ERROR_RT_INVALID_MEMORY_TYPE
    assert acl.rt.free_host(host) == 0


def test_malloc_host_free_host(dev: None) -> None:
    host, ret = acl.rt.malloc_host(10000)
    assert ret == 0 and host % 4096 == 0
    assert acl.rt.free_host(host) == 0
    assert acl.rt.free_host(host) == acl.ACL_ERROR_RT_MEMORY_FREE
    assert acl.rt.malloc_host(0) == (None, acl.ACL_ERROR_INVALID_PARAM)
    dev_ptr, _ = acl.rt.malloc(64, 0)
    assert acl.rt.free_host(dev_ptr) == acl.ACL_ERROR_RT_MEMORY_FREE


def test_malloc_host_of_a_huge_size_is_a_code(dev: None) -> None:
    _, ret = acl.rt.malloc_host(2**60)
    assert ret == acl.ACL_ERROR_RT_MEMORY_ALLOCATION


def test_memcpy_round_trip_all_kinds(dev: None) -> None:
    x = np.arange(256, dtype=np.float32)
    y = np.zeros_like(x)
    n = x.nbytes
    a, _ = acl.rt.malloc(n, 0)
    b, _ = acl.rt.malloc(n, 0)
    host, _ = acl.rt.malloc_host(n)
    assert acl.rt.memcpy(a, n, acl.util.numpy_to_ptr(x), n, H2D) == 0
    assert acl.rt.memcpy(b, n, a, n, D2D) == 0
    assert acl.rt.memcpy(host, n, b, n, D2H) == 0
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(y), n, host, n, H2H) == 0
    np.testing.assert_array_equal(x, y)
    z = np.zeros_like(x)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(z), n, a, n, acl.ACL_MEMCPY_DEFAULT) == 0
    np.testing.assert_array_equal(x, z)
    for p in (a, b):
        assert acl.rt.free(p) == 0
    assert acl.rt.free_host(host) == 0


def test_memcpy_between_devices(dev: None) -> None:
    x = np.arange(64, dtype=np.int64)
    a, _ = acl.rt.malloc(x.nbytes, 0)
    assert acl.rt.memcpy(a, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes, H2D) == 0
    assert acl.rt.set_device(1) == 0
    b, _ = acl.rt.malloc(x.nbytes, 0)
    assert acl.rt.memcpy(b, x.nbytes, a, x.nbytes, acl.ACL_MEMCPY_DEVICE_TO_DEVICE) == 0
    # INNER/INTER_DEVICE_TO_DEVICE are not kinds aclrtMemcpy takes (the runtime refuses them)
    assert acl.rt.memcpy(b, x.nbytes, a, x.nbytes, acl.ACL_MEMCPY_INTER_DEVICE_TO_DEVICE) == 100000
    assert acl.rt.memcpy(b, x.nbytes, a, x.nbytes, acl.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE) == 100000
    y = np.zeros_like(x)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(y), y.nbytes, b, x.nbytes, D2H) == 0
    np.testing.assert_array_equal(x, y)


def test_memcpy_errors(dev: None) -> None:
    x = np.ones(64, dtype=np.uint8)
    xp = acl.util.numpy_to_ptr(x)
    d, _ = acl.rt.malloc(64, 0)
    assert acl.rt.memcpy(d, 32, xp, 64, H2D) == acl.ACL_ERROR_INVALID_PARAM  # dest_max < count
    assert acl.rt.memcpy(d, 64, xp, 64, D2H) == 0  # the kind is reserved: the pointers decide
    assert acl.rt.memcpy(xp, 64, d, 64, H2D) == 0
    assert [diag.kind for diag in aclsim.diagnostics()] == ["memcpy_kind"] * 2
    assert acl.rt.memcpy(d, 64, xp, 64, 99) == acl.ACL_ERROR_INVALID_PARAM  # unknown kind
    assert acl.rt.memcpy(d, 128, xp, 128, H2D) == acl.ACL_ERROR_RT_PARAM_INVALID  # past the host array
    big = np.ones(256, dtype=np.uint8)
    assert acl.rt.memcpy(d, 256, acl.util.numpy_to_ptr(big), 256, H2D) == acl.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.memcpy(d, 64, 0x10, 64, H2D) == 107016  # host memory aclsim does not know
    assert acl.rt.memcpy(0, 64, xp, 64, H2D) == acl.ACL_ERROR_INVALID_PARAM  # null
    assert acl.rt.free(d) == 0
    assert acl.rt.memcpy(xp, 64, d, 64, D2H) == acl.ACL_ERROR_RT_PARAM_INVALID  # use after free


def test_memcpy_zero_bytes(dev: None) -> None:
    d, _ = acl.rt.malloc(64, 0)
    x = np.ones(4, dtype=np.uint8)
    assert acl.rt.memcpy(d, 64, acl.util.numpy_to_ptr(x), 0, H2D) == 0


def test_memcpy_async(dev: None) -> None:
    stream, _ = acl.rt.create_stream()
    x = np.random.default_rng(0).standard_normal(1000).astype(np.float32)
    y = np.empty_like(x)
    d, _ = acl.rt.malloc(x.nbytes, 0)
    assert acl.rt.memcpy_async(d, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes, H2D, stream) == 0
    assert acl.rt.memcpy_async(acl.util.numpy_to_ptr(y), y.nbytes, d, x.nbytes, D2H, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    np.testing.assert_array_equal(x, y)
    assert acl.rt.memcpy_async(d, 8, acl.util.numpy_to_ptr(x), 16, H2D, stream) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.rt.memcpy_async(d, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes, D2H, stream) == 0  # H2D
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.memcpy_async(d, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes, H2D, 0x42) == 107017


def test_memset_and_memset_async(dev: None) -> None:
    d, _ = acl.rt.malloc(128, 0)
    out = np.zeros(128, dtype=np.uint8)
    assert acl.rt.memset(d, 128, 0x1AB, 128) == 0  # value & 0xFF
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(out), 128, d, 128, D2H) == 0
    assert (out == 0xAB).all()
    stream, _ = acl.rt.create_stream()
    assert acl.rt.memset_async(d, 128, 7, 64, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(out), 128, d, 128, D2H) == 0
    assert (out[:64] == 7).all() and (out[64:] == 0xAB).all()
    assert acl.rt.memset(d, 64, 0, 128) == acl.ACL_ERROR_INVALID_PARAM  # count > max_count
    assert acl.rt.memset_async(d, 64, 0, 128, stream) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.rt.memset(d, 1024, 0, 1024) == acl.ACL_ERROR_RT_PARAM_INVALID  # past the allocation


def test_memset_on_pinned_host_memory(dev: None) -> None:
    host, _ = acl.rt.malloc_host(256)
    assert acl.rt.memset_async(host, 256, 9, 256, 0) == 0
    assert acl.rt.synchronize_stream(0) == 0
    assert acl.util.ptr_to_bytes(host, 256) == bytes([9]) * 256
    assert acl.rt.free_host(host) == 0


def test_get_mem_info(dev: None) -> None:
    free0, total, ret = acl.rt.get_mem_info(acl.ACL_HBM_MEM)
    assert ret == 0 and total == TINY_HBM and free0 == total
    d, _ = acl.rt.malloc(4096, 0)
    free1, _, _ = acl.rt.get_mem_info(acl.ACL_HBM_MEM)
    assert free1 <= free0 - 4096
    assert acl.rt.get_mem_info(acl.ACL_DDR_MEM) == (0, 0, 0)  # the tiny chip has HBM only
    assert acl.rt.get_mem_info(99) == (0, 0, acl.ACL_ERROR_INVALID_PARAM)
    assert acl.rt.free(d) == 0


def test_get_mem_info_without_context_is_107002() -> None:
    assert acl.init() == 0
    assert acl.rt.get_mem_info(acl.ACL_HBM_MEM) == (0, 0, acl.ACL_ERROR_RT_CONTEXT_NULL)


def test_dvpp_malloc_free(dev: None) -> None:
    ptr, ret = acl.media.dvpp_malloc(4096)
    assert ret == 0 and isinstance(ptr, int)
    x = np.arange(1024, dtype=np.int32)
    assert acl.rt.memcpy(ptr, 4096, acl.util.numpy_to_ptr(x), 4096, H2D) == 0
    assert acl.rt.free(ptr) == acl.ACL_ERROR_RT_MEMORY_FREE  # dvpp memory goes with dvpp_free
    assert acl.media.dvpp_free(ptr) == 0
    assert acl.media.dvpp_free(ptr) == acl.ACL_ERROR_RT_MEMORY_FREE
    other, _ = acl.rt.malloc(64, 0)
    assert acl.media.dvpp_free(other) == acl.ACL_ERROR_RT_MEMORY_FREE
    assert acl.media.dvpp_malloc(0) == (None, acl.ACL_ERROR_INVALID_PARAM)


_DTYPES = st.sampled_from([np.bool_, np.int8, np.uint8, np.int16, np.float16, np.int32, np.float32, np.int64,
                           np.float64, np.complex64])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(x=hnp.arrays(_DTYPES, hnp.array_shapes(min_dims=1, max_dims=3, max_side=17)),
       async_copy=st.booleans())
def test_property_h2d_d2h_round_trip_is_exact(dev: None, x: np.ndarray, async_copy: bool) -> None:
    n = x.nbytes
    d, ret = acl.rt.malloc(n, 0)
    assert ret == 0
    out = bytes(n)  # filled through bytes_to_ptr, as pyACL programs do
    xp, op = acl.util.numpy_to_ptr(x), acl.util.bytes_to_ptr(out)
    if async_copy:
        assert acl.rt.memcpy_async(d, n, xp, n, H2D, 0) == 0
        assert acl.rt.memcpy_async(op, n, d, n, D2H, 0) == 0
        assert acl.rt.synchronize_stream(0) == 0
    else:
        assert acl.rt.memcpy(d, n, xp, n, H2D) == 0
        assert acl.rt.memcpy(op, n, d, n, D2H) == 0
    y = np.frombuffer(out, dtype=x.dtype).reshape(x.shape)
    assert y.tobytes() == x.tobytes()
    assert acl.rt.free(d) == 0
