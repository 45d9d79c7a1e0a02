"""Port: the tmp_buffer sample of the Ascend C API repository (bfloat16 add through float TBufs).

Source: cannmirror/asc-devkit, commit 0da921b91aeb2abdc6e8d74423b0bbe7040c3fd1,
examples/01_simd_cpp_api/03_basic_api/04_memory_management/tmp_buffer/tmp_buffer.asc
(``tmp_buffer_custom<totalLength = 2048><<<1>>>``): z = bfloat16(float(x) + float(y)), the float
temporaries in two ``TBuf<VECCALC>`` buffers, the inputs and output through ``TQue``s.

How it maps: the template parameter ``totalLength`` -> a Python constant; ``__vector__`` -> a plain
``@asc.kernel`` (a vector kernel); ``Cast(..., CAST_NONE / CAST_RINT)`` -> ``asc.cast``. The host
program is the sample's ``main`` in aclsim's runtime calls. Runs on the 910B preset (the sample's
A2/A3 path) and is checked bit for bit against NumPy (float32 sum rounded to nearest even).
"""

from __future__ import annotations

import sys

import numpy as np

import aclsim
import aclsim.kernel as asc

TOTAL_LENGTH = 2048
BF16 = asc.bfloat16


@asc.kernel
def tmp_buffer_custom(x, y, z):
    pipe = asc.TPipe()
    # Init
    x_gm, y_gm, z_gm = asc.GlobalTensor(BF16), asc.GlobalTensor(BF16), asc.GlobalTensor(BF16)
    x_gm.set_global_buffer(x.cast(BF16), TOTAL_LENGTH)
    y_gm.set_global_buffer(y.cast(BF16), TOTAL_LENGTH)
    z_gm.set_global_buffer(z.cast(BF16), TOTAL_LENGTH)
    in_queue_x = asc.TQue(asc.TPosition.VECIN, 1)
    in_queue_y = asc.TQue(asc.TPosition.VECIN, 1)
    out_queue_z = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(in_queue_x, 1, TOTAL_LENGTH * 2)
    pipe.init_buffer(in_queue_y, 1, TOTAL_LENGTH * 2)
    pipe.init_buffer(out_queue_z, 1, TOTAL_LENGTH * 2)
    # the TBuf temporaries that hold the float conversions
    tmp_buf0 = asc.TBuf(asc.TPosition.VECCALC)
    tmp_buf1 = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(tmp_buf0, TOTAL_LENGTH * 4)
    pipe.init_buffer(tmp_buf1, TOTAL_LENGTH * 4)
    # CopyIn
    x_local = in_queue_x.alloc_tensor(BF16)
    y_local = in_queue_y.alloc_tensor(BF16)
    asc.data_copy(x_local, x_gm, TOTAL_LENGTH)
    asc.data_copy(y_local, y_gm, TOTAL_LENGTH)
    in_queue_x.enque(x_local)
    in_queue_y.enque(y_local)
    # Compute
    x_local = in_queue_x.deque(BF16)
    y_local = in_queue_y.deque(BF16)
    z_local = out_queue_z.alloc_tensor(BF16)
    tmp_tensor0 = tmp_buf0.get(asc.float32)
    tmp_tensor1 = tmp_buf1.get(asc.float32)
    # Cast bfloat16 to float into the TBuf temporaries
    asc.cast(tmp_tensor0, x_local, asc.RoundMode.CAST_NONE, TOTAL_LENGTH)
    asc.cast(tmp_tensor1, y_local, asc.RoundMode.CAST_NONE, TOTAL_LENGTH)
    asc.add(tmp_tensor0, tmp_tensor0, tmp_tensor1, TOTAL_LENGTH)
    asc.cast(z_local, tmp_tensor0, asc.RoundMode.CAST_RINT, TOTAL_LENGTH)
    out_queue_z.enque(z_local)
    in_queue_x.free_tensor(x_local)
    in_queue_y.free_tensor(y_local)
    # CopyOut
    z_local = out_queue_z.deque(BF16)
    asc.data_copy(z_gm, z_local, TOTAL_LENGTH)
    out_queue_z.free_tensor(z_local)


def main() -> int:
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    rng = np.random.default_rng(0)
    x = rng.uniform(-100, 100, TOTAL_LENGTH).astype(np.float32).astype(BF16)
    y = rng.uniform(-100, 100, TOTAL_LENGTH).astype(np.float32).astype(BF16)
    z = np.zeros_like(x)
    nbytes = x.nbytes
    dx, dy, dz = aclsim.malloc(nbytes), aclsim.malloc(nbytes), aclsim.malloc(nbytes)
    aclsim.memcpy(dx, nbytes, x, nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    aclsim.memcpy(dy, nbytes, y, nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    launch = tmp_buffer_custom[1, None, stream](dx, dy, dz)
    aclsim.synchronize_stream(stream)
    aclsim.memcpy(z, nbytes, dz, nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    want = (x.astype(np.float32) + y.astype(np.float32)).astype(BF16)
    exact = np.array_equal(z.view(np.uint16), want.view(np.uint16))
    print(f"tmp_buffer_custom<<<1>>>: {TOTAL_LENGTH} bfloat16 sums {'exact' if exact else 'MISMATCH'}; "
          f"{launch.instructions} instructions, {launch.report.total_cycles:.0f} cycles")
    for d in (dx, dy, dz):
        aclsim.free(d)
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
