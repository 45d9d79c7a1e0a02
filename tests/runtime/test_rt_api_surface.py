"""The public surface: exports, enum values, and a guard that every API function is tested."""

from __future__ import annotations

import enum
import inspect
import re
from pathlib import Path

import pytest

import aclsim
from aclsim import errors
from aclsim.runtime import api

API_FUNCTIONS = sorted(name for name in api.__all__
                       if callable(getattr(api, name)) and not inspect.isclass(getattr(api, name)))


def test_runtime_exports_reach_top_level() -> None:
    for name in api.__all__:
        assert getattr(aclsim, name) is getattr(api, name), name
        assert name in aclsim.__all__


@pytest.mark.parametrize("name", API_FUNCTIONS)
def test_every_api_function_has_a_test(name: str) -> None:
    this = Path(__file__).resolve()
    sources = "\n".join(p.read_text(encoding="utf-8") for p in this.parent.glob("test_*.py") if p != this)
    assert re.search(rf"\baclsim\.{name}\(", sources), f"aclsim.{name} is not called by any runtime test"


def test_enum_values_match_acl() -> None:
    assert [(m.name, m.value) for m in aclsim.MemcpyKind] == [
        ("HOST_TO_HOST", 0), ("HOST_TO_DEVICE", 1), ("DEVICE_TO_HOST", 2), ("DEVICE_TO_DEVICE", 3),
        ("DEFAULT", 4), ("HOST_TO_BUF_TO_DEVICE", 5), ("INNER_DEVICE_TO_DEVICE", 6),
        ("INTER_DEVICE_TO_DEVICE", 7)]
    assert (aclsim.MemAttr.DDR_MEM, aclsim.MemAttr.HBM_MEM, aclsim.MemAttr.HBM_MEM_NORMAL) == (0, 1, 5)
    assert (aclsim.RunMode.DEVICE, aclsim.RunMode.HOST) == (0, 1)
    assert (aclsim.CallbackBlockType.NO_BLOCK, aclsim.CallbackBlockType.BLOCK) == (0, 1)
    for cls in (aclsim.MemcpyKind, aclsim.MemAttr, aclsim.RunMode, aclsim.EventRecordedStatus,
                aclsim.EventStatus, aclsim.CallbackBlockType):
        assert issubclass(cls, enum.IntEnum)


def test_error_codes() -> None:
    expected = {
        "ACL_ERROR_INVALID_PARAM": 100000, "ACL_ERROR_UNINITIALIZE": 100001,
        "ACL_ERROR_REPEAT_INITIALIZE": 100002, "ACL_ERROR_INVALID_FILE": 100003,
        "ACL_ERROR_PARSE_FILE": 100006, "ACL_ERROR_REPEAT_SUBSCRIBE": 100033,
        "ACL_ERROR_REPEAT_FINALIZE": 100037, "ACL_ERROR_RT_PARAM_INVALID": 107000,
        "ACL_ERROR_RT_INVALID_DEVICEID": 107001, "ACL_ERROR_RT_CONTEXT_NULL": 107002,
        "ACL_ERROR_RT_STREAM_CONTEXT": 107003, "ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID": 107006,
        "ACL_ERROR_RT_THREAD_SUBSCRIBE": 107012, "ACL_ERROR_RT_STREAM_NO_CB_REG": 107015,
        "ACL_ERROR_RT_INVALID_MEMORY_TYPE": 107016, "ACL_ERROR_RT_INVALID_HANDLE": 107017,
        "ACL_ERROR_RT_MEMORY_ALLOCATION": 207001, "ACL_ERROR_RT_MEMORY_FREE": 207002,
        "ACL_ERROR_RT_INTERNAL_ERROR": 507000, "ACL_ERROR_RT_EVENT_NOT_COMPLETE": 507006,
        "ACL_ERROR_RT_REPORT_TIMEOUT": 507012, "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT": 507046,
        "ACL_ERROR_RT_EVENT_SYNC_TIMEOUT": 507047,
    }
    for name, code in expected.items():
        assert getattr(errors, name) == code
        assert errors.code_name(code) == name
    assert errors.code_name(123) == "UNKNOWN"


def test_error_message_format() -> None:
    err = errors.InvalidHandleError("stream 7 is gone", hint="create a new one")
    assert str(err) == "[ACL_ERROR_RT_INVALID_HANDLE 107017] stream 7 is gone; hint: create a new one"
    assert err.code_name == "ACL_ERROR_RT_INVALID_HANDLE" and err.hint == "create a new one"
    assert isinstance(err, errors.AclError) and isinstance(err, ValueError)
    assert errors.AclError("x", code=1).code == 1
    assert issubclass(errors.DeadlockError, errors.StreamSyncTimeoutError)
