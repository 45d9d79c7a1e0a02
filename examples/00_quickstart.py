"""Copy a vector to the simulated NPU and back with the Pythonic API, timing it with events."""

import numpy as np

import npusim

npusim.init(chip="tiny")
with npusim.device(0):
    stream = npusim.create_stream()
    x = np.arange(1 << 16, dtype=np.float32)
    y = np.zeros_like(x)
    dev = npusim.malloc(x.nbytes)
    start, end = npusim.create_event(), npusim.create_event()
    npusim.record_event(start, stream)
    npusim.memcpy_async(dev, x.nbytes, x, x.nbytes, npusim.MemcpyKind.HOST_TO_DEVICE, stream)
    npusim.memcpy_async(y, y.nbytes, dev, x.nbytes, npusim.MemcpyKind.DEVICE_TO_HOST, stream)
    npusim.record_event(end, stream)
    npusim.synchronize_stream(stream)
    assert np.array_equal(x, y)
    elapsed = npusim.event_elapsed_time(start, end)
    print(f"round trip of {x.nbytes} B: {elapsed:.4f} ms of modeled device time")
    for e in (start, end):
        npusim.destroy_event(e)
    npusim.free(dev)
    npusim.destroy_stream(stream)
assert npusim.finalize() == []
print("PASS")
