"""A small two-phase operator in the aclnn convention, built on
:func:`aclsim.kernel.samples.add_kernel`: the harness's own test subject and the built-in
workload of ``aclsim memcheck``.  It is not a library operator (``aclsim.aclnn`` has those).

``sample_add_get_workspace_size(x, y, out, count, dtype, staged=False) -> (workspace_size,
executor)`` validates and plans (block dim over the chip's vector cores, a tile sized from its
UB); ``sample_add(workspace, workspace_size, executor, stream)`` only enqueues.  With
``staged=True`` the op first copies ``x`` into the workspace (a device-to-device copy on the
stream) and adds from there: a workspace of ``count`` elements, 32 B padded then rounded to
512 B as aclnn sizes its intermediates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

import aclsim
from aclsim.errors import AclnnInnerNullptrError, AclnnNullptrError, AclnnParamInvalidError
from aclsim.kernel.samples import add_kernel
from aclsim.runtime import device_by_id

__all__ = ["SampleAddExecutor", "sample_add", "sample_add_get_workspace_size", "sample_destroy_executor",
           "sample_set_executor_repeatable"]

_BUFFERS = 6  # two inputs and one output queue, double buffered


@dataclass
class SampleAddExecutor:
    """What phase one planned: the kernel, its block dim and the addresses; consumed by its
    run unless made repeatable."""

    kernel: Any
    block_dim: int
    x: int
    y: int
    out: int
    nbytes: int
    workspace_size: int
    repeatable: bool = False
    consumed: bool = False


def _plan(count: int, itemsize: int, cores: int, ub_bytes: int) -> tuple[int, int]:
    """(block_dim, tile): the most blocks (at most ``cores``) that split ``count`` into whole
    32 B pieces, and the largest power-of-two tile dividing a block's share that fits the UB."""
    per32 = 32 // itemsize
    block_dim = next((b for b in range(min(cores, max(count // per32, 1)), 0, -1)
                      if count % (b * per32) == 0), 0)
    if block_dim == 0:
        raise AclnnParamInvalidError(f"count {count} is not a whole number of 32 B blocks of {itemsize} B "
                                     "elements", hint=f"use a multiple of {per32} elements")
    per_block = count // block_dim
    tile = 1
    while tile * 2 * itemsize * _BUFFERS <= ub_bytes and per_block % (tile * 2) == 0:
        tile *= 2
    return block_dim, tile


def sample_add_get_workspace_size(x: Any, y: Any, out: Any, count: int, dtype: Any = np.float32, *,
                                  staged: bool = False) -> tuple[int, SampleAddExecutor]:
    """Phase one of ``out = x + y`` over ``count`` elements of ``dtype`` at device addresses
    (ints or :class:`aclsim.Buffer`) on the current device.

    >>> import aclsim
    >>> aclsim.init(chip="tiny"); aclsim.set_device(0)
    >>> bufs = [aclsim.malloc(4096) for _ in range(3)]
    >>> size, ex = sample_add_get_workspace_size(*bufs, 1024, staged=True); size, ex.block_dim
    (4608, 4)
    >>> for b in bufs: aclsim.free(b)
    >>> aclsim.reset_device(0); aclsim.finalize()
    []
    """
    for name, value in (("x", x), ("y", y), ("out", out)):
        if value is None:
            raise AclnnNullptrError(f"{name} is None", hint=f"pass the device address of {name}")
    if not isinstance(count, (int, np.integer)) or isinstance(count, bool) or count < 0:
        raise AclnnParamInvalidError(f"count must be an int >= 0, got {count!r}")
    dt = np.dtype(dtype)
    chip = device_by_id(aclsim.get_device()).chip
    if count == 0:
        return 0, SampleAddExecutor(None, 0, 0, 0, 0, 0, 0)
    block_dim, tile = _plan(int(count), dt.itemsize, chip.vector_cores, chip.ub_usable_bytes)
    nbytes = int(count) * dt.itemsize
    kernel = add_kernel(dt, int(count) // block_dim, tile)
    workspace = ((nbytes + 32 + 511) // 512) * 512 if staged else 0
    return workspace, SampleAddExecutor(kernel, block_dim, int(x), int(y), int(out), nbytes, workspace)


def sample_add(workspace: Any, workspace_size: int, executor: SampleAddExecutor | None,
               stream: aclsim.Stream | None) -> None:
    """Phase two: enqueue on ``stream`` (161001 for a missing executor or workspace; a consumed
    executor is refused with 161002)."""
    if executor is None:
        raise AclnnNullptrError("executor is None", hint="pass the executor phase one returned")
    if executor.consumed:
        raise AclnnParamInvalidError("this executor already ran and was not made repeatable",
                                     hint="call phase one again, or sample_set_executor_repeatable first")
    if executor.workspace_size > 0 and (workspace is None or workspace_size < executor.workspace_size):
        raise AclnnNullptrError(f"the executor needs a workspace of {executor.workspace_size} B, got "
                                f"{workspace!r} of {workspace_size} B",
                                hint="allocate workspace_size bytes from phase one")
    if not executor.repeatable:
        executor.consumed = True
    if executor.kernel is None:
        return
    x = executor.x
    if executor.workspace_size:
        aclsim.memcpy_async(workspace, workspace_size, x, executor.nbytes, aclsim.MemcpyKind.DEVICE_TO_DEVICE,
                            stream)
        x = int(workspace)
    executor.kernel[executor.block_dim, stream](x, executor.y, executor.out)


def sample_set_executor_repeatable(executor: SampleAddExecutor | None) -> None:
    if executor is None:
        raise AclnnInnerNullptrError("executor is None")
    executor.repeatable = True


def sample_destroy_executor(executor: SampleAddExecutor | None) -> None:
    if executor is None:
        raise AclnnInnerNullptrError("executor is None")
    executor.consumed = True
