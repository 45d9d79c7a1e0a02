"""Mixed AIC + AIV kernels and the cross-core flags: ``CrossCoreSetFlag`` / ``CrossCoreWaitFlag``,
``GetTaskRatio``.

On the split architecture (910B, arch 2201) a kernel of type ``KERNEL_TYPE_MIX_AIC_1_1`` or
``KERNEL_TYPE_MIX_AIC_1_2`` (``__mix__(1, 1)`` / ``__mix__(1, 2)``) launched with ``numBlocks`` N
runs N groups, each one cube core (AIC) and one or two vector cores (AIV); the kernel's body runs
on every core of every group (``ASCEND_IS_AIC`` / ``ASCEND_IS_AIV`` say which).  Indices, as the
GetBlockIdx / GetBlockNum / GetSubBlockIdx / GetSubBlockNum / GetTaskRatio pages give them:

=================  ===========  =====================================
                   AIC          AIV (ratio r = 1 or 2, sub in [0, r))
=================  ===========  =====================================
GetBlockIdx        g in [0, N)  g * r + sub, in [0, r * N)
GetBlockNum        N            N
GetSubBlockIdx     0            sub
GetSubBlockNum     1            r
GetTaskRatio       1            r
=================  ===========  =====================================

aclsim numbers the cores of such a launch group by group: AIC g is core ``g * (1 + r)``, its
AIVs follow it (:class:`MixLayout`); a launch's ``streams`` are per core in that order.

Cross-core flags (the CrossCoreSetFlag page): every core has 16 counters, one per flag id
(an id is cut to its low 4 bits).  ``CrossCoreSetFlag<mode, pipe>(id)`` reports, once the
earlier work of ``pipe`` is done, that this core reached the set; when every core that the mode
involves has reported its k-th set, the counter ``id`` of every receiving core goes up by one:

- mode 0: all the cores of the setter's type in the launch, which are also the receivers;
- mode 1: the AIVs of one group (both set, both receive);
- mode 2: from the AIC, its group's AIVs receive; from the AIVs, once all of them set, the AIC.

``CrossCoreWaitFlag(id)`` blocks the issue of every later instruction of its core (on the A2/A3
the mode and pipe of the wait do not take effect) until the counter is non-zero, then takes one
off.  A counter holds 0 - 15: a set that would take it to 16 is an AI Core exception (507015),
as the page says.  Functionally a core parks at a wait that cannot pass and the others run
(:mod:`aclsim.kernel.blocks`); a wait that no running core can ever satisfy is a deadlock
(507014) naming the core, the flag id and the line.  Each wait records which sets it consumed,
so the core model starts it no earlier than they completed (plus the chip's cross-core flag
latency), and the sanitizer takes each set -> wait as a happens-before edge between cores.

The flags need the scheduling module, which a ``KERNEL_TYPE_AIV_ONLY`` / ``AIC_ONLY`` (or
undeclared) kernel does not start: there the calls are refused with 207000 (on the device they
would not synchronize).  They do not exist on the coupled 310P (207000 too).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from aclsim.errors import ACL_ERROR_RT_AICORE_EXCEPTION, KernelFault
from aclsim.isa import Cost, Instr, Pipe
from aclsim.kernel._core import Core, UnsupportedFault, current, where
from aclsim.kernel.blocks import Waiting
from aclsim.kernel.coretype import _NOT_ON, CoreType, KernelMetaType
from aclsim.kernel.crossrace import MIX_OP, XSET_OP, XWAIT_OP, check_cross_core_races

#: Counters per core and the most a counter holds (the CrossCoreSetFlag page).
FLAG_IDS, COUNTER_MAX = 16, 15

KT = KernelMetaType
_SCHEDULED = (KT.KERNEL_TYPE_MIX_AIV_1_0, KT.KERNEL_TYPE_MIX_AIC_1_0, KT.KERNEL_TYPE_MIX_AIC_1_1,
              KT.KERNEL_TYPE_MIX_AIC_1_2)
_SET_PIPES = (Pipe.V, Pipe.M, Pipe.MTE1, Pipe.MTE2, Pipe.MTE3, Pipe.FIX)


@dataclass(frozen=True)
class MixLayout:
    """The cores of a mixed launch: ``groups`` (numBlocks) groups of one AIC and ``ratio`` AIVs.

    >>> lay = MixLayout(2, 2)
    >>> [lay.name(u) for u in range(lay.units)]
    ['AIC 0', 'AIV 0', 'AIV 1', 'AIC 1', 'AIV 2', 'AIV 3']
    >>> lay.unit(CoreType.AIV, 3), lay.sub(5), lay.block_idx(5)
    (5, 1, 3)
    """

    groups: int
    ratio: int

    @property
    def size(self) -> int:
        return 1 + self.ratio

    @property
    def units(self) -> int:
        return self.groups * self.size

    def kind(self, u: int) -> CoreType:
        return CoreType.AIC if u % self.size == 0 else CoreType.AIV

    def group(self, u: int) -> int:
        return u // self.size

    def sub(self, u: int) -> int:
        return 0 if u % self.size == 0 else u % self.size - 1

    def block_idx(self, u: int) -> int:
        g = self.group(u)
        return g if self.kind(u) is CoreType.AIC else g * self.ratio + self.sub(u)

    def unit(self, kind: CoreType, block_idx: int) -> int:
        if kind is CoreType.AIC:
            return block_idx * self.size
        g, sub = divmod(block_idx, self.ratio)
        return g * self.size + 1 + sub

    def name(self, u: int) -> str:
        return f"{self.kind(u).name} {self.block_idx(u)}"

    def of_kind(self, kind: CoreType) -> tuple[int, ...]:
        return tuple(u for u in range(self.units) if self.kind(u) is kind)

    def aivs_of(self, g: int) -> tuple[int, ...]:
        return tuple(range(g * self.size + 1, (g + 1) * self.size))


@dataclass
class CrossCoreState:
    """The flag counters of a launch's cores while it runs (one core runs at a time)."""

    counters: dict[tuple[int, int], int] = field(default_factory=dict)  # (core, id) -> count
    #: (core, id) -> per pending increment, the sets ((core, set ordinal), ...) that made it
    pending: dict[tuple[int, int], deque[tuple[tuple[int, int], ...]]] = field(default_factory=dict)
    tallies: dict[tuple[Any, ...], dict[int, list[int]]] = field(default_factory=dict)  # round key -> sets
    rounds: dict[tuple[Any, ...], int] = field(default_factory=dict)
    nsets: dict[int, int] = field(default_factory=dict)  # core -> its cross-core sets so far
    sync_sets: dict[tuple[Any, int], list[int]] = field(default_factory=dict)  # (members, core) -> ordinals
    ib_last: dict[int, tuple[int, int]] = field(default_factory=dict)  # IBSet flag address -> (core, ordinal)

    def next_ordinal(self, unit: int) -> int:
        k = self.nsets.get(unit, 0)
        self.nsets[unit] = k + 1
        return k

    def report(self, key: tuple[Any, ...], unit: int, ordinal: int, members: tuple[int, ...],
               receivers: tuple[int, ...], flag: int) -> tuple[int, int] | None:
        """Core ``unit``'s set ``ordinal`` of round ``key``; when every member has reported the
        round, one increment to each receiver's counter ``flag``.  Returns ``(core, count)`` of a
        counter the increment would take past :data:`COUNTER_MAX` (nothing changed then)."""
        tally = self.tallies.setdefault(key, {})
        tally.setdefault(unit, []).append(ordinal)
        r = self.rounds.get(key, 0)
        if any(len(tally.get(m, ())) <= r for m in members):
            return None
        for v in receivers:
            if self.counters.get((v, flag), 0) >= COUNTER_MAX:
                tally[unit].pop()
                return v, COUNTER_MAX + 1
        self.rounds[key] = r + 1
        sets = tuple((m, tally[m][r]) for m in members)
        for v in receivers:
            self.counters[(v, flag)] = self.counters.get((v, flag), 0) + 1
            self.pending.setdefault((v, flag), deque()).append(sets)
        return None


def start_mixed_core(core: Core, layout: MixLayout, u: int) -> None:
    """Make a fresh core core ``u`` of a mixed launch: its type, the pipes it lacks, and the
    stream's first instruction, a zero-cost marker telling the core model the core's type and the
    group's ratio."""
    kind = layout.kind(u)
    core.core_type = kind
    core.forbidden = _NOT_ON[kind]
    core.add(Instr(Pipe.S, MIX_OP, cost=Cost(cycles=0, core=kind.name, ratio=layout.ratio)))


def _state(core: Core) -> tuple[Any, CrossCoreState]:
    launch = core.launch
    if launch is None or launch.blocks is None:
        core.fault(UnsupportedFault, "cross-core flags need a launched kernel (its cores run together)")
    if launch.cross is None:
        launch.cross = CrossCoreState()
    return launch, launch.cross


def unit_of(core: Core) -> int:
    """The index of ``core`` among its launch's cores (the block index of a one-type launch)."""
    layout = getattr(core.launch, "layout", None)
    if layout is None:
        return core.block_idx
    return layout.unit(CoreType(core.core_type), core.block_idx)


def _checked(core: Core, name: str) -> KernelMetaType:
    """The launch's kernel type, if it starts the scheduling module the flags need; else a fault."""
    chip = core.chip
    if chip.coupled or chip.arch_version != "2201":
        core.fault(UnsupportedFault, f"{name} does not exist on the {chip.name} (arch {chip.arch_version}): "
                   "cross-core flags are an Atlas A2/A3 (split AIC + AIV) feature",
                   hint="synchronize the blocks with sync_all (the software form on a coupled chip)")
    kt = getattr(core.launch, "kernel_type", None)
    if kt not in _SCHEDULED:
        shown = "no declared kernel type" if kt is None else kt.name
        core.fault(UnsupportedFault,
                   f"{name} in a kernel with {shown}: the device starts the cross-core scheduling module "
                   "only for the MIX kernel types, so these flags would not synchronize anything",
                   hint="declare kernel_task_type_default(KERNEL_TYPE_MIX_AIV_1_0) (vector only), "
                   "KERNEL_TYPE_MIX_AIC_1_0 (cube only) or KERNEL_TYPE_MIX_AIC_1_1 / _1_2 at the top of the "
                   "body")
    return KernelMetaType(kt)


def _round(core: Core, unit: int, mode: int, flag: int, name: str
           ) -> tuple[tuple[Any, ...], tuple[int, ...], tuple[int, ...]]:
    """``(round key, members, receivers)`` of a set by core ``unit`` in ``mode``."""
    launch = core.launch
    layout: MixLayout | None = launch.layout
    kind = CoreType(core.core_type)
    if mode == 0:
        members = layout.of_kind(kind) if layout is not None else tuple(range(core.block_num))
        return (0, kind, flag), members, members
    if mode == 4:
        core.fault(UnsupportedFault, f"{name}: mode 4 (an AIC and one AIV) exists on the Ascend 950 only",
                   hint="use mode 2 on the Atlas A2/A3")
    if mode not in (1, 2):
        core.fault(KernelFault, f"{name}: mode {mode} is not a cross-core sync mode (0, 1 or 2 on this chip)",
                   hint="mode 0: all cores of one type; 1: the AIVs of a group; 2: an AIC and its AIVs")
    if layout is None:
        core.fault(UnsupportedFault, f"{name}: mode {mode} synchronizes the cores of one AIC + AIV group, "
                   f"which a {launch.kernel_type.name} kernel does not have",
                   hint="declare KERNEL_TYPE_MIX_AIC_1_1 or KERNEL_TYPE_MIX_AIC_1_2")
    g = layout.group(unit)
    if mode == 1:
        if kind is CoreType.AIC:
            core.fault(KernelFault,
                       f"{name}: mode 1 synchronizes the AIVs of a group; an AIC cannot take part",
                       hint="use mode 2 between the AIC and its AIVs")
        aivs = layout.aivs_of(g)
        return (1, g, flag), aivs, aivs
    if kind is CoreType.AIC:
        return (2, g, "aic", flag), (unit,), layout.aivs_of(g)
    return (2, g, "aiv", flag), layout.aivs_of(g), (g * layout.size,)


def cross_core_set_flag(mode_id: int, pipe: Pipe | int, flag_id: int) -> None:
    """``CrossCoreSetFlag<modeId, pipe>(flagId)``: report this core's set once the earlier work of
    ``pipe`` is done (V, M, MTE1, MTE2, MTE3 or FIX; the core must have that pipe)."""
    core = current()
    name = "CrossCoreSetFlag"
    file, line = where(2)
    _checked(core, name)
    p = Pipe(pipe)
    if p not in _SET_PIPES:
        core.fault(UnsupportedFault, f"{name}<{mode_id}, PIPE_{p.name}>: the pipe must be one of "
                   + ", ".join(f"PIPE_{q.name}" for q in _SET_PIPES) + " (not PIPE_S / PIPE_ALL)",
                   hint="name the pipe whose earlier work the other cores wait for")
    if p in core.forbidden:
        side = "vector" if p is not Pipe.V else "cube"
        core.fault(UnsupportedFault, f"{name}<{mode_id}, PIPE_{p.name}> on a {side} core, which has no "
                   f"PIPE_{p.name}", hint="set the flag on a pipe of this core")
    launch, st = _state(core)
    unit = unit_of(core)
    flag = int(flag_id) & (FLAG_IDS - 1)
    key, members, receivers = _round(core, unit, int(mode_id), flag, name)
    ordinal = st.next_ordinal(unit)
    over = st.report(key, unit, ordinal, members, receivers, flag)
    if over is not None:
        st.nsets[unit] -= 1
        who = launch.layout.name(over[0]) if launch.layout is not None else f"block {over[0]}"
        core.fault(KernelFault, f"{name}<{mode_id}>({flag}): the counter of flag {flag} on {who} would reach "
                   f"{over[1]}; a counter holds 0 - {COUNTER_MAX} (sets not yet waited for)",
                   hint="wait for the flag on the receiving core before setting it again",
                   code=ACL_ERROR_RT_AICORE_EXCEPTION)
    core.add(Instr(p, XSET_OP, event_id=flag, cost=Cost(mode=int(mode_id), ordinal=ordinal, unit=unit),
                   file=file,
                   line=line))


def cross_core_wait_flag(*args: Any) -> None:
    """``CrossCoreWaitFlag(flagId)`` (or ``CrossCoreWaitFlag<modeId, pipe>(flagId)``: pass
    ``mode_id, pipe, flag_id``; on the A2/A3 they do not take effect): block the issue of this core's
    later instructions until its counter ``flagId`` is non-zero, then take one off."""
    core = current()
    name = "CrossCoreWaitFlag"
    file, line = where(2)
    if len(args) not in (1, 3):
        raise TypeError("cross_core_wait_flag(flag_id) or cross_core_wait_flag(mode_id, pipe, flag_id)")
    _checked(core, name)
    launch, st = _state(core)
    unit = unit_of(core)
    flag = int(args[-1]) & (FLAG_IDS - 1)
    key = (unit, flag)
    who = launch.layout.name(unit) if launch.layout is not None else f"block {unit}"
    launch.blocks.park(unit, lambda: st.counters.get(key, 0) > 0,
                       Waiting(f"CrossCoreWaitFlag({flag}) on {who}", file, line))
    st.counters[key] -= 1
    deps = st.pending[key].popleft()
    core.add(Instr(Pipe.S, XWAIT_OP, event_id=flag, cost=Cost(deps=deps), file=file, line=line))


def notify_event(pipe: Pipe | int, flag_id: int) -> None:
    """``NotifyEvent<pipe>(flagId)``: not on the API pages; Ascend C's block-sync header defines it on
    the A2/A3 as ``CrossCoreSetFlag<2, pipe>(flagId)`` (the AIC <-> AIV hand-off), and so does aclsim."""
    cross_core_set_flag(2, pipe, flag_id)


def wait_event(flag_id: int) -> None:
    """``WaitEvent(flagId)`` (``WaitEvent<pipe>``: the pipe does not take effect on the A2/A3): Ascend C's
    block-sync header defines it as ``CrossCoreWaitFlag(flagId)``."""
    cross_core_wait_flag(flag_id)


def get_task_ratio() -> int:
    """``GetTaskRatio()`` (also spelt ``GetTaskRation``): AIVs per AIC of a mixed kernel on an AIV
    (``GetTaskRatio() * GetBlockNum()`` cores of this type run), 1 elsewhere."""
    core = current()
    layout = getattr(core.launch, "layout", None)
    if layout is None or core.core_type is not CoreType.AIV:
        return 1
    return int(layout.ratio)


get_task_ration = get_task_ratio


def sync_all_mixed(core: Core, is_aiv_only: bool, file: str, line: int) -> None:
    """``SyncAll`` in a mixed kernel: ``SyncAll<false>`` syncs every core of the launch,
    ``SyncAll<true>`` (the default) the AIVs.  Recorded as the device implements it (with
    cross-core flags): a barrier of the core's pipes, a set, and a wait for every member's set."""
    launch, st = _state(core)
    layout: MixLayout = launch.layout
    unit = unit_of(core)
    if is_aiv_only and core.core_type is CoreType.AIC:
        core.fault(UnsupportedFault, "sync_all() (SyncAll<isAIVOnly=true>) on the AIC of a mixed kernel: it "
                   "synchronizes the AIVs only", hint="call sync_all(is_aiv_only=False) on every core")
    members = layout.of_kind(CoreType.AIV) if is_aiv_only else tuple(range(layout.units))
    core.add(Instr(Pipe.ALL, "pipe_barrier", file=file, line=line))
    ordinal = st.next_ordinal(unit)
    st.sync_sets.setdefault((members, unit), []).append(ordinal)
    core.add(Instr(Pipe.S, XSET_OP, event_id=None, cost=Cost(mode="sync_all", ordinal=ordinal, unit=unit),
                   file=file,
                   line=line))
    k = len(st.sync_sets[(members, unit)])
    launch.blocks.arrive(unit, file, line, members)
    deps = tuple((m, st.sync_sets[(members, m)][k - 1]) for m in members)
    core.add(Instr(Pipe.S, XWAIT_OP, event_id=None, cost=Cost(deps=deps), file=file, line=line))


__all__ = ["COUNTER_MAX", "FLAG_IDS", "MIX_OP", "XSET_OP", "XWAIT_OP", "CrossCoreState", "MixLayout",
           "check_cross_core_races", "cross_core_set_flag", "cross_core_wait_flag", "get_task_ratio",
           "get_task_ration", "notify_event", "start_mixed_core", "sync_all_mixed", "unit_of",
           "wait_event"]
