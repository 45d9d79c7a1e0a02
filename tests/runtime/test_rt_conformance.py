"""The Pythonic API's side of the conformance regressions: documented semantics over
stricter checks, failed calls that change nothing, and waits that end."""

from __future__ import annotations

import json
import threading
import warnings
from pathlib import Path

import numpy as np
import pytest

import aclsim
from aclsim import errors
from aclsim.runtime._state import STATE

K = aclsim.MemcpyKind


def test_strict_mode_from_the_environment_and_the_init_file(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    host_a, host_b = np.zeros(8, np.uint8), np.ones(8, np.uint8)
    monkeypatch.setenv("ACLSIM_STRICT", "yes")
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    with pytest.raises(errors.InvalidMemoryTypeError):
        aclsim.memcpy(host_a, 8, host_b, 8, K.HOST_TO_DEVICE)
    aclsim.reset_device(0)
    aclsim.finalize()
    monkeypatch.delenv("ACLSIM_STRICT")
    config = tmp_path / "acl.json"
    config.write_text(json.dumps({"aclsim": {"strict": False}}))
    aclsim.init(config, chip="tiny")
    assert STATE.config is not None and STATE.config.strict is False
    aclsim.finalize()
    monkeypatch.setenv("ACLSIM_STRICT", "maybe")
    with pytest.raises(errors.InvalidParamError, match="flag"):
        aclsim.init(chip="tiny")


def test_diagnostics_clear_and_survive_finalize(rt: None) -> None:
    a, b = np.zeros(4, np.uint8), np.ones(4, np.uint8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the Pythonic API warns: an error filter raises it
        with pytest.raises(aclsim.MemcpyKindWarning):
            aclsim.memcpy(a, 4, b, 4, K.DEVICE_TO_DEVICE)
    assert len(aclsim.diagnostics()) == 1
    assert aclsim.diagnostics(clear=True)[0].kind == "memcpy_kind"
    assert aclsim.diagnostics() == []
    with pytest.warns(aclsim.DiagnosticWarning):
        aclsim.memcpy(a, 4, b, 4, K.HOST_TO_DEVICE)
    aclsim.reset_device(0)
    aclsim.finalize()
    assert [d.kind for d in aclsim.diagnostics()] == ["memcpy_kind"]  # readable after finalize
    aclsim.init(chip="tiny")
    assert aclsim.diagnostics() == []  # a new init starts a new list


def test_zero_byte_copies_and_memsets_touch_nothing(rt: None) -> None:
    buf = aclsim.malloc(64)
    s = aclsim.create_stream()
    aclsim.memcpy_async(np.zeros(4, np.uint8), 4, buf, 0, K.DEVICE_TO_HOST, s)
    aclsim.memset_async(buf, 64, 9, 0, s)
    assert s.pending == 0  # nothing was queued
    aclsim.free(buf)
    aclsim.synchronize_stream(s)
    aclsim.memcpy(buf, 0, buf, 0, 99)  # 0 bytes: no pointer, kind or size checks, as AscendCL
    aclsim.memset(buf, 0, 1, 0)
    with pytest.raises(errors.InvalidParamError):
        aclsim.memcpy(buf, 0, buf, "0", K.DEFAULT)  # type: ignore[arg-type]  # still an int
    aclsim.destroy_stream(s)


@pytest.mark.parametrize("size", [2**63, 2**64 - 1, 2**64, 2**70])
def test_impossible_sizes_are_refused_with_a_code(rt: None, size: int) -> None:
    with pytest.raises((errors.InvalidParamError, errors.HostAllocationError)):
        aclsim.malloc_host(size)
    with pytest.raises((errors.InvalidParamError, errors.OutOfMemoryError)):
        aclsim.malloc(size)
    assert aclsim.leak_report() == ["npu:0 is still set (1 set_device call(s) without reset_device); its "
                                    "default context is alive"]


def test_huge_shapes_do_not_wrap(rt: None) -> None:
    host = aclsim.malloc_host(64)
    for shape in [(2**32, 2**32), (2**62, 4), (-1, 4)]:
        with pytest.raises((errors.RtParamInvalidError, errors.InvalidParamError)):
            aclsim.ptr_to_numpy(host, shape, np.uint8)
    buf = aclsim.malloc(64)
    with pytest.raises((errors.RtParamInvalidError, errors.InvalidParamError)):
        aclsim.device_array(buf, (2**32, 2**32), np.uint8)
    assert aclsim.ptr_to_numpy(host, (4, 16), np.uint8).shape == (4, 16)
    aclsim.free(buf)
    aclsim.free_host(host)


def test_reset_device_force_releases_every_set(rt: None) -> None:
    aclsim.set_device(0)
    aclsim.set_device(0)
    device = STATE.devices[0]
    assert device.refcount == 3
    aclsim.reset_device_force(0)
    assert device.refcount == 0 and device.default_context is None
    aclsim.reset_device_force(0)  # nothing left to release: a no-op
    assert device.refcount == 0


def test_failed_reset_leaves_the_device_set(rt: None) -> None:
    s = aclsim.create_stream()
    aclsim.subscribe_report(threading.get_ident(), s)
    aclsim.launch_callback(lambda _d: None, None, 1, s)  # only this thread can run it
    device = STATE.devices[0]
    for reset in (aclsim.reset_device, aclsim.reset_device_force):
        with pytest.raises(errors.DeadlockError):
            reset(0)
        assert device.refcount == 1 and device.default_context is not None and s.alive
    assert aclsim.process_report(1.0) == 1
    aclsim.unsubscribe_report(threading.get_ident(), s)
    aclsim.destroy_stream(s)
    aclsim.reset_device(0)
    assert device.refcount == 0


def test_a_view_of_malloc_host_memory_keeps_its_owner(rt: None) -> None:
    host = aclsim.malloc_host(4096)
    view = aclsim.ptr_to_numpy(host, 1024, np.float32)
    assert aclsim.numpy_to_ptr(view) == host
    assert aclsim.numpy_to_ptr(view[10:]) == host + 40
    del view
    aclsim.free_host(host)  # still the malloc_host allocation
    with pytest.raises(errors.MemoryFreeError, match="double free_host"):
        aclsim.free_host(host)


def test_malloc_host_gives_back_its_cache_before_it_fails(rt: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from aclsim.runtime import hostmem

    aclsim.free_host(aclsim.malloc_host(1 << 20))  # 1 MiB cached by the pinned pool
    assert aclsim.host_memory_stats()["reserved_bytes.current"] == 1 << 20
    real_empty = np.empty
    refusals = []

    def host_full_once(*args: object, **kwargs: object) -> np.ndarray:
        if not refusals:
            refusals.append(args)
            raise MemoryError("host is full")
        return real_empty(*args, **kwargs)  # type: ignore[call-overload,no-any-return]

    monkeypatch.setattr(hostmem.np, "empty", host_full_once)
    ptr = aclsim.malloc_host(4 << 20)  # a new size class: the host refuses once, the cache goes
    assert refusals and aclsim.host_memory_stats()["reserved_bytes.current"] == 4 << 20
    monkeypatch.setattr(hostmem.np, "empty", lambda *a, **k: (_ for _ in ()).throw(MemoryError()))
    with pytest.raises(errors.HostAllocationError):
        aclsim.malloc_host(8 << 20)  # nothing cached to give back: 207001
    aclsim.free_host(ptr)
