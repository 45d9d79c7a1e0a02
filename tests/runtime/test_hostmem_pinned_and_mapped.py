"""Host memory: the pinned pool behind malloc_host (size classes, reuse guarded by the copies
that used a buffer), host use-after-free, and zero-copy host memory mapped for the device."""

from __future__ import annotations

import threading
import warnings

import numpy as np
import pytest

import npusim
from npusim import errors
from npusim.runtime.hostmem import size_class

K = npusim.MemcpyKind


def test_size_classes_and_reuse(rt: None) -> None:
    assert [size_class(n) for n in (1, 4096, 4097, 10_000, 1 << 20)] == [4096, 4096, 8192, 16384, 1 << 20]
    a = npusim.malloc_host(10_000)
    assert a % 4096 == 0
    npusim.free_host(a)
    b = npusim.malloc_host(9_000)  # same 16 KiB class: the cached buffer
    assert b == a
    c = npusim.malloc_host(20_000)  # another class
    assert c != a
    stats = npusim.host_memory_stats()
    assert stats["num_hits"] == 1 and stats["num_misses"] == 2
    assert stats["reserved_bytes.current"] == 16384 + 32768
    assert stats["allocated_bytes.current"] == 16384 + 32768
    assert stats["requested_bytes.current"] == 29_000
    for p in (b, c):
        npusim.free_host(p)
    assert npusim.empty_host_cache() == 16384 + 32768
    assert npusim.host_memory_stats()["reserved_bytes.current"] == 0


def test_reuse_waits_for_copies_that_used_the_buffer(rt: None) -> None:
    s = npusim.create_stream()
    gate = threading.Event()
    npusim.launch_function(lambda: 0.0 if gate.wait(10) else 0.0, stream=s)
    host = npusim.malloc_host(4096)
    dev = npusim.malloc(4096)
    npusim.memcpy_async(host, 4096, dev, 4096, K.DEVICE_TO_HOST, s)  # will write into host
    npusim.free_host(host)
    other = npusim.malloc_host(4096)
    assert other != host  # the queued copy may still write there
    assert npusim.host_memory_stats()["num_reuse_waits"] == 1
    gate.set()
    s.synchronize()
    npusim.free_host(other)
    again = npusim.malloc_host(4096)
    assert again in (host, other)
    npusim.free_host(again)
    npusim.free(dev)
    npusim.destroy_stream(s)


def test_host_use_after_free_and_double_free_name_the_lines(rt: None) -> None:
    ptr = npusim.malloc_host(64)
    npusim.free_host(ptr)
    buf = npusim.malloc(64)
    with pytest.raises(errors.InvalidMemoryTypeError, match="use after free") as info:
        npusim.memcpy(buf, 64, ptr, 64, K.HOST_TO_DEVICE)
    assert "malloc_host at " + __file__ in str(info.value) and "freed by free_host at" in str(info.value)
    with pytest.raises(errors.MemoryFreeError, match="double free_host"):
        npusim.free_host(ptr)
    npusim.free(buf)


def test_zero_copy_host_memory(rt: None) -> None:
    host = npusim.malloc_host(8192)
    view = npusim.ptr_to_numpy(host, 8192, np.uint8)
    view[:] = 3
    dev = npusim.host_register(host, 8192)
    assert npusim.is_host_mapped(dev) and npusim.is_host_mapped(dev + 100, 8092)
    assert not npusim.is_host_mapped(dev + 100, 8093) and not npusim.is_host_mapped(host)
    assert dev % 4096 == host % 4096 and dev >= 1 << 48
    (rng,) = npusim.host_mapped_ranges()
    assert (rng.device, rng.ptr, rng.nbytes, rng.host_ptr) == (0, dev, 8192, host)
    # copies through the device address reach the host bytes directly
    data = np.arange(256, dtype=np.uint8)
    npusim.memcpy(dev + 256, 256, data, 256, K.HOST_TO_DEVICE)
    assert (view[256:512] == data).all()
    buf = npusim.malloc(512)
    npusim.memcpy(buf, 512, dev, 512, K.DEVICE_TO_DEVICE)
    out = np.zeros(512, np.uint8)
    npusim.memcpy(out, 512, buf, 512, K.DEVICE_TO_HOST)
    assert (out[:256] == 3).all() and (out[256:] == data).all()
    npusim.memset_async(dev, 8192, 9, 16)
    npusim.synchronize_stream()
    assert (view[:16] == 9).all()
    mapping = npusim.check_access(dev, 8192)
    assert isinstance(mapping, npusim.HostMapping) and mapping.host_ptr == host
    with pytest.raises(errors.RtParamInvalidError, match="past the end"):
        npusim.check_access(dev, 8193)
    with pytest.raises(errors.MemoryFreeError, match="still registered"):
        npusim.free_host(host)
    with pytest.raises(errors.MemoryFreeError, match="host memory mapped"):
        npusim.free(dev)
    npusim.host_unregister(host)
    assert npusim.host_mapped_ranges() == [] and not npusim.is_host_mapped(dev)
    with pytest.raises(errors.RtParamInvalidError):
        npusim.check_access(dev, 1)
    with pytest.raises(errors.InvalidParamError, match="not registered"):
        npusim.host_unregister(host)
    npusim.free_host(host)
    npusim.free(buf)


def test_zero_copy_of_a_numpy_array_and_errors(rt: None) -> None:
    arr = np.zeros(1000, np.float32)
    dev = npusim.host_register(arr, arr.nbytes)
    npusim.memset(dev, arr.nbytes, 0xFF, 8)
    assert np.isnan(arr[0]) and arr[2] == 0
    with pytest.raises(errors.InvalidParamError, match="overlaps"):
        npusim.host_register(npusim.numpy_to_ptr(arr), 16)
    with pytest.raises(errors.RtParamInvalidError):
        npusim.host_register(arr, arr.nbytes + 1)  # runs past the array
    with pytest.raises(errors.InvalidMemoryTypeError):
        npusim.host_register(0x1234000, 16)  # host memory npusim does not know
    buf = npusim.malloc(64)
    with pytest.raises(errors.InvalidMemoryTypeError):
        npusim.host_register(buf, 64)
    npusim.host_unregister(arr)
    npusim.free(buf)


def test_registrations_are_reported_as_leaks() -> None:
    npusim.init(chip="tiny")
    npusim.set_device(0)
    host = npusim.malloc_host(4096)
    dev = npusim.host_register(host, 4096)
    lines = npusim.leak_report()
    assert any(line.startswith(f"host_register <HostMapping npu:0 0x{dev:x}") and __file__ in line
               for line in lines)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", npusim.LeakWarning)
        leaks = npusim.finalize()
    assert any("host_register" in line for line in leaks) and any("malloc_host" in line for line in leaks)
