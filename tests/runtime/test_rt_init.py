"""init / finalize, configuration, and the leak report."""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import aclsim
from aclsim import errors


def _here() -> int:
    """The line number of the caller."""
    return sys._getframe(1).f_lineno


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for var in ("ACLSIM_DEVICES", "ACLSIM_CHIP", "ACLSIM_MEMORY"):
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


def test_init_and_finalize_clean() -> None:
    assert not aclsim.is_initialized()
    aclsim.init(chip="tiny")
    assert aclsim.is_initialized()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert aclsim.finalize() == []
    assert not aclsim.is_initialized()


def test_repeat_init() -> None:
    aclsim.init(chip="tiny")
    with pytest.raises(errors.RepeatInitializeError) as info:
        aclsim.init(chip="tiny")
    assert info.value.code == 100002 == errors.ACL_ERROR_REPEAT_INITIALIZE
    assert info.value.code_name == "ACL_ERROR_REPEAT_INITIALIZE"
    assert aclsim.is_initialized()  # the first init still stands


def test_finalize_twice() -> None:
    aclsim.init(chip="tiny")
    aclsim.finalize()
    with pytest.raises(errors.RepeatFinalizeError) as info:
        aclsim.finalize()
    assert info.value.code == 100037


def test_reinit_after_finalize() -> None:
    aclsim.init(chip="tiny")
    aclsim.finalize()
    aclsim.init(chip="tiny", devices=2)
    assert aclsim.get_device_count() == 2


@pytest.mark.parametrize("call", [
    lambda: aclsim.set_device(0),
    lambda: aclsim.reset_device(0),
    lambda: aclsim.get_device(),
    lambda: aclsim.get_device_count(),
    lambda: aclsim.malloc(64),
    lambda: aclsim.malloc_host(64),
    lambda: aclsim.create_stream(),
    lambda: aclsim.create_event(),
    lambda: aclsim.create_context(0),
    lambda: aclsim.get_context(),
    lambda: aclsim.leak_report(),
    lambda: aclsim.synchronize_device(),
    lambda: aclsim.process_report(0.01),
    lambda: aclsim.numpy_to_ptr(np.zeros(4)),
    lambda: aclsim.bytes_to_ptr(bytes(8)),
    lambda: aclsim.memcpy(np.zeros(4), 32, np.zeros(4), 32, 0),
    lambda: aclsim.get_mem_info(1),
], ids=["set_device", "reset_device", "get_device", "get_device_count", "malloc",
        "malloc_host", "create_stream", "create_event", "create_context", "get_context", "leak_report",
        "synchronize_device", "process_report", "numpy_to_ptr", "bytes_to_ptr", "memcpy", "get_mem_info"])
def test_calls_before_init(call) -> None:  # noqa: ANN001
    assert not aclsim.is_initialized()
    with pytest.raises(errors.UninitializedError) as info:
        call()
    assert info.value.code == 100001


def test_objects_unusable_after_finalize() -> None:
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    buf = aclsim.malloc(64)
    stream = aclsim.create_stream()
    event = aclsim.create_event()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", aclsim.LeakWarning)
        aclsim.finalize()
    for call in (lambda: aclsim.free(buf), lambda: aclsim.synchronize_stream(stream),
                 lambda: aclsim.record_event(event), lambda: aclsim.destroy_event(event)):
        with pytest.raises(errors.UninitializedError):
            call()


# --- configuration -----------------------------------------------------------------------

def test_defaults(clean_env: pytest.MonkeyPatch) -> None:
    aclsim.init()
    assert aclsim.get_device_count() == 1


def test_devices_from_env(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("ACLSIM_DEVICES", "3")
    aclsim.init(chip="tiny")
    assert aclsim.get_device_count() == 3
    aclsim.set_device(2)
    assert aclsim.get_device() == 2
    aclsim.reset_device(2)


def test_chip_and_memory_from_env(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("ACLSIM_CHIP", "TINY")
    clean_env.setenv("ACLSIM_MEMORY", "16MiB")
    aclsim.init()
    aclsim.set_device(0)
    free, total = aclsim.get_mem_info(aclsim.MemAttr.HBM_MEM)
    assert total == free == 16 << 20
    aclsim.reset_device(0)


def test_config_file(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "acl.json"
    path.write_text(json.dumps({"aclsim": {"devices": 2}, "dump": {"dump_path": "/tmp"}}))
    aclsim.init(path, chip="tiny")
    assert aclsim.get_device_count() == 2


def test_config_file_str_path_and_memory(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "acl.json"
    path.write_text(json.dumps({"aclsim": {"chip": "tiny", "memory": "8MiB"}}))
    aclsim.init(str(path))
    aclsim.set_device(0)
    assert aclsim.get_mem_info()[1] == 8 << 20
    aclsim.reset_device(0)


def test_config_priority(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    clean_env.setenv("ACLSIM_DEVICES", "3")
    path = tmp_path / "acl.json"
    path.write_text(json.dumps({"aclsim": {"devices": 2}}))
    aclsim.init(path, chip="tiny")
    assert aclsim.get_device_count() == 2  # file beats environment
    aclsim.finalize()
    aclsim.init(path, chip="tiny", devices=4)
    assert aclsim.get_device_count() == 4  # keyword beats file


def test_empty_config_file(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_text("")
    aclsim.init(path, chip="tiny")
    assert aclsim.get_device_count() == 1


def test_config_missing_file(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with pytest.raises(errors.ConfigFileError) as info:
        aclsim.init(tmp_path / "nope.json")
    assert info.value.code == 100003 == errors.ACL_ERROR_INVALID_FILE
    assert not aclsim.is_initialized()


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", '{"aclsim": 3}', '{"aclsim": {"devicez": 2}}'])
def test_config_bad_file(clean_env: pytest.MonkeyPatch, tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(errors.ConfigFileError) as info:
        aclsim.init(path)
    assert info.value.code == 100006 == errors.ACL_ERROR_PARSE_FILE
    assert not aclsim.is_initialized()
    aclsim.init(chip="tiny")  # a failed init leaves the runtime initializable


@pytest.mark.parametrize("kwargs", [{"chip": "nope"}, {"devices": 0}, {"devices": 65}, {"memory": "lots"},
                                    {"memory": 0}])
def test_bad_settings(clean_env: pytest.MonkeyPatch, kwargs: dict[str, object]) -> None:
    with pytest.raises(errors.InvalidParamError) as info:
        aclsim.init(**kwargs)  # type: ignore[arg-type]
    assert info.value.code == 100000
    assert not aclsim.is_initialized()


def test_bad_env_setting(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("ACLSIM_DEVICES", "two")
    with pytest.raises(errors.InvalidParamError):
        aclsim.init(chip="tiny")
    assert not aclsim.is_initialized()


# --- leak report -------------------------------------------------------------------------

def test_leak_report_lists_everything_with_sites() -> None:
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    buf, l_buf = aclsim.malloc(100), _here()
    dv, l_dv = aclsim.dvpp_malloc(64), _here()
    host, l_host = aclsim.malloc_host(4096), _here()
    stream, l_stream = aclsim.create_stream(), _here()
    event, l_event = aclsim.create_event(), _here()
    ctx, l_ctx = aclsim.create_context(0), _here()
    ctx_stream, l_ctx_stream = aclsim.create_stream(), _here()

    here = Path(__file__).name
    reprs = {id(o): repr(o) for o in (buf, dv, stream, event, ctx, ctx_stream)}  # before they die
    report = aclsim.leak_report()
    with pytest.warns(aclsim.LeakWarning) as record:
        leaks = aclsim.finalize()
    assert leaks == report
    assert len(leaks) == 8

    def line_for(prefix: str, obj: object) -> str:
        matches = [line for line in leaks if line.startswith(prefix) and reprs[id(obj)] in line]
        assert len(matches) == 1, (prefix, obj, leaks)
        return matches[0]

    assert any(line.startswith("npu:0 is still set (1 set_device") for line in leaks)
    for prefix, obj, lineno in [("malloc ", buf, l_buf), ("dvpp_malloc ", dv, l_dv),
                                ("stream ", stream, l_stream), ("event ", event, l_event),
                                ("context ", ctx, l_ctx), ("stream ", ctx_stream, l_ctx_stream)]:
        line = line_for(prefix, obj)
        assert line.endswith(f"{here}:{lineno}"), (line, lineno)
    host_line = [line for line in leaks if line.startswith(f"malloc_host 0x{host:x}")]
    assert len(host_line) == 1 and host_line[0].endswith(f"{here}:{l_host}")

    message = str(record[0].message)
    assert "8 leaked resource(s)" in message
    assert f"{here}:{l_buf}" in message and f"{here}:{l_ctx}" in message
    assert record[0].filename == __file__  # the warning points at the finalize call


def test_clean_program_has_no_leaks() -> None:
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    buf = aclsim.malloc(100)
    dv = aclsim.dvpp_malloc(100)
    host = aclsim.malloc_host(100)
    stream = aclsim.create_stream()
    event = aclsim.create_event()
    ctx = aclsim.create_context(0)
    aclsim.memcpy_async(buf, 100, np.arange(100, dtype=np.uint8), 100, aclsim.MemcpyKind.HOST_TO_DEVICE,
                        None)
    aclsim.destroy_context(ctx)
    aclsim.set_device(0)
    aclsim.record_event(event, stream)
    aclsim.synchronize_stream(stream)
    aclsim.synchronize_device()
    aclsim.destroy_event(event)
    aclsim.destroy_stream(stream)
    aclsim.free_host(host)
    aclsim.dvpp_free(dv)
    aclsim.free(buf)
    aclsim.reset_device(0)
    aclsim.reset_device(0)
    assert aclsim.leak_report() == []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert aclsim.finalize() == []


def test_leak_report_is_live() -> None:
    aclsim.init(chip="tiny")
    assert aclsim.leak_report() == []
    aclsim.set_device(0)
    assert len(aclsim.leak_report()) == 1
    buf = aclsim.malloc(64)
    assert len(aclsim.leak_report()) == 2
    aclsim.free(buf)
    aclsim.reset_device(0)
    assert aclsim.leak_report() == []


def test_memory_above_address_window(clean_env: pytest.MonkeyPatch) -> None:
    try:
        aclsim.init(chip="tiny", memory="8TiB")
    except errors.InvalidParamError as exc:  # the fix: refused at init with code 100000
        assert exc.code == 100000
        return
    with pytest.raises(errors.AclError):
        aclsim.set_device(0)
