"""The Ascend C API table: in step with aclsim.kernel's exports and with docs/dsl_mapping.md;
and the coverage scan of benchmarks/api_coverage.py on small hand-written kernel sources."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

import aclsim.kernel as asc
from aclsim.kernel import api_table
from aclsim.kernel.api_table import (
    check_table,
    load_table,
    parse_table,
    render_markdown,
    resolve,
    unlisted_exports,
    unresolved_names,
)

ROOT = Path(__file__).resolve().parents[2]
HEAD = "## S\n"


def _bench() -> ModuleType:
    path = ROOT / "benchmarks" / "api_coverage.py"
    spec = importlib.util.spec_from_file_location("aclsim_bench_api_coverage", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# --- the table and the package -------------------------------------------------------------------

def test_rows_are_well_formed() -> None:
    assert check_table(load_table()) == []


def test_every_aclsim_name_the_table_claims_exists() -> None:
    assert unresolved_names(load_table()) == []


def test_every_export_has_a_row() -> None:
    assert unlisted_exports(load_table()) == []


def test_docs_section_is_the_rendering_of_the_table() -> None:
    doc = (ROOT / "docs" / "dsl_mapping.md").read_text(encoding="utf-8")
    start, end = doc.index(api_table.DOCS_BEGIN), doc.index(api_table.DOCS_END) + len(api_table.DOCS_END)
    assert doc[start:end] + "\n" == render_markdown(load_table()), (
        "docs/dsl_mapping.md is out of date: "
        "python -m aclsim.kernel.api_table --write-docs docs/dsl_mapping.md")


def test_methods_resolve_to_the_class_attribute() -> None:
    assert resolve("GlobalTensor.set_l2_cache_hint") is asc.GlobalTensor.set_l2_cache_hint
    assert resolve("add") is asc.add
    with pytest.raises(AttributeError):
        resolve("TPipe.no_such_method")


def test_module_check_command(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert api_table.main(["--check"]) == 0
    doc = tmp_path / "doc.md"
    doc.write_text(f"intro\n{api_table.DOCS_BEGIN}\nold\n{api_table.DOCS_END}\nafter\n", encoding="utf-8")
    assert api_table.main(["--write-docs", str(doc)]) == 0
    text = doc.read_text(encoding="utf-8")
    assert text.startswith("intro\n" + api_table.DOCS_BEGIN)
    assert text.endswith(api_table.DOCS_END + "\nafter\n")
    assert "| `DataCopyPad` | function | `data_copy_pad` | done |  |" in text and "\nold\n" not in text


# --- the checks catch what they are for ----------------------------------------------------------

def test_parse_names_the_bad_line() -> None:
    with pytest.raises(ValueError, match=r"t.txt:2: expected 5 cells"):
        parse_table(HEAD + "Add | function | add | done\n", "t.txt")
    with pytest.raises(ValueError, match=r":2: kind 'func'"):
        parse_table(HEAD + "Add | func | add | done |\n")
    with pytest.raises(ValueError, match=r":2: status 'ok'"):
        parse_table(HEAD + "Add | function | add | ok |\n")
    with pytest.raises(ValueError, match=r":1: a row before the first"):
        parse_table("Add | function | add | done |\n")


def test_check_table_finds_bad_rows() -> None:
    rows = parse_table(HEAD + "\n".join([
        "Add | function | add | done |",
        "Add | function | add | done |",
        "Sub | function | - | done |",
        "Mul | function | mul | partial |",
        "TNope.Get | method | - | missing |",
        "- | function | x | done |",
    ]))
    problems = "\n".join(check_table(rows))
    assert "listed twice" in problems
    assert "Sub: status done needs an aclsim name" in problems
    assert "Mul: a partial row must say what is missing" in problems
    assert "TNope.Get: a method is Class.Method of a class row" in problems
    assert "must be of kind aclsim" in problems


def test_unresolved_and_unlisted_names_are_reported() -> None:
    rows = parse_table(HEAD + "Add | function | add, no_such_thing | done |\nSub | function | sub | done |\n")
    assert unresolved_names(rows) == ["api_table.txt:2 Add -> no_such_thing: not in aclsim.kernel"]
    assert unlisted_exports(rows, ["add", "sub", "mul"]) == ["mul"]


# --- the coverage scan ---------------------------------------------------------------------------

KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;
// DataCopyPad(x) in a comment and "Axpy(" in a string do not count
__aicore__ inline float Sign(float x) { return x > 0 ? 1 : -1; }   // defined here: not the API
class KernelAdd {
public:
    __aicore__ inline void Init(GM_ADDR x) {
        xGm.SetGlobalBuffer((__gm__ half *)x);
        pipe.InitBuffer(inQ, 2, 256);
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    }
    __aicore__ inline void Process() {
        LocalTensor<half> a = inQ.template AllocTensor<half>();
        AscendC::DataCopy(a, xGm, 128);
        Add<half>(a, a, a, 128);
        float s = Sign(1.0f);
        int m = std::max(1, 2);
        MicroAPI::Neg(a, a);
        mm.SetTensorA(xGm);
        mm.Init(&tiling);
        GetTPipePtr()->Reset();
        auto t = inQ.DeQue<half>();
        auto u = t.ReinterpretCast<float>();
        SetFlag<HardEvent::MTE2_V>(0);
    }
private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ, inQ2;
    GlobalTensor<half> xGm;
    matmul::Matmul<int, int, int> mm;
};
extern "C" __global__ __aicore__ void add(GM_ADDR x) { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY); }
'''


def test_uses_follows_the_matching_rules() -> None:
    cov = _bench()
    table = cov.Table(load_table())
    assert cov.uses(KERNEL, table) == {
        "__aicore__", "__global__", "GM_ADDR", "__gm__", "half", "GlobalTensor", "LocalTensor", "TPipe",
        "TQue", "QuePosition", "HardEvent", "GlobalTensor.SetGlobalBuffer", "TPipe.InitBuffer",
        "REGIST_MATMUL_OBJ", "GetSysWorkSpacePtr", "TQue.AllocTensor", "TQue.DeQue", "DataCopy", "Add",
        "Matmul.SetTensorA", "Matmul.Init", "Matmul", "GetTPipePtr", "TPipe.Reset",
        "LocalTensor.ReinterpretCast", "SetFlag", "KERNEL_TASK_TYPE_DEFAULT", "KERNEL_TYPE_AIV_ONLY",
    }


def test_scan_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cov = _bench()
    (tmp_path / "k").mkdir()
    (tmp_path / "k" / "ok.cpp").write_text(
        '#include "kernel_operator.h"\n__aicore__ void f() { TPipe pipe; Add(a, b, c, 8); '
        'Cast(a, b, RoundMode::CAST_RINT, 8); }\n', encoding="utf-8")
    (tmp_path / "k" / "bad.cpp").write_text(
        "__aicore__ void g() { Axpy(a, b, 2.0, 8); Add(a, b, c, 8); }\n", encoding="utf-8")
    (tmp_path / "k" / "tiling.h").write_text("struct T { int n; };\n", encoding="utf-8")
    (tmp_path / "arch35").mkdir()
    (tmp_path / "arch35" / "new.cpp").write_text("__aicore__ void h() { Axpy(a, b, 2.0, 8); }\n",
                                                 encoding="utf-8")
    (tmp_path / "k" / "vf.h").write_text("__aicore__ void v() { MicroAPI::Add(a, b, c); }\n",
                                         encoding="utf-8")
    # a table of its own, so that the figures do not move when aclsim gains an API
    rows = parse_table(HEAD + "\n".join([
        "TPipe | class | TPipe | done |", "Add | function | add | done |",
        "Cast | function | cast | partial | some modes", "RoundMode | enum | RoundMode | done |",
        "Axpy | function | - | missing |", "__aicore__ | macro | - | python | def",
    ]))
    figures, per_file = cov.scan([tmp_path], classic=True, entries=rows)
    assert figures["files_scanned"] == 5 and figures["files_excluded"] == 2
    assert figures["kernel_files"] == 2 and figures["files_no_missing"] == 1
    assert figures["files_no_missing_pct"] == 50.0 and figures["files_all_done_pct"] == 0.0  # Cast: partial
    # used: TPipe, Add, Cast, RoundMode, Axpy (__aicore__ is plain Python: left out)
    assert figures["apis_used"] == 5 and figures["apis_covered"] == 4
    assert figures["top_missing"] == [["Axpy", 1, "missing"]]
    assert figures["top_partial"] == [["Cast", 1, "partial"]]
    assert per_file[str(tmp_path / "k" / "bad.cpp")] == ["Axpy"]
    assert figures["next_to_add"] == [["Axpy", 100.0]]
    figures, _ = cov.scan([tmp_path], classic=False, entries=rows)
    assert figures["kernel_files"] == 3 and figures["top_missing"] == [["Axpy", 2, "missing"]]
    assert cov.main(["--dirs", str(tmp_path), "--classic"]) == 0
    assert json.loads(capsys.readouterr().out)["kernel_files"] == 2


@pytest.mark.parametrize(("path", "text", "out"), [
    ("op/op_kernel/x.cpp", '#include "kernel_operator.h"', False),
    ("op/op_kernel/x_apt.cpp", "", True),               # ops-nn's ascend950 entry
    ("op/op_kernel/x_regbase.h", "", True),
    ("op/op_kernel/arch35/x.h", "", True),
    ("op/op_kernel/v35/x.h", "", True),
    ("op/op_kernel/x.cpp", '#include "arch35/x_dag.h"', True),
    ("op/op_kernel/x.cpp", '#include "../v35/x_base.h"', True),
    ("op/op_kernel/x.cpp", '#include "x_regbase.h"', True),
    ("op/op_kernel/x.cpp", '#if __CCE_AICORE__ == 310\n#include "arch35/x.h"\n#else\n#include "x.h"\n#endif',
     False),                                             # an entry the chips share
    ("op/op_kernel/x.cpp", "MicroAPI::RegTensor<float> r;", True),
    ("op/op_kernel/adapter.cpp", '#include "adv35x.h"', False),
])
def test_classic_leaves_out_the_ascend950_sources(path: str, text: str, out: bool) -> None:
    assert _bench().classic_excluded(Path(path), text) is out


def test_next_to_add_counts_names_that_come_together() -> None:
    cov = _bench()
    # four kernel files: one ports already, two miss A and B, one misses C
    assert cov.next_to_add([[], ["A", "B"], ["A", "B"], ["C"]], 4, 5) == [["A", 25.0], ["B", 75.0],
                                                                          ["C", 100.0]]
    assert cov.next_to_add([["A", "B"], ["C"]], 2, 1) == [["C", 50.0]]  # C alone completes a file


def test_scan_skips_without_sources(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    cov = _bench()
    assert cov.main([]) == 0
    assert "no source directory to scan (none given)" in capsys.readouterr().out
    assert cov.main(["--dirs", str(tmp_path / "absent")]) == 0
    assert "Skipped." in capsys.readouterr().out
