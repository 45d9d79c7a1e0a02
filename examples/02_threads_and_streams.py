"""Seed 000's multi-thread, multi-stream pattern: each host thread drives its own stream of
one shared context; a second stream waits on an event of the first."""

import threading

import numpy as np

import npusim

npusim.init(chip="tiny")
ctx = npusim.create_context(0)
results: dict[int, bool] = {}


def worker(index: int) -> None:
    npusim.set_context(ctx)  # a new thread has no current context
    copy_in, compute = npusim.create_stream(), npusim.create_stream()
    ready = npusim.create_event()
    data = np.full(4096, index, dtype=np.int32)
    out = np.empty_like(data)
    a, b = npusim.malloc(data.nbytes), npusim.malloc(data.nbytes)
    npusim.memcpy_async(a, data.nbytes, data, data.nbytes, npusim.MemcpyKind.HOST_TO_DEVICE, copy_in)
    npusim.record_event(ready, copy_in)
    npusim.stream_wait_event(compute, ready)
    npusim.memcpy_async(b, data.nbytes, a, data.nbytes, npusim.MemcpyKind.DEVICE_TO_DEVICE, compute)
    npusim.memcpy_async(out, out.nbytes, b, data.nbytes, npusim.MemcpyKind.DEVICE_TO_HOST, compute)
    npusim.synchronize_stream(compute)
    results[index] = bool(np.array_equal(out, data))
    npusim.destroy_event(ready)
    npusim.free(a)
    npusim.free(b)
    npusim.destroy_stream(copy_in)
    npusim.destroy_stream(compute)


threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join(timeout=30)
npusim.destroy_context(ctx)
assert npusim.finalize() == []
print(results)
assert len(results) == 4 and all(results.values())
print("PASS")
