"""acl.rt callbacks (launch_callback, subscribe_report, process_report) and acl.util threads."""

from __future__ import annotations

import threading
import time

import aclsim.acl as acl


def test_callback_processed_by_the_subscribed_main_thread(dev: None) -> None:
    stream, _ = acl.rt.create_stream()
    me = threading.get_ident()
    assert acl.rt.subscribe_report(me, stream) == 0
    got: list[object] = []
    assert acl.rt.launch_callback(got.append, ["a", 1], acl.ACL_CALLBACK_NO_BLOCK, stream) == 0
    assert acl.rt.process_report(2000) == 0
    assert got == [["a", 1]]
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.unsubscribe_report(me, stream) == 0


def test_launch_callback_without_subscribe_is_107015(dev: None) -> None:
    stream, _ = acl.rt.create_stream()
    assert acl.rt.launch_callback(print, None, 0, stream) == acl.ACL_ERROR_RT_STREAM_NO_CB_REG == 107015
    assert acl.rt.launch_callback(print, None, 1, 0) == 107015


def test_launch_callback_bad_arguments(dev: None) -> None:
    stream, _ = acl.rt.create_stream()
    assert acl.rt.subscribe_report(threading.get_ident(), stream) == 0
    assert acl.rt.launch_callback("not callable", None, 0, stream) == acl.ACL_ERROR_INVALID_PARAM  # type: ignore
    assert acl.rt.launch_callback(print, None, 2, stream) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.rt.launch_callback(print, None, 0, 0x999) == acl.ACL_ERROR_RT_INVALID_HANDLE


def test_process_report_timeout_is_507012(dev: None) -> None:
    assert acl.rt.subscribe_report(threading.get_ident(), 0) == 0
    t0 = time.monotonic()
    assert acl.rt.process_report(20) == acl.ACL_ERROR_RT_REPORT_TIMEOUT == 507012
    assert 0.015 <= time.monotonic() - t0 < 2
    assert acl.rt.process_report(0) == 507012  # 0 polls once
    assert acl.rt.process_report(-3) == acl.ACL_ERROR_INVALID_PARAM


def test_process_report_in_an_unsubscribed_thread_is_107012(dev: None) -> None:
    assert acl.rt.process_report(10) == acl.ACL_ERROR_RT_THREAD_SUBSCRIBE


def test_subscribe_errors(dev: None) -> None:
    stream, _ = acl.rt.create_stream()
    me = threading.get_ident()
    assert acl.rt.unsubscribe_report(me, stream) == acl.ACL_ERROR_RT_STREAM_NO_CB_REG
    assert acl.rt.subscribe_report(me, stream) == 0
    assert acl.rt.subscribe_report(me, stream) == acl.ACL_ERROR_REPEAT_SUBSCRIBE == 100033
    assert acl.rt.unsubscribe_report(me + 1, stream) == acl.ACL_ERROR_RT_THREAD_SUBSCRIBE
    assert acl.rt.subscribe_report(12345, 0) == acl.ACL_ERROR_INVALID_PARAM  # no such thread
    assert acl.rt.subscribe_report(0, 0) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.rt.subscribe_report(me, 0xF00) == acl.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.rt.unsubscribe_report(me, stream) == 0


def test_start_thread_id_is_the_threads_ident(dev: None) -> None:
    seen: list[int] = []
    release = threading.Event()

    def body(args: list[object]) -> None:
        seen.append(threading.get_ident())
        seen.append(len(args))
        release.wait(5)

    tid, ret = acl.util.start_thread(body, [1, 2, 3])
    assert ret == 0 and isinstance(tid, int)
    assert tid in {t.ident for t in threading.enumerate()}  # known and alive on return
    release.set()
    assert acl.util.stop_thread(tid) == 0
    assert seen == [tid, 3]
    assert acl.util.stop_thread(tid) == acl.ACL_ERROR_INVALID_PARAM  # already stopped


def test_thread_errors() -> None:
    assert acl.util.start_thread(42, []) == (0, acl.ACL_ERROR_INVALID_PARAM)  # type: ignore[arg-type]
    assert acl.util.stop_thread(987654321) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.util.stop_thread(threading.get_ident()) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.util.stop_thread("x") == acl.ACL_ERROR_INVALID_PARAM  # type: ignore[arg-type]


def test_blocking_callbacks_from_a_report_thread(dev: None) -> None:
    """The pyACL pattern: a start_thread loop calls process_report until told to stop."""
    stream, _ = acl.rt.create_stream()
    ctx, _ = acl.rt.get_context()
    state = {"run": True}
    order: list[int] = []

    def report_loop(args_list: list[int]) -> None:
        context, timeout = args_list
        assert acl.rt.set_context(context) == 0
        while state["run"]:
            acl.rt.process_report(timeout)

    tid, ret = acl.util.start_thread(report_loop, [ctx, 10])
    assert ret == 0
    assert acl.rt.subscribe_report(tid, stream) == 0
    for i in range(5):
        assert acl.rt.launch_callback(order.append, i, acl.ACL_CALLBACK_BLOCK, stream) == 0
    assert acl.rt.synchronize_stream_with_timeout(stream, 5000) == 0
    assert order == [0, 1, 2, 3, 4]
    assert acl.rt.unsubscribe_report(tid, stream) == 0
    state["run"] = False
    assert acl.util.stop_thread(tid) == 0
    assert acl.rt.destroy_stream(stream) == 0
