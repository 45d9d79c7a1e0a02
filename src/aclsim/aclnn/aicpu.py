"""AI CPU tasks: how the aclnn ops run the dtypes the AI Core kernels do not hold.

On the device, an op's L0 layer (ops-math ``math/<op>/op_api/<op>.cpp``) asks
``IsAiCoreSupport(dtype)`` and, for a dtype outside the AI Core kernel's list, queues the op on an
AI CPU instead (``ADD_TO_LAUNCHER_LIST_AICPU``): an ARM core of the chip that runs a C++ kernel
over the tensors in device memory.  aclsim does the same where its vector kernels hold no such
dtype (float64, int64, uint16/32/64, complex64/128): the op is planned as the L2 skeleton of
ops-math with AI CPU steps -- Contiguous of a strided input (the view_copy kernel on the AI
Core), a Cast of each input to the compute dtype (an AI CPU task), the op (an AI CPU task), a
Cast to ``out``'s dtype (an AI CPU task) and a ViewCopy into a strided ``out`` (view_copy) --
every intermediate a workspace tensor (OPBASE's bucket layout).

An AI CPU is a CPU: its kernel is modeled by NumPy over the device bytes (read through
:func:`aclsim.runtime.device_array`, so the memory debugger checks every access), exact for
integers and complex numbers.  Its time, fixed at phase one, is :func:`aicpu_seconds`: a fixed
cost per task plus the elements over the element rate of the AI CPU cores it uses; a task splits
its work over the AI CPUs (``CpuKernelUtils::ParallelFor``) only from :data:`PARALLEL_BYTES` of
output, in shards of :data:`SHARD_BYTES` (ops-math ``math/add/op_kernel_aicpu/add_aicpu.cpp``).
The AI CPU task memory of OPBASE (host-placed inputs copied to the device when they exceed the
task's argument block) is :func:`task_memory`.

>>> from aclsim.arch import get_chip
>>> round(aicpu_seconds(get_chip("tiny"), 1000, 4000) * 1e6, 3)
15.0
>>> convert(np.array([2.7, -2.7, np.nan]), np.dtype(np.int64)).tolist()
[2, -2, 0]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from aclsim.aclnn.checks import broadcast_strides
from aclsim.aclnn.executor import OpBuilder, Ref
from aclsim.aclnn.kernels.movement import contiguous_strides, plan_view_copy, view_copy_kernel
from aclsim.aclnn.meta import AclTensor
from aclsim.arch import ChipSpec
from aclsim.errors import AclnnError
from aclsim.runtime import device_array

__all__ = [
    "CC_ALIGN",
    "HOST_ARGS_BYTES",
    "PARALLEL_BYTES",
    "SHARD_BYTES",
    "TF_ALIGN",
    "Operand",
    "aicpu_seconds",
    "contiguous_input",
    "convert",
    "finish_output",
    "plan_map",
    "plan_whole",
    "task",
    "task_memory",
]

#: output bytes from which an AI CPU kernel splits its work over the AI CPUs (add_aicpu.cpp)
PARALLEL_BYTES = 192 * 1024
#: bytes of output per shard of that split (add_aicpu.cpp ``kBytesPerShard``)
SHARD_BYTES = 256 * 1024
#: host-placed input bytes an AI CPU task carries in its argument block (OPBASE ``kMaxTotalHostLen``)
HOST_ARGS_BYTES = 1024
#: alignment of host-placed inputs: CANN-style (cc) AI CPU kernels 4 B, TensorFlow-style 64 B
#: (OPBASE ``aicpu_args_handler``)
CC_ALIGN, TF_ALIGN = 4, 64

Fn = Callable[[list[np.ndarray]], np.ndarray]


def aicpu_seconds(chip: ChipSpec, elements: int, nbytes: int) -> float:
    """Modeled time of one AI CPU task over ``elements`` elements whose output is ``nbytes``:
    ``aicpu_launch_s + elements / (cores * aicpu_elements_per_s)``, ``cores`` 1 below
    :data:`PARALLEL_BYTES`, else one per :data:`SHARD_BYTES` shard up to ``aicpu_count``."""
    if chip.aicpu_count < 1 or chip.aicpu_elements_per_s <= 0:
        raise AclnnError(f"chip {chip.name} has no AI CPU to run a task on (aicpu_count "
                         f"{chip.aicpu_count}, aicpu_elements_per_s {chip.aicpu_elements_per_s})",
                         hint="give the ChipSpec aicpu_count >= 1 and aicpu_elements_per_s > 0")
    cores = 1 if nbytes < PARALLEL_BYTES else min(chip.aicpu_count, math.ceil(nbytes / SHARD_BYTES))
    return chip.aicpu_launch_s + elements / (cores * chip.aicpu_elements_per_s)


def task_memory(host_inputs: Sequence[int], align: int) -> int:
    """OPBASE's AI CPU task memory (``CalcDeviceCacheSize``): the bytes of the task's host-placed
    inputs, each rounded up to ``align``, when together they exceed the :data:`HOST_ARGS_BYTES`
    the argument block carries; else 0.

    >>> task_memory([16], TF_ALIGN), task_memory([1000, 100], CC_ALIGN)
    (0, 1100)
    """
    total = sum(-(-int(n) // align) * align for n in host_inputs)
    return total if total > HOST_ARGS_BYTES else 0


def convert(values: np.ndarray, dst: np.dtype) -> np.ndarray:
    """``values`` in ``dst`` as the ops convert (reference 5.3, Cast): to bool ``!= 0``; complex
    to real keeps the real part; float to integer truncates toward zero and maps NaN to 0
    (an out-of-range value gives NumPy's result: the device's C++ conversion is undefined)."""
    v = np.asarray(values)
    if v.dtype == dst:
        return v
    if dst == np.bool_:
        return v != 0
    with np.errstate(all="ignore"):
        if v.dtype.kind == "c" and dst.kind != "c":
            v = v.real
        if v.dtype.kind == "f" and dst.kind in "iu":
            v = np.where(np.isnan(v), 0, np.trunc(v))
        return v.astype(dst)


@dataclass(frozen=True)
class Operand:
    """How a task sees one operand: dtype, shape and strides in elements (0 broadcasts) from
    the address it is given."""

    dtype: np.dtype
    shape: tuple[int, ...]
    strides: tuple[int, ...]

    def view(self, addr: int) -> np.ndarray:
        """A NumPy view of the operand in device memory (writable)."""
        span = sum((n - 1) * s for n, s in zip(self.shape, self.strides, strict=True)) + 1
        base = device_array(addr, (span * self.dtype.itemsize,), np.uint8).view(self.dtype)
        step = self.dtype.itemsize
        return np.lib.stride_tricks.as_strided(base, self.shape, [s * step for s in self.strides])


def _contiguous(dtype: np.dtype, shape: Sequence[int]) -> Operand:
    return Operand(np.dtype(dtype), tuple(shape), contiguous_strides(tuple(shape)))


def task(b: OpBuilder, name: str, srcs: Sequence[tuple[Ref, Operand]], dst: tuple[Ref, Operand], fn: Fn, *,
         elements: int, nbytes: int | None = None, memory: int = 0) -> None:
    """Plan one AI CPU task: ``dst = convert(fn([src arrays]), dst dtype)``.  The task reads
    every source before it writes (an overlapping source gives the old values); its modeled
    time is fixed now (:func:`aicpu_seconds` of ``elements`` and ``nbytes``, by default the
    output's bytes); ``memory``: its AI CPU task memory (:func:`task_memory`)."""
    out_ref, out_op = dst
    if nbytes is None:
        nbytes = math.prod(out_op.shape) * out_op.dtype.itemsize
    seconds = aicpu_seconds(b.chip, elements, nbytes)
    ins = [op for _, op in srcs]

    def compute(addrs: list[int]) -> float:
        arrays = [np.array(op.view(a)) for op, a in zip(ins, addrs, strict=False)]
        with np.errstate(all="ignore"):
            result = convert(np.asarray(fn(arrays)), out_op.dtype)
        target = out_op.view(addrs[-1])
        target[...] = result.reshape(target.shape)
        return seconds

    b.aicpu(name, [r for r, _ in srcs] + [out_ref], compute, task_memory=memory)


def _view_copy(b: OpBuilder, src: Ref, dst: Ref, shape: tuple[int, ...], dtype: np.dtype,
               src_strides: Sequence[int], dst_strides: Sequence[int]) -> None:
    plan = plan_view_copy(shape, dtype, tuple(src_strides), 0, tuple(dst_strides), 0, b.chip)
    if plan.block_dim:
        b.launch(view_copy_kernel(plan), plan.block_dim, src, dst)


def contiguous_input(b: OpBuilder, ref: Ref, t: AclTensor, compute: np.dtype) -> Ref:
    """``t``'s view contiguous and in ``compute`` for an AI CPU task: ``ref`` itself when it is,
    else Contiguous (the view_copy kernel) and/or an AI CPU Cast into the workspace."""
    shape = tuple(t.view_dims)
    cst = contiguous_strides(shape)
    if not t.is_contiguous():
        tmp = b.workspace(t.numel * t.itemsize)
        _view_copy(b, ref, tmp, shape, t.dtype, t.strides, cst)
        ref = tmp
    if t.dtype != compute:
        tmp = b.workspace(t.numel * compute.itemsize)
        task(b, "Cast", [(ref, _contiguous(t.dtype, shape))], (tmp, _contiguous(compute, shape)),
             lambda a: a[0], elements=t.numel)
        ref = tmp
    return ref


def result_ref(b: OpBuilder, out_ref: Ref, out: AclTensor, result: np.dtype) -> Ref:
    """Where a task writes its contiguous result of dtype ``result``: ``out`` when ``out`` is
    contiguous in that dtype, else a workspace tensor for :func:`finish_output`."""
    if out.dtype == result and out.is_contiguous():
        return out_ref
    return b.workspace(out.numel * result.itemsize)


def finish_output(b: OpBuilder, res: Ref, result: np.dtype, out_ref: Ref, out: AclTensor) -> None:
    """The contiguous result ``res`` into ``out``: an AI CPU Cast to out's dtype and/or a
    ViewCopy (the view_copy kernel) into out's strides; nothing when ``res`` is ``out``."""
    if res == out_ref:
        return
    shape = tuple(out.view_dims)
    cst = contiguous_strides(shape)
    if out.dtype != result:
        dst = out_ref if out.is_contiguous() else b.workspace(out.numel * out.itemsize)
        task(b, "Cast", [(res, _contiguous(result, shape))], (dst, _contiguous(out.dtype, shape)),
             lambda a: a[0], elements=out.numel)
        if dst == out_ref:
            return
        res = dst
    _view_copy(b, res, out_ref, shape, out.dtype, cst, out.strides)


def plan_map(b: OpBuilder, name: str, inputs: Sequence[tuple[Ref, AclTensor]], out_ref: Ref, out: AclTensor,
             compute: np.dtype, fn: Fn, result: np.dtype | None = None) -> None:
    """Plan ``out = fn(inputs)`` elementwise on the AI CPU: each input contiguous in
    ``compute`` (:func:`contiguous_input`), broadcast to ``out``'s shape; the task's result in
    ``result`` (default ``compute``) delivered by :func:`finish_output`.  Nothing for an empty
    ``out``."""
    if out.numel == 0:
        return
    shape = tuple(out.view_dims)
    res = np.dtype(result if result is not None else compute)
    srcs = []
    for ref, t in inputs:
        staged = contiguous_input(b, ref, t, compute)
        strides = broadcast_strides(t, shape, contiguous_strides(t.view_dims))
        srcs.append((staged, Operand(compute, shape, strides)))
    dst = result_ref(b, out_ref, out, res)
    task(b, name, srcs, (dst, _contiguous(res, shape)), fn, elements=out.numel)
    finish_output(b, dst, res, out_ref, out)


def plan_whole(b: OpBuilder, name: str, src_ref: Ref, self: AclTensor, out_ref: Ref, out: AclTensor,
               compute: np.dtype, fn: Callable[[np.ndarray], np.ndarray], result: np.dtype | None = None, *,
               memory: int = 0) -> None:
    """Plan ``out = fn(self)`` where the task sees the whole of ``self`` (a reduction, a
    softmax): ``self`` contiguous in ``compute``, ``fn``'s array (``out``'s elements in order)
    in ``result`` (default ``compute``) delivered by :func:`finish_output`; the task's time
    counts the larger of input and output (a reduction splits over its input)."""
    if out.numel == 0:
        return
    res = np.dtype(result if result is not None else compute)
    staged = contiguous_input(b, src_ref, self, compute)
    dst = result_ref(b, out_ref, out, res)
    task(b, name, [(staged, _contiguous(compute, self.view_dims))], (dst, _contiguous(res, out.view_dims)),
         lambda a: fn(a[0]), elements=max(self.numel, out.numel),
         nbytes=max(self.numel * compute.itemsize, out.numel * res.itemsize), memory=memory)
    finish_output(b, dst, res, out_ref, out)
