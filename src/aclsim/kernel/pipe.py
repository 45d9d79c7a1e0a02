"""``TPipe``, ``TQue``/``TQueBind`` and ``TBuf``: local buffers and the queues' flag traffic.

The queue calls emit exactly the flags Ascend C's queues emit (``kernel_tquebind_impl.h``;
reference section 2.2, the queue -> flag table):

- every queue buffer owns one event id of each of its queue's two events, reserved from the
  TPipe's pools at ``init_buffer`` ("each TQue buffer owns a sync eventID"): a flag is one
  signal deep, so the set of a buffer's next use is ordered after the wait of its previous
  use by the buffer's own free/alloc handshake, never by timing alone;
- ``enque`` emits ``set_flag(<enque event>, id)`` with the buffer's id; ``deque`` emits
  ``wait_flag(<enque event>, id)``;
- ``free_tensor`` emits ``set_flag(<free event>, id)``; the next ``alloc_tensor`` of that
  buffer emits ``wait_flag(<free event>, id)``;
- the TPipe's destruction (``pipe.destroy()``, done automatically at the end of the kernel)
  waits for every free event still pending, as ``TPipe::Destroy``/``FreeAllEvent`` do.

Event ids come from one pool per ``HardEvent`` of ``events_per_pipe_pair`` ids (0..7 on
the presets), shared with ``TPipe.alloc_event_id``/``fetch_event_id`` for hand-written
flags.  Queue buffers per position are limited to ``que_buffers_per_position``, because
each buffer may hold one id of each of its two events.
"""

from __future__ import annotations

import enum
from typing import Any

from aclsim.errors import (
    ACL_ERROR_RT_AICORE_OVER_FLOW,
    ACL_ERROR_RT_AIVEC_OVER_FLOW,
    LocalMemoryOverflowError,
    QueueError,
)
from aclsim.isa import HardEvent, Instr, Op, Pipe, Space, wait_flag
from aclsim.kernel._core import (
    LOCAL_SPACES,
    Core,
    as_dtype,
    bytes_elems,
    current,
    dtype_name,
    fault_code,
    space_capacity,
    where,
)
from aclsim.kernel.tensor import POSITION_SPACE, LocalTensor, TPosition

P = TPosition
E = HardEvent

#: (src position, dst position) -> (buffer position, EnQue/DeQue event, FreeTensor/AllocTensor event)
_BINDS: dict[tuple[TPosition, TPosition], tuple[TPosition, HardEvent | None, HardEvent | None]] = {
    (P.GM, P.VECIN): (P.VECIN, E.MTE2_V, E.V_MTE2),
    (P.VECOUT, P.GM): (P.VECOUT, E.V_MTE3, E.MTE3_V),
    (P.VECIN, P.VECOUT): (P.VECIN, E.MTE2_MTE3, E.MTE3_MTE2),
    (P.VECCALC, P.VECCALC): (P.VECCALC, None, None),
    (P.GM, P.A1): (P.A1, E.MTE2_MTE1, E.MTE1_MTE2),
    (P.GM, P.B1): (P.B1, E.MTE2_MTE1, E.MTE1_MTE2),
    (P.GM, P.C1): (P.C1, E.MTE2_MTE1, E.MTE1_MTE2),
    (P.A1, P.A2): (P.A2, E.MTE1_M, E.M_MTE1),
    (P.B1, P.B2): (P.B2, E.MTE1_M, E.M_MTE1),
    (P.C1, P.C2): (P.C2, E.MTE1_M, E.M_MTE1),  # L1 -> bias table (MTE1), read by mmad
    (P.GM, P.TSCM): (P.TSCM, E.MTE2_MTE1, E.MTE1_MTE2),  # TSCM<GM>: a Matmul input whole in L1
    (P.VECOUT, P.TSCM): (P.TSCM, E.MTE3_MTE1, E.MTE1_MTE3),  # TSCM<VECOUT>
    (P.GM, P.A2): (P.A2, E.MTE2_M, E.M_MTE2),
    (P.GM, P.B2): (P.B2, E.MTE2_M, E.M_MTE2),
    (P.VECOUT, P.A1): (P.A1, E.MTE3_MTE1, E.MTE1_MTE3),
    (P.VECOUT, P.B1): (P.B1, E.MTE3_MTE1, E.MTE1_MTE3),
    (P.CO1, P.CO2): (P.CO1, E.M_FIX, E.FIX_M),  # L0C -> GM by FIX on arch 2201
    (P.CO2, P.GM): (P.CO2, E.V_MTE3, E.MTE3_V),  # coupled chips only (CO2 is UB there)
}
_COUPLED_CO1 = (P.CO1, E.M_V, E.V_M)  # L0C -> UB through the vector unit (arch 1001/2002)

#: TQue<pos> as a TQueBind<src, dst>
_QUE_BIND: dict[TPosition, tuple[TPosition, TPosition]] = {
    P.VECIN: (P.GM, P.VECIN),
    P.VECOUT: (P.VECOUT, P.GM),
    P.VECCALC: (P.VECCALC, P.VECCALC),
    P.A1: (P.GM, P.A1),
    P.B1: (P.GM, P.B1),
    P.C1: (P.GM, P.C1),
    P.A2: (P.A1, P.A2),
    P.B2: (P.B1, P.B2),
    P.C2: (P.C1, P.C2),
    P.CO1: (P.CO1, P.CO2),
    P.CO2: (P.CO2, P.GM),
}

BLOCK_BYTES = 32  # init_buffer lengths are rounded up to 32 B
_SET, _WAIT = Op.SET_FLAG.value, Op.WAIT_FLAG.value  # the instructions' op strings (hot: not the enum)
#: HardEvent -> (source pipe, destination pipe), computed once (the enum properties parse names)
EVENT_PIPES: dict[HardEvent, tuple[Pipe, Pipe]] = {e: (e.src, e.dst) for e in HardEvent}


def _space_of(core: Core, pos: TPosition) -> Space:
    if pos is P.CO2:
        if not core.chip.coupled:
            raise ValueError(
                "CO2 is global memory on a split (arch 2201) chip: move L0C results with "
                "fixpipe from a CO1 tensor straight to a GlobalTensor"
            )
        return Space.UB
    space = POSITION_SPACE[pos]
    if space not in LOCAL_SPACES:
        raise ValueError(f"position {pos.name} has no local buffer aclsim models")
    return space


def _check_pipe(core: Core, obj: TQueBind | TBuf) -> None:
    """Fault when a queue or TBuf is used before its ``init_buffer`` or after its TPipe's destroy."""
    pipe = obj.pipe
    if pipe is None:
        core.fault(QueueError, f"{obj!r} used before pipe.init_buffer", code=fault_code(obj.space))
    if pipe.destroyed or obj.epoch != pipe.epoch:
        core.fault(QueueError, f"{obj!r} used after its TPipe was destroyed (its buffers are released)",
                   hint="initialize the buffers again (TPipe.init, then init_buffer), or on a new TPipe",
                   code=fault_code(obj.space))


class _BufState(enum.Enum):
    FREE = "free"
    OCCUPIED = "allocated"
    ENQUE = "enqueued"
    DEQUE = "dequeued"


class _Buf:
    __slots__ = ("offset", "length", "state", "free_id", "enq_id", "free_slot", "enq_slot", "gone", "free_on")

    def __init__(self, offset: int, length: int) -> None:
        self.offset, self.length = offset, length
        self.state = _BufState.FREE
        # (how, file, line) the buffer was given up, while its tensors must not be used
        self.gone: tuple[str, str, int] | None = None
        self.free_id: int | None = None  # the free event's id while its set is pending
        self.free_on: Core | None = None  # the core that recorded that set (a served Matmul's: the AIC)
        self.enq_id: int | None = None  # the enque event's id while its set is pending
        self.free_slot = 0  # the ids this buffer owns
        self.enq_slot = 0


class TPipe:
    """``TPipe``: owns the block's local buffers (``init_buffer``) and the event-id pools.

    One TPipe per block at a time; it is destroyed (pending free events waited for) at the
    end of the kernel, or earlier by :meth:`destroy`.
    """

    def __init__(self) -> None:
        core = current()
        if core.pipe is not None:
            core.fault(
                QueueError,
                "a TPipe is already alive in this block",
                hint="use one TPipe per kernel, or destroy() the first",
                code=fault_code(Space.UB),
            )
        core.pipe = self
        self.core = core
        self.used: dict[Space, int] = dict.fromkeys(LOCAL_SPACES, 0)
        self.que_buffers: dict[TPosition, int] = {}
        self.queues: list[TQueBind] = []
        self._bufs: list[_Buf] = []  # every buffer of init_buffer, released by destroy
        self._ids: dict[HardEvent, int] = {}  # bitmask of reserved ids per event
        self.owners: list[TQueBind | TBuf] = []  # every queue and TBuf given buffers (reset lets go of them)
        self.destroyed = False
        self.epoch = 0  # TPipe.init after destroy: queues and TBufs of an earlier epoch are released

    # --- buffers ---------------------------------------------------------------------------
    def init_buffer(self, que: TQueBind | TBuf, num: int, length: int | None = None) -> bool:
        """``InitBuffer(que, num, len)`` / ``InitBuffer(buf, len)``: ``num`` buffers of ``len`` bytes.

        ``len`` is rounded up to 32 B.  Faults when the buffers do not fit in the memory of
        the position, or a position gets more queue buffers than it has event ids.
        """
        core = self.core
        if isinstance(que, TBuf):
            if length is not None:
                raise TypeError("init_buffer(tbuf, length) takes no buffer count")
            num, length = 1, num
        elif not isinstance(que, TQueBind):
            raise TypeError(f"init_buffer needs a TQue, TQueBind or TBuf, got {type(que).__name__}")
        if length is None:
            raise TypeError("init_buffer(que, num, length) needs a length")
        num, length = int(num), int(length)
        if num < 1 or length < 1:
            raise ValueError(f"init_buffer needs num >= 1 and length >= 1, got num={num}, length={length}")
        if self.destroyed:
            core.fault(QueueError, "init_buffer on a TPipe after its destroy()", code=fault_code(Space.UB),
                       hint="create a new TPipe for the next phase of the kernel")
        if que.pipe is not None and (que.pipe is not self or que.epoch == self.epoch):
            raise ValueError(f"{que!r} was already initialized")
        space = _space_of(core, que.position)
        length = -(-length // BLOCK_BYTES) * BLOCK_BYTES
        start = self.used[space]
        need = start + num * length
        limit = space_capacity(core.chip, space)
        if need > limit:
            file, line = where(2)
            code = ACL_ERROR_RT_AIVEC_OVER_FLOW if space is Space.UB else ACL_ERROR_RT_AICORE_OVER_FLOW
            raise LocalMemoryOverflowError(
                space.value,
                need,
                limit,
                code=code,
                file=file,
                line=line,
                block=core.block_idx,
                hint=f"shrink the tiles or the buffer count: {space.value} has "
                f"{limit} B usable on {core.chip.name}",
            )
        if isinstance(que, TQueBind):
            count = self.que_buffers.get(que.position, 0) + num
            limit_q = core.chip.que_buffers_per_position
            if count > limit_q:
                core.fault(
                    QueueError,
                    f"{count} queue buffers at position {que.position.name}, more than the "
                    f"{limit_q} event ids allow",
                    hint="use fewer queues or buffers per position, or TBuf for buffers that need no queue",
                    code=fault_code(space),
                )
            self.que_buffers[que.position] = count
            self.queues.append(que)
        if core.options.fill_nan:
            core.arenas[space][start:need] = 0xFF
        bufs = [_Buf(start + i * length, length) for i in range(num)]
        if isinstance(que, TQueBind):
            for buf in bufs:  # each queue buffer owns one id of each of its events
                if que.enq_evt is not None:
                    buf.enq_slot = self.alloc_event_id(que.enq_evt)
                if que.free_evt is not None:
                    buf.free_slot = self.alloc_event_id(que.free_evt)
        que._setup(self, space, bufs)
        self.owners.append(que)
        self._bufs.extend(bufs)
        self.used[space] = need
        return True

    # --- event ids -------------------------------------------------------------------------
    def _lowest_free(self, evt: HardEvent) -> int:
        used = self._ids.get(evt, 0)
        n = self.core.chip.events_per_pipe_pair
        for i in range(n):
            if not used >> i & 1:
                return i
        self.core.fault(
            QueueError,
            f"all {n} event ids of {evt.name} are in use",
            hint="release event ids (deque/alloc_tensor/release_event_id) before taking more",
        )

    def alloc_event_id(self, evt: HardEvent) -> int:
        """``AllocEventID<evt>()``: reserve the lowest free id until :meth:`release_event_id`."""
        i = self._lowest_free(evt)
        self._ids[evt] = self._ids.get(evt, 0) | (1 << i)
        return i

    def release_event_id(self, evt: HardEvent, event_id: int) -> None:
        """``ReleaseEventID<evt>(id)``."""
        self._ids[evt] = self._ids.get(evt, 0) & ~(1 << int(event_id))

    def fetch_event_id(self, evt: HardEvent) -> int:
        """``FetchEventID<evt>()``: the lowest free id, NOT reserved (two fetches may collide)."""
        return self._lowest_free(evt)

    def destroy(self) -> None:
        """``Destroy()``: wait for pending free events of every queue; the buffers are gone (their
        tensors, queues and TBufs fault when used afterwards)."""
        file, line = where(2)
        self.end_block(file, line, "released by TPipe.destroy")

    def _drain_unit_flags(self, file: str, line: int) -> None:
        """Wait for the unit-flag hand-offs nobody waited for (their ids are the pipe's)."""
        unit = self.core.unit
        if unit is not None:
            unit.drain(self.core, file, line)
            self.core.unit = None

    def reset(self) -> None:
        """``Reset()``: wait for the pending free events of every queue (as ``destroy``), release every
        buffer (their tensors fault when used afterwards) and every event id, and start again from an
        empty TPipe: its queues and TBufs may be given buffers again by ``init_buffer``."""
        file, line = where(2)
        if self.destroyed:
            self.core.fault(QueueError, "reset of a TPipe after its destroy()", code=fault_code(Space.UB),
                            hint="create a new TPipe, or init() this one again")
        self._restart("released by TPipe.reset", file, line)

    def _restart(self, how: str, file: str, line: int) -> None:
        for que in self.queues:
            que.drain_free_events(file, line)
        self._drain_unit_flags(file, line)
        for buf in self._bufs:
            buf.gone = (how, file, line)
        for obj in self.owners:
            obj.pipe = None
        self.used = dict.fromkeys(LOCAL_SPACES, 0)
        self.que_buffers, self.queues, self._bufs, self._ids, self.owners = {}, [], [], {}, []

    def init(self) -> None:
        """``Init()``: start this TPipe again with no buffers and every event id free (Ascend C's
        ``ResetPool``; the constructor already did it once).  After ``destroy()`` the TPipe lives
        again (the documented reuse: ``Destroy()``, then ``Init()``, then ``InitBuffer`` of the same
        or new queues); the queues and TBufs of before stay released until given buffers again.
        On a live TPipe it works as :meth:`reset`: aclsim also waits for the queues' pending free
        events there (the device's ``Init`` drops them without waiting, which would leave a flag set;
        a kernel that relies on that differs here), and the buffers of before are released (their
        tensors fault when used)."""
        file, line = where(2)
        core = self.core
        if not self.destroyed:
            self._restart("released by TPipe.init", file, line)
        elif core.pipe is not None and core.pipe is not self:
            core.fault(QueueError, "TPipe.init: another TPipe is alive in this block",
                       hint="destroy() the other TPipe first: one TPipe per block at a time",
                       code=fault_code(Space.UB))
        else:
            self.used = dict.fromkeys(LOCAL_SPACES, 0)
            self.que_buffers, self._ids = {}, {}
            self.destroyed = False
            core.pipe = self
        self.epoch += 1

    def end_block(self, file: str, line: int, how: str = "released at the end of the kernel") -> None:
        """What ``Destroy`` does, called by the launch when a block's kernel function returns
        (pending flags located at ``file:line``, the kernel's ``def`` line); a no-op once
        destroyed.

        The pipe lets go of its queues: no TPipe <-> TQue cycle outlives the block (the launch
        pauses the cyclic GC, so a cycle would keep the block's local memory until its end).
        """
        if self.destroyed:
            return
        for que in self.queues:
            que.drain_free_events(file, line)
        self._drain_unit_flags(file, line)
        for buf in self._bufs:
            buf.gone = (how, file, line)
        self.destroyed = True
        self.queues, self._bufs, self.owners = [], [], []
        if self.core.pipe is self:
            self.core.pipe = None


class TQueBind:
    """``TQueBind<src, dst, depth>``: a queue of local buffers moving data from ``src`` to ``dst``."""

    def __init__(self, src: TPosition, dst: TPosition, depth: int = 1) -> None:
        key = (TPosition(src), TPosition(dst))
        if key not in _BINDS:
            raise ValueError(
                f"aclsim has no queue from {key[0].name} to {key[1].name}; supported: "
                + ", ".join(f"{a.name}->{b.name}" for a, b in _BINDS)
            )
        if int(depth) < 0:
            raise ValueError(f"queue depth must be >= 0, got {depth}")
        self.src, self.dst, self.depth = key[0], key[1], int(depth)
        self.position, self.enq_evt, self.free_evt = _BINDS[key]
        self.pipe: TPipe | None = None
        self.epoch = 0  # the TPipe's epoch when given buffers (TPipe.init)
        self.space = Space.UB
        self.bufs: list[_Buf] = []
        self._cursor = 0
        self._fifo: list[tuple[_Buf, LocalTensor]] = []

    def _setup(self, pipe: TPipe, space: Space, bufs: list[_Buf]) -> None:
        if self.position is P.CO1 and pipe.core.chip.coupled:
            self.position, self.enq_evt, self.free_evt = _COUPLED_CO1
        self.pipe, self.space, self.bufs, self.epoch = pipe, space, bufs, pipe.epoch
        self._cursor, self._fifo = 0, []  # a queue given buffers again after TPipe.reset starts empty

    def _core(self) -> Core:
        core = current()
        if self.pipe is None or self.pipe.destroyed or self.epoch != self.pipe.epoch:
            _check_pipe(core, self)
        return core

    def _emit(self, core: Core, op: str, evt: HardEvent, event_id: int,
              loc: tuple[str, int] | None = None) -> None:
        """Record the queue's ``set_flag`` (``op`` ``_SET``) or ``wait_flag`` (``_WAIT``) of ``evt``."""
        file, line = loc or where(3)
        src, dst = EVENT_PIPES[evt]
        core.instrs.append(Instr(src if op is _SET else dst, op, src=src, dst=dst, event_id=event_id,
                                 file=file, line=line))

    def _find(self, core: Core, tensor: LocalTensor, what: str) -> _Buf:
        if tensor.space is self.space:
            for b in self.bufs:
                if b.offset <= tensor.offset < b.offset + b.length:
                    return b
        core.fault(
            QueueError,
            f"{what} of {tensor!r}, which is not a buffer of {self!r}",
            code=fault_code(self.space),
        )

    # --- the four calls ------------------------------------------------------------------------
    def alloc_tensor(self, dtype: Any) -> LocalTensor:
        """``AllocTensor<T>()``: the next free buffer; waits for its free event if pending."""
        core = self._core()
        dt = as_dtype(dtype)
        n = len(self.bufs)
        for _ in range(n):
            buf = self.bufs[self._cursor]
            self._cursor = (self._cursor + 1) % n
            if buf.state is _BufState.FREE:
                break
        else:
            core.fault(
                QueueError,
                f"alloc_tensor on {self!r} with no free buffer: all {n} are "
                + ", ".join(b.state.value for b in self.bufs),
                hint="free_tensor a buffer before allocating another (the hardware would hang)",
                code=fault_code(self.space),
            )
        if buf.free_id is not None:
            assert self.free_evt is not None and self.pipe is not None
            self._emit(core, _WAIT, self.free_evt, buf.free_id)
            buf.free_id = None
        buf.state = _BufState.OCCUPIED
        buf.gone = None
        if core.options.fill_nan:
            core.arenas[self.space][buf.offset : buf.offset + buf.length] = 0xFF
        return LocalTensor(
            core,
            dt,
            self.space,
            buf.offset,
            bytes_elems(dt, buf.length),
            buf.offset + buf.length,
            self.position,
            buf,
        )

    def enque(self, tensor: LocalTensor) -> bool:
        """``EnQue(tensor)``: the producer pipe is done with it (``set_flag`` of the enque event)."""
        core = self._core()
        buf = self._find(core, tensor, "enque")
        if buf.state is not _BufState.OCCUPIED and buf.state is not _BufState.DEQUE:
            core.fault(
                QueueError, f"enque of a buffer that is {buf.state.value}", code=fault_code(self.space)
            )
        if self.depth >= 1 and len(self._fifo) >= self.depth:
            core.fault(
                QueueError,
                f"enque on {self!r} already holding {len(self._fifo)} tensor(s), its depth",
                hint="deque before enqueuing again, or create the queue with a larger depth",
                code=fault_code(self.space),
            )
        if self.enq_evt is not None:
            assert self.pipe is not None
            buf.enq_id = buf.enq_slot
            self._emit(core, _SET, self.enq_evt, buf.enq_id)
        buf.state = _BufState.ENQUE
        self._fifo.append((buf, tensor))
        return True

    def deque(self, dtype: Any = None) -> LocalTensor:
        """``DeQue<T>()``: the oldest enqueued tensor; the consumer pipe waits for the enque event."""
        core = self._core()
        if not self._fifo:
            core.fault(
                QueueError,
                f"deque on {self!r} with nothing enqueued (the hardware would hang)",
                code=fault_code(self.space),
            )
        buf, tensor = self._fifo.pop(0)
        if buf.enq_id is not None:
            assert self.enq_evt is not None and self.pipe is not None
            self._emit(core, _WAIT, self.enq_evt, buf.enq_id)
            buf.enq_id = None
        buf.state = _BufState.DEQUE
        if dtype is not None and as_dtype(dtype) != tensor.dtype:
            tensor = tensor.reinterpret_cast(dtype)
        return tensor

    def free_tensor(self, tensor: LocalTensor) -> None:
        """``FreeTensor(tensor)``: the consumer pipe is done with the buffer (``set_flag``, free event)."""
        core = self._core()
        buf = self._find(core, tensor, "free_tensor")
        if buf.state is _BufState.FREE or buf.state is _BufState.ENQUE:
            what = "already free (a double free_tensor)" if buf.state is _BufState.FREE else "still enqueued"
            core.fault(QueueError, f"free_tensor of a buffer that is {what}", code=fault_code(self.space))
        loc = where(2)
        if self.free_evt is not None:
            assert self.pipe is not None
            buf.free_id, buf.free_on = buf.free_slot, core
            self._emit(core, _SET, self.free_evt, buf.free_id, loc)
        buf.state = _BufState.FREE
        buf.gone = ("freed by free_tensor", *loc)

    # --- queries -------------------------------------------------------------------------------
    def vacant_in_que(self) -> bool:
        return self.depth < 1 or len(self._fifo) < self.depth

    def has_tensor_in_que(self) -> bool:
        return bool(self._fifo)

    def get_tensor_count_in_que(self) -> int:
        return len(self._fifo)

    def has_idle_buffer(self) -> bool:
        return any(b.state is _BufState.FREE for b in self.bufs)

    def free_all_event(self) -> None:
        """``FreeAllEvent()``: wait for the pending free events of every buffer."""
        file, line = where(2)
        self.drain_free_events(file, line)

    def drain_free_events(self, file: str, line: int) -> None:
        """Wait for every pending free event of the queue (recorded on the core that set each)."""
        if self.pipe is None:
            return
        for buf in self.bufs:
            if buf.free_id is not None:
                assert self.free_evt is not None
                core = buf.free_on or self.pipe.core  # the wait goes where its set is
                core.instrs.append(
                    wait_flag(self.free_evt.src, self.free_evt.dst, buf.free_id, file=file, line=line)
                )
                buf.free_id = None

    def __repr__(self) -> str:
        name = type(self).__name__
        what = self.position.name if name == "TQue" else f"{self.src.name}->{self.dst.name}"
        return f"<{name} {what} x{len(self.bufs)} depth {self.depth}>"


class TQue(TQueBind):
    """``TQue<pos, depth>``: VECIN, VECOUT, VECCALC, A1, A2, B1, B2, C1, C2, CO1, CO2.

    >>> TQue(TPosition.VECIN, 1).enq_evt.name
    'MTE2_V'
    """

    def __init__(self, position: TPosition, depth: int = 1) -> None:
        pos = TPosition(position)
        if pos not in _QUE_BIND:
            raise ValueError(f"no TQue at position {pos.name}")
        super().__init__(*_QUE_BIND[pos], depth=depth)


class TBuf:
    """``TBuf<pos>``: one temporary buffer with no queue and no flags (VECCALC by default)."""

    def __init__(self, position: TPosition = TPosition.VECCALC) -> None:
        self.position = TPosition(position)
        self.pipe: TPipe | None = None
        self.epoch = 0  # the TPipe's epoch when given its buffer (TPipe.init)
        self.space = Space.UB
        self.offset = 0
        self.length = 0
        self._buf: _Buf | None = None

    def _setup(self, pipe: TPipe, space: Space, bufs: list[_Buf]) -> None:
        self.pipe, self.space, self.offset, self.length = pipe, space, bufs[0].offset, bufs[0].length
        self._buf, self.epoch = bufs[0], pipe.epoch
        self._buf.state = _BufState.OCCUPIED

    def get(self, dtype: Any, length: int | None = None) -> LocalTensor:
        """``Get<T>()`` / ``Get<T>(len)``: the buffer (or its first ``len`` elements) as a tensor."""
        return self.get_with_offset(dtype, length, 0)

    def get_with_offset(self, dtype: Any, size: int | None, buf_offset: int) -> LocalTensor:
        """``GetWithOffset<T>(size, bufOffset)``: ``size`` elements at byte ``buf_offset``."""
        core = current()
        _check_pipe(core, self)
        dt = as_dtype(dtype)
        room = bytes_elems(dt, self.length - int(buf_offset))
        n = room if size is None else int(size)
        if buf_offset < 0 or n > room:
            core.fault(
                QueueError,
                f"TBuf of {self.length} B cannot hold {n} x {dtype_name(dt)} at byte {buf_offset}",
                code=fault_code(self.space),
            )
        return LocalTensor(
            core, dt, self.space, self.offset + int(buf_offset), n, self.offset + self.length, self.position,
            self._buf,
        )

    def __repr__(self) -> str:
        return f"<TBuf {self.position.name} {self.length}B>"
