"""The C++ API table: it parses, every row's Python call resolves, and the generated header and
docs section are what the table gives (regenerate them after editing api_cxx.txt)."""

from __future__ import annotations

from pathlib import Path

import pytest

from aclsim.ascendc import gen_cxx
from aclsim.ascendc.table import (
    Param,
    TableError,
    crossing,
    dispatch,
    docs_section,
    enum_python,
    load,
    parse_row,
    python_namespace,
    struct_python,
    write_docs,
)

ROOT = Path(__file__).resolve().parents[2]
NAMESPACE = python_namespace()


def _default(p: Param) -> object:
    """A struct field's C++ default as the bridge passes it (an array field: its elements; else 0)."""
    _, bracket, dims = p.ctype.partition("[")
    if bracket:
        return [0] * int(dims.rstrip("]"))
    value = {"true": "1", "false": "0"}.get(p.default, p.default or "0")
    if "::" in value:  # an enum member: the bridge passes its value
        enum_name, _, member = value.partition("::")
        row = next(r for r in load().of("enum") if r.name == enum_name)
        return getattr(eval(row.python, NAMESPACE), member).value
    return int(value) if value.isdigit() else float(value)


def test_every_row_resolves_to_a_python_call() -> None:
    table = load()
    calls = dispatch(NAMESPACE, table)
    assert len(calls) == len(table.callables) > 50
    assert all(callable(fn) for fn, _ in calls)
    structs = struct_python(NAMESPACE, table)
    for row in table.of("struct"):  # the C++ field order is the Python constructor's
        assert structs[row.name](*[_default(p) for p in row.params]) is not None
    for row, py in zip(table.of("enum"), enum_python(NAMESPACE, table), strict=True):
        assert len(list(py)) > 0, row.name


def test_generated_header_is_up_to_date() -> None:
    assert gen_cxx.HEADER_PATH.read_text() == gen_cxx.cxx_header(), \
        "run python -m aclsim.ascendc.gen_cxx after editing api_cxx.txt"


def test_docs_section_is_up_to_date() -> None:
    doc = (ROOT / "docs" / "dsl_mapping.md").read_text()
    assert write_docs(doc, docs_section()) == doc, \
        "run python -m aclsim.ascendc.table --write-docs docs/dsl_mapping.md"


def test_a_row_parses_into_its_parts() -> None:
    row = parse_row("fn Adds<typename T>(LocalTensor<T> dst, LocalTensor<T> src, T scalar, int32_t count)"
                    " = adds", 7)
    assert (row.kind, row.name, [p.name for p in row.tparams]) == ("fn", "Adds", ["T"])
    assert [p.ctype for p in row.params] == ["LocalTensor<T>", "LocalTensor<T>", "T", "int32_t"]
    assert crossing(row) == ["dst", "src", "scalar", "count"]
    method = parse_row("method TQue.AllocTensor<typename T>() -> LocalTensor<T> = self.alloc_tensor(T)", 8)
    assert (method.owner, method.ret) == ("TQue", "LocalTensor<T>")
    assert crossing(method) == ["self", "T"]  # the type crosses as its dtype: the call names it


@pytest.mark.parametrize("text", ["fn (int x) = f", "fn F(int x)", "fn F(int x) junk = f", "thing F() = f"])
def test_a_bad_row_is_refused_with_its_line(text: str) -> None:
    with pytest.raises(TableError, match="api_cxx.txt:3"):
        parse_row(text, 3)


def test_a_const_row_becomes_a_constexpr_of_the_python_value() -> None:
    row = parse_row("const ONE_BLK_SIZE : int32_t = ONE_BLK_SIZE", 4)
    assert (row.kind, row.ret) == ("const", "int32_t")
    assert gen_cxx._const(row, python_namespace()) == "constexpr int32_t ONE_BLK_SIZE = 32;"
    assert "constexpr int32_t MAX_REPEAT_TIMES = 255;" in gen_cxx.HEADER_PATH.read_text()
    with pytest.raises(TableError, match="gives its C\\+\\+ type"):
        parse_row("const X = 3", 5)


def test_the_python_names_without_cxx_are_counted() -> None:
    from aclsim.ascendc.table import python_names_without_cxx

    total, missing = python_names_without_cxx()
    assert total > 300 and len(missing) < total
    assert "Add" not in missing and "DataCopy" not in missing and "TQue.AllocTensor" not in missing
