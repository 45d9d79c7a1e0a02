"""Adapters of the section "Matmul callbacks" (api_cxx.txt): C++ functions as the Python Matmul's
``MatmulCallBackFunc``, IterateBatch's mix-mode forms and ``WaitIterateBatch``, the constant tiling's
``constexpr`` fields.

A C++ callback (``MatmulCallBackFunc<DataCopyOut, CopyA1, CopyB1>``) runs through a trampoline of
``aclsim_ascendc_mmcb.h``: ``int trampoline(const int64_t* words)``, the callback's arguments as 64-bit
words (a tensor as a handle of the bridge, a GM address as the host address the C++ side reads), 0 when
the callback returned, else non-zero with the error kept by the bridge (a bridged call in the callback
failed: C++ unwound the callback's frames to the trampoline).  The Python Matmul calls it on the block's
thread, inside the bridged call that copies (``Iterate``, ``GetTensorC``, ``IterateAll``, ``IterateBatch``),
with the GIL held as the block's own entry is called.  While the callback runs, each of its bridged calls
names its own C++ line; when it returns, the kernel layer's source location and the bridge's current call
are those of the call that copies again, and an error of the callback is raised there as it was raised in
the callback (it unwinds the outer call like any failed bridged call).
"""

from __future__ import annotations

import ctypes
import dataclasses
import weakref
from collections.abc import Callable
from typing import Any, Protocol

import aclsim.kernel as asc
from aclsim.errors import KernelFault
from aclsim.kernel.matmul_config import DataCopyOutParams, MatmulCallBackFunc

__all__ = ["bind", "matmul_init_constant", "matmul_iterate_batch", "matmul_set_callbacks",
           "matmul_wait_iterate_batch"]


class _Bridge(Protocol):
    """What the callbacks need of the library's bridge (aclsim.ascendc.bridge.Bridge)."""

    where: tuple[str, int]

    def handle(self, obj: Any) -> int: ...

    def to_host(self, device: int) -> int: ...

    def take_error(self) -> BaseException | None: ...


_bound: list[_Bridge] = []


def bind(bridge: _Bridge) -> None:
    """Called by the library's init code after the bridge is installed (aclsim.ascendc.build)."""
    _bound[:] = [bridge]


def _bridge() -> _Bridge:
    if not _bound:  # pragma: no cover - the library binds it before any kernel runs
        raise RuntimeError("aclsim.ascendc.adapters.mmcb: the library's bridge is not bound")
    return _bound[0]


#: a trampoline of aclsim_ascendc_mmcb.h, called with the GIL held (as a block's entry)
_TRAMPOLINE = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_int64))

_TWO63, _TWO64 = 1 << 63, 1 << 64


def _word(value: Any) -> int:
    """A value as an int64 word (a uint64 above 2**63: its bits)."""
    v = int(value)
    return v - _TWO64 if v >= _TWO63 else v


def _run(fn: Any, name: str, values: list[int]) -> None:
    """Call a trampoline; restore the caller's source location; raise the callback's error."""
    b = _bridge()
    at = asc.source_location(None)  # the call that copies (its C++ line; the bridge's where)
    asc.set_source_location(at)
    where = at if at is not None else ("", 0)
    words = (ctypes.c_int64 * len(values))(*[_word(v) for v in values])
    try:
        rc = fn(words)
    finally:
        asc.set_source_location(at)
    if rc != 0:
        exc = b.take_error()
        if exc is None:  # pragma: no cover - the trampoline keeps an error for each failure
            exc = KernelFault(f"the Matmul callback {name} failed", file=where[0], line=where[1])
        raise exc


def _gm(value: Any) -> int:
    """A GM address as the host address the C++ callback dereferences (0: none)."""
    return _bridge().to_host(int(value)) if value is not None else 0


def _copy_in(address: int, name: str) -> Callable[..., None]:
    """``CopyA1(aMatrix, gm, row, col, useM, useK, tilingPtr, dataPtr)`` (``CopyB1`` alike) in C++."""
    fn = _TRAMPOLINE(address)

    def copy(matrix: Any, gm: Any, row: int, col: int, use_h: int, use_w: int, tiling_ptr: Any,
             data_ptr: Any) -> None:
        _run(fn, name, [_bridge().handle(matrix), _gm(gm), row, col, use_h, use_w, tiling_ptr, data_ptr])

    copy.__qualname__ = copy.__name__ = name
    return copy


_PARAM_FIELDS = tuple(f.name for f in dataclasses.fields(DataCopyOutParams))


def _copy_out(address: int) -> Callable[..., None]:
    """``DataCopyOut(gm, co1Local, &params, tilingPtr, dataPtr)`` in C++ (``params``: the
    ``DataCopyOutParams`` row's fields in order)."""
    fn = _TRAMPOLINE(address)

    def copy(gm: Any, co1_local: Any, params: DataCopyOutParams, tiling_ptr: Any, data_ptr: Any) -> None:
        fields = [getattr(params, f) for f in _PARAM_FIELDS]
        _run(fn, "DataCopyOut", [_gm(gm), _bridge().handle(co1_local), tiling_ptr, data_ptr, *fields])

    copy.__qualname__ = copy.__name__ = "DataCopyOut"
    return copy


def matmul_set_callbacks(mm: Any, data_copy_out: int, copy_a1: int, copy_b1: int) -> None:
    """``Matmul<..., MatmulCallBackFunc<DataCopyOut, CopyA1, CopyB1>>``'s constructor: the trampolines'
    addresses (0: the library's own copy) as the Python Matmul's callbacks."""
    mm.cb = MatmulCallBackFunc(
        _copy_out(data_copy_out) if data_copy_out else None,
        _copy_in(copy_a1, "CopyA1") if copy_a1 else None,
        _copy_in(copy_b1, "CopyB1") if copy_b1 else None,
    )


#: the objects whose last IterateBatch was asynchronous with waitIterateBatch (WaitIterateBatch waits for it)
_async_batches: weakref.WeakSet[Any] = weakref.WeakSet()


def matmul_iterate_batch(mm: Any, dst: Any, batch_a: int, batch_b: int, en_sequential_write: Any,
                         stride_a: int, stride_b: int, stride_c: int, en_partial_sum: Any, en_atomic: int,
                         sync: Any, wait_iterate_batch: Any) -> None:
    """``IterateBatch<sync, waitIterateBatch>(gm or ub, batchA, batchB, enSequentialWrite, strideA,
    strideB, strideC, enPartialSum, enAtomic)``, the mix-mode form: ``SetBatchNum(batchA, batchB)``
    then the pure-cube ``IterateBatch``.  The asynchronous mode (``sync`` false) is for GM only, as in
    Ascend C; aclsim computes the batches when the call is made, so the results are in GM when it
    returns (``WaitIterateBatch`` then returns at once)."""
    if not sync and isinstance(dst, asc.LocalTensor):
        raise ValueError("IterateBatch<false> (the asynchronous mode) writes to GM only: Ascend C does not "
                         "support it to VECIN; use IterateBatch<true> for a LocalTensor")
    mm.set_batch_num(batch_a, batch_b)
    mm.iterate_batch(dst, bool(en_partial_sum), int(en_atomic), bool(en_sequential_write), int(stride_a),
                     int(stride_b), int(stride_c))
    _async_batches.discard(mm)
    if not sync and wait_iterate_batch:
        _async_batches.add(mm)


def matmul_wait_iterate_batch(mm: Any) -> None:
    """``WaitIterateBatch()``: after an ``IterateBatch<false, true>`` (Ascend C asserts the asynchronous
    mode); the batches are computed already."""
    if mm not in _async_batches:
        raise ValueError("WaitIterateBatch with no IterateBatch<false, true> (the asynchronous mode with "
                         "waitIterateBatch) to wait for: Ascend C asserts the asynchronous mode here")
    _async_batches.discard(mm)


#: TCubeTiling's fields (the C++ struct's order)
_TILING_FIELDS = tuple(f.name for f in dataclasses.fields(asc.TCubeTiling))


def matmul_init_constant(mm: Any, fields: Any, l1_size: int, tpipe: Any = None) -> None:
    """``mm.Init(nullptr)`` / ``REGIST_MATMUL_OBJ(..., mm, nullptr)`` of a Matmul whose ``MM_CFG`` is a
    ``MatmulApiStaticTiling``: the constant tiling of its types and config (``get_matmul_api_tiling``,
    with a bias when the config's ``enable_set_bias`` is set, as Ascend C's ``isBias =
    mmCFG.enableSetBias``), where each field the constant sets (``fields``, the constant's values as a
    ``TCubeTiling``; -1: not set) replaces the computed one: what ``GetMatmulApiTiling`` fixed when the
    kernel was compiled and what the kernel changed in it (``constantCFG.stepKa = 2``)."""
    bias = mm.bias_type if mm.cfg.enable_set_bias else None
    static = asc.get_matmul_api_tiling(mm.a_type, mm.b_type, mm.c_type, bias, mm.cfg, int(l1_size))
    tiling = static.tiling
    values = {name: int(getattr(fields, name)) for name in _TILING_FIELDS}
    changes = {name: v for name, v in values.items() if v != -1}
    mm.init(dataclasses.replace(tiling, **changes), tpipe)
