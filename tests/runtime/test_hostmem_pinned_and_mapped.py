"""Host memory: the pinned pool behind malloc_host (size classes, reuse guarded by the copies
that used a buffer), host use-after-free, and zero-copy host memory mapped for the device."""

from __future__ import annotations

import threading
import warnings

import numpy as np
import pytest

import aclsim
from aclsim import errors
from aclsim.runtime.hostmem import size_class

K = aclsim.MemcpyKind


def test_size_classes_and_reuse(rt: None) -> None:
    assert [size_class(n) for n in (1, 4096, 4097, 10_000, 1 << 20)] == [4096, 4096, 8192, 16384, 1 << 20]
    a = aclsim.malloc_host(10_000)
    assert a % 4096 == 0
    aclsim.free_host(a)
    b = aclsim.malloc_host(9_000)  # same 16 KiB class: the cached buffer
    assert b == a
    c = aclsim.malloc_host(20_000)  # another class
    assert c != a
    stats = aclsim.host_memory_stats()
    assert stats["num_hits"] == 1 and stats["num_misses"] == 2
    assert stats["reserved_bytes.current"] == 16384 + 32768
    assert stats["allocated_bytes.current"] == 16384 + 32768
    assert stats["requested_bytes.current"] == 29_000
    for p in (b, c):
        aclsim.free_host(p)
    assert aclsim.empty_host_cache() == 16384 + 32768
    assert aclsim.host_memory_stats()["reserved_bytes.current"] == 0


def test_reuse_waits_for_copies_that_used_the_buffer(rt: None) -> None:
    s = aclsim.create_stream()
    gate = threading.Event()
    aclsim.launch_function(lambda: 0.0 if gate.wait(10) else 0.0, stream=s)
    host = aclsim.malloc_host(4096)
    dev = aclsim.malloc(4096)
    aclsim.memcpy_async(host, 4096, dev, 4096, K.DEVICE_TO_HOST, s)  # will write into host
    aclsim.free_host(host)
    other = aclsim.malloc_host(4096)
    assert other != host  # the queued copy may still write there
    assert aclsim.host_memory_stats()["num_reuse_waits"] == 1
    gate.set()
    s.synchronize()
    aclsim.free_host(other)
    again = aclsim.malloc_host(4096)
    assert again in (host, other)
    aclsim.free_host(again)
    aclsim.free(dev)
    aclsim.destroy_stream(s)


def test_host_use_after_free_and_double_free_name_the_lines(rt: None) -> None:
    ptr = aclsim.malloc_host(64)
    aclsim.free_host(ptr)
    buf = aclsim.malloc(64)
    with pytest.raises(errors.InvalidMemoryTypeError, match="use after free") as info:
        aclsim.memcpy(buf, 64, ptr, 64, K.HOST_TO_DEVICE)
    assert "malloc_host at " + __file__ in str(info.value) and "freed by free_host at" in str(info.value)
    with pytest.raises(errors.MemoryFreeError, match="double free_host"):
        aclsim.free_host(ptr)
    aclsim.free(buf)


def test_zero_copy_host_memory(rt: None) -> None:
    host = aclsim.malloc_host(8192)
    view = aclsim.ptr_to_numpy(host, 8192, np.uint8)
    view[:] = 3
    dev = aclsim.host_register(host, 8192)
    assert aclsim.is_host_mapped(dev) and aclsim.is_host_mapped(dev + 100, 8092)
    assert not aclsim.is_host_mapped(dev + 100, 8093) and not aclsim.is_host_mapped(host)
    assert dev % 4096 == host % 4096 and dev >= 1 << 48
    (rng,) = aclsim.host_mapped_ranges()
    assert (rng.device, rng.ptr, rng.nbytes, rng.host_ptr) == (0, dev, 8192, host)
    # copies through the device address reach the host bytes directly
    data = np.arange(256, dtype=np.uint8)
    aclsim.memcpy(dev + 256, 256, data, 256, K.HOST_TO_DEVICE)
    assert (view[256:512] == data).all()
    buf = aclsim.malloc(512)
    aclsim.memcpy(buf, 512, dev, 512, K.DEVICE_TO_DEVICE)
    out = np.zeros(512, np.uint8)
    aclsim.memcpy(out, 512, buf, 512, K.DEVICE_TO_HOST)
    assert (out[:256] == 3).all() and (out[256:] == data).all()
    aclsim.memset_async(dev, 8192, 9, 16)
    aclsim.synchronize_stream()
    assert (view[:16] == 9).all()
    mapping = aclsim.check_access(dev, 8192)
    assert isinstance(mapping, aclsim.HostMapping) and mapping.host_ptr == host
    with pytest.raises(errors.RtParamInvalidError, match="past the end"):
        aclsim.check_access(dev, 8193)
    with pytest.raises(errors.MemoryFreeError, match="still registered"):
        aclsim.free_host(host)
    with pytest.raises(errors.MemoryFreeError, match="host memory mapped"):
        aclsim.free(dev)
    aclsim.host_unregister(host)
    assert aclsim.host_mapped_ranges() == [] and not aclsim.is_host_mapped(dev)
    with pytest.raises(errors.RtParamInvalidError):
        aclsim.check_access(dev, 1)
    with pytest.raises(errors.InvalidParamError, match="not registered"):
        aclsim.host_unregister(host)
    aclsim.free_host(host)
    aclsim.free(buf)


def test_zero_copy_of_a_numpy_array_and_errors(rt: None) -> None:
    arr = np.zeros(1000, np.float32)
    dev = aclsim.host_register(arr, arr.nbytes)
    aclsim.memset(dev, arr.nbytes, 0xFF, 8)
    assert np.isnan(arr[0]) and arr[2] == 0
    with pytest.raises(errors.InvalidParamError, match="overlaps"):
        aclsim.host_register(aclsim.numpy_to_ptr(arr), 16)
    with pytest.raises(errors.RtParamInvalidError):
        aclsim.host_register(arr, arr.nbytes + 1)  # runs past the array
    with pytest.raises(errors.InvalidMemoryTypeError):
        aclsim.host_register(0x1234000, 16)  # host memory aclsim does not know
    buf = aclsim.malloc(64)
    with pytest.raises(errors.InvalidMemoryTypeError):
        aclsim.host_register(buf, 64)
    aclsim.host_unregister(arr)
    aclsim.free(buf)


def test_registrations_are_reported_as_leaks() -> None:
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    host = aclsim.malloc_host(4096)
    dev = aclsim.host_register(host, 4096)
    lines = aclsim.leak_report()
    assert any(line.startswith(f"host_register <HostMapping npu:0 0x{dev:x}") and __file__ in line
               for line in lines)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", aclsim.LeakWarning)
        leaks = aclsim.finalize()
    assert any("host_register" in line for line in leaks) and any("malloc_host" in line for line in leaks)
