"""Deliberately broken kernels and what aclsim reports for them (never a hang).

1. A wait_flag whose set_flag uses another event id: the vector pipe would wait forever;
   the engine reports a deadlock (ACL_ERROR_RT_AICORE_TIMEOUT) with the pipe, the flag and
   the kernel line.
2. A set_flag nobody waits for (msSanitizer's "unpaired set_flag"): a SyncError
   (ACL_ERROR_RT_AICORE_EXCEPTION) naming the line.
3. A copy past the end of the output buffer: ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW
   with the line.
Each fault surfaces as the stream task's failure at the next synchronize, as on a device.
"""

import numpy as np

import aclsim
import aclsim.kernel as asc
from aclsim import errors
from aclsim.isa import HardEvent

F16 = asc.float16
N = 256


def setup(x, y):
    pipe = asc.TPipe()
    buf = asc.TBuf()
    pipe.init_buffer(buf, N * 2)
    gx, gy = asc.GlobalTensor(F16), asc.GlobalTensor(F16)
    gx.set_global_buffer(x)
    gy.set_global_buffer(y)
    return buf.get(F16), gx, gy


@asc.kernel
def wrong_event_id(x, y):
    t, gx, gy = setup(x, y)
    asc.data_copy(t, gx, N)
    asc.set_flag(HardEvent.MTE2_V, 0)
    asc.wait_flag(HardEvent.MTE2_V, 1)  # BUG: id 1, the set used id 0
    asc.exp(t, t, N)


@asc.kernel
def unpaired_set(x, y):
    t, gx, gy = setup(x, y)
    asc.data_copy(t, gx, N)
    asc.set_flag(HardEvent.MTE2_V, 0)
    asc.wait_flag(HardEvent.MTE2_V, 0)
    asc.exp(t, t, N)
    asc.set_flag(HardEvent.V_MTE3, 0)
    asc.wait_flag(HardEvent.V_MTE3, 0)
    asc.data_copy(gy, t, N)
    asc.set_flag(HardEvent.MTE3_V, 0)  # BUG: nothing waits for this


@asc.kernel
def copy_past_end(x, y):
    t, gx, gy = setup(x, y)
    asc.data_copy(t, gx, N)
    asc.set_flag(HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(HardEvent.MTE2_MTE3, 0)
    asc.data_copy(gy[N // 2], t, N)  # BUG: y has N elements, this writes N/2 past its end


def main() -> None:
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    x = np.linspace(-1, 1, N).astype(np.float16)
    dx, dy = aclsim.malloc(x.nbytes), aclsim.malloc(x.nbytes)
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    expected = [(wrong_event_id, errors.KernelDeadlockError, errors.ACL_ERROR_RT_AICORE_TIMEOUT),
                (unpaired_set, errors.SyncError, errors.ACL_ERROR_RT_AICORE_EXCEPTION),
                (copy_past_end, errors.GlobalOutOfRangeError,
                 errors.ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW)]
    for kern, cls, code in expected:
        kern[1, None](dx, dy)
        try:
            aclsim.synchronize_device()
        except errors.TaskError as exc:
            assert isinstance(exc.cause, cls) and exc.code == code, exc
            print(f"{kern.name}: caught {type(exc.cause).__name__}\n  {exc}\n")
        else:
            raise AssertionError(f"{kern.name} was not caught")
    aclsim.free(dx)
    aclsim.free(dy)
    aclsim.reset_device(0)
    assert aclsim.finalize() == []
    print("PASS")


if __name__ == "__main__":
    main()
