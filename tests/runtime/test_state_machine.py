"""Stateful property test: random programs against a model of what should be alive."""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    consumes,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

import aclsim
from aclsim.runtime.memory import align_up

K = aclsim.MemcpyKind
SETTINGS = settings(max_examples=30, stateful_step_count=30, deadline=None, database=None)


class RuntimeMachine(RuleBasedStateMachine):
    streams = Bundle("streams")
    events = Bundle("events")
    buffers = Bundle("buffers")

    def __init__(self) -> None:
        super().__init__()
        aclsim.init(chip="tiny")
        aclsim.set_device(0)
        self.total = aclsim.get_mem_info()[1]
        self.live_streams: dict[int, aclsim.Stream] = {}
        self.live_events: dict[int, aclsim.Event] = {}
        self.recorded: set[int] = set()  # events with a record in flight or done
        self.live_bufs: dict[int, aclsim.Buffer] = {}
        self.contents: dict[int, bytes] = {}  # what each buffer holds (once written)

    # start every program with a buffer and a stream, so that data rules run from the first step
    @initialize(target=buffers, size=st.integers(1, 4096))
    def first_buffer(self, size: int) -> aclsim.Buffer:
        return self.malloc(size)

    @initialize(target=streams)
    def first_stream(self) -> aclsim.Stream:
        return self.create_stream()

    # --- streams and events --------------------------------------------------------------
    @rule(target=streams)
    def create_stream(self) -> aclsim.Stream:
        s = aclsim.create_stream()
        self.live_streams[id(s)] = s
        return s

    @rule(s=consumes(streams))
    def destroy_stream(self, s: aclsim.Stream) -> None:
        aclsim.destroy_stream(s)
        del self.live_streams[id(s)]
        assert not s.alive

    @rule(target=events)
    def create_event(self) -> aclsim.Event:
        e = aclsim.create_event()
        self.live_events[id(e)] = e
        return e

    @rule(e=consumes(events))
    def destroy_event(self, e: aclsim.Event) -> None:
        aclsim.destroy_event(e)
        del self.live_events[id(e)]
        self.recorded.discard(id(e))

    @rule(e=events, s=st.one_of(st.none(), streams))
    def record_event(self, e: aclsim.Event, s: aclsim.Stream | None) -> None:
        aclsim.record_event(e, s)
        self.recorded.add(id(e))

    @rule(s=st.one_of(st.none(), streams), e=events)
    def stream_wait_event(self, s: aclsim.Stream | None, e: aclsim.Event) -> None:
        aclsim.stream_wait_event(s, e)

    @rule(e=events)
    def synchronize_event(self, e: aclsim.Event) -> None:
        aclsim.synchronize_event(e, timeout=10)
        expected = aclsim.EventRecordedStatus.COMPLETE if id(e) in self.recorded \
            else aclsim.EventRecordedStatus.NOT_READY
        assert aclsim.query_event_status(e) == expected

    @rule(s=st.one_of(st.none(), streams))
    def synchronize_stream(self, s: aclsim.Stream | None) -> None:
        aclsim.synchronize_stream(s, timeout=10)
        assert aclsim.query_stream(s)

    @rule()
    def synchronize_device(self) -> None:
        aclsim.synchronize_device(timeout=10)

    # --- memory ----------------------------------------------------------------------------
    @rule(target=buffers, size=st.one_of(st.integers(1, 300), st.integers(1, 1 << 20)))
    def malloc(self, size: int) -> aclsim.Buffer:
        buf = aclsim.malloc(size)
        assert buf.ptr % 64 == 0 and buf.padded_size == align_up(size, 32) + 32
        assert buf.ptr not in self.live_bufs
        self.live_bufs[buf.ptr] = buf
        return buf

    @rule(buf=consumes(buffers))
    def free(self, buf: aclsim.Buffer) -> None:
        aclsim.free(buf)
        del self.live_bufs[buf.ptr]
        self.contents.pop(buf.ptr, None)

    @rule(buf=buffers, writer=st.one_of(st.none(), streams), reader=st.one_of(st.none(), streams),
          seed=st.integers(0, 2**32 - 1), kind=st.sampled_from([K.HOST_TO_DEVICE, K.DEFAULT]))
    def write_then_read(self, buf: aclsim.Buffer, writer: aclsim.Stream | None,
                        reader: aclsim.Stream | None, seed: int, kind: K) -> None:
        payload = np.random.default_rng(seed).integers(0, 256, buf.size, dtype=np.uint8)
        out = np.empty_like(payload)
        aclsim.memcpy_async(buf, buf.size, payload, buf.size, kind, writer)
        if writer is not reader:
            marker = aclsim.create_event()
            aclsim.record_event(marker, writer)
            aclsim.stream_wait_event(reader, marker)
        aclsim.memcpy_async(out, out.nbytes, buf, buf.size, K.DEVICE_TO_HOST, reader)
        aclsim.synchronize_stream(reader, timeout=10)
        if writer is not reader:
            aclsim.destroy_event(marker)
        assert np.array_equal(out, payload)
        self.contents[buf.ptr] = payload.tobytes()

    @precondition(lambda self: bool(self.contents))
    @rule(data=st.data(), s=st.one_of(st.none(), streams))
    def read_back(self, data: st.DataObject, s: aclsim.Stream | None) -> None:
        ptr = data.draw(st.sampled_from(sorted(self.contents)))
        buf = self.live_bufs[ptr]
        out = np.empty(buf.size, np.uint8)
        aclsim.memcpy_async(out, out.nbytes, buf, buf.size, K.DEVICE_TO_HOST, s)
        aclsim.synchronize_stream(s, timeout=10)
        assert out.tobytes() == self.contents[ptr]

    # --- invariants --------------------------------------------------------------------------
    @invariant()
    def leak_report_matches_model(self) -> None:
        lines = aclsim.leak_report()
        assert lines[0].startswith("npu:0 is still set (1 set_device call(s)")
        rest = lines[1:]
        streams = sorted(line for line in rest if line.startswith("stream "))
        events = sorted(line for line in rest if line.startswith("event "))
        bufs = sorted(line for line in rest if line.startswith("malloc "))
        assert len(streams) + len(events) + len(bufs) == len(rest), rest
        assert streams == sorted(f"stream {s!r} created at {s.site}" for s in self.live_streams.values())
        assert events == sorted(f"event {e!r} created at {e.site}" for e in self.live_events.values())
        # issue 4: leak lines also name the stream the memory belongs to
        assert bufs == sorted(f"malloc {b!r} on {b.stream!r} allocated at {b.site}"
                              for b in self.live_bufs.values())

    @invariant()
    def memory_accounting(self) -> None:
        free, total = aclsim.get_mem_info()
        assert total == self.total
        # issue 4: memory comes from the caching pool; free = limit - reserved, and each
        # allocation is its padded size rounded to the pool's 512 B blocks
        stats = aclsim.memory_stats()
        assert free == total - stats["reserved_bytes.all.current"]
        allocated = sum(align_up(b.padded_size, 512) for b in self.live_bufs.values())
        assert stats["allocated_bytes.all.current"] == allocated
        assert stats["requested_bytes.all.current"] == sum(b.size for b in self.live_bufs.values())
        assert allocated <= stats["reserved_bytes.all.current"] <= total

    def teardown(self) -> None:
        if not aclsim.is_initialized():
            return
        try:
            for e in self.live_events.values():
                aclsim.destroy_event(e)
            for s in self.live_streams.values():
                aclsim.destroy_stream(s)
            for b in self.live_bufs.values():
                aclsim.free(b)
            aclsim.reset_device(0)
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                assert aclsim.finalize() == []
        finally:
            if aclsim.is_initialized():
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    aclsim.finalize()


def test_runtime_state_machine() -> None:
    run_state_machine_as_test(RuntimeMachine, settings=SETTINGS)
