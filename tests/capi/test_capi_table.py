"""The prototype table: every declared function has a Python implementation and the other
way round, and the headers' constants are aclsim's (no compiler needed)."""

from __future__ import annotations

import re

import pytest

import aclsim.acl as acl
import aclsim.errors as errors
from aclsim.aclnn.dtypes import DataType, Format
from aclsim.capi import prototypes
from aclsim.capi.cdata import IMPLS
from aclsim.capi.embedded import missing_implementations


def test_every_prototype_has_an_implementation() -> None:
    assert missing_implementations() == []
    declared = {p.name for p in prototypes.load()}
    assert set(IMPLS) - declared == set(), "implementations without a prototype in the headers"


def test_seed_and_sample_functions_are_declared() -> None:
    declared = {p.name for p in prototypes.load()}
    needed = {"aclInit", "aclFinalize", "aclrtSetDevice", "aclrtResetDevice", "aclrtGetDeviceCount",
              "aclrtCreateContext", "aclrtDestroyContext", "aclrtSetCurrentContext", "aclrtGetCurrentContext",
              "aclrtCreateStream", "aclrtDestroyStream", "aclrtSynchronizeStream", "aclrtCreateEvent",
              "aclrtRecordEvent", "aclrtSynchronizeEvent", "aclrtQueryEventStatus", "aclrtEventElapsedTime",
              "aclrtDestroyEvent", "aclrtMalloc", "aclrtFree", "aclrtMallocHost", "aclrtFreeHost",
              "aclrtMemset", "aclrtMemcpy", "aclrtMemcpyAsync", "aclrtGetMemInfo", "aclrtGetRunMode",
              "aclrtLaunchCallback", "aclrtSubscribeReport", "aclrtUnSubscribeReport", "aclrtProcessReport",
              "aclGetRecentErrMsg", "aclrtGetVersion", "aclCreateDataBuffer", "aclCreateTensorDesc",
              "acldvppMalloc", "acldvppFree", "aclopExecuteV2", "aclopCreateHandle", "aclopExecWithHandle"}
    assert needed <= declared


def _header_text() -> str:
    return "\n".join((prototypes.INCLUDE_DIR / h).read_text() for h in prototypes.HEADERS)


def test_error_codes_are_aclsims() -> None:
    codes = dict(re.findall(r"static const int (\w+) = (-?\d+);", _header_text()))
    assert codes, "no error codes in the headers"
    for name, value in codes.items():
        assert getattr(errors, name) == int(value), name
    exported = {n for n in dir(errors) if n.startswith("ACL_") and isinstance(getattr(errors, n), int)}
    assert exported <= set(codes), f"codes missing from acl_base.h: {sorted(exported - set(codes))}"


def test_enum_and_flag_values_are_aclsims() -> None:
    text = _header_text()
    values = {n: int(v, 0) for n, v in re.findall(r"^\s+(ACL_\w+) = (-?(?:0x)?[0-9A-Fa-f]+),?$", text, re.M)}
    defines = re.findall(r"#define (ACL_\w+) (0x[0-9A-Fa-f]+u?)", text)
    values.update({n: int(v.rstrip("u"), 0) for n, v in defines})
    assert len(values) > 80
    enums = {m.name: int(m) for m in DataType} | {m.name: int(m) for m in Format}
    checked = 0
    for name, value in values.items():
        expected = getattr(acl, name, enums.get(name))
        if expected is not None:
            assert value == expected, name
            checked += 1
    assert checked > 70


def test_canonical_types() -> None:
    typedefs = {"aclrtStream": "void *", "aclrtMemcpyKind": "int", "aclTensorDesc": "void"}
    assert prototypes.canonical("aclrtStream *", typedefs) == "void **"
    assert prototypes.canonical("const aclTensorDesc *", typedefs) == "void *"
    assert prototypes.canonical("aclrtMemcpyKind", typedefs) == "int"
    assert prototypes.canonical("const char *", typedefs) == "const char *"
    assert prototypes.canonical("const int64_t *", typedefs) == "int64_t *"
    with pytest.raises(ValueError, match="unknown C type"):
        prototypes.canonical("aclOpaqueThing *", typedefs)


def test_a_declaration_is_parsed_whole() -> None:
    text = """
    /* a comment with ACL_FUNC_VISIBILITY int fake(void); inside */
    ACL_FUNC_VISIBILITY aclError aclrtThing(aclrtStream stream,
                                            const void *src, size_t count);
    """
    (proto,) = prototypes.parse(text, "x.h", {"aclError": "int", "aclrtStream": "void *"})
    assert proto.name == "aclrtThing" and proto.failure == errors.ACL_ERROR_INTERNAL_ERROR
    assert [(p.name, p.canonical) for p in proto.params] == [("stream", "void *"), ("src", "void *"),
                                                             ("count", "size_t")]


@pytest.mark.parametrize("module", ["aclsim.capi", "aclsim.capi.prototypes", "aclsim.runtime.foreign"])
def test_doctests(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
