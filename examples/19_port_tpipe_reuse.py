"""Port: the tpipe_reuse sample of the Ascend C API repository (two TPipes in turn in one kernel).

Source: cannmirror/asc-devkit, commit 0da921b91aeb2abdc6e8d74423b0bbe7040c3fd1,
examples/01_simd_cpp_api/03_basic_api/07_tpipe_tque/tpipe_reuse/tpipe_reuse.asc
(``tpipe_reuse_custom<<<1>>>``): ``Process`` (z = 3 x over 128 floats through a VECIN and a VECOUT
queue) runs on ``pipe1``, ``pipe1.Destroy()``, then again on a second ``pipe2``, which may only
``InitBuffer`` once the first is destroyed (the sample's comment), then ``pipe2.Destroy()``.

How it maps: the function template ``Process<T, totalLength>(src, dst, TPipe*)`` -> ``process``
with the dtype and length as arguments; ``pipe->InitBuffer`` -> ``pipe.init_buffer``;
``TPipe::Destroy`` -> ``TPipe.destroy``. Runs on the 910B preset and is checked bit for bit
against NumPy's ``3 * x`` in float32.
"""

from __future__ import annotations

import sys

import numpy as np

import aclsim
import aclsim.kernel as asc

TOTAL_LENGTH = 128


def process(t, total_length: int, src_gm, dst_gm, pipe) -> None:
    src_global, dst_global = asc.GlobalTensor(t), asc.GlobalTensor(t)
    src_global.set_global_buffer(src_gm.cast(t), total_length)
    dst_global.set_global_buffer(dst_gm.cast(t), total_length)
    in_queue_x = asc.TQue(asc.TPosition.VECIN, 1)
    out_queue = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(in_queue_x, 1, total_length * t.itemsize)
    pipe.init_buffer(out_queue, 1, total_length * t.itemsize)
    src_local = in_queue_x.alloc_tensor(t)
    asc.data_copy(src_local, src_global, total_length)
    in_queue_x.enque(src_local)
    src_local = in_queue_x.deque(t)
    dst_local = out_queue.alloc_tensor(t)
    scalar_value = t.type(3)
    asc.muls(dst_local, src_local, scalar_value, total_length)
    out_queue.enque(dst_local)
    in_queue_x.free_tensor(src_local)
    dst_local = out_queue.deque(t)
    asc.data_copy(dst_global, dst_local, total_length)
    out_queue.free_tensor(dst_local)


@asc.kernel
def tpipe_reuse_custom(x, z):
    pipe1 = asc.TPipe()
    process(asc.float32, TOTAL_LENGTH, x, z, pipe1)
    pipe1.destroy()  # a second object may Init only after the first is destroyed
    pipe2 = asc.TPipe()
    process(asc.float32, TOTAL_LENGTH, x, z, pipe2)
    pipe2.destroy()


def main() -> int:
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    x = np.random.default_rng(0).uniform(-10, 10, TOTAL_LENGTH).astype(np.float32)
    z = np.zeros_like(x)
    dx, dz = aclsim.malloc(x.nbytes), aclsim.malloc(z.nbytes)
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    launch = tpipe_reuse_custom[1, None, stream](dx, dz)
    aclsim.synchronize_stream(stream)
    aclsim.memcpy(z, z.nbytes, dz, z.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    exact = np.array_equal(z, x * np.float32(3))
    print(f"tpipe_reuse_custom<<<1>>>: two pipes in turn, z = 3 x {'exact' if exact else 'MISMATCH'}; "
          f"{launch.instructions} instructions, {launch.report.total_cycles:.0f} cycles, "
          f"{len(launch.diagnostics)} diagnostics")
    aclsim.free(dx)
    aclsim.free(dz)
    aclsim.destroy_stream(stream)
    aclsim.reset_device(0)
    assert aclsim.finalize() == []
    if not exact or launch.diagnostics:
        print("FAIL")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
