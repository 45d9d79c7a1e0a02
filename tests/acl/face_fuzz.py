"""A fuzzer of the pyACL face: random calls with good and bad arguments against a shadow model.

Each step picks a pyACL call and arguments, mostly good ones drawn from the model (live
handles, pointers inside live buffers, sizes that fit) and sometimes exactly one bad one
(a destroyed or foreign handle, a freed pointer, a size past the end, a wrong type, a number
that cannot be a size_t).  The model predicts the return code; the fuzzer checks that

* no call raises (``acl.util``'s pointer helpers raise ``AclError``/``TypeError``, as
  pyACL's do) and none returns ``ACL_ERROR_INTERNAL_ERROR``;
* every call ends within :data:`CALL_LIMIT_S` (calls run on one worker thread, which holds
  the current context; a call still running after the limit is a hang);
* the code is the predicted one; a failed call leaves the runtime's state as it was;
* the runtime's live objects are the model's, and data read back is what was written.

Run it large from the command line (one JSON line of figures)::

    python tests/acl/face_fuzz.py --calls 200000 --seed 1
"""

from __future__ import annotations

import argparse
import json
import queue
import sys
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import aclsim.acl as acl
from aclsim.errors import ACL_ERROR_INTERNAL_ERROR, AclError, LeakWarning
from aclsim.runtime._state import STATE

CALL_LIMIT_S = 20.0
DEVICES = 2
ANY = None  # a prediction that accepts any documented code

OK = frozenset({0})
INVALID = frozenset({100000})


class Hang(AssertionError):
    pass


class _Worker:
    """Runs every call on one thread (pyACL's current context is per thread), with a limit."""

    def __init__(self) -> None:
        self._in: queue.Queue[tuple[Callable[..., Any], tuple[Any, ...]]] = queue.Queue()
        self._out: queue.Queue[tuple[bool, Any]] = queue.Queue()
        self._thread = threading.Thread(target=self._loop, name="face-fuzz-worker", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while True:
            fn, args = self._in.get()
            try:
                self._out.put((True, fn(*args)))
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                self._out.put((False, exc))

    def call(self, fn: Callable[..., Any], *args: Any) -> tuple[bool, Any]:
        self._in.put((fn, args))
        try:
            return self._out.get(timeout=CALL_LIMIT_S)
        except queue.Empty:
            raise Hang(f"{getattr(fn, '__qualname__', fn)}{args!r} still running after {CALL_LIMIT_S} s") \
                from None


@dataclass(eq=False)
class _Buf:
    size: int
    device: int
    data: np.ndarray | None  # what it holds, None when unknown (async work, uninitialized)
    dvpp: bool = False


@dataclass
class _Model:
    refcount: list[int] = field(default_factory=lambda: [0] * DEVICES)
    default_ctx: dict[int, int] = field(default_factory=dict)  # device -> handle
    contexts: dict[int, int] = field(default_factory=dict)  # explicit context handle -> device
    cur: int | None = None  # the worker's current context
    streams: dict[int, int] = field(default_factory=dict)  # stream handle -> context handle
    events: dict[int, bool] = field(default_factory=dict)  # event handle -> ever recorded
    bufs: dict[int, _Buf] = field(default_factory=dict)
    hosts: dict[int, np.ndarray] = field(default_factory=dict)  # malloc_host ptr -> view
    arrays: dict[int, np.ndarray] = field(default_factory=dict)  # numpy_to_ptr ptr -> array
    subscribed: dict[int, int] = field(default_factory=dict)  # stream handle -> thread id
    touched: dict[int, set[int]] = field(default_factory=dict)  # stream -> device ptrs of queued work
    async_hosts: set[int] = field(default_factory=set)  # id() of host arrays async copies touched
    tainted: set[int] = field(default_factory=set)  # streams whose queued work lost its memory
    dead: list[int] = field(default_factory=list)  # handles and pointers that were valid once

    def ctx_device(self, ctx: int) -> int:
        if ctx in self.contexts:
            return self.contexts[ctx]
        return next(d for d, h in self.default_ctx.items() if h == ctx)


class FaceFuzzer:
    """``FaceFuzzer(seed).run(calls)`` -> figures; raises AssertionError on the first defect."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.seed = seed
        self.worker = _Worker()
        self.m = _Model()
        self.stats: dict[str, int] = {"calls": 0, "failed_as_predicted": 0, "checked_reads": 0}
        self.helper_tid = 0
        self._stop_helper = threading.Event()
        self.callbacks_run = 0

    # --- plumbing ------------------------------------------------------------------------
    def _do(self, fn: Callable[..., Any], *args: Any, expect: frozenset[int] | None = OK,
            util: bool = False) -> Any:
        """Call ``fn`` on the worker; check the code against ``expect`` and, on failure, that the
        runtime's state did not move.  Returns the value(s) of the call."""
        self.stats["calls"] += 1
        name = getattr(fn, "__qualname__", str(fn))
        before = self.worker.call(self._snapshot)[1] if expect != OK else None
        done, out = self.worker.call(fn, *args)
        if not done:
            if util and isinstance(out, (AclError, TypeError)):
                if expect == OK:
                    raise AssertionError(f"{name}{args!r} raised {out!r}; the model expected success")
                return None
            raise AssertionError(f"{name}{args!r} raised {type(out).__name__}: {out}") from out
        ret = out if isinstance(out, int) else (out[-1] if isinstance(out, tuple) else 0)
        if util:
            ret = 0
        assert ret != ACL_ERROR_INTERNAL_ERROR, f"{name}{args!r}: internal error {acl.get_recent_err_msg()}"
        if expect is not None and ret not in expect:
            raise AssertionError(f"{name}{args!r} returned {ret}, expected one of {sorted(expect)}: "
                                 f"{acl.get_recent_err_msg()}")
        if ret != 0:
            self.stats["failed_as_predicted"] += 1
            after = self.worker.call(self._snapshot)[1]
            if before is not None and name not in ("malloc", "dvpp_malloc", "malloc_host"):
                assert after == before, f"{name}{args!r} failed with {ret} but changed the state"
        return out

    def _snapshot(self) -> Any:
        if not STATE.initialized:
            return ("uninitialized",)
        ctx = STATE.current_context
        devices = tuple((d.refcount, d.default_context.handle if d.default_context else None,
                         tuple(sorted((b.ptr, b.size) for b in d.memory.live_buffers())) if d.memory else (),
                         d.memory.free_bytes() if d.memory else None)
                        for d in STATE.devices)
        handles = tuple(sorted(h for h, o in STATE.handles.items() if getattr(o, "alive", False)))
        pinned = tuple(sorted((r.addr, r.nbytes) for r in STATE.host.pinned_regions()))
        subs = tuple(sorted((s.handle, t.ident) for s, t in STATE.subscriptions.items()))
        return (ctx.handle if ctx else None, devices, handles, pinned, subs)

    def _check_model(self) -> None:
        """The runtime's live objects are the model's."""
        def look() -> Any:
            live = {b.ptr: b.size for d in STATE.devices if d.memory for b in d.memory.live_buffers()}
            streams = {h for h, o in STATE.handles.items()
                       if type(o).__name__ == "Stream" and o.alive and not o.is_default}
            events = {h for h, o in STATE.handles.items() if type(o).__name__ == "Event" and o.alive}
            ctx = STATE.current_context
            return live, streams, events, [d.refcount for d in STATE.devices], ctx.handle if ctx else None
        live, streams, events, refcounts, cur = self.worker.call(look)[1]
        assert live == {p: b.size for p, b in self.m.bufs.items()}, "live buffers differ from the model"
        assert streams == set(self.m.streams), "live streams differ from the model"
        assert events == set(self.m.events), "live events differ from the model"
        assert refcounts == self.m.refcount, "device reference counts differ from the model"
        assert cur == self.m.cur, f"current context {cur} is not the model's {self.m.cur}"

    def _helper_loop(self, _args: object) -> None:
        while not self._stop_helper.is_set():
            ret = acl.rt.process_report(20)
            if ret not in (0, 507012):  # not subscribed (yet), or finalized: do not spin
                time.sleep(0.005)

    # --- argument generators: (value, good) ----------------------------------------------
    def _bad_int(self) -> Any:
        choices: list[Any] = [-1, 2**64, 2**100, None, "1", 1.5, True, -(2**63)]
        if self.m.dead:
            choices.append(self.m.dead[int(self.rng.integers(len(self.m.dead)))])
        return choices[int(self.rng.integers(len(choices)))]

    def _pick(self, pool: list[int]) -> int:
        return pool[int(self.rng.integers(len(pool)))]

    def _bad(self) -> bool:
        return bool(self.rng.random() < 0.15)

    # --- the calls -------------------------------------------------------------------------
    def step(self) -> None:
        ops = [self.set_device, self.reset_device, self.create_context, self.set_context,
               self.destroy_context, self.create_stream, self.destroy_stream, self.synchronize, self.malloc,
               self.free,
               self.malloc_host, self.free_host, self.memcpy, self.memcpy, self.memcpy_async, self.memset,
               self.create_event, self.destroy_event, self.record_event, self.wait_event, self.query,
               self.get_info, self.callback, self.subscribe, self.util_views]
        if self.rng.random() < 0.002:
            self.restart()
            return
        ops[int(self.rng.integers(len(ops)))]()

    def start(self) -> None:
        assert self._do(acl.init) == 0
        self.helper_tid, ret = acl.util.start_thread(self._helper_loop, None)
        assert ret == 0
        self._do(acl.rt.set_device, 0)
        self._after_set(0)

    def restart(self) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", LeakWarning)
            self._do(acl.finalize)
        self.m = _Model(dead=self.m.dead[-200:])
        self._do(acl.finalize, expect=frozenset({100037}))
        self._do(acl.init)
        self._do(acl.init, expect=frozenset({100002}))

    def stop(self) -> None:
        self._stop_helper.set()
        acl.util.stop_thread(self.helper_tid)
        if STATE.initialized:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", LeakWarning)
                acl.finalize()

    def _after_set(self, d: int) -> None:
        self.m.refcount[d] += 1
        handle = STATE.devices[d].default_context.handle  # type: ignore[union-attr]
        self.m.default_ctx[d] = handle
        self.m.cur = handle

    def set_device(self) -> None:
        if self._bad():
            bad = self._bad_int() if self.rng.random() < 0.5 else DEVICES
            self._do(acl.rt.set_device, bad, expect=frozenset({100000, 107001}))
            return
        d = int(self.rng.integers(DEVICES))
        self._do(acl.rt.set_device, d)
        self._after_set(d)

    def reset_device(self) -> None:
        d = int(self.rng.integers(DEVICES))
        force = bool(self.rng.random() < 0.3)
        self._do(acl.rt.reset_device_force if force else acl.rt.reset_device, d)
        if self.m.refcount[d] == 0:
            return
        self.m.refcount[d] = 0 if force else self.m.refcount[d] - 1
        if self.m.refcount[d] == 0:
            ctx = self.m.default_ctx.pop(d)
            self._drop_context_streams(ctx)
            if self.m.cur == ctx:
                self.m.cur = None

    def _drop_context_streams(self, ctx: int) -> None:
        for s in [s for s, c in self.m.streams.items() if c == ctx]:
            del self.m.streams[s]
            self.m.subscribed.pop(s, None)
            self.m.touched.pop(s, None)
            self.m.tainted.discard(s)
            self.m.dead.append(s)
        self.m.dead.append(ctx)

    def create_context(self) -> None:
        if self._bad():
            self._do(acl.rt.create_context, self._bad_int(), expect=frozenset({100000, 107001}))
            return
        d = int(self.rng.integers(DEVICES))
        handle, _ = self._do(acl.rt.create_context, d)
        self.m.contexts[handle] = d
        self.m.cur = handle

    def _contexts(self) -> list[int]:
        return list(self.m.contexts) + list(self.m.default_ctx.values())

    def set_context(self) -> None:
        pool = self._contexts()
        if self._bad() or not pool:
            self._do(acl.rt.set_context, self._bad_int() if pool else 0,
                     expect=frozenset({100000, 107017}))
            return
        ctx = self._pick(pool)
        self._do(acl.rt.set_context, ctx)
        self.m.cur = ctx

    def destroy_context(self) -> None:
        if self._bad() or not self.m.contexts:
            pool = list(self.m.default_ctx.values())
            bad = self._pick(pool) if pool and self.rng.random() < 0.5 else self._bad_int()
            self._do(acl.rt.destroy_context, bad, expect=frozenset({100000, 107017}))
            return
        ctx = self._pick(list(self.m.contexts))
        self._do(acl.rt.destroy_context, ctx, expect=frozenset({0, 207002}) if self._taints(ctx) else OK)
        del self.m.contexts[ctx]
        self._drop_context_streams(ctx)
        if self.m.cur == ctx:
            self.m.cur = None

    def _taints(self, ctx: int) -> bool:
        return any(s in self.m.tainted for s, c in self.m.streams.items() if c == ctx)

    def create_stream(self) -> None:
        if self.m.cur is None:
            self._do(acl.rt.create_stream, expect=frozenset({107002}))
            return
        if self.rng.random() < 0.3:
            good = not self._bad()
            flag = int(self.rng.choice([0, 1, 2, 4])) if good else 0x80
            handle, _ = self._do(acl.rt.create_stream_with_config, 0, flag, expect=OK if good else INVALID)
            if not good:
                return
        else:
            handle, _ = self._do(acl.rt.create_stream)
        self.m.streams[handle] = self.m.cur

    def destroy_stream(self) -> None:
        if self._bad() or not self.m.streams:
            self._do(acl.rt.destroy_stream, self._bad_int() if self.rng.random() < 0.7 else 0,
                     expect=frozenset({100000, 107017}))
            return
        s = self._pick(list(self.m.streams))
        force = bool(self.rng.random() < 0.2)
        self._do(acl.rt.destroy_stream_force if force else acl.rt.destroy_stream, s)
        del self.m.streams[s]
        self.m.subscribed.pop(s, None)
        self.m.touched.pop(s, None)
        self.m.tainted.discard(s)
        self.m.dead.append(s)

    def _submit_stream(self) -> tuple[int | None, frozenset[int]]:
        """A stream to submit work to: (handle, expectation of the call for it alone)."""
        mine = [s for s, c in self.m.streams.items() if c == self.m.cur]
        if self._bad():
            others = [s for s, c in self.m.streams.items() if c != self.m.cur]
            if others and self.rng.random() < 0.5:
                return self._pick(others), frozenset({107003} if self.m.cur else {107002})
            return self._bad_int(), frozenset({100000, 107017})
        if self.m.cur is None:
            return 0, frozenset({107002})
        if mine and self.rng.random() < 0.7:
            return self._pick(mine), OK
        return 0, OK

    def _stream_key(self, s: int) -> int:
        return s if s else -(self.m.cur or 0)

    def synchronize(self) -> None:
        r = self.rng.random()
        if r < 0.2:
            if self.m.cur is None:
                self._do(acl.rt.synchronize_device, expect=frozenset({107002}))
                return
            dev = self.m.ctx_device(self.m.cur)
            keys = {self._stream_key(s) for s, c in self.m.streams.items() if self.m.ctx_device(c) == dev}
            keys |= {-c for c in self._contexts() if self.m.ctx_device(c) == dev}
            expect = frozenset({0, 207002}) if keys & self.m.tainted else OK
            self._do(acl.rt.synchronize_device, expect=expect)
            self.m.tainted -= keys
            for k in keys:
                self.m.touched.pop(k, None)
            return
        if self._bad() or (not self.m.streams and self.m.cur is None):
            self._do(acl.rt.synchronize_stream, self._bad_int() if self.m.cur else 0,
                     expect=frozenset({100000, 107017, 107002}))
            return
        pool = list(self.m.streams) + ([0] if self.m.cur else [])
        s = self._pick(pool)
        key = self._stream_key(s)
        expect = frozenset({0, 207002}) if key in self.m.tainted else OK
        if r < 0.4:
            timeout = int(self.rng.choice([-1, 5000]))
            self._do(acl.rt.synchronize_stream_with_timeout, s, timeout, expect=expect)
        else:
            self._do(acl.rt.synchronize_stream, s, expect=expect)
        self.m.tainted.discard(key)
        self.m.touched.pop(key, None)

    def malloc(self) -> None:
        dvpp = bool(self.rng.random() < 0.1)
        fn = acl.media.dvpp_malloc if dvpp else acl.rt.malloc
        args: tuple[Any, ...]
        if self.m.cur is None:
            self._do(fn, *((64,) if dvpp else (64, 0)), expect=frozenset({107002}))
            return
        if self._bad():
            bad = [0, -5, 2**64, 2**70, "8", 1.5][int(self.rng.integers(6))]
            args = (bad,) if dvpp else (bad, 0) if self.rng.random() < 0.7 else (64, 99)
            self._do(fn, *args, expect=frozenset({100000, 207001}))
            return
        if len(self.m.bufs) > 40:
            self.free()
            return
        size = int(self.rng.choice([1, 31, 32, 33, 100, 512, 4096, 65536, 300_000]))
        args = (size,) if dvpp else (size, int(self.rng.choice([0, 1, 2])))
        ptr, _ = self._do(fn, *args)
        buf = self.m.bufs[ptr] = _Buf(size, self.m.ctx_device(self.m.cur), None, dvpp)
        self._revive(ptr)
        if self.rng.random() < 0.7:  # fill it, so that later reads can be checked
            data = self.rng.integers(0, 256, size, dtype=np.uint8)
            host = acl.util.numpy_to_ptr(data)
            self._do(acl.rt.memcpy, ptr, size, host, size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
            buf.data = data.copy()

    def _revive(self, ptr: int) -> None:
        """A new allocation at an address that was freed before: it is no longer a bad pointer."""
        self.m.dead = [p for p in self.m.dead if p != ptr]

    def free(self) -> None:
        if self._bad() or not self.m.bufs:
            self._do(acl.rt.free, self._bad_int(), expect=frozenset({100000, 107016, 207002}))
            return
        ptr = self._pick(list(self.m.bufs))
        buf = self.m.bufs.pop(ptr)
        self._do(acl.media.dvpp_free if buf.dvpp else acl.rt.free, ptr)
        self.m.dead.append(ptr)
        for s, ptrs in self.m.touched.items():
            if ptr in ptrs:
                self.m.tainted.add(s)

    def malloc_host(self) -> None:
        if self._bad():
            bad = [0, -1, 2**63, 2**64, 2**80, "8"][int(self.rng.integers(6))]
            self._do(acl.rt.malloc_host, bad, expect=frozenset({100000, 207001}))
            return
        if len(self.m.hosts) > 10:
            self.free_host()
            return
        size = int(self.rng.choice([1, 100, 4096, 70_000]))
        ptr, _ = self._do(acl.rt.malloc_host, size)
        view = acl.util.ptr_to_numpy(ptr, (size,), np.uint8)
        self.m.hosts[ptr] = view
        self._revive(ptr)

    def free_host(self) -> None:
        if self._bad() or not self.m.hosts:
            self._do(acl.rt.free_host, self._bad_int(), expect=frozenset({100000, 207002}))
            return
        ptr = self._pick(list(self.m.hosts))
        view = self.m.hosts.pop(ptr)
        self._do(acl.rt.free_host, ptr)
        self.m.dead.append(ptr)
        del view

    def _host_side(self) -> tuple[int, np.ndarray]:
        if self.m.hosts and self.rng.random() < 0.5:
            ptr = self._pick(list(self.m.hosts))
            return ptr, self.m.hosts[ptr]
        arr = np.zeros(int(self.rng.choice([64, 1000, 70_000])), np.uint8)
        ptr = acl.util.numpy_to_ptr(arr)
        self.m.arrays[ptr] = arr
        if len(self.m.arrays) > 20:
            self.m.arrays.pop(next(iter(self.m.arrays)))
        return ptr, arr

    def _side(self, device: bool) -> tuple[int, int, np.ndarray | None, _Buf | None]:
        """(pointer, bytes available from it, host array or None, device buffer or None)."""
        if device and self.m.bufs:
            ptr = self._pick(list(self.m.bufs))
            buf = self.m.bufs[ptr]
            off = 0 if self.rng.random() < 0.5 else int(self.rng.integers(0, max(buf.size // 2, 1)))
            return ptr + off, buf.size - off, None, buf
        ptr, arr = self._host_side()
        return ptr, arr.nbytes, arr, None

    def memcpy(self, async_: bool = False) -> None:
        src_dev, dst_dev = bool(self.rng.random() < 0.5), bool(self.rng.random() < 0.5)
        sptr, savail, sarr, sbuf = self._side(src_dev)
        dptr, davail, darr, dbuf = self._side(dst_dev)
        most = min(savail, davail)
        count = most if self.rng.random() < 0.3 else int(self.rng.integers(0, most + 1))
        kind = int(self.rng.integers(0, 6))  # any kind 0-5: the pointers decide
        dest_max, expect = davail, OK
        stream: int | None = None
        if async_:
            stream, expect = self._submit_stream()
        if self._bad() and expect == OK:
            which = int(self.rng.integers(5))
            if which == 0:
                kind = int(self.rng.choice([6, 7, 8, -1]))
                expect = INVALID if count else OK
            elif which == 1:
                dest_max = count - 1 if count else 0
                expect = INVALID if count else OK
            elif which == 2 and count:
                count = davail + 1 + int(self.rng.integers(0, 64))
                dest_max = count
                expect = frozenset({107000})
                if min(savail, davail) < count and count > savail:
                    expect = frozenset({107000})
            elif which == 3 and self.m.dead and count:
                dptr = self.m.dead[-1]
                expect = frozenset({100000, 107000, 107016})
            elif count:
                sptr = int(self.rng.choice([0x10, 2**48 + 7 * 2**42 + 64, 0]))
                expect = frozenset({100000, 107000, 107016})
        if count == 0:  # AscendCL returns before looking at anything; the face still reads handles
            expect = expect if expect <= {100000, 107017} else OK
        if async_:
            self._do(acl.rt.memcpy_async, dptr, dest_max, sptr, count, kind, stream, expect=expect)
        else:
            self._do(acl.rt.memcpy, dptr, dest_max, sptr, count, kind, expect=expect)
        if expect != OK or count == 0:
            return
        if async_:
            for b in (sbuf, dbuf):
                if b is not None:
                    b.data = None
            for a in (sarr, darr):
                if a is not None:
                    self.m.async_hosts.add(id(a))
            key = self._stream_key(stream or 0)
            ptrs = (p for p, b in self.m.bufs.items() if b in (sbuf, dbuf))
            self.m.touched.setdefault(key, set()).update(ptrs)
            return
        self._shadow_copy(sptr, sbuf, sarr, dptr, dbuf, darr, count)

    def _pending(self, buf: _Buf) -> bool:
        """Queued work may still touch ``buf``: its contents are not known."""
        ptrs = {p for p, b in self.m.bufs.items() if b is buf}
        return any(ptrs & touched for touched in self.m.touched.values())

    def memcpy_async(self) -> None:
        self.memcpy(async_=True)

    def _shadow_copy(self, sptr: int, sbuf: _Buf | None, sarr: np.ndarray | None, dptr: int,
                     dbuf: _Buf | None, darr: np.ndarray | None, count: int) -> None:
        async_src = sarr is not None and id(sarr) in self.m.async_hosts
        if dbuf is not None and (self._pending(dbuf) or async_src):
            dbuf.data = None
            return
        if darr is not None and id(darr) in self.m.async_hosts:
            return
        if dbuf is not None:
            base = next(p for p, b in self.m.bufs.items() if b is dbuf)
            off = dptr - base
            if sbuf is not None:
                sbase = next(p for p, b in self.m.bufs.items() if b is sbuf)
                if sbuf.data is None or dbuf.data is None:
                    dbuf.data = None
                else:
                    dbuf.data[off:off + count] = sbuf.data[sptr - sbase:sptr - sbase + count].copy()
            elif dbuf.data is not None or (off == 0 and count == dbuf.size):
                if dbuf.data is None:
                    dbuf.data = np.zeros(dbuf.size, np.uint8)
                assert sarr is not None
                dbuf.data[off:off + count] = sarr[:count]
        elif sbuf is not None and sbuf.data is not None and darr is not None:
            sbase = next(p for p, b in self.m.bufs.items() if b is sbuf)
            expected = sbuf.data[sptr - sbase:sptr - sbase + count]
            assert np.array_equal(darr[:count], expected), "a device-to-host copy read the wrong bytes"
            self.stats["checked_reads"] += 1

    def memset(self) -> None:
        if not self.m.bufs:
            self._do(acl.rt.memset, self._bad_int(), 64, 1, 64, expect=frozenset({100000, 107000, 107016}))
            return
        ptr = self._pick(list(self.m.bufs))
        buf = self.m.bufs[ptr]
        count = int(self.rng.integers(0, buf.size + 1))
        value = int(self.rng.integers(-300, 300))
        max_count, expect = buf.size, OK
        if self._bad() and count:
            max_count, expect = count - 1, INVALID
        if self.rng.random() < 0.5:
            stream, sexp = self._submit_stream()
            if count == 0:
                expect = sexp if sexp <= {100000, 107017} else OK
            elif sexp != OK:  # two bad arguments: either may be reported first
                expect = sexp if expect == OK else expect | sexp
            self._do(acl.rt.memset_async, ptr, max_count, value, count, stream, expect=expect)
            if expect == OK and count:
                buf.data = None
                self.m.touched.setdefault(self._stream_key(stream or 0), set()).add(ptr)
            return
        self._do(acl.rt.memset, ptr, max_count, value, count, expect=expect)
        if expect == OK and count:
            if self._pending(buf):
                buf.data = None
            elif buf.data is None and count == buf.size:
                buf.data = np.zeros(buf.size, np.uint8)
            if buf.data is not None:
                buf.data[:count] = value & 0xFF

    def create_event(self) -> None:
        if self.rng.random() < 0.3:
            good = not self._bad()
            handle, _ = self._do(acl.rt.create_event_with_flag, 0x8 if good else 0x4,
                                 expect=OK if good else INVALID)
            if not good:
                return
        else:
            handle, _ = self._do(acl.rt.create_event)
        self.m.events[handle] = False

    def destroy_event(self) -> None:
        if self._bad() or not self.m.events:
            self._do(acl.rt.destroy_event, self._bad_int(), expect=frozenset({100000, 107017}))
            return
        e = self._pick(list(self.m.events))
        self._do(acl.rt.destroy_event, e)
        del self.m.events[e]
        self.m.dead.append(e)

    def record_event(self) -> None:
        stream, expect = self._submit_stream()
        if not self.m.events:
            self.create_event()
            return
        e = self._pick(list(self.m.events))
        fn = acl.rt.reset_event if self.rng.random() < 0.2 else acl.rt.record_event
        self._do(fn, e, stream, expect=expect)
        if expect == OK and fn is acl.rt.record_event:
            self.m.events[e] = True

    def wait_event(self) -> None:
        if not self.m.events:
            self.create_event()
            return
        e = self._pick(list(self.m.events))
        r = self.rng.random()
        if r < 0.4:
            stream, expect = self._submit_stream()
            self._do(acl.rt.stream_wait_event, stream, e, expect=expect)
        elif r < 0.7:
            self._do(acl.rt.synchronize_event, e)
        elif r < 0.85:
            self._do(acl.rt.synchronize_event_with_timeout, e, 5000)
        else:
            other = self._pick(list(self.m.events))
            codes = OK if self.m.events[e] and self.m.events[other] else ANY
            if codes == OK:  # both recorded: complete them first
                self._do(acl.rt.synchronize_event, e)
                self._do(acl.rt.synchronize_event, other)
                codes = frozenset({0, 107006})  # a reset_event may have cleared a record
            self._do(acl.rt.event_elapsed_time, e, other, expect=codes)

    def query(self) -> None:
        r = self.rng.random()
        if r < 0.3 and self.m.events:
            e = self._pick(list(self.m.events))
            fn = acl.rt.query_event if r < 0.15 else acl.rt.query_event_status
            status, _ = self._do(fn, e)
            assert status in (0, 1)
        elif r < 0.6:
            pool = list(self.m.streams) + ([0] if self.m.cur else [])
            if pool:
                status, _ = self._do(acl.rt.stream_query, self._pick(pool))
                assert status in (0, 1)
        else:
            expect = OK if self.m.cur else frozenset({107002})
            value, _ = self._do(acl.rt.get_device, expect=expect)
            if self.m.cur:
                assert value == self.m.ctx_device(self.m.cur)
            handle, _ = self._do(acl.rt.get_context, expect=expect)
            assert handle == self.m.cur
            count, _ = self._do(acl.rt.get_device_count)
            assert count == DEVICES

    def get_info(self) -> None:
        attr = int(self.rng.integers(0, 12)) if not self._bad() else int(self.rng.choice([12, -1, 99]))
        expect = (OK if attr < 12 and attr >= 0 else INVALID) if self.m.cur else frozenset({107002, 100000})
        free, total, _ = self._do(acl.rt.get_mem_info, attr, expect=expect)
        assert 0 <= free <= total

    def subscribe(self) -> None:
        if not self.m.streams:
            return
        s = self._pick(list(self.m.streams))
        if s in self.m.subscribed:
            if self.rng.random() < 0.3:
                self._do(acl.rt.subscribe_report, self.helper_tid, s, expect=frozenset({100033}))
            else:
                self._do(acl.rt.unsubscribe_report, self.helper_tid, s)
                del self.m.subscribed[s]
            return
        if self._bad():
            self._do(acl.rt.subscribe_report, int(self.rng.choice([1, 2**40])), s, expect=INVALID)
            return
        self._do(acl.rt.subscribe_report, self.helper_tid, s)
        self.m.subscribed[s] = self.helper_tid

    def _count_callback(self, _data: object) -> None:
        self.callbacks_run += 1

    def callback(self) -> None:
        mine = [s for s in self.m.subscribed if self.m.streams.get(s) == self.m.cur]
        if not mine:
            self.subscribe()
            return
        s = self._pick(mine)
        block = int(self.rng.integers(0, 2)) if not self._bad() else 5
        self._do(acl.rt.launch_callback, self._count_callback, None, block, s,
                 expect=OK if block in (0, 1) else INVALID)

    def util_views(self) -> None:
        if self.m.hosts and self.rng.random() < 0.5:
            ptr = self._pick(list(self.m.hosts))
            n = self.m.hosts[ptr].nbytes
            view = self._do(acl.util.ptr_to_numpy, ptr, (n,), 2, util=True)  # NPY_UBYTE
            assert view is not None and acl.util.numpy_to_ptr(view) == ptr
            data = self._do(acl.util.ptr_to_bytes, ptr, n, util=True)
            assert data is not None and len(data) == n
            self._do(acl.util.ptr_to_numpy, ptr, (2**32, 2**32), 2, util=True, expect=INVALID)
        else:
            blob = bytes(self.rng.integers(0, 255, 64, dtype=np.uint8))
            ptr = self._do(acl.util.bytes_to_ptr, blob, util=True)
            assert self._do(acl.util.ptr_to_bytes, ptr, 64, util=True) == blob
            self._do(acl.util.ptr_to_bytes, ptr, 65, util=True, expect=frozenset({107000}))

    # --- driving ---------------------------------------------------------------------------
    def run(self, calls: int) -> dict[str, Any]:
        t0 = time.perf_counter()
        self.start()
        try:
            while self.stats["calls"] < calls:
                self.step()
                if self.stats["calls"] % 25 == 0:
                    self._check_model()
            self._check_model()
        finally:
            self.stop()
        return {**self.stats, "seed": self.seed, "callbacks_run": self.callbacks_run,
                "seconds": round(time.perf_counter() - t0, 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000, help="pyACL calls per seed")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--seeds", type=int, default=1, help="number of seeds")
    args = parser.parse_args(argv)
    import os
    os.environ.setdefault("ACLSIM_CHIP", "tiny")
    os.environ["ACLSIM_DEVICES"] = str(DEVICES)
    total: dict[str, Any] = {"benchmark": "acl_face_fuzz", "calls": 0, "failed_as_predicted": 0,
                             "checked_reads": 0, "seeds": args.seeds, "defects": 0, "seconds": 0.0}
    for seed in range(args.seed, args.seed + args.seeds):
        try:
            got = FaceFuzzer(seed).run(args.calls)
        except AssertionError as exc:
            total["defects"] += 1
            print(f"seed {seed}: {exc}", file=sys.stderr)
            continue
        for key in ("calls", "failed_as_predicted", "checked_reads", "seconds"):
            total[key] += got[key]
    total["calls_per_s"] = round(total["calls"] / max(total["seconds"], 1e-9))
    print(json.dumps(total))
    return 1 if total["defects"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
