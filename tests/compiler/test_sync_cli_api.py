"""``aclsim sync ...`` and the entry points the kernel language calls."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from aclsim.cli import main
from aclsim.compiler import SyncError, SyncStats, auto_sync, format_program, parse, verify_sync
from aclsim.compiler.gen import kernel_stream
from aclsim.isa import Access, Instr, Pipe, Space, set_flag

KERNEL = """\
# double-buffered vector kernel, written with no syncs
for i in 0..4 {
  MTE2 copy_in r:GM[i*512:i*512+256] w:UB[0:256]
  V add r:UB[0:256] w:UB[1024:1280]
  MTE3 copy_out r:UB[1024:1280] w:GM[i*512+65536:i*512+65792]
  MTE2 copy_in r:GM[i*512+256:i*512+512] w:UB[256:512]
  V add r:UB[256:512] w:UB[1280:1536]
  MTE3 copy_out r:UB[1280:1536] w:GM[i*512+65792:i*512+66048]
}
"""


@pytest.fixture
def kernel(tmp_path: Path) -> Path:
    path = tmp_path / "kernel.sync"
    path.write_text(KERNEL)
    return path


def test_verify_names_the_lines_and_iterations(kernel: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sync", "verify", str(kernel)]) == 1
    out = capsys.readouterr().out
    assert "race(s)" in out
    assert f"RAW race on UB[0:256] (i=0 / i=0): {kernel}:3 'MTE2 copy_in" in out


def test_allocate_summary_and_output(kernel: Path, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "out.sync"
    assert main(["sync", "allocate", str(kernel), "--infer", "--chip", "910B", "-o", str(out_file)]) == 0
    err = capsys.readouterr().err
    assert "8 sync point(s), 1 segment(s), pool 8 per pipe pair" in err
    assert "MTE2 -> V    2 ID(s)" in err and "spills: 0 merge(s)" in err and "verify: OK" in err
    allocated = out_file.read_text()
    assert not any(ins.logical for ins in parse(allocated).instrs()) and "set_flag" in allocated
    assert main(["sync", "verify", str(out_file), "--physical"]) == 0
    assert "OK" in capsys.readouterr().out


def test_allocate_flat_file_reports_the_lower_bound(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "flat.sync"
    path.write_text("MTE2 ld w:UB[0:64]\nMTE2 ld w:UB[64:128]\nV a r:UB[0:64]\nV b r:UB[64:128]\n")
    assert main(["sync", "allocate", str(path), "--infer", "--pool", "1"]) == 0
    captured = capsys.readouterr()
    assert "1 ID(s) (lower bound 2)" in captured.err and "1 merge(s)" in captured.err
    assert "set_flag MTE2 V 0" in captured.out


def test_infer_command(kernel: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sync", "infer", str(kernel)]) == 0
    captured = capsys.readouterr()
    assert "set_flag V MTE2 L4" in captured.out and "inferred 8 flag pair(s)" in captured.err


def test_errors_are_reported_not_raised(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.sync"
    bad.write_text("V add r:UB[0:32]\nQ add\n")
    assert main(["sync", "verify", str(bad)]) == 2
    assert f"{bad}:2: unknown pipe 'Q'" in capsys.readouterr().err
    assert main(["sync", "allocate", str(tmp_path / "missing.sync")]) == 2
    unpaired = tmp_path / "unpaired.sync"
    unpaired.write_text("wait_flag MTE2 V L0\n")
    assert main(["sync", "allocate", str(unpaired)]) == 2
    assert "has no earlier set_flag" in capsys.readouterr().err


def test_python_dash_m(kernel: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "aclsim", "sync", "allocate", str(kernel), "--infer"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "verify: OK" in done.stderr and "for i in 0..4 {" in done.stdout


def test_auto_sync_on_a_recorded_trace() -> None:
    trace = [Instr(Pipe.MTE2, "copy_in", writes=(Access(Space.UB, 0, 256),), file="k.py", line=10),
             Instr(Pipe.V, "add", reads=(Access(Space.UB, 0, 256),), writes=(Access(Space.UB, 256, 256),),
                   file="k.py", line=11),
             Instr(Pipe.MTE3, "copy_out", reads=(Access(Space.UB, 256, 256),), file="k.py", line=12)]
    stats = SyncStats()
    out = auto_sync(trace, "910B", stats=stats)
    assert [repr(i) for i in out] == [
        "<Instr MTE2 copy_in w:UB[0:256]>", "<Instr MTE2 set_flag MTE2->V 0>",
        "<Instr V wait_flag MTE2->V 0>",
        "<Instr V add r:UB[0:256] w:UB[256:512]>", "<Instr V set_flag V->MTE3 0>",
        "<Instr MTE3 wait_flag V->MTE3 0>", "<Instr MTE3 copy_out r:UB[256:512]>"]
    assert out[1].line == 10 and out[2].line == 11 and out[1].file == "k.py"  # sets at the producer
    assert stats.alloc.ids_used == {(Pipe.MTE2, Pipe.V): 1, (Pipe.V, Pipe.MTE3): 1}
    assert stats.report is not None and stats.report.ok and "inferred 2 flag pair(s)" in stats.summary()
    assert trace[0].line == 10 and len(trace) == 3  # the input is left alone


def test_auto_sync_on_programs_and_big_traces() -> None:
    prog = auto_sync(parse(KERNEL), pool=2)
    assert verify_sync(prog, pool=2, require_physical=True).ok and "for i in 0..4 {" in format_program(prog)
    trace = kernel_stream(3000, depth=4)
    assert verify_sync(auto_sync(trace, "310P"), pool=8, require_physical=True).ok


def test_auto_sync_keeps_hand_written_flags() -> None:
    trace = [Instr(Pipe.MTE2, "ld", writes=(Access(Space.UB, 0, 64),)), set_flag(Pipe.MTE2, Pipe.V, 7)]
    with pytest.raises(SyncError):  # the hand-written set is never waited: the stream itself is wrong
        auto_sync(trace)


def test_verify_sync_on_programs_gives_loop_context() -> None:
    report = verify_sync(parse("for i in 0..2 {\n  MTE2 ld w:UB[0:64]\n  V add r:UB[0:64]\n}"))
    assert not report.ok
    assert report.races[0].context == "i=0 / i=0"
    assert "(i=0 / i=0)" in str(report)
    assert verify_sync(parse("set_flag MTE2 V 9\nwait_flag MTE2 V 9"), pool=8).issue_count == 2
    assert verify_sync(parse("set_flag MTE2 V 9\nwait_flag MTE2 V 9")).ok


def test_one_sync_error_for_the_passes_and_the_core_model() -> None:
    """The passes and the core model raise one class: an AclError with its code (507015)
    and the line, and a ValueError, so code catching either of the old classes still works."""
    from aclsim import errors
    from aclsim.arch import get_chip
    from aclsim.compiler import allocate_events
    from aclsim.sim import simulate

    assert SyncError is errors.SyncError
    with pytest.raises(errors.AclError) as exc:
        allocate_events(parse("MTE2 ld w:UB[0:64]\nwait_flag MTE2 V L0"))
    assert exc.value.code == errors.ACL_ERROR_RT_AICORE_EXCEPTION and isinstance(exc.value, ValueError)
    assert exc.value.line == 2 and "line 2: wait_flag MTE2 V L0 has no earlier set_flag" in str(exc.value)
    with pytest.raises(ValueError, match="never waited"):  # the core model's
        simulate(get_chip("910B"), [[set_flag(Pipe.MTE2, Pipe.V, 0)]])
