"""acl.init / acl.finalize and the package layout."""

from __future__ import annotations

import importlib
import json
import warnings
from pathlib import Path

import pytest

import aclsim.acl as acl
from aclsim import errors
from aclsim.errors import LeakWarning
from aclsim.runtime._state import STATE


def test_layout_submodules_are_attributes_and_importable() -> None:
    for name in ("rt", "util", "media", "constants"):
        assert getattr(acl, name) is importlib.import_module(f"aclsim.acl.{name}")
    assert callable(acl.init) and callable(acl.finalize) and callable(acl.get_recent_err_msg)
    assert "bytes_to_ptr" in dir(acl.util)  # samples feature-test pyACL this way


def test_init_finalize() -> None:
    assert acl.init() == acl.ACL_SUCCESS
    assert STATE.initialized
    assert acl.finalize() == acl.ACL_SUCCESS
    assert not STATE.initialized


def test_repeat_init_is_100002() -> None:
    assert acl.init() == 0
    assert acl.init() == acl.ACL_ERROR_REPEAT_INITIALIZE == 100002
    assert acl.finalize() == 0


def test_finalize_twice_is_repeat_finalize() -> None:
    assert acl.init() == 0
    assert acl.finalize() == 0
    assert acl.finalize() == acl.ACL_ERROR_REPEAT_FINALIZE == 100037


def test_finalize_before_any_init_is_uninitialize(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(STATE, "ever_initialized", False)
    assert acl.finalize() == acl.ACL_ERROR_UNINITIALIZE == 100001


def test_calls_before_init_are_uninitialize() -> None:
    assert acl.rt.set_device(0) == 100001
    assert acl.rt.get_device_count() == (0, 100001)
    assert acl.rt.create_stream() == (None, 100001)
    assert acl.rt.synchronize_stream(0) == 100001
    assert acl.rt.malloc_host(64) == (None, 100001)
    assert acl.media.dvpp_malloc(64) == (None, 100001)


def test_reinit_after_finalize() -> None:
    for _ in range(2):
        assert acl.init() == 0
        assert acl.rt.set_device(0) == 0
        assert acl.rt.reset_device(0) == 0
        assert acl.finalize() == 0


def test_init_with_config_file(tmp_path: Path) -> None:
    cfg = tmp_path / "acl.json"
    cfg.write_text(json.dumps({"dump": {"dump_mode": "output"}, "aclsim": {"devices": 3, "chip": "tiny"}}))
    assert acl.init(str(cfg)) == 0
    assert acl.rt.get_device_count() == (3, 0)


def test_init_with_empty_config_path_uses_defaults() -> None:
    assert acl.init("") == 0
    assert acl.rt.get_device_count() == (2, 0)  # ACLSIM_DEVICES from the fixture


def test_init_with_missing_or_bad_config(tmp_path: Path) -> None:
    assert acl.init(str(tmp_path / "missing.json")) == acl.ACL_ERROR_INVALID_FILE
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert acl.init(str(bad)) == acl.ACL_ERROR_PARSE_FILE
    assert acl.init(42) == acl.ACL_ERROR_INVALID_PARAM  # type: ignore[arg-type]
    assert not STATE.initialized


def test_finalize_releases_leaks_with_a_warning() -> None:
    assert acl.init() == 0
    assert acl.rt.set_device(0) == 0
    _, ret = acl.rt.malloc(64, 0)
    assert ret == 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert acl.finalize() == 0
    assert any(issubclass(w.category, LeakWarning) for w in caught)


def test_constants_match_reference_values() -> None:
    kinds = (acl.ACL_MEMCPY_HOST_TO_HOST, acl.ACL_MEMCPY_HOST_TO_DEVICE, acl.ACL_MEMCPY_DEVICE_TO_HOST,
             acl.ACL_MEMCPY_DEVICE_TO_DEVICE, acl.ACL_MEMCPY_DEFAULT, acl.ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE,
             acl.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, acl.ACL_MEMCPY_INTER_DEVICE_TO_DEVICE)
    assert acl.ACL_SUCCESS == 0 and kinds == tuple(range(8))
    policies = (acl.ACL_MEM_MALLOC_HUGE_FIRST, acl.ACL_MEM_MALLOC_HUGE_ONLY, acl.ACL_MEM_MALLOC_NORMAL_ONLY)
    assert policies == (0, 1, 2)
    assert (acl.ACL_DDR_MEM, acl.ACL_HBM_MEM) == (0, 1)
    assert (acl.ACL_DEVICE, acl.ACL_HOST) == (0, 1)
    assert (acl.ACL_EVENT_RECORDED_STATUS_NOT_READY, acl.ACL_EVENT_RECORDED_STATUS_COMPLETE) == (0, 1)
    assert (acl.ACL_EVENT_STATUS_COMPLETE, acl.ACL_EVENT_STATUS_NOT_READY) == (0, 1)
    assert (acl.ACL_STREAM_STATUS_COMPLETE, acl.ACL_STREAM_STATUS_NOT_READY) == (0, 1)
    assert (acl.ACL_CALLBACK_NO_BLOCK, acl.ACL_CALLBACK_BLOCK) == (0, 1)
    assert (acl.ACL_EVENT_SYNC, acl.ACL_EVENT_TIME_LINE) == (0x1, 0x8)
    assert acl.ACL_STREAM_FAST_LAUNCH == 0x1 and acl.ACL_STREAM_DEVICE_USE_ONLY == 0x20
    assert (acl.NPY_FLOAT, acl.NPY_HALF, acl.NPY_INT) == (11, 23, 5)
    assert (acl.rt.MEMCPY_HOST_TO_DEVICE, acl.rt.MEMCPY_DEVICE_TO_HOST,
            acl.rt.MEMCPY_DEVICE_TO_DEVICE) == (1, 2, 3)


def test_error_codes_are_those_of_aclsim_errors() -> None:
    for value, name in errors.CODE_NAMES.items():
        assert getattr(acl, name) == value, name
    assert set(acl.constants.__all__) <= set(acl.__all__)


def test_data_types_and_formats_are_the_aclnn_enums() -> None:
    from aclsim.aclnn import DataType, Format

    for member in (*DataType, *Format):
        assert getattr(acl, member.name) == int(member) and member.name in acl.__all__, member
    assert (acl.ACL_FLOAT16, acl.ACL_BF16, acl.ACL_FORMAT_ND, acl.ACL_FORMAT_FRACTAL_NZ) == (1, 27, 2, 29)


def test_acl_init_and_finalize_initialise_aclnn_with_the_same_file(tmp_path) -> None:
    from aclsim import aclnn

    cfg = tmp_path / "acl.json"
    cfg.write_text('{"op_debug_config": {"enable_debug_kernel": "on"}}')
    assert acl.init(str(cfg)) == 0
    assert aclnn.is_initialized() and aclnn.debug_kernel_enabled()
    assert acl.finalize() == 0
    assert not aclnn.is_initialized() and not aclnn.debug_kernel_enabled()
    assert acl.init() == 0 and aclnn.is_initialized() and not aclnn.debug_kernel_enabled()
    assert acl.finalize() == 0
