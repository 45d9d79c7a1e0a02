"""The C++ Ascend C API table (``api_cxx.txt``): one row per C++ overload, read once, from which

- :func:`cxx_header` writes the C++ side (``include/aclsim_ascendc_api.h``: the structs, enums,
  classes with their methods, and functions a kernel calls, each forwarding its arguments to
  the bridge with the caller's file and line),
- :func:`dispatch` builds the Python side (per row id, the ``aclsim.kernel`` call the row names),
- :func:`cdef` gives cffi the structs' C layout (the bridge reads a struct argument in place),
- :func:`docs_section` renders the C++ rows of ``docs/dsl_mapping.md``.

Nothing is written twice by hand: a row is the C++ declaration and the Python call, in that
order.  The grammar (one row per line, ``#`` starts a comment; see the file's header):

``fn Name<template params>(params) -> Ret = python``
    a function in ``namespace AscendC``;
``method Class.Name<template params>(params) -> Ret = python``
    a member function (``self`` is the object);
``class Name<template params>(params) = python``
    a class whose C++ objects stand for the Python object ``python`` makes (the constructor);
``struct Name(fields) = python``
    a plain struct (fields ``type name = default``) that crosses by address and is rebuilt on
    the Python side as ``python(*fields)``;
``enum Name = python`` / ``enum Name : type = python``
    an ``enum class`` whose members and values are those of the Python enum ``python``;
``const NAME : type = python``
    a ``constexpr`` of the value ``python`` has (a chip-independent constant of aclsim.kernel).

``python`` is a name of ``aclsim.kernel`` (called with the C++ parameters in order) or a Python
expression over the parameter names, the template parameters and ``self``.  ``-> Ret`` defaults
to ``void``.
"""

from __future__ import annotations

import argparse
import enum
import functools
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["CLASS_TYPES", "DOCS_BEGIN", "DOCS_END", "Param", "Row", "TABLE_PATH", "Table", "cdef", "dispatch",
           "docs_section", "load", "main", "out_widths", "python_namespace", "write_docs"]

TABLE_PATH = Path(__file__).with_name("api_cxx.txt")

#: C++ scalar types and how a value of each crosses (int or float)
INT_TYPES = frozenset({"int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t",
                       "uint64_t", "int", "unsigned", "size_t", "bool", "char"})
FLOAT_TYPES = frozenset({"float", "double", "half", "bfloat16_t"})
#: the classes the front end's core header defines by hand (tensors, queues) or the table declares
CLASS_TYPES = ("LocalTensor", "GlobalTensor", "TPipe", "TQue", "TQueBind", "TBuf")


@dataclass(frozen=True)
class Param:
    """One parameter: its C++ type as written, its name and its default (C++ text, or '')."""

    ctype: str
    name: str
    default: str = ""

    @property
    def base(self) -> str:
        """The type without qualifiers, reference and template arguments (``LocalTensor``)."""
        t = re.sub(r"\b(const|volatile|__gm__)\b", "", self.ctype).replace("&", "").strip()
        return t.split("<", 1)[0].strip()

    def declaration(self, structs: frozenset[str], classes: frozenset[str]) -> str:
        """The parameter as the generated C++ declares it: objects and structs by const reference."""
        t = self.ctype
        if t.endswith("]"):  # uint64_t mask[] -> const uint64_t mask[]
            typ, _, dims = t.partition("[")
            text = f"const {typ.strip()} {self.name}[{dims}"
        elif (self.base in structs or self.base in classes) and "&" not in t and "*" not in t:
            text = f"const {t}& {self.name}"
        else:
            text = f"{t} {self.name}"
        return f"{text} = {self.default}" if self.default else text


@dataclass(frozen=True)
class Row:
    """One row of the table (see the module's docstring)."""

    kind: str  # fn, method, class, struct, enum
    name: str  # fn/class/struct/enum: the C++ name; method: Class.Name
    tparams: tuple[Param, ...] = ()
    params: tuple[Param, ...] = ()
    ret: str = "void"
    python: str = ""
    line: int = 0
    underlying: str = ""  # enum: the C++ underlying type
    ident: int = -1  # the bridge's id of a callable row (fn, method, class constructor)

    @property
    def cxx_name(self) -> str:
        return self.name.rsplit(".", 1)[-1]

    @property
    def out_params(self) -> list[Param]:
        """A void function row's output arguments: its non-const scalar reference parameters
        (``uint64_t& rsvdCnt``), which receive the Python call's return value (several: its items,
        crossing packed in one 64-bit word, each in its type's width, the first lowest)."""
        if self.ret != "void" or self.kind != "fn":
            return []
        return [p for p in self.params if re.fullmatch(r"\w+\s*&", p.ctype)]

    @property
    def returns(self) -> str:
        """The C++ type the Python call's result crosses as (a class row: the class; a row with an
        output argument: its type; with several: ``uint64_t``, packed)."""
        if self.kind == "class":
            return self.name
        outs = self.out_params
        if len(outs) > 1:
            return "uint64_t"
        return outs[0].ctype.replace("&", "").strip() if outs else self.ret

    @property
    def owner(self) -> str:
        return self.name.split(".", 1)[0] if self.kind == "method" else ""

    def signature(self) -> str:
        """The row's C++ declaration, for the docs."""
        tpl = f"template <{', '.join(_tparam_text(p) for p in self.tparams)}> " if self.tparams else ""
        args = ", ".join(f"{p.ctype} {p.name}" + (f" = {p.default}" if p.default else "")
                         for p in self.params)
        if self.kind == "class":
            return f"{tpl}class {self.name}"
        if self.kind == "struct":
            return f"struct {self.name} {{ {'; '.join(f'{p.ctype} {p.name}' for p in self.params)}; }}"
        if self.kind == "enum":
            return f"enum class {self.name}"
        if self.kind == "const":
            return f"constexpr {self.ret} {self.name}"
        return f"{tpl}{self.ret} {self.name}({args})"


@dataclass
class Table:
    rows: list[Row] = field(default_factory=list)

    def of(self, kind: str) -> list[Row]:
        return [r for r in self.rows if r.kind == kind]

    @property
    def structs(self) -> frozenset[str]:
        return frozenset(r.name for r in self.of("struct"))

    @property
    def enums(self) -> frozenset[str]:
        return frozenset(r.name for r in self.of("enum"))

    @property
    def classes(self) -> frozenset[str]:
        return frozenset(CLASS_TYPES) | frozenset(r.name for r in self.of("class"))

    @property
    def callables(self) -> list[Row]:
        return [r for r in self.rows if r.ident >= 0]


class TableError(ValueError):
    """A row of ``api_cxx.txt`` does not parse (the message names the line)."""


def _tparam_text(p: Param) -> str:
    return f"{p.ctype} {p.name}" + (f" = {p.default}" if p.default else "")


def _split_top(text: str, sep: str = ",") -> list[str]:
    """Split at ``sep`` outside <>, (), [] and {}."""
    out: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in text:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == sep and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    tail = "".join(cur).strip()
    if tail:
        out.append(tail)
    return out


def _params(text: str) -> tuple[Param, ...]:
    params = []
    for part in _split_top(text):
        decl, _, default = part.partition("=")
        decl = decl.strip()
        m = re.match(r"^(.*?)([A-Za-z_]\w*)\s*(\[\w*\])?$", decl)
        if m is None or not m.group(1).strip():
            raise TableError(f"cannot read the parameter {part!r}")
        ctype = m.group(1).strip() + (m.group(3) or "")
        params.append(Param(ctype, m.group(2), default.strip()))
    return tuple(params)


def _matching(text: str, start: int, open_: str, close: str) -> int:
    depth = 0
    for i in range(start, len(text)):
        if text[i] == open_:
            depth += 1
        elif text[i] == close:
            depth -= 1
            if depth == 0:
                return i
    raise TableError(f"unbalanced {open_}{close} in {text!r}")


_HEAD = re.compile(r"^(fn|method|class|struct|enum|const)\s+"
                   r"([A-Za-z_][\w.]*?(?:operator(?:\[\]|\(\)|[-+*/=<>!&|]+))?)\s*(?=[<(=:]|$)")


def parse_row(text: str, line: int) -> Row:
    """One row of the table (without its comment)."""
    m = _HEAD.match(text)
    if m is None:
        raise TableError(f"api_cxx.txt:{line}: a row starts with fn, method, class, struct, enum or const")
    kind, name = m.group(1), m.group(2)
    rest = " " + text[m.end():]
    try:
        body, sep, python = rest.rpartition(" = ")
        if not sep:
            raise TableError("no ' = python' part")
        python = python.strip()
        body = body.strip()
        if kind == "enum":
            underlying = body[1:].strip() if body.startswith(":") else ""
            return Row(kind, name, python=python, line=line, underlying=underlying)
        if kind == "const":
            if not body.startswith(":") or not body[1:].strip():
                raise TableError("a const row gives its C++ type: const NAME : TYPE = python")
            return Row(kind, name, ret=body[1:].strip(), python=python, line=line)
        tparams: tuple[Param, ...] = ()
        if body.startswith("<"):
            end = _matching(body, 0, "<", ">")
            tparams = _params(body[1:end])
            body = body[end + 1:].strip()
        if not body.startswith("("):
            raise TableError("the parameter list (...) is missing")
        end = _matching(body, 0, "(", ")")
        params = _params(body[1:end])
        tail = body[end + 1:].strip()
        ret = tail[2:].strip() if tail.startswith("->") else "void"
        if tail and not tail.startswith("->"):
            raise TableError(f"unexpected {tail!r} after the parameters")
    except TableError as exc:
        raise TableError(f"api_cxx.txt:{line}: {exc}") from None
    if kind == "method" and "." not in name:
        raise TableError(f"api_cxx.txt:{line}: a method row names Class.Method")
    return Row(kind, name, tparams, params, ret, python, line)


@functools.lru_cache(maxsize=4)
def load(path: Path = TABLE_PATH) -> Table:
    """The table (cached); callable rows get their bridge ids in table order."""
    table = Table()
    ident = 0
    pending = ""
    start = 0
    for n, raw in enumerate(path.read_text().splitlines(), 1):
        text = raw.split("#", 1)[0].rstrip()
        if not text.strip():
            continue
        if raw[:1].isspace() and pending:  # a continuation line
            pending += " " + text.strip()
            continue
        if pending:
            row = parse_row(pending, start)
            if row.kind in ("fn", "method", "class") and row.python != "-":
                row = Row(**{**row.__dict__, "ident": ident})
                ident += 1
            table.rows.append(row)
        pending, start = text.strip(), n
    if pending:
        row = parse_row(pending, start)
        if row.kind in ("fn", "method", "class") and row.python != "-":
            row = Row(**{**row.__dict__, "ident": ident})
        table.rows.append(row)
    return table


# --- the Python side ---------------------------------------------------------------------------

def python_namespace() -> dict[str, Any]:
    """What a row's Python call sees: every name of ``aclsim.kernel``, the module as ``asc``,
    and the front end's adapters (:mod:`aclsim.ascendc.adapters`) as ``cxx``."""
    import aclsim.kernel as asc
    from aclsim.ascendc import adapters

    return {**vars(asc), "asc": asc, "cxx": adapters}


def _referenced(row: Row) -> list[str]:
    """The template parameters the row's Python call names (they cross after the parameters)."""
    if re.fullmatch(r"[\w.]+", row.python):
        return []
    return [p.name for p in row.tparams if re.search(rf"\b{re.escape(p.name)}\b", row.python)]


def crossing(row: Row) -> list[str]:
    """The names that cross for a call of ``row``, in order: ``self`` for a method, the
    parameters (not the output arguments: they receive the result), then the template parameters
    its Python call names."""
    names = ["self"] if row.kind == "method" else []
    outs = {p.name for p in row.out_params}
    return names + [p.name for p in row.params if p.name not in outs] + _referenced(row)


def python_callable(row: Row, namespace: dict[str, Any]) -> Callable[..., Any]:
    """The Python function a row calls, taking the crossing names positionally."""
    names = crossing(row)
    if re.fullmatch(r"[\w.]+", row.python):
        target = row.python if row.kind != "method" else f"self.{row.python}"
        expr = f"{target}({', '.join(n for n in names if n != 'self')})"
    else:
        expr = row.python
    try:
        fn = eval(f"lambda {', '.join(names)}: {expr}", namespace)  # noqa: S307 - the package's own table
    except SyntaxError as exc:
        raise TableError(f"api_cxx.txt:{row.line}: the Python call {row.python!r} does not parse: {exc}"
                         ) from None
    if not callable(fn):
        raise TableError(f"api_cxx.txt:{row.line}: {row.python!r} is not callable")
    return fn


#: the width in bits of an output argument's type (several outputs cross packed in 64 bits)
OUT_BITS = {"bool": 8, "int8_t": 8, "uint8_t": 8, "int16_t": 16, "uint16_t": 16, "int32_t": 32,
            "uint32_t": 32}


def out_widths(row: Row) -> list[int]:
    """The bit widths of a row's several output arguments (they must fit 64 bits together)."""
    types = [p.ctype.replace("&", "").strip() for p in row.out_params]
    if any(t not in OUT_BITS for t in types) or sum(OUT_BITS.get(t, 64) for t in types) > 64:
        raise TableError(f"api_cxx.txt:{row.line}: {row.name}'s output arguments ({', '.join(types)}) do "
                         "not fit one 64-bit result: integers of at most 32 bits, 64 bits in all")
    return [OUT_BITS[t] for t in types]


def _packed(fn: Callable[..., Any], widths: list[int]) -> Callable[..., int]:
    """``fn`` whose result (one item per output argument) is packed into one integer."""
    def call(*args: Any) -> int:
        items = fn(*args)
        if len(items) != len(widths):
            raise TypeError(f"the Python call returned {len(items)} values for {len(widths)} output "
                            "arguments")
        word, shift = 0, 0
        for value, bits in zip(items, widths, strict=True):
            word |= (int(value) & ((1 << bits) - 1)) << shift
            shift += bits
        return word
    return call


def dispatch(namespace: dict[str, Any], table: Table | None = None) -> list[tuple[Callable[..., Any], str]]:
    """Per bridge id: the Python function and the C++ return type of the row."""
    t = table or load()
    out = []
    for r in t.callables:
        fn = python_callable(r, namespace)
        if len(r.out_params) > 1:
            fn = _packed(fn, out_widths(r))
        out.append((fn, r.returns))
    return out


def struct_python(namespace: dict[str, Any], table: Table | None = None) -> dict[str, Callable[..., Any]]:
    """Per struct name: the Python constructor its fields are passed to."""
    t = table or load()
    return {r.name: eval(r.python, namespace) for r in t.of("struct")}  # noqa: S307


def enum_python(namespace: dict[str, Any], table: Table | None = None) -> list[type[enum.Enum]]:
    """Per enum id (table order of the enum rows): the Python enum."""
    t = table or load()
    return [eval(r.python, namespace) for r in t.of("enum")]  # noqa: S307


# --- the C side ---------------------------------------------------------------------------------

_C_FIELD = {"half": "uint16_t", "bfloat16_t": "uint16_t", "bool": "uint8_t"}


def cdef(table: Table | None = None) -> str:
    """The structs' C layout for cffi (``half`` fields as their 16 bits)."""
    t = table or load()
    out = []
    for r in t.of("struct"):
        fields = " ".join(_c_field(p, t) for p in r.params)
        out.append(f"typedef struct {{ {fields} }} aclsim_struct_{r.name};")
    return "\n".join(out)


def _c_field(p: Param, t: Table) -> str:
    """One field of a struct's C layout (an array field, ``uint16_t elementLengths[4]``, as an array)."""
    base, bracket, dims = p.ctype.partition("[")
    return f"{_C_FIELD.get(base, _c_type(base, t))} {p.name}{bracket}{dims};"


def _c_type(ctype: str, t: Table) -> str:
    if ctype in t.enums:
        under = next(r.underlying for r in t.of("enum") if r.name == ctype)
        # the underlying type only (the row may go on with "unscoped" and "prefix=P")
        words = [w for w in under.split() if w != "unscoped" and not w.startswith("prefix=")]
        return words[0] if words else "int32_t"
    return ctype


# --- the docs -----------------------------------------------------------------------------------

DOCS_BEGIN = "<!-- cxx-table:begin (generated by python -m aclsim.ascendc.table; do not edit) -->"
DOCS_END = "<!-- cxx-table:end -->"


def _md(text: str) -> str:
    return text.replace("|", "\\|")


#: the kinds of the kernel table's rows that name something a C++ kernel writes
_CXX_KINDS = ("function", "class", "method", "enum", "constant", "macro", "type")


def python_names_without_cxx(table: Table | None = None) -> tuple[int, list[str]]:
    """``(n, missing)``: how many Ascend C names the Python language has (done or partial rows of
    ``aclsim/kernel/api_table.txt``), and those no table row nor handwritten header declares."""
    from aclsim.kernel.api_table import load_table

    t = table or load()
    names = {r.cxx_name for r in t.rows} | {r.name for r in t.rows}
    headers = "\n".join(path.read_text() for path in (TABLE_PATH.parent / "include").rglob("*.h"))
    entries = [e for e in load_table()
               if e.status in ("done", "partial") and e.ascend != "-" and e.kind in _CXX_KINDS]
    missing = [e.ascend for e in entries if e.ascend.split(".")[-1] not in names
               and re.search(rf"\b{re.escape(e.ascend.split('.')[-1])}\b", headers) is None]
    return len(entries), sorted(missing)


def docs_section(table: Table | None = None) -> str:
    """The C++ API section of ``docs/dsl_mapping.md``, markers included: how much of the Python
    language the C++ front has, every row of the table, its C++ declaration and the Python call it runs."""
    t = table or load()
    callables = t.callables
    total, missing = python_names_without_cxx(t)
    lines = [DOCS_BEGIN, "",
             f"{len(callables)} C++ overloads ({len({r.name for r in callables})} names), "
             f"{len(t.of('struct'))} structs, {len(t.of('enum'))} enums; generated from "
             "`src/aclsim/ascendc/api_cxx.txt`.", "",
             f"Of the {total} Ascend C names the Python language has (done or partial above), "
             f"{total - len(missing)} ({(total - len(missing)) / max(total, 1):.1%}) are declared in C++; "
             f"not yet: {', '.join(f'`{n}`' for n in missing) or 'none'}.", "",
             "| C++ (namespace AscendC) | aclsim.kernel |", "| --- | --- |"]
    for r in t.rows:
        if r.kind in ("fn", "method"):
            python = r.python if not re.fullmatch(r"[\w.]+", r.python) else (
                f"{'self.' if r.kind == 'method' else ''}{r.python}(...)")
            lines.append(f"| `{_md(r.signature())}` | `{_md(python)}` |")
        elif r.kind in ("class", "struct", "enum", "const"):
            python = "(no Python object: a handle)" if r.python == "-" else r.python
            lines.append(f"| `{_md(r.signature())}` | `{_md(python)}` |")
    lines += ["", DOCS_END]
    return "\n".join(lines)


def write_docs(doc: str, rendered: str) -> str:
    """``doc`` with the text between the markers (markers included) replaced by ``rendered``."""
    start, end = doc.find(DOCS_BEGIN), doc.find(DOCS_END)
    if start < 0 or end < 0:
        raise ValueError(f"the markers {DOCS_BEGIN!r} ... {DOCS_END!r} are not in the document")
    return doc[:start] + rendered + doc[end + len(DOCS_END):]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m aclsim.ascendc.table",
                                     description="check api_cxx.txt and render its docs section")
    parser.add_argument("--write-docs", metavar="PATH", help="rewrite the section between the markers")
    args = parser.parse_args(argv)
    table = load()
    if args.write_docs:
        path = Path(args.write_docs)
        path.write_text(write_docs(path.read_text(), docs_section(table)))
        print(f"wrote the C++ API section of {path}")
    else:
        print(f"{len(table.callables)} callable rows, {len(table.rows)} rows", file=sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
