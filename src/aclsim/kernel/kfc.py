"""A mixed kernel's high-level Matmul: the AIC serves its AIVs' requests (Ascend C's KFC path).

On the split chips (Atlas A2/A3) the cube and the vector units are separate cores.  In a mixed
kernel (``KERNEL_TYPE_MIX_AIC_1_1`` / ``_1_2``; what the CPU-debug host runs by default, CANN's
``MIX_MODE``) that calls the high-level Matmul from its vector code, ``REGIST_MATMUL_OBJ`` does two
different things, as Ascend C's ``matmul_intf.h`` has it:

- on the AIC it starts the Matmul *server*: the AIC serves the Matmul requests of its group's AIVs
  until they are done, then the kernel returns there (the macro's ``return``); nothing after
  ``REGIST_MATMUL_OBJ`` runs on the AIC;
- on an AIV each registered object becomes a *client*: its computing calls (``Iterate``,
  ``GetTensorC``, ``IterateAll``, ``IterateBatch``, ``End``...) are messages to the group's AIC,
  which runs them with its cube pipes; a result for the vector core (``GetTensorC`` into a VECIN
  tensor) goes through the workspace in global memory, the AIV copying it into UB.

aclsim models this as follows.  The AIC parks at ``REGIST_MATMUL_OBJ`` until every AIV of its
group has ended (the deadlock check names it when an AIV waits for something else forever).  A
client call runs on the AIV's thread with the kernel layer's current core switched to the group's
AIC, so every instruction it issues is recorded on the AIC's stream (and timed there); the object's
L1 / L0 buffers lie where its TPipe put them on the AIC, their data kept per client (the AIV's
arenas stand in for the AIC's during its requests), and when the AIC turns to another client it
first waits for the free events the last one left pending and for all its pipes
(``PipeBarrier<PIPE_ALL>``), so two AIVs whose requests interleave (one parks between its
``Iterate`` and ``GetTensorC``) neither see nor race with each other's blocks.  Each
request is a message: a cross-core set on the AIV (MTE3, after the message is written) that the
AIC waits for before the request's first instruction, and, when the request is done, a set on
the AIC (on the pipe of its last instruction) that the AIV waits for.  These are recorded as the
cross-core flags are (``CrossCoreSetFlag``), so the core model starts each side no earlier than
the other's set plus the chip's cross-core latency, and the race sanitizer takes each message as
a happens-before edge between the two cores.

The asynchronous forms send the request and go on: ``Iterate<false>()`` has the AIC compute every
block of the part into the workspace, each followed by a set that the AIV's ``GetTensorC<false>``
of that block waits for before copying it into UB; ``IterateAll<false>`` is waited for by
``WaitIterateAll()`` (an AIV that reads C without it races with the AIC, and the sanitizer says so).

Where aclsim differs from the library: the message's own bytes in global memory are not recorded;
the AIC serves the requests in the order the cores run functionally (one core at a time: an AIV's
requests up to its first wait come before the other AIV's), where the device serves them as they
arrive, so in the synchronous mode the timeline has one AIV waiting longer than on the device.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import wraps
from typing import Any, TypeVar, cast

from aclsim import isa
from aclsim.isa import Cost, Instr, Pipe
from aclsim.kernel._core import Core, current, set_current, where
from aclsim.kernel.blocks import KernelReturn, Waiting
from aclsim.kernel.coretype import CoreType
from aclsim.kernel.crosscore import _SET_PIPES, _state, unit_of
from aclsim.kernel.crossrace import XSET_OP, XWAIT_OP

#: The ``mode`` of the cross-core sets a Matmul message records (the core model and the sanitizer
#: read sets by their ordinal; the mode names what made them in traces).
KFC_MODE = "KFC"


@dataclass
class Client:
    """An AIV's Matmul object served by its group's AIC."""

    aiv: Core
    group: int
    aiv_unit: int
    aic_unit: int
    #: the Matmul object (its ``settle(file, line)`` waits for its queues' pending free events)
    obj: Any = None
    #: the ordinal of the AIC's set that ended an asynchronous request the AIV has not waited for
    unanswered: int | None = None


@dataclass
class Server:
    """An AIC serving its group's AIVs, and the client of its last request."""

    core: Core
    last: Client | None = None


def client_of(core: Core, obj: Any) -> Client | None:
    """``REGIST_MATMUL_OBJ`` of ``obj`` on ``core``: a :class:`Client` when it is an AIV of a mixed
    launch (its objects are then served by the group's AIC), else None (the object runs where it is
    called: an AIC, a cube-only kernel, or an undeclared kernel's core with every pipe)."""
    layout = getattr(core.launch, "layout", None)
    if layout is None or core.core_type is not CoreType.AIV:
        return None
    u = unit_of(core)
    g = layout.group(u)
    return Client(core, g, u, g * layout.size, obj)


def serve(core: Core) -> None:
    """``REGIST_MATMUL_OBJ`` on the AIC of a mixed launch: serve the group's AIVs until every one of
    them has ended, then end the AIC's kernel (raises :class:`KernelReturn`).  Elsewhere: returns."""
    launch = core.launch
    layout = getattr(launch, "layout", None)
    if layout is None or core.core_type is not CoreType.AIC or launch.blocks is None:
        return
    u = unit_of(core)
    g = layout.group(u)
    file, line = where(3)
    servers = _servers(launch)
    servers[g] = Server(core)
    aivs = layout.aivs_of(g)
    blocks = launch.blocks
    blocks.park(u, lambda: all(blocks.ended(a) for a in aivs),
                Waiting(f"REGIST_MATMUL_OBJ on {layout.name(u)} (serving its AIVs' Matmul requests until "
                        "they end)", file, line))
    del servers[g]
    raise KernelReturn


def _servers(launch: Any) -> dict[int, Server]:
    """The AICs of a launch serving Matmul requests now, by group."""
    servers: dict[int, Server] = launch.kfc_servers
    return servers


def _set(core: Core, pipe: Pipe, unit: int, file: str, line: int) -> int:
    """Record a message's cross-core set on ``core`` (unit ``unit``); returns its ordinal."""
    _, st = _state(core)
    ordinal = st.next_ordinal(unit)
    core.add(Instr(pipe, XSET_OP, event_id=None, cost=Cost(mode=KFC_MODE, ordinal=ordinal, unit=unit),
                   file=file, line=line))
    return ordinal


def _wait(core: Core, unit: int, ordinal: int, file: str, line: int) -> None:
    core.add(Instr(Pipe.S, XWAIT_OP, event_id=None, cost=Cost(deps=((unit, ordinal),)), file=file, line=line))


def _server_for(client: Client, file: str, line: int) -> Server:
    """The AIC serving ``client``'s group; the AIV parks until it serves (a deadlock if it never will)."""
    launch = client.aiv.launch
    servers = _servers(launch)
    if client.group not in servers:
        name = launch.layout.name(client.aic_unit)
        launch.blocks.park(client.aiv_unit, lambda: client.group in servers,
                           Waiting(f"a Matmul request to {name}, which is not serving (REGIST_MATMUL_OBJ on "
                                   "the AIC serves its AIVs' requests; an AIC that returns before it never "
                                   "does)", file, line))
    return servers[client.group]


@contextmanager
def on_aic(client: Client | None, wait: bool = True) -> Iterator[None]:
    """Run the body as a request of ``client``'s AIV to its group's AIC (nothing when ``client`` is
    None or the body already runs on the AIC).  ``wait=False``: an asynchronous request, the AIV goes
    on at once; :func:`answer` waits for its end later (``WaitIterateAll``)."""
    if client is None or current() is not client.aiv:
        yield
        return
    aiv = client.aiv
    file, line = where(4)
    server = _server_for(client, file, line)
    aic = server.core
    if server.last is not None and server.last is not client:  # the AIC turns to another client:
        if server.last.obj is not None:
            server.last.obj.settle(file, line)  # the events the last one left pending,
        aic.add(isa.pipe_barrier(Pipe.ALL, file=file, line=line))  # and its work done, first
    server.last = client
    n_aiv, n_aic = len(aiv.instrs), len(aic.instrs)
    sent = _set(aiv, Pipe.MTE3, client.aiv_unit, file, line)
    _wait(aic, client.aiv_unit, sent, file, line)
    own = aic.arenas
    aic.arenas = aiv.arenas  # the data of this client's object (the server's object holds one client's)
    set_current(aic)
    try:
        yield
    finally:
        set_current(aiv)
        aic.arenas = own
        if len(aic.instrs) == n_aic + 1 and len(aiv.instrs) == n_aiv + 1:  # nothing was issued: no message
            del aic.instrs[-1], aiv.instrs[-1]
            _state(aiv)[1].nsets[client.aiv_unit] -= 1
        else:
            last = aic.instrs[-1].pipe
            done = _set(aic, last if last in _SET_PIPES else Pipe.FIX, client.aic_unit, file, line)
            if wait:
                _wait(aiv, client.aic_unit, done, file, line)
            else:
                client.unanswered = done


def notify(client: Client | None) -> int | None:
    """Inside a request, on the AIC: a set telling the AIV that the FIX work so far is done (one
    block of an asynchronous ``Iterate`` in the workspace); its ordinal, for :func:`await_set`."""
    if client is None or current() is client.aiv:
        return None
    file, line = where(3)
    return _set(current(), Pipe.FIX, client.aic_unit, file, line)


def await_set(client: Client | None, ordinal: int | None) -> None:
    """On the AIV: wait for the AIC's set ``ordinal`` (from :func:`notify`; nothing for None)."""
    if client is not None and ordinal is not None:
        file, line = where(3)
        _wait(client.aiv, client.aic_unit, ordinal, file, line)


def answer(client: Client | None) -> None:
    """On the AIV: wait for the end of its last asynchronous request (``WaitIterateAll``)."""
    if client is not None and client.unanswered is not None:
        await_set(client, client.unanswered)
        client.unanswered = None


@contextmanager
def on_aiv(client: Client | None, pipe: Pipe) -> Iterator[None]:
    """Inside a request: run the body on the client's AIV once the AIC's work so far on ``pipe`` is
    done (the AIV's part of a request, e.g. copying a result from the workspace into UB); the
    request goes on on the AIC after it."""
    if client is None or current() is client.aiv:
        yield
        return
    aic = current()
    file, line = where(4)
    ready = _set(aic, pipe, client.aic_unit, file, line)
    set_current(client.aiv)
    _wait(client.aiv, client.aic_unit, ready, file, line)
    try:
        yield
    finally:
        set_current(aic)


F = TypeVar("F", bound=Callable[..., Any])


def served(method: F) -> F:
    """A Matmul method that computes: on a client, it runs as a request to the group's AIC (with
    the keyword ``sync=False``: an asynchronous one)."""

    @wraps(method)
    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        client = self.kfc
        if client is None:
            return method(self, *args, **kwargs)
        with on_aic(client, wait=kwargs.get("sync", True) is not False):
            return method(self, *args, **kwargs)

    return cast(F, run)


__all__ = ["KFC_MODE", "Client", "KernelReturn", "Server", "answer", "await_set", "client_of", "notify",
           "on_aic", "on_aiv", "serve", "served"]
