"""pyACL programs written the way the Ascend samples are, run unchanged on aclsim.

Each defines its own constants and ``check_ret`` as the samples do, checks every ``ret``,
and tears everything down in the documented order (events, streams, contexts, devices,
finalize).
"""

from __future__ import annotations

import sys
import threading
import warnings
from typing import Any

import numpy as np
import pytest

import aclsim.acl

# --- constants, as a pyACL sample defines them itself -----------------------------------
ACL_SUCCESS = 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEMCPY_HOST_TO_HOST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_MEMCPY_DEVICE_TO_DEVICE = 3
ACL_DDR_MEM = 0
ACL_HBM_MEM = 1
NPY_FLOAT32 = 11
ACL_CALLBACK_BLOCK = 1


def check_ret(message: str, ret: int) -> None:
    if ret != ACL_SUCCESS:
        raise RuntimeError(f"{message} failed ret={ret}")


@pytest.fixture
def acl(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``import acl`` resolves to aclsim.acl, so the programs below import it by pyACL's name."""
    monkeypatch.setitem(sys.modules, "acl", aclsim.acl)
    import acl as pyacl

    assert pyacl is aclsim.acl
    return pyacl


def _finalize_strictly(acl: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a clean program leaks nothing
        check_ret("acl.finalize", acl.finalize())


def test_sample_memcpy_events_round_trip(acl: Any) -> None:
    device_id = 0
    ret = acl.init()
    check_ret("acl.init", ret)
    ret = acl.rt.set_device(device_id)
    check_ret("acl.rt.set_device", ret)
    context, ret = acl.rt.create_context(device_id)
    check_ret("acl.rt.create_context", ret)
    stream, ret = acl.rt.create_stream()
    check_ret("acl.rt.create_stream", ret)
    start_event, ret = acl.rt.create_event()
    check_ret("acl.rt.create_event", ret)
    end_event, ret = acl.rt.create_event()
    check_ret("acl.rt.create_event", ret)

    np_input = np.random.default_rng(7).standard_normal((32, 48)).astype(np.float32)
    size = np_input.size * np_input.itemsize

    # device buffers and a pinned staging buffer
    dev_in, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
    check_ret("acl.rt.malloc", ret)
    dev_out, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_NORMAL_ONLY)
    check_ret("acl.rt.malloc", ret)
    host_buffer, ret = acl.rt.malloc_host(size)
    check_ret("acl.rt.malloc_host", ret)

    # H2D from bytes (the samples' bytes_to_ptr(np.tobytes()) idiom)
    bytes_data = np_input.tobytes()
    np_ptr = acl.util.bytes_to_ptr(bytes_data)
    ret = acl.rt.memcpy(dev_in, size, np_ptr, size, ACL_MEMCPY_HOST_TO_DEVICE)
    check_ret("acl.rt.memcpy", ret)

    # asynchronous D2D then D2H into the pinned buffer, timed with events
    ret = acl.rt.record_event(start_event, stream)
    check_ret("acl.rt.record_event", ret)
    ret = acl.rt.memcpy_async(dev_out, size, dev_in, size, ACL_MEMCPY_DEVICE_TO_DEVICE, stream)
    check_ret("acl.rt.memcpy_async", ret)
    ret = acl.rt.memcpy_async(host_buffer, size, dev_out, size, ACL_MEMCPY_DEVICE_TO_HOST, stream)
    check_ret("acl.rt.memcpy_async", ret)
    ret = acl.rt.record_event(end_event, stream)
    check_ret("acl.rt.record_event", ret)
    ret = acl.rt.synchronize_stream(stream)
    check_ret("acl.rt.synchronize_stream", ret)
    elapsed_ms, ret = acl.rt.event_elapsed_time(start_event, end_event)
    check_ret("acl.rt.event_elapsed_time", ret)
    assert elapsed_ms > 0.0

    # read the pinned buffer as numpy
    host_view = acl.util.ptr_to_numpy(host_buffer, (32, 48), NPY_FLOAT32)
    np.testing.assert_array_equal(host_view, np_input)

    # D2H into a bytes object obtained through bytes_to_ptr, read back with np.frombuffer
    output_bytes = bytes(size)
    output_ptr = acl.util.bytes_to_ptr(output_bytes)
    ret = acl.rt.memcpy(output_ptr, size, dev_out, size, ACL_MEMCPY_DEVICE_TO_HOST)
    check_ret("acl.rt.memcpy", ret)
    result = np.frombuffer(output_bytes, dtype=np.float32).reshape(32, 48)
    assert result.tobytes() == np_input.tobytes()

    # D2H into a numpy array through numpy_to_ptr
    np_output = np.zeros_like(np_input)
    ret = acl.rt.memcpy(acl.util.numpy_to_ptr(np_output), size, dev_out, size, ACL_MEMCPY_DEVICE_TO_HOST)
    check_ret("acl.rt.memcpy", ret)
    np.testing.assert_array_equal(np_output, np_input)

    # release, in the documented order
    for event in (start_event, end_event):
        ret = acl.rt.destroy_event(event)
        check_ret("acl.rt.destroy_event", ret)
    for ptr in (dev_in, dev_out):
        ret = acl.rt.free(ptr)
        check_ret("acl.rt.free", ret)
    ret = acl.rt.free_host(host_buffer)
    check_ret("acl.rt.free_host", ret)
    ret = acl.rt.destroy_stream(stream)
    check_ret("acl.rt.destroy_stream", ret)
    ret = acl.rt.destroy_context(context)
    check_ret("acl.rt.destroy_context", ret)
    ret = acl.rt.reset_device(device_id)
    check_ret("acl.rt.reset_device", ret)
    _finalize_strictly(acl)


class _CallbackSample:
    """The async-inference shape of the samples: a report thread started with
    acl.util.start_thread loops on process_report; each batch's post-processing is a
    blocking callback on the stream."""

    def __init__(self, acl: Any, device_id: int = 0) -> None:
        self.acl = acl
        self.device_id = device_id
        self.exit_flag = False
        self.results: list[np.ndarray] = []
        self.callback_threads: set[int] = set()

    def init_resource(self) -> None:
        acl = self.acl
        check_ret("acl.init", acl.init())
        check_ret("acl.rt.set_device", acl.rt.set_device(self.device_id))
        self.context, ret = acl.rt.create_context(self.device_id)
        check_ret("acl.rt.create_context", ret)
        self.stream, ret = acl.rt.create_stream()
        check_ret("acl.rt.create_stream", ret)

    def _process_callback(self, args_list: list[Any]) -> None:
        context, timeout = args_list
        self.acl.rt.set_context(context)
        while True:
            self.acl.rt.process_report(timeout)
            if self.exit_flag:
                break

    def _post_process(self, user_data: list[Any]) -> None:
        host_ptr, shape = user_data
        self.callback_threads.add(threading.get_ident())
        # the blocking callback runs before later tasks of the stream: the copy is done
        self.results.append(self.acl.util.ptr_to_numpy(host_ptr, shape, NPY_FLOAT32).copy())

    def run(self, batches: list[np.ndarray]) -> int:
        acl = self.acl
        tid, ret = acl.util.start_thread(self._process_callback, [self.context, 20])
        check_ret("acl.util.start_thread", ret)
        ret = acl.rt.subscribe_report(tid, self.stream)
        check_ret("acl.rt.subscribe_report", ret)

        buffers = []
        for batch in batches:
            size = batch.nbytes
            dev, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
            check_ret("acl.rt.malloc", ret)
            host, ret = acl.rt.malloc_host(size)
            check_ret("acl.rt.malloc_host", ret)
            buffers.append((dev, host))
            ret = acl.rt.memcpy_async(dev, size, acl.util.numpy_to_ptr(batch), size,
                                      ACL_MEMCPY_HOST_TO_DEVICE, self.stream)
            check_ret("acl.rt.memcpy_async", ret)
            ret = acl.rt.memcpy_async(host, size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST, self.stream)
            check_ret("acl.rt.memcpy_async", ret)
            ret = acl.rt.launch_callback(self._post_process, [host, batch.shape], ACL_CALLBACK_BLOCK,
                                         self.stream)
            check_ret("acl.rt.launch_callback", ret)

        ret = acl.rt.synchronize_stream(self.stream)
        check_ret("acl.rt.synchronize_stream", ret)
        ret = acl.rt.unsubscribe_report(tid, self.stream)
        check_ret("acl.rt.unsubscribe_report", ret)
        self.exit_flag = True
        ret = acl.util.stop_thread(tid)
        check_ret("acl.util.stop_thread", ret)

        for dev, host in buffers:
            check_ret("acl.rt.free", acl.rt.free(dev))
            check_ret("acl.rt.free_host", acl.rt.free_host(host))
        return tid

    def release_resource(self) -> None:
        acl = self.acl
        check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(self.stream))
        check_ret("acl.rt.destroy_context", acl.rt.destroy_context(self.context))
        check_ret("acl.rt.reset_device", acl.rt.reset_device(self.device_id))
        _finalize_strictly(acl)


def test_sample_callback_flow(acl: Any) -> None:
    rng = np.random.default_rng(3)
    batches = [rng.standard_normal((4, 16)).astype(np.float32) for _ in range(6)]
    sample = _CallbackSample(acl)
    sample.init_resource()
    tid = sample.run(batches)
    sample.release_resource()
    assert sample.callback_threads == {tid}  # callbacks ran in the subscribed thread
    assert len(sample.results) == len(batches)
    for got, want in zip(sample.results, batches, strict=True):
        np.testing.assert_array_equal(got, want)


def test_sample_host_device_memory_cycles(acl: Any) -> None:
    """malloc_host + memset_async on host memory, dvpp_malloc, H2H/H2D/D2H copies,
    get_mem_info on both memory kinds, over a few allocation cycles."""
    device_id = 0
    memory_size = 1 << 16
    check_ret("acl.init", acl.init())
    check_ret("acl.rt.set_device", acl.rt.set_device(device_id))
    context, ret = acl.rt.create_context(device_id)
    check_ret("acl.rt.create_context", ret)
    stream, ret = acl.rt.create_stream()
    check_ret("acl.rt.create_stream", ret)

    free_before, total, ret = acl.rt.get_mem_info(ACL_HBM_MEM)
    check_ret("acl.rt.get_mem_info", ret)
    _, _, ret = acl.rt.get_mem_info(ACL_DDR_MEM)
    check_ret("acl.rt.get_mem_info", ret)

    dev_mem_list = []
    for cycle in range(3):
        host_buffer, ret = acl.rt.malloc_host(memory_size)
        check_ret("acl.rt.malloc_host", ret)
        ret = acl.rt.memset_async(host_buffer, memory_size, 7 + cycle, memory_size, stream)
        check_ret("acl.rt.memset_async", ret)
        device_buffer, ret = acl.media.dvpp_malloc(memory_size)
        check_ret("acl.media.dvpp_malloc", ret)
        dev_mem_list.append(device_buffer)
        ret = acl.rt.synchronize_stream(stream)
        check_ret("acl.rt.synchronize_stream", ret)

        np_data = np.ones(memory_size, dtype=np.byte)
        bytes_data = np_data.tobytes()
        ret = acl.rt.memcpy(acl.util.bytes_to_ptr(bytes_data), memory_size, host_buffer, memory_size,
                            ACL_MEMCPY_HOST_TO_HOST)
        check_ret("acl.rt.memcpy", ret)
        assert np.frombuffer(bytes_data, dtype=np.byte).tolist() == [7 + cycle] * memory_size

        ret = acl.rt.memcpy_async(device_buffer, memory_size, host_buffer, memory_size,
                                  ACL_MEMCPY_HOST_TO_DEVICE, stream)
        check_ret("acl.rt.memcpy_async", ret)
        host_buffer_, ret = acl.rt.malloc_host(memory_size)
        check_ret("acl.rt.malloc_host", ret)
        ret = acl.rt.memcpy_async(host_buffer_, memory_size, device_buffer, memory_size,
                                  ACL_MEMCPY_DEVICE_TO_HOST, stream)
        check_ret("acl.rt.memcpy_async", ret)
        ret = acl.rt.synchronize_stream(stream)
        check_ret("acl.rt.synchronize_stream", ret)
        assert acl.util.ptr_to_bytes(host_buffer_, memory_size) == bytes([7 + cycle]) * memory_size
        check_ret("acl.rt.free_host", acl.rt.free_host(host_buffer))
        check_ret("acl.rt.free_host", acl.rt.free_host(host_buffer_))

    free_during, _, ret = acl.rt.get_mem_info(ACL_HBM_MEM)
    check_ret("acl.rt.get_mem_info", ret)
    assert free_during < free_before <= total
    for device_buffer in dev_mem_list:
        check_ret("acl.media.dvpp_free", acl.media.dvpp_free(device_buffer))
    free_after, _, ret = acl.rt.get_mem_info(ACL_HBM_MEM)
    check_ret("acl.rt.get_mem_info", ret)
    # aclsim's caching pool keeps freed memory reserved for reuse (free = limit - reserved)
    assert free_during <= free_after <= free_before

    check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(stream))
    check_ret("acl.rt.destroy_context", acl.rt.destroy_context(context))
    check_ret("acl.rt.reset_device", acl.rt.reset_device(device_id))
    _finalize_strictly(acl)
