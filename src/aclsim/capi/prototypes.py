"""The one table of the C face: the exported declarations of the headers under ``include/``.

Every ``ACL_FUNC_VISIBILITY`` declaration of a header in :data:`HEADERS` is one C function
of the library.  The build (:mod:`aclsim.capi.build`) generates from this table the
embedded Python entry points, the C wrapper in front of each, and their failure values;
:mod:`aclsim.capi.embedded` binds each to the Python implementation of the same name.
Adding a function is adding its prototype to a header and its implementation (a test
checks that every prototype has one).

Each parameter type is reduced to the C type the Python side sees (its "canonical" type):
an enum is an ``int``, a handle or an opaque struct pointer a ``void *``, pointers keep
their depth (``aclrtContext *`` is ``void **``), ``const char *`` stays a string.  A
``void *`` crosses as its address (:func:`transport`): Python receives and returns ints.

>>> protos = {p.name: p for p in load()}
>>> p = protos["aclrtMalloc"]
>>> p.ret, [(q.ctype, q.canonical) for q in p.params]
('aclError', [('void **', 'void **'), ('size_t', 'size_t'), ('aclrtMemMallocPolicy', 'int')])
>>> protos["aclCreateTensorDesc"].ret_canonical, protos["aclGetTensorDescType"].failure
('void *', -1)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = ["HEADERS", "INCLUDE_DIR", "Param", "Prototype", "canonical", "load", "parse", "transport"]

INCLUDE_DIR = Path(__file__).resolve().parent / "include"

def _headers() -> tuple[str, ...]:
    """Every header under ``include/``, AscendCL's first: adding a header (an aclnn op's, say)
    adds its functions to the library."""
    found = sorted(p.relative_to(INCLUDE_DIR).as_posix() for p in INCLUDE_DIR.rglob("*.h"))
    return tuple(sorted(found, key=lambda h: (not h.startswith("acl/"), h)))


#: the headers whose declarations make the library
HEADERS: tuple[str, ...] = _headers()

#: the markers of an exported declaration (AscendCL's, and aclnn's)
_EXPORT_MARKERS = ("ACL_FUNC_VISIBILITY", "ACLNN_API")

#: C scalar types the Python side receives as they are
_SCALARS = frozenset({
    "char", "int", "unsigned", "unsigned int", "long", "unsigned long", "float", "double", "bool", "size_t",
    "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "uintptr_t",
})

#: what a function returns when it could not run (Python failed or the library did not start),
#: by declared return type; any other type returns 0 / NULL
FAILURE_VALUES: dict[str, int] = {
    "aclError": 500000,  # ACL_ERROR_INTERNAL_ERROR
    "aclDataType": -1,  # ACL_DT_UNDEFINED
    "aclFormat": -1,  # ACL_FORMAT_UNDEFINED
    "int64_t": -1,  # aclGetTensorDescDim's "no such dimension"
    "aclnnStatus": 561000,  # ACLNN_ERR_INNER
}


def transport(canonical_type: str) -> str:
    """How a value of a canonical type crosses to Python: a ``void *`` (a handle, a device or
    host address, a function pointer) as its address, a ``uintptr_t`` (an int on the Python
    side, no cast needed); everything else as it is."""
    return "uintptr_t" if canonical_type == "void *" else canonical_type


@dataclass(frozen=True)
class Param:
    """One parameter: its declared type, name, and the type the Python side sees."""

    ctype: str
    name: str
    canonical: str

    @property
    def transport(self) -> str:
        return transport(self.canonical)


@dataclass(frozen=True)
class Prototype:
    """One exported C function."""

    name: str
    ret: str
    ret_canonical: str
    params: tuple[Param, ...]
    header: str

    @property
    def failure(self) -> int | None:
        """The value returned when the call could not run; ``None`` for a ``void`` function."""
        if self.ret_canonical == "void":
            return None
        return FAILURE_VALUES.get(self.ret, 0)

    @property
    def ret_transport(self) -> str:
        return transport(self.ret_canonical)

    def c_declaration(self, name: str, *, embedded: bool, extra: str = "") -> str:
        """The declaration ``ret name(params)``: with the types that cross to Python
        (``embedded``, :func:`transport`) or with the header's."""
        params = [f"{p.transport if embedded else p.ctype} {p.name}" for p in self.params]
        if extra:
            params.insert(0, extra)
        ret = self.ret_transport if embedded else self.ret
        return f"{ret} {name}({', '.join(params) or 'void'})"


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def _typedefs(text: str) -> dict[str, str]:
    """typedef name -> what it stands for: ``int`` (enums), ``void`` (opaque structs), ``void *``
    (handles, function pointers) or a scalar type."""
    out: dict[str, str] = {}
    for m in re.finditer(r"typedef\s+enum\s*\w*\s*\{[^}]*\}\s*(\w+)\s*;", text):
        out[m.group(1)] = "int"
    for m in re.finditer(r"typedef\s+struct\s+\w+\s*\*?\s*(\w+)\s*;", text):
        out[m.group(1)] = "void"
    for m in re.finditer(r"typedef\s+[\w\s]+\(\s*\*\s*(\w+)\s*\)\s*\([^)]*\)\s*;", text):
        out[m.group(1)] = "void *"
    for m in re.finditer(r"typedef\s+((?:unsigned\s+)?\w+)\s*(\*?)\s*(\w+)\s*;", text):
        base, star, name = m.groups()
        if base not in ("enum", "struct"):
            out[name] = f"{base} *" if star else base
    return out


def canonical(ctype: str, typedefs: dict[str, str]) -> str:
    """The type the Python side of the C face sees for the declared type ``ctype``."""
    text = " ".join(ctype.replace("*", " * ").split())
    depth = text.count("*")
    words = [w for w in text.replace("*", " ").split() if w not in ("const", "volatile", "struct", "enum")]
    base = " ".join(words)
    if base == "char" and depth == 1:
        return "const char *"
    while base in typedefs:
        resolved = typedefs[base]
        depth += resolved.count("*")
        base = resolved.replace("*", "").strip()
    if base not in _SCALARS and base != "void":
        raise ValueError(f"unknown C type {ctype!r}: declare it with a typedef in the headers")
    if depth and base not in _SCALARS:
        base = "void"
    return base + (" " + "*" * depth if depth else "")


def _split_param(text: str) -> tuple[str, str]:
    """``(type, name)``; an array parameter ``T *name[]`` is the pointer ``T **`` it is in C."""
    text = " ".join(text.split())
    array = text.endswith("[]")
    m = re.fullmatch(r"(.*?[\s*])(\w+)", text[:-2].rstrip() if array else text)
    if m is None:
        raise ValueError(f"cannot read the parameter {text!r}: every parameter needs a type and a name")
    return m.group(1).strip() + (" *" if array else ""), m.group(2)


def parse(text: str, header: str, typedefs: dict[str, str]) -> list[Prototype]:
    """The exported declarations of one header's text."""
    body = _strip_comments(text)
    markers = "|".join(_EXPORT_MARKERS)
    protos = []
    for m in re.finditer(rf"(?:{markers})\s+([^;(){{}}]*?)(\w+)\s*\(([^)]*)\)\s*;", body):
        ret, name, params_text = " ".join(m.group(1).split()), m.group(2), m.group(3).strip()
        params = []
        if params_text not in ("", "void"):
            for piece in params_text.split(","):
                ctype, pname = _split_param(piece)
                params.append(Param(ctype, pname, canonical(ctype, typedefs)))
        protos.append(Prototype(name, ret, canonical(ret, typedefs), tuple(params), header))
    return protos


@lru_cache(maxsize=1)
def load() -> tuple[Prototype, ...]:
    """Every prototype of :data:`HEADERS`, in header order; a name declared twice is an error."""
    texts = {h: _strip_comments((INCLUDE_DIR / h).read_text()) for h in HEADERS}
    typedefs: dict[str, str] = {}
    for text in texts.values():
        typedefs.update(_typedefs(text))
    protos: list[Prototype] = []
    seen: dict[str, str] = {}
    for header, text in texts.items():
        for proto in parse(text, header, typedefs):
            if proto.name in seen:
                raise ValueError(f"{proto.name} is declared in {seen[proto.name]} and {header}")
            seen[proto.name] = header
            protos.append(proto)
    return tuple(protos)
