"""Device and host memory: malloc rules, frees, copies in every direction, host pointers."""

from __future__ import annotations

import gc
import threading

import numpy as np
import pytest

import aclsim
from aclsim import errors
from aclsim.runtime.memory import align_up

K = aclsim.MemcpyKind
H2H, H2D, D2H = K.HOST_TO_HOST, K.HOST_TO_DEVICE, K.DEVICE_TO_HOST
D2D, DEFAULT = K.DEVICE_TO_DEVICE, K.DEFAULT


# --- malloc / free -----------------------------------------------------------------------

@pytest.mark.parametrize("size", [1, 2, 31, 32, 33, 63, 64, 65, 100, 1000, 4096, 12345, 1 << 20])
def test_malloc_rounding(rt: None, size: int) -> None:
    bufs = [aclsim.malloc(size) for _ in range(3)]
    for buf in bufs:
        assert isinstance(buf, aclsim.Buffer)
        assert buf.size == size
        assert buf.padded_size == align_up(size, 32) + 32
        assert buf.ptr % 64 == 0 and int(buf) == buf.ptr
        assert buf.device == 0 and buf.alive and buf.kind == "device"
    spans = sorted((b.ptr, b.ptr + b.padded_size) for b in bufs)
    assert all(end <= nxt for (_, end), (nxt, _) in zip(spans, spans[1:], strict=False))  # no overlap
    for buf in bufs:
        aclsim.free(buf)
        assert not buf.alive


def test_malloc_addresses_are_device_addresses(rt: None) -> None:
    buf = aclsim.malloc(64)
    assert buf.ptr >= 1 << 48
    aclsim.free(int(buf))  # free by int address


@pytest.mark.parametrize("size", [0, -1, 1.5, "64", None, True])
def test_malloc_bad_size(rt: None, size: object) -> None:
    with pytest.raises(errors.InvalidParamError) as info:
        aclsim.malloc(size)  # type: ignore[arg-type]
    assert info.value.code == 100000


def test_malloc_numpy_int_size(rt: None) -> None:
    """Sizes computed with NumPy (np.prod(shape) * itemsize is an np.int64) are accepted."""
    size = np.prod((4, 4)) * np.dtype(np.float32).itemsize
    buf = aclsim.malloc(size)
    assert buf.size == 64
    assert type(buf.size) is int
    host = aclsim.malloc_host(size)
    aclsim.free_host(host)
    aclsim.free(aclsim.malloc(np.uint16(10), np.int32(2)))


@pytest.mark.parametrize("policy", [0, 1, 2, 3, 7, 0x100, 0x1000 | 2, 0x100000])
def test_malloc_policies(rt: None, policy: int) -> None:
    buf = aclsim.malloc(64, policy)
    assert buf.policy == policy
    aclsim.free(buf)


@pytest.mark.parametrize("policy", [8, 99, -1, 0x200, "0", 1.0])
def test_malloc_bad_policy(rt: None, policy: object) -> None:
    with pytest.raises(errors.InvalidParamError) as info:
        aclsim.malloc(64, policy)  # type: ignore[arg-type]
    assert info.value.code == 100000


def test_malloc_needs_context() -> None:
    aclsim.init(chip="tiny")
    with pytest.raises(errors.ContextNullError):
        aclsim.malloc(64)


def test_oom(rt: None) -> None:
    limit = 64 << 20
    big = aclsim.malloc(40 << 20)
    # the pool's block: AscendCL padding, rounded to 512 B; reserved: whole 2 MiB pages
    used = align_up(big.padded_size, 512)
    reserved = align_up(used, 2 << 20)
    with pytest.raises(errors.OutOfMemoryError) as info:
        aclsim.malloc(30 << 20)
    err = info.value
    assert err.code == 207001 == errors.ACL_ERROR_RT_MEMORY_ALLOCATION
    assert isinstance(err, MemoryError)
    assert (err.size, err.used, err.reserved, err.limit, err.device) == (30 << 20, used, reserved, limit, 0)
    text = str(err)
    assert str(30 << 20) in text and str(used) in text and str(reserved) in text and str(limit) in text
    assert "largest free block" in text and err.hint
    aclsim.free(big)
    aclsim.free(aclsim.malloc(30 << 20))  # fits now


def test_oom_whole_device_and_exact_fit(rt: None) -> None:
    with pytest.raises(errors.OutOfMemoryError):
        aclsim.malloc((64 << 20) + 1)
    whole = aclsim.malloc((64 << 20) - 32)  # padded to exactly the whole arena
    assert aclsim.get_mem_info()[0] == 0
    with pytest.raises(errors.OutOfMemoryError):
        aclsim.malloc(1)
    aclsim.free(whole)


def test_fragmentation_and_coalescing(rt: None) -> None:
    bufs = [aclsim.malloc((8 << 20) - 32) for _ in range(8)]  # fill the device exactly
    for b in bufs[::2]:
        aclsim.free(b)
    # 32 MiB free in 8 MiB pieces: the expandable pool maps their pages where they are
    # needed (issue 4; without it, as below, this is a fragmentation OOM)
    aclsim.free(aclsim.malloc(16 << 20))
    for b in bufs[1::2]:
        aclsim.free(b)
    aclsim.free(aclsim.malloc((64 << 20) - 32))  # everything coalesced again


def test_fragmentation_without_expandable_segments() -> None:
    aclsim.init(chip="tiny", alloc_conf="expandable_segments:False")
    aclsim.set_device(0)
    bufs = [aclsim.malloc((16 << 20) - 32) for _ in range(4)]  # one 16 MiB segment each
    for b in bufs[::2]:
        aclsim.free(b)
    with pytest.raises(errors.OutOfMemoryError) as info:
        aclsim.malloc(32 << 20)  # 32 MiB free, but in 16 MiB pieces
    assert info.value.largest_free == 16 << 20
    for b in bufs[1::2]:
        aclsim.free(b)
    aclsim.free(aclsim.malloc((64 << 20) - 32))  # everything coalesced again


def test_double_free(rt: None) -> None:
    buf = aclsim.malloc(64)
    aclsim.free(buf)
    with pytest.raises(errors.MemoryFreeError) as info:
        aclsim.free(buf)
    assert info.value.code == 207002
    assert "double free" in str(info.value)


def test_free_interior_pointer(rt: None) -> None:
    buf = aclsim.malloc(256)
    with pytest.raises(errors.MemoryFreeError) as info:
        aclsim.free(buf.ptr + 64)
    assert info.value.code == 207002
    assert "64 B inside" in str(info.value)
    assert buf.alive
    aclsim.free(buf)


def test_free_unknown_device_pointer(rt: None) -> None:
    with pytest.raises(errors.MemoryFreeError):
        aclsim.free((1 << 48) + (32 << 20))
    with pytest.raises(errors.InvalidMemoryTypeError):
        aclsim.free((1 << 48) + 5 * (1 << 42))  # a device that does not exist


def test_free_host_pointer_via_free(rt: None) -> None:
    host = aclsim.malloc_host(64)
    arr = np.zeros(8)
    for ptr in (host, aclsim.numpy_to_ptr(arr)):
        with pytest.raises(errors.InvalidMemoryTypeError) as info:
            aclsim.free(ptr)
        assert info.value.code == 107016
    for bad in (0, -8, "ptr", 1.0):
        with pytest.raises(errors.InvalidParamError):
            aclsim.free(bad)  # type: ignore[arg-type]
    aclsim.free_host(host)


def test_dvpp_malloc_free(rt: None) -> None:
    dv = aclsim.dvpp_malloc(100)
    assert dv.kind == "dvpp" and dv.padded_size == 160 and dv.ptr % 64 == 0
    with pytest.raises(errors.MemoryFreeError, match="dvpp_free") as info:
        aclsim.free(dv)
    assert info.value.code == 207002 and dv.alive
    plain = aclsim.malloc(100)
    with pytest.raises(errors.MemoryFreeError, match="release it with free"):
        aclsim.dvpp_free(plain)
    data = np.arange(100, dtype=np.uint8)
    out = np.zeros_like(data)
    aclsim.memcpy(dv, 100, data, 100, H2D)
    aclsim.memcpy(plain, 100, dv, 100, D2D)
    aclsim.memcpy(out, 100, plain, 100, D2H)
    assert np.array_equal(out, data)
    aclsim.dvpp_free(dv)
    aclsim.free(plain)
    with pytest.raises(errors.MemoryFreeError):
        aclsim.dvpp_free(dv)
    with pytest.raises(errors.InvalidParamError):
        aclsim.dvpp_malloc(0)


def test_malloc_host_free_host(rt: None) -> None:
    ptr = aclsim.malloc_host(10_000)
    assert isinstance(ptr, int) and ptr % 4096 == 0
    view = aclsim.ptr_to_numpy(ptr, 10_000, np.uint8)
    view[:] = np.arange(10_000) % 251
    buf = aclsim.malloc(10_000)
    aclsim.memcpy(buf, 10_000, ptr, 10_000, H2D)
    ptr2 = aclsim.malloc_host(10_000)
    aclsim.memcpy(ptr2, 10_000, buf, 10_000, D2H)
    assert aclsim.ptr_to_bytes(ptr2, 10_000) == view.tobytes()
    aclsim.free_host(ptr)
    aclsim.free_host(ptr2)
    with pytest.raises(errors.MemoryFreeError) as info:
        aclsim.free_host(ptr)
    assert info.value.code == 207002
    with pytest.raises(errors.MemoryFreeError):
        aclsim.free_host(aclsim.numpy_to_ptr(np.zeros(4)))  # not from malloc_host
    for bad in (0, -1, 1.5):
        with pytest.raises(errors.InvalidParamError):
            aclsim.malloc_host(bad)  # type: ignore[arg-type]


def test_freed_host_memory_is_unknown(rt: None) -> None:
    ptr = aclsim.malloc_host(64)
    aclsim.free_host(ptr)
    buf = aclsim.malloc(64)
    with pytest.raises(errors.InvalidMemoryTypeError):
        aclsim.memcpy(buf, 64, ptr, 64, H2D)


# --- memcpy ------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.int64, np.float16, np.float32,
                                   np.float64, np.complex64])
def test_memcpy_round_trip_all_directions(rt: None, dtype: type) -> None:
    rng = np.random.default_rng(0)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        src = rng.integers(info.min, info.max, size=(7, 33), dtype=dtype, endpoint=True)
    else:
        src = (rng.standard_normal((7, 33)) * 1e3).astype(dtype)
        src.flat[:3] = [np.inf, -0.0, np.finfo(np.float16).tiny]
    n = src.nbytes
    a, b = aclsim.malloc(n), aclsim.malloc(n)
    h = np.empty_like(src)
    aclsim.memcpy(h, n, src, n, H2H)
    aclsim.memcpy(a, n, h, n, H2D)
    aclsim.memcpy(b, n, a, n, D2D)
    out = np.zeros_like(src)
    aclsim.memcpy(out, n, b, n, D2H)
    assert np.array_equal(out, src)
    assert out.tobytes() == src.tobytes()  # bit-exact (-0.0 included)
    out2 = np.zeros_like(src)
    aclsim.memcpy_async(a, n, src[::-1].copy(), n, H2D)
    aclsim.memcpy_async(out2, n, a, n, D2H)
    aclsim.synchronize_stream()
    assert np.array_equal(out2, src[::-1])


def test_memcpy_nan_bit_exact(rt: None) -> None:
    src = np.array([np.nan, -np.nan, 1.0], dtype=np.float32)
    src.view(np.uint32)[0] = 0x7FC00123  # a NaN payload
    buf = aclsim.malloc(src.nbytes)
    out = np.zeros_like(src)
    aclsim.memcpy(buf, src.nbytes, src, src.nbytes, H2D)
    aclsim.memcpy(out, out.nbytes, buf, src.nbytes, D2H)
    assert out.tobytes() == src.tobytes()


def test_memcpy_default_infers(rt: None) -> None:
    data = np.arange(64, dtype=np.float64)
    a, b = aclsim.malloc(data.nbytes), aclsim.malloc(data.nbytes)
    h, out = np.zeros_like(data), np.zeros_like(data)
    aclsim.memcpy(a, data.nbytes, data, data.nbytes, DEFAULT)
    aclsim.memcpy(b, data.nbytes, a, data.nbytes, DEFAULT)
    aclsim.memcpy(out, data.nbytes, b, data.nbytes, DEFAULT)
    aclsim.memcpy(h, data.nbytes, out, data.nbytes, 4)
    assert np.array_equal(h, data)


def test_memcpy_partial_and_offsets(rt: None) -> None:
    data = np.arange(100, dtype=np.uint8)
    buf = aclsim.malloc(100)
    aclsim.memset(buf, 100, 0, 100)
    aclsim.memcpy(buf.ptr + 10, 90, data[20:], 50, H2D)  # interior device and host pointers
    out = np.zeros(100, dtype=np.uint8)
    aclsim.memcpy(out, 100, buf, 100, D2H)
    expected = np.zeros(100, dtype=np.uint8)
    expected[10:60] = data[20:70]
    assert np.array_equal(out, expected)
    aclsim.memcpy(out, 100, buf, 0, D2H)  # zero bytes: nothing happens


def test_memcpy_dest_max_too_small(rt: None) -> None:
    buf = aclsim.malloc(64)
    with pytest.raises(errors.InvalidParamError) as info:
        aclsim.memcpy(buf, 32, np.zeros(64, np.uint8), 64, H2D)
    assert info.value.code == 100000 and "dest_max" in str(info.value)
    with pytest.raises(errors.InvalidParamError):
        aclsim.memcpy_async(buf, 32, np.zeros(64, np.uint8), 64, H2D)


@pytest.mark.parametrize("kind", [H2D, D2H, D2D, K.HOST_TO_BUF_TO_DEVICE])
def test_memcpy_wrong_kind_host_to_host_copies_by_the_pointers(rt: None, kind: int) -> None:
    """AscendCL's kind is reserved: the copy runs where the pointers are, the mismatch is a
    diagnostic (a MemcpyKindWarning at the caller's line), an error only in strict mode."""
    dst, src = np.zeros(8, np.uint8), np.arange(8, dtype=np.uint8)
    with pytest.warns(aclsim.MemcpyKindWarning, match="host to host") as record:
        aclsim.memcpy(dst, 8, src, 8, kind)
    assert record[0].filename == __file__
    assert np.array_equal(dst, src)
    (diag,) = aclsim.diagnostics(clear=True)
    assert diag.kind == "memcpy_kind" and K(kind).name in diag.message and __file__ in diag.site


def test_memcpy_wrong_kind(rt: None) -> None:
    buf, buf2 = aclsim.malloc(64), aclsim.malloc(64)
    host = np.zeros(64, np.uint8)
    cases = [(buf, host, D2H), (host, buf, H2D), (buf, buf2, H2D), (host, host, D2D), (buf, host, H2H),
             (host, buf, D2D)]
    for dst, src, kind in cases:
        with pytest.warns(aclsim.MemcpyKindWarning):
            aclsim.memcpy(dst, 64, src, 64, kind)
    with pytest.warns(aclsim.MemcpyKindWarning):
        aclsim.memcpy_async(host, 64, buf, 64, H2D)
    aclsim.synchronize_stream()
    assert len(aclsim.diagnostics()) == len(cases) + 1
    for kind in (K.INNER_DEVICE_TO_DEVICE, K.INTER_DEVICE_TO_DEVICE):  # not kinds of aclrtMemcpy
        with pytest.raises(errors.InvalidParamError):
            aclsim.memcpy(buf, 64, buf2, 64, kind)


def test_memcpy_wrong_kind_is_refused_in_strict_mode() -> None:
    aclsim.init(chip="tiny", strict=True)
    aclsim.set_device(0)
    buf = aclsim.malloc(64)
    host = np.zeros(64, np.uint8)
    with pytest.raises(errors.InvalidMemoryTypeError, match="strict") as info:
        aclsim.memcpy(host, 64, buf, 64, H2D)
    assert info.value.code == 107016
    with pytest.raises(errors.InvalidMemoryTypeError):
        aclsim.memcpy_async(buf, 64, host, 64, D2H)
    aclsim.memcpy(host, 64, buf, 64, K.DEFAULT)
    assert aclsim.diagnostics() == []
    aclsim.free(buf)


@pytest.mark.parametrize("kind", [8, -1, 99, "1"])
def test_memcpy_unknown_kind(rt: None, kind: object) -> None:
    with pytest.raises(errors.InvalidParamError):
        aclsim.memcpy(np.zeros(8), 64, np.zeros(8), 64, kind)  # type: ignore[arg-type]


def test_memcpy_out_of_range(rt: None) -> None:
    buf = aclsim.malloc(100)  # 160 B reserved, 100 usable
    host = np.zeros(200, np.uint8)
    for dst, src, count, kind in [(buf, host, 101, H2D), (host, buf, 101, D2H),
                                  (buf.ptr + 50, host, 51, H2D), (host, buf.ptr + 99, 2, D2H)]:
        with pytest.raises(errors.RtParamInvalidError) as info:
            aclsim.memcpy(dst, 200, src, count, kind)
        assert info.value.code == 107000
        assert "past its end" in str(info.value)
    small = np.zeros(10, np.uint8)
    with pytest.raises(errors.RtParamInvalidError):  # past the end of the host array
        aclsim.memcpy(small, 100, buf, 100, D2H)


def test_memcpy_into_freed_buffer(rt: None) -> None:
    buf = aclsim.malloc(64)
    aclsim.free(buf)
    with pytest.raises(errors.RtParamInvalidError):
        aclsim.memcpy(buf, 64, np.zeros(64, np.uint8), 64, H2D)


def test_memcpy_unknown_host_pointer(rt: None) -> None:
    buf = aclsim.malloc(64)
    for ptr in (0x1000, 123456789):
        with pytest.raises(errors.InvalidMemoryTypeError) as info:
            aclsim.memcpy(ptr, 64, buf, 64, D2H)
        assert info.value.code == 107016
        with pytest.raises(errors.InvalidMemoryTypeError):
            aclsim.memcpy(buf, 64, ptr, 64, H2D)
    with pytest.raises(errors.InvalidParamError):
        aclsim.memcpy(buf, 64, 0, 64, H2D)  # null
    with pytest.raises(errors.InvalidParamError):
        aclsim.memcpy(buf, 64, [1, 2, 3], 3, H2D)  # type: ignore[arg-type]


def test_memcpy_non_contiguous_array_refused(rt: None) -> None:
    buf = aclsim.malloc(64)
    strided = np.zeros(16, dtype=np.float32)[::2]
    with pytest.raises(errors.InvalidParamError, match="contiguous"):
        aclsim.memcpy(buf, 64, strided, strided.nbytes, H2D)


def test_memcpy_bad_counts(rt: None) -> None:
    buf = aclsim.malloc(64)
    for dest_max, count in ((-1, 0), (64, -1), (64.0, 8), (64, "8")):
        with pytest.raises(errors.InvalidParamError):
            aclsim.memcpy(buf, dest_max, np.zeros(64, np.uint8), count, H2D)  # type: ignore[arg-type]
    aclsim.memcpy(buf, np.int64(64), np.zeros(64, np.uint8), np.uint32(64), H2D)


# --- memset ------------------------------------------------------------------------------

def test_memset(rt: None) -> None:
    buf = aclsim.malloc(100)
    aclsim.memset(buf, 100, 0xAB, 100)
    aclsim.memset(buf.ptr + 10, 90, 0x1FF, 5)  # value & 0xFF
    out = np.zeros(100, np.uint8)
    aclsim.memcpy(out, 100, buf, 100, D2H)
    expected = np.full(100, 0xAB, np.uint8)
    expected[10:15] = 0xFF
    assert np.array_equal(out, expected)
    with pytest.raises(errors.InvalidParamError):
        aclsim.memset(buf, 10, 0, 20)  # count > max_count
    with pytest.raises(errors.RtParamInvalidError):
        aclsim.memset(buf, 200, 0, 101)
    with pytest.raises(errors.InvalidParamError):
        aclsim.memset(buf, 100, 1.5, 10)  # type: ignore[arg-type]


def test_memset_async(rt: None) -> None:
    s = aclsim.create_stream()
    buf = aclsim.malloc(4096)
    out = np.zeros(4096, np.uint8)
    aclsim.memset_async(buf, 4096, 7, 4096, s)
    aclsim.memset_async(buf, 4096, -1, 10, s)
    aclsim.memcpy_async(out, 4096, buf, 4096, D2H, s)
    aclsim.synchronize_stream(s)
    expected = np.full(4096, 7, np.uint8)
    expected[:10] = 0xFF
    assert np.array_equal(out, expected)


def test_memset_host_memory(rt: None) -> None:
    arr = np.zeros(16, np.uint8)
    aclsim.memset(arr, 16, 3, 8)
    assert arr.tolist() == [3] * 8 + [0] * 8


# --- host pointer utilities --------------------------------------------------------------

def test_numpy_to_ptr_and_back(rt: None) -> None:
    arr = np.arange(12, dtype=np.float32).reshape(3, 4)
    ptr = aclsim.numpy_to_ptr(arr)
    assert ptr == arr.ctypes.data
    view = aclsim.ptr_to_numpy(ptr, (3, 4), np.float32)
    assert np.array_equal(view, arr)
    view[0, 0] = 42.0  # a view, not a copy
    assert arr[0, 0] == 42.0
    assert aclsim.ptr_to_bytes(ptr, 8) == arr.tobytes()[:8]
    # an interior pointer of a registered array
    assert aclsim.ptr_to_numpy(ptr + 4, 2, np.float32).tolist() == [1.0, 2.0]
    with pytest.raises(errors.RtParamInvalidError):
        aclsim.ptr_to_bytes(ptr, arr.nbytes + 1)
    with pytest.raises(errors.InvalidParamError):
        aclsim.numpy_to_ptr(np.zeros((4, 4))[:, 0])


def test_numpy_slice_pointer(rt: None) -> None:
    arr = np.arange(100, dtype=np.uint8)
    ptr = aclsim.numpy_to_ptr(arr[40:])
    assert ptr == arr.ctypes.data + 40
    buf = aclsim.malloc(60)
    aclsim.memcpy(buf, 60, ptr, 60, H2D)
    out = np.zeros(60, np.uint8)
    aclsim.memcpy(out, 60, buf, 60, D2H)
    assert np.array_equal(out, arr[40:])


def test_ptr_to_numpy_refuses_device_pointer(rt: None) -> None:
    buf = aclsim.malloc(64)
    with pytest.raises(errors.InvalidMemoryTypeError) as info:
        aclsim.ptr_to_numpy(buf.ptr, 16, np.float32)
    assert info.value.code == 107016
    with pytest.raises(errors.InvalidMemoryTypeError):
        aclsim.ptr_to_bytes(buf, 16)  # type: ignore[arg-type]
    with pytest.raises(errors.InvalidMemoryTypeError):
        aclsim.ptr_to_bytes(0x2000, 16)


def test_bytes_to_ptr_and_d2h_into_bytes(rt: None) -> None:
    payload = np.arange(256, dtype=np.uint8)
    buf = aclsim.malloc(256)
    aclsim.memcpy(buf, 256, payload.tobytes(), 256, H2D)  # bytes as a copy source
    target = bytes(256)  # a fresh, unshared object
    ptr = aclsim.bytes_to_ptr(target)
    aclsim.memcpy(ptr, 256, buf, 256, D2H)  # pyACL lets D2H write into a bytes object
    assert target == payload.tobytes()
    assert aclsim.ptr_to_bytes(ptr, 256) == payload.tobytes()
    ba = bytearray(256)
    aclsim.memcpy_async(aclsim.bytes_to_ptr(ba), 256, buf, 256, D2H)
    aclsim.synchronize_stream()
    assert bytes(ba) == payload.tobytes()
    with pytest.raises(errors.InvalidParamError):
        aclsim.bytes_to_ptr(b"")
    with pytest.raises(TypeError):
        aclsim.bytes_to_ptr("text")  # type: ignore[arg-type]


def test_device_array_compute(rt: None) -> None:
    n = 256
    a = np.arange(n, dtype=np.int32)
    b = np.arange(n, dtype=np.int32)[::-1].copy()
    ba, bb, bc = aclsim.malloc(a.nbytes), aclsim.malloc(b.nbytes), aclsim.malloc(a.nbytes)
    aclsim.memcpy_async(ba, a.nbytes, a, a.nbytes, H2D)
    aclsim.memcpy_async(bb, b.nbytes, b, b.nbytes, H2D)

    def add() -> float:
        c = aclsim.device_array(bc, n, np.int32)
        np.add(aclsim.device_array(ba, n, np.int32), aclsim.device_array(bb, n, "int32"), out=c)
        return 1e-6

    aclsim.launch_function(add, label="add", buffers=[ba, bb, bc])
    out = np.zeros(n, np.int32)
    aclsim.memcpy_async(out, out.nbytes, bc, out.nbytes, D2H)
    aclsim.synchronize_stream()
    assert np.array_equal(out, np.full(n, n - 1, np.int32))


def test_async_copy_keeps_temporary_source_alive(rt: None) -> None:
    s = aclsim.create_stream()
    buf = aclsim.malloc(4096)
    gate = threading.Event()
    aclsim.launch_function(lambda: (gate.wait(5), 0.0)[1], stream=s)
    aclsim.memcpy_async(buf, 4096, np.arange(1024, dtype=np.int32), 4096, H2D, s)  # a temporary
    aclsim.memcpy_async(buf.ptr + 4000, 96, bytes(range(96)), 96, H2D, s)
    gc.collect()
    gate.set()
    out = np.zeros(1024, np.int32)
    aclsim.memcpy_async(out, 4096, buf, 4096, D2H, s)
    aclsim.synchronize_stream(s)
    expected = np.arange(1024, dtype=np.int32)
    expected.view(np.uint8)[4000:] = np.arange(96, dtype=np.uint8)
    assert np.array_equal(out, expected)


def test_numpy_to_ptr_of_a_temporary(rt: None) -> None:
    # pyACL programs often pass numpy_to_ptr(arr.astype(...)) and copy right away
    src = np.linspace(0, 1, 256)
    ptr = aclsim.numpy_to_ptr(src.astype(np.float32))
    gc.collect()
    buf = aclsim.malloc(1024)
    aclsim.memcpy(buf, 1024, ptr, 1024, H2D)
    out = np.zeros(256, np.float32)
    aclsim.memcpy(out, 1024, buf, 1024, D2H)
    assert np.array_equal(out, src.astype(np.float32))
