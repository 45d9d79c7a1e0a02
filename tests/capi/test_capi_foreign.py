"""The runtime's side of calls from C (aclsim.runtime.foreign), tested from Python: any
process address is host memory inside a C call only, aclrtMallocHost memory keeps its
use-after-free check, a C thread id may subscribe before Python has seen the thread, and
messages and warnings name the caller, not the face."""

from __future__ import annotations

import ctypes
import threading
import warnings
from collections.abc import Iterator

import pytest

import aclsim.acl as acl
from aclsim.errors import (
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_RT_INVALID_MEMORY_TYPE,
    ACL_ERROR_UNINITIALIZE,
    ACL_SUCCESS,
    LeakWarning,
)
from aclsim.runtime import foreign


@pytest.fixture()
def dev() -> Iterator[None]:
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    yield
    acl.get_recent_err_msg()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LeakWarning)
        acl.rt.reset_device(0)
        acl.finalize()


class c_call:  # noqa: N801 - reads as a statement: with c_call("aclrtMemcpy"): ...
    """Mark the thread as inside a C call, as the library's entry points do."""

    def __init__(self, name: str = "aclrtMemcpy", caller: int = 0x1234) -> None:
        self.call = foreign.ForeignCall(name, caller)

    def __enter__(self) -> foreign.ForeignCall:
        self.previous = foreign.enter(self.call)
        return self.call

    def __exit__(self, *exc: object) -> None:
        foreign.leave(self.previous)


def test_any_process_address_is_host_memory_inside_a_c_call_only(dev: None) -> None:
    src = (ctypes.c_int32 * 64)(*range(64))  # memory aclsim never registered, like a C stack array
    dst = (ctypes.c_int32 * 64)()
    nbytes = ctypes.sizeof(src)
    ptr, ret = acl.rt.malloc(nbytes, 0)
    assert ret == 0
    # the pyACL face keeps its rule: unregistered host memory is refused
    assert acl.rt.memcpy(ptr, nbytes, ctypes.addressof(src), nbytes, 1) == ACL_ERROR_RT_INVALID_MEMORY_TYPE
    with c_call():
        assert acl.rt.memcpy(ptr, nbytes, ctypes.addressof(src), nbytes, 1) == ACL_SUCCESS
        stream, _ = acl.rt.create_stream()
        assert acl.rt.memcpy_async(ctypes.addressof(dst), nbytes, ptr, nbytes, 2, stream) == ACL_SUCCESS
        assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
        assert acl.rt.destroy_stream(stream) == ACL_SUCCESS
    assert list(dst) == list(range(64))
    assert acl.rt.free(ptr) == 0


def test_freed_malloc_host_memory_is_still_a_use_after_free_from_c(dev: None) -> None:
    host, _ = acl.rt.malloc_host(4096)
    out = (ctypes.c_char * 64)()
    assert acl.rt.free_host(host) == 0
    with c_call():
        ret = acl.rt.memcpy(ctypes.addressof(out), 64, host, 64, 0)
    assert ret == ACL_ERROR_RT_INVALID_MEMORY_TYPE
    assert "use after free" in acl.get_recent_err_msg()


def test_messages_name_the_c_function_and_its_caller(dev: None) -> None:
    from aclsim.capi.embedded import decorate_message
    from aclsim.recent_errors import set_message_decorator

    foreign.set_site_resolver(lambda address: f"main (prog.c:{address})")
    set_message_decorator(decorate_message)
    try:
        with c_call("aclrtFree", 42):
            assert acl.rt.free(0x1000) != 0
        assert acl.rt.free(0x1000) != 0  # from Python: the face's name, no C caller
    finally:
        set_message_decorator(None)
        foreign.set_site_resolver(None)
    python_call, c_call_message = acl.get_recent_err_msg().splitlines()
    assert c_call_message.startswith("aclrtFree (called from main (prog.c:42)): [ACL_ERROR_"), c_call_message
    assert python_call.startswith("acl.rt.free: [ACL_ERROR_")


def test_a_c_thread_python_has_not_seen_may_subscribe(dev: None) -> None:
    stream, _ = acl.rt.create_stream()
    unseen = 0x7F00_DEAD_B000  # a pthread_t of a C thread that never called AscendCL yet
    assert acl.rt.subscribe_report(unseen, stream) == ACL_ERROR_INVALID_PARAM  # Python: a live thread
    with c_call("aclrtSubscribeReport"):
        assert acl.rt.subscribe_report(unseen, stream) == ACL_SUCCESS
    assert acl.rt.unsubscribe_report(unseen, stream) == ACL_SUCCESS
    # a thread claims the callbacks queued for its id once it calls process_report
    ran: list[int] = []
    done = threading.Event()

    def reporter() -> None:
        while not done.is_set():
            acl.rt.process_report(20)

    t = threading.Thread(target=reporter)
    t.start()
    try:
        with c_call("aclrtSubscribeReport"):
            assert acl.rt.subscribe_report(t.ident, stream) == ACL_SUCCESS
        assert acl.rt.launch_callback(lambda _: ran.append(1), None, 1, stream) == ACL_SUCCESS
        assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
        assert ran == [1]
        assert acl.rt.unsubscribe_report(t.ident, stream) == ACL_SUCCESS
    finally:
        done.set()
        t.join(5)
    assert acl.rt.destroy_stream(stream) == 0


def test_run_mode_needs_no_init() -> None:
    assert acl.rt.get_run_mode() == (acl.ACL_HOST, 0)
    assert acl.rt.get_device_count() == (0, ACL_ERROR_UNINITIALIZE)
    acl.get_recent_err_msg()


def test_the_leak_warning_names_the_caller_of_finalize() -> None:
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    ptr, _ = acl.rt.malloc(64, 0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert acl.finalize() == 0
    (leak,) = [w for w in caught if issubclass(w.category, LeakWarning)]
    assert leak.filename == __file__, leak.filename  # was acl/_core.py, the face
    assert f"0x{ptr:x}" in str(leak.message)
    assert leak.lineno > 0
