"""Multi-core kernels: ``SyncAll``, ``GetSubBlockIdx/Num``, workspaces, ``InitGlobalMemory``.

- ``sync_all()`` (``SyncAll<isAIVOnly>()``, the hardware barrier) and ``sync_all(gm_workspace,
  ub_workspace, used_cores)`` (the software one): no block goes past its k-th ``sync_all`` before
  every block of the launch has reached its own.  Recorded as the ``sync_all`` instruction the core
  model schedules (``Pipe.ALL``: a strong sync, every earlier instruction of the block done); run
  functionally by parking the block (:mod:`aclsim.kernel.blocks`).
- ``get_sub_block_idx()`` / ``get_sub_block_num()``: in a mixed AIC + AIV kernel the index of an
  AIV in its group (0 or 1) and the AIVs per group (1 or 2), 0 of 1 on the AIC; a one-type kernel
  sees 0 of 1 (the ``GetSubBlockNum`` table; :mod:`aclsim.kernel.crosscore`).
- In a mixed kernel ``sync_all()`` (``SyncAll<true>``) syncs the AIVs, ``sync_all(is_aiv_only=False)``
  every core; it is recorded as the device implements it, with cross-core flags.
- Workspaces: the host allocates ``user bytes + sys_workspace_size(chip)`` (Ascend C's
  ``GetLibApiWorkSpaceSize``) and passes it as the kernel's ``workspace`` argument; the system
  workspace is its start, the user's part follows it (``get_user_workspace``).
- ``init_global_memory(gm, size, value)`` (``InitGlobalMemory`` / ``Fill``) and ``init_output``
  (the older ``InitOutput``): fill ``size`` elements of global memory with ``value`` the way
  Ascend C does it: ``duplicate`` into the UB the TPipe has not handed out, a V -> MTE3 flag,
  ``data_copy_pad`` stores, a ``pipe_barrier(PIPE_MTE3)``.
"""

from __future__ import annotations

from typing import Any

from aclsim.arch import ChipSpec, get_chip
from aclsim.errors import KernelFault, QueueError
from aclsim.isa import HardEvent, Instr, Op, Pipe, Space
from aclsim.kernel._core import UnsupportedFault, as_dtype, current, fault_code, int32, space_capacity, where
from aclsim.kernel.copy import DataCopyExtParams, data_copy_pad
from aclsim.kernel.coretype import CoreType
from aclsim.kernel.crosscore import sync_all_mixed
from aclsim.kernel.elementwise import duplicate
from aclsim.kernel.gm import GmAddr
from aclsim.kernel.sync import pipe_barrier, set_flag, wait_flag
from aclsim.kernel.tensor import GlobalTensor, LocalTensor, TPosition

MiB = 1024 * 1024
#: The system workspace Ascend C reserves at the start of a kernel's workspace, by arch
#: (``RESERVED_WORKSPACE`` in kernel_utils_constants.h; ``GetLibApiWorkSpaceSize`` on the host).
SYS_WORKSPACE_BYTES = {"1001": 2 * MiB, "2002": 2 * MiB, "2201": 16 * MiB, "3002": 16 * MiB,
                       "3102": 16 * MiB, "3510": 16 * MiB}


def sys_workspace_size(chip: str | ChipSpec) -> int:
    """``PlatformAscendC::GetLibApiWorkSpaceSize()``: bytes of system workspace a kernel's workspace
    starts with on ``chip`` (host side: add it to the user's workspace size when allocating).

    >>> sys_workspace_size("910B") // 2**20, sys_workspace_size("310P") // 2**20
    (16, 2)
    """
    spec = get_chip(chip)
    return SYS_WORKSPACE_BYTES.get(spec.arch_version, 2 * MiB)


def reserved_workspace() -> int:
    """``RESERVED_WORKSPACE`` read in a kernel: :func:`sys_workspace_size` of the chip the kernel runs
    on (Ascend C's is a constant of the chip it is built for)."""
    return sys_workspace_size(current().chip)


def set_sys_workspace(workspace: GmAddr | int) -> None:
    """``SetSysWorkspace(workspace)``: the kernel's workspace pointer (system part first); the first
    call wins, as in Ascend C."""
    core = current()
    if core.sys_workspace is None:
        core.sys_workspace = int(workspace)


def get_sys_workspace_ptr() -> GmAddr | None:
    """``GetSysWorkSpacePtr()``: the system workspace set by ``set_sys_workspace`` (None before)."""
    ws = current().sys_workspace
    return None if ws is None else GmAddr(ws)


def get_user_workspace(workspace: GmAddr | int) -> GmAddr:
    """``GetUserWorkspace(workspace)``: the user's part of the workspace, ``sys_workspace_size`` bytes
    past its start (the workspace set by ``set_sys_workspace`` if any, else ``workspace``)."""
    core = current()
    base = core.sys_workspace if core.sys_workspace is not None else int(workspace)
    return GmAddr(base + SYS_WORKSPACE_BYTES.get(core.chip.arch_version, 2 * MiB))


def get_sub_block_idx() -> int:
    """``GetSubBlockIdx()``: on an AIV of a mixed kernel its index in its group (0 or 1); else 0."""
    core = current()
    layout = getattr(core.launch, "layout", None)
    if layout is None or core.core_type != CoreType.AIV:
        return 0
    return int(core.block_idx % layout.ratio)


def get_sub_block_num() -> int:
    """``GetSubBlockNum()``: on an AIV of a mixed 1:2 kernel 2; else 1 (one core of its type per
    logical core)."""
    core = current()
    layout = getattr(core.launch, "layout", None)
    if layout is None or core.core_type != CoreType.AIV:
        return 1
    return int(layout.ratio)


def sync_all(gm_workspace: GlobalTensor | None = None, ub_workspace: LocalTensor | None = None,
             used_cores: int = 0, *, is_aiv_only: bool = True) -> None:
    """``SyncAll<isAIVOnly>()`` or ``SyncAll(gmWorkspace, ubWorkspace, usedCores)``: wait until every
    block of the launch reached this point (its k-th ``sync_all``).

    The software form checks its operands as Ascend C states them: ``gm_workspace`` int32 with at
    least ``block_num * 32`` B, ``ub_workspace`` int32 in VECIN/VECCALC/VECOUT with as many;
    ``used_cores`` 0 (every block) or the block count (a subset of the blocks is not modelled).
    aclsim does not write the flag values the device keeps in ``gm_workspace``.  The hardware form
    is not available on a coupled (arch 2002) chip: use the software form there.
    """
    core = current()
    file, line = where(2)
    name = "sync_all"
    if gm_workspace is None and ub_workspace is None:
        if core.chip.coupled:
            core.fault(UnsupportedFault,
                       f"{name}(): the hardware SyncAll is not available on {core.chip.name} "
                       f"(arch {core.chip.arch_version})",
                       hint="use the software form sync_all(gm_workspace, ub_workspace) on this chip")
    else:
        _check_soft(core, gm_workspace, ub_workspace, int(used_cores))
    launch = core.launch
    if launch is not None and getattr(launch, "layout", None) is not None:
        sync_all_mixed(core, is_aiv_only, file, line)
        return
    # every block of a one-type launch is one core of one type: both forms sync them all
    core.add(Instr(Pipe.ALL, Op.SYNC_ALL.value, file=file, line=line))
    if launch is not None and launch.blocks is not None and core.block_num > 1:
        launch.blocks.arrive(core.block_idx, file, line)


def _check_soft(core: Any, gm: GlobalTensor | None, ub: LocalTensor | None, used: int) -> None:
    need = core.block_num * 32
    if not isinstance(gm, GlobalTensor) or not isinstance(ub, LocalTensor):
        raise TypeError("sync_all(gm_workspace, ub_workspace, used_cores) takes a GlobalTensor and a "
                        "LocalTensor")
    if gm.dtype != int32 or ub.dtype != int32:
        raise TypeError(f"sync_all: the workspaces hold int32, got {gm.dtype} and {ub.dtype}")
    if gm.size * 4 < need:
        core.fault(KernelFault,
                   f"sync_all: gm_workspace holds {gm.size * 4} B, needs block_num * 32 = {need} B",
                   hint="allocate at least 32 B per block, zeroed before the launch")
    if ub.position not in (TPosition.VECIN, TPosition.VECCALC, TPosition.VECOUT) or ub.size * 4 < need:
        core.fault(KernelFault,
                   f"sync_all: ub_workspace must be VECIN/VECCALC/VECOUT with {need} B, got {ub!r}",
                   code=fault_code(Space.UB))
    if used not in (0, core.block_num):
        core.fault(UnsupportedFault,
                   f"sync_all: used_cores={used} of {core.block_num} blocks: a barrier of part of the "
                   "blocks is not modelled", hint="synchronize every block (used_cores=0)")


# --- InitGlobalMemory ---------------------------------------------------------------------------

MAX_REPEAT_TIMES = 255


def _fill(gm: GlobalTensor, size: int, value: Any, burst: int, name: str) -> None:
    core = current()
    if not isinstance(gm, GlobalTensor):
        raise TypeError(f"{name} fills a GlobalTensor, got {type(gm).__name__}")
    size = int(size)
    if size < 0:
        raise ValueError(f"{name}: size must be >= 0, got {size}")
    pipe = core.pipe
    if pipe is None:
        core.fault(QueueError, f"{name} needs a TPipe: it fills global memory through the UB the TPipe has "
                   "not handed out", hint="create the TPipe first", code=fault_code(Space.UB))
    dt = as_dtype(gm.dtype)
    start = -(-pipe.used[Space.UB] // 32) * 32
    room = (space_capacity(core.chip, Space.UB) - start) // dt.itemsize
    if room * dt.itemsize < 32:
        core.fault(QueueError, f"{name}: no UB left past the TPipe's buffers ({start} B used)",
                   hint="leave at least 32 B of UB free", code=fault_code(Space.UB))
    pop = min(room, burst // dt.itemsize)
    buf = LocalTensor(core, dt, Space.UB, start, pop, start + room * dt.itemsize, TPosition.VECCALC)
    rounds, tail = divmod(size, pop)
    duplicate(buf, dt.type(value), pop)
    eid = pipe.fetch_event_id(HardEvent.V_MTE3)
    set_flag(HardEvent.V_MTE3, eid)
    wait_flag(HardEvent.V_MTE3, eid)
    for r in range(rounds):
        data_copy_pad(gm[r * pop], buf, DataCopyExtParams(1, pop * dt.itemsize, 0, 0))
    if tail:
        data_copy_pad(gm[rounds * pop], buf, DataCopyExtParams(1, tail * dt.itemsize, 0, 0))
    pipe_barrier(Pipe.MTE3)


def init_global_memory(gm: GlobalTensor, size: int, value: Any) -> None:
    """``InitGlobalMemory(gm, size, value)`` (``Fill``): set ``size`` elements of ``gm`` to ``value``."""
    _fill(gm, size, value, MAX_REPEAT_TIMES * 256, "init_global_memory")


def init_output(gm: GlobalTensor, size: int, value: Any = 0) -> None:
    """``InitOutput<T>(gm, size, value)`` (deprecated in Ascend C for ``Fill``): as
    ``init_global_memory`` with bursts of at most 255 x 32 B.  Ascend C compiles it to nothing on
    arch 2002: aclsim refuses it there."""
    core = current()
    if core.chip.arch_version == "2002":
        core.fault(UnsupportedFault, f"init_output does nothing on {core.chip.name} (arch 2002) in "
                   "Ascend C", hint="use init_global_memory (InitGlobalMemory / Fill)")
    _fill(gm, size, value, MAX_REPEAT_TIMES * 32, "init_output")
