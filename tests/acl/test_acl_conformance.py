"""Regressions found by driving the pyACL face from outside: published samples that must run
unchanged, and hostile calls that must not raise, hang, leak or change state."""

from __future__ import annotations

import gc
import logging
import threading
import time

import numpy as np
import pytest

import aclsim
import aclsim.acl as acl
from aclsim.runtime._state import STATE

H2D, D2H, D2D, H2H = (acl.ACL_MEMCPY_HOST_TO_DEVICE, acl.ACL_MEMCPY_DEVICE_TO_HOST,
                      acl.ACL_MEMCPY_DEVICE_TO_DEVICE, acl.ACL_MEMCPY_HOST_TO_HOST)


# --- the copy kind is reserved: the pointers decide the direction ------------------------------

def test_sample_copy_out_of_malloc_host_with_device_to_host_kind(dev: None,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    """As the published memory samples do: a malloc_host buffer copied with D2H (host to host)
    and device memory filled from host with D2H.  The device copies by the pointers."""
    host, ret = acl.rt.malloc_host(64)
    assert ret == 0
    acl.util.ptr_to_numpy(host, (64,), np.uint8)[:] = np.arange(64, dtype=np.uint8)
    out = np.zeros(64, np.uint8)
    with caplog.at_level(logging.WARNING, logger="aclsim.acl"):
        assert acl.rt.memcpy(acl.util.numpy_to_ptr(out), 64, host, 64, D2H) == 0
        assert np.array_equal(out, np.arange(64, dtype=np.uint8))
        dev_ptr, ret = acl.rt.malloc(64, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        assert acl.rt.memcpy(dev_ptr, 64, host, 64, D2H) == 0  # really H2D
        back = np.zeros(64, np.uint8)
        assert acl.rt.memcpy(acl.util.numpy_to_ptr(back), 64, dev_ptr, 64, H2D) == 0  # really D2H
    assert np.array_equal(back, np.arange(64, dtype=np.uint8))
    assert acl.get_recent_err_msg() is None  # nothing failed
    kinds = [r.getMessage() for r in caplog.records if "does not match" in r.getMessage()]
    assert len(kinds) == 3
    diags = aclsim.diagnostics()
    assert [d.kind for d in diags] == ["memcpy_kind"] * 3
    assert "test_acl_conformance.py" in diags[0].site
    assert "DEVICE_TO_HOST" in diags[0].message and "host to host" in diags[0].message
    assert acl.rt.free(dev_ptr) == 0 and acl.rt.free_host(host) == 0


def test_copy_kind_mismatch_is_an_error_in_strict_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ACLSIM_STRICT", "1")
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    host, _ = acl.rt.malloc_host(64)
    out = np.zeros(64, np.uint8)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(out), 64, host, 64, D2H) == 107016
    assert "strict" in (acl.get_recent_err_msg() or "")
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(out), 64, host, 64, H2H) == 0
    assert acl.rt.free_host(host) == 0


def test_unknown_copy_kinds_are_invalid(dev: None) -> None:
    """The runtime's kind translation takes kinds 0-5 only (INNER/INTER_DEVICE_TO_DEVICE are
    not copy kinds of aclrtMemcpy), and anything else is ACL_ERROR_INVALID_PARAM."""
    a, b = np.zeros(8, np.uint8), np.zeros(8, np.uint8)
    for kind in (acl.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, acl.ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, 8, -1, 99):
        assert acl.rt.memcpy(acl.util.numpy_to_ptr(a), 8, acl.util.numpy_to_ptr(b), 8, kind) == 100000
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(a), 8, acl.util.numpy_to_ptr(b), 8,
                         acl.ACL_MEMCPY_DEFAULT) == 0


# --- sizes past what can exist -------------------------------------------------------------------

@pytest.mark.parametrize("size", [2**62, 2**63, 2**64 - 1, 2**64, 2**80])
def test_malloc_host_of_impossible_sizes_returns_a_code(dev: None, size: int) -> None:
    ptr, ret = acl.rt.malloc_host(size)
    assert ptr is None and ret in (100000, 207001)
    assert ret == (207001 if size < 2**64 else 100000)


@pytest.mark.parametrize("size", [2**63, 2**64 - 1, 2**64, 2**80])
def test_device_malloc_of_impossible_sizes_returns_a_code(dev: None, size: int) -> None:
    ptr, ret = acl.rt.malloc(size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ptr is None and ret in (100000, 207001)


def test_huge_shapes_are_refused_not_wrapped(dev: None) -> None:
    host, _ = acl.rt.malloc_host(64)
    with pytest.raises(aclsim.errors.AclError):  # acl.util raises, as pyACL does
        acl.util.ptr_to_numpy(host, (2**32, 2**32), np.uint8)  # 2**64 wraps to 0 in int64
    acl.rt.free_host(host)


# --- a view never changes ownership -------------------------------------------------------------

def test_wrapping_malloc_host_memory_in_a_view_keeps_its_owner(dev: None) -> None:
    host, _ = acl.rt.malloc_host(256)
    view = acl.util.ptr_to_numpy(host, (64,), np.float32)
    assert acl.util.numpy_to_ptr(view) == host
    assert any("malloc_host" in line for line in aclsim.leak_report())
    del view
    gc.collect()
    assert any("malloc_host" in line for line in aclsim.leak_report())
    assert acl.rt.free_host(host) == 0
    assert not any("malloc_host" in line for line in aclsim.leak_report())


def test_wrapping_bytes_memory_in_an_array_keeps_the_bytes_registered(dev: None) -> None:
    data = bytes(64)
    ptr = acl.util.bytes_to_ptr(data)
    arr = np.frombuffer(data, np.uint8)
    assert acl.util.numpy_to_ptr(arr) == ptr
    region = STATE.host.region_at(ptr)
    assert region is not None and region.kind == "bytes"  # the view did not take the bytes' place
    del arr
    gc.collect()
    dev_ptr, _ = acl.rt.malloc(64, 0)
    assert acl.rt.memset(dev_ptr, 64, 7, 64) == 0
    assert acl.rt.memcpy(ptr, 64, dev_ptr, 64, D2H) == 0  # the bytes are still known memory
    assert data == bytes([7]) * 64
    acl.rt.free(dev_ptr)


# --- callbacks whose subscriber is gone --------------------------------------------------------

def test_callback_for_an_exited_subscriber_is_a_deadlock_not_a_hang(dev: None) -> None:
    stream, _ = acl.rt.create_stream()
    subscribed = threading.Event()
    tid, ret = acl.util.start_thread(lambda _a: subscribed.wait(10), None)
    assert ret == 0
    assert acl.rt.subscribe_report(tid, stream) == 0
    subscribed.set()
    assert acl.util.stop_thread(tid) == 0  # the subscriber has exited
    # New threads may now be given the dead thread's id; the stream's worker is one of them.
    assert acl.rt.launch_callback(lambda _d: None, None, acl.ACL_CALLBACK_BLOCK, stream) == 0
    result: list[int] = []
    waiter = threading.Thread(target=lambda: result.append(acl.rt.synchronize_stream(stream)), daemon=True)
    waiter.start()
    waiter.join(10)
    assert not waiter.is_alive(), "synchronize_stream hung"
    assert result == [507046]


def test_subscriber_identity_survives_thread_id_reuse(rt: None) -> None:
    """A thread id the OS hands to a new thread does not make a dead subscriber alive."""
    s = aclsim.create_stream()
    subscribed = threading.Event()

    def subscriber() -> None:
        aclsim.subscribe_report(threading.get_ident(), s)
        subscribed.set()

    t = threading.Thread(target=subscriber)
    t.start()
    t.join()
    assert subscribed.is_set()
    release = threading.Event()
    squatter = threading.Thread(target=lambda: release.wait(30), daemon=True)
    squatter.start()  # on Linux it usually gets the dead subscriber's id
    try:
        aclsim.launch_callback(lambda _d: None, None, 1, s)
        with pytest.raises(aclsim.errors.DeadlockError, match="exited"):
            aclsim.synchronize_stream(s, timeout=10)
    finally:
        release.set()
        squatter.join(5)


# --- a failed reset leaves the device as it was ---------------------------------------------------

def test_failed_reset_device_keeps_the_device(dev: None) -> None:
    stream, _ = acl.rt.create_stream()
    # a blocking callback only this thread can process: reset must report a deadlock
    assert acl.rt.subscribe_report(threading.get_ident(), stream) == 0
    assert acl.rt.launch_callback(lambda _d: None, None, acl.ACL_CALLBACK_BLOCK, stream) == 0
    device = STATE.devices[0]
    before = (device.refcount, device.default_context, aclsim.leak_report())
    t0 = time.monotonic()
    assert acl.rt.reset_device(0) == 507046
    assert time.monotonic() - t0 < 10
    assert (device.refcount, device.default_context, aclsim.leak_report()) == before
    assert acl.rt.process_report(1000) == 0  # run the callback: the stream drains
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.unsubscribe_report(threading.get_ident(), stream) == 0
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.reset_device(0) == 0
    assert device.refcount == 0 and device.default_context is None


def test_failed_reset_device_force_keeps_the_device(dev: None) -> None:
    assert acl.rt.set_device(0) == 0  # refcount 2
    stream, _ = acl.rt.create_stream()
    assert acl.rt.subscribe_report(threading.get_ident(), stream) == 0
    assert acl.rt.launch_callback(lambda _d: None, None, acl.ACL_CALLBACK_BLOCK, stream) == 0
    device = STATE.devices[0]
    assert acl.rt.reset_device_force(0) == 507046
    assert device.refcount == 2 and device.default_context is not None
    assert acl.rt.process_report(1000) == 0
    assert acl.rt.unsubscribe_report(threading.get_ident(), stream) == 0
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.reset_device_force(0) == 0
    assert device.refcount == 0


# --- copies of zero bytes touch no memory ---------------------------------------------------------

def test_zero_byte_async_copy_then_free_is_not_a_use_after_free(dev: None) -> None:
    stream, _ = acl.rt.create_stream()
    dev_ptr, _ = acl.rt.malloc(64, 0)
    host = np.zeros(64, np.uint8)
    assert acl.rt.memcpy_async(acl.util.numpy_to_ptr(host), 64, dev_ptr, 0, D2H, stream) == 0
    assert acl.rt.memset_async(dev_ptr, 64, 1, 0, stream) == 0
    assert acl.rt.free(dev_ptr) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    # As AscendCL: a zero-byte copy or memset succeeds without looking at the pointers.
    assert acl.rt.memcpy(0, 0, 0, 0, H2D) == 0
    assert acl.rt.memset(0, 0, 0, 0) == 0
    assert acl.rt.destroy_stream(stream) == 0


def test_stop_thread_joins_the_thread_the_id_first_named(dev: None) -> None:
    """A finished start_thread thread keeps its id until stop_thread, as a joinable pthread
    does: a newer thread that the OS gave the same id is not the one joined (that would hang)."""
    first, ret = acl.util.start_thread(lambda _a: None, None)
    assert ret == 0
    deadline = time.monotonic() + 5
    while any(t.ident == first for t in threading.enumerate()) and time.monotonic() < deadline:
        time.sleep(0.001)
    release = threading.Event()
    ids = []
    for _ in range(20):  # Linux reuses the id of a finished thread almost at once
        tid, _ = acl.util.start_thread(lambda _a: release.wait(30), None)
        ids.append(tid)
        if tid == first:
            break
    try:
        t0 = time.monotonic()
        assert acl.util.stop_thread(first) == 0  # the finished thread: returns at once
        assert time.monotonic() - t0 < 2
    finally:
        release.set()
        for tid in ids:
            assert acl.util.stop_thread(tid) == 0
