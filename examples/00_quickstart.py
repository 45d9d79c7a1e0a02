"""Copy a vector to the simulated NPU and back with the Pythonic API, timing it with events."""

import numpy as np

import aclsim

aclsim.init(chip="tiny")
with aclsim.device(0):
    stream = aclsim.create_stream()
    x = np.arange(1 << 16, dtype=np.float32)
    y = np.zeros_like(x)
    dev = aclsim.malloc(x.nbytes)
    start, end = aclsim.create_event(), aclsim.create_event()
    aclsim.record_event(start, stream)
    aclsim.memcpy_async(dev, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE, stream)
    aclsim.memcpy_async(y, y.nbytes, dev, x.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST, stream)
    aclsim.record_event(end, stream)
    aclsim.synchronize_stream(stream)
    assert np.array_equal(x, y)
    elapsed = aclsim.event_elapsed_time(start, end)
    print(f"round trip of {x.nbytes} B: {elapsed:.4f} ms of modeled device time")
    for e in (start, end):
        aclsim.destroy_event(e)
    aclsim.free(dev)
    aclsim.destroy_stream(stream)
assert aclsim.finalize() == []
print("PASS")
