"""Seed 000's multi-thread, multi-stream pattern: each host thread drives its own stream of
one shared context; a second stream waits on an event of the first."""

import threading

import numpy as np

import aclsim

aclsim.init(chip="tiny")
ctx = aclsim.create_context(0)
results: dict[int, bool] = {}


def worker(index: int) -> None:
    aclsim.set_context(ctx)  # a new thread has no current context
    copy_in, compute = aclsim.create_stream(), aclsim.create_stream()
    ready = aclsim.create_event()
    data = np.full(4096, index, dtype=np.int32)
    out = np.empty_like(data)
    a, b = aclsim.malloc(data.nbytes), aclsim.malloc(data.nbytes)
    aclsim.memcpy_async(a, data.nbytes, data, data.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE, copy_in)
    aclsim.record_event(ready, copy_in)
    aclsim.stream_wait_event(compute, ready)
    aclsim.memcpy_async(b, data.nbytes, a, data.nbytes, aclsim.MemcpyKind.DEVICE_TO_DEVICE, compute)
    aclsim.memcpy_async(out, out.nbytes, b, data.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST, compute)
    aclsim.synchronize_stream(compute)
    results[index] = bool(np.array_equal(out, data))
    aclsim.destroy_event(ready)
    aclsim.free(a)
    aclsim.free(b)
    aclsim.destroy_stream(copy_in)
    aclsim.destroy_stream(compute)


threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join(timeout=30)
aclsim.destroy_context(ctx)
assert aclsim.finalize() == []
print(results)
assert len(results) == 4 and all(results.values())
print("PASS")
