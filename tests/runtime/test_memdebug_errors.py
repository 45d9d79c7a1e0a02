"""The memory debugger's errors and reports: double free, foreign and interior pointers, use
after free (poisoned freed memory), leak reports on demand and at finalize, check_access."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import npusim
from npusim import errors

K = npusim.MemcpyKind
HERE = __file__


def _line(buf: npusim.Buffer) -> str:
    return buf.site


def test_double_free_names_both_lines(rt: None) -> None:
    buf = npusim.malloc(100)
    npusim.free(buf)
    free_line = buf.free_site
    assert free_line is not None and free_line.startswith(HERE)
    with pytest.raises(errors.MemoryFreeError) as info:
        npusim.free(buf)
    text = str(info.value)
    assert info.value.code == 207002 and "double free" in text
    assert f"allocated at {buf.site}" in text and f"freed at {free_line}" in text


def test_foreign_and_interior_pointers(rt: None) -> None:
    buf = npusim.malloc(4096)
    with pytest.raises(errors.MemoryFreeError, match="not its start") as info:
        npusim.free(buf.ptr + 512)
    assert buf.site in str(info.value)
    with pytest.raises(errors.MemoryFreeError, match="not a live allocation"):
        npusim.free((1 << 48) + (40 << 20))  # device memory nobody allocated
    with pytest.raises(errors.InvalidMemoryTypeError):
        npusim.free(npusim.numpy_to_ptr(np.zeros(4)))  # host memory
    npusim.free(buf)


def test_use_after_free_through_a_raw_pointer(rt: None) -> None:
    buf = npusim.malloc(4096)
    ptr = int(buf)
    npusim.free(buf)  # the block is now cached by the pool: poisoned
    host = np.zeros(64, np.uint8)
    for call in (lambda: npusim.memcpy(host, 64, ptr + 128, 64, K.DEVICE_TO_HOST),
                 lambda: npusim.memcpy(ptr, 64, host, 64, K.HOST_TO_DEVICE),
                 lambda: npusim.memset(ptr, 64, 0, 64),
                 lambda: npusim.memcpy_async(ptr, 64, host, 64, K.HOST_TO_DEVICE),
                 lambda: npusim.check_access(ptr, 16)):
        with pytest.raises(errors.UseAfterFreeError) as info:
            call()
        text = str(info.value)
        assert info.value.code == 107000 and "use after free" in text
        assert f"allocated at {buf.site}" in text and f"freed at {buf.free_site}" in text
    again = npusim.malloc(4096)  # the memory comes back: the pointer is valid again (as on hardware)
    assert again.ptr == ptr
    npusim.check_access(ptr, 4096)
    npusim.free(again)


def test_queued_copy_of_a_freed_buffer_names_the_free(rt: None) -> None:
    s = npusim.create_stream()
    import threading

    gate = threading.Event()
    npusim.launch_function(lambda: 0.0 if gate.wait(10) else 0.0, stream=s)
    buf = npusim.malloc(256)
    host = np.zeros(256, np.uint8)
    npusim.memcpy_async(host, 256, buf, 256, K.DEVICE_TO_HOST, s)
    npusim.free(buf)
    gate.set()
    with pytest.raises(errors.TaskError) as info:
        s.synchronize()
    assert info.value.code == 207002 and f"freed at {buf.free_site}" in str(info.value)
    npusim.destroy_stream(s)


def test_check_access(rt: None) -> None:
    buf = npusim.malloc(1000)
    assert npusim.check_access(buf, 1000) is buf
    assert npusim.check_access(buf.ptr + 10, 990) is buf
    with pytest.raises(errors.RtParamInvalidError, match="past its end"):
        npusim.check_access(buf.ptr + 10, 991)
    with pytest.raises(errors.InvalidMemoryTypeError):
        npusim.check_access(npusim.numpy_to_ptr(np.zeros(4)), 8)
    with pytest.raises(errors.RtParamInvalidError, match="not inside a live allocation"):
        npusim.check_access((1 << 48) + (50 << 20), 8)
    with pytest.raises(errors.InvalidParamError):
        npusim.check_access(buf, -1)
    npusim.free(buf)


def test_leak_report_on_demand_and_at_finalize() -> None:
    npusim.init(chip="tiny")
    npusim.set_device(0)
    s = npusim.create_stream()
    a = npusim.malloc(1000)
    b = npusim.malloc(2000, stream=s)
    d = npusim.dvpp_malloc(300)
    lines = npusim.leak_report()
    for buf, api in ((a, "malloc"), (b, "malloc"), (d, "dvpp_malloc")):
        expected = f"{api} {buf!r} on {buf.stream!r} allocated at {buf.site}"
        assert expected in lines
        assert f"{buf.size}B" in expected and buf.site.startswith(HERE)
    npusim.free(a)
    assert not any(repr(a) in line for line in npusim.leak_report())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        leaks = npusim.finalize()
    assert any(f"malloc {b!r}" in line for line in leaks)
    (warning,) = [w for w in caught if issubclass(w.category, npusim.LeakWarning)]
    assert b.site in str(warning.message) and d.site in str(warning.message)
