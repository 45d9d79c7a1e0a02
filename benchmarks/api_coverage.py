"""How much of the Ascend C API that real kernels call aclsim has; prints one JSON line.

Scans C++ kernel sources (``.cpp``, ``.h``, ``.hpp``, ``.asc``) for the Ascend C names of
``aclsim.kernel.api_table`` they use and maps them through the table::

    python benchmarks/api_coverage.py --dirs /tmp/ops-math /tmp/ops-nn [--classic] [--top 25]

Figures: source files read; kernel files (files with ``__aicore__``, ``__global__`` or
``kernel_operator.h`` that use at least one Ascend C API that is not plain Python); the kernel
files with no missing API (every name they use is done, partial or plain Python; also the
stricter share with every name done or plain Python); the distinct APIs used and covered
(plain-Python names left out of both); the most used missing and partial APIs by file count;
and ``next_to_add``, the missing names in the order that lets the most kernel files port
(greedy), each with the share of files with no missing API once it and those before it are
added.  ``--classic`` leaves out the Ascend 950 sources that Ascend C's classic API does not
cover: files under ``arch35``/``regbase``/``v35`` directories, ``*_apt``/``*_regbase``/``*_arch35``
files (ops-nn builds its ``*_apt.cpp`` kernels for the ascend950), files that include such a
header with no ``__CCE_AICORE__``/``__NPU_ARCH__`` test (one that has it is an entry the chips
share), and files using ``MicroAPI``, ``__VEC_SCOPE__`` or SIMT vector functions.
``--per-file PATH`` writes each kernel file's missing names.

How names are matched (a lexical scan, not a C++ parser): comments and literals are dropped;
an identifier qualified by a namespace other than ``AscendC``/``matmul`` is not Ascend C's
(``std::max``, ``MicroAPI::Add``); a function counts when it is called (``Name(`` or
``Name<...>(``) and not defined there (``void Name(``, or defined in the same directory);
classes, enums, constants, macros and types count wherever they appear as a free identifier
(``TPipe pipe;``, ``HardEvent::MTE2_V``), unless the same directory defines them; a method
counts on ``obj.Method(`` / ``obj->Method(`` when ``obj`` is declared in the file with a class
of the table (``TPipe pipe;``, ``TQue<...> inQ, outQ;``, ``REGIST_MATMUL_OBJ(..., mm, ...)``),
or when only one class of the table has that method and its name is not a common one
(``Init``, ``End``, ``Reset``, ...).  With no directory given, or none found, it says so and
exits 0 (CI has no mirrors of the kernel repositories).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from aclsim.kernel.api_table import ApiEntry, load_table

SOURCE_SUFFIXES = (".cpp", ".h", ".hpp", ".asc", ".cc")
ASCEND_NAMESPACES = frozenset({"AscendC", "matmul"})
# methods that user classes define too: attributed only through a declared receiver
GENERIC_METHODS = frozenset({"Init", "End", "Reset", "Destroy", "Get", "Iterate", "Print", "ToFile", "Alloc"})
NOT_A_TYPE = frozenset({"return", "else", "do", "case", "throw", "co_return", "co_yield", "new", "delete",
                        "sizeof", "typename", "template", "operator"})
CLASSIC_DIR_WORDS = ("arch35", "regbase", "v35")
KERNEL_MARKERS = re.compile(r"__aicore__|__global__|kernel_operator\.h")
CLASSIC_CONTENT = re.compile(r"MicroAPI|__VEC_SCOPE__|__simd_vf__|__simt_vf__|asc_vf_call")
CLASSIC_INCLUDE = re.compile(r'#\s*include\s*["<](?:[^">]*[/_])?(?:arch35|regbase|v35)[/_.]')
ARCH_CONDITIONAL = re.compile(r"__CCE_AICORE__|__NPU_ARCH__")  # an entry shared by the chips
CLASSIC_STEM = re.compile(r"(?:^|_)(?:apt|regbase|arch35)(?:_|$)")  # ops-nn's *_apt.cpp: the ascend950 build

_LITERALS = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
_TOKENS = re.compile(r"[A-Za-z_]\w*|::|->|\S")
_DEFINES = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)", re.M)
_TYPE_DEFS = re.compile(r"\b(?:class|struct|enum(?:\s+class)?|union)\s+([A-Za-z_]\w*)\s*[:{]|"
                        r"\busing\s+([A-Za-z_]\w*)\s*=")


def strip_code(text: str) -> str:
    """The text with comments and string/char literals blanked (line numbers kept)."""
    def blank(m: re.Match[str]) -> str:
        s = m.group(0)
        return "\n" * s.count("\n") if s.startswith("/") else '""'
    return _LITERALS.sub(blank, text)


class Table:
    """The scanned rows of the API table, indexed for the matcher."""

    def __init__(self, entries: Iterable[ApiEntry]) -> None:
        rows = [e for e in entries if e.scanned]
        self.rows = {e.ascend: e for e in rows}
        self.free = {e.ascend: e for e in rows if e.kind != "method"}
        self.methods: dict[str, list[str]] = defaultdict(list)  # method name -> classes
        for e in rows:
            if e.kind == "method":
                cls, _, method = e.ascend.partition(".")
                self.methods[method].append(cls)
        self.classes = {cls for classes in self.methods.values() for cls in classes}

    def untyped_method(self, method: str) -> str:
        """The row of ``.method(`` on an object of unknown type: the first class whose row is
        covered (``auto t = q.DeQue<T>()`` is a LocalTensor far more often than anything else),
        else the first class."""
        rows = [f"{cls}.{method}" for cls in self.methods[method]]
        return next((r for r in rows if self.rows[r].covered), rows[0])


def _skip_template(tokens: Sequence[str], i: int) -> int:
    """Index after the template argument list opening at ``tokens[i] == '<'`` (or ``i``)."""
    if i >= len(tokens) or tokens[i] != "<":
        return i
    depth, j = 0, i
    while j < len(tokens) and j < i + 200:
        t = tokens[j]
        if t == "<":
            depth += 1
        elif t == ">":
            depth -= 1
            if depth == 0:
                return j + 1
        elif t in (";", "{", "}"):
            return i
        j += 1
    return i


def _is_foreign(tokens: Sequence[str], i: int) -> bool:
    """Whether ``tokens[i]`` is qualified by a namespace or class that is not Ascend C's."""
    return i >= 2 and tokens[i - 1] == "::" and tokens[i - 2] not in ASCEND_NAMESPACES


def _declared_types(tokens: Sequence[str], table: Table) -> dict[str, str]:
    """Variables declared with a class of the table that has methods: name -> class."""
    types: dict[str, str] = {}
    for i, t in enumerate(tokens):
        if t == "REGIST_MATMUL_OBJ":  # REGIST_MATMUL_OBJ(&pipe, workspace, mm1, &tiling1, mm2, ...)
            j, depth, arg = i + 1, 0, 0
            while j < len(tokens):
                if tokens[j] == "(":
                    depth += 1
                elif tokens[j] == ")":
                    depth -= 1
                    if depth == 0:
                        break
                elif tokens[j] == "," and depth == 1:
                    arg += 1
                elif depth == 1 and arg >= 2 and arg % 2 == 0 and tokens[j].isidentifier():
                    types[tokens[j]] = "Matmul"
                j += 1
            continue
        if t not in table.classes or (i and tokens[i - 1] in (".", "->")) or _is_foreign(tokens, i):
            continue
        j = _skip_template(tokens, i + 1)
        while True:
            while j < len(tokens) and tokens[j] in ("*", "&"):
                j += 1
            if j >= len(tokens) or not tokens[j].isidentifier() or j + 1 >= len(tokens):
                break
            if tokens[j + 1] not in (";", ",", "=", "(", ")", "{", "["):
                break
            types[tokens[j]] = t
            if tokens[j + 1] != ",":
                break
            j += 2
    return types


def _receiver_class(tokens: Sequence[str], dot: int, types: dict[str, str]) -> str | None:
    """The declared class of the object before ``tokens[dot]`` (``.`` or ``->``), if known."""
    r = dot - 1
    if r >= 0 and tokens[r].isidentifier():
        return types.get(tokens[r])
    if r >= 2 and tokens[r] == ")" and tokens[r - 1] == "(" and tokens[r - 2] == "GetTPipePtr":
        return "TPipe"
    return None


def _definitions(text: str, tokens: Sequence[str]) -> set[str]:
    """Names this source defines: macros, classes/structs/enums/aliases, functions, variables
    (``int64_t Stride[4];`` makes ``Stride`` the file's own, not Ascend C's)."""
    names = set(_DEFINES.findall(text))
    for a, b in _TYPE_DEFS.findall(text):
        names.add(a or b)
    for i in range(1, len(tokens) - 1):
        if not tokens[i].isidentifier() or not _defined_here(tokens, i):
            continue
        if tokens[i + 1] == "(" or tokens[i + 1] in ("[", ";", "=", ","):  # a function; a variable
            names.add(tokens[i])
    return names


def _defined_here(tokens: Sequence[str], i: int) -> bool:
    """Whether ``tokens[i]`` follows a type, as a declared name does (``void Name(``, ``T *Name``)."""
    p = tokens[i - 1]
    if p in ("*", "&") and i >= 2:
        p = tokens[i - 2]
    return p.isidentifier() and p not in NOT_A_TYPE


def uses(text: str, table: Table, local_defs: set[str] | None = None) -> set[str]:
    """The Ascend C names of the table that the source ``text`` uses."""
    code = strip_code(text)
    tokens = _TOKENS.findall(code)
    defs = (local_defs or set()) | _definitions(code, tokens)
    types = _declared_types(tokens, table)
    found: set[str] = set()
    for i, t in enumerate(tokens):
        if not (t[0].isalpha() or t[0] == "_"):
            continue
        dot = i - 2 if i >= 2 and tokens[i - 1] == "template" else i - 1  # obj.template Get<T>()
        if dot >= 0 and tokens[dot] in (".", "->"):
            if t not in table.methods:
                continue
            cls = _receiver_class(tokens, dot, types)
            if cls is not None:
                if f"{cls}.{t}" in table.rows:
                    found.add(f"{cls}.{t}")
            elif t not in GENERIC_METHODS:
                found.add(table.untyped_method(t))
            continue
        entry = table.free.get(t)
        if entry is None or _is_foreign(tokens, i):
            continue
        qualified = i >= 2 and tokens[i - 1] == "::"
        if entry.kind == "function":
            j = _skip_template(tokens, i + 1)
            if j >= len(tokens) or tokens[j] != "(":
                continue
            if not qualified and (t in defs or _defined_here(tokens, i)):
                continue
        elif not qualified and t in defs:
            continue
        found.add(t)
    return found


def classic_excluded(path: Path, text: str) -> bool:
    """Whether ``path`` is an Ascend 950 (arch35 / regbase / MicroAPI) source."""
    parts = [p.lower() for p in path.parts[:-1]]
    if any(w in part for part in parts for w in CLASSIC_DIR_WORDS) or CLASSIC_STEM.search(path.stem.lower()):
        return True
    if CLASSIC_INCLUDE.search(text) and not ARCH_CONDITIONAL.search(text):
        return True
    return bool(CLASSIC_CONTENT.search(text))


def source_files(dirs: Iterable[Path]) -> list[Path]:
    files = []
    for d in dirs:
        for root, _, names in os.walk(d):
            files += [Path(root) / n for n in sorted(names) if n.endswith(SOURCE_SUFFIXES)]
    return sorted(files)


def scan(dirs: Sequence[Path], *, classic: bool = False, top: int = 25,
         entries: Iterable[ApiEntry] | None = None) -> tuple[dict[str, object], dict[str, list[str]]]:
    """The figures for the sources under ``dirs`` and each kernel file's uncovered names."""
    table = Table(load_table() if entries is None else entries)
    files = source_files(dirs)
    texts: dict[Path, str] = {}
    excluded = 0
    for f in files:
        text = f.read_text(encoding="utf-8", errors="replace")
        if classic and classic_excluded(f, text):
            excluded += 1
            continue
        texts[f] = text
    dir_defs: dict[Path, set[str]] = defaultdict(set)  # helpers a directory defines for itself
    for f, text in texts.items():
        code = strip_code(text)
        dir_defs[f.parent] |= _definitions(code, _TOKENS.findall(code))
    per_file: dict[str, list[str]] = {}
    used_by: Counter[str] = Counter()
    no_missing = all_done = 0
    for f, text in texts.items():
        if not KERNEL_MARKERS.search(text):
            continue  # host code, tiling structs: not a kernel file
        names = uses(text, table, dir_defs[f.parent])
        if not any(table.rows[n].status != "python" for n in names):
            continue  # no Ascend C API beyond plain-Python ones: not a kernel file
        used_by.update(names)
        missing = sorted(n for n in names if not table.rows[n].covered)
        per_file[str(f)] = missing
        no_missing += not missing
        all_done += all(table.rows[n].status in ("done", "python") for n in names)
    apis = [n for n in used_by if table.rows[n].status != "python"]
    covered = [n for n in apis if table.rows[n].covered]
    kernels = len(per_file)

    def ranked(statuses: Iterable[str]) -> list[list[object]]:
        want = set(statuses)
        rows = [(n, c) for n, c in used_by.most_common() if table.rows[n].status in want]
        return [[n, c, table.rows[n].status] for n, c in rows[:top]]

    figures: dict[str, object] = {
        "benchmark": "api_coverage",
        "dirs": [str(d) for d in dirs],
        "classic": classic,
        "files_scanned": len(files),
        "files_excluded": excluded,
        "kernel_files": kernels,
        "files_no_missing": no_missing,
        "files_no_missing_pct": round(100 * no_missing / kernels, 1) if kernels else None,
        "files_all_done_pct": round(100 * all_done / kernels, 1) if kernels else None,
        "apis_used": len(apis),
        "apis_covered": len(covered),
        "apis_covered_pct": round(100 * len(covered) / len(apis), 1) if apis else None,
        "python_names_used": sorted(n for n in used_by if table.rows[n].status == "python"),
        "top_missing": ranked(("missing", "other-chip", "in-progress")),
        "top_partial": ranked(("partial",)),
        "next_to_add": next_to_add(per_file.values(), kernels, top),
    }
    return figures, per_file


def next_to_add(missing: Iterable[Sequence[str]], kernels: int, top: int) -> list[list[object]]:
    """Greedily, the missing names whose addition lets the most further kernel files port with no
    missing API: ``[name, files_no_missing_pct once it and the names before it are added]``."""
    blocked = [set(m) for m in missing if m]
    done = kernels - len(blocked)
    order: list[list[object]] = []
    while blocked and len(order) < top:
        # a name's gain: its share of each file's remaining missing names, summed (names that
        # always come together, such as KERNEL_TASK_TYPE_DEFAULT and its KERNEL_TYPE_*, count too)
        gain: dict[str, float] = defaultdict(float)
        for m in blocked:
            for n in m:
                gain[n] += 1 / len(m)
        name = max(sorted(gain), key=gain.__getitem__)
        for m in blocked:
            m.discard(name)
        done += sum(1 for m in blocked if not m)
        blocked = [m for m in blocked if m]
        order.append([name, round(100 * done / kernels, 1)])
    return order


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dirs", nargs="*", default=[], help="source trees to scan")
    parser.add_argument("--classic", action="store_true", help="leave out arch35/regbase/MicroAPI sources")
    parser.add_argument("--top", type=int, default=25, help="how many missing APIs to list")
    parser.add_argument("--per-file", metavar="PATH", help="write each kernel file's missing names (JSON)")
    args = parser.parse_args(argv)
    dirs = [Path(d) for d in args.dirs if Path(d).is_dir()]
    if not dirs:
        given = ", ".join(args.dirs) if args.dirs else "none given"
        print(f"api_coverage: no source directory to scan ({given}); pass --dirs with checkouts of the "
              "kernel repositories. Skipped.")
        return 0
    t0 = time.perf_counter()
    figures, per_file = scan(dirs, classic=args.classic, top=args.top)
    figures["scan_seconds"] = round(time.perf_counter() - t0, 2)
    figures["machine"] = f"{platform.machine()}, {os.cpu_count()} cores, CPython {platform.python_version()}"
    if args.per_file:
        Path(args.per_file).write_text(json.dumps(per_file, indent=1), encoding="utf-8")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
