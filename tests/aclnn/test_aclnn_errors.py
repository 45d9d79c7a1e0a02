"""The aclnn statuses and the single-operator ACL codes live in aclsim.errors with their names."""

from __future__ import annotations

import pytest

from aclsim import errors


@pytest.mark.parametrize(
    ("cls", "code", "name", "base"),
    [
        (errors.AclnnNullptrError, 161001, "ACLNN_ERR_PARAM_NULLPTR", ValueError),
        (errors.AclnnParamInvalidError, 161002, "ACLNN_ERR_PARAM_INVALID", ValueError),
        (errors.AclnnRuntimeError, 361001, "ACLNN_ERR_RUNTIME_ERROR", errors.AclnnError),
        (errors.AclnnTilingError, 561002, "ACLNN_ERR_INNER_TILING_ERROR", ValueError),
        (errors.AclnnInnerNullptrError, 561103, "ACLNN_ERR_INNER_NULLPTR", ValueError),
        (errors.AclnnError, 561000, "ACLNN_ERR_INNER", errors.AclError),
        (errors.OpNotFoundError, 100024, "ACL_ERROR_OP_NOT_FOUND", LookupError),
    ],
)
def test_aclnn_errors_carry_their_status(cls: type, code: int, name: str, base: type) -> None:
    exc = cls("self is None", hint="pass a tensor")
    assert isinstance(exc, base)
    assert (exc.code, exc.code_name) == (code, name)
    assert str(exc) == f"[{name} {code}] self is None; hint: pass a tensor"


def test_success_reads_acl_success() -> None:
    assert errors.code_name(0) == "ACL_SUCCESS"
    assert errors.code_name(errors.ACLNN_SUCCESS) == "ACL_SUCCESS"
    assert errors.code_name(errors.ACL_ERROR_FORMAT_NOT_MATCH) == "ACL_ERROR_FORMAT_NOT_MATCH"
