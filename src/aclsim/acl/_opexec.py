"""How ``acl.op`` runs an op: descriptions + buffers + attributes -> the aclnn op's two phases.

1. the op type is looked up in :data:`~aclsim.acl.op_table.OP_TABLE` (100024 if absent);
2. the descriptions are checked against the op: counts (100021 inputs, 100022 outputs),
   exact shapes, data types aclsim holds (100026), formats (100027); the buffers against
   the descriptions (100000: a buffer smaller than its description);
3. an ``aclTensor`` is made of each description and buffer, and the adapter calls the aclnn
   op's phase one; a rejection there (aclnn's 161001/161002/561002: dtype, shape,
   broadcasting, promotion) becomes ``ACL_ERROR_OP_OUTPUT_NOT_MATCH`` (100022) when it names
   the output ``out``, else ``ACL_ERROR_OP_INPUT_NOT_MATCH`` (100021), aclnn's message kept;
4. the workspace comes from the caching pool for the stream, phase two enqueues the kernels,
   and a task queued behind them on the same stream frees the workspace once they ran.
   Nothing waits: the call is asynchronous, as on the device -- except for op types with
   tensor-valued inputs (ReduceSum ``axes``, Transpose ``perm``, Slice ``offsets``/``size``),
   whose adapters wait for the stream's earlier work and read those small tensors back.

An adapter may plan several aclnn ops (LayerNorm's variance, MatMul's bias): their phase ones
all run before anything is enqueued, so a refusal enqueues nothing; they then run in order on
the stream and share one workspace (the largest asked for).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from aclsim.acl._desc import DataBuffer, TensorDesc, data_buffer_of, desc_of
from aclsim.acl._handles import TABLE
from aclsim.acl.op_table import OP_TABLE, Attrs, OpSpec
from aclsim.aclnn import AclTensor, DataType, Executor, create_tensor, destroy_tensor, numpy_dtype, run
from aclsim.errors import (
    ACL_ERROR_FORMAT_NOT_MATCH,
    ACL_ERROR_OP_INPUT_NOT_MATCH,
    ACL_ERROR_OP_OUTPUT_NOT_MATCH,
    ACL_ERROR_UNSUPPORTED_DATA_TYPE,
    AclError,
    AclnnError,
    AclnnRuntimeError,
    InvalidParamError,
    OpNotFoundError,
)
from aclsim.runtime import Buffer, free, launch_function, malloc
from aclsim.runtime.memory import is_device_address
from aclsim.runtime.stream import Stream

__all__ = ["OpAttr", "Prepared", "attr_of", "execute", "prepare"]


class OpAttr:
    """``aclopAttr``: named, typed attribute values (kind as in ``set_attr_<kind>``)."""

    __slots__ = ("handle", "lock", "values")
    C_NAME = "aclopAttr"

    def __init__(self) -> None:
        self.values: dict[str, tuple[str, Any]] = {}
        self.handle = 0
        self.lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<aclopAttr {', '.join(f'{k}={v!r}' for k, (_, v) in self.values.items())}>"


def attr_of(value: object, name: str = "attr") -> OpAttr:
    return TABLE.get(name, value, OpAttr, "acl.op.create_attr")


def _not_match(side: str, message: str, hint: str | None = None) -> AclError:
    code = ACL_ERROR_OP_OUTPUT_NOT_MATCH if side == "output" else ACL_ERROR_OP_INPUT_NOT_MATCH
    return AclError(message, hint=hint, code=code)


def spec_of(op_type: object) -> tuple[str, OpSpec]:
    if not isinstance(op_type, str):
        raise InvalidParamError(f"op_type must be a str, got {type(op_type).__name__}")
    spec = OP_TABLE.get(op_type)
    if spec is None:
        raise OpNotFoundError(f"no built-in op of type {op_type!r} in aclsim",
                              hint=f"op types aclsim runs: {', '.join(sorted(OP_TABLE))}")
    return op_type, spec


def _handles(name: str, values: object) -> list[Any]:
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, np.ndarray)):
        raise InvalidParamError(f"{name} must be a list of handles, got {type(values).__name__}")
    return list(values)


def descs_of(op_type: str, spec: OpSpec, inputs: object, outputs: object) -> tuple[list[TensorDesc],
                                                                                    list[TensorDesc]]:
    """The live input and output descriptions, their counts checked against ``spec``."""
    ins = [desc_of(h, f"input_desc[{i}]") for i, h in enumerate(_handles("input_desc", inputs))]
    outs = [desc_of(h, f"output_desc[{i}]") for i, h in enumerate(_handles("output_desc", outputs))]
    if not spec.inputs - spec.optional <= len(ins) <= spec.inputs:
        want = str(spec.inputs) if not spec.optional else f"{spec.inputs - spec.optional}..{spec.inputs}"
        raise _not_match("input", f"{op_type} takes {want} inputs, {len(ins)} descriptions were given")
    if len(outs) != spec.outputs:
        raise _not_match("output",
                         f"{op_type} has {spec.outputs} outputs, {len(outs)} descriptions were given")
    return ins, outs


def _tensor(op_type: str, side: str, i: int, desc: TensorDesc) -> AclTensor | None:
    """The aclnn tensor of a description, with no address yet (``None`` for a placeholder)."""
    if desc.data_type == DataType.ACL_DT_UNDEFINED and side == "input":
        return None  # an absent optional input
    where = f"{op_type} {side} {i} ({desc!r})"
    if desc.dynamic:
        raise _not_match(side, f"{where} has a dynamic shape",
                         "aclsim runs ops on exact shapes: give every dim (no -1 / -2); a difference from "
                         "the device, which selects a dynamic-shape kernel")
    try:
        numpy_dtype(desc.data_type)
    except ValueError:
        raise AclError(f"{where}: aclsim does not model the data type {desc.data_type.name}",
                       hint="use a type with a NumPy dtype (float, float16, bf16, integers, bool)",
                       code=ACL_ERROR_UNSUPPORTED_DATA_TYPE) from None
    try:
        return create_tensor(list(desc.dims), desc.data_type, None, 0, desc.format, None, None)
    except AclnnError as exc:
        code = ACL_ERROR_FORMAT_NOT_MATCH if "format" in exc.message else None
        raise AclError(f"{where}: {exc.message}", hint=exc.hint,
                       code=code or _not_match(side, "").code) from None


@dataclass
class Prepared:
    """An op type matched to descriptions and attributes (what an ``aclopHandle`` holds)."""

    op_type: str
    spec: OpSpec
    in_descs: list[tuple[Any, ...]]  # (data_type, dims, format) snapshots
    out_descs: list[tuple[Any, ...]]
    attrs: dict[str, tuple[str, Any]]


def _snapshot(d: TensorDesc) -> tuple[Any, ...]:
    return d.data_type, d.dims, d.format


def _restore(snap: tuple[Any, ...]) -> TensorDesc:
    return TensorDesc(snap[0], snap[1], snap[2])


def prepare(op_type: object, inputs: object, outputs: object, attr: object) -> Prepared:
    """Match ``op_type`` with the descriptions and attributes and run phase one once without
    addresses (so every mismatch is found here, except those that depend on the values of a
    tensor-valued input, found at execution); what a handle keeps."""
    name, spec = spec_of(op_type)
    ins, outs = descs_of(name, spec, inputs, outputs)
    attrs: dict[str, tuple[str, Any]] = {}
    if attr is not None and attr != 0:
        a = attr_of(attr)
        with a.lock:
            attrs = dict(a.values)
    prep = Prepared(name, spec, [_snapshot(d) for d in ins], [_snapshot(d) for d in outs], attrs)
    _phase_one(prep, None, None)
    return prep


def _phase_one(prep: Prepared, in_bufs: list[DataBuffer] | None, out_bufs: list[DataBuffer] | None,
               stream: Stream | None = None) -> tuple[list[tuple[int, Executor]], list[AclTensor]]:
    """The adapter's aclnn phase ones (in order) and the tensors to destroy once they ran;
    without buffers (a handle being made) the tensors have no addresses."""
    x = [_tensor(prep.op_type, "input", i, _restore(s)) for i, s in enumerate(prep.in_descs)]
    x += [None] * (prep.spec.inputs - len(x))
    y: list[Any] = [_tensor(prep.op_type, "output", i, _restore(s)) for i, s in enumerate(prep.out_descs)]
    made = [t for t in (*x, *y) if t is not None]
    attrs = Attrs(prep.op_type, prep.attrs, bound=in_bufs is not None, stream=stream)
    try:
        for tensors, bufs in ((x, in_bufs), (y, out_bufs)):
            for t, b in zip(tensors, bufs or (), strict=False):
                if t is not None:
                    t.device_addr = b.addr
        try:
            plan = prep.spec.build(x, y, attrs)
        except AclnnError as exc:
            side = "output" if re.search(r"\bout\b", exc.message) else "input"
            raise _not_match(side, f"{prep.op_type}: the aclnn op refused the descriptions: {exc}",
                             hint=exc.hint) from None
        finally:
            made += attrs.made
        return (plan if isinstance(plan, list) else [plan]), made
    except BaseException:
        for t in made:
            destroy_tensor(t)
        raise


def _buffers(prep: Prepared, inputs: object, outputs: object) -> tuple[list[DataBuffer], list[DataBuffer]]:
    ins = [data_buffer_of(h, f"inputs[{i}]") for i, h in enumerate(_handles("inputs", inputs))]
    outs = [data_buffer_of(h, f"outputs[{i}]") for i, h in enumerate(_handles("outputs", outputs))]
    for side, descs, bufs in (("input", prep.in_descs, ins), ("output", prep.out_descs, outs)):
        if len(bufs) != len(descs):
            raise InvalidParamError(f"{prep.op_type}: {len(descs)} {side} descriptions but {len(bufs)} "
                                    f"{side} data buffers",
                                    hint="the buffers and descriptions are index-aligned lists")
        for i, (snap, b) in enumerate(zip(descs, bufs, strict=True)):
            need = _restore(snap).size
            if b.size < need:
                raise InvalidParamError(
                    f"{prep.op_type}: {side} {i} data buffer {b!r} is smaller than its description "
                    f"{_restore(snap)!r} ({need} B)",
                    hint="give the buffer at least get_tensor_desc_size(desc) bytes (the device would "
                    "read or write past it; aclsim refuses)")
            if need and b.addr % 32 and is_device_address(b.addr):  # host memory (axes, perm) is read back
                raise InvalidParamError(f"{prep.op_type}: {side} {i} data buffer address 0x{b.addr:x} is not "
                                        "32 B aligned", hint="pass memory from acl.rt.malloc")
    return ins, outs


def _free_after(workspace: Buffer, stream: Stream | None) -> None:
    """Free the workspace once the stream has run the op: a task queued behind the op's
    kernels (freeing it now would be a free before use, which the runtime reports)."""

    def release() -> float:
        free(workspace)
        return 0.0  # host bookkeeping: no modeled device time

    try:
        launch_function(release, label="acl.op workspace free", stream=stream)
    except AclError:  # the stream takes no more work: nothing of the op will run either
        free(workspace)


def execute(prep: Prepared, inputs: object, outputs: object, stream: Stream | None) -> None:
    """Bind the buffers, run phase one and enqueue phase two on ``stream`` (asynchronous)."""
    in_bufs, out_bufs = _buffers(prep, inputs, outputs)
    plan, made = _phase_one(prep, in_bufs, out_bufs, stream)
    try:
        # the steps run one after another on the stream: one workspace serves them all
        size = max((s for s, _ in plan), default=0)
        workspace = malloc(size, stream=stream) if size > 0 else None
        try:
            for step_size, executor in plan:
                run(workspace, step_size, executor, stream)
        except AclnnRuntimeError as exc:
            if isinstance(exc.__cause__, AclError):
                raise exc.__cause__ from None
            raise
        finally:
            if workspace is not None:
                _free_after(workspace, stream)
    finally:
        for t in made:
            destroy_tensor(t)
