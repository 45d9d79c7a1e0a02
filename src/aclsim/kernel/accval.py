"""``GetReduceRepeatSumSpr`` and its older name ``GetAccVal``: the sum register of ``ReduceSum``.

The count form of ``ReduceSum(dst, src, work, count)`` leaves its result in a special register
(ACC_VAL) as well as in ``dst[0]``; the scalar unit reads it with ``GetReduceRepeatSumSpr<T>()``
(``GetAccVal<T>()``), after a ``V_S`` flag, as the real kernels do (ops-nn's norm kernels:
``SetFlag<HardEvent::V_S>``, ``WaitFlag``, ``GetAccVal<float>()``).  Without the type argument
(``GetAccVal()``, ``GetReduceRepeatSumSpr()``) the register's raw 64 bits come back as an integer:
the result's bits in the low 16 (half) or 32 (float) bits, the rest 0 (kernels then reinterpret
the low word as a float).

Documented scope (the GetReduceRepeatSumSpr page): half and float, after the count form of
``ReduceSum`` only ("tensor前n个数据连续计算接口"); Atlas A2/A3 (arch 2201), not the 310P (its
library reports the call as not supported: refused with 207000 here).  On a cube core (AIC) of
a split chip the library returns 0 without reading the register, and so does aclsim.

How aclsim models the register: ``reduce_sum``'s count form stores the result it wrote to
``dst[0]`` and that element's UB range; reading the register is recorded as a scalar (PIPE_S)
instruction reading that range, so the race sanitizer asks for the ``V_S`` ordering the device
needs.  (A later vector write to that ``dst`` element, unordered with the read, is then reported
too, although the device's register would not change: order it or read the register first.)
The mask form of ``reduce_sum`` leaves the register undefined as far as the page says: a read
after it (or before any ``reduce_sum``) is refused with 207000 rather than returning a stale value.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from aclsim.isa import NO_COST, Access, Pipe
from aclsim.kernel._core import Core, UnsupportedFault, as_dtype, current, dtype_name, float16, float32
from aclsim.kernel.coretype import CoreType

#: The key of the ACC_VAL register in ``Core.spr``: ``(raw int64 bits, dtype, Access)`` or ``None``
#: (undefined: the last ``reduce_sum`` was the mask form).
ACC_VAL = "acc_val"


def set_acc_val(core: Core, dst: Any, counted: bool) -> None:
    """Called by ``reduce_sum`` once it wrote ``dst[0]``: the count form loads the register with
    that result, the mask form leaves it undefined."""
    if not counted:
        core.spr[ACC_VAL] = None
        return
    dt = dst.dtype
    raw = dst.view[:1].copy().view(np.uint16 if dt.itemsize == 2 else np.uint32)[0]
    core.spr[ACC_VAL] = (int(raw), dt, dst.access(dt.itemsize))


def _read(name: str) -> tuple[Core, tuple[int, np.dtype, Access] | None]:
    core = current()
    if core.chip.arch_version == "2002":
        core.fault(UnsupportedFault, f"{name}: not available on {core.chip.name} (the library reports it as "
                   "not supported on the Atlas inference series)",
                   hint="read the sum from dst[0] of reduce_sum (get_value after a V_S flag)")
    if core.core_type is CoreType.AIC:
        return core, None
    reg = core.spr.get(ACC_VAL)
    if reg is None:
        core.fault(UnsupportedFault, f"{name}: the sum register holds no result aclsim models: no count-form "
                   "reduce_sum ran before it in this block, or the last one was the mask form (the page "
                   "documents the register after ReduceSum(dst, src, work, count) only)",
                   hint="call reduce_sum(dst, src, work, count) before reading the register")
    core.emit(Pipe.S, name, (reg[2],), (), NO_COST)
    return core, reg


def get_reduce_repeat_sum_spr(dtype: Any = None) -> Any:
    """``GetReduceRepeatSumSpr<T>()``: the result of the last count-form ``reduce_sum``, as ``T`` (half or
    float, the ``reduce_sum``'s type); ``GetReduceRepeatSumSpr()`` (no ``dtype``): the register's raw bits as
    an integer (int64).  0 on a cube core.

    >>> # inside a kernel: reduce_sum(dst, src, work, 128); set_flag/wait_flag(V_S)
    >>> # total = get_reduce_repeat_sum_spr(float32)
    """
    return _get("get_reduce_repeat_sum_spr", dtype)


def get_acc_val(dtype: Any = None) -> Any:
    """``GetAccVal<T>()`` / ``GetAccVal()``: the older name of :func:`get_reduce_repeat_sum_spr`."""
    return _get("get_acc_val", dtype)


def _get(name: str, dtype: Any) -> Any:
    dt = None if dtype is None else as_dtype(dtype)
    if dt is not None and dt not in (float16, float32):
        raise TypeError(f"{name}: T must be half or float, got {dtype_name(dt)}")
    _, reg = _read(name)
    if reg is None:  # a cube core: the library returns 0
        return np.int64(0) if dt is None else dt.type(0)
    raw = reg[0]
    if dt is None:
        return np.int64(raw)
    bits = np.array([raw], np.uint16 if dt.itemsize == 2 else np.uint32)
    return bits.view(dt)[0]


__all__ = ["get_acc_val", "get_reduce_repeat_sum_spr"]
