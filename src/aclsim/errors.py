"""The exception tree of aclsim, and the only place where ACL error codes live.

Every exception raised for an API misuse carries the AscendCL error code that the
real runtime returns in the same situation (``exc.code``), its symbolic name
(``exc.code_name``), the numbers that matter, and a hint saying what to fix.  The
pyACL face (:mod:`aclsim.acl`) turns them back into return codes in one place.

Codes are from ``acl_base_rt.h`` and ``rt_error_codes.h`` of the open CANN runtime
(see ``design/reference/ascend-api.md`` section 1.4).
"""

from __future__ import annotations

# --- AscendCL codes (acl_base_rt.h) and runtime codes (rt_error_codes.h) -------------
ACL_SUCCESS = 0
ACL_ERROR_INVALID_PARAM = 100000
ACL_ERROR_UNINITIALIZE = 100001
ACL_ERROR_REPEAT_INITIALIZE = 100002
ACL_ERROR_INVALID_FILE = 100003
ACL_ERROR_PARSE_FILE = 100006
ACL_ERROR_REPEAT_SUBSCRIBE = 100033
ACL_ERROR_REPEAT_FINALIZE = 100037
ACL_ERROR_BAD_ALLOC = 200000
ACL_ERROR_FEATURE_UNSUPPORTED = 200006
ACL_ERROR_INTERNAL_ERROR = 500000
ACL_ERROR_RT_PARAM_INVALID = 107000
ACL_ERROR_RT_INVALID_DEVICEID = 107001
ACL_ERROR_RT_CONTEXT_NULL = 107002
ACL_ERROR_RT_STREAM_CONTEXT = 107003
ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID = 107006
ACL_ERROR_RT_ADDR_UNALIGNED = 107008
ACL_ERROR_RT_STREAM_SUBSCRIBE = 107011
ACL_ERROR_RT_THREAD_SUBSCRIBE = 107012
ACL_ERROR_RT_STREAM_NO_CB_REG = 107015
ACL_ERROR_RT_INVALID_MEMORY_TYPE = 107016
ACL_ERROR_RT_INVALID_HANDLE = 107017
ACL_ERROR_RT_WAIT_TIMEOUT = 107019
ACL_ERROR_RT_FEATURE_NOT_SUPPORT = 207000
ACL_ERROR_RT_MEMORY_ALLOCATION = 207001
ACL_ERROR_RT_MEMORY_FREE = 207002
ACL_ERROR_RT_AICORE_OVER_FLOW = 207003
ACL_ERROR_RT_AIVEC_OVER_FLOW = 207016
ACL_ERROR_RT_INTERNAL_ERROR = 507000
ACL_ERROR_RT_EVENT_NOT_COMPLETE = 507006
ACL_ERROR_RT_REPORT_TIMEOUT = 507012
ACL_ERROR_RT_AICORE_TIMEOUT = 507014
ACL_ERROR_RT_AICORE_EXCEPTION = 507015
ACL_ERROR_RT_VECTOR_CORE_TIMEOUT = 507034
ACL_ERROR_RT_VECTOR_CORE_EXCEPTION = 507035
ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW = 507042
ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW = 507043
ACL_ERROR_RT_STREAM_SYNC_TIMEOUT = 507046
ACL_ERROR_RT_EVENT_SYNC_TIMEOUT = 507047
ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW = 507044
ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW = 507045
# The single-operator path (acl_op.h): what aclopExecuteV2 / aclopCreateHandle return.
ACL_ERROR_OP_TYPE_NOT_MATCH = 100020
ACL_ERROR_OP_INPUT_NOT_MATCH = 100021
ACL_ERROR_OP_OUTPUT_NOT_MATCH = 100022
ACL_ERROR_OP_ATTR_NOT_MATCH = 100023
ACL_ERROR_OP_NOT_FOUND = 100024
ACL_ERROR_OP_LOAD_FAILED = 100025
ACL_ERROR_UNSUPPORTED_DATA_TYPE = 100026
ACL_ERROR_FORMAT_NOT_MATCH = 100027

# --- aclnn statuses (opbase ``op_errno.h``; design/reference/aclnn-api.md section 2) -----
ACLNN_SUCCESS = 0
ACLNN_ERR_PARAM_NULLPTR = 161001
ACLNN_ERR_PARAM_INVALID = 161002
ACLNN_ERR_RUNTIME_ERROR = 361001
ACLNN_ERR_INNER = 561000
ACLNN_ERR_INNER_INFERSHAPE_ERROR = 561001
ACLNN_ERR_INNER_TILING_ERROR = 561002
ACLNN_ERR_INNER_FIND_KERNEL_ERROR = 561003
ACLNN_ERR_INNER_CREATE_EXECUTOR = 561101
ACLNN_ERR_INNER_NOT_TRANS_EXECUTOR = 561102
ACLNN_ERR_INNER_NULLPTR = 561103

#: code -> symbolic name, for messages and for ``aclsim.acl`` users (0 reads ACL_SUCCESS).
CODE_NAMES: dict[int, str] = {
    value: name
    for name, value in reversed(dict(globals()).items())
    if name.startswith(("ACL_", "ACLNN_")) and isinstance(value, int)
}


def code_name(code: int) -> str:
    """Return the symbolic ACL name of ``code`` (``"UNKNOWN"`` for codes aclsim never uses)."""
    return CODE_NAMES.get(code, "UNKNOWN")


class AclError(Exception):
    """Base of every runtime error; ``code`` is the AscendCL error code.

    Parameters
    ----------
    message
        What went wrong, with the numbers that matter.
    hint
        What to change so that the call succeeds.
    code
        Overrides the class's default code.

    >>> str(AclError("stream 7 is gone", hint="create a new one", code=107017))
    '[ACL_ERROR_RT_INVALID_HANDLE 107017] stream 7 is gone; hint: create a new one'
    """

    default_code = ACL_ERROR_RT_INTERNAL_ERROR

    def __init__(self, message: str, *, hint: str | None = None, code: int | None = None) -> None:
        self.code = self.default_code if code is None else code
        self.message = message
        self.hint = hint
        text = f"[{code_name(self.code)} {self.code}] {message}"
        if hint:
            text += f"; hint: {hint}"
        super().__init__(text)

    @property
    def code_name(self) -> str:
        return code_name(self.code)


class InvalidParamError(AclError, ValueError):
    """A bad argument (size 0, count above dest_max, unknown enum value, ...)."""

    default_code = ACL_ERROR_INVALID_PARAM


class RtParamInvalidError(AclError, ValueError):
    """A runtime-level parameter error (out-of-range access, bad pointer offset)."""

    default_code = ACL_ERROR_RT_PARAM_INVALID


class UninitializedError(AclError):
    """A call before :func:`aclsim.init` (or after :func:`aclsim.finalize`)."""

    default_code = ACL_ERROR_UNINITIALIZE


class RepeatInitializeError(AclError):
    default_code = ACL_ERROR_REPEAT_INITIALIZE


class RepeatFinalizeError(AclError):
    default_code = ACL_ERROR_REPEAT_FINALIZE


class ConfigFileError(AclError, ValueError):
    """The configuration file given to ``init`` cannot be read or parsed."""

    default_code = ACL_ERROR_PARSE_FILE


class InvalidDeviceError(AclError, ValueError):
    default_code = ACL_ERROR_RT_INVALID_DEVICEID


class ContextNullError(AclError):
    """The calling thread has no current context (call ``set_device`` or ``set_context``)."""

    default_code = ACL_ERROR_RT_CONTEXT_NULL


class StreamContextError(AclError):
    """A stream was used from a context it does not belong to."""

    default_code = ACL_ERROR_RT_STREAM_CONTEXT


class InvalidHandleError(AclError, ValueError):
    """A handle that was destroyed, or never existed."""

    default_code = ACL_ERROR_RT_INVALID_HANDLE


class InvalidMemoryTypeError(AclError, ValueError):
    """A pointer of the wrong kind for the operation (host where device is needed, ...)."""

    default_code = ACL_ERROR_RT_INVALID_MEMORY_TYPE


class AddressUnalignedError(AclError, ValueError):
    default_code = ACL_ERROR_RT_ADDR_UNALIGNED


class MemoryFreeError(AclError):
    """Double free, free of an unknown pointer, or free of the wrong kind of memory."""

    default_code = ACL_ERROR_RT_MEMORY_FREE


class OutOfMemoryError(AclError, MemoryError):
    """Device memory is exhausted; carries the request and the state of the device.

    >>> e = OutOfMemoryError(4096, used=1024, reserved=1536, limit=2048, device=0)
    >>> (e.code, e.size, e.used, e.reserved, e.limit)
    (207001, 4096, 1024, 1536, 2048)
    """

    default_code = ACL_ERROR_RT_MEMORY_ALLOCATION

    def __init__(self, size: int, *, used: int, limit: int, device: int, largest_free: int | None = None,
                 reserved: int | None = None, hint: str | None = None) -> None:
        self.size, self.used, self.limit, self.device = size, used, limit, device
        self.reserved = used if reserved is None else reserved
        self.largest_free = largest_free
        msg = (f"npu:{device} out of memory: tried to allocate {size} B with {used} B in use "
               f"and {self.reserved} B reserved of a {limit} B limit")
        if largest_free is not None:
            msg += f" (largest free block {largest_free} B)"
        super().__init__(msg, hint=hint or "free buffers you no longer need, or raise the device "
                         "memory limit (ACLSIM_MEMORY or the init config)")


class UseAfterFreeError(RtParamInvalidError):
    """A copy or kernel touched device memory after it was freed (the message names the lines
    that allocated and freed it)."""


class HostAllocationError(AclError, MemoryError):
    """Host memory (``malloc_host``) could not be allocated."""

    default_code = ACL_ERROR_RT_MEMORY_ALLOCATION


class FeatureNotSupportedError(AclError, NotImplementedError):
    """A documented feature aclsim does not model (the message says what to use instead)."""

    default_code = ACL_ERROR_RT_FEATURE_NOT_SUPPORT


class RepeatSubscribeError(AclError):
    default_code = ACL_ERROR_REPEAT_SUBSCRIBE


class StreamNotSubscribedError(AclError):
    """``launch_callback`` on a stream no thread subscribed to with ``subscribe_report``."""

    default_code = ACL_ERROR_RT_STREAM_NO_CB_REG


class ThreadNotSubscribedError(AclError):
    default_code = ACL_ERROR_RT_THREAD_SUBSCRIBE


class ReportTimeoutError(AclError, TimeoutError):
    """``process_report`` saw no callback within its timeout."""

    default_code = ACL_ERROR_RT_REPORT_TIMEOUT


class EventNotCompleteError(AclError):
    default_code = ACL_ERROR_RT_EVENT_NOT_COMPLETE


class EventTimestampError(AclError):
    """An event used for timing was never recorded."""

    default_code = ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID


class StreamSyncTimeoutError(AclError, TimeoutError):
    default_code = ACL_ERROR_RT_STREAM_SYNC_TIMEOUT


class EventSyncTimeoutError(AclError, TimeoutError):
    default_code = ACL_ERROR_RT_EVENT_SYNC_TIMEOUT


class DeadlockError(StreamSyncTimeoutError):
    """A wait that can never finish (for example a blocking callback nobody will process)."""


class TaskError(AclError):
    """A task that failed on a stream, reported at the stream's next synchronize.

    ``code`` is the failed task's own code; ``task`` describes it; ``cause`` is the
    original exception.
    """

    def __init__(self, task: str, cause: BaseException, *, more: int = 0) -> None:
        self.task = task
        self.cause = cause
        self.more = more
        code = cause.code if isinstance(cause, AclError) else ACL_ERROR_RT_INTERNAL_ERROR
        detail = cause.message if isinstance(cause, AclError) else f"{type(cause).__name__}: {cause}"
        msg = f"task {task} failed: {detail}"
        if more:
            msg += f" (and {more} more failed task(s) on this stream)"
        super().__init__(msg, hint=cause.hint if isinstance(cause, AclError) else None, code=code)


class KernelDeadlockError(AclError):
    """Pipes of a kernel wait for flags nothing will set (the hardware would time out).

    ``file``/``line`` locate the first blocked instruction, ``block`` its block (as kernel faults).
    """

    default_code = ACL_ERROR_RT_AICORE_TIMEOUT

    def __init__(self, message: str, *, hint: str | None = None, code: int | None = None, file: str = "",
                 line: int = 0, block: int | None = None) -> None:
        self.file, self.line, self.block = file, line, block
        super().__init__(message, hint=hint, code=code)


class SyncError(AclError, ValueError):
    """A misuse of flags: a set_flag never waited for, or set twice before its wait (a lost
    signal), found by the core model; or a stream the sync passes of ``aclsim.compiler``
    cannot take (a logical wait with no set, a set never waited, a flag that can lose a
    signal), also a ``ValueError`` as a bad argument of those passes.

    ``file``/``line`` locate the offending instruction, ``block`` its block (as kernel faults).

    >>> err = SyncError("line 3: set_flag MTE2 V L0 is never waited", line=3)
    >>> err.code, isinstance(err, ValueError)
    (507015, True)
    """

    default_code = ACL_ERROR_RT_AICORE_EXCEPTION

    def __init__(self, message: str, *, hint: str | None = None, code: int | None = None, file: str = "",
                 line: int = 0, block: int | None = None) -> None:
        self.file, self.line, self.block = file, line, block
        super().__init__(message, hint=hint, code=code)


class LeakWarning(UserWarning):
    """Resources still alive at ``finalize`` (allocations, streams, events, contexts)."""


class DiagnosticWarning(UserWarning):
    """A legal but suspicious use noticed by the runtime (``aclsim.diagnostics()`` lists them)."""


class MemcpyKindWarning(DiagnosticWarning):
    """A copy whose kind does not match where its pointers are.  AscendCL treats the kind as
    reserved and copies in the direction of the pointers, so the copy runs; in strict mode
    (``ACLSIM_STRICT=1``) it is refused with 107016 instead."""


# --- kernel language (aclsim.kernel) ---------------------------------------------------
# Which code a kernel fault carries (documented in docs/dsl_mapping.md, "Faults"):
# - local-buffer overflow (init_buffer past UB / L1 / L0 capacity): the runtime's overflow
#   codes, ACL_ERROR_RT_AIVEC_OVER_FLOW (207016) for UB (vector side) and
#   ACL_ERROR_RT_AICORE_OVER_FLOW (207003) for L1/L0 (cube side);
# - misaligned operands, local accesses outside a tensor's buffer, queue misuse, bad event
#   ids and other instruction faults: the core exception, ACL_ERROR_RT_VECTOR_CORE_EXCEPTION
#   (507035) for instructions on vector-side memory (UB), ACL_ERROR_RT_AICORE_EXCEPTION
#   (507015) for cube-side memory (L1, L0A/L0B/L0C);
# - global-memory accesses outside the pointer's allocation: the trap codes,
#   VECTOR_CORE_TRAP_READ/WRITE_OVERFLOW (507044/507045) when the local side is UB,
#   AICORE_TRAP_READ/WRITE_OVERFLOW (507042/507043) otherwise (GM<->L1, fixpipe).


class KernelContextError(AclError, RuntimeError):
    """A kernel-language call made outside a running kernel (or a kernel called directly)."""

    default_code = ACL_ERROR_INVALID_PARAM


class KernelFault(AclError):
    """A fault of a running kernel, located at the kernel source line that caused it.

    ``file``/``line`` locate the kernel statement, ``block`` is the block that faulted.

    >>> e = KernelFault("UB address 0x10 is not 32 B aligned", file="k.py", line=7, block=2)
    >>> (e.code, e.line, e.block)
    (507015, 7, 2)
    """

    default_code = ACL_ERROR_RT_AICORE_EXCEPTION

    def __init__(self, message: str, *, hint: str | None = None, code: int | None = None, file: str = "",
                 line: int = 0, block: int | None = None) -> None:
        self.file, self.line, self.block = file, line, block
        where = f"{file}:{line}" if file else ""
        if block is not None:
            where = f"{where} (block {block})" if where else f"block {block}"
        super().__init__(f"{message} at {where}" if where else message, hint=hint, code=code)


class LocalMemoryOverflowError(KernelFault):
    """``init_buffer`` sizes past the capacity of a local memory (UB, L1, L0A/L0B/L0C)."""

    default_code = ACL_ERROR_RT_AIVEC_OVER_FLOW

    def __init__(self, space: str, required: int, limit: int, *, hint: str | None = None,
                 code: int | None = None, file: str = "", line: int = 0, block: int | None = None) -> None:
        self.space, self.required, self.limit = space, required, limit
        super().__init__(f"{space} overflow: buffers need {required} B of {limit} B usable", hint=hint,
                         code=code, file=file, line=line, block=block)


class MisalignedAccessError(KernelFault):
    """An operand address or length that breaks the hardware's alignment rules."""

    default_code = ACL_ERROR_RT_VECTOR_CORE_EXCEPTION


class LocalOutOfRangeError(KernelFault):
    """An access outside the local buffer a tensor belongs to."""

    default_code = ACL_ERROR_RT_VECTOR_CORE_EXCEPTION


class GlobalOutOfRangeError(KernelFault):
    """A global-memory access outside the allocation its pointer came from."""

    default_code = ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW


class QueueError(KernelFault):
    """TQue/TPipe misuse: too many buffers per position, no free buffer, empty DeQue, no event id."""

    default_code = ACL_ERROR_RT_VECTOR_CORE_EXCEPTION


class RaceError(KernelFault):
    """Cross-pipe accesses to overlapping memory not ordered by flags or barriers."""

    default_code = ACL_ERROR_RT_AICORE_EXCEPTION


# --- aclnn (the two-phase operator API) ----------------------------------------------


class AclnnError(AclError):
    """Base of the errors of the aclnn layer; ``code`` is an ``aclnnStatus``."""

    default_code = ACLNN_ERR_INNER


class AclnnNullptrError(AclnnError, ValueError):
    """A required argument is missing (NULL in C, ``None`` here)."""

    default_code = ACLNN_ERR_PARAM_NULLPTR


class AclnnParamInvalidError(AclnnError, ValueError):
    """A bad dtype, shape, format, rank, promotion, broadcast or attribute value."""

    default_code = ACLNN_ERR_PARAM_INVALID


class AclnnRuntimeError(AclnnError):
    """A runtime call made by an aclnn API failed (the runtime's error is the cause)."""

    default_code = ACLNN_ERR_RUNTIME_ERROR


class AclnnTilingError(AclnnError, ValueError):
    """The kernel's tiling cannot be planned for these arguments."""

    default_code = ACLNN_ERR_INNER_TILING_ERROR


class AclnnInnerNullptrError(AclnnError, ValueError):
    """An internal object is missing (a ``None`` executor given to the executor calls)."""

    default_code = ACLNN_ERR_INNER_NULLPTR


# --- the single-operator path (acl.op) ------------------------------------------------


class OpNotFoundError(AclError, LookupError):
    """No built-in operator of that type, or none for these descriptors."""

    default_code = ACL_ERROR_OP_NOT_FOUND
