"""The kernel type and the core type a block runs as: ``KERNEL_TASK_TYPE_DEFAULT``,
``ASCEND_IS_AIV``/``ASCEND_IS_AIC``, ``g_coreType``; and ``GetTPipePtr``.

On a split chip (arch 2201: 910B) a kernel's type says which cores a launch starts: the vector
cores only (``KERNEL_TYPE_AIV_ONLY``, ``KERNEL_TYPE_MIX_AIV_1_0``), the cube cores only
(``KERNEL_TYPE_AIC_ONLY``, ``KERNEL_TYPE_MIX_AIC_1_0``), or both in groups of one cube core and
one or two vector cores (``KERNEL_TYPE_MIX_AIC_1_1``, ``KERNEL_TYPE_MIX_AIC_1_2``).  The macro
stands at the top of the kernel's body; in aclsim it is the call
``kernel_task_type_default(KernelMetaType.KERNEL_TYPE_AIV_ONLY)`` there.  A block of a kernel
of one core type then runs as that core: ``ASCEND_IS_AIV`` / ``ASCEND_IS_AIC`` (module
attributes of ``aclsim.kernel`` read inside the kernel, as the macros are read) say which, and
an instruction of the other side's pipes faults (the device's compiler would not build it).

A mixed kernel (``KERNEL_TYPE_MIX_AIC_1_1`` / ``_1_2``, ``__mix__(1, 1)`` / ``__mix__(1, 2)``)
runs its body on every core of every group (:mod:`aclsim.kernel.crosscore`): the first block's
declaration restarts the launch as groups (nothing ran before it: it must be the first
statement that records anything), and each core then sees its own type.  A coupled chip (310P)
has no such types: declaring one there is refused with 207000.  A kernel that declares no type
runs, as before, on one core with every pipe; reading ``ASCEND_IS_AIV`` there is refused, since
the answer would decide which half of a mixed kernel runs.
"""

from __future__ import annotations

import enum
from typing import Any

from aclsim.errors import KernelFault, QueueError
from aclsim.isa import Pipe, Space
from aclsim.kernel._core import Core, UnsupportedFault, current, fault_code


class KernelMetaType(enum.IntEnum):
    """Ascend C's ``KernelMetaType``, in its declaration order."""

    KERNEL_TYPE_AIV_ONLY = 0
    KERNEL_TYPE_AIC_ONLY = 1
    KERNEL_TYPE_MIX_AIV_1_0 = 2
    KERNEL_TYPE_MIX_AIC_1_0 = 3
    KERNEL_TYPE_MIX_AIC_1_1 = 4
    KERNEL_TYPE_MIX_AIC_1_2 = 5
    KERNEL_TYPE_AICORE = 6
    KERNEL_TYPE_VECTORCORE = 7
    KERNEL_TYPE_MIX_AICORE = 8
    KERNEL_TYPE_MIX_VECTOR_CORE = 9


class CoreType(enum.IntEnum):
    """The value of ``g_coreType``: the kind of core a block runs on."""

    AIC = 1
    AIV = 2


KT = KernelMetaType
#: The types each architecture takes (the 设置Kernel类型 page's constraints).
_SUPPORTED = {
    "2201": (KT.KERNEL_TYPE_AIV_ONLY, KT.KERNEL_TYPE_AIC_ONLY, KT.KERNEL_TYPE_MIX_AIV_1_0,
             KT.KERNEL_TYPE_MIX_AIC_1_0, KT.KERNEL_TYPE_MIX_AIC_1_1, KT.KERNEL_TYPE_MIX_AIC_1_2),
    "2002": (KT.KERNEL_TYPE_AICORE, KT.KERNEL_TYPE_MIX_VECTOR_CORE),
}
_VECTOR = (KT.KERNEL_TYPE_AIV_ONLY, KT.KERNEL_TYPE_MIX_AIV_1_0)
_CUBE = (KT.KERNEL_TYPE_AIC_ONLY, KT.KERNEL_TYPE_MIX_AIC_1_0)
_MIXED = (KT.KERNEL_TYPE_MIX_AIC_1_1, KT.KERNEL_TYPE_MIX_AIC_1_2)
#: The pipes a core of each type does not have.
_NOT_ON = {CoreType.AIV: frozenset({Pipe.M, Pipe.MTE1, Pipe.FIX}), CoreType.AIC: frozenset({Pipe.V})}


class MixedRestart(BaseException):  # noqa: N818 - a control signal, not an error
    """Raised by the first block's mixed-kernel declaration: the launch runs again as groups."""

    def __init__(self, kernel_type: KernelMetaType) -> None:
        super().__init__(kernel_type.name)
        self.kernel_type = kernel_type


def mix_ratio(kernel_type: KernelMetaType) -> int:
    """AIVs per AIC of a mixed kernel type (0 for a one-type kernel)."""
    return {KT.KERNEL_TYPE_MIX_AIC_1_1: 1, KT.KERNEL_TYPE_MIX_AIC_1_2: 2}.get(kernel_type, 0)


def kernel_task_type_default(value: KernelMetaType | int) -> None:
    """``KERNEL_TASK_TYPE_DEFAULT(value)``: the kernel's type, stated at the top of its body."""
    _declare(current(), KernelMetaType(value), "KERNEL_TASK_TYPE_DEFAULT")


def kernel_task_type(key: int, value: KernelMetaType | int, tiling_key: int | None = None) -> None:
    """``KERNEL_TASK_TYPE(key, value)``: the type for tiling key ``key``.  aclsim has no tiling-key
    dispatch of its own: pass the launch's ``tiling_key`` and the declaration applies when it is
    ``key`` (it takes precedence over the default, as documented)."""
    if int(key) <= 0:
        raise ValueError(f"KERNEL_TASK_TYPE: the tiling key must be positive, got {key}")
    if tiling_key is not None and int(tiling_key) == int(key):
        _declare(current(), KernelMetaType(value), "KERNEL_TASK_TYPE", override=True)


def _declare(core: Core, value: KernelMetaType, what: str, override: bool = False) -> None:
    supported = _SUPPORTED.get(core.chip.arch_version, ())
    if value not in supported:
        names = ", ".join(t.name for t in supported) or "none"
        core.fault(UnsupportedFault, f"{what}({value.name}) on the {core.chip.name} (arch "
                   f"{core.chip.arch_version}): its kernel types are {names}")
    launch = core.launch
    if value in _MIXED:
        _declare_mixed(core, value, what)
        return
    if launch is not None and getattr(launch, "layout", None) is not None:
        core.fault(KernelFault, f"{what}({value.name}) in a kernel that declared "
                   f"{launch.kernel_type.name} first",
                   hint="declare the kernel type once, the same on every core")
    if launch is not None:
        launch.kernel_type = value
    if core.core_type is not None and not override and core.instrs:
        raise ValueError(f"{what}: the kernel type is declared once, at the top of the kernel's body")
    if value in _VECTOR:
        core.core_type = CoreType.AIV
    elif value in _CUBE:
        core.core_type = CoreType.AIC
    else:  # a coupled chip's AI Core: every pipe, as an undeclared kernel
        core.core_type = None
    core.forbidden = _NOT_ON.get(core.core_type, frozenset()) if core.core_type else frozenset()


def _declare_mixed(core: Core, value: KernelMetaType, what: str) -> None:
    """A mixed type: the first block restarts the launch as groups; a core of a mixed launch checks
    that it is the type its launch runs."""
    launch = core.launch
    layout = getattr(launch, "layout", None)
    if layout is not None:
        if launch.kernel_type is not value:
            core.fault(KernelFault, f"{what}({value.name}) in a launch running as {launch.kernel_type.name}",
                       hint="declare the kernel type once, the same on every core")
        return
    if launch is None:
        core.fault(UnsupportedFault,
                   f"{what}({value.name}): a mixed kernel needs a launch (its groups of cores)")
    if core.block_idx != 0 or core.instrs:
        core.fault(KernelFault, f"{what}({value.name}) after the kernel began: a mixed kernel's type is "
                   "stated first, by every block", hint="make kernel_task_type_default the first statement")
    raise MixedRestart(value)


def core_type() -> CoreType:
    """``g_coreType``: the kind of core this block runs on (a declared kernel type is needed)."""
    core = current()
    if core.core_type is None:
        core.fault(KernelFault,
                   "ASCEND_IS_AIV / ASCEND_IS_AIC / g_coreType read in a kernel with no declared type: "
                   "aclsim runs it on one core with every pipe, so it is neither a cube core nor a vector "
                   "core",
                   hint="declare the type first: kernel_task_type_default(KERNEL_TYPE_AIV_ONLY) (or "
                   "KERNEL_TYPE_AIC_ONLY) at the top of the kernel's body")
    return CoreType(core.core_type)


def ascend_is_aiv() -> bool:
    """``ASCEND_IS_AIV``: whether this block runs on a vector core."""
    return core_type() is CoreType.AIV


def ascend_is_aic() -> bool:
    """``ASCEND_IS_AIC``: whether this block runs on a cube core."""
    return core_type() is CoreType.AIC


def get_tpipe_ptr() -> Any:
    """``GetTPipePtr()``: the block's TPipe (the one its kernel constructed)."""
    core = current()
    if core.pipe is None:
        core.fault(QueueError, "GetTPipePtr before the kernel constructed its TPipe",
                   hint="construct the TPipe first (pipe = TPipe())", code=fault_code(Space.UB))
    return core.pipe


#: The macros a kernel reads as values (``asc.ASCEND_IS_AIV``), computed for the running block.
DYNAMIC = {"ASCEND_IS_AIV": ascend_is_aiv, "ASCEND_IS_AIC": ascend_is_aic, "g_coreType": core_type}


def init_soc_state() -> None:
    """``InitSocState()``: put the block's global state registers back to their defaults, as the
    page lists them for the A2/A3 and inference chips: no atomic store mode, the mask register
    in normal mode with every bit set, the DEQSCALE register back to 1, the CTRL bits aclsim
    models (HF32) off, the loop-mode parameters reset.  (A fresh block starts in that state
    already: the call matters after the kernel changed one of them.)"""
    from aclsim.kernel.mask import RESET
    from aclsim.kernel.quant import DEQSCALE

    core = current()
    core.atomic = None
    core.vmask = RESET
    core.spr.pop(DEQSCALE, None)
    core.hf32 = None
    core.loop_mode = {}
