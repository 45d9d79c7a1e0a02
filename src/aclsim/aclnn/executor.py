"""``aclOpExecutor``: what phase one plans and phase two enqueues, and the op registry.

Phase one of an op (``xxx_get_workspace_size``) builds an :class:`Executor` with an
:class:`OpBuilder`: it declares the op's inputs and outputs (each gets a symbolic
:class:`Ref`), workspace intermediates (:meth:`OpBuilder.workspace`), and the steps -- kernel
launches (:meth:`OpBuilder.launch`), device copies and fills -- whose operands are those refs.
:meth:`OpBuilder.finish` lays the intermediates out (the MaxAllocator bucket rule of
OPBASE: each intermediate padded ``(bytes + 32 + 511) & ~511``; an intermediate joins the last
bucket whose most recent occupant's lifetime does not overlap its own, else opens a new one;
the workspace is the sum of the bucket sizes, plus the AI CPU task memory of the largest
AI CPU task, if any, as OPBASE's ``GetWorkspaceSize``) and returns ``(workspace_size, executor)``.
AI CPU tasks (:meth:`OpBuilder.aicpu`, ``aclnn/aicpu.py``) are the steps of the dtypes the AI
Core kernels do not hold.

Phase two (:func:`run`) binds each ref to an address (the tensors' addresses recorded at
phase one or re-bound with :func:`set_input_tensor_addr`, the workspace given) and enqueues
the steps on the stream.  It validates nothing but the executor and the workspace, and plans
nothing.  Life cycle as OPBASE: an executor is consumed by its run unless
:func:`set_executor_repeatable` was called; :func:`destroy_executor` frees a repeatable one.

>>> from aclsim.aclnn.executor import bucket_layout
>>> bucket_layout([(1000, 0, 1), (1000, 1, 2), (1000, 2, 3)])
(3072, [0, 1536, 0])
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from aclsim.aclnn.meta import AclTensor
from aclsim.arch import ChipSpec
from aclsim.errors import (
    AclError,
    AclnnError,
    AclnnInnerNullptrError,
    AclnnNullptrError,
    AclnnParamInvalidError,
    AclnnRuntimeError,
    InvalidHandleError,
    OpNotFoundError,
)
from aclsim.kernel import Kernel, KernelLaunch
from aclsim.runtime import MemcpyKind, Stream, launch_function, memcpy_async, memset_async
from aclsim.runtime.lookup import current_context, object_of_handle
from aclsim.runtime.pointers import allocation_at

__all__ = [
    "Aicpu",
    "AicpuRun",
    "Copy",
    "Executor",
    "Fill",
    "Launch",
    "OpBuilder",
    "OpDef",
    "Ref",
    "bucket_layout",
    "destroy_executor",
    "get_op",
    "op_names",
    "register_op",
    "run",
    "set_executor_repeatable",
    "set_input_tensor_addr",
    "set_output_tensor_addr",
    "workspace_bytes",
]

PAD = 32
ROUND = 512


def workspace_bytes(nbytes: int) -> int:
    """OPBASE's size of one workspace tensor: 32 B pad, then rounded up to 512 B.

    >>> workspace_bytes(1), workspace_bytes(480), workspace_bytes(481)
    (512, 512, 1024)
    """
    return (nbytes + PAD + ROUND - 1) & ~(ROUND - 1)


def bucket_layout(tensors: Sequence[tuple[int, int, int]]) -> tuple[int, list[int]]:
    """Lay workspace tensors ``(bytes, first_step, last_step)``, in graph order, into buckets
    (MaxAllocator): returns the workspace size and each tensor's byte offset."""
    buckets: list[list[Any]] = []  # [size, last occupant's (first, last)]
    where: list[int] = []
    for nbytes, first, last in tensors:
        size = workspace_bytes(nbytes)
        chosen = None
        for i in range(len(buckets) - 1, -1, -1):
            o_first, o_last = buckets[i][1]
            if o_last < first or last < o_first:
                chosen = i
                break
        if chosen is None:
            buckets.append([size, (first, last)])
            chosen = len(buckets) - 1
        else:
            buckets[chosen][0] = max(buckets[chosen][0], size)
            buckets[chosen][1] = (first, last)
        where.append(chosen)
    starts, acc = [], 0
    for b in buckets:
        starts.append(acc)
        acc += b[0]
    return acc, [starts[i] for i in where]


@dataclass(frozen=True)
class Ref:
    """A symbolic device operand: ``kind`` "input", "output" or "workspace", ``index`` into
    the executor's list of that kind, ``byte_offset`` added to its address.  An input or
    output ref points at the view's first element (storage address + offset * itemsize)."""

    kind: str
    index: int
    byte_offset: int = 0

    def __add__(self, nbytes: int) -> Ref:
        return Ref(self.kind, self.index, self.byte_offset + int(nbytes))


@dataclass(frozen=True)
class Launch:
    """Launch ``kernel[block_dim, stream](*args)``; each :class:`Ref` in ``args`` becomes an address."""

    kernel: Kernel
    block_dim: int
    args: tuple[Any, ...]
    name: str = ""


@dataclass(frozen=True)
class Copy:
    """A device-to-device copy of ``nbytes`` (an ``aclrtMemcpyAsync`` on the stream)."""

    dst: Ref
    src: Ref
    nbytes: int


@dataclass(frozen=True)
class Fill:
    """Fill ``nbytes`` at ``dst`` with the byte ``value`` (an ``aclrtMemsetAsync``)."""

    dst: Ref
    value: int
    nbytes: int


@dataclass(frozen=True)
class Aicpu:
    """An AI CPU task (``aclnn/aicpu.py``): ``compute(addresses)``, the addresses of ``refs`` in
    order, runs on the host CPU over device memory and returns its modeled seconds.
    ``task_memory``: the device memory the task needs beyond its operands (OPBASE's
    ``workspaceDeviceAicpuMem_``), added after the workspace buckets."""

    name: str
    refs: tuple[Ref, ...]
    compute: Callable[[list[int]], float]
    task_memory: int = 0


class AicpuRun:
    """One AI CPU task of a run: its name and, once the stream ran it, its modeled seconds."""

    __slots__ = ("name", "seconds")

    def __init__(self, name: str) -> None:
        self.name = name
        self.seconds: float | None = None

    def __repr__(self) -> str:
        return f"<AicpuRun {self.name} {self.seconds}>"


Step = Launch | Copy | Fill | Aicpu


def step_refs(step: Step) -> tuple[Any, ...]:
    """The operands of a step (a launch's args, an AI CPU task's refs, a copy's or fill's ends)."""
    if isinstance(step, Launch):
        return step.args
    if isinstance(step, Aicpu):
        return step.refs
    return (step.dst, getattr(step, "src", None))


@dataclass
class Executor:
    """``aclOpExecutor``: the planned steps of one op call and where their operands live."""

    op: str
    steps: list[Step]
    input_addrs: list[int]  # the storage address of each input tensor (None tensor: -1)
    output_addrs: list[int]
    input_offsets: list[int]  # byte offset of the view's first element
    output_offsets: list[int]
    workspace_size: int
    workspace_offsets: list[int]
    chip: ChipSpec
    repeatable: bool = False
    alive: bool = True
    launches: list[KernelLaunch] = field(default_factory=list)  # of the latest run
    aicpu_runs: list[AicpuRun] = field(default_factory=list)  # the AI CPU tasks of the latest run
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __repr__(self) -> str:
        state = "" if self.alive else " freed"
        return (
            f"<aclOpExecutor {self.op} {len(self.steps)} step(s) workspace {self.workspace_size} B"
            f"{' repeatable' if self.repeatable else ''}{state}>"
        )

    def resolve(self, ref: Ref, workspace: int) -> int:
        if ref.kind == "input":
            return self.input_addrs[ref.index] + self.input_offsets[ref.index] + ref.byte_offset
        if ref.kind == "output":
            return self.output_addrs[ref.index] + self.output_offsets[ref.index] + ref.byte_offset
        return workspace + self.workspace_offsets[ref.index] + ref.byte_offset


class OpBuilder:
    """Phase one's tool: declare operands and steps, then :meth:`finish`.

    >>> b = OpBuilder("Nothing", chip=__import__("aclsim").get_chip("tiny"))
    >>> b.finish()[0]
    0
    """

    def __init__(self, op: str, *, chip: ChipSpec | None = None) -> None:
        self.op = op
        self.chip = chip if chip is not None else current_context().device.chip
        self.inputs: list[AclTensor | None] = []
        self.outputs: list[AclTensor] = []
        self.steps: list[Step] = []
        self._workspace: list[int] = []

    def input(self, tensor: AclTensor | None) -> Ref:
        """Declare the next input tensor (``None`` for an absent optional one: it keeps its index)."""
        self.inputs.append(tensor)
        return Ref("input", len(self.inputs) - 1)

    def output(self, tensor: AclTensor) -> Ref:
        """Declare the next output tensor."""
        self.outputs.append(tensor)
        return Ref("output", len(self.outputs) - 1)

    def workspace(self, nbytes: int) -> Ref:
        """An intermediate of ``nbytes`` in the workspace, live from the first to the last step
        that names it (declare it before the steps that use it)."""
        self._workspace.append(int(nbytes))
        return Ref("workspace", len(self._workspace) - 1)

    def launch(self, kernel: Kernel, block_dim: int, *args: Any) -> None:
        """Plan ``kernel[block_dim, stream](*args)``; refs in ``args`` are bound at run time."""
        self.steps.append(Launch(kernel, int(block_dim), tuple(args), kernel.name))

    def copy(self, dst: Ref, src: Ref, nbytes: int) -> None:
        """Plan a device-to-device copy of ``nbytes``."""
        if nbytes > 0:
            self.steps.append(Copy(dst, src, int(nbytes)))

    def aicpu(self, name: str, refs: Sequence[Ref], compute: Callable[[list[int]], float], *,
              task_memory: int = 0) -> None:
        """Plan an AI CPU task: ``compute`` gets the addresses of ``refs`` at run time."""
        self.steps.append(Aicpu(name, tuple(refs), compute, int(task_memory)))

    def fill(self, dst: Ref, value: int, nbytes: int) -> None:
        """Plan a byte fill of ``nbytes``."""
        if nbytes > 0:
            self.steps.append(Fill(dst, int(value), int(nbytes)))

    def _lifetimes(self) -> list[tuple[int, int, int]]:
        spans: dict[int, list[int]] = {}
        for i, step in enumerate(self.steps):
            for r in step_refs(step):
                if isinstance(r, Ref) and r.kind == "workspace":
                    span = spans.setdefault(r.index, [i, i])
                    span[1] = i
        never = [len(self.steps), len(self.steps)]
        return [(n, spans.get(k, never)[0], spans.get(k, never)[1]) for k, n in enumerate(self._workspace)]

    def finish(self) -> tuple[int, Executor]:
        """Lay out the workspace and hand the executor to the caller: ``(workspace_size, executor)``."""
        size, offsets = bucket_layout(self._lifetimes())
        size += max((s.task_memory for s in self.steps if isinstance(s, Aicpu)), default=0)
        ins = [(-1, 0) if t is None else (t.device_addr, t.offset * t.itemsize) for t in self.inputs]
        outs = [(t.device_addr, t.offset * t.itemsize) for t in self.outputs]
        ex = Executor(
            self.op,
            list(self.steps),
            [a for a, _ in ins],
            [a for a, _ in outs],
            [o for _, o in ins],
            [o for _, o in outs],
            size,
            offsets,
            self.chip,
        )
        return size, ex


# --- phase two and the executor calls ---------------------------------------------------------


def _workspace_address(workspace: Any) -> int:
    if workspace is None:
        return 0
    ptr = getattr(workspace, "ptr", workspace)
    if isinstance(ptr, bool) or not isinstance(ptr, (int, np.integer)) or ptr < 0:
        raise AclnnParamInvalidError(f"workspace must be a device address (int or Buffer), got {workspace!r}")
    return int(ptr)


def _live_executor(executor: Any, what: str = "executor") -> Executor:
    if executor is None:
        raise AclnnNullptrError(f"{what} is None", hint="pass the executor phase one returned")
    if not isinstance(executor, Executor):
        raise AclnnParamInvalidError(f"{what} must be an aclOpExecutor, got {type(executor).__name__}")
    if not executor.alive:
        raise AclnnNullptrError(
            f"{executor!r} was freed (a non-repeatable executor is consumed by its run)",
            hint="call xxx_get_workspace_size again, or set_executor_repeatable right after phase one",
        )
    return executor


def run(workspace: Any, workspace_size: int, executor: Executor | None, stream: Any) -> list[KernelLaunch]:
    """Phase two of every op (``aclnnXxx(workspace, workspaceSize, executor, stream)``):
    enqueue the executor's steps on ``stream`` and return the kernel launches.

    161001 for a ``None`` or freed executor, and for a missing workspace when the executor
    needs one (the executor is freed then, as OPBASE does).  aclsim is stricter than the
    device in one place: a ``workspace_size`` smaller than phase one asked is refused with
    161002 (the device records the size without checking it and its kernels overrun).
    """
    ex = _live_executor(executor)
    with ex.lock:
        ws = _workspace_address(workspace)
        if ex.workspace_size > 0 and ws == 0:
            if not ex.repeatable:
                ex.alive = False
            raise AclnnNullptrError(
                f"workspace is None but {ex.op} needs {ex.workspace_size} B (the executor is freed)",
                hint="allocate workspace_size bytes of device memory and pass them",
            )
        if ex.workspace_size > 0 and int(workspace_size) < ex.workspace_size:
            raise AclnnParamInvalidError(
                f"workspace_size {int(workspace_size)} B is smaller than the {ex.workspace_size} B phase one "
                f"asked for {ex.op}",
                hint="pass the workspace_size phase one returned (aclsim is stricter than the device here: "
                "the device does not check the size, its kernels would overrun the workspace)",
            )
        for kind, addrs in (("input", ex.input_addrs), ("output", ex.output_addrs)):
            for i, a in enumerate(addrs):
                if a == 0 and any(_names(step, kind, i) for step in ex.steps):
                    raise AclnnNullptrError(
                        f"{kind} {i} of {ex.op} has no device address",
                        hint=f"set it with set_{kind}_tensor_addr or create the tensor with its device_addr",
                    )
        ex.aicpu_runs = []
        launches = _enqueue(ex, ws, stream)
        ex.launches = launches
        if not ex.repeatable:
            ex.alive = False
        return launches


def _names(step: Step, kind: str, index: int) -> bool:
    return any(isinstance(r, Ref) and r.kind == kind and r.index == index for r in step_refs(step))


def _enqueue(ex: Executor, ws: int, stream: Any) -> list[KernelLaunch]:
    launches: list[KernelLaunch] = []
    try:
        stream = _stream_of(stream)
        for step in ex.steps:
            if isinstance(step, Launch):
                args = [ex.resolve(a, ws) if isinstance(a, Ref) else a for a in step.args]
                launches.append(step.kernel[step.block_dim, stream](*args))
            elif isinstance(step, Aicpu):
                _enqueue_aicpu(ex, step, [ex.resolve(r, ws) for r in step.refs], stream)
            elif isinstance(step, Copy):
                d, s = ex.resolve(step.dst, ws), ex.resolve(step.src, ws)
                memcpy_async(d, step.nbytes, s, step.nbytes, MemcpyKind.DEVICE_TO_DEVICE, stream)
            else:
                d = ex.resolve(step.dst, ws)
                memset_async(d, step.nbytes, step.value, step.nbytes, stream)
    except AclError as exc:
        raise AclnnRuntimeError(
            f"{ex.op}: enqueueing on {stream!r} failed: {exc}",
            hint="check the stream and the addresses bound to the executor",
        ) from exc
    return launches


def _enqueue_aicpu(ex: Executor, step: Aicpu, addrs: list[int], stream: Any) -> None:
    """Queue one AI CPU task; its modeled seconds land in an :class:`AicpuRun` of ``ex``."""
    record = AicpuRun(step.name)
    ex.aicpu_runs.append(record)
    held = (allocation_at(a) for a in addrs)
    buffers = [h.buffer for h in held if h is not None and h.buffer is not None]

    def task() -> float:
        record.seconds = step.compute(addrs)
        return record.seconds

    launch_function(task, label=f"aicpu {step.name}", stream=stream, buffers=buffers)


def _stream_of(stream: Any) -> Any:
    """A runtime stream, ``None`` (the default stream), or a pyACL stream handle (an int; 0 is
    the default stream)."""
    if isinstance(stream, (int, np.integer)) and not isinstance(stream, bool):
        if int(stream) == 0:
            return None
        found = object_of_handle(int(stream))
        if not isinstance(found, Stream) or not found.alive:
            raise InvalidHandleError(
                f"stream {int(stream):#x} is not a live stream handle",
                hint="pass a stream from create_stream (or 0 for the default stream)",
            )
        return found
    return stream


#: the name of the data-movement kernel that plays the device's L0 ViewCopy
VIEW_COPY = "view_copy"


def _same_address(ex: Executor, a: Any, b: Any) -> bool:
    """Whether two launch operands are one address at phase one (tensor addresses as recorded)."""
    if not (isinstance(a, Ref) and isinstance(b, Ref)):
        return False
    if a == b:
        return True
    if "workspace" in (a.kind, b.kind):
        return False
    known = all((ex.input_addrs if r.kind == "input" else ex.output_addrs)[r.index] > 0 for r in (a, b))
    return known and ex.resolve(a, 0) == ex.resolve(b, 0)


def _unrepeatable(ex: Executor) -> str | None:
    """Why OPBASE would refuse to make ``ex`` repeatable (``None`` if it would not)."""
    for i, step in enumerate(ex.steps):
        if isinstance(step, Copy):
            return (f"step {i} is a device-to-device copy (CopyNpuToNpu): the device's copy tasks "
                    "cannot be replayed")
        if isinstance(step, Launch) and step.name == VIEW_COPY and len(step.args) >= 2 \
                and _same_address(ex, step.args[0], step.args[1]):
            return f"step {i} is a ViewCopy whose source and destination are the same address"
    return None


def set_executor_repeatable(executor: Executor | None) -> None:
    """``aclSetAclOpExecutorRepeatable``: the executor survives its runs.

    561103 for ``None``.  561000 (``ACLNN_ERR_INNER``, as OPBASE's ``SetRepeatable``) where the
    documentation says reuse cannot be enabled and aclsim's executors can meet the case: a
    device-to-device copy step (:meth:`OpBuilder.copy`, the device's CopyNpuToNpu), or a
    ViewCopy whose source and destination are one address (``inplace_copy(t, t)``).  The
    executor is left as it was: not repeatable, still good for one run.  (Host-to-device
    copies and internal device tensors cannot occur: an executor's operands are its tensors
    and its workspace.)
    """
    if executor is None:
        raise AclnnInnerNullptrError("executor is None", hint="pass the executor phase one returned")
    ex = _live_executor(executor)
    why = _unrepeatable(ex)
    if why is not None:
        raise AclnnError(
            f"{ex.op}: the executor cannot be made repeatable: {why}",
            hint="run it once (it is consumed), or call phase one again for every run",
        )
    ex.repeatable = True


def destroy_executor(executor: Executor | None) -> None:
    """``aclDestroyAclOpExecutor``: free a repeatable executor (561103 if ``None``)."""
    if executor is None:
        raise AclnnInnerNullptrError("executor is None", hint="pass the repeatable executor to free")
    ex = _live_executor(executor)
    if not ex.repeatable:
        raise AclnnParamInvalidError(
            f"{ex!r} is not repeatable: its run frees it",
            hint="destroy_executor is for executors made repeatable",
        )
    ex.alive = False


def _set_addr(executor: Executor | None, index: int, tensor: AclTensor | None, addr: Any, kind: str) -> None:
    if executor is None or tensor is None:
        raise AclnnInnerNullptrError(
            f"{'executor' if executor is None else 'tensor'} is None",
            hint=f"pass the executor and the {kind} tensor to re-bind",
        )
    ex = _live_executor(executor)
    addrs = ex.input_addrs if kind == "input" else ex.output_addrs
    if not 0 <= int(index) < len(addrs):
        raise AclnnParamInvalidError(
            f"{kind} index {index} is out of range: {ex.op} has {len(addrs)} {kind}s"
        )
    if addrs[index] == -1:
        raise AclnnParamInvalidError(f"{kind} {index} of {ex.op} was None at phase one: it cannot be bound")
    ptr = _workspace_address(addr)
    if ptr % 32:
        raise AclnnParamInvalidError(
            f"address 0x{ptr:x} is not 32 B aligned", hint="pass a 32 B aligned address"
        )
    addrs[index] = ptr
    tensor.device_addr = ptr


def set_input_tensor_addr(executor: Executor | None, index: int, tensor: AclTensor | None, addr: Any) -> None:
    """``aclSetInputTensorAddr``: bind input ``index`` of a (repeatable) executor to ``addr``."""
    _set_addr(executor, index, tensor, addr, "input")


def set_output_tensor_addr(
    executor: Executor | None, index: int, tensor: AclTensor | None, addr: Any
) -> None:
    """``aclSetOutputTensorAddr``: bind output ``index`` to ``addr``."""
    _set_addr(executor, index, tensor, addr, "output")


# --- the op registry ---------------------------------------------------------------------------


@dataclass(frozen=True)
class OpDef:
    """One op: its aclnn name (``"Add"``), its phase-one function and its documentation."""

    name: str
    get_workspace_size: Callable[..., tuple[int, Executor]]
    doc: str


_OPS: dict[str, OpDef] = {}


def register_op(name: str, get_workspace_size: Callable[..., tuple[int, Executor]], doc: str = "") -> OpDef:
    """Declare the op ``name`` once (the single-op path finds it by that name)."""
    if name in _OPS:
        raise ValueError(f"aclnn op {name!r} registered twice")
    op = OpDef(name, get_workspace_size, doc or (get_workspace_size.__doc__ or "").strip())
    _OPS[name] = op
    return op


def get_op(name: str) -> OpDef:
    """The registered op ``name`` (100024 ``ACL_ERROR_OP_NOT_FOUND`` if none)."""
    try:
        return _OPS[name]
    except KeyError:
        raise OpNotFoundError(
            f"no aclnn op named {name!r}", hint=f"registered: {', '.join(sorted(_OPS))}"
        ) from None


def op_names() -> list[str]:
    """The names of the registered ops, sorted."""
    return sorted(_OPS)
