"""One store of recent error messages: failed aclnn compat calls show in acl.get_recent_err_msg()
and failed pyACL calls in aclGetRecentErrMsg(), as the device's aclGetRecentErrMsg reports both."""

from __future__ import annotations

import threading

import aclsim.acl as acl
from aclsim.aclnn import compat as nn
from aclsim.recent_errors import MAX_MESSAGES, record_error, take_recent_errors


def test_an_aclnn_failure_shows_in_acl_get_recent_err_msg(rt: None) -> None:
    assert acl.get_recent_err_msg() is None
    t = nn.aclCreateTensor([2, 3], nn.ACL_FLOAT, [3, 1], 0, nn.ACL_FORMAT_ND, [2, 3], 0)
    assert nn.aclnnAddGetWorkspaceSize(t, None, 1.0, t) == (0, None, 161001)
    msg = acl.get_recent_err_msg()
    assert msg is not None and msg.startswith("aclnnAddGetWorkspaceSize: [ACLNN_ERR_PARAM_NULLPTR 161001]")
    assert "other is None" in msg
    assert nn.aclGetRecentErrMsg() is None  # read once, from either face


def test_both_faces_fill_one_store_latest_first(rt: None) -> None:
    assert nn.aclSetAclOpExecutorRepeatable(None) == 561103
    _, ret = acl.rt.malloc(-1, 0)
    assert ret != 0
    lines = (nn.aclGetRecentErrMsg() or "").splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("acl.rt.malloc:") and lines[1].startswith("aclSetAclOpExecutorRepeatable:")
    assert acl.get_recent_err_msg() is None


def test_the_store_is_per_thread_and_bounded() -> None:
    record_error("main thread")
    seen: list[str | None] = []
    worker = threading.Thread(target=lambda: seen.append(take_recent_errors()))
    worker.start()
    worker.join(10)
    assert seen == [None]
    for i in range(2 * MAX_MESSAGES):
        record_error(f"m{i}")
    lines = (take_recent_errors() or "").splitlines()
    assert len(lines) == MAX_MESSAGES and lines[0] == f"m{2 * MAX_MESSAGES - 1}"
