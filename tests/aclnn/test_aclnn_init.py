"""aclnnInit / aclnnFinalize as OPBASE's aclnn_init.cpp: success for every path and config, the
enable_debug_kernel switch read from the JSON file or NPU_COLLECT_PATH."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from aclsim import aclnn
from aclsim.aclnn import compat as nn
from aclsim.errors import AclnnParamInvalidError


@pytest.fixture(autouse=True)
def clean(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("NPU_COLLECT_PATH", raising=False)
    yield
    if aclnn.is_initialized():
        aclnn.finalize()


def _config(tmp_path: Path, value: object) -> str:
    p = tmp_path / "acl.json"
    p.write_text(json.dumps(value))
    return str(p)


def test_the_debug_switch_is_read_from_the_config(tmp_path: Path) -> None:
    assert not aclnn.is_initialized()
    aclnn.init(_config(tmp_path, {"op_debug_config": {"enable_debug_kernel": "on"}}))
    assert aclnn.is_initialized() and aclnn.debug_kernel_enabled()
    aclnn.finalize()
    assert not aclnn.is_initialized() and not aclnn.debug_kernel_enabled()
    aclnn.init(_config(tmp_path, {"op_debug_config": {"enable_debug_kernel": "off"}}))
    assert not aclnn.debug_kernel_enabled()


def test_bad_paths_and_files_succeed_with_the_switch_off(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with caplog.at_level(logging.WARNING, logger="aclsim.aclnn"):
        for path in (None, "", str(tmp_path / "missing.json"), str(bad), _config(tmp_path, {"dump": {}})):
            assert nn.aclnnInit(path) == 0
            assert aclnn.is_initialized() and not aclnn.debug_kernel_enabled()
            assert nn.aclnnFinalize() == 0
    assert nn.aclGetRecentErrMsg() is None
    assert any("is not JSON" in r.message for r in caplog.records)


def test_second_init_and_lone_finalize_succeed_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="aclsim.aclnn"):
        assert nn.aclnnInit(None) == 0 and nn.aclnnInit(None) == 0
        assert nn.aclnnFinalize() == 0 and nn.aclnnFinalize() == 0
    text = "\n".join(r.message for r in caplog.records)
    assert "called again" in text and "without aclnnInit" in text


def test_npu_collect_path_turns_the_switch_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NPU_COLLECT_PATH", "/tmp/collect")
    aclnn.init(None)
    assert aclnn.debug_kernel_enabled()


def test_a_config_path_that_is_not_a_path_is_161002() -> None:
    with pytest.raises(AclnnParamInvalidError, match="configPath must be a path"):
        aclnn.init(3)  # type: ignore[arg-type]
    assert not aclnn.is_initialized()
    assert nn.aclnnInit(3) == 161002
    assert "configPath" in (nn.aclGetRecentErrMsg() or "")
