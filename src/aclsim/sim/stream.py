"""One block's recorded instructions turned into integers, once per launch, for the scheduler.

:func:`prepare` gives each instruction its kind, pipe, dense flag number (and the ordinal of
a wait among the waits of its flag) and, from the cost model, its fixed duration or its bytes
and path rate when it moves global memory; :func:`durations` draws a wave's durations (with
jitter, or fixed at the path rate when the wave cannot contend for HBM).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from aclsim.isa import EXEC_PIPES, Instr, Op, Pipe, Space
from aclsim.sim.costs import CostModel

_SET, _WAIT, _BARRIER, _SYNC_ALL = (Op.SET_FLAG.value, Op.WAIT_FLAG.value, Op.PIPE_BARRIER.value,
                                    Op.SYNC_ALL.value)
NPIPES = len(EXEC_PIPES)
_GM = Space.GM

#: Instruction kinds (what the scheduler does with each); XSET / XWAIT: the cross-core flags of
#: mixed kernels (kernel/crosscore.py), whose ops the kernel language names as below.
WORK, SET, WAIT, BARRIER, FENCE, XSET, XWAIT = range(7)
XSET_OP, XWAIT_OP, MIX_OP = "cross_core_set_flag", "cross_core_wait_flag", "mix_core"
_KIND = {_SET: SET, _WAIT: WAIT, _BARRIER: BARRIER, _SYNC_ALL: FENCE, XSET_OP: XSET, XWAIT_OP: XWAIT}
_ALL = int(Pipe.ALL)
_S = int(Pipe.S)


@dataclass(slots=True)
class Stream:
    """One block's instructions turned into integers, once per launch (see :func:`prepare`)."""

    instrs: Sequence[Instr]
    kinds: list[int]
    pipes: list[int]
    flag_of: list[int]  # dense flag number of a set/wait
    wait_ord: list[int]  # a wait pairs with the set of the same ordinal
    blocking: list[bool]  # holds back the issue of later instructions until it completes
    queues: list[list[int]]  # per pipe: its instructions, in order
    set_index: list[list[int]]  # per flag: its sets, in order
    wait_index: list[list[int]]  # per flag: its waits, in order
    fences: list[int]  # the sync_all instructions, in order
    durs: list[float]  # cycles, except global-memory transfers (0 here; see gm_*)
    busy: list[float]  # per pipe: the cycles of ``durs``
    work: list[int]  # the work instructions, in order (jitter scales these)
    gm_idx: list[int]  # the global-memory transfers ...
    gm_bytes: list[int]  # ... their bytes ...
    gm_rate: list[float]  # ... their path rates ...
    gm_copy: list[float]  # ... the fixed cost of each copy on its pipe ...
    gm_hbm: list[float]  # ... the bytes each draws from device memory (L2 misses, write-backs) ...
    gm_lat: list[float]  # ... and its latency (cycles from its last byte leaving to its end)
    gm_read: int
    gm_write: int
    demand: float  # bytes per cycle this block's pipes could draw from global memory at once


def prepare(instrs: Sequence[Instr], costs: CostModel) -> Stream:
    """Turn a stream into integers (kind, pipe, dense flag number, the ordinal of a wait among
    the waits of its flag, fixed durations) so that the scheduling loop touches only lists."""
    n = len(instrs)
    kinds = [0] * n
    pipes: list[int] = [0] * n
    flag_of = [0] * n
    wait_ord = [0] * n
    durs = [0.0] * n
    blocking = [False] * n
    queues: list[list[int]] = [[] for _ in range(NPIPES + 1)]
    flag_ids: dict[tuple[Any, Any, Any], int] = {}
    set_index: list[list[int]] = []
    wait_index: list[list[int]] = []
    fences: list[int] = []
    work: list[int] = []
    gm_idx: list[int] = []
    gm_bytes: list[int] = []
    gm_rate: list[float] = []
    gm_copy: list[float] = []
    movers: dict[int, float] = {}
    kind_of = _KIND.get
    flag_get = flag_ids.get
    shape_of = costs.work
    busy = [0.0] * (NPIPES + 1)
    gm_read = gm_write = 0
    for i, ins in enumerate(instrs):
        pipe = ins.pipe
        kind = kind_of(ins.op, WORK)
        if kind == WORK:
            d, nb, rate, rd, wr, copy = shape_of(ins)
            work.append(i)
            if rd or wr:
                if rd:
                    gm_read += nb
                if wr:
                    gm_write += nb
            if rate:
                if rate > movers.get(pipe, 0.0):
                    movers[pipe] = rate
                gm_idx.append(i)
                gm_bytes.append(nb)
                gm_rate.append(rate)
                gm_copy.append(copy)
            else:
                durs[i] = d
                busy[pipe] += d
            if pipe == _S:
                blocking[i] = True
        elif kind <= WAIT:
            fk = (ins.src, ins.dst, ins.event_id)
            f = flag_get(fk)
            if f is None:
                f = flag_ids[fk] = len(set_index)
                set_index.append([])
                wait_index.append([])
            flag_of[i] = f
            if kind == SET:
                set_index[f].append(i)
            else:
                waits = wait_index[f]
                wait_ord[i] = len(waits)
                waits.append(i)
                if pipe == _S:
                    blocking[i] = True
        elif kind == XWAIT:  # holds back the issue of every later instruction (A2/A3)
            blocking[i] = True
        elif kind == XSET:
            pass
        elif kind == FENCE or pipe == _ALL:
            if kind == FENCE:
                fences.append(i)
            kind = FENCE
            pipe = Pipe.ALL
            blocking[i] = True
        kinds[i] = kind
        pipes[i] = pipe
        queues[pipe].append(i)
    return Stream(instrs, kinds, pipes, flag_of, wait_ord, blocking, queues, set_index, wait_index, fences,
                  durs, busy, work, gm_idx, gm_bytes, gm_rate, gm_copy, [float(b) for b in gm_bytes],
                  [float(costs.chip.gm_latency_cycles)] * len(gm_idx), gm_read, gm_write,
                  sum(movers.values()))


def durations(st: Stream, jitter: tuple[float, float] | None, rng: random.Random, fixed: bool
              ) -> tuple[list[float], list[float], list[float], list[float]]:
    """``(durations, busy cycles per pipe, latency of each global-memory transfer, its bytes)``.

    A global-memory transfer's duration is the time it holds its pipe: ``-1`` when the
    device-memory model times it (:class:`~aclsim.sim.hbm.Hbm`), or with ``fixed`` (a wave
    that cannot contend for device memory) its copy cost plus its bytes at the path rate; its
    latency follows, overlapping the pipe's next instruction; the scheduler adds to the busy
    cycles the part of it that nothing else on the pipe covers.
    ``jitter`` scales every duration, and the latency and bytes of every transfer, by U(lo, hi).
    """
    durs, busy = st.durs, st.busy
    lat: list[float] = list(st.gm_lat)
    nbytes: list[float] = list(st.gm_bytes)
    if jitter is not None:
        lo, hi = jitter
        uniform = rng.uniform
        durs = durs[:]
        busy = [0.0] * (NPIPES + 1)
        pipes = st.pipes
        for i in st.work:
            d = durs[i] = durs[i] * uniform(lo, hi)
            busy[pipes[i]] += d
    if st.gm_idx:
        if durs is st.durs:
            durs = durs[:]
        for j, i in enumerate(st.gm_idx):
            durs[i] = -1.0
            if jitter is not None:
                u = uniform(lo, hi)
                lat[j], nbytes[j] = lat[j] * u, nbytes[j] * u
            if fixed:
                if busy is st.busy:
                    busy = busy[:]
                d = durs[i] = st.gm_copy[j] + nbytes[j] / st.gm_rate[j]
                busy[st.pipes[i]] += d  # the scheduler adds the latency where nothing covers it
    return durs, busy, lat, nbytes
