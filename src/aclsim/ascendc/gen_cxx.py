"""Write the C++ side of the API table: ``include/aclsim_ascendc_api.h``.

Every callable row becomes an inline C++ function (or member function) that passes its
arguments to the bridge, ``aclsim::detail::call(id, file, line, args...)``, with the caller's
file and line (``__builtin_FILE()`` / ``__builtin_LINE()`` as default arguments: GCC and Clang
evaluate them where the call is written).  A struct row becomes a plain struct with Ascend C's
constructors; an enum row an ``enum class`` with the Python enum's members and values.

``python -m aclsim.ascendc.gen_cxx`` rewrites the header; a test checks it is up to date.
"""

from __future__ import annotations

import enum
import hashlib
import re
import sys
from pathlib import Path

from aclsim.ascendc.table import (
    TABLE_PATH,
    Param,
    Row,
    Table,
    crossing,
    enum_python,
    load,
    out_widths,
    python_namespace,
)

__all__ = ["HEADER_PATH", "cxx_header", "fingerprint", "main"]

HEADER_PATH = Path(__file__).parent / "include" / "aclsim_ascendc_api.h"
#: an array parameter of another element type (``uint16_t elementCountList[4]``) crosses widened to
#: 64-bit words (a temporary that lives until the bridged call returns)
_WORDS = """namespace aclsim { namespace detail {
template <int N> struct Words {
    uint64_t w[N];
    template <class E> explicit Words(const E* a)
    {
        for (int i = 0; i < N; ++i) {
            w[i] = static_cast<uint64_t>(a[i]);
        }
    }
};
} }  // namespace aclsim::detail"""
_LOC = "const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE()"


def fingerprint(table_path: Path = TABLE_PATH) -> str:
    """Changes whenever the table changes: the header and the library must agree on it."""
    return hashlib.sha256(table_path.read_bytes()).hexdigest()[:16]


def _tparams(row: Row, *, with_defaults: bool = True) -> str:
    if not row.tparams:
        return ""
    parts = [f"{p.ctype} {p.name}" + (f" = {p.default}" if p.default and with_defaults else "")
             for p in row.tparams]
    return f"template <{', '.join(parts)}>\n"


def _deduced(row: Row) -> set[str]:
    """Type template parameters deduced from a tensor parameter (``LocalTensor<T>``)."""
    found = set()
    for p in row.params:
        found.update(re.findall(r"<\s*(\w+)\s*>", p.ctype))
    return found


def _param_decl(p: Param, row: Row, t: Table) -> str:
    """A parameter as declared: a plain ``T`` (or ``const T&``) scalar whose ``T`` a tensor
    parameter deduces is non-deduced, so ``Adds(dst, src, 2.0, n)`` compiles for a half tensor."""
    base = p.ctype.replace("const", "").replace("&", "").strip()
    typenames = {q.name for q in row.tparams if q.ctype in ("typename", "class")}
    if base in typenames and base in _deduced(row):
        text = f"::aclsim::detail::nd_t<{base}> {p.name}"
        return f"{text} = {p.default}" if p.default else text
    return p.declaration(t.structs, t.classes)


def _args(row: Row) -> str:
    out = []
    tnames = {p.name: p for p in row.tparams}
    arrays = {p.name: p.ctype for p in row.params if p.ctype.endswith("]")}
    for name in crossing(row):
        if name == "self":
            out.append("*this")
        elif name in arrays:  # uint64_t mask[] (Ascend C reads two words) or mask[N]: N words
            elem, _, dims = arrays[name].rpartition("[")
            n = dims.rstrip("]").strip() or "2"
            words = name if elem.strip() == "uint64_t" else f"::aclsim::detail::Words<{n}>({name}).w"
            out.append(f"::aclsim::detail::Array{{{words}, {n}}}")
        elif name in tnames and tnames[name].ctype in ("typename", "class"):
            out.append(f"::aclsim::detail::Dtype<{name}>{{}}")
        else:
            out.append(name)
    return ", ".join(out)


def _body(row: Row) -> str:
    """The call of the bridge.  An operator has no location parameters: it passes none, and the
    bridge keeps the location of the kernel's previous call."""
    where = "nullptr, 0" if row.cxx_name.startswith("operator") else "aclsim_file_, aclsim_line_"
    call = f"::aclsim::detail::call({row.ident}, {where}" + \
        (f", {_args(row)})" if _args(row) else ")")
    outs = row.out_params
    if len(outs) == 1:  # the Python call's result is written to the output argument
        typ = outs[0].ctype.replace("&", "").strip()
        return f"{{ {outs[0].name} = ::aclsim::detail::unpack<{typ}>({call}); }}"
    if outs:  # several: their values packed in one word, the first lowest
        sets, shift = [], 0
        for p, bits in zip(outs, out_widths(row), strict=True):
            typ = p.ctype.replace("&", "").strip()
            sets.append(f"{p.name} = static_cast<{typ}>((aclsim_r_ >> {shift}) & 0x{(1 << bits) - 1:X}ULL);")
            shift += bits
        return (f"{{ const uint64_t aclsim_r_ = ::aclsim::detail::unpack<uint64_t>({call}); "
                f"{' '.join(sets)} }}")
    if row.ret == "void":
        return f"{{ {call}; }}"
    return f"{{ return ::aclsim::detail::unpack<{row.ret}>({call}); }}"


def _function(row: Row, t: Table, indent: str = "") -> str:
    loc = [_LOC]
    if row.cxx_name.startswith("operator"):  # an operator takes no extra (defaulted) parameters
        loc = []
    params = ", ".join([_param_decl(p, row, t) for p in row.params] + loc)
    tpl = _tparams(row)
    head = f"{indent}{tpl.replace(chr(10), chr(10) + indent).rstrip(' ')}" if tpl else ""
    qual = "__aicore__ inline "
    const = " const" if row.kind == "method" else ""  # objects are handles: every method is const
    return f"{head}{indent}{qual}{row.ret} {row.cxx_name}({params}){const} {_body(row)}\n"


def _struct(row: Row, t: Table) -> str:
    """A plain struct; an array field (``uint16_t elementLengths[4]``) is copied in the constructor."""
    fields, args, init, body = [], [], [], []
    for p in row.params:
        base, bracket, dims = p.ctype.partition("[")
        if bracket:
            fields.append(f"    {base} {p.name}[{dims} = {{}};")
            args.append(f"const {base} {p.name}_[{dims}")
            body.append(f"for (int i = 0; i < {dims.rstrip(']')}; ++i) {{ {p.name}[i] = {p.name}_[i]; }}")
        else:
            fields.append(f"    {p.ctype} {p.name}{' = ' + p.default if p.default else ''};")
            args.append(f"{p.ctype} {p.name}_")
            init.append(f"{p.name}({p.name}_)")
    ident = [r.name for r in t.of("struct")].index(row.name)
    colon = f" : {', '.join(init)}" if init else ""
    copies = f"{{ {' '.join(body)} }}" if body else "{}"
    # ACLSIM_FIELDS_<Name>(X): X(type, name) per field, for handwritten code that walks a struct's
    # fields (the host tiling classes' set_/get_ accessors) without listing them again
    xmacro = " ".join(f"X({p.ctype}, {p.name})" for p in row.params)
    return (f"#define ACLSIM_FIELDS_{row.name}(X) {xmacro}\n"
            f"struct {row.name} {{\n{chr(10).join(fields)}\n    __aicore__ {row.name}() = default;\n"
            f"    __aicore__ {row.name}({', '.join(args)}){colon} {copies}\n"
            f"#ifdef ACLSIM_STRUCT_EXTRA_{row.name}\n    ACLSIM_STRUCT_EXTRA_{row.name}\n#endif\n}};\n"
            f"}}  // namespace AscendC\nnamespace aclsim {{ namespace detail {{\n"
            f"template <> struct StructId<::AscendC::{row.name}> "
            f"{{ static constexpr int value = {ident}; }};\n"
            f"}} }}  // namespace aclsim::detail\nnamespace AscendC {{\n")


def _enum(row: Row, py: type[enum.Enum], ident: int) -> str:
    words = row.underlying.split()
    under = next((w for w in words if w != "unscoped" and not w.startswith("prefix=")), "")
    prefix = next((w[len("prefix="):] for w in words if w.startswith("prefix=")), "")
    scoped = "" if "unscoped" in words else "class "
    members = ",\n".join(f"    {prefix}{m.name} = {int(m.value)}" for m in py)
    return (f"enum {scoped}{row.name}{' : ' + under if under else ''} {{\n{members}\n}};\n"
            f"}}  // namespace AscendC\nnamespace aclsim {{ namespace detail {{\n"
            f"template <> struct EnumId<::AscendC::{row.name}> {{ static constexpr int value = {ident}; }};\n"
            f"}} }}  // namespace aclsim::detail\nnamespace AscendC {{\n")


def _class(row: Row, methods: list[Row], t: Table) -> str:
    tpl = _tparams(row, with_defaults=False)  # the forward declaration has the defaults
    name = row.name
    lines = [f"{tpl}class {name} : public ::aclsim::detail::Object {{", "public:"]
    if row.python == "-":
        lines.append(f"    __aicore__ {name}() = default;")
    else:
        params = ", ".join([_param_decl(p, row, t) for p in row.params] + [_LOC])
        lines.append(f"    __aicore__ {name}({params})\n        : Object(::aclsim::detail::call({row.ident}, "
                     f"aclsim_file_, aclsim_line_{', ' + _args(row) if _args(row) else ''}).v.i) {{}}")
    lines.append(f"    __aicore__ explicit {name}(::aclsim::detail::Handle h) : Object(h.value) {{}}")
    lines.append(f"#ifdef ACLSIM_CLASS_EXTRA_{name}\n    ACLSIM_CLASS_EXTRA_{name}\n#endif")
    for m in methods:
        lines.append(_function(m, t, indent="    ").rstrip("\n"))
    lines.append("};\n")
    return "\n".join(lines)


def _const(row: Row, namespace: dict[str, object]) -> str:
    """``constexpr TYPE NAME = value;`` with the value of the row's Python expression."""
    value = eval(row.python, namespace)  # noqa: S307 - the package's own table
    if isinstance(value, enum.Enum):
        value = value.value
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, int):
        text = str(value) + ("ULL" if value > 0x7FFFFFFF else "")
    elif isinstance(value, float):
        text = repr(value) + ("f" if row.ret == "float" else "")
    else:
        raise ValueError(f"api_cxx.txt:{row.line}: const {row.name} is {value!r}, not a number")
    return f"constexpr {row.ret} {row.name} = {text};"


def cxx_header(table: Table | None = None, namespace: dict[str, object] | None = None) -> str:
    """The generated header's text."""
    t = table or load()
    if namespace is None:
        namespace = python_namespace()
    enums = enum_python(namespace, t)
    out = ["/* Generated from aclsim/ascendc/api_cxx.txt by `python -m aclsim.ascendc.gen_cxx`: "
           "do not edit. */",
           "#pragma once", f'#define ACLSIM_ASCENDC_TABLE "{fingerprint()}"', _WORDS, "namespace AscendC {"]
    methods: dict[str, list[Row]] = {}
    for r in t.of("method"):
        methods.setdefault(r.owner, []).append(r)
    declared = {r.name for r in t.of("class")}
    for owner in methods:
        if owner not in declared:
            raise ValueError(f"api_cxx.txt: methods of {owner}, which has no class row")
    enum_rows = t.of("enum")
    for r in t.rows:  # enums and structs first: the classes' template parameters name them
        if r.kind == "enum":
            out.append(_enum(r, enums[enum_rows.index(r)], enum_rows.index(r)))
        elif r.kind == "struct":
            out.append(_struct(r, t))
    for r in t.of("const"):
        out.append(_const(r, namespace))
    for r in t.of("class"):  # then every class, declared (functions and methods name one another's)
        out.append(f"{_tparams(r)}class {r.name};")
    for r in t.of("class"):
        out.append(_class(r, methods.get(r.name, []), t))
    for r in t.of("fn"):
        out.append(_function(r, t))
    out.append("}  // namespace AscendC\n")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = cxx_header()
    if args == ["--check"]:
        if HEADER_PATH.read_text() != text:
            print(f"{HEADER_PATH} is stale: run python -m aclsim.ascendc.gen_cxx", file=sys.stderr)
            return 1
        return 0
    HEADER_PATH.write_text(text)
    print(f"wrote {HEADER_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
