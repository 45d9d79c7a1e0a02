"""The memory debugger's errors and reports: double free, foreign and interior pointers, use
after free (poisoned freed memory), leak reports on demand and at finalize, check_access."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import aclsim
from aclsim import errors

K = aclsim.MemcpyKind
HERE = __file__


def _line(buf: aclsim.Buffer) -> str:
    return buf.site


def test_double_free_names_both_lines(rt: None) -> None:
    buf = aclsim.malloc(100)
    aclsim.free(buf)
    free_line = buf.free_site
    assert free_line is not None and free_line.startswith(HERE)
    with pytest.raises(errors.MemoryFreeError) as info:
        aclsim.free(buf)
    text = str(info.value)
    assert info.value.code == 207002 and "double free" in text
    assert f"allocated at {buf.site}" in text and f"freed at {free_line}" in text


def test_foreign_and_interior_pointers(rt: None) -> None:
    buf = aclsim.malloc(4096)
    with pytest.raises(errors.MemoryFreeError, match="not its start") as info:
        aclsim.free(buf.ptr + 512)
    assert buf.site in str(info.value)
    with pytest.raises(errors.MemoryFreeError, match="not a live allocation"):
        aclsim.free((1 << 48) + (40 << 20))  # device memory nobody allocated
    with pytest.raises(errors.InvalidMemoryTypeError):
        aclsim.free(aclsim.numpy_to_ptr(np.zeros(4)))  # host memory
    aclsim.free(buf)


def test_use_after_free_through_a_raw_pointer(rt: None) -> None:
    buf = aclsim.malloc(4096)
    ptr = int(buf)
    aclsim.free(buf)  # the block is now cached by the pool: poisoned
    host = np.zeros(64, np.uint8)
    for call in (lambda: aclsim.memcpy(host, 64, ptr + 128, 64, K.DEVICE_TO_HOST),
                 lambda: aclsim.memcpy(ptr, 64, host, 64, K.HOST_TO_DEVICE),
                 lambda: aclsim.memset(ptr, 64, 0, 64),
                 lambda: aclsim.memcpy_async(ptr, 64, host, 64, K.HOST_TO_DEVICE),
                 lambda: aclsim.check_access(ptr, 16)):
        with pytest.raises(errors.UseAfterFreeError) as info:
            call()
        text = str(info.value)
        assert info.value.code == 107000 and "use after free" in text
        assert f"allocated at {buf.site}" in text and f"freed at {buf.free_site}" in text
    again = aclsim.malloc(4096)  # the memory comes back: the pointer is valid again (as on hardware)
    assert again.ptr == ptr
    aclsim.check_access(ptr, 4096)
    aclsim.free(again)


def test_queued_copy_of_a_freed_buffer_names_the_free(rt: None) -> None:
    s = aclsim.create_stream()
    import threading

    gate = threading.Event()
    aclsim.launch_function(lambda: 0.0 if gate.wait(10) else 0.0, stream=s)
    buf = aclsim.malloc(256)
    host = np.zeros(256, np.uint8)
    aclsim.memcpy_async(host, 256, buf, 256, K.DEVICE_TO_HOST, s)
    aclsim.free(buf)
    gate.set()
    with pytest.raises(errors.TaskError) as info:
        s.synchronize()
    assert info.value.code == 207002 and f"freed at {buf.free_site}" in str(info.value)
    aclsim.destroy_stream(s)


def test_check_access(rt: None) -> None:
    buf = aclsim.malloc(1000)
    assert aclsim.check_access(buf, 1000) is buf
    assert aclsim.check_access(buf.ptr + 10, 990) is buf
    with pytest.raises(errors.RtParamInvalidError, match="past its end"):
        aclsim.check_access(buf.ptr + 10, 991)
    with pytest.raises(errors.InvalidMemoryTypeError):
        aclsim.check_access(aclsim.numpy_to_ptr(np.zeros(4)), 8)
    with pytest.raises(errors.RtParamInvalidError, match="not inside a live allocation"):
        aclsim.check_access((1 << 48) + (50 << 20), 8)
    with pytest.raises(errors.InvalidParamError):
        aclsim.check_access(buf, -1)
    aclsim.free(buf)


def test_leak_report_on_demand_and_at_finalize() -> None:
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    s = aclsim.create_stream()
    a = aclsim.malloc(1000)
    b = aclsim.malloc(2000, stream=s)
    d = aclsim.dvpp_malloc(300)
    lines = aclsim.leak_report()
    for buf, api in ((a, "malloc"), (b, "malloc"), (d, "dvpp_malloc")):
        expected = f"{api} {buf!r} on {buf.stream!r} allocated at {buf.site}"
        assert expected in lines
        assert f"{buf.size}B" in expected and buf.site.startswith(HERE)
    aclsim.free(a)
    assert not any(repr(a) in line for line in aclsim.leak_report())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        leaks = aclsim.finalize()
    assert any(f"malloc {b!r}" in line for line in leaks)
    (warning,) = [w for w in caught if issubclass(w.category, aclsim.LeakWarning)]
    assert b.site in str(warning.message) and d.site in str(warning.message)
