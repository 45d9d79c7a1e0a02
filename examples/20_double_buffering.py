"""Seed 001's claim, reproduced: double buffering keeps the Vector unit busy.

A kernel copies a tile in (MTE2), computes on it (VECTOR) and copies it out (MTE3): CopyIn and
Compute about equally long, CopyOut about half as long, since a store ends when it lands in the
L2 cache (8 KiB tiles; 7 vector instructions per tile).

- Serial, as the article pictures the single-buffer case: one buffer per tile, refilled only
  after its CopyOut, so the stages run one after another: VECTOR is busy about 2/5 of the time.
- Ascend C queues, BUFFER_NUM 1: input and output queues have one buffer each, so CopyOut of
  tile i already overlaps CopyIn of tile i+1: about 1/2.
- Ascend C queues, BUFFER_NUM 2: two buffers per queue, CopyIn of tile i+1 and CopyOut of
  tile i-1 overlap the Compute of tile i: close to 1 for enough tiles.

And the article's two caveats: a compute-dominated kernel gains little, and data small
enough for one pass gains nothing.
"""

import sys

import numpy as np

import aclsim
import aclsim.kernel as asc
from aclsim.isa import HardEvent, Pipe
from aclsim.sim.report import text_timeline

TILE = 4096  # float16 elements per tile: 8 KiB
F16 = asc.half


def serial_kernel(tiles: int, ops: int):
    """y = 2 * x in place in one UB buffer: CopyIn, Compute, CopyOut strictly in turn."""

    @asc.kernel
    def scale_serial(x, y):
        x_gm, y_gm = asc.GlobalTensor(F16), asc.GlobalTensor(F16)
        x_gm.set_global_buffer(x.cast(F16), tiles * TILE)
        y_gm.set_global_buffer(y.cast(F16), tiles * TILE)
        pipe = asc.TPipe()
        ub = asc.TBuf(asc.QuePosition.VECCALC)
        pipe.init_buffer(ub, TILE * 2)
        buf = ub.get(F16)
        for i in range(tiles):
            if i > 0:
                asc.wait_flag(HardEvent.MTE3_MTE2, 0)  # the buffer was copied out
            asc.data_copy(buf, x_gm[i * TILE], TILE)
            asc.set_flag(HardEvent.MTE2_V, 0)
            asc.wait_flag(HardEvent.MTE2_V, 0)
            asc.muls(buf, buf, 2.0, TILE)
            for _ in range(ops - 1):
                asc.adds(buf, buf, 0.0, TILE)
            asc.set_flag(HardEvent.V_MTE3, 0)
            asc.wait_flag(HardEvent.V_MTE3, 0)
            asc.data_copy(y_gm[i * TILE], buf, TILE)
            if i + 1 < tiles:
                asc.set_flag(HardEvent.MTE3_MTE2, 0)

    return scale_serial


def queue_kernel(buffer_num: int, tiles: int, ops: int):
    """y = 2 * x through a VECIN and a VECOUT queue of ``buffer_num`` buffers each."""

    @asc.kernel
    def scale(x, y):
        x_gm, y_gm = asc.GlobalTensor(F16), asc.GlobalTensor(F16)
        x_gm.set_global_buffer(x.cast(F16), tiles * TILE)
        y_gm.set_global_buffer(y.cast(F16), tiles * TILE)
        pipe = asc.TPipe()
        q_in, q_out = asc.TQue(asc.QuePosition.VECIN, 1), asc.TQue(asc.QuePosition.VECOUT, 1)
        pipe.init_buffer(q_in, buffer_num, TILE * 2)
        pipe.init_buffer(q_out, buffer_num, TILE * 2)
        for i in range(tiles):
            x_local = q_in.alloc_tensor(F16)  # CopyIn
            asc.data_copy(x_local, x_gm[i * TILE], TILE)
            q_in.enque(x_local)
            x_local = q_in.deque(F16)  # Compute
            y_local = q_out.alloc_tensor(F16)
            asc.muls(y_local, x_local, 2.0, TILE)
            for _ in range(ops - 1):
                asc.adds(y_local, y_local, 0.0, TILE)
            q_out.enque(y_local)
            q_in.free_tensor(x_local)
            y_local = q_out.deque(F16)  # CopyOut
            asc.data_copy(y_gm[i * TILE], y_local, TILE)
            q_out.free_tensor(y_local)

    return scale


def run(kernel, tiles: int):
    x = (np.arange(tiles * TILE) % 1000).astype(np.float16)
    dx, dy = aclsim.malloc(x.nbytes), aclsim.malloc(x.nbytes)
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    launch = kernel[1](dx, dy)
    aclsim.synchronize_stream()
    y = np.empty_like(x)
    aclsim.memcpy(y, y.nbytes, dy, y.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    assert np.array_equal(y, x * np.float16(2)), "y != 2x"
    aclsim.free(dx)
    aclsim.free(dy)
    return launch.report


def show(label: str, report, base: float) -> None:
    print(f"  {label:24s} {report.total_cycles:8.0f} cycles  VECTOR busy {report.utilization()[Pipe.V]:5.1%}"
          f"  speed-up {base / report.total_cycles:4.2f}x")


def main() -> None:
    aclsim.init(chip="910B")
    aclsim.set_device(0)

    tiles, ops = 64, 7
    serial = run(serial_kernel(tiles, ops), tiles)
    single = run(queue_kernel(1, tiles, ops), tiles)
    double = run(queue_kernel(2, tiles, ops), tiles)
    print(f"{tiles} tiles, CopyIn ~ Compute ~ 2 x CopyOut")
    show("serial (one buffer)", serial, serial.total_cycles)
    show("queues, BUFFER_NUM 1", single, serial.total_cycles)
    show("queues, BUFFER_NUM 2", double, serial.total_cycles)
    for label, kernel in (("serial", serial_kernel(6, ops)), ("BUFFER_NUM 2", queue_kernel(2, 6, ops))):
        print(f"  timeline of the first 6 tiles, {label}:")
        head = run(kernel, 6)
        print("\n".join("    " + line for line in text_timeline(head, width=96).splitlines()))
    util = serial.utilization()[Pipe.V], single.utilization()[Pipe.V], double.utilization()[Pipe.V]
    assert 0.35 <= util[0] <= 0.45 and 0.45 <= util[1] <= 0.55 and util[2] >= 0.9, util

    print("caveat 1, compute-dominated (200 vector instructions per tile):")
    a, b = run(queue_kernel(1, 16, 200), 16), run(queue_kernel(2, 16, 200), 16)
    show("queues, BUFFER_NUM 1", a, a.total_cycles)
    show("queues, BUFFER_NUM 2", b, a.total_cycles)
    assert a.total_cycles / b.total_cycles < 1.1
    print("caveat 2, data small enough for one pass (one tile):")
    a, b = run(queue_kernel(1, 1, ops), 1), run(queue_kernel(2, 1, ops), 1)
    show("queues, BUFFER_NUM 1", a, a.total_cycles)
    show("queues, BUFFER_NUM 2", b, a.total_cycles)
    assert a.total_cycles == b.total_cycles

    aclsim.reset_device(0)
    assert aclsim.finalize() == []
    print("PASS")


if __name__ == "__main__":
    sys.exit(main())
