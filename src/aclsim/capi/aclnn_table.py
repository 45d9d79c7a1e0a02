"""The C prototypes of aclsim's aclnn ops, and the generator of ``include/aclnnop/*.h``.

``aclnn_table.txt`` has one row per op of :mod:`aclsim.aclnn` (``header | Op | parameters``);
each row makes two C functions in ``include/aclnnop/<header>``::

    aclnnStatus aclnn<Op>GetWorkspaceSize(<parameters>, uint64_t *workspaceSize,
                                          aclOpExecutor **executor);
    aclnnStatus aclnn<Op>(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                          aclrtStream stream);

The headers are generated from the table (``python -m aclsim.capi.aclnn_table --write``; a test
checks that regenerating changes nothing and that every registered op has its row); the C face's
prototype table (:mod:`aclsim.capi.prototypes`) reads them like the hand-written ones, and
:mod:`aclsim.capi.impl_nn` implements each function by forwarding the parameters, in the row's
order, to the op's Python phase one.

>>> rows = {r.op: r for r in load_rows()}
>>> rows["Add"].header, rows["Add"].params[:2]
('aclnn_add.h', ('const aclTensor *self', 'const aclTensor *other'))
>>> "aclnnop/aclnn_add.h" in HEADERS
True
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

__all__ = ["HEADERS", "META_HEADERS", "Row", "TABLE", "check", "load_rows", "render", "rendered", "write"]

_HERE = Path(__file__).resolve().parent
TABLE = _HERE / "aclnn_table.txt"
_INCLUDE = _HERE / "include"

#: the hand-written aclnn headers (the meta API, statuses, aclnnInit)
META_HEADERS: tuple[str, ...] = ("aclnn/acl_meta.h", "aclnn/aclnn_base.h")

#: what ends every phase-one and phase-two parameter list
PHASE_ONE_TAIL = "uint64_t *workspaceSize, aclOpExecutor **executor"
PHASE_TWO = "void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream"


@dataclass(frozen=True)
class Row:
    """One op: its header (under ``aclnnop/``), its name, and phase one's leading parameters."""

    header: str
    op: str
    params: tuple[str, ...]

    def declarations(self) -> list[str]:
        first = ", ".join((*self.params, PHASE_ONE_TAIL))
        return [f"ACLNN_API aclnnStatus aclnn{self.op}GetWorkspaceSize({first});",
                f"ACLNN_API aclnnStatus aclnn{self.op}({PHASE_TWO});"]


def _parse(text: str) -> list[Row]:
    rows: list[Row] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 3 or not parts[0].startswith("aclnn_") or not parts[0].endswith(".h"):
            raise ValueError(f"{TABLE.name}:{lineno}: expected 'aclnn_<name>.h | Op | parameters', "
                             f"got {line!r}")
        params = tuple(" ".join(p.split()) for p in parts[2].split(","))
        if not parts[1].isidentifier() or not all(params):
            raise ValueError(f"{TABLE.name}:{lineno}: bad op name or empty parameter in {line!r}")
        rows.append(Row(parts[0], parts[1], params))
    ops = [r.op for r in rows]
    dupes = sorted({o for o in ops if ops.count(o) > 1})
    if dupes:
        raise ValueError(f"{TABLE.name}: ops listed twice: {', '.join(dupes)}")
    return rows


def load_rows() -> list[Row]:
    """The rows of :data:`TABLE`, in table order."""
    return _parse(TABLE.read_text())


def _headers(rows: list[Row]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(f"aclnnop/{r.header}" for r in rows))


#: every aclnn header of the C face (the prototype table reads every header under include/)
HEADERS: tuple[str, ...] = META_HEADERS + _headers(load_rows())


def render(header: str, rows: list[Row]) -> str:
    """The text of ``aclnnop/<header>`` for its rows."""
    mine = [r for r in rows if r.header == header]
    guard = "ACLSIM_ACLNNOP_" + header.upper().replace(".", "_") + "_"
    ops = ", ".join(r.op for r in mine)
    lines = [
        "/*",
        f" * aclnnop/{header} - aclnn {ops} for aclsim: phase one (GetWorkspaceSize) and phase two.",
        " * GENERATED from aclsim/capi/aclnn_table.txt by `python -m aclsim.capi.aclnn_table --write`:",
        " * edit the table, not this file.  Statuses and semantics: docs/aclnn.md, docs/capi.md.",
        " */",
        f"#ifndef {guard}",
        f"#define {guard}",
        "",
        '#include "aclnn/aclnn_base.h"',
        "",
        "#ifdef __cplusplus",
        'extern "C" {',
        "#endif",
        "",
    ]
    for row in mine:
        lines += row.declarations() + [""]
    lines += ["#ifdef __cplusplus", "}", "#endif", "", f"#endif /* {guard} */", ""]
    return "\n".join(lines)


def rendered() -> dict[Path, str]:
    """Every generated header: path -> text."""
    rows = load_rows()
    return {_INCLUDE / h: render(h.split("/", 1)[1], rows) for h in _headers(rows)}


def check() -> list[str]:
    """What is out of date: generated headers that differ from the table, and stray headers."""
    want = rendered()
    problems = [f"{p.name} differs from the table" for p, t in want.items()
                if not p.exists() or p.read_text() != t]
    problems += [f"{p.name} has no row in the table" for p in sorted((_INCLUDE / "aclnnop").glob("*.h"))
                 if p not in want]
    return problems


def write() -> list[Path]:
    """Write the generated headers (and remove ones no row names); returns what changed."""
    want = rendered()
    changed = []
    (_INCLUDE / "aclnnop").mkdir(exist_ok=True)
    for path, text in want.items():
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            changed.append(path)
    for path in sorted((_INCLUDE / "aclnnop").glob("*.h")):
        if path not in want:
            path.unlink()
            changed.append(path)
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m aclsim.capi.aclnn_table",
                                     description="check (default) or regenerate include/aclnnop/*.h")
    parser.add_argument("--write", action="store_true", help="regenerate include/aclnnop/*.h")
    args = parser.parse_args(argv)
    if args.write:
        for path in write():
            print(f"wrote {path}")
        return 0
    problems = check()
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
