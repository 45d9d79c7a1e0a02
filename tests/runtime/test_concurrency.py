"""Many host threads and streams at once: every byte arrives, nothing hangs."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import aclsim

K = aclsim.MemcpyKind
THREADS = 4
COPIES = 200  # per stream
CHUNK = 256  # bytes per copy
JOIN_TIMEOUT_S = 10.0


def _worker(index: int, shared_ctx: aclsim.Context, errors_out: list[BaseException]) -> None:
    try:
        if index % 2 == 0:
            aclsim.set_device(0)  # the device's default context, reference-counted
        else:
            aclsim.set_context(shared_ctx)  # an explicit context shared by several threads
        rng = np.random.default_rng(index)
        up, down = aclsim.create_stream(), aclsim.create_stream()
        ev = aclsim.create_event()
        src = rng.integers(0, 256, (COPIES, CHUNK), dtype=np.uint8)
        staged = np.zeros_like(src)  # what the device held, read back
        back = np.zeros_like(src)  # what comes back after a D2D copy
        dev_a = aclsim.malloc(src.nbytes)
        dev_b = aclsim.malloc(src.nbytes)
        for i in range(COPIES):
            off = i * CHUNK
            # H2D on `up`, then `down` waits for it and reads it back and forwards it
            aclsim.memcpy_async(dev_a.ptr + off, CHUNK, src[i], CHUNK, K.HOST_TO_DEVICE, up)
            aclsim.record_event(ev, up)
            aclsim.stream_wait_event(down, ev)
            aclsim.memcpy_async(staged[i], CHUNK, dev_a.ptr + off, CHUNK, K.DEVICE_TO_HOST, down)
            aclsim.memcpy_async(dev_b.ptr + off, CHUNK, dev_a.ptr + off, CHUNK, K.DEVICE_TO_DEVICE, down)
            if i % 2:
                # and in the other direction: `up` waits for `down` before reading dev_b
                aclsim.record_event(ev, down)
                aclsim.stream_wait_event(up, ev)
                aclsim.memcpy_async(back[i], CHUNK, dev_b.ptr + off, CHUNK, K.DEVICE_TO_HOST, up)
        aclsim.synchronize_stream(up, timeout=JOIN_TIMEOUT_S)
        aclsim.synchronize_stream(down, timeout=JOIN_TIMEOUT_S)
        for i in range(0, COPIES, 2):
            aclsim.memcpy_async(back[i], CHUNK, dev_b.ptr + i * CHUNK, CHUNK, K.DEVICE_TO_HOST, down)
        aclsim.synchronize_stream(down, timeout=JOIN_TIMEOUT_S)
        aclsim.synchronize_stream(up, timeout=JOIN_TIMEOUT_S)
        assert np.array_equal(staged, src), f"thread {index}: D2H data differs"
        assert np.array_equal(back, src), f"thread {index}: D2D data differs"
        aclsim.destroy_event(ev)
        aclsim.destroy_stream(up)
        aclsim.destroy_stream(down)
        aclsim.free(dev_a)
        aclsim.free(dev_b)
        if index % 2 == 0:
            aclsim.reset_device(0)
    except BaseException as exc:  # noqa: BLE001 - reported by the main thread
        errors_out.append(exc)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("run", range(20))
def test_threads_and_streams(run: int) -> None:
    aclsim.init(chip="tiny")
    shared_ctx = aclsim.create_context(0)
    aclsim.set_device(0)  # keep the default context alive in the main thread too
    errors_out: list[BaseException] = []
    threads = [threading.Thread(target=_worker, args=(i, shared_ctx, errors_out), daemon=True,
                                name=f"worker-{run}-{i}") for i in range(THREADS)]
    start = time.monotonic()
    for t in threads:
        t.start()
    deadline = start + JOIN_TIMEOUT_S
    for t in threads:
        t.join(max(deadline - time.monotonic(), 0.0))
    stuck = [t.name for t in threads if t.is_alive()]
    assert not stuck, f"threads did not finish within {JOIN_TIMEOUT_S} s: {stuck}"
    if errors_out:
        raise errors_out[0]
    elapsed = time.monotonic() - start
    assert elapsed < JOIN_TIMEOUT_S
    aclsim.destroy_context(shared_ctx)
    aclsim.reset_device(0)
    assert aclsim.leak_report() == []
    assert aclsim.finalize() == []
